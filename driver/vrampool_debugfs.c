// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: debugfs, for tests and debugging only (no ABI).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>

#include "vrampool_bo.h"
#include "vrampool_client_types.h"
#include "vrampool_debugfs.h"
#include "vrampool_device_types.h"
#include "vrampool_pool_set.h"

/**
 * DOC: debugfs test buffers
 *
 * ``/sys/kernel/debug/accel/<device>/`` holds two files that let tests reach
 * VRAM before any pool exists. They are for tests only and are no ABI.
 *
 * ``test_bo_size``
 *	Size in bytes of the buffers ``test_bo`` makes (default 64 KiB).
 *	Writing 0 or more than the device's VRAM fails with -EINVAL.
 *
 * ``test_bo``
 *	Each open() creates a fresh, zero-filled buffer object of
 *	``test_bo_size`` bytes (rounded up to whole CPU pages) pinned in VRAM
 *	and owned by that open file; read() and write() reach its bytes at the
 *	file offset, and close() frees it. Reads at or past the end return 0
 *	bytes, writes there fail with -ENOSPC, and writes that cross the end
 *	are cut short. open() fails with -ENOSPC when VRAM cannot hold it.
 *
 * ``vram_mm``
 *	The VRAM range manager's allocations, as TTM prints them.
 *
 * ``clients``
 *	The page map of every client: for each pool its pages, and for each
 *	page its slices (``used offset+size``) and free ranges
 *	(``free offset+size``), in offset order.
 */

#define VRAMPOOL_DEFAULT_TEST_BO_SIZE	SZ_64K

/* Bytes copied between userspace and VRAM per step. */
#define VRAMPOOL_TEST_BO_CHUNK		PAGE_SIZE

struct vrampool_test_bo {
	struct vrampool_device *vdev;
	struct vrampool_bo *bo;
	struct iosys_map map;
	u64 size;
};

static int test_bo_size_get(void *data, u64 *val)
{
	struct vrampool_device *vdev = data;

	*val = READ_ONCE(vdev->test_bo_size);
	return 0;
}

static int test_bo_size_set(void *data, u64 val)
{
	struct vrampool_device *vdev = data;

	if (!val || val > vdev->props.vram_size)
		return -EINVAL;

	WRITE_ONCE(vdev->test_bo_size, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(test_bo_size_fops, test_bo_size_get, test_bo_size_set, "%llu\n");

static int test_bo_open(struct inode *inode, struct file *file)
{
	struct vrampool_device *vdev = inode->i_private;
	struct vrampool_test_bo *tb;
	int ret;

	tb = kzalloc(sizeof(*tb), GFP_KERNEL);
	if (!tb)
		return -ENOMEM;

	tb->vdev = vdev;
	tb->size = READ_ONCE(vdev->test_bo_size);
	/* The BO must go before TTM does, whatever happens to the device. */
	drm_dev_get(&vdev->drm);

	ret = vrampool_bo_create(vdev, tb->size, ttm_bo_type_kernel, &tb->bo);
	if (ret)
		goto err_dev_put;

	ret = vrampool_bo_vmap(tb->bo, &tb->map);
	if (ret)
		goto err_bo_free;

	file->private_data = tb;
	return 0;

err_bo_free:
	vrampool_bo_free(tb->bo);
err_dev_put:
	drm_dev_put(&vdev->drm);
	kfree(tb);
	return ret;
}

static int test_bo_release(struct inode *inode, struct file *file)
{
	struct vrampool_test_bo *tb = file->private_data;
	struct vrampool_device *vdev = tb->vdev;

	vrampool_bo_vunmap(tb->bo, &tb->map);
	vrampool_bo_free(tb->bo);
	drm_dev_put(&vdev->drm);
	kfree(tb);
	return 0;
}

/* Copies @len bytes at @pos between VRAM and @ubuf, in chunks. */
static ssize_t test_bo_copy(struct vrampool_test_bo *tb, char __user *ubuf,
			    size_t len, loff_t pos, bool to_vram)
{
	size_t done = 0, n;
	ssize_t ret = 0;
	void *chunk;
	int idx;

	chunk = kmalloc(VRAMPOOL_TEST_BO_CHUNK, GFP_KERNEL);
	if (!chunk)
		return -ENOMEM;

	if (!drm_dev_enter(&tb->vdev->drm, &idx)) {
		kfree(chunk);
		return -ENODEV;
	}

	while (done < len) {
		n = min_t(size_t, len - done, VRAMPOOL_TEST_BO_CHUNK);
		if (to_vram) {
			if (copy_from_user(chunk, ubuf + done, n)) {
				ret = -EFAULT;
				break;
			}
			iosys_map_memcpy_to(&tb->map, pos + done, chunk, n);
		} else {
			iosys_map_memcpy_from(chunk, &tb->map, pos + done, n);
			if (copy_to_user(ubuf + done, chunk, n)) {
				ret = -EFAULT;
				break;
			}
		}
		done += n;
	}

	drm_dev_exit(idx);
	kfree(chunk);
	return done ? done : ret;
}

static ssize_t test_bo_read(struct file *file, char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	struct vrampool_test_bo *tb = file->private_data;
	ssize_t ret;

	if (*ppos < 0)
		return -EINVAL;
	if (*ppos >= tb->size)
		return 0;

	ret = test_bo_copy(tb, ubuf, min_t(u64, count, tb->size - *ppos), *ppos, false);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static ssize_t test_bo_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct vrampool_test_bo *tb = file->private_data;
	ssize_t ret;

	if (*ppos < 0)
		return -EINVAL;
	if (*ppos >= tb->size)
		return count ? -ENOSPC : 0;

	ret = test_bo_copy(tb, (char __user *)ubuf, min_t(u64, count, tb->size - *ppos),
			   *ppos, true);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static loff_t test_bo_llseek(struct file *file, loff_t offset, int whence)
{
	struct vrampool_test_bo *tb = file->private_data;

	return fixed_size_llseek(file, offset, whence, tb->size);
}

static const struct file_operations test_bo_fops = {
	.owner = THIS_MODULE,
	.open = test_bo_open,
	.release = test_bo_release,
	.read = test_bo_read,
	.write = test_bo_write,
	.llseek = test_bo_llseek,
};

static int vram_mm_show(struct seq_file *m, void *unused)
{
	struct vrampool_device *vdev = m->private;
	struct drm_printer p = drm_seq_file_printer(m);

	ttm_resource_manager_debug(ttm_manager_type(&vdev->bdev, TTM_PL_VRAM), &p);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vram_mm);

static void page_map_show(struct seq_file *m, struct vrampool_pool_page *ppage)
{
	struct drm_mm_node *node;
	u64 at = 0;

	seq_printf(m, "    page %u size %llu:", ppage->index, ppage->size);
	if (ppage->pool->config.type != DRM_VRAMPOOL_POOL_SLICED) {
		seq_printf(m, " %s 0+%llu\n", ppage->alloc ? "used" : "free", ppage->size);
		return;
	}
	drm_mm_for_each_node(node, &ppage->mm) {
		if (node->start > at)
			seq_printf(m, " free %llu+%llu", at, node->start - at);
		seq_printf(m, " used %llu+%llu", node->start, node->size);
		at = node->start + node->size;
	}
	if (at < ppage->size)
		seq_printf(m, " free %llu+%llu", at, ppage->size - at);
	seq_puts(m, "\n");
}

static void pool_map_show(struct seq_file *m, struct vrampool_pool *pool)
{
	static const char *const types[] = {
		[DRM_VRAMPOOL_POOL_EXCLUSIVE] = "exclusive",
		[DRM_VRAMPOOL_POOL_SLICED] = "sliced",
		[DRM_VRAMPOOL_POOL_DIRECT] = "direct",
		[DRM_VRAMPOOL_POOL_PERSISTENT] = "persistent",
	};
	struct vrampool_pool_page *ppage;
	unsigned long index;

	seq_printf(m, "  pool %u %s: %llu pages, %llu allocations\n", pool->index,
		   types[pool->config.type], pool->stats.pages, pool->stats.allocations);
	xa_for_each(&pool->pages, index, ppage)
		page_map_show(m, ppage);
}

static int clients_show(struct seq_file *m, void *unused)
{
	struct vrampool_device *vdev = m->private;
	struct vrampool_client *client;
	u32 i;

	mutex_lock(&vdev->clients_lock);
	list_for_each_entry(client, &vdev->clients, link) {
		mutex_lock(&client->lock);
		seq_printf(m, "client %llu generation %llu\n", client->file->client_id,
			   client->generation);
		for (i = 0; i < client->pool_set->count; i++)
			pool_map_show(m, client->pool_set->pools[i]);
		pool_map_show(m, client->persistent);
		mutex_unlock(&client->lock);
	}
	mutex_unlock(&vdev->clients_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(clients);

/**
 * vrampool_debugfs_init() - create a device's debugfs files
 * @vdev: the device, its TTM set up
 *
 * The files live in the DRM device's debugfs folder and go with it.
 */
void vrampool_debugfs_init(struct vrampool_device *vdev)
{
	struct dentry *root = vdev->drm.debugfs_root;

	vdev->test_bo_size = VRAMPOOL_DEFAULT_TEST_BO_SIZE;
	debugfs_create_file_unsafe("test_bo_size", 0600, root, vdev, &test_bo_size_fops);
	debugfs_create_file("test_bo", 0600, root, vdev, &test_bo_fops);
	debugfs_create_file("vram_mm", 0400, root, vdev, &vram_mm_fops);
	debugfs_create_file("clients", 0400, root, vdev, &clients_fops);
}

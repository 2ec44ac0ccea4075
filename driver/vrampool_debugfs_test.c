// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the debugfs test buffers, a test-only way to reach VRAM.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "vrampool_bo.h"
#include "vrampool_debugfs_test.h"
#include "vrampool_device_types.h"

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
 * Built with CONFIG_DRM_ACCEL_VRAMPOOL_DEBUGFS_TEST (see Kbuild) and
 * CONFIG_DEBUG_FS.
 */

#define VRAMPOOL_DEFAULT_TEST_BO_SIZE	SZ_64K

/* Bytes copied between userspace and VRAM per step. */
#define VRAMPOOL_TEST_BO_CHUNK		PAGE_SIZE

/* A device's test interface: the data of both files, freed with the device. */
struct vrampool_test_bo_dir {
	struct vrampool_device *vdev;
	u64 bo_size;
};

/* One open test_bo file and its BO. */
struct vrampool_test_bo {
	struct vrampool_device *vdev;
	struct vrampool_bo *bo;
	u64 size;
};

static int test_bo_size_get(void *data, u64 *val)
{
	struct vrampool_test_bo_dir *dir = data;

	*val = READ_ONCE(dir->bo_size);
	return 0;
}

static int test_bo_size_set(void *data, u64 val)
{
	struct vrampool_test_bo_dir *dir = data;

	if (!val || val > dir->vdev->props.vram_size)
		return -EINVAL;

	WRITE_ONCE(dir->bo_size, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(test_bo_size_fops, test_bo_size_get, test_bo_size_set, "%llu\n");

static int test_bo_open(struct inode *inode, struct file *file)
{
	struct vrampool_test_bo_dir *dir = inode->i_private;
	struct vrampool_device *vdev = dir->vdev;
	struct vrampool_test_bo *tb;
	int ret;

	tb = kzalloc(sizeof(*tb), GFP_KERNEL);
	if (!tb)
		return -ENOMEM;

	tb->vdev = vdev;
	tb->size = READ_ONCE(dir->bo_size);
	/* The BO must go before TTM does, whatever happens to the device. */
	drm_dev_get(&vdev->drm);

	ret = vrampool_bo_create(vdev, tb->size, ttm_bo_type_kernel, &tb->bo);
	if (ret)
		goto err_dev_put;

	file->private_data = tb;
	return 0;

err_dev_put:
	drm_dev_put(&vdev->drm);
	kfree(tb);
	return ret;
}

static int test_bo_release(struct inode *inode, struct file *file)
{
	struct vrampool_test_bo *tb = file->private_data;
	struct vrampool_device *vdev = tb->vdev;

	vrampool_bo_free(tb->bo);
	drm_dev_put(&vdev->drm);
	kfree(tb);
	return 0;
}

/* One chunk between VRAM and @chunk, inside drm_dev_enter(): -ENODEV once unplugged. */
static int test_bo_chunk(struct vrampool_test_bo *tb, void *chunk, size_t n, loff_t pos,
			 bool to_vram)
{
	int idx;

	if (!drm_dev_enter(&tb->vdev->drm, &idx))
		return -ENODEV;
	if (to_vram)
		vrampool_bo_write(tb->bo, pos, chunk, n);
	else
		vrampool_bo_read(tb->bo, pos, chunk, n);
	drm_dev_exit(idx);
	return 0;
}

/*
 * Copies @len bytes at @pos between VRAM and @ubuf, in chunks, each through
 * the blocks of VRAM behind it. The user copies are outside drm_dev_enter():
 * an unbind never waits for userspace memory (DOC: unplug, vrampool_drv.c).
 */
static ssize_t test_bo_copy(struct vrampool_test_bo *tb, char __user *ubuf,
			    size_t len, loff_t pos, bool to_vram)
{
	size_t done = 0, n;
	ssize_t ret = 0;
	void *chunk;

	chunk = kmalloc(VRAMPOOL_TEST_BO_CHUNK, GFP_KERNEL);
	if (!chunk)
		return -ENOMEM;

	while (done < len) {
		n = min_t(size_t, len - done, VRAMPOOL_TEST_BO_CHUNK);
		if (to_vram && copy_from_user(chunk, ubuf + done, n)) {
			ret = -EFAULT;
			break;
		}
		ret = test_bo_chunk(tb, chunk, n, pos + done, to_vram);
		if (ret)
			break;
		if (!to_vram && copy_to_user(ubuf + done, chunk, n)) {
			ret = -EFAULT;
			break;
		}
		done += n;
	}

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

/**
 * vrampool_debugfs_test_init() - create a device's test_bo and test_bo_size
 * @vdev: the device, its TTM set up
 *
 * The files live in the DRM device's debugfs folder and go with it.
 */
void vrampool_debugfs_test_init(struct vrampool_device *vdev)
{
	struct dentry *root = vdev->drm.debugfs_root;
	struct vrampool_test_bo_dir *dir;

	dir = drmm_kzalloc(&vdev->drm, sizeof(*dir), GFP_KERNEL);
	if (!dir)
		return;
	dir->vdev = vdev;
	dir->bo_size = VRAMPOOL_DEFAULT_TEST_BO_SIZE;

	debugfs_create_file_unsafe("test_bo_size", 0600, root, dir, &test_bo_size_fops);
	debugfs_create_file("test_bo", 0600, root, dir, &test_bo_fops);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: clients, the open files of a device, and the pools they own.
 *
 * A client starts with the device's default layout. POOL_INSTALL replaces
 * its pool set: the request is checked and resolved whole, into a new set,
 * before any live state is touched; only then is the new set swapped in. A
 * refused install says why in its &struct drm_vrampool_layout_error and
 * changes nothing. POOL_QUERY and fdinfo report the pools.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_bo.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_layout.h"
#include "vrampool_macros.h"
#include "vrampool_modparams.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_sysfs.h"
#include "vrampool_trace.h"

static struct vrampool_client *backing_to_client(const struct vrampool_backing *backing)
{
	return container_of(backing, struct vrampool_client, backing);
}

/*
 * Whether a new page of @size would take the client past the device's
 * VRAM quota; if so the quota is recorded for the ALLOC's error.
 */
static bool client_over_quota(struct vrampool_client *client, u64 size)
{
	u64 quota = READ_ONCE(client->vdev->vram_quota);

	if (!quota || vrampool_client_vram(client) + PAGE_ALIGN(size) <= quota)
		return false;
	client->quota_refused = quota;
	return true;
}

/*
 * A page of a client's pool is one pinned VRAM BO only its file may map;
 * the client holds at most max_pages of them, and at most the device's
 * vram_quota bytes of VRAM.
 */
static int client_back(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage)
{
	struct vrampool_client *client = backing_to_client(backing);
	struct vrampool_bo *bo;
	int ret;

	if (client->pages >= vrampool_modparam.max_pages)
		return -EDQUOT;
	if (client_over_quota(client, ppage->size))
		return -EDQUOT;

	ret = vrampool_bo_create(client->vdev, ppage->size, ttm_bo_type_device, &bo);
	if (ret)
		return ret;

	ret = drm_vma_node_allow(&bo->tbo.base.vma_node, client->file);
	if (ret) {
		vrampool_bo_free(bo);
		return ret;
	}

	bo->orphans = &client->orphans;
	ppage->bo = bo;
	ppage->vram = bo->tbo.base.size;
	ppage->mmap_offset = drm_vma_node_offset_addr(&bo->tbo.base.vma_node);
	client->pages++;
	return 0;
}

static void client_release(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage)
{
	struct vrampool_client *client = backing_to_client(backing);

	if (!ppage->bo)
		return;

	drm_vma_node_revoke(&ppage->bo->tbo.base.vma_node, client->file);
	vrampool_bo_free(ppage->bo);
	ppage->bo = NULL;
	client->pages--;
}

/**
 * vrampool_client_vram() - VRAM charged to a client
 * @client: the client, locked
 *
 * Return: the bytes its pools hold, plus its orphans' (pages it freed while
 * they were still mapped: they keep their VRAM until the last munmap()).
 */
u64 vrampool_client_vram(struct vrampool_client *client)
{
	lockdep_assert_held(&client->lock);
	return client->persistent->stats.vram + vrampool_pool_set_vram(client->pool_set) +
	       vrampool_orphans_bytes(&client->orphans);
}

/**
 * vrampool_client_open() - &drm_driver.open: a new client
 * @drm: the device
 * @file: the new open file
 *
 * The client starts with the device's default layout, an empty persistent
 * pool and no allocation.
 *
 * Return: 0; -ENODEV once the device is unplugged; -ENOMEM, or the error
 * that kept its sysfs folder from being made.
 */
int vrampool_client_open(struct drm_device *drm, struct drm_file *file)
{
	static const struct drm_vrampool_pool_entry persistent = {
		.type = DRM_VRAMPOOL_POOL_PERSISTENT,
	};
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client;
	int idx, ret;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	ret = -ENOMEM;
	client = kzalloc(sizeof(*client), GFP_KERNEL_ACCOUNT);
	if (!client)
		goto err_exit;

	client->vdev = vdev;
	client->file = file;
	client->backing.back = client_back;
	client->backing.release = client_release;
	client->backing.owner = file->client_id;
	client->generation = 1;
	client->persistent_mode = DRM_VRAMPOOL_PERSISTENT_ENABLED;
	mutex_init(&client->lock);
	mutex_init(&client->sysfs_lock);
	xa_init_flags(&client->handles, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);

	ret = -ENOMEM;
	client->persistent = vrampool_pool_create(&persistent, DRM_VRAMPOOL_PERSISTENT_POOL,
						  vdev->props.alignment, &client->backing);
	if (!client->persistent)
		goto err_free;

	client->pool_set = vrampool_pool_set_create(vdev->default_pools, vdev->default_count,
						    vdev->props.alignment, &client->backing);
	if (!client->pool_set)
		goto err_persistent;

	ret = vrampool_sysfs_client_add(client);
	if (ret)
		goto err_pool_set;

	scoped_guard(mutex, &vdev->clients_lock)
		list_add_tail(&client->link, &vdev->clients);
	atomic_inc(&vdev->client_count);

	file->driver_priv = client;
	drm_dev_exit(idx);
	return 0;

err_pool_set:
	vrampool_pool_set_destroy(client->pool_set);
err_persistent:
	vrampool_pool_destroy(client->persistent);
err_free:
	mutex_destroy(&client->sysfs_lock);
	mutex_destroy(&client->lock);
	kfree(client);
err_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * vrampool_client_postclose() - &drm_driver.postclose: a client is gone
 * @drm: the device
 * @file: the closed file
 *
 * Frees every allocation and pool the client owned, in time linear in
 * their number; their VRAM goes back to the device. No page is mapped any
 * more (a mapping holds the file), so the client has no orphan left either.
 * The vrampool_close event counts what the teardown visited.
 */
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct vrampool_device *vdev = client->vdev;
	u64 allocs = 0, records = 0, pages;
	unsigned long handle;
	void *entry;

	vrampool_sysfs_client_remove(client);
	scoped_guard(mutex, &vdev->clients_lock)
		list_del(&client->link);
	atomic_dec(&vdev->client_count);

	/*
	 * No free-page upkeep for pools about to go (DOC: teardown); a
	 * page-less entry (DOC: handle entries) holds nothing to drop.
	 */
	xa_for_each(&client->handles, handle, entry) {
		if (!xa_is_value(entry)) {
			vrampool_pool_drop(entry);
			vrampool_alloc_record_free(entry);
			records++;
		}
		allocs++;
		cond_resched();
	}
	xa_destroy(&client->handles);
	records += vrampool_alloc_record_drain(client);

	pages = vrampool_pool_set_destroy(client->pool_set);
	pages += vrampool_pool_destroy(client->persistent);
	trace_vrampool_close(file->client_id, allocs, records, pages);
	mutex_destroy(&client->sysfs_lock);
	mutex_destroy(&client->lock);
	kfree(client);
}

/**
 * vrampool_client_cleanup() - explicit cleanup of every pool of a client
 * @client: the client, locked
 *
 * Free pages and buffers go back to the device.
 */
void vrampool_client_cleanup(struct vrampool_client *client)
{
	u64 before;

	lockdep_assert_held(&client->lock);
	before = vrampool_client_vram(client);
	vrampool_pool_cleanup(client->persistent, true, client->alloc_nr);
	vrampool_pool_set_cleanup(client->pool_set, true, client->alloc_nr);
	trace_vrampool_cleanup(client->file->client_id, before - vrampool_client_vram(client));
}

/**
 * vrampool_client_purgeable() - VRAM of a client's free cached pages
 * @client: the client, locked
 *
 * Return: bytes of VRAM its pages without a live allocation hold: what a
 * cleanup, or reclaim by another client, would give back.
 */
u64 vrampool_client_purgeable(struct vrampool_client *client)
{
	lockdep_assert_held(&client->lock);
	return vrampool_pool_free_vram(client->persistent) +
	       vrampool_pool_set_free_vram(client->pool_set);
}

/**
 * vrampool_client_show_fdinfo() - &drm_driver.show_fdinfo: drm-usage-stats
 * @p: where to print
 * @file: the client's file
 *
 * Reports the VRAM charged to the client (vrampool_client_vram()) as
 * resident private memory, of it what its orphans hold and how many there
 * are (``vrampool-orphan-vram``, ``vrampool-orphans``), its free cached
 * pages as purgeable (``drm-purgeable-vram``), and what other clients'
 * reclaim took from it (``vrampool-reclaimed-bytes``, ``-pages``).
 */
void vrampool_client_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct drm_memory_stats stats = {};
	u64 reclaimed_bytes, reclaimed_pages;

	/* A reader that is killed prints nothing rather than wait on. */
	if (mutex_lock_killable(&client->lock))
		return;
	stats.private = vrampool_client_vram(client);
	stats.purgeable = vrampool_client_purgeable(client);
	reclaimed_bytes = client->reclaimed_bytes;
	reclaimed_pages = client->reclaimed_pages;
	mutex_unlock(&client->lock);
	stats.resident = stats.private;
	drm_print_memory_stats(p, &stats, DRM_GEM_OBJECT_RESIDENT | DRM_GEM_OBJECT_PURGEABLE,
			       "vram");
	drm_printf(p, "vrampool-orphan-vram:\t%llu\n", vrampool_orphans_bytes(&client->orphans));
	drm_printf(p, "vrampool-orphans:\t%llu\n", vrampool_orphans_count(&client->orphans));
	drm_printf(p, "vrampool-reclaimed-bytes:\t%llu\n", reclaimed_bytes);
	drm_printf(p, "vrampool-reclaimed-pages:\t%llu\n", reclaimed_pages);
}

/* The dynamic pools may be replaced only while they hold no allocation. */
static int client_check_idle(struct vrampool_client *client,
			     struct drm_vrampool_layout_error *err)
{
	u64 bytes;

	lockdep_assert_held(&client->lock);
	if (!vrampool_pool_set_allocations(client->pool_set, &bytes))
		return 0;

	vrampool_layout_error_set(err, DRM_VRAMPOOL_ERR_POOLS_IN_USE, DRM_VRAMPOOL_NO_ENTRY,
				  DRM_VRAMPOOL_FIELD_NONE, bytes, 0);
	return -EBUSY;
}

/*
 * Swaps *@set in unless the dynamic pools hold live allocations; an
 * explicit cleanup runs first. On return *@set is what the caller must
 * destroy. Runs under the sysfs lock.
 */
static int client_swap(struct vrampool_client *client, struct vrampool_pool_set **set,
		       struct drm_vrampool_layout_error *err, u64 *generation)
{
	int ret;

	lockdep_assert_held(&client->sysfs_lock);
	scoped_cond_guard(mutex_intr, return -EINTR, &client->lock) {
		vrampool_client_cleanup(client);
		ret = client_check_idle(client, err);
		if (!ret) {
			swap(client->pool_set, *set);
			client->generation++;
		}
		*generation = client->generation;
	}
	return ret;
}

/*
 * Puts a new pool set of @count resolved pools in force, with its sysfs
 * folders. The folders come before the swap and go after it, without the
 * client lock (see DOC: Locking); under the sysfs lock the pool set, and
 * so its count, is stable.
 */
static int client_install(struct vrampool_client *client,
			  const struct drm_vrampool_pool_entry *pools, u32 count,
			  struct drm_vrampool_layout_error *err, u64 *generation)
{
	struct vrampool_pool_set *set;
	int ret;

	set = vrampool_pool_set_create(pools, count, client->vdev->props.alignment,
				       &client->backing);
	if (!set)
		return -ENOMEM;

	ret = mutex_lock_interruptible(&client->sysfs_lock);
	if (ret)
		goto out_destroy;

	ret = vrampool_sysfs_pools_grow(client, count);
	if (!ret)
		ret = client_swap(client, &set, err, generation);
	vrampool_sysfs_pools_shrink(client, client->pool_set->count);
	mutex_unlock(&client->sysfs_lock);

out_destroy:
	vrampool_pool_set_destroy(set);
	return ret;
}

/* TEST_ONLY: whether an install could replace the pools now; nothing changes. */
static int client_install_test(struct vrampool_client *client,
			       struct drm_vrampool_layout_error *err, u64 *generation)
{
	int ret;

	scoped_cond_guard(mutex_intr, return -EINTR, &client->lock) {
		ret = client_check_idle(client, err);
		*generation = client->generation;
	}
	return ret;
}

static int client_generation(struct vrampool_client *client, u64 *generation)
{
	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	*generation = client->generation;
	mutex_unlock(&client->lock);
	return 0;
}

static int install_refuse(struct vrampool_device *vdev,
			  struct drm_vrampool_pool_install *args, u32 field, u64 value)
{
	drm_dbg(&vdev->drm, "POOL_INSTALL: malformed field %u (value %llu)\n", field, value);
	vrampool_layout_error_set(&args->error, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT,
				  DRM_VRAMPOOL_NO_ENTRY, field, value, 0);
	return -EINVAL;
}

/* Checks the request itself; the layout rules are vrampool_layout_*()'s. */
static int install_check_args(struct vrampool_device *vdev,
			      struct drm_vrampool_pool_install *args)
{
	if (args->flags & ~DRM_VRAMPOOL_INSTALL_FLAGS)
		return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_FLAGS, args->flags);
	if (args->pad)
		return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_PAD, args->pad);
	if (args->reserved[0] || args->reserved[1])
		return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_RESERVED,
				      args->reserved[0] | args->reserved[1]);

	if (args->preset != DRM_VRAMPOOL_PRESET_NONE) {
		if (args->entries)
			return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_ENTRIES,
					      args->entries);
		if (args->count)
			return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_COUNT, args->count);
		if (args->entry_size)
			return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_ENTRY_SIZE,
					      args->entry_size);
		return 0;
	}

	/* An empty list is the layout rules' business, a pointer with it not. */
	if (!args->count && args->entries)
		return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_ENTRIES, args->entries);
	if (!args->count || args->count > DRM_VRAMPOOL_MAX_DYNAMIC_POOLS)
		return 0;

	if (args->entry_size != sizeof(struct drm_vrampool_pool_entry))
		return install_refuse(vdev, args, DRM_VRAMPOOL_FIELD_ENTRY_SIZE,
				      args->entry_size);
	if (vrampool_ioctl_check(vdev, !args->entries ||
				 !IS_ALIGNED(args->entries, sizeof(__u64))))
		return -EFAULT;
	return 0;
}

static void device_layout_props(struct vrampool_device *vdev,
				struct vrampool_layout_props *props)
{
	props->alignment = vdev->props.alignment;
	props->max_page_size = vdev->props.max_page_size;
	props->exclusive_memory_only = vdev->props.exclusive_memory_only;
}

/* Copies in and resolves an explicit list; @count is within 1..254. */
static int install_resolve_list(const struct vrampool_layout_props *props,
				struct drm_vrampool_pool_install *args,
				struct drm_vrampool_pool_entry *out)
{
	struct drm_vrampool_pool_entry *entries;
	int ret;

	entries = memdup_array_user(u64_to_user_ptr(args->entries), args->count,
				    sizeof(*entries));
	if (IS_ERR(entries))
		return PTR_ERR(entries);

	ret = vrampool_layout_resolve(props, entries, args->count, out, &args->error);
	kfree(entries);
	return ret;
}

/* Resolves the request into @out (kmalloc'd on success) and its count. */
static int install_resolve(struct vrampool_device *vdev,
			   struct drm_vrampool_pool_install *args,
			   struct drm_vrampool_pool_entry **out, u32 *count)
{
	struct vrampool_layout_props props;
	struct drm_vrampool_pool_entry *pools;
	u32 room;
	int ret;

	device_layout_props(vdev, &props);

	/* Too few or too many entries: refused before anything is read. */
	if (args->preset == DRM_VRAMPOOL_PRESET_NONE &&
	    (!args->count || args->count > DRM_VRAMPOOL_MAX_DYNAMIC_POOLS))
		return vrampool_layout_resolve(&props, NULL, args->count, NULL, &args->error);

	room = args->preset == DRM_VRAMPOOL_PRESET_NONE ? args->count :
							   VRAMPOOL_PRESET_MAX_POOLS;
	pools = kmalloc_array(room, sizeof(*pools), GFP_KERNEL);
	if (!pools)
		return -ENOMEM;

	if (args->preset == DRM_VRAMPOOL_PRESET_NONE) {
		ret = install_resolve_list(&props, args, pools);
		*count = args->count;
	} else {
		ret = vrampool_layout_preset(&props, args->preset, pools, count, &args->error);
	}
	if (ret) {
		kfree(pools);
		return ret;
	}

	*out = pools;
	return 0;
}

/**
 * vrampool_pool_install_ioctl() - DRM_IOCTL_VRAMPOOL_POOL_INSTALL
 * @drm: the device
 * @data: a &struct drm_vrampool_pool_install
 * @file: the client
 *
 * Return: 0, or a negative errno with &drm_vrampool_pool_install.error
 * saying why when the request, its layout or live allocations are at fault.
 */
int vrampool_pool_install_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client = file->driver_priv;
	struct drm_vrampool_pool_install *args = data;
	struct drm_vrampool_pool_entry *pools = NULL;
	u32 count = 0;
	int ret;

	memset(&args->error, 0, sizeof(args->error));
	args->num_pools = 0;
	ret = client_generation(client, &args->generation);
	if (ret)
		return ret;

	ret = install_check_args(vdev, args);
	if (!ret)
		ret = install_resolve(vdev, args, &pools, &count);
	if (ret)
		goto out;

	if (args->flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY)
		ret = client_install_test(client, &args->error, &args->generation);
	else
		ret = client_install(client, pools, count, &args->error, &args->generation);
	if (!ret)
		args->num_pools = count;
	kfree(pools);
out:
	if (!(args->flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY))
		trace_vrampool_install(file->client_id, args->generation, args->num_pools, ret,
				       args->error.code);
	return ret;
}

static void pool_status_fill(const struct vrampool_pool *pool,
			     struct drm_vrampool_pool_status *st)
{
	st->config = pool->config;
	st->index = pool->index;
	st->allocations = pool->stats.allocations;
	st->bytes_in_use = pool->stats.bytes_in_use;
	st->padding = pool->stats.padding;
	st->reserved_bytes = pool->stats.reserved;
	st->pages = pool->stats.pages;
	st->pages_peak = pool->stats.pages_peak;
	st->largest_alloc = pool->stats.largest_alloc;
}

/*
 * Fills in @args and, when its size is that of the answer, *@out with the
 * status of every pool (for the caller to copy out and kvfree()); else
 * *@out stays NULL and @args->size says what the size must be. The client
 * is locked.
 */
static int query_fill_locked(struct vrampool_device *vdev, struct vrampool_client *client,
			     struct drm_vrampool_pool_query *args,
			     struct drm_vrampool_pool_status **out)
{
	struct vrampool_pool_set *set;
	struct drm_vrampool_pool_status *status;
	u32 i, size;
	int ret = 0;

	lockdep_assert_held(&client->lock);
	set = client->pool_set;
	size = (set->count + 1) * sizeof(*status);
	args->generation = client->generation;
	args->num_pools = set->count;
	args->vram_in_use = vrampool_client_vram(client);
	args->persistent_mode = client->persistent_mode;
	if (args->size != size) {
		if (vrampool_ioctl_check(vdev, args->size))
			ret = -EINVAL;
		args->size = size;
		return ret;
	}

	status = kvcalloc(set->count + 1, sizeof(*status), GFP_KERNEL);
	if (!status)
		return -ENOMEM;
	for (i = 0; i < set->count; i++)
		pool_status_fill(set->pools[i], &status[i]);
	pool_status_fill(client->persistent, &status[i]);
	*out = status;
	return 0;
}

/* query_fill_locked() under the client lock, killable (DOC: Locking). */
static int query_fill(struct vrampool_device *vdev, struct vrampool_client *client,
		      struct drm_vrampool_pool_query *args,
		      struct drm_vrampool_pool_status **out)
{
	int ret;

	*out = NULL;
	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	ret = query_fill_locked(vdev, client, args, out);
	mutex_unlock(&client->lock);
	return ret;
}

/**
 * vrampool_pool_query_ioctl() - DRM_IOCTL_VRAMPOOL_POOL_QUERY
 * @drm: the device
 * @data: a &struct drm_vrampool_pool_query
 * @file: the client
 *
 * Return: 0; -EINVAL for a malformed request or a @size that is neither 0
 * nor the size of the answer; -EFAULT; -ENOMEM.
 */
int vrampool_pool_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client = file->driver_priv;
	struct drm_vrampool_pool_query *args = data;
	struct drm_vrampool_pool_status *status;
	int ret;

	if (vrampool_ioctl_check(vdev, args->flags || args->pad || args->pad2 ||
				 args->reserved[0] || args->reserved[1]))
		return -EINVAL;

	ret = query_fill(vdev, client, args, &status);
	if (ret || !status)
		return ret;

	if (copy_to_user(u64_to_user_ptr(args->pools), status, args->size))
		ret = -EFAULT;
	kvfree(status);
	return ret;
}

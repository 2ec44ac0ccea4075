// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the layout ioctls, POOL_INSTALL and POOL_QUERY, which replace
 * and report a client's pool set.
 *
 * POOL_INSTALL replaces the pool set: the request is checked and resolved
 * whole, into a new set, before any live state is touched; only then is
 * the new set swapped in. A refused install says why in its &struct
 * drm_vrampool_layout_error and changes nothing. POOL_QUERY reports the
 * pools, as fdinfo and sysfs do.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include <drm/vrampool_accel.h>

#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_install.h"
#include "vrampool_layout.h"
#include "vrampool_macros.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_sysfs_client.h"
#include "vrampool_trace.h"

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

	ret = vrampool_sysfs_client_pools_grow(client, count);
	if (!ret)
		ret = client_swap(client, &set, err, generation);
	vrampool_sysfs_client_pools_shrink(client, client->pool_set->count);
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
	st->pages_made = pool->pages_made;
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

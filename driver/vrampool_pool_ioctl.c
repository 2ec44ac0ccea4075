// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the ioctls that install and read a client's pool layout.
 *
 * An install is checked and resolved whole, into a new layout, before any
 * live state is touched; only then is the new layout swapped in. A refused
 * install says why in its &struct drm_vrampool_layout_error and changes
 * nothing.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_ioctl.h"
#include "vrampool_layout.h"
#include "vrampool_macros.h"
#include "vrampool_sysfs.h"

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

static u32 layout_count(struct vrampool_client *client)
{
	u32 count;

	mutex_lock(&client->lock);
	count = client->pool_set->count;
	mutex_unlock(&client->lock);
	return count;
}

static u64 client_generation(struct vrampool_client *client)
{
	u64 generation;

	mutex_lock(&client->lock);
	generation = client->generation;
	mutex_unlock(&client->lock);
	return generation;
}

/*
 * Swaps @set in unless the dynamic pools hold live allocations; an
 * explicit cleanup runs first. With TEST_ONLY (@set NULL) nothing
 * changes. On return *@set is what the caller must destroy.
 */
static int install_swap(struct vrampool_client *client, struct vrampool_pool_set **set,
			struct drm_vrampool_pool_install *args)
{
	struct vrampool_pool_set *old;
	u64 bytes;
	int ret;

	ret = mutex_lock_interruptible(&client->lock);
	if (ret)
		return ret;

	if (*set)
		vrampool_client_cleanup(client);
	if (vrampool_client_dynamic_allocations(client, &bytes)) {
		vrampool_layout_error_set(&args->error, DRM_VRAMPOOL_ERR_POOLS_IN_USE,
					  DRM_VRAMPOOL_NO_ENTRY, DRM_VRAMPOOL_FIELD_NONE,
					  bytes, 0);
		ret = -EBUSY;
	} else if (*set) {
		old = client->pool_set;
		client->pool_set = *set;
		*set = old;
		client->generation++;
	}
	args->generation = client->generation;
	mutex_unlock(&client->lock);
	return ret;
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
	struct vrampool_pool_set *set = NULL;
	u32 count = 0, old_count;
	int ret;

	memset(&args->error, 0, sizeof(args->error));
	args->num_pools = 0;
	args->generation = client_generation(client);

	ret = install_check_args(vdev, args);
	if (ret)
		return ret;

	ret = install_resolve(vdev, args, &pools, &count);
	if (ret)
		return ret;

	if (args->flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY) {
		ret = install_swap(client, &set, args);
		goto out_free;
	}

	set = vrampool_pool_set_create(client, pools, count);
	if (!set) {
		ret = -ENOMEM;
		goto out_free;
	}

	/*
	 * sysfs folders come before the swap and go after it, without the
	 * client's lock (removing one waits for its readers, who take it).
	 * Only installs change the layout, and they hold sysfs_lock.
	 */
	mutex_lock(&client->sysfs_lock);
	old_count = layout_count(client);
	ret = vrampool_sysfs_pools_grow(client, count);
	if (!ret)
		ret = install_swap(client, &set, args);
	vrampool_sysfs_pools_shrink(client, ret ? old_count : count);
	mutex_unlock(&client->sysfs_lock);
	vrampool_pool_set_destroy(set);

out_free:
	if (!ret)
		args->num_pools = count;
	kfree(pools);
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
	u32 i, n, size;
	int ret = 0;

	if (vrampool_ioctl_check(vdev, args->flags || args->pad || args->pad2 ||
				 args->reserved[0] || args->reserved[1]))
		return -EINVAL;

	mutex_lock(&client->lock);
	n = client->pool_set->count + 1;
	size = n * sizeof(*status);
	args->generation = client->generation;
	args->num_pools = client->pool_set->count;
	args->vram_in_use = vrampool_client_vram(client);
	args->persistent_mode = client->persistent_mode;
	if (args->size != size) {
		if (vrampool_ioctl_check(vdev, args->size))
			ret = -EINVAL;
		args->size = size;
		mutex_unlock(&client->lock);
		return ret;
	}

	status = kvcalloc(n, sizeof(*status), GFP_KERNEL);
	if (!status) {
		mutex_unlock(&client->lock);
		return -ENOMEM;
	}
	for (i = 0; i < client->pool_set->count; i++)
		pool_status_fill(client->pool_set->pools[i], &status[i]);
	pool_status_fill(client->persistent, &status[i]);
	mutex_unlock(&client->lock);

	if (copy_to_user(u64_to_user_ptr(args->pools), status, size))
		ret = -EFAULT;
	kvfree(status);
	return ret;
}

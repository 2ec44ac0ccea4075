// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the single-allocation ioctls: ALLOC, FREE, CLEANUP and
 * SET_PERSISTENT_MODE. A request finds its pool in vrampool_route.c and
 * its handle in vrampool_handles.c.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/mutex.h>
#include <linux/string.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc.h"
#include "vrampool_alloc_cache.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_handles.h"
#include "vrampool_macros.h"
#include "vrampool_pool.h"
#include "vrampool_route.h"
#include "vrampool_trace.h"

/* The fields ALLOC gives back, all of them set, whatever the outcome. */
static void alloc_answer(struct drm_vrampool_alloc *args, const struct vrampool_alloc *a,
			 u32 handle)
{
	struct drm_vrampool_alloc_answer ans;

	vrampool_route_answer(a, handle, &ans);
	args->handle = ans.handle;
	args->pool = ans.pool;
	args->page = ans.page;
	args->offset = ans.offset;
	args->padding = ans.padding;
	args->mmap_offset = ans.mmap_offset;
	args->page_size = ans.page_size;
}

/*
 * One ALLOC: places @a, then stores it at a new handle
 * (vrampool_handles_store()); if that fails for want of memory, the
 * placing is undone and @a is still the caller's.
 */
static int alloc_one(struct vrampool_client *client, struct drm_vrampool_alloc *args,
		     struct vrampool_alloc *a, u32 *handle)
{
	int ret;

	ret = vrampool_route_place(client, args, a);
	if (ret)
		return ret;

	ret = vrampool_handles_store(client, vrampool_handles_entry(a), handle);
	if (ret)
		vrampool_route_release(client, a);	/* @a stays the caller's */
	return ret;
}

/* An unknown flag or a must-be-zero field that is not: -EINVAL. */
static bool alloc_args_bad(struct vrampool_device *vdev, const struct drm_vrampool_alloc *args)
{
	return vrampool_ioctl_check(vdev, args->flags & ~DRM_VRAMPOOL_ALLOC_FLAGS) ||
	       vrampool_ioctl_check(vdev, args->pad || args->pad2 ||
				    args->reserved[0] || args->reserved[1]);
}

/**
 * vrampool_alloc_ioctl() - DRM_IOCTL_VRAMPOOL_ALLOC
 * @drm: the device
 * @data: a &struct drm_vrampool_alloc
 * @file: the client
 *
 * Return: 0, or a negative errno with &drm_vrampool_alloc.error saying why
 * when no pool could serve the size or a per-client limit is reached.
 */
int vrampool_alloc_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct vrampool_alloc pageless = {}, *a = &pageless;
	struct drm_vrampool_alloc *args = data;
	u32 handle;
	int ret;

	if (alloc_args_bad(to_vrampool_device(drm), args))
		return -EINVAL;

	args->handle = 0;
	args->pool = 0;
	args->page = 0;
	args->offset = 0;
	args->padding = 0;
	args->mmap_offset = 0;
	args->page_size = 0;
	memset(&args->error, 0, sizeof(args->error));

	ret = mutex_lock_interruptible(&client->lock);
	if (ret)
		goto err_trace;

	/* A zero-size request is placed in @pageless, and kept as its pool's index. */
	if (args->size) {
		a = vrampool_alloc_cache_get(client);
		if (!a) {
			ret = -ENOMEM;
			goto err_unlock;
		}
	}

	ret = alloc_one(client, args, a, &handle);
	if (ret)
		goto err_put;
	alloc_answer(args, a, handle);
	mutex_unlock(&client->lock);
	trace_vrampool_alloc(file->client_id, args->handle, args->size, args->flags, args->pool,
			     args->page, args->offset);
	return 0;

err_put:
	if (a != &pageless)
		vrampool_alloc_cache_put(client, a);
err_unlock:
	mutex_unlock(&client->lock);
err_trace:
	trace_vrampool_alloc_refused(file->client_id, args->size, args->flags, ret,
				     args->error.code);
	return ret;
}

/**
 * vrampool_free_ioctl() - DRM_IOCTL_VRAMPOOL_FREE
 * @drm: the device
 * @data: a &struct drm_vrampool_free
 * @file: the client
 *
 * Return: 0; -ENOENT for a handle this file does not own (or no longer:
 * handles are not reused at once, so a stale FREE finds nothing); -EINVAL;
 * -EINTR only when the task is being killed.
 */
int vrampool_free_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client = file->driver_priv;
	struct drm_vrampool_free *args = data;
	void *entry;

	if (vrampool_ioctl_check(vdev, args->flags || args->reserved))
		return -EINVAL;

	/*
	 * Handle 0 is never issued, and must not reach xa_erase(): erasing
	 * index 0 of an XA_FLAGS_ALLOC1 array marks it free, and the next
	 * xa_alloc() would hand out handle 0.
	 */
	if (!args->handle)
		return -ENOENT;

	/* Killable: a reader of the pools need not wait in D state (DOC: Locking). */
	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	entry = vrampool_handles_take(client, args->handle);
	if (entry) {
		if (trace_vrampool_free_enabled())
			vrampool_handles_trace_free(client, args->handle, entry);
		vrampool_route_free(client, entry);
	}
	mutex_unlock(&client->lock);
	return entry ? 0 : -ENOENT;
}

/**
 * vrampool_cleanup_ioctl() - DRM_IOCTL_VRAMPOOL_CLEANUP
 * @drm: the device
 * @data: a &struct drm_vrampool_cleanup
 * @file: the client
 *
 * Return: 0, -EINVAL, or -EINTR only when the task is being killed.
 */
int vrampool_cleanup_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client = file->driver_priv;
	struct drm_vrampool_cleanup *args = data;

	if (vrampool_ioctl_check(vdev, args->flags || args->pad || args->reserved))
		return -EINVAL;

	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	vrampool_client_cleanup(client);
	mutex_unlock(&client->lock);
	return 0;
}

/**
 * vrampool_set_persistent_mode_ioctl() - DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE
 * @drm: the device
 * @data: a &struct drm_vrampool_persistent_mode
 * @file: the client
 *
 * Return: 0, -EINVAL, or -EINTR only when the task is being killed.
 */
int vrampool_set_persistent_mode_ioctl(struct drm_device *drm, void *data,
				       struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client = file->driver_priv;
	struct drm_vrampool_persistent_mode *args = data;
	u32 old;

	if (vrampool_ioctl_check(vdev, args->pad ||
				 args->mode > DRM_VRAMPOOL_PERSISTENT_ENFORCED))
		return -EINVAL;

	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	old = client->persistent_mode;
	client->persistent_mode = args->mode;
	mutex_unlock(&client->lock);
	args->mode = old;
	return 0;
}

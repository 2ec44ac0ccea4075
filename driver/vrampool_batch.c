// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: ALLOC_BATCH (DOC: batches, in the uapi header): many requests
 * for one system call and one hold of the client lock, all or nothing,
 * each placed as a single ALLOC places it (vrampool_route_place()).
 * FREE_BATCH is vrampool_batch_free.c's.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_batch.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_handles.h"
#include "vrampool_macros.h"
#include "vrampool_modparams.h"
#include "vrampool_pool.h"
#include "vrampool_route.h"
#include "vrampool_tenant.h"
#include "vrampool_trace.h"

/*
 * The kernel's copy of an ALLOC_BATCH: the answers, the requests, and per
 * request its record (a &struct vrampool_alloc for a non-zero size, taken
 * under the client lock, take_records()) or, once placed, its handle entry; the
 * three arrays in one allocation, @answers first.
 */
struct alloc_batch {
	u32 count;
	/* how many requests have a non-zero size: a record each */
	u32 records;
	/* requests [0, placed) are placed, their handles reserved */
	u32 placed;
	/* client->next_handle and client->pages_made when the batch began */
	u32 next_handle;
	u64 pages_made;
	struct drm_vrampool_alloc_request *reqs;
	struct drm_vrampool_alloc_answer *answers;
	void **entries;
};

/*
 * Room for @count entries of @size bytes, charged to the caller (@count is
 * at most DRM_VRAMPOOL_BATCH_MAX: bounded). Not zeroed: every entry is
 * written before it is read.
 */
static void *batch_array(u32 count, size_t size)
{
	return kvmalloc_array(count, size, GFP_KERNEL_ACCOUNT);
}

static void alloc_batch_free(struct alloc_batch *b)
{
	u32 i;

	/* Records of requests never placed; placed ones belong to their handles. */
	if (b->entries)
		for (i = b->placed; i < b->count; i++)
			vrampool_alloc_cache_free(b->entries[i]);
	kvfree(b->answers);
}

/* Checks every request's flags and padding: -EINVAL naming the first bad one. */
static int check_requests(struct vrampool_device *vdev, struct alloc_batch *b,
			  struct drm_vrampool_alloc_batch *args)
{
	const struct drm_vrampool_alloc_request *req;
	u32 i;

	for (i = 0; i < b->count; i++) {
		req = &b->reqs[i];
		if (vrampool_ioctl_check(vdev, req->flags & ~DRM_VRAMPOOL_ALLOC_FLAGS) ||
		    vrampool_ioctl_check(vdev, req->pad)) {
			args->failed = i;
			args->error.code = DRM_VRAMPOOL_ERR_INVALID_ARGUMENT;
			args->error.size = req->size;
			return -EINVAL;
		}
	}
	return 0;
}

/* Copies the requests in and checks them, before the client lock. */
static int alloc_batch_init(struct vrampool_device *vdev, struct alloc_batch *b,
			    struct drm_vrampool_alloc_batch *args)
{
	u32 i;

	b->count = args->count;
	/* Each array's entries are multiples of 8 bytes: the next one stays aligned. */
	b->answers = batch_array(b->count, sizeof(*b->answers) + sizeof(*b->reqs) +
				 sizeof(*b->entries));
	if (!b->answers)
		return -ENOMEM;
	b->reqs = (void *)(b->answers + b->count);
	b->entries = (void *)(b->reqs + b->count);
	memset(b->entries, 0, b->count * sizeof(*b->entries));
	if (copy_from_user(b->reqs, u64_to_user_ptr(args->requests),
			   array_size(b->count, sizeof(*b->reqs))))
		return -EFAULT;
	for (i = 0, b->records = 0; i < b->count; i++)
		b->records += !!b->reqs[i].size;
	return check_requests(vdev, b, args);
}

/*
 * The records of the requests of a non-zero size, the client's spares
 * first (DOC: spare records): taken together at the front, then each moved
 * to its request, from the back.
 */
static int take_records(struct vrampool_client *client, struct alloc_batch *b)
{
	u32 i, records = b->records;
	void *entry;

	if (!records)
		return 0;
	if (!vrampool_alloc_cache_get_bulk(client, records, b->entries))
		return -ENOMEM;
	for (i = b->count; i-- > 0;) {
		if (!b->reqs[i].size)
			continue;	/* its slot is past every record not moved yet */
		entry = b->entries[--records];
		b->entries[records] = NULL;
		b->entries[i] = entry;
	}
	return 0;
}

/*
 * What no allocation of the batch can change: a request no pool accepts,
 * or one past max_allocations, counting what the user's files hold as the
 * batch starts. Found before anything is placed.
 */
static int precheck(struct vrampool_client *client, struct alloc_batch *b,
		    struct drm_vrampool_alloc_batch *args)
{
	u32 limit = vrampool_modparam.max_allocations;
	u32 held = atomic_read(&client->tenant->allocations);
	u32 room = held < limit ? limit - held : 0;
	u32 i;

	/*
	 * In the order a single ALLOC checks: its limit, then its route. A
	 * request like the one before it routes like it (the usual batch).
	 */
	for (i = 0; i < b->count && i < room; i++) {
		if (i && b->reqs[i].size == b->reqs[i - 1].size &&
		    b->reqs[i].flags == b->reqs[i - 1].flags)
			continue;
		if (vrampool_route_possible(client, b->reqs[i].size, b->reqs[i].flags))
			continue;
		args->failed = i;
		args->error.code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
		args->error.size = b->reqs[i].size;
		return -EFBIG;
	}
	if (b->count <= room)
		return 0;
	/* What the ALLOC of request @room would see: the earlier ones counted. */
	args->failed = room;
	args->error.code = DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
	args->error.pool = DRM_VRAMPOOL_LIMIT_ALLOCATIONS;
	args->error.size = b->reqs[room].size;
	args->error.capacity = limit;
	args->error.in_use = (u64)held + room;
	return -EDQUOT;
}

/*
 * Frees what the batch placed, in reverse, with the handles it holds; puts
 * the handle cursor back with @cursor_back (DOC: batches): only when the
 * batch took its handles under the lock held since, so that no other
 * thread was handed one after them and no answer naming them reached
 * userspace. Otherwise the cursor stays past them, and a stale FREE of a
 * handle the batch answered finds nothing rather than a new allocation.
 */
static void undo(struct vrampool_client *client, struct alloc_batch *b, bool cursor_back)
{
	bool made_pages = client->pages_made != b->pages_made;

	while (b->placed) {
		b->placed--;
		vrampool_handles_erase(client, b->answers[b->placed].handle);
		vrampool_route_free(client, b->entries[b->placed]);
		b->entries[b->placed] = NULL;
	}
	if (cursor_back)
		client->next_handle = b->next_handle;
	/*
	 * If the pools made pages meanwhile, a cleanup gives them back to
	 * the device, with every other free page (DOC: batches).
	 */
	if (made_pages)
		vrampool_client_cleanup(client);
}

/*
 * The requests from b->placed on that repeat the one placed last, @prev,
 * placed where it went while they still fit there
 * (vrampool_route_place_run()), with its answer but for the offset: the
 * same pool, page and padding. Return: how many.
 */
static u32 place_run(struct vrampool_client *client, struct alloc_batch *b,
		     const struct vrampool_alloc *prev)
{
	const struct drm_vrampool_alloc_request *req = &b->reqs[b->placed];
	struct drm_vrampool_alloc_answer *ans = &b->answers[b->placed];
	/* Not placed yet, so records (the size is not 0: take_records()). */
	struct vrampool_alloc *const *a = (struct vrampool_alloc *const *)&b->entries[b->placed];
	u32 i, n, run = 1;

	while (b->placed + run < b->count && req[run].size == req->size &&
	       req[run].flags == req->flags)
		run++;
	n = vrampool_route_place_run(client, req->size, a, run, prev);
	/* Each record is its own handle entry (DOC: handle entries). */
	for (i = 0; i < n; i++) {
		ans[i] = ans[-1];
		ans[i].offset = vrampool_slices_offset(&a[i]->ppage->slices, &a[i]->slice);
	}
	return n;
}

/* Places request b->placed the full way (vrampool_route_place()). */
static int place_one(struct vrampool_client *client, struct alloc_batch *b,
		     struct drm_vrampool_alloc_batch *args)
{
	const struct drm_vrampool_alloc_request *req = &b->reqs[b->placed];
	struct drm_vrampool_alloc one = { .size = req->size, .flags = req->flags };
	struct vrampool_alloc pageless = {}, *a = b->entries[b->placed];
	int ret;

	if (!one.size)
		a = &pageless;
	ret = vrampool_route_place(client, &one, a);
	if (ret) {
		args->failed = b->placed;
		args->error = one.error;
		return ret;
	}
	vrampool_route_answer(a, 0, &b->answers[b->placed]);
	b->entries[b->placed] = vrampool_handles_entry(a);
	return 0;
}

/*
 * Places every request in order, then gives them their handles, or does
 * neither; the requests that repeat the one before them go where it went
 * while they still fit there (place_run()). The handles are valid at once;
 * the caller holds the client lock until the answers are written or the
 * handles hidden again.
 */
static int place_all(struct vrampool_client *client, struct alloc_batch *b,
		     struct drm_vrampool_alloc_batch *args)
{
	const struct drm_vrampool_alloc_request *req;
	struct vrampool_alloc *prev = NULL;
	u32 n;
	int ret;

	b->next_handle = client->next_handle;
	b->pages_made = client->pages_made;
	ret = precheck(client, b, args);
	if (!ret)
		ret = take_records(client, b);
	if (ret)
		return ret;

	while (b->placed < b->count) {
		req = &b->reqs[b->placed];
		/* @prev: the allocation just placed, of a request this one repeats. */
		if (prev && (req->size != req[-1].size || req->flags != req[-1].flags))
			prev = NULL;
		n = prev ? place_run(client, b, prev) : 0;
		if (!n) {
			ret = place_one(client, b, args);
			if (ret) {
				/* No handle taken yet: the cursor is not the batch's to move. */
				undo(client, b, false);
				return ret;
			}
			n = 1;
		}
		b->placed += n;
		prev = req[n - 1].size ? b->entries[b->placed - 1] : NULL;
	}

	ret = vrampool_handles_store_all(client, b->entries, b->answers, b->count, &args->failed);
	if (ret)
		undo(client, b, true);
	return ret;
}

static void trace_allocs(struct drm_file *file, const struct alloc_batch *b)
{
	const struct drm_vrampool_alloc_answer *ans;
	u32 i;

	if (!trace_vrampool_alloc_enabled())
		return;
	for (i = 0; i < b->count; i++) {
		ans = &b->answers[i];
		trace_vrampool_alloc(file->client_id, ans->handle, b->reqs[i].size,
				     b->reqs[i].flags, ans->pool, ans->page, ans->offset);
	}
}

/*
 * The answers, written under the client lock with page faults disabled
 * (DOC: Locking): false if a page of them is not there to write.
 */
static bool answers_out_locked(struct drm_vrampool_alloc_answer __user *u,
			       const struct drm_vrampool_alloc_answer *ans, u32 count)
{
	unsigned long left;

	pagefault_disable();
	left = copy_to_user(u, ans, array_size(count, sizeof(*u)));
	pagefault_enable();
	return !left;
}

/*
 * Serves a checked, copied-in batch: lock, place, answer. The answers are
 * written under the lock, unless their pages must be faulted in: then the
 * handles are hidden, the lock dropped for the write, and the handles made
 * valid again (or the batch undone) under it once more.
 */
static int alloc_batch_run(struct drm_file *file, struct alloc_batch *b,
			   struct drm_vrampool_alloc_batch *args)
{
	struct drm_vrampool_alloc_answer __user *u = u64_to_user_ptr(args->answers);
	struct vrampool_client *client = file->driver_priv;
	int ret;

	ret = mutex_lock_interruptible(&client->lock);
	if (ret)
		return ret;
	ret = place_all(client, b, args);
	if (!ret && answers_out_locked(u, b->answers, b->count)) {
		mutex_unlock(&client->lock);
		return 0;
	}
	if (!ret)
		vrampool_handles_publish(client, b->answers, NULL, b->count);
	mutex_unlock(&client->lock);
	if (ret)
		return ret;

	/*
	 * Faults allowed, so not under the client lock. Meanwhile the
	 * handles stay reserved: no other thread can free them, and the
	 * allocations they name keep their pages and block an install.
	 */
	ret = copy_to_user(u, b->answers, array_size(b->count, sizeof(*u))) ? -EFAULT : 0;

	/* Uninterruptible: the batch is published or undone, not left. */
	mutex_lock(&client->lock);
	if (ret)
		undo(client, b, false);	/* answers may have been written */
	else
		vrampool_handles_publish(client, b->answers, b->entries, b->count);
	mutex_unlock(&client->lock);
	return ret;
}

/**
 * vrampool_alloc_batch_ioctl() - DRM_IOCTL_VRAMPOOL_ALLOC_BATCH
 * @drm: the device
 * @data: a &struct drm_vrampool_alloc_batch
 * @file: the client
 *
 * Return: 0 with every answer written, or a negative errno with nothing
 * allocated, &drm_vrampool_alloc_batch.failed and .error saying where and
 * why (DOC: batches).
 */
int vrampool_alloc_batch_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct drm_vrampool_alloc_batch *args = data;
	struct alloc_batch b = {};
	int ret;

	args->failed = DRM_VRAMPOOL_NO_ENTRY;
	memset(&args->error, 0, sizeof(args->error));

	if (vrampool_ioctl_check(vdev, args->flags || args->pad ||
				 args->reserved[0] || args->reserved[1]))
		ret = -EINVAL;
	else if (vrampool_ioctl_check(vdev, args->count > DRM_VRAMPOOL_BATCH_MAX))
		ret = -E2BIG;
	else if (!args->count)
		ret = 0;
	else
		ret = alloc_batch_init(vdev, &b, args);
	if (!ret && b.count)
		ret = alloc_batch_run(file, &b, args);
	if (!ret)
		trace_allocs(file, &b);
	alloc_batch_free(&b);
	trace_vrampool_batch(file->client_id, VRAMPOOL_BATCH_ALLOC, args->count, ret,
			     args->failed, args->error.code);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the batch ioctls, ALLOC_BATCH and FREE_BATCH (DOC: batches, in
 * the uapi header): many requests or handles for one system call and one
 * hold of the client lock, all or nothing.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/wordpart.h>
#include <linux/xarray.h>

#include <kunit/visibility.h>

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
	/* client->next_handle and client->pages when the batch began */
	u32 next_handle;
	u32 pages;
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
			vrampool_alloc_record_free(b->entries[i]);
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
	if (!vrampool_alloc_record_get_bulk(client, records, b->entries))
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
 * or one past max_allocations. Found before anything is placed.
 */
static int precheck(struct vrampool_client *client, struct alloc_batch *b,
		    struct drm_vrampool_alloc_batch *args)
{
	u32 limit = vrampool_modparam.max_allocations;
	u32 room = client->allocations < limit ? limit - client->allocations : 0;
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
	args->error.in_use = (u64)client->allocations + room;
	return -EDQUOT;
}

/*
 * Frees what the batch placed, in reverse, with the handles it holds, and
 * puts the handle cursor back.
 */
static void undo(struct vrampool_client *client, struct alloc_batch *b)
{
	bool made_pages = client->pages > b->pages;

	while (b->placed) {
		b->placed--;
		vrampool_handles_erase(client, b->answers[b->placed].handle);
		vrampool_route_free(client, b->entries[b->placed]);
		b->entries[b->placed] = NULL;
	}
	client->next_handle = b->next_handle;
	/* The pages its requests made go back to the device (DOC: batches). */
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
		ans[i].offset = a[i]->slice.offset;
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
	b->pages = client->pages;
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
				undo(client, b);
				return ret;
			}
			n = 1;
		}
		b->placed += n;
		prev = req[n - 1].size ? b->entries[b->placed - 1] : NULL;
	}

	ret = vrampool_handles_store_all(client, b->entries, b->answers, b->count, &args->failed);
	if (ret)
		undo(client, b);
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
		undo(client, b);
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

static int key_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * vrampool_batch_first_repeat() - the first handle of a batch named before
 * @handles: the batch's handles
 * @count: how many
 * @keys: room for @count keys, scratch
 *
 * Handles in increasing order, as a batch of ALLOC_BATCH answers frees
 * them, all differ: one pass sees that. Otherwise it sorts (handle, index)
 * pairs: O(n log n) and no lookup, where marking each handle in the handle
 * table would take two more walks of it per handle.
 *
 * Return: the lowest index i whose handle some index j < i holds too, or
 * @count when all differ.
 */
VISIBLE_IF_KUNIT u32 vrampool_batch_first_repeat(const u32 *handles, u32 count, u64 *keys)
{
	u32 i, first = count;

	for (i = 1; i < count && handles[i - 1] < handles[i]; i++)
		;
	if (i >= count)
		return count;

	for (i = 0; i < count; i++)
		keys[i] = (u64)handles[i] << 32 | i;
	sort(keys, count, sizeof(*keys), key_cmp, NULL);
	/* Among equal handles, ordered by index: each after the first repeats. */
	for (i = 1; i < count; i++)
		if (keys[i] >> 32 == keys[i - 1] >> 32)
			first = min_t(u32, first, lower_32_bits(keys[i]));
	return first;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_batch_first_repeat);

/*
 * Checks every handle of a FREE_BATCH: owned by the file and not named
 * earlier in the batch; @failed names the first that is either.
 */
static int check_handles(struct vrampool_client *client, const u32 *handles, u32 count,
			 u64 *keys, struct drm_vrampool_free_batch *args)
{
	u32 repeat = vrampool_batch_first_repeat(handles, count, keys);
	/* A reserved handle (an ALLOC under way) names nothing: not found. */
	u32 missing = vrampool_handles_first_missing(client, handles, repeat);

	if (missing < repeat) {
		args->failed = missing;
		args->code = DRM_VRAMPOOL_ERR_NOT_FOUND;
		return -ENOENT;
	}
	if (repeat == count)
		return 0;
	args->failed = repeat;
	args->code = DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE;
	return -EINVAL;
}

/* Whether a handle's entry is a slice of a sliced page (DOC: handle entries). */
static bool entry_is_slice(void *entry)
{
	const struct vrampool_alloc *a = entry;

	return !vrampool_handles_pageless(entry) &&
	       a->pool->config.type == DRM_VRAMPOOL_POOL_SLICED;
}

/*
 * Frees the slices among @entries, from the last to the first, each run of
 * neighbours in one page together (vrampool_route_release_run()).
 */
static void free_slices(struct vrampool_client *client, void **entries, u32 count)
{
	const struct vrampool_alloc *last;
	u32 i, j;

	for (i = count; i > 0; i = j) {
		j = i - 1;
		if (!entry_is_slice(entries[j]))
			continue;
		last = entries[j];
		while (j > 0 && entry_is_slice(entries[j - 1]) &&
		       ((struct vrampool_alloc *)entries[j - 1])->ppage == last->ppage)
			j--;
		/* Entries of slices are their records (DOC: handle entries). */
		vrampool_route_release_run(client, (struct vrampool_alloc *const *)&entries[j],
					   i - j);
	}
}

/*
 * Frees a checked batch: every handle taken as FREE takes it (the last one
 * stays retired, DOC: retired handle), every allocation out of its pool,
 * then the records given back together. @entries has room for @count.
 *
 * The slices go first, from the last to the first: a batch's slices were
 * mostly placed in order at the end of their pages, and freed the other
 * way round each is the last pending one (DOC: pending slices), freed in
 * O(1). The order makes no difference to what is left, as every hole
 * merges with its neighbours whatever the order; nor does it to the other
 * allocations, freed after them in the batch's order.
 */
static void free_all(struct vrampool_client *client, const u32 *handles, u32 count,
		     void **entries)
{
	u32 i, records = 0;
	void *entry;

	vrampool_handles_take_all(client, handles, count, entries);
	if (trace_vrampool_free_enabled())
		for (i = 0; i < count; i++)
			vrampool_handles_trace_free(client, handles[i], entries[i]);
	free_slices(client, entries, count);
	for (i = 0; i < count; i++) {
		entry = entries[i];
		if (!entry_is_slice(entry) && !vrampool_route_release(client, entry))
			continue;	/* a zero-size allocation: no record */
		entries[records++] = entry;	/* at or behind @i: its entry is used */
	}
	vrampool_alloc_record_put_bulk(client, entries, records);
}

/* Frees a copied-in batch of handles, all or none, under the client lock. */
static int free_batch_run(struct vrampool_client *client, const u32 *handles, u32 count,
			  u64 *keys, struct drm_vrampool_free_batch *args)
{
	int ret;

	/* Killable, as FREE (DOC: Locking). */
	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	ret = check_handles(client, handles, count, keys, args);
	/* The sort's keys are done with: their room holds the entries (both 8 bytes). */
	BUILD_BUG_ON(sizeof(void *) != sizeof(*keys));
	if (!ret)
		free_all(client, handles, count, (void **)keys);
	mutex_unlock(&client->lock);
	return ret;
}

/**
 * vrampool_free_batch_ioctl() - DRM_IOCTL_VRAMPOOL_FREE_BATCH
 * @drm: the device
 * @data: a &struct drm_vrampool_free_batch
 * @file: the client
 *
 * Return: 0 with every handle freed, or a negative errno with nothing
 * freed, &drm_vrampool_free_batch.failed and .code saying where and why.
 */
int vrampool_free_batch_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct drm_vrampool_free_batch *args = data;
	u32 *handles;
	u64 *keys;
	int ret = 0;

	args->failed = DRM_VRAMPOOL_NO_ENTRY;
	args->code = 0;

	if (vrampool_ioctl_check(vdev, args->flags || args->reserved))
		ret = -EINVAL;
	else if (vrampool_ioctl_check(vdev, args->count > DRM_VRAMPOOL_BATCH_MAX))
		ret = -E2BIG;
	if (ret || !args->count)
		goto out;

	/* The keys, then the handles, in one allocation. */
	keys = batch_array(args->count, sizeof(*keys) + sizeof(*handles));
	if (!keys) {
		ret = -ENOMEM;
		goto out;
	}
	handles = (u32 *)(keys + args->count);
	if (copy_from_user(handles, u64_to_user_ptr(args->handles),
			   array_size(args->count, sizeof(*handles))))
		ret = -EFAULT;
	else
		ret = free_batch_run(file->driver_priv, handles, args->count, keys, args);
	kvfree(keys);
out:
	trace_vrampool_batch(file->client_id, VRAMPOOL_BATCH_FREE, args->count, ret,
			     args->failed, args->code);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: FREE_BATCH (DOC: batches, in the uapi header): many handles
 * for one system call and one hold of the client lock, all or nothing.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <kunit/visibility.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_batch_free.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_handles.h"
#include "vrampool_macros.h"
#include "vrampool_pool.h"
#include "vrampool_route.h"
#include "vrampool_trace.h"

/**
 * vrampool_batch_free_first_repeat() - the first handle of a batch named before
 * @handles: the batch's handles
 * @count: how many
 * @set: scratch room for vrampool_batch_free_set_size(@count) handles
 *
 * Handles in increasing order, as a batch of ALLOC_BATCH answers frees
 * them, all differ: one pass sees that. Otherwise each handle goes into a
 * hash set in @set (open addressing, linear probing, at most half full),
 * in batch order, until one is there already: O(n) expected, never a sort
 * and never a lookup in the handle table, where marking each handle would
 * take two more walks of it per handle. Handles chosen to collide cost at
 * most n^2/2 probes, n at most %DRM_VRAMPOOL_BATCH_MAX, under the caller's
 * own client lock. An empty slot holds 0, so handle 0 (which names
 * nothing) is tracked aside.
 *
 * Return: the lowest index i whose handle some index j < i holds too, or
 * @count when all differ.
 */
VISIBLE_IF_KUNIT u32 vrampool_batch_free_first_repeat(const u32 *handles, u32 count, u32 *set)
{
	u32 i, slot, size, bits;
	bool zero = false;

	for (i = 1; i < count && handles[i - 1] < handles[i]; i++)
		;
	if (i >= count)
		return count;

	size = vrampool_batch_free_set_size(count);
	bits = ilog2(size);
	memset(set, 0, size * sizeof(*set));
	for (i = 0; i < count; i++) {
		if (!handles[i]) {
			if (zero)
				return i;
			zero = true;
			continue;
		}
		for (slot = hash_32(handles[i], bits); set[slot]; slot = (slot + 1) & (size - 1))
			if (set[slot] == handles[i])
				return i;
		set[slot] = handles[i];
	}
	return count;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_batch_free_first_repeat);

/*
 * Checks every handle of a FREE_BATCH: owned by the file and not named
 * earlier in the batch; @failed names the first that is either.
 */
static int check_handles(struct vrampool_client *client, const u32 *handles, u32 count,
			 u32 *set, struct drm_vrampool_free_batch *args)
{
	u32 repeat = vrampool_batch_free_first_repeat(handles, count, set);
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
	       vrampool_alloc_in_slice(a);
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
	vrampool_alloc_cache_put_bulk(client, entries, records);
}

/* Frees a copied-in batch of handles, all or none, under the client lock. */
static int free_batch_run(struct vrampool_client *client, const u32 *handles, u32 count,
			  void *scratch, struct drm_vrampool_free_batch *args)
{
	int ret;

	/* Killable, as FREE (DOC: Locking). */
	if (mutex_lock_killable(&client->lock))
		return -EINTR;
	ret = check_handles(client, handles, count, scratch, args);
	/* The hash set is done with: its room holds the entries. */
	if (!ret)
		free_all(client, handles, count, scratch);
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
	size_t scratch;
	void *room;
	u32 *handles;
	int ret = 0;

	args->failed = DRM_VRAMPOOL_NO_ENTRY;
	args->code = 0;

	if (vrampool_ioctl_check(vdev, args->flags || args->reserved))
		ret = -EINVAL;
	else if (vrampool_ioctl_check(vdev, args->count > DRM_VRAMPOOL_BATCH_MAX))
		ret = -E2BIG;
	if (ret || !args->count)
		goto out;

	/*
	 * Scratch for the hash set, then for the entries (at least as large:
	 * two handles a request), then the handles, in one allocation,
	 * charged to the caller (bounded: DRM_VRAMPOOL_BATCH_MAX); not
	 * zeroed, every entry is written before it is read.
	 */
	scratch = max(vrampool_batch_free_set_size(args->count) * sizeof(u32),
		      args->count * sizeof(void *));
	room = kvmalloc(scratch + args->count * sizeof(*handles), GFP_KERNEL_ACCOUNT);
	if (!room) {
		ret = -ENOMEM;
		goto out;
	}
	handles = room + scratch;
	if (copy_from_user(handles, u64_to_user_ptr(args->handles),
			   array_size(args->count, sizeof(*handles))))
		ret = -EFAULT;
	else
		ret = free_batch_run(file->driver_priv, handles, args->count, room, args);
	kvfree(room);
out:
	trace_vrampool_batch(file->client_id, VRAMPOOL_BATCH_FREE, args->count, ret,
			     args->failed, args->code);
	return ret;
}

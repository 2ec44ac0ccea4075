// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the allocation ioctls and the routing of a request to a pool.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc.h"
#include "vrampool_alloc_cache.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_macros.h"
#include "vrampool_modparams.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_reclaim.h"
#include "vrampool_trace.h"
#include "vrampool_xa.h"

/**
 * DOC: handle entries
 *
 * A handle's entry in &vrampool_client.handles is its allocation's
 * &struct vrampool_alloc, except for a zero-size allocation: it has no page,
 * so it keeps no record either, only the index of its pool as an xarray
 * value (xa_mk_value()). Its pool counts it like any other, and it costs
 * nothing but its slot in the handle table, so that a client cannot hold
 * kernel memory with allocations that hold no VRAM. The index stays valid:
 * an install refuses while any dynamic allocation lives, and the
 * persistent pool (255) is never replaced.
 */

/**
 * DOC: retired handle
 *
 * Handles are cyclic, so a freed handle's slot is mostly the only one left
 * in its part of the handle table: erasing it would free the xarray nodes
 * on the path to it (through RCU), and the next ALLOC, one handle on, would
 * allocate them again. FREE instead leaves the handle it takes reserved
 * (an xarray zero entry: it loads as NULL, like a handle an ALLOC_BATCH
 * under way reserved, so a FREE of it finds nothing) and erases the one it had
 * retired before. Neighbouring handles share their nodes, so the table
 * allocates and frees a node only once every XA_CHUNK_SIZE handles. The
 * one retired handle is never handed out, but for the wrap of a table
 * that is otherwise full.
 */

static struct vrampool_pool *pool_of_index(struct vrampool_client *client, u32 index)
{
	if (index == DRM_VRAMPOOL_PERSISTENT_POOL)
		return client->persistent;
	return client->pool_set->pools[index];
}

/**
 * vrampool_alloc_entry_free() - free the allocation a handle names
 * @client: its client, locked (or being torn down)
 * @entry: the handle's entry (DOC: handle entries), out of the handle table
 *	   or about to go with it
 */
void vrampool_alloc_entry_free(struct vrampool_client *client, void *entry)
{
	struct vrampool_alloc *a = vrampool_alloc_entry_release(client, entry);

	if (a)
		vrampool_alloc_record_put(client, a);
}

/**
 * vrampool_alloc_entry_release() - free the allocation a handle names, but its record
 * @client: its client, locked
 * @entry: the handle's entry (DOC: handle entries), out of the handle table
 *
 * As vrampool_alloc_entry_free(), for a caller that gives the records of
 * many back at once.
 *
 * Return: the allocation's record, out of its pool, or NULL for a
 * zero-size allocation, which has none.
 */
struct vrampool_alloc *vrampool_alloc_entry_release(struct vrampool_client *client, void *entry)
{
	struct vrampool_alloc pageless = {};

	client->allocations--;
	if (xa_is_value(entry)) {
		pageless.pool = pool_of_index(client, xa_to_value(entry));
		vrampool_pool_free(&pageless);
		return NULL;
	}
	vrampool_pool_free(entry);
	return entry;
}

/**
 * vrampool_alloc_release_run() - free allocations of one page, but their records
 * @client: their client, locked
 * @a: the allocations, out of the handle table, all in the same page
 * @count: how many, at least 1
 *
 * As vrampool_alloc_entry_release() of each, from the last to the first
 * (vrampool_pool_free_run()), for FREE_BATCH.
 */
void vrampool_alloc_release_run(struct vrampool_client *client, struct vrampool_alloc *const *a,
				u32 count)
{
	client->allocations -= count;
	vrampool_pool_free_run(a, count);
}

static bool wants_persistent(struct vrampool_client *client, u64 size, u32 flags)
{
	switch (client->persistent_mode) {
	case DRM_VRAMPOOL_PERSISTENT_DISABLED:
		return false;
	case DRM_VRAMPOOL_PERSISTENT_ENFORCED:
		return true;
	case DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH:
		return (flags & DRM_VRAMPOOL_ALLOC_PERSISTENT) ||
		       vrampool_pool_has_size(client->persistent, size);
	default:
		return flags & DRM_VRAMPOOL_ALLOC_PERSISTENT;
	}
}

static int alloc_error(struct drm_vrampool_alloc_error *err, u32 code, u64 size)
{
	err->code = code;
	err->size = size;
	return code == DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG ? -EFBIG : -ENOSPC;
}

/* A per-client limit is reached: which one, its value and what is held. */
static int limit_error(struct drm_vrampool_alloc_error *err, u32 limit, u64 max, u64 held,
		       u64 size)
{
	err->code = DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
	err->pool = limit;
	err->size = size;
	err->capacity = max;
	err->in_use = held;
	return -EDQUOT;
}

/* Checked before anything is made for the request. */
static int check_allocation_limit(struct vrampool_client *client,
				  struct drm_vrampool_alloc *args)
{
	u32 max = vrampool_modparam.max_allocations;

	if (client->allocations < max)
		return 0;
	return limit_error(&args->error, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max,
			   client->allocations, args->size);
}

/*
 * Stores @entry at the next handle if its slot is free,
 * nearly always the case: one walk, in a node that is there already (DOC:
 * retired handle). False when the slot is taken (after a wrap), the cursor
 * wrapped to 0, or a node it needs cannot be had without sleeping; then
 * the search (vrampool_xa_alloc_next()) picks the same handle or the next
 * free one, reusing any node made here.
 */
static bool handle_next_fast(struct vrampool_client *client, void *entry, u32 *handle)
{
	u32 next = client->next_handle;
	XA_STATE(xas, &client->handles, next);
	bool stored = false;

	if (!next)
		return false;
	xas_lock(&xas);
	if (!xas_load(&xas)) {
		xas_store(&xas, entry);
		stored = !xas_error(&xas);
		if (stored)
			xas_clear_mark(&xas, XA_FREE_MARK);
	}
	xas_unlock(&xas);
	if (!stored)
		return false;
	*handle = next;
	client->next_handle = next + 1;
	return true;
}

/*
 * The search for a handle to reserve: the next one after the last handed
 * out that is free (vrampool_xa_alloc_next()); the retired handle too,
 * only when no other is free (DOC: retired handle).
 */
static int handle_search(struct vrampool_client *client, u32 *handle)
{
	int ret;

	ret = vrampool_xa_alloc_next(&client->handles, handle, NULL, xa_limit_32b,
				     &client->next_handle, GFP_KERNEL);
	if (ret != -EBUSY || !client->retired_handle)
		return ret;
	xa_erase(&client->handles, client->retired_handle);
	client->retired_handle = 0;
	return vrampool_xa_alloc_next(&client->handles, handle, NULL, xa_limit_32b,
				      &client->next_handle, GFP_KERNEL);
}

/*
 * Stores @entry at a new handle: the next one, in one walk nearly always,
 * else the one the search picks, which may sleep for memory.
 */
static int handle_store(struct vrampool_client *client, void *entry, u32 *handle)
{
	int ret;

	if (handle_next_fast(client, entry, handle))
		return 0;
	ret = handle_search(client, handle);
	if (ret)
		return ret;
	/* Into the slot just reserved: allocates nothing, so cannot fail. */
	ret = xa_err(xa_store(&client->handles, *handle, entry, GFP_KERNEL));
	if (ret) {
		xa_erase(&client->handles, *handle);
		client->next_handle = *handle;
	}
	return ret;
}

/*
 * FREE's take: the entry @handle names, out of use, the handle left
 * reserved and the one retired before erased (DOC: retired handle). A
 * handle an ALLOC_BATCH still under way reserved names nothing: erasing it
 * would drop the reservation while that batch, copying its answers out
 * without the client lock, still counts on it. One walk and one lock
 * (the retired handle is mostly the one below, one step away): replacing
 * an entry with the zero entry allocates nothing.
 *
 * Return: the entry (DOC: handle entries), or NULL, and nothing changed,
 * if @handle names no allocation.
 */
static void *alloc_take(struct vrampool_client *client, u32 handle)
{
	XA_STATE(xas, &client->handles, handle);
	void *entry;

	xas_lock(&xas);
	entry = xas_load(&xas);
	if (!entry || xa_is_zero(entry)) {
		entry = NULL;
		goto out;
	}
	xas_store(&xas, XA_ZERO_ENTRY);
	if (client->retired_handle) {
		/* Mostly the handle below: one step back, else a walk to it. */
		if (client->retired_handle + 1 == handle)
			xas_prev(&xas);
		else
			xas_set(&xas, client->retired_handle);
		xas_store(&xas, NULL);
	}
	client->retired_handle = handle;
out:
	xas_unlock(&xas);
	return entry;
}

/*
 * Moves @xas to @handle and loads its entry: one step (xas_next()) when
 * @xas stands at a node and @handle is the next index up, else a walk from
 * the root. A walk over a list of handles, mostly consecutive, so costs
 * about one step each. (A fresh state is no node: xas_next() would load
 * its own index again.)
 */
static void *walk_to(struct xa_state *xas, u32 handle)
{
	if (xas_is_node(xas) && xas->xa_index + 1 == handle)
		return xas_next(xas);
	xas_set(xas, handle);
	return xas_load(xas);
}

/**
 * vrampool_alloc_first_missing() - the first of a list of handles that names nothing
 * @client: their client, locked
 * @handles: the handles
 * @count: how many
 *
 * One walk of the handle table (walk_to()). Only the client lock's holder changes the table, so
 * what it finds stays true until the lock is dropped. A reserved or
 * retired handle names nothing, nor does 0.
 *
 * Return: the lowest index whose handle names no allocation, or @count.
 */
u32 vrampool_alloc_first_missing(struct vrampool_client *client, const u32 *handles, u32 count)
{
	XA_STATE(xas, &client->handles, 0);
	void *entry;
	u32 i;

	rcu_read_lock();
	for (i = 0; i < count && handles[i]; i++) {
		entry = walk_to(&xas, handles[i]);
		if (!entry || xa_is_zero(entry))
			break;
	}
	rcu_read_unlock();
	return i;
}

/**
 * vrampool_alloc_take_all() - take a list of handles out of use, for FREE_BATCH
 * @client: their client, locked
 * @handles: the handles, each naming an allocation (vrampool_alloc_first_missing())
 *	     and none twice
 * @count: how many, at least 1
 * @entries: set to their entries (DOC: handle entries)
 *
 * As FREE's take of each in turn, under the table's lock once: the last
 * handle stays retired (DOC: retired handle), the others and the handle
 * retired before are erased. One walk (walk_to()): an erasure that frees
 * a node leaves the state at a node above, from which the step to the
 * next index still finds it, as a walk that erases what it visits
 * expects of the xarray.
 */
void vrampool_alloc_take_all(struct vrampool_client *client, const u32 *handles, u32 count,
			     void **entries)
{
	XA_STATE(xas, &client->handles, 0);
	u32 i;

	xas_lock(&xas);
	for (i = 0; i < count; i++) {
		walk_to(&xas, handles[i]);
		entries[i] = xas_store(&xas, i + 1 < count ? NULL : XA_ZERO_ENTRY);
	}
	if (client->retired_handle) {
		xas_set(&xas, client->retired_handle);
		xas_store(&xas, NULL);
	}
	client->retired_handle = handles[count - 1];
	xas_unlock(&xas);
}

/*
 * Serves @size from the first pool that accepts it and is not capped and
 * full. Returns -ENOSPC with no error code when VRAM itself is exhausted,
 * -EDQUOT with none when a new page would pass the client's page limit.
 */
static int route(struct vrampool_client *client, u64 size, u32 flags,
		 struct vrampool_alloc *a, struct drm_vrampool_alloc_error *err)
{
	struct vrampool_pool *pool, *last_full = NULL;
	bool full;
	u32 i;
	int ret;

	if (wants_persistent(client, size, flags)) {
		if (!vrampool_pool_accepts(client->persistent, size))
			return alloc_error(err, DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, size);
		return vrampool_pool_alloc(client->persistent, size, a, &full);
	}

	for (i = 0; i < client->pool_set->count; i++) {
		pool = client->pool_set->pools[i];
		if (!vrampool_pool_accepts(pool, size))
			continue;
		ret = vrampool_pool_alloc(pool, size, a, &full);
		if (!full)
			return ret;
		last_full = pool;	/* capped and full: spill to the next pool */
	}

	if (!last_full)
		return alloc_error(err, DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, size);

	err->pool = last_full->index;
	err->capacity = vrampool_pool_capacity(last_full);
	err->in_use = last_full->stats.bytes_in_use;
	return alloc_error(err, DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, size);
}

/*
 * The periodic pass: exclusive pools release pages idle for their period;
 * the pools are visited only when one has work due.
 */
static void periodic_cleanup(struct vrampool_client *client)
{
	if (client->alloc_nr >= client->pool_set->periodic_due)
		vrampool_pool_set_cleanup(client->pool_set, false, client->alloc_nr);
}

/* ---- quota and reclaim (DOC: reclaim, in vrampool_reclaim.c) ---------- */

/* A new page would pass the device's VRAM quota: the quota, what is held. */
static int quota_error(struct vrampool_client *client, struct drm_vrampool_alloc_error *err,
		       u64 size)
{
	err->code = DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED;
	err->size = size;
	err->capacity = client->quota_refused;
	err->in_use = vrampool_client_vram(client);
	return -EDQUOT;
}

/*
 * VRAM cannot hold the request even after the client's own cleanup: takes
 * other clients' free pages, the idlest first, and routes again after
 * each. The client lock is dropped for each step and retaken (without
 * interruption: the caller holds it on return, whatever happens).
 */
static int route_reclaiming(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			    struct vrampool_alloc *a)
{
	struct vrampool_reclaim walk;
	u64 freed;
	int ret = -ENOSPC;

	vrampool_reclaim_start(&walk, client);
	do {
		mutex_unlock(&client->lock);
		freed = vrampool_reclaim_next(&walk);
		mutex_lock(&client->lock);
		if (!freed)
			break;
		/* Other threads of the file may have allocated meanwhile. */
		ret = check_allocation_limit(client, args);
		if (!ret) {
			client->quota_refused = 0;
			ret = route(client, args->size, args->flags, a, &args->error);
		}
	} while (ret == -ENOSPC && !args->error.code);
	return ret;
}

/* What every allocation counts, before it is routed: here @n of them. */
static void alloc_begin(struct vrampool_client *client, u32 n)
{
	client->alloc_nr += n;
	client->quota_refused = 0;
	WRITE_ONCE(client->last_alloc, atomic64_add_return(n, &client->vdev->alloc_clock));
}

/*
 * Places @a, retrying once after an explicit cleanup if VRAM is full or
 * the client is at its page limit or VRAM quota: its own free cached pages
 * must not make it fail; then, if VRAM is still full, after reclaiming
 * other clients' free pages.
 */
static int client_alloc(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			struct vrampool_alloc *a)
{
	int ret;

	alloc_begin(client, 1);
	periodic_cleanup(client);

	ret = route(client, args->size, args->flags, a, &args->error);
	if ((ret != -ENOSPC && ret != -EDQUOT) || args->error.code)
		return ret;

	vrampool_client_cleanup(client);
	client->quota_refused = 0;
	ret = route(client, args->size, args->flags, a, &args->error);
	if (ret == -ENOSPC && !args->error.code)
		ret = route_reclaiming(client, args, a);
	if (args->error.code)
		return ret;
	if (ret == -ENOSPC)
		return alloc_error(&args->error, DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, args->size);
	if (ret == -EDQUOT && client->quota_refused)
		return quota_error(client, &args->error, args->size);
	if (ret == -EDQUOT)
		return limit_error(&args->error, DRM_VRAMPOOL_LIMIT_PAGES,
				   vrampool_modparam.max_pages, client->pages, args->size);
	return ret;
}

/**
 * vrampool_alloc_answer() - what ALLOC answers for a placed allocation
 * @a: the allocation, placed by vrampool_alloc_place()
 * @handle: its handle
 * @ans: the answer; every field is set
 */
void vrampool_alloc_answer(const struct vrampool_alloc *a, u32 handle,
			   struct drm_vrampool_alloc_answer *ans)
{
	ans->handle = handle;
	ans->pool = a->pool->index;
	ans->pad = 0;
	ans->offset = a->slice.offset;
	ans->padding = vrampool_alloc_padding(a);
	if (a->ppage) {
		ans->page = a->ppage->index;
		ans->mmap_offset = a->ppage->mmap_offset;
		ans->page_size = a->ppage->size;
	} else {
		ans->page = DRM_VRAMPOOL_NO_PAGE;
		ans->mmap_offset = 0;
		ans->page_size = 0;
	}
}

static void alloc_answer(struct drm_vrampool_alloc *args, const struct vrampool_alloc *a,
			 u32 handle)
{
	struct drm_vrampool_alloc_answer ans;

	vrampool_alloc_answer(a, handle, &ans);
	args->handle = ans.handle;
	args->pool = ans.pool;
	args->page = ans.page;
	args->offset = ans.offset;
	args->padding = ans.padding;
	args->mmap_offset = ans.mmap_offset;
	args->page_size = ans.page_size;
}

/**
 * vrampool_alloc_routable() - whether some pool may accept a request
 * @client: the client, locked
 * @size: the requested size
 * @flags: its ``DRM_VRAMPOOL_ALLOC_*`` flags
 *
 * Return: false when routing @size would fail with
 * %DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG whatever the client allocates first.
 */
bool vrampool_alloc_routable(struct vrampool_client *client, u64 size, u32 flags)
{
	bool persistent = vrampool_pool_accepts(client->persistent, size);
	u32 i;

	if (client->persistent_mode == DRM_VRAMPOOL_PERSISTENT_ENFORCED ||
	    (client->persistent_mode != DRM_VRAMPOOL_PERSISTENT_DISABLED &&
	     (flags & DRM_VRAMPOOL_ALLOC_PERSISTENT)))
		return persistent;
	if (client->persistent_mode == DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH && persistent)
		return true;
	for (i = 0; i < client->pool_set->count; i++)
		if (vrampool_pool_accepts(client->pool_set->pools[i], size))
			return true;
	return false;
}

/**
 * vrampool_alloc_place() - serve one request, with no handle yet
 * @client: the client, locked
 * @args: the request (@size, @flags, checked); @error says why it failed
 * @a: its record, zeroed: allocated for a non-zero size, else on the
 *     caller's stack (DOC: handle entries)
 *
 * On success @a is placed and the client counts it; a handle is given to
 * it next (handle_store(), vrampool_alloc_store_all()). Placing first is
 * safe: an allocation no handle names yet is the ioctl's alone, even while
 * a reclaim has dropped the client lock, and it counts as live, so an
 * install refuses meanwhile. On failure nothing is left in the pools and
 * @a is still the caller's.
 *
 * Return: 0 or a negative errno, as DRM_IOCTL_VRAMPOOL_ALLOC.
 */
int vrampool_alloc_place(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			 struct vrampool_alloc *a)
{
	int ret;

	ret = check_allocation_limit(client, args);
	if (ret)
		return ret;
	ret = client_alloc(client, args, a);
	if (ret)
		return ret;
	client->allocations++;
	return 0;
}

/**
 * vrampool_alloc_place_run() - serve requests like the one placed just before them
 * @client: the client, locked, and not unlocked since @prev was placed
 * @size: the size of @prev's request (not 0), which each request repeats,
 *	  flags and all
 * @a: their records, zeroed
 * @count: how many requests
 * @prev: the allocation vrampool_alloc_place() or this function placed
 *	  last, for ALLOC_BATCH's run of equal requests
 *
 * With nothing else changed, the same request takes the same route: every
 * pool before @prev's refuses it again, as it did (it does not take the
 * size, or is capped and still full), and @prev's pool places it where it
 * would, without a route, while it can tell (vrampool_pool_alloc_run()).
 * That holds while the periodic pass has no work due: its cleanup could
 * change a pool the route passes. So the run stops before the request
 * that would make the pass due, and before one past max_allocations:
 * vrampool_alloc_place() serves those, limits and all.
 *
 * Return: how many of @a, from the first, are placed and counted, each as
 * vrampool_alloc_place() would have in turn; 0 is no error.
 */
u32 vrampool_alloc_place_run(struct vrampool_client *client, u64 size,
			     struct vrampool_alloc *const *a, u32 count,
			     const struct vrampool_alloc *prev)
{
	u64 due = client->pool_set->periodic_due;
	u32 limit = vrampool_modparam.max_allocations;
	u32 n;

	/* The allocation that brings alloc_nr to @due runs the pass. */
	if (client->alloc_nr + 1 >= due || client->allocations >= limit)
		return 0;
	n = min3((u64)count, due - 1 - client->alloc_nr, (u64)(limit - client->allocations));
	n = vrampool_pool_alloc_run(prev, size, a, n);
	if (!n)
		return 0;
	alloc_begin(client, n);
	client->allocations += n;
	return n;
}

/*
 * One ALLOC: places @a, then stores it at a new handle in one step
 * (handle_store()); if that fails for want of memory, the placing is
 * undone and @a is still the caller's.
 */
static int alloc_one(struct vrampool_client *client, struct drm_vrampool_alloc *args,
		     struct vrampool_alloc *a, u32 *handle)
{
	int ret;

	ret = vrampool_alloc_place(client, args, a);
	if (ret)
		return ret;

	ret = handle_store(client, vrampool_alloc_entry(a), handle);
	if (ret) {
		client->allocations--;
		vrampool_pool_free(a);	/* @a stays the caller's */
	}
	return ret;
}

/**
 * vrampool_alloc_entry() - the handle entry of a placed allocation
 * @a: the allocation (DOC: handle entries)
 *
 * Return: @a itself, or for a zero-size allocation its pool's index as an
 * xarray value (@a, on the caller's stack, may then go).
 */
void *vrampool_alloc_entry(struct vrampool_alloc *a)
{
	return a->size ? a : xa_mk_value(a->pool->index);
}

/*
 * Stores @entries at handles from the cursor on while each slot is free,
 * in one walk under the table's lock, each handle into its answer.
 * Return: how many it stored; it stops at a slot that is taken, a wrapped
 * cursor, or a node it cannot have without sleeping (handle_next_fast()).
 */
static u32 store_run(struct vrampool_client *client, void **entries,
		     struct drm_vrampool_alloc_answer *answers, u32 count)
{
	XA_STATE(xas, &client->handles, 0);
	u32 i, next;

	xas_lock(&xas);
	for (i = 0; i < count; i++) {
		next = client->next_handle;
		if (!next || walk_to(&xas, next))
			break;
		xas_store(&xas, entries[i]);
		if (xas_error(&xas))
			break;
		xas_clear_mark(&xas, XA_FREE_MARK);
		answers[i].handle = next;
		client->next_handle = next + 1;
	}
	xas_unlock(&xas);
	return i;
}

/**
 * vrampool_alloc_store_all() - give placed allocations their handles, for ALLOC_BATCH
 * @client: the client, locked
 * @entries: the allocations' entries, vrampool_alloc_entry(), in order
 * @answers: their answers; each one's handle is set
 * @count: how many
 * @failed: on failure, the index of the entry that got no handle
 *
 * The handles each would get from its own ALLOC in turn (handle_store()),
 * mostly in one walk of the handle table. The handles are valid at once:
 * the caller holds the client lock until they may be used.
 *
 * Return: 0, or a negative errno with no handle stored, the handle cursor
 * put back and each answer's handle 0.
 */
int vrampool_alloc_store_all(struct vrampool_client *client, void **entries,
			     struct drm_vrampool_alloc_answer *answers, u32 count, u32 *failed)
{
	u32 start = client->next_handle, i = 0, j;
	int ret;

	for (;;) {
		i += store_run(client, entries + i, answers + i, count - i);
		if (i == count)
			return 0;
		/* The slow way for this one (it may sleep), then one walk again. */
		ret = handle_store(client, entries[i], &answers[i].handle);
		if (ret)
			break;
		i++;
	}
	for (j = 0; j < i; j++) {
		xa_erase(&client->handles, answers[j].handle);
		answers[j].handle = 0;
	}
	client->next_handle = start;
	*failed = i;
	return ret;
}

/**
 * vrampool_alloc_publish() - make hidden handles valid again, or hide them
 * @client: the client, locked
 * @answers: the allocations' answers, each with its handle
 *	     (vrampool_alloc_store_all())
 * @entries: their entries, vrampool_alloc_entry(), in the same order; NULL
 *	     hides every handle (a reserved slot: it names nothing)
 * @count: how many
 *
 * One walk of the handle table, under its lock once (walk_to(): a batch's
 * handles mostly follow each other). Storing into a slot that holds an
 * entry allocates nothing, so it cannot fail.
 */
void vrampool_alloc_publish(struct vrampool_client *client,
			    const struct drm_vrampool_alloc_answer *answers, void **entries,
			    u32 count)
{
	XA_STATE(xas, &client->handles, 0);
	u32 i;

	xas_lock(&xas);
	for (i = 0; i < count; i++) {
		walk_to(&xas, answers[i].handle);
		xas_store(&xas, entries ? entries[i] : XA_ZERO_ENTRY);
	}
	xas_unlock(&xas);
}

/**
 * vrampool_alloc_unplace() - undo vrampool_alloc_place()
 * @client: the client, locked
 * @handle: the handle its entry or a reservation holds, erased; 0 for none
 * @entry: the allocation's entry, vrampool_alloc_entry(); its record is freed
 */
void vrampool_alloc_unplace(struct vrampool_client *client, u32 handle, void *entry)
{
	if (handle)
		xa_erase(&client->handles, handle);
	vrampool_alloc_entry_free(client, entry);
}

/**
 * vrampool_alloc_check() - whether an ALLOC's argument is bad
 * @vdev: the device
 * @args: the argument's fields userspace passes in
 *
 * Return: true for an unknown flag or a must-be-zero field that is not:
 * the ALLOC fails with -EINVAL, before anything of @args is written.
 */
bool vrampool_alloc_check(struct vrampool_device *vdev, const struct drm_vrampool_alloc *args)
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
	if (vrampool_alloc_check(to_vrampool_device(drm), data))
		return -EINVAL;
	return vrampool_alloc_serve(file, data);
}

/**
 * vrampool_alloc_serve() - an ALLOC whose argument vrampool_alloc_check() passed
 * @file: the client
 * @args: the argument; every field it gives back is set, whatever the outcome
 *
 * Return: as vrampool_alloc_ioctl().
 */
int vrampool_alloc_serve(struct drm_file *file, struct drm_vrampool_alloc *args)
{
	struct vrampool_client *client = file->driver_priv;
	struct vrampool_alloc pageless = {}, *a = &pageless;
	u32 handle;
	int ret;

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
		a = vrampool_alloc_record_get(client);
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
		vrampool_alloc_record_put(client, a);
err_unlock:
	mutex_unlock(&client->lock);
err_trace:
	trace_vrampool_alloc_refused(file->client_id, args->size, args->flags, ret,
				     args->error.code);
	return ret;
}

/**
 * vrampool_alloc_trace_free() - the vrampool_free event of a freed handle
 * @client: its client
 * @handle: the handle
 * @entry: its entry (DOC: handle entries), not freed yet
 */
void vrampool_alloc_trace_free(struct vrampool_client *client, u32 handle, void *entry)
{
	const struct vrampool_alloc *a = entry;

	if (xa_is_value(entry))
		trace_vrampool_free(client->file->client_id, handle, 0, xa_to_value(entry));
	else
		trace_vrampool_free(client->file->client_id, handle, a->size, a->pool->index);
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
	entry = alloc_take(client, args->handle);
	if (entry) {
		if (trace_vrampool_free_enabled())
			vrampool_alloc_trace_free(client, args->handle, entry);
		vrampool_alloc_entry_free(client, entry);
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

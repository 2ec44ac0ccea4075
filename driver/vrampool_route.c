// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the way of one request to a pool, and back: routing, the
 * client's limits and VRAM quota, the cleanup and reclaim that retry a
 * request VRAM cannot hold, and the release of an allocation. The ioctls
 * that place (ALLOC, ALLOC_BATCH) all come here, one request at a time.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/minmax.h>
#include <linux/mutex.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_dmem.h"
#include "vrampool_handles.h"
#include "vrampool_modparams.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_reclaim.h"
#include "vrampool_route.h"
#include "vrampool_tenant.h"
#include "vrampool_vram_mgr.h"

static struct vrampool_pool *pool_of_index(struct vrampool_client *client, u32 index)
{
	if (index == DRM_VRAMPOOL_PERSISTENT_POOL)
		return client->persistent;
	return client->pool_set->pools[index];
}

/**
 * vrampool_route_free() - free the allocation a handle names
 * @client: its client, locked (or being torn down)
 * @entry: the handle's entry (DOC: handle entries), out of the handle table
 *	   or about to go with it
 */
void vrampool_route_free(struct vrampool_client *client, void *entry)
{
	struct vrampool_alloc *a = vrampool_route_release(client, entry);

	if (a)
		vrampool_alloc_cache_put(client, a);
}

/**
 * vrampool_route_release() - free the allocation a handle names, but its record
 * @client: its client, locked
 * @entry: the handle's entry (DOC: handle entries), out of the handle table
 *
 * As vrampool_route_free(), for a caller that gives the records of
 * many back at once.
 *
 * Return: the allocation's record, out of its pool, or NULL for a
 * zero-size allocation, which has none.
 */
struct vrampool_alloc *vrampool_route_release(struct vrampool_client *client, void *entry)
{
	struct vrampool_alloc pageless = {};

	client->allocations--;
	vrampool_tenant_uncharge_allocations(client->tenant, 1);
	if (vrampool_handles_pageless(entry)) {
		pageless.whole.pool = pool_of_index(client, vrampool_handles_pool_index(entry));
		vrampool_pool_free(&pageless);
		return NULL;
	}
	vrampool_pool_free(entry);
	return entry;
}

/**
 * vrampool_route_release_run() - free allocations of one page, but their records
 * @client: their client, locked
 * @a: the allocations, out of the handle table, all in the same page
 * @count: how many, at least 1
 *
 * As vrampool_route_release() of each, from the last to the first
 * (vrampool_pool_free_run()), for FREE_BATCH.
 */
void vrampool_route_release_run(struct vrampool_client *client, struct vrampool_alloc *const *a,
				u32 count)
{
	client->allocations -= count;
	vrampool_tenant_uncharge_allocations(client->tenant, count);
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

/* A user's limit is reached: which one, its value and what the user holds. */
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

/*
 * Charges the user one live allocation before anything is made for the
 * request (DOC: tenants, in vrampool_tenant.c).
 */
static int charge_allocation(struct vrampool_client *client, struct drm_vrampool_alloc *args)
{
	struct vrampool_tenant *tenant = client->tenant;
	u32 max = vrampool_modparam.max_allocations;

	if (vrampool_tenant_charge_allocations(tenant, 1, max))
		return 0;
	return limit_error(&args->error, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max,
			   atomic_read(&tenant->allocations), args->size);
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

/* A new page would pass the device's VRAM quota: the quota, what the user holds. */
static int quota_error(struct vrampool_client *client, struct drm_vrampool_alloc_error *err,
		       u64 size)
{
	err->code = DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED;
	err->pool = DRM_VRAMPOOL_QUOTA_DEVICE;
	err->size = size;
	err->capacity = client->quota_refused;
	err->in_use = vrampool_tenant_vram(client->tenant);
	return -EDQUOT;
}

/*
 * A dmem cgroup's dmem.max refused a new page: the controller does not
 * tell drivers the limit nor the usage (DOC: dmem cgroup).
 */
static int cgroup_error(struct drm_vrampool_alloc_error *err, u64 size)
{
	err->code = DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED;
	err->pool = DRM_VRAMPOOL_QUOTA_CGROUP;
	err->size = size;
	err->capacity = 0;
	err->in_use = 0;
	return -EDQUOT;
}

/* A new route: what refused the last one is forgotten. */
static void route_again_begin(struct vrampool_client *client)
{
	client->quota_refused = 0;
	client->cgroup_refused = false;
}

/*
 * What the next step of @walk must give back for the page @refused (-ENOSPC:
 * VRAM; -EDQUOT: the user's limits or a dmem cgroup) refused: the page's
 * VRAM less what the device has free, the whole page (a cgroup's usage is
 * not known), the user's excess over the quota, or one page; at least a
 * byte, so that each step gives back a page at least.
 */
static void reclaim_want(struct vrampool_client *client, int refused,
			 struct vrampool_reclaim *walk)
{
	struct vrampool_device *vdev = client->vdev;
	struct vrampool_tenant *tenant = client->tenant;
	u64 size = client->refused_vram, have, limit;
	u32 pages, max_pages;

	walk->want_vram = 0;
	walk->want_pages = 0;
	if (refused == -ENOSPC) {
		limit = vdev->props.vram_size;
		have = limit - min(limit, vrampool_vram_mgr_in_use(&vdev->vram_mgr));
	} else if (client->cgroup_refused) {
		have = 0;
	} else if (client->quota_refused) {
		limit = client->quota_refused;
		have = limit - min(limit, vrampool_tenant_vram(tenant));
	} else {
		pages = atomic_read(&tenant->pages);
		max_pages = vrampool_modparam.max_pages;
		walk->want_pages = pages >= max_pages ? pages - max_pages + 1 : 1;
		return;
	}
	walk->want_vram = max_t(u64, size - min(size, have), 1);
}

/*
 * The steps of @walk, the client locked on entry and on return: after
 * each, routes the request again, while the refusal stays @refused, by
 * the same limit.
 */
static int reclaim_walk(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			struct vrampool_alloc *a, struct vrampool_reclaim *walk, int refused)
{
	bool cgroup = client->cgroup_refused;
	int ret = refused, err;
	u64 freed;

	/* What all the others' caches hold cannot make room: spare them. */
	reclaim_want(client, refused, walk);
	if (!walk->want_pages && walk->want_vram > walk->cached)
		return refused;
	do {
		mutex_unlock(&client->lock);
		freed = vrampool_reclaim_next(walk, &err);
		mutex_lock(&client->lock);
		if (err) {
			ret = err;	/* killed: no error code, nothing placed */
			break;
		}
		if (!freed)
			break;
		route_again_begin(client);
		ret = route(client, args->size, args->flags, a, &args->error);
		reclaim_want(client, refused, walk);
	} while (ret == refused && !args->error.code && client->cgroup_refused == cgroup);
	return ret;
}

/*
 * One walk for @refused (-ENOSPC: VRAM; -EDQUOT: the user's limits, or a
 * dmem cgroup's when &vrampool_client.cgroup_refused), sparing the pages
 * dmem.low protects unless @ignore_low; @hit_low says it spared some.
 */
static int reclaim_pass(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			struct vrampool_alloc *a, int refused, bool ignore_low, bool *hit_low)
{
	bool same_user = refused == -EDQUOT && !client->cgroup_refused;
	struct vrampool_reclaim walk;
	int ret;

	mutex_unlock(&client->lock);
	ret = vrampool_reclaim_start(&walk, client, same_user);
	mutex_lock(&client->lock);
	walk.filter.ignore_low = ignore_low;
	if (!ret && client->cgroup_refused &&
	    !vrampool_dmem_limit(client->vdev, client->refused_vram, &walk.filter)) {
		/* The cgroup's usage fell meanwhile: the page may fit now. */
		route_again_begin(client);
		ret = route(client, args->size, args->flags, a, &args->error);
	} else if (!ret) {
		ret = reclaim_walk(client, args, a, &walk, refused);
	}
	*hit_low = walk.filter.hit_low;
	vrampool_reclaim_end(&walk);
	return ret;
}

/*
 * The request cannot be served even after the client's own cleanup: takes
 * the free pages of other clients (of its own user's other files only,
 * when the user's limits refused it; charged inside the dmem cgroup whose
 * limit refused it, for a cgroup), the idlest first, only what the refused
 * page needs, and routes again after each step, while the refusal stays
 * the same; none when all their caches could not make room (for the quota:
 * could not bring the user back under it). Pages dmem.min protects are
 * never taken, those dmem.low protects only by a second walk when the
 * first could not make room (DOC: dmem cgroup).
 * The client lock is dropped for each step and retaken (without
 * interruption: the caller holds it on return, whatever happens).
 */
static int route_reclaiming(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			    struct vrampool_alloc *a, int refused)
{
	bool hit_low;
	int ret;

	ret = reclaim_pass(client, args, a, refused, false, &hit_low);
	if (ret == refused && !args->error.code && hit_low)
		ret = reclaim_pass(client, args, a, refused, true, &hit_low);
	return ret;
}

/* What every allocation counts, before it is routed: here @n of them. */
static void alloc_begin(struct vrampool_client *client, u32 n)
{
	client->alloc_nr += n;
	route_again_begin(client);
	client->refused_vram = 0;
	client->hopeless = false;
	WRITE_ONCE(client->last_alloc, atomic64_add_return(n, &client->vdev->alloc_clock));
}

/*
 * Places @a, retrying once after an explicit cleanup if VRAM is full or
 * the user is at its page limit or VRAM quota (unless the page it needs is
 * larger than VRAM or the quota: then at once): its own free cached pages
 * must not make it fail; then, if the user's limits still refuse, after
 * reclaiming the free pages of the user's other files; then, if its dmem
 * cgroup's limit refuses, after reclaiming the free pages charged inside
 * that cgroup; then, if VRAM is full, after reclaiming other clients' free
 * pages.
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
	if (client->hopeless)
		goto refused;	/* nothing given back could make room */

	vrampool_client_cleanup(client);
	route_again_begin(client);
	ret = route(client, args->size, args->flags, a, &args->error);
	/* In the order a new page meets them: the user's limits, the cgroup, VRAM. */
	if (ret == -EDQUOT && !args->error.code && !client->cgroup_refused)
		ret = route_reclaiming(client, args, a, -EDQUOT);
	if (ret == -EDQUOT && !args->error.code && client->cgroup_refused)
		ret = route_reclaiming(client, args, a, -EDQUOT);
	if (ret == -ENOSPC && !args->error.code)
		ret = route_reclaiming(client, args, a, -ENOSPC);
	if (args->error.code)
		return ret;
refused:
	if (ret == -ENOSPC)
		return alloc_error(&args->error, DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, args->size);
	if (ret == -EDQUOT && client->cgroup_refused)
		return cgroup_error(&args->error, args->size);
	if (ret == -EDQUOT && client->quota_refused)
		return quota_error(client, &args->error, args->size);
	if (ret == -EDQUOT)
		return limit_error(&args->error, DRM_VRAMPOOL_LIMIT_PAGES,
				   vrampool_modparam.max_pages, atomic_read(&client->tenant->pages),
				   args->size);
	return ret;
}

/**
 * vrampool_route_answer() - what ALLOC answers for a placed allocation
 * @a: the allocation, placed by vrampool_route_place()
 * @handle: its handle
 * @ans: the answer; every field is set
 */
void vrampool_route_answer(const struct vrampool_alloc *a, u32 handle,
			   struct drm_vrampool_alloc_answer *ans)
{
	ans->handle = handle;
	ans->pool = vrampool_alloc_pool(a)->index;
	ans->pad = 0;
	ans->offset = vrampool_alloc_offset(a);
	ans->padding = vrampool_pool_padding(a);
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

/**
 * vrampool_route_possible() - whether some pool may accept a request
 * @client: the client, locked
 * @size: the requested size
 * @flags: its ``DRM_VRAMPOOL_ALLOC_*`` flags
 *
 * Return: false when routing @size would fail with
 * %DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG whatever the client allocates first.
 */
bool vrampool_route_possible(struct vrampool_client *client, u64 size, u32 flags)
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
 * vrampool_route_place() - serve one request, with no handle yet
 * @client: the client, locked
 * @args: the request (@size, @flags, checked); @error says why it failed
 * @a: its record, zeroed: allocated for a non-zero size, else on the
 *     caller's stack (DOC: handle entries)
 *
 * On success @a is placed and the client counts it; a handle is given to
 * it next (vrampool_handles_store(), vrampool_handles_store_all()). Placing first is
 * safe: an allocation no handle names yet is the ioctl's alone, even while
 * a reclaim has dropped the client lock, and it counts as live, so an
 * install refuses meanwhile. On failure nothing is left in the pools and
 * @a is still the caller's.
 *
 * Return: 0 or a negative errno, as DRM_IOCTL_VRAMPOOL_ALLOC.
 */
int vrampool_route_place(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			 struct vrampool_alloc *a)
{
	int ret;

	ret = charge_allocation(client, args);
	if (ret)
		return ret;
	ret = client_alloc(client, args, a);
	if (ret) {
		vrampool_tenant_uncharge_allocations(client->tenant, 1);
		return ret;
	}
	client->allocations++;
	return 0;
}

/**
 * vrampool_route_place_run() - serve requests like the one placed just before them
 * @client: the client, locked, and not unlocked since @prev was placed
 * @size: the size of @prev's request (not 0), which each request repeats,
 *	  flags and all
 * @a: their records, zeroed
 * @count: how many requests
 * @prev: the allocation vrampool_route_place() or this function placed
 *	  last, for ALLOC_BATCH's run of equal requests
 *
 * With nothing else changed, the same request takes the same route: every
 * pool before @prev's refuses it again, as it did (it does not take the
 * size, or is capped and still full), and @prev's pool places it where it
 * would, without a route, while it can tell (vrampool_pool_alloc_run()).
 * That holds while the periodic pass has no work due: its cleanup could
 * change a pool the route passes. So the run stops before the request
 * that would make the pass due, and before one past max_allocations:
 * vrampool_route_place() serves those, limits and all.
 *
 * Return: how many of @a, from the first, are placed and counted, each as
 * vrampool_route_place() would have in turn; 0 is no error.
 */
u32 vrampool_route_place_run(struct vrampool_client *client, u64 size,
			     struct vrampool_alloc *const *a, u32 count,
			     const struct vrampool_alloc *prev)
{
	u64 due = client->pool_set->periodic_due;
	u32 charged, n;

	/* The allocation that brings alloc_nr to @due runs the pass. */
	if (client->alloc_nr + 1 >= due)
		return 0;
	n = min_t(u64, count, due - 1 - client->alloc_nr);
	charged = vrampool_tenant_charge_allocations(client->tenant, n,
						     vrampool_modparam.max_allocations);
	n = charged ? vrampool_pool_alloc_run(prev, size, a, charged) : 0;
	if (n != charged)
		vrampool_tenant_uncharge_allocations(client->tenant, charged - n);
	if (!n)
		return 0;
	alloc_begin(client, n);
	client->allocations += n;
	return n;
}

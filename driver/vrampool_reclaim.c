// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: reclaim of free cached pages across the clients of a device.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/atomic.h>
#include <linux/cleanup.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/drm_file.h>

#include <kunit/visibility.h>

#include "vrampool_client.h"
#include "vrampool_compat.h"
#include "vrampool_device.h"
#include "vrampool_reclaim.h"
#include "vrampool_tenant.h"
#include "vrampool_trace.h"

/**
 * DOC: reclaim
 *
 * Pools cache free pages: a sliced page whose slices are all free, a free
 * exclusive page, a free direct or persistent buffer stay with their
 * client until it cleans up, installs or closes. When VRAM cannot hold a
 * new page of a client, even after an explicit cleanup of its own pools,
 * ALLOC takes the free cached pages of the device's other clients, and only
 * as many as it needs: it gives back pages of one other client
 * (vrampool_client_trim(), which releases only pages without a live
 * allocation, so no allocation, its data or its mapping is touched) until
 * the new page would fit, and tries again; while it still does not fit,
 * the same client gives more, and once it has nothing left, the next one,
 * until the request fits or no other client has a free page left. The
 * page must fit in the VRAM the device has free: the request takes the
 * new page's VRAM less what is free, at least one page. A free page that
 * is still mapped becomes an orphan (charged to its client until the last
 * munmap(), see vrampool_bo.c): its release gives no VRAM back, so it does
 * not count toward what the request takes.
 *
 * Within a client, pages go in the order of an explicit cleanup: the
 * persistent pool, then the layout's pools in order; in each, free
 * single-allocation pages by index (a direct pool's slot), sliced pages
 * oldest first (vrampool_pool_trim()).
 *
 * Order of the clients: oldest idle first. Every ALLOC stamps its client
 * with the device's ALLOC clock (&vrampool_client.last_alloc); the walk
 * takes the other clients open when it begins, with their stamps, and
 * visits them by stamp, ascending, ties (clients that never allocated) by
 * DRM client id. A client that has not allocated for the longest time is
 * the least likely to want its cache back soon. Idle first is an order,
 * not an exemption: a client that allocates all the time comes last, but
 * its free cached pages are taken like anyone's, or a tenant could keep a
 * cache nobody else may use by staying busy. Clients that open during the
 * walk are not visited: it ends even while clients come and go.
 *
 * Cost: the walk collects the n other clients once (O(n) under
 * &vrampool_device.clients_lock) and orders them outside it as a min-heap
 * (<linux/min_heap.h>, O(n)); the client to visit is on top, and leaving
 * one behind brings up the next in O(log n). A walk that takes what it
 * needs from the idlest client, the usual one, so costs O(n), not the
 * O(n log n) of a sort. Its steps are counted in the device's
 * &vrampool_device.reclaim_work (debugfs ``reclaim``), which the tests read
 * to check that a walk over 500 clients costs no more than O(n log n)
 * against one over 50.
 *
 * Hopeless requests: a page larger than the device's VRAM, or than the
 * quota, cannot be made whatever is given back; such an ALLOC fails at
 * once (OutOfMemory, QuotaExceeded), before any cleanup or reclaim, so a
 * request that can never fit costs no other client its cache. Nor does one
 * that all the other clients' caches together could not make room for:
 * each client keeps the VRAM of its free cached pages in
 * &vrampool_client.cached_vram (kept by the pools as pages become free or
 * busy, &vrampool_backing.cached), the walk adds them up as it collects
 * the clients, and when the page needs more than that beyond the free
 * VRAM, the ALLOC fails with OutOfMemory before it takes anything. So for
 * the quota: when the user's other files' caches hold less than the page
 * takes the user past it, the ALLOC fails with QuotaExceeded and leaves
 * them alone.
 *
 * Locks: the ALLOC drops its own client lock for each step (its handle is
 * reserved, its allocation not yet placed: no other thread can see it).
 * The walk holds a reference to each client it collected
 * (&vrampool_client.ref), taken under the clients lock, and waits for a
 * victim's lock without it, killable (DOC: Locking): a victim in a long
 * ioctl delays this ALLOC alone, never an open() or close() of the device,
 * and no two client locks are ever held at once. A closing client is
 * unlinked from the list, then marked closed under its lock, before
 * postclose frees anything; the reference keeps the struct, and the mark
 * tells a walk that got there late that nothing is left to take. Then the
 * ALLOC retakes its own lock and routes the request again, from scratch:
 * an install by another thread of the same file may have replaced the
 * pools meanwhile.
 *
 * Its user's limits: when a new page would take the user past its VRAM
 * quota or page limit (DOC: tenants, in vrampool_tenant.c) even after the
 * cleanup of the client's own pools, the same walk visits the other files
 * of the same user only, which hold the rest of what the limit counts, and
 * takes what brings the user back under the limit: the quota's excess, or
 * one page.
 *
 * Counters: each client's &vrampool_client.reclaimed_bytes (the drop of
 * its charged VRAM, vrampool_client_vram()) and
 * &vrampool_client.reclaimed_pages (the pages and buffers its pools
 * released, orphaned ones included): what others took from it, in fdinfo
 * and sysfs; its user's &vrampool_tenant.reclaimed_bytes and
 * &vrampool_tenant.reclaimed_pages, what other users' reclaim took from all
 * its files, and the reclaiming user's &vrampool_tenant.reclaim_taken, what
 * its files took from other users'; the device's totals in
 * &vrampool_device.reclaimed_bytes and &vrampool_device.reclaimed_pages.
 */

/* Whether @other is a client @self may take from. */
static bool may_visit(const struct vrampool_client *self, const struct vrampool_client *other,
		      bool same_user)
{
	return other != self && (!same_user || other->tenant == self->tenant);
}

/*
 * Idle order: the older stamp first, the lower DRM client id on a tie
 * (ids are unique: no two victims are equal). @args: the walk, whose work
 * counts the comparison.
 */
static bool victim_less(const void *a, const void *b, void *args)
{
	const struct vrampool_reclaim_victim *va = a, *vb = b;
	struct vrampool_reclaim *walk = args;

	walk->work++;
	if (va->stamp != vb->stamp)
		return va->stamp < vb->stamp;
	return va->id < vb->id;
}

static void victim_swap(void *a, void *b, void *args)
{
	swap(*(struct vrampool_reclaim_victim *)a, *(struct vrampool_reclaim_victim *)b);
}

static const struct min_heap_callbacks victim_order = {
	.less = victim_less,
	.swp = victim_swap,
};

/*
 * Takes a reference to each other client @walk may visit, into the heap's
 * array: at most its size (the clients counted before the lock).
 */
static void collect_victims(struct vrampool_reclaim *walk, bool same_user)
{
	struct vrampool_reclaim_heap *heap = &walk->victims;
	struct vrampool_client *self = walk->self, *other;
	struct vrampool_device *vdev = self->vdev;

	guard(mutex)(&vdev->clients_lock);
	list_for_each_entry(other, &vdev->clients, link) {
		walk->work++;
		if (heap->nr == heap->size)
			break;
		if (!may_visit(self, other, same_user))
			continue;
		refcount_inc(&other->ref);
		walk->cached += READ_ONCE(other->cached_vram);
		heap->data[heap->nr++] = (struct vrampool_reclaim_victim){
			.client = other,
			.stamp = READ_ONCE(other->last_alloc),
			.id = other->file->client_id,
		};
	}
}

/**
 * vrampool_reclaim_start() - begin a walk for an ALLOC that VRAM cannot hold
 * @walk: the walk
 * @self: the allocating client, not locked
 * @same_user: visit only the other files of @self's user
 *
 * Collects the other clients open now, each with a reference, and orders
 * them in idle order (a min-heap: vrampool_reclaim_peek() names the next).
 * The caller sets &vrampool_reclaim.want_vram and
 * &vrampool_reclaim.want_pages before each vrampool_reclaim_next(), and
 * ends the walk with vrampool_reclaim_end().
 *
 * Return: 0, or -ENOMEM (the walk is then empty, and still to be ended).
 */
int vrampool_reclaim_start(struct vrampool_reclaim *walk, struct vrampool_client *self,
			   bool same_user)
{
	struct vrampool_device *vdev = self->vdev;
	u32 count = atomic_read(&vdev->client_count);
	struct vrampool_reclaim_victim *data;

	*walk = (struct vrampool_reclaim){ .self = self, .same_user = same_user };
	atomic64_inc(&vdev->reclaim_walks);
	if (count <= 1)
		return 0;
	data = kvmalloc_array(count, sizeof(*data), GFP_KERNEL_ACCOUNT);
	if (!data)
		return -ENOMEM;
	vrampool_compat_min_heap_init(&walk->victims, data, count);
	collect_victims(walk, same_user);
	vrampool_compat_min_heapify_all(&walk->victims, &victim_order, walk);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_start);

/**
 * vrampool_reclaim_end() - end a walk: drop its references
 * @walk: the walk
 */
void vrampool_reclaim_end(struct vrampool_reclaim *walk)
{
	struct vrampool_device *vdev = walk->self->vdev;

	while (walk->victims.nr)
		vrampool_client_put(walk->victims.data[--walk->victims.nr].client);
	kvfree(walk->victims.data);
	walk->victims.data = NULL;
	walk->victims.size = 0;
	vrampool_dmem_filter_end(&walk->filter);
	atomic64_add(walk->work, &vdev->reclaim_work);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_end);

/**
 * vrampool_reclaim_peek() - the client a walk visits next
 * @walk: the walk
 *
 * Return: the idlest client not left behind yet, or NULL when none is left.
 */
struct vrampool_client *vrampool_reclaim_peek(const struct vrampool_reclaim *walk)
{
	return walk->victims.nr ? walk->victims.data[0].client : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_peek);

/**
 * vrampool_reclaim_leave() - leave the client on top behind, for the next
 * @walk: a walk with a client left to visit (vrampool_reclaim_peek())
 *
 * Drops the walk's reference to it; the next in idle order comes on top,
 * in O(log n).
 */
void vrampool_reclaim_leave(struct vrampool_reclaim *walk)
{
	vrampool_client_put(walk->victims.data[0].client);
	vrampool_compat_min_heap_pop(&walk->victims, &victim_order, walk);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_leave);

/*
 * Gives back what @walk wants of @other's free pages; neither client is
 * locked, the walk holds a reference to @other. Killable: *@err is -EINTR
 * if it was killed while it waited for @other's lock. Returns what it gave
 * of what the walk counts: pages when it wants pages, else VRAM.
 */
static u64 reclaim_client(struct vrampool_reclaim *walk, struct vrampool_client *other, int *err)
{
	struct vrampool_client *self = walk->self;
	struct vrampool_device *vdev = other->vdev;
	u64 vram;
	u32 pages;

	if (mutex_lock_killable(&other->lock)) {
		*err = -EINTR;
		return 0;
	}
	if (other->closed) {
		mutex_unlock(&other->lock);
		return 0;
	}

	vram = vrampool_client_vram(other);
	pages = other->pages;
	vrampool_client_trim(other, walk->want_vram, walk->want_pages, &walk->filter);
	vram -= vrampool_client_vram(other);
	pages -= other->pages;
	if (!pages) {
		mutex_unlock(&other->lock);
		return 0;
	}

	other->reclaimed_bytes += vram;
	other->reclaimed_pages += pages;
	if (other->tenant != self->tenant) {
		atomic64_add(vram, &other->tenant->reclaimed_bytes);
		atomic64_add(pages, &other->tenant->reclaimed_pages);
		atomic64_add(vram, &self->tenant->reclaim_taken);
	}
	mutex_unlock(&other->lock);
	atomic64_add(vram, &vdev->reclaimed_bytes);
	atomic64_add(pages, &vdev->reclaimed_pages);
	trace_vrampool_reclaim(self->file->client_id, other->file->client_id, vram, pages);
	return walk->want_pages ? pages : vram;
}

/**
 * vrampool_reclaim_next() - take what the walk wants from the next client
 * @walk: the walk; its client is not locked
 * @err: set to 0, or to -EINTR when the task was killed meanwhile
 *
 * The client visited last gives again while it gives anything; one that
 * gives nothing is left behind for the next in idle order. The device's
 * clients lock is not held.
 *
 * Return: what was given back (pages when &vrampool_reclaim.want_pages is
 * set, else bytes of VRAM), 0 when no client is left to visit (or on
 * -EINTR).
 */
u64 vrampool_reclaim_next(struct vrampool_reclaim *walk, int *err)
{
	struct vrampool_client *other;
	u64 freed;

	*err = 0;
	while ((other = vrampool_reclaim_peek(walk))) {
		walk->work++;
		freed = reclaim_client(walk, other, err);
		if (freed || *err)
			return freed;
		vrampool_reclaim_leave(walk);
		cond_resched();
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_next);

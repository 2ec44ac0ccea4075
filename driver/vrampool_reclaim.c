// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: reclaim of free cached pages across the clients of a device.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>

#include <drm/drm_file.h>

#include <kunit/visibility.h>

#include "vrampool_client.h"
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
 * ALLOC takes the free cached pages of the device's other clients: it runs
 * an explicit cleanup of one other client (vrampool_client_cleanup(),
 * which releases only pages without a live allocation, so no allocation,
 * its data or its mapping is touched) and tries again, until the request
 * fits or no other client has a free page left. A free page that is still
 * mapped becomes an orphan (charged to its client until the last munmap(),
 * see vrampool_bo.c): its cleanup gives no VRAM back, so a client whose
 * free pages are all mapped yields nothing and the walk goes on.
 *
 * Order: oldest idle first. Every ALLOC stamps its client with the
 * device's ALLOC clock (&vrampool_client.last_alloc); the walk visits the
 * other clients by that stamp, ascending, ties (clients that never
 * allocated) by DRM client id. A client that has not allocated for the
 * longest time is the least likely to want its cache back soon. Idle
 * first is an order, not an exemption: a client that allocates all the
 * time comes last, but its free cached pages are taken like anyone's, or a
 * tenant could keep a cache nobody else may use by staying busy. Each
 * walk is numbered, and marks the clients it visits
 * (&vrampool_client.reclaim_walk): it visits each at most once, and at
 * most as many as were open when it began, so it ends even while clients
 * come and go.
 *
 * Hopeless requests: a page larger than the device's VRAM, or than the
 * quota, cannot be made whatever is given back; such an ALLOC fails at
 * once (OutOfMemory, QuotaExceeded), before any cleanup or reclaim, so a
 * request that can never fit costs no other client its cache.
 *
 * Locks: the ALLOC drops its own client lock for each step (its handle is
 * reserved, its allocation not yet placed: no other thread can see it),
 * then chooses its victim under &vrampool_device.clients_lock and takes a
 * reference to it (&vrampool_client.ref), drops the clients lock, and only
 * then waits for the victim's lock, killable (DOC: Locking): a victim in a
 * long ioctl delays this ALLOC alone, never an open() or close() of the
 * device, and no two client locks are ever held at once. A closing client
 * is unlinked from the list, then marked closed under its lock, before
 * postclose frees anything; the reference keeps the struct, and the mark
 * tells a walk that got there late that nothing is left to take.
 * Then the ALLOC retakes its own lock and routes the request again, from
 * scratch: an install by another thread of the same file may have
 * replaced the pools meanwhile.
 *
 * Its user's limits: when a new page would take the user past its VRAM
 * quota or page limit (DOC: tenants, in vrampool_tenant.c) even after the
 * cleanup of the client's own pools, the same walk visits the other files
 * of the same user only, which hold the rest of what the limit counts.
 *
 * Counters: each client's &vrampool_client.reclaimed_bytes (the drop of
 * its charged VRAM, vrampool_client_vram()) and
 * &vrampool_client.reclaimed_pages (the pages and buffers its pools
 * released, orphaned ones included): what others took from it, in fdinfo
 * and sysfs; its user's &vrampool_tenant.reclaimed_bytes and
 * &vrampool_tenant.reclaimed_pages, what other users' reclaim took from all
 * its files, and the reclaiming user's &vrampool_tenant.reclaim_taken, what
 * its files took from other users'; the device's totals in &vrampool_device.reclaimed_bytes and
 * &vrampool_device.reclaimed_pages.
 */

/**
 * vrampool_reclaim_start() - begin a walk for an ALLOC that VRAM cannot hold
 * @walk: the walk
 * @self: the allocating client
 */
void vrampool_reclaim_start(struct vrampool_reclaim *walk, struct vrampool_client *self)
{
	struct vrampool_device *vdev = self->vdev;

	walk->self = self;
	walk->id = atomic64_inc_return(&vdev->reclaim_walks);
	walk->left = atomic_read(&vdev->client_count);
	walk->same_user = false;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_start);

/* Whether @other is a client @walk may take from. */
static bool walk_may_visit(const struct vrampool_reclaim *walk,
			   const struct vrampool_client *other)
{
	if (other == walk->self || READ_ONCE(other->reclaim_walk) == walk->id)
		return false;
	return !walk->same_user || other->tenant == walk->self->tenant;
}

/**
 * vrampool_reclaim_next_idle() - the next client a reclaim walk visits
 * @walk: the walk; the device's clients lock is held
 *
 * The idlest client the walk has not visited, not the walk's own; a
 * client that allocated since the walk began comes after the idle ones,
 * but comes. It is marked visited. Static but for KUnit
 * (driver/tests/vrampool_reclaim_kunit.c).
 *
 * Return: the client, or NULL when every one has been visited (or the
 * walk has visited as many as there were clients when it began).
 */
VISIBLE_IF_KUNIT struct vrampool_client *vrampool_reclaim_next_idle(struct vrampool_reclaim *walk)
{
	struct vrampool_device *vdev = walk->self->vdev;
	struct vrampool_client *other, *best = NULL;
	u64 best_stamp = 0, best_id = 0, stamp, id;

	lockdep_assert_held(&vdev->clients_lock);
	if (!walk->left)
		return NULL;
	list_for_each_entry(other, &vdev->clients, link) {
		if (!walk_may_visit(walk, other))
			continue;
		stamp = READ_ONCE(other->last_alloc);
		id = other->file->client_id;
		if (!best || stamp < best_stamp || (stamp == best_stamp && id < best_id)) {
			best = other;
			best_stamp = stamp;
			best_id = id;
		}
	}
	if (best) {
		WRITE_ONCE(best->reclaim_walk, walk->id);
		walk->left--;
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_next_idle);

/*
 * Gives back @other's free pages for @self; neither is locked, the walk
 * holds a reference to @other. Killable: *@err is -EINTR if it was killed
 * while it waited for @other's lock.
 */
static u64 reclaim_client(struct vrampool_client *self, struct vrampool_client *other, int *err)
{
	struct vrampool_device *vdev = other->vdev;
	u64 vram, pages;

	if (mutex_lock_killable(&other->lock)) {
		*err = -EINTR;
		return 0;
	}
	if (other->closed || !vrampool_client_purgeable(other)) {
		mutex_unlock(&other->lock);
		return 0;
	}

	vram = vrampool_client_vram(other);
	pages = other->pages;
	vrampool_client_cleanup(other);
	vram -= vrampool_client_vram(other);
	pages -= other->pages;

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
	return vram;
}

/**
 * vrampool_reclaim_next() - take the free pages of the next idlest client
 * @walk: the walk; its client is not locked
 * @err: set to 0, or to -EINTR when the task was killed meanwhile
 *
 * Skips clients with no free cached page. The device's clients lock is
 * held only to choose each client, never while waiting for its lock.
 *
 * Return: the bytes of VRAM given back, 0 when no client is left to visit
 * (or on -EINTR).
 */
u64 vrampool_reclaim_next(struct vrampool_reclaim *walk, int *err)
{
	struct vrampool_device *vdev = walk->self->vdev;
	struct vrampool_client *other;
	u64 freed;

	*err = 0;
	for (;;) {
		scoped_guard(mutex, &vdev->clients_lock) {
			other = vrampool_reclaim_next_idle(walk);
			if (other)
				refcount_inc(&other->ref);
		}
		if (!other)
			return 0;
		freed = reclaim_client(walk->self, other, err);
		vrampool_client_put(other);
		if (freed || *err)
			return freed;
	}
}

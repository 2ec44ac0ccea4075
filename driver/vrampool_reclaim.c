// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: reclaim of free cached pages across the clients of a device.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>

#include <drm/drm_file.h>

#include <kunit/visibility.h>

#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_reclaim.h"
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
 * longest time is the least likely to want its cache back soon. Clients
 * whose stamp is newer than the walk's start (they allocated meanwhile)
 * are left alone, which bounds the walk: each client is visited at most
 * once.
 *
 * Locks: the ALLOC drops its own client lock for each step (its handle is
 * reserved, its allocation not yet placed: no other thread can see it),
 * then takes &vrampool_device.clients_lock and, inside it, the lock of the
 * client it reclaims from, the documented order (DOC: Locking); no two
 * client locks are ever held at once. A closing client is unlinked from
 * the list under the clients lock before postclose frees anything, so a
 * client found on the list stays alive while the clients lock is held.
 * Then the ALLOC retakes its own lock and routes the request again, from
 * scratch: an install by another thread of the same file may have
 * replaced the pools meanwhile.
 *
 * Counters: each client's &vrampool_client.reclaimed_bytes (the drop of
 * its charged VRAM, vrampool_client_vram()) and
 * &vrampool_client.reclaimed_pages (the pages and buffers its pools
 * released, orphaned ones included): what others took from it, in fdinfo
 * and sysfs; the device's totals in &vrampool_device.reclaimed_bytes and
 * &vrampool_device.reclaimed_pages.
 */

/**
 * vrampool_reclaim_start() - begin a walk for an ALLOC that VRAM cannot hold
 * @walk: the walk
 * @self: the allocating client
 */
void vrampool_reclaim_start(struct vrampool_reclaim *walk, struct vrampool_client *self)
{
	walk->self = self;
	walk->clock = atomic64_read(&self->vdev->alloc_clock);
	walk->last_alloc = 0;
	walk->client_id = 0;
	walk->started = false;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_start);

/* Whether (@last_alloc, @id) comes after the client the walk visited last. */
static bool after_cursor(const struct vrampool_reclaim *walk, u64 last_alloc, u64 id)
{
	if (!walk->started)
		return true;
	return last_alloc > walk->last_alloc ||
	       (last_alloc == walk->last_alloc && id > walk->client_id);
}

/**
 * vrampool_reclaim_next_idle() - the next client a reclaim walk visits
 * @walk: the walk; the device's clients lock is held
 *
 * The idlest client after the cursor, not the walk's own, that has not
 * allocated since the walk began; the cursor moves on to it. Static but for
 * KUnit (driver/tests/vrampool_reclaim_kunit.c).
 *
 * Return: the client, or NULL when every one has been visited.
 */
VISIBLE_IF_KUNIT struct vrampool_client *vrampool_reclaim_next_idle(struct vrampool_reclaim *walk)
{
	struct vrampool_device *vdev = walk->self->vdev;
	struct vrampool_client *other, *best = NULL;
	u64 best_stamp = 0, best_id = 0, stamp, id;

	lockdep_assert_held(&vdev->clients_lock);
	list_for_each_entry(other, &vdev->clients, link) {
		if (other == walk->self)
			continue;
		stamp = READ_ONCE(other->last_alloc);
		id = other->file->client_id;
		if (stamp > walk->clock || !after_cursor(walk, stamp, id))
			continue;
		if (!best || stamp < best_stamp || (stamp == best_stamp && id < best_id)) {
			best = other;
			best_stamp = stamp;
			best_id = id;
		}
	}
	if (best) {
		walk->last_alloc = best_stamp;
		walk->client_id = best_id;
		walk->started = true;
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_reclaim_next_idle);

/*
 * Gives back @other's free pages for @self; the clients lock is held,
 * @other's not.
 */
static u64 reclaim_client(struct vrampool_client *self, struct vrampool_client *other)
{
	struct vrampool_device *vdev = other->vdev;
	u64 vram, pages;

	guard(mutex)(&other->lock);
	if (!vrampool_client_purgeable(other))
		return 0;

	vram = vrampool_client_vram(other);
	pages = other->pages;
	vrampool_client_cleanup(other);
	vram -= vrampool_client_vram(other);
	pages -= other->pages;

	other->reclaimed_bytes += vram;
	other->reclaimed_pages += pages;
	atomic64_add(vram, &vdev->reclaimed_bytes);
	atomic64_add(pages, &vdev->reclaimed_pages);
	trace_vrampool_reclaim(self->file->client_id, other->file->client_id, vram, pages);
	return vram;
}

/**
 * vrampool_reclaim_next() - take the free pages of the next idlest client
 * @walk: the walk; its client is not locked
 *
 * Skips clients with no free cached page.
 *
 * Return: the bytes of VRAM given back, 0 when no client is left to visit.
 */
u64 vrampool_reclaim_next(struct vrampool_reclaim *walk)
{
	struct vrampool_device *vdev = walk->self->vdev;
	struct vrampool_client *other;
	u64 freed;

	guard(mutex)(&vdev->clients_lock);
	while ((other = vrampool_reclaim_next_idle(walk))) {
		freed = reclaim_client(walk->self, other);
		if (freed)
			return freed;
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_RECLAIM_H_
#define _VRAMPOOL_RECLAIM_H_

#include <linux/min_heap.h>
#include <linux/types.h>

#include "vrampool_dmem.h"

struct vrampool_client;

/**
 * struct vrampool_reclaim_victim - a client a reclaim walk may take from
 */
struct vrampool_reclaim_victim {
	/** @client: the client, a reference held while it is in the walk's heap */
	struct vrampool_client *client;
	/** @stamp: its &vrampool_client.last_alloc when the walk began */
	u64 stamp;
	/** @id: its DRM client id, the tie-break */
	u64 id;
};

/* A min-heap of victims, the idlest on top (<linux/min_heap.h>). */
DEFINE_MIN_HEAP(struct vrampool_reclaim_victim, vrampool_reclaim_heap);

/**
 * struct vrampool_reclaim - one ALLOC's walk over the other clients
 *
 * The clients open when it began, in idle order, the key
 * (&vrampool_client.last_alloc, DRM client id) ascending, each visited
 * until it has nothing more to give; see DOC: reclaim in vrampool_reclaim.c.
 */
struct vrampool_reclaim {
	/** @self: the client that needs VRAM, never reclaimed from */
	struct vrampool_client *self;
	/**
	 * @victims: the others not yet left behind, a min-heap in idle order
	 * over an array of one entry per client collected: the client to
	 * visit next on top
	 */
	struct vrampool_reclaim_heap victims;
	/** @work: clients examined, comparisons and visits so far */
	u64 work;
	/**
	 * @cached: the free cached VRAM of @victims when they were collected
	 * (&vrampool_client.cached_vram): the most the walk could take
	 */
	u64 cached;
	/** @want_vram: the charged VRAM the next visit must give back */
	u64 want_vram;
	/** @want_pages: the pages the next visit must give back */
	u32 want_pages;
	/**
	 * @same_user: visit only the other files of @self's user, for a
	 * request its user's limits refuse
	 */
	bool same_user;
	/**
	 * @filter: which of the victims' pages may go, by their dmem cgroup
	 * (DOC: dmem cgroup, in vrampool_dmem.c); the caller sets it after
	 * vrampool_reclaim_start(), vrampool_reclaim_end() drops it
	 */
	struct vrampool_dmem_filter filter;
};

int vrampool_reclaim_start(struct vrampool_reclaim *walk, struct vrampool_client *self,
			   bool same_user);
u64 vrampool_reclaim_next(struct vrampool_reclaim *walk, int *err);
void vrampool_reclaim_end(struct vrampool_reclaim *walk);
struct vrampool_client *vrampool_reclaim_peek(const struct vrampool_reclaim *walk);
void vrampool_reclaim_leave(struct vrampool_reclaim *walk);

#endif /* _VRAMPOOL_RECLAIM_H_ */

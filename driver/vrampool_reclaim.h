/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_RECLAIM_H_
#define _VRAMPOOL_RECLAIM_H_

#include <linux/types.h>

struct vrampool_client;

/**
 * struct vrampool_reclaim - one ALLOC's walk over the other clients
 *
 * Visits them in idle order, the key (&vrampool_client.last_alloc, DRM
 * client id) ascending, each at most once; see DOC: reclaim in
 * vrampool_reclaim.c.
 */
struct vrampool_reclaim {
	/** @self: the client that needs VRAM, never reclaimed from */
	struct vrampool_client *self;
	/** @id: the walk's number, unique on its device, marks the visited clients */
	u64 id;
	/** @left: how many more clients it may visit: the clients open when it began */
	u32 left;
	/**
	 * @same_user: visit only the other files of @self's user, for a
	 * request its user's limits refuse (false from vrampool_reclaim_start())
	 */
	bool same_user;
};

void vrampool_reclaim_start(struct vrampool_reclaim *walk, struct vrampool_client *self);
u64 vrampool_reclaim_next(struct vrampool_reclaim *walk, int *err);
#if IS_ENABLED(CONFIG_KUNIT)
struct vrampool_client *vrampool_reclaim_next_idle(struct vrampool_reclaim *walk);
#endif

#endif /* _VRAMPOOL_RECLAIM_H_ */

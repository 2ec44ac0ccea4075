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
 * client id) ascending; see DOC: reclaim in vrampool_reclaim.c.
 */
struct vrampool_reclaim {
	/** @self: the client that needs VRAM, never reclaimed from */
	struct vrampool_client *self;
	/** @clock: the device's ALLOC clock when the walk began */
	u64 clock;
	/** @last_alloc: the key of the client visited last: its last ALLOC */
	u64 last_alloc;
	/** @client_id: and its DRM client id */
	u64 client_id;
	/** @started: a client has been visited */
	bool started;
};

void vrampool_reclaim_start(struct vrampool_reclaim *walk, struct vrampool_client *self);
u64 vrampool_reclaim_next(struct vrampool_reclaim *walk);
#if IS_ENABLED(CONFIG_KUNIT)
struct vrampool_client *vrampool_reclaim_next_idle(struct vrampool_reclaim *walk);
#endif

#endif /* _VRAMPOOL_RECLAIM_H_ */

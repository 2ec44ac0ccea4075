/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_ROUTE_H_
#define _VRAMPOOL_ROUTE_H_

#include <linux/types.h>

struct drm_vrampool_alloc;
struct drm_vrampool_alloc_answer;
struct vrampool_alloc;
struct vrampool_client;

bool vrampool_route_possible(struct vrampool_client *client, u64 size, u32 flags);
int vrampool_route_place(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			 struct vrampool_alloc *a);
u32 vrampool_route_place_run(struct vrampool_client *client, u64 size,
			     struct vrampool_alloc *const *a, u32 count,
			     const struct vrampool_alloc *prev);
void vrampool_route_answer(const struct vrampool_alloc *a, u32 handle,
			   struct drm_vrampool_alloc_answer *ans);
void vrampool_route_free(struct vrampool_client *client, void *entry);
struct vrampool_alloc *vrampool_route_release(struct vrampool_client *client, void *entry);
void vrampool_route_release_run(struct vrampool_client *client, struct vrampool_alloc *const *a,
				u32 count);

#endif /* _VRAMPOOL_ROUTE_H_ */

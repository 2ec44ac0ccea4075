/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_POOL_SET_H_
#define _VRAMPOOL_POOL_SET_H_

#include <linux/compiler_attributes.h>
#include <linux/types.h>

struct drm_vrampool_pool_entry;
struct vrampool_backing;
struct vrampool_pool;
struct vrampool_trim;

/**
 * struct vrampool_pool_set - a client's dynamic pools, in routing order
 *
 * Built from a layout and replaced whole by an install; protected by the
 * owning client's lock like the pools in it.
 */
struct vrampool_pool_set {
	/** @count: number of dynamic pools */
	u32 count;
	/**
	 * @periodic_due: the client's allocation count at which a pool of the
	 * set may next have periodic work, at or before when it has (U64_MAX:
	 * none ever); 0 until the first pass has computed it
	 */
	u64 periodic_due;
	/** @pools: the pools, @pools[i] at layout index i */
	struct vrampool_pool *pools[] __counted_by(count);
};

struct vrampool_pool_set *
vrampool_pool_set_create(const struct drm_vrampool_pool_entry *pools, u32 count,
			 u64 alignment, const struct vrampool_backing *backing);
u64 vrampool_pool_set_destroy(struct vrampool_pool_set *set);
void vrampool_pool_set_cleanup(struct vrampool_pool_set *set, bool explicit, u64 alloc_nr);
void vrampool_pool_set_trim(struct vrampool_pool_set *set, struct vrampool_trim *trim);
u64 vrampool_pool_set_allocations(const struct vrampool_pool_set *set, u64 *bytes);
u64 vrampool_pool_set_vram(const struct vrampool_pool_set *set);

#endif /* _VRAMPOOL_POOL_SET_H_ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_POOL_H_
#define _VRAMPOOL_POOL_H_

#include <linux/types.h>

#include "vrampool_pool_types.h"
#include "vrampool_slices.h"

struct vrampool_pool *vrampool_pool_create(const struct drm_vrampool_pool_entry *config,
					   u32 index, u64 alignment,
					   const struct vrampool_backing *backing);
u64 vrampool_pool_destroy(struct vrampool_pool *pool);
bool vrampool_pool_accepts(const struct vrampool_pool *pool, u64 size);
u32 vrampool_pool_alloc_run(const struct vrampool_alloc *prev, u64 size,
			    struct vrampool_alloc *const *a, u32 count);
int vrampool_pool_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			bool *full);
void vrampool_pool_free(struct vrampool_alloc *a);
void vrampool_pool_free_run(struct vrampool_alloc *const *a, u32 count);
void vrampool_pool_drop(struct vrampool_alloc *a);
void vrampool_pool_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr);
void vrampool_pool_trim(struct vrampool_pool *pool, struct vrampool_trim *trim);
u64 vrampool_pool_padding(const struct vrampool_alloc *a);
u64 vrampool_pool_alloc_size(struct vrampool_alloc *a);
u64 vrampool_pool_periodic_due(const struct vrampool_pool *pool);
bool vrampool_pool_has_size(struct vrampool_pool *pool, u64 size);
u64 vrampool_pool_capacity(const struct vrampool_pool *pool);
u64 vrampool_pool_free_vram(const struct vrampool_pool *pool);

/**
 * vrampool_alloc_pool() - the pool that served an allocation
 * @a: a placed allocation
 *
 * Return: its page's pool, or for a zero-size allocation the pool kept in
 * its record (DOC: allocation records).
 */
static inline struct vrampool_pool *vrampool_alloc_pool(const struct vrampool_alloc *a)
{
	return a->ppage ? a->ppage->pool : a->whole.pool;
}

/**
 * vrampool_alloc_in_slice() - whether an allocation is a slice of a sliced page
 * @a: a placed allocation
 *
 * Return: true if @a uses &vrampool_alloc.slice, false if it uses
 * &vrampool_alloc.whole.
 */
static inline bool vrampool_alloc_in_slice(const struct vrampool_alloc *a)
{
	return a->ppage && a->ppage->pool->config.type == DRM_VRAMPOOL_POOL_SLICED;
}

/**
 * vrampool_alloc_offset() - where an allocation starts in its page
 * @a: a placed allocation
 *
 * Return: its slice's offset in bytes; 0 for an allocation that has its
 * page to itself, or none.
 */
static inline u64 vrampool_alloc_offset(const struct vrampool_alloc *a)
{
	if (!vrampool_alloc_in_slice(a))
		return 0;
	return vrampool_slices_offset(&a->ppage->slices, &a->slice);
}

#endif /* _VRAMPOOL_POOL_H_ */

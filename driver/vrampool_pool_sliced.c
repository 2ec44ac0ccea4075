// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: sliced pools.
 *
 * Pages of page_size bytes, carved into slices: first fit, pages in index
 * order and slices in offset order. Each page's free space is a drm_mm, so
 * a slice is split from the lowest hole that fits and merges with its free
 * neighbours when freed; padding stays part of the slice, so a page whose
 * slices are all free is whole again and an explicit cleanup releases it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool.h"

static bool sliced_insert(struct vrampool_pool_page *ppage, u64 eff, struct vrampool_alloc *a)
{
	if (drm_mm_insert_node_in_range(&ppage->mm, &a->node, eff, 0, 0, 0, ppage->size,
					DRM_MM_INSERT_LOW))
		return false;

	a->ppage = ppage;
	a->offset = a->node.start;
	ppage->live++;
	return true;
}

/**
 * vrampool_sliced_alloc() - serve a size from a sliced pool
 * @pool: the pool, which accepts @size
 * @size: the size
 * @a: the allocation
 * @full: set when the pool is capped and full, else left alone
 *
 * A zero-size request takes no space and no page.
 *
 * Return: 0; -ENOSPC with *@full set when the pool is capped and full; or
 * a negative errno from vrampool_page_new().
 */
int vrampool_sliced_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			  bool *full)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;
	u64 eff;

	/* Accepted sizes are at most the page size, a multiple of the alignment. */
	vrampool_align(size, pool->alignment, &eff);
	a->padding = eff - size;
	if (!eff)
		return 0;

	xa_for_each(&pool->pages, index, ppage) {
		if (sliced_insert(ppage, eff, a))
			return 0;
	}

	if (pool->max_pages && pool->stats.pages >= pool->max_pages) {
		*full = true;
		return -ENOSPC;
	}

	ppage = vrampool_page_new(pool, pool->config.page_size);
	if (IS_ERR(ppage))
		return PTR_ERR(ppage);

	sliced_insert(ppage, eff, a);
	return 0;
}

/**
 * vrampool_sliced_free() - give a slice back to its page
 * @a: the allocation
 */
void vrampool_sliced_free(struct vrampool_alloc *a)
{
	if (!a->ppage)
		return;

	drm_mm_remove_node(&a->node);
	a->ppage->live--;
}

/**
 * vrampool_sliced_cleanup() - release every page with no live slice
 * @pool: the pool
 */
void vrampool_sliced_cleanup(struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;

	xa_for_each(&pool->pages, index, ppage) {
		if (!ppage->live)
			vrampool_page_release(ppage);
	}
}

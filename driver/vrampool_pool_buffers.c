// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: buffer pools, direct and persistent.
 *
 * One buffer (page) of the aligned size per allocation. A free buffer is
 * reused only by a request of the very same aligned size, the lowest index
 * first. A direct pool with reclaim_at releases free buffers, lowest index
 * first, before it grows past that watermark (the allocation goes ahead even
 * if it still ends above it); the persistent pool releases free buffers only
 * in an explicit cleanup.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/overflow.h>

#include "vrampool_pool.h"

static bool above_watermark(const struct vrampool_pool *pool, u64 eff)
{
	u64 total;

	return check_add_overflow(pool->stats.reserved, eff, &total) ||
	       total > pool->config.reclaim_at;
}

/* Release free buffers, lowest index first, until @eff fits the watermark. */
static void direct_reclaim(struct vrampool_pool *pool, u64 eff)
{
	struct vrampool_pool_page *ppage, *next;

	list_for_each_entry_safe(ppage, next, &pool->free_pages, free_link) {
		if (!above_watermark(pool, eff))
			return;
		vrampool_page_release(ppage);
	}
}

/**
 * vrampool_buffers_alloc() - serve a size from a direct or persistent pool
 * @pool: the pool
 * @size: the size; its alignment does not overflow
 * @a: the allocation
 *
 * Return: 0 or a negative errno from vrampool_page_new().
 */
int vrampool_buffers_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a)
{
	struct vrampool_pool_page *ppage;
	u64 eff;

	vrampool_align(size, pool->alignment, &eff);

	list_for_each_entry(ppage, &pool->free_pages, free_link) {
		if (ppage->size == eff) {
			list_del_init(&ppage->free_link);
			goto found;
		}
	}

	if (pool->config.type == DRM_VRAMPOOL_POOL_DIRECT &&
	    (pool->config.flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT))
		direct_reclaim(pool, eff);

	ppage = vrampool_page_new(pool, eff);
	if (IS_ERR(ppage))
		return PTR_ERR(ppage);

found:
	ppage->alloc = a;
	ppage->live = 1;
	a->ppage = ppage;
	a->offset = 0;
	a->padding = eff - size;
	return 0;
}

/**
 * vrampool_buffers_cleanup() - release every free buffer
 * @pool: a direct or persistent pool
 */
void vrampool_buffers_cleanup(struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage, *next;

	list_for_each_entry_safe(ppage, next, &pool->free_pages, free_link)
		vrampool_page_release(ppage);
}

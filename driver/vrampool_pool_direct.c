// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: direct pools.
 *
 * One buffer (page) of the aligned size per allocation. A free buffer is
 * reused only by a request of the very same aligned size, the lowest index
 * first. A direct pool with reclaim_at releases free buffers, lowest index
 * first, before it grows past that watermark (the allocation goes ahead even
 * if it still ends above it). An explicit cleanup releases every free buffer.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_internal.h"

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
		vrampool_pool_page_release(ppage);
	}
}

/*
 * Reclaims only when the pool is about to grow, that is when no free buffer
 * of the size is there to reuse (reclaim might release that very buffer).
 * Reclaim only releases, so vrampool_pool_buffer_alloc() then finds none
 * and makes a new buffer, as it would have without the watermark.
 */
static int direct_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			bool *full)
{
	u64 eff;

	/* Accepted: aligning the size does not overflow. */
	vrampool_pool_effective_size(pool, size, &eff);

	if ((pool->config.flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT) &&
	    !vrampool_pool_page_find_free(pool, eff))
		direct_reclaim(pool, eff);
	return vrampool_pool_buffer_alloc(pool, size, a, full);
}

const struct vrampool_pool_ops vrampool_pool_direct_ops = {
	.accepts = vrampool_pool_buffer_accepts,
	.alloc = direct_alloc,
	.free = vrampool_pool_page_put_back,
	.cleanup = vrampool_pool_buffer_cleanup,
};

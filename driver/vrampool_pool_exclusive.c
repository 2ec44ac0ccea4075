// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: exclusive pools.
 *
 * One allocation per page. A new page is sized max(running average, size);
 * a free page is reused by any request it fits. Every dealloc_period / 5
 * allocations, each free page is seen idle once more; a page seen idle five
 * times is released.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_internal.h"

/* The running average of exclusive pools saturates at 2^47 bytes. */
#define AVG_FRAC_BITS	16
#define AVG_MAX_INPUT	BIT_ULL(47)

static void exclusive_init(struct vrampool_pool *pool)
{
	pool->avg = min(pool->config.max_alloc_size / 2, AVG_MAX_INPUT) << AVG_FRAC_BITS;
}

static bool exclusive_accepts(const struct vrampool_pool *pool, u64 size)
{
	return size <= pool->config.max_alloc_size;
}

/* The running average moves 1% toward each request. */
static void exclusive_average(struct vrampool_pool *pool, u64 size)
{
	u64 s = min(size, AVG_MAX_INPUT) << AVG_FRAC_BITS;

	if (s >= pool->avg)
		pool->avg += (s - pool->avg) / 100;
	else
		pool->avg -= (pool->avg - s) / 100;
}

/*
 * Reuses the free page that fits with the fewest idle checks (the lowest
 * index on a tie); else makes a page of max(running average, size).
 */
static int exclusive_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			   bool *full)
{
	struct vrampool_pool_page *ppage, *best = NULL;
	u64 eff, page_size;

	exclusive_average(pool, size);
	/* Accepted sizes are at most max_alloc_size, which is aligned. */
	vrampool_pool_effective_size(pool, size, &eff);

	list_for_each_entry(ppage, &pool->free_pages, free_link) {
		if (ppage->size >= size && (!best || ppage->free_count < best->free_count))
			best = ppage;
	}

	if (best) {
		if (best->free_count)
			best->free_count--;
		ppage = best;
	} else {
		/* Both are at most max_alloc_size, which is aligned. */
		vrampool_pool_effective_size(pool, max(pool->avg >> AVG_FRAC_BITS, size),
					     &page_size);
		ppage = vrampool_pool_page_new(pool, page_size);
		if (IS_ERR(ppage))
			return PTR_ERR(ppage);
		ppage->free_count = 4;
	}

	vrampool_pool_page_take(ppage, a, eff);
	return 0;
}

/*
 * Every dealloc_period / 5 allocations, each free page is seen idle once
 * more; a page seen idle five times is released. An explicit cleanup
 * releases every free page.
 */
static void exclusive_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	struct vrampool_pool_page *ppage, *next;
	u64 period;

	if (!explicit) {
		if (!(pool->config.flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD))
			return;
		period = pool->config.dealloc_period / 5;
		if (alloc_nr - pool->last_check < period)
			return;
	}
	pool->last_check = alloc_nr;

	list_for_each_entry_safe(ppage, next, &pool->free_pages, free_link) {
		ppage->free_count++;
		if (explicit || ppage->free_count >= 5)
			vrampool_pool_page_release(ppage);
	}
}

const struct vrampool_pool_ops vrampool_pool_exclusive_ops = {
	.init = exclusive_init,
	.accepts = exclusive_accepts,
	.alloc = exclusive_alloc,
	.free = vrampool_pool_page_put_back,
	.cleanup = exclusive_cleanup,
};

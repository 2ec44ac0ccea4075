// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: sliced pools.
 *
 * Pages of page_size bytes, carved into slices: first fit, pages oldest
 * first (as CubeCL visits them: a cleanup keeps the survivors' order and a
 * new page goes last) and slices in offset order. The pages sit in the
 * pool's fit tree by age, each with its largest hole, so first fit finds
 * its page in O(log n) rather than trying each. Each page keeps its slices
 * in a slice index (vrampool_slices.c), so a slice is split from the
 * lowest hole that fits and merges with its free neighbours when freed;
 * padding stays part of the slice (its length is the effective size), so
 * a page whose slices are all free is whole again and an explicit cleanup
 * releases it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/container_of.h>
#include <linux/log2.h>
#include <linux/sched.h>

#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"
#include "vrampool_slices.h"

/*
 * The near-page rule: an uncapped pool also takes a request above 80% of a
 * page, and gives it a whole page. Above 80% is size > page * 4 / 5, that is
 * (page - size) * 5 < page: the request leaves less than a fifth of the page
 * unused.
 */
#define NEAR_PAGE_FIFTHS	5

/*
 * Whether @size <= @page is above 80% of @page, exactly as the unbounded
 * integer (page - size) * 5 < page says, for every u64 @page and @size.
 * When the product does not fit in 64 bits (check_mul_overflow()), it is at
 * least 2^64, above any u64 page: no. Otherwise @scaled is the exact product
 * and the comparison is the rule itself.
 */
static bool sliced_near_page(u64 page, u64 size)
{
	u64 scaled;

	if (check_mul_overflow(page - size, (u64)NEAR_PAGE_FIFTHS, &scaled))
		return false;
	return scaled < page;
}

/**
 * struct vrampool_pool_sliced - a sliced pool
 */
struct vrampool_pool_sliced {
	/** @base: the pool */
	struct vrampool_pool base;
	/**
	 * @max_pages: capped pools: the most pages they may hold
	 * (max_pool_size / page_size); 0 for an uncapped pool
	 */
	u32 max_pages;
};

#define to_sliced(pool)	container_of_const(pool, struct vrampool_pool_sliced, base)

static void sliced_init(struct vrampool_pool *pool)
{
	if (pool->config.flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE)
		to_sliced(pool)->max_pages = pool->config.max_pool_size / pool->config.page_size;
}

static bool sliced_accepts(const struct vrampool_pool *pool, u64 size)
{
	u64 page = pool->config.page_size;

	if (size <= min(pool->config.max_slice_size, page))
		return true;
	return !to_sliced(pool)->max_pages && size <= page && sliced_near_page(page, size);
}

/*
 * The largest hole of a page. A slice of up to that size fits the page:
 * slices have no alignment of their own and may go anywhere in it.
 */
static u64 sliced_largest_hole(struct vrampool_pool_page *ppage)
{
	return vrampool_slices_largest_hole(&ppage->slices);
}

static bool sliced_insert(struct vrampool_pool_page *ppage, u64 eff, struct vrampool_alloc *a)
{
	if (!vrampool_slices_insert(&ppage->slices, &a->slice, eff))
		return false;

	a->ppage = ppage;
	if (!ppage->live++)
		vrampool_pool_page_busy(ppage);
	vrampool_pool_page_fit_set(ppage, sliced_largest_hole(ppage));
	return true;
}

/*
 * The oldest page with a hole that fits (vrampool_pool_page_first_fit() over the
 * pages, oldest first, by largest hole), else a new page unless the pool is
 * capped and full. (A zero-size request never comes here: it takes no page.)
 */
static int sliced_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			bool *full)
{
	u32 max_pages = to_sliced(pool)->max_pages;
	struct vrampool_pool_page *ppage;
	u64 eff;

	/* Accepted sizes are at most the page size, a multiple of the alignment. */
	vrampool_pool_effective_size(pool, size, &eff);

	ppage = vrampool_pool_page_first_fit(pool, eff);
	if (ppage)
		return sliced_insert(ppage, eff, a) ? 0 : -ENOSPC;

	if (max_pages && pool->stats.pages >= max_pages) {
		*full = true;
		return -ENOSPC;
	}

	ppage = vrampool_pool_page_new(pool, pool->config.page_size);
	if (IS_ERR(ppage))
		return PTR_ERR(ppage);

	ppage->fit = sliced_largest_hole(ppage);
	vrampool_pool_page_tree_add(ppage);
	sliced_insert(ppage, eff, a);
	return 0;
}

/*
 * After @prev, of the same size: the pages before @prev's had no hole for
 * it then (first fit passed them) and have none now, so @prev's page is the
 * first that fits for each of the run while it still does. The page's fit
 * is set once, at the end: nothing reads it meanwhile.
 */
static u32 sliced_alloc_run(const struct vrampool_alloc *prev, u64 size,
			    struct vrampool_alloc *const *a, u32 count)
{
	struct vrampool_pool_page *ppage = prev->ppage;
	u64 eff;
	u32 i;

	vrampool_pool_effective_size(ppage->pool, size, &eff);
	for (i = 0; i < count && sliced_largest_hole(ppage) >= eff; i++) {
		if (!vrampool_slices_insert(&ppage->slices, &a[i]->slice, eff))
			break;
		a[i]->ppage = ppage;
	}
	if (!i)
		return 0;
	if (!ppage->live)
		vrampool_pool_page_busy(ppage);
	ppage->live += i;
	vrampool_pool_page_fit_set(ppage, sliced_largest_hole(ppage));
	return i;
}

/* The size: the slice's length, less the padding it keeps. */
static u64 sliced_free(struct vrampool_alloc *a)
{
	u64 len = vrampool_slices_remove(&a->ppage->slices, &a->slice);

	if (!--a->ppage->live)
		vrampool_pool_page_idle(a->ppage);
	vrampool_pool_page_fit_set(a->ppage, sliced_largest_hole(a->ppage));
	return len - a->slice.pad;
}

/* As sliced_free() of each, the last first; accounted and the page's fit set once. */
static void sliced_free_run(struct vrampool_pool *pool, struct vrampool_alloc *const *a,
			    u32 count)
{
	struct vrampool_pool_page *ppage = a[0]->ppage;
	u64 len = 0, padding = 0;
	u32 i;

	for (i = count; i-- > 0;) {
		len += vrampool_slices_remove(&ppage->slices, &a[i]->slice);
		padding += a[i]->slice.pad;
	}
	vrampool_pool_account_sub(pool, len - padding, padding, count);
	ppage->live -= count;
	if (!ppage->live)
		vrampool_pool_page_idle(ppage);
	vrampool_pool_page_fit_set(ppage, sliced_largest_hole(ppage));
}

/* Pages are visited oldest first. */
static bool sliced_before(const struct vrampool_pool_page *a, const struct vrampool_pool_page *b)
{
	return a->order < b->order;
}

/* Wholly free pages, oldest first, until @trim says enough (all if NULL). */
static void sliced_trim(struct vrampool_pool *pool, struct vrampool_trim *trim)
{
	struct vrampool_pool_page *ppage, *next;

	list_for_each_entry_safe(ppage, next, &pool->by_age, age_link) {
		if (trim && trim->done(trim))
			break;
		if (!ppage->live && vrampool_trim_may_release(trim, ppage))
			vrampool_pool_page_release(ppage);
		cond_resched();
	}
}

/* Sliced pools keep their pages until an explicit cleanup. */
static void sliced_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	if (explicit)
		sliced_trim(pool, NULL);
}

static u64 sliced_capacity(const struct vrampool_pool *pool)
{
	return (u64)to_sliced(pool)->max_pages * pool->config.page_size;
}

/* Counted in units of the alignment (DOC: slice units). */
static int sliced_page_init(struct vrampool_pool_page *ppage)
{
	return vrampool_slices_init(&ppage->slices, ppage->size, ilog2(ppage->pool->alignment));
}

const struct vrampool_pool_ops vrampool_pool_sliced_ops = {
	.size = VRAMPOOL_POOL_SIZE(struct vrampool_pool_sliced),
	.init = sliced_init,
	.accepts = sliced_accepts,
	.alloc = sliced_alloc,
	.alloc_run = sliced_alloc_run,
	.free = sliced_free,
	.free_run = sliced_free_run,
	.cleanup = sliced_cleanup,
	.trim = sliced_trim,
	.capacity = sliced_capacity,
	.page_init = sliced_page_init,
	.free_before = sliced_before,
};

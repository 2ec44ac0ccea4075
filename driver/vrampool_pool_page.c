// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: pool pages, for every pool type: their life (made, backed,
 * numbered, released), their indices, the fit tree a new allocation
 * searches, and the pages that hold one allocation each (exclusive, direct
 * and persistent pools).
 *
 * A type shapes its pages through its &struct vrampool_pool_ops (page_init,
 * index_take, free_before, ...); this file keeps the pool's page table,
 * page list, fit tree and page counters right for all of them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

/**
 * DOC: page indices and page order
 *
 * A page's index, which ALLOC reports, is stable for the page's life and
 * unique among the pool's live pages. Sliced, exclusive and persistent pools
 * number pages as they make them, 0, 1, 2, ...: a new page takes the index
 * after the previous new page's, never the freed index of a released page,
 * so index order is creation order. After 0xfffffffe (0xffffffff is
 * %DRM_VRAMPOOL_NO_PAGE) numbering starts again from 0, skipping the
 * indices of live pages. A direct pool's page index is its slot, numbered
 * as CubeCL numbers slots: a new buffer takes the slot released last, else
 * a new slot after every other.
 *
 * The order a pool visits, reuses and reclaims pages in is CubeCL's, and is
 * kept apart from the index (&vrampool_pool_page.order), so that a wrapped
 * numbering does not change it:
 *
 * - sliced: first fit visits pages oldest first (&vrampool_pool.fit_tree),
 *   and an explicit cleanup releases them in that order (&vrampool_pool.by_age);
 * - exclusive: the free page that fits with the fewest idle checks, the
 *   oldest on a tie;
 * - persistent: the oldest free buffer of the size;
 * - direct: the free buffer of the size in the lowest slot; reclaim and
 *   cleanup release free buffers in slot order.
 *
 * Free single-allocation pages live in &vrampool_pool.fit_tree, sorted in
 * the type's reuse order, and so do all of a sliced pool's pages, oldest
 * first; each subtree knows the largest allocation a page of it can take
 * (its size, for a free single-allocation page; its largest hole, for a
 * sliced page). A free takes O(log n), a buffer pool finds its free buffer
 * of a size in O(log n), and exclusive and sliced pools find the first page
 * in their order that fits in O(log n) too (vrampool_pool_page_first_fit()),
 * however many pages there are. Free single-allocation pages are also
 * marked %VRAMPOOL_PAGE_FREE in &vrampool_pool.pages, for the walks in
 * index order that skip the busy pages (direct reclaim, cleanup). A page
 * taken again keeps its mark, which a FREE would only set again: each
 * change of a mark is a walk of the table, and a warm ALLOC and FREE of
 * the same page would make two. A walk of the marked pages drops the
 * marks of the busy pages it meets instead (vrampool_pool_page_unmark_busy()),
 * so each stale mark costs one step of one walk, after the FREE that set it.
 */

#include <linux/rbtree_augmented.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"
#include "vrampool_trace.h"
#include "vrampool_xa.h"

/* Page indices: every u32 but DRM_VRAMPOOL_NO_PAGE, which ALLOC reserves. */
#define PAGE_INDEX_LIMIT	XA_LIMIT(0, DRM_VRAMPOOL_NO_PAGE - 1)

/*
 * The next index from where the last new page's left off, skipping the
 * indices of live pages and wrapping past PAGE_INDEX_LIMIT; the order is
 * creation order. -ENOSPC if every index is taken.
 */
static int page_index_take(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool *pool = ppage->pool;
	int ret;

	ret = vrampool_xa_alloc_next(&pool->pages, &ppage->index, ppage, PAGE_INDEX_LIMIT,
				     &pool->next_index, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;

	ppage->order = pool->pages_made;
	return 0;
}

/**
 * vrampool_pool_page_new() - make a new, backed page for a pool
 * @pool: the pool
 * @size: its size in bytes
 *
 * The page goes last in creation order, and takes its index last, once
 * nothing else can fail: a failed page leaves the numbering as it was.
 *
 * Return: the page, or an ERR_PTR(): -ENOSPC when the device is full,
 * -EDQUOT at the client's page limit, -ENOMEM, -EINTR.
 */
struct vrampool_pool_page *vrampool_pool_page_new(struct vrampool_pool *pool, u64 size)
{
	const struct vrampool_pool_ops *ops = pool->ops;
	struct vrampool_pool_stats *st = &pool->stats;
	struct vrampool_pool_page *ppage;
	int ret;

	ppage = kzalloc(sizeof(*ppage), GFP_KERNEL_ACCOUNT);
	if (!ppage)
		return ERR_PTR(-ENOMEM);

	ppage->pool = pool;
	ppage->size = size;
	RB_CLEAR_NODE(&ppage->fit_node);

	if (ops->page_init) {
		ret = ops->page_init(ppage);
		if (ret)
			goto err_free;
	}

	ret = pool->backing->back(pool->backing, ppage);
	if (ret)
		goto err_page_fini;

	ret = ops->index_take ? ops->index_take(ppage) : page_index_take(ppage);
	if (ret)
		goto err_release;

	list_add_tail(&ppage->age_link, &pool->by_age);
	trace_vrampool_page_create(pool->backing->owner, pool->index, ppage->index, size);
	pool->pages_made++;
	st->pages++;
	st->pages_peak = max(st->pages_peak, st->pages);
	st->reserved += size;
	st->vram += ppage->vram;
	vrampool_pool_page_idle(ppage);
	return ppage;

err_release:
	pool->backing->release(pool->backing, ppage);
err_page_fini:
	if (ops->page_fini)
		ops->page_fini(ppage);
err_free:
	kfree(ppage);
	return ERR_PTR(ret);
}

/* @ppage's VRAM is free cached now (no live allocation), or no longer. */
static void page_cached_add(struct vrampool_pool_page *ppage, bool cached)
{
	struct vrampool_pool *pool = ppage->pool;
	u64 *sum = pool->backing->cached;

	if (cached)
		pool->stats.free_vram += ppage->vram;
	else
		pool->stats.free_vram -= ppage->vram;
	if (sum)
		WRITE_ONCE(*sum, cached ? *sum + ppage->vram : *sum - ppage->vram);
}

/**
 * vrampool_pool_page_idle() - a page's last live allocation went
 * @ppage: the page, its live count just dropped to 0
 *
 * Its VRAM is free cached: what a cleanup or a reclaim may give back.
 */
void vrampool_pool_page_idle(struct vrampool_pool_page *ppage)
{
	page_cached_add(ppage, true);
}

/**
 * vrampool_pool_page_busy() - a free page took a live allocation
 * @ppage: the page, its live count just rose from 0
 */
void vrampool_pool_page_busy(struct vrampool_pool_page *ppage)
{
	page_cached_add(ppage, false);
}

static struct vrampool_pool_page *tree_page_of(struct rb_node *node)
{
	return rb_entry(node, struct vrampool_pool_page, fit_node);
}

static u64 page_fit(const struct vrampool_pool_page *ppage)
{
	return ppage->fit;
}

/* Keeps &vrampool_pool_page.fit_max, the largest fit of each subtree. */
RB_DECLARE_CALLBACKS_MAX(static, fit_tree_augment, struct vrampool_pool_page, fit_node,
			 u64, fit_max, page_fit)

/* Take a page out of the fit tree, if it is there (its free mark stays). */
static void fit_tree_remove(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool *pool = ppage->pool;

	if (RB_EMPTY_NODE(&ppage->fit_node))
		return;
	rb_erase_augmented_cached(&ppage->fit_node, &pool->fit_tree, &fit_tree_augment);
	RB_CLEAR_NODE(&ppage->fit_node);
}

static bool fit_tree_less(struct rb_node *a, const struct rb_node *b)
{
	const struct vrampool_pool_page *pa = tree_page_of(a);
	const struct vrampool_pool_page *pb = rb_entry(b, const struct vrampool_pool_page,
						       fit_node);

	return pa->pool->ops->free_before(pa, pb);
}

/**
 * vrampool_pool_page_tree_add() - put a page into its pool's fit tree
 * @ppage: the page, its order and &vrampool_pool_page.fit set
 *
 * At its place in the type's order (&vrampool_pool_ops.free_before), in
 * O(log n).
 */
void vrampool_pool_page_tree_add(struct vrampool_pool_page *ppage)
{
	ppage->fit_max = ppage->fit;
	rb_add_augmented_cached(&ppage->fit_node, &ppage->pool->fit_tree, fit_tree_less,
				&fit_tree_augment);
}

/**
 * vrampool_pool_page_fit_set() - a page in the fit tree can now take another size
 * @ppage: a page in its pool's &vrampool_pool.fit_tree
 * @fit: the largest allocation it can take now
 *
 * Updates the largest fit of the subtrees above it, in O(log n).
 */
void vrampool_pool_page_fit_set(struct vrampool_pool_page *ppage, u64 fit)
{
	ppage->fit = fit;
	fit_tree_augment.propagate(&ppage->fit_node, NULL);
}

/**
 * vrampool_pool_page_first_fit() - the first page of the fit tree that can take a size
 * @pool: a pool
 * @size: the bytes the page must take
 *
 * The page a walk of &vrampool_pool.fit_tree from its first page would
 * stop at, found in O(log n): a subtree whose largest fit is too small is
 * skipped whole, and a left subtree with a page that fits holds the first.
 *
 * Return: the page, or NULL if no page of the tree can take @size bytes.
 */
struct vrampool_pool_page *vrampool_pool_page_first_fit(struct vrampool_pool *pool, u64 size)
{
	struct rb_node *node = pool->fit_tree.rb_root.rb_node;
	struct vrampool_pool_page *ppage;

	while (node && tree_page_of(node)->fit_max >= size) {
		ppage = tree_page_of(node);
		if (node->rb_left && tree_page_of(node->rb_left)->fit_max >= size) {
			node = node->rb_left;
			continue;
		}
		if (ppage->fit >= size)
			return ppage;
		node = node->rb_right;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_page_first_fit);

/**
 * vrampool_pool_page_release() - give a page with no live allocation back
 * @ppage: the page
 */
void vrampool_pool_page_release(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool *pool = ppage->pool;
	struct vrampool_pool_stats *st = &pool->stats;

	fit_tree_remove(ppage);
	xa_erase(&pool->pages, ppage->index);
	list_del(&ppage->age_link);
	if (pool->ops->index_put)
		pool->ops->index_put(ppage);
	if (pool->ops->page_fini)
		pool->ops->page_fini(ppage);

	if (!ppage->live)
		vrampool_pool_page_busy(ppage);
	st->pages--;
	st->reserved -= ppage->size;
	st->vram -= ppage->vram;

	trace_vrampool_page_release(pool->backing->owner, pool->index, ppage->index, ppage->size);
	pool->backing->release(pool->backing, ppage);
	kfree(ppage);
}

/**
 * vrampool_pool_page_take() - give a single-allocation page to an allocation
 * @ppage: a free page from &vrampool_pool.fit_tree, or a new page
 * @a: the allocation, its effective size at most the page size
 *
 * The inverse of vrampool_pool_page_put_back().
 */
void vrampool_pool_page_take(struct vrampool_pool_page *ppage, struct vrampool_alloc *a)
{
	fit_tree_remove(ppage);
	ppage->alloc = a;
	ppage->live = 1;
	vrampool_pool_page_busy(ppage);
	a->ppage = ppage;
}

/**
 * vrampool_pool_page_put_back() - free the allocation of a single-allocation page
 * @a: the allocation
 *
 * Its page goes into the free tree, at its place in the type's reuse order,
 * and is marked free in &vrampool_pool.pages unless it still is.
 *
 * Return: the size @a was requested with (&vrampool_alloc.whole).
 */
u64 vrampool_pool_page_put_back(struct vrampool_alloc *a)
{
	struct vrampool_pool_page *ppage = a->ppage;
	struct vrampool_pool *pool = ppage->pool;

	ppage->alloc = NULL;
	ppage->live = 0;
	vrampool_pool_page_idle(ppage);
	ppage->fit = ppage->size;
	vrampool_pool_page_tree_add(ppage);
	if (!ppage->free_marked) {
		xa_set_mark(&pool->pages, ppage->index, VRAMPOOL_PAGE_FREE);
		ppage->free_marked = true;
	}
	return a->whole.size;
}

/**
 * vrampool_pool_page_unmark_busy() - drop the free mark of a page taken again
 * @ppage: a page a walk of the %VRAMPOOL_PAGE_FREE marks found
 *
 * Return: true if @ppage is busy (its stale mark is gone now): the walk
 * skips it.
 */
bool vrampool_pool_page_unmark_busy(struct vrampool_pool_page *ppage)
{
	if (!ppage->live)
		return false;
	xa_clear_mark(&ppage->pool->pages, ppage->index, VRAMPOOL_PAGE_FREE);
	ppage->free_marked = false;
	return true;
}

/**
 * vrampool_pool_page_release_free() - release free single-allocation pages
 * @pool: the pool
 * @trim: NULL to release every free page, else release until
 *	  &vrampool_trim.done says enough (vrampool_pool_trim())
 *
 * In index order: a direct pool's slot order, the order its released slots
 * go on &vrampool_pool_direct.vacant in.
 */
void vrampool_pool_page_release_free(struct vrampool_pool *pool, struct vrampool_trim *trim)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;

	xa_for_each_marked(&pool->pages, index, ppage, VRAMPOOL_PAGE_FREE) {
		if (trim && trim->done(trim))
			break;
		if (!vrampool_pool_page_unmark_busy(ppage) &&
		    vrampool_trim_may_release(trim, ppage))
			vrampool_pool_page_release(ppage);
		cond_resched();
	}
}

/**
 * vrampool_pool_page_release_all() - release every page of a pool about to go
 * @pool: a pool with no live allocation left, or whose live allocations
 *	  were dropped (vrampool_pool_drop())
 *
 * Leaves its page table empty and destroyed (DOC: teardown, in
 * vrampool_pool.c).
 *
 * Return: the pages it released, each visited once.
 */
u64 vrampool_pool_page_release_all(struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;
	u64 released = 0;

	xa_for_each(&pool->pages, index, ppage) {
		vrampool_pool_page_release(ppage);
		released++;
		cond_resched();
	}
	xa_destroy(&pool->pages);
	return released;
}

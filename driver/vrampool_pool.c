// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: what every pool type shares: creation, pages, accounting, the
 * single-allocation page helpers, and the dispatch to the type's
 * &struct vrampool_pool_ops (vrampool_pool_<type>.c).
 *
 * The direct pools and the persistent pool are both buffer pools (one buffer
 * per allocation, reused only at the same aligned size): their common
 * accepts, alloc and cleanup are here, and their files add what differs,
 * the reclaim watermark and the size buckets.
 *
 * Pools belong to one client and are protected by its lock; they take no
 * lock of their own and no device-wide lock, except TTM's when a page is
 * created or released.
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
 * in their order that fits in O(log n) too (vrampool_pool_first_fit()),
 * however many pages there are. Free single-allocation pages are also
 * marked %VRAMPOOL_PAGE_FREE in &vrampool_pool.pages, for the walks in
 * index order that skip the busy pages (direct reclaim, cleanup). A page
 * taken again keeps its mark, which a FREE would only set again: each
 * change of a mark is a walk of the table, and a warm ALLOC and FREE of
 * the same page would make two. A walk of the marked pages drops the
 * marks of the busy pages it meets instead (vrampool_pool_page_unmark_busy()),
 * so each stale mark costs one step of one walk, after the FREE that set it.
 */

/**
 * DOC: teardown
 *
 * Every walk over a pool's pages or a client's allocations visits each once
 * (no insertion in order walks a list), and calls cond_resched() between
 * items: a client may hold millions. postclose does no free-page upkeep: it
 * drops each allocation (vrampool_pool_drop(), which only takes a slice out
 * of its page) and then destroys the pools, releasing every page in one
 * pass; its vrampool_close event counts the allocations, records and
 * pages those walks visited.
 */

#include <linux/rbtree_augmented.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "vrampool_pool_internal.h"
#include "vrampool_trace.h"
#include "vrampool_xa.h"

/* Page indices: every u32 but DRM_VRAMPOOL_NO_PAGE, which ALLOC reserves. */
#define PAGE_INDEX_LIMIT	XA_LIMIT(0, DRM_VRAMPOOL_NO_PAGE - 1)

static const struct vrampool_pool_ops *const pool_types[] = {
	[DRM_VRAMPOOL_POOL_EXCLUSIVE] = &vrampool_pool_exclusive_ops,
	[DRM_VRAMPOOL_POOL_SLICED] = &vrampool_pool_sliced_ops,
	[DRM_VRAMPOOL_POOL_DIRECT] = &vrampool_pool_direct_ops,
	[DRM_VRAMPOOL_POOL_PERSISTENT] = &vrampool_pool_persistent_ops,
};

/**
 * vrampool_pool_create() - make a pool with no pages
 * @config: the resolved pool, of a known type
 * @index: its position in the layout, or DRM_VRAMPOOL_PERSISTENT_POOL
 * @alignment: the device alignment, a power of two
 * @backing: where its pages get memory
 *
 * Return: the pool, or NULL without memory (or for an unknown type, which
 * the layout rules never let through).
 */
struct vrampool_pool *vrampool_pool_create(const struct drm_vrampool_pool_entry *config,
					   u32 index, u64 alignment,
					   const struct vrampool_backing *backing)
{
	struct vrampool_pool *pool;

	if (WARN_ON(config->type >= ARRAY_SIZE(pool_types) || !pool_types[config->type]))
		return NULL;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL_ACCOUNT);
	if (!pool)
		return NULL;

	pool->config = *config;
	pool->ops = pool_types[config->type];
	pool->index = index;
	pool->alignment = alignment;
	pool->backing = backing;
	xa_init_flags(&pool->pages, XA_FLAGS_ALLOC | XA_FLAGS_ACCOUNT);
	xa_init_flags(&pool->sizes, XA_FLAGS_ACCOUNT);
	INIT_LIST_HEAD(&pool->by_age);
	pool->fit_tree = RB_ROOT_CACHED;

	if (pool->ops->init)
		pool->ops->init(pool);
	return pool;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_create);

/**
 * vrampool_pool_destroy() - release a pool's pages and free it
 * @pool: a pool with no live allocation left, or whose live allocations
 *	  were dropped (vrampool_pool_drop())
 *
 * Return: the pages it released, each visited once.
 */
u64 vrampool_pool_destroy(struct vrampool_pool *pool)
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
	xa_destroy(&pool->sizes);
	kvfree(pool->vacant);
	kfree(pool);
	return released;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_destroy);

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
 * vrampool_pool_tree_add() - put a page into its pool's fit tree
 * @ppage: the page, its order and &vrampool_pool_page.fit set
 *
 * At its place in the type's order (&vrampool_pool_ops.free_before), in
 * O(log n).
 */
void vrampool_pool_tree_add(struct vrampool_pool_page *ppage)
{
	ppage->fit_max = ppage->fit;
	rb_add_augmented_cached(&ppage->fit_node, &ppage->pool->fit_tree, fit_tree_less,
				&fit_tree_augment);
}

/**
 * vrampool_pool_fit_set() - a page in the fit tree can now take another size
 * @ppage: a page in its pool's &vrampool_pool.fit_tree
 * @fit: the largest allocation it can take now
 *
 * Updates the largest fit of the subtrees above it, in O(log n).
 */
void vrampool_pool_fit_set(struct vrampool_pool_page *ppage, u64 fit)
{
	ppage->fit = fit;
	fit_tree_augment.propagate(&ppage->fit_node, NULL);
}

/**
 * vrampool_pool_first_fit() - the first page of the fit tree that can take a size
 * @pool: a pool
 * @size: the bytes the page must take
 *
 * The page a walk of &vrampool_pool.fit_tree from its first page would
 * stop at, found in O(log n): a subtree whose largest fit is too small is
 * skipped whole, and a left subtree with a page that fits holds the first.
 *
 * Return: the page, or NULL if no page of the tree can take @size bytes.
 */
struct vrampool_pool_page *vrampool_pool_first_fit(struct vrampool_pool *pool, u64 size)
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
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_first_fit);

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
 * @a: the allocation, its pool and size set, its effective size at most
 *     the page size (the padding is computed: vrampool_alloc_padding())
 *
 * The inverse of vrampool_pool_page_put_back().
 */
void vrampool_pool_page_take(struct vrampool_pool_page *ppage, struct vrampool_alloc *a)
{
	fit_tree_remove(ppage);
	ppage->alloc = a;
	ppage->live = 1;
	a->ppage = ppage;
	a->slice.offset = 0;
}

/**
 * vrampool_pool_page_put_back() - free the allocation of a single-allocation page
 * @a: the allocation
 *
 * Its page goes into the free tree, at its place in the type's reuse order,
 * and is marked free in &vrampool_pool.pages unless it still is.
 */
void vrampool_pool_page_put_back(struct vrampool_alloc *a)
{
	struct vrampool_pool_page *ppage = a->ppage;
	struct vrampool_pool *pool = ppage->pool;

	ppage->alloc = NULL;
	ppage->live = 0;
	ppage->fit = ppage->size;
	vrampool_pool_tree_add(ppage);
	if (!ppage->free_marked) {
		xa_set_mark(&pool->pages, ppage->index, VRAMPOOL_PAGE_FREE);
		ppage->free_marked = true;
	}
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
 * vrampool_pool_release_free_pages() - release every free single-allocation page
 * @pool: the pool
 *
 * In index order: a direct pool's slot order, the order its released slots
 * go on &vrampool_pool.vacant in.
 */
void vrampool_pool_release_free_pages(struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;

	xa_for_each_marked(&pool->pages, index, ppage, VRAMPOOL_PAGE_FREE) {
		if (!vrampool_pool_page_unmark_busy(ppage))
			vrampool_pool_page_release(ppage);
		cond_resched();
	}
}

static int buffer_size_cmp(const void *key, const struct rb_node *node)
{
	const struct vrampool_pool_page *ppage = rb_entry(node, struct vrampool_pool_page,
							  fit_node);
	u64 size = *(const u64 *)key;

	if (size != ppage->size)
		return size < ppage->size ? -1 : 1;
	return 0;
}

/**
 * vrampool_pool_buffer_find_free() - the free buffer of a size reused first
 * @pool: a direct or persistent pool
 * @size: the buffer size wanted, exactly
 *
 * Return: the free buffer of @size that comes first in the pool's order
 * (the oldest; in a direct pool the lowest slot), or NULL.
 */
struct vrampool_pool_page *vrampool_pool_buffer_find_free(struct vrampool_pool *pool, u64 size)
{
	struct rb_node *node = rb_find_first(&size, &pool->fit_tree.rb_root, buffer_size_cmp);

	return node ? rb_entry(node, struct vrampool_pool_page, fit_node) : NULL;
}

/**
 * vrampool_pool_buffer_free_before() - &vrampool_pool_ops.free_before of buffer pools
 * @a: a free buffer
 * @b: another free buffer of the same pool
 *
 * Free buffers are sorted by size, then by order: each size's buffers are
 * together, the one to reuse first leading.
 *
 * Return: whether @a comes before @b.
 */
bool vrampool_pool_buffer_free_before(const struct vrampool_pool_page *a,
				      const struct vrampool_pool_page *b)
{
	if (a->size != b->size)
		return a->size < b->size;
	return a->order < b->order;
}

/**
 * vrampool_pool_buffer_accepts() - &vrampool_pool_ops.accepts of buffer pools
 * @pool: a direct or persistent pool
 * @size: the requested size
 *
 * Return: true unless aligning @size passes U64_MAX: a buffer pool serves
 * any size it can align.
 */
bool vrampool_pool_buffer_accepts(const struct vrampool_pool *pool, u64 size)
{
	u64 eff;

	return vrampool_pool_effective_size(pool, size, &eff);
}

/**
 * vrampool_pool_buffer_alloc() - &vrampool_pool_ops.alloc of buffer pools
 * @pool: a direct or persistent pool
 * @size: the size; aligning it does not overflow
 * @a: the allocation
 * @full: unused: buffer pools are never capped
 *
 * Places @a in the free buffer of its aligned size that comes first in the
 * pool's order, else in a new buffer of that size.
 *
 * Return: 0 or a negative errno from vrampool_pool_page_new().
 */
int vrampool_pool_buffer_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			       bool *full)
{
	struct vrampool_pool_page *ppage;
	u64 eff;

	vrampool_pool_effective_size(pool, size, &eff);

	ppage = vrampool_pool_buffer_find_free(pool, eff);
	if (!ppage) {
		ppage = vrampool_pool_page_new(pool, eff);
		if (IS_ERR(ppage))
			return PTR_ERR(ppage);
	}

	vrampool_pool_page_take(ppage, a);
	return 0;
}

/**
 * vrampool_pool_buffer_cleanup() - &vrampool_pool_ops.cleanup of buffer pools
 * @pool: a direct or persistent pool
 * @explicit: an explicit cleanup; buffer pools have no periodic pass
 * @alloc_nr: unused
 *
 * An explicit cleanup releases every free buffer.
 */
void vrampool_pool_buffer_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	if (explicit)
		vrampool_pool_release_free_pages(pool);
}

/**
 * vrampool_alloc_padding() - the alignment padding after an allocation
 * @a: a placed allocation (its pool and size set)
 *
 * Part of its slice or page: in every pool type, its size rounded up to
 * the device alignment (accepted sizes never overflow it), less its size.
 *
 * Return: the padding in bytes, 0 for a zero-size allocation.
 */
u64 vrampool_alloc_padding(const struct vrampool_alloc *a)
{
	u64 eff = 0;

	vrampool_pool_effective_size(a->pool, a->size, &eff);
	return eff - a->size;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_alloc_padding);

/* @n allocations of @size bytes and @padding each, into the pool's stats. */
static void pool_account_add(struct vrampool_pool *pool, u64 size, u64 padding, u32 n)
{
	struct vrampool_pool_stats *st = &pool->stats;

	st->allocations += n;
	st->bytes_in_use += size * n;
	st->padding += padding * n;
	st->largest_alloc = max(st->largest_alloc, size);
}

static void pool_account(struct vrampool_pool *pool, struct vrampool_alloc *a, bool add)
{
	struct vrampool_pool_stats *st = &pool->stats;
	u64 padding = vrampool_alloc_padding(a);

	if (add) {
		pool_account_add(pool, a->size, padding, 1);
	} else {
		st->allocations--;
		st->bytes_in_use -= a->size;
		st->padding -= padding;
	}
}

/**
 * vrampool_pool_accepts() - whether a pool takes a size
 * @pool: the pool
 * @size: the requested size
 *
 * Return: true if @pool may serve @size (it may still be full).
 */
bool vrampool_pool_accepts(const struct vrampool_pool *pool, u64 size)
{
	return pool->ops->accepts(pool, size);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_accepts);

/**
 * vrampool_pool_alloc() - serve a size the pool accepts
 * @pool: the pool
 * @size: the size
 * @a: the allocation to place; zeroed but for its handle
 * @full: set to whether the pool refused because it is capped and full, so
 *	  that the caller may try the next pool; false on success and on
 *	  every other error
 *
 * A zero-size request, in every pool type, takes no page and touches
 * nothing of the type's (an exclusive pool's average stays): @a gets no
 * page (&vrampool_alloc.ppage NULL), no offset and no padding, and is only
 * counted. So it cannot fail, even in a capped pool that is full.
 *
 * Return: 0; -ENOSPC with *@full true when a capped pool is full; -ENOSPC
 * when the device has no room for a new page; -EDQUOT at the client's page
 * limit; -ENOMEM; -EINTR.
 */
int vrampool_pool_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			bool *full)
{
	int ret = 0;

	*full = false;
	a->pool = pool;
	a->size = size;
	if (size)
		ret = pool->ops->alloc(pool, size, a, full);
	if (!ret)
		pool_account(pool, a, true);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_alloc);

/**
 * vrampool_pool_alloc_run() - serve a size again and again, as the pool served it last
 * @prev: the allocation of @size the pool placed last, with nothing of its
 *	  client changed since
 * @size: the size, not 0
 * @a: the allocations to place, each zeroed but for its handle
 * @count: how many
 *
 * For a batch's run of equal requests: each of @a in turn where
 * vrampool_pool_alloc() would place it then, found without looking at any
 * page but @prev's, for the pool types that can tell
 * (&vrampool_pool_ops.alloc_run: sliced pools), and counted together.
 *
 * Return: how many of @a, from the first, are placed and counted; the
 * others are unchanged, and vrampool_pool_alloc() must serve the first of
 * them.
 */
u32 vrampool_pool_alloc_run(const struct vrampool_alloc *prev, u64 size,
			    struct vrampool_alloc *const *a, u32 count)
{
	struct vrampool_pool *pool = prev->pool;
	u32 i, n;

	if (!pool->ops->alloc_run || !prev->ppage || !size || !count)
		return 0;
	n = pool->ops->alloc_run(prev, size, a, count);
	for (i = 0; i < n; i++) {
		a[i]->pool = pool;
		a[i]->size = size;
	}
	if (n)
		pool_account_add(pool, size, vrampool_alloc_padding(a[0]), n);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_alloc_run);

/**
 * vrampool_pool_free() - return an allocation to its pool
 * @a: the allocation; a page-less (zero-size) one needs only its pool and
 *     size set
 */
void vrampool_pool_free(struct vrampool_alloc *a)
{
	pool_account(a->pool, a, false);
	if (a->ppage)
		a->pool->ops->free(a);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_free);

/**
 * vrampool_pool_free_run() - return allocations of one page to their pool
 * @a: the allocations, all in the same page
 * @count: how many, at least 1
 *
 * As vrampool_pool_free() of each, from the last to the first, for
 * FREE_BATCH; a pool type with &vrampool_pool_ops.free_run (sliced pools)
 * does the page's upkeep once for all of them.
 */
void vrampool_pool_free_run(struct vrampool_alloc *const *a, u32 count)
{
	struct vrampool_pool *pool = a[0]->pool;
	u32 i;

	if (!pool->ops->free_run) {
		for (i = count; i-- > 0;)
			vrampool_pool_free(a[i]);
		return;
	}
	for (i = count; i-- > 0;)
		pool_account(pool, a[i], false);
	pool->ops->free_run(a, count);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_free_run);

/**
 * vrampool_pool_free_vram() - VRAM of the pool's pages that hold no allocation
 * @pool: the pool, its client locked
 *
 * What an explicit cleanup would give back now: wholly free sliced pages,
 * free exclusive pages, free direct and persistent buffers.
 *
 * Return: bytes of VRAM those pages hold.
 */
u64 vrampool_pool_free_vram(const struct vrampool_pool *pool)
{
	const struct vrampool_pool_page *ppage;
	u64 vram = 0;

	list_for_each_entry(ppage, &pool->by_age, age_link) {
		if (!ppage->live)
			vram += ppage->vram;
	}
	return vram;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_free_vram);

/**
 * vrampool_pool_drop() - forget a live allocation of a pool about to be destroyed
 * @a: the allocation, which the caller then frees
 *
 * Keeps no accounting and no free-page order, for postclose (DOC: teardown):
 * only what vrampool_pool_destroy() needs undone, a slice in its page, is.
 */
void vrampool_pool_drop(struct vrampool_alloc *a)
{
	if (a->pool->ops->drop)
		a->pool->ops->drop(a);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_drop);

/**
 * vrampool_pool_cleanup() - give free pages back to the device
 * @pool: the pool
 * @explicit: an explicit cleanup (every free page goes), else the periodic
 *	      pass of exclusive pools, gated by their dealloc period
 * @alloc_nr: the client's allocation count
 */
void vrampool_pool_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	pool->ops->cleanup(pool, explicit, alloc_nr);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_cleanup);

/**
 * vrampool_pool_periodic_due() - when a pool's periodic pass may next have work
 * @pool: the pool
 *
 * Return: the client's allocation count at or before which the periodic
 * pass (vrampool_pool_cleanup() not explicit) may next do anything;
 * U64_MAX if it never will.
 */
u64 vrampool_pool_periodic_due(const struct vrampool_pool *pool)
{
	return pool->ops->periodic_due ? pool->ops->periodic_due(pool) : U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_periodic_due);

/**
 * vrampool_pool_capacity() - bytes a capped pool may hold
 * @pool: the pool
 *
 * Return: for a capped sliced pool, its pages at most times its page size;
 * 0 for a pool that is never capped.
 */
u64 vrampool_pool_capacity(const struct vrampool_pool *pool)
{
	return pool->ops->capacity ? pool->ops->capacity(pool) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_capacity);

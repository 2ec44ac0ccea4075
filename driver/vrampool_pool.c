// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: what every pool type shares: creation, pages, accounting, and
 * the dispatch to the sliced, exclusive and buffer (direct and persistent)
 * pools.
 *
 * Pools belong to one client and are protected by its lock; they take no
 * lock of their own and no device-wide lock, except TTM's when a page is
 * created or released.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "vrampool_pool.h"

/* The running average of exclusive pools saturates at 2^47 bytes. */
#define AVG_FRAC_BITS	16
#define AVG_MAX_INPUT	BIT_ULL(47)

/**
 * vrampool_align() - round a size up to the device alignment
 * @size: the size
 * @alignment: a power of two
 * @out: the rounded size
 *
 * Return: false if rounding passes 2^64 - 1.
 */
bool vrampool_align(u64 size, u64 alignment, u64 *out)
{
	u64 sum;

	if (check_add_overflow(size, alignment - 1, &sum))
		return false;
	*out = sum & ~(alignment - 1);
	return true;
}

/**
 * vrampool_pool_create() - a pool with no pages
 * @config: the resolved pool
 * @index: its position in the layout, or DRM_VRAMPOOL_PERSISTENT_POOL
 * @alignment: the device alignment, a power of two
 * @backing: where its pages get memory
 *
 * Return: the pool, or NULL without memory.
 */
struct vrampool_pool *vrampool_pool_create(const struct drm_vrampool_pool_entry *config,
					   u32 index, u64 alignment,
					   const struct vrampool_backing *backing)
{
	struct vrampool_pool *pool;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;

	pool->config = *config;
	pool->index = index;
	pool->alignment = alignment;
	pool->backing = backing;
	xa_init_flags(&pool->pages, XA_FLAGS_ALLOC);
	xa_init(&pool->sizes);
	INIT_LIST_HEAD(&pool->free_pages);

	if (config->type == DRM_VRAMPOOL_POOL_SLICED &&
	    (config->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE))
		pool->max_pages = config->max_pool_size / config->page_size;
	if (config->type == DRM_VRAMPOOL_POOL_EXCLUSIVE)
		pool->avg = min(config->max_alloc_size / 2, AVG_MAX_INPUT) << AVG_FRAC_BITS;
	return pool;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_create);

/**
 * vrampool_pool_destroy() - release a pool's pages and free it
 * @pool: a pool with no live allocation left
 */
void vrampool_pool_destroy(struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;

	xa_for_each(&pool->pages, index, ppage)
		vrampool_page_release(ppage);
	xa_destroy(&pool->pages);
	xa_destroy(&pool->sizes);
	kfree(pool);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_destroy);

static int sizes_add(struct vrampool_pool *pool, u64 size, long delta)
{
	unsigned long count = xa_to_value(xa_load(&pool->sizes, size) ?: xa_mk_value(0));

	count += delta;
	if (!count) {
		xa_erase(&pool->sizes, size);
		return 0;
	}
	return xa_err(xa_store(&pool->sizes, size, xa_mk_value(count), GFP_KERNEL));
}

/**
 * vrampool_page_new() - a new, backed page for a pool
 * @pool: the pool
 * @size: its size in bytes
 *
 * Return: the page, or an ERR_PTR(): -ENOSPC when the device is full,
 * -ENOMEM, -EINTR.
 */
struct vrampool_pool_page *vrampool_page_new(struct vrampool_pool *pool, u64 size)
{
	struct vrampool_pool_stats *st = &pool->stats;
	struct vrampool_pool_page *ppage;
	int ret;

	ppage = kzalloc(sizeof(*ppage), GFP_KERNEL);
	if (!ppage)
		return ERR_PTR(-ENOMEM);

	ppage->pool = pool;
	ppage->size = size;
	INIT_LIST_HEAD(&ppage->free_link);

	ret = xa_alloc(&pool->pages, &ppage->index, ppage, xa_limit_32b, GFP_KERNEL);
	if (ret)
		goto err_free;

	if (pool->config.type == DRM_VRAMPOOL_POOL_PERSISTENT) {
		ret = sizes_add(pool, size, 1);
		if (ret)
			goto err_erase;
	}

	ret = pool->backing->back(pool->backing, ppage);
	if (ret)
		goto err_sizes;

	if (pool->config.type == DRM_VRAMPOOL_POOL_SLICED)
		drm_mm_init(&ppage->mm, 0, size);

	st->pages++;
	st->pages_peak = max(st->pages_peak, st->pages);
	st->reserved += size;
	st->vram += ppage->vram;
	return ppage;

err_sizes:
	if (pool->config.type == DRM_VRAMPOOL_POOL_PERSISTENT)
		sizes_add(pool, size, -1);
err_erase:
	xa_erase(&pool->pages, ppage->index);
err_free:
	kfree(ppage);
	return ERR_PTR(ret);
}

/**
 * vrampool_page_release() - give a page with no live allocation back
 * @ppage: the page
 */
void vrampool_page_release(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool *pool = ppage->pool;
	struct vrampool_pool_stats *st = &pool->stats;

	xa_erase(&pool->pages, ppage->index);
	list_del(&ppage->free_link);
	if (pool->config.type == DRM_VRAMPOOL_POOL_PERSISTENT)
		sizes_add(pool, ppage->size, -1);
	if (pool->config.type == DRM_VRAMPOOL_POOL_SLICED)
		drm_mm_takedown(&ppage->mm);

	st->pages--;
	st->reserved -= ppage->size;
	st->vram -= ppage->vram;

	pool->backing->release(pool->backing, ppage);
	kfree(ppage);
}

/**
 * vrampool_free_page_put() - mark a single-allocation page free
 * @ppage: the page, whose allocation is gone
 *
 * Free pages stay in index order, the order reuse and reclaim walk them.
 */
void vrampool_free_page_put(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool_page *pos;

	ppage->alloc = NULL;
	ppage->live = 0;
	list_for_each_entry(pos, &ppage->pool->free_pages, free_link) {
		if (pos->index > ppage->index) {
			list_add_tail(&ppage->free_link, &pos->free_link);
			return;
		}
	}
	list_add_tail(&ppage->free_link, &ppage->pool->free_pages);
}

/**
 * vrampool_pool_account() - count an allocation in or out of a pool
 * @pool: the pool
 * @a: the allocation
 * @add: true when it is made, false when it is freed
 */
void vrampool_pool_account(struct vrampool_pool *pool, struct vrampool_alloc *a, bool add)
{
	struct vrampool_pool_stats *st = &pool->stats;

	if (add) {
		st->allocations++;
		st->bytes_in_use += a->size;
		st->padding += a->padding;
		st->largest_alloc = max(st->largest_alloc, a->size);
	} else {
		st->allocations--;
		st->bytes_in_use -= a->size;
		st->padding -= a->padding;
	}
}

static bool sliced_accepts(const struct vrampool_pool *pool, u64 size)
{
	u64 ppage = pool->config.page_size;

	if (size <= min(pool->config.max_slice_size, ppage))
		return true;
	/* Uncapped pools give a whole page to a request above 80% of one. */
	return !pool->max_pages && size <= ppage && (u128)(ppage - size) * 5 < ppage;
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
	u64 eff;

	switch (pool->config.type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		return sliced_accepts(pool, size);
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return size <= pool->config.max_alloc_size;
	default:
		return vrampool_align(size, pool->alignment, &eff);
	}
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
 * Return: 0; -ENOSPC with *@full true when a capped pool is full; -ENOSPC
 * when the device has no room for a new page; -ENOMEM; -EINTR.
 */
int vrampool_pool_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			bool *full)
{
	int ret;

	*full = false;
	a->pool = pool;
	a->size = size;
	switch (pool->config.type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		ret = vrampool_sliced_alloc(pool, size, a, full);
		break;
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		ret = vrampool_exclusive_alloc(pool, size, a);
		break;
	default:
		ret = vrampool_buffers_alloc(pool, size, a);
	}
	if (!ret)
		vrampool_pool_account(pool, a, true);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_alloc);

/**
 * vrampool_pool_free() - return an allocation to its pool
 * @a: the allocation
 */
void vrampool_pool_free(struct vrampool_alloc *a)
{
	vrampool_pool_account(a->pool, a, false);
	if (a->pool->config.type == DRM_VRAMPOOL_POOL_SLICED)
		vrampool_sliced_free(a);
	else
		vrampool_single_free(a);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_free);

/**
 * vrampool_pool_cleanup() - give free pages back to the device
 * @pool: the pool
 * @explicit: an explicit cleanup (every free page goes), else the periodic
 *	      pass of exclusive pools, gated by their dealloc period
 * @alloc_nr: the client's allocation count
 */
void vrampool_pool_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	switch (pool->config.type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		if (explicit)
			vrampool_sliced_cleanup(pool);
		break;
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		vrampool_exclusive_cleanup(pool, explicit, alloc_nr);
		break;
	default:
		if (explicit)
			vrampool_buffers_cleanup(pool);
	}
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_cleanup);

/**
 * vrampool_pool_has_size() - whether a buffer pool has a buffer of a size
 * @pool: the persistent pool
 * @size: the requested size, before alignment
 *
 * Return: true if a buffer (free or not) of the aligned size exists.
 */
bool vrampool_pool_has_size(struct vrampool_pool *pool, u64 size)
{
	u64 eff;

	return vrampool_align(size, pool->alignment, &eff) && xa_load(&pool->sizes, eff);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_has_size);

/**
 * vrampool_pool_capacity() - bytes a capped pool may hold
 * @pool: a capped sliced pool
 *
 * Return: its pages at most, times its page size.
 */
u64 vrampool_pool_capacity(const struct vrampool_pool *pool)
{
	return (u64)pool->max_pages * pool->config.page_size;
}

/* Exclusive pools: the running average moves 1% toward each request. */
static void exclusive_average(struct vrampool_pool *pool, u64 size)
{
	u64 s = min(size, AVG_MAX_INPUT) << AVG_FRAC_BITS;

	if (s >= pool->avg)
		pool->avg += (s - pool->avg) / 100;
	else
		pool->avg -= (pool->avg - s) / 100;
}

/**
 * vrampool_exclusive_alloc() - serve a size from an exclusive pool
 * @pool: the pool
 * @size: the size, at most its max_alloc_size
 * @a: the allocation
 *
 * Reuses the free page that fits with the fewest idle checks (the lowest
 * index on a tie); else makes a page of max(running average, size).
 *
 * Return: 0 or a negative errno from vrampool_page_new().
 */
int vrampool_exclusive_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a)
{
	struct vrampool_pool_page *ppage, *best = NULL;
	u64 eff, page_size;

	exclusive_average(pool, size);
	vrampool_align(size, pool->alignment, &eff);

	list_for_each_entry(ppage, &pool->free_pages, free_link) {
		if (ppage->size >= size && (!best || ppage->free_count < best->free_count))
			best = ppage;
	}

	if (best) {
		list_del_init(&best->free_link);
		if (best->free_count)
			best->free_count--;
		ppage = best;
	} else {
		/* Both are at most max_alloc_size, which is aligned. */
		vrampool_align(max(pool->avg >> AVG_FRAC_BITS, size), pool->alignment, &page_size);
		ppage = vrampool_page_new(pool, page_size);
		if (IS_ERR(ppage))
			return PTR_ERR(ppage);
		ppage->free_count = 4;
	}

	ppage->alloc = a;
	ppage->live = 1;
	a->ppage = ppage;
	a->offset = 0;
	a->padding = eff - size;
	return 0;
}

/**
 * vrampool_exclusive_cleanup() - release idle pages of an exclusive pool
 * @pool: the pool
 * @explicit: release every free page now
 * @alloc_nr: the client's allocation count
 *
 * Every dealloc_period / 5 allocations, each free page is seen idle once
 * more; a page seen idle five times is released.
 */
void vrampool_exclusive_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
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
			vrampool_page_release(ppage);
	}
}

/**
 * vrampool_single_free() - free the allocation of a single-allocation page
 * @a: the allocation
 */
void vrampool_single_free(struct vrampool_alloc *a)
{
	vrampool_free_page_put(a->ppage);
}

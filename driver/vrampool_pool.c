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

#include <linux/slab.h>
#include <kunit/visibility.h>

#include "vrampool_pool_internal.h"

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

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;

	pool->config = *config;
	pool->ops = pool_types[config->type];
	pool->index = index;
	pool->alignment = alignment;
	pool->backing = backing;
	xa_init_flags(&pool->pages, XA_FLAGS_ALLOC);
	xa_init(&pool->sizes);
	INIT_LIST_HEAD(&pool->free_pages);

	if (pool->ops->init)
		pool->ops->init(pool);
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
		vrampool_pool_page_release(ppage);
	xa_destroy(&pool->pages);
	xa_destroy(&pool->sizes);
	kfree(pool);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_destroy);

/**
 * vrampool_pool_page_new() - make a new, backed page for a pool
 * @pool: the pool
 * @size: its size in bytes
 *
 * Return: the page, or an ERR_PTR(): -ENOSPC when the device is full,
 * -ENOMEM, -EINTR.
 */
struct vrampool_pool_page *vrampool_pool_page_new(struct vrampool_pool *pool, u64 size)
{
	const struct vrampool_pool_ops *ops = pool->ops;
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

	if (ops->page_init) {
		ret = ops->page_init(ppage);
		if (ret)
			goto err_erase;
	}

	ret = pool->backing->back(pool->backing, ppage);
	if (ret)
		goto err_page_fini;

	st->pages++;
	st->pages_peak = max(st->pages_peak, st->pages);
	st->reserved += size;
	st->vram += ppage->vram;
	return ppage;

err_page_fini:
	if (ops->page_fini)
		ops->page_fini(ppage);
err_erase:
	xa_erase(&pool->pages, ppage->index);
err_free:
	kfree(ppage);
	return ERR_PTR(ret);
}

/**
 * vrampool_pool_page_release() - give a page with no live allocation back
 * @ppage: the page
 */
void vrampool_pool_page_release(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool *pool = ppage->pool;
	struct vrampool_pool_stats *st = &pool->stats;

	xa_erase(&pool->pages, ppage->index);
	list_del(&ppage->free_link);
	if (pool->ops->page_fini)
		pool->ops->page_fini(ppage);

	st->pages--;
	st->reserved -= ppage->size;
	st->vram -= ppage->vram;

	pool->backing->release(pool->backing, ppage);
	kfree(ppage);
}

/**
 * vrampool_pool_page_take() - give a single-allocation page to an allocation
 * @ppage: a free page from &vrampool_pool.free_pages, or a new page
 * @a: the allocation, its size set
 * @eff: its effective size, at most the page size
 *
 * The inverse of vrampool_pool_page_put_back().
 */
void vrampool_pool_page_take(struct vrampool_pool_page *ppage, struct vrampool_alloc *a,
			     u64 eff)
{
	list_del_init(&ppage->free_link);
	ppage->alloc = a;
	ppage->live = 1;
	a->ppage = ppage;
	a->offset = 0;
	a->padding = eff - a->size;
}

/**
 * vrampool_pool_page_put_back() - free the allocation of a single-allocation page
 * @a: the allocation
 *
 * Its page goes back on the free list, which stays in index order: the order
 * reuse and reclaim walk it.
 */
void vrampool_pool_page_put_back(struct vrampool_alloc *a)
{
	struct vrampool_pool_page *ppage = a->ppage, *pos;
	struct list_head *free_pages = &ppage->pool->free_pages;

	ppage->alloc = NULL;
	ppage->live = 0;
	list_for_each_entry(pos, free_pages, free_link) {
		if (pos->index > ppage->index) {
			list_add_tail(&ppage->free_link, &pos->free_link);
			return;
		}
	}
	list_add_tail(&ppage->free_link, free_pages);
}

/**
 * vrampool_pool_page_find_free() - the first free single-allocation page of a size
 * @pool: the pool
 * @size: the page size wanted, exactly
 *
 * Return: the free page of @size with the lowest index, or NULL.
 */
struct vrampool_pool_page *vrampool_pool_page_find_free(struct vrampool_pool *pool, u64 size)
{
	struct vrampool_pool_page *ppage;

	list_for_each_entry(ppage, &pool->free_pages, free_link) {
		if (ppage->size == size)
			return ppage;
	}
	return NULL;
}

/**
 * vrampool_pool_release_free_pages() - release every free single-allocation page
 * @pool: the pool
 */
void vrampool_pool_release_free_pages(struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage, *next;

	list_for_each_entry_safe(ppage, next, &pool->free_pages, free_link)
		vrampool_pool_page_release(ppage);
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
 * Places @a in the free buffer of its aligned size with the lowest index,
 * else in a new buffer of that size.
 *
 * Return: 0 or a negative errno from vrampool_pool_page_new().
 */
int vrampool_pool_buffer_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			       bool *full)
{
	struct vrampool_pool_page *ppage;
	u64 eff;

	vrampool_pool_effective_size(pool, size, &eff);

	ppage = vrampool_pool_page_find_free(pool, eff);
	if (!ppage) {
		ppage = vrampool_pool_page_new(pool, eff);
		if (IS_ERR(ppage))
			return PTR_ERR(ppage);
	}

	vrampool_pool_page_take(ppage, a, eff);
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

static void pool_account(struct vrampool_pool *pool, struct vrampool_alloc *a, bool add)
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
	ret = pool->ops->alloc(pool, size, a, full);
	if (!ret)
		pool_account(pool, a, true);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_alloc);

/**
 * vrampool_pool_free() - return an allocation to its pool
 * @a: the allocation
 */
void vrampool_pool_free(struct vrampool_alloc *a)
{
	pool_account(a->pool, a, false);
	a->pool->ops->free(a);
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
	pool->ops->cleanup(pool, explicit, alloc_nr);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_cleanup);

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

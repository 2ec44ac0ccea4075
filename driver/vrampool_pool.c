// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: pools of any type, as the rest of the driver sees them:
 * creation and destruction, the accounting of allocations, and the
 * dispatch to the type's &struct vrampool_pool_ops
 * (vrampool_pool_<type>.c). The types build on the pool pages
 * (vrampool_pool_page.c) and, for direct and persistent pools, the buffer
 * pools' common code (vrampool_pool_buffer.c).
 *
 * Pools belong to one client and are protected by its lock; they take no
 * lock of their own and no device-wide lock, except TTM's when a page is
 * created or released.
 *
 * Copyright (C) 2026 The vrampool authors
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

/**
 * DOC: allocation records
 *
 * A live allocation's record (&struct vrampool_alloc) is 48 bytes, most of
 * the kernel memory it costs: a client may hold millions. It keeps its page
 * and either its slice, in a sliced pool, or its size and pool, in a page of
 * its own. The pool of a slice is its page's; its size is its slice's
 * length (DOC: slice units) less its alignment padding, which the slice
 * keeps in 32 bits (the device alignment is at most 2^32 bytes). The
 * padding of an allocation with a page of its own is computed from its
 * size. A zero-size allocation has no page and keeps no record (DOC: handle
 * entries): a record of it on the stack names its pool.
 */

#include <linux/build_bug.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "vrampool_pool.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

static_assert(sizeof(struct vrampool_alloc) <= 48);

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
	const struct vrampool_pool_ops *ops;
	struct vrampool_pool *pool;

	if (WARN_ON(config->type >= ARRAY_SIZE(pool_types) || !pool_types[config->type]))
		return NULL;

	ops = pool_types[config->type];
	pool = kzalloc(ops->size, GFP_KERNEL_ACCOUNT);
	if (!pool)
		return NULL;

	pool->config = *config;
	pool->ops = ops;
	pool->index = index;
	pool->alignment = alignment;
	pool->backing = backing;
	xa_init_flags(&pool->pages, XA_FLAGS_ALLOC | XA_FLAGS_ACCOUNT);
	INIT_LIST_HEAD(&pool->by_age);
	pool->fit_tree = RB_ROOT_CACHED;

	if (ops->init)
		ops->init(pool);
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
	u64 released = vrampool_pool_page_release_all(pool);

	if (pool->ops->fini)
		pool->ops->fini(pool);
	kfree(pool);
	return released;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_destroy);

/* The padding after @size bytes: rounded up to the alignment, less @size. */
static u64 size_padding(const struct vrampool_pool *pool, u64 size)
{
	u64 eff = 0;

	/* Accepted sizes never overflow it. */
	vrampool_pool_effective_size(pool, size, &eff);
	return eff - size;
}

/**
 * vrampool_pool_padding() - the alignment padding after an allocation
 * @a: a placed allocation
 *
 * Part of its slice or page: in every pool type, its size rounded up to
 * the device alignment, less its size (DOC: allocation records).
 *
 * Return: the padding in bytes, 0 for a zero-size allocation.
 */
u64 vrampool_pool_padding(const struct vrampool_alloc *a)
{
	if (vrampool_alloc_in_slice(a))
		return a->slice.pad;
	return size_padding(vrampool_alloc_pool(a), a->whole.size);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_padding);

/**
 * vrampool_pool_alloc_size() - the size an allocation was requested with
 * @a: a placed allocation
 *
 * A slice's length (DOC: allocation records): in O(1) for the slice placed
 * last in its page, else in O(log n).
 *
 * Return: the size in bytes.
 */
u64 vrampool_pool_alloc_size(struct vrampool_alloc *a)
{
	if (vrampool_alloc_in_slice(a))
		return vrampool_slices_len(&a->ppage->slices, &a->slice) - a->slice.pad;
	return a->whole.size;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_alloc_size);

/*
 * Keeps what the record of @a, just placed, needs of @size: its padding in
 * its slice, else its size and pool (DOC: allocation records).
 */
static void alloc_keep(struct vrampool_pool *pool, struct vrampool_alloc *a, u64 size,
		       u64 padding)
{
	if (vrampool_alloc_in_slice(a)) {
		a->slice.pad = padding;
	} else {
		a->whole.size = size;
		a->whole.pool = pool;
	}
}

/* @n allocations of @size bytes and @padding each, into the pool's stats. */
static void pool_account_add(struct vrampool_pool *pool, u64 size, u64 padding, u32 n)
{
	struct vrampool_pool_stats *st = &pool->stats;

	st->allocations += n;
	st->bytes_in_use += size * n;
	st->padding += padding * n;
	st->largest_alloc = max(st->largest_alloc, size);
}

/**
 * vrampool_pool_account_sub() - take freed allocations out of their pool's stats
 * @pool: their pool
 * @size: the sizes they were requested with, together
 * @padding: their padding, together
 * @n: how many
 */
void vrampool_pool_account_sub(struct vrampool_pool *pool, u64 size, u64 padding, u32 n)
{
	struct vrampool_pool_stats *st = &pool->stats;

	st->allocations -= n;
	st->bytes_in_use -= size;
	st->padding -= padding;
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
	u64 padding = size_padding(pool, size);
	int ret;

	*full = false;
	if (size) {
		ret = pool->ops->alloc(pool, size, a, full);
		if (ret)
			return ret;
	}
	alloc_keep(pool, a, size, padding);
	pool_account_add(pool, size, padding, 1);
	return 0;
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
	struct vrampool_pool *pool = vrampool_alloc_pool(prev);
	u64 padding;
	u32 i, n;

	if (!pool->ops->alloc_run || !prev->ppage || !size || !count)
		return 0;
	n = pool->ops->alloc_run(prev, size, a, count);
	if (!n)
		return 0;
	padding = size_padding(pool, size);
	for (i = 0; i < n; i++)
		alloc_keep(pool, a[i], size, padding);
	pool_account_add(pool, size, padding, n);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_alloc_run);

/**
 * vrampool_pool_free() - return an allocation to its pool
 * @a: the allocation; a page-less (zero-size) one needs only
 *     &vrampool_alloc.whole set
 */
void vrampool_pool_free(struct vrampool_alloc *a)
{
	struct vrampool_pool *pool = vrampool_alloc_pool(a);
	u64 padding = 0, size = 0;

	if (a->ppage) {
		padding = vrampool_pool_padding(a);
		size = pool->ops->free(a);
	}
	vrampool_pool_account_sub(pool, size, padding, 1);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_free);

/**
 * vrampool_pool_free_run() - return allocations of one page to their pool
 * @a: the allocations, all in the same page
 * @count: how many, at least 1
 *
 * As vrampool_pool_free() of each, from the last to the first, for
 * FREE_BATCH; a pool type with &vrampool_pool_ops.free_run (sliced pools)
 * does the page's upkeep once for all of them, and their accounting.
 */
void vrampool_pool_free_run(struct vrampool_alloc *const *a, u32 count)
{
	struct vrampool_pool *pool = vrampool_alloc_pool(a[0]);
	u32 i;

	if (!pool->ops->free_run) {
		for (i = count; i-- > 0;)
			vrampool_pool_free(a[i]);
		return;
	}
	pool->ops->free_run(pool, a, count);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_free_run);

/**
 * vrampool_pool_trim() - give back free pages until a goal is met
 * @pool: the pool, its client locked
 * @trim: the goal, asked before each page is released
 *
 * Releases what an explicit cleanup would, page by page, the lowest index
 * first (a sliced pool's: the oldest first), and stops as soon as
 * &vrampool_trim.done says enough; leaves the periodic pass's clock and idle
 * counts alone.
 */
void vrampool_pool_trim(struct vrampool_pool *pool, struct vrampool_trim *trim)
{
	pool->ops->trim(pool, trim);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_trim);

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
	return pool->stats.free_vram;
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
	struct vrampool_pool *pool = vrampool_alloc_pool(a);

	if (pool->ops->drop)
		pool->ops->drop(a);
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

/**
 * vrampool_pool_has_size() - whether the persistent pool has a bucket for a size
 * @pool: the persistent pool
 * @size: the requested size, before alignment
 *
 * Return: true if a buffer (free or not) of the aligned size exists.
 */
bool vrampool_pool_has_size(struct vrampool_pool *pool, u64 size)
{
	return pool->ops->has_size && pool->ops->has_size(pool, size);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_has_size);

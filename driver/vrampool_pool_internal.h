/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the pool files share, for vrampool_pool*.c only: the operations each
 * type implements, and the device alignment's arithmetic. The page helpers
 * the types build them from are in vrampool_pool_page.h, the buffer pools'
 * in vrampool_pool_buffer.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_POOL_INTERNAL_H_
#define _VRAMPOOL_POOL_INTERNAL_H_

#include <linux/build_bug.h>
#include <linux/math.h>
#include <linux/stddef.h>
#include <linux/overflow.h>

#include "vrampool_pool_types.h"

/**
 * struct vrampool_pool_ops - what makes one pool type
 *
 * vrampool_pool.c and vrampool_pool_page.c call these for every pool of
 * the type; the optional ones may be NULL. All run under the owning
 * client's lock.
 */
struct vrampool_pool_ops {
	/**
	 * @size: bytes of the type's pool struct, which embeds its &struct
	 * vrampool_pool first (VRAMPOOL_POOL_SIZE()): what
	 * vrampool_pool_create() allocates, zeroed
	 */
	size_t size;
	/**
	 * @init: optional: set up the type's fields of a new pool, whose
	 * config, index, alignment and backing are set
	 */
	void (*init)(struct vrampool_pool *pool);
	/**
	 * @fini: optional: free what the type's fields hold, before
	 * vrampool_pool_destroy() frees the pool; its pages are released
	 */
	void (*fini)(struct vrampool_pool *pool);
	/** @accepts: whether the pool may serve @size (it may still be full) */
	bool (*accepts)(const struct vrampool_pool *pool, u64 size);
	/**
	 * @alloc: place @a (its pool and size set) for an accepted @size:
	 * 0, or a negative errno; set *@full (false on entry) when a capped
	 * pool is full
	 */
	int (*alloc)(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
		     bool *full);
	/**
	 * @alloc_run: optional: place each of the @count records @a in
	 * turn where @alloc would place it then, in @prev's page, @prev
	 * being the allocation of the same @size the pool placed last, with
	 * nothing of the client changed since; stop at the first it cannot
	 * tell, and return how many it placed (vrampool_pool_alloc_run())
	 */
	u32 (*alloc_run)(const struct vrampool_alloc *prev, u64 size,
			 struct vrampool_alloc *const *a, u32 count);
	/**
	 * @free: take @a out of its page; return the size it was requested
	 * with (DOC: allocation records); the caller undoes its accounting
	 */
	u64 (*free)(struct vrampool_alloc *a);
	/**
	 * @free_run: optional: @free of each of the @count allocations @a of
	 * @pool, all in one page, from the last to the first, and their
	 * accounting undone (vrampool_pool_account_sub(); vrampool_pool_free_run())
	 */
	void (*free_run)(struct vrampool_pool *pool, struct vrampool_alloc *const *a, u32 count);
	/**
	 * @drop: optional: undo what of @a the pool's destruction cannot,
	 * for a pool about to be destroyed with @a live (vrampool_pool_drop())
	 */
	void (*drop)(struct vrampool_alloc *a);
	/**
	 * @cleanup: give free pages back: all of them when @explicit, else
	 * the periodic pass at the client's allocation count @alloc_nr
	 */
	void (*cleanup)(struct vrampool_pool *pool, bool explicit, u64 alloc_nr);
	/**
	 * @trim: release free pages, single-allocation ones in index order,
	 * sliced ones oldest first, until &vrampool_trim.done says enough
	 * (vrampool_pool_trim())
	 */
	void (*trim)(struct vrampool_pool *pool, struct vrampool_trim *trim);
	/**
	 * @periodic_due: optional: the client's allocation count at which
	 * the periodic pass (@cleanup, not explicit) may next have work, at
	 * or before when it has; NULL: never
	 */
	u64 (*periodic_due)(const struct vrampool_pool *pool);
	/** @capacity: optional: bytes a capped pool may hold; NULL: never capped */
	u64 (*capacity)(const struct vrampool_pool *pool);
	/**
	 * @page_init: optional: set up the type's part of a new page, its
	 * size set, before it is backed: 0 or -ENOMEM
	 */
	int (*page_init)(struct vrampool_pool_page *ppage);
	/**
	 * @page_fini: optional: undo @page_init, when the page is released
	 * or its backing failed
	 */
	void (*page_fini)(struct vrampool_pool_page *ppage);
	/**
	 * @index_take: optional: give a new, backed page its index and order
	 * and store it in &vrampool_pool.pages: 0, or a negative errno with
	 * nothing changed. NULL: the next index (vrampool_pool_page.c's rule) and
	 * creation order.
	 */
	int (*index_take)(struct vrampool_pool_page *ppage);
	/**
	 * @index_put: optional: the index of a page being released, already
	 * erased from &vrampool_pool.pages, is free again
	 */
	void (*index_put)(struct vrampool_pool_page *ppage);
	/**
	 * @free_before: whether page @a of &vrampool_pool.fit_tree comes before
	 * page @b, in the order the type reuses (single-allocation types) or
	 * visits (sliced) its pages
	 */
	bool (*free_before)(const struct vrampool_pool_page *a, const struct vrampool_pool_page *b);
	/**
	 * @has_size: optional: whether the pool holds a buffer, free or not,
	 * of @size aligned (vrampool_pool_has_size()); NULL: never
	 */
	bool (*has_size)(struct vrampool_pool *pool, u64 size);
};

/**
 * VRAMPOOL_POOL_SIZE() - &vrampool_pool_ops.size of a pool type
 * @type: the type's pool struct, whose first member is its &struct
 *	  vrampool_pool, named base, which container_of() reaches it from
 *
 * The embedded pool comes first, so that vrampool_pool_destroy() frees
 * the whole struct through it; a build fails if it does not.
 */
#define VRAMPOOL_POOL_SIZE(type) \
	(sizeof(type) + BUILD_BUG_ON_ZERO(offsetof(type, base) != 0))

extern const struct vrampool_pool_ops vrampool_pool_sliced_ops;
extern const struct vrampool_pool_ops vrampool_pool_exclusive_ops;
extern const struct vrampool_pool_ops vrampool_pool_direct_ops;
extern const struct vrampool_pool_ops vrampool_pool_persistent_ops;

/* For the KUnit tests: an exclusive pool's running average. */
u64 vrampool_pool_exclusive_average(const struct vrampool_pool *pool);
void vrampool_pool_account_sub(struct vrampool_pool *pool, u64 size, u64 padding, u32 n);

/**
 * vrampool_pool_effective_size() - a size rounded up to the device alignment
 * @pool: the pool, whose alignment is a power of two
 * @size: the requested size
 * @eff: the rounded size: @size plus its padding
 *
 * Return: false, and @eff untouched, if rounding passes U64_MAX.
 */
static inline bool vrampool_pool_effective_size(const struct vrampool_pool *pool, u64 size,
						u64 *eff)
{
	u64 last;

	if (check_add_overflow(size, pool->alignment - 1, &last))
		return false;
	*eff = round_down(last, pool->alignment);
	return true;
}

#endif /* _VRAMPOOL_POOL_INTERNAL_H_ */

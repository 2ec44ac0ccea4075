// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: direct pools.
 *
 * One buffer (page) of the aligned size per allocation. Buffers sit in
 * slots, numbered as CubeCL numbers them: a new buffer takes the slot
 * released last, else a new slot after every other; the slot is the page
 * index. A free buffer is reused only by a request of the very same aligned
 * size, the lowest slot first. A direct pool with reclaim_at releases free
 * buffers, in slot order, before it grows past that watermark (the
 * allocation goes ahead even if it still ends above it). An explicit
 * cleanup releases every free buffer, in slot order too.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/container_of.h>
#include <linux/slab.h>

#include "vrampool_pool_buffer.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

/* The first room of the vacant stack, in slots. */
#define VACANT_MIN_SIZE		16u

/**
 * struct vrampool_pool_direct - a direct pool
 *
 * Its slots made so far, the next new slot, are &vrampool_pool.next_index.
 */
struct vrampool_pool_direct {
	/** @base: the pool */
	struct vrampool_pool base;
	/**
	 * @vacant: the slots of released buffers, the most recently released
	 * last; a new buffer takes the last one
	 */
	u32 *vacant;
	/** @vacant_count: slots in @vacant */
	u32 vacant_count;
	/** @vacant_size: room in @vacant, at least &vrampool_pool.next_index */
	u32 vacant_size;
};

#define to_direct(pool)	container_of_const(pool, struct vrampool_pool_direct, base)

static void direct_fini(struct vrampool_pool *pool)
{
	kvfree(to_direct(pool)->vacant);
}

/*
 * Room on the vacant stack for every slot made, the next new one included:
 * releasing a buffer, which cannot fail, then always has room to push.
 */
static int vacant_grow(struct vrampool_pool_direct *direct)
{
	u32 slots = direct->base.next_index;
	u32 *vacant;
	u32 size;

	if (slots < direct->vacant_size)
		return 0;
	if (slots == DRM_VRAMPOOL_NO_PAGE)
		return -ENOSPC;		/* every slot a page index can name is live */

	if (!direct->vacant_size)
		size = VACANT_MIN_SIZE;
	else if (direct->vacant_size > DRM_VRAMPOOL_NO_PAGE / 2)
		size = DRM_VRAMPOOL_NO_PAGE;
	else
		size = direct->vacant_size * 2;
	vacant = kvrealloc(direct->vacant, array_size(size, sizeof(*vacant)),
			   GFP_KERNEL_ACCOUNT);
	if (!vacant)
		return -ENOMEM;

	direct->vacant = vacant;
	direct->vacant_size = size;
	return 0;
}

/* The slot released last, else a new one; committed once the page is stored. */
static int direct_index_take(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool_direct *direct = to_direct(ppage->pool);
	struct vrampool_pool *pool = ppage->pool;
	bool reuse = direct->vacant_count;
	u32 slot;
	int ret;

	if (reuse) {
		slot = direct->vacant[direct->vacant_count - 1];
	} else {
		ret = vacant_grow(direct);
		if (ret)
			return ret;
		slot = pool->next_index;
	}

	ret = xa_insert(&pool->pages, slot, ppage, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;

	if (reuse)
		direct->vacant_count--;
	else
		pool->next_index++;
	ppage->index = slot;
	ppage->order = slot;
	return 0;
}

static void direct_index_put(struct vrampool_pool_page *ppage)
{
	struct vrampool_pool_direct *direct = to_direct(ppage->pool);

	/* The slot is not on the stack yet, and every other one fits. */
	direct->vacant[direct->vacant_count++] = ppage->index;
}

static bool above_watermark(const struct vrampool_pool *pool, u64 eff)
{
	u64 total;

	return check_add_overflow(pool->stats.reserved, eff, &total) ||
	       total > pool->config.reclaim_at;
}

/* Release free buffers, in slot order, until @eff fits the watermark. */
static void direct_reclaim(struct vrampool_pool *pool, u64 eff)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;

	xa_for_each_marked(&pool->pages, index, ppage, VRAMPOOL_PAGE_FREE) {
		if (!above_watermark(pool, eff))
			return;
		if (!vrampool_pool_page_unmark_busy(ppage))
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
	    !vrampool_pool_buffer_find_free(pool, eff))
		direct_reclaim(pool, eff);
	return vrampool_pool_buffer_alloc(pool, size, a, full);
}

const struct vrampool_pool_ops vrampool_pool_direct_ops = {
	.size = VRAMPOOL_POOL_SIZE(struct vrampool_pool_direct),
	.fini = direct_fini,
	.accepts = vrampool_pool_buffer_accepts,
	.alloc = direct_alloc,
	.free = vrampool_pool_page_put_back,
	.cleanup = vrampool_pool_buffer_cleanup,
	.trim = vrampool_pool_page_release_free,
	.index_take = direct_index_take,
	.index_put = direct_index_put,
	.free_before = vrampool_pool_buffer_free_before,
};

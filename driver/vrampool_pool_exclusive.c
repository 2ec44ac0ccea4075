// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: exclusive pools.
 *
 * One allocation per page. A new page is sized max(running average, size),
 * so that pages fit the requests that usually come (zero-size requests take
 * no page and do not count in the average); a free page is reused by
 * any request it fits, the one with the fewest idle checks first and the
 * oldest of those (CubeCL's order). Free pages age by idle checks, every
 * dealloc_period / IDLE_CHECKS_PER_PERIOD allocations of the client, and a
 * page that reaches IDLE_CHECKS_TO_RELEASE is released; each reuse makes a
 * page younger.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/container_of.h>
#include <linux/sched.h>
#include <kunit/visibility.h>

#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

/*
 * The running average is fixed point (no FPU in the kernel), with
 * AVG_FRAC_BITS fractional bits. Requests count as at most AVG_MAX_INPUT
 * bytes, so the shifted value always fits in 64 bits.
 */
#define AVG_FRAC_BITS		16
#define AVG_MAX_INPUT		BIT_ULL(47)
/* Each request moves the average 1/AVG_STEP_DIVISOR (1%) of the way to it. */
#define AVG_STEP_DIVISOR	100

/* An idle check comes every dealloc_period / IDLE_CHECKS_PER_PERIOD allocations. */
#define IDLE_CHECKS_PER_PERIOD	5
/* The idle count at which a free page is released. */
#define IDLE_CHECKS_TO_RELEASE	5
/*
 * The idle count of a new page: one idle check short of release, so that a
 * page used once goes at the first check that finds it free. Each reuse
 * takes one off, down to 0, and earns the page one more check.
 */
#define NEW_PAGE_IDLE_COUNT	4

/**
 * struct vrampool_pool_exclusive - an exclusive pool
 */
struct vrampool_pool_exclusive {
	/** @base: the pool */
	struct vrampool_pool base;
	/**
	 * @avg: the running average request size in bytes, fixed point with
	 * AVG_FRAC_BITS fractional bits
	 */
	u64 avg;
	/** @last_check: the client's allocation count at the last idle check */
	u64 last_check;
};

#define to_exclusive(pool)	container_of_const(pool, struct vrampool_pool_exclusive, base)

/* The average starts at half the largest size the pool serves. */
static void exclusive_init(struct vrampool_pool *pool)
{
	to_exclusive(pool)->avg = min(pool->config.max_alloc_size / 2, AVG_MAX_INPUT) <<
				  AVG_FRAC_BITS;
}

/**
 * vrampool_pool_exclusive_average() - an exclusive pool's running average
 * @pool: an exclusive pool
 *
 * For the KUnit tests.
 *
 * Return: the average request size in bytes, fixed point with 16
 * fractional bits.
 */
u64 vrampool_pool_exclusive_average(const struct vrampool_pool *pool)
{
	return to_exclusive(pool)->avg;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_pool_exclusive_average);

static bool exclusive_accepts(const struct vrampool_pool *pool, u64 size)
{
	return size <= pool->config.max_alloc_size;
}

static void exclusive_average(struct vrampool_pool_exclusive *excl, u64 size)
{
	u64 s = min(size, AVG_MAX_INPUT) << AVG_FRAC_BITS;

	if (s >= excl->avg)
		excl->avg += (s - excl->avg) / AVG_STEP_DIVISOR;
	else
		excl->avg -= (excl->avg - s) / AVG_STEP_DIVISOR;
}

/*
 * Free pages are sorted by idle count, then by age: the first that fits is
 * the one with the fewest idle checks, the oldest on a tie. An idle check
 * adds one to every free page, which keeps them in order.
 */
static bool exclusive_free_before(const struct vrampool_pool_page *a,
				  const struct vrampool_pool_page *b)
{
	if (a->free_count != b->free_count)
		return a->free_count < b->free_count;
	return a->order < b->order;
}

/*
 * Reuses the first free page in that order that fits, else makes a page of
 * max(running average, size).
 */
static int exclusive_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			   bool *full)
{
	struct vrampool_pool_exclusive *excl = to_exclusive(pool);
	struct vrampool_pool_page *ppage;
	u64 page_size;

	exclusive_average(excl, size);

	ppage = vrampool_pool_page_first_fit(pool, size);
	if (ppage) {
		vrampool_pool_page_take(ppage, a);
		if (ppage->free_count)
			ppage->free_count--;
		return 0;
	}

	/* Both are at most max_alloc_size, which is aligned. */
	vrampool_pool_effective_size(pool, max(excl->avg >> AVG_FRAC_BITS, size), &page_size);
	ppage = vrampool_pool_page_new(pool, page_size);
	if (IS_ERR(ppage))
		return PTR_ERR(ppage);
	ppage->free_count = NEW_PAGE_IDLE_COUNT;
	vrampool_pool_page_take(ppage, a);
	return 0;
}

/*
 * The client's allocation count of the next idle check (exclusive_cleanup()
 * says when it is one): once per interval of it, and only with a dealloc
 * period; U64_MAX when none can come before it.
 */
static u64 exclusive_periodic_due(const struct vrampool_pool *pool)
{
	u64 due;

	if (!(pool->config.flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD))
		return U64_MAX;
	if (check_add_overflow(to_exclusive(pool)->last_check,
			       pool->config.dealloc_period / IDLE_CHECKS_PER_PERIOD, &due))
		return U64_MAX;
	return due;
}

/*
 * The periodic pass runs only with a dealloc period, once per interval of
 * the client's allocation count: each free page is seen idle once more, and
 * released at IDLE_CHECKS_TO_RELEASE. An explicit cleanup releases every
 * free page.
 */
static void exclusive_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	struct vrampool_pool_exclusive *excl = to_exclusive(pool);
	struct vrampool_pool_page *ppage, *next;
	u64 interval;

	if (!explicit) {
		if (!(pool->config.flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD))
			return;
		interval = pool->config.dealloc_period / IDLE_CHECKS_PER_PERIOD;
		if (alloc_nr - excl->last_check < interval)
			return;
	}
	excl->last_check = alloc_nr;

	for (ppage = vrampool_pool_page_first_free(pool); ppage; ppage = next) {
		next = vrampool_pool_page_next_free(ppage);
		ppage->free_count++;
		if (explicit || ppage->free_count >= IDLE_CHECKS_TO_RELEASE)
			vrampool_pool_page_release(ppage);
		cond_resched();
	}
}

const struct vrampool_pool_ops vrampool_pool_exclusive_ops = {
	.size = VRAMPOOL_POOL_SIZE(struct vrampool_pool_exclusive),
	.init = exclusive_init,
	.accepts = exclusive_accepts,
	.alloc = exclusive_alloc,
	.free = vrampool_pool_page_put_back,
	.cleanup = exclusive_cleanup,
	.trim = vrampool_pool_page_release_free,
	.periodic_due = exclusive_periodic_due,
	.free_before = exclusive_free_before,
};

// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the pool internals: the dispatch to each type's
 * operations, first fit, split and merge, the near-page rule at the edges of
 * u64, the fixed-point running average, idle checks and reclaim order; the
 * order each type visits, reuses and reclaims its pages in, and how it
 * numbers them; and a randomized differential test of every type against a
 * model of CubeCL's pools.
 *
 * Pages are backed by nothing here (a counting fake), so the pool logic is
 * tested alone, without a device.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sizes.h>

#include "vrampool_pool.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

struct fake_backing {
	struct vrampool_backing base;
	u64 bytes;		/* backed now */
	u32 pages;		/* backed now */
	bool full;		/* refuse new pages, as a full device would */
};

static int fake_back(const struct vrampool_backing *b, struct vrampool_pool_page *ppage)
{
	struct fake_backing *f = container_of(b, struct fake_backing, base);

	if (f->full)
		return -ENOSPC;
	f->bytes += ppage->size;
	f->pages++;
	return 0;
}

static void fake_release(const struct vrampool_backing *b, struct vrampool_pool_page *ppage)
{
	struct fake_backing *f = container_of(b, struct fake_backing, base);

	f->bytes -= ppage->size;
	f->pages--;
}

static struct fake_backing *fake_backing(struct kunit *test)
{
	struct fake_backing *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->base.back = fake_back;
	f->base.release = fake_release;
	return f;
}

static void destroy_pool(void *pool)
{
	vrampool_pool_destroy(pool);
}

/* A pool destroyed when the test ends, after its allocations are freed. */
static struct vrampool_pool *make_pool(struct kunit *test, struct fake_backing *f,
				       struct drm_vrampool_pool_entry cfg)
{
	struct vrampool_pool *pool = vrampool_pool_create(&cfg, 0, 256, &f->base);

	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_pool, pool), 0);
	return pool;
}

static struct vrampool_alloc *alloc_ok(struct kunit *test, struct vrampool_pool *pool, u64 size)
{
	struct vrampool_alloc *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	bool full = true;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_TRUE(test, vrampool_pool_accepts(pool, size));
	KUNIT_ASSERT_EQ(test, vrampool_pool_alloc(pool, size, a, &full), 0);
	KUNIT_EXPECT_FALSE(test, full);
	return a;
}

/* Allocates and frees @size at once: the pool sees one more request. */
static void alloc_free(struct kunit *test, struct vrampool_pool *pool, u64 size)
{
	vrampool_pool_free(alloc_ok(test, pool, size));
}

#define SLICED(psize, slice) ((struct drm_vrampool_pool_entry) { \
	.type = DRM_VRAMPOOL_POOL_SLICED, .flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, \
	.page_size = (psize), .max_slice_size = (slice) })

#define EXCLUSIVE(max, period) ((struct drm_vrampool_pool_entry) { \
	.type = DRM_VRAMPOOL_POOL_EXCLUSIVE, .flags = DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, \
	.max_alloc_size = (max), .dealloc_period = (period) })

#define DIRECT(reclaim) ((struct drm_vrampool_pool_entry) { \
	.type = DRM_VRAMPOOL_POOL_DIRECT, .flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT, \
	.reclaim_at = (reclaim) })

#define PERSISTENT ((struct drm_vrampool_pool_entry) { .type = DRM_VRAMPOOL_POOL_PERSISTENT })

/* The last index a page may take: DRM_VRAMPOOL_NO_PAGE is ALLOC's "no page". */
#define LAST_PAGE_INDEX	(DRM_VRAMPOOL_NO_PAGE - 1)

static void sliced_first_fit_split_merge(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, SLICED(4096, 4096));
	struct vrampool_alloc *a, *b, *c, *d, *e;
	struct vrampool_pool_page *ppage;

	a = alloc_ok(test, pool, 1000);			/* [0, 1024) */
	b = alloc_ok(test, pool, 1000);			/* [1024, 2048) */
	ppage = a->ppage;
	KUNIT_EXPECT_EQ(test, a->slice.offset, 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_padding(a), 24);
	KUNIT_EXPECT_EQ(test, b->slice.offset, 1024);
	KUNIT_EXPECT_PTR_EQ(test, b->ppage, ppage);

	vrampool_pool_free(a);
	c = alloc_ok(test, pool, 256);			/* first fit: the freed hole */
	d = alloc_ok(test, pool, 768);			/* the rest of it, split off */
	KUNIT_EXPECT_EQ(test, c->slice.offset, 0);
	KUNIT_EXPECT_EQ(test, d->slice.offset, 256);
	KUNIT_EXPECT_EQ(test, f->pages, 1);

	/*
	 * Freed neighbours merge: [0, 256) and [256, 1024) become one hole
	 * that 1024 bytes fit. Unmerged, first fit would skip both and take
	 * the tail hole at 2048.
	 */
	vrampool_pool_free(c);
	vrampool_pool_free(d);
	e = alloc_ok(test, pool, 1024);
	KUNIT_EXPECT_PTR_EQ(test, e->ppage, ppage);
	KUNIT_EXPECT_EQ(test, e->slice.offset, 0);

	/* All free, the holes merge into the whole page: a page-size slice fits it. */
	vrampool_pool_free(e);
	vrampool_pool_free(b);
	e = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_PTR_EQ(test, e->ppage, ppage);
	KUNIT_EXPECT_EQ(test, e->slice.offset, 0);
	KUNIT_EXPECT_EQ(test, f->pages, 1);
	vrampool_pool_free(e);

	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 0);
	KUNIT_EXPECT_EQ(test, pool->stats.padding, 0);
	vrampool_pool_cleanup(pool, false, 0);		/* periodic: sliced keep pages */
	KUNIT_EXPECT_EQ(test, f->pages, 1);
	vrampool_pool_cleanup(pool, true, 0);
	KUNIT_EXPECT_EQ(test, f->pages, 0);
	KUNIT_EXPECT_EQ(test, pool->stats.pages_peak, 1);
	KUNIT_EXPECT_EQ(test, pool->stats.largest_alloc, 4096);
}

static void sliced_accepts_and_cap(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct drm_vrampool_pool_entry capped = SLICED(1024, 1024);
	struct vrampool_pool *pool = make_pool(test, f, SLICED(1024, 256));
	struct vrampool_alloc *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	struct vrampool_alloc *a, *b;
	bool full = false;

	/* The near-page rule: above 80% of a page takes a whole page. */
	KUNIT_EXPECT_TRUE(test, vrampool_pool_accepts(pool, 256));
	KUNIT_EXPECT_FALSE(test, vrampool_pool_accepts(pool, 819));
	KUNIT_EXPECT_TRUE(test, vrampool_pool_accepts(pool, 820));
	KUNIT_EXPECT_TRUE(test, vrampool_pool_accepts(pool, 1024));
	KUNIT_EXPECT_FALSE(test, vrampool_pool_accepts(pool, 1025));

	capped.flags |= DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
	capped.max_pool_size = 2048;
	pool = make_pool(test, f, capped);
	KUNIT_EXPECT_FALSE(test, vrampool_pool_accepts(pool, 1025));
	a = alloc_ok(test, pool, 1024);
	b = alloc_ok(test, pool, 1024);
	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc(pool, 1024, x, &full), -ENOSPC);
	KUNIT_EXPECT_TRUE(test, full);
	KUNIT_EXPECT_EQ(test, pool->stats.reserved, 2048);
	KUNIT_EXPECT_EQ(test, vrampool_pool_capacity(pool), 2048);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
}

/*
 * The near-page rule, (page - size) * 5 < page, at its edges: equality is a
 * no, and so is a product past U64_MAX, which a 64-bit multiplication would
 * wrap to a small yes. U64_MAX is 5 * (U64_MAX / 5) exactly. The pools have
 * no slices but zero-size ones, so only the rule can take these sizes.
 */
struct near_page_case {
	const char *name;
	u64 page, size;
	bool capped, accepted;
};

#define FIFTH_OF_MAX	(U64_MAX / 5)

static const struct near_page_case near_page_cases[] = {
	{ "max page, whole page", U64_MAX, U64_MAX, false, true },
	{ "max page, product max - 5", U64_MAX, U64_MAX - (FIFTH_OF_MAX - 1), false, true },
	{ "max page, product equals page", U64_MAX, U64_MAX - FIFTH_OF_MAX, false, false },
	{ "max page, product 2^64 + 4", U64_MAX, U64_MAX - (FIFTH_OF_MAX + 1), false, false },
	{ "max page, half of it", U64_MAX, BIT_ULL(63), false, false },
	{ "max page, one byte", U64_MAX, 1, false, false },
	{ "page 5, whole page", 5, 5, false, true },
	{ "page 5, product equals page", 5, 4, false, false },
	{ "page 5, above the page", 5, 6, false, false },
	{ "page 1024, product 1020", 1024, 820, false, true },
	{ "page 1024, product 1025", 1024, 819, false, false },
	{ "capped, whole page", 1024, 1024, true, false },
};

static void near_page_case_desc(const struct near_page_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(near_page, near_page_cases, near_page_case_desc);

static void sliced_near_page_edges(struct kunit *test)
{
	const struct near_page_case *c = test->param_value;
	struct drm_vrampool_pool_entry cfg = SLICED(c->page, 0);
	struct vrampool_pool *pool;

	if (c->capped) {
		cfg.flags |= DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
		cfg.max_pool_size = c->page;
	}
	pool = make_pool(test, fake_backing(test), cfg);
	KUNIT_EXPECT_TRUE(test, vrampool_pool_accepts(pool, 0));
	KUNIT_EXPECT_EQ(test, vrampool_pool_accepts(pool, c->size), c->accepted);
}

static void exclusive_average_and_idle_checks(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(SZ_1M, 5));
	struct vrampool_alloc *a, *b;
	u64 avg, nr;

	/* The average starts at max/2 and moves 1% toward 1000: 519055.12. */
	a = alloc_ok(test, pool, 1000);
	avg = ((u64)SZ_512K << 16) - ((((u64)SZ_512K << 16) - (1000ULL << 16)) / 100);
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), avg);
	KUNIT_EXPECT_EQ(test, a->ppage->size, ALIGN(avg >> 16, 256));
	KUNIT_EXPECT_EQ(test, a->ppage->size, 519168);
	b = alloc_ok(test, pool, SZ_1M);		/* bigger than the average */
	KUNIT_EXPECT_EQ(test, b->ppage->size, SZ_1M);

	/* A freed page is reused by a size that fits. */
	vrampool_pool_free(a);
	a = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_EQ(test, a->ppage->size, 519168);
	KUNIT_EXPECT_EQ(test, a->ppage->free_count, 3);	/* new pages start at 4 */
	vrampool_pool_free(a);

	/* Period 5: a check every allocation; the 5th idle check frees it. */
	nr = 1;
	vrampool_pool_cleanup(pool, false, nr);
	KUNIT_EXPECT_EQ(test, f->pages, 2);		/* idle count 3 -> 4 */
	vrampool_pool_cleanup(pool, false, nr);		/* not due: same clock */
	KUNIT_EXPECT_EQ(test, f->pages, 2);
	vrampool_pool_cleanup(pool, false, ++nr);	/* 4 -> 5: released */
	KUNIT_EXPECT_EQ(test, f->pages, 1);		/* idle page gone, busy kept */
	KUNIT_EXPECT_EQ(test, f->bytes, SZ_1M);		/* the one kept is b's */
	vrampool_pool_free(b);
	vrampool_pool_cleanup(pool, true, nr);
	KUNIT_EXPECT_EQ(test, f->pages, 0);
}

/*
 * The idle count: a new page starts at 4, each reuse takes one off but not
 * below 0, and a free page goes at the idle check that brings it to 5.
 */
static void exclusive_idle_count_edges(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(4096, 5));
	struct vrampool_pool_page *ppage;
	struct vrampool_alloc *a;
	u32 reuse;
	u64 nr;

	a = alloc_ok(test, pool, 4096);
	ppage = a->ppage;
	KUNIT_EXPECT_EQ(test, ppage->free_count, 4);
	vrampool_pool_free(a);
	for (reuse = 1; reuse <= 4; reuse++) {		/* 3, 2, 1, 0 */
		a = alloc_ok(test, pool, 4096);
		KUNIT_ASSERT_PTR_EQ(test, a->ppage, ppage);
		KUNIT_EXPECT_EQ(test, ppage->free_count, 4 - reuse);
		vrampool_pool_free(a);
	}
	alloc_free(test, pool, 4096);			/* stays at 0 */
	KUNIT_EXPECT_EQ(test, ppage->free_count, 0);

	/* Period 5: a check at every allocation; four are not enough. */
	for (nr = 1; nr <= 4; nr++) {
		vrampool_pool_cleanup(pool, false, nr);
		KUNIT_EXPECT_EQ(test, ppage->free_count, nr);
	}
	KUNIT_EXPECT_EQ(test, f->pages, 1);
	vrampool_pool_cleanup(pool, false, nr);
	KUNIT_EXPECT_EQ(test, f->pages, 0);
}

/* Idle checks come every dealloc_period / 5 allocations, 0 meaning every pass. */
static void exclusive_check_interval(struct kunit *test)
{
	struct drm_vrampool_pool_entry never = EXCLUSIVE(4096, 5);
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(4096, 10));
	struct vrampool_pool_page *ppage;

	alloc_free(test, pool, 4096);
	alloc_free(test, pool, 4096);			/* reused: idle count 3 */
	ppage = xa_load(&pool->pages, 0);
	KUNIT_ASSERT_NOT_NULL(test, ppage);
	KUNIT_EXPECT_EQ(test, ppage->free_count, 3);

	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(pool), 2);
	vrampool_pool_cleanup(pool, false, 1);		/* 1 - 0 < 10 / 5 */
	KUNIT_EXPECT_EQ(test, ppage->free_count, 3);
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(pool), 2);
	vrampool_pool_cleanup(pool, false, 2);		/* due: 4 */
	KUNIT_EXPECT_EQ(test, ppage->free_count, 4);
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(pool), 4);
	vrampool_pool_cleanup(pool, false, 3);		/* 3 - 2 < 2 */
	KUNIT_EXPECT_EQ(test, f->pages, 1);
	vrampool_pool_cleanup(pool, false, 4);		/* due: 5, released */
	KUNIT_EXPECT_EQ(test, f->pages, 0);
	vrampool_pool_cleanup(pool, true, 9);		/* an explicit one delays the next */
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(pool), 11);

	/* A period under 5 gives an interval of 0: every pass is a check. */
	pool = make_pool(test, f, EXCLUSIVE(4096, 4));
	alloc_free(test, pool, 4096);
	alloc_free(test, pool, 4096);
	vrampool_pool_cleanup(pool, false, 0);
	KUNIT_EXPECT_EQ(test, f->pages, 1);
	vrampool_pool_cleanup(pool, false, 0);
	KUNIT_EXPECT_EQ(test, f->pages, 0);

	/* Without a dealloc period only an explicit cleanup releases. */
	never.flags = 0;
	pool = make_pool(test, f, never);
	alloc_free(test, pool, 4096);
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(pool), U64_MAX);
	vrampool_pool_cleanup(pool, false, U64_MAX);
	KUNIT_EXPECT_EQ(test, f->pages, 1);
	vrampool_pool_cleanup(pool, true, 0);
	KUNIT_EXPECT_EQ(test, f->pages, 0);

	/* A due count past U64_MAX is never. */
	never = EXCLUSIVE(4096, U64_MAX);
	pool = make_pool(test, f, never);
	vrampool_pool_cleanup(pool, true, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(pool), U64_MAX);

	/* The other types have no periodic work. */
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(make_pool(test, f, SLICED(4096, 4096))),
			U64_MAX);
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(make_pool(test, f, DIRECT(0))), U64_MAX);
	KUNIT_EXPECT_EQ(test, vrampool_pool_periodic_due(make_pool(test, f, PERSISTENT)), U64_MAX);
}

/*
 * The average moves 1% of the way, truncated to 1/65536 byte: it stops 99
 * units short of a steady request, where a step rounds to nothing. Requests
 * count as at most 2^47 bytes, so the fixed point cannot overflow.
 */
static void exclusive_average_edges(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(512, 5));
	struct vrampool_alloc *a;
	int i;

	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), 256ULL << 16);
	alloc_free(test, pool, 256);			/* no distance, no step */
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), 256ULL << 16);
	alloc_free(test, pool, 255);			/* 65536 / 100 = 655 down */
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), (256ULL << 16) - 655);
	for (i = 0; i < 1000; i++)
		alloc_free(test, pool, 256);
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), (256ULL << 16) - 99);

	pool = make_pool(test, f, EXCLUSIVE(U64_MAX - 255, 5));
	/* max / 2, clamped to 2^47 */
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), BIT_ULL(63));

	pool = make_pool(test, f, EXCLUSIVE(BIT_ULL(48), 5));
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), BIT_ULL(63));
	a = alloc_ok(test, pool, BIT_ULL(48));		/* counts as 2^47: no step */
	KUNIT_EXPECT_EQ(test, vrampool_pool_exclusive_average(pool), BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, a->ppage->size, BIT_ULL(48));
	vrampool_pool_free(a);
}

static void direct_reclaim_order(struct kunit *test)
{
	struct drm_vrampool_pool_entry cfg = {
		.type = DRM_VRAMPOOL_POOL_DIRECT, .flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT,
		.reclaim_at = 7 * SZ_1M,
	};
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, cfg);
	struct vrampool_alloc *one, *two, *three, *four;

	one = alloc_ok(test, pool, SZ_1M);
	two = alloc_ok(test, pool, 2 * SZ_1M);
	three = alloc_ok(test, pool, 3 * SZ_1M);
	vrampool_pool_free(one);
	vrampool_pool_free(two);
	vrampool_pool_free(three);

	/* Exact-size reuse, no growth. */
	two = alloc_ok(test, pool, 2 * SZ_1M - 100);
	KUNIT_EXPECT_EQ(test, f->pages, 3);
	vrampool_pool_free(two);

	/* 6 MiB + 4 MiB > 7 MiB: release 1 then 2 MiB, in slot order. */
	four = alloc_ok(test, pool, 4 * SZ_1M);
	KUNIT_EXPECT_EQ(test, f->pages, 2);
	KUNIT_EXPECT_EQ(test, pool->stats.reserved, 7 * SZ_1M);
	vrampool_pool_free(four);
}

static void buffers_out_of_space(struct kunit *test)
{
	struct drm_vrampool_pool_entry cfg = { .type = DRM_VRAMPOOL_POOL_PERSISTENT };
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, cfg);
	struct vrampool_alloc *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	struct vrampool_alloc *a;
	bool full = true;

	KUNIT_ASSERT_NOT_NULL(test, x);
	a = alloc_ok(test, pool, 100);
	KUNIT_EXPECT_TRUE(test, vrampool_pool_has_size(pool, 200));	/* both 256 */
	KUNIT_EXPECT_FALSE(test, vrampool_pool_has_size(pool, 300));
	f->full = true;
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc(pool, 300, x, &full), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, full);			/* the device is full, not the pool */
	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 1);
	KUNIT_EXPECT_EQ(test, pool->stats.pages, 1);
	vrampool_pool_free(a);
	KUNIT_EXPECT_TRUE(test, vrampool_pool_has_size(pool, 256));
	vrampool_pool_cleanup(pool, true, 0);
	KUNIT_EXPECT_FALSE(test, vrampool_pool_has_size(pool, 256));
}

/* ---- Page order and page indices ------------------------------------------ */

/*
 * Sliced first fit visits pages oldest first, and a new page takes the next
 * index, not a freed one: issue 12's first trace, at 4 KiB pages. P1 keeps
 * room at 2560 after the cleanup; the new P2 has room at 2560 too; the
 * 256 bytes go to the older P1.
 */
static void sliced_order_after_cleanup(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, SLICED(4096, 4096));
	struct vrampool_alloc *a, *b, *c, *d;

	a = alloc_ok(test, pool, 4096);
	b = alloc_ok(test, pool, 2500);			/* P1 [0, 2560) */
	KUNIT_EXPECT_EQ(test, a->ppage->index, 0);
	KUNIT_EXPECT_EQ(test, b->ppage->index, 1);
	vrampool_pool_free(a);
	vrampool_pool_cleanup(pool, true, 0);		/* P0 goes */
	c = alloc_ok(test, pool, 2500);			/* does not fit P1: P2 */
	KUNIT_EXPECT_EQ(test, c->ppage->index, 2);
	KUNIT_EXPECT_GT(test, c->ppage->order, b->ppage->order);
	d = alloc_ok(test, pool, 256);
	KUNIT_EXPECT_PTR_EQ(test, d->ppage, b->ppage);
	KUNIT_EXPECT_EQ(test, d->slice.offset, 2560);
	vrampool_pool_free(b);
	vrampool_pool_free(c);
	vrampool_pool_free(d);
}

/*
 * Numbering wraps past LAST_PAGE_INDEX to the lowest index no live page
 * holds, and the order stays creation order: the page numbered
 * LAST_PAGE_INDEX is older than page 0 after the wrap and is visited first.
 */
static void sliced_order_survives_index_wrap(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, SLICED(4096, 4096));
	struct vrampool_alloc *a, *b, *c, *d;
	struct vrampool_pool_page *oldest;

	pool->next_index = LAST_PAGE_INDEX;
	a = alloc_ok(test, pool, 4096);
	b = alloc_ok(test, pool, 2048);
	c = alloc_ok(test, pool, 4096);
	oldest = a->ppage;
	KUNIT_EXPECT_EQ(test, a->ppage->index, LAST_PAGE_INDEX);
	KUNIT_EXPECT_EQ(test, b->ppage->index, 0);	/* wrapped, never NO_PAGE */
	KUNIT_EXPECT_EQ(test, c->ppage->index, 1);

	/* Both the oldest page and page 0 have room for 2048: the oldest wins. */
	vrampool_pool_free(a);
	d = alloc_ok(test, pool, 2048);
	KUNIT_EXPECT_PTR_EQ(test, d->ppage, oldest);
	KUNIT_EXPECT_EQ(test, d->slice.offset, 0);

	/* Page 0 released: the numbering goes on at 2, leaving 0 free. */
	vrampool_pool_free(b);
	vrampool_pool_cleanup(pool, true, 0);
	b = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_EQ(test, b->ppage->index, 2);

	/* After the numbering passes the live LAST_PAGE_INDEX, it skips it. */
	pool->next_index = LAST_PAGE_INDEX;
	a = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_EQ(test, a->ppage->index, 0);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
	vrampool_pool_free(c);
	vrampool_pool_free(d);
}

/*
 * Exclusive reuse: among the free pages that fit, the fewest idle checks,
 * then the oldest, whatever the order they were freed in.
 */
static void exclusive_reuse_order(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(8192, 5));
	struct vrampool_alloc *p[3], *a, *b;
	struct vrampool_pool_page *small, *big;
	int i;

	for (i = 0; i < 3; i++)
		p[i] = alloc_ok(test, pool, 8192);
	for (i = 2; i >= 0; i--)			/* freed youngest first */
		vrampool_pool_free(p[i]);

	a = alloc_ok(test, pool, 8192);			/* all at 4: the oldest */
	KUNIT_EXPECT_EQ(test, a->ppage->index, 0);
	KUNIT_EXPECT_EQ(test, a->ppage->free_count, 3);
	vrampool_pool_free(a);
	a = alloc_ok(test, pool, 8192);			/* 3 beats 4: page 0 again */
	KUNIT_EXPECT_EQ(test, a->ppage->index, 0);
	b = alloc_ok(test, pool, 8192);			/* 4 and 4: the older, 1 */
	KUNIT_EXPECT_EQ(test, b->ppage->index, 1);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
	vrampool_pool_cleanup(pool, true, 0);

	/* A page that does not fit is passed over, however old. */
	a = alloc_ok(test, pool, 100);			/* a page of the average */
	b = alloc_ok(test, pool, 8192);
	small = a->ppage;
	big = b->ppage;
	KUNIT_EXPECT_LT(test, small->size, 8000);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
	a = alloc_ok(test, pool, 8000);
	KUNIT_EXPECT_PTR_EQ(test, a->ppage, big);
	b = alloc_ok(test, pool, 100);
	KUNIT_EXPECT_PTR_EQ(test, b->ppage, small);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
}

/*
 * Issue 12's fourth trace: after an idle check released page 1, the new
 * page is page 3, the youngest, and the tie between free pages 2 and 3
 * goes to page 2.
 */
static void exclusive_new_page_goes_last(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(4096, 5));
	struct vrampool_alloc *p[4], *a;
	int i;

	for (i = 0; i < 3; i++)
		p[i] = alloc_ok(test, pool, 4096);
	vrampool_pool_free(p[1]);
	vrampool_pool_cleanup(pool, false, 1);		/* idle count 5: released */
	KUNIT_EXPECT_EQ(test, f->pages, 2);
	p[3] = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_EQ(test, p[3]->ppage->index, 3);
	vrampool_pool_free(p[2]);
	vrampool_pool_free(p[3]);
	a = alloc_ok(test, pool, 1);
	KUNIT_EXPECT_EQ(test, a->ppage->index, 2);
	KUNIT_EXPECT_EQ(test, vrampool_pool_padding(a), 255);
	vrampool_pool_free(a);
	vrampool_pool_free(p[0]);
}

/*
 * Direct slots as CubeCL numbers them: a new buffer takes the slot released
 * last, else a slot after all the others; a free buffer is reused lowest
 * slot first, whatever the order of the frees.
 */
static void direct_slot_order(struct kunit *test)
{
	struct drm_vrampool_pool_entry cfg = { .type = DRM_VRAMPOOL_POOL_DIRECT };
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, cfg);
	struct vrampool_alloc *a, *b, *c, *d, *e, *g, *h;

	a = alloc_ok(test, pool, 256);
	b = alloc_ok(test, pool, 512);
	c = alloc_ok(test, pool, 768);
	vrampool_pool_free(a);
	vrampool_pool_free(c);
	vrampool_pool_cleanup(pool, true, 0);		/* slots 0 then 2 released */
	d = alloc_ok(test, pool, 1024);
	e = alloc_ok(test, pool, 1280);
	g = alloc_ok(test, pool, 1536);
	KUNIT_EXPECT_EQ(test, d->ppage->index, 2);	/* released last */
	KUNIT_EXPECT_EQ(test, e->ppage->index, 0);
	KUNIT_EXPECT_EQ(test, g->ppage->index, 3);	/* a new slot */
	KUNIT_EXPECT_EQ(test, g->ppage->order, 3);

	h = alloc_ok(test, pool, 1536);			/* slot 4 */
	vrampool_pool_free(h);
	vrampool_pool_free(g);
	g = alloc_ok(test, pool, 1536);
	KUNIT_EXPECT_EQ(test, g->ppage->index, 3);	/* the lower of 3 and 4 */

	/* A page that fails to be made leaves the slots as they were. */
	vrampool_pool_free(d);
	vrampool_pool_cleanup(pool, true, 0);		/* slots 2 then 4 */
	f->full = true;
	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc(pool, 4096, h, &(bool){ false }), -ENOSPC);
	f->full = false;
	a = alloc_ok(test, pool, 4096);
	c = alloc_ok(test, pool, 4096);
	d = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_EQ(test, a->ppage->index, 4);
	KUNIT_EXPECT_EQ(test, c->ppage->index, 2);
	KUNIT_EXPECT_EQ(test, d->ppage->index, 5);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
	vrampool_pool_free(c);
	vrampool_pool_free(d);
	vrampool_pool_free(e);
	vrampool_pool_free(g);
}

/*
 * Issue 12's sixth trace: reclaim walks free buffers in slot order and
 * stops once the request fits under reclaim_at, so the 512 buffer in slot 1
 * survives the release of the 1024 one in slot 0.
 */
static void direct_reclaim_slot_order(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, DIRECT(1536));
	struct vrampool_alloc *a, *b;

	a = alloc_ok(test, pool, 256);
	b = alloc_ok(test, pool, 256);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
	vrampool_pool_cleanup(pool, true, 0);		/* vacant: 0, 1 */
	a = alloc_ok(test, pool, 512);
	b = alloc_ok(test, pool, 1024);
	KUNIT_EXPECT_EQ(test, a->ppage->index, 1);
	KUNIT_EXPECT_EQ(test, b->ppage->index, 0);
	vrampool_pool_free(a);
	vrampool_pool_free(b);
	a = alloc_ok(test, pool, 768);
	KUNIT_EXPECT_EQ(test, a->ppage->index, 0);
	KUNIT_EXPECT_EQ(test, f->pages, 2);
	KUNIT_EXPECT_EQ(test, pool->stats.reserved, 1280);
	vrampool_pool_free(a);
}

/*
 * The persistent pool reuses the oldest free buffer of the size: issue 12's
 * last trace, then the same across a wrapped numbering.
 */
static void persistent_reuse_order(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, PERSISTENT);
	struct vrampool_alloc *a, *b, *c;
	struct vrampool_pool_page *oldest;

	a = alloc_ok(test, pool, 256);
	b = alloc_ok(test, pool, 256);
	vrampool_pool_free(a);
	vrampool_pool_cleanup(pool, true, 0);
	c = alloc_ok(test, pool, 256);
	KUNIT_EXPECT_EQ(test, c->ppage->index, 2);
	oldest = b->ppage;
	vrampool_pool_free(b);
	vrampool_pool_free(c);
	a = alloc_ok(test, pool, 256);
	KUNIT_EXPECT_PTR_EQ(test, a->ppage, oldest);
	vrampool_pool_free(a);
	vrampool_pool_cleanup(pool, true, 0);

	pool->next_index = LAST_PAGE_INDEX;
	a = alloc_ok(test, pool, 256);
	b = alloc_ok(test, pool, 256);
	c = alloc_ok(test, pool, 512);
	KUNIT_EXPECT_EQ(test, a->ppage->index, LAST_PAGE_INDEX);
	KUNIT_EXPECT_EQ(test, b->ppage->index, 0);
	oldest = a->ppage;
	vrampool_pool_free(b);
	vrampool_pool_free(c);
	vrampool_pool_free(a);
	a = alloc_ok(test, pool, 256);
	KUNIT_EXPECT_PTR_EQ(test, a->ppage, oldest);
	vrampool_pool_free(a);
}

/* ---- A randomized differential test against a model of CubeCL ------------- */

/*
 * The model places each request as CubeCL's pools do (sliced first fit over
 * pages oldest first; exclusive reuse by fewest idle checks, then age;
 * direct slots and reclaim in slot order; persistent reuse oldest first),
 * with vrampool's deliberate differences: a slice spans its padding, and
 * page indices follow the rule of vrampool_pool_page.c rather than CubeCL's
 * renumbering. Seeded random operations run on a pool and on the model, and
 * every placement, page, index, idle count and statistic must agree. Apart
 * from the model, each sliced placement is checked against the order
 * invariant itself: no page older than the chosen one, and no lower offset
 * in the chosen page, had a hole that fits.
 */
#define MODEL_SLOTS	1024	/* pages (direct: slots) the model tracks */
#define MODEL_LIVE	48	/* live allocations at most */
#define MODEL_OPS	4000

struct model_page {
	struct vrampool_pool_page *real;	/* vrampool's page for it, once made */
	u64 size;
	u32 index;		/* the index vrampool must give it */
	u32 free_count;		/* exclusive pools: the idle count */
	u32 live;		/* live allocations in it */
};

struct model_alloc {
	struct vrampool_alloc *a;
	struct model_page *page;
	u64 offset, eff;
};

struct model {
	struct kunit *test;
	struct vrampool_pool *pool;
	struct drm_vrampool_pool_entry cfg;
	struct rnd_state rnd;
	u32 op;
	/* Oldest first; direct pools: by slot, NULL for a vacant one. */
	struct model_page *pages[MODEL_SLOTS];
	u32 count;
	u32 vacant[MODEL_SLOTS];	/* direct pools: released slots, the last on top */
	u32 nvacant;
	struct model_alloc live[MODEL_LIVE];
	u32 nlive;
	/* The allocations' memory, here so that it outlives model_free_all(). */
	struct vrampool_alloc store[MODEL_LIVE];
	bool stored[MODEL_LIVE];
	u32 next_index;		/* where the next index is searched from */
	u64 alloc_nr, last_check;
};

struct order_case {
	const char *name;
	struct drm_vrampool_pool_entry cfg;
	u32 first_index;	/* the pool's first page index, to cross the wrap */
	u64 seed;
};

static bool model_is(const struct model *m, u32 type)
{
	return m->cfg.type == type;
}

static u32 model_pages(const struct model *m)
{
	u32 i, n = 0;

	for (i = 0; i < m->count; i++)
		n += !!m->pages[i];
	return n;
}

static u64 model_reserved(const struct model *m)
{
	u64 bytes = 0;
	u32 i;

	for (i = 0; i < m->count; i++)
		bytes += m->pages[i] ? m->pages[i]->size : 0;
	return bytes;
}

/* The index rule: the next index no live page holds, wrapping past the last. */
static u32 model_next_index(struct model *m)
{
	u32 index = m->next_index > LAST_PAGE_INDEX ? 0 : m->next_index;
	u32 i;

again:
	for (i = 0; i < m->count; i++) {
		if (m->pages[i] && m->pages[i]->index == index) {
			index = index == LAST_PAGE_INDEX ? 0 : index + 1;
			goto again;
		}
	}
	m->next_index = index + 1;
	return index;
}

/* A new page: last in creation order, or in the slot released last. */
static struct model_page *model_new(struct model *m, u64 size)
{
	struct model_page *p = kunit_kzalloc(m->test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(m->test, p);
	KUNIT_ASSERT_LT(m->test, m->count, MODEL_SLOTS);
	p->size = size;
	if (model_is(m, DRM_VRAMPOOL_POOL_DIRECT)) {
		p->index = m->nvacant ? m->vacant[--m->nvacant] : m->count++;
		m->pages[p->index] = p;
	} else {
		p->index = model_next_index(m);
		m->pages[m->count++] = p;
	}
	return p;
}

/* Release page @i: the others keep their order; a direct slot goes vacant. */
static void model_drop(struct model *m, u32 i)
{
	if (model_is(m, DRM_VRAMPOOL_POOL_DIRECT)) {
		m->pages[i] = NULL;
		m->vacant[m->nvacant++] = i;
		return;
	}
	memmove(&m->pages[i], &m->pages[i + 1], (m->count - i - 1) * sizeof(m->pages[0]));
	m->count--;
}

/* Explicit cleanup, or the periodic pass of exclusive pools. */
static void model_cleanup(struct model *m, bool explicit)
{
	bool exclusive = model_is(m, DRM_VRAMPOOL_POOL_EXCLUSIVE);
	struct model_page *p;
	u32 i = 0;

	if (exclusive) {
		if (!explicit && m->alloc_nr - m->last_check < m->cfg.dealloc_period / 5)
			return;
		m->last_check = m->alloc_nr;
	} else if (!explicit) {
		return;
	}

	while (i < m->count) {
		p = m->pages[i];
		if (p && !p->live) {
			p->free_count += exclusive;
			if (!exclusive || explicit || p->free_count >= 5) {
				model_drop(m, i);
				if (!model_is(m, DRM_VRAMPOOL_POOL_DIRECT))
					continue;
			}
		}
		i++;
	}
}

/* Sliced: the lowest offset of @p where @eff bytes are free. */
static bool model_fits(const struct model *m, const struct model_page *p, u64 eff, u64 *offset)
{
	u64 at = 0, start, end;
	bool found;
	u32 i;

	for (;;) {
		found = false;
		start = p->size;
		end = 0;
		for (i = 0; i < m->nlive; i++) {
			const struct model_alloc *l = &m->live[i];

			if (l->page == p && l->offset >= at && l->offset < start) {
				start = l->offset;
				end = l->offset + l->eff;
				found = true;
			}
		}
		if (start - at >= eff) {
			*offset = at;
			return true;
		}
		if (!found)
			return false;
		at = end;
	}
}

/* Where CubeCL puts @size: a page (new ones have no real page yet), or NULL when full. */
static struct model_page *model_place(struct model *m, u64 size, u64 eff, u64 *offset)
{
	struct model_page *p, *best = NULL;
	u32 i;

	*offset = 0;
	switch (m->cfg.type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		for (i = 0; i < m->count; i++) {
			if (model_fits(m, m->pages[i], eff, offset))
				return m->pages[i];
		}
		if ((m->cfg.flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE) &&
		    m->count >= m->cfg.max_pool_size / m->cfg.page_size)
			return NULL;
		return model_new(m, m->cfg.page_size);
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		for (i = 0; i < m->count; i++) {
			p = m->pages[i];
			if (p->live || p->size < size)
				continue;
			if (!best || p->free_count < best->free_count)
				best = p;
		}
		if (best) {
			best->free_count -= !!best->free_count;
			return best;
		}
		p = model_new(m, 0);			/* sized by the average */
		p->free_count = 4;
		return p;
	default:				/* direct, persistent */
		for (i = 0; i < m->count; i++) {
			p = m->pages[i];
			if (p && !p->live && p->size == eff)
				return p;
		}
		if (!(m->cfg.flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT))
			return model_new(m, eff);
		for (i = 0; i < m->count; i++) {
			if (model_reserved(m) + eff <= m->cfg.reclaim_at)
				break;
			if (m->pages[i] && !m->pages[i]->live)
				model_drop(m, i);
		}
		return model_new(m, eff);
	}
}

/* The order invariant of sliced first fit, on the pool alone. */
static void check_first_fit(struct model *m, const struct vrampool_alloc *a, u64 eff)
{
	struct vrampool_pool_page *ppage;
	struct vrampool_slice *pos;
	u64 start, end, order = 0;
	bool first = true;

	list_for_each_entry(ppage, &m->pool->by_age, age_link) {
		KUNIT_ASSERT_TRUE_MSG(m->test, first || ppage->order > order,
				      "op %u: pages out of creation order", m->op);
		first = false;
		order = ppage->order;
		/* Each hole: before each slice, and the tail. */
		start = 0;
		pos = vrampool_slices_first(&ppage->slices);
		for (;;) {
			end = pos ? pos->offset : ppage->size;
			if (!(ppage == a->ppage && end > a->slice.offset))
				KUNIT_ASSERT_LT_MSG(m->test, end - start, eff,
						    "op %u: a hole in page %u (of %u at %llu) fits",
						    m->op, ppage->index, a->ppage->index,
						    a->slice.offset);
			if (!pos)
				break;
			start = vrampool_slices_end(&ppage->slices, pos);
			pos = vrampool_slices_next(pos);
		}
		if (ppage == a->ppage)
			return;
	}
	KUNIT_FAIL(m->test, "op %u: the slice's page is not the pool's", m->op);
}

static void model_alloc(struct model *m, u64 size)
{
	struct kunit *test = m->test;
	u64 eff = ALIGN(size, 256), offset;
	struct vrampool_alloc *a;
	struct model_page *p;
	u32 i, slot = 0;
	bool full;
	int ret;

	while (m->stored[slot])
		slot++;
	a = &m->store[slot];
	memset(a, 0, sizeof(*a));
	p = model_place(m, size, eff, &offset);
	ret = vrampool_pool_alloc(m->pool, size, a, &full);
	if (!p) {
		KUNIT_ASSERT_EQ_MSG(test, ret, -ENOSPC, "op %u: %llu in a full pool", m->op, size);
		KUNIT_ASSERT_TRUE(test, full);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "op %u: %llu", m->op, size);
	/* Recorded first, so that a failed check leaves nothing behind. */
	m->stored[slot] = true;
	m->live[m->nlive++] = (struct model_alloc){ .a = a, .page = p, .offset = offset,
						    .eff = eff };
	p->live++;

	if (p->real) {
		KUNIT_ASSERT_PTR_EQ_MSG(test, a->ppage, p->real, "op %u: %llu not in page %u",
					m->op, size, p->index);
	} else {
		for (i = 0; i < m->count; i++)
			KUNIT_ASSERT_FALSE_MSG(test, m->pages[i] && m->pages[i]->real == a->ppage,
					       "op %u: %llu reused page %u, not a new one",
					       m->op, size, a->ppage->index);
		p->real = a->ppage;
		p->size = p->size ?: a->ppage->size;
		KUNIT_ASSERT_EQ_MSG(test, a->ppage->index, p->index, "op %u: a new page's index",
				    m->op);
	}
	KUNIT_ASSERT_EQ_MSG(test, a->slice.offset, offset, "op %u: %llu in page %u", m->op, size,
			    p->index);
	if (model_is(m, DRM_VRAMPOOL_POOL_SLICED))
		check_first_fit(m, a, eff);
}

static void model_free(struct model *m, u32 i)
{
	struct model_alloc *l = &m->live[i];

	vrampool_pool_free(l->a);
	m->stored[l->a - m->store] = false;
	l->page->live--;
	*l = m->live[--m->nlive];
}

static void model_check(struct model *m)
{
	struct kunit *test = m->test;
	struct vrampool_pool_stats *st = &m->pool->stats;
	struct model_page *p;
	u32 i;

	KUNIT_ASSERT_EQ_MSG(test, st->pages, model_pages(m), "op %u", m->op);
	KUNIT_ASSERT_EQ_MSG(test, st->reserved, model_reserved(m), "op %u", m->op);
	KUNIT_ASSERT_EQ_MSG(test, st->allocations, m->nlive, "op %u", m->op);
	for (i = 0; i < m->count; i++) {
		p = m->pages[i];
		if (!p)
			continue;
		KUNIT_ASSERT_EQ_MSG(test, p->real->index, p->index, "op %u", m->op);
		KUNIT_ASSERT_EQ_MSG(test, p->real->live, p->live, "op %u: page %u", m->op,
				    p->index);
		if (model_is(m, DRM_VRAMPOOL_POOL_EXCLUSIVE))
			KUNIT_ASSERT_EQ_MSG(test, p->real->free_count, p->free_count,
					    "op %u: page %u", m->op, p->index);
	}
}

static u64 model_size(struct model *m)
{
	static const u64 buffer_sizes[] = { 100, 256, 700, 1000, 1024, 2048, 3000 };
	u32 r = prandom_u32_state(&m->rnd);

	switch (m->cfg.type) {
	case DRM_VRAMPOOL_POOL_SLICED:		/* mostly small, some up to a page */
		return 1 + r % (r & BIT(31) ? m->cfg.page_size : 600);
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return 1 + r % m->cfg.max_alloc_size;
	default:				/* a few sizes, so that buffers are reused */
		return buffer_sizes[r % ARRAY_SIZE(buffer_sizes)];
	}
}

/*
 * Frees what a failed test left live, before its pool is destroyed. The
 * model's pages are gone by then (allocated after this action was added,
 * they are freed before it runs): only the allocations are touched.
 */
static void model_free_all(void *data)
{
	struct model *m = data;
	u32 i;

	for (i = 0; i < m->nlive; i++)
		vrampool_pool_free(m->live[i].a);
	m->nlive = 0;
}

static const struct order_case order_cases[] = {
	{ "sliced", SLICED(4096, 4096), 0, 1 },
	{ "sliced, capped at 4 pages",
	  { .type = DRM_VRAMPOOL_POOL_SLICED,
	    .flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
	    .page_size = 4096, .max_slice_size = 4096, .max_pool_size = 16384 }, 0, 2 },
	{ "sliced, indices wrapping", SLICED(4096, 4096), LAST_PAGE_INDEX - 8, 3 },
	{ "exclusive", EXCLUSIVE(8192, 10), 0, 4 },
	{ "exclusive, indices wrapping", EXCLUSIVE(8192, 10), LAST_PAGE_INDEX - 8, 5 },
	{ "direct", { .type = DRM_VRAMPOOL_POOL_DIRECT }, 0, 6 },
	{ "direct, reclaim_at 6144", DIRECT(6144), 0, 7 },
	{ "persistent", PERSISTENT, 0, 8 },
	{ "persistent, indices wrapping", PERSISTENT, LAST_PAGE_INDEX - 8, 9 },
};

static void order_case_desc(const struct order_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(order, order_cases, order_case_desc);

static void pool_order_differential(struct kunit *test)
{
	const struct order_case *c = test->param_value;
	struct model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u32 r;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->test = test;
	m->cfg = c->cfg;
	m->pool = make_pool(test, fake_backing(test), c->cfg);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, model_free_all, m), 0);
	if (c->first_index) {
		m->pool->next_index = c->first_index;
		m->next_index = c->first_index;
	}
	prandom_seed_state(&m->rnd, c->seed);

	for (m->op = 0; m->op < MODEL_OPS; m->op++) {
		r = prandom_u32_state(&m->rnd) % 100;
		if (r < 3) {
			vrampool_pool_cleanup(m->pool, true, m->alloc_nr);
			model_cleanup(m, true);
		} else if (m->nlive == MODEL_LIVE || (m->nlive && r < 48)) {
			model_free(m, prandom_u32_state(&m->rnd) % m->nlive);
		} else {
			/* As a client does: count the request, run the periodic pass. */
			m->alloc_nr++;
			vrampool_pool_cleanup(m->pool, false, m->alloc_nr);
			model_cleanup(m, false);
			model_alloc(m, model_size(m));
		}
		model_check(m);
	}
}

/* One pool of each type, and what tells its operations from the others'. */
struct dispatch_case {
	const char *name;
	struct drm_vrampool_pool_entry cfg;
	u64 accepted, refused;	/* the largest size it takes, one it does not */
	u64 page_size;		/* the page a request of 100 bytes gets */
	u32 pages;		/* pages two such requests take */
	u32 kept;		/* pages left after a periodic pass, both freed */
	u64 capacity;
	bool has_size;		/* it counts its buffers by size */
};

static const struct dispatch_case dispatch_cases[] = {
	{ "sliced", { .type = DRM_VRAMPOOL_POOL_SLICED,
		      .flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
		      .page_size = 1024, .max_slice_size = 256, .max_pool_size = 2048 },
	  256, 257, 1024, 1, 1, 2048, false },
	/* The average: 2048 - 1948 / 100 = 2028.52 bytes, aligned to 2048. */
	{ "exclusive", EXCLUSIVE(4096, 5), 4096, 4097, 2048, 2, 0, 0, false },
	{ "direct", { .type = DRM_VRAMPOOL_POOL_DIRECT },
	  U64_MAX - 255, U64_MAX - 254, 256, 2, 2, 0, false },
	{ "persistent", { .type = DRM_VRAMPOOL_POOL_PERSISTENT },
	  U64_MAX - 255, U64_MAX - 254, 256, 2, 2, 0, true },
};

static void dispatch_case_desc(const struct dispatch_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dispatch, dispatch_cases, dispatch_case_desc);

/* Each type reaches its own accepts, alloc, free, cleanup and capacity. */
static void pool_ops_dispatch(struct kunit *test)
{
	const struct dispatch_case *c = test->param_value;
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, c->cfg);
	struct vrampool_alloc *a, *b;

	KUNIT_EXPECT_TRUE(test, vrampool_pool_accepts(pool, c->accepted));
	KUNIT_EXPECT_FALSE(test, vrampool_pool_accepts(pool, c->refused));
	KUNIT_EXPECT_EQ(test, vrampool_pool_capacity(pool), c->capacity);

	a = alloc_ok(test, pool, 100);
	b = alloc_ok(test, pool, 100);
	KUNIT_EXPECT_EQ(test, a->ppage->size, c->page_size);
	KUNIT_EXPECT_EQ(test, vrampool_pool_padding(a), 156);
	KUNIT_EXPECT_EQ(test, f->pages, c->pages);
	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 2);
	KUNIT_EXPECT_EQ(test, vrampool_pool_has_size(pool, 100), c->has_size);

	vrampool_pool_free(a);
	vrampool_pool_free(b);
	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 0);
	vrampool_pool_cleanup(pool, false, 1);
	KUNIT_EXPECT_EQ(test, f->pages, c->kept);
	vrampool_pool_cleanup(pool, true, 1);
	KUNIT_EXPECT_EQ(test, f->pages, 0);
	KUNIT_EXPECT_FALSE(test, vrampool_pool_has_size(pool, 100));
}

/* An exclusive pool's running average; 0 for a pool of another type, which has none. */
static u64 average_of(const struct vrampool_pool *pool)
{
	if (pool->config.type != DRM_VRAMPOOL_POOL_EXCLUSIVE)
		return 0;
	return vrampool_pool_exclusive_average(pool);
}

/*
 * A zero-size request takes no page in any pool type, not even in a capped
 * pool that is full, and touches nothing of the type's (the exclusive
 * average stays); it is only counted, and freed like any other.
 */
static void zero_size_takes_no_page(struct kunit *test)
{
	const struct dispatch_case *c = test->param_value;
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, c->cfg);
	struct vrampool_alloc *a, *b, *fill[8], spill = {};
	u64 avg = average_of(pool);
	u32 i, filled = 0;
	bool full;

	a = alloc_ok(test, pool, 0);
	b = alloc_ok(test, pool, 0);
	KUNIT_EXPECT_NULL(test, a->ppage);
	KUNIT_EXPECT_NULL(test, b->ppage);
	KUNIT_EXPECT_EQ(test, a->slice.offset, 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_padding(a), 0);
	KUNIT_EXPECT_EQ(test, f->pages, 0);
	KUNIT_EXPECT_EQ(test, pool->stats.pages, 0);
	KUNIT_EXPECT_EQ(test, pool->stats.reserved, 0);
	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 2);
	KUNIT_EXPECT_EQ(test, average_of(pool), avg);
	KUNIT_EXPECT_FALSE(test, vrampool_pool_has_size(pool, 0));
	vrampool_pool_free(a);
	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 1);

	/* A capped pool, full: the next slice is refused, a zero-size one is not. */
	if (c->capacity) {
		for (filled = 0; filled < c->capacity / c->accepted; filled++)
			fill[filled] = alloc_ok(test, pool, c->accepted);
		KUNIT_EXPECT_EQ(test, vrampool_pool_alloc(pool, c->accepted, &spill, &full),
				-ENOSPC);
		KUNIT_EXPECT_TRUE(test, full);
		a = alloc_ok(test, pool, 0);
		KUNIT_EXPECT_NULL(test, a->ppage);
		vrampool_pool_free(a);
		for (i = 0; i < filled; i++)
			vrampool_pool_free(fill[i]);
	}
	vrampool_pool_free(b);
	KUNIT_EXPECT_EQ(test, pool->stats.allocations, 0);
}

/*
 * The page vrampool_pool_page_first_fit() finds is the one a walk of the free
 * pages in reuse order, from the first, stops at: over a tree of free
 * pages of many sizes and idle counts, for every size around each page's.
 */
#define FIT_ALLOCS	96

static struct vrampool_pool_page *walk_first_fit(struct vrampool_pool *pool, u64 size)
{
	struct vrampool_pool_page *ppage = vrampool_pool_page_first_free(pool);

	while (ppage && ppage->size < size)
		ppage = vrampool_pool_page_next_free(ppage);
	return ppage;
}

static void exclusive_first_fit_is_the_walk(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, EXCLUSIVE(SZ_1M, 0));
	struct vrampool_alloc **a = kunit_kcalloc(test, FIT_ALLOCS, sizeof(*a), GFP_KERNEL);
	struct vrampool_pool_page *ppage;
	struct rnd_state rnd;
	u32 round, i, checked = 0;
	u64 size;

	KUNIT_ASSERT_NOT_NULL(test, a);
	prandom_seed_state(&rnd, 13);
	for (round = 0; round < 8; round++) {
		for (i = 0; i < FIT_ALLOCS; i++) {
			if (a[i] && prandom_u32_state(&rnd) % 2) {
				vrampool_pool_free(a[i]);
				a[i] = NULL;
			} else if (!a[i] && prandom_u32_state(&rnd) % 3) {
				a[i] = alloc_ok(test, pool, prandom_u32_state(&rnd) % SZ_1M);
			}
		}
		for (ppage = vrampool_pool_page_first_free(pool); ppage;
		     ppage = vrampool_pool_page_next_free(ppage)) {
			for (size = ppage->size - !!ppage->size; size <= ppage->size + 1; size++) {
				KUNIT_ASSERT_PTR_EQ(test, vrampool_pool_page_first_fit(pool, size),
						    walk_first_fit(pool, size));
				checked++;
			}
		}
		KUNIT_ASSERT_PTR_EQ(test, vrampool_pool_page_first_fit(pool, 0),
				    walk_first_fit(pool, 0));
		KUNIT_ASSERT_NULL(test, vrampool_pool_page_first_fit(pool, SZ_1M + 1));
	}
	KUNIT_EXPECT_GT(test, checked, 100);	/* the rounds left free pages to check */

	for (i = 0; i < FIT_ALLOCS; i++)
		if (a[i])
			vrampool_pool_free(a[i]);
}

/*
 * postclose's teardown: every live allocation dropped, then the pools
 * destroyed, gives every page back.
 */
static void drop_then_destroy(struct kunit *test)
{
	static const struct drm_vrampool_pool_entry cfgs[] = {
		SLICED(4096, 4096), EXCLUSIVE(SZ_64K, 0), DIRECT(SZ_1M), PERSISTENT,
	};
	struct fake_backing *f = fake_backing(test);
	struct vrampool_alloc *a[16];
	struct vrampool_pool *pool;
	u32 t, i;

	for (t = 0; t < ARRAY_SIZE(cfgs); t++) {
		pool = vrampool_pool_create(&cfgs[t], 0, 256, &f->base);
		KUNIT_ASSERT_NOT_NULL(test, pool);
		for (i = 0; i < ARRAY_SIZE(a); i++)
			a[i] = alloc_ok(test, pool, 100 + 300 * (i % 4));
		for (i = 0; i < ARRAY_SIZE(a); i += 3)
			vrampool_pool_free(a[i]);	/* some free pages, some live */
		KUNIT_EXPECT_GT(test, f->pages, 0);
		for (i = 0; i < ARRAY_SIZE(a); i++)
			if (i % 3)
				vrampool_pool_drop(a[i]);
		vrampool_pool_destroy(pool);
		KUNIT_EXPECT_EQ_MSG(test, f->pages, 0, "pool type %u", cfgs[t].type);
		KUNIT_EXPECT_EQ(test, f->bytes, 0);
	}
}

/* A backing that gives each page whole CPU pages of VRAM, as a client's does. */
static int vram_back(const struct vrampool_backing *b, struct vrampool_pool_page *ppage)
{
	int ret = fake_back(b, ppage);

	if (!ret)
		ppage->vram = PAGE_ALIGN(ppage->size);
	return ret;
}

/*
 * vrampool_pool_free_vram(), what reclaim takes and fdinfo calls purgeable,
 * is exactly the VRAM an explicit cleanup gives back, for every pool type,
 * with live and free pages mixed; 0 after it, and 0 while every page is live.
 */
static void free_vram_is_what_cleanup_gives(struct kunit *test)
{
	static const struct drm_vrampool_pool_entry cfgs[] = {
		/* An exclusive pool that keeps its free pages until a cleanup. */
		SLICED(4096, 4096), SLICED(SZ_64K, SZ_4K), EXCLUSIVE(SZ_64K, 1000), DIRECT(SZ_1M),
		PERSISTENT,
	};
	struct fake_backing *f = fake_backing(test);
	struct vrampool_alloc *a[16];
	struct vrampool_pool *pool;
	u64 free_vram, vram;
	u32 t, i;

	f->base.back = vram_back;
	for (t = 0; t < ARRAY_SIZE(cfgs); t++) {
		pool = make_pool(test, f, cfgs[t]);
		for (i = 0; i < ARRAY_SIZE(a); i++)
			a[i] = alloc_ok(test, pool, 100 + 1000 * (i % 4));
		KUNIT_EXPECT_EQ_MSG(test, vrampool_pool_free_vram(pool), 0, "type %u",
				    cfgs[t].type);
		for (i = 0; i < ARRAY_SIZE(a); i++)
			if (i % 3)
				vrampool_pool_free(a[i]);
		free_vram = vrampool_pool_free_vram(pool);
		vram = pool->stats.vram;
		vrampool_pool_cleanup(pool, true, 0);
		KUNIT_EXPECT_EQ_MSG(test, free_vram, vram - pool->stats.vram, "type %u",
				    cfgs[t].type);
		/* Single-allocation pages: every freed one was free (sliced ones share pages). */
		if (cfgs[t].type != DRM_VRAMPOOL_POOL_SLICED)
			KUNIT_EXPECT_GT_MSG(test, free_vram, 0, "type %u", cfgs[t].type);
		KUNIT_EXPECT_EQ(test, vrampool_pool_free_vram(pool), 0);
		for (i = 0; i < ARRAY_SIZE(a); i += 3)
			vrampool_pool_free(a[i]);
		KUNIT_EXPECT_GT(test, pool->stats.vram, 0);
		KUNIT_EXPECT_EQ(test, vrampool_pool_free_vram(pool), pool->stats.vram);
	}
}

/*
 * vrampool_pool_alloc_run() places each allocation of a run of equal sizes
 * exactly where vrampool_pool_alloc() does, or stops; vrampool_pool_free_run()
 * leaves what vrampool_pool_free() of each leaves. Two sliced pools take
 * the same random runs and frees, one through the run functions where they
 * take the request, the other one allocation at a time, and every
 * allocation must land in the same page at the same offset, with the same
 * stats. The runs must both be taken (they fit the page of the one before)
 * and stopped (the page is full, an older page has room again).
 */
#define AFTER_LIVE	96
#define AFTER_RUN	8

struct run_pools {
	struct fake_backing *fa, *fb;
	struct vrampool_pool *pa, *pb;
	struct vrampool_alloc **la, **lb;
	u32 n, taken, stopped, freed_runs;
};

/* A run of @run allocations of @size in both pools (pa's by runs). */
static void run_alloc(struct kunit *test, struct run_pools *p, u64 size, u32 run, u32 step)
{
	struct vrampool_alloc *a[AFTER_RUN], *b;
	u32 i, k, placed;
	bool full;

	run = min(run, AFTER_LIVE - p->n);
	for (i = 0; i < run; i++) {
		a[i] = kunit_kzalloc(test, sizeof(*a[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, a[i]);
	}
	for (i = 0; i < run; i += placed) {
		placed = i ? vrampool_pool_alloc_run(a[i - 1], size, a + i, run - i) : 0;
		if (placed) {
			p->taken += placed;
			continue;
		}
		p->stopped += !!i;
		KUNIT_ASSERT_EQ(test, vrampool_pool_alloc(p->pa, size, a[i], &full), 0);
		placed = 1;
	}
	for (i = 0; i < run; i++) {
		b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, b);
		KUNIT_ASSERT_EQ(test, vrampool_pool_alloc(p->pb, size, b, &full), 0);
		KUNIT_ASSERT_EQ_MSG(test, a[i]->ppage->index, b->ppage->index,
				    "step %u, %llu bytes", step, size);
		KUNIT_ASSERT_EQ_MSG(test, a[i]->slice.offset, b->slice.offset,
				    "step %u, %llu bytes", step, size);
		k = p->n++;
		p->la[k] = a[i];
		p->lb[k] = b;
	}
}

/*
 * Frees, at random: single ones, or all the live ones of one page in pa
 * together (vrampool_pool_free_run()) and in pb one by one.
 */
static void run_frees(struct run_pools *p, struct rnd_state *rnd)
{
	struct vrampool_alloc *a[AFTER_LIVE];
	struct vrampool_pool_page *page;
	u32 k, i, m;

	while (p->n && prandom_u32_state(rnd) % 3) {
		k = prandom_u32_state(rnd) % p->n;
		if (prandom_u32_state(rnd) % 4) {
			vrampool_pool_free(p->la[k]);
			vrampool_pool_free(p->lb[k]);
			p->la[k] = p->la[--p->n];
			p->lb[k] = p->lb[p->n];
			continue;
		}
		page = p->la[k]->ppage;
		for (i = 0, m = 0; i < p->n;) {
			if (p->la[i]->ppage != page) {
				i++;
				continue;
			}
			a[m++] = p->la[i];
			vrampool_pool_free(p->lb[i]);
			p->la[i] = p->la[--p->n];
			p->lb[i] = p->lb[p->n];
		}
		vrampool_pool_free_run(a, m);
		p->freed_runs += m > 1;
	}
}

static void alloc_run_is_first_fit(struct kunit *test)
{
	static const u64 sizes[] = { 100, 256, 1000, 1500, 4096 };
	struct run_pools p = { .fa = fake_backing(test), .fb = fake_backing(test) };
	struct rnd_state rnd;
	u32 step;
	u64 size;

	p.pa = make_pool(test, p.fa, SLICED(4096, 4096));
	p.pb = make_pool(test, p.fb, SLICED(4096, 4096));
	p.la = kunit_kcalloc(test, AFTER_LIVE, sizeof(*p.la), GFP_KERNEL);
	p.lb = kunit_kcalloc(test, AFTER_LIVE, sizeof(*p.lb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p.la);
	KUNIT_ASSERT_NOT_NULL(test, p.lb);
	prandom_seed_state(&rnd, 2026);
	for (step = 0; step < 400; step++) {
		/* Frees first, so that older pages get holes again. */
		run_frees(&p, &rnd);
		size = sizes[prandom_u32_state(&rnd) % ARRAY_SIZE(sizes)];
		run_alloc(test, &p, size, 1 + prandom_u32_state(&rnd) % AFTER_RUN, step);
		KUNIT_ASSERT_EQ(test, p.pa->stats.allocations, p.pb->stats.allocations);
		KUNIT_ASSERT_EQ(test, p.pa->stats.bytes_in_use, p.pb->stats.bytes_in_use);
		KUNIT_ASSERT_EQ(test, p.pa->stats.padding, p.pb->stats.padding);
		KUNIT_ASSERT_EQ(test, p.fa->pages, p.fb->pages);
	}
	KUNIT_EXPECT_LT(test, 100u, p.taken);
	KUNIT_EXPECT_LT(test, 10u, p.stopped);
	KUNIT_EXPECT_LT(test, 10u, p.freed_runs);
	while (p.n--) {
		vrampool_pool_free(p.la[p.n]);
		vrampool_pool_free(p.lb[p.n]);
	}
}

/*
 * A zero size, a page-less allocation or a type without the shortcut:
 * nothing placed. A run longer than the page's room: as many as fit. A
 * free run gives back what single frees would, with the op or without.
 */
static void alloc_run_declines(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *sliced = make_pool(test, f, SLICED(4096, 4096));
	struct vrampool_pool *excl = make_pool(test, f, EXCLUSIVE(4096, 10));
	struct vrampool_alloc *a = alloc_ok(test, sliced, 100), *x = alloc_ok(test, excl, 100);
	struct vrampool_alloc *c[20];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		c[i] = kunit_kzalloc(test, sizeof(*c[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c[i]);
	}
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc_run(a, 0, c, 1), 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc_run(x, 100, c, 1), 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc_run(a, 100, c, 0), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(c[0], 0, sizeof(*c[0])));
	KUNIT_EXPECT_EQ(test, excl->stats.allocations, 1);
	/* 15 more slices of 256 bytes fill the 4 KiB page; the 16th stays. */
	KUNIT_ASSERT_EQ(test, vrampool_pool_alloc_run(a, 100, c, ARRAY_SIZE(c)), 15);
	for (i = 0; i < 15; i++) {
		KUNIT_EXPECT_PTR_EQ(test, c[i]->ppage, a->ppage);
		KUNIT_EXPECT_EQ(test, c[i]->slice.offset, 256 * (i + 1));
	}
	KUNIT_EXPECT_TRUE(test, !memchr_inv(c[15], 0, sizeof(*c[15])));
	KUNIT_EXPECT_EQ(test, sliced->stats.allocations, 16);
	KUNIT_EXPECT_EQ(test, sliced->stats.bytes_in_use, 1600);
	KUNIT_EXPECT_EQ(test, sliced->stats.padding, 16 * 156);
	KUNIT_EXPECT_EQ(test, vrampool_pool_alloc_run(c[14], 100, c + 15, 1), 0);
	vrampool_pool_free_run(c, 15);
	KUNIT_EXPECT_EQ(test, sliced->stats.allocations, 1);
	KUNIT_EXPECT_EQ(test, sliced->stats.padding, 156);
	KUNIT_EXPECT_EQ(test, a->ppage->live, 1);
	/* The page has its room back: the first fit is right after @a. */
	KUNIT_ASSERT_EQ(test, vrampool_pool_alloc_run(a, 100, c, 1), 1);
	KUNIT_EXPECT_EQ(test, c[0]->slice.offset, 256);
	vrampool_pool_free(c[0]);
	vrampool_pool_free(a);
	/* A type without the op: each allocation freed as vrampool_pool_free() frees it. */
	vrampool_pool_free_run(&x, 1);
	KUNIT_EXPECT_EQ(test, excl->stats.allocations, 0);
	KUNIT_EXPECT_EQ(test, excl->stats.bytes_in_use, 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_free_vram(excl), excl->stats.vram);
}

static struct kunit_case vrampool_pool_cases[] = {
	KUNIT_CASE_PARAM(pool_ops_dispatch, dispatch_gen_params),
	KUNIT_CASE_PARAM(zero_size_takes_no_page, dispatch_gen_params),
	KUNIT_CASE(sliced_first_fit_split_merge),
	KUNIT_CASE(sliced_accepts_and_cap),
	KUNIT_CASE_PARAM(sliced_near_page_edges, near_page_gen_params),
	KUNIT_CASE(exclusive_average_and_idle_checks),
	KUNIT_CASE(exclusive_idle_count_edges),
	KUNIT_CASE(exclusive_check_interval),
	KUNIT_CASE(exclusive_average_edges),
	KUNIT_CASE(direct_reclaim_order),
	KUNIT_CASE(buffers_out_of_space),
	KUNIT_CASE(sliced_order_after_cleanup),
	KUNIT_CASE(sliced_order_survives_index_wrap),
	KUNIT_CASE(exclusive_reuse_order),
	KUNIT_CASE(exclusive_new_page_goes_last),
	KUNIT_CASE(direct_slot_order),
	KUNIT_CASE(direct_reclaim_slot_order),
	KUNIT_CASE(persistent_reuse_order),
	KUNIT_CASE_PARAM(pool_order_differential, order_gen_params),
	KUNIT_CASE(exclusive_first_fit_is_the_walk),
	KUNIT_CASE(drop_then_destroy),
	KUNIT_CASE(free_vram_is_what_cleanup_gives),
	KUNIT_CASE(alloc_run_is_first_fit),
	KUNIT_CASE(alloc_run_declines),
	{}
};

static struct kunit_suite vrampool_pool_suite = {
	.name = "vrampool_pool",
	.test_cases = vrampool_pool_cases,
};

kunit_test_suite(vrampool_pool_suite);

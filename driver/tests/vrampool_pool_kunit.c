// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of each pool type's rules: sliced first fit, split and merge,
 * what a sliced pool accepts and its cap, the near-page rule at the edges
 * of u64; the exclusive pool's fixed-point running average, idle checks
 * and their interval; the direct pool's reclaim order; a full backing.
 *
 * The fake backing and the helpers: vrampool_pool_kunit.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_kunit.h"

static void sliced_first_fit_split_merge(struct kunit *test)
{
	struct fake_backing *f = fake_backing(test);
	struct vrampool_pool *pool = make_pool(test, f, SLICED(4096, 4096));
	struct vrampool_alloc *a, *b, *c, *d, *e;
	struct vrampool_pool_page *ppage;

	a = alloc_ok(test, pool, 1000);			/* [0, 1024) */
	b = alloc_ok(test, pool, 1000);			/* [1024, 2048) */
	ppage = a->ppage;
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(a), 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_padding(a), 24);
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(b), 1024);
	KUNIT_EXPECT_PTR_EQ(test, b->ppage, ppage);

	vrampool_pool_free(a);
	c = alloc_ok(test, pool, 256);			/* first fit: the freed hole */
	d = alloc_ok(test, pool, 768);			/* the rest of it, split off */
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(c), 0);
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(d), 256);
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
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(e), 0);

	/* All free, the holes merge into the whole page: a page-size slice fits it. */
	vrampool_pool_free(e);
	vrampool_pool_free(b);
	e = alloc_ok(test, pool, 4096);
	KUNIT_EXPECT_PTR_EQ(test, e->ppage, ppage);
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(e), 0);
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

static struct kunit_case vrampool_pool_cases[] = {
	KUNIT_CASE(sliced_first_fit_split_merge),
	KUNIT_CASE(sliced_accepts_and_cap),
	KUNIT_CASE_PARAM(sliced_near_page_edges, near_page_gen_params),
	KUNIT_CASE(exclusive_average_and_idle_checks),
	KUNIT_CASE(exclusive_idle_count_edges),
	KUNIT_CASE(exclusive_check_interval),
	KUNIT_CASE(exclusive_average_edges),
	KUNIT_CASE(direct_reclaim_order),
	KUNIT_CASE(buffers_out_of_space),
	{}
};

static struct kunit_suite vrampool_pool_suite = {
	.name = "vrampool_pool",
	.test_cases = vrampool_pool_cases,
};

kunit_test_suite(vrampool_pool_suite);

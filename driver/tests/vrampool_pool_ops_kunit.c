// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the pool operations as the rest of the driver calls
 * them: the dispatch to each type's operations, a zero-size allocation
 * that takes no page, the exclusive first fit against a walk of the free
 * pages, postclose's drop then destroy, and the free VRAM that reclaim
 * takes against what an explicit cleanup gives.
 *
 * The fake backing and the helpers: vrampool_pool_kunit.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_kunit.h"

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
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(a), 0);
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

static struct kunit_case vrampool_pool_ops_cases[] = {
	KUNIT_CASE_PARAM(pool_ops_dispatch, dispatch_gen_params),
	KUNIT_CASE_PARAM(zero_size_takes_no_page, dispatch_gen_params),
	KUNIT_CASE(exclusive_first_fit_is_the_walk),
	KUNIT_CASE(drop_then_destroy),
	KUNIT_CASE(free_vram_is_what_cleanup_gives),
	{}
};

static struct kunit_suite vrampool_pool_ops_suite = {
	.name = "vrampool_pool_ops",
	.test_cases = vrampool_pool_ops_cases,
};

kunit_test_suite(vrampool_pool_ops_suite);

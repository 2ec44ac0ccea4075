// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of allocation runs: vrampool_pool_alloc_run() and
 * vrampool_pool_free_run() against one allocation and one free at a time.
 *
 * The fake backing and the helpers: vrampool_pool_kunit.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_kunit.h"

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
		KUNIT_ASSERT_EQ_MSG(test, vrampool_alloc_offset(a[i]), vrampool_alloc_offset(b),
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
		KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(c[i]), 256 * (i + 1));
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
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(c[0]), 256);
	vrampool_pool_free(c[0]);
	vrampool_pool_free(a);
	/* A type without the op: each allocation freed as vrampool_pool_free() frees it. */
	vrampool_pool_free_run(&x, 1);
	KUNIT_EXPECT_EQ(test, excl->stats.allocations, 0);
	KUNIT_EXPECT_EQ(test, excl->stats.bytes_in_use, 0);
	KUNIT_EXPECT_EQ(test, vrampool_pool_free_vram(excl), excl->stats.vram);
}

static struct kunit_case vrampool_pool_run_cases[] = {
	KUNIT_CASE(alloc_run_is_first_fit),
	KUNIT_CASE(alloc_run_declines),
	{}
};

static struct kunit_suite vrampool_pool_run_suite = {
	.name = "vrampool_pool_run",
	.test_cases = vrampool_pool_run_cases,
};

kunit_test_suite(vrampool_pool_run_suite);

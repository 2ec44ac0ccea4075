// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of page order and page indices: the order each pool type
 * visits, reuses and reclaims its pages in, and how it numbers them (also
 * across the wrap of the page index).
 *
 * The fake backing and the helpers: vrampool_pool_kunit.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_kunit.h"

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
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(d), 2560);
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
	KUNIT_EXPECT_EQ(test, vrampool_alloc_offset(d), 0);

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

static struct kunit_case vrampool_pool_order_cases[] = {
	KUNIT_CASE(sliced_order_after_cleanup),
	KUNIT_CASE(sliced_order_survives_index_wrap),
	KUNIT_CASE(exclusive_reuse_order),
	KUNIT_CASE(exclusive_new_page_goes_last),
	KUNIT_CASE(direct_slot_order),
	KUNIT_CASE(direct_reclaim_slot_order),
	KUNIT_CASE(persistent_reuse_order),
	{}
};

static struct kunit_suite vrampool_pool_order_suite = {
	.name = "vrampool_pool_order",
	.test_cases = vrampool_pool_order_cases,
};

kunit_test_suite(vrampool_pool_order_suite);

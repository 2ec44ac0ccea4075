// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the slice index of sliced pages (vrampool_slices.c): it
 * must place each slice exactly where a drm_mm with DRM_MM_INSERT_LOW
 * would (at the start of the lowest-offset hole that fits), merge a freed
 * slice with the holes on both sides, and know the largest hole.
 *
 * The reference model is a byte map of a small page: a slice goes at the
 * first run of free bytes long enough, and the holes are its runs of free
 * bytes. Random sequences of inserts and removes are checked against it:
 * each offset, the refusals and the largest hole after every step, every
 * slice's extent and every hole after every step too, or only now and
 * then, so that slices placed in the tail stay pending a while (DOC:
 * pending slices); one sequence mostly removes the slice inserted last.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/sizes.h>

#include "vrampool_slices.h"

#define MODEL_PAGE	2048
#define MODEL_SLICES	160

struct model {
	struct kunit *test;
	struct vrampool_slices idx;
	bool used[MODEL_PAGE];
	struct vrampool_slice slice[MODEL_SLICES];
	u32 len[MODEL_SLICES];
	bool live[MODEL_SLICES];
	u32 nlive;
	u32 step;
};

/* The first run of @len free bytes, or -1. */
static int model_lowest_fit(const struct model *m, u32 len)
{
	u32 run = 0, i;

	for (i = 0; i < MODEL_PAGE; i++) {
		run = m->used[i] ? 0 : run + 1;
		if (run == len)
			return i + 1 - len;
	}
	return -1;
}

static u32 model_largest_hole(const struct model *m)
{
	u32 run = 0, best = 0, i;

	for (i = 0; i < MODEL_PAGE; i++) {
		run = m->used[i] ? 0 : run + 1;
		best = max(best, run);
	}
	return best;
}

static void model_mark(struct model *m, u64 offset, u32 len, bool used)
{
	u32 i;

	for (i = 0; i < len; i++) {
		KUNIT_ASSERT_NE_MSG(m->test, m->used[offset + i], used,
				    "step %u: byte %llu", m->step, offset + i);
		m->used[offset + i] = used;
	}
}

/* The index against the model: slices in offset order, their extents, holes. */
static void model_check(struct model *m)
{
	struct vrampool_slice *pos, *last = NULL;
	u64 at = 0, end, i;
	u32 count = 0, k;

	KUNIT_ASSERT_EQ_MSG(m->test, vrampool_slices_largest_hole(&m->idx),
			    model_largest_hole(m), "step %u", m->step);
	for (pos = vrampool_slices_first(&m->idx); pos; pos = vrampool_slices_next(pos)) {
		last = pos;
		KUNIT_ASSERT_GE_MSG(m->test, pos->offset, at, "step %u: out of order", m->step);
		for (i = at; i < pos->offset; i++)
			KUNIT_ASSERT_FALSE_MSG(m->test, m->used[i], "step %u: byte %llu",
					       m->step, i);
		k = pos - m->slice;
		KUNIT_ASSERT_TRUE_MSG(m->test, k < MODEL_SLICES && m->live[k], "step %u", m->step);
		end = vrampool_slices_end(&m->idx, pos);
		KUNIT_ASSERT_EQ_MSG(m->test, end - pos->offset, m->len[k], "step %u: slice %u",
				    m->step, k);
		at = end;
		count++;
	}
	for (i = at; i < MODEL_PAGE; i++)
		KUNIT_ASSERT_FALSE_MSG(m->test, m->used[i], "step %u: byte %llu", m->step, i);
	KUNIT_ASSERT_EQ_MSG(m->test, count, m->nlive, "step %u", m->step);
	KUNIT_ASSERT_PTR_EQ_MSG(m->test, m->idx.last, last, "step %u: the last slice", m->step);
}

static void model_insert(struct model *m, u32 len)
{
	int want = model_lowest_fit(m, len);
	u32 k;
	bool ok;

	for (k = 0; m->live[k]; k++)
		;
	ok = vrampool_slices_insert(&m->idx, &m->slice[k], len);
	KUNIT_ASSERT_EQ_MSG(m->test, ok, want >= 0, "step %u: %u bytes", m->step, len);
	if (!ok)
		return;
	KUNIT_ASSERT_EQ_MSG(m->test, m->slice[k].offset, (u64)want, "step %u: %u bytes",
			    m->step, len);
	model_mark(m, want, len, true);
	m->len[k] = len;
	m->live[k] = true;
	m->nlive++;
}

static void model_remove(struct model *m, u32 k)
{
	/* Its length, found in O(1) while it is the last pending one. */
	KUNIT_ASSERT_EQ_MSG(m->test, vrampool_slices_len(&m->idx, &m->slice[k]), m->len[k],
			    "step %u: slice %u", m->step, k);
	model_mark(m, m->slice[k].offset, m->len[k], false);
	KUNIT_ASSERT_EQ_MSG(m->test, vrampool_slices_remove(&m->idx, &m->slice[k]), m->len[k],
			    "step %u: slice %u", m->step, k);
	m->live[k] = false;
	m->nlive--;
}

/* The @nth live slice. */
static u32 model_nth_live(const struct model *m, u32 nth)
{
	u32 k;

	for (k = 0; k < MODEL_SLICES; k++)
		if (m->live[k] && !nth--)
			return k;
	return 0;
}

static struct model *model_new(struct kunit *test)
{
	struct model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->test = test;
	KUNIT_ASSERT_EQ(test, vrampool_slices_init(&m->idx, MODEL_PAGE, 0), 0);
	return m;
}

/*
 * Random inserts (lengths of 1 to 96 bytes, sometimes up to 600, so that
 * some find no hole) and removes, each checked against the model: its
 * offset or refusal and the largest hole at every step, the whole index
 * every @every steps (a walk links the pending slices: checking seldom
 * lets them pile up, DOC: pending slices). With @lifo, most removes take
 * the slice inserted last, as a runtime frees its temporaries.
 */
static void slices_random_run(struct kunit *test, u32 every, bool lifo)
{
	static const u64 seeds[] = { 1, 2, 15, 2026 };
	u32 s, r, len, k, newest = 0;
	struct rnd_state rnd;
	struct model *m;

	for (s = 0; s < ARRAY_SIZE(seeds); s++) {
		m = model_new(test);
		prandom_seed_state(&rnd, seeds[s]);
		for (m->step = 0; m->step < 4000; m->step++) {
			r = prandom_u32_state(&rnd) % 100;
			if (m->nlive < MODEL_SLICES && (r < 55 || !m->nlive)) {
				len = 1 + prandom_u32_state(&rnd) % (r < 5 ? 600 : 96);
				for (k = 0; m->live[k]; k++)
					;
				model_insert(m, len);
				if (m->live[k])
					newest = k;
			} else if (lifo && r < 90 && m->live[newest]) {
				model_remove(m, newest);
			} else {
				model_remove(m, model_nth_live(m, prandom_u32_state(&rnd) %
							       m->nlive));
			}
			KUNIT_ASSERT_EQ_MSG(m->test, vrampool_slices_largest_hole(&m->idx),
					    model_largest_hole(m), "step %u", m->step);
			if (m->step % every == 0)
				model_check(m);
		}
		while (m->nlive)
			model_remove(m, model_nth_live(m, 0));
		model_check(m);
		KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&m->idx), MODEL_PAGE);
	}
}

static void slices_random(struct kunit *test)
{
	slices_random_run(test, 1, false);
}

static void slices_random_pending(struct kunit *test)
{
	slices_random_run(test, 37, false);
	slices_random_run(test, 37, true);
}

/*
 * Slices placed in the tail stay pending, out of the tree, while only the
 * last one goes; a walk, or removing another, links them in order.
 */
static void slices_pending(struct kunit *test)
{
	struct model *m = model_new(test);
	u32 k;

	for (k = 0; k < 8; k++)
		model_insert(m, 100);			/* 0, 100, ... 700 */
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&m->idx.root));
	KUNIT_EXPECT_PTR_EQ(test, m->idx.pending, &m->slice[7]);
	model_remove(m, 7);
	model_remove(m, 6);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&m->idx.root));
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&m->idx), MODEL_PAGE - 600);
	model_insert(m, 50);				/* 600, pending */
	KUNIT_EXPECT_EQ(test, m->slice[6].offset, 600);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&m->idx.root));

	model_remove(m, 2);				/* not the last: all linked */
	KUNIT_EXPECT_NULL(test, m->idx.pending);
	KUNIT_EXPECT_PTR_EQ(test, m->idx.last, &m->slice[6]);
	model_check(m);
	model_insert(m, 100);				/* the hole at 200 */
	KUNIT_EXPECT_EQ(test, m->slice[2].offset, 200);
	KUNIT_EXPECT_NULL(test, m->idx.pending);
	model_insert(m, 10);				/* the tail: pending again */
	KUNIT_EXPECT_EQ(test, m->slice[7].offset, 650);
	KUNIT_EXPECT_PTR_EQ(test, m->idx.pending, &m->slice[7]);
	KUNIT_EXPECT_EQ(test, vrampool_slices_end(&m->idx, &m->slice[6]), 650);
	KUNIT_EXPECT_NULL(test, m->idx.pending);	/* linked to find the end */
	model_check(m);
	while (m->nlive)
		model_remove(m, model_nth_live(m, m->nlive - 1));
	model_check(m);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&m->idx), MODEL_PAGE);
}

/* A full page, an exact fit, a refusal that changes nothing, merges. */
static void slices_holes(struct kunit *test)
{
	struct model *m = model_new(test);
	u32 k;

	model_insert(m, MODEL_PAGE);			/* the whole page */
	model_check(m);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&m->idx), 0);
	model_insert(m, 1);				/* no room: refused */
	KUNIT_EXPECT_EQ(test, m->nlive, 1);
	model_remove(m, 0);
	model_check(m);

	for (k = 0; k < 8; k++)
		model_insert(m, 256);			/* 0, 256, ... 1792 */
	model_check(m);
	model_remove(m, 2);
	model_remove(m, 4);
	model_check(m);
	model_insert(m, 300);				/* no 300-byte hole */
	KUNIT_EXPECT_EQ(test, m->nlive, 6);
	model_remove(m, 3);				/* 512..1279 merged */
	model_check(m);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&m->idx), 768);
	model_insert(m, 300);
	KUNIT_EXPECT_EQ(test, m->slice[2].offset, 512);
	model_insert(m, 468);				/* the rest, exactly */
	KUNIT_EXPECT_EQ(test, m->slice[3].offset, 812);
	model_check(m);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&m->idx), 0);
}

/*
 * Offsets and sizes past 32 bits of bytes, in units of 4 KiB (DOC: slice
 * units): 2^28 units of a page of 1 TiB.
 */
static void slices_large(struct kunit *test)
{
	struct vrampool_slices idx;
	struct vrampool_slice a, b, c;
	u64 page = 1ULL << 40;

	KUNIT_ASSERT_EQ(test, vrampool_slices_init(&idx, page, 12), 0);
	KUNIT_ASSERT_TRUE(test, vrampool_slices_insert(&idx, &a, 1ULL << 39));
	KUNIT_ASSERT_TRUE(test, vrampool_slices_insert(&idx, &b, SZ_4K));
	KUNIT_EXPECT_EQ(test, vrampool_slices_offset(&idx, &b), 1ULL << 39);
	KUNIT_EXPECT_EQ(test, vrampool_slices_len(&idx, &a), 1ULL << 39);
	vrampool_slices_remove(&idx, &a);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&idx), page / 2);
	KUNIT_ASSERT_TRUE(test, vrampool_slices_insert(&idx, &c, page / 2));
	KUNIT_EXPECT_EQ(test, vrampool_slices_offset(&idx, &c), 0);
	KUNIT_EXPECT_EQ(test, vrampool_slices_end(&idx, &c), page / 2);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&idx), page / 2 - SZ_4K);
	vrampool_slices_remove(&idx, &b);
	vrampool_slices_remove(&idx, &c);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&idx), page);
	KUNIT_EXPECT_NULL(test, vrampool_slices_first(&idx));
}

/*
 * Lengths round up to the unit; a page must be a whole number of units,
 * fewer than 2^32; a request past the page is refused, never rounded into it.
 */
static void slices_units(struct kunit *test)
{
	struct vrampool_slices idx;
	struct vrampool_slice a, b;

	KUNIT_EXPECT_EQ(test, vrampool_slices_init(&idx, 1ULL << 40, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, vrampool_slices_init(&idx, (1ULL << 40) - 256, 8), 0);
	KUNIT_EXPECT_EQ(test, vrampool_slices_init(&idx, 4096 + 1, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, vrampool_slices_init(&idx, 1ULL << 40, 33), -EINVAL);

	KUNIT_ASSERT_EQ(test, vrampool_slices_init(&idx, 4096, 8), 0);
	KUNIT_EXPECT_FALSE(test, vrampool_slices_insert(&idx, &a, 4097));
	KUNIT_EXPECT_FALSE(test, vrampool_slices_insert(&idx, &a, U64_MAX));
	KUNIT_ASSERT_TRUE(test, vrampool_slices_insert(&idx, &a, 1));
	KUNIT_ASSERT_TRUE(test, vrampool_slices_insert(&idx, &b, 3840));
	KUNIT_EXPECT_EQ(test, vrampool_slices_len(&idx, &a), 256);
	KUNIT_EXPECT_EQ(test, vrampool_slices_offset(&idx, &b), 256);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&idx), 0);
	vrampool_slices_remove(&idx, &a);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&idx), 256);
	KUNIT_EXPECT_EQ(test, vrampool_slices_len(&idx, &b), 3840);
	vrampool_slices_remove(&idx, &b);
	KUNIT_EXPECT_EQ(test, vrampool_slices_largest_hole(&idx), 4096);
}

static struct kunit_case vrampool_slices_cases[] = {
	KUNIT_CASE(slices_holes),
	KUNIT_CASE(slices_large),
	KUNIT_CASE(slices_units),
	KUNIT_CASE(slices_random),
	KUNIT_CASE(slices_random_pending),
	KUNIT_CASE(slices_pending),
	{}
};

static struct kunit_suite vrampool_slices_suite = {
	.name = "vrampool_slices",
	.test_cases = vrampool_slices_cases,
};

kunit_test_suite(vrampool_slices_suite);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of how a FREE_BATCH finds a handle named twice
 * (vrampool_batch_free_first_repeat(), vrampool_batch_free.c): the lowest index
 * whose handle an earlier index holds, whatever the order, the gaps, the
 * number of copies or the handle values (0 and 0xffffffff included);
 * the batch's size when every handle differs. Checked against the
 * definition, pair by pair, on random batches too, and on handles that
 * all land in one slot of the hash set. And the spare records
 * a batch takes its records from (DOC: spare records, in
 * vrampool_alloc_cache.c): spares first and in the order a FREE_BATCH gave
 * them back, each zeroed, the rest new; at most %VRAMPOOL_SPARE_RECORDS
 * kept; none after a drain.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_batch_free.h"
#include "vrampool_client_types.h"

static u32 repeat_of(struct kunit *test, const u32 *handles, u32 count)
{
	u32 *set = kunit_kmalloc_array(test, vrampool_batch_free_set_size(count), sizeof(*set),
				       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, set);
	/* Scribbled: the set clears its own room. */
	memset(set, 0xa5, vrampool_batch_free_set_size(count) * sizeof(*set));
	return vrampool_batch_free_first_repeat(handles, count, set);
}

/* The definition: the lowest i with handles[j] == handles[i] for a j < i. */
static u32 repeat_by_pairs(const u32 *handles, u32 count)
{
	u32 i, j;

	for (i = 0; i < count; i++)
		for (j = 0; j < i; j++)
			if (handles[i] == handles[j])
				return i;
	return count;
}

static void distinct_batches(struct kunit *test)
{
	static const u32 one[] = { 7 };
	static const u32 up[] = { 1, 2, 3, 4, 5 };
	static const u32 down[] = { 9, 7, 5, 3, 1, 0, 0xffffffffu };

	KUNIT_EXPECT_EQ(test, 0u, repeat_of(test, NULL, 0));
	KUNIT_EXPECT_EQ(test, 1u, repeat_of(test, one, 1));
	KUNIT_EXPECT_EQ(test, 5u, repeat_of(test, up, 5));
	KUNIT_EXPECT_EQ(test, 7u, repeat_of(test, down, 7));
}

static void first_repeat_in_batch_order(struct kunit *test)
{
	static const u32 adjacent[] = { 4, 4 };
	static const u32 last[] = { 1, 2, 3, 1 };
	/* 5 repeats at 3, 2 at 4: the lower index wins, not the lower handle. */
	static const u32 two[] = { 5, 2, 6, 5, 2 };
	static const u32 later_pair_first[] = { 9, 8, 8, 9 };
	static const u32 three_copies[] = { 3, 1, 3, 3 };
	static const u32 extremes[] = { 0xffffffffu, 0, 0xffffffffu, 0 };

	KUNIT_EXPECT_EQ(test, 1u, repeat_of(test, adjacent, 2));
	KUNIT_EXPECT_EQ(test, 3u, repeat_of(test, last, 4));
	KUNIT_EXPECT_EQ(test, 3u, repeat_of(test, two, 5));
	KUNIT_EXPECT_EQ(test, 2u, repeat_of(test, later_pair_first, 4));
	KUNIT_EXPECT_EQ(test, 2u, repeat_of(test, three_copies, 4));
	KUNIT_EXPECT_EQ(test, 2u, repeat_of(test, extremes, 4));
}

/* An increasing run (the pass that needs no hash set) and then what ends it. */
static void increasing_then_not(struct kunit *test)
{
	static const u32 equal_last[] = { 1, 2, 3, 3 };
	static const u32 back_to_first[] = { 10, 11, 12, 13, 10 };
	static const u32 drop_no_repeat[] = { 5, 6, 7, 1 };
	static const u32 to_the_top[] = { 1, 0x7fffffffu, 0xfffffffeu, 0xffffffffu };

	KUNIT_EXPECT_EQ(test, 3u, repeat_of(test, equal_last, 4));
	KUNIT_EXPECT_EQ(test, 4u, repeat_of(test, back_to_first, 5));
	KUNIT_EXPECT_EQ(test, 4u, repeat_of(test, drop_no_repeat, 4));
	KUNIT_EXPECT_EQ(test, 4u, repeat_of(test, to_the_top, 4));
}

/* Increasing batches, as ALLOC_BATCH answers them, with one handle copied in. */
static void increasing_batches_with_a_copy(struct kunit *test)
{
	struct rnd_state rnd;
	u32 *h = kunit_kcalloc(test, DRM_VRAMPOOL_BATCH_MAX, sizeof(*h), GFP_KERNEL);
	u32 round, n, i, from, to;

	KUNIT_ASSERT_NOT_NULL(test, h);
	prandom_seed_state(&rnd, 0x1ace);
	for (round = 0; round < 200; round++) {
		n = prandom_u32_state(&rnd) % DRM_VRAMPOOL_BATCH_MAX + 2;
		n = min_t(u32, n, DRM_VRAMPOOL_BATCH_MAX);
		for (i = 0; i < n; i++)
			h[i] = 100 + i * (1 + round % 3);
		from = prandom_u32_state(&rnd) % n;
		to = prandom_u32_state(&rnd) % n;
		if (round % 4)		/* one in four stays increasing */
			h[to] = h[from];
		KUNIT_EXPECT_EQ_MSG(test, repeat_by_pairs(h, n), repeat_of(test, h, n),
				    "round %u, %u handles, %u copied to %u", round, n, from, to);
	}
}

/* Random batches up to the maximum, from a small handle range: many repeats. */
static void random_batches_match_the_definition(struct kunit *test)
{
	struct rnd_state rnd;
	u32 *h = kunit_kcalloc(test, DRM_VRAMPOOL_BATCH_MAX, sizeof(*h), GFP_KERNEL);
	u32 round, n, i, range;

	KUNIT_ASSERT_NOT_NULL(test, h);
	prandom_seed_state(&rnd, 0x5eed);
	for (round = 0; round < 200; round++) {
		n = prandom_u32_state(&rnd) % DRM_VRAMPOOL_BATCH_MAX + 1;
		range = round % 2 ? 4 * n : 0xffffffffu;
		for (i = 0; i < n; i++)
			h[i] = prandom_u32_state(&rnd) % range;
		KUNIT_EXPECT_EQ_MSG(test, repeat_by_pairs(h, n), repeat_of(test, h, n),
				    "round %u, %u handles", round, n);
	}
}

/* Marks @a as used, so that a record handed out again must have been zeroed. */
/*
 * Handles chosen to land in one slot of the hash set, the worst case: still
 * the definition's answer, with and without a copy among them.
 */
static void colliding_handles(struct kunit *test)
{
	const u32 n = 300, bits = ilog2(vrampool_batch_free_set_size(n));
	u32 *h = kunit_kcalloc(test, n, sizeof(*h), GFP_KERNEL);
	u32 i = 0, v;

	KUNIT_ASSERT_NOT_NULL(test, h);
	/* Decreasing, so that the one pass does not settle it. */
	for (v = U32_MAX; i < n; v--)
		if (hash_32(v, bits) == 5)
			h[i++] = v;
	KUNIT_EXPECT_EQ(test, n, repeat_of(test, h, n));
	h[n - 1] = h[n / 2];
	KUNIT_EXPECT_EQ(test, n - 1, repeat_of(test, h, n));
	h[7] = h[3];
	KUNIT_EXPECT_EQ(test, 7u, repeat_of(test, h, n));
}

static void scribble(struct vrampool_alloc *a)
{
	memset(a, 0x5a, sizeof(*a));
}

static bool is_zero(const struct vrampool_alloc *a)
{
	return !memchr_inv(a, 0, sizeof(*a));
}

/* A batch's records: the spares a FREE_BATCH gave back, in its order, then new ones. */
static void spares_first_in_order(struct kunit *test)
{
	struct vrampool_client *client = kunit_kzalloc(test, sizeof(*client), GFP_KERNEL);
	void *freed[4], *got[6];
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, client);
	KUNIT_ASSERT_TRUE(test, vrampool_alloc_cache_get_bulk(client, 4, freed));
	KUNIT_EXPECT_EQ(test, 0u, client->nr_spare);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_TRUE(test, is_zero(freed[i]));
		scribble(freed[i]);
	}
	vrampool_alloc_cache_put_bulk(client, freed, 4);
	KUNIT_EXPECT_EQ(test, 4u, client->nr_spare);

	KUNIT_ASSERT_TRUE(test, vrampool_alloc_cache_get_bulk(client, 6, got));
	KUNIT_EXPECT_EQ(test, 0u, client->nr_spare);
	KUNIT_EXPECT_NULL(test, client->spare);
	for (i = 0; i < 6; i++) {
		if (i < 4)
			KUNIT_EXPECT_PTR_EQ_MSG(test, freed[i], got[i], "record %u", i);
		KUNIT_EXPECT_TRUE_MSG(test, is_zero(got[i]), "record %u not zeroed", i);
	}
	vrampool_alloc_cache_put_bulk(client, got, 6);
	KUNIT_EXPECT_EQ(test, 6u, client->nr_spare);
	vrampool_alloc_cache_drain(client);
	KUNIT_EXPECT_EQ(test, 0u, client->nr_spare);
	KUNIT_EXPECT_NULL(test, client->spare);
}

/* No more than VRAMPOOL_SPARE_RECORDS are kept, one by one or in bulk; ALLOC takes the last. */
static void spares_are_bounded(struct kunit *test)
{
	struct vrampool_client *client = kunit_kzalloc(test, sizeof(*client), GFP_KERNEL);
	const u32 n = VRAMPOOL_SPARE_RECORDS + 8;
	struct vrampool_alloc *a, *last = NULL;
	void **recs;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, client);
	recs = kunit_kcalloc(test, n, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);

	for (i = 0; i < n; i++) {
		a = vrampool_alloc_cache_get(client);
		KUNIT_ASSERT_NOT_NULL(test, a);
		if (i == VRAMPOOL_SPARE_RECORDS - 1)
			last = a;
		vrampool_alloc_cache_put(client, a);
		/* Each is the spare the next get takes: keep them apart. */
		recs[i] = vrampool_alloc_cache_get(client);
		KUNIT_ASSERT_PTR_EQ(test, (void *)a, recs[i]);
	}
	for (i = 0; i < n; i++)
		vrampool_alloc_cache_put(client, recs[i]);
	KUNIT_EXPECT_EQ(test, (u32)VRAMPOOL_SPARE_RECORDS, client->nr_spare);
	/* The last one kept is the first taken. */
	KUNIT_EXPECT_PTR_EQ(test, last, vrampool_alloc_cache_get(client));
	vrampool_alloc_cache_put(client, last);

	KUNIT_ASSERT_TRUE(test, vrampool_alloc_cache_get_bulk(client, n, recs));
	KUNIT_EXPECT_EQ(test, 0u, client->nr_spare);
	vrampool_alloc_cache_put_bulk(client, recs, n);
	KUNIT_EXPECT_EQ(test, (u32)VRAMPOOL_SPARE_RECORDS, client->nr_spare);
	vrampool_alloc_cache_drain(client);
	KUNIT_EXPECT_EQ(test, 0u, client->nr_spare);
}

static struct kunit_case vrampool_batch_cases[] = {
	KUNIT_CASE(distinct_batches),
	KUNIT_CASE(first_repeat_in_batch_order),
	KUNIT_CASE(random_batches_match_the_definition),
	KUNIT_CASE(colliding_handles),
	KUNIT_CASE(increasing_then_not),
	KUNIT_CASE(increasing_batches_with_a_copy),
	KUNIT_CASE(spares_first_in_order),
	KUNIT_CASE(spares_are_bounded),
	{}
};

static struct kunit_suite vrampool_batch_suite = {
	.name = "vrampool_batch",
	.test_cases = vrampool_batch_cases,
};

kunit_test_suite(vrampool_batch_suite);

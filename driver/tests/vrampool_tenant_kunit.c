// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of a tenant's charges (vrampool_tenant.c, DOC: tenants):
 * each limit is tested and charged in one step, a refused charge leaves
 * the sum as it was, a batch's allocations are granted up to the limit,
 * a limit below what is held refuses without taking anything, and the VRAM
 * sum is overflow-checked (a size near 2^64 is refused, never wrapped).
 *
 * The tenant is a bare struct: charging touches its counters alone.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/sizes.h>

#include "vrampool_tenant.h"

static struct vrampool_tenant *fake_tenant(struct kunit *test)
{
	struct vrampool_tenant *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* Up to the quota exactly; past it refused, the sum unchanged; 0 is no quota. */
static void vram_quota(struct kunit *test)
{
	struct vrampool_tenant *t = fake_tenant(test);

	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_vram(t, 3 * SZ_1M, 4 * SZ_1M));
	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_vram(t, SZ_1M, 4 * SZ_1M));
	KUNIT_EXPECT_FALSE(test, vrampool_tenant_charge_vram(t, SZ_4K, 4 * SZ_1M));
	KUNIT_EXPECT_EQ(test, vrampool_tenant_vram(t), 4 * SZ_1M);
	/* Lowered below what is held: refused, nothing taken. */
	KUNIT_EXPECT_FALSE(test, vrampool_tenant_charge_vram(t, SZ_4K, SZ_1M));
	KUNIT_EXPECT_EQ(test, vrampool_tenant_vram(t), 4 * SZ_1M);
	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_vram(t, SZ_4K, 0));
	vrampool_tenant_uncharge_vram(t, SZ_4K);
	vrampool_tenant_uncharge_vram(t, 4 * SZ_1M);
	KUNIT_EXPECT_EQ(test, vrampool_tenant_vram(t), 0);
}

/* A sum past 2^64 - 1 is refused with or without a quota, never wrapped. */
static void vram_overflow(struct kunit *test)
{
	struct vrampool_tenant *t = fake_tenant(test);

	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_vram(t, SZ_1M, 0));
	KUNIT_EXPECT_FALSE(test, vrampool_tenant_charge_vram(t, U64_MAX - SZ_4K, 0));
	KUNIT_EXPECT_FALSE(test, vrampool_tenant_charge_vram(t, U64_MAX - SZ_4K, 8 * SZ_1M));
	KUNIT_EXPECT_EQ(test, vrampool_tenant_vram(t), SZ_1M);
}

/* A batch is granted what is left below the limit, and nothing at it. */
static void allocations_up_to_the_limit(struct kunit *test)
{
	struct vrampool_tenant *t = fake_tenant(test);

	KUNIT_EXPECT_EQ(test, vrampool_tenant_charge_allocations(t, 6, 10), 6);
	KUNIT_EXPECT_EQ(test, vrampool_tenant_charge_allocations(t, 6, 10), 4);
	KUNIT_EXPECT_EQ(test, vrampool_tenant_charge_allocations(t, 1, 10), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->allocations), 10);
	/* A limit lowered below the count grants nothing and takes nothing. */
	KUNIT_EXPECT_EQ(test, vrampool_tenant_charge_allocations(t, 1, 4), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->allocations), 10);
	vrampool_tenant_uncharge_allocations(t, 3);
	KUNIT_EXPECT_EQ(test, vrampool_tenant_charge_allocations(t, 64, U32_MAX), 64);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->allocations), 71);
}

static void pages_up_to_the_limit(struct kunit *test)
{
	struct vrampool_tenant *t = fake_tenant(test);

	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_page(t, 2));
	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_page(t, 2));
	KUNIT_EXPECT_FALSE(test, vrampool_tenant_charge_page(t, 2));
	vrampool_tenant_uncharge_page(t);
	KUNIT_EXPECT_TRUE(test, vrampool_tenant_charge_page(t, 2));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pages), 2);
}

static struct kunit_case vrampool_tenant_cases[] = {
	KUNIT_CASE(vram_quota),
	KUNIT_CASE(vram_overflow),
	KUNIT_CASE(allocations_up_to_the_limit),
	KUNIT_CASE(pages_up_to_the_limit),
	{}
};

static struct kunit_suite vrampool_tenant_suite = {
	.name = "vrampool_tenant",
	.test_cases = vrampool_tenant_cases,
};

kunit_test_suite(vrampool_tenant_suite);

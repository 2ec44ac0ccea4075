// SPDX-License-Identifier: GPL-2.0-only
/*
 * userspace/lib/kcompat/, the kernel headers the shared code (common/) is
 * built against in userspace: each arithmetic helper against the kernel's
 * definition, evaluated here another way (a 128-bit product by shift and
 * add, a bit scan by a loop), at the edges and on random operands. Built
 * for x86_64 and for i386, where mul_u64_u64_shr() has no 128-bit type to
 * lean on.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stdint.h>

#include "host_harness.h"

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/overflow.h>

struct u128_parts {
	uint64_t hi, lo;
};

/* @a * @b, one bit of @b at a time. */
static struct u128_parts product(uint64_t a, uint64_t b)
{
	struct u128_parts p = { 0, 0 };
	int bit;

	for (bit = 63; bit >= 0; bit--) {
		p.hi = p.hi << 1 | p.lo >> 63;
		p.lo <<= 1;
		if (b >> bit & 1) {
			p.lo += a;
			p.hi += p.lo < a;	/* the carry */
		}
	}
	return p;
}

static uint64_t product_shr(uint64_t a, uint64_t b, unsigned int shift)
{
	struct u128_parts p = product(a, b);

	if (shift >= 64)
		return p.hi >> (shift - 64);
	if (!shift)
		return p.lo;
	return p.hi << (64 - shift) | p.lo >> shift;
}

/*
 * The helper under test, kept out of line: inlined into a TEST() body, its
 * locals would live across the harness's setjmp() (-Wclobbered).
 */
static __attribute__((noinline)) uint64_t kernel_mul_shr(uint64_t a, uint64_t b,
							  unsigned int shift)
{
	return mul_u64_u64_shr(a, b, shift);
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const uint64_t edges[] = {
	0, 1, 2, 3, 0xffffffffULL, 0x100000000ULL, 0x100000001ULL,
	0x8000000000000000ULL, 0x7fffffffffffffffULL, 0xfffffffffffffffeULL,
	UINT64_MAX, 1ULL << 61, 3ULL << 61, 0x5a5a5a5a5a5a5a5aULL,
};

TEST(limits_and_bits)
{
	EXPECT_EQ(8U, sizeof(U64_MAX));
	EXPECT_EQ(UINT64_MAX, U64_MAX);
	EXPECT_EQ(UINT32_MAX, U32_MAX);
	EXPECT_EQ(0x8000000000000000ULL, BIT_ULL(63));
	EXPECT_EQ(8U, sizeof(BIT_ULL(0)));
}

TEST(mul_u64_u64_shr_edges)
{
	unsigned int i, j, shift;

	for (i = 0; i < ARRAY_SIZE(edges); i++)
		for (j = 0; j < ARRAY_SIZE(edges); j++)
			for (shift = 0; shift < 128; shift++)
				ASSERT_EQ(product_shr(edges[i], edges[j], shift),
					  kernel_mul_shr(edges[i], edges[j], shift))
					TH_LOG("%#jx * %#jx >> %u", (uintmax_t)edges[i],
					       (uintmax_t)edges[j], shift);
}

TEST(mul_u64_u64_shr_random)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL, a, b;
	unsigned int i, shift;

	for (i = 0; i < 200000; i++) {
		a = next_random(&s) >> (next_random(&s) % 64);
		b = next_random(&s) >> (next_random(&s) % 64);
		shift = next_random(&s) % 128;
		ASSERT_EQ(product_shr(a, b, shift), kernel_mul_shr(a, b, shift))
			TH_LOG("%#jx * %#jx >> %u", (uintmax_t)a, (uintmax_t)b, shift);
	}
}

TEST(fls64_every_bit)
{
	uint64_t s = 12345, x;
	int bit, want;

	EXPECT_EQ(0, fls64(0));
	for (bit = 0; bit < 64; bit++) {
		EXPECT_EQ(bit + 1, fls64(1ULL << bit));
		EXPECT_EQ(bit + 1, fls64((1ULL << bit) | (next_random(&s) & ((1ULL << bit) - 1))));
	}
	for (bit = 0; bit < 10000; bit++) {
		x = next_random(&s) >> (next_random(&s) % 64);
		for (want = 0; want < 64 && x >> want; want++)
			;
		ASSERT_EQ(want, fls64(x));
	}
}

TEST(check_overflow)
{
	u64 d;

	EXPECT_FALSE(check_add_overflow((u64)U64_MAX - 1, (u64)1, &d));
	EXPECT_EQ(U64_MAX, d);
	EXPECT_TRUE(check_add_overflow((u64)U64_MAX, (u64)2, &d));
	EXPECT_EQ(1U, d);	/* wrapped */
	EXPECT_TRUE(check_sub_overflow((u64)1, (u64)2, &d));
	EXPECT_EQ(U64_MAX, d);
	EXPECT_FALSE(check_mul_overflow((u64)U32_MAX, (u64)U32_MAX + 2, &d));
	EXPECT_EQ(U64_MAX, d);
	EXPECT_TRUE(check_mul_overflow((u64)1 << 32, (u64)1 << 32, &d));
	EXPECT_EQ(0U, d);
}

TEST(div64)
{
	unsigned int i, j;
	u64 rem;
	u32 rem32;

	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		for (j = 0; j < ARRAY_SIZE(edges); j++) {
			if (!edges[j])
				continue;
			EXPECT_EQ(edges[i] / edges[j], div64_u64_rem(edges[i], edges[j], &rem));
			EXPECT_EQ(edges[i] % edges[j], rem);
			EXPECT_EQ(edges[i] / edges[j], div64_u64(edges[i], edges[j]));
		}
		EXPECT_EQ(edges[i] / 23, div_u64_rem(edges[i], 23, &rem32));
		EXPECT_EQ(edges[i] % 23, rem32);
		EXPECT_EQ(edges[i] / 7, div_u64(edges[i], 7));
	}
}

TEST_HARNESS_MAIN

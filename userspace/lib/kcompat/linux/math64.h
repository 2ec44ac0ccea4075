/* SPDX-License-Identifier: MIT */
/*
 * <linux/math64.h> for userspace builds of common/ (see ../README). A
 * userspace compiler has u64 division on every target, so the divisions
 * are plain C; mul_u64_u64_shr() is built from 32x32-bit products, so that
 * it needs no 128-bit type (there is none with -m32).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_MATH64_H
#define VRAMPOOL_KCOMPAT_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* (@a * @b) >> @shift, the product taken in 128 bits; @shift below 128. */
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	u64 a_lo = (u32)a, a_hi = a >> 32, b_lo = (u32)b, b_hi = b >> 32;
	u64 ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo;
	/* Bits 32 to 95 of the product, carries included: below 3 * 2^32. */
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;
	u64 lo = (mid << 32) | (u32)ll;
	u64 hi = a_hi * b_hi + (lh >> 32) + (hl >> 32) + (mid >> 32);

	if (shift >= 64)
		return hi >> (shift - 64);
	if (!shift)
		return lo;
	return (hi << (64 - shift)) | (lo >> shift);
}

#endif /* VRAMPOOL_KCOMPAT_LINUX_MATH64_H */

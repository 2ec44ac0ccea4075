/* SPDX-License-Identifier: MIT */
/*
 * <linux/bitops.h> for userspace builds of common/ (see ../README).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_BITOPS_H
#define VRAMPOOL_KCOMPAT_LINUX_BITOPS_H

#include <linux/bits.h>
#include <linux/types.h>

/* The last (most significant) set bit, counting from 1; 0 when @x is 0. */
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#endif /* VRAMPOOL_KCOMPAT_LINUX_BITOPS_H */

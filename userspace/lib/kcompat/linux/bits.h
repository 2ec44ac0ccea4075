/* SPDX-License-Identifier: MIT */
/*
 * <linux/bits.h> for userspace builds of common/ (see ../README).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_BITS_H
#define VRAMPOOL_KCOMPAT_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

#endif /* VRAMPOOL_KCOMPAT_LINUX_BITS_H */

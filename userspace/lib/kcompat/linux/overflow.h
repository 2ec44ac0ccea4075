/* SPDX-License-Identifier: MIT */
/*
 * <linux/overflow.h> for userspace builds of common/ (see ../README): the
 * kernel's check_*_overflow() are the compilers' type-generic builtins too,
 * without the kernel's extra type checks (the kernel build does those).
 * Each stores the wrapped result in *@d and is true when it wrapped.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_OVERFLOW_H
#define VRAMPOOL_KCOMPAT_LINUX_OVERFLOW_H

#include <linux/limits.h>

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

#endif /* VRAMPOOL_KCOMPAT_LINUX_OVERFLOW_H */

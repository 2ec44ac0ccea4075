/* SPDX-License-Identifier: MIT */
/*
 * The kernel types and helpers that the shared layout code
 * (common/vrampool_layout.c) uses, for building it in userspace.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KERNEL_COMPAT_H
#define VRAMPOOL_KERNEL_COMPAT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>

typedef __u32 u32;
typedef __u64 u64;
typedef unsigned __int128 u128;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Kernel-only: exports to the KUnit tests. */
#define EXPORT_SYMBOL_IF_KUNIT(symbol) extern int vrampool_no_export_

#endif /* VRAMPOOL_KERNEL_COMPAT_H */

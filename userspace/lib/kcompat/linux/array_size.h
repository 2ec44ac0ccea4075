/* SPDX-License-Identifier: MIT */
/*
 * <linux/array_size.h> for userspace builds of common/ (see ../README).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_ARRAY_SIZE_H
#define VRAMPOOL_KCOMPAT_LINUX_ARRAY_SIZE_H

/* The kernel's also refuses a pointer at build time; the kernel build checks that. */
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

#endif /* VRAMPOOL_KCOMPAT_LINUX_ARRAY_SIZE_H */

/* SPDX-License-Identifier: MIT */
/*
 * <linux/types.h> for userspace builds of common/ (see ../README): the uapi
 * header, plus the kernel's short type names and bool.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_TYPES_H
#define VRAMPOOL_KCOMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#endif /* VRAMPOOL_KCOMPAT_LINUX_TYPES_H */

/* SPDX-License-Identifier: MIT */
/*
 * <linux/limits.h> for userspace builds of common/ (see ../README): the uapi
 * header, plus the kernel's fixed-width limits.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_LIMITS_H
#define VRAMPOOL_KCOMPAT_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#endif /* VRAMPOOL_KCOMPAT_LINUX_LIMITS_H */

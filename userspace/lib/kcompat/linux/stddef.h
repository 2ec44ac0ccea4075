/* SPDX-License-Identifier: MIT */
/*
 * <linux/stddef.h> for userspace builds of common/ (see ../README): the uapi
 * header, plus NULL and offsetof() from the C library's <stddef.h>.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_STDDEF_H
#define VRAMPOOL_KCOMPAT_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#endif /* VRAMPOOL_KCOMPAT_LINUX_STDDEF_H */

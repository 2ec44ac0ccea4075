/* SPDX-License-Identifier: MIT */
/*
 * <linux/string.h> for userspace builds of common/ (see ../README): the C
 * library's memcpy(), memset() and friends.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_STRING_H
#define VRAMPOOL_KCOMPAT_LINUX_STRING_H

#include <string.h>

#endif /* VRAMPOOL_KCOMPAT_LINUX_STRING_H */

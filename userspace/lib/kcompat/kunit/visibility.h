/* SPDX-License-Identifier: MIT */
/*
 * <kunit/visibility.h> for userspace builds of common/ (see ../README): the
 * kernel without KUnit, except that what KUnit would see stays visible, for
 * the host tests.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_KUNIT_VISIBILITY_H
#define VRAMPOOL_KCOMPAT_KUNIT_VISIBILITY_H

#include <linux/export.h>

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)	EXPORT_SYMBOL(symbol)

#endif /* VRAMPOOL_KCOMPAT_KUNIT_VISIBILITY_H */

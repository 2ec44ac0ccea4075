/* SPDX-License-Identifier: MIT */
/*
 * <linux/export.h> for userspace builds of common/ (see ../README): there
 * are no module exports in userspace; the library's link decides what is
 * visible. Each macro still expands to a declaration, so that the ";" after
 * it is not an empty one at file scope.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_KCOMPAT_LINUX_EXPORT_H
#define VRAMPOOL_KCOMPAT_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)	extern int vrampool_kcompat_no_export_
#define EXPORT_SYMBOL_GPL(sym)	extern int vrampool_kcompat_no_export_

#endif /* VRAMPOOL_KCOMPAT_LINUX_EXPORT_H */

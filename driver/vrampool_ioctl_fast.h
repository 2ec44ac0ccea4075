/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_IOCTL_FAST_H_
#define _VRAMPOOL_IOCTL_FAST_H_

#include <linux/types.h>

struct drm_file;

bool vrampool_ioctl_fast(struct drm_file *file, unsigned int cmd, unsigned long arg, long *ret);

#endif /* _VRAMPOOL_IOCTL_FAST_H_ */

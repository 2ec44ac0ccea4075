/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_BATCH_FREE_H_
#define _VRAMPOOL_BATCH_FREE_H_

#include <linux/types.h>

#include <kunit/visibility.h>

struct drm_device;
struct drm_file;

int vrampool_free_batch_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#if IS_ENABLED(CONFIG_KUNIT)
u32 vrampool_batch_free_first_repeat(const u32 *handles, u32 count, u64 *keys);
#endif

#endif /* _VRAMPOOL_BATCH_FREE_H_ */

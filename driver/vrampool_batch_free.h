/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_BATCH_FREE_H_
#define _VRAMPOOL_BATCH_FREE_H_

#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include <kunit/visibility.h>

struct drm_device;
struct drm_file;

int vrampool_free_batch_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/**
 * vrampool_batch_free_set_size() - slots of the hash set that finds repeated handles
 * @count: the batch's handles, at most %DRM_VRAMPOOL_BATCH_MAX
 *
 * Return: a power of two at least twice @count (and 2), so that the set is
 * at most half full.
 */
static inline u32 vrampool_batch_free_set_size(u32 count)
{
	return roundup_pow_of_two(max(2 * count, 2u));
}

#if IS_ENABLED(CONFIG_KUNIT)
u32 vrampool_batch_free_first_repeat(const u32 *handles, u32 count, u32 *set);
#endif

#endif /* _VRAMPOOL_BATCH_FREE_H_ */

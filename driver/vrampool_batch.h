/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_BATCH_H_
#define _VRAMPOOL_BATCH_H_

struct drm_device;
struct drm_file;

int vrampool_alloc_batch_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _VRAMPOOL_BATCH_H_ */

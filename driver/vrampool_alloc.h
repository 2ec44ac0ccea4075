/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_ALLOC_H_
#define _VRAMPOOL_ALLOC_H_

struct drm_device;
struct drm_file;

int vrampool_alloc_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_free_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_cleanup_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_set_persistent_mode_ioctl(struct drm_device *drm, void *data,
				       struct drm_file *file);

#endif /* _VRAMPOOL_ALLOC_H_ */

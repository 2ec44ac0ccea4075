/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_INSTALL_H_
#define _VRAMPOOL_INSTALL_H_

struct drm_device;
struct drm_file;

int vrampool_pool_install_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_pool_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _VRAMPOOL_INSTALL_H_ */

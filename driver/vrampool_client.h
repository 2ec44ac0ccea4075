/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_CLIENT_H_
#define _VRAMPOOL_CLIENT_H_

#include "vrampool_client_types.h"

struct drm_device;
struct drm_file;
struct drm_printer;

int vrampool_client_open(struct drm_device *drm, struct drm_file *file);
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file);
void vrampool_client_show_fdinfo(struct drm_printer *p, struct drm_file *file);
void vrampool_client_cleanup(struct vrampool_client *client);

int vrampool_pool_install_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_pool_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _VRAMPOOL_CLIENT_H_ */

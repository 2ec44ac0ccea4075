/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DEVICE_H_
#define _VRAMPOOL_DEVICE_H_

#include <linux/container_of.h>
#include <linux/types.h>

#include "vrampool_device_types.h"

struct device;
struct drm_device;
struct drm_driver;
struct drm_file;
struct iosys_map;

static inline struct vrampool_device *to_vrampool_device(struct drm_device *drm)
{
	return container_of(drm, struct vrampool_device, drm);
}

int vrampool_device_props_init(struct device *dev, u64 vram_size,
			       struct vrampool_device_props *props);
struct vrampool_device *
vrampool_device_create(struct device *parent, const struct drm_driver *driver,
		       enum vrampool_vram_backend backend,
		       const struct vrampool_device_props *props,
		       const struct iosys_map *vram, resource_size_t bus_base);
void vrampool_device_fini(struct vrampool_device *vdev);

int vrampool_get_param_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _VRAMPOOL_DEVICE_H_ */

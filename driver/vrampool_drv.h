/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DRV_H_
#define _VRAMPOOL_DRV_H_

#include <drm/drm_print.h>

#include "vrampool_device_types.h"

#define DRIVER_NAME	"vrampool"
#define DRIVER_DESC	"VRAM carved into memory pools for compute runtimes"
#define DRIVER_DATE	"20261129"
#define DRIVER_MAJOR	1
#define DRIVER_MINOR	0

extern const struct drm_driver vrampool_drm_driver;

static inline struct vrampool_device *to_vrampool_device(struct drm_device *drm)
{
	return container_of(drm, struct vrampool_device, drm);
}

/*
 * vrampool_ioctl_check() - true when an ioctl argument check fails; under
 * drm.debug the failing condition is logged with its source location, so a
 * runtime author can see why an ioctl said EINVAL.
 */
#define vrampool_ioctl_check(vdev, cond) \
	((cond) && (drm_dbg(&(vdev)->drm, "ioctl check failed at %s:%d: %s\n", \
			    __FILE__, __LINE__, #cond), 1))

#endif /* _VRAMPOOL_DRV_H_ */

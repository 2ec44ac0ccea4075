/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DEVICE_H_
#define _VRAMPOOL_DEVICE_H_

#include "vrampool_device_types.h"

struct device;

int vrampool_props_check(struct device *dev, const struct vrampool_device_props *props);
int vrampool_device_init(struct vrampool_device *vdev, enum vrampool_vram_backend backend,
			 const struct vrampool_device_props *props);
void vrampool_device_fini(struct vrampool_device *vdev);
u64 vrampool_vram_in_use(struct vrampool_device *vdev);

#endif /* _VRAMPOOL_DEVICE_H_ */

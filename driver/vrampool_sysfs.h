/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_SYSFS_H_
#define _VRAMPOOL_SYSFS_H_

struct vrampool_device;

int vrampool_sysfs_init(struct vrampool_device *vdev);

#endif /* _VRAMPOOL_SYSFS_H_ */

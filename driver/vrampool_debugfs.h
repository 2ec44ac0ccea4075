/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DEBUGFS_H_
#define _VRAMPOOL_DEBUGFS_H_

struct vrampool_device;

#if IS_ENABLED(CONFIG_DEBUG_FS)
void vrampool_debugfs_init(struct vrampool_device *vdev);
#else
static inline void vrampool_debugfs_init(struct vrampool_device *vdev) { }
#endif

#endif /* _VRAMPOOL_DEBUGFS_H_ */

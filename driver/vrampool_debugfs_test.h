/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DEBUGFS_TEST_H_
#define _VRAMPOOL_DEBUGFS_TEST_H_

struct vrampool_device;

#if IS_ENABLED(CONFIG_DRM_ACCEL_VRAMPOOL_DEBUGFS_TEST)
void vrampool_debugfs_test_init(struct vrampool_device *vdev);
#else
static inline void vrampool_debugfs_test_init(struct vrampool_device *vdev) { }
#endif

#endif /* _VRAMPOOL_DEBUGFS_TEST_H_ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_CLIENT_H_
#define _VRAMPOOL_CLIENT_H_

#include <linux/mutex.h>
#include <linux/types.h>

#include <drm/vrampool_accel.h>

struct drm_device;
struct drm_file;
struct vrampool_device;

/**
 * struct vrampool_layout - a resolved list of dynamic pools
 *
 * Immutable once built; a client swaps a whole new one in on install.
 */
struct vrampool_layout {
	/** @count: number of dynamic pools */
	u32 count;
	/** @pools: the resolved pools, in routing order */
	struct drm_vrampool_pool_entry pools[] __counted_by(count);
};

/**
 * struct vrampool_client - what one open file owns
 */
struct vrampool_client {
	/** @vdev: the device */
	struct vrampool_device *vdev;
	/** @lock: protects @layout and @generation */
	struct mutex lock;
	/** @layout: the dynamic pools in force */
	struct vrampool_layout *layout;
	/** @generation: bumped by every install that changes @layout */
	u64 generation;
};

struct vrampool_layout *vrampool_layout_create(const struct drm_vrampool_pool_entry *pools,
					       u32 count);
void vrampool_layout_destroy(struct vrampool_layout *layout);
int vrampool_client_open(struct drm_device *drm, struct drm_file *file);
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file);
u64 vrampool_client_install(struct vrampool_client *client, struct vrampool_layout *layout);

#endif /* _VRAMPOOL_CLIENT_H_ */

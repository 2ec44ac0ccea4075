/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_CLIENT_H_
#define _VRAMPOOL_CLIENT_H_

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <drm/vrampool_accel.h>

#include "vrampool_pool.h"

struct drm_device;
struct drm_file;
struct drm_printer;
struct vrampool_client_sysfs;
struct vrampool_device;
struct vrampool_pool_set;

/**
 * struct vrampool_client - what one open file owns
 *
 * A slice of a page must never belong to two clients (a CPU mapping of one
 * would expose the other), so each client has its own pools. Everything
 * here is protected by @lock; no device-wide lock is taken to serve an
 * allocation from an existing page.
 */
struct vrampool_client {
	/** @vdev: the device */
	struct vrampool_device *vdev;
	/** @file: the open file, which may map the client's pages */
	struct drm_file *file;
	/** @lock: protects everything below */
	struct mutex lock;
	/** @pool_set: the dynamic pools in force */
	struct vrampool_pool_set *pool_set;
	/** @persistent: the persistent pool, index 255, kept across installs */
	struct vrampool_pool *persistent;
	/** @handles: allocation handles, from 1 */
	struct xarray handles;
	/** @backing: gives pool pages VRAM buffer objects mapped for @file */
	struct vrampool_backing backing;
	/** @generation: bumped by every install */
	u64 generation;
	/** @alloc_nr: allocations asked for, the clock of exclusive pools */
	u64 alloc_nr;
	/** @persistent_mode: a DRM_VRAMPOOL_PERSISTENT_* mode */
	u32 persistent_mode;
	/** @sysfs: clients/<id>/, changed under @sysfs_lock */
	struct vrampool_client_sysfs *sysfs;
	/** @sysfs_lock: serialises installs' changes to @sysfs; taken before @lock */
	struct mutex sysfs_lock;
	/** @link: in &vrampool_device.clients */
	struct list_head link;
};

int vrampool_client_open(struct drm_device *drm, struct drm_file *file);
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file);
void vrampool_client_show_fdinfo(struct drm_printer *p, struct drm_file *file);
void vrampool_client_cleanup(struct vrampool_client *client);
u64 vrampool_client_vram(struct vrampool_client *client);

int vrampool_pool_install_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_pool_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _VRAMPOOL_CLIENT_H_ */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the DRM driver: its ioctl table, file operations and identity.
 *
 * Each ioctl handler lives with the object it acts on and is declared in
 * that object's header.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/module.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_drv.h"

static const struct drm_ioctl_desc vrampool_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VRAMPOOL_GET_PARAM, vrampool_get_param_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_POOL_INSTALL, vrampool_pool_install_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_POOL_QUERY, vrampool_pool_query_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_ALLOC, vrampool_alloc_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_FREE, vrampool_free_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_CLEANUP, vrampool_cleanup_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_SET_PERSISTENT_MODE, vrampool_set_persistent_mode_ioctl, 0),
};

static const struct file_operations vrampool_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};

const struct drm_driver vrampool_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_COMPUTE_ACCEL,
	.open = vrampool_client_open,
	.postclose = vrampool_client_postclose,
	.show_fdinfo = vrampool_client_show_fdinfo,
	.ioctls = vrampool_ioctls,
	.num_ioctls = ARRAY_SIZE(vrampool_ioctls),
	.fops = &vrampool_fops,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	.date = DRIVER_DATE,
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
};

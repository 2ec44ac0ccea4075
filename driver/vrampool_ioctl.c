// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: ioctls that read device properties.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_device.h"
#include "vrampool_ioctl.h"
#include "vrampool_macros.h"

static int vrampool_param_value(struct vrampool_device *vdev, u32 param, u64 *value)
{
	switch (param) {
	case DRM_VRAMPOOL_PARAM_VRAM_SIZE:
		*value = vdev->props.vram_size;
		return 0;
	case DRM_VRAMPOOL_PARAM_VRAM_IN_USE:
		*value = vrampool_vram_in_use(vdev);
		return 0;
	case DRM_VRAMPOOL_PARAM_ALIGNMENT:
		*value = vdev->props.alignment;
		return 0;
	case DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE:
		*value = vdev->props.max_page_size;
		return 0;
	case DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY:
		*value = vdev->props.exclusive_memory_only;
		return 0;
	case DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS:
		*value = DRM_VRAMPOOL_MAX_DYNAMIC_POOLS;
		return 0;
	case DRM_VRAMPOOL_PARAM_PERSISTENT_POOL:
		*value = DRM_VRAMPOOL_PERSISTENT_POOL;
		return 0;
	case DRM_VRAMPOOL_PARAM_ABI_VERSION:
		*value = DRM_VRAMPOOL_ABI_VERSION;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * vrampool_get_param_ioctl() - DRM_IOCTL_VRAMPOOL_GET_PARAM
 * @drm: the device
 * @data: a &struct drm_vrampool_get_param
 * @file: the client
 *
 * Return: 0, or -EINVAL for an unknown parameter or non-zero must-be-zero
 * fields.
 */
int vrampool_get_param_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct drm_vrampool_get_param *args = data;
	int ret;

	if (vrampool_ioctl_check(vdev, args->pad || args->reserved))
		return -EINVAL;

	ret = vrampool_param_value(vdev, args->param, &args->value);
	if (vrampool_ioctl_check(vdev, ret))
		return ret;

	return 0;
}

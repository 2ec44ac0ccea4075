// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the device core shared by every VRAM backend.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>

#include "vrampool_debugfs.h"
#include "vrampool_device.h"
#include "vrampool_drv.h"
#include "vrampool_layout.h"
#include "vrampool_sysfs.h"
#include "vrampool_ttm.h"

/**
 * vrampool_props_check() - refuse device properties that cannot work
 * @dev: the device being probed, for the log line
 * @props: the properties it would get
 *
 * Called by each backend before it allocates anything, so a bad module
 * parameter or a BAR that is too small costs one clear log line and no
 * device, never an oops.
 *
 * Return: 0 if @props are usable, -EINVAL otherwise.
 */
int vrampool_props_check(struct device *dev, const struct vrampool_device_props *props)
{
	if (props->vram_size < VRAMPOOL_MIN_VRAM_SIZE) {
		dev_err(dev, "refusing device: VRAM size %llu is below the minimum of %llu bytes\n",
			props->vram_size, VRAMPOOL_MIN_VRAM_SIZE);
		return -EINVAL;
	}
	if (!PAGE_ALIGNED(props->vram_size)) {
		dev_err(dev, "refusing device: VRAM size %llu is not a multiple of the page size %lu\n",
			props->vram_size, PAGE_SIZE);
		return -EINVAL;
	}
	if (!props->alignment || !is_power_of_2(props->alignment) ||
	    props->alignment > props->vram_size) {
		dev_err(dev, "refusing device: alignment %llu is not a power of two no larger than VRAM (%llu bytes)\n",
			props->alignment, props->vram_size);
		return -EINVAL;
	}
	if (props->max_page_size < props->alignment ||
	    props->max_page_size > props->vram_size) {
		dev_err(dev, "refusing device: max_page_size %llu is outside [alignment %llu, VRAM size %llu]\n",
			props->max_page_size, props->alignment, props->vram_size);
		return -EINVAL;
	}
	return 0;
}

/* The pools a new client starts with: the device's default preset. */
static int vrampool_device_default_layout(struct vrampool_device *vdev)
{
	struct vrampool_layout_props props = {
		.alignment = vdev->props.alignment,
		.max_page_size = vdev->props.max_page_size,
		.exclusive_memory_only = vdev->props.exclusive_memory_only,
	};
	struct drm_vrampool_layout_error err;

	vdev->default_pools = drmm_kcalloc(&vdev->drm, VRAMPOOL_PRESET_MAX_POOLS,
					   sizeof(*vdev->default_pools), GFP_KERNEL);
	if (!vdev->default_pools)
		return -ENOMEM;

	return vrampool_layout_preset(&props, vrampool_layout_default_preset(&props),
				      vdev->default_pools, &vdev->default_count, &err);
}

/**
 * vrampool_device_init() - bring up a device whose VRAM is mapped
 * @vdev: the device, with @vdev->vram and @vdev->bus_base set by its backend
 * @backend: what backs the VRAM
 * @props: properties already accepted by vrampool_props_check()
 *
 * Sets up TTM over the VRAM and debugfs, then registers the accel node.
 * Everything is released by managed actions when the DRM device goes.
 *
 * Return: 0 or a negative errno.
 */
int vrampool_device_init(struct vrampool_device *vdev, enum vrampool_vram_backend backend,
			 const struct vrampool_device_props *props)
{
	int ret;

	vdev->backend = backend;
	vdev->props = *props;

	ret = vrampool_ttm_init(vdev);
	if (ret)
		return ret;

	ret = vrampool_device_default_layout(vdev);
	if (ret)
		return ret;

	vrampool_debugfs_init(vdev);

	ret = drmm_mutex_init(&vdev->drm, &vdev->clients_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&vdev->clients);

	/* Nothing may fail once the node is registered: sysfs comes first. */
	ret = vrampool_sysfs_init(vdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		return ret;

	drm_info(&vdev->drm, "%s VRAM of %llu MiB, alignment %llu, max page size %llu%s\n",
		 backend == VRAMPOOL_VRAM_PCI_BAR ? "PCI BAR" : "emulated",
		 props->vram_size >> 20, props->alignment, props->max_page_size,
		 props->exclusive_memory_only ? ", exclusive memory only" : "");
	return 0;
}

/**
 * vrampool_device_fini() - take a device away from userspace
 * @vdev: the device
 *
 * Unplugs the accel node: new ioctls and CPU faults stop reaching the VRAM.
 * Clients that still hold the device open keep it alive until they close.
 */
void vrampool_device_fini(struct vrampool_device *vdev)
{
	drm_dev_unplug(&vdev->drm);
}

/**
 * vrampool_vram_in_use() - VRAM held by buffer objects
 * @vdev: the device
 *
 * Return: bytes of VRAM allocated to buffer objects now.
 */
u64 vrampool_vram_in_use(struct vrampool_device *vdev)
{
	return ttm_resource_manager_usage(ttm_manager_type(&vdev->bdev, TTM_PL_VRAM));
}

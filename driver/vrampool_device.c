// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the device core shared by every VRAM backend.
 *
 * A backend (vrampool_emul.c, vrampool_pci.c) finds a device, maps its
 * VRAM and calls vrampool_device_create(), which sets up TTM, sysfs and
 * debugfs and registers the accel node. GET_PARAM, which reads the
 * device's properties, is here too.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/iosys-map.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include <drm/vrampool_accel.h>

#include "vrampool_debugfs.h"
#include "vrampool_device.h"
#include "vrampool_dmem.h"
#include "vrampool_layout.h"
#include "vrampool_macros.h"
#include "vrampool_modparams.h"
#include "vrampool_sysfs.h"
#include "vrampool_tenant.h"
#include "vrampool_ttm.h"
#include "vrampool_vram_mgr.h"

/* Smallest VRAM a device may have. */
#define VRAMPOOL_MIN_VRAM_SIZE	((u64)SZ_1M)

/* Refuses properties that cannot work, with one log line saying why. */
static int props_check(struct device *dev, const struct vrampool_device_props *props)
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
	/* Slices count in 32 bits of alignment units (DOC: slice units). */
	if (props->alignment > SZ_4G || props->vram_size >> ilog2(props->alignment) > U32_MAX) {
		dev_err(dev, "refusing device: VRAM size %llu is 2^32 alignment units (%llu bytes) or more\n",
			props->vram_size, props->alignment);
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

/**
 * vrampool_device_props_init() - the properties a new device would get
 * @dev: the device being probed, for the log line
 * @vram_size: its VRAM size in bytes
 * @props: filled in from @vram_size and the module parameters
 *
 * A max_page_size parameter of 0 means a quarter of @vram_size, the
 * convention CUDA and HIP runtimes use. Called by each backend before it
 * allocates anything, so a bad module parameter or a BAR that is too small
 * costs one clear log line and no device, never an oops.
 *
 * Return: 0 if @props are usable, -EINVAL otherwise.
 */
int vrampool_device_props_init(struct device *dev, u64 vram_size,
			       struct vrampool_device_props *props)
{
	props->vram_size = vram_size;
	props->alignment = vrampool_modparam.alignment;
	props->max_page_size = vrampool_modparam.max_page_size ?: vram_size / 4;
	props->exclusive_memory_only = vrampool_modparam.exclusive_memory_only;
	return props_check(dev, props);
}

/* The pools a new client starts with: the device's default preset. */
static int default_layout(struct vrampool_device *vdev)
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

/*
 * Sets up TTM over the VRAM, debugfs and sysfs, then registers the accel
 * node. Everything is released by managed actions when the DRM device goes.
 */
static int device_init(struct vrampool_device *vdev)
{
	const struct vrampool_device_props *props = &vdev->props;
	int ret;

	ret = vrampool_ttm_init(vdev);
	if (ret)
		return ret;

	ret = vrampool_dmem_init(vdev);
	if (ret)
		return ret;

	ret = default_layout(vdev);
	if (ret)
		return ret;

	vrampool_debugfs_init(vdev);

	ret = drmm_mutex_init(&vdev->drm, &vdev->clients_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&vdev->clients);
	vdev->vram_quota = vrampool_modparam.vram_quota;
	ret = vrampool_tenant_init(vdev);
	if (ret)
		return ret;

	/* Nothing may fail once the node is registered: sysfs comes first. */
	ret = vrampool_sysfs_init(vdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		return ret;

	drm_info(&vdev->drm, "%s VRAM of %llu MiB, alignment %llu, max page size %llu%s\n",
		 vdev->backend == VRAMPOOL_VRAM_PCI_BAR ? "PCI BAR" : "emulated",
		 props->vram_size >> 20, props->alignment, props->max_page_size,
		 props->exclusive_memory_only ? ", exclusive memory only" : "");
	return 0;
}

static void vram_free(struct drm_device *drm, void *vram)
{
	vfree(vram);
}

/**
 * vrampool_device_create() - create and register a device over mapped VRAM
 * @parent: the bus device the backend found; the DRM device is bound to it
 * @driver: the DRM driver, &vrampool_drm_driver
 * @backend: what backs the VRAM
 * @props: properties from vrampool_device_props_init()
 * @vram: kernel mapping of the whole VRAM, @props->vram_size bytes
 * @bus_base: bus address of the VRAM for a PCI BAR, 0 when emulated
 *
 * Emulated VRAM (memory from vmalloc()) is the device's from this call on:
 * it is freed once TTM is gone, when the last client has closed, or before
 * this function returns an error. A PCI BAR's mapping stays the backend's.
 *
 * Return: the registered device, or an ERR_PTR().
 */
struct vrampool_device *
vrampool_device_create(struct device *parent, const struct drm_driver *driver,
		       enum vrampool_vram_backend backend,
		       const struct vrampool_device_props *props,
		       const struct iosys_map *vram, resource_size_t bus_base)
{
	struct vrampool_device *vdev;
	int ret;

	vdev = devm_drm_dev_alloc(parent, driver, struct vrampool_device, drm);
	if (IS_ERR(vdev)) {
		if (backend == VRAMPOOL_VRAM_EMULATED)
			vfree(vram->vaddr);
		return vdev;
	}

	if (backend == VRAMPOOL_VRAM_EMULATED) {
		ret = drmm_add_action_or_reset(&vdev->drm, vram_free, vram->vaddr);
		if (ret)
			return ERR_PTR(ret);
	}

	vdev->backend = backend;
	vdev->props = *props;
	vdev->vram = *vram;
	vdev->bus_base = bus_base;

	ret = device_init(vdev);
	if (ret)
		return ERR_PTR(ret);
	return vdev;
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

static int param_value(struct vrampool_device *vdev, u32 param, u64 *value)
{
	switch (param) {
	case DRM_VRAMPOOL_PARAM_VRAM_SIZE:
		*value = vdev->props.vram_size;
		return 0;
	case DRM_VRAMPOOL_PARAM_VRAM_IN_USE:
		*value = vrampool_vram_mgr_in_use(&vdev->vram_mgr);
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

	ret = param_value(vdev, args->param, &args->value);
	if (vrampool_ioctl_check(vdev, ret))
		return ret;

	return 0;
}

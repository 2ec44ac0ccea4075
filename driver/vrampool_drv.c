// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the module, its parameters and the DRM driver description.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/module.h>
#include <linux/moduleparam.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#include <drm/vrampool_accel.h>

#include "vrampool_client.h"
#include "vrampool_drv.h"
#include "vrampool_emul.h"
#include "vrampool_ioctl.h"
#include "vrampool_pci.h"

static unsigned int emulated_devices = 1;
module_param(emulated_devices, uint, 0444);
MODULE_PARM_DESC(emulated_devices,
		 "Number of emulated (vmalloc-backed) devices to create (default 1, at most "
		 __stringify(VRAMPOOL_MAX_EMULATED_DEVICES) ")");

static unsigned long long vram_size = 256ULL << 20;
module_param(vram_size, ullong, 0444);
MODULE_PARM_DESC(vram_size,
		 "VRAM of each emulated device in bytes, a multiple of the CPU page size (default 256 MiB)");

static unsigned long long alignment = 256;
module_param(alignment, ullong, 0444);
MODULE_PARM_DESC(alignment, "Allocation alignment in bytes, a power of two (default 256)");

static unsigned long long max_page_size;
module_param(max_page_size, ullong, 0444);
MODULE_PARM_DESC(max_page_size,
		 "Page size the default layouts are sized from, in bytes (default 0: a quarter of VRAM)");

static bool exclusive_memory_only;
module_param(exclusive_memory_only, bool, 0444);
MODULE_PARM_DESC(exclusive_memory_only,
		 "Devices refuse sliced pools, as on exclusive-memory-only runtimes (default off)");

/**
 * vrampool_module_props() - device properties from the module parameters
 * @size: VRAM size of the device being created, in bytes
 * @props: filled in; checked later by vrampool_device_init()
 *
 * A @max_page_size parameter of 0 means a quarter of @size, the convention
 * CUDA and HIP runtimes use.
 */
void vrampool_module_props(u64 size, struct vrampool_device_props *props)
{
	props->vram_size = size;
	props->alignment = alignment;
	props->max_page_size = max_page_size ? max_page_size : size / 4;
	props->exclusive_memory_only = exclusive_memory_only;
}

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

/* fdinfo (drm-usage-stats): the VRAM the client's pools hold. */
static void vrampool_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct drm_memory_stats stats = {};

	mutex_lock(&client->lock);
	stats.private = vrampool_client_vram(client);
	mutex_unlock(&client->lock);
	stats.resident = stats.private;
	drm_print_memory_stats(p, &stats, DRM_GEM_OBJECT_RESIDENT, "vram");
}

const struct drm_driver vrampool_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_COMPUTE_ACCEL,
	.open = vrampool_client_open,
	.postclose = vrampool_client_postclose,
	.show_fdinfo = vrampool_show_fdinfo,
	.ioctls = vrampool_ioctls,
	.num_ioctls = ARRAY_SIZE(vrampool_ioctls),
	.fops = &vrampool_fops,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	.date = DRIVER_DATE,
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
};

static int __init vrampool_init(void)
{
	int ret;

	ret = vrampool_pci_register();
	if (ret)
		return ret;

	ret = vrampool_emul_register(emulated_devices, vram_size);
	if (ret)
		goto err_pci_unregister;

	return 0;

err_pci_unregister:
	vrampool_pci_unregister();
	return ret;
}

static void __exit vrampool_exit(void)
{
	vrampool_emul_unregister();
	vrampool_pci_unregister();
}

module_init(vrampool_init);
module_exit(vrampool_exit);

MODULE_AUTHOR("The vrampool authors");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");

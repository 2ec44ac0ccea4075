// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the DRM driver: its ioctl table, file operations and identity.
 *
 * Each ioctl handler lives with the object it acts on and is declared in
 * that object's header.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/fs.h>
#include <linux/module.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc.h"
#include "vrampool_batch.h"
#include "vrampool_batch_free.h"
#include "vrampool_client.h"
#include "vrampool_compat.h"
#include "vrampool_device.h"
#include "vrampool_drv.h"
#include "vrampool_install.h"
#include "vrampool_sysfs_client.h"
#include "vrampool_sysfs_user.h"

static const struct drm_ioctl_desc vrampool_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VRAMPOOL_GET_PARAM, vrampool_get_param_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_POOL_INSTALL, vrampool_pool_install_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_POOL_QUERY, vrampool_pool_query_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_ALLOC, vrampool_alloc_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_FREE, vrampool_free_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_CLEANUP, vrampool_cleanup_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_SET_PERSISTENT_MODE, vrampool_set_persistent_mode_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_ALLOC_BATCH, vrampool_alloc_batch_ioctl, 0),
	DRM_IOCTL_DEF_DRV(VRAMPOOL_FREE_BATCH, vrampool_free_batch_ioctl, 0),
};

/**
 * DOC: unplug
 *
 * An unbound device is unplugged (drm_dev_unplug()): drm_ioctl() refuses
 * every ioctl on it with -ENODEV, and CPU faults of its mappings get a
 * dummy page. The clients' state lives until their files close, and the
 * device's with the DRM device (drmm_add_action()), so an ioctl that was
 * running when the device went keeps working on it; only the device's
 * VRAM goes with the device, and every access to
 * it is inside drm_dev_enter(), which an unplug waits for: clearing new
 * VRAM (vrampool_ttm.c), CPU faults (ttm_bo_vm_fault()) and the debugfs
 * test buffers (vrampool_debugfs_test.c). No copy from or to userspace is
 * ever inside it: such a copy may wait forever on memory a userfaultfd or
 * a FUSE server never delivers, and the unbind would wait with it.
 */

/* The accel defaults, and fdinfo (drm-usage-stats). */
static const struct file_operations vrampool_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};

/*
 * A new client, then its sysfs folder and its user's: the client cannot
 * see sysfs.
 */
static int vrampool_open(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_client *client;
	int ret;

	ret = vrampool_client_open(drm, file);
	if (ret)
		return ret;
	client = file->driver_priv;
	ret = vrampool_sysfs_client_add(client);
	if (ret) {
		vrampool_client_postclose(drm, file);
		return ret;
	}
	vrampool_sysfs_user_add(client->tenant);
	return 0;
}

/* The folders go first: their show()s read the client and its user. */
static void vrampool_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;

	vrampool_sysfs_user_remove(client->tenant);
	vrampool_sysfs_client_remove(client);
	vrampool_client_postclose(drm, file);
}

const struct drm_driver vrampool_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_COMPUTE_ACCEL,
	.open = vrampool_open,
	.postclose = vrampool_postclose,
	.show_fdinfo = vrampool_client_show_fdinfo,
	.ioctls = vrampool_ioctls,
	.num_ioctls = ARRAY_SIZE(vrampool_ioctls),
	.fops = &vrampool_fops,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	VRAMPOOL_COMPAT_DRIVER_DATE(DRIVER_DATE)
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
};

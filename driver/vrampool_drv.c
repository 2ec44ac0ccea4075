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

/*
 * Every ioctl, argument copies included, runs inside drm_dev_enter(): on a
 * file whose device is unplugged (unbound) it fails with -ENODEV, and an
 * unplug waits for the ioctls already running, which may touch VRAM and
 * the device's state, before the device's resources go.
 */
static long vrampool_ioctl_enter(long (*ioctl)(struct file *, unsigned int, unsigned long),
				 struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct drm_file *file = filp->private_data;
	long ret;
	int idx;

	if (!drm_dev_enter(file->minor->dev, &idx))
		return -ENODEV;
	ret = ioctl(filp, cmd, arg);
	drm_dev_exit(idx);
	return ret;
}

static long vrampool_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return vrampool_ioctl_enter(drm_ioctl, filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
static long vrampool_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return vrampool_ioctl_enter(drm_compat_ioctl, filp, cmd, arg);
}
#else
#define vrampool_compat_ioctl NULL
#endif

/* DRM_ACCEL_FOPS, but for the ioctls. */
static const struct file_operations vrampool_fops = {
	.owner = THIS_MODULE,
	.open = accel_open,
	.release = drm_release,
	.unlocked_ioctl = vrampool_ioctl,
	.compat_ioctl = vrampool_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.fop_flags = FOP_UNSIGNED_OFFSET,
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

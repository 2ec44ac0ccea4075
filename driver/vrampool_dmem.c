// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: each device's VRAM as a region of the dmem cgroup controller.
 *
 * Built only when the kernel has the controller (CONFIG_CGROUP_DMEM, Linux
 * 6.14 on); vrampool_dmem.h gives the rest of the driver stubs otherwise.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cgroup_dmem.h>
#include <linux/err.h>
#include <linux/sysfs.h>

#include <drm/drm_managed.h>
#include <drm/ttm/ttm_resource.h>

#include "vrampool_compat.h"
#include "vrampool_device_types.h"
#include "vrampool_dmem.h"

/**
 * DOC: dmem cgroup
 *
 * Where the kernel has the dmem cgroup controller, each device registers
 * its VRAM as the region ``drm/<unique>/vram`` (``<unique>`` is the DRM
 * device's unique name, its parent device's name: ``vrampool-emul.0``,
 * ``0000:00:04.0``; sysfs ``vrampool/dmem_region`` says it, and every
 * cgroup's ``dmem.current`` lists it). TTM charges
 * each buffer object the driver makes, that is each pool page, to the dmem
 * cgroup of the task that makes it when it makes it, as amdgpu and xe do,
 * and uncharges it when the BO is destroyed. So a cgroup's
 * ``dmem.current`` for the region is exactly the VRAM its tasks' clients
 * hold in pages on that device, live and cached, orphans included (fdinfo
 * ``drm-total-vram`` summed). Like a memory cgroup's, a charge stays where
 * it was made when the task moves to another cgroup.
 *
 * ``dmem.max`` refuses a new page that would take the cgroup, or one of its
 * ancestors, past it. The ALLOC then runs the client's explicit cleanup,
 * then takes free cached pages of any client charged inside the cgroup
 * whose limit refused (reclaim, DOC: reclaim, filtered by page), and fails
 * only if the page still does not fit: -EDQUOT with
 * %DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, &drm_vrampool_alloc_error.pool
 * %DRM_VRAMPOOL_QUOTA_CGROUP, capacity and in_use 0 (the controller does
 * not tell drivers its limits: ``dmem.max`` and ``dmem.current`` do).
 * Nothing outside that cgroup is touched for it.
 *
 * ``dmem.min`` and ``dmem.low`` protect cached pages from reclaim across
 * clients, with the controller's effective protection, page by page: a
 * page charged to a cgroup whose usage is within its effective min is
 * never taken; within its effective low, only by a second walk, when the
 * first (which spares them) could not make room. The protection is
 * computed relative to the cgroup whose limit refused, or to the root
 * when VRAM itself is full.
 *
 * Lowering ``dmem.max`` below what a cgroup holds takes nothing away (the
 * controller's reclaim callback is not set: vrampool's BOs are pinned and
 * never evicted); it only refuses new pages, as ``vram_quota`` does.
 */

/* The region is drm/<unique>/REGION_NAME (drmm_cgroup_register_region()). */
#define REGION_NAME	"vram"

static void dmem_detach(struct drm_device *drm, void *arg)
{
	struct vrampool_device *vdev = arg;

	vrampool_compat_dmem_detach(&vdev->vram_mgr.man);
	vdev->dmem_region = NULL;
}

/**
 * vrampool_dmem_init() - register a device's VRAM as a dmem cgroup region
 * @vdev: the device, its VRAM manager set up
 *
 * Undone by managed actions when the DRM device is released, after its
 * last BO.
 *
 * Return: 0 (also when the controller keeps no region for it) or a
 * negative errno.
 */
int vrampool_dmem_init(struct vrampool_device *vdev)
{
	struct dmem_cgroup_region *region;

	region = vrampool_compat_dmem_register(&vdev->drm, &vdev->vram_mgr.man, REGION_NAME,
					       vdev->props.vram_size);
	if (IS_ERR(region))
		return PTR_ERR(region);
	if (!region)
		return 0;
	vdev->dmem_region = region;
	return drmm_add_action_or_reset(&vdev->drm, dmem_detach, vdev);
}

/**
 * vrampool_dmem_region_show() - a device's dmem region, for sysfs
 * @vdev: the device
 * @buf: the sysfs page
 *
 * Return: the bytes of "drm/<unique>/vram\n" written to @buf, or of
 * "none\n" when the device has no region.
 */
ssize_t vrampool_dmem_region_show(struct vrampool_device *vdev, char *buf)
{
	if (!vdev->dmem_region)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "drm/%s/%s\n", vdev->drm.unique, REGION_NAME);
}

/**
 * vrampool_dmem_limit() - the cgroup whose dmem.max refuses @size now
 * @vdev: the device
 * @size: the bytes of the refused page
 * @filter: its &vrampool_dmem_filter.limit is set, with a reference that
 *	    vrampool_dmem_filter_end() drops
 *
 * Asks the controller with a charge of @size, given back at once.
 *
 * Return: true when a limit refuses @size; false when it fits now.
 */
bool vrampool_dmem_limit(struct vrampool_device *vdev, u64 size,
			 struct vrampool_dmem_filter *filter)
{
	struct dmem_cgroup_pool_state *pool;

	filter->limit = NULL;
	if (!vdev->dmem_region)
		return false;
	if (!dmem_cgroup_try_charge(vdev->dmem_region, size, &pool, &filter->limit)) {
		dmem_cgroup_uncharge(pool, size);
		return false;
	}
	return filter->limit;
}

/**
 * vrampool_dmem_refuses() - whether the caller's dmem cgroup refuses @size
 * @vdev: the device
 * @size: bytes
 *
 * Asks the controller with a charge of @size, given back at once.
 *
 * Return: true when the caller's cgroup, or an ancestor, is at its dmem.max.
 */
bool vrampool_dmem_refuses(struct vrampool_device *vdev, u64 size)
{
	struct vrampool_dmem_filter filter;
	bool refused = vrampool_dmem_limit(vdev, size, &filter);

	vrampool_dmem_filter_end(&filter);
	return refused;
}

/**
 * vrampool_dmem_filter_end() - drop what a filter holds
 * @filter: the filter
 */
void vrampool_dmem_filter_end(struct vrampool_dmem_filter *filter)
{
	if (filter->limit)
		dmem_cgroup_pool_state_put(filter->limit);
	filter->limit = NULL;
}

/**
 * vrampool_dmem_may_take() - whether reclaim may take a cached page
 * @filter: the walk's filter; &vrampool_dmem_filter.hit_low is set when
 *	    the page is kept only for dmem.low
 * @res: the page's VRAM, the resource of a pinned BO (it cannot change)
 *
 * Return: true when the page is charged inside @filter's limit (anywhere,
 * without one) and its cgroup is not protected by dmem.min, nor by
 * dmem.low unless the filter ignores it.
 */
bool vrampool_dmem_may_take(struct vrampool_dmem_filter *filter, struct ttm_resource *res)
{
	struct dmem_cgroup_pool_state *charged = res->css;

	if (!charged)
		return !filter->limit;
	return dmem_cgroup_state_evict_valuable(filter->limit, charged, filter->ignore_low,
						&filter->hit_low);
}

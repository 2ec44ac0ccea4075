// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the TTM resource manager of a device's VRAM.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/slab.h>
#include <linux/spinlock.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/ttm/ttm_placement.h>

#include "vrampool_bo.h"
#include "vrampool_device_types.h"
#include "vrampool_vram_mgr.h"

struct vrampool_vram_node {
	struct ttm_resource base;
	struct drm_mm_node node;
};

static struct vrampool_vram_mgr *to_vram_mgr(struct ttm_resource_manager *man)
{
	return container_of(man, struct vrampool_vram_mgr, man);
}

static struct vrampool_vram_node *to_vram_node(struct ttm_resource *res)
{
	return container_of(res, struct vrampool_vram_node, base);
}

static int vrampool_vram_alloc(struct ttm_resource_manager *man,
			       struct ttm_buffer_object *tbo,
			       const struct ttm_place *place,
			       struct ttm_resource **res)
{
	struct vrampool_vram_mgr *mgr = to_vram_mgr(man);
	unsigned long lpfn = place->lpfn ? place->lpfn : man->size;
	struct vrampool_vram_node *vn;
	int ret;

	vn = kzalloc(sizeof(*vn), GFP_KERNEL_ACCOUNT);
	if (!vn)
		return -ENOMEM;

	ttm_resource_init(tbo, place, &vn->base);

	spin_lock(&mgr->lock);
	ret = drm_mm_insert_node_in_range(&mgr->mm, &vn->node, PFN_UP(vn->base.size),
					  tbo->page_alignment, 0, place->fpfn, lpfn,
					  DRM_MM_INSERT_BEST);
	spin_unlock(&mgr->lock);

	if (ret) {
		if (ret == -ENOSPC)
			vrampool_bo_note_no_space(tbo);
		ttm_resource_fini(man, &vn->base);
		kfree(vn);
		return ret;
	}

	vn->base.start = vn->node.start;
	*res = &vn->base;
	return 0;
}

static void vrampool_vram_free(struct ttm_resource_manager *man, struct ttm_resource *res)
{
	struct vrampool_vram_mgr *mgr = to_vram_mgr(man);
	struct vrampool_vram_node *vn = to_vram_node(res);

	spin_lock(&mgr->lock);
	drm_mm_remove_node(&vn->node);
	spin_unlock(&mgr->lock);

	ttm_resource_fini(man, res);
	kfree(vn);
}

static bool vrampool_vram_intersects(struct ttm_resource_manager *man,
				     struct ttm_resource *res,
				     const struct ttm_place *place, size_t size)
{
	struct drm_mm_node *node = &to_vram_node(res)->node;

	return place->fpfn < node->start + PFN_UP(size) &&
	       (!place->lpfn || place->lpfn > node->start);
}

static bool vrampool_vram_compatible(struct ttm_resource_manager *man,
				     struct ttm_resource *res,
				     const struct ttm_place *place, size_t size)
{
	struct drm_mm_node *node = &to_vram_node(res)->node;

	return node->start >= place->fpfn &&
	       (!place->lpfn || node->start + PFN_UP(size) <= place->lpfn);
}

static void vrampool_vram_debug(struct ttm_resource_manager *man, struct drm_printer *p)
{
	struct vrampool_vram_mgr *mgr = to_vram_mgr(man);

	spin_lock(&mgr->lock);
	drm_mm_print(&mgr->mm, p);
	spin_unlock(&mgr->lock);
}

static const struct ttm_resource_manager_func vrampool_vram_funcs = {
	.alloc = vrampool_vram_alloc,
	.free = vrampool_vram_free,
	.intersects = vrampool_vram_intersects,
	.compatible = vrampool_vram_compatible,
	.debug = vrampool_vram_debug,
};

static void vrampool_vram_mgr_fini(struct drm_device *drm, void *arg)
{
	struct vrampool_device *vdev = arg;
	struct vrampool_vram_mgr *mgr = &vdev->vram_mgr;

	ttm_resource_manager_set_used(&mgr->man, false);
	/* Every BO is gone by now: the last client closed before this runs. */
	ttm_resource_manager_evict_all(&vdev->bdev, &mgr->man);

	spin_lock(&mgr->lock);
	drm_mm_takedown(&mgr->mm);
	spin_unlock(&mgr->lock);

	ttm_resource_manager_cleanup(&mgr->man);
	ttm_set_driver_manager(&vdev->bdev, TTM_PL_VRAM, NULL);
}

/**
 * vrampool_vram_mgr_init() - manage a device's VRAM for TTM
 * @vdev: the device, its TTM device initialised
 *
 * Undone by a managed action when the DRM device is released.
 *
 * Return: 0 or a negative errno.
 */
int vrampool_vram_mgr_init(struct vrampool_device *vdev)
{
	struct vrampool_vram_mgr *mgr = &vdev->vram_mgr;
	u64 pages = vdev->props.vram_size >> PAGE_SHIFT;

	mgr->man.use_tt = false;
	mgr->man.func = &vrampool_vram_funcs;
	ttm_resource_manager_init(&mgr->man, &vdev->bdev, pages);
	drm_mm_init(&mgr->mm, 0, pages);
	spin_lock_init(&mgr->lock);

	ttm_set_driver_manager(&vdev->bdev, TTM_PL_VRAM, &mgr->man);
	ttm_resource_manager_set_used(&mgr->man, true);

	return drmm_add_action_or_reset(&vdev->drm, vrampool_vram_mgr_fini, vdev);
}

/**
 * vrampool_vram_mgr_in_use() - VRAM held by buffer objects
 * @mgr: the device's VRAM manager
 *
 * Return: bytes of VRAM allocated to buffer objects now.
 */
u64 vrampool_vram_mgr_in_use(struct vrampool_vram_mgr *mgr)
{
	return ttm_resource_manager_usage(&mgr->man);
}

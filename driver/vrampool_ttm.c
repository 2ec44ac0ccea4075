// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the TTM device over a device's VRAM.
 *
 * VRAM is one TTM_PL_VRAM region handled by vrampool_vram_mgr (drm_mm
 * underneath, always contiguous). The backend gives a kernel mapping of the
 * whole region, so every VRAM resource is premapped: bus.addr points into it
 * and CPU faults resolve through vrampool_io_mem_pfn().
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_tt.h>

#include "vrampool_device_types.h"
#include "vrampool_ttm.h"
#include "vrampool_vram_mgr.h"

static struct vrampool_device *bdev_to_vdev(struct ttm_device *bdev)
{
	return container_of(bdev, struct vrampool_device, bdev);
}

static struct ttm_tt *vrampool_ttm_tt_create(struct ttm_buffer_object *bo, u32 page_flags)
{
	struct ttm_tt *tt;

	tt = kzalloc(sizeof(*tt), GFP_KERNEL);
	if (!tt)
		return NULL;

	if (ttm_tt_init(tt, bo, page_flags, ttm_cached, 0)) {
		kfree(tt);
		return NULL;
	}
	return tt;
}

static void vrampool_ttm_tt_destroy(struct ttm_device *bdev, struct ttm_tt *tt)
{
	ttm_tt_fini(tt);
	kfree(tt);
}

static const struct ttm_place vrampool_sys_place = {
	.mem_type = TTM_PL_SYSTEM,
};

/*
 * Pool pages are pinned and never evicted; should an unpinned BO ever be,
 * its content goes to system memory.
 */
static void vrampool_evict_flags(struct ttm_buffer_object *bo,
				 struct ttm_placement *placement)
{
	placement->num_placement = 1;
	placement->placement = &vrampool_sys_place;
}

/*
 * New VRAM is cleared CLEAR_CHUNK bytes at a time, with a chance to
 * reschedule in between: a buffer may be as large as the whole VRAM.
 */
#define CLEAR_CHUNK	SZ_1M

/* New VRAM never shows what an earlier buffer left there. */
static int vrampool_clear_new_vram(struct ttm_buffer_object *bo,
				   struct ttm_resource *new_mem)
{
	struct vrampool_device *vdev = bdev_to_vdev(bo->bdev);
	size_t offset = (size_t)new_mem->start << PAGE_SHIFT;
	size_t left = new_mem->size;
	size_t len;
	int idx;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return -ENODEV;

	while (left) {
		len = min_t(size_t, left, CLEAR_CHUNK);
		iosys_map_memset(&vdev->vram, offset, 0, len);
		offset += len;
		left -= len;
		cond_resched();
	}
	drm_dev_exit(idx);
	return 0;
}

static int vrampool_move(struct ttm_buffer_object *bo, bool evict,
			 struct ttm_operation_ctx *ctx,
			 struct ttm_resource *new_mem, struct ttm_place *hop)
{
	int ret;

	if (!bo->resource) {
		if (new_mem->mem_type == TTM_PL_VRAM) {
			ret = vrampool_clear_new_vram(bo, new_mem);
			if (ret)
				return ret;
		}
		ttm_bo_move_null(bo, new_mem);
		return 0;
	}

	return ttm_bo_move_memcpy(bo, ctx, new_mem);
}

static int vrampool_io_mem_reserve(struct ttm_device *bdev, struct ttm_resource *mem)
{
	struct vrampool_device *vdev = bdev_to_vdev(bdev);
	u64 offset;

	switch (mem->mem_type) {
	case TTM_PL_SYSTEM:
		return 0;
	case TTM_PL_VRAM:
		offset = (u64)mem->start << PAGE_SHIFT;
		if (vdev->vram.is_iomem)
			mem->bus.addr = (void __force *)(vdev->vram.vaddr_iomem + offset);
		else
			mem->bus.addr = vdev->vram.vaddr + offset;
		mem->bus.offset = vdev->bus_base + offset;
		mem->bus.is_iomem = true;
		mem->bus.caching = vdev->backend == VRAMPOOL_VRAM_PCI_BAR ?
				   ttm_write_combined : ttm_cached;
		return 0;
	default:
		return -EINVAL;
	}
}

static unsigned long vrampool_io_mem_pfn(struct ttm_buffer_object *bo,
					 unsigned long page_offset)
{
	struct vrampool_device *vdev = bdev_to_vdev(bo->bdev);
	unsigned long page = bo->resource->start + page_offset;

	if (vdev->backend == VRAMPOOL_VRAM_EMULATED)
		return vmalloc_to_pfn(vdev->vram.vaddr + ((size_t)page << PAGE_SHIFT));

	return (vdev->bus_base >> PAGE_SHIFT) + page;
}

static const struct ttm_device_funcs vrampool_ttm_funcs = {
	.ttm_tt_create = vrampool_ttm_tt_create,
	.ttm_tt_destroy = vrampool_ttm_tt_destroy,
	.eviction_valuable = ttm_bo_eviction_valuable,
	.evict_flags = vrampool_evict_flags,
	.move = vrampool_move,
	.io_mem_reserve = vrampool_io_mem_reserve,
	.io_mem_pfn = vrampool_io_mem_pfn,
};

static void vrampool_ttm_device_fini(struct drm_device *drm, void *arg)
{
	struct vrampool_device *vdev = arg;

	ttm_device_fini(&vdev->bdev);
}

/**
 * vrampool_ttm_init() - set up TTM over a device's VRAM
 * @vdev: the device, its VRAM mapped and its properties set
 *
 * Both steps are undone by managed actions when the DRM device is released,
 * after every client has closed it.
 *
 * Return: 0 or a negative errno.
 */
int vrampool_ttm_init(struct vrampool_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	int ret;

	ret = ttm_device_init(&vdev->bdev, &vrampool_ttm_funcs, drm->dev,
			      drm->anon_inode->i_mapping, drm->vma_offset_manager,
			      false, false);
	if (ret)
		return ret;

	ret = drmm_add_action_or_reset(drm, vrampool_ttm_device_fini, vdev);
	if (ret)
		return ret;

	return vrampool_vram_mgr_init(vdev);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the TTM device over a device's VRAM.
 *
 * VRAM is one TTM_PL_VRAM region handled by vrampool_vram_mgr (the buddy
 * allocator underneath): a resource is a list of blocks, not one range. The
 * backend gives a kernel mapping of the whole region; the kernel reaches a
 * BO's bytes through it block by block (a &struct vrampool_vram_cursor), and
 * CPU faults resolve each page through vrampool_io_mem_pfn(). TTM's linear
 * helpers (ttm_bo_vmap(), ttm_bo_kmap(), ttm_bo_move_memcpy()) are never
 * used on VRAM.
 *
 * VRAM is never evicted: live pages are pinned, and a BO freed while still
 * mapped (an orphan, see vrampool_bo.c) refuses eviction until its last
 * mapping goes and it is released in place.
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

#include "vrampool_compat.h"
#include "vrampool_device_types.h"
#include "vrampool_ttm.h"
#include "vrampool_vram_cursor.h"
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
 * Never used: every vrampool BO refuses eviction (vrampool_eviction_valuable());
 * TTM asks for the flags anyway before it asks whether to evict.
 */
static void vrampool_evict_flags(struct ttm_buffer_object *bo,
				 struct ttm_placement *placement)
{
	placement->num_placement = 1;
	placement->placement = &vrampool_sys_place;
}

/*
 * No vrampool BO is ever moved out of VRAM. Live ones are pinned; an orphan
 * (freed while mapped, so unpinned: TTM warns when a pinned BO is released)
 * must stay where its owner's mapping reads it and stay charged to the owner
 * as VRAM, instead of going to system RAM behind everyone's back; and the
 * linear copy TTM would use cannot follow a resource's blocks anyway.
 */
static bool vrampool_eviction_valuable(struct ttm_buffer_object *bo,
				       const struct ttm_place *place)
{
	return false;
}

/* Bytes of VRAM cleared between two chances to reschedule. */
#define VRAMPOOL_CLEAR_CHUNK	SZ_2M

/* New VRAM never shows what an earlier buffer left there. */
static int vrampool_clear_new_vram(struct ttm_buffer_object *bo,
				   struct ttm_resource *new_mem)
{
	struct vrampool_device *vdev = bdev_to_vdev(bo->bdev);
	struct vrampool_vram_cursor cur;
	u64 n;
	int idx;

	if (!drm_dev_enter(&vdev->drm, &idx))
		return -ENODEV;

	for (vrampool_vram_cursor_first(&cur, new_mem, 0, new_mem->size); cur.remaining;
	     vrampool_vram_cursor_next(&cur, n)) {
		n = min_t(u64, cur.size, VRAMPOOL_CLEAR_CHUNK);
		iosys_map_memset(&vdev->vram, cur.start, 0, n);
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

	/* Eviction is refused, and nothing else moves a vrampool BO. */
	return -EINVAL;
}

/*
 * A VRAM resource's bytes are found per block: there is no one bus address
 * or kernel address of the whole resource, so bus.addr and bus.offset stay
 * unset and CPU faults go through vrampool_io_mem_pfn().
 */
static int vrampool_io_mem_reserve(struct ttm_device *bdev, struct ttm_resource *mem)
{
	struct vrampool_device *vdev = bdev_to_vdev(bdev);

	switch (mem->mem_type) {
	case TTM_PL_SYSTEM:
		return 0;
	case TTM_PL_VRAM:
		mem->bus.is_iomem = true;
		mem->bus.caching = vdev->backend == VRAMPOOL_VRAM_PCI_BAR ?
				   ttm_write_combined : ttm_cached;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Called with the BO reserved, for a page inside its VRAM resource. */
static unsigned long vrampool_io_mem_pfn(struct ttm_buffer_object *bo,
					 unsigned long page_offset)
{
	struct vrampool_device *vdev = bdev_to_vdev(bo->bdev);
	struct vrampool_vram_cursor cur;

	vrampool_vram_cursor_first(&cur, bo->resource, (u64)page_offset << PAGE_SHIFT,
				   PAGE_SIZE);
	if (vdev->backend == VRAMPOOL_VRAM_EMULATED)
		return vmalloc_to_pfn(vdev->vram.vaddr + cur.start);

	return (unsigned long)((vdev->bus_base + cur.start) >> PAGE_SHIFT);
}

static const struct ttm_device_funcs vrampool_ttm_funcs = {
	.ttm_tt_create = vrampool_ttm_tt_create,
	.ttm_tt_destroy = vrampool_ttm_tt_destroy,
	.eviction_valuable = vrampool_eviction_valuable,
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

	ret = vrampool_compat_ttm_device_init(&vdev->bdev, &vrampool_ttm_funcs, drm->dev,
					      drm->anon_inode->i_mapping,
					      drm->vma_offset_manager);
	if (ret)
		return ret;

	ret = drmm_add_action_or_reset(drm, vrampool_ttm_device_fini, vdev);
	if (ret)
		return ret;

	return vrampool_vram_mgr_init(vdev);
}

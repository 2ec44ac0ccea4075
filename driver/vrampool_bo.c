// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: buffer objects pinned in VRAM.
 *
 * Every VRAM allocation the driver makes (a pool page, a direct buffer, a
 * debugfs test buffer) is one of these: placed in TTM_PL_VRAM, zero-filled
 * when created, and pinned so its VRAM address never changes while it lives.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/slab.h>

#include <drm/drm_gem.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_placement.h>

#include "vrampool_bo.h"
#include "vrampool_device_types.h"

static const struct ttm_place vrampool_vram_place = {
	.mem_type = TTM_PL_VRAM,
	.flags = TTM_PL_FLAG_CONTIGUOUS,
};

static struct ttm_placement vrampool_vram_placement = {
	.num_placement = 1,
	.placement = &vrampool_vram_place,
};

static void vrampool_gem_free(struct drm_gem_object *obj)
{
	ttm_bo_put(container_of(obj, struct ttm_buffer_object, base));
}

/* Userspace maps pool pages; MAP_PRIVATE (copy-on-write) is refused by TTM. */
static const struct drm_gem_object_funcs vrampool_gem_funcs = {
	.free = vrampool_gem_free,
	.mmap = drm_gem_ttm_mmap,
};

static void vrampool_bo_destroy(struct ttm_buffer_object *tbo)
{
	drm_gem_object_release(&tbo->base);
	kfree(container_of(tbo, struct vrampool_bo, tbo));
}

/**
 * vrampool_bo_create() - allocate a zero-filled buffer object pinned in VRAM
 * @vdev: the device
 * @size: size in bytes, rounded up to whole CPU pages
 * @type: ttm_bo_type_device for a BO userspace maps, else ttm_bo_type_kernel
 * @out: the new BO, on success
 *
 * Return: 0; -EINVAL for a zero size; -ENOSPC when VRAM cannot hold it;
 * -ENOMEM; -ERESTARTSYS when interrupted.
 */
int vrampool_bo_create(struct vrampool_device *vdev, u64 size,
		       enum ttm_bo_type type, struct vrampool_bo **out)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct vrampool_bo *bo;
	bool no_space = false;
	int ret;

	if (!size)
		return -EINVAL;
	if (size > vdev->props.vram_size)
		return -ENOSPC;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return -ENOMEM;

	bo->no_space = &no_space;
	bo->tbo.base.funcs = &vrampool_gem_funcs;
	drm_gem_private_object_init(&vdev->drm, &bo->tbo.base, PAGE_ALIGN(size));

	/* On failure TTM has already called vrampool_bo_destroy(). */
	ret = ttm_bo_init_reserved(&vdev->bdev, &bo->tbo, type,
				   &vrampool_vram_placement, 0, &ctx, NULL, NULL,
				   vrampool_bo_destroy);
	if (ret)
		return no_space ? -ENOSPC : ret;

	bo->no_space = NULL;
	ttm_bo_pin(&bo->tbo);
	ttm_bo_unreserve(&bo->tbo);
	*out = bo;
	return 0;
}

/**
 * vrampool_bo_note_no_space() - record that VRAM had no room for a new BO
 * @tbo: the BO being placed
 *
 * Called by the VRAM manager, which only ever places vrampool BOs.
 */
void vrampool_bo_note_no_space(struct ttm_buffer_object *tbo)
{
	struct vrampool_bo *bo = container_of(tbo, struct vrampool_bo, tbo);

	if (bo->no_space)
		*bo->no_space = true;
}

/**
 * vrampool_bo_free() - unpin a BO and drop the creator's reference
 * @bo: a BO from vrampool_bo_create()
 *
 * Its VRAM returns to the device as soon as no mapping references it.
 */
void vrampool_bo_free(struct vrampool_bo *bo)
{
	/* Not interruptible: the caller is giving memory back. */
	ttm_bo_reserve(&bo->tbo, false, false, NULL);
	ttm_bo_unpin(&bo->tbo);
	ttm_bo_unreserve(&bo->tbo);
	drm_gem_object_put(&bo->tbo.base);
}

/**
 * vrampool_bo_vmap() - map a BO into the kernel
 * @bo: the BO
 * @map: the mapping, system or I/O memory depending on the backend
 *
 * Return: 0 or a negative errno.
 */
int vrampool_bo_vmap(struct vrampool_bo *bo, struct iosys_map *map)
{
	int ret;

	ret = ttm_bo_reserve(&bo->tbo, true, false, NULL);
	if (ret)
		return ret;

	ret = ttm_bo_vmap(&bo->tbo, map);
	ttm_bo_unreserve(&bo->tbo);
	return ret;
}

/**
 * vrampool_bo_vunmap() - undo vrampool_bo_vmap()
 * @bo: the BO
 * @map: the mapping vrampool_bo_vmap() gave
 */
void vrampool_bo_vunmap(struct vrampool_bo *bo, struct iosys_map *map)
{
	ttm_bo_reserve(&bo->tbo, false, false, NULL);
	ttm_bo_vunmap(&bo->tbo, map);
	ttm_bo_unreserve(&bo->tbo);
}

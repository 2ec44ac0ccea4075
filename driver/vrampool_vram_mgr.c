// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the TTM resource manager of a device's VRAM, on the kernel's
 * buddy allocator (linux/gpu_buddy.h).
 *
 * A resource is a list of power-of-two blocks anywhere in VRAM: its bytes
 * need not follow each other, so nothing outside this file may read a VRAM
 * address from &ttm_resource.start; a &struct vrampool_vram_cursor walks the
 * blocks instead (vrampool_vram_cursor.c: CPU faults, clearing new VRAM,
 * the debugfs test buffers).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <drm/drm_buddy.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/ttm/ttm_placement.h>

#include "vrampool_bo.h"
#include "vrampool_compat.h"
#include "vrampool_device_types.h"
#include "vrampool_vram_mgr.h"

static struct vrampool_vram_mgr *to_vram_mgr(struct ttm_resource_manager *man)
{
	return container_of(man, struct vrampool_vram_mgr, man);
}

static bool blocks_contiguous(struct list_head *blocks)
{
	struct gpu_buddy_block *block, *prev = NULL;

	list_for_each_entry(block, blocks, link) {
		if (prev && gpu_buddy_block_offset(prev) + vrampool_vram_block_size(prev) !=
			    gpu_buddy_block_offset(block))
			return false;
		prev = block;
	}
	return true;
}

/*
 * The buddy's flags and smallest block for @place; -EINVAL for an alignment
 * that is no power of two, which the buddy cannot honour.
 */
static int place_to_buddy(struct ttm_resource_manager *man, struct ttm_buffer_object *tbo,
			  const struct ttm_place *place, unsigned long *flags, u64 *min_block)
{
	unsigned long lpfn = place->lpfn ? place->lpfn : man->size;

	*flags = 0;
	if (place->fpfn || lpfn != man->size)
		*flags |= GPU_BUDDY_RANGE_ALLOCATION;
	if (place->flags & TTM_PL_FLAG_CONTIGUOUS)
		*flags |= GPU_BUDDY_CONTIGUOUS_ALLOCATION;
	if (place->flags & TTM_PL_FLAG_TOPDOWN)
		*flags |= GPU_BUDDY_TOPDOWN_ALLOCATION;

	*min_block = (u64)max_t(u32, tbo->page_alignment, 1) << PAGE_SHIFT;
	return is_power_of_2(*min_block) ? 0 : -EINVAL;
}

/*
 * The buddy allocator of older kernels mishandles a block split that gets no
 * memory: alloc_from_freetree() in drivers/gpu/buddy.c then frees a block it
 * leaves in its free tree (a use-after-free, then a corrupt tree; KASAN
 * reports it). Its block headers are small GFP_KERNEL slab objects, which
 * in practice fail only when a test injects the failure, so on those
 * kernels (see VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE) a fail-nth armed for this
 * task skips the buddy's own allocations (they neither count nor fail)
 * instead of crashing the kernel; every other allocation an ALLOC makes is
 * still injected. Where the buddy is fixed, its allocations are injected
 * like any other.
 */
static unsigned int fault_injection_pause(void)
{
#ifdef CONFIG_FAULT_INJECTION
	unsigned int nth;

	if (VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE)
		return 0;
	nth = READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return nth;
#else
	return 0;
#endif
}

static void fault_injection_resume(unsigned int nth)
{
#ifdef CONFIG_FAULT_INJECTION
	if (nth)
		WRITE_ONCE(current->fail_nth, nth);
#endif
}

/*
 * With no range and no contiguity asked, the buddy fails only if too few
 * bytes are free or a block split could not get memory: checking the free
 * bytes first tells "VRAM full" (-ENOSPC) from "kernel memory failed"
 * (-ENOMEM), which the buddy reports alike. A range or a contiguous
 * resource can also be refused for fragmentation, and -ENOSPC stays.
 */
static int vram_alloc_blocks(struct vrampool_vram_mgr *mgr, const struct ttm_place *place,
			     struct vrampool_vram_res *vres, unsigned long flags, u64 min_block)
{
	u64 size = vres->base.size;
	u64 start = (u64)place->fpfn << PAGE_SHIFT;
	u64 end = place->lpfn ? (u64)place->lpfn << PAGE_SHIFT : mgr->mm.size;
	bool simple = !(flags & (GPU_BUDDY_RANGE_ALLOCATION | GPU_BUDDY_CONTIGUOUS_ALLOCATION));
	unsigned int nth;
	int ret;

	if (end > mgr->mm.size || start >= end || size > end - start)
		return -ENOSPC;

	guard(mutex)(&mgr->lock);
	if (simple && round_up(size, min_block) > mgr->mm.avail)
		return -ENOSPC;

	nth = fault_injection_pause();
	ret = gpu_buddy_alloc_blocks(&mgr->mm, start, end, size, min_block, &vres->blocks, flags);
	fault_injection_resume(nth);
	if (ret == -ENOSPC && simple)
		ret = -ENOMEM;
	return ret;
}

static int vrampool_vram_alloc(struct ttm_resource_manager *man,
			       struct ttm_buffer_object *tbo,
			       const struct ttm_place *place,
			       struct ttm_resource **res)
{
	struct vrampool_vram_mgr *mgr = to_vram_mgr(man);
	struct vrampool_vram_res *vres;
	unsigned long flags;
	u64 min_block;
	int ret;

	vrampool_bo_note_attempt(tbo, false);
	ret = place_to_buddy(man, tbo, place, &flags, &min_block);
	if (ret)
		return ret;

	vres = kzalloc(sizeof(*vres), GFP_KERNEL_ACCOUNT);
	if (!vres)
		return -ENOMEM;

	ttm_resource_init(tbo, place, &vres->base);
	INIT_LIST_HEAD(&vres->blocks);

	ret = vram_alloc_blocks(mgr, place, vres, flags, min_block);
	if (ret) {
		if (ret == -ENOSPC)
			vrampool_bo_note_attempt(tbo, true);
		ttm_resource_fini(man, &vres->base);
		kfree(vres);
		return ret;
	}

	vres->contiguous = blocks_contiguous(&vres->blocks);
	vres->base.start = gpu_buddy_block_offset(list_first_entry(&vres->blocks,
								   struct gpu_buddy_block,
								   link)) >> PAGE_SHIFT;
	*res = &vres->base;
	return 0;
}

static void vrampool_vram_free(struct ttm_resource_manager *man, struct ttm_resource *res)
{
	struct vrampool_vram_mgr *mgr = to_vram_mgr(man);
	struct vrampool_vram_res *vres = to_vrampool_vram_res(res);

	scoped_guard(mutex, &mgr->lock)
		gpu_buddy_free_list(&mgr->mm, &vres->blocks, 0);

	ttm_resource_fini(man, res);
	kfree(vres);
}

/* Whether some block of @res lies in [@fpfn, @lpfn) (pages; 0 = the end). */
static bool res_meets_range(struct ttm_resource *res, unsigned long fpfn, unsigned long lpfn,
			    bool all)
{
	struct gpu_buddy_block *block;

	list_for_each_entry(block, &to_vrampool_vram_res(res)->blocks, link) {
		u64 first = gpu_buddy_block_offset(block) >> PAGE_SHIFT;
		u64 last = first + (vrampool_vram_block_size(block) >> PAGE_SHIFT);
		bool in = first >= fpfn && (!lpfn || last <= lpfn);
		bool meets = last > fpfn && (!lpfn || first < lpfn);

		if (all && !in)
			return false;
		if (!all && meets)
			return true;
	}
	return all;
}

static bool vrampool_vram_intersects(struct ttm_resource_manager *man,
				     struct ttm_resource *res,
				     const struct ttm_place *place, size_t size)
{
	return res_meets_range(res, place->fpfn, place->lpfn, false);
}

static bool vrampool_vram_compatible(struct ttm_resource_manager *man,
				     struct ttm_resource *res,
				     const struct ttm_place *place, size_t size)
{
	if ((place->flags & TTM_PL_FLAG_CONTIGUOUS) && !to_vrampool_vram_res(res)->contiguous)
		return false;
	return res_meets_range(res, place->fpfn, place->lpfn, true);
}

static void vrampool_vram_debug(struct ttm_resource_manager *man, struct drm_printer *p)
{
	struct vrampool_vram_mgr *mgr = to_vram_mgr(man);

	guard(mutex)(&mgr->lock);
	drm_printf(p, "size %llu avail %llu in use %llu\n", mgr->mm.size, mgr->mm.avail,
		   ttm_resource_manager_usage(man));
	drm_buddy_print(&mgr->mm, p);
}

static const struct ttm_resource_manager_func vrampool_vram_funcs = {
	.alloc = vrampool_vram_alloc,
	.free = vrampool_vram_free,
	.intersects = vrampool_vram_intersects,
	.compatible = vrampool_vram_compatible,
	.debug = vrampool_vram_debug,
};

/**
 * vrampool_vram_mgr_setup() - start a VRAM manager with nothing allocated
 * @mgr: the manager
 * @bdev: the TTM device it serves
 * @size: the VRAM size in bytes, a whole number of CPU pages
 *
 * Does not register the manager with @bdev; vrampool_vram_mgr_teardown()
 * undoes it. The KUnit tests drive a manager with no device this way.
 *
 * Return: 0 or a negative errno.
 */
int vrampool_vram_mgr_setup(struct vrampool_vram_mgr *mgr, struct ttm_device *bdev, u64 size)
{
	int ret;

	ret = gpu_buddy_init(&mgr->mm, size, PAGE_SIZE);
	if (ret)
		return ret;

	mutex_init(&mgr->lock);
	mgr->man.use_tt = false;
	mgr->man.func = &vrampool_vram_funcs;
	ttm_resource_manager_init(&mgr->man, bdev, size >> PAGE_SHIFT);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_vram_mgr_setup);

/**
 * vrampool_vram_mgr_teardown() - undo vrampool_vram_mgr_setup()
 * @mgr: a manager whose resources are all freed
 */
void vrampool_vram_mgr_teardown(struct vrampool_vram_mgr *mgr)
{
	scoped_guard(mutex, &mgr->lock)
		gpu_buddy_fini(&mgr->mm);
	mutex_destroy(&mgr->lock);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_vram_mgr_teardown);

static void vrampool_vram_mgr_fini(struct drm_device *drm, void *arg)
{
	struct vrampool_device *vdev = arg;
	struct vrampool_vram_mgr *mgr = &vdev->vram_mgr;

	ttm_resource_manager_set_used(&mgr->man, false);
	/* Every BO is gone by now: the last client closed before this runs. */
	ttm_resource_manager_evict_all(&vdev->bdev, &mgr->man);
	ttm_resource_manager_cleanup(&mgr->man);
	ttm_set_driver_manager(&vdev->bdev, TTM_PL_VRAM, NULL);
	vrampool_vram_mgr_teardown(mgr);
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
	int ret;

	ret = vrampool_vram_mgr_setup(mgr, &vdev->bdev, vdev->props.vram_size);
	if (ret)
		return ret;

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
EXPORT_SYMBOL_IF_KUNIT(vrampool_vram_mgr_in_use);

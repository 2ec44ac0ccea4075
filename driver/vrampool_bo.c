// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: buffer objects pinned in VRAM.
 *
 * Every VRAM allocation the driver makes (a pool page, a direct buffer, a
 * debugfs test buffer) is one of these: placed in TTM_PL_VRAM (in blocks
 * anywhere in VRAM, not one contiguous range), zero-filled when created,
 * and pinned so its VRAM never changes while it lives.
 *
 * Orphans: vrampool_bo_free() drops the creator's reference, but a CPU
 * mapping keeps the BO, and its VRAM, alive until the last munmap(). Such a
 * BO is unpinned (TTM warns when a pinned BO is released, and unpinning at
 * the last munmap would take the BO's lock inside munmap), yet it is never
 * evicted: vrampool_ttm.c refuses eviction of every vrampool BO, so the
 * orphan stays in VRAM, where the mapping still reads the owner's data,
 * rather than moving to system RAM nobody accounts for. Until the last
 * mapping goes it is charged to its owner (&vrampool_bo.orphans), counting
 * the mappings in our own vm_operations.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <drm/drm_gem.h>
#include <drm/drm_gem_ttm_helper.h>
#include <drm/ttm/ttm_placement.h>

#include "vrampool_bo.h"
#include "vrampool_compat.h"
#include "vrampool_device_types.h"
#include "vrampool_dmem.h"
#include "vrampool_tenant.h"
#include "vrampool_vram_cursor.h"

/* Not contiguous: a neighbour's scattered buffers cannot keep a BO out. */
static const struct ttm_place vrampool_vram_place = {
	.mem_type = TTM_PL_VRAM,
};

static struct ttm_placement vrampool_vram_placement = {
	.num_placement = 1,
	.placement = &vrampool_vram_place,
};

static void vrampool_gem_free(struct drm_gem_object *obj)
{
	vrampool_compat_ttm_bo_fini(container_of(obj, struct ttm_buffer_object, base));
}

static struct vrampool_bo *to_vrampool_bo(struct ttm_buffer_object *tbo)
{
	return container_of(tbo, struct vrampool_bo, tbo);
}

static void orphan_charge(struct vrampool_bo *bo, s64 sign)
{
	atomic64_add(sign * (s64)bo->tbo.base.size, &bo->orphans->bytes);
	atomic64_add(sign, &bo->orphans->count);
}

/*
 * A BO is charged as an orphan while %VRAMPOOL_BO_FREED is set and a mapping
 * remains; each change of &vrampool_bo.maps that starts or ends that state
 * charges or uncharges, so racing frees and munmaps charge exactly once.
 */
static void maps_add(struct vrampool_bo *bo, int delta)
{
	int maps;

	if (!bo->orphans)
		return;
	maps = atomic_add_return(delta, &bo->maps);
	if (delta > 0 && maps == (VRAMPOOL_BO_FREED | 1))
		orphan_charge(bo, 1);
	else if (delta < 0 && maps == VRAMPOOL_BO_FREED)
		orphan_charge(bo, -1);
}

static void vrampool_bo_vm_open(struct vm_area_struct *vma)
{
	maps_add(to_vrampool_bo(vma->vm_private_data), 1);
	ttm_bo_vm_open(vma);
}

static void vrampool_bo_vm_close(struct vm_area_struct *vma)
{
	maps_add(to_vrampool_bo(vma->vm_private_data), -1);
	ttm_bo_vm_close(vma);
}

/* TTM's, counting mappings: vm_close drops the mapping's BO reference. */
static const struct vm_operations_struct vrampool_bo_vm_ops = {
	.fault = ttm_bo_vm_fault,
	.open = vrampool_bo_vm_open,
	.close = vrampool_bo_vm_close,
	.access = ttm_bo_vm_access,
};

/* drm_gem_mmap() holds a GEM reference meanwhile: the BO cannot go. */
static int vrampool_gem_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct vrampool_bo *bo = to_vrampool_bo(container_of(obj, struct ttm_buffer_object, base));
	int ret;

	maps_add(bo, 1);
	ret = drm_gem_ttm_mmap(obj, vma);
	if (ret)
		maps_add(bo, -1);
	return ret;
}

/* Userspace maps pool pages; MAP_PRIVATE (copy-on-write) is refused by TTM. */
static const struct drm_gem_object_funcs vrampool_gem_funcs = {
	.free = vrampool_gem_free,
	.mmap = vrampool_gem_mmap,
	.vm_ops = &vrampool_bo_vm_ops,
};

/* The VRAM is back with the device: so is the charge (DOC: tenants). */
static void vrampool_bo_destroy(struct ttm_buffer_object *tbo)
{
	struct vrampool_bo *bo = to_vrampool_bo(tbo);

	if (bo->tenant) {
		vrampool_tenant_uncharge_vram(bo->tenant, tbo->base.size);
		vrampool_tenant_put(bo->tenant);
	}
	drm_gem_object_release(&tbo->base);
	kfree(bo);
}

/*
 * What a failed ttm_bo_init_reserved() means: VRAM full when the manager
 * found no room. TTM reports that as -ENOMEM, and a charge its dmem cgroup
 * refused too, before the manager is asked: when it was not, the
 * controller tells whether it refuses @size now.
 */
static int create_error(struct vrampool_device *vdev, u64 size, int ret,
			const struct vrampool_bo_attempt *attempt)
{
	if (attempt->no_space)
		return -ENOSPC;
	if ((ret == -ENOMEM || ret == -ENOSPC) && !attempt->asked &&
	    vrampool_dmem_refuses(vdev, size))
		return -EDQUOT;
	return ret;
}

/**
 * vrampool_bo_create() - allocate a zero-filled buffer object pinned in VRAM
 * @vdev: the device
 * @size: size in bytes, rounded up to whole CPU pages
 * @type: ttm_bo_type_device for a BO userspace maps, else ttm_bo_type_kernel
 * @out: the new BO, on success
 *
 * Return: 0; -EINVAL for a zero size; -ENOSPC when VRAM cannot hold it;
 * -EDQUOT when the dmem cgroup of the caller (or an ancestor) refused the
 * charge (DOC: dmem cgroup); -ENOMEM; -ERESTARTSYS when interrupted.
 */
int vrampool_bo_create(struct vrampool_device *vdev, u64 size,
		       enum ttm_bo_type type, struct vrampool_bo **out)
{
	struct ttm_operation_ctx ctx = { .interruptible = true };
	struct vrampool_bo_attempt attempt = {};
	struct vrampool_bo *bo;
	int ret;

	if (!size)
		return -EINVAL;
	if (size > vdev->props.vram_size)
		return -ENOSPC;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return -ENOMEM;

	bo->attempt = &attempt;
	bo->tbo.base.funcs = &vrampool_gem_funcs;
	drm_gem_private_object_init(&vdev->drm, &bo->tbo.base, PAGE_ALIGN(size));

	/* On failure TTM has already called vrampool_bo_destroy(). */
	ret = ttm_bo_init_reserved(&vdev->bdev, &bo->tbo, type,
				   &vrampool_vram_placement, 0, &ctx, NULL, NULL,
				   vrampool_bo_destroy);
	if (ret)
		return create_error(vdev, PAGE_ALIGN(size), ret, &attempt);

	bo->attempt = NULL;
	ttm_bo_pin(&bo->tbo);
	ttm_bo_unreserve(&bo->tbo);
	*out = bo;
	return 0;
}

/**
 * vrampool_bo_note_attempt() - record that the VRAM manager placed, or
 *	tried to place, a new BO
 * @tbo: the BO being placed
 * @no_space: VRAM had no room for it
 *
 * Called by the VRAM manager, which only ever places vrampool BOs.
 */
void vrampool_bo_note_attempt(struct ttm_buffer_object *tbo, bool no_space)
{
	struct vrampool_bo *bo = to_vrampool_bo(tbo);

	if (!bo->attempt)
		return;
	bo->attempt->asked = true;
	bo->attempt->no_space |= no_space;
}

/**
 * vrampool_bo_charge() - the user a new BO's VRAM is charged to
 * @bo: a BO from vrampool_bo_create()
 * @tenant: the user, already charged its size
 *     (vrampool_tenant_charge_vram()); the BO takes a reference
 *
 * The BO gives the charge back when it is destroyed, not when it is freed:
 * an orphan holds its VRAM until its last mapping goes.
 */
void vrampool_bo_charge(struct vrampool_bo *bo, struct vrampool_tenant *tenant)
{
	vrampool_tenant_get(tenant);
	bo->tenant = tenant;
}

/**
 * vrampool_bo_free() - unpin a BO and drop the creator's reference
 * @bo: a BO from vrampool_bo_create()
 *
 * Its VRAM returns to the device as soon as no mapping references it; until
 * then it stays in VRAM, an orphan charged to &vrampool_bo.orphans if set.
 */
void vrampool_bo_free(struct vrampool_bo *bo)
{
	/* Not interruptible: the caller is giving memory back. */
	ttm_bo_reserve(&bo->tbo, false, false, NULL);
	ttm_bo_unpin(&bo->tbo);
	ttm_bo_unreserve(&bo->tbo);
	if (bo->orphans && atomic_fetch_or(VRAMPOOL_BO_FREED, &bo->maps))
		orphan_charge(bo, 1);
	drm_gem_object_put(&bo->tbo.base);
}

static struct vrampool_device *bo_vdev(struct vrampool_bo *bo)
{
	return container_of(bo->tbo.bdev, struct vrampool_device, bdev);
}

/**
 * vrampool_bo_read() - copy bytes out of a live BO, block by block
 * @bo: the BO, not yet freed (so pinned where it is)
 * @offset: where in the BO, in bytes
 * @dst: where to
 * @len: how many bytes; @offset + @len is at most the BO size
 *
 * The caller is inside drm_dev_enter(): the device's VRAM is mapped.
 */
void vrampool_bo_read(struct vrampool_bo *bo, u64 offset, void *dst, size_t len)
{
	struct vrampool_device *vdev = bo_vdev(bo);
	struct vrampool_vram_cursor cur;

	for (vrampool_vram_cursor_first(&cur, bo->tbo.resource, offset, len); cur.remaining;
	     vrampool_vram_cursor_next(&cur, cur.size)) {
		iosys_map_memcpy_from(dst, &vdev->vram, cur.start, cur.size);
		dst += cur.size;
	}
}

/**
 * vrampool_bo_write() - copy bytes into a live BO, block by block
 * @bo: the BO, not yet freed (so pinned where it is)
 * @offset: where in the BO, in bytes
 * @src: where from
 * @len: how many bytes; @offset + @len is at most the BO size
 *
 * The caller is inside drm_dev_enter(): the device's VRAM is mapped.
 */
void vrampool_bo_write(struct vrampool_bo *bo, u64 offset, const void *src, size_t len)
{
	struct vrampool_device *vdev = bo_vdev(bo);
	struct vrampool_vram_cursor cur;

	for (vrampool_vram_cursor_first(&cur, bo->tbo.resource, offset, len); cur.remaining;
	     vrampool_vram_cursor_next(&cur, cur.size)) {
		iosys_map_memcpy_to(&vdev->vram, cur.start, src, cur.size);
		src += cur.size;
	}
}

/**
 * vrampool_bo_orphans_bytes() - VRAM a client's orphans hold
 * @orphans: the client's orphans
 *
 * Return: the bytes; a munmap() racing the free that made the orphan may
 * uncharge before the charge lands, so a passing negative total reads 0.
 */
u64 vrampool_bo_orphans_bytes(struct vrampool_orphans *orphans)
{
	return max_t(s64, atomic64_read(&orphans->bytes), 0);
}

/**
 * vrampool_bo_orphans_count() - how many orphans a client has
 * @orphans: the client's orphans
 *
 * Return: the count, read as vrampool_bo_orphans_bytes() is.
 */
u64 vrampool_bo_orphans_count(struct vrampool_orphans *orphans)
{
	return max_t(s64, atomic64_read(&orphans->count), 0);
}

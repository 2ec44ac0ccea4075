/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_COMPAT_H_
#define _VRAMPOOL_COMPAT_H_

#include <linux/min_heap.h>
#include <linux/slab.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/ttm/ttm_device.h>

/* Written at build time by driver/compat/probe.sh (see Kbuild). */
#include "vrampool_compat_probed.h"

/**
 * DOC: Kernel compatibility
 *
 * One source tree builds for every kernel from 6.12 on (Kbuild and
 * dkms.conf refuse older ones: they have no accel subsystem). Where the
 * kernel's API differs, this file is the only place that knows: the rest of
 * the driver calls the vrampool_compat_*() helpers and the macros below and
 * has no kernel-version or feature conditional of its own.
 *
 * No version number is compared. Each difference is found by a probe, a
 * tiny C file in driver/compat/ that Kbuild compiles (syntax only) against
 * the target kernel's headers with the module's own flags before anything
 * else is built; driver/compat/probe.sh writes vrampool_compat_probed.h
 * with one VRAMPOOL_HAVE_<PROBE> line for each probe that compiled. A probe
 * is a _Static_assert on the exact type of a declaration, so it catches a
 * changed meaning (a return type, an argument) as well as a changed name:
 * kmem_cache_alloc_bulk() kept its name and arguments when its result went
 * from a count to a bool, and code written for one compiles silently
 * against the other. Every difference has a probe for each known form, and
 * a kernel that matches none stops the build here with a message naming
 * the API, rather than building a module that misbehaves; the compiler's
 * words for the probes that failed are in vrampool_compat_probed.h.log.
 *
 * The differences, each with the kernels it was seen in:
 *
 * - struct drm_driver's .date (6.12) was removed (7.3):
 *   VRAMPOOL_COMPAT_DRIVER_DATE(). The one difference with a single probe
 *   (a missing field cannot be asserted): a kernel that has the field but
 *   fails the probe builds a driver without a date, and the device
 *   kselftest's DRM_IOCTL_VERSION then warns on it in the VM.
 * - ttm_device_init() took two bools, use_dma_alloc and use_dma32 (6.12),
 *   and takes one TTM_ALLOCATION_* word (7.3):
 *   vrampool_compat_ttm_device_init().
 * - ttm_bo_put() (6.12) was renamed ttm_bo_fini() for the last reference
 *   of a GEM-backed BO (7.3): vrampool_compat_ttm_bo_fini().
 * - kmem_cache_alloc_bulk() returned the number of objects, or 0 (6.12),
 *   and returns a bool (7.3): vrampool_compat_kmem_cache_alloc_bulk().
 * - struct ttm_device's list of pinned resources was .pinned (6.12) and is
 *   .unevictable (7.3): vrampool_compat_ttm_pinned_list(), for the KUnit
 *   tests that set up a TTM device of their own.
 * - drmm_cgroup_register_region() took the region's size (6.14, where the
 *   dmem cgroup controller came) and takes a struct dmem_cgroup_init,
 *   with ttm_resource_manager_set_dmem_region() to attach it (7.3):
 *   vrampool_compat_dmem_register(), built only with CONFIG_CGROUP_DMEM
 *   (DOC: dmem cgroup).
 * - The buddy allocator freed a block it left in its free tree when a
 *   block split got no memory, a use-after-free and a corrupt tree (6.12,
 *   Debian's 6.12.118 included), and undoes the split cleanly since "gpu/
 *   buddy: Fix use-after-free in split_block() call sites" (7.3):
 *   VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE. No declaration changed with the fix;
 *   the probe finds the per-order count of free blocks that came in the
 *   same series, so a kernel with the fix but not the count is taken for
 *   unsafe (the cautious side). The driver cannot mend the older kernels;
 *   there, fault injection leaves the buddy's own allocations alone
 *   (vrampool_vram_mgr.c), and a real failure of one (a small GFP_KERNEL
 *   slab object: in practice only an OOM-killed task's) remains the
 *   kernel's bug.
 * - <linux/min_heap.h>'s plain names were its inline heap (6.12); they
 *   call lib/min_heap.c, built only when something selects
 *   CONFIG_MIN_HEAP, and the inline heap has names that end in
 *   ``_inline`` (7.3): the ``vrampool_compat_min_heap_`` macros, for the
 *   reclaim walk's order. The 6.12 probe also compiles on 7.3 (the plain
 *   function is declared there), so the ``_inline`` form is looked for
 *   first.
 *
 * To add a kernel: build against it (make check builds every kernel of the
 * README's table); for an error, write one probe per form of the changed
 * API in driver/compat/ (its name, in capitals, becomes VRAMPOOL_HAVE_*),
 * and a helper here with its reason in the list above.
 */

/*
 * struct drm_driver's .date: an initializer where the field exists (6.12's
 * DRM_IOCTL_VERSION warns on a NULL one), nothing where it does not.
 */
#if defined(VRAMPOOL_HAVE_DRM_DRIVER_DATE)
#define VRAMPOOL_COMPAT_DRIVER_DATE(...)	.date = (__VA_ARGS__),
#else
#define VRAMPOOL_COMPAT_DRIVER_DATE(...)
#endif

/**
 * vrampool_compat_ttm_device_init() - ttm_device_init() without DMA pools
 * @bdev: the TTM device
 * @funcs: its callbacks
 * @dev: the device
 * @mapping: the address space of its mmap offsets
 * @vma_manager: the DRM mmap offset manager
 *
 * vrampool's BOs never use TTM's page pools (DESIGN: no system-memory
 * placement), so neither coherent DMA allocations nor DMA32 are asked for.
 *
 * Return: 0 or a negative errno, as ttm_device_init().
 */
static inline int
vrampool_compat_ttm_device_init(struct ttm_device *bdev,
				const struct ttm_device_funcs *funcs,
				struct device *dev, struct address_space *mapping,
				struct drm_vma_offset_manager *vma_manager)
{
#if defined(VRAMPOOL_HAVE_TTM_DEVICE_INIT_FLAGS)
	return ttm_device_init(bdev, funcs, dev, mapping, vma_manager, 0);
#elif defined(VRAMPOOL_HAVE_TTM_DEVICE_INIT_BOOLS)
	return ttm_device_init(bdev, funcs, dev, mapping, vma_manager, false, false);
#else
#error "vrampool: ttm_device_init() has a form driver/compat/ does not know"
#endif
}

/**
 * vrampool_compat_ttm_bo_fini() - drop the last TTM reference of a GEM BO
 * @bo: the BO, whose GEM object is being freed
 */
static inline void vrampool_compat_ttm_bo_fini(struct ttm_buffer_object *bo)
{
#if defined(VRAMPOOL_HAVE_TTM_BO_FINI)
	ttm_bo_fini(bo);
#elif defined(VRAMPOOL_HAVE_TTM_BO_PUT)
	ttm_bo_put(bo);
#else
#error "vrampool: neither ttm_bo_fini() nor ttm_bo_put() has a form driver/compat/ knows"
#endif
}

/**
 * vrampool_compat_kmem_cache_alloc_bulk() - all of @count objects, or none
 * @cache: the slab cache
 * @gfp: allocation flags
 * @count: how many objects
 * @objects: room for @count pointers
 *
 * Return: true when @objects holds @count new objects; false when none was
 * allocated (the slab allocator's bulk call is all or nothing in every form).
 */
static inline bool
vrampool_compat_kmem_cache_alloc_bulk(struct kmem_cache *cache, gfp_t gfp,
				      size_t count, void **objects)
{
#if defined(VRAMPOOL_HAVE_KMEM_CACHE_ALLOC_BULK_BOOL)
	return kmem_cache_alloc_bulk(cache, gfp, count, objects);
#elif defined(VRAMPOOL_HAVE_KMEM_CACHE_ALLOC_BULK_COUNT)
	return kmem_cache_alloc_bulk(cache, gfp, count, objects) == count;
#else
#error "vrampool: kmem_cache_alloc_bulk() has a form driver/compat/ does not know"
#endif
}

/* The inline min-heap of <linux/min_heap.h>, whichever its names. */
#if defined(VRAMPOOL_HAVE_MIN_HEAP_INLINE)
#define vrampool_compat_min_heap_init		min_heap_init_inline
#define vrampool_compat_min_heapify_all		min_heapify_all_inline
#define vrampool_compat_min_heap_pop		min_heap_pop_inline
#elif defined(VRAMPOOL_HAVE_MIN_HEAP_PLAIN)
#define vrampool_compat_min_heap_init		min_heap_init
#define vrampool_compat_min_heapify_all		min_heapify_all
#define vrampool_compat_min_heap_pop		min_heap_pop
#else
#error "vrampool: <linux/min_heap.h> has a form driver/compat/ does not know"
#endif

/* Whether the buddy allocator survives a block split that gets no memory. */
#if defined(VRAMPOOL_HAVE_GPU_BUDDY_SCOREBOARD)
#define VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE	true
#else
#define VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE	false
#endif

/* struct ttm_device's list of pinned resources. */
#if defined(VRAMPOOL_HAVE_TTM_DEVICE_UNEVICTABLE)
#define vrampool_compat_ttm_pinned_list(bdev)	(&(bdev)->unevictable)
#elif defined(VRAMPOOL_HAVE_TTM_DEVICE_PINNED)
#define vrampool_compat_ttm_pinned_list(bdev)	(&(bdev)->pinned)
#else
#error "vrampool: struct ttm_device has no list of pinned resources driver/compat/ knows"
#endif

#if IS_ENABLED(CONFIG_CGROUP_DMEM)
#include <linux/cgroup_dmem.h>
#include <drm/drm_drv.h>
#include <drm/ttm/ttm_resource.h>

/**
 * vrampool_compat_dmem_register() - a DRM device's VRAM as a dmem region
 * @drm: the DRM device; the region is unregistered when it is released
 * @man: the TTM resource manager that charges its BOs to the region
 * @name: the region's name under drm/<unique>/
 * @size: the VRAM in bytes
 *
 * Return: the region, attached to @man; NULL when the controller keeps no
 * region for it; or an ERR_PTR().
 */
static inline struct dmem_cgroup_region *
vrampool_compat_dmem_register(struct drm_device *drm, struct ttm_resource_manager *man,
			      const char *name, u64 size)
{
	struct dmem_cgroup_region *region;
#if defined(VRAMPOOL_HAVE_DRMM_CGROUP_REGISTER_REGION_INIT)
	const struct dmem_cgroup_init init = { .size = size };

	region = drmm_cgroup_register_region(drm, name, &init);
	if (!IS_ERR_OR_NULL(region))
		ttm_resource_manager_set_dmem_region(man, region);
#elif defined(VRAMPOOL_HAVE_DRMM_CGROUP_REGISTER_REGION_SIZE)
	region = drmm_cgroup_register_region(drm, name, size);
	if (!IS_ERR_OR_NULL(region))
		man->cg = region;
#else
#error "vrampool: drmm_cgroup_register_region() has a form driver/compat/ does not know"
#endif
	return region;
}

/**
 * vrampool_compat_dmem_detach() - stop charging @man's BOs to its region
 * @man: the TTM resource manager, with no BO left
 */
static inline void vrampool_compat_dmem_detach(struct ttm_resource_manager *man)
{
#if defined(VRAMPOOL_HAVE_DRMM_CGROUP_REGISTER_REGION_INIT)
	ttm_resource_manager_set_dmem_region(man, NULL);
#else
	man->cg = NULL;
#endif
}
#endif

#endif /* _VRAMPOOL_COMPAT_H_ */

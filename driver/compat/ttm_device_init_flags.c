// SPDX-License-Identifier: GPL-2.0-only
/* ttm_device_init() ends in one TTM_ALLOCATION_* word (7.3). */
#include <linux/build_bug.h>
#include <drm/ttm/ttm_device.h>

typedef int (*vrampool_probe_fn)(struct ttm_device *bdev,
				 const struct ttm_device_funcs *funcs,
				 struct device *dev, struct address_space *mapping,
				 struct drm_vma_offset_manager *vma_manager,
				 unsigned int alloc_flags);

static_assert(__same_type(&ttm_device_init, vrampool_probe_fn),
	      "ttm_device_init(..., unsigned int alloc_flags)");

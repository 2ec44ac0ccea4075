// SPDX-License-Identifier: GPL-2.0-only
/* ttm_device_init() ends in two bools: use_dma_alloc, use_dma32 (6.12). */
#include <linux/build_bug.h>
#include <drm/ttm/ttm_device.h>

typedef int (*vrampool_probe_fn)(struct ttm_device *bdev,
				 const struct ttm_device_funcs *funcs,
				 struct device *dev, struct address_space *mapping,
				 struct drm_vma_offset_manager *vma_manager,
				 bool use_dma_alloc, bool use_dma32);

static_assert(__same_type(&ttm_device_init, vrampool_probe_fn),
	      "ttm_device_init(..., bool, bool)");

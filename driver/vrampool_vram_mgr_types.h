/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_VRAM_MGR_TYPES_H_
#define _VRAMPOOL_VRAM_MGR_TYPES_H_

#include <linux/spinlock_types.h>

#include <drm/drm_mm.h>
#include <drm/ttm/ttm_resource.h>

/**
 * struct vrampool_vram_mgr - the TTM resource manager of a device's VRAM
 *
 * A contiguous range allocator (drm_mm, in CPU pages) that, unlike TTM's
 * own range manager, tells a full VRAM apart from a failed kernel
 * allocation: TTM turns both into -ENOMEM.
 */
struct vrampool_vram_mgr {
	/** @man: the TTM resource manager */
	struct ttm_resource_manager man;
	/** @mm: the allocator, in pages */
	struct drm_mm mm;
	/** @lock: protects @mm */
	spinlock_t lock;
};

#endif /* _VRAMPOOL_VRAM_MGR_TYPES_H_ */

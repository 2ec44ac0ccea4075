/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_VRAM_MGR_TYPES_H_
#define _VRAMPOOL_VRAM_MGR_TYPES_H_

#include <linux/gpu_buddy.h>
#include <linux/list.h>
#include <linux/mutex_types.h>

#include <drm/ttm/ttm_resource.h>

/**
 * struct vrampool_vram_mgr - the TTM resource manager of a device's VRAM
 *
 * A buddy allocator (in bytes, CPU-page chunks): a resource is a list of
 * power-of-two blocks anywhere in VRAM, so a neighbour's small buffers
 * scattered over VRAM cannot keep a large one out while enough VRAM is
 * free. Unlike TTM's own managers it tells a full VRAM apart from a failed
 * kernel allocation: TTM turns both into -ENOMEM.
 */
struct vrampool_vram_mgr {
	/** @man: the TTM resource manager */
	struct ttm_resource_manager man;
	/** @mm: the allocator, in bytes */
	struct gpu_buddy mm;
	/** @lock: protects @mm (the buddy allocates its blocks with GFP_KERNEL) */
	struct mutex lock;
};

/**
 * struct vrampool_vram_res - a VRAM resource: the blocks that back a BO
 */
struct vrampool_vram_res {
	/** @base: the TTM resource; its start is valid only if @contiguous */
	struct ttm_resource base;
	/** @blocks: the &struct gpu_buddy_block list, in BO offset order */
	struct list_head blocks;
	/** @contiguous: whether the blocks follow each other in VRAM */
	bool contiguous;
};

#endif /* _VRAMPOOL_VRAM_MGR_TYPES_H_ */

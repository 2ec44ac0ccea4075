/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_VRAM_MGR_H_
#define _VRAMPOOL_VRAM_MGR_H_

#include <linux/container_of.h>
#include <linux/types.h>

#include <asm/page.h>

#include "vrampool_vram_mgr_types.h"

struct ttm_device;
struct ttm_resource;
struct vrampool_device;

int vrampool_vram_mgr_init(struct vrampool_device *vdev);
int vrampool_vram_mgr_setup(struct vrampool_vram_mgr *mgr, struct ttm_device *bdev, u64 size);
void vrampool_vram_mgr_teardown(struct vrampool_vram_mgr *mgr);
u64 vrampool_vram_mgr_in_use(struct vrampool_vram_mgr *mgr);

/**
 * to_vrampool_vram_res() - the VRAM resource of a TTM resource
 * @res: a resource of a vrampool VRAM manager
 *
 * Return: the resource it is the base of.
 */
static inline struct vrampool_vram_res *to_vrampool_vram_res(struct ttm_resource *res)
{
	return container_of(res, struct vrampool_vram_res, base);
}

/**
 * vrampool_vram_block_size() - the bytes of a buddy block
 * @block: the block
 *
 * Return: its size.
 */
static inline u64 vrampool_vram_block_size(struct gpu_buddy_block *block)
{
	return (u64)PAGE_SIZE << gpu_buddy_block_order(block);
}

#endif /* _VRAMPOOL_VRAM_MGR_H_ */

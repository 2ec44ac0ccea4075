/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_VRAM_MGR_H_
#define _VRAMPOOL_VRAM_MGR_H_

#include <linux/types.h>

#include "vrampool_vram_mgr_types.h"

struct ttm_device;
struct ttm_resource;
struct vrampool_device;

int vrampool_vram_mgr_init(struct vrampool_device *vdev);
int vrampool_vram_mgr_setup(struct vrampool_vram_mgr *mgr, struct ttm_device *bdev, u64 size);
void vrampool_vram_mgr_teardown(struct vrampool_vram_mgr *mgr);
u64 vrampool_vram_mgr_in_use(struct vrampool_vram_mgr *mgr);

void vrampool_vram_cursor_first(struct vrampool_vram_cursor *cur, struct ttm_resource *res,
				u64 offset, u64 len);
void vrampool_vram_cursor_next(struct vrampool_vram_cursor *cur, u64 bytes);

#endif /* _VRAMPOOL_VRAM_MGR_H_ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_VRAM_MGR_H_
#define _VRAMPOOL_VRAM_MGR_H_

#include <linux/types.h>

#include "vrampool_vram_mgr_types.h"

struct vrampool_device;

int vrampool_vram_mgr_init(struct vrampool_device *vdev);
u64 vrampool_vram_mgr_in_use(struct vrampool_vram_mgr *mgr);

#endif /* _VRAMPOOL_VRAM_MGR_H_ */

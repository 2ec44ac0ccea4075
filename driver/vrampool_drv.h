/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DRV_H_
#define _VRAMPOOL_DRV_H_

struct drm_driver;

#define DRIVER_NAME	"vrampool"
#define DRIVER_DESC	"VRAM carved into memory pools for compute runtimes"
#define DRIVER_DATE	"20261129"
#define DRIVER_MAJOR	1
#define DRIVER_MINOR	0

extern const struct drm_driver vrampool_drm_driver;

#endif /* _VRAMPOOL_DRV_H_ */

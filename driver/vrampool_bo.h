/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_BO_H_
#define _VRAMPOOL_BO_H_

#include <linux/iosys-map.h>

#include <drm/ttm/ttm_bo.h>

struct vrampool_device;

/**
 * struct vrampool_bo - a buffer object pinned in VRAM
 *
 * The GEM object embedded in @tbo holds the reference that keeps it alive;
 * TTM frees it through vrampool_bo_destroy() when the last one goes.
 */
struct vrampool_bo {
	/** @tbo: the TTM buffer object, with its GEM object */
	struct ttm_buffer_object tbo;
	/**
	 * @no_space: while the BO is being created, where to record that
	 * VRAM had no room for it (TTM reports that as -ENOMEM)
	 */
	bool *no_space;
};

int vrampool_bo_create(struct vrampool_device *vdev, u64 size,
		       enum ttm_bo_type type, struct vrampool_bo **out);
void vrampool_bo_free(struct vrampool_bo *bo);
void vrampool_bo_note_no_space(struct ttm_buffer_object *tbo);
int vrampool_bo_vmap(struct vrampool_bo *bo, struct iosys_map *map);
void vrampool_bo_vunmap(struct vrampool_bo *bo, struct iosys_map *map);

#endif /* _VRAMPOOL_BO_H_ */

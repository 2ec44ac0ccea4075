/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_VRAM_CURSOR_H_
#define _VRAMPOOL_VRAM_CURSOR_H_

#include <linux/types.h>

struct gpu_buddy_block;
struct list_head;
struct ttm_resource;

/**
 * struct vrampool_vram_cursor - a walk over the VRAM behind a resource
 *
 * vrampool_vram_cursor_first() starts it, vrampool_vram_cursor_next()
 * moves it on; it is done when @remaining is 0.
 */
struct vrampool_vram_cursor {
	/** @block: the block under the cursor */
	struct gpu_buddy_block *block;
	/** @head: the resource's block list */
	struct list_head *head;
	/** @start: the VRAM offset under the cursor, in bytes */
	u64 start;
	/** @size: bytes from @start on that are contiguous and still wanted */
	u64 size;
	/** @remaining: bytes of the walk left, from @start on */
	u64 remaining;
};

void vrampool_vram_cursor_first(struct vrampool_vram_cursor *cur, struct ttm_resource *res,
				u64 offset, u64 len);
void vrampool_vram_cursor_next(struct vrampool_vram_cursor *cur, u64 bytes);

#endif /* _VRAMPOOL_VRAM_CURSOR_H_ */

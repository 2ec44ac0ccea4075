// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: a walk over the VRAM behind a resource, block by block: the
 * bytes of a resource need not follow each other in VRAM
 * (vrampool_vram_mgr.c).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/bug.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include <drm/drm_buddy.h>

#include "vrampool_vram_cursor.h"
#include "vrampool_vram_mgr.h"

/* Put @cur on the block holding byte @offset of its walk's first block on. */
static void cursor_seek(struct vrampool_vram_cursor *cur, struct gpu_buddy_block *block,
			u64 offset)
{
	while (offset >= vrampool_vram_block_size(block)) {
		offset -= vrampool_vram_block_size(block);
		block = list_next_entry(block, link);
	}
	cur->block = block;
	cur->start = gpu_buddy_block_offset(block) + offset;
	cur->size = min(vrampool_vram_block_size(block) - offset, cur->remaining);
}

/**
 * vrampool_vram_cursor_first() - start a walk over the VRAM behind a resource
 * @cur: the cursor
 * @res: a VRAM resource of this manager
 * @offset: where in the resource to start, in bytes
 * @len: how many bytes to walk; @offset + @len is at most the resource size
 *
 * Afterwards @cur->start is the VRAM offset of byte @offset and @cur->size
 * the bytes from there that are contiguous in VRAM (at most @len).
 */
void vrampool_vram_cursor_first(struct vrampool_vram_cursor *cur, struct ttm_resource *res,
				u64 offset, u64 len)
{
	struct vrampool_vram_res *vres = to_vrampool_vram_res(res);

	cur->head = &vres->blocks;
	cur->remaining = len;
	if (WARN_ON_ONCE(offset > res->size || len > res->size - offset))
		cur->remaining = 0;
	if (!cur->remaining) {
		cur->block = NULL;
		cur->start = 0;
		cur->size = 0;
		return;
	}
	cursor_seek(cur, list_first_entry(cur->head, struct gpu_buddy_block, link), offset);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_vram_cursor_first);

/**
 * vrampool_vram_cursor_next() - move a walk on
 * @cur: the cursor
 * @bytes: how far, at most @cur->size
 */
void vrampool_vram_cursor_next(struct vrampool_vram_cursor *cur, u64 bytes)
{
	u64 in_block;

	if (WARN_ON_ONCE(bytes > cur->size))
		bytes = cur->size;
	cur->remaining -= bytes;
	if (!cur->remaining) {
		cur->size = 0;
		return;
	}
	in_block = cur->start + bytes - gpu_buddy_block_offset(cur->block);
	cursor_seek(cur, cur->block, in_block);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_vram_cursor_next);

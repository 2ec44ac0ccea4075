/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Buffer pools (vrampool_pool_buffer.c): what the direct pools and the
 * persistent pool share, for their files only.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_POOL_BUFFER_H_
#define _VRAMPOOL_POOL_BUFFER_H_

#include <linux/types.h>

#include "vrampool_pool_types.h"

struct vrampool_pool_page *vrampool_pool_buffer_find_free(struct vrampool_pool *pool, u64 size);
bool vrampool_pool_buffer_free_before(const struct vrampool_pool_page *a,
				      const struct vrampool_pool_page *b);
bool vrampool_pool_buffer_accepts(const struct vrampool_pool *pool, u64 size);
int vrampool_pool_buffer_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			       bool *full);
void vrampool_pool_buffer_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr);

#endif /* _VRAMPOOL_POOL_BUFFER_H_ */

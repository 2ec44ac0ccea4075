// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the persistent pool (index 255), one per client.
 *
 * One buffer (page) of the aligned size per allocation, in exact-size
 * buckets: a free buffer is reused only by a request of the very same
 * aligned size, the oldest first. Only an explicit cleanup releases
 * free buffers. The pool counts its buffers of each size, free or not, so
 * that a client in size-match mode can ask whether a size has a bucket.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/xarray.h>

#include "vrampool_pool_buffer.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

/* Count a buffer of @size in (@delta 1) or out (-1) of its bucket. */
static int sizes_add(struct vrampool_pool *pool, u64 size, long delta)
{
	unsigned long count = xa_to_value(xa_load(&pool->sizes, size) ?: xa_mk_value(0));

	count += delta;
	if (!count) {
		xa_erase(&pool->sizes, size);
		return 0;
	}
	return xa_err(xa_store(&pool->sizes, size, xa_mk_value(count), GFP_KERNEL_ACCOUNT));
}

static int persistent_page_init(struct vrampool_pool_page *ppage)
{
	return sizes_add(ppage->pool, ppage->size, 1);
}

static void persistent_page_fini(struct vrampool_pool_page *ppage)
{
	sizes_add(ppage->pool, ppage->size, -1);
}

/* A bucket is there while a buffer of its size, free or not, is. */
static bool persistent_has_size(struct vrampool_pool *pool, u64 size)
{
	u64 eff;

	return vrampool_pool_effective_size(pool, size, &eff) && xa_load(&pool->sizes, eff);
}

const struct vrampool_pool_ops vrampool_pool_persistent_ops = {
	.accepts = vrampool_pool_buffer_accepts,
	.alloc = vrampool_pool_buffer_alloc,
	.free = vrampool_pool_page_put_back,
	.cleanup = vrampool_pool_buffer_cleanup,
	.page_init = persistent_page_init,
	.page_fini = persistent_page_fini,
	.free_before = vrampool_pool_buffer_free_before,
	.has_size = persistent_has_size,
};

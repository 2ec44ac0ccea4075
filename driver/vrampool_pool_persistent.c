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

#include <linux/container_of.h>
#include <linux/xarray.h>

#include "vrampool_pool_buffer.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

/**
 * struct vrampool_pool_persistent - the persistent pool
 */
struct vrampool_pool_persistent {
	/** @base: the pool */
	struct vrampool_pool base;
	/** @sizes: how many buffers, free or not, it holds of each size (the key) */
	struct xarray sizes;
};

#define to_persistent(pool)	container_of_const(pool, struct vrampool_pool_persistent, base)

static void persistent_init(struct vrampool_pool *pool)
{
	xa_init_flags(&to_persistent(pool)->sizes, XA_FLAGS_ACCOUNT);
}

static void persistent_fini(struct vrampool_pool *pool)
{
	xa_destroy(&to_persistent(pool)->sizes);
}

/* Count a buffer of @size in (@delta 1) or out (-1) of its bucket. */
static int sizes_add(struct vrampool_pool_persistent *persistent, u64 size, long delta)
{
	struct xarray *sizes = &persistent->sizes;
	unsigned long count = xa_to_value(xa_load(sizes, size) ?: xa_mk_value(0));

	count += delta;
	if (!count) {
		xa_erase(sizes, size);
		return 0;
	}
	return xa_err(xa_store(sizes, size, xa_mk_value(count), GFP_KERNEL_ACCOUNT));
}

static int persistent_page_init(struct vrampool_pool_page *ppage)
{
	return sizes_add(to_persistent(ppage->pool), ppage->size, 1);
}

static void persistent_page_fini(struct vrampool_pool_page *ppage)
{
	sizes_add(to_persistent(ppage->pool), ppage->size, -1);
}

/* A bucket is there while a buffer of its size, free or not, is. */
static bool persistent_has_size(struct vrampool_pool *pool, u64 size)
{
	u64 eff;

	return vrampool_pool_effective_size(pool, size, &eff) &&
	       xa_load(&to_persistent(pool)->sizes, eff);
}

const struct vrampool_pool_ops vrampool_pool_persistent_ops = {
	.size = VRAMPOOL_POOL_SIZE(struct vrampool_pool_persistent),
	.init = persistent_init,
	.fini = persistent_fini,
	.accepts = vrampool_pool_buffer_accepts,
	.alloc = vrampool_pool_buffer_alloc,
	.free = vrampool_pool_page_put_back,
	.cleanup = vrampool_pool_buffer_cleanup,
	.trim = vrampool_pool_page_release_free,
	.page_init = persistent_page_init,
	.page_fini = persistent_page_fini,
	.free_before = vrampool_pool_buffer_free_before,
	.has_size = persistent_has_size,
};

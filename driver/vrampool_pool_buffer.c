// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: buffer pools, the direct pools and the persistent pool: one
 * buffer (page) per allocation, reused only at the same aligned size. What
 * they share is here; their files add what differs, the reclaim watermark
 * and slots (vrampool_pool_direct.c) and the size buckets
 * (vrampool_pool_persistent.c).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/rbtree.h>

#include "vrampool_pool_buffer.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

static int buffer_size_cmp(const void *key, const struct rb_node *node)
{
	const struct vrampool_pool_page *ppage = rb_entry(node, struct vrampool_pool_page,
							  fit_node);
	u64 size = *(const u64 *)key;

	if (size != ppage->size)
		return size < ppage->size ? -1 : 1;
	return 0;
}

/**
 * vrampool_pool_buffer_find_free() - the free buffer of a size reused first
 * @pool: a direct or persistent pool
 * @size: the buffer size wanted, exactly
 *
 * Return: the free buffer of @size that comes first in the pool's order
 * (the oldest; in a direct pool the lowest slot), or NULL.
 */
struct vrampool_pool_page *vrampool_pool_buffer_find_free(struct vrampool_pool *pool, u64 size)
{
	struct rb_node *node = rb_find_first(&size, &pool->fit_tree.rb_root, buffer_size_cmp);

	return node ? rb_entry(node, struct vrampool_pool_page, fit_node) : NULL;
}

/**
 * vrampool_pool_buffer_free_before() - &vrampool_pool_ops.free_before of buffer pools
 * @a: a free buffer
 * @b: another free buffer of the same pool
 *
 * Free buffers are sorted by size, then by order: each size's buffers are
 * together, the one to reuse first leading.
 *
 * Return: whether @a comes before @b.
 */
bool vrampool_pool_buffer_free_before(const struct vrampool_pool_page *a,
				      const struct vrampool_pool_page *b)
{
	if (a->size != b->size)
		return a->size < b->size;
	return a->order < b->order;
}

/**
 * vrampool_pool_buffer_accepts() - &vrampool_pool_ops.accepts of buffer pools
 * @pool: a direct or persistent pool
 * @size: the requested size
 *
 * Return: true unless aligning @size passes U64_MAX: a buffer pool serves
 * any size it can align.
 */
bool vrampool_pool_buffer_accepts(const struct vrampool_pool *pool, u64 size)
{
	u64 eff;

	return vrampool_pool_effective_size(pool, size, &eff);
}

/**
 * vrampool_pool_buffer_alloc() - &vrampool_pool_ops.alloc of buffer pools
 * @pool: a direct or persistent pool
 * @size: the size; aligning it does not overflow
 * @a: the allocation
 * @full: unused: buffer pools are never capped
 *
 * Places @a in the free buffer of its aligned size that comes first in the
 * pool's order, else in a new buffer of that size.
 *
 * Return: 0 or a negative errno from vrampool_pool_page_new().
 */
int vrampool_pool_buffer_alloc(struct vrampool_pool *pool, u64 size, struct vrampool_alloc *a,
			       bool *full)
{
	struct vrampool_pool_page *ppage;
	u64 eff;

	vrampool_pool_effective_size(pool, size, &eff);

	ppage = vrampool_pool_buffer_find_free(pool, eff);
	if (!ppage) {
		ppage = vrampool_pool_page_new(pool, eff);
		if (IS_ERR(ppage))
			return PTR_ERR(ppage);
	}

	vrampool_pool_page_take(ppage, a);
	return 0;
}

/**
 * vrampool_pool_buffer_cleanup() - &vrampool_pool_ops.cleanup of buffer pools
 * @pool: a direct or persistent pool
 * @explicit: an explicit cleanup; buffer pools have no periodic pass
 * @alloc_nr: unused
 *
 * An explicit cleanup releases every free buffer.
 */
void vrampool_pool_buffer_cleanup(struct vrampool_pool *pool, bool explicit, u64 alloc_nr)
{
	if (explicit)
		vrampool_pool_page_release_free(pool, NULL);
}

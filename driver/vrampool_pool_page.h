/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pool pages (vrampool_pool_page.c), for vrampool_pool*.c only.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_POOL_PAGE_H_
#define _VRAMPOOL_POOL_PAGE_H_

#include <linux/rbtree.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "vrampool_pool_types.h"

/* The mark of the free single-allocation pages in &vrampool_pool.pages. */
#define VRAMPOOL_PAGE_FREE	XA_MARK_1

/**
 * vrampool_pool_page_first_free() - the free single-allocation page reused first
 * @pool: the pool
 *
 * Return: the first page of &vrampool_pool.fit_tree, or NULL; walk on with
 * vrampool_pool_page_next_free().
 */
static inline struct vrampool_pool_page *
vrampool_pool_page_first_free(struct vrampool_pool *pool)
{
	struct rb_node *node = rb_first_cached(&pool->fit_tree);

	return node ? rb_entry(node, struct vrampool_pool_page, fit_node) : NULL;
}

/**
 * vrampool_pool_page_next_free() - the free page reused after another
 * @ppage: a free single-allocation page
 *
 * Return: the page after @ppage in &vrampool_pool.fit_tree, or NULL.
 */
static inline struct vrampool_pool_page *
vrampool_pool_page_next_free(struct vrampool_pool_page *ppage)
{
	struct rb_node *node = rb_next(&ppage->fit_node);

	return node ? rb_entry(node, struct vrampool_pool_page, fit_node) : NULL;
}

struct vrampool_pool_page *vrampool_pool_page_new(struct vrampool_pool *pool, u64 size);
void vrampool_pool_page_release(struct vrampool_pool_page *ppage);
void vrampool_pool_page_idle(struct vrampool_pool_page *ppage);
void vrampool_pool_page_busy(struct vrampool_pool_page *ppage);
u64 vrampool_pool_page_release_all(struct vrampool_pool *pool);

/* The fit tree (&vrampool_pool.fit_tree). */
void vrampool_pool_page_tree_add(struct vrampool_pool_page *ppage);
void vrampool_pool_page_fit_set(struct vrampool_pool_page *ppage, u64 fit);
struct vrampool_pool_page *vrampool_pool_page_first_fit(struct vrampool_pool *pool, u64 size);

/* Pages that hold one allocation each: exclusive, direct and persistent pools. */
void vrampool_pool_page_take(struct vrampool_pool_page *ppage, struct vrampool_alloc *a);
u64 vrampool_pool_page_put_back(struct vrampool_alloc *a);
bool vrampool_pool_page_unmark_busy(struct vrampool_pool_page *ppage);
void vrampool_pool_page_release_free(struct vrampool_pool *pool, struct vrampool_trim *trim);

/**
 * vrampool_trim_may_release() - whether a trim may release a free page
 * @trim: the trim, or NULL for an explicit cleanup (every free page goes)
 * @ppage: the page
 *
 * Return: false when &vrampool_trim.may_release keeps it.
 */
static inline bool vrampool_trim_may_release(struct vrampool_trim *trim,
					     struct vrampool_pool_page *ppage)
{
	return !trim || !trim->may_release || trim->may_release(trim, ppage);
}

#endif /* _VRAMPOOL_POOL_PAGE_H_ */

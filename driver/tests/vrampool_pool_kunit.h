/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit suites of the pool internals (vrampool_pool*_kunit.c)
 * share: a counting fake backing, so that pages are backed by nothing and
 * the pool logic is tested alone, without a device; pools destroyed when
 * the test ends; asserting ALLOC helpers; the pool entries of each type.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_POOL_KUNIT_H
#define VRAMPOOL_POOL_KUNIT_H

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sizes.h>

#include "vrampool_pool.h"
#include "vrampool_pool_internal.h"
#include "vrampool_pool_page.h"

struct fake_backing {
	struct vrampool_backing base;
	u64 bytes;		/* backed now */
	u32 pages;		/* backed now */
	bool full;		/* refuse new pages, as a full device would */
};

static inline int fake_back(const struct vrampool_backing *b, struct vrampool_pool_page *ppage)
{
	struct fake_backing *f = container_of(b, struct fake_backing, base);

	if (f->full)
		return -ENOSPC;
	f->bytes += ppage->size;
	f->pages++;
	return 0;
}

static inline void fake_release(const struct vrampool_backing *b, struct vrampool_pool_page *ppage)
{
	struct fake_backing *f = container_of(b, struct fake_backing, base);

	f->bytes -= ppage->size;
	f->pages--;
}

static inline struct fake_backing *fake_backing(struct kunit *test)
{
	struct fake_backing *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->base.back = fake_back;
	f->base.release = fake_release;
	return f;
}

static inline void destroy_pool(void *pool)
{
	vrampool_pool_destroy(pool);
}

/* A pool destroyed when the test ends, after its allocations are freed. */
static inline struct vrampool_pool *make_pool(struct kunit *test, struct fake_backing *f,
					      struct drm_vrampool_pool_entry cfg)
{
	struct vrampool_pool *pool = vrampool_pool_create(&cfg, 0, 256, &f->base);

	KUNIT_ASSERT_NOT_NULL(test, pool);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_pool, pool), 0);
	return pool;
}

static inline struct vrampool_alloc *
alloc_ok(struct kunit *test, struct vrampool_pool *pool, u64 size)
{
	struct vrampool_alloc *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	bool full = true;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_TRUE(test, vrampool_pool_accepts(pool, size));
	KUNIT_ASSERT_EQ(test, vrampool_pool_alloc(pool, size, a, &full), 0);
	KUNIT_EXPECT_FALSE(test, full);
	return a;
}

/* Allocates and frees @size at once: the pool sees one more request. */
static inline void alloc_free(struct kunit *test, struct vrampool_pool *pool, u64 size)
{
	vrampool_pool_free(alloc_ok(test, pool, size));
}

#define SLICED(psize, slice) ((struct drm_vrampool_pool_entry) { \
	.type = DRM_VRAMPOOL_POOL_SLICED, .flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, \
	.page_size = (psize), .max_slice_size = (slice) })

#define EXCLUSIVE(max, period) ((struct drm_vrampool_pool_entry) { \
	.type = DRM_VRAMPOOL_POOL_EXCLUSIVE, .flags = DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, \
	.max_alloc_size = (max), .dealloc_period = (period) })

#define DIRECT(reclaim) ((struct drm_vrampool_pool_entry) { \
	.type = DRM_VRAMPOOL_POOL_DIRECT, .flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT, \
	.reclaim_at = (reclaim) })

#define PERSISTENT ((struct drm_vrampool_pool_entry) { .type = DRM_VRAMPOOL_POOL_PERSISTENT })

/* The last index a page may take: DRM_VRAMPOOL_NO_PAGE is ALLOC's "no page". */
#define LAST_PAGE_INDEX	(DRM_VRAMPOOL_NO_PAGE - 1)

#endif /* VRAMPOOL_POOL_KUNIT_H */

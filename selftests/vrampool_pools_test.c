// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pool semantics, on each backend (the first device of each): how sliced,
 * exclusive and direct pools place allocations, grow, reuse and release
 * pages, how a request is routed to a pool, and the per-pool statistics
 * POOL_QUERY reports, with exact values.
 *
 * The numbers assume the device alignment of 256 (the module default):
 * the fixture checks it. Pages are VRAM buffer objects rounded up to CPU
 * pages (4 KiB); reserved_bytes counts the pool's own page sizes.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"
#include "vrampool.h"

#define ALIGN		256ULL

FIXTURE(pools) {
	int fd;
	struct vp_device dev;
	uint64_t vram_size;
	uint64_t max_page;
	uint64_t vram_start;
};

VP_BACKEND_VARIANTS(pools);

FIXTURE_SETUP(pools)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	vp_require_alignment(_metadata, self->fd, &self->dev, ALIGN,
			     "these tests expect the default alignment of 256");
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram_size));
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE, &self->max_page));
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
}

FIXTURE_TEARDOWN(pools)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- Sliced pools ---------------------------------------------------------- */

/*
 * A capped sliced pool (page 1024, cap 2048) holds two pages: two 1024
 * requests take one each, the third is refused with PoolCapacityExceeded
 * {size 1024, capacity 2048, in_use 2048} and -ENOSPC, and nothing grows.
 */
TEST_F(pools, sliced_capped_pool_refuses_past_its_cap)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, 2048);
	struct drm_vrampool_alloc a, b, c;
	struct vrampool_error err;
	char msg[256];

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024, cap 2048}");
	VP_ALLOC_OK(self->fd, 1024, 0, &a, "first 1024");
	VP_ALLOC_OK(self->fd, 1024, 0, &b, "second 1024");
	EXPECT_EQ(0u, a.pool);
	EXPECT_EQ(0u, b.pool);
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(1u, b.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(0u, b.offset);
	EXPECT_EQ(1024u, a.page_size);

	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, 1024, 0, &c));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, c.error.code);
	EXPECT_EQ(1024u, c.error.size);
	EXPECT_EQ(2048u, c.error.capacity);
	EXPECT_EQ(2048u, c.error.in_use);
	EXPECT_EQ(0u, c.error.pool);
	EXPECT_EQ(0u, c.handle);

	/* The library turns it into the documented variant and message. */
	vrampool_error_from_alloc(&err, ENOSPC, &c.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, (int)err.kind);
	vrampool_error_message(&err, msg, sizeof(msg));
	EXPECT_STREQ("memory pool capacity exceeded: failed to reserve 1024 bytes, "
		     "pool is capped at 2048 bytes (2048 bytes in use)", msg);

	VP_EXPECT_POOL(self->fd, 0, "after the refused third request",
		       .allocations = 2, .bytes_in_use = 2048, .padding = 0,
		       .reserved_bytes = 2048, .pages = 2, .pages_peak = 2,
		       .largest_alloc = 1024);
	EXPECT_EQ(self->vram_start + 2 * VP_CPU_PAGE, vp_vram_in_use(self->fd));

	/* A freed page makes room again, without growing. */
	VP_FREE_OK(self->fd, b.handle, "second 1024");
	VP_ALLOC_OK(self->fd, 1024, 0, &c, "1024 after a free");
	EXPECT_EQ(1u, c.page);
	EXPECT_EQ(b.mmap_offset, c.mmap_offset);
	VP_EXPECT_PAGES(self->fd, 0, "after the re-allocation", 2, 2048);
}

/*
 * A cap that is not a multiple of the page holds whole pages only:
 * cap 2500 with page 1024 is two pages, and the error says 2048.
 */
TEST_F(pools, sliced_cap_counts_whole_pages)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, 2500);
	struct drm_vrampool_pool_status st;
	struct drm_vrampool_alloc a, b, c;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024, cap 2500}");
	ASSERT_EQ(0, vp_pool(self->fd, 0, &st));
	EXPECT_EQ(2500u, st.config.max_pool_size) TH_LOG("the cap is kept as given");
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "first");
	VP_ALLOC_OK(self->fd, 1000, 0, &b, "second");
	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, 1000, 0, &c));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, c.error.code);
	EXPECT_EQ(1000u, c.error.size);
	EXPECT_EQ(2048u, c.error.capacity) TH_LOG("two whole pages");
	EXPECT_EQ(2000u, c.error.in_use) TH_LOG("the bytes asked for, not the padded ones");
	VP_EXPECT_PAGES(self->fd, 0, "at the cap", 2, 2048);
}

/* A freed slice is reused in place: same page, same offset, no growth. */
TEST_F(pools, sliced_freed_slice_is_reused)
{
	struct drm_vrampool_pool_entry e = vp_sliced(2048, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{2048}");
	VP_ALLOC_OK(self->fd, 512, 0, &a, "a");
	VP_ALLOC_OK(self->fd, 512, 0, &b, "b");
	VP_EXPECT_PAGES(self->fd, 0, "two slices", 1, 2048);

	VP_FREE_OK(self->fd, a.handle, "a");
	VP_EXPECT_PAGES(self->fd, 0, "a freed", 1, 2048);
	VP_ALLOC_OK(self->fd, 512, 0, &c, "c");
	EXPECT_EQ(a.page, c.page);
	EXPECT_EQ(a.offset, c.offset);
	EXPECT_EQ(a.mmap_offset, c.mmap_offset);
	VP_EXPECT_POOL(self->fd, 0, "c in a's slice",
		       .allocations = 2, .bytes_in_use = 1024, .padding = 0,
		       .reserved_bytes = 2048, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 512);
	EXPECT_EQ(self->vram_start + VP_CPU_PAGE, vp_vram_in_use(self->fd));
}

/*
 * A full capped pool passes the request on to the next pool that accepts
 * it; when that one is full too, the error names it (the last full pool).
 */
TEST_F(pools, sliced_full_capped_pool_spills_to_the_next)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_sliced(1024, VP_ABSENT, 1024),
		vp_sliced(1024, VP_ABSENT, 1024),
	};
	struct drm_vrampool_alloc a, b, c;

	VP_INSTALL_OK(self->fd, e, 2, "two sliced{1024, cap 1024}");
	VP_ALLOC_OK(self->fd, 1024, 0, &a, "first");
	VP_ALLOC_OK(self->fd, 1024, 0, &b, "second");
	EXPECT_EQ(0u, a.pool);
	EXPECT_EQ(1u, b.pool) TH_LOG("the second request must spill to pool 1");
	EXPECT_EQ(0u, b.page);

	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, 1024, 0, &c));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, c.error.code);
	EXPECT_EQ(1u, c.error.pool) TH_LOG("the error names the last full pool");
	EXPECT_EQ(1024u, c.error.size);
	EXPECT_EQ(1024u, c.error.capacity);
	EXPECT_EQ(1024u, c.error.in_use);

	VP_EXPECT_POOL(self->fd, 0, "pool 0 after the spill",
		       .allocations = 1, .bytes_in_use = 1024, .padding = 0,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 1024);
	VP_EXPECT_POOL(self->fd, 1, "pool 1 after the spill",
		       .allocations = 1, .bytes_in_use = 1024, .padding = 0,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 1024);
}

/* Two 512 requests share one 2048 page: same page, offsets 0 and 512. */
TEST_F(pools, sliced_slices_share_a_page)
{
	struct drm_vrampool_pool_entry e = vp_sliced(2048, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{2048}");
	VP_ALLOC_OK(self->fd, 512, 0, &a, "a");
	VP_ALLOC_OK(self->fd, 512, 0, &b, "b");
	EXPECT_EQ(a.page, b.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(512u, b.offset);
	EXPECT_EQ(a.mmap_offset, b.mmap_offset);
	EXPECT_EQ(2048u, a.page_size);
	EXPECT_EQ(2048u, b.page_size);
	VP_EXPECT_POOL(self->fd, 0, "two slices of one page",
		       .allocations = 2, .bytes_in_use = 1024, .padding = 0,
		       .reserved_bytes = 2048, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 512);
}

/*
 * Padding to the alignment is part of the slice and counted: 40 bytes take
 * 256 (padding 216), the next slice starts at 256. A padded slice freed and
 * reused keeps the books right: once everything is free, an explicit
 * cleanup releases the page (CubeCL loses the padding here; we must not).
 */
TEST_F(pools, sliced_padding_is_counted_and_never_lost)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024}");
	VP_ALLOC_OK(self->fd, 40, 0, &a, "a");
	VP_ALLOC_OK(self->fd, 40, 0, &b, "b");
	EXPECT_EQ(216u, a.padding);
	EXPECT_EQ(216u, b.padding);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(256u, b.offset);
	VP_EXPECT_POOL(self->fd, 0, "two 40-byte slices",
		       .allocations = 2, .bytes_in_use = 80, .padding = 432,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 40);

	/* Reuse a's padded slice with a smaller size: padding 224. */
	VP_FREE_OK(self->fd, a.handle, "a");
	VP_ALLOC_OK(self->fd, 32, 0, &c, "c");
	EXPECT_EQ(0u, c.offset);
	EXPECT_EQ(224u, c.padding);
	VP_EXPECT_POOL(self->fd, 0, "c in a's slice",
		       .allocations = 2, .bytes_in_use = 72, .padding = 440,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 40);

	VP_FREE_OK(self->fd, b.handle, "b");
	VP_FREE_OK(self->fd, c.handle, "c");
	/* The whole page is one free hole again: a 1024 request fits it. */
	VP_ALLOC_OK(self->fd, 1024, 0, &a, "whole page");
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(0u, a.offset);
	VP_EXPECT_PAGES(self->fd, 0, "whole page reused", 1, 1024);
	VP_FREE_OK(self->fd, a.handle, "whole page");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_POOL(self->fd, 0, "after the cleanup",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 1,
		       .largest_alloc = 1024);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
}

/*
 * An explicit cleanup releases only wholly free sliced pages; the next page
 * takes the next index, 3, not the freed 0 or 2: indices follow creation
 * order, the order first fit visits pages in.
 */
TEST_F(pools, sliced_cleanup_releases_only_free_pages)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024}");
	VP_ALLOC_OK(self->fd, 1024, 0, &a, "page 0");
	VP_ALLOC_OK(self->fd, 1024, 0, &b, "page 1");
	VP_ALLOC_OK(self->fd, 512, 0, &c, "page 2, half");
	EXPECT_EQ(2u, c.page);
	VP_FREE_OK(self->fd, a.handle, "page 0");
	VP_FREE_OK(self->fd, c.handle, "page 2");
	VP_EXPECT_PAGES(self->fd, 0, "before the cleanup", 3, 3072);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_POOL(self->fd, 0, "after the cleanup",
		       .allocations = 1, .bytes_in_use = 1024, .padding = 0,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 3,
		       .largest_alloc = 1024);
	EXPECT_EQ(self->vram_start + VP_CPU_PAGE, vp_vram_in_use(self->fd));

	VP_ALLOC_OK(self->fd, 1024, 0, &d, "a new page");
	EXPECT_EQ(3u, d.page) TH_LOG("the next index, not a freed one");
	VP_EXPECT_PAGES(self->fd, 0, "after the new page", 2, 2048);
}

/*
 * An uncapped sliced pool (page 1024, max_slice 256) also takes a size above
 * 80% of a page, as a whole page: (1024 - s) * 5 < 1024, i.e. s >= 820.
 * 819 and 500 are refused (BufferTooBig when no other pool takes them);
 * a capped pool never applies the rule.
 */
TEST_F(pools, sliced_near_page_rule)
{
	struct drm_vrampool_pool_entry uncapped = vp_sliced(1024, 256, VP_ABSENT);
	struct drm_vrampool_pool_entry capped = vp_sliced(1024, 256, 1024);
	struct drm_vrampool_alloc a;
	static const uint64_t refused[] = { 257, 500, 819, 1025 };
	unsigned int i;

	VP_INSTALL_OK(self->fd, &uncapped, 1, "sliced{1024, max_slice 256}");
	VP_ALLOC_OK(self->fd, 900, 0, &a, "900 (near a page)");
	EXPECT_EQ(0u, a.pool);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(124u, a.padding);
	VP_FREE_OK(self->fd, a.handle, "900");
	VP_ALLOC_OK(self->fd, 820, 0, &a, "820 (the smallest near-page size)");
	VP_FREE_OK(self->fd, a.handle, "820");
	VP_ALLOC_OK(self->fd, 256, 0, &a, "256 (max_slice)");
	VP_FREE_OK(self->fd, a.handle, "256");

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		EXPECT_EQ(-EFBIG, vp_alloc(self->fd, refused[i], 0, &a))
			TH_LOG("uncapped pool, size %" PRIu64, refused[i]);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
		EXPECT_EQ(refused[i], a.error.size);
	}

	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_INSTALL_OK(self->fd, &capped, 1, "sliced{1024, max_slice 256, cap 1024}");
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, 900, 0, &a))
		TH_LOG("a capped pool takes no near-page size");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(900u, a.error.size);
	VP_EXPECT_PAGES(self->fd, 0, "capped pool", 0, 0);
}

/*
 * A sliced pool keeps its free pages until an explicit cleanup, whatever
 * its dealloc_period (Documentation/vrampool.rst, "sliced", as in CubeCL:
 * the period is kept and reported, but only exclusive pools act on it).
 */
TEST_F(pools, sliced_dealloc_period_releases_nothing)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_pool_status st;
	struct drm_vrampool_alloc a, t;
	int i;

	e.flags |= DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
	e.dealloc_period = 5;
	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024, dealloc_period 5}");
	ASSERT_EQ(0, vp_pool(self->fd, 0, &st));
	EXPECT_EQ(5u, st.config.dealloc_period);
	VP_ALLOC_OK(self->fd, 1024, 0, &a, "a page");
	VP_FREE_OK(self->fd, a.handle, "the page");
	for (i = 0; i < 12; i++) {
		/* Zero-size requests tick the clock and take no page. */
		VP_ALLOC_OK(self->fd, 0, 0, &t, "a tick");
		VP_FREE_OK(self->fd, t.handle, "a tick");
	}
	VP_EXPECT_PAGES(self->fd, 0, "after 12 allocations", 1, 1024);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_PAGES(self->fd, 0, "after the cleanup", 0, 0);
}

/* ---- Direct pools ---------------------------------------------------------- */

/* Allocate @n sizes, then free them all: the pool holds n free buffers. */
static void free_buffers(struct __test_metadata *_metadata, int fd, const uint64_t *sizes,
			 int n)
{
	struct drm_vrampool_alloc a[8];
	int i;

	for (i = 0; i < n; i++)
		VP_ALLOC_OK(fd, sizes[i], 0, &a[i], "a buffer to free");
	for (i = 0; i < n; i++)
		VP_FREE_OK(fd, a[i].handle, "a buffer");
}

/*
 * reclaim_at 7 MiB, free buffers of 1, 2 and 3 MiB (6 MiB reserved): a
 * 4 MiB request would reach 10 MiB, so free buffers go, lowest index
 * first, until it fits: 1 MiB (9), 2 MiB (7 <= 7). 3 buffers -> 2, 7 MiB.
 * The new buffer takes the slot released last, 1 (as CubeCL's slots).
 */
TEST_F(pools, direct_reclaim_at_releases_free_buffers)
{
	struct drm_vrampool_pool_entry e = vp_direct(7 * MiB);
	static const uint64_t sizes[] = { 1 * MiB, 2 * MiB, 3 * MiB };
	struct drm_vrampool_alloc a, b;

	VP_INSTALL_OK(self->fd, &e, 1, "direct{reclaim_at 7 MiB}");
	free_buffers(_metadata, self->fd, sizes, 3);
	VP_EXPECT_PAGES(self->fd, 0, "three free buffers", 3, 6 * MiB);

	VP_ALLOC_OK(self->fd, 4 * MiB, 0, &a, "4 MiB");
	VP_EXPECT_POOL(self->fd, 0, "after the 4 MiB request",
		       .allocations = 1, .bytes_in_use = 4 * MiB, .padding = 0,
		       .reserved_bytes = 7 * MiB, .pages = 2, .pages_peak = 3,
		       .largest_alloc = 4 * MiB);
	EXPECT_EQ(self->vram_start + 7 * MiB, vp_vram_in_use(self->fd));

	/* The 3 MiB buffer is the one that stayed: it serves 3 MiB again. */
	VP_ALLOC_OK(self->fd, 3 * MiB, 0, &b, "3 MiB");
	VP_EXPECT_PAGES(self->fd, 0, "3 MiB reused", 2, 7 * MiB);
	EXPECT_EQ(2u, b.page) TH_LOG("the 3 MiB buffer was the third, index 2");
	EXPECT_EQ(1u, a.page) TH_LOG("the 4 MiB buffer takes the slot released last");
}

/* The ceiling is a watermark, not a budget: the allocation goes ahead. */
TEST_F(pools, direct_reclaim_at_is_a_watermark)
{
	struct drm_vrampool_pool_entry e = vp_direct(1 * MiB);
	struct drm_vrampool_alloc a, b, c;

	VP_INSTALL_OK(self->fd, &e, 1, "direct{reclaim_at 1 MiB}");
	VP_ALLOC_OK(self->fd, 2 * MiB, 0, &a, "2 MiB, above the ceiling alone");
	VP_ALLOC_OK(self->fd, 1 * MiB, 0, &b, "1 MiB more");
	VP_EXPECT_PAGES(self->fd, 0, "two live buffers above the ceiling", 2, 3 * MiB);

	/* reclaim_at 0 releases every free buffer on a growth. */
	VP_FREE_OK(self->fd, a.handle, "2 MiB");
	VP_FREE_OK(self->fd, b.handle, "1 MiB");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	e = vp_direct(0);
	VP_INSTALL_OK(self->fd, &e, 1, "direct{reclaim_at 0}");
	free_buffers(_metadata, self->fd, (const uint64_t[]){ 1 * MiB, 2 * MiB }, 2);
	VP_EXPECT_PAGES(self->fd, 0, "two free buffers", 2, 3 * MiB);
	VP_ALLOC_OK(self->fd, 2 * MiB, 0, &c, "2 MiB: the free 2 MiB buffer");
	VP_EXPECT_PAGES(self->fd, 0, "exact reuse releases nothing", 2, 3 * MiB);
	VP_FREE_OK(self->fd, c.handle, "2 MiB");
	VP_ALLOC_OK(self->fd, 4 * MiB, 0, &c, "4 MiB: a new buffer");
	VP_EXPECT_PAGES(self->fd, 0, "growth released every free buffer", 1, 4 * MiB);
}

/* Without reclaim_at nothing is released by a growth. */
TEST_F(pools, direct_without_reclaim_at_keeps_free_buffers)
{
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	static const uint64_t sizes[] = { 1 * MiB, 2 * MiB, 3 * MiB };
	struct drm_vrampool_alloc a;

	VP_INSTALL_OK(self->fd, &e, 1, "direct{}");
	free_buffers(_metadata, self->fd, sizes, 3);
	VP_ALLOC_OK(self->fd, 4 * MiB, 0, &a, "4 MiB");
	VP_EXPECT_POOL(self->fd, 0, "after the 4 MiB request",
		       .allocations = 1, .bytes_in_use = 4 * MiB, .padding = 0,
		       .reserved_bytes = 10 * MiB, .pages = 4, .pages_peak = 4,
		       .largest_alloc = 4 * MiB);
	EXPECT_EQ(3u, a.page);
	EXPECT_EQ(self->vram_start + 10 * MiB, vp_vram_in_use(self->fd));
}

/*
 * A direct pool reuses a free buffer only for the very same aligned size:
 * 1000 and 1010 share the 1024 bucket; 768 and 1100 get buffers of their own.
 */
TEST_F(pools, direct_reuses_by_exact_aligned_size)
{
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d;

	VP_INSTALL_OK(self->fd, &e, 1, "direct{}");
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "1000");
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(24u, a.padding);
	EXPECT_EQ(1024u, a.page_size);
	VP_FREE_OK(self->fd, a.handle, "1000");

	VP_ALLOC_OK(self->fd, 1010, 0, &b, "1010");
	EXPECT_EQ(a.page, b.page);
	EXPECT_EQ(a.mmap_offset, b.mmap_offset);
	EXPECT_EQ(14u, b.padding) TH_LOG("the padding is that of the new size");
	VP_EXPECT_POOL(self->fd, 0, "1010 in the 1024 buffer",
		       .allocations = 1, .bytes_in_use = 1010, .padding = 14,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 1010);
	VP_FREE_OK(self->fd, b.handle, "1010");

	VP_ALLOC_OK(self->fd, 768, 0, &c, "768: smaller, a buffer of its own");
	EXPECT_NE(a.page, c.page);
	EXPECT_EQ(768u, c.page_size);
	VP_ALLOC_OK(self->fd, 1100, 0, &d, "1100: bigger, a buffer of its own");
	EXPECT_NE(a.page, d.page);
	EXPECT_EQ(1280u, d.page_size);
	VP_EXPECT_POOL(self->fd, 0, "three buffers",
		       .allocations = 2, .bytes_in_use = 1868, .padding = 180,
		       .reserved_bytes = 1024 + 768 + 1280, .pages = 3, .pages_peak = 3,
		       .largest_alloc = 1100);
}

/* An explicit cleanup releases every free buffer, whatever the ceiling. */
TEST_F(pools, direct_cleanup_releases_every_free_buffer)
{
	struct drm_vrampool_pool_entry e = vp_direct(100 * MiB);
	struct drm_vrampool_alloc live;

	VP_INSTALL_OK(self->fd, &e, 1, "direct{reclaim_at 100 MiB}");
	free_buffers(_metadata, self->fd, (const uint64_t[]){ 1 * MiB, 2 * MiB, 3 * MiB }, 3);
	VP_ALLOC_OK(self->fd, 512 * KiB, 0, &live, "a live buffer");
	VP_EXPECT_PAGES(self->fd, 0, "before the cleanup", 4, 6 * MiB + 512 * KiB);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_POOL(self->fd, 0, "after the cleanup",
		       .allocations = 1, .bytes_in_use = 512 * KiB, .padding = 0,
		       .reserved_bytes = 512 * KiB, .pages = 1, .pages_peak = 4,
		       .largest_alloc = 3 * MiB);
	EXPECT_EQ(self->vram_start + 512 * KiB, vp_vram_in_use(self->fd));
}

/*
 * A buffer freed and taken again keeps its page's free mark (DOC: page
 * indices and page order): a cleanup, and a direct pool's reclaim, must
 * still see that page busy. Freed and reused twice, then cleaned up or
 * grown past the watermark, the reused buffer stays, in every pool type
 * that holds one allocation per page, and its handle still frees it.
 */
TEST_F(pools, reused_buffers_survive_cleanup_and_reclaim)
{
	static const struct {
		const char *name;
		struct drm_vrampool_pool_entry e;
		uint32_t flags;
	} cases[] = {
		{ "direct{}", { .type = DRM_VRAMPOOL_POOL_DIRECT }, 0 },
		{ "exclusive{4 MiB}", { .type = DRM_VRAMPOOL_POOL_EXCLUSIVE,
					.max_alloc_size = 4 * MiB }, 0 },
		{ "persistent", { .type = DRM_VRAMPOOL_POOL_DIRECT }, DRM_VRAMPOOL_ALLOC_PERSISTENT },
	};
	struct drm_vrampool_pool_entry reclaim = vp_direct(1 * MiB);
	struct drm_vrampool_pool_status st;
	struct drm_vrampool_alloc a, b;
	uint64_t vram;
	uint32_t pool;
	unsigned int k;
	int i;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		VP_INSTALL_OK(self->fd, &cases[k].e, 1, cases[k].name);
		pool = cases[k].flags ? DRM_VRAMPOOL_PERSISTENT_POOL : 0;
		VP_ALLOC_OK(self->fd, 1 * MiB, cases[k].flags, &a, "a buffer");
		for (i = 0; i < 2; i++) {
			VP_FREE_OK(self->fd, a.handle, "the buffer");
			VP_ALLOC_OK(self->fd, 1 * MiB, cases[k].flags, &a, "the buffer again");
		}
		ASSERT_EQ(0, vp_pool(self->fd, pool, &st));
		vram = vp_vram_in_use(self->fd);
		ASSERT_EQ(0, vp_cleanup(self->fd));
		VP_EXPECT_PAGES(self->fd, pool, cases[k].name, 1, st.reserved_bytes);
		EXPECT_EQ(vram, vp_vram_in_use(self->fd))
			TH_LOG("%s: the reused buffer's VRAM", cases[k].name);
		VP_FREE_OK(self->fd, a.handle, "the reused buffer after the cleanup");
		ASSERT_EQ(0, vp_cleanup(self->fd));
		VP_EXPECT_PAGES(self->fd, pool, cases[k].name, 0, 0);
	}

	/* Reclaim at 1 MiB: a growth releases the free buffers, not the reused one. */
	VP_INSTALL_OK(self->fd, &reclaim, 1, "direct{reclaim_at 1 MiB}");
	free_buffers(_metadata, self->fd, (const uint64_t[]){ 1 * MiB, 2 * MiB }, 2);
	for (i = 0; i < 2; i++) {
		VP_ALLOC_OK(self->fd, 1 * MiB, 0, &a, "the 1 MiB buffer again");
		VP_FREE_OK(self->fd, a.handle, "the 1 MiB buffer");
	}
	VP_ALLOC_OK(self->fd, 1 * MiB, 0, &a, "the 1 MiB buffer, kept");
	VP_EXPECT_PAGES(self->fd, 0, "one reused, one free", 2, 3 * MiB);
	VP_ALLOC_OK(self->fd, 3 * MiB, 0, &b, "3 MiB: a growth past the watermark");
	VP_EXPECT_PAGES(self->fd, 0, "the free 2 MiB buffer went, the reused one stayed",
			2, 4 * MiB);
	VP_FREE_OK(self->fd, a.handle, "the reused buffer after the reclaim");
	VP_FREE_OK(self->fd, b.handle, "3 MiB");
}

/* ---- Exclusive pools ------------------------------------------------------- */

/*
 * One allocation that ticks the client's clock (each ALLOC does) without
 * touching the exclusive pool: 2 MiB goes to the direct pool behind it
 * (the same free buffer every time), and is freed at once.
 */
static void tick(struct __test_metadata *_metadata, int fd, int n)
{
	struct drm_vrampool_alloc t;

	VP_ALLOC_OK(fd, 2 * MiB, 0, &t, "a tick");
	EXPECT_EQ(1u, t.pool) TH_LOG("tick %d must go to the direct pool", n);
	VP_FREE_OK(fd, t.handle, "a tick");
}

/*
 * exclusive{max 1 MiB, dealloc_period 5}: every 5 / 5 = 1 allocation each
 * free page is seen idle once more; a page is released at its fifth idle
 * check, and a new page starts at four: a freed page that was never reused
 * goes at the next allocation; a busy page stays, however long.
 *
 * Page sizes: max(running average, size) aligned. The average starts at
 * max/2 = 524288 and moves 1% toward each request before the page is made:
 * 1000 -> 519055 -> page 519168; 1000 again -> 513874 -> page 514048.
 */
TEST_F(pools, exclusive_releases_idle_pages_after_its_period)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_exclusive(1 * MiB, 5), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc a, b;
	int i;

	VP_INSTALL_OK(self->fd, e, 2, "exclusive{1 MiB, period 5}, direct{}");
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "A (allocation 1)");
	VP_ALLOC_OK(self->fd, 1000, 0, &b, "B (allocation 2)");
	EXPECT_EQ(0u, a.pool);
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(1u, b.page);
	EXPECT_EQ(519168u, a.page_size);
	EXPECT_EQ(514048u, b.page_size);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(24u, a.padding);
	VP_EXPECT_PAGES(self->fd, 0, "A and B", 2, 519168 + 514048);

	VP_FREE_OK(self->fd, a.handle, "A");
	VP_EXPECT_PAGES(self->fd, 0, "A freed: its page stays until a check", 2, 519168 + 514048);

	tick(_metadata, self->fd, 3);
	VP_EXPECT_POOL(self->fd, 0, "after allocation 3: A's page went, B's stays",
		       .allocations = 1, .bytes_in_use = 1000, .padding = 24,
		       .reserved_bytes = 514048, .pages = 1, .pages_peak = 2,
		       .largest_alloc = 1000);

	for (i = 4; i <= 12; i++)
		tick(_metadata, self->fd, i);
	VP_EXPECT_PAGES(self->fd, 0, "B busy through 9 more checks", 1, 514048);

	VP_FREE_OK(self->fd, b.handle, "B");
	VP_EXPECT_PAGES(self->fd, 0, "B freed", 1, 514048);
	tick(_metadata, self->fd, 13);
	VP_EXPECT_PAGES(self->fd, 0, "after allocation 13: B's page went", 0, 0);
	EXPECT_EQ(self->vram_start + vp_bo_bytes(2 * MiB), vp_vram_in_use(self->fd))
		TH_LOG("only the direct pool's tick buffer is left");
}

/*
 * exclusive{max 1 MiB, dealloc_period 25}: a check every 5 allocations. A
 * page reused twice before its first check has an idle count of 4 - 2 = 2,
 * so it is seen idle at allocations 5 (3), 10 (4) and released at 15 (5).
 */
TEST_F(pools, exclusive_reused_page_needs_more_idle_checks)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_exclusive(1 * MiB, 25), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc a;
	int i;

	VP_INSTALL_OK(self->fd, e, 2, "exclusive{1 MiB, period 25}, direct{}");
	for (i = 1; i <= 3; i++) {
		VP_ALLOC_OK(self->fd, 1000, 0, &a, "the page (again)");
		EXPECT_EQ(0u, a.page) TH_LOG("allocation %d", i);
		EXPECT_EQ(519168u, a.page_size) TH_LOG("allocation %d reuses the first page", i);
		VP_EXPECT_PAGES(self->fd, 0, "one page", 1, 519168);
		VP_FREE_OK(self->fd, a.handle, "the page");
	}
	for (i = 4; i <= 14; i++) {
		tick(_metadata, self->fd, i);
		VP_EXPECT_PAGES(self->fd, 0, "idle, not yet five checks", 1, 519168);
		if (_metadata->exit_code) {
			TH_LOG("the page went at allocation %d, expected 15", i);
			break;
		}
	}
	tick(_metadata, self->fd, 15);
	VP_EXPECT_PAGES(self->fd, 0, "after allocation 15: the fifth idle check", 0, 0);
}

/*
 * Page size is max(running average, size), aligned; a free page that fits
 * (size >= request) is reused, a too-small one is not.
 * Averages (start 524288): 1000 -> 519055 (page 519168); 600000 -> 519864
 * (page 600064); 1000 reuses page 0; 540000 reuses page 1; 700000 -> page
 * 700160.
 */
TEST_F(pools, exclusive_page_size_and_reuse)
{
	struct drm_vrampool_pool_entry e = vp_exclusive(1 * MiB, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d, f;

	VP_INSTALL_OK(self->fd, &e, 1, "exclusive{1 MiB}");
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "1000");
	EXPECT_EQ(519168u, a.page_size) TH_LOG("the running average, not the size");
	VP_ALLOC_OK(self->fd, 600000, 0, &b, "600000");
	EXPECT_EQ(600064u, b.page_size) TH_LOG("the size, above the average");
	EXPECT_EQ(1u, b.page);
	EXPECT_EQ(64u, b.padding);

	VP_FREE_OK(self->fd, a.handle, "1000");
	VP_ALLOC_OK(self->fd, 1000, 0, &c, "1000 again");
	EXPECT_EQ(0u, c.page);
	EXPECT_EQ(a.mmap_offset, c.mmap_offset);
	EXPECT_EQ(519168u, c.page_size);

	VP_FREE_OK(self->fd, b.handle, "600000");
	VP_ALLOC_OK(self->fd, 540000, 0, &d, "540000: fits the free 600064 page");
	EXPECT_EQ(1u, d.page);
	EXPECT_EQ(600064u, d.page_size);
	VP_EXPECT_PAGES(self->fd, 0, "two pages, both reused", 2, 519168 + 600064);

	VP_FREE_OK(self->fd, c.handle, "1000 again");
	VP_ALLOC_OK(self->fd, 700000, 0, &f, "700000: no free page fits");
	EXPECT_EQ(2u, f.page);
	EXPECT_EQ(700160u, f.page_size);
	VP_EXPECT_POOL(self->fd, 0, "three pages",
		       .allocations = 2, .bytes_in_use = 1240000, .padding = 320,
		       .reserved_bytes = 519168 + 600064 + 700160, .pages = 3, .pages_peak = 3,
		       .largest_alloc = 700000);

	/* The largest size: a page of exactly max_alloc_size. */
	VP_FREE_OK(self->fd, d.handle, "540000");
	VP_FREE_OK(self->fd, f.handle, "700000");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_PAGES(self->fd, 0, "after the cleanup", 0, 0);
	VP_ALLOC_OK(self->fd, 1 * MiB, 0, &a, "1 MiB");
	EXPECT_EQ(1 * MiB, a.page_size);
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, 1 * MiB + 1, 0, &b));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, b.error.code);
}

/* Without a dealloc period, free pages go only in an explicit cleanup. */
TEST_F(pools, exclusive_without_period_waits_for_cleanup)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_exclusive(1 * MiB, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc a, b;
	int i;

	VP_INSTALL_OK(self->fd, e, 2, "exclusive{1 MiB}, direct{}");
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "A");
	VP_ALLOC_OK(self->fd, 1000, 0, &b, "B");
	VP_FREE_OK(self->fd, a.handle, "A");
	for (i = 3; i <= 12; i++)
		tick(_metadata, self->fd, i);
	VP_EXPECT_PAGES(self->fd, 0, "no period: the free page stays", 2, 519168 + 514048);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_PAGES(self->fd, 0, "the cleanup released the free page only", 1, 514048);
}

/* ---- Routing ----------------------------------------------------------------- */

/* BufferTooBig (-EFBIG) when no pool accepts the size. */
TEST_F(pools, routing_buffer_too_big)
{
	struct drm_vrampool_pool_entry e = vp_exclusive(1024, VP_ABSENT);
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_alloc a;
	struct vrampool_error err;
	uint64_t last;
	char msg[128];

	/* The default layout ends with exclusive{floor(m / a) * a}. */
	last = self->max_page / ALIGN * ALIGN;
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	VP_ALLOC_OK(self->fd, last, 0, &a, "the largest size of the default layout");
	EXPECT_EQ(q.num_pools - 1, a.pool) TH_LOG("the last (exclusive) pool");
	EXPECT_EQ(last, a.page_size);
	VP_FREE_OK(self->fd, a.handle, "the largest size");
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, last + 1, 0, &a));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(last + 1, a.error.size);
	EXPECT_EQ(0u, a.handle);
	vrampool_error_from_alloc(&err, EFBIG, &a.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_BUFFER_TOO_BIG, (int)err.kind);
	EXPECT_EQ(last + 1, err.size);
	ASSERT_EQ(0, vp_cleanup(self->fd));

	ASSERT_EQ(0, vp_install_list(self->fd, &e, 1, &ins));
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, 2048, 0, &a));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(2048u, a.error.size);
	EXPECT_EQ(0u, a.error.capacity);
	EXPECT_EQ(0u, a.error.in_use);
	vrampool_error_from_alloc(&err, EFBIG, &a.error);
	vrampool_error_message(&err, msg, sizeof(msg));
	EXPECT_STREQ("can't allocate buffer of size: 2048", msg);
	VP_EXPECT_PAGES(self->fd, 0, "nothing was made", 0, 0);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));

	/* A size whose alignment passes 2^64 - 1 fits no pool either. */
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, UINT64_MAX, 0, &a));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(UINT64_MAX, a.error.size);
	e = vp_direct(VP_ABSENT);
	ASSERT_EQ(0, vp_install_list(self->fd, &e, 1, &ins));
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, UINT64_MAX, 0, &a))
		TH_LOG("a direct pool takes any size but one that cannot be aligned");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(-EFBIG, vp_alloc(self->fd, UINT64_MAX - 254, DRM_VRAMPOOL_ALLOC_PERSISTENT,
				   &a));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(UINT64_MAX - 254, a.error.size);
}

/* The first pool in list order that accepts the size serves it. */
TEST_F(pools, routing_first_accepting_pool)
{
	struct drm_vrampool_pool_entry e[4] = {
		vp_sliced(1024, VP_ABSENT, VP_ABSENT),
		vp_exclusive(8192, VP_ABSENT),
		vp_direct(VP_ABSENT),
		/* after a direct pool: unreachable */
		vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT),
	};
	static const struct { uint64_t size; uint32_t pool; } want[] = {
		{ 1, 0 }, { 1024, 0 }, { 1025, 1 }, { 8192, 1 }, { 8193, 2 }, { 512 * KiB, 2 },
	};
	struct drm_vrampool_alloc a;
	unsigned int i;

	VP_INSTALL_OK(self->fd, e, 4, "sliced{1024}, exclusive{8192}, direct{}, sliced{1 MiB}");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		VP_ALLOC_OK(self->fd, want[i].size, 0, &a, "routed");
		EXPECT_EQ(want[i].pool, a.pool) TH_LOG("size %" PRIu64, want[i].size);
	}
	VP_EXPECT_PAGES(self->fd, 3, "the pool after the direct one", 0, 0);
}

/* A zero-size allocation has no page, no offset, no padding and no mapping. */
static void expect_pageless(struct __test_metadata *_metadata, const struct drm_vrampool_alloc *a,
			    uint32_t pool)
{
	EXPECT_EQ(pool, a->pool);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_NO_PAGE, a->page);
	EXPECT_EQ(0u, a->offset);
	EXPECT_EQ(0u, a->padding);
	EXPECT_EQ(0u, a->page_size);
	EXPECT_EQ(0u, a->mmap_offset);
	EXPECT_NE(0u, a->handle);
}

#define VP_EXPECT_PAGELESS(a, pool_index) expect_pageless(_metadata, &(a), pool_index)

/*
 * Zero-size requests work everywhere and never take a page: the default
 * layout gives them to pool 0, exclusive{0}; a sliced, a direct and the
 * persistent pool serve them too. Each is counted in its pool's
 * allocations, holds no page and no VRAM, and is freed like any other.
 */
TEST_F(pools, zero_size_requests)
{
	struct drm_vrampool_pool_entry sliced = vp_sliced(1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_pool_status st;
	struct drm_vrampool_alloc a, b, p;

	/* The default layout: pool 0 is exclusive{0}. */
	ASSERT_EQ(0, vp_pool(self->fd, 0, &st));
	ASSERT_EQ((uint32_t)DRM_VRAMPOOL_POOL_EXCLUSIVE, st.config.type);
	ASSERT_EQ(0u, st.config.max_alloc_size);
	VP_ALLOC_OK(self->fd, 0, 0, &a, "0, default layout");
	VP_EXPECT_PAGELESS(a, 0);
	VP_ALLOC_OK(self->fd, 0, 0, &b, "another 0, default layout");
	VP_EXPECT_PAGELESS(b, 0);
	EXPECT_NE(a.handle, b.handle);
	VP_EXPECT_POOL(self->fd, 0, "two zero-size allocations",
		       .allocations = 2, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
	VP_FREE_OK(self->fd, a.handle, "0");
	VP_FREE_OK(self->fd, b.handle, "0");
	EXPECT_EQ(-ENOENT, vp_free(self->fd, b.handle));
	VP_EXPECT_POOL(self->fd, 0, "both freed",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);

	/* Sliced only: no page. */
	VP_INSTALL_OK(self->fd, &sliced, 1, "sliced{1024}");
	VP_ALLOC_OK(self->fd, 0, 0, &a, "0, sliced");
	VP_EXPECT_PAGELESS(a, 0);
	VP_EXPECT_POOL(self->fd, 0, "a zero-size slice",
		       .allocations = 1, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);
	VP_FREE_OK(self->fd, a.handle, "0, sliced");

	/* Direct: no buffer, however many. */
	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	VP_ALLOC_OK(self->fd, 0, 0, &a, "0, direct");
	VP_EXPECT_PAGELESS(a, 0);
	VP_ALLOC_OK(self->fd, 0, 0, &b, "0 again, direct");
	VP_EXPECT_PAGELESS(b, 0);
	VP_EXPECT_POOL(self->fd, 0, "two zero-size allocations, direct",
		       .allocations = 2, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);

	/* Persistent: no buffer, and no bucket for size 0. */
	VP_ALLOC_OK(self->fd, 0, DRM_VRAMPOOL_ALLOC_PERSISTENT, &p, "0, persistent");
	VP_EXPECT_PAGELESS(p, DRM_VRAMPOOL_PERSISTENT_POOL);
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "a zero-size persistent allocation",
		       .allocations = 1, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));

	/* A live zero-size allocation blocks an install, as any other does. */
	EXPECT_EQ(-EBUSY, vp_install_list(self->fd, &sliced, 1, &ins));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOLS_IN_USE, ins.error.code);
	VP_FREE_OK(self->fd, a.handle, "0, direct");
	VP_FREE_OK(self->fd, b.handle, "0 again, direct");
	VP_FREE_OK(self->fd, p.handle, "0, persistent");
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "freed",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);
	VP_INSTALL_OK(self->fd, &sliced, 1, "sliced{1024} once they are freed");
}

/* ---- Statistics -------------------------------------------------------------- */

/*
 * A scripted sequence on [sliced{4096, max_slice 2048}, exclusive{8192},
 * direct{}] and the persistent pool, with every statistic exact:
 *   100 -> sliced page 0 @0 (pad 156); 2000 -> page 0 @256 (pad 48);
 *   3500 -> near-page, page 1 @0 (pad 84); 5000 -> exclusive page 5120
 *   (pad 120); 9000 -> direct 9216 (pad 216); 0 -> sliced, no page;
 *   persistent 300 -> 512 (pad 212); then 2000 is freed.
 */
TEST_F(pools, statistics_after_a_scripted_sequence)
{
	struct drm_vrampool_pool_entry e[3] = {
		vp_sliced(4096, 2048, VP_ABSENT),
		vp_exclusive(8192, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc a[7];
	struct drm_vrampool_pool_query q;
	static const struct {
		uint64_t size;
		uint32_t flags, pool, page;
		uint64_t offset, padding, page_size;
	} seq[] = {
		{ 100, 0, 0, 0, 0, 156, 4096 },
		{ 2000, 0, 0, 0, 256, 48, 4096 },
		{ 3500, 0, 0, 1, 0, 84, 4096 },
		{ 5000, 0, 1, 0, 0, 120, 5120 },
		{ 9000, 0, 2, 0, 0, 216, 9216 },
		{ 0, 0, 0, DRM_VRAMPOOL_NO_PAGE, 0, 0, 0 },
		{ 300, DRM_VRAMPOOL_ALLOC_PERSISTENT, DRM_VRAMPOOL_PERSISTENT_POOL, 0, 0, 212, 512 },
	};
	uint64_t vram;
	unsigned int i;

	VP_INSTALL_OK(self->fd, e, 3, "the statistics layout");
	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		VP_ALLOC_OK(self->fd, seq[i].size, seq[i].flags, &a[i], "scripted");
		EXPECT_EQ(seq[i].pool, a[i].pool) TH_LOG("step %u", i);
		EXPECT_EQ(seq[i].page, a[i].page) TH_LOG("step %u", i);
		EXPECT_EQ(seq[i].offset, a[i].offset) TH_LOG("step %u", i);
		EXPECT_EQ(seq[i].padding, a[i].padding) TH_LOG("step %u", i);
		EXPECT_EQ(seq[i].page_size, a[i].page_size) TH_LOG("step %u", i);
	}
	VP_FREE_OK(self->fd, a[1].handle, "2000");

	VP_EXPECT_POOL(self->fd, 0, "sliced",
		       .allocations = 3, .bytes_in_use = 3600, .padding = 240,
		       .reserved_bytes = 8192, .pages = 2, .pages_peak = 2,
		       .largest_alloc = 3500);
	VP_EXPECT_POOL(self->fd, 1, "exclusive",
		       .allocations = 1, .bytes_in_use = 5000, .padding = 120,
		       .reserved_bytes = 5120, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 5000);
	VP_EXPECT_POOL(self->fd, 2, "direct",
		       .allocations = 1, .bytes_in_use = 9000, .padding = 216,
		       .reserved_bytes = 9216, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 9000);
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "persistent",
		       .allocations = 1, .bytes_in_use = 300, .padding = 212,
		       .reserved_bytes = 512, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 300);

	/* VRAM: every page is a BO of whole CPU pages. */
	vram = 2 * vp_bo_bytes(4096) + vp_bo_bytes(5120) + vp_bo_bytes(9216) +
	       vp_bo_bytes(512);
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	EXPECT_EQ(vram, q.vram_in_use);
	EXPECT_EQ(self->vram_start + vram, vp_vram_in_use(self->fd));

	/* Everything freed and cleaned: the peaks and largest sizes stay. */
	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		if (i != 1)
			VP_FREE_OK(self->fd, a[i].handle, "scripted");
	}
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_POOL(self->fd, 0, "sliced, cleaned",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 2,
		       .largest_alloc = 3500);
	VP_EXPECT_POOL(self->fd, 1, "exclusive, cleaned",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 1,
		       .largest_alloc = 5000);
	VP_EXPECT_POOL(self->fd, 2, "direct, cleaned",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 1,
		       .largest_alloc = 9000);
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "persistent, cleaned",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 1,
		       .largest_alloc = 300);
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	EXPECT_EQ(0u, q.vram_in_use);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Alignment padding on a device with alignment 64 (vrampool.ko loaded with
 * alignment=64), on the first device of each backend: every allocation is
 * padded up to 64 bytes, the padding is reported per allocation and counted
 * in its pool's statistics, and slices, buffers and exclusive pages are
 * sized in multiples of 64.
 *
 * Not a *_test: vrampool_alloc_align_test.sh reloads the module with
 * alignment=64, runs this and restores the module; with the default
 * alignment of 256 every test here fails (vrampool_pools_test checks that
 * one: 40 bytes -> padding 216).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define ALIGN	64ULL

FIXTURE(align) {
	int fd;
	struct vp_device dev;
	uint64_t vram_start;
};

VP_BACKEND_VARIANTS(align);

FIXTURE_SETUP(align)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	vp_require_alignment(_metadata, self->fd, &self->dev, ALIGN,
			     "run by vrampool_alloc_align_test.sh, with vrampool.ko loaded "
			     "with alignment=64");
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
}

FIXTURE_TEARDOWN(align)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Two 40-byte requests: 24 bytes of padding each, 48 in the pool. */
TEST_F(align, padding_is_counted)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024}");
	VP_ALLOC_OK(self->fd, 40, 0, &a, "a");
	VP_ALLOC_OK(self->fd, 40, 0, &b, "b");
	EXPECT_EQ(24u, a.padding);
	EXPECT_EQ(24u, b.padding);
	EXPECT_EQ(a.page, b.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(64u, b.offset) TH_LOG("the second slice starts after the padded first");
	VP_EXPECT_POOL(self->fd, 0, "two 40-byte slices",
		       .allocations = 2, .bytes_in_use = 80, .padding = 48,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 40);

	VP_FREE_OK(self->fd, a.handle, "a");
	VP_EXPECT_POOL(self->fd, 0, "one left",
		       .allocations = 1, .bytes_in_use = 40, .padding = 24,
		       .reserved_bytes = 1024, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 40);
	/* A multiple of 64 has no padding. */
	VP_ALLOC_OK(self->fd, 64, 0, &a, "64");
	EXPECT_EQ(0u, a.padding);
	EXPECT_EQ(0u, a.offset);
}

/* The default layout (sub-slices for alignment 64) pads the same way. */
TEST_F(align, default_layout_pads_to_64)
{
	struct drm_vrampool_alloc a, b;
	struct drm_vrampool_pool_status st;

	VP_ALLOC_OK(self->fd, 40, 0, &a, "a");
	VP_ALLOC_OK(self->fd, 40, 0, &b, "b");
	EXPECT_EQ(a.pool, b.pool);
	EXPECT_EQ(24u, a.padding);
	EXPECT_EQ(24u, b.padding);
	ASSERT_EQ(0, vp_pool(self->fd, a.pool, &st));
	EXPECT_EQ(48u, st.padding) TH_LOG("pool %u", a.pool);
	EXPECT_EQ(80u, st.bytes_in_use);
	if (st.config.type == DRM_VRAMPOOL_POOL_SLICED)
		EXPECT_EQ(a.offset + 64, b.offset);
}

/*
 * Buffers (direct, persistent) are the size aligned to 64; an exclusive
 * page is max(running average, size) aligned to 64: exclusive{max 100}
 * resolves to 128, its average starts at 64 and a 100-byte request gets a
 * 128-byte page.
 */
TEST_F(align, buffers_and_pages_in_multiples_of_64)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_exclusive(100, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_pool_status st;
	struct drm_vrampool_alloc x, d, p;

	VP_INSTALL_OK(self->fd, e, 2, "exclusive{100}, direct{}");
	ASSERT_EQ(0, vp_pool(self->fd, 0, &st));
	EXPECT_EQ(128u, st.config.max_alloc_size) TH_LOG("100 aligned up to 64");

	VP_ALLOC_OK(self->fd, 100, 0, &x, "100, exclusive");
	EXPECT_EQ(0u, x.pool);
	EXPECT_EQ(128u, x.page_size);
	EXPECT_EQ(28u, x.padding);
	VP_ALLOC_OK(self->fd, 129, 0, &d, "129, direct");
	EXPECT_EQ(1u, d.pool);
	EXPECT_EQ(192u, d.page_size);
	EXPECT_EQ(63u, d.padding);
	VP_ALLOC_OK(self->fd, 40, DRM_VRAMPOOL_ALLOC_PERSISTENT, &p, "40, persistent");
	EXPECT_EQ(64u, p.page_size);
	EXPECT_EQ(24u, p.padding);

	VP_EXPECT_POOL(self->fd, 0, "exclusive",
		       .allocations = 1, .bytes_in_use = 100, .padding = 28,
		       .reserved_bytes = 128, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 100);
	VP_EXPECT_POOL(self->fd, 1, "direct",
		       .allocations = 1, .bytes_in_use = 129, .padding = 63,
		       .reserved_bytes = 192, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 129);
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "persistent",
		       .allocations = 1, .bytes_in_use = 40, .padding = 24,
		       .reserved_bytes = 64, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 40);
	EXPECT_EQ(self->vram_start + 3 * VP_CPU_PAGE, vp_vram_in_use(self->fd));
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pool layouts through DRM_IOCTL_VRAMPOOL_POOL_INSTALL and POOL_QUERY, on
 * every vrampool device (one variant per backend, one client per device):
 * what installs.
 *
 *  - a new client's default layout (the sub-slices preset, generation 1,
 *    the persistent pool last at index 255);
 *  - successful installs (explicit lists, both presets) give the resolved
 *    layout back and bump the generation by exactly one; live dynamic
 *    allocations refuse an install (EBUSY, PoolsInUse);
 *  - TEST_ONLY changes nothing.
 *
 * The fixture and the helpers: vrampool_layout_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_layout_fixture.h"

/* ---- The default layout ------------------------------------------------ */

TEST_F(layout, default_layout_is_sub_slices)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_install req;
	struct vp_snap *s = calloc(1, sizeof(*s));
	int i, fd;
	uint32_t n;

	ASSERT_NE(NULL, s);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		n = vp_expect_sub_slices(&self->props[i], expect);
		fd = open_new_client(_metadata, self, i, s, "default layout");
		TH_LOG("%s: max page size %" PRIu64 ", alignment %" PRIu64 ": %u default pools",
		       dev, self->props[i].max_page_size, self->props[i].alignment, s->num_pools);
		vp_check_layout(_metadata, dev, "default layout", s, expect, n);
		/* the first pool takes zero-size requests, the last the max page */
		EXPECT_EQ(0ull, s->pools[0].config.max_alloc_size) TH_LOG("%s", dev);
		EXPECT_EQ(self->props[i].max_page_size / self->props[i].alignment *
			  self->props[i].alignment, s->pools[n - 1].config.max_alloc_size) {
			TH_LOG("%s: last pool", dev);
		}
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
		vp_check_lib_resolves(_metadata, dev, "default layout", &self->props[i], &req,
				      expect, n);
		close(fd);
	}
	free(s);
}

/* The fixture's client is not the template of the next one. */
TEST_F(layout, new_client_starts_from_default)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_install req;
	struct vp_snap *s = calloc(1, sizeof(*s));
	int i, fd, ret;
	uint32_t n;

	ASSERT_NE(NULL, s);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		ret = vp_install(self->fds[i], &req);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		n = vp_expect_sub_slices(&self->props[i], expect);
		fd = open_new_client(_metadata, self, i, s, "new client");
		vp_check_layout(_metadata, dev, "new client", s, expect, n);
		close(fd);
	}
	free(s);
}

/* ---- Successful installs ----------------------------------------------- */

TEST_F(layout, explicit_list_resolves)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry in[13] = {
			/* 0 stays 0 */
			vp_exclusive(0, VP_ABSENT),
			/* aligned up */
			vp_exclusive(a + 1, VP_ABSENT),
			/* dealloc period 0, given */
			vp_exclusive(5 * a, 0),
			/* slice = page, filled in */
			vp_sliced(4 * a + 1, VP_ABSENT, VP_ABSENT),
			/* slice, cap, dealloc given */
			vp_sliced(8 * a, 2 * a - 1, 9 * a + 3),
			/* slice = page after alignment */
			vp_sliced(4 * a + 1, 5 * a, VP_ABSENT),
			/* 65535 pages: the most */
			vp_sliced(a, VP_ABSENT, 65535 * a + (a - 1)),
			vp_direct(VP_ABSENT),
			/* reclaim_at kept unaligned */
			vp_direct(12345),
			/* reclaim_at 0, given */
			vp_direct(0),
			/* the largest aligned size */
			vp_exclusive(~0ull - a + 1, VP_ABSENT),
			/* aligns up to it */
			vp_exclusive(~0ull - 2 * a + 2, VP_ABSENT),
			/* a huge page: no limit */
			vp_sliced(~0ull - a + 1, VP_ABSENT, VP_ABSENT),
		};
		struct drm_vrampool_pool_entry expect[13];
		struct drm_vrampool_pool_install req;
		uint32_t k;

		vp_entry_set(&in[4], DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, 1234);

		for (k = 0; k < 13; k++)
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		/* spelled out, so the expectation does not only mirror a formula */
		EXPECT_EQ(2 * a, expect[1].max_alloc_size);
		EXPECT_EQ(5 * a, expect[3].max_slice_size);
		EXPECT_EQ(2 * a, expect[4].max_slice_size);
		EXPECT_EQ(9 * a + 3, expect[4].max_pool_size);
		EXPECT_EQ(~0ull - a + 1, expect[11].max_alloc_size);

		vp_req_list(&req, in, 13, 0);
		vp_check_installed(_metadata, CL(i), "explicit list", &req, expect, 13);
	}
}

TEST_F(layout, most_pools_install)
{
	struct drm_vrampool_pool_entry in[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct drm_vrampool_pool_entry expect[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct drm_vrampool_pool_install req;
	uint32_t k, n = DRM_VRAMPOOL_MAX_DYNAMIC_POOLS;

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;

		for (k = 0; k < n; k++) {
			memset(&in[k], 0, sizeof(in[k]));
			in[k].type = k % 3 == 0 ? DRM_VRAMPOOL_POOL_EXCLUSIVE :
				     k % 3 == 1 ? DRM_VRAMPOOL_POOL_SLICED : DRM_VRAMPOOL_POOL_DIRECT;
			if (in[k].type == DRM_VRAMPOOL_POOL_EXCLUSIVE)
				in[k].max_alloc_size = k * a + 1;
			else if (in[k].type == DRM_VRAMPOOL_POOL_SLICED)
				in[k].page_size = (k + 1) * a;
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		}
		vp_req_list(&req, in, n, 0);
		vp_check_installed(_metadata, CL(i), "254 pools", &req, expect, n);
	}
}

TEST_F(layout, presets_install)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_install req;
	uint32_t n;

	for (int i = 0; i < self->n; i++) {
		n = vp_expect_exclusive_pages(&self->props[i], expect);
		EXPECT_EQ(32768ull, expect[0].max_alloc_size);
		EXPECT_EQ(self->props[i].max_page_size, expect[n - 1].max_alloc_size);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		vp_check_installed(_metadata, CL(i), "exclusive-pages", &req, expect, n);

		n = vp_expect_sub_slices(&self->props[i], expect);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
		vp_check_installed(_metadata, CL(i), "sub-slices", &req, expect, n);

		/* the same preset again is a new install */
		vp_check_installed(_metadata, CL(i), "sub-slices again", &req, expect, n);
	}
}

/* Every install, whatever it installs, bumps the generation by one. */
TEST_F(layout, generation_counts_installs)
{
	struct drm_vrampool_pool_entry base[BASE_POOLS];
	struct drm_vrampool_pool_install req;
	struct vp_snap *s = calloc(1, sizeof(*s));
	struct drm_vrampool_pool_install ans;
	uint64_t want = BASE_GEN;
	int i, k, ret;

	ASSERT_NE(NULL, s);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		want = BASE_GEN;
		base_layout(self->props[i].alignment, base);
		for (k = 0; k < 12; k++) {
			switch (k % 4) {
			case 0:	/* the very same layout again */
				ret = vp_install_list(self->fds[i], base, BASE_POOLS, &ans);
				break;
			case 1:
				vp_req_preset(&ans, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
				ret = vp_install(self->fds[i], &ans);
				break;
			case 2:	/* a refusal and a TEST_ONLY in between count for nothing */
				ret = vp_install_list(self->fds[i], base, 0, NULL);
				EXPECT_EQ(-EINVAL, ret) TH_LOG("%s: empty list", dev);
				vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, TEST_ONLY);
				ret = vp_install(self->fds[i], &req);
				EXPECT_EQ(0, ret) TH_LOG("%s: TEST_ONLY: %s", dev, strerror(-ret));
				EXPECT_EQ(want, req.generation) TH_LOG("%s: TEST_ONLY", dev);
				vp_req_preset(&ans, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
				ret = vp_install(self->fds[i], &ans);
				break;
			default:
				ret = vp_install_list(self->fds[i], base, 1, &ans);
				break;
			}
			want++;
			ASSERT_EQ(0, ret) TH_LOG("%s: install %d: %s", dev, k, strerror(-ret));
			EXPECT_EQ(want, ans.generation) TH_LOG("%s: install %d", dev, k);
			ret = vp_snap_take(self->fds[i], s);
			ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));
			EXPECT_EQ(want, s->generation) TH_LOG("%s: POOL_QUERY after install %d", dev, k);
		}
	}
	free(s);
}

/*
 * Live allocations of the dynamic pools block an install (EBUSY, PoolsInUse
 * with the live bytes), TEST_ONLY included; persistent ones do not.
 */
TEST_F(layout, pools_in_use_ebusy)
{
	struct drm_vrampool_pool_entry one[1], res[1];
	struct drm_vrampool_pool_install req;
	struct drm_vrampool_alloc small, big, zero, pers;
	struct drm_vrampool_pool_install ans;
	int i, ret;

	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;
		uint64_t a = self->props[i].alignment;
		struct vp_refusal x = {
			.err = EBUSY, .code = DRM_VRAMPOOL_ERR_POOLS_IN_USE, .entry = NO_ENTRY,
			.field = DRM_VRAMPOOL_FIELD_NONE,
		};

		/* the base layout: exclusive up to 4a, then direct */
		ret = vp_alloc(self->fds[i], 100, 0, &small);
		ASSERT_EQ(0, ret) TH_LOG("%s: ALLOC 100: %s", dev, strerror(-ret));
		EXPECT_EQ(0u, small.pool) TH_LOG("%s: ALLOC 100", dev);
		ret = vp_alloc(self->fds[i], 5 * a, 0, &big);
		ASSERT_EQ(0, ret) TH_LOG("%s: ALLOC 5a: %s", dev, strerror(-ret));
		EXPECT_EQ(1u, big.pool) TH_LOG("%s: ALLOC 5a", dev);

		one[0] = vp_exclusive(a, VP_ABSENT);
		vp_expect_resolved(&self->props[i], &one[0], &res[0]);
		vp_req_list(&req, one, 1, 0);
		x.v0 = 100 + 5 * a;
		vp_check_refused(_metadata, CL(i), "list over 2 live allocations", &req, &x);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		vp_check_refused(_metadata, CL(i), "preset over 2 live allocations", &req, &x);

		/* a layout at fault is refused as such, live allocations or not */
		one[0] = vp_sliced(0, VP_ABSENT, VP_ABSENT);
		vp_req_list(&req, one, 1, 0);
		vp_check_refused(_metadata, CL(i), "bad layout over live allocations", &req,
				 &(struct vp_refusal){
						      .err = EINVAL, .code = DRM_VRAMPOOL_ERR_ZERO_SIZE,
						      .entry = 0, .field = DRM_VRAMPOOL_FIELD_PAGE_SIZE,
				 });
		one[0] = vp_exclusive(a, VP_ABSENT);

		/* zero-size allocations count, with 0 bytes */
		ASSERT_EQ(0, vp_free(self->fds[i], small.handle)) TH_LOG("%s", dev);
		ASSERT_EQ(0, vp_free(self->fds[i], big.handle)) TH_LOG("%s", dev);
		/*
		 * An install (even a refused one) cleans up first: do it now, so
		 * that the layout is still byte for byte the same after it.
		 */
		ASSERT_EQ(0, vp_cleanup(self->fds[i])) TH_LOG("%s", dev);
		ret = vp_alloc(self->fds[i], 0, 0, &zero);
		ASSERT_EQ(0, ret) TH_LOG("%s: ALLOC 0: %s", dev, strerror(-ret));
		vp_req_list(&req, one, 1, 0);
		x.v0 = 0;
		vp_check_refused(_metadata, CL(i), "list over a zero-size allocation", &req, &x);
		ASSERT_EQ(0, vp_free(self->fds[i], zero.handle)) TH_LOG("%s", dev);

		/* persistent allocations do not block */
		ret = vp_alloc(self->fds[i], 3 * a, DRM_VRAMPOOL_ALLOC_PERSISTENT, &pers);
		ASSERT_EQ(0, ret) TH_LOG("%s: ALLOC persistent: %s", dev, strerror(-ret));
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, pers.pool) TH_LOG("%s", dev);
		ret = vp_install_list(self->fds[i], one, 1, &ans);
		EXPECT_EQ(0, ret) TH_LOG("%s: install with only persistent allocations: %s", dev,
					 strerror(-ret));
		EXPECT_EQ(BASE_GEN + 1, ans.generation) TH_LOG("%s", dev);
	}
}

/* ---- TEST_ONLY --------------------------------------------------------- */

TEST_F(layout, test_only_changes_nothing)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_install req;
	uint32_t n;

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry in[4] = {
			vp_sliced(2 * a + 3, VP_ABSENT, VP_ABSENT), vp_exclusive(7, VP_ABSENT),
			vp_direct(VP_ABSENT), vp_exclusive(0, VP_ABSENT),
		};

		for (uint32_t k = 0; k < 4; k++)
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		vp_req_list(&req, in, 4, TEST_ONLY);
		vp_check_installed(_metadata, CL(i), "TEST_ONLY list", &req, expect, 4);

		n = vp_expect_sub_slices(&self->props[i], expect);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, TEST_ONLY);
		vp_check_installed(_metadata, CL(i), "TEST_ONLY sub-slices", &req, expect, n);

		n = vp_expect_exclusive_pages(&self->props[i], expect);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, TEST_ONLY);
		vp_check_installed(_metadata, CL(i), "TEST_ONLY exclusive-pages", &req, expect, n);
	}
}

TEST_HARNESS_MAIN

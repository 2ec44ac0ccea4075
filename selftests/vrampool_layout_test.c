// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pool layouts through DRM_IOCTL_VRAMPOOL_POOL_INSTALL and POOL_QUERY, on
 * every vrampool device (one variant per backend, one client per device):
 *
 *  - a new client's default layout (the sub-slices preset, generation 1,
 *    the persistent pool last at index 255);
 *  - successful installs (explicit lists, both presets) give the resolved
 *    layout back and bump the generation by exactly one, TEST_ONLY changes
 *    nothing;
 *  - every rule of the uapi's "pool layouts" section, in its order, each
 *    with otherwise valid input: the exact errno and structured error, the
 *    message libvrampool makes of it, and the old layout and generation
 *    intact (POOL_QUERY byte for byte), with and without TEST_ONLY;
 *  - malformed requests and entries, bad user pointers;
 *  - POOL_QUERY's two-step size idiom and its must-be-zero fields;
 *  - clients (files, also in other processes) own independent layouts.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define BASE_POOLS	3
#define BASE_GEN	2ull

/* Short names for the uapi constants the cases below use all the time. */
#define ENTRY_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_entry))
#define STATUS_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_status))
#define NO_ENTRY	DRM_VRAMPOOL_NO_ENTRY
#define TEST_ONLY	DRM_VRAMPOOL_INSTALL_TEST_ONLY
#define INVALID		DRM_VRAMPOOL_ERR_INVALID_ARGUMENT

FIXTURE(layout) {
	int n;
	struct vp_device devs[VP_MAX_DEVICES];
	int fds[VP_MAX_DEVICES];		/* one client per device */
	struct vp_props props[VP_MAX_DEVICES];
};

VP_BACKEND_VARIANTS(layout);

/*
 * The layout the fixture installs over the default one, so that "intact"
 * means this layout at generation 2, not whatever a reset would give.
 */
static uint32_t base_layout(uint64_t a, struct drm_vrampool_pool_entry *e)
{
	memset(e, 0, BASE_POOLS * sizeof(*e));
	e[0].type = DRM_VRAMPOOL_POOL_EXCLUSIVE;
	e[0].max_alloc_size = 3 * a + 1;
	e[0].flags = DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
	e[0].dealloc_period = 77;
	e[1].type = DRM_VRAMPOOL_POOL_DIRECT;
	e[1].flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT;
	e[1].reclaim_at = 12345;
	e[2].type = DRM_VRAMPOOL_POOL_SLICED;
	e[2].flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
	e[2].page_size = 8 * a;
	e[2].max_slice_size = 2 * a;
	e[2].max_pool_size = 64 * a + 5;
	return BASE_POOLS;
}

FIXTURE_SETUP(layout)
{
	struct drm_vrampool_pool_entry base[BASE_POOLS];
	struct drm_vrampool_pool_install ans;
	int i, ret;

	self->n = vp_setup_open_all(_metadata, variant->backend, self->devs, self->fds);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		ret = vp_read_props(self->fds[i], &self->props[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s: GET_PARAM: %s", dev, strerror(-ret));
		ASSERT_FALSE(self->props[i].exclusive) {
			TH_LOG("%s: exclusive_memory_only is set; vrampool_exclusive_test.sh "
			       "covers such devices", dev);
		}
		base_layout(self->props[i].alignment, base);
		ret = vp_install_list(self->fds[i], base, BASE_POOLS, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: installing the base layout: %s", dev, strerror(-ret));
		ASSERT_EQ(BASE_GEN, ans.generation) {
			TH_LOG("%s: first install of a new client", dev);
		}
	}
}

/* The fixture's client of device @i, for the checks. */
#define CL(i) (&(struct vp_client){ self->fds[i], self->devs[i].name, &self->props[i] })

FIXTURE_TEARDOWN(layout)
{
	vp_teardown_close_all(self->fds);
}

/*
 * A new client of device @i (its fd), its layout in @s: it starts at
 * generation 1; @what names it in the log.
 */
static int open_new_client(struct __test_metadata *_metadata, FIXTURE_DATA(layout) *self, int i,
			   struct vp_snap *s, const char *what)
{
	const char *dev = self->devs[i].name;
	int fd, ret;

	fd = vp_open_device(&self->devs[i]);
	ASSERT_LE(0, fd) TH_LOG("%s: %s: open: %s", dev, what, strerror(-fd));
	ret = vp_snap_take(fd, s);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s: POOL_QUERY: %s", dev, what, strerror(-ret));
	EXPECT_EQ(1ull, s->generation) TH_LOG("%s: %s: a new client's generation", dev, what);
	return fd;
}

/* A refused explicit list of @n entries. */
static void refuse_list(struct __test_metadata *_metadata, FIXTURE_DATA(layout) *self, int i,
			const char *what, const struct drm_vrampool_pool_entry *e, uint32_t n,
			const struct vp_refusal *x)
{
	struct drm_vrampool_pool_install req;

	vp_req_list(&req, e, n, 0);
	vp_check_refused(_metadata, CL(i), what, &req, x);
}

/* A refused list whose entry @bad (of 3, the others valid) is @e. */
static void refuse_entry(struct __test_metadata *_metadata, FIXTURE_DATA(layout) *self, int i,
			 const char *what, uint32_t bad, const struct drm_vrampool_pool_entry *e,
			 const struct vp_refusal *x)
{
	uint64_t a = self->props[i].alignment;
	struct drm_vrampool_pool_entry list[3] = {
		vp_exclusive(a, VP_ABSENT), vp_sliced(4 * a, VP_ABSENT, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};

	list[bad] = *e;
	refuse_list(_metadata, self, i, what, list, 3, x);
}

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

/* ---- Clients ----------------------------------------------------------- */

TEST_F(layout, two_files_independent)
{
	struct drm_vrampool_pool_entry base[BASE_POOLS], one[1], expect[VP_LAYOUT_MAX];
	struct vp_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct drm_vrampool_pool_install ans;
	int i, fd, k, ret;
	uint32_t n;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;
		uint64_t al = self->props[i].alignment;
		struct drm_vrampool_pool_entry x[2] = {
			vp_exclusive(al, VP_ABSENT), vp_direct(VP_ABSENT),
		};

		fd = vp_open_device(&self->devs[i]);
		ASSERT_LE(0, fd) TH_LOG("%s: open: %s", dev, strerror(-fd));
		for (k = 0; k < 3; k++) {
			ret = vp_install_list(fd, x, 2, &ans);
			ASSERT_EQ(0, ret) TH_LOG("%s: second client: %s", dev, strerror(-ret));
			EXPECT_EQ((uint64_t)k + 2, ans.generation) TH_LOG("%s: second client", dev);
		}

		/* the fixture's client still has its base layout at generation 2 */
		ret = vp_snap_take(self->fds[i], a);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN, a->generation) TH_LOG("%s: first client", dev);
		base_layout(al, base);
		for (k = 0; k < BASE_POOLS; k++)
			vp_expect_resolved(&self->props[i], &base[k], &expect[k]);
		vp_check_layout(_metadata, dev, "first client", a, expect, BASE_POOLS);

		/* and its installs do not reach the second one */
		vp_expect_resolved(&self->props[i], &x[0], &one[0]);
		ret = vp_install_list(self->fds[i], x, 1, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: first client: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, ans.generation) TH_LOG("%s: first client", dev);
		ret = vp_snap_take(fd, b);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ(4ull, b->generation) TH_LOG("%s: second client", dev);
		vp_expect_resolved(&self->props[i], &x[0], &expect[0]);
		vp_expect_resolved(&self->props[i], &x[1], &expect[1]);
		vp_check_layout(_metadata, dev, "second client", b, expect, 2);

		/* closing the second client leaves the first alone */
		close(fd);
		ret = vp_snap_take(self->fds[i], a);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, a->generation) TH_LOG("%s: first client", dev);
		vp_check_layout(_metadata, dev, "first client after close", a, one, 1);

		/* a client opened now starts afresh */
		fd = open_new_client(_metadata, self, i, b, "third client");
		n = vp_expect_sub_slices(&self->props[i], expect);
		vp_check_layout(_metadata, dev, "third client", b, expect, n);
		close(fd);
	}
	free(a);
	free(b);
}

/* Exit codes of the child of two_processes_independent. */
enum child_step {
	CHILD_OK = 0, CHILD_OPEN, CHILD_QUERY, CHILD_DEFAULT, CHILD_INSTALL, CHILD_GENERATION,
	CHILD_SYNC, CHILD_LAYOUT,
};

/*
 * In another process: a new client of @dev starts from the default layout
 * (@def, @ndef pools), installs @x twice (generations 2 and 3), tells the
 * parent, waits for it, and finds its layout unchanged.
 */
static int child_client(const struct vp_device *dev, const struct drm_vrampool_pool_entry *def,
			uint32_t ndef, const struct drm_vrampool_pool_entry *x,
			const struct drm_vrampool_pool_entry *xres, uint32_t nx, int tell, int wait)
{
	struct drm_vrampool_pool_entry got[VP_LAYOUT_MAX];
	struct vp_snap *s = calloc(1, sizeof(*s));
	struct drm_vrampool_pool_install ans;
	char why[512], c = 'r';
	int fd, k, ret;

	fd = vp_open_device(dev);
	if (fd < 0)
		return CHILD_OPEN;
	if (!s || vp_snap_take(fd, s))
		return CHILD_QUERY;
	vp_snap_configs(s, got);
	if (s->generation != 1 || s->num_pools != ndef ||
	    vp_entries_diff(def, got, ndef, why, sizeof(why)) >= 0) {
		fprintf(stderr, "# child: default layout: generation %" PRIu64 ", %u pools: %s\n",
			s->generation, s->num_pools, why);
		return CHILD_DEFAULT;
	}
	for (k = 0; k < 2; k++) {
		ret = vp_install_list(fd, x, nx, &ans);
		if (ret) {
			fprintf(stderr, "# child: install: %s\n", strerror(-ret));
			return CHILD_INSTALL;
		}
		if (ans.generation != (uint64_t)k + 2) {
			fprintf(stderr, "# child: generation %" PRIu64 "\n",
				(uint64_t)ans.generation);
			return CHILD_GENERATION;
		}
	}
	if (write(tell, &c, 1) != 1 || read(wait, &c, 1) != 1 || c != 'g')
		return CHILD_SYNC;
	if (vp_snap_take(fd, s))
		return CHILD_QUERY;
	vp_snap_configs(s, got);
	if (s->generation != 3 || s->num_pools != nx ||
	    vp_entries_diff(xres, got, nx, why, sizeof(why)) >= 0) {
		fprintf(stderr, "# child: after the parent's install: generation %" PRIu64
			", %u pools: %s\n", s->generation, s->num_pools, why);
		return CHILD_LAYOUT;
	}
	close(fd);
	free(s);
	return CHILD_OK;
}

TEST_F(layout, two_processes_independent)
{
	struct drm_vrampool_pool_entry def[VP_LAYOUT_MAX], xres[2], z[1], zres[1];
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	int i, k, ret, status, up[2], down[2];
	char why[512], c = 0;
	struct drm_vrampool_pool_install ans;
	uint32_t ndef;
	pid_t pid;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry x[2] = {
			vp_exclusive(a + 1, VP_ABSENT), vp_direct(VP_ABSENT),
		};

		ndef = vp_expect_sub_slices(&self->props[i], def);
		for (k = 0; k < 2; k++)
			vp_expect_resolved(&self->props[i], &x[k], &xres[k]);
		z[0] = vp_sliced(16 * a, VP_ABSENT, VP_ABSENT);
		vp_expect_resolved(&self->props[i], &z[0], &zres[0]);

		ret = vp_snap_take(self->fds[i], before);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		ASSERT_EQ(0, pipe(up));
		ASSERT_EQ(0, pipe(down));
		pid = fork();
		ASSERT_LE(0, pid) TH_LOG("fork: %s", strerror(errno));
		if (pid == 0) {
			close(up[0]);
			close(down[1]);
			_exit(child_client(&self->devs[i], def, ndef, x, xres, 2, up[1], down[0]));
		}
		close(up[1]);
		close(down[0]);

		/* the child's two installs are done */
		EXPECT_EQ(1, read(up[0], &c, 1)) TH_LOG("%s: the child did not get there", dev);
		ret = vp_snap_take(self->fds[i], after);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) {
			TH_LOG("%s: another process's client changed this one: %s", dev, why);
		}
		ret = vp_install_list(self->fds[i], z, 1, &ans);
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, ans.generation) TH_LOG("%s", dev);
		c = 'g';
		EXPECT_EQ(1, write(down[1], &c, 1));
		close(down[1]);
		close(up[0]);

		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("%s: child status %#x", dev, status);
		EXPECT_EQ(CHILD_OK, WEXITSTATUS(status)) {
			TH_LOG("%s: the child failed at step %d", dev, WEXITSTATUS(status));
		}
		ret = vp_snap_take(self->fds[i], after);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, after->generation) TH_LOG("%s", dev);
		vp_check_layout(_metadata, dev, "after the child exited", after, zres, 1);
	}
	free(before);
	free(after);
}

/* A client is an open file: a forked process using the same fd is the same client. */
TEST_F(layout, inherited_fd_is_same_client)
{
	struct drm_vrampool_pool_entry x[1], xres[1];
	struct vp_snap *s = calloc(1, sizeof(*s));
	int i, ret, status;
	pid_t pid;

	ASSERT_NE(NULL, s);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		x[0] = vp_exclusive(5 * self->props[i].alignment, VP_ABSENT);
		vp_expect_resolved(&self->props[i], &x[0], &xres[0]);
		pid = fork();
		ASSERT_LE(0, pid) TH_LOG("fork: %s", strerror(errno));
		if (pid == 0) {
			struct drm_vrampool_pool_install ans;

			ret = vp_install_list(self->fds[i], x, 1, &ans);
			_exit(ret ? 1 : ans.generation == BASE_GEN + 1 ? 0 : 2);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			TH_LOG("%s: the child's install on the inherited fd: status %#x", dev, status);
		}
		ret = vp_snap_take(self->fds[i], s);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, s->generation) TH_LOG("%s", dev);
		vp_check_layout(_metadata, dev, "installed by the child", s, xres, 1);
	}
	free(s);
}

/* ---- POOL_QUERY -------------------------------------------------------- */

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* A page that is mapped no more. */
static void *unmapped_page(void)
{
	void *p = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, page_size());
	return p;
}

/* Two pages, the second unmapped: returns the first. */
static char *page_before_hole(void)
{
	char *p = mmap(NULL, 2 * page_size(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + page_size(), page_size());
	return p;
}

static bool all_poison(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t k = 0; k < len; k++)
		if (p[k] != VP_POISON)
			return false;
	return true;
}

TEST_F(layout, query_size_step)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	void *hole = unmapped_page();
	unsigned char buf[2 * (BASE_POOLS + 1) * sizeof(struct drm_vrampool_pool_status)];
	struct drm_vrampool_pool_query q;
	int i, ret;

	ASSERT_NE(NULL, hole);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		/* the pointer is not touched with size 0: not even a bad one */
		memset(&q, 0, sizeof(q));
		q.pools = (uintptr_t)hole;
		q.generation = ~0ull;
		q.num_pools = ~0u;
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: size query: %s", dev, strerror(-ret));
		EXPECT_EQ(need, q.size) TH_LOG("%s: size needed", dev);
		EXPECT_EQ((uint64_t)BASE_GEN, q.generation) TH_LOG("%s", dev);
		EXPECT_EQ((uint32_t)BASE_POOLS, q.num_pools) TH_LOG("%s", dev);
		EXPECT_EQ(0u, q.flags) TH_LOG("%s", dev);
		EXPECT_EQ(0u, q.pad) TH_LOG("%s", dev);
		EXPECT_EQ(0u, q.pad2) TH_LOG("%s", dev);
		EXPECT_EQ(0ull, q.vram_in_use) TH_LOG("%s: nothing allocated", dev);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENABLED, q.persistent_mode) {
			TH_LOG("%s: persistent mode", dev);
		}
		EXPECT_EQ(0ull, q.reserved[0]) TH_LOG("%s", dev);
		EXPECT_EQ(0ull, q.reserved[1]) TH_LOG("%s", dev);

		memset(buf, VP_POISON, sizeof(buf));
		memset(&q, 0, sizeof(q));
		q.pools = (uintptr_t)buf;
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: size query: %s", dev, strerror(-ret));
		EXPECT_TRUE(all_poison(buf, sizeof(buf))) TH_LOG("%s: size 0 wrote the buffer", dev);

		/* the data step fills exactly the size it was given */
		q.size = need;
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: data step: %s", dev, strerror(-ret));
		EXPECT_EQ(need, q.size) TH_LOG("%s", dev);
		EXPECT_FALSE(all_poison(buf, need)) TH_LOG("%s: nothing written", dev);
		EXPECT_TRUE(all_poison(buf + need, sizeof(buf) - need)) {
			TH_LOG("%s: written past the size", dev);
		}
	}
}

TEST_F(layout, query_wrong_size_einval)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	const uint32_t sizes[] = {
		1, need - 1, need + 1, need - STATUS_SIZE, need + STATUS_SIZE, STATUS_SIZE,
		0x80000000u, 0xffffffffu,
	};
	unsigned char buf[4 * (BASE_POOLS + 1) * sizeof(struct drm_vrampool_pool_status)];
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	struct drm_vrampool_pool_query q;
	char why[512];
	int i, ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		ASSERT_EQ(0, vp_snap_take(self->fds[i], before));
		for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
			memset(buf, VP_POISON, sizeof(buf));
			memset(&q, 0, sizeof(q));
			q.size = sizes[k];
			q.pools = (uintptr_t)buf;
			ret = vp_query(self->fds[i], &q);
			EXPECT_EQ(-EINVAL, ret) TH_LOG("%s: size %u", dev, sizes[k]);
			EXPECT_EQ(need, q.size) TH_LOG("%s: size %u: not updated", dev, sizes[k]);
			EXPECT_TRUE(all_poison(buf, sizeof(buf))) {
				TH_LOG("%s: size %u: the buffer was written", dev, sizes[k]);
			}
		}
		ASSERT_EQ(0, vp_snap_take(self->fds[i], after));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) TH_LOG("%s: %s", dev, why);
	}
	free(before);
	free(after);
}

TEST_F(layout, query_must_be_zero_fields_einval)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	/* flags, pad, pad2, reserved[0], reserved[1] */
	static const struct { uint32_t flags, pad, pad2; uint64_t rsv0, rsv1; } bad[] = {
		{ .flags = 1 }, { .flags = 0x80000000u }, { .pad = 1 }, { .pad = 0xffffffffu },
		{ .pad2 = 1 }, { .pad2 = 0x80000000u }, { .rsv0 = 1 }, { .rsv1 = 1ull << 63 },
		{ .rsv0 = ~0ull, .rsv1 = ~0ull },
	};
	unsigned char buf[(BASE_POOLS + 1) * sizeof(struct drm_vrampool_pool_status)];
	struct drm_vrampool_pool_query q;
	int i, step, ret;
	size_t k;

	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		for (step = 0; step < 2; step++) {	/* size query, data step */
			for (k = 0; k < ARRAY_SIZE(bad); k++) {
				memset(buf, VP_POISON, sizeof(buf));
				memset(&q, 0, sizeof(q));
				q.size = step ? need : 0;
				q.pools = (uintptr_t)buf;
				q.flags = bad[k].flags;
				q.pad = bad[k].pad;
				q.pad2 = bad[k].pad2;
				q.reserved[0] = bad[k].rsv0;
				q.reserved[1] = bad[k].rsv1;
				ret = vp_query(self->fds[i], &q);
				EXPECT_EQ(-EINVAL, ret) {
					TH_LOG("%s: %s step, case %zu: %s", dev, step ? "data" : "size",
					       k, ret ? strerror(-ret) : "accepted");
				}
				EXPECT_TRUE(all_poison(buf, sizeof(buf))) {
					TH_LOG("%s: %s step, case %zu: the buffer was written", dev,
					       step ? "data" : "size", k);
				}
			}
		}
	}
}

TEST_F(layout, query_bad_pointer_efault)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	void *hole = unmapped_page(), *ro;
	char *edge = page_before_hole();
	struct drm_vrampool_pool_query q;
	void *ptrs[4];
	char why[512];
	int i, k, ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_NE(NULL, hole);
	ASSERT_NE(NULL, edge);
	ro = mmap(NULL, page_size(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ptrs[0] = NULL;
	ptrs[1] = hole;
	ptrs[2] = ro;
	ptrs[3] = edge + page_size() - need / 2;	/* runs into the hole */

	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		ASSERT_EQ(0, vp_snap_take(self->fds[i], before));
		for (k = 0; k < 4; k++) {
			memset(&q, 0, sizeof(q));
			q.size = need;
			q.pools = (uintptr_t)ptrs[k];
			ret = vp_query(self->fds[i], &q);
			EXPECT_EQ(-EFAULT, ret) {
				TH_LOG("%s: pointer %d (%p): %s", dev, k, ptrs[k],
				       ret ? strerror(-ret) : "accepted");
			}
		}
		ASSERT_EQ(0, vp_snap_take(self->fds[i], after));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) TH_LOG("%s: %s", dev, why);
	}
	munmap(ro, page_size());
	munmap(edge, page_size());
}

/* The layout changes between the two steps: the data step says the new size. */
TEST_F(layout, query_layout_changed_between_steps)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	struct drm_vrampool_pool_status *buf = calloc(VP_QUERY_MAX, STATUS_SIZE);
	struct drm_vrampool_pool_entry big[BASE_POOLS + 2];
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_pool_install ans;
	int i, ret;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		memset(&q, 0, sizeof(q));
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		ASSERT_EQ(need, q.size) TH_LOG("%s", dev);

		base_layout(self->props[i].alignment, big);
		big[3] = vp_direct(VP_ABSENT);
		big[4] = vp_exclusive(0, VP_ABSENT);
		ret = vp_install_list(self->fds[i], big, BASE_POOLS + 2, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));

		q.pools = (uintptr_t)buf;
		ret = vp_query(self->fds[i], &q);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("%s: the stale size was accepted", dev);
		EXPECT_EQ(need + 2 * STATUS_SIZE, q.size) TH_LOG("%s: new size", dev);

		ret = vp_query(self->fds[i], &q);
		EXPECT_EQ(0, ret) TH_LOG("%s: retry with the new size: %s", dev, strerror(-ret));
		EXPECT_EQ(ans.generation, q.generation) TH_LOG("%s", dev);
		EXPECT_EQ((uint32_t)BASE_POOLS + 2, q.num_pools) TH_LOG("%s", dev);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, buf[BASE_POOLS + 2].index) {
			TH_LOG("%s: persistent pool not last", dev);
		}
	}
	free(buf);
}

/* ---- Malformed install requests ---------------------------------------- */

TEST_F(layout, empty_list)
{
	struct drm_vrampool_pool_install req;
	const struct vp_refusal x = {
		.err = EINVAL, .code = DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, .entry = NO_ENTRY,
		.field = DRM_VRAMPOOL_FIELD_COUNT, .message = "the pool list is empty",
		.lib = true,
	};

	for (int i = 0; i < self->n; i++) {
		vp_req_list(&req, NULL, 0, 0);
		vp_check_refused(_metadata, CL(i), "empty list", &req, &x);
		/* the count is checked before the entry size */
		req.entry_size = 0;
		vp_check_refused(_metadata, CL(i), "empty list, entry_size 0", &req, &x);
		req.entry_size = 3;
		vp_check_refused(_metadata, CL(i), "empty list, entry_size 3", &req, &x);
	}
}

TEST_F(layout, count_zero_with_pointer)
{
	struct drm_vrampool_pool_entry e[1] = { vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req;
	struct vp_refusal x = {
		.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
		.field = DRM_VRAMPOOL_FIELD_ENTRIES,
		.message = NULL,
	};
	char msg[128];

	for (int i = 0; i < self->n; i++) {
		vp_req_list(&req, e, 0, 0);
		x.v0 = (uintptr_t)e;
		snprintf(msg, sizeof(msg), "invalid argument: invalid `entries` (%" PRIu64 ")",
			 (uint64_t)(uintptr_t)e);
		x.message = msg;
		vp_check_refused(_metadata, CL(i), "count 0 with entries", &req, &x);
	}
}

TEST_F(layout, too_many_pools_e2big)
{
	static const uint32_t counts[] = { 255, 256, 1000, 0x80000000u, 0xffffffffu };
	struct drm_vrampool_pool_entry *many = calloc(256, ENTRY_SIZE);
	struct drm_vrampool_pool_install req;
	void *hole = unmapped_page();
	char what[96];

	ASSERT_NE(NULL, many);
	ASSERT_NE(NULL, hole);
	for (int k = 0; k < 256; k++)
		many[k] = vp_direct(VP_ABSENT);

	for (int i = 0; i < self->n; i++) {
		for (size_t c = 0; c < ARRAY_SIZE(counts); c++) {
			struct vp_refusal x = {
				.err = E2BIG, .code = DRM_VRAMPOOL_ERR_TOO_MANY_POOLS,
				.entry = NO_ENTRY, .field = DRM_VRAMPOOL_FIELD_COUNT,
				.v0 = counts[c], .lib = true,
			};

			if (counts[c] == 255)
				x.message = "the pool list has 255 entries, exceeding the maximum of 254 dynamic pools";
			/* readable, valid entries: the count alone is at fault */
			if (counts[c] <= 256) {
				vp_req_list(&req, many, counts[c], 0);
				snprintf(what, sizeof(what), "%u valid entries", counts[c]);
				vp_check_refused(_metadata, CL(i), what, &req, &x);
			}
			/* the pointer and entry size are never looked at */
			vp_req_list(&req, hole, counts[c], 0);
			snprintf(what, sizeof(what), "count %u, unmapped entries", counts[c]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
			req.entries = 0;
			req.entry_size = 1;
			x.lib = false;
			snprintf(what, sizeof(what), "count %u, NULL, entry_size 1", counts[c]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
		}
	}
	free(many);
}

TEST_F(layout, null_entries_efault)
{
	const struct vp_refusal efault = { .err = EFAULT };
	struct drm_vrampool_pool_install req;

	for (int i = 0; i < self->n; i++) {
		vp_req_list(&req, NULL, 1, 0);
		vp_check_refused(_metadata, CL(i), "NULL entries, count 1", &req, &efault);
		req.count = DRM_VRAMPOOL_MAX_DYNAMIC_POOLS;
		vp_check_refused(_metadata, CL(i), "NULL entries, count 254", &req, &efault);
	}
}

TEST_F(layout, unaligned_entries_efault)
{
	const struct vp_refusal efault = { .err = EFAULT };
	struct drm_vrampool_pool_entry expect[2];
	struct drm_vrampool_pool_install req;
	uint64_t store[2 * sizeof(struct drm_vrampool_pool_entry) / 8 + 2];
	char *base = (char *)store;	/* 8-byte aligned */
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (int off = 1; off < 8; off++) {
			struct drm_vrampool_pool_entry e[2] = {
				vp_exclusive(self->props[i].alignment, VP_ABSENT),
				vp_direct(VP_ABSENT),
			};

			memcpy(base + off, e, sizeof(e));
			vp_req_list(&req, (void *)(base + off), 2, 0);
			snprintf(what, sizeof(what), "entries at +%d", off);
			vp_check_refused(_metadata, CL(i), what, &req, &efault);
		}
		/* 8-byte alignment is enough */
		{
			struct drm_vrampool_pool_entry e[2] = {
				vp_exclusive(self->props[i].alignment, VP_ABSENT),
				vp_direct(VP_ABSENT),
			};

			memcpy(base + 8, e, sizeof(e));
			vp_expect_resolved(&self->props[i], &e[0], &expect[0]);
			vp_expect_resolved(&self->props[i], &e[1], &expect[1]);
			vp_req_list(&req, (void *)(base + 8), 2, 0);
			vp_check_installed(_metadata, CL(i), "entries at +8", &req, expect, 2);
		}
	}
}

TEST_F(layout, unmapped_entries_efault)
{
	const struct vp_refusal efault = { .err = EFAULT };
	struct drm_vrampool_pool_install req;
	void *hole = unmapped_page();

	ASSERT_NE(NULL, hole);
	for (int i = 0; i < self->n; i++) {
		vp_req_list(&req, hole, 1, 0);
		vp_check_refused(_metadata, CL(i), "unmapped entries", &req, &efault);
		vp_req_list(&req, (void *)(uintptr_t)-4096L, 1, 0);
		vp_check_refused(_metadata, CL(i), "kernel address", &req, &efault);
	}
}

TEST_F(layout, entries_tail_unmapped_efault)
{
	const struct vp_refusal efault = { .err = EFAULT };
	struct drm_vrampool_pool_entry *e, expect[2];
	struct drm_vrampool_pool_install req;
	char *page = page_before_hole();

	ASSERT_NE(NULL, page);
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;

		/* two entries ending exactly at the hole are fine */
		e = (void *)(page + page_size() - 2 * ENTRY_SIZE);
		e[0] = vp_exclusive(a, VP_ABSENT);
		e[1] = vp_sliced(2 * a, VP_ABSENT, VP_ABSENT);
		vp_expect_resolved(&self->props[i], &e[0], &expect[0]);
		vp_expect_resolved(&self->props[i], &e[1], &expect[1]);
		vp_req_list(&req, e, 2, 0);
		vp_check_installed(_metadata, CL(i), "entries up to the hole", &req, expect, 2);

		/* a third one would be in it */
		vp_req_list(&req, e, 3, 0);
		vp_check_refused(_metadata, CL(i), "third entry unmapped", &req, &efault);

		/* and so is half of the second one here */
		e = (void *)(page + page_size() - ENTRY_SIZE - ENTRY_SIZE / 2);
		e[0] = vp_exclusive(a, VP_ABSENT);
		vp_req_list(&req, e, 2, 0);
		vp_check_refused(_metadata, CL(i), "second entry half unmapped", &req, &efault);
	}
	munmap(page, page_size());
}

TEST_F(layout, wrong_entry_size)
{
	static const uint32_t sizes[] = {
		0, 1, 8, ENTRY_SIZE - 8, ENTRY_SIZE - 1, ENTRY_SIZE + 1, ENTRY_SIZE + 8,
		2 * ENTRY_SIZE, 0xffffffffu,
	};
	struct drm_vrampool_pool_entry e[2] = { vp_direct(VP_ABSENT), vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req;
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
			const struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
				.field = DRM_VRAMPOOL_FIELD_ENTRY_SIZE, .v0 = sizes[k],
			};

			vp_req_list(&req, e, 2, 0);
			req.entry_size = sizes[k];
			snprintf(what, sizeof(what), "entry_size %u", sizes[k]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
			/* the entry size is checked before the pointer */
			req.entries = 0;
			snprintf(what, sizeof(what), "entry_size %u, NULL entries", sizes[k]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
		}
	}
}

TEST_F(layout, nonzero_pad_and_reserved)
{
	static const uint32_t pads[] = { 1, 0x80000000u, 0xffffffffu };
	static const uint64_t rsv[][2] = { { 1, 0 }, { 0, 1ull << 63 }, { 6, 9 } };
	struct drm_vrampool_pool_entry e[1] = { vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req;
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (int preset = 0; preset < 2; preset++) {
			for (size_t k = 0; k < 3; k++) {
				const struct vp_refusal x = {
					.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
					.field = DRM_VRAMPOOL_FIELD_PAD, .v0 = pads[k],
				};

				if (preset)
					vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
				else
					vp_req_list(&req, e, 1, 0);
				req.pad = pads[k];
				snprintf(what, sizeof(what), "%s, pad %#x",
					 preset ? "preset" : "list", pads[k]);
				vp_check_refused(_metadata, CL(i), what, &req, &x);
			}
			for (size_t k = 0; k < 3; k++) {
				const struct vp_refusal x = {
					.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
					.field = DRM_VRAMPOOL_FIELD_RESERVED,
					.v0 = rsv[k][0] | rsv[k][1],
				};

				if (preset)
					vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
				else
					vp_req_list(&req, e, 1, 0);
				req.reserved[0] = rsv[k][0];
				req.reserved[1] = rsv[k][1];
				snprintf(what, sizeof(what), "%s, reserved %#" PRIx64 " %#" PRIx64,
					 preset ? "preset" : "list", rsv[k][0], rsv[k][1]);
				vp_check_refused(_metadata, CL(i), what, &req, &x);
			}
		}
	}
}

TEST_F(layout, unknown_flags)
{
	static const uint32_t flags[] = { 1u << 1, 1u << 31, (1u << 1) | TEST_ONLY, 0xffffffffu };
	struct drm_vrampool_pool_entry e[1] = { vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req;
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (size_t k = 0; k < ARRAY_SIZE(flags); k++) {
			const struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
				.field = DRM_VRAMPOOL_FIELD_FLAGS,	/* value: the flags */
			};

			vp_req_list(&req, e, 1, flags[k]);
			snprintf(what, sizeof(what), "list, flags %#x", flags[k]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
			vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, flags[k]);
			snprintf(what, sizeof(what), "preset, flags %#x", flags[k]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
		}
	}
}

TEST_F(layout, unknown_preset)
{
	static const uint32_t presets[] = { 3, 4, 0x80000000u, 0xffffffffu };
	struct drm_vrampool_pool_install req;
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (size_t k = 0; k < ARRAY_SIZE(presets); k++) {
			const struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
				.field = DRM_VRAMPOOL_FIELD_PRESET, .v0 = presets[k], .lib = true,
			};

			vp_req_preset(&req, presets[k], 0);
			snprintf(what, sizeof(what), "preset %#x", presets[k]);
			vp_check_refused(_metadata, CL(i), what, &req, &x);
		}
	}
}

TEST_F(layout, preset_with_list_fields)
{
	struct drm_vrampool_pool_entry e[1] = { vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req;
	uint32_t presets[2] = { DRM_VRAMPOOL_PRESET_SUB_SLICES, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES };

	for (int i = 0; i < self->n; i++) {
		for (int p = 0; p < 2; p++) {
			struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = NO_ENTRY,
			};

			vp_req_preset(&req, presets[p], 0);
			req.entries = (uintptr_t)e;
			x.field = DRM_VRAMPOOL_FIELD_ENTRIES;
			x.v0 = (uintptr_t)e;
			vp_check_refused(_metadata, CL(i), "preset with entries", &req, &x);

			vp_req_preset(&req, presets[p], 0);
			req.count = 1;
			x.field = DRM_VRAMPOOL_FIELD_COUNT;
			x.v0 = 1;
			vp_check_refused(_metadata, CL(i), "preset with count", &req, &x);

			vp_req_preset(&req, presets[p], 0);
			req.entry_size = ENTRY_SIZE;
			x.field = DRM_VRAMPOOL_FIELD_ENTRY_SIZE;
			x.v0 = ENTRY_SIZE;
			vp_check_refused(_metadata, CL(i), "preset with entry_size", &req, &x);

			/* all three: entries is named first */
			vp_req_list(&req, e, 1, 0);
			req.preset = presets[p];
			x.field = DRM_VRAMPOOL_FIELD_ENTRIES;
			x.v0 = (uintptr_t)e;
			vp_check_refused(_metadata, CL(i), "preset with a whole list", &req, &x);
		}
	}
}

/* Rule 1 before rule 2, and the fields of rule 1 in their order. */
TEST_F(layout, request_checks_in_order)
{
	struct drm_vrampool_pool_entry e[1] = { vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req;
	struct vp_refusal x = { .err = EINVAL, .code = INVALID, .entry = NO_ENTRY };

	for (int i = 0; i < self->n; i++) {
		/* flags before pad */
		vp_req_list(&req, e, 1, 1u << 5);
		req.pad = 1;
		x.field = DRM_VRAMPOOL_FIELD_FLAGS;
		vp_check_refused(_metadata, CL(i), "bad flags and pad", &req, &x);

		/* pad before reserved */
		vp_req_list(&req, e, 1, 0);
		req.pad = 2;
		req.reserved[1] = 3;
		x.field = DRM_VRAMPOOL_FIELD_PAD;
		x.v0 = 2;
		vp_check_refused(_metadata, CL(i), "bad pad and reserved", &req, &x);

		/* reserved before the preset's list fields */
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
		req.reserved[0] = 4;
		req.count = 1;
		x.field = DRM_VRAMPOOL_FIELD_RESERVED;
		x.v0 = 4;
		vp_check_refused(_metadata, CL(i), "bad reserved, preset with count", &req, &x);

		/* unknown flags before too many pools */
		vp_req_list(&req, e, 255, 1u << 2);
		x.field = DRM_VRAMPOOL_FIELD_FLAGS;
		vp_check_refused(_metadata, CL(i), "bad flags, 255 entries", &req, &x);

		/* a list field of a preset before an unknown preset */
		vp_req_preset(&req, 77, 0);
		req.count = 2;
		x.field = DRM_VRAMPOOL_FIELD_COUNT;
		x.v0 = 2;
		vp_check_refused(_metadata, CL(i), "unknown preset with count", &req, &x);
	}
}

/* ---- Malformed entries ------------------------------------------------- */

TEST_F(layout, entry_unknown_type)
{
	static const uint32_t types[] = { 0, 5, 0x100, 0x80000000u, 0xffffffffu };
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (size_t k = 0; k < ARRAY_SIZE(types); k++) {
			struct drm_vrampool_pool_entry e = { .type = types[k] };
			const struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = 2,
				.field = DRM_VRAMPOOL_FIELD_TYPE, .v0 = types[k], .lib = true,
			};

			snprintf(what, sizeof(what), "type %#x", types[k]);
			refuse_entry(_metadata, self, i, what, 2, &e, &x);
		}
	}
}

TEST_F(layout, entry_persistent_type)
{
	for (int i = 0; i < self->n; i++) {
		struct drm_vrampool_pool_entry e = { .type = DRM_VRAMPOOL_POOL_PERSISTENT };
		const struct vp_refusal x = {
			.err = EINVAL, .code = INVALID, .entry = 1,
			.field = DRM_VRAMPOOL_FIELD_TYPE, .v0 = DRM_VRAMPOOL_POOL_PERSISTENT,
			.lib = true,
			.message = "invalid argument: entry 1 has an invalid `type` (4)",
		};

		refuse_entry(_metadata, self, i, "persistent type", 1, &e, &x);
		/* also as POOL_QUERY reports it */
		e.type = DRM_VRAMPOOL_POOL_PERSISTENT;
		refuse_list(_metadata, self, i, "persistent pool alone", &e, 1,
			    &(struct vp_refusal){ .err = EINVAL, .code = INVALID, .entry = 0,
						  .field = DRM_VRAMPOOL_FIELD_TYPE,
						  .v0 = DRM_VRAMPOOL_POOL_PERSISTENT });
	}
}

TEST_F(layout, entry_flags_not_of_its_type)
{
	const struct {
		uint32_t type, flags;
	} cases[] = {
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE },
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE },
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_ENTRY_RECLAIM_AT },
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD | 0x10 },
		{ DRM_VRAMPOOL_POOL_SLICED, DRM_VRAMPOOL_ENTRY_RECLAIM_AT },
		{ DRM_VRAMPOOL_POOL_SLICED, 0x80000000u },
		{ DRM_VRAMPOOL_POOL_DIRECT, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE },
		{ DRM_VRAMPOOL_POOL_DIRECT, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE },
		{ DRM_VRAMPOOL_POOL_DIRECT, DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD },
		{ DRM_VRAMPOOL_POOL_DIRECT, DRM_VRAMPOOL_ENTRY_RECLAIM_AT | 0x20 },
		{ DRM_VRAMPOOL_POOL_DIRECT, 0xffffffffu },
	};
	char what[64];

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;

		for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
			struct drm_vrampool_pool_entry e = {
				.type = cases[k].type, .flags = cases[k].flags,
			};
			const struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = 0,
				.field = DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, .v0 = cases[k].flags,
				.lib = true,
			};

			/* the type's mandatory field is valid */
			if (e.type == DRM_VRAMPOOL_POOL_SLICED)
				e.page_size = a;
			snprintf(what, sizeof(what), "type %u, flags %#x", cases[k].type,
				 cases[k].flags);
			refuse_entry(_metadata, self, i, what, 0, &e, &x);
		}
	}
}

TEST_F(layout, entry_unused_field_nonzero)
{
	/* offsetof the __u64 field in the entry, and its field id */
#define F(name, id) offsetof(struct drm_vrampool_pool_entry, name), DRM_VRAMPOOL_FIELD_##id
	const struct {
		uint32_t type, flags;
		size_t offset;
		uint32_t field;
	} cases[] = {
		/* fields the type does not have */
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, 0, F(page_size, PAGE_SIZE) },
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, 0, F(max_slice_size, MAX_SLICE_SIZE) },
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, 0, F(max_pool_size, MAX_POOL_SIZE) },
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, 0, F(reclaim_at, RECLAIM_AT) },
		{ DRM_VRAMPOOL_POOL_SLICED, 0, F(max_alloc_size, MAX_ALLOC_SIZE) },
		{ DRM_VRAMPOOL_POOL_SLICED, 0, F(reclaim_at, RECLAIM_AT) },
		{ DRM_VRAMPOOL_POOL_DIRECT, 0, F(page_size, PAGE_SIZE) },
		{ DRM_VRAMPOOL_POOL_DIRECT, 0, F(max_slice_size, MAX_SLICE_SIZE) },
		{ DRM_VRAMPOOL_POOL_DIRECT, 0, F(max_pool_size, MAX_POOL_SIZE) },
		{ DRM_VRAMPOOL_POOL_DIRECT, 0, F(max_alloc_size, MAX_ALLOC_SIZE) },
		{ DRM_VRAMPOOL_POOL_DIRECT, DRM_VRAMPOOL_ENTRY_RECLAIM_AT,
		  F(dealloc_period, DEALLOC_PERIOD) },
		/* optional fields present without their flag */
		{ DRM_VRAMPOOL_POOL_EXCLUSIVE, 0, F(dealloc_period, DEALLOC_PERIOD) },
		{ DRM_VRAMPOOL_POOL_SLICED, 0, F(max_slice_size, MAX_SLICE_SIZE) },
		{ DRM_VRAMPOOL_POOL_SLICED, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE,
		  F(max_pool_size, MAX_POOL_SIZE) },
		{ DRM_VRAMPOOL_POOL_SLICED, 0, F(dealloc_period, DEALLOC_PERIOD) },
		{ DRM_VRAMPOOL_POOL_DIRECT, 0, F(reclaim_at, RECLAIM_AT) },
	};
#undef F
	static const uint64_t values[] = { 1, 1ull << 63 };
	char what[96];

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;

		for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
			for (size_t v = 0; v < 2; v++) {
				struct drm_vrampool_pool_entry e = {
					.type = cases[k].type, .flags = cases[k].flags,
				};
				const struct vp_refusal x = {
					.err = EINVAL, .code = INVALID, .entry = 1,
					.field = cases[k].field, .v0 = values[v], .lib = true,
				};

				/* every present field valid */
				if (e.type == DRM_VRAMPOOL_POOL_SLICED)
					e.page_size = 4 * a;
				if (e.flags & DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE)
					e.max_slice_size = a;
				if (e.flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT)
					e.reclaim_at = a;
				memcpy((char *)&e + cases[k].offset, &values[v], sizeof(values[v]));
				snprintf(what, sizeof(what), "type %u flags %#x: field %u = %#" PRIx64,
					 cases[k].type, cases[k].flags, cases[k].field, values[v]);
				refuse_entry(_metadata, self, i, what, 1, &e, &x);
			}
		}
	}
}

TEST_F(layout, entry_reserved_nonzero)
{
	static const uint32_t types[] = {
		DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_POOL_SLICED, DRM_VRAMPOOL_POOL_DIRECT,
	};
	char what[64];

	for (int i = 0; i < self->n; i++) {
		for (size_t k = 0; k < 3; k++) {
			struct drm_vrampool_pool_entry e = { .type = types[k], .reserved = 1 };
			const struct vp_refusal x = {
				.err = EINVAL, .code = INVALID, .entry = 2,
				.field = DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, .v0 = 1, .lib = true,
			};

			if (e.type == DRM_VRAMPOOL_POOL_SLICED)
				e.page_size = self->props[i].alignment;
			snprintf(what, sizeof(what), "type %u, reserved 1", types[k]);
			refuse_entry(_metadata, self, i, what, 2, &e, &x);
		}
	}
}

/*
 * Malformed entries (rule 3) are found before any layout rule (rule 4),
 * and within an entry the type first, then the flags.
 */
TEST_F(layout, entry_checks_in_order)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e[4] = {
			vp_sliced(0, VP_ABSENT, VP_ABSENT),	/* ZeroSize, rule 4 */
			vp_exclusive(~0ull, VP_ABSENT),		/* SizeOverflow, rule 4 */
			vp_direct(VP_ABSENT),
			vp_exclusive(a, VP_ABSENT),
		};
		struct vp_refusal x = { .err = EINVAL, .code = INVALID, .entry = 3, .lib = true };

		e[3].reserved = 9;
		x.field = DRM_VRAMPOOL_FIELD_ENTRY_RESERVED;
		x.v0 = 9;
		refuse_list(_metadata, self, i, "malformed last entry after bad sizes", e, 4, &x);

		e[3].flags = 0x40;
		x.field = DRM_VRAMPOOL_FIELD_ENTRY_FLAGS;
		x.v0 = 0x40;
		refuse_list(_metadata, self, i, "flags before reserved", e, 4, &x);

		e[3].type = 9;
		x.field = DRM_VRAMPOOL_FIELD_TYPE;
		x.v0 = 9;
		refuse_list(_metadata, self, i, "type before flags", e, 4, &x);

		/* flags before a field the type does not have */
		e[3] = vp_exclusive(a, VP_ABSENT);
		e[3].page_size = 5;
		e[3].flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT;
		x.field = DRM_VRAMPOOL_FIELD_ENTRY_FLAGS;
		x.v0 = DRM_VRAMPOOL_ENTRY_RECLAIM_AT;
		refuse_list(_metadata, self, i, "flags before an unused field", e, 4, &x);
	}
}

/* ---- Layout rules ------------------------------------------------------ */

TEST_F(layout, zero_page_size)
{
	for (int i = 0; i < self->n; i++) {
		struct drm_vrampool_pool_entry e = vp_sliced(0, VP_ABSENT, VP_ABSENT);
		const struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_ZERO_SIZE, .entry = 1,
			.field = DRM_VRAMPOOL_FIELD_PAGE_SIZE,
			.message = "`page_size` must be non-zero", .lib = true,
		};

		refuse_entry(_metadata, self, i, "page_size 0", 1, &e, &x);
		/* page_size is checked before the slice and the cap */
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, 0);
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 0);
		refuse_entry(_metadata, self, i, "page_size, slice and cap 0", 1, &e, &x);
	}
}

TEST_F(layout, zero_max_slice_size)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e = vp_sliced(4 * a, VP_ABSENT, VP_ABSENT);
		const struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_ZERO_SIZE, .entry = 2,
			.field = DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE,
			.message = "`max_slice_size` must be non-zero", .lib = true,
		};

		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, 0);
		refuse_entry(_metadata, self, i, "max_slice_size 0", 2, &e, &x);
		/* the slice is checked before the cap */
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 0);
		refuse_entry(_metadata, self, i, "max_slice_size and cap 0", 2, &e, &x);
	}
}

TEST_F(layout, zero_max_pool_size)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e = vp_sliced(4 * a, VP_ABSENT, VP_ABSENT);
		const struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_ZERO_SIZE, .entry = 0,
			.field = DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			.message = "`max_pool_size` must be non-zero", .lib = true,
		};

		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 0);
		refuse_entry(_metadata, self, i, "max_pool_size 0", 0, &e, &x);
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, self->props[i].alignment);
		refuse_entry(_metadata, self, i, "max_pool_size 0 with a slice", 0, &e, &x);
	}
}

/* SliceLargerThanPage of an aligned @slice and @page: into @x, message in @msg. */
static void slice_too_large(struct vp_refusal *x, char *msg, size_t len, uint64_t page,
			    uint64_t slice)
{
	x->v0 = page;
	x->v1 = slice;
	snprintf(msg, len, "`max_slice_size` (%" PRIu64 ") exceeds `page_size` (%" PRIu64
		 "); a slice can never span pages", slice, page);
}

/* CapSmallerThanPage of an aligned @page and a @cap: into @x, message in @msg. */
static void cap_too_small(struct vp_refusal *x, char *msg, size_t len, uint64_t page, uint64_t cap)
{
	x->v0 = page;
	x->v1 = cap;
	snprintf(msg, len, "`max_pool_size` (%" PRIu64 ") is smaller than `page_size` (%" PRIu64
		 "); the cap can't fit a single page", cap, page);
}

TEST_F(layout, slice_larger_than_page)
{
	char msg[256];

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		/* 5a aligned */
		struct drm_vrampool_pool_entry e = vp_sliced(4 * a + 1, VP_ABSENT, VP_ABSENT);
		struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, .entry = 1,
			.field = DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, .lib = true, .message = msg,
		};

		if (a < 2)
			SKIP(return, "alignment %" PRIu64 ": nothing to align", a);
		/* the sizes are compared aligned, and reported aligned */
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, 5 * a + 1);
		slice_too_large(&x, msg, sizeof(msg), 5 * a, 6 * a);
		refuse_entry(_metadata, self, i, "slice 5a+1 > page 4a+1", 1, &e, &x);

		/* the slice is checked before the cap */
		e = vp_sliced(8 * a, VP_ABSENT, VP_ABSENT);
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, 8 * a + 1);
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 1);
		slice_too_large(&x, msg, sizeof(msg), 8 * a, 9 * a);
		refuse_entry(_metadata, self, i, "slice 8a+1 > page 8a, cap 1", 1, &e, &x);
	}
}

TEST_F(layout, cap_smaller_than_page)
{
	char msg[256];

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		/* 5a aligned */
		struct drm_vrampool_pool_entry e = vp_sliced(4 * a + 1, VP_ABSENT, VP_ABSENT);
		struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, .entry = 2,
			.field = DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, .lib = true, .message = msg,
		};

		if (a < 2)
			SKIP(return, "alignment %" PRIu64 ": nothing to align", a);
		/* the page aligned, the cap as given */
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 5 * a - 1);
		cap_too_small(&x, msg, sizeof(msg), 5 * a, 5 * a - 1);
		refuse_entry(_metadata, self, i, "cap 5a-1 < page 5a", 2, &e, &x);

		/* the page as given would fit */
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 4 * a + 1);
		cap_too_small(&x, msg, sizeof(msg), 5 * a, 4 * a + 1);
		refuse_entry(_metadata, self, i, "cap 4a+1 < page 5a", 2, &e, &x);
	}
}

TEST_F(layout, too_many_pages)
{
	const char *msg65536 = "`max_pool_size` spans 65536 pages of `page_size`, exceeding the "
			       "maximum of 65535; increase `page_size` or lower the cap";

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e = vp_sliced(a, VP_ABSENT, VP_ABSENT);
		struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, .entry = 0,
			.field = DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, .v0 = 65536, .lib = true,
			.message = msg65536,
		};

		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 65536 * a);
		refuse_entry(_metadata, self, i, "cap of 65536 pages", 0, &e, &x);

		/* counted in aligned pages: page a-1 is page a */
		if (a > 1) {
			e = vp_sliced(a - 1, VP_ABSENT, VP_ABSENT);
			vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, 65536 * a + a - 1);
			refuse_entry(_metadata, self, i, "cap of 65536 aligned pages", 0, &e, &x);
		}

		e = vp_sliced(a, VP_ABSENT, VP_ABSENT);
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, ~0ull);
		x.v0 = ~0ull / a;
		x.message = NULL;
		refuse_entry(_metadata, self, i, "cap 2^64-1", 0, &e, &x);
	}
}

TEST_F(layout, size_overflow)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e;
		struct vp_refusal x = {
			.err = EOVERFLOW, .code = DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, .entry = 1,
			.v1 = a, .lib = true,
		};

		if (a < 2)
			SKIP(return, "alignment %" PRIu64 ": no size overflows", a);

		e = vp_exclusive(~0ull, VP_ABSENT);
		x.field = DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE;
		x.v0 = ~0ull;
		refuse_entry(_metadata, self, i, "max_alloc_size 2^64-1", 1, &e, &x);

		e = vp_exclusive(~0ull - a + 2, VP_ABSENT);
		x.v0 = ~0ull - a + 2;
		refuse_entry(_metadata, self, i, "max_alloc_size 2^64-a+1", 1, &e, &x);

		e = vp_sliced(~0ull, VP_ABSENT, VP_ABSENT);
		x.field = DRM_VRAMPOOL_FIELD_PAGE_SIZE;
		x.v0 = ~0ull;
		refuse_entry(_metadata, self, i, "page_size 2^64-1", 1, &e, &x);

		e = vp_sliced(a, VP_ABSENT, VP_ABSENT);
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, ~0ull - 1);
		x.field = DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE;
		x.v0 = ~0ull - 1;
		refuse_entry(_metadata, self, i, "max_slice_size 2^64-2", 1, &e, &x);
	}
}

/* Entries are resolved in order: the first entry at fault is reported. */
TEST_F(layout, first_failing_entry_reported)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e[5] = {
			vp_exclusive(a, VP_ABSENT), vp_direct(VP_ABSENT),
			vp_sliced(2 * a, VP_ABSENT, VP_ABSENT), vp_sliced(0, VP_ABSENT, VP_ABSENT),
			vp_sliced(a, 2 * a, VP_ABSENT),		/* SliceLargerThanPage */
		};
		struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_ZERO_SIZE, .entry = 3,
			.field = DRM_VRAMPOOL_FIELD_PAGE_SIZE, .lib = true,
		};

		refuse_list(_metadata, self, i, "ZeroSize at 3, slice > page at 4", e, 5, &x);

		e[3] = vp_sliced(a, VP_ABSENT, VP_ABSENT);
		x.code = DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE;
		x.entry = 4;
		x.field = DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE;
		x.v0 = a;
		x.v1 = 2 * a;
		refuse_list(_metadata, self, i, "slice > page at 4", e, 5, &x);

		/* an overflow earlier wins over a later EINVAL */
		e[1] = vp_exclusive(~0ull, VP_ABSENT);
		if (a > 1) {
			x.err = EOVERFLOW;
			x.code = DRM_VRAMPOOL_ERR_SIZE_OVERFLOW;
			x.entry = 1;
			x.field = DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE;
			x.v0 = ~0ull;
			x.v1 = a;
			refuse_list(_metadata, self, i, "overflow at 1, slice > page at 4", e, 5, &x);
		}
	}
}

TEST_HARNESS_MAIN

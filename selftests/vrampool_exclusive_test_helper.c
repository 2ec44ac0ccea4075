// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pool layouts on exclusive-memory-only devices (vrampool.ko loaded with
 * exclusive_memory_only=1), on every device, one variant per backend:
 *
 *  - GET_PARAM says exclusive, and so does the module parameter;
 *  - a new client starts from the exclusive-pages preset;
 *  - the sub-slices preset is refused (EOPNOTSUPP, PresetUnavailable with
 *    the preset as payload), and so is any list with a sliced entry
 *    (EOPNOTSUPP, SlicedPoolsUnavailable naming the entry), with
 *    libvrampool's messages, and the layout stays as it was;
 *  - exclusive-pages and lists of exclusive and direct pools install.
 *
 * Not a *_test: vrampool_exclusive_test.sh reloads the module with
 * exclusive_memory_only=1, runs this and restores the module; on a normal
 * device every test here fails.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define SLICED_UNAVAILABLE \
	"sliced pools are not available in this build (exclusive memory only)"

FIXTURE(exclusive) {
	int n;
	struct vp_device devs[VP_MAX_DEVICES];
	int fds[VP_MAX_DEVICES];		/* one client per device */
	struct vp_props props[VP_MAX_DEVICES];
};

VP_BACKEND_VARIANTS(exclusive);

#define CL(i) (&(struct vp_client){ self->fds[i], self->devs[i].name, &self->props[i] })

FIXTURE_SETUP(exclusive)
{
	int i, ret;

	self->n = vp_setup_open_all(_metadata, variant->backend, self->devs, self->fds);
	for (i = 0; i < self->n; i++) {
		ret = vp_read_props(self->fds[i], &self->props[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s: GET_PARAM: %s", self->devs[i].name, strerror(-ret));
	}
}

FIXTURE_TEARDOWN(exclusive)
{
	vp_teardown_close_all(self->fds);
}

TEST_F(exclusive, get_param_says_exclusive)
{
	bool param = false;
	uint64_t v;
	int i, ret;

	ret = vp_module_param_bool("exclusive_memory_only", &param);
	ASSERT_EQ(0, ret) TH_LOG("module parameter: %s", strerror(-ret));
	EXPECT_TRUE(param) TH_LOG("the module was not loaded with exclusive_memory_only=1");
	for (i = 0; i < self->n; i++) {
		v = 7;
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY, &v);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", self->devs[i].name, strerror(-ret));
		EXPECT_EQ(1ull, v) TH_LOG("%s: EXCLUSIVE_MEMORY_ONLY", self->devs[i].name);
	}
}

TEST_F(exclusive, default_layout_is_exclusive_pages)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_install req;
	struct vp_snap *s = calloc(1, sizeof(struct vp_snap));
	int i, ret;
	uint32_t n;

	ASSERT_NE(NULL, s);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		n = vp_expect_exclusive_pages(&self->props[i], expect);
		ret = vp_snap_take(self->fds[i], s);
		ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));
		TH_LOG("%s: max page size %" PRIu64 ": %u default pools", dev,
		       self->props[i].max_page_size, s->num_pools);
		EXPECT_EQ(1ull, s->generation) TH_LOG("%s: a new client's generation", dev);
		vp_check_layout(_metadata, dev, "default layout", s, expect, n);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		vp_check_lib_resolves(_metadata, dev, "default layout", &self->props[i], &req,
				      expect, n);
	}
	free(s);
}

TEST_F(exclusive, sub_slices_unavailable)
{
	const struct vp_refusal x = {
		.err = EOPNOTSUPP, .code = DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE,
		.entry = DRM_VRAMPOOL_NO_ENTRY, .field = DRM_VRAMPOOL_FIELD_PRESET,
		.v0 = DRM_VRAMPOOL_PRESET_SUB_SLICES,
		.message = "the `sub-slices` preset is not available in this build",
		.lib = true,
	};
	struct drm_vrampool_pool_entry e[1] = { vp_direct(VP_ABSENT) };
	struct drm_vrampool_pool_install req, ans;
	int i, ret;

	for (i = 0; i < self->n; i++) {
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
		vp_check_refused(_metadata, CL(i), "sub-slices, default layout", &req, &x);

		/* also over an installed layout */
		ret = vp_install_list(self->fds[i], e, 1, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", self->devs[i].name, strerror(-ret));
		EXPECT_EQ(2ull, ans.generation) TH_LOG("%s", self->devs[i].name);
		vp_check_refused(_metadata, CL(i), "sub-slices, installed layout", &req, &x);
	}
}

TEST_F(exclusive, sliced_entry_unavailable)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e[4] = {
			vp_sliced(4 * a, VP_ABSENT, VP_ABSENT), vp_exclusive(a, VP_ABSENT),
			vp_direct(VP_ABSENT), vp_sliced(a, VP_ABSENT, VP_ABSENT),
		};
		struct drm_vrampool_pool_install req;
		struct vp_refusal x = {
			.err = EOPNOTSUPP, .code = DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE,
			.entry = 0, .field = DRM_VRAMPOOL_FIELD_TYPE,
			.message = SLICED_UNAVAILABLE, .lib = true,
		};

		vp_req_list(&req, e, 1, 0);
		vp_check_refused(_metadata, CL(i), "one sliced entry", &req, &x);

		/* a sliced entry after an exclusive one */
		vp_req_list(&req, &e[1], 4 - 1, 0);
		x.entry = 2;
		vp_check_refused(_metadata, CL(i), "exclusive, direct, sliced", &req, &x);
		e[2] = vp_sliced(8 * a, VP_ABSENT, VP_ABSENT);
		vp_req_list(&req, &e[1], 2, 0);
		x.entry = 1;
		vp_check_refused(_metadata, CL(i), "exclusive, sliced", &req, &x);

		/* refused for being sliced before its sizes are looked at */
		e[2] = vp_sliced(0, 0, VP_ABSENT);
		vp_check_refused(_metadata, CL(i), "exclusive, sliced with zero sizes", &req, &x);
		e[2] = vp_sliced(a, 2 * a, VP_ABSENT);
		vp_check_refused(_metadata, CL(i), "exclusive, sliced with slice > page", &req, &x);
	}
}

/* The other rules keep their order around the sliced refusal. */
TEST_F(exclusive, sliced_refusal_in_rule_order)
{
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry e[3] = {
			vp_sliced(4 * a, VP_ABSENT, VP_ABSENT), vp_exclusive(a, VP_ABSENT),
			vp_direct(VP_ABSENT),
		};
		struct drm_vrampool_pool_install req;
		struct vp_refusal x = {
			.err = EINVAL, .code = DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, .entry = 2,
			.field = DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, .v0 = 1, .lib = true,
		};

		/* a malformed entry (rule 3) anywhere comes before (rule 4) */
		e[2].reserved = 1;
		vp_req_list(&req, e, 3, 0);
		vp_check_refused(_metadata, CL(i), "sliced, then a malformed entry", &req, &x);

		/* entries are resolved in order: an earlier overflow wins */
		e[2].reserved = 0;
		e[0] = vp_exclusive(~0ull, VP_ABSENT);
		e[1] = vp_sliced(a, VP_ABSENT, VP_ABSENT);
		if (a > 1) {
			x.err = EOVERFLOW;
			x.code = DRM_VRAMPOOL_ERR_SIZE_OVERFLOW;
			x.entry = 0;
			x.field = DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE;
			x.v0 = ~0ull;
			x.v1 = a;
			vp_check_refused(_metadata, CL(i), "overflow, then sliced", &req, &x);
		}

		/* the request rules still come first */
		vp_req_list(&req, e, 255, 0);
		x.err = E2BIG;
		x.code = DRM_VRAMPOOL_ERR_TOO_MANY_POOLS;
		x.entry = DRM_VRAMPOOL_NO_ENTRY;
		x.field = DRM_VRAMPOOL_FIELD_COUNT;
		x.v0 = 255;
		x.v1 = 0;
		x.lib = false;
		vp_check_refused(_metadata, CL(i), "255 entries", &req, &x);
	}
}

TEST_F(exclusive, exclusive_pages_installs)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_install req;
	uint32_t n;

	for (int i = 0; i < self->n; i++) {
		n = vp_expect_exclusive_pages(&self->props[i], expect);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
			      DRM_VRAMPOOL_INSTALL_TEST_ONLY);
		vp_check_installed(_metadata, CL(i), "exclusive-pages, TEST_ONLY", &req, expect, n);
		vp_req_preset(&req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		vp_check_installed(_metadata, CL(i), "exclusive-pages", &req, expect, n);
		vp_check_installed(_metadata, CL(i), "exclusive-pages again", &req, expect, n);
	}
}

TEST_F(exclusive, exclusive_and_direct_lists_install)
{
	struct drm_vrampool_pool_entry expect[6];
	struct drm_vrampool_pool_install req;

	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry in[6] = {
			vp_exclusive(0, VP_ABSENT), vp_exclusive(a + 1, VP_ABSENT),
			vp_exclusive(64 * a, 42), vp_direct(VP_ABSENT), vp_direct(1000 * a + 1),
			vp_exclusive(~0ull - a + 1, VP_ABSENT),
		};

		for (int k = 0; k < 6; k++)
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		EXPECT_EQ(2 * a, expect[1].max_alloc_size);

		vp_req_list(&req, in, 6, DRM_VRAMPOOL_INSTALL_TEST_ONLY);
		vp_check_installed(_metadata, CL(i), "exclusive and direct, TEST_ONLY", &req,
				   expect, 6);
		vp_req_list(&req, in, 6, 0);
		vp_check_installed(_metadata, CL(i), "exclusive and direct", &req, expect, 6);
		vp_req_list(&req, &in[3], 1, 0);
		vp_check_installed(_metadata, CL(i), "one direct pool", &req, &expect[3], 1);
	}
}

TEST_HARNESS_MAIN

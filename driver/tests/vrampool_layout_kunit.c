// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the shared layout code (common/vrampool_layout.c), run in
 * kernel context.
 *
 * The same rules are tested on the host (tests/host) and through the ioctl
 * (selftests); here they run as the kernel runs them: kernel types, no
 * floating point, the module's own object code.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/sizes.h>

#include "vrampool_layout.h"

#define MIB ((u64)SZ_1M)
#define GIB ((u64)SZ_1G)

static const struct vrampool_layout_props props_128m = {
	.alignment = 256, .max_page_size = 128 * MIB,
};

static const struct vrampool_layout_props props_80g_card = {
	.alignment = 512, .max_page_size = 20 * GIB,
};

static const struct vrampool_layout_props props_exclusive = {
	.alignment = 256, .max_page_size = 128 * MIB, .exclusive_memory_only = true,
};

/* Initialisers of one sliced or exclusive entry, for the case tables. */
#define SLICED(page, fl, slice, cap) { .type = DRM_VRAMPOOL_POOL_SLICED, .flags = (fl), \
	.page_size = (page), .max_slice_size = (slice), .max_pool_size = (cap) }

#define EXCLUSIVE(max) { .type = DRM_VRAMPOOL_POOL_EXCLUSIVE, .max_alloc_size = (max) }

#define ENTRY(init) ((struct drm_vrampool_pool_entry)init)

/* Room for any preset, freed with the test. */
static struct drm_vrampool_pool_entry *preset_room(struct kunit *test)
{
	struct drm_vrampool_pool_entry *out;

	out = kunit_kcalloc(test, VRAMPOOL_PRESET_MAX_POOLS, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	return out;
}

static void sub_slices_128m(struct kunit *test)
{
	struct drm_vrampool_pool_entry *out = preset_room(test);
	struct drm_vrampool_layout_error err;
	u32 n;

	KUNIT_ASSERT_EQ(test, vrampool_layout_preset(&props_128m, DRM_VRAMPOOL_PRESET_SUB_SLICES,
						     out, &n, &err), 0);
	KUNIT_ASSERT_EQ(test, n, 4);
	KUNIT_EXPECT_EQ(test, out[0].type, DRM_VRAMPOOL_POOL_EXCLUSIVE);
	KUNIT_EXPECT_EQ(test, out[0].max_alloc_size, 0);
	KUNIT_EXPECT_EQ(test, out[0].flags, 0);
	KUNIT_EXPECT_EQ(test, out[1].type, DRM_VRAMPOOL_POOL_SLICED);
	KUNIT_EXPECT_EQ(test, out[1].page_size, 8 * MIB);
	KUNIT_EXPECT_EQ(test, out[1].max_slice_size, 2 * MIB);
	KUNIT_EXPECT_EQ(test, out[2].page_size, 32 * MIB);
	KUNIT_EXPECT_EQ(test, out[2].max_slice_size, 16 * MIB);
	KUNIT_EXPECT_EQ(test, out[3].type, DRM_VRAMPOOL_POOL_EXCLUSIVE);
	KUNIT_EXPECT_EQ(test, out[3].max_alloc_size, 134217728);
	KUNIT_EXPECT_EQ(test, out[3].dealloc_period, 5000);
}

static void sub_slices_80g_card(struct kunit *test)
{
	static const u64 pages[] = { 20 * MIB, 80 * MIB, 320 * MIB, 1280 * MIB, 5 * GIB };
	static const u64 slices[] = { 640 << 10, 5 * MIB, 40 * MIB, 320 * MIB, 2560 * MIB };
	struct drm_vrampool_pool_entry *out = preset_room(test);
	struct drm_vrampool_layout_error err;
	u32 n, i;

	KUNIT_ASSERT_EQ(test, vrampool_layout_preset(&props_80g_card,
						     DRM_VRAMPOOL_PRESET_SUB_SLICES,
						     out, &n, &err), 0);
	KUNIT_ASSERT_EQ(test, n, 7);
	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		KUNIT_EXPECT_EQ(test, out[1 + i].page_size, pages[i]);
		KUNIT_EXPECT_EQ(test, out[1 + i].max_slice_size, slices[i]);
	}
	KUNIT_EXPECT_EQ(test, out[6].max_alloc_size, 21474836480ULL);
	KUNIT_EXPECT_EQ(test, out[6].dealloc_period, 105000);
}

static void exclusive_pages_reference(struct kunit *test)
{
	static const u64 small[] = {
		32768, 47104, 67584, 97024, 139264, 199936, 286976, 412160, 591616,
		849152, 1219328, 1750272, 2512896, 3607808, 5179392, 7436032, 10675712,
		15326976, 22004736, 31591936, 45355776, 65116672, 93487104, 134217728,
	};
	static const u64 big[] = {
		32768, 58880, 105472, 188416, 336896, 602624, 1078784, 1930752, 3456000,
		6187008, 11075584, 19826688, 35492864, 63537152, 113740800, 203613696,
		364499456, 652510208, 1168094208, 2091068416, 3743334400ULL, 6701145088ULL,
		11996082688ULL, 21474836480ULL,
	};
	static const u64 big_dealloc[] = { 10000, 10000, 15000, 20000, 35000, 60000, 105000 };
	struct drm_vrampool_pool_entry *out = preset_room(test);
	struct drm_vrampool_layout_error err;
	u32 n, i;

	KUNIT_ASSERT_EQ(test, vrampool_layout_preset(&props_128m,
						     DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
						     out, &n, &err), 0);
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(small));
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, out[i].max_alloc_size, small[i]);
		KUNIT_EXPECT_EQ(test, out[i].dealloc_period, 5000);
	}

	KUNIT_ASSERT_EQ(test, vrampool_layout_preset(&props_80g_card,
						     DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
						     out, &n, &err), 0);
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(big));
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, out[i].max_alloc_size, big[i]);
		KUNIT_EXPECT_EQ(test, out[i].dealloc_period,
				i < 17 ? 5000 : big_dealloc[i - 17]);
	}
}

static void presets_on_exclusive_device(struct kunit *test)
{
	struct drm_vrampool_pool_entry *out = preset_room(test);
	struct drm_vrampool_layout_error err;
	u32 n;

	KUNIT_EXPECT_EQ(test, vrampool_layout_default_preset(&props_exclusive),
			DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES);
	KUNIT_EXPECT_EQ(test, vrampool_layout_default_preset(&props_128m),
			DRM_VRAMPOOL_PRESET_SUB_SLICES);
	KUNIT_EXPECT_EQ(test, vrampool_layout_preset(&props_exclusive,
						     DRM_VRAMPOOL_PRESET_SUB_SLICES,
						     out, &n, &err), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, err.code, DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE);
	KUNIT_EXPECT_EQ(test, err.value[0], DRM_VRAMPOOL_PRESET_SUB_SLICES);
	KUNIT_EXPECT_EQ(test, vrampool_layout_preset(&props_exclusive,
						     DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
						     out, &n, &err), 0);
	KUNIT_EXPECT_EQ(test, vrampool_layout_preset(&props_128m, 3, out, &n, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.code, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT);
	KUNIT_EXPECT_EQ(test, err.field, DRM_VRAMPOOL_FIELD_PRESET);
}

/* One explicit-list rule: a one-entry list and the error it must give. */
struct rule_case {
	const char *name;
	struct drm_vrampool_pool_entry entry;
	bool exclusive_device;
	int ret;
	u32 code;
	u32 field;
	u64 v0, v1;
};

#define FLAG_SLICE	DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE
#define FLAG_CAP	DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE

static const struct rule_case rule_cases[] = {
	{ "zero page", SLICED(0, 0, 0, 0), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_ZERO_SIZE, DRM_VRAMPOOL_FIELD_PAGE_SIZE },
	{ "zero page and slice", SLICED(0, FLAG_SLICE, 0, 0), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_ZERO_SIZE, DRM_VRAMPOOL_FIELD_PAGE_SIZE },
	{ "zero slice", SLICED(1024, FLAG_SLICE, 0, 0), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_ZERO_SIZE, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE },
	{ "slice above page", SLICED(1024, FLAG_SLICE, 1025, 0), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE,
	  1024, 1280 },
	{ "zero cap", SLICED(1024, FLAG_CAP, 0, 0), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_ZERO_SIZE, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE },
	{ "cap below page", SLICED(1000, FLAG_CAP, 0, 1000), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
	  1024, 1000 },
	{ "65536 pages", SLICED(256, FLAG_CAP, 0, 256ULL * 65536), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 65536 },
	{ "65535 pages", SLICED(256, FLAG_CAP, 0, 256ULL * 65536 - 1), false, 0 },
	{ "sliced on exclusive device", SLICED(0, 0, 0, 0), true, -EOPNOTSUPP,
	  DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, DRM_VRAMPOOL_FIELD_TYPE },
	{ "page overflow", SLICED(U64_MAX, 0, 0, 0), false, -EOVERFLOW,
	  DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, DRM_VRAMPOOL_FIELD_PAGE_SIZE, U64_MAX, 256 },
	{ "exclusive overflow", EXCLUSIVE(U64_MAX - 254), false, -EOVERFLOW,
	  DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, U64_MAX - 254, 256 },
	{ "exclusive at the top", EXCLUSIVE(U64_MAX - 255), false, 0 },
	{ "exclusive zero", EXCLUSIVE(0), false, 0 },
	{ "unknown type", { .type = 9 }, false, -EINVAL,
	  DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, DRM_VRAMPOOL_FIELD_TYPE, 9 },
	{ "persistent type", { .type = DRM_VRAMPOOL_POOL_PERSISTENT }, false, -EINVAL,
	  DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, DRM_VRAMPOOL_FIELD_TYPE, 4 },
	{ "reclaim_at on sliced", SLICED(1024, DRM_VRAMPOOL_ENTRY_RECLAIM_AT, 0, 0), false,
	  -EINVAL, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, DRM_VRAMPOOL_FIELD_ENTRY_FLAGS,
	  DRM_VRAMPOOL_ENTRY_RECLAIM_AT },
	{ "absent slice not zero", SLICED(1024, 0, 512, 0), false, -EINVAL,
	  DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 512 },
};

static void rule_case_desc(const struct rule_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rule, rule_cases, rule_case_desc);

static void layout_rule(struct kunit *test)
{
	const struct rule_case *c = test->param_value;
	const struct vrampool_layout_props *props =
		c->exclusive_device ? &props_exclusive : &props_128m;
	struct drm_vrampool_pool_entry out[2];
	struct drm_vrampool_layout_error err;
	int ret;

	ret = vrampool_layout_resolve(props, &c->entry, 1, out, &err);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, err.code, c->code);
	if (!c->ret)
		return;
	KUNIT_EXPECT_EQ(test, vrampool_layout_error_errno(err.code), c->ret);
	KUNIT_EXPECT_EQ(test, err.entry, 0);
	KUNIT_EXPECT_EQ(test, err.field, c->field);
	KUNIT_EXPECT_EQ(test, err.value[0], c->v0);
	KUNIT_EXPECT_EQ(test, err.value[1], c->v1);
}

static void list_bounds(struct kunit *test)
{
	struct drm_vrampool_pool_entry *in, *out;
	struct drm_vrampool_layout_error err;
	u32 i;

	KUNIT_EXPECT_EQ(test, vrampool_layout_resolve(&props_128m, NULL, 0, NULL, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.code, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST);
	/* Refused before the entries are read. */
	KUNIT_EXPECT_EQ(test, vrampool_layout_resolve(&props_128m, NULL, 255, NULL, &err), -E2BIG);
	KUNIT_EXPECT_EQ(test, err.code, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS);
	KUNIT_EXPECT_EQ(test, err.value[0], 255);

	in = kunit_kcalloc(test, 254, sizeof(*in), GFP_KERNEL);
	out = kunit_kcalloc(test, 254, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < 254; i++)
		in[i] = ENTRY(EXCLUSIVE(i + 1));
	KUNIT_EXPECT_EQ(test, vrampool_layout_resolve(&props_128m, in, 254, out, &err), 0);
	KUNIT_EXPECT_EQ(test, out[253].max_alloc_size, 256);

	/* The first bad entry is the one reported. */
	in[7] = ENTRY(SLICED(0, 0, 0, 0));
	in[9] = ENTRY(SLICED(1024, FLAG_SLICE, 0, 0));
	KUNIT_EXPECT_EQ(test, vrampool_layout_resolve(&props_128m, in, 254, out, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.entry, 7);
	KUNIT_EXPECT_EQ(test, err.field, DRM_VRAMPOOL_FIELD_PAGE_SIZE);
}

static void resolved_defaults(struct kunit *test)
{
	struct drm_vrampool_pool_entry in[2] = {
		SLICED(1000, FLAG_CAP, 0, 5000),
		{ .type = DRM_VRAMPOOL_POOL_DIRECT, .flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT,
		  .reclaim_at = 7 },
	}, out[2];
	struct drm_vrampool_layout_error err;

	KUNIT_ASSERT_EQ(test, vrampool_layout_resolve(&props_128m, in, 2, out, &err), 0);
	KUNIT_EXPECT_EQ(test, out[0].page_size, 1024);
	KUNIT_EXPECT_EQ(test, out[0].max_slice_size, 1024);
	KUNIT_EXPECT_TRUE(test, out[0].flags & FLAG_SLICE);
	KUNIT_EXPECT_EQ(test, out[0].max_pool_size, 5000);	/* caps are not rounded */
	KUNIT_EXPECT_EQ(test, out[1].reclaim_at, 7);		/* nor is reclaim_at */
}

static void dealloc_periods(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, vrampool_layout_dealloc_period(0), 5000);
	KUNIT_EXPECT_EQ(test, vrampool_layout_dealloc_period((1ULL << 29) - 1), 5000);
	KUNIT_EXPECT_EQ(test, vrampool_layout_dealloc_period(1ULL << 29), 10000);
	KUNIT_EXPECT_EQ(test, vrampool_layout_dealloc_period(20 * GIB), 105000);
	KUNIT_EXPECT_EQ(test, vrampool_layout_dealloc_period(U64_MAX), 5000 * (1 + (1ULL << 34)));
}

static void bucket_ends(struct kunit *test)
{
	u32 i;

	KUNIT_EXPECT_EQ(test, vrampool_layout_exclusive_bucket(20 * GIB, 0), 32768);
	KUNIT_EXPECT_EQ(test, vrampool_layout_exclusive_bucket(20 * GIB, 23), 20 * GIB);
	KUNIT_EXPECT_EQ(test, vrampool_layout_exclusive_bucket(0, 5), 0);
	/* 2^15 * (2^38 / 2^15)^(i/23) is exactly 2^(15+i), every bucket. */
	for (i = 0; i < VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS; i++)
		KUNIT_EXPECT_EQ_MSG(test, vrampool_layout_exclusive_bucket(1ULL << 38, i),
				    1ULL << (15 + i), "bucket %u", i);
	/* The top interior buckets of the largest VRAM: below it, in order. */
	KUNIT_EXPECT_LT(test, vrampool_layout_exclusive_bucket(U64_MAX, 22), U64_MAX);
	KUNIT_EXPECT_LT(test, vrampool_layout_exclusive_bucket(U64_MAX, 21),
			vrampool_layout_exclusive_bucket(U64_MAX, 22));
}

static struct kunit_case vrampool_layout_cases[] = {
	KUNIT_CASE(sub_slices_128m),
	KUNIT_CASE(sub_slices_80g_card),
	KUNIT_CASE(exclusive_pages_reference),
	KUNIT_CASE(presets_on_exclusive_device),
	KUNIT_CASE_PARAM(layout_rule, rule_gen_params),
	KUNIT_CASE(list_bounds),
	KUNIT_CASE(resolved_defaults),
	KUNIT_CASE(dealloc_periods),
	KUNIT_CASE(bucket_ends),
	{}
};

static struct kunit_suite vrampool_layout_suite = {
	.name = "vrampool_layout",
	.test_cases = vrampool_layout_cases,
};

kunit_test_suite(vrampool_layout_suite);

MODULE_DESCRIPTION("KUnit tests of vrampool's layout rules");
MODULE_LICENSE("GPL");
/*
 * MODULE_IMPORT_NS() took an identifier (6.12) and takes a string (6.13 on);
 * the modinfo tag it writes is the same in both.
 */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");

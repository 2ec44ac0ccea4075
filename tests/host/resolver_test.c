// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared layout resolver (the vrampool_layout_*() calls the kernel makes
 * at POOL_INSTALL) on the host, through those raw calls and through
 * libvrampool's vrampool_layout_validate():
 *
 * - every rule of the uapi's "pool layouts" section, which follows CubeCL's
 *   memory-configuration rules (Documentation/vrampool.rst), in their
 *   order, with each error's errno, code, entry, field and payload, through
 *   both interfaces;
 * - alignment rounding at its edges, up to and past 2^64 - 1;
 * - malformed entries, and "absent" versus "present with 0" for every
 *   optional field;
 * - both presets exactly, on three devices written out as tables and on
 *   edge devices; the exclusive-pages buckets against the presets'
 *   floating-point formula (libm), which CubeCL evaluates in doubles.
 *
 * The library's messages and its error API are lib_error_test.c's. Expected
 * values are written from the uapi header and Documentation/vrampool.rst,
 * not from the code under test.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_harness.h"
#include "layout_helpers.h"

static struct drm_vrampool_pool_entry out_buf[MAX_POOLS];

/*
 * Resolve @entries through vrampool_layout_resolve() (as the kernel does) and
 * vrampool_layout_validate() (as a runtime does); both must refuse as @w says.
 */
static void check_list_err(struct __test_metadata *_metadata, int line,
			   const struct vrampool_props *p,
			   const struct drm_vrampool_pool_entry *entries, uint32_t count,
			   const struct want_err *w)
{
	struct vrampool_layout_props lp = raw_props(p);
	struct drm_vrampool_layout_error le;
	struct vrampool_error got, want;
	uint32_t n = 12345;
	int ret;

	memset(&le, 0xa5, sizeof(le));
	/* The kernel passes no output for a count it refuses up front. */
	ret = vrampool_layout_resolve(&lp, entries, count,
				      count && count <= MAX_POOLS ? out_buf : NULL, &le);
	EXPECT_EQ(w->ret, ret) TH_LOG("line %d: errno of vrampool_layout_resolve()", line);
	EXPECT_EQ(w->code, le.code) TH_LOG("line %d: code", line);
	EXPECT_EQ(w->entry, le.entry) TH_LOG("line %d: entry", line);
	EXPECT_EQ(w->field, le.field) TH_LOG("line %d: field", line);
	EXPECT_EQ(w->v0, le.value[0]) TH_LOG("line %d: value[0]", line);
	EXPECT_EQ(w->v1, le.value[1]) TH_LOG("line %d: value[1]", line);
	EXPECT_EQ(0U, le.pad) TH_LOG("line %d: pad", line);
	EXPECT_EQ(w->ret, vrampool_layout_error_errno(le.code))
		TH_LOG("line %d: vrampool_layout_error_errno(%u)", line, le.code);

	memset(&got, 0xa5, sizeof(got));
	ret = vrampool_layout_validate(p, DRM_VRAMPOOL_PRESET_NONE, entries, count, out_buf, &n,
				       &got);
	EXPECT_EQ(w->ret, ret) TH_LOG("line %d: errno of vrampool_layout_validate()", line);
	EXPECT_EQ(0U, n) TH_LOG("line %d: out_count of a refused layout", line);
	variant_of(w, 0, &want);
	check_variant(_metadata, line, &want, &got);
	if (w->msg)
		EXPECT_STREQ(w->msg, message(&got)) TH_LOG("line %d: message", line);
}

#define EXPECT_LIST_ERR(p, entries, count, ...) \
	check_list_err(_metadata, __LINE__, p, entries, count, &(struct want_err){ __VA_ARGS__ })

/* A refusal of one entry, at index 0. */
#define EXPECT_ENTRY_ERR(p, entry, ...) do { \
	struct drm_vrampool_pool_entry __e = (entry); \
	EXPECT_LIST_ERR(p, &__e, 1, __VA_ARGS__); \
} while (0)

/* Resolve @entries through both interfaces; both must give @want (if given). */
static void check_list_ok(struct __test_metadata *_metadata, int line,
			  const struct vrampool_props *p,
			  const struct drm_vrampool_pool_entry *entries, uint32_t count,
			  const struct drm_vrampool_pool_entry *want)
{
	static struct drm_vrampool_pool_entry raw_out[MAX_POOLS];
	struct vrampool_layout_props lp = raw_props(p);
	struct drm_vrampool_layout_error le, zero = { 0 };
	struct vrampool_error err;
	uint32_t i, n = 0;
	int ret;

	memset(&le, 0xa5, sizeof(le));
	memset(raw_out, 0xa5, sizeof(raw_out));
	ret = vrampool_layout_resolve(&lp, entries, count, raw_out, &le);
	ASSERT_EQ(0, ret) TH_LOG("line %d: vrampool_layout_resolve() refused: code %u entry %u field %u",
				 line, le.code, le.entry, le.field);
	EXPECT_EQ(0, memcmp(&zero, &le, sizeof(le))) TH_LOG("line %d: error not all zero", line);

	memset(out_buf, 0xa5, sizeof(out_buf));
	memset(&err, 0, sizeof(err));
	ret = vrampool_layout_validate(p, DRM_VRAMPOOL_PRESET_NONE, entries, count, out_buf, &n,
				       &err);
	ASSERT_EQ(0, ret) TH_LOG("line %d: vrampool_layout_validate() refused: %s", line,
				 message(&err));
	ASSERT_EQ(count, n) TH_LOG("line %d", line);
	for (i = 0; i < count; i++) {
		EXPECT_EQ(0, memcmp(&raw_out[i], &out_buf[i], sizeof(out_buf[i])))
			TH_LOG("line %d: pool %u differs between the two interfaces", line, i);
		if (!want)
			continue;
		EXPECT_EQ(want[i].type, out_buf[i].type) TH_LOG("line %d: pool %u type", line, i);
		EXPECT_EQ(want[i].flags, out_buf[i].flags) TH_LOG("line %d: pool %u flags", line, i);
		EXPECT_EQ(want[i].page_size, out_buf[i].page_size)
			TH_LOG("line %d: pool %u page_size", line, i);
		EXPECT_EQ(want[i].max_slice_size, out_buf[i].max_slice_size)
			TH_LOG("line %d: pool %u max_slice_size", line, i);
		EXPECT_EQ(want[i].max_pool_size, out_buf[i].max_pool_size)
			TH_LOG("line %d: pool %u max_pool_size", line, i);
		EXPECT_EQ(want[i].max_alloc_size, out_buf[i].max_alloc_size)
			TH_LOG("line %d: pool %u max_alloc_size", line, i);
		EXPECT_EQ(want[i].dealloc_period, out_buf[i].dealloc_period)
			TH_LOG("line %d: pool %u dealloc_period", line, i);
		EXPECT_EQ(want[i].reclaim_at, out_buf[i].reclaim_at)
			TH_LOG("line %d: pool %u reclaim_at", line, i);
		EXPECT_EQ(0ULL, out_buf[i].reserved) TH_LOG("line %d: pool %u reserved", line, i);
	}
}

#define EXPECT_LIST_OK(p, entries, count, want) \
	check_list_ok(_metadata, __LINE__, p, entries, count, want)

#define EXPECT_ENTRY_OK(p, entry, resolved) do { \
	struct drm_vrampool_pool_entry __e = (entry), __r = (resolved); \
	EXPECT_LIST_OK(p, &__e, 1, &__r); \
} while (0)

/* Expand a preset through both interfaces; they must agree. */
static int run_preset(struct __test_metadata *_metadata, int line, const struct vrampool_props *p,
		      uint32_t preset, struct drm_vrampool_pool_entry *out, uint32_t *count,
		      struct drm_vrampool_layout_error *le, struct vrampool_error *err)
{
	static struct drm_vrampool_pool_entry raw_out[VRAMPOOL_PRESET_MAX_POOLS];
	struct vrampool_layout_props lp = raw_props(p);
	uint32_t raw_count = 0, i;
	int ret, raw_ret;

	memset(le, 0xa5, sizeof(*le));
	raw_ret = vrampool_layout_preset(&lp, preset, raw_out, &raw_count, le);
	memset(err, 0xa5, sizeof(*err));
	*count = 0;
	ret = vrampool_layout_validate(p, preset, NULL, 0, out, count, err);
	EXPECT_EQ(raw_ret, ret) TH_LOG("line %d: the two interfaces disagree", line);
	if (!ret && !raw_ret) {
		EXPECT_EQ(raw_count, *count) TH_LOG("line %d", line);
		EXPECT_GE((uint32_t)VRAMPOOL_PRESET_MAX_POOLS, *count) TH_LOG("line %d", line);
		for (i = 0; i < *count && i < raw_count; i++)
			EXPECT_EQ(0, memcmp(&raw_out[i], &out[i], sizeof(out[i])))
				TH_LOG("line %d: pool %u", line, i);
	}
	return ret;
}

/* Returns false (and logs both) when the pools differ. */
static bool expect_pools(struct __test_metadata *_metadata, int line,
			 const struct drm_vrampool_pool_entry *want, uint32_t want_count,
			 const struct drm_vrampool_pool_entry *got, uint32_t got_count)
{
	bool same = true;
	uint32_t i;

	EXPECT_EQ(want_count, got_count) {
		TH_LOG("line %d: number of pools", line);
		return false;
	}
	for (i = 0; i < want_count; i++) {
		EXPECT_EQ(0, memcmp(&want[i], &got[i], sizeof(got[i]))) {
			same = false;
			TH_LOG("line %d: pool %u: want type %u flags %#x page %ju slice %ju cap %ju max %ju dealloc %ju",
			       line, i, want[i].type, want[i].flags, (uintmax_t)want[i].page_size,
			       (uintmax_t)want[i].max_slice_size, (uintmax_t)want[i].max_pool_size,
			       (uintmax_t)want[i].max_alloc_size, (uintmax_t)want[i].dealloc_period);
			TH_LOG("line %d: pool %u: got  type %u flags %#x page %ju slice %ju cap %ju max %ju dealloc %ju",
			       line, i, got[i].type, got[i].flags, (uintmax_t)got[i].page_size,
			       (uintmax_t)got[i].max_slice_size, (uintmax_t)got[i].max_pool_size,
			       (uintmax_t)got[i].max_alloc_size, (uintmax_t)got[i].dealloc_period);
		}
	}
	return same;
}

static bool same_pool(struct drm_vrampool_pool_entry a, struct drm_vrampool_pool_entry b)
{
	return !memcmp(&a, &b, sizeof(a));
}

#define EXPECT_POOLS(want, want_count, got, got_count) \
	expect_pools(_metadata, __LINE__, want, want_count, got, got_count)

/* ---- The order of the rules --------------------------------------------- */

TEST(empty_pool_list)
{
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry e = excl(0);

	EXPECT_LIST_ERR(&p, NULL, 0, -EINVAL, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 0, 0, "the pool list is empty");
	/* Entries are not looked at: a pointer with count 0 is still empty. */
	EXPECT_LIST_ERR(&p, &e, 0, -EINVAL, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 0, 0, "the pool list is empty");
	EXPECT_LIST_ERR(&px, NULL, 0, -EINVAL, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 0, 0, "the pool list is empty");
}

TEST(too_many_pools_at_255_not_254)
{
	static struct drm_vrampool_pool_entry list[300];
	static struct drm_vrampool_pool_entry want[MAX_POOLS];
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);
	uint32_t i;

	for (i = 0; i < 300; i++)
		list[i] = excl(i);
	for (i = 0; i < MAX_POOLS; i++)
		want[i] = R_EXCL(i ? 256 : 0);

	EXPECT_LIST_OK(&p, list, 1, want);
	EXPECT_LIST_OK(&p, list, 254, want);
	EXPECT_LIST_ERR(&p, list, 255, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 255, 0,
			"the pool list has 255 entries, exceeding the maximum of 254 dynamic pools");
	EXPECT_LIST_ERR(&p, list, 256, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 256, 0,
			"the pool list has 256 entries, exceeding the maximum of 254 dynamic pools");
	EXPECT_LIST_ERR(&p, list, 300, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 300, 0,
			"the pool list has 300 entries, exceeding the maximum of 254 dynamic pools");
	/* Refused before any entry is read (ASan would see a read of NULL). */
	EXPECT_LIST_ERR(&p, NULL, 255, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 255, 0, NULL);
	EXPECT_LIST_ERR(&p, NULL, UINT32_MAX, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, UINT32_MAX, 0,
			"the pool list has 4294967295 entries, exceeding the maximum of 254 dynamic pools");
	/* The count comes before what the entries are, and the device. */
	for (i = 0; i < 255; i++)
		list[i] = sliced(0);
	EXPECT_LIST_ERR(&px, list, 255, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 255, 0, NULL);
	for (i = 0; i < 255; i++)
		list[i] = pool(99, 0xff, 1, 1, 1, 1, 1, 1);
	EXPECT_LIST_ERR(&p, list, 255, -E2BIG, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, NO_ENTRY,
			DRM_VRAMPOOL_FIELD_COUNT, 255, 0, NULL);
}

TEST(count_254_of_each_type)
{
	static struct drm_vrampool_pool_entry list[MAX_POOLS], want[MAX_POOLS];
	struct vrampool_props p = props(512, 20 * GIB, false);
	uint32_t i;

	for (i = 0; i < MAX_POOLS; i++) {
		switch (i % 3) {
		case 0:
			list[i] = with_cap(sliced(1000 + i), 32 * MIB);
			want[i] = pool(SLICED_T, F_SLICE | F_CAP, 1024 + (i > 24 ? 512 : 0),
				       1024 + (i > 24 ? 512 : 0), 32 * MIB, 0, 0, 0);
			break;
		case 1:
			list[i] = with_dealloc(excl(i), i);
			want[i] = R_EXCL_D(512, i);
			break;
		default:
			list[i] = with_reclaim(direct(), i);
			want[i] = pool(DIRECT_T, F_RECLAIM, 0, 0, 0, 0, 0, i);
			break;
		}
	}
	EXPECT_LIST_OK(&p, list, MAX_POOLS, want);
}

TEST(zero_page_size_reported_before_anything_else)
{
	struct vrampool_props p = props(256, 128 * MIB, false);

	EXPECT_ENTRY_ERR(&p, sliced(0), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			 DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0, "`page_size` must be non-zero");
	/* Also zero max_slice_size, max_pool_size: page_size first. */
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(0), 0), 0), -EINVAL,
			 DRM_VRAMPOOL_ERR_ZERO_SIZE, 0, DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0,
			 "`page_size` must be non-zero");
	/* A slice larger than any page: still page_size. */
	EXPECT_ENTRY_ERR(&p, with_slice(sliced(0), U64MAX), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			 DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0, "`page_size` must be non-zero");
}

TEST(sliced_unavailable_before_zero_size)
{
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry list[4] = {
		excl(0), with_reclaim(direct(), 5), with_dealloc(excl(4096), 0), sliced(0),
	};
	const char *msg = "sliced pools are not available in this build (exclusive memory only)";

	EXPECT_ENTRY_ERR(&px, sliced(0), -EOPNOTSUPP, DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE,
			 0, DRM_VRAMPOOL_FIELD_TYPE, 0, 0, msg);
	EXPECT_ENTRY_ERR(&px, sliced(4096), -EOPNOTSUPP,
			 DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, 0, DRM_VRAMPOOL_FIELD_TYPE, 0, 0,
			 msg);
	EXPECT_ENTRY_ERR(&px, with_slice(sliced(U64MAX), 0), -EOPNOTSUPP,
			 DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, 0, DRM_VRAMPOOL_FIELD_TYPE, 0, 0,
			 msg);
	/* Exclusive and direct pools before it are fine; the sliced one is entry 3. */
	EXPECT_LIST_ERR(&px, list, 4, -EOPNOTSUPP, DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, 3,
			DRM_VRAMPOOL_FIELD_TYPE, 0, 0, msg);
	EXPECT_LIST_OK(&px, list, 3, NULL);
}

TEST(zero_max_slice_size)
{
	struct vrampool_props p = props(256, 128 * MIB, false);

	EXPECT_ENTRY_ERR(&p, with_slice(sliced(1 * MIB), 0), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE,
			 0, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0,
			 "`max_slice_size` must be non-zero");
	/* Before a zero cap. */
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(1 * MIB), 0), 0), -EINVAL,
			 DRM_VRAMPOOL_ERR_ZERO_SIZE, 0, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0,
			 "`max_slice_size` must be non-zero");
	/* Before a cap smaller than the page. */
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(1 * MIB), 0), 1), -EINVAL,
			 DRM_VRAMPOOL_ERR_ZERO_SIZE, 0, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0,
			 NULL);
}

TEST(slice_larger_than_page)
{
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props p1 = props(1, 128 * MIB, false);

	EXPECT_ENTRY_ERR(&p, with_slice(sliced(1024), 2048), -EINVAL,
			 DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 1024, 2048,
			 "`max_slice_size` (2048) exceeds `page_size` (1024); a slice can never span pages");
	/* Compared after alignment, and reported aligned. */
	EXPECT_ENTRY_ERR(&p, with_slice(sliced(1000), 1025), -EINVAL,
			 DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 1024, 1280,
			 "`max_slice_size` (1280) exceeds `page_size` (1024); a slice can never span pages");
	EXPECT_ENTRY_OK(&p, with_slice(sliced(1000), 1001), R_SLICED(1024, 1024));
	EXPECT_ENTRY_OK(&p, with_slice(sliced(1000), 1024), R_SLICED(1024, 1024));
	EXPECT_ENTRY_OK(&p, with_slice(sliced(1000), 1), R_SLICED(1024, 256));
	/* No alignment: by one byte. */
	EXPECT_ENTRY_ERR(&p1, with_slice(sliced(1000), 1001), -EINVAL,
			 DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 1000, 1001,
			 "`max_slice_size` (1001) exceeds `page_size` (1000); a slice can never span pages");
	EXPECT_ENTRY_OK(&p1, with_slice(sliced(1000), 1000), R_SLICED(1000, 1000));
	/* Before the cap checks. */
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(1024), 2048), 0), -EINVAL,
			 DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 1024, 2048, NULL);
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(1024), 2048), U64MAX), -EINVAL,
			 DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 1024, 2048, NULL);
}

TEST(zero_max_pool_size)
{
	struct vrampool_props p = props(256, 128 * MIB, false);

	EXPECT_ENTRY_ERR(&p, with_cap(sliced(1 * MIB), 0), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 0, 0, "`max_pool_size` must be non-zero");
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(1 * MIB), 1), 0), -EINVAL,
			 DRM_VRAMPOOL_ERR_ZERO_SIZE, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 0, 0,
			 "`max_pool_size` must be non-zero");
}

TEST(cap_smaller_than_page)
{
	struct vrampool_props p = props(256, 128 * MIB, false);

	EXPECT_ENTRY_ERR(&p, with_cap(sliced(256), 100), -EINVAL,
			 DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			 256, 100,
			 "`max_pool_size` (100) is smaller than `page_size` (256); the cap can't fit a single page");
	/* The page aligned, the cap as given. */
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(200), 255), -EINVAL,
			 DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			 256, 255,
			 "`max_pool_size` (255) is smaller than `page_size` (256); the cap can't fit a single page");
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(100), 1), -EINVAL,
			 DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			 256, 1, NULL);
	EXPECT_ENTRY_OK(&p, with_cap(sliced(200), 256),
			pool(SLICED_T, F_SLICE | F_CAP, 256, 256, 256, 0, 0, 0));
	EXPECT_ENTRY_OK(&p, with_cap(sliced(200), 257),
			pool(SLICED_T, F_SLICE | F_CAP, 256, 256, 257, 0, 0, 0));
}

TEST(too_many_pages)
{
	struct vrampool_props p1 = props(1, 128 * MIB, false);
	struct vrampool_props p = props(256, 128 * MIB, false);

	EXPECT_ENTRY_OK(&p1, with_cap(sliced(1), 65535),
			pool(SLICED_T, F_SLICE | F_CAP, 1, 1, 65535, 0, 0, 0));
	EXPECT_ENTRY_ERR(&p1, with_cap(sliced(1), 65536), -EINVAL, DRM_VRAMPOOL_ERR_TOO_MANY_PAGES,
			 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 65536, 0,
			 "`max_pool_size` spans 65536 pages of `page_size`, exceeding the maximum of 65535; increase `page_size` or lower the cap");
	/* A cap that is not a multiple of the page: whole pages count. */
	EXPECT_ENTRY_OK(&p, with_cap(sliced(256), 256 * 65535 + 255),
			pool(SLICED_T, F_SLICE | F_CAP, 256, 256, 256 * 65535 + 255, 0, 0, 0));
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(256), 256 * 65536), -EINVAL,
			 DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 65536,
			 0,
			 "`max_pool_size` spans 65536 pages of `page_size`, exceeding the maximum of 65535; increase `page_size` or lower the cap");
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(256), 256 * 65536 + 255), -EINVAL,
			 DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 65536,
			 0, NULL);
	/* Pages of the aligned page size (200 -> 256), not of the given one. */
	EXPECT_ENTRY_OK(&p, with_cap(sliced(200), 256 * 65535 + 255),
			pool(SLICED_T, F_SLICE | F_CAP, 256, 256, 256 * 65535 + 255, 0, 0, 0));
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(200), 256 * 65536), -EINVAL,
			 DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 65536,
			 0, NULL);
	/* The largest caps. */
	EXPECT_ENTRY_ERR(&p1, with_cap(sliced(1), U64MAX), -EINVAL,
			 DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, U64MAX,
			 0,
			 "`max_pool_size` spans 18446744073709551615 pages of `page_size`, exceeding the maximum of 65535; increase `page_size` or lower the cap");
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(1024), U64MAX), -EINVAL,
			 DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			 U64MAX / 1024, 0, NULL);
	EXPECT_ENTRY_OK(&p, with_cap(sliced(1ULL << 63), U64MAX),
			pool(SLICED_T, F_SLICE | F_CAP, 1ULL << 63, 1ULL << 63, U64MAX, 0, 0, 0));
	/* 65535 pages of the largest page that allows it. */
	EXPECT_ENTRY_OK(&p1, with_cap(sliced(U64MAX / 65535), U64MAX), pool(SLICED_T,
			F_SLICE | F_CAP, U64MAX / 65535, U64MAX / 65535, U64MAX, 0, 0, 0));
	EXPECT_ENTRY_ERR(&p1, with_cap(sliced(U64MAX / 65536), U64MAX), -EINVAL,
			 DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			 U64MAX / (U64MAX / 65536), 0, NULL);
}

/* The uapi checks every entry's form (rule 3) before any entry's sizes (rule 4). */
TEST(malformed_entry_before_any_size_rule)
{
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry list[6] = {
		sliced(0), with_cap(sliced(256), 1), excl(U64MAX), excl(0), excl(0),
		{ .type = EXCL_T, .reserved = 1 },
	};

	EXPECT_LIST_ERR(&p, list, 6, -EINVAL, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, 5,
			DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, 1, 0,
			"invalid argument: entry 5 has an invalid `reserved` (1)");
	/* Also before "sliced pools unavailable". */
	EXPECT_LIST_ERR(&px, list, 6, -EINVAL, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, 5,
			DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, 1, 0, NULL);
	/* Without it: the first entry's own error. */
	EXPECT_LIST_ERR(&p, list, 5, -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0, NULL);
	EXPECT_LIST_ERR(&px, list, 5, -EOPNOTSUPP, DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, 0,
			DRM_VRAMPOOL_FIELD_TYPE, 0, 0, NULL);
}

TEST(earlier_entry_wins)
{
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct drm_vrampool_pool_entry list[5] = {
		excl(0), with_cap(sliced(1024), 1000), sliced(0), excl(U64MAX),
		with_slice(sliced(256), 0),
	};

	EXPECT_LIST_ERR(&p, list, 5, -EINVAL, DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, 1,
			DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 1024, 1000, NULL);
	EXPECT_LIST_ERR(&p, list + 2, 3, -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0, NULL);
	EXPECT_LIST_ERR(&p, list + 3, 2, -EOVERFLOW, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, 0,
			DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, U64MAX, 256, NULL);
	EXPECT_LIST_ERR(&p, list + 4, 1, -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0, NULL);
	/* The index is the entry's place in the list. */
	list[1] = excl(5);
	list[2] = sliced(7);
	list[3] = direct();
	EXPECT_LIST_ERR(&p, list, 5, -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 4,
			DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0, NULL);
}

TEST(errno_of_each_code)
{
	static const struct {
		uint32_t code;
		int err;
	} map[] = {
		{ DRM_VRAMPOOL_ERR_NONE, 0 },
		{ DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, -EINVAL },
		{ DRM_VRAMPOOL_ERR_ZERO_SIZE, -EINVAL },
		{ DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, -EINVAL },
		{ DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, -EINVAL },
		{ DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, -EINVAL },
		{ DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, -E2BIG },
		{ DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE, -EOPNOTSUPP },
		{ DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, -EOPNOTSUPP },
		{ DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, -EOVERFLOW },
		{ DRM_VRAMPOOL_ERR_POOLS_IN_USE, -EBUSY },
		{ DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, -EINVAL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		EXPECT_EQ(map[i].err, vrampool_layout_error_errno(map[i].code))
			TH_LOG("code %u", map[i].code);
}


/* ---- Alignment ---------------------------------------------------------- */

static void check_rounding(struct __test_metadata *_metadata, uint64_t a)
{
	const uint64_t A = a ? a : 1;
	const uint64_t sizes[] = { 0, 1, A - 1, A, A + 1, 0 - A, 0 - A + 1, U64MAX };
	/* The largest aligned size: a page any aligned slice fits in. */
	const uint64_t top = U64MAX / A * A;
	struct vrampool_props p = props(a, 128 * MIB, false);
	char msg[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint64_t x = sizes[i];
		bool over;
		uint64_t up = wide_align_up(x, A, &over);
		int before = _metadata->exit_code;

		/* Exclusive max_alloc_size; 0 stays 0. */
		snprintf(msg, sizeof(msg),
			 "`max_alloc_size` (%ju) overflows 64 bits when aligned up to %ju bytes",
			 (uintmax_t)x, (uintmax_t)A);
		if (over)
			EXPECT_ENTRY_ERR(&p, excl(x), -EOVERFLOW, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, 0,
					 DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, x, A, msg);
		else
			EXPECT_ENTRY_OK(&p, excl(x), R_EXCL(up));

		/* Sliced page_size; max_slice_size absent is the aligned page. */
		snprintf(msg, sizeof(msg),
			 "`page_size` (%ju) overflows 64 bits when aligned up to %ju bytes",
			 (uintmax_t)x, (uintmax_t)A);
		if (!x)
			EXPECT_ENTRY_ERR(&p, sliced(x), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
					 DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0, NULL);
		else if (over)
			EXPECT_ENTRY_ERR(&p, sliced(x), -EOVERFLOW, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW,
					 0, DRM_VRAMPOOL_FIELD_PAGE_SIZE, x, A, msg);
		else
			EXPECT_ENTRY_OK(&p, sliced(x), R_SLICED(up, up));

		/* Sliced max_slice_size, in the largest page. */
		snprintf(msg, sizeof(msg),
			 "`max_slice_size` (%ju) overflows 64 bits when aligned up to %ju bytes",
			 (uintmax_t)x, (uintmax_t)A);
		if (!x)
			EXPECT_ENTRY_ERR(&p, with_slice(sliced(top), x), -EINVAL,
					 DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
					 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0, NULL);
		else if (over)
			EXPECT_ENTRY_ERR(&p, with_slice(sliced(top), x), -EOVERFLOW,
					 DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, 0,
					 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, x, A, msg);
		else
			EXPECT_ENTRY_OK(&p, with_slice(sliced(top), x), R_SLICED(top, up));

		/* Never rounded: reclaim_at, dealloc_period. */
		EXPECT_ENTRY_OK(&p, with_reclaim(direct(), x),
				pool(DIRECT_T, F_RECLAIM, 0, 0, 0, 0, 0, x));
		EXPECT_ENTRY_OK(&p, with_dealloc(excl(A), x), R_EXCL_D(A, x));
		EXPECT_ENTRY_OK(&p, with_dealloc(sliced(A), x),
				pool(SLICED_T, F_SLICE | F_DEALLOC, A, A, 0, 0, x, 0));

		if (_metadata->exit_code != before)
			TH_LOG("^ alignment %ju, size %ju (aligned: %ju%s)", (uintmax_t)a,
			       (uintmax_t)x, (uintmax_t)up, over ? ", overflow" : "");
	}
}

TEST(rounding_alignment_1)
{
	check_rounding(_metadata, 1);
}

TEST(rounding_alignment_0_is_1)
{
	check_rounding(_metadata, 0);
}

TEST(rounding_alignment_256)
{
	check_rounding(_metadata, 256);
}

TEST(rounding_alignment_512)
{
	check_rounding(_metadata, 512);
}

TEST(rounding_alignment_4096)
{
	check_rounding(_metadata, 4096);
}

/* Not a power of two: the rules only say "a multiple of". */
TEST(rounding_alignment_3_and_1000)
{
	check_rounding(_metadata, 3);
	check_rounding(_metadata, 1000);
}

TEST(overflow_order_within_an_entry)
{
	struct vrampool_props p = props(256, 128 * MIB, false);

	/* The page is aligned before max_slice_size is looked at. */
	EXPECT_ENTRY_ERR(&p, with_slice(sliced(U64MAX), 0), -EOVERFLOW,
			 DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, 0, DRM_VRAMPOOL_FIELD_PAGE_SIZE, U64MAX, 256,
			 NULL);
	/* The slice is aligned before the cap is looked at. */
	EXPECT_ENTRY_ERR(&p, with_cap(with_slice(sliced(256), U64MAX), 0), -EOVERFLOW,
			 DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, 0, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE,
			 U64MAX, 256, NULL);
	/* Sliced unavailable comes first of all. */
	{
		struct vrampool_props px = props(256, 128 * MIB, true);

		EXPECT_ENTRY_ERR(&px, sliced(U64MAX), -EOPNOTSUPP,
				 DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, 0,
				 DRM_VRAMPOOL_FIELD_TYPE, 0, 0, NULL);
		EXPECT_ENTRY_ERR(&px, excl(U64MAX), -EOVERFLOW, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW,
				 0, DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, U64MAX, 256, NULL);
	}
}

TEST(cap_and_reclaim_not_rounded)
{
	struct vrampool_props p = props(4096, 128 * MIB, false);

	EXPECT_ENTRY_OK(&p, with_cap(sliced(4096), 4097),
			pool(SLICED_T, F_SLICE | F_CAP, 4096, 4096, 4097, 0, 0, 0));
	EXPECT_ENTRY_OK(&p, with_cap(sliced(1), 10000),
			pool(SLICED_T, F_SLICE | F_CAP, 4096, 4096, 10000, 0, 0, 0));
	EXPECT_ENTRY_OK(&p, with_reclaim(direct(), 1),
			pool(DIRECT_T, F_RECLAIM, 0, 0, 0, 0, 0, 1));
	EXPECT_ENTRY_OK(&p, with_reclaim(direct(), 4095),
			pool(DIRECT_T, F_RECLAIM, 0, 0, 0, 0, 0, 4095));
}

TEST(exclusive_zero_stays_zero)
{
	static const uint64_t aligns[] = { 0, 1, 256, 512, 4096, U64MAX };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(aligns); i++) {
		struct vrampool_props p = props(aligns[i], 128 * MIB, false);

		EXPECT_ENTRY_OK(&p, excl(0), R_EXCL(0));
		EXPECT_ENTRY_OK(&p, with_dealloc(excl(0), 5000), R_EXCL_D(0, 5000));
	}
}

/* An alignment of 2^64 - 1: only 0 and 2^64 - 1 itself are aligned. */
TEST(largest_alignment)
{
	struct vrampool_props p = props(U64MAX, 128 * MIB, false);

	EXPECT_ENTRY_OK(&p, excl(1), R_EXCL(U64MAX));
	EXPECT_ENTRY_OK(&p, excl(U64MAX), R_EXCL(U64MAX));
	EXPECT_ENTRY_OK(&p, with_slice(sliced(1), 1), R_SLICED(U64MAX, U64MAX));
	EXPECT_ENTRY_OK(&p, with_cap(sliced(5), U64MAX),
			pool(SLICED_T, F_SLICE | F_CAP, U64MAX, U64MAX, U64MAX, 0, 0, 0));
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(5), U64MAX - 1), -EINVAL,
			 DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, 0, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
			 U64MAX, U64MAX - 1, NULL);
}

/* ---- Malformed entries and optional fields ------------------------------ */

struct malformed {
	const char *what;
	struct drm_vrampool_pool_entry e;
	uint32_t field;
	uint64_t value;
};

TEST(malformed_entries)
{
	static const struct malformed cases[] = {
		{ "type 0", { .type = 0 }, DRM_VRAMPOOL_FIELD_TYPE, 0 },
		{ "persistent", { .type = DRM_VRAMPOOL_POOL_PERSISTENT, .max_alloc_size = 1 },
		  DRM_VRAMPOOL_FIELD_TYPE, DRM_VRAMPOOL_POOL_PERSISTENT },
		{ "type 5", { .type = 5 }, DRM_VRAMPOOL_FIELD_TYPE, 5 },
		{ "type 31", { .type = 31 }, DRM_VRAMPOOL_FIELD_TYPE, 31 },
		{ "type 32", { .type = 32, .flags = 1 }, DRM_VRAMPOOL_FIELD_TYPE, 32 },
		{ "type 33", { .type = 33, .page_size = 1 }, DRM_VRAMPOOL_FIELD_TYPE, 33 },
		{ "type 2^32-1", { .type = UINT32_MAX }, DRM_VRAMPOOL_FIELD_TYPE, UINT32_MAX },
		/* Unknown type and unknown flags: the type first. */
		{ "type and flags", { .type = 9, .flags = 0xf0, .reserved = 1 },
		  DRM_VRAMPOOL_FIELD_TYPE, 9 },

		/* Flags of another type. */
		{ "sliced + RECLAIM_AT", { .type = SLICED_T, .flags = F_RECLAIM, .page_size = 256 },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_RECLAIM },
		{ "exclusive + MAX_SLICE_SIZE", { .type = EXCL_T, .flags = F_SLICE },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_SLICE },
		{ "exclusive + MAX_POOL_SIZE", { .type = EXCL_T, .flags = F_CAP },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_CAP },
		{ "exclusive + RECLAIM_AT", { .type = EXCL_T, .flags = F_RECLAIM | F_DEALLOC },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_RECLAIM | F_DEALLOC },
		{ "direct + DEALLOC_PERIOD", { .type = DIRECT_T, .flags = F_DEALLOC },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_DEALLOC },
		{ "direct + MAX_SLICE_SIZE", { .type = DIRECT_T, .flags = F_SLICE },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_SLICE },
		{ "direct + MAX_POOL_SIZE", { .type = DIRECT_T, .flags = F_CAP | F_RECLAIM },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, F_CAP | F_RECLAIM },
		/* Unknown flag bits. */
		{ "sliced + 0x10", { .type = SLICED_T, .flags = 0x10, .page_size = 256 },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, 0x10 },
		{ "sliced + bit 31", { .type = SLICED_T, .flags = 0x80000000u | F_SLICE,
		  .page_size = 256, .max_slice_size = 256 },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, 0x80000000u | F_SLICE },
		{ "exclusive + all", { .type = EXCL_T, .flags = UINT32_MAX },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, UINT32_MAX },
		{ "direct + 0x100", { .type = DIRECT_T, .flags = 0x100 },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, 0x100 },
		/* Bad flags and a reserved value: the flags first. */
		{ "flags and reserved", { .type = DIRECT_T, .flags = 0x20, .reserved = 1 },
		  DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, 0x20 },

		/* Fields the type does not have. */
		{ "exclusive page_size", { .type = EXCL_T, .page_size = 1 },
		  DRM_VRAMPOOL_FIELD_PAGE_SIZE, 1 },
		{ "exclusive max_slice_size", { .type = EXCL_T, .max_slice_size = 5 },
		  DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 5 },
		{ "exclusive max_pool_size", { .type = EXCL_T, .max_pool_size = U64MAX },
		  DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, U64MAX },
		{ "exclusive reclaim_at", { .type = EXCL_T, .reclaim_at = 9 },
		  DRM_VRAMPOOL_FIELD_RECLAIM_AT, 9 },
		{ "sliced max_alloc_size", { .type = SLICED_T, .page_size = 256,
		  .max_alloc_size = 3 }, DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, 3 },
		{ "sliced reclaim_at", { .type = SLICED_T, .page_size = 256, .reclaim_at = 3 },
		  DRM_VRAMPOOL_FIELD_RECLAIM_AT, 3 },
		{ "direct page_size", { .type = DIRECT_T, .page_size = 7 },
		  DRM_VRAMPOOL_FIELD_PAGE_SIZE, 7 },
		{ "direct max_slice_size", { .type = DIRECT_T, .max_slice_size = 7 },
		  DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 7 },
		{ "direct max_pool_size", { .type = DIRECT_T, .max_pool_size = 7 },
		  DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 7 },
		{ "direct max_alloc_size", { .type = DIRECT_T, .max_alloc_size = 7 },
		  DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, 7 },
		/* Optional fields given without their flag. */
		{ "sliced max_slice_size, no flag", { .type = SLICED_T, .page_size = 256,
		  .max_slice_size = 3 }, DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 3 },
		{ "sliced max_pool_size, no flag", { .type = SLICED_T, .page_size = 256,
		  .max_pool_size = 1024 }, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 1024 },
		{ "sliced dealloc_period, no flag", { .type = SLICED_T, .page_size = 256,
		  .dealloc_period = 3 }, DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD, 3 },
		{ "exclusive dealloc_period, no flag", { .type = EXCL_T, .dealloc_period = 3 },
		  DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD, 3 },
		{ "direct dealloc_period", { .type = DIRECT_T, .dealloc_period = 3 },
		  DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD, 3 },
		{ "direct reclaim_at, no flag", { .type = DIRECT_T, .reclaim_at = 3 },
		  DRM_VRAMPOOL_FIELD_RECLAIM_AT, 3 },
		/* Reserved. */
		{ "exclusive reserved", { .type = EXCL_T, .reserved = 1 },
		  DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, 1 },
		{ "sliced reserved", { .type = SLICED_T, .page_size = 256, .reserved = U64MAX },
		  DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, U64MAX },
		{ "direct reserved", { .type = DIRECT_T, .flags = F_RECLAIM, .reserved = 2 },
		  DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, 2 },
	};
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry list[3] = { excl(0), direct() };
	char msg[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct malformed *c = &cases[i];
		int before = _metadata->exit_code;
		snprintf(msg, sizeof(msg), "invalid argument: entry 0 has an invalid `%s` (%ju)",
			 vrampool_field_name(c->field), (uintmax_t)c->value);
		EXPECT_LIST_ERR(&p, &c->e, 1, -EINVAL, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, 0,
				c->field, c->value, 0, msg);
		EXPECT_LIST_ERR(&px, &c->e, 1, -EINVAL, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, 0,
				c->field, c->value, 0, msg);
		list[2] = c->e;
		snprintf(msg, sizeof(msg), "invalid argument: entry 2 has an invalid `%s` (%ju)",
			 vrampool_field_name(c->field), (uintmax_t)c->value);
		EXPECT_LIST_ERR(&p, list, 3, -EINVAL, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, 2,
				c->field, c->value, 0, msg);
		if (_metadata->exit_code != before)
			TH_LOG("^ %s", c->what);
	}
}

/* vrampool_layout_check_entries() alone: the form, none of the sizes. */
TEST(check_entries_form_only)
{
	struct drm_vrampool_pool_entry list[4] = {
		sliced(0), with_cap(with_slice(sliced(1), 0), 0), excl(U64MAX),
		{ .type = DIRECT_T, .reserved = 1 },
	};
	struct drm_vrampool_layout_error le;

	EXPECT_EQ(0, vrampool_layout_check_entries(list, 3, &le));
	EXPECT_EQ(0, vrampool_layout_check_entries(NULL, 0, &le));
	EXPECT_EQ(-EINVAL, vrampool_layout_check_entries(list, 4, &le));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, le.code);
	EXPECT_EQ(3U, le.entry);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, le.field);
	EXPECT_EQ(1ULL, le.value[0]);
}

TEST(optional_fields_absent_or_zero)
{
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);

	/* max_slice_size: absent is the page; present 0 is refused. */
	EXPECT_ENTRY_OK(&p, sliced(1000), R_SLICED(1024, 1024));
	EXPECT_ENTRY_ERR(&p, with_slice(sliced(1000), 0), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0, NULL);
	EXPECT_ENTRY_OK(&p, with_slice(sliced(1000), 300), R_SLICED(1024, 512));

	/* max_pool_size: absent is no cap; present 0 is refused. */
	EXPECT_ENTRY_OK(&p, sliced(256), R_SLICED(256, 256));
	EXPECT_ENTRY_ERR(&p, with_cap(sliced(256), 0), -EINVAL, DRM_VRAMPOOL_ERR_ZERO_SIZE, 0,
			 DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 0, 0, NULL);

	/* dealloc_period: present 0 is valid, and stays present. */
	EXPECT_ENTRY_OK(&p, with_dealloc(sliced(256), 0),
			pool(SLICED_T, F_SLICE | F_DEALLOC, 256, 256, 0, 0, 0, 0));
	EXPECT_ENTRY_OK(&p, with_dealloc(sliced(256), U64MAX),
			pool(SLICED_T, F_SLICE | F_DEALLOC, 256, 256, 0, 0, U64MAX, 0));
	EXPECT_ENTRY_OK(&p, with_dealloc(excl(100), 0), R_EXCL_D(256, 0));
	EXPECT_ENTRY_OK(&px, with_dealloc(excl(100), 0), R_EXCL_D(256, 0));
	EXPECT_ENTRY_OK(&p, excl(100), R_EXCL(256));

	/* reclaim_at: present 0 is valid, and stays present. */
	EXPECT_ENTRY_OK(&p, direct(), pool(DIRECT_T, 0, 0, 0, 0, 0, 0, 0));
	EXPECT_ENTRY_OK(&p, with_reclaim(direct(), 0), pool(DIRECT_T, F_RECLAIM, 0, 0, 0, 0, 0, 0));
	EXPECT_ENTRY_OK(&px, with_reclaim(direct(), 0),
			pool(DIRECT_T, F_RECLAIM, 0, 0, 0, 0, 0, 0));

	/* Everything a sliced pool may have. */
	EXPECT_ENTRY_OK(&p, with_dealloc(with_cap(with_slice(sliced(1 * MIB), 1000), 3 * MIB + 1), 7),
			pool(SLICED_T, F_SLICE | F_CAP | F_DEALLOC, 1 * MIB, 1024, 3 * MIB + 1, 0,
			     7, 0));
}

TEST(entry_builders)
{
	struct drm_vrampool_pool_entry e;

	memset(&e, 0xff, sizeof(e));
	vrampool_entry_sliced(&e, 77);
	EXPECT_EQ(0, memcmp(&e, &(struct drm_vrampool_pool_entry){ .type = SLICED_T,
			    .page_size = 77 }, sizeof(e)));
	vrampool_entry_set_max_slice_size(&e, 0);
	vrampool_entry_set_max_pool_size(&e, 0);
	vrampool_entry_set_dealloc_period(&e, 0);
	EXPECT_EQ(F_SLICE | F_CAP | F_DEALLOC, e.flags);
	EXPECT_EQ(0ULL, e.max_slice_size | e.max_pool_size | e.dealloc_period);

	memset(&e, 0xff, sizeof(e));
	vrampool_entry_exclusive(&e, 5);
	EXPECT_EQ(0, memcmp(&e, &(struct drm_vrampool_pool_entry){ .type = EXCL_T,
			    .max_alloc_size = 5 }, sizeof(e)));

	memset(&e, 0xff, sizeof(e));
	vrampool_entry_direct(&e);
	EXPECT_EQ(0, memcmp(&e, &(struct drm_vrampool_pool_entry){ .type = DIRECT_T },
			    sizeof(e)));
	vrampool_entry_set_reclaim_at(&e, 9);
	EXPECT_EQ(F_RECLAIM, e.flags);
	EXPECT_EQ(9ULL, e.reclaim_at);
}

/* Resolving a resolved list changes nothing. */
TEST(resolve_is_idempotent)
{
	struct vrampool_props p = props(512, 20 * GIB, false);
	struct drm_vrampool_pool_entry list[6] = {
		excl(0), with_slice(sliced(1000), 10), with_cap(sliced(3 * MIB), 100 * MIB + 3),
		with_dealloc(excl(12345), 9), with_reclaim(direct(), 77), direct(),
	};
	struct drm_vrampool_pool_entry once[6], twice[6];
	struct vrampool_error err;
	uint32_t n;

	ASSERT_EQ(0, vrampool_layout_validate(&p, 0, list, 6, once, &n, &err));
	ASSERT_EQ(6U, n);
	ASSERT_EQ(0, vrampool_layout_validate(&p, 0, once, 6, twice, &n, &err));
	EXPECT_EQ(0, memcmp(once, twice, sizeof(once)));
}

/* ---- Presets ------------------------------------------------------------- */

/*
 * Both presets of three devices, every pool written out by hand (from the
 * formulas in Documentation/vrampool.rst, "Presets"), one variant each:
 * each is an example CubeCL's memory configuration gives results for.
 */
FIXTURE(preset) {
};

FIXTURE_VARIANT(preset) {
	uint64_t alignment;
	uint64_t max_page_size;
	/* sub-slices: exclusive{0}, the sliced pools (page, slice), the last pool */
	const uint64_t (*sliced)[2];
	uint32_t nsliced;
	uint64_t last_max_alloc, last_dealloc;
	/* exclusive-pages: the 24 buckets (max_alloc_size, dealloc_period) */
	const uint64_t (*buckets)[2];
};

FIXTURE_SETUP(preset)
{
}

FIXTURE_TEARDOWN(preset)
{
}

static const uint64_t sliced_128m[][2] = {
	{ 8388608, 2097152 }, { 33554432, 16777216 },
};

static const uint64_t buckets_128m_a256[24][2] = {
	{ 32768, 5000 }, { 47104, 5000 }, { 67584, 5000 }, { 97024, 5000 },
	{ 139264, 5000 }, { 199936, 5000 }, { 286976, 5000 }, { 412160, 5000 },
	{ 591616, 5000 }, { 849152, 5000 }, { 1219328, 5000 }, { 1750272, 5000 },
	{ 2512896, 5000 }, { 3607808, 5000 }, { 5179392, 5000 }, { 7436032, 5000 },
	{ 10675712, 5000 }, { 15326976, 5000 }, { 22004736, 5000 }, { 31591936, 5000 },
	{ 45355776, 5000 }, { 65116672, 5000 }, { 93487104, 5000 }, { 134217728, 5000 },
};

/* WebGPU's limits: m = 128 MiB, a = 256. */
FIXTURE_VARIANT_ADD(preset, webgpu_128m_a256) {
	.alignment = 256,
	.max_page_size = 128 * MIB,
	.sliced = sliced_128m,
	.nsliced = ARRAY_SIZE(sliced_128m),
	.last_max_alloc = 134217728,
	.last_dealloc = 5000,
	.buckets = buckets_128m_a256,
};

static const uint64_t buckets_128m_a32[24][2] = {
	{ 32768, 5000 }, { 47072, 5000 }, { 67552, 5000 }, { 96992, 5000 },
	{ 139232, 5000 }, { 199872, 5000 }, { 286976, 5000 }, { 411968, 5000 },
	{ 591456, 5000 }, { 849152, 5000 }, { 1219136, 5000 }, { 1750272, 5000 },
	{ 2512832, 5000 }, { 3607616, 5000 }, { 5179392, 5000 }, { 7435968, 5000 },
	{ 10675712, 5000 }, { 15326944, 5000 }, { 22004640, 5000 }, { 31591744, 5000 },
	{ 45355776, 5000 }, { 65116608, 5000 }, { 93486912, 5000 }, { 134217728, 5000 },
};

/* The properties of CubeCL's own unit tests: m = 128 MiB, a = 32. */
FIXTURE_VARIANT_ADD(preset, cubecl_tests_128m_a32) {
	.alignment = 32,
	.max_page_size = 128 * MIB,
	.sliced = sliced_128m,
	.nsliced = ARRAY_SIZE(sliced_128m),
	.last_max_alloc = 134217728,
	.last_dealloc = 5000,
	.buckets = buckets_128m_a32,
};

static const uint64_t sliced_20g[][2] = {
	{ 20 * MIB, 640 * KIB }, { 80 * MIB, 5 * MIB }, { 320 * MIB, 40 * MIB },
	{ 1280 * MIB, 320 * MIB }, { 5 * GIB, 2560 * MIB },
};

static const uint64_t buckets_20g_a512[24][2] = {
	{ 32768, 5000 }, { 58880, 5000 }, { 105472, 5000 }, { 188416, 5000 },
	{ 336896, 5000 }, { 602624, 5000 }, { 1078784, 5000 }, { 1930752, 5000 },
	{ 3456000, 5000 }, { 6187008, 5000 }, { 11075584, 5000 }, { 19826688, 5000 },
	{ 35492864, 5000 }, { 63537152, 5000 }, { 113740800, 5000 }, { 203613696, 5000 },
	{ 364499456, 5000 }, { 652510208, 10000 }, { 1168094208, 10000 },
	{ 2091068416, 15000 }, { 3743334400, 20000 }, { 6701145088, 35000 },
	{ 11996082688, 60000 }, { 21474836480, 105000 },
};

/* An 80 GiB CUDA card: m = 20 GiB, a = 512. */
FIXTURE_VARIANT_ADD(preset, cuda_20g_a512) {
	.alignment = 512,
	.max_page_size = 20 * GIB,
	.sliced = sliced_20g,
	.nsliced = ARRAY_SIZE(sliced_20g),
	.last_max_alloc = 21474836480ULL,
	.last_dealloc = 105000,
	.buckets = buckets_20g_a512,
};

TEST_F(preset, sub_slices)
{
	struct drm_vrampool_pool_entry want[MAX_POOLS], out[MAX_POOLS];
	struct vrampool_props p = props(variant->alignment, variant->max_page_size, false);
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	uint32_t n, i;

	want[0] = R_EXCL(0);
	for (i = 0; i < variant->nsliced; i++)
		want[1 + i] = R_SLICED(variant->sliced[i][0], variant->sliced[i][1]);
	want[1 + i] = R_EXCL_D(variant->last_max_alloc, variant->last_dealloc);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(want, variant->nsliced + 2, out, n);
}

TEST_F(preset, exclusive_pages)
{
	struct drm_vrampool_pool_entry want[24], out[MAX_POOLS];
	struct vrampool_props p = props(variant->alignment, variant->max_page_size, false);
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	uint32_t n, i;

	for (i = 0; i < 24; i++)
		want[i] = R_EXCL_D(variant->buckets[i][0], variant->buckets[i][1]);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(want, 24, out, n);
}

TEST(presets_on_exclusive_memory_only_device)
{
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry want[24], out[MAX_POOLS];
	struct drm_vrampool_layout_error le;
	struct vrampool_error err, w;
	uint32_t n = 77, i;

	EXPECT_EQ(-EOPNOTSUPP, run_preset(_metadata, __LINE__, &px, DRM_VRAMPOOL_PRESET_SUB_SLICES,
					  out, &n, &le, &err));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE, le.code);
	EXPECT_EQ(NO_ENTRY, le.entry);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_FIELD_PRESET, le.field);
	EXPECT_EQ((uint64_t)DRM_VRAMPOOL_PRESET_SUB_SLICES, le.value[0]);
	EXPECT_EQ(0ULL, le.value[1]);
	variant_of(&(struct want_err){ .code = DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE,
		   .entry = NO_ENTRY, .field = DRM_VRAMPOOL_FIELD_PRESET,
		   .v0 = DRM_VRAMPOOL_PRESET_SUB_SLICES }, 0, &w);
	check_variant(_metadata, __LINE__, &w, &err);
	EXPECT_STREQ("the `sub-slices` preset is not available in this build", message(&err));

	for (i = 0; i < 24; i++)
		want[i] = R_EXCL_D(buckets_128m_a256[i][0], buckets_128m_a256[i][1]);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &px, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(want, 24, out, n);
}

TEST(unknown_preset)
{
	static const uint32_t presets[] = { 3, 4, 255, 0x80000000u, UINT32_MAX };
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry out[MAX_POOLS];
	struct drm_vrampool_layout_error le;
	struct vrampool_error err, w;
	char msg[96];
	uint32_t n;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(presets); i++) {
		EXPECT_EQ(-EINVAL, run_preset(_metadata, __LINE__, &p, presets[i], out, &n, &le,
					      &err));
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, le.code);
		EXPECT_EQ(NO_ENTRY, le.entry);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_FIELD_PRESET, le.field);
		EXPECT_EQ((uint64_t)presets[i], le.value[0]);
		variant_of(&(struct want_err){ .code = DRM_VRAMPOOL_ERR_INVALID_ARGUMENT,
			   .entry = NO_ENTRY, .field = DRM_VRAMPOOL_FIELD_PRESET,
			   .v0 = presets[i] }, 0, &w);
		check_variant(_metadata, __LINE__, &w, &err);
		snprintf(msg, sizeof(msg), "invalid argument: invalid `preset` (%u)", presets[i]);
		EXPECT_STREQ(msg, message(&err));
		EXPECT_EQ(-EINVAL, run_preset(_metadata, __LINE__, &px, presets[i], out, &n, &le,
					      &err));
	}
	/* NONE is no preset at all for the raw call. */
	{
		struct vrampool_layout_props lp = raw_props(&p);

		EXPECT_EQ(-EINVAL, vrampool_layout_preset(&lp, DRM_VRAMPOOL_PRESET_NONE, out, &n,
							  &le));
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, le.code);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_FIELD_PRESET, le.field);
	}
}

TEST(default_preset)
{
	struct vrampool_layout_props lp = { .alignment = 256, .max_page_size = 128 * MIB };

	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PRESET_SUB_SLICES, vrampool_layout_default_preset(&lp));
	lp.exclusive_memory_only = true;
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
		  vrampool_layout_default_preset(&lp));
	/* Whatever the sizes. */
	lp.alignment = 0;
	lp.max_page_size = 0;
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
		  vrampool_layout_default_preset(&lp));
	lp.exclusive_memory_only = false;
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PRESET_SUB_SLICES, vrampool_layout_default_preset(&lp));
}

/* dealloc_period(x) = trunc(5000 * round(1 + x / 2^30)), round half away from 0. */
TEST(dealloc_period)
{
	static const uint64_t cases[][2] = {
		{ 0, 5000 }, { 1, 5000 }, { (1ULL << 29) - 1, 5000 }, { 1ULL << 29, 10000 },
		{ GIB, 10000 }, { GIB + (1ULL << 29) - 1, 10000 }, { 3ULL << 29, 15000 },
		{ 20 * GIB, 105000 }, { U64MAX, 5000 * ((1ULL << 34) + 1) },
		{ 1ULL << 63, 5000 * ((1ULL << 33) + 1) },
	};
	uint64_t x = 0x243f6a8885a308d3ULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_EQ(cases[i][1], vrampool_layout_dealloc_period(cases[i][0]))
			TH_LOG("size %ju", (uintmax_t)cases[i][0]);

	/* The float formula, where doubles hold x exactly. */
	for (i = 0; i < 100000; i++) {
		uint64_t size;
		double want;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size = x >> (11 + i % 40);
		want = 5000.0 * round(1.0 + (double)size / 1073741824.0);
		ASSERT_EQ((uint64_t)want, vrampool_layout_dealloc_period(size))
			TH_LOG("size %ju", (uintmax_t)size);
	}
}

/*
 * The sub-slices preset as Documentation/vrampool.rst states it, written here
 * independently: exclusive{0}; while cur >= 32 MiB: cur = align_up(cur / 4, a),
 * page[k] = cur, slice[k] = cur >> k; reversed; exclusive{floor(m/a)*a}.
 * CubeCL loops forever when align_up(cur / 4, a) >= cur (an alignment
 * above a quarter of the page): the ladder stops there instead.
 */
static uint32_t model_sub_slices(uint64_t a, uint64_t m, struct drm_vrampool_pool_entry *out)
{
	uint64_t pages[64], cur = m, next;
	uint32_t n = 0, k;
	bool over;

	if (!a)
		a = 1;
	while (cur >= 32 * MIB) {
		next = wide_align_up(cur / 4, a, &over);
		if (over || next >= cur)
			break;
		pages[n++] = next;
		cur = next;
	}
	out[0] = R_EXCL(0);
	for (k = 0; k < n; k++)
		out[1 + k] = R_SLICED(pages[n - 1 - k], pages[n - 1 - k] >> (n - k));
	out[1 + n] = R_EXCL_D(m / a * a, vrampool_layout_dealloc_period(m / a * a));
	return n + 2;
}

TEST(preset_sub_slices_edges)
{
	static const uint64_t ms[] = {
		0, 1, 255, 256, 32767, 32768, 1 * MIB, 32 * MIB - 1, 32 * MIB, 32 * MIB + 1,
		128 * MIB - 1, 128 * MIB, 128 * MIB + 1, 20 * GIB, 20 * GIB + 12345,
		(1ULL << 40) + 12345, 1ULL << 62, (1ULL << 63) - 1, 1ULL << 63, U64MAX - 1, U64MAX,
	};
	static const uint64_t aligns[] = {
		0, 1, 3, 32, 256, 512, 4096, 65536, 48 * MIB, 128 * MIB, 1ULL << 62, 1ULL << 63,
		U64MAX,
	};
	struct drm_vrampool_pool_entry want[64], out[MAX_POOLS];
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	uint32_t n, wn;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(ms); i++) {
		for (j = 0; j < ARRAY_SIZE(aligns); j++) {
			struct vrampool_props p = props(aligns[j], ms[i], false);

			wn = model_sub_slices(aligns[j], ms[i], want);
			ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p,
						DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n, &le, &err))
				TH_LOG("m %ju a %ju: %s", (uintmax_t)ms[i], (uintmax_t)aligns[j],
				       message(&err));
			if (!EXPECT_POOLS(want, wn, out, n))
				TH_LOG("m %ju a %ju", (uintmax_t)ms[i], (uintmax_t)aligns[j]);
		}
	}
}

TEST(preset_sub_slices_hand_checked)
{
	struct drm_vrampool_pool_entry out[MAX_POOLS];
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	struct vrampool_props p;
	uint32_t n;

	/* Below 32 MiB: no sliced pool. */
	p = props(256, 32 * MIB - 1, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0), R_EXCL_D(33554176, 5000) }),
		     2, out, n);

	/* Exactly 32 MiB: one sliced pool of a quarter, sliced in halves. */
	p = props(256, 32 * MIB, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0), R_SLICED(8 * MIB, 4 * MIB),
		       R_EXCL_D(32 * MIB, 5000) }), 3, out, n);

	/* m = alignment. */
	p = props(4096, 4096, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0), R_EXCL_D(4096, 5000) }), 2,
		     out, n);

	/* m = 0: two pools for size 0. */
	p = props(256, 0, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0), R_EXCL_D(0, 5000) }), 2,
		     out, n);

	/* An alignment above m / 4: the ladder stops at once. */
	p = props(128 * MIB, 128 * MIB, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0),
		       R_EXCL_D(128 * MIB, 5000) }), 2, out, n);

	/* 128 MiB / 4 = 32 MiB -> 48 MiB, then 12 MiB -> 48 MiB again: stop. */
	p = props(48 * MIB, 128 * MIB, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0), R_SLICED(48 * MIB, 24 * MIB),
		       R_EXCL_D(96 * MIB, 5000) }), 3, out, n);

	/* An alignment above m: the largest pool holds size 0 only. */
	p = props(1 * GIB, 64 * MIB, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL(0), R_EXCL_D(0, 5000) }), 2,
		     out, n);

	/* Near 2^63: pages 2^61, 2^59, ..., 2^23, smallest first. */
	p = props(512, 1ULL << 63, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_SUB_SLICES, out, &n,
				&le, &err));
	ASSERT_EQ(22U, n);
	EXPECT_TRUE(same_pool(R_SLICED(1ULL << 23, 1ULL << 3), out[1]));
	EXPECT_TRUE(same_pool(R_SLICED(1ULL << 61, 1ULL << 60), out[20]));
	EXPECT_TRUE(same_pool(R_EXCL_D(1ULL << 63, 5000 * ((1ULL << 33) + 1)), out[21]));
}

TEST(preset_exclusive_pages_edges)
{
	struct drm_vrampool_pool_entry out[MAX_POOLS];
	struct drm_vrampool_layout_error le;
	struct vrampool_error err, w;
	struct vrampool_props p;
	uint32_t n, i;

	/* m = 0: every bucket is 0. */
	p = props(256, 0, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL_D(0, 5000) }), 1, out, n);

	/* m = 32768: one bucket. */
	p = props(256, 32768, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL_D(32768, 5000) }), 1, out, n);

	/*
	 * Just above: the last bucket is m itself, exactly (CubeCL's
	 * exp(ln 32769) may truncate to 32768: the ends are exact here).
	 */
	p = props(256, 32769, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL_D(32768, 5000),
		       R_EXCL_D(33024, 5000) }), 2, out, n);

	/* An alignment at least m: one bucket of the alignment. */
	p = props(1ULL << 40, 1 * GIB, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){ R_EXCL_D(1ULL << 40, 5000 * 1025) }),
		     1, out, n);

	/*
	 * Below 32768 the float formula runs downwards: from 32768 to m,
	 * each bucket smaller than the one before.
	 */
	p = props(4096, 4096, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	EXPECT_POOLS(((struct drm_vrampool_pool_entry[]){
		R_EXCL_D(32768, 5000), R_EXCL_D(28672, 5000), R_EXCL_D(24576, 5000),
		R_EXCL_D(20480, 5000), R_EXCL_D(16384, 5000), R_EXCL_D(12288, 5000),
		R_EXCL_D(8192, 5000), R_EXCL_D(4096, 5000) }), 8, out, n);
	/* m = 1, no alignment: buckets 22 (2^(15/23) = 1.57) and 23 are both 1. */
	p = props(1, 1, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	ASSERT_EQ(23U, n);
	EXPECT_EQ(32768ULL, out[0].max_alloc_size);
	EXPECT_EQ(2ULL, out[21].max_alloc_size);
	EXPECT_EQ(1ULL, out[22].max_alloc_size);
	for (i = 1; i < n; i++)
		EXPECT_GT(out[i - 1].max_alloc_size, out[i].max_alloc_size) TH_LOG("bucket %u", i);

	/* Near 2^63: 24 buckets up to m, strictly increasing. */
	p = props(512, 1ULL << 63, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	ASSERT_EQ(24U, n);
	EXPECT_EQ(32768ULL, out[0].max_alloc_size);
	EXPECT_EQ(1ULL << 63, out[23].max_alloc_size);
	EXPECT_EQ(5000 * ((1ULL << 33) + 1), out[23].dealloc_period);
	for (i = 1; i < n; i++)
		EXPECT_LT(out[i - 1].max_alloc_size, out[i].max_alloc_size) TH_LOG("bucket %u", i);

	/* 2^64 - 1 without alignment: fine. */
	p = props(1, U64MAX, false);
	ASSERT_EQ(0, run_preset(_metadata, __LINE__, &p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out,
				&n, &le, &err));
	ASSERT_EQ(24U, n);
	EXPECT_EQ(U64MAX, out[23].max_alloc_size);

	/* Aligned, the last bucket passes 2^64 - 1: SizeOverflow. */
	p = props(4096, U64MAX, false);
	EXPECT_EQ(-EOVERFLOW, run_preset(_metadata, __LINE__, &p,
					 DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, out, &n, &le, &err));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, le.code);
	EXPECT_EQ(NO_ENTRY, le.entry);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, le.field);
	EXPECT_EQ(U64MAX, le.value[0]);
	EXPECT_EQ(4096ULL, le.value[1]);
	variant_of(&(struct want_err){ .code = DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, .entry = NO_ENTRY,
		   .field = DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, .v0 = U64MAX, .v1 = 4096 }, 0, &w);
	check_variant(_metadata, __LINE__, &w, &err);
	EXPECT_STREQ("`max_alloc_size` (18446744073709551615) overflows 64 bits when aligned up to 4096 bytes",
		     message(&err));
}


/* ---- Exclusive-pages buckets against CubeCL's float formula -------------- */

/* trunc(exp(ln 32768 + (ln m - ln 32768) * i/23)) in doubles, as CubeCL. */
static uint64_t float_bucket(uint64_t m, unsigned int i, double *value)
{
	double lo = log(32768.0), hi = log((double)m);
	/* volatile: each operation rounded as in CubeCL, never fused. */
	volatile double p = (double)i / 23.0;
	volatile double t = (hi - lo) * p;
	volatile double v = exp(lo + t);

	*value = v;
	return (uint64_t)v;
}

/* The same in long double: a better approximation of the exact value. */
static uint64_t long_double_bucket(uint64_t m, unsigned int i)
{
	long double lo = logl(32768.0L), hi = logl((long double)m);

	return (uint64_t)expl(lo + (hi - lo) * ((long double)i / 23.0L));
}

static uint64_t align_u(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Bucket by bucket, vrampool_layout_exclusive_bucket() (fixed point) aligned
 * up must equal CubeCL's double evaluation aligned up. The one kind of
 * difference allowed: a bucket strictly inside (0 < i < 23) whose exact value
 * lies so close to an alignment boundary that the double evaluation's own
 * rounding error (about 1e-16 relative, up to 0.02 at 2^44) crosses it; the
 * fixed point then agrees with a long double evaluation. Each is logged.
 * Returns the number of such differences.
 */
static int check_buckets(struct __test_metadata *_metadata, uint64_t a, uint64_t m)
{
	struct vrampool_props p = props(a, m, false);
	struct drm_vrampool_pool_entry out[MAX_POOLS], ref[24];
	struct vrampool_error err;
	uint32_t n, rn = 0, i;
	int near_ties = 0;
	bool differs = false;

	for (i = 0; i < 24; i++) {
		double v;
		uint64_t ref_b = align_u(float_bucket(m, i, &v), a);
		uint64_t got = align_u(vrampool_layout_exclusive_bucket(m, i), a);

		if (got != ref_b) {
			bool tie = i > 0 && i < 23 && align_u(long_double_bucket(m, i), a) == got &&
				   (got > ref_b ? got - ref_b : ref_b - got) == a;

			differs = true;
			if (tie) {
				near_ties++;
				TH_LOG("near tie: m %ju a %ju bucket %u: double %.6f -> %ju, fixed point %ju -> %ju",
				       (uintmax_t)m, (uintmax_t)a, i, v, (uintmax_t)ref_b,
				       (uintmax_t)vrampool_layout_exclusive_bucket(m, i), (uintmax_t)got);
			} else {
				EXPECT_EQ(ref_b, got)
					TH_LOG("m %ju a %ju bucket %u: double %.6f", (uintmax_t)m,
					       (uintmax_t)a, i, v);
			}
		}
		if (!rn || ref[rn - 1].max_alloc_size != ref_b)
			ref[rn++] = R_EXCL_D(ref_b, (uint64_t)(5000.0 * round(1.0 + (double)ref_b /
										1073741824.0)));
	}

	if (vrampool_layout_validate(&p, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, NULL, 0, out, &n,
				     &err)) {
		EXPECT_TRUE(false) TH_LOG("m %ju a %ju: %s", (uintmax_t)m, (uintmax_t)a,
					  message(&err));
		return near_ties;
	}
	if (!differs && !EXPECT_POOLS(ref, rn, out, n))
		TH_LOG("m %ju a %ju", (uintmax_t)m, (uintmax_t)a);
	return near_ties;
}

/*
 * What is compared: alignments that are powers of two up to 32768, and m a
 * multiple of the alignment. Then buckets 0 and 23, which the fixed point
 * makes exactly 32768 and m, are aligned already, and the doubles' 32767.99...
 * (exp(ln 32768)) or m - epsilon align up to the same value. With other m or
 * alignments the ends may differ by one alignment step: CubeCL's, not
 * the fixed point's, rounding error. Interior buckets: see check_buckets().
 */
TEST(exclusive_buckets_match_float_formula)
{
	static const uint64_t aligns[] = { 64, 256, 512, 4096 };
	uint64_t seed = 0x5eed0fb0c4e75ULL;
	int near_ties = 0, checked = 0;
	size_t j;
	int k;

	for (j = 0; j < ARRAY_SIZE(aligns); j++) {
		uint64_t a = aligns[j], m;
		int e;

		/* Every power of two from 2^15 to 2^45. */
		for (e = 15; e <= 45; e++, checked++)
			near_ties += check_buckets(_metadata, a, 1ULL << e);
		/* Pseudo-random m, log-uniform in [2^15, 2^45], multiples of a. */
		for (k = 0; k < 1000; k++, checked++) {
			e = 15 + (int)(next_random(&seed) % 30);
			m = (1ULL << e) + next_random(&seed) % (1ULL << e);
			near_ties += check_buckets(_metadata, a, m / a * a);
		}
		/* Every multiple of a below 32768, where the buckets run downwards. */
		for (m = a; m < 32768; m += a, checked++)
			near_ties += check_buckets(_metadata, a, m);
	}
	TH_LOG("%d devices checked, %d near ties", checked, near_ties);
}

/*
 * Known near ties (found by a wider scan than the test above runs): the
 * fixed point gives trunc() of the exact value, CubeCL's double
 * evaluation lands on the other side of an integer, and that integer is an
 * alignment boundary. Exact values computed to 60 digits.
 */
TEST(exclusive_buckets_known_near_ties)
{
	static const struct {
		uint64_t a, m;
		unsigned int i;
		uint64_t exact_trunc;	/* trunc of the exact value */
	} ties[] = {
		/* exact 4947779923200.9968 (double: 4947779923201.005) */
		{ 256, 29741234224896ULL, 21, 4947779923200ULL },
		/* exact 1520745839361.00034 (double: 1520745839360.9995) */
		{ 256, 3392647667712ULL, 22, 1520745839361ULL },
		/* exact 7811312391680.9922 (double: 7811312391681.002) */
		{ 64, 18771941478208ULL, 22, 7811312391680ULL },
		/* exact 5310457867232.9930 (double: 5310457867233.001) */
		{ 32, 12540051862944ULL, 22, 5310457867232ULL },
	};
	size_t j;

	for (j = 0; j < ARRAY_SIZE(ties); j++) {
		double v;
		uint64_t d = float_bucket(ties[j].m, ties[j].i, &v);

		EXPECT_EQ(ties[j].exact_trunc, vrampool_layout_exclusive_bucket(ties[j].m, ties[j].i));
		TH_LOG("m %ju a %ju bucket %u: fixed point %ju -> %ju, double %.6f -> %ju",
		       (uintmax_t)ties[j].m, (uintmax_t)ties[j].a, ties[j].i,
		       (uintmax_t)ties[j].exact_trunc,
		       (uintmax_t)align_u(ties[j].exact_trunc, ties[j].a), v,
		       (uintmax_t)align_u(d, ties[j].a));
	}
}

TEST(exclusive_bucket_ends_exact)
{
	static const uint64_t ms[] = {
		1, 1000, 32767, 32768, 32769, 128 * MIB, 20 * GIB, (1ULL << 45) + 1, 1ULL << 63,
		U64MAX,
	};
	size_t j;

	EXPECT_EQ(0ULL, vrampool_layout_exclusive_bucket(0, 0));
	EXPECT_EQ(0ULL, vrampool_layout_exclusive_bucket(0, 23));
	for (j = 0; j < ARRAY_SIZE(ms); j++) {
		EXPECT_EQ(32768ULL, vrampool_layout_exclusive_bucket(ms[j], 0));
		EXPECT_EQ(ms[j], vrampool_layout_exclusive_bucket(ms[j], 23));
		EXPECT_EQ(ms[j], vrampool_layout_exclusive_bucket(ms[j], 24));
		EXPECT_EQ(ms[j], vrampool_layout_exclusive_bucket(ms[j], UINT32_MAX));
	}
	/* m = 32768: every bucket. */
	for (j = 0; j < 24; j++)
		EXPECT_EQ(32768ULL, vrampool_layout_exclusive_bucket(32768, (uint32_t)j));
}

TEST_HARNESS_MAIN

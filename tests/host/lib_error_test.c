// SPDX-License-Identifier: GPL-2.0-only
/*
 * libvrampool's error API on the host:
 *
 * - every message, byte for byte: CubeCL's texts for its configuration
 *   errors (which the library reproduces, see Documentation/vrampool.rst),
 *   produced by real layouts, and the library's own for SizeOverflow,
 *   PoolsInUse, InvalidArgument and Os, from hand-made errors with extreme
 *   payloads; truncation as snprintf() does it;
 * - the names of the error kinds, fields and presets;
 * - vrampool_error_from_ioctl(): a variant only for a documented code with
 *   its own errno, Os otherwise; vrampool_layout_validate()'s os_errno;
 * - the ClientLimit variant of ALLOC: its name, payload and messages.
 * - the QuotaExceeded variant of ALLOC: its name, payload and message.
 *
 * The resolver's rules are resolver_test.c's. Expected values are written
 * from vrampool.h and the uapi header, not from the code under test.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "host_harness.h"
#include "layout_helpers.h"

/* ---- Messages ----------------------------------------------------------- */

/* CubeCL's texts of its configuration errors, produced by real layouts. */
TEST(cubecl_messages_verbatim)
{
	static struct drm_vrampool_pool_entry list[255];
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct vrampool_props px = props(256, 128 * MIB, true);
	struct drm_vrampool_pool_entry out[VRAMPOOL_PRESET_MAX_POOLS];
	struct drm_vrampool_pool_entry e;
	struct vrampool_error err;
	uint32_t n, i;

	for (i = 0; i < 255; i++)
		list[i] = excl(0);

	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, NULL, 0, out, &n, &err));
	EXPECT_STREQ("the pool list is empty", message(&err));

	e = sliced(0);
	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("`page_size` must be non-zero", message(&err));

	e = with_slice(sliced(1), 0);
	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("`max_slice_size` must be non-zero", message(&err));

	e = with_cap(sliced(1), 0);
	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("`max_pool_size` must be non-zero", message(&err));

	e = with_slice(sliced(1024), 2048);
	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("`max_slice_size` (2048) exceeds `page_size` (1024); a slice can never span pages",
		     message(&err));

	e = with_cap(sliced(256), 100);
	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("`max_pool_size` (100) is smaller than `page_size` (256); the cap can't fit a single page",
		     message(&err));

	e = with_cap(sliced(256), 256 * 65536);
	ASSERT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("`max_pool_size` spans 65536 pages of `page_size`, exceeding the maximum of 65535; increase `page_size` or lower the cap",
		     message(&err));

	ASSERT_EQ(-E2BIG, vrampool_layout_validate(&p, 0, list, 255, out, &n, &err));
	EXPECT_STREQ("the pool list has 255 entries, exceeding the maximum of 254 dynamic pools",
		     message(&err));

	ASSERT_EQ(-EOPNOTSUPP, vrampool_layout_validate(&px, DRM_VRAMPOOL_PRESET_SUB_SLICES, NULL,
							 0, out, &n, &err));
	EXPECT_STREQ("the `sub-slices` preset is not available in this build", message(&err));

	e = sliced(256);
	ASSERT_EQ(-EOPNOTSUPP, vrampool_layout_validate(&px, 0, &e, 1, out, &n, &err));
	EXPECT_STREQ("sliced pools are not available in this build (exclusive memory only)",
		     message(&err));
}

static const char *message_of(struct vrampool_error e)
{
	return message(&e);
}

/* Every variant's message from a hand-made error, with extreme payloads. */
TEST(messages_of_every_variant)
{
	char want[256];

	EXPECT_STREQ("success", message_of((struct vrampool_error){ .kind = VRAMPOOL_OK }));
	EXPECT_STREQ("the pool list is empty",
		     message_of((struct vrampool_error){ .kind = VRAMPOOL_ERR_EMPTY_POOL_LIST }));
	EXPECT_STREQ("`page_size` must be non-zero", message_of((struct vrampool_error){
		.kind = VRAMPOOL_ERR_ZERO_SIZE, .field = DRM_VRAMPOOL_FIELD_PAGE_SIZE }));
	EXPECT_STREQ("`max_slice_size` must be non-zero", message_of((struct vrampool_error){
		.kind = VRAMPOOL_ERR_ZERO_SIZE, .field = DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE }));
	EXPECT_STREQ("`max_pool_size` must be non-zero", message_of((struct vrampool_error){
		.kind = VRAMPOOL_ERR_ZERO_SIZE, .field = DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE }));
	EXPECT_STREQ("`max_slice_size` (18446744073709551615) exceeds `page_size` (18446744073709551614); a slice can never span pages",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE,
			     .page_size = U64MAX - 1, .max_slice_size = U64MAX }));
	EXPECT_STREQ("`max_pool_size` (0) is smaller than `page_size` (18446744073709551615); the cap can't fit a single page",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE,
			     .page_size = U64MAX, .max_pool_size = 0 }));
	EXPECT_STREQ("`max_pool_size` spans 65536 pages of `page_size`, exceeding the maximum of 65535; increase `page_size` or lower the cap",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_TOO_MANY_PAGES, .pages = 65536 }));
	EXPECT_STREQ("the pool list has 18446744073709551615 entries, exceeding the maximum of 254 dynamic pools",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_TOO_MANY_POOLS, .count = U64MAX }));
	EXPECT_STREQ("the `sub-slices` preset is not available in this build",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_PRESET_UNAVAILABLE,
			     .preset = DRM_VRAMPOOL_PRESET_SUB_SLICES }));
	EXPECT_STREQ("the `exclusive-pages` preset is not available in this build",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_PRESET_UNAVAILABLE,
			     .preset = DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES }));
	EXPECT_STREQ("the `unknown` preset is not available in this build",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_PRESET_UNAVAILABLE, .preset = 77 }));
	EXPECT_STREQ("sliced pools are not available in this build (exclusive memory only)",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE }));

	/* The library's own variants. */
	EXPECT_STREQ("`page_size` (18446744073709551615) overflows 64 bits when aligned up to 256 bytes",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_SIZE_OVERFLOW,
			     .field = DRM_VRAMPOOL_FIELD_PAGE_SIZE, .size = U64MAX,
			     .alignment = 256 }));
	EXPECT_STREQ("`max_alloc_size` (18446744073709551361) overflows 64 bits when aligned up to 512 bytes",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_SIZE_OVERFLOW,
			     .field = DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, .size = U64MAX - 254,
			     .alignment = 512 }));
	EXPECT_STREQ("the dynamic pools still hold 4096 bytes of live allocations; free them before installing a layout",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_POOLS_IN_USE, .bytes_in_use = 4096 }));
	EXPECT_STREQ("the dynamic pools still hold 18446744073709551615 bytes of live allocations; free them before installing a layout",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_POOLS_IN_USE, .bytes_in_use = U64MAX }));
	EXPECT_STREQ("invalid argument: entry 3 has an invalid `type` (4)",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_INVALID_ARGUMENT, .entry = 3,
			     .field = DRM_VRAMPOOL_FIELD_TYPE, .value = 4 }));
	EXPECT_STREQ("invalid argument: entry 253 has an invalid `flags` (16)",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_INVALID_ARGUMENT, .entry = 253,
			     .field = DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, .value = 16 }));
	EXPECT_STREQ("invalid argument: invalid `preset` (3)",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_INVALID_ARGUMENT, .entry = NO_ENTRY,
			     .field = DRM_VRAMPOOL_FIELD_PRESET, .value = 3 }));
	EXPECT_STREQ("invalid argument: invalid `unknown field` (18446744073709551615)",
		     message_of((struct vrampool_error){
			     .kind = VRAMPOOL_ERR_INVALID_ARGUMENT, .entry = NO_ENTRY,
			     .field = 999, .value = U64MAX }));

	snprintf(want, sizeof(want), "%s (errno %d)", strerror(ENOSPC), ENOSPC);
	EXPECT_STREQ(want, message_of((struct vrampool_error){
		.kind = VRAMPOOL_ERR_OS, .os_errno = ENOSPC }));
	snprintf(want, sizeof(want), "%s (errno %d)", strerror(EFAULT), EFAULT);
	EXPECT_STREQ(want, message_of((struct vrampool_error){
		.kind = VRAMPOOL_ERR_OS, .os_errno = EFAULT }));
	/* A kind beyond the enum reads as an OS error. */
	EXPECT_STREQ(want, message_of((struct vrampool_error){
		.kind = (enum vrampool_error_kind)100, .os_errno = EFAULT }));
}

TEST(message_truncates_like_snprintf)
{
	const struct vrampool_error e = { .kind = VRAMPOOL_ERR_EMPTY_POOL_LIST };
	const char *full = "the pool list is empty";
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	EXPECT_EQ((int)strlen(full), vrampool_error_message(&e, buf, sizeof(buf)));
	EXPECT_STREQ("the poo", buf);
	EXPECT_EQ((int)strlen(full), vrampool_error_message(&e, NULL, 0));
	buf[0] = 'x';
	EXPECT_EQ((int)strlen(full), vrampool_error_message(&e, buf, 1));
	EXPECT_EQ('\0', buf[0]);
}

TEST(names)
{
	static const char *const kinds[] = {
		"Ok", "EmptyPoolList", "ZeroSize", "SliceLargerThanPage", "CapSmallerThanPage",
		"TooManyPages", "TooManyPools", "PresetUnavailable", "SlicedPoolsUnavailable",
		"SizeOverflow", "PoolsInUse", "InvalidArgument", "Os",
	};
	static const char *const fields[] = {
		"", "page_size", "max_slice_size", "max_pool_size", "max_alloc_size",
		"dealloc_period", "reclaim_at", "type", "flags", "reserved", "flags", "preset",
		"entries", "count", "entry_size", "pad", "reserved",
	};
	size_t i;

	/* The layout variants and Os (the allocation ones follow them). */
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		EXPECT_STREQ(kinds[i], vrampool_error_kind_name((enum vrampool_error_kind)i));
	EXPECT_EQ(VRAMPOOL_ERR_OS, (int)ARRAY_SIZE(kinds) - 1);
	EXPECT_STREQ("Unknown", vrampool_error_kind_name((enum vrampool_error_kind)1000));
	EXPECT_STREQ("Unknown", vrampool_error_kind_name((enum vrampool_error_kind)-1));

	EXPECT_EQ(DRM_VRAMPOOL_FIELD_RESERVED, (int)ARRAY_SIZE(fields) - 1);
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		EXPECT_STREQ(fields[i], vrampool_field_name((uint32_t)i));
	EXPECT_STREQ("unknown field", vrampool_field_name(17));
	EXPECT_STREQ("unknown field", vrampool_field_name(UINT32_MAX));

	EXPECT_STREQ("sub-slices", vrampool_preset_name(DRM_VRAMPOOL_PRESET_SUB_SLICES));
	EXPECT_STREQ("exclusive-pages", vrampool_preset_name(DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES));
	EXPECT_NULL(vrampool_preset_name(DRM_VRAMPOOL_PRESET_NONE));
	EXPECT_NULL(vrampool_preset_name(3));
}


/* ---- vrampool_error_from_ioctl() ------------------------------------------ */

static void from_ioctl(struct __test_metadata *_metadata, int line, int os_errno,
		       const struct drm_vrampool_layout_error *le, bool documented)
{
	struct vrampool_error got, want;
	struct want_err w = { 0 };

	memset(&got, 0xa5, sizeof(got));
	vrampool_error_from_ioctl(&got, os_errno, le);
	if (documented) {
		w.code = le->code;
		w.entry = le->entry;
		w.field = le->field;
		w.v0 = le->value[0];
		w.v1 = le->value[1];
	} else {
		w.code = 0xdead;	/* no variant: Os */
	}
	variant_of(&w, os_errno, &want);
	check_variant(_metadata, line, &want, &got);
}

TEST(error_from_ioctl)
{
	static const struct {
		uint32_t code;
		int err;
	} codes[] = {
		{ DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, EINVAL },
		{ DRM_VRAMPOOL_ERR_ZERO_SIZE, EINVAL },
		{ DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, EINVAL },
		{ DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, EINVAL },
		{ DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, EINVAL },
		{ DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, E2BIG },
		{ DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE, EOPNOTSUPP },
		{ DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, EOPNOTSUPP },
		{ DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, EOVERFLOW },
		{ DRM_VRAMPOOL_ERR_POOLS_IN_USE, EBUSY },
		{ DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, EINVAL },
	};
	static const int errnos[] = {
		0, EINVAL, E2BIG, EOPNOTSUPP, EOVERFLOW, EBUSY, ENOSPC, EFAULT, ENOMEM, EINTR,
		-EINVAL, -EBUSY, 4095, 100000,
	};
	struct drm_vrampool_layout_error le = {
		.entry = 7, .field = DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
		.value = { 0x1122334455667788ULL, U64MAX },
	};
	size_t i, j;

	/* No structured error, or "none": Os with the errno. */
	for (j = 0; j < ARRAY_SIZE(errnos); j++) {
		from_ioctl(_metadata, __LINE__, errnos[j], NULL, false);
		le.code = DRM_VRAMPOOL_ERR_NONE;
		from_ioctl(_metadata, __LINE__, errnos[j], &le, false);
		/* Unknown codes. */
		le.code = 12;
		from_ioctl(_metadata, __LINE__, errnos[j], &le, false);
		le.code = UINT32_MAX;
		from_ioctl(_metadata, __LINE__, errnos[j], &le, false);
	}

	/* Each documented code: a variant only with its own errno. */
	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		le.code = codes[i].code;
		for (j = 0; j < ARRAY_SIZE(errnos); j++)
			from_ioctl(_metadata, __LINE__, errnos[j], &le, errnos[j] == codes[i].err);
	}

	/* Payloads, spelled out for two of them. */
	{
		struct vrampool_error got;

		le = (struct drm_vrampool_layout_error){
			.code = DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, .entry = 3,
			.field = DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, .value = { 256, 100 },
		};
		vrampool_error_from_ioctl(&got, EINVAL, &le);
		EXPECT_EQ(VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, (int)got.kind);
		EXPECT_EQ(EINVAL, got.os_errno);
		EXPECT_EQ(3U, got.entry);
		EXPECT_EQ(256ULL, got.page_size);
		EXPECT_EQ(100ULL, got.max_pool_size);
		EXPECT_EQ(0ULL, got.max_slice_size);
		EXPECT_STREQ("`max_pool_size` (100) is smaller than `page_size` (256); the cap can't fit a single page",
			     message(&got));

		le = (struct drm_vrampool_layout_error){
			.code = DRM_VRAMPOOL_ERR_POOLS_IN_USE, .entry = NO_ENTRY,
			.value = { 1 * MIB, 0 },
		};
		vrampool_error_from_ioctl(&got, EBUSY, &le);
		EXPECT_EQ(VRAMPOOL_ERR_POOLS_IN_USE, (int)got.kind);
		EXPECT_EQ(1 * MIB, got.bytes_in_use);
		EXPECT_STREQ("the dynamic pools still hold 1048576 bytes of live allocations; free them before installing a layout",
			     message(&got));

		/* Any int is an errno that matches no code; never undefined behaviour. */
		le.code = DRM_VRAMPOOL_ERR_ZERO_SIZE;
		vrampool_error_from_ioctl(&got, INT_MIN, &le);
		EXPECT_EQ(VRAMPOOL_ERR_OS, (int)got.kind);
		EXPECT_EQ(INT_MIN, got.os_errno);
		vrampool_error_from_ioctl(&got, INT_MAX, &le);
		EXPECT_EQ(VRAMPOOL_ERR_OS, (int)got.kind);
		le.code = DRM_VRAMPOOL_ERR_POOLS_IN_USE;

		/* The same structured error with the wrong errno: Os, nothing else. */
		vrampool_error_from_ioctl(&got, EINVAL, &le);
		EXPECT_EQ(VRAMPOOL_ERR_OS, (int)got.kind);
		EXPECT_EQ(EINVAL, got.os_errno);
		EXPECT_EQ(0ULL, got.bytes_in_use);
		EXPECT_EQ(NO_ENTRY, got.entry);
	}
}

/* validate() found the error itself: os_errno 0; a refused list has no pools. */
/* ---- The client limit (ALLOC) --------------------------------------------- */

TEST(client_limit)
{
	struct drm_vrampool_alloc_error ae = {
		.code = DRM_VRAMPOOL_ERR_CLIENT_LIMIT, .pool = DRM_VRAMPOOL_LIMIT_ALLOCATIONS,
		.size = 4096, .capacity = 1048576, .in_use = 1048576,
	};
	struct vrampool_error e;

	EXPECT_STREQ("ClientLimit", vrampool_error_kind_name(VRAMPOOL_ERR_CLIENT_LIMIT));
	EXPECT_EQ(16, DRM_VRAMPOOL_ERR_CLIENT_LIMIT);
	EXPECT_STREQ("max_allocations", vrampool_limit_name(DRM_VRAMPOOL_LIMIT_ALLOCATIONS));
	EXPECT_STREQ("max_pages", vrampool_limit_name(DRM_VRAMPOOL_LIMIT_PAGES));
	EXPECT_NULL(vrampool_limit_name(0));
	EXPECT_NULL(vrampool_limit_name(3));

	/* EDQUOT with the code: the variant, its payload in the library's names. */
	memset(&e, 0xa5, sizeof(e));
	vrampool_error_from_alloc(&e, EDQUOT, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_CLIENT_LIMIT, (int)e.kind);
	EXPECT_EQ(EDQUOT, e.os_errno);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_LIMIT_ALLOCATIONS, e.limit);
	EXPECT_EQ(4096u, e.size);
	EXPECT_EQ(1048576u, e.capacity);
	EXPECT_EQ(1048576u, e.in_use);
	EXPECT_EQ(0u, e.pool);
	EXPECT_STREQ("client limit reached allocating 4096 bytes: the user's files hold 1048576 live allocations, the most a user may (module parameter vrampool.max_allocations = 1048576)",
		     message_of(e));

	ae.pool = DRM_VRAMPOOL_LIMIT_PAGES;
	ae.size = 0;
	ae.capacity = UINT32_MAX;
	ae.in_use = UINT32_MAX;
	vrampool_error_from_alloc(&e, EDQUOT, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_CLIENT_LIMIT, (int)e.kind);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_LIMIT_PAGES, e.limit);
	EXPECT_STREQ("client limit reached allocating 0 bytes: the user's files hold 4294967295 pool pages, the most a user may (module parameter vrampool.max_pages = 4294967295)",
		     message_of(e));

	/* A limit this library does not know still says what it can. */
	ae.pool = 7;
	ae.size = U64MAX;
	ae.capacity = 2;
	ae.in_use = 3;
	vrampool_error_from_alloc(&e, EDQUOT, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_CLIENT_LIMIT, (int)e.kind);
	EXPECT_STREQ("client limit 7 reached (3 of 2) allocating 18446744073709551615 bytes",
		     message_of(e));

	/* The code with another errno, or EDQUOT without it: Os. */
	vrampool_error_from_alloc(&e, ENOSPC, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_OS, (int)e.kind);
	EXPECT_EQ(ENOSPC, e.os_errno);
	EXPECT_EQ(0u, e.limit);
	ae.code = DRM_VRAMPOOL_ERR_OUT_OF_MEMORY;
	vrampool_error_from_alloc(&e, EDQUOT, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_OS, (int)e.kind);
	vrampool_error_from_alloc(&e, EDQUOT, NULL);
	EXPECT_EQ((int)VRAMPOOL_ERR_OS, (int)e.kind);
	EXPECT_EQ(EDQUOT, e.os_errno);
}

/* ---- The VRAM quota (ALLOC) ----------------------------------------------- */

TEST(quota_exceeded)
{
	struct drm_vrampool_alloc_error ae = {
		.code = DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED,
		.size = 32 * MIB, .capacity = 32 * MIB, .in_use = 16 * MIB,
	};
	struct vrampool_error e;

	EXPECT_STREQ("QuotaExceeded", vrampool_error_kind_name(VRAMPOOL_ERR_QUOTA_EXCEEDED));
	EXPECT_EQ(17, DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED);
	EXPECT_EQ(DRM_VRAMPOOL_ERR_CLIENT_LIMIT + 1, DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED);

	/* EDQUOT with the code: the variant, the quota, what is held, the size. */
	memset(&e, 0xa5, sizeof(e));
	vrampool_error_from_alloc(&e, EDQUOT, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_QUOTA_EXCEEDED, (int)e.kind);
	EXPECT_EQ(EDQUOT, e.os_errno);
	EXPECT_EQ(32 * MIB, e.size);
	EXPECT_EQ(32 * MIB, e.capacity);
	EXPECT_EQ(16 * MIB, e.in_use);
	EXPECT_EQ(0u, e.limit);
	EXPECT_EQ(0u, e.pool);
	EXPECT_STREQ("VRAM quota exceeded allocating 33554432 bytes: the user's files hold 16777216 bytes of VRAM and a new page would pass the device's vram_quota of 33554432 bytes",
		     message_of(e));

	/* The code with another errno: Os, nothing else. */
	vrampool_error_from_alloc(&e, ENOSPC, &ae);
	EXPECT_EQ((int)VRAMPOOL_ERR_OS, (int)e.kind);
	EXPECT_EQ(0u, e.capacity);
	EXPECT_EQ(0u, e.in_use);
}

TEST(validate_reports_os_errno_zero)
{
	struct vrampool_props p = props(256, 128 * MIB, false);
	struct drm_vrampool_pool_entry e = sliced(0), out[MAX_POOLS];
	struct vrampool_error err;
	uint32_t n = 5;

	EXPECT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, &err));
	EXPECT_EQ(0, err.os_errno);
	EXPECT_EQ(0U, n);
	/* A NULL error is allowed. */
	EXPECT_EQ(-EINVAL, vrampool_layout_validate(&p, 0, &e, 1, out, &n, NULL));
	EXPECT_EQ(-EINVAL, vrampool_layout_validate(&p, 7, NULL, 0, out, &n, NULL));
}

/* ---- Batches ---------------------------------------------------------------- */

/* A handle named twice in a FREE_BATCH: its own kind, after every other. */
TEST(duplicate_handle)
{
	struct vrampool_error e = {
		.kind = VRAMPOOL_ERR_DUPLICATE_HANDLE, .os_errno = EINVAL,
		.handle = 7, .entry = 3,
	};

	EXPECT_STREQ("DuplicateHandle", vrampool_error_kind_name(VRAMPOOL_ERR_DUPLICATE_HANDLE));
	EXPECT_EQ((int)VRAMPOOL_ERR_QUOTA_EXCEEDED + 1, (int)VRAMPOOL_ERR_DUPLICATE_HANDLE);
	EXPECT_EQ(18, DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE);
	EXPECT_STREQ("handle 7 is named twice in the batch (entry 3)", message_of(e));
	/* The code is no ALLOC error: through ALLOC's conversion it is Os. */
	vrampool_error_from_alloc(&e, EINVAL,
				  &(struct drm_vrampool_alloc_error){
					  .code = DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE });
	EXPECT_EQ((int)VRAMPOOL_ERR_OS, (int)e.kind);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The layout rules of the uapi's "pool layouts" section on every vrampool
 * device (one variant per backend, one client per device), in its order,
 * each with otherwise valid input: zero sizes, a slice larger than its
 * page, a cap smaller than a page, too many pages, size overflow, and the
 * first failing entry reported; each refused with the exact errno and
 * structured error, the message libvrampool makes of it, and the old
 * layout and generation intact.
 *
 * The fixture and the helpers: vrampool_layout_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_layout_fixture.h"

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

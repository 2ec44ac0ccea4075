// SPDX-License-Identifier: GPL-2.0-only
/*
 * Malformed POOL_INSTALL requests on every vrampool device (one variant per
 * backend, one client per device): empty lists, counts, bad entry
 * pointers, entry sizes, pads, reserved words, flags and presets, and the
 * order the request's checks run in. Each is refused with the exact errno
 * and structured error, libvrampool's message of it, and the old layout
 * and generation intact (POOL_QUERY byte for byte), with and without
 * TEST_ONLY.
 *
 * The fixture and the helpers: vrampool_layout_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_layout_fixture.h"

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

TEST_HARNESS_MAIN

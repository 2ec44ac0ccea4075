// SPDX-License-Identifier: GPL-2.0-only
/*
 * Malformed pool entries in POOL_INSTALL on every vrampool device (one
 * variant per backend, one client per device): unknown and persistent
 * types, flags not of the entry's type, unused fields and reserved words
 * not zero, and the order an entry's checks run in; each refused as the
 * malformed requests are (the exact errno and structured error, the
 * message, the old layout intact).
 *
 * The fixture and the helpers: vrampool_layout_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_layout_fixture.h"

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

TEST_HARNESS_MAIN

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the host tests of the shared layout resolver (resolver_test.c) and
 * of libvrampool's error API (lib_error_test.c) both build and check:
 * device properties and pool entries, resolved entries spelled out field by
 * field, and the library's error variant for a structured error, written
 * here independently of the code under test (libvrampool's error.c and
 * layout.c, and the shared resolver vrampool_layout.c).
 *
 * Include after host_harness.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef LAYOUT_HELPERS_H
#define LAYOUT_HELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vrampool.h"
#include "vrampool_layout.h"

#define KIB	(1ULL << 10)
#define MIB	(1ULL << 20)
#define GIB	(1ULL << 30)
#define U64MAX	UINT64_MAX

#define SLICED_T	DRM_VRAMPOOL_POOL_SLICED
#define EXCL_T		DRM_VRAMPOOL_POOL_EXCLUSIVE
#define DIRECT_T	DRM_VRAMPOOL_POOL_DIRECT

#define F_SLICE		DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE
#define F_CAP		DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE
#define F_DEALLOC	DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD
#define F_RECLAIM	DRM_VRAMPOOL_ENTRY_RECLAIM_AT

#define NO_ENTRY	DRM_VRAMPOOL_NO_ENTRY
#define MAX_POOLS	VRAMPOOL_LAYOUT_MAX_POOLS

/* ---- Building inputs ---------------------------------------------------- */

static inline struct vrampool_props props(uint64_t alignment, uint64_t max_page_size, bool excl)
{
	struct vrampool_props p = {
		.alignment = alignment,
		.max_page_size = max_page_size,
		.exclusive_memory_only = excl,
	};

	return p;
}

static inline struct vrampool_layout_props raw_props(const struct vrampool_props *p)
{
	struct vrampool_layout_props lp = {
		.alignment = p->alignment,
		.max_page_size = p->max_page_size,
		.exclusive_memory_only = p->exclusive_memory_only,
	};

	return lp;
}

static inline struct drm_vrampool_pool_entry excl(uint64_t max_alloc_size)
{
	struct drm_vrampool_pool_entry e;

	vrampool_entry_exclusive(&e, max_alloc_size);
	return e;
}

static inline struct drm_vrampool_pool_entry sliced(uint64_t page_size)
{
	struct drm_vrampool_pool_entry e;

	vrampool_entry_sliced(&e, page_size);
	return e;
}

static inline struct drm_vrampool_pool_entry direct(void)
{
	struct drm_vrampool_pool_entry e;

	vrampool_entry_direct(&e);
	return e;
}

static inline struct drm_vrampool_pool_entry with_slice(struct drm_vrampool_pool_entry e, uint64_t v)
{
	vrampool_entry_set_max_slice_size(&e, v);
	return e;
}

static inline struct drm_vrampool_pool_entry with_cap(struct drm_vrampool_pool_entry e, uint64_t v)
{
	vrampool_entry_set_max_pool_size(&e, v);
	return e;
}

static inline struct drm_vrampool_pool_entry with_dealloc(struct drm_vrampool_pool_entry e, uint64_t v)
{
	vrampool_entry_set_dealloc_period(&e, v);
	return e;
}

static inline struct drm_vrampool_pool_entry with_reclaim(struct drm_vrampool_pool_entry e, uint64_t v)
{
	vrampool_entry_set_reclaim_at(&e, v);
	return e;
}

/* A resolved entry, every field spelled out (the struct has no padding). */
static inline struct drm_vrampool_pool_entry pool(uint32_t type, uint32_t flags, uint64_t page,
					   uint64_t slice, uint64_t cap, uint64_t max_alloc,
					   uint64_t dealloc, uint64_t reclaim)
{
	struct drm_vrampool_pool_entry e = {
		.type = type, .flags = flags, .page_size = page, .max_slice_size = slice,
		.max_pool_size = cap, .max_alloc_size = max_alloc, .dealloc_period = dealloc,
		.reclaim_at = reclaim,
	};

	return e;
}

#define R_SLICED(page, slice)	pool(SLICED_T, F_SLICE, page, slice, 0, 0, 0, 0)
#define R_EXCL(max)		pool(EXCL_T, 0, 0, 0, 0, max, 0, 0)
#define R_EXCL_D(max, period)	pool(EXCL_T, F_DEALLOC, 0, 0, 0, max, period, 0)

/*
 * Align-up, wrapping; *overflow when the result passes 2^64 - 1. No 128-bit
 * type: the tests are also built for i386 (-m32).
 */
static inline uint64_t wide_align_up(uint64_t x, uint64_t a, bool *overflow)
{
	uint64_t r;

	if (!a)
		a = 1;
	*overflow = __builtin_add_overflow(x, (a - x % a) % a, &r);
	return r;
}

/* ---- Checking results --------------------------------------------------- */

/* The expected outcome of a refused layout, as the uapi documents it. */
struct want_err {
	int ret;		/* negative errno */
	uint32_t code;		/* DRM_VRAMPOOL_ERR_* */
	uint32_t entry;
	uint32_t field;
	uint64_t v0, v1;	/* drm_vrampool_layout_error.value[] */
	const char *msg;	/* the message, byte for byte; NULL: not checked */
};

/*
 * The library variant for a structured error, from vrampool.h's description
 * of struct vrampool_error and the uapi's payload of each code; written here
 * independently of error.c.
 */
static inline void variant_of(const struct want_err *w, int os_errno, struct vrampool_error *e)
{
	memset(e, 0, sizeof(*e));
	e->os_errno = os_errno;
	e->entry = w->entry;
	e->field = w->field;
	switch (w->code) {
	case DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST:
		e->kind = VRAMPOOL_ERR_EMPTY_POOL_LIST;
		break;
	case DRM_VRAMPOOL_ERR_ZERO_SIZE:
		e->kind = VRAMPOOL_ERR_ZERO_SIZE;
		break;
	case DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE:
		e->kind = VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE;
		e->page_size = w->v0;
		e->max_slice_size = w->v1;
		break;
	case DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE:
		e->kind = VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE;
		e->page_size = w->v0;
		e->max_pool_size = w->v1;
		break;
	case DRM_VRAMPOOL_ERR_TOO_MANY_PAGES:
		e->kind = VRAMPOOL_ERR_TOO_MANY_PAGES;
		e->pages = w->v0;
		break;
	case DRM_VRAMPOOL_ERR_TOO_MANY_POOLS:
		e->kind = VRAMPOOL_ERR_TOO_MANY_POOLS;
		e->count = w->v0;
		break;
	case DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE:
		e->kind = VRAMPOOL_ERR_PRESET_UNAVAILABLE;
		e->preset = (uint32_t)w->v0;
		break;
	case DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE:
		e->kind = VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE;
		break;
	case DRM_VRAMPOOL_ERR_SIZE_OVERFLOW:
		e->kind = VRAMPOOL_ERR_SIZE_OVERFLOW;
		e->size = w->v0;
		e->alignment = w->v1;
		break;
	case DRM_VRAMPOOL_ERR_POOLS_IN_USE:
		e->kind = VRAMPOOL_ERR_POOLS_IN_USE;
		e->bytes_in_use = w->v0;
		break;
	case DRM_VRAMPOOL_ERR_INVALID_ARGUMENT:
		e->kind = VRAMPOOL_ERR_INVALID_ARGUMENT;
		e->value = w->v0;
		break;
	default:
		/* Anything else is an OS error with no documented variant. */
		e->kind = VRAMPOOL_ERR_OS;
		e->entry = NO_ENTRY;
		e->field = 0;
		break;
	}
}

#define SAME(f) \
	EXPECT_EQ((uint64_t)want->f, (uint64_t)got->f) \
		TH_LOG("line %d: vrampool_error." #f " (kind %s)", line, \
		       vrampool_error_kind_name(got->kind))

static inline void check_variant(struct __test_metadata *_metadata, int line,
			  const struct vrampool_error *want, const struct vrampool_error *got)
{
	SAME(kind);
	SAME(os_errno);
	SAME(entry);
	SAME(field);
	SAME(page_size);
	SAME(max_slice_size);
	SAME(max_pool_size);
	SAME(pages);
	SAME(count);
	SAME(preset);
	SAME(size);
	SAME(alignment);
	SAME(bytes_in_use);
	SAME(value);
	SAME(capacity);
	SAME(in_use);
	SAME(pool);
	SAME(handle);
}

static inline const char *message(const struct vrampool_error *e)
{
	static char buf[512];
	int len = vrampool_error_message(e, buf, sizeof(buf));

	if (len < 0 || (size_t)len != strlen(buf))
		return "(vrampool_error_message returned a wrong length)";
	return buf;
}


#endif /* LAYOUT_HELPERS_H */

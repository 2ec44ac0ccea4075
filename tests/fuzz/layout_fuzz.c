// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the shared layout code (vrampool_layout.c, which the
 * module and libvrampool both build) and libvrampool's layout and error
 * functions, built with ASan and UBSan.
 *
 * Each input (see layout_fuzz_format.h) is a device (alignment,
 * max_page_size, exclusive-memory-only) and a preset or an explicit entry
 * list. It is resolved through vrampool_layout_validate() and the raw
 * vrampool_layout_resolve() / vrampool_layout_preset(), and then:
 *
 * - an explicit list is also resolved by a model of the rules written here
 *   from the uapi's "pool layouts" section (CubeCL's memory-configuration
 *   rules, see Documentation/vrampool.rst); the outcome (errno, code,
 *   entry, field, payload, resolved pools) must be the same;
 * - an accepted layout must satisfy the rules, re-checked one by one (count,
 *   alignment, slice within the page, cap within 1..65535 pages, flags of
 *   the type), and resolving it again must change nothing;
 * - a refused one must carry a documented kind whose errno is the one
 *   returned, and a message that fits any buffer;
 * - a preset is checked against its definition (Documentation/vrampool.rst,
 *   "Presets"): the sub-slices ladder against a model, the exclusive-pages
 *   buckets for their ends, order, alignment and dealloc periods;
 * - the input's tail goes through vrampool_error_from_ioctl().
 *
 * Any violation aborts, and libFuzzer keeps the input.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampool.h"
#include "vrampool_layout.h"
#include "layout_fuzz_format.h"

#define U64MAX		UINT64_MAX
#define MAX_POOLS	DRM_VRAMPOOL_MAX_DYNAMIC_POOLS

#define F_SLICE		DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE
#define F_CAP		DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE
#define F_DEALLOC	DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD
#define F_RECLAIM	DRM_VRAMPOOL_ENTRY_RECLAIM_AT

typedef unsigned __int128 u128_t;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- Reading the input ----------------------------------------------------- */

struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t take8(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint32_t take32(struct input *in)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)take8(in) << (8 * i);
	return v;
}

static uint64_t take64(struct input *in)
{
	uint64_t lo = take32(in);

	return lo | (uint64_t)take32(in) << 32;
}

static uint64_t take_size(struct input *in)
{
	uint8_t sel = take8(in), b, s;
	int8_t d;

	switch (sel & 7) {
	case LF_SIZE_BYTE:
		return take8(in);
	case LF_SIZE_POW2:
		b = take8(in);
		d = (int8_t)take8(in);
		return ((uint64_t)1 << (b & 63)) + (uint64_t)(int64_t)d;
	case LF_SIZE_NEAR_MAX:
		return U64MAX - take8(in);
	case LF_SIZE_RAW:
		return take64(in);
	case LF_SIZE_DICT:
		return lf_dict[take8(in) % LF_DICT_SIZE];
	case LF_SIZE_SCALED: {
		uint64_t v = take8(in);

		v |= (uint64_t)take8(in) << 8;
		return v << (take8(in) & 63);
	}
	case LF_SIZE_MULTIPLE:
		b = take8(in);
		s = take8(in);
		d = (int8_t)take8(in);
		return ((uint64_t)b + 1) * ((uint64_t)1 << (s & 63)) - (uint64_t)(int64_t)d;
	default:
		return 0;
	}
}

/* The optional-field flags each installable type has. */
static uint32_t flags_of(uint32_t type)
{
	switch (type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return F_DEALLOC;
	case DRM_VRAMPOOL_POOL_SLICED:
		return F_SLICE | F_CAP | F_DEALLOC;
	case DRM_VRAMPOOL_POOL_DIRECT:
		return F_RECLAIM;
	default:
		return 0;
	}
}

static bool is_type(uint32_t type)
{
	return type == DRM_VRAMPOOL_POOL_EXCLUSIVE || type == DRM_VRAMPOOL_POOL_SLICED ||
	       type == DRM_VRAMPOOL_POOL_DIRECT;
}

static void take_entry(struct input *in, struct drm_vrampool_pool_entry *e)
{
	static const uint32_t types[] = {
		DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_POOL_SLICED, DRM_VRAMPOOL_POOL_DIRECT,
	};
	uint8_t kind = take8(in);

	memset(e, 0, sizeof(*e));
	if ((kind & LF_ENTRY_TYPE) == LF_ENTRY_TYPE_RAW)
		e->type = take32(in);
	else
		e->type = types[kind & LF_ENTRY_TYPE];
	if (kind & LF_ENTRY_FLAGS_RAW)
		e->flags = take32(in);
	else
		e->flags = take8(in) & 0x0f;
	if (!(kind & LF_ENTRY_FLAGS_ANY))
		e->flags &= flags_of(e->type);

	if (kind & LF_ENTRY_ALL_FIELDS) {
		e->page_size = take_size(in);
		e->max_slice_size = take_size(in);
		e->max_pool_size = take_size(in);
		e->max_alloc_size = take_size(in);
		e->dealloc_period = take_size(in);
		e->reclaim_at = take_size(in);
		e->reserved = take_size(in);
		return;
	}
	switch (e->type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		e->max_alloc_size = take_size(in);
		break;
	case DRM_VRAMPOOL_POOL_SLICED:
		e->page_size = take_size(in);
		if (e->flags & F_SLICE)
			e->max_slice_size = take_size(in);
		if (e->flags & F_CAP)
			e->max_pool_size = take_size(in);
		break;
	default:
		break;
	}
	if (e->flags & F_DEALLOC)
		e->dealloc_period = take_size(in);
	if (e->flags & F_RECLAIM)
		e->reclaim_at = take_size(in);
}

/* ---- Reporting --------------------------------------------------------------- */

static struct {
	struct vrampool_props props;
	uint32_t what;
	uint32_t count;
} cur;

static void report(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), noreturn));

static void report(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "layout_fuzz: %s:%d: check failed: %s\n  ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  device: alignment %ju, max_page_size %ju, exclusive memory only %d; %s %u\n",
		(uintmax_t)cur.props.alignment, (uintmax_t)cur.props.max_page_size,
		cur.props.exclusive_memory_only, cur.what ? "preset" : "entries",
		cur.what ? cur.what : cur.count);
	abort();
}

#define CHECK(cond, ...) do { \
	if (!(cond)) \
		report(__FILE__, __LINE__, #cond, __VA_ARGS__); \
} while (0)

/* ---- The rules, written again ------------------------------------------- */

static uint64_t alignment_of(const struct vrampool_props *p)
{
	return p->alignment ? p->alignment : 1;
}

static bool align_wide(uint64_t x, uint64_t a, uint64_t *out)
{
	u128_t r = ((u128_t)x + a - 1) / a * a;

	*out = (uint64_t)r;
	return r <= U64MAX;
}

/* The errno the uapi documents for each layout error code. */
static int errno_of(uint32_t code)
{
	switch (code) {
	case DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST:
	case DRM_VRAMPOOL_ERR_ZERO_SIZE:
	case DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE:
	case DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE:
	case DRM_VRAMPOOL_ERR_TOO_MANY_PAGES:
	case DRM_VRAMPOOL_ERR_INVALID_ARGUMENT:
		return -EINVAL;
	case DRM_VRAMPOOL_ERR_TOO_MANY_POOLS:
		return -E2BIG;
	case DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE:
	case DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE:
		return -EOPNOTSUPP;
	case DRM_VRAMPOOL_ERR_SIZE_OVERFLOW:
		return -EOVERFLOW;
	case DRM_VRAMPOOL_ERR_POOLS_IN_USE:
		return -EBUSY;
	default:
		return 0;
	}
}

/* The library variant of each code, by vrampool.h. */
static enum vrampool_error_kind kind_of(uint32_t code)
{
	switch (code) {
	case DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST: return VRAMPOOL_ERR_EMPTY_POOL_LIST;
	case DRM_VRAMPOOL_ERR_ZERO_SIZE: return VRAMPOOL_ERR_ZERO_SIZE;
	case DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE: return VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE;
	case DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE: return VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE;
	case DRM_VRAMPOOL_ERR_TOO_MANY_PAGES: return VRAMPOOL_ERR_TOO_MANY_PAGES;
	case DRM_VRAMPOOL_ERR_TOO_MANY_POOLS: return VRAMPOOL_ERR_TOO_MANY_POOLS;
	case DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE: return VRAMPOOL_ERR_PRESET_UNAVAILABLE;
	case DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE:
		return VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE;
	case DRM_VRAMPOOL_ERR_SIZE_OVERFLOW: return VRAMPOOL_ERR_SIZE_OVERFLOW;
	case DRM_VRAMPOOL_ERR_POOLS_IN_USE: return VRAMPOOL_ERR_POOLS_IN_USE;
	case DRM_VRAMPOOL_ERR_INVALID_ARGUMENT: return VRAMPOOL_ERR_INVALID_ARGUMENT;
	default: return VRAMPOOL_ERR_OS;
	}
}

struct outcome {
	int ret;
	uint32_t code, entry, field;
	uint64_t v0, v1;
	uint32_t fields;	/* InvalidArgument on an entry's fields: any of these bits */
};

static int refuse(struct outcome *o, uint32_t code, uint32_t entry, uint32_t field, uint64_t v0,
		  uint64_t v1)
{
	*o = (struct outcome){ errno_of(code), code, entry, field, v0, v1, 0 };
	return o->ret;
}

/* The optional or type-specific fields, in struct order, with their flags. */
static const struct {
	uint32_t field;
	uint32_t types;		/* bit (1 << type) */
	uint32_t flag;		/* 0: always there for those types */
	size_t offset;
} fields[] = {
	{ DRM_VRAMPOOL_FIELD_PAGE_SIZE, 1u << DRM_VRAMPOOL_POOL_SLICED, 0,
	  offsetof(struct drm_vrampool_pool_entry, page_size) },
	{ DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 1u << DRM_VRAMPOOL_POOL_SLICED, F_SLICE,
	  offsetof(struct drm_vrampool_pool_entry, max_slice_size) },
	{ DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 1u << DRM_VRAMPOOL_POOL_SLICED, F_CAP,
	  offsetof(struct drm_vrampool_pool_entry, max_pool_size) },
	{ DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, 1u << DRM_VRAMPOOL_POOL_EXCLUSIVE, 0,
	  offsetof(struct drm_vrampool_pool_entry, max_alloc_size) },
	{ DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD,
	  1u << DRM_VRAMPOOL_POOL_SLICED | 1u << DRM_VRAMPOOL_POOL_EXCLUSIVE, F_DEALLOC,
	  offsetof(struct drm_vrampool_pool_entry, dealloc_period) },
	{ DRM_VRAMPOOL_FIELD_RECLAIM_AT, 1u << DRM_VRAMPOOL_POOL_DIRECT, F_RECLAIM,
	  offsetof(struct drm_vrampool_pool_entry, reclaim_at) },
	{ DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, 0, 0,
	  offsetof(struct drm_vrampool_pool_entry, reserved) },
};

#define NUM_FIELDS (sizeof(fields) / sizeof(fields[0]))

static uint64_t field_at(const struct drm_vrampool_pool_entry *e, size_t offset)
{
	uint64_t v;

	memcpy(&v, (const char *)e + offset, sizeof(v));
	return v;
}

/* Step 3 of the uapi: the entry's form. */
static int model_form(const struct drm_vrampool_pool_entry *e, uint32_t i, struct outcome *o)
{
	uint32_t bad = 0;
	size_t k;

	if (!is_type(e->type))
		return refuse(o, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i, DRM_VRAMPOOL_FIELD_TYPE,
			      e->type, 0);
	if (e->flags & ~flags_of(e->type))
		return refuse(o, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i,
			      DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, e->flags, 0);
	/* The uapi names no order among unused fields and reserved: any of them. */
	for (k = 0; k < NUM_FIELDS; k++) {
		bool has = (fields[k].types & 1u << e->type) &&
			   (!fields[k].flag || (e->flags & fields[k].flag));

		if (!has && field_at(e, fields[k].offset))
			bad |= 1u << fields[k].field;
	}
	if (bad) {
		refuse(o, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i, 0, 0, 0);
		o->fields = bad;
		return o->ret;
	}
	return 0;
}

/* Step 4: one entry's sizes. */
static int model_sizes(const struct vrampool_props *p, const struct drm_vrampool_pool_entry *e,
		       uint32_t i, struct drm_vrampool_pool_entry *out, struct outcome *o)
{
	uint64_t a = alignment_of(p), page, slice, cap, max;

	*out = *e;
	switch (e->type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		if (!align_wide(e->max_alloc_size, a, &max))
			return refuse(o, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, i,
				      DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, e->max_alloc_size, a);
		out->max_alloc_size = max;
		return 0;
	case DRM_VRAMPOOL_POOL_DIRECT:
		return 0;
	}

	if (p->exclusive_memory_only)
		return refuse(o, DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, i,
			      DRM_VRAMPOOL_FIELD_TYPE, 0, 0);
	if (!e->page_size)
		return refuse(o, DRM_VRAMPOOL_ERR_ZERO_SIZE, i, DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0);
	if (!align_wide(e->page_size, a, &page))
		return refuse(o, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, i, DRM_VRAMPOOL_FIELD_PAGE_SIZE,
			      e->page_size, a);
	slice = page;
	if (e->flags & F_SLICE) {
		if (!e->max_slice_size)
			return refuse(o, DRM_VRAMPOOL_ERR_ZERO_SIZE, i,
				      DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0);
		if (!align_wide(e->max_slice_size, a, &slice))
			return refuse(o, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, i,
				      DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, e->max_slice_size, a);
	}
	if (slice > page)
		return refuse(o, DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, i,
			      DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, page, slice);
	if (e->flags & F_CAP) {
		cap = e->max_pool_size;
		if (!cap)
			return refuse(o, DRM_VRAMPOOL_ERR_ZERO_SIZE, i,
				      DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 0, 0);
		if (cap < page)
			return refuse(o, DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, i,
				      DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, page, cap);
		if (cap / page > 65535)
			return refuse(o, DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, i,
				      DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, cap / page, 0);
	}
	out->flags |= F_SLICE;
	out->page_size = page;
	out->max_slice_size = slice;
	return 0;
}

static int model_list(const struct vrampool_props *p, const struct drm_vrampool_pool_entry *e,
		      uint32_t count, struct drm_vrampool_pool_entry *out, struct outcome *o)
{
	uint32_t i;

	*o = (struct outcome){ 0 };
	if (!count)
		return refuse(o, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, DRM_VRAMPOOL_NO_ENTRY,
			      DRM_VRAMPOOL_FIELD_COUNT, 0, 0);
	if (count > MAX_POOLS)
		return refuse(o, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, DRM_VRAMPOOL_NO_ENTRY,
			      DRM_VRAMPOOL_FIELD_COUNT, count, 0);
	for (i = 0; i < count; i++)
		if (model_form(&e[i], i, o))
			return o->ret;
	for (i = 0; i < count; i++)
		if (model_sizes(p, &e[i], i, &out[i], o))
			return o->ret;
	return 0;
}

/* ---- Checks ------------------------------------------------------------------ */

static void check_message(const struct vrampool_error *err, uint8_t len)
{
	char *buf = malloc(len ? len : 1);
	char full[512];
	int n, m;

	CHECK(buf, "out of memory");
	n = vrampool_error_message(err, full, sizeof(full));
	CHECK(n > 0 && (size_t)n < sizeof(full) && (size_t)n == strlen(full),
	      "message length %d for kind %d", n, err->kind);
	m = vrampool_error_message(err, len ? buf : NULL, len);
	CHECK(m == n, "message length %d, then %d with a %u-byte buffer", n, m, len);
	if (len)
		CHECK(strncmp(buf, full, len - 1) == 0 && strlen(buf) == (size_t)(n < len ? n : len - 1),
		      "truncated message \"%s\" of \"%s\"", buf, full);
	free(buf);
}

/* A refusal: a documented kind, its errno, the raw error's pad zero. */
static void check_refused(int ret, const struct drm_vrampool_layout_error *le,
			  const struct vrampool_error *err, uint8_t msg_len)
{
	CHECK(le->code != DRM_VRAMPOOL_ERR_NONE && errno_of(le->code) == ret,
	      "errno %d with code %u", ret, le->code);
	CHECK(le->pad == 0, "pad %u", le->pad);
	CHECK(err->kind == kind_of(le->code) && err->kind != VRAMPOOL_ERR_OS,
	      "kind %d for code %u", err->kind, le->code);
	CHECK(err->os_errno == 0, "os_errno %d from validate()", err->os_errno);
	CHECK(err->entry == le->entry && err->field == le->field, "entry/field");
	check_message(err, msg_len);
}

/* An accepted explicit list, rule by rule. */
static void check_accepted_list(const struct vrampool_props *p,
				const struct drm_vrampool_pool_entry *in,
				const struct drm_vrampool_pool_entry *out, uint32_t count)
{
	uint64_t a = alignment_of(p);
	uint32_t i;

	CHECK(count >= 1 && count <= MAX_POOLS, "accepted %u pools", count);
	for (i = 0; i < count; i++) {
		const struct drm_vrampool_pool_entry *e = &out[i];
		uint64_t up;

		CHECK(e->type == in[i].type && is_type(e->type), "pool %u: type %u", i, e->type);
		CHECK(!(e->flags & ~flags_of(e->type)), "pool %u: flags %#x", i, e->flags);
		CHECK(!e->reserved, "pool %u: reserved", i);
		CHECK(e->dealloc_period == in[i].dealloc_period && e->reclaim_at == in[i].reclaim_at,
		      "pool %u: dealloc_period or reclaim_at changed", i);
		switch (e->type) {
		case DRM_VRAMPOOL_POOL_SLICED:
			CHECK(!p->exclusive_memory_only, "pool %u: sliced pool accepted", i);
			CHECK(e->page_size && e->page_size % a == 0, "pool %u: page %ju", i,
			      (uintmax_t)e->page_size);
			CHECK(align_wide(in[i].page_size, a, &up) && up == e->page_size,
			      "pool %u: page %ju from %ju", i, (uintmax_t)e->page_size,
			      (uintmax_t)in[i].page_size);
			CHECK(e->flags & F_SLICE, "pool %u: resolved without max_slice_size", i);
			CHECK(e->max_slice_size && e->max_slice_size % a == 0 &&
			      e->max_slice_size <= e->page_size, "pool %u: slice %ju page %ju", i,
			      (uintmax_t)e->max_slice_size, (uintmax_t)e->page_size);
			if (in[i].flags & F_SLICE)
				CHECK(align_wide(in[i].max_slice_size, a, &up) &&
				      up == e->max_slice_size, "pool %u: slice", i);
			else
				CHECK(e->max_slice_size == e->page_size, "pool %u: default slice", i);
			CHECK((e->flags & F_CAP) == (in[i].flags & F_CAP) &&
			      e->max_pool_size == in[i].max_pool_size, "pool %u: cap changed", i);
			if (e->flags & F_CAP)
				CHECK(e->max_pool_size >= e->page_size &&
				      e->max_pool_size / e->page_size <= 65535,
				      "pool %u: cap %ju page %ju", i, (uintmax_t)e->max_pool_size,
				      (uintmax_t)e->page_size);
			else
				CHECK(!e->max_pool_size, "pool %u: cap without its flag", i);
			CHECK(!e->max_alloc_size, "pool %u: max_alloc_size", i);
			break;
		case DRM_VRAMPOOL_POOL_EXCLUSIVE:
			CHECK(e->max_alloc_size % a == 0 &&
			      align_wide(in[i].max_alloc_size, a, &up) && up == e->max_alloc_size,
			      "pool %u: max_alloc_size %ju from %ju", i, (uintmax_t)e->max_alloc_size,
			      (uintmax_t)in[i].max_alloc_size);
			CHECK(e->flags == in[i].flags, "pool %u: flags changed", i);
			CHECK(!e->page_size && !e->max_slice_size && !e->max_pool_size,
			      "pool %u: sliced fields", i);
			break;
		default:
			CHECK(!memcmp(e, &in[i], sizeof(*e)), "pool %u: direct pool changed", i);
			break;
		}
	}
}

/* Resolving a resolved list again changes nothing. */
static void check_idempotent(const struct vrampool_props *p,
			     const struct drm_vrampool_pool_entry *once, uint32_t count,
			     const struct drm_vrampool_pool_entry *want)
{
	static struct drm_vrampool_pool_entry twice[MAX_POOLS];
	struct vrampool_error err;
	uint32_t n = 0;
	int ret;

	ret = vrampool_layout_validate(p, DRM_VRAMPOOL_PRESET_NONE, once, count, twice, &n, &err);
	CHECK(ret == 0 && n == count, "resolving the resolved layout: %d", ret);
	CHECK(!memcmp(twice, want, count * sizeof(*twice)), "resolving again changed the layout");
}

static void fuzz_list(const struct vrampool_props *p, struct input *in, bool null_entries,
		      uint8_t msg_len_hint)
{
	static struct drm_vrampool_pool_entry out[MAX_POOLS], raw_out[MAX_POOLS],
		model_out[MAX_POOLS];
	struct vrampool_layout_props lp = {
		p->alignment, p->max_page_size, p->exclusive_memory_only,
	};
	struct drm_vrampool_pool_entry *entries = NULL;
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	struct outcome want;
	uint32_t count, built, i, n = 12345;
	int ret, raw_ret;

	count = take8(in);
	if (count == LF_COUNT_RAW)
		count = take32(in);
	cur.count = count;
	/* Past 254 the entries must not be read: give a short array (or none). */
	built = count <= MAX_POOLS ? count : (null_entries ? 0 : 3);
	if (count && !(null_entries && count > MAX_POOLS)) {
		entries = malloc(built ? built * sizeof(*entries) : 1);
		CHECK(entries, "out of memory");
		for (i = 0; i < built; i++)
			take_entry(in, &entries[i]);
	}

	model_list(p, entries, count, model_out, &want);

	memset(&le, 0xa5, sizeof(le));
	raw_ret = vrampool_layout_resolve(&lp, entries, count,
					  count && count <= MAX_POOLS ? raw_out : NULL, &le);
	memset(&err, 0xa5, sizeof(err));
	ret = vrampool_layout_validate(p, DRM_VRAMPOOL_PRESET_NONE, entries, count, out, &n, &err);

	CHECK(ret == raw_ret, "validate() %d, resolve() %d", ret, raw_ret);
	CHECK(ret == want.ret, "errno %d, the rules say %d (code %u entry %u field %u)", ret,
	      want.ret, want.code, want.entry, want.field);
	if (ret) {
		CHECK(n == 0, "out_count %u of a refused list", n);
		CHECK(le.code == want.code && le.entry == want.entry,
		      "code %u entry %u, the rules say code %u entry %u", le.code, le.entry,
		      want.code, want.entry);
		if (want.fields) {
			size_t k;

			CHECK(le.field < 32 && (want.fields & 1u << le.field),
			      "field %u, the rules say one of %#x", le.field, want.fields);
			for (k = 0; k < NUM_FIELDS; k++)
				if (fields[k].field == le.field)
					CHECK(le.value[0] == field_at(&entries[le.entry],
								      fields[k].offset),
					      "value %ju of field %u", (uintmax_t)le.value[0],
					      le.field);
			CHECK(le.value[1] == 0, "value[1]");
		} else {
			CHECK(le.field == want.field && le.value[0] == want.v0 &&
			      le.value[1] == want.v1,
			      "field %u [%ju, %ju], the rules say field %u [%ju, %ju]", le.field,
			      (uintmax_t)le.value[0], (uintmax_t)le.value[1], want.field,
			      (uintmax_t)want.v0, (uintmax_t)want.v1);
		}
		check_refused(ret, &le, &err, msg_len_hint);
	} else {
		struct drm_vrampool_layout_error zero = { 0 };

		CHECK(n == count, "out_count %u of %u", n, count);
		CHECK(!memcmp(&le, &zero, sizeof(le)), "error not cleared on success");
		CHECK(!memcmp(out, raw_out, count * sizeof(*out)), "validate() and resolve() differ");
		CHECK(!memcmp(out, model_out, count * sizeof(*out)),
		      "the resolved layout differs from the rules'");
		check_accepted_list(p, entries, out, count);
		check_idempotent(p, out, count, out);
	}
	free(entries);
}

/* The sub-slices ladder of Documentation/vrampool.rst, stopping when it stops shrinking. */
static uint32_t model_sub_slices(const struct vrampool_props *p,
				 struct drm_vrampool_pool_entry *out)
{
	uint64_t a = alignment_of(p), m = p->max_page_size, pages[64], cur = m, next, top;
	uint32_t n = 0, k;

	while (cur >= 32 * LF_MIB && align_wide(cur / 4, a, &next) && next < cur)
		pages[n++] = cur = next;
	memset(out, 0, (n + 2) * sizeof(*out));
	out[0].type = DRM_VRAMPOOL_POOL_EXCLUSIVE;
	for (k = 0; k < n; k++) {
		out[1 + k].type = DRM_VRAMPOOL_POOL_SLICED;
		out[1 + k].flags = F_SLICE;
		out[1 + k].page_size = pages[n - 1 - k];
		out[1 + k].max_slice_size = pages[n - 1 - k] >> (n - k);
	}
	top = m / a * a;
	out[1 + n].type = DRM_VRAMPOOL_POOL_EXCLUSIVE;
	out[1 + n].flags = F_DEALLOC;
	out[1 + n].max_alloc_size = top;
	out[1 + n].dealloc_period = 5000 * (uint64_t)(1 + (((u128_t)top + (1u << 29)) >> 30));
	return n + 2;
}

static uint64_t dealloc_period(uint64_t size)
{
	return 5000 * (uint64_t)(1 + (((u128_t)size + (1u << 29)) >> 30));
}

static void check_preset(const struct vrampool_props *p, uint32_t preset, uint8_t msg_len)
{
	static struct drm_vrampool_pool_entry out[MAX_POOLS], raw_out[VRAMPOOL_PRESET_MAX_POOLS],
		want[64], again[MAX_POOLS];
	struct vrampool_layout_props lp = {
		p->alignment, p->max_page_size, p->exclusive_memory_only,
	};
	uint64_t a = alignment_of(p), m = p->max_page_size;
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	uint32_t n = 0, raw_n = 0, i, wn;
	int ret, raw_ret;

	memset(&le, 0xa5, sizeof(le));
	raw_ret = vrampool_layout_preset(&lp, preset, raw_out, &raw_n, &le);
	memset(&err, 0xa5, sizeof(err));
	ret = vrampool_layout_validate(p, preset, NULL, 0, out, &n, &err);
	CHECK(ret == raw_ret, "validate() %d, preset() %d", ret, raw_ret);

	if (preset != DRM_VRAMPOOL_PRESET_SUB_SLICES &&
	    preset != DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES) {
		CHECK(ret == -EINVAL && le.code == DRM_VRAMPOOL_ERR_INVALID_ARGUMENT &&
		      le.entry == DRM_VRAMPOOL_NO_ENTRY && le.field == DRM_VRAMPOOL_FIELD_PRESET &&
		      le.value[0] == preset, "unknown preset %u: %d", preset, ret);
		check_refused(ret, &le, &err, msg_len);
		return;
	}
	if (preset == DRM_VRAMPOOL_PRESET_SUB_SLICES && p->exclusive_memory_only) {
		CHECK(ret == -EOPNOTSUPP && le.code == DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE &&
		      le.field == DRM_VRAMPOOL_FIELD_PRESET && le.value[0] == preset,
		      "sub-slices on an exclusive-memory-only device: %d", ret);
		check_refused(ret, &le, &err, msg_len);
		return;
	}

	if (preset == DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES) {
		bool over = false;
		uint64_t up;

		for (i = 0; i < VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS; i++)
			over |= !align_wide(vrampool_layout_exclusive_bucket(m, i), a, &up);
		if (ret) {
			CHECK(over && ret == -EOVERFLOW &&
			      le.code == DRM_VRAMPOOL_ERR_SIZE_OVERFLOW && le.value[1] == a &&
			      !align_wide(le.value[0], a, &up), "exclusive-pages refused: %d", ret);
			check_refused(ret, &le, &err, msg_len);
			return;
		}
		CHECK(!over, "a bucket overflows, yet the preset was accepted");
	}
	CHECK(ret == 0, "preset %u refused: code %u", preset, le.code);
	CHECK(n == raw_n && !memcmp(out, raw_out, n * sizeof(*out)),
	      "validate() and preset() differ");
	CHECK(n >= 1 && n <= VRAMPOOL_PRESET_MAX_POOLS, "%u pools", n);

	if (preset == DRM_VRAMPOOL_PRESET_SUB_SLICES) {
		wn = model_sub_slices(p, want);
		CHECK(wn == n && !memcmp(want, out, n * sizeof(*out)),
		      "sub-slices: %u pools, the definition gives %u", n, wn);
		for (i = 1; i + 1 < n; i++)
			CHECK(out[i].page_size % a == 0 && out[i].max_slice_size &&
			      out[i].max_slice_size <= out[i].page_size &&
			      (i == 1 || out[i - 1].page_size < out[i].page_size) &&
			      out[i].page_size < m, "sub-slices pool %u", i);
	} else {
		uint64_t first, last;

		CHECK(n <= VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS, "%u buckets", n);
		align_wide(m ? 32768 : 0, a, &first);
		align_wide(m, a, &last);
		CHECK(out[0].max_alloc_size == first && out[n - 1].max_alloc_size == last,
		      "first bucket %ju, last %ju", (uintmax_t)out[0].max_alloc_size,
		      (uintmax_t)out[n - 1].max_alloc_size);
		for (i = 0; i < n; i++) {
			CHECK(out[i].type == DRM_VRAMPOOL_POOL_EXCLUSIVE && out[i].flags == F_DEALLOC &&
			      out[i].max_alloc_size % a == 0 &&
			      out[i].dealloc_period == dealloc_period(out[i].max_alloc_size),
			      "bucket %u: max %ju dealloc %ju", i, (uintmax_t)out[i].max_alloc_size,
			      (uintmax_t)out[i].dealloc_period);
			/* Upwards from 32768 to m, or downwards when m is smaller. */
			if (i)
				CHECK(m >= 32768 ? out[i - 1].max_alloc_size < out[i].max_alloc_size :
						   out[i - 1].max_alloc_size > out[i].max_alloc_size,
				      "buckets %u and %u: %ju, %ju", i - 1, i,
				      (uintmax_t)out[i - 1].max_alloc_size,
				      (uintmax_t)out[i].max_alloc_size);
		}
		for (i = 0; m && i < VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS; i++) {
			uint64_t b = vrampool_layout_exclusive_bucket(m, i);

			CHECK(m >= 32768 ? b >= 32768 && b <= m : b <= 32768 && b >= m,
			      "bucket %u is %ju", i, (uintmax_t)b);
		}
	}

	/* Installed as an explicit list, a preset stays what it is (slices aligned). */
	for (i = 0; i < n; i++) {
		uint64_t slice;

		want[i] = out[i];
		if (out[i].type == DRM_VRAMPOOL_POOL_SLICED &&
		    align_wide(out[i].max_slice_size, a, &slice))
			want[i].max_slice_size = slice;
	}
	ret = vrampool_layout_validate(p, DRM_VRAMPOOL_PRESET_NONE, out, n, again, &wn, &err);
	CHECK(ret == 0 && wn == n && !memcmp(again, want, n * sizeof(*again)),
	      "the preset's pools as an explicit list: %d", ret);
}

/* vrampool_error_from_ioctl(): a variant only for a documented code with its errno. */
static void fuzz_error_conversion(struct input *in)
{
	struct drm_vrampool_layout_error le;
	struct vrampool_error err;
	int os_errno = (int)take32(in);
	uint8_t len;

	le.code = take32(in);
	if (le.code & 0x80000000u)	/* mostly small codes */
		le.code &= 0x1f;
	le.entry = take32(in);
	le.field = take32(in);
	le.pad = 0;
	le.value[0] = take64(in);
	le.value[1] = take64(in);
	len = take8(in);
	if (len & 0x80)
		os_errno = -errno_of(le.code & 0xf);

	vrampool_error_from_ioctl(&err, os_errno, &le);
	CHECK(err.os_errno == os_errno, "os_errno");
	if (le.code && kind_of(le.code) != VRAMPOOL_ERR_OS && -errno_of(le.code) == os_errno) {
		CHECK(err.kind == kind_of(le.code) && err.entry == le.entry &&
		      err.field == le.field, "code %u errno %d: kind %d", le.code, os_errno,
		      err.kind);
	} else {
		CHECK(err.kind == VRAMPOOL_ERR_OS && err.entry == DRM_VRAMPOOL_NO_ENTRY &&
		      !err.field && !err.value && !err.size && !err.page_size && !err.count,
		      "code %u errno %d: kind %d, not Os", le.code, os_errno, err.kind);
	}
	check_message(&err, len & 0x7f);
	vrampool_error_from_ioctl(&err, os_errno, NULL);
	CHECK(err.kind == VRAMPOOL_ERR_OS, "no structured error: kind %d", err.kind);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	uint8_t mode = take8(&in);
	struct vrampool_props p;
	uint32_t preset;

	p.exclusive_memory_only = mode & LF_MODE_EXCLUSIVE_ONLY;
	p.alignment = take_size(&in);
	p.max_page_size = take_size(&in);
	cur.props = p;
	cur.count = 0;

	/* The default preset is always one the device can have. */
	{
		struct vrampool_layout_props lp = { p.alignment, p.max_page_size,
						    p.exclusive_memory_only };

		preset = vrampool_layout_default_preset(&lp);
		CHECK(preset == (p.exclusive_memory_only ? DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES :
					      DRM_VRAMPOOL_PRESET_SUB_SLICES), "default preset %u",
		      preset);
	}

	switch (mode & LF_MODE_WHAT) {
	case LF_WHAT_SUB_SLICES:
		preset = DRM_VRAMPOOL_PRESET_SUB_SLICES;
		break;
	case LF_WHAT_EXCLUSIVE_PAGES:
		preset = DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES;
		break;
	case LF_WHAT_RAW_PRESET:
		preset = take32(&in);
		break;
	default:
		preset = DRM_VRAMPOOL_PRESET_NONE;
		break;
	}
	cur.what = preset;
	if (preset == DRM_VRAMPOOL_PRESET_NONE)
		fuzz_list(&p, &in, mode & LF_MODE_NULL_ENTRIES, (uint8_t)(size * 7));
	else
		check_preset(&p, preset, (uint8_t)(size * 13));

	fuzz_error_conversion(&in);
	return 0;
}

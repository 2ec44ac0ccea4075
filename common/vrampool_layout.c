// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vrampool: pool layouts, resolved against device properties.
 *
 * Built into the kernel module and into libvrampool (see the DOC: of
 * vrampool_layout.h): integer arithmetic only, never floating point, and
 * every size computation checked for overflow.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/visibility.h>
#include <linux/array_size.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "vrampool_layout.h"

/* Fixed point for the exclusive-pages preset: exponents in Q6.57 ... */
#define EXP_FRAC_BITS	57
/* ... mantissas in [1, 2) in Q1.61, so that a square stays below 2^64. */
#define MANT_FRAC_BITS	61
#define MANT_ONE	BIT_ULL(MANT_FRAC_BITS)

/**
 * vrampool_layout_error_set() - fill in a layout error
 * @err: the error, cleared first
 * @code: a DRM_VRAMPOOL_ERR_* code
 * @entry: the entry at fault, or DRM_VRAMPOOL_NO_ENTRY
 * @field: a DRM_VRAMPOOL_FIELD_* value
 * @v0: first payload value
 * @v1: second payload value
 */
void vrampool_layout_error_set(struct drm_vrampool_layout_error *err, u32 code,
			       u32 entry, u32 field, u64 v0, u64 v1)
{
	*err = (struct drm_vrampool_layout_error) {
		.code = code,
		.entry = entry,
		.field = field,
		.value = { v0, v1 },
	};
}

/**
 * vrampool_layout_error_errno() - the errno a layout error code goes with
 * @code: a DRM_VRAMPOOL_ERR_* code
 *
 * Return: the negative errno, or 0 for DRM_VRAMPOOL_ERR_NONE.
 */
int vrampool_layout_error_errno(u32 code)
{
	switch (code) {
	case DRM_VRAMPOOL_ERR_NONE:
		return 0;
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
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_error_errno);

static int fail(struct drm_vrampool_layout_error *err, u32 code, u32 entry,
		u32 field, u64 v0, u64 v1)
{
	vrampool_layout_error_set(err, code, entry, field, v0, v1);
	return vrampool_layout_error_errno(code);
}

/*
 * Rounds @x up to a multiple of @a (>= 1, any value: round_up() wants a
 * power of two); false, @out untouched, if that passes U64_MAX.
 */
static bool align_up(u64 x, u64 a, u64 *out)
{
	u64 rem, up;

	div64_u64_rem(x, a, &rem);
	if (check_add_overflow(x, rem ? a - rem : 0, &up))
		return false;
	*out = up;
	return true;
}

static u64 effective_alignment(const struct vrampool_layout_props *props)
{
	return props->alignment ? props->alignment : 1;
}

/* Aligns an entry's size field, or reports the overflow. */
static int align_field(const struct vrampool_layout_props *props, u64 x, u32 entry,
		       u32 field, u64 *out, struct drm_vrampool_layout_error *err)
{
	u64 a = effective_alignment(props);

	if (!align_up(x, a, out))
		return fail(err, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, entry, field, x, a);
	return 0;
}

struct entry_field {
	u32 field;
	u32 flag;	/* 0: mandatory for the types in @types */
	u32 types;	/* bit (1 << type) for each type that has the field */
	size_t offset;	/* of the __u64 in struct drm_vrampool_pool_entry */
};

#define TYPE_BIT(t)	(1u << (t))
#define SLICED		TYPE_BIT(DRM_VRAMPOOL_POOL_SLICED)
#define EXCLUSIVE	TYPE_BIT(DRM_VRAMPOOL_POOL_EXCLUSIVE)
#define DIRECT		TYPE_BIT(DRM_VRAMPOOL_POOL_DIRECT)

#define AT(name)	offsetof(struct drm_vrampool_pool_entry, name)

static const struct entry_field entry_fields[] = {
	{ DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, SLICED, AT(page_size) },
	{ DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, SLICED,
	  AT(max_slice_size) },
	{ DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, SLICED,
	  AT(max_pool_size) },
	{ DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, 0, EXCLUSIVE, AT(max_alloc_size) },
	{ DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD, DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD,
	  SLICED | EXCLUSIVE, AT(dealloc_period) },
	{ DRM_VRAMPOOL_FIELD_RECLAIM_AT, DRM_VRAMPOOL_ENTRY_RECLAIM_AT, DIRECT, AT(reclaim_at) },
};

static bool type_is_installable(u32 type)
{
	return type == DRM_VRAMPOOL_POOL_EXCLUSIVE || type == DRM_VRAMPOOL_POOL_SLICED ||
	       type == DRM_VRAMPOOL_POOL_DIRECT;
}

/* The optional-field flags a pool type may carry. */
static u32 type_flags(u32 type)
{
	u32 flags = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(entry_fields); i++) {
		if (entry_fields[i].types & TYPE_BIT(type))
			flags |= entry_fields[i].flag;
	}
	return flags;
}

static u64 field_value(const struct drm_vrampool_pool_entry *e, const struct entry_field *f)
{
	u64 v;

	memcpy(&v, (const char *)e + f->offset, sizeof(v));
	return v;
}

static int check_entry(const struct drm_vrampool_pool_entry *e, u32 i,
		       struct drm_vrampool_layout_error *err)
{
	const struct entry_field *f;
	unsigned int k;
	bool used;

	if (!type_is_installable(e->type))
		return fail(err, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i, DRM_VRAMPOOL_FIELD_TYPE,
			    e->type, 0);
	if (e->flags & ~type_flags(e->type))
		return fail(err, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i,
			    DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, e->flags, 0);
	if (e->reserved)
		return fail(err, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i,
			    DRM_VRAMPOOL_FIELD_ENTRY_RESERVED, e->reserved, 0);

	for (k = 0; k < ARRAY_SIZE(entry_fields); k++) {
		f = &entry_fields[k];
		used = (f->types & TYPE_BIT(e->type)) && (!f->flag || (e->flags & f->flag));
		if (!used && field_value(e, f))
			return fail(err, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, i, f->field,
				    field_value(e, f), 0);
	}
	return 0;
}

/**
 * vrampool_layout_check_entries() - check that entries are well formed
 * @entries: the entries
 * @count: how many
 * @err: filled in on failure
 *
 * Well formed: a known, installable type; only the optional-field flags
 * that type has; every field the type does not use (or that is absent)
 * zero; the reserved field zero. The layout rules proper are
 * vrampool_layout_resolve()'s.
 *
 * Return: 0, or -EINVAL with @err naming the entry and field.
 */
int vrampool_layout_check_entries(const struct drm_vrampool_pool_entry *entries,
				  u32 count, struct drm_vrampool_layout_error *err)
{
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = check_entry(&entries[i], i, err);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_check_entries);

static int resolve_exclusive(const struct vrampool_layout_props *props,
			     const struct drm_vrampool_pool_entry *e, u32 i,
			     struct drm_vrampool_pool_entry *out,
			     struct drm_vrampool_layout_error *err)
{
	*out = *e;
	/* 0 stays 0: a pool for zero-size requests. */
	return align_field(props, e->max_alloc_size, i, DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE,
			   &out->max_alloc_size, err);
}

static int resolve_cap(const struct drm_vrampool_pool_entry *e, u32 i, u64 page_size,
		       struct drm_vrampool_layout_error *err)
{
	u64 cap = e->max_pool_size, pages;

	if (!(e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE))
		return 0;
	if (!cap)
		return fail(err, DRM_VRAMPOOL_ERR_ZERO_SIZE, i,
			    DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, 0, 0);
	if (cap < page_size)
		return fail(err, DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, i,
			    DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, page_size, cap);
	pages = div64_u64(cap, page_size);
	if (pages > VRAMPOOL_MAX_POOL_PAGES)
		return fail(err, DRM_VRAMPOOL_ERR_TOO_MANY_PAGES, i,
			    DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE, pages, 0);
	return 0;
}

static int resolve_sliced(const struct vrampool_layout_props *props,
			  const struct drm_vrampool_pool_entry *e, u32 i,
			  struct drm_vrampool_pool_entry *out,
			  struct drm_vrampool_layout_error *err)
{
	u64 page = 0, slice;
	int ret;

	if (props->exclusive_memory_only)
		return fail(err, DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, i,
			    DRM_VRAMPOOL_FIELD_TYPE, 0, 0);
	if (!e->page_size)
		return fail(err, DRM_VRAMPOOL_ERR_ZERO_SIZE, i, DRM_VRAMPOOL_FIELD_PAGE_SIZE, 0, 0);
	ret = align_field(props, e->page_size, i, DRM_VRAMPOOL_FIELD_PAGE_SIZE, &page, err);
	if (ret)
		return ret;

	slice = page;
	if (e->flags & DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE) {
		if (!e->max_slice_size)
			return fail(err, DRM_VRAMPOOL_ERR_ZERO_SIZE, i,
				    DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, 0, 0);
		ret = align_field(props, e->max_slice_size, i,
				  DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, &slice, err);
		if (ret)
			return ret;
	}
	if (slice > page)
		return fail(err, DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE, i,
			    DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, page, slice);

	ret = resolve_cap(e, i, page, err);
	if (ret)
		return ret;

	*out = *e;
	out->flags |= DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE;
	out->page_size = page;
	out->max_slice_size = slice;
	return 0;
}

/**
 * vrampool_layout_resolve() - check and resolve an explicit pool list
 * @props: the device properties to resolve against
 * @entries: the entries; not read when @count is 0 or above 254
 * @count: how many
 * @out: room for @count resolved entries
 * @err: filled in on failure
 *
 * The rules and their order are those of the uapi header's "pool layouts"
 * section: empty list, too many pools, malformed entries, then entry by
 * entry. Resolved sliced entries always carry their max_slice_size.
 *
 * Return: 0, or a negative errno with @err saying why.
 */
int vrampool_layout_resolve(const struct vrampool_layout_props *props,
			    const struct drm_vrampool_pool_entry *entries, u32 count,
			    struct drm_vrampool_pool_entry *out,
			    struct drm_vrampool_layout_error *err)
{
	const struct drm_vrampool_pool_entry *e;
	u32 i;
	int ret;

	if (!count)
		return fail(err, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST, DRM_VRAMPOOL_NO_ENTRY,
			    DRM_VRAMPOOL_FIELD_COUNT, 0, 0);
	if (count > DRM_VRAMPOOL_MAX_DYNAMIC_POOLS)
		return fail(err, DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, DRM_VRAMPOOL_NO_ENTRY,
			    DRM_VRAMPOOL_FIELD_COUNT, count, 0);

	ret = vrampool_layout_check_entries(entries, count, err);
	if (ret)
		return ret;

	for (i = 0; i < count; i++) {
		e = &entries[i];
		switch (e->type) {
		case DRM_VRAMPOOL_POOL_EXCLUSIVE:
			ret = resolve_exclusive(props, e, i, &out[i], err);
			break;
		case DRM_VRAMPOOL_POOL_SLICED:
			ret = resolve_sliced(props, e, i, &out[i], err);
			break;
		default:	/* direct: kept as given */
			out[i] = *e;
			ret = 0;
		}
		if (ret)
			return ret;
	}
	vrampool_layout_error_set(err, DRM_VRAMPOOL_ERR_NONE, 0, 0, 0, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_resolve);

/**
 * vrampool_layout_dealloc_period() - the presets' dealloc period for a size
 * @size: the pool's largest allocation, in bytes
 *
 * 5000 allocations, plus 5000 for every GiB of @size rounded to the
 * nearest GiB (halves round up).
 *
 * Return: the period, in allocations.
 */
u64 vrampool_layout_dealloc_period(u64 size)
{
	u64 gib = size >> 30;

	if (size & BIT_ULL(29))
		gib++;
	return 5000 * (1 + gib);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_dealloc_period);

/* r * r <= @x * 2^61, for r < 2^62: the high part of r * r fits a u64. */
static bool square_at_most(u64 r, u64 x)
{
	u64 hi = mul_u64_u64_shr(r, r, MANT_FRAC_BITS);

	return hi < x || (hi == x && !((r * r) & (MANT_ONE - 1)));
}

/*
 * sqrt(@x) for @x in [1, 2] in Q1.61: floor(sqrt(@x * 2^61)), by bisection
 * between bounds from 1 + d/2 - d^2/8 <= sqrt(1 + d) <= 1 + d/2. The bounds
 * close in as @x nears 1, which the successive roots of exp2_fixed() do:
 * about 800 steps for all 57 of them, where bit by bit would take 3500.
 */
static u64 sqrt_fixed(u64 x)
{
	u64 d = x - MANT_ONE, lo, hi, mid;

	hi = MANT_ONE + d / 2;
	lo = hi - mul_u64_u64_shr(d, d, 64) - 1;	/* d^2/8 is d * d >> 64 here */
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (square_at_most(mid, x))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* log2(m) for m >= 1, in Q6.57. */
static u64 log2_fixed(u64 m)
{
	unsigned int n = fls64(m) - 1;
	u64 y, result = (u64)n << EXP_FRAC_BITS;
	int bit;

	/* m / 2^n, in [1, 2), as Q1.61. */
	y = n > MANT_FRAC_BITS ? m >> (n - MANT_FRAC_BITS) : m << (MANT_FRAC_BITS - n);
	for (bit = EXP_FRAC_BITS - 1; bit >= 0; bit--) {
		y = mul_u64_u64_shr(y, y, MANT_FRAC_BITS);
		if (y >= 2 * MANT_ONE) {
			y >>= 1;
			result |= BIT_ULL(bit);
		}
	}
	return result;
}

/* trunc(2^e) for e in Q6.57, saturating at 2^64 - 1. */
static u64 exp2_fixed(u64 e)
{
	unsigned int n = e >> EXP_FRAC_BITS, k;
	u64 root, mant = MANT_ONE;

	/* root walks 2^(2^-k) in Q1.61: sqrt(2), 2^(1/4), ... */
	root = sqrt_fixed(2 * MANT_ONE);
	for (k = 1; k <= EXP_FRAC_BITS; k++) {
		if (e & BIT_ULL(EXP_FRAC_BITS - k))
			mant = mul_u64_u64_shr(mant, root, MANT_FRAC_BITS);
		root = sqrt_fixed(root);
	}

	if (n <= MANT_FRAC_BITS)
		return mant >> (MANT_FRAC_BITS - n);
	if (mant > (U64_MAX >> (n - MANT_FRAC_BITS)))
		return U64_MAX;
	return mant << (n - MANT_FRAC_BITS);
}

/**
 * vrampool_layout_exclusive_bucket() - bucket @i of the exclusive-pages preset
 * @max_page_size: the largest bucket, m
 * @i: 0 to 23
 *
 * trunc(32768 * (m / 32768)^(i / 23)) before alignment, evaluated in fixed
 * point to within about 1e-16: the ends are exact (32768 and m), and the
 * buckets between are the exact-math values. A double-precision evaluation
 * (CubeCL's, see "Where vrampool differs from CubeCL" in
 * Documentation/vrampool.rst) agrees after alignment but for values that
 * fall within a few hundredths of an alignment boundary, about once in a
 * million buckets for alignments up to 256; there, this one is the exact one.
 *
 * Return: the bucket size in bytes; 0 when @max_page_size is 0.
 */
u64 vrampool_layout_exclusive_bucket(u64 max_page_size, u32 i)
{
	const u32 last = VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS - 1;
	const u64 lo = (u64)15 << EXP_FRAC_BITS;	/* log2(32768) */
	u64 hi, hi_q, lo_q;
	u32 hi_r, lo_r;

	if (!max_page_size)
		return 0;
	if (i == 0)
		return VRAMPOOL_EXCLUSIVE_PAGES_MIN;
	if (i >= last)
		return max_page_size;

	/*
	 * 2^((lo * (last - i) + hi * i) / last), the division split into
	 * quotients and remainders so that no product passes 2^64.
	 */
	hi = log2_fixed(max_page_size);
	hi_q = div_u64_rem(hi, last, &hi_r);
	lo_q = div_u64_rem(lo, last, &lo_r);
	return exp2_fixed(hi_q * i + lo_q * (last - i) +
			  (hi_r * i + lo_r * (last - i)) / last);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_exclusive_bucket);

static void set_exclusive(struct drm_vrampool_pool_entry *e, u64 max_alloc, bool dealloc)
{
	*e = (struct drm_vrampool_pool_entry) {
		.type = DRM_VRAMPOOL_POOL_EXCLUSIVE,
		.max_alloc_size = max_alloc,
	};
	if (dealloc) {
		e->flags = DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
		e->dealloc_period = vrampool_layout_dealloc_period(max_alloc);
	}
}

static int preset_sub_slices(const struct vrampool_layout_props *props,
			     struct drm_vrampool_pool_entry *out, u32 *count,
			     struct drm_vrampool_layout_error *err)
{
	u64 a = effective_alignment(props), m = props->max_page_size;
	u64 pages[VRAMPOOL_PRESET_MAX_POOLS], cur = m, next;
	u32 n = 0, j;

	/* Quarter the page until it drops below 32 MiB, or stops shrinking. */
	while (cur >= VRAMPOOL_SUB_SLICES_MIN_PAGE && n < VRAMPOOL_PRESET_MAX_POOLS - 2) {
		if (!align_up(cur / 4, a, &next))
			return fail(err, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, DRM_VRAMPOOL_NO_ENTRY,
				    DRM_VRAMPOOL_FIELD_PAGE_SIZE, cur / 4, a);
		if (next >= cur)
			break;
		pages[n++] = next;
		cur = next;
	}

	set_exclusive(&out[0], 0, false);
	/* Smallest page first; page k (from 1, largest) slices at page >> k. */
	for (j = 0; j < n; j++) {
		out[1 + j] = (struct drm_vrampool_pool_entry) {
			.type = DRM_VRAMPOOL_POOL_SLICED,
			.flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE,
			.page_size = pages[n - 1 - j],
			.max_slice_size = pages[n - 1 - j] >> (n - j),
		};
	}
	set_exclusive(&out[1 + n], div64_u64(m, a) * a, true);
	*count = n + 2;
	return 0;
}

static int preset_exclusive_pages(const struct vrampool_layout_props *props,
				  struct drm_vrampool_pool_entry *out, u32 *count,
				  struct drm_vrampool_layout_error *err)
{
	u64 a = effective_alignment(props), size;
	u32 i, n = 0;

	for (i = 0; i < VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS; i++) {
		u64 bucket = vrampool_layout_exclusive_bucket(props->max_page_size, i);

		if (!align_up(bucket, a, &size))
			return fail(err, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW, DRM_VRAMPOOL_NO_ENTRY,
				    DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, bucket, a);
		if (n && out[n - 1].max_alloc_size == size)
			continue;
		set_exclusive(&out[n++], size, true);
	}
	*count = n;
	return 0;
}

/**
 * vrampool_layout_default_preset() - the layout a new client starts with
 * @props: the device properties
 *
 * Return: DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES on an exclusive-memory-only
 * device, DRM_VRAMPOOL_PRESET_SUB_SLICES elsewhere.
 */
u32 vrampool_layout_default_preset(const struct vrampool_layout_props *props)
{
	return props->exclusive_memory_only ? DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES :
					      DRM_VRAMPOOL_PRESET_SUB_SLICES;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_default_preset);

/**
 * vrampool_layout_preset() - expand a preset into its pools
 * @props: the device properties
 * @preset: a DRM_VRAMPOOL_PRESET_* value other than NONE
 * @out: room for VRAMPOOL_PRESET_MAX_POOLS entries
 * @count: the number of pools, on success
 * @err: filled in on failure
 *
 * Return: 0; -EOPNOTSUPP for sub-slices on an exclusive-memory-only device;
 * -EINVAL for an unknown preset; -EOVERFLOW if alignment overflows.
 */
int vrampool_layout_preset(const struct vrampool_layout_props *props, u32 preset,
			   struct drm_vrampool_pool_entry *out, u32 *count,
			   struct drm_vrampool_layout_error *err)
{
	int ret;

	switch (preset) {
	case DRM_VRAMPOOL_PRESET_SUB_SLICES:
		if (props->exclusive_memory_only)
			return fail(err, DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE,
				    DRM_VRAMPOOL_NO_ENTRY, DRM_VRAMPOOL_FIELD_PRESET, preset, 0);
		ret = preset_sub_slices(props, out, count, err);
		break;
	case DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES:
		ret = preset_exclusive_pages(props, out, count, err);
		break;
	default:
		return fail(err, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT, DRM_VRAMPOOL_NO_ENTRY,
			    DRM_VRAMPOOL_FIELD_PRESET, preset, 0);
	}
	if (!ret)
		vrampool_layout_error_set(err, DRM_VRAMPOOL_ERR_NONE, 0, 0, 0, 0);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_layout_preset);

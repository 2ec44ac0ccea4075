// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helper library of the vrampool kselftests: pool entries, install
 * requests, POOL_QUERY snapshots and the layouts the presets and the
 * resolution rules should give. See vrampool_test_lib.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampool_test_lib.h"

int vp_read_props(int fd, struct vp_props *props)
{
	uint64_t excl = 0;
	int ret;

	ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &props->vram_size);
	if (!ret)
		ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_ALIGNMENT, &props->alignment);
	if (!ret)
		ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE, &props->max_page_size);
	if (!ret)
		ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY, &excl);
	props->exclusive = excl != 0;
	return ret;
}

void vp_snap_set(struct vp_snap *s, const struct drm_vrampool_pool_query *q)
{
	s->generation = q->generation;
	s->vram_in_use = q->vram_in_use;
	s->persistent_mode = q->persistent_mode;
	s->num_pools = q->num_pools;
	s->size = q->size;
	s->count = q->size / sizeof(s->pools[0]);
}

int vp_snap_take(int fd, struct vp_snap *s)
{
	struct drm_vrampool_pool_query q;
	int tries, ret;

	memset(s, 0, sizeof(*s));
	for (tries = 0; tries < 8; tries++) {
		memset(&q, 0, sizeof(q));
		ret = vp_query(fd, &q);
		if (ret)
			return ret;
		if (q.size > sizeof(s->pools) || q.size % sizeof(s->pools[0]))
			return -ERANGE;

		q.pools = (uintptr_t)s->pools;
		ret = vp_query(fd, &q);
		if (ret == -EINVAL)
			continue;	/* the layout changed in between */
		if (ret)
			return ret;
		vp_snap_set(s, &q);
		return 0;
	}
	return -EAGAIN;
}

int vp_snap_take_why(int fd, struct vp_snap *s, char *why, size_t len)
{
	int ret = vp_snap_take(fd, s);

	if (ret)
		snprintf(why, len, "POOL_QUERY: %s", strerror(-ret));
	return ret ? -1 : 0;
}

int vp_snap_diff(const struct vp_snap *a, const struct vp_snap *b, char *why, size_t len)
{
	uint32_t i;

	if (a->generation != b->generation) {
		snprintf(why, len, "generation %" PRIu64 " became %" PRIu64,
			 a->generation, b->generation);
		return 1;
	}
	if (a->vram_in_use != b->vram_in_use || a->persistent_mode != b->persistent_mode) {
		snprintf(why, len, "VRAM in use/persistent mode %" PRIu64 "/%u became %" PRIu64 "/%u",
			 a->vram_in_use, a->persistent_mode, b->vram_in_use, b->persistent_mode);
		return 1;
	}
	if (a->num_pools != b->num_pools || a->size != b->size) {
		snprintf(why, len, "num_pools/size %u/%u became %u/%u",
			 a->num_pools, a->size, b->num_pools, b->size);
		return 1;
	}
	for (i = 0; i < a->count; i++) {
		char x[160], y[160];

		if (!memcmp(&a->pools[i], &b->pools[i], sizeof(a->pools[i])))
			continue;
		snprintf(why, len, "pool %u: %s (index %u) became %s (index %u), or its statistics changed",
			 i, vp_entry_str(&a->pools[i].config, x, sizeof(x)), a->pools[i].index,
			 vp_entry_str(&b->pools[i].config, y, sizeof(y)), b->pools[i].index);
		return 1;
	}
	if (len)
		why[0] = '\0';
	return 0;
}

void vp_snap_configs(const struct vp_snap *s, struct drm_vrampool_pool_entry *out)
{
	uint32_t i;

	for (i = 0; i < s->num_pools && i < s->count; i++)
		out[i] = s->pools[i].config;
}

struct drm_vrampool_pool_entry vp_sliced(uint64_t page_size, uint64_t max_slice_size,
					 uint64_t max_pool_size)
{
	struct drm_vrampool_pool_entry e = {
		.type = DRM_VRAMPOOL_POOL_SLICED,
		.page_size = page_size,
	};

	if (max_slice_size != VP_ABSENT)
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, max_slice_size);
	if (max_pool_size != VP_ABSENT)
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, max_pool_size);
	return e;
}

struct drm_vrampool_pool_entry vp_exclusive(uint64_t max_alloc_size, uint64_t dealloc_period)
{
	struct drm_vrampool_pool_entry e = {
		.type = DRM_VRAMPOOL_POOL_EXCLUSIVE,
		.max_alloc_size = max_alloc_size,
	};

	if (dealloc_period != VP_ABSENT)
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, dealloc_period);
	return e;
}

struct drm_vrampool_pool_entry vp_direct(uint64_t reclaim_at)
{
	struct drm_vrampool_pool_entry e = { .type = DRM_VRAMPOOL_POOL_DIRECT };

	if (reclaim_at != VP_ABSENT)
		vp_entry_set(&e, DRM_VRAMPOOL_ENTRY_RECLAIM_AT, reclaim_at);
	return e;
}

void vp_entry_set(struct drm_vrampool_pool_entry *e, uint32_t flag, uint64_t value)
{
	e->flags |= flag;
	switch (flag) {
	case DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE:
		e->max_slice_size = value;
		break;
	case DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE:
		e->max_pool_size = value;
		break;
	case DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD:
		e->dealloc_period = value;
		break;
	case DRM_VRAMPOOL_ENTRY_RECLAIM_AT:
		e->reclaim_at = value;
		break;
	default:
		/* not a single optional field: a test bug */
		abort();
	}
}

void vp_req_list(struct drm_vrampool_pool_install *args,
		 const struct drm_vrampool_pool_entry *entries, uint32_t count, uint32_t flags)
{
	memset(args, 0, sizeof(*args));
	args->flags = flags;
	args->preset = DRM_VRAMPOOL_PRESET_NONE;
	args->entries = (uintptr_t)entries;
	args->count = count;
	args->entry_size = sizeof(*entries);
}

void vp_req_preset(struct drm_vrampool_pool_install *args, uint32_t preset, uint32_t flags)
{
	memset(args, 0, sizeof(*args));
	args->flags = flags;
	args->preset = preset;
}

int vp_install_list(int fd, const struct drm_vrampool_pool_entry *entries, uint32_t count,
		    struct drm_vrampool_pool_install *ans)
{
	struct drm_vrampool_pool_install args;
	int ret;

	vp_req_list(&args, entries, count, 0);
	ret = vp_install(fd, &args);
	if (ans)
		*ans = args;
	return ret;
}

int vp_pool(int fd, uint32_t index, struct drm_vrampool_pool_status *out)
{
	struct vp_snap *s = malloc(sizeof(*s));
	int ret;
	uint32_t i;

	if (!s)
		return -ENOMEM;
	ret = vp_snap_take(fd, s);
	if (ret)
		goto out_free;
	ret = -ENOENT;
	for (i = 0; i < s->count; i++) {
		if (s->pools[i].index == index) {
			*out = s->pools[i];
			ret = 0;
			break;
		}
	}
out_free:
	free(s);
	return ret;
}

uint64_t vp_align_up(uint64_t v, uint64_t a)
{
	if (a <= 1 || v % a == 0)
		return v;
	return v + (a - v % a);
}

uint64_t vp_bo_bytes(uint64_t page_size)
{
	return vp_align_up(page_size, VP_CPU_PAGE);
}

uint64_t vp_expect_dealloc(uint64_t size)
{
	/* (size + 2^29) >> 30 without the overflow near 2^64 */
	return 5000 * (1 + (size >> 30) + ((size >> 29) & 1));
}

static void exclusive_entry(struct drm_vrampool_pool_entry *e, uint64_t max, bool dealloc)
{
	memset(e, 0, sizeof(*e));
	e->type = DRM_VRAMPOOL_POOL_EXCLUSIVE;
	e->max_alloc_size = max;
	if (dealloc) {
		e->flags = DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
		e->dealloc_period = vp_expect_dealloc(max);
	}
}

/*
 * exclusive{0}; then, quartering the max page size while it is at least
 * 32 MiB, sliced pools with slice = page >> k (k = 1 for the largest page),
 * smallest page first; then exclusive{floor(m / a) * a} with its dealloc.
 */
uint32_t vp_expect_sub_slices(const struct vp_props *p, struct drm_vrampool_pool_entry *out)
{
	uint64_t a = p->alignment ? p->alignment : 1, m = p->max_page_size, cur = m;
	uint64_t pages[64], slices[64];
	uint32_t k = 0, n = 0, j;

	while (cur >= (32ULL << 20) && k < 60) {
		cur = vp_align_up(cur / 4, a);
		k++;
		pages[k - 1] = cur;
		slices[k - 1] = cur >> k;
	}

	exclusive_entry(&out[n++], 0, false);
	for (j = k; j > 0; j--) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].type = DRM_VRAMPOOL_POOL_SLICED;
		out[n].flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE;
		out[n].page_size = pages[j - 1];
		out[n].max_slice_size = slices[j - 1];
		n++;
	}
	exclusive_entry(&out[n++], m / a * a, true);
	return n;
}

/*
 * 24 buckets align_up(trunc(exp(ln 32768 + (ln m - ln 32768) * i / 23)), a),
 * consecutive duplicates dropped, each with its dealloc period: evaluated in
 * double precision, as CubeCL (the allocator vrampool follows) does. The
 * kernel computes the exact values in fixed point; Documentation/vrampool.rst
 * ("Where vrampool differs from CubeCL") says why the two agree on the
 * devices the VM has.
 */
uint32_t vp_expect_exclusive_pages(const struct vp_props *p,
				   struct drm_vrampool_pool_entry *out)
{
	uint64_t a = p->alignment ? p->alignment : 1;
	double lo = log(32768.0), hi = log((double)p->max_page_size);
	uint32_t i, n = 0;

	for (i = 0; i < 24; i++) {
		double x = exp(lo + (hi - lo) * ((double)i / 23.0));
		uint64_t size = vp_align_up((uint64_t)trunc(x), a);

		if (n && out[n - 1].max_alloc_size == size)
			continue;
		exclusive_entry(&out[n++], size, true);
	}
	return n;
}

void vp_expect_resolved(const struct vp_props *p, const struct drm_vrampool_pool_entry *in,
			struct drm_vrampool_pool_entry *out)
{
	uint64_t a = p->alignment ? p->alignment : 1;

	*out = *in;
	switch (in->type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		out->max_alloc_size = vp_align_up(in->max_alloc_size, a);
		break;
	case DRM_VRAMPOOL_POOL_SLICED:
		out->page_size = vp_align_up(in->page_size, a);
		if (in->flags & DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE)
			out->max_slice_size = vp_align_up(in->max_slice_size, a);
		else
			out->max_slice_size = out->page_size;
		out->flags |= DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE;
		/* max_pool_size and dealloc_period are kept as given */
		break;
	default:
		break;
	}
}

const char *vp_pool_type_str(uint32_t type)
{
	switch (type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return "exclusive";
	case DRM_VRAMPOOL_POOL_SLICED:
		return "sliced";
	case DRM_VRAMPOOL_POOL_DIRECT:
		return "direct";
	case DRM_VRAMPOOL_POOL_PERSISTENT:
		return "persistent";
	default:
		return "type?";
	}
}

const char *vp_entry_str(const struct drm_vrampool_pool_entry *e, char *buf, size_t len)
{
	int n;

	n = snprintf(buf, len,
		     "%s(%u){flags %#x page %" PRIu64 " slice %" PRIu64 " cap %" PRIu64
		     " max %" PRIu64 " dealloc %" PRIu64 " reclaim %" PRIu64 " rsv %" PRIu64 "}",
		     vp_pool_type_str(e->type), e->type, e->flags, (uint64_t)e->page_size,
		     (uint64_t)e->max_slice_size, (uint64_t)e->max_pool_size,
		     (uint64_t)e->max_alloc_size, (uint64_t)e->dealloc_period,
		     (uint64_t)e->reclaim_at, (uint64_t)e->reserved);
	(void)n;
	return buf;
}

int vp_entries_diff(const struct drm_vrampool_pool_entry *a,
		    const struct drm_vrampool_pool_entry *b, uint32_t n, char *why, size_t len)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		char x[200], y[200];

		if (!memcmp(&a[i], &b[i], sizeof(a[i])))
			continue;
		snprintf(why, len, "entry %u: %s vs %s", i, vp_entry_str(&a[i], x, sizeof(x)),
			 vp_entry_str(&b[i], y, sizeof(y)));
		return (int)i;
	}
	if (len)
		why[0] = '\0';
	return -1;
}

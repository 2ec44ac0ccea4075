// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's checks against its model: the bytes of every allocation
 * (new ones read zero, then hold their pattern) and its mapping, the
 * prediction helpers (effective sizes, which pool accepts a size), and
 * POOL_QUERY and the device's VRAM in use against the model.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- Pattern and mapping checks ------------------------------------------ */

/* Bytes [@from, @from + @len) of an allocation hold its pattern. */
static void check_range(const struct fz_client *c, const struct fz_alloc *a, uint64_t from,
			uint64_t len, const char *when)
{
	uint64_t t0 = prof_start();
	int64_t bad = vp_check_words(a->map + a->offset + from, from, len, a->seed);

	prof_end(P_CHECK, t0);
	bytes_checked += len;
	if (bad >= 0)
		mismatch("%s: client %d allocation %u (pool %u page %u offset %" PRIu64
			 " size %" PRIu64 ") changed at byte %" PRIu64, when, (int)(c - clients),
			 a->handle, a->pool, a->page, a->offset, a->size, from + bad);
}

/*
 * Every byte (@full, and any allocation of at most SAMPLE * 3 bytes), or
 * its head, its tail and a random window: after every event the sample,
 * before every FREE and close the whole.
 */
#define SAMPLE 128

void check_alloc_bytes(const struct fz_client *c, const struct fz_alloc *a,
		       const char *when, bool full)
{
	uint64_t at;

	if (!a->map)
		return;
	if (full || a->size <= 3 * SAMPLE) {
		check_range(c, a, 0, a->size, when);
		return;
	}
	check_range(c, a, 0, SAMPLE, when);
	check_range(c, a, (a->size - SAMPLE) & ~7ULL, SAMPLE, when);
	at = (rnd64() % (a->size - SAMPLE)) & ~7ULL;
	check_range(c, a, at, SAMPLE, when);
}

void check_client_bytes(const struct fz_client *c, const char *when)
{
	int i;

	for (i = 0; i < c->nlive; i++)
		check_alloc_bytes(c, &c->live[i], when, false);
}

void check_device_bytes(int dev, const char *when)
{
	int i;

	for (i = 0; i < nclients; i++)
		if (clients[i].fd >= 0 && clients[i].dev == dev)
			check_client_bytes(&clients[i], when);
}

/* After writing @l: its neighbours in the same page kept their bytes. */
void check_alloc_placement_bytes(const struct fz_client *c, const struct fz_alloc *l)
{
	int i;

	for (i = 0; i < c->nlive; i++)
		if (&c->live[i] != l && c->live[i].map && c->live[i].mmap_offset == l->mmap_offset)
			check_alloc_bytes(c, &c->live[i], "a neighbour was written", false);
}

size_t map_len_of(uint64_t page_size)
{
	return (size_t)vp_align_up(page_size, VP_CPU_PAGE);
}

/* ---- Prediction helpers --------------------------------------------------- */

uint64_t eff_size(const struct fz_dev *d, uint64_t size, bool *ok)
{
	uint64_t a = d->p.alignment ? d->p.alignment : 1;
	uint64_t r = size % a;

	*ok = true;
	if (!r)
		return size;
	if (size > UINT64_MAX - (a - r)) {
		*ok = false;
		return 0;
	}
	return size + (a - r);
}

/*
 * The near-page rule, (page - size) * 5 < page, as the unbounded integers
 * say it, for a size up to the page: d * 5 < page exactly when d <=
 * (page - 1) / 5. The 64-bit product wraps for pages above U64_MAX / 5
 * (the model once took 962561 bytes for near a 2^63-byte page; the kernel
 * rightly did not).
 */
static bool sliced_near_page(uint64_t page, uint64_t size)
{
	return page && page - size <= (page - 1) / 5;
}

bool capped(const struct drm_vrampool_pool_entry *e)
{
	return e->type == DRM_VRAMPOOL_POOL_SLICED && (e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE);
}

bool pool_accepts(const struct fz_dev *d, const struct drm_vrampool_pool_entry *e,
		  uint64_t size)
{
	uint64_t page = e->page_size, m;
	bool ok;

	switch (e->type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return size <= e->max_alloc_size;
	case DRM_VRAMPOOL_POOL_SLICED:
		m = e->max_slice_size < page ? e->max_slice_size : page;
		if (size <= m)
			return true;
		return !(capped(e) && e->max_pool_size / page) && size <= page &&
		       sliced_near_page(page, size);
	default:
		eff_size(d, size, &ok);
		return ok;
	}
}

struct fz_pool *pool_stats(struct fz_client *c, uint32_t pool)
{
	return pool == DRM_VRAMPOOL_PERSISTENT_POOL ? &c->pers : &c->st[pool];
}

uint64_t dynamic_live(const struct fz_client *c, uint64_t *bytes)
{
	uint64_t n = 0;
	uint32_t i;

	*bytes = 0;
	for (i = 0; i < c->num_pools; i++) {
		n += c->st[i].allocations;
		*bytes += c->st[i].bytes;
	}
	return n;
}

/* ---- POOL_QUERY against the model ------------------------------------------ */

struct vp_snap snap;

/*
 * POOL_QUERY in one call, asking for the answer's size as the model knows
 * it: a wrong count is an EINVAL, which the caller reports. Only the
 * statuses it asks for are poisoned first (not the whole 255 of them): the
 * call must overwrite every byte that is then compared.
 */
static int query_sized(const struct fz_client *c, struct vp_snap *s)
{
	struct drm_vrampool_pool_query q = { 0 };
	int ret;

	q.size = (c->num_pools + 1) * sizeof(s->pools[0]);
	q.pools = (uintptr_t)s->pools;
	memset(s->pools, 0xa5, q.size);
	ret = vp_query(c->fd, &q);
	if (ret)
		return ret;
	vp_snap_set(s, &q);
	return 0;
}

/* A pool's pages as the model holds them: the distinct pages of live and cached allocations. */
static void check_query_pages(const struct fz_client *c, const struct drm_vrampool_pool_status *s,
			      const char *when)
{
	const struct fzm_pool *m = fzm_pool(&c->m, s->index);

	if (s->allocations != m->allocations || s->bytes_in_use != m->bytes ||
	    s->padding != m->padding || s->reserved_bytes != m->reserved ||
	    s->pages != m->pages || s->pages_peak != m->pages_peak ||
	    s->largest_alloc != m->largest || s->pages_made != m->made)
		mismatch("%s: pool %u: allocations %" PRIu64 " bytes %" PRIu64 " padding %" PRIu64
			 " reserved %" PRIu64 " pages %" PRIu64 " peak %" PRIu64 " largest %" PRIu64
			 " made %" PRIu64 "; the model's %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
			 PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, when, s->index,
			 (uint64_t)s->allocations, (uint64_t)s->bytes_in_use, (uint64_t)s->padding,
			 (uint64_t)s->reserved_bytes, (uint64_t)s->pages, (uint64_t)s->pages_peak,
			 (uint64_t)s->largest_alloc, (uint64_t)s->pages_made, m->allocations,
			 m->bytes, m->padding, m->reserved, m->pages, m->pages_peak, m->largest,
			 m->made);
}

void check_query(struct fz_client *c, const char *when)
{
	uint64_t live_eff = 0, t0 = prof_start();
	char why[256];
	uint32_t i;
	int ret;

	/* One in 8 takes a runtime's two steps: size 0, then the data. */
	ret = chance(8) ? vp_snap_take(c->fd, &snap) : query_sized(c, &snap);
	prof_end(P_QUERY, t0);
	if (ret)
		mismatch("%s: POOL_QUERY: %s", when, ename(ret));
	if (snap.generation != c->generation || snap.num_pools != c->num_pools ||
	    snap.persistent_mode != c->mode || snap.count != c->num_pools + 1)
		mismatch("%s: POOL_QUERY header: generation %" PRIu64 " pools %u mode %u count %u,"
			 " model %" PRIu64 " %u %u", when, snap.generation, snap.num_pools,
			 snap.persistent_mode, snap.count, c->generation, c->num_pools, c->mode);
	for (i = 0; i < snap.count; i++) {
		const struct drm_vrampool_pool_status *s = &snap.pools[i];
		bool pers = i == c->num_pools;
		const struct fz_pool *m = pers ? &c->pers : &c->st[i];

		if (s->index != (pers ? DRM_VRAMPOOL_PERSISTENT_POOL : i))
			mismatch("%s: status %u has index %u", when, i, s->index);
		if (pers ? s->config.type != DRM_VRAMPOOL_POOL_PERSISTENT :
			   vp_entries_diff(&s->config, &c->layout[i], 1, why, sizeof(why)) >= 0)
			mismatch("%s: pool %u config: %s", when, s->index,
				 pers ? "not persistent" : why);
		if (s->allocations != m->allocations || s->bytes_in_use != m->bytes ||
		    s->padding != m->padding)
			mismatch("%s: pool %u: allocations %" PRIu64 " bytes_in_use %" PRIu64
				 " padding %" PRIu64 ", model %" PRIu64 " %" PRIu64 " %" PRIu64,
				 when, s->index, (uint64_t)s->allocations,
				 (uint64_t)s->bytes_in_use, (uint64_t)s->padding, m->allocations,
				 m->bytes, m->padding);
		if (s->reserved_bytes < s->bytes_in_use + s->padding)
			mismatch("%s: pool %u holds %" PRIu64 " bytes for %" PRIu64 " in use",
				 when, s->index, (uint64_t)s->reserved_bytes,
				 (uint64_t)(s->bytes_in_use + s->padding));
		live_eff += s->bytes_in_use + s->padding;
		if (model_exact)
			check_query_pages(c, s, when);
	}
	if (snap.vram_in_use < live_eff)
		mismatch("%s: client VRAM %" PRIu64 " below its live bytes %" PRIu64, when,
			 snap.vram_in_use, live_eff);
	if (model_exact && snap.vram_in_use != fzm_client_vram(&c->m))
		mismatch("%s: client VRAM %" PRIu64 ", the model's %" PRIu64 " (its pages and"
			 " the freed pages it still maps)", when, snap.vram_in_use,
			 fzm_client_vram(&c->m));
}

/* The device's VRAM in use is its start plus what its clients hold (or more
 * while freed pages stay mapped).
 */
void check_device_vram(int dev, const char *when)
{
	uint64_t sum = devs[dev].vram_start, got, sys, t0;
	bool orphans = false;
	int i;

	for (i = 0; i < nclients; i++) {
		struct fz_client *c = &clients[i];

		if (c->fd < 0 || c->dev != dev)
			continue;
		check_query(c, when);
		sum += snap.vram_in_use;
		orphans |= c->norphans > 0;
	}
	t0 = prof_start();
	got = vp_vram_in_use(devs[dev].probe);
	if (model_exact && got != devs[dev].m.in_use)
		mismatch("%s: %s VRAM_IN_USE %" PRIu64 ", the model's %" PRIu64, when,
			 devs[dev].d.name, got, devs[dev].m.in_use);
	if (orphans ? got < sum : got != sum)
		mismatch("%s: %s VRAM_IN_USE %" PRIu64 ", start + clients' %" PRIu64 "%s", when,
			 devs[dev].d.name, got, sum, orphans ? " (freed pages mapped)" : "");
	sys = vp_sysfs_dev_u64(&devs[dev].d, "vram_in_use");
	prof_end(P_VRAM, t0);
	if (sys != got)
		mismatch("%s: sysfs vram_in_use %" PRIu64 ", GET_PARAM %" PRIu64, when, sys, got);
	check_users(dev, when);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's model of a device's pools (vrampool_fuzz_model.h): the
 * documented rules, written again from the documentation, so that the
 * fuzzer predicts every placement instead of copying it. Nothing here
 * calls the driver's code; the layout resolver the fuzzer shares with the
 * driver (common/vrampool_layout.c) only gives it the layouts in force.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampool_fuzz_model.h"

#define CPU_PAGE		4096ULL
#define AVG_FRAC_BITS		16
#define AVG_MAX_INPUT		(1ULL << 47)
#define AVG_STEP_DIVISOR	100
#define IDLE_CHECKS_PER_PERIOD	5
#define IDLE_CHECKS_TO_RELEASE	5
#define NEW_PAGE_IDLE_COUNT	4

/* A route's refusals that are not an answer yet (the caller retries). */
#define FULL_VRAM	1	/* -ENOSPC, no code: VRAM cannot hold a new page */
#define PAGE_LIMIT	2	/* -EDQUOT, no code: max_pages or the VRAM quota reached */

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need * 2 + 16;
	p = realloc(p, *cap * size);
	if (!p) {
		fprintf(stderr, "fuzz model: out of memory\n");
		exit(1);
	}
	return p;
}

static bool eff_of(const struct fzm_dev *d, uint64_t size, uint64_t *eff)
{
	uint64_t a = d->alignment ? d->alignment : 1, r = size % a;

	*eff = size;
	if (!r)
		return true;
	if (size > UINT64_MAX - (a - r))
		return false;
	*eff = size + (a - r);
	return true;
}

static uint64_t cpu_page_align(uint64_t size)
{
	return size > UINT64_MAX - (CPU_PAGE - 1) ? UINT64_MAX :
	       (size + CPU_PAGE - 1) & ~(CPU_PAGE - 1);
}

static struct fzm_pool *pool_of(struct fzm_client *c, uint32_t pool)
{
	return pool == DRM_VRAMPOOL_PERSISTENT_POOL ? &c->pers : &c->pools[pool];
}

const struct fzm_pool *fzm_pool(const struct fzm_client *c, uint32_t pool)
{
	return pool_of((struct fzm_client *)c, pool);
}

static void pool_init(struct fzm_pool *p, const struct drm_vrampool_pool_entry *cfg)
{
	free(p->vacant);
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	if (cfg->type == DRM_VRAMPOOL_POOL_SLICED &&
	    (cfg->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE))
		p->max_pages = cfg->max_pool_size / cfg->page_size;
	if (cfg->type == DRM_VRAMPOOL_POOL_EXCLUSIVE)
		p->avg = (cfg->max_alloc_size / 2 < AVG_MAX_INPUT ? cfg->max_alloc_size / 2 :
			  AVG_MAX_INPUT) << AVG_FRAC_BITS;
}

static void set_layout(struct fzm_client *c, const struct drm_vrampool_pool_entry *layout,
		       uint32_t n)
{
	uint32_t i;

	for (i = 0; i < DRM_VRAMPOOL_MAX_DYNAMIC_POOLS; i++) {
		free(c->pools[i].vacant);
		memset(&c->pools[i], 0, sizeof(c->pools[i]));
	}
	for (i = 0; i < n; i++)
		pool_init(&c->pools[i], &layout[i]);
	c->npools = n;
}

void fzm_client_open(struct fzm_client *c, struct fzm_dev *dev, uint32_t user,
		     const struct drm_vrampool_pool_entry *layout, uint32_t n)
{
	struct drm_vrampool_pool_entry pers = { .type = DRM_VRAMPOOL_POOL_PERSISTENT };

	c->dev = dev;
	c->user = user;
	c->open = true;
	c->mode = DRM_VRAMPOOL_PERSISTENT_ENABLED;
	c->alloc_nr = 0;
	c->stamp = 0;
	c->id = dev->next_id++;
	c->npages = c->nlive = c->norphans = 0;
	set_layout(c, layout, n);
	pool_init(&c->pers, &pers);
}

uint64_t fzm_client_vram(const struct fzm_client *c)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < c->npages; i++)
		v += c->pages[i].vram;
	for (i = 0; i < c->norphans; i++)
		v += c->orphans[i].vram;
	return v;
}

uint64_t fzm_client_made(const struct fzm_client *c)
{
	uint64_t made = c->pers.made;
	uint32_t i;

	for (i = 0; i < c->npools; i++)
		made += c->pools[i].made;
	return made;
}

struct fzm_page *fzm_page(struct fzm_client *c, uint32_t pool, uint32_t index)
{
	uint32_t i;

	for (i = 0; i < c->npages; i++)
		if (c->pages[i].pool == pool && c->pages[i].index == index)
			return &c->pages[i];
	return NULL;
}

/* ---- Pages ------------------------------------------------------------------ */

/* A new page of @size for @pool: FULL_VRAM or PAGE_LIMIT if it cannot be. */
static int page_new(struct fzm_client *c, uint32_t pool, uint64_t size, struct fzm_page **out)
{
	struct fzm_dev *d = c->dev;
	struct fzm_user *u = &d->users[c->user];
	struct fzm_pool *p = pool_of(c, pool);
	uint64_t vram = cpu_page_align(size);
	struct fzm_page *pg;

	/* Larger than VRAM: no cleanup or reclaim is tried (DOC: reclaim). */
	if (size > d->vram_size) {
		c->hopeless = true;
		return FULL_VRAM;
	}
	if (u->pages >= d->max_pages)
		return PAGE_LIMIT;
	if (d->quota && (u->vram + vram < u->vram || u->vram + vram > d->quota)) {
		c->quota_refused = d->quota;
		c->refused_vram = vram;
		c->hopeless = vram > d->quota;
		return PAGE_LIMIT;
	}
	if (vram > d->vram_size - d->in_use) {
		c->refused_vram = vram;
		return FULL_VRAM;
	}
	c->pages = grow(c->pages, &c->pages_cap, c->npages + 1, sizeof(*c->pages));
	pg = &c->pages[c->npages++];
	memset(pg, 0, sizeof(*pg));
	pg->pool = pool;
	pg->size = size;
	pg->vram = vram;
	if (p->cfg.type == DRM_VRAMPOOL_POOL_DIRECT) {
		pg->index = p->nvacant ? p->vacant[--p->nvacant] : p->next_index++;
		pg->order = pg->index;
	} else {
		pg->index = p->next_index++;
		pg->order = p->made;
	}
	p->made++;
	p->pages++;
	if (p->pages > p->pages_peak)
		p->pages_peak = p->pages;
	p->reserved += size;
	d->in_use += vram;
	u->vram += vram;
	u->pages++;
	*out = pg;
	return 0;
}

/* Releases a page with no live allocation; a mapped one stays charged. */
static uint64_t page_release(struct fzm_client *c, struct fzm_page *pg)
{
	struct fzm_pool *p = pool_of(c, pg->pool);
	struct fzm_user *u = &c->dev->users[c->user];
	uint64_t freed = 0;

	p->pages--;
	u->pages--;
	p->reserved -= pg->size;
	if (p->cfg.type == DRM_VRAMPOOL_POOL_DIRECT) {
		p->vacant = grow(p->vacant, &p->vacant_cap, p->nvacant + 1, sizeof(*p->vacant));
		p->vacant[p->nvacant++] = pg->index;
	}
	if (pg->maps) {
		c->orphans = grow(c->orphans, &c->orphans_cap, c->norphans + 1,
				  sizeof(*c->orphans));
		c->orphans[c->norphans++] = (struct fzm_orphan){ pg->mmap_offset, pg->vram,
								 pg->maps };
	} else {
		c->dev->in_use -= pg->vram;
		u->vram -= pg->vram;
		freed = pg->vram;
	}
	*pg = c->pages[--c->npages];
	return freed;
}

/* The page of @pool to release first among those @want picks, by index or by order. */
typedef bool (*page_pred)(const struct fzm_pool *p, const struct fzm_page *pg);

static struct fzm_page *first_page(struct fzm_client *c, uint32_t pool, page_pred want,
				   bool by_index)
{
	const struct fzm_pool *p = pool_of(c, pool);
	struct fzm_page *best = NULL;
	uint32_t i;

	for (i = 0; i < c->npages; i++) {
		struct fzm_page *pg = &c->pages[i];

		if (pg->pool != pool || !want(p, pg))
			continue;
		if (!best || (by_index ? pg->index < best->index : pg->order < best->order))
			best = pg;
	}
	return best;
}

static bool page_free(const struct fzm_pool *p, const struct fzm_page *pg)
{
	(void)p;
	return !pg->live;
}

/* Every free page of @pool, lowest index (slot) first, or oldest first. */
static uint64_t release_free(struct fzm_client *c, uint32_t pool, bool by_index)
{
	struct fzm_page *pg;
	uint64_t freed = 0;

	while ((pg = first_page(c, pool, page_free, by_index)))
		freed += page_release(c, pg);
	return freed;
}

/* ---- Slices ------------------------------------------------------------------ */

/* The start of the lowest hole of @pg that takes @eff bytes, or UINT64_MAX. */
static uint64_t lowest_hole(const struct fzm_client *c, const struct fzm_page *pg, uint64_t eff)
{
	uint64_t pos = 0, next;
	uint32_t i;

	for (;;) {
		const struct fzm_alloc *first = NULL;

		/* The live slice of the page that starts first at or after pos. */
		for (i = 0; i < c->nlive; i++) {
			const struct fzm_alloc *a = &c->live[i];

			if (a->pool != pg->pool || a->page != pg->index || !a->eff ||
			    a->offset < pos)
				continue;
			if (!first || a->offset < first->offset)
				first = a;
		}
		next = first ? first->offset : pg->size;
		if (next - pos >= eff)
			return pos;
		if (!first)
			return UINT64_MAX;
		pos = first->offset + first->eff;
	}
}

/* ---- The pool types ------------------------------------------------------------ */

struct placed {
	struct fzm_page *page;
	uint64_t offset;
};

static int sliced_alloc(struct fzm_client *c, uint32_t pool, uint64_t eff, struct placed *pl,
			bool *full)
{
	struct fzm_pool *p = pool_of(c, pool);
	struct fzm_page *best = NULL;
	uint64_t at = 0, h;
	uint32_t i;
	int ret;

	for (i = 0; i < c->npages; i++) {
		struct fzm_page *pg = &c->pages[i];

		if (pg->pool != pool || (best && pg->order > best->order))
			continue;
		h = lowest_hole(c, pg, eff);
		if (h != UINT64_MAX) {
			best = pg;
			at = h;
		}
	}
	if (best) {
		pl->page = best;
		pl->offset = at;
		return 0;
	}
	if (p->max_pages && p->pages >= p->max_pages) {
		*full = true;
		return -ENOSPC;
	}
	ret = page_new(c, pool, p->cfg.page_size, &pl->page);
	pl->offset = 0;
	return ret;
}

static void exclusive_average(struct fzm_pool *p, uint64_t size)
{
	uint64_t s = (size < AVG_MAX_INPUT ? size : AVG_MAX_INPUT) << AVG_FRAC_BITS;

	if (s >= p->avg)
		p->avg += (s - p->avg) / AVG_STEP_DIVISOR;
	else
		p->avg -= (p->avg - s) / AVG_STEP_DIVISOR;
}

static int exclusive_alloc(struct fzm_client *c, uint32_t pool, uint64_t size,
			   struct placed *pl)
{
	struct fzm_pool *p = pool_of(c, pool);
	struct fzm_page *best = NULL;
	uint64_t want;
	uint32_t i;
	int ret;

	exclusive_average(p, size);
	for (i = 0; i < c->npages; i++) {
		struct fzm_page *pg = &c->pages[i];

		if (pg->pool != pool || pg->live || pg->size < size)
			continue;
		if (!best || pg->idle < best->idle ||
		    (pg->idle == best->idle && pg->order < best->order))
			best = pg;
	}
	pl->offset = 0;
	if (best) {
		if (best->idle)
			best->idle--;
		pl->page = best;
		return 0;
	}
	want = p->avg >> AVG_FRAC_BITS;
	if (want < size)
		want = size;
	eff_of(c->dev, want, &want);
	ret = page_new(c, pool, want, &pl->page);
	if (!ret)
		pl->page->idle = NEW_PAGE_IDLE_COUNT;
	return ret;
}

static bool free_of_size(const struct fzm_page *pg, uint64_t eff)
{
	return !pg->live && pg->size == eff;
}

/* Direct and persistent: the free buffer of the size first in order, else a new one. */
static int buffer_alloc(struct fzm_client *c, uint32_t pool, uint64_t eff, struct placed *pl)
{
	struct fzm_page *best = NULL;
	uint32_t i;

	for (i = 0; i < c->npages; i++) {
		struct fzm_page *pg = &c->pages[i];

		if (pg->pool == pool && free_of_size(pg, eff) && (!best || pg->order < best->order))
			best = pg;
	}
	pl->offset = 0;
	if (best) {
		pl->page = best;
		return 0;
	}
	return page_new(c, pool, eff, &pl->page);
}

static bool above_watermark(const struct fzm_pool *p, uint64_t eff)
{
	return p->reserved > UINT64_MAX - eff || p->reserved + eff > p->cfg.reclaim_at;
}

static int direct_alloc(struct fzm_client *c, uint32_t pool, uint64_t eff, struct placed *pl)
{
	struct fzm_pool *p = pool_of(c, pool);
	struct fzm_page *pg;
	bool found = false;
	uint32_t i;

	for (i = 0; i < c->npages && !found; i++)
		found = c->pages[i].pool == pool && free_of_size(&c->pages[i], eff);
	if ((p->cfg.flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT) && !found)
		while (above_watermark(p, eff) && (pg = first_page(c, pool, page_free, true)))
			page_release(c, pg);
	return buffer_alloc(c, pool, eff, pl);
}

/* ---- Routing ----------------------------------------------------------------------- */

static bool pers_has_size(const struct fzm_client *c, uint64_t size)
{
	uint64_t eff;
	uint32_t i;

	if (!eff_of(c->dev, size, &eff))
		return false;
	for (i = 0; i < c->npages; i++)
		if (c->pages[i].pool == DRM_VRAMPOOL_PERSISTENT_POOL && c->pages[i].size == eff)
			return true;
	return false;
}

static bool wants_persistent(const struct fzm_client *c, uint64_t size, uint32_t flags)
{
	switch (c->mode) {
	case DRM_VRAMPOOL_PERSISTENT_DISABLED:
		return false;
	case DRM_VRAMPOOL_PERSISTENT_ENFORCED:
		return true;
	case DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH:
		return (flags & DRM_VRAMPOOL_ALLOC_PERSISTENT) || pers_has_size(c, size);
	default:
		return flags & DRM_VRAMPOOL_ALLOC_PERSISTENT;
	}
}

/* (page - size) * 5 < page, as unbounded integers, for size <= page. */
static bool near_page(uint64_t page, uint64_t size)
{
	return page && page - size <= (page - 1) / 5;
}

static bool accepts(const struct fzm_client *c, const struct fzm_pool *p, uint64_t size)
{
	uint64_t page = p->cfg.page_size, m, eff;

	switch (p->cfg.type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return size <= p->cfg.max_alloc_size;
	case DRM_VRAMPOOL_POOL_SLICED:
		m = p->cfg.max_slice_size < page ? p->cfg.max_slice_size : page;
		if (size <= m)
			return true;
		return !p->max_pages && size <= page && near_page(page, size);
	default:
		return eff_of(c->dev, size, &eff);
	}
}

bool fzm_routable(const struct fzm_client *c, uint64_t size, uint32_t flags)
{
	uint64_t eff;
	bool pers = eff_of(c->dev, size, &eff);
	uint32_t i;

	if (c->mode == DRM_VRAMPOOL_PERSISTENT_ENFORCED ||
	    (c->mode != DRM_VRAMPOOL_PERSISTENT_DISABLED && (flags & DRM_VRAMPOOL_ALLOC_PERSISTENT)))
		return pers;
	if (c->mode == DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH && pers)
		return true;
	for (i = 0; i < c->npools; i++)
		if (accepts(c, &c->pools[i], size))
			return true;
	return false;
}

/* One pool serves @size: 0, -ENOSPC with *full, FULL_VRAM or PAGE_LIMIT. */
static int pool_alloc(struct fzm_client *c, uint32_t pool, uint64_t size, struct fzm_answer *ans,
		      bool *full)
{
	struct fzm_pool *p = pool_of(c, pool);
	struct placed pl = { NULL, 0 };
	/* Pages made, not counted: a direct pool may release some first. */
	uint64_t made = p->made;
	struct fzm_alloc *a;
	uint64_t eff = 0;
	int ret = 0;

	*full = false;
	if (size) {
		eff_of(c->dev, size, &eff);
		switch (p->cfg.type) {
		case DRM_VRAMPOOL_POOL_SLICED:
			ret = sliced_alloc(c, pool, eff, &pl, full);
			break;
		case DRM_VRAMPOOL_POOL_EXCLUSIVE:
			ret = exclusive_alloc(c, pool, size, &pl);
			break;
		case DRM_VRAMPOOL_POOL_DIRECT:
			ret = direct_alloc(c, pool, eff, &pl);
			break;
		default:
			ret = buffer_alloc(c, pool, eff, &pl);
			break;
		}
		if (ret)
			return ret;
	}
	c->live = grow(c->live, &c->live_cap, c->nlive + 1, sizeof(*c->live));
	a = &c->live[c->nlive];
	memset(a, 0, sizeof(*a));
	a->pool = pool;
	a->size = size;
	a->eff = eff;
	a->offset = pl.offset;
	a->page = pl.page ? pl.page->index : DRM_VRAMPOOL_NO_PAGE;
	if (pl.page)
		pl.page->live++;
	p->allocations++;
	p->bytes += size;
	p->padding += eff - size;
	if (size > p->largest)
		p->largest = size;
	ans->alloc = (int32_t)c->nlive++;
	ans->pool = pool;
	ans->page = a->page;
	ans->offset = a->offset;
	ans->padding = eff - size;
	ans->page_size = pl.page ? pl.page->size : 0;
	ans->new_page = p->made > made;
	return 0;
}

static int route(struct fzm_client *c, uint64_t size, uint32_t flags, struct fzm_answer *ans)
{
	int last_full = -1, ret;
	bool full;
	uint32_t i;

	if (wants_persistent(c, size, flags)) {
		if (!accepts(c, &c->pers, size))
			goto too_big;
		return pool_alloc(c, DRM_VRAMPOOL_PERSISTENT_POOL, size, ans, &full);
	}
	for (i = 0; i < c->npools; i++) {
		if (!accepts(c, &c->pools[i], size))
			continue;
		ret = pool_alloc(c, i, size, ans, &full);
		if (!full)
			return ret;
		last_full = (int)i;
	}
	if (last_full < 0)
		goto too_big;
	ans->err = -ENOSPC;
	ans->code = DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED;
	ans->err_pool = (uint32_t)last_full;
	ans->capacity = c->pools[last_full].max_pages * c->pools[last_full].cfg.page_size;
	ans->in_use = c->pools[last_full].bytes;
	return ans->err;
too_big:
	ans->err = -EFBIG;
	ans->code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
	return ans->err;
}

/* ---- Cleanup, periodic checks, reclaim ---------------------------------------------- */

static uint64_t exclusive_check(struct fzm_client *c, uint32_t pool, bool explicit)
{
	struct fzm_pool *p = &c->pools[pool];
	uint64_t freed = 0;
	uint32_t i;

	p->last_check = c->alloc_nr;
	for (i = 0; i < c->npages;) {
		struct fzm_page *pg = &c->pages[i];

		if (pg->pool != pool || pg->live) {
			i++;
			continue;
		}
		pg->idle++;
		if (explicit || pg->idle >= IDLE_CHECKS_TO_RELEASE)
			freed += page_release(c, pg);	/* the last page moved to i */
		else
			i++;
	}
	return freed;
}

static void periodic(struct fzm_client *c)
{
	uint32_t i;

	for (i = 0; i < c->npools; i++) {
		struct fzm_pool *p = &c->pools[i];

		if (p->cfg.type != DRM_VRAMPOOL_POOL_EXCLUSIVE ||
		    !(p->cfg.flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD))
			continue;
		if (c->alloc_nr - p->last_check >= p->cfg.dealloc_period / IDLE_CHECKS_PER_PERIOD)
			exclusive_check(c, i, false);
	}
}

static uint64_t cleanup(struct fzm_client *c)
{
	uint64_t freed = release_free(c, DRM_VRAMPOOL_PERSISTENT_POOL, true);
	uint32_t i;

	for (i = 0; i < c->npools; i++) {
		switch (c->pools[i].cfg.type) {
		case DRM_VRAMPOOL_POOL_EXCLUSIVE:
			freed += exclusive_check(c, i, true);
			break;
		case DRM_VRAMPOOL_POOL_SLICED:
			freed += release_free(c, i, false);
			break;
		default:
			freed += release_free(c, i, true);
			break;
		}
	}
	return freed;
}

void fzm_cleanup(struct fzm_client *c)
{
	cleanup(c);
}

static uint64_t purgeable(const struct fzm_client *c)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < c->npages; i++)
		if (!c->pages[i].live)
			v += c->pages[i].vram;
	return v;
}

/* What a trim must give back, and what it gave: charged VRAM and pages. */
struct trim_goal {
	uint64_t vram_goal, pages_goal;
};

static bool trim_done(const struct fzm_client *o, const struct trim_goal *g)
{
	return fzm_client_vram(o) <= g->vram_goal && o->npages <= g->pages_goal;
}

/* Free pages of @pool, by index (or oldest first), until @g is met. */
static void trim_pool(struct fzm_client *o, uint32_t pool, bool by_index,
		      const struct trim_goal *g)
{
	struct fzm_page *pg;

	while (!trim_done(o, g) && (pg = first_page(o, pool, page_free, by_index)))
		page_release(o, pg);
}

/*
 * The kernel's vrampool_client_trim(): an explicit cleanup's pages, single-
 * allocation ones by index, sliced ones oldest first, the persistent pool
 * first, until @want_vram and @want_pages went back.
 */
static void trim(struct fzm_client *o, uint64_t want_vram, uint64_t want_pages)
{
	uint64_t vram = fzm_client_vram(o);
	struct trim_goal g = {
		.vram_goal = vram - (want_vram < vram ? want_vram : vram),
		.pages_goal = o->npages - (want_pages < o->npages ? want_pages : o->npages),
	};
	uint32_t i;

	trim_pool(o, DRM_VRAMPOOL_PERSISTENT_POOL, true, &g);
	for (i = 0; i < o->npools && !trim_done(o, &g); i++)
		trim_pool(o, i, o->pools[i].cfg.type != DRM_VRAMPOOL_POOL_SLICED, &g);
}

/* What the next step must give back (the kernel's reclaim_want()). */
static void reclaim_want(const struct fzm_client *c, int refused, uint64_t *want_vram,
			 uint64_t *want_pages)
{
	const struct fzm_dev *d = c->dev;
	const struct fzm_user *u = &d->users[c->user];
	uint64_t size = c->refused_vram, have;

	*want_vram = 0;
	*want_pages = 0;
	if (refused == FULL_VRAM) {
		have = d->vram_size - (d->in_use < d->vram_size ? d->in_use : d->vram_size);
	} else if (c->quota_refused) {
		have = c->quota_refused - (u->vram < c->quota_refused ? u->vram : c->quota_refused);
	} else {
		*want_pages = u->pages >= d->max_pages ? u->pages - d->max_pages + 1 : 1;
		return;
	}
	*want_vram = size - (size < have ? size : have);
	if (!*want_vram)
		*want_vram = 1;
}

/*
 * Other clients' free pages (of the user's other clients only, when its
 * limits refused: @same_user), the oldest ALLOC stamp first, each giving
 * only what the refused page needs, again while it gives, until the
 * request fits or is refused otherwise; none when VRAM or the quota
 * refused a page that all their free pages could not make room for.
 */
static int route_reclaiming(struct fzm_client *c, struct fzm_client *const *others, int n,
			    uint64_t size, uint32_t flags, struct fzm_answer *ans, bool same_user)
{
	bool *visited = calloc((size_t)n + 1, sizeof(bool));
	int refused = same_user ? PAGE_LIMIT : FULL_VRAM;
	int ret = refused, i, best = -1;

	if (!visited)
		exit(1);
	{
		uint64_t cached = 0, want_vram, want_pages;

		/* More than all the others' caches: nobody's is touched. */
		for (i = 0; i < n; i++)
			if (others[i] != c && others[i]->open && others[i]->dev == c->dev &&
			    (!same_user || others[i]->user == c->user))
				cached += purgeable(others[i]);
		reclaim_want(c, refused, &want_vram, &want_pages);
		if (!want_pages && want_vram > cached) {
			free(visited);
			return ret;
		}
	}
	for (;;) {
		uint64_t want_vram, want_pages, vram, pages, got;

		if (best < 0) {
			for (i = 0; i < n; i++) {
				const struct fzm_client *o = others[i];

				if (o == c || !o->open || o->dev != c->dev || visited[i] ||
				    (same_user && o->user != c->user))
					continue;
				if (best < 0 || o->stamp < others[best]->stamp ||
				    (o->stamp == others[best]->stamp && o->id < others[best]->id))
					best = i;
			}
			if (best < 0)
				break;
			visited[best] = true;
		}
		reclaim_want(c, refused, &want_vram, &want_pages);
		vram = fzm_client_vram(others[best]);
		pages = others[best]->npages;
		trim(others[best], want_vram, want_pages);
		got = want_pages ? pages - others[best]->npages
				 : vram - fzm_client_vram(others[best]);
		if (!got) {
			best = -1;	/* nothing more: the next client */
			continue;
		}
		c->quota_refused = 0;
		ret = route(c, size, flags, ans);
		if (ret != refused || ans->code)
			break;
	}
	free(visited);
	return ret;
}

void fzm_alloc(struct fzm_client *c, struct fzm_client *const *others, int nothers,
	       uint64_t size, uint32_t flags, struct fzm_answer *ans)
{
	int ret;

	memset(ans, 0, sizeof(*ans));
	ans->alloc = -1;
	c->alloc_nr++;
	c->stamp = ++c->dev->clock;
	c->quota_refused = 0;
	c->refused_vram = 0;
	c->hopeless = false;
	periodic(c);
	ret = route(c, size, flags, ans);
	if ((ret != FULL_VRAM && ret != PAGE_LIMIT) || ans->code)
		return;
	if (c->hopeless)
		goto refused;
	cleanup(c);
	c->quota_refused = 0;
	ret = route(c, size, flags, ans);
	if (ret == PAGE_LIMIT && !ans->code)
		ret = route_reclaiming(c, others, nothers, size, flags, ans, true);
	if (ret == FULL_VRAM && !ans->code)
		ret = route_reclaiming(c, others, nothers, size, flags, ans, false);
	if (ans->code || !ret)
		return;
refused:
	ans->err = ret == FULL_VRAM ? -ENOSPC : -EDQUOT;
	if (ret == FULL_VRAM) {
		ans->code = DRM_VRAMPOOL_ERR_OUT_OF_MEMORY;
	} else if (c->quota_refused) {
		ans->code = DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED;
		ans->capacity = c->quota_refused;
		ans->in_use = c->dev->users[c->user].vram;
	} else {
		ans->code = DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
		ans->err_pool = DRM_VRAMPOOL_LIMIT_PAGES;
		ans->capacity = c->dev->max_pages;
		ans->in_use = c->dev->users[c->user].pages;
	}
}

/* ---- FREE, install, close, mappings ---------------------------------------------- */

int fzm_find(const struct fzm_client *c, uint32_t handle)
{
	uint32_t i;

	for (i = 0; i < c->nlive; i++)
		if (c->live[i].handle == handle)
			return (int)i;
	return -1;
}

static void free_at(struct fzm_client *c, uint32_t i)
{
	struct fzm_alloc *a = &c->live[i];
	struct fzm_pool *p = pool_of(c, a->pool);
	struct fzm_page *pg;

	p->allocations--;
	p->bytes -= a->size;
	p->padding -= a->eff - a->size;
	if (a->size) {
		pg = fzm_page(c, a->pool, a->page);
		if (pg)
			pg->live--;
	}
	*a = c->live[--c->nlive];
}

void fzm_free(struct fzm_client *c, uint32_t handle)
{
	int i = fzm_find(c, handle);

	if (i >= 0)
		free_at(c, (uint32_t)i);
}

void fzm_batch_undo(struct fzm_client *c, uint32_t placed, uint64_t made_before)
{
	/* The batch's allocations are the last @placed of live[], in order. */
	while (placed--)
		free_at(c, c->nlive - 1);
	if (fzm_client_made(c) != made_before)
		cleanup(c);
}

void fzm_install(struct fzm_client *c, const struct drm_vrampool_pool_entry *layout,
		 uint32_t n)
{
	cleanup(c);
	set_layout(c, layout, n);
}

void fzm_client_close(struct fzm_client *c)
{
	while (c->nlive)
		free_at(c, c->nlive - 1);
	while (c->npages)
		page_release(c, &c->pages[c->npages - 1]);
	while (c->norphans) {
		c->dev->in_use -= c->orphans[--c->norphans].vram;
		c->dev->users[c->user].vram -= c->orphans[c->norphans].vram;
	}
	c->open = false;
}

void fzm_map(struct fzm_client *c, uint64_t mmap_offset)
{
	uint32_t i;

	for (i = 0; i < c->npages; i++)
		if (c->pages[i].mmap_offset == mmap_offset)
			c->pages[i].maps++;
}

void fzm_unmap(struct fzm_client *c, uint64_t mmap_offset)
{
	uint32_t i;

	for (i = 0; i < c->npages; i++)
		if (c->pages[i].mmap_offset == mmap_offset && c->pages[i].maps)
			c->pages[i].maps--;
	for (i = 0; i < c->norphans; i++) {
		struct fzm_orphan *o = &c->orphans[i];

		if (o->mmap_offset != mmap_offset || --o->maps)
			continue;
		c->dev->in_use -= o->vram;
		c->dev->users[c->user].vram -= o->vram;
		*o = c->orphans[--c->norphans];
		return;
	}
}

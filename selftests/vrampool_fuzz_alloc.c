// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's ALLOC: the sizes it asks for (pool edges, big and odd
 * ones), the plan of a request (valid, almost valid, hostile), and the
 * checks of the answer: the placement a success must have and the error a
 * refusal must carry.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- ALLOC ----------------------------------------------------------------- */

static uint64_t pool_edge(const struct fz_client *c)
{
	const struct drm_vrampool_pool_entry *e;
	uint64_t v;

	if (!c->num_pools)
		return 1;
	e = &c->layout[rnd(c->num_pools)];
	switch (e->type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		v = rnd(2) ? e->max_slice_size : e->page_size;
		break;
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		v = e->max_alloc_size;
		break;
	default:
		v = 1 + rnd(64 * KiB);
	}
	return v + rnd(3) - 1;
}

uint64_t gen_size(const struct fz_client *c)
{
	const struct fz_dev *d = &devs[c->dev];
	uint64_t a = d->p.alignment;
	uint64_t s;

	switch (rnd(40)) {
	case 0: case 1: case 2: return 0;
	case 3: case 4: return 1;
	case 5: return a - 1;
	case 6: return a;
	case 7: return a + 1;
	case 8: case 9: case 10: s = pool_edge(c); break;
	case 11: s = rnd(chance(16) ? BIG_SIZE : 256 * KiB) + 1; break;
	case 12:
		switch (rnd(6)) {
		case 0: return UINT64_MAX;
		case 1: return UINT64_MAX - a + 2;
		case 2: return 1ULL << 63;
		case 3: return d->p.vram_size;
		case 4: return d->p.vram_size + 1;
		default: s = d->p.max_page_size + rnd(3) - 1; break;
		}
		break;
	case 13: case 14: case 15: case 16: s = VP_CPU_PAGE + rnd(3) - 1; break;
	default: s = 1 + rnd(rnd(4) ? 2048 : 64 * KiB); break;
	}
	/* Keep the pattern work small: big sizes stay rare. */
	if (s > BIG_SIZE && !chance(32))
		s = 1 + rnd(64 * KiB);
	return s;
}

void plan_alloc(const struct fz_client *c, const struct drm_vrampool_alloc *req,
		struct alloc_plan *p)
{
	const struct fz_dev *d = &devs[c->dev];
	bool want_pers = false, maybe_pers = false, pers_accepts, any = false;
	uint32_t i;

	memset(p, 0, sizeof(*p));
	if ((req->flags & ~DRM_VRAMPOOL_ALLOC_FLAGS) || req->pad || req->pad2 ||
	    req->reserved[0] || req->reserved[1]) {
		p->err = -EINVAL;
		return;
	}
	if (user_nlive(c) >= max_allocations) {
		p->err = -EDQUOT;
		p->code = DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
		p->limit = DRM_VRAMPOOL_LIMIT_ALLOCATIONS;
		return;
	}
	eff_size(d, req->size, &pers_accepts);
	switch (c->mode) {
	case DRM_VRAMPOOL_PERSISTENT_ENFORCED:
		want_pers = true;
		break;
	case DRM_VRAMPOOL_PERSISTENT_DISABLED:
		break;
	case DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH:
		want_pers = req->flags & DRM_VRAMPOOL_ALLOC_PERSISTENT;
		maybe_pers = !want_pers && pers_accepts;
		break;
	default:
		want_pers = req->flags & DRM_VRAMPOOL_ALLOC_PERSISTENT;
	}
	if (want_pers) {
		if (!pers_accepts) {
			p->err = -EFBIG;
			p->code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
			return;
		}
		p->pers_ok = p->pers_must = true;
		return;
	}
	p->pers_ok = maybe_pers;
	p->capacity_ok = true;
	for (i = 0; i < c->num_pools; i++) {
		if (!pool_accepts(d, &c->layout[i], req->size))
			continue;
		any = true;
		p->dyn[i] = true;
		if (!capped(&c->layout[i])) {
			p->capacity_ok = false;
			break;
		}
		p->last_capped = i;
	}
	if (!any) {
		p->capacity_ok = false;
		p->efbig_ok = maybe_pers;
		if (!maybe_pers) {
			p->err = -EFBIG;
			p->code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
		}
	}
}

void check_alloc_placement(struct fz_client *c, const struct drm_vrampool_alloc *a)
{
	const struct fz_dev *d = &devs[c->dev];
	uint64_t eff;
	bool ok;
	int i;

	if (!a->handle)
		mismatch("ALLOC(%" PRIu64 ", flags %#x) answered handle 0 (pool %u page %#x offset %"
			 PRIu64 " mmap_offset %#" PRIx64 " code %u; FREE(0) then: %s)", (uint64_t)a->size, a->flags,
			 a->pool, a->page, (uint64_t)a->offset, (uint64_t)a->mmap_offset,
			 a->error.code, ename(vp_free(c->fd, 0)));
	for (i = 0; i < c->nlive; i++)
		if (c->live[i].handle == a->handle)
			mismatch("ALLOC gave handle %u, still live", a->handle);
	if (!a->size) {
		if (a->page != DRM_VRAMPOOL_NO_PAGE || a->offset || a->padding || a->mmap_offset ||
		    a->page_size)
			mismatch("zero-size ALLOC: page %#x offset %" PRIu64 " padding %" PRIu64
				 " mmap_offset %#" PRIx64 " page_size %" PRIu64 ", want a page-less"
				 " answer", a->page, (uint64_t)a->offset, (uint64_t)a->padding,
				 (uint64_t)a->mmap_offset, (uint64_t)a->page_size);
		return;
	}
	eff = eff_size(d, a->size, &ok);
	if (a->page == DRM_VRAMPOOL_NO_PAGE || !a->mmap_offset || a->mmap_offset % VP_CPU_PAGE ||
	    a->offset % d->p.alignment || a->padding != eff - a->size ||
	    a->offset + eff > a->page_size || a->offset + eff < a->offset)
		mismatch("ALLOC(%" PRIu64 ") placed at page %u offset %" PRIu64 " padding %"
			 PRIu64 " in %" PRIu64 " bytes at %#" PRIx64 " (alignment %" PRIu64 ")",
			 (uint64_t)a->size, a->page, (uint64_t)a->offset, (uint64_t)a->padding,
			 (uint64_t)a->page_size, (uint64_t)a->mmap_offset, d->p.alignment);
	for (i = 0; i < c->nlive; i++) {
		const struct fz_alloc *l = &c->live[i];
		bool same_page = l->pool == a->pool && l->page == a->page && l->size;

		if (!l->size)
			continue;
		if (same_page != (l->mmap_offset == a->mmap_offset))
			mismatch("allocation %u (pool %u page %u at %#" PRIx64 ") and the new one"
				 " (pool %u page %u at %#" PRIx64 "): pages and mmap offsets disagree",
				 l->handle, l->pool, l->page, l->mmap_offset, a->pool, a->page,
				 (uint64_t)a->mmap_offset);
		if (same_page && a->offset < l->offset + l->size + l->padding &&
		    l->offset < a->offset + eff)
			mismatch("the new allocation [%" PRIu64 ", +%" PRIu64 ") overlaps %u [%"
				 PRIu64 ", +%" PRIu64 ") in pool %u page %u", (uint64_t)a->offset,
				 eff, l->handle, l->offset, l->size + l->padding, a->pool, a->page);
	}
}

void check_alloc_error(struct fz_client *c, const struct drm_vrampool_alloc *req,
		       const struct drm_vrampool_alloc *a, int ret,
		       const struct alloc_plan *p)
{
	const struct drm_vrampool_alloc_error *e = &a->error;
	bool ok = false;

	if (p->err) {
		ok = ret == p->err;
		if (ok && p->code)
			ok = e->code == p->code && e->size == req->size &&
			     (p->code != DRM_VRAMPOOL_ERR_CLIENT_LIMIT ||
			      (e->pool == p->limit && e->capacity == max_allocations &&
			       e->in_use == user_nlive(c)));
		if (!ok)
			mismatch("ALLOC(%" PRIu64 ", flags %#x): %s code %u pool %u, want %s code %u",
				 (uint64_t)req->size, req->flags, ename(ret), e->code, e->pool,
				 ename(p->err), p->code);
		return;
	}
	if (ret == -ENOSPC && e->code == DRM_VRAMPOOL_ERR_OUT_OF_MEMORY && e->size == req->size)
		ok = true;
	if (ret == -ENOSPC && e->code == DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED &&
	    p->capacity_ok && e->pool == p->last_capped && e->size == req->size)
		ok = true;
	if (ret == -EFBIG && e->code == DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG && p->efbig_ok)
		ok = true;
	if (ret == -EDQUOT && e->code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT &&
	    e->pool == DRM_VRAMPOOL_LIMIT_PAGES && e->capacity == max_pages)
		ok = true;
	if (!ok)
		mismatch("ALLOC(%" PRIu64 ", flags %#x, mode %u): %s code %u pool %u; want success"
			 " or OutOfMemory%s", (uint64_t)req->size, req->flags, c->mode, ename(ret),
			 e->code, e->pool, p->capacity_ok ? " or PoolCapacityExceeded" : "");
	check_device_bytes(c->dev, "after VRAM pressure");
}

/* A served allocation into the model: live, and counted in its pool. */
struct fz_alloc *model_keep(struct fz_client *c, const struct drm_vrampool_alloc *a)
{
	struct fz_alloc *l = &c->live[c->nlive++];
	struct fz_pool *ps = pool_stats(c, a->pool);

	allocs_made++;
	memset(l, 0, sizeof(*l));
	l->handle = a->handle;
	l->pool = a->pool;
	l->page = a->page;
	l->size = a->size;
	l->offset = a->offset;
	l->padding = a->padding;
	l->mmap_offset = a->mmap_offset;
	l->page_size = a->page_size;
	ps->allocations++;
	ps->bytes += a->size;
	ps->padding += a->padding;
	return l;
}

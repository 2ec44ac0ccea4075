// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's predictions of ALLOC (every run but fail-nth ones): each
 * answer predicted from the model's state and the documented rules, never
 * from the kernel's answer, then compared field by field; new allocations
 * filled and mapped; the ALLOC step itself.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- The model's predictions (every run but fail-nth ones) ---------------------- */

static struct fzm_client *model_all[MAX_CLIENTS];

/* The model's ALLOC of @size with @flags by @c: what the kernel must answer. */
void model_alloc(struct fz_client *c, uint64_t size, uint32_t flags, struct fzm_answer *p)
{
	int i;

	for (i = 0; i < nclients; i++)
		model_all[i] = &clients[i].m;
	fzm_alloc(&c->m, model_all, nclients, size, flags, p);
}

/* Whether an ALLOC that the kernel runs (past its argument and limit checks) is one the model runs. */
static bool modelled(const struct alloc_plan *plan)
{
	return model_exact && plan->err != -EINVAL && plan->code != DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
}

static bool mmap_offset_taken(const struct fz_client *c, const struct fzm_page *self,
			      uint64_t off)
{
	uint32_t i;

	for (i = 0; i < c->m.npages; i++)
		if (&c->m.pages[i] != self && c->m.pages[i].mmap_offset == off)
			return true;
	for (i = 0; i < c->m.norphans; i++)
		if (c->m.orphans[i].mmap_offset == off)
			return true;
	return false;
}

/*
 * An answer against the model's prediction @p: the same error with the
 * same payload, or the same pool, page, offset, padding and page size. A
 * page the model makes takes the mmap offset the kernel gives it (which no
 * other page of the client holds), and every later answer that names the
 * page must give that offset.
 */
void check_predicted(struct fz_client *c, const char *what, uint64_t size, uint32_t flags,
		     int ret, const struct drm_vrampool_alloc_error *err,
		     const struct drm_vrampool_alloc_answer *ans, const struct fzm_answer *p)
{
	struct drm_vrampool_alloc_error want = { .code = p->code, .size = p->err ? size : 0 };
	struct fzm_page *pg;

	if (p->code == DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED ||
	    p->code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT || p->code == DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED) {
		want.pool = p->err_pool;
		want.capacity = p->capacity;
		want.in_use = p->in_use;
	}
	if (ret != p->err || memcmp(err, &want, sizeof(want)))
		mismatch("%s(%" PRIu64 ", flags %#x, mode %u): %s code %u pool %u capacity %" PRIu64
			 " in use %" PRIu64 "; the model: %s code %u pool %u capacity %" PRIu64
			 " in use %" PRIu64 " (pool %u page %#x)", what, size, flags, c->m.mode,
			 ename(ret), err->code, err->pool, (uint64_t)err->capacity,
			 (uint64_t)err->in_use, ename(p->err), want.code, want.pool, (uint64_t)want.capacity,
			 (uint64_t)want.in_use, p->pool, p->page);
	if (ret)
		return;
	if (ans->pool != p->pool || ans->page != p->page || ans->offset != p->offset ||
	    ans->padding != p->padding || ans->page_size != p->page_size)
		mismatch("%s(%" PRIu64 ", flags %#x, mode %u): pool %u page %#x offset %" PRIu64
			 " padding %" PRIu64 " page size %" PRIu64 "; the model: pool %u page %#x"
			 " offset %" PRIu64 " padding %" PRIu64 " page size %" PRIu64 "%s", what,
			 size, flags, c->m.mode, ans->pool, ans->page, (uint64_t)ans->offset,
			 (uint64_t)ans->padding, (uint64_t)ans->page_size, p->pool, p->page,
			 p->offset, p->padding, p->page_size, p->new_page ? " (a new page)" : "");
	c->m.live[p->alloc].handle = ans->handle;
	if (!size)
		return;
	pg = fzm_page(&c->m, p->pool, p->page);
	/*
	 * A new page, or one no answer showed yet (a refused batch keeps the
	 * pages it made when a cleanup on its way released as many).
	 */
	if (p->new_page || !pg->mmap_offset) {
		if (mmap_offset_taken(c, pg, ans->mmap_offset))
			mismatch("%s(%" PRIu64 "): a page first seen (pool %u page %u) at mmap offset"
				 " %#" PRIx64 ", which another page of the client holds", what, size,
				 p->pool, p->page, (uint64_t)ans->mmap_offset);
		pg->mmap_offset = ans->mmap_offset;
	} else if (pg->mmap_offset != ans->mmap_offset) {
		mismatch("%s(%" PRIu64 "): pool %u page %u at mmap offset %#" PRIx64 ", earlier at %#"
			 PRIx64, what, size, p->pool, p->page, (uint64_t)ans->mmap_offset,
			 pg->mmap_offset);
	}
}

void alloc_answer_of(const struct drm_vrampool_alloc *a,
		     struct drm_vrampool_alloc_answer *ans)
{
	*ans = (struct drm_vrampool_alloc_answer){
		.handle = a->handle, .pool = a->pool, .page = a->page, .offset = a->offset,
		.padding = a->padding, .mmap_offset = a->mmap_offset, .page_size = a->page_size,
	};
}

/*
 * A new allocation, just mapped: the model counts the mapping; in a page
 * the model says is new its bytes must read zero (VRAM cleared for it);
 * then it takes its pattern, and its neighbours in the page keep theirs.
 */
static void fill_new(struct fz_client *c, struct fz_alloc *l, bool new_page)
{
	uint64_t t0;
	ssize_t nz;

	fzm_map(&c->m, l->mmap_offset);
	if (new_page) {
		t0 = prof_start();
		nz = vp_first_nonzero(l->map + l->offset, l->size);
		prof_end(P_CHECK, t0);
		if (nz >= 0)
			mismatch("allocation %u (%" PRIu64 " bytes) in a new page (pool %u page %u):"
				 " byte %zd is not zero", l->handle, l->size, l->pool, l->page, nz);
	}
	t0 = prof_start();
	vp_fill_words(l->map + l->offset, 0, l->size, l->seed);
	prof_end(P_FILL, t0);
	check_alloc_placement_bytes(c, l);
}

/* A batch's allocation, mapped and filled like a single ALLOC's. */
void map_fill(struct fz_client *c, struct fz_alloc *l, bool new_page)
{
	uint64_t t0;

	l->seed = (uint32_t)rnd64();
	if (!l->size)
		return;
	l->map_len = map_len_of(l->page_size);
	t0 = prof_start();
	l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, l->mmap_offset);
	prof_end(P_MMAP, t0);
	if (l->map == MAP_FAILED)
		mismatch("mmap of a batch allocation's page (%#" PRIx64 ", %zu bytes): %s",
			 l->mmap_offset, l->map_len, strerror(errno));
	fill_new(c, l, new_page);
}

void do_alloc(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_alloc_answer ans;
	struct drm_vrampool_alloc req, a;
	struct fzm_answer pred;
	struct alloc_plan plan;
	struct fz_alloc *l;
	int ret;

	op_name = "ALLOC";
	/* At the fuzzer's own limit, a FREE rather than nothing. */
	if (c->nlive >= MAX_LIVE) {
		do_free(c, false);
		return;
	}
	memset(&req, 0, sizeof(req));
	req.size = gen_size(c);
	if (chance(6))
		req.flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
	if (hostile) {
		switch (rnd(5)) {
		case 0: req.flags = (uint32_t)rnd64() | (1u << (1 + rnd(31))); break;
		case 1: req.pad = 1u << rnd(32); break;
		case 2: req.pad2 = (uint32_t)rnd64() | 1; break;
		default: req.reserved[rnd(2)] = rnd64() | 1; break;
		}
	}
	/* Outputs are outputs: garbage in them must not matter. */
	if (chance(4)) {
		req.handle = (uint32_t)rnd64();
		req.offset = rnd64();
		req.error.code = (uint32_t)rnd64();
	}
	plan_alloc(c, &req, &plan);
	a = req;
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a);
	/* ENOMEM is the fault's; any other answer is checked as usual. */
	if (injected && ret == -ENOMEM && plan.err != -ENOMEM) {
		check_query(c, "ALLOC failed by an injected fault");
		return;
	}
	if (modelled(&plan))
		model_alloc(c, req.size, req.flags, &pred);
	if (ret) {
		/* EINVAL comes before the error struct is written. */
		saw("ALLOC", ret, ret == -EINVAL ? 0 : a.error.code);
		if (modelled(&plan)) {
			check_predicted(c, "ALLOC", req.size, req.flags, ret, &a.error, NULL, &pred);
			if (ret == -ENOSPC)
				check_device_bytes(c->dev, "after VRAM pressure");
		} else
			check_alloc_error(c, &req, &a, ret, &plan);
		check_query(c, "a failed ALLOC changed nothing");
		return;
	}
	saw("ALLOC", 0, 0);
	if (modelled(&plan)) {
		alloc_answer_of(&a, &ans);
		check_predicted(c, "ALLOC", req.size, req.flags, 0, &a.error, &ans, &pred);
	}
	if (plan.err)
		mismatch("ALLOC(%" PRIu64 ", flags %#x) succeeded in pool %u, want %s code %u",
			 (uint64_t)req.size, req.flags, a.pool, ename(plan.err), plan.code);
	if (a.pool == DRM_VRAMPOOL_PERSISTENT_POOL ? !plan.pers_ok :
	    (plan.pers_must || a.pool >= c->num_pools || !plan.dyn[a.pool]))
		mismatch("ALLOC(%" PRIu64 ", flags %#x, mode %u) served by pool %u, which the"
			 " rules do not pick", (uint64_t)req.size, req.flags, c->mode, a.pool);
	check_alloc_placement(c, &a);
	l = model_keep(c, &a);
	l->seed = (uint32_t)rnd64();
	if (!a.size)
		return;
	l->map_len = map_len_of(a.page_size);
	op_name = "mmap";
	if (fail_nth_mode && chance(16)) {
		fail_nth_write(1 + rnd(3));
		l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
			      a.mmap_offset);
		ret = l->map == MAP_FAILED ? -errno : 0;
		injected = fail_nth_read() == 0;
		fail_nth_write(0);
		if (ret && injected) {
			l->map = NULL;
			l->map_len = 0;
			return;
		}
	} else {
		uint64_t t0 = prof_start();

		l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
			      a.mmap_offset);
		prof_end(P_MMAP, t0);
	}
	if (l->map == MAP_FAILED)
		mismatch("mmap of a live allocation's page (%#" PRIx64 ", %zu bytes): %s",
			 (uint64_t)a.mmap_offset, l->map_len, strerror(errno));
	fill_new(c, l, modelled(&plan) && pred.new_page);
}

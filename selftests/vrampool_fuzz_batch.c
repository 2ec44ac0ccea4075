// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's ALLOC_BATCH and FREE_BATCH steps (DOC: batches): the plan
 * of a batch, each answer predicted as the single ALLOCs would be, the
 * error of a refused batch, and all or nothing.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- ALLOC_BATCH and FREE_BATCH (DOC: batches) ------------------------------------ */

#define FZ_BATCH	8		/* requests or handles of a batch at most */

/* Request @i of a batch, as the single ALLOC plan_alloc() predicts. */
static void plan_batch(struct fz_client *c, const struct drm_vrampool_alloc_request *reqs,
		       uint32_t n, struct alloc_plan *plans, uint32_t *first_certain)
{
	struct drm_vrampool_alloc one;
	int nlive = c->nlive;
	uint32_t i;

	*first_certain = n;
	for (i = 0; i < n; i++) {
		memset(&one, 0, sizeof(one));
		one.size = reqs[i].size;
		one.flags = reqs[i].flags;
		/* The batch's earlier requests count against the limit. */
		c->nlive = nlive + (int)i;
		plan_alloc(c, &one, &plans[i]);
		if (reqs[i].pad)
			plans[i].err = -EINVAL;
		if (plans[i].err && *first_certain == n)
			*first_certain = i;
	}
	c->nlive = nlive;
	/* Malformed requests are refused before any other check. */
	for (i = 0; i < n; i++) {
		if (plans[i].err == -EINVAL) {
			*first_certain = i;
			break;
		}
	}
}

/* A refused batch: what request @f's plan allows, and nothing changed. */
static void check_batch_error(struct fz_client *c, const struct drm_vrampool_alloc_request *reqs,
			      const struct drm_vrampool_alloc_batch *b, int ret,
			      const struct alloc_plan *plans, uint32_t certain)
{
	struct drm_vrampool_alloc one = { 0 }, got = { 0 };
	const struct alloc_plan *p;
	uint32_t f = b->failed;

	if (certain < b->count) {
		p = &plans[certain];
		if (ret != p->err || f != certain ||
		    b->error.code != (p->err == -EINVAL ? DRM_VRAMPOOL_ERR_INVALID_ARGUMENT : p->code) ||
		    b->error.size != reqs[f < b->count ? f : 0].size ||
		    (p->code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT &&
		     (b->error.pool != p->limit || b->error.capacity != max_allocations ||
		      b->error.in_use != user_nlive(c) + certain)))
			mismatch("ALLOC_BATCH of %u: %s at %d code %u, want %s at %u code %u",
				 b->count, ename(ret), (int)f, b->error.code, ename(p->err), certain,
				 p->code);
		return;
	}
	if (f >= b->count)
		mismatch("ALLOC_BATCH of %u: %s with no request named", b->count, ename(ret));
	one.size = reqs[f].size;
	one.flags = reqs[f].flags;
	got.error = b->error;
	check_alloc_error(c, &one, &got, ret, &plans[f]);
}

/* A served request: the pool the rules pick, placed apart from every live one. */
static void keep_batch_answer(struct fz_client *c, const struct drm_vrampool_alloc_request *req,
			      const struct drm_vrampool_alloc_answer *ans,
			      const struct alloc_plan *p, bool new_page)
{
	struct drm_vrampool_alloc a = {
		.size = req->size, .flags = req->flags, .handle = ans->handle,
		.pool = ans->pool, .page = ans->page, .offset = ans->offset,
		.padding = ans->padding, .mmap_offset = ans->mmap_offset,
		.page_size = ans->page_size,
	};

	if (a.pool == DRM_VRAMPOOL_PERSISTENT_POOL ? !p->pers_ok :
	    (p->pers_must || a.pool >= c->num_pools || !p->dyn[a.pool]))
		mismatch("ALLOC_BATCH request (%" PRIu64 ", flags %#x, mode %u) served by pool %u,"
			 " which the rules do not pick", (uint64_t)a.size, a.flags, c->mode, a.pool);
	if (ans->pad)
		mismatch("ALLOC_BATCH answer pad %u", ans->pad);
	check_alloc_placement(c, &a);
	map_fill(c, model_keep(c, &a), new_page);
}

/*
 * The model's ALLOC_BATCH, once the requests passed the checks no
 * allocation changes (plan_batch()): a request no pool accepts refuses
 * the batch before anything is placed (BufferTooBig); else each request
 * in turn as its own ALLOC; the first the model refuses is the batch's answer, and what the
 * earlier ones placed is undone, the last first, with a cleanup if the
 * pools made pages meanwhile; unwritable answers undo them all. The answers are checked
 * by the caller, in order (preds[]).
 */
static void check_batch_predicted(struct fz_client *c,
				  const struct drm_vrampool_alloc_request *reqs,
				  const struct drm_vrampool_alloc_batch *b, int ret, bool efault,
				  struct fzm_answer *preds)
{
	uint64_t made_before = fzm_client_made(&c->m);
	uint32_t n = b->count, placed;

	/* A request no pool accepts refuses the batch before anything is placed. */
	for (placed = 0; placed < n; placed++)
		if (!fzm_routable(&c->m, reqs[placed].size, reqs[placed].flags))
			break;
	if (placed < n) {
		memset(&preds[placed], 0, sizeof(preds[placed]));
		preds[placed].alloc = -1;
		preds[placed].err = -EFBIG;
		preds[placed].code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
		if (b->failed != placed)
			mismatch("ALLOC_BATCH of %u: %s at %d; request %u is one no pool accepts",
				 n, ename(ret), (int)b->failed, placed);
		check_predicted(c, "ALLOC_BATCH request", reqs[placed].size, reqs[placed].flags,
				ret, &b->error, NULL, &preds[placed]);
		return;
	}
	for (placed = 0; placed < n; placed++) {
		model_alloc(c, reqs[placed].size, reqs[placed].flags, &preds[placed]);
		if (preds[placed].err)
			break;
	}
	if (placed < n) {
		if (b->failed != placed)
			mismatch("ALLOC_BATCH of %u: %s at %d; the model refuses request %u (%s)", n,
				 ename(ret), (int)b->failed, placed, ename(preds[placed].err));
		check_predicted(c, "ALLOC_BATCH request", reqs[placed].size, reqs[placed].flags,
				ret, &b->error, NULL, &preds[placed]);
		fzm_batch_undo(&c->m, placed, made_before);
	} else if (efault) {
		if (ret != -EFAULT)
			mismatch("ALLOC_BATCH of %u with unwritable answers: %s, want EFAULT", n,
				 ename(ret));
		fzm_batch_undo(&c->m, n, made_before);
	} else if (ret) {
		mismatch("ALLOC_BATCH of %u: %s at %d code %u; the model serves every request", n,
			 ename(ret), (int)b->failed, b->error.code);
	}
}

void do_alloc_batch(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_alloc_request reqs[FZ_BATCH];
	struct drm_vrampool_alloc_answer ans[FZ_BATCH];
	struct drm_vrampool_alloc_batch b;
	struct alloc_plan plans[FZ_BATCH];
	struct fzm_answer preds[FZ_BATCH];
	uint32_t n = rnd(FZ_BATCH + 1), i, certain;
	bool efault = false;
	int ret, want = 0;

	/* Room for a whole batch: free some first rather than do nothing. */
	while (c->nlive + FZ_BATCH > MAX_LIVE)
		do_free(c, false);
	op_name = "ALLOC_BATCH";
	if (!n && !hostile && rnd(4))
		n = 1 + rnd(FZ_BATCH);	/* an empty batch now and then */
	memset(reqs, 0, sizeof(reqs));
	memset(&b, 0, sizeof(b));
	for (i = 0; i < n; i++) {
		reqs[i].size = gen_size(c);
		if (chance(6))
			reqs[i].flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
	}
	b.requests = (uintptr_t)reqs;
	b.answers = (uintptr_t)ans;
	b.count = n;
	if (hostile) {
		switch (rnd(6)) {
		case 0: b.flags = 1u << rnd(32); want = -EINVAL; break;
		case 1: b.reserved[rnd(2)] = rnd64() | 1; want = -EINVAL; break;
		case 2: b.count = DRM_VRAMPOOL_BATCH_MAX + 1 + rnd(1000); want = -E2BIG; break;
		case 3:
			if (n)
				reqs[rnd(n)].flags |= 1u << (1 + rnd(31));
			break;
		case 4:
			if (n)
				reqs[rnd(n)].pad = (uint32_t)rnd64() | 1;
			break;
		default:
			b.answers = (uintptr_t)(rnd(2) ? mem_ro : mem_none);
			efault = n > 0;
			break;
		}
	}
	plan_batch(c, reqs, n, plans, &certain);
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &b);
	if (injected && ret == -ENOMEM) {
		check_query(c, "ALLOC_BATCH failed by an injected fault");
		return;
	}
	saw("ALLOC_BATCH", ret, ret ? b.error.code : 0);
	if (model_exact && !want && certain == n)
		check_batch_predicted(c, reqs, &b, ret, efault, preds);
	if (want) {
		if (ret != want || b.failed != DRM_VRAMPOOL_NO_ENTRY)
			mismatch("ALLOC_BATCH of %u, flags %#x: %s at %d, want %s", b.count, b.flags,
				 ename(ret), (int)b.failed, ename(want));
	} else if (ret == -EFAULT && efault && certain == n) {
		/* Served, then the answers could not be written: all undone. */
		if (b.failed != DRM_VRAMPOOL_NO_ENTRY)
			mismatch("ALLOC_BATCH with unwritable answers: EFAULT at %d", (int)b.failed);
	} else if (ret && model_exact && certain == n) {
		/* The model checked the error; what was live kept its bytes. */
		if (ret == -ENOSPC)
			check_device_bytes(c->dev, "after VRAM pressure");
	} else if (ret) {
		check_batch_error(c, reqs, &b, ret, plans, certain);
	} else {
		if (certain < n)
			mismatch("ALLOC_BATCH of %u succeeded, want %s at %u", n,
				 ename(plans[certain].err), certain);
		if (efault)
			mismatch("ALLOC_BATCH of %u succeeded with unwritable answers", n);
		for (i = 0; i < n; i++) {
			if (model_exact)
				check_predicted(c, "ALLOC_BATCH request", reqs[i].size,
						reqs[i].flags, 0, &b.error, &ans[i], &preds[i]);
			keep_batch_answer(c, &reqs[i], &ans[i], &plans[i],
					  model_exact && preds[i].new_page);
		}
	}
	check_query(c, ret ? "a refused ALLOC_BATCH changed nothing" : "after ALLOC_BATCH");
}

void do_free_batch(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_free_batch f;
	uint32_t h[FZ_BATCH], n = 0, i, j, want_at = DRM_VRAMPOOL_NO_ENTRY, code = 0;
	int idx[FZ_BATCH], ret, want = 0, k;
	bool used[MAX_LIVE] = { false };

	op_name = "FREE_BATCH";
	/* Distinct live handles, in random order. */
	while (n < FZ_BATCH && n < (uint32_t)c->nlive && (n == 0 || !chance(3))) {
		k = (int)rnd((uint32_t)c->nlive);
		if (used[k])
			continue;
		used[k] = true;
		h[n++] = c->live[k].handle;
	}
	if (n && chance(3)) {
		i = rnd(n);
		if (i && rnd(2))
			h[i] = h[rnd(i)];			/* named twice */
		else
			h[i] = rnd(2) ? (uint32_t)rnd64() : rnd(64);	/* maybe unknown */
	}
	memset(&f, 0, sizeof(f));
	f.handles = (uintptr_t)h;
	f.count = n;
	if (hostile) {
		switch (rnd(4)) {
		case 0: f.flags = 1u << rnd(32); want = -EINVAL; break;
		case 1: f.reserved = rnd64() | 1; want = -EINVAL; break;
		case 2: f.count = DRM_VRAMPOOL_BATCH_MAX + 1 + rnd(1000); want = -E2BIG; break;
		default:
			f.handles = (uintptr_t)mem_none;
			if (n)
				want = -EFAULT;
			break;
		}
	}
	/* The first entry that names no live allocation or an earlier entry's. */
	for (i = 0; !want && i < n; i++) {
		for (j = 0; j < i && h[j] != h[i]; j++)
			;
		if (j < i) {
			want = -EINVAL;
			code = DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE;
		} else if (!handle_live(c, h[i], &idx[i])) {
			want = -ENOENT;
			code = DRM_VRAMPOOL_ERR_NOT_FOUND;
		} else {
			continue;
		}
		want_at = i;
	}
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &f);
	if (injected_failure(ret, want)) {
		check_query(c, "FREE_BATCH failed by an injected fault");
		return;
	}
	saw("FREE_BATCH", ret, f.code);
	if (ret != want || f.failed != want_at || f.code != code)
		mismatch("FREE_BATCH of %u: %s at %d code %u, want %s at %d code %u", f.count,
			 ename(ret), (int)f.failed, f.code, ename(want), (int)want_at, code);
	for (i = 0; !ret && i < n; i++) {
		/* Indices move as allocations are forgotten: look each up again. */
		if (!handle_live(c, h[i], &k))
			mismatch("FREE_BATCH: handle %u lost from the model", h[i]);
		forget(c, k, chance(4));
	}
	check_query(c, ret ? "a refused FREE_BATCH changed nothing" : "after FREE_BATCH");
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * ALLOC_BATCH and FREE_BATCH against the same requests served one by one
 * (DOC: batches), on the first device of each backend: random traces of
 * batches, frees and cleanups, run twice from the same seed, once by a
 * client that uses the batch ioctls and once by a client that does what
 * the uapi says a batch amounts to, with single ALLOCs and FREEs:
 *
 *   - a batch with a request no pool accepts: nothing at all (found first);
 *   - otherwise each request ALLOCed in order; at a refusal, the ones
 *     served FREEd again in reverse order and, if the pools made a page
 *     meanwhile (&drm_vrampool_pool_status.pages_made grew), one CLEANUP;
 *   - a batch of handles checked whole (a handle not live, or one an
 *     earlier entry names), then each FREEd in array order.
 *
 * After every step both clients' answers (errno, the request or handle
 * named, the error, and per request its pool, page, offset, padding and
 * page size) and every statistic of every pool (POOL_QUERY, whole: pages
 * made, peaks and largest allocation too) and the VRAM in use must be
 * the same. Handles are compared with each client's own cursor: the batch
 * client's count up by one per request served and stay where they were
 * after a refusal; the other's count every ALLOC served.
 *
 * The two runs take turns on one device, so that each finds the device's
 * VRAM as the other did: exhausted VRAM refuses both at the same request.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define TRACES		300		/* per layout and backend */
#define DEBUG_TRACES	30		/* on the debug kernel, with every detector */
#define STEPS		50		/* per trace */
#define MAX_REQS	8		/* requests or handles of a batch at most */
#define MAX_LIVE	512
#define MAX_POOLS	4		/* a layout's pools and the persistent one */
#define BAD_HANDLE	0x7ffffff0u	/* never handed out in a trace */
#define QUOTA_UNITS	512		/* the user's VRAM quota, in units */

enum step_kind { STEP_ALLOC, STEP_FREE, STEP_CLEANUP };

/* A served request's answer, but the handle and mmap offset (each client's own). */
struct placed {
	uint32_t pool, page;
	uint64_t offset, padding, page_size;
};

/* What one step did in one run. */
struct rec {
	enum step_kind kind;
	uint32_t count;			/* requests or handles */
	int ret;
	uint32_t failed;
	struct drm_vrampool_alloc_error error;	/* ALLOC_BATCH */
	uint32_t code;				/* FREE_BATCH */
	struct placed ans[MAX_REQS];
	uint32_t npools;
	struct drm_vrampool_pool_status pools[MAX_POOLS];
	uint64_t vram;
};

/* One run of a trace by one client. */
struct run {
	int fd;
	bool batch;			/* the batch ioctls, else one by one */
	uint64_t rng;
	uint32_t live[MAX_LIVE];	/* handles, in the order they were served */
	uint32_t nlive;
	uint32_t next;			/* the handle the next ALLOC must get */
	struct rec recs[STEPS];
	char why[256];			/* a broken expectation of the run itself */
};

/* A layout of the test and the requests it is given. */
struct layout {
	const char *name;
	struct drm_vrampool_pool_entry e[MAX_POOLS - 1];
	uint32_t count;
	uint64_t max_size;		/* larger (not persistent) requests no pool accepts */
	uint64_t sizes[16];
	uint32_t nsizes;
};

FIXTURE(diff) {
	struct vp_device dev;
	struct vp_props props;
	uint64_t unit;			/* max(alignment, 4 KiB) */
	char quota_path[VP_PATH_LEN];
	uint64_t quota;			/* to restore */
};

VP_BACKEND_VARIANTS(diff);

FIXTURE_SETUP(diff)
{
	int fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	char buf[32];

	ASSERT_EQ(0, vp_read_props(fd, &self->props));
	close(fd);
	self->unit = self->props.alignment > 4096 ? self->props.alignment : 4096;
	/*
	 * A VRAM quota of QUOTA_UNITS: requests past it are refused as
	 * exhausted VRAM would be (a cleanup, then the refusal), without
	 * filling the device's VRAM for it.
	 */
	vp_sysfs_dev_path(&self->dev, "vram_quota", self->quota_path, sizeof(self->quota_path));
	ASSERT_EQ(0, vp_read_u64_file(self->quota_path, &self->quota));
	snprintf(buf, sizeof(buf), "%" PRIu64, QUOTA_UNITS * self->unit);
	ASSERT_EQ(0, vp_write_file(self->quota_path, buf));
}

FIXTURE_TEARDOWN(diff)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, self->quota);
	vp_write_file(self->quota_path, buf);
}

static uint32_t rnd(struct run *r, uint32_t n)
{
	/* xorshift64*: the same seed gives both runs the same choices. */
	r->rng ^= r->rng >> 12;
	r->rng ^= r->rng << 25;
	r->rng ^= r->rng >> 27;
	return (uint32_t)((r->rng * 2685821657736338717ULL) >> 32) % n;
}

/* Every pool's status and the VRAM in use, after a step. */
static int take_status(struct run *r, struct rec *rec)
{
	static struct vp_snap snap;
	uint32_t i;
	int ret;

	ret = vp_snap_take(r->fd, &snap);
	if (ret)
		return ret;
	if (snap.count > MAX_POOLS)
		return -E2BIG;
	rec->npools = snap.count;
	for (i = 0; i < snap.count; i++)
		rec->pools[i] = snap.pools[i];
	rec->vram = snap.vram_in_use;
	return 0;
}

static uint64_t pages_made(const struct rec *rec)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < rec->npools; i++)
		sum += rec->pools[i].pages_made;
	return sum;
}

static void place(struct placed *p, uint32_t pool, uint32_t page, uint64_t offset,
		  uint64_t padding, uint64_t page_size)
{
	p->pool = pool;
	p->page = page;
	p->offset = offset;
	p->padding = padding;
	p->page_size = page_size;
}

/* The served handle @h: it must be the one the cursor names. */
static int served(struct run *r, uint32_t h)
{
	if (h != r->next) {
		snprintf(r->why, sizeof(r->why), "handle %u served, %u expected", h, r->next);
		return -1;
	}
	r->next++;
	return 0;
}

/* The batch: ALLOC_BATCH. */
static int alloc_batch(struct run *r, const struct drm_vrampool_alloc_request *reqs,
		       uint32_t n, struct rec *rec)
{
	struct drm_vrampool_alloc_answer ans[MAX_REQS];
	struct drm_vrampool_alloc_batch b;
	uint32_t i;

	rec->ret = vp_alloc_batch(r->fd, reqs, ans, n, &b);
	rec->failed = b.failed;
	rec->error = b.error;
	if (rec->ret)
		return 0;
	for (i = 0; i < n; i++) {
		place(&rec->ans[i], ans[i].pool, ans[i].page, ans[i].offset, ans[i].padding,
		      ans[i].page_size);
		if (served(r, ans[i].handle))
			return -1;
		r->live[r->nlive++] = ans[i].handle;
	}
	return 0;
}

/* The same requests one by one, as DOC: batches says a batch amounts to. */
static int alloc_one_by_one(struct run *r, const struct layout *l,
			    const struct drm_vrampool_alloc_request *reqs, uint32_t n,
			    struct rec *rec)
{
	struct drm_vrampool_alloc one;
	struct rec before;
	uint32_t i, k;

	for (i = 0; i < n; i++) {
		if (reqs[i].size == UINT64_MAX ||
		    (!(reqs[i].flags & DRM_VRAMPOOL_ALLOC_PERSISTENT) && reqs[i].size > l->max_size)) {
			/* Found before anything is served. */
			rec->ret = -EFBIG;
			rec->failed = i;
			rec->error.code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
			rec->error.size = reqs[i].size;
			return 0;
		}
	}
	if (take_status(r, &before))
		return -1;
	for (i = 0; i < n; i++) {
		rec->ret = vp_alloc(r->fd, reqs[i].size, reqs[i].flags, &one);
		if (rec->ret)
			break;
		place(&rec->ans[i], one.pool, one.page, one.offset, one.padding, one.page_size);
		if (served(r, one.handle))
			return -1;
		r->live[r->nlive++] = one.handle;
	}
	rec->failed = DRM_VRAMPOOL_NO_ENTRY;
	if (!rec->ret)
		return 0;
	rec->failed = i;
	rec->error = one.error;
	memset(rec->ans, 0, sizeof(rec->ans));
	for (k = i; k-- > 0;) {
		if (vp_free(r->fd, r->live[--r->nlive])) {
			snprintf(r->why, sizeof(r->why), "FREE of a handle just served failed");
			return -1;
		}
	}
	if (take_status(r, rec))
		return -1;
	if (pages_made(rec) != pages_made(&before) && vp_cleanup(r->fd)) {
		snprintf(r->why, sizeof(r->why), "CLEANUP failed");
		return -1;
	}
	return 0;
}

/* Entry @i of a batch of handles: where an earlier one names it too, or -1. */
static int repeats(const uint32_t *h, uint32_t i)
{
	uint32_t k;

	for (k = 0; k < i; k++)
		if (h[k] == h[i])
			return (int)k;
	return -1;
}

static int live_at(const struct run *r, uint32_t h)
{
	uint32_t i;

	for (i = 0; i < r->nlive; i++)
		if (r->live[i] == h)
			return (int)i;
	return -1;
}

static void live_drop(struct run *r, uint32_t h)
{
	int at = live_at(r, h);

	if (at >= 0)
		memmove(&r->live[at], &r->live[at + 1], (r->nlive - at - 1) * sizeof(r->live[0]));
	r->nlive -= at >= 0;
}

/* A batch of handles: FREE_BATCH, or checked whole and FREEd one by one. */
static int free_step(struct run *r, const uint32_t *h, uint32_t n, struct rec *rec)
{
	struct drm_vrampool_free_batch fb;
	uint32_t i;

	if (r->batch) {
		rec->ret = vp_free_batch(r->fd, h, n, &fb);
		rec->failed = fb.failed;
		rec->code = fb.code;
		if (!rec->ret)
			for (i = 0; i < n; i++)
				live_drop(r, h[i]);
		return 0;
	}
	rec->failed = DRM_VRAMPOOL_NO_ENTRY;
	for (i = 0; i < n; i++) {
		if (repeats(h, i) >= 0) {
			rec->ret = -EINVAL;
			rec->code = DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE;
		} else if (live_at(r, h[i]) < 0) {
			rec->ret = -ENOENT;
			rec->code = DRM_VRAMPOOL_ERR_NOT_FOUND;
		} else {
			continue;
		}
		rec->failed = i;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (vp_free(r->fd, h[i])) {
			snprintf(r->why, sizeof(r->why), "FREE of live handle %u failed", h[i]);
			return -1;
		}
		live_drop(r, h[i]);
	}
	return 0;
}

/* A random request of the layout's menu: often the one before it again. */
static void request(struct run *r, const struct layout *l,
		    struct drm_vrampool_alloc_request *reqs, uint32_t i)
{
	memset(&reqs[i], 0, sizeof(reqs[i]));
	if (i && rnd(r, 5) < 2) {
		reqs[i] = reqs[i - 1];
		return;
	}
	reqs[i].size = l->sizes[rnd(r, l->nsizes)];
	if (rnd(r, 7) == 0)
		reqs[i].flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
	if (reqs[i].size == UINT64_MAX && rnd(r, 3))
		reqs[i].size = 0;	/* keep refusals before anything rarer */
}

/* One step of a trace, the same choices in both runs while they agree. */
static int step(struct run *r, const struct layout *l, struct rec *rec)
{
	struct drm_vrampool_alloc_request reqs[MAX_REQS];
	uint32_t h[MAX_REQS], i, k, n, pick = rnd(r, 20);

	memset(rec, 0, sizeof(*rec));
	if (pick < 11 || !r->nlive) {
		rec->kind = STEP_ALLOC;
		n = 1 + rnd(r, MAX_REQS);
		if (r->nlive + n > MAX_LIVE)
			n = 1;
		for (i = 0; i < n; i++)
			request(r, l, reqs, i);
		rec->count = n;
		if (r->batch ? alloc_batch(r, reqs, n, rec) : alloc_one_by_one(r, l, reqs, n, rec))
			return -1;
	} else if (pick < 19) {
		rec->kind = STEP_FREE;
		n = 1 + rnd(r, r->nlive < MAX_REQS ? r->nlive : MAX_REQS);
		/* Distinct live handles, but now and then a repeated or a bad one. */
		for (i = 0; i < n; i++) {
			k = i + rnd(r, r->nlive - i);
			h[i] = r->live[k];
			r->live[k] = r->live[i];
			r->live[i] = h[i];
		}
		if (n > 1 && rnd(r, 8) == 0)
			h[1 + rnd(r, n - 1)] = h[0];
		if (rnd(r, 12) == 0)
			h[rnd(r, n)] = BAD_HANDLE;
		rec->count = n;
		if (free_step(r, h, n, rec))
			return -1;
	} else {
		rec->kind = STEP_CLEANUP;
		rec->ret = vp_cleanup(r->fd);
	}
	return take_status(r, rec);
}

/* Runs a trace of @seed on a new client of the device: batches or one by one. */
static int run_trace(struct run *r, const struct vp_device *dev, const struct layout *l,
		     uint64_t seed, bool batch)
{
	struct drm_vrampool_pool_install ans;
	uint32_t s;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->batch = batch;
	r->rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	r->next = 1;
	r->fd = vp_open_device(dev);
	if (r->fd < 0) {
		snprintf(r->why, sizeof(r->why), "open: %s", strerror(-r->fd));
		return -1;
	}
	if (vp_install_list(r->fd, l->e, l->count, &ans)) {
		snprintf(r->why, sizeof(r->why), "installing %s failed", l->name);
		goto out;
	}
	for (s = 0; s < STEPS; s++) {
		if (step(r, l, &r->recs[s])) {
			if (!r->why[0])
				snprintf(r->why, sizeof(r->why), "POOL_QUERY failed");
			snprintf(r->why + strlen(r->why), sizeof(r->why) - strlen(r->why),
				 " (step %u)", s);
			goto out;
		}
	}
	ret = 0;
out:
	close(r->fd);
	return ret;
}

static const char *kind_str(enum step_kind k)
{
	return k == STEP_ALLOC ? "ALLOC_BATCH" : k == STEP_FREE ? "FREE_BATCH" : "CLEANUP";
}

/* Where two records of a step differ, in words; 0 if they do not. */
static int rec_diff(const struct rec *a, const struct rec *b, char *why, size_t len)
{
	const struct drm_vrampool_pool_status *p, *q;
	uint32_t i;

	if (a->ret != b->ret || a->failed != b->failed ||
	    memcmp(&a->error, &b->error, sizeof(a->error)) || a->code != b->code) {
		snprintf(why, len, "the answer: %s at %d (code %u pool %u size %" PRIu64
			 " capacity %" PRIu64 " in use %" PRIu64 "/%u), one by one %s at %d (code %u pool %u size %"
			 PRIu64 " capacity %" PRIu64 " in use %" PRIu64 "/%u)",
			 strerror(-a->ret), (int)a->failed, a->error.code, a->error.pool,
			 (uint64_t)a->error.size, (uint64_t)a->error.capacity,
			 (uint64_t)a->error.in_use, a->code, strerror(-b->ret), (int)b->failed,
			 b->error.code, b->error.pool, (uint64_t)b->error.size,
			 (uint64_t)b->error.capacity, (uint64_t)b->error.in_use, b->code);
		return -1;
	}
	for (i = 0; i < a->count && a->kind == STEP_ALLOC; i++) {
		if (!memcmp(&a->ans[i], &b->ans[i], sizeof(a->ans[i])))
			continue;
		snprintf(why, len, "request %u: pool %u page %u offset %" PRIu64 " padding %" PRIu64
			 " page size %" PRIu64 ", one by one pool %u page %u offset %" PRIu64
			 " padding %" PRIu64 " page size %" PRIu64, i, a->ans[i].pool,
			 a->ans[i].page, a->ans[i].offset, a->ans[i].padding, a->ans[i].page_size,
			 b->ans[i].pool, b->ans[i].page, b->ans[i].offset, b->ans[i].padding,
			 b->ans[i].page_size);
		return -1;
	}
	if (a->npools != b->npools || a->vram != b->vram) {
		snprintf(why, len, "%u pools, VRAM %" PRIu64 "; one by one %u pools, VRAM %" PRIu64,
			 a->npools, a->vram, b->npools, b->vram);
		return -1;
	}
	for (i = 0; i < a->npools; i++) {
		p = &a->pools[i];
		q = &b->pools[i];
		if (!memcmp(p, q, sizeof(*p)))
			continue;
		snprintf(why, len, "pool %u: allocations %" PRIu64 " bytes %" PRIu64 " padding %"
			 PRIu64 " reserved %" PRIu64 " pages %" PRIu64 " peak %" PRIu64
			 " largest %" PRIu64 " made %" PRIu64 "; one by one %" PRIu64 " %" PRIu64
			 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
			 p->index, (uint64_t)p->allocations, (uint64_t)p->bytes_in_use,
			 (uint64_t)p->padding, (uint64_t)p->reserved_bytes, (uint64_t)p->pages,
			 (uint64_t)p->pages_peak, (uint64_t)p->largest_alloc,
			 (uint64_t)p->pages_made, (uint64_t)q->allocations,
			 (uint64_t)q->bytes_in_use, (uint64_t)q->padding,
			 (uint64_t)q->reserved_bytes, (uint64_t)q->pages, (uint64_t)q->pages_peak,
			 (uint64_t)q->largest_alloc, (uint64_t)q->pages_made);
		return -1;
	}
	return 0;
}

/* How many traces per layout: fewer on the debug kernel (VRAMPOOL_TIER). */
static uint32_t traces(void)
{
	const char *tier = getenv("VRAMPOOL_TIER");

	return tier && !strcmp(tier, "debug") ? DEBUG_TRACES : TRACES;
}

/* Both runs of every trace of @l; how many traces had a refused batch. */
static uint32_t run_layout(struct __test_metadata *_metadata, const struct vp_device *dev,
			   const struct layout *l, uint64_t seed0)
{
	static struct run a, b;
	uint32_t t, s, refused = 0;
	bool any;
	char why[768];

	for (t = 0; t < traces(); t++) {
		ASSERT_EQ(0, run_trace(&a, dev, l, seed0 + t, true))
			TH_LOG("%s, seed %" PRIu64 ", batches: %s", l->name, seed0 + t, a.why);
		ASSERT_EQ(0, run_trace(&b, dev, l, seed0 + t, false))
			TH_LOG("%s, seed %" PRIu64 ", one by one: %s", l->name, seed0 + t, b.why);
		any = false;
		for (s = 0; s < STEPS; s++) {
			ASSERT_EQ(0, rec_diff(&a.recs[s], &b.recs[s], why, sizeof(why)))
				TH_LOG("%s, seed %" PRIu64 ", step %u (%s of %u): %s", l->name,
				       seed0 + t, s, kind_str(a.recs[s].kind), a.recs[s].count,
				       why);
			any |= a.recs[s].kind == STEP_ALLOC && a.recs[s].ret &&
			       a.recs[s].ret != -EFBIG && a.recs[s].failed;
		}
		refused += any;
	}
	return refused;
}

/*
 * A capped sliced pool behind a small exclusive pool (refusals: the cap,
 * mid-way; requests no pool accepts), and sliced, exclusive and direct
 * pools with dealloc periods short enough that idle pages go during a
 * batch, sizes that pass the quota mid-way and one larger than VRAM. Both
 * with persistent requests, zero sizes and runs of equal requests.
 */
TEST_F_TIMEOUT(diff, batches_as_one_by_one, 240)
{
	const uint64_t u = self->unit, v = self->props.vram_size;
	struct layout capped = {
		.name = "exclusive{4u, period 5}, sliced{64u, cap 128u}",
		.e = { vp_exclusive(4 * u, 5), vp_sliced(64 * u, VP_ABSENT, 128 * u) },
		.count = 2,
		.max_size = 64 * u,
		.sizes = { 0, 100, u, 4 * u, 4 * u + 1, 16 * u, 40 * u, 64 * u, 64 * u + 1,
			   UINT64_MAX },
		.nsizes = 10,
	};
	struct layout three = {
		.name = "sliced{16u, slice 4u, period 10}, exclusive{64u, period 5}, direct{reclaim 128u}",
		.e = { vp_sliced(16 * u, 4 * u, VP_ABSENT), vp_exclusive(64 * u, 5),
		       vp_direct(128 * u) },
		.count = 3,
		.max_size = UINT64_MAX - 1,
		.sizes = { 0, 100, u, 4 * u, 4 * u + 1, 30 * u, 64 * u, 64 * u + 1, 100 * u,
			   200 * u, 2 * v, UINT64_MAX },
		.nsizes = 12,
	};
	uint32_t refused;

	TH_LOG("unit u = %" PRIu64 " bytes, quota %u u", u, QUOTA_UNITS);
	vp_entry_set(&three.e[0], DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, 10);
	refused = run_layout(_metadata, &self->dev, &capped, 1000);
	TH_LOG("%s: %u of %u traces had a batch refused mid-way", capped.name, refused, traces());
	EXPECT_LT(traces() / 4, refused) TH_LOG("the traces hardly test refusals");
	refused = run_layout(_metadata, &self->dev, &three, 2000);
	TH_LOG("%s: %u of %u traces had a batch refused mid-way", three.name, refused, traces());
	EXPECT_LT(traces() / 4, refused) TH_LOG("the traces hardly test refusals");
}

TEST_HARNESS_MAIN

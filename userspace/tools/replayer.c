// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: a trace replayed through ALLOC and FREE in one client, with
 * its figures (replay, plan).
 *
 * The figures:
 *  - peak live: the most bytes the live allocations held at once (the sum
 *    of their sizes), as the trace itself says;
 *  - peak reserved: the most bytes the client's pools reserved at once
 *    (reserved_bytes of every pool, the persistent pool 255 included),
 *    sampled with one POOL_QUERY after each ALLOC: only an ALLOC can make
 *    a pool reserve more (FREE never does), so the samples see the peak;
 *  - their ratio, peak reserved / peak live;
 *  - ops/s: operations per second of time spent in ALLOC and FREE alone
 *    (the POOL_QUERY samples are timed apart, in the wall time);
 *  - the same peaks for the dynamic pools alone (without pool 255 and the
 *    persistent allocations), which pools served how many allocations,
 *    and the pools as they are at the end of the trace (nothing cleaned).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "vrampoolctl.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* POOL_QUERY into a buffer sized once: the layout does not change meanwhile. */
struct sampler {
	struct drm_vrampool_pool_status *pools;
	uint32_t size;
};

static int sampler_init(int fd, struct sampler *s)
{
	struct drm_vrampool_pool_query q = { 0 };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q))
		return -errno;
	s->size = q.size;
	s->pools = malloc(q.size);
	return s->pools ? 0 : -ENOMEM;
}

static int sample(int fd, struct sampler *s, struct replay_result *r)
{
	struct drm_vrampool_pool_query q = { .size = s->size, .pools = (uintptr_t)s->pools };
	uint64_t all = 0, dyn = 0;
	uint32_t i;

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q))
		return -errno;
	for (i = 0; i < s->size / sizeof(*s->pools); i++) {
		all += s->pools[i].reserved_bytes;
		if (s->pools[i].index != DRM_VRAMPOOL_PERSISTENT_POOL)
			dyn += s->pools[i].reserved_bytes;
	}
	if (all > r->peak_reserved)
		r->peak_reserved = all;
	if (dyn > r->peak_reserved_dyn)
		r->peak_reserved_dyn = dyn;
	if (q.vram_in_use > r->peak_vram)
		r->peak_vram = q.vram_in_use;
	return 0;
}

static int replay_alloc(int fd, struct trace *t, const struct trace_op *op, struct sampler *s,
			struct replay_result *r)
{
	struct vrampool_allocation a;
	uint64_t t0;
	int ret;

	t0 = now_ns();
	ret = vrampool_alloc(fd, op->size, op->persistent ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a,
			     &r->err);
	r->op_ns += now_ns() - t0;
	if (ret) {
		r->failed_call = "ALLOC";
		return ret;
	}
	t->ids[op->id].handle = a.handle;
	t->ids[op->id].size = op->size;
	t->ids[op->id].persistent = op->persistent;
	t->ids[op->id].live = true;
	r->allocs++;
	r->persistent += op->persistent;
	r->served[a.pool % N_POOLS]++;
	r->live += op->size;
	if (r->live > r->peak_live)
		r->peak_live = r->live;
	if (!op->persistent) {
		r->live_dyn += op->size;
		if (r->live_dyn > r->peak_live_dyn)
			r->peak_live_dyn = r->live_dyn;
	}
	ret = sample(fd, s, r);
	if (ret) {
		vrampool_error_from_ioctl(&r->err, -ret, NULL);
		r->failed_call = "POOL_QUERY";
	}
	return ret;
}

static int replay_free(int fd, struct trace *t, const struct trace_op *op,
		       struct replay_result *r)
{
	struct trace_id *id = &t->ids[op->id];
	uint64_t t0;
	int ret;

	t0 = now_ns();
	ret = vrampool_free(fd, id->handle, &r->err);
	r->op_ns += now_ns() - t0;
	if (ret) {
		r->failed_call = "FREE";
		return ret;
	}
	id->live = false;
	r->frees++;
	r->live -= id->size;
	if (!id->persistent)
		r->live_dyn -= id->size;
	return 0;
}

int replay(int fd, struct trace *t, struct replay_result *r)
{
	struct sampler s = { 0 };
	uint64_t start;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < t->nids; i++)
		t->ids[i].live = false;
	start = now_ns();
	ret = sampler_init(fd, &s);
	if (!ret)
		ret = sample(fd, &s, r);
	if (ret) {
		fprintf(stderr, "vrampoolctl: replay: POOL_QUERY: %s\n", strerror(-ret));
		free(s.pools);
		return ret;
	}
	for (i = 0; !ret && i < t->nops; i++) {
		const struct trace_op *op = &t->ops[i];

		ret = op->alloc ? replay_alloc(fd, t, op, &s, r) : replay_free(fd, t, op, r);
		if (ret)
			r->failed = op;
		else
			r->done++;
	}
	r->wall_ns = now_ns() - start;
	for (i = 0; i < t->nids; i++) {
		if (t->ids[i].live)
			r->left++;
	}
	r->left_bytes = r->live;
	free(s.pools);
	return ret;
}

uint64_t ops_per_sec(const struct replay_result *r)
{
	return r->op_ns ? (uint64_t)((double)(r->allocs + r->frees) * 1e9 / (double)r->op_ns) : 0;
}

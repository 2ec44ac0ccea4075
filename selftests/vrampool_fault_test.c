// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures, injected one at a time through fail-nth (see
 * vrampool_test_lib.h), in every operation a client can do on every device:
 * opening the device, GET_PARAM, POOL_INSTALL (an explicit list, a long
 * one, the presets, TEST_ONLY, a refused layout) and both steps of
 * POOL_QUERY. Every failure must be a clean ENOMEM that leaves the old
 * layout, its generation and the VRAM in use as they were; then the call
 * must succeed. Each client holds a persistent allocation and a free
 * dynamic page meanwhile, so that lost VRAM would show. Leaks are for
 * kmemleak (the debug-kernel VM scans after the tests).
 *
 * Skips with VP_FAULT_SKIP_REASON on a kernel without fault injection
 * (Debian's), fails instead when VRAMPOOL_FAULT_INJECTION=1 says the
 * kernel has it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define STATUS_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_status))

FIXTURE(fault) {
	int n;
	struct vp_device devs[VP_MAX_DEVICES];
	int fds[VP_MAX_DEVICES];		/* one client per device */
	struct vp_props props[VP_MAX_DEVICES];
};

VP_BACKEND_VARIANTS(fault);

/*
 * Give the client VRAM to lose: a live persistent allocation, and a free
 * page left in a dynamic pool (an install's cleanup releases it, so a
 * failed install that had run the cleanup would show).
 */
static void give_state(struct __test_metadata *_metadata, int fd, const char *dev)
{
	struct drm_vrampool_alloc a;
	uint64_t vram = 0;
	int ret;

	ret = vp_alloc(fd, 5000, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a);
	ASSERT_EQ(0, ret) TH_LOG("%s: persistent ALLOC: %s", dev, strerror(-ret));
	ret = vp_alloc(fd, 1000, 0, &a);
	ASSERT_EQ(0, ret) TH_LOG("%s: ALLOC: %s", dev, strerror(-ret));
	ret = vp_free(fd, a.handle);
	ASSERT_EQ(0, ret) TH_LOG("%s: FREE: %s", dev, strerror(-ret));
	ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &vram);
	ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_IN_USE: %s", dev, strerror(-ret));
	ASSERT_LT(0ull, vram) TH_LOG("%s: no VRAM in use after two allocations", dev);
}

FIXTURE_SETUP(fault)
{
	int i, ret;

	VP_FAULT_REQUIRE();
	self->n = vp_setup_open_all(_metadata, variant->backend, self->devs, self->fds);
	for (i = 0; i < self->n; i++) {
		ret = vp_read_props(self->fds[i], &self->props[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s: GET_PARAM: %s", self->devs[i].name, strerror(-ret));
		give_state(_metadata, self->fds[i], self->devs[i].name);
	}
}

FIXTURE_TEARDOWN(fault)
{
	vp_teardown_close_all(self->fds);
}

/* ---- Shared context: a client, its layout before the attempt ------------ */

struct ctx {
	int fd;				/* the client under test */
	const struct vp_device *dev;
	const struct vp_props *props;
	struct vp_snap before, after;	/* its layout around an attempt */
	/* POOL_INSTALL */
	struct drm_vrampool_pool_install req, args;
	const struct drm_vrampool_pool_entry *expect;
	uint32_t n;
	/* open() */
	int new_fd;
	/* GET_PARAM, POOL_QUERY */
	uint64_t value;
	struct drm_vrampool_pool_query qreq, q;
	struct drm_vrampool_pool_status *buf;
};

static int snapshot(void *p)
{
	struct ctx *c = p;

	return vp_snap_take(c->fd, &c->before);
}

static int unchanged(void *p, char *why, size_t len)
{
	struct ctx *c = p;

	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	return vp_snap_diff(&c->before, &c->after, why, len) ? -1 : 0;
}

/*
 * Run @op on @c and check the outcome; at least @min_faults injected. A
 * failure must leave the client's layout as the snapshot before it found it.
 */
static void run(struct __test_metadata *_metadata, struct vp_fault_op *op, struct ctx *c,
		unsigned int min_faults)
{
	op->ctx = c;
	op->snapshot = snapshot;
	op->unchanged = unchanged;
	op->allowed = vp_fault_only_enomem;
	op->vram_fd = c->fd;
	vp_fault_check(_metadata, op, c->dev->name, min_faults);
}

static void ctx_init(struct ctx *c, FIXTURE_DATA(fault) *self, int i)
{
	memset(c, 0, sizeof(*c));
	c->fd = self->fds[i];
	c->dev = &self->devs[i];
	c->props = &self->props[i];
	c->new_fd = -1;
}

/* ---- open() -------------------------------------------------------------- */

static int open_call(void *p)
{
	struct ctx *c = p;

	c->new_fd = open(c->dev->path, O_RDWR | O_CLOEXEC);
	return c->new_fd < 0 ? -errno : 0;
}

/* The new client works and has the default layout; then it goes. */
static int open_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;
	int ret = vp_snap_take(c->new_fd, &c->after);

	close(c->new_fd);
	c->new_fd = -1;
	if (ret) {
		snprintf(why, len, "POOL_QUERY on the new client: %s", strerror(-ret));
		return -1;
	}
	if (c->after.generation != 1 || c->after.num_pools == 0) {
		snprintf(why, len, "the new client has generation %" PRIu64 " and %u pools",
			 c->after.generation, c->after.num_pools);
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(fault, open_device, VP_FAULT_TIMEOUT)
{
	struct ctx *c = calloc(1, sizeof(*c));
	/* The snapshot is the fixture client's: a bystander, which a failure leaves alone. */
	struct vp_fault_op op = {
		.name = "open()",
		.call = open_call,
		.succeeded = open_succeeded,
	};

	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		ctx_init(c, self, i);
		run(_metadata, &op, c, 1);
	}
	free(c);
}

/* ---- GET_PARAM ----------------------------------------------------------- */

static int get_param_call(void *p)
{
	struct ctx *c = p;

	return vp_get_param(c->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &c->value);
}

static int get_param_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;

	if (c->value == c->props->vram_size)
		return 0;
	snprintf(why, len, "VRAM_SIZE %" PRIu64 ", not %" PRIu64, c->value, c->props->vram_size);
	return -1;
}

TEST_F_TIMEOUT(fault, get_param, VP_FAULT_TIMEOUT)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct vp_fault_op op = {
		.name = "GET_PARAM",
		.call = get_param_call,
		.succeeded = get_param_succeeded,
	};

	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		ctx_init(c, self, i);
		run(_metadata, &op, c, 0);	/* it allocates nothing */
	}
	free(c);
}

/* ---- POOL_INSTALL -------------------------------------------------------- */

static int install_call(void *p)
{
	struct ctx *c = p;

	c->args = c->req;
	return vp_install(c->fd, &c->args);
}

/* Installed: the next generation, the expected layout, no error reported. */
static int install_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;
	bool test_only = c->req.flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY;
	uint64_t want = c->before.generation + (test_only ? 0 : 1);
	struct drm_vrampool_pool_entry got[VP_LAYOUT_MAX];

	if (c->args.generation != want || c->args.num_pools != c->n || c->args.error.code) {
		snprintf(why, len, "it answered generation %" PRIu64 " (not %" PRIu64
			 "), %u pools (not %u), error code %u", (uint64_t)c->args.generation,
			 want, c->args.num_pools, c->n, c->args.error.code);
		return -1;
	}
	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	if (test_only)
		return vp_snap_diff(&c->before, &c->after, why, len) ? -1 : 0;
	if (c->after.generation != want || c->after.num_pools != c->n) {
		snprintf(why, len, "POOL_QUERY says generation %" PRIu64 ", %u pools",
			 c->after.generation, c->after.num_pools);
		return -1;
	}
	vp_snap_configs(&c->after, got);
	return vp_entries_diff(c->expect, got, c->n, why, len) >= 0 ? -1 : 0;
}

static const struct vp_fault_op install_op = {
	.call = install_call,
	.succeeded = install_succeeded,
};

TEST_F_TIMEOUT(fault, install_list, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry expect[4];
	struct ctx *c = calloc(1, sizeof(*c));
	struct vp_fault_op op = install_op;

	ASSERT_NE(NULL, c);
	op.name = "POOL_INSTALL of a list";
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry in[4] = {
			vp_exclusive(a + 1, VP_ABSENT), vp_sliced(8 * a, VP_ABSENT, VP_ABSENT),
			vp_direct(VP_ABSENT), vp_exclusive(0, VP_ABSENT),
		};

		if (self->props[i].exclusive)
			in[1] = vp_exclusive(8 * a, VP_ABSENT);
		for (int k = 0; k < 4; k++)
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		ctx_init(c, self, i);
		vp_req_list(&c->req, in, 4, 0);
		c->expect = expect;
		c->n = 4;
		run(_metadata, &op, c, 1);
	}
	free(c);
}

/*
 * 254 pools, about 530 injection points: on the debug kernel beside the
 * other VMs of make check it passed 120 s (twice, the emulated variant),
 * so twice the common bound.
 */
TEST_F_TIMEOUT(fault, install_most_pools, 2 * VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry *in = calloc(VP_LAYOUT_MAX, sizeof(*in));
	struct drm_vrampool_pool_entry *expect = calloc(VP_LAYOUT_MAX, sizeof(*expect));
	struct ctx *c = calloc(1, sizeof(*c));
	struct vp_fault_op op = install_op;

	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, expect);
	ASSERT_NE(NULL, c);
	op.name = "POOL_INSTALL of 254 pools";
	for (int i = 0; i < self->n; i++) {
		for (uint32_t k = 0; k < VP_LAYOUT_MAX; k++) {
			in[k] = vp_exclusive((k + 1) * 4096, VP_ABSENT);
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		}
		ctx_init(c, self, i);
		vp_req_list(&c->req, in, VP_LAYOUT_MAX, 0);
		c->expect = expect;
		c->n = VP_LAYOUT_MAX;
		run(_metadata, &op, c, 1);
	}
	free(in);
	free(expect);
	free(c);
}

TEST_F_TIMEOUT(fault, install_presets, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct ctx *c = calloc(1, sizeof(*c));
	struct vp_fault_op op = install_op;

	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		ctx_init(c, self, i);
		op.name = "POOL_INSTALL of exclusive-pages";
		vp_req_preset(&c->req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		c->n = vp_expect_exclusive_pages(&self->props[i], expect);
		c->expect = expect;
		run(_metadata, &op, c, 1);

		if (self->props[i].exclusive)
			continue;
		ctx_init(c, self, i);
		op.name = "POOL_INSTALL of sub-slices";
		vp_req_preset(&c->req, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
		c->n = vp_expect_sub_slices(&self->props[i], expect);
		c->expect = expect;
		run(_metadata, &op, c, 1);
	}
	free(c);
}

TEST_F_TIMEOUT(fault, install_test_only, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry expect[VP_LAYOUT_MAX];
	struct ctx *c = calloc(1, sizeof(*c));
	struct vp_fault_op op = install_op;

	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry in[3] = {
			vp_direct(VP_ABSENT), vp_exclusive(3 * a, VP_ABSENT),
			vp_exclusive(a, VP_ABSENT),
		};

		for (int k = 0; k < 3; k++)
			vp_expect_resolved(&self->props[i], &in[k], &expect[k]);
		ctx_init(c, self, i);
		op.name = "POOL_INSTALL of a list, TEST_ONLY";
		vp_req_list(&c->req, in, 3, DRM_VRAMPOOL_INSTALL_TEST_ONLY);
		c->expect = expect;
		c->n = 3;
		run(_metadata, &op, c, 1);

		ctx_init(c, self, i);
		op.name = "POOL_INSTALL of exclusive-pages, TEST_ONLY";
		vp_req_preset(&c->req, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES,
			      DRM_VRAMPOOL_INSTALL_TEST_ONLY);
		c->n = vp_expect_exclusive_pages(&self->props[i], expect);
		c->expect = expect;
		run(_metadata, &op, c, 1);
	}
	free(c);
}

/* A refused layout: the refusal itself is the "success". */
static int refused_call(void *p)
{
	struct ctx *c = p;
	int ret;

	c->args = c->req;
	ret = vp_install(c->fd, &c->args);
	if (ret == -EINVAL && c->args.error.code == DRM_VRAMPOOL_ERR_ZERO_SIZE &&
	    c->args.error.entry == 1 && c->args.error.field == DRM_VRAMPOOL_FIELD_PAGE_SIZE)
		return 0;
	return ret ? ret : -EPROTO;	/* accepted: not allowed, reported */
}

static int refused_succeeded(void *p, char *why, size_t len)
{
	return unchanged(p, why, len);
}

TEST_F_TIMEOUT(fault, install_refused, VP_FAULT_TIMEOUT)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct vp_fault_op op = {
		.name = "POOL_INSTALL of a refused list",
		.call = refused_call,
		.succeeded = refused_succeeded,
	};

	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		struct drm_vrampool_pool_entry in[2] = {
			vp_direct(VP_ABSENT), vp_sliced(0, VP_ABSENT, VP_ABSENT),
		};

		if (self->props[i].exclusive)
			continue;	/* that would be SlicedPoolsUnavailable */
		ctx_init(c, self, i);
		vp_req_list(&c->req, in, 2, 0);
		run(_metadata, &op, c, 1);
	}
	free(c);
}

/* ---- POOL_QUERY ---------------------------------------------------------- */

static int query_call(void *p)
{
	struct ctx *c = p;

	c->q = c->qreq;
	return vp_query(c->fd, &c->q);
}

/* The size step says the size; the data step gives the snapshot's bytes. */
static int query_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;

	if (c->q.generation != c->before.generation || c->q.num_pools != c->before.num_pools ||
	    c->q.size != c->before.size) {
		snprintf(why, len, "generation %" PRIu64 ", %u pools, size %u instead of %" PRIu64
			 ", %u, %u", (uint64_t)c->q.generation, c->q.num_pools, c->q.size,
			 c->before.generation, c->before.num_pools, c->before.size);
		return -1;
	}
	if (c->q.pools && memcmp(c->buf, c->before.pools, c->before.size)) {
		snprintf(why, len, "the answer differs from the snapshot's");
		return -1;
	}
	return 0;
}

static void query_both_steps(struct __test_metadata *_metadata, struct ctx *c)
{
	struct vp_fault_op op = {
		.call = query_call,
		.succeeded = query_succeeded,
	};
	int ret;

	ret = vp_snap_take(c->fd, &c->before);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", c->dev->name, strerror(-ret));

	op.name = "POOL_QUERY size step";
	memset(&c->qreq, 0, sizeof(c->qreq));
	run(_metadata, &op, c, 0);	/* it allocates nothing */

	op.name = "POOL_QUERY data step";
	c->buf = calloc(VP_QUERY_MAX, STATUS_SIZE);
	ASSERT_NE(NULL, c->buf);
	memset(&c->qreq, 0, sizeof(c->qreq));
	c->qreq.size = c->before.size;
	c->qreq.pools = (uintptr_t)c->buf;
	run(_metadata, &op, c, 1);
	free(c->buf);
	c->buf = NULL;
}

TEST_F_TIMEOUT(fault, query, VP_FAULT_TIMEOUT)
{
	struct ctx *c = calloc(1, sizeof(*c));

	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		ctx_init(c, self, i);
		query_both_steps(_metadata, c);
	}
	free(c);
}

/* An answer of more than a page: kvmalloc() may fall back to vmalloc(). */
TEST_F_TIMEOUT(fault, query_most_pools, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry *in = calloc(VP_LAYOUT_MAX, sizeof(*in));
	struct ctx *c = calloc(1, sizeof(*c));
	int ret;

	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, c);
	for (int i = 0; i < self->n; i++) {
		for (uint32_t k = 0; k < VP_LAYOUT_MAX; k++)
			in[k] = vp_direct(VP_ABSENT);
		ret = vp_install_list(self->fds[i], in, VP_LAYOUT_MAX, NULL);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", self->devs[i].name, strerror(-ret));
		ctx_init(c, self, i);
		query_both_steps(_metadata, c);
	}
	free(in);
	free(c);
}

TEST_HARNESS_MAIN

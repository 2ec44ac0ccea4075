// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fail-nth sweeps of ALLOC_BATCH (also from a spare record) and FREE_BATCH
 * on the first device of each backend (on a kernel with fault injection;
 * elsewhere they skip, as expected-skips.debian says): an injected failure
 * leaves the client as it was, a success is a whole one.
 *
 * The fixture and the helpers: vrampool_batch_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_batch_fixture.h"

/* ---- Fail-nth ------------------------------------------------------------------- */

struct fctx {
	int fd;
	struct state before;
	struct drm_vrampool_alloc_request reqs[4];
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_free_batch fb;
	uint32_t next;		/* the first handle a success gets */
	uint32_t h[4];
	const struct vp_device *dev;	/* fail_nth_alloc_batch_from_a_spare: its files */
};

static int f_snapshot(void *p)
{
	struct fctx *c = p;

	c->before.device_vram = 0;
	return vp_snap_take(c->fd, &c->before.snap);
}

static int f_unchanged(void *p, char *why, size_t len)
{
	struct fctx *c = p;
	struct state after = { .device_vram = 0 };

	if (vp_snap_take_why(c->fd, &after.snap, why, len))
		return -1;
	return state_diff(&c->before, &after, why, len);
}

static int f_alloc_call(void *p)
{
	struct fctx *c = p;

	return vp_alloc_batch(c->fd, c->reqs, c->ans, 4, &c->b);
}

/* A success: the handles expected; freed and cleaned up for the next attempt. */
static int f_alloc_succeeded(void *p, char *why, size_t len)
{
	struct fctx *c = p;
	uint32_t i;
	int ret;

	for (i = 0; i < 4; i++) {
		if (c->ans[i].handle != c->next + i) {
			snprintf(why, len, "request %u got handle %u, not %u (a failure leaked "
				 "a handle?)", i, c->ans[i].handle, c->next + i);
			return -1;
		}
		c->h[i] = c->ans[i].handle;
	}
	c->next += 4;
	ret = vp_free_batch(c->fd, c->h, 4, &c->fb);
	if (!ret)
		ret = vp_cleanup(c->fd);
	if (ret)
		snprintf(why, len, "undoing it: %s", strerror(-ret));
	return ret ? -1 : 0;
}

/* Every allocation of ALLOC_BATCH fails cleanly, with nothing left behind. */
TEST_F_TIMEOUT(batch, fail_nth_alloc_batch, VP_FAULT_TIMEOUT)
{
	static const uint64_t sizes[] = { 4096, 0, 1 * MiB, 8 * KiB };
	static const uint32_t flags[] = { 0, 0, 0, PERSISTENT };
	struct vp_fault_op op = {
		.name = "ALLOC_BATCH of 4 (new pages, a zero size, a persistent buffer)",
		.call = f_alloc_call,
		.snapshot = f_snapshot,
		.unchanged = f_unchanged,
		.succeeded = f_alloc_succeeded,
		.allowed = vp_fault_only_enomem,
	};
	struct fctx *c;

	VP_FAULT_REQUIRE();
	c = calloc(1, sizeof(*c));
	ASSERT_NE(NULL, c);
	c->fd = self->fd;
	c->next = self->next;
	requests(c->reqs, sizes, flags, 4);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	op.ctx = c;
	op.vram_fd = self->fd;
	/* The arrays (one allocation), three records, the handles, pages and their buffers. */
	vp_fault_check(_metadata, &op, self->dev.name, 6);
	free(c);
}

/*
 * A client with one spare record (DOC: spare records) and a page with room:
 * a new file each attempt, so that the spare is the only one. Closing the
 * file before frees its spares: one freed by a failed batch too would be
 * freed twice, which the debug kernel reports.
 */
static int s_snapshot(void *p)
{
	static const struct drm_vrampool_pool_entry e = { .type = DRM_VRAMPOOL_POOL_SLICED,
							  .page_size = 1 * MiB };
	struct fctx *c = p;
	struct drm_vrampool_alloc a;
	int ret;

	if (c->fd >= 0)
		close(c->fd);
	c->fd = vp_open_device(c->dev);
	if (c->fd < 0)
		return c->fd;
	ret = vp_install_list(c->fd, &e, 1, NULL);
	if (!ret)
		ret = vp_alloc(c->fd, 4096, 0, &a);
	if (!ret)
		ret = vp_free(c->fd, a.handle);
	if (!ret)
		ret = vp_snap_take(c->fd, &c->before.snap);
	return ret;
}

static int s_succeeded(void *p, char *why, size_t len)
{
	struct fctx *c = p;
	uint32_t i;
	int ret;

	for (i = 0; i < 4; i++)
		c->h[i] = c->ans[i].handle;
	ret = vp_free_batch(c->fd, c->h, 4, &c->fb);
	if (ret)
		snprintf(why, len, "freeing it: %s", strerror(-ret));
	return ret ? -1 : 0;
}

/* An ALLOC_BATCH that takes a spare record, then fails, gives the spare back whole. */
TEST_F_TIMEOUT(batch, fail_nth_alloc_batch_from_a_spare, VP_FAULT_TIMEOUT)
{
	static const uint64_t sizes[] = { 4096, 4096, 4096, 4096 };
	struct vp_fault_op op = {
		.name = "ALLOC_BATCH of 4 slices in a page, one spare record",
		.call = f_alloc_call,
		.snapshot = s_snapshot,
		.unchanged = f_unchanged,
		.succeeded = s_succeeded,
		.allowed = vp_fault_only_enomem,
		.vram_fd = -1,
	};
	struct fctx *c;

	VP_FAULT_REQUIRE();
	c = calloc(1, sizeof(*c));
	ASSERT_NE(NULL, c);
	c->dev = &self->dev;
	c->fd = -1;
	requests(c->reqs, sizes, NULL, 4);
	op.ctx = c;
	/* The arrays, the three records the spare does not cover. */
	vp_fault_check(_metadata, &op, self->dev.name, 2);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

static int f_free_call(void *p)
{
	struct fctx *c = p;

	return vp_free_batch(c->fd, c->h, 4, &c->fb);
}

/* A success freed the batch: allocate the next attempt's. */
static int f_free_succeeded(void *p, char *why, size_t len)
{
	struct fctx *c = p;
	uint32_t i;
	int ret;

	ret = vp_alloc_batch(c->fd, c->reqs, c->ans, 4, &c->b);
	if (ret) {
		snprintf(why, len, "allocating again: %s", strerror(-ret));
		return -1;
	}
	for (i = 0; i < 4; i++)
		c->h[i] = c->ans[i].handle;
	return 0;
}

/* FREE_BATCH's one allocation, its copy of the handles and sort keys, fails cleanly. */
TEST_F_TIMEOUT(batch, fail_nth_free_batch, VP_FAULT_TIMEOUT)
{
	static const uint64_t sizes[] = { 4096, 0, 1 * MiB, 8 * KiB };
	struct vp_fault_op op = {
		.name = "FREE_BATCH of 4",
		.call = f_free_call,
		.snapshot = f_snapshot,
		.unchanged = f_unchanged,
		.succeeded = f_free_succeeded,
		.allowed = vp_fault_only_enomem,
	};
	struct fctx *c;
	char why[256];

	VP_FAULT_REQUIRE();
	c = calloc(1, sizeof(*c));
	ASSERT_NE(NULL, c);
	c->fd = self->fd;
	requests(c->reqs, sizes, NULL, 4);
	ASSERT_EQ(0, f_free_succeeded(c, why, sizeof(why))) TH_LOG("%s", why);
	op.ctx = c;
	op.vram_fd = self->fd;
	vp_fault_check(_metadata, &op, self->dev.name, 1);
	free_answers(_metadata, self->fd, c->ans, 4);
	free(c);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-user limits (DOC: tenants), under the small values vrampool_limits_test.sh
 * loads the module with (max_allocations, max_pages: read back from
 * /sys/module/vrampool/parameters), on the first device of each backend:
 *
 *  - the allocation limit: exactly max_allocations live allocations, of
 *    every kind (zero-size, slices, persistent), then ALLOC fails with
 *    EDQUOT and ClientLimit {which: allocations, the limit, what is held,
 *    the size}, answers no handle and changes nothing; another file of the
 *    same user is refused too, another user's is not; after a FREE the
 *    client allocates again;
 *  - the page limit: exactly max_pages pages of all the client's pools
 *    (direct and persistent buffers), then an ALLOC that needs a page fails
 *    the same way (which: pages), while requests that need none (a free
 *    buffer of the size, a zero-size request) succeed; a free cached page
 *    of another size is given back to make room (the cleanup the limit
 *    runs first); another file of the same user is at the limit too,
 *    another user's is not;
 *  - in an ALLOC_BATCH the batch's own requests count: a batch that would
 *    pass either limit fails at the request that passes it (EDQUOT,
 *    ClientLimit naming it) and leaves everything as it was, the handle
 *    cursor included;
 *  - fail-nth over these paths (kernels with fault injection): the last
 *    allocation the limit allows, and a page made at the limit after the
 *    cleanup: every failure a clean ENOMEM, no allocation made.
 *
 * Not a *_test: on a module with the default limits the counts would take
 * minutes; vrampool_limits_test.sh reloads the module, runs this and
 * restores it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

/* The most this program counts to: the script loads smaller limits. */
#define MAX_ALLOCATIONS_HERE	4096
#define MAX_PAGES_HERE		64
#define BUF			(4 * KiB)
/* A user other than root, whose files have limits of their own. */
#define OTHER_USER		61020

FIXTURE(limits) {
	int fd;
	struct vp_device dev;
	uint32_t max_allocations, max_pages;
	uint32_t *handles;
	uint32_t live;
};

VP_BACKEND_VARIANTS(limits);

FIXTURE_SETUP(limits)
{
	uint64_t v;

	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ASSERT_EQ(0, vp_module_param_u64("max_allocations", &v));
	self->max_allocations = (uint32_t)v;
	ASSERT_EQ(0, vp_module_param_u64("max_pages", &v));
	self->max_pages = (uint32_t)v;
	ASSERT_TRUE(self->max_allocations >= 8 && self->max_allocations <= MAX_ALLOCATIONS_HERE &&
		    self->max_pages >= 4 && self->max_pages <= MAX_PAGES_HERE) {
		TH_LOG("max_allocations %u, max_pages %u: run through vrampool_limits_test.sh, "
		       "which loads small limits", self->max_allocations, self->max_pages);
	}
	self->handles = calloc(self->max_allocations, sizeof(*self->handles));
	ASSERT_NE(NULL, self->handles);
}

FIXTURE_TEARDOWN(limits)
{
	free(self->handles);
	if (self->fd >= 0)
		close(self->fd);
}

/* Keep @a's handle, to free it at the end. */
static void keep(FIXTURE_DATA(limits) *self, const struct drm_vrampool_alloc *a)
{
	self->handles[self->live++] = a->handle;
}

static void free_all(struct __test_metadata *_metadata, FIXTURE_DATA(limits) *self)
{
	while (self->live)
		VP_FREE_OK(self->fd, self->handles[--self->live], "a kept allocation");
}

/*
 * ALLOC of @size with @flags is refused at limit @which: EDQUOT, the
 * documented payload, libvrampool's variant and message, no handle, and the
 * client's pools and the device's VRAM as they were.
 */
static void expect_limit(struct __test_metadata *_metadata, int fd, uint64_t size,
			 uint32_t flags, uint32_t which, uint64_t max)
{
	struct vp_snap before, after;
	struct drm_vrampool_alloc a;
	struct vrampool_error e;
	uint64_t vram = vp_vram_in_use(fd);
	char why[256], msg[256];
	int ret;

	ASSERT_EQ(0, vp_snap_take(fd, &before));
	ret = vp_alloc(fd, size, flags, &a);
	ASSERT_EQ(-EDQUOT, ret) TH_LOG("ALLOC of %" PRIu64 " at the limit: %s", size,
				       strerror(-ret));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_CLIENT_LIMIT, a.error.code);
	EXPECT_EQ(which, a.error.pool);
	EXPECT_EQ(size, a.error.size);
	EXPECT_EQ(max, a.error.capacity);
	EXPECT_EQ(max, a.error.in_use);
	EXPECT_EQ(0u, a.handle);
	EXPECT_EQ(0u, a.mmap_offset);

	vrampool_error_from_alloc(&e, EDQUOT, &a.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_CLIENT_LIMIT, (int)e.kind);
	EXPECT_STREQ("ClientLimit", vrampool_error_kind_name(e.kind));
	vrampool_error_message(&e, msg, sizeof(msg));
	EXPECT_NE(NULL, strstr(msg, which == DRM_VRAMPOOL_LIMIT_PAGES ? "vrampool.max_pages" :
							      "vrampool.max_allocations"))
		TH_LOG("message: %s", msg);

	ASSERT_EQ(0, vp_snap_take(fd, &after));
	EXPECT_EQ(0, vp_snap_diff(&before, &after, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(vram, vp_vram_in_use(fd));
}

/*
 * Every kind of allocation counts: the max_allocations-th succeeds, the
 * next of any kind is refused; a FREE makes room for exactly one.
 */
TEST_F(limits, allocation_limit)
{
	struct drm_vrampool_pool_entry sliced = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	uint32_t max = self->max_allocations, i;
	struct drm_vrampool_alloc a;
	int other;

	/* Slices of one page, whatever the device's default layout makes of 256 bytes. */
	VP_INSTALL_OK(self->fd, &sliced, 1, "sliced{64 KiB}");
	for (i = 0; i < max; i++) {
		/* zero-size, a slice, zero-size persistent, a persistent buffer */
		static const uint64_t sizes[] = { 0, 256, 0, 512 };
		uint32_t flags = i % 4 >= 2 ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0;

		VP_ALLOC_OK(self->fd, sizes[i % 4], flags, &a, "below the allocation limit");
		keep(self, &a);
	}
	TH_LOG("%s: %u allocations made, the limit", self->dev.name, max);

	expect_limit(_metadata, self->fd, 0, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max);
	expect_limit(_metadata, self->fd, BUF, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max);
	expect_limit(_metadata, self->fd, 256, DRM_VRAMPOOL_ALLOC_PERSISTENT,
		     DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max);

	/* Another file of the same user shares the count; another user has its own. */
	other = vp_open_device(&self->dev);
	ASSERT_LE(0, other);
	expect_limit(_metadata, other, 0, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max);
	close(other);
	other = vp_open_device_as(&self->dev, OTHER_USER);
	ASSERT_LE(0, other);
	VP_ALLOC_OK(other, 0, 0, &a, "another user's client");
	close(other);

	/* After a FREE, one more, and then the limit again. */
	VP_FREE_OK(self->fd, self->handles[--self->live], "one allocation");
	VP_ALLOC_OK(self->fd, BUF, 0, &a, "after a FREE");
	keep(self, &a);
	expect_limit(_metadata, self->fd, 0, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max);

	free_all(_metadata, self);
	VP_ALLOC_OK(self->fd, 0, 0, &a, "everything freed");
	VP_FREE_OK(self->fd, a.handle, "everything freed");
}

/*
 * Pages of every pool count: max_pages - 1 direct buffers and a persistent
 * one, then a request that needs a page is refused, and the ones that need
 * none are not. A free cached buffer of another size goes to make room.
 */
TEST_F(limits, page_limit)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	uint32_t max = self->max_pages, i;
	struct drm_vrampool_alloc a, z;
	uint64_t vram;
	int other;

	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	for (i = 0; i + 1 < max; i++) {
		VP_ALLOC_OK(self->fd, BUF, 0, &a, "a buffer below the page limit");
		keep(self, &a);
	}
	VP_ALLOC_OK(self->fd, BUF, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "the last page: persistent");
	keep(self, &a);
	VP_EXPECT_PAGES(self->fd, 0, "at the page limit", max - 1, (uint64_t)(max - 1) * BUF);
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "at the page limit", 1, BUF);
	TH_LOG("%s: %u pages made, the limit", self->dev.name, max);

	expect_limit(_metadata, self->fd, BUF, 0, DRM_VRAMPOOL_LIMIT_PAGES, max);
	expect_limit(_metadata, self->fd, 2 * BUF, DRM_VRAMPOOL_ALLOC_PERSISTENT,
		     DRM_VRAMPOOL_LIMIT_PAGES, max);

	/* No page needed: a zero-size request, a free buffer of the size. */
	VP_ALLOC_OK(self->fd, 0, 0, &z, "zero-size at the page limit");
	VP_FREE_OK(self->fd, z.handle, "zero-size");
	VP_FREE_OK(self->fd, self->handles[0], "a direct buffer");
	VP_ALLOC_OK(self->fd, BUF, 0, &a, "the free buffer of the size");
	self->handles[0] = a.handle;
	VP_EXPECT_PAGES(self->fd, 0, "the buffer reused", max - 1, (uint64_t)(max - 1) * BUF);

	/* A free buffer of another size is released for a new one. */
	VP_FREE_OK(self->fd, self->handles[0], "a direct buffer");
	vram = vp_vram_in_use(self->fd);
	VP_ALLOC_OK(self->fd, 2 * BUF, 0, &a, "a new size, one free cached buffer");
	self->handles[0] = a.handle;
	VP_EXPECT_PAGES(self->fd, 0, "the cached buffer given back", max - 1,
			(uint64_t)max * BUF);
	EXPECT_EQ(vram + BUF, vp_vram_in_use(self->fd));
	expect_limit(_metadata, self->fd, 3 * BUF, 0, DRM_VRAMPOOL_LIMIT_PAGES, max);

	/* Another file of the same user shares the pages; another user has its own. */
	other = vp_open_device(&self->dev);
	ASSERT_LE(0, other);
	VP_INSTALL_OK(other, &direct, 1, "direct{}");
	expect_limit(_metadata, other, BUF, 0, DRM_VRAMPOOL_LIMIT_PAGES, max);
	close(other);
	other = vp_open_device_as(&self->dev, OTHER_USER);
	ASSERT_LE(0, other);
	VP_ALLOC_OK(other, BUF, 0, &a, "another user's client");
	close(other);

	free_all(_metadata, self);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	for (i = 0; i < max; i++) {
		VP_ALLOC_OK(self->fd, BUF, 0, &a, "after the cleanup");
		keep(self, &a);
	}
	expect_limit(_metadata, self->fd, BUF, 0, DRM_VRAMPOOL_LIMIT_PAGES, max);
	free_all(_metadata, self);
}

/* ---- batches: the limits count the batch's own requests ---------------------------- */

/* ALLOC_BATCH of @n requests of @size is refused at request @at, limit @which. */
static void expect_batch_limit(struct __test_metadata *_metadata, int fd, uint64_t size,
			       uint32_t n, uint32_t at, uint32_t which, uint64_t max, bool probe)
{
	struct drm_vrampool_alloc_request reqs[8] = { 0 };
	struct drm_vrampool_alloc_answer ans[8];
	struct drm_vrampool_alloc_batch b;
	struct vp_snap before, after;
	struct drm_vrampool_alloc a;
	uint64_t vram = vp_vram_in_use(fd);
	uint32_t i, next;
	char why[256];
	int ret;

	ASSERT_LE(n, 8u);
	/* The handle the next ALLOC gets (with room for one): a refused batch leaves it. */
	next = 0;
	if (probe) {
		VP_ALLOC_OK(fd, 0, 0, &a, "learning the next handle");
		VP_FREE_OK(fd, a.handle, "learning the next handle");
		next = a.handle + 1;
	}
	for (i = 0; i < n; i++)
		reqs[i].size = size;
	ASSERT_EQ(0, vp_snap_take(fd, &before));
	ret = vp_alloc_batch(fd, reqs, ans, n, &b);
	ASSERT_EQ(-EDQUOT, ret) TH_LOG("ALLOC_BATCH of %u x %" PRIu64 ": %s", n, size,
				       strerror(-ret));
	EXPECT_EQ(at, b.failed);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_CLIENT_LIMIT, b.error.code);
	EXPECT_EQ(which, b.error.pool);
	EXPECT_EQ(size, b.error.size);
	EXPECT_EQ(max, b.error.capacity);
	EXPECT_EQ(max, b.error.in_use) TH_LOG("the batch's earlier requests count");
	ASSERT_EQ(0, vp_snap_take(fd, &after));
	/*
	 * The peaks and the pages made remember the attempt (DOC: batches);
	 * nothing else does.
	 */
	for (i = 0; i < after.count; i++) {
		after.pools[i].pages_peak = before.pools[i].pages_peak;
		after.pools[i].largest_alloc = before.pools[i].largest_alloc;
		after.pools[i].pages_made = before.pools[i].pages_made;
	}
	EXPECT_EQ(0, vp_snap_diff(&before, &after, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(vram, vp_vram_in_use(fd));
	if (!probe)
		return;
	VP_ALLOC_OK(fd, 0, 0, &a, "after the refused batch");
	EXPECT_EQ(next, a.handle) TH_LOG("the refused batch used up a handle");
	VP_FREE_OK(fd, a.handle, "after the refused batch");
}

/*
 * Two allocations short of max_allocations, a batch of four fails at its
 * third request (found before anything is placed); a batch of two fills
 * the client exactly.
 */
TEST_F(limits, batch_allocation_limit)
{
	struct drm_vrampool_pool_entry sliced = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	uint32_t max = self->max_allocations, i;
	struct drm_vrampool_alloc_request reqs[2] = { { .size = BUF }, { .size = 0 } };
	struct drm_vrampool_alloc_answer ans[2];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_alloc a;

	VP_INSTALL_OK(self->fd, &sliced, 1, "sliced{64 KiB}");
	for (i = 0; i + 2 < max; i++) {
		VP_ALLOC_OK(self->fd, i % 2 ? BUF : 0, 0, &a, "below the allocation limit");
		keep(self, &a);
	}
	expect_batch_limit(_metadata, self->fd, BUF, 4, 2, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max,
			   true);
	expect_batch_limit(_metadata, self->fd, 0, 3, 2, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max,
			   true);
	ASSERT_EQ(0, vp_alloc_batch(self->fd, reqs, ans, 2, &b)) TH_LOG("filling the client");
	self->handles[self->live++] = ans[0].handle;
	self->handles[self->live++] = ans[1].handle;
	expect_limit(_metadata, self->fd, 0, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max);
	expect_batch_limit(_metadata, self->fd, 0, 1, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS, max,
			   false);
	free_all(_metadata, self);
}

/*
 * Two pages short of max_pages (direct buffers), a batch of four new
 * buffers fails at its third with the page limit; the two buffers it
 * made go back (the device's VRAM as before).
 */
TEST_F(limits, batch_page_limit)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	uint32_t max = self->max_pages, i;
	struct drm_vrampool_alloc a;

	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	for (i = 0; i + 2 < max; i++) {
		VP_ALLOC_OK(self->fd, BUF, 0, &a, "a buffer below the page limit");
		keep(self, &a);
	}
	expect_batch_limit(_metadata, self->fd, 2 * BUF, 4, 2, DRM_VRAMPOOL_LIMIT_PAGES, max,
			   true);
	free_all(_metadata, self);
}

/* ---- fail-nth ---------------------------------------------------------------------- */

struct sweep {
	int fd;
	uint64_t size;
	uint32_t want_handle;
	uint64_t cached;		/* a free buffer of this size to make again, or 0 */
	bool fresh;			/* give the freed buffer back: each try makes one */
	struct drm_vrampool_alloc a;
	struct vp_snap before, after;
};

static int sweep_call(void *p)
{
	struct sweep *s = p;

	return vp_alloc(s->fd, s->size, 0, &s->a);
}

static int sweep_snapshot(void *p)
{
	struct sweep *s = p;

	return vp_snap_take(s->fd, &s->before);
}

/*
 * A failure: no error code, no handle, every pool's allocations as before,
 * no page more (the cleanup may have given the cached one back) and no
 * VRAM more. A cached buffer the cleanup gave back is made again, so that
 * every attempt starts from the same state.
 */
static int remake_cached(struct sweep *s, char *why, size_t len)
{
	struct drm_vrampool_alloc c;
	int ret;

	ret = vp_alloc(s->fd, s->cached, 0, &c);
	if (!ret) {
		s->want_handle = c.handle + 1;	/* handles are cyclic */
		ret = vp_free(s->fd, c.handle);
	}
	if (ret)
		snprintf(why, len, "making the cached buffer again: %s", strerror(-ret));
	return ret ? -1 : 0;
}

static int sweep_unchanged(void *p, char *why, size_t len)
{
	struct sweep *s = p;
	uint32_t i;

	if (s->a.error.code || s->a.handle) {
		snprintf(why, len, "answered handle %u, error code %u", s->a.handle,
			 s->a.error.code);
		return -1;
	}
	if (vp_snap_take_why(s->fd, &s->after, why, len))
		return -1;
	if (s->after.vram_in_use > s->before.vram_in_use) {
		snprintf(why, len, "the client's VRAM went from %" PRIu64 " to %" PRIu64,
			 s->before.vram_in_use, s->after.vram_in_use);
		return -1;
	}
	for (i = 0; i < s->after.count; i++) {
		const struct drm_vrampool_pool_status *b = &s->before.pools[i];
		const struct drm_vrampool_pool_status *a = &s->after.pools[i];

		if (a->allocations != b->allocations || a->bytes_in_use != b->bytes_in_use ||
		    a->pages > b->pages) {
			snprintf(why, len, "pool %u: %" PRIu64 " allocations of %" PRIu64
				 " bytes in %" PRIu64 " pages, before %" PRIu64 " of %" PRIu64
				 " in %" PRIu64, a->index, (uint64_t)a->allocations,
				 (uint64_t)a->bytes_in_use, (uint64_t)a->pages,
				 (uint64_t)b->allocations, (uint64_t)b->bytes_in_use,
				 (uint64_t)b->pages);
			return -1;
		}
	}
	if (s->cached && s->after.vram_in_use < s->before.vram_in_use)
		return remake_cached(s, why, len);
	return 0;
}

/* A success: the handle expected; freed, and the cached buffer made again. */
static int sweep_succeeded(void *p, char *why, size_t len)
{
	struct sweep *s = p;
	int ret;

	if (s->a.handle != s->want_handle) {
		snprintf(why, len, "got handle %u, not %u (a failure leaked one?)", s->a.handle,
			 s->want_handle);
		return -1;
	}
	s->want_handle = s->a.handle + 1;	/* handles are cyclic */
	ret = vp_free(s->fd, s->a.handle);
	if (!ret && (s->cached || s->fresh))
		ret = vp_cleanup(s->fd);
	if (ret) {
		snprintf(why, len, "undoing it: %s", strerror(-ret));
		return -1;
	}
	return s->cached ? remake_cached(s, why, len) : 0;
}

static void sweep(struct __test_metadata *_metadata, FIXTURE_DATA(limits) *self,
		  struct sweep *s, const char *name, unsigned int min_faults)
{
	struct vp_fault_op op = {
		.name = name,
		.call = sweep_call,
		.snapshot = sweep_snapshot,
		.unchanged = sweep_unchanged,
		.succeeded = sweep_succeeded,
		.ctx = s,
		.allowed = vp_fault_only_enomem,
		/* The cleanup may give VRAM back: sweep_unchanged() checks it. */
		.vram_fd = -1,
	};

	s->fd = self->fd;
	vp_fault_check(_metadata, &op, self->dev.name, min_faults);
}

/* The last allocation the limit allows, a new direct buffer. */
TEST_F_TIMEOUT(limits, fail_nth_last_allocation, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	struct sweep s = { .size = BUF, .fresh = true };
	struct drm_vrampool_alloc a;
	uint32_t i;

	VP_FAULT_REQUIRE();
	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	for (i = 0; i + 1 < self->max_allocations; i++) {
		VP_ALLOC_OK(self->fd, 0, 0, &a, "zero-size, below the limit");
		keep(self, &a);
	}
	s.want_handle = self->max_allocations;
	/*
	 * The record, the page, its BO: at least three allocations. Each
	 * success is freed and cleaned up, or the next try would reuse the
	 * cached buffer and allocate nothing but the record.
	 */
	sweep(_metadata, self, &s, "ALLOC of the last allocation allowed", 3);
	VP_ALLOC_OK(self->fd, BUF, 0, &a, "the last allocation allowed");
	keep(self, &a);
	expect_limit(_metadata, self->fd, BUF, 0, DRM_VRAMPOOL_LIMIT_ALLOCATIONS,
		     self->max_allocations);
	free_all(_metadata, self);
}

/*
 * A page made at the page limit: refused first, the free cached buffer given
 * back by the cleanup, then made. A failure before or after the cleanup is
 * clean either way.
 */
TEST_F_TIMEOUT(limits, fail_nth_page_at_the_limit, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	struct sweep s = { .size = BUF, .cached = 2 * BUF };
	struct drm_vrampool_alloc a;
	uint32_t i;

	VP_FAULT_REQUIRE();
	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	for (i = 0; i + 1 < self->max_pages; i++) {
		VP_ALLOC_OK(self->fd, BUF, 0, &a, "a buffer below the page limit");
		keep(self, &a);
	}
	VP_ALLOC_OK(self->fd, s.cached, 0, &a, "the cached buffer");
	VP_FREE_OK(self->fd, a.handle, "the cached buffer");
	VP_EXPECT_PAGES(self->fd, 0, "at the limit, one cached", self->max_pages,
			(uint64_t)(self->max_pages + 1) * BUF);
	s.want_handle = a.handle + 1;	/* cyclic: not the cached buffer's again */
	/* The record, the refused page, the page made, its BO. */
	sweep(_metadata, self, &s, "ALLOC of a page at the page limit", 4);
	free_all(_metadata, self);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_VRAMPOOL_ALLOC_BATCH and FREE_BATCH (the uapi's "batches"), on
 * the first device of each backend:
 *
 *  - a batch serves its requests exactly as single ALLOCs would (handles,
 *    pools, pages, offsets, padding, page sizes; the pages map), and a
 *    FREE_BATCH frees them all; a count of 0 does nothing; answers in
 *    pages not faulted in yet (anonymous, or the device's own mapping);
 *  - every refusal: must-be-zero fields and request flags (EINVAL, the
 *    index named), a count past DRM_VRAMPOOL_BATCH_MAX (E2BIG), unreadable
 *    requests or handles and unwritable answers (EFAULT), a request too
 *    big (EFBIG, BufferTooBig), a capped pool full (ENOSPC,
 *    PoolCapacityExceeded), VRAM exhausted (ENOSPC, OutOfMemory), the
 *    VRAM quota (EDQUOT, QuotaExceeded); an unknown handle (ENOENT,
 *    NotFound) or one named twice (EINVAL, DuplicateHandle) in a FREE;
 *  - all or nothing: after each refusal the client's statistics, its VRAM,
 *    the device's VRAM in use and its handles are as before, and the next
 *    ALLOC gets the handle it would have got (the handle cursor is back);
 *  - fail-nth sweeps of both ioctls (on a kernel with fault injection).
 *
 * The per-client limits inside a batch are in vrampool_limits_test_helper.c (they need
 * the small limits vrampool_limits_test.sh loads).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define NO_ENTRY	DRM_VRAMPOOL_NO_ENTRY
#define MAX		DRM_VRAMPOOL_BATCH_MAX

FIXTURE(batch) {
	int fd;
	struct vp_device dev;
	/* The handle the next ALLOC gets (handles count up, DOC: allocations). */
	uint32_t next;
	char quota_path[VP_PATH_LEN];
	uint64_t quota;
};

VP_BACKEND_VARIANTS(batch);

/* Learns the handle the next ALLOC gets, with an ALLOC and a FREE. */
static uint32_t learn_next(struct __test_metadata *_metadata, int fd)
{
	struct drm_vrampool_alloc a;

	VP_ALLOC_OK(fd, 0, 0, &a, "learning the next handle");
	VP_FREE_OK(fd, a.handle, "learning the next handle");
	return a.handle + 1;
}

FIXTURE_SETUP(batch)
{
	self->quota_path[0] = '\0';
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	self->next = learn_next(_metadata, self->fd);
}

FIXTURE_TEARDOWN(batch)
{
	char buf[32];

	if (self->quota_path[0]) {
		snprintf(buf, sizeof(buf), "%" PRIu64, self->quota);
		vp_write_file(self->quota_path, buf);
	}
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- The client's state around a refused batch ----------------------------- */

struct state {
	struct vp_snap snap;
	uint64_t device_vram;
};

static void state_take(struct __test_metadata *_metadata, int fd, struct state *s)
{
	ASSERT_EQ(0, vp_snap_take(fd, &s->snap));
	s->device_vram = vp_vram_in_use(fd);
}

/*
 * What a refused batch must leave as it was: the layout, the client's VRAM
 * and the device's, and per pool its allocations, bytes, padding, reserved
 * bytes and pages (not the peaks: DOC: batches).
 */
static int state_diff(const struct state *a, const struct state *b, char *why, size_t len)
{
	const struct drm_vrampool_pool_status *p, *q;
	uint32_t i;

	if (a->snap.count != b->snap.count || a->snap.generation != b->snap.generation) {
		snprintf(why, len, "the layout changed");
		return -1;
	}
	if (a->snap.vram_in_use != b->snap.vram_in_use || a->device_vram != b->device_vram) {
		snprintf(why, len, "VRAM: the client's %" PRIu64 " -> %" PRIu64 ", the device's %"
			 PRIu64 " -> %" PRIu64, a->snap.vram_in_use, b->snap.vram_in_use,
			 a->device_vram, b->device_vram);
		return -1;
	}
	for (i = 0; i < a->snap.count; i++) {
		p = &a->snap.pools[i];
		q = &b->snap.pools[i];
		if (p->allocations != q->allocations || p->bytes_in_use != q->bytes_in_use ||
		    p->padding != q->padding || p->reserved_bytes != q->reserved_bytes ||
		    p->pages != q->pages) {
			snprintf(why, len, "pool %u: allocations %" PRIu64 " -> %" PRIu64
				 ", bytes %" PRIu64 " -> %" PRIu64 ", pages %" PRIu64 " -> %"
				 PRIu64, p->index, (uint64_t)p->allocations,
				 (uint64_t)q->allocations, (uint64_t)p->bytes_in_use,
				 (uint64_t)q->bytes_in_use, (uint64_t)p->pages, (uint64_t)q->pages);
			return -1;
		}
	}
	return 0;
}

/* After a refusal: the state as @before and the handle cursor where it was. */
#define EXPECT_UNCHANGED(before, what) do { \
	struct state __after; \
	char __why[256]; \
	state_take(_metadata, self->fd, &__after); \
	EXPECT_EQ(0, state_diff(before, &__after, __why, sizeof(__why))) { \
		TH_LOG("%s: %s", what, __why); \
	} \
	uint32_t __got = learn_next(_metadata, self->fd) - 1; \
	EXPECT_EQ(self->next, __got) { \
		TH_LOG("%s: the handle cursor moved (a handle was used up)", what); \
	} \
	self->next = __got + 1; \
} while (0)

/* A batch of @n requests of @sizes (flags @flags), into @reqs. */
static void requests(struct drm_vrampool_alloc_request *reqs, const uint64_t *sizes,
		     const uint32_t *flags, uint32_t n)
{
	uint32_t i;

	memset(reqs, 0, n * sizeof(*reqs));
	for (i = 0; i < n; i++) {
		reqs[i].size = sizes[i];
		reqs[i].flags = flags ? flags[i] : 0;
	}
}

/* A batch that must be refused with @err at @failed, code @code. */
#define EXPECT_REFUSED(b, ret, err, failed_at, code_) do { \
	EXPECT_EQ(-(err), ret) TH_LOG("ALLOC_BATCH: %s", strerror(-(ret))); \
	EXPECT_EQ((uint32_t)(failed_at), (b)->failed); \
	EXPECT_EQ((uint32_t)(code_), (b)->error.code); \
} while (0)

/* Frees @n answers' handles with FREE_BATCH. */
static void free_answers(struct __test_metadata *_metadata, int fd,
			 const struct drm_vrampool_alloc_answer *ans, uint32_t n)
{
	struct drm_vrampool_free_batch fb;
	uint32_t *h = calloc(n ? n : 1, sizeof(*h));
	uint32_t i;
	int ret;

	ASSERT_NE(NULL, h);
	for (i = 0; i < n; i++)
		h[i] = ans[i].handle;
	ret = vp_free_batch(fd, h, n, &fb);
	EXPECT_EQ(0, ret) TH_LOG("FREE_BATCH of %u: %s (failed %u, code %u)", n, strerror(-ret),
				 fb.failed, fb.code);
	free(h);
}

/*
 * Small pages whatever the device (the PCI device's default layout has
 * pages too large for two clients' worth of them): sliced 64 KiB and
 * 1 MiB pages, then a direct pool for the rest.
 */
static void small_layout(struct __test_metadata *_metadata, int fd)
{
	struct drm_vrampool_pool_entry e[3] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT),
		vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};

	VP_INSTALL_OK(fd, e, 3, "sliced{64 KiB}, sliced{1 MiB}, direct{}");
}

/* ---- Success --------------------------------------------------------------- */

/* A count of 0 reads nothing, allocates nothing, uses up no handle. */
TEST_F(batch, count_zero_does_nothing)
{
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_free_batch fb;
	struct state before;

	state_take(_metadata, self->fd, &before);
	EXPECT_EQ(0, vp_alloc_batch(self->fd, NULL, NULL, 0, &b));
	EXPECT_EQ(NO_ENTRY, b.failed);
	EXPECT_EQ(0u, b.error.code);
	EXPECT_EQ(0, vp_free_batch(self->fd, NULL, 0, &fb));
	EXPECT_EQ(NO_ENTRY, fb.failed);
	EXPECT_EQ(0u, fb.code);
	EXPECT_UNCHANGED(&before, "count 0");
}

/* The same statistics on both clients, pool by pool; @s1 is @fd's. */
static void same_stats(struct __test_metadata *_metadata, int fd, int other, struct vp_snap *s1)
{
	static struct vp_snap s2;
	uint32_t i;

	ASSERT_EQ(0, vp_snap_take(fd, s1));
	ASSERT_EQ(0, vp_snap_take(other, &s2));
	ASSERT_EQ(s1->count, s2.count);
	for (i = 0; i < s1->count; i++) {
		EXPECT_EQ(s2.pools[i].allocations, s1->pools[i].allocations) TH_LOG("pool %u", i);
		EXPECT_EQ(s2.pools[i].bytes_in_use, s1->pools[i].bytes_in_use) TH_LOG("pool %u", i);
		EXPECT_EQ(s2.pools[i].pages, s1->pools[i].pages) TH_LOG("pool %u", i);
	}
	EXPECT_EQ(s2.vram_in_use, s1->vram_in_use);
}

/* The byte request @i of a test fills its allocation with: never 0. */
static uint8_t fill_of(uint32_t i)
{
	return (uint8_t)(0xa0 + i);
}

/* How many of the first @n bytes at @p equal @v, counted up to the first that does not. */
static uint64_t bytes_equal(const uint8_t *p, uint8_t v, uint64_t n)
{
	uint64_t k = 0;

	while (k < n && p[k] == v)
		k++;
	return k;
}

/*
 * A batch answers what the same ALLOCs, one by one, answer on another
 * client with the same layout; every page maps; FREE_BATCH frees them all.
 */
TEST_F(batch, serves_like_single_allocs)
{
	static const uint64_t sizes[] = { 0, 1, 4096, 1000, 64 * KiB, 1 * MiB, 3, 0, 12345,
					  8 * KiB, 256, 2 * MiB };
	static const uint32_t flags[] = { 0, 0, 0, PERSISTENT, 0, 0, 0, PERSISTENT, 0,
					  PERSISTENT, 0, 0 };
	const uint32_t n = sizeof(sizes) / sizeof(sizes[0]);
	struct drm_vrampool_alloc_request reqs[sizeof(sizes) / sizeof(sizes[0])];
	struct drm_vrampool_alloc_answer ans[sizeof(sizes) / sizeof(sizes[0])];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_alloc one;
	struct vp_snap s1;
	uint32_t i;
	uint8_t *map;
	int other, ret;

	other = vp_open_device(&self->dev);
	ASSERT_LE(0, other);
	small_layout(_metadata, self->fd);
	small_layout(_metadata, other);
	requests(reqs, sizes, flags, n);
	memset(ans, VP_POISON, sizeof(ans));
	ret = vp_alloc_batch(self->fd, reqs, ans, n, &b);
	ASSERT_EQ(0, ret) TH_LOG("ALLOC_BATCH: %s (failed %u, code %u)", strerror(-ret),
				 b.failed, b.error.code);
	EXPECT_EQ(NO_ENTRY, b.failed);
	EXPECT_EQ(0u, b.error.code);

	for (i = 0; i < n; i++) {
		VP_ALLOC_OK(other, sizes[i], flags[i], &one, "the same request alone");
		EXPECT_EQ(self->next + i, ans[i].handle) TH_LOG("request %u", i);
		EXPECT_EQ(one.pool, ans[i].pool) TH_LOG("request %u (%" PRIu64 ")", i, sizes[i]);
		EXPECT_EQ(one.page, ans[i].page) TH_LOG("request %u", i);
		EXPECT_EQ(one.offset, ans[i].offset) TH_LOG("request %u", i);
		EXPECT_EQ(one.padding, ans[i].padding) TH_LOG("request %u", i);
		EXPECT_EQ(one.page_size, ans[i].page_size) TH_LOG("request %u", i);
		EXPECT_EQ(0u, ans[i].pad) TH_LOG("request %u", i);
		EXPECT_EQ(!sizes[i], !ans[i].mmap_offset) TH_LOG("request %u", i);
		if (!sizes[i]) {
			EXPECT_EQ(DRM_VRAMPOOL_NO_PAGE, ans[i].page);
			continue;
		}
		/* New pages: the allocation reads zero before it is filled. */
		map = mmap(NULL, ans[i].page_size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
			   ans[i].mmap_offset);
		ASSERT_NE(MAP_FAILED, map) TH_LOG("mmap of request %u: %s", i, strerror(errno));
		EXPECT_EQ(sizes[i], bytes_equal(map + ans[i].offset, 0, sizes[i]))
			TH_LOG("request %u: a non-zero byte before it was filled", i);
		memset(map + ans[i].offset, fill_of(i), sizes[i]);
		munmap(map, ans[i].page_size);
	}
	/* Every allocation holds its own bytes, read through a second mapping. */
	for (i = 0; i < n; i++) {
		if (!sizes[i])
			continue;
		map = mmap(NULL, ans[i].page_size, PROT_READ, MAP_SHARED, self->fd,
			   ans[i].mmap_offset);
		ASSERT_NE(MAP_FAILED, map) TH_LOG("mmap of request %u: %s", i, strerror(errno));
		EXPECT_EQ(sizes[i], bytes_equal(map + ans[i].offset, fill_of(i), sizes[i]))
			TH_LOG("request %u: not its own bytes", i);
		munmap(map, ans[i].page_size);
	}
	same_stats(_metadata, self->fd, other, &s1);
	close(other);

	free_answers(_metadata, self->fd, ans, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(-ENOENT, vp_free(self->fd, ans[i].handle)) TH_LOG("request %u", i);
	ASSERT_EQ(0, vp_snap_take(self->fd, &s1));
	for (i = 0; i < s1.count; i++)
		EXPECT_EQ(0u, s1.pools[i].allocations) TH_LOG("pool %u", i);
}

/*
 * The layout and holes runs_serve_like_single_allocs starts from, on each
 * client alike: a capped sliced pool (2 pages of 64 KiB) whose first page
 * has two 12 KiB holes, an exclusive pool with a short period (its periodic
 * pass falls due during the batch: its free page goes), an uncapped sliced
 * pool and a direct one.
 */
static void runs_layout(struct __test_metadata *_metadata, int fd, uint32_t *keep)
{
	struct drm_vrampool_pool_entry e[4] = {
		vp_sliced(64 * KiB, 16 * KiB, 128 * KiB),
		vp_exclusive(32 * KiB, 3),
		vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc a[5], x;
	uint32_t i;

	VP_INSTALL_OK(fd, e, 4, "capped sliced, exclusive{period 3}, sliced, direct");
	for (i = 0; i < 5; i++)
		VP_ALLOC_OK(fd, 12 * KiB, 0, &a[i], "a slice of the first page");
	VP_FREE_OK(fd, a[1].handle, "a hole at 12 KiB");
	VP_FREE_OK(fd, a[3].handle, "a hole at 36 KiB");
	VP_ALLOC_OK(fd, 20 * KiB, 0, &x, "an exclusive page");
	VP_FREE_OK(fd, x.handle, "the exclusive page, free");
	keep[0] = a[0].handle;
	keep[1] = a[2].handle;
	keep[2] = a[4].handle;
}

/*
 * The runs' ALLOC_BATCH on @fd against the same ALLOCs one by one on
 * @other: the same answers, handles aside (@h2 gets @other's).
 */
static void runs_batch_vs_singles(struct __test_metadata *_metadata, int fd, int other,
				  const struct drm_vrampool_alloc_request *reqs,
				  struct drm_vrampool_alloc_answer *ans, uint32_t *h2, uint32_t n)
{
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_alloc one;
	uint32_t i;
	int ret;

	memset(ans, VP_POISON, n * sizeof(*ans));
	ret = vp_alloc_batch(fd, reqs, ans, n, &b);
	ASSERT_EQ(0, ret) TH_LOG("ALLOC_BATCH: %s (failed %u, code %u)", strerror(-ret),
				 b.failed, b.error.code);
	for (i = 0; i < n; i++) {
		VP_ALLOC_OK(other, reqs[i].size, 0, &one, "the same request alone");
		h2[i] = one.handle;
		EXPECT_EQ(one.pool, ans[i].pool)
			TH_LOG("request %u (%llu)", i, (unsigned long long)reqs[i].size);
		EXPECT_EQ(one.page, ans[i].page) TH_LOG("request %u", i);
		EXPECT_EQ(one.offset, ans[i].offset) TH_LOG("request %u", i);
		EXPECT_EQ(one.padding, ans[i].padding) TH_LOG("request %u", i);
		EXPECT_EQ(one.page_size, ans[i].page_size) TH_LOG("request %u", i);
	}
}

/*
 * Runs of equal requests, as a runtime batches them, answer what the same
 * ALLOCs one by one answer: holes filled first, pages filled and new ones
 * made, a capped pool full and the next pool taking the rest, the
 * exclusive pool's periodic pass between two requests of a run. A
 * FREE_BATCH of some of them, neighbours in a page and not, in and out of
 * order, leaves what the same FREEs leave: the same runs are served in the
 * same places again.
 */
TEST_F(batch, runs_serve_like_single_allocs)
{
	static const struct { uint64_t size; uint32_t count; } runs[] = {
		{ 12 * KiB, 14 }, { 100, 6 }, { 20 * KiB, 4 }, { 40 * KiB, 30 },
		{ 0, 3 }, { 16 * KiB, 9 }, { 8 * KiB, 1 }, { 64 * KiB, 5 },
	};
	struct drm_vrampool_alloc_request reqs[80];
	struct drm_vrampool_alloc_answer ans[80], ans2[80];
	struct drm_vrampool_free_batch fb;
	uint32_t i, r, k, n = 0, keep[3], keep2[3], h2[80], h3[80], hb[80], pick[80], nb = 0;
	bool freed[80] = { false };
	struct vp_snap s1;
	int other, ret;

	memset(reqs, 0, sizeof(reqs));
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
		for (k = 0; k < runs[r].count; k++)
			reqs[n++].size = runs[r].size;
	ASSERT_GE(sizeof(reqs) / sizeof(reqs[0]), n);
	other = vp_open_device(&self->dev);
	ASSERT_LE(0, other);
	runs_layout(_metadata, self->fd, keep);
	runs_layout(_metadata, other, keep2);

	runs_batch_vs_singles(_metadata, self->fd, other, reqs, ans, h2, n);
	same_stats(_metadata, self->fd, other, &s1);
	/* Both pools of slices were used, and the capped one is full. */
	EXPECT_EQ(2u, s1.pools[0].pages);
	EXPECT_LT(0u, s1.pools[2].allocations);

	/*
	 * Frees: a run of neighbours in a page, last first; every third of
	 * the rest, in the batch's order; the last five, last first.
	 */
	for (i = 20; i-- > 4;)
		pick[nb++] = i;
	for (i = 20; i < n - 5; i += 3)
		pick[nb++] = i;
	for (i = n; i-- > n - 5;)
		pick[nb++] = i;
	for (k = 0; k < nb; k++) {
		freed[pick[k]] = true;
		hb[k] = ans[pick[k]].handle;
		h3[k] = h2[pick[k]];
	}
	ret = vp_free_batch(self->fd, hb, nb, &fb);
	ASSERT_EQ(0, ret) TH_LOG("FREE_BATCH of %u: %s (failed %u, code %u)", nb,
				 strerror(-ret), fb.failed, fb.code);
	for (i = 0; i < nb; i++)
		VP_FREE_OK(other, h3[i], "the same FREE alone");
	same_stats(_metadata, self->fd, other, &s1);

	/* The holes they left are the same: the runs go to the same places. */
	runs_batch_vs_singles(_metadata, self->fd, other, reqs, ans2, h3, n);
	same_stats(_metadata, self->fd, other, &s1);
	close(other);
	free_answers(_metadata, self->fd, ans2, n);
	for (i = 0; i < n; i++)
		if (!freed[i])
			VP_FREE_OK(self->fd, ans[i].handle, "an allocation the FREE_BATCH left");
	for (i = 0; i < 3; i++)
		VP_FREE_OK(self->fd, keep[i], "a slice kept from before");
}

/*
 * A run of equal requests stops for the periodic pass: an exclusive page
 * reused until its idle count is 0 (period 50: a check every 10
 * allocations, freed at the fifth while free) sees its checks fall due
 * during a batch of 100 slices, all in one page, and is given back in the
 * middle of it, just as the same ALLOCs one by one give it back.
 */
TEST_F(batch, runs_stop_for_the_periodic_pass)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_sliced(1 * MiB, 16 * KiB, VP_ABSENT),
		vp_exclusive(32 * KiB, 50),
	};
	struct drm_vrampool_alloc_request reqs[100];
	struct drm_vrampool_alloc_answer ans[100];
	struct drm_vrampool_alloc x;
	uint32_t i, h2[100];
	struct vp_snap s1;
	int fds[2], other, f;

	other = vp_open_device(&self->dev);
	ASSERT_LE(0, other);
	fds[0] = self->fd;
	fds[1] = other;
	for (f = 0; f < 2; f++) {
		VP_INSTALL_OK(fds[f], e, 2, "sliced{1 MiB, slice 16 KiB}, exclusive{32 KiB, 50}");
		/* Made, then taken again four times: its idle count is 0. */
		for (i = 0; i < 5; i++) {
			VP_ALLOC_OK(fds[f], 20 * KiB, 0, &x, "the exclusive page");
			VP_FREE_OK(fds[f], x.handle, "the exclusive page, free");
		}
	}
	memset(reqs, 0, sizeof(reqs));
	for (i = 0; i < 100; i++)
		reqs[i].size = 4 * KiB;
	runs_batch_vs_singles(_metadata, self->fd, other, reqs, ans, h2, 100);
	same_stats(_metadata, self->fd, other, &s1);
	EXPECT_EQ(0u, s1.pools[1].pages) TH_LOG("the exclusive page, idle for five checks");
	close(other);
	free_answers(_metadata, self->fd, ans, 100);
}

/* Serves @reqs with its answers at @ans; checks them and frees them again. */
static void batch_into(struct __test_metadata *_metadata, int fd,
		       const struct drm_vrampool_alloc_request *reqs,
		       struct drm_vrampool_alloc_answer *ans, uint32_t n, const char *where)
{
	struct drm_vrampool_alloc_batch b;
	uint32_t i;
	int ret;

	ret = vp_alloc_batch(fd, reqs, ans, n, &b);
	ASSERT_EQ(0, ret) TH_LOG("ALLOC_BATCH, answers %s: %s (failed %u, code %u)", where,
				 strerror(-ret), b.failed, b.error.code);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(ans[0].handle + i, ans[i].handle) TH_LOG("%s: request %u", where, i);
		EXPECT_EQ(!reqs[i].size, ans[i].page == DRM_VRAMPOOL_NO_PAGE)
			TH_LOG("%s: request %u", where, i);
		EXPECT_EQ(0u, ans[i].pad) TH_LOG("%s: request %u", where, i);
	}
	/* Valid handles, each freed once. */
	free_answers(_metadata, fd, ans, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(-ENOENT, vp_free(fd, ans[i].handle)) TH_LOG("%s: request %u", where, i);
}

/*
 * Answers in pages nothing has touched yet. Under the client lock the
 * kernel writes with page faults disabled (DOC: Locking), so there it
 * cannot write these: it writes them without the lock, then makes the
 * handles valid. The batch is served all the same, into anonymous memory
 * and into a page of the device's own VRAM that is mapped but not faulted
 * in: its fault takes the buffer's reservation, which must never wait
 * under the client lock (lockdep, on the debug kernel, would say so).
 */
TEST_F(batch, answers_in_pages_not_faulted_in)
{
	static const uint64_t sizes[] = { 4096, 0, 64 * KiB, 100, 1 * MiB, 4096 };
	const uint32_t n = sizeof(sizes) / sizeof(sizes[0]);
	struct drm_vrampool_alloc_request reqs[sizeof(sizes) / sizeof(sizes[0])];
	long page = sysconf(_SC_PAGESIZE);
	struct drm_vrampool_alloc big;
	unsigned char vec[2];
	uint8_t *anon, *vram;

	small_layout(_metadata, self->fd);
	requests(reqs, sizes, NULL, n);

	/* Two untouched anonymous pages, the answers across their border. */
	anon = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, anon);
	ASSERT_EQ(0, mincore(anon, 2 * page, vec));
	ASSERT_EQ(0, (vec[0] | vec[1]) & 1) TH_LOG("the pages are in memory already");
	batch_into(_metadata, self->fd, reqs,
		   (void *)(anon + page - 3 * sizeof(struct drm_vrampool_alloc_answer)), n,
		   "in untouched anonymous pages");
	munmap(anon, 2 * page);

	/* A VRAM page of the direct pool, mapped, never touched. */
	VP_ALLOC_OK(self->fd, 2 * MiB, 0, &big, "a buffer to map");
	vram = mmap(NULL, big.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    big.mmap_offset);
	ASSERT_NE(MAP_FAILED, vram) TH_LOG("mmap: %s", strerror(errno));
	batch_into(_metadata, self->fd, reqs, (void *)(vram + big.offset), n,
		   "in a mapped VRAM page");
	munmap(vram, big.page_size);
	VP_FREE_OK(self->fd, big.handle, "the mapped buffer");
}

/* DRM_VRAMPOOL_BATCH_MAX requests are one batch; one more is E2BIG. */
TEST_F(batch, count_limit)
{
	struct drm_vrampool_alloc_request *reqs = calloc(MAX + 1, sizeof(*reqs));
	struct drm_vrampool_alloc_answer *ans = calloc(MAX + 1, sizeof(*ans));
	uint32_t *h = calloc(MAX + 1, sizeof(*h));
	const uint32_t counts[] = { MAX + 1, UINT32_MAX, 0x80000000u };
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_free_batch fb;
	struct state before;
	uint32_t i, k;
	int ret;

	ASSERT_TRUE(reqs && ans && h);
	small_layout(_metadata, self->fd);
	for (i = 0; i <= MAX; i++)
		reqs[i].size = i % 2 ? 256 : 0;
	state_take(_metadata, self->fd, &before);
	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		ret = vp_alloc_batch(self->fd, reqs, ans, counts[k], &b);
		EXPECT_EQ(-E2BIG, ret) TH_LOG("ALLOC_BATCH of %u: %s", counts[k], strerror(-ret));
		EXPECT_EQ(NO_ENTRY, b.failed);
		ret = vp_free_batch(self->fd, h, counts[k], &fb);
		EXPECT_EQ(-E2BIG, ret) TH_LOG("FREE_BATCH of %u: %s", counts[k], strerror(-ret));
	}
	EXPECT_UNCHANGED(&before, "count past the maximum");

	ret = vp_alloc_batch(self->fd, reqs, ans, MAX, &b);
	ASSERT_EQ(0, ret) TH_LOG("ALLOC_BATCH of %u: %s", MAX, strerror(-ret));
	for (i = 0; i < MAX; i++)
		ASSERT_EQ(self->next + i, ans[i].handle);
	self->next += MAX;
	free_answers(_metadata, self->fd, ans, MAX);
	free(reqs);
	free(ans);
	free(h);
}

/* ---- Malformed batches ------------------------------------------------------- */

/* Each must-be-zero field, and a request's unknown flag or pad, is EINVAL. */
TEST_F(batch, must_be_zero_fields)
{
	static const uint64_t sizes[] = { 4096, 1 * MiB, 256, 0 };
	struct drm_vrampool_alloc_request reqs[4];
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_free_batch fb;
	struct state before;
	uint32_t h[1] = { 0 };
	int k, ret;

	state_take(_metadata, self->fd, &before);
	for (k = 0; k < 5; k++) {
		requests(reqs, sizes, NULL, 4);
		memset(&b, 0, sizeof(b));
		b.requests = (uintptr_t)reqs;
		b.answers = (uintptr_t)ans;
		b.count = 4;
		switch (k) {
		case 0: b.flags = 1; break;
		case 1: b.pad = 1; break;
		case 2: b.reserved[0] = 1; break;
		case 3: b.reserved[1] = 1; break;
		case 4: b.flags = 0x80000000u; break;
		}
		ret = vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &b);
		EXPECT_REFUSED(&b, ret, EINVAL, NO_ENTRY, 0);
	}

	requests(reqs, sizes, NULL, 4);
	reqs[2].flags = DRM_VRAMPOOL_ALLOC_FLAGS + 1;
	ret = vp_alloc_batch(self->fd, reqs, ans, 4, &b);
	EXPECT_REFUSED(&b, ret, EINVAL, 2, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT);
	requests(reqs, sizes, NULL, 4);
	reqs[1].pad = 1;
	ret = vp_alloc_batch(self->fd, reqs, ans, 4, &b);
	EXPECT_REFUSED(&b, ret, EINVAL, 1, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT);

	memset(&fb, 0, sizeof(fb));
	fb.handles = (uintptr_t)h;
	fb.count = 1;
	fb.flags = 1;
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &fb));
	fb.flags = 0;
	fb.reserved = 1;
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &fb));
	EXPECT_EQ(NO_ENTRY, fb.failed);
	EXPECT_UNCHANGED(&before, "must-be-zero fields");
}

/* A mapping of two pages, the second inaccessible: an array may end in it. */
static uint8_t *edge_map(struct __test_metadata *_metadata, int first_prot)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	EXPECT_NE(MAP_FAILED, m);
	if (m == MAP_FAILED)
		return NULL;
	memset(m, 0, page);
	EXPECT_EQ(0, mprotect(m, page, first_prot));
	EXPECT_EQ(0, mprotect(m + page, page, PROT_NONE));
	return m;
}

/*
 * Unreadable requests are EFAULT before anything; unwritable answers
 * (NULL, read-only, or running into an inaccessible page) are EFAULT after
 * the requests were served, and every allocation is undone: new pages and
 * the device's VRAM included.
 */
TEST_F(batch, bad_pointers_efault)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	static const uint64_t sizes[] = { 1 * MiB, 4096, 0, 64 * KiB };
	struct drm_vrampool_alloc_request reqs[4];
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_free_batch fb;
	long page = sysconf(_SC_PAGESIZE);
	struct state before;
	uint8_t *ro, *edge;
	uint32_t h[2];
	int ret;

	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	requests(reqs, sizes, NULL, 4);
	ro = edge_map(_metadata, PROT_READ);
	edge = edge_map(_metadata, PROT_READ | PROT_WRITE);
	ASSERT_TRUE(ro && edge);
	state_take(_metadata, self->fd, &before);

	ret = vp_alloc_batch(self->fd, NULL, ans, 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	ret = vp_alloc_batch(self->fd, (void *)(edge + page), ans, 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	/* Requests running into the inaccessible page. */
	memcpy(edge + page - 2 * sizeof(reqs[0]), reqs, 2 * sizeof(reqs[0]));
	ret = vp_alloc_batch(self->fd, (void *)(edge + page - 2 * sizeof(reqs[0])), ans, 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	EXPECT_UNCHANGED(&before, "unreadable requests");

	ret = vp_alloc_batch(self->fd, reqs, NULL, 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	EXPECT_UNCHANGED(&before, "answers at NULL");
	ret = vp_alloc_batch(self->fd, reqs, (void *)ro, 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	EXPECT_UNCHANGED(&before, "read-only answers");
	ret = vp_alloc_batch(self->fd, reqs, (void *)(edge + page - sizeof(ans[0])), 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	EXPECT_UNCHANGED(&before, "answers running into an inaccessible page");

	/* FREE_BATCH: unreadable handles free nothing. */
	ret = vp_alloc_batch(self->fd, reqs, ans, 2, &b);
	ASSERT_EQ(0, ret);
	self->next += 2;
	state_take(_metadata, self->fd, &before);
	EXPECT_EQ(-EFAULT, vp_free_batch(self->fd, NULL, 2, &fb));
	memcpy(edge + page - sizeof(h[0]), &ans[0].handle, sizeof(h[0]));
	EXPECT_EQ(-EFAULT, vp_free_batch(self->fd, (void *)(edge + page - sizeof(h[0])), 2, &fb));
	EXPECT_EQ(NO_ENTRY, fb.failed);
	EXPECT_UNCHANGED(&before, "unreadable handles");
	free_answers(_metadata, self->fd, ans, 2);
	munmap(ro, 2 * page);
	munmap(edge, 2 * page);
}

/* ---- Refusals mid-way: all or nothing ------------------------------------------ */

/* The last request too big: EFBIG naming it, nothing allocated. */
TEST_F(batch, last_request_too_big)
{
	struct drm_vrampool_pool_entry excl = vp_exclusive(64 * KiB, VP_ABSENT);
	uint64_t sizes[] = { 4096, 64 * KiB, 0, 1000, UINT64_MAX };
	struct drm_vrampool_alloc_request reqs[5];
	struct drm_vrampool_alloc_answer ans[5];
	struct drm_vrampool_alloc_batch b;
	struct state before;
	int ret;

	ASSERT_EQ(0, vp_cleanup(self->fd));
	state_take(_metadata, self->fd, &before);
	requests(reqs, sizes, NULL, 5);
	ret = vp_alloc_batch(self->fd, reqs, ans, 5, &b);
	EXPECT_REFUSED(&b, ret, EFBIG, 4, DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG);
	EXPECT_EQ(UINT64_MAX, b.error.size);
	EXPECT_UNCHANGED(&before, "the default layout, last request 2^64 - 1");

	/* Only an exclusive pool of 64 KiB: 64 KiB + 1 is too big. */
	VP_INSTALL_OK(self->fd, &excl, 1, "exclusive{64 KiB}");
	state_take(_metadata, self->fd, &before);
	sizes[4] = 64 * KiB + 1;
	requests(reqs, sizes, NULL, 5);
	ret = vp_alloc_batch(self->fd, reqs, ans, 5, &b);
	EXPECT_REFUSED(&b, ret, EFBIG, 4, DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG);
	EXPECT_EQ(64 * KiB + 1, b.error.size);
	EXPECT_UNCHANGED(&before, "exclusive{64 KiB}, last request 64 KiB + 1");

	/* The same batch without its last request goes through. */
	ret = vp_alloc_batch(self->fd, reqs, ans, 4, &b);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	self->next += 4;
	free_answers(_metadata, self->fd, ans, 4);
}

/*
 * A capped sliced pool of one page: the second page-sized request finds
 * it full (ENOSPC, PoolCapacityExceeded with the pool's figures); the
 * first one's page goes back with it.
 */
TEST_F(batch, pool_capacity_mid_way)
{
	struct drm_vrampool_pool_entry capped = vp_sliced(64 * KiB, VP_ABSENT, 64 * KiB);
	const uint64_t sizes[] = { 32 * KiB, 32 * KiB, 64 * KiB, 4096 };
	struct drm_vrampool_alloc_request reqs[4];
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	struct state before;
	int ret;

	VP_INSTALL_OK(self->fd, &capped, 1, "sliced{64 KiB, cap 64 KiB}");
	state_take(_metadata, self->fd, &before);
	requests(reqs, sizes, NULL, 4);
	ret = vp_alloc_batch(self->fd, reqs, ans, 4, &b);
	EXPECT_REFUSED(&b, ret, ENOSPC, 2, DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED);
	EXPECT_EQ(0u, b.error.pool);
	EXPECT_EQ(64 * KiB, b.error.size);
	EXPECT_EQ(64 * KiB, b.error.capacity);
	EXPECT_EQ(64 * KiB, b.error.in_use);
	EXPECT_UNCHANGED(&before, "a capped pool full at request 2");
}

/*
 * Requests of 2/5 of VRAM each in a direct pool: the third finds VRAM
 * exhausted (ENOSPC, OutOfMemory); the two buffers made go back.
 */
TEST_F(batch, out_of_memory_mid_way)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	struct drm_vrampool_alloc_request reqs[3];
	struct drm_vrampool_alloc_answer ans[3];
	struct drm_vrampool_alloc_batch b;
	uint64_t vram, align, size;
	struct state before;
	int ret;

	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &vram));
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_ALIGNMENT, &align));
	size = vp_align_up(vram / 5 * 2, align > 4096 ? align : 4096);
	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	state_take(_metadata, self->fd, &before);
	memset(reqs, 0, sizeof(reqs));
	reqs[0].size = reqs[1].size = reqs[2].size = size;
	ret = vp_alloc_batch(self->fd, reqs, ans, 3, &b);
	EXPECT_REFUSED(&b, ret, ENOSPC, 2, DRM_VRAMPOOL_ERR_OUT_OF_MEMORY);
	EXPECT_EQ(size, b.error.size);
	EXPECT_UNCHANGED(&before, "VRAM exhausted at request 2");
}

/*
 * Under a VRAM quota of 3 MiB: 1 + 1 MiB fit, the 2 MiB after them would
 * pass it (EDQUOT, QuotaExceeded: the quota, the 2 MiB held by then).
 */
TEST_F(batch, quota_mid_way)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	const uint64_t sizes[] = { 1 * MiB, 1 * MiB, 2 * MiB };
	struct drm_vrampool_alloc_request reqs[3];
	struct drm_vrampool_alloc_answer ans[3];
	struct drm_vrampool_alloc_batch b;
	struct state before;
	int ret;

	vp_sysfs_dev_path(&self->dev, "vram_quota", self->quota_path, sizeof(self->quota_path));
	ASSERT_EQ(0, vp_read_u64_file(self->quota_path, &self->quota));
	ret = vp_write_file(self->quota_path, "3145728");
	ASSERT_EQ(0, ret) TH_LOG("setting vram_quota: %s", strerror(-ret));
	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	state_take(_metadata, self->fd, &before);
	requests(reqs, sizes, NULL, 3);
	ret = vp_alloc_batch(self->fd, reqs, ans, 3, &b);
	EXPECT_REFUSED(&b, ret, EDQUOT, 2, DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED);
	EXPECT_EQ(3 * MiB, b.error.capacity);
	EXPECT_EQ(2 * MiB, b.error.in_use);
	EXPECT_EQ(2 * MiB, b.error.size);
	EXPECT_UNCHANGED(&before, "the quota passed at request 2");

	/* Without the last request it fits. */
	ret = vp_alloc_batch(self->fd, reqs, ans, 2, &b);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	self->next += 2;
	free_answers(_metadata, self->fd, ans, 2);
}

/* ---- FREE_BATCH --------------------------------------------------------------- */

/*
 * An unknown handle (never given, 0, or freed) or a handle named twice
 * fails naming the first such entry and frees nothing; then the whole
 * batch frees (a refused batch leaves no trace on its handles).
 */
TEST_F(batch, free_batch_all_or_nothing)
{
	static const uint64_t sizes[] = { 4096, 0, 1 * MiB, 256 };
	struct drm_vrampool_alloc_request reqs[4];
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_free_batch fb;
	struct state before;
	uint32_t h[5], i;
	int ret;

	requests(reqs, sizes, NULL, 4);
	ASSERT_EQ(0, vp_alloc_batch(self->fd, reqs, ans, 4, &b));
	self->next += 4;
	state_take(_metadata, self->fd, &before);
	for (i = 0; i < 4; i++)
		h[i] = ans[i].handle;

	h[4] = self->next + 100;	/* never given */
	ret = vp_free_batch(self->fd, h, 5, &fb);
	EXPECT_EQ(-ENOENT, ret);
	EXPECT_EQ(4u, fb.failed);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_NOT_FOUND, fb.code);
	h[4] = 0;
	ret = vp_free_batch(self->fd, h, 5, &fb);
	EXPECT_EQ(-ENOENT, ret);
	EXPECT_EQ(4u, fb.failed);
	h[4] = h[1];
	ret = vp_free_batch(self->fd, h, 5, &fb);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(4u, fb.failed);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE, fb.code);
	h[4] = h[3];
	h[1] = h[0];
	ret = vp_free_batch(self->fd, h, 5, &fb);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_EQ(1u, fb.failed) TH_LOG("the first entry at fault");
	EXPECT_UNCHANGED(&before, "refused FREE_BATCHes");

	for (i = 0; i < 4; i++)
		h[i] = ans[i].handle;
	ret = vp_free_batch(self->fd, h, 4, &fb);
	EXPECT_EQ(0, ret) TH_LOG("%s (failed %u, code %u)", strerror(-ret), fb.failed, fb.code);
	EXPECT_EQ(NO_ENTRY, fb.failed);
	/* A freed handle is unknown now. */
	ret = vp_free_batch(self->fd, &h[2], 1, &fb);
	EXPECT_EQ(-ENOENT, ret);
	EXPECT_EQ(0u, fb.failed);
	EXPECT_EQ(-ENOENT, vp_free(self->fd, h[0]));
}

#define MANY	300	/* handles over five nodes of the handle table (64 slots each) */

/* Frees @h[from, to) with one FREE_BATCH, which must succeed. */
static void free_range(struct __test_metadata *_metadata, int fd, const uint32_t *h,
		       uint32_t from, uint32_t to, const char *order)
{
	struct drm_vrampool_free_batch fb;
	int ret = vp_free_batch(fd, h + from, to - from, &fb);

	EXPECT_EQ(0, ret) TH_LOG("FREE_BATCH of %u handles, %s: %s (failed %u, code %u)",
				 to - from, order, strerror(-ret), fb.failed, fb.code);
}

/* Live allocations of every pool, and their bytes, summed. */
static void live_totals(struct __test_metadata *_metadata, int fd, uint64_t *n, uint64_t *bytes)
{
	struct state st;
	uint32_t i;

	state_take(_metadata, fd, &st);
	*n = *bytes = 0;
	for (i = 0; i < st.snap.count; i++) {
		*n += st.snap.pools[i].allocations;
		*bytes += st.snap.pools[i].bytes_in_use;
	}
}

/*
 * FREE_BATCH in any order frees each handle once: decreasing, shuffled
 * and increasing runs of handles over several nodes of the handle table,
 * zero-size ones among them. Every handle is unknown after, nothing is
 * left live, and the next ALLOC gets the next handle.
 */
TEST_F(batch, free_batch_in_any_order)
{
	static const uint64_t sizes[] = { 256, 0, 4096 };
	struct drm_vrampool_alloc_request reqs[MANY];
	struct drm_vrampool_alloc_answer ans[MANY];
	struct drm_vrampool_alloc_batch b;
	uint32_t h[MANY], i, j, t, seed = 12345;
	uint64_t n, bytes;
	int ret;

	small_layout(_metadata, self->fd);
	memset(reqs, 0, sizeof(reqs));
	for (i = 0; i < MANY; i++)
		reqs[i].size = sizes[i % 3];
	ret = vp_alloc_batch(self->fd, reqs, ans, MANY, &b);
	ASSERT_EQ(0, ret) TH_LOG("ALLOC_BATCH of %u: %s", MANY, strerror(-ret));
	for (i = 0; i < MANY; i++)
		ASSERT_EQ(self->next + i, ans[i].handle);
	live_totals(_metadata, self->fd, &n, &bytes);
	EXPECT_EQ((uint64_t)MANY, n);

	for (i = 0; i < 100; i++)		/* decreasing */
		h[i] = ans[99 - i].handle;
	for (i = 100; i < 250; i++)		/* shuffled */
		h[i] = ans[i].handle;
	for (i = 249; i > 100; i--) {
		seed = seed * 1103515245u + 12345u;
		j = 100 + (seed >> 8) % (i - 100 + 1);
		t = h[i];
		h[i] = h[j];
		h[j] = t;
	}
	for (i = 250; i < MANY; i++)		/* increasing */
		h[i] = ans[i].handle;
	free_range(_metadata, self->fd, h, 0, 100, "decreasing");
	free_range(_metadata, self->fd, h, 100, 250, "shuffled");
	free_range(_metadata, self->fd, h, 250, MANY, "increasing");

	for (i = 0; i < MANY; i++) {
		uint32_t freed = ans[i].handle;

		EXPECT_EQ(-ENOENT, vp_free(self->fd, freed)) TH_LOG("handle %u", freed);
	}
	live_totals(_metadata, self->fd, &n, &bytes);
	EXPECT_EQ(0u, n);
	EXPECT_EQ(0u, bytes);
	self->next += MANY;
	EXPECT_EQ(self->next, learn_next(_metadata, self->fd) - 1);
}

/*
 * Batches that start at handle 1, next to the table's unused 0: the first
 * call of a file an ALLOC_BATCH (handles 1, 2, ...; FREE of each, one by
 * one, finds it), and a FREE_BATCH from handle 1 of allocations ALLOC
 * made one by one.
 */
TEST_F(batch, batches_from_handle_1)
{
	struct drm_vrampool_alloc_request reqs[70];
	struct drm_vrampool_alloc_answer ans[70];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_alloc a;
	uint32_t h[70], i;
	uint64_t n, bytes;
	int fd, ret;

	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	small_layout(_metadata, fd);
	memset(reqs, 0, sizeof(reqs));
	for (i = 0; i < 70; i++)
		reqs[i].size = i % 2 ? 256 : 0;
	ret = vp_alloc_batch(fd, reqs, ans, 70, &b);
	ASSERT_EQ(0, ret) TH_LOG("ALLOC_BATCH: %s", strerror(-ret));
	for (i = 0; i < 70; i++) {
		EXPECT_EQ(i + 1, ans[i].handle);
		EXPECT_EQ(0, vp_free(fd, ans[i].handle)) TH_LOG("FREE of handle %u", i + 1);
	}
	live_totals(_metadata, fd, &n, &bytes);
	EXPECT_EQ(0u, n);
	close(fd);

	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	small_layout(_metadata, fd);
	for (i = 0; i < 70; i++) {
		VP_ALLOC_OK(fd, i % 2 ? 256 : 0, 0, &a, "one by one");
		EXPECT_EQ(i + 1, a.handle);
		h[i] = a.handle;
	}
	free_range(_metadata, fd, h, 0, 70, "from handle 1");
	for (i = 0; i < 70; i++)
		EXPECT_EQ(-ENOENT, vp_free(fd, h[i]));
	live_totals(_metadata, fd, &n, &bytes);
	EXPECT_EQ(0u, n);
	EXPECT_EQ(0u, bytes);
	close(fd);
}

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

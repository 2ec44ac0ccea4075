// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_VRAMPOOL_ALLOC_BATCH (the uapi's "batches") on the first device
 * of each backend, what succeeds: a batch serves its requests exactly as
 * single ALLOCs would (handles, pools, pages, offsets, padding, page
 * sizes; the pages map), also in runs of one pool and across the periodic
 * pass, and a FREE_BATCH frees them all; a count of 0 does nothing;
 * answers in pages not faulted in yet (anonymous, or the device's own
 * mapping); the count limit (DRM_VRAMPOOL_BATCH_MAX).
 *
 * The fixture and the helpers: vrampool_batch_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_batch_fixture.h"

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

TEST_HARNESS_MAIN

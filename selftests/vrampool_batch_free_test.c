// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_VRAMPOOL_FREE_BATCH (the uapi's "batches") on the first device
 * of each backend: all or nothing (an unknown handle, ENOENT, NotFound, or
 * one named twice, EINVAL, DuplicateHandle, frees none), handles freed in
 * any order across the nodes of the handle table, and batches of a new
 * client from handle 1.
 *
 * The fixture and the helpers: vrampool_batch_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_batch_fixture.h"

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

TEST_HARNESS_MAIN

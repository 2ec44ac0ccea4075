// SPDX-License-Identifier: GPL-2.0-only
/*
 * ALLOC_BATCH refused (the uapi's "batches") on the first device of each
 * backend: must-be-zero fields and request flags (EINVAL, the index
 * named), unreadable requests and unwritable answers (EFAULT), and, mid-way
 * through a batch, a request too big (EFBIG, BufferTooBig), a capped pool
 * full (ENOSPC, PoolCapacityExceeded), VRAM exhausted (ENOSPC,
 * OutOfMemory), the VRAM quota (EDQUOT, QuotaExceeded). All or nothing:
 * after each refusal the client's statistics, its VRAM, the device's VRAM
 * in use and its handles are as before, and the next ALLOC gets the
 * handle it would have got (the handle cursor is back), except after
 * answers that could not be written: then the cursor stays past the
 * batch's handles, and a stale FREE of the handle an answer written before
 * the fault named fails with ENOENT. A persistent page a refused batch
 * made and gave back keeps its index: the next new page takes the one
 * after it.
 *
 * The per-user limits inside a batch are in
 * vrampool_limits_test_helper.c (they need the small limits
 * vrampool_limits_test.sh loads).
 *
 * The fixture and the helpers: vrampool_batch_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_batch_fixture.h"

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
	EXPECT_UNCHANGED_PAST(&before, "answers at NULL", 4);
	ret = vp_alloc_batch(self->fd, reqs, (void *)ro, 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	EXPECT_UNCHANGED_PAST(&before, "read-only answers", 4);
	/* The first answer is written, naming a handle: a stale FREE of it must fail. */
	ret = vp_alloc_batch(self->fd, reqs, (void *)(edge + page - sizeof(ans[0])), 4, &b);
	EXPECT_REFUSED(&b, ret, EFAULT, NO_ENTRY, 0);
	memcpy(&ans[0], edge + page - sizeof(ans[0]), sizeof(ans[0]));
	EXPECT_EQ(self->next, ans[0].handle) TH_LOG("the answer written before the fault");
	EXPECT_UNCHANGED_PAST(&before, "answers running into an inaccessible page", 4);
	EXPECT_EQ(-ENOENT, vp_free(self->fd, ans[0].handle))
		TH_LOG("a stale FREE of the refused batch's handle %u", ans[0].handle);

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
 * A refused batch whose first request made a persistent page: the page
 * goes back, and the next new persistent page takes the index after it,
 * never its index again (DOC: allocations, page indices; DOC: batches).
 */
TEST_F(batch, refused_persistent_page_keeps_its_index)
{
	struct drm_vrampool_pool_entry capped = vp_sliced(64 * KiB, VP_ABSENT, 64 * KiB);
	const uint64_t sizes[] = { 4096, 32 * KiB, 32 * KiB, 64 * KiB };
	const uint32_t flags[] = { PERSISTENT, 0, 0, 0 };
	struct drm_vrampool_alloc_request reqs[4];
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	struct drm_vrampool_alloc a;
	struct state before;
	uint32_t first;
	int ret;

	VP_INSTALL_OK(self->fd, &capped, 1, "sliced{64 KiB, cap 64 KiB}");
	/* A persistent page made and given back: its index is the last one taken. */
	VP_ALLOC_OK(self->fd, 4096, PERSISTENT, &a, "a first persistent page");
	first = a.page;
	VP_FREE_OK(self->fd, a.handle, "the first persistent page");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	self->next = a.handle + 1;

	state_take(_metadata, self->fd, &before);
	requests(reqs, sizes, flags, 4);
	ret = vp_alloc_batch(self->fd, reqs, ans, 4, &b);
	EXPECT_REFUSED(&b, ret, ENOSPC, 3, DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED);
	EXPECT_UNCHANGED(&before, "a capped pool full at request 3, a persistent page made");

	/* The batch's page took first + 1: the next one takes first + 2. */
	VP_ALLOC_OK(self->fd, 4096, PERSISTENT, &a, "a persistent page after the batch");
	EXPECT_EQ(first + 2, a.page) TH_LOG("the refused batch's page index was taken again");
	VP_FREE_OK(self->fd, a.handle, "the persistent page after the batch");
	self->next = a.handle + 1;
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

TEST_HARNESS_MAIN

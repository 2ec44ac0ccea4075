// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation: ALLOC, FREE, CLEANUP and SET_PERSISTENT_MODE on each backend
 * (the first device of each): argument checking, VRAM exhaustion and the
 * cleanup-and-retry before OutOfMemory, the persistent pool and the
 * persistent modes, and installs meeting live allocations.
 *
 * Every error is checked by errno and by its structured code. Pool
 * semantics are vrampool_pools_test's, ownership and CPU access
 * vrampool_isolation_test's.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"
#include "vrampool.h"

FIXTURE(alloc) {
	int fd;
	struct vp_device dev;
	uint64_t vram_size;
	uint64_t max_page;
	uint64_t vram_start;
};

VP_BACKEND_VARIANTS(alloc);

FIXTURE_SETUP(alloc)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	vp_require_alignment(_metadata, self->fd, &self->dev, 256,
			     "these tests expect the default alignment of 256");
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram_size));
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE, &self->max_page));
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
}

FIXTURE_TEARDOWN(alloc)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The smoke path: allocate, map, write, read back, free. */
TEST_F(alloc, map_write_read_free)
{
	struct drm_vrampool_alloc a;
	uint64_t in_use;
	char *p;

	ASSERT_EQ(0, vp_alloc(self->fd, 1000, 0, &a));
	EXPECT_NE(0u, a.handle);
	EXPECT_NE(0u, a.mmap_offset);
	EXPECT_EQ(24u, a.padding);	/* 1000 aligned up to 256 */
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &in_use));
	EXPECT_LT(self->vram_start, in_use);

	p = mmap(NULL, a.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (int i = 0; i < 1000; i++)
		EXPECT_EQ(0, p[a.offset + i]);
	memset(p + a.offset, 0x5a, 1000);
	munmap(p, a.page_size);

	/* Read back through a second mapping: the bytes went to the page. */
	p = mmap(NULL, a.page_size, PROT_READ, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (int i = 0; i < 1000; i++) {
		EXPECT_EQ(0x5a, p[a.offset + i]) {
			TH_LOG("byte %d", i);
		}
	}
	munmap(p, a.page_size);

	EXPECT_EQ(0, vp_free(self->fd, a.handle));
	EXPECT_EQ(-ENOENT, vp_free(self->fd, a.handle));
}

/*
 * First fit in a hole between slices: a slice freed between two live ones
 * leaves a hole of its bytes, and new slices go at its start, one after
 * the other, exactly where the freed one was, before the tail is used.
 */
TEST_F(alloc, slices_fill_an_inner_hole_from_its_start)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * 1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d[3], t;
	static const uint64_t sizes[3] = { 512, 256, 256 };
	uint64_t at = 1024;

	ASSERT_EQ(0, vp_install_list(self->fd, &e, 1, NULL));
	ASSERT_EQ(0, vp_alloc(self->fd, 1024, 0, &a));
	ASSERT_EQ(0, vp_alloc(self->fd, 1024, 0, &b));
	ASSERT_EQ(0, vp_alloc(self->fd, 1024, 0, &c));
	ASSERT_EQ(a.page, b.page);
	ASSERT_EQ(a.page, c.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(1024u, b.offset);
	EXPECT_EQ(2048u, c.offset);

	/* A hole of 1024 bytes at 1024, between a and c. */
	ASSERT_EQ(0, vp_free(self->fd, b.handle));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, vp_alloc(self->fd, sizes[i], 0, &d[i]));
		EXPECT_EQ(a.page, d[i].page);
		EXPECT_EQ(at, d[i].offset) {
			TH_LOG("slice %d of %" PRIu64 " bytes in the hole [1024, 2048)",
			       i, sizes[i]);
		}
		EXPECT_EQ(0u, d[i].padding);
		at += sizes[i];
	}

	/* The hole is full: the next slice goes after c. */
	ASSERT_EQ(0, vp_alloc(self->fd, 256, 0, &t));
	EXPECT_EQ(a.page, t.page);
	EXPECT_EQ(3072u, t.offset);
}

/*
 * An orphan (a page freed and cleaned up while still mapped) stays charged
 * to its client, to the byte, until the last munmap(); then the charge
 * drops to what it was before the allocation.
 */
TEST_F(alloc, orphan_charged_until_unmapped)
{
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_alloc a;
	uint64_t before, held;
	char *p;

	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	before = q.vram_in_use;
	ASSERT_EQ(0, vp_alloc(self->fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a));
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	held = q.vram_in_use;
	EXPECT_EQ(before + a.page_size, held);

	p = mmap(NULL, a.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[a.offset] = 1;
	ASSERT_EQ(0, vp_free(self->fd, a.handle));
	ASSERT_EQ(0, vp_cleanup(self->fd));
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	EXPECT_EQ(held, q.vram_in_use) TH_LOG("the orphan is no longer charged");
	EXPECT_EQ(1, p[a.offset]);

	munmap(p, a.page_size);
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	EXPECT_EQ(before, q.vram_in_use);
}

/* ---- Argument checking ----------------------------------------------------- */

/* Every pool of the client holds nothing: no allocation, no page. */
static void expect_nothing_allocated(struct __test_metadata *_metadata, int fd,
				     uint64_t vram_start, const char *when)
{
	struct vp_snap s;
	const struct drm_vrampool_pool_status *st = s.pools;
	uint32_t i;
	int ret;

	ret = vp_snap_take(fd, &s);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", when, strerror(-ret));
	ASSERT_LT(0u, s.count) TH_LOG("%s: POOL_QUERY: no pool", when);
	for (i = 0; i < s.count; i++) {
		EXPECT_EQ(0u, st[i].allocations) TH_LOG("%s: pool %u", when, st[i].index);
		EXPECT_EQ(0u, st[i].pages) TH_LOG("%s: pool %u", when, st[i].index);
		EXPECT_EQ(0u, st[i].pages_peak) TH_LOG("%s: pool %u", when, st[i].index);
	}
	EXPECT_EQ(vram_start, vp_vram_in_use(fd)) TH_LOG("%s: VRAM in use", when);
}

/* ALLOC: unknown flags, non-zero pad, pad2, reserved -> EINVAL, nothing made. */
TEST_F(alloc, alloc_rejects_malformed_requests)
{
	static const uint32_t bad_flags[] = { 0x2, 0x4, 0x80000000u, ~0u };
	struct drm_vrampool_alloc a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_flags); i++) {
		EXPECT_EQ(-EINVAL, vp_alloc(self->fd, 1000, bad_flags[i], &a))
			TH_LOG("flags %#x", bad_flags[i]);
		EXPECT_EQ(0u, a.handle);
	}
	memset(&a, 0, sizeof(a));
	a.size = 1000;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a))
		TH_LOG("pad 1");
	memset(&a, 0, sizeof(a));
	a.size = 1000;
	a.pad2 = 1;
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a))
		TH_LOG("pad2 1");
	memset(&a, 0, sizeof(a));
	a.size = 1000;
	a.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a))
		TH_LOG("reserved[0] 1");
	memset(&a, 0, sizeof(a));
	a.size = 1000;
	a.reserved[1] = 1ULL << 63;
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a))
		TH_LOG("reserved[1] 2^63");
	expect_nothing_allocated(_metadata, self->fd, self->vram_start, "after refused ALLOCs");

	/* Output fields the caller left set are no input: they are overwritten. */
	memset(&a, 0, sizeof(a));
	a.size = 1000;
	a.handle = 77;
	a.pool = 9;
	a.offset = 12345;
	a.error.code = DRM_VRAMPOOL_ERR_OUT_OF_MEMORY;
	ASSERT_EQ(0, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a));
	EXPECT_EQ(1u, a.handle) TH_LOG("the first handle of a new file is 1");
	EXPECT_EQ(0u, a.error.code);
	EXPECT_EQ(0u, a.offset);
}

/*
 * FREE: non-zero flags or reserved -> EINVAL and the allocation lives on;
 * handle 0, a never-issued handle and a double free -> ENOENT.
 */
TEST_F(alloc, free_rejects_bad_requests_and_unknown_handles)
{
	struct drm_vrampool_free f;
	struct drm_vrampool_alloc a;
	struct drm_vrampool_pool_status st;
	struct vrampool_error err;
	char msg[160], want[160];

	VP_ALLOC_OK(self->fd, 1000, 0, &a, "1000");
	ASSERT_EQ(0, vp_pool(self->fd, a.pool, &st));
	ASSERT_EQ(1u, st.allocations);

	f = (struct drm_vrampool_free){ .handle = a.handle, .flags = 1 };
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_FREE, &f)) TH_LOG("flags 1");
	f = (struct drm_vrampool_free){ .handle = a.handle, .flags = 0x80000000u };
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_FREE, &f)) TH_LOG("flags 2^31");
	f = (struct drm_vrampool_free){ .handle = a.handle, .reserved = 1 };
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_FREE, &f)) TH_LOG("reserved 1");
	ASSERT_EQ(0, vp_pool(self->fd, a.pool, &st));
	EXPECT_EQ(1u, st.allocations) TH_LOG("a refused FREE freed the allocation");

	EXPECT_EQ(-ENOENT, vp_free(self->fd, 0)) TH_LOG("handle 0 is never issued");
	EXPECT_EQ(-ENOENT, vp_free(self->fd, a.handle + 1)) TH_LOG("the next handle");
	EXPECT_EQ(-ENOENT, vp_free(self->fd, 123456)) TH_LOG("a never-issued handle");
	EXPECT_EQ(-ENOENT, vp_free(self->fd, UINT32_MAX)) TH_LOG("handle 2^32 - 1");
	ASSERT_EQ(0, vp_pool(self->fd, a.pool, &st));
	EXPECT_EQ(1u, st.allocations);

	EXPECT_EQ(0, vp_free(self->fd, a.handle));
	EXPECT_EQ(-ENOENT, vp_free(self->fd, a.handle)) TH_LOG("double free");

	/* The library names it NotFound, with the handle. */
	EXPECT_EQ(-ENOENT, vrampool_free(self->fd, a.handle, &err));
	EXPECT_EQ((int)VRAMPOOL_ERR_NOT_FOUND, (int)err.kind);
	EXPECT_EQ(a.handle, err.handle);
	vrampool_error_message(&err, msg, sizeof(msg));
	snprintf(want, sizeof(want),
		 "couldn't find resource for that handle: no allocation %u in this file", a.handle);
	EXPECT_STREQ(want, msg);
}

/*
 * FREE of handle 0 (never issued) must not make 0 a handle: the fuzzer
 * found ALLOC answering handle 0 after a FREE(0), on an empty client and
 * on one with live allocations.
 */
TEST_F(alloc, free_of_handle_0_never_makes_0_a_handle)
{
	struct drm_vrampool_alloc a[8];
	int round, i;

	for (round = 0; round < 2; round++) {
		EXPECT_EQ(-ENOENT, vp_free(self->fd, 0)) TH_LOG("round %d", round);
		for (i = 0; i < 8; i++) {
			VP_ALLOC_OK(self->fd, i ? 1000 : 0, 0, &a[i], "after FREE(0)");
			EXPECT_NE(0u, a[i].handle) TH_LOG("round %d, allocation %d", round, i);
			if (i == 3)
				EXPECT_EQ(-ENOENT, vp_free(self->fd, 0)) TH_LOG("with 4 live");
		}
		EXPECT_EQ(-ENOENT, vp_free(self->fd, 0)) TH_LOG("round %d, 8 live", round);
		for (i = 0; i < 8; i++)
			VP_FREE_OK(self->fd, a[i].handle, "each allocation");
	}
}

/* CLEANUP: non-zero flags, pad or reserved -> EINVAL and nothing released. */
TEST_F(alloc, cleanup_rejects_malformed_requests)
{
	struct drm_vrampool_pool_entry e = vp_sliced(4096, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_cleanup c;
	struct drm_vrampool_alloc a;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{4096}");
	VP_ALLOC_OK(self->fd, 100, 0, &a, "100");
	VP_FREE_OK(self->fd, a.handle, "100");
	VP_EXPECT_PAGES(self->fd, 0, "a free page", 1, 4096);

	c = (struct drm_vrampool_cleanup){ .flags = 1 };
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &c)) TH_LOG("flags 1");
	c = (struct drm_vrampool_cleanup){ .pad = 1 };
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &c)) TH_LOG("pad 1");
	c = (struct drm_vrampool_cleanup){ .reserved = 1 };
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &c)) TH_LOG("reserved 1");
	VP_EXPECT_PAGES(self->fd, 0, "after refused CLEANUPs", 1, 4096);

	EXPECT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_PAGES(self->fd, 0, "after the CLEANUP", 0, 0);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
}

/* ---- VRAM exhaustion ------------------------------------------------------- */

#define FILL	(8 * MiB)

/* Fill the VRAM left with live FILL-byte buffers; returns how many. */
static int fill_vram(struct __test_metadata *_metadata, int fd, uint32_t *handles, int max,
		     int want)
{
	struct drm_vrampool_alloc a;
	int n;

	for (n = 0; n < want && n < max; n++) {
		VP_ALLOC_OK(fd, FILL, 0, &a, "filling VRAM");
		handles[n] = a.handle;
	}
	return n;
}

/*
 * A direct pool fills the VRAM with 8 MiB buffers; the next request fails
 * with -ENOSPC and OutOfMemory {size}, changing nothing. A request larger
 * than the whole VRAM is OutOfMemory too, not BufferTooBig: a direct pool
 * accepts every size.
 */
TEST_F(alloc, out_of_memory_when_vram_is_full)
{
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	uint32_t handles[64];
	struct drm_vrampool_alloc a;
	struct vrampool_error err;
	char msg[128];
	int want, n;

	ASSERT_EQ(0u, self->vram_start) TH_LOG("another client holds VRAM: cannot count");
	ASSERT_EQ(0u, self->vram_size % FILL);
	want = (int)(self->vram_size / FILL);
	ASSERT_GE((int)ARRAY_SIZE(handles), want);

	VP_INSTALL_OK(self->fd, &e, 1, "direct{}");
	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, self->vram_size + VP_CPU_PAGE, 0, &a))
		TH_LOG("more than the whole VRAM");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, a.error.code);
	EXPECT_EQ(self->vram_size + VP_CPU_PAGE, a.error.size);

	n = fill_vram(_metadata, self->fd, handles, ARRAY_SIZE(handles), want);
	ASSERT_EQ(want, n);
	EXPECT_EQ(self->vram_size, vp_vram_in_use(self->fd));

	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, FILL, 0, &a)) TH_LOG("VRAM is full");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, a.error.code);
	EXPECT_EQ(FILL, a.error.size);
	EXPECT_EQ(0u, a.error.capacity);
	EXPECT_EQ(0u, a.error.in_use);
	EXPECT_EQ(0u, a.handle);
	vrampool_error_from_alloc(&err, ENOSPC, &a.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_OUT_OF_MEMORY, (int)err.kind);
	vrampool_error_message(&err, msg, sizeof(msg));
	EXPECT_STREQ("out of device memory allocating 8388608 bytes", msg);

	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, 1, 0, &a)) TH_LOG("not even one byte");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, a.error.code);
	EXPECT_EQ(1u, a.error.size);
	VP_EXPECT_POOL(self->fd, 0, "after the refused requests",
		       .allocations = (uint64_t)want, .bytes_in_use = self->vram_size, .padding = 0,
		       .reserved_bytes = self->vram_size, .pages = (uint64_t)want,
		       .pages_peak = (uint64_t)want, .largest_alloc = FILL);

	/* A freed buffer of the same size serves the next request again. */
	VP_FREE_OK(self->fd, handles[0], "one 8 MiB buffer");
	VP_ALLOC_OK(self->fd, FILL, 0, &a, "8 MiB in the freed buffer");
	EXPECT_EQ(self->vram_size, vp_vram_in_use(self->fd));
}

/*
 * Before OutOfMemory the kernel runs an explicit cleanup of the client's
 * pools and tries once more: a free sliced page (16 MiB) and a free
 * persistent buffer (8 MiB) hold VRAM that only a cleanup gives back. With
 * the rest filled, the next 8 MiB request succeeds, and takes the
 * cleanup's 24 MiB with the two after it; only then does OutOfMemory come.
 */
TEST_F(alloc, out_of_memory_cleans_up_and_retries_first)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_sliced(16 * MiB, 1 * MiB, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	uint32_t handles[64];
	struct drm_vrampool_alloc a, p;
	int want, n, i;

	ASSERT_EQ(0u, self->vram_start) TH_LOG("another client holds VRAM: cannot count");
	want = (int)((self->vram_size - 24 * MiB) / FILL);
	ASSERT_GE((int)ARRAY_SIZE(handles), want + 3);

	VP_INSTALL_OK(self->fd, e, 2, "sliced{16 MiB, max_slice 1 MiB}, direct{}");
	VP_ALLOC_OK(self->fd, 4096, 0, &a, "a slice");
	EXPECT_EQ(0u, a.pool);
	VP_FREE_OK(self->fd, a.handle, "the slice");
	VP_ALLOC_OK(self->fd, FILL, DRM_VRAMPOOL_ALLOC_PERSISTENT, &p, "8 MiB persistent");
	VP_FREE_OK(self->fd, p.handle, "8 MiB persistent");
	VP_EXPECT_PAGES(self->fd, 0, "a free sliced page", 1, 16 * MiB);
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "a free persistent buffer", 1,
			FILL);

	n = fill_vram(_metadata, self->fd, handles, ARRAY_SIZE(handles), want);
	ASSERT_EQ(want, n);
	EXPECT_EQ(self->vram_size, vp_vram_in_use(self->fd)) TH_LOG("VRAM must be full now");

	for (i = 0; i < 3; i++) {
		VP_ALLOC_OK(self->fd, FILL, 0, &a, "8 MiB on a full VRAM, after the cleanup");
		EXPECT_EQ(1u, a.pool);
		if (i == 0) {
			VP_EXPECT_PAGES(self->fd, 0, "the kernel's cleanup released the free page",
					0, 0);
			VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL,
					"and the free persistent buffer", 0, 0);
		}
	}
	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, FILL, 0, &a));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, a.error.code);
	EXPECT_EQ(FILL, a.error.size);
	VP_EXPECT_POOL(self->fd, 1, "the live buffers were left alone",
		       .allocations = (uint64_t)want + 3,
		       .bytes_in_use = ((uint64_t)want + 3) * FILL, .padding = 0, .reserved_bytes = ((uint64_t)want + 3) * FILL,
		       .pages = (uint64_t)want + 3, .pages_peak = (uint64_t)want + 3,
		       .largest_alloc = FILL);
}

/*
 * A full capped pool passes the request on; when the next pool cannot get
 * VRAM, the answer is OutOfMemory, not PoolCapacityExceeded: not every
 * pool that accepts the size is capped and full (the uapi's rule; CubeCL
 * would return the capacity error it met first).
 */
TEST_F(alloc, out_of_memory_after_a_full_capped_pool)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_sliced(FILL, VP_ABSENT, FILL), vp_direct(VP_ABSENT),
	};
	uint32_t handles[64];
	struct drm_vrampool_alloc a;
	int want, n;

	ASSERT_EQ(0u, self->vram_start) TH_LOG("another client holds VRAM: cannot count");
	want = (int)(self->vram_size / FILL) - 1;
	ASSERT_GE((int)ARRAY_SIZE(handles), want);

	VP_INSTALL_OK(self->fd, e, 2, "sliced{8 MiB, cap 8 MiB}, direct{}");
	VP_ALLOC_OK(self->fd, FILL, 0, &a, "the capped pool's only page");
	EXPECT_EQ(0u, a.pool);
	n = fill_vram(_metadata, self->fd, handles, ARRAY_SIZE(handles), want);
	ASSERT_EQ(want, n);
	EXPECT_EQ(self->vram_size, vp_vram_in_use(self->fd));

	EXPECT_EQ(-ENOSPC, vp_alloc(self->fd, FILL, 0, &a));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, a.error.code);
	EXPECT_EQ(FILL, a.error.size);
	EXPECT_EQ(0u, a.error.pool);
	EXPECT_EQ(0u, a.error.capacity);
	EXPECT_EQ(0u, a.error.in_use);
}

/* ---- The persistent pool ------------------------------------------------------ */

/*
 * ALLOC_PERSISTENT goes to pool 255: one buffer of the aligned size per
 * allocation, reused only by the same aligned size (with the padding of
 * the new size), released only by an explicit cleanup; no size limit
 * beyond VRAM.
 */
TEST_F(alloc, persistent_pool_reuses_by_exact_size)
{
	struct drm_vrampool_alloc a, b, c, big;
	uint64_t big_size = self->max_page + 4 * MiB;

	VP_ALLOC_OK(self->fd, 1000, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "1000 persistent");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(24u, a.padding);
	EXPECT_EQ(1024u, a.page_size);
	EXPECT_NE(0u, a.mmap_offset);
	VP_FREE_OK(self->fd, a.handle, "1000 persistent");
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "freed, kept", 1, 1024);

	VP_ALLOC_OK(self->fd, 1010, DRM_VRAMPOOL_ALLOC_PERSISTENT, &b, "1010 persistent");
	EXPECT_EQ(a.page, b.page);
	EXPECT_EQ(a.mmap_offset, b.mmap_offset);
	EXPECT_EQ(14u, b.padding) TH_LOG("the padding of 1010, not the stale 24");
	VP_ALLOC_OK(self->fd, 1100, DRM_VRAMPOOL_ALLOC_PERSISTENT, &c, "1100 persistent");
	EXPECT_EQ(1u, c.page);
	EXPECT_EQ(1280u, c.page_size);
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "1010 and 1100",
		       .allocations = 2, .bytes_in_use = 2110, .padding = 194,
		       .reserved_bytes = 2304, .pages = 2, .pages_peak = 2,
		       .largest_alloc = 1100);

	/* Larger than the max page size: the persistent pool has no limit. */
	VP_ALLOC_OK(self->fd, big_size, DRM_VRAMPOOL_ALLOC_PERSISTENT, &big, "above max_page_size");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, big.pool);
	EXPECT_EQ(big_size, big.page_size);
	VP_FREE_OK(self->fd, big.handle, "above max_page_size");

	VP_FREE_OK(self->fd, b.handle, "1010");
	VP_FREE_OK(self->fd, c.handle, "1100");
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "all free, all kept", 3,
			2304 + big_size);
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "after the cleanup",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 3,
		       .largest_alloc = big_size);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
}

/*
 * A new persistent page takes the index after the last new page's, never
 * the lower index of a page released meanwhile: index order is creation
 * order.
 */
TEST_F(alloc, persistent_new_page_never_takes_a_released_index)
{
	struct drm_vrampool_alloc a, b, c;

	VP_ALLOC_OK(self->fd, 1024, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "1024 persistent");
	VP_ALLOC_OK(self->fd, 2048, DRM_VRAMPOOL_ALLOC_PERSISTENT, &b, "2048 persistent");
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(1u, b.page);
	VP_FREE_OK(self->fd, a.handle, "1024");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "page 0 released", 1, 2048);

	VP_ALLOC_OK(self->fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &c, "4096 persistent");
	EXPECT_EQ(2u, c.page) TH_LOG("index 0 is free, but 2 comes after the last new page's");
	VP_FREE_OK(self->fd, b.handle, "2048");
	VP_FREE_OK(self->fd, c.handle, "4096");
}

static uint32_t query_mode(struct __test_metadata *_metadata, int fd)
{
	struct drm_vrampool_pool_query q;

	EXPECT_EQ(0, vp_query_head(fd, &q));
	return q.persistent_mode;
}

/*
 * SET_PERSISTENT_MODE returns the old mode. ENABLED (the default): only on
 * request; SIZE_MATCH: also automatic requests whose aligned size has a
 * persistent buffer (free or not); DISABLED: the flag is ignored;
 * ENFORCED: everything is persistent. Unknown modes and a non-zero pad
 * are EINVAL and change nothing.
 */
TEST_F(alloc, persistent_modes)
{
	struct drm_vrampool_persistent_mode m;
	struct drm_vrampool_alloc p, a, b;
	uint32_t old = 99;

	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENABLED, query_mode(_metadata, self->fd));
	VP_ALLOC_OK(self->fd, 1000, DRM_VRAMPOOL_ALLOC_PERSISTENT, &p, "the 1024 bucket");
	VP_ALLOC_OK(self->fd, 1010, 0, &a, "automatic, ENABLED");
	EXPECT_NE((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	VP_FREE_OK(self->fd, a.handle, "automatic");

	ASSERT_EQ(0, vp_set_persistent_mode(self->fd, DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH, &old));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENABLED, old);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH, query_mode(_metadata, self->fd));
	VP_ALLOC_OK(self->fd, 1010, 0, &a, "1010, SIZE_MATCH: the bucket exists");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	EXPECT_EQ(1u, a.page) TH_LOG("the bucket's buffer is live: a new one");
	VP_FREE_OK(self->fd, a.handle, "1010");
	VP_ALLOC_OK(self->fd, 2000, 0, &a, "2000, SIZE_MATCH: no 2048 bucket");
	EXPECT_NE((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	VP_ALLOC_OK(self->fd, 1020, 0, &b, "1020, SIZE_MATCH: reuses the free buffer");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, b.pool);
	EXPECT_EQ(1u, b.page);
	EXPECT_EQ(4u, b.padding);
	VP_FREE_OK(self->fd, a.handle, "2000");
	VP_FREE_OK(self->fd, b.handle, "1020");
	VP_ALLOC_OK(self->fd, 2000, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "2000 asked persistent");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	VP_FREE_OK(self->fd, a.handle, "2000");
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "three persistent buffers", 3,
			1024 + 1024 + 2048);

	ASSERT_EQ(0, vp_set_persistent_mode(self->fd, DRM_VRAMPOOL_PERSISTENT_DISABLED, &old));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH, old);
	VP_ALLOC_OK(self->fd, 1000, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "DISABLED ignores the flag");
	EXPECT_NE((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	VP_FREE_OK(self->fd, a.handle, "DISABLED");

	ASSERT_EQ(0, vp_set_persistent_mode(self->fd, DRM_VRAMPOOL_PERSISTENT_ENFORCED, &old));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_DISABLED, old);
	VP_ALLOC_OK(self->fd, 5000, 0, &a, "5000, ENFORCED");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, a.pool);
	VP_ALLOC_OK(self->fd, 0, 0, &b, "0, ENFORCED");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, b.pool);
	VP_FREE_OK(self->fd, a.handle, "5000");
	VP_FREE_OK(self->fd, b.handle, "0");

	/* Refused: an unknown mode, a non-zero pad. The mode stays ENFORCED. */
	EXPECT_EQ(-EINVAL,
		  vp_set_persistent_mode(self->fd, DRM_VRAMPOOL_PERSISTENT_ENFORCED + 1, NULL));
	EXPECT_EQ(-EINVAL, vp_set_persistent_mode(self->fd, UINT32_MAX, NULL));
	m = (struct drm_vrampool_persistent_mode){
		.mode = DRM_VRAMPOOL_PERSISTENT_ENABLED, .pad = 1,
	};
	EXPECT_EQ(-EINVAL, vp_ioctl(self->fd, DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE, &m));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENFORCED, query_mode(_metadata, self->fd));

	ASSERT_EQ(0, vp_set_persistent_mode(self->fd, DRM_VRAMPOOL_PERSISTENT_ENABLED, &old));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENFORCED, old);
	ASSERT_EQ(0, vp_set_persistent_mode(self->fd, DRM_VRAMPOOL_PERSISTENT_ENABLED, &old));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENABLED, old);
	VP_FREE_OK(self->fd, p.handle, "the 1024 bucket");
}

/*
 * Persistent allocations never block an install and keep their handle,
 * data and mapping across installs that change the number of pools.
 */
TEST_F(alloc, persistent_allocations_survive_installs)
{
	struct drm_vrampool_pool_entry one = vp_direct(VP_ABSENT);
	struct drm_vrampool_pool_entry three[3] = {
		vp_sliced(4096, VP_ABSENT, VP_ABSENT),
		vp_exclusive(1 * MiB, 50),
		vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_alloc w, s, d;
	uint64_t generation;
	uint8_t *p, *p2;
	ssize_t bad;
	int round;

	VP_ALLOC_OK(self->fd, 8192, DRM_VRAMPOOL_ALLOC_PERSISTENT, &w, "weights");
	VP_ALLOC_OK(self->fd, 100, DRM_VRAMPOOL_ALLOC_PERSISTENT, &s, "a small persistent one");
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, w.mmap_offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	vp_fill_pattern(p, 8192, 7, 0);
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	generation = q.generation;

	for (round = 0; round < 4; round++) {
		const struct drm_vrampool_pool_entry *e = round % 2 ? &one : three;
		uint32_t n = round % 2 ? 1 : 3;

		ASSERT_EQ(0, vp_install_list(self->fd, e, n, &ins))
			TH_LOG("round %d: code %u", round, ins.error.code);
		EXPECT_EQ(n, ins.num_pools);
		EXPECT_EQ(generation + round + 1, ins.generation);
		bad = vp_check_pattern(p, 8192, 7, 0);
		EXPECT_EQ(-1, bad) TH_LOG("round %d: the old mapping differs at %zd", round, bad);
		p2 = mmap(NULL, 8192, PROT_READ, MAP_SHARED, self->fd, w.mmap_offset);
		ASSERT_NE(MAP_FAILED, p2) TH_LOG("round %d: mmap again: %s", round, strerror(errno));
		bad = vp_check_pattern(p2, 8192, 7, 0);
		EXPECT_EQ(-1, bad) TH_LOG("round %d: a new mapping differs at %zd", round, bad);
		munmap(p2, 8192);
		VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "after an install",
			       .allocations = 2, .bytes_in_use = 8292, .padding = 156,
			       .reserved_bytes = 8448, .pages = 2, .pages_peak = 2,
			       .largest_alloc = 8192);

		/* A dynamic allocation lands in the new layout's pools. */
		VP_ALLOC_OK(self->fd, 5000, 0, &d, "a dynamic allocation");
		EXPECT_EQ(round % 2 ? 0u : 1u, d.pool) TH_LOG("round %d", round);
		VP_FREE_OK(self->fd, d.handle, "the dynamic allocation");
	}
	munmap(p, 8192);

	VP_FREE_OK(self->fd, w.handle, "weights, by the handle from before the installs");
	VP_FREE_OK(self->fd, s.handle, "the small one");
}

/*
 * An install runs an explicit cleanup, then fails with -EBUSY and
 * PoolsInUse {live bytes} while a dynamic allocation lives, a zero-size
 * one too (0 bytes); the layout stays as it was.
 */
TEST_F(alloc, install_refused_while_dynamic_allocations_live)
{
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	struct drm_vrampool_pool_entry other = vp_sliced(4096, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_alloc a, b, c, z, p;
	struct vrampool_error err;
	char msg[160];

	VP_INSTALL_OK(self->fd, &e, 1, "direct{}");
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "1000");
	VP_ALLOC_OK(self->fd, 300, 0, &b, "300");
	VP_ALLOC_OK(self->fd, 2000, 0, &c, "2000, to be freed");
	VP_ALLOC_OK(self->fd, 1 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &p, "persistent");
	VP_FREE_OK(self->fd, c.handle, "2000");
	ASSERT_EQ(0, vp_query_head(self->fd, &q));

	EXPECT_EQ(-EBUSY, vp_install_list(self->fd, &other, 1, &ins));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOLS_IN_USE, ins.error.code);
	EXPECT_EQ(1300u, ins.error.value[0]) TH_LOG("1000 + 300 live; persistent not counted");
	EXPECT_EQ(DRM_VRAMPOOL_NO_ENTRY, ins.error.entry);
	EXPECT_EQ(q.generation, ins.generation);
	EXPECT_EQ(0u, ins.num_pools);
	vrampool_error_from_ioctl(&err, EBUSY, &ins.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_POOLS_IN_USE, (int)err.kind);
	vrampool_error_message(&err, msg, sizeof(msg));
	EXPECT_STREQ("the dynamic pools still hold 1300 bytes of live allocations; "
		     "free them before installing a layout", msg);

	/* The old layout is in force, less the free buffer the cleanup took. */
	VP_EXPECT_POOL(self->fd, 0, "after the refused install",
		       .allocations = 2, .bytes_in_use = 1300, .padding = 24 + 212,
		       .reserved_bytes = 1024 + 512, .pages = 2, .pages_peak = 3,
		       .largest_alloc = 2000);
	ASSERT_EQ(0, vp_query_head(self->fd, &q));
	EXPECT_EQ(1u, q.num_pools);
	EXPECT_EQ(ins.generation, q.generation);

	VP_FREE_OK(self->fd, a.handle, "1000");
	EXPECT_EQ(-EBUSY, vp_install_list(self->fd, &other, 1, &ins));
	EXPECT_EQ(300u, ins.error.value[0]);
	VP_FREE_OK(self->fd, b.handle, "300");

	/* A live zero-size allocation blocks too, with 0 bytes. */
	VP_ALLOC_OK(self->fd, 0, 0, &z, "0");
	EXPECT_EQ(-EBUSY, vp_install_list(self->fd, &other, 1, &ins));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOLS_IN_USE, ins.error.code);
	EXPECT_EQ(0u, ins.error.value[0]);
	VP_FREE_OK(self->fd, z.handle, "0");

	ASSERT_EQ(0, vp_install_list(self->fd, &other, 1, &ins)) TH_LOG("code %u", ins.error.code);
	EXPECT_EQ(q.generation + 1, ins.generation);
	EXPECT_EQ(0u, ins.error.code);
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "persistent untouched", 1, 1 * MiB);
	EXPECT_EQ(self->vram_start + 1 * MiB, vp_vram_in_use(self->fd))
		TH_LOG("the old pools' buffers went back to the device");
	VP_FREE_OK(self->fd, p.handle, "persistent");
}

/* An install resets the dynamic pools' peaks; the persistent pool's stay. */
TEST_F(alloc, install_resets_peaks_but_the_persistent_ones)
{
	struct drm_vrampool_pool_entry e = vp_sliced(1024, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a[3], p[2];
	int i;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{1024}");
	for (i = 0; i < 3; i++)
		VP_ALLOC_OK(self->fd, 1000, 0, &a[i], "a page each");
	for (i = 0; i < 2; i++)
		VP_ALLOC_OK(self->fd, 3000, DRM_VRAMPOOL_ALLOC_PERSISTENT, &p[i], "persistent");
	for (i = 0; i < 3; i++)
		VP_FREE_OK(self->fd, a[i].handle, "a page each");
	VP_FREE_OK(self->fd, p[1].handle, "persistent");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	VP_EXPECT_POOL(self->fd, 0, "before the install",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 3,
		       .largest_alloc = 1000);

	VP_INSTALL_OK(self->fd, &e, 1, "the same layout again");
	VP_EXPECT_POOL(self->fd, 0, "after the install",
		       .allocations = 0, .bytes_in_use = 0, .padding = 0,
		       .reserved_bytes = 0, .pages = 0, .pages_peak = 0,
		       .largest_alloc = 0);
	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "the persistent pool",
		       .allocations = 1, .bytes_in_use = 3000, .padding = 72,
		       .reserved_bytes = 3072, .pages = 1, .pages_peak = 2,
		       .largest_alloc = 3000);
	VP_FREE_OK(self->fd, p[0].handle, "persistent");
}

TEST_HARNESS_MAIN

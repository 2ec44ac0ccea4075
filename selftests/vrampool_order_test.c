// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placement order, as CubeCL places it: each trace of issue 12 run through
 * the ioctls, with the pool, page, offset and final statistics CubeCL gives.
 *
 * A trace is a list of operations: "aN" allocates N bytes, "pN" N bytes
 * from the persistent pool, "fK" frees the K-th allocation made (from 0,
 * persistent ones counted), "c" is an explicit cleanup. The device
 * alignment is 256, the module default (the fixture checks it), and each
 * test installs a one-pool layout on a fresh open file.
 *
 * What CubeCL does, in short (the reasoning of each trace is above its
 * test): sliced pools visit their pages oldest first, a cleanup keeps the
 * survivors' order and new pages go last; an exclusive pool reuses the free
 * page with the fewest idle checks, the oldest on a tie; the persistent
 * pool reuses the oldest free buffer of the size; a direct pool reuses and
 * reclaims in slot order, and a new buffer takes the slot freed last.
 *
 * vrampool's page indices are stable where CubeCL renumbers: pages are
 * numbered 0, 1, 2, ... as they are made, never reusing a live page's
 * index; a direct pool's page index is CubeCL's slot index. So where
 * CubeCL's page number shifts after a cleanup, the tests name the page by
 * the allocation it holds and by vrampool's index for it.
 *
 * Self-contained: the harness, the uapi header and the helpers below.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/drm.h>
#include <drm/vrampool_accel.h>

/*
 * The 6.12 harness trips -Wunused-parameter (a signal handler) in itself,
 * and -Wclobbered at -O2 in every TEST_F() body (its setjmp()).
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#define KiB		1024ULL
#define ALIGNMENT	256ULL
#define MAX_ACCEL	64
#define MAX_ALLOCS	16u
#define MAX_POOLS	8

/* ---- Helpers ------------------------------------------------------------- */

/* The first /dev/accel/accelN whose driver is vrampool, opened: fd or -1. */
static int open_vrampool(void)
{
	char path[32], name[32];
	int i, fd;

	for (i = 0; i < MAX_ACCEL; i++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vrampool"))
			return fd;
		close(fd);
	}
	return -1;
}

static uint64_t get_param(struct __test_metadata *_metadata, int fd, uint32_t param)
{
	struct drm_vrampool_get_param gp = { .param = param };

	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, &gp)) TH_LOG("GET_PARAM %u", param);
	return gp.value;
}

static void install(struct __test_metadata *_metadata, int fd,
		    const struct drm_vrampool_pool_entry *e)
{
	struct drm_vrampool_pool_install in = {
		.entries = (uintptr_t)e,
		.count = 1,
		.entry_size = sizeof(*e),
	};

	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, &in))
		TH_LOG("install: %s, error code %u", strerror(errno), in.error.code);
	ASSERT_EQ(1u, in.num_pools);
}

/* The status of pool @index (a dynamic pool, or 255). */
static void pool_status(struct __test_metadata *_metadata, int fd, uint32_t index,
			struct drm_vrampool_pool_status *out)
{
	struct drm_vrampool_pool_status st[MAX_POOLS + 1];
	struct drm_vrampool_pool_query q = { 0 };
	uint32_t i;

	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q));
	ASSERT_GE(sizeof(st), q.size);
	q.pools = (uintptr_t)st;
	ASSERT_EQ(0, ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q));
	for (i = 0; i <= q.num_pools; i++) {
		if (st[i].index == index) {
			*out = st[i];
			return;
		}
	}
	ASSERT_TRUE(false) TH_LOG("no pool %u", index);
}

/* What a pool's statistics must be at the end of a trace. */
struct stats {
	uint64_t allocations, bytes_in_use, padding, reserved_bytes;
	uint64_t pages, pages_peak, largest_alloc;
};

static void expect_stats(struct __test_metadata *_metadata, int fd, uint32_t index,
			 struct stats want)
{
	struct drm_vrampool_pool_status st;

	pool_status(_metadata, fd, index, &st);
	EXPECT_EQ(want.allocations, st.allocations);
	EXPECT_EQ(want.bytes_in_use, st.bytes_in_use);
	EXPECT_EQ(want.padding, st.padding);
	EXPECT_EQ(want.reserved_bytes, st.reserved_bytes);
	EXPECT_EQ(want.pages, st.pages);
	EXPECT_EQ(want.pages_peak, st.pages_peak);
	EXPECT_EQ(want.largest_alloc, st.largest_alloc);
}

/* The allocations a trace made, in order, and how its last operation went. */
struct trace {
	struct drm_vrampool_alloc a[MAX_ALLOCS];
	unsigned int count;
	int last;	/* 0 or the -errno of the last operation */
};

/*
 * Runs @ops on @fd. Every operation but the last must succeed; the last
 * one's result is in t->last (its answer, for an allocation, in t->a).
 */
static void run_trace(struct __test_metadata *_metadata, int fd, const char *ops,
		      struct trace *t)
{
	const char *p = ops;

	memset(t, 0, sizeof(*t));
	while (*p) {
		char op = *p++;
		char *end;
		unsigned long long n = strtoull(p, &end, 10);
		int ret = 0;

		p = end;
		if (op == 'a' || op == 'p') {
			struct drm_vrampool_alloc *a = &t->a[t->count];

			ASSERT_GT(MAX_ALLOCS, t->count);
			a->size = n;
			a->flags = op == 'p' ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0;
			if (ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, a))
				ret = -errno;
			t->count++;
		} else if (op == 'f') {
			struct drm_vrampool_free f = { 0 };

			ASSERT_GT(t->count, n) TH_LOG("%s: f%llu before that allocation", ops, n);
			f.handle = t->a[n].handle;
			if (ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE, &f))
				ret = -errno;
		} else if (op == 'c') {
			struct drm_vrampool_cleanup c = { 0 };

			if (ioctl(fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &c))
				ret = -errno;
		} else {
			ASSERT_TRUE(false) TH_LOG("%s: unknown operation '%c'", ops, op);
		}
		while (*p == ' ')
			p++;
		t->last = ret;
		if (*p)
			ASSERT_EQ(0, ret) TH_LOG("%s: '%c%llu' failed", ops, op, n);
	}
}

/* Where allocation @k of a trace must be. */
struct placement {
	unsigned int k;
	uint32_t page;
	uint64_t offset, padding;
	uint64_t page_size;	/* 0: not checked */
};

/* Allocation @k must share the page of allocation @with (by its mmap offset). */
struct same_page {
	unsigned int k, with;
};

#define MAX_CHECKS	4

#define SLICED(page, cap) { .type = DRM_VRAMPOOL_POOL_SLICED, .page_size = (page), \
	.flags = (cap) ? DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE : 0, .max_pool_size = (cap) }
#define EXCLUSIVE(max, period) { .type = DRM_VRAMPOOL_POOL_EXCLUSIVE, .max_alloc_size = (max), \
	.flags = (period) ? DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD : 0, .dealloc_period = (period) }
#define DIRECT(reclaim) { .type = DRM_VRAMPOOL_POOL_DIRECT, \
	.flags = (reclaim) ? DRM_VRAMPOOL_ENTRY_RECLAIM_AT : 0, .reclaim_at = (reclaim) }

/* ---- The traces ------------------------------------------------------------ */

FIXTURE(order) {
	int fd;
};

/*
 * One trace: the layout (none: the persistent pool of a fresh file), its
 * operations, where allocations land, and the pool's statistics at the end.
 * Every trace succeeds to its end, as it does on CubeCL.
 */
FIXTURE_VARIANT(order) {
	struct drm_vrampool_pool_entry entry;
	const char *ops;
	uint32_t pool;
	struct placement at[MAX_CHECKS];
	unsigned int n_at;
	struct same_page same[MAX_CHECKS];
	unsigned int n_same;
	struct stats end;
};

/*
 * sliced{page 64 KiB}: a65536 a40000 f0 c a40000 a256
 *
 * CubeCL: a65536 fills page P0. a40000 (eff 40192, padding 192) does not
 * fit P0: new page P1, slice [0, 40192), free [40192, 65536). f0 frees P0;
 * c drops the wholly free P0 and keeps P1 (renumbered 0). a40000 does not
 * fit P1's 25344 free bytes: a new page P2 goes last, [0, 40192). a256
 * visits the pages oldest first: P1 has room at 40192, so it lands there,
 * not in P2 (which also has room at 40192).
 * vrampool numbers P0, P1, P2 as pages 0, 1, 2 (P2 does not take P0's
 * freed index). End: 3 allocations (80256 bytes, padding 192 + 192 + 0),
 * 2 pages, peak 2.
 */
FIXTURE_VARIANT_ADD(order, sliced_visits_older_page_after_cleanup) {
	.entry = SLICED(64 * KiB, 0),
	.ops = "a65536 a40000 f0 c a40000 a256",
	.at = { { 1, 1, 0, 192 }, { 2, 2, 0, 192 }, { 3, 1, 40192, 0 } },
	.n_at = 3,
	.same = { { 3, 1 } },
	.n_same = 1,
	.end = { .allocations = 3, .bytes_in_use = 80256, .padding = 384,
		 .reserved_bytes = 128 * KiB, .pages = 2, .pages_peak = 2,
		 .largest_alloc = 65536 },
};

/*
 * sliced{page 64 KiB, cap 128 KiB}: a65536 a40000 f0 c a30000 a20000 a30000
 *
 * CubeCL: P0 full, P1 [0, 40192) as above; c drops P0. a30000 (eff 30208,
 * padding 208) does not fit P1's 25344 free bytes: new page P2 (the second
 * of two the cap allows), [0, 30208). a20000 (eff 20224, padding 224):
 * P1 first, it fits at 40192, leaving 5120 free there. a30000: P1 has
 * 5120, P2 has 35328 free at 30208: there. Had a20000 gone to the younger
 * P2 (30208), neither page would fit 30208 more, and with the cap reached
 * the request would be PoolCapacityExceeded.
 * End: 4 allocations (120000 bytes, padding 192 + 208 + 224 + 208 = 832),
 * 2 pages, peak 2.
 */
FIXTURE_VARIANT_ADD(order, sliced_capped_pool_serves_what_cubecl_serves) {
	.entry = SLICED(64 * KiB, 128 * KiB),
	.ops = "a65536 a40000 f0 c a30000 a20000 a30000",
	.at = { { 2, 2, 0, 208 }, { 3, 1, 40192, 224 }, { 4, 2, 30208, 208 } },
	.n_at = 3,
	.same = { { 3, 1 }, { 4, 2 } },
	.n_same = 2,
	.end = { .allocations = 4, .bytes_in_use = 120000, .padding = 832,
		 .reserved_bytes = 128 * KiB, .pages = 2, .pages_peak = 2,
		 .largest_alloc = 65536 },
};

/*
 * exclusive{max 64 KiB}, no dealloc period: a65536 a65536 f0 c a65536 f1 f2 a65536
 *
 * CubeCL: the average (starting at 32 KiB) stays below 64 KiB, so every
 * page is 65536 bytes. P0, P1 are made with idle count 4; f0, then c drops
 * the free P0 (P1 is renumbered 0). a65536 finds no free page: new page P2
 * (idle count 4) goes last. f1, f2 free P1 and P2: both are candidates with
 * idle count 4, and the tie goes to the older, P1 (its idle count drops to
 * 3). vrampool: P1 is page 1, P2 page 2.
 * End: 1 allocation of 65536, 2 pages (128 KiB), peak 2.
 */
FIXTURE_VARIANT_ADD(order, exclusive_tie_goes_to_older_page) {
	.entry = EXCLUSIVE(64 * KiB, 0),
	.ops = "a65536 a65536 f0 c a65536 f1 f2 a65536",
	.at = { { 1, 1, 0, 0, 65536 }, { 2, 2, 0, 0, 65536 }, { 3, 1, 0, 0, 65536 } },
	.n_at = 3,
	.same = { { 3, 1 } },
	.n_same = 1,
	.end = { .allocations = 1, .bytes_in_use = 65536, .padding = 0,
		 .reserved_bytes = 128 * KiB, .pages = 2, .pages_peak = 2,
		 .largest_alloc = 65536 },
};

/*
 * exclusive{max 64 KiB, dealloc_period 10}: a65536 a65536 a65536 f1 a65536 f2 f3 a1
 *
 * CubeCL: an idle check every 10 / 5 = 2 allocations of the client, due
 * when the count (raised before each request) is at least 2 past the last
 * check. Allocation 0 (count 1): no check, page P0. 1 (count 2): a check,
 * nothing free; P1. 2 (count 3): P2. f1 frees P1. 3 (count 4): a check:
 * P1's idle count goes 4 -> 5, it is released (P0 and P2 renumbered 0, 1);
 * then a new page P3 goes last. f2, f3 free P2 and P3. 4 (count 5, no
 * check): a1 has two candidates with idle count 4; the older, P2, takes it
 * (offset 0, padding 255). vrampool: P0..P3 are pages 0..3, P3 does not
 * take P1's freed index.
 * End: 2 allocations (65536 + 1 bytes, padding 255), 3 pages (192 KiB),
 * peak 3.
 */
FIXTURE_VARIANT_ADD(order, exclusive_new_page_after_idle_release_goes_last) {
	.entry = EXCLUSIVE(64 * KiB, 10),
	.ops = "a65536 a65536 a65536 f1 a65536 f2 f3 a1",
	.at = { { 2, 2, 0, 0 }, { 3, 3, 0, 0 }, { 4, 2, 0, 255, 65536 } },
	.n_at = 3,
	.same = { { 4, 2 } },
	.n_same = 1,
	.end = { .allocations = 2, .bytes_in_use = 65537, .padding = 255,
		 .reserved_bytes = 192 * KiB, .pages = 3, .pages_peak = 3,
		 .largest_alloc = 65536 },
};

/*
 * direct{}: a256 a512 a768 f0 f2 c a1024
 *
 * CubeCL: slots 0, 1, 2 hold 256, 512 and 768. f0, f2; c releases the free
 * buffers in slot order, pushing slots 0 then 2 on the vacant stack.
 * a1024 has no free buffer of its size: a new one, in the slot popped from
 * the stack, 2 (the slot freed last). vrampool's page index is the slot.
 * End: 2 allocations (512 + 1024 bytes), 2 buffers (1536 bytes), peak 3.
 */
FIXTURE_VARIANT_ADD(order, direct_new_buffer_takes_slot_freed_last) {
	.entry = DIRECT(0),
	.ops = "a256 a512 a768 f0 f2 c a1024",
	.at = { { 1, 1, 0, 0 }, { 2, 2, 0, 0 }, { 3, 2, 0, 0, 1024 } },
	.n_at = 3,
	.end = { .allocations = 2, .bytes_in_use = 1536, .padding = 0,
		 .reserved_bytes = 1536, .pages = 2, .pages_peak = 3,
		 .largest_alloc = 1024 },
};

/*
 * direct{reclaim_at 1536}: a256 a256 f0 f1 c a512 a1024 f2 f3 a768
 *
 * CubeCL: slots 0, 1 hold 256 each; f0, f1; c releases slot 0 then 1
 * (vacant stack [0, 1]). a512: 0 + 512 <= 1536, no reclaim; it pops slot 1.
 * a1024: 512 + 1024 = 1536 <= 1536, no reclaim; it pops slot 0. f2, f3
 * free both. a768 has no free buffer of its size, and 1536 + 768 > 1536:
 * reclaim walks the free buffers in slot order and stops once it fits:
 * slot 0 (1024) goes, 512 + 768 = 1280 <= 1536, slot 1 (512) stays. The
 * new 768 buffer pops slot 0. (Releasing the 512 first would not have been
 * enough: both would go, leaving 1 buffer of 768.)
 * End: 1 allocation of 768, 2 buffers (768 + 512 = 1280 bytes), peak 2.
 */
FIXTURE_VARIANT_ADD(order, direct_reclaims_in_slot_order) {
	.entry = DIRECT(1536),
	.ops = "a256 a256 f0 f1 c a512 a1024 f2 f3 a768",
	.at = { { 2, 1, 0, 0 }, { 3, 0, 0, 0 }, { 4, 0, 0, 0, 768 } },
	.n_at = 3,
	.end = { .allocations = 1, .bytes_in_use = 768, .padding = 0,
		 .reserved_bytes = 1280, .pages = 2, .pages_peak = 2,
		 .largest_alloc = 1024 },
};

/*
 * persistent: p256 p256 f0 c p256 f1 f2 p256
 *
 * CubeCL: buffers B0, B1 (256 each); f0; c drops the free B0 and keeps B1
 * (renumbered 0), the 256 bucket now [B1]. p256: B1 is live, a new buffer
 * B2 is appended to the bucket: [B1, B2]. f1, f2 free both; p256 takes the
 * first free one of the bucket, the older B1. vrampool: B0, B1, B2 are
 * pages 0, 1, 2 of pool 255.
 * End: 1 allocation of 256, 2 buffers (512 bytes), peak 2.
 */
FIXTURE_VARIANT_ADD(order, persistent_reuses_oldest_free_buffer) {
	.ops = "p256 p256 f0 c p256 f1 f2 p256",
	.pool = DRM_VRAMPOOL_PERSISTENT_POOL,
	.at = { { 1, 1, 0, 0 }, { 2, 2, 0, 0 }, { 3, 1, 0, 0, 256 } },
	.n_at = 3,
	.same = { { 3, 1 } },
	.n_same = 1,
	.end = { .allocations = 1, .bytes_in_use = 256, .padding = 0,
		 .reserved_bytes = 512, .pages = 2, .pages_peak = 2,
		 .largest_alloc = 256 },
};

FIXTURE_SETUP(order)
{
	self->fd = open_vrampool();
	ASSERT_LE(0, self->fd) TH_LOG("no vrampool accel device");
	ASSERT_EQ(ALIGNMENT, get_param(_metadata, self->fd, DRM_VRAMPOOL_PARAM_ALIGNMENT))
		TH_LOG("these traces expect the default alignment of 256");
}

FIXTURE_TEARDOWN(order)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The trace places and ends as CubeCL does. */
TEST_F(order, as_cubecl)
{
	const struct drm_vrampool_alloc *a;
	struct trace t;
	unsigned int i;

	if (variant->entry.type)
		install(_metadata, self->fd, &variant->entry);
	run_trace(_metadata, self->fd, variant->ops, &t);
	ASSERT_EQ(0, t.last) TH_LOG("%s: the last request: error code %u, capacity %llu, "
				    "in use %llu", variant->ops, t.a[t.count - 1].error.code,
				    (unsigned long long)t.a[t.count - 1].error.capacity,
				    (unsigned long long)t.a[t.count - 1].error.in_use);

	for (i = 0; i < variant->n_at; i++) {
		const struct placement *at = &variant->at[i];

		a = &t.a[at->k];
		EXPECT_EQ(variant->pool, a->pool) TH_LOG("allocation %u", at->k);
		EXPECT_EQ(at->page, a->page) TH_LOG("allocation %u", at->k);
		EXPECT_EQ(at->offset, a->offset) TH_LOG("allocation %u", at->k);
		EXPECT_EQ(at->padding, a->padding) TH_LOG("allocation %u", at->k);
		if (at->page_size)
			EXPECT_EQ(at->page_size, a->page_size) TH_LOG("allocation %u", at->k);
	}
	for (i = 0; i < variant->n_same; i++) {
		const struct same_page *sp = &variant->same[i];

		EXPECT_EQ(t.a[sp->with].mmap_offset, t.a[sp->k].mmap_offset)
			TH_LOG("allocation %u is in the page of allocation %u", sp->k, sp->with);
	}
	expect_stats(_metadata, self->fd, variant->pool, variant->end);
}

TEST_HARNESS_MAIN

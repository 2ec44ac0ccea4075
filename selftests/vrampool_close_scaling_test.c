// SPDX-License-Identifier: GPL-2.0-only
/*
 * close() of a client does work linear in what it holds, counted, not
 * timed: the driver's vrampool_close event reports what the teardown
 * walks visited (live allocations dropped, allocation records freed, pool
 * pages released), read here from a tracing instance of the test's own.
 * A client with n allocations and one with 4n (n = 25,000; 6,250 on a
 * debug kernel, whose KASAN, lockdep and kmemleak make every allocation
 * many times slower) must each report exactly the allocations it held,
 * one record each, and exactly the pages its pools held (the persistent
 * pool's buffers and the sliced pages, predicted from the slice count and
 * checked against POOL_QUERY), so the work of the 4n close is 4 times
 * the allocations and records of the n close, and its pages what 4n
 * allocations need. A walk that visited an item twice or missed one, or
 * a close that left a page behind, fails; the counts and the work per
 * allocation are printed. How long close() takes is `make bench`'s
 * figure ("close() of 25,000 mixed allocations" and 4 times as many),
 * never asserted.
 *
 * The allocations are the kind that made close() quadratic before: 40% are
 * persistent buffers, each a page of its own (one VRAM buffer object),
 * which close() used to put back on an ordered free list one by one, and
 * 60% are slices of sliced pages of 1 MiB. On the emulated device (256 MiB
 * of VRAM in the VM), whose VRAM holds 4n such buffers; each close must
 * give all of it back.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define SMALL_N		25000u
#define SMALL_N_DEBUG	6250u
/* 40% persistent buffers, the rest slices. */
#define PERSISTENT_PERCENT	40u
#define SLICE_SIZE	256ULL
#define SLICED_PAGE	(1 * MiB)

#define TRACEFS		"/sys/kernel/tracing"
#define TRACEFS_DEBUG	VP_DEBUGFS_ROOT "/tracing"
#define CLOSE_EVENT	"events/vrampool/vrampool_close"

/* A debug kernel: lockdep or kmemleak is there. */
static bool debug_kernel(void)
{
	return vp_exists("/proc/lockdep") || vp_exists(VP_DEBUGFS_ROOT "/kmemleak");
}

/* What a vrampool_close event counted. */
struct close_work {
	uint64_t allocs, records, pages;
};

FIXTURE(close_scaling) {
	struct vp_device dev;
	int watch;		/* stays open: reads the device's VRAM in use */
	uint64_t vram_start;
	unsigned int small_n;
	char inst[128];		/* the tracing instance; empty: none made */
};

/* @file of the test's tracing instance into @buf. */
static void inst_path(FIXTURE_DATA(close_scaling) *self, const char *file, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s/%s", self->inst, file);
}

FIXTURE_SETUP(close_scaling)
{
	const char *root = vp_exists(TRACEFS "/events") ? TRACEFS : TRACEFS_DEBUG;
	char path[256];
	uint64_t align;
	int ret;

	self->inst[0] = '\0';
	self->watch = vp_setup_open_first(_metadata, VP_BACKEND_PLATFORM, &self->dev);
	ASSERT_EQ(0, vp_get_param(self->watch, DRM_VRAMPOOL_PARAM_ALIGNMENT, &align));
	ASSERT_GE(SLICE_SIZE, align) TH_LOG("slices of %llu bytes need an alignment up to it",
					    SLICE_SIZE);
	self->vram_start = vp_vram_in_use(self->watch);
	ASSERT_NE(UINT64_MAX, self->vram_start);
	self->small_n = debug_kernel() ? SMALL_N_DEBUG : SMALL_N;

	snprintf(path, sizeof(path), "%s/" CLOSE_EVENT, root);
	ASSERT_TRUE(vp_exists(path)) TH_LOG("no %s: a kernel without tracing?", path);
	snprintf(self->inst, sizeof(self->inst), "%s/instances/vrampool_close_scaling-%d", root,
		 (int)getpid());
	if (mkdir(self->inst, 0700)) {
		ret = -errno;
		self->inst[0] = '\0';
		ASSERT_EQ(0, ret) TH_LOG("mkdir a tracing instance: %s", strerror(-ret));
	}
	inst_path(self, CLOSE_EVENT "/enable", path, sizeof(path));
	ret = vp_write_file(path, "1");
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", path, strerror(-ret));
}

FIXTURE_TEARDOWN(close_scaling)
{
	char path[256];

	if (self->inst[0]) {
		inst_path(self, CLOSE_EVENT "/enable", path, sizeof(path));
		vp_write_file(path, "0");
		if (rmdir(self->inst))
			ksft_print_msg("rmdir %s: %s\n", self->inst, strerror(errno));
	}
	if (self->watch >= 0)
		close(self->watch);
}

/*
 * The counts of the one vrampool_close event of client @id in the
 * instance's buffer: 0, or -1 with what is wrong in @why.
 */
static int close_event(FIXTURE_DATA(close_scaling) *self, uint64_t id, struct close_work *w,
		       char *why, size_t len)
{
	char path[256], key[48], buf[8192], *p;
	int ret, found = 0;

	inst_path(self, "trace", path, sizeof(path));
	ret = vp_read_file(path, buf, sizeof(buf));
	if (ret) {
		snprintf(why, len, "%s: %s", path, strerror(-ret));
		return -1;
	}
	snprintf(key, sizeof(key), "vrampool_close: client=%" PRIu64 " ", id);
	for (p = strstr(buf, key); p; p = strstr(p + 1, key)) {
		if (sscanf(p + strlen(key), "allocs=%" SCNu64 " records=%" SCNu64
			   " pages=%" SCNu64, &w->allocs, &w->records, &w->pages) != 3) {
			snprintf(why, len, "an event not in the documented format: %.120s", p);
			return -1;
		}
		found++;
	}
	if (found != 1) {
		snprintf(why, len, "%d vrampool_close events of client %" PRIu64 " in: %.400s",
			 found, id, buf);
		return -1;
	}
	return 0;
}

/*
 * A client with @n live allocations, closed: what its vrampool_close
 * event counted, and the pages its pools held (POOL_QUERY) before; checks
 * that the close gave back every byte of VRAM.
 */
static void counted_close(struct __test_metadata *_metadata, FIXTURE_DATA(close_scaling) *self,
			  unsigned int n, struct close_work *w, uint64_t *held_pages)
{
	struct drm_vrampool_pool_entry sliced = vp_sliced(SLICED_PAGE, SLICE_SIZE, VP_ABSENT);
	unsigned int persistent = n / 100 * PERSISTENT_PERCENT, i;
	struct drm_vrampool_pool_status ps, ss;
	struct drm_vrampool_alloc a;
	char why[600];
	uint64_t id;
	int fd, ret;

	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	ASSERT_EQ(0, vp_client_id(fd, &id));
	ret = vp_install_list(fd, &sliced, 1, NULL);
	ASSERT_EQ(0, ret) TH_LOG("install a sliced pool: %s", strerror(-ret));

	for (i = 0; i < n; i++) {
		ret = vp_alloc(fd, i < persistent ? 1 : SLICE_SIZE,
			       i < persistent ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a);
		ASSERT_EQ(0, ret) TH_LOG("allocation %u of %u: %s (error code %u)",
					 i, n, strerror(-ret), a.error.code);
	}
	ASSERT_GT(vp_vram_in_use(self->watch), self->vram_start + persistent * VP_CPU_PAGE);
	ASSERT_EQ(0, vp_pool(fd, DRM_VRAMPOOL_PERSISTENT_POOL, &ps));
	ASSERT_EQ(0, vp_pool(fd, 0, &ss));
	ASSERT_EQ(n, ps.allocations + ss.allocations);
	*held_pages = ps.pages + ss.pages;

	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(self->vram_start, vp_vram_in_use(self->watch)) {
		TH_LOG("close() of %u allocations left VRAM behind", n);
	}
	ASSERT_EQ(0, close_event(self, id, w, why, sizeof(why))) TH_LOG("%s", why);
}

/* The pages @n allocations of the test take: a buffer each, sliced pages. */
static uint64_t pages_of(unsigned int n)
{
	uint64_t persistent = n / 100 * PERSISTENT_PERCENT, slices = n - persistent;
	uint64_t per_page = SLICED_PAGE / SLICE_SIZE;

	return persistent + (slices + per_page - 1) / per_page;
}

TEST_F_TIMEOUT(close_scaling, close_work_is_linear_in_allocations, 280)
{
	unsigned int sizes[2] = { self->small_n, 4 * self->small_n };
	struct close_work w[2];
	uint64_t held[2];
	int k;

	for (k = 0; k < 2; k++) {
		counted_close(_metadata, self, sizes[k], &w[k], &held[k]);
		ksft_print_msg("close() of %u allocations: %" PRIu64 " allocations, %" PRIu64
			       " records, %" PRIu64 " pages visited (%.4f per allocation)%s\n",
			       sizes[k], w[k].allocs, w[k].records, w[k].pages,
			       (double)(w[k].allocs + w[k].records + w[k].pages) / sizes[k],
			       self->small_n == SMALL_N ? "" : " [debug kernel: sizes scaled down]");
		EXPECT_EQ(pages_of(sizes[k]), held[k]) {
			TH_LOG("%u allocations: POOL_QUERY says %" PRIu64 " pages, %" PRIu64
			       " predicted", sizes[k], held[k], pages_of(sizes[k]));
		}
		EXPECT_EQ(sizes[k], w[k].allocs) {
			TH_LOG("close() of %u allocations visited %" PRIu64, sizes[k],
			       w[k].allocs);
		}
		EXPECT_EQ(sizes[k], w[k].records) {
			TH_LOG("close() of %u allocations (no spare record) freed %" PRIu64
			       " records", sizes[k], w[k].records);
		}
		EXPECT_EQ(pages_of(sizes[k]), w[k].pages) {
			TH_LOG("close() of %u allocations released %" PRIu64 " pages of %" PRIu64,
			       sizes[k], w[k].pages, pages_of(sizes[k]));
		}
	}
	EXPECT_EQ(4 * w[0].allocs, w[1].allocs);
	EXPECT_EQ(4 * w[0].records, w[1].records);
}

TEST_HARNESS_MAIN

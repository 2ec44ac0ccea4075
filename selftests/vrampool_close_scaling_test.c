// SPDX-License-Identifier: GPL-2.0-only
/*
 * close() of a client is linear in its live allocations: closing one with
 * 4n of them takes at most 8 times as long as closing one with n (8 is
 * halfway, geometrically, between linear, 4, and quadratic, 16; n =
 * 25,000; 6,250 on a debug kernel, whose KASAN, lockdep and kmemleak make
 * every allocation many times slower). Both times are printed.
 *
 * The allocations are the kind that made close() quadratic before: 40% are
 * persistent buffers, each a page of its own (one VRAM buffer object),
 * which close() used to put back on an ordered free list one by one, and
 * 60% are slices of a few sliced pages. On the emulated device (256 MiB of
 * VRAM in the VM), whose VRAM holds 4n such buffers; each close must give
 * all of it back.
 *
 * Each size is measured in a few rounds, the two sizes taking turns, and
 * the fastest round of each counts, so that another VM's burst does not
 * decide the ratio.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define SMALL_N		25000u
#define SMALL_N_DEBUG	6250u
#define ROUNDS		3
#define ROUNDS_DEBUG	2	/* about 90 s there with 3 */
#define MAX_RATIO	8.0
/* 40% persistent buffers, the rest slices. */
#define PERSISTENT_PERCENT	40u
#define SLICE_SIZE	256ULL
#define SLICED_PAGE	(4 * MiB)

/* A debug kernel: lockdep or kmemleak is there. */
static bool debug_kernel(void)
{
	return vp_exists("/proc/lockdep") || vp_exists(VP_DEBUGFS_ROOT "/kmemleak");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(close_scaling) {
	struct vp_device dev;
	int watch;		/* stays open: reads the device's VRAM in use */
	uint64_t vram_start;
	unsigned int small_n;
	int rounds;
};

FIXTURE_SETUP(close_scaling)
{
	uint64_t align;

	self->watch = vp_setup_open_first(_metadata, VP_BACKEND_PLATFORM, &self->dev);
	ASSERT_EQ(0, vp_get_param(self->watch, DRM_VRAMPOOL_PARAM_ALIGNMENT, &align));
	ASSERT_GE(SLICE_SIZE, align) TH_LOG("slices of %llu bytes need an alignment up to it",
					    SLICE_SIZE);
	self->vram_start = vp_vram_in_use(self->watch);
	ASSERT_NE(UINT64_MAX, self->vram_start);
	self->small_n = debug_kernel() ? SMALL_N_DEBUG : SMALL_N;
	self->rounds = debug_kernel() ? ROUNDS_DEBUG : ROUNDS;
}

FIXTURE_TEARDOWN(close_scaling)
{
	if (self->watch >= 0)
		close(self->watch);
}

/*
 * A client with @n live allocations, closed: returns how long the close()
 * took, in seconds, and checks that it gave back every byte of VRAM.
 */
static double timed_close(struct __test_metadata *_metadata,
			  FIXTURE_DATA(close_scaling) *self, unsigned int n)
{
	struct drm_vrampool_pool_entry sliced = vp_sliced(SLICED_PAGE, SLICE_SIZE, VP_ABSENT);
	unsigned int persistent = n / 100 * PERSISTENT_PERCENT, i;
	struct drm_vrampool_alloc a;
	double t0, t1;
	int fd, ret;

	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	ret = vp_install_list(fd, &sliced, 1, NULL);
	ASSERT_EQ(0, ret) TH_LOG("install a sliced pool: %s", strerror(-ret));

	for (i = 0; i < n; i++) {
		ret = vp_alloc(fd, i < persistent ? 1 : SLICE_SIZE,
			       i < persistent ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a);
		ASSERT_EQ(0, ret) TH_LOG("allocation %u of %u: %s (error code %u)",
					 i, n, strerror(-ret), a.error.code);
	}
	ASSERT_GT(vp_vram_in_use(self->watch), self->vram_start + persistent * VP_CPU_PAGE);

	t0 = now();
	ASSERT_EQ(0, close(fd));
	t1 = now();
	ASSERT_EQ(self->vram_start, vp_vram_in_use(self->watch)) {
		TH_LOG("close() of %u allocations left VRAM behind", n);
	}
	return t1 - t0;
}

/*
 * The fastest of a few closes (ROUNDS; ROUNDS_DEBUG) of @small and of
 * @large allocations, the sizes taking turns.
 */
static void best_closes(struct __test_metadata *_metadata, FIXTURE_DATA(close_scaling) *self,
			unsigned int small, unsigned int large, double *t_small, double *t_large)
{
	double t;
	int r;

	for (r = 0; r < self->rounds; r++) {
		t = timed_close(_metadata, self, small);
		if (!r || t < *t_small)
			*t_small = t;
		t = timed_close(_metadata, self, large);
		if (!r || t < *t_large)
			*t_large = t;
	}
}

TEST_F_TIMEOUT(close_scaling, close_is_linear_in_allocations, 280)
{
	unsigned int small = self->small_n, large = 4 * small;
	double t_small = 0, t_large = 0, ratio;

	best_closes(_metadata, self, small, large, &t_small, &t_large);
	ratio = t_small > 0 ? t_large / t_small : 0;

	ksft_print_msg("close() of %u allocations: %.3f ms (%.2f us each)%s\n", small,
		       t_small * 1e3, t_small * 1e6 / small,
		       small == SMALL_N ? "" : " [debug kernel: sizes scaled down]");
	ksft_print_msg("close() of %u allocations: %.3f ms (%.2f us each)\n", large,
		       t_large * 1e3, t_large * 1e6 / large);
	ksft_print_msg("ratio %.2f for 4x the allocations (linear: 4, quadratic: 16, bound %.0f)\n",
		       ratio, MAX_RATIO);
	ASSERT_GT(t_small, 0);
	EXPECT_LE(ratio, MAX_RATIO) {
		TH_LOG("close() grows faster than linearly: %.3f s for %u, %.3f s for %u",
		       t_small, small, t_large, large);
	}
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel memory a client holds (Documentation/vrampool.rst, "Kernel
 * memory of a client"): the growth of SUnreclaim in /proc/meminfo per open
 * file, averaged over several clients held open at once, for an idle client
 * (open, default layout) and for one with a 254-pool layout (its pools and
 * their sysfs folders). Both are printed; on Debian's kernel an idle client
 * must stay under IDLE_BOUND, and each pool of the big one under POOL_BOUND
 * (its growth over an idle client, per pool). The bounds are set from
 * measurements with a stated margin, so that a regression of a few times
 * fails. The debug kernel's figures are printed only: KASAN's and
 * kmemleak's metadata for every object, and objects KASAN keeps in
 * quarantine, are counted too there.
 *
 * SUnreclaim counts whole slab pages: averaging over many clients smooths
 * the partly filled pages out. Other activity of the VM (there is little)
 * only adds to the figure.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

/* An idle client measured 4.6 KiB (Debian 6.12, 2026-12-04): 3.5x that. */
#define IDLE_BOUND	(16 * KiB)
/*
 * A 254-pool client measured 174.5 KiB, 4.6 of them an idle client's: 685
 * bytes per pool (its struct, its sysfs folder and attributes): 1.5x that.
 */
#define POOL_BOUND	1024ULL
#define IDLE_CLIENTS	64
#define BIG_CLIENTS	16

static bool debug_tier(void)
{
	const char *tier = getenv("VRAMPOOL_TIER");

	return tier && !strcmp(tier, "debug");
}

/* SUnreclaim of /proc/meminfo in bytes, or 0. */
static uint64_t sunreclaim(void)
{
	return vp_meminfo_bytes("SUnreclaim");
}

/*
 * Let the kernel settle: deferred frees (RCU, delayed kobject releases),
 * then every slab cache gives back its empty slabs (SLUB's shrink file),
 * so that the clients an earlier test closed leave no free room in slab
 * pages for these to fill unseen.
 */
static void settle(void)
{
	sleep(1);
	vp_slab_shrink_all();
}

FIXTURE(kmem) {
	struct vp_device dev;
	int fds[BIG_CLIENTS > IDLE_CLIENTS ? BIG_CLIENTS : IDLE_CLIENTS];
	int n;
};

FIXTURE_SETUP(kmem)
{
	int i, ret;

	for (i = 0; i < (int)ARRAY_SIZE(self->fds); i++)
		self->fds[i] = -1;
	self->n = 0;
	ret = vp_find_backend(VP_BACKEND_PLATFORM, &self->dev);
	ASSERT_EQ(0, ret) TH_LOG("no emulated device: %s", strerror(-ret));
	ASSERT_LT(0ULL, sunreclaim()) TH_LOG("no SUnreclaim in /proc/meminfo");
}

FIXTURE_TEARDOWN(kmem)
{
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(self->fds); i++)
		if (self->fds[i] >= 0)
			close(self->fds[i]);
}

/* Open @n clients, each with @entries installed when @count: the bytes per client. */
static uint64_t per_client(struct __test_metadata *_metadata, FIXTURE_DATA(kmem) *self,
			   int n, const struct drm_vrampool_pool_entry *entries, uint32_t count,
			   bool must_grow)
{
	uint64_t before, after;
	int i;

	settle();
	before = sunreclaim();
	for (i = 0; i < n; i++) {
		self->fds[i] = vp_open_device(&self->dev);
		ASSERT_LE(0, self->fds[i]) TH_LOG("open %d: %s", i, strerror(-self->fds[i]));
		if (count)
			VP_INSTALL_OK(self->fds[i], entries, count, "254 pools");
	}
	settle();
	after = sunreclaim();
	for (i = 0; i < n; i++) {
		close(self->fds[i]);
		self->fds[i] = -1;
	}
	/*
	 * Every open file holds some: a slab that shrank measured nothing. A
	 * few idle clients right after many closed can fit in the slab pages
	 * those left partly free, so only a growth of megabytes must show.
	 */
	if (must_grow)
		EXPECT_LT(before, after) TH_LOG("SUnreclaim went from %" PRIu64 " to %" PRIu64
						" bytes while %d clients opened", before, after, n);
	return after > before ? (after - before) / n : 0;
}

static void print_figure(const char *what, uint64_t bytes)
{
	ksft_print_msg("kernel memory of %s: %" PRIu64 " bytes (%.1f KiB)%s\n",
		       what, bytes, bytes / 1024.0,
		       debug_tier() ? " (debug kernel: detector metadata included, not bounded)" :
		       "");
}

TEST_F_TIMEOUT(kmem, idle_client, 300)
{
	uint64_t b = per_client(_metadata, self, IDLE_CLIENTS, NULL, 0, true);

	print_figure("an idle client (open, default layout), per client", b);
	if (!debug_tier())
		EXPECT_GT(IDLE_BOUND, b) TH_LOG("%" PRIu64 " bytes, bound %" PRIu64, b, (uint64_t)IDLE_BOUND);
}

TEST_F_TIMEOUT(kmem, client_with_254_pools, 600)
{
	static struct drm_vrampool_pool_entry e[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	char path[VP_PATH_LEN];
	uint64_t b, id, idle, per_pool;
	static struct vp_names ns;
	int i, fd, ret;

	for (i = 0; i < DRM_VRAMPOOL_MAX_DYNAMIC_POOLS; i++)
		e[i] = i % 2 ? vp_exclusive((i + 1) * 64 * KiB, VP_ABSENT) :
			       vp_sliced((i + 1) * MiB, 64 * KiB, VP_ABSENT);

	/* The layout is in force, with a folder per pool (255 with the persistent one). */
	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	VP_INSTALL_OK(fd, e, DRM_VRAMPOOL_MAX_DYNAMIC_POOLS, "254 pools");
	ASSERT_EQ(0, vp_client_id(fd, &id));
	vp_sysfs_client_path(&self->dev, id, path, sizeof(path));
	strncat(path, "/pools", sizeof(path) - strlen(path) - 1);
	ret = vp_list_dir(path, &ns);
	close(fd);
	ASSERT_EQ(0, ret) TH_LOG("list %s: %s", path, strerror(-ret));
	ASSERT_EQ((int)DRM_VRAMPOOL_MAX_DYNAMIC_POOLS + 1, ns.n);

	idle = per_client(_metadata, self, BIG_CLIENTS, NULL, 0, false);
	b = per_client(_metadata, self, BIG_CLIENTS, e, DRM_VRAMPOOL_MAX_DYNAMIC_POOLS, true);
	print_figure("a client with 254 pools (sysfs folders included), per client", b);
	per_pool = b > idle ? (b - idle) / DRM_VRAMPOOL_MAX_DYNAMIC_POOLS : 0;
	print_figure("a pool of it, beyond an idle client", per_pool);
	if (debug_tier())
		return;
	EXPECT_LT(idle, b) TH_LOG("254 pools: %" PRIu64 " bytes, idle: %" PRIu64, b, idle);
	EXPECT_GT(POOL_BOUND, per_pool) TH_LOG("%" PRIu64 " bytes per pool, bound %" PRIu64, per_pool,
					       (uint64_t)POOL_BOUND);
}

TEST_HARNESS_MAIN

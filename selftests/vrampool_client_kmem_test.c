// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel memory a client holds (Documentation/vrampool.rst, "Kernel
 * memory of a client"): the growth of SUnreclaim in /proc/meminfo per open
 * file, averaged over several clients held open at once, for an idle client
 * (open, default layout) and for one with a 254-pool layout (its pools and
 * their sysfs folders). Both are printed; on Debian's kernel both must stay
 * under 256 KiB. The debug kernel's figures are printed only: KASAN's and
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

#define KMEM_BOUND	(256 * KiB)
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

/* Let the kernel settle: deferred frees (RCU, delayed kobject releases). */
static void settle(void)
{
	sleep(1);
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
			   int n, const struct drm_vrampool_pool_entry *entries, uint32_t count)
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
	return after > before ? (after - before) / n : 0;
}

static void check_bound(struct __test_metadata *_metadata, const char *what, uint64_t bytes)
{
	ksft_print_msg("kernel memory of %s: %" PRIu64 " bytes (%.1f KiB) per client%s\n",
		       what, bytes, bytes / 1024.0,
		       debug_tier() ? " (debug kernel: detector metadata included, not bounded)" :
		       "");
	if (!debug_tier())
		EXPECT_GT(KMEM_BOUND, bytes) TH_LOG("%s: %" PRIu64 " bytes", what, bytes);
}

TEST_F_TIMEOUT(kmem, idle_client, 300)
{
	uint64_t b = per_client(_metadata, self, IDLE_CLIENTS, NULL, 0);

	check_bound(_metadata, "an idle client (open, default layout)", b);
}

TEST_F_TIMEOUT(kmem, client_with_254_pools, 600)
{
	static struct drm_vrampool_pool_entry e[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	char path[VP_PATH_LEN];
	uint64_t b, id;
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

	b = per_client(_metadata, self, BIG_CLIENTS, e, DRM_VRAMPOOL_MAX_DYNAMIC_POOLS);
	check_bound(_metadata, "a client with 254 pools (sysfs folders included)", b);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The VRAM quota, under the vram_quota=32 MiB vrampool_quota_test.sh loads
 * the module with, on the first device of each backend, with one direct
 * pool (a buffer is exactly its size: the figures are exact):
 *
 *  - the device's sysfs vram_quota starts at the module parameter, is
 *    0644, and refuses what is not a decimal number (EINVAL) or is past
 *    2^64 - 1 (ERANGE);
 *  - 16 MiB fits; the next 32 MiB fails with EDQUOT and QuotaExceeded
 *    {capacity: the quota, in_use: the VRAM the user holds, size}, in
 *    libvrampool's names and message too, and changes nothing; a client
 *    of another user has a quota of its own (vrampool_users_test has
 *    several files of one user);
 *  - a free cached buffer is given back first (the client's own cleanup)
 *    when it makes room;
 *  - raising the quota lets a refused request through; 0 is no quota;
 *    lowering it below what is held takes nothing away.
 *
 * Not a *_test: it needs the module loaded with vram_quota, which
 * vrampool_quota_test.sh does (and undoes).
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

#define QUOTA		(32 * MiB)
#define OTHER_USER	61010

FIXTURE(quota) {
	int fd, other;
	struct vp_device dev;
	char path[VP_PATH_LEN];
};

VP_BACKEND_VARIANTS(quota);

FIXTURE_SETUP(quota)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	uint64_t param;

	self->other = -1;
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ASSERT_EQ(0, vp_module_param_u64("vram_quota", &param));
	ASSERT_EQ(QUOTA, param) TH_LOG("run through vrampool_quota_test.sh");
	vp_sysfs_dev_path(&self->dev, "vram_quota", self->path, sizeof(self->path));
	vp_write_u64_ok(_metadata, self->path, QUOTA);
	VP_INSTALL_OK(self->fd, &direct, 1, "one direct pool");
	self->other = vp_open_device_as(&self->dev, OTHER_USER);
	ASSERT_LE(0, self->other);
	VP_INSTALL_OK(self->other, &direct, 1, "one direct pool");
}

FIXTURE_TEARDOWN(quota)
{
	vp_write_file(self->path, "33554432");
	if (self->other >= 0)
		close(self->other);
	close(self->fd);
}

static uint64_t held(struct __test_metadata *_metadata, int fd)
{
	uint64_t v = 0;

	EXPECT_EQ(0, vp_fdinfo_size(fd, "drm-total-vram", &v));
	return v;
}

/* ALLOC of @size is refused by quota @quota with @in_use held; nothing changes. */
static void expect_quota(struct __test_metadata *_metadata, int fd, uint64_t size,
			 uint64_t quota, uint64_t in_use)
{
	struct vp_snap before, after;
	struct drm_vrampool_alloc a;
	struct vrampool_error e;
	uint64_t vram = vp_vram_in_use(fd);
	char why[256], msg[512], want[512];
	int ret;

	ASSERT_EQ(0, vp_snap_take(fd, &before));
	ret = vp_alloc(fd, size, 0, &a);
	ASSERT_EQ(-EDQUOT, ret) TH_LOG("ALLOC of %" PRIu64 " past the quota: %s", size,
				       strerror(-ret));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, a.error.code);
	EXPECT_EQ(0u, a.error.pool);
	EXPECT_EQ(size, a.error.size);
	EXPECT_EQ(quota, a.error.capacity);
	EXPECT_EQ(in_use, a.error.in_use);
	EXPECT_EQ(0u, a.handle);
	EXPECT_EQ(0u, a.mmap_offset);

	vrampool_error_from_alloc(&e, EDQUOT, &a.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_QUOTA_EXCEEDED, (int)e.kind);
	EXPECT_STREQ("QuotaExceeded", vrampool_error_kind_name(e.kind));
	vrampool_error_message(&e, msg, sizeof(msg));
	snprintf(want, sizeof(want),
		 "VRAM quota exceeded allocating %" PRIu64 " bytes: the user's files hold %" PRIu64
		 " bytes of VRAM and a new page would pass the device's vram_quota of %" PRIu64
		 " bytes", size, in_use, quota);
	EXPECT_STREQ(want, msg);

	ASSERT_EQ(0, vp_snap_take(fd, &after));
	EXPECT_EQ(0, vp_snap_diff(&before, &after, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(vram, vp_vram_in_use(fd));
	EXPECT_EQ(in_use, held(_metadata, fd));
}

TEST_F(quota, sysfs_file)
{
	struct stat st;
	uint64_t v;

	ASSERT_EQ(0, stat(self->path, &st)) TH_LOG("%s", self->path);
	EXPECT_EQ(0644u, st.st_mode & 0777);
	ASSERT_EQ(0, vp_read_u64_file(self->path, &v));
	EXPECT_EQ(QUOTA, v);
	EXPECT_EQ(-EINVAL, vp_write_file(self->path, "lots"));
	EXPECT_EQ(-EINVAL, vp_write_file(self->path, "-1"));
	EXPECT_EQ(-EINVAL, vp_write_file(self->path, "0x100000"));
	EXPECT_EQ(-ERANGE, vp_write_file(self->path, "18446744073709551616"));
	ASSERT_EQ(0, vp_read_u64_file(self->path, &v));
	EXPECT_EQ(QUOTA, v) TH_LOG("a refused write changes nothing");
	vp_write_u64_ok(_metadata, self->path, 0);
	ASSERT_EQ(0, vp_read_u64_file(self->path, &v));
	EXPECT_EQ(0u, v);
}

TEST_F(quota, exceeded_then_raised)
{
	struct drm_vrampool_alloc a, b, c, d;

	VP_ALLOC_OK(self->fd, 16 * MiB, 0, &a, "16 MiB under a 32 MiB quota");
	expect_quota(_metadata, self->fd, 32 * MiB, QUOTA, 16 * MiB);

	/* Another user's quota is its own (and it then makes room: PCI VRAM is 64 MiB). */
	VP_ALLOC_OK(self->other, 32 * MiB, 0, &b, "another client's 32 MiB");
	expect_quota(_metadata, self->other, 4 * KiB, QUOTA, 32 * MiB);
	VP_FREE_OK(self->other, b.handle, "the other client's 32 MiB");
	ASSERT_EQ(0, vp_cleanup(self->other));

	/* Raised: the refused request goes through. */
	vp_write_u64_ok(_metadata, self->path, 48 * MiB);
	VP_ALLOC_OK(self->fd, 32 * MiB, 0, &c, "32 MiB under 48 MiB");
	EXPECT_EQ(48 * MiB, held(_metadata, self->fd));
	expect_quota(_metadata, self->fd, 4 * KiB, 48 * MiB, 48 * MiB);

	/* Lowered below what is held: nothing is taken, new pages are refused. */
	vp_write_u64_ok(_metadata, self->path, 8 * MiB);
	EXPECT_EQ(48 * MiB, held(_metadata, self->fd));
	expect_quota(_metadata, self->fd, 4 * KiB, 8 * MiB, 48 * MiB);

	/* 0: no quota. */
	vp_write_u64_ok(_metadata, self->path, 0);
	VP_ALLOC_OK(self->fd, 4 * KiB, 0, &d, "4 KiB without a quota");
	EXPECT_EQ(48 * MiB + 4 * KiB, held(_metadata, self->fd));
}

/* A free cached buffer goes back (the client's own cleanup) to make room. */
TEST_F(quota, own_cache_cleaned_first)
{
	struct drm_vrampool_alloc a, b;

	VP_ALLOC_OK(self->fd, 16 * MiB, 0, &a, "16 MiB");
	VP_FREE_OK(self->fd, a.handle, "16 MiB, cached");
	EXPECT_EQ(16 * MiB, held(_metadata, self->fd)) TH_LOG("a free direct buffer stays");
	VP_ALLOC_OK(self->fd, 32 * MiB, 0, &b, "32 MiB: the cached 16 MiB must go first");
	EXPECT_EQ(32 * MiB, held(_metadata, self->fd));
	expect_quota(_metadata, self->fd, 4 * KiB, QUOTA, 32 * MiB);
}

TEST_HARNESS_MAIN

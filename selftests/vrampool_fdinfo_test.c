// SPDX-License-Identifier: GPL-2.0-only
/*
 * fdinfo (/proc/<pid>/fdinfo/<fd> of a vrampool file), on each backend (the
 * first device of each):
 *
 *  - drm-driver is "vrampool", drm-client-id is unique per open file and
 *    names its sysfs clients/ folder, drm-pdev names a PCI device;
 *  - drm-total-vram and drm-resident-vram, exactly as printed, grow by a
 *    page's buffer when an allocation makes a page and come back with a
 *    cleanup, and agree with sysfs and POOL_QUERY;
 *  - drm-purgeable-vram is the VRAM of the pages without a live
 *    allocation (what a cleanup, or another client's reclaim, gives back);
 *    vrampool-reclaimed-bytes and -pages are 0 while nobody reclaims
 *    (vrampool_share_test makes them move).
 *
 * The numbers assume the module defaults (alignment 256, sliced pools
 * allowed): the fixture checks them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT

VP_SYSFS_CLIENT_FIXTURE(fdinfo);

/*
 * drm-driver is "vrampool"; drm-client-id is unique per open file, shared
 * by dup()ed descriptors and by a child's inherited one; the PCI device
 * names its address in drm-pdev.
 */
TEST_F(fdinfo, names_driver_and_client)
{
	uint64_t ids[4], id;
	char buf[VP_VAL_MAX];
	int fds[4], dupfd, i, j, status, ret;
	pid_t pid;

	ASSERT_EQ(0, vp_fdinfo_get(self->c.fd, "drm-driver", buf, sizeof(buf)));
	EXPECT_STREQ("vrampool", buf);
	ret = vp_fdinfo_get(self->c.fd, "drm-pdev", buf, sizeof(buf));
	if (variant->backend == VP_BACKEND_PCI) {
		EXPECT_EQ(0, ret) TH_LOG("drm-pdev: %s", strerror(-ret));
		EXPECT_STREQ(self->c.dev.name, buf);
	} else {
		EXPECT_EQ(-ENOENT, ret) TH_LOG("a platform device has no drm-pdev");
	}

	fds[0] = self->c.fd;
	ids[0] = self->c.id;
	for (i = 1; i < 4; i++) {
		fds[i] = vp_open_device(&self->c.dev);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, vp_client_id(fds[i], &ids[i]));
		for (j = 0; j < i; j++)
			EXPECT_NE(ids[j], ids[i]) TH_LOG("files %d and %d share client id", j, i);
		vp_sysfs_client_path(&self->c.dev, ids[i], buf, sizeof(buf));
		EXPECT_TRUE(vp_exists(buf)) TH_LOG("no folder for file %d", i);
	}
	dupfd = dup(fds[2]);
	ASSERT_LE(0, dupfd);
	ASSERT_EQ(0, vp_client_id(dupfd, &id));
	EXPECT_EQ(ids[2], id) TH_LOG("a dup()ed descriptor is the same file");
	ASSERT_EQ(0, vp_fdinfo_get(dupfd, "drm-driver", buf, sizeof(buf)));
	EXPECT_STREQ("vrampool", buf);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(vp_client_id(fds[3], &id) ? 2 : id == ids[3] ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("the child's inherited descriptor: status %#x", status);
	}

	close(dupfd);
	for (i = 1; i < 4; i++)
		close(fds[i]);
}

/* drm-total-vram, exactly as printed. */
static void expect_fdinfo_vram(struct __test_metadata *_metadata, int fd, const char *printed,
			       uint64_t bytes, const char *when)
{
	char buf[VP_VAL_MAX];
	uint64_t v;

	ASSERT_EQ(0, vp_fdinfo_get(fd, "drm-total-vram", buf, sizeof(buf))) TH_LOG("%s", when);
	EXPECT_STREQ(printed, buf) TH_LOG("%s: drm-total-vram", when);
	ASSERT_EQ(0, vp_parse_fdinfo_size(buf, &v));
	EXPECT_EQ(bytes, v) TH_LOG("%s: drm-total-vram in bytes", when);
	ASSERT_EQ(0, vp_fdinfo_get(fd, "drm-resident-vram", buf, sizeof(buf))) TH_LOG("%s", when);
	EXPECT_STREQ(printed, buf) TH_LOG("%s: drm-resident-vram", when);
}

/* drm-purgeable-vram, exactly as printed, and no reclaim. */
static void expect_purgeable(struct __test_metadata *_metadata, int fd, const char *printed,
			     const char *when)
{
	char buf[VP_VAL_MAX];

	ASSERT_EQ(0, vp_fdinfo_get(fd, "drm-purgeable-vram", buf, sizeof(buf))) TH_LOG("%s", when);
	EXPECT_STREQ(printed, buf) TH_LOG("%s: drm-purgeable-vram", when);
	ASSERT_EQ(0, vp_fdinfo_get(fd, "vrampool-reclaimed-bytes", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf) TH_LOG("%s", when);
	ASSERT_EQ(0, vp_fdinfo_get(fd, "vrampool-reclaimed-pages", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf) TH_LOG("%s", when);
}

/*
 * drm-total-vram grows by the page's buffer size when an allocation makes a
 * page, not when it fits one already there, and goes back with a cleanup.
 */
TEST_F(fdinfo, vram_grows_by_the_page)
{
	struct drm_vrampool_pool_entry e[] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT),
		vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT),
	};
	struct drm_vrampool_alloc a[5];
	char comm[32];

	vp_my_comm(comm, sizeof(comm));
	VP_INSTALL_OK(self->c.fd, e, ARRAY_SIZE(e), "sliced 64 KiB and 1 MiB");
	expect_fdinfo_vram(_metadata, self->c.fd, "0", 0, "no page");
	expect_purgeable(_metadata, self->c.fd, "0", "no page");

	VP_ALLOC_OK(self->c.fd, 100000, 0, &a[0], "100000");
	EXPECT_EQ(1u, a[0].pool);
	expect_fdinfo_vram(_metadata, self->c.fd, "1 MiB", 1 * MiB, "a 1 MiB page");
	VP_ALLOC_OK(self->c.fd, 1000, 0, &a[1], "1000");
	EXPECT_EQ(0u, a[1].pool);
	expect_fdinfo_vram(_metadata, self->c.fd, "1088 KiB", 1088 * KiB, "and a 64 KiB page");
	VP_ALLOC_OK(self->c.fd, 2000, 0, &a[2], "2000");
	VP_ALLOC_OK(self->c.fd, 200000, 0, &a[3], "200000");
	expect_fdinfo_vram(_metadata, self->c.fd, "1088 KiB", 1088 * KiB, "both fit the pages");
	VP_ALLOC_OK(self->c.fd, 3000, PERSISTENT, &a[4], "3000 persistent");
	expect_fdinfo_vram(_metadata, self->c.fd, "1092 KiB", 1092 * KiB,
			   "and a persistent buffer of one CPU page");
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm, "four pages");
	expect_purgeable(_metadata, self->c.fd, "0", "every page live");

	/* The 64 KiB page empties: it alone is purgeable. */
	VP_FREE_OK(self->c.fd, a[1].handle, "1000");
	VP_FREE_OK(self->c.fd, a[2].handle, "2000");
	expect_purgeable(_metadata, self->c.fd, "64 KiB", "the 64 KiB page free");
	VP_FREE_OK(self->c.fd, a[4].handle, "3000 persistent");
	expect_purgeable(_metadata, self->c.fd, "68 KiB", "and the persistent buffer");
	VP_FREE_OK(self->c.fd, a[0].handle, "100000");
	expect_purgeable(_metadata, self->c.fd, "68 KiB", "the 1 MiB page still holds 200000");
	VP_FREE_OK(self->c.fd, a[3].handle, "200000");
	expect_fdinfo_vram(_metadata, self->c.fd, "1092 KiB", 1092 * KiB, "freed, pages kept");
	expect_purgeable(_metadata, self->c.fd, "1092 KiB", "every page free");
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	expect_fdinfo_vram(_metadata, self->c.fd, "0", 0, "after a cleanup");
	expect_purgeable(_metadata, self->c.fd, "0", "after a cleanup");
}

TEST_HARNESS_MAIN

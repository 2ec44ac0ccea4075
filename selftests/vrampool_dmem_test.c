// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmem cgroup controller (DOC: dmem cgroup in driver/vrampool_dmem.c):
 * each device's VRAM is a region, every pool page is charged to the dmem
 * cgroup of the task that made it, dmem.max refuses like a quota and
 * dmem.min and dmem.low protect cached pages from other clients' reclaim.
 *
 *  - region_named (every kernel): each device's sysfs dmem_region reads
 *    "drm/<device>/vram" and a new cgroup's dmem.max and dmem.current list
 *    it ("max", 0), where the kernel has the controller; it reads "none"
 *    where it has not (Debian's kernels), and the tests below skip;
 *  - current_is_exact: a cgroup's dmem.current is the client's
 *    drm-total-vram, live and cached pages alike, 0 once it closes; pages
 *    made after the task left the cgroup are not charged to it;
 *  - max_refuses: under dmem.max = 8 MiB, 1 MiB persistent ALLOCs succeed
 *    until the next page would pass it, then fail with -EDQUOT and
 *    QuotaExceeded naming the cgroup (pool DRM_VRAMPOOL_QUOTA_CGROUP,
 *    capacity and in_use 0), libvrampool's message saying dmem.max; the
 *    same ALLOC on the same file succeeds once the task is back in the
 *    root cgroup;
 *  - reclaim_stays_inside: Y (cgroup B, the idlest) and X (cgroup A,
 *    dmem.max 8 MiB) hold cached pages; Z's ALLOC in A would pass the
 *    limit: it takes X's page and never Y's;
 *  - min_protects, low_protects: VRAM nearly full; X (cgroup A, protected
 *    by dmem.min or dmem.low, the idlest) and Y (cgroup B) hold cached
 *    pages; a request that needs a page takes Y's, not X's. A second
 *    request that only X's cache could serve fails with OutOfMemory under
 *    dmem.min, X's cache intact, and succeeds under dmem.low (the second
 *    walk), taking it.
 *
 * The test moves itself between cgroups (writing 0 to cgroup.procs): a
 * charge stays with the cgroup it was made in, so each client's pages are
 * charged where the test was when it allocated them. cgroup2 is mounted on
 * /sys/fs/cgroup if it is not there.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define CGROOT		"/sys/fs/cgroup"
#define NO_DMEM		"no dmem cgroup controller (kernel without CONFIG_CGROUP_DMEM)"
#define REGION_LEN	160
#define CG_LEN		192

/* ---- helpers ------------------------------------------------------------ */

/* Whether cgroup2 at CGROOT has the dmem controller, mounting it if needed. */
static bool dmem_ready(bool *mounted)
{
	char buf[512], *tok, *save;

	*mounted = false;
	if (access(CGROOT "/cgroup.controllers", R_OK)) {
		if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
			return false;
		*mounted = true;
	}
	if (vp_read_line(CGROOT "/cgroup.controllers", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "dmem"))
			return true;
	}
	if (*mounted)
		umount(CGROOT);
	*mounted = false;
	return false;
}

/* The device's sysfs dmem_region, into @buf (without its newline). */
static int region_of(const struct vp_device *dev, char *buf, size_t len)
{
	char path[VP_PATH_LEN];

	vp_sysfs_dev_path(dev, "dmem_region", path, sizeof(path));
	return vp_read_line(path, buf, len) < 0 ? -1 : 0;
}

/*
 * The value of @region in @cg's dmem file @file ("current", "max", ...):
 * "max" reads UINT64_MAX; a region the file does not list, UINT64_MAX - 1.
 */
static uint64_t dmem_get(const char *cg, const char *file, const char *region)
{
	char path[CG_LEN + 32], buf[4096], *line, *save;
	size_t n = strlen(region);
	uint64_t v;

	snprintf(path, sizeof(path), "%s/dmem.%s", cg, file);
	if (vp_read_file(path, buf, sizeof(buf)) < 0)
		return UINT64_MAX - 1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, region, n) || line[n] != ' ')
			continue;
		if (!strcmp(line + n + 1, "max"))
			return UINT64_MAX;
		return vp_parse_u64(line + n + 1, &v) ? UINT64_MAX - 1 : v;
	}
	return UINT64_MAX - 1;
}

static int dmem_set(const char *cg, const char *file, const char *region, uint64_t v)
{
	char path[CG_LEN + 32], line[REGION_LEN + 32];

	snprintf(path, sizeof(path), "%s/dmem.%s", cg, file);
	snprintf(line, sizeof(line), "%s %" PRIu64, region, v);
	return vp_write_file(path, line);
}

/* Moves the calling process into @cg. */
static int join(const char *cg)
{
	char path[CG_LEN + 32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	return vp_write_file(path, "0");
}

/* A client's fdinfo figures. */
struct usage {
	uint64_t total;		/* drm-total-vram */
	uint64_t purgeable;	/* drm-purgeable-vram */
	uint64_t reclaimed;	/* vrampool-reclaimed-bytes */
};

static int usage_read(int fd, struct usage *u)
{
	char buf[VP_VAL_MAX];
	int ret;

	ret = vp_fdinfo_size(fd, "drm-total-vram", &u->total);
	if (!ret)
		ret = vp_fdinfo_size(fd, "drm-purgeable-vram", &u->purgeable);
	if (!ret)
		ret = vp_fdinfo_get(fd, "vrampool-reclaimed-bytes", buf, sizeof(buf));
	return ret ? ret : vp_parse_u64(buf, &u->reclaimed);
}

#define USAGE(fd, u) ASSERT_EQ(0, usage_read(fd, u)) TH_LOG("fdinfo of fd %d", fd)

/* ---- the region, on every kernel ---------------------------------------- */

/* A TEST() without a fixture leaves the harness's variant parameter unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
TEST(region_named)
{
	struct vp_device devs[VP_MAX_DEVICES];
	char region[REGION_LEN], want[REGION_LEN], cg[CG_LEN];
	bool mounted, dmem = dmem_ready(&mounted);
	int n, i;

	n = vp_enumerate(devs, VP_MAX_DEVICES);
	ASSERT_LT(0, n) TH_LOG("no vrampool device");
	snprintf(cg, sizeof(cg), CGROOT "/vrampool_dmem_test.%d", (int)getpid());
	if (dmem) {
		ASSERT_EQ(0, vp_write_file(CGROOT "/cgroup.subtree_control", "+dmem"));
		ASSERT_EQ(0, mkdir(cg, 0755)) TH_LOG("mkdir %s: %s", cg, strerror(errno));
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, region_of(&devs[i], region, sizeof(region)));
		if (!dmem) {
			EXPECT_STREQ("none", region) TH_LOG("%s without the controller", devs[i].name);
			continue;
		}
		snprintf(want, sizeof(want), "drm/%s/vram", devs[i].name);
		EXPECT_STREQ(want, region);
		/* A new cgroup lists every region: no limit, nothing charged. */
		EXPECT_EQ(UINT64_MAX, dmem_get(cg, "max", want)) TH_LOG("%s: dmem.max", want);
		EXPECT_EQ(0u, dmem_get(cg, "current", want)) TH_LOG("%s: dmem.current", want);
		ksft_print_msg("%s: region %s\n", devs[i].name, region);
	}
	if (dmem)
		EXPECT_EQ(0, rmdir(cg)) TH_LOG("rmdir %s: %s", cg, strerror(errno));
	if (mounted)
		umount(CGROOT);
}
#pragma GCC diagnostic pop

/* ---- two cgroups -------------------------------------------------------- */

FIXTURE(dmem) {
	struct vp_device dev;
	char region[REGION_LEN];
	char a[CG_LEN], b[CG_LEN];	/* the cgroups */
	uint64_t vram;
	bool mounted, made;
};

VP_BACKEND_VARIANTS(dmem);

FIXTURE_SETUP(dmem)
{
	int fd;

	if (!dmem_ready(&self->mounted))
		SKIP(return, NO_DMEM);
	ASSERT_EQ(0, vp_find_backend(variant->backend, &self->dev));
	ASSERT_EQ(0, region_of(&self->dev, self->region, sizeof(self->region)));
	ASSERT_STRNE("none", self->region) TH_LOG("the controller is there, the region is not");
	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram));
	close(fd);

	ASSERT_EQ(0, vp_write_file(CGROOT "/cgroup.subtree_control", "+dmem"));
	snprintf(self->a, sizeof(self->a), CGROOT "/vrampool_dmem_test.%d.a", (int)getpid());
	snprintf(self->b, sizeof(self->b), CGROOT "/vrampool_dmem_test.%d.b", (int)getpid());
	ASSERT_EQ(0, mkdir(self->a, 0755)) TH_LOG("mkdir %s: %s", self->a, strerror(errno));
	ASSERT_EQ(0, mkdir(self->b, 0755)) TH_LOG("mkdir %s: %s", self->b, strerror(errno));
	self->made = true;
}

FIXTURE_TEARDOWN(dmem)
{
	(void)variant;
	if (self->made) {
		EXPECT_EQ(0, join(CGROOT));
		EXPECT_EQ(0, rmdir(self->a)) TH_LOG("rmdir %s: %s", self->a, strerror(errno));
		EXPECT_EQ(0, rmdir(self->b)) TH_LOG("rmdir %s: %s", self->b, strerror(errno));
	}
	if (self->mounted)
		umount(CGROOT);
}

TEST_F(dmem, current_is_exact)
{
	struct drm_vrampool_alloc a1, a2, r;
	struct usage u;
	int fd;

	ASSERT_EQ(0, join(self->a));
	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0u, dmem_get(self->a, "current", self->region));
	VP_ALLOC_OK(fd, 3 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a1, "a live buffer");
	VP_ALLOC_OK(fd, 5 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a2, "a buffer to cache");
	VP_ALLOC_OK(fd, 64 * KiB, 0, &r, "a slice of the default layout");
	VP_FREE_OK(fd, a2.handle, "the buffer, cached");
	USAGE(fd, &u);
	EXPECT_LE(8 * MiB, u.total);
	EXPECT_EQ(5 * MiB, u.purgeable);
	EXPECT_EQ(u.total, dmem_get(self->a, "current", self->region));
	EXPECT_EQ(0u, dmem_get(self->b, "current", self->region));
	ksft_print_msg("dmem.current %" PRIu64 ", drm-total-vram %" PRIu64 "\n",
		       dmem_get(self->a, "current", self->region), u.total);

	/* Out of the cgroup, new pages are charged elsewhere; the old stay. */
	ASSERT_EQ(0, join(self->b));
	VP_ALLOC_OK(fd, 2 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a2, "a buffer made in B");
	EXPECT_EQ(u.total, dmem_get(self->a, "current", self->region));
	EXPECT_EQ(2 * MiB, dmem_get(self->b, "current", self->region));
	close(fd);
	EXPECT_EQ(0u, dmem_get(self->a, "current", self->region));
	EXPECT_EQ(0u, dmem_get(self->b, "current", self->region));
}

TEST_F(dmem, max_refuses)
{
	struct drm_vrampool_alloc a;
	struct vrampool_error err;
	char msg[512];
	uint64_t cur;
	int fd, n = 0, ret;

	ASSERT_LE(32 * MiB, self->vram);
	ASSERT_EQ(0, dmem_set(self->a, "max", self->region, 8 * MiB));
	EXPECT_EQ(8 * MiB, dmem_get(self->a, "max", self->region));
	ASSERT_EQ(0, join(self->a));
	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	for (;;) {
		ret = vp_alloc(fd, MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a);
		if (ret)
			break;
		ASSERT_GT(64, ++n) TH_LOG("dmem.max never refused");
	}
	cur = dmem_get(self->a, "current", self->region);
	ksft_print_msg("%d ALLOCs of 1 MiB under dmem.max 8 MiB; dmem.current %" PRIu64 "\n",
		       n, cur);
	EXPECT_EQ(-EDQUOT, ret);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, a.error.code);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_QUOTA_CGROUP, a.error.pool);
	EXPECT_EQ(MiB, a.error.size);
	EXPECT_EQ(0u, a.error.capacity);
	EXPECT_EQ(0u, a.error.in_use);
	EXPECT_LT(0, n);
	EXPECT_LE(cur, 8 * MiB);
	EXPECT_GT(cur + MiB, 8 * MiB) TH_LOG("refused with room left under dmem.max");
	EXPECT_GE(self->vram - vp_vram_in_use(fd), 8 * MiB) TH_LOG("VRAM itself was full");

	vrampool_error_from_alloc(&err, -ret, &a.error);
	EXPECT_EQ((int)VRAMPOOL_ERR_QUOTA_EXCEEDED, (int)err.kind);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_QUOTA_CGROUP, err.limit);
	vrampool_error_message(&err, msg, sizeof(msg));
	EXPECT_NE(NULL, strstr(msg, "dmem.max")) TH_LOG("message: %s", msg);

	/* The limit is the task's cgroup's, not the file's. */
	ASSERT_EQ(0, join(CGROOT));
	VP_ALLOC_OK(fd, MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "the same ALLOC outside A");
	EXPECT_EQ(cur, dmem_get(self->a, "current", self->region));
	close(fd);
}

TEST_F(dmem, reclaim_stays_inside)
{
	struct drm_vrampool_alloc a;
	struct usage ux, uy;
	int x, y, z;

	ASSERT_EQ(0, dmem_set(self->a, "max", self->region, 8 * MiB));
	/* Y, in B, the idlest: an unfiltered walk would visit it first. */
	ASSERT_EQ(0, join(self->b));
	y = vp_open_device(&self->dev);
	ASSERT_LE(0, y);
	VP_ALLOC_OK(y, 4 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "Y's buffer");
	VP_FREE_OK(y, a.handle, "Y's buffer, cached");
	ASSERT_EQ(0, join(self->a));
	x = vp_open_device(&self->dev);
	ASSERT_LE(0, x);
	VP_ALLOC_OK(x, 6 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "X's buffer");
	VP_FREE_OK(x, a.handle, "X's buffer, cached");
	EXPECT_EQ(6 * MiB, dmem_get(self->a, "current", self->region));

	z = vp_open_device(&self->dev);
	ASSERT_LE(0, z);
	VP_ALLOC_OK(z, 4 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "Z's ALLOC past dmem.max");
	USAGE(x, &ux);
	USAGE(y, &uy);
	EXPECT_EQ(6 * MiB, ux.reclaimed) TH_LOG("X, inside A, gave its page");
	EXPECT_EQ(0u, ux.total);
	EXPECT_EQ(0u, uy.reclaimed) TH_LOG("Y, outside A, lost its cache");
	EXPECT_EQ(4 * MiB, uy.purgeable);
	EXPECT_EQ(4 * MiB, dmem_get(self->a, "current", self->region));
	EXPECT_EQ(4 * MiB, dmem_get(self->b, "current", self->region));
	close(z);
	close(x);
	close(y);
}

/*
 * X (in A, protected with dmem.@knob = VRAM) then Y (in B) cache 8 MiB
 * each; the root cgroup's filler leaves less than 4 MiB of VRAM free; a
 * 6 MiB request takes Y's page, never X's. Then a second one, which only
 * X's cache can serve: *@second gets its ALLOC's result.
 */
static void protect_case(struct __test_metadata *_metadata, FIXTURE_DATA(dmem) *self,
			 const char *knob, int *second, struct drm_vrampool_alloc *sa,
			 int fds[4])
{
	struct drm_vrampool_alloc a;
	struct usage ux, uy;
	uint64_t left;
	int i;

	ASSERT_EQ(0, dmem_set(self->a, knob, self->region, self->vram));
	ASSERT_EQ(0, join(self->a));
	fds[0] = vp_open_device(&self->dev);
	ASSERT_LE(0, fds[0]);
	VP_ALLOC_OK(fds[0], 8 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "X's buffer");
	VP_FREE_OK(fds[0], a.handle, "X's buffer, cached");
	ASSERT_EQ(0, join(self->b));
	fds[1] = vp_open_device(&self->dev);
	ASSERT_LE(0, fds[1]);
	VP_ALLOC_OK(fds[1], 8 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "Y's buffer");
	VP_FREE_OK(fds[1], a.handle, "Y's buffer, cached");

	/* The filler's live buffers, in the root cgroup. */
	ASSERT_EQ(0, join(CGROOT));
	fds[2] = vp_open_device(&self->dev);
	ASSERT_LE(0, fds[2]);
	for (i = 0; (left = self->vram - vp_vram_in_use(fds[2])) >= 4 * MiB; i++) {
		uint64_t chunk = left - 2 * MiB;

		if (chunk > 16 * MiB)
			chunk = 16 * MiB;
		VP_ALLOC_OK(fds[2], chunk, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "the filler");
		ASSERT_GT(4096, i);
	}

	fds[3] = vp_open_device(&self->dev);
	ASSERT_LE(0, fds[3]);
	VP_ALLOC_OK(fds[3], 6 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "the first request");
	USAGE(fds[0], &ux);
	USAGE(fds[1], &uy);
	EXPECT_EQ(0u, ux.reclaimed) TH_LOG("X, protected by dmem.%s, lost its cache", knob);
	EXPECT_EQ(8 * MiB, ux.purgeable);
	EXPECT_EQ(8 * MiB, uy.reclaimed) TH_LOG("Y, unprotected, gave its page");
	ksft_print_msg("dmem.%s: free VRAM %" PRIu64 " KiB before; X kept %" PRIu64
		       " KiB, Y gave %" PRIu64 " KiB\n", knob, (uint64_t)(left / KiB),
		       (uint64_t)(ux.purgeable / KiB), (uint64_t)(uy.reclaimed / KiB));

	/* Now only X's cache could make room. */
	left = self->vram - vp_vram_in_use(fds[3]);
	*second = vp_alloc(fds[3], left + 2 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, sa);
}

TEST_F(dmem, min_protects)
{
	struct drm_vrampool_alloc a;
	struct usage ux;
	int fds[4] = { -1, -1, -1, -1 }, ret = 0, i;

	protect_case(_metadata, self, "min", &ret, &a, fds);
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, a.error.code);
	USAGE(fds[0], &ux);
	EXPECT_EQ(0u, ux.reclaimed) TH_LOG("dmem.min did not keep X's cache");
	EXPECT_EQ(8 * MiB, ux.purgeable);
	for (i = 0; i < 4; i++)
		close(fds[i]);
}

TEST_F(dmem, low_protects)
{
	struct drm_vrampool_alloc a;
	struct usage ux;
	int fds[4] = { -1, -1, -1, -1 }, ret = -1, i;

	protect_case(_metadata, self, "low", &ret, &a, fds);
	EXPECT_EQ(0, ret) TH_LOG("dmem.low kept X's cache from the second walk (code %u)",
				 a.error.code);
	USAGE(fds[0], &ux);
	EXPECT_EQ(8 * MiB, ux.reclaimed) TH_LOG("the second walk did not take X's page");
	for (i = 0; i < 4; i++)
		close(fds[i]);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tenants are users, not open files (DOC: tenants, in
 * driver/vrampool_tenant.c), on the first device of each backend, with the
 * device's vram_quota set to a quarter of its VRAM (and put back after).
 * Files are opened with a test user as their real uid
 * (vp_open_device_as()), all with one direct pool, whose buffers are
 * exactly their size:
 *
 *  - one quota for four files: three files of a user fill its quota, the
 *    fourth's 4 KiB is refused with QuotaExceeded {the quota, the user's
 *    VRAM}; a second user has a quota of its own; a buffer one file of the
 *    user frees stays cached and charged, and another file's request is
 *    served by reclaiming it (that file's reclaimed counter says so),
 *    never from the other user, whose reclaimed counters stay 0;
 *  - users/<uid>/: there while the user has a file open, the user's own
 *    (its files owned by it, 0400), its vram, allocations,
 *    pages and files exact and equal to every file's vrampool-user-*
 *    fdinfo lines; readable by the user, refused (EACCES) to another
 *    unprivileged user; gone after the user's last close; a client's
 *    clients/<id>/uid names its user; users/ and clients/ are mode 0711:
 *    root lists them, another user only passes through (EACCES on
 *    listing, its own folder still reached by name);
 *  - reclaim between users: what one user's cache lost to another's
 *    request is that user's reclaimed and the other's reclaim_taken;
 *  - the quota's remaining budget: a page that would pass the quota by
 *    more than the user's other files cache fails with QuotaExceeded at
 *    once and their caches stay; one they can make room for takes them;
 *  - racing files: eight processes, each with its own file of one user,
 *    allocate until refused: together they hold exactly the quota, never
 *    more.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define USER_A		61001
#define USER_B		61002
#define USER_C		61003
#define USER_D		61004
#define NFILES		4
#define RACERS		8
#define RACE_SIZE	(64 * KiB)

FIXTURE(users) {
	int fd;
	struct vp_device dev;
	char quota_path[VP_PATH_LEN];
	uint64_t quota_start, quota;
};

VP_BACKEND_VARIANTS(users);

FIXTURE_SETUP(users)
{
	struct vp_props props;

	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ASSERT_EQ(0, vp_read_props(self->fd, &props));
	vp_sysfs_dev_path(&self->dev, "vram_quota", self->quota_path, sizeof(self->quota_path));
	ASSERT_EQ(0, vp_read_u64_file(self->quota_path, &self->quota_start));
	/* A multiple of RACE_SIZE: the racers fill it exactly. */
	self->quota = props.vram_size / 4 / RACE_SIZE * RACE_SIZE;
	vp_write_u64_ok(_metadata, self->quota_path, self->quota);
}

FIXTURE_TEARDOWN(users)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, self->quota_start);
	vp_write_file(self->quota_path, buf);
	close(self->fd);
}

/* A file of @uid with one direct pool. */
static int open_as(struct __test_metadata *_metadata, const struct vp_device *dev, uid_t uid)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	int fd = vp_open_device_as(dev, uid);

	if (fd < 0)
		return fd;
	VP_INSTALL_OK(fd, &direct, 1, "one direct pool");
	return fd;
}

static uint64_t fdinfo_u64(int fd, const char *key)
{
	uint64_t v;

	return vp_fdinfo_size(fd, key, &v) ? UINT64_MAX : v;
}

static void user_path(const struct vp_device *dev, uid_t uid, const char *file, char *buf,
		      size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), "users/%u%s%s", (unsigned int)uid, *file ? "/" : "", file);
	vp_sysfs_dev_path(dev, name, buf, len);
}

/* ALLOC of @size refused by the user's quota, with the user's VRAM in use. */
static void expect_quota(struct __test_metadata *_metadata, int fd, uint64_t size,
			 uint64_t quota, uint64_t in_use)
{
	struct drm_vrampool_alloc a;
	int ret = vp_alloc(fd, size, 0, &a);

	ASSERT_EQ(-EDQUOT, ret) TH_LOG("ALLOC of %" PRIu64 ": %s", size, strerror(-ret));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, a.error.code);
	EXPECT_EQ(quota, a.error.capacity);
	EXPECT_EQ(in_use, a.error.in_use);
	EXPECT_EQ(0u, a.handle);
}

TEST_F(users, one_quota_for_four_files)
{
	struct drm_vrampool_alloc a[NFILES], b;
	uint64_t q = self->quota;
	int f[NFILES], g, i;

	for (i = 0; i < NFILES; i++) {
		f[i] = open_as(_metadata, &self->dev, USER_A);
		ASSERT_LE(0, f[i]) TH_LOG("open as %d: %s", USER_A, strerror(-f[i]));
	}
	g = open_as(_metadata, &self->dev, USER_B);
	ASSERT_LE(0, g);

	VP_ALLOC_OK(f[0], q / 2, 0, &a[0], "half the quota, file 0");
	VP_ALLOC_OK(f[1], q / 4, 0, &a[1], "a quarter, file 1");
	VP_ALLOC_OK(f[2], q / 4, 0, &a[2], "a quarter, file 2");
	expect_quota(_metadata, f[3], 4 * KiB, q, q);
	EXPECT_EQ(q, vp_sysfs_user_u64(&self->dev, USER_A, "vram"));
	for (i = 0; i < NFILES; i++)
		EXPECT_EQ(q, fdinfo_u64(f[i], "vrampool-user-vram")) TH_LOG("file %d", i);

	/* Another user: a quota of its own. */
	VP_ALLOC_OK(g, q, 0, &b, "the whole quota, another user");
	expect_quota(_metadata, g, 4 * KiB, q, q);

	/* A freed buffer stays cached and charged; another file of the user takes it. */
	VP_FREE_OK(f[1], a[1].handle, "file 1's quarter, cached");
	EXPECT_EQ(q, vp_sysfs_user_u64(&self->dev, USER_A, "vram"));
	EXPECT_EQ(q / 4, fdinfo_u64(f[1], "drm-total-vram"));
	VP_ALLOC_OK(f[3], q / 4, 0, &a[3], "file 3's quarter, from file 1's cache");
	EXPECT_EQ(0u, fdinfo_u64(f[1], "drm-total-vram"));
	EXPECT_EQ(q / 4, fdinfo_u64(f[1], "vrampool-reclaimed-bytes"));
	EXPECT_EQ(q, vp_sysfs_user_u64(&self->dev, USER_A, "vram"));
	EXPECT_EQ(3u, vp_sysfs_user_u64(&self->dev, USER_A, "allocations"));
	EXPECT_EQ(3u, vp_sysfs_user_u64(&self->dev, USER_A, "pages"));
	EXPECT_EQ((uint64_t)NFILES, vp_sysfs_user_u64(&self->dev, USER_A, "files"));
	/* A user's own files are not "other users": its reclaimed stays 0. */
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_A, "reclaimed"));
	EXPECT_EQ(q, fdinfo_u64(g, "drm-total-vram"));
	EXPECT_EQ(0u, fdinfo_u64(g, "vrampool-reclaimed-bytes"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_B, "reclaimed"));

	/* Root, the fixture's file, is a third user with its own quota. */
	VP_ALLOC_OK(self->fd, 4 * KiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &b, "root's 4 KiB");
	VP_FREE_OK(self->fd, b.handle, "root's 4 KiB");
	ASSERT_EQ(0, vp_cleanup(self->fd));

	for (i = 0; i < NFILES; i++)
		close(f[i]);
	close(g);
}

/*
 * The quota's remaining budget: a page that would take the user past its
 * quota by more than its other files' caches hold fails with
 * QuotaExceeded at once, and those caches stay; one that they can make
 * room for takes from them.
 */
TEST_F(users, quota_budget_spares_the_caches)
{
	struct drm_vrampool_alloc a[3];
	uint64_t q = self->quota;
	int f[4], i;

	for (i = 0; i < 4; i++) {
		f[i] = open_as(_metadata, &self->dev, USER_D);
		ASSERT_LE(0, f[i]) TH_LOG("open as %d: %s", USER_D, strerror(-f[i]));
	}
	VP_ALLOC_OK(f[0], q / 4, 0, &a[0], "a quarter, live");
	VP_ALLOC_OK(f[1], q / 4, 0, &a[1], "a quarter, to be cached");
	VP_ALLOC_OK(f[2], q / 4, 0, &a[2], "a quarter, live");
	VP_FREE_OK(f[1], a[1].handle, "file 1's quarter, cached");

	/* A quarter beyond the quota and 4 KiB: the cache holds a quarter. */
	expect_quota(_metadata, f[3], q / 2 + 4 * KiB, q, 3 * q / 4);
	EXPECT_EQ(q / 4, fdinfo_u64(f[1], "drm-purgeable-vram")) TH_LOG("file 1's cache stays");
	EXPECT_EQ(0u, fdinfo_u64(f[1], "vrampool-reclaimed-bytes"));

	VP_ALLOC_OK(f[3], q / 2, 0, &a[1], "half: file 1's cache makes room");
	EXPECT_EQ(q / 4, fdinfo_u64(f[1], "vrampool-reclaimed-bytes"));
	EXPECT_EQ(q, vp_sysfs_user_u64(&self->dev, USER_D, "vram"));
	for (i = 0; i < 4; i++)
		close(f[i]);
}

/* Bits of the reader child's exit status. */
enum {
	READER_SETID = 1,	/* could not become the user */
	READER_OWN = 2,		/* could not read its own folder */
	READER_OTHER = 4,	/* read another user's folder */
	READER_ERRNO = 8,	/* refused, but not with EACCES */
	READER_LISTED = 16,	/* listed users/ or clients/ */
};

/* Whether listing @dir is refused with EACCES. */
static bool unlisted(const char *dir)
{
	DIR *d = opendir(dir);

	if (d)
		closedir(d);
	return !d && errno == EACCES;
}

/* As @uid alone: its own users/ folder is readable, @other's is not. */
static int __attribute__((noreturn)) reader_child(const struct vp_device *dev, uid_t uid,
						  uid_t other, uint64_t want)
{
	char path[VP_PATH_LEN];
	uint64_t v;
	int bad = 0, ret;

	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		_exit(READER_SETID);
	user_path(dev, uid, "vram", path, sizeof(path));
	if (vp_read_u64_file(path, &v) || v != want)
		bad |= READER_OWN;
	user_path(dev, other, "vram", path, sizeof(path));
	ret = vp_read_u64_file(path, &v);
	if (!ret)
		bad |= READER_OTHER;
	else if (ret != -EACCES)
		bad |= READER_ERRNO;
	vp_sysfs_dev_path(dev, "users", path, sizeof(path));
	if (!unlisted(path))
		bad |= READER_LISTED;
	vp_sysfs_dev_path(dev, "clients", path, sizeof(path));
	if (!unlisted(path))
		bad |= READER_LISTED;
	_exit(bad);
}

TEST_F(users, user_folder)
{
	static const char *const files[] = {
		"vram", "allocations", "pages", "files", "reclaimed", "reclaimed_pages",
		"reclaim_taken",
	};
	struct drm_vrampool_alloc a, b, c;
	char path[VP_PATH_LEN];
	struct stat st;
	uint64_t id;
	int f1, f2, d, status;
	size_t i;
	pid_t pid;

	f1 = open_as(_metadata, &self->dev, USER_C);
	ASSERT_LE(0, f1);
	f2 = open_as(_metadata, &self->dev, USER_C);
	ASSERT_LE(0, f2);
	d = open_as(_metadata, &self->dev, USER_D);
	ASSERT_LE(0, d);

	user_path(&self->dev, USER_C, "", path, sizeof(path));
	ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		user_path(&self->dev, USER_C, files[i], path, sizeof(path));
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_EQ(0400u, st.st_mode & 0777) TH_LOG("%s", path);
		EXPECT_EQ((uid_t)USER_C, st.st_uid) TH_LOG("%s", path);
	}

	ASSERT_EQ(0, vp_client_id(f1, &id));
	vp_sysfs_client_path(&self->dev, id, path, sizeof(path));
	strncat(path, "/uid", sizeof(path) - strlen(path) - 1);
	ASSERT_EQ(0, vp_read_u64_file(path, &id)) TH_LOG("%s", path);
	EXPECT_EQ((uint64_t)USER_C, id) TH_LOG("the client's uid file");

	VP_ALLOC_OK(f1, 1 * MiB, 0, &a, "1 MiB, file 1");
	VP_ALLOC_OK(f2, 2 * MiB, 0, &b, "2 MiB, file 2");
	VP_ALLOC_OK(f2, 0, 0, &c, "a zero-size allocation, file 2");
	EXPECT_EQ(3 * MiB, vp_sysfs_user_u64(&self->dev, USER_C, "vram"));
	EXPECT_EQ(3u, vp_sysfs_user_u64(&self->dev, USER_C, "allocations"));
	EXPECT_EQ(2u, vp_sysfs_user_u64(&self->dev, USER_C, "pages"));
	EXPECT_EQ(2u, vp_sysfs_user_u64(&self->dev, USER_C, "files"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_C, "reclaimed"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_C, "reclaimed_pages"));
	EXPECT_EQ(3 * MiB, fdinfo_u64(f1, "vrampool-user-vram"));
	EXPECT_EQ(3u, fdinfo_u64(f1, "vrampool-user-allocations"));
	EXPECT_EQ(2u, fdinfo_u64(f2, "vrampool-user-pages"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_D, "vram"));
	EXPECT_EQ(1u, vp_sysfs_user_u64(&self->dev, USER_D, "files"));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		reader_child(&self->dev, USER_D, USER_C, 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("as uid %d:%s%s%s%s%s", USER_D,
		       WEXITSTATUS(status) & READER_SETID ? " could not drop to it" : "",
		       WEXITSTATUS(status) & READER_OWN ? " could not read its own folder" : "",
		       WEXITSTATUS(status) & READER_OTHER ? " read another user's" : "",
		       WEXITSTATUS(status) & READER_ERRNO ? " refused without EACCES" : "",
		       WEXITSTATUS(status) & READER_LISTED ? " listed users/ or clients/" : "");
	}
	for (i = 0; i < 2; i++) {
		vp_sysfs_dev_path(&self->dev, i ? "clients" : "users", path, sizeof(path));
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_EQ(0711u, st.st_mode & 0777) TH_LOG("%s", path);
		EXPECT_FALSE(unlisted(path)) TH_LOG("root cannot list %s", path);
	}

	/* The sums follow every FREE and close, a close with live allocations too. */
	VP_FREE_OK(f2, c.handle, "the zero-size allocation");
	EXPECT_EQ(3 * MiB, vp_sysfs_user_u64(&self->dev, USER_C, "vram"));
	EXPECT_EQ(2u, vp_sysfs_user_u64(&self->dev, USER_C, "allocations"));
	close(f2);
	EXPECT_EQ(1u, vp_sysfs_user_u64(&self->dev, USER_C, "allocations"));
	EXPECT_EQ(1 * MiB, vp_sysfs_user_u64(&self->dev, USER_C, "vram"));
	EXPECT_EQ(1u, vp_sysfs_user_u64(&self->dev, USER_C, "pages"));
	EXPECT_EQ(1u, vp_sysfs_user_u64(&self->dev, USER_C, "files"));
	close(f1);
	user_path(&self->dev, USER_C, "", path, sizeof(path));
	EXPECT_NE(0, stat(path, &st)) TH_LOG("%s outlives the user's last file", path);
	EXPECT_EQ(ENOENT, errno);
	close(d);
}

/*
 * Reclaim between users is counted on both sides: what user A's cache lost
 * (users/A/reclaimed) is what user B's request took (users/B/reclaim_taken).
 */
TEST_F(users, reclaim_between_users_counted)
{
	struct drm_vrampool_alloc a[256], b;
	uint64_t held, lost;
	int fa, fb, n = 0, ret;

	vp_write_u64_ok(_metadata, self->quota_path, 0);
	fa = open_as(_metadata, &self->dev, USER_A);
	ASSERT_LE(0, fa);
	fb = open_as(_metadata, &self->dev, USER_B);
	ASSERT_LE(0, fb);
	for (;;) {
		ASSERT_LT(n, 256);
		ret = vp_alloc(fa, 4 * MiB, 0, &a[n]);
		if (ret)
			break;
		n++;
	}
	ASSERT_EQ(-ENOSPC, ret);
	ASSERT_LE(4, n);
	while (n)
		VP_FREE_OK(fa, a[--n].handle, "A's buffers, cached");
	held = fdinfo_u64(fa, "drm-total-vram");
	EXPECT_EQ(held, vp_sysfs_user_u64(&self->dev, USER_A, "vram"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_A, "reclaimed"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_B, "reclaim_taken"));

	VP_ALLOC_OK(fb, 16 * MiB, 0, &b, "B's 16 MiB, from A's cache");
	lost = held - fdinfo_u64(fa, "drm-total-vram");
	EXPECT_LE(16 * MiB, lost);
	EXPECT_EQ(lost, fdinfo_u64(fa, "vrampool-reclaimed-bytes"));
	EXPECT_EQ(lost, vp_sysfs_user_u64(&self->dev, USER_A, "reclaimed"));
	EXPECT_EQ(lost / (4 * MiB), vp_sysfs_user_u64(&self->dev, USER_A, "reclaimed_pages"));
	EXPECT_EQ(lost, vp_sysfs_user_u64(&self->dev, USER_B, "reclaim_taken"));
	EXPECT_EQ(0u, vp_sysfs_user_u64(&self->dev, USER_A, "reclaim_taken"));
	close(fa);
	close(fb);
}

/* Allocates @size until refused; exits 0 if the refusal was the quota's. */
static int __attribute__((noreturn)) racer(int fd)
{
	struct drm_vrampool_alloc a;
	int ret;

	do {
		ret = vp_alloc(fd, RACE_SIZE, 0, &a);
	} while (!ret);
	_exit(ret == -EDQUOT && a.error.code == DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED ? 0 : 1);
}

TEST_F(users, racing_files_hold_the_quota_exactly)
{
	uint64_t total = 0, v;
	int fds[RACERS], i, status;
	pid_t pids[RACERS];

	for (i = 0; i < RACERS; i++) {
		fds[i] = open_as(_metadata, &self->dev, USER_C);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < RACERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0)
			racer(fds[i]);
	}
	for (i = 0; i < RACERS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("racer %d did not end on QuotaExceeded", i);
	}
	for (i = 0; i < RACERS; i++) {
		v = fdinfo_u64(fds[i], "drm-total-vram");
		ASSERT_NE(UINT64_MAX, v);
		total += v;
	}
	EXPECT_EQ(self->quota, total);
	EXPECT_EQ(self->quota, vp_sysfs_user_u64(&self->dev, USER_C, "vram"));
	EXPECT_EQ(self->quota / RACE_SIZE, vp_sysfs_user_u64(&self->dev, USER_C, "allocations"));
	for (i = 0; i < RACERS; i++)
		close(fds[i]);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Private per-client views, public device totals, on each backend:
 *
 *  - an unprivileged process (uid and gid 65534, no capabilities) cannot
 *    read any file of another client's sysfs folder (pid, comm, vram, its
 *    pools' files: EACCES), and reads the device's totals (vram_size,
 *    vram_in_use, client_count) with the values root reads;
 *  - root reads the client's pid and comm; a process in another pid
 *    namespace, which does not see the client's process, reads pid 0 and
 *    an empty comm.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define NOBODY		65534

FIXTURE(priv) {
	int fd;
	struct vp_device dev;
	char cdir[VP_DIR_LEN];
};

VP_BACKEND_VARIANTS(priv);

FIXTURE_SETUP(priv)
{
	struct drm_vrampool_alloc a;
	uint64_t id = 0;
	int ret;

	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ret = vp_client_id(self->fd, &id);
	ASSERT_EQ(0, ret) TH_LOG("drm-client-id: %s", strerror(-ret));
	vp_sysfs_client_path(&self->dev, id, self->cdir, sizeof(self->cdir));
	/* Something to hide: a live allocation, VRAM held. */
	VP_ALLOC_OK(self->fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "a buffer");
}

FIXTURE_TEARDOWN(priv)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Bits of a child's exit status: what went wrong there. */
enum {
	CHILD_SETID = 1,	/* could not become nobody */
	CHILD_READ_CLIENT = 2,	/* read a client file */
	CHILD_WRONG_ERRNO = 4,	/* refused, but not with EACCES */
	CHILD_TOTALS = 8,	/* could not read a device total, or another value */
};

static const char *const client_files[] = {
	"pid", "comm", "generation", "persistent_mode", "vram", "pools/255",
};

static const char *const totals[] = { "vram_size", "vram_in_use", "client_count" };

/* As nobody: every client file refused with EACCES, the totals as root saw them. */
static int __attribute__((noreturn)) nobody_child(const char *cdir, const struct vp_device *dev,
						  const uint64_t *want)
{
	char path[VP_FILE_LEN];
	int bad = 0;
	size_t i;
	int fd;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		_exit(CHILD_SETID);
	for (i = 0; i < sizeof(client_files) / sizeof(client_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", cdir, client_files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			bad |= CHILD_READ_CLIENT;
			close(fd);
		} else if (errno != EACCES) {
			bad |= CHILD_WRONG_ERRNO;
		}
	}
	for (i = 0; i < sizeof(totals) / sizeof(totals[0]); i++) {
		if (vp_sysfs_dev_u64(dev, totals[i]) != want[i])
			bad |= CHILD_TOTALS;
	}
	_exit(bad);
}

TEST_F(priv, client_files_are_root_only_totals_public)
{
	uint64_t want[sizeof(totals) / sizeof(totals[0])];
	char path[VP_FILE_LEN];
	int status, i;
	struct stat st;
	pid_t pid;

	for (i = 0; i < (int)(sizeof(totals) / sizeof(totals[0])); i++) {
		want[i] = vp_sysfs_dev_u64(&self->dev, totals[i]);
		ASSERT_NE(UINT64_MAX, want[i]) TH_LOG("%s", totals[i]);
	}
	for (i = 0; i < (int)(sizeof(client_files) / sizeof(client_files[0])); i++) {
		snprintf(path, sizeof(path), "%s/%s", self->cdir, client_files[i]);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_EQ(0400u, st.st_mode & 0777) TH_LOG("%s", path);
	}
	vp_sysfs_dev_path(&self->dev, "vram_in_use", path, sizeof(path));
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0444u, st.st_mode & 0777) TH_LOG("%s", path);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		nobody_child(self->cdir, &self->dev, want);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("as nobody:%s%s%s%s",
		       WEXITSTATUS(status) & CHILD_SETID ? " could not drop to uid 65534" : "",
		       WEXITSTATUS(status) & CHILD_READ_CLIENT ? " read a client's file" : "",
		       WEXITSTATUS(status) & CHILD_WRONG_ERRNO ? " refused without EACCES" : "",
		       WEXITSTATUS(status) & CHILD_TOTALS ? " read other device totals" : "");
	}
}

/* In a new pid namespace: the client's pid 0, its comm empty. */
static int __attribute__((noreturn)) other_ns_child(const char *cdir)
{
	char path[VP_FILE_LEN], val[VP_VAL_MAX];
	int bad = 0;

	snprintf(path, sizeof(path), "%s/pid", cdir);
	if (vp_read_line(path, val, sizeof(val)) || strcmp(val, "0"))
		bad |= 1;
	snprintf(path, sizeof(path), "%s/comm", cdir);
	if (vp_read_line(path, val, sizeof(val)) || val[0])
		bad |= 2;
	_exit(bad);
}

TEST_F(priv, comm_only_where_the_pid_is_seen)
{
	char path[VP_FILE_LEN], val[VP_VAL_MAX], comm[32];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/pid", self->cdir);
	ASSERT_EQ(0, vp_read_line(path, val, sizeof(val)));
	EXPECT_EQ(getpid(), atoi(val));
	snprintf(path, sizeof(path), "%s/comm", self->cdir);
	ASSERT_EQ(0, vp_read_line(path, val, sizeof(val)));
	vp_my_comm(comm, sizeof(comm));
	EXPECT_STREQ(comm, val);

	/* unshare(CLONE_NEWPID) puts the next child in a new namespace. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pid_t inner;

		if (unshare(CLONE_NEWPID))
			_exit(errno == EINVAL ? 16 : 8);
		inner = fork();
		if (inner < 0)
			_exit(8);
		if (inner == 0)
			other_ns_child(self->cdir);
		if (waitpid(inner, &status, 0) != inner || !WIFEXITED(status))
			_exit(8);
		_exit(WEXITSTATUS(status));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 16)
		SKIP(return, "no pid namespaces in this kernel (CONFIG_PID_NS)");
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("in another pid namespace:%s%s%s",
		       WEXITSTATUS(status) & 1 ? " pid not 0" : "",
		       WEXITSTATUS(status) & 2 ? " comm not empty" : "",
		       WEXITSTATUS(status) & 8 ? " could not make the namespace" : "");
	}
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inspection, kernel side, on each backend (the first device of each):
 *
 *  - <device>/vrampool/: every value equals GET_PARAM; client_count counts
 *    open files;
 *  - clients/<id>/ (the id is fdinfo's drm-client-id): pid, comm,
 *    generation, persistent_mode and vram against getpid(), the task's
 *    name, POOL_QUERY and fdinfo;
 *  - fdinfo: drm-driver, drm-client-id, drm-total-vram/drm-resident-vram;
 *  - clients/<id>/pools/<index>/: the folder lists exactly the layout's
 *    indexes and 255, and every file equals POOL_QUERY ("none" exactly
 *    where the type lacks the field or the optional field is absent), for
 *    the default layout and installed ones, under a mix of allocations,
 *    across installs that shrink, grow or are refused;
 *  - debugfs clients: a sliced page's exact used and free ranges;
 *  - readers of every clients/ file racing with opens, closes, installs
 *    and allocations, for a bounded time;
 *  - a client folder goes with the last reference to its file, also when
 *    its process is killed holding allocations.
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
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define P255		DRM_VRAMPOOL_PERSISTENT_POOL

VP_SYSFS_CLIENT_FIXTURE(sysfs);

/* ---- The device folder --------------------------------------------------- */

static const char *const dev_files[] = {
	"alignment", "client_count", "clients", "exclusive_memory_only", "max_page_size",
	"vram_in_use", "vram_size",
};

static const struct {
	const char *file;
	uint32_t param;
} dev_params[] = {
	{ "vram_size", DRM_VRAMPOOL_PARAM_VRAM_SIZE },
	{ "vram_in_use", DRM_VRAMPOOL_PARAM_VRAM_IN_USE },
	{ "alignment", DRM_VRAMPOOL_PARAM_ALIGNMENT },
	{ "max_page_size", DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE },
	{ "exclusive_memory_only", DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY },
};

static void expect_device_folder(struct __test_metadata *_metadata, const struct vp_device *dev,
				 int fd, const char *when)
{
	char path[VP_PATH_LEN];
	uint64_t param;
	unsigned int i;
	int ret;

	vp_sysfs_dev_path(dev, NULL, path, sizeof(path));
	vp_expect_listing(_metadata, path, dev_files, ARRAY_SIZE(dev_files), when);
	for (i = 0; i < ARRAY_SIZE(dev_params); i++) {
		ret = vp_get_param(fd, dev_params[i].param, &param);
		ASSERT_EQ(0, ret) TH_LOG("%s: GET_PARAM %u: %s", when, dev_params[i].param,
					 strerror(-ret));
		vp_sysfs_dev_path(dev, dev_params[i].file, path, sizeof(path));
		vp_expect_u64(_metadata, path, param, when);
	}
}

/* Every value equals GET_PARAM, VRAM in use also while a page is held. */
TEST_F(sysfs, device_folder_matches_get_param)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a;

	expect_device_folder(_metadata, &self->c.dev, self->c.fd, "at the start");
	VP_INSTALL_OK(self->c.fd, &e, 1, "sliced{64 KiB}");
	VP_ALLOC_OK(self->c.fd, 1000, 0, &a, "1000");
	expect_device_folder(_metadata, &self->c.dev, self->c.fd, "with a 64 KiB page");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start + 64 * KiB,
			      "with a 64 KiB page");
	VP_FREE_OK(self->c.fd, a.handle, "1000");
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	expect_device_folder(_metadata, &self->c.dev, self->c.fd, "after the cleanup");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start,
			      "after the cleanup");
}

/* A TEST() without a fixture leaves the harness's variant parameter unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
/* Every vrampool device has its folder, equal to GET_PARAM, the small PCI one too. */
TEST(every_device_folder_matches_get_param)
{
	struct vp_device devs[VP_MAX_DEVICES];
	bool platform = false, pci = false;
	char when[160];
	int n, i, fd;

	n = vp_enumerate(devs, VP_MAX_DEVICES);
	ASSERT_LT(0, n) TH_LOG("no vrampool device: %s", strerror(n < 0 ? -n : ENODEV));
	for (i = 0; i < n; i++) {
		uint64_t before = vp_sysfs_dev_u64(&devs[i], "client_count");

		platform |= devs[i].backend == VP_BACKEND_PLATFORM;
		pci |= devs[i].backend == VP_BACKEND_PCI;
		snprintf(when, sizeof(when), "%.63s (%.63s)", devs[i].name, devs[i].path);
		fd = vp_open_device(&devs[i]);
		ASSERT_LE(0, fd) TH_LOG("%s: open: %s", when, strerror(-fd));
		expect_device_folder(_metadata, &devs[i], fd, when);
		EXPECT_NE(UINT64_MAX, before) TH_LOG("%s: client_count", when);
		EXPECT_EQ(before + 1, vp_sysfs_dev_u64(&devs[i], "client_count"))
			TH_LOG("%s", when);
		close(fd);
		EXPECT_EQ(before, vp_sysfs_dev_u64(&devs[i], "client_count"))
			TH_LOG("%s: closed", when);
	}
	EXPECT_TRUE(platform && pci) TH_LOG("the VM has a device of each backend");
}
#pragma GCC diagnostic pop

/* client_count counts open files: not descriptors, not processes. */
TEST_F(sysfs, client_count_counts_open_files)
{
	uint64_t base = self->c.clients_start;
	int fds[3], dupfd, i, status;
	pid_t pid;

	for (i = 0; i < 3; i++) {
		fds[i] = vp_open_device(&self->c.dev);
		ASSERT_LE(0, fds[i]) TH_LOG("open %d: %s", i, strerror(-fds[i]));
		EXPECT_EQ(base + i + 1, vp_sysfs_dev_u64(&self->c.dev, "client_count"))
			TH_LOG("%d opened", i + 1);
	}
	dupfd = dup(fds[0]);
	ASSERT_LE(0, dupfd);
	EXPECT_EQ(base + 3, vp_sysfs_dev_u64(&self->c.dev, "client_count"))
		TH_LOG("a dup() is no new file");

	/* A child sharing the files is no new client either. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(vp_sysfs_dev_u64(&self->c.dev, "client_count") == base + 3 ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("the child read another count");
	EXPECT_EQ(base + 3, vp_sysfs_dev_u64(&self->c.dev, "client_count"))
		TH_LOG("after the child exited");

	close(fds[0]);
	EXPECT_EQ(base + 3, vp_sysfs_dev_u64(&self->c.dev, "client_count"))
		TH_LOG("the dup() holds file 0");
	close(dupfd);
	EXPECT_EQ(base + 2, vp_sysfs_dev_u64(&self->c.dev, "client_count")) TH_LOG("file 0 closed");
	close(fds[1]);
	close(fds[2]);
	EXPECT_EQ(base, vp_sysfs_dev_u64(&self->c.dev, "client_count")) TH_LOG("all closed");
}

/* ---- Client folders ------------------------------------------------------ */

/* Found by drm-client-id; pid, comm, generation, mode and vram of a new client. */
TEST_F(sysfs, client_folder_of_a_new_file)
{
	char comm[32], proc_comm[32];
	int ret;

	ASSERT_TRUE(vp_exists(self->c.cdir)) {
		TH_LOG("no %s for drm-client-id %" PRIu64, self->c.cdir, self->c.id);
	}
	vp_my_comm(comm, sizeof(comm));
	ret = vp_read_line("/proc/self/comm", proc_comm, sizeof(proc_comm));
	ASSERT_EQ(0, ret);
	EXPECT_STREQ(comm, proc_comm) TH_LOG("the kernel's name for %s",
					     program_invocation_short_name);
	EXPECT_EQ(VP_COMM_MAX, (int)strlen(comm)) TH_LOG("the program name is truncated");
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm, "new client");
	vp_expect_file(_metadata, self->c.cdir, "generation", "1", "new client");
	vp_expect_file(_metadata, self->c.cdir, "persistent_mode", "enabled", "new client");
	vp_expect_file(_metadata, self->c.cdir, "vram", "0", "new client");
}

/*
 * A child the parent holds while it looks: the child writes to up[1] when
 * it is ready, then waits for a byte on down[0].
 */
struct held_child {
	pid_t pid;
	int up[2], down[2];
};

/* fork() with both pipes, each side closing the ends it does not use: 0 in the child. */
static pid_t held_fork(struct __test_metadata *_metadata, struct held_child *h)
{
	ASSERT_EQ(0, pipe(h->up));
	ASSERT_EQ(0, pipe(h->down));
	h->pid = fork();
	ASSERT_LE(0, h->pid);
	close(h->pid ? h->up[1] : h->up[0]);
	close(h->pid ? h->down[0] : h->down[1]);
	return h->pid;
}

/* Let the child go; it must exit with 0. */
static void held_release(struct __test_metadata *_metadata, struct held_child *h)
{
	char c = 0;
	int status;

	EXPECT_EQ(1, write(h->down[1], &c, 1));
	ASSERT_EQ(h->pid, waitpid(h->pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("child status %#x", status);
	close(h->up[0]);
	close(h->down[1]);
}

/*
 * A child that opens the device has its own folder with its pid and its
 * name (set with PR_SET_NAME, truncated to 15 characters); the folder goes
 * when the child exits.
 */
TEST_F(sysfs, child_client_shows_the_child)
{
	static const char name[] = "sysfs-child-with-a-long-name";
	char cdir[VP_DIR_LEN], comm[32], c = 0;
	struct held_child h;
	uint64_t id = 0;

	if (held_fork(_metadata, &h) == 0) {
		int fd;

		if (prctl(PR_SET_NAME, name, 0, 0, 0))
			_exit(1);
		fd = vp_open_device(&self->c.dev);
		if (fd < 0 || vp_client_id(fd, &id))
			_exit(2);
		if (write(h.up[1], &id, sizeof(id)) != sizeof(id))
			_exit(3);
		/* Hold the file until the parent has looked. */
		if (read(h.down[0], &c, 1) != 1)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ((ssize_t)sizeof(id), read(h.up[0], &id, sizeof(id))) TH_LOG("the child failed");
	EXPECT_NE(self->c.id, id) TH_LOG("the child's file has its own client id");
	vp_sysfs_client_path(&self->c.dev, id, cdir, sizeof(cdir));
	vp_comm_of(name, comm, sizeof(comm));
	EXPECT_STREQ("sysfs-child-wit", comm);
	vp_expect_file_u64(_metadata, cdir, "pid", (uint64_t)h.pid, "the child's client");
	vp_expect_file(_metadata, cdir, "comm", comm, "the child's client");
	vp_expect_file(_metadata, cdir, "generation", "1", "the child's client");
	/* Ours is unchanged. */
	vp_my_comm(comm, sizeof(comm));
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm,
				 "the parent's");

	held_release(_metadata, &h);
	EXPECT_FALSE(vp_exists(cdir)) TH_LOG("%s outlived the child", cdir);
}

/*
 * The DRM core hands a file's pid over to the process that uses it (an
 * ioctl on an inherited descriptor); pid and comm follow it, and come
 * back with the parent's next ioctl.
 */
TEST_F(sysfs, pid_and_comm_follow_the_process_using_the_file)
{
	char comm[32], c = 0;
	struct held_child h;

	if (held_fork(_metadata, &h) == 0) {
		uint64_t v;

		if (prctl(PR_SET_NAME, "sysfs-inherit", 0, 0, 0))
			_exit(1);
		if (vp_get_param(self->c.fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &v))
			_exit(2);
		if (write(h.up[1], &c, 1) != 1 || read(h.down[0], &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(1, read(h.up[0], &c, 1)) TH_LOG("the child failed");
	vp_expect_file_u64(_metadata, self->c.cdir, "pid", (uint64_t)h.pid,
			   "the child used the file");
	vp_expect_file(_metadata, self->c.cdir, "comm", "sysfs-inherit", "the child used the file");

	held_release(_metadata, &h);
	EXPECT_TRUE(vp_exists(self->c.cdir)) TH_LOG("the parent still holds the file");

	EXPECT_NE(UINT64_MAX, vp_vram_in_use(self->c.fd));
	vp_my_comm(comm, sizeof(comm));
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm,
				 "the parent used the file again");
}

/*
 * generation follows installs (a TEST_ONLY, a refused and an EBUSY install
 * leave it), persistent_mode follows SET_PERSISTENT_MODE through every mode.
 */
TEST_F(sysfs, generation_and_persistent_mode_follow_the_ioctls)
{
	struct drm_vrampool_pool_entry one = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_pool_entry bad = vp_sliced(0, VP_ABSENT, VP_ABSENT);
	static const uint32_t modes[] = {
		DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH, DRM_VRAMPOOL_PERSISTENT_DISABLED,
		DRM_VRAMPOOL_PERSISTENT_ENFORCED, DRM_VRAMPOOL_PERSISTENT_ENABLED,
	};
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_alloc a;
	char gen[VP_PATH_LEN], mode[VP_PATH_LEN], comm[32];
	uint32_t old;
	unsigned int i;

	snprintf(gen, sizeof(gen), "%s/generation", self->c.cdir);
	snprintf(mode, sizeof(mode), "%s/persistent_mode", self->c.cdir);
	vp_my_comm(comm, sizeof(comm));

	VP_INSTALL_OK(self->c.fd, &one, 1, "first install");
	vp_expect_value(_metadata, gen, "2", "after one install");
	vp_req_preset(&ins, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
	ASSERT_EQ(0, vp_install(self->c.fd, &ins));
	vp_expect_value(_metadata, gen, "3", "after a preset");

	vp_req_list(&ins, &one, 1, DRM_VRAMPOOL_INSTALL_TEST_ONLY);
	EXPECT_EQ(0, vp_install(self->c.fd, &ins));
	vp_expect_value(_metadata, gen, "3", "after a TEST_ONLY install");
	EXPECT_EQ(-EINVAL, vp_install_list(self->c.fd, &bad, 1, &ins));
	vp_expect_value(_metadata, gen, "3", "after a refused install");

	VP_INSTALL_OK(self->c.fd, &one, 1, "sliced again");
	VP_ALLOC_OK(self->c.fd, 1000, 0, &a, "1000");
	EXPECT_EQ(-EBUSY, vp_install_list(self->c.fd, &one, 1, &ins));
	vp_expect_value(_metadata, gen, "4", "after an EBUSY install");
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm,
				 "after EBUSY");
	VP_FREE_OK(self->c.fd, a.handle, "1000");

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		ASSERT_EQ(0, vp_set_persistent_mode(self->c.fd, modes[i], &old));
		vp_expect_value(_metadata, mode, vp_persistent_mode_str(modes[i]),
				"after SET_PERSISTENT_MODE");
		vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm,
					 vp_persistent_mode_str(modes[i]));
	}
	/* A refused mode changes nothing. */
	EXPECT_EQ(-EINVAL, vp_set_persistent_mode(self->c.fd, 4, NULL));
	vp_expect_value(_metadata, mode, "enabled", "after a refused mode");
	vp_expect_value(_metadata, gen, "4", "modes are no installs");
}

/* vram equals POOL_QUERY's vram_in_use and fdinfo's total and resident VRAM. */
TEST_F(sysfs, client_vram_matches_query_and_fdinfo)
{
	struct drm_vrampool_pool_entry e[] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT),
		vp_exclusive(2 * MiB, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};
	static const struct { uint64_t size; uint32_t flags; } mix[] = {
		{ 1000, 0 }, { 30000, 0 }, { 60000, 0 }, { 1500 * KiB, 0 }, { 3 * MiB, 0 },
		{ 3000, PERSISTENT }, { 5000, PERSISTENT }, { 0, 0 },
	};
	struct drm_vrampool_alloc a[ARRAY_SIZE(mix)];
	char comm[32], when[64];
	unsigned int i;

	vp_my_comm(comm, sizeof(comm));
	VP_INSTALL_OK(self->c.fd, e, ARRAY_SIZE(e), "sliced, exclusive, direct");
	for (i = 0; i < ARRAY_SIZE(mix); i++) {
		snprintf(when, sizeof(when), "after allocation %u (%" PRIu64 ")", i, mix[i].size);
		VP_ALLOC_OK(self->c.fd, mix[i].size, mix[i].flags, &a[i], when);
		vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm, when);
	}
	EXPECT_LT(0u, vp_sysfs_dev_u64(&self->c.dev, "vram_in_use") - self->c.vram_start);
	for (i = 0; i < ARRAY_SIZE(mix); i += 2) {
		snprintf(when, sizeof(when), "after freeing %u", i);
		VP_FREE_OK(self->c.fd, a[i].handle, when);
		vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm, when);
	}
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm,
				 "after a cleanup");
	for (i = 1; i < ARRAY_SIZE(mix); i += 2)
		VP_FREE_OK(self->c.fd, a[i].handle, "the rest");
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	vp_expect_client_matches(_metadata, self->c.cdir, self->c.fd, getpid(), comm, "all freed");
	vp_expect_file(_metadata, self->c.cdir, "vram", "0", "all freed and cleaned up");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start, "all freed");
}

/* ---- fdinfo -------------------------------------------------------------- */

/*
 * drm-driver is "vrampool"; drm-client-id is unique per open file, shared
 * by dup()ed descriptors and by a child's inherited one; the PCI device
 * names its address in drm-pdev.
 */
TEST_F(sysfs, fdinfo_names_driver_and_client)
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

/*
 * drm-total-vram grows by the page's buffer size when an allocation makes a
 * page, not when it fits one already there, and goes back with a cleanup.
 */
TEST_F(sysfs, fdinfo_vram_grows_by_the_page)
{
	struct drm_vrampool_pool_entry e[] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT),
		vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT),
	};
	struct drm_vrampool_alloc a[5];
	char comm[32];
	unsigned int i;

	vp_my_comm(comm, sizeof(comm));
	VP_INSTALL_OK(self->c.fd, e, ARRAY_SIZE(e), "sliced 64 KiB and 1 MiB");
	expect_fdinfo_vram(_metadata, self->c.fd, "0", 0, "no page");

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

	for (i = 0; i < ARRAY_SIZE(a); i++)
		VP_FREE_OK(self->c.fd, a[i].handle, "all");
	expect_fdinfo_vram(_metadata, self->c.fd, "1092 KiB", 1092 * KiB, "freed, pages kept");
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	expect_fdinfo_vram(_metadata, self->c.fd, "0", 0, "after a cleanup");
}

/* ---- Pool folders -------------------------------------------------------- */

/* The default layout: every folder equals POOL_QUERY, and POOL_QUERY the preset. */
TEST_F(sysfs, default_layout_pools_match_query)
{
	struct drm_vrampool_pool_entry want[VP_LAYOUT_MAX];
	static struct vp_snap s;
	struct vp_props props;
	char why[256];
	uint32_t n, i;
	int got;

	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "default layout");
	ASSERT_EQ(0, vp_read_props(self->c.fd, &props));
	n = vp_expect_sub_slices(&props, want);
	got = vp_expect_snap(_metadata, self->c.fd, &s, "default layout");
	ASSERT_EQ(n + 1, (uint32_t)got);
	for (i = 0; i < n; i++)
		EXPECT_EQ(-1, vp_entries_diff(&want[i], &s.pools[i].config, 1, why, sizeof(why)))
			TH_LOG("default pool %u: %s", i, why);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_POOL_PERSISTENT, s.pools[n].config.type);
}

/*
 * The mix: every pool type, every optional field present somewhere and
 * absent elsewhere; a capped sliced pool that fills and passes requests on.
 */
static const struct drm_vrampool_pool_entry *mix_layout(uint32_t *n)
{
	static struct drm_vrampool_pool_entry e[6];

	e[0] = vp_exclusive(0, VP_ABSENT);
	e[1] = vp_sliced(64 * KiB, 16 * KiB, 256 * KiB);
	e[1].flags |= DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
	e[1].dealloc_period = 100;
	e[2] = vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT);
	e[3] = vp_exclusive(2 * MiB, 5000);
	e[4] = vp_exclusive(4 * MiB - 100, VP_ABSENT);	/* aligned up */
	e[5] = vp_direct(3 * MiB);
	*n = ARRAY_SIZE(e);
	return e;
}

struct mix_alloc {
	uint64_t size;
	uint32_t flags;
	uint32_t pool;		/* where it must land */
};

static const struct mix_alloc mix_allocs[] = {
	{ 0, 0, 0 },
	/*
	 * Pool 1 (four 64 KiB pages) takes 1000 and 5000, then fifteen 16 KiB
	 * slices (three in page 0, four in each other page); the sixteenth
	 * passes on to pool 2.
	 */
	{ 1000, 0, 1 }, { 5000, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 2 },
	{ 100000, 0, 2 }, { 700000, 0, 2 }, { 900000, 0, 2 },
	{ 1500 * KiB, 0, 3 }, { 2 * MiB, 0, 3 },
	{ 2 * MiB + 1, 0, 4 }, { 3 * MiB, 0, 4 },
	{ 4 * MiB + 1, 0, 5 }, { 4 * MiB + 1, 0, 5 }, { 5 * MiB, 0, 5 },
	{ 3000, PERSISTENT, P255 }, { 1 * MiB + 1, PERSISTENT, P255 }, { 0, PERSISTENT, P255 },
};

/* Install the mix layout and allocate the mix, checking where each lands. */
static void mix_fill(struct __test_metadata *_metadata, int fd, struct drm_vrampool_alloc *a)
{
	const struct drm_vrampool_pool_entry *e;
	unsigned int i;
	char what[64];
	uint32_t n;

	e = mix_layout(&n);
	VP_INSTALL_OK(fd, e, n, "the mix layout");
	for (i = 0; i < ARRAY_SIZE(mix_allocs); i++) {
		snprintf(what, sizeof(what), "allocation %u (%" PRIu64 "%s)", i, mix_allocs[i].size,
			 mix_allocs[i].flags ? ", persistent" : "");
		VP_ALLOC_OK(fd, mix_allocs[i].size, mix_allocs[i].flags, &a[i], what);
		EXPECT_EQ(mix_allocs[i].pool, a[i].pool) TH_LOG("%s", what);
	}
}

/* An installed mix under load: compare, free some, reuse, clean up, compare. */
TEST_F(sysfs, installed_pools_match_query_under_load)
{
	struct drm_vrampool_alloc a[ARRAY_SIZE(mix_allocs)], b;
	unsigned int i;

	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "before the install");
	mix_fill(_metadata, self->c.fd, a);
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "the mix allocated");

	for (i = 0; i < ARRAY_SIZE(mix_allocs); i += 2)
		VP_FREE_OK(self->c.fd, a[i].handle, "every other");
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "every other freed");

	/* Reuse: free slices, free exclusive pages, a direct buffer of the same size. */
	VP_ALLOC_OK(self->c.fd, 16 * KiB, 0, &b, "16 KiB again");
	VP_ALLOC_OK(self->c.fd, 1500 * KiB, 0, &a[0], "1.5 MiB again");
	VP_ALLOC_OK(self->c.fd, 4 * MiB + 1, 0, &a[2], "4 MiB + 1 again");
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after reuse");

	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after a cleanup");

	VP_FREE_OK(self->c.fd, b.handle, "16 KiB");
	VP_FREE_OK(self->c.fd, a[0].handle, "1.5 MiB");
	VP_FREE_OK(self->c.fd, a[2].handle, "4 MiB + 1");
	for (i = 1; i < ARRAY_SIZE(mix_allocs); i += 2)
		VP_FREE_OK(self->c.fd, a[i].handle, "the rest");
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "all freed");
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "all freed and cleaned up");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start, "all freed");
}

static void pools_listing(struct __test_metadata *_metadata, const char *cdir, struct vp_names *ns)
{
	char path[VP_PATH_LEN];
	int ret;

	snprintf(path, sizeof(path), "%s/pools", cdir);
	ret = vp_list_dir(path, ns);
	ASSERT_EQ(0, ret) TH_LOG("list %s: %s", path, strerror(-ret));
}

/* pread at 0 of an open sysfs file: the value now, without its newline. */
static int reread(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/*
 * Installs that shrink the layout remove the surplus folders, installs that
 * grow it add folders, an install refused with EBUSY leaves them; the
 * persistent pool keeps folder 255 and its allocations throughout. A
 * folder stands for a position: a file kept open shows the new pool at its
 * index, and -ENODEV once its index is gone.
 */
TEST_F(sysfs, installs_shrink_and_grow_the_pool_folders)
{
	struct drm_vrampool_pool_entry small[] = {
		vp_direct(VP_ABSENT),
		vp_exclusive(1 * MiB, 3),
	};
	struct drm_vrampool_alloc a[ARRAY_SIZE(mix_allocs)], p, d;
	struct drm_vrampool_pool_install ins;
	static struct vp_names before, after;
	char path[VP_PATH_LEN], val[VP_VAL_MAX], x[1024], y[1024];
	const struct drm_vrampool_pool_entry *mix;
	int type1, type4, ret;
	unsigned int i;
	uint32_t nmix;

	mix = mix_layout(&nmix);
	mix_fill(_metadata, self->c.fd, a);
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "the mix allocated");

	/* Persistent allocations stay; the dynamic ones must go for an install. */
	for (i = 0; i < ARRAY_SIZE(mix_allocs); i++)
		if (a[i].pool != P255)
			VP_FREE_OK(self->c.fd, a[i].handle, "a dynamic allocation");

	snprintf(path, sizeof(path), "%s/pools/1/type", self->c.cdir);
	type1 = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, type1) TH_LOG("open %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/pools/4/type", self->c.cdir);
	type4 = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, type4) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, reread(type1, val, sizeof(val)));
	EXPECT_STREQ("sliced", val);

	/* Shrink: 6 pools to 2. */
	VP_INSTALL_OK(self->c.fd, small, ARRAY_SIZE(small), "direct, exclusive");
	pools_listing(_metadata, self->c.cdir, &after);
	EXPECT_STREQ("0 1 255", vp_names_str(&after, x, sizeof(x))) TH_LOG("after the shrink");
	snprintf(path, sizeof(path), "%s/pools/2", self->c.cdir);
	EXPECT_FALSE(vp_exists(path)) TH_LOG("%s outlived the shrink", path);
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after the shrink");
	vp_expect_file(_metadata, self->c.cdir, "pools/255/allocations", "3",
		       "the persistent allocations live on");

	EXPECT_EQ(0, reread(type1, val, sizeof(val)));
	EXPECT_STREQ("exclusive", val) TH_LOG("an open pools/1/type shows the new pool 1");
	ret = reread(type4, val, sizeof(val));
	EXPECT_EQ(-ENODEV, ret) TH_LOG("an open pools/4/type after the shrink read \"%s\"",
				       ret ? strerror(-ret) : val);
	close(type4);

	/* A grow refused with EBUSY (2 pools to 6): the folders it made go again. */
	VP_ALLOC_OK(self->c.fd, 40000, 0, &d, "40000 in the direct pool");
	EXPECT_EQ(0u, d.pool);
	pools_listing(_metadata, self->c.cdir, &before);
	ret = vp_install_list(self->c.fd, mix, nmix, &ins);
	EXPECT_EQ(-EBUSY, ret) TH_LOG("growing install over a live allocation: %s",
				      strerror(-ret));
	pools_listing(_metadata, self->c.cdir, &after);
	EXPECT_TRUE(vp_names_equal(&before, &after)) {
		TH_LOG("a refused grow changed pools/ from [%s] to [%s]",
		       vp_names_str(&before, x, sizeof(x)), vp_names_str(&after, y, sizeof(y)));
	}
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after the refused grow");
	VP_FREE_OK(self->c.fd, d.handle, "40000");

	/* Grow: the exclusive-pages preset, up to 24 pools. */
	vp_req_preset(&ins, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
	ASSERT_EQ(0, vp_install(self->c.fd, &ins));
	EXPECT_LT(6u, ins.num_pools);
	pools_listing(_metadata, self->c.cdir, &after);
	EXPECT_EQ((int)ins.num_pools + 1, after.n) {
		TH_LOG("after growing to %u pools: [%s]", ins.num_pools,
		       vp_names_str(&after, x, sizeof(x)));
	}
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after the grow");
	EXPECT_EQ(0, reread(type1, val, sizeof(val)));
	EXPECT_STREQ("exclusive", val);

	/* A shrink refused with EBUSY (to 2 pools): the folders stay. */
	VP_ALLOC_OK(self->c.fd, 40000, 0, &d, "40000 in the presets");
	VP_ALLOC_OK(self->c.fd, 3000, PERSISTENT, &p, "one more persistent");
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "the grown layout in use");
	pools_listing(_metadata, self->c.cdir, &before);
	ret = vp_install_list(self->c.fd, small, ARRAY_SIZE(small), &ins);
	EXPECT_EQ(-EBUSY, ret) TH_LOG("shrinking install over a live allocation: %s",
				      strerror(-ret));
	pools_listing(_metadata, self->c.cdir, &after);
	EXPECT_TRUE(vp_names_equal(&before, &after)) {
		TH_LOG("a refused shrink changed pools/ from [%s] to [%s]",
		       vp_names_str(&before, x, sizeof(x)), vp_names_str(&after, y, sizeof(y)));
	}
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after the refused shrink");

	VP_FREE_OK(self->c.fd, d.handle, "40000");
	VP_FREE_OK(self->c.fd, p.handle, "3000 persistent");
	for (i = 0; i < ARRAY_SIZE(mix_allocs); i++)
		if (a[i].pool == P255)
			VP_FREE_OK(self->c.fd, a[i].handle, "a persistent allocation");
	ASSERT_EQ(0, vp_cleanup(self->c.fd));
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "all freed");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start, "all freed");
	close(type1);
}

/* ---- The debugfs page map ------------------------------------------------ */

/* This client's part of debugfs clients: from its "client <id> " line to the next client. */
static int debugfs_client(const struct vp_device *dev, uint64_t id, char *out, size_t len)
{
	static char text[1 << 16];
	char path[VP_PATH_LEN], head[64], *start, *end;
	int ret;

	ret = vp_debugfs_ready();
	if (!ret)
		ret = vp_debugfs_path(dev, "clients", path, sizeof(path));
	if (!ret)
		ret = vp_read_file(path, text, sizeof(text));
	if (ret)
		return ret;
	snprintf(head, sizeof(head), "client %" PRIu64 " ", id);
	for (start = text; start; start = strchr(start, '\n'), start = start ? start + 1 : NULL)
		if (!strncmp(start, head, strlen(head)))
			break;
	if (!start)
		return -ENOENT;
	end = strstr(start, "\nclient ");
	snprintf(out, len, "%.*s", (int)(end ? end + 1 - start : (long)strlen(start)), start);
	return 0;
}

static void expect_page_map(struct __test_metadata *_metadata, const struct vp_device *dev,
			    uint64_t id, const char *want, const char *when)
{
	char got[4096];
	int ret = debugfs_client(dev, id, got, sizeof(got));

	ASSERT_EQ(0, ret) TH_LOG("%s: debugfs clients: %s", when, strerror(-ret));
	EXPECT_STREQ(want, got) TH_LOG("%s", when);
}

/*
 * After allocations in a sliced pool (first fit, lowest offset; sizes
 * aligned to 256), the client's page map shows each slice and each free
 * range exactly, zero-size allocations in no page, and the persistent pool.
 */
TEST_F(sysfs, debugfs_page_map_shows_slices_and_free_ranges)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d, z, f, g, p;
	char want[2048];
	uint64_t id = self->c.id;

	VP_INSTALL_OK(self->c.fd, &e, 1, "sliced{64 KiB}");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 0 pages, 0 allocations\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "nothing allocated");

	VP_ALLOC_OK(self->c.fd, 1000, 0, &a, "1000");	/* 0+1024 */
	VP_ALLOC_OK(self->c.fd, 4096, 0, &b, "4096");	/* 1024+4096 */
	VP_ALLOC_OK(self->c.fd, 200, 0, &c, "200");		/* 5120+256 */
	VP_ALLOC_OK(self->c.fd, 3000, 0, &d, "3000");	/* 5376+3072 */
	VP_ALLOC_OK(self->c.fd, 0, 0, &z, "0");		/* no space */
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 1 pages, 5 allocations\n"
		 "    page 0 size 65536: used 0+1024 used 1024+4096 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "five allocations");

	VP_FREE_OK(self->c.fd, b.handle, "4096");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 1 pages, 4 allocations\n"
		 "    page 0 size 65536: used 0+1024 free 1024+4096 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "the 4096 freed");

	VP_ALLOC_OK(self->c.fd, 2048, 0, &f, "2048");	/* first fit: 1024+2048 */
	VP_ALLOC_OK(self->c.fd, 60000, 0, &g, "60000");	/* 60160: a second page */
	VP_ALLOC_OK(self->c.fd, 3000, PERSISTENT, &p, "3000 persistent");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 2 pages, 6 allocations\n"
		 "    page 0 size 65536: used 0+1024 used 1024+2048 free 3072+2048 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "    page 1 size 65536: used 0+60160 free 60160+5376\n"
		 "  pool 255 persistent: 1 pages, 1 allocations\n"
		 "    page 0 size 3072: used 0+3072\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "a hole refilled, a second page");
	EXPECT_EQ(1024u, f.offset);
	EXPECT_EQ(1u, g.page);

	/* sysfs agrees on the same state. */
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "the mapped state");

	VP_FREE_OK(self->c.fd, a.handle, "1000");
	VP_FREE_OK(self->c.fd, c.handle, "200");
	VP_FREE_OK(self->c.fd, d.handle, "3000");
	VP_FREE_OK(self->c.fd, z.handle, "0");
	VP_FREE_OK(self->c.fd, f.handle, "2048");
	VP_FREE_OK(self->c.fd, p.handle, "3000 persistent");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 2 pages, 1 allocations\n"
		 "    page 0 size 65536: free 0+65536\n"
		 "    page 1 size 65536: used 0+60160 free 60160+5376\n"
		 "  pool 255 persistent: 1 pages, 0 allocations\n"
		 "    page 0 size 3072: free 0+3072\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "one allocation left");
	VP_FREE_OK(self->c.fd, g.handle, "60000");
}

/* ---- Readers racing with the clients' changes ---------------------------- */

#define RACE_SECS	3
#define RACE_READERS	3
#define RACE_WRITERS	3
/* How long after the deadline the children may take before it is a hang. */
#define RACE_GRACE_SECS	30

/* What one child did, in memory shared with the test. */
struct race_child {
	uint64_t rounds;	/* readers: walks of clients/; writers: open-close cycles */
	uint64_t reads;		/* files read whole */
	uint64_t vanished;	/* ENOENT / ENODEV met */
	uint64_t installs;
	uint64_t busy;		/* installs refused with EBUSY, as expected */
	uint64_t allocs;
	int errors;
	char error[256];	/* the first */
};

static void race_fail(struct race_child *st, const char *fmt, ...)
{
	va_list ap;

	if (!st->errors++) {
		va_start(ap, fmt);
		vsnprintf(st->error, sizeof(st->error), fmt, ap);
		va_end(ap);
	}
}

static double now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

enum race_kind { RK_PID, RK_COMM, RK_GEN, RK_MODE, RK_U64, RK_TYPE, RK_U64_OR_NONE };

static bool race_value_ok(enum race_kind kind, const char *v)
{
	uint64_t n;
	unsigned int i;

	switch (kind) {
	case RK_PID:
		return !vp_parse_u64(v, &n) && n > 0 && n <= INT_MAX;
	case RK_COMM:
		return strlen(v) <= VP_COMM_MAX;
	case RK_GEN:
		return !vp_parse_u64(v, &n) && n >= 1;
	case RK_MODE:
		for (i = 0; i <= DRM_VRAMPOOL_PERSISTENT_ENFORCED; i++)
			if (!strcmp(v, vp_persistent_mode_str(i)))
				return true;
		return false;
	case RK_TYPE:
		return !strcmp(v, "exclusive") || !strcmp(v, "sliced") || !strcmp(v, "direct") ||
		       !strcmp(v, "persistent");
	case RK_U64_OR_NONE:
		if (!strcmp(v, "none"))
			return true;
		return !vp_parse_u64(v, &n);
	default:
		return !vp_parse_u64(v, &n);
	}
}

/* A file that may vanish at any time: ENOENT and ENODEV are all right. */
static void race_read(struct race_child *st, const char *path, enum race_kind kind)
{
	char v[VP_VAL_MAX];
	int ret = vp_read_line(path, v, sizeof(v));

	if (ret == -ENOENT || ret == -ENODEV) {
		st->vanished++;
		return;
	}
	if (ret) {
		race_fail(st, "read %s: %s", path, strerror(-ret));
		return;
	}
	st->reads++;
	if (!race_value_ok(kind, v))
		race_fail(st, "%s reads \"%s\"", path, v);
}

static const enum race_kind pool_kinds[VP_PF_COUNT] = {
	[VP_PF_TYPE] = RK_TYPE,
	[VP_PF_PAGE_SIZE ... VP_PF_DEALLOC_PERIOD] = RK_U64_OR_NONE,
	[VP_PF_PAGES ... VP_PF_LARGEST_ALLOC] = RK_U64,
};

/* A folder that may vanish: its listing, or false. */
static bool race_list(struct race_child *st, const char *path, struct vp_names *ns)
{
	int ret = vp_list_dir(path, ns);

	if (ret == -ENOENT || ret == -ENODEV) {
		st->vanished++;
		return false;
	}
	if (ret) {
		race_fail(st, "list %s: %s", path, strerror(-ret));
		return false;
	}
	return true;
}

/* Every file of every clients/<id>/ and of its pools, once. */
static void race_walk(struct race_child *st, const char *clients)
{
	static const struct { const char *file; enum race_kind kind; } cf[] = {
		{ "pid", RK_PID }, { "comm", RK_COMM }, { "generation", RK_GEN },
		{ "persistent_mode", RK_MODE }, { "vram", RK_U64 },
	};
	static struct vp_names ids, pools;
	char path[VP_PATH_LEN];
	unsigned int k;
	int i, j, f, ret;

	/* clients/ itself lives as long as the device. */
	ret = vp_list_dir(clients, &ids);
	if (ret) {
		race_fail(st, "list %s: %s", clients, strerror(-ret));
		return;
	}
	for (i = 0; i < ids.n; i++) {
		if (!vp_all_digits(ids.v[i])) {
			race_fail(st, "%s/%s is no client id", clients, ids.v[i]);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(cf); k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", clients, ids.v[i], cf[k].file);
			race_read(st, path, cf[k].kind);
		}
		snprintf(path, sizeof(path), "%s/%s/pools", clients, ids.v[i]);
		if (!race_list(st, path, &pools))
			continue;
		for (j = 0; j < pools.n; j++) {
			uint64_t index;

			if (vp_parse_u64(pools.v[j], &index) ||
			    (index >= DRM_VRAMPOOL_MAX_DYNAMIC_POOLS && index != P255)) {
				race_fail(st, "%s/%s is no pool index", path, pools.v[j]);
				continue;
			}
			for (f = 0; f < VP_PF_COUNT; f++) {
				char file[VP_FILE_LEN];

				snprintf(file, sizeof(file), "%s/%s/%s", path, pools.v[j],
					 vp_pool_files[f]);
				race_read(st, file, pool_kinds[f]);
			}
		}
	}
}

static void race_reader(struct race_child *st, const char *clients, double deadline)
{
	while (now_secs() < deadline) {
		race_walk(st, clients);
		st->rounds++;
	}
}

/* Layouts of alternating sizes: 1 pool, 6 pools, the 24-pool preset. */
static int race_install(int fd, uint64_t k)
{
	static struct drm_vrampool_pool_entry one[1], six[6];
	struct drm_vrampool_pool_install ins;

	one[0] = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	six[0] = vp_exclusive(0, VP_ABSENT);
	six[1] = vp_sliced(64 * KiB, 16 * KiB, 256 * KiB);
	six[2] = vp_sliced(256 * KiB, VP_ABSENT, VP_ABSENT);
	six[3] = vp_exclusive(512 * KiB, 100);
	six[4] = vp_direct(1 * MiB);
	six[5] = vp_direct(VP_ABSENT);
	switch (k % 3) {
	case 0:
		return vp_install_list(fd, one, 1, &ins);
	case 1:
		return vp_install_list(fd, six, 6, &ins);
	default:
		vp_req_preset(&ins, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, 0);
		return vp_install(fd, &ins);
	}
}

/* Sizes every race layout accepts, small enough for three writers at once. */
static const struct { uint64_t size; uint32_t flags; } race_sizes[] = {
	{ 0, 0 }, { 1000, 0 }, { 20000, 0 }, { 3000, PERSISTENT }, { 30000, 0 }, { 256, 0 },
};

/*
 * Open, install, allocate, free some, try an install over the rest (EBUSY
 * while a dynamic allocation lives), change the persistent mode, close with
 * or without live allocations; meanwhile a long-lived file of the writer
 * switches layouts back and forth.
 */
static void race_writer(struct race_child *st, const struct vp_device *dev, double deadline,
			unsigned int seed)
{
	struct drm_vrampool_alloc a[ARRAY_SIZE(race_sizes)];
	int keep, fd, ret;
	uint64_t k = seed;

	keep = vp_open_device(dev);
	if (keep < 0) {
		race_fail(st, "open: %s", strerror(-keep));
		return;
	}
	while (now_secs() < deadline && !st->errors) {
		bool live[ARRAY_SIZE(race_sizes)] = { 0 };
		unsigned int i, dynamic = 0;

		k++;
		ret = race_install(keep, k);
		if (ret) {
			race_fail(st, "round %" PRIu64 ": install on the long-lived file: %s", k,
				  strerror(-ret));
			break;
		}
		st->installs++;
		ret = vp_alloc(keep, 1000, 0, &a[0]);
		if (!ret)
			ret = vp_free(keep, a[0].handle);
		if (ret) {
			race_fail(st, "round %" PRIu64 ": 1000 on the long-lived file: %s", k,
				  strerror(-ret));
			break;
		}

		fd = vp_open_device(dev);
		if (fd < 0) {
			race_fail(st, "round %" PRIu64 ": open: %s", k, strerror(-fd));
			break;
		}
		ret = vp_set_persistent_mode(fd, (uint32_t)(k % 4), NULL);
		if (!ret)
			ret = race_install(fd, k + 1);
		if (ret) {
			race_fail(st, "round %" PRIu64 ": mode or install: %s", k, strerror(-ret));
			close(fd);
			break;
		}
		st->installs++;
		for (i = 0; i < ARRAY_SIZE(race_sizes); i++) {
			ret = vp_alloc(fd, race_sizes[i].size, race_sizes[i].flags, &a[i]);
			if (ret) {
				race_fail(st, "round %" PRIu64 ": ALLOC(%" PRIu64 "): %s (code %u)",
					  k, race_sizes[i].size, strerror(-ret), a[i].error.code);
				break;
			}
			st->allocs++;
			live[i] = true;
		}
		/* Free every other, then count what holds the dynamic pools. */
		for (i = k % 2; i < ARRAY_SIZE(race_sizes); i += 2) {
			ret = live[i] ? vp_free(fd, a[i].handle) : 0;
			if (ret)
				race_fail(st, "round %" PRIu64 ": FREE: %s", k, strerror(-ret));
			live[i] = false;
		}
		for (i = 0; i < ARRAY_SIZE(race_sizes); i++)
			dynamic += live[i] && a[i].pool != P255;
		ret = race_install(fd, k + 2);
		if (dynamic && ret == -EBUSY) {
			st->busy++;
		} else if (dynamic || ret) {
			race_fail(st, "round %" PRIu64 ": install over %u dynamic allocations: %s",
				  k, dynamic, ret ? strerror(-ret) : "installed");
		} else {
			st->installs++;
		}
		/* Two rounds in three close the file over live allocations. */
		for (i = 0; k % 3 == 0 && i < ARRAY_SIZE(race_sizes); i++) {
			ret = live[i] ? vp_free(fd, a[i].handle) : 0;
			if (ret)
				race_fail(st, "round %" PRIu64 ": FREE: %s", k, strerror(-ret));
		}
		close(fd);
		st->rounds++;
	}
	close(keep);
}

/*
 * Readers walk every file of clients/ while writers open and close files,
 * install layouts of alternating sizes and allocate, for RACE_SECS. No read
 * may fail but with ENOENT or ENODEV, no value may be malformed; after the
 * writers are gone, clients/, client_count and VRAM are as they were. A
 * hang shows as children outliving the deadline (or as the test timeout).
 */
TEST_F_TIMEOUT(sysfs, readers_race_with_opens_installs_and_allocations, 90)
{
	const int nchild = RACE_READERS + RACE_WRITERS;
	static struct vp_names start, end;
	struct race_child *st;
	pid_t pids[RACE_READERS + RACE_WRITERS];
	bool done[RACE_READERS + RACE_WRITERS] = { 0 };
	char clients[VP_DIR_LEN], x[2048], y[2048];
	uint64_t reads = 0, vanished = 0, rounds = 0, installs = 0, busy = 0;
	double deadline;
	int i, left, status;

	vp_sysfs_dev_path(&self->c.dev, "clients", clients, sizeof(clients));
	ASSERT_EQ(0, vp_list_dir(clients, &start));
	ASSERT_TRUE(vp_names_has(&start, strrchr(self->c.cdir, '/') + 1));

	st = mmap(NULL, sizeof(*st) * nchild, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);
	memset(st, 0, sizeof(*st) * nchild);

	deadline = now_secs() + RACE_SECS;
	for (i = 0; i < nchild; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]) TH_LOG("fork: %s", strerror(errno));
		if (pids[i] == 0) {
			if (i < RACE_READERS)
				race_reader(&st[i], clients, deadline);
			else
				race_writer(&st[i], &self->c.dev, deadline, i * 7);
			_exit(0);
		}
	}

	/* Wait, but not forever. */
	for (left = nchild; left && now_secs() < deadline + RACE_GRACE_SECS;) {
		for (i = 0; i < nchild; i++) {
			if (done[i] || waitpid(pids[i], &status, WNOHANG) != pids[i])
				continue;
			done[i] = true;
			left--;
			EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
				TH_LOG("%s %d ended with status %#x",
				       i < RACE_READERS ? "reader" : "writer", i, status);
			}
		}
		usleep(20000);
	}
	EXPECT_EQ(0, left) TH_LOG("%d children still run %d s after the deadline: a hang?", left,
				  RACE_GRACE_SECS);
	for (i = 0; i < nchild; i++) {
		const char *role = i < RACE_READERS ? "reader" : "writer";

		if (!done[i]) {
			char stack[1024] = "", file[64];

			snprintf(file, sizeof(file), "/proc/%d/stack", (int)pids[i]);
			vp_read_file(file, stack, sizeof(stack));
			TH_LOG("%s %d (pid %d) is stuck in:\n%s", role, i, (int)pids[i], stack);
			kill(pids[i], SIGKILL);
		}
		EXPECT_EQ(0, st[i].errors) {
			TH_LOG("%s %d: %d unexpected results, the first: %s", role, i, st[i].errors,
			       st[i].error);
		}
		EXPECT_LT(0u, st[i].rounds) TH_LOG("%s %d never finished a round", role, i);
		if (i < RACE_READERS) {
			EXPECT_LT(0u, st[i].reads) TH_LOG("reader %d read nothing", i);
			reads += st[i].reads;
			vanished += st[i].vanished;
		} else {
			rounds += st[i].rounds;
			installs += st[i].installs;
			busy += st[i].busy;
		}
	}
	ksft_print_msg("%s: %" PRIu64 " reads, %" PRIu64 " vanished; %" PRIu64 " writer rounds, %"
		       PRIu64 " installs, %" PRIu64 " EBUSY\n", self->c.dev.name, reads, vanished,
		       rounds, installs, busy);
	ASSERT_EQ(0, left);

	ASSERT_EQ(0, vp_list_dir(clients, &end));
	EXPECT_TRUE(vp_names_equal(&start, &end)) {
		TH_LOG("clients/ was [%s], is [%s] after every writer closed",
		       vp_names_str(&start, x, sizeof(x)), vp_names_str(&end, y, sizeof(y)));
	}
	EXPECT_EQ(self->c.clients_start, vp_sysfs_dev_u64(&self->c.dev, "client_count"));
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start,
			      "after the race");
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after the race");
	munmap(st, sizeof(*st) * nchild);
}

/* ---- Exits --------------------------------------------------------------- */

/*
 * The folder lives as long as the open file: past the close of one of two
 * dup()ed descriptors, past the parent's close while a child holds the
 * file, and goes with the last close, VRAM back to where it was.
 */
TEST_F(sysfs, client_folder_goes_with_the_last_reference)
{
	struct drm_vrampool_pool_entry e[] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc a;
	char cdir[VP_DIR_LEN], c = 0;
	int fd, fd2, gate[2], status;
	uint64_t id, vram;
	pid_t pid;

	fd = vp_open_device(&self->c.dev);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vp_client_id(fd, &id));
	vp_sysfs_client_path(&self->c.dev, id, cdir, sizeof(cdir));
	ASSERT_TRUE(vp_exists(cdir)) TH_LOG("no %s", cdir);
	VP_INSTALL_OK(fd, e, ARRAY_SIZE(e), "sliced, direct");
	VP_ALLOC_OK(fd, 1000, 0, &a, "1000");
	VP_ALLOC_OK(fd, 1 * MiB, 0, &a, "1 MiB");
	VP_ALLOC_OK(fd, 3000, PERSISTENT, &a, "3000 persistent");
	vram = self->c.vram_start + 64 * KiB + 1 * MiB + 4 * KiB;
	vp_expect_device_vram(_metadata, &self->c.dev, fd, vram, "three pages");
	vp_expect_file_u64(_metadata, cdir, "vram", vram - self->c.vram_start, "three pages");

	fd2 = dup(fd);
	ASSERT_LE(0, fd2);
	close(fd);
	EXPECT_TRUE(vp_exists(cdir)) TH_LOG("the folder went with a dup()ed descriptor");

	ASSERT_EQ(0, pipe(gate));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(gate[1]);
		/* Hold fd2 until the parent has closed its copy and looked. */
		_exit(read(gate[0], &c, 1) == 1 ? 0 : 1);
	}
	close(gate[0]);
	close(fd2);
	EXPECT_TRUE(vp_exists(cdir)) TH_LOG("the folder went while a child holds the file");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, vram,
			      "the child holds the file");
	EXPECT_EQ(self->c.clients_start + 1, vp_sysfs_dev_u64(&self->c.dev, "client_count"));

	EXPECT_EQ(1, write(gate[1], &c, 1));
	close(gate[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("child status %#x", status);
	EXPECT_FALSE(vp_exists(cdir)) TH_LOG("%s outlived the last reference", cdir);
	EXPECT_EQ(self->c.clients_start, vp_sysfs_dev_u64(&self->c.dev, "client_count"));
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start,
			      "all closed");
}

/*
 * A process killed with SIGKILL while it holds allocations of every kind
 * (and a mapping): its folder goes, VRAM and client_count come back.
 */
TEST_F(sysfs, client_folder_goes_when_its_process_is_killed)
{
	char cdir[VP_DIR_LEN], path[VP_PATH_LEN], val[VP_VAL_MAX];
	int up[2], status;
	uint64_t id = 0, vram;
	pid_t pid;

	ASSERT_EQ(0, pipe(up));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const struct drm_vrampool_pool_entry *e;
		struct drm_vrampool_alloc a;
		uint32_t n;
		unsigned int i;
		char *map;
		int fd;

		close(up[0]);
		fd = vp_open_device(&self->c.dev);
		if (fd < 0 || vp_client_id(fd, &id))
			_exit(1);
		e = mix_layout(&n);
		if (vp_install_list(fd, e, n, &(struct drm_vrampool_pool_install){ 0 }))
			_exit(2);
		for (i = 0; i < ARRAY_SIZE(mix_allocs); i++)
			if (vp_alloc(fd, mix_allocs[i].size, mix_allocs[i].flags, &a))
				_exit(3);
		/* The last one has no page; map the 1000's page. */
		if (vp_alloc(fd, 1000, 0, &a))
			_exit(4);
		map = mmap(NULL, a.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   a.mmap_offset);
		if (map == MAP_FAILED)
			_exit(5);
		memset(map + a.offset, 0x5a, 1000);
		if (write(up[1], &id, sizeof(id)) != sizeof(id))
			_exit(6);
		for (;;)
			pause();
	}
	close(up[1]);
	ASSERT_EQ((ssize_t)sizeof(id), read(up[0], &id, sizeof(id))) TH_LOG("the child failed");
	close(up[0]);
	vp_sysfs_client_path(&self->c.dev, id, cdir, sizeof(cdir));

	vp_expect_file_u64(_metadata, cdir, "pid", (uint64_t)pid, "the child holds allocations");
	snprintf(path, sizeof(path), "%s/vram", cdir);
	ASSERT_EQ(0, vp_read_u64_file(path, &vram));
	EXPECT_LT(10 * MiB, vram) TH_LOG("the child's mix");
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start + vram,
			      "the child holds allocations");
	vp_expect_file(_metadata, cdir, "pools/255/allocations", "3",
		       "the child's persistent allocations");
	snprintf(path, sizeof(path), "%s/pools", cdir);
	{
		static struct vp_names ns;
		char x[256];

		ASSERT_EQ(0, vp_list_dir(path, &ns));
		EXPECT_STREQ("0 1 2 3 4 5 255", vp_names_str(&ns, x, sizeof(x)));
	}
	EXPECT_EQ(self->c.clients_start + 1, vp_sysfs_dev_u64(&self->c.dev, "client_count"));

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		TH_LOG("the child ended with status %#x before the kill", status);
	}
	EXPECT_FALSE(vp_exists(cdir)) TH_LOG("%s outlived its killed process", cdir);
	snprintf(path, sizeof(path), "%s/vram", cdir);
	EXPECT_EQ(-ENOENT, vp_read_line(path, val, sizeof(val)));
	EXPECT_EQ(self->c.clients_start, vp_sysfs_dev_u64(&self->c.dev, "client_count"));
	vp_expect_device_vram(_metadata, &self->c.dev, self->c.fd, self->c.vram_start,
			      "after the kill");
}

TEST_HARNESS_MAIN

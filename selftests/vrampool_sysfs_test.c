// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs (Documentation/ABI/testing/sysfs-driver-vrampool), on each backend
 * (the first device of each):
 *
 *  - <device>/vrampool/: every value equals GET_PARAM; client_count counts
 *    open files;
 *  - clients/<id>/ (the id is fdinfo's drm-client-id): pid, comm,
 *    generation, persistent_mode and vram against getpid(), the task's
 *    name, POOL_QUERY and fdinfo;
 *  - clients/<id>/pools/<index>: pools/ lists exactly the layout's
 *    indexes and 255, and every file equals POOL_QUERY ("none" exactly
 *    where the type lacks the field or the optional field is absent), for
 *    the default layout and installed ones, under a mix of allocations,
 *    across installs that shrink, grow or are refused;
 *  - a client folder goes with the last reference to its file, also when
 *    its process is killed holding allocations.
 *
 * fdinfo alone is vrampool_fdinfo_test, the debugfs page map
 * vrampool_debugfs_test, and readers racing with the clients' changes
 * vrampool_sysfs_stress_test. The numbers assume the module defaults
 * (alignment 256, sliced pools allowed): the fixture checks them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define P255		DRM_VRAMPOOL_PERSISTENT_POOL
/*
 * Seconds for the tests that read every file of a whole layout's pool
 * folders again and again (the harness's default is 30): a debug kernel
 * under TCG on a busy host can take longer.
 */
#define POOLS_TIMEOUT	90

VP_SYSFS_CLIENT_FIXTURE(sysfs);

/* ---- The device folder --------------------------------------------------- */

static const char *const dev_files[] = {
	"alignment", "client_count", "clients", "dmem_region", "exclusive_memory_only",
	"max_page_size", "reclaimed", "reclaimed_pages", "users", "vram_in_use", "vram_quota",
	"vram_size",
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
TEST_F_TIMEOUT(sysfs, installed_pools_match_query_under_load, POOLS_TIMEOUT)
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

/* The type field of an open pools/<index>, read again from the start. */
static int reread_type(int fd, char *buf, size_t len)
{
	char text[VP_FILE_LEN];
	int ret = reread(fd, text, sizeof(text));

	return ret ? ret : vp_pool_stats_field(text, "type", buf, len);
}

/*
 * Installs that shrink the layout remove the surplus folders, installs that
 * grow it add folders, an install refused with EBUSY leaves them; the
 * persistent pool keeps folder 255 and its allocations throughout. A
 * folder stands for a position: a file kept open shows the new pool at its
 * index, and -ENODEV once its index is gone.
 */
TEST_F_TIMEOUT(sysfs, installs_shrink_and_grow_the_pool_folders, POOLS_TIMEOUT)
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

	snprintf(path, sizeof(path), "%s/pools/1", self->c.cdir);
	type1 = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, type1) TH_LOG("open %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/pools/4", self->c.cdir);
	type4 = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, type4) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, reread_type(type1, val, sizeof(val)));
	EXPECT_STREQ("sliced", val);

	/* Shrink: 6 pools to 2. */
	VP_INSTALL_OK(self->c.fd, small, ARRAY_SIZE(small), "direct, exclusive");
	pools_listing(_metadata, self->c.cdir, &after);
	EXPECT_STREQ("0 1 255", vp_names_str(&after, x, sizeof(x))) TH_LOG("after the shrink");
	snprintf(path, sizeof(path), "%s/pools/2", self->c.cdir);
	EXPECT_FALSE(vp_exists(path)) TH_LOG("%s outlived the shrink", path);
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "after the shrink");
	vp_expect_pool_stat(_metadata, self->c.cdir, "pools/255", "allocations", "3",
			    "the persistent allocations live on");

	EXPECT_EQ(0, reread_type(type1, val, sizeof(val)));
	EXPECT_STREQ("exclusive", val) TH_LOG("an open pools/1 shows the new pool 1");
	ret = reread_type(type4, val, sizeof(val));
	EXPECT_EQ(-ENODEV, ret) TH_LOG("an open pools/4 after the shrink read \"%s\"",
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
	EXPECT_EQ(0, reread_type(type1, val, sizeof(val)));
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
	vp_expect_pool_stat(_metadata, cdir, "pools/255", "allocations", "3",
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

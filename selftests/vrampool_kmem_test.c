// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel memory a client makes the driver hold, on the first emulated
 * device:
 *
 *  - zero_size_allocations: 100,000 zero-size ALLOCs hold no page, no VRAM
 *    and almost no kernel memory: the slab (SUnreclaim + SReclaimable of
 *    /proc/meminfo, the handle table's nodes being "reclaimable" slab) grows
 *    by less than 64 bytes per allocation, and goes back on close (the
 *    caches shrunk, which drains KASAN's quarantine, and settled again for
 *    a few seconds at most: the nodes are freed after an RCU grace period).
 *    The figures are printed.
 *  - sparse_handles: a file that keeps one of every 64 zero-size
 *    allocations it makes, 20,000 times, grows the slab by less than 128
 *    bytes per kept allocation: its handles stay within the window, so the
 *    table's nodes are shared (576 bytes each kept, without the window);
 *  - memcg_contains_a_flood: in a cgroup v2 child with a small memory.max,
 *    a flood of ALLOCs fails with ENOMEM (their kernel memory is charged to
 *    the cgroup) while the same flood outside it succeeds. cgroup2 is
 *    mounted on /sys/fs/cgroup if it is not there; a kernel without the
 *    memory controller skips with the reason.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define ZERO_ALLOCS	100000
/* The most slab a zero-size allocation may cost on average, in bytes. */
#define ZERO_BUDGET	64
/* What may stay in slab after the client closed (per-CPU partial slabs). */
#define CLOSE_SLACK	(512 * KiB)
/*
 * How often the slab is settled again after close before it must have
 * dropped: the handle table's nodes are freed after an RCU grace period.
 */
#define CLOSE_ROUNDS	20

/* Sparse handles: runs of SPARSE_RUN allocations, one of each kept. */
#define SPARSE_RUN	64
#define SPARSE_KEPT	20000
#define SPARSE_BUDGET	128

#define CGROOT		"/sys/fs/cgroup"
#define CG_MAX		(4 * 1024 * 1024)
/*
 * Each ALLOC of a slice charges its record (48 bytes) and its slot in the
 * handle table (about 9): the flood charges about 1.4 times CG_MAX.
 */
#define FLOOD		100000
#define FLOOD_SIZE	256

/* ---- /proc/meminfo ------------------------------------------------------------ */

struct slab {
	uint64_t unreclaim, reclaimable;	/* bytes */
};

/* 0 is vp_meminfo_bytes()'s "unreadable": neither figure is 0 on a running kernel. */
static int slab_sample(struct slab *s)
{
	s->unreclaim = vp_meminfo_bytes("SUnreclaim");
	s->reclaimable = vp_meminfo_bytes("SReclaimable");
	return s->unreclaim && s->reclaimable ? 0 : -EIO;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * The slab once the system has settled: caches dropped (what the test did
 * not make goes out of SReclaimable) and shrunk, then the smallest of five
 * samples a tenth of a second apart, each part on its own: background noise
 * only adds.
 */
static int slab_settled(struct slab *s)
{
	struct slab one;
	int i, ret;

	sync();
	vp_write_file("/proc/sys/vm/drop_caches", "3");
	sleep_ms(300);
	vp_slab_shrink_all();
	s->unreclaim = s->reclaimable = UINT64_MAX;
	for (i = 0; i < 5; i++) {
		ret = slab_sample(&one);
		if (ret)
			return ret;
		if (one.unreclaim < s->unreclaim)
			s->unreclaim = one.unreclaim;
		if (one.reclaimable < s->reclaimable)
			s->reclaimable = one.reclaimable;
		sleep_ms(100);
	}
	return 0;
}

static int64_t grown(uint64_t after, uint64_t before)
{
	return (int64_t)(after - before);
}

/* ---- 100,000 zero-size allocations -------------------------------------------- */

FIXTURE(kmem) {
	int unused;
};

FIXTURE_SETUP(kmem)
{
}

FIXTURE_TEARDOWN(kmem)
{
}

TEST_F_TIMEOUT(kmem, zero_size_allocations, 600)
{
	struct drm_vrampool_pool_status st;
	struct slab base, full, closed;
	struct drm_vrampool_alloc a;
	int64_t total, unreclaim;
	struct vp_device dev;
	uint64_t vram;
	int fd, i, ret;

	ASSERT_EQ(0, vp_find_backend(VP_BACKEND_PLATFORM, &dev)) TH_LOG("no emulated device");
	fd = vp_open_device(&dev);
	ASSERT_LE(0, fd) TH_LOG("%s: open: %s", dev.name, strerror(-fd));
	ASSERT_EQ(0, vp_pool(fd, 0, &st));
	ASSERT_EQ(0u, st.config.max_alloc_size) TH_LOG("pool 0 is not the default exclusive{0}");
	vram = vp_vram_in_use(fd);

	ASSERT_EQ(0, slab_settled(&base));
	for (i = 0; i < ZERO_ALLOCS; i++) {
		ret = vp_alloc(fd, 0, 0, &a);
		ASSERT_EQ(0, ret) TH_LOG("zero-size ALLOC %d: %s", i + 1, strerror(-ret));
	}
	ASSERT_EQ(0, slab_settled(&full));

	ASSERT_EQ(0, vp_pool(fd, 0, &st));
	EXPECT_EQ((uint64_t)ZERO_ALLOCS, st.allocations);
	EXPECT_EQ(0u, st.pages);
	EXPECT_EQ(0u, st.pages_peak);
	EXPECT_EQ(0u, st.reserved_bytes);
	EXPECT_EQ(vram, vp_vram_in_use(fd));

	unreclaim = grown(full.unreclaim, base.unreclaim);
	total = unreclaim + grown(full.reclaimable, base.reclaimable);
	ksft_print_msg("%d zero-size allocations: SUnreclaim %+" PRId64 " KiB (%.1f bytes each), "
		       "SReclaimable %+" PRId64 " KiB, slab in all %.1f bytes each\n",
		       ZERO_ALLOCS, unreclaim / 1024, (double)unreclaim / ZERO_ALLOCS,
		       grown(full.reclaimable, base.reclaimable) / 1024,
		       (double)total / ZERO_ALLOCS);
	EXPECT_GT((int64_t)ZERO_BUDGET * ZERO_ALLOCS, total) {
		TH_LOG("%.1f bytes of slab per zero-size allocation, the budget is %d",
		       (double)total / ZERO_ALLOCS, ZERO_BUDGET);
	}

	close(fd);
	for (i = 1; ; i++) {
		ASSERT_EQ(0, slab_settled(&closed));
		total = grown(closed.unreclaim, base.unreclaim) +
			grown(closed.reclaimable, base.reclaimable);
		if (total < (int64_t)CLOSE_SLACK || i == CLOSE_ROUNDS)
			break;
		sleep_ms(200);
	}
	ksft_print_msg("after close: slab %+" PRId64 " KiB from before (settled %d times)\n",
		       total / 1024, i);
	EXPECT_GT((int64_t)CLOSE_SLACK, total) TH_LOG("the client's slab did not go on close");
	fd = vp_open_device(&dev);
	ASSERT_LE(0, fd);
	EXPECT_EQ(vram, vp_vram_in_use(fd));
	close(fd);
	(void)self;
}

/* ---- Sparse handles -------------------------------------------------------------- */

/*
 * A file keeps one zero-size allocation of every 64 it makes: with handles
 * cyclic over 32 bits each kept handle would sit alone in a 576-byte node
 * of the handle table; within the window (DOC: handle window) they share
 * nodes, and the slab grows by less than SPARSE_BUDGET bytes per kept one.
 */
TEST_F_TIMEOUT(kmem, sparse_handles, 600)
{
	struct drm_vrampool_alloc_request reqs[SPARSE_RUN] = { 0 };
	struct drm_vrampool_alloc_answer ans[SPARSE_RUN];
	struct drm_vrampool_free_batch fb;
	struct drm_vrampool_alloc_batch b;
	uint32_t handles[SPARSE_RUN], top = 0;
	struct slab base, full;
	struct vp_device dev;
	int64_t total;
	int fd, i, j;

	ASSERT_EQ(0, vp_find_backend(VP_BACKEND_PLATFORM, &dev)) TH_LOG("no emulated device");
	fd = vp_open_device(&dev);
	ASSERT_LE(0, fd) TH_LOG("%s: open: %s", dev.name, strerror(-fd));

	ASSERT_EQ(0, slab_settled(&base));
	for (i = 0; i < SPARSE_KEPT; i++) {
		ASSERT_EQ(0, vp_alloc_batch(fd, reqs, ans, SPARSE_RUN, &b)) TH_LOG("run %d", i);
		for (j = 0; j < SPARSE_RUN; j++) {
			handles[j] = ans[j].handle;
			top = handles[j] > top ? handles[j] : top;
		}
		/* Keep the first of the run, free the rest. */
		ASSERT_EQ(0, vp_free_batch(fd, handles + 1, SPARSE_RUN - 1, &fb)) TH_LOG("run %d", i);
	}
	ASSERT_EQ(0, slab_settled(&full));
	total = grown(full.unreclaim, base.unreclaim) + grown(full.reclaimable, base.reclaimable);
	ksft_print_msg("%d kept of %d: slab %+" PRId64 " KiB, %.1f bytes per kept allocation, "
		       "highest handle %u\n", SPARSE_KEPT, SPARSE_KEPT * SPARSE_RUN, total / 1024,
		       (double)total / SPARSE_KEPT, top);
	EXPECT_GT((int64_t)SPARSE_BUDGET * SPARSE_KEPT, total) {
		TH_LOG("%.1f bytes of slab per kept allocation, the budget is %d",
		       (double)total / SPARSE_KEPT, SPARSE_BUDGET);
	}
	close(fd);
	(void)self;
}

/* ---- A flood inside a memory cgroup ---------------------------------------------- */

struct flood_result {
	int count;	/* ALLOCs that succeeded */
	int err;	/* errno of the one that failed, 0 if none did */
	int stage;	/* how far the child got, for the log */
};

/*
 * The memory controller of cgroup v2 at CGROOT, mounting it if needed
 * (*@mounted then says so); 0, or -1 with the skip reason in @why.
 */
static int memcg_ready(char *why, size_t len, bool *mounted)
{
	char buf[512], *tok, *save;

	*mounted = false;
	if (access(CGROOT "/cgroup.controllers", R_OK)) {
		if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL)) {
			snprintf(why, len, "no cgroup v2 memory controller: mounting cgroup2 on "
				 CGROOT ": %s", strerror(errno));
			return -1;
		}
		*mounted = true;
	}
	if (vp_read_line(CGROOT "/cgroup.controllers", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "memory"))
			return 0;
	}
	snprintf(why, len, "no cgroup v2 memory controller: " CGROOT
		 "/cgroup.controllers lists none (kernel without CONFIG_MEMCG)");
	if (*mounted)
		umount(CGROOT);
	*mounted = false;
	return -1;
}

/* Write to every stack page a later call may use, before the cgroup is joined. */
static void __attribute__((noinline)) touch_stack(void)
{
	volatile char buf[64 * 1024];
	size_t i;

	for (i = 0; i < sizeof(buf); i += 512)
		buf[i] = 0;
}

/*
 * The child: joins the cgroup through @procs and floods @fd with ALLOCs
 * until one fails. Every page it writes after joining was written before
 * (its stack, errno, *@res, a shared page): a page fault charged to a full
 * cgroup with no task to kill would retry forever.
 */
static void __attribute__((noreturn)) flood_child(int fd, int procs, struct flood_result *res)
{
	struct drm_vrampool_alloc a;
	int i;

	memset(&a, 0, sizeof(a));
	touch_stack();
	errno = 0;
	res->stage = 1;
	/* Unkillable: the cgroup's OOM killer finds nobody, so ALLOC gets ENOMEM. */
	if (vp_write_file("/proc/self/oom_score_adj", "-1000"))
		_exit(3);
	res->stage = 2;
	if (write(procs, "0", 1) != 1)
		_exit(4);
	res->stage = 3;
	for (i = 0; i < FLOOD; i++) {
		a.size = FLOOD_SIZE;
		if (ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a)) {
			res->err = errno;
			break;
		}
		res->count++;
	}
	res->stage = 4;
	close(fd);	/* frees it all, and uncharges it */
	_exit(0);
}

/*
 * Wait for @pid, however long it takes (a hang is the test's timeout):
 * its wait status, or -1.
 */
static int wait_child(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid ? status : -1;
}

static uint64_t memcg_event(const char *cg, const char *key)
{
	char path[256], buf[1024], *line;
	uint64_t v = 0;
	size_t n = strlen(key);

	snprintf(path, sizeof(path), "%s/memory.events", cg);
	if (vp_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, key, n) && line[n] == ' ')
			v = strtoull(line + n + 1, NULL, 10);
	}
	return v;
}

TEST_F_TIMEOUT(kmem, memcg_contains_a_flood, 600)
{
	struct flood_result *res;
	struct drm_vrampool_alloc a;
	char why[256], cg[128], path[192], max[32];
	struct vp_device dev;
	bool mounted;
	uint64_t vram;
	int fd, procs, status, i, ret;
	pid_t pid;

	if (memcg_ready(why, sizeof(why), &mounted))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vp_find_backend(VP_BACKEND_PLATFORM, &dev)) TH_LOG("no emulated device");
	vp_write_file(CGROOT "/cgroup.subtree_control", "+memory");
	snprintf(cg, sizeof(cg), CGROOT "/vrampool_kmem_test.%d", (int)getpid());
	ASSERT_EQ(0, mkdir(cg, 0755)) TH_LOG("mkdir %s: %s", cg, strerror(errno));
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	snprintf(max, sizeof(max), "%d", CG_MAX);
	ASSERT_EQ(0, vp_write_file(path, max)) TH_LOG("%s: no memory controller in it", path);
	snprintf(path, sizeof(path), "%s/memory.swap.max", cg);
	vp_write_file(path, "0");
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	procs = open(path, O_WRONLY);
	ASSERT_LE(0, procs) TH_LOG("%s: %s", path, strerror(errno));

	res = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	memset(res, 0, 4096);
	fd = vp_open_device(&dev);
	ASSERT_LE(0, fd);
	vram = vp_vram_in_use(fd);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		flood_child(fd, procs, res);
	close(fd);
	close(procs);
	status = wait_child(pid);

	ksft_print_msg("inside %s (memory.max %d KiB): %d of %d ALLOCs of %d bytes, then %s; "
		       "memory.events max %" PRIu64 ", oom %" PRIu64 "\n", cg, CG_MAX / 1024,
		       res->count, FLOOD, FLOOD_SIZE, res->err ? strerror(res->err) : "none failed",
		       memcg_event(cg, "max"), memcg_event(cg, "oom"));
	EXPECT_TRUE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		TH_LOG("the flooding child: wait status %d, stage %d (timed out, or killed)",
		       status, res->stage);
	}
	EXPECT_EQ(ENOMEM, res->err) TH_LOG("the flood inside the cgroup did not fail with ENOMEM");
	EXPECT_LT(0, res->count) TH_LOG("nothing succeeded inside the cgroup");
	EXPECT_GT(FLOOD, res->count);
	EXPECT_LT(0u, memcg_event(cg, "max"));
	/* Busy until the child's exit has left it: waited for, however long. */
	while ((ret = rmdir(cg)) && errno == EBUSY)
		sleep_ms(100);
	EXPECT_EQ(0, ret) TH_LOG("rmdir %s: %s", cg, strerror(errno));

	/* The same flood outside the cgroup succeeds. */
	fd = vp_open_device(&dev);
	ASSERT_LE(0, fd);
	EXPECT_EQ(vram, vp_vram_in_use(fd)) TH_LOG("the child's allocations did not all go");
	for (i = 0; i < FLOOD; i++) {
		ret = vp_alloc(fd, FLOOD_SIZE, 0, &a);
		ASSERT_EQ(0, ret) TH_LOG("outside the cgroup, ALLOC %d: %s", i + 1, strerror(-ret));
	}
	ksft_print_msg("outside: %d of %d ALLOCs of %d bytes\n", i, FLOOD, FLOOD_SIZE);
	close(fd);
	munmap(res, 4096);
	if (mounted)
		umount(CGROOT);
	(void)self;
}

TEST_HARNESS_MAIN

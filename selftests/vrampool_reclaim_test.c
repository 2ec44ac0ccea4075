// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sharing a device: reclaim of other clients' free cached pages (DOC:
 * reclaim in driver/vrampool_reclaim.c), on the first device of each
 * backend, with two and three clients:
 *
 *  - reclaim: A fills VRAM with 1 MiB slices, keeps two of them (data
 *    written through mmap) and frees the rest without a cleanup; B's
 *    16 MiB ALLOC succeeds, taking only the pages its page needs beyond the
 *    free VRAM: A's vrampool-reclaimed-bytes and -pages say exactly that,
 *    and its drm-purgeable-vram keeps the rest; the device's VRAM in use is
 *    the sum of the clients'; A allocates again from the pages it kept; A's
 *    data is intact throughout, and B, which had no free page, lost
 *    nothing; the device's sysfs reclaimed grows by what the clients lost;
 *  - order: A and C both hold free cached pages, A idle for longer; B's
 *    ALLOC takes what it needs of A's alone; then A, allocating again,
 *    takes C's (now the idlest) and never B's live page;
 *  - a busy client: A holds one live buffer and a VRAM of free cached
 *    ones and allocates and frees back to back in a child; B's request is
 *    served from A's cache (idle first is an order, not an exemption) and
 *    A's live bytes stay;
 *  - hopeless requests: larger than VRAM (by a byte, by a page, and
 *    2^64 - 4 KiB) fail with OutOfMemory, larger than the quota with
 *    QuotaExceeded, larger than the free VRAM and every other client's
 *    cache together with OutOfMemory, before any reclaim or cleanup: every
 *    cache is as it was;
 *  - many clients: 50, then 500 clients each hold a free cached buffer, and
 *    one request needs them all: it succeeds, every client gives its
 *    buffer, the time it took and the longest open() meanwhile are printed,
 *    and the walk's work (debugfs reclaim) grows no faster than n log n;
 *  - storm: 4 processes allocate, map, write, check, free and install for
 *    20 s under VRAM pressure without ever cleaning up, so that their ALLOCs
 *    reclaim from each other (each goes on past the 20 s until the device
 *    has reclaimed once: how much gets done in a time is never asserted);
 *    at the end, all stopped, their drm-total-vram adds
 *    up to the device's VRAM in use, every live allocation still holds its
 *    data, reclaim did happen and each client's counter is what the others'
 *    reclaim took; after they exit the device is back where it was.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define SLICE		(1 * MiB)
#define SLICED_PAGE	(8 * MiB)
#define BIG		(16 * MiB)
#define MAX_HANDLES	8192
/* The bytes of an allocation the tests write and check: its head and tail. */
#define EDGE		(4 * KiB)

/* ---- helpers ------------------------------------------------------------ */

/* A client's fdinfo figures. */
struct usage {
	uint64_t total;		/* drm-total-vram */
	uint64_t purgeable;	/* drm-purgeable-vram */
	uint64_t reclaimed;	/* vrampool-reclaimed-bytes */
	uint64_t reclaimed_pages; /* vrampool-reclaimed-pages */
};

static int fdinfo_u64(int fd, const char *key, uint64_t *v)
{
	char buf[VP_VAL_MAX];
	int ret = vp_fdinfo_get(fd, key, buf, sizeof(buf));

	return ret ? ret : vp_parse_u64(buf, v);
}

static int usage_read(int fd, struct usage *u)
{
	int ret;

	ret = vp_fdinfo_size(fd, "drm-total-vram", &u->total);
	if (!ret)
		ret = vp_fdinfo_size(fd, "drm-purgeable-vram", &u->purgeable);
	if (!ret)
		ret = fdinfo_u64(fd, "vrampool-reclaimed-bytes", &u->reclaimed);
	if (!ret)
		ret = fdinfo_u64(fd, "vrampool-reclaimed-pages", &u->reclaimed_pages);
	return ret;
}

#define USAGE(fd, u) ASSERT_EQ(0, usage_read(fd, u)) TH_LOG("fdinfo of fd %d", fd)

/* Writes (@write) or checks the head and tail of @a with pattern @seed. */
static int edges(int fd, const struct drm_vrampool_alloc *a, uint64_t size, uint32_t seed,
		 bool write)
{
	uint64_t n = size < EDGE ? size : EDGE, offs[2] = { 0, size - n };
	uint8_t *map;
	int i, bad = 0;

	map = mmap(NULL, a->page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, a->mmap_offset);
	if (map == MAP_FAILED)
		return -errno;
	for (i = 0; i < 2; i++) {
		uint8_t *p = map + a->offset + offs[i];

		if (write)
			vp_fill_pattern(p, n, seed, offs[i]);
		else if (vp_check_pattern(p, n, seed, offs[i]) >= 0)
			bad = -EILSEQ;
	}
	munmap(map, a->page_size);
	return bad;
}

static struct drm_vrampool_pool_entry one_sliced_pool(void)
{
	return vp_sliced(SLICED_PAGE, SLICE, VP_ABSENT);
}

/*
 * ALLOCs @size until VRAM is full (or, with @until_vram, until the client
 * holds that much); the last refusal must be OutOfMemory. Returns how many.
 */
static int fill(struct __test_metadata *_metadata, int fd, uint64_t size, uint64_t until_vram,
		struct drm_vrampool_alloc *as, int max)
{
	struct drm_vrampool_pool_query q;
	int n = 0, ret;

	for (;;) {
		if (until_vram) {
			ASSERT_EQ(0, vp_query_head(fd, &q));
			if (q.vram_in_use >= until_vram)
				return n;
		}
		ASSERT_LT(n, max) TH_LOG("more than %d allocations of %" PRIu64, max, size);
		ret = vp_alloc(fd, size, 0, &as[n]);
		if (ret)
			break;
		n++;
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, as[n].error.code);
	return n;
}

static void free_range(struct __test_metadata *_metadata, int fd,
		       const struct drm_vrampool_alloc *as, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		VP_FREE_OK(fd, as[i].handle, "a filler");
}

/* ---- two and three clients --------------------------------------------- */

FIXTURE(share) {
	struct vp_device dev;
	int a, b, c;
	uint64_t vram_size;
	uint64_t base;		/* VRAM in use before the test: nobody's here */
	uint64_t reclaimed;	/* the device's reclaimed total before the test */
	struct drm_vrampool_alloc *as, *cs;
};

VP_BACKEND_VARIANTS(share);

FIXTURE_SETUP(share)
{
	struct drm_vrampool_pool_entry e = one_sliced_pool();

	self->b = self->c = -1;
	self->a = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	self->b = vp_open_device(&self->dev);
	ASSERT_LE(0, self->b);
	self->c = vp_open_device(&self->dev);
	ASSERT_LE(0, self->c);
	ASSERT_EQ(0, vp_get_param(self->a, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram_size));
	ASSERT_LE(4 * BIG, self->vram_size);
	self->base = vp_vram_in_use(self->a);
	self->reclaimed = vp_sysfs_dev_u64(&self->dev, "reclaimed");
	ASSERT_NE(UINT64_MAX, self->reclaimed) TH_LOG("sysfs reclaimed");
	VP_INSTALL_OK(self->a, &e, 1, "A: 8 MiB pages of 1 MiB slices");
	VP_INSTALL_OK(self->c, &e, 1, "C: 8 MiB pages of 1 MiB slices");
	self->as = calloc(MAX_HANDLES, sizeof(*self->as));
	self->cs = calloc(MAX_HANDLES, sizeof(*self->cs));
	ASSERT_TRUE(self->as && self->cs);
}

FIXTURE_TEARDOWN(share)
{
	free(self->as);
	free(self->cs);
	if (self->c >= 0)
		close(self->c);
	if (self->b >= 0)
		close(self->b);
	close(self->a);
}

/*
 * B's page comes from A's free cached pages; A's live slices and their data
 * stay, and the counters say exactly what moved.
 */
TEST_F(share, reclaim_from_idle_client)
{
	struct usage a0, a1, a2, b1;
	struct drm_vrampool_alloc big, more[SLICED_PAGE / SLICE + 1];
	uint64_t page = vp_bo_bytes(SLICED_PAGE), id, free0;
	char cdir[VP_DIR_LEN], comm[32];
	int n, i;

	n = fill(_metadata, self->a, SLICE, 0, self->as, MAX_HANDLES);
	ASSERT_LE((int)(self->vram_size / 2 / SLICE), n);
	/* Slices 0 and 1 share page 0: A keeps that page, and their data. */
	ASSERT_EQ(self->as[0].page, self->as[1].page);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, edges(self->a, &self->as[i], SLICE, 100 + i, true));
	free_range(_metadata, self->a, self->as, 2, n);

	USAGE(self->a, &a0);
	EXPECT_EQ(a0.total - page, a0.purgeable) TH_LOG("all but page 0 is free");
	EXPECT_EQ(0u, a0.reclaimed);
	EXPECT_EQ(0u, a0.reclaimed_pages);
	EXPECT_EQ(self->base + a0.total, vp_vram_in_use(self->a));
	free0 = self->vram_size - vp_vram_in_use(self->a);

	VP_ALLOC_OK(self->b, BIG, 0, &big, "B's 16 MiB with VRAM full of A's free pages");
	ASSERT_EQ(0, edges(self->b, &big, BIG, 200, true));

	USAGE(self->a, &a1);
	USAGE(self->b, &b1);
	ASSERT_LT(free0, b1.total);
	/* Only what B's page needs: whole pages of A's, the oldest first. */
	EXPECT_EQ(vp_align_up(b1.total - free0, page), a1.reclaimed)
		TH_LOG("B's page %" PRIu64 " with %" PRIu64 " free", b1.total, free0);
	EXPECT_EQ(a1.reclaimed / page, a1.reclaimed_pages);
	EXPECT_EQ(a0.total - a1.reclaimed, a1.total);
	EXPECT_EQ(a0.purgeable - a1.reclaimed, a1.purgeable);
	EXPECT_LT(0u, a1.purgeable) TH_LOG("A keeps the free pages B did not need");
	EXPECT_EQ(0u, b1.reclaimed);
	EXPECT_LE(BIG, b1.total);
	EXPECT_EQ(self->base + a1.total + b1.total, vp_vram_in_use(self->a));
	EXPECT_EQ(self->reclaimed + a1.reclaimed, vp_sysfs_dev_u64(&self->dev, "reclaimed"));
	/* A's sysfs folder says what its fdinfo says. */
	ASSERT_EQ(0, vp_client_id(self->a, &id));
	vp_sysfs_client_path(&self->dev, id, cdir, sizeof(cdir));
	vp_my_comm(comm, sizeof(comm));
	vp_expect_client_matches(_metadata, cdir, self->a, getpid(), comm, "A after B's ALLOC");
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, edges(self->a, &self->as[i], SLICE, 100 + i, false)) TH_LOG("A's slice %d", i);

	/*
	 * A again: more slices than page 0 holds; the rest go in the oldest
	 * of the free pages A kept, no new page.
	 */
	for (i = 0; i < (int)ARRAY_SIZE(more); i++) {
		VP_ALLOC_OK(self->a, SLICE, 0, &more[i], "A again");
		ASSERT_EQ(0, edges(self->a, &more[i], SLICE, 300 + i, true));
	}
	USAGE(self->a, &a2);
	USAGE(self->b, &b1);
	EXPECT_EQ(a1.reclaimed, a2.reclaimed) TH_LOG("A's own ALLOCs reclaim nothing from A");
	EXPECT_EQ(a1.total, a2.total);
	EXPECT_EQ(a1.purgeable - page, a2.purgeable);
	EXPECT_EQ(0u, b1.reclaimed) TH_LOG("B had no free page to give");
	EXPECT_EQ(self->base + a2.total + b1.total, vp_vram_in_use(self->a));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, edges(self->a, &self->as[i], SLICE, 100 + i, false));
	for (i = 0; i < (int)ARRAY_SIZE(more); i++)
		EXPECT_EQ(0, edges(self->a, &more[i], SLICE, 300 + i, false));
	EXPECT_EQ(0, edges(self->b, &big, BIG, 200, false));
}

/* The idlest client gives first; a client with live pages only gives nothing. */
TEST_F(share, reclaim_oldest_idle_first)
{
	struct usage a0, c0, a1, b1, c1, a2, b2, c2;
	struct drm_vrampool_alloc big;
	uint64_t free0;
	int na, nc, n;

	/* A takes half of VRAM, C the rest; A frees first, but C allocated last. */
	na = fill(_metadata, self->a, SLICE, self->vram_size / 2, self->as, MAX_HANDLES);
	nc = fill(_metadata, self->c, SLICE, 0, self->cs, MAX_HANDLES);
	ASSERT_LT(0, nc);
	free_range(_metadata, self->a, self->as, 0, na);
	free_range(_metadata, self->c, self->cs, 0, nc);
	USAGE(self->a, &a0);
	USAGE(self->c, &c0);
	EXPECT_EQ(a0.total, a0.purgeable);
	EXPECT_EQ(c0.total, c0.purgeable);
	EXPECT_LE(BIG, a0.purgeable) TH_LOG("A's half holds B's page");

	free0 = self->vram_size - vp_vram_in_use(self->a);
	VP_ALLOC_OK(self->b, BIG, 0, &big, "B's 16 MiB");
	USAGE(self->a, &a1);
	USAGE(self->b, &b1);
	USAGE(self->c, &c1);
	ASSERT_LT(free0, b1.total);
	EXPECT_EQ(vp_align_up(b1.total - free0, vp_bo_bytes(SLICED_PAGE)), a1.reclaimed)
		TH_LOG("A, idle for longest, gave what B's page needs");
	EXPECT_EQ(a0.total - a1.reclaimed, a1.total);
	EXPECT_EQ(0u, c1.reclaimed) TH_LOG("C was not needed");
	EXPECT_EQ(c0.total, c1.total);
	EXPECT_EQ(self->base + a1.total + b1.total + c1.total, vp_vram_in_use(self->a));

	/* Now C is the idlest: A, filling VRAM, takes C's pages, never B's. */
	n = fill(_metadata, self->a, SLICE, 0, self->as, MAX_HANDLES);
	USAGE(self->a, &a2);
	USAGE(self->b, &b2);
	USAGE(self->c, &c2);
	EXPECT_EQ(c0.purgeable, c2.reclaimed) TH_LOG("C gave all its free pages");
	EXPECT_EQ(c0.purgeable / vp_bo_bytes(SLICED_PAGE), c2.reclaimed_pages);
	EXPECT_EQ(0u, c2.total);
	EXPECT_EQ(0u, b2.reclaimed) TH_LOG("B's page is live");
	EXPECT_EQ(b1.total, b2.total);
	EXPECT_EQ(a1.reclaimed, a2.reclaimed);
	EXPECT_EQ(self->base + a2.total + b2.total + c2.total, vp_vram_in_use(self->a));
	EXPECT_EQ(self->reclaimed + a2.reclaimed + c2.reclaimed,
		  vp_sysfs_dev_u64(&self->dev, "reclaimed"));
	EXPECT_LE((int)((self->vram_size - self->base - b2.total) / SLICE) - (int)(SLICED_PAGE / SLICE), n);
	free_range(_metadata, self->a, self->as, 0, n);
}

/*
 * Idle first is an order, not an exemption: A holds one live buffer and
 * fills the rest of VRAM with free cached ones, then allocates and frees
 * back to back in a child process; B's request succeeds from A's cache,
 * and A's live bytes are intact.
 */
TEST_F(share, busy_client_cache_reclaimed)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	struct drm_vrampool_alloc keep, big;
	volatile uint64_t *busy_rounds;
	struct usage a1;
	int na, status;
	pid_t pid;

	VP_INSTALL_OK(self->a, &direct, 1, "A: one direct pool");
	VP_INSTALL_OK(self->b, &direct, 1, "B: one direct pool");
	VP_ALLOC_OK(self->a, 4 * KiB, 0, &keep, "A's live buffer");
	ASSERT_EQ(0, edges(self->a, &keep, 4 * KiB, 7, true));
	na = fill(_metadata, self->a, BIG / 4, 0, self->as, MAX_HANDLES);
	ASSERT_LE(4, na);
	/*
	 * The busy loop's buffer, made in what the 4 MiB buffers left: the
	 * loop reuses it, and never needs a new page (whose ALLOC would clean
	 * A's own cache up first).
	 */
	VP_ALLOC_OK(self->a, 8 * KiB, 0, &big, "A's busy buffer");
	VP_FREE_OK(self->a, big.handle, "A's busy buffer, cached");
	free_range(_metadata, self->a, self->as, 0, na);

	busy_rounds = mmap(NULL, sizeof(*busy_rounds), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, (void *)busy_rounds);
	*busy_rounds = 0;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct drm_vrampool_alloc t;

		for (;;) {
			if (!vp_alloc(self->a, 8 * KiB, 0, &t))
				vp_free(self->a, t.handle);
			(*busy_rounds)++;
		}
	}
	while (*busy_rounds < 100)
		usleep(1000);
	VP_ALLOC_OK(self->b, BIG, 0, &big, "B's 16 MiB, from busy A's cache");
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	USAGE(self->a, &a1);
	EXPECT_LE(BIG, a1.reclaimed) TH_LOG("busy A gave its free cached buffers");
	EXPECT_EQ(0, edges(self->a, &keep, 4 * KiB, 7, false)) TH_LOG("A's live bytes");
	VP_FREE_OK(self->b, big.handle, "B's 16 MiB");
	VP_FREE_OK(self->a, keep.handle, "A's live buffer");
	munmap((void *)busy_rounds, sizeof(*busy_rounds));
}

/*
 * A request no reclaim can serve fails before any: larger than VRAM
 * (OutOfMemory, 2^64 - 4 KiB too), larger than the quota (QuotaExceeded),
 * larger than the free VRAM and all the other clients' caches
 * (OutOfMemory); nobody else's cache is touched, and for the first two
 * not even the requester's own.
 */
TEST_F(share, hopeless_requests_reclaim_nothing)
{
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	const uint64_t huge[] = {
		self->vram_size + 1, self->vram_size + 4 * KiB, UINT64_MAX - 4 * KiB + 1,
	};
	struct drm_vrampool_alloc a[2], r, live;
	struct usage a0, c0, a1, c1;
	char quota_path[VP_PATH_LEN], buf[32];
	uint64_t quota_start, reclaimed, beyond;
	unsigned int i;
	int ret;

	VP_INSTALL_OK(self->a, &direct, 1, "A: one direct pool");
	VP_INSTALL_OK(self->c, &direct, 1, "C: one direct pool");
	VP_ALLOC_OK(self->a, BIG, 0, &a[0], "A's buffer");
	VP_ALLOC_OK(self->c, BIG, 0, &a[1], "C's buffer");
	VP_FREE_OK(self->a, a[0].handle, "A's buffer, cached");
	VP_FREE_OK(self->c, a[1].handle, "C's buffer, cached");
	USAGE(self->a, &a0);
	USAGE(self->c, &c0);
	reclaimed = vp_sysfs_dev_u64(&self->dev, "reclaimed");

	for (i = 0; i < ARRAY_SIZE(huge); i++) {
		ret = vp_alloc(self->a, huge[i], DRM_VRAMPOOL_ALLOC_PERSISTENT, &r);
		EXPECT_EQ(-ENOSPC, ret) TH_LOG("ALLOC of %" PRIu64, huge[i]);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, r.error.code);
	}

	vp_sysfs_dev_path(&self->dev, "vram_quota", quota_path, sizeof(quota_path));
	ASSERT_EQ(0, vp_read_u64_file(quota_path, &quota_start));
	snprintf(buf, sizeof(buf), "%" PRIu64, self->vram_size / 2);
	ASSERT_EQ(0, vp_write_file(quota_path, buf));
	ret = vp_alloc(self->a, self->vram_size / 2 + 4 * KiB, 0, &r);
	snprintf(buf, sizeof(buf), "%" PRIu64, quota_start);
	ASSERT_EQ(0, vp_write_file(quota_path, buf));
	EXPECT_EQ(-EDQUOT, ret);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, r.error.code);
	EXPECT_EQ(self->vram_size / 2, r.error.capacity);

	/*
	 * Fits VRAM, but not in what is free and all the others' caches
	 * together (B holds a live buffer): nobody's cache is touched.
	 */
	VP_ALLOC_OK(self->b, 64 * KiB, 0, &live, "B's live buffer");
	beyond = self->vram_size - vp_vram_in_use(self->a) + a0.purgeable + c0.purgeable + 4 * KiB;
	ASSERT_GE(self->vram_size, beyond);
	ret = vp_alloc(self->b, beyond, DRM_VRAMPOOL_ALLOC_PERSISTENT, &r);
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("ALLOC of all the caches and a page more");
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, r.error.code);
	VP_FREE_OK(self->b, live.handle, "B's live buffer");

	USAGE(self->a, &a1);
	USAGE(self->c, &c1);
	EXPECT_EQ(a0.purgeable, a1.purgeable) TH_LOG("A's own cache was not cleaned");
	EXPECT_EQ(c0.purgeable, c1.purgeable) TH_LOG("C's cache was not reclaimed");
	EXPECT_EQ(0u, c1.reclaimed);
	EXPECT_EQ(reclaimed, vp_sysfs_dev_u64(&self->dev, "reclaimed"));
}

/* ---- many clients ------------------------------------------------------ */

#define SCALE_FEW	50
#define SCALE_MANY	500

FIXTURE(scale) {
	struct vp_device dev;
	int fd;
};

VP_BACKEND_VARIANTS(scale);

FIXTURE_SETUP(scale)
{
	struct rlimit rl;

	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_cur < SCALE_MANY + 64) {
		rl.rlim_cur = rl.rlim_max;
		ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	}
	ASSERT_LE((rlim_t)SCALE_MANY + 64, rl.rlim_cur) TH_LOG("RLIMIT_NOFILE");
	ASSERT_EQ(0, vp_debugfs_ready());
}

FIXTURE_TEARDOWN(scale)
{
	close(self->fd);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The device's reclaim work so far (debugfs reclaim: "work N"). */
static uint64_t reclaim_work(struct __test_metadata *_metadata, const struct vp_device *dev)
{
	char path[VP_PATH_LEN], buf[128];
	const char *w;
	uint64_t v = 0;

	EXPECT_EQ(0, vp_debugfs_path(dev, "reclaim", path, sizeof(path)));
	EXPECT_EQ(0, vp_read_file(path, buf, sizeof(buf)));
	w = strstr(buf, "work ");
	EXPECT_NE(NULL, w);
	if (w)
		EXPECT_EQ(0, vp_parse_u64(strtok((char *)w + 5, "\n"), &v));
	return v;
}

/*
 * @n clients each hold one free cached persistent buffer, together most
 * of the free VRAM; a new client's request needs all of them. It succeeds;
 * its time and the longest open() of the device meanwhile are printed.
 * Returns the walk's work.
 */
static uint64_t reclaim_over(struct __test_metadata *_metadata, const struct vp_device *dev,
			     int fd0, int n)
{
	uint64_t vram, free0, each, want, work, t0, t1, rec0;
	struct drm_vrampool_alloc a, big;
	volatile uint64_t *shared;
	int *fds = calloc(n, sizeof(*fds)), req, i, status;
	pid_t pid;

	ASSERT_NE(NULL, fds);
	ASSERT_EQ(0, vp_get_param(fd0, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &vram));
	free0 = vram - vp_vram_in_use(fd0);
	each = free0 / (n + 1) / (4 * KiB) * (4 * KiB);
	ASSERT_LE(8 * KiB, each);
	for (i = 0; i < n; i++) {
		fds[i] = vp_open_device(dev);
		ASSERT_LE(0, fds[i]) TH_LOG("client %d of %d", i, n);
		VP_ALLOC_OK(fds[i], each, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "a client's buffer");
		VP_FREE_OK(fds[i], a.handle, "a client's buffer, cached");
	}
	req = vp_open_device(dev);
	ASSERT_LE(0, req);
	/* Everyone's cache, but half of the last buffer: every client gives. */
	want = (vram - vp_vram_in_use(fd0)) + (uint64_t)n * each - each / 2;
	want = want / (4 * KiB) * (4 * KiB);

	shared = mmap(NULL, 2 * sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, (void *)shared);
	shared[0] = 0;	/* the parent: stop */
	shared[1] = 0;	/* the child: its longest open(), in ns */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		while (!shared[0]) {
			uint64_t t = now_ns();
			int f = vp_open_device(dev);

			t = now_ns() - t;
			if (f >= 0)
				close(f);
			if (t > shared[1])
				shared[1] = t;
		}
		_exit(0);
	}
	usleep(20000);

	rec0 = vp_sysfs_dev_u64(dev, "reclaimed");
	work = reclaim_work(_metadata, dev);
	t0 = now_ns();
	VP_ALLOC_OK(req, want, DRM_VRAMPOOL_ALLOC_PERSISTENT, &big, "the request that needs all");
	t1 = now_ns();
	work = reclaim_work(_metadata, dev) - work;
	shared[0] = 1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("%d clients: the ALLOC took %" PRIu64 " us, reclaim work %" PRIu64
	       ", the longest open() meanwhile %" PRIu64 " us",
	       n, (t1 - t0) / 1000, work, shared[1] / 1000);
	EXPECT_EQ(rec0 + (uint64_t)n * each, vp_sysfs_dev_u64(dev, "reclaimed"))
		TH_LOG("each of the %d clients gave its buffer", n);
	munmap((void *)shared, 2 * sizeof(*shared));
	close(req);
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return work;
}

/*
 * Reclaim over 500 clients costs no more than O(n log n) against 50: its
 * work (clients examined, compared, visited) grows by at most 1.25 times
 * 10 log2(500) / log2(50); O(n^2) would be 100 times.
 */
TEST_F_TIMEOUT(scale, reclaim_over_many_clients, 300)
{
	uint64_t few, many;
	double bound = 10.0 * 8.966 / 5.644 * 1.25;

	few = reclaim_over(_metadata, &self->dev, self->fd, SCALE_FEW);
	many = reclaim_over(_metadata, &self->dev, self->fd, SCALE_MANY);
	ASSERT_LT(0u, few);
	TH_LOG("work %" PRIu64 " over %d clients, %" PRIu64 " over %d: %.1f times (at most %.1f)",
	       few, SCALE_FEW, many, SCALE_MANY, (double)many / few, bound);
	EXPECT_LE((double)many, bound * few);
}

/* ---- the storm ------------------------------------------------------------ */

#define STORM_CLIENTS	4
#define STORM_SECONDS	20
#define STORM_LIVE	256

struct storm_report {
	uint64_t total, reclaimed, allocs, ooms, installs, bad;
};

struct storm_live {
	struct drm_vrampool_alloc a;
	uint64_t size;
	uint32_t seed;
};

static uint64_t storm_size(unsigned int *rnd)
{
	static const uint64_t sizes[] = { 4 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 3 * MiB, 12 * MiB };

	return sizes[rand_r(rnd) % ARRAY_SIZE(sizes)];
}

static void storm_free(int fd, struct storm_live *live, int *n, int i, struct storm_report *r)
{
	if (edges(fd, &live[i].a, live[i].size, live[i].seed, false))
		r->bad++;
	if (vp_free(fd, live[i].a.handle))
		r->bad++;
	live[i] = live[--*n];
}

/*
 * One storm client: until @end and until the device's reclaimed counter
 * has moved past @reclaimed (so the storm did reclaim, however slow the
 * machine), never a cleanup; then report and wait.
 */
static void storm_child(const struct vp_device *dev, int k, time_t end, uint64_t reclaimed,
			int report, int go)
{
	struct drm_vrampool_pool_entry layouts[2][2] = {
		{ vp_sliced(SLICED_PAGE, SLICE, VP_ABSENT), vp_exclusive(64 * MiB, VP_ABSENT) },
		{ vp_sliced(4 * MiB, 256 * KiB, VP_ABSENT), vp_direct(VP_ABSENT) },
	};
	struct storm_live *live = calloc(STORM_LIVE, sizeof(*live));
	struct storm_report r = { 0 };
	unsigned int rnd = 1234 + k;
	uint32_t seed = (uint32_t)k << 24;
	int fd = vp_open_device(dev), n = 0, i, ret;
	char c;

	if (fd < 0 || !live)
		_exit(2);
	while (time(NULL) < end || vp_sysfs_dev_u64(dev, "reclaimed") == reclaimed) {
		unsigned int op = rand_r(&rnd) % 64;

		if (op < 36 && n < STORM_LIVE) {
			struct storm_live *l = &live[n];

			l->size = storm_size(&rnd);
			l->seed = ++seed;
			ret = vp_alloc(fd, l->size, 0, &l->a);
			if (ret == -ENOSPC && l->a.error.code == DRM_VRAMPOOL_ERR_OUT_OF_MEMORY) {
				r.ooms++;
				while (n > STORM_LIVE / 8)	/* make room, then go on */
					storm_free(fd, live, &n, rand_r(&rnd) % n, &r);
				continue;
			}
			if (ret) {
				fprintf(stderr, "# storm client %d: ALLOC(%" PRIu64 "): %s, code %u\n",
					k, l->size, strerror(-ret), l->a.error.code);
				r.bad++;
				continue;
			}
			r.allocs++;
			if (edges(fd, &l->a, l->size, l->seed, true))
				r.bad++;
			n++;
		} else if (op < 63 && n) {
			storm_free(fd, live, &n, rand_r(&rnd) % n, &r);
		} else if (op == 63) {
			/* An install: the dynamic pools must be empty first. */
			while (n)
				storm_free(fd, live, &n, n - 1, &r);
			ret = vp_install_list(fd, layouts[r.installs % 2], 2, NULL);
			if (ret) {
				fprintf(stderr, "# storm client %d: POOL_INSTALL: %s\n", k,
					strerror(-ret));
				r.bad++;
			}
			r.installs++;
		}
	}
	/*
	 * Stopped: say so, and wait until every client has (until then another
	 * one may still reclaim from this one); then every live allocation is
	 * checked and the fdinfo figures are reported.
	 */
	if (write(report, "s", 1) != 1 || read(go, &c, 1) != 1)
		_exit(3);
	for (i = 0; i < n; i++) {
		if (edges(fd, &live[i].a, live[i].size, live[i].seed, false))
			r.bad++;
	}
	if (vp_fdinfo_size(fd, "drm-total-vram", &r.total) ||
	    fdinfo_u64(fd, "vrampool-reclaimed-bytes", &r.reclaimed))
		r.bad++;
	if (write(report, &r, sizeof(r)) != sizeof(r))
		_exit(3);
	if (read(go, &c, 1) != 1)
		_exit(4);
	/* After the parent's sum: the data once more, then exit (which closes). */
	for (i = 0; i < n; i++) {
		if (edges(fd, &live[i].a, live[i].size, live[i].seed, false))
			_exit(5);
	}
	_exit(0);
}

FIXTURE(storm) {
	struct vp_device dev;
	int fd;
};

VP_BACKEND_VARIANTS(storm);

FIXTURE_SETUP(storm)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
}

FIXTURE_TEARDOWN(storm)
{
	close(self->fd);
}

TEST_F_TIMEOUT(storm, reclaim_storm, 120)
{
	struct storm_report r[STORM_CLIENTS];
	uint64_t sum = 0, reclaimed = 0, before = vp_vram_in_use(self->fd);
	uint64_t dev_reclaimed = vp_sysfs_dev_u64(&self->dev, "reclaimed");
	int report[2], go[STORM_CLIENTS][2], k, status;
	pid_t pids[STORM_CLIENTS];
	time_t end;

	/* One report pipe for all; a go pipe each, so that each reads its own go. */
	ASSERT_EQ(0, pipe(report));
	for (k = 0; k < STORM_CLIENTS; k++)
		ASSERT_EQ(0, pipe(go[k]));
	end = time(NULL) + STORM_SECONDS;
	for (k = 0; k < STORM_CLIENTS; k++) {
		pids[k] = fork();
		ASSERT_LE(0, pids[k]);
		if (!pids[k]) {
			close(report[0]);
			storm_child(&self->dev, k, end, dev_reclaimed, report[1], go[k][0]);
		}
	}
	close(report[1]);
	for (k = 0; k < STORM_CLIENTS; k++)
		close(go[k][0]);

	/* Every client stopped, then all report at once: nobody allocates now. */
	for (k = 0; k < STORM_CLIENTS; k++) {
		char c;

		ASSERT_EQ(1, read(report[0], &c, 1)) TH_LOG("client %d stopping", k);
		ASSERT_EQ('s', c);
	}
	for (k = 0; k < STORM_CLIENTS; k++)
		ASSERT_EQ(1, write(go[k][1], "r", 1));
	for (k = 0; k < STORM_CLIENTS; k++) {
		ASSERT_EQ((ssize_t)sizeof(r[k]), read(report[0], &r[k], sizeof(r[k])))
			TH_LOG("client %d's report", k);
		sum += r[k].total;
		reclaimed += r[k].reclaimed;
		TH_LOG("client %d: %" PRIu64 " allocs, %" PRIu64 " out of memory, %" PRIu64
		       " installs, holds %" PRIu64 ", others reclaimed %" PRIu64, k, r[k].allocs,
		       r[k].ooms, r[k].installs, r[k].total, r[k].reclaimed);
		EXPECT_EQ(0u, r[k].bad) TH_LOG("client %d: lost data or a failed call", k);
	}
	/* All paused: the clients' VRAM is the device's. */
	EXPECT_EQ(before + sum, vp_vram_in_use(self->fd));
	EXPECT_LT(0u, reclaimed) TH_LOG("the storm must reclaim across clients");
	EXPECT_EQ(dev_reclaimed + reclaimed, vp_sysfs_dev_u64(&self->dev, "reclaimed"))
		TH_LOG("the device's total is the clients' sum");

	for (k = 0; k < STORM_CLIENTS; k++)
		ASSERT_EQ(1, write(go[k][1], "g", 1));
	for (k = 0; k < STORM_CLIENTS; k++) {
		ASSERT_EQ(pids[k], waitpid(pids[k], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("client %d: status %#x", k, status);
	}
	EXPECT_EQ(before, vp_vram_in_use(self->fd));
	close(report[0]);
	for (k = 0; k < STORM_CLIENTS; k++)
		close(go[k][1]);
}

TEST_HARNESS_MAIN

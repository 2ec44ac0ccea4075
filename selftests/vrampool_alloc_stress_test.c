// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocations under concurrency, on the first device of each backend:
 * threads sharing one client and threads with a client each allocate,
 * write a pattern of their own through a mapping, check it, and free,
 * while other threads clean up, query and try to install layouts. No two
 * live allocations may overlap (every pattern reads back intact), every
 * ioctl answers as documented, and at the end every pool is empty and the
 * device's VRAM_IN_USE is back to its start value. Kernel reports (lockdep,
 * KASAN) are the VM log checker's business.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define WORKERS		4
#define ROUNDS		100
#define LIVE		6		/* allocations each worker holds at once */
#define STRESS_TIMEOUT	240

FIXTURE(stress) {
	int fd;
	struct vp_device dev;
	uint64_t vram_start;
};

VP_BACKEND_VARIANTS(stress);

FIXTURE_SETUP(stress)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
}

FIXTURE_TEARDOWN(stress)
{
	if (self->fd >= 0)
		close(self->fd);
}

struct live {
	struct drm_vrampool_alloc a;
	uint8_t *map;			/* the page, mapped */
	uint32_t seed;
};

struct worker {
	pthread_t thread;
	int fd;
	unsigned int id;
	volatile int *stop;
	int rounds;			/* an allocator's rounds done */
	char error[256];		/* the first problem, empty when none */
};

static uint32_t rnd(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

static void fail(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(w->error, sizeof(w->error), fmt, ap);
	va_end(ap);
	*w->stop = 1;
}

/* Check and drop one live allocation. */
static void retire(struct worker *w, struct live *l)
{
	ssize_t bad;
	int ret;

	if (l->map) {
		bad = vp_check_pattern(l->map + l->a.offset, l->a.size, l->seed, 0);
		if (bad >= 0)
			fail(w, "worker %u: allocation %u (pool %u page %u offset %" PRIu64
			     ", %" PRIu64 " bytes) was overwritten at byte %zd", w->id,
			     l->a.handle, l->a.pool, l->a.page, (uint64_t)l->a.offset,
			     (uint64_t)l->a.size, bad);
		munmap(l->map, l->a.page_size);
	}
	ret = vp_free(w->fd, l->a.handle);
	if (ret)
		fail(w, "worker %u: FREE(%u): %s", w->id, l->a.handle, strerror(-ret));
	memset(l, 0, sizeof(*l));
}

/* Allocate, map, write its pattern; hold up to LIVE at once. */
static void *allocator(void *p)
{
	struct worker *w = p;
	struct live live[LIVE] = { 0 };
	uint32_t state = 0x9e3779b9u * (w->id + 1);
	int round, i, ret;

	for (round = 0; round < ROUNDS && !*w->stop; round++) {
		struct live *l = &live[round % LIVE];
		uint32_t r = rnd(&state);
		uint32_t kind = (r >> 4) % 16;
		/* Mostly slices, some zero-size, a few exclusive and direct. */
		uint64_t size = kind == 0 ? 0 : kind == 1 ? 1 * MiB - r % 4096 :
				kind == 2 ? 3 * MiB / 2 + r % 4096 : r % (48 * KiB);
		uint32_t flags = (r >> 8) % 16 ? 0 : DRM_VRAMPOOL_ALLOC_PERSISTENT;

		if (l->a.handle)
			retire(w, l);
		ret = vp_alloc(w->fd, size, flags, &l->a);
		if (ret) {
			fail(w, "worker %u: ALLOC(%" PRIu64 ", %#x): %s, code %u", w->id, size,
			     flags, strerror(-ret), l->a.error.code);
			break;
		}
		if (!size)
			continue;
		l->map = mmap(NULL, l->a.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd,
			      l->a.mmap_offset);
		if (l->map == MAP_FAILED) {
			l->map = NULL;
			fail(w, "worker %u: mmap: %s", w->id, strerror(errno));
			break;
		}
		l->seed = (w->id << 24) | round;
		vp_fill_pattern(l->map + l->a.offset, size, l->seed, 0);
	}
	w->rounds = round;
	for (i = 0; i < LIVE; i++) {
		if (live[i].a.handle)
			retire(w, &live[i]);
	}
	return NULL;
}

/* CLEANUP, POOL_QUERY and refused installs while the allocators run. */
static void *meddler(void *p)
{
	struct worker *w = p;
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	struct drm_vrampool_pool_install ins;
	struct vp_snap s;
	int ret, n = 0;

	while (!*w->stop) {
		ret = vp_cleanup(w->fd);
		if (ret)
			fail(w, "CLEANUP: %s", strerror(-ret));
		ret = vp_snap_take(w->fd, &s);
		if (ret)
			fail(w, "POOL_QUERY: %s", strerror(-ret));
		/* TEST_ONLY: never swaps, EBUSY while allocations live. */
		vp_req_list(&ins, &e, 1, DRM_VRAMPOOL_INSTALL_TEST_ONLY);
		ret = vp_install(w->fd, &ins);
		if (ret && ret != -EBUSY)
			fail(w, "TEST_ONLY install: %s", strerror(-ret));
		if (++n % 8 == 0)
			usleep(1000);
	}
	return NULL;
}

static void run_workers(struct __test_metadata *_metadata, struct worker *w, int n)
{
	volatile int stop = 0;
	int i;

	for (i = 0; i < n; i++) {
		w[i].stop = &stop;
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, w[i].id == 99 ? meddler : allocator,
					    &w[i]));
	}
	/* The meddler (last) runs until every allocator is done. */
	for (i = 0; i < n; i++) {
		if (w[i].id == 99)
			continue;
		pthread_join(w[i].thread, NULL);
	}
	stop = 1;
	for (i = 0; i < n; i++) {
		if (w[i].id == 99)
			pthread_join(w[i].thread, NULL);
	}
	for (i = 0; i < n; i++) {
		EXPECT_STREQ("", w[i].error);
		/* Every allocator went the whole way, none was stopped early. */
		if (w[i].id != 99)
			EXPECT_EQ(ROUNDS, w[i].rounds) TH_LOG("worker %u", w[i].id);
	}
}

/*
 * Every pool type: zero-size requests, slices (64 KiB at most, in 256 KiB
 * pages), exclusive pages up to 1 MiB released after idle checks every
 * 10 allocations, direct buffers above that with a 4 MiB watermark; at
 * most 24 allocations of 1.5 MiB live, which fits the 64 MiB PCI device.
 */
static void install_stress_layout(struct __test_metadata *_metadata, int fd)
{
	struct drm_vrampool_pool_entry e[4] = {
		vp_exclusive(0, VP_ABSENT),
		vp_sliced(256 * KiB, 64 * KiB, VP_ABSENT),
		vp_exclusive(1 * MiB, 50),
		vp_direct(4 * MiB),
	};

	VP_INSTALL_OK(fd, e, 4, "the stress layout");
}

/* Every pool of @fd holds no allocation, and a cleanup empties it. */
static void expect_empty(struct __test_metadata *_metadata, int fd, const char *who)
{
	struct vp_snap s;
	const struct drm_vrampool_pool_status *st = s.pools;
	uint32_t i;
	int ret;

	ASSERT_EQ(0, vp_cleanup(fd));
	ret = vp_snap_take(fd, &s);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", who, strerror(-ret));
	ASSERT_LT(0u, s.count) TH_LOG("%s: POOL_QUERY: no pool", who);
	for (i = 0; i < s.count; i++) {
		EXPECT_EQ(0u, st[i].allocations) TH_LOG("%s: pool %u", who, st[i].index);
		EXPECT_EQ(0u, st[i].bytes_in_use) TH_LOG("%s: pool %u", who, st[i].index);
		EXPECT_EQ(0u, st[i].padding) TH_LOG("%s: pool %u", who, st[i].index);
		EXPECT_EQ(0u, st[i].pages) TH_LOG("%s: pool %u", who, st[i].index);
		EXPECT_EQ(0u, st[i].reserved_bytes) TH_LOG("%s: pool %u", who, st[i].index);
	}
	EXPECT_EQ(0u, s.vram_in_use) TH_LOG("%s", who);
}

/* Threads sharing one client: slices of the same pages, one lock. */
TEST_F_TIMEOUT(stress, threads_sharing_a_client, STRESS_TIMEOUT)
{
	struct worker w[WORKERS + 1];
	int i;

	memset(w, 0, sizeof(w));
	install_stress_layout(_metadata, self->fd);
	for (i = 0; i <= WORKERS; i++) {
		w[i].fd = self->fd;
		w[i].id = i < WORKERS ? (unsigned int)i : 99;
	}
	run_workers(_metadata, w, WORKERS + 1);
	expect_empty(_metadata, self->fd, "the shared client");
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
}

/* A client per thread: the device's VRAM shared, each with a meddler. */
TEST_F_TIMEOUT(stress, a_client_per_thread, STRESS_TIMEOUT)
{
	struct worker w[2 * WORKERS];
	int i;

	memset(w, 0, sizeof(w));
	for (i = 0; i < WORKERS; i++) {
		w[i].fd = vp_open_device(&self->dev);
		ASSERT_LE(0, w[i].fd);
		install_stress_layout(_metadata, w[i].fd);
		w[i].id = (unsigned int)i;
		w[WORKERS + i].fd = w[i].fd;
		w[WORKERS + i].id = 99;
	}
	run_workers(_metadata, w, 2 * WORKERS);
	for (i = 0; i < WORKERS; i++) {
		expect_empty(_metadata, w[i].fd, "a client of its own");
		close(w[i].fd);
	}
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd));
}

TEST_HARNESS_MAIN

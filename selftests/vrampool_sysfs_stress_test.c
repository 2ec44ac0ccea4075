// SPDX-License-Identifier: GPL-2.0-only
/*
 * Readers of every sysfs clients/ file racing with opens, closes, installs
 * and allocations, for a bounded time, on each backend (the first device of
 * each): no read fails but with ENOENT or ENODEV (a folder that went), no
 * value is malformed, nothing hangs, and once the writers are gone clients/,
 * client_count and VRAM are as they were.
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
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define P255		DRM_VRAMPOOL_PERSISTENT_POOL

VP_SYSFS_CLIENT_FIXTURE(sysfs_stress);

#define RACE_SECS	3
#define RACE_READERS	3
#define RACE_WRITERS	3

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
	[VP_PF_PAGES ... VP_PF_PAGES_MADE] = RK_U64,
};

/* A pool's file, which may vanish: every field of the right kind. */
static void race_read_stats(struct race_child *st, const char *pools, const char *index)
{
	char file[VP_FILE_LEN], text[VP_FILE_LEN], v[VP_VAL_MAX];
	int f, ret;

	snprintf(file, sizeof(file), "%s/%s", pools, index);
	ret = vp_read_file(file, text, sizeof(text));
	if (ret == -ENOENT || ret == -ENODEV) {
		st->vanished++;
		return;
	}
	if (ret) {
		race_fail(st, "read %s: %s", file, strerror(-ret));
		return;
	}
	st->reads++;
	for (f = 0; f < VP_PF_COUNT; f++) {
		ret = vp_pool_stats_field(text, vp_pool_files[f], v, sizeof(v));
		if (ret)
			race_fail(st, "%s: field %s: %s", file, vp_pool_files[f], strerror(-ret));
		else if (!race_value_ok(pool_kinds[f], v))
			race_fail(st, "%s: %s is \"%s\"", file, vp_pool_files[f], v);
	}
}

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
		{ "persistent_mode", RK_MODE }, { "vram", RK_U64 }, { "purgeable", RK_U64 },
		{ "reclaimed", RK_U64 }, { "reclaimed_pages", RK_U64 },
	};
	static struct vp_names ids, pools;
	char path[VP_PATH_LEN];
	unsigned int k;
	int i, j, ret;

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
			race_read_stats(st, path, pools.v[j]);
		}
	}
}

static void race_reader(struct race_child *st, const char *clients, double deadline)
{
	/* At least one round, however late the child starts. */
	do {
		race_walk(st, clients);
		st->rounds++;
	} while (now_secs() < deadline);
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
	/* At least one round, however late the child starts. */
	do {
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
	} while (now_secs() < deadline && !st->errors);
	close(keep);
}

/*
 * Readers walk every file of clients/ while writers open and close files,
 * install layouts of alternating sizes and allocate, for RACE_SECS. No read
 * may fail but with ENOENT or ENODEV, no value may be malformed; after the
 * writers are gone, clients/, client_count and VRAM are as they were. The
 * children run until the deadline, at least one round each, and are waited
 * for however long they take: a hang is the test's timeout, no clock's.
 */
TEST_F_TIMEOUT(sysfs_stress, readers_race_with_opens_installs_and_allocations, 90)
{
	const int nchild = RACE_READERS + RACE_WRITERS;
	static struct vp_names start, end;
	struct race_child *st;
	pid_t pids[RACE_READERS + RACE_WRITERS];
	char clients[VP_DIR_LEN], x[2048], y[2048];
	uint64_t reads = 0, vanished = 0, rounds = 0, installs = 0, busy = 0;
	double deadline;
	int i, status;

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

	for (i = 0; i < nchild; i++) {
		const char *role = i < RACE_READERS ? "reader" : "writer";

		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
			TH_LOG("%s %d ended with status %#x", role, i, status);
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

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * A seeded ioctl fuzzer with a model. Clients over every vrampool device
 * (both backends) take random steps: every ioctl with valid, almost-valid
 * and hostile arguments (edge sizes, random flags, pads and reserved
 * words, counts, argument and entry pointers to unmapped, read-only and
 * unaligned memory), layouts from a generator and mutated ones, mmap and
 * munmap (also after free), fork, close and reopen, sysfs and fdinfo
 * reads. A model of its own (vrampool_fuzz_model.c) predicts every
 * ALLOC from its state and the documented rules, never from the kernel's
 * answer: success, or the exact errno, error code and payload; the pool,
 * page index, offset, padding and page size; which pages each pool makes
 * and releases; the VRAM each client holds and the device has in use, so
 * an OutOfMemory is predicted too, after the documented cleanup and the
 * reclaim of other clients' free pages, as are the page limit and the
 * VRAM quota (a step sets one in sysfs now and then). Each client's
 * layout, generation, persistent mode, and the per-pool statistics of
 * POOL_QUERY are checked against it after every step that may change
 * them, the bytes of every allocation (new ones read zero, then take a
 * pattern) after every install, cleanup and VRAM-pressure event. The one
 * thing learnt from the kernel is a page's mmap offset, when an answer
 * first shows the page; every later use must agree.
 *
 * Layouts are judged by the shared resolver (common/vrampool_layout.c),
 * the code the kernel runs at POOL_INSTALL: its rules are tested apart
 * from it, from the uapi and the documentation, by tests/host's
 * resolver_test (every rule, error payload and preset) and the layout
 * fuzzer (tests/fuzz). Under fail-nth (debug kernel) the model is off: a
 * failed operation must have changed nothing, which POOL_QUERY and the
 * bytes check.
 *
 * The plan ends with a floor: every ioctl succeeded at least once and
 * every error code the devices make reachable was answered, or the test
 * fails naming what was never seen.
 *
 * The choices depend only on the seed and on the kernel's answers, never
 * on timing: a failing seed replays. Every mismatch prints the seed, the
 * step, the operation and both answers.
 *
 *   vrampool_fuzz_test [--seed S] [--steps N] [--clients C] [--device D]
 *                      [--fail-nth] [--profile]
 *
 * Without arguments it runs the tier's plan (VRAMPOOL_TIER): fixed seeds
 * and one seed from the clock. On Debian's kernel, 600000 steps: a worker
 * process per device runs its seeds with every client on its device (so
 * the model of each device stays exact while both CPUs work), then one
 * seed spans every device. On the debug kernel, one process, then, where
 * the kernel has fault injection, a fail-nth run that injects an
 * allocation failure at random steps and checks that a failed operation
 * changed nothing. VRAMPOOL_FUZZ_SEED, VRAMPOOL_FUZZ_STEPS and
 * VRAMPOOL_FUZZ_DEVICE (make fuzz) run one seed instead; --profile (or
 * VRAMPOOL_FUZZ_PROFILE=1) prints where the time goes.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_fuzz_model.h"
#include "vrampool_layout.h"
#include "vrampool_test_lib.h"

#define MAX_CLIENTS	6
#define MAX_LIVE	40		/* allocations a client holds at most */
#define MAX_ORPHANS	16		/* mappings kept after their FREE */
#define GEN_MAX		12		/* entries of a generated layout */
#define BIG_SIZE	(4 * MiB)	/* larger sizes are rare */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* ---- Random numbers: xorshift64*, the seed alone decides ---------------- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)((rnd64() >> 11) % n) : 0;
}

static bool chance(uint32_t one_in)
{
	return rnd(one_in) == 0;
}

/* ---- Where the time goes (--profile, VRAMPOOL_FUZZ_PROFILE=1) ------------ */

enum prof_kind {
	P_IOCTL, P_IOCTL_OK, P_QUERY, P_VRAM, P_CHECK, P_FILL, P_MMAP, P_READS, P_FORK, P_WAIT,
	P_OPEN, P_CLOSE,
	P_KINDS
};

static const char *const prof_names[P_KINDS] = {
	[P_IOCTL] = "the op's ioctl, failed", [P_IOCTL_OK] = "the op's ioctl, succeeded",
	[P_WAIT] = "wait for the child", [P_QUERY] = "POOL_QUERY vs the model",
	[P_VRAM] = "device VRAM (GET_PARAM, sysfs)", [P_CHECK] = "pattern checks",
	[P_FILL] = "pattern writes", [P_MMAP] = "mmap and munmap",
	[P_READS] = "fdinfo and sysfs reads", [P_FORK] = "fork()",
	[P_OPEN] = "open a client", [P_CLOSE] = "close a client",
};

static bool profiling;
static struct { uint64_t ns, n; } prof[P_KINDS];
#define PROF_OPS 32
static struct { const char *op; uint64_t ns, n; } prof_op[PROF_OPS];

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static uint64_t prof_start(void)
{
	return profiling ? now_ns() : 0;
}

static void prof_end(enum prof_kind k, uint64_t t0)
{
	if (!profiling)
		return;
	prof[k].ns += now_ns() - t0;
	prof[k].n++;
}

static void prof_step(const char *op, uint64_t t0)
{
	int i;

	if (!profiling)
		return;
	for (i = 0; i < PROF_OPS && prof_op[i].op && prof_op[i].op != op; i++)
		;
	if (i == PROF_OPS)
		return;
	prof_op[i].op = op;
	prof_op[i].ns += now_ns() - t0;
	prof_op[i].n++;
}

static void prof_print(double secs)
{
	int i;

	if (!profiling)
		return;
	printf("# profile: per step kind (by the op's last name), share of %.1f s:\n", secs);
	for (i = 0; i < PROF_OPS && prof_op[i].op; i++)
		printf("#   %-36s %8" PRIu64 " x %7.1f us = %5.1f%%\n", prof_op[i].op,
		       prof_op[i].n, prof_op[i].ns / 1e3 / (prof_op[i].n ?: 1),
		       prof_op[i].ns / 1e7 / secs);
	printf("# profile: per activity (inclusive):\n");
	for (i = 0; i < P_KINDS; i++)
		printf("#   %-36s %8" PRIu64 " x %7.1f us = %5.1f%%\n", prof_names[i], prof[i].n,
		       prof[i].ns / 1e3 / (prof[i].n ?: 1), prof[i].ns / 1e7 / secs);
	memset(prof, 0, sizeof(prof));
	memset(prof_op, 0, sizeof(prof_op));
}

/* ---- The model ---------------------------------------------------------- */

struct fz_alloc {
	uint32_t handle, pool, page, seed;
	uint64_t size, offset, padding, mmap_offset, page_size;
	uint8_t *map;			/* its page, mapped; NULL for size 0 */
	size_t map_len;
};

struct fz_orphan {			/* a mapping kept after FREE */
	uint8_t *map;
	size_t map_len;
	uint64_t mmap_offset;
};

struct fz_pool {
	uint64_t allocations, bytes, padding;
};

struct fz_dev {
	struct vp_device d;
	struct vp_props p;
	struct vrampool_layout_props lp;
	uint64_t vram_start;
	uint64_t quota_start;		/* its sysfs vram_quota, put back at the end */
	int probe;			/* an fd for GET_PARAM, no allocations */
	struct fzm_dev m;		/* the model of its pools and VRAM */
};

struct fz_client {
	int fd;
	int dev;
	uint64_t generation;
	uint32_t mode;
	uint32_t num_pools;
	struct drm_vrampool_pool_entry layout[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct fz_pool st[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct fz_pool pers;
	struct fz_alloc live[MAX_LIVE];
	int nlive;
	struct fz_orphan orphans[MAX_ORPHANS];
	int norphans;
	struct fzm_client m;		/* the model's prediction of it */
};

static struct fz_dev devs[VP_MAX_DEVICES];
static int ndevs;
static struct fz_client clients[MAX_CLIENTS];
static int nclients;
static uint64_t max_allocations = UINT64_MAX, max_pages = UINT64_MAX;

/* Hostile memory: a page that faults, a read-only page, a scratch page. */
static uint8_t *mem_none, *mem_ro, *scratch;

/* The run. */
static uint64_t seed, step, steps;
static int only_dev = -1;		/* --device D: every client on device D */
static bool worker;			/* one of a parallel plan's processes */
static bool fail_nth_mode;
/*
 * The model predicts every placement, page and byte of VRAM (off only in
 * fail-nth runs: an injected fault leaves the kernel anywhere inside an
 * ALLOC, the model cannot know where, and those runs check instead that a
 * failed operation changed nothing).
 */
static bool model_exact;
static int fail_nth_fd = -1;
static int armed;			/* fail-nth armed for the op's ioctl */
static bool injected;			/* and the fault was injected */
static uint64_t ops_failed_injected, ops_absorbed;
static const char *op_name = "";
static uint8_t sink;
static uint64_t bytes_checked, allocs_made, forks_done, reopens, installs_done, installs_busy;
static uint64_t quotas_set;

/* Distinct errors seen: (ioctl, errno, code). */
#define SEEN_MAX 512
static struct { const char *op; int err; uint32_t code; uint64_t n; } seen[SEEN_MAX];
static int nseen;

static void saw(const char *op, int err, uint32_t code)
{
	int i;

	for (i = 0; i < nseen; i++) {
		if (seen[i].op == op && seen[i].err == err && seen[i].code == code) {
			seen[i].n++;
			return;
		}
	}
	if (nseen < SEEN_MAX)
		seen[nseen++] = (typeof(seen[0])){ op, err, code, 1 };
}

static void mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void quotas_restore(void);

static void mismatch(const char *fmt, ...)
{
	va_list ap;

	printf("# MISMATCH seed %" PRIu64 " step %" PRIu64 " op %s%s: ", seed, step, op_name,
	       injected ? " (fault injected)" : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n# replay: make fuzz SEED=%" PRIu64 " STEPS=%" PRIu64, seed, step + 1);
	if (only_dev >= 0)
		printf(" DEVICE=%d", only_dev);
	printf("%s\n", fail_nth_mode ? " FAIL_NTH=1 (the debug kernel)" : "");
	quotas_restore();
	/* A worker's parent prints its result. */
	if (!worker)
		printf("not ok 1 fuzz seed %" PRIu64 " failed at step %" PRIu64 "\n", seed, step);
	fflush(stdout);
	_exit(1);
}

static const char *ename(int err)
{
	return err ? strerrorname_np(err < 0 ? -err : err) ?: "?" : "0";
}

/* ---- The ioctl, with fail-nth around it when armed ---------------------- */

static void fail_nth_write(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		mismatch("fail-nth write %u: %s", n, strerror(errno));
}

static unsigned int fail_nth_read(void)
{
	char buf[16];
	ssize_t n = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		mismatch("fail-nth read: %s", strerror(errno));
	buf[n] = '\0';
	return (unsigned int)strtoul(buf, NULL, 10);
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	uint64_t t0 = prof_start();
	int ret;

	if (!armed) {
		ret = vp_ioctl(fd, req, arg);
		prof_end(ret ? P_IOCTL : P_IOCTL_OK, t0);
		return ret;
	}
	fail_nth_write(armed);
	ret = vp_ioctl(fd, req, arg);
	injected = fail_nth_read() == 0;
	fail_nth_write(0);
	armed = 0;
	if (injected) {
		if (ret)
			ops_failed_injected++;
		else
			ops_absorbed++;
	}
	return ret;
}

/*
 * A failure that an injected fault explains: the op failed otherwise than
 * the model predicts (@want), with ENOMEM (or ENOSPC); it must then have
 * changed nothing, which the caller checks. A fault the call absorbed, or
 * one that leaves the predicted answer, is checked as usual.
 */
static bool injected_failure(int ret, int want)
{
	if (!injected || !ret || ret == want)
		return false;
	if (ret != -ENOMEM && ret != -ENOSPC)
		mismatch("injected fault: %s, want %s or ENOMEM", ename(ret), ename(want));
	return true;
}

/* ---- Pattern and mapping checks ------------------------------------------ */

/* Bytes [@from, @from + @len) of an allocation hold its pattern. */
static void check_range(const struct fz_client *c, const struct fz_alloc *a, uint64_t from,
			uint64_t len, const char *when)
{
	uint64_t t0 = prof_start();
	int64_t bad = vp_check_words(a->map + a->offset + from, from, len, a->seed);

	prof_end(P_CHECK, t0);
	bytes_checked += len;
	if (bad >= 0)
		mismatch("%s: client %d allocation %u (pool %u page %u offset %" PRIu64
			 " size %" PRIu64 ") changed at byte %" PRIu64, when, (int)(c - clients),
			 a->handle, a->pool, a->page, a->offset, a->size, from + bad);
}

/*
 * Every byte (@full, and any allocation of at most SAMPLE * 3 bytes), or
 * its head, its tail and a random window: after every event the sample,
 * before every FREE and close the whole.
 */
#define SAMPLE 128

static void check_alloc_bytes(const struct fz_client *c, const struct fz_alloc *a,
			      const char *when, bool full)
{
	uint64_t at;

	if (!a->map)
		return;
	if (full || a->size <= 3 * SAMPLE) {
		check_range(c, a, 0, a->size, when);
		return;
	}
	check_range(c, a, 0, SAMPLE, when);
	check_range(c, a, (a->size - SAMPLE) & ~7ULL, SAMPLE, when);
	at = (rnd64() % (a->size - SAMPLE)) & ~7ULL;
	check_range(c, a, at, SAMPLE, when);
}

static void check_client_bytes(const struct fz_client *c, const char *when)
{
	int i;

	for (i = 0; i < c->nlive; i++)
		check_alloc_bytes(c, &c->live[i], when, false);
}

static void check_device_bytes(int dev, const char *when)
{
	int i;

	for (i = 0; i < nclients; i++)
		if (clients[i].fd >= 0 && clients[i].dev == dev)
			check_client_bytes(&clients[i], when);
}

/* After writing @l: its neighbours in the same page kept their bytes. */
static void check_alloc_placement_bytes(const struct fz_client *c, const struct fz_alloc *l)
{
	int i;

	for (i = 0; i < c->nlive; i++)
		if (&c->live[i] != l && c->live[i].map && c->live[i].mmap_offset == l->mmap_offset)
			check_alloc_bytes(c, &c->live[i], "a neighbour was written", false);
}

static size_t map_len_of(uint64_t page_size)
{
	return (size_t)vp_align_up(page_size, VP_CPU_PAGE);
}

/* ---- Prediction helpers --------------------------------------------------- */

static uint64_t eff_size(const struct fz_dev *d, uint64_t size, bool *ok)
{
	uint64_t a = d->p.alignment ? d->p.alignment : 1;
	uint64_t r = size % a;

	*ok = true;
	if (!r)
		return size;
	if (size > UINT64_MAX - (a - r)) {
		*ok = false;
		return 0;
	}
	return size + (a - r);
}

/*
 * The near-page rule, (page - size) * 5 < page, as the unbounded integers
 * say it, for a size up to the page: d * 5 < page exactly when d <=
 * (page - 1) / 5. The 64-bit product wraps for pages above U64_MAX / 5
 * (the model once took 962561 bytes for near a 2^63-byte page; the kernel
 * rightly did not).
 */
static bool sliced_near_page(uint64_t page, uint64_t size)
{
	return page && page - size <= (page - 1) / 5;
}

static bool capped(const struct drm_vrampool_pool_entry *e)
{
	return e->type == DRM_VRAMPOOL_POOL_SLICED && (e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE);
}

static bool pool_accepts(const struct fz_dev *d, const struct drm_vrampool_pool_entry *e,
			 uint64_t size)
{
	uint64_t page = e->page_size, m;
	bool ok;

	switch (e->type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return size <= e->max_alloc_size;
	case DRM_VRAMPOOL_POOL_SLICED:
		m = e->max_slice_size < page ? e->max_slice_size : page;
		if (size <= m)
			return true;
		return !(capped(e) && e->max_pool_size / page) && size <= page &&
		       sliced_near_page(page, size);
	default:
		eff_size(d, size, &ok);
		return ok;
	}
}

static struct fz_pool *pool_stats(struct fz_client *c, uint32_t pool)
{
	return pool == DRM_VRAMPOOL_PERSISTENT_POOL ? &c->pers : &c->st[pool];
}

static uint64_t dynamic_live(const struct fz_client *c, uint64_t *bytes)
{
	uint64_t n = 0;
	uint32_t i;

	*bytes = 0;
	for (i = 0; i < c->num_pools; i++) {
		n += c->st[i].allocations;
		*bytes += c->st[i].bytes;
	}
	return n;
}

/* ---- POOL_QUERY against the model ------------------------------------------ */

static struct vp_snap snap;

/*
 * POOL_QUERY in one call, asking for the answer's size as the model knows
 * it: a wrong count is an EINVAL, which the caller reports. Only the
 * statuses it asks for are poisoned first (not the whole 255 of them): the
 * call must overwrite every byte that is then compared.
 */
static int query_sized(const struct fz_client *c, struct vp_snap *s)
{
	struct drm_vrampool_pool_query q = { 0 };
	int ret;

	q.size = (c->num_pools + 1) * sizeof(s->pools[0]);
	q.pools = (uintptr_t)s->pools;
	memset(s->pools, 0xa5, q.size);
	ret = vp_query(c->fd, &q);
	if (ret)
		return ret;
	vp_snap_set(s, &q);
	return 0;
}

/* A pool's pages as the model holds them: the distinct pages of live and cached allocations. */
static void check_query_pages(const struct fz_client *c, const struct drm_vrampool_pool_status *s,
			      const char *when)
{
	const struct fzm_pool *m = fzm_pool(&c->m, s->index);

	if (s->allocations != m->allocations || s->bytes_in_use != m->bytes ||
	    s->padding != m->padding || s->reserved_bytes != m->reserved ||
	    s->pages != m->pages || s->pages_peak != m->pages_peak ||
	    s->largest_alloc != m->largest)
		mismatch("%s: pool %u: allocations %" PRIu64 " bytes %" PRIu64 " padding %" PRIu64
			 " reserved %" PRIu64 " pages %" PRIu64 " peak %" PRIu64 " largest %" PRIu64
			 "; the model's %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			 " %" PRIu64 " %" PRIu64, when, s->index, (uint64_t)s->allocations,
			 (uint64_t)s->bytes_in_use, (uint64_t)s->padding,
			 (uint64_t)s->reserved_bytes, (uint64_t)s->pages, (uint64_t)s->pages_peak,
			 (uint64_t)s->largest_alloc, m->allocations, m->bytes, m->padding,
			 m->reserved, m->pages, m->pages_peak, m->largest);
}

static void check_query(struct fz_client *c, const char *when)
{
	uint64_t live_eff = 0, t0 = prof_start();
	char why[256];
	uint32_t i;
	int ret;

	/* One in 8 takes a runtime's two steps: size 0, then the data. */
	ret = chance(8) ? vp_snap_take(c->fd, &snap) : query_sized(c, &snap);
	prof_end(P_QUERY, t0);
	if (ret)
		mismatch("%s: POOL_QUERY: %s", when, ename(ret));
	if (snap.generation != c->generation || snap.num_pools != c->num_pools ||
	    snap.persistent_mode != c->mode || snap.count != c->num_pools + 1)
		mismatch("%s: POOL_QUERY header: generation %" PRIu64 " pools %u mode %u count %u,"
			 " model %" PRIu64 " %u %u", when, snap.generation, snap.num_pools,
			 snap.persistent_mode, snap.count, c->generation, c->num_pools, c->mode);
	for (i = 0; i < snap.count; i++) {
		const struct drm_vrampool_pool_status *s = &snap.pools[i];
		bool pers = i == c->num_pools;
		const struct fz_pool *m = pers ? &c->pers : &c->st[i];

		if (s->index != (pers ? DRM_VRAMPOOL_PERSISTENT_POOL : i))
			mismatch("%s: status %u has index %u", when, i, s->index);
		if (pers ? s->config.type != DRM_VRAMPOOL_POOL_PERSISTENT :
			   vp_entries_diff(&s->config, &c->layout[i], 1, why, sizeof(why)) >= 0)
			mismatch("%s: pool %u config: %s", when, s->index,
				 pers ? "not persistent" : why);
		if (s->allocations != m->allocations || s->bytes_in_use != m->bytes ||
		    s->padding != m->padding)
			mismatch("%s: pool %u: allocations %" PRIu64 " bytes_in_use %" PRIu64
				 " padding %" PRIu64 ", model %" PRIu64 " %" PRIu64 " %" PRIu64,
				 when, s->index, (uint64_t)s->allocations,
				 (uint64_t)s->bytes_in_use, (uint64_t)s->padding, m->allocations,
				 m->bytes, m->padding);
		if (s->reserved_bytes < s->bytes_in_use + s->padding)
			mismatch("%s: pool %u holds %" PRIu64 " bytes for %" PRIu64 " in use",
				 when, s->index, (uint64_t)s->reserved_bytes,
				 (uint64_t)(s->bytes_in_use + s->padding));
		live_eff += s->bytes_in_use + s->padding;
		if (model_exact)
			check_query_pages(c, s, when);
	}
	if (snap.vram_in_use < live_eff)
		mismatch("%s: client VRAM %" PRIu64 " below its live bytes %" PRIu64, when,
			 snap.vram_in_use, live_eff);
	if (model_exact && snap.vram_in_use != fzm_client_vram(&c->m))
		mismatch("%s: client VRAM %" PRIu64 ", the model's %" PRIu64 " (its pages and"
			 " the freed pages it still maps)", when, snap.vram_in_use,
			 fzm_client_vram(&c->m));
}

/* The device's VRAM in use is its start plus what its clients hold (or more
 * while freed pages stay mapped).
 */
static void check_device_vram(int dev, const char *when)
{
	uint64_t sum = devs[dev].vram_start, got, sys, t0;
	bool orphans = false;
	int i;

	for (i = 0; i < nclients; i++) {
		struct fz_client *c = &clients[i];

		if (c->fd < 0 || c->dev != dev)
			continue;
		check_query(c, when);
		sum += snap.vram_in_use;
		orphans |= c->norphans > 0;
	}
	t0 = prof_start();
	got = vp_vram_in_use(devs[dev].probe);
	if (model_exact && got != devs[dev].m.in_use)
		mismatch("%s: %s VRAM_IN_USE %" PRIu64 ", the model's %" PRIu64, when,
			 devs[dev].d.name, got, devs[dev].m.in_use);
	if (orphans ? got < sum : got != sum)
		mismatch("%s: %s VRAM_IN_USE %" PRIu64 ", start + clients' %" PRIu64 "%s", when,
			 devs[dev].d.name, got, sum, orphans ? " (freed pages mapped)" : "");
	sys = vp_sysfs_dev_u64(&devs[dev].d, "vram_in_use");
	prof_end(P_VRAM, t0);
	if (sys != got)
		mismatch("%s: sysfs vram_in_use %" PRIu64 ", GET_PARAM %" PRIu64, when, sys, got);
}

/* ---- Clients -------------------------------------------------------------- */

static void client_open(struct fz_client *c, int dev)
{
	uint32_t count = 0;
	struct drm_vrampool_layout_error err;
	int ret;

	uint64_t t0 = prof_start();
	struct fzm_client m = c->m;	/* its arrays are reused */

	memset(c, 0, sizeof(*c));
	c->m = m;
	c->dev = dev;
	c->fd = vp_open_device(&devs[dev].d);
	prof_end(P_OPEN, t0);
	if (c->fd < 0)
		mismatch("open %s: %s", devs[dev].d.path, ename(c->fd));
	ret = vrampool_layout_preset(&devs[dev].lp,
				     vrampool_layout_default_preset(&devs[dev].lp),
				     c->layout, &count, &err);
	if (ret)
		mismatch("the default preset does not resolve: %s", ename(ret));
	c->num_pools = count;
	fzm_client_open(&c->m, &devs[dev].m, c->layout, count);
	ret = vp_snap_take(c->fd, &snap);
	if (ret)
		mismatch("POOL_QUERY of a new client: %s", ename(ret));
	c->generation = snap.generation;
	c->mode = DRM_VRAMPOOL_PERSISTENT_ENABLED;
	check_query(c, "a new client has the default layout");
}

/* A mapping of one of @c's pages at @off goes: the model counts it. */
static void prof_munmap(struct fz_client *c, void *p, size_t len, uint64_t off)
{
	uint64_t t0 = prof_start();

	munmap(p, len);
	prof_end(P_MMAP, t0);
	fzm_unmap(&c->m, off);
}

static void drop_orphan(struct fz_client *c, int i)
{
	prof_munmap(c, c->orphans[i].map, c->orphans[i].map_len, c->orphans[i].mmap_offset);
	c->orphans[i] = c->orphans[--c->norphans];
}

static void client_close(struct fz_client *c)
{
	uint64_t t0;
	int i;

	for (i = 0; i < c->nlive; i++)
		check_alloc_bytes(c, &c->live[i], "before close", true);
	for (i = 0; i < c->nlive; i++)
		if (c->live[i].map)
			prof_munmap(c, c->live[i].map, c->live[i].map_len,
				    c->live[i].mmap_offset);
	while (c->norphans)
		drop_orphan(c, 0);
	t0 = prof_start();
	close(c->fd);
	prof_end(P_CLOSE, t0);
	c->fd = -1;
	c->nlive = 0;
	fzm_client_close(&c->m);
}

static struct fz_client *pick_client(void)
{
	return &clients[rnd(nclients)];
}

/* ---- ALLOC ----------------------------------------------------------------- */

static uint64_t pool_edge(const struct fz_client *c)
{
	const struct drm_vrampool_pool_entry *e;
	uint64_t v;

	if (!c->num_pools)
		return 1;
	e = &c->layout[rnd(c->num_pools)];
	switch (e->type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		v = rnd(2) ? e->max_slice_size : e->page_size;
		break;
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		v = e->max_alloc_size;
		break;
	default:
		v = 1 + rnd(64 * KiB);
	}
	return v + rnd(3) - 1;
}

static uint64_t gen_size(const struct fz_client *c)
{
	const struct fz_dev *d = &devs[c->dev];
	uint64_t a = d->p.alignment;
	uint64_t s;

	switch (rnd(40)) {
	case 0: case 1: case 2: return 0;
	case 3: case 4: return 1;
	case 5: return a - 1;
	case 6: return a;
	case 7: return a + 1;
	case 8: case 9: case 10: s = pool_edge(c); break;
	case 11: s = rnd(chance(16) ? BIG_SIZE : 256 * KiB) + 1; break;
	case 12:
		switch (rnd(6)) {
		case 0: return UINT64_MAX;
		case 1: return UINT64_MAX - a + 2;
		case 2: return 1ULL << 63;
		case 3: return d->p.vram_size;
		case 4: return d->p.vram_size + 1;
		default: s = d->p.max_page_size + rnd(3) - 1; break;
		}
		break;
	case 13: case 14: case 15: case 16: s = VP_CPU_PAGE + rnd(3) - 1; break;
	default: s = 1 + rnd(rnd(4) ? 2048 : 64 * KiB); break;
	}
	/* Keep the pattern work small: big sizes stay rare. */
	if (s > BIG_SIZE && !chance(32))
		s = 1 + rnd(64 * KiB);
	return s;
}

/* Which pools may serve a size, in the model: the answer must be one of them. */
struct alloc_plan {
	int err;		/* the exact error, when certain; 0 otherwise */
	uint32_t code;
	uint64_t limit;
	bool pers_ok, pers_must;
	bool dyn[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	bool capacity_ok;	/* every accepting pool is capped: ENOSPC capacity possible */
	bool efbig_ok;		/* size-match: BufferTooBig unless persistent serves it */
	uint32_t last_capped;
};

static void plan_alloc(const struct fz_client *c, const struct drm_vrampool_alloc *req,
		       struct alloc_plan *p)
{
	const struct fz_dev *d = &devs[c->dev];
	bool want_pers = false, maybe_pers = false, pers_accepts, any = false;
	uint32_t i;

	memset(p, 0, sizeof(*p));
	if ((req->flags & ~DRM_VRAMPOOL_ALLOC_FLAGS) || req->pad || req->pad2 ||
	    req->reserved[0] || req->reserved[1]) {
		p->err = -EINVAL;
		return;
	}
	if ((uint64_t)c->nlive >= max_allocations) {
		p->err = -EDQUOT;
		p->code = DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
		p->limit = DRM_VRAMPOOL_LIMIT_ALLOCATIONS;
		return;
	}
	eff_size(d, req->size, &pers_accepts);
	switch (c->mode) {
	case DRM_VRAMPOOL_PERSISTENT_ENFORCED:
		want_pers = true;
		break;
	case DRM_VRAMPOOL_PERSISTENT_DISABLED:
		break;
	case DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH:
		want_pers = req->flags & DRM_VRAMPOOL_ALLOC_PERSISTENT;
		maybe_pers = !want_pers && pers_accepts;
		break;
	default:
		want_pers = req->flags & DRM_VRAMPOOL_ALLOC_PERSISTENT;
	}
	if (want_pers) {
		if (!pers_accepts) {
			p->err = -EFBIG;
			p->code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
			return;
		}
		p->pers_ok = p->pers_must = true;
		return;
	}
	p->pers_ok = maybe_pers;
	p->capacity_ok = true;
	for (i = 0; i < c->num_pools; i++) {
		if (!pool_accepts(d, &c->layout[i], req->size))
			continue;
		any = true;
		p->dyn[i] = true;
		if (!capped(&c->layout[i])) {
			p->capacity_ok = false;
			break;
		}
		p->last_capped = i;
	}
	if (!any) {
		p->capacity_ok = false;
		p->efbig_ok = maybe_pers;
		if (!maybe_pers) {
			p->err = -EFBIG;
			p->code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
		}
	}
}

static void check_alloc_placement(struct fz_client *c, const struct drm_vrampool_alloc *a)
{
	const struct fz_dev *d = &devs[c->dev];
	uint64_t eff;
	bool ok;
	int i;

	if (!a->handle)
		mismatch("ALLOC(%" PRIu64 ", flags %#x) answered handle 0 (pool %u page %#x offset %"
			 PRIu64 " mmap_offset %#" PRIx64 " code %u; FREE(0) then: %s)", (uint64_t)a->size, a->flags,
			 a->pool, a->page, (uint64_t)a->offset, (uint64_t)a->mmap_offset,
			 a->error.code, ename(vp_free(c->fd, 0)));
	for (i = 0; i < c->nlive; i++)
		if (c->live[i].handle == a->handle)
			mismatch("ALLOC gave handle %u, still live", a->handle);
	if (!a->size) {
		if (a->page != DRM_VRAMPOOL_NO_PAGE || a->offset || a->padding || a->mmap_offset ||
		    a->page_size)
			mismatch("zero-size ALLOC: page %#x offset %" PRIu64 " padding %" PRIu64
				 " mmap_offset %#" PRIx64 " page_size %" PRIu64 ", want a page-less"
				 " answer", a->page, (uint64_t)a->offset, (uint64_t)a->padding,
				 (uint64_t)a->mmap_offset, (uint64_t)a->page_size);
		return;
	}
	eff = eff_size(d, a->size, &ok);
	if (a->page == DRM_VRAMPOOL_NO_PAGE || !a->mmap_offset || a->mmap_offset % VP_CPU_PAGE ||
	    a->offset % d->p.alignment || a->padding != eff - a->size ||
	    a->offset + eff > a->page_size || a->offset + eff < a->offset)
		mismatch("ALLOC(%" PRIu64 ") placed at page %u offset %" PRIu64 " padding %"
			 PRIu64 " in %" PRIu64 " bytes at %#" PRIx64 " (alignment %" PRIu64 ")",
			 (uint64_t)a->size, a->page, (uint64_t)a->offset, (uint64_t)a->padding,
			 (uint64_t)a->page_size, (uint64_t)a->mmap_offset, d->p.alignment);
	for (i = 0; i < c->nlive; i++) {
		const struct fz_alloc *l = &c->live[i];
		bool same_page = l->pool == a->pool && l->page == a->page && l->size;

		if (!l->size)
			continue;
		if (same_page != (l->mmap_offset == a->mmap_offset))
			mismatch("allocation %u (pool %u page %u at %#" PRIx64 ") and the new one"
				 " (pool %u page %u at %#" PRIx64 "): pages and mmap offsets disagree",
				 l->handle, l->pool, l->page, l->mmap_offset, a->pool, a->page,
				 (uint64_t)a->mmap_offset);
		if (same_page && a->offset < l->offset + l->size + l->padding &&
		    l->offset < a->offset + eff)
			mismatch("the new allocation [%" PRIu64 ", +%" PRIu64 ") overlaps %u [%"
				 PRIu64 ", +%" PRIu64 ") in pool %u page %u", (uint64_t)a->offset,
				 eff, l->handle, l->offset, l->size + l->padding, a->pool, a->page);
	}
}

static void check_alloc_error(struct fz_client *c, const struct drm_vrampool_alloc *req,
			      const struct drm_vrampool_alloc *a, int ret,
			      const struct alloc_plan *p)
{
	const struct drm_vrampool_alloc_error *e = &a->error;
	bool ok = false;

	if (p->err) {
		ok = ret == p->err;
		if (ok && p->code)
			ok = e->code == p->code && e->size == req->size &&
			     (p->code != DRM_VRAMPOOL_ERR_CLIENT_LIMIT ||
			      (e->pool == p->limit && e->capacity == max_allocations &&
			       e->in_use == (uint64_t)c->nlive));
		if (!ok)
			mismatch("ALLOC(%" PRIu64 ", flags %#x): %s code %u pool %u, want %s code %u",
				 (uint64_t)req->size, req->flags, ename(ret), e->code, e->pool,
				 ename(p->err), p->code);
		return;
	}
	if (ret == -ENOSPC && e->code == DRM_VRAMPOOL_ERR_OUT_OF_MEMORY && e->size == req->size)
		ok = true;
	if (ret == -ENOSPC && e->code == DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED &&
	    p->capacity_ok && e->pool == p->last_capped && e->size == req->size)
		ok = true;
	if (ret == -EFBIG && e->code == DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG && p->efbig_ok)
		ok = true;
	if (ret == -EDQUOT && e->code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT &&
	    e->pool == DRM_VRAMPOOL_LIMIT_PAGES && e->capacity == max_pages)
		ok = true;
	if (!ok)
		mismatch("ALLOC(%" PRIu64 ", flags %#x, mode %u): %s code %u pool %u; want success"
			 " or OutOfMemory%s", (uint64_t)req->size, req->flags, c->mode, ename(ret),
			 e->code, e->pool, p->capacity_ok ? " or PoolCapacityExceeded" : "");
	check_device_bytes(c->dev, "after VRAM pressure");
}

/* A served allocation into the model: live, and counted in its pool. */
static struct fz_alloc *model_keep(struct fz_client *c, const struct drm_vrampool_alloc *a)
{
	struct fz_alloc *l = &c->live[c->nlive++];
	struct fz_pool *ps = pool_stats(c, a->pool);

	allocs_made++;
	memset(l, 0, sizeof(*l));
	l->handle = a->handle;
	l->pool = a->pool;
	l->page = a->page;
	l->size = a->size;
	l->offset = a->offset;
	l->padding = a->padding;
	l->mmap_offset = a->mmap_offset;
	l->page_size = a->page_size;
	ps->allocations++;
	ps->bytes += a->size;
	ps->padding += a->padding;
	return l;
}

/* ---- The model's predictions (every run but fail-nth ones) ---------------------- */

static void do_free(struct fz_client *c, bool hostile);

static struct fzm_client *model_all[MAX_CLIENTS];

/* The model's ALLOC of @size with @flags by @c: what the kernel must answer. */
static void model_alloc(struct fz_client *c, uint64_t size, uint32_t flags, struct fzm_answer *p)
{
	int i;

	for (i = 0; i < nclients; i++)
		model_all[i] = &clients[i].m;
	fzm_alloc(&c->m, model_all, nclients, size, flags, p);
}

/* Whether an ALLOC that the kernel runs (past its argument and limit checks) is one the model runs. */
static bool modelled(const struct alloc_plan *plan)
{
	return model_exact && plan->err != -EINVAL && plan->code != DRM_VRAMPOOL_ERR_CLIENT_LIMIT;
}

static bool mmap_offset_taken(const struct fz_client *c, const struct fzm_page *self,
			      uint64_t off)
{
	uint32_t i;

	for (i = 0; i < c->m.npages; i++)
		if (&c->m.pages[i] != self && c->m.pages[i].mmap_offset == off)
			return true;
	for (i = 0; i < c->m.norphans; i++)
		if (c->m.orphans[i].mmap_offset == off)
			return true;
	return false;
}

/*
 * An answer against the model's prediction @p: the same error with the
 * same payload, or the same pool, page, offset, padding and page size. A
 * page the model makes takes the mmap offset the kernel gives it (which no
 * other page of the client holds), and every later answer that names the
 * page must give that offset.
 */
static void check_predicted(struct fz_client *c, const char *what, uint64_t size, uint32_t flags,
			    int ret, const struct drm_vrampool_alloc_error *err,
			    const struct drm_vrampool_alloc_answer *ans, const struct fzm_answer *p)
{
	struct drm_vrampool_alloc_error want = { .code = p->code, .size = p->err ? size : 0 };
	struct fzm_page *pg;

	if (p->code == DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED ||
	    p->code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT || p->code == DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED) {
		want.pool = p->err_pool;
		want.capacity = p->capacity;
		want.in_use = p->in_use;
	}
	if (ret != p->err || memcmp(err, &want, sizeof(want)))
		mismatch("%s(%" PRIu64 ", flags %#x, mode %u): %s code %u pool %u capacity %" PRIu64
			 " in use %" PRIu64 "; the model: %s code %u pool %u capacity %" PRIu64
			 " in use %" PRIu64 " (pool %u page %#x)", what, size, flags, c->m.mode,
			 ename(ret), err->code, err->pool, (uint64_t)err->capacity,
			 (uint64_t)err->in_use, ename(p->err), want.code, want.pool, (uint64_t)want.capacity,
			 (uint64_t)want.in_use, p->pool, p->page);
	if (ret)
		return;
	if (ans->pool != p->pool || ans->page != p->page || ans->offset != p->offset ||
	    ans->padding != p->padding || ans->page_size != p->page_size)
		mismatch("%s(%" PRIu64 ", flags %#x, mode %u): pool %u page %#x offset %" PRIu64
			 " padding %" PRIu64 " page size %" PRIu64 "; the model: pool %u page %#x"
			 " offset %" PRIu64 " padding %" PRIu64 " page size %" PRIu64 "%s", what,
			 size, flags, c->m.mode, ans->pool, ans->page, (uint64_t)ans->offset,
			 (uint64_t)ans->padding, (uint64_t)ans->page_size, p->pool, p->page,
			 p->offset, p->padding, p->page_size, p->new_page ? " (a new page)" : "");
	c->m.live[p->alloc].handle = ans->handle;
	if (!size)
		return;
	pg = fzm_page(&c->m, p->pool, p->page);
	/*
	 * A new page, or one no answer showed yet (a refused batch keeps the
	 * pages it made when a cleanup on its way released as many).
	 */
	if (p->new_page || !pg->mmap_offset) {
		if (mmap_offset_taken(c, pg, ans->mmap_offset))
			mismatch("%s(%" PRIu64 "): a page first seen (pool %u page %u) at mmap offset"
				 " %#" PRIx64 ", which another page of the client holds", what, size,
				 p->pool, p->page, (uint64_t)ans->mmap_offset);
		pg->mmap_offset = ans->mmap_offset;
	} else if (pg->mmap_offset != ans->mmap_offset) {
		mismatch("%s(%" PRIu64 "): pool %u page %u at mmap offset %#" PRIx64 ", earlier at %#"
			 PRIx64, what, size, p->pool, p->page, (uint64_t)ans->mmap_offset,
			 pg->mmap_offset);
	}
}

static void alloc_answer_of(const struct drm_vrampool_alloc *a,
			    struct drm_vrampool_alloc_answer *ans)
{
	*ans = (struct drm_vrampool_alloc_answer){
		.handle = a->handle, .pool = a->pool, .page = a->page, .offset = a->offset,
		.padding = a->padding, .mmap_offset = a->mmap_offset, .page_size = a->page_size,
	};
}

/*
 * A new allocation, just mapped: the model counts the mapping; in a page
 * the model says is new its bytes must read zero (VRAM cleared for it);
 * then it takes its pattern, and its neighbours in the page keep theirs.
 */
static void fill_new(struct fz_client *c, struct fz_alloc *l, bool new_page)
{
	uint64_t t0;
	ssize_t nz;

	fzm_map(&c->m, l->mmap_offset);
	if (new_page) {
		t0 = prof_start();
		nz = vp_first_nonzero(l->map + l->offset, l->size);
		prof_end(P_CHECK, t0);
		if (nz >= 0)
			mismatch("allocation %u (%" PRIu64 " bytes) in a new page (pool %u page %u):"
				 " byte %zd is not zero", l->handle, l->size, l->pool, l->page, nz);
	}
	t0 = prof_start();
	vp_fill_words(l->map + l->offset, 0, l->size, l->seed);
	prof_end(P_FILL, t0);
	check_alloc_placement_bytes(c, l);
}

/* A batch's allocation, mapped and filled like a single ALLOC's. */
static void map_fill(struct fz_client *c, struct fz_alloc *l, bool new_page)
{
	uint64_t t0;

	l->seed = (uint32_t)rnd64();
	if (!l->size)
		return;
	l->map_len = map_len_of(l->page_size);
	t0 = prof_start();
	l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, l->mmap_offset);
	prof_end(P_MMAP, t0);
	if (l->map == MAP_FAILED)
		mismatch("mmap of a batch allocation's page (%#" PRIx64 ", %zu bytes): %s",
			 l->mmap_offset, l->map_len, strerror(errno));
	fill_new(c, l, new_page);
}

static void do_alloc(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_alloc_answer ans;
	struct drm_vrampool_alloc req, a;
	struct fzm_answer pred;
	struct alloc_plan plan;
	struct fz_alloc *l;
	int ret;

	op_name = "ALLOC";
	/* At the fuzzer's own limit, a FREE rather than nothing. */
	if (c->nlive >= MAX_LIVE) {
		do_free(c, false);
		return;
	}
	memset(&req, 0, sizeof(req));
	req.size = gen_size(c);
	if (chance(6))
		req.flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
	if (hostile) {
		switch (rnd(5)) {
		case 0: req.flags = (uint32_t)rnd64() | (1u << (1 + rnd(31))); break;
		case 1: req.pad = 1u << rnd(32); break;
		case 2: req.pad2 = (uint32_t)rnd64() | 1; break;
		default: req.reserved[rnd(2)] = rnd64() | 1; break;
		}
	}
	/* Outputs are outputs: garbage in them must not matter. */
	if (chance(4)) {
		req.handle = (uint32_t)rnd64();
		req.offset = rnd64();
		req.error.code = (uint32_t)rnd64();
	}
	plan_alloc(c, &req, &plan);
	a = req;
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a);
	/* ENOMEM is the fault's; any other answer is checked as usual. */
	if (injected && ret == -ENOMEM && plan.err != -ENOMEM) {
		check_query(c, "ALLOC failed by an injected fault");
		return;
	}
	if (modelled(&plan))
		model_alloc(c, req.size, req.flags, &pred);
	if (ret) {
		/* EINVAL comes before the error struct is written. */
		saw("ALLOC", ret, ret == -EINVAL ? 0 : a.error.code);
		if (modelled(&plan)) {
			check_predicted(c, "ALLOC", req.size, req.flags, ret, &a.error, NULL, &pred);
			if (ret == -ENOSPC)
				check_device_bytes(c->dev, "after VRAM pressure");
		} else
			check_alloc_error(c, &req, &a, ret, &plan);
		check_query(c, "a failed ALLOC changed nothing");
		return;
	}
	saw("ALLOC", 0, 0);
	if (modelled(&plan)) {
		alloc_answer_of(&a, &ans);
		check_predicted(c, "ALLOC", req.size, req.flags, 0, &a.error, &ans, &pred);
	}
	if (plan.err)
		mismatch("ALLOC(%" PRIu64 ", flags %#x) succeeded in pool %u, want %s code %u",
			 (uint64_t)req.size, req.flags, a.pool, ename(plan.err), plan.code);
	if (a.pool == DRM_VRAMPOOL_PERSISTENT_POOL ? !plan.pers_ok :
	    (plan.pers_must || a.pool >= c->num_pools || !plan.dyn[a.pool]))
		mismatch("ALLOC(%" PRIu64 ", flags %#x, mode %u) served by pool %u, which the"
			 " rules do not pick", (uint64_t)req.size, req.flags, c->mode, a.pool);
	check_alloc_placement(c, &a);
	l = model_keep(c, &a);
	l->seed = (uint32_t)rnd64();
	if (!a.size)
		return;
	l->map_len = map_len_of(a.page_size);
	op_name = "mmap";
	if (fail_nth_mode && chance(16)) {
		fail_nth_write(1 + rnd(3));
		l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
			      a.mmap_offset);
		ret = l->map == MAP_FAILED ? -errno : 0;
		injected = fail_nth_read() == 0;
		fail_nth_write(0);
		if (ret && injected) {
			l->map = NULL;
			l->map_len = 0;
			return;
		}
	} else {
		uint64_t t0 = prof_start();

		l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
			      a.mmap_offset);
		prof_end(P_MMAP, t0);
	}
	if (l->map == MAP_FAILED)
		mismatch("mmap of a live allocation's page (%#" PRIx64 ", %zu bytes): %s",
			 (uint64_t)a.mmap_offset, l->map_len, strerror(errno));
	fill_new(c, l, modelled(&plan) && pred.new_page);
}

/* ---- FREE, CLEANUP, mmap after free ------------------------------------------- */

static void forget(struct fz_client *c, int i, bool keep_map)
{
	struct fz_alloc *l = &c->live[i];
	struct fz_pool *ps = pool_stats(c, l->pool);

	ps->allocations--;
	ps->bytes -= l->size;
	ps->padding -= l->padding;
	fzm_free(&c->m, l->handle);
	if (l->map) {
		if (keep_map && c->norphans < MAX_ORPHANS)
			c->orphans[c->norphans++] = (struct fz_orphan){ l->map, l->map_len,
									 l->mmap_offset };
		else
			prof_munmap(c, l->map, l->map_len, l->mmap_offset);
	}
	*l = c->live[--c->nlive];
}

static bool handle_live(const struct fz_client *c, uint32_t h, int *idx)
{
	int i;

	for (i = 0; i < c->nlive; i++) {
		if (c->live[i].handle == h) {
			*idx = i;
			return true;
		}
	}
	return false;
}

static void do_free(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_free f = { 0 };
	int want = 0, idx = -1, ret;

	op_name = "FREE";
	if (c->nlive && !chance(8))
		f.handle = c->live[rnd(c->nlive)].handle;
	else
		f.handle = rnd(2) ? (uint32_t)rnd64() : rnd(64);
	if (hostile) {
		if (rnd(2))
			f.flags = 1u << rnd(32);
		else
			f.reserved = rnd64() | 1;
		want = -EINVAL;
	} else if (!handle_live(c, f.handle, &idx)) {
		want = -ENOENT;
	}
	if (!want && c->live[idx].map)
		check_alloc_bytes(c, &c->live[idx], "before FREE", c->live[idx].size <= 64 * KiB);
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_FREE, &f);
	if (injected_failure(ret, want))
		return;
	saw("FREE", ret, 0);
	if (ret != want)
		mismatch("FREE(%u, flags %#x, reserved %#" PRIx64 "): %s, want %s", f.handle,
			 f.flags, (uint64_t)f.reserved, ename(ret), ename(want));
	if (!ret)
		forget(c, idx, chance(4));
}

/*
 * Frees every allocation of the client's dynamic pools (not the persistent
 * one), so that the install that follows swaps its layout in rather than
 * meet PoolsInUse. No fault is injected here: the install is the step.
 */
static void free_dynamic(struct fz_client *c)
{
	struct drm_vrampool_free f = { 0 };
	int i = 0, ret;

	while (i < c->nlive) {
		if (c->live[i].pool == DRM_VRAMPOOL_PERSISTENT_POOL) {
			i++;
			continue;
		}
		f.handle = c->live[i].handle;
		ret = vp_ioctl(c->fd, DRM_IOCTL_VRAMPOOL_FREE, &f);
		saw("FREE", ret, 0);
		if (ret)
			mismatch("FREE(%u) before an install: %s", f.handle, ename(ret));
		forget(c, i, false);
	}
}

/* After a cleanup no page is free: an offset that no live allocation and no
 * mapping holds is gone, and mmap of it must fail.
 */
static void check_gone(struct fz_client *c, uint64_t off)
{
	void *p;
	int i;

	for (i = 0; i < c->nlive; i++)
		if (c->live[i].size && c->live[i].mmap_offset == off)
			return;
	for (i = 0; i < c->norphans; i++)
		if (c->orphans[i].mmap_offset == off)
			return;
	op_name = "mmap after free";
	p = mmap(NULL, VP_CPU_PAGE, PROT_READ, MAP_SHARED, c->fd, off);
	if (p != MAP_FAILED)
		mismatch("mmap at %#" PRIx64 " of a page freed and cleaned up succeeded", off);
}

static void do_cleanup(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_cleanup cl = { 0 };
	uint64_t gone = 0;
	int want = 0, ret, i;

	op_name = "CLEANUP";
	if (hostile) {
		switch (rnd(3)) {
		case 0: cl.flags = 1u << rnd(32); break;
		case 1: cl.pad = 1u << rnd(32); break;
		default: cl.reserved = rnd64() | 1; break;
		}
		want = -EINVAL;
	}
	/* A freed page we unmap now: after the cleanup it must be gone. */
	if (!hostile && c->norphans && rnd(2)) {
		gone = c->orphans[0].mmap_offset;
		drop_orphan(c, 0);
	}
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &cl);
	if (injected_failure(ret, want))
		return;
	saw("CLEANUP", ret, 0);
	if (ret != want)
		mismatch("CLEANUP(flags %#x pad %#x reserved %#" PRIx64 "): %s, want %s", cl.flags,
			 cl.pad, (uint64_t)cl.reserved, ename(ret), ename(want));
	if (ret)
		return;
	fzm_cleanup(&c->m);
	check_client_bytes(c, "after CLEANUP");
	if (gone)
		check_gone(c, gone);
	for (i = 0; i < c->norphans; i++)	/* a mapping keeps its page readable */
		sink += *(volatile uint8_t *)c->orphans[i].map;
}

/* ---- POOL_INSTALL ------------------------------------------------------------- */

static uint64_t gen_page(const struct fz_dev *d)
{
	static const uint64_t pages[] = { 64 * KiB, 128 * KiB, 256 * KiB, 1 * MiB, 2 * MiB };
	uint64_t p = pages[rnd(5)];

	if (chance(4))
		p += rnd(3) ? d->p.alignment + rnd(3) - 1 : rnd(4096);
	return p;
}

static void gen_entry(const struct fz_dev *d, struct drm_vrampool_pool_entry *e)
{
	uint64_t page;

	switch (d->p.exclusive ? rnd(2) : rnd(3)) {
	case 0:
		*e = vp_exclusive(rnd(4) ? rnd(2 * MiB) + rnd(2) : 0,
				  rnd(2) ? VP_ABSENT : 1 + rnd(200));
		break;
	case 1:
		/* A low watermark now and then: free buffers go back often. */
		*e = vp_direct(rnd(2) ? VP_ABSENT : rnd(16 * MiB) >> (rnd(2) ? 0 : 6));
		break;
	default:
		page = gen_page(d);
		*e = vp_sliced(page, rnd(2) ? VP_ABSENT : 1 + rnd(page),
			       rnd(3) ? VP_ABSENT : page * (1 + rnd(8)) + rnd(2));
		if (chance(4))
			vp_entry_set(e, DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, rnd(10000));
	}
}

/* One hostile change to a well-formed entry. */
static void mutate_entry(struct drm_vrampool_pool_entry *e)
{
	static const uint64_t edges[] = { 0, 1, UINT64_MAX, UINT64_MAX - 1, 1ULL << 63,
					  65535, 65536, 4095, 4097 };
	uint64_t v = edges[rnd(ARRAY_SIZE(edges))];
	__u64 *f = &e->page_size + rnd(7);

	switch (rnd(6)) {
	case 0: e->type = rnd(2) ? rnd(6) : (uint32_t)rnd64(); break;
	case 1: e->flags ^= 1u << rnd(rnd(2) ? 4 : 32); break;
	case 2: e->reserved = rnd64() | 1; break;
	case 3:
		/* A cap on either side of the page limit (TooManyPages). */
		if (!e->page_size || e->page_size > UINT64_MAX / 65537)
			break;
		e->flags |= DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
		e->max_pool_size = e->page_size * (65535 + rnd(2)) + rnd(2);
		break;
	default: *f = v; break;
	}
}

/* The installed or refused layout, as the documented rules decide it. */
struct install_plan {
	int err;
	struct drm_vrampool_layout_error le;
	uint32_t count;
	struct drm_vrampool_pool_entry out[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
};

static void invalid(struct install_plan *p, uint32_t field, uint64_t v)
{
	p->err = -EINVAL;
	vrampool_layout_error_set(&p->le, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT,
				  DRM_VRAMPOOL_NO_ENTRY, field, v, 0);
}

enum ptr_kind { PTR_OK, PTR_NULL, PTR_UNMAPPED, PTR_UNALIGNED, PTR_READ_ONLY };

static void plan_install(const struct fz_client *c, const struct drm_vrampool_pool_install *r,
			 const struct drm_vrampool_pool_entry *entries, enum ptr_kind ptr,
			 struct install_plan *p)
{
	const struct fz_dev *d = &devs[c->dev];

	memset(p, 0, sizeof(*p));
	if (r->flags & ~DRM_VRAMPOOL_INSTALL_FLAGS)
		return invalid(p, DRM_VRAMPOOL_FIELD_FLAGS, r->flags);
	if (r->pad)
		return invalid(p, DRM_VRAMPOOL_FIELD_PAD, r->pad);
	if (r->reserved[0] || r->reserved[1])
		return invalid(p, DRM_VRAMPOOL_FIELD_RESERVED, r->reserved[0] | r->reserved[1]);
	if (r->preset != DRM_VRAMPOOL_PRESET_NONE) {
		if (r->entries)
			return invalid(p, DRM_VRAMPOOL_FIELD_ENTRIES, r->entries);
		if (r->count)
			return invalid(p, DRM_VRAMPOOL_FIELD_COUNT, r->count);
		if (r->entry_size)
			return invalid(p, DRM_VRAMPOOL_FIELD_ENTRY_SIZE, r->entry_size);
		p->err = vrampool_layout_preset(&d->lp, r->preset, p->out, &p->count, &p->le);
		return;
	}
	if (!r->count && r->entries)
		return invalid(p, DRM_VRAMPOOL_FIELD_ENTRIES, r->entries);
	if (!r->count || r->count > DRM_VRAMPOOL_MAX_DYNAMIC_POOLS) {
		p->err = vrampool_layout_resolve(&d->lp, NULL, r->count, NULL, &p->le);
		return;
	}
	if (r->entry_size != sizeof(struct drm_vrampool_pool_entry))
		return invalid(p, DRM_VRAMPOOL_FIELD_ENTRY_SIZE, r->entry_size);
	if (ptr == PTR_NULL || ptr == PTR_UNMAPPED || ptr == PTR_UNALIGNED) {
		p->err = -EFAULT;
		return;
	}
	p->err = vrampool_layout_resolve(&d->lp, entries, r->count, p->out, &p->le);
	p->count = r->count;
}

static struct drm_vrampool_pool_entry gen_entries[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS + 2];

static void build_install(const struct fz_client *c, struct drm_vrampool_pool_install *r,
			  enum ptr_kind *ptr)
{
	const struct fz_dev *d = &devs[c->dev];
	uint32_t n, i, kind = rnd(20);
	struct drm_vrampool_pool_entry *src = gen_entries;

	memset(r, 0, sizeof(*r));
	*ptr = PTR_OK;
	if (chance(3))
		r->flags = DRM_VRAMPOOL_INSTALL_TEST_ONLY;
	if (kind < 4) {
		r->preset = kind < 3 ? 1 + rnd(2) : rnd(2) ? 3 + rnd(5) : (uint32_t)rnd64();
		return;
	}
	n = chance(16) ? DRM_VRAMPOOL_MAX_DYNAMIC_POOLS + rnd(2) : 1 + rnd(GEN_MAX);
	if (kind == 4 || kind == 5)
		n = 1 + rnd(3);
	for (i = 0; i < n; i++) {
		uint64_t page = gen_page(d);

		/*
		 * Capped sliced pools alone now and then: no direct pool
		 * behind them, so a full one refuses (PoolCapacityExceeded);
		 * or direct pools alone, their reclaim_at met often.
		 */
		if (kind == 4)
			src[i] = vp_sliced(page, VP_ABSENT, page * (1 + rnd(2)));
		else if (kind == 5)	/* direct pools alone, a watermark below 256 KiB */
			src[i] = vp_direct(rnd(256 * KiB));
		else
			gen_entry(d, &src[i]);
	}
	/* Exactly one exclusive{0} first keeps zero-size requests served. */
	if (rnd(2))
		src[0] = vp_exclusive(0, VP_ABSENT);
	if (chance(3))
		mutate_entry(&src[rnd(n)]);
	r->count = n;
	r->entry_size = sizeof(struct drm_vrampool_pool_entry);
	r->entries = (uintptr_t)src;
	switch (rnd(30)) {
	case 0: r->flags |= 1u << (1 + rnd(31)); break;
	case 1: r->pad = 1 + rnd(100); break;
	case 2: r->reserved[rnd(2)] = rnd64() | 1; break;
	case 3: r->entry_size += rnd(2) ? 8 : -8; break;
	case 4: r->count = 0; if (rnd(2)) r->entries = 0; break;
	case 5: r->preset = 1 + rnd(2); break;
	case 6: *ptr = PTR_NULL; r->entries = 0; break;
	case 7: *ptr = PTR_UNMAPPED; r->entries = (uintptr_t)mem_none; break;
	case 8:
		*ptr = PTR_UNALIGNED;
		memcpy(scratch + 4, src, sizeof(*src) * (n < 8 ? n : 8));
		r->count = n < 8 ? n : 8;
		r->entries = (uintptr_t)(scratch + 4);
		break;
	case 9:
		/* A read-only array: readable, so as good as any. */
		*ptr = PTR_READ_ONLY;
		n = n < 8 ? n : 8;
		mprotect(mem_ro, VP_CPU_PAGE, PROT_READ | PROT_WRITE);
		memcpy(mem_ro, src, sizeof(*src) * n);
		mprotect(mem_ro, VP_CPU_PAGE, PROT_READ);
		r->count = n;
		r->entries = (uintptr_t)mem_ro;
		break;
	default:
		break;
	}
}

static void do_install(struct fz_client *c)
{
	struct drm_vrampool_pool_install r, a;
	struct install_plan *p = malloc(sizeof(*p));
	enum ptr_kind ptr;
	uint64_t live_bytes, live;
	int ret, want;

	op_name = "POOL_INSTALL";
	/* A third of the installs come with the dynamic pools emptied first. */
	if (chance(3))
		free_dynamic(c);
	live = dynamic_live(c, &live_bytes);
	build_install(c, &r, &ptr);
	plan_install(c, &r, ptr == PTR_READ_ONLY ? mem_ro : (void *)(uintptr_t)r.entries,
		     ptr, p);
	want = p->err;
	if (!want && live) {
		want = -EBUSY;
		vrampool_layout_error_set(&p->le, DRM_VRAMPOOL_ERR_POOLS_IN_USE,
					  DRM_VRAMPOOL_NO_ENTRY, DRM_VRAMPOOL_FIELD_NONE,
					  live_bytes, 0);
	}
	a = r;
	memset(&a.error, 0xa5, sizeof(a.error));
	a.generation = rnd64();
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, &a);
	if (injected_failure(ret, want)) {
		/* The request's cleanup may have run, nothing else. */
		check_query(c, "POOL_INSTALL failed by an injected fault");
		check_client_bytes(c, "after a failed POOL_INSTALL");
		free(p);
		return;
	}
	saw(r.flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY ? "POOL_INSTALL test-only" : "POOL_INSTALL",
	    ret, a.error.code);
	if (ret != want || memcmp(&a.error, &p->le, sizeof(p->le)) ||
	    a.generation != c->generation + (!ret && !(r.flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY)) ||
	    a.num_pools != (ret ? 0 : p->count))
		mismatch("POOL_INSTALL(flags %#x preset %u count %u entry_size %u pointer kind %d):"
			 " %s code %u entry %u field %u value %" PRIu64 ",%" PRIu64
			 " generation %" PRIu64 " pools %u; want %s code %u entry %u field %u"
			 " value %" PRIu64 ",%" PRIu64 " generation %" PRIu64 "(+1) pools %u",
			 r.flags, r.preset, r.count, r.entry_size, ptr, ename(ret), a.error.code,
			 a.error.entry, a.error.field, (uint64_t)a.error.value[0],
			 (uint64_t)a.error.value[1], (uint64_t)a.generation, a.num_pools,
			 ename(want), p->le.code, p->le.entry, p->le.field,
			 (uint64_t)p->le.value[0], (uint64_t)p->le.value[1], c->generation, p->count);
	/* A valid layout, not a test: the cleanup ran, then the swap if nothing was live. */
	if (!p->err && !(r.flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY)) {
		if (ret) {
			fzm_cleanup(&c->m);
			installs_busy++;
		} else
			fzm_install(&c->m, p->out, p->count);
	}
	if (!ret && !(r.flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY)) {
		installs_done++;
		c->generation++;
		c->num_pools = p->count;
		memcpy(c->layout, p->out, sizeof(p->out[0]) * p->count);
		memset(c->st, 0, sizeof(c->st));
	}
	free(p);
	check_query(c, "after POOL_INSTALL");
	check_client_bytes(c, "after POOL_INSTALL");
}

/* ---- POOL_QUERY, GET_PARAM, SET_PERSISTENT_MODE with hostile arguments ------- */

static void do_query_hostile(struct fz_client *c)
{
	struct drm_vrampool_pool_query q = { 0 };
	uint32_t need = (c->num_pools + 1) * sizeof(struct drm_vrampool_pool_status);
	void *buf = NULL;
	int want = 0, ret;

	op_name = "POOL_QUERY";
	switch (rnd(9)) {
	case 0: q.flags = 1u << rnd(32); want = -EINVAL; break;
	case 1: q.pad = 1 + rnd(9); want = -EINVAL; break;
	case 2: q.pad2 = 1; want = -EINVAL; break;
	case 3: q.reserved[rnd(2)] = rnd64() | 1; want = -EINVAL; break;
	case 4: q.size = need + (rnd(2) ? 1 : -(uint32_t)sizeof(snap.pools[0])); want = -EINVAL; break;
	case 5: q.size = need; q.pools = 0; want = -EFAULT; break;
	case 6: q.size = need; q.pools = (uintptr_t)mem_none; want = -EFAULT; break;
	case 7: q.size = need; q.pools = (uintptr_t)mem_ro; want = need ? -EFAULT : 0; break;
	default:
		/* Unaligned, big enough: fine. */
		buf = malloc(need + 8);
		q.size = need;
		q.pools = (uintptr_t)buf + 1;
		break;
	}
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q);
	free(buf);
	if (injected_failure(ret, want))
		return;
	saw("POOL_QUERY", ret, 0);
	if (ret != want)
		mismatch("POOL_QUERY(size %u flags %#x pad %u,%u pools %#" PRIx64 "): %s, want %s",
			 q.size, q.flags, q.pad, q.pad2, (uint64_t)q.pools, ename(ret),
			 ename(want));
	if (want == -EINVAL && q.size != need && !q.flags && !q.pad && !q.pad2 &&
	    !q.reserved[0] && !q.reserved[1])
		mismatch("POOL_QUERY of a wrong size answered size %u, want %u", q.size, need);
}

static void do_get_param(struct fz_client *c)
{
	const struct fz_dev *d = &devs[c->dev];
	struct drm_vrampool_get_param g = { 0 };
	uint64_t want_v = 0;
	int want = 0, ret;
	bool exact = true;

	op_name = "GET_PARAM";
	g.param = rnd(4) ? rnd(8) : rnd(2) ? 8 + rnd(100) : (uint32_t)rnd64() | 8;
	if (chance(8))
		g.pad = 1 + rnd(5);
	if (chance(8))
		g.reserved = rnd64() | 1;
	if (g.param > DRM_VRAMPOOL_PARAM_ABI_VERSION || g.pad || g.reserved)
		want = -EINVAL;
	switch (g.param) {
	case DRM_VRAMPOOL_PARAM_VRAM_SIZE: want_v = d->p.vram_size; break;
	case DRM_VRAMPOOL_PARAM_VRAM_IN_USE: exact = false; break;
	case DRM_VRAMPOOL_PARAM_ALIGNMENT: want_v = d->p.alignment; break;
	case DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE: want_v = d->p.max_page_size; break;
	case DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY: want_v = d->p.exclusive; break;
	case DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS: want_v = DRM_VRAMPOOL_MAX_DYNAMIC_POOLS; break;
	case DRM_VRAMPOOL_PARAM_PERSISTENT_POOL: want_v = DRM_VRAMPOOL_PERSISTENT_POOL; break;
	case DRM_VRAMPOOL_PARAM_ABI_VERSION: want_v = DRM_VRAMPOOL_ABI_VERSION; break;
	}
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, &g);
	if (injected_failure(ret, want))
		return;
	saw("GET_PARAM", ret, 0);
	if (ret != want || (!ret && exact && g.value != want_v))
		mismatch("GET_PARAM(%u pad %u reserved %#" PRIx64 "): %s value %" PRIu64
			 ", want %s %" PRIu64, g.param, g.pad, (uint64_t)g.reserved, ename(ret),
			 (uint64_t)g.value, ename(want), want_v);
}

static void do_set_mode(struct fz_client *c)
{
	struct drm_vrampool_persistent_mode m = { 0 };
	uint32_t asked;
	int want = 0, ret;

	op_name = "SET_PERSISTENT_MODE";
	m.mode = rnd(8) ? rnd(4) : rnd(2) ? 4 : (uint32_t)rnd64() | 4;
	asked = m.mode;
	if (chance(10))
		m.pad = 1u << rnd(32);
	if (m.mode > DRM_VRAMPOOL_PERSISTENT_ENFORCED || m.pad)
		want = -EINVAL;
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE, &m);
	if (injected_failure(ret, want))
		return;
	saw("SET_PERSISTENT_MODE", ret, 0);
	if (ret != want || (!ret && m.mode != c->mode))
		mismatch("SET_PERSISTENT_MODE: %s previous %u, want %s previous %u", ename(ret),
			 m.mode, ename(want), c->mode);
	if (!ret)
		c->mode = c->m.mode = asked;	/* m.mode holds the old one */
	if (!ret && rnd(2))
		check_query(c, "after SET_PERSISTENT_MODE");
}

/* The argument itself unmapped (nothing runs) or read-only (an IOWR ioctl
 * runs, then cannot answer: only those whose effect the model knows).
 */
static void do_bad_arg(struct fz_client *c)
{
	static const unsigned long reqs[] = {
		DRM_IOCTL_VRAMPOOL_GET_PARAM, DRM_IOCTL_VRAMPOOL_POOL_INSTALL,
		DRM_IOCTL_VRAMPOOL_POOL_QUERY, DRM_IOCTL_VRAMPOOL_ALLOC,
		DRM_IOCTL_VRAMPOOL_FREE, DRM_IOCTL_VRAMPOOL_CLEANUP,
		DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE,
	};
	uint32_t i = rnd(ARRAY_SIZE(reqs));
	bool ro = rnd(2);
	int ret, want = -EFAULT;

	op_name = "ioctl with a bad argument pointer";
	if (ro) {
		/* Read-only: all zero. GET_PARAM 0 / QUERY size 0 / a zero FREE
		 * (handle 0: ENOENT) / CLEANUP (runs) / mode 0 (set, then EFAULT).
		 */
		if (reqs[i] == DRM_IOCTL_VRAMPOOL_ALLOC || reqs[i] == DRM_IOCTL_VRAMPOOL_POOL_INSTALL)
			return;
		mprotect(mem_ro, VP_CPU_PAGE, PROT_READ | PROT_WRITE);
		memset(mem_ro, 0, VP_CPU_PAGE);
		mprotect(mem_ro, VP_CPU_PAGE, PROT_READ);
		if (reqs[i] == DRM_IOCTL_VRAMPOOL_FREE)
			want = -ENOENT;
		if (reqs[i] == DRM_IOCTL_VRAMPOOL_CLEANUP)
			want = 0;
	}
	ret = vp_ioctl(c->fd, reqs[i], ro ? mem_ro : mem_none);
	saw("bad argument pointer", ret, 0);
	if (ret != want)
		mismatch("ioctl %#lx on a %s argument: %s, want %s", reqs[i],
			 ro ? "read-only" : "unmapped", ename(ret), ename(want));
	if (ro && reqs[i] == DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE)
		c->mode = c->m.mode = 0;	/* it ran, then could not answer */
	if (ro && reqs[i] == DRM_IOCTL_VRAMPOOL_CLEANUP) {
		fzm_cleanup(&c->m);
		check_client_bytes(c, "after CLEANUP");
	}
}

/* The argument at an odd address: as good as an aligned one. */
static void do_unaligned_arg(struct fz_client *c)
{
	struct drm_vrampool_get_param *g = (void *)(scratch + 1024 + 3);
	struct drm_vrampool_pool_query *q = (void *)(scratch + 2048 + 5);
	int ret;

	op_name = "ioctl with an unaligned argument";
	memset(scratch + 1024, 0, 2048);
	g->param = DRM_VRAMPOOL_PARAM_ALIGNMENT;
	ret = vp_ioctl(c->fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, g);
	if (ret || g->value != devs[c->dev].p.alignment)
		mismatch("unaligned GET_PARAM(ALIGNMENT): %s %" PRIu64, ename(ret),
			 (uint64_t)g->value);
	ret = vp_ioctl(c->fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, q);
	if (ret || q->generation != c->generation || q->num_pools != c->num_pools)
		mismatch("unaligned POOL_QUERY: %s generation %" PRIu64 " pools %u", ename(ret),
			 (uint64_t)q->generation, q->num_pools);
}

/* ---- ALLOC_BATCH and FREE_BATCH (DOC: batches) ------------------------------------ */

#define FZ_BATCH	8		/* requests or handles of a batch at most */

/* Request @i of a batch, as the single ALLOC plan_alloc() predicts. */
static void plan_batch(struct fz_client *c, const struct drm_vrampool_alloc_request *reqs,
		       uint32_t n, struct alloc_plan *plans, uint32_t *first_certain)
{
	struct drm_vrampool_alloc one;
	int nlive = c->nlive;
	uint32_t i;

	*first_certain = n;
	for (i = 0; i < n; i++) {
		memset(&one, 0, sizeof(one));
		one.size = reqs[i].size;
		one.flags = reqs[i].flags;
		/* The batch's earlier requests count against the limit. */
		c->nlive = nlive + (int)i;
		plan_alloc(c, &one, &plans[i]);
		if (reqs[i].pad)
			plans[i].err = -EINVAL;
		if (plans[i].err && *first_certain == n)
			*first_certain = i;
	}
	c->nlive = nlive;
	/* Malformed requests are refused before any other check. */
	for (i = 0; i < n; i++) {
		if (plans[i].err == -EINVAL) {
			*first_certain = i;
			break;
		}
	}
}

/* A refused batch: what request @f's plan allows, and nothing changed. */
static void check_batch_error(struct fz_client *c, const struct drm_vrampool_alloc_request *reqs,
			      const struct drm_vrampool_alloc_batch *b, int ret,
			      const struct alloc_plan *plans, uint32_t certain)
{
	struct drm_vrampool_alloc one = { 0 }, got = { 0 };
	const struct alloc_plan *p;
	uint32_t f = b->failed;

	if (certain < b->count) {
		p = &plans[certain];
		if (ret != p->err || f != certain ||
		    b->error.code != (p->err == -EINVAL ? DRM_VRAMPOOL_ERR_INVALID_ARGUMENT : p->code) ||
		    b->error.size != reqs[f < b->count ? f : 0].size ||
		    (p->code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT &&
		     (b->error.pool != p->limit || b->error.capacity != max_allocations ||
		      b->error.in_use != (uint64_t)c->nlive + certain)))
			mismatch("ALLOC_BATCH of %u: %s at %d code %u, want %s at %u code %u",
				 b->count, ename(ret), (int)f, b->error.code, ename(p->err), certain,
				 p->code);
		return;
	}
	if (f >= b->count)
		mismatch("ALLOC_BATCH of %u: %s with no request named", b->count, ename(ret));
	one.size = reqs[f].size;
	one.flags = reqs[f].flags;
	got.error = b->error;
	check_alloc_error(c, &one, &got, ret, &plans[f]);
}

/* A served request: the pool the rules pick, placed apart from every live one. */
static void keep_batch_answer(struct fz_client *c, const struct drm_vrampool_alloc_request *req,
			      const struct drm_vrampool_alloc_answer *ans,
			      const struct alloc_plan *p, bool new_page)
{
	struct drm_vrampool_alloc a = {
		.size = req->size, .flags = req->flags, .handle = ans->handle,
		.pool = ans->pool, .page = ans->page, .offset = ans->offset,
		.padding = ans->padding, .mmap_offset = ans->mmap_offset,
		.page_size = ans->page_size,
	};

	if (a.pool == DRM_VRAMPOOL_PERSISTENT_POOL ? !p->pers_ok :
	    (p->pers_must || a.pool >= c->num_pools || !p->dyn[a.pool]))
		mismatch("ALLOC_BATCH request (%" PRIu64 ", flags %#x, mode %u) served by pool %u,"
			 " which the rules do not pick", (uint64_t)a.size, a.flags, c->mode, a.pool);
	if (ans->pad)
		mismatch("ALLOC_BATCH answer pad %u", ans->pad);
	check_alloc_placement(c, &a);
	map_fill(c, model_keep(c, &a), new_page);
}

/*
 * The model's ALLOC_BATCH, once the requests passed the checks no
 * allocation changes (plan_batch()): a request no pool accepts refuses
 * the batch before anything is placed (BufferTooBig); else each request
 * in turn as its own ALLOC; the first the model refuses is the batch's answer, and what the
 * earlier ones placed is undone, the last first, with a cleanup if they
 * made pages; unwritable answers undo them all. The answers are checked
 * by the caller, in order (preds[]).
 */
static void check_batch_predicted(struct fz_client *c,
				  const struct drm_vrampool_alloc_request *reqs,
				  const struct drm_vrampool_alloc_batch *b, int ret, bool efault,
				  struct fzm_answer *preds)
{
	uint64_t pages_before = fzm_client_pages(&c->m);
	uint32_t n = b->count, placed;

	/* A request no pool accepts refuses the batch before anything is placed. */
	for (placed = 0; placed < n; placed++)
		if (!fzm_routable(&c->m, reqs[placed].size, reqs[placed].flags))
			break;
	if (placed < n) {
		memset(&preds[placed], 0, sizeof(preds[placed]));
		preds[placed].alloc = -1;
		preds[placed].err = -EFBIG;
		preds[placed].code = DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG;
		if (b->failed != placed)
			mismatch("ALLOC_BATCH of %u: %s at %d; request %u is one no pool accepts",
				 n, ename(ret), (int)b->failed, placed);
		check_predicted(c, "ALLOC_BATCH request", reqs[placed].size, reqs[placed].flags,
				ret, &b->error, NULL, &preds[placed]);
		return;
	}
	for (placed = 0; placed < n; placed++) {
		model_alloc(c, reqs[placed].size, reqs[placed].flags, &preds[placed]);
		if (preds[placed].err)
			break;
	}
	if (placed < n) {
		if (b->failed != placed)
			mismatch("ALLOC_BATCH of %u: %s at %d; the model refuses request %u (%s)", n,
				 ename(ret), (int)b->failed, placed, ename(preds[placed].err));
		check_predicted(c, "ALLOC_BATCH request", reqs[placed].size, reqs[placed].flags,
				ret, &b->error, NULL, &preds[placed]);
		fzm_batch_undo(&c->m, placed, pages_before);
	} else if (efault) {
		if (ret != -EFAULT)
			mismatch("ALLOC_BATCH of %u with unwritable answers: %s, want EFAULT", n,
				 ename(ret));
		fzm_batch_undo(&c->m, n, pages_before);
	} else if (ret) {
		mismatch("ALLOC_BATCH of %u: %s at %d code %u; the model serves every request", n,
			 ename(ret), (int)b->failed, b->error.code);
	}
}

static void do_alloc_batch(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_alloc_request reqs[FZ_BATCH];
	struct drm_vrampool_alloc_answer ans[FZ_BATCH];
	struct drm_vrampool_alloc_batch b;
	struct alloc_plan plans[FZ_BATCH];
	struct fzm_answer preds[FZ_BATCH];
	uint32_t n = rnd(FZ_BATCH + 1), i, certain;
	bool efault = false;
	int ret, want = 0;

	/* Room for a whole batch: free some first rather than do nothing. */
	while (c->nlive + FZ_BATCH > MAX_LIVE)
		do_free(c, false);
	op_name = "ALLOC_BATCH";
	if (!n && !hostile && rnd(4))
		n = 1 + rnd(FZ_BATCH);	/* an empty batch now and then */
	memset(reqs, 0, sizeof(reqs));
	memset(&b, 0, sizeof(b));
	for (i = 0; i < n; i++) {
		reqs[i].size = gen_size(c);
		if (chance(6))
			reqs[i].flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
	}
	b.requests = (uintptr_t)reqs;
	b.answers = (uintptr_t)ans;
	b.count = n;
	if (hostile) {
		switch (rnd(6)) {
		case 0: b.flags = 1u << rnd(32); want = -EINVAL; break;
		case 1: b.reserved[rnd(2)] = rnd64() | 1; want = -EINVAL; break;
		case 2: b.count = DRM_VRAMPOOL_BATCH_MAX + 1 + rnd(1000); want = -E2BIG; break;
		case 3:
			if (n)
				reqs[rnd(n)].flags |= 1u << (1 + rnd(31));
			break;
		case 4:
			if (n)
				reqs[rnd(n)].pad = (uint32_t)rnd64() | 1;
			break;
		default:
			b.answers = (uintptr_t)(rnd(2) ? mem_ro : mem_none);
			efault = n > 0;
			break;
		}
	}
	plan_batch(c, reqs, n, plans, &certain);
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &b);
	if (injected && ret == -ENOMEM) {
		check_query(c, "ALLOC_BATCH failed by an injected fault");
		return;
	}
	saw("ALLOC_BATCH", ret, ret ? b.error.code : 0);
	if (model_exact && !want && certain == n)
		check_batch_predicted(c, reqs, &b, ret, efault, preds);
	if (want) {
		if (ret != want || b.failed != DRM_VRAMPOOL_NO_ENTRY)
			mismatch("ALLOC_BATCH of %u, flags %#x: %s at %d, want %s", b.count, b.flags,
				 ename(ret), (int)b.failed, ename(want));
	} else if (ret == -EFAULT && efault && certain == n) {
		/* Served, then the answers could not be written: all undone. */
		if (b.failed != DRM_VRAMPOOL_NO_ENTRY)
			mismatch("ALLOC_BATCH with unwritable answers: EFAULT at %d", (int)b.failed);
	} else if (ret && model_exact && certain == n) {
		/* The model checked the error; what was live kept its bytes. */
		if (ret == -ENOSPC)
			check_device_bytes(c->dev, "after VRAM pressure");
	} else if (ret) {
		check_batch_error(c, reqs, &b, ret, plans, certain);
	} else {
		if (certain < n)
			mismatch("ALLOC_BATCH of %u succeeded, want %s at %u", n,
				 ename(plans[certain].err), certain);
		if (efault)
			mismatch("ALLOC_BATCH of %u succeeded with unwritable answers", n);
		for (i = 0; i < n; i++) {
			if (model_exact)
				check_predicted(c, "ALLOC_BATCH request", reqs[i].size,
						reqs[i].flags, 0, &b.error, &ans[i], &preds[i]);
			keep_batch_answer(c, &reqs[i], &ans[i], &plans[i],
					  model_exact && preds[i].new_page);
		}
	}
	check_query(c, ret ? "a refused ALLOC_BATCH changed nothing" : "after ALLOC_BATCH");
}

static void do_free_batch(struct fz_client *c, bool hostile)
{
	struct drm_vrampool_free_batch f;
	uint32_t h[FZ_BATCH], n = 0, i, j, want_at = DRM_VRAMPOOL_NO_ENTRY, code = 0;
	int idx[FZ_BATCH], ret, want = 0, k;
	bool used[MAX_LIVE] = { false };

	op_name = "FREE_BATCH";
	/* Distinct live handles, in random order. */
	while (n < FZ_BATCH && n < (uint32_t)c->nlive && (n == 0 || !chance(3))) {
		k = (int)rnd((uint32_t)c->nlive);
		if (used[k])
			continue;
		used[k] = true;
		h[n++] = c->live[k].handle;
	}
	if (n && chance(3)) {
		i = rnd(n);
		if (i && rnd(2))
			h[i] = h[rnd(i)];			/* named twice */
		else
			h[i] = rnd(2) ? (uint32_t)rnd64() : rnd(64);	/* maybe unknown */
	}
	memset(&f, 0, sizeof(f));
	f.handles = (uintptr_t)h;
	f.count = n;
	if (hostile) {
		switch (rnd(4)) {
		case 0: f.flags = 1u << rnd(32); want = -EINVAL; break;
		case 1: f.reserved = rnd64() | 1; want = -EINVAL; break;
		case 2: f.count = DRM_VRAMPOOL_BATCH_MAX + 1 + rnd(1000); want = -E2BIG; break;
		default:
			f.handles = (uintptr_t)mem_none;
			if (n)
				want = -EFAULT;
			break;
		}
	}
	/* The first entry that names no live allocation or an earlier entry's. */
	for (i = 0; !want && i < n; i++) {
		for (j = 0; j < i && h[j] != h[i]; j++)
			;
		if (j < i) {
			want = -EINVAL;
			code = DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE;
		} else if (!handle_live(c, h[i], &idx[i])) {
			want = -ENOENT;
			code = DRM_VRAMPOOL_ERR_NOT_FOUND;
		} else {
			continue;
		}
		want_at = i;
	}
	ret = xioctl(c->fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &f);
	if (injected_failure(ret, want)) {
		check_query(c, "FREE_BATCH failed by an injected fault");
		return;
	}
	saw("FREE_BATCH", ret, f.code);
	if (ret != want || f.failed != want_at || f.code != code)
		mismatch("FREE_BATCH of %u: %s at %d code %u, want %s at %d code %u", f.count,
			 ename(ret), (int)f.failed, f.code, ename(want), (int)want_at, code);
	for (i = 0; !ret && i < n; i++) {
		/* Indices move as allocations are forgotten: look each up again. */
		if (!handle_live(c, h[i], &k))
			mismatch("FREE_BATCH: handle %u lost from the model", h[i]);
		forget(c, k, chance(4));
	}
	check_query(c, ret ? "a refused FREE_BATCH changed nothing" : "after FREE_BATCH");
}

/* ---- fork, close and reopen, sysfs and fdinfo ------------------------------------ */

/* The child's ALLOCs, drawn by the parent; their answers, for its model. */
#define CHILD_ALLOCS	3

struct child_report {
	uint64_t size[CHILD_ALLOCS];
	int ret[CHILD_ALLOCS];
	struct drm_vrampool_alloc a[CHILD_ALLOCS];
};

/*
 * The child shares the open file: it reads the parent's bytes through the
 * inherited mappings, allocates and frees a few of its own (a new page
 * reads zero), reports each answer, and exits.
 */
static int child_ops(struct fz_client *c, struct child_report *r)
{
	int i;

	for (i = 0; i < c->nlive; i++) {
		const struct fz_alloc *l = &c->live[i];

		if (l->map && vp_check_words(l->map + l->offset, 0, l->size, l->seed) >= 0)
			return 10;
	}
	for (i = 0; i < CHILD_ALLOCS; i++) {
		struct drm_vrampool_alloc *a = &r->a[i];
		uint64_t size = r->size[i];
		uint8_t *m;

		r->ret[i] = vp_alloc(c->fd, size, 0, a);
		if (r->ret[i] == -ENOSPC || r->ret[i] == -EDQUOT || r->ret[i] == -EFBIG)
			continue;
		if (r->ret[i])
			return 11;
		m = mmap(NULL, map_len_of(a->page_size), PROT_READ | PROT_WRITE, MAP_SHARED,
			 c->fd, a->mmap_offset);
		if (m == MAP_FAILED)
			return 12;
		vp_fill_pattern(m + a->offset, size, 77, 0);
		if (vp_check_pattern(m + a->offset, size, 77, 0) >= 0)
			return 13;
		munmap(m, map_len_of(a->page_size));
		if (vp_free(c->fd, a->handle))
			return 14;
	}
	return 0;
}

/* The child's ALLOCs and FREEs, in the parent's model (exact runs). */
static void check_child_predicted(struct fz_client *c, const struct child_report *r)
{
	struct drm_vrampool_alloc_answer ans;
	struct fzm_answer pred;
	int i;

	for (i = 0; i < CHILD_ALLOCS; i++) {
		model_alloc(c, r->size[i], 0, &pred);
		alloc_answer_of(&r->a[i], &ans);
		check_predicted(c, "a forked child's ALLOC", r->size[i], 0, r->ret[i],
				&r->a[i].error, &ans, &pred);
		if (!r->ret[i])
			fzm_free(&c->m, r->a[i].handle);
	}
}

static void do_fork(struct fz_client *c)
{
	uint64_t saved, t0;
	struct child_report *r;
	pid_t pid;
	int status, i;

	op_name = "fork";
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		mismatch("mmap of the child's report: %s", strerror(errno));
	for (i = 0; i < CHILD_ALLOCS; i++)
		r->size[i] = 1 + rnd(8192);
	saved = rng_state;
	t0 = prof_start();
	pid = fork();
	if (pid < 0)
		mismatch("fork: %s", strerror(errno));
	if (!pid) {
		rng_state ^= 0x5bd1e995;
		_exit(child_ops(c, r));
	}
	rng_state = saved;
	prof_end(P_FORK, t0);
	t0 = prof_start();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		mismatch("the forked child on the shared file failed: status %#x", status);
	prof_end(P_WAIT, t0);
	forks_done++;
	if (model_exact)
		check_child_predicted(c, r);
	munmap(r, sizeof(*r));
	check_query(c, "after the forked child's allocations and frees");
	check_client_bytes(c, "after fork");
}

static void do_reopen(struct fz_client *c)
{
	int dev = rnd(ndevs);

	if (only_dev >= 0)
		dev = only_dev;
	op_name = "close and reopen";
	client_close(c);
	client_open(c, dev);
	reopens++;
}

/* ---- The device's VRAM quota ---------------------------------------------- */

static int quota_dev = -1;		/* the device whose quota is set, if one is */
static uint64_t quota_until;		/* the step at which it is lifted again */

/* Writes @q to the sysfs vram_quota of device @dev; the model follows. */
static int quota_write(int dev, uint64_t q)
{
	char path[512], v[32];
	int ret;

	vp_sysfs_dev_path(&devs[dev].d, "vram_quota", path, sizeof(path));
	snprintf(v, sizeof(v), "%" PRIu64, q);
	ret = vp_write_file(path, v);
	if (!ret)
		devs[dev].m.quota = q;
	return ret;
}

/* Every quota as it was before the run (also on a mismatch: no recursion). */
static void quotas_restore(void)
{
	int i;

	for (i = 0; i < ndevs; i++)
		if (devs[i].m.quota != devs[i].quota_start)
			quota_write(i, devs[i].quota_start);
	quota_dev = -1;
}

static void quota_tick(void);

/*
 * Now and then a quota on the client's device for a few hundred steps, a
 * little above what the client holds: its next pages, and the other
 * clients' on the device, meet it, and the model predicts each
 * QuotaExceeded with its quota and the VRAM held. Exact runs only (a
 * fail-nth run has no model to predict it).
 */
static void do_quota(struct fz_client *c)
{
	uint64_t q = fzm_client_vram(&c->m) + VP_CPU_PAGE * rnd(257);
	int ret;

	if (!model_exact) {
		check_query(c, op_name = "POOL_QUERY (no quota in a fail-nth run)");
		return;
	}
	if (quota_dev >= 0) {
		quota_until = step;	/* lifted early */
		quota_tick();
		return;
	}
	op_name = "vram_quota";
	ret = quota_write(c->dev, q ?: VP_CPU_PAGE);
	if (ret)
		mismatch("vram_quota of %s := %" PRIu64 ": %s", devs[c->dev].d.name, q,
			 ename(ret));
	quota_dev = c->dev;
	quota_until = step + 50 + rnd(150);
	quotas_set++;
}

/* The quota set by do_quota() lifted when its steps are over. */
static void quota_tick(void)
{
	int ret;

	if (quota_dev < 0 || step < quota_until)
		return;
	op_name = "vram_quota lifted";
	ret = quota_write(quota_dev, devs[quota_dev].quota_start);
	if (ret)
		mismatch("vram_quota of %s back to %" PRIu64 ": %s", devs[quota_dev].d.name,
			 devs[quota_dev].quota_start, ename(ret));
	quota_dev = -1;
}

static void do_reads(struct fz_client *c)
{
	char buf[VP_VAL_MAX];
	uint64_t resident, id, t0;
	int ret;

	op_name = "fdinfo and sysfs";
	t0 = prof_start();
	ret = vp_fdinfo_size(c->fd, "drm-resident-vram", &resident);
	prof_end(P_READS, t0);
	if (ret)
		mismatch("fdinfo drm-resident-vram: %s", ename(ret));
	check_query(c, "fdinfo");
	if (resident != snap.vram_in_use)
		mismatch("fdinfo drm-resident-vram %" PRIu64 ", POOL_QUERY vram_in_use %" PRIu64,
			 resident, snap.vram_in_use);
	t0 = prof_start();
	ret = vp_client_id(c->fd, &id);
	prof_end(P_READS, t0);
	if (ret)
		mismatch("fdinfo drm-client-id: %s", ename(ret));
	if (rnd(2)) {
		char path[VP_PATH_LEN], dir[VP_DIR_LEN];

		t0 = prof_start();
		vp_sysfs_client_path(&devs[c->dev].d, id, dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/persistent_mode", dir);
		if (vp_read_line(path, buf, sizeof(buf)) == 0 &&
		    strcmp(buf, vp_persistent_mode_str(c->mode)))
			mismatch("sysfs %s reads %s, want %s", path, buf,
				 vp_persistent_mode_str(c->mode));
		prof_end(P_READS, t0);
	}
	check_device_vram(c->dev, "sysfs and GET_PARAM");
}

static void check_one(const struct fz_client *c, const struct fz_alloc *a)
{
	op_name = "a random check";
	check_alloc_bytes(c, a, "a random check", a->size <= 256 * KiB);
}

/* ---- The steps ------------------------------------------------------------------- */

static void one_step(void)
{
	struct fz_client *c = pick_client();
	uint32_t r = rnd(1000);
	uint64_t t0 = prof_start();

	injected = false;
	armed = fail_nth_mode && chance(4) ? 1 + rnd(4) : 0;
	if (r < 300)
		do_alloc(c, false);
	else if (r < 330)
		do_alloc(c, true);
	else if (r < 540)
		do_free(c, false);
	else if (r < 560)
		do_free(c, true);
	else if (r < 600)
		do_cleanup(c, false);
	else if (r < 610)
		do_cleanup(c, true);
	else if (r < 680)
		do_install(c);
	else if (r < 720)
		check_query(c, op_name = "POOL_QUERY");
	else if (r < 745)
		do_query_hostile(c);
	else if (r < 790)
		do_get_param(c);
	else if (r < 820)
		do_set_mode(c);
	else if (r < 840)
		do_bad_arg(c);
	else if (r < 850)
		do_unaligned_arg(c);
	else if (r < 870)
		do_reads(c);
	else if (r < 872)
		do_fork(c);
	else if (r < 876)
		do_reopen(c);
	else if (r < 896)
		do_alloc_batch(c, r < 880);
	else if (r < 912)
		do_free_batch(c, r < 899);
	else if (r < 913)
		do_quota(c);
	else if (c->nlive)
		check_one(c, &c->live[rnd(c->nlive)]);
	else
		check_query(c, op_name = "POOL_QUERY, nothing live");
	armed = 0;
	prof_step(op_name, t0);
}

static void setup_memory(void)
{
	mem_none = mmap(NULL, VP_CPU_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mem_ro = mmap(NULL, VP_CPU_PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	scratch = mmap(NULL, 4 * VP_CPU_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem_none == MAP_FAILED || mem_ro == MAP_FAILED || scratch == MAP_FAILED)
		mismatch("mmap of the fuzzer's own memory: %s", strerror(errno));
}

static int cmp_dev_names(const void *a, const void *b)
{
	return strcmp(((const struct vp_device *)a)->name, ((const struct vp_device *)b)->name);
}

static void setup_devices(void)
{
	struct vp_device d[VP_MAX_DEVICES];
	char path[512];
	int i, ret;

	op_name = "setup";
	ndevs = vp_enumerate(d, VP_MAX_DEVICES);
	if (ndevs <= 0)
		mismatch("no vrampool device (%s)", ename(ndevs));
	/* By name, not by minor (probe order): the same seed, the same devices. */
	qsort(d, ndevs, sizeof(d[0]), cmp_dev_names);
	for (i = 0; i < ndevs; i++) {
		struct fz_dev *fd = &devs[i];

		fd->d = d[i];
		fd->probe = vp_open_device(&d[i]);
		if (fd->probe < 0)
			mismatch("open %s: %s", d[i].path, ename(fd->probe));
		ret = vp_read_props(fd->probe, &fd->p);
		if (ret)
			mismatch("GET_PARAM of %s: %s", d[i].name, ename(ret));
		fd->lp.alignment = fd->p.alignment;
		fd->lp.max_page_size = fd->p.max_page_size;
		fd->lp.exclusive_memory_only = fd->p.exclusive;
		fd->vram_start = vp_vram_in_use(fd->probe);
		vp_sysfs_dev_path(&d[i], "vram_quota", path, sizeof(path));
		if (vp_read_u64_file(path, &fd->quota_start))
			mismatch("%s: no vram_quota to read", path);
	}
	if (vp_module_param_u64("max_allocations", &max_allocations))
		max_allocations = UINT64_MAX;
	if (vp_module_param_u64("max_pages", &max_pages))
		max_pages = UINT64_MAX;
	for (i = 0; i < ndevs; i++)
		devs[i].m = (struct fzm_dev){ .vram_size = devs[i].p.vram_size,
					       .alignment = devs[i].p.alignment,
					       .max_pages = max_pages,
					       .quota = devs[i].quota_start };
}

static void print_seen(void)
{
	bool err_seen[256] = { false }, code_seen[64] = { false };
	int i, errs = 0, codes = 0;

	printf("# %d distinct answers (ioctl, errno, error code):\n", nseen);
	for (i = 0; i < nseen; i++) {
		int e = -seen[i].err;

		printf("#   %-24s %-10s code %2u: %" PRIu64 "\n", seen[i].op, ename(seen[i].err),
		       seen[i].code, seen[i].n);
		if (e > 0 && e < 256 && !err_seen[e]) {
			err_seen[e] = true;
			errs++;
		}
		if (seen[i].code && seen[i].code < 64 && !code_seen[seen[i].code]) {
			code_seen[seen[i].code] = true;
			codes++;
		}
	}
	printf("# distinct errnos: %d; distinct DRM_VRAMPOOL_ERR_* codes: %d of %d\n", errs,
	       codes, DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE);
}

/* Whether @op succeeded in any run. */
static bool succeeded(const char *op)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i].op, op) && !seen[i].err)
			return true;
	return false;
}

static bool code_seen(uint32_t code)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i].code == code)
			return true;
	return false;
}

/*
 * The plan's floor: every ioctl succeeded at least once, and every error
 * code the devices and limits make reachable was answered at least once
 * (PresetUnavailable and SlicedPoolsUnavailable need an exclusive-only
 * device, ClientLimit limits within reach of MAX_LIVE, QuotaExceeded a
 * quota step). Returns how many are missing; each is named.
 */
static int missing_answers(uint64_t quotas)
{
	static const char *const ioctls[] = {
		"ALLOC", "FREE", "CLEANUP", "POOL_INSTALL", "POOL_INSTALL test-only",
		"POOL_QUERY", "GET_PARAM", "SET_PERSISTENT_MODE", "ALLOC_BATCH", "FREE_BATCH",
	};
	bool exclusive_only = false;
	int i, missing = 0;
	uint32_t code;

	for (i = 0; i < ndevs; i++)
		exclusive_only |= devs[i].p.exclusive;
	for (i = 0; i < (int)ARRAY_SIZE(ioctls); i++) {
		if (succeeded(ioctls[i]))
			continue;
		printf("# never answered: %s succeeding\n", ioctls[i]);
		missing++;
	}
	for (code = 1; code <= DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE; code++) {
		bool reachable = true;

		if (code == DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE ||
		    code == DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE)
			reachable = exclusive_only;
		else if (code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT)
			reachable = max_allocations <= MAX_LIVE || max_pages <= MAX_LIVE;
		else if (code == DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED)
			reachable = quotas > 0;
		if (!reachable || code_seen(code))
			continue;
		printf("# never answered: error code %u\n", code);
		missing++;
	}
	return missing;
}

/* What the runs add up to, for the summary (a worker's reach its parent). */
struct fz_totals {
	uint64_t steps, allocs, bytes, forks, reopens, injected, absorbed, installs, quotas;
};

static struct fz_totals totals;

/* One seeded run; returns only when every answer matched the model. */
static void run(uint64_t s, uint64_t n, int nc)
{
	struct timespec t0, t1;
	double secs;
	int i;

	seed = s;
	steps = n;
	rng_state = s * 0x9e3779b97f4a7c15ULL + 1;
	nclients = nc;
	step = 0;
	allocs_made = bytes_checked = forks_done = reopens = installs_done = installs_busy = 0;
	quotas_set = 0;
	ops_failed_injected = ops_absorbed = 0;
	/* Every client closed: the device holds what it held at the start. */
	for (i = 0; i < ndevs; i++)
		devs[i].m.in_use = devs[i].vram_start;
	for (i = 0; i < nclients; i++)
		client_open(&clients[i], only_dev >= 0 ? only_dev : i % ndevs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (step = 0; step < n; step++) {
		quota_tick();
		one_step();
		if (step % 1024 == 1023) {
			uint64_t t0 = prof_start();

			check_device_vram(clients[rnd(nclients)].dev, "a periodic check");
			prof_step("a periodic check", t0);
		}
	}
	op_name = "the end";
	quotas_restore();
	for (i = 0; i < nclients; i++)
		check_query(&clients[i], "the end");
	for (i = 0; i < ndevs; i++)
		if (only_dev < 0 || i == only_dev)
			check_device_vram(i, "the end");
	for (i = 0; i < nclients; i++)
		client_close(&clients[i]);
	for (i = 0; i < ndevs; i++) {
		uint64_t v = only_dev < 0 || i == only_dev ? vp_vram_in_use(devs[i].probe) :
							    devs[i].vram_start;

		if (v != devs[i].vram_start)
			mismatch("%s: VRAM_IN_USE %" PRIu64 " after every client closed, %" PRIu64
				 " at the start", devs[i].d.name, v, devs[i].vram_start);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# seed %" PRIu64 ": %" PRIu64 " steps over %d clients on %s in %.1f s"
	       " (%.0f steps/s); %" PRIu64 " allocations, %" PRIu64 " bytes checked, %" PRIu64
	       " forks, %" PRIu64 " reopens; %" PRIu64 " layouts swapped in, %" PRIu64
	       " refused as in use; %" PRIu64 " quotas set\n", s, n, nclients,
	       only_dev >= 0 ? devs[only_dev].d.name : ndevs > 1 ? "every device" : "1 device",
	       secs, n / (secs ?: 1), allocs_made, bytes_checked, forks_done, reopens,
	       installs_done, installs_busy, quotas_set);
	totals.steps += n;
	totals.allocs += allocs_made;
	totals.bytes += bytes_checked;
	totals.forks += forks_done;
	totals.reopens += reopens;
	totals.injected += ops_failed_injected;
	totals.absorbed += ops_absorbed;
	totals.installs += installs_done;
	totals.quotas += quotas_set;
	if (fail_nth_mode)
		printf("# fail-nth: %" PRIu64 " operations failed by an injected fault, %" PRIu64
		       " absorbed one\n", ops_failed_injected, ops_absorbed);
	prof_print(secs);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

struct plan_item {
	uint64_t seed, steps;
	bool fail_nth;
	int dev;		/* -1: clients over every device */
	bool parallel;		/* run by the worker of its device, beside the others */
};

/* Runs @it (its TAP line is the caller's); a mismatch exits. */
static void run_item(const struct plan_item *it, int nc)
{
	char dev[32] = "";

	fail_nth_mode = it->fail_nth;
	model_exact = !it->fail_nth;
	only_dev = it->dev;
	if (it->dev >= 0)
		snprintf(dev, sizeof(dev), " DEVICE=%d", it->dev);
	printf("# seed %" PRIu64 ", %" PRIu64 " steps%s%s%s (replay: make fuzz SEED=%" PRIu64
	       " STEPS=%" PRIu64 "%s%s)\n", it->seed, it->steps, fail_nth_mode ? ", fail-nth" : "",
	       it->dev >= 0 ? " on " : "", it->dev >= 0 ? devs[it->dev].d.name : "", it->seed,
	       it->steps, dev, fail_nth_mode ? " FAIL_NTH=1" : "");
	run(it->seed, it->steps, nc);
}

static const char *item_name(const struct plan_item *it, char *buf, size_t len)
{
	snprintf(buf, len, "fuzz seed %" PRIu64 " %" PRIu64 " steps%s%s%s", it->seed, it->steps,
		 it->fail_nth ? " fail-nth" : "", it->dev >= 0 ? " on " : "",
		 it->dev >= 0 ? devs[it->dev].d.name : "");
	return buf;
}

/*
 * Parallel items: one worker process per device runs that device's items in
 * turn, on both CPUs at once. Each worker's clients stay on its device, so
 * the model of the device (its VRAM in use, every byte) stays exact. A
 * worker reports each finished item, its totals and the answers it saw
 * through shared memory; the parent prints the TAP results in plan order.
 */
struct worker_out {
	int done;		/* items finished */
	struct fz_totals totals;
	int nseen;
	typeof(seen[0]) seen[SEEN_MAX];
};

static void merge_worker(const struct worker_out *w)
{
	int i, j;

	totals.steps += w->totals.steps;
	totals.allocs += w->totals.allocs;
	totals.bytes += w->totals.bytes;
	totals.forks += w->totals.forks;
	totals.reopens += w->totals.reopens;
	totals.installs += w->totals.installs;
	totals.quotas += w->totals.quotas;
	for (i = 0; i < w->nseen; i++) {
		for (j = 0; j < nseen; j++)
			if (seen[j].op == w->seen[i].op && seen[j].err == w->seen[i].err &&
			    seen[j].code == w->seen[i].code)
				break;
		if (j == nseen && nseen < SEEN_MAX)
			seen[nseen++] = (typeof(seen[0])){ w->seen[i].op, w->seen[i].err,
							  w->seen[i].code, 0 };
		if (j < SEEN_MAX)
			seen[j].n += w->seen[i].n;
	}
}

static void worker_main(const struct plan_item *plan, int np, int dev, int nc,
			struct worker_out *out)
{
	int i;

	worker = true;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = 0; i < np; i++) {
		if (!plan[i].parallel || plan[i].dev != dev)
			continue;
		run_item(&plan[i], nc);
		out->totals = totals;
		out->nseen = nseen;
		memcpy(out->seen, seen, sizeof(seen[0]) * nseen);
		out->done++;
	}
	fflush(stdout);
	_exit(0);
}

/* Runs the parallel items of @plan; returns how many failed. */
static int run_parallel(const struct plan_item *plan, int np, int nc, int *tap)
{
	struct worker_out *out;
	pid_t pid[VP_MAX_DEVICES] = { 0 };
	int status[VP_MAX_DEVICES] = { 0 };
	int d, i, failed = 0, k[VP_MAX_DEVICES] = { 0 };
	char name[128];

	out = mmap(NULL, sizeof(*out) * ndevs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		   -1, 0);
	if (out == MAP_FAILED)
		mismatch("mmap of the workers' reports: %s", strerror(errno));
	memset(out, 0, sizeof(*out) * ndevs);
	fflush(stdout);
	for (d = 0; d < ndevs; d++) {
		for (i = 0; i < np && !(plan[i].parallel && plan[i].dev == d); i++)
			;
		if (i == np)
			continue;
		pid[d] = fork();
		if (pid[d] < 0)
			mismatch("fork of a worker: %s", strerror(errno));
		if (!pid[d])
			worker_main(plan, np, d, nc, &out[d]);
	}
	for (d = 0; d < ndevs; d++)
		if (pid[d] && waitpid(pid[d], &status[d], 0) != pid[d])
			status[d] = -1;
	for (d = 0; d < ndevs; d++)
		merge_worker(&out[d]);
	for (i = 0; i < np; i++) {
		if (!plan[i].parallel)
			continue;
		d = plan[i].dev;
		item_name(&plan[i], name, sizeof(name));
		if (k[d] < out[d].done)
			printf("ok %d %s\n", ++*tap, name);
		else if (k[d] == out[d].done)
			printf("not ok %d %s: the worker ended with status %#x\n", ++*tap, name,
			       status[d]);
		else
			printf("not ok %d %s: not run, an earlier item of its worker failed\n",
			       ++*tap, name);
		failed += k[d]++ >= out[d].done;
	}
	munmap(out, sizeof(*out) * ndevs);
	return failed;
}

int main(int argc, char **argv)
{
	struct plan_item plan[8];
	bool debug = getenv("VRAMPOOL_TIER") && !strcmp(getenv("VRAMPOOL_TIER"), "debug");
	int np = 0, nc = 4, i, tap = 0, failed = 0, dev = -1;
	bool one = false, nth = false;
	uint64_t s = 0, n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			s = strtoull(argv[++i], NULL, 0);
			one = true;
		} else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
			n = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--clients") && i + 1 < argc) {
			nc = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
			dev = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--fail-nth")) {
			nth = true;
		} else if (!strcmp(argv[i], "--profile")) {
			profiling = true;
		} else {
			fprintf(stderr, "usage: %s [--seed S] [--steps N] [--clients C]"
				" [--device D] [--fail-nth] [--profile]\n", argv[0]);
			return 2;
		}
	}
	if (nc < 1 || nc > MAX_CLIENTS)
		nc = 4;
	if (getenv("VRAMPOOL_FUZZ_SEED") && *getenv("VRAMPOOL_FUZZ_SEED")) {
		s = env_u64("VRAMPOOL_FUZZ_SEED", 0);
		one = true;
	}
	n = env_u64("VRAMPOOL_FUZZ_STEPS", n);
	nth |= env_u64("VRAMPOOL_FUZZ_FAIL_NTH", 0) != 0;
	profiling |= env_u64("VRAMPOOL_FUZZ_PROFILE", 0) != 0;
	if (getenv("VRAMPOOL_FUZZ_DEVICE") && *getenv("VRAMPOOL_FUZZ_DEVICE"))
		dev = (int)env_u64("VRAMPOOL_FUZZ_DEVICE", 0);
	printf("TAP version 13\n");
	if (access(VP_SYSFS_MODULE_PARAMS, F_OK)) {
		printf("1..0 # SKIP needs the vrampool module loaded\n");
		return 4;
	}
	setup_memory();
	setup_devices();
	if (dev >= ndevs) {
		printf("1..0 # SKIP no device %d (%d devices)\n", dev, ndevs);
		return 4;
	}
	if (one) {
		plan[np++] = (struct plan_item){ s, n ? n : 100000, nth, dev, false };
	} else if (debug) {
		/*
		 * Sized to the CI budget from the measured rate under TCG on
		 * the debug kernel (one process: the debug VMs share the CPUs).
		 */
		uint64_t per = n ? n : 30000;

		plan[np++] = (struct plan_item){ 1, per, false, -1, false };
		plan[np++] = (struct plan_item){ 2, per, false, -1, false };
		plan[np++] = (struct plan_item){ (uint64_t)time(NULL), per, false, -1, false };
		plan[np++] = (struct plan_item){ 3, per * 2 / 3, true, -1, false };
	} else {
		/*
		 * Debian's kernel: 600000 steps, about 100 s under TCG
		 * alone, three times that beside the debug VMs in make
		 * check, sized to its 600 s timeout on a slower CI machine.
		 * A worker per device (both CPUs), two seeds each, one of
		 * them from the clock; then one seed whose clients span
		 * every device, alone.
		 */
		uint64_t per = n ? n : 140000, across = n ? n / 4 : 40000;
		bool par = ndevs > 1;

		plan[np++] = (struct plan_item){ 1, per, false, par ? 0 : -1, par };
		plan[np++] = (struct plan_item){ 2, per, false, par ? 1 : -1, par };
		plan[np++] = (struct plan_item){ 3, per, false, par ? 0 : -1, par };
		plan[np++] = (struct plan_item){ (uint64_t)time(NULL), per, false, par ? 1 : -1,
						 par };
		plan[np++] = (struct plan_item){ 4, across, false, -1, false };
	}
	printf("1..%d\n", np + !one);
	failed += run_parallel(plan, np, nc, &tap);
	for (i = 0; i < np; i++) {
		char name[128];

		if (plan[i].parallel)
			continue;
		item_name(&plan[i], name, sizeof(name));
		if (plan[i].fail_nth) {
			enum vp_fault_avail av = vp_fault_available();

			if (av == VP_FAULT_UNAVAILABLE) {
				printf("ok %d fuzz fail-nth # SKIP %s\n", ++tap,
				       VP_FAULT_SKIP_REASON);
				continue;
			}
			fail_nth_fd = open(VP_FAULT_FILE, O_RDWR | O_CLOEXEC);
			if (fail_nth_fd < 0) {
				printf("not ok %d fuzz fail-nth: open %s: %s\n", ++tap,
				       VP_FAULT_FILE, strerror(errno));
				return 1;
			}
		}
		run_item(&plan[i], nc);
		printf("ok %d %s\n", ++tap, name);
		if (fail_nth_fd >= 0)
			close(fail_nth_fd);
		fail_nth_fd = -1;
	}
	print_seen();
	if (!one) {
		int missing = missing_answers(totals.quotas);

		printf("%sok %d every ioctl succeeded and every reachable error code was answered"
		       " (%d missing)\n", missing ? "not " : "", ++tap, missing);
		failed += missing > 0;
		np++;
	}
	printf("# %" PRIu64 " steps in all, %" PRIu64 " allocations, %" PRIu64 " bytes checked, %"
	       PRIu64 " forks, %" PRIu64 " reopens, %" PRIu64 " layouts swapped in, %" PRIu64
	       " quotas set", totals.steps, totals.allocs, totals.bytes, totals.forks,
	       totals.reopens, totals.installs, totals.quotas);
	if (totals.injected || totals.absorbed)
		printf(", %" PRIu64 " operations failed by an injected fault", totals.injected);
	printf("\n# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n", np - failed, failed);
	return failed ? 1 : 0;
}

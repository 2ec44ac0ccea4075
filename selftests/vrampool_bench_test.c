// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool_bench_test: what an allocation costs, side by side in one run.
 *
 * Every figure is timed here, in the same boot, against the same baselines,
 * so that only ratios are read: a VM's absolute timings mean little. Each
 * figure is measured REPS times; min and median per operation are printed.
 *
 * VRAMPOOL_BENCH=full (make bench) takes the real measurements; without it
 * (make check) a smoke run takes every measurement with small counts and
 * checks only that each one ran: no timing is ever asserted.
 * VRAMPOOL_BENCH=gate (make check-insns, the instruction gate of make check)
 * is the smoke run with the full run's repetitions, for counts alone.
 *
 * The null ioctl, the baseline of most ratios, is measured with each group
 * that is read against it, and its figure takes every sample; the warm
 * pairs and the null ioctl are measured round by round, one repetition of
 * each per round, and so are the batch sizes.
 *
 * Output: a TAP test per figure group, a human table ("# " lines), and one
 * "# @@BENCH {json}" line per figure, which make bench collects into
 * build/bench/result.json.
 *
 * Instructions: every timed span is also marked for the insn_count QEMU
 * plugin (selftests/qemu/plugin/marker.h; NOPs without it). make bench
 * boots the VM a second time with the plugin, which writes the guest
 * instructions of each sample, one line per sample in the order they end;
 * each timed figure prints which of those lines are its samples and what
 * each is divided by ("# @@INSN {json}"), and bench-report.py puts
 * instructions per operation beside the times. The benchmark runs on one
 * vCPU, so that a span begins and ends on the vCPU the plugin counts.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <drm/vrampool_accel.h>

#include "kselftest.h"
#include "qemu/plugin/marker.h"

/* From the test library, linked in (its header's names clash with these). */
void vp_slab_shrink_all(void);

#define KiB	(1024ULL)
#define MiB	(1024ULL * KiB)
#define MAX_REPS	15

struct bench_cfg {
	bool full;
	const char *name;	/* "full", "gate" or "smoke" */
	int reps;		/* repetitions of each figure */
	int iters;		/* operations per repetition (hot path) */
	int slow_iters;		/* operations per repetition (fresh buffer objects) */
	int install_iters;	/* installs per repetition */
	int live_orders;	/* live counts 10^2 ... 10^(live_orders + 1) */
	int close_order;	/* close() with 10^close_order live, and more */
	int close_orders;	/* ... up to 10^(close_order + close_orders - 1) */
	int clients;		/* clients on one device: this many, and 10 times more */
	int close_mixed;	/* close() of this many mixed allocations, and 4 times more */
	int replay_reps;	/* replays of each trace with each layout */
	int close_reps;		/* repetitions of the memory and close() figures */
};

static struct bench_cfg cfg;
static char dev_path[300];
static uint64_t dev_vram;

/* ---- Figures --------------------------------------------------------------- */

struct figure {
	const char *group;
	char name[96];
	const char *unit;
	double min, median;
	int reps;
	/* The figure this one is read against, and how many of it. */
	char vs[96];	/* empty: none */
	double vs_times;
};

#define MAX_FIGURES	128
static struct figure figures[MAX_FIGURES];
static int nfigures;

static struct figure *figure_find(const char *name)
{
	for (int i = 0; i < nfigures; i++)
		if (!strcmp(figures[i].name, name))
			return &figures[i];
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Where a sample's instruction count is: the plugin's lines @seq[0] and,
 * for a sum of two, @seq[1] (else -1), divided by @per operations.
 */
struct insn_ref {
	int seq[2];
	double per;
};

/* Which plugin line is next: one per end marker, in the order they run. */
static int insn_seq;

/*
 * The slots make bench profiles by function (the plugin's profile=N): the
 * warm pairs (ALLOC+FREE, slot 5), ALLOC_BATCH (1) and FREE_BATCH (2); the
 * operations each ran, printed at the end ("# @@INSNOPS").
 */
#define SLOT_PAIR	5
#define SLOT_BATCH_ALLOC	1
#define SLOT_BATCH_FREE	2
static double slot_ops[SLOT_PAIR + 1];

/* The "# @@INSN" line of a figure whose samples were timed spans. */
static void insn_print(const char *name, const struct insn_ref *refs, int n)
{
	char buf[64 * MAX_REPS * 4], *p = buf;
	size_t left = sizeof(buf);

	buf[0] = '\0';
	for (int i = 0; i < n && left > 1; i++) {
		int len = snprintf(p, left, "%s[%d,%d,%.0f]", i ? "," : "", refs[i].seq[0],
				   refs[i].seq[1], refs[i].per);

		if (len < 0 || (size_t)len >= left)
			ksft_exit_fail_msg("figure \"%s\": too many samples\n", name);
		p += len;
		left -= len;
	}
	ksft_print_msg("@@INSN {\"figure\":\"%s\",\"samples\":[%s]}\n", name, buf);
}

/*
 * A figure from @n samples; @refs (NULL for a figure that is not a time)
 * says where the instructions of each sample are.
 */
static void figure_add(const char *group, const char *name, const char *unit,
		       double *samples, const struct insn_ref *refs, int n,
		       const char *vs, double vs_times)
{
	struct figure *f = figure_find(name);

	/* A figure measured again (the null ioctl) keeps its place in the table. */
	if (!f) {
		if (nfigures == MAX_FIGURES)
			ksft_exit_fail_msg("too many figures\n");
		f = &figures[nfigures++];
	}
	qsort(samples, n, sizeof(*samples), cmp_double);
	f->group = group;
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->unit = unit;
	f->reps = n;
	f->min = samples[0];
	f->median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
	snprintf(f->vs, sizeof(f->vs), "%s", vs ? vs : "");
	f->vs_times = vs_times;
	if (refs)
		insn_print(name, refs, n);
}

static long pow10i(int k)
{
	long v = 1;

	while (k-- > 0)
		v *= 10;
	return v;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Before a long span whose work the kernel finishes later (RCU callbacks of
 * what close() or an install freed, kworkers): a pause in which the last
 * span's leftovers run, so that they are not counted in this one. Not
 * before a span of one short operation: waking from idle would be most
 * of its time.
 */
static void settle(void)
{
	usleep(10000);
}

/* A timed span begins: the time now, and the plugin's begin marker. */
static double span_begin(void)
{
	double t = now_ns();

	VP_INSN_BEGIN(0);
	return t;
}

/*
 * The span begun at @t ends: @at is its time per operation (@per of them)
 * in ns / @scale, and @ref where its instructions are.
 */
static void span_end(double t, double per, double scale, double *at, struct insn_ref *ref)
{
	VP_INSN_END(0);
	*at = (now_ns() - t) / per / scale;
	*ref = (struct insn_ref) { .seq = { insn_seq++, -1 }, .per = per };
}

/*
 * Where the plugin puts each loaded module's code: with the kernel's own
 * addresses fixed (make bench boots it with nokaslr), what bench-report.py
 * needs to name the functions of a profile.
 */
static void print_module_text(void)
{
	DIR *d = opendir("/sys/module");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[600], addr[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/module/%s/sections/.text", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(addr, sizeof(addr), f) && strtoull(addr, NULL, 0))
			ksft_print_msg("@@MODTEXT %s %s", e->d_name, addr);
		fclose(f);
	}
	closedir(d);
}

/* ---- Device and ioctls --------------------------------------------------------- */

static int vp_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

static uint64_t get_param(int fd, uint32_t param)
{
	struct drm_vrampool_get_param p = { .param = param };

	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, &p))
		ksft_exit_fail_msg("GET_PARAM %u: %s\n", param, strerror(errno));
	return p.value;
}

/* The first emulated device: kernel memory as VRAM, the same in every VM. */
static void find_device(void)
{
	uint64_t best = 0;
	DIR *d = opendir("/dev/accel");
	struct dirent *e;

	if (!d)
		ksft_exit_fail_msg("no /dev/accel: is vrampool loaded?\n");
	while ((e = readdir(d))) {
		char path[300], link[256];
		ssize_t n;
		int fd;

		if (strncmp(e->d_name, "accel", 5))
			continue;
		snprintf(path, sizeof(path), "/sys/class/accel/%s/device/driver", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = '\0';
		if (!strstr(link, "platform"))
			continue;
		snprintf(path, sizeof(path), "/dev/accel/%s", e->d_name);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		if (!best || strcmp(path, dev_path) < 0) {
			snprintf(dev_path, sizeof(dev_path), "%s", path);
			best = get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE);
			dev_vram = best;
		}
		close(fd);
	}
	closedir(d);
	if (!best)
		ksft_exit_fail_msg("no emulated vrampool device\n");
}

static int open_dev(void)
{
	int fd = open(dev_path, O_RDWR);

	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", dev_path, strerror(errno));
	return fd;
}

static void install(int fd, const struct drm_vrampool_pool_entry *e, uint32_t count,
		    uint32_t preset)
{
	struct drm_vrampool_pool_install in = {
		.preset = preset,
		.entries = (uintptr_t)e,
		.count = count,
		.entry_size = count ? sizeof(*e) : 0,
	};

	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, &in))
		ksft_exit_fail_msg("POOL_INSTALL (code %u): %s\n", in.error.code,
				   strerror(errno));
}

static struct drm_vrampool_pool_entry sliced(uint64_t page, uint64_t slice)
{
	return (struct drm_vrampool_pool_entry) {
		.type = DRM_VRAMPOOL_POOL_SLICED,
		.flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE,
		.page_size = page, .max_slice_size = slice,
	};
}

static struct drm_vrampool_pool_entry exclusive(uint64_t max)
{
	return (struct drm_vrampool_pool_entry) {
		.type = DRM_VRAMPOOL_POOL_EXCLUSIVE, .max_alloc_size = max,
	};
}

static struct drm_vrampool_pool_entry direct(void)
{
	return (struct drm_vrampool_pool_entry) { .type = DRM_VRAMPOOL_POOL_DIRECT };
}

static uint32_t do_alloc(int fd, uint64_t size, uint32_t flags)
{
	struct drm_vrampool_alloc a = { .size = size, .flags = flags };

	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a))
		ksft_exit_fail_msg("ALLOC %" PRIu64 " (code %u): %s\n", size, a.error.code,
				   strerror(errno));
	return a.handle;
}

static void do_free(int fd, uint32_t handle)
{
	struct drm_vrampool_free f = { .handle = handle };

	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE, &f))
		ksft_exit_fail_msg("FREE %u: %s\n", handle, strerror(errno));
}

static void do_cleanup(int fd)
{
	struct drm_vrampool_cleanup c = { 0 };

	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &c))
		ksft_exit_fail_msg("CLEANUP: %s\n", strerror(errno));
}

#define FILL_BATCH	DRM_VRAMPOOL_BATCH_MAX

/* @count slices of 256 bytes into @live, a batch of FILL_BATCH at a time. */
static void fill_slices(int fd, uint32_t *live, int count)
{
	static struct drm_vrampool_alloc_request reqs[FILL_BATCH];
	static struct drm_vrampool_alloc_answer ans[FILL_BATCH];
	struct drm_vrampool_alloc_batch b;

	for (int i = 0; i < FILL_BATCH; i++)
		reqs[i] = (struct drm_vrampool_alloc_request) { .size = 256 };
	for (int done = 0; done < count;) {
		uint32_t n = count - done < FILL_BATCH ? count - done : FILL_BATCH;

		b = (struct drm_vrampool_alloc_batch) {
			.requests = (uintptr_t)reqs, .answers = (uintptr_t)ans, .count = n,
		};
		if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &b))
			ksft_exit_fail_msg("ALLOC_BATCH of %u with %d live (request %u, code %u): %s\n",
					   n, done, b.failed, b.error.code, strerror(errno));
		for (uint32_t i = 0; i < n; i++)
			live[done + i] = ans[i].handle;
		done += n;
	}
}

/* FREE_BATCH of @count handles, FILL_BATCH at a time. */
static void free_handles(int fd, const uint32_t *live, int count)
{
	struct drm_vrampool_free_batch f;

	for (int done = 0; done < count;) {
		uint32_t n = count - done < FILL_BATCH ? count - done : FILL_BATCH;

		f = (struct drm_vrampool_free_batch) { .handles = (uintptr_t)(live + done), .count = n };
		if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &f))
			ksft_exit_fail_msg("FREE_BATCH of %u (entry %u, code %u): %s\n", n, f.failed,
					   f.code, strerror(errno));
		done += n;
	}
}

/* ---- Measurements -------------------------------------------------------------- */

/*
 * The null ioctl, measured again with each group of figures read against
 * it (round by round with the warm pairs and the batches): its figure is
 * every sample so far, so that a slow spell of the VM while it was
 * measured once does not shift every ratio.
 */
#define NULL_ROUNDS	4
static double null_samples[NULL_ROUNDS * MAX_REPS];
static struct insn_ref null_refs[NULL_ROUNDS * MAX_REPS];
static int null_count;

/* One more repetition of the null ioctl; its figure takes every one so far. */
static void null_round(int fd)
{
	double s[NULL_ROUNDS * MAX_REPS], t;

	if (null_count == NULL_ROUNDS * MAX_REPS)
		ksft_exit_fail_msg("null ioctl measured too often\n");
	t = span_begin();
	for (int i = 0; i < cfg.iters; i++)
		get_param(fd, DRM_VRAMPOOL_PARAM_ALIGNMENT);
	span_end(t, cfg.iters, 1, &null_samples[null_count], &null_refs[null_count]);
	null_count++;
	memcpy(s, null_samples, null_count * sizeof(*s));
	figure_add("baseline", "null ioctl (GET_PARAM)", "ns", s, null_refs, null_count, NULL, 0);
}

static void bench_null(int fd)
{
	for (int r = 0; r < cfg.reps; r++)
		null_round(fd);
}

/* A warm ALLOC+FREE pair: the page exists, so no buffer object is made. */
static void pair(int fd, uint64_t size, uint32_t flags, int iters, double *out,
		 struct insn_ref *ref)
{
	double t;

	do_free(fd, do_alloc(fd, size, flags));		/* warm */
	t = now_ns();
	VP_INSN_BEGIN(SLOT_PAIR);
	for (int i = 0; i < iters; i++)
		do_free(fd, do_alloc(fd, size, flags));
	VP_INSN_END(SLOT_PAIR);
	*out = (now_ns() - t) / iters;
	*ref = (struct insn_ref) { .seq = { insn_seq++, -1 }, .per = iters };
	slot_ops[SLOT_PAIR] += iters;
}

/* What a driver without pools does: one fresh TTM buffer object per allocation. */
static void bench_fresh(int fd)
{
	static const uint64_t sizes[] = { 4 * KiB, 1 * MiB, 16 * MiB };
	struct drm_vrampool_pool_entry d = direct();

	install(fd, &d, 1, DRM_VRAMPOOL_PRESET_NONE);
	for (unsigned int k = 0; k < 3; k++) {
		struct insn_ref refs[MAX_REPS];
		double s[MAX_REPS];
		char name[96];

		for (int r = 0; r < cfg.reps; r++) {
			double t = span_begin();

			for (int i = 0; i < cfg.slow_iters; i++) {
				do_free(fd, do_alloc(fd, sizes[k], 0));
				do_cleanup(fd);
			}
			span_end(t, cfg.slow_iters, 1, &s[r], &refs[r]);
		}
		snprintf(name, sizeof(name), "fresh BO per allocation %s",
			 sizes[k] >= MiB ? (sizes[k] == MiB ? "1 MiB" : "16 MiB") : "4 KiB");
		figure_add("baseline", name, "ns", s, refs, cfg.reps, "null ioctl (GET_PARAM)", 3);
	}
}

/*
 * Warm ALLOC+FREE in each pool type, each type in a client of its own (the
 * persistent pool is the direct client's), measured round by round: each
 * round takes one repetition of every figure and of the null ioctl, so a
 * slow spell of the VM falls on one repetition of several figures, which
 * their medians leave out, rather than on every repetition of one.
 */
static void bench_warm(int fd)
{
	static const struct {
		const char *type;
		uint32_t flags;
		int client;
	} types[] = {
		{ "sliced", 0, 0 }, { "exclusive", 0, 1 }, { "direct", 0, 2 },
		{ "persistent", DRM_VRAMPOOL_ALLOC_PERSISTENT, 2 },
	};
	static const uint64_t sizes[] = { 4 * KiB, 1 * MiB };
	struct drm_vrampool_pool_entry e[3] = {
		sliced(16 * MiB, 2 * MiB), exclusive(16 * MiB), direct(),
	};
	double s[4][2][MAX_REPS];
	struct insn_ref refs[4][2][MAX_REPS];
	int fds[3];

	for (int c = 0; c < 3; c++) {
		fds[c] = open_dev();
		install(fds[c], &e[c], 1, DRM_VRAMPOOL_PRESET_NONE);
	}
	for (int r = 0; r < cfg.reps; r++) {
		null_round(fd);
		for (unsigned int t = 0; t < 4; t++)
			for (unsigned int k = 0; k < 2; k++)
				pair(fds[types[t].client], sizes[k], types[t].flags, cfg.iters,
				     &s[t][k][r], &refs[t][k][r]);
	}
	for (unsigned int t = 0; t < 4; t++) {
		for (unsigned int k = 0; k < 2; k++) {
			char name[96];

			snprintf(name, sizeof(name), "warm ALLOC+FREE %s %s", types[t].type,
				 k ? "1 MiB" : "4 KiB");
			figure_add("hot path", name, "ns", s[t][k], refs[t][k], cfg.reps,
				   "null ioctl (GET_PARAM)", 2);
		}
	}
	for (int c = 0; c < 3; c++)
		close(fds[c]);
}

/* The pair cost while N slices live in the same sliced pool. */
static void bench_live(int fd)
{
	struct drm_vrampool_pool_entry e = sliced(16 * MiB, 1 * MiB);
	uint32_t *live = calloc(100 * pow10i(cfg.live_orders - 1), sizeof(*live));

	if (!live)
		ksft_exit_fail_msg("out of memory\n");
	for (int k = 0; k < cfg.live_orders; k++) {
		int count = 100 * (int)pow10i(k);
		struct insn_ref refs[MAX_REPS];
		double s[MAX_REPS];
		char name[96];

		install(fd, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
		fill_slices(fd, live, count);
		for (int r = 0; r < cfg.reps; r++)
			pair(fd, 256, 0, cfg.iters, &s[r], &refs[r]);
		free_handles(fd, live, count);
		snprintf(name, sizeof(name), "ALLOC+FREE with 10^%d live", k + 2);
		figure_add("scaling", name, "ns", s, refs, cfg.reps,
			   "ALLOC+FREE with 10^2 live", 1);
	}
	free(live);
	do_cleanup(fd);
}

static long long meminfo_kb(const char *key)
{
	char line[128];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = atoll(line + n + 1);
	fclose(f);
	return v;
}

/*
 * Slab bytes of one cache, from /proc/slabinfo (root only): its slabs times
 * their pages; -1 if unreadable.
 */
static long long slabinfo_bytes(const char *cache)
{
	long long slabs, pages, v = -1;
	char line[512], name[64];
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* name active num objsize perslab pages : tunables a b c : slabdata active num */
		if (sscanf(line, "%63s %*d %*d %*d %*d %lld : tunables %*d %*d %*d : slabdata %*d %lld",
			   name, &pages, &slabs) == 3 && !strcmp(name, cache))
			v = slabs * pages * sysconf(_SC_PAGESIZE);
	}
	fclose(f);
	return v;
}

/*
 * Kernel memory of the live slices: the unreclaimable slab (the records)
 * and the handle table's xarray nodes (radix_tree_node, which the kernel
 * counts as reclaimable slab, beside caches it shrinks at will).
 */
static long long live_slab_bytes(void)
{
	long long unreclaim = meminfo_kb("SUnreclaim"), nodes = slabinfo_bytes("radix_tree_node");

	if (unreclaim < 0 || nodes < 0)
		ksft_exit_fail_msg("cannot read /proc/meminfo or /proc/slabinfo\n");
	return unreclaim * 1024 + nodes;
}

/*
 * Kernel memory per live slice (the delta of live_slab_bytes()), and what
 * close() costs, each close() read against 10 times the one of a tenth as
 * many: 1.00 is linear. The slices are made by batches (the slab delta
 * counts what stays).
 */
static void bench_memory_and_close(void)
{
	struct drm_vrampool_pool_entry e = sliced(16 * MiB, 1 * MiB);
	int reps = cfg.close_reps;
	uint32_t *live = calloc(pow10i(cfg.close_order + cfg.close_orders - 1), sizeof(*live));

	if (!live)
		ksft_exit_fail_msg("out of memory\n");
	for (int k = 0; k < cfg.close_orders; k++) {
		int order = cfg.close_order + k, count = (int)pow10i(order);
		double close_ms[MAX_REPS], per_alloc[MAX_REPS];
		struct insn_ref refs[MAX_REPS];
		char name[96], vs[96];

		for (int r = 0; r < reps; r++) {
			int fd = open_dev();
			long long before, after;
			double t;

			install(fd, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
			do_free(fd, do_alloc(fd, 256, 0));	/* the page exists */
			/* Empty slabs kept from earlier runs would hide what these take. */
			vp_slab_shrink_all();
			before = live_slab_bytes();
			fill_slices(fd, live, count);
			after = live_slab_bytes();
			per_alloc[r] = (double)(after - before) / count;
			t = span_begin();
			close(fd);
			span_end(t, 1, 1e6, &close_ms[r], &refs[r]);
		}
		snprintf(name, sizeof(name), "kernel memory per live slice, 10^%d live", order);
		figure_add("memory", name, "bytes", per_alloc, NULL, reps, NULL, 0);
		snprintf(name, sizeof(name), "close() with 10^%d live", order);
		snprintf(vs, sizeof(vs), "close() with 10^%d live", order - 1);
		figure_add("memory", name, "ms", close_ms, refs, reps, k ? vs : NULL, 10);
	}
	free(live);
}

/*
 * close() of a client with n and 4n allocations of the kind that once made
 * it quadratic (vrampool_close_scaling_test counts its work): 40% persistent
 * buffers, a page each, and 60% slices of 1 MiB sliced pages; the two
 * sizes take turns. The 4n figure is read against 4 times the n one: 1.00
 * is linear.
 */
static void bench_close_mixed(void)
{
	struct drm_vrampool_pool_entry e = sliced(1 * MiB, 256);
	int reps = cfg.close_reps;
	double ms[2][MAX_REPS];
	struct insn_ref refs[2][MAX_REPS];
	char name[2][96];

	for (int r = 0; r < reps; r++) {
		for (int k = 0; k < 2; k++) {
			int n = cfg.close_mixed * (k ? 4 : 1), persistent = n / 100 * 40;
			int fd = open_dev();
			double t;

			install(fd, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
			for (int i = 0; i < n; i++)
				do_alloc(fd, i < persistent ? 1 : 256,
					 i < persistent ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0);
			t = span_begin();
			close(fd);
			span_end(t, 1, 1e6, &ms[k][r], &refs[k][r]);
		}
	}
	for (int k = 0; k < 2; k++)
		snprintf(name[k], sizeof(name[k]), "close() of %d mixed allocations",
			 cfg.close_mixed * (k ? 4 : 1));
	figure_add("memory", name[0], "ms", ms[0], refs[0], reps, NULL, 0);
	figure_add("memory", name[1], "ms", ms[1], refs[1], reps, name[0], 4);
}

static void bench_install(int fd)
{
	struct drm_vrampool_pool_entry e[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct insn_ref refs[MAX_REPS];
	double s[MAX_REPS];

	for (int r = 0; r < cfg.reps; r++) {
		double t = span_begin();

		for (int i = 0; i < cfg.install_iters; i++)
			install(fd, NULL, 0, DRM_VRAMPOOL_PRESET_SUB_SLICES);
		span_end(t, cfg.install_iters, 1e3, &s[r], &refs[r]);
	}
	figure_add("install", "POOL_INSTALL sub-slices preset", "us", s, refs, cfg.reps, NULL, 0);

	for (int i = 0; i < DRM_VRAMPOOL_MAX_DYNAMIC_POOLS; i++)
		e[i] = i % 2 ? exclusive((i + 1) * 64 * KiB) : sliced((i + 1) * MiB, 64 * KiB);
	for (int r = 0; r < cfg.reps; r++) {
		double t;

		settle();
		t = span_begin();
		for (int i = 0; i < cfg.install_iters; i++)
			install(fd, e, DRM_VRAMPOOL_MAX_DYNAMIC_POOLS, DRM_VRAMPOOL_PRESET_NONE);
		span_end(t, cfg.install_iters, 1e3, &s[r], &refs[r]);
	}
	figure_add("install", "POOL_INSTALL 254 pools", "us", s, refs, cfg.reps,
		   "POOL_INSTALL sub-slices preset", 1);
}

/* ---- Replays of model-shaped traces (vrampoolctl trace, plan, replay) --------- */

/*
 * For each model trace, at the device's VRAM (3 training steps; the smoke
 * run: a quarter of it, one step): the figures of each preset and of the
 * layout `vrampoolctl plan` chooses for the trace, from plan's own replay
 * of each and from `vrampoolctl replay`s, replay_reps in all (peak
 * reserved / peak live is the same in every replay; ops/s is not; the
 * smoke run takes plan's alone). vrampoolctl is in the VM's /bin.
 */
#define VRAMPOOLCTL	"vrampoolctl"
#define OUT_MAX		(64 * 1024)

/* Run @cmd; its standard output into @out (at most OUT_MAX). 0 when it exits 0. */
static int run_tool(const char *cmd, char *out)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, k;
	int st;

	if (!p)
		return -1;
	while (n < OUT_MAX - 1 && (k = fread(out + n, 1, OUT_MAX - 1 - n, p)) > 0)
		n += k;
	out[n] = '\0';
	st = pclose(p);
	return st == 0 ? 0 : -1;
}

/* The number after the first "KEY": in @json; false when absent or null. */
static bool json_number(const char *json, const char *key, double *v)
{
	char pat[64];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (!p)
		return false;
	p += strlen(pat);
	*v = strtod(p, &end);
	return end != p;
}

/* The string after "KEY": at @p, into @out. */
static bool json_text(const char *p, const char *key, char *out, size_t len)
{
	char pat[64];
	const char *q;
	size_t n;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(p, pat);
	if (!p)
		return false;
	p += strlen(pat);
	q = strchr(p, '"');
	if (!q)
		return false;
	n = (size_t)(q - p) < len - 1 ? (size_t)(q - p) : len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

/*
 * The figures of one layout: the first repetition from plan's own replay
 * of it (its candidate "@cand" in @plan, the JSON plan printed), the
 * others from replays; figures named "@model @label: ...".
 */
static bool replay_figures(const char *model, const char *label, const char *cand,
			   const char *plan, const char *trace, const char *layout, char *out)
{
	double ratio[MAX_REPS], ops[MAX_REPS];
	char cmd[1024], name[96], vs[96];
	bool is_plan = !strcmp(label, "plan");
	const char *c;

	snprintf(name, sizeof(name), "{\"name\":\"%s\",", cand);
	c = strstr(plan, name);
	if (!c || !json_number(c, "ratio", &ratio[0]) || !json_number(c, "ops_per_sec", &ops[0])) {
		ksft_print_msg("plan %s: no figures for %s\n", model, cand);
		return false;
	}
	for (int r = 1; r < cfg.replay_reps; r++) {
		snprintf(cmd, sizeof(cmd), VRAMPOOLCTL " replay --device %s --json %s %s 2>&1",
			 dev_path, trace, layout);
		if (run_tool(cmd, out) || !json_number(out, "ratio", &ratio[r]) ||
		    !json_number(out, "ops_per_sec", &ops[r])) {
			ksft_print_msg("replay %s %s failed: %.400s\n", model, layout, out);
			return false;
		}
	}
	snprintf(name, sizeof(name), "%s %s: peak reserved / peak live", model, label);
	snprintf(vs, sizeof(vs), "%s sub-slices: peak reserved / peak live", model);
	figure_add("replay", name, "x", ratio, NULL, cfg.replay_reps, is_plan ? vs : NULL, 1);
	snprintf(name, sizeof(name), "%s %s: ALLOC and FREE", model, label);
	snprintf(vs, sizeof(vs), "%s sub-slices: ALLOC and FREE", model);
	figure_add("replay", name, "ops/s", ops, NULL, cfg.replay_reps, is_plan ? vs : NULL, 1);
	return true;
}

static bool bench_replay_model(const char *model, char *plan, char *out)
{
	static const char *const presets[] = { "sub-slices", "exclusive-pages" };
	char trace[128], cmd[1024], chosen[64], layout[512];
	/* 256 MiB at most: the bench boot's device is larger (10^6 live slices). */
	uint64_t vram = (dev_vram < 256 * MiB ? dev_vram : 256 * MiB) / (cfg.full ? 1 : 4);
	int steps = cfg.full ? 3 : 1;
	const char *tail;

	snprintf(trace, sizeof(trace), "/tmp/vrampool_bench.%s.trace", model);
	snprintf(cmd, sizeof(cmd), VRAMPOOLCTL " trace %s --vram %" PRIu64 " --steps %d -o %s 2>&1",
		 model, vram, steps, trace);
	if (run_tool(cmd, out)) {
		ksft_print_msg("%s failed: %.400s\n", cmd, out);
		return false;
	}
	snprintf(cmd, sizeof(cmd), VRAMPOOLCTL " plan --device %s --json %s 2>&1", dev_path,
		 trace);
	tail = NULL;
	if (!run_tool(cmd, plan))
		tail = strstr(plan, "],\"chosen\":");
	if (!tail || !json_text(tail, "chosen", chosen, sizeof(chosen)) ||
	    !json_text(tail, "layout", layout, sizeof(layout))) {
		ksft_print_msg("%s failed: %.400s\n", cmd, plan);
		return false;
	}
	ksft_print_msg("replay %s: vrampoolctl trace --vram %" PRIu64 " --steps %d; plan chose %s: install %s\n",
		       model, vram, steps, chosen, layout);
	for (unsigned int k = 0; k < 2; k++) {
		if (!replay_figures(model, presets[k], presets[k], plan, trace, presets[k], out))
			return false;
	}
	if (!replay_figures(model, "plan", chosen, plan, trace, layout, out))
		return false;
	unlink(trace);
	return true;
}

static bool bench_replay(void)
{
	static const char *const models[] = { "gpt2-small", "llama-7b" };
	char *out = malloc(OUT_MAX), *plan = malloc(OUT_MAX);
	bool ok = out && plan;

	for (unsigned int k = 0; ok && k < 2; k++)
		ok = bench_replay_model(models[k], plan, out);
	free(plan);
	free(out);
	return ok;
}

/* ---- Batches -------------------------------------------------------------------- */

/*
 * ALLOC_BATCH and FREE_BATCH of @n 4 KiB slices from a warm sliced pool,
 * timed apart: per allocation, @loops batches of each per repetition. The
 * plugin sums the instructions of the ALLOC_BATCHes in SLOT_BATCH_ALLOC and
 * of the FREE_BATCHes in SLOT_BATCH_FREE until batch_flush() writes each sum.
 */
static void batch_round(int fd, struct drm_vrampool_alloc_request *reqs,
			struct drm_vrampool_alloc_answer *ans, uint32_t *h, uint32_t n,
			double *t_alloc, double *t_free)
{
	struct drm_vrampool_alloc_batch b = {
		.requests = (uintptr_t)reqs, .answers = (uintptr_t)ans, .count = n,
	};
	struct drm_vrampool_free_batch f = { .handles = (uintptr_t)h, .count = n };
	double t0, t1;

	slot_ops[SLOT_BATCH_ALLOC] += n;
	slot_ops[SLOT_BATCH_FREE] += n;
	t0 = now_ns();
	VP_INSN_BEGIN(SLOT_BATCH_ALLOC);
	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &b))
		ksft_exit_fail_msg("ALLOC_BATCH of %u (request %u, code %u): %s\n", n, b.failed,
				   b.error.code, strerror(errno));
	VP_INSN_PAUSE(SLOT_BATCH_ALLOC);
	t1 = now_ns();
	for (uint32_t i = 0; i < n; i++)
		h[i] = ans[i].handle;
	*t_alloc += t1 - t0;
	t0 = now_ns();
	VP_INSN_BEGIN(SLOT_BATCH_FREE);
	if (vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &f))
		ksft_exit_fail_msg("FREE_BATCH of %u (entry %u, code %u): %s\n", n, f.failed,
				   f.code, strerror(errno));
	VP_INSN_PAUSE(SLOT_BATCH_FREE);
	*t_free += now_ns() - t0;
}

/*
 * The plugin writes the sums of the two slots (batch_round()'s ALLOC_BATCHes
 * and FREE_BATCHes since the last flush), in that order: where they are,
 * for samples of @per allocations.
 */
static void batch_flush(double per, struct insn_ref *alloc, struct insn_ref *free,
			struct insn_ref *both)
{
	VP_INSN_BEGIN(SLOT_BATCH_ALLOC);
	VP_INSN_END(SLOT_BATCH_ALLOC);
	VP_INSN_BEGIN(SLOT_BATCH_FREE);
	VP_INSN_END(SLOT_BATCH_FREE);
	*alloc = (struct insn_ref) { .seq = { insn_seq, -1 }, .per = per };
	*free = (struct insn_ref) { .seq = { insn_seq + 1, -1 }, .per = per };
	*both = (struct insn_ref) { .seq = { insn_seq, insn_seq + 1 }, .per = per };
	insn_seq += 2;
}

static void bench_batch(int fd)
{
	static const uint32_t sizes[] = { 1, 16, 64, 256 };
	struct drm_vrampool_pool_entry e = sliced(16 * MiB, 1 * MiB);
	struct drm_vrampool_alloc_request reqs[256];
	struct drm_vrampool_alloc_answer ans[256];
	double sa[4][MAX_REPS], sf[4][MAX_REPS], sp[4][MAX_REPS], ta, tf;
	struct insn_ref ra[4][MAX_REPS], rf[4][MAX_REPS], rp[4][MAX_REPS], warm[3];
	uint32_t h[256];
	char name[96];

	memset(reqs, 0, sizeof(reqs));
	for (int i = 0; i < 256; i++)
		reqs[i].size = 4 * KiB;
	install(fd, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
	for (unsigned int k = 0; k < 4; k++)
		batch_round(fd, reqs, ans, h, sizes[k], &ta, &tf);	/* warm */
	batch_flush(1, &warm[0], &warm[1], &warm[2]);			/* not counted */
	/* Round by round, as bench_warm(): one repetition of each size and of the null ioctl. */
	for (int r = 0; r < cfg.reps; r++) {
		null_round(fd);
		for (unsigned int k = 0; k < 4; k++) {
			uint32_t n = sizes[k];
			int loops = cfg.iters / (int)n > 0 ? cfg.iters / (int)n : 1;

			ta = tf = 0;
			for (int i = 0; i < loops; i++)
				batch_round(fd, reqs, ans, h, n, &ta, &tf);
			sa[k][r] = ta / loops / n;
			sf[k][r] = tf / loops / n;
			sp[k][r] = sa[k][r] + sf[k][r];
			batch_flush((double)loops * n, &ra[k][r], &rf[k][r], &rp[k][r]);
		}
	}
	for (unsigned int k = 0; k < 4; k++) {
		snprintf(name, sizeof(name), "batched ALLOC per allocation, batch %u", sizes[k]);
		figure_add("batch", name, "ns", sa[k], ra[k], cfg.reps, "null ioctl (GET_PARAM)", 1);
		snprintf(name, sizeof(name), "batched FREE per allocation, batch %u", sizes[k]);
		figure_add("batch", name, "ns", sf[k], rf[k], cfg.reps, "null ioctl (GET_PARAM)", 1);
		snprintf(name, sizeof(name), "batched ALLOC+FREE per allocation, batch %u",
			 sizes[k]);
		/* A pair, read against two null ioctls as bench_warm()'s pairs are. */
		figure_add("batch", name, "ns", sp[k], rp[k], cfg.reps, "null ioctl (GET_PARAM)", 2);
	}
	do_cleanup(fd);
}

/* ---- Many clients ----------------------------------------------------------------- */

#define CLIENT_PAGE	(64 * KiB)	/* each client's cached buffer */

static uint64_t device_vram_in_use(int fd)
{
	return get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE);
}

/* A client with a direct pool and one free cached buffer of CLIENT_PAGE. */
static int cached_client(void)
{
	struct drm_vrampool_pool_entry e = direct();
	int fd = open_dev();

	install(fd, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
	do_free(fd, do_alloc(fd, CLIENT_PAGE, 0));
	return fd;
}

/*
 * With @n clients on the device, each holding one free cached buffer and
 * the rest of VRAM held live by one more: an ALLOC of one more buffer in
 * a client of its own, which finds VRAM full and reclaims (DOC: reclaim:
 * every client sorted by its last ALLOC, the idlest one's buffer taken).
 * Between repetitions the buffer goes back and its owner caches one again,
 * so that VRAM is full at each.
 */
static void reclaim_samples(int *fds, int n, double *s, struct insn_ref *refs)
{
	struct drm_vrampool_pool_entry e = direct();
	int filler = open_dev(), me = open_dev();
	uint64_t room;
	uint32_t h;
	double t;

	for (int i = 0; i < n; i++)
		fds[i] = cached_client();
	install(filler, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
	install(me, &e, 1, DRM_VRAMPOOL_PRESET_NONE);
	room = (dev_vram - device_vram_in_use(me)) & ~(4 * KiB - 1);
	if (room)
		do_alloc(filler, room, 0);
	for (int r = 0; r < cfg.reps; r++) {
		if (dev_vram - device_vram_in_use(me) >= CLIENT_PAGE)
			ksft_exit_fail_msg("%d clients: VRAM has room, no reclaim to time\n", n);
		t = span_begin();

		h = do_alloc(me, CLIENT_PAGE, 0);
		span_end(t, 1, 1e3, &s[r], &refs[r]);
		do_free(me, h);
		do_cleanup(me);
		/* The idlest client lost its buffer: it caches one again. */
		do_free(fds[r % n], do_alloc(fds[r % n], CLIENT_PAGE, 0));
	}
	close(me);
	close(filler);
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * cfg.clients and 10 times as many clients on one device: open() and
 * close() of each, per client, and a reclaim that visits all of them; the
 * larger read against the smaller.
 */
static void bench_clients(void)
{
	struct rlimit rl = { .rlim_cur = 16384, .rlim_max = 16384 };
	int n0 = cfg.clients, *fds = calloc(10 * n0, sizeof(*fds));

	if (!fds || setrlimit(RLIMIT_NOFILE, &rl))
		ksft_exit_fail_msg("room for %d files: %s\n", 10 * n0, strerror(errno));
	for (int k = 0; k < 2; k++) {
		int n = k ? 10 * n0 : n0;
		double oc[MAX_REPS], rc[MAX_REPS];
		struct insn_ref orefs[MAX_REPS], rrefs[MAX_REPS];
		char name[96], vs[96];

		/* Cheap: as many samples as the hot path, the least read. */
		for (int r = 0; r < cfg.reps; r++) {
			double t;

			settle();
			t = span_begin();
			for (int i = 0; i < n; i++)
				fds[i] = open_dev();
			for (int i = 0; i < n; i++)
				close(fds[i]);
			span_end(t, n, 1e3, &oc[r], &orefs[r]);
		}
		snprintf(name, sizeof(name), "open()+close() per client, %d clients", n);
		snprintf(vs, sizeof(vs), "open()+close() per client, %d clients", n0);
		figure_add("clients", name, "us", oc, orefs, cfg.reps, k ? vs : NULL, 1);
		reclaim_samples(fds, n, rc, rrefs);
		snprintf(name, sizeof(name), "reclaiming ALLOC, %d clients", n);
		snprintf(vs, sizeof(vs), "reclaiming ALLOC, %d clients", n0);
		figure_add("clients", name, "us", rc, rrefs, cfg.reps, k ? vs : NULL, 1);
	}
	free(fds);
}

/* ---- Report -------------------------------------------------------------------- */

/*
 * The figures a whole run makes: the null ioctl (measured twice, one row),
 * 3 fresh-BO sizes, 4 pool types x 2 sizes warm, one per live order, 2
 * installs, the close() orders x (memory, time), 2 mixed close() sizes, 4
 * batch sizes x (ALLOC, FREE, pair), 2 client counts x (open and close,
 * reclaim), 2 models x (2 presets + plan) x (ratio, rate).
 */
static int figures_expected(void)
{
	return 1 + 3 + 4 * 2 + cfg.live_orders + 2 + cfg.close_orders * 2 + 2 + 4 * 3 + 2 * 2 +
	       2 * 3 * 2;
}

/*
 * Every figure there, each from at least one sample, each finite; above 0
 * unless it is a slab delta in bytes: SUnreclaim counts whole slab pages,
 * and a thousand small objects can land in pages a run before left partly
 * free, so a delta of 0 (or less) is a real reading there.
 */
static bool figures_complete(void)
{
	bool ok = nfigures == figures_expected();

	if (!ok)
		ksft_print_msg("%d figures, %d expected\n", nfigures, figures_expected());
	for (int i = 0; i < nfigures; i++) {
		const struct figure *f = &figures[i];
		bool slab = !strcmp(f->unit, "bytes");

		if (f->reps < 1 || !isfinite(f->min) || !isfinite(f->median) ||
		    (!slab && !(f->min > 0))) {
			ksft_print_msg("figure \"%s\": %d samples, min %g, median %g\n",
				       f->name, f->reps, f->min, f->median);
			ok = false;
		}
	}
	return ok;
}

static void report(void)
{
	const char *group = "";

	ksft_print_msg("%-54s %15s %15s %8s  %s\n", "figure", "median", "min", "ratio",
		       "(median / median of)");
	for (int i = 0; i < nfigures; i++) {
		struct figure *f = &figures[i], *v = f->vs[0] ? figure_find(f->vs) : NULL;
		double ratio = v ? f->median / (v->median * f->vs_times) : 0;
		char against[128] = "";

		if (strcmp(group, f->group)) {
			group = f->group;
			ksft_print_msg("-- %s\n", group);
		}
		if (v && f->vs_times == 1)
			snprintf(against, sizeof(against), "%8.2f  %s", ratio, f->vs);
		else if (v)
			snprintf(against, sizeof(against), "%8.2f  %g x %s", ratio, f->vs_times,
				 f->vs);
		else
			snprintf(against, sizeof(against), "%8s", "-");
		/* Ratios (unit x) with four decimals, the rest with one. */
		ksft_print_msg("%-54s %9.*f %-5s %9.*f %-5s %s\n", f->name,
			       strcmp(f->unit, "x") ? 1 : 4, f->median, f->unit,
			       strcmp(f->unit, "x") ? 1 : 4, f->min, f->unit, against);
		ksft_print_msg("@@BENCH {\"group\":\"%s\",\"figure\":\"%s\",\"unit\":\"%s\","
			       "\"median\":%.4f,\"min\":%.4f,\"reps\":%d,\"vs\":%s%s%s,"
			       "\"vs_times\":%g,\"ratio\":%.4f}\n",
			       f->group, f->name, f->unit, f->median, f->min, f->reps,
			       v ? "\"" : "", v ? f->vs : "null", v ? "\"" : "",
			       f->vs_times, ratio);
	}
}

/* One vCPU for the whole run: a span the plugin counts begins and ends on it. */
static void pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_print_msg("cannot keep to one CPU (%s): spans that move are not counted\n",
			       strerror(errno));
}

int main(void)
{
	const char *mode = getenv("VRAMPOOL_BENCH");
	int fd;

	bool gate = mode && !strcmp(mode, "gate");

	cfg.full = mode && !strcmp(mode, "full");
	cfg.name = cfg.full ? "full" : gate ? "gate" : "smoke";
	/*
	 * Many short repetitions rather than a few long ones: a burst of the
	 * host's own work spoils fewer of them, and the median drops those.
	 * The gate's run is the smoke run's, with as many repetitions as the
	 * full run: the least count of a figure is then one no interrupt fell
	 * in.
	 */
	cfg.reps = cfg.full || gate ? MAX_REPS : 2;
	cfg.close_reps = cfg.full || gate ? 5 : 2;
	cfg.iters = cfg.full ? 12000 : 200;
	cfg.slow_iters = cfg.full ? 60 : 20;
	/*
	 * One install per repetition in the gate: the least of 15 is then one
	 * that no deferred work (RCU callbacks of an earlier install's frees)
	 * fell in.
	 */
	cfg.install_iters = cfg.full ? 30 : gate ? 1 : 5;
	/*
	 * The full run goes to 10^6 live slices (make bench boots with 512 MiB
	 * of VRAM for them) and 1,000 clients; the smoke run stops a hundred
	 * times lower: the debug kernel runs it too.
	 */
	cfg.live_orders = cfg.full ? 5 : 3;
	cfg.close_order = cfg.full ? 4 : 3;
	cfg.close_orders = cfg.full ? 3 : 2;
	cfg.clients = cfg.full ? 100 : 10;
	cfg.close_mixed = cfg.full ? 25000 : 1000;
	/* The smoke run takes plan's own replays alone (one training step). */
	cfg.replay_reps = cfg.full ? 5 : 1;

	ksft_print_header();
	ksft_set_plan(9);
	pin_cpu();
	find_device();
	ksft_print_msg("%s run on %s, %d repetitions\n", cfg.name,
		       dev_path, cfg.reps);
	fd = open_dev();

	bench_null(fd);
	bench_fresh(fd);
	ksft_test_result_pass("baselines: null ioctl, fresh buffer objects\n");
	bench_warm(fd);
	ksft_test_result_pass("warm ALLOC+FREE in each pool type\n");
	bench_null(fd);
	bench_live(fd);
	ksft_test_result_pass("ALLOC+FREE with 10^2 live slices and more\n");
	bench_install(fd);
	ksft_test_result_pass("POOL_INSTALL of a preset and of 254 pools\n");
	bench_batch(fd);
	ksft_test_result_pass("batched ALLOC and FREE of 1, 16, 64 and 256 allocations\n");
	close(fd);
	bench_memory_and_close();
	bench_close_mixed();
	ksft_test_result_pass("kernel memory per slice and close() time\n");
	bench_clients();
	ksft_test_result_pass("many clients: open() and close(), a reclaim that visits all\n");
	ksft_test_result(bench_replay(),
			 "replays of the model traces: presets and the plan's layout\n");

	report();
	for (unsigned int k = 0; k <= SLOT_PAIR; k++)
		if (slot_ops[k])
			ksft_print_msg("@@INSNOPS {\"slot\":%u,\"ops\":%.0f}\n", k, slot_ops[k]);
	print_module_text();
	ksft_test_result(figures_complete(), "every figure measured and reported\n");
	ksft_finished();
}

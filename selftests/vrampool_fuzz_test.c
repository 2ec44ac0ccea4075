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
 * This file holds the plan (seeds, workers, the summary) and main(); the
 * steps and checks are in vrampool_fuzz_*.c, one kind each (state, check,
 * alloc, predict, free, install, hostile, batch, process, steps, floor),
 * declared in vrampool_fuzz.h; the model in vrampool_fuzz_model.c.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

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
	for (i = 0; i < ndevs; i++) {
		devs[i].m.in_use = devs[i].vram_start;
		users_start(i);
	}
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

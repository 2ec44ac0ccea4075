// SPDX-License-Identifier: GPL-2.0-only
/*
 * Storms: 4 processes x 2 threads share one open file of the first device
 * and allocate, free, install layouts, clean up and write and check their
 * bytes through mappings; a reader process reads sysfs (the device and
 * every client's folder) and fdinfo all along; a victim process with a
 * file of its own (on every device in turn) fills it and is killed with
 * SIGKILL and restarted every 2 s; another opens and closes files in a
 * loop. Every few seconds everyone but the readers parks (the wait has no
 * time bound: a worker stuck in the kernel is the suite's timeout's
 * business), and at that quiescent sample:
 * - the shared file's POOL_QUERY matches what the workers hold by their
 *   own records (their requested sizes, and the pools and pages the answers
 *   placed them in): allocations, bytes_in_use and padding of every pool
 *   exactly, its pages and reserved bytes at least those of the distinct
 *   pages held; then, after a CLEANUP (no free page left, no orphan: the
 *   workers unmap before they free), exactly, and the file's VRAM (POOL_QUERY,
 *   its clients/<id>/vram, fdinfo drm-resident-vram) is the buffer objects
 *   of those pages, and device 0's vram_in_use its start plus that;
 * - the sum of the clients' sysfs vram equals the device's vram_in_use
 *   (sysfs and GET_PARAM), and so does the sum of the users' (users/<uid>/
 *   vram: the victim's two files and half the looper's are another
 *   user's); after the CLEANUP root's is its start plus the shared file's
 *   and the other user's 0; a failed read of any of them fails the test.
 * The workers zero what they wrote before they free it, so every free byte
 * of the shared file's pages is zero: each new allocation must read zero
 * before it is filled (a placement over live bytes or a page with stale
 * VRAM shows). Batch answers are written and read back through a second
 * mapping. At the end every surviving allocation's bytes are intact, and
 * once all files are closed each device's VRAM in use is back to its start.
 * Kernel reports (KASAN, lockdep, kmemleak) are the VM log checker's
 * business.
 *
 * VRAMPOOL_STORM_SECS sets the duration (default 20 s; make soak: 60 s).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_test_lib.h"

#define WORKERS		4		/* processes sharing the file */
#define THREADS		2		/* threads in each */
#define PARKERS		(WORKERS * THREADS + 1)	/* + the open/close looper */
#define LIVE		12		/* allocations a thread holds at most */
#define SAMPLE_EVERY	4		/* seconds between quiescent samples */
#define STORM_USER	63001		/* the victim's and half the looper's files' user */
#define KILL_EVERY_MS	2000

enum { OP_ALLOC, OP_FREE, OP_CLEANUP, OP_INSTALL, OP_QUERY, OP_CHECK, OP_READ, OP_OPEN,
       OP_KILL, OP_SAMPLE, OP_OOM, OP_BUSY, OP_ALLOC_BATCH, OP_FREE_BATCH, OP_BATCH_UNDONE,
       OP_ZERO, OP_N };
static const char *const op_names[OP_N] = {
	"ALLOC", "FREE", "CLEANUP", "POOL_INSTALL", "POOL_QUERY", "pattern checks",
	"sysfs/fdinfo reads", "open/close", "SIGKILLs", "quiescent samples",
	"ALLOC OutOfMemory", "POOL_INSTALL EBUSY", "ALLOC_BATCH", "FREE_BATCH",
	"ALLOC_BATCH undone (OutOfMemory, unwritable answers)", "new allocations read zero",
};

/* ---- Workers: threads sharing the file -------------------------------------- */

struct live {
	struct drm_vrampool_alloc a;	/* the answer */
	uint64_t size;			/* the size asked for */
	uint8_t *map;
	size_t len;
	uint32_t seed;
};

/* A worker thread's own record of what it holds: in shared memory, for the parent. */
struct worker {
	int id;
	uint64_t rng;
	struct live live[LIVE];
	int n;
};

struct shared {
	volatile int stop;
	volatile int pause;
	int parked;
	int failed;
	uint64_t ops[OP_N];
	uint64_t bytes_checked;
	char error[512];
	struct worker w[WORKERS * THREADS];
};

static struct shared *sh;
static struct vp_device devs[VP_MAX_DEVICES];
static int ndevs;
static int shared_fd;
/* What root's files held on device 0 before the storm (users/0/vram). */
static uint64_t start_root;

/* A user of device 0's VRAM, users/<uid>/vram; 0 without a folder (no file open). */
static uint64_t user_vram(int uid)
{
	uint64_t v = vp_sysfs_user_u64(&devs[0], uid, "vram");

	return v == UINT64_MAX ? 0 : v;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (__sync_lock_test_and_set(&sh->failed, 1))
		return;
	va_start(ap, fmt);
	vsnprintf(sh->error, sizeof(sh->error), fmt, ap);
	va_end(ap);
	sh->stop = 1;
}

static void count(int op, uint64_t n)
{
	__sync_fetch_and_add(&sh->ops[op], n);
}

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

/* Park while the parent samples: everyone who changes VRAM stops. */
static void park_point(void)
{
	if (!sh->pause)
		return;
	__sync_fetch_and_add(&sh->parked, 1);
	while (sh->pause && !sh->stop)
		usleep(1000);
	__sync_fetch_and_sub(&sh->parked, 1);
}

static size_t map_len(uint64_t page_size)
{
	return (size_t)vp_align_up(page_size, VP_CPU_PAGE);
}

static void check_live(struct worker *w, const struct live *l, const char *when)
{
	int64_t bad;

	if (!l->map)
		return;
	bad = vp_check_words(l->map + l->a.offset, 0, l->size, l->seed);
	count(OP_CHECK, 1);
	__sync_fetch_and_add(&sh->bytes_checked, l->size);
	if (bad >= 0)
		fail("worker %d: %s: allocation %u (pool %u page %u offset %" PRIu64 ", %" PRIu64
		     " bytes) changed at byte %" PRId64, w->id, when, l->a.handle, l->a.pool, l->a.page,
		     (uint64_t)l->a.offset, l->size, bad);
}

/*
 * Gives @l up: checks its bytes, zeroes them (every free byte of the
 * file's pages stays zero, what keep() checks) and unmaps it.
 */
static void let_go(struct worker *w, struct live *l, const char *when)
{
	check_live(w, l, when);
	if (!l->map)
		return;
	memset(l->map + l->a.offset, 0, l->size);
	munmap(l->map, l->len);
}

static void check_all(struct worker *w, const char *when)
{
	int i;

	for (i = 0; i < w->n; i++)
		check_live(w, &w->live[i], when);
}

static void keep(struct worker *w, struct live *l, uint64_t size, bool second);

/* A size and flags as the workers ask for them. */
static uint64_t w_size(uint32_t r, uint32_t *flags)
{
	*flags = r % 11 == 0 ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0;
	return r % 16 == 0 ? 0 : r % 16 == 1 ? 512 * KiB + r % (1 * MiB) :
	       r % 4096 + (r % 3 ? 0 : 4096 * (r % 16));
}

static void w_alloc(struct worker *w)
{
	struct live *l;
	uint32_t flags;
	uint64_t size = w_size(rnd(&w->rng), &flags);
	int ret;

	if (w->n == LIVE)
		return;
	l = &w->live[w->n];
	memset(l, 0, sizeof(*l));
	ret = vp_alloc(shared_fd, size, flags, &l->a);
	count(OP_ALLOC, 1);
	if (ret == -ENOSPC && l->a.error.code == DRM_VRAMPOOL_ERR_OUT_OF_MEMORY) {
		count(OP_OOM, 1);
		check_all(w, "after OutOfMemory");
		return;
	}
	if (ret) {
		fail("worker %d: ALLOC(%" PRIu64 ", %#x): %s code %u", w->id, size, flags,
		     strerror(-ret), l->a.error.code);
		return;
	}
	if (l->a.handle == 0) {
		fail("worker %d: ALLOC answered handle 0", w->id);
		return;
	}
	keep(w, l, size, false);
}

/* Index of the first non-zero byte of @p (8-byte aligned), or -1. */
static int64_t first_nonzero(const uint8_t *p, uint64_t len)
{
	uint64_t i = 0;

	for (; i + 8 <= len; i += 8)
		if (*(const uint64_t *)(p + i))
			break;
	for (; i < len; i++)
		if (p[i])
			return (int64_t)i;
	return -1;
}

/* Reads @l's pattern back through a mapping of its own. */
static void check_second_mapping(struct worker *w, const struct live *l)
{
	uint8_t *m = mmap(NULL, l->len, PROT_READ, MAP_SHARED, shared_fd, l->a.mmap_offset);
	int64_t bad;

	if (m == MAP_FAILED) {
		fail("worker %d: second mmap of a batch answer's page: %s", w->id,
		     strerror(errno));
		return;
	}
	bad = vp_check_words(m + l->a.offset, 0, l->size, l->seed);
	munmap(m, l->len);
	count(OP_CHECK, 1);
	if (bad >= 0)
		fail("worker %d: batch answer %u (pool %u page %u offset %" PRIu64 ", %" PRIu64
		     " bytes) reads otherwise through a second mapping at byte %" PRId64,
		     w->id, l->a.handle, l->a.pool, l->a.page, (uint64_t)l->a.offset, l->size, bad);
}

/*
 * Keeps @l (its answer in @l->a, asked for @size): maps its page, checks
 * that it reads zero, fills it with its pattern and, @second, reads that
 * back through a second mapping.
 */
static void keep(struct worker *w, struct live *l, uint64_t size, bool second)
{
	int64_t bad;

	w->n++;
	l->size = size;
	l->seed = (uint32_t)(w->id << 24) ^ rnd(&w->rng);
	if (!size) {
		if (l->a.page != DRM_VRAMPOOL_NO_PAGE || l->a.page_size)
			fail("worker %d: a zero-size allocation answered page %u of %" PRIu64
			     " bytes", w->id, l->a.page, (uint64_t)l->a.page_size);
		return;
	}
	if (l->a.page == DRM_VRAMPOOL_NO_PAGE || l->a.offset % 8 ||
	    l->a.offset + size > l->a.page_size) {
		fail("worker %d: %" PRIu64 " bytes answered page %u offset %" PRIu64 " of %" PRIu64
		     " bytes", w->id, size, l->a.page, (uint64_t)l->a.offset,
		     (uint64_t)l->a.page_size);
		return;
	}
	l->len = map_len(l->a.page_size);
	l->map = mmap(NULL, l->len, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd,
		      l->a.mmap_offset);
	if (l->map == MAP_FAILED) {
		l->map = NULL;
		fail("worker %d: mmap of a live page: %s", w->id, strerror(errno));
		return;
	}
	bad = first_nonzero(l->map + l->a.offset, size);
	count(OP_ZERO, 1);
	if (bad >= 0)
		fail("worker %d: new allocation %u (pool %u page %u offset %" PRIu64 ", %" PRIu64
		     " bytes) reads %#x at byte %" PRId64 " before it is filled", w->id,
		     l->a.handle, l->a.pool, l->a.page, (uint64_t)l->a.offset, size,
		     l->map[l->a.offset + bad], bad);
	vp_fill_words(l->map + l->a.offset, 0, size, l->seed);
	if (second)
		check_second_mapping(w, l);
}

/*
 * ALLOC_BATCH of up to 4 requests, all or nothing; one in eight with
 * answers that cannot be written (EFAULT: the kernel undoes them while
 * the other threads go on, which the VRAM check at the end sees).
 */
static void w_alloc_batch(struct worker *w)
{
	struct drm_vrampool_alloc_request reqs[4] = { 0 };
	struct drm_vrampool_alloc_answer ans[4];
	struct drm_vrampool_alloc_batch b;
	uint32_t n = 1 + rnd(&w->rng) % 4, i;
	bool unwritable = rnd(&w->rng) % 8 == 0;
	struct live *l;
	int ret;

	if (w->n + (int)n > LIVE)
		return;
	for (i = 0; i < n; i++) {
		uint32_t flags;

		reqs[i].size = w_size(rnd(&w->rng), &flags);
		reqs[i].flags = flags;
	}
	ret = vp_alloc_batch(shared_fd, reqs, unwritable ? NULL : ans, n, &b);
	count(OP_ALLOC_BATCH, 1);
	if ((ret == -ENOSPC && b.error.code == DRM_VRAMPOOL_ERR_OUT_OF_MEMORY &&
	     b.failed < n) || (ret == -EFAULT && unwritable)) {
		count(OP_BATCH_UNDONE, 1);
		check_all(w, "after a refused ALLOC_BATCH");
		return;
	}
	if (ret || unwritable) {
		fail("worker %d: ALLOC_BATCH of %u%s: %s at %d code %u", w->id, n,
		     unwritable ? " (answers at NULL)" : "", strerror(-ret), (int)b.failed,
		     b.error.code);
		return;
	}
	for (i = 0; i < n; i++) {
		l = &w->live[w->n];
		memset(l, 0, sizeof(*l));
		l->a.size = reqs[i].size;
		l->a.flags = reqs[i].flags;
		l->a.handle = ans[i].handle;
		l->a.pool = ans[i].pool;
		l->a.page = ans[i].page;
		l->a.offset = ans[i].offset;
		l->a.padding = ans[i].padding;
		l->a.mmap_offset = ans[i].mmap_offset;
		l->a.page_size = ans[i].page_size;
		if (!l->a.handle) {
			fail("worker %d: ALLOC_BATCH answered handle 0", w->id);
			return;
		}
		keep(w, l, reqs[i].size, true);
	}
}

/* FREE_BATCH of up to 4 of the thread's allocations: all must go. */
static void w_free_batch(struct worker *w)
{
	struct drm_vrampool_free_batch f;
	uint32_t h[4], n = 0;
	int ret;

	while (n < 4 && w->n) {
		struct live *l = &w->live[w->n - 1];

		let_go(w, l, "before FREE_BATCH");
		h[n++] = l->a.handle;
		w->n--;
	}
	if (!n)
		return;
	ret = vp_free_batch(shared_fd, h, n, &f);
	count(OP_FREE_BATCH, 1);
	if (ret)
		fail("worker %d: FREE_BATCH of %u: %s at %d code %u", w->id, n, strerror(-ret),
		     (int)f.failed, f.code);
}

static void w_free(struct worker *w, int i)
{
	struct live *l = &w->live[i];
	int ret;

	let_go(w, l, "before FREE");
	ret = vp_free(shared_fd, l->a.handle);
	count(OP_FREE, 1);
	if (ret)
		fail("worker %d: FREE(%u): %s", w->id, l->a.handle, strerror(-ret));
	*l = w->live[--w->n];
}

static void w_install(struct worker *w)
{
	struct drm_vrampool_pool_entry e[4] = {
		vp_exclusive(0, VP_ABSENT),
		vp_sliced(256 * KiB, 64 * KiB, VP_ABSENT),
		vp_exclusive(1 * MiB, 50),
		vp_direct(4 * MiB),
	};
	struct drm_vrampool_pool_install ins;
	uint32_t r = rnd(&w->rng);
	int ret;

	/*
	 * A layout really installed ends with the direct pool, which serves
	 * every size the workers ask for: a shorter one (exclusive{0} and the
	 * 256 KiB sliced pool) refuses their larger sizes with BufferTooBig,
	 * which the workers do not expect. Shorter lists are tested only.
	 */
	if (r % 2)
		vp_req_list(&ins, e, r % 3 ? 1 + r % 4 : 4,
			    r % 3 ? DRM_VRAMPOOL_INSTALL_TEST_ONLY : 0);
	else
		vp_req_preset(&ins, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
	ret = vp_install(shared_fd, &ins);
	count(OP_INSTALL, 1);
	if (ret == -EBUSY && ins.error.code == DRM_VRAMPOOL_ERR_POOLS_IN_USE)
		count(OP_BUSY, 1);
	else if (ret)
		fail("worker %d: POOL_INSTALL: %s code %u", w->id, strerror(-ret), ins.error.code);
	check_all(w, "after POOL_INSTALL");
}

static void *worker_thread(void *p)
{
	struct worker *w = p;
	struct vp_snap s;
	uint32_t r;
	int ret;

	w_alloc(w);	/* every thread allocates at least once */
	while (!sh->stop) {
		park_point();
		r = rnd(&w->rng) % 100;
		if (r < 45) {
			w_alloc(w);
		} else if (r < 80) {
			if (w->n)
				w_free(w, rnd(&w->rng) % w->n);
		} else if (r < 88) {
			ret = vp_cleanup(shared_fd);
			count(OP_CLEANUP, 1);
			if (ret)
				fail("worker %d: CLEANUP: %s", w->id, strerror(-ret));
			check_all(w, "after CLEANUP");
		} else if (r < 93) {
			w_install(w);
		} else if (r < 95) {
			w_alloc_batch(w);
		} else if (r < 97) {
			w_free_batch(w);
		} else {
			ret = vp_snap_take(shared_fd, &s);
			count(OP_QUERY, 1);
			if (ret)
				fail("worker %d: POOL_QUERY: %s", w->id, strerror(-ret));
		}
	}
	/* The end: every surviving allocation intact, then freed. */
	check_all(w, "at the end");
	while (w->n)
		w_free(w, 0);
	return NULL;
}

static void worker_process(int id)
{
	struct worker *w = &sh->w[id * THREADS];
	pthread_t t[THREADS];
	int i;

	for (i = 0; i < THREADS; i++) {
		w[i].id = id * THREADS + i;
		w[i].rng = 0x9e3779b97f4a7c15ULL * (w[i].id + 1) ^ (uint64_t)time(NULL);
		if (pthread_create(&t[i], NULL, worker_thread, &w[i]))
			fail("pthread_create: %s", strerror(errno));
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

/* ---- Readers: sysfs and fdinfo, all along --------------------------------------- */

static void read_client_dirs(const struct vp_device *dev)
{
	char dir[VP_DIR_LEN], path[VP_PATH_LEN], buf[VP_VAL_MAX];
	struct vp_names names;
	int i;

	vp_sysfs_dev_path(dev, "clients", dir, sizeof(dir));
	if (vp_list_dir(dir, &names))
		return;
	for (i = 0; i < names.n; i++) {
		snprintf(path, sizeof(path), "%s/%s/vram", dir, names.v[i]);
		vp_read_line(path, buf, sizeof(buf));	/* may be gone: a client closed */
		snprintf(path, sizeof(path), "%s/%s/pools/0/bytes_in_use", dir, names.v[i]);
		vp_read_line(path, buf, sizeof(buf));
	}
}

static void *sysfs_reader(void *p)
{
	int i;

	(void)p;
	while (!sh->stop) {
		for (i = 0; i < ndevs; i++) {
			vp_sysfs_dev_u64(&devs[i], "vram_in_use");
			vp_sysfs_dev_u64(&devs[i], "client_count");
			read_client_dirs(&devs[i]);
		}
		count(OP_READ, 1);
	}
	return NULL;
}

static void *fdinfo_reader(void *p)
{
	uint64_t v;
	int ret;

	(void)p;
	while (!sh->stop) {
		ret = vp_fdinfo_size(shared_fd, "drm-resident-vram", &v);
		if (ret)
			fail("fdinfo drm-resident-vram of the shared file: %s", strerror(-ret));
		count(OP_READ, 1);
	}
	return NULL;
}

static void reader_process(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, sysfs_reader, NULL);
	pthread_create(&b, NULL, fdinfo_reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	_exit(0);
}

/* ---- The victim (killed and restarted) and the open/close looper --------------- */

static void victim_process(int dev)
{
	struct drm_vrampool_alloc a;
	uint64_t rng = (uint64_t)getpid() * 0x2545f4914f6cdd1dULL;
	int fds[2], fd;
	uint8_t *m;

	/* Two files of one user: their sums are the user's. */
	fds[0] = vp_open_device_as(&devs[dev], STORM_USER);
	fds[1] = vp_open_device_as(&devs[dev], STORM_USER);
	if (fds[0] < 0 || fds[1] < 0)
		_exit(1);
	for (;;) {
		uint64_t size = 1 + rnd(&rng) % (256 * KiB);

		fd = fds[rnd(&rng) % 2];
		if (vp_alloc(fd, size, rnd(&rng) % 5 ? 0 : DRM_VRAMPOOL_ALLOC_PERSISTENT, &a)) {
			vp_cleanup(fd);
			continue;
		}
		m = mmap(NULL, map_len(a.page_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 a.mmap_offset);
		if (m != MAP_FAILED)
			memset(m + a.offset, 0x5a, size);	/* kept mapped: killed with it */
		if (rnd(&rng) % 3 == 0)
			vp_free(fd, a.handle);
	}
}

static void looper_process(void)
{
	int i = 0, fd;

	while (!sh->stop) {
		park_point();
		fd = i % 2 ? vp_open_device_as(&devs[i % ndevs], STORM_USER) :
			     vp_open_device(&devs[i % ndevs]);
		i++;
		if (fd < 0) {
			fail("open/close looper: open: %s", strerror(-fd));
			break;
		}
		if (i % 4 == 0) {
			struct drm_vrampool_alloc a;

			vp_alloc(fd, 4096, 0, &a);	/* freed by the close */
		}
		close(fd);
		count(OP_OPEN, 1);
	}
	_exit(0);
}

/* ---- The parent: samples, kills, the end --------------------------------------- */

static pid_t spawn(void (*fn)(int), int arg)
{
	pid_t pid = fork();

	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return -1;
	}
	if (!pid)
		fn(arg);
	return pid;
}

static void reader_entry(int arg)
{
	(void)arg;
	reader_process();
}

static void looper_entry(int arg)
{
	(void)arg;
	looper_process();
}

static void kill_victim(pid_t *victim)
{
	int status;

	if (*victim <= 0)
		return;
	kill(*victim, SIGKILL);
	waitpid(*victim, &status, 0);
	if (!WIFSIGNALED(status))
		fail("the victim exited by itself: status %#x", status);
	*victim = -1;
	count(OP_KILL, 1);
}

/* Sum of clients/<id>/vram of a device; every client is parked. */
/* The sum of the vram files of @folder's subfolders (clients/ or users/), and how many. */
static int folders_vram(const struct vp_device *dev, const char *folder, uint64_t *sum, int *n)
{
	char dir[VP_DIR_LEN], path[VP_PATH_LEN];
	struct vp_names names;
	uint64_t v;
	int i, ret;

	*sum = 0;
	vp_sysfs_dev_path(dev, folder, dir, sizeof(dir));
	ret = vp_list_dir(dir, &names);
	if (ret)
		return ret;
	*n = names.n;
	for (i = 0; i < names.n; i++) {
		snprintf(path, sizeof(path), "%s/%s/vram", dir, names.v[i]);
		ret = vp_read_u64_file(path, &v);
		if (ret)
			return ret;
		*sum += v;
	}
	return 0;
}

/* What the workers hold by their own records, per pool index. */
struct held {
	uint64_t allocations, bytes, padding, pages, reserved;
};

/*
 * Sums the workers' records into @h (per pool) and *@vram (the buffer
 * objects of the distinct pages they hold); every worker is parked.
 */
static int workers_hold(struct held h[256], uint64_t *vram)
{
	const struct live *l, *m;
	int i, j, k, q;
	bool seen;

	memset(h, 0, 256 * sizeof(*h));
	*vram = 0;
	for (i = 0; i < WORKERS * THREADS; i++) {
		for (j = 0; j < sh->w[i].n; j++) {
			l = &sh->w[i].live[j];
			if (l->a.pool > 255) {
				fail("worker %d holds handle %u in pool %u", i, l->a.handle, l->a.pool);
				return -1;
			}
			h[l->a.pool].allocations++;
			h[l->a.pool].bytes += l->size;
			h[l->a.pool].padding += l->a.padding;
			if (l->a.page == DRM_VRAMPOOL_NO_PAGE)
				continue;
			seen = false;
			for (k = 0; k <= i && !seen; k++) {
				for (q = 0; q < (k < i ? sh->w[k].n : j) && !seen; q++) {
					m = &sh->w[k].live[q];
					seen = m->a.pool == l->a.pool && m->a.page == l->a.page &&
					       m->a.page != DRM_VRAMPOOL_NO_PAGE;
					if (seen && m->a.page_size != l->a.page_size) {
						fail("pool %u page %u: one answer says %" PRIu64
						     " bytes, another %" PRIu64, l->a.pool, l->a.page,
						     (uint64_t)m->a.page_size,
						     (uint64_t)l->a.page_size);
						return -1;
					}
				}
			}
			if (seen)
				continue;
			h[l->a.pool].pages++;
			h[l->a.pool].reserved += l->a.page_size;
			*vram += vp_bo_bytes(l->a.page_size);
		}
	}
	return 0;
}

/*
 * The shared file's POOL_QUERY against the workers' records @h: the live
 * allocations, their bytes and padding exactly; pages and reserved bytes
 * at least those of the pages held (@exact: exactly, as after a CLEANUP).
 */
static int query_matches(const struct held h[256], bool exact, const char *when)
{
	static struct vp_snap s;
	bool listed[256] = { false };
	const struct drm_vrampool_pool_status *p;
	const struct held *e;
	uint32_t i;
	int ret;

	ret = vp_snap_take(shared_fd, &s);
	if (ret) {
		fail("%s: POOL_QUERY of the shared file: %s", when, strerror(-ret));
		return -1;
	}
	for (i = 0; i < s.count; i++) {
		p = &s.pools[i];
		if (p->index > 255) {
			fail("%s: POOL_QUERY lists pool index %u", when, p->index);
			return -1;
		}
		e = &h[p->index];
		listed[p->index] = true;
		if (p->allocations != e->allocations || p->bytes_in_use != e->bytes ||
		    p->padding != e->padding ||
		    (exact ? p->pages != e->pages || p->reserved_bytes != e->reserved :
			     p->pages < e->pages || p->reserved_bytes < e->reserved)) {
			fail("%s: pool %u: POOL_QUERY says %" PRIu64 " allocations, %" PRIu64
			     " bytes in use, %" PRIu64 " padding, %" PRIu64 " pages, %" PRIu64
			     " reserved; the workers hold %" PRIu64 ", %" PRIu64 ", %" PRIu64
			     ", %s%" PRIu64 " pages of %" PRIu64 " bytes", when, p->index,
			     (uint64_t)p->allocations, (uint64_t)p->bytes_in_use,
			     (uint64_t)p->padding, (uint64_t)p->pages, (uint64_t)p->reserved_bytes,
			     e->allocations, e->bytes, e->padding, exact ? "" : "at least ",
			     e->pages, e->reserved);
			return -1;
		}
	}
	for (i = 0; i < 256; i++) {
		if (!listed[i] && h[i].allocations) {
			fail("%s: the workers hold %" PRIu64 " allocations in pool %u, which"
			     " POOL_QUERY does not list (%u pools)", when, h[i].allocations, i,
			     s.num_pools);
			return -1;
		}
	}
	return 0;
}

/* One of the shared file's VRAM figures: @what read @got (@ret its error), @want_what @want. */
static int vram_is(const char *what, int ret, uint64_t got, const char *want_what, uint64_t want)
{
	if (ret) {
		fail("quiescent: reading the shared file's %s: %s", what, strerror(-ret));
		return -1;
	}
	if (got != want) {
		fail("quiescent: the shared file's %s is %" PRIu64 ", %s %" PRIu64, what, got,
		     want_what, want);
		return -1;
	}
	return 0;
}

#define HELD "after CLEANUP, the buffer objects of the workers' pages"

static void sample(int probe_fd[], const uint64_t start[])
{
	char dir[VP_DIR_LEN], path[VP_PATH_LEN];
	uint64_t sum, users, sys, param, resident, mine, id, vram;
	struct drm_vrampool_pool_query q;
	static struct held h[256];
	int i, n, nusers, ret;

	sh->pause = 1;
	/* No time bound: a worker that never parks is the suite's timeout's. */
	while (__sync_fetch_and_add(&sh->parked, 0) < PARKERS && !sh->stop)
		usleep(1000);
	if (sh->stop)
		goto out;
	for (i = 0; i < ndevs; i++) {
		ret = folders_vram(&devs[i], "clients", &sum, &n);
		if (!ret)
			ret = folders_vram(&devs[i], "users", &users, &nusers);
		if (ret) {
			fail("%s: reading clients/*/vram or users/*/vram: %s", devs[i].name,
			     strerror(-ret));
			goto out;
		}
		sys = vp_sysfs_dev_u64(&devs[i], "vram_in_use");
		param = vp_vram_in_use(probe_fd[i]);
		if (sum != sys || sys != param || users != sum)
			fail("%s quiescent: the %d clients' vram sum to %" PRIu64 ", the %d users' to %"
			     PRIu64 ", vram_in_use %" PRIu64 ", GET_PARAM %" PRIu64, devs[i].name, n,
			     sum, nusers, users, sys, param);
	}
	ret = vp_client_id(shared_fd, &id);
	if (ret) {
		fail("quiescent: fdinfo drm-client-id of the shared file: %s", strerror(-ret));
		goto out;
	}
	vp_sysfs_client_path(&devs[0], id, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/vram", dir);
	ret = vp_fdinfo_size(shared_fd, "drm-resident-vram", &resident);
	if (!ret)
		ret = vp_read_u64_file(path, &mine);
	if (vram_is("fdinfo drm-resident-vram (or sysfs vram)", ret, resident, "its sysfs vram", mine))
		goto out;

	/* The workers' own records against POOL_QUERY, then exactly after a CLEANUP. */
	if (workers_hold(h, &vram) || query_matches(h, false, "quiescent"))
		goto out;
	ret = vp_cleanup(shared_fd);
	if (ret) {
		fail("quiescent: CLEANUP of the shared file: %s", strerror(-ret));
		goto out;
	}
	if (query_matches(h, true, "quiescent, after CLEANUP"))
		goto out;
	ret = vp_query_head(shared_fd, &q);
	if (vram_is("POOL_QUERY vram_in_use", ret, q.vram_in_use, HELD, vram))
		goto out;
	ret = vp_read_u64_file(path, &mine);
	if (vram_is("sysfs vram", ret, mine, HELD, vram))
		goto out;
	ret = vp_fdinfo_size(shared_fd, "drm-resident-vram", &resident);
	if (vram_is("fdinfo drm-resident-vram", ret, resident, HELD, vram))
		goto out;
	/* Everyone else holds nothing now: the victim is dead, the looper between files. */
	param = vp_vram_in_use(probe_fd[0]);
	if (param != start[0] + vram) {
		fail("quiescent, after CLEANUP: %s's VRAM_IN_USE is %" PRIu64 ", its start %"
		     PRIu64 " plus the workers' pages %" PRIu64, devs[0].name, param, start[0],
		     vram);
		goto out;
	}
	/* Root's files are the shared one and the probes; the storm user holds nothing. */
	if (user_vram(0) != start_root + vram || user_vram(STORM_USER)) {
		fail("quiescent, after CLEANUP: %s's users/0/vram %" PRIu64 ", its start %" PRIu64
		     " plus the workers' pages %" PRIu64 "; users/%d/vram %" PRIu64, devs[0].name,
		     user_vram(0), start_root, vram, STORM_USER, user_vram(STORM_USER));
		goto out;
	}
	count(OP_SAMPLE, 1);
out:
	sh->pause = 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	const char *env = getenv("VRAMPOOL_STORM_SECS");
	double secs = env && *env ? atof(env) : 20, t0, next_kill, next_sample;
	pid_t workers[WORKERS], reader, looper, victim = -1;
	int probe_fd[VP_MAX_DEVICES];
	uint64_t start[VP_MAX_DEVICES], v;
	int i, status, victim_dev = 0, ret, rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	ndevs = vp_enumerate(devs, VP_MAX_DEVICES);
	if (ndevs <= 0) {
		printf("1..0 # SKIP no vrampool device\n");
		return 4;
	}
	printf("1..1\n");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	memset(sh, 0, sizeof(*sh));
	for (i = 0; i < ndevs; i++) {
		probe_fd[i] = vp_open_device(&devs[i]);
		if (probe_fd[i] < 0) {
			printf("not ok 1 storm: open %s: %s\n", devs[i].path, strerror(-probe_fd[i]));
			return 1;
		}
		start[i] = vp_vram_in_use(probe_fd[i]);
	}
	start_root = user_vram(0);
	shared_fd = vp_open_device(&devs[0]);
	if (shared_fd < 0) {
		printf("not ok 1 storm: open %s: %s\n", devs[0].path, strerror(-shared_fd));
		return 1;
	}
	printf("# %.0f s on %s (shared by %d processes x %d threads), %d devices\n", secs,
	       devs[0].name, WORKERS, THREADS, ndevs);

	for (i = 0; i < WORKERS; i++)
		workers[i] = spawn(worker_process, i);
	reader = spawn(reader_entry, 0);
	looper = spawn(looper_entry, 0);
	t0 = now();
	next_kill = t0 + KILL_EVERY_MS / 1000.0;
	next_sample = t0 + SAMPLE_EVERY;
	do {	/* at least once: a victim spawned and killed */
		if (victim < 0)
			victim = spawn(victim_process, victim_dev++ % ndevs);
		if (now() >= next_kill) {
			kill_victim(&victim);
			next_kill += KILL_EVERY_MS / 1000.0;
		}
		if (now() >= next_sample) {
			kill_victim(&victim);
			sample(probe_fd, start);
			next_sample += SAMPLE_EVERY;
		}
		usleep(20000);
	} while (!sh->stop && now() - t0 < secs);
	kill_victim(&victim);
	/* One sample with everyone parked, then the end. */
	if (!sh->stop)
		sample(probe_fd, start);
	sh->stop = 1;
	for (i = 0; i < WORKERS; i++) {
		waitpid(workers[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fail("worker process %d: status %#x", i, status);
	}
	waitpid(reader, &status, 0);
	waitpid(looper, &status, 0);
	close(shared_fd);
	for (i = 0; i < ndevs; i++) {
		v = vp_vram_in_use(probe_fd[i]);
		if (v != start[i])
			fail("%s: VRAM_IN_USE %" PRIu64 " after every file closed, %" PRIu64
			     " at the start", devs[i].name, v, start[i]);
		close(probe_fd[i]);
	}
	for (i = 0; i < OP_N; i++)
		printf("# %-22s %" PRIu64 "\n", op_names[i], sh->ops[i]);
	printf("# bytes checked: %" PRIu64 "\n", sh->bytes_checked);
	ret = sh->failed;
	if (ret) {
		printf("# %s\n", sh->error);
		printf("not ok 1 storm\n");
		rc = 1;
	} else if (!sh->ops[OP_SAMPLE] || !sh->ops[OP_KILL] || !sh->ops[OP_ALLOC]) {
		printf("not ok 1 storm: it did not get going (%" PRIu64 " samples, %" PRIu64
		       " kills, %" PRIu64 " allocations)\n", sh->ops[OP_SAMPLE], sh->ops[OP_KILL],
		       sh->ops[OP_ALLOC]);
		rc = 1;
	} else {
		printf("ok 1 storm\n");
	}
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n", !rc, rc);
	return rc;
}

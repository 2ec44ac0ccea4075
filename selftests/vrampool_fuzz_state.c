// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's state and its plumbing: the seeded random numbers (the seed
 * alone decides), the profile of where the time goes, the devices and
 * clients with what the model keeps of each, the answers seen (for the
 * floor), a mismatch's report, the ioctl with fail-nth around it when
 * armed, and opening, closing and picking clients.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- Random numbers: xorshift64*, the seed alone decides ---------------- */

uint64_t rng_state;

uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)((rnd64() >> 11) % n) : 0;
}

bool chance(uint32_t one_in)
{
	return rnd(one_in) == 0;
}

/* ---- Where the time goes (--profile, VRAMPOOL_FUZZ_PROFILE=1) ------------ */

static const char *const prof_names[P_KINDS] = {
	[P_IOCTL] = "the op's ioctl, failed", [P_IOCTL_OK] = "the op's ioctl, succeeded",
	[P_WAIT] = "wait for the child", [P_QUERY] = "POOL_QUERY vs the model",
	[P_VRAM] = "device VRAM (GET_PARAM, sysfs)", [P_CHECK] = "pattern checks",
	[P_FILL] = "pattern writes", [P_MMAP] = "mmap and munmap",
	[P_READS] = "fdinfo and sysfs reads", [P_FORK] = "fork()",
	[P_OPEN] = "open a client", [P_CLOSE] = "close a client",
};

bool profiling;
static struct { uint64_t ns, n; } prof[P_KINDS];
#define PROF_OPS 32
static struct { const char *op; uint64_t ns, n; } prof_op[PROF_OPS];

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

uint64_t prof_start(void)
{
	return profiling ? now_ns() : 0;
}

void prof_end(enum prof_kind k, uint64_t t0)
{
	if (!profiling)
		return;
	prof[k].ns += now_ns() - t0;
	prof[k].n++;
}

void prof_step(const char *op, uint64_t t0)
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

void prof_print(double secs)
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

struct fz_dev devs[VP_MAX_DEVICES];
int ndevs;
struct fz_client clients[MAX_CLIENTS];
int nclients;
uint64_t max_allocations = UINT64_MAX, max_pages = UINT64_MAX;

/* Hostile memory: a page that faults, a read-only page, a scratch page. */
uint8_t *mem_none, *mem_ro, *scratch;

/* The run. */
uint64_t seed, step, steps;
int only_dev = -1;		/* --device D: every client on device D */
bool worker;			/* one of a parallel plan's processes */
bool fail_nth_mode;
/*
 * The model predicts every placement, page and byte of VRAM (off only in
 * fail-nth runs: an injected fault leaves the kernel anywhere inside an
 * ALLOC, the model cannot know where, and those runs check instead that a
 * failed operation changed nothing).
 */
bool model_exact;
int fail_nth_fd = -1;
int armed;			/* fail-nth armed for the op's ioctl */
bool injected;			/* and the fault was injected */
uint64_t ops_failed_injected, ops_absorbed;
const char *op_name = "";
uint8_t sink;
uint64_t bytes_checked, allocs_made, forks_done, reopens, installs_done, installs_busy;
uint64_t quotas_set;

struct fz_seen seen[SEEN_MAX];
int nseen;

void saw(const char *op, int err, uint32_t code)
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

void mismatch(const char *fmt, ...)
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

const char *ename(int err)
{
	return err ? strerrorname_np(err < 0 ? -err : err) ?: "?" : "0";
}

/* ---- The ioctl, with fail-nth around it when armed ---------------------- */

void fail_nth_write(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		mismatch("fail-nth write %u: %s", n, strerror(errno));
}

unsigned int fail_nth_read(void)
{
	char buf[16];
	ssize_t n = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		mismatch("fail-nth read: %s", strerror(errno));
	buf[n] = '\0';
	return (unsigned int)strtoul(buf, NULL, 10);
}

int xioctl(int fd, unsigned long req, void *arg)
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
bool injected_failure(int ret, int want)
{
	if (!injected || !ret || ret == want)
		return false;
	if (ret != -ENOMEM && ret != -ENOSPC)
		mismatch("injected fault: %s, want %s or ENOMEM", ename(ret), ename(want));
	return true;
}

/* ---- Clients -------------------------------------------------------------- */

/*
 * The users the clients belong to, in turn (DOC: tenants): root and two
 * others, so that a user has several files and the per-user sums and
 * limits are exercised.
 */
uid_t user_uid(uint32_t user)
{
	static const uid_t uids[FZM_USERS] = { 0, 62001, 62002 };

	return uids[user];
}

/* The live allocations of @user on @dev: what max_allocations counts. */
static uint64_t user_live(int dev, uint32_t user)
{
	uint64_t n = devs[dev].user_allocs[user];
	int i;

	for (i = 0; i < nclients; i++)
		if (clients[i].fd >= 0 && clients[i].dev == dev && clients[i].m.user == user)
			n += (uint64_t)clients[i].nlive;
	return n;
}

/* The live allocations of @c's user on its device. */
uint64_t user_nlive(const struct fz_client *c)
{
	return user_live(c->dev, c->m.user);
}

/* A user's sysfs value on @dev; 0 without a folder (no file open). */
static uint64_t user_sysfs(int dev, uint32_t user, const char *file)
{
	uint64_t v = vp_sysfs_user_u64(&devs[dev].d, user_uid(user), file);

	return v == UINT64_MAX ? 0 : v;
}

/* Before the first client opens: what each user holds outside the fuzzer. */
void users_start(int dev)
{
	uint32_t u;

	for (u = 0; u < FZM_USERS; u++) {
		devs[dev].m.users[u].vram = user_sysfs(dev, u, "vram");
		devs[dev].m.users[u].pages = user_sysfs(dev, u, "pages");
		devs[dev].user_allocs[u] = user_sysfs(dev, u, "allocations");
	}
}

/* Each user's sysfs sums on @dev are the model's (and the clients' allocations). */
void check_users(int dev, const char *when)
{
	uint64_t got;
	uint32_t u;

	for (u = 0; u < FZM_USERS; u++) {
		got = user_sysfs(dev, u, "allocations");
		if (got != user_live(dev, u))
			mismatch("%s: users/%u/allocations %" PRIu64 ", the clients hold %" PRIu64,
				 when, (unsigned int)user_uid(u), got, user_live(dev, u));
		if (!model_exact)
			continue;
		got = user_sysfs(dev, u, "vram");
		if (got != devs[dev].m.users[u].vram)
			mismatch("%s: users/%u/vram %" PRIu64 ", the model's %" PRIu64, when,
				 (unsigned int)user_uid(u), got, devs[dev].m.users[u].vram);
		got = user_sysfs(dev, u, "pages");
		if (got != devs[dev].m.users[u].pages)
			mismatch("%s: users/%u/pages %" PRIu64 ", the model's %" PRIu64, when,
				 (unsigned int)user_uid(u), got, devs[dev].m.users[u].pages);
	}
}

void client_open(struct fz_client *c, int dev)
{
	uint32_t count = 0, user;
	struct drm_vrampool_layout_error err;
	int ret;

	uint64_t t0 = prof_start();
	struct fzm_client m = c->m;	/* its arrays are reused */

	memset(c, 0, sizeof(*c));
	c->m = m;
	c->dev = dev;
	user = (uint32_t)(c - clients) % FZM_USERS;
	c->fd = user_uid(user) ? vp_open_device_as(&devs[dev].d, user_uid(user)) :
				 vp_open_device(&devs[dev].d);
	prof_end(P_OPEN, t0);
	if (c->fd < 0)
		mismatch("open %s: %s", devs[dev].d.path, ename(c->fd));
	ret = vrampool_layout_preset(&devs[dev].lp,
				     vrampool_layout_default_preset(&devs[dev].lp),
				     c->layout, &count, &err);
	if (ret)
		mismatch("the default preset does not resolve: %s", ename(ret));
	c->num_pools = count;
	fzm_client_open(&c->m, &devs[dev].m, user, c->layout, count);
	ret = vp_snap_take(c->fd, &snap);
	if (ret)
		mismatch("POOL_QUERY of a new client: %s", ename(ret));
	c->generation = snap.generation;
	c->mode = DRM_VRAMPOOL_PERSISTENT_ENABLED;
	check_query(c, "a new client has the default layout");
}

/* A mapping of one of @c's pages at @off goes: the model counts it. */
void prof_munmap(struct fz_client *c, void *p, size_t len, uint64_t off)
{
	uint64_t t0 = prof_start();

	munmap(p, len);
	prof_end(P_MMAP, t0);
	fzm_unmap(&c->m, off);
}

void drop_orphan(struct fz_client *c, int i)
{
	prof_munmap(c, c->orphans[i].map, c->orphans[i].map_len, c->orphans[i].mmap_offset);
	c->orphans[i] = c->orphans[--c->norphans];
}

void client_close(struct fz_client *c)
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

struct fz_client *pick_client(void)
{
	return &clients[rnd(nclients)];
}

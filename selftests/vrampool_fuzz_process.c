// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's steps around the ioctls: fork (a child's allocations are
 * its parent's client's), close and reopen, the device's VRAM quota set in
 * sysfs now and then (and lifted again), and sysfs and fdinfo reads.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

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

void do_fork(struct fz_client *c)
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

void do_reopen(struct fz_client *c)
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
void quotas_restore(void)
{
	int i;

	for (i = 0; i < ndevs; i++)
		if (devs[i].m.quota != devs[i].quota_start)
			quota_write(i, devs[i].quota_start);
	quota_dev = -1;
}

/*
 * Now and then a quota on the client's device for a few hundred steps, a
 * little above what the client holds: its next pages, and the other
 * clients' on the device, meet it, and the model predicts each
 * QuotaExceeded with its quota and the VRAM held. Exact runs only (a
 * fail-nth run has no model to predict it).
 */
void do_quota(struct fz_client *c)
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
void quota_tick(void)
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

void do_reads(struct fz_client *c)
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

void check_one(const struct fz_client *c, const struct fz_alloc *a)
{
	op_name = "a random check";
	check_alloc_bytes(c, a, "a random check", a->size <= 256 * KiB);
}

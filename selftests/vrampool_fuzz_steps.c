// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's steps: one random step of a random client, and the setup
 * of the memory for hostile pointers and of the devices.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- The steps ------------------------------------------------------------------- */

void one_step(void)
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

void setup_memory(void)
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

void setup_devices(void)
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

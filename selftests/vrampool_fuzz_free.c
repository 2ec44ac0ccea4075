// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's FREE and CLEANUP steps, valid and hostile, and mmap after
 * free: a freed allocation's mapping stays readable while mapped, and its
 * offset maps no more once its page is gone.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- FREE, CLEANUP, mmap after free ------------------------------------------- */

void forget(struct fz_client *c, int i, bool keep_map)
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

bool handle_live(const struct fz_client *c, uint32_t h, int *idx)
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

void do_free(struct fz_client *c, bool hostile)
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
void free_dynamic(struct fz_client *c)
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

void do_cleanup(struct fz_client *c, bool hostile)
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

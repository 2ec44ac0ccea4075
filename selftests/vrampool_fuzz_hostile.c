// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's POOL_QUERY, GET_PARAM and SET_PERSISTENT_MODE steps with
 * hostile arguments, and argument pointers to unmapped, read-only and
 * unaligned memory for every ioctl.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

/* ---- POOL_QUERY, GET_PARAM, SET_PERSISTENT_MODE with hostile arguments ------- */

void do_query_hostile(struct fz_client *c)
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

void do_get_param(struct fz_client *c)
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

void do_set_mode(struct fz_client *c)
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
void do_bad_arg(struct fz_client *c)
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
void do_unaligned_arg(struct fz_client *c)
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's POOL_INSTALL: layouts from a generator and mutated ones,
 * hostile requests (pads, flags, counts, entry pointers to unmapped,
 * read-only and unaligned memory), and the plan of what the kernel must
 * answer, judged by the shared resolver.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

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

void do_install(struct fz_client *c)
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

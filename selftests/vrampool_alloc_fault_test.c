// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures injected one at a time through fail-nth (see
 * vrampool_test_lib.h) into the allocation ioctls, on the first device of
 * each backend: ALLOC that makes a new page (sliced, direct, persistent), ALLOC
 * served from an existing page (with a new record, and with a spare one,
 * which allocates nothing), a zero-size (page-less) ALLOC in every pool
 * type, FREE, CLEANUP, and POOL_INSTALL while a mapped persistent
 * allocation lives. (The limit paths are swept by
 * vrampool_limits_test_helper, under small limits.)
 *
 * After every injected failure: a clean ENOMEM with no structured error
 * code, no half-made allocation (every POOL_QUERY statistic, the layout
 * generation and VRAM_IN_USE exactly as before), no handle answered,
 * live allocations and their data intact. Then the call must succeed, with
 * the handle it would have got without a fault (a handle leaked by a
 * failure would move it).
 *
 * Skips with VP_FAULT_SKIP_REASON on a kernel without fault injection
 * (Debian's), fails instead when VRAMPOOL_FAULT_INJECTION=1 says the
 * kernel has it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define MAP_SIZE	(8 * KiB)
#define SEED		0x5eed
/* The witness: a free page of pool 0, exclusive{WITNESS_SIZE}. */
#define WITNESS_SIZE	256

FIXTURE(afault) {
	int fd;
	struct vp_device dev;
};

VP_BACKEND_VARIANTS(afault);

FIXTURE_SETUP(afault)
{
	self->fd = -1;
	VP_FAULT_REQUIRE();
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
}

FIXTURE_TEARDOWN(afault)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- The client's state around an attempt ----------------------------------- */

struct ctx {
	int fd;
	const char *dev;		/* the device, for logs */
	struct vp_snap before, after;	/* POOL_QUERY around an attempt */
	/* A mapped persistent allocation whose data must survive (or NULL). */
	uint8_t *map;
	uint32_t keeper;		/* its handle */
	/* ALLOC */
	uint64_t size;
	uint32_t flags;
	struct drm_vrampool_alloc a;
	uint32_t next_handle;		/* the handle a success gets */
	uint32_t want_pool;
	bool cleanup_after;		/* a success made a page: free and clean up */
	bool witness;			/* then make pool 0's free witness page again */
	/* FREE */
	uint32_t victim;
	/* CLEANUP: the free page to make again after a success */
	uint64_t page_size;
	/* POOL_INSTALL */
	const struct drm_vrampool_pool_entry *entries, *restore;
	uint32_t count, restore_count;
	struct drm_vrampool_pool_install ins;
};

static const char *const stat_names[] = {
	"allocations", "bytes_in_use", "padding", "reserved_bytes", "pages", "pages_peak",
	"largest_alloc",
};

static void stat_values(const struct drm_vrampool_pool_status *st, uint64_t v[7])
{
	v[0] = st->allocations;
	v[1] = st->bytes_in_use;
	v[2] = st->padding;
	v[3] = st->reserved_bytes;
	v[4] = st->pages;
	v[5] = st->pages_peak;
	v[6] = st->largest_alloc;
}

/* 0 when @a and @b are the same, else -1 with the first difference in @why. */
static int state_diff(const struct vp_snap *a, const struct vp_snap *b, char *why, size_t len)
{
	uint64_t va[7], vb[7];
	uint32_t i;
	int k;

	if (a->count != b->count || a->generation != b->generation ||
	    a->num_pools != b->num_pools) {
		snprintf(why, len, "the layout changed: %u entries, generation %" PRIu64
			 " became %u, %" PRIu64, a->count, a->generation, b->count,
			 b->generation);
		return -1;
	}
	if (a->vram_in_use != b->vram_in_use) {
		snprintf(why, len, "the client's vram_in_use went from %" PRIu64 " to %" PRIu64,
			 a->vram_in_use, b->vram_in_use);
		return -1;
	}
	for (i = 0; i < a->count; i++) {
		stat_values(&a->pools[i], va);
		stat_values(&b->pools[i], vb);
		for (k = 0; k < 7; k++) {
			if (va[k] == vb[k])
				continue;
			snprintf(why, len, "pool %u: %s went from %" PRIu64 " to %" PRIu64,
				 a->pools[i].index, stat_names[k], va[k], vb[k]);
			return -1;
		}
		if (memcmp(&a->pools[i], &b->pools[i], sizeof(a->pools[i]))) {
			snprintf(why, len, "pool %u: its configuration changed", a->pools[i].index);
			return -1;
		}
	}
	return 0;
}

static int snapshot(void *p)
{
	struct ctx *c = p;

	return vp_snap_take(c->fd, &c->before);
}

static int data_intact(struct ctx *c, char *why, size_t len)
{
	ssize_t bad;

	if (!c->map)
		return 0;
	bad = vp_check_pattern(c->map, MAP_SIZE, SEED, 0);
	if (bad < 0)
		return 0;
	snprintf(why, len, "the mapped persistent allocation's data differs at byte %zd", bad);
	return -1;
}

/* After a failure: state as before, data intact. */
static int unchanged(void *p, char *why, size_t len)
{
	struct ctx *c = p;

	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	if (state_diff(&c->before, &c->after, why, len))
		return -1;
	return data_intact(c, why, len);
}

/* Run @op on @c: every failure clean, then a success; @min_faults injected. */
static void run(struct __test_metadata *_metadata, struct vp_fault_op *op, struct ctx *c,
		unsigned int min_faults)
{
	op->ctx = c;
	op->allowed = vp_fault_only_enomem;
	op->vram_fd = c->fd;
	op->snapshot = snapshot;
	vp_fault_check(_metadata, op, c->dev, min_faults);
}

/*
 * A test's context on the fixture's client, once the @n pools @e (@what in
 * the log) are installed. ctx_end() frees it.
 */
static struct ctx *ctx_new(struct __test_metadata *_metadata, FIXTURE_DATA(afault) *self,
			   const struct drm_vrampool_pool_entry *e, uint32_t n, const char *what)
{
	struct ctx *c = calloc(1, sizeof(*c));

	ASSERT_NE(NULL, c);
	c->fd = self->fd;
	c->dev = self->dev.name;
	VP_INSTALL_OK(self->fd, e, n, what);
	return c;
}

/* A persistent allocation (c->keeper), mapped and filled with the pattern. */
static void map_persistent(struct __test_metadata *_metadata, struct ctx *c)
{
	struct drm_vrampool_alloc w;

	VP_ALLOC_OK(c->fd, MAP_SIZE, DRM_VRAMPOOL_ALLOC_PERSISTENT, &w, "mapped persistent");
	c->keeper = w.handle;
	c->map = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, w.mmap_offset);
	ASSERT_NE(MAP_FAILED, c->map) TH_LOG("mmap: %s", strerror(errno));
	vp_fill_pattern(c->map, MAP_SIZE, SEED, 0);
}

/* The end of a test: the mapped persistent allocation (if any) goes, and @c. */
static void ctx_end(struct __test_metadata *_metadata, struct ctx *c)
{
	if (c->map) {
		munmap(c->map, MAP_SIZE);
		VP_FREE_OK(c->fd, c->keeper, "the mapped persistent allocation");
	}
	free(c);
}

/* ---- ALLOC ------------------------------------------------------------------- */

static int alloc_call(void *p)
{
	struct ctx *c = p;

	return vp_alloc(c->fd, c->size, c->flags, &c->a);
}

/*
 * A failed ALLOC: no error code (ENOMEM is no pool's answer), no handle
 * answered. (No FREE probes the handle it would have got: FREE of a handle
 * a failure leaked but never filled would undo the leak. The final
 * success's handle shows it instead.)
 */
static int alloc_unchanged(void *p, char *why, size_t len)
{
	struct ctx *c = p;

	if (c->a.error.code || c->a.handle) {
		snprintf(why, len, "the failed ALLOC answered handle %u, error code %u",
			 c->a.handle, c->a.error.code);
		return -1;
	}
	return unchanged(p, why, len);
}

/*
 * A successful ALLOC: the handle and pool expected, one more allocation of
 * the size in that pool; then it is freed (and its page cleaned up) so the
 * next attempt starts from the same state.
 */
static int alloc_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;
	uint32_t i;
	int ret;

	if (c->a.handle != c->next_handle || c->a.pool != c->want_pool) {
		snprintf(why, len, "it got handle %u in pool %u, not handle %u in pool %u "
			 "(a failure leaked a handle?)", c->a.handle, c->a.pool, c->next_handle,
			 c->want_pool);
		return -1;
	}
	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	for (i = 0; i < c->after.count; i++) {
		if (c->after.pools[i].index != c->want_pool)
			continue;
		if (c->after.pools[i].allocations != c->before.pools[i].allocations + 1 ||
		    c->after.pools[i].bytes_in_use != c->before.pools[i].bytes_in_use + c->size) {
			snprintf(why, len, "pool %u holds %" PRIu64 " allocations of %" PRIu64
				 " bytes, before %" PRIu64 " of %" PRIu64, c->want_pool,
				 (uint64_t)c->after.pools[i].allocations,
				 (uint64_t)c->after.pools[i].bytes_in_use,
				 (uint64_t)c->before.pools[i].allocations,
				 (uint64_t)c->before.pools[i].bytes_in_use);
			return -1;
		}
	}
	/* Every other pool as it was: no cleanup ran (it would take the witness). */
	for (i = 0; i < c->after.count; i++) {
		struct vp_snap one = { .count = 1 }, other = { .count = 1 };

		if (c->after.pools[i].index == c->want_pool)
			continue;
		one.pools[0] = c->before.pools[i];
		other.pools[0] = c->after.pools[i];
		if (state_diff(&one, &other, why, len))
			return -1;
	}
	if (data_intact(c, why, len))
		return -1;
	/* Handles are handed out cyclically: the next success gets the next one. */
	c->next_handle = c->a.handle + 1;
	ret = vp_free(c->fd, c->a.handle);
	if (!ret && c->cleanup_after)
		ret = vp_cleanup(c->fd);
	if (!ret && c->cleanup_after && c->witness) {
		ret = vp_alloc(c->fd, WITNESS_SIZE, 0, &c->a);
		if (!ret)
			c->next_handle = c->a.handle + 1;
		if (!ret)
			ret = vp_free(c->fd, c->a.handle);
	}
	if (ret) {
		snprintf(why, len, "undoing it: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

/*
 * Sweeps an ALLOC of @size into @pool that injects at least @min_faults
 * (0: one documented to allocate nothing, and checked to).
 */
static void alloc_sweep_min(struct __test_metadata *_metadata, struct ctx *c, const char *name,
			    uint64_t size, uint32_t flags, uint32_t pool, bool new_page,
			    unsigned int min_faults)
{
	struct vp_fault_op op = {
		.name = name,
		.call = alloc_call,
		.unchanged = alloc_unchanged,
		.succeeded = alloc_succeeded,
	};

	c->size = size;
	c->flags = flags;
	c->want_pool = pool;
	c->cleanup_after = new_page;
	run(_metadata, &op, c, min_faults);
}

static void alloc_sweep(struct __test_metadata *_metadata, struct ctx *c, const char *name,
			uint64_t size, uint32_t flags, uint32_t pool, bool new_page)
{
	/* A page: the allocation, its handle, the page, its index, its BO. */
	alloc_sweep_min(_metadata, c, name, size, flags, pool, new_page, new_page ? 3 : 1);
}

/*
 * ALLOC that has to make a page: a sliced page, a direct buffer and a
 * persistent buffer (which also records its size), with a mapped
 * persistent allocation (handle 1) looking on, and a free page in pool 0
 * (exclusive{256}, which takes none of the sizes swept) as a witness: a
 * kernel-memory failure is no full VRAM, so no cleanup may run (and release
 * it) on its account.
 */
TEST_F_TIMEOUT(afault, alloc_making_a_page, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry e[3] = {
		vp_exclusive(WITNESS_SIZE, VP_ABSENT),
		vp_sliced(64 * KiB, 16 * KiB, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc w;
	struct ctx *c = ctx_new(_metadata, self, e, 3,
				"exclusive{256}, sliced{64 KiB, max_slice 16 KiB}, direct{}");

	map_persistent(_metadata, c);
	ASSERT_EQ(1u, c->keeper);
	VP_ALLOC_OK(self->fd, WITNESS_SIZE, 0, &w, "the witness");
	VP_FREE_OK(self->fd, w.handle, "the witness");
	VP_EXPECT_PAGES(self->fd, 0, "a free witness page", 1, WITNESS_SIZE);
	c->next_handle = w.handle + 1;	/* cyclic: not the witness's again */

	c->witness = true;
	alloc_sweep(_metadata, c, "ALLOC of a new sliced page", 1000, 0, 1, true);
	alloc_sweep(_metadata, c, "ALLOC of a new direct buffer", 100 * KiB, 0, 2, true);
	alloc_sweep(_metadata, c, "ALLOC of a new persistent buffer", 3000,
		    DRM_VRAMPOOL_ALLOC_PERSISTENT, DRM_VRAMPOOL_PERSISTENT_POOL, true);

	VP_EXPECT_PAGES(self->fd, 1, "the sliced pool after the sweeps", 0, 0);
	VP_EXPECT_PAGES(self->fd, 2, "the direct pool after the sweeps", 0, 0);
	VP_EXPECT_PAGES(self->fd, 0, "the witness, made again after each success", 1,
			WITNESS_SIZE);
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "persistent after the sweeps", 1,
			MAP_SIZE);
	ctx_end(_metadata, c);
}

/*
 * ALLOC served from a page that is there already: a slice, a free buffer;
 * each with a new record (the client has no spare record: its only one is
 * held), and with a spare one, the record of the allocation freed last
 * (DOC: spare records), which allocates nothing at all.
 */
TEST_F_TIMEOUT(afault, alloc_from_an_existing_page, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry e[2] = {
		vp_sliced(64 * KiB, 16 * KiB, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_alloc k, f, hold;
	struct ctx *c = ctx_new(_metadata, self, e, 2,
				"sliced{64 KiB, max_slice 16 KiB}, direct{}");

	VP_ALLOC_OK(self->fd, 1000, 0, &k, "a slice that keeps the page");
	c->next_handle = k.handle + 1;
	alloc_sweep(_metadata, c, "ALLOC of a slice in the page, a new record", 1000, 0, 0,
		    false);
	/* The sweep's success was freed: its record is the spare. */
	alloc_sweep_min(_metadata, c, "ALLOC of a slice in the page, a spare record", 1000, 0,
			0, false, 0);

	VP_ALLOC_OK(self->fd, 100 * KiB, 0, &f, "a direct buffer, to be free");
	VP_FREE_OK(self->fd, f.handle, "the direct buffer");
	VP_ALLOC_OK(self->fd, 1000, 0, &hold, "a slice that takes the spare record");
	c->next_handle = hold.handle + 1;	/* cyclic: not the buffer's again */
	alloc_sweep(_metadata, c, "ALLOC of the free direct buffer, a new record", 100 * KiB, 0,
		    1, false);
	alloc_sweep_min(_metadata, c, "ALLOC of the free direct buffer, a spare record",
			100 * KiB, 0, 1, false, 0);

	VP_EXPECT_PAGES(self->fd, 0, "the sliced pool after the sweeps", 1, 64 * KiB);
	VP_EXPECT_PAGES(self->fd, 1, "the direct pool after the sweeps", 1, 100 * KiB);
	VP_FREE_OK(self->fd, hold.handle, "the slice that took the spare");
	VP_FREE_OK(self->fd, k.handle, "the slice");
	ctx_end(_metadata, c);
}

/* The handle table's xarray nodes hold 64 slots each (XA_CHUNK_SIZE). */
#define CHUNK	64

/*
 * Zero-size fillers in @z up to the end of a chunk of the handle table: as
 * handles are cyclic, the ones in an earlier chunk are freed, so that those
 * left hold the rest of their chunk alone and the next handle, the first of
 * the chunk after, needs a node of its own. Their handles follow on from
 * each other (no failure leaked one); the next one goes in c->next_handle.
 */
static uint32_t fill_chunk(struct __test_metadata *_metadata, struct ctx *c,
			   struct drm_vrampool_alloc *z)
{
	uint32_t i, n = 0;

	do {
		VP_ALLOC_OK(c->fd, 0, 0, &z[n], "a zero-size filler");
		if (n)
			ASSERT_EQ(z[n - 1].handle + 1, z[n].handle) TH_LOG("a filler's handle");
		if (n && z[n].handle % CHUNK == 0) {
			for (i = 0; i < n; i++)
				VP_FREE_OK(c->fd, z[i].handle, "a filler of the chunk before");
			z[0] = z[n];
			n = 0;
		}
		n++;
	} while (z[n - 1].handle % CHUNK != CHUNK - 1);
	c->next_handle = z[n - 1].handle + 1;
	return n;
}

static void free_fillers(struct __test_metadata *_metadata, struct ctx *c,
			 struct drm_vrampool_alloc *z, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		VP_FREE_OK(c->fd, z[i].handle, "a zero-size filler");
}

/*
 * A zero-size ALLOC, in every pool type: it makes no page and no record, only
 * its handle's slot. Live zero-size allocations fill a chunk of the handle
 * table (the first time, handles 1 to 63), so that the next handle starts
 * the chunk after and needs a node of its own: the kernel memory a page-less
 * allocation costs, and the one place it can fail. Each success is freed, so
 * the next (cyclic) handle is again alone in its chunk.
 */
TEST_F_TIMEOUT(afault, alloc_pageless, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry e[3] = {
		vp_sliced(64 * KiB, 16 * KiB, VP_ABSENT),
		vp_exclusive(WITNESS_SIZE, VP_ABSENT), vp_direct(VP_ABSENT),
	};
	struct drm_vrampool_pool_entry direct = vp_direct(VP_ABSENT);
	struct drm_vrampool_alloc z[CHUNK];
	struct ctx *c = ctx_new(_metadata, self, e, 3,
				"sliced{64 KiB, max_slice 16 KiB}, exclusive{256}, direct{}");
	uint32_t n;

	n = fill_chunk(_metadata, c, z);
	ASSERT_EQ(63u, n);
	ASSERT_EQ(64u, c->next_handle);
	alloc_sweep(_metadata, c, "zero-size ALLOC, sliced pool", 0, 0, 0, false);
	free_fillers(_metadata, c, z, n);
	n = fill_chunk(_metadata, c, z);
	alloc_sweep(_metadata, c, "zero-size ALLOC, persistent pool", 0,
		    DRM_VRAMPOOL_ALLOC_PERSISTENT, DRM_VRAMPOOL_PERSISTENT_POOL, false);
	free_fillers(_metadata, c, z, n);
	VP_EXPECT_PAGES(self->fd, 0, "no page made", 0, 0);
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "no buffer made", 0, 0);

	/* The same in a direct pool and an exclusive one (pool 0 of each layout). */
	VP_INSTALL_OK(self->fd, &direct, 1, "direct{}");
	n = fill_chunk(_metadata, c, z);
	alloc_sweep(_metadata, c, "zero-size ALLOC, direct pool", 0, 0, 0, false);
	free_fillers(_metadata, c, z, n);
	VP_EXPECT_PAGES(self->fd, 0, "no buffer made", 0, 0);
	VP_INSTALL_OK(self->fd, &e[1], 1, "exclusive{256}");
	n = fill_chunk(_metadata, c, z);
	alloc_sweep(_metadata, c, "zero-size ALLOC, exclusive pool", 0, 0, 0, false);
	free_fillers(_metadata, c, z, n);
	VP_EXPECT_PAGES(self->fd, 0, "no page made", 0, 0);
	ctx_end(_metadata, c);
}

/* ---- FREE and CLEANUP ------------------------------------------------------------ */

static int free_call(void *p)
{
	struct ctx *c = p;

	return vp_free(c->fd, c->victim);
}

/* Freed: one allocation less; then it is made again for the next attempt. */
static int free_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;
	int ret;

	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	if (c->after.pools[0].allocations + 1 != c->before.pools[0].allocations) {
		snprintf(why, len, "pool 0 holds %" PRIu64 " allocations, before %" PRIu64,
			 (uint64_t)c->after.pools[0].allocations,
			 (uint64_t)c->before.pools[0].allocations);
		return -1;
	}
	if (data_intact(c, why, len))
		return -1;
	ret = vp_alloc(c->fd, c->size, 0, &c->a);
	if (ret || c->a.handle != c->victim + 1) {
		snprintf(why, len, "making it again: %s, handle %u, not the next one, %u",
			 ret ? strerror(-ret) : "ok", c->a.handle, c->victim + 1);
		return -1;
	}
	c->victim = c->a.handle;
	return 0;
}

TEST_F_TIMEOUT(afault, free, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct vp_fault_op op = {
		.name = "FREE",
		.call = free_call,
		.unchanged = unchanged,
		.succeeded = free_succeeded,
	};
	struct drm_vrampool_alloc v;
	struct ctx *c = ctx_new(_metadata, self, &e, 1, "sliced{64 KiB}");

	map_persistent(_metadata, c);
	VP_ALLOC_OK(self->fd, 1000, 0, &v, "the victim");
	c->victim = v.handle;
	c->size = 1000;
	run(_metadata, &op, c, 0);	/* FREE allocates nothing: no fault to inject */
	VP_EXPECT_POOL(self->fd, 0, "after the sweep",
		       .allocations = 1, .bytes_in_use = 1000, .padding = 24,
		       .reserved_bytes = 64 * KiB, .pages = 1, .pages_peak = 1,
		       .largest_alloc = 1000);
	ctx_end(_metadata, c);
}

static int cleanup_call(void *p)
{
	struct ctx *c = p;

	return vp_cleanup(c->fd);
}

/* Cleaned: the free page went; then a free page is made again. */
static int cleanup_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;
	int ret;

	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	if (c->after.pools[0].pages != 0 ||
	    c->after.vram_in_use + vp_bo_bytes(c->page_size) != c->before.vram_in_use) {
		snprintf(why, len, "pool 0 holds %" PRIu64 " pages, the client %" PRIu64
			 " bytes of VRAM, before %" PRIu64, (uint64_t)c->after.pools[0].pages,
			 c->after.vram_in_use, c->before.vram_in_use);
		return -1;
	}
	if (data_intact(c, why, len))
		return -1;
	ret = vp_alloc(c->fd, 1000, 0, &c->a);
	if (!ret)
		ret = vp_free(c->fd, c->a.handle);
	if (ret) {
		snprintf(why, len, "making a free page again: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(afault, cleanup, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct vp_fault_op op = {
		.name = "CLEANUP",
		.call = cleanup_call,
		.unchanged = unchanged,
		.succeeded = cleanup_succeeded,
	};
	struct drm_vrampool_alloc a;
	struct ctx *c = ctx_new(_metadata, self, &e, 1, "sliced{64 KiB}");

	map_persistent(_metadata, c);
	VP_ALLOC_OK(self->fd, 1000, 0, &a, "a slice");
	VP_FREE_OK(self->fd, a.handle, "the slice: its page is free");
	c->page_size = 64 * KiB;
	run(_metadata, &op, c, 0);	/* CLEANUP allocates nothing: no fault to inject */
	VP_EXPECT_PAGES(self->fd, 0, "after the sweep: a free page", 1, 64 * KiB);
	VP_EXPECT_PAGES(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "the persistent one", 1, MAP_SIZE);
	ctx_end(_metadata, c);
}

/* ---- POOL_INSTALL with persistent allocations live --------------------------------- */

static int install_call(void *p)
{
	struct ctx *c = p;

	return vp_install_list(c->fd, c->entries, c->count, &c->ins);
}

static int install_unchanged(void *p, char *why, size_t len)
{
	struct ctx *c = p;

	if (c->ins.num_pools || c->ins.generation != c->before.generation) {
		snprintf(why, len, "the failed install answered %u pools, generation %" PRIu64,
			 c->ins.num_pools, (uint64_t)c->ins.generation);
		return -1;
	}
	return unchanged(p, why, len);
}

/*
 * Installed: the next generation and the new pool count; the persistent
 * pool, its statistics and data as they were. Then the old layout goes
 * back in for the next attempt.
 */
static int install_succeeded(void *p, char *why, size_t len)
{
	struct ctx *c = p;
	struct drm_vrampool_pool_install back;
	int ret;

	if (vp_snap_take_why(c->fd, &c->after, why, len))
		return -1;
	if (c->ins.error.code || c->after.generation != c->before.generation + 1 ||
	    c->after.num_pools != c->count) {
		snprintf(why, len, "error code %u, generation %" PRIu64 ", %u pools",
			 c->ins.error.code, c->after.generation, c->after.num_pools);
		return -1;
	}
	if (memcmp(&c->before.pools[c->before.count - 1], &c->after.pools[c->after.count - 1],
		   sizeof(c->after.pools[0]))) {
		snprintf(why, len, "the persistent pool's status changed");
		return -1;
	}
	if (data_intact(c, why, len))
		return -1;
	ret = vp_install_list(c->fd, c->restore, c->restore_count, &back);
	if (ret) {
		snprintf(why, len, "installing the old layout again: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(afault, install_with_persistent_allocations, VP_FAULT_TIMEOUT)
{
	struct drm_vrampool_pool_entry one = vp_direct(VP_ABSENT);
	struct drm_vrampool_pool_entry three[3] = {
		vp_sliced(64 * KiB, VP_ABSENT, 1 * MiB),
		vp_exclusive(1 * MiB, 100),
		vp_direct(4 * MiB),
	};
	struct vp_fault_op op = {
		.name = "POOL_INSTALL with persistent allocations",
		.call = install_call,
		.unchanged = install_unchanged,
		.succeeded = install_succeeded,
	};
	struct drm_vrampool_alloc small;
	struct ctx *c = ctx_new(_metadata, self, &one, 1, "direct{}");

	map_persistent(_metadata, c);
	VP_ALLOC_OK(self->fd, 100, DRM_VRAMPOOL_ALLOC_PERSISTENT, &small, "another persistent");
	c->entries = three;
	c->count = 3;
	c->restore = &one;
	c->restore_count = 1;
	run(_metadata, &op, c, 2);

	VP_EXPECT_POOL(self->fd, DRM_VRAMPOOL_PERSISTENT_POOL, "after the sweep",
		       .allocations = 2, .bytes_in_use = MAP_SIZE + 100, .padding = 156,
		       .reserved_bytes = MAP_SIZE + 256, .pages = 2, .pages_peak = 2,
		       .largest_alloc = MAP_SIZE);
	EXPECT_EQ(-1, vp_check_pattern(c->map, MAP_SIZE, SEED, 0));
	VP_FREE_OK(self->fd, small.handle, "the other persistent allocation");
	ctx_end(_metadata, c);
}

TEST_HARNESS_MAIN

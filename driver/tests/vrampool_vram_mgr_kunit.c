// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the VRAM manager on the buddy allocator: resources that
 * are not contiguous, the cursor over their blocks, and the fragmentation
 * a neighbour's scattered small buffers cause (which a contiguous manager
 * cannot get around and this one does), "full" told from "no memory", and
 * the buddy whole after block splits that got no memory.
 *
 * The manager runs on a bare TTM device: just what ttm_resource_init()
 * and ttm_resource_fini() touch (the LRU lock and lists, the manager
 * table), and BOs that are never initialised, as the manager reads only
 * their size and alignment.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <drm/ttm/ttm_device.h>
#include <drm/ttm/ttm_placement.h>
#include <drm/ttm/ttm_resource.h>

#include "vrampool_bo.h"
#include "vrampool_compat.h"
#include "vrampool_vram_cursor.h"
#include "vrampool_vram_mgr.h"

struct vram_env {
	struct ttm_device bdev;
	struct vrampool_vram_mgr mgr;
};

struct test_res {
	struct kunit *test;
	struct vram_env *env;
	struct vrampool_bo bo;
	struct ttm_resource *res;
	struct vrampool_bo_attempt attempt;
};

static void env_teardown(void *arg)
{
	struct vram_env *env = arg;

	vrampool_vram_mgr_teardown(&env->mgr);
}

static struct vram_env *env_make(struct kunit *test, u64 size)
{
	struct vram_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	spin_lock_init(&env->bdev.lru_lock);
	INIT_LIST_HEAD(vrampool_compat_ttm_pinned_list(&env->bdev));
	KUNIT_ASSERT_EQ(test, vrampool_vram_mgr_setup(&env->mgr, &env->bdev, size), 0);
	ttm_set_driver_manager(&env->bdev, TTM_PL_VRAM, &env->mgr.man);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, env_teardown, env), 0);
	return env;
}

static void res_free(void *arg)
{
	struct test_res *tr = arg;

	if (tr->res)
		tr->env->mgr.man.func->free(&tr->env->mgr.man, tr->res);
	tr->res = NULL;
}

/* A BO of @size bytes to place in @env, with no resource yet. */
static struct test_res *tr_make(struct kunit *test, struct vram_env *env, u64 size)
{
	struct test_res *tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tr);
	tr->test = test;
	tr->env = env;
	tr->bo.tbo.bdev = &env->bdev;
	tr->bo.tbo.base.size = size;
	tr->bo.attempt = &tr->attempt;
	return tr;
}

/* A resource of @size bytes in pages [@fpfn, @lpfn), freed when the test ends. */
static int res_alloc(struct kunit *test, struct vram_env *env, u64 size, u32 fpfn, u32 lpfn,
		     u32 flags, struct test_res **out)
{
	struct ttm_place place = {
		.mem_type = TTM_PL_VRAM, .fpfn = fpfn, .lpfn = lpfn, .flags = flags,
	};
	struct test_res *tr = tr_make(test, env, size);
	int ret;

	ret = env->mgr.man.func->alloc(&env->mgr.man, &tr->bo.tbo, &place, &tr->res);
	if (!ret)
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, res_free, tr), 0);
	*out = tr;
	return ret;
}

static struct vrampool_vram_res *vres_of(struct test_res *tr)
{
	return container_of(tr->res, struct vrampool_vram_res, base);
}

/* The VRAM offset of every page of @tr, read off its blocks one by one. */
static u64 *page_map(struct kunit *test, struct test_res *tr)
{
	u64 pages = tr->res->size >> PAGE_SHIFT, i = 0, j;
	u64 *map = kunit_kcalloc(test, pages, sizeof(*map), GFP_KERNEL);
	struct gpu_buddy_block *block;

	KUNIT_ASSERT_NOT_NULL(test, map);
	list_for_each_entry(block, &vres_of(tr)->blocks, link) {
		u64 n = (u64)1 << gpu_buddy_block_order(block);

		for (j = 0; j < n && i < pages; j++, i++)
			map[i] = gpu_buddy_block_offset(block) + (j << PAGE_SHIFT);
	}
	KUNIT_EXPECT_EQ(test, i, pages);
	return map;
}

/* Punch one 4 KiB resource into every @stride bytes of @env's VRAM. */
static void scatter_small(struct kunit *test, struct vram_env *env, u64 vram, u64 stride)
{
	struct test_res *tr;
	u64 at;

	for (at = 0; at < vram; at += stride) {
		u32 pfn = at >> PAGE_SHIFT;

		KUNIT_ASSERT_EQ(test, res_alloc(test, env, SZ_4K, pfn, pfn + 1, 0, &tr), 0);
		KUNIT_ASSERT_EQ(test, vres_of(tr)->base.start, (u64)pfn);
	}
}

/*
 * A neighbour holds 4 KiB every 1 MiB of 16 MiB: no 1 MiB range is free, yet
 * a resource of all the rest (16 MiB - 64 KiB) is placed, in many blocks,
 * none over the neighbour's pages; one more page is "full" (-ENOSPC, noted
 * for the BO). A contiguous request of 2 MiB is refused, as a contiguous
 * manager would refuse every page of 1 MiB or more.
 */
static void vram_mgr_fragmented_gets_all_free(struct kunit *test)
{
	const u64 vram = SZ_16M, stride = SZ_1M, small = (vram / stride) * SZ_4K;
	struct vram_env *env = env_make(test, vram);
	struct test_res *big, *more, *contig;
	u64 *map, i;

	scatter_small(test, env, vram, stride);
	KUNIT_EXPECT_EQ(test, vrampool_vram_mgr_in_use(&env->mgr), small);

	KUNIT_EXPECT_EQ(test, res_alloc(test, env, SZ_2M, 0, 0, TTM_PL_FLAG_CONTIGUOUS, &contig),
			-ENOSPC);

	KUNIT_ASSERT_EQ(test, res_alloc(test, env, vram - small, 0, 0, 0, &big), 0);
	KUNIT_EXPECT_FALSE(test, vres_of(big)->contiguous);
	KUNIT_EXPECT_EQ(test, vrampool_vram_mgr_in_use(&env->mgr), vram);
	KUNIT_EXPECT_EQ(test, env->mgr.mm.avail, 0);

	map = page_map(test, big);
	for (i = 0; i < big->res->size >> PAGE_SHIFT; i++) {
		KUNIT_EXPECT_NE_MSG(test, map[i] % stride, 0, "page %llu on a neighbour's", i);
		KUNIT_EXPECT_EQ(test, map[i] % PAGE_SIZE, 0);
	}

	KUNIT_EXPECT_EQ(test, res_alloc(test, env, SZ_4K, 0, 0, 0, &more), -ENOSPC);
	KUNIT_EXPECT_TRUE(test, more->attempt.asked);
	KUNIT_EXPECT_TRUE(test, more->attempt.no_space);
}

/* Freed blocks merge back: the whole VRAM is one block again, contiguous. */
static void vram_mgr_free_merges(struct kunit *test)
{
	const u64 vram = SZ_8M;
	struct vram_env *env = env_make(test, vram);
	struct test_res *a, *b, *whole;

	KUNIT_ASSERT_EQ(test, res_alloc(test, env, SZ_1M + SZ_4K, 0, 0, 0, &a), 0);
	KUNIT_ASSERT_EQ(test, res_alloc(test, env, SZ_2M + SZ_64K + SZ_4K, 0, 0, 0, &b), 0);
	KUNIT_EXPECT_EQ(test, vrampool_vram_mgr_in_use(&env->mgr), 3 * SZ_1M + SZ_64K + SZ_8K);
	res_free(a);
	res_free(b);
	KUNIT_EXPECT_EQ(test, vrampool_vram_mgr_in_use(&env->mgr), 0);
	KUNIT_EXPECT_EQ(test, env->mgr.mm.avail, vram);

	KUNIT_ASSERT_EQ(test, res_alloc(test, env, vram, 0, 0, TTM_PL_FLAG_CONTIGUOUS, &whole), 0);
	KUNIT_EXPECT_TRUE(test, vres_of(whole)->contiguous);
	KUNIT_EXPECT_EQ(test, whole->res->start, 0);
}

/* Walk @tr from @offset for @len bytes in steps of at most @step. */
static void cursor_walk(struct kunit *test, struct test_res *tr, const u64 *map, u64 offset,
			u64 len, u64 step)
{
	struct vrampool_vram_cursor cur;
	u64 pos = offset, n, done = 0;

	for (vrampool_vram_cursor_first(&cur, tr->res, offset, len); cur.remaining;
	     vrampool_vram_cursor_next(&cur, n)) {
		u64 page = pos >> PAGE_SHIFT, k;

		KUNIT_ASSERT_EQ(test, cur.remaining, len - done);
		KUNIT_ASSERT_GT(test, cur.size, 0);
		KUNIT_ASSERT_LE(test, cur.size, cur.remaining);
		KUNIT_ASSERT_EQ_MSG(test, cur.start, map[page] + (pos & ~PAGE_MASK),
				    "byte %llu", pos);
		/* Everything the cursor calls contiguous is. */
		for (k = 1; k < DIV_ROUND_UP((pos & ~PAGE_MASK) + cur.size, PAGE_SIZE); k++)
			KUNIT_ASSERT_EQ(test, map[page + k], map[page] + (k << PAGE_SHIFT));
		n = min(cur.size, step);
		pos += n;
		done += n;
	}
	KUNIT_EXPECT_EQ(test, done, len);
	KUNIT_EXPECT_EQ(test, cur.size, 0);
}

/*
 * The cursor names, for each byte of a scattered resource, the VRAM the
 * block list gives it: from the start, from inside a block, in small steps
 * that cross block edges, and in whole contiguous runs.
 */
static void vram_mgr_cursor_follows_blocks(struct kunit *test)
{
	const u64 vram = SZ_8M, stride = SZ_512K, small = (vram / stride) * SZ_4K;
	struct vram_env *env = env_make(test, vram);
	struct test_res *big;
	u64 *map, size;

	scatter_small(test, env, vram, stride);
	KUNIT_ASSERT_EQ(test, res_alloc(test, env, vram - small - SZ_64K, 0, 0, 0, &big), 0);
	size = big->res->size;
	map = page_map(test, big);

	cursor_walk(test, big, map, 0, size, U64_MAX);
	cursor_walk(test, big, map, 0, size, SZ_64K + 100);
	cursor_walk(test, big, map, SZ_512K - SZ_4K + 123, SZ_1M, 4000);
	cursor_walk(test, big, map, size - PAGE_SIZE, PAGE_SIZE, PAGE_SIZE);
	cursor_walk(test, big, map, 17 * PAGE_SIZE, 1, 1);
}

/* A range request is honoured block by block: every page inside it. */
static void vram_mgr_range_and_compatible(struct kunit *test)
{
	const u64 vram = SZ_8M;
	struct vram_env *env = env_make(test, vram);
	struct ttm_place inside = { .mem_type = TTM_PL_VRAM, .fpfn = 256, .lpfn = 768 };
	struct ttm_place outside = { .mem_type = TTM_PL_VRAM, .fpfn = 1024 };
	struct ttm_place contig = { .mem_type = TTM_PL_VRAM, .flags = TTM_PL_FLAG_CONTIGUOUS };
	struct ttm_resource_manager *man = &env->mgr.man;
	struct test_res *tr;
	u64 *map, i;

	KUNIT_ASSERT_EQ(test, res_alloc(test, env, SZ_1M + SZ_64K, 256, 768, 0, &tr), 0);
	map = page_map(test, tr);
	for (i = 0; i < tr->res->size >> PAGE_SHIFT; i++) {
		KUNIT_EXPECT_GE(test, map[i], (u64)SZ_1M);
		KUNIT_EXPECT_LT(test, map[i], (u64)3 * SZ_1M);
	}
	KUNIT_EXPECT_TRUE(test, man->func->compatible(man, tr->res, &inside, tr->res->size));
	KUNIT_EXPECT_TRUE(test, man->func->intersects(man, tr->res, &inside, tr->res->size));
	KUNIT_EXPECT_FALSE(test, man->func->compatible(man, tr->res, &outside, tr->res->size));
	KUNIT_EXPECT_FALSE(test, man->func->intersects(man, tr->res, &outside, tr->res->size));
	KUNIT_EXPECT_EQ(test, man->func->compatible(man, tr->res, &contig, tr->res->size),
			vres_of(tr)->contiguous);

	/* More than the range holds is "full", whatever VRAM is free elsewhere. */
	KUNIT_EXPECT_EQ(test, res_alloc(test, env, SZ_2M + SZ_4K, 256, 768, 0, &tr), -ENOSPC);
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * Place @tr's BO (whole VRAM range, no flags) with the @nth fault point of
 * this task armed (fail-nth: every slab and page allocation counts); says
 * whether the fault was injected.
 */
static int alloc_armed(struct vram_env *env, struct test_res *tr, unsigned int nth,
		       bool *injected)
{
	struct ttm_place place = { .mem_type = TTM_PL_VRAM };
	int ret;

	tr->res = NULL;
	WRITE_ONCE(current->fail_nth, nth);
	ret = env->mgr.man.func->alloc(&env->mgr.man, &tr->bo.tbo, &place, &tr->res);
	*injected = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return ret;
}

/*
 * Fails each allocation a placement of @size makes, in turn, until one
 * placement meets no fault: a failure is -ENOMEM with nothing held; an
 * absorbed fault (the buddy tried smaller blocks) is a placement like any
 * other. Returns the number of faults injected.
 */
static unsigned int sweep_faults(struct kunit *test, struct vram_env *env, u64 size)
{
	struct test_res *tr = tr_make(test, env, size);
	unsigned int nth, faults = 0;
	bool injected;
	int ret;

	for (nth = 1; nth < 1000; nth++) {
		ret = alloc_armed(env, tr, nth, &injected);
		faults += injected;
		if (ret) {
			KUNIT_ASSERT_TRUE_MSG(test, injected, "nth %u: %d with no fault", nth, ret);
			KUNIT_ASSERT_EQ_MSG(test, ret, -ENOMEM, "nth %u", nth);
			KUNIT_ASSERT_NULL(test, tr->res);
		} else {
			KUNIT_ASSERT_EQ_MSG(test, tr->res->size, PAGE_ALIGN(size), "nth %u", nth);
			res_free(tr);
		}
		KUNIT_ASSERT_EQ_MSG(test, vrampool_vram_mgr_in_use(&env->mgr), 0, "nth %u", nth);
		KUNIT_ASSERT_EQ_MSG(test, env->mgr.mm.avail, env->mgr.mm.size, "nth %u", nth);
		if (!injected)
			return faults;
	}
	KUNIT_FAIL(test, "a placement of %llu bytes still met a fault at nth %u", size, nth);
	return faults;
}
#endif

/*
 * A block split that gets no memory leaves the buddy whole. On a fresh
 * 8 MiB manager a 4 KiB page takes eleven splits of two block headers each,
 * after the manager's own record: every one of those allocations is failed
 * in turn and gives -ENOMEM with nothing held; so do those of a 3 MiB + 4
 * KiB placement (several blocks, the first ones given back when a later
 * split fails). Then one contiguous resource takes all of the VRAM: every
 * split was undone. The sweep reaches the buddy only where it survives a
 * split failure (VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE); on the debug kernel,
 * KASAN would report the older buddy's use-after-free.
 */
static void vram_mgr_split_failure_leaves_buddy_whole(struct kunit *test)
{
#ifdef CONFIG_FAULT_INJECTION
	const u64 vram = SZ_8M;
	const unsigned int splits = ilog2(vram / PAGE_SIZE);
	struct vram_env *env;
	struct test_res *whole;
	unsigned int faults;

	if (!VRAMPOOL_COMPAT_BUDDY_SPLIT_SAFE)
		kunit_skip(test, "this kernel's buddy frees a block it keeps when a split fails");
	env = env_make(test, vram);

	faults = sweep_faults(test, env, SZ_4K);
	KUNIT_EXPECT_GE_MSG(test, faults, 1 + 2 * splits,
			    "the buddy's block headers were never failed (is failslab's ignore-gfp-wait N, as the VM's init sets it?)");
	faults = sweep_faults(test, env, SZ_2M + SZ_1M + SZ_4K);
	KUNIT_EXPECT_GE(test, faults, 1 + 2 * splits);

	KUNIT_ASSERT_EQ(test, res_alloc(test, env, vram, 0, 0, TTM_PL_FLAG_CONTIGUOUS, &whole), 0);
	KUNIT_EXPECT_EQ(test, whole->res->start, 0);
#else
	kunit_skip(test, "no fault injection in this kernel");
#endif
}

static struct kunit_case vrampool_vram_mgr_cases[] = {
	KUNIT_CASE(vram_mgr_fragmented_gets_all_free),
	KUNIT_CASE(vram_mgr_free_merges),
	KUNIT_CASE(vram_mgr_cursor_follows_blocks),
	KUNIT_CASE(vram_mgr_range_and_compatible),
	KUNIT_CASE(vram_mgr_split_failure_leaves_buddy_whole),
	{}
};

static struct kunit_suite vrampool_vram_mgr_suite = {
	.name = "vrampool_vram_mgr",
	.test_cases = vrampool_vram_mgr_cases,
};

kunit_test_suite(vrampool_vram_mgr_suite);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * POOL_QUERY on every vrampool device (one variant per backend, one client
 * per device): its two-step size idiom, its must-be-zero fields, bad user
 * pointers, and a layout that changes between the two steps.
 *
 * The fixture and the helpers: vrampool_layout_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_layout_fixture.h"

/* ---- POOL_QUERY -------------------------------------------------------- */

TEST_F(layout, query_size_step)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	void *hole = unmapped_page();
	unsigned char buf[2 * (BASE_POOLS + 1) * sizeof(struct drm_vrampool_pool_status)];
	struct drm_vrampool_pool_query q;
	int i, ret;

	ASSERT_NE(NULL, hole);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		/* the pointer is not touched with size 0: not even a bad one */
		memset(&q, 0, sizeof(q));
		q.pools = (uintptr_t)hole;
		q.generation = ~0ull;
		q.num_pools = ~0u;
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: size query: %s", dev, strerror(-ret));
		EXPECT_EQ(need, q.size) TH_LOG("%s: size needed", dev);
		EXPECT_EQ((uint64_t)BASE_GEN, q.generation) TH_LOG("%s", dev);
		EXPECT_EQ((uint32_t)BASE_POOLS, q.num_pools) TH_LOG("%s", dev);
		EXPECT_EQ(0u, q.flags) TH_LOG("%s", dev);
		EXPECT_EQ(0u, q.pad) TH_LOG("%s", dev);
		EXPECT_EQ(0u, q.pad2) TH_LOG("%s", dev);
		EXPECT_EQ(0ull, q.vram_in_use) TH_LOG("%s: nothing allocated", dev);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_ENABLED, q.persistent_mode) {
			TH_LOG("%s: persistent mode", dev);
		}
		EXPECT_EQ(0ull, q.reserved[0]) TH_LOG("%s", dev);
		EXPECT_EQ(0ull, q.reserved[1]) TH_LOG("%s", dev);

		memset(buf, VP_POISON, sizeof(buf));
		memset(&q, 0, sizeof(q));
		q.pools = (uintptr_t)buf;
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: size query: %s", dev, strerror(-ret));
		EXPECT_TRUE(all_poison(buf, sizeof(buf))) TH_LOG("%s: size 0 wrote the buffer", dev);

		/* the data step fills exactly the size it was given */
		q.size = need;
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: data step: %s", dev, strerror(-ret));
		EXPECT_EQ(need, q.size) TH_LOG("%s", dev);
		EXPECT_FALSE(all_poison(buf, need)) TH_LOG("%s: nothing written", dev);
		EXPECT_TRUE(all_poison(buf + need, sizeof(buf) - need)) {
			TH_LOG("%s: written past the size", dev);
		}
	}
}

TEST_F(layout, query_wrong_size_einval)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	const uint32_t sizes[] = {
		1, need - 1, need + 1, need - STATUS_SIZE, need + STATUS_SIZE, STATUS_SIZE,
		0x80000000u, 0xffffffffu,
	};
	unsigned char buf[4 * (BASE_POOLS + 1) * sizeof(struct drm_vrampool_pool_status)];
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	struct drm_vrampool_pool_query q;
	char why[512];
	int i, ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		ASSERT_EQ(0, vp_snap_take(self->fds[i], before));
		for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
			memset(buf, VP_POISON, sizeof(buf));
			memset(&q, 0, sizeof(q));
			q.size = sizes[k];
			q.pools = (uintptr_t)buf;
			ret = vp_query(self->fds[i], &q);
			EXPECT_EQ(-EINVAL, ret) TH_LOG("%s: size %u", dev, sizes[k]);
			EXPECT_EQ(need, q.size) TH_LOG("%s: size %u: not updated", dev, sizes[k]);
			EXPECT_TRUE(all_poison(buf, sizeof(buf))) {
				TH_LOG("%s: size %u: the buffer was written", dev, sizes[k]);
			}
		}
		ASSERT_EQ(0, vp_snap_take(self->fds[i], after));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) TH_LOG("%s: %s", dev, why);
	}
	free(before);
	free(after);
}

TEST_F(layout, query_must_be_zero_fields_einval)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	/* flags, pad, pad2, reserved[0], reserved[1] */
	static const struct { uint32_t flags, pad, pad2; uint64_t rsv0, rsv1; } bad[] = {
		{ .flags = 1 }, { .flags = 0x80000000u }, { .pad = 1 }, { .pad = 0xffffffffu },
		{ .pad2 = 1 }, { .pad2 = 0x80000000u }, { .rsv0 = 1 }, { .rsv1 = 1ull << 63 },
		{ .rsv0 = ~0ull, .rsv1 = ~0ull },
	};
	unsigned char buf[(BASE_POOLS + 1) * sizeof(struct drm_vrampool_pool_status)];
	struct drm_vrampool_pool_query q;
	int i, step, ret;
	size_t k;

	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		for (step = 0; step < 2; step++) {	/* size query, data step */
			for (k = 0; k < ARRAY_SIZE(bad); k++) {
				memset(buf, VP_POISON, sizeof(buf));
				memset(&q, 0, sizeof(q));
				q.size = step ? need : 0;
				q.pools = (uintptr_t)buf;
				q.flags = bad[k].flags;
				q.pad = bad[k].pad;
				q.pad2 = bad[k].pad2;
				q.reserved[0] = bad[k].rsv0;
				q.reserved[1] = bad[k].rsv1;
				ret = vp_query(self->fds[i], &q);
				EXPECT_EQ(-EINVAL, ret) {
					TH_LOG("%s: %s step, case %zu: %s", dev, step ? "data" : "size",
					       k, ret ? strerror(-ret) : "accepted");
				}
				EXPECT_TRUE(all_poison(buf, sizeof(buf))) {
					TH_LOG("%s: %s step, case %zu: the buffer was written", dev,
					       step ? "data" : "size", k);
				}
			}
		}
	}
}

TEST_F(layout, query_bad_pointer_efault)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	void *hole = unmapped_page(), *ro;
	char *edge = page_before_hole();
	struct drm_vrampool_pool_query q;
	void *ptrs[4];
	char why[512];
	int i, k, ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_NE(NULL, hole);
	ASSERT_NE(NULL, edge);
	ro = mmap(NULL, page_size(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	ptrs[0] = NULL;
	ptrs[1] = hole;
	ptrs[2] = ro;
	ptrs[3] = edge + page_size() - need / 2;	/* runs into the hole */

	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		ASSERT_EQ(0, vp_snap_take(self->fds[i], before));
		for (k = 0; k < 4; k++) {
			memset(&q, 0, sizeof(q));
			q.size = need;
			q.pools = (uintptr_t)ptrs[k];
			ret = vp_query(self->fds[i], &q);
			EXPECT_EQ(-EFAULT, ret) {
				TH_LOG("%s: pointer %d (%p): %s", dev, k, ptrs[k],
				       ret ? strerror(-ret) : "accepted");
			}
		}
		ASSERT_EQ(0, vp_snap_take(self->fds[i], after));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) TH_LOG("%s: %s", dev, why);
	}
	munmap(ro, page_size());
	munmap(edge, page_size());
}

/* The layout changes between the two steps: the data step says the new size. */
TEST_F(layout, query_layout_changed_between_steps)
{
	const uint32_t need = (BASE_POOLS + 1) * STATUS_SIZE;
	struct drm_vrampool_pool_status *buf = calloc(VP_QUERY_MAX, STATUS_SIZE);
	struct drm_vrampool_pool_entry big[BASE_POOLS + 2];
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_pool_install ans;
	int i, ret;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		memset(&q, 0, sizeof(q));
		ret = vp_query(self->fds[i], &q);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		ASSERT_EQ(need, q.size) TH_LOG("%s", dev);

		base_layout(self->props[i].alignment, big);
		big[3] = vp_direct(VP_ABSENT);
		big[4] = vp_exclusive(0, VP_ABSENT);
		ret = vp_install_list(self->fds[i], big, BASE_POOLS + 2, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));

		q.pools = (uintptr_t)buf;
		ret = vp_query(self->fds[i], &q);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("%s: the stale size was accepted", dev);
		EXPECT_EQ(need + 2 * STATUS_SIZE, q.size) TH_LOG("%s: new size", dev);

		ret = vp_query(self->fds[i], &q);
		EXPECT_EQ(0, ret) TH_LOG("%s: retry with the new size: %s", dev, strerror(-ret));
		EXPECT_EQ(ans.generation, q.generation) TH_LOG("%s", dev);
		EXPECT_EQ((uint32_t)BASE_POOLS + 2, q.num_pools) TH_LOG("%s", dev);
		EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, buf[BASE_POOLS + 2].index) {
			TH_LOG("%s: persistent pool not last", dev);
		}
	}
	free(buf);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation handles, on each backend (the first device of each): never 0,
 * handed out cyclically (within a window that wraps at 65,536 with few live
 * allocations), so that a handle just freed is not handed out
 * again at once and a stale FREE of it fails with ENOENT instead of freeing
 * the allocation that came next; the handle rule of the uapi's "allocations"
 * section.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define ROUNDS		64

FIXTURE(handle) {
	int fd;
	struct vp_device dev;
};

VP_BACKEND_VARIANTS(handle);

FIXTURE_SETUP(handle)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
}

FIXTURE_TEARDOWN(handle)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * FREE of a handle just freed is ENOENT even after another ALLOC, which
 * gets a new handle; the new allocation stays live (its own FREE works).
 */
TEST_F(handle, stale_free_after_realloc_is_enoent)
{
	struct drm_vrampool_alloc a, b;
	uint32_t flags[] = { 0, PERSISTENT };
	int i, ret;

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, vp_alloc(self->fd, 1000, flags[i], &a));
		ASSERT_NE(0u, a.handle);
		ASSERT_EQ(0, vp_free(self->fd, a.handle));

		ASSERT_EQ(0, vp_alloc(self->fd, 1000, flags[i], &b));
		EXPECT_NE(a.handle, b.handle) TH_LOG("handle %u handed out again at once",
						     a.handle);
		ret = vp_free(self->fd, a.handle);
		EXPECT_EQ(-ENOENT, ret) TH_LOG("stale FREE of %u: %s (must not free %u)",
					       a.handle, strerror(-ret), b.handle);
		EXPECT_EQ(0, vp_free(self->fd, b.handle)) TH_LOG("handle %u was freed by the stale FREE",
							       b.handle);
		EXPECT_EQ(-ENOENT, vp_free(self->fd, b.handle));
	}
}

/*
 * Handles count up from 1, one per ALLOC, whatever was freed in between:
 * none is reused within a run of allocations shorter than the window.
 */
TEST_F(handle, handles_count_up_and_are_not_reused)
{
	struct drm_vrampool_alloc a;
	uint32_t first, prev;
	int i;

	ASSERT_EQ(0, vp_alloc(self->fd, 0, 0, &a));
	EXPECT_EQ(1u, a.handle) TH_LOG("a new file's first handle");
	first = prev = a.handle;
	for (i = 0; i < ROUNDS; i++) {
		ASSERT_EQ(0, vp_free(self->fd, prev));
		ASSERT_EQ(0, vp_alloc(self->fd, 256 * (i % 4), i % 2 ? PERSISTENT : 0, &a));
		EXPECT_EQ(prev + 1, a.handle) TH_LOG("round %d", i);
		prev = a.handle;
	}
	EXPECT_EQ(-ENOENT, vp_free(self->fd, first));
	EXPECT_EQ(0, vp_free(self->fd, prev));
}

/* ALLOC_BATCH of @n zero-size allocations into @handles. */
static int zero_batch(int fd, uint32_t n, uint32_t *handles)
{
	struct drm_vrampool_alloc_request reqs[DRM_VRAMPOOL_BATCH_MAX] = { 0 };
	struct drm_vrampool_alloc_answer ans[DRM_VRAMPOOL_BATCH_MAX];
	struct drm_vrampool_alloc_batch b;
	uint32_t i;
	int ret;

	ret = vp_alloc_batch(fd, reqs, ans, n, &b);
	for (i = 0; !ret && i < n; i++)
		handles[i] = ans[i].handle;
	return ret;
}

/*
 * The window (DOC: handle window): with few live allocations, handles go
 * up to 65,536 and start again from 1, skipping the live ones; a freed
 * handle comes back only after at least 49,152 others.
 */
TEST_F(handle, handles_wrap_past_the_window)
{
	uint32_t h[DRM_VRAMPOOL_BATCH_MAX], keep, top = 0, since = 0, live_again = 0, i;
	struct drm_vrampool_free_batch fb;
	struct drm_vrampool_alloc a;
	bool wrapped = false;
	int round;

	ASSERT_EQ(0, vp_alloc(self->fd, 0, 0, &a));
	keep = a.handle;	/* live throughout: never handed out again */
	ASSERT_EQ(0, vp_alloc(self->fd, 0, 0, &a));
	ASSERT_EQ(0, vp_free(self->fd, a.handle));	/* the freed one to watch */
	for (round = 0; round < 80 && !wrapped; round++) {
		ASSERT_EQ(0, zero_batch(self->fd, DRM_VRAMPOOL_BATCH_MAX, h));
		for (i = 0; i < DRM_VRAMPOOL_BATCH_MAX; i++) {
			if (h[i] == keep)
				live_again++;
			if (h[i] == a.handle) {
				wrapped = true;
				EXPECT_LE(49152u, since) TH_LOG("handle %u back after %u others",
								a.handle, since);
			}
			top = h[i] > top ? h[i] : top;
			since++;
		}
		ASSERT_EQ(0, vp_free_batch(self->fd, h, DRM_VRAMPOOL_BATCH_MAX, &fb));
	}
	EXPECT_TRUE(wrapped) TH_LOG("handle %u never came back (top %u)", a.handle, top);
	EXPECT_EQ(65536u, top) TH_LOG("the highest handle: the window's end");
	EXPECT_EQ(0u, live_again) TH_LOG("the live handle %u handed out again", keep);
	EXPECT_EQ(0, vp_free(self->fd, keep));
}

/* Each open file numbers its own handles, from 1. */
TEST_F(handle, each_file_starts_at_one)
{
	struct drm_vrampool_alloc a;
	int fd;

	ASSERT_EQ(0, vp_alloc(self->fd, 100, 0, &a));
	ASSERT_EQ(0, vp_alloc(self->fd, 100, 0, &a));
	EXPECT_EQ(2u, a.handle);

	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vp_alloc(fd, 100, 0, &a));
	EXPECT_EQ(1u, a.handle) TH_LOG("a second file's first handle");
	EXPECT_EQ(0, vp_free(fd, 1));
	EXPECT_EQ(-ENOENT, vp_free(fd, 2)) TH_LOG("the other file's handle 2");
	close(fd);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Client lifetime: opening and closing accel nodes (and test BOs) many times
 * leaks no VRAM, and many clients of one device can be open at once. Each
 * open file is a new client (a drm-client-id never seen before) that can
 * allocate, and its close gives its VRAM back.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

/*
 * 1000 cycles on Debian's kernel. The debug kernel (KASAN, lockdep and
 * kmemleak under TCG) spends some 0.2 s on each open and close, which
 * create and remove a client's sysfs folders: 200 cycles there check the
 * same lifecycle under its detectors in a bounded time.
 */
static int cycles(void)
{
	const char *tier = getenv("VRAMPOOL_TIER");

	return tier && !strcmp(tier, "debug") ? 200 : 1000;
}

#define CYCLES		cycles()
#define MANY_CLIENTS	64

FIXTURE(open_close) {
	struct vp_device devs[VP_MAX_DEVICES];
	int watch[VP_MAX_DEVICES];	/* one long-lived client per device */
	uint64_t start[VP_MAX_DEVICES];	/* VRAM_IN_USE at setup */
	int n;
};

FIXTURE_SETUP(open_close)
{
	int i, ret;

	self->n = vp_setup_open_all(_metadata, VP_BACKEND_ANY, self->devs, self->watch);
	for (i = 0; i < self->n; i++) {
		ret = vp_get_param(self->watch[i], DRM_VRAMPOOL_PARAM_VRAM_IN_USE,
				   &self->start[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_IN_USE: %s", self->devs[i].name, strerror(-ret));
	}
}

FIXTURE_TEARDOWN(open_close)
{
	vp_teardown_close_all(self->watch);
}

static uint64_t in_use(struct __test_metadata *_metadata,
		       FIXTURE_DATA(open_close) *self, int i)
{
	uint64_t v = ~0ULL;
	int ret;

	ret = vp_get_param(self->watch[i], DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &v);
	ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_IN_USE: %s", self->devs[i].name, strerror(-ret));
	return v;
}

/* fdinfo's drm-client-id of @fd, 0 when it has none. */
static unsigned long long client_id(int fd)
{
	uint64_t id = 0;

	return vp_client_id(fd, &id) ? 0 : id;
}

/*
 * A persistent 4 KiB buffer on @fd, left live: the client holds VRAM,
 * which only its close gives back. Returns the VRAM it took, 0 on failure.
 */
static uint64_t hold_vram(struct __test_metadata *_metadata, int fd, const char *what)
{
	struct drm_vrampool_alloc a;
	int ret;

	ret = vp_alloc(fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a);
	EXPECT_EQ(0, ret) TH_LOG("%s: ALLOC: %s", what, strerror(-ret));
	return ret ? 0 : vp_align_up(a.page_size, VP_CPU_PAGE);
}

TEST_F_TIMEOUT(open_close, accel_cycles, 240)
{
	int i, c;

	for (i = 0; i < self->n; i++) {
		unsigned long long last_id = client_id(self->watch[i]);

		ASSERT_NE(0ULL, last_id) TH_LOG("%s: no drm-client-id", self->devs[i].name);
		for (c = 0; c < CYCLES; c++) {
			unsigned long long id;
			uint64_t held;
			int fd;

			fd = vp_open_device(&self->devs[i]);
			ASSERT_LE(0, fd) {
				TH_LOG("%s: cycle %d: open: %s", self->devs[i].path, c,
				       strerror(-fd));
			}
			/* Ids only grow: a new client, never an old one reused. */
			id = client_id(fd);
			EXPECT_LT(last_id, id) TH_LOG("%s: cycle %d: drm-client-id", self->devs[i].name, c);
			last_id = id;
			held = hold_vram(_metadata, fd, self->devs[i].name);
			EXPECT_EQ(self->start[i] + held, in_use(_metadata, self, i)) {
				TH_LOG("%s: cycle %d: VRAM_IN_USE with one buffer held",
				       self->devs[i].name, c);
			}
			ASSERT_EQ(0, close(fd)) TH_LOG("%s: cycle %d: close: %s", self->devs[i].name, c, strerror(errno));
			/* The close gave the buffer back, at once. */
			ASSERT_EQ(self->start[i], in_use(_metadata, self, i)) {
				TH_LOG("%s: cycle %d: VRAM_IN_USE after close", self->devs[i].name, c);
			}
		}
		EXPECT_EQ(self->start[i], in_use(_metadata, self, i)) {
			TH_LOG("%s: VRAM_IN_USE changed over %d open/close cycles",
			       self->devs[i].name, CYCLES);
		}
	}
}

TEST_F_TIMEOUT(open_close, accel_and_test_bo_cycles, 280)
{
	int i, c, ret;

	ret = vp_debugfs_ready();
	ASSERT_EQ(0, ret) TH_LOG("debugfs: %s", strerror(-ret));

	for (i = 0; i < self->n; i++) {
		uint64_t bo_size = 0, rounded;

		ret = vp_test_bo_size_get(&self->devs[i], &bo_size);
		ASSERT_EQ(0, ret) TH_LOG("%s: test_bo_size: %s", self->devs[i].name, strerror(-ret));
		rounded = vp_align_up(bo_size, VP_CPU_PAGE);

		for (c = 0; c < CYCLES; c++) {
			uint64_t used = 0;
			int fd, bo;

			fd = vp_open_device(&self->devs[i]);
			ASSERT_LE(0, fd) {
				TH_LOG("%s: cycle %d: open: %s", self->devs[i].path, c,
				       strerror(-fd));
			}
			bo = vp_test_bo_open(&self->devs[i]);
			ASSERT_LE(0, bo) {
				TH_LOG("%s: cycle %d: open test_bo: %s", self->devs[i].name,
				       c, strerror(-bo));
			}
			ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &used);
			ASSERT_EQ(0, ret) TH_LOG("%s: cycle %d: %s", self->devs[i].name, c, strerror(-ret));
			ASSERT_EQ(self->start[i] + rounded, used) {
				TH_LOG("%s: cycle %d: VRAM_IN_USE with one BO open",
				       self->devs[i].name, c);
			}
			/* both close orders */
			if (c & 1) {
				ASSERT_EQ(0, close(bo));
				ASSERT_EQ(0, close(fd));
			} else {
				ASSERT_EQ(0, close(fd));
				ASSERT_EQ(0, close(bo));
			}
		}
		EXPECT_EQ(self->start[i], in_use(_metadata, self, i)) {
			TH_LOG("%s: VRAM_IN_USE changed over %d accel+test_bo cycles",
			       self->devs[i].name, CYCLES);
		}
	}
}

/*
 * 64 clients at once, each holding a buffer: 64 distinct clients, VRAM in
 * use the sum of theirs; each close gives back exactly its own.
 */
TEST_F(open_close, many_clients_at_once)
{
	int fds[MANY_CLIENTS];
	uint64_t held[MANY_CLIENTS], sum;
	unsigned long long ids[MANY_CLIENTS];
	int i, k, j;

	for (i = 0; i < self->n; i++) {
		for (k = 0; k < MANY_CLIENTS; k++)
			fds[k] = -1;
		for (k = 0, sum = 0; k < MANY_CLIENTS; k++) {
			fds[k] = vp_open_device(&self->devs[i]);
			ASSERT_LE(0, fds[k]) {
				TH_LOG("%s: client %d: %s", self->devs[i].path, k,
				       strerror(-fds[k]));
			}
			ids[k] = client_id(fds[k]);
			for (j = 0; j < k; j++)
				EXPECT_NE(ids[j], ids[k]) TH_LOG("clients %d and %d", j, k);
			held[k] = hold_vram(_metadata, fds[k], self->devs[i].name);
			sum += held[k];
		}
		EXPECT_EQ(self->start[i] + sum, in_use(_metadata, self, i)) {
			TH_LOG("%s: VRAM_IN_USE with %d clients holding a buffer each",
			       self->devs[i].name, MANY_CLIENTS);
		}
		/* close from the middle outwards */
		for (k = MANY_CLIENTS / 2; k < MANY_CLIENTS; k++) {
			ASSERT_EQ(0, close(fds[k])) TH_LOG("client %d", k);
			sum -= held[k];
			EXPECT_EQ(self->start[i] + sum, in_use(_metadata, self, i)) {
				TH_LOG("%s: after closing client %d", self->devs[i].name, k);
			}
		}
		for (k = MANY_CLIENTS / 2 - 1; k >= 0; k--) {
			ASSERT_EQ(0, close(fds[k])) TH_LOG("client %d", k);
			sum -= held[k];
			EXPECT_EQ(self->start[i] + sum, in_use(_metadata, self, i)) {
				TH_LOG("%s: after closing client %d", self->devs[i].name, k);
			}
		}
		EXPECT_EQ(self->start[i], in_use(_metadata, self, i)) TH_LOG("%s", self->devs[i].name);
	}
}

TEST_HARNESS_MAIN

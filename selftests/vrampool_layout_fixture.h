/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the vrampool_layout_*_test programs share: the "layout" fixture
 * (one client per vrampool device, one variant per backend, with a base
 * layout of three pools installed over the default one, so that "intact"
 * means that layout at generation 2) and the helpers of their checks.
 * Included by one source of each program only; the helpers are static
 * inline, so a program that does not use one does not warn.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_LAYOUT_FIXTURE_H
#define VRAMPOOL_LAYOUT_FIXTURE_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define BASE_POOLS	3
#define BASE_GEN	2ull

/* Short names for the uapi constants the cases below use all the time. */
#define ENTRY_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_entry))
#define STATUS_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_status))
#define NO_ENTRY	DRM_VRAMPOOL_NO_ENTRY
#define TEST_ONLY	DRM_VRAMPOOL_INSTALL_TEST_ONLY
#define INVALID		DRM_VRAMPOOL_ERR_INVALID_ARGUMENT

FIXTURE(layout) {
	int n;
	struct vp_device devs[VP_MAX_DEVICES];
	int fds[VP_MAX_DEVICES];		/* one client per device */
	struct vp_props props[VP_MAX_DEVICES];
};

VP_BACKEND_VARIANTS(layout);

/*
 * The layout the fixture installs over the default one, so that "intact"
 * means this layout at generation 2, not whatever a reset would give.
 */
static inline uint32_t base_layout(uint64_t a, struct drm_vrampool_pool_entry *e)
{
	memset(e, 0, BASE_POOLS * sizeof(*e));
	e[0].type = DRM_VRAMPOOL_POOL_EXCLUSIVE;
	e[0].max_alloc_size = 3 * a + 1;
	e[0].flags = DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
	e[0].dealloc_period = 77;
	e[1].type = DRM_VRAMPOOL_POOL_DIRECT;
	e[1].flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT;
	e[1].reclaim_at = 12345;
	e[2].type = DRM_VRAMPOOL_POOL_SLICED;
	e[2].flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
	e[2].page_size = 8 * a;
	e[2].max_slice_size = 2 * a;
	e[2].max_pool_size = 64 * a + 5;
	return BASE_POOLS;
}

FIXTURE_SETUP(layout)
{
	struct drm_vrampool_pool_entry base[BASE_POOLS];
	struct drm_vrampool_pool_install ans;
	int i, ret;

	self->n = vp_setup_open_all(_metadata, variant->backend, self->devs, self->fds);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		ret = vp_read_props(self->fds[i], &self->props[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s: GET_PARAM: %s", dev, strerror(-ret));
		ASSERT_FALSE(self->props[i].exclusive) {
			TH_LOG("%s: exclusive_memory_only is set; vrampool_exclusive_test.sh "
			       "covers such devices", dev);
		}
		base_layout(self->props[i].alignment, base);
		ret = vp_install_list(self->fds[i], base, BASE_POOLS, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: installing the base layout: %s", dev, strerror(-ret));
		ASSERT_EQ(BASE_GEN, ans.generation) {
			TH_LOG("%s: first install of a new client", dev);
		}
	}
}

/* The fixture's client of device @i, for the checks. */
#define CL(i) (&(struct vp_client){ self->fds[i], self->devs[i].name, &self->props[i] })

FIXTURE_TEARDOWN(layout)
{
	vp_teardown_close_all(self->fds);
}

/*
 * A new client of device @i (its fd), its layout in @s: it starts at
 * generation 1; @what names it in the log.
 */
static inline int
open_new_client(struct __test_metadata *_metadata, FIXTURE_DATA(layout) *self, int i,
		struct vp_snap *s, const char *what)
{
	const char *dev = self->devs[i].name;
	int fd, ret;

	fd = vp_open_device(&self->devs[i]);
	ASSERT_LE(0, fd) TH_LOG("%s: %s: open: %s", dev, what, strerror(-fd));
	ret = vp_snap_take(fd, s);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s: POOL_QUERY: %s", dev, what, strerror(-ret));
	EXPECT_EQ(1ull, s->generation) TH_LOG("%s: %s: a new client's generation", dev, what);
	return fd;
}

/* A refused explicit list of @n entries. */
static inline void
refuse_list(struct __test_metadata *_metadata, FIXTURE_DATA(layout) *self, int i,
	    const char *what, const struct drm_vrampool_pool_entry *e, uint32_t n,
	    const struct vp_refusal *x)
{
	struct drm_vrampool_pool_install req;

	vp_req_list(&req, e, n, 0);
	vp_check_refused(_metadata, CL(i), what, &req, x);
}

/* A refused list whose entry @bad (of 3, the others valid) is @e. */
static inline void
refuse_entry(struct __test_metadata *_metadata, FIXTURE_DATA(layout) *self, int i,
	     const char *what, uint32_t bad, const struct drm_vrampool_pool_entry *e,
	     const struct vp_refusal *x)
{
	uint64_t a = self->props[i].alignment;
	struct drm_vrampool_pool_entry list[3] = {
		vp_exclusive(a, VP_ABSENT), vp_sliced(4 * a, VP_ABSENT, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};

	list[bad] = *e;
	refuse_list(_metadata, self, i, what, list, 3, x);
}

/* ---- Pointers for the EFAULT cases ------------------------------------ */

static inline long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* A page that is mapped no more. */
static inline void *unmapped_page(void)
{
	void *p = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, page_size());
	return p;
}

/* Two pages, the second unmapped: returns the first. */
static inline char *page_before_hole(void)
{
	char *p = mmap(NULL, 2 * page_size(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + page_size(), page_size());
	return p;
}

static inline bool all_poison(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t k = 0; k < len; k++)
		if (p[k] != VP_POISON)
			return false;
	return true;
}

#endif /* VRAMPOOL_LAYOUT_FIXTURE_H */

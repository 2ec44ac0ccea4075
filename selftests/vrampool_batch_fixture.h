/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the vrampool_batch_*_test programs share: the "batch" fixture (the
 * first device of each backend, one client, the handle its next ALLOC
 * gets, a VRAM quota to restore), the client's state around a refused
 * batch and the checks that it is as before, and small helpers. Included
 * by one source of each program only; the helpers are static inline, so a
 * program that does not use one does not warn.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_BATCH_FIXTURE_H
#define VRAMPOOL_BATCH_FIXTURE_H


#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define NO_ENTRY	DRM_VRAMPOOL_NO_ENTRY
#define MAX		DRM_VRAMPOOL_BATCH_MAX

FIXTURE(batch) {
	int fd;
	struct vp_device dev;
	/* The handle the next ALLOC gets (handles count up, DOC: allocations). */
	uint32_t next;
	char quota_path[VP_PATH_LEN];
	uint64_t quota;
};

VP_BACKEND_VARIANTS(batch);

/* Learns the handle the next ALLOC gets, with an ALLOC and a FREE. */
static inline uint32_t learn_next(struct __test_metadata *_metadata, int fd)
{
	struct drm_vrampool_alloc a;

	VP_ALLOC_OK(fd, 0, 0, &a, "learning the next handle");
	VP_FREE_OK(fd, a.handle, "learning the next handle");
	return a.handle + 1;
}

FIXTURE_SETUP(batch)
{
	self->quota_path[0] = '\0';
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	self->next = learn_next(_metadata, self->fd);
}

FIXTURE_TEARDOWN(batch)
{
	char buf[32];

	if (self->quota_path[0]) {
		snprintf(buf, sizeof(buf), "%" PRIu64, self->quota);
		vp_write_file(self->quota_path, buf);
	}
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- The client's state around a refused batch ----------------------------- */

struct state {
	struct vp_snap snap;
	uint64_t device_vram;
};

static inline void state_take(struct __test_metadata *_metadata, int fd, struct state *s)
{
	ASSERT_EQ(0, vp_snap_take(fd, &s->snap));
	s->device_vram = vp_vram_in_use(fd);
}

/*
 * What a refused batch must leave as it was: the layout, the client's VRAM
 * and the device's, and per pool its allocations, bytes, padding, reserved
 * bytes and pages (not the peaks: DOC: batches).
 */
static inline int state_diff(const struct state *a, const struct state *b, char *why, size_t len)
{
	const struct drm_vrampool_pool_status *p, *q;
	uint32_t i;

	if (a->snap.count != b->snap.count || a->snap.generation != b->snap.generation) {
		snprintf(why, len, "the layout changed");
		return -1;
	}
	if (a->snap.vram_in_use != b->snap.vram_in_use || a->device_vram != b->device_vram) {
		snprintf(why, len, "VRAM: the client's %" PRIu64 " -> %" PRIu64 ", the device's %"
			 PRIu64 " -> %" PRIu64, a->snap.vram_in_use, b->snap.vram_in_use,
			 a->device_vram, b->device_vram);
		return -1;
	}
	for (i = 0; i < a->snap.count; i++) {
		p = &a->snap.pools[i];
		q = &b->snap.pools[i];
		if (p->allocations != q->allocations || p->bytes_in_use != q->bytes_in_use ||
		    p->padding != q->padding || p->reserved_bytes != q->reserved_bytes ||
		    p->pages != q->pages) {
			snprintf(why, len, "pool %u: allocations %" PRIu64 " -> %" PRIu64
				 ", bytes %" PRIu64 " -> %" PRIu64 ", pages %" PRIu64 " -> %"
				 PRIu64, p->index, (uint64_t)p->allocations,
				 (uint64_t)q->allocations, (uint64_t)p->bytes_in_use,
				 (uint64_t)q->bytes_in_use, (uint64_t)p->pages, (uint64_t)q->pages);
			return -1;
		}
	}
	return 0;
}

/*
 * After a refusal: the state as @before, and the handle cursor @n past
 * where it was: 0, but after an ALLOC_BATCH of @n refused with EFAULT once
 * its answers could not be written (the cursor stays past its handles,
 * which a stale FREE must not find reused).
 */
#define EXPECT_UNCHANGED_PAST(before, what, n) do { \
	struct state __after; \
	char __why[256]; \
	state_take(_metadata, self->fd, &__after); \
	EXPECT_EQ(0, state_diff(before, &__after, __why, sizeof(__why))) { \
		TH_LOG("%s: %s", what, __why); \
	} \
	uint32_t __got = learn_next(_metadata, self->fd) - 1; \
	EXPECT_EQ(self->next + (n), __got) { \
		TH_LOG("%s: the handle cursor is not %u past where it was", what, \
		       (unsigned int)(n)); \
	} \
	self->next = __got + 1; \
} while (0)

/* After a refusal: the state as @before and the handle cursor where it was. */
#define EXPECT_UNCHANGED(before, what) EXPECT_UNCHANGED_PAST(before, what, 0)

/* A batch of @n requests of @sizes (flags @flags), into @reqs. */
static inline void requests(struct drm_vrampool_alloc_request *reqs, const uint64_t *sizes,
			    const uint32_t *flags, uint32_t n)
{
	uint32_t i;

	memset(reqs, 0, n * sizeof(*reqs));
	for (i = 0; i < n; i++) {
		reqs[i].size = sizes[i];
		reqs[i].flags = flags ? flags[i] : 0;
	}
}

/* A batch that must be refused with @err at @failed, code @code. */
#define EXPECT_REFUSED(b, ret, err, failed_at, code_) do { \
	EXPECT_EQ(-(err), ret) TH_LOG("ALLOC_BATCH: %s", strerror(-(ret))); \
	EXPECT_EQ((uint32_t)(failed_at), (b)->failed); \
	EXPECT_EQ((uint32_t)(code_), (b)->error.code); \
} while (0)

/* Frees @n answers' handles with FREE_BATCH. */
static inline void free_answers(struct __test_metadata *_metadata, int fd,
				const struct drm_vrampool_alloc_answer *ans, uint32_t n)
{
	struct drm_vrampool_free_batch fb;
	uint32_t *h = calloc(n ? n : 1, sizeof(*h));
	uint32_t i;
	int ret;

	ASSERT_NE(NULL, h);
	for (i = 0; i < n; i++)
		h[i] = ans[i].handle;
	ret = vp_free_batch(fd, h, n, &fb);
	EXPECT_EQ(0, ret) TH_LOG("FREE_BATCH of %u: %s (failed %u, code %u)", n, strerror(-ret),
				 fb.failed, fb.code);
	free(h);
}

/*
 * Small pages whatever the device (the PCI device's default layout has
 * pages too large for two clients' worth of them): sliced 64 KiB and
 * 1 MiB pages, then a direct pool for the rest.
 */
static inline void small_layout(struct __test_metadata *_metadata, int fd)
{
	struct drm_vrampool_pool_entry e[3] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT),
		vp_sliced(1 * MiB, VP_ABSENT, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};

	VP_INSTALL_OK(fd, e, 3, "sliced{64 KiB}, sliced{1 MiB}, direct{}");
}

#endif /* VRAMPOOL_BATCH_FIXTURE_H */

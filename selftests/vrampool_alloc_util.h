/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the allocation kselftests (vrampool_alloc_test,
 * vrampool_pools_test, vrampool_isolation_test, vrampool_alloc_fault_test,
 * vrampool_alloc_align): the allocation ioctls on caller-built structs,
 * returning 0 or -errno so that a test asserts the exact errno (ALLOC, FREE
 * and CLEANUP of a size or handle are vrampool_test_lib's vp_alloc(),
 * vp_free(), vp_cleanup()); pool entries; POOL_QUERY of one pool; and checks
 * of a pool's statistics with the context in the log.
 *
 * Include it first: it includes the kselftest harness, which trips
 * -Wclobbered at -O2 in every TEST_F() body.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_ALLOC_UTIL_H
#define VRAMPOOL_ALLOC_UTIL_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm/vrampool_accel.h>

#pragma GCC diagnostic ignored "-Wclobbered"
#include "vrampool_harness.h"
#include "vrampool_layout_lib.h"
#include "vrampool_test_lib.h"

#define KiB	1024ULL
#define MiB	(1024ULL * KiB)

/* An optional pool entry field left absent. */
#define VPA_ABSENT	UINT64_MAX

/* A CPU page: what a page's buffer object is rounded up to. */
#define VPA_CPU_PAGE	4096ULL

static inline uint64_t vpa_bo_bytes(uint64_t page_size)
{
	return vp_round_up(page_size, VPA_CPU_PAGE);
}

/* ALLOC with every input field as @a holds it: 0 or -errno. */
static inline int vpa_alloc_raw(int fd, struct drm_vrampool_alloc *a)
{
	return ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, a) ? -errno : 0;
}

static inline int vpa_free_raw(int fd, struct drm_vrampool_free *f)
{
	return ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE, f) ? -errno : 0;
}

static inline int vpa_cleanup_raw(int fd, struct drm_vrampool_cleanup *c)
{
	return ioctl(fd, DRM_IOCTL_VRAMPOOL_CLEANUP, c) ? -errno : 0;
}

/* SET_PERSISTENT_MODE; *@old gets the previous mode (may be NULL). */
static inline int vpa_set_mode(int fd, uint32_t mode, uint32_t *old)
{
	struct drm_vrampool_persistent_mode m = { .mode = mode };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE, &m))
		return -errno;
	if (old)
		*old = m.mode;
	return 0;
}

/* POOL_INSTALL of @n entries / of @preset, the answer in @args: 0 or -errno. */
static inline int vpa_install(int fd, const struct drm_vrampool_pool_entry *e, uint32_t n,
			      struct drm_vrampool_pool_install *args)
{
	vp_req_list(args, e, n, 0);
	return vp_install(fd, args);
}

static inline int vpa_install_preset(int fd, uint32_t preset,
				     struct drm_vrampool_pool_install *args)
{
	vp_req_preset(args, preset, 0);
	return vp_install(fd, args);
}

/* Pool entries; VPA_ABSENT leaves an optional field out. */
static inline struct drm_vrampool_pool_entry vpa_sliced(uint64_t page, uint64_t max_slice,
							 uint64_t cap)
{
	struct drm_vrampool_pool_entry e = {
		.type = DRM_VRAMPOOL_POOL_SLICED,
		.page_size = page,
	};

	if (max_slice != VPA_ABSENT) {
		e.flags |= DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE;
		e.max_slice_size = max_slice;
	}
	if (cap != VPA_ABSENT) {
		e.flags |= DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
		e.max_pool_size = cap;
	}
	return e;
}

static inline struct drm_vrampool_pool_entry vpa_exclusive(uint64_t max_alloc, uint64_t period)
{
	struct drm_vrampool_pool_entry e = {
		.type = DRM_VRAMPOOL_POOL_EXCLUSIVE,
		.max_alloc_size = max_alloc,
	};

	if (period != VPA_ABSENT) {
		e.flags |= DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
		e.dealloc_period = period;
	}
	return e;
}

static inline struct drm_vrampool_pool_entry vpa_direct(uint64_t reclaim_at)
{
	struct drm_vrampool_pool_entry e = { .type = DRM_VRAMPOOL_POOL_DIRECT };

	if (reclaim_at != VPA_ABSENT) {
		e.flags |= DRM_VRAMPOOL_ENTRY_RECLAIM_AT;
		e.reclaim_at = reclaim_at;
	}
	return e;
}

#define VPA_MAX_STATUS	(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS + 1)

/*
 * POOL_QUERY in its two steps into @st (room for @max entries): the number
 * of entries (dynamic pools, then the persistent one) or -errno. @q gets
 * the answer's header (may be NULL).
 */
static inline int vpa_query(int fd, struct drm_vrampool_pool_status *st, uint32_t max,
			    struct drm_vrampool_pool_query *q)
{
	struct drm_vrampool_pool_query args = { 0 };
	uint32_t n;
	int ret;

	ret = vp_query(fd, &args);
	if (ret)
		return ret;
	n = args.size / sizeof(*st);
	if (n > max || args.size % sizeof(*st))
		return -E2BIG;
	memset(st, 0, args.size);
	args.pools = (uintptr_t)st;
	ret = vp_query(fd, &args);
	if (ret)
		return ret;
	if (q)
		*q = args;
	return (int)n;
}

/* The status of the pool at @index (DRM_VRAMPOOL_PERSISTENT_POOL too). */
static inline int vpa_pool(int fd, uint32_t index, struct drm_vrampool_pool_status *out)
{
	static struct drm_vrampool_pool_status st[VPA_MAX_STATUS];
	int n, i;

	n = vpa_query(fd, st, VPA_MAX_STATUS, NULL);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (st[i].index == index) {
			*out = st[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* The query header alone: num_pools, generation, vram_in_use, persistent_mode. */
static inline int vpa_query_head(int fd, struct drm_vrampool_pool_query *q)
{
	memset(q, 0, sizeof(*q));
	return vp_query(fd, q);
}

/* VRAM_IN_USE of the device, or UINT64_MAX when GET_PARAM fails. */
static inline uint64_t vpa_vram(int fd)
{
	uint64_t v;

	return vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &v) ? UINT64_MAX : v;
}

static inline uint64_t vpa_param(int fd, uint32_t param)
{
	uint64_t v;

	return vp_get_param(fd, param, &v) ? UINT64_MAX : v;
}

/*
 * For a fixture setup: the device's alignment must be @want; @why (in the
 * log) says who needs it.
 */
static inline void vpa_require_alignment(struct __test_metadata *_metadata, int fd,
					 const struct vp_device *dev, uint64_t want,
					 const char *why)
{
	uint64_t alignment;

	ASSERT_EQ(0, vp_get_param(fd, DRM_VRAMPOOL_PARAM_ALIGNMENT, &alignment));
	ASSERT_EQ(want, alignment) TH_LOG("%s: %s", dev->name, why);
}

/* What a pool's statistics must be. */
struct vpa_stats {
	uint64_t allocations;
	uint64_t bytes_in_use;
	uint64_t padding;
	uint64_t reserved_bytes;
	uint64_t pages;
	uint64_t pages_peak;
	uint64_t largest_alloc;
};

/*
 * Check every statistic of the pool at @index against @want; @when names
 * the step of the test in the log.
 */
#define EXPECT_POOL(fd, index, when, ...) \
	vpa_expect_pool(_metadata, fd, index, when, &(struct vpa_stats){ __VA_ARGS__ })

static inline void vpa_expect_pool(struct __test_metadata *_metadata, int fd, uint32_t index,
				   const char *when, const struct vpa_stats *want)
{
	struct drm_vrampool_pool_status st;
	int ret = vpa_pool(fd, index, &st);

	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY of pool %u: %s", when, index, strerror(-ret));
	EXPECT_EQ(want->allocations, st.allocations)
		TH_LOG("%s: pool %u: allocations", when, index);
	EXPECT_EQ(want->bytes_in_use, st.bytes_in_use)
		TH_LOG("%s: pool %u: bytes_in_use", when, index);
	EXPECT_EQ(want->padding, st.padding)
		TH_LOG("%s: pool %u: padding", when, index);
	EXPECT_EQ(want->reserved_bytes, st.reserved_bytes)
		TH_LOG("%s: pool %u: reserved_bytes", when, index);
	EXPECT_EQ(want->pages, st.pages)
		TH_LOG("%s: pool %u: pages", when, index);
	EXPECT_EQ(want->pages_peak, st.pages_peak)
		TH_LOG("%s: pool %u: pages_peak", when, index);
	EXPECT_EQ(want->largest_alloc, st.largest_alloc)
		TH_LOG("%s: pool %u: largest_alloc", when, index);
}

/* Only the pages and reserved bytes of a pool. */
#define EXPECT_PAGES(fd, index, when, want_pages, want_reserved) \
	vpa_expect_pages(_metadata, fd, index, when, want_pages, want_reserved)

static inline void vpa_expect_pages(struct __test_metadata *_metadata, int fd, uint32_t index,
				    const char *when, uint64_t pages, uint64_t reserved)
{
	struct drm_vrampool_pool_status st;
	int ret = vpa_pool(fd, index, &st);

	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY of pool %u: %s", when, index, strerror(-ret));
	EXPECT_EQ(pages, st.pages) TH_LOG("%s: pool %u: pages", when, index);
	EXPECT_EQ(reserved, st.reserved_bytes) TH_LOG("%s: pool %u: reserved_bytes", when, index);
}

/* ALLOC that must succeed; @what names it in the log. */
#define ALLOC_OK(fd, size, flags, a, what) do { \
	int __r = vp_alloc(fd, size, flags, a); \
	ASSERT_EQ(0, __r) { \
		TH_LOG("%s: ALLOC(%" PRIu64 ", flags %#x): %s (code %u)", what, \
		       (uint64_t)(size), (unsigned int)(flags), strerror(-__r), (a)->error.code); \
	} \
} while (0)

#define FREE_OK(fd, handle, what) do { \
	int __r = vp_free(fd, handle); \
	ASSERT_EQ(0, __r) TH_LOG("%s: FREE(%u): %s", what, (unsigned int)(handle), strerror(-__r)); \
} while (0)

#define INSTALL_OK(fd, entries, n, what) do { \
	struct drm_vrampool_pool_install __ins; \
	int __r = vpa_install(fd, entries, n, &__ins); \
	ASSERT_EQ(0, __r) { \
		TH_LOG("%s: POOL_INSTALL: %s (code %u, entry %u, field %u)", what, \
		       strerror(-__r), __ins.error.code, __ins.error.entry, __ins.error.field); \
	} \
} while (0)

#endif /* VRAMPOOL_ALLOC_UTIL_H */

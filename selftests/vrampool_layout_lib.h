/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pool layout helpers shared by the vrampool kselftests: raw POOL_INSTALL
 * and POOL_QUERY calls, snapshots of a client's layout to compare byte for
 * byte, and the layouts the presets and the resolution rules should give,
 * computed here from the design's formulas (not from the driver's code).
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure, like vrampool_test_lib.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_LAYOUT_LIB_H
#define VRAMPOOL_LAYOUT_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/vrampool_accel.h>

/* Most entries POOL_QUERY can report: every dynamic pool + the persistent one. */
#define VP_QUERY_MAX		(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS + 1)
/* Room for any resolved layout (an explicit list is the longest). */
#define VP_LAYOUT_MAX		DRM_VRAMPOOL_MAX_DYNAMIC_POOLS

/* Entry builders, for arrays of struct drm_vrampool_pool_entry. */
#define VP_EXCLUSIVE(max)	{ .type = DRM_VRAMPOOL_POOL_EXCLUSIVE, .max_alloc_size = (max) }
#define VP_SLICED(page)		{ .type = DRM_VRAMPOOL_POOL_SLICED, .page_size = (page) }
#define VP_DIRECT()		{ .type = DRM_VRAMPOOL_POOL_DIRECT }

/* A device's layout-relevant properties, as GET_PARAM reports them. */
struct vp_props {
	uint64_t vram_size;
	uint64_t alignment;
	uint64_t max_page_size;
	bool exclusive;
};

int vp_read_props(int fd, struct vp_props *props);

/* What POOL_QUERY said, whole: compare two of them with vp_snap_diff(). */
struct vp_snap {
	uint64_t generation;
	uint64_t vram_in_use;	/* the client's, as POOL_QUERY says */
	uint32_t persistent_mode;
	uint32_t num_pools;
	uint32_t size;		/* bytes the data step returned */
	uint32_t count;		/* size / sizeof(struct drm_vrampool_pool_status) */
	struct drm_vrampool_pool_status pools[VP_QUERY_MAX];
};

/* Two-step POOL_QUERY into @s (retried if the layout changes in between). */
int vp_snap_take(int fd, struct vp_snap *s);
/* vp_snap_take() for a check that explains: 0, or -1 with the error in @why. */
int vp_snap_take_why(int fd, struct vp_snap *s, char *why, size_t len);
/*
 * 0 when @a and @b are byte-for-byte the same answer (generation, num_pools,
 * VRAM in use, persistent mode, size and every status byte); else 1 with the
 * first difference in @why.
 */
int vp_snap_diff(const struct vp_snap *a, const struct vp_snap *b, char *why, size_t len);

/* The layout part (configs of the dynamic pools) of a snapshot. */
void vp_snap_configs(const struct vp_snap *s, struct drm_vrampool_pool_entry *out);

/* Raw ioctls on caller-built structs: 0 or -errno. */
int vp_install(int fd, struct drm_vrampool_pool_install *args);
int vp_query(int fd, struct drm_vrampool_pool_query *args);


/* Requests: an explicit list (entry_size set), or a preset. */
void vp_req_list(struct drm_vrampool_pool_install *args,
		 const struct drm_vrampool_pool_entry *entries, uint32_t count, uint32_t flags);
void vp_req_preset(struct drm_vrampool_pool_install *args, uint32_t preset, uint32_t flags);

/* Install a list / a preset with flags 0: 0 or -errno; *generation if not NULL. */
int vp_install_list(int fd, const struct drm_vrampool_pool_entry *entries, uint32_t count,
		    uint64_t *generation);
int vp_install_preset(int fd, uint32_t preset, uint64_t *generation);

/* ---- Expected results, from the design's formulas -------------------- */

uint64_t vp_align_up(uint64_t v, uint64_t a);
/* The presets' dealloc period: 5000 * (1 + round-half-up(size / GiB)). */
uint64_t vp_expect_dealloc(uint64_t size);
/* The presets, into @out (room for VP_LAYOUT_MAX): the pool count. */
uint32_t vp_expect_sub_slices(const struct vp_props *p, struct drm_vrampool_pool_entry *out);
uint32_t vp_expect_exclusive_pages(const struct vp_props *p,
				   struct drm_vrampool_pool_entry *out);
/*
 * One well-formed, valid entry resolved by the rules of the uapi's "pool
 * layouts" section (sizes aligned up, max_slice_size filled in).
 */
void vp_expect_resolved(const struct vp_props *p, const struct drm_vrampool_pool_entry *in,
			struct drm_vrampool_pool_entry *out);

/* "exclusive", "sliced", "direct", "persistent", or "type?". */
const char *vp_pool_type_str(uint32_t type);
/* "exclusive{max 256, dealloc 5000}" and the like, for logs. */
const char *vp_entry_str(const struct drm_vrampool_pool_entry *e, char *buf, size_t len);
/*
 * Index of the first of @n entries where @a and @b differ, or -1; the
 * difference is described in @why.
 */
int vp_entries_diff(const struct drm_vrampool_pool_entry *a,
		    const struct drm_vrampool_pool_entry *b, uint32_t n, char *why, size_t len);

#endif /* VRAMPOOL_LAYOUT_LIB_H */

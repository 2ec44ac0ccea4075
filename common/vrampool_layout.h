/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vrampool: pool layouts, resolved against device properties.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_LAYOUT_H_
#define _VRAMPOOL_LAYOUT_H_

#include <linux/types.h>

#include <drm/vrampool_accel.h>

/**
 * DOC: common/: kernel code that userspace builds too
 *
 * The files of common/ are built into vrampool.ko and, unchanged, into
 * libvrampool and its host, fuzz and selftest builds, so that a runtime can
 * check a layout offline and get the very answer POOL_INSTALL would give.
 *
 * They are ordinary kernel C, for 32-bit and 64-bit kernels alike (u64
 * division through <linux/math64.h>). They include the uapi headers and
 * kernel headers for types and pure helpers only (no locks, allocation or
 * logging: the callers do those), and never a driver header. Each consumer
 * supplies those kernel headers in its own compat directory; libvrampool's
 * is userspace/lib/kcompat/, in the spirit of tools/include/. Nothing here
 * adapts to userspace: no #ifdef __KERNEL__, no compiler builtins.
 */

/* Most pools a preset expands to (sub-slices on a 2^64-byte page: 33). */
#define VRAMPOOL_PRESET_MAX_POOLS	40

/* Most pages a capped sliced pool may span. */
#define VRAMPOOL_MAX_POOL_PAGES		65535

/* First and last bucket of the exclusive-pages preset. */
#define VRAMPOOL_EXCLUSIVE_PAGES_BUCKETS	24
#define VRAMPOOL_EXCLUSIVE_PAGES_MIN		32768

/* Sliced pages of the sub-slices preset stop below this size. */
#define VRAMPOOL_SUB_SLICES_MIN_PAGE		(32ULL << 20)

/**
 * struct vrampool_layout_props - what a layout is resolved against
 */
struct vrampool_layout_props {
	/** @alignment: allocation alignment in bytes; 0 is taken as 1 */
	u64 alignment;
	/** @max_page_size: page size the presets are sized from */
	u64 max_page_size;
	/** @exclusive_memory_only: sliced pools are refused */
	bool exclusive_memory_only;
};

int vrampool_layout_check_entries(const struct drm_vrampool_pool_entry *entries,
				  u32 count, struct drm_vrampool_layout_error *err);
int vrampool_layout_resolve(const struct vrampool_layout_props *props,
			    const struct drm_vrampool_pool_entry *entries, u32 count,
			    struct drm_vrampool_pool_entry *out,
			    struct drm_vrampool_layout_error *err);
int vrampool_layout_preset(const struct vrampool_layout_props *props, u32 preset,
			   struct drm_vrampool_pool_entry *out, u32 *count,
			   struct drm_vrampool_layout_error *err);
u32 vrampool_layout_default_preset(const struct vrampool_layout_props *props);
int vrampool_layout_error_errno(u32 code);
void vrampool_layout_error_set(struct drm_vrampool_layout_error *err, u32 code,
			       u32 entry, u32 field, u64 v0, u64 v1);
u64 vrampool_layout_dealloc_period(u64 size);
u64 vrampool_layout_exclusive_bucket(u64 max_page_size, u32 i);

#endif /* _VRAMPOOL_LAYOUT_H_ */

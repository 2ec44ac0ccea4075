/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * vrampool: VRAM carved into configurable memory pools for compute runtimes.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef __UAPI_DRM_VRAMPOOL_ACCEL_H__
#define __UAPI_DRM_VRAMPOOL_ACCEL_H__

#include <drm/drm.h>

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: vrampool uapi overview
 *
 * vrampool is a DRM accel driver (``/dev/accel/accelN``). Each device owns a
 * VRAM region managed by TTM; each open file (a client) carves its share of
 * that VRAM into memory pools through the ioctls below.
 *
 * Every ioctl argument struct has a fixed size, is padded to a multiple of
 * 64 bits, and has its padding and reserved fields checked: a non-zero value
 * in a field documented "must be zero" fails with -EINVAL, so that those
 * fields can gain a meaning later without breaking old userspace.
 *
 * Feature discovery goes through %DRM_IOCTL_VRAMPOOL_GET_PARAM: an unknown
 * parameter fails with -EINVAL, and %DRM_VRAMPOOL_PARAM_ABI_VERSION tells
 * which ioctls and parameters the running driver knows.
 */

#define DRM_VRAMPOOL_GET_PARAM		0x00

#define DRM_IOCTL_VRAMPOOL_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_GET_PARAM, \
		 struct drm_vrampool_get_param)

/**
 * DRM_VRAMPOOL_ABI_VERSION - the ABI revision this header describes
 *
 * Returned by %DRM_VRAMPOOL_PARAM_ABI_VERSION. It grows by one whenever an
 * ioctl, a parameter or a flag is added; nothing is ever removed.
 */
#define DRM_VRAMPOOL_ABI_VERSION		1

/**
 * DRM_VRAMPOOL_PERSISTENT_POOL - index of the persistent pool
 *
 * The persistent pool (for long-lived data such as model weights) always has
 * this index; dynamic pools are numbered from 0 up to
 * %DRM_VRAMPOOL_MAX_DYNAMIC_POOLS - 1.
 */
#define DRM_VRAMPOOL_PERSISTENT_POOL		255

/**
 * DRM_VRAMPOOL_MAX_DYNAMIC_POOLS - most dynamic pools one layout may hold
 */
#define DRM_VRAMPOOL_MAX_DYNAMIC_POOLS		254

/* Parameters for &struct drm_vrampool_get_param.param */
/** DRM_VRAMPOOL_PARAM_VRAM_SIZE - usable VRAM of the device, in bytes */
#define DRM_VRAMPOOL_PARAM_VRAM_SIZE		0
/** DRM_VRAMPOOL_PARAM_VRAM_IN_USE - VRAM held by buffer objects now, in bytes */
#define DRM_VRAMPOOL_PARAM_VRAM_IN_USE		1
/** DRM_VRAMPOOL_PARAM_ALIGNMENT - allocation alignment, in bytes (a power of two) */
#define DRM_VRAMPOOL_PARAM_ALIGNMENT		2
/** DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE - page size the default layouts are sized from, in bytes */
#define DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE	3
/** DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY - 1 if the device refuses sliced pools */
#define DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY 4
/** DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS - %DRM_VRAMPOOL_MAX_DYNAMIC_POOLS */
#define DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS	5
/** DRM_VRAMPOOL_PARAM_PERSISTENT_POOL - %DRM_VRAMPOOL_PERSISTENT_POOL */
#define DRM_VRAMPOOL_PARAM_PERSISTENT_POOL	6
/** DRM_VRAMPOOL_PARAM_ABI_VERSION - %DRM_VRAMPOOL_ABI_VERSION of the running driver */
#define DRM_VRAMPOOL_PARAM_ABI_VERSION		7

/**
 * struct drm_vrampool_get_param - read one device property
 *
 * Used with %DRM_IOCTL_VRAMPOOL_GET_PARAM. Fails with -EINVAL for an unknown
 * @param or a non-zero @pad or @reserved.
 */
struct drm_vrampool_get_param {
	/**
	 * @param: [in] which property, one of the ``DRM_VRAMPOOL_PARAM_*``
	 * values.
	 */
	__u32 param;

	/** @pad: must be zero */
	__u32 pad;

	/** @value: [out] the property's value */
	__u64 value;

	/** @reserved: must be zero */
	__u64 reserved;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_VRAMPOOL_ACCEL_H__ */

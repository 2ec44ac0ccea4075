/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compile-time checks of the vrampool uapi layout: every ioctl struct is a
 * multiple of 8 bytes, has no implicit padding (each field starts where the
 * previous one ends, and the last one ends at sizeof), and keeps the offsets
 * it was released with (the ABI never changes).
 *
 * Plain C11 with nothing but <stddef.h> and the uapi header, so that it can
 * also be compiled for i386 (-m32), where __u64 is only 4-byte aligned and
 * any padding the compiler adds would show as a different layout.
 *
 * When a struct is added to the uapi, add its UAPI_* lines here.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef UAPI_LAYOUT_H
#define UAPI_LAYOUT_H

#include <stddef.h>

#include <drm/vrampool_accel.h>

#define UAPI_FIELD_SIZE(type, field) sizeof(((type *)0)->field)

/* @field is at byte @off (the released ABI). */
#define UAPI_AT(type, field, off)					\
	_Static_assert(offsetof(type, field) == (off),			\
		       #type "." #field " moved from offset " #off)

/* The first field starts the struct. */
#define UAPI_FIRST(type, field)						\
	_Static_assert(offsetof(type, field) == 0,			\
		       #type "." #field " is not at offset 0")

/* @next starts right where @prev ends: no implicit padding between them. */
#define UAPI_NEXT(type, prev, next)					\
	_Static_assert(offsetof(type, next) ==				\
		       offsetof(type, prev) + UAPI_FIELD_SIZE(type, prev), \
		       "implicit padding between " #type "." #prev	\
		       " and " #next)

/* @field ends the struct: no tail padding; the size is @size, a multiple of 8. */
#define UAPI_LAST(type, field, size)					\
	_Static_assert(offsetof(type, field) +				\
		       UAPI_FIELD_SIZE(type, field) == sizeof(type),	\
		       "implicit padding after " #type "." #field);	\
	_Static_assert(sizeof(type) == (size),				\
		       "sizeof(" #type ") is not " #size);		\
	_Static_assert(sizeof(type) % 8 == 0,				\
		       "sizeof(" #type ") is not a multiple of 8")

/* struct drm_vrampool_get_param */
UAPI_FIRST(struct drm_vrampool_get_param, param);
UAPI_NEXT(struct drm_vrampool_get_param, param, pad);
UAPI_NEXT(struct drm_vrampool_get_param, pad, value);
UAPI_NEXT(struct drm_vrampool_get_param, value, reserved);
UAPI_LAST(struct drm_vrampool_get_param, reserved, 24);
UAPI_AT(struct drm_vrampool_get_param, param, 0);
UAPI_AT(struct drm_vrampool_get_param, pad, 4);
UAPI_AT(struct drm_vrampool_get_param, value, 8);
UAPI_AT(struct drm_vrampool_get_param, reserved, 16);
_Static_assert(UAPI_FIELD_SIZE(struct drm_vrampool_get_param, value) == 8,
	       "drm_vrampool_get_param.value is not 64-bit");

/* Pool indices: dynamic 0..MAX_DYNAMIC_POOLS - 1, then the persistent one. */
_Static_assert(DRM_VRAMPOOL_PERSISTENT_POOL == 255, "persistent pool index");
_Static_assert(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS == 254, "dynamic pool count");
_Static_assert(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS <= DRM_VRAMPOOL_PERSISTENT_POOL,
	       "dynamic pool indices collide with the persistent pool");
_Static_assert(DRM_VRAMPOOL_ABI_VERSION >= 1, "ABI versions start at 1");

#endif /* UAPI_LAYOUT_H */

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

/* struct drm_vrampool_pool_entry */
UAPI_FIRST(struct drm_vrampool_pool_entry, type);
UAPI_NEXT(struct drm_vrampool_pool_entry, type, flags);
UAPI_NEXT(struct drm_vrampool_pool_entry, flags, page_size);
UAPI_NEXT(struct drm_vrampool_pool_entry, page_size, max_slice_size);
UAPI_NEXT(struct drm_vrampool_pool_entry, max_slice_size, max_pool_size);
UAPI_NEXT(struct drm_vrampool_pool_entry, max_pool_size, max_alloc_size);
UAPI_NEXT(struct drm_vrampool_pool_entry, max_alloc_size, dealloc_period);
UAPI_NEXT(struct drm_vrampool_pool_entry, dealloc_period, reclaim_at);
UAPI_NEXT(struct drm_vrampool_pool_entry, reclaim_at, reserved);
UAPI_LAST(struct drm_vrampool_pool_entry, reserved, 64);
UAPI_AT(struct drm_vrampool_pool_entry, flags, 4);
UAPI_AT(struct drm_vrampool_pool_entry, page_size, 8);
UAPI_AT(struct drm_vrampool_pool_entry, max_slice_size, 16);
UAPI_AT(struct drm_vrampool_pool_entry, max_pool_size, 24);
UAPI_AT(struct drm_vrampool_pool_entry, max_alloc_size, 32);
UAPI_AT(struct drm_vrampool_pool_entry, dealloc_period, 40);
UAPI_AT(struct drm_vrampool_pool_entry, reclaim_at, 48);
UAPI_AT(struct drm_vrampool_pool_entry, reserved, 56);

/* struct drm_vrampool_layout_error */
UAPI_FIRST(struct drm_vrampool_layout_error, code);
UAPI_NEXT(struct drm_vrampool_layout_error, code, entry);
UAPI_NEXT(struct drm_vrampool_layout_error, entry, field);
UAPI_NEXT(struct drm_vrampool_layout_error, field, pad);
UAPI_NEXT(struct drm_vrampool_layout_error, pad, value);
UAPI_LAST(struct drm_vrampool_layout_error, value, 32);
UAPI_AT(struct drm_vrampool_layout_error, entry, 4);
UAPI_AT(struct drm_vrampool_layout_error, field, 8);
UAPI_AT(struct drm_vrampool_layout_error, pad, 12);
UAPI_AT(struct drm_vrampool_layout_error, value, 16);
_Static_assert(UAPI_FIELD_SIZE(struct drm_vrampool_layout_error, value) == 16,
	       "drm_vrampool_layout_error.value is not two __u64");

/* struct drm_vrampool_pool_install */
UAPI_FIRST(struct drm_vrampool_pool_install, flags);
UAPI_NEXT(struct drm_vrampool_pool_install, flags, preset);
UAPI_NEXT(struct drm_vrampool_pool_install, preset, entries);
UAPI_NEXT(struct drm_vrampool_pool_install, entries, count);
UAPI_NEXT(struct drm_vrampool_pool_install, count, entry_size);
UAPI_NEXT(struct drm_vrampool_pool_install, entry_size, generation);
UAPI_NEXT(struct drm_vrampool_pool_install, generation, num_pools);
UAPI_NEXT(struct drm_vrampool_pool_install, num_pools, pad);
UAPI_NEXT(struct drm_vrampool_pool_install, pad, error);
UAPI_NEXT(struct drm_vrampool_pool_install, error, reserved);
UAPI_LAST(struct drm_vrampool_pool_install, reserved, 88);
UAPI_AT(struct drm_vrampool_pool_install, preset, 4);
UAPI_AT(struct drm_vrampool_pool_install, entries, 8);
UAPI_AT(struct drm_vrampool_pool_install, count, 16);
UAPI_AT(struct drm_vrampool_pool_install, entry_size, 20);
UAPI_AT(struct drm_vrampool_pool_install, generation, 24);
UAPI_AT(struct drm_vrampool_pool_install, num_pools, 32);
UAPI_AT(struct drm_vrampool_pool_install, pad, 36);
UAPI_AT(struct drm_vrampool_pool_install, error, 40);
UAPI_AT(struct drm_vrampool_pool_install, reserved, 72);
_Static_assert(UAPI_FIELD_SIZE(struct drm_vrampool_pool_install, entries) == 8,
	       "drm_vrampool_pool_install.entries is not a 64-bit user pointer");
_Static_assert(UAPI_FIELD_SIZE(struct drm_vrampool_pool_install, reserved) == 16,
	       "drm_vrampool_pool_install.reserved is not two __u64");

/* struct drm_vrampool_pool_status */
UAPI_FIRST(struct drm_vrampool_pool_status, config);
UAPI_NEXT(struct drm_vrampool_pool_status, config, index);
UAPI_NEXT(struct drm_vrampool_pool_status, index, pad);
UAPI_NEXT(struct drm_vrampool_pool_status, pad, allocations);
UAPI_NEXT(struct drm_vrampool_pool_status, allocations, bytes_in_use);
UAPI_NEXT(struct drm_vrampool_pool_status, bytes_in_use, padding);
UAPI_NEXT(struct drm_vrampool_pool_status, padding, reserved_bytes);
UAPI_NEXT(struct drm_vrampool_pool_status, reserved_bytes, pages);
UAPI_NEXT(struct drm_vrampool_pool_status, pages, pages_peak);
UAPI_NEXT(struct drm_vrampool_pool_status, pages_peak, largest_alloc);
UAPI_NEXT(struct drm_vrampool_pool_status, largest_alloc, pages_made);
UAPI_NEXT(struct drm_vrampool_pool_status, pages_made, reserved);
UAPI_LAST(struct drm_vrampool_pool_status, reserved, 144);
UAPI_AT(struct drm_vrampool_pool_status, index, 64);
UAPI_AT(struct drm_vrampool_pool_status, pad, 68);
UAPI_AT(struct drm_vrampool_pool_status, allocations, 72);
UAPI_AT(struct drm_vrampool_pool_status, bytes_in_use, 80);
UAPI_AT(struct drm_vrampool_pool_status, padding, 88);
UAPI_AT(struct drm_vrampool_pool_status, reserved_bytes, 96);
UAPI_AT(struct drm_vrampool_pool_status, pages, 104);
UAPI_AT(struct drm_vrampool_pool_status, pages_peak, 112);
UAPI_AT(struct drm_vrampool_pool_status, largest_alloc, 120);
UAPI_AT(struct drm_vrampool_pool_status, pages_made, 128);
UAPI_AT(struct drm_vrampool_pool_status, reserved, 136);

/* struct drm_vrampool_pool_query */
UAPI_FIRST(struct drm_vrampool_pool_query, size);
UAPI_NEXT(struct drm_vrampool_pool_query, size, flags);
UAPI_NEXT(struct drm_vrampool_pool_query, flags, pools);
UAPI_NEXT(struct drm_vrampool_pool_query, pools, generation);
UAPI_NEXT(struct drm_vrampool_pool_query, generation, num_pools);
UAPI_NEXT(struct drm_vrampool_pool_query, num_pools, pad);
UAPI_NEXT(struct drm_vrampool_pool_query, pad, vram_in_use);
UAPI_NEXT(struct drm_vrampool_pool_query, vram_in_use, persistent_mode);
UAPI_NEXT(struct drm_vrampool_pool_query, persistent_mode, pad2);
UAPI_NEXT(struct drm_vrampool_pool_query, pad2, reserved);
UAPI_LAST(struct drm_vrampool_pool_query, reserved, 64);
UAPI_AT(struct drm_vrampool_pool_query, flags, 4);
UAPI_AT(struct drm_vrampool_pool_query, pools, 8);
UAPI_AT(struct drm_vrampool_pool_query, generation, 16);
UAPI_AT(struct drm_vrampool_pool_query, num_pools, 24);
UAPI_AT(struct drm_vrampool_pool_query, pad, 28);
UAPI_AT(struct drm_vrampool_pool_query, vram_in_use, 32);
UAPI_AT(struct drm_vrampool_pool_query, persistent_mode, 40);
UAPI_AT(struct drm_vrampool_pool_query, pad2, 44);
UAPI_AT(struct drm_vrampool_pool_query, reserved, 48);
_Static_assert(UAPI_FIELD_SIZE(struct drm_vrampool_pool_query, pools) == 8,
	       "drm_vrampool_pool_query.pools is not a 64-bit user pointer");

/* struct drm_vrampool_alloc_error */
UAPI_FIRST(struct drm_vrampool_alloc_error, code);
UAPI_NEXT(struct drm_vrampool_alloc_error, code, pool);
UAPI_NEXT(struct drm_vrampool_alloc_error, pool, size);
UAPI_NEXT(struct drm_vrampool_alloc_error, size, capacity);
UAPI_NEXT(struct drm_vrampool_alloc_error, capacity, in_use);
UAPI_LAST(struct drm_vrampool_alloc_error, in_use, 32);
UAPI_AT(struct drm_vrampool_alloc_error, pool, 4);
UAPI_AT(struct drm_vrampool_alloc_error, size, 8);
UAPI_AT(struct drm_vrampool_alloc_error, capacity, 16);
UAPI_AT(struct drm_vrampool_alloc_error, in_use, 24);

/* struct drm_vrampool_alloc */
UAPI_FIRST(struct drm_vrampool_alloc, size);
UAPI_NEXT(struct drm_vrampool_alloc, size, flags);
UAPI_NEXT(struct drm_vrampool_alloc, flags, handle);
UAPI_NEXT(struct drm_vrampool_alloc, handle, pool);
UAPI_NEXT(struct drm_vrampool_alloc, pool, page);
UAPI_NEXT(struct drm_vrampool_alloc, page, offset);
UAPI_NEXT(struct drm_vrampool_alloc, offset, padding);
UAPI_NEXT(struct drm_vrampool_alloc, padding, mmap_offset);
UAPI_NEXT(struct drm_vrampool_alloc, mmap_offset, page_size);
UAPI_NEXT(struct drm_vrampool_alloc, page_size, error);
UAPI_NEXT(struct drm_vrampool_alloc, error, pad);
UAPI_NEXT(struct drm_vrampool_alloc, pad, pad2);
UAPI_NEXT(struct drm_vrampool_alloc, pad2, reserved);
UAPI_LAST(struct drm_vrampool_alloc, reserved, 112);
UAPI_AT(struct drm_vrampool_alloc, flags, 8);
UAPI_AT(struct drm_vrampool_alloc, handle, 12);
UAPI_AT(struct drm_vrampool_alloc, pool, 16);
UAPI_AT(struct drm_vrampool_alloc, page, 20);
UAPI_AT(struct drm_vrampool_alloc, offset, 24);
UAPI_AT(struct drm_vrampool_alloc, padding, 32);
UAPI_AT(struct drm_vrampool_alloc, mmap_offset, 40);
UAPI_AT(struct drm_vrampool_alloc, page_size, 48);
UAPI_AT(struct drm_vrampool_alloc, error, 56);
UAPI_AT(struct drm_vrampool_alloc, pad, 88);
UAPI_AT(struct drm_vrampool_alloc, pad2, 92);
UAPI_AT(struct drm_vrampool_alloc, reserved, 96);

/* struct drm_vrampool_free */
UAPI_FIRST(struct drm_vrampool_free, handle);
UAPI_NEXT(struct drm_vrampool_free, handle, flags);
UAPI_NEXT(struct drm_vrampool_free, flags, reserved);
UAPI_LAST(struct drm_vrampool_free, reserved, 16);
UAPI_AT(struct drm_vrampool_free, flags, 4);
UAPI_AT(struct drm_vrampool_free, reserved, 8);

/* struct drm_vrampool_cleanup */
UAPI_FIRST(struct drm_vrampool_cleanup, flags);
UAPI_NEXT(struct drm_vrampool_cleanup, flags, pad);
UAPI_NEXT(struct drm_vrampool_cleanup, pad, reserved);
UAPI_LAST(struct drm_vrampool_cleanup, reserved, 16);
UAPI_AT(struct drm_vrampool_cleanup, pad, 4);
UAPI_AT(struct drm_vrampool_cleanup, reserved, 8);

/* struct drm_vrampool_persistent_mode */
UAPI_FIRST(struct drm_vrampool_persistent_mode, mode);
UAPI_NEXT(struct drm_vrampool_persistent_mode, mode, pad);
UAPI_LAST(struct drm_vrampool_persistent_mode, pad, 8);
UAPI_AT(struct drm_vrampool_persistent_mode, pad, 4);

/* Each flag set: single bits, and its mask is exactly their OR. */
#define UAPI_ONE_BIT(x) ((x) != 0 && ((x) & ((x) - 1)) == 0)
_Static_assert(UAPI_ONE_BIT(DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE) &&
	       UAPI_ONE_BIT(DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE) &&
	       UAPI_ONE_BIT(DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD) &&
	       UAPI_ONE_BIT(DRM_VRAMPOOL_ENTRY_RECLAIM_AT), "entry flags are single bits");
_Static_assert((DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE + DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE +
		DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD + DRM_VRAMPOOL_ENTRY_RECLAIM_AT) ==
	       DRM_VRAMPOOL_ENTRY_FLAGS, "entry flags overlap or the mask misses one");
_Static_assert((DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE |
		DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD | DRM_VRAMPOOL_ENTRY_RECLAIM_AT) ==
	       DRM_VRAMPOOL_ENTRY_FLAGS, "DRM_VRAMPOOL_ENTRY_FLAGS is not the OR of the flags");
_Static_assert(UAPI_ONE_BIT(DRM_VRAMPOOL_INSTALL_TEST_ONLY) &&
	       DRM_VRAMPOOL_INSTALL_FLAGS == DRM_VRAMPOOL_INSTALL_TEST_ONLY,
	       "DRM_VRAMPOOL_INSTALL_FLAGS is not the OR of the install flags");
_Static_assert(UAPI_ONE_BIT(DRM_VRAMPOOL_ALLOC_PERSISTENT) &&
	       DRM_VRAMPOOL_ALLOC_FLAGS == DRM_VRAMPOOL_ALLOC_PERSISTENT,
	       "DRM_VRAMPOOL_ALLOC_FLAGS is not the OR of the allocation flags");

/* struct drm_vrampool_alloc_request */
UAPI_FIRST(struct drm_vrampool_alloc_request, size);
UAPI_NEXT(struct drm_vrampool_alloc_request, size, flags);
UAPI_NEXT(struct drm_vrampool_alloc_request, flags, pad);
UAPI_LAST(struct drm_vrampool_alloc_request, pad, 16);

/* struct drm_vrampool_alloc_answer */
UAPI_FIRST(struct drm_vrampool_alloc_answer, handle);
UAPI_NEXT(struct drm_vrampool_alloc_answer, handle, pool);
UAPI_NEXT(struct drm_vrampool_alloc_answer, pool, page);
UAPI_NEXT(struct drm_vrampool_alloc_answer, page, pad);
UAPI_NEXT(struct drm_vrampool_alloc_answer, pad, offset);
UAPI_NEXT(struct drm_vrampool_alloc_answer, offset, padding);
UAPI_NEXT(struct drm_vrampool_alloc_answer, padding, mmap_offset);
UAPI_NEXT(struct drm_vrampool_alloc_answer, mmap_offset, page_size);
UAPI_LAST(struct drm_vrampool_alloc_answer, page_size, 48);

/* struct drm_vrampool_alloc_batch */
UAPI_FIRST(struct drm_vrampool_alloc_batch, requests);
UAPI_NEXT(struct drm_vrampool_alloc_batch, requests, answers);
UAPI_NEXT(struct drm_vrampool_alloc_batch, answers, count);
UAPI_NEXT(struct drm_vrampool_alloc_batch, count, flags);
UAPI_NEXT(struct drm_vrampool_alloc_batch, flags, failed);
UAPI_NEXT(struct drm_vrampool_alloc_batch, failed, pad);
UAPI_NEXT(struct drm_vrampool_alloc_batch, pad, error);
UAPI_NEXT(struct drm_vrampool_alloc_batch, error, reserved);
UAPI_LAST(struct drm_vrampool_alloc_batch, reserved, 80);
UAPI_AT(struct drm_vrampool_alloc_batch, error, 32);

/* struct drm_vrampool_free_batch */
UAPI_FIRST(struct drm_vrampool_free_batch, handles);
UAPI_NEXT(struct drm_vrampool_free_batch, handles, count);
UAPI_NEXT(struct drm_vrampool_free_batch, count, flags);
UAPI_NEXT(struct drm_vrampool_free_batch, flags, failed);
UAPI_NEXT(struct drm_vrampool_free_batch, failed, code);
UAPI_NEXT(struct drm_vrampool_free_batch, code, reserved);
UAPI_LAST(struct drm_vrampool_free_batch, reserved, 32);
_Static_assert(DRM_VRAMPOOL_BATCH_MAX == 1024, "the documented batch maximum");

/* Sentinels: no entry, no page, "none" preset and error. */
_Static_assert(DRM_VRAMPOOL_NO_ENTRY == 0xffffffffu, "no-entry sentinel");
_Static_assert(DRM_VRAMPOOL_NO_ENTRY > DRM_VRAMPOOL_MAX_DYNAMIC_POOLS,
	       "the no-entry sentinel is a valid entry index");
_Static_assert(DRM_VRAMPOOL_NO_PAGE == 0xffffffffu, "no-page sentinel");
_Static_assert(DRM_VRAMPOOL_PRESET_NONE == 0 && DRM_VRAMPOOL_ERR_NONE == 0 &&
	       DRM_VRAMPOOL_FIELD_NONE == 0, "zero means none");

/* Pool indices: dynamic 0..MAX_DYNAMIC_POOLS - 1, then the persistent one. */
_Static_assert(DRM_VRAMPOOL_PERSISTENT_POOL == 255, "persistent pool index");
_Static_assert(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS == 254, "dynamic pool count");
_Static_assert(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS <= DRM_VRAMPOOL_PERSISTENT_POOL,
	       "dynamic pool indices collide with the persistent pool");
_Static_assert(DRM_VRAMPOOL_ABI_VERSION >= 3,
	       "ABI version 3 has POOL_INSTALL, POOL_QUERY, ALLOC, FREE, CLEANUP, SET_PERSISTENT_MODE");
_Static_assert(DRM_VRAMPOOL_ABI_VERSION >= 4, "ABI version 4 has ALLOC_BATCH, FREE_BATCH");

#endif /* UAPI_LAYOUT_H */

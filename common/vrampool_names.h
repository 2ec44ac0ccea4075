/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vrampool: the names of error kinds, pool types and error values, shared
 * by the driver, libvrampool and vrampoolctl (see the DOC: of
 * vrampool_layout.h for what common/ is).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_NAMES_H_
#define _VRAMPOOL_NAMES_H_

#include <linux/types.h>

#include <drm/vrampool_accel.h>

/* The entries of a list below, for the macro that expands it. */
#define VRAMPOOL_NAMES_UNWRAP(...) __VA_ARGS__

/*
 * VRAMPOOL_NAMES_ERRORS - every documented error kind, in the order of its
 * DRM_VRAMPOOL_ERR_* code: VRAMPOOL_NAMES_ERROR(kind, name) for each, where
 * DRM_VRAMPOOL_ERR_##kind is the code (and VRAMPOOL_ERR_##kind
 * libvrampool's variant) and name the kind's name. The user defines
 * VRAMPOOL_NAMES_ERROR() before it expands the list (as trace headers do
 * with EM()), so that __print_symbolic() of the tracepoints and the string
 * tables of userspace are all built from this one list.
 */
#define VRAMPOOL_NAMES_ERRORS VRAMPOOL_NAMES_UNWRAP(				\
	VRAMPOOL_NAMES_ERROR(EMPTY_POOL_LIST, "EmptyPoolList")		\
	VRAMPOOL_NAMES_ERROR(ZERO_SIZE, "ZeroSize")			\
	VRAMPOOL_NAMES_ERROR(SLICE_LARGER_THAN_PAGE, "SliceLargerThanPage") \
	VRAMPOOL_NAMES_ERROR(CAP_SMALLER_THAN_PAGE, "CapSmallerThanPage") \
	VRAMPOOL_NAMES_ERROR(TOO_MANY_PAGES, "TooManyPages")		\
	VRAMPOOL_NAMES_ERROR(TOO_MANY_POOLS, "TooManyPools")		\
	VRAMPOOL_NAMES_ERROR(PRESET_UNAVAILABLE, "PresetUnavailable")	\
	VRAMPOOL_NAMES_ERROR(SLICED_POOLS_UNAVAILABLE, "SlicedPoolsUnavailable") \
	VRAMPOOL_NAMES_ERROR(SIZE_OVERFLOW, "SizeOverflow")		\
	VRAMPOOL_NAMES_ERROR(POOLS_IN_USE, "PoolsInUse")		\
	VRAMPOOL_NAMES_ERROR(INVALID_ARGUMENT, "InvalidArgument")	\
	VRAMPOOL_NAMES_ERROR(POOL_CAPACITY_EXCEEDED, "PoolCapacityExceeded") \
	VRAMPOOL_NAMES_ERROR(BUFFER_TOO_BIG, "BufferTooBig")		\
	VRAMPOOL_NAMES_ERROR(OUT_OF_MEMORY, "OutOfMemory")		\
	VRAMPOOL_NAMES_ERROR(NOT_FOUND, "NotFound")			\
	VRAMPOOL_NAMES_ERROR(CLIENT_LIMIT, "ClientLimit")		\
	VRAMPOOL_NAMES_ERROR(QUOTA_EXCEEDED, "QuotaExceeded")		\
	VRAMPOOL_NAMES_ERROR(DUPLICATE_HANDLE, "DuplicateHandle"))

/**
 * enum vrampool_names_from - where the kernel puts a value of an error
 * @VRAMPOOL_NAMES_FROM_VALUE0: &drm_vrampool_layout_error.value[0]
 * @VRAMPOOL_NAMES_FROM_VALUE1: &drm_vrampool_layout_error.value[1]
 * @VRAMPOOL_NAMES_FROM_SIZE: &drm_vrampool_alloc_error.size
 * @VRAMPOOL_NAMES_FROM_POOL: &drm_vrampool_alloc_error.pool
 * @VRAMPOOL_NAMES_FROM_CAPACITY: &drm_vrampool_alloc_error.capacity
 * @VRAMPOOL_NAMES_FROM_IN_USE: &drm_vrampool_alloc_error.in_use
 * @VRAMPOOL_NAMES_FROM_REQUEST: nowhere: the request named it (a handle)
 */
enum vrampool_names_from {
	VRAMPOOL_NAMES_FROM_VALUE0,
	VRAMPOOL_NAMES_FROM_VALUE1,
	VRAMPOOL_NAMES_FROM_SIZE,
	VRAMPOOL_NAMES_FROM_POOL,
	VRAMPOOL_NAMES_FROM_CAPACITY,
	VRAMPOOL_NAMES_FROM_IN_USE,
	VRAMPOOL_NAMES_FROM_REQUEST,
};

/*
 * VRAMPOOL_NAMES_VALUES - the values each error kind carries, in the order
 * reports list them: VRAMPOOL_NAMES_VALUE(kind, member, key, from) for
 * each. @kind as in VRAMPOOL_NAMES_ERRORS; @member the value's name (the
 * member of libvrampool's struct vrampool_error that holds it); @key its
 * name in reports (vrampoolctl's JSON); @from where the kernel puts it, a
 * VRAMPOOL_NAMES_FROM_* suffix. The user defines VRAMPOOL_NAMES_VALUE().
 */
#define VRAMPOOL_NAMES_VALUES VRAMPOOL_NAMES_UNWRAP(				\
	VRAMPOOL_NAMES_VALUE(SLICE_LARGER_THAN_PAGE, page_size, "page_size", VALUE0) \
	VRAMPOOL_NAMES_VALUE(SLICE_LARGER_THAN_PAGE, max_slice_size, "max_slice_size", VALUE1) \
	VRAMPOOL_NAMES_VALUE(CAP_SMALLER_THAN_PAGE, page_size, "page_size", VALUE0) \
	VRAMPOOL_NAMES_VALUE(CAP_SMALLER_THAN_PAGE, max_pool_size, "max_pool_size", VALUE1) \
	VRAMPOOL_NAMES_VALUE(TOO_MANY_PAGES, pages, "pages", VALUE0)	\
	VRAMPOOL_NAMES_VALUE(TOO_MANY_POOLS, count, "count", VALUE0)	\
	VRAMPOOL_NAMES_VALUE(PRESET_UNAVAILABLE, preset, "preset", VALUE0) \
	VRAMPOOL_NAMES_VALUE(SIZE_OVERFLOW, size, "size", VALUE0)	\
	VRAMPOOL_NAMES_VALUE(SIZE_OVERFLOW, alignment, "alignment", VALUE1) \
	VRAMPOOL_NAMES_VALUE(POOLS_IN_USE, bytes_in_use, "bytes_in_use", VALUE0) \
	VRAMPOOL_NAMES_VALUE(INVALID_ARGUMENT, value, "value", VALUE0)	\
	VRAMPOOL_NAMES_VALUE(POOL_CAPACITY_EXCEEDED, size, "size", SIZE) \
	VRAMPOOL_NAMES_VALUE(POOL_CAPACITY_EXCEEDED, pool, "pool", POOL) \
	VRAMPOOL_NAMES_VALUE(POOL_CAPACITY_EXCEEDED, capacity, "capacity", CAPACITY) \
	VRAMPOOL_NAMES_VALUE(POOL_CAPACITY_EXCEEDED, in_use, "in_use", IN_USE) \
	VRAMPOOL_NAMES_VALUE(BUFFER_TOO_BIG, size, "size", SIZE)	\
	VRAMPOOL_NAMES_VALUE(OUT_OF_MEMORY, size, "size", SIZE)		\
	VRAMPOOL_NAMES_VALUE(NOT_FOUND, handle, "handle", REQUEST)	\
	VRAMPOOL_NAMES_VALUE(CLIENT_LIMIT, size, "size", SIZE)		\
	VRAMPOOL_NAMES_VALUE(CLIENT_LIMIT, limit, "limit", POOL)	\
	VRAMPOOL_NAMES_VALUE(CLIENT_LIMIT, capacity, "max", CAPACITY)	\
	VRAMPOOL_NAMES_VALUE(CLIENT_LIMIT, in_use, "held", IN_USE)	\
	VRAMPOOL_NAMES_VALUE(QUOTA_EXCEEDED, size, "size", SIZE)	\
	VRAMPOOL_NAMES_VALUE(QUOTA_EXCEEDED, limit, "which", POOL)	\
	VRAMPOOL_NAMES_VALUE(QUOTA_EXCEEDED, capacity, "quota", CAPACITY) \
	VRAMPOOL_NAMES_VALUE(QUOTA_EXCEEDED, in_use, "held", IN_USE)	\
	VRAMPOOL_NAMES_VALUE(DUPLICATE_HANDLE, handle, "handle", REQUEST))

const char *vrampool_names_lookup_pool_type(u32 type);
int vrampool_names_parse_pool_type(const char *name);

#endif /* _VRAMPOOL_NAMES_H_ */

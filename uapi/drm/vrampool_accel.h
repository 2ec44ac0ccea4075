/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * vrampool: VRAM carved into configurable memory pools for compute runtimes.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef __UAPI_DRM_VRAMPOOL_ACCEL_H__
#define __UAPI_DRM_VRAMPOOL_ACCEL_H__

#include "drm.h"

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
 * Once the device is unbound (unplugged), every ioctl on a file still open
 * on it fails with -ENODEV, and so does a new open(); closing such a file
 * still frees everything it owned. An ioctl already running when the
 * device goes finishes, and fails with -ENODEV only if it needed the
 * device's VRAM (a new page); the unbind never waits for it to copy its
 * arguments, however long userspace takes to provide them.
 *
 * Feature discovery goes through %DRM_IOCTL_VRAMPOOL_GET_PARAM: an unknown
 * parameter fails with -EINVAL, and %DRM_VRAMPOOL_PARAM_ABI_VERSION tells
 * which ioctls and parameters the running driver knows.
 */

#define DRM_VRAMPOOL_GET_PARAM		0x00
#define DRM_VRAMPOOL_POOL_INSTALL	0x01
#define DRM_VRAMPOOL_POOL_QUERY		0x02
#define DRM_VRAMPOOL_ALLOC		0x03
#define DRM_VRAMPOOL_FREE		0x04
#define DRM_VRAMPOOL_CLEANUP		0x05
#define DRM_VRAMPOOL_SET_PERSISTENT_MODE	0x06
#define DRM_VRAMPOOL_ALLOC_BATCH		0x07
#define DRM_VRAMPOOL_FREE_BATCH			0x08

#define DRM_IOCTL_VRAMPOOL_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_GET_PARAM, \
		 struct drm_vrampool_get_param)
#define DRM_IOCTL_VRAMPOOL_POOL_INSTALL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_POOL_INSTALL, \
		 struct drm_vrampool_pool_install)
#define DRM_IOCTL_VRAMPOOL_POOL_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_POOL_QUERY, \
		 struct drm_vrampool_pool_query)
#define DRM_IOCTL_VRAMPOOL_ALLOC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_ALLOC, struct drm_vrampool_alloc)
#define DRM_IOCTL_VRAMPOOL_FREE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VRAMPOOL_FREE, struct drm_vrampool_free)
#define DRM_IOCTL_VRAMPOOL_CLEANUP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VRAMPOOL_CLEANUP, struct drm_vrampool_cleanup)
#define DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_SET_PERSISTENT_MODE, \
		 struct drm_vrampool_persistent_mode)
#define DRM_IOCTL_VRAMPOOL_ALLOC_BATCH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_ALLOC_BATCH, \
		 struct drm_vrampool_alloc_batch)
#define DRM_IOCTL_VRAMPOOL_FREE_BATCH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VRAMPOOL_FREE_BATCH, \
		 struct drm_vrampool_free_batch)

/**
 * DRM_VRAMPOOL_ABI_VERSION - the ABI revision this header describes
 *
 * Returned by %DRM_VRAMPOOL_PARAM_ABI_VERSION. It grows by one whenever an
 * ioctl, a parameter or a flag is added; nothing is ever removed.
 */
#define DRM_VRAMPOOL_ABI_VERSION		4

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

/**
 * DOC: pool layouts
 *
 * Each client (open file) owns a *layout*: an ordered list of up to
 * %DRM_VRAMPOOL_MAX_DYNAMIC_POOLS dynamic pools, plus the persistent pool at
 * index %DRM_VRAMPOOL_PERSISTENT_POOL that no layout change touches. An
 * allocation is served by the first pool in list order that accepts its
 * size. A new client starts with the device's default layout: the
 * %DRM_VRAMPOOL_PRESET_SUB_SLICES preset, or
 * %DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES on an exclusive-memory-only device.
 *
 * %DRM_IOCTL_VRAMPOOL_POOL_INSTALL replaces the layout with a preset or an
 * explicit list of &struct drm_vrampool_pool_entry. The kernel checks the
 * whole request and resolves every entry against the device's properties
 * (sizes aligned up to the device alignment) before it touches anything; a
 * request or layout refused by the rules below changes nothing and says why
 * in &struct drm_vrampool_layout_error. A valid layout is then installed
 * after an explicit cleanup of the client's pools (see "allocations"), or
 * refused with -EBUSY if dynamic allocations still live: that refusal
 * leaves the layout and generation as they were, but the cleanup has run.
 * With %DRM_VRAMPOOL_INSTALL_TEST_ONLY the request is checked and resolved,
 * and the live-allocation check made, but nothing is cleaned or installed.
 *
 * The rules, in the order they are checked:
 *
 * 1. The request is well formed: known flags, zero @pad and @reserved, and
 *    with a preset, @entries, @count and @entry_size all 0; otherwise
 *    -EINVAL with %DRM_VRAMPOOL_ERR_INVALID_ARGUMENT naming the field. An
 *    unknown preset is refused the same way. An explicit list with @count 0
 *    must have a NULL @entries.
 * 2. An explicit list is not empty (%DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST,
 *    -EINVAL) and holds at most 254 entries
 *    (%DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, -E2BIG); then @entry_size must be
 *    that of &struct drm_vrampool_pool_entry (-EINVAL as in 1.), and
 *    @entries a readable, 8-byte aligned pointer (-EFAULT).
 * 3. Every entry is well formed: a known type, known flags, only the
 *    optional fields its type has, unused and reserved fields zero;
 *    otherwise -EINVAL with %DRM_VRAMPOOL_ERR_INVALID_ARGUMENT.
 * 4. Entry by entry, in order:
 *
 *    - exclusive: @max_alloc_size is aligned up (0 stays 0, a pool for
 *      zero-size requests);
 *    - direct: nothing to check; @reclaim_at is kept as given;
 *    - sliced: refused on an exclusive-memory-only device
 *      (%DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, -EOPNOTSUPP);
 *      @page_size must be non-zero and is aligned up; @max_slice_size, when
 *      given, must be non-zero and is aligned up, else it is the page size;
 *      it may not exceed the page size; @max_pool_size, when given, must be
 *      non-zero, at least the page size, and span at most 65535 pages; it is
 *      kept as given.
 *
 * A preset is refused only where the device cannot have it: sub-slices on
 * an exclusive-memory-only device (%DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE,
 * -EOPNOTSUPP).
 *
 * A size whose alignment would pass 2^64 - 1 is refused with
 * %DRM_VRAMPOOL_ERR_SIZE_OVERFLOW (-EOVERFLOW).
 */

/* Pool types, for &struct drm_vrampool_pool_entry.type */
/** DRM_VRAMPOOL_POOL_EXCLUSIVE - one allocation per page, up to max_alloc_size */
#define DRM_VRAMPOOL_POOL_EXCLUSIVE		1
/** DRM_VRAMPOOL_POOL_SLICED - pages of page_size carved into slices */
#define DRM_VRAMPOOL_POOL_SLICED		2
/** DRM_VRAMPOOL_POOL_DIRECT - one device allocation per request, reused by size */
#define DRM_VRAMPOOL_POOL_DIRECT		3
/** DRM_VRAMPOOL_POOL_PERSISTENT - the persistent pool; only reported, never installed */
#define DRM_VRAMPOOL_POOL_PERSISTENT		4

/*
 * Optional fields of &struct drm_vrampool_pool_entry: a set bit says the
 * field is present (and may then be 0), a clear bit that it is absent (and
 * must be 0).
 */
/** DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE - @max_slice_size is given (sliced only) */
#define DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE	0x1u
/** DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE - @max_pool_size is given (sliced only) */
#define DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE	0x2u
/** DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD - @dealloc_period is given (sliced, exclusive) */
#define DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD	0x4u
/** DRM_VRAMPOOL_ENTRY_RECLAIM_AT - @reclaim_at is given (direct only) */
#define DRM_VRAMPOOL_ENTRY_RECLAIM_AT		0x8u
/** DRM_VRAMPOOL_ENTRY_FLAGS - every valid entry flag */
#define DRM_VRAMPOOL_ENTRY_FLAGS \
	(DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE | \
	 DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD | DRM_VRAMPOOL_ENTRY_RECLAIM_AT)

/**
 * struct drm_vrampool_pool_entry - one pool of a layout
 *
 * Given to %DRM_IOCTL_VRAMPOOL_POOL_INSTALL, and returned resolved (sizes
 * aligned, defaults filled in) by %DRM_IOCTL_VRAMPOOL_POOL_QUERY. A field the
 * pool type does not use must be zero.
 */
struct drm_vrampool_pool_entry {
	/** @type: one of the ``DRM_VRAMPOOL_POOL_*`` types */
	__u32 type;

	/** @flags: which optional fields are present (``DRM_VRAMPOOL_ENTRY_*``) */
	__u32 flags;

	/** @page_size: sliced: bytes per page, non-zero */
	__u64 page_size;

	/**
	 * @max_slice_size: sliced, optional: largest slice in bytes; absent
	 * means @page_size
	 */
	__u64 max_slice_size;

	/** @max_pool_size: sliced, optional: cap on the pool's pages, in bytes */
	__u64 max_pool_size;

	/** @max_alloc_size: exclusive: largest allocation in bytes; 0 means size 0 only */
	__u64 max_alloc_size;

	/**
	 * @dealloc_period: sliced or exclusive, optional: for exclusive pools,
	 * allocations between releases of idle pages (a free page goes at its
	 * fifth check, one every @dealloc_period / 5 allocations). Sliced pools
	 * accept and report it but, as in CubeCL, release pages only in an
	 * explicit cleanup.
	 */
	__u64 dealloc_period;

	/** @reclaim_at: direct, optional: reserved bytes above which free buffers go back */
	__u64 reclaim_at;

	/** @reserved: must be zero */
	__u64 reserved;
};

/* Presets, for &struct drm_vrampool_pool_install.preset */
/** DRM_VRAMPOOL_PRESET_NONE - no preset: install the explicit entry list */
#define DRM_VRAMPOOL_PRESET_NONE		0
/** DRM_VRAMPOOL_PRESET_SUB_SLICES - sliced pools sized from the max page size */
#define DRM_VRAMPOOL_PRESET_SUB_SLICES		1
/** DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES - 24 exclusive buckets from 32 KiB to the max page size */
#define DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES	2

/* Flags for &struct drm_vrampool_pool_install.flags */
/** DRM_VRAMPOOL_INSTALL_TEST_ONLY - check and resolve, install nothing */
#define DRM_VRAMPOOL_INSTALL_TEST_ONLY		0x1u
/** DRM_VRAMPOOL_INSTALL_FLAGS - every valid install flag */
#define DRM_VRAMPOOL_INSTALL_FLAGS		DRM_VRAMPOOL_INSTALL_TEST_ONLY

/*
 * Error codes, for &struct drm_vrampool_layout_error.code. The payload
 * (@value of that struct) of each is given in brackets.
 */
/** DRM_VRAMPOOL_ERR_NONE - no error */
#define DRM_VRAMPOOL_ERR_NONE			0
/** DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST - the explicit list is empty (-EINVAL) */
#define DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST	1
/** DRM_VRAMPOOL_ERR_ZERO_SIZE - @field must be non-zero (-EINVAL) */
#define DRM_VRAMPOOL_ERR_ZERO_SIZE		2
/** DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE - [page_size, max_slice_size], aligned (-EINVAL) */
#define DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE	3
/** DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE - [page_size aligned, max_pool_size] (-EINVAL) */
#define DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE	4
/** DRM_VRAMPOOL_ERR_TOO_MANY_PAGES - [pages]: the cap spans more than 65535 pages (-EINVAL) */
#define DRM_VRAMPOOL_ERR_TOO_MANY_PAGES		5
/** DRM_VRAMPOOL_ERR_TOO_MANY_POOLS - [count]: more than 254 entries (-E2BIG) */
#define DRM_VRAMPOOL_ERR_TOO_MANY_POOLS		6
/** DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE - [preset]: not on this device (-EOPNOTSUPP) */
#define DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE	7
/** DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE - exclusive-memory-only device (-EOPNOTSUPP) */
#define DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE 8
/** DRM_VRAMPOOL_ERR_SIZE_OVERFLOW - [size, alignment]: aligning @field passes 2^64 (-EOVERFLOW) */
#define DRM_VRAMPOOL_ERR_SIZE_OVERFLOW		9
/** DRM_VRAMPOOL_ERR_POOLS_IN_USE - [bytes_in_use]: dynamic pools hold live allocations (-EBUSY) */
#define DRM_VRAMPOOL_ERR_POOLS_IN_USE		10
/** DRM_VRAMPOOL_ERR_INVALID_ARGUMENT - @field of the request is malformed (-EINVAL) */
#define DRM_VRAMPOOL_ERR_INVALID_ARGUMENT	11
/**
 * DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED - every pool that accepts the size
 * is capped and full [size, capacity, in_use of the last such pool] (-ENOSPC)
 */
#define DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED	12
/** DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG - no pool accepts the size [size] (-EFBIG) */
#define DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG		13
/**
 * DRM_VRAMPOOL_ERR_OUT_OF_MEMORY - VRAM is exhausted, even after a cleanup
 * of the client's pools and reclaim of other clients' free pages [size]
 * (-ENOSPC)
 */
#define DRM_VRAMPOOL_ERR_OUT_OF_MEMORY		14
/** DRM_VRAMPOOL_ERR_NOT_FOUND - no such allocation handle in this file (-ENOENT) */
#define DRM_VRAMPOOL_ERR_NOT_FOUND		15
/**
 * DRM_VRAMPOOL_ERR_CLIENT_LIMIT - the client's user (all its files) holds
 * as many allocations, or pool pages, as a user may [size; pool: which
 * limit, a ``DRM_VRAMPOOL_LIMIT_*`` value; capacity: the limit; in_use:
 * what the user holds of it] (-EDQUOT)
 */
#define DRM_VRAMPOOL_ERR_CLIENT_LIMIT		16
/**
 * DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED - a new page would take the VRAM the
 * client's user (all its files) holds past the device's ``vram_quota``,
 * even after a cleanup of the client's pools and of the user's other
 * files' free cached pages [size; pool: %DRM_VRAMPOOL_QUOTA_DEVICE;
 * capacity: the quota in bytes; in_use: the VRAM the user holds, in
 * bytes]; or past the ``dmem.max`` of the caller's dmem cgroup or of an
 * ancestor, even after a cleanup of the client's pools and of the free
 * cached pages charged inside that cgroup [size; pool:
 * %DRM_VRAMPOOL_QUOTA_CGROUP; capacity and in_use: 0, the cgroup's
 * ``dmem.max`` and ``dmem.current`` say them] (-EDQUOT)
 */
#define DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED		17
/**
 * DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE - a FREE_BATCH names a handle an
 * earlier entry of the same batch names too (-EINVAL)
 */
#define DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE	18

/* Per-user limits, for &drm_vrampool_alloc_error.pool with %DRM_VRAMPOOL_ERR_CLIENT_LIMIT */
/** DRM_VRAMPOOL_QUOTA_DEVICE - the device's ``vram_quota`` (&drm_vrampool_alloc_error.pool) */
#define DRM_VRAMPOOL_QUOTA_DEVICE		0
/**
 * DRM_VRAMPOOL_QUOTA_CGROUP - a dmem cgroup's ``dmem.max`` for the device's
 * region ``drm/<unique>/vram``, where the kernel has the dmem controller
 * (&drm_vrampool_alloc_error.pool)
 */
#define DRM_VRAMPOOL_QUOTA_CGROUP		1
/** DRM_VRAMPOOL_LIMIT_ALLOCATIONS - live allocations (module parameter max_allocations) */
#define DRM_VRAMPOOL_LIMIT_ALLOCATIONS		1
/** DRM_VRAMPOOL_LIMIT_PAGES - pool pages of all the user's pools (module parameter max_pages) */
#define DRM_VRAMPOOL_LIMIT_PAGES		2

/* Fields, for &struct drm_vrampool_layout_error.field */
#define DRM_VRAMPOOL_FIELD_NONE			0
#define DRM_VRAMPOOL_FIELD_PAGE_SIZE		1
#define DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE	2
#define DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE	3
#define DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE	4
#define DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD	5
#define DRM_VRAMPOOL_FIELD_RECLAIM_AT		6
#define DRM_VRAMPOOL_FIELD_TYPE			7
#define DRM_VRAMPOOL_FIELD_ENTRY_FLAGS		8
#define DRM_VRAMPOOL_FIELD_ENTRY_RESERVED	9
#define DRM_VRAMPOOL_FIELD_FLAGS		10
#define DRM_VRAMPOOL_FIELD_PRESET		11
#define DRM_VRAMPOOL_FIELD_ENTRIES		12
#define DRM_VRAMPOOL_FIELD_COUNT		13
#define DRM_VRAMPOOL_FIELD_ENTRY_SIZE		14
#define DRM_VRAMPOOL_FIELD_PAD			15
#define DRM_VRAMPOOL_FIELD_RESERVED		16

/** DRM_VRAMPOOL_NO_ENTRY - &drm_vrampool_layout_error.entry when no entry is at fault */
#define DRM_VRAMPOOL_NO_ENTRY			0xffffffffu

/**
 * struct drm_vrampool_layout_error - why a layout was refused
 *
 * Filled in by the kernel whenever %DRM_IOCTL_VRAMPOOL_POOL_INSTALL fails
 * because of the request; all zero on success and on failures unrelated to
 * the layout (-EFAULT, -ENOMEM, -EINTR).
 */
struct drm_vrampool_layout_error {
	/** @code: [out] a ``DRM_VRAMPOOL_ERR_*`` code */
	__u32 code;

	/** @entry: [out] index of the entry at fault, or %DRM_VRAMPOOL_NO_ENTRY */
	__u32 entry;

	/** @field: [out] the field at fault, a ``DRM_VRAMPOOL_FIELD_*`` value */
	__u32 field;

	/** @pad: [out] zero */
	__u32 pad;

	/** @value: [out] the code's payload, as documented beside each code */
	__u64 value[2];
};

/**
 * struct drm_vrampool_pool_install - replace the client's pool layout
 *
 * Used with %DRM_IOCTL_VRAMPOOL_POOL_INSTALL. Either @preset names a preset
 * (and @entries, @count stay 0) or @preset is %DRM_VRAMPOOL_PRESET_NONE and
 * @entries points to @count entries of @entry_size bytes each.
 *
 * Return: 0 on success; on failure -1 with errno set and @error filled in:
 * -EINVAL, -E2BIG, -EOPNOTSUPP, -EOVERFLOW or -EBUSY as the error code
 * says; -EFAULT for an unreadable, NULL or misaligned @entries; -ENOMEM;
 * -EINTR when interrupted before anything changed (call again).
 */
struct drm_vrampool_pool_install {
	/** @flags: [in] ``DRM_VRAMPOOL_INSTALL_*`` flags */
	__u32 flags;

	/** @preset: [in] a ``DRM_VRAMPOOL_PRESET_*`` value */
	__u32 preset;

	/**
	 * @entries: [in] user pointer to an array of
	 * &struct drm_vrampool_pool_entry, 8-byte aligned
	 */
	__u64 entries;

	/** @count: [in] number of entries */
	__u32 count;

	/** @entry_size: [in] sizeof(struct drm_vrampool_pool_entry), or 0 with a preset */
	__u32 entry_size;

	/** @generation: [out] layout generation now in force (unchanged unless installed) */
	__u64 generation;

	/** @num_pools: [out] dynamic pools of the resolved layout */
	__u32 num_pools;

	/** @pad: must be zero */
	__u32 pad;

	/** @error: [out] why the layout was refused */
	struct drm_vrampool_layout_error error;

	/** @reserved: must be zero */
	__u64 reserved[2];
};

/**
 * struct drm_vrampool_pool_status - one live pool, as POOL_QUERY reports it
 */
struct drm_vrampool_pool_status {
	/** @config: the resolved pool; type %DRM_VRAMPOOL_POOL_PERSISTENT at 255 */
	struct drm_vrampool_pool_entry config;

	/** @index: position in the layout, or %DRM_VRAMPOOL_PERSISTENT_POOL */
	__u32 index;

	/** @pad: zero */
	__u32 pad;

	/** @allocations: live allocations */
	__u64 allocations;

	/** @bytes_in_use: bytes requested by live allocations */
	__u64 bytes_in_use;

	/** @padding: alignment padding of live allocations, in bytes */
	__u64 padding;

	/** @reserved_bytes: VRAM the pool holds (its pages or buffers), in bytes */
	__u64 reserved_bytes;

	/** @pages: pages (or buffers) the pool holds */
	__u64 pages;

	/** @pages_peak: most pages held since the layout was installed */
	__u64 pages_peak;

	/** @largest_alloc: largest allocation served since the layout was installed */
	__u64 largest_alloc;

	/**
	 * @pages_made: pages (or buffers) the pool has made since the layout
	 * was installed (the persistent pool: since the file was opened);
	 * @pages_made less @pages is how many it gave back to the device. A
	 * count that grows with few live allocations is a pool that keeps
	 * making and releasing pages.
	 */
	__u64 pages_made;

	/** @reserved: zero */
	__u64 reserved;
};

/**
 * struct drm_vrampool_pool_query - read the client's live layout
 *
 * Used with %DRM_IOCTL_VRAMPOOL_POOL_QUERY, in two steps: call with @size
 * 0 to learn the size of the answer, then with @size set to it and @pools
 * pointing to that many bytes. The answer lists the dynamic pools in layout
 * order, then the persistent pool. When @size is neither 0 nor the size
 * needed (the layout changed in between) the call fails with -EINVAL and
 * @size holds the size needed now.
 */
struct drm_vrampool_pool_query {
	/** @size: [in/out] bytes at @pools */
	__u32 size;

	/** @flags: must be zero */
	__u32 flags;

	/** @pools: [in] user pointer to &struct drm_vrampool_pool_status entries */
	__u64 pools;

	/** @generation: [out] layout generation the answer describes */
	__u64 generation;

	/** @num_pools: [out] dynamic pools in the layout (the persistent pool not counted) */
	__u32 num_pools;

	/** @pad: must be zero */
	__u32 pad;

	/**
	 * @vram_in_use: [out] VRAM charged to this client, in bytes: what its
	 * pools hold plus its orphans (pages released while still mapped)
	 */
	__u64 vram_in_use;

	/** @persistent_mode: [out] the client's ``DRM_VRAMPOOL_PERSISTENT_*`` mode */
	__u32 persistent_mode;

	/** @pad2: must be zero */
	__u32 pad2;

	/** @reserved: must be zero */
	__u64 reserved[2];
};

/**
 * DOC: allocations
 *
 * %DRM_IOCTL_VRAMPOOL_ALLOC serves a size from the client's pools: from the
 * persistent pool when asked (%DRM_VRAMPOOL_ALLOC_PERSISTENT) or when the
 * client's persistent mode says so, otherwise from the first pool in layout
 * order that accepts the size. A capped sliced pool that is full passes the
 * request on to the next pool that accepts it. A size no pool accepts,
 * including one so large that aligning it would pass 2^64 - 1, fails with
 * -EFBIG (%DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG). When VRAM is exhausted the
 * kernel runs an explicit cleanup of the client's pools (free pages go back
 * to the device) and tries once more.
 *
 * A zero-size request never takes a page, in any pool type: it is served
 * by the pool the rules above pick, counted in that pool's allocations
 * (POOL_QUERY, sysfs) and freed like any other allocation, but its answer
 * has @page %DRM_VRAMPOOL_NO_PAGE, @offset, @padding, @mmap_offset and
 * @page_size 0, and it holds no VRAM and no kernel memory beyond its
 * handle. It does not move an exclusive pool's running average.
 *
 * The limits are a user's, not an open file's: the files a user opens
 * (the real uid of the task that opened each) hold together at most the
 * module parameter ``max_allocations`` live allocations, zero-size ones
 * included (default 1048576), and at most ``max_pages`` pool pages across
 * all their pools, the persistent ones and free cached pages included
 * (default 65536), however many files the user opens. An ALLOC past
 * either fails with -EDQUOT (%DRM_VRAMPOOL_ERR_CLIENT_LIMIT, which limit
 * in @error.pool, what the user holds in @error.in_use) and leaves nothing
 * behind: no handle, no page. A request that needs a new page at the page
 * limit first runs an explicit cleanup of the client's pools, as for
 * exhausted VRAM, then takes the free cached pages of the user's other
 * files, and fails only if the user still holds that many pages. Freeing makes room
 * again. The kernel memory of allocations, pages and pools is charged to
 * the memory cgroup of the task that makes them.
 *
 * A device may also limit the VRAM one user holds: its sysfs file
 * ``vram_quota`` (bytes, 0 for none; root may write it, and its default is
 * the module parameter of the same name). The VRAM of every page the
 * pools of the user's files hold counts, free cached pages and orphans
 * included (whole CPU pages, as fdinfo's ``drm-total-vram``; the user's
 * sum is fdinfo's ``vrampool-user-vram``). A request whose new page would
 * take the user past the quota first runs an explicit cleanup of the
 * client's pools, then takes the free cached pages of the user's other
 * files, then fails with -EDQUOT (%DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED:
 * @error.capacity the quota, @error.in_use the VRAM the user holds,
 * @error.size the request) and leaves nothing behind. Lowering the quota takes nothing away; it
 * only refuses new pages.
 *
 * Where the kernel has the dmem cgroup controller, each device's VRAM is
 * the region ``drm/<unique>/vram`` (sysfs ``vrampool/dmem_region``): every
 * pool page is charged to the dmem cgroup of the task whose ALLOC made it,
 * and a ``dmem.max`` that refuses a new page works as ``vram_quota`` does,
 * with the free cached pages charged inside the refusing cgroup reclaimed
 * instead of the user's (%DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, @error.pool
 * %DRM_VRAMPOOL_QUOTA_CGROUP). ``dmem.min`` and ``dmem.low`` protect a
 * cgroup's cached pages from other clients' reclaim (DOC: dmem cgroup in
 * the driver's documentation).
 *
 * When VRAM itself cannot hold a new page, even after the explicit cleanup
 * of the client's own pools, the kernel reclaims the free cached pages of
 * the device's other clients (wholly free sliced pages, free exclusive
 * pages, free direct and persistent buffers; never a page with a live
 * allocation in it), the client whose last ALLOC is oldest first, only as
 * many pages as the new page needs (its VRAM less what is free), and tries
 * again after each step; only when no other client has a free page left
 * does the request fail with %DRM_VRAMPOOL_ERR_OUT_OF_MEMORY. A client that
 * allocated recently comes last, but is not spared. A request whose page
 * is larger than the device's VRAM, or than ``vram_quota``, fails at once
 * (%DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, %DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED),
 * before any cleanup or reclaim; one that the free VRAM and all the other
 * clients' free cached pages could not make room for, or that would pass
 * the quota by more than the user's other files' free cached pages, fails
 * the same way after the client's own cleanup, taking nothing from them.
 * A reclaiming ALLOC waiting for another
 * client that a fatal signal interrupts fails with -EINTR. What others
 * took from a client is in its fdinfo (``vrampool-reclaimed-bytes``,
 * ``vrampool-reclaimed-pages``) and sysfs.
 *
 * The answer names the allocation by an opaque @handle, valid in this open
 * file only (and in the files that share it through dup() or fork(): they
 * are the same open file). Handles are never 0 and are handed out
 * cyclically, skipping live handles, from 1 to max(65536, 4 times the
 * file's live allocations) and from 1 again: a freed handle is not reused
 * at once, but only after at least 49,152 others have been handed out
 * since, so a stale or repeated FREE of a recently freed handle fails with
 * -ENOENT (%DRM_VRAMPOOL_ERR_NOT_FOUND) rather than freeing another
 * allocation. (The window keeps the kernel's handle table at a few bytes
 * per allocation, however the live handles are spread.) The
 * answer also places the allocation: pool, page, offset in the page,
 * the alignment padding after it, and the mmap offset of its page. Map the
 * page with mmap(MAP_SHARED) at @mmap_offset (MAP_PRIVATE is refused with
 * -EINVAL); the allocation starts @offset bytes in. A mapping keeps its
 * page alive until munmap(), even after the allocation is freed.
 *
 * A page given back to the device (by a cleanup, an install's cleanup or
 * a pool's own reclaim) while still mapped is an orphan: it keeps
 * its VRAM, in VRAM (it is never moved to system RAM, so the mapping goes
 * on reading and writing the same bytes), until its last mapping goes, and
 * stays charged to the client meanwhile: in
 * &drm_vrampool_pool_query.vram_in_use, fdinfo's drm-total-vram and
 * drm-resident-vram, the client's sysfs ``vram`` file, and fdinfo's
 * ``vrampool-orphan-vram`` (bytes) and ``vrampool-orphans`` (count). A
 * page's VRAM need not be contiguous in the device; the mapping hides it.
 *
 * A page index names the page in its pool for the page's whole life, and
 * no two live pages of a pool share one. Sliced, exclusive and persistent
 * pools number their pages in the order they make them, 0, 1, 2, ...: a new
 * page takes the index after the previous new page's, never the index of
 * a page released in between; after 0xfffffffe (0xffffffff is
 * %DRM_VRAMPOOL_NO_PAGE) the numbering starts again at 0, skipping the
 * indices live pages hold. A direct pool's page index is its slot, which
 * CubeCL calls the slice index: a new buffer takes the slot of the buffer
 * released last, else a new slot after all the others. Where an allocation
 * lands does not depend on the numbering: pools visit, reuse and release
 * their pages in CubeCL's order, older pages first (direct pools: lower
 * slots first), which is index order until the numbering wraps.
 *
 * %DRM_IOCTL_VRAMPOOL_FREE returns an allocation to its pool;
 * %DRM_IOCTL_VRAMPOOL_CLEANUP returns every wholly free page (and free
 * direct and persistent buffer) of the client to the device. Closing the
 * file frees everything it owned.
 *
 * Installing a layout runs an explicit cleanup first, then fails with
 * -EBUSY (%DRM_VRAMPOOL_ERR_POOLS_IN_USE, payload the live bytes) while any
 * allocation of the dynamic pools lives, zero-size ones included.
 * Persistent allocations never block an install and keep their handle,
 * data and mapping across installs.
 */

/** DRM_VRAMPOOL_ALLOC_PERSISTENT - serve from the persistent pool (index 255) */
#define DRM_VRAMPOOL_ALLOC_PERSISTENT		0x1u
/** DRM_VRAMPOOL_ALLOC_FLAGS - every valid allocation flag */
#define DRM_VRAMPOOL_ALLOC_FLAGS		DRM_VRAMPOOL_ALLOC_PERSISTENT

/** DRM_VRAMPOOL_NO_PAGE - &drm_vrampool_alloc.page of a zero-size allocation: it has no page */
#define DRM_VRAMPOOL_NO_PAGE			0xffffffffu

/**
 * struct drm_vrampool_alloc_error - why an allocation failed
 */
struct drm_vrampool_alloc_error {
	/** @code: [out] a ``DRM_VRAMPOOL_ERR_*`` code, 0 on success */
	__u32 code;

	/**
	 * @pool: [out] the pool at fault, when one is (capacity exceeded);
	 * with %DRM_VRAMPOOL_ERR_CLIENT_LIMIT, the limit reached, a
	 * ``DRM_VRAMPOOL_LIMIT_*`` value; with
	 * %DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, which quota, a
	 * ``DRM_VRAMPOOL_QUOTA_*`` value
	 */
	__u32 pool;

	/** @size: [out] the requested size */
	__u64 size;

	/**
	 * @capacity: [out] the capped pool's capacity, in bytes; with
	 * %DRM_VRAMPOOL_ERR_CLIENT_LIMIT, the limit (allocations or pages);
	 * with %DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, the quota in bytes (0 for
	 * a dmem cgroup's)
	 */
	__u64 capacity;

	/**
	 * @in_use: [out] bytes in use in that pool; with
	 * %DRM_VRAMPOOL_ERR_CLIENT_LIMIT, the allocations or pages the client
	 * holds; with %DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED, the bytes of VRAM it
	 * holds (0 for a dmem cgroup's quota)
	 */
	__u64 in_use;
};

/**
 * struct drm_vrampool_alloc - allocate from the client's pools
 *
 * Used with %DRM_IOCTL_VRAMPOOL_ALLOC. Fails with -EINVAL for unknown
 * flags or a non-zero @pad, @pad2 or @reserved; -EFBIG, -ENOSPC or -EDQUOT
 * as @error says; -ENOMEM without kernel memory (the kernel memory of an
 * allocation is charged to the caller's memory cgroup, so -ENOMEM also
 * comes at its limit); -EINTR when interrupted.
 */
struct drm_vrampool_alloc {
	/**
	 * @size: [in] bytes wanted; 0 is a valid size, whose allocation has
	 * no page (see "allocations")
	 */
	__u64 size;

	/** @flags: [in] ``DRM_VRAMPOOL_ALLOC_*`` flags */
	__u32 flags;

	/** @handle: [out] the allocation's handle, never 0 */
	__u32 handle;

	/** @pool: [out] index of the serving pool, 255 for the persistent pool */
	__u32 pool;

	/**
	 * @page: [out] index of the page in its pool (stable while the page
	 * lives; see "allocations"), or %DRM_VRAMPOOL_NO_PAGE
	 */
	__u32 page;

	/** @offset: [out] offset of the allocation in its page */
	__u64 offset;

	/** @padding: [out] alignment padding after the allocation, in bytes */
	__u64 padding;

	/** @mmap_offset: [out] offset to mmap() the page at; 0 when there is no page */
	__u64 mmap_offset;

	/** @page_size: [out] bytes of the page (its mapping may be rounded up to CPU pages) */
	__u64 page_size;

	/** @error: [out] why the allocation failed */
	struct drm_vrampool_alloc_error error;

	/** @pad: must be zero */
	__u32 pad;

	/** @pad2: must be zero */
	__u32 pad2;

	/** @reserved: must be zero */
	__u64 reserved[2];
};

/**
 * struct drm_vrampool_free - free an allocation
 *
 * Used with %DRM_IOCTL_VRAMPOOL_FREE. Fails with -ENOENT for a handle this
 * file does not own, a handle already freed among them (handles are not
 * reused at once, see DOC: allocations), -EINVAL for non-zero @flags or
 * @reserved.
 */
struct drm_vrampool_free {
	/** @handle: [in] the allocation */
	__u32 handle;

	/** @flags: must be zero */
	__u32 flags;

	/** @reserved: must be zero */
	__u64 reserved;
};

/**
 * struct drm_vrampool_cleanup - give free pages back to the device
 *
 * Used with %DRM_IOCTL_VRAMPOOL_CLEANUP: an explicit cleanup of every pool
 * of the client, the persistent one included.
 */
struct drm_vrampool_cleanup {
	/** @flags: must be zero */
	__u32 flags;

	/** @pad: must be zero */
	__u32 pad;

	/** @reserved: must be zero */
	__u64 reserved;
};

/**
 * DOC: batches
 *
 * %DRM_IOCTL_VRAMPOOL_ALLOC_BATCH serves an array of requests
 * (&struct drm_vrampool_alloc_request) in one call and writes one answer
 * (&struct drm_vrampool_alloc_answer) per request; %DRM_IOCTL_VRAMPOOL_FREE_BATCH
 * frees an array of handles. Both are all or nothing.
 *
 * A batch of requests is served in array order, each exactly as one
 * %DRM_IOCTL_VRAMPOOL_ALLOC would serve it at that point (the same routing,
 * cleanup and reclaim, the same per-user limits, which count the
 * batch's earlier requests). If one request fails, the call fails with
 * the errno a single ALLOC of that request would give, @failed naming the
 * request's index and @error the reason (the codes of &struct
 * drm_vrampool_alloc_error), and leaves what these steps leave:
 *
 * 1. a single ALLOC of each request up to the refused one, in order;
 * 2. a single FREE of each request served, the last first;
 * 3. if the client's pools made a page (or buffer) meanwhile, one
 *    %DRM_IOCTL_VRAMPOOL_CLEANUP, so that VRAM goes back to the device
 *    (&drm_vrampool_pool_status.pages_made tells whether they did);
 *
 * but for the handles: the batch's are released and the handle cursor is
 * put back, so the next ALLOC gets the handle it would have got had the
 * batch never run. A request that no pool accepts, or that would pass
 * ``max_allocations``, is found before anything is served: then the
 * batch leaves everything as it was.
 *
 * So a refused batch leaves the client's handles, live allocations and
 * bytes in use as they were, and its VRAM no higher. What moves is what
 * those steps move: every request up to the refused one counts in the
 * allocation clock of the dealloc periods (an idle page that a periodic
 * pass would release in the single ALLOCs is released), moves an
 * exclusive pool's running average, and counts in the peaks
 * (&drm_vrampool_pool_status.pages_peak, .largest_alloc) and in
 * .pages_made; the cleanup gives back every free cached page of the
 * client, the ones the batch found too; a page made by the batch takes a
 * new index, and the next new page the index after it.
 *
 * The answers are written only once every request is served, and the
 * handles become valid (freeable by other threads) only after they are:
 * an @answers array that cannot be written fails the call with -EFAULT
 * and undoes every allocation of the batch the same way, except the handle
 * cursor: the answers written before the fault name the batch's handles,
 * so the cursor stays past them, and a stale FREE of one fails with
 * -ENOENT instead of freeing a later allocation given the same handle.
 * (The handles themselves are released, as after any refusal.)
 *
 * A batch of handles is checked whole before anything is freed: a handle
 * the file does not own fails with -ENOENT (%DRM_VRAMPOOL_ERR_NOT_FOUND),
 * one an earlier entry of the batch names too with -EINVAL
 * (%DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE), @failed naming the first such
 * entry; then every handle is freed.
 *
 * Both ioctls take at most %DRM_VRAMPOOL_BATCH_MAX entries (-E2BIG above;
 * the kernel's copy of the arrays is bounded by it and charged to the
 * caller's memory cgroup). A @count of 0 is a valid batch that does
 * nothing and reads no array. The client lock is taken once to serve or
 * free the whole batch, and ALLOC_BATCH writes its answers under it;
 * only when a page of @answers must first be faulted in does it write
 * them without the lock, with the handles held back, and take the lock
 * once more to make them valid.
 *
 * Every allocation and free a successful batch makes emits the
 * ``vrampool_alloc`` and ``vrampool_free`` tracepoints like the single
 * ioctls, and each batch one ``vrampool_batch`` event with its result.
 */

/**
 * DRM_VRAMPOOL_BATCH_MAX - most requests or handles of one batch
 */
#define DRM_VRAMPOOL_BATCH_MAX			1024

/**
 * struct drm_vrampool_alloc_request - one request of an ALLOC_BATCH
 */
struct drm_vrampool_alloc_request {
	/** @size: [in] bytes wanted, as &drm_vrampool_alloc.size */
	__u64 size;

	/** @flags: [in] ``DRM_VRAMPOOL_ALLOC_*`` flags */
	__u32 flags;

	/** @pad: must be zero */
	__u32 pad;
};

/**
 * struct drm_vrampool_alloc_answer - where one request of an ALLOC_BATCH
 * was served: the answer fields of &struct drm_vrampool_alloc
 */
struct drm_vrampool_alloc_answer {
	/** @handle: [out] the allocation's handle, never 0 */
	__u32 handle;

	/** @pool: [out] index of the serving pool, 255 for the persistent pool */
	__u32 pool;

	/** @page: [out] index of the page in its pool, or %DRM_VRAMPOOL_NO_PAGE */
	__u32 page;

	/** @pad: [out] zero */
	__u32 pad;

	/** @offset: [out] offset of the allocation in its page */
	__u64 offset;

	/** @padding: [out] alignment padding after the allocation, in bytes */
	__u64 padding;

	/** @mmap_offset: [out] offset to mmap() the page at; 0 when there is no page */
	__u64 mmap_offset;

	/** @page_size: [out] bytes of the page */
	__u64 page_size;
};

/**
 * struct drm_vrampool_alloc_batch - allocate an array of requests, all or
 * nothing
 *
 * Used with %DRM_IOCTL_VRAMPOOL_ALLOC_BATCH (DOC: batches).
 *
 * Return: 0 with every answer written; on failure -1 with errno set and
 * nothing allocated: -EINVAL for non-zero @flags, @pad or @reserved (and
 * @failed %DRM_VRAMPOOL_NO_ENTRY), or for a request with unknown flags or
 * a non-zero pad (@failed its index, @error.code
 * %DRM_VRAMPOOL_ERR_INVALID_ARGUMENT); -E2BIG when @count passes
 * %DRM_VRAMPOOL_BATCH_MAX; -EFAULT when @requests cannot be read or
 * @answers written; -EFBIG, -ENOSPC or -EDQUOT as @error says, for the
 * request @failed; -ENOMEM; -EINTR when interrupted.
 */
struct drm_vrampool_alloc_batch {
	/** @requests: [in] user pointer to @count &struct drm_vrampool_alloc_request */
	__u64 requests;

	/** @answers: [in] user pointer to room for @count &struct drm_vrampool_alloc_answer */
	__u64 answers;

	/** @count: [in] requests in the batch, at most %DRM_VRAMPOOL_BATCH_MAX */
	__u32 count;

	/** @flags: must be zero */
	__u32 flags;

	/**
	 * @failed: [out] index of the request that failed, or
	 * %DRM_VRAMPOOL_NO_ENTRY when none did (success, or a failure of the
	 * batch as a whole)
	 */
	__u32 failed;

	/** @pad: must be zero */
	__u32 pad;

	/** @error: [out] why request @failed failed, 0 on success */
	struct drm_vrampool_alloc_error error;

	/** @reserved: must be zero */
	__u64 reserved[2];
};

/**
 * struct drm_vrampool_free_batch - free an array of handles, all or nothing
 *
 * Used with %DRM_IOCTL_VRAMPOOL_FREE_BATCH (DOC: batches).
 *
 * Return: 0 with every handle freed; on failure -1 with errno set and
 * nothing freed: -ENOENT (%DRM_VRAMPOOL_ERR_NOT_FOUND) or -EINVAL
 * (%DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE) for the handle at @failed; -EINVAL
 * for non-zero @flags or @reserved; -E2BIG when @count passes
 * %DRM_VRAMPOOL_BATCH_MAX; -EFAULT when @handles cannot be read; -ENOMEM;
 * -EINTR only when the task is being killed.
 */
struct drm_vrampool_free_batch {
	/** @handles: [in] user pointer to @count __u32 handles */
	__u64 handles;

	/** @count: [in] handles in the batch, at most %DRM_VRAMPOOL_BATCH_MAX */
	__u32 count;

	/** @flags: must be zero */
	__u32 flags;

	/** @failed: [out] index of the handle at fault, or %DRM_VRAMPOOL_NO_ENTRY */
	__u32 failed;

	/** @code: [out] a ``DRM_VRAMPOOL_ERR_*`` code, 0 on success */
	__u32 code;

	/** @reserved: must be zero */
	__u64 reserved;
};

/* Persistent modes, for &struct drm_vrampool_persistent_mode.mode */
/** DRM_VRAMPOOL_PERSISTENT_ENABLED - persistent only when asked (the default) */
#define DRM_VRAMPOOL_PERSISTENT_ENABLED		0
/**
 * DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH - also serve other requests whose
 * aligned size the persistent pool already has a buffer of
 */
#define DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH	1
/** DRM_VRAMPOOL_PERSISTENT_DISABLED - never: the flag is ignored */
#define DRM_VRAMPOOL_PERSISTENT_DISABLED	2
/** DRM_VRAMPOOL_PERSISTENT_ENFORCED - always: every request is persistent */
#define DRM_VRAMPOOL_PERSISTENT_ENFORCED	3

/**
 * struct drm_vrampool_persistent_mode - set the client's persistent mode
 *
 * Used with %DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE; -EINVAL for an unknown
 * mode or a non-zero @pad.
 */
struct drm_vrampool_persistent_mode {
	/** @mode: [in] the new mode; [out] the previous one */
	__u32 mode;

	/** @pad: must be zero */
	__u32 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_DRM_VRAMPOOL_ACCEL_H__ */

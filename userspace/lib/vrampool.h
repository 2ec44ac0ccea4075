/* SPDX-License-Identifier: MIT */
/*
 * libvrampool: the userspace side of the vrampool accel driver.
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure; they never print and never exit.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_H
#define VRAMPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/vrampool_accel.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest device path or name the library reports, with its NUL. */
#define VRAMPOOL_NAME_MAX 64

/** What backs a device's VRAM. */
enum vrampool_backend {
	VRAMPOOL_BACKEND_UNKNOWN = 0,
	VRAMPOOL_BACKEND_EMULATED,	/* kernel memory (a platform device) */
	VRAMPOOL_BACKEND_PCI_BAR,	/* a PCI memory BAR */
};

/** A device's properties, as GET_PARAM and sysfs report them. */
struct vrampool_device_info {
	char path[VRAMPOOL_NAME_MAX];	/* /dev/accel/accelN */
	char name[VRAMPOOL_NAME_MAX];	/* parent device, e.g. vrampool.0 */
	enum vrampool_backend backend;
	uint64_t vram_size;
	uint64_t vram_in_use;
	uint64_t alignment;
	uint64_t max_page_size;
	bool exclusive_memory_only;
	uint32_t max_dynamic_pools;
	uint32_t persistent_pool;
	uint32_t abi_version;
};

/**
 * vrampool_list_devices() - find the accel nodes driven by vrampool
 * @paths: filled with up to @max paths, in minor order
 * @max: capacity of @paths
 *
 * Return: how many devices exist (may exceed @max), or a negative errno.
 */
int vrampool_list_devices(char (*paths)[VRAMPOOL_NAME_MAX], int max);

/**
 * vrampool_open() - open a device node read-write with O_CLOEXEC
 * Return: a file descriptor, or a negative errno.
 */
int vrampool_open(const char *path);

/**
 * vrampool_get_param() - read one DRM_VRAMPOOL_PARAM_* value
 * Return: 0 or a negative errno (-EINVAL for an unknown parameter).
 */
int vrampool_get_param(int fd, uint32_t param, uint64_t *value);

/**
 * vrampool_device_info() - read every property of an open device
 * @fd: the device
 * @path: the path it was opened from, used to find its sysfs entry
 * @info: filled in
 *
 * Return: 0 or a negative errno.
 */
int vrampool_device_info(int fd, const char *path, struct vrampool_device_info *info);

/** vrampool_backend_name() - "emulated", "pci-bar" or "unknown" */
const char *vrampool_backend_name(enum vrampool_backend backend);

/* ---- Errors ------------------------------------------------------------ */

/**
 * enum vrampool_error_kind - every documented error, and one for the rest
 *
 * The first eight are the layout errors of the reference configuration
 * rules, with the same messages; %VRAMPOOL_ERR_OS carries an errno that has
 * no documented variant, so it is never mistaken for one.
 */
enum vrampool_error_kind {
	VRAMPOOL_OK = 0,
	VRAMPOOL_ERR_EMPTY_POOL_LIST,
	VRAMPOOL_ERR_ZERO_SIZE,
	VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE,
	VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE,
	VRAMPOOL_ERR_TOO_MANY_PAGES,
	VRAMPOOL_ERR_TOO_MANY_POOLS,
	VRAMPOOL_ERR_PRESET_UNAVAILABLE,
	VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE,
	VRAMPOOL_ERR_SIZE_OVERFLOW,
	VRAMPOOL_ERR_POOLS_IN_USE,
	VRAMPOOL_ERR_INVALID_ARGUMENT,
	VRAMPOOL_ERR_OS,
	/* allocation */
	VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED,
	VRAMPOOL_ERR_BUFFER_TOO_BIG,
	VRAMPOOL_ERR_OUT_OF_MEMORY,
	VRAMPOOL_ERR_NOT_FOUND,
	VRAMPOOL_ERR_CLIENT_LIMIT,
	VRAMPOOL_ERR_QUOTA_EXCEEDED,
	/* batches (libvrampool VRAMPOOL_1.1) */
	VRAMPOOL_ERR_DUPLICATE_HANDLE,
};

/**
 * struct vrampool_error - a failed call, as a documented variant
 *
 * Only the payload fields of @kind are meaningful; the others are 0.
 */
struct vrampool_error {
	enum vrampool_error_kind kind;
	int os_errno;		/* the errno of the failed call (0: checked client-side) */
	uint32_t entry;		/* entry at fault, or DRM_VRAMPOOL_NO_ENTRY */
	uint32_t field;		/* DRM_VRAMPOOL_FIELD_* the kernel named (meaningful for
				 * ZERO_SIZE, SIZE_OVERFLOW, INVALID_ARGUMENT) */
	uint64_t page_size;	/* SLICE_LARGER_THAN_PAGE, CAP_SMALLER_THAN_PAGE */
	uint64_t max_slice_size; /* SLICE_LARGER_THAN_PAGE */
	uint64_t max_pool_size;	/* CAP_SMALLER_THAN_PAGE */
	uint64_t pages;		/* TOO_MANY_PAGES */
	uint64_t count;		/* TOO_MANY_POOLS */
	uint32_t preset;	/* PRESET_UNAVAILABLE */
	uint64_t size;		/* SIZE_OVERFLOW: the size that overflowed */
	uint64_t alignment;	/* SIZE_OVERFLOW */
	uint64_t bytes_in_use;	/* POOLS_IN_USE */
	uint64_t value;		/* INVALID_ARGUMENT: the offending value */
	uint64_t capacity;	/* POOL_CAPACITY_EXCEEDED: the capped pool's capacity;
				 * CLIENT_LIMIT: the limit;
				 * QUOTA_EXCEEDED: the device's vram_quota, bytes
				 * (0 for a dmem cgroup's dmem.max) */
	uint64_t in_use;	/* POOL_CAPACITY_EXCEEDED: bytes in use in it;
				 * CLIENT_LIMIT: what the user holds of the limit;
				 * QUOTA_EXCEEDED: bytes of VRAM the user holds
				 * (0 for a dmem cgroup's dmem.max) */
	uint32_t pool;		/* POOL_CAPACITY_EXCEEDED: its index */
	uint32_t handle;	/* NOT_FOUND, DUPLICATE_HANDLE: the handle */
	uint32_t limit;		/* CLIENT_LIMIT: which, a DRM_VRAMPOOL_LIMIT_* value;
				 * QUOTA_EXCEEDED: which, a DRM_VRAMPOOL_QUOTA_* value */
	/* size: also POOL_CAPACITY_EXCEEDED, BUFFER_TOO_BIG, OUT_OF_MEMORY, CLIENT_LIMIT,
	 * QUOTA_EXCEEDED */
};

/**
 * vrampool_error_message() - the error's message
 * @err: the error
 * @buf: where to write it, NUL-terminated
 * @len: size of @buf
 *
 * Return: the length of the whole message, as snprintf() counts it.
 */
int vrampool_error_message(const struct vrampool_error *err, char *buf, size_t len);

/** vrampool_error_kind_name() - "EmptyPoolList", "ZeroSize", ... */
const char *vrampool_error_kind_name(enum vrampool_error_kind kind);

/** vrampool_field_name() - "page_size", ... for a DRM_VRAMPOOL_FIELD_* value */
const char *vrampool_field_name(uint32_t field);

/**
 * vrampool_limit_name() - "max_allocations" or "max_pages", the module
 * parameter of a DRM_VRAMPOOL_LIMIT_* value; NULL for another value
 */
const char *vrampool_limit_name(uint32_t limit);

/** vrampool_preset_name() - "sub-slices", "exclusive-pages", or NULL */
const char *vrampool_preset_name(uint32_t preset);

/**
 * vrampool_error_from_ioctl() - turn an ioctl's errno and structured error
 * into a variant
 * @err: filled in
 * @os_errno: the errno the ioctl failed with (positive)
 * @le: the structured error it returned, or NULL
 *
 * A documented variant is only reported when @le names one and its errno
 * is @os_errno; anything else is %VRAMPOOL_ERR_OS.
 */
void vrampool_error_from_ioctl(struct vrampool_error *err, int os_errno,
			       const struct drm_vrampool_layout_error *le);

/**
 * vrampool_error_from_alloc() - turn ALLOC's errno and structured error
 * into a variant
 * @err: filled in
 * @os_errno: the errno ALLOC failed with (positive)
 * @ae: the structured error it returned
 */
void vrampool_error_from_alloc(struct vrampool_error *err, int os_errno,
			       const struct drm_vrampool_alloc_error *ae);

/* ---- Layouts ----------------------------------------------------------- */

/** Most pools a resolved layout holds: room for any preset or list. */
#define VRAMPOOL_LAYOUT_MAX_POOLS DRM_VRAMPOOL_MAX_DYNAMIC_POOLS

/** The device properties a layout is resolved against. */
struct vrampool_props {
	uint64_t alignment;
	uint64_t max_page_size;
	bool exclusive_memory_only;
};

/** vrampool_props_of() - the layout properties of an open device */
int vrampool_props_of(int fd, struct vrampool_props *props);

/* Entry builders: a pool with its mandatory field; optional fields absent. */
void vrampool_entry_exclusive(struct drm_vrampool_pool_entry *e, uint64_t max_alloc_size);
void vrampool_entry_sliced(struct drm_vrampool_pool_entry *e, uint64_t page_size);
void vrampool_entry_direct(struct drm_vrampool_pool_entry *e);
/* Optional fields: each marks the field present, even with a value of 0. */
void vrampool_entry_set_max_slice_size(struct drm_vrampool_pool_entry *e, uint64_t v);
void vrampool_entry_set_max_pool_size(struct drm_vrampool_pool_entry *e, uint64_t v);
void vrampool_entry_set_dealloc_period(struct drm_vrampool_pool_entry *e, uint64_t v);
void vrampool_entry_set_reclaim_at(struct drm_vrampool_pool_entry *e, uint64_t v);

/**
 * vrampool_layout_validate() - check and resolve a layout without a device
 * @props: the device properties to resolve against
 * @preset: a DRM_VRAMPOOL_PRESET_* value; NONE for the explicit list
 * @entries: the explicit list (with %DRM_VRAMPOOL_PRESET_NONE)
 * @count: its length
 * @out: room for VRAMPOOL_LAYOUT_MAX_POOLS resolved pools
 * @out_count: how many @out holds, on success
 * @err: the error, on failure
 *
 * The same code and rules as the kernel's POOL_INSTALL.
 *
 * Return: 0 or the negative errno the kernel would give.
 */
int vrampool_layout_validate(const struct vrampool_props *props, uint32_t preset,
			     const struct drm_vrampool_pool_entry *entries, uint32_t count,
			     struct drm_vrampool_pool_entry *out, uint32_t *out_count,
			     struct vrampool_error *err);

/** What POOL_INSTALL reports on success. */
struct vrampool_install_result {
	uint64_t generation;	/* layout generation now in force */
	uint32_t num_pools;	/* dynamic pools of the resolved layout */
};

/**
 * vrampool_pool_install() - install a layout on an open device
 * @fd: the device
 * @flags: DRM_VRAMPOOL_INSTALL_* flags (TEST_ONLY: check, change nothing)
 * @preset: a DRM_VRAMPOOL_PRESET_* value; NONE for the explicit list
 * @entries: the explicit list
 * @count: its length
 * @res: filled in on success (may be NULL)
 * @err: filled in on failure (may be NULL)
 *
 * Return: 0 or a negative errno.
 */
int vrampool_pool_install(int fd, uint32_t flags, uint32_t preset,
			  const struct drm_vrampool_pool_entry *entries, uint32_t count,
			  struct vrampool_install_result *res, struct vrampool_error *err);

/**
 * vrampool_pool_query() - read the live layout and its statistics
 * @fd: the device
 * @pools: set to a malloc()ed array, dynamic pools then the persistent one
 * @count: its length
 * @generation: the layout generation it describes (may be NULL)
 *
 * Return: 0 or a negative errno.
 */
int vrampool_pool_query(int fd, struct drm_vrampool_pool_status **pools, uint32_t *count,
			uint64_t *generation);

/* ---- Allocations ------------------------------------------------------- */

/** An allocation, as ALLOC placed it. */
struct vrampool_allocation {
	uint32_t handle;	/* valid in the open file that made it */
	uint32_t pool;		/* serving pool; DRM_VRAMPOOL_PERSISTENT_POOL for 255 */
	uint32_t page;		/* page index, or DRM_VRAMPOOL_NO_PAGE */
	uint64_t size;		/* bytes asked for */
	uint64_t offset;	/* offset in the page */
	uint64_t padding;	/* alignment padding after it */
	uint64_t mmap_offset;	/* where the page maps; 0 without a page */
	uint64_t page_size;	/* bytes of the page */
};

/**
 * vrampool_alloc() - allocate from the client's pools
 * @fd: the device
 * @size: bytes (0 is valid)
 * @flags: DRM_VRAMPOOL_ALLOC_* flags
 * @out: the allocation, on success
 * @err: the error, on failure (may be NULL)
 *
 * Return: 0 or a negative errno (-EFBIG, -ENOSPC, ...).
 */
int vrampool_alloc(int fd, uint64_t size, uint32_t flags, struct vrampool_allocation *out,
		   struct vrampool_error *err);

/**
 * vrampool_free() - free an allocation
 * Return: 0, or -ENOENT (kind NOT_FOUND in @err) for an unknown handle.
 */
int vrampool_free(int fd, uint32_t handle, struct vrampool_error *err);

/** vrampool_cleanup() - give the client's free pages back to the device */
int vrampool_cleanup(int fd);

/**
 * vrampool_set_persistent_mode() - set the DRM_VRAMPOOL_PERSISTENT_* mode
 * @old: the previous mode (may be NULL)
 */
int vrampool_set_persistent_mode(int fd, uint32_t mode, uint32_t *old);

/** A CPU mapping of an allocation. */
struct vrampool_mapping {
	void *ptr;		/* the allocation's first byte */
	void *base;		/* what was mapped (the page, from its start) */
	size_t length;		/* bytes mapped */
};

/**
 * vrampool_map() - map an allocation for the CPU (MAP_SHARED, read-write)
 * @fd: the device the allocation is from
 * @a: the allocation; a zero-size allocation maps nothing (ptr NULL)
 * @m: the mapping
 *
 * The mapping covers the allocation's page from its start (CPU-page
 * granular) and keeps the page alive until vrampool_unmap().
 *
 * Return: 0 or a negative errno.
 */
int vrampool_map(int fd, const struct vrampool_allocation *a, struct vrampool_mapping *m);

/** vrampool_unmap() - undo vrampool_map() */
int vrampool_unmap(struct vrampool_mapping *m);

/* ---- Batches (VRAMPOOL_1.1; the kernel's ABI version 4) ----------------- */

/**
 * vrampool_alloc_batch() - allocate @count requests at once, all or nothing
 * @fd: the device
 * @reqs: the requests (size, DRM_VRAMPOOL_ALLOC_* flags; pad 0)
 * @count: how many, at most DRM_VRAMPOOL_BATCH_MAX (0 does nothing)
 * @out: room for @count allocations, filled on success in request order
 * @err: the error, on failure (may be NULL): the variant a single
 *	 vrampool_alloc() of the failing request gives, its index in @entry
 *	 (DRM_VRAMPOOL_NO_ENTRY when the batch as a whole was refused); an
 *	 unknown flag is INVALID_ARGUMENT, field flags
 *
 * Either every request is allocated, or none is (the kernel undoes the
 * ones it served before the failing one).
 *
 * Return: 0 or a negative errno (-EFBIG, -ENOSPC, -EDQUOT, -E2BIG, ...).
 */
int vrampool_alloc_batch(int fd, const struct drm_vrampool_alloc_request *reqs, uint32_t count,
			 struct vrampool_allocation *out, struct vrampool_error *err);

/**
 * vrampool_free_batch() - free @count handles at once, all or nothing
 * @fd: the device
 * @handles: the handles
 * @count: how many, at most DRM_VRAMPOOL_BATCH_MAX (0 does nothing)
 * @err: the error, on failure (may be NULL): NOT_FOUND for a handle the
 *	 file does not own, DUPLICATE_HANDLE for one named twice, the
 *	 handle in @handle and its index in @entry
 *
 * Every handle is checked before any is freed.
 *
 * Return: 0, -ENOENT, -EINVAL, -E2BIG or another negative errno.
 */
int vrampool_free_batch(int fd, const uint32_t *handles, uint32_t count,
			struct vrampool_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VRAMPOOL_H */

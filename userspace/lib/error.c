// SPDX-License-Identifier: MIT
/*
 * libvrampool: errors as documented variants, and their messages.
 *
 * The eight layout errors keep the exact text of the reference
 * configuration rules; the others are worded in the same style.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vrampool.h"
#include "vrampool_layout.h"
#include "vrampool_names.h"

static const char *const field_names[] = {
	[DRM_VRAMPOOL_FIELD_NONE] = "",
	[DRM_VRAMPOOL_FIELD_PAGE_SIZE] = "page_size",
	[DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE] = "max_slice_size",
	[DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE] = "max_pool_size",
	[DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE] = "max_alloc_size",
	[DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD] = "dealloc_period",
	[DRM_VRAMPOOL_FIELD_RECLAIM_AT] = "reclaim_at",
	[DRM_VRAMPOOL_FIELD_TYPE] = "type",
	[DRM_VRAMPOOL_FIELD_ENTRY_FLAGS] = "flags",
	[DRM_VRAMPOOL_FIELD_ENTRY_RESERVED] = "reserved",
	[DRM_VRAMPOOL_FIELD_FLAGS] = "flags",
	[DRM_VRAMPOOL_FIELD_PRESET] = "preset",
	[DRM_VRAMPOOL_FIELD_ENTRIES] = "entries",
	[DRM_VRAMPOOL_FIELD_COUNT] = "count",
	[DRM_VRAMPOOL_FIELD_ENTRY_SIZE] = "entry_size",
	[DRM_VRAMPOOL_FIELD_PAD] = "pad",
	[DRM_VRAMPOOL_FIELD_RESERVED] = "reserved",
};

const char *vrampool_field_name(uint32_t field)
{
	if (field < sizeof(field_names) / sizeof(field_names[0]) && field_names[field])
		return field_names[field];
	return "unknown field";
}

const char *vrampool_preset_name(uint32_t preset)
{
	switch (preset) {
	case DRM_VRAMPOOL_PRESET_SUB_SLICES:
		return "sub-slices";
	case DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES:
		return "exclusive-pages";
	default:
		return NULL;
	}
}

const char *vrampool_limit_name(uint32_t limit)
{
	switch (limit) {
	case DRM_VRAMPOOL_LIMIT_ALLOCATIONS:
		return "max_allocations";
	case DRM_VRAMPOOL_LIMIT_PAGES:
		return "max_pages";
	default:
		return NULL;
	}
}

/* The client-limit message: what was held of which limit. */
static int limit_message(const struct vrampool_error *e, char *buf, size_t len)
{
	const char *name = vrampool_limit_name(e->limit);

	if (!name)
		return snprintf(buf, len,
				"client limit %u reached (%" PRIu64 " of %" PRIu64
				") allocating %" PRIu64 " bytes",
				e->limit, e->in_use, e->capacity, e->size);
	return snprintf(buf, len,
			"client limit reached allocating %" PRIu64 " bytes: the user's files hold %"
			PRIu64 " %s, the most a user may (module parameter vrampool.%s = %"
			PRIu64 ")",
			e->size, e->in_use,
			e->limit == DRM_VRAMPOOL_LIMIT_PAGES ? "pool pages" : "live allocations",
			name, e->capacity);
}

/* The name of each variant: the documented kinds' from vrampool_names.h. */
#define VRAMPOOL_NAMES_ERROR(kind, name) [VRAMPOOL_ERR_##kind] = name,

const char *vrampool_error_kind_name(enum vrampool_error_kind kind)
{
	static const char *const names[] = {
		[VRAMPOOL_OK] = "Ok",
		[VRAMPOOL_ERR_OS] = "Os",
		VRAMPOOL_NAMES_ERRORS
	};

	if ((unsigned int)kind < sizeof(names) / sizeof(names[0]))
		return names[kind];
	return "Unknown";
}

int vrampool_error_message(const struct vrampool_error *e, char *buf, size_t len)
{
	const char *preset;

	switch (e->kind) {
	case VRAMPOOL_OK:
		return snprintf(buf, len, "success");
	case VRAMPOOL_ERR_EMPTY_POOL_LIST:
		return snprintf(buf, len, "the pool list is empty");
	case VRAMPOOL_ERR_ZERO_SIZE:
		return snprintf(buf, len, "`%s` must be non-zero", vrampool_field_name(e->field));
	case VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE:
		return snprintf(buf, len,
				"`max_slice_size` (%" PRIu64 ") exceeds `page_size` (%" PRIu64
				"); a slice can never span pages",
				e->max_slice_size, e->page_size);
	case VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE:
		return snprintf(buf, len,
				"`max_pool_size` (%" PRIu64 ") is smaller than `page_size` (%" PRIu64
				"); the cap can't fit a single page",
				e->max_pool_size, e->page_size);
	case VRAMPOOL_ERR_TOO_MANY_PAGES:
		return snprintf(buf, len,
				"`max_pool_size` spans %" PRIu64 " pages of `page_size`, exceeding the maximum of %u; increase `page_size` or lower the cap",
				e->pages, VRAMPOOL_MAX_POOL_PAGES);
	case VRAMPOOL_ERR_TOO_MANY_POOLS:
		return snprintf(buf, len,
				"the pool list has %" PRIu64 " entries, exceeding the maximum of %u dynamic pools",
				e->count, DRM_VRAMPOOL_MAX_DYNAMIC_POOLS);
	case VRAMPOOL_ERR_PRESET_UNAVAILABLE:
		preset = vrampool_preset_name(e->preset);
		return snprintf(buf, len, "the `%s` preset is not available in this build",
				preset ? preset : "unknown");
	case VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE:
		return snprintf(buf, len,
				"sliced pools are not available in this build (exclusive memory only)");
	case VRAMPOOL_ERR_SIZE_OVERFLOW:
		return snprintf(buf, len,
				"`%s` (%" PRIu64 ") overflows 64 bits when aligned up to %" PRIu64
				" bytes",
				vrampool_field_name(e->field), e->size, e->alignment);
	case VRAMPOOL_ERR_POOLS_IN_USE:
		return snprintf(buf, len,
				"the dynamic pools still hold %" PRIu64
				" bytes of live allocations; free them before installing a layout",
				e->bytes_in_use);
	case VRAMPOOL_ERR_INVALID_ARGUMENT:
		if (e->entry != DRM_VRAMPOOL_NO_ENTRY)
			return snprintf(buf, len,
					"invalid argument: entry %u has an invalid `%s` (%" PRIu64 ")",
					e->entry, vrampool_field_name(e->field), e->value);
		return snprintf(buf, len, "invalid argument: invalid `%s` (%" PRIu64 ")",
				vrampool_field_name(e->field), e->value);
	case VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED:
		return snprintf(buf, len,
				"memory pool capacity exceeded: failed to reserve %" PRIu64
				" bytes, pool is capped at %" PRIu64 " bytes (%" PRIu64 " bytes in use)",
				e->size, e->capacity, e->in_use);
	case VRAMPOOL_ERR_BUFFER_TOO_BIG:
		return snprintf(buf, len, "can't allocate buffer of size: %" PRIu64, e->size);
	case VRAMPOOL_ERR_OUT_OF_MEMORY:
		return snprintf(buf, len, "out of device memory allocating %" PRIu64 " bytes",
				e->size);
	case VRAMPOOL_ERR_NOT_FOUND:
		return snprintf(buf, len,
				"couldn't find resource for that handle: no allocation %u in this file",
				e->handle);
	case VRAMPOOL_ERR_CLIENT_LIMIT:
		return limit_message(e, buf, len);
	case VRAMPOOL_ERR_QUOTA_EXCEEDED:
		if (e->limit == DRM_VRAMPOOL_QUOTA_CGROUP)
			return snprintf(buf, len,
					"VRAM quota exceeded allocating %" PRIu64
					" bytes: a new page would pass the dmem.max of the caller's"
					" dmem cgroup or of an ancestor",
					e->size);
		return snprintf(buf, len,
				"VRAM quota exceeded allocating %" PRIu64
				" bytes: the user's files hold %" PRIu64
				" bytes of VRAM and a new page would pass the device's vram_quota of %"
				PRIu64 " bytes",
				e->size, e->in_use, e->capacity);
	case VRAMPOOL_ERR_DUPLICATE_HANDLE:
		return snprintf(buf, len, "handle %u is named twice in the batch (entry %u)",
				e->handle, e->entry);
	case VRAMPOOL_ERR_OS:
	default:
		return snprintf(buf, len, "%s (errno %d)", strerror(e->os_errno), e->os_errno);
	}
}

/* The variant of a structured error code, or VRAMPOOL_ERR_OS. */
static enum vrampool_error_kind kind_of(uint32_t code)
{
	switch (code) {
	case DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST:
		return VRAMPOOL_ERR_EMPTY_POOL_LIST;
	case DRM_VRAMPOOL_ERR_ZERO_SIZE:
		return VRAMPOOL_ERR_ZERO_SIZE;
	case DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE:
		return VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE;
	case DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE:
		return VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE;
	case DRM_VRAMPOOL_ERR_TOO_MANY_PAGES:
		return VRAMPOOL_ERR_TOO_MANY_PAGES;
	case DRM_VRAMPOOL_ERR_TOO_MANY_POOLS:
		return VRAMPOOL_ERR_TOO_MANY_POOLS;
	case DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE:
		return VRAMPOOL_ERR_PRESET_UNAVAILABLE;
	case DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE:
		return VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE;
	case DRM_VRAMPOOL_ERR_SIZE_OVERFLOW:
		return VRAMPOOL_ERR_SIZE_OVERFLOW;
	case DRM_VRAMPOOL_ERR_POOLS_IN_USE:
		return VRAMPOOL_ERR_POOLS_IN_USE;
	case DRM_VRAMPOOL_ERR_INVALID_ARGUMENT:
		return VRAMPOOL_ERR_INVALID_ARGUMENT;
	default:
		return VRAMPOOL_ERR_OS;
	}
}

/* A value of an error, from where the kernel put it (NULL: not there). */
static uint64_t value_from(enum vrampool_names_from from,
			   const struct drm_vrampool_layout_error *le,
			   const struct drm_vrampool_alloc_error *ae)
{
	switch (from) {
	case VRAMPOOL_NAMES_FROM_VALUE0:
		return le ? le->value[0] : 0;
	case VRAMPOOL_NAMES_FROM_VALUE1:
		return le ? le->value[1] : 0;
	case VRAMPOOL_NAMES_FROM_SIZE:
		return ae ? ae->size : 0;
	case VRAMPOOL_NAMES_FROM_POOL:
		return ae ? ae->pool : 0;
	case VRAMPOOL_NAMES_FROM_CAPACITY:
		return ae ? ae->capacity : 0;
	case VRAMPOOL_NAMES_FROM_IN_USE:
		return ae ? ae->in_use : 0;
	default:
		return 0;
	}
}

/*
 * The values @err's variant carries (VRAMPOOL_NAMES_VALUES), from the
 * kernel's structured error; those the request named are the caller's to set.
 */
#define VRAMPOOL_NAMES_VALUE(k, member, key, from)				\
	if (err->kind == VRAMPOOL_ERR_##k &&					\
	    VRAMPOOL_NAMES_FROM_##from != VRAMPOOL_NAMES_FROM_REQUEST)		\
		err->member = value_from(VRAMPOOL_NAMES_FROM_##from, le, ae);

static void take_values(struct vrampool_error *err, const struct drm_vrampool_layout_error *le,
			const struct drm_vrampool_alloc_error *ae)
{
	VRAMPOOL_NAMES_VALUES
}

void vrampool_error_from_ioctl(struct vrampool_error *err, int os_errno,
			       const struct drm_vrampool_layout_error *le)
{
	memset(err, 0, sizeof(*err));
	err->os_errno = os_errno;
	err->entry = DRM_VRAMPOOL_NO_ENTRY;
	err->kind = VRAMPOOL_ERR_OS;
	/* Negate the code's errno, never the caller's (-INT_MIN overflows). */
	if (!le || !le->code || -vrampool_layout_error_errno(le->code) != os_errno ||
	    kind_of(le->code) == VRAMPOOL_ERR_OS)
		return;

	err->kind = kind_of(le->code);
	err->entry = le->entry;
	err->field = le->field;
	take_values(err, le, NULL);
}

void vrampool_error_from_alloc(struct vrampool_error *err, int os_errno,
			       const struct drm_vrampool_alloc_error *ae)
{
	memset(err, 0, sizeof(*err));
	err->os_errno = os_errno;
	err->entry = DRM_VRAMPOOL_NO_ENTRY;
	err->kind = VRAMPOOL_ERR_OS;

	switch (ae ? ae->code : DRM_VRAMPOOL_ERR_NONE) {
	case DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED:
		if (os_errno != ENOSPC)
			return;
		err->kind = VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED;
		break;
	case DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG:
		if (os_errno != EFBIG)
			return;
		err->kind = VRAMPOOL_ERR_BUFFER_TOO_BIG;
		break;
	case DRM_VRAMPOOL_ERR_OUT_OF_MEMORY:
		if (os_errno != ENOSPC)
			return;
		err->kind = VRAMPOOL_ERR_OUT_OF_MEMORY;
		break;
	case DRM_VRAMPOOL_ERR_CLIENT_LIMIT:
		if (os_errno != EDQUOT)
			return;
		err->kind = VRAMPOOL_ERR_CLIENT_LIMIT;
		break;
	case DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED:
		if (os_errno != EDQUOT)
			return;
		err->kind = VRAMPOOL_ERR_QUOTA_EXCEEDED;
		break;
	default:
		return;
	}
	take_values(err, NULL, ae);
}

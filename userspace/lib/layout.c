// SPDX-License-Identifier: MIT
/*
 * libvrampool: building, checking, installing and reading pool layouts.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "vrampool.h"
#include "vrampool_layout.h"

void vrampool_entry_exclusive(struct drm_vrampool_pool_entry *e, uint64_t max_alloc_size)
{
	memset(e, 0, sizeof(*e));
	e->type = DRM_VRAMPOOL_POOL_EXCLUSIVE;
	e->max_alloc_size = max_alloc_size;
}

void vrampool_entry_sliced(struct drm_vrampool_pool_entry *e, uint64_t page_size)
{
	memset(e, 0, sizeof(*e));
	e->type = DRM_VRAMPOOL_POOL_SLICED;
	e->page_size = page_size;
}

void vrampool_entry_direct(struct drm_vrampool_pool_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->type = DRM_VRAMPOOL_POOL_DIRECT;
}

void vrampool_entry_set_max_slice_size(struct drm_vrampool_pool_entry *e, uint64_t v)
{
	e->flags |= DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE;
	e->max_slice_size = v;
}

void vrampool_entry_set_max_pool_size(struct drm_vrampool_pool_entry *e, uint64_t v)
{
	e->flags |= DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE;
	e->max_pool_size = v;
}

void vrampool_entry_set_dealloc_period(struct drm_vrampool_pool_entry *e, uint64_t v)
{
	e->flags |= DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
	e->dealloc_period = v;
}

void vrampool_entry_set_reclaim_at(struct drm_vrampool_pool_entry *e, uint64_t v)
{
	e->flags |= DRM_VRAMPOOL_ENTRY_RECLAIM_AT;
	e->reclaim_at = v;
}

int vrampool_props_of(int fd, struct vrampool_props *props)
{
	uint64_t excl;
	int ret;

	ret = vrampool_get_param(fd, DRM_VRAMPOOL_PARAM_ALIGNMENT, &props->alignment);
	if (!ret)
		ret = vrampool_get_param(fd, DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE,
					 &props->max_page_size);
	if (!ret)
		ret = vrampool_get_param(fd, DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY, &excl);
	if (!ret)
		props->exclusive_memory_only = excl != 0;
	return ret;
}

int vrampool_layout_validate(const struct vrampool_props *props, uint32_t preset,
			     const struct drm_vrampool_pool_entry *entries, uint32_t count,
			     struct drm_vrampool_pool_entry *out, uint32_t *out_count,
			     struct vrampool_error *err)
{
	struct vrampool_layout_props lp = {
		.alignment = props->alignment,
		.max_page_size = props->max_page_size,
		.exclusive_memory_only = props->exclusive_memory_only,
	};
	struct drm_vrampool_layout_error le;
	int ret;

	if (preset != DRM_VRAMPOOL_PRESET_NONE) {
		ret = vrampool_layout_preset(&lp, preset, out, out_count, &le);
	} else {
		ret = vrampool_layout_resolve(&lp, entries, count, out, &le);
		*out_count = ret ? 0 : count;
	}
	if (ret && err) {
		vrampool_error_from_ioctl(err, -ret, &le);
		err->os_errno = 0;	/* found here, not by a call */
	}
	return ret;
}

int vrampool_pool_install(int fd, uint32_t flags, uint32_t preset,
			  const struct drm_vrampool_pool_entry *entries, uint32_t count,
			  struct vrampool_install_result *res, struct vrampool_error *err)
{
	struct drm_vrampool_pool_install args = {
		.flags = flags,
		.preset = preset,
	};

	/* With a preset, the kernel wants no list at all. */
	if (preset == DRM_VRAMPOOL_PRESET_NONE) {
		args.entries = (uintptr_t)entries;
		args.count = count;
		args.entry_size = sizeof(*entries);
	}

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, &args)) {
		int ret = -errno;

		if (err)
			vrampool_error_from_ioctl(err, -ret, &args.error);
		return ret;
	}
	if (res) {
		res->generation = args.generation;
		res->num_pools = args.num_pools;
	}
	return 0;
}

int vrampool_pool_query(int fd, struct drm_vrampool_pool_status **pools, uint32_t *count,
			uint64_t *generation)
{
	struct drm_vrampool_pool_query args;
	struct drm_vrampool_pool_status *buf = NULL;
	int tries;

	/* The layout may change between the two calls: ask again. */
	for (tries = 0; tries < 8; tries++) {
		memset(&args, 0, sizeof(args));
		if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &args))
			return -errno;

		free(buf);
		buf = malloc(args.size);
		if (!buf)
			return -ENOMEM;
		args.pools = (uintptr_t)buf;
		if (!ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &args)) {
			*pools = buf;
			*count = args.size / sizeof(*buf);
			if (generation)
				*generation = args.generation;
			return 0;
		}
		if (errno != EINVAL)
			break;
	}
	free(buf);
	return -errno;
}

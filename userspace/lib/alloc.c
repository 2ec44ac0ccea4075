// SPDX-License-Identifier: MIT
/*
 * libvrampool: allocations and their CPU mappings.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool.h"

int vrampool_alloc(int fd, uint64_t size, uint32_t flags, struct vrampool_allocation *out,
		   struct vrampool_error *err)
{
	struct drm_vrampool_alloc args = { .size = size, .flags = flags };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, &args)) {
		int ret = -errno;

		if (err)
			vrampool_error_from_alloc(err, -ret, &args.error);
		return ret;
	}

	*out = (struct vrampool_allocation) {
		.handle = args.handle,
		.pool = args.pool,
		.page = args.page,
		.size = size,
		.offset = args.offset,
		.padding = args.padding,
		.mmap_offset = args.mmap_offset,
		.page_size = args.page_size,
	};
	return 0;
}

int vrampool_free(int fd, uint32_t handle, struct vrampool_error *err)
{
	struct drm_vrampool_free args = { .handle = handle };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE, &args)) {
		int ret = -errno;

		if (err) {
			vrampool_error_from_ioctl(err, -ret, NULL);
			if (ret == -ENOENT) {
				err->kind = VRAMPOOL_ERR_NOT_FOUND;
				err->handle = handle;
			}
		}
		return ret;
	}
	return 0;
}

int vrampool_cleanup(int fd)
{
	struct drm_vrampool_cleanup args = { 0 };

	return ioctl(fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &args) ? -errno : 0;
}

int vrampool_set_persistent_mode(int fd, uint32_t mode, uint32_t *old)
{
	struct drm_vrampool_persistent_mode args = { .mode = mode };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE, &args))
		return -errno;
	if (old)
		*old = args.mode;
	return 0;
}

int vrampool_map(int fd, const struct vrampool_allocation *a, struct vrampool_mapping *m)
{
	long cpu_page = sysconf(_SC_PAGESIZE);
	uint64_t end = a->offset + a->size;
	void *base;

	memset(m, 0, sizeof(*m));
	if (!a->size || !a->mmap_offset)
		return 0;

	m->length = (size_t)((end + cpu_page - 1) / cpu_page * cpu_page);
	base = mmap(NULL, m->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)a->mmap_offset);
	if (base == MAP_FAILED) {
		m->length = 0;
		return -errno;
	}
	m->base = base;
	m->ptr = (char *)base + a->offset;
	return 0;
}

int vrampool_unmap(struct vrampool_mapping *m)
{
	int ret = 0;

	if (m->base && munmap(m->base, m->length))
		ret = -errno;
	memset(m, 0, sizeof(*m));
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * libvrampool: batched allocation and free (ALLOC_BATCH, FREE_BATCH), all
 * or nothing.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "vrampool.h"

/* The error of a refused ALLOC_BATCH, its index in @err->entry. */
static void batch_alloc_error(struct vrampool_error *err, int os_errno,
			      const struct drm_vrampool_alloc_batch *args,
			      const struct drm_vrampool_alloc_request *reqs)
{
	vrampool_error_from_alloc(err, os_errno, &args->error);
	err->entry = args->failed;
	if (os_errno == EINVAL && args->error.code == DRM_VRAMPOOL_ERR_INVALID_ARGUMENT &&
	    args->failed < args->count) {
		/* The library writes no pad: the request's flags are at fault. */
		err->kind = VRAMPOOL_ERR_INVALID_ARGUMENT;
		err->field = DRM_VRAMPOOL_FIELD_FLAGS;
		err->value = reqs[args->failed].flags;
	}
}

int vrampool_alloc_batch(int fd, const struct drm_vrampool_alloc_request *reqs, uint32_t count,
			 struct vrampool_allocation *out, struct vrampool_error *err)
{
	struct drm_vrampool_alloc_batch args = { .requests = (uintptr_t)reqs, .count = count };
	struct drm_vrampool_alloc_answer *ans = NULL;
	uint32_t i;
	int ret = 0;

	if (count && count <= DRM_VRAMPOOL_BATCH_MAX) {
		ans = malloc((size_t)count * sizeof(*ans));
		if (!ans) {
			if (err)
				vrampool_error_from_ioctl(err, ENOMEM, NULL);
			return -ENOMEM;
		}
	}
	args.answers = (uintptr_t)ans;
	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &args)) {
		ret = -errno;
		if (err)
			batch_alloc_error(err, -ret, &args, reqs);
		free(ans);
		return ret;
	}
	for (i = 0; i < count; i++) {
		out[i] = (struct vrampool_allocation) {
			.handle = ans[i].handle,
			.pool = ans[i].pool,
			.page = ans[i].page,
			.size = reqs[i].size,
			.offset = ans[i].offset,
			.padding = ans[i].padding,
			.mmap_offset = ans[i].mmap_offset,
			.page_size = ans[i].page_size,
		};
	}
	free(ans);
	return 0;
}

int vrampool_free_batch(int fd, const uint32_t *handles, uint32_t count,
			struct vrampool_error *err)
{
	struct drm_vrampool_free_batch args = { .handles = (uintptr_t)handles, .count = count };
	int ret;

	if (!ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, &args))
		return 0;
	ret = -errno;
	if (!err)
		return ret;
	vrampool_error_from_ioctl(err, -ret, NULL);
	err->entry = args.failed;
	if (args.failed >= count)
		return ret;
	if (ret == -ENOENT && args.code == DRM_VRAMPOOL_ERR_NOT_FOUND)
		err->kind = VRAMPOOL_ERR_NOT_FOUND;
	else if (ret == -EINVAL && args.code == DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE)
		err->kind = VRAMPOOL_ERR_DUPLICATE_HANDLE;
	else
		return ret;
	err->handle = handles[args.failed];
	return ret;
}

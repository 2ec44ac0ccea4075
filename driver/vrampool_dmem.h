/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DMEM_H_
#define _VRAMPOOL_DMEM_H_

#include <linux/sysfs.h>
#include <linux/types.h>

#include "vrampool_device_types.h"

struct dmem_cgroup_pool_state;
struct ttm_resource;

/**
 * struct vrampool_dmem_filter - which cached pages a reclaim walk may take
 *
 * DOC: dmem cgroup, in vrampool_dmem.c. Without the dmem controller every
 * page may go.
 */
struct vrampool_dmem_filter {
	/**
	 * @limit: the cgroup whose dmem.max refused the request (a reference
	 * held): only pages charged inside it may go; NULL for a request VRAM
	 * itself refused, when every cgroup's min and low protect its pages
	 */
	struct dmem_cgroup_pool_state *limit;
	/** @ignore_low: take pages dmem.low protects (the second walk) */
	bool ignore_low;
	/** @hit_low: a page was kept only for dmem.low: a second walk may help */
	bool hit_low;
};

#if IS_ENABLED(CONFIG_CGROUP_DMEM)
int vrampool_dmem_init(struct vrampool_device *vdev);
ssize_t vrampool_dmem_region_show(struct vrampool_device *vdev, char *buf);
bool vrampool_dmem_limit(struct vrampool_device *vdev, u64 size,
			 struct vrampool_dmem_filter *filter);
void vrampool_dmem_filter_end(struct vrampool_dmem_filter *filter);
bool vrampool_dmem_refuses(struct vrampool_device *vdev, u64 size);
bool vrampool_dmem_may_take(struct vrampool_dmem_filter *filter, struct ttm_resource *res);
#else
static inline int vrampool_dmem_init(struct vrampool_device *vdev)
{
	return 0;
}

static inline ssize_t vrampool_dmem_region_show(struct vrampool_device *vdev, char *buf)
{
	return sysfs_emit(buf, "none\n");
}

static inline bool vrampool_dmem_limit(struct vrampool_device *vdev, u64 size,
				       struct vrampool_dmem_filter *filter)
{
	return false;
}

static inline void vrampool_dmem_filter_end(struct vrampool_dmem_filter *filter)
{
}

static inline bool vrampool_dmem_refuses(struct vrampool_device *vdev, u64 size)
{
	return false;
}

static inline bool vrampool_dmem_may_take(struct vrampool_dmem_filter *filter,
					  struct ttm_resource *res)
{
	return true;
}
#endif

/**
 * vrampool_dmem_enabled() - whether a device's VRAM is a dmem cgroup region
 * @vdev: the device
 *
 * Return: true when TTM charges its BOs to dmem cgroups.
 */
static inline bool vrampool_dmem_enabled(const struct vrampool_device *vdev)
{
	return vdev->dmem_region;
}

#endif /* _VRAMPOOL_DMEM_H_ */

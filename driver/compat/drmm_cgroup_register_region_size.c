// SPDX-License-Identifier: GPL-2.0-only
/* drmm_cgroup_register_region() takes the region's size (6.14). */
#include <linux/build_bug.h>
#include <linux/cgroup_dmem.h>
#include <drm/drm_drv.h>

typedef struct dmem_cgroup_region *(*vrampool_probe_fn)(struct drm_device *dev,
							 const char *region_name, u64 size);

static_assert(__same_type(&drmm_cgroup_register_region, vrampool_probe_fn),
	      "drmm_cgroup_register_region(dev, name, size)");

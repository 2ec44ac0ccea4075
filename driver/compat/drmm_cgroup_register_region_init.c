// SPDX-License-Identifier: GPL-2.0-only
/* drmm_cgroup_register_region() takes a struct dmem_cgroup_init (7.3). */
#include <linux/build_bug.h>
#include <linux/cgroup_dmem.h>
#include <drm/drm_drv.h>
#include <drm/ttm/ttm_resource.h>

typedef struct dmem_cgroup_region *(*vrampool_probe_fn)(struct drm_device *dev,
							 const char *region_name,
							 const struct dmem_cgroup_init *init);
typedef void (*vrampool_probe_set_fn)(struct ttm_resource_manager *man,
				      struct dmem_cgroup_region *region);

static_assert(__same_type(&drmm_cgroup_register_region, vrampool_probe_fn),
	      "drmm_cgroup_register_region(dev, name, init)");
static_assert(__same_type(&ttm_resource_manager_set_dmem_region, vrampool_probe_set_fn),
	      "ttm_resource_manager_set_dmem_region()");

// SPDX-License-Identifier: GPL-2.0-only
/* struct ttm_device lists pinned resources in .pinned (6.12). */
#include <linux/build_bug.h>
#include <linux/list.h>
#include <drm/ttm/ttm_device.h>

static_assert(__same_type(((struct ttm_device *)0)->pinned, struct list_head),
	      "ttm_device.pinned");

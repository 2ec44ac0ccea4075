// SPDX-License-Identifier: GPL-2.0-only
/* struct ttm_device lists pinned resources in .unevictable (7.3). */
#include <linux/build_bug.h>
#include <linux/list.h>
#include <drm/ttm/ttm_device.h>

static_assert(__same_type(((struct ttm_device *)0)->unevictable, struct list_head),
	      "ttm_device.unevictable");

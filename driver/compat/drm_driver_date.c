// SPDX-License-Identifier: GPL-2.0-only
/* struct drm_driver has a .date string (6.12; later kernels dropped it). */
#include <linux/build_bug.h>
#include <drm/drm_drv.h>

static_assert(__same_type(((struct drm_driver *)0)->date, char *), "drm_driver.date");

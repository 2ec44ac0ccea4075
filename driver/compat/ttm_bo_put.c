// SPDX-License-Identifier: GPL-2.0-only
/* ttm_bo_put() drops a reference to a TTM BO (6.12). */
#include <linux/build_bug.h>
#include <drm/ttm/ttm_bo.h>

typedef void (*vrampool_probe_fn)(struct ttm_buffer_object *bo);

static_assert(__same_type(&ttm_bo_put, vrampool_probe_fn),
	      "ttm_bo_put()");

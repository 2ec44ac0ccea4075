// SPDX-License-Identifier: GPL-2.0-only
/* ttm_bo_fini() drops a GEM-backed TTM BO's last reference (7.3). */
#include <linux/build_bug.h>
#include <drm/ttm/ttm_bo.h>

typedef void (*vrampool_probe_fn)(struct ttm_buffer_object *bo);

static_assert(__same_type(&ttm_bo_fini, vrampool_probe_fn),
	      "ttm_bo_fini()");

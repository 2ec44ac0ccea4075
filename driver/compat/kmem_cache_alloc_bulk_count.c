// SPDX-License-Identifier: GPL-2.0-only
/* kmem_cache_alloc_bulk() returns the number of objects, or 0 (6.12). */
#include <linux/build_bug.h>
#include <linux/slab.h>

typedef int (*vrampool_probe_fn)(struct kmem_cache *s, gfp_t flags, size_t size,
				 void **p);

static_assert(__same_type(&kmem_cache_alloc_bulk_noprof, vrampool_probe_fn),
	      "int kmem_cache_alloc_bulk()");

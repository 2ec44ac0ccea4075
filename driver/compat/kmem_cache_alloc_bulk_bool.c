// SPDX-License-Identifier: GPL-2.0-only
/* kmem_cache_alloc_bulk() returns true when it allocated all (7.3). */
#include <linux/build_bug.h>
#include <linux/slab.h>

typedef bool (*vrampool_probe_fn)(struct kmem_cache *s, gfp_t flags, size_t size,
				  void **p);

static_assert(__same_type(&kmem_cache_alloc_bulk_noprof, vrampool_probe_fn),
	      "bool kmem_cache_alloc_bulk()");

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the slab cache of allocation records (&struct vrampool_alloc).
 *
 * A client may hold millions of allocations, each with its record: a cache
 * of its own packs them at their exact size (kmalloc would round each up to
 * its next size class) and, being SLAB_ACCOUNT, charges every record to the
 * memory cgroup of the task that allocates it, as every per-client object
 * is charged. Made at module load, destroyed at unload, after every client
 * is gone.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/slab.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_pool.h"

static struct kmem_cache *alloc_cache;

/**
 * vrampool_alloc_cache_create() - make the cache of allocation records
 *
 * Return: 0 or -ENOMEM.
 */
int vrampool_alloc_cache_create(void)
{
	alloc_cache = KMEM_CACHE(vrampool_alloc, SLAB_ACCOUNT);
	return alloc_cache ? 0 : -ENOMEM;
}

/**
 * vrampool_alloc_cache_destroy() - destroy the cache, every record freed
 */
void vrampool_alloc_cache_destroy(void)
{
	kmem_cache_destroy(alloc_cache);
}

/**
 * vrampool_alloc_record_new() - a zeroed allocation record, charged to the caller
 *
 * Return: the record, or NULL without memory.
 */
struct vrampool_alloc *vrampool_alloc_record_new(void)
{
	return kmem_cache_zalloc(alloc_cache, GFP_KERNEL);
}

/**
 * vrampool_alloc_record_free() - free a record from vrampool_alloc_record_new()
 * @a: the record, or NULL
 */
void vrampool_alloc_record_free(struct vrampool_alloc *a)
{
	if (a)
		kmem_cache_free(alloc_cache, a);
}

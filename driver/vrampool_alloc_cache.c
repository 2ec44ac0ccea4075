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
#include <linux/string.h>
#include <kunit/visibility.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_client_types.h"
#include "vrampool_compat.h"
#include "vrampool_pool.h"

/**
 * DOC: spare records
 *
 * A runtime frees and allocates again at a high rate, often many at once
 * (FREE_BATCH, then ALLOC_BATCH). FREE does not give a record back to the
 * cache at once: its client keeps up to %VRAMPOOL_SPARE_RECORDS (256) of
 * them, on a stack linked through the records themselves
 * (&vrampool_client.spare, &vrampool_alloc.next_spare), and an ALLOC, or
 * an ALLOC_BATCH for each of its requests, takes one of those before it
 * asks the cache. So a warm ALLOC and FREE pair, or a batch of up to 256
 * and its FREE_BATCH, does not go to the slab allocator at all. The spares
 * stay charged to the memory cgroup that allocated them, like any record;
 * they cost the client nothing but themselves (at most 18 KiB, only once
 * it has freed that many) and postclose frees them with the client.
 */

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
 * vrampool_alloc_cache_new() - a zeroed allocation record, charged to the caller
 *
 * Return: the record, or NULL without memory.
 */
struct vrampool_alloc *vrampool_alloc_cache_new(void)
{
	return kmem_cache_zalloc(alloc_cache, GFP_KERNEL);
}

/**
 * vrampool_alloc_cache_new_bulk() - @count zeroed records at once
 * @count: how many
 * @records: room for them
 *
 * One call into the slab allocator for a whole batch (kmem_cache_alloc_bulk()).
 *
 * Return: true with @count records in @records, or false without memory
 * and none.
 */
bool vrampool_alloc_cache_new_bulk(u32 count, void **records)
{
	return vrampool_compat_kmem_cache_alloc_bulk(alloc_cache, GFP_KERNEL | __GFP_ZERO,
						     count, records);
}

/**
 * vrampool_alloc_cache_free() - free a record from vrampool_alloc_cache_new()
 * @a: the record, or NULL
 */
void vrampool_alloc_cache_free(struct vrampool_alloc *a)
{
	if (a)
		kmem_cache_free(alloc_cache, a);
}

/**
 * vrampool_alloc_cache_get() - a zeroed record for a client's new allocation
 * @client: the client, locked
 *
 * One of its spare records (DOC: spare records), else a new one.
 *
 * Return: the record, or NULL without memory.
 */
struct vrampool_alloc *vrampool_alloc_cache_get(struct vrampool_client *client)
{
	struct vrampool_alloc *a = client->spare;

	if (!a)
		return vrampool_alloc_cache_new();
	client->spare = a->next_spare;
	client->nr_spare--;
	*a = (struct vrampool_alloc){};
	return a;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_alloc_cache_get);

/**
 * vrampool_alloc_cache_get_bulk() - @count zeroed records for an ALLOC_BATCH
 * @client: the client, locked
 * @count: how many
 * @records: room for them
 *
 * The client's spare records first (DOC: spare records), the rest from the
 * cache in one call (vrampool_alloc_cache_new_bulk()).
 *
 * Return: true with @count records in @records, or false without memory,
 * none taken (the spares are the client's again) and every entry of
 * @records NULL, so that nothing in it is freed twice.
 */
bool vrampool_alloc_cache_get_bulk(struct vrampool_client *client, u32 count, void **records)
{
	u32 i = 0;

	while (i < count && client->spare)
		records[i++] = vrampool_alloc_cache_get(client);
	if (i == count || vrampool_alloc_cache_new_bulk(count - i, records + i))
		return true;
	while (i)
		vrampool_alloc_cache_put(client, records[--i]);
	memset(records, 0, count * sizeof(*records));
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_alloc_cache_get_bulk);

/**
 * vrampool_alloc_cache_put() - give back a client's record it no longer uses
 * @client: the client, locked
 * @a: the record, out of every pool and the handle table
 *
 * Kept as a spare while the client has room for one, else freed.
 */
void vrampool_alloc_cache_put(struct vrampool_client *client, struct vrampool_alloc *a)
{
	if (client->nr_spare >= VRAMPOOL_SPARE_RECORDS) {
		vrampool_alloc_cache_free(a);
		return;
	}
	a->next_spare = client->spare;
	client->spare = a;
	client->nr_spare++;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_alloc_cache_put);

/**
 * vrampool_alloc_cache_put_bulk() - give back many records of a client at once
 * @client: the client, locked
 * @records: the records, out of every pool and the handle table; its
 *	     entries are used up
 * @count: how many
 *
 * The client's room for spares is filled first; the rest go back to the
 * cache in one call (kmem_cache_free_bulk()).
 */
void vrampool_alloc_cache_put_bulk(struct vrampool_client *client, void **records, u32 count)
{
	while (count && client->nr_spare < VRAMPOOL_SPARE_RECORDS)
		vrampool_alloc_cache_put(client, records[--count]);
	if (count)
		kmem_cache_free_bulk(alloc_cache, count, records);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_alloc_cache_put_bulk);

/**
 * vrampool_alloc_cache_drain() - free a client's spare records
 * @client: the client, closing
 *
 * Return: how many it freed.
 */
u32 vrampool_alloc_cache_drain(struct vrampool_client *client)
{
	struct vrampool_alloc *a;
	u32 freed = 0;

	while (client->spare) {
		a = client->spare;
		client->spare = a->next_spare;
		vrampool_alloc_cache_free(a);
		freed++;
	}
	client->nr_spare = 0;
	return freed;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_alloc_cache_drain);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: debugfs, for debugging and tests only (no ABI).
 *
 * Built only with CONFIG_DEBUG_FS; vrampool_debugfs.h stubs it out
 * otherwise.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/ttm/ttm_resource.h>

#include "vrampool_client_types.h"
#include "vrampool_debugfs.h"
#include "vrampool_debugfs_test.h"
#include "vrampool_device_types.h"
#include "vrampool_names.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"

/**
 * DOC: debugfs views
 *
 * ``/sys/kernel/debug/accel/<device>/`` holds three read-only views for
 * debugging, and no ABI:
 *
 * ``vram_mm``
 *	The VRAM buddy allocator: its size, free and in-use bytes, then its
 *	free blocks of each order, as drm_buddy_print() prints them.
 *
 * ``clients``
 *	The page map of every client: for each pool its pages, and for each
 *	page its slices (``used offset+size``) and free ranges
 *	(``free offset+size``), in offset order.
 *
 * ``reclaim``
 *	``walks N`` and ``work N``: the reclaim walks begun, and their steps
 *	added up (&vrampool_device.reclaim_work, DOC: reclaim), from which
 *	the tests read the cost of one walk.
 *
 * The test buffers ``test_bo`` and ``test_bo_size`` are in
 * vrampool_debugfs_test.c.
 */

/* drm_debugfs_add_file() gives each file its device as data. */
static struct vrampool_device *entry_vdev(struct seq_file *m)
{
	struct drm_debugfs_entry *entry = m->private;

	return entry->file.data;
}

static int vram_mm_show(struct seq_file *m, void *unused)
{
	struct vrampool_device *vdev = entry_vdev(m);
	struct drm_printer p = drm_seq_file_printer(m);

	ttm_resource_manager_debug(&vdev->vram_mgr.man, &p);
	return 0;
}

static void page_map_show(struct seq_file *m, struct vrampool_pool_page *ppage)
{
	struct vrampool_slice *slice;
	u64 at = 0, offset;

	seq_printf(m, "    page %u size %llu:", ppage->index, ppage->size);
	if (ppage->pool->config.type != DRM_VRAMPOOL_POOL_SLICED) {
		seq_printf(m, " %s 0+%llu\n", ppage->alloc ? "used" : "free", ppage->size);
		return;
	}
	for (slice = vrampool_slices_first(&ppage->slices); slice;
	     slice = vrampool_slices_next(slice)) {
		offset = vrampool_slices_offset(&ppage->slices, slice);
		if (offset > at)
			seq_printf(m, " free %llu+%llu", at, offset - at);
		at = vrampool_slices_end(&ppage->slices, slice);
		seq_printf(m, " used %llu+%llu", offset, at - offset);
	}
	if (at < ppage->size)
		seq_printf(m, " free %llu+%llu", at, ppage->size - at);
	seq_puts(m, "\n");
}

static void pool_map_show(struct seq_file *m, struct vrampool_pool *pool)
{
	struct vrampool_pool_page *ppage;
	unsigned long index;

	seq_printf(m, "  pool %u %s: %llu pages, %llu allocations\n", pool->index,
		   vrampool_names_lookup_pool_type(pool->config.type), pool->stats.pages,
		   pool->stats.allocations);
	xa_for_each(&pool->pages, index, ppage)
		page_map_show(m, ppage);
}

static int clients_show(struct seq_file *m, void *unused)
{
	struct vrampool_device *vdev = entry_vdev(m);
	struct vrampool_client *client;
	u32 i;

	guard(mutex)(&vdev->clients_lock);
	list_for_each_entry(client, &vdev->clients, link) {
		guard(mutex)(&client->lock);
		seq_printf(m, "client %llu generation %llu\n", client->file->client_id,
			   client->generation);
		for (i = 0; i < client->pool_set->count; i++)
			pool_map_show(m, client->pool_set->pools[i]);
		pool_map_show(m, client->persistent);
	}
	return 0;
}

static int reclaim_show(struct seq_file *m, void *unused)
{
	struct vrampool_device *vdev = entry_vdev(m);

	seq_printf(m, "walks %lld\nwork %lld\n", atomic64_read(&vdev->reclaim_walks),
		   atomic64_read(&vdev->reclaim_work));
	return 0;
}

/**
 * vrampool_debugfs_init() - create a device's debugfs files
 * @vdev: the device, its TTM set up
 *
 * The files live in the DRM device's debugfs folder and go with it.
 */
void vrampool_debugfs_init(struct vrampool_device *vdev)
{
	drm_debugfs_add_file(&vdev->drm, "vram_mm", vram_mm_show, vdev);
	drm_debugfs_add_file(&vdev->drm, "clients", clients_show, vdev);
	drm_debugfs_add_file(&vdev->drm, "reclaim", reclaim_show, vdev);
	vrampool_debugfs_test_init(vdev);
}

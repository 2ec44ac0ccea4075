// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: clients, the open files of a device, and the pools they own:
 * a client's life from open to close, the VRAM charged to it, its cleanup
 * and its fdinfo. A client starts with the device's default layout;
 * vrampool_install.c replaces it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/container_of.h>
#include <linux/cred.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_bo.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_dmem.h"
#include "vrampool_layout.h"
#include "vrampool_macros.h"
#include "vrampool_modparams.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_tenant.h"
#include "vrampool_trace.h"

static struct vrampool_client *backing_to_client(const struct vrampool_backing *backing)
{
	return container_of(backing, struct vrampool_client, backing);
}

/*
 * A page of a client's pool is one pinned VRAM BO only its file may map;
 * the client's user holds at most max_pages of them, and at most the
 * device's vram_quota bytes of VRAM (DOC: tenants, in vrampool_tenant.c),
 * its dmem cgroup's dmem.max permitting (DOC: dmem cgroup, in
 * vrampool_dmem.c). A refusal by the quota or the cgroup records it for
 * the ALLOC's error; a page no cleanup or reclaim can make room for
 * (larger than VRAM, or than the quota) is marked hopeless, so the ALLOC
 * fails at once.
 */
static int client_back(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage)
{
	struct vrampool_client *client = backing_to_client(backing);
	struct vrampool_tenant *tenant = client->tenant;
	u64 quota = READ_ONCE(client->vdev->vram_quota);
	struct vrampool_bo *bo;
	u64 size;
	int ret;

	/* No cleanup or reclaim can make room for it (and PAGE_ALIGN() cannot wrap). */
	if (ppage->size > client->vdev->props.vram_size) {
		client->hopeless = true;
		return -ENOSPC;
	}
	size = PAGE_ALIGN(ppage->size);
	if (!vrampool_tenant_charge_page(tenant, vrampool_modparam.max_pages))
		return -EDQUOT;
	if (!vrampool_tenant_charge_vram(tenant, size, quota)) {
		client->quota_refused = quota;
		client->refused_vram = size;
		client->hopeless = size > quota;
		ret = -EDQUOT;
		goto err_page;
	}

	ret = vrampool_bo_create(client->vdev, ppage->size, ttm_bo_type_device, &bo);
	if (ret) {
		client->refused_vram = size;
		client->cgroup_refused = ret == -EDQUOT;
		goto err_vram;
	}
	vrampool_bo_charge(bo, tenant);

	/* Before the file may map it, so that every mapping is counted (vrampool_bo.c). */
	bo->orphans = &client->orphans;
	ret = drm_vma_node_allow(&bo->tbo.base.vma_node, client->file);
	if (ret) {
		vrampool_bo_free(bo);
		goto err_page;
	}

	ppage->bo = bo;
	ppage->vram = bo->tbo.base.size;
	ppage->mmap_offset = drm_vma_node_offset_addr(&bo->tbo.base.vma_node);
	client->pages++;
	client->pages_made++;
	return 0;

err_vram:
	vrampool_tenant_uncharge_vram(tenant, size);
err_page:
	vrampool_tenant_uncharge_page(tenant);
	return ret;
}

static void client_release(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage)
{
	struct vrampool_client *client = backing_to_client(backing);

	if (!ppage->bo)
		return;

	drm_vma_node_revoke(&ppage->bo->tbo.base.vma_node, client->file);
	vrampool_bo_free(ppage->bo);
	ppage->bo = NULL;
	client->pages--;
	vrampool_tenant_uncharge_page(client->tenant);
}

/**
 * vrampool_client_vram() - VRAM charged to a client
 * @client: the client, locked
 *
 * Return: the bytes its pools hold, plus its orphans' (pages it freed while
 * they were still mapped: they keep their VRAM until the last munmap()).
 */
u64 vrampool_client_vram(struct vrampool_client *client)
{
	lockdep_assert_held(&client->lock);
	return client->persistent->stats.vram + vrampool_pool_set_vram(client->pool_set) +
	       vrampool_bo_orphans_bytes(&client->orphans);
}

/**
 * vrampool_client_open() - a new client, for &drm_driver.open
 * @drm: the device
 * @file: the new open file
 *
 * The client starts with the device's default layout, an empty persistent
 * pool and no allocation; its sysfs folder is the caller's to add.
 *
 * Return: 0; -ENODEV once the device is unplugged; -ENOMEM.
 */
int vrampool_client_open(struct drm_device *drm, struct drm_file *file)
{
	static const struct drm_vrampool_pool_entry persistent = {
		.type = DRM_VRAMPOOL_POOL_PERSISTENT,
	};
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client;
	int idx, ret;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	ret = -ENOMEM;
	client = kzalloc(sizeof(*client), GFP_KERNEL_ACCOUNT);
	if (!client)
		goto err_exit;

	refcount_set(&client->ref, 1);
	client->tenant = vrampool_tenant_open(vdev, current_uid());
	if (!client->tenant)
		goto err_free_client;
	client->vdev = vdev;
	client->file = file;
	client->backing.back = client_back;
	client->backing.release = client_release;
	client->backing.owner = file->client_id;
	client->backing.cached = &client->cached_vram;
	client->generation = 1;
	client->persistent_mode = DRM_VRAMPOOL_PERSISTENT_ENABLED;
	mutex_init(&client->lock);
	mutex_init(&client->sysfs_lock);
	xa_init_flags(&client->handles, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);

	ret = -ENOMEM;
	client->persistent = vrampool_pool_create(&persistent, DRM_VRAMPOOL_PERSISTENT_POOL,
						  vdev->props.alignment, &client->backing);
	if (!client->persistent)
		goto err_free;

	client->pool_set = vrampool_pool_set_create(vdev->default_pools, vdev->default_count,
						    vdev->props.alignment, &client->backing);
	if (!client->pool_set)
		goto err_persistent;

	scoped_guard(mutex, &vdev->clients_lock)
		list_add_tail(&client->link, &vdev->clients);
	atomic_inc(&vdev->client_count);

	file->driver_priv = client;
	drm_dev_exit(idx);
	return 0;

err_persistent:
	vrampool_pool_destroy(client->persistent);
err_free:
	mutex_destroy(&client->sysfs_lock);
	mutex_destroy(&client->lock);
	vrampool_tenant_close(client->tenant);
err_free_client:
	kfree(client);
err_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * vrampool_client_postclose() - a client is gone, for &drm_driver.postclose
 * @drm: the device
 * @file: the closed file (or one whose open failed after vrampool_client_open())
 *
 * Its sysfs folder is removed first, by the caller. The client leaves the
 * device's list and is marked closed, so a reclaim walk that took a
 * reference to it meanwhile finds nothing to take.
 * Frees every allocation and pool the client owned, in time linear in
 * their number; their VRAM goes back to the device. No page is mapped any
 * more (a mapping holds the file), so the client has no orphan left either.
 * The vrampool_close event counts what the teardown visited.
 */
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct vrampool_device *vdev = client->vdev;
	u64 allocs = 0, records = 0, pages;
	unsigned long handle;
	void *entry;

	scoped_guard(mutex, &vdev->clients_lock)
		list_del(&client->link);
	atomic_dec(&vdev->client_count);
	/* A reclaim walk that found it on the list may still come: nothing to take. */
	scoped_guard(mutex, &client->lock)
		client->closed = true;

	/*
	 * No free-page upkeep for pools about to go (DOC: teardown); a
	 * page-less entry (DOC: handle entries) holds nothing to drop.
	 */
	xa_for_each(&client->handles, handle, entry) {
		if (!xa_is_value(entry)) {
			vrampool_pool_drop(entry);
			vrampool_alloc_cache_free(entry);
			records++;
		}
		allocs++;
		cond_resched();
	}
	xa_destroy(&client->handles);
	records += vrampool_alloc_cache_drain(client);

	pages = vrampool_pool_set_destroy(client->pool_set);
	pages += vrampool_pool_destroy(client->persistent);
	trace_vrampool_close(file->client_id, allocs, records, pages);
	vrampool_tenant_uncharge_allocations(client->tenant, client->allocations);
	vrampool_tenant_close(client->tenant);
	vrampool_client_put(client);
}

/**
 * vrampool_client_put() - drop a reference to a client
 * @client: the client
 *
 * The last reference, the file's or a reclaim walk's (DOC: reclaim), frees
 * what is left of it: by then postclose has torn it down.
 */
void vrampool_client_put(struct vrampool_client *client)
{
	if (!refcount_dec_and_test(&client->ref))
		return;
	mutex_destroy(&client->sysfs_lock);
	mutex_destroy(&client->lock);
	kfree(client);
}

/**
 * vrampool_client_cleanup() - explicit cleanup of every pool of a client
 * @client: the client, locked
 *
 * Free pages and buffers go back to the device.
 */
void vrampool_client_cleanup(struct vrampool_client *client)
{
	u64 before;

	lockdep_assert_held(&client->lock);
	before = vrampool_client_vram(client);
	vrampool_pool_cleanup(client->persistent, true, client->alloc_nr);
	vrampool_pool_set_cleanup(client->pool_set, true, client->alloc_nr);
	trace_vrampool_cleanup(client->file->client_id, before - vrampool_client_vram(client));
}

struct client_trim {
	struct vrampool_trim trim;
	struct vrampool_client *client;
	struct vrampool_dmem_filter *filter;
	u64 vram_goal;
	u32 pages_goal;
};

static bool client_trim_may_release(struct vrampool_trim *trim, struct vrampool_pool_page *ppage)
{
	struct client_trim *t = container_of(trim, struct client_trim, trim);

	return vrampool_dmem_may_take(t->filter, ppage->bo->tbo.resource);
}

static bool client_trim_done(struct vrampool_trim *trim)
{
	struct client_trim *t = container_of(trim, struct client_trim, trim);

	return vrampool_client_vram(t->client) <= t->vram_goal &&
	       t->client->pages <= t->pages_goal;
}

/**
 * vrampool_client_trim() - give back a client's free pages until enough went
 * @client: the client, locked
 * @want_vram: the least charged VRAM to give back, in bytes
 * @want_pages: the fewest pages to give back
 * @filter: which pages may go, by their dmem cgroup (DOC: dmem cgroup);
 *	    NULL for every free page
 *
 * What an explicit cleanup would release, in its order (the persistent
 * pool, then the pools of the layout, each in vrampool_pool_trim()'s
 * order), stopping as soon as both wants are met or nothing free is left:
 * a reclaim takes only what its request needs (DOC: reclaim). A page still
 * mapped becomes an orphan and keeps its VRAM charged.
 */
void vrampool_client_trim(struct vrampool_client *client, u64 want_vram, u32 want_pages,
			  struct vrampool_dmem_filter *filter)
{
	struct client_trim t = {
		.trim.done = client_trim_done,
		.client = client,
		.filter = filter,
	};
	u64 before;

	lockdep_assert_held(&client->lock);
	if (filter && vrampool_dmem_enabled(client->vdev))
		t.trim.may_release = client_trim_may_release;
	before = vrampool_client_vram(client);
	t.vram_goal = before - min(before, want_vram);
	t.pages_goal = client->pages - min(client->pages, want_pages);
	vrampool_pool_trim(client->persistent, &t.trim);
	vrampool_pool_set_trim(client->pool_set, &t.trim);
	trace_vrampool_cleanup(client->file->client_id, before - vrampool_client_vram(client));
}

/**
 * vrampool_client_purgeable() - VRAM of a client's free cached pages
 * @client: the client, locked
 *
 * Return: bytes of VRAM its pages without a live allocation hold: what a
 * cleanup, or reclaim by another client, would give back.
 */
u64 vrampool_client_purgeable(struct vrampool_client *client)
{
	lockdep_assert_held(&client->lock);
	return client->cached_vram;
}

/**
 * vrampool_client_show_fdinfo() - &drm_driver.show_fdinfo: drm-usage-stats
 * @p: where to print
 * @file: the client's file
 *
 * Reports the VRAM charged to the client (vrampool_client_vram()) as
 * resident private memory, of it what its orphans hold and how many there
 * are (``vrampool-orphan-vram``, ``vrampool-orphans``), its free cached
 * pages as purgeable (``drm-purgeable-vram``), what other clients'
 * reclaim took from it (``vrampool-reclaimed-bytes``, ``-pages``), and the
 * sums of its user's files that the user's limits apply to
 * (``vrampool-user-vram``, ``-allocations``, ``-pages``; DOC: tenants).
 */
void vrampool_client_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct vrampool_tenant *tenant = client->tenant;
	struct drm_memory_stats stats = {};
	u64 reclaimed_bytes, reclaimed_pages;

	/* A reader that is killed prints nothing rather than wait on. */
	if (mutex_lock_killable(&client->lock))
		return;
	stats.private = vrampool_client_vram(client);
	stats.purgeable = vrampool_client_purgeable(client);
	reclaimed_bytes = client->reclaimed_bytes;
	reclaimed_pages = client->reclaimed_pages;
	mutex_unlock(&client->lock);
	stats.resident = stats.private;
	drm_print_memory_stats(p, &stats, DRM_GEM_OBJECT_RESIDENT | DRM_GEM_OBJECT_PURGEABLE,
			       "vram");
	drm_printf(p, "vrampool-orphan-vram:\t%llu\n", vrampool_bo_orphans_bytes(&client->orphans));
	drm_printf(p, "vrampool-orphans:\t%llu\n", vrampool_bo_orphans_count(&client->orphans));
	drm_printf(p, "vrampool-reclaimed-bytes:\t%llu\n", reclaimed_bytes);
	drm_printf(p, "vrampool-reclaimed-pages:\t%llu\n", reclaimed_pages);
	drm_printf(p, "vrampool-user-vram:\t%llu\n", vrampool_tenant_vram(tenant));
	drm_printf(p, "vrampool-user-allocations:\t%d\n", atomic_read(&tenant->allocations));
	drm_printf(p, "vrampool-user-pages:\t%d\n", atomic_read(&tenant->pages));
}

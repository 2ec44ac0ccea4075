// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: clients, the open files of a device, and the pools they own.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_vma_manager.h>

#include "vrampool_bo.h"
#include "vrampool_client.h"
#include "vrampool_device.h"
#include "vrampool_sysfs.h"

static struct vrampool_client *backing_to_client(const struct vrampool_backing *backing)
{
	return container_of(backing, struct vrampool_client, backing);
}

/* A page of a client's pool is one pinned VRAM BO only its file may map. */
static int client_back(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage)
{
	struct vrampool_client *client = backing_to_client(backing);
	struct vrampool_bo *bo;
	int ret;

	if (!ppage->size)
		return 0;

	ret = vrampool_bo_create(client->vdev, ppage->size, ttm_bo_type_device, &bo);
	if (ret)
		return ret;

	ret = drm_vma_node_allow(&bo->tbo.base.vma_node, client->file);
	if (ret) {
		vrampool_bo_free(bo);
		return ret;
	}

	ppage->bo = bo;
	ppage->vram = bo->tbo.base.size;
	ppage->mmap_offset = drm_vma_node_offset_addr(&bo->tbo.base.vma_node);
	return 0;
}

static void client_release(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage)
{
	struct vrampool_client *client = backing_to_client(backing);

	if (!ppage->bo)
		return;

	drm_vma_node_revoke(&ppage->bo->tbo.base.vma_node, client->file);
	vrampool_bo_free(ppage->bo);
	ppage->bo = NULL;
}

/**
 * vrampool_pool_set_destroy() - free a pool set and its pools
 * @set: the pool set, or NULL; its pools hold no live allocation
 */
void vrampool_pool_set_destroy(struct vrampool_pool_set *set)
{
	u32 i;

	if (!set)
		return;
	for (i = 0; i < set->count; i++)
		vrampool_pool_destroy(set->pools[i]);
	kfree(set);
}

/**
 * vrampool_pool_set_create() - make empty pools for a resolved layout
 * @client: the client that will own them
 * @pools: the resolved pools
 * @count: how many, at most DRM_VRAMPOOL_MAX_DYNAMIC_POOLS
 *
 * Return: the pool set, or NULL without memory.
 */
struct vrampool_pool_set *
vrampool_pool_set_create(struct vrampool_client *client,
			 const struct drm_vrampool_pool_entry *pools, u32 count)
{
	struct vrampool_pool_set *set;
	u32 i;

	set = kzalloc(struct_size(set, pools, count), GFP_KERNEL);
	if (!set)
		return NULL;

	for (i = 0; i < count; i++) {
		set->pools[i] = vrampool_pool_create(&pools[i], i,
						     client->vdev->props.alignment,
						     &client->backing);
		if (!set->pools[i]) {
			set->count = i;
			vrampool_pool_set_destroy(set);
			return NULL;
		}
	}
	set->count = count;
	return set;
}

/**
 * vrampool_client_open() - &drm_driver.open: a new client
 * @drm: the device
 * @file: the new open file
 *
 * The client starts with the device's default layout, an empty persistent
 * pool and no allocation.
 *
 * Return: 0 or -ENOMEM.
 */
int vrampool_client_open(struct drm_device *drm, struct drm_file *file)
{
	static const struct drm_vrampool_pool_entry persistent = {
		.type = DRM_VRAMPOOL_POOL_PERSISTENT,
	};
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;

	client->vdev = vdev;
	client->file = file;
	client->backing.back = client_back;
	client->backing.release = client_release;
	client->generation = 1;
	client->persistent_mode = DRM_VRAMPOOL_PERSISTENT_ENABLED;
	mutex_init(&client->lock);
	mutex_init(&client->sysfs_lock);
	xa_init_flags(&client->handles, XA_FLAGS_ALLOC1);

	client->persistent = vrampool_pool_create(&persistent, DRM_VRAMPOOL_PERSISTENT_POOL,
						  vdev->props.alignment, &client->backing);
	if (!client->persistent)
		goto err_free;

	client->pool_set = vrampool_pool_set_create(client, vdev->default_pools,
						    vdev->default_count);
	if (!client->pool_set)
		goto err_persistent;

	if (vrampool_sysfs_client_add(client))
		goto err_pool_set;

	mutex_lock(&vdev->clients_lock);
	list_add_tail(&client->link, &vdev->clients);
	mutex_unlock(&vdev->clients_lock);
	atomic_inc(&vdev->client_count);

	file->driver_priv = client;
	return 0;

err_pool_set:
	vrampool_pool_set_destroy(client->pool_set);
err_persistent:
	vrampool_pool_destroy(client->persistent);
err_free:
	mutex_destroy(&client->sysfs_lock);
	mutex_destroy(&client->lock);
	kfree(client);
	return -ENOMEM;
}

/**
 * vrampool_client_postclose() - &drm_driver.postclose: a client is gone
 * @drm: the device
 * @file: the closed file
 *
 * Frees every allocation and pool the client owned; their VRAM goes back
 * to the device (pages still mapped go when they are unmapped).
 */
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;
	struct vrampool_device *vdev = client->vdev;
	struct vrampool_alloc *a;
	unsigned long handle;

	vrampool_sysfs_client_remove(client);
	mutex_lock(&vdev->clients_lock);
	list_del(&client->link);
	mutex_unlock(&vdev->clients_lock);
	atomic_dec(&vdev->client_count);

	xa_for_each(&client->handles, handle, a) {
		vrampool_pool_free(a);
		kfree(a);
	}
	xa_destroy(&client->handles);

	vrampool_pool_set_destroy(client->pool_set);
	vrampool_pool_destroy(client->persistent);
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
	u32 i;

	lockdep_assert_held(&client->lock);
	vrampool_pool_cleanup(client->persistent, true, client->alloc_nr);
	for (i = 0; i < client->pool_set->count; i++)
		vrampool_pool_cleanup(client->pool_set->pools[i], true, client->alloc_nr);
}

/**
 * vrampool_client_dynamic_allocations() - live allocations of the dynamic pools
 * @client: the client, locked
 * @bytes: their requested bytes
 *
 * Return: how many there are.
 */
u64 vrampool_client_dynamic_allocations(struct vrampool_client *client, u64 *bytes)
{
	u64 count = 0;
	u32 i;

	lockdep_assert_held(&client->lock);
	*bytes = 0;
	for (i = 0; i < client->pool_set->count; i++) {
		count += client->pool_set->pools[i]->stats.allocations;
		*bytes += client->pool_set->pools[i]->stats.bytes_in_use;
	}
	return count;
}

/**
 * vrampool_client_vram() - VRAM held by a client's pools
 * @client: the client, locked
 *
 * Return: bytes of VRAM its pages hold.
 */
u64 vrampool_client_vram(struct vrampool_client *client)
{
	u64 vram = client->persistent->stats.vram;
	u32 i;

	lockdep_assert_held(&client->lock);
	for (i = 0; i < client->pool_set->count; i++)
		vram += client->pool_set->pools[i]->stats.vram;
	return vram;
}

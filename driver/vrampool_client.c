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
#include "vrampool_drv.h"
#include "vrampool_sysfs.h"

static struct vrampool_client *backing_to_client(const struct vrampool_backing *backing)
{
	return container_of(backing, struct vrampool_client, backing);
}

/* A page of a client's pool is one pinned VRAM BO only its file may map. */
static int client_back(const struct vrampool_backing *backing, struct vrampool_page *page)
{
	struct vrampool_client *client = backing_to_client(backing);
	struct vrampool_bo *bo;
	int ret;

	if (!page->size)
		return 0;

	ret = vrampool_bo_create(client->vdev, page->size, ttm_bo_type_device, &bo);
	if (ret)
		return ret;

	ret = drm_vma_node_allow(&bo->tbo.base.vma_node, client->file);
	if (ret) {
		vrampool_bo_free(bo);
		return ret;
	}

	page->bo = bo;
	page->vram = bo->tbo.base.size;
	page->mmap_offset = drm_vma_node_offset_addr(&bo->tbo.base.vma_node);
	return 0;
}

static void client_release(const struct vrampool_backing *backing, struct vrampool_page *page)
{
	struct vrampool_client *client = backing_to_client(backing);

	if (!page->bo)
		return;

	drm_vma_node_revoke(&page->bo->tbo.base.vma_node, client->file);
	vrampool_bo_free(page->bo);
	page->bo = NULL;
}

/**
 * vrampool_layout_destroy() - free a layout and its pools
 * @layout: the layout, or NULL; its pools hold no live allocation
 */
void vrampool_layout_destroy(struct vrampool_layout *layout)
{
	u32 i;

	if (!layout)
		return;
	for (i = 0; i < layout->count; i++)
		vrampool_pool_destroy(layout->pools[i]);
	kfree(layout);
}

/**
 * vrampool_layout_create() - empty pools for a resolved layout
 * @client: the client that will own them
 * @pools: the resolved pools
 * @count: how many, at most DRM_VRAMPOOL_MAX_DYNAMIC_POOLS
 *
 * Return: the layout, or NULL without memory.
 */
struct vrampool_layout *vrampool_layout_create(struct vrampool_client *client,
					       const struct drm_vrampool_pool_entry *pools,
					       u32 count)
{
	struct vrampool_layout *layout;
	u32 i;

	layout = kzalloc(struct_size(layout, pools, count), GFP_KERNEL);
	if (!layout)
		return NULL;

	for (i = 0; i < count; i++) {
		layout->pools[i] = vrampool_pool_create(&pools[i], i,
							client->vdev->props.alignment,
							&client->backing);
		if (!layout->pools[i]) {
			layout->count = i;
			vrampool_layout_destroy(layout);
			return NULL;
		}
	}
	layout->count = count;
	return layout;
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

	client->layout = vrampool_layout_create(client, vdev->default_pools,
						vdev->default_count);
	if (!client->layout)
		goto err_persistent;

	if (vrampool_sysfs_client_add(client))
		goto err_layout;

	mutex_lock(&vdev->clients_lock);
	list_add_tail(&client->link, &vdev->clients);
	mutex_unlock(&vdev->clients_lock);
	atomic_inc(&vdev->client_count);

	file->driver_priv = client;
	return 0;

err_layout:
	vrampool_layout_destroy(client->layout);
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

	vrampool_layout_destroy(client->layout);
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
	for (i = 0; i < client->layout->count; i++)
		vrampool_pool_cleanup(client->layout->pools[i], true, client->alloc_nr);
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
	for (i = 0; i < client->layout->count; i++) {
		count += client->layout->pools[i]->stats.allocations;
		*bytes += client->layout->pools[i]->stats.bytes_in_use;
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
	for (i = 0; i < client->layout->count; i++)
		vram += client->layout->pools[i]->stats.vram;
	return vram;
}

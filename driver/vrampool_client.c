// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: clients, the open files of a device, and the layouts they own.
 *
 * A slice of a page must never belong to two clients (a CPU mapping of one
 * would expose the other), so each client owns its pools: a layout of
 * dynamic pools, replaced whole by an install, and the persistent pool.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include "vrampool_client.h"
#include "vrampool_drv.h"

/**
 * vrampool_layout_create() - build a layout from resolved pools
 * @pools: the pools, already checked and resolved
 * @count: how many, at most DRM_VRAMPOOL_MAX_DYNAMIC_POOLS
 *
 * Return: the layout, or NULL without memory.
 */
struct vrampool_layout *vrampool_layout_create(const struct drm_vrampool_pool_entry *pools,
					       u32 count)
{
	struct vrampool_layout *layout;

	layout = kmalloc(struct_size(layout, pools, count), GFP_KERNEL);
	if (!layout)
		return NULL;

	layout->count = count;
	memcpy(layout->pools, pools, flex_array_size(layout, pools, count));
	return layout;
}

/**
 * vrampool_layout_destroy() - free a layout no client uses any more
 * @layout: the layout, or NULL
 */
void vrampool_layout_destroy(struct vrampool_layout *layout)
{
	kfree(layout);
}

/**
 * vrampool_client_open() - &drm_driver.open: a new client
 * @drm: the device
 * @file: the new open file
 *
 * The client starts with the device's default layout.
 *
 * Return: 0 or -ENOMEM.
 */
int vrampool_client_open(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_device *vdev = to_vrampool_device(drm);
	struct vrampool_client *client;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;

	client->layout = vrampool_layout_create(vdev->default_layout->pools,
						vdev->default_layout->count);
	if (!client->layout) {
		kfree(client);
		return -ENOMEM;
	}

	client->vdev = vdev;
	client->generation = 1;
	mutex_init(&client->lock);
	file->driver_priv = client;
	return 0;
}

/**
 * vrampool_client_postclose() - &drm_driver.postclose: a client is gone
 * @drm: the device
 * @file: the closed file
 *
 * Frees everything the client owned.
 */
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vrampool_client *client = file->driver_priv;

	vrampool_layout_destroy(client->layout);
	mutex_destroy(&client->lock);
	kfree(client);
}

/**
 * vrampool_client_install() - put a new layout in force
 * @client: the client
 * @layout: the new layout; the client owns it from now on
 *
 * Return: the new layout generation.
 */
u64 vrampool_client_install(struct vrampool_client *client, struct vrampool_layout *layout)
{
	struct vrampool_layout *old;
	u64 generation;

	mutex_lock(&client->lock);
	old = client->layout;
	client->layout = layout;
	generation = ++client->generation;
	mutex_unlock(&client->lock);

	vrampool_layout_destroy(old);
	return generation;
}

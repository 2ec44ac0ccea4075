/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_SYSFS_CLIENT_H_
#define _VRAMPOOL_SYSFS_CLIENT_H_

#include <linux/types.h>

struct vrampool_client;

int vrampool_sysfs_client_add(struct vrampool_client *client);
void vrampool_sysfs_client_remove(struct vrampool_client *client);
int vrampool_sysfs_client_pools_grow(struct vrampool_client *client, u32 count);
void vrampool_sysfs_client_pools_shrink(struct vrampool_client *client, u32 count);

#endif /* _VRAMPOOL_SYSFS_CLIENT_H_ */

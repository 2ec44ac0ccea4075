/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_ALLOC_CACHE_H_
#define _VRAMPOOL_ALLOC_CACHE_H_

#include <linux/types.h>

struct vrampool_alloc;
struct vrampool_client;

int vrampool_alloc_cache_create(void);
void vrampool_alloc_cache_destroy(void);
struct vrampool_alloc *vrampool_alloc_cache_new(void);
bool vrampool_alloc_cache_new_bulk(u32 count, void **records);
void vrampool_alloc_cache_free(struct vrampool_alloc *a);
struct vrampool_alloc *vrampool_alloc_cache_get(struct vrampool_client *client);
bool vrampool_alloc_cache_get_bulk(struct vrampool_client *client, u32 count, void **records);
void vrampool_alloc_cache_put(struct vrampool_client *client, struct vrampool_alloc *a);
void vrampool_alloc_cache_put_bulk(struct vrampool_client *client, void **records, u32 count);
u32 vrampool_alloc_cache_drain(struct vrampool_client *client);

#endif /* _VRAMPOOL_ALLOC_CACHE_H_ */

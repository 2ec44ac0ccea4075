/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_HANDLES_H_
#define _VRAMPOOL_HANDLES_H_

#include <linux/types.h>
#include <linux/xarray.h>

#include "vrampool_pool.h"

struct drm_vrampool_alloc_answer;
struct vrampool_client;

/**
 * vrampool_handles_entry() - the handle entry of a placed allocation
 * @a: the allocation (DOC: handle entries)
 *
 * Return: @a itself, or for a zero-size allocation its pool's index as an
 * xarray value (@a, on the caller's stack, may then go).
 */
static inline void *vrampool_handles_entry(struct vrampool_alloc *a)
{
	return a->ppage ? a : xa_mk_value(a->whole.pool->index);
}

/**
 * vrampool_handles_pageless() - whether a handle entry is a zero-size allocation's
 * @entry: the entry (DOC: handle entries)
 *
 * Return: true if @entry is only its pool's index, no record.
 */
static inline bool vrampool_handles_pageless(const void *entry)
{
	return xa_is_value(entry);
}

/**
 * vrampool_handles_pool_index() - the pool of a zero-size allocation's entry
 * @entry: the entry, vrampool_handles_pageless()
 *
 * Return: the index of its pool.
 */
static inline u32 vrampool_handles_pool_index(const void *entry)
{
	return xa_to_value(entry);
}

int vrampool_handles_store(struct vrampool_client *client, void *entry, u32 *handle);
int vrampool_handles_store_all(struct vrampool_client *client, void **entries,
			       struct drm_vrampool_alloc_answer *answers, u32 count, u32 *failed);
void vrampool_handles_publish(struct vrampool_client *client,
			      const struct drm_vrampool_alloc_answer *answers, void **entries,
			      u32 count);
void vrampool_handles_erase(struct vrampool_client *client, u32 handle);
void *vrampool_handles_take(struct vrampool_client *client, u32 handle);
u32 vrampool_handles_first_missing(struct vrampool_client *client, const u32 *handles,
				   u32 count);
void vrampool_handles_take_all(struct vrampool_client *client, const u32 *handles, u32 count,
			       void **entries);
void vrampool_handles_trace_free(struct vrampool_client *client, u32 handle, void *entry);

#endif /* _VRAMPOOL_HANDLES_H_ */

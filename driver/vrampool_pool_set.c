// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: a client's pool set, the dynamic pools an install puts in force.
 *
 * The set is only a container: the pools do the work, and the client
 * (vrampool_install.c) decides when a set is built, swapped in and freed.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "vrampool_pool.h"
#include "vrampool_pool_set.h"

/**
 * vrampool_pool_set_destroy() - free a pool set and its pools
 * @set: the pool set, or NULL; its pools hold no live allocation
 *
 * Return: the pages its pools released (vrampool_pool_destroy()).
 */
u64 vrampool_pool_set_destroy(struct vrampool_pool_set *set)
{
	u64 released = 0;
	u32 i;

	if (!set)
		return 0;
	for (i = 0; i < set->count; i++) {
		released += vrampool_pool_destroy(set->pools[i]);
		cond_resched();
	}
	kfree(set);
	return released;
}

/**
 * vrampool_pool_set_create() - make empty pools for a resolved layout
 * @pools: the resolved pools
 * @count: how many, at most DRM_VRAMPOOL_MAX_DYNAMIC_POOLS
 * @alignment: the device alignment
 * @backing: where the pools' pages get their memory
 *
 * Return: the pool set, or NULL without memory.
 */
struct vrampool_pool_set *
vrampool_pool_set_create(const struct drm_vrampool_pool_entry *pools, u32 count,
			 u64 alignment, const struct vrampool_backing *backing)
{
	struct vrampool_pool_set *set;
	u32 i;

	set = kzalloc(struct_size(set, pools, count), GFP_KERNEL_ACCOUNT);
	if (!set)
		return NULL;

	/* __counted_by: the count covers the array before it is written. */
	set->count = count;
	for (i = 0; i < count; i++) {
		set->pools[i] = vrampool_pool_create(&pools[i], i, alignment, backing);
		if (!set->pools[i]) {
			set->count = i;
			vrampool_pool_set_destroy(set);
			return NULL;
		}
	}
	return set;
}

/**
 * vrampool_pool_set_cleanup() - run a cleanup pass over every pool of a set
 * @set: the pool set, its client locked
 * @explicit: an explicit cleanup (free pages go back now) rather than the
 *            periodic pass of exclusive pools
 * @alloc_nr: the client's allocation count, the clock of exclusive pools
 *
 * The periodic pass, which every ALLOC runs, visits the pools only once
 * one of them may have work (&vrampool_pool_set.periodic_due), and then
 * learns when one next may. An explicit cleanup only moves a pool's next
 * periodic work later, so the due count it leaves is early at worst: a
 * pass then finds nothing to do and learns the true one.
 */
void vrampool_pool_set_cleanup(struct vrampool_pool_set *set, bool explicit, u64 alloc_nr)
{
	u64 due = U64_MAX;
	u32 i;

	if (!explicit && alloc_nr < set->periodic_due)
		return;

	for (i = 0; i < set->count; i++) {
		vrampool_pool_cleanup(set->pools[i], explicit, alloc_nr);
		due = min(due, vrampool_pool_periodic_due(set->pools[i]));
	}
	set->periodic_due = due;
}

/**
 * vrampool_pool_set_allocations() - live allocations in a set's pools
 * @set: the pool set, its client locked
 * @bytes: set to their requested bytes
 *
 * Return: how many there are.
 */
u64 vrampool_pool_set_allocations(const struct vrampool_pool_set *set, u64 *bytes)
{
	u64 count = 0;
	u32 i;

	*bytes = 0;
	for (i = 0; i < set->count; i++) {
		count += set->pools[i]->stats.allocations;
		*bytes += set->pools[i]->stats.bytes_in_use;
	}
	return count;
}

/**
 * vrampool_pool_set_vram() - VRAM held by a set's pools
 * @set: the pool set, its client locked
 *
 * Return: bytes of VRAM the pages of its pools hold.
 */
u64 vrampool_pool_set_vram(const struct vrampool_pool_set *set)
{
	u64 vram = 0;
	u32 i;

	for (i = 0; i < set->count; i++)
		vram += set->pools[i]->stats.vram;
	return vram;
}

/**
 * vrampool_pool_set_trim() - give back free pages of a set until a goal is met
 * @set: the pool set, its client locked
 * @trim: the goal (vrampool_pool_trim())
 *
 * The pools in their order, each until @trim says enough.
 */
void vrampool_pool_set_trim(struct vrampool_pool_set *set, struct vrampool_trim *trim)
{
	u32 i;

	for (i = 0; i < set->count && !trim->done(trim); i++)
		vrampool_pool_trim(set->pools[i], trim);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_CLIENT_TYPES_H_
#define _VRAMPOOL_CLIENT_TYPES_H_

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "vrampool_bo.h"
#include "vrampool_pool.h"

struct drm_file;
struct vrampool_client_sysfs;
struct vrampool_device;
struct vrampool_pool_set;
struct vrampool_tenant;

/*
 * Records a client keeps for reuse (DOC: spare records, in
 * vrampool_alloc_cache.c): as many as a batch of 256 frees.
 */
#define VRAMPOOL_SPARE_RECORDS	256

/**
 * struct vrampool_client - what one open file owns
 *
 * A slice of a page must never belong to two clients (a CPU mapping of one
 * would expose the other), so each client has its own pools. No
 * device-wide lock is taken to serve an allocation from an existing page.
 * See DOC: Locking in vrampool_client.h for what each lock protects.
 */
struct vrampool_client {
	/** @vdev: the device */
	struct vrampool_device *vdev;
	/** @file: the open file, which may map the client's pages */
	struct drm_file *file;
	/** @tenant: the user that opened it, whose limits it shares */
	struct vrampool_tenant *tenant;
	/**
	 * @ref: the file's reference, and one for each reclaim walk that is
	 * visiting the client (DOC: reclaim); the last frees the struct
	 */
	refcount_t ref;
	/** @lock: protects everything below except @sysfs, @sysfs_lock and @link */
	struct mutex lock;
	/** @closed: postclose has begun: nothing is left to reclaim */
	bool closed;
	/**
	 * @pool_set: the dynamic pools in force; replaced with both @sysfs_lock
	 * and @lock held, so holding either keeps it stable
	 */
	struct vrampool_pool_set *pool_set;
	/** @persistent: the persistent pool, index 255, kept across installs */
	struct vrampool_pool *persistent;
	/**
	 * @handles: allocation handles, from 1, each naming its allocation
	 * (DOC: handle entries, in vrampool_handles.c)
	 */
	struct xarray handles;
	/**
	 * @allocations: live allocations; with the user's other files', at
	 * most the module's max_allocations (&vrampool_tenant.allocations)
	 */
	u32 allocations;
	/**
	 * @pages: pages of all its pools; with the user's other files', at
	 * most the module's max_pages (&vrampool_tenant.pages)
	 */
	u32 pages;
	/**
	 * @pages_made: pages its pools have made since it opened; a refused
	 * batch compares it to learn whether it made any (DOC: batches)
	 */
	u64 pages_made;
	/**
	 * @next_handle: where the cyclic search for a new handle starts: after
	 * the last one handed out, so that a freed handle is not reused at once
	 */
	u32 next_handle;
	/**
	 * @retired_handle: the handle FREE took last, still reserved in
	 * @handles (it loads as NULL) so that the path to it stays (DOC:
	 * retired handle, in vrampool_handles.c); 0 if none
	 */
	u32 retired_handle;
	/** @nr_spare: how many records @spare holds */
	u32 nr_spare;
	/**
	 * @spare: records of freed allocations, kept for the next ALLOCs, a
	 * stack linked through &vrampool_alloc.next_spare (DOC: spare
	 * records, in vrampool_alloc_cache.c); NULL when empty
	 */
	struct vrampool_alloc *spare;
	/** @backing: gives pool pages VRAM buffer objects mapped for @file */
	struct vrampool_backing backing;
	/**
	 * @orphans: the client's pages freed while still mapped, charged to it
	 * until their last mapping goes; atomic, under no lock
	 */
	struct vrampool_orphans orphans;
	/** @generation: bumped by every install, under @sysfs_lock and @lock */
	u64 generation;
	/** @alloc_nr: allocations asked for, the clock of exclusive pools */
	u64 alloc_nr;
	/** @persistent_mode: a DRM_VRAMPOOL_PERSISTENT_* mode */
	u32 persistent_mode;
	/**
	 * @last_alloc: &vrampool_device.alloc_clock at its last ALLOC, 0
	 * before any; written under @lock, read by reclaim under
	 * &vrampool_device.clients_lock (READ_ONCE(), DOC: reclaim)
	 */
	u64 last_alloc;
	/**
	 * @quota_refused: the quota a new page was refused under in this
	 * ALLOC, 0 if none was; reset by each ALLOC
	 */
	u64 quota_refused;
	/**
	 * @hopeless: this ALLOC's new page can never be made, whatever is
	 * given back: it is larger than the device's VRAM or than the quota;
	 * reset by each ALLOC (DOC: reclaim, in vrampool_reclaim.c)
	 */
	bool hopeless;
	/**
	 * @cgroup_refused: a dmem cgroup's dmem.max refused a new page in
	 * this ALLOC (DOC: dmem cgroup, in vrampool_dmem.c); reset by each
	 * ALLOC and before each route
	 */
	bool cgroup_refused;
	/**
	 * @cached_vram: VRAM of its pages without a live allocation, in all
	 * its pools (&vrampool_backing.cached): what a reclaim may take;
	 * written under @lock, read by reclaim walks without it (READ_ONCE())
	 */
	u64 cached_vram;
	/**
	 * @refused_vram: the VRAM of the last new page VRAM or the quota
	 * refused in this ALLOC: what a reclaim must make room for
	 */
	u64 refused_vram;
	/** @reclaimed_bytes: VRAM other clients' reclaim took from its free pages */
	u64 reclaimed_bytes;
	/** @reclaimed_pages: how many pages (and buffers) that was */
	u64 reclaimed_pages;
	/** @sysfs: clients/<id>/, private to vrampool_sysfs_client.c; changed under @sysfs_lock */
	struct vrampool_client_sysfs *sysfs;
	/** @sysfs_lock: serialises installs, and their changes to @sysfs */
	struct mutex sysfs_lock;
	/** @link: in &vrampool_device.clients, under &vrampool_device.clients_lock */
	struct list_head link;
};

#endif /* _VRAMPOOL_CLIENT_TYPES_H_ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DEVICE_TYPES_H_
#define _VRAMPOOL_DEVICE_TYPES_H_

#include <linux/atomic.h>
#include <linux/iosys-map.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/ttm/ttm_device.h>

#include "vrampool_vram_mgr_types.h"

struct drm_vrampool_pool_entry;
struct kobject;
struct dmem_cgroup_region;
struct vrampool_sysfs_dir;

/**
 * enum vrampool_vram_backend - where a device's VRAM lives
 * @VRAMPOOL_VRAM_EMULATED: kernel memory from vmalloc, for emulated devices
 * @VRAMPOOL_VRAM_PCI_BAR: a PCI memory BAR, mapped write-combined
 */
enum vrampool_vram_backend {
	VRAMPOOL_VRAM_EMULATED,
	VRAMPOOL_VRAM_PCI_BAR,
};

/**
 * struct vrampool_device_props - the properties a device is created with
 *
 * Fixed for the device's lifetime; readable through GET_PARAM.
 */
struct vrampool_device_props {
	/** @vram_size: usable VRAM in bytes, a multiple of PAGE_SIZE */
	u64 vram_size;
	/** @alignment: allocation alignment in bytes, a power of two */
	u64 alignment;
	/** @max_page_size: page size the default layouts are sized from */
	u64 max_page_size;
	/** @exclusive_memory_only: the device refuses sliced pools */
	bool exclusive_memory_only;
};

/**
 * struct vrampool_device - one vrampool device
 *
 * Embeds the DRM device; made by vrampool_device_create() for the backend
 * that found the device and freed with the last reference to @drm.
 */
struct vrampool_device {
	/** @drm: the DRM device, an accel node */
	struct drm_device drm;
	/** @bdev: the TTM device managing @vram */
	struct ttm_device bdev;
	/** @vram_mgr: the allocator of @vram */
	struct vrampool_vram_mgr vram_mgr;
	/** @backend: what backs @vram */
	enum vrampool_vram_backend backend;
	/** @props: the device's properties */
	struct vrampool_device_props props;
	/**
	 * @vram: kernel mapping of the whole VRAM (system memory for the
	 * emulated backend, I/O memory for a PCI BAR)
	 */
	struct iosys_map vram;
	/** @bus_base: bus address of VRAM for a PCI BAR, 0 when emulated */
	resource_size_t bus_base;
	/** @default_pools: the resolved pools a new client starts with */
	struct drm_vrampool_pool_entry *default_pools;
	/** @default_count: how many */
	u32 default_count;
	/**
	 * @sysfs_lock: protects @sysfs, @sysfs_clients and @sysfs_users,
	 * cleared at unbind, against an open() adding a folder meanwhile, and
	 * each user's folder (&vrampool_tenant.sysfs)
	 */
	struct mutex sysfs_lock;
	/** @sysfs: <device>/vrampool/, private to vrampool_sysfs.c; NULL once unbound */
	struct vrampool_sysfs_dir *sysfs;
	/** @sysfs_clients: <device>/vrampool/clients/; NULL once unbound */
	struct kobject *sysfs_clients;
	/** @sysfs_users: <device>/vrampool/users/; NULL once unbound */
	struct kobject *sysfs_users;
	/** @client_count: open clients */
	atomic_t client_count;
	/** @clients_lock: protects @clients */
	struct mutex clients_lock;
	/** @clients: open clients, for debugfs and reclaim */
	struct list_head clients;
	/**
	 * @tenants: the users with a file open or VRAM charged, by uid
	 * (DOC: tenants, in vrampool_tenant.c)
	 */
	struct xarray tenants;
	/** @tenants_lock: serialises the lookups that may add a user to @tenants */
	struct mutex tenants_lock;
	/**
	 * @vram_quota: VRAM one user may hold, in bytes, 0 for no limit;
	 * from the module parameter vram_quota, changed through sysfs
	 * (READ_ONCE(), WRITE_ONCE())
	 */
	u64 vram_quota;
	/** @alloc_clock: counts ALLOCs, the clock of &vrampool_client.last_alloc */
	atomic64_t alloc_clock;
	/** @reclaim_walks: reclaim walks begun (debugfs ``reclaim``) */
	atomic64_t reclaim_walks;
	/**
	 * @reclaim_work: the steps of every reclaim walk: clients examined,
	 * compared and visited (&vrampool_reclaim.work, debugfs ``reclaim``)
	 */
	atomic64_t reclaim_work;
	/** @reclaimed_bytes: VRAM reclaim has taken from clients, in total */
	atomic64_t reclaimed_bytes;
	/** @reclaimed_pages: how many pages (and buffers) that was */
	atomic64_t reclaimed_pages;
	/**
	 * @dmem_region: its VRAM as a dmem cgroup region, NULL without the
	 * controller (DOC: dmem cgroup, in vrampool_dmem.c)
	 */
	struct dmem_cgroup_region *dmem_region;
};

#endif /* _VRAMPOOL_DEVICE_TYPES_H_ */

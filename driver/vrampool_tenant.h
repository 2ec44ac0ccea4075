/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_TENANT_H_
#define _VRAMPOOL_TENANT_H_

#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct vrampool_device;
struct vrampool_sysfs_dir;

/**
 * struct vrampool_tenant - a user of a device, and what all its files hold
 *
 * One per user (the real uid of the task that opened the file, as
 * ``RLIMIT_MEMLOCK`` charges &user_struct.locked_vm) that has a file of
 * the device open, or VRAM still charged to it. The limits (the device's
 * ``vram_quota``, the module's ``max_allocations`` and ``max_pages``) apply
 * to these sums, however many files the user opens (DOC: tenants, in
 * vrampool_tenant.c). The counters are atomic: the user's files charge
 * them under their own client locks, which are distinct.
 */
struct vrampool_tenant {
	/** @vdev: the device */
	struct vrampool_device *vdev;
	/** @uid: the user */
	kuid_t uid;
	/** @ref: one per open file of the user, one per BO charged to it */
	refcount_t ref;
	/** @vram: bytes of VRAM its BOs hold, orphans included */
	atomic64_t vram;
	/** @pages: pool pages of all its files' pools */
	atomic_t pages;
	/** @allocations: live allocations of all its files */
	atomic_t allocations;
	/** @reclaimed_bytes: VRAM other users' reclaim took from its files */
	atomic64_t reclaimed_bytes;
	/** @reclaimed_pages: how many pages (and buffers) that was */
	atomic64_t reclaimed_pages;
	/** @reclaim_taken: VRAM its files' reclaim took from other users' files */
	atomic64_t reclaim_taken;
	/** @files: its open files */
	atomic_t files;
	/**
	 * @sysfs: users/<uid>/ while @sysfs_files is not 0 (and the device is
	 * bound), or NULL; under &vrampool_device.sysfs_lock
	 */
	struct vrampool_sysfs_dir *sysfs;
	/**
	 * @sysfs_files: the open files that have added themselves to @sysfs
	 * (vrampool_sysfs_user.c); under &vrampool_device.sysfs_lock
	 */
	u32 sysfs_files;
	/** @rcu: frees it after lookups that may still see it */
	struct rcu_head rcu;
};

int vrampool_tenant_init(struct vrampool_device *vdev);
struct vrampool_tenant *vrampool_tenant_open(struct vrampool_device *vdev, kuid_t uid);
void vrampool_tenant_close(struct vrampool_tenant *tenant);
void vrampool_tenant_get(struct vrampool_tenant *tenant);
void vrampool_tenant_put(struct vrampool_tenant *tenant);
bool vrampool_tenant_charge_vram(struct vrampool_tenant *tenant, u64 size, u64 quota);
void vrampool_tenant_uncharge_vram(struct vrampool_tenant *tenant, u64 size);
bool vrampool_tenant_charge_page(struct vrampool_tenant *tenant, u32 max);
void vrampool_tenant_uncharge_page(struct vrampool_tenant *tenant);
u32 vrampool_tenant_charge_allocations(struct vrampool_tenant *tenant, u32 n, u32 max);
void vrampool_tenant_uncharge_allocations(struct vrampool_tenant *tenant, u32 n);

/**
 * vrampool_tenant_vram() - VRAM charged to a user
 * @tenant: the user
 *
 * Return: the bytes its BOs hold.
 */
static inline u64 vrampool_tenant_vram(const struct vrampool_tenant *tenant)
{
	return atomic64_read(&tenant->vram);
}

#endif /* _VRAMPOOL_TENANT_H_ */

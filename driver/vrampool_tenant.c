// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: tenants, the users of a device, and the sums their limits
 * apply to.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <drm/drm_managed.h>

#include <kunit/visibility.h>

#include "vrampool_device_types.h"
#include "vrampool_tenant.h"

/**
 * DOC: tenants
 *
 * A tenant is a user: the real uid of the task that opened a file of the
 * device (current_uid() at open; a file passed to another process stays
 * its opener's), as the kernel charges locked memory to &user_struct.
 * The limits a device enforces are the tenant's: the device's
 * ``vram_quota`` bounds the VRAM all of a user's files hold,
 * the module's ``max_allocations`` and ``max_pages`` their live
 * allocations and pool pages. Opening the device again gives a user no
 * more of any of them.
 *
 * Charges: a pool page charges a page and its VRAM when it is backed
 * (client_back(), vrampool_client.c), before its BO is made, and the BO
 * keeps the VRAM charge and a reference to the tenant until it is
 * destroyed, which for an orphan (a page freed while still mapped) is at
 * its last munmap(); a live allocation charges one allocation while it
 * lives. Each charge tests and adds in one atomic step
 * (atomic64_try_cmpxchg()), so the user's files, which run under
 * different client locks, cannot together pass a limit; the size sums are
 * overflow-checked. A limit lowered below what is held takes nothing
 * away: it refuses new charges.
 *
 * Lifetime: the device keeps its tenants in &vrampool_device.tenants, by
 * uid, each counted by its open files and its charged BOs; the last
 * reference frees it (after an RCU grace period: a lookup may still see
 * it) from whatever context drops it, which for a BO may be TTM's delayed
 * destroy. &vrampool_device.tenants_lock serialises lookups that may add a
 * tenant; nothing is taken under it. Its sysfs folder, users/<uid>/, lives
 * while the user has a file open (vrampool_sysfs_user.c, called by open
 * and close in vrampool_drv.c).
 */

static unsigned long tenant_key(kuid_t uid)
{
	return from_kuid(&init_user_ns, uid);
}

static void tenants_fini(struct drm_device *drm, void *data)
{
	xa_destroy(data);
}

/**
 * vrampool_tenant_init() - the device's table of tenants
 * @vdev: the device
 *
 * Return: 0 or a negative errno; released with the DRM device.
 */
int vrampool_tenant_init(struct vrampool_device *vdev)
{
	int ret;

	ret = drmm_mutex_init(&vdev->drm, &vdev->tenants_lock);
	if (ret)
		return ret;
	xa_init(&vdev->tenants);
	return drmm_add_action_or_reset(&vdev->drm, tenants_fini, &vdev->tenants);
}

/* A live tenant of @uid with a new reference, or NULL. */
static struct vrampool_tenant *tenant_lookup(struct vrampool_device *vdev, kuid_t uid)
{
	struct vrampool_tenant *tenant;

	guard(rcu)();
	tenant = xa_load(&vdev->tenants, tenant_key(uid));
	if (tenant && !refcount_inc_not_zero(&tenant->ref))
		tenant = NULL;
	return tenant;
}

/* A new tenant of @uid in the table, in place of one on its way out. */
static struct vrampool_tenant *tenant_create(struct vrampool_device *vdev, kuid_t uid)
{
	struct vrampool_tenant *tenant;
	void *old;

	tenant = kzalloc(sizeof(*tenant), GFP_KERNEL_ACCOUNT);
	if (!tenant)
		return NULL;
	tenant->vdev = vdev;
	tenant->uid = uid;
	refcount_set(&tenant->ref, 1);
	old = xa_store(&vdev->tenants, tenant_key(uid), tenant, GFP_KERNEL_ACCOUNT);
	if (xa_is_err(old)) {
		kfree(tenant);
		return NULL;
	}
	return tenant;
}

/**
 * vrampool_tenant_open() - the tenant of a new file
 * @vdev: the device
 * @uid: the file's opener
 *
 * Counts the file.
 *
 * Return: the tenant, with a reference for the file; NULL when out of memory.
 */
struct vrampool_tenant *vrampool_tenant_open(struct vrampool_device *vdev, kuid_t uid)
{
	struct vrampool_tenant *tenant;

	guard(mutex)(&vdev->tenants_lock);
	tenant = tenant_lookup(vdev, uid);
	if (!tenant)
		tenant = tenant_create(vdev, uid);
	if (!tenant)
		return NULL;
	atomic_inc(&tenant->files);
	return tenant;
}

/**
 * vrampool_tenant_close() - a file of the tenant is closed
 * @tenant: its tenant, from vrampool_tenant_open()
 *
 * Drops the file's count and reference.
 */
void vrampool_tenant_close(struct vrampool_tenant *tenant)
{
	atomic_dec(&tenant->files);
	vrampool_tenant_put(tenant);
}

/**
 * vrampool_tenant_get() - another reference to a tenant
 * @tenant: a tenant the caller holds a reference to
 */
void vrampool_tenant_get(struct vrampool_tenant *tenant)
{
	refcount_inc(&tenant->ref);
}

/**
 * vrampool_tenant_put() - drop a reference to a tenant
 * @tenant: the tenant
 *
 * The last one takes it out of the device's table and frees it after a
 * grace period. Takes no sleeping lock: a BO's destruction may drop it.
 */
void vrampool_tenant_put(struct vrampool_tenant *tenant)
{
	if (!refcount_dec_and_test(&tenant->ref))
		return;
	/* A new tenant of the same user may have taken the slot already. */
	xa_cmpxchg(&tenant->vdev->tenants, tenant_key(tenant->uid), tenant, NULL, 0);
	kfree_rcu(tenant, rcu);
}

/**
 * vrampool_tenant_charge_vram() - charge the VRAM of a new BO
 * @tenant: the user
 * @size: the BO's size in bytes
 * @quota: the most the user may hold, 0 for no limit
 *
 * Return: true when charged; false, with nothing charged, when the user
 * would hold more than @quota (or more than 2^64 - 1 bytes).
 */
bool vrampool_tenant_charge_vram(struct vrampool_tenant *tenant, u64 size, u64 quota)
{
	s64 old = atomic64_read(&tenant->vram);
	u64 sum;

	do {
		if (check_add_overflow((u64)old, size, &sum) || (quota && sum > quota))
			return false;
	} while (!atomic64_try_cmpxchg(&tenant->vram, &old, sum));
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_tenant_charge_vram);

/**
 * vrampool_tenant_uncharge_vram() - a charged BO is gone
 * @tenant: the user it was charged to
 * @size: its size, as charged
 */
void vrampool_tenant_uncharge_vram(struct vrampool_tenant *tenant, u64 size)
{
	atomic64_sub(size, &tenant->vram);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_tenant_uncharge_vram);

/*
 * Adds up to @n to @count while it stays at most @max, in one atomic step.
 * Returns how much was added.
 */
static u32 charge_upto(atomic_t *count, u32 n, u32 max)
{
	int old = atomic_read(count);
	u32 room, take;

	do {
		room = (u32)old < max ? max - (u32)old : 0;
		take = min(n, room);
		if (!take)
			return 0;
	} while (!atomic_try_cmpxchg(count, &old, old + take));
	return take;
}

/**
 * vrampool_tenant_charge_page() - charge a new pool page
 * @tenant: the user
 * @max: the most pages the user may hold
 *
 * Return: true when charged, false when the user holds @max already.
 */
bool vrampool_tenant_charge_page(struct vrampool_tenant *tenant, u32 max)
{
	return charge_upto(&tenant->pages, 1, max);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_tenant_charge_page);

/**
 * vrampool_tenant_uncharge_page() - a charged pool page is released
 * @tenant: the user it was charged to
 */
void vrampool_tenant_uncharge_page(struct vrampool_tenant *tenant)
{
	atomic_dec(&tenant->pages);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_tenant_uncharge_page);

/**
 * vrampool_tenant_charge_allocations() - charge new live allocations
 * @tenant: the user
 * @n: how many the caller would place
 * @max: the most live allocations the user may hold
 *
 * Return: how many are charged, from 0 (the user holds @max already) to @n.
 */
u32 vrampool_tenant_charge_allocations(struct vrampool_tenant *tenant, u32 n, u32 max)
{
	return charge_upto(&tenant->allocations, n, max);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_tenant_charge_allocations);

/**
 * vrampool_tenant_uncharge_allocations() - live allocations are freed
 * @tenant: the user they were charged to
 * @n: how many
 */
void vrampool_tenant_uncharge_allocations(struct vrampool_tenant *tenant, u32 n)
{
	atomic_sub(n, &tenant->allocations);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_tenant_uncharge_allocations);

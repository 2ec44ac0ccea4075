// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: a user's folder in sysfs, users/<uid>/: what all of a user's
 * files hold, the sums its limits apply to (DOC: tenants, in
 * vrampool_tenant.c; the overview and DOC: Lifetimes are in
 * vrampool_sysfs.c).
 *
 * The folder's files belong to the user (the uid is the folder's name, as
 * the initial user namespace numbers it) and are readable by it and root
 * alone: a user sees its own totals, root everyone's.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/uidgid.h>

#include "vrampool_device_types.h"
#include "vrampool_sysfs_dir.h"
#include "vrampool_sysfs_user.h"
#include "vrampool_tenant.h"

enum user_field {
	UF_VRAM, UF_ALLOCATIONS, UF_PAGES, UF_FILES, UF_RECLAIMED, UF_RECLAIMED_PAGES,
	UF_RECLAIM_TAKEN, UF_COUNT,
};

static const char *const user_files[UF_COUNT] = {
	[UF_VRAM] = "vram",
	[UF_ALLOCATIONS] = "allocations",
	[UF_PAGES] = "pages",
	[UF_FILES] = "files",
	[UF_RECLAIMED] = "reclaimed",
	[UF_RECLAIMED_PAGES] = "reclaimed_pages",
	[UF_RECLAIM_TAKEN] = "reclaim_taken",
};

/* Lock-free: every value is one atomic counter of the tenant. */
static ssize_t user_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct vrampool_sysfs_attr *a = to_vrampool_sysfs_attr(attr);
	struct vrampool_tenant *tenant = a->obj;
	u64 v;

	switch (a->field) {
	case UF_VRAM:
		v = vrampool_tenant_vram(tenant);
		break;
	case UF_ALLOCATIONS:
		v = atomic_read(&tenant->allocations);
		break;
	case UF_PAGES:
		v = atomic_read(&tenant->pages);
		break;
	case UF_FILES:
		v = atomic_read(&tenant->files);
		break;
	case UF_RECLAIMED:
		v = atomic64_read(&tenant->reclaimed_bytes);
		break;
	case UF_RECLAIMED_PAGES:
		v = atomic64_read(&tenant->reclaimed_pages);
		break;
	default:
		v = atomic64_read(&tenant->reclaim_taken);
		break;
	}
	return sysfs_emit(buf, "%llu\n", v);
}

/* users/<uid>/ for @tenant; the device's sysfs lock is held. */
static void user_dir_add(struct vrampool_tenant *tenant)
{
	struct vrampool_device *vdev = tenant->vdev;
	struct vrampool_sysfs_dir *dir;
	char name[16];

	snprintf(name, sizeof(name), "%u", from_kuid(&init_user_ns, tenant->uid));
	dir = vrampool_sysfs_dir_create(vdev->sysfs_users, name, user_files, UF_COUNT, 0400,
					user_show, NULL, 0, tenant);
	if (!dir)
		return;
	/*
	 * The files, not the folder: sysfs_change_owner() is not exported
	 * from 7.x on, and an owned folder would tell no more than its name.
	 */
	if (sysfs_group_change_owner(dir->kobj, &dir->group, tenant->uid, GLOBAL_ROOT_GID)) {
		vrampool_sysfs_dir_remove(dir);
		return;
	}
	tenant->sysfs = dir;
}

/**
 * vrampool_sysfs_user_add() - count an open file in its user's folder
 * @tenant: the file's user
 *
 * The user's first file creates users/<uid>/; quietly none once the
 * device is unbound, or when out of memory: the folder only shows what the
 * user's fdinfo shows too. Every call is matched by
 * vrampool_sysfs_user_remove() when the file is closed.
 */
void vrampool_sysfs_user_add(struct vrampool_tenant *tenant)
{
	struct vrampool_device *vdev = tenant->vdev;

	guard(mutex)(&vdev->sysfs_lock);
	if (!tenant->sysfs_files++ && vdev->sysfs_users)
		user_dir_add(tenant);
}

/**
 * vrampool_sysfs_user_remove() - a file counted in its user's folder is closed
 * @tenant: the file's user
 *
 * The user's last file removes users/<uid>/, waiting for its running
 * show()s, which take no lock.
 */
void vrampool_sysfs_user_remove(struct vrampool_tenant *tenant)
{
	struct vrampool_device *vdev = tenant->vdev;

	guard(mutex)(&vdev->sysfs_lock);
	if (--tenant->sysfs_files)
		return;
	vrampool_sysfs_dir_remove(tenant->sysfs);
	tenant->sysfs = NULL;
}

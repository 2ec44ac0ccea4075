// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: live devices, clients and pools in sysfs; this file makes
 * <device>/vrampool/, vrampool_sysfs_client.c each client's folder.
 *
 * <device>/vrampool/ holds the device's totals; clients/<id>/ (the id is
 * the DRM client id, as fdinfo's drm-client-id) holds each client's
 * properties, one value per file, and pools/<index> each of its pools, the
 * persistent pool always at 255: one file per pool with one "name value"
 * line per field, so that a pool costs one kernfs node, not a folder of
 * fourteen (see "Kernel memory of a client" in Documentation/vrampool.rst).
 * Read live: a show() takes the client's lock, and files are added before
 * and removed after that lock is held, never under it (removal waits for
 * running show()s; see DOC: Locking).
 *
 * A client's folder is added when its file is opened and removed when it
 * is closed (vrampool_drv.c), its pool files when an install changes the
 * layout (vrampool_install.c); vrampool_sysfs_client.c reads the
 * client's members under its lock and calls nothing that calls it back.
 *
 * The device's totals are world-readable; a client's files (clients/<id>/
 * and its pools) are root's alone (CLIENT_FILE_MODE): what another tenant
 * runs, and how much of what, is no business of other users or of
 * containers that see /sys. Nor which clients are open, or which users
 * have files open: root alone lists clients/ and users/ (FOLDER_MODE),
 * and a user reaches its own users/<uid>/ by its name. Its comm reads empty, like its pid 0, for a
 * reader whose pid namespace does not see the process.
 *
 * A pools/<index> file stands for a position in the layout, not for one
 * pool object: an install that keeps the index keeps the file, which then
 * shows the new pool. Fields a pool type does not have, and optional
 * fields that are absent, read "none".
 *
 * DOC: Lifetimes
 *
 * No kobject here has a release() in this module. A kobject's release can
 * run long after its last kobject_put() (with CONFIG_DEBUG_KOBJECT_RELEASE,
 * 1-4 s later, from a workqueue), so a release in module text could run
 * after rmmod. Every folder is a kobject from kobject_create_and_add(),
 * whose release is the kernel's own and frees nothing of ours; its files
 * are attributes we allocate (with the folder, struct vrampool_sysfs_dir;
 * or one by one, struct vrampool_pool_file), each pointing at the object
 * it shows. Removing a folder is kobject_del() (which removes its files and
 * waits for their running show()s), then freeing our part, then
 * kobject_put(); removing a pool's file is sysfs_remove_file() (which
 * waits too), then freeing it: whenever the kernel releases a kobject,
 * nothing of ours is left for it to touch.
 *
 * The device's folders go at unbind, though clients may keep the DRM device
 * open: vrampool_sysfs_fini() clears &vrampool_device.sysfs under
 * &vrampool_device.sysfs_lock, and a client's folder is added under that
 * lock only while the clients/ folder is still there (an open racing the
 * unbind gets no folder). A client folder outliving clients/ is harmless:
 * removing clients/ removed its files too (kernfs removes the whole
 * subtree), and the client's own removal later finds them gone.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/bits.h>
#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/sysfs.h>

#include <drm/drm_managed.h>

#include "vrampool_device_types.h"
#include "vrampool_dmem.h"
#include "vrampool_sysfs.h"
#include "vrampool_sysfs_dir.h"
#include "vrampool_vram_mgr.h"

/* ---- <device>/vrampool/ ---------------------------------------------- */

enum dev_field {
	DF_VRAM_SIZE, DF_VRAM_IN_USE, DF_ALIGNMENT, DF_MAX_PAGE_SIZE,
	DF_EXCLUSIVE_MEMORY_ONLY, DF_CLIENT_COUNT, DF_VRAM_QUOTA, DF_RECLAIMED,
	DF_RECLAIMED_PAGES, DF_DMEM_REGION, DF_COUNT,
};

static const char *const dev_files[DF_COUNT] = {
	[DF_VRAM_SIZE] = "vram_size",
	[DF_VRAM_IN_USE] = "vram_in_use",
	[DF_ALIGNMENT] = "alignment",
	[DF_MAX_PAGE_SIZE] = "max_page_size",
	[DF_EXCLUSIVE_MEMORY_ONLY] = "exclusive_memory_only",
	[DF_CLIENT_COUNT] = "client_count",
	[DF_VRAM_QUOTA] = "vram_quota",
	[DF_RECLAIMED] = "reclaimed",
	[DF_RECLAIMED_PAGES] = "reclaimed_pages",
	[DF_DMEM_REGION] = "dmem_region",
};

static ssize_t dev_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct vrampool_sysfs_attr *a = to_vrampool_sysfs_attr(attr);
	struct vrampool_device *vdev = a->obj;
	u64 v;

	switch (a->field) {
	case DF_VRAM_SIZE:
		v = vdev->props.vram_size;
		break;
	case DF_VRAM_IN_USE:
		v = vrampool_vram_mgr_in_use(&vdev->vram_mgr);
		break;
	case DF_ALIGNMENT:
		v = vdev->props.alignment;
		break;
	case DF_MAX_PAGE_SIZE:
		v = vdev->props.max_page_size;
		break;
	case DF_EXCLUSIVE_MEMORY_ONLY:
		v = vdev->props.exclusive_memory_only;
		break;
	case DF_VRAM_QUOTA:
		v = READ_ONCE(vdev->vram_quota);
		break;
	case DF_RECLAIMED:
		v = atomic64_read(&vdev->reclaimed_bytes);
		break;
	case DF_RECLAIMED_PAGES:
		v = atomic64_read(&vdev->reclaimed_pages);
		break;
	case DF_DMEM_REGION:
		return vrampool_dmem_region_show(vdev, buf);
	default:
		v = atomic_read(&vdev->client_count);
		break;
	}
	return sysfs_emit(buf, "%llu\n", v);
}

/* vram_quota: a number of bytes, 0 for none; the mode lets root alone write. */
static ssize_t dev_store(struct kobject *kobj, struct kobj_attribute *attr, const char *buf,
			 size_t count)
{
	struct vrampool_sysfs_attr *a = to_vrampool_sysfs_attr(attr);
	struct vrampool_device *vdev = a->obj;
	u64 v;
	int ret;

	ret = kstrtou64(buf, 10, &v);
	if (ret)
		return ret;
	WRITE_ONCE(vdev->vram_quota, v);
	return count;
}

/* clients/ and users/: root lists them; everyone may pass through. */
#define FOLDER_MODE	0711

/*
 * kobject_create_and_add() makes a folder of mode 0755; sysfs_chmod_file()
 * changes the mode of any node of its parent by name, a folder's too.
 */
static struct kobject *unlisted_folder(struct kobject *parent, const char *name)
{
	const struct attribute node = { .name = name };
	struct kobject *kobj;

	kobj = kobject_create_and_add(name, parent);
	if (kobj && sysfs_chmod_file(parent, &node, FOLDER_MODE)) {
		kobject_del(kobj);
		kobject_put(kobj);
		kobj = NULL;
	}
	return kobj;
}

static void vrampool_sysfs_fini(void *data)
{
	struct vrampool_device *vdev = data;
	struct vrampool_sysfs_dir *dir;
	struct kobject *clients, *users;

	/*
	 * At unbind: the folder lives under the bus device and must go with
	 * the binding, even while clients keep the DRM device open. Their
	 * folders go with it (DOC: Lifetimes); no new one is added once the
	 * pointers are cleared.
	 */
	scoped_guard(mutex, &vdev->sysfs_lock) {
		dir = vdev->sysfs;
		clients = vdev->sysfs_clients;
		users = vdev->sysfs_users;
		vdev->sysfs = NULL;
		vdev->sysfs_clients = NULL;
		vdev->sysfs_users = NULL;
	}
	kobject_del(clients);
	kobject_put(clients);
	kobject_del(users);
	kobject_put(users);
	vrampool_sysfs_dir_remove(dir);
}

/**
 * vrampool_sysfs_init() - create <device>/vrampool/, its clients/ and users/ folders
 * @vdev: the device, before it is registered
 *
 * Removed when the device is unbound (a managed action of the bus device).
 *
 * Return: 0 or a negative errno.
 */
int vrampool_sysfs_init(struct vrampool_device *vdev)
{
	struct vrampool_sysfs_dir *dir;
	int ret;

	ret = drmm_mutex_init(&vdev->drm, &vdev->sysfs_lock);
	if (ret)
		return ret;

	dir = vrampool_sysfs_dir_create(&vdev->drm.dev->kobj, "vrampool", dev_files, DF_COUNT,
					0444, dev_show, dev_store, BIT(DF_VRAM_QUOTA), vdev);
	if (!dir)
		return -ENOMEM;

	vdev->sysfs_clients = unlisted_folder(dir->kobj, "clients");
	if (!vdev->sysfs_clients)
		goto err_dir;
	vdev->sysfs_users = unlisted_folder(dir->kobj, "users");
	if (!vdev->sysfs_users)
		goto err_clients;
	vdev->sysfs = dir;
	return devm_add_action_or_reset(vdev->drm.dev, vrampool_sysfs_fini, vdev);

err_clients:
	kobject_del(vdev->sysfs_clients);
	kobject_put(vdev->sysfs_clients);
	vdev->sysfs_clients = NULL;
err_dir:
	vrampool_sysfs_dir_remove(dir);
	return -ENOMEM;
}

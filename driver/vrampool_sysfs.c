// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: live devices, clients and pools in sysfs.
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
 * The client drives its folders (vrampool_client.c calls in here); this
 * file reads the client's members under its lock and never calls back into
 * vrampool_client.c.
 *
 * The device's totals are world-readable; a client's files (clients/<id>/
 * and its pools) are root's alone (CLIENT_FILE_MODE): what another tenant
 * runs, and how much of what, is no business of other users or of
 * containers that see /sys. Its comm reads empty, like its pid 0, for a
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
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "vrampool_client.h"
#include "vrampool_device_types.h"
#include "vrampool_names.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_sysfs.h"
#include "vrampool_vram_mgr.h"

/* ---- Folders whose kobject is the kernel's and whose files are ours ---- */

/**
 * struct vrampool_sysfs_attr - one file of a folder
 */
struct vrampool_sysfs_attr {
	/** @ka: the attribute; its show() finds us by container_of() */
	struct kobj_attribute ka;
	/** @obj: what the file shows: a device, a client, a pool folder */
	void *obj;
	/** @field: which of its values */
	unsigned int field;
};

/**
 * struct vrampool_sysfs_dir - a folder and its files
 */
struct vrampool_sysfs_dir {
	/** @kobj: the folder, from kobject_create_and_add() */
	struct kobject *kobj;
	/** @group: the files */
	struct attribute_group group;
	/** @ptrs: @group's NULL-terminated list, @n + 1 entries after @attrs */
	struct attribute **ptrs;
	/** @n: how many files */
	unsigned int n;
	/** @attrs: the files' attributes */
	struct vrampool_sysfs_attr attrs[] __counted_by(n);
};

typedef ssize_t (*vrampool_sysfs_show_t)(struct kobject *kobj, struct kobj_attribute *attr,
					  char *buf);
typedef ssize_t (*vrampool_sysfs_store_t)(struct kobject *kobj, struct kobj_attribute *attr,
					   const char *buf, size_t count);

static struct vrampool_sysfs_attr *to_vattr(struct kobj_attribute *ka)
{
	return container_of(ka, struct vrampool_sysfs_attr, ka);
}

/**
 * dir_create() - a folder of files that show one object's values
 * @parent: where the folder goes
 * @name: its name
 * @names: its files' names, @n of them
 * @n: how many files
 * @mode: their mode: 0444 for the device's totals, 0400 for a client's
 * @show: what reads them; a file's &vrampool_sysfs_attr tells which value
 * @store: what writes the files of @writable, or NULL
 * @writable: a bit per file (1 << its index) that root may write (0644)
 * @obj: what they show
 *
 * The folder is a kobject from kobject_create_and_add(); the attributes are
 * ours, charged to the caller's memory cgroup (what the kernel allocates for
 * the kobject and the kernfs nodes is not). Remove it with dir_remove().
 *
 * Return: the folder, or NULL when out of memory.
 */
static struct vrampool_sysfs_dir *
dir_create(struct kobject *parent, const char *name, const char *const *names,
	   unsigned int n, umode_t mode, vrampool_sysfs_show_t show,
	   vrampool_sysfs_store_t store, unsigned long writable, void *obj)
{
	struct vrampool_sysfs_dir *dir;
	size_t size = struct_size(dir, attrs, n);
	unsigned int i;

	dir = kzalloc(size_add(size, array_size(n + 1, sizeof(*dir->ptrs))),
		      GFP_KERNEL_ACCOUNT);
	if (!dir)
		return NULL;
	dir->n = n;
	dir->ptrs = (struct attribute **)((char *)dir + size);
	for (i = 0; i < n; i++) {
		struct vrampool_sysfs_attr *a = &dir->attrs[i];

		sysfs_attr_init(&a->ka.attr);
		a->ka.attr.name = names[i];
		a->ka.attr.mode = mode;
		a->ka.show = show;
		if (store && (writable & BIT(i))) {
			a->ka.attr.mode = 0644;
			a->ka.store = store;
		}
		a->obj = obj;
		a->field = i;
		dir->ptrs[i] = &a->ka.attr;
	}
	dir->group.attrs = dir->ptrs;

	dir->kobj = kobject_create_and_add(name, parent);
	if (!dir->kobj)
		goto err_free;
	if (sysfs_create_group(dir->kobj, &dir->group))
		goto err_put;
	return dir;

err_put:
	kobject_del(dir->kobj);
	kobject_put(dir->kobj);
err_free:
	kfree(dir);
	return NULL;
}

/* Remove the folder (waiting for its running show()s), then free it. */
static void dir_remove(struct vrampool_sysfs_dir *dir)
{
	struct kobject *kobj;

	if (!dir)
		return;
	kobj = dir->kobj;
	kobject_del(kobj);
	kfree(dir);
	kobject_put(kobj);
}

/* ---- <device>/vrampool/ ---------------------------------------------- */

enum dev_field {
	DF_VRAM_SIZE, DF_VRAM_IN_USE, DF_ALIGNMENT, DF_MAX_PAGE_SIZE,
	DF_EXCLUSIVE_MEMORY_ONLY, DF_CLIENT_COUNT, DF_VRAM_QUOTA, DF_RECLAIMED,
	DF_RECLAIMED_PAGES, DF_COUNT,
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
};

static ssize_t dev_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct vrampool_sysfs_attr *a = to_vattr(attr);
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
	struct vrampool_sysfs_attr *a = to_vattr(attr);
	struct vrampool_device *vdev = a->obj;
	u64 v;
	int ret;

	ret = kstrtou64(buf, 10, &v);
	if (ret)
		return ret;
	WRITE_ONCE(vdev->vram_quota, v);
	return count;
}

static void vrampool_sysfs_fini(void *data)
{
	struct vrampool_device *vdev = data;
	struct vrampool_sysfs_dir *dir;
	struct kobject *clients;

	/*
	 * At unbind: the folder lives under the bus device and must go with
	 * the binding, even while clients keep the DRM device open. Their
	 * folders go with it (DOC: Lifetimes); no new one is added once the
	 * pointers are cleared.
	 */
	scoped_guard(mutex, &vdev->sysfs_lock) {
		dir = vdev->sysfs;
		clients = vdev->sysfs_clients;
		vdev->sysfs = NULL;
		vdev->sysfs_clients = NULL;
	}
	kobject_del(clients);
	kobject_put(clients);
	dir_remove(dir);
}

/**
 * vrampool_sysfs_init() - create <device>/vrampool/ and its clients/ folder
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

	dir = dir_create(&vdev->drm.dev->kobj, "vrampool", dev_files, DF_COUNT, 0444, dev_show,
			 dev_store, BIT(DF_VRAM_QUOTA), vdev);
	if (!dir)
		return -ENOMEM;

	vdev->sysfs_clients = kobject_create_and_add("clients", dir->kobj);
	if (!vdev->sysfs_clients) {
		dir_remove(dir);
		return -ENOMEM;
	}
	vdev->sysfs = dir;
	return devm_add_action_or_reset(vdev->drm.dev, vrampool_sysfs_fini, vdev);
}

/* ---- clients/<id>/ -------------------------------------------------------- */

/* A client's files, and its pools': readable by root only. */
#define CLIENT_FILE_MODE	0400

/**
 * struct vrampool_client_sysfs - a client's folder, clients/<id>/
 */
struct vrampool_client_sysfs {
	/** @dir: clients/<id>/ and its files */
	struct vrampool_sysfs_dir *dir;
	/** @pools: clients/<id>/pools/ */
	struct kobject *pools;
	/** @slots: pools/<index> for each dynamic index shown, by index */
	struct vrampool_pool_file **slots;
	/** @nslots: how many @slots exist */
	u32 nslots;
	/** @persistent: pools/255 */
	struct vrampool_pool_file *persistent;
	/** @client: the client */
	struct vrampool_client *client;
};

enum client_field {
	CF_PID, CF_COMM, CF_GENERATION, CF_PERSISTENT_MODE, CF_VRAM, CF_PURGEABLE, CF_RECLAIMED,
	CF_RECLAIMED_PAGES, CF_COUNT,
};

static const char *const client_files[CF_COUNT] = {
	[CF_PID] = "pid",
	[CF_COMM] = "comm",
	[CF_GENERATION] = "generation",
	[CF_PERSISTENT_MODE] = "persistent_mode",
	[CF_VRAM] = "vram",
	[CF_PURGEABLE] = "purgeable",
	[CF_RECLAIMED] = "reclaimed",
	[CF_RECLAIMED_PAGES] = "reclaimed_pages",
};

static ssize_t client_pid_emit(struct drm_file *file, char *buf)
{
	pid_t nr;

	rcu_read_lock();
	nr = pid_vnr(rcu_dereference(file->pid));
	rcu_read_unlock();
	return sysfs_emit(buf, "%d\n", nr);
}

/* The name only when the reader's pid namespace sees the process (its pid is not 0). */
static ssize_t client_comm_emit(struct drm_file *file, char *buf)
{
	char comm[TASK_COMM_LEN] = "";
	struct task_struct *task;
	struct pid *pid;

	rcu_read_lock();
	pid = rcu_dereference(file->pid);
	task = pid_vnr(pid) ? pid_task(pid, PIDTYPE_TGID) : NULL;
	if (task)
		get_task_comm(comm, task);
	rcu_read_unlock();
	return sysfs_emit(buf, "%s\n", comm);
}

static const char *const persistent_modes[] = {
	[DRM_VRAMPOOL_PERSISTENT_ENABLED] = "enabled",
	[DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH] = "size-match",
	[DRM_VRAMPOOL_PERSISTENT_DISABLED] = "disabled",
	[DRM_VRAMPOOL_PERSISTENT_ENFORCED] = "enforced",
};

static ssize_t client_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct vrampool_sysfs_attr *a = to_vattr(attr);
	struct vrampool_client *client = a->obj;

	switch (a->field) {
	case CF_PID:
		return client_pid_emit(client->file, buf);
	case CF_COMM:
		return client_comm_emit(client->file, buf);
	}

	guard(mutex)(&client->lock);
	switch (a->field) {
	case CF_GENERATION:
		return sysfs_emit(buf, "%llu\n", client->generation);
	case CF_PERSISTENT_MODE:
		return sysfs_emit(buf, "%s\n", persistent_modes[client->persistent_mode]);
	case CF_PURGEABLE:
		return sysfs_emit(buf, "%llu\n", vrampool_pool_free_vram(client->persistent) +
				  vrampool_pool_set_free_vram(client->pool_set));
	case CF_RECLAIMED:
		return sysfs_emit(buf, "%llu\n", client->reclaimed_bytes);
	case CF_RECLAIMED_PAGES:
		return sysfs_emit(buf, "%llu\n", client->reclaimed_pages);
	default:
		return sysfs_emit(buf, "%llu\n", vrampool_client_vram(client));
	}
}

/* ---- clients/<id>/pools/<index> ------------------------------------------- */

/**
 * struct vrampool_pool_file - pools/<index>: one file per pool, no folder
 *
 * A file, not a folder of files: one kernfs node and this struct per pool,
 * no kobject, no kernfs node per field (see "Kernel memory of a client" in
 * Documentation/vrampool.rst).
 */
struct vrampool_pool_file {
	/** @ka: the file; its name is @name */
	struct kobj_attribute ka;
	/** @client: the client */
	struct vrampool_client *client;
	/** @index: the layout position, or 255 for the persistent pool */
	u32 index;
	/** @name: the index in decimal */
	char name[4];
};

/* "name value" of a config field: "none" unless its type has it and (when optional) it is set. */
static int emit_config(char *buf, int at, const char *name,
		       const struct drm_vrampool_pool_entry *c, u32 type, u32 flag, u64 value)
{
	if (c->type != type || (flag && !(c->flags & flag)))
		return sysfs_emit_at(buf, at, "%s none\n", name);
	return sysfs_emit_at(buf, at, "%s %llu\n", name, value);
}

/* A pool's fields, one "name value" line each, in the order of the ABI. */
static ssize_t pool_stats_emit(char *buf, const struct vrampool_pool *pool)
{
	const struct drm_vrampool_pool_entry *c = &pool->config;
	const struct vrampool_pool_stats *st = &pool->stats;
	int n = 0;

	n += sysfs_emit_at(buf, n, "type %s\n", vrampool_names_lookup_pool_type(c->type));
	n += emit_config(buf, n, "page_size", c, DRM_VRAMPOOL_POOL_SLICED, 0, c->page_size);
	n += emit_config(buf, n, "max_slice_size", c, DRM_VRAMPOOL_POOL_SLICED, 0,
			 c->max_slice_size);
	n += emit_config(buf, n, "max_pool_size", c, DRM_VRAMPOOL_POOL_SLICED,
			 DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, c->max_pool_size);
	n += emit_config(buf, n, "max_alloc_size", c, DRM_VRAMPOOL_POOL_EXCLUSIVE, 0,
			 c->max_alloc_size);
	n += emit_config(buf, n, "reclaim_at", c, DRM_VRAMPOOL_POOL_DIRECT,
			 DRM_VRAMPOOL_ENTRY_RECLAIM_AT, c->reclaim_at);
	if (c->flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD)
		n += sysfs_emit_at(buf, n, "dealloc_period %llu\n", c->dealloc_period);
	else
		n += sysfs_emit_at(buf, n, "dealloc_period none\n");
	n += sysfs_emit_at(buf, n, "pages %llu\n", st->pages);
	n += sysfs_emit_at(buf, n, "pages_peak %llu\n", st->pages_peak);
	n += sysfs_emit_at(buf, n, "allocations %llu\n", st->allocations);
	n += sysfs_emit_at(buf, n, "bytes_in_use %llu\n", st->bytes_in_use);
	n += sysfs_emit_at(buf, n, "padding %llu\n", st->padding);
	n += sysfs_emit_at(buf, n, "reserved %llu\n", st->reserved);
	n += sysfs_emit_at(buf, n, "largest_alloc %llu\n", st->largest_alloc);
	return n;
}

static ssize_t pool_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct vrampool_pool_file *pf = container_of(attr, struct vrampool_pool_file, ka);
	struct vrampool_client *client = pf->client;
	struct vrampool_pool *pool = NULL;

	guard(mutex)(&client->lock);
	if (pf->index == DRM_VRAMPOOL_PERSISTENT_POOL)
		pool = client->persistent;
	else if (pf->index < client->pool_set->count)
		pool = client->pool_set->pools[pf->index];
	if (!pool)
		return -ENODEV;	/* an index the layout just lost */
	return pool_stats_emit(buf, pool);
}

static struct vrampool_pool_file *pool_file_add(struct vrampool_client_sysfs *cs, u32 index)
{
	struct vrampool_pool_file *pf;

	pf = kzalloc(sizeof(*pf), GFP_KERNEL_ACCOUNT);
	if (!pf)
		return NULL;
	pf->client = cs->client;
	pf->index = index;
	snprintf(pf->name, sizeof(pf->name), "%u", index);
	sysfs_attr_init(&pf->ka.attr);
	pf->ka.attr.name = pf->name;
	pf->ka.attr.mode = CLIENT_FILE_MODE;
	pf->ka.show = pool_show;
	if (sysfs_create_file(cs->pools, &pf->ka.attr)) {
		kfree(pf);
		return NULL;
	}
	return pf;
}

/* Remove the file (waiting for its running show()s), then free it. */
static void pool_file_remove(struct vrampool_client_sysfs *cs, struct vrampool_pool_file *pf)
{
	if (!pf)
		return;
	sysfs_remove_file(cs->pools, &pf->ka.attr);
	kfree(pf);
}

/**
 * vrampool_sysfs_pools_grow() - add pools/<index> files up to a count
 * @client: the client, NOT locked (a show() takes its lock)
 * @count: the number of dynamic pools of the layout about to be installed
 *
 * Return: 0 or -ENOMEM; on failure the files are as they were.
 */
int vrampool_sysfs_pools_grow(struct vrampool_client *client, u32 count)
{
	struct vrampool_client_sysfs *cs = client->sysfs;
	struct vrampool_pool_file **slots;
	u32 old, i;

	if (!cs)
		return 0;	/* opened while the device was going: no folder */
	old = cs->nslots;
	if (count <= old)
		return 0;

	slots = krealloc_array(cs->slots, count, sizeof(*slots), GFP_KERNEL_ACCOUNT);
	if (!slots)
		return -ENOMEM;
	cs->slots = slots;

	for (i = old; i < count; i++) {
		slots[i] = pool_file_add(cs, i);
		if (!slots[i])
			goto err_remove;
	}
	cs->nslots = count;
	return 0;

err_remove:
	while (i-- > old)
		pool_file_remove(cs, slots[i]);
	return -ENOMEM;
}

/**
 * vrampool_sysfs_pools_shrink() - remove pools/<index> files from a count on
 * @client: the client, NOT locked
 * @count: the number of dynamic pools now in force
 */
void vrampool_sysfs_pools_shrink(struct vrampool_client *client, u32 count)
{
	struct vrampool_client_sysfs *cs = client->sysfs;

	if (!cs)
		return;
	while (cs->nslots > count)
		pool_file_remove(cs, cs->slots[--cs->nslots]);
}

/* clients/<id>/ with pools/ and pools/255, under the device's sysfs lock. */
static int client_dirs_add(struct vrampool_client_sysfs *cs, struct kobject *clients)
{
	struct vrampool_client *client = cs->client;
	char name[24];

	snprintf(name, sizeof(name), "%llu", client->file->client_id);
	cs->dir = dir_create(clients, name, client_files, CF_COUNT, CLIENT_FILE_MODE,
			     client_show, NULL, 0, client);
	if (!cs->dir)
		return -ENOMEM;
	cs->pools = kobject_create_and_add("pools", cs->dir->kobj);
	if (!cs->pools)
		goto err_dir;
	cs->persistent = pool_file_add(cs, DRM_VRAMPOOL_PERSISTENT_POOL);
	if (!cs->persistent)
		goto err_pools;
	return 0;

err_pools:
	kobject_del(cs->pools);
	kobject_put(cs->pools);
err_dir:
	dir_remove(cs->dir);
	return -ENOMEM;
}

/**
 * vrampool_sysfs_client_add() - create clients/<id>/ for a new client
 * @client: the client, its layout and persistent pool made
 *
 * A client opened while its device is being unbound gets no folder (the
 * clients/ folder is gone or going): that is no error.
 *
 * Return: 0 or a negative errno.
 */
int vrampool_sysfs_client_add(struct vrampool_client *client)
{
	struct vrampool_device *vdev = client->vdev;
	struct vrampool_client_sysfs *cs;
	int ret;

	cs = kzalloc(sizeof(*cs), GFP_KERNEL_ACCOUNT);
	if (!cs)
		return -ENOMEM;
	cs->client = client;

	guard(mutex)(&vdev->sysfs_lock);
	if (!vdev->sysfs_clients) {
		kfree(cs);
		return 0;
	}
	ret = client_dirs_add(cs, vdev->sysfs_clients);
	if (ret) {
		kfree(cs);
		return ret;
	}
	client->sysfs = cs;

	ret = vrampool_sysfs_pools_grow(client, client->pool_set->count);
	if (ret)
		vrampool_sysfs_client_remove(client);
	return ret;
}

/**
 * vrampool_sysfs_client_remove() - remove a client's folder
 * @client: the client, NOT locked; waits for running show()s
 */
void vrampool_sysfs_client_remove(struct vrampool_client *client)
{
	struct vrampool_client_sysfs *cs = client->sysfs;

	if (!cs)
		return;
	vrampool_sysfs_pools_shrink(client, 0);
	kfree(cs->slots);
	pool_file_remove(cs, cs->persistent);
	kobject_del(cs->pools);
	kobject_put(cs->pools);
	dir_remove(cs->dir);
	client->sysfs = NULL;
	kfree(cs);
}

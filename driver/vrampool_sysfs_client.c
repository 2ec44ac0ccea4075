// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: a client's folder in sysfs, clients/<id>/, and its pool files
 * (the overview and DOC: Lifetimes are in vrampool_sysfs.c).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/kobject.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <drm/drm_file.h>

#include "vrampool_client.h"
#include "vrampool_device_types.h"
#include "vrampool_names.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_sysfs_client.h"
#include "vrampool_sysfs_dir.h"
#include "vrampool_tenant.h"

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
	CF_PID, CF_UID, CF_COMM, CF_GENERATION, CF_PERSISTENT_MODE, CF_VRAM, CF_PURGEABLE,
	CF_RECLAIMED, CF_RECLAIMED_PAGES, CF_COUNT,
};

static const char *const client_files[CF_COUNT] = {
	[CF_PID] = "pid",
	[CF_UID] = "uid",
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
	struct vrampool_sysfs_attr *a = to_vrampool_sysfs_attr(attr);
	struct vrampool_client *client = a->obj;

	switch (a->field) {
	case CF_PID:
		return client_pid_emit(client->file, buf);
	case CF_UID:
		return sysfs_emit(buf, "%u\n", from_kuid(&init_user_ns, client->tenant->uid));
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
		return sysfs_emit(buf, "%llu\n", vrampool_client_purgeable(client));
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
	n += sysfs_emit_at(buf, n, "pages_made %llu\n", pool->pages_made);
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
 * vrampool_sysfs_client_pools_grow() - add pools/<index> files up to a count
 * @client: the client, NOT locked (a show() takes its lock)
 * @count: the number of dynamic pools of the layout about to be installed
 *
 * Return: 0 or -ENOMEM; on failure the files are as they were.
 */
int vrampool_sysfs_client_pools_grow(struct vrampool_client *client, u32 count)
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
 * vrampool_sysfs_client_pools_shrink() - remove pools/<index> files from a count on
 * @client: the client, NOT locked
 * @count: the number of dynamic pools now in force
 */
void vrampool_sysfs_client_pools_shrink(struct vrampool_client *client, u32 count)
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
	cs->dir = vrampool_sysfs_dir_create(clients, name, client_files, CF_COUNT,
					    CLIENT_FILE_MODE, client_show, NULL, 0, client);
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
	vrampool_sysfs_dir_remove(cs->dir);
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

	ret = vrampool_sysfs_client_pools_grow(client, client->pool_set->count);
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
	vrampool_sysfs_client_pools_shrink(client, 0);
	kfree(cs->slots);
	pool_file_remove(cs, cs->persistent);
	kobject_del(cs->pools);
	kobject_put(cs->pools);
	vrampool_sysfs_dir_remove(cs->dir);
	client->sysfs = NULL;
	kfree(cs);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: live devices, clients and pools in sysfs.
 *
 * <device>/vrampool/ holds the device's totals; clients/<id>/ (the id is
 * the DRM client id, as fdinfo's drm-client-id) holds each client's
 * properties, and pools/<index>/ each of its pools, the persistent pool
 * always at 255. One value per file, read live: a show() takes the client's
 * lock, and folders are added before and removed after that lock is held,
 * never under it (removal waits for running show()s; see DOC: Locking).
 *
 * The client drives its folders (vrampool_client.c calls in here); this
 * file reads the client's members under its lock and never calls back into
 * vrampool_client.c.
 *
 * A pools/<index>/ folder stands for a position in the layout, not for one
 * pool object: an install that keeps the index keeps the folder, whose
 * files then show the new pool. Fields a pool type does not have, and
 * optional fields that are absent, read "none".
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <drm/drm_file.h>

#include "vrampool_client.h"
#include "vrampool_device_types.h"
#include "vrampool_pool.h"
#include "vrampool_pool_set.h"
#include "vrampool_sysfs.h"
#include "vrampool_vram_mgr.h"

/**
 * struct vrampool_client_sysfs - a client's folder, clients/<id>/
 */
struct vrampool_client_sysfs {
	/** @kobj: clients/<id>/ */
	struct kobject kobj;
	/** @pools: clients/<id>/pools/ */
	struct kobject *pools;
	/** @slots: pools/<index>/ for each dynamic index shown, by index */
	struct kobject **slots;
	/** @nslots: how many @slots exist */
	u32 nslots;
	/** @persistent: pools/255/ */
	struct kobject *persistent;
	/** @client: the client */
	struct vrampool_client *client;
};

/* ---- <device>/vrampool/ ---------------------------------------------- */

struct vrampool_dev_kobj {
	struct kobject kobj;
	struct vrampool_device *vdev;
};

static struct vrampool_device *kobj_vdev(struct kobject *kobj)
{
	return container_of(kobj, struct vrampool_dev_kobj, kobj)->vdev;
}

/* A read-only file of <device>/vrampool/: vdev_attr_<name>, showing @expr. */
#define VDEV_ATTR_U64(name, expr)						\
static ssize_t vdev_##name##_show(struct kobject *kobj,				\
				  struct kobj_attribute *attr, char *buf)	\
{										\
	struct vrampool_device *vdev = kobj_vdev(kobj);				\
										\
	return sysfs_emit(buf, "%llu\n", (u64)(expr));				\
}										\
static struct kobj_attribute vdev_attr_##name =				\
	__ATTR(name, 0444, vdev_##name##_show, NULL)

VDEV_ATTR_U64(vram_size, vdev->props.vram_size);
VDEV_ATTR_U64(vram_in_use, vrampool_vram_mgr_in_use(&vdev->vram_mgr));
VDEV_ATTR_U64(alignment, vdev->props.alignment);
VDEV_ATTR_U64(max_page_size, vdev->props.max_page_size);
VDEV_ATTR_U64(exclusive_memory_only, vdev->props.exclusive_memory_only);
VDEV_ATTR_U64(client_count, atomic_read(&vdev->client_count));

static struct attribute *vrampool_dev_attrs[] = {
	&vdev_attr_vram_size.attr,
	&vdev_attr_vram_in_use.attr,
	&vdev_attr_alignment.attr,
	&vdev_attr_max_page_size.attr,
	&vdev_attr_exclusive_memory_only.attr,
	&vdev_attr_client_count.attr,
	NULL,
};
ATTRIBUTE_GROUPS(vrampool_dev);

static void vrampool_dev_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct vrampool_dev_kobj, kobj));
}

static const struct kobj_type vrampool_dev_ktype = {
	.release = vrampool_dev_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = vrampool_dev_groups,
};

static void vrampool_sysfs_fini(void *data)
{
	struct vrampool_device *vdev = data;

	/*
	 * At unbind: the folder lives under the bus device and must go with
	 * the binding, even while clients keep the DRM device open. Their
	 * folders go with it; removing theirs later is harmless.
	 */
	kobject_put(vdev->sysfs_clients);
	kobject_del(vdev->sysfs);
	kobject_put(vdev->sysfs);
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
	struct vrampool_dev_kobj *dk;
	int ret;

	dk = kzalloc(sizeof(*dk), GFP_KERNEL);
	if (!dk)
		return -ENOMEM;
	dk->vdev = vdev;

	ret = kobject_init_and_add(&dk->kobj, &vrampool_dev_ktype, &vdev->drm.dev->kobj,
				   "vrampool");
	if (ret) {
		kobject_put(&dk->kobj);
		return ret;
	}
	vdev->sysfs = &dk->kobj;

	vdev->sysfs_clients = kobject_create_and_add("clients", vdev->sysfs);
	if (!vdev->sysfs_clients) {
		kobject_del(vdev->sysfs);
		kobject_put(vdev->sysfs);
		return -ENOMEM;
	}
	return devm_add_action_or_reset(vdev->drm.dev, vrampool_sysfs_fini, vdev);
}

/* ---- clients/<id>/ -------------------------------------------------------- */

static struct vrampool_client *kobj_client(struct kobject *kobj)
{
	return container_of(kobj, struct vrampool_client_sysfs, kobj)->client;
}

static ssize_t client_pid_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct drm_file *file = kobj_client(kobj)->file;
	pid_t nr;

	rcu_read_lock();
	nr = pid_vnr(rcu_dereference(file->pid));
	rcu_read_unlock();
	return sysfs_emit(buf, "%d\n", nr);
}

static ssize_t client_comm_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct drm_file *file = kobj_client(kobj)->file;
	char comm[TASK_COMM_LEN] = "";
	struct task_struct *task;

	rcu_read_lock();
	task = pid_task(rcu_dereference(file->pid), PIDTYPE_TGID);
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

/* The VRAM charged to the client (orphans too), as fdinfo and POOL_QUERY report it. */
static ssize_t client_value_show(struct kobject *kobj, char *buf, int which)
{
	struct vrampool_client *client = kobj_client(kobj);

	guard(mutex)(&client->lock);
	switch (which) {
	case 0:
		return sysfs_emit(buf, "%llu\n", client->generation);
	case 1:
		return sysfs_emit(buf, "%s\n", persistent_modes[client->persistent_mode]);
	default:
		return sysfs_emit(buf, "%llu\n", vrampool_client_vram(client));
	}
}

static ssize_t client_generation_show(struct kobject *kobj, struct kobj_attribute *attr,
				      char *buf)
{
	return client_value_show(kobj, buf, 0);
}

static ssize_t client_persistent_mode_show(struct kobject *kobj, struct kobj_attribute *attr,
					   char *buf)
{
	return client_value_show(kobj, buf, 1);
}

static ssize_t client_vram_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return client_value_show(kobj, buf, 2);
}

#define CLIENT_ATTR(_name) \
	static struct kobj_attribute client_attr_##_name = \
		__ATTR(_name, 0444, client_##_name##_show, NULL)

CLIENT_ATTR(pid);
CLIENT_ATTR(comm);
CLIENT_ATTR(generation);
CLIENT_ATTR(persistent_mode);
CLIENT_ATTR(vram);

static struct attribute *vrampool_client_attrs[] = {
	&client_attr_pid.attr,
	&client_attr_comm.attr,
	&client_attr_generation.attr,
	&client_attr_persistent_mode.attr,
	&client_attr_vram.attr,
	NULL,
};
ATTRIBUTE_GROUPS(vrampool_client);

static void vrampool_client_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct vrampool_client_sysfs, kobj));
}

static const struct kobj_type vrampool_client_ktype = {
	.release = vrampool_client_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = vrampool_client_groups,
};

/* ---- clients/<id>/pools/<index>/ ------------------------------------------ */

struct vrampool_pool_kobj {
	struct kobject kobj;
	struct vrampool_client *client;
	u32 index;
};

enum pool_field {
	PF_TYPE, PF_PAGE_SIZE, PF_MAX_SLICE_SIZE, PF_MAX_POOL_SIZE, PF_MAX_ALLOC_SIZE,
	PF_RECLAIM_AT, PF_DEALLOC_PERIOD, PF_PAGES, PF_PAGES_PEAK, PF_ALLOCATIONS,
	PF_BYTES_IN_USE, PF_PADDING, PF_RESERVED, PF_LARGEST_ALLOC,
};

static const char *const pool_types[] = {
	[DRM_VRAMPOOL_POOL_EXCLUSIVE] = "exclusive",
	[DRM_VRAMPOOL_POOL_SLICED] = "sliced",
	[DRM_VRAMPOOL_POOL_DIRECT] = "direct",
	[DRM_VRAMPOOL_POOL_PERSISTENT] = "persistent",
};

/* A config field: shown if its type has it and (when optional) it is set. */
static ssize_t emit_config(char *buf, const struct drm_vrampool_pool_entry *c,
			   u32 type, u32 flag, u64 value)
{
	if (c->type != type || (flag && !(c->flags & flag)))
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%llu\n", value);
}

static ssize_t pool_field_emit(char *buf, const struct vrampool_pool *pool, enum pool_field f)
{
	const struct drm_vrampool_pool_entry *c = &pool->config;
	const struct vrampool_pool_stats *st = &pool->stats;

	switch (f) {
	case PF_TYPE:
		return sysfs_emit(buf, "%s\n", pool_types[c->type]);
	case PF_PAGE_SIZE:
		return emit_config(buf, c, DRM_VRAMPOOL_POOL_SLICED, 0, c->page_size);
	case PF_MAX_SLICE_SIZE:
		return emit_config(buf, c, DRM_VRAMPOOL_POOL_SLICED, 0, c->max_slice_size);
	case PF_MAX_POOL_SIZE:
		return emit_config(buf, c, DRM_VRAMPOOL_POOL_SLICED,
				   DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, c->max_pool_size);
	case PF_MAX_ALLOC_SIZE:
		return emit_config(buf, c, DRM_VRAMPOOL_POOL_EXCLUSIVE, 0, c->max_alloc_size);
	case PF_RECLAIM_AT:
		return emit_config(buf, c, DRM_VRAMPOOL_POOL_DIRECT,
				   DRM_VRAMPOOL_ENTRY_RECLAIM_AT, c->reclaim_at);
	case PF_DEALLOC_PERIOD:
		if (!(c->flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD))
			return sysfs_emit(buf, "none\n");
		return sysfs_emit(buf, "%llu\n", c->dealloc_period);
	case PF_PAGES:
		return sysfs_emit(buf, "%llu\n", st->pages);
	case PF_PAGES_PEAK:
		return sysfs_emit(buf, "%llu\n", st->pages_peak);
	case PF_ALLOCATIONS:
		return sysfs_emit(buf, "%llu\n", st->allocations);
	case PF_BYTES_IN_USE:
		return sysfs_emit(buf, "%llu\n", st->bytes_in_use);
	case PF_PADDING:
		return sysfs_emit(buf, "%llu\n", st->padding);
	case PF_RESERVED:
		return sysfs_emit(buf, "%llu\n", st->reserved);
	default:
		return sysfs_emit(buf, "%llu\n", st->largest_alloc);
	}
}

struct pool_attribute {
	struct kobj_attribute attr;
	enum pool_field field;
};

static ssize_t pool_attr_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct vrampool_pool_kobj *pk = container_of(kobj, struct vrampool_pool_kobj, kobj);
	enum pool_field f = container_of(attr, struct pool_attribute, attr)->field;
	struct vrampool_client *client = pk->client;
	struct vrampool_pool *pool = NULL;

	guard(mutex)(&client->lock);
	if (pk->index == DRM_VRAMPOOL_PERSISTENT_POOL)
		pool = client->persistent;
	else if (pk->index < client->pool_set->count)
		pool = client->pool_set->pools[pk->index];
	if (!pool)
		return -ENODEV;	/* an index the layout just lost */
	return pool_field_emit(buf, pool, f);
}

#define POOL_ATTR(_name, _field) \
	static struct pool_attribute pool_attr_##_name = { \
		.attr = __ATTR(_name, 0444, pool_attr_show, NULL), .field = (_field) }

POOL_ATTR(type, PF_TYPE);
POOL_ATTR(page_size, PF_PAGE_SIZE);
POOL_ATTR(max_slice_size, PF_MAX_SLICE_SIZE);
POOL_ATTR(max_pool_size, PF_MAX_POOL_SIZE);
POOL_ATTR(max_alloc_size, PF_MAX_ALLOC_SIZE);
POOL_ATTR(reclaim_at, PF_RECLAIM_AT);
POOL_ATTR(dealloc_period, PF_DEALLOC_PERIOD);
POOL_ATTR(pages, PF_PAGES);
POOL_ATTR(pages_peak, PF_PAGES_PEAK);
POOL_ATTR(allocations, PF_ALLOCATIONS);
POOL_ATTR(bytes_in_use, PF_BYTES_IN_USE);
POOL_ATTR(padding, PF_PADDING);
POOL_ATTR(reserved, PF_RESERVED);
POOL_ATTR(largest_alloc, PF_LARGEST_ALLOC);

static struct attribute *vrampool_pool_attrs[] = {
	&pool_attr_type.attr.attr,
	&pool_attr_page_size.attr.attr,
	&pool_attr_max_slice_size.attr.attr,
	&pool_attr_max_pool_size.attr.attr,
	&pool_attr_max_alloc_size.attr.attr,
	&pool_attr_reclaim_at.attr.attr,
	&pool_attr_dealloc_period.attr.attr,
	&pool_attr_pages.attr.attr,
	&pool_attr_pages_peak.attr.attr,
	&pool_attr_allocations.attr.attr,
	&pool_attr_bytes_in_use.attr.attr,
	&pool_attr_padding.attr.attr,
	&pool_attr_reserved.attr.attr,
	&pool_attr_largest_alloc.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(vrampool_pool);

static void vrampool_pool_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct vrampool_pool_kobj, kobj));
}

static const struct kobj_type vrampool_pool_ktype = {
	.release = vrampool_pool_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = vrampool_pool_groups,
};

static struct kobject *pool_kobj_add(struct vrampool_client_sysfs *cs, u32 index)
{
	struct vrampool_pool_kobj *pk;

	pk = kzalloc(sizeof(*pk), GFP_KERNEL);
	if (!pk)
		return NULL;
	pk->client = cs->client;
	pk->index = index;
	if (kobject_init_and_add(&pk->kobj, &vrampool_pool_ktype, cs->pools, "%u", index)) {
		kobject_put(&pk->kobj);
		return NULL;
	}
	return &pk->kobj;
}

static void kobj_remove(struct kobject *kobj)
{
	kobject_del(kobj);
	kobject_put(kobj);
}

/**
 * vrampool_sysfs_pools_grow() - add pools/<index>/ folders up to a count
 * @client: the client, NOT locked (a show() takes its lock)
 * @count: the number of dynamic pools of the layout about to be installed
 *
 * Return: 0 or -ENOMEM; on failure the folders are as they were.
 */
int vrampool_sysfs_pools_grow(struct vrampool_client *client, u32 count)
{
	struct vrampool_client_sysfs *cs = client->sysfs;
	struct kobject **slots;
	u32 old = cs->nslots, i;

	if (count <= old)
		return 0;

	slots = krealloc_array(cs->slots, count, sizeof(*slots), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	cs->slots = slots;

	for (i = old; i < count; i++) {
		slots[i] = pool_kobj_add(cs, i);
		if (!slots[i])
			goto err_remove;
	}
	cs->nslots = count;
	return 0;

err_remove:
	while (i-- > old)
		kobj_remove(slots[i]);
	return -ENOMEM;
}

/**
 * vrampool_sysfs_pools_shrink() - remove pools/<index>/ folders from a count on
 * @client: the client, NOT locked
 * @count: the number of dynamic pools now in force
 */
void vrampool_sysfs_pools_shrink(struct vrampool_client *client, u32 count)
{
	struct vrampool_client_sysfs *cs = client->sysfs;

	while (cs->nslots > count)
		kobj_remove(cs->slots[--cs->nslots]);
}

/**
 * vrampool_sysfs_client_add() - create clients/<id>/ for a new client
 * @client: the client, its layout and persistent pool made
 *
 * Return: 0 or a negative errno.
 */
int vrampool_sysfs_client_add(struct vrampool_client *client)
{
	struct vrampool_client_sysfs *cs;
	int ret;

	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->client = client;
	client->sysfs = cs;

	ret = kobject_init_and_add(&cs->kobj, &vrampool_client_ktype,
				   client->vdev->sysfs_clients, "%llu", client->file->client_id);
	if (ret)
		goto err_put;

	ret = -ENOMEM;
	cs->pools = kobject_create_and_add("pools", &cs->kobj);
	if (!cs->pools)
		goto err_del;

	cs->persistent = pool_kobj_add(cs, DRM_VRAMPOOL_PERSISTENT_POOL);
	if (!cs->persistent)
		goto err_pools;

	ret = vrampool_sysfs_pools_grow(client, client->pool_set->count);
	if (ret)
		goto err_persistent;
	return 0;

err_persistent:
	kfree(cs->slots);
	kobj_remove(cs->persistent);
err_pools:
	kobj_remove(cs->pools);
err_del:
	kobject_del(&cs->kobj);
err_put:
	kobject_put(&cs->kobj);
	client->sysfs = NULL;
	return ret;
}

/**
 * vrampool_sysfs_client_remove() - remove a client's folder
 * @client: the client, NOT locked; waits for running show()s
 */
void vrampool_sysfs_client_remove(struct vrampool_client *client)
{
	struct vrampool_client_sysfs *cs = client->sysfs;

	vrampool_sysfs_pools_shrink(client, 0);
	kfree(cs->slots);
	kobj_remove(cs->persistent);
	kobj_remove(cs->pools);
	client->sysfs = NULL;
	kobj_remove(&cs->kobj);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_SYSFS_DIR_H_
#define _VRAMPOOL_SYSFS_DIR_H_

#include <linux/container_of.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/types.h>

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

/**
 * to_vrampool_sysfs_attr() - the file of an attribute
 * @ka: an attribute of a folder from vrampool_sysfs_dir_create()
 *
 * Return: the &struct vrampool_sysfs_attr it is part of.
 */
static inline struct vrampool_sysfs_attr *to_vrampool_sysfs_attr(struct kobj_attribute *ka)
{
	return container_of(ka, struct vrampool_sysfs_attr, ka);
}

struct vrampool_sysfs_dir *
vrampool_sysfs_dir_create(struct kobject *parent, const char *name, const char *const *names,
			  unsigned int n, umode_t mode, vrampool_sysfs_show_t show,
			  vrampool_sysfs_store_t store, unsigned long writable, void *obj);
void vrampool_sysfs_dir_remove(struct vrampool_sysfs_dir *dir);

#endif /* _VRAMPOOL_SYSFS_DIR_H_ */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: sysfs folders whose kobject is the kernel's and whose files are
 * ours (DOC: Lifetimes, in vrampool_sysfs.c): the device's folder and each
 * client's are made here.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/bits.h>
#include <linux/kobject.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "vrampool_sysfs_dir.h"

/**
 * vrampool_sysfs_dir_create() - a folder of files that show one object's values
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
 * the kobject and the kernfs nodes is not). Remove it with vrampool_sysfs_dir_remove().
 *
 * Return: the folder, or NULL when out of memory.
 */
struct vrampool_sysfs_dir *
vrampool_sysfs_dir_create(struct kobject *parent, const char *name, const char *const *names,
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

/**
 * vrampool_sysfs_dir_remove() - remove a folder, then free it
 * @dir: a folder from vrampool_sysfs_dir_create(), or NULL
 *
 * Waits for its running show()s (DOC: Lifetimes, in vrampool_sysfs.c).
 */
void vrampool_sysfs_dir_remove(struct vrampool_sysfs_dir *dir)
{
	struct kobject *kobj;

	if (!dir)
		return;
	kobj = dir->kobj;
	kobject_del(kobj);
	kfree(dir);
	kobject_put(kobj);
}

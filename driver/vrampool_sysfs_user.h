/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_SYSFS_USER_H_
#define _VRAMPOOL_SYSFS_USER_H_

struct vrampool_tenant;

void vrampool_sysfs_user_add(struct vrampool_tenant *tenant);
void vrampool_sysfs_user_remove(struct vrampool_tenant *tenant);

#endif /* _VRAMPOOL_SYSFS_USER_H_ */

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vrampool: the names of pool types, as sysfs, debugfs and vrampoolctl
 * write and read them.
 *
 * Built into the kernel module and into libvrampool (see the DOC: of
 * vrampool_layout.h).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "vrampool_names.h"

static const char *const pool_types[] = {
	[DRM_VRAMPOOL_POOL_EXCLUSIVE] = "exclusive",
	[DRM_VRAMPOOL_POOL_SLICED] = "sliced",
	[DRM_VRAMPOOL_POOL_DIRECT] = "direct",
	[DRM_VRAMPOOL_POOL_PERSISTENT] = "persistent",
};

/**
 * vrampool_names_lookup_pool_type() - the name of a pool type
 * @type: a DRM_VRAMPOOL_POOL_* value
 *
 * Return: "exclusive", "sliced", "direct", "persistent", or "unknown" for
 * any other value.
 */
const char *vrampool_names_lookup_pool_type(u32 type)
{
	if (type < ARRAY_SIZE(pool_types) && pool_types[type])
		return pool_types[type];
	return "unknown";
}

/**
 * vrampool_names_parse_pool_type() - the pool type of a name
 * @name: "exclusive", "sliced", "direct" or "persistent"
 *
 * Return: the DRM_VRAMPOOL_POOL_* value, or -EINVAL for another name.
 */
int vrampool_names_parse_pool_type(const char *name)
{
	u32 type;

	for (type = 0; type < ARRAY_SIZE(pool_types); type++) {
		if (pool_types[type] && !strcmp(name, pool_types[type]))
			return type;
	}
	return -EINVAL;
}

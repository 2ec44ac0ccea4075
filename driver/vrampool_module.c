// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the module, its parameters and its backends.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>

#include "vrampool_alloc_cache.h"
#include "vrampool_drv.h"
#include "vrampool_emul.h"
#include "vrampool_modparams.h"
#include "vrampool_pci.h"

struct vrampool_modparams vrampool_modparam __read_mostly = {
	.emulated_devices = 1,
	.vram_size = SZ_256M,
	.alignment = 256,
	.max_allocations = VRAMPOOL_DEFAULT_MAX_ALLOCATIONS,
	.max_pages = VRAMPOOL_DEFAULT_MAX_PAGES,
};

module_param_named(emulated_devices, vrampool_modparam.emulated_devices, uint, 0444);
MODULE_PARM_DESC(emulated_devices,
		 "Number of emulated (vmalloc-backed) devices to create (default 1, at most "
		 __stringify(VRAMPOOL_MAX_EMULATED_DEVICES) ")");

module_param_named(vram_size, vrampool_modparam.vram_size, ullong, 0444);
MODULE_PARM_DESC(vram_size,
		 "VRAM of each emulated device in bytes, a multiple of the CPU page size (default 256 MiB)");

module_param_named(alignment, vrampool_modparam.alignment, ullong, 0444);
MODULE_PARM_DESC(alignment, "Allocation alignment in bytes, a power of two (default 256)");

module_param_named(max_page_size, vrampool_modparam.max_page_size, ullong, 0444);
MODULE_PARM_DESC(max_page_size,
		 "Page size the default layouts are sized from, in bytes (default 0: a quarter of VRAM)");

module_param_named(exclusive_memory_only, vrampool_modparam.exclusive_memory_only, bool, 0444);
MODULE_PARM_DESC(exclusive_memory_only,
		 "Devices refuse sliced pools, as on exclusive-memory-only runtimes (default off)");

/*
 * A per-user limit (DOC: tenants): 1 to UINT_MAX. 0 would leave a user unable to
 * allocate (or, for max_pages, to allocate anything but zero-size), so it
 * is refused, and with it the module load.
 */
static int limit_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, UINT_MAX);
}

static const struct kernel_param_ops limit_ops = {
	.set = limit_set,
	.get = param_get_uint,
};

module_param_cb(max_allocations, &limit_ops, &vrampool_modparam.max_allocations, 0444);
MODULE_PARM_DESC(max_allocations,
		 "Live allocations each user's files may hold together, zero-size ones included; at least 1 (default "
		 __stringify(VRAMPOOL_DEFAULT_MAX_ALLOCATIONS) ")");

module_param_cb(max_pages, &limit_ops, &vrampool_modparam.max_pages, 0444);
MODULE_PARM_DESC(max_pages,
		 "Pool pages each user's files may hold together across all their pools, free cached ones included; at least 1 (default "
		 __stringify(VRAMPOOL_DEFAULT_MAX_PAGES) ")");

module_param_named(vram_quota, vrampool_modparam.vram_quota, ullong, 0444);
MODULE_PARM_DESC(vram_quota,
		 "VRAM each user's files may hold together, in bytes, free cached pages included; the default of each device's sysfs vram_quota (default 0: no quota)");

/* The backends, registered in this order and unregistered in reverse. */
static const struct {
	int (*init)(void);
	void (*exit)(void);
} vrampool_backends[] = {
	{ vrampool_pci_register, vrampool_pci_unregister },
	{ vrampool_emul_register, vrampool_emul_unregister },
};

static void vrampool_backends_exit(unsigned int count)
{
	while (count--)
		vrampool_backends[count].exit();
}

static int __init vrampool_init(void)
{
	unsigned int i;
	int ret;

	ret = vrampool_alloc_cache_create();
	if (ret)
		return ret;

	for (i = 0; i < ARRAY_SIZE(vrampool_backends); i++) {
		ret = vrampool_backends[i].init();
		if (ret) {
			vrampool_backends_exit(i);
			vrampool_alloc_cache_destroy();
			return ret;
		}
	}
	return 0;
}

static void __exit vrampool_exit(void)
{
	vrampool_backends_exit(ARRAY_SIZE(vrampool_backends));
	vrampool_alloc_cache_destroy();
}

module_init(vrampool_init);
module_exit(vrampool_exit);

MODULE_AUTHOR("The vrampool authors");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");

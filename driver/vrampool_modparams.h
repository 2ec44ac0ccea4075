/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_MODPARAMS_H_
#define _VRAMPOOL_MODPARAMS_H_

#include <linux/types.h>

/* The per-client limits a module load without parameters gives. */
#define VRAMPOOL_DEFAULT_MAX_ALLOCATIONS	1048576
#define VRAMPOOL_DEFAULT_MAX_PAGES		65536

/**
 * struct vrampool_modparams - the module parameters
 *
 * Defined and documented with module_param_named() in vrampool_module.c;
 * read-only once the module is loaded. The backends read them when they
 * create a device; the allocation ioctls read the per-client limits.
 */
struct vrampool_modparams {
	/** @emulated_devices: emulated devices to create at load */
	unsigned int emulated_devices;
	/** @vram_size: VRAM of each emulated device, in bytes */
	u64 vram_size;
	/** @alignment: allocation alignment of every device, in bytes */
	u64 alignment;
	/** @max_page_size: page size default layouts are sized from; 0: a quarter of VRAM */
	u64 max_page_size;
	/** @exclusive_memory_only: devices refuse sliced pools */
	bool exclusive_memory_only;
	/** @max_allocations: live allocations a client may hold, at least 1 */
	unsigned int max_allocations;
	/** @max_pages: pool pages a client may hold across all its pools, at least 1 */
	unsigned int max_pages;
	/** @vram_quota: default VRAM quota of a client in bytes, 0 for none */
	u64 vram_quota;
};

extern struct vrampool_modparams vrampool_modparam;

#endif /* _VRAMPOOL_MODPARAMS_H_ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_DRV_H_
#define _VRAMPOOL_DRV_H_

struct drm_driver;

#define DRIVER_NAME	"vrampool"
#define DRIVER_DESC	"VRAM carved into memory pools for compute runtimes"
#define DRIVER_DATE	"20261129"
#define DRIVER_MAJOR	1
#define DRIVER_MINOR	0

extern const struct drm_driver vrampool_drm_driver;

/**
 * DOC: Conventions
 *
 * Words, as the code uses them:
 *
 * layout
 *	A list of resolved pool entries (&struct drm_vrampool_pool_entry), as
 *	an install asks for it or a preset gives it. vrampool_layout_*() is
 *	only the shared resolver (vrampool_layout.c), which turns a request
 *	into a layout; nothing else is named "layout".
 * pool set
 *	The dynamic pools a client has in force, built from a layout and
 *	replaced whole by each install (&struct vrampool_pool_set,
 *	vrampool_pool_set.c). The persistent pool (index 255) is not in it: it
 *	lives across installs.
 * pool type
 *	Sliced, exclusive, direct or persistent: one file each
 *	(vrampool_pool_<type>.c), whose struct vrampool_pool_<type> embeds
 *	the &struct vrampool_pool every type shares as its first member,
 *	``base``, and is reached from it with to_<type>() (container_of()).
 *	Only that file knows the type's fields; vrampool_pool.c dispatches
 *	through the type's &struct vrampool_pool_ops.
 * pool page
 *	One VRAM buffer object a pool carves up or hands out whole
 *	(&struct vrampool_pool_page, vrampool_pool_page.c); a variable
 *	holding one is ``ppage``.
 *	The uapi's ``page``, ``page_size`` and ``DRM_VRAMPOOL_NO_PAGE`` are
 *	pool pages too.
 * CPU page
 *	PAGE_SIZE bytes, as mapped and faulted; a variable named ``page``
 *	means this (an index or a &struct page), never a pool page.
 * handle
 *	The number an ALLOC returns and a FREE takes, an index into the
 *	client's &vrampool_client.handles; never 0.
 * client
 *	One open file of an accel node and all it owns (&struct
 *	vrampool_client): its pools, allocations and sysfs folder.
 *
 * Headers: a struct is defined in <object>_types.h when another struct
 * embeds it, or when files that <object>.c calls into read its members
 * (vrampool_device_types.h, vrampool_client_types.h,
 * vrampool_pool_types.h, vrampool_vram_mgr_types.h). A _types.h holds types only and includes
 * only the headers of what its types embed. <object>.h includes it and
 * holds the prototypes and to_*() helpers. Any other struct is defined in
 * <object>.h, or in the .c file when nothing else needs it. No .c file
 * includes a header whose .c file includes its own header back, and no two
 * .c files call each other's functions: a lower layer never calls up (the
 * VRAM manager tells a BO it had no room; the client does not add its own
 * sysfs folder, vrampool_drv.c does). A file holds one concern, in at most
 * 600 lines.
 *
 * Names: a non-static function is vrampool_<file>_<verb>(), <file> being
 * the name of the file that defines it without its ``vrampool_`` prefix
 * (vrampool_pool_set_create() in vrampool_pool_set.c). An ioctl handler is
 * vrampool_<ioctl>_ioctl(), declared in the header of the file of the
 * object it acts on. Static functions and macros private to a file take
 * short names without a prefix. tests/lint/structure.py checks the names,
 * the file sizes and the calls and includes between files.
 *
 * Locks: see DOC: Locking in vrampool_client.h.
 */

#endif /* _VRAMPOOL_DRV_H_ */

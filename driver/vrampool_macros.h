/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_MACROS_H_
#define _VRAMPOOL_MACROS_H_

#include <drm/drm_print.h>

/*
 * vrampool_ioctl_check() - true when an ioctl argument check fails; under
 * drm.debug the failing condition is logged with its source location, so a
 * runtime author can see why an ioctl said EINVAL.
 */
#define vrampool_ioctl_check(vdev, cond) \
	((cond) && (drm_dbg(&(vdev)->drm, "ioctl check failed at %s:%d: %s\n", \
			    __FILE__, __LINE__, #cond), 1))

#endif /* _VRAMPOOL_MACROS_H_ */

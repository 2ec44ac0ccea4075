// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the fast entry of ALLOC and FREE.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include <drm/vrampool_accel.h>

#include "vrampool_alloc.h"
#include "vrampool_device.h"
#include "vrampool_ioctl_fast.h"

/**
 * DOC: fast entry
 *
 * ALLOC and FREE are the calls a runtime makes thousands of times a second.
 * drm_ioctl() copies an ioctl's whole argument in, and out again, with
 * copy_from_user() and copy_to_user(); for ALLOC's 120 bytes, where that
 * copy is a rep movsb run byte by byte (as in the test VM, QEMU's TCG), it
 * costs about as much as the allocation itself. So vrampool_ioctl() hands
 * these two commands, exactly as <drm/vrampool_accel.h> encodes them, to
 * vrampool_ioctl_fast(), which reads only the fields the call takes in and
 * writes only those it gives back, each with unsafe_get_user() or
 * unsafe_put_user() inside one user_access_begin(). The handlers are the
 * ones drm_ioctl() calls, on the same argument struct, and what userspace
 * sees is the same, errors included: a bad argument (-EINVAL) is left as
 * it was, as drm_ioctl() writes back the bytes it read; otherwise ALLOC's
 * answer and error fields are all written back, whatever it returns; a
 * fault in either direction is -EFAULT. No field is written that the
 * handler did not set: nothing of the kernel's stack reaches userspace.
 * One difference follows: an argument userspace may read but not write
 * fails only where something is written back (an ALLOC past its checks,
 * -EFAULT after the allocation is made, as with drm_ioctl()); a FREE, or
 * an ALLOC refused with -EINVAL, from read-only memory does what it says,
 * where drm_ioctl() would also fail its copy out with -EFAULT.
 *
 * What drm_ioctl() does around a handler still holds. The device is
 * entered first (vrampool_ioctl_enter(), which also stands for
 * drm_ioctl()'s unplug checks). The ioctl flags of both are 0, so the only
 * permission drm_ioctl_permit() would check is that a render client may
 * not call them, and an accel file is never a render client. Its
 * drm_file_update_pid(), which a file passed to another process needs, is
 * not exported: the fast entry is taken only while the file's owner is the
 * caller's process, and the first call from any other process goes to
 * drm_ioctl(), which updates it. It is not taken either while drm.debug
 * logs core messages, so that every ioctl is still logged as it enters.
 * Other sizes of these commands, the 32-bit compat entry and every other
 * ioctl go to drm_ioctl() as before.
 */

/* Whether drm_ioctl() would do anything for this file that the fast entry does not. */
static bool fast_entry_ok(struct drm_file *file)
{
	if (drm_debug_enabled_raw(DRM_UT_CORE))
		return false;
	return file->was_master || rcu_access_pointer(file->pid) == task_tgid(current);
}

static long alloc_fast(struct drm_file *file, struct drm_vrampool_alloc __user *uargs)
{
	struct drm_vrampool_alloc args;
	long ret;

	if (!user_access_begin(uargs, sizeof(*uargs)))
		return -EFAULT;
	unsafe_get_user(args.size, &uargs->size, efault);
	unsafe_get_user(args.flags, &uargs->flags, efault);
	unsafe_get_user(args.pad, &uargs->pad, efault);
	unsafe_get_user(args.pad2, &uargs->pad2, efault);
	unsafe_get_user(args.reserved[0], &uargs->reserved[0], efault);
	unsafe_get_user(args.reserved[1], &uargs->reserved[1], efault);
	user_access_end();

	/* A bad argument: nothing written, as drm_ioctl() writes back what it read. */
	if (vrampool_alloc_check(to_vrampool_device(file->minor->dev), &args))
		return -EINVAL;
	/* Sets every field it gives back, on success or not. */
	ret = vrampool_alloc_serve(file, &args);

	if (!user_access_begin(uargs, sizeof(*uargs)))
		return -EFAULT;
	unsafe_put_user(args.handle, &uargs->handle, efault);
	unsafe_put_user(args.pool, &uargs->pool, efault);
	unsafe_put_user(args.page, &uargs->page, efault);
	unsafe_put_user(args.offset, &uargs->offset, efault);
	unsafe_put_user(args.padding, &uargs->padding, efault);
	unsafe_put_user(args.mmap_offset, &uargs->mmap_offset, efault);
	unsafe_put_user(args.page_size, &uargs->page_size, efault);
	unsafe_put_user(args.error.code, &uargs->error.code, efault);
	unsafe_put_user(args.error.pool, &uargs->error.pool, efault);
	unsafe_put_user(args.error.size, &uargs->error.size, efault);
	unsafe_put_user(args.error.capacity, &uargs->error.capacity, efault);
	unsafe_put_user(args.error.in_use, &uargs->error.in_use, efault);
	user_access_end();
	return ret;

efault:
	user_access_end();
	return -EFAULT;
}

static long free_fast(struct drm_file *file, struct drm_vrampool_free __user *uargs)
{
	struct drm_vrampool_free args;

	/* FREE gives nothing back: drm_ioctl() would copy its input out unchanged. */
	if (!user_access_begin(uargs, sizeof(*uargs)))
		return -EFAULT;
	unsafe_get_user(args.handle, &uargs->handle, efault);
	unsafe_get_user(args.flags, &uargs->flags, efault);
	unsafe_get_user(args.reserved, &uargs->reserved, efault);
	user_access_end();
	return vrampool_free_ioctl(file->minor->dev, &args, file);

efault:
	user_access_end();
	return -EFAULT;
}

/**
 * vrampool_ioctl_fast() - ALLOC or FREE without drm_ioctl()'s copies (DOC: fast entry)
 * @file: the client's file, its device entered
 * @cmd: the command
 * @arg: its argument, a user pointer
 * @ret: what the ioctl returns, when it was taken
 *
 * Return: true if the ioctl was taken here, false if drm_ioctl() must take it.
 */
bool vrampool_ioctl_fast(struct drm_file *file, unsigned int cmd, unsigned long arg, long *ret)
{
	switch (cmd) {
	case DRM_IOCTL_VRAMPOOL_ALLOC:
		if (!fast_entry_ok(file))
			return false;
		*ret = alloc_fast(file, (void __user *)arg);
		return true;
	case DRM_IOCTL_VRAMPOOL_FREE:
		if (!fast_entry_ok(file))
			return false;
		*ret = free_fast(file, (void __user *)arg);
		return true;
	default:
		return false;
	}
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_CLIENT_H_
#define _VRAMPOOL_CLIENT_H_

#include "vrampool_client_types.h"

struct drm_device;
struct drm_file;
struct drm_printer;
struct vrampool_dmem_filter;

/**
 * DOC: Locking
 *
 * The locks, outermost first. A path may take a later lock while holding
 * an earlier one, never the reverse:
 *
 * 1. &vrampool_device.clients_lock protects the device's client list. It
 *    is held alone to add or remove a client, and around the client lock
 *    by the debugfs ``clients`` file. Reclaim (DOC: reclaim, in
 *    vrampool_reclaim.c) holds it only to choose a victim and take a
 *    reference to it: an ALLOC that VRAM cannot hold drops its own client
 *    lock, picks one other client under the clients lock, drops that,
 *    takes the victim's lock (killable), and retakes its own after
 *    dropping the victim's. No path holds two client locks, nor takes
 *    the clients lock under a client lock, and nobody waits for a client
 *    lock while holding the clients lock but the debugfs file.
 * 2. &vrampool_client.sysfs_lock serialises a client's installs and their
 *    changes to its sysfs folders (client_install() in vrampool_install.c).
 * 3. &vrampool_client.lock protects all of a client: its pool set, its
 *    persistent pool, their pages and allocations, its handles, its
 *    generation and persistent mode. Every ioctl but GET_PARAM takes it.
 * 4. A TTM reservation (dma_resv) of a buffer object, taken when a pool
 *    page is backed or released (vrampool_bo_create(), vrampool_bo_free())
 *    under the client lock, and by TTM on a CPU fault.
 * 5. &vrampool_vram_mgr.lock, a mutex around the VRAM buddy allocator,
 *    taken inside TTM under a reservation and by the debugfs ``vram_mm``
 *    file.
 *
 * A CPU fault on a pool page holds mmap_lock and takes a reservation, so no
 * path may fault on user memory (copy_from_user(), copy_to_user()) while it
 * holds the client lock: ioctls copy in before taking it and copy out after
 * dropping it. The one exception writes with page faults disabled
 * (pagefault_disable()), where a page that is not there fails the write
 * at once instead of faulting it in: ALLOC_BATCH writes its answers so,
 * and drops the lock to write them only when that fails.
 *
 * sysfs: a show() of a client's files runs with its kernfs node active and
 * takes the client lock, nothing else; removing a folder waits until no
 * show() of it is active. So a folder is never added or removed with the
 * client lock held: an install adds folders before its swap and removes
 * them after it, under the sysfs lock only; open adds the client's folder
 * (vrampool_drv.c) before its file reaches userspace, postclose removes it
 * first of all.
 * The device's folder, whose show()s take no driver lock, is removed when
 * the bus device is unbound, with every client folder in it.
 *
 * Interruptible waits: only where the ioctl's ABI lists -EINTR. ALLOC and
 * POOL_INSTALL, which may create and clear VRAM pages and wait behind
 * another thread's doing so, take the sysfs and client locks with
 * mutex_lock_interruptible() (an install from the point where it would
 * change something). FREE, CLEANUP, POOL_QUERY, SET_PERSISTENT_MODE, the
 * generation a refused install reports and fdinfo take the client lock
 * with mutex_lock_killable(): a signal does not make them fail (FREE and
 * CLEANUP give memory back, and their ABI has no -EINTR), but a task
 * waiting behind a long ALLOC can still be killed instead of sitting in D
 * state; a killed fdinfo read prints nothing. sysfs show() and debugfs use
 * mutex_lock(); the clients lock is held around list operations and a
 * reclaim walk's choice of its next victim, whose lock reclaim then takes
 * outside it with mutex_lock_killable() (a killed ALLOC stops there with
 * -EINTR, having taken nothing). An ALLOC that reclaims retakes its
 * own lock with mutex_lock(): it must hold it again to give its handle
 * back, and waits only behind another thread of the same file. postclose
 * takes the client lock once, to mark the client closed for a reclaim walk
 * that holds a reference to it: no ioctl runs on a closed file, and it
 * removes the client's folder and unlinks it from the clients list before
 * it frees anything.
 *
 * Unplug: every ioctl runs inside drm_dev_enter() (vrampool_drv.c), and so
 * does open(); drm_dev_unplug() waits for them, and no path waits for an
 * unplug while it holds one of the locks above.
 */

int vrampool_client_open(struct drm_device *drm, struct drm_file *file);
void vrampool_client_postclose(struct drm_device *drm, struct drm_file *file);
void vrampool_client_show_fdinfo(struct drm_printer *p, struct drm_file *file);
void vrampool_client_put(struct vrampool_client *client);
void vrampool_client_cleanup(struct vrampool_client *client);
void vrampool_client_trim(struct vrampool_client *client, u64 want_vram, u32 want_pages,
			  struct vrampool_dmem_filter *filter);
u64 vrampool_client_vram(struct vrampool_client *client);
u64 vrampool_client_purgeable(struct vrampool_client *client);

#endif /* _VRAMPOOL_CLIENT_H_ */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_BO_H_
#define _VRAMPOOL_BO_H_

#include <linux/atomic.h>
#include <linux/bits.h>

#include <drm/ttm/ttm_bo.h>

struct vrampool_device;
struct vrampool_tenant;

/**
 * struct vrampool_orphans - what a client's orphaned BOs hold
 *
 * An orphan is a BO its owner freed while a CPU mapping of it remained: it
 * keeps its VRAM (it is never evicted) until the last mapping goes, and is
 * charged to its owner meanwhile. The mappings hold the owner's file, so
 * the owner outlives its orphans' charges.
 */
struct vrampool_orphans {
	/** @bytes: VRAM the orphans hold */
	atomic64_t bytes;
	/** @count: how many orphans there are */
	atomic64_t count;
};

/**
 * struct vrampool_bo_attempt - what the VRAM manager saw of a BO being created
 *
 * TTM answers -ENOSPC both when VRAM had no room and when the dmem cgroup
 * refused the charge, which it asks before the manager (DOC: dmem cgroup):
 * vrampool_bo_create() tells them apart by these.
 */
struct vrampool_bo_attempt {
	/** @asked: the manager was asked to place the BO */
	bool asked;
	/** @no_space: the manager found no room (TTM reports -ENOMEM) */
	bool no_space;
};

/**
 * struct vrampool_bo - a buffer object pinned in VRAM
 *
 * The GEM object embedded in @tbo holds the reference that keeps it alive;
 * TTM frees it through vrampool_bo_destroy() when the last one goes.
 */
struct vrampool_bo {
	/** @tbo: the TTM buffer object, with its GEM object */
	struct ttm_buffer_object tbo;
	/**
	 * @attempt: while the BO is being created, where the VRAM manager
	 * records what it did; NULL after
	 */
	struct vrampool_bo_attempt *attempt;
	/**
	 * @maps: the CPU mappings (VMAs) of the BO, with %VRAMPOOL_BO_FREED
	 * set once vrampool_bo_free() ran: the BO is an orphan while both are
	 */
	atomic_t maps;
	/** @orphans: where the BO is charged while an orphan, or NULL */
	struct vrampool_orphans *orphans;
	/**
	 * @tenant: the user its VRAM is charged to until it is destroyed, with
	 * a reference; NULL for a BO no user is charged for
	 */
	struct vrampool_tenant *tenant;
};

/* In &vrampool_bo.maps: the creator's reference is gone. */
#define VRAMPOOL_BO_FREED	BIT(30)

int vrampool_bo_create(struct vrampool_device *vdev, u64 size,
		       enum ttm_bo_type type, struct vrampool_bo **out);
void vrampool_bo_charge(struct vrampool_bo *bo, struct vrampool_tenant *tenant);
void vrampool_bo_free(struct vrampool_bo *bo);
void vrampool_bo_note_attempt(struct ttm_buffer_object *tbo, bool no_space);
void vrampool_bo_read(struct vrampool_bo *bo, u64 offset, void *dst, size_t len);
void vrampool_bo_write(struct vrampool_bo *bo, u64 offset, const void *src, size_t len);
u64 vrampool_bo_orphans_bytes(struct vrampool_orphans *orphans);
u64 vrampool_bo_orphans_count(struct vrampool_orphans *orphans);

#endif /* _VRAMPOOL_BO_H_ */

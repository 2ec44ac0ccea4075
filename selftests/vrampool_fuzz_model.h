/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fuzzer's model of a device's pools: what every ALLOC must answer.
 *
 * It predicts, from its own state and the documented rules alone (never
 * from an answer of the kernel), the pool, page index, offset, padding and
 * page size of every allocation, which pages each pool holds and when it
 * makes or releases one, and the VRAM in use of the device, so an
 * OutOfMemory is predicted too: after the client's own cleanup and the
 * reclaim of other clients' free pages, in the documented order; the page
 * limit and the device's VRAM quota likewise, which count what all the
 * clients of a user hold, and after their refusal the reclaim of the
 * user's other clients' free pages. The one thing it learns from
 * the kernel is a page's mmap offset, which no rule fixes, from the first
 * answer that shows the page; every later use of the page must agree.
 *
 * The rules modelled (Documentation/vrampool.rst, the DOC comments of
 * driver/vrampool_pool*.c): routing, with capped sliced pools falling
 * through and the near-page rule; first fit in sliced pages, oldest page
 * first, lowest hole first; exclusive pages sized by the running average
 * (fixed point, 1% a request) and reused fewest-idle-checks first, the
 * periodic idle checks; direct slots (the slot released last, else a new
 * one) reused by exact size, lowest slot first, with the reclaim_at
 * watermark; persistent buffers reused by exact size, oldest first, and
 * SIZE_MATCH; explicit cleanup, cleanup before an install, reclaim across
 * clients (oldest ALLOC stamp first), orphaned pages that stay charged
 * while mapped, and the undo of a refused batch.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_FUZZ_MODEL_H
#define VRAMPOOL_FUZZ_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <drm/vrampool_accel.h>

struct fzm_page {
	uint32_t pool, index;
	uint64_t size, vram, order, mmap_offset;
	uint32_t live, idle;
	uint32_t maps;			/* the fuzzer's mappings of it */
};

struct fzm_pool {
	struct drm_vrampool_pool_entry cfg;
	uint32_t next_index;
	uint64_t made, max_pages, avg, last_check;
	uint64_t allocations, bytes, padding, reserved, pages, pages_peak, largest;
	uint32_t *vacant;		/* direct: released slots, the last on top */
	uint32_t nvacant, vacant_cap;
};

struct fzm_alloc {
	uint32_t handle, pool, page;	/* page: DRM_VRAMPOOL_NO_PAGE for size 0 */
	uint64_t size, eff, offset;
};

struct fzm_orphan {			/* a released page the fuzzer still maps */
	uint64_t mmap_offset, vram;
	uint32_t maps;
};

/* A user of the device (DOC: tenants): what all its clients hold, the limits' sums. */
#define FZM_USERS	3

struct fzm_user {
	uint64_t vram, pages;
};

struct fzm_dev {
	uint64_t vram_size, alignment, in_use, max_pages, clock;
	struct fzm_user users[FZM_USERS];
	uint64_t quota;			/* the device's vram_quota, 0 for none */
	uint64_t next_id;		/* DRM client ids in opening order */
};

struct fzm_client {
	struct fzm_dev *dev;
	uint32_t user;			/* its index in dev->users */
	bool open;
	uint32_t mode;
	uint64_t alloc_nr, stamp, id;
	uint64_t quota_refused;		/* a new page passed the quota: the quota */
	uint64_t refused_vram;		/* the VRAM of the page VRAM or the quota refused */
	bool hopeless;			/* its page is larger than VRAM or the quota */
	uint32_t npools;
	struct fzm_pool pools[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct fzm_pool pers;
	struct fzm_page *pages;
	uint32_t npages, pages_cap;
	struct fzm_alloc *live;
	uint32_t nlive, live_cap;
	struct fzm_orphan *orphans;
	uint32_t norphans, orphans_cap;
};

/* A prediction of one ALLOC: an answer, or an error with its payload. */
struct fzm_answer {
	int err;			/* 0 or the negative errno */
	uint32_t code;			/* DRM_VRAMPOOL_ERR_* with err */
	uint32_t err_pool;		/* capacity: the pool; page limit: the limit */
	/* capacity, page limit, quota: the limit and what is held */
	uint64_t capacity, in_use;
	uint32_t pool, page;
	uint64_t offset, padding, page_size;
	bool new_page;			/* the mmap offset is the kernel's to say */
	int32_t alloc;			/* its index in live[] on success */
};

void fzm_client_open(struct fzm_client *c, struct fzm_dev *dev, uint32_t user,
		     const struct drm_vrampool_pool_entry *layout, uint32_t n);
void fzm_client_close(struct fzm_client *c);
uint64_t fzm_client_vram(const struct fzm_client *c);

/*
 * ALLOC of @size with @flags by @c; @others are the clients of the device
 * (c among them: skipped), for reclaim. Updates the model as the kernel
 * must, and says what it must answer. The allocation limit is the caller's.
 */
void fzm_alloc(struct fzm_client *c, struct fzm_client *const *others, int nothers,
	       uint64_t size, uint32_t flags, struct fzm_answer *ans);
int fzm_find(const struct fzm_client *c, uint32_t handle);
void fzm_free(struct fzm_client *c, uint32_t handle);
void fzm_cleanup(struct fzm_client *c);
/* An install with no live dynamic allocation: the cleanup ran, then the swap. */
void fzm_install(struct fzm_client *c, const struct drm_vrampool_pool_entry *layout,
		 uint32_t n);
struct fzm_page *fzm_page(struct fzm_client *c, uint32_t pool, uint32_t index);
void fzm_map(struct fzm_client *c, uint64_t mmap_offset);
void fzm_unmap(struct fzm_client *c, uint64_t mmap_offset);
const struct fzm_pool *fzm_pool(const struct fzm_client *c, uint32_t pool);
/* A refused batch: its placed allocations freed, the last first, then a
 * cleanup if the pools made pages meanwhile (@made_before:
 * fzm_client_made() before it), whatever they released (DOC: batches).
 */
void fzm_batch_undo(struct fzm_client *c, uint32_t placed, uint64_t made_before);
/* Pages the client's pools have made, the persistent pool's too. */
uint64_t fzm_client_made(const struct fzm_client *c);
bool fzm_routable(const struct fzm_client *c, uint64_t size, uint32_t flags);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pool objects every pool file and the allocation path read: a pool,
 * its pages, an allocation, and where pages get memory.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_POOL_TYPES_H_
#define _VRAMPOOL_POOL_TYPES_H_

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <drm/vrampool_accel.h>

#include "vrampool_slices.h"

struct vrampool_bo;
struct vrampool_pool_ops;
struct vrampool_pool_page;

/**
 * struct vrampool_backing - where pool pages get their memory
 *
 * A client backs pages with VRAM buffer objects; the KUnit tests back them
 * with nothing, to test the pool logic alone.
 */
struct vrampool_backing {
	/**
	 * @back: give @ppage (its size set, never 0) memory; 0, -ENOSPC when
	 * the device is full, -EDQUOT when the owner holds as many pages as it
	 * may, -ENOMEM or -EINTR
	 */
	int (*back)(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage);
	/** @release: give a page's memory back */
	void (*release)(const struct vrampool_backing *backing, struct vrampool_pool_page *ppage);
	/** @owner: the owning client's drm-client-id, which tracepoints name */
	u64 owner;
	/**
	 * @cached: optional: the owner's sum of &vrampool_pool_stats.free_vram
	 * over all its pools, kept with them (WRITE_ONCE(), under the owner's
	 * lock) for readers without it
	 */
	u64 *cached;
};

/**
 * struct vrampool_trim - a cleanup that gives back only what is needed
 *
 * vrampool_pool_trim() releases free pages in the pool's release order,
 * asking before each whether enough went back; the caller embeds it to
 * keep its goal (DOC: reclaim, in vrampool_reclaim.c).
 */
struct vrampool_trim {
	/** @done: whether enough was given back: then nothing more is released */
	bool (*done)(struct vrampool_trim *trim);
	/**
	 * @may_release: whether a free page may go (the dmem cgroup's
	 * protection, DOC: dmem cgroup); NULL when every free page may
	 */
	bool (*may_release)(struct vrampool_trim *trim, struct vrampool_pool_page *ppage);
};

/**
 * struct vrampool_pool_page - one page of a pool
 *
 * Sliced pools carve a page into slices (@slices). The other types (exclusive,
 * direct and persistent) put one allocation in each page (@alloc) and keep
 * their free pages in &vrampool_pool.fit_tree: "single-allocation pages"
 * below.
 */
struct vrampool_pool_page {
	/** @pool: the pool it belongs to */
	struct vrampool_pool *pool;
	/**
	 * @index: its index in the pool, stable for its life and unique among
	 * the pool's live pages (DOC: page indices and page order, in
	 * vrampool_pool_page.c)
	 */
	u32 index;
	/**
	 * @order: its rank in the order the pool visits, reuses and reclaims
	 * its pages: how many pages the pool had made before it (creation
	 * order, oldest first); in a direct pool its slot, @index
	 */
	u64 order;
	/** @age_link: its place on &vrampool_pool.by_age */
	struct list_head age_link;
	/**
	 * @free_count: exclusive pools only: the page's idle count. A new page
	 * starts at 4; each reuse takes one off (not below 0), each periodic
	 * idle check while it is free adds one, and at 5 it is released.
	 */
	u32 free_count;
	/** @size: its size in bytes */
	u64 size;
	/** @bo: its VRAM, or NULL for a test backing */
	struct vrampool_bo *bo;
	/** @mmap_offset: where userspace maps it, 0 without @bo */
	u64 mmap_offset;
	/** @vram: bytes of VRAM @bo holds, whole CPU pages */
	u64 vram;
	/** @slices: sliced pools only: its slices and the holes between them */
	struct vrampool_slices slices;
	/** @live: how many allocations the page holds now */
	u32 live;
	/**
	 * @free_marked: single-allocation pages: marked %VRAMPOOL_PAGE_FREE
	 * in &vrampool_pool.pages (DOC: page indices and page order)
	 */
	bool free_marked;
	/** @alloc: single-allocation pages: the allocation it holds, NULL while free */
	struct vrampool_alloc *alloc;
	/**
	 * @fit_node: its place in &vrampool_pool.fit_tree: single-allocation
	 * pages while free, sliced pages always; else cleared (RB_EMPTY_NODE())
	 */
	struct rb_node fit_node;
	/**
	 * @fit: in &vrampool_pool.fit_tree: the largest allocation it can take
	 * now, its size (free single-allocation page) or its largest hole
	 * (sliced page)
	 */
	u64 fit;
	/** @fit_max: the largest @fit in its subtree of &vrampool_pool.fit_tree */
	u64 fit_max;
};

/**
 * struct vrampool_alloc - one allocation, named by a handle
 *
 * A client may hold millions, so it is kept to 48 bytes (DOC: allocation
 * records, in vrampool_pool.c): read it through vrampool_alloc_pool(),
 * vrampool_alloc_offset(), vrampool_pool_alloc_size() and
 * vrampool_pool_padding().
 */
struct vrampool_alloc {
	union {
		/** @ppage: its page; NULL for a zero-size allocation, which never has one */
		struct vrampool_pool_page *ppage;
		/**
		 * @next_spare: while the record is a client's spare, not an
		 * allocation, the next spare (DOC: spare records)
		 */
		struct vrampool_alloc *next_spare;
	};
	union {
		/**
		 * @slice: in a sliced pool's page: its slice, which keeps
		 * its alignment padding (&vrampool_slice.pad)
		 */
		struct vrampool_slice slice;
		/**
		 * @whole: in a page of its own (exclusive, direct and
		 * persistent pools), and for a zero-size allocation
		 */
		struct {
			/** @whole.size: bytes requested */
			u64 size;
			/** @whole.pool: the pool that served it */
			struct vrampool_pool *pool;
		} whole;
	};
};

/**
 * struct vrampool_pool_stats - the usage of one pool
 */
struct vrampool_pool_stats {
	/** @allocations: live allocations */
	u64 allocations;
	/** @bytes_in_use: bytes requested by live allocations */
	u64 bytes_in_use;
	/** @padding: their alignment padding */
	u64 padding;
	/** @reserved: bytes of the pool's pages */
	u64 reserved;
	/** @pages: pages held */
	u64 pages;
	/** @pages_peak: most pages held since the pool was made */
	u64 pages_peak;
	/** @largest_alloc: largest size served since the pool was made */
	u64 largest_alloc;
	/** @vram: bytes of VRAM the pages hold (CPU-page granular) */
	u64 vram;
	/** @free_vram: of @vram, what the pages without a live allocation hold */
	u64 free_vram;
};

/**
 * struct vrampool_pool - a pool of any type
 *
 * What every type has; each type's own state is in its struct, which
 * embeds this one and is reached with container_of() in its file
 * (vrampool_pool_<type>.c). All of it is protected by the owning client's
 * lock.
 */
struct vrampool_pool {
	/**
	 * @config: the resolved pool entry; the persistent pool (index 255)
	 * has type %DRM_VRAMPOOL_POOL_PERSISTENT and every other field 0
	 */
	struct drm_vrampool_pool_entry config;
	/** @ops: the operations of its type */
	const struct vrampool_pool_ops *ops;
	/** @index: position in the layout, or DRM_VRAMPOOL_PERSISTENT_POOL */
	u32 index;
	/** @alignment: the device alignment, a power of two */
	u64 alignment;
	/** @backing: where pages get memory */
	const struct vrampool_backing *backing;
	/**
	 * @pages: the pages, by index; every free single-allocation page
	 * is marked %VRAMPOOL_PAGE_FREE, and so may be a busy one (DOC: page
	 * indices and page order)
	 */
	struct xarray pages;
	/** @by_age: every page, oldest first: the order sliced cleanup releases in */
	struct list_head by_age;
	/** @pages_made: pages made since the pool was created */
	u64 pages_made;
	/**
	 * @next_index: where the search for a new page's index starts; direct
	 * pools: the slots made so far (the next new slot)
	 */
	u32 next_index;
	/**
	 * @fit_tree: the pages a new allocation may go into, in the order the
	 * type visits them (&vrampool_pool_ops.free_before): the free
	 * single-allocation pages, or every page of a sliced pool; each
	 * subtree augmented with its largest fit (&vrampool_pool_page.fit_max)
	 */
	struct rb_root_cached fit_tree;
	/** @stats: usage */
	struct vrampool_pool_stats stats;
};

#endif /* _VRAMPOOL_POOL_TYPES_H_ */

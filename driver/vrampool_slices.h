/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_SLICES_H_
#define _VRAMPOOL_SLICES_H_

#include <linux/minmax.h>
#include <linux/rbtree.h>
#include <linux/types.h>

/**
 * struct vrampool_slice - one slice of a page, in its &struct vrampool_slices
 *
 * Offsets and lengths are counted in the index's units
 * (&vrampool_slices.shift), in 32 bits: a slice costs 40 bytes. Its length
 * is not kept: it ends where the hole after it starts
 * (vrampool_slices_end()).
 */
struct vrampool_slice {
	union {
		/** @rb: its place in &vrampool_slices.root, by offset */
		struct rb_node rb;
		/**
		 * @below: while the slice is pending (DOC: pending slices, in
		 * vrampool_slices.c), the pending slice just before it, NULL
		 * for the first
		 */
		struct vrampool_slice *below;
	};
	/** @offset: where it starts in the page, in units (vrampool_slices_offset()) */
	u32 offset;
	/** @gap: the free units before it, from the previous slice's end (or 0) */
	u32 gap;
	/** @gap_max: the largest @gap in its subtree */
	u32 gap_max;
	/**
	 * @pad: not the index's: 32 bits its owner keeps with the slice (a
	 * sliced allocation's alignment padding, in bytes)
	 */
	u32 pad;
};

/**
 * struct vrampool_slices - the slices of one page and the holes between them
 */
struct vrampool_slices {
	/** @root: the slices by offset, each subtree with its largest gap */
	struct rb_root root;
	/**
	 * @last: the slice of @root at the highest offset, NULL if none: a
	 * slice goes after it, and the last one goes, without a walk of the
	 * tree
	 */
	struct vrampool_slice *last;
	/**
	 * @pending: the last of the slices placed in the tail and not yet in
	 * @root, NULL if none (DOC: pending slices, in vrampool_slices.c)
	 */
	struct vrampool_slice *pending;
	/** @size: the page's size, in units */
	u32 size;
	/** @tail: the free units after the last slice (the whole page if none) */
	u32 tail;
	/** @shift: a unit is 2^@shift bytes (the device alignment) */
	u32 shift;
};

int vrampool_slices_init(struct vrampool_slices *s, u64 size, u32 shift);
bool vrampool_slices_insert(struct vrampool_slices *s, struct vrampool_slice *slice, u64 len);
u64 vrampool_slices_remove(struct vrampool_slices *s, struct vrampool_slice *slice);
struct vrampool_slice *vrampool_slices_first(struct vrampool_slices *s);
struct vrampool_slice *vrampool_slices_next(const struct vrampool_slice *slice);
u64 vrampool_slices_end(struct vrampool_slices *s, const struct vrampool_slice *slice);
u64 vrampool_slices_len(struct vrampool_slices *s, const struct vrampool_slice *slice);

/**
 * vrampool_slices_offset() - where a slice starts
 * @s: the index
 * @slice: a slice of @s
 *
 * Return: its offset in the page, in bytes.
 */
static inline u64 vrampool_slices_offset(const struct vrampool_slices *s,
					 const struct vrampool_slice *slice)
{
	return (u64)slice->offset << s->shift;
}

/**
 * vrampool_slices_largest_hole() - the largest slice the page can take now
 * @s: the index
 *
 * Inline: every ALLOC and FREE of a sliced page asks.
 *
 * Return: the size of its largest hole in bytes, in O(1).
 */
static inline u64 vrampool_slices_largest_hole(const struct vrampool_slices *s)
{
	const struct rb_node *rb = s->root.rb_node;
	u32 units = max(rb ? rb_entry(rb, struct vrampool_slice, rb)->gap_max : 0, s->tail);

	return (u64)units << s->shift;
}

#endif /* _VRAMPOOL_SLICES_H_ */

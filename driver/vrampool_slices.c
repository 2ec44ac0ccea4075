// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: the slice index of a sliced page: where its slices are and
 * where a new one goes.
 *
 * A new slice goes at the start of the lowest-offset hole that can take it
 * (first fit), and a freed slice's bytes merge with the holes on both sides
 * of it, so that the holes are always the page's maximal free ranges: the
 * placement of a drm_mm with DRM_MM_INSERT_LOW, at a fraction of its memory
 * per slice. Each slice is a node of an rbtree by offset that keeps the
 * hole just before it (its gap) and the largest gap of its subtree; the
 * hole after the last slice (the tail) is kept aside, and so is the last
 * slice itself, where a slice placed in the tail goes. So the lowest hole
 * that fits is found in O(log n) (a subtree whose largest gap is too small
 * is skipped whole), and the largest hole, which the pool's fit tree needs,
 * is known in O(1).
 *
 * A slice placed at a hole's start has no gap of its own: the hole's bytes
 * after it stay the gap of the slice that follows, or the tail. Lengths
 * are not kept either: a slice ends where the hole after it starts.
 *
 * Slices placed in the tail wait outside the tree (DOC: pending slices).
 *
 * The index counts in units of the device alignment, which every offset
 * and length is a multiple of, in 32 bits (DOC: slice units).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/rbtree_augmented.h>
#include <kunit/visibility.h>

#include "vrampool_slices.h"

/**
 * DOC: pending slices
 *
 * A runtime mostly allocates at the end of a page and frees what it
 * allocated last, or a whole batch at once. So a slice placed in the tail
 * is not linked into the tree at once: it goes on the page's stack of
 * pending slices (&vrampool_slices.pending, linked through
 * &vrampool_slice.below), a run of slices that follow the tree's last one
 * without a gap, and the tail stays the hole after them. Freeing the last
 * pending slice gives its bytes back to the tail and takes it off the
 * stack. Both are O(1), and no rebalancing is done for a slice that never
 * meets another operation. Any other use of the index that needs the
 * pending slices to be in order (removing another slice, walking the
 * slices, a slice's end) first links them into the tree, in offset order
 * (pending_link()), so every other operation sees the index as it would
 * have been. The placement does not change: the pending slices have no
 * gap, so a hole that fits is still found in the tree, else in the tail.
 */

static struct vrampool_slice *slice_of(struct rb_node *rb)
{
	return rb_entry(rb, struct vrampool_slice, rb);
}

/**
 * DOC: slice units
 *
 * A slice record is most of the kernel memory a live allocation of a
 * sliced pool costs, so the index keeps offsets and gaps in 32 bits, in
 * units of 2^shift bytes: the device alignment, which every slice's
 * length, and so every offset and gap, is a multiple of. A page of up to
 * 2^32 units fits (1 TiB at the default alignment of 256 bytes); the device
 * refuses to probe with more VRAM than that, so every page it can make
 * does.
 */

static u32 slice_gap(const struct vrampool_slice *slice)
{
	return slice->gap;
}

RB_DECLARE_CALLBACKS_MAX(static, slices_augment, struct vrampool_slice, rb, u32, gap_max,
			 slice_gap)

/* The largest gap of the subtree at @rb, 0 for none. */
static u32 subtree_gap(struct rb_node *rb)
{
	return rb ? slice_of(rb)->gap_max : 0;
}

/**
 * vrampool_slices_init() - an empty page: one hole of its size
 * @s: the index
 * @size: the page's size in bytes, a multiple of 2^@shift
 * @shift: the index's unit is 2^@shift bytes (DOC: slice units), at most 32
 *
 * Return: 0, or -EINVAL if @size is not a multiple of the unit or is
 * 2^32 units or more.
 */
int vrampool_slices_init(struct vrampool_slices *s, u64 size, u32 shift)
{
	if (shift > 32 || size & (BIT_ULL(shift) - 1) || size >> shift > U32_MAX)
		return -EINVAL;
	s->root = RB_ROOT;
	s->size = size >> shift;
	s->tail = s->size;
	s->shift = shift;
	s->last = NULL;
	s->pending = NULL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_init);

/* The first slice, by offset, whose gap is at least @len; NULL if none. */
static struct vrampool_slice *lowest_gap(struct vrampool_slices *s, u32 len)
{
	struct rb_node *rb = s->root.rb_node;

	if (subtree_gap(rb) < len)
		return NULL;
	/* Each subtree entered has a gap that fits: left, here, else right. */
	while (subtree_gap(rb->rb_left) >= len || slice_of(rb)->gap < len)
		rb = subtree_gap(rb->rb_left) >= len ? rb->rb_left : rb->rb_right;
	return slice_of(rb);
}

/*
 * Link @slice as the slice just before @next: the rightmost place in
 * @next's left subtree. With @next NULL it becomes the last slice: the
 * right child of the last one, which has none.
 */
static void link_before(struct vrampool_slices *s, struct vrampool_slice *slice,
			struct vrampool_slice *next)
{
	struct rb_node **link = &s->root.rb_node, *parent = NULL;

	if (next) {
		parent = &next->rb;
		link = &parent->rb_left;
		while (*link) {
			parent = *link;
			link = &parent->rb_right;
		}
	} else if (s->last) {
		parent = &s->last->rb;
		link = &parent->rb_right;
	}
	rb_link_node(&slice->rb, parent, link);
	rb_insert_augmented(&slice->rb, &s->root, &slices_augment);
	if (!next)
		s->last = slice;
}

/*
 * Links the pending slices into the tree, each after the last, lowest
 * first: the stack is turned over (its links now point up), then walked.
 */
static void pending_link(struct vrampool_slices *s)
{
	struct vrampool_slice *slice = s->pending, *up = NULL, *below;

	if (!slice)
		return;
	while (slice) {
		below = slice->below;
		slice->below = up;
		up = slice;
		slice = below;
	}
	s->pending = NULL;
	for (slice = up; slice; slice = up) {
		up = slice->below;	/* read before linking: the link is its room */
		link_before(s, slice, NULL);
	}
}

/**
 * vrampool_slices_insert() - place a slice at the start of the lowest hole that fits
 * @s: the index
 * @slice: the slice, not in any index; its offset is set on success
 * @bytes: its length in bytes, not 0, rounded up to the unit
 *
 * In O(log n); in O(1) in the tail, where it is pending (DOC: pending
 * slices).
 *
 * Return: false, and nothing changed, if no hole can take @bytes.
 */
bool vrampool_slices_insert(struct vrampool_slices *s, struct vrampool_slice *slice, u64 bytes)
{
	struct vrampool_slice *next;
	u32 len;

	/* Past the page: no hole takes it, and the rounding cannot overflow. */
	if (bytes > (u64)s->size << s->shift)
		return false;
	len = (bytes + BIT_ULL(s->shift) - 1) >> s->shift;
	next = lowest_gap(s, len);
	slice->gap = 0;
	slice->gap_max = 0;
	if (!next) {
		if (s->tail < len)
			return false;
		slice->offset = s->size - s->tail;
		s->tail -= len;
		slice->below = s->pending;
		s->pending = slice;
		return true;
	}
	slice->offset = next->offset - next->gap;
	next->gap -= len;
	slices_augment_propagate(&next->rb, NULL);
	link_before(s, slice, next);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_insert);

/**
 * vrampool_slices_first() - the slice at the lowest offset
 * @s: the index; its pending slices are linked first (DOC: pending slices)
 *
 * Return: the slice, or NULL if the page has none; walk on with
 * vrampool_slices_next(), while the index does not change.
 */
struct vrampool_slice *vrampool_slices_first(struct vrampool_slices *s)
{
	struct rb_node *rb;

	pending_link(s);
	rb = rb_first(&s->root);
	return rb ? slice_of(rb) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_first);

/**
 * vrampool_slices_next() - the slice after another, by offset
 * @slice: a slice of an index
 *
 * Return: the next slice, or NULL after the last.
 */
struct vrampool_slice *vrampool_slices_next(const struct vrampool_slice *slice)
{
	struct rb_node *rb = rb_next(&slice->rb);

	return rb ? slice_of(rb) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_next);

/*
 * Where @slice ends: where the hole before @next (the slice after it, NULL
 * for none) starts, or the tail.
 */
static u32 slice_end(const struct vrampool_slices *s, const struct vrampool_slice *next)
{
	return next ? next->offset - next->gap : s->size - s->tail;
}

/**
 * vrampool_slices_end() - where a slice ends
 * @s: the index; its pending slices are linked first (DOC: pending slices)
 * @slice: a slice of @s
 *
 * The lengths are not kept: a slice ends where the hole after it starts.
 *
 * Return: the offset just past @slice in bytes, in O(log n) (O(1) for the
 * last).
 */
u64 vrampool_slices_end(struct vrampool_slices *s, const struct vrampool_slice *slice)
{
	u32 end;

	pending_link(s);
	end = slice_end(s, slice == s->last ? NULL : vrampool_slices_next(slice));
	return (u64)end << s->shift;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_end);

/**
 * vrampool_slices_len() - a slice's length
 * @s: the index
 * @slice: a slice of @s
 *
 * In O(1) for the last pending slice (DOC: pending slices), which ends
 * where the tail starts, and the last slice; else as vrampool_slices_end(),
 * which links the pending slices.
 *
 * Return: its length in bytes.
 */
u64 vrampool_slices_len(struct vrampool_slices *s, const struct vrampool_slice *slice)
{
	if (slice == s->pending)
		return (u64)(s->size - s->tail - slice->offset) << s->shift;
	return vrampool_slices_end(s, slice) - vrampool_slices_offset(s, slice);
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_len);

/**
 * vrampool_slices_remove() - free a slice: its bytes join the holes around it
 * @s: the index
 * @slice: a slice of @s
 *
 * In O(log n); in O(1) for the last pending slice (DOC: pending slices),
 * whose bytes go back to the tail.
 *
 * Return: its length in bytes.
 */
u64 vrampool_slices_remove(struct vrampool_slices *s, struct vrampool_slice *slice)
{
	struct vrampool_slice *next;
	struct rb_node *prev;
	u32 len, freed;

	if (slice == s->pending) {
		/* It ends where the tail starts, and has no gap. */
		len = s->size - s->tail - slice->offset;
		s->tail = s->size - slice->offset;
		s->pending = slice->below;
		return (u64)len << s->shift;
	}
	pending_link(s);
	next = slice == s->last ? NULL : vrampool_slices_next(slice);
	len = slice_end(s, next) - slice->offset;
	freed = slice->gap + len;

	if (next) {
		next->gap += freed;
		slices_augment_propagate(&next->rb, NULL);
	} else {
		s->tail += freed;
		/* The last slice has no right child: its predecessor is near. */
		prev = rb_prev(&slice->rb);
		s->last = prev ? slice_of(prev) : NULL;
	}
	rb_erase_augmented(&slice->rb, &s->root, &slices_augment);
	return (u64)len << s->shift;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_remove);

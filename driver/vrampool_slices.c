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
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/minmax.h>
#include <linux/rbtree_augmented.h>
#include <kunit/visibility.h>

#include "vrampool_slices.h"

static struct vrampool_slice *slice_of(struct rb_node *rb)
{
	return rb_entry(rb, struct vrampool_slice, rb);
}

static u64 slice_gap(const struct vrampool_slice *slice)
{
	return slice->gap;
}

RB_DECLARE_CALLBACKS_MAX(static, slices_augment, struct vrampool_slice, rb, u64, gap_max,
			 slice_gap)

/* The largest gap of the subtree at @rb, 0 for none. */
static u64 subtree_gap(struct rb_node *rb)
{
	return rb ? slice_of(rb)->gap_max : 0;
}

/**
 * vrampool_slices_init() - an empty page: one hole of its size
 * @s: the index
 * @size: the page's size in bytes
 */
void vrampool_slices_init(struct vrampool_slices *s, u64 size)
{
	s->root = RB_ROOT;
	s->size = size;
	s->tail = size;
	s->last = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_init);

/* The first slice, by offset, whose gap is at least @len; NULL if none. */
static struct vrampool_slice *lowest_gap(struct vrampool_slices *s, u64 len)
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

/**
 * vrampool_slices_insert() - place a slice at the start of the lowest hole that fits
 * @s: the index
 * @slice: the slice, not in any index; its offset is set on success
 * @len: its length in bytes, not 0
 *
 * In O(log n).
 *
 * Return: false, and nothing changed, if no hole can take @len bytes.
 */
bool vrampool_slices_insert(struct vrampool_slices *s, struct vrampool_slice *slice, u64 len)
{
	struct vrampool_slice *next = lowest_gap(s, len);

	if (next) {
		slice->offset = next->offset - next->gap;
		next->gap -= len;
		slices_augment_propagate(&next->rb, NULL);
	} else {
		if (s->tail < len)
			return false;
		slice->offset = s->size - s->tail;
		s->tail -= len;
	}
	slice->gap = 0;
	slice->gap_max = 0;
	link_before(s, slice, next);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_insert);

/**
 * vrampool_slices_first() - the slice at the lowest offset
 * @s: the index
 *
 * Return: the slice, or NULL if the page has none; walk on with
 * vrampool_slices_next().
 */
struct vrampool_slice *vrampool_slices_first(const struct vrampool_slices *s)
{
	struct rb_node *rb = rb_first(&s->root);

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
static u64 slice_end(const struct vrampool_slices *s, const struct vrampool_slice *next)
{
	return next ? next->offset - next->gap : s->size - s->tail;
}

/**
 * vrampool_slices_end() - where a slice ends
 * @s: the index
 * @slice: a slice of @s
 *
 * The lengths are not kept: a slice ends where the hole after it starts.
 *
 * Return: the offset just past @slice, in O(log n) (O(1) for the last).
 */
u64 vrampool_slices_end(const struct vrampool_slices *s, const struct vrampool_slice *slice)
{
	return slice_end(s, slice == s->last ? NULL : vrampool_slices_next(slice));
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_end);

/**
 * vrampool_slices_remove() - free a slice: its bytes join the holes around it
 * @s: the index
 * @slice: a slice of @s
 *
 * In O(log n).
 */
void vrampool_slices_remove(struct vrampool_slices *s, struct vrampool_slice *slice)
{
	struct vrampool_slice *next = slice == s->last ? NULL : vrampool_slices_next(slice);
	u64 freed = slice->gap + slice_end(s, next) - slice->offset;
	struct rb_node *prev;

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
}
EXPORT_SYMBOL_IF_KUNIT(vrampool_slices_remove);

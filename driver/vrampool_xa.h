/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_XA_H_
#define _VRAMPOOL_XA_H_

#include <linux/minmax.h>
#include <linux/xarray.h>

/**
 * vrampool_xa_alloc_next() - cyclic ID allocation that wraps only when full
 * @xa: an allocating xarray
 * @id: the ID taken
 * @entry: what to store there (NULL reserves the slot)
 * @limit: the range of IDs
 * @next: where the search starts; set past @id on success
 * @gfp: the allocation flags
 *
 * Like xa_alloc_cyclic(), but the search starts again from @limit.min only
 * when every ID from @next up is taken (-EBUSY). xa_alloc_cyclic() also does
 * so when the search from @next fails for want of memory, and then hands
 * out the lowest free ID (one just freed, maybe) instead of failing.
 *
 * Context: takes the xarray's lock; may sleep if @gfp allows.
 * Return: 0, -ENOMEM, or -EBUSY when no ID in @limit is free.
 */
static inline int vrampool_xa_alloc_next(struct xarray *xa, u32 *id, void *entry,
					 struct xa_limit limit, u32 *next, gfp_t gfp)
{
	struct xa_limit from = XA_LIMIT(max(limit.min, *next), limit.max);
	int ret = -EBUSY;

	if (from.min <= from.max)
		ret = xa_alloc(xa, id, entry, from, gfp);
	if (ret == -EBUSY)
		ret = xa_alloc(xa, id, entry, limit, gfp);
	if (!ret)
		*next = *id + 1;
	return ret;
}

#endif /* _VRAMPOOL_XA_H_ */

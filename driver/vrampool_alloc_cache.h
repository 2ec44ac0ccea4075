/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_ALLOC_CACHE_H_
#define _VRAMPOOL_ALLOC_CACHE_H_

struct vrampool_alloc;

int vrampool_alloc_cache_create(void);
void vrampool_alloc_cache_destroy(void);
struct vrampool_alloc *vrampool_alloc_record_new(void);
void vrampool_alloc_record_free(struct vrampool_alloc *a);

#endif /* _VRAMPOOL_ALLOC_CACHE_H_ */

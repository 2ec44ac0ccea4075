// SPDX-License-Identifier: GPL-2.0-only
/* The min-heap's plain names are its inline functions (6.12). */
#include <linux/build_bug.h>
#include <linux/min_heap.h>

typedef void (*vrampool_probe_fn)(struct min_heap_char *heap, size_t elem_size,
				  const struct min_heap_callbacks *func, void *args);

static_assert(__same_type(&__min_heapify_all, vrampool_probe_fn), "__min_heapify_all()");

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inline min-heap is named *_inline, the plain names calling
 * lib/min_heap.c, which only a kernel that selects CONFIG_MIN_HEAP builds (7.3).
 */
#include <linux/build_bug.h>
#include <linux/min_heap.h>

typedef void (*vrampool_probe_fn)(struct min_heap_char *heap, size_t elem_size,
				  const struct min_heap_callbacks *func, void *args);

static_assert(__same_type(&__min_heapify_all_inline, vrampool_probe_fn),
	      "__min_heapify_all_inline()");

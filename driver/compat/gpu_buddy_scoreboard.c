// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct gpu_buddy counts its free blocks per order (7.3). The series that
 * added the count began with "gpu/buddy: Fix use-after-free in
 * split_block() call sites": a kernel with the count survives a block split
 * that gets no memory (see vrampool_compat.h).
 */
#include <linux/build_bug.h>
#include <linux/gpu_buddy.h>

static_assert(__same_type(((struct gpu_buddy *)0)->free_scoreboard, u64 *),
	      "gpu_buddy.free_scoreboard");

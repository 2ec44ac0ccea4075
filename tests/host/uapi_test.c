// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vrampool uapi header: struct layouts (checked at compile time by
 * uapi_layout.h), ioctl numbers, parameter values, error codes, field ids
 * and the other constant sets, and the flag masks.
 *
 * The Makefile also compiles the header alone as C (c99, c11, gnu11) and
 * C++ with -pedantic -Werror, and uapi_layout.h for i386 when it can.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stddef.h>
#include <stdint.h>

#include "host_harness.h"
#include "uapi_layout.h"

struct uapi_ioctl {
	const char *name;
	unsigned long cmd;
	size_t arg_size;	/* sizeof the argument struct */
	unsigned int dir;	/* _IOC_READ / _IOC_WRITE */
};

#define UAPI_IOCTL(ioctl, type, direction) \
	{ #ioctl, DRM_IOCTL_VRAMPOOL_##ioctl, sizeof(type), direction }

/* Every ioctl of the uapi: add new ones here. */
static const struct uapi_ioctl uapi_ioctls[] = {
	UAPI_IOCTL(GET_PARAM, struct drm_vrampool_get_param, _IOC_READ | _IOC_WRITE),
	UAPI_IOCTL(POOL_INSTALL, struct drm_vrampool_pool_install, _IOC_READ | _IOC_WRITE),
	UAPI_IOCTL(POOL_QUERY, struct drm_vrampool_pool_query, _IOC_READ | _IOC_WRITE),
	UAPI_IOCTL(ALLOC, struct drm_vrampool_alloc, _IOC_READ | _IOC_WRITE),
	UAPI_IOCTL(FREE, struct drm_vrampool_free, _IOC_WRITE),
	UAPI_IOCTL(CLEANUP, struct drm_vrampool_cleanup, _IOC_WRITE),
	UAPI_IOCTL(SET_PERSISTENT_MODE, struct drm_vrampool_persistent_mode,
		   _IOC_READ | _IOC_WRITE),
	UAPI_IOCTL(ALLOC_BATCH, struct drm_vrampool_alloc_batch, _IOC_READ | _IOC_WRITE),
	UAPI_IOCTL(FREE_BATCH, struct drm_vrampool_free_batch, _IOC_READ | _IOC_WRITE),
};

#define NUM_IOCTLS (sizeof(uapi_ioctls) / sizeof(uapi_ioctls[0]))

/* Every GET_PARAM parameter: add new ones here. */
static const uint32_t uapi_params[] = {
	DRM_VRAMPOOL_PARAM_VRAM_SIZE,
	DRM_VRAMPOOL_PARAM_VRAM_IN_USE,
	DRM_VRAMPOOL_PARAM_ALIGNMENT,
	DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE,
	DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY,
	DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS,
	DRM_VRAMPOOL_PARAM_PERSISTENT_POOL,
	DRM_VRAMPOOL_PARAM_ABI_VERSION,
};

#define NUM_PARAMS (sizeof(uapi_params) / sizeof(uapi_params[0]))

TEST(ioctls_in_driver_range)
{
	size_t i;

	for (i = 0; i < NUM_IOCTLS; i++) {
		const struct uapi_ioctl *io = &uapi_ioctls[i];

		EXPECT_EQ((unsigned long)DRM_IOCTL_BASE, _IOC_TYPE(io->cmd)) {
			TH_LOG("%s: type %#lx", io->name, (unsigned long)_IOC_TYPE(io->cmd));
		}
		EXPECT_LE((unsigned long)DRM_COMMAND_BASE, _IOC_NR(io->cmd)) {
			TH_LOG("%s: nr %#lx below DRM_COMMAND_BASE", io->name,
			       (unsigned long)_IOC_NR(io->cmd));
		}
		EXPECT_GT((unsigned long)DRM_COMMAND_END, _IOC_NR(io->cmd)) {
			TH_LOG("%s: nr %#lx at or past DRM_COMMAND_END", io->name,
			       (unsigned long)_IOC_NR(io->cmd));
		}
	}
}

TEST(ioctls_distinct)
{
	size_t i, j;

	for (i = 0; i < NUM_IOCTLS; i++) {
		for (j = i + 1; j < NUM_IOCTLS; j++) {
			EXPECT_NE(_IOC_NR(uapi_ioctls[i].cmd), _IOC_NR(uapi_ioctls[j].cmd)) {
				TH_LOG("%s and %s share nr %#lx", uapi_ioctls[i].name,
				       uapi_ioctls[j].name,
				       (unsigned long)_IOC_NR(uapi_ioctls[i].cmd));
			}
			EXPECT_NE(uapi_ioctls[i].cmd, uapi_ioctls[j].cmd) {
				TH_LOG("%s and %s are the same ioctl", uapi_ioctls[i].name,
				       uapi_ioctls[j].name);
			}
		}
	}
}

/* The size and direction encoded in the number match the struct. */
TEST(ioctls_encode_their_struct)
{
	size_t i;

	for (i = 0; i < NUM_IOCTLS; i++) {
		const struct uapi_ioctl *io = &uapi_ioctls[i];

		EXPECT_EQ((unsigned long)io->arg_size, (unsigned long)_IOC_SIZE(io->cmd)) {
			TH_LOG("%s: encoded size %lu, struct %zu", io->name,
			       (unsigned long)_IOC_SIZE(io->cmd), io->arg_size);
		}
		EXPECT_EQ(io->dir, (unsigned int)_IOC_DIR(io->cmd)) TH_LOG("%s", io->name);
		EXPECT_EQ(0UL, (unsigned long)(io->arg_size % 8)) TH_LOG("%s", io->name);
	}
}

/* The driver-private number is the offset from DRM_COMMAND_BASE. */
TEST(ioctl_numbers_match_defines)
{
	static const struct {
		const char *name;
		unsigned long cmd;
		unsigned int nr;
	} nrs[] = {
		{ "GET_PARAM", DRM_IOCTL_VRAMPOOL_GET_PARAM, DRM_VRAMPOOL_GET_PARAM },
		{ "POOL_INSTALL", DRM_IOCTL_VRAMPOOL_POOL_INSTALL, DRM_VRAMPOOL_POOL_INSTALL },
		{ "POOL_QUERY", DRM_IOCTL_VRAMPOOL_POOL_QUERY, DRM_VRAMPOOL_POOL_QUERY },
		{ "ALLOC", DRM_IOCTL_VRAMPOOL_ALLOC, DRM_VRAMPOOL_ALLOC },
		{ "FREE", DRM_IOCTL_VRAMPOOL_FREE, DRM_VRAMPOOL_FREE },
		{ "CLEANUP", DRM_IOCTL_VRAMPOOL_CLEANUP, DRM_VRAMPOOL_CLEANUP },
		{ "SET_PERSISTENT_MODE", DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE,
		  DRM_VRAMPOOL_SET_PERSISTENT_MODE },
		{ "ALLOC_BATCH", DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, DRM_VRAMPOOL_ALLOC_BATCH },
		{ "FREE_BATCH", DRM_IOCTL_VRAMPOOL_FREE_BATCH, DRM_VRAMPOOL_FREE_BATCH },
	};
	size_t i;

	ASSERT_EQ(NUM_IOCTLS, sizeof(nrs) / sizeof(nrs[0]));
	for (i = 0; i < NUM_IOCTLS; i++) {
		EXPECT_EQ((unsigned long)(DRM_COMMAND_BASE + nrs[i].nr),
			  (unsigned long)_IOC_NR(nrs[i].cmd)) TH_LOG("%s", nrs[i].name);
		/* Numbered 0..N-1 in the order they were added. */
		EXPECT_EQ((unsigned int)i, nrs[i].nr) TH_LOG("%s", nrs[i].name);
		EXPECT_EQ(nrs[i].cmd, uapi_ioctls[i].cmd) TH_LOG("%s", nrs[i].name);
	}
}

TEST(params_distinct)
{
	size_t i, j;

	for (i = 0; i < NUM_PARAMS; i++) {
		for (j = i + 1; j < NUM_PARAMS; j++) {
			EXPECT_NE(uapi_params[i], uapi_params[j]) {
				TH_LOG("parameters %zu and %zu share value %u", i, j,
				       uapi_params[i]);
			}
		}
	}
}

/* Parameters are numbered 0..N-1 with no holes (the selftests rely on it). */
TEST(params_dense)
{
	bool seen[NUM_PARAMS] = { false };
	size_t i;

	for (i = 0; i < NUM_PARAMS; i++) {
		ASSERT_GT((uint32_t)NUM_PARAMS, uapi_params[i]) {
			TH_LOG("parameter %u leaves a hole", uapi_params[i]);
		}
		seen[uapi_params[i]] = true;
	}
	for (i = 0; i < NUM_PARAMS; i++) {
		EXPECT_TRUE(seen[i]) TH_LOG("no parameter %zu", i);
	}
}

/* A set of constants that must be distinct, and dense from @first. */
struct uapi_set {
	const char *name;
	const uint32_t *values;
	size_t count;
	uint32_t first;
};

#define UAPI_SET(name, first, ...) \
	{ name, (const uint32_t[]){ __VA_ARGS__ }, \
	  sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), first }

static const struct uapi_set uapi_sets[] = {
	UAPI_SET("error codes", 0,
		 DRM_VRAMPOOL_ERR_NONE, DRM_VRAMPOOL_ERR_EMPTY_POOL_LIST,
		 DRM_VRAMPOOL_ERR_ZERO_SIZE, DRM_VRAMPOOL_ERR_SLICE_LARGER_THAN_PAGE,
		 DRM_VRAMPOOL_ERR_CAP_SMALLER_THAN_PAGE, DRM_VRAMPOOL_ERR_TOO_MANY_PAGES,
		 DRM_VRAMPOOL_ERR_TOO_MANY_POOLS, DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE,
		 DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE, DRM_VRAMPOOL_ERR_SIZE_OVERFLOW,
		 DRM_VRAMPOOL_ERR_POOLS_IN_USE, DRM_VRAMPOOL_ERR_INVALID_ARGUMENT,
		 DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG,
		 DRM_VRAMPOOL_ERR_OUT_OF_MEMORY, DRM_VRAMPOOL_ERR_NOT_FOUND,
		 DRM_VRAMPOOL_ERR_CLIENT_LIMIT, DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED,
		 DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE),
	UAPI_SET("client limits", 1,
		 DRM_VRAMPOOL_LIMIT_ALLOCATIONS, DRM_VRAMPOOL_LIMIT_PAGES),
	UAPI_SET("field ids", 0,
		 DRM_VRAMPOOL_FIELD_NONE, DRM_VRAMPOOL_FIELD_PAGE_SIZE,
		 DRM_VRAMPOOL_FIELD_MAX_SLICE_SIZE, DRM_VRAMPOOL_FIELD_MAX_POOL_SIZE,
		 DRM_VRAMPOOL_FIELD_MAX_ALLOC_SIZE, DRM_VRAMPOOL_FIELD_DEALLOC_PERIOD,
		 DRM_VRAMPOOL_FIELD_RECLAIM_AT, DRM_VRAMPOOL_FIELD_TYPE,
		 DRM_VRAMPOOL_FIELD_ENTRY_FLAGS, DRM_VRAMPOOL_FIELD_ENTRY_RESERVED,
		 DRM_VRAMPOOL_FIELD_FLAGS, DRM_VRAMPOOL_FIELD_PRESET, DRM_VRAMPOOL_FIELD_ENTRIES,
		 DRM_VRAMPOOL_FIELD_COUNT, DRM_VRAMPOOL_FIELD_ENTRY_SIZE, DRM_VRAMPOOL_FIELD_PAD,
		 DRM_VRAMPOOL_FIELD_RESERVED),
	UAPI_SET("pool types", 1,
		 DRM_VRAMPOOL_POOL_EXCLUSIVE, DRM_VRAMPOOL_POOL_SLICED, DRM_VRAMPOOL_POOL_DIRECT,
		 DRM_VRAMPOOL_POOL_PERSISTENT),
	UAPI_SET("presets", 0,
		 DRM_VRAMPOOL_PRESET_NONE, DRM_VRAMPOOL_PRESET_SUB_SLICES,
		 DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES),
	UAPI_SET("persistent modes", 0,
		 DRM_VRAMPOOL_PERSISTENT_ENABLED, DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH,
		 DRM_VRAMPOOL_PERSISTENT_DISABLED, DRM_VRAMPOOL_PERSISTENT_ENFORCED),
};

/* Error codes, field ids, pool types, presets, modes: distinct and dense. */
TEST(constants_distinct_and_dense)
{
	size_t s, i, j;

	for (s = 0; s < sizeof(uapi_sets) / sizeof(uapi_sets[0]); s++) {
		const struct uapi_set *set = &uapi_sets[s];

		for (i = 0; i < set->count; i++) {
			for (j = i + 1; j < set->count; j++)
				EXPECT_NE(set->values[i], set->values[j])
					TH_LOG("%s: #%zu and #%zu are both %u", set->name, i, j,
					       set->values[i]);
			EXPECT_EQ(set->first + (uint32_t)i, set->values[i])
				TH_LOG("%s: #%zu is %u", set->name, i, set->values[i]);
		}
	}
}

/* Entry flags: distinct single bits whose OR is the mask, as is each mask. */
TEST(flag_masks)
{
	static const uint32_t entry_flags[] = {
		DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
		DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, DRM_VRAMPOOL_ENTRY_RECLAIM_AT,
	};
	uint32_t all = 0;
	size_t i;

	for (i = 0; i < sizeof(entry_flags) / sizeof(entry_flags[0]); i++) {
		EXPECT_NE(0U, entry_flags[i]);
		EXPECT_EQ(0U, entry_flags[i] & (entry_flags[i] - 1)) TH_LOG("flag %#x", entry_flags[i]);
		EXPECT_EQ(0U, all & entry_flags[i]) TH_LOG("flag %#x overlaps", entry_flags[i]);
		all |= entry_flags[i];
	}
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ENTRY_FLAGS, all);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_INSTALL_TEST_ONLY, (uint32_t)DRM_VRAMPOOL_INSTALL_FLAGS);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ALLOC_PERSISTENT, (uint32_t)DRM_VRAMPOOL_ALLOC_FLAGS);
}

/* Every ioctl struct is padded to 64 bits (also asserted in uapi_layout.h). */
TEST(struct_sizes)
{
	static const struct {
		const char *name;
		size_t size, want;
	} sizes[] = {
		{ "get_param", sizeof(struct drm_vrampool_get_param), 24 },
		{ "pool_entry", sizeof(struct drm_vrampool_pool_entry), 64 },
		{ "layout_error", sizeof(struct drm_vrampool_layout_error), 32 },
		{ "pool_install", sizeof(struct drm_vrampool_pool_install), 88 },
		{ "pool_status", sizeof(struct drm_vrampool_pool_status), 144 },
		{ "pool_query", sizeof(struct drm_vrampool_pool_query), 64 },
		{ "alloc_error", sizeof(struct drm_vrampool_alloc_error), 32 },
		{ "alloc", sizeof(struct drm_vrampool_alloc), 112 },
		{ "free", sizeof(struct drm_vrampool_free), 16 },
		{ "cleanup", sizeof(struct drm_vrampool_cleanup), 16 },
		{ "persistent_mode", sizeof(struct drm_vrampool_persistent_mode), 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EXPECT_EQ(sizes[i].want, sizes[i].size) TH_LOG("%s", sizes[i].name);
		EXPECT_EQ(0UL, (unsigned long)(sizes[i].size % 8)) TH_LOG("%s", sizes[i].name);
	}
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vrampool uapi header: struct layouts (checked at compile time by
 * uapi_layout.h), ioctl numbers and parameter values.
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
	EXPECT_EQ((unsigned long)(DRM_COMMAND_BASE + DRM_VRAMPOOL_GET_PARAM),
		  (unsigned long)_IOC_NR(DRM_IOCTL_VRAMPOOL_GET_PARAM));
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

TEST_HARNESS_MAIN

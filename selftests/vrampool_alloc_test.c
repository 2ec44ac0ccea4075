// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation: ALLOC, FREE, CLEANUP, the pools that serve them, CPU mappings
 * and ownership.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm/vrampool_accel.h>

/* The harness's TEST_F() wrapper trips -Wclobbered at -O2 here. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "vrampool_harness.h"
#include "vrampool_test_lib.h"

static int do_alloc(int fd, uint64_t size, uint32_t flags, struct drm_vrampool_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->size = size;
	a->flags = flags;
	return ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, a) ? -errno : 0;
}

static int do_free(int fd, uint32_t handle)
{
	struct drm_vrampool_free f = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE, &f) ? -errno : 0;
}

static int install(int fd, const struct drm_vrampool_pool_entry *e, uint32_t n,
		   struct drm_vrampool_pool_install *args)
{
	memset(args, 0, sizeof(*args));
	args->entries = (uintptr_t)e;
	args->count = n;
	args->entry_size = sizeof(*e);
	return ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, args) ? -errno : 0;
}

FIXTURE(alloc) {
	int fd;
	uint64_t vram_start;
};

FIXTURE_VARIANT(alloc) {
	enum vp_backend backend;
};

FIXTURE_VARIANT_ADD(alloc, platform) { .backend = VP_BACKEND_PLATFORM };
FIXTURE_VARIANT_ADD(alloc, pci) { .backend = VP_BACKEND_PCI };

FIXTURE_SETUP(alloc)
{
	struct vp_device dev;

	ASSERT_EQ(0, vp_find_backend(variant->backend, &dev));
	self->fd = vp_open_device(&dev);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
}

FIXTURE_TEARDOWN(alloc)
{
	close(self->fd);
}

/* The smoke path: allocate, map, write, read back, free. */
TEST_F(alloc, map_write_read_free)
{
	struct drm_vrampool_alloc a;
	uint64_t in_use;
	char *p;

	ASSERT_EQ(0, do_alloc(self->fd, 1000, 0, &a));
	EXPECT_NE(0u, a.handle);
	EXPECT_NE(0u, a.mmap_offset);
	EXPECT_EQ(24u, a.padding);	/* 1000 aligned up to 256 */
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &in_use));
	EXPECT_LT(self->vram_start, in_use);

	p = mmap(NULL, a.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (int i = 0; i < 1000; i++)
		EXPECT_EQ(0, p[a.offset + i]);
	memset(p + a.offset, 0x5a, 1000);
	EXPECT_EQ(0x5a, p[a.offset + 999]);
	munmap(p, a.page_size);

	EXPECT_EQ(0, do_free(self->fd, a.handle));
	EXPECT_EQ(-ENOENT, do_free(self->fd, a.handle));
}

/* A capped sliced pool (page 1024, cap 2048) refuses the third 1024. */
TEST_F(alloc, capped_pool_capacity)
{
	struct drm_vrampool_pool_entry e = {
		.type = DRM_VRAMPOOL_POOL_SLICED,
		.flags = DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
		.page_size = 1024, .max_pool_size = 2048,
	};
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_alloc a, b, c;

	ASSERT_EQ(0, install(self->fd, &e, 1, &ins));
	ASSERT_EQ(0, do_alloc(self->fd, 1024, 0, &a));
	ASSERT_EQ(0, do_alloc(self->fd, 1024, 0, &b));
	EXPECT_EQ(-ENOSPC, do_alloc(self->fd, 1024, 0, &c));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOL_CAPACITY_EXCEEDED, c.error.code);
	EXPECT_EQ(2048u, c.error.capacity);
	EXPECT_EQ(2048u, c.error.in_use);
	EXPECT_EQ(1024u, c.error.size);

	/* Installing while allocations live: EBUSY with the live bytes. */
	EXPECT_EQ(-EBUSY, install(self->fd, &e, 1, &ins));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_POOLS_IN_USE, ins.error.code);
	EXPECT_EQ(2048u, ins.error.value[0]);
	EXPECT_EQ(0, do_free(self->fd, a.handle));
	EXPECT_EQ(0, do_free(self->fd, b.handle));
	EXPECT_EQ(0, install(self->fd, &e, 1, &ins));
}

TEST_F(alloc, persistent_survives_install)
{
	struct drm_vrampool_pool_entry e = { .type = DRM_VRAMPOOL_POOL_DIRECT };
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_alloc w;
	char *p;

	ASSERT_EQ(0, do_alloc(self->fd, 8192, DRM_VRAMPOOL_ALLOC_PERSISTENT, &w));
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, w.pool);
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, w.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0x77, 8192);
	ASSERT_EQ(0, install(self->fd, &e, 1, &ins));
	EXPECT_EQ(0x77, p[8191]);
	munmap(p, 8192);
	EXPECT_EQ(0, do_free(self->fd, w.handle));
}

TEST_HARNESS_MAIN

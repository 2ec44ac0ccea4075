// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool device discovery: the expected devices exist, their nodes work,
 * and every GET_PARAM property matches the module parameters, the PCI BAR
 * size and the uapi constants.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

FIXTURE(devices) {
	struct vp_device devs[VP_MAX_DEVICES];
	int fds[VP_MAX_DEVICES];
	int n;
};

FIXTURE_SETUP(devices)
{
	self->n = vp_setup_open_all(_metadata, VP_BACKEND_ANY, self->devs, self->fds);
}

FIXTURE_TEARDOWN(devices)
{
	vp_teardown_close_all(self->fds);
}

/* Expected VRAM size of @dev: vram_size for emulated, BAR2 for PCI. */
static int expected_vram_size(const struct vp_device *dev, uint64_t *size)
{
	if (dev->backend == VP_BACKEND_PCI)
		return vp_pci_bar_size(dev->name, 2, size);
	return vp_module_param_u64("vram_size", size);
}

TEST_F(devices, one_platform_and_pci)
{
	uint64_t emulated;
	int platform = 0, pci = 0, i, ret;

	ret = vp_module_param_u64("emulated_devices", &emulated);
	ASSERT_EQ(0, ret) TH_LOG("emulated_devices: %s", strerror(-ret));

	for (i = 0; i < self->n; i++) {
		const struct vp_device *d = &self->devs[i];

		TH_LOG("%s: %s device %s", d->path, d->backend_name, d->name);
		ASSERT_NE((int)VP_BACKEND_UNKNOWN, (int)d->backend) {
			TH_LOG("%s: unexpected bus '%s'", d->name, d->backend_name);
		}
		if (d->backend == VP_BACKEND_PLATFORM)
			platform++;
		else
			pci++;
	}
	EXPECT_EQ(emulated, (uint64_t)platform) {
		TH_LOG("emulated_devices=%llu but %d platform devices",
		       (unsigned long long)emulated, platform);
	}
	/* The VM loads the module with one emulated device by default. */
	EXPECT_LE(1, platform) TH_LOG("no emulated (platform) device");
	EXPECT_LE(1, pci) TH_LOG("no ivshmem PCI device is bound to vrampool");
}

TEST_F(devices, platform_names)
{
	bool seen[VP_MAX_DEVICES] = { false };
	int i;

	for (i = 0; i < self->n; i++) {
		const struct vp_device *d = &self->devs[i];
		unsigned int id;
		char tail;

		if (d->backend != VP_BACKEND_PLATFORM)
			continue;
		ASSERT_EQ(1, sscanf(d->name, VP_DRIVER_NAME ".%u%c", &id, &tail)) {
			TH_LOG("platform device name '%s' is not "
			       VP_DRIVER_NAME ".<id>", d->name);
		}
		ASSERT_GT((unsigned int)VP_MAX_DEVICES, id) TH_LOG("%s: id too large", d->name);
		ASSERT_FALSE(seen[id]) TH_LOG("%s appears twice", d->name);
		seen[id] = true;
	}
	/* The VM's only emulated device is the first one. */
	EXPECT_TRUE(seen[0]) TH_LOG("no " VP_DRIVER_NAME ".0");
}

TEST_F(devices, nodes_match_sysfs)
{
	int i;

	for (i = 0; i < self->n; i++) {
		const struct vp_device *d = &self->devs[i];
		unsigned int major, minor;
		char path[PATH_MAX], buf[32];
		struct stat st;
		int ret;

		ASSERT_EQ(0, stat(d->path, &st)) TH_LOG("%s: %s", d->path, strerror(errno));
		ASSERT_TRUE(S_ISCHR(st.st_mode)) TH_LOG("%s is not a char device", d->path);

		snprintf(path, sizeof(path), "%s/dev", d->sysfs);
		ret = vp_read_file(path, buf, sizeof(buf));
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", path, strerror(-ret));
		ASSERT_EQ(2, sscanf(buf, "%u:%u", &major, &minor)) TH_LOG("%s: '%s'", path, buf);
		EXPECT_EQ(major, major(st.st_rdev)) TH_LOG("%s major", d->path);
		EXPECT_EQ(minor, minor(st.st_rdev)) TH_LOG("%s minor", d->path);
		EXPECT_EQ((unsigned int)d->minor, minor) TH_LOG("%s minor", d->path);
	}
}

TEST_F(devices, drm_version_name)
{
	int i;

	for (i = 0; i < self->n; i++) {
		struct drm_version v;
		char name[64];

		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		ASSERT_EQ(0, ioctl(self->fds[i], DRM_IOCTL_VERSION, &v)) {
			TH_LOG("%s: DRM_IOCTL_VERSION: %s", self->devs[i].name,
			       strerror(errno));
		}
		EXPECT_STREQ(VP_DRIVER_NAME, name) TH_LOG("%s", self->devs[i].name);
	}
}

TEST_F(devices, vram_size)
{
	int i;

	for (i = 0; i < self->n; i++) {
		const struct vp_device *d = &self->devs[i];
		uint64_t want = 0, got = 0;
		int ret;

		ret = expected_vram_size(d, &want);
		ASSERT_EQ(0, ret) TH_LOG("%s: expected size: %s", d->name, strerror(-ret));
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_VRAM_SIZE, &got);
		ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_SIZE: %s", d->name, strerror(-ret));
		EXPECT_EQ(want, got) {
			TH_LOG("%s (%s): VRAM_SIZE %llu, expected %llu", d->name,
			       d->backend_name, (unsigned long long)got,
			       (unsigned long long)want);
		}
		EXPECT_NE(0ULL, (unsigned long long)got) TH_LOG("%s", d->name);
	}
}

TEST_F(devices, pci_vram_is_bar2)
{
	int i, pci = 0;

	for (i = 0; i < self->n; i++) {
		const struct vp_device *d = &self->devs[i];
		uint64_t bar = 0, got = 0;
		int ret;

		if (d->backend != VP_BACKEND_PCI)
			continue;
		pci++;
		ret = vp_pci_bar_size(d->name, 2, &bar);
		ASSERT_EQ(0, ret) TH_LOG("%s: BAR2: %s", d->name, strerror(-ret));
		/* The VRAM backend requires a power of two. */
		EXPECT_EQ(0ULL, (unsigned long long)(bar & (bar - 1))) {
			TH_LOG("%s: BAR2 size %llu", d->name, (unsigned long long)bar);
		}
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_VRAM_SIZE, &got);
		ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_SIZE: %s", d->name, strerror(-ret));
		EXPECT_EQ(bar, got) TH_LOG("%s", d->name);
	}
	ASSERT_LT(0, pci) TH_LOG("no PCI vrampool device");
}

TEST_F(devices, alignment)
{
	uint64_t param;
	int i, ret;

	ret = vp_module_param_u64("alignment", &param);
	ASSERT_EQ(0, ret) TH_LOG("alignment param: %s", strerror(-ret));

	for (i = 0; i < self->n; i++) {
		uint64_t got = 0;

		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_ALIGNMENT, &got);
		ASSERT_EQ(0, ret) TH_LOG("%s: ALIGNMENT: %s", self->devs[i].name, strerror(-ret));
		EXPECT_EQ(param, got) TH_LOG("%s", self->devs[i].name);
		EXPECT_NE(0ULL, (unsigned long long)got) TH_LOG("%s", self->devs[i].name);
		EXPECT_EQ(0ULL, (unsigned long long)(got & (got - 1))) {
			TH_LOG("%s: alignment %llu is not a power of two",
			       self->devs[i].name, (unsigned long long)got);
		}
	}
}

TEST_F(devices, max_page_size)
{
	uint64_t param;
	int i, ret;

	ret = vp_module_param_u64("max_page_size", &param);
	ASSERT_EQ(0, ret) TH_LOG("max_page_size param: %s", strerror(-ret));

	for (i = 0; i < self->n; i++) {
		const struct vp_device *d = &self->devs[i];
		uint64_t vram = 0, got = 0, want;

		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_VRAM_SIZE, &vram);
		ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_SIZE: %s", d->name, strerror(-ret));
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE, &got);
		ASSERT_EQ(0, ret) TH_LOG("%s: MAX_PAGE_SIZE: %s", d->name, strerror(-ret));
		want = param ? param : vram / 4;
		EXPECT_EQ(want, got) {
			TH_LOG("%s: MAX_PAGE_SIZE %llu, expected %llu (param %llu, VRAM %llu)",
			       d->name, (unsigned long long)got,
			       (unsigned long long)want, (unsigned long long)param,
			       (unsigned long long)vram);
		}
	}
}

TEST_F(devices, exclusive_memory_only)
{
	bool param;
	int i, ret;

	ret = vp_module_param_bool("exclusive_memory_only", &param);
	ASSERT_EQ(0, ret) TH_LOG("exclusive_memory_only param: %s", strerror(-ret));

	for (i = 0; i < self->n; i++) {
		uint64_t got = 42;

		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY, &got);
		ASSERT_EQ(0, ret) {
			TH_LOG("%s: EXCLUSIVE_MEMORY_ONLY: %s", self->devs[i].name,
			       strerror(-ret));
		}
		EXPECT_EQ((uint64_t)param, got) TH_LOG("%s", self->devs[i].name);
	}
}

TEST_F(devices, abi_constants)
{
	int i;

	for (i = 0; i < self->n; i++) {
		const char *name = self->devs[i].name;
		uint64_t v;
		int ret;

		v = 0;
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS, &v);
		ASSERT_EQ(0, ret) TH_LOG("%s: MAX_DYNAMIC_POOLS: %s", name, strerror(-ret));
		EXPECT_EQ((uint64_t)DRM_VRAMPOOL_MAX_DYNAMIC_POOLS, v) TH_LOG("%s", name);
		EXPECT_EQ((uint64_t)254, v) TH_LOG("%s", name);

		v = 0;
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_PERSISTENT_POOL, &v);
		ASSERT_EQ(0, ret) TH_LOG("%s: PERSISTENT_POOL: %s", name, strerror(-ret));
		EXPECT_EQ((uint64_t)DRM_VRAMPOOL_PERSISTENT_POOL, v) TH_LOG("%s", name);
		EXPECT_EQ((uint64_t)255, v) TH_LOG("%s", name);

		v = 0;
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_ABI_VERSION, &v);
		ASSERT_EQ(0, ret) TH_LOG("%s: ABI_VERSION: %s", name, strerror(-ret));
		EXPECT_EQ((uint64_t)DRM_VRAMPOOL_ABI_VERSION, v) TH_LOG("%s", name);
	}
}

TEST_F(devices, vram_in_use_zero_at_start)
{
	int i;

	for (i = 0; i < self->n; i++) {
		uint64_t v = ~0ULL;
		int ret;

		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &v);
		ASSERT_EQ(0, ret) {
			TH_LOG("%s: VRAM_IN_USE: %s", self->devs[i].name, strerror(-ret));
		}
		EXPECT_EQ((uint64_t)0, v) {
			TH_LOG("%s: %llu bytes of VRAM in use with no buffer object",
			       self->devs[i].name, (unsigned long long)v);
		}
	}
}

TEST_F(devices, debugfs_dirs)
{
	int i, ret;

	ret = vp_debugfs_ready();
	ASSERT_EQ(0, ret) TH_LOG("debugfs: %s", strerror(-ret));
	for (i = 0; i < self->n; i++) {
		char path[PATH_MAX];
		struct stat st;

		ret = vp_debugfs_dir(&self->devs[i], path, sizeof(path));
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_TRUE(S_ISDIR(st.st_mode)) TH_LOG("%s", path);
		ret = vp_debugfs_path(&self->devs[i], "test_bo_size", path, sizeof(path));
		ASSERT_EQ(0, ret);
		EXPECT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		ret = vp_debugfs_path(&self->devs[i], "test_bo", path, sizeof(path));
		ASSERT_EQ(0, ret);
		EXPECT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
	}
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_VRAMPOOL_GET_PARAM argument checking: unknown parameters,
 * must-be-zero fields, bad user pointers and unknown ioctl numbers each fail
 * with their exact errno, with otherwise valid input; every known parameter
 * succeeds on every device.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define NUM_KNOWN_PARAMS	(DRM_VRAMPOOL_PARAM_ABI_VERSION + 1)
#define VALUE_SENTINEL		0xdeadbeefcafef00dULL

FIXTURE(get_param) {
	struct vp_device devs[VP_MAX_DEVICES];
	int fds[VP_MAX_DEVICES];
	int n;
};

FIXTURE_SETUP(get_param)
{
	self->n = vp_setup_open_all(_metadata, VP_BACKEND_ANY, self->devs, self->fds);
}

FIXTURE_TEARDOWN(get_param)
{
	vp_teardown_close_all(self->fds);
}

/* Raw ioctl on a caller-filled struct: 0 or errno. */
static int raw_get_param(int fd, struct drm_vrampool_get_param *gp)
{
	return ioctl(fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, gp) ? errno : 0;
}

/* ioctl @cmd with @arg must fail with @err; @what (printf) says what was tried. */
static void __attribute__((format(printf, 6, 7)))
expect_refused(struct __test_metadata *_metadata, int fd, unsigned long cmd, void *arg, int err,
	       const char *what, ...)
{
	char buf[256];
	va_list ap;
	int ret, got;

	va_start(ap, what);
	vsnprintf(buf, sizeof(buf), what, ap);
	va_end(ap);
	errno = 0;
	ret = ioctl(fd, cmd, arg);
	got = errno;
	EXPECT_EQ(-1, ret) TH_LOG("%s: accepted", buf);
	EXPECT_EQ(err, got) TH_LOG("%s: errno %d (%s)", buf, got, strerror(got));
}

TEST_F(get_param, known_params_succeed)
{
	int i;
	__u32 p;

	for (i = 0; i < self->n; i++) {
		for (p = 0; p < NUM_KNOWN_PARAMS; p++) {
			struct drm_vrampool_get_param gp = {
				.param = p,
				.value = VALUE_SENTINEL,
			};

			ASSERT_EQ(0, raw_get_param(self->fds[i], &gp)) {
				TH_LOG("%s: param %u: %s", self->devs[i].name, p,
				       strerror(errno));
			}
			/* in fields come back as they went in */
			EXPECT_EQ(p, gp.param) TH_LOG("%s: param %u", self->devs[i].name, p);
			EXPECT_EQ(0U, gp.pad) TH_LOG("%s: param %u", self->devs[i].name, p);
			EXPECT_EQ(0ULL, gp.reserved) TH_LOG("%s: param %u", self->devs[i].name, p);
			/* Only VRAM_IN_USE and EXCLUSIVE_MEMORY_ONLY may be 0. */
			if (p != DRM_VRAMPOOL_PARAM_VRAM_IN_USE &&
			    p != DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY) {
				EXPECT_NE(0ULL, gp.value) {
					TH_LOG("%s: param %u is 0", self->devs[i].name, p);
				}
			}
			EXPECT_NE(VALUE_SENTINEL, gp.value) {
				TH_LOG("%s: param %u: value not written", self->devs[i].name, p);
			}
		}
	}
}

/* The input value of the [out] field is ignored. */
TEST_F(get_param, input_value_ignored)
{
	static const __u64 garbage[] = { 0, 1, VALUE_SENTINEL, ~0ULL };
	int i;
	__u32 p;
	size_t g;

	for (i = 0; i < self->n; i++) {
		for (p = 0; p < NUM_KNOWN_PARAMS; p++) {
			uint64_t clean = 0;
			int ret;

			/* VRAM_IN_USE can change under other clients; nothing else can. */
			if (p == DRM_VRAMPOOL_PARAM_VRAM_IN_USE)
				continue;
			ret = vp_get_param(self->fds[i], p, &clean);
			ASSERT_EQ(0, ret) TH_LOG("%s: param %u: %s", self->devs[i].name, p, strerror(-ret));
			for (g = 0; g < sizeof(garbage) / sizeof(garbage[0]); g++) {
				struct drm_vrampool_get_param gp = {
					.param = p,
					.value = garbage[g],
				};

				ASSERT_EQ(0, raw_get_param(self->fds[i], &gp)) {
					TH_LOG("%s: param %u value-in %#llx: %s",
					       self->devs[i].name, p,
					       (unsigned long long)garbage[g], strerror(errno));
				}
				EXPECT_EQ(clean, gp.value) {
					TH_LOG("%s: param %u value-in %#llx", self->devs[i].name,
					       p, (unsigned long long)garbage[g]);
				}
			}
		}
	}
}

TEST_F(get_param, unknown_param_einval)
{
	static const __u32 bad[] = {
		NUM_KNOWN_PARAMS, NUM_KNOWN_PARAMS + 1, 0x40, 0xff, 0x100,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};
	int i;
	size_t b;

	for (i = 0; i < self->n; i++) {
		for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			struct drm_vrampool_get_param gp = { .param = bad[b] };

			expect_refused(_metadata, self->fds[i], DRM_IOCTL_VRAMPOOL_GET_PARAM, &gp,
				       EINVAL, "%s: param %#x", self->devs[i].name, bad[b]);
		}
	}
}

TEST_F(get_param, nonzero_pad_einval)
{
	static const __u32 pads[] = { 1, 2, 0x100, 0x80000000, 0xffffffff };
	int i;
	size_t k;
	__u32 p;

	for (i = 0; i < self->n; i++) {
		for (p = 0; p < NUM_KNOWN_PARAMS; p++) {
			for (k = 0; k < sizeof(pads) / sizeof(pads[0]); k++) {
				struct drm_vrampool_get_param gp = {
					.param = p,
					.pad = pads[k],
				};

				expect_refused(_metadata, self->fds[i],
					       DRM_IOCTL_VRAMPOOL_GET_PARAM, &gp, EINVAL,
					       "%s: param %u with pad %#x", self->devs[i].name,
					       p, pads[k]);
			}
		}
	}
}

TEST_F(get_param, nonzero_reserved_einval)
{
	static const __u64 reserved[] = {
		1, 0x80, 1ULL << 32, 1ULL << 63, ~0ULL,
	};
	int i;
	size_t k;
	__u32 p;

	for (i = 0; i < self->n; i++) {
		for (p = 0; p < NUM_KNOWN_PARAMS; p++) {
			for (k = 0; k < sizeof(reserved) / sizeof(reserved[0]); k++) {
				struct drm_vrampool_get_param gp = {
					.param = p,
					.reserved = reserved[k],
				};

				expect_refused(_metadata, self->fds[i],
					       DRM_IOCTL_VRAMPOOL_GET_PARAM, &gp, EINVAL,
					       "%s: param %u with reserved %#llx",
					       self->devs[i].name, p,
					       (unsigned long long)reserved[k]);
			}
		}
	}
}

/* A failed call leaves the device usable and does not taint the next one. */
TEST_F(get_param, error_then_success)
{
	int i;

	for (i = 0; i < self->n; i++) {
		struct drm_vrampool_get_param bad = { .param = 0xffffffff };
		uint64_t abi = 0;
		int ret;

		ASSERT_EQ(EINVAL, raw_get_param(self->fds[i], &bad)) TH_LOG("%s", self->devs[i].name);
		ret = vp_get_param(self->fds[i], DRM_VRAMPOOL_PARAM_ABI_VERSION, &abi);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", self->devs[i].name, strerror(-ret));
		EXPECT_EQ((uint64_t)DRM_VRAMPOOL_ABI_VERSION, abi) TH_LOG("%s", self->devs[i].name);
	}
}

TEST_F(get_param, bad_pointer_efault)
{
	static void *const bad_ptrs[] = { NULL, (void *)8, (void *)-4096L };
	int i;
	size_t k;

	for (i = 0; i < self->n; i++) {
		for (k = 0; k < sizeof(bad_ptrs) / sizeof(bad_ptrs[0]); k++) {
			expect_refused(_metadata, self->fds[i], DRM_IOCTL_VRAMPOOL_GET_PARAM,
				       bad_ptrs[k], EFAULT, "%s: pointer %p",
				       self->devs[i].name, bad_ptrs[k]);
		}
	}
}

/* The struct is readable but not writable: the copy back fails. */
TEST_F(get_param, read_only_struct_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	struct drm_vrampool_get_param *gp;
	void *map;
	int i;

	/* A zero page reads as param 0 (VRAM_SIZE) with pad/reserved 0: valid. */
	map = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map) TH_LOG("mmap: %s", strerror(errno));
	gp = map;

	for (i = 0; i < self->n; i++) {
		expect_refused(_metadata, self->fds[i], DRM_IOCTL_VRAMPOOL_GET_PARAM, gp, EFAULT,
			       "%s: read-only struct", self->devs[i].name);
	}
	munmap(map, page);
}

/* The struct starts on a mapped page and runs into an unmapped one. */
TEST_F(get_param, struct_crossing_unmapped_page_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	struct drm_vrampool_get_param *gp;
	char *map;
	int i;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, (void *)map) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, munmap(map + page, page));
	/* param and pad are mapped, value and reserved are not */
	gp = (struct drm_vrampool_get_param *)(map + page - 8);
	gp->param = DRM_VRAMPOOL_PARAM_VRAM_SIZE;
	gp->pad = 0;

	for (i = 0; i < self->n; i++) {
		expect_refused(_metadata, self->fds[i], DRM_IOCTL_VRAMPOOL_GET_PARAM, gp, EFAULT,
			       "%s: half-mapped struct", self->devs[i].name);
	}
	munmap(map, page);
}

/*
 * A driver ioctl number beyond the driver's table: drm_ioctl() answers
 * -EINVAL (index >= num_ioctls). The last number of the driver range is used
 * so the test stays valid as ioctls are added from 0x00 up.
 */
TEST_F(get_param, unknown_driver_ioctl_einval)
{
	const unsigned long cmds[] = {
		DRM_IOWR(DRM_COMMAND_END - 1, struct drm_vrampool_get_param),
		DRM_IO(DRM_COMMAND_END - 1),
	};
	int i;
	size_t k;

	for (i = 0; i < self->n; i++) {
		for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
			struct drm_vrampool_get_param gp = { 0 };

			expect_refused(_metadata, self->fds[i], cmds[k], &gp, EINVAL,
				       "%s: ioctl %#lx", self->devs[i].name, cmds[k]);
		}
	}
}

/* Not a DRM ioctl at all (type other than 'd'): -ENOTTY. */
TEST_F(get_param, foreign_ioctl_type_enotty)
{
	const unsigned long cmd = _IOWR('x', DRM_COMMAND_BASE + DRM_VRAMPOOL_GET_PARAM,
					struct drm_vrampool_get_param);
	int i;

	for (i = 0; i < self->n; i++) {
		struct drm_vrampool_get_param gp = { 0 };

		expect_refused(_metadata, self->fds[i], cmd, &gp, ENOTTY, "%s: ioctl %#lx",
			       self->devs[i].name, cmd);
	}
}

/* The same parameter read through two clients of one device agrees. */
TEST_F(get_param, two_clients_agree)
{
	int i;
	__u32 p;

	for (i = 0; i < self->n; i++) {
		int fd2 = vp_open_device(&self->devs[i]);

		ASSERT_LE(0, fd2) TH_LOG("%s: %s", self->devs[i].path, strerror(-fd2));
		for (p = 0; p < NUM_KNOWN_PARAMS; p++) {
			uint64_t a = 1, b = 2;

			if (p == DRM_VRAMPOOL_PARAM_VRAM_IN_USE)
				continue;
			ASSERT_EQ(0, vp_get_param(self->fds[i], p, &a));
			ASSERT_EQ(0, vp_get_param(fd2, p, &b));
			EXPECT_EQ(a, b) TH_LOG("%s: param %u", self->devs[i].name, p);
		}
		close(fd2);
	}
}

TEST_HARNESS_MAIN

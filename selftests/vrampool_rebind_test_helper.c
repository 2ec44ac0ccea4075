// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a file whose device was unbound can still do: every vrampool ioctl
 * on it fails with ENODEV (and touches nothing), and so does opening the
 * device's old accel node again.
 *
 *   vrampool_rebind_test_helper alloc FD          (before the unbind)
 *   vrampool_rebind_test_helper check FD [NODE]   (after it)
 *
 * FD is an inherited descriptor of the device, open across the unbind.
 * "alloc" gives its file live allocations (a slice, an exclusive page and a
 * persistent buffer), which stay with the open file after this exits and
 * go when the script closes it, after the unbind. "check" runs every ioctl
 * on it; NODE, if given, is a character device node with the unbound
 * device's old major:minor, which must not open.
 * Prints one "#" line per check, for the calling script's TAP, and exits 1
 * if any check failed.
 *
 * Not a *_test: only vrampool_rebind_test.sh runs it, between an unbind
 * and the bind that follows.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_lib.h"

static int failed;

static void expect_enodev(const char *what, int ret)
{
	if (ret == -ENODEV) {
		printf("# unplugged: %s fails with ENODEV\n", what);
		return;
	}
	printf("# FAIL unplugged: %s gave %d (%s), not ENODEV\n", what, ret,
	       ret ? strerror(-ret) : "success");
	failed++;
}

static void check_ioctls(int fd)
{
	struct drm_vrampool_pool_install inst;
	struct drm_vrampool_pool_query q = {};
	struct drm_vrampool_alloc a;
	uint64_t v;

	expect_enodev("GET_PARAM", vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &v));
	vp_req_preset(&inst, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
	expect_enodev("POOL_INSTALL", vp_install(fd, &inst));
	expect_enodev("POOL_QUERY", vp_query(fd, &q));
	expect_enodev("ALLOC", vp_alloc(fd, 4096, 0, &a));
	expect_enodev("ALLOC persistent", vp_alloc(fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a));
	expect_enodev("FREE", vp_free(fd, 1));
	expect_enodev("CLEANUP", vp_cleanup(fd));
	expect_enodev("SET_PERSISTENT_MODE",
		      vp_set_persistent_mode(fd, DRM_VRAMPOOL_PERSISTENT_DISABLED, NULL));
}

static void check_open(const char *node)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	expect_enodev("open() of the old node", fd >= 0 ? 0 : -errno);
}

static int give_allocations(int fd)
{
	static const uint64_t sizes[] = { 1000, 0, 65536 };
	struct drm_vrampool_alloc a;
	unsigned int i;
	int ret;

	for (i = 0; i < 3; i++) {
		ret = vp_alloc(fd, sizes[i], i == 2 ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a);
		if (ret) {
			printf("# FAIL ALLOC of %llu before the unbind: %s\n",
			       (unsigned long long)sizes[i], strerror(-ret));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "alloc"))
		return give_allocations(atoi(argv[2]));
	if ((argc != 3 && argc != 4) || strcmp(argv[1], "check")) {
		fprintf(stderr, "usage: %s alloc FD | check FD [NODE]\n", argv[0]);
		return 2;
	}
	check_ioctls(atoi(argv[2]));
	if (argc == 4)
		check_open(argv[3]);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool_unbind_race_test_helper: open, use and close a device's accel
 * node in a loop while vrampool_unbind_race_test.sh unbinds and binds the
 * device. Run by that script only.
 *
 *   vrampool_unbind_race_test_helper SYSFS_DEVICE_DIR STOP_FILE
 *
 * Each round finds the device's node (<dir>/accel/accelN, the minor changes
 * with every bind), opens it, asks GET_PARAM, makes and frees a 4 KiB
 * allocation, and closes it, until STOP_FILE exists. A device that is
 * unbound (no node, an unplugged one) gives ENOENT, ENODEV or ENXIO from
 * open or the ioctls; any other error ends the loop with exit status 1.
 * Prints the rounds that went through, those that met the unbind, and how
 * many of those met it on a file opened before it (an ioctl refused): the
 * race the script requires to have happened.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_lib.h"

static bool gone(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -ENXIO;
}

/* The accel node's /dev path of @dir, or -ENOENT while unbound. */
static int node_of(const char *dir, char *path, size_t len)
{
	char accel[VP_PATH_LEN];
	struct dirent *de;
	DIR *d;

	snprintf(accel, sizeof(accel), "%s/accel", dir);
	d = opendir(accel);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "accel", 5)) {
			snprintf(path, len, "/dev/accel/%s", de->d_name);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -ENOENT;
}

enum round_end {
	ROUND_GONE,		/* unbound before open: no node, or open refused */
	ROUND_DONE,		/* every step went through */
	ROUND_UNPLUGGED,	/* an ioctl on the open file met the unbind */
};

/* One round: how it ended, or -errno on anything else. */
static int round_once(const char *dir, const char **what)
{
	struct drm_vrampool_alloc a;
	char path[VP_PATH_LEN];
	uint64_t v;
	int fd, ret;

	*what = "find the node";
	ret = node_of(dir, path, sizeof(path));
	if (ret)
		return gone(ret) ? ROUND_GONE : ret;
	*what = "open";
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return gone(-errno) ? ROUND_GONE : -errno;
	*what = "GET_PARAM";
	ret = vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &v);
	if (!ret) {
		*what = "ALLOC";
		ret = vp_alloc(fd, 4096, 0, &a);
		if (!ret) {
			*what = "FREE";
			ret = vp_free(fd, a.handle);
		}
	}
	close(fd);
	if (ret)
		return gone(ret) ? ROUND_UNPLUGGED : ret;
	return ROUND_DONE;
}

int main(int argc, char **argv)
{
	unsigned long done = 0, unbound = 0, unplugged = 0;
	const char *what;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SYSFS_DEVICE_DIR STOP_FILE\n", argv[0]);
		return 2;
	}
	while (access(argv[2], F_OK)) {
		ret = round_once(argv[1], &what);
		if (ret < 0) {
			printf("# %s: round %lu: %s: %s\n", argv[1], done + unbound, what,
			       strerror(-ret));
			return 1;
		}
		if (ret == ROUND_DONE) {
			done++;
		} else {
			unbound++;
			unplugged += ret == ROUND_UNPLUGGED;
			usleep(500);	/* leave the CPU to the bind */
		}
	}
	printf("# %s: %lu rounds through, %lu met the unbind, %lu of them on an open file\n",
	       argv[1], done, unbound, unplugged);
	return 0;
}

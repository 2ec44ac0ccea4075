// SPDX-License-Identifier: MIT
/*
 * libvrampool: finding devices and reading their properties.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/vrampool_accel.h>

#include "vrampool.h"
#include "vrampool_bus.h"

#define ACCEL_DIR "/dev/accel"
#define ACCEL_CLASS "/sys/class/accel"
#define MAX_NODES 256		/* accel minors */
#define NODE_NAME_MAX 16	/* "accel255" and its NUL, with room */

/* The basename of the link at @fmt (under sysfs), or -errno. */
static int link_basename(char *out, size_t len, const char *fmt, const char *node)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), fmt, node);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	snprintf(out, len, "%s", basename(target));
	return 0;
}

static int is_vrampool_node(const char *node)
{
	char driver[VRAMPOOL_NAME_MAX];

	if (link_basename(driver, sizeof(driver), ACCEL_CLASS "/%s/device/driver", node))
		return 0;
	return strcmp(driver, "vrampool") == 0;
}

static int minor_of(const char *node)
{
	return atoi(node + strlen("accel"));
}

static int by_minor(const void *a, const void *b)
{
	return minor_of(a) - minor_of(b);
}

int vrampool_list_devices(char (*paths)[VRAMPOOL_NAME_MAX], int max)
{
	char nodes[MAX_NODES][NODE_NAME_MAX];
	struct dirent *de;
	int count = 0, i;
	DIR *dir;

	dir = opendir(ACCEL_CLASS);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;

	while ((de = readdir(dir)) && count < MAX_NODES) {
		if (strncmp(de->d_name, "accel", 5) || strlen(de->d_name) >= NODE_NAME_MAX ||
		    !is_vrampool_node(de->d_name))
			continue;
		memcpy(nodes[count++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(dir);

	qsort(nodes, count, sizeof(nodes[0]), by_minor);
	for (i = 0; i < count && i < max; i++)
		snprintf(paths[i], VRAMPOOL_NAME_MAX, ACCEL_DIR "/%.15s", nodes[i]);
	return count;
}

int vrampool_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int vrampool_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vrampool_get_param args = { .param = param };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, &args))
		return -errno;
	*value = args.value;
	return 0;
}

enum vrampool_backend vrampool_backend_of_bus(const char *bus)
{
	if (!strcmp(bus, "platform"))
		return VRAMPOOL_BACKEND_EMULATED;
	if (!strcmp(bus, "pci"))
		return VRAMPOOL_BACKEND_PCI_BAR;
	return VRAMPOOL_BACKEND_UNKNOWN;
}

/* The backend of the accel node @node, from its bus. */
static enum vrampool_backend node_backend(const char *node)
{
	char bus[VRAMPOOL_NAME_MAX];

	if (link_basename(bus, sizeof(bus), ACCEL_CLASS "/%s/device/subsystem", node))
		return VRAMPOOL_BACKEND_UNKNOWN;
	return vrampool_backend_of_bus(bus);
}

int vrampool_device_info(int fd, const char *path, struct vrampool_device_info *info)
{
	enum { SIZE, IN_USE, ALIGN, MAX_PAGE, EXCL, MAX_POOLS, PERSISTENT, ABI, NPARAMS };
	static const uint32_t params[NPARAMS] = {
		[SIZE] = DRM_VRAMPOOL_PARAM_VRAM_SIZE,
		[IN_USE] = DRM_VRAMPOOL_PARAM_VRAM_IN_USE,
		[ALIGN] = DRM_VRAMPOOL_PARAM_ALIGNMENT,
		[MAX_PAGE] = DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE,
		[EXCL] = DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY,
		[MAX_POOLS] = DRM_VRAMPOOL_PARAM_MAX_DYNAMIC_POOLS,
		[PERSISTENT] = DRM_VRAMPOOL_PARAM_PERSISTENT_POOL,
		[ABI] = DRM_VRAMPOOL_PARAM_ABI_VERSION,
	};
	char pathcopy[VRAMPOOL_NAME_MAX];
	uint64_t v[NPARAMS];
	const char *node;
	int i, ret;

	for (i = 0; i < NPARAMS; i++) {
		ret = vrampool_get_param(fd, params[i], &v[i]);
		if (ret)
			return ret;
	}

	memset(info, 0, sizeof(*info));
	snprintf(info->path, sizeof(info->path), "%s", path);
	info->vram_size = v[SIZE];
	info->vram_in_use = v[IN_USE];
	info->alignment = v[ALIGN];
	info->max_page_size = v[MAX_PAGE];
	info->exclusive_memory_only = v[EXCL] != 0;
	info->max_dynamic_pools = (uint32_t)v[MAX_POOLS];
	info->persistent_pool = (uint32_t)v[PERSISTENT];
	info->abi_version = (uint32_t)v[ABI];

	snprintf(pathcopy, sizeof(pathcopy), "%s", path);
	node = basename(pathcopy);
	info->backend = node_backend(node);
	if (link_basename(info->name, sizeof(info->name), ACCEL_CLASS "/%s/device", node))
		snprintf(info->name, sizeof(info->name), "%s", node);
	return 0;
}

const char *vrampool_backend_name(enum vrampool_backend backend)
{
	switch (backend) {
	case VRAMPOOL_BACKEND_EMULATED:
		return "emulated";
	case VRAMPOOL_BACKEND_PCI_BAR:
		return "pci-bar";
	default:
		return "unknown";
	}
}

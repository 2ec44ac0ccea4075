/* SPDX-License-Identifier: MIT */
/*
 * libvrampool: the userspace side of the vrampool accel driver.
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure; they never print and never exit.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_H
#define VRAMPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest device path or name the library reports, with its NUL. */
#define VRAMPOOL_NAME_MAX 64

/** What backs a device's VRAM. */
enum vrampool_backend {
	VRAMPOOL_BACKEND_UNKNOWN = 0,
	VRAMPOOL_BACKEND_EMULATED,	/* kernel memory (a platform device) */
	VRAMPOOL_BACKEND_PCI_BAR,	/* a PCI memory BAR */
};

/** A device's properties, as GET_PARAM and sysfs report them. */
struct vrampool_device_info {
	char path[VRAMPOOL_NAME_MAX];	/* /dev/accel/accelN */
	char name[VRAMPOOL_NAME_MAX];	/* parent device, e.g. vrampool.0 */
	enum vrampool_backend backend;
	uint64_t vram_size;
	uint64_t vram_in_use;
	uint64_t alignment;
	uint64_t max_page_size;
	bool exclusive_memory_only;
	uint32_t max_dynamic_pools;
	uint32_t persistent_pool;
	uint32_t abi_version;
};

/**
 * vrampool_list_devices() - find the accel nodes driven by vrampool
 * @paths: filled with up to @max paths, in minor order
 * @max: capacity of @paths
 *
 * Return: how many devices exist (may exceed @max), or a negative errno.
 */
int vrampool_list_devices(char (*paths)[VRAMPOOL_NAME_MAX], int max);

/**
 * vrampool_open() - open a device node read-write with O_CLOEXEC
 * Return: a file descriptor, or a negative errno.
 */
int vrampool_open(const char *path);

/**
 * vrampool_get_param() - read one DRM_VRAMPOOL_PARAM_* value
 * Return: 0 or a negative errno (-EINVAL for an unknown parameter).
 */
int vrampool_get_param(int fd, uint32_t param, uint64_t *value);

/**
 * vrampool_device_info() - read every property of an open device
 * @fd: the device
 * @path: the path it was opened from, used to find its sysfs entry
 * @info: filled in
 *
 * Return: 0 or a negative errno.
 */
int vrampool_device_info(int fd, const char *path, struct vrampool_device_info *info);

/** vrampool_backend_name() - "emulated", "pci-bar" or "unknown" */
const char *vrampool_backend_name(enum vrampool_backend backend);

#ifdef __cplusplus
}
#endif

#endif /* VRAMPOOL_H */

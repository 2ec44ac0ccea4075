/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the vrampool kselftests: device enumeration through
 * sysfs, GET_PARAM, module parameters, PCI BAR sizes and the debugfs
 * test-only buffer object interface.
 *
 * Every function returns 0 (or a count / fd) on success and a negative errno
 * on failure, so that tests can assert the exact error.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_TEST_LIB_H
#define VRAMPOOL_TEST_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <drm/vrampool_accel.h>

#define VP_DRIVER_NAME		"vrampool"
#define VP_MAX_DEVICES		16
#define VP_BO_PAGE_SIZE		4096ULL
#define VP_DEFAULT_BO_SIZE	65536ULL
#define VP_SYSFS_ACCEL_CLASS	"/sys/class/accel"
#define VP_SYSFS_MODULE_PARAMS	"/sys/module/" VP_DRIVER_NAME "/parameters"
#define VP_DEBUGFS_ROOT		"/sys/kernel/debug"
#define VP_DEBUGFS_ACCEL	VP_DEBUGFS_ROOT "/accel"

enum vp_backend {
	VP_BACKEND_ANY = -1,	/* for vp_enumerate_backend(): every backend */
	VP_BACKEND_UNKNOWN = 0,
	VP_BACKEND_PLATFORM,
	VP_BACKEND_PCI,
};

/* One /dev/accel/accelN node bound to the vrampool driver. */
struct vp_device {
	char path[64];		/* /dev/accel/accelN */
	char sysfs[96];		/* /sys/class/accel/accelN */
	int minor;		/* N */
	enum vp_backend backend;
	char backend_name[32];	/* basename of device/subsystem: "platform", "pci" */
	char name[64];		/* basename of device: "vrampool.0", "0000:00:04.0" */
};

const char *vp_backend_str(enum vp_backend backend);

/*
 * Fill @devs with the vrampool accel devices, sorted by minor. Returns how
 * many were found (at most @max) or a negative errno.
 */
int vp_enumerate(struct vp_device *devs, int max);

/* The devices of @backend, sorted by minor: count (at most @max) or -errno. */
int vp_enumerate_backend(enum vp_backend backend, struct vp_device *devs, int max);

/* The first (lowest minor) device of @backend, or -ENODEV. */
int vp_find_backend(enum vp_backend backend, struct vp_device *out);

/* open(2) the accel node read-write, close-on-exec: fd or -errno. */
int vp_open_device(const struct vp_device *dev);

/* DRM_IOCTL_VRAMPOOL_GET_PARAM with pad/reserved zero: 0 or -errno. */
int vp_get_param(int fd, uint32_t param, uint64_t *value);

/* ALLOC of @size with @flags (@out filled in, also on failure): 0 or -errno. */
int vp_alloc(int fd, uint64_t size, uint32_t flags, struct drm_vrampool_alloc *out);
/* FREE of @handle: 0 or -errno. */
int vp_free(int fd, uint32_t handle);
/* CLEANUP: free pages go back to the device. 0 or -errno. */
int vp_cleanup(int fd);

/* Module parameters from /sys/module/vrampool/parameters/<name>. */
int vp_module_param_str(const char *name, char *buf, size_t len);
int vp_module_param_u64(const char *name, uint64_t *value);
/* Accepts Y/N and 1/0. */
int vp_module_param_bool(const char *name, bool *value);

/* Size of BAR @bar of PCI device @bdf, from /sys/bus/pci/devices/<bdf>/resource. */
int vp_pci_bar_size(const char *bdf, int bar, uint64_t *size);

/* Whole small files. */
int vp_read_file(const char *path, char *buf, size_t len);
int vp_read_u64_file(const char *path, uint64_t *value);
/* One write(2) of @str: 0 or -errno (a short write is -EIO). */
int vp_write_file(const char *path, const char *str);

/* Make sure debugfs is mounted (mounting it if needed): 0 or -errno. */
int vp_debugfs_ready(void);
/* /sys/kernel/debug/accel/<name> and a file inside it. */
int vp_debugfs_dir(const struct vp_device *dev, char *buf, size_t len);
int vp_debugfs_path(const struct vp_device *dev, const char *file,
		    char *buf, size_t len);

/* The test_bo_size knob and the test_bo file. */
int vp_test_bo_size_get(const struct vp_device *dev, uint64_t *size);
int vp_test_bo_size_set(const struct vp_device *dev, uint64_t size);
int vp_test_bo_size_write_str(const struct vp_device *dev, const char *str);
/* Creates a new BO: fd or -errno. */
int vp_test_bo_open(const struct vp_device *dev);

/*
 * pread/pwrite looping over short transfers until @len bytes or end of file
 * (a 0-byte transfer). Returns the bytes moved or -errno of the first error.
 */
ssize_t vp_pread_all(int fd, void *buf, size_t len, off_t off);
ssize_t vp_pwrite_all(int fd, const void *buf, size_t len, off_t off);

static inline uint64_t vp_round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * A byte pattern that depends on @seed and on the absolute offset in the BO,
 * and is never zero (so leftover data cannot pass for fresh zeroes).
 */
uint8_t vp_pattern_byte(uint32_t seed, uint64_t off);
void vp_fill_pattern(void *buf, size_t len, uint32_t seed, uint64_t off);
/* Index of the first byte that differs from the pattern, or -1. */
ssize_t vp_check_pattern(const void *buf, size_t len, uint32_t seed,
			 uint64_t off);
/* Index of the first non-zero byte, or -1. */
ssize_t vp_first_nonzero(const void *buf, size_t len);

/*
 * Read @len bytes of @fd at @off in chunks and check they are all zero
 * (@zero) or all the pattern (@seed). Returns -1 when all match, the offset
 * of the first mismatch, or -2 on a read error / short read (errno set).
 */
int64_t vp_verify_zero(int fd, uint64_t off, uint64_t len);
int64_t vp_verify_pattern(int fd, uint64_t off, uint64_t len, uint32_t seed);
/* Write the pattern @seed over [@off, @off + @len): 0 or -errno. */
int vp_write_pattern(int fd, uint64_t off, uint64_t len, uint32_t seed);

#endif /* VRAMPOOL_TEST_LIB_H */

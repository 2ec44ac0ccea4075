// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helper library of the vrampool kselftests: devices, files, the
 * ioctls and byte patterns. See vrampool_test_lib.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vrampool_test_lib.h"

#define VP_CHUNK	(1u << 20)

const char *vp_backend_str(enum vp_backend backend)
{
	switch (backend) {
	case VP_BACKEND_PLATFORM:
		return "platform";
	case VP_BACKEND_PCI:
		return "pci";
	default:
		return "unknown";
	}
}

/* basename of the target of symlink @path, into @buf. */
static int link_basename(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, base);
	return 0;
}

static int cmp_minor(const void *a, const void *b)
{
	const struct vp_device *da = a, *db = b;

	return (da->minor > db->minor) - (da->minor < db->minor);
}

int vp_enumerate(struct vp_device *devs, int max)
{
	struct dirent *de;
	int count = 0;
	DIR *dir;

	dir = opendir(VP_SYSFS_ACCEL_CLASS);
	if (!dir)
		return -errno;

	while ((de = readdir(dir)) != NULL && count < max) {
		struct vp_device *d = &devs[count];
		char path[PATH_MAX], driver[64];
		char *end;
		long minor;

		if (strncmp(de->d_name, "accel", 5) != 0)
			continue;
		minor = strtol(de->d_name + 5, &end, 10);
		if (end == de->d_name + 5 || *end != '\0' || minor < 0 || minor > INT_MAX)
			continue;

		snprintf(path, sizeof(path), "%s/%s/device/driver",
			 VP_SYSFS_ACCEL_CLASS, de->d_name);
		if (link_basename(path, driver, sizeof(driver)) != 0 ||
		    strcmp(driver, VP_DRIVER_NAME) != 0)
			continue;

		memset(d, 0, sizeof(*d));
		d->minor = (int)minor;
		snprintf(d->path, sizeof(d->path), "/dev/accel/accel%d", d->minor);
		snprintf(d->sysfs, sizeof(d->sysfs), "%s/accel%d",
			 VP_SYSFS_ACCEL_CLASS, d->minor);

		snprintf(path, sizeof(path), "%s/device", d->sysfs);
		if (link_basename(path, d->name, sizeof(d->name)) != 0)
			continue;

		snprintf(path, sizeof(path), "%s/device/subsystem", d->sysfs);
		if (link_basename(path, d->backend_name,
				  sizeof(d->backend_name)) != 0)
			continue;
		if (strcmp(d->backend_name, "platform") == 0)
			d->backend = VP_BACKEND_PLATFORM;
		else if (strcmp(d->backend_name, "pci") == 0)
			d->backend = VP_BACKEND_PCI;
		else
			d->backend = VP_BACKEND_UNKNOWN;
		count++;
	}
	closedir(dir);

	qsort(devs, count, sizeof(*devs), cmp_minor);
	return count;
}

int vp_enumerate_backend(enum vp_backend backend, struct vp_device *devs, int max)
{
	struct vp_device all[VP_MAX_DEVICES];
	int n, i, count = 0;

	n = vp_enumerate(all, VP_MAX_DEVICES);
	if (n < 0)
		return n;
	for (i = 0; i < n && count < max; i++)
		if (backend == VP_BACKEND_ANY || all[i].backend == backend)
			devs[count++] = all[i];
	return count;
}

int vp_find_backend(enum vp_backend backend, struct vp_device *out)
{
	int n = vp_enumerate_backend(backend, out, 1);

	if (n < 0)
		return n;
	return n ? 0 : -ENODEV;
}

int vp_open_device(const struct vp_device *dev)
{
	int fd = open(dev->path, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int vp_open_device_as(const struct vp_device *dev, uid_t uid)
{
	int fd, err;

	/* The real uid is the tenant; the effective one stays root's for open(). */
	if (setresuid(uid, 0, 0))
		return -errno;
	fd = open(dev->path, O_RDWR | O_CLOEXEC);
	err = errno;
	if (setresuid(0, 0, 0)) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return fd < 0 ? -err : fd;
}

int vp_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? -errno : 0;
}

int vp_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vrampool_get_param gp = { .param = param };
	int ret;

	ret = vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_GET_PARAM, &gp);
	if (!ret)
		*value = gp.value;
	return ret;
}

uint64_t vp_vram_in_use(int fd)
{
	uint64_t v;

	return vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &v) ? UINT64_MAX : v;
}

int vp_alloc(int fd, uint64_t size, uint32_t flags, struct drm_vrampool_alloc *out)
{
	memset(out, 0, sizeof(*out));
	out->size = size;
	out->flags = flags;
	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC, out);
}

int vp_free(int fd, uint32_t handle)
{
	struct drm_vrampool_free f = { .handle = handle };

	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE, &f);
}

int vp_alloc_batch(int fd, const struct drm_vrampool_alloc_request *reqs,
		   struct drm_vrampool_alloc_answer *answers, uint32_t count,
		   struct drm_vrampool_alloc_batch *out)
{
	memset(out, 0, sizeof(*out));
	out->requests = (uintptr_t)reqs;
	out->answers = (uintptr_t)answers;
	out->count = count;
	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, out);
}

int vp_free_batch(int fd, const uint32_t *handles, uint32_t count,
		  struct drm_vrampool_free_batch *out)
{
	memset(out, 0, sizeof(*out));
	out->handles = (uintptr_t)handles;
	out->count = count;
	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_FREE_BATCH, out);
}

int vp_cleanup(int fd)
{
	struct drm_vrampool_cleanup c = { 0 };

	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_CLEANUP, &c);
}

int vp_set_persistent_mode(int fd, uint32_t mode, uint32_t *old)
{
	struct drm_vrampool_persistent_mode m = { .mode = mode };
	int ret;

	ret = vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_SET_PERSISTENT_MODE, &m);
	if (!ret && old)
		*old = m.mode;
	return ret;
}

int vp_install(int fd, struct drm_vrampool_pool_install *args)
{
	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, args);
}

int vp_query(int fd, struct drm_vrampool_pool_query *args)
{
	return vp_ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, args);
}

int vp_query_head(int fd, struct drm_vrampool_pool_query *q)
{
	memset(q, 0, sizeof(*q));
	return vp_query(fd, q);
}

uint64_t vp_meminfo_bytes(const char *key)
{
	char text[8192], *p;
	unsigned long long kib;
	size_t n = strlen(key);

	if (vp_read_file("/proc/meminfo", text, sizeof(text)))
		return 0;
	for (p = text; (p = strstr(p, key)); p += n) {
		if ((p == text || p[-1] == '\n') && p[n] == ':')
			return sscanf(p + n + 1, " %llu kB", &kib) == 1 ? (uint64_t)kib << 10 : 0;
	}
	return 0;
}

int vp_read_file(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (used < len - 1) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		used += n;
	}
	close(fd);
	buf[used] = '\0';
	return 0;
}

int vp_read_line(const char *path, char *buf, size_t len)
{
	char raw[VP_VAL_MAX];
	size_t n;
	int ret;

	ret = vp_read_file(path, raw, sizeof(raw));
	if (ret)
		return ret;
	n = strlen(raw);
	if (!n || raw[n - 1] != '\n' || memchr(raw, '\n', n - 1))
		return -EBADMSG;
	raw[n - 1] = '\0';
	if (n > len)
		return -EOVERFLOW;
	memcpy(buf, raw, n);
	return 0;
}

int vp_parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return -EBADMSG;
	/* Canonical: no leading zero. */
	if (s[0] == '0' && s[1])
		return -EBADMSG;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -EBADMSG;
	*v = x;
	return 0;
}

int vp_read_u64_file(const char *path, uint64_t *value)
{
	char buf[VP_VAL_MAX];
	int ret;

	ret = vp_read_line(path, buf, sizeof(buf));
	return ret ? ret : vp_parse_u64(buf, value);
}

bool vp_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int vp_write_file(const char *path, const char *str)
{
	size_t len = strlen(str);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, str, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) != 0 && !err)
		err = -errno;
	return err;
}

/* /sys/module/vrampool/parameters/<name> */
static void module_param_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", VP_SYSFS_MODULE_PARAMS, name);
}

int vp_module_param_str(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	module_param_path(name, path, sizeof(path));
	return vp_read_line(path, buf, len);
}

int vp_module_param_u64(const char *name, uint64_t *value)
{
	char path[PATH_MAX];

	module_param_path(name, path, sizeof(path));
	return vp_read_u64_file(path, value);
}

int vp_module_param_bool(const char *name, bool *value)
{
	char buf[16];
	int ret;

	ret = vp_module_param_str(name, buf, sizeof(buf));
	if (ret)
		return ret;
	if (!strcmp(buf, "Y") || !strcmp(buf, "y") || !strcmp(buf, "1"))
		*value = true;
	else if (!strcmp(buf, "N") || !strcmp(buf, "n") || !strcmp(buf, "0"))
		*value = false;
	else
		return -EINVAL;
	return 0;
}

int vp_pci_bar_size(const char *bdf, int bar, uint64_t *size)
{
	unsigned long long start, end, flags;
	char path[PATH_MAX], line[256];
	int ret = -ENOENT, i = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", bdf);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (i++ != bar)
			continue;
		if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3) {
			ret = -EINVAL;
			break;
		}
		if (end <= start) {	/* "0x0 0x0 0x0": BAR not implemented */
			ret = -ENOENT;
			break;
		}
		*size = end - start + 1;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

int vp_debugfs_ready(void)
{
	struct stat st;

	if (stat(VP_DEBUGFS_ACCEL, &st) == 0)
		return 0;
	if (mount("debugfs", VP_DEBUGFS_ROOT, "debugfs", 0, NULL) != 0 &&
	    errno != EBUSY)
		return -errno;
	if (stat(VP_DEBUGFS_ACCEL, &st) != 0)
		return -errno;
	return 0;
}

int vp_debugfs_dir(const struct vp_device *dev, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", VP_DEBUGFS_ACCEL, dev->name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int vp_debugfs_path(const struct vp_device *dev, const char *file,
		    char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s/%s", VP_DEBUGFS_ACCEL, dev->name,
			 file);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int vp_test_bo_size_get(const struct vp_device *dev, uint64_t *size)
{
	char path[PATH_MAX];
	int ret;

	ret = vp_debugfs_path(dev, "test_bo_size", path, sizeof(path));
	if (ret)
		return ret;
	return vp_read_u64_file(path, size);
}

int vp_test_bo_size_write_str(const struct vp_device *dev, const char *str)
{
	char path[PATH_MAX];
	int ret;

	ret = vp_debugfs_path(dev, "test_bo_size", path, sizeof(path));
	if (ret)
		return ret;
	return vp_write_file(path, str);
}

int vp_test_bo_size_set(const struct vp_device *dev, uint64_t size)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 "\n", size);
	return vp_test_bo_size_write_str(dev, buf);
}

int vp_test_bo_open(const struct vp_device *dev)
{
	char path[PATH_MAX];
	int ret, fd;

	ret = vp_debugfs_path(dev, "test_bo", path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

ssize_t vp_pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

ssize_t vp_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done,
				   off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

uint8_t vp_pattern_byte(uint32_t seed, uint64_t off)
{
	uint64_t x = off * 0x9e3779b97f4a7c15ULL + seed * 0xbf58476d1ce4e5b9ULL;
	uint8_t b;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 29;
	b = (uint8_t)x;
	return b ? b : 0xa5;
}

void vp_fill_pattern(void *buf, size_t len, uint32_t seed, uint64_t off)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = vp_pattern_byte(seed, off + i);
}

#define VP_WORD_K	0x9e3779b97f4a7c15ULL
#define VP_WORD_SEED	0xbf58476d1ce4e5b9ULL

void vp_fill_words(void *buf, uint64_t from, uint64_t len, uint32_t seed)
{
	uint64_t w = seed * VP_WORD_SEED + (from / 8) * VP_WORD_K, i;
	uint8_t *p = buf;

	for (i = 0; i + 8 <= len; i += 8, w += VP_WORD_K)
		memcpy(p + i, &w, 8);
	if (i < len)
		memcpy(p + i, &w, len - i);
}

int64_t vp_check_words(const void *buf, uint64_t from, uint64_t len, uint32_t seed)
{
	uint64_t w = seed * VP_WORD_SEED + (from / 8) * VP_WORD_K, i, v;
	const uint8_t *p = buf;

	for (i = 0; i + 8 <= len; i += 8, w += VP_WORD_K) {
		memcpy(&v, p + i, 8);
		if (v != w)
			break;
	}
	for (; i < len; i++) {
		if (p[i] != (uint8_t)(w >> (8 * (i % 8))))
			return (int64_t)i;
		if (i % 8 == 7)
			w += VP_WORD_K;
	}
	return -1;
}

ssize_t vp_check_pattern(const void *buf, size_t len, uint32_t seed,
			 uint64_t off)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != vp_pattern_byte(seed, off + i))
			return (ssize_t)i;
	return -1;
}

ssize_t vp_first_nonzero(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return (ssize_t)i;
	return -1;
}

static int64_t verify(int fd, uint64_t off, uint64_t len, bool zero,
		      uint32_t seed)
{
	uint8_t *buf;
	uint64_t done = 0;
	int64_t ret = -1;

	buf = malloc(VP_CHUNK);
	if (!buf) {
		errno = ENOMEM;
		return -2;
	}
	while (done < len) {
		size_t n = len - done > VP_CHUNK ? VP_CHUNK : len - done;
		ssize_t got, bad;

		got = vp_pread_all(fd, buf, n, (off_t)(off + done));
		if (got < 0 || (size_t)got != n) {
			errno = got < 0 ? (int)-got : EIO;
			ret = -2;
			break;
		}
		bad = zero ? vp_first_nonzero(buf, n) :
			     vp_check_pattern(buf, n, seed, off + done);
		if (bad >= 0) {
			ret = (int64_t)(off + done + bad);
			break;
		}
		done += n;
	}
	free(buf);
	return ret;
}

int64_t vp_verify_zero(int fd, uint64_t off, uint64_t len)
{
	return verify(fd, off, len, true, 0);
}

int64_t vp_verify_pattern(int fd, uint64_t off, uint64_t len, uint32_t seed)
{
	return verify(fd, off, len, false, seed);
}

int vp_write_pattern(int fd, uint64_t off, uint64_t len, uint32_t seed)
{
	uint64_t done = 0;
	uint8_t *buf;
	int ret = 0;

	buf = malloc(VP_CHUNK);
	if (!buf)
		return -ENOMEM;
	while (done < len) {
		size_t n = len - done > VP_CHUNK ? VP_CHUNK : len - done;
		ssize_t put;

		vp_fill_pattern(buf, n, seed, off + done);
		put = vp_pwrite_all(fd, buf, n, (off_t)(off + done));
		if (put < 0) {
			ret = (int)put;
			break;
		}
		if ((size_t)put != n) {
			ret = -EIO;
			break;
		}
		done += n;
	}
	free(buf);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helper library of the vrampool kselftests: a client's sysfs folders
 * (Documentation/ABI/testing/sysfs-driver-vrampool), its fdinfo, and folder
 * listings. See vrampool_test_lib.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampool_test_lib.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- Paths and names ---------------------------------------------------- */

void vp_sysfs_dev_path(const struct vp_device *dev, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/device/vrampool%s%s", dev->sysfs, file ? "/" : "", file ? file : "");
}

void vp_sysfs_client_path(const struct vp_device *dev, uint64_t id, char *buf, size_t len)
{
	snprintf(buf, len, "%s/device/vrampool/clients/%" PRIu64, dev->sysfs, id);
}

uint64_t vp_sysfs_dev_u64(const struct vp_device *dev, const char *file)
{
	char path[VP_PATH_LEN];
	uint64_t v;

	vp_sysfs_dev_path(dev, file, path, sizeof(path));
	return vp_read_u64_file(path, &v) ? UINT64_MAX : v;
}

uint64_t vp_sysfs_user_u64(const struct vp_device *dev, unsigned int uid, const char *file)
{
	char name[64];

	snprintf(name, sizeof(name), "users/%u/%s", uid, file);
	return vp_sysfs_dev_u64(dev, name);
}

static const char *const persistent_modes[] = {
	[DRM_VRAMPOOL_PERSISTENT_ENABLED] = "enabled",
	[DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH] = "size-match",
	[DRM_VRAMPOOL_PERSISTENT_DISABLED] = "disabled",
	[DRM_VRAMPOOL_PERSISTENT_ENFORCED] = "enforced",
};

const char *vp_persistent_mode_str(uint32_t mode)
{
	return mode < ARRAY_LEN(persistent_modes) ? persistent_modes[mode] : "?";
}

void vp_comm_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", VP_COMM_MAX, name);
}

void vp_my_comm(char *buf, size_t len)
{
	vp_comm_of(program_invocation_short_name, buf, len);
}

/* ---- Pool folders ------------------------------------------------------- */

const char *const vp_pool_files[VP_PF_COUNT] = {
	[VP_PF_TYPE] = "type",
	[VP_PF_PAGE_SIZE] = "page_size",
	[VP_PF_MAX_SLICE_SIZE] = "max_slice_size",
	[VP_PF_MAX_POOL_SIZE] = "max_pool_size",
	[VP_PF_MAX_ALLOC_SIZE] = "max_alloc_size",
	[VP_PF_RECLAIM_AT] = "reclaim_at",
	[VP_PF_DEALLOC_PERIOD] = "dealloc_period",
	[VP_PF_PAGES] = "pages",
	[VP_PF_PAGES_PEAK] = "pages_peak",
	[VP_PF_ALLOCATIONS] = "allocations",
	[VP_PF_BYTES_IN_USE] = "bytes_in_use",
	[VP_PF_PADDING] = "padding",
	[VP_PF_RESERVED] = "reserved",
	[VP_PF_LARGEST_ALLOC] = "largest_alloc",
	[VP_PF_PAGES_MADE] = "pages_made",
};

/*
 * A config field of the uapi: present when the pool's type has it (@types,
 * a mask of 1 << type) and, for an optional one (@flag), when its flag is set.
 */
static void config_str(const struct drm_vrampool_pool_entry *c, unsigned int types,
		       uint32_t flag, uint64_t value, char *buf, size_t len)
{
	if (!(types & (1u << c->type)) || (flag && !(c->flags & flag)))
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%" PRIu64, value);
}

#define T(type)	(1u << DRM_VRAMPOOL_POOL_##type)

/* The statistic a file from VP_PF_PAGES on shows. */
static uint64_t pool_stat(const struct drm_vrampool_pool_status *st, enum vp_pool_file f)
{
	switch (f) {
	case VP_PF_PAGES:
		return st->pages;
	case VP_PF_PAGES_PEAK:
		return st->pages_peak;
	case VP_PF_ALLOCATIONS:
		return st->allocations;
	case VP_PF_BYTES_IN_USE:
		return st->bytes_in_use;
	case VP_PF_PADDING:
		return st->padding;
	case VP_PF_RESERVED:
		return st->reserved_bytes;
	case VP_PF_PAGES_MADE:
		return st->pages_made;
	default:
		return st->largest_alloc;
	}
}

void vp_pool_file_expected(const struct drm_vrampool_pool_status *st, enum vp_pool_file f,
			   char *buf, size_t len)
{
	const struct drm_vrampool_pool_entry *c = &st->config;

	switch (f) {
	case VP_PF_TYPE:
		snprintf(buf, len, "%s", vp_pool_type_str(c->type));
		return;
	case VP_PF_PAGE_SIZE:
		return config_str(c, T(SLICED), 0, c->page_size, buf, len);
	case VP_PF_MAX_SLICE_SIZE:
		return config_str(c, T(SLICED), DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE,
				  c->max_slice_size, buf, len);
	case VP_PF_MAX_POOL_SIZE:
		return config_str(c, T(SLICED), DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
				  c->max_pool_size, buf, len);
	case VP_PF_MAX_ALLOC_SIZE:
		return config_str(c, T(EXCLUSIVE), 0, c->max_alloc_size, buf, len);
	case VP_PF_RECLAIM_AT:
		return config_str(c, T(DIRECT), DRM_VRAMPOOL_ENTRY_RECLAIM_AT, c->reclaim_at,
				  buf, len);
	case VP_PF_DEALLOC_PERIOD:
		return config_str(c, T(SLICED) | T(EXCLUSIVE), DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD,
				  c->dealloc_period, buf, len);
	default:
		snprintf(buf, len, "%" PRIu64, pool_stat(st, f));
		return;
	}
}

void vp_pool_stats_expected(const struct drm_vrampool_pool_status *st, char *buf, size_t len)
{
	char v[VP_VAL_MAX];
	size_t used = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < VP_PF_COUNT && used < len; f++) {
		vp_pool_file_expected(st, f, v, sizeof(v));
		used += snprintf(buf + used, len - used, "%s %s\n", vp_pool_files[f], v);
	}
}

int vp_pool_stats_field(const char *text, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);
	const char *line, *next;
	bool found = false;

	for (line = text; *line; line = next) {
		const char *sp = strchr(line, ' ');
		size_t vlen;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (!sp || sp >= next || sp == line)
			return -EBADMSG;
		if ((size_t)(sp - line) != nlen || strncmp(line, name, nlen))
			continue;
		if (found)
			return -EEXIST;
		found = true;
		vlen = next - sp - 1;
		if (vlen && sp[vlen] == '\n')
			vlen--;
		snprintf(buf, len, "%.*s", (int)vlen, sp + 1);
	}
	return found ? 0 : -ENOENT;
}

int vp_pool_stat_read(const char *path, const char *name, char *buf, size_t len)
{
	char text[VP_FILE_LEN];
	int ret;

	ret = vp_read_file(path, text, sizeof(text));
	return ret ? ret : vp_pool_stats_field(text, name, buf, len);
}

/* ---- fdinfo ------------------------------------------------------------- */

int vp_fdinfo_get(int fd, const char *key, char *buf, size_t len)
{
	char path[64], text[4096], *line, *next;
	size_t klen = strlen(key);
	bool found = false;
	int ret;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	ret = vp_read_file(path, text, sizeof(text));
	if (ret)
		return ret;
	for (line = text; line && *line; line = next) {
		char *v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		if (found)
			return -EEXIST;
		found = true;
		for (v = line + klen + 1; *v == ' ' || *v == '\t'; v++)
			;
		snprintf(buf, len, "%s", v);
	}
	return found ? 0 : -ENOENT;
}

int vp_parse_fdinfo_size(const char *s, uint64_t *bytes)
{
	static const struct { const char *unit; unsigned int shift; } units[] = {
		{ "", 0 }, { " KiB", 10 }, { " MiB", 20 }, { " GiB", 30 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	if (*s < '0' || *s > '9')
		return -EBADMSG;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EBADMSG;
	for (i = 0; i < ARRAY_LEN(units); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*bytes = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EBADMSG;
}

int vp_fdinfo_size(int fd, const char *key, uint64_t *bytes)
{
	char buf[VP_VAL_MAX];
	int ret = vp_fdinfo_get(fd, key, buf, sizeof(buf));

	return ret ? ret : vp_parse_fdinfo_size(buf, bytes);
}

int vp_client_id(int fd, uint64_t *id)
{
	char buf[VP_VAL_MAX];
	int ret = vp_fdinfo_get(fd, "drm-client-id", buf, sizeof(buf));

	return ret ? ret : vp_parse_u64(buf, id);
}

/* ---- Folder listings ---------------------------------------------------- */

bool vp_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int cmp_names(const void *pa, const void *pb)
{
	const char *a = pa, *b = pb;
	bool na = vp_all_digits(a), nb = vp_all_digits(b);

	if (na && nb) {
		unsigned long long x = strtoull(a, NULL, 10), y = strtoull(b, NULL, 10);

		return (x > y) - (x < y);
	}
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
}

void vp_names_sort(struct vp_names *ns)
{
	qsort(ns->v, ns->n, sizeof(ns->v[0]), cmp_names);
}

void vp_slab_shrink_all(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *de;
	char path[512];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", de->d_name);
		vp_write_file(path, "1");
	}
	closedir(d);
}

int vp_list_dir(const char *path, struct vp_names *out)
{
	struct dirent *de;
	DIR *d;

	out->n = 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (out->n == VP_NAMES_MAX || strlen(de->d_name) >= VP_NAME_LEN) {
			closedir(d);
			return -E2BIG;
		}
		strcpy(out->v[out->n++], de->d_name);
	}
	closedir(d);
	vp_names_sort(out);
	return 0;
}

void vp_names_add(struct vp_names *ns, const char *fmt, ...)
{
	va_list ap;

	if (ns->n == VP_NAMES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(ns->v[ns->n++], VP_NAME_LEN, fmt, ap);
	va_end(ap);
}

bool vp_names_equal(const struct vp_names *a, const struct vp_names *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return false;
	return true;
}

bool vp_names_has(const struct vp_names *ns, const char *name)
{
	int i;

	for (i = 0; i < ns->n; i++)
		if (!strcmp(ns->v[i], name))
			return true;
	return false;
}

const char *vp_names_str(const struct vp_names *ns, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < ns->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? " " : "", ns->v[i]);
	return buf;
}

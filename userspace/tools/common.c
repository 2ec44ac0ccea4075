// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: what every command needs: usage errors, documented errors
 * (as text and JSON) and opening a device.
 *
 * Errors print the documented message of their kind (vrampool_error_message())
 * after the kind's name: "vrampoolctl: SliceLargerThanPage: `max_slice_size` ...".
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vrampool_names.h"
#include "vrampoolctl.h"

/* ---- Errors ------------------------------------------------------------- */

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("vrampoolctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(see `vrampoolctl help`)\n", stderr);
	return EXIT_USAGE;
}

int error_kind_of(const char *name)
{
	int k;

	for (k = VRAMPOOL_ERR_EMPTY_POOL_LIST; k <= VRAMPOOL_ERR_DUPLICATE_HANDLE; k++) {
		if (!strcmp(name, vrampool_error_kind_name(k)))
			return k;
	}
	return -1;
}

void print_error(FILE *out, const char *prefix, const struct vrampool_error *err,
		 const struct drm_vrampool_pool_entry *entries, uint32_t count)
{
	char msg[MSG_MAX], spec[160];

	vrampool_error_message(err, msg, sizeof(msg));
	fprintf(out, "%s%s: %s\n", prefix, vrampool_error_kind_name(err->kind), msg);
	if (entries && err->kind != VRAMPOOL_ERR_OS && err->entry < count)
		fprintf(out, "%s  at pool %u: %s\n", prefix, err->entry,
			format_spec(&entries[err->entry], spec, sizeof(spec)));
}

/* One value of an error; a preset or a client limit by name when it has one. */
static void json_value(struct json *j, const char *key, uint64_t v)
{
	const char *name = NULL;

	if (!strcmp(key, "preset"))
		name = vrampool_preset_name((uint32_t)v);
	else if (!strcmp(key, "limit"))
		name = vrampool_limit_name((uint32_t)v);
	if (name)
		json_string(j, key, name);
	else
		json_u64(j, key, v);
}

/* The values the error's kind carries, named as vrampool_names.h lists them. */
#define VRAMPOOL_NAMES_VALUE(k, member, key, from)	\
	if (e->kind == VRAMPOOL_ERR_##k)		\
		json_value(j, key, e->member);

void json_error(struct json *j, const struct vrampool_error *e)
{
	char msg[MSG_MAX];

	vrampool_error_message(e, msg, sizeof(msg));
	json_string(j, "kind", vrampool_error_kind_name(e->kind));
	json_string(j, "message", msg);
	json_u64(j, "errno", (uint64_t)e->os_errno);
	if (e->kind != VRAMPOOL_ERR_OS && e->entry != DRM_VRAMPOOL_NO_ENTRY)
		json_u64(j, "entry", e->entry);
	else
		json_null(j, "entry");
	if (e->field)
		json_string(j, "field", vrampool_field_name(e->field));
	else
		json_null(j, "field");

	VRAMPOOL_NAMES_VALUES
}

/* ---- Devices ------------------------------------------------------------ */

/* The fd is a DRM node of the vrampool driver (DRM_IOCTL_VERSION works on any). */
static bool is_vrampool(int fd)
{
	char name[32] = "";
	struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };

	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return false;
	name[sizeof(name) - 1] = '\0';
	return v.name_len == strlen("vrampool") && !strcmp(name, "vrampool");
}

int device_paths(const char *path, char (*paths)[VRAMPOOL_NAME_MAX], int max)
{
	int count;

	if (path) {
		snprintf(paths[0], VRAMPOOL_NAME_MAX, "%s", path);
		return 1;
	}
	count = vrampool_list_devices(paths, max);
	if (count < 0) {
		fprintf(stderr, "vrampoolctl: cannot list devices: %s\n", strerror(-count));
		return -EXIT_FAILED;
	}
	if (!count) {
		fprintf(stderr, "vrampoolctl: no vrampool device found\n");
		return -EXIT_NODEV;
	}
	return count < max ? count : max;
}

int open_device(const char *path, struct vrampool_device_info *info)
{
	char paths[MAX_DEVICES][VRAMPOOL_NAME_MAX];
	int fd, ret;

	if (!path) {
		ret = device_paths(NULL, paths, MAX_DEVICES);
		if (ret < 0)
			return ret;
		path = paths[0];
	}

	fd = vrampool_open(path);
	if (fd < 0) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path, strerror(-fd));
		return fd == -ENOENT || fd == -ENXIO || fd == -ENODEV ? -EXIT_NODEV : -EXIT_FAILED;
	}
	if (!is_vrampool(fd)) {
		fprintf(stderr, "vrampoolctl: %s: not a vrampool device\n", path);
		close(fd);
		return -EXIT_NODEV;
	}
	ret = vrampool_device_info(fd, path, info);
	if (ret) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path, strerror(-ret));
		close(fd);
		return -EXIT_FAILED;
	}
	return fd;
}

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl stat --all: every client of a device, read from sysfs.
 *
 * The ioctls only show a client its own pools; the driver publishes every
 * client in <device>/vrampool/clients/<id>/ (pid, comm, generation,
 * persistent_mode, vram), one value per file, with pools/<index> beside
 * them, one "name value" line per field of the pool, "none" for a
 * field a pool does not have. Nothing here opens the
 * device, so the tool does not show up as a client of its own.
 *
 * Clients and pools come and go while they are read: one that vanishes
 * half-way is left out.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vrampoolctl.h"

/* snprintf() for paths: a path too long for PATH_MAX is cut (and not found). */
void path_fmt(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, len, fmt, ap);
	va_end(ap);
}

/* Reads all of @dir/@name into @buf, NUL-terminated; 0 or -errno. */
static int read_all(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;
	int ret = 0;

	path_fmt(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f))
		ret = errno ? -errno : -EIO;
	fclose(f);
	buf[n] = '\0';
	return ret;
}

/* Reads @dir/@name into @buf without its newline; 0 or -errno. */
int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	int ret = read_all(dir, name, buf, len);

	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

/* A number, or "none" (*present false); 0 or -EINVAL. */
static int parse_u64(const char *buf, uint64_t *v, bool *present)
{
	char *end;

	if (present)
		*present = strcmp(buf, "none") != 0;
	if (present && !*present) {
		*v = 0;
		return 0;
	}
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

/* A number, or "none" (*present false); 0 or -errno. */
int read_u64(const char *dir, const char *name, uint64_t *v, bool *present)
{
	char buf[32];
	int ret = read_text(dir, name, buf, sizeof(buf));

	return ret ? ret : parse_u64(buf, v, present);
}

/* The value of the "@name value" line of a pool's stats; 0 or -ENOENT. */
static int stats_field(const char *text, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);
	const char *line;

	for (line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
		size_t vlen;

		if (strncmp(line, name, nlen) || line[nlen] != ' ')
			continue;
		vlen = strcspn(line + nlen + 1, "\n");
		if (vlen >= len)
			return -EINVAL;
		memcpy(buf, line + nlen + 1, vlen);
		buf[vlen] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* Field @name of a stats text as a number or "none"; 0 or -errno. */
static int stats_u64(const char *text, const char *name, uint64_t *v, bool *present)
{
	char buf[32];
	int ret = stats_field(text, name, buf, sizeof(buf));

	return ret ? ret : parse_u64(buf, v, present);
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The numeric names in @dir, sorted; how many, or -errno. */
int numeric_entries(const char *dir, uint64_t *ids, int max)
{
	struct dirent *de;
	char *end;
	DIR *d;
	int n = 0;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		ids[n] = strtoull(de->d_name, &end, 10);
		if (!*end)
			n++;
	}
	closedir(d);
	qsort(ids, n, sizeof(*ids), by_u64);
	return n;
}

static uint32_t type_of(const char *name)
{
	uint32_t t;

	for (t = DRM_VRAMPOOL_POOL_EXCLUSIVE; t <= DRM_VRAMPOOL_POOL_PERSISTENT; t++) {
		if (!strcmp(name, pool_type_name(t)))
			return t;
	}
	return 0;
}

/* One pools/<index> file; 0 or -errno (gone, most likely). */
static int read_pool(const char *dir, uint64_t index, struct drm_vrampool_pool_status *s)
{
	struct drm_vrampool_pool_entry *e = &s->config;
	static const struct {
		const char *name;
		uint32_t flag;	/* the optional field's flag; 0: always there */
		size_t offset;
	} config[] = {
		{ "page_size", 0, offsetof(struct drm_vrampool_pool_entry, page_size) },
		{ "max_slice_size", DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE,
		  offsetof(struct drm_vrampool_pool_entry, max_slice_size) },
		{ "max_pool_size", DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
		  offsetof(struct drm_vrampool_pool_entry, max_pool_size) },
		{ "max_alloc_size", 0, offsetof(struct drm_vrampool_pool_entry, max_alloc_size) },
		{ "dealloc_period", DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD,
		  offsetof(struct drm_vrampool_pool_entry, dealloc_period) },
		{ "reclaim_at", DRM_VRAMPOOL_ENTRY_RECLAIM_AT,
		  offsetof(struct drm_vrampool_pool_entry, reclaim_at) },
	};
	static const struct {
		const char *name;
		size_t offset;
	} stats[] = {
		{ "allocations", offsetof(struct drm_vrampool_pool_status, allocations) },
		{ "bytes_in_use", offsetof(struct drm_vrampool_pool_status, bytes_in_use) },
		{ "padding", offsetof(struct drm_vrampool_pool_status, padding) },
		{ "reserved", offsetof(struct drm_vrampool_pool_status, reserved_bytes) },
		{ "pages", offsetof(struct drm_vrampool_pool_status, pages) },
		{ "pages_peak", offsetof(struct drm_vrampool_pool_status, pages_peak) },
		{ "largest_alloc", offsetof(struct drm_vrampool_pool_status, largest_alloc) },
		{ "pages_made", offsetof(struct drm_vrampool_pool_status, pages_made) },
	};
	char path[PATH_MAX], text[1024], type[32];
	bool present;
	uint64_t v;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	path_fmt(path, sizeof(path), "%" PRIu64, index);
	s->index = (uint32_t)index;
	/* One file, read at once: the fields are of one moment. */
	ret = read_all(dir, path, text, sizeof(text));
	if (ret)
		return ret;
	ret = stats_field(text, "type", type, sizeof(type));
	if (ret)
		return ret;
	e->type = type_of(type);
	for (i = 0; i < sizeof(config) / sizeof(config[0]); i++) {
		ret = stats_u64(text, config[i].name, &v, &present);
		if (ret)
			return ret;
		if (!present)
			continue;
		memcpy((char *)e + config[i].offset, &v, sizeof(v));
		e->flags |= config[i].flag;
	}
	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		ret = stats_u64(text, stats[i].name, &v, NULL);
		if (ret)
			return ret;
		memcpy((char *)s + stats[i].offset, &v, sizeof(v));
	}
	return 0;
}

/* One clients/<id>/ folder; 0 or -errno (gone, most likely). */
int read_client(const char *clients, uint64_t id, struct sysfs_client *c)
{
	char dir[PATH_MAX], pools[PATH_MAX], pid[32];
	uint64_t *idx;
	int n, i, ret;

	memset(c, 0, sizeof(*c));
	c->id = id;
	path_fmt(dir, sizeof(dir), "%s/%" PRIu64, clients, id);
	ret = read_text(dir, "pid", pid, sizeof(pid));
	if (!ret)
		ret = read_text(dir, "comm", c->comm, sizeof(c->comm));
	if (!ret)
		ret = read_u64(dir, "generation", &c->generation, NULL);
	if (!ret)
		ret = read_text(dir, "persistent_mode", c->persistent_mode,
				sizeof(c->persistent_mode));
	if (!ret)
		ret = read_u64(dir, "vram", &c->vram, NULL);
	if (ret)
		return ret;
	c->pid = strtoll(pid, NULL, 10);

	idx = calloc(MAX_ENTRIES, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	path_fmt(pools, sizeof(pools), "%s/pools", dir);
	n = numeric_entries(pools, idx, MAX_ENTRIES);
	if (n < 0) {
		free(idx);
		return n;
	}
	c->pools = calloc(n ? n : 1, sizeof(*c->pools));
	if (!c->pools) {
		free(idx);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		/* A pool folder the layout just lost reads ENODEV: leave it out. */
		if (!read_pool(pools, idx[i], &c->pools[c->count]))
			c->count++;
	}
	free(idx);
	return 0;
}

/* The device's sysfs folder (/sys/dev/char/M:m/device), from its node. */
int device_dir(const char *path, char *out, size_t len)
{
	char link[PATH_MAX], driver[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (stat(path, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENODEV;
	path_fmt(out, len, "/sys/dev/char/%u:%u/device", major(st.st_rdev), minor(st.st_rdev));
	path_fmt(link, sizeof(link), "%s/driver", out);
	n = readlink(link, driver, sizeof(driver) - 1);
	if (n < 0)
		return -ENODEV;
	driver[n] = '\0';
	return strcmp(basename(driver), "vrampool") ? -ENODEV : 0;
}

void link_name(const char *dir, const char *name, char *out, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	path_fmt(link, sizeof(link), "%s%s%s", dir, *name ? "/" : "", name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(out, len, "unknown");
		return;
	}
	target[n] = '\0';
	snprintf(out, len, "%s", basename(target));
}

static void print_client(const struct sysfs_client *c)
{
	char a[32];

	printf("client %" PRIu64 ": pid %" PRId64 " (%s), layout generation %" PRIu64
	       ", persistent mode %s, VRAM held %" PRIu64 " (%s)\n",
	       c->id, c->pid, c->comm, c->generation, c->persistent_mode, c->vram,
	       format_approx(c->vram, a, sizeof(a)));
	print_pool_table(stdout, c->pools, c->count);
}

static void json_client(struct json *j, const struct sysfs_client *c)
{
	uint32_t i;

	json_object_begin(j, NULL);
	json_u64(j, "id", c->id);
	json_u64(j, "pid", (uint64_t)c->pid);
	json_string(j, "comm", c->comm);
	json_u64(j, "generation", c->generation);
	json_string(j, "persistent_mode", c->persistent_mode);
	json_u64(j, "vram", c->vram);
	json_array_begin(j, "pools");
	for (i = 0; i < c->count; i++)
		json_pool_status(j, &c->pools[i]);
	json_array_end(j);
	json_object_end(j);
}

/* The backend name vrampool_backend_name() gives, from the device's bus. */
const char *backend_of(const char *bus)
{
	return vrampool_backend_name(vrampool_backend_of_bus(bus));
}

/* One device: its header and clients. Returns an exit code. */
static int stat_device(const char *path, struct json *j)
{
	char dev[PATH_MAX], clients[PATH_MAX], name[64], bus[64];
	struct sysfs_client c;
	uint64_t *ids;
	int n, i, ret;

	ret = device_dir(path, dev, sizeof(dev));
	if (ret) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path,
			ret == -ENODEV ? "not a vrampool device" : strerror(-ret));
		return ret == -ENODEV || ret == -ENOENT ? EXIT_NODEV : EXIT_FAILED;
	}
	path_fmt(clients, sizeof(clients), "%s/vrampool/clients", dev);
	ids = calloc(MAX_ENTRIES, sizeof(*ids));
	if (!ids)
		return EXIT_FAILED;
	n = numeric_entries(clients, ids, MAX_ENTRIES);
	if (n < 0) {
		fprintf(stderr, "vrampoolctl: %s: cannot read %s: %s%s\n", path, clients,
			strerror(-n),
			n == -ENOENT ? " (this vrampool module has no per-client sysfs folders)" :
			n == -EACCES ? " (only root lists the clients)" : "");
		free(ids);
		return EXIT_FAILED;
	}

	link_name(dev, "", name, sizeof(name));
	link_name(dev, "subsystem", bus, sizeof(bus));
	if (j) {
		json_object_begin(j, NULL);
		json_string(j, "path", path);
		json_string(j, "name", name);
		json_string(j, "backend", backend_of(bus));
		json_array_begin(j, "clients");
	} else {
		printf("%s (%s, %s): %d client%s\n", path, name, backend_of(bus), n,
		       n == 1 ? "" : "s");
	}
	for (i = 0; i < n; i++) {
		if (read_client(clients, ids[i], &c))
			continue;	/* closed meanwhile */
		if (j)
			json_client(j, &c);
		else
			print_client(&c);
		free(c.pools);
	}
	if (j) {
		json_array_end(j);
		json_object_end(j);
	}
	free(ids);
	return EXIT_OK;
}

int stat_all(const char *path, bool json)
{
	char paths[MAX_DEVICES][VRAMPOOL_NAME_MAX];
	int count, i, ret = EXIT_OK, r;
	struct json j;

	/* With no device, an empty list (and exit 3). */
	count = device_paths(path, paths, MAX_DEVICES);
	if (count == -EXIT_NODEV) {
		count = 0;
		ret = EXIT_NODEV;
	} else if (count < 0) {
		return -count;
	}
	if (json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_array_begin(&j, "devices");
	}
	for (i = 0; i < count; i++) {
		r = stat_device(paths[i], json ? &j : NULL);
		if (r)
			ret = r;
	}
	if (json) {
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inspection, kernel side, on each backend (the first device of each):
 *
 *  - <device>/vrampool/: every value equals GET_PARAM; client_count counts
 *    open files;
 *  - clients/<id>/ (the id is fdinfo's drm-client-id): pid, comm,
 *    generation, persistent_mode and vram against getpid(), the task's
 *    name, POOL_QUERY and fdinfo;
 *  - fdinfo: drm-driver, drm-client-id, drm-total-vram/drm-resident-vram;
 *  - clients/<id>/pools/<index>/: the folder lists exactly the layout's
 *    indexes and 255, and every file equals POOL_QUERY ("none" exactly
 *    where the type lacks the field or the optional field is absent), for
 *    the default layout and installed ones, under a mix of allocations,
 *    across installs that shrink, grow or are refused;
 *  - debugfs clients: a sliced page's exact used and free ranges;
 *  - readers of every clients/ file racing with opens, closes, installs
 *    and allocations, for a bounded time;
 *  - a client folder goes with the last reference to its file, also when
 *    its process is killed holding allocations.
 *
 * The numbers assume the module defaults (alignment 256, sliced pools
 * allowed): the fixture checks them.
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
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_alloc_util.h"
#include "vrampool_layout_lib.h"

#define ALIGN		256ULL
#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT
#define P255		DRM_VRAMPOOL_PERSISTENT_POOL
/* The kernel keeps TASK_COMM_LEN - 1 characters of a task's name. */
#define COMM_MAX	15
/* A sysfs value, and a listing of one folder. */
#define VAL_MAX		256
#define NAMES_MAX	300
#define NAME_LEN	48
/* Paths: a folder, a path in it, a path in that (sized for -Wformat-truncation). */
#define DIR_LEN		512
#define PATH_LEN	1024
#define FILE_LEN	2048

/* ---- Reading sysfs and fdinfo -------------------------------------------- */

/*
 * A whole sysfs file: 0 or -errno. The value is returned without its
 * newline; a file that is not exactly one line is -EBADMSG.
 */
static int sys_read(const char *path, char *buf, size_t len)
{
	char raw[VAL_MAX];
	size_t n;
	int ret;

	ret = vp_read_file(path, raw, sizeof(raw));
	if (ret)
		return ret;
	n = strlen(raw);
	if (!n || raw[n - 1] != '\n' || memchr(raw, '\n', n - 1))
		return -EBADMSG;
	raw[n - 1] = '\0';
	snprintf(buf, len, "%s", raw);
	return 0;
}

static int parse_u64_exact(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EBADMSG;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EBADMSG;
	/* Canonical: no leading zero. */
	if (s[0] == '0' && s[1])
		return -EBADMSG;
	return 0;
}

static int sys_read_u64(const char *path, uint64_t *v)
{
	char buf[VAL_MAX];
	int ret = sys_read(path, buf, sizeof(buf));

	return ret ? ret : parse_u64_exact(buf, v);
}

/* <device>/vrampool[/<file>] */
static void dev_path(const struct vp_device *dev, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/device/vrampool%s%s", dev->sysfs, file ? "/" : "", file ? file : "");
}

static void client_path(const struct vp_device *dev, uint64_t id, char *buf, size_t len)
{
	snprintf(buf, len, "%s/device/vrampool/clients/%" PRIu64, dev->sysfs, id);
}

static uint64_t dev_u64(const struct vp_device *dev, const char *file)
{
	char path[PATH_LEN];
	uint64_t v;

	dev_path(dev, file, path, sizeof(path));
	return sys_read_u64(path, &v) ? UINT64_MAX : v;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * The value of @key in /proc/self/fdinfo/<fd>: 0, -ENOENT when the key is
 * missing, -EEXIST when it appears twice.
 */
static int fdinfo_get(int fd, const char *key, char *buf, size_t len)
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

/* A drm-*-<region> size as fdinfo prints it: "N", "N KiB", "N MiB" or "N GiB". */
static int parse_fdinfo_size(const char *s, uint64_t *bytes)
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
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*bytes = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EBADMSG;
}

static int fdinfo_size(int fd, const char *key, uint64_t *bytes)
{
	char buf[VAL_MAX];
	int ret = fdinfo_get(fd, key, buf, sizeof(buf));

	return ret ? ret : parse_fdinfo_size(buf, bytes);
}

static int client_id_of(int fd, uint64_t *id)
{
	char buf[VAL_MAX];
	int ret = fdinfo_get(fd, "drm-client-id", buf, sizeof(buf));

	return ret ? ret : parse_u64_exact(buf, id);
}

/* A folder's entries but . and .., sorted (numbers by value, first). */
struct names {
	int n;
	char v[NAMES_MAX][NAME_LEN];
};

static bool all_digits(const char *s)
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
	bool na = all_digits(a), nb = all_digits(b);

	if (na && nb) {
		unsigned long long x = strtoull(a, NULL, 10), y = strtoull(b, NULL, 10);

		return (x > y) - (x < y);
	}
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
}

static int list_dir(const char *path, struct names *out)
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
		if (out->n == NAMES_MAX || strlen(de->d_name) >= NAME_LEN) {
			closedir(d);
			return -E2BIG;
		}
		strcpy(out->v[out->n++], de->d_name);
	}
	closedir(d);
	qsort(out->v, out->n, sizeof(out->v[0]), cmp_names);
	return 0;
}

static void names_add(struct names *ns, const char *fmt, ...)
{
	va_list ap;

	if (ns->n == NAMES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(ns->v[ns->n++], NAME_LEN, fmt, ap);
	va_end(ap);
}

static bool names_equal(const struct names *a, const struct names *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return false;
	return true;
}

/* "0 1 2 255", cut short when it does not fit. */
static const char *names_str(const struct names *ns, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < ns->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? " " : "", ns->v[i]);
	return buf;
}

/* ---- What the folders must hold ------------------------------------------ */

static const char *const dev_files[] = {
	"alignment", "client_count", "clients", "exclusive_memory_only", "max_page_size",
	"vram_in_use", "vram_size",
};

static const char *const client_files[] = {
	"comm", "generation", "persistent_mode", "pid", "pools", "vram",
};

static const char *const mode_names[] = {
	[DRM_VRAMPOOL_PERSISTENT_ENABLED] = "enabled",
	[DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH] = "size-match",
	[DRM_VRAMPOOL_PERSISTENT_DISABLED] = "disabled",
	[DRM_VRAMPOOL_PERSISTENT_ENFORCED] = "enforced",
};

static const char *mode_name(uint32_t mode)
{
	return mode < ARRAY_SIZE(mode_names) ? mode_names[mode] : "?";
}

/* The name a task gets from its program, as the kernel truncates it. */
static void comm_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", COMM_MAX, name);
}

/* ---- The fixture --------------------------------------------------------- */

FIXTURE(sysfs) {
	int fd;
	struct vp_device dev;
	uint64_t id;		/* the fixture client's drm-client-id */
	char cdir[DIR_LEN];	/* its clients/<id> */
	uint64_t vram_size;
	uint64_t vram_start;	/* device VRAM in use at the start */
	uint64_t clients_start;	/* client_count at the start, this client in */
};

VP_BACKEND_VARIANTS(sysfs);

FIXTURE_SETUP(sysfs)
{
	uint64_t v;
	int ret;

	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	vpa_require_alignment(_metadata, self->fd, &self->dev, ALIGN,
			      "these tests expect the default alignment");
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY, &v));
	ASSERT_EQ(0u, v) TH_LOG("%s: these tests install sliced pools", self->dev.name);
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram_size));
	ASSERT_LE(32 * MiB, self->vram_size) TH_LOG("%s: too small for the mix", self->dev.name);
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
	ret = client_id_of(self->fd, &self->id);
	ASSERT_EQ(0, ret) TH_LOG("drm-client-id of %s: %s", self->dev.path, strerror(-ret));
	client_path(&self->dev, self->id, self->cdir, sizeof(self->cdir));
	self->clients_start = dev_u64(&self->dev, "client_count");
	ASSERT_NE(UINT64_MAX, self->clients_start) TH_LOG("%s: client_count", self->dev.name);
	ASSERT_LE(1u, self->clients_start);
}

FIXTURE_TEARDOWN(sysfs)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* ---- Checks -------------------------------------------------------------- */

/* The folder @path holds exactly @want (sorted as list_dir() sorts). */
static void expect_listing(struct __test_metadata *_metadata, const char *path,
			   const char *const *want, size_t n, const char *when)
{
	static struct names got, exp;
	char a[1024], b[1024];
	size_t i;
	int ret;

	ret = list_dir(path, &got);
	ASSERT_EQ(0, ret) TH_LOG("%s: list %s: %s", when, path, strerror(-ret));
	exp.n = 0;
	for (i = 0; i < n; i++)
		names_add(&exp, "%s", want[i]);
	qsort(exp.v, exp.n, sizeof(exp.v[0]), cmp_names);
	EXPECT_TRUE(names_equal(&exp, &got)) {
		TH_LOG("%s: %s holds [%s], want [%s]", when, path, names_str(&got, a, sizeof(a)),
		       names_str(&exp, b, sizeof(b)));
	}
}

/* @path reads exactly @want. */
static void expect_value(struct __test_metadata *_metadata, const char *path, const char *want,
			 const char *when)
{
	char got[VAL_MAX];
	int ret = sys_read(path, got, sizeof(got));

	ASSERT_EQ(0, ret) TH_LOG("%s: read %s: %s", when, path, strerror(-ret));
	EXPECT_STREQ(want, got) TH_LOG("%s: %s", when, path);
}

static void expect_u64(struct __test_metadata *_metadata, const char *path, uint64_t want,
		       const char *when)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, want);
	expect_value(_metadata, path, buf, when);
}

/* @dir/@file reads exactly @want, or the number @want. */
static void expect_file(struct __test_metadata *_metadata, const char *dir, const char *file,
			const char *want, const char *when)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	expect_value(_metadata, path, want, when);
}

static void expect_file_u64(struct __test_metadata *_metadata, const char *dir, const char *file,
			    uint64_t want, const char *when)
{
	char path[PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	expect_u64(_metadata, path, want, when);
}

/*
 * clients/<id>/ of @fd: its files, pid and comm as given, generation,
 * persistent_mode and vram as POOL_QUERY says, vram as fdinfo says.
 */
static void expect_client_matches(struct __test_metadata *_metadata, const char *cdir, int fd,
				  pid_t pid, const char *comm, const char *when)
{
	struct drm_vrampool_pool_query q;
	uint64_t total, resident;
	int ret;

	expect_listing(_metadata, cdir, client_files, ARRAY_SIZE(client_files), when);
	ret = vpa_query_head(fd, &q);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", when, strerror(-ret));

	expect_file_u64(_metadata, cdir, "pid", (uint64_t)pid, when);
	expect_file(_metadata, cdir, "comm", comm, when);
	expect_file_u64(_metadata, cdir, "generation", q.generation, when);
	expect_file(_metadata, cdir, "persistent_mode", mode_name(q.persistent_mode), when);
	expect_file_u64(_metadata, cdir, "vram", q.vram_in_use, when);

	ret = fdinfo_size(fd, "drm-total-vram", &total);
	ASSERT_EQ(0, ret) TH_LOG("%s: fdinfo drm-total-vram: %s", when, strerror(-ret));
	ret = fdinfo_size(fd, "drm-resident-vram", &resident);
	ASSERT_EQ(0, ret) TH_LOG("%s: fdinfo drm-resident-vram: %s", when, strerror(-ret));
	EXPECT_EQ(q.vram_in_use, total) TH_LOG("%s: fdinfo drm-total-vram", when);
	EXPECT_EQ(q.vram_in_use, resident) TH_LOG("%s: fdinfo drm-resident-vram", when);
}

/* This process's name as the kernel keeps it. */
static void my_comm(char *buf, size_t len)
{
	comm_of(program_invocation_short_name, buf, len);
}

/* Device VRAM in use by sysfs and by GET_PARAM, both @want. */
static void expect_device_vram(struct __test_metadata *_metadata, const struct vp_device *dev,
			       int fd, uint64_t want, const char *when)
{
	EXPECT_EQ(want, vpa_vram(fd)) TH_LOG("%s: GET_PARAM VRAM_IN_USE", when);
	EXPECT_EQ(want, dev_u64(dev, "vram_in_use")) TH_LOG("%s: sysfs vram_in_use", when);
}

/* ---- The device folder --------------------------------------------------- */

static const struct {
	const char *file;
	uint32_t param;
} dev_params[] = {
	{ "vram_size", DRM_VRAMPOOL_PARAM_VRAM_SIZE },
	{ "vram_in_use", DRM_VRAMPOOL_PARAM_VRAM_IN_USE },
	{ "alignment", DRM_VRAMPOOL_PARAM_ALIGNMENT },
	{ "max_page_size", DRM_VRAMPOOL_PARAM_MAX_PAGE_SIZE },
	{ "exclusive_memory_only", DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY },
};

static void expect_device_folder(struct __test_metadata *_metadata, const struct vp_device *dev,
				 int fd, const char *when)
{
	char path[PATH_LEN];
	uint64_t param;
	unsigned int i;
	int ret;

	dev_path(dev, NULL, path, sizeof(path));
	expect_listing(_metadata, path, dev_files, ARRAY_SIZE(dev_files), when);
	for (i = 0; i < ARRAY_SIZE(dev_params); i++) {
		ret = vp_get_param(fd, dev_params[i].param, &param);
		ASSERT_EQ(0, ret) TH_LOG("%s: GET_PARAM %u: %s", when, dev_params[i].param,
					 strerror(-ret));
		dev_path(dev, dev_params[i].file, path, sizeof(path));
		expect_u64(_metadata, path, param, when);
	}
}

/* Every value equals GET_PARAM, VRAM in use also while a page is held. */
TEST_F(sysfs, device_folder_matches_get_param)
{
	struct drm_vrampool_pool_entry e = vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT);
	struct drm_vrampool_alloc a;

	expect_device_folder(_metadata, &self->dev, self->fd, "at the start");
	INSTALL_OK(self->fd, &e, 1, "sliced{64 KiB}");
	ALLOC_OK(self->fd, 1000, 0, &a, "1000");
	expect_device_folder(_metadata, &self->dev, self->fd, "with a 64 KiB page");
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start + 64 * KiB,
			   "with a 64 KiB page");
	FREE_OK(self->fd, a.handle, "1000");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_device_folder(_metadata, &self->dev, self->fd, "after the cleanup");
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "after the cleanup");
}

/* A TEST() without a fixture leaves the harness's variant parameter unused. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
/* Every vrampool device has its folder, equal to GET_PARAM, the small PCI one too. */
TEST(every_device_folder_matches_get_param)
{
	struct vp_device devs[VP_MAX_DEVICES];
	bool platform = false, pci = false;
	char when[160];
	int n, i, fd;

	n = vp_enumerate(devs, VP_MAX_DEVICES);
	ASSERT_LT(0, n) TH_LOG("no vrampool device: %s", strerror(n < 0 ? -n : ENODEV));
	for (i = 0; i < n; i++) {
		uint64_t before = dev_u64(&devs[i], "client_count");

		platform |= devs[i].backend == VP_BACKEND_PLATFORM;
		pci |= devs[i].backend == VP_BACKEND_PCI;
		snprintf(when, sizeof(when), "%.63s (%.63s)", devs[i].name, devs[i].path);
		fd = vp_open_device(&devs[i]);
		ASSERT_LE(0, fd) TH_LOG("%s: open: %s", when, strerror(-fd));
		expect_device_folder(_metadata, &devs[i], fd, when);
		EXPECT_NE(UINT64_MAX, before) TH_LOG("%s: client_count", when);
		EXPECT_EQ(before + 1, dev_u64(&devs[i], "client_count")) TH_LOG("%s", when);
		close(fd);
		EXPECT_EQ(before, dev_u64(&devs[i], "client_count")) TH_LOG("%s: closed", when);
	}
	EXPECT_TRUE(platform && pci) TH_LOG("the VM has a device of each backend");
}
#pragma GCC diagnostic pop

/* client_count counts open files: not descriptors, not processes. */
TEST_F(sysfs, client_count_counts_open_files)
{
	uint64_t base = self->clients_start;
	int fds[3], dupfd, i, status;
	pid_t pid;

	for (i = 0; i < 3; i++) {
		fds[i] = vp_open_device(&self->dev);
		ASSERT_LE(0, fds[i]) TH_LOG("open %d: %s", i, strerror(-fds[i]));
		EXPECT_EQ(base + i + 1, dev_u64(&self->dev, "client_count"))
			TH_LOG("%d opened", i + 1);
	}
	dupfd = dup(fds[0]);
	ASSERT_LE(0, dupfd);
	EXPECT_EQ(base + 3, dev_u64(&self->dev, "client_count")) TH_LOG("a dup() is no new file");

	/* A child sharing the files is no new client either. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(dev_u64(&self->dev, "client_count") == base + 3 ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("the child read another count");
	EXPECT_EQ(base + 3, dev_u64(&self->dev, "client_count")) TH_LOG("after the child exited");

	close(fds[0]);
	EXPECT_EQ(base + 3, dev_u64(&self->dev, "client_count")) TH_LOG("the dup() holds file 0");
	close(dupfd);
	EXPECT_EQ(base + 2, dev_u64(&self->dev, "client_count")) TH_LOG("file 0 closed");
	close(fds[1]);
	close(fds[2]);
	EXPECT_EQ(base, dev_u64(&self->dev, "client_count")) TH_LOG("all closed");
}

/* ---- Client folders ------------------------------------------------------ */

/* Found by drm-client-id; pid, comm, generation, mode and vram of a new client. */
TEST_F(sysfs, client_folder_of_a_new_file)
{
	char comm[32], proc_comm[32];
	int ret;

	ASSERT_TRUE(exists(self->cdir)) TH_LOG("no %s for drm-client-id %" PRIu64, self->cdir,
					       self->id);
	my_comm(comm, sizeof(comm));
	ret = sys_read("/proc/self/comm", proc_comm, sizeof(proc_comm));
	ASSERT_EQ(0, ret);
	EXPECT_STREQ(comm, proc_comm) TH_LOG("the kernel's name for %s",
					     program_invocation_short_name);
	EXPECT_EQ(COMM_MAX, (int)strlen(comm)) TH_LOG("the program name is truncated");
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, "new client");
	expect_file(_metadata, self->cdir, "generation", "1", "new client");
	expect_file(_metadata, self->cdir, "persistent_mode", "enabled", "new client");
	expect_file(_metadata, self->cdir, "vram", "0", "new client");
}

/*
 * A child the parent holds while it looks: the child writes to up[1] when
 * it is ready, then waits for a byte on down[0].
 */
struct held_child {
	pid_t pid;
	int up[2], down[2];
};

/* fork() with both pipes, each side closing the ends it does not use: 0 in the child. */
static pid_t held_fork(struct __test_metadata *_metadata, struct held_child *h)
{
	ASSERT_EQ(0, pipe(h->up));
	ASSERT_EQ(0, pipe(h->down));
	h->pid = fork();
	ASSERT_LE(0, h->pid);
	close(h->pid ? h->up[1] : h->up[0]);
	close(h->pid ? h->down[0] : h->down[1]);
	return h->pid;
}

/* Let the child go; it must exit with 0. */
static void held_release(struct __test_metadata *_metadata, struct held_child *h)
{
	char c = 0;
	int status;

	EXPECT_EQ(1, write(h->down[1], &c, 1));
	ASSERT_EQ(h->pid, waitpid(h->pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("child status %#x", status);
	close(h->up[0]);
	close(h->down[1]);
}

/*
 * A child that opens the device has its own folder with its pid and its
 * name (set with PR_SET_NAME, truncated to 15 characters); the folder goes
 * when the child exits.
 */
TEST_F(sysfs, child_client_shows_the_child)
{
	static const char name[] = "sysfs-child-with-a-long-name";
	char cdir[DIR_LEN], comm[32], c = 0;
	struct held_child h;
	uint64_t id = 0;

	if (held_fork(_metadata, &h) == 0) {
		int fd;

		if (prctl(PR_SET_NAME, name, 0, 0, 0))
			_exit(1);
		fd = vp_open_device(&self->dev);
		if (fd < 0 || client_id_of(fd, &id))
			_exit(2);
		if (write(h.up[1], &id, sizeof(id)) != sizeof(id))
			_exit(3);
		/* Hold the file until the parent has looked. */
		if (read(h.down[0], &c, 1) != 1)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ((ssize_t)sizeof(id), read(h.up[0], &id, sizeof(id))) TH_LOG("the child failed");
	EXPECT_NE(self->id, id) TH_LOG("the child's file has its own client id");
	client_path(&self->dev, id, cdir, sizeof(cdir));
	comm_of(name, comm, sizeof(comm));
	EXPECT_STREQ("sysfs-child-wit", comm);
	expect_file_u64(_metadata, cdir, "pid", (uint64_t)h.pid, "the child's client");
	expect_file(_metadata, cdir, "comm", comm, "the child's client");
	expect_file(_metadata, cdir, "generation", "1", "the child's client");
	/* Ours is unchanged. */
	my_comm(comm, sizeof(comm));
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, "the parent's");

	held_release(_metadata, &h);
	EXPECT_FALSE(exists(cdir)) TH_LOG("%s outlived the child", cdir);
}

/*
 * The DRM core hands a file's pid over to the process that uses it (an
 * ioctl on an inherited descriptor); pid and comm follow it, and come
 * back with the parent's next ioctl.
 */
TEST_F(sysfs, pid_and_comm_follow_the_process_using_the_file)
{
	char comm[32], c = 0;
	struct held_child h;

	if (held_fork(_metadata, &h) == 0) {
		uint64_t v;

		if (prctl(PR_SET_NAME, "sysfs-inherit", 0, 0, 0))
			_exit(1);
		if (vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &v))
			_exit(2);
		if (write(h.up[1], &c, 1) != 1 || read(h.down[0], &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(1, read(h.up[0], &c, 1)) TH_LOG("the child failed");
	expect_file_u64(_metadata, self->cdir, "pid", (uint64_t)h.pid, "the child used the file");
	expect_file(_metadata, self->cdir, "comm", "sysfs-inherit", "the child used the file");

	held_release(_metadata, &h);
	EXPECT_TRUE(exists(self->cdir)) TH_LOG("the parent still holds the file");

	EXPECT_NE(UINT64_MAX, vpa_vram(self->fd));
	my_comm(comm, sizeof(comm));
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm,
			      "the parent used the file again");
}

/*
 * generation follows installs (a TEST_ONLY, a refused and an EBUSY install
 * leave it), persistent_mode follows SET_PERSISTENT_MODE through every mode.
 */
TEST_F(sysfs, generation_and_persistent_mode_follow_the_ioctls)
{
	struct drm_vrampool_pool_entry one = vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT);
	struct drm_vrampool_pool_entry bad = vpa_sliced(0, VPA_ABSENT, VPA_ABSENT);
	static const uint32_t modes[] = {
		DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH, DRM_VRAMPOOL_PERSISTENT_DISABLED,
		DRM_VRAMPOOL_PERSISTENT_ENFORCED, DRM_VRAMPOOL_PERSISTENT_ENABLED,
	};
	struct drm_vrampool_pool_install ins;
	struct drm_vrampool_alloc a;
	char gen[PATH_LEN], mode[PATH_LEN], comm[32];
	uint32_t old;
	unsigned int i;

	snprintf(gen, sizeof(gen), "%s/generation", self->cdir);
	snprintf(mode, sizeof(mode), "%s/persistent_mode", self->cdir);
	my_comm(comm, sizeof(comm));

	INSTALL_OK(self->fd, &one, 1, "first install");
	expect_value(_metadata, gen, "2", "after one install");
	ASSERT_EQ(0, vpa_install_preset(self->fd, DRM_VRAMPOOL_PRESET_SUB_SLICES, &ins));
	expect_value(_metadata, gen, "3", "after a preset");

	vp_req_list(&ins, &one, 1, DRM_VRAMPOOL_INSTALL_TEST_ONLY);
	EXPECT_EQ(0, vp_install(self->fd, &ins));
	expect_value(_metadata, gen, "3", "after a TEST_ONLY install");
	EXPECT_EQ(-EINVAL, vpa_install(self->fd, &bad, 1, &ins));
	expect_value(_metadata, gen, "3", "after a refused install");

	INSTALL_OK(self->fd, &one, 1, "sliced again");
	ALLOC_OK(self->fd, 1000, 0, &a, "1000");
	EXPECT_EQ(-EBUSY, vpa_install(self->fd, &one, 1, &ins));
	expect_value(_metadata, gen, "4", "after an EBUSY install");
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, "after EBUSY");
	FREE_OK(self->fd, a.handle, "1000");

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		ASSERT_EQ(0, vpa_set_mode(self->fd, modes[i], &old));
		expect_value(_metadata, mode, mode_names[modes[i]], "after SET_PERSISTENT_MODE");
		expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm,
				      mode_names[modes[i]]);
	}
	/* A refused mode changes nothing. */
	EXPECT_EQ(-EINVAL, vpa_set_mode(self->fd, 4, NULL));
	expect_value(_metadata, mode, "enabled", "after a refused mode");
	expect_value(_metadata, gen, "4", "modes are no installs");
}

/* vram equals POOL_QUERY's vram_in_use and fdinfo's total and resident VRAM. */
TEST_F(sysfs, client_vram_matches_query_and_fdinfo)
{
	struct drm_vrampool_pool_entry e[] = {
		vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT),
		vpa_exclusive(2 * MiB, VPA_ABSENT),
		vpa_direct(VPA_ABSENT),
	};
	static const struct { uint64_t size; uint32_t flags; } mix[] = {
		{ 1000, 0 }, { 30000, 0 }, { 60000, 0 }, { 1500 * KiB, 0 }, { 3 * MiB, 0 },
		{ 3000, PERSISTENT }, { 5000, PERSISTENT }, { 0, 0 },
	};
	struct drm_vrampool_alloc a[ARRAY_SIZE(mix)];
	char comm[32], when[64];
	unsigned int i;

	my_comm(comm, sizeof(comm));
	INSTALL_OK(self->fd, e, ARRAY_SIZE(e), "sliced, exclusive, direct");
	for (i = 0; i < ARRAY_SIZE(mix); i++) {
		snprintf(when, sizeof(when), "after allocation %u (%" PRIu64 ")", i, mix[i].size);
		ALLOC_OK(self->fd, mix[i].size, mix[i].flags, &a[i], when);
		expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, when);
	}
	EXPECT_LT(0u, dev_u64(&self->dev, "vram_in_use") - self->vram_start);
	for (i = 0; i < ARRAY_SIZE(mix); i += 2) {
		snprintf(when, sizeof(when), "after freeing %u", i);
		FREE_OK(self->fd, a[i].handle, when);
		expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, when);
	}
	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, "after a cleanup");
	for (i = 1; i < ARRAY_SIZE(mix); i += 2)
		FREE_OK(self->fd, a[i].handle, "the rest");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, "all freed");
	expect_file(_metadata, self->cdir, "vram", "0", "all freed and cleaned up");
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "all freed");
}

/* ---- fdinfo -------------------------------------------------------------- */

/*
 * drm-driver is "vrampool"; drm-client-id is unique per open file, shared
 * by dup()ed descriptors and by a child's inherited one; the PCI device
 * names its address in drm-pdev.
 */
TEST_F(sysfs, fdinfo_names_driver_and_client)
{
	uint64_t ids[4], id;
	char buf[VAL_MAX];
	int fds[4], dupfd, i, j, status, ret;
	pid_t pid;

	ASSERT_EQ(0, fdinfo_get(self->fd, "drm-driver", buf, sizeof(buf)));
	EXPECT_STREQ("vrampool", buf);
	ret = fdinfo_get(self->fd, "drm-pdev", buf, sizeof(buf));
	if (variant->backend == VP_BACKEND_PCI) {
		EXPECT_EQ(0, ret) TH_LOG("drm-pdev: %s", strerror(-ret));
		EXPECT_STREQ(self->dev.name, buf);
	} else {
		EXPECT_EQ(-ENOENT, ret) TH_LOG("a platform device has no drm-pdev");
	}

	fds[0] = self->fd;
	ids[0] = self->id;
	for (i = 1; i < 4; i++) {
		fds[i] = vp_open_device(&self->dev);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, client_id_of(fds[i], &ids[i]));
		for (j = 0; j < i; j++)
			EXPECT_NE(ids[j], ids[i]) TH_LOG("files %d and %d share client id", j, i);
		client_path(&self->dev, ids[i], buf, sizeof(buf));
		EXPECT_TRUE(exists(buf)) TH_LOG("no folder for file %d", i);
	}
	dupfd = dup(fds[2]);
	ASSERT_LE(0, dupfd);
	ASSERT_EQ(0, client_id_of(dupfd, &id));
	EXPECT_EQ(ids[2], id) TH_LOG("a dup()ed descriptor is the same file");
	ASSERT_EQ(0, fdinfo_get(dupfd, "drm-driver", buf, sizeof(buf)));
	EXPECT_STREQ("vrampool", buf);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(client_id_of(fds[3], &id) ? 2 : id == ids[3] ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("the child's inherited descriptor: status %#x", status);
	}

	close(dupfd);
	for (i = 1; i < 4; i++)
		close(fds[i]);
}

/* drm-total-vram, exactly as printed. */
static void expect_fdinfo_vram(struct __test_metadata *_metadata, int fd, const char *printed,
			       uint64_t bytes, const char *when)
{
	char buf[VAL_MAX];
	uint64_t v;

	ASSERT_EQ(0, fdinfo_get(fd, "drm-total-vram", buf, sizeof(buf))) TH_LOG("%s", when);
	EXPECT_STREQ(printed, buf) TH_LOG("%s: drm-total-vram", when);
	ASSERT_EQ(0, parse_fdinfo_size(buf, &v));
	EXPECT_EQ(bytes, v) TH_LOG("%s: drm-total-vram in bytes", when);
	ASSERT_EQ(0, fdinfo_get(fd, "drm-resident-vram", buf, sizeof(buf))) TH_LOG("%s", when);
	EXPECT_STREQ(printed, buf) TH_LOG("%s: drm-resident-vram", when);
}

/*
 * drm-total-vram grows by the page's buffer size when an allocation makes a
 * page, not when it fits one already there, and goes back with a cleanup.
 */
TEST_F(sysfs, fdinfo_vram_grows_by_the_page)
{
	struct drm_vrampool_pool_entry e[] = {
		vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT),
		vpa_sliced(1 * MiB, VPA_ABSENT, VPA_ABSENT),
	};
	struct drm_vrampool_alloc a[5];
	char comm[32];
	unsigned int i;

	my_comm(comm, sizeof(comm));
	INSTALL_OK(self->fd, e, ARRAY_SIZE(e), "sliced 64 KiB and 1 MiB");
	expect_fdinfo_vram(_metadata, self->fd, "0", 0, "no page");

	ALLOC_OK(self->fd, 100000, 0, &a[0], "100000");
	EXPECT_EQ(1u, a[0].pool);
	expect_fdinfo_vram(_metadata, self->fd, "1 MiB", 1 * MiB, "a 1 MiB page");
	ALLOC_OK(self->fd, 1000, 0, &a[1], "1000");
	EXPECT_EQ(0u, a[1].pool);
	expect_fdinfo_vram(_metadata, self->fd, "1088 KiB", 1088 * KiB, "and a 64 KiB page");
	ALLOC_OK(self->fd, 2000, 0, &a[2], "2000");
	ALLOC_OK(self->fd, 200000, 0, &a[3], "200000");
	expect_fdinfo_vram(_metadata, self->fd, "1088 KiB", 1088 * KiB, "both fit the pages");
	ALLOC_OK(self->fd, 3000, PERSISTENT, &a[4], "3000 persistent");
	expect_fdinfo_vram(_metadata, self->fd, "1092 KiB", 1092 * KiB,
			   "and a persistent buffer of one CPU page");
	expect_client_matches(_metadata, self->cdir, self->fd, getpid(), comm, "four pages");

	for (i = 0; i < ARRAY_SIZE(a); i++)
		FREE_OK(self->fd, a[i].handle, "all");
	expect_fdinfo_vram(_metadata, self->fd, "1092 KiB", 1092 * KiB, "freed, pages kept");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_fdinfo_vram(_metadata, self->fd, "0", 0, "after a cleanup");
}

/* ---- Pool folders -------------------------------------------------------- */

enum pool_file {
	PF_TYPE, PF_PAGE_SIZE, PF_MAX_SLICE_SIZE, PF_MAX_POOL_SIZE, PF_MAX_ALLOC_SIZE,
	PF_RECLAIM_AT, PF_DEALLOC_PERIOD, PF_PAGES, PF_PAGES_PEAK, PF_ALLOCATIONS,
	PF_BYTES_IN_USE, PF_PADDING, PF_RESERVED, PF_LARGEST_ALLOC, PF_COUNT,
};

static const char *const pool_files[PF_COUNT] = {
	[PF_TYPE] = "type",
	[PF_PAGE_SIZE] = "page_size",
	[PF_MAX_SLICE_SIZE] = "max_slice_size",
	[PF_MAX_POOL_SIZE] = "max_pool_size",
	[PF_MAX_ALLOC_SIZE] = "max_alloc_size",
	[PF_RECLAIM_AT] = "reclaim_at",
	[PF_DEALLOC_PERIOD] = "dealloc_period",
	[PF_PAGES] = "pages",
	[PF_PAGES_PEAK] = "pages_peak",
	[PF_ALLOCATIONS] = "allocations",
	[PF_BYTES_IN_USE] = "bytes_in_use",
	[PF_PADDING] = "padding",
	[PF_RESERVED] = "reserved",
	[PF_LARGEST_ALLOC] = "largest_alloc",
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

/* The statistic a file from PF_PAGES on shows. */
static uint64_t pool_stat(const struct drm_vrampool_pool_status *st, enum pool_file f)
{
	switch (f) {
	case PF_PAGES:
		return st->pages;
	case PF_PAGES_PEAK:
		return st->pages_peak;
	case PF_ALLOCATIONS:
		return st->allocations;
	case PF_BYTES_IN_USE:
		return st->bytes_in_use;
	case PF_PADDING:
		return st->padding;
	case PF_RESERVED:
		return st->reserved_bytes;
	default:
		return st->largest_alloc;
	}
}

/* What pools/<index>/<file> must read for a POOL_QUERY status. */
static void expected_pool_file(const struct drm_vrampool_pool_status *st, enum pool_file f,
			       char *buf, size_t len)
{
	const struct drm_vrampool_pool_entry *c = &st->config;

	switch (f) {
	case PF_TYPE:
		snprintf(buf, len, "%s", vp_pool_type_str(c->type));
		return;
	case PF_PAGE_SIZE:
		return config_str(c, T(SLICED), 0, c->page_size, buf, len);
	case PF_MAX_SLICE_SIZE:
		return config_str(c, T(SLICED), DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE,
				  c->max_slice_size, buf, len);
	case PF_MAX_POOL_SIZE:
		return config_str(c, T(SLICED), DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
				  c->max_pool_size, buf, len);
	case PF_MAX_ALLOC_SIZE:
		return config_str(c, T(EXCLUSIVE), 0, c->max_alloc_size, buf, len);
	case PF_RECLAIM_AT:
		return config_str(c, T(DIRECT), DRM_VRAMPOOL_ENTRY_RECLAIM_AT, c->reclaim_at,
				  buf, len);
	case PF_DEALLOC_PERIOD:
		return config_str(c, T(SLICED) | T(EXCLUSIVE), DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD,
				  c->dealloc_period, buf, len);
	default:
		snprintf(buf, len, "%" PRIu64, pool_stat(st, f));
		return;
	}
}

/* One POOL_QUERY, whole: the number of statuses (dynamic pools + 1). */
static struct drm_vrampool_pool_status qst[VPA_MAX_STATUS];

static int query_all(struct __test_metadata *_metadata, int fd, struct drm_vrampool_pool_query *q,
		     const char *when)
{
	int n = vpa_query(fd, qst, VPA_MAX_STATUS, q);

	EXPECT_LT(0, n) TH_LOG("%s: POOL_QUERY: %s", when, strerror(-n));
	if (n <= 0)
		return 0;
	EXPECT_EQ(q->num_pools + 1, (uint32_t)n) TH_LOG("%s: POOL_QUERY's answer", when);
	EXPECT_EQ((uint32_t)P255, qst[n - 1].index)
		TH_LOG("%s: the last status is the persistent pool", when);
	return n;
}

/*
 * pools/ of the client of @fd (folder @cdir) against POOL_QUERY: exactly
 * 0..num_pools-1 and 255, each with exactly the pool files, each file the
 * status's value or "none".
 */
static void expect_pools_match(struct __test_metadata *_metadata, const char *cdir, int fd,
			       const char *when)
{
	static struct names got, exp;
	struct drm_vrampool_pool_query q;
	char path[PATH_LEN], a[1024], b[1024], want[VAL_MAX], val[VAL_MAX];
	int n, i, f, ret;

	n = query_all(_metadata, fd, &q, when);
	ASSERT_LT(0, n);
	exp.n = 0;
	for (i = 0; i < n; i++)
		names_add(&exp, "%u", qst[i].index);
	snprintf(path, sizeof(path), "%s/pools", cdir);
	ret = list_dir(path, &got);
	ASSERT_EQ(0, ret) TH_LOG("%s: list %s: %s", when, path, strerror(-ret));
	ASSERT_TRUE(names_equal(&exp, &got)) {
		TH_LOG("%s: %s holds [%s]; POOL_QUERY (generation %" PRIu64 ") has [%s]", when,
		       path, names_str(&got, a, sizeof(a)), (uint64_t)q.generation,
		       names_str(&exp, b, sizeof(b)));
	}
	for (i = 0; i < n; i++) {
		char pdir[PATH_LEN], file[FILE_LEN];

		snprintf(pdir, sizeof(pdir), "%s/pools/%u", cdir, qst[i].index);
		expect_listing(_metadata, pdir, pool_files, PF_COUNT, when);
		for (f = 0; f < PF_COUNT; f++) {
			snprintf(file, sizeof(file), "%s/%s", pdir, pool_files[f]);
			expected_pool_file(&qst[i], f, want, sizeof(want));
			ret = sys_read(file, val, sizeof(val));
			EXPECT_EQ(0, ret) TH_LOG("%s: read %s: %s", when, file, strerror(-ret));
			if (ret)
				continue;
			EXPECT_STREQ(want, val) {
				TH_LOG("%s: pool %u (%s) %s", when, qst[i].index,
				       vp_entry_str(&qst[i].config, a, sizeof(a)), pool_files[f]);
			}
		}
	}
}

/* The default layout: every folder equals POOL_QUERY, and POOL_QUERY the preset. */
TEST_F(sysfs, default_layout_pools_match_query)
{
	struct drm_vrampool_pool_entry want[VP_LAYOUT_MAX];
	struct drm_vrampool_pool_query q;
	struct vp_props props;
	char why[256];
	uint32_t n, i;
	int got;

	expect_pools_match(_metadata, self->cdir, self->fd, "default layout");
	ASSERT_EQ(0, vp_read_props(self->fd, &props));
	n = vp_expect_sub_slices(&props, want);
	got = query_all(_metadata, self->fd, &q, "default layout");
	ASSERT_EQ(n + 1, (uint32_t)got);
	for (i = 0; i < n; i++)
		EXPECT_EQ(-1, vp_entries_diff(&want[i], &qst[i].config, 1, why, sizeof(why)))
			TH_LOG("default pool %u: %s", i, why);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_POOL_PERSISTENT, qst[n].config.type);
}

/*
 * The mix: every pool type, every optional field present somewhere and
 * absent elsewhere; a capped sliced pool that fills and passes requests on.
 */
static const struct drm_vrampool_pool_entry *mix_layout(uint32_t *n)
{
	static struct drm_vrampool_pool_entry e[6];

	e[0] = vpa_exclusive(0, VPA_ABSENT);
	e[1] = vpa_sliced(64 * KiB, 16 * KiB, 256 * KiB);
	e[1].flags |= DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD;
	e[1].dealloc_period = 100;
	e[2] = vpa_sliced(1 * MiB, VPA_ABSENT, VPA_ABSENT);
	e[3] = vpa_exclusive(2 * MiB, 5000);
	e[4] = vpa_exclusive(4 * MiB - 100, VPA_ABSENT);	/* aligned up */
	e[5] = vpa_direct(3 * MiB);
	*n = ARRAY_SIZE(e);
	return e;
}

struct mix_alloc {
	uint64_t size;
	uint32_t flags;
	uint32_t pool;		/* where it must land */
};

static const struct mix_alloc mix_allocs[] = {
	{ 0, 0, 0 },
	/*
	 * Pool 1 (four 64 KiB pages) takes 1000 and 5000, then fifteen 16 KiB
	 * slices (three in page 0, four in each other page); the sixteenth
	 * passes on to pool 2.
	 */
	{ 1000, 0, 1 }, { 5000, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 },
	{ 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 1 }, { 16 * KiB, 0, 2 },
	{ 100000, 0, 2 }, { 700000, 0, 2 }, { 900000, 0, 2 },
	{ 1500 * KiB, 0, 3 }, { 2 * MiB, 0, 3 },
	{ 2 * MiB + 1, 0, 4 }, { 3 * MiB, 0, 4 },
	{ 4 * MiB + 1, 0, 5 }, { 4 * MiB + 1, 0, 5 }, { 5 * MiB, 0, 5 },
	{ 3000, PERSISTENT, P255 }, { 1 * MiB + 1, PERSISTENT, P255 }, { 0, PERSISTENT, P255 },
};

/* Install the mix layout and allocate the mix, checking where each lands. */
static void mix_fill(struct __test_metadata *_metadata, int fd, struct drm_vrampool_alloc *a)
{
	const struct drm_vrampool_pool_entry *e;
	unsigned int i;
	char what[64];
	uint32_t n;

	e = mix_layout(&n);
	INSTALL_OK(fd, e, n, "the mix layout");
	for (i = 0; i < ARRAY_SIZE(mix_allocs); i++) {
		snprintf(what, sizeof(what), "allocation %u (%" PRIu64 "%s)", i, mix_allocs[i].size,
			 mix_allocs[i].flags ? ", persistent" : "");
		ALLOC_OK(fd, mix_allocs[i].size, mix_allocs[i].flags, &a[i], what);
		EXPECT_EQ(mix_allocs[i].pool, a[i].pool) TH_LOG("%s", what);
	}
}

/* An installed mix under load: compare, free some, reuse, clean up, compare. */
TEST_F(sysfs, installed_pools_match_query_under_load)
{
	struct drm_vrampool_alloc a[ARRAY_SIZE(mix_allocs)], b;
	unsigned int i;

	expect_pools_match(_metadata, self->cdir, self->fd, "before the install");
	mix_fill(_metadata, self->fd, a);
	expect_pools_match(_metadata, self->cdir, self->fd, "the mix allocated");

	for (i = 0; i < ARRAY_SIZE(mix_allocs); i += 2)
		FREE_OK(self->fd, a[i].handle, "every other");
	expect_pools_match(_metadata, self->cdir, self->fd, "every other freed");

	/* Reuse: free slices, free exclusive pages, a direct buffer of the same size. */
	ALLOC_OK(self->fd, 16 * KiB, 0, &b, "16 KiB again");
	ALLOC_OK(self->fd, 1500 * KiB, 0, &a[0], "1.5 MiB again");
	ALLOC_OK(self->fd, 4 * MiB + 1, 0, &a[2], "4 MiB + 1 again");
	expect_pools_match(_metadata, self->cdir, self->fd, "after reuse");

	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_pools_match(_metadata, self->cdir, self->fd, "after a cleanup");

	FREE_OK(self->fd, b.handle, "16 KiB");
	FREE_OK(self->fd, a[0].handle, "1.5 MiB");
	FREE_OK(self->fd, a[2].handle, "4 MiB + 1");
	for (i = 1; i < ARRAY_SIZE(mix_allocs); i += 2)
		FREE_OK(self->fd, a[i].handle, "the rest");
	expect_pools_match(_metadata, self->cdir, self->fd, "all freed");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_pools_match(_metadata, self->cdir, self->fd, "all freed and cleaned up");
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "all freed");
}

static void pools_listing(struct __test_metadata *_metadata, const char *cdir, struct names *ns)
{
	char path[PATH_LEN];
	int ret;

	snprintf(path, sizeof(path), "%s/pools", cdir);
	ret = list_dir(path, ns);
	ASSERT_EQ(0, ret) TH_LOG("list %s: %s", path, strerror(-ret));
}

/* pread at 0 of an open sysfs file: the value now, without its newline. */
static int reread(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/*
 * Installs that shrink the layout remove the surplus folders, installs that
 * grow it add folders, an install refused with EBUSY leaves them; the
 * persistent pool keeps folder 255 and its allocations throughout. A
 * folder stands for a position: a file kept open shows the new pool at its
 * index, and -ENODEV once its index is gone.
 */
TEST_F(sysfs, installs_shrink_and_grow_the_pool_folders)
{
	struct drm_vrampool_pool_entry small[] = {
		vpa_direct(VPA_ABSENT),
		vpa_exclusive(1 * MiB, 3),
	};
	struct drm_vrampool_alloc a[ARRAY_SIZE(mix_allocs)], p, d;
	struct drm_vrampool_pool_install ins;
	static struct names before, after;
	char path[PATH_LEN], val[VAL_MAX], x[1024], y[1024];
	const struct drm_vrampool_pool_entry *mix;
	int type1, type4, ret;
	unsigned int i;
	uint32_t nmix;

	mix = mix_layout(&nmix);
	mix_fill(_metadata, self->fd, a);
	expect_pools_match(_metadata, self->cdir, self->fd, "the mix allocated");

	/* Persistent allocations stay; the dynamic ones must go for an install. */
	for (i = 0; i < ARRAY_SIZE(mix_allocs); i++)
		if (a[i].pool != P255)
			FREE_OK(self->fd, a[i].handle, "a dynamic allocation");

	snprintf(path, sizeof(path), "%s/pools/1/type", self->cdir);
	type1 = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, type1) TH_LOG("open %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/pools/4/type", self->cdir);
	type4 = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, type4) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ(0, reread(type1, val, sizeof(val)));
	EXPECT_STREQ("sliced", val);

	/* Shrink: 6 pools to 2. */
	INSTALL_OK(self->fd, small, ARRAY_SIZE(small), "direct, exclusive");
	pools_listing(_metadata, self->cdir, &after);
	EXPECT_STREQ("0 1 255", names_str(&after, x, sizeof(x))) TH_LOG("after the shrink");
	snprintf(path, sizeof(path), "%s/pools/2", self->cdir);
	EXPECT_FALSE(exists(path)) TH_LOG("%s outlived the shrink", path);
	expect_pools_match(_metadata, self->cdir, self->fd, "after the shrink");
	expect_file(_metadata, self->cdir, "pools/255/allocations", "3",
		    "the persistent allocations live on");

	EXPECT_EQ(0, reread(type1, val, sizeof(val)));
	EXPECT_STREQ("exclusive", val) TH_LOG("an open pools/1/type shows the new pool 1");
	ret = reread(type4, val, sizeof(val));
	EXPECT_EQ(-ENODEV, ret) TH_LOG("an open pools/4/type after the shrink read \"%s\"",
				       ret ? strerror(-ret) : val);
	close(type4);

	/* A grow refused with EBUSY (2 pools to 6): the folders it made go again. */
	ALLOC_OK(self->fd, 40000, 0, &d, "40000 in the direct pool");
	EXPECT_EQ(0u, d.pool);
	pools_listing(_metadata, self->cdir, &before);
	ret = vpa_install(self->fd, mix, nmix, &ins);
	EXPECT_EQ(-EBUSY, ret) TH_LOG("growing install over a live allocation: %s",
				      strerror(-ret));
	pools_listing(_metadata, self->cdir, &after);
	EXPECT_TRUE(names_equal(&before, &after)) {
		TH_LOG("a refused grow changed pools/ from [%s] to [%s]",
		       names_str(&before, x, sizeof(x)), names_str(&after, y, sizeof(y)));
	}
	expect_pools_match(_metadata, self->cdir, self->fd, "after the refused grow");
	FREE_OK(self->fd, d.handle, "40000");

	/* Grow: the exclusive-pages preset, up to 24 pools. */
	ASSERT_EQ(0, vpa_install_preset(self->fd, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, &ins));
	EXPECT_LT(6u, ins.num_pools);
	pools_listing(_metadata, self->cdir, &after);
	EXPECT_EQ((int)ins.num_pools + 1, after.n) {
		TH_LOG("after growing to %u pools: [%s]", ins.num_pools,
		       names_str(&after, x, sizeof(x)));
	}
	expect_pools_match(_metadata, self->cdir, self->fd, "after the grow");
	EXPECT_EQ(0, reread(type1, val, sizeof(val)));
	EXPECT_STREQ("exclusive", val);

	/* A shrink refused with EBUSY (to 2 pools): the folders stay. */
	ALLOC_OK(self->fd, 40000, 0, &d, "40000 in the presets");
	ALLOC_OK(self->fd, 3000, PERSISTENT, &p, "one more persistent");
	expect_pools_match(_metadata, self->cdir, self->fd, "the grown layout in use");
	pools_listing(_metadata, self->cdir, &before);
	ret = vpa_install(self->fd, small, ARRAY_SIZE(small), &ins);
	EXPECT_EQ(-EBUSY, ret) TH_LOG("shrinking install over a live allocation: %s",
				      strerror(-ret));
	pools_listing(_metadata, self->cdir, &after);
	EXPECT_TRUE(names_equal(&before, &after)) {
		TH_LOG("a refused shrink changed pools/ from [%s] to [%s]",
		       names_str(&before, x, sizeof(x)), names_str(&after, y, sizeof(y)));
	}
	expect_pools_match(_metadata, self->cdir, self->fd, "after the refused shrink");

	FREE_OK(self->fd, d.handle, "40000");
	FREE_OK(self->fd, p.handle, "3000 persistent");
	for (i = 0; i < ARRAY_SIZE(mix_allocs); i++)
		if (a[i].pool == P255)
			FREE_OK(self->fd, a[i].handle, "a persistent allocation");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	expect_pools_match(_metadata, self->cdir, self->fd, "all freed");
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "all freed");
	close(type1);
}

/* ---- The debugfs page map ------------------------------------------------ */

/* This client's part of debugfs clients: from its "client <id> " line to the next client. */
static int debugfs_client(const struct vp_device *dev, uint64_t id, char *out, size_t len)
{
	static char text[1 << 16];
	char path[PATH_LEN], head[64], *start, *end;
	int ret;

	ret = vp_debugfs_ready();
	if (!ret)
		ret = vp_debugfs_path(dev, "clients", path, sizeof(path));
	if (!ret)
		ret = vp_read_file(path, text, sizeof(text));
	if (ret)
		return ret;
	snprintf(head, sizeof(head), "client %" PRIu64 " ", id);
	for (start = text; start; start = strchr(start, '\n'), start = start ? start + 1 : NULL)
		if (!strncmp(start, head, strlen(head)))
			break;
	if (!start)
		return -ENOENT;
	end = strstr(start, "\nclient ");
	snprintf(out, len, "%.*s", (int)(end ? end + 1 - start : (long)strlen(start)), start);
	return 0;
}

static void expect_page_map(struct __test_metadata *_metadata, const struct vp_device *dev,
			    uint64_t id, const char *want, const char *when)
{
	char got[4096];
	int ret = debugfs_client(dev, id, got, sizeof(got));

	ASSERT_EQ(0, ret) TH_LOG("%s: debugfs clients: %s", when, strerror(-ret));
	EXPECT_STREQ(want, got) TH_LOG("%s", when);
}

/*
 * After allocations in a sliced pool (first fit, lowest offset; sizes
 * aligned to 256), the client's page map shows each slice and each free
 * range exactly, zero-size allocations in no page, and the persistent pool.
 */
TEST_F(sysfs, debugfs_page_map_shows_slices_and_free_ranges)
{
	struct drm_vrampool_pool_entry e = vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT);
	struct drm_vrampool_alloc a, b, c, d, z, f, g, p;
	char want[2048];
	uint64_t id = self->id;

	INSTALL_OK(self->fd, &e, 1, "sliced{64 KiB}");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 0 pages, 0 allocations\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->dev, id, want, "nothing allocated");

	ALLOC_OK(self->fd, 1000, 0, &a, "1000");	/* 0+1024 */
	ALLOC_OK(self->fd, 4096, 0, &b, "4096");	/* 1024+4096 */
	ALLOC_OK(self->fd, 200, 0, &c, "200");		/* 5120+256 */
	ALLOC_OK(self->fd, 3000, 0, &d, "3000");	/* 5376+3072 */
	ALLOC_OK(self->fd, 0, 0, &z, "0");		/* no space */
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 1 pages, 5 allocations\n"
		 "    page 0 size 65536: used 0+1024 used 1024+4096 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->dev, id, want, "five allocations");

	FREE_OK(self->fd, b.handle, "4096");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 1 pages, 4 allocations\n"
		 "    page 0 size 65536: used 0+1024 free 1024+4096 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->dev, id, want, "the 4096 freed");

	ALLOC_OK(self->fd, 2048, 0, &f, "2048");	/* first fit: 1024+2048 */
	ALLOC_OK(self->fd, 60000, 0, &g, "60000");	/* 60160: a second page */
	ALLOC_OK(self->fd, 3000, PERSISTENT, &p, "3000 persistent");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 2 pages, 6 allocations\n"
		 "    page 0 size 65536: used 0+1024 used 1024+2048 free 3072+2048 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "    page 1 size 65536: used 0+60160 free 60160+5376\n"
		 "  pool 255 persistent: 1 pages, 1 allocations\n"
		 "    page 0 size 3072: used 0+3072\n", id);
	expect_page_map(_metadata, &self->dev, id, want, "a hole refilled, a second page");
	EXPECT_EQ(1024u, f.offset);
	EXPECT_EQ(1u, g.page);

	/* sysfs agrees on the same state. */
	expect_pools_match(_metadata, self->cdir, self->fd, "the mapped state");

	FREE_OK(self->fd, a.handle, "1000");
	FREE_OK(self->fd, c.handle, "200");
	FREE_OK(self->fd, d.handle, "3000");
	FREE_OK(self->fd, z.handle, "0");
	FREE_OK(self->fd, f.handle, "2048");
	FREE_OK(self->fd, p.handle, "3000 persistent");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 2 pages, 1 allocations\n"
		 "    page 0 size 65536: free 0+65536\n"
		 "    page 1 size 65536: used 0+60160 free 60160+5376\n"
		 "  pool 255 persistent: 1 pages, 0 allocations\n"
		 "    page 0 size 3072: free 0+3072\n", id);
	expect_page_map(_metadata, &self->dev, id, want, "one allocation left");
	FREE_OK(self->fd, g.handle, "60000");
}

/* ---- Readers racing with the clients' changes ---------------------------- */

static void clients_path(const struct vp_device *dev, char *buf, size_t len)
{
	snprintf(buf, len, "%s/device/vrampool/clients", dev->sysfs);
}

static bool names_has(const struct names *ns, const char *name)
{
	int i;

	for (i = 0; i < ns->n; i++)
		if (!strcmp(ns->v[i], name))
			return true;
	return false;
}

#define RACE_SECS	3
#define RACE_READERS	3
#define RACE_WRITERS	3
/* How long after the deadline the children may take before it is a hang. */
#define RACE_GRACE_SECS	30

/* What one child did, in memory shared with the test. */
struct race_child {
	uint64_t rounds;	/* readers: walks of clients/; writers: open-close cycles */
	uint64_t reads;		/* files read whole */
	uint64_t vanished;	/* ENOENT / ENODEV met */
	uint64_t installs;
	uint64_t busy;		/* installs refused with EBUSY, as expected */
	uint64_t allocs;
	int errors;
	char error[256];	/* the first */
};

static void race_fail(struct race_child *st, const char *fmt, ...)
{
	va_list ap;

	if (!st->errors++) {
		va_start(ap, fmt);
		vsnprintf(st->error, sizeof(st->error), fmt, ap);
		va_end(ap);
	}
}

static double now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

enum race_kind { RK_PID, RK_COMM, RK_GEN, RK_MODE, RK_U64, RK_TYPE, RK_U64_OR_NONE };

static bool race_value_ok(enum race_kind kind, const char *v)
{
	uint64_t n;
	unsigned int i;

	switch (kind) {
	case RK_PID:
		return !parse_u64_exact(v, &n) && n > 0 && n <= INT_MAX;
	case RK_COMM:
		return strlen(v) <= COMM_MAX;
	case RK_GEN:
		return !parse_u64_exact(v, &n) && n >= 1;
	case RK_MODE:
		for (i = 0; i < ARRAY_SIZE(mode_names); i++)
			if (!strcmp(v, mode_names[i]))
				return true;
		return false;
	case RK_TYPE:
		return !strcmp(v, "exclusive") || !strcmp(v, "sliced") || !strcmp(v, "direct") ||
		       !strcmp(v, "persistent");
	case RK_U64_OR_NONE:
		if (!strcmp(v, "none"))
			return true;
		return !parse_u64_exact(v, &n);
	default:
		return !parse_u64_exact(v, &n);
	}
}

/* A file that may vanish at any time: ENOENT and ENODEV are all right. */
static void race_read(struct race_child *st, const char *path, enum race_kind kind)
{
	char v[VAL_MAX];
	int ret = sys_read(path, v, sizeof(v));

	if (ret == -ENOENT || ret == -ENODEV) {
		st->vanished++;
		return;
	}
	if (ret) {
		race_fail(st, "read %s: %s", path, strerror(-ret));
		return;
	}
	st->reads++;
	if (!race_value_ok(kind, v))
		race_fail(st, "%s reads \"%s\"", path, v);
}

static const enum race_kind pool_kinds[PF_COUNT] = {
	[PF_TYPE] = RK_TYPE,
	[PF_PAGE_SIZE ... PF_DEALLOC_PERIOD] = RK_U64_OR_NONE,
	[PF_PAGES ... PF_LARGEST_ALLOC] = RK_U64,
};

/* A folder that may vanish: its listing, or false. */
static bool race_list(struct race_child *st, const char *path, struct names *ns)
{
	int ret = list_dir(path, ns);

	if (ret == -ENOENT || ret == -ENODEV) {
		st->vanished++;
		return false;
	}
	if (ret) {
		race_fail(st, "list %s: %s", path, strerror(-ret));
		return false;
	}
	return true;
}

/* Every file of every clients/<id>/ and of its pools, once. */
static void race_walk(struct race_child *st, const char *clients)
{
	static const struct { const char *file; enum race_kind kind; } cf[] = {
		{ "pid", RK_PID }, { "comm", RK_COMM }, { "generation", RK_GEN },
		{ "persistent_mode", RK_MODE }, { "vram", RK_U64 },
	};
	static struct names ids, pools;
	char path[PATH_LEN];
	unsigned int k;
	int i, j, f, ret;

	/* clients/ itself lives as long as the device. */
	ret = list_dir(clients, &ids);
	if (ret) {
		race_fail(st, "list %s: %s", clients, strerror(-ret));
		return;
	}
	for (i = 0; i < ids.n; i++) {
		if (!all_digits(ids.v[i])) {
			race_fail(st, "%s/%s is no client id", clients, ids.v[i]);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(cf); k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", clients, ids.v[i], cf[k].file);
			race_read(st, path, cf[k].kind);
		}
		snprintf(path, sizeof(path), "%s/%s/pools", clients, ids.v[i]);
		if (!race_list(st, path, &pools))
			continue;
		for (j = 0; j < pools.n; j++) {
			uint64_t index;

			if (parse_u64_exact(pools.v[j], &index) ||
			    (index >= DRM_VRAMPOOL_MAX_DYNAMIC_POOLS && index != P255)) {
				race_fail(st, "%s/%s is no pool index", path, pools.v[j]);
				continue;
			}
			for (f = 0; f < PF_COUNT; f++) {
				char file[FILE_LEN];

				snprintf(file, sizeof(file), "%s/%s/%s", path, pools.v[j],
					 pool_files[f]);
				race_read(st, file, pool_kinds[f]);
			}
		}
	}
}

static void race_reader(struct race_child *st, const char *clients, double deadline)
{
	while (now_secs() < deadline) {
		race_walk(st, clients);
		st->rounds++;
	}
}

/* Layouts of alternating sizes: 1 pool, 6 pools, the 24-pool preset. */
static int race_install(int fd, uint64_t k)
{
	static struct drm_vrampool_pool_entry one[1], six[6];
	struct drm_vrampool_pool_install ins;

	one[0] = vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT);
	six[0] = vpa_exclusive(0, VPA_ABSENT);
	six[1] = vpa_sliced(64 * KiB, 16 * KiB, 256 * KiB);
	six[2] = vpa_sliced(256 * KiB, VPA_ABSENT, VPA_ABSENT);
	six[3] = vpa_exclusive(512 * KiB, 100);
	six[4] = vpa_direct(1 * MiB);
	six[5] = vpa_direct(VPA_ABSENT);
	switch (k % 3) {
	case 0:
		return vpa_install(fd, one, 1, &ins);
	case 1:
		return vpa_install(fd, six, 6, &ins);
	default:
		return vpa_install_preset(fd, DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, &ins);
	}
}

/* Sizes every race layout accepts, small enough for three writers at once. */
static const struct { uint64_t size; uint32_t flags; } race_sizes[] = {
	{ 0, 0 }, { 1000, 0 }, { 20000, 0 }, { 3000, PERSISTENT }, { 30000, 0 }, { 256, 0 },
};

/*
 * Open, install, allocate, free some, try an install over the rest (EBUSY
 * while a dynamic allocation lives), change the persistent mode, close with
 * or without live allocations; meanwhile a long-lived file of the writer
 * switches layouts back and forth.
 */
static void race_writer(struct race_child *st, const struct vp_device *dev, double deadline,
			unsigned int seed)
{
	struct drm_vrampool_alloc a[ARRAY_SIZE(race_sizes)];
	int keep, fd, ret;
	uint64_t k = seed;

	keep = vp_open_device(dev);
	if (keep < 0) {
		race_fail(st, "open: %s", strerror(-keep));
		return;
	}
	while (now_secs() < deadline && !st->errors) {
		bool live[ARRAY_SIZE(race_sizes)] = { 0 };
		unsigned int i, dynamic = 0;

		k++;
		ret = race_install(keep, k);
		if (ret) {
			race_fail(st, "round %" PRIu64 ": install on the long-lived file: %s", k,
				  strerror(-ret));
			break;
		}
		st->installs++;
		ret = vp_alloc(keep, 1000, 0, &a[0]);
		if (!ret)
			ret = vp_free(keep, a[0].handle);
		if (ret) {
			race_fail(st, "round %" PRIu64 ": 1000 on the long-lived file: %s", k,
				  strerror(-ret));
			break;
		}

		fd = vp_open_device(dev);
		if (fd < 0) {
			race_fail(st, "round %" PRIu64 ": open: %s", k, strerror(-fd));
			break;
		}
		ret = vpa_set_mode(fd, (uint32_t)(k % 4), NULL);
		if (!ret)
			ret = race_install(fd, k + 1);
		if (ret) {
			race_fail(st, "round %" PRIu64 ": mode or install: %s", k, strerror(-ret));
			close(fd);
			break;
		}
		st->installs++;
		for (i = 0; i < ARRAY_SIZE(race_sizes); i++) {
			ret = vp_alloc(fd, race_sizes[i].size, race_sizes[i].flags, &a[i]);
			if (ret) {
				race_fail(st, "round %" PRIu64 ": ALLOC(%" PRIu64 "): %s (code %u)",
					  k, race_sizes[i].size, strerror(-ret), a[i].error.code);
				break;
			}
			st->allocs++;
			live[i] = true;
		}
		/* Free every other, then count what holds the dynamic pools. */
		for (i = k % 2; i < ARRAY_SIZE(race_sizes); i += 2) {
			ret = live[i] ? vp_free(fd, a[i].handle) : 0;
			if (ret)
				race_fail(st, "round %" PRIu64 ": FREE: %s", k, strerror(-ret));
			live[i] = false;
		}
		for (i = 0; i < ARRAY_SIZE(race_sizes); i++)
			dynamic += live[i] && a[i].pool != P255;
		ret = race_install(fd, k + 2);
		if (dynamic && ret == -EBUSY) {
			st->busy++;
		} else if (dynamic || ret) {
			race_fail(st, "round %" PRIu64 ": install over %u dynamic allocations: %s",
				  k, dynamic, ret ? strerror(-ret) : "installed");
		} else {
			st->installs++;
		}
		/* Two rounds in three close the file over live allocations. */
		for (i = 0; k % 3 == 0 && i < ARRAY_SIZE(race_sizes); i++) {
			ret = live[i] ? vp_free(fd, a[i].handle) : 0;
			if (ret)
				race_fail(st, "round %" PRIu64 ": FREE: %s", k, strerror(-ret));
		}
		close(fd);
		st->rounds++;
	}
	close(keep);
}

/*
 * Readers walk every file of clients/ while writers open and close files,
 * install layouts of alternating sizes and allocate, for RACE_SECS. No read
 * may fail but with ENOENT or ENODEV, no value may be malformed; after the
 * writers are gone, clients/, client_count and VRAM are as they were. A
 * hang shows as children outliving the deadline (or as the test timeout).
 */
TEST_F_TIMEOUT(sysfs, readers_race_with_opens_installs_and_allocations, 90)
{
	const int nchild = RACE_READERS + RACE_WRITERS;
	static struct names start, end;
	struct race_child *st;
	pid_t pids[RACE_READERS + RACE_WRITERS];
	bool done[RACE_READERS + RACE_WRITERS] = { 0 };
	char clients[DIR_LEN], x[2048], y[2048];
	uint64_t reads = 0, vanished = 0, rounds = 0, installs = 0, busy = 0;
	double deadline;
	int i, left, status;

	clients_path(&self->dev, clients, sizeof(clients));
	ASSERT_EQ(0, list_dir(clients, &start));
	ASSERT_TRUE(names_has(&start, strrchr(self->cdir, '/') + 1));

	st = mmap(NULL, sizeof(*st) * nchild, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);
	memset(st, 0, sizeof(*st) * nchild);

	deadline = now_secs() + RACE_SECS;
	for (i = 0; i < nchild; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]) TH_LOG("fork: %s", strerror(errno));
		if (pids[i] == 0) {
			if (i < RACE_READERS)
				race_reader(&st[i], clients, deadline);
			else
				race_writer(&st[i], &self->dev, deadline, i * 7);
			_exit(0);
		}
	}

	/* Wait, but not forever. */
	for (left = nchild; left && now_secs() < deadline + RACE_GRACE_SECS;) {
		for (i = 0; i < nchild; i++) {
			if (done[i] || waitpid(pids[i], &status, WNOHANG) != pids[i])
				continue;
			done[i] = true;
			left--;
			EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
				TH_LOG("%s %d ended with status %#x",
				       i < RACE_READERS ? "reader" : "writer", i, status);
			}
		}
		usleep(20000);
	}
	EXPECT_EQ(0, left) TH_LOG("%d children still run %d s after the deadline: a hang?", left,
				  RACE_GRACE_SECS);
	for (i = 0; i < nchild; i++) {
		const char *role = i < RACE_READERS ? "reader" : "writer";

		if (!done[i]) {
			char stack[1024] = "", file[64];

			snprintf(file, sizeof(file), "/proc/%d/stack", (int)pids[i]);
			vp_read_file(file, stack, sizeof(stack));
			TH_LOG("%s %d (pid %d) is stuck in:\n%s", role, i, (int)pids[i], stack);
			kill(pids[i], SIGKILL);
		}
		EXPECT_EQ(0, st[i].errors) {
			TH_LOG("%s %d: %d unexpected results, the first: %s", role, i, st[i].errors,
			       st[i].error);
		}
		EXPECT_LT(0u, st[i].rounds) TH_LOG("%s %d never finished a round", role, i);
		if (i < RACE_READERS) {
			EXPECT_LT(0u, st[i].reads) TH_LOG("reader %d read nothing", i);
			reads += st[i].reads;
			vanished += st[i].vanished;
		} else {
			rounds += st[i].rounds;
			installs += st[i].installs;
			busy += st[i].busy;
		}
	}
	ksft_print_msg("%s: %" PRIu64 " reads, %" PRIu64 " vanished; %" PRIu64 " writer rounds, %"
		       PRIu64 " installs, %" PRIu64 " EBUSY\n", self->dev.name, reads, vanished,
		       rounds, installs, busy);
	ASSERT_EQ(0, left);

	ASSERT_EQ(0, list_dir(clients, &end));
	EXPECT_TRUE(names_equal(&start, &end)) {
		TH_LOG("clients/ was [%s], is [%s] after every writer closed",
		       names_str(&start, x, sizeof(x)), names_str(&end, y, sizeof(y)));
	}
	EXPECT_EQ(self->clients_start, dev_u64(&self->dev, "client_count"));
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "after the race");
	expect_pools_match(_metadata, self->cdir, self->fd, "after the race");
	munmap(st, sizeof(*st) * nchild);
}

/* ---- Exits --------------------------------------------------------------- */

/*
 * The folder lives as long as the open file: past the close of one of two
 * dup()ed descriptors, past the parent's close while a child holds the
 * file, and goes with the last close, VRAM back to where it was.
 */
TEST_F(sysfs, client_folder_goes_with_the_last_reference)
{
	struct drm_vrampool_pool_entry e[] = {
		vpa_sliced(64 * KiB, VPA_ABSENT, VPA_ABSENT), vpa_direct(VPA_ABSENT),
	};
	struct drm_vrampool_alloc a;
	char cdir[DIR_LEN], c = 0;
	int fd, fd2, gate[2], status;
	uint64_t id, vram;
	pid_t pid;

	fd = vp_open_device(&self->dev);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, client_id_of(fd, &id));
	client_path(&self->dev, id, cdir, sizeof(cdir));
	ASSERT_TRUE(exists(cdir)) TH_LOG("no %s", cdir);
	INSTALL_OK(fd, e, ARRAY_SIZE(e), "sliced, direct");
	ALLOC_OK(fd, 1000, 0, &a, "1000");
	ALLOC_OK(fd, 1 * MiB, 0, &a, "1 MiB");
	ALLOC_OK(fd, 3000, PERSISTENT, &a, "3000 persistent");
	vram = self->vram_start + 64 * KiB + 1 * MiB + 4 * KiB;
	expect_device_vram(_metadata, &self->dev, fd, vram, "three pages");
	expect_file_u64(_metadata, cdir, "vram", vram - self->vram_start, "three pages");

	fd2 = dup(fd);
	ASSERT_LE(0, fd2);
	close(fd);
	EXPECT_TRUE(exists(cdir)) TH_LOG("the folder went with a dup()ed descriptor");

	ASSERT_EQ(0, pipe(gate));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(gate[1]);
		/* Hold fd2 until the parent has closed its copy and looked. */
		_exit(read(gate[0], &c, 1) == 1 ? 0 : 1);
	}
	close(gate[0]);
	close(fd2);
	EXPECT_TRUE(exists(cdir)) TH_LOG("the folder went while a child holds the file");
	expect_device_vram(_metadata, &self->dev, self->fd, vram, "the child holds the file");
	EXPECT_EQ(self->clients_start + 1, dev_u64(&self->dev, "client_count"));

	EXPECT_EQ(1, write(gate[1], &c, 1));
	close(gate[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("child status %#x", status);
	EXPECT_FALSE(exists(cdir)) TH_LOG("%s outlived the last reference", cdir);
	EXPECT_EQ(self->clients_start, dev_u64(&self->dev, "client_count"));
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "all closed");
}

/*
 * A process killed with SIGKILL while it holds allocations of every kind
 * (and a mapping): its folder goes, VRAM and client_count come back.
 */
TEST_F(sysfs, client_folder_goes_when_its_process_is_killed)
{
	char cdir[DIR_LEN], path[PATH_LEN], val[VAL_MAX];
	int up[2], status;
	uint64_t id = 0, vram;
	pid_t pid;

	ASSERT_EQ(0, pipe(up));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		const struct drm_vrampool_pool_entry *e;
		struct drm_vrampool_alloc a;
		uint32_t n;
		unsigned int i;
		char *map;
		int fd;

		close(up[0]);
		fd = vp_open_device(&self->dev);
		if (fd < 0 || client_id_of(fd, &id))
			_exit(1);
		e = mix_layout(&n);
		if (vpa_install(fd, e, n, &(struct drm_vrampool_pool_install){ 0 }))
			_exit(2);
		for (i = 0; i < ARRAY_SIZE(mix_allocs); i++)
			if (vp_alloc(fd, mix_allocs[i].size, mix_allocs[i].flags, &a))
				_exit(3);
		/* The last one has no page; map the 1000's page. */
		if (vp_alloc(fd, 1000, 0, &a))
			_exit(4);
		map = mmap(NULL, a.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   a.mmap_offset);
		if (map == MAP_FAILED)
			_exit(5);
		memset(map + a.offset, 0x5a, 1000);
		if (write(up[1], &id, sizeof(id)) != sizeof(id))
			_exit(6);
		for (;;)
			pause();
	}
	close(up[1]);
	ASSERT_EQ((ssize_t)sizeof(id), read(up[0], &id, sizeof(id))) TH_LOG("the child failed");
	close(up[0]);
	client_path(&self->dev, id, cdir, sizeof(cdir));

	expect_file_u64(_metadata, cdir, "pid", (uint64_t)pid, "the child holds allocations");
	snprintf(path, sizeof(path), "%s/vram", cdir);
	ASSERT_EQ(0, sys_read_u64(path, &vram));
	EXPECT_LT(10 * MiB, vram) TH_LOG("the child's mix");
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start + vram,
			   "the child holds allocations");
	expect_file(_metadata, cdir, "pools/255/allocations", "3",
		    "the child's persistent allocations");
	snprintf(path, sizeof(path), "%s/pools", cdir);
	{
		static struct names ns;
		char x[256];

		ASSERT_EQ(0, list_dir(path, &ns));
		EXPECT_STREQ("0 1 2 3 4 5 255", names_str(&ns, x, sizeof(x)));
	}
	EXPECT_EQ(self->clients_start + 1, dev_u64(&self->dev, "client_count"));

	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		TH_LOG("the child ended with status %#x before the kill", status);
	}
	EXPECT_FALSE(exists(cdir)) TH_LOG("%s outlived its killed process", cdir);
	snprintf(path, sizeof(path), "%s/vram", cdir);
	EXPECT_EQ(-ENOENT, sys_read(path, val, sizeof(val)));
	EXPECT_EQ(self->clients_start, dev_u64(&self->dev, "client_count"));
	expect_device_vram(_metadata, &self->dev, self->fd, self->vram_start, "after the kill");
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl top: every client of a device, refreshed like top(1).
 *
 *   vrampoolctl top [--device PATH] [--interval SECS] [--iterations N] | [--json]
 *
 * For each device: its VRAM, what is in use, its VRAM quota and what
 * reclaim has taken from clients in total; for each client (largest VRAM
 * holder first): its id, pid and command, the VRAM it holds, the bytes of
 * its live allocations, the VRAM of its free cached pages (what a cleanup,
 * or reclaim by another client, would give back) and what other clients'
 * reclaim took from it; for each user (users/<uid>/, whose sums its
 * limits count): its open files, VRAM, live allocations, pool pages and
 * what other users' reclaim took from it. A client's files are root's to
 * read and a user's folder its own and root's, so an unprivileged reader
 * sees its own user and no client. Everything comes from sysfs (<device>/vrampool/
 * and its clients/<id>/ folders): fdinfo of another process needs ptrace
 * rights, and the tool does not open the device, so it is no client of its
 * own. A value this module does not publish shows as "-" (JSON null); the
 * quota of a module without the device file vram_quota is the module
 * parameter, which is then all there is.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vrampoolctl.h"

/* A value that may be missing from this module's sysfs. */
struct maybe {
	uint64_t v;
	bool ok;
};

struct top_client {
	uint64_t id;
	int64_t pid;
	char comm[32];
	uint64_t held;		/* VRAM its pools hold */
	uint64_t live;		/* bytes of its live allocations */
	struct maybe cached;	/* VRAM of its free cached pages */
	struct maybe reclaimed;	/* what others' reclaim took from it, bytes */
	struct maybe reclaimed_pages;
};

/* A user's sums (users/<uid>/), what its limits count. */
struct top_user {
	uint64_t uid, files, vram, allocations, pages;
	struct maybe reclaimed;	/* what other users' reclaim took from it, bytes */
};

struct top_device {
	const char *path;
	char name[64];
	char bus[64];
	uint64_t vram_size;
	uint64_t vram_in_use;
	struct maybe quota;
	struct maybe reclaimed;
	struct top_client *clients;
	int count;
	struct top_user *users;	/* the users whose folder the reader may read */
	int nusers;
	bool has_users;		/* this module has users/ */
};

static struct maybe read_maybe(const char *dir, const char *name)
{
	struct maybe m = { 0, false };

	m.ok = !read_u64(dir, name, &m.v, NULL);
	return m;
}

/* One client; 0, or -errno when it went away meanwhile. */
static int top_client_read(const char *clients, uint64_t id, struct top_client *t)
{
	char dir[PATH_MAX];
	struct sysfs_client c;
	uint32_t i;
	int ret;

	ret = read_client(clients, id, &c);
	if (ret)
		return ret;
	memset(t, 0, sizeof(*t));
	t->id = c.id;
	t->pid = c.pid;
	snprintf(t->comm, sizeof(t->comm), "%s", c.comm);
	t->held = c.vram;
	for (i = 0; i < c.count; i++)
		t->live += c.pools[i].bytes_in_use;
	free(c.pools);

	path_fmt(dir, sizeof(dir), "%s/%" PRIu64, clients, id);
	t->cached = read_maybe(dir, "purgeable");
	t->reclaimed = read_maybe(dir, "reclaimed");
	t->reclaimed_pages = read_maybe(dir, "reclaimed_pages");
	return 0;
}

/* One user; 0, or -errno when it is not the reader's to read, or went away. */
static int top_user_read(const char *users, uint64_t uid, struct top_user *u)
{
	char dir[PATH_MAX];
	int ret;

	memset(u, 0, sizeof(*u));
	u->uid = uid;
	path_fmt(dir, sizeof(dir), "%s/%" PRIu64, users, uid);
	ret = read_u64(dir, "vram", &u->vram, NULL);
	if (!ret)
		ret = read_u64(dir, "files", &u->files, NULL);
	if (!ret)
		ret = read_u64(dir, "allocations", &u->allocations, NULL);
	if (!ret)
		ret = read_u64(dir, "pages", &u->pages, NULL);
	u->reclaimed = read_maybe(dir, "reclaimed");
	return ret;
}

/* The biggest VRAM holder first, then by uid. */
static int user_by_vram(const void *a, const void *b)
{
	const struct top_user *x = a, *y = b;

	if (x->vram != y->vram)
		return x->vram < y->vram ? 1 : -1;
	return x->uid < y->uid ? -1 : x->uid > y->uid;
}

/*
 * The users/ folders the reader may read (root: all; another user: its
 * own, by name: only root lists users/); nothing when the module has no
 * users/.
 */
static int top_users_read(const char *top, struct top_device *d)
{
	char users[PATH_MAX];
	uint64_t *ids;
	int n, i;

	path_fmt(users, sizeof(users), "%s/users", top);
	ids = calloc(MAX_ENTRIES, sizeof(*ids));
	d->users = calloc(MAX_ENTRIES, sizeof(*d->users));
	if (!ids || !d->users) {
		free(ids);
		free(d->users);
		d->users = NULL;
		return -ENOMEM;
	}
	n = numeric_entries(users, ids, MAX_ENTRIES);
	if (n == -EACCES) {
		ids[0] = getuid();	/* the kernel's tenant: the opener's real uid */
		n = 1;
	}
	d->has_users = n >= 0;
	for (i = 0; i < n; i++) {
		if (!top_user_read(users, ids[i], &d->users[d->nusers]))
			d->nusers++;
	}
	free(ids);
	qsort(d->users, d->nusers, sizeof(*d->users), user_by_vram);
	return 0;
}

/* The biggest VRAM holder first, then by id. */
static int by_held(const void *a, const void *b)
{
	const struct top_client *x = a, *y = b;

	if (x->held != y->held)
		return x->held < y->held ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Reads @path's device and clients into @d; an exit code (printed). */
static int top_device_read(const char *path, struct top_device *d)
{
	char dev[PATH_MAX], top[PATH_MAX], clients[PATH_MAX];
	uint64_t *ids;
	int n, i, ret;

	memset(d, 0, sizeof(*d));
	d->path = path;
	ret = device_dir(path, dev, sizeof(dev));
	if (ret) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path,
			ret == -ENODEV ? "not a vrampool device" : strerror(-ret));
		return ret == -ENODEV || ret == -ENOENT ? EXIT_NODEV : EXIT_FAILED;
	}
	link_name(dev, "", d->name, sizeof(d->name));
	link_name(dev, "subsystem", d->bus, sizeof(d->bus));
	path_fmt(top, sizeof(top), "%s/vrampool", dev);
	ret = read_u64(top, "vram_size", &d->vram_size, NULL);
	if (!ret)
		ret = read_u64(top, "vram_in_use", &d->vram_in_use, NULL);
	if (ret) {
		fprintf(stderr, "vrampoolctl: %s: cannot read %s: %s\n", path, top, strerror(-ret));
		return EXIT_FAILED;
	}
	d->quota = read_maybe(top, "vram_quota");
	if (!d->quota.ok)
		d->quota = read_maybe("/sys/module/vrampool/parameters", "vram_quota");
	d->reclaimed = read_maybe(top, "reclaimed");

	path_fmt(clients, sizeof(clients), "%s/clients", top);
	ids = calloc(MAX_ENTRIES, sizeof(*ids));
	d->clients = calloc(MAX_ENTRIES, sizeof(*d->clients));
	if (!ids || !d->clients) {
		free(ids);
		free(d->clients);
		d->clients = NULL;
		fprintf(stderr, "vrampoolctl: out of memory\n");
		return EXIT_FAILED;
	}
	n = numeric_entries(clients, ids, MAX_ENTRIES);
	if (n == -EACCES)
		n = 0;	/* only root lists clients/ (and reads a client's files) */
	if (n < 0) {
		fprintf(stderr, "vrampoolctl: %s: cannot read %s: %s\n", path, clients,
			strerror(-n));
		free(ids);
		free(d->clients);
		d->clients = NULL;
		return EXIT_FAILED;
	}
	for (i = 0; i < n; i++) {
		if (!top_client_read(clients, ids[i], &d->clients[d->count]))
			d->count++;	/* else closed meanwhile */
	}
	free(ids);
	qsort(d->clients, d->count, sizeof(*d->clients), by_held);
	if (top_users_read(top, d)) {
		free(d->clients);
		d->clients = NULL;
		fprintf(stderr, "vrampoolctl: out of memory\n");
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

static const char *approx_or_dash(struct maybe m, char *buf, size_t len)
{
	if (!m.ok)
		return "-";
	return format_approx(m.v, buf, len);
}

static void top_device_print(const struct top_device *d)
{
	char a[32], b[32], q[32], r[32], h[32], l[32], c[32];
	int i;

	printf("%s (%s, %s): VRAM %s of %s in use, %d client%s, quota %s, reclaimed %s\n",
	       d->path, d->name, backend_of(d->bus), format_approx(d->vram_in_use, a, sizeof(a)),
	       format_approx(d->vram_size, b, sizeof(b)), d->count, d->count == 1 ? "" : "s",
	       d->quota.ok && !d->quota.v ? "none" : approx_or_dash(d->quota, q, sizeof(q)),
	       approx_or_dash(d->reclaimed, r, sizeof(r)));
	printf("%8s %8s %-16s %12s %12s %12s %12s\n", "CLIENT", "PID", "COMMAND", "HELD",
	       "LIVE", "CACHED", "RECLAIMED");
	for (i = 0; i < d->count; i++) {
		const struct top_client *t = &d->clients[i];
		struct maybe held = { t->held, true }, live = { t->live, true };

		printf("%8" PRIu64 " %8" PRId64 " %-16s %12s %12s %12s %12s\n", t->id, t->pid,
		       t->comm, approx_or_dash(held, h, sizeof(h)),
		       approx_or_dash(live, l, sizeof(l)), approx_or_dash(t->cached, c, sizeof(c)),
		       approx_or_dash(t->reclaimed, r, sizeof(r)));
	}
	if (!d->has_users)
		return;
	printf("%8s %8s %12s %12s %12s %12s\n", "USER", "FILES", "VRAM", "ALLOCATIONS", "PAGES",
	       "RECLAIMED");
	for (i = 0; i < d->nusers; i++) {
		const struct top_user *u = &d->users[i];

		printf("%8" PRIu64 " %8" PRIu64 " %12s %12" PRIu64 " %12" PRIu64 " %12s\n", u->uid,
		       u->files, format_approx(u->vram, h, sizeof(h)), u->allocations, u->pages,
		       approx_or_dash(u->reclaimed, r, sizeof(r)));
	}
}

static void json_maybe(struct json *j, const char *key, struct maybe m)
{
	if (m.ok)
		json_u64(j, key, m.v);
	else
		json_null(j, key);
}

static void top_device_json(struct json *j, const struct top_device *d)
{
	int i;

	json_object_begin(j, NULL);
	json_string(j, "path", d->path);
	json_string(j, "name", d->name);
	json_string(j, "backend", backend_of(d->bus));
	json_u64(j, "vram_size", d->vram_size);
	json_u64(j, "vram_in_use", d->vram_in_use);
	json_maybe(j, "vram_quota", d->quota);
	json_maybe(j, "reclaimed", d->reclaimed);
	json_array_begin(j, "clients");
	for (i = 0; i < d->count; i++) {
		const struct top_client *t = &d->clients[i];

		json_object_begin(j, NULL);
		json_u64(j, "id", t->id);
		json_u64(j, "pid", (uint64_t)t->pid);
		json_string(j, "comm", t->comm);
		json_u64(j, "held", t->held);
		json_u64(j, "live", t->live);
		json_maybe(j, "cached", t->cached);
		json_maybe(j, "reclaimed", t->reclaimed);
		json_maybe(j, "reclaimed_pages", t->reclaimed_pages);
		json_object_end(j);
	}
	json_array_end(j);
	if (d->has_users) {
		json_array_begin(j, "users");
		for (i = 0; i < d->nusers; i++) {
			const struct top_user *u = &d->users[i];

			json_object_begin(j, NULL);
			json_u64(j, "uid", u->uid);
			json_u64(j, "files", u->files);
			json_u64(j, "vram", u->vram);
			json_u64(j, "allocations", u->allocations);
			json_u64(j, "pages", u->pages);
			json_maybe(j, "reclaimed", u->reclaimed);
			json_object_end(j);
		}
		json_array_end(j);
	}
	json_object_end(j);
}

/* One frame (or the JSON snapshot) of every device; an exit code. */
static int top_frame(char (*paths)[VRAMPOOL_NAME_MAX], int count, struct json *j)
{
	struct top_device d;
	int i, ret = EXIT_OK, r;

	if (j) {
		json_object_begin(j, NULL);
		json_array_begin(j, "devices");
	}
	for (i = 0; i < count; i++) {
		r = top_device_read(paths[i], &d);
		if (r) {
			ret = r;
			continue;
		}
		if (j)
			top_device_json(j, &d);
		else
			top_device_print(&d);
		free(d.clients);
		free(d.users);
	}
	if (j) {
		json_array_end(j);
		json_object_end(j);
		json_finish(j);
	}
	return ret;
}

/**
 * top_run() - the top command, its options parsed
 * @path: the device, or NULL for every device
 * @interval: the time between frames
 * @iterations: frames to show, 0 for until interrupted
 * @json: one JSON snapshot instead
 *
 * A terminal is cleared before each frame; other output gets a
 * "--- top K of N ---" line between frames, as `watch` prints.
 *
 * Return: an exit code.
 */
static int top_run(const char *path, const struct timespec *interval, uint64_t iterations, bool json)
{
	char paths[64][VRAMPOOL_NAME_MAX];
	bool tty = isatty(STDOUT_FILENO);
	struct json j;
	uint64_t k;
	int count, ret;

	count = device_paths(path, paths, 64);
	if (count < 0)
		return -count;
	if (json) {
		json_init(&j, stdout);
		return top_frame(paths, count, &j);
	}
	for (k = 1; !iterations || k <= iterations; k++) {
		if (tty)
			fputs("\033[H\033[2J", stdout);
		else if (iterations)
			printf("--- top %" PRIu64 " of %" PRIu64 " ---\n", k, iterations);
		else
			printf("--- top %" PRIu64 " ---\n", k);
		ret = top_frame(paths, count, NULL);
		fflush(stdout);
		if (ret)
			return ret;
		if (iterations && k == iterations)
			break;
		nanosleep(interval, NULL);
	}
	return EXIT_OK;
}

static const char usage[] =
	"usage: vrampoolctl top [--device PATH] [--interval SECS] [--iterations N] | [--json]\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_JSON,
	{ "--interval", NULL, true, OPT_ID_INTERVAL },
	{ "--iterations", NULL, true, OPT_ID_ITERATIONS },
	OPT_END,
};

static int run(const struct opts *o, int argc, char **argv)
{
	if (o->json && o->timing)
		return usage_error("top: --json prints one snapshot: no --interval or --iterations");
	return top_run(o->device, &o->interval, o->count, o->json);
}

const struct command cmd_top = {
	.name = "top",
	.help = "  top [--device PATH] [--interval SECS] [--iterations N] | [--json]\n"
		"      Every client of every device (or of PATH), from sysfs, the largest\n"
		"      VRAM holder first: VRAM held, live bytes, free cached bytes (which\n"
		"      reclaim may take), bytes reclaimed from it; the device's VRAM, quota\n"
		"      and reclaimed total; each user's files, VRAM, allocations and pages\n"
		"      (root sees every user, a user itself). Refreshed every SECS seconds\n"
		"      (default 2), N times\n"
		"      (default 0: until interrupted). --json: one snapshot.\n",
	.parser = { .opts = options, .usage = usage, .max_operands = 0 },
	.run_opts = run,
};

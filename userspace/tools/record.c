// SPDX-License-Identifier: MIT
/*
 * vrampoolctl record: a client's allocations, from the tracepoints, as a trace.
 *
 *   vrampoolctl record [--pid P] [--client ID] [--duration SECS] FILE|-
 *
 * reads the vrampool_alloc and vrampool_free events (events/vrampool/ in
 * tracefs, /sys/kernel/tracing or /sys/kernel/debug/tracing) and writes
 * them as a trace in the format `vrampoolctl replay` reads (replay.c):
 * "alloc ID SIZE [persistent]" for each allocation, persistent when it went
 * to the persistent pool (255), "free ID" for each free of an allocation
 * recorded before. Every allocation gets a new ID, "a1", "a2", ... in
 * order; a free of a handle allocated before the recording started is
 * left out (and counted). Batched ALLOC and FREE emit the same events, one
 * per allocation or free, so they are recorded the same way.
 *
 * The events are read from a tracing instance of its own
 * (instances/vrampoolctl-record-PID/), with only those two events enabled
 * and filtered there: --pid P keeps the events of the threads of process
 * P (set_event_pid, with the threads P has now and, through event-fork,
 * those it makes later), --client ID those of the client (the fdinfo
 * drm-client-id, one open file) with that id (a filter on the events'
 * client field). Without either, every client is recorded. The top-level
 * tracing state is never touched, and the instance is removed on exit.
 *
 * It records until P exits (with --pid), until SIGINT or SIGTERM, or for
 * --duration SECS, whichever comes first, then writes a summary line
 * ("# recorded: ...") and exits 0 (events the tracing buffer lost, if
 * any, are counted before it and on stderr). Errors: no tracefs, no vrampool events
 * (the module is not loaded), a tracefs that cannot be written (not root)
 * exit 1; no such process P, or a bad option, exit 2.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "vrampoolctl.h"

#define POLL_MS		100
#define BUFFER_KB	"8192"	/* per CPU: room for a burst while the recorder sleeps */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* One live recorded allocation: (client, handle) -> its trace ID. */
struct live {
	uint64_t client;
	uint32_t handle;
	uint64_t id;		/* 0: an empty slot */
};

struct recorder {
	FILE *out;
	struct live *live;
	size_t nlive, cap;	/* cap: a power of two */
	uint64_t next_id;
	uint64_t allocs, frees, persistent, unknown_frees, reused;
	uint64_t live_bytes, peak_bytes;
	uint64_t *sizes;	/* by ID: the size, while live */
	size_t nsizes;
	char inst[PATH_MAX];	/* the tracing instance */
	char partial[512];	/* an unfinished line of trace_pipe */
	size_t npartial;
};

static void *must_alloc(void *p)
{
	if (!p) {
		fprintf(stderr, "vrampoolctl: record: out of memory\n");
		exit(EXIT_FAILED);
	}
	return p;
}

static size_t slot_of(const struct recorder *rec, uint64_t client, uint32_t handle)
{
	uint64_t h = (client * 0x9E3779B97F4A7C15ULL) ^ handle;

	return (size_t)((h ^ (h >> 29)) & (rec->cap - 1));
}

static struct live *find_live(struct recorder *rec, uint64_t client, uint32_t handle)
{
	size_t k;

	for (k = slot_of(rec, client, handle); rec->live[k].id; k = (k + 1) & (rec->cap - 1)) {
		if (rec->live[k].client == client && rec->live[k].handle == handle)
			return &rec->live[k];
	}
	return &rec->live[k];	/* the empty slot where it would go */
}

static void grow_live(struct recorder *rec)
{
	struct live *old = rec->live;
	size_t ocap = rec->cap, k;

	rec->cap = ocap ? 2 * ocap : 4096;
	rec->live = must_alloc(calloc(rec->cap, sizeof(*rec->live)));
	for (k = 0; k < ocap; k++) {
		if (old[k].id)
			*find_live(rec, old[k].client, old[k].handle) = old[k];
	}
	free(old);
}

/* Remove the entry at @e, moving its followers back (linear probing). */
static void drop_live(struct recorder *rec, struct live *e)
{
	size_t i = (size_t)(e - rec->live), j = i, k;

	rec->live[i].id = 0;
	for (;;) {
		j = (j + 1) & (rec->cap - 1);
		if (!rec->live[j].id)
			break;
		k = slot_of(rec, rec->live[j].client, rec->live[j].handle);
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			rec->live[i] = rec->live[j];
			rec->live[j].id = 0;
			i = j;
		}
	}
	rec->nlive--;
}

static void set_size(struct recorder *rec, uint64_t id, uint64_t size)
{
	if (id >= rec->nsizes) {
		size_t n = rec->nsizes ? 2 * rec->nsizes : 4096;

		while (n <= id)
			n *= 2;
		rec->sizes = must_alloc(realloc(rec->sizes, n * sizeof(*rec->sizes)));
		memset(rec->sizes + rec->nsizes, 0, (n - rec->nsizes) * sizeof(*rec->sizes));
		rec->nsizes = n;
	}
	rec->sizes[id] = size;
}

static void record_free(struct recorder *rec, struct live *e)
{
	fprintf(rec->out, "free a%" PRIu64 "\n", e->id);
	rec->frees++;
	rec->live_bytes -= rec->sizes[e->id];
	drop_live(rec, e);
}

static void record_alloc(struct recorder *rec, uint64_t client, uint32_t handle, uint64_t size,
			 uint32_t pool)
{
	struct live *e;

	if (2 * (rec->nlive + 1) > rec->cap)
		grow_live(rec);
	e = find_live(rec, client, handle);
	if (e->id) {
		/* Its free was never seen (lost events): free it first, counted. */
		rec->reused++;
		record_free(rec, e);
		e = find_live(rec, client, handle);
	}
	*e = (struct live){ .client = client, .handle = handle, .id = ++rec->next_id };
	rec->nlive++;
	set_size(rec, e->id, size);
	fprintf(rec->out, "alloc a%" PRIu64 " %" PRIu64 "%s\n", e->id, size,
		pool == DRM_VRAMPOOL_PERSISTENT_POOL ? " persistent" : "");
	rec->allocs++;
	rec->persistent += pool == DRM_VRAMPOOL_PERSISTENT_POOL;
	rec->live_bytes += size;
	if (rec->live_bytes > rec->peak_bytes)
		rec->peak_bytes = rec->live_bytes;
}

/* The number after " KEY=" in @line; false when it has none. */
static bool field(const char *line, const char *key, uint64_t *v)
{
	char pat[32];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	errno = 0;
	*v = strtoull(p, &end, 0);
	return end != p && !errno;
}

/* One line of trace_pipe: "comm-pid [cpu] flags ts: vrampool_alloc: client=..." */
static void record_line(struct recorder *rec, const char *line)
{
	uint64_t client, handle, size, pool;
	const char *ev;
	struct live *e;

	ev = strstr(line, ": vrampool_alloc: ");
	if (ev) {
		if (field(ev, "client", &client) && field(ev, "handle", &handle) &&
		    field(ev, "size", &size) && field(ev, "pool", &pool))
			record_alloc(rec, client, (uint32_t)handle, size, (uint32_t)pool);
		return;
	}
	ev = strstr(line, ": vrampool_free: ");
	if (!ev || !field(ev, "client", &client) || !field(ev, "handle", &handle))
		return;
	if (!rec->cap) {
		rec->unknown_frees++;
		return;
	}
	e = find_live(rec, client, (uint32_t)handle);
	if (e->id)
		record_free(rec, e);
	else
		rec->unknown_frees++;
}

/* Whatever trace_pipe has now, line by line; false on a read error. */
static bool drain(struct recorder *rec, int pipe_fd)
{
	char buf[65536];
	ssize_t n, i;

	for (;;) {
		n = read(pipe_fd, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN || errno == EINTR;
		if (!n)
			return true;
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (rec->npartial < sizeof(rec->partial) - 1)
					rec->partial[rec->npartial++] = buf[i];
				continue;
			}
			rec->partial[rec->npartial] = '\0';
			record_line(rec, rec->partial);
			rec->npartial = 0;
		}
	}
}

/* ---- tracefs ------------------------------------------------------------- */

static int write_file(const char *dir, const char *name, const char *text, bool append)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	path_fmt(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return 0;
}

static const char *tracefs_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[PATH_MAX];
	struct stat st;
	unsigned int k;

	for (k = 0; k < sizeof(roots) / sizeof(roots[0]); k++) {
		path_fmt(path, sizeof(path), "%s/events", roots[k]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return roots[k];
	}
	return NULL;
}

static void instance_remove(struct recorder *rec)
{
	if (!rec->inst[0])
		return;
	/* Back to nothing, then gone (rmdir would do, but be explicit). */
	write_file(rec->inst, "tracing_on", "0", false);
	write_file(rec->inst, "events/vrampool/vrampool_alloc/enable", "0", false);
	write_file(rec->inst, "events/vrampool/vrampool_free/enable", "0", false);
	write_file(rec->inst, "events/vrampool/vrampool_alloc/filter", "0", false);
	write_file(rec->inst, "events/vrampool/vrampool_free/filter", "0", false);
	write_file(rec->inst, "set_event_pid", "", false);
	if (rmdir(rec->inst))
		fprintf(stderr, "vrampoolctl: record: rmdir %s: %s\n", rec->inst, strerror(errno));
	rec->inst[0] = '\0';
}

/* The threads of @pid into set_event_pid; how many, or -errno. */
static int add_threads(const char *inst, pid_t pid)
{
	uint64_t tids[MAX_ENTRIES];
	char dir[64], text[32];
	int n, k, ret;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	n = numeric_entries(dir, tids, MAX_ENTRIES);
	if (n < 0)
		return n;
	for (k = 0; k < n; k++) {
		snprintf(text, sizeof(text), "%" PRIu64, tids[k]);
		ret = write_file(inst, "set_event_pid", text, true);
		if (ret && ret != -ESRCH)
			return ret;
	}
	return n;
}

static int tracefs_error(const char *what, int err)
{
	fprintf(stderr, "vrampoolctl: record: %s: %s%s\n", what, strerror(-err),
		err == -EACCES || err == -EPERM ? " (tracefs needs root)" : "");
	return EXIT_FAILED;
}

/* The instance, its two events enabled and filtered; an exit code. */
static int instance_setup(struct recorder *rec, const char *root, pid_t pid, bool by_client,
			  uint64_t client, int *threads)
{
	static const char *const events[] = { "vrampool_alloc", "vrampool_free" };
	char path[PATH_MAX], filter[64];
	unsigned int k;
	int ret;

	path_fmt(path, sizeof(path), "%s/events/vrampool", root);
	if (access(path, F_OK)) {
		fprintf(stderr, "vrampoolctl: record: no vrampool events in %s/events (is the vrampool module loaded?)\n",
			root);
		return EXIT_FAILED;
	}
	path_fmt(rec->inst, sizeof(rec->inst), "%s/instances/vrampoolctl-record-%d", root,
		 (int)getpid());
	if (mkdir(rec->inst, 0700)) {
		ret = -errno;
		rec->inst[0] = '\0';
		path_fmt(path, sizeof(path), "%s/instances", root);
		return tracefs_error(path, ret);
	}
	ret = write_file(rec->inst, "tracing_on", "0", false);
	if (!ret)
		ret = write_file(rec->inst, "buffer_size_kb", BUFFER_KB, false);
	if (ret)
		return tracefs_error(rec->inst, ret);
	snprintf(filter, sizeof(filter), "client == %" PRIu64, client);
	for (k = 0; k < 2; k++) {
		path_fmt(path, sizeof(path), "events/vrampool/%s/filter", events[k]);
		ret = by_client ? write_file(rec->inst, path, filter, false) : 0;
		if (ret)
			return tracefs_error(path, ret);
	}
	if (pid > 0) {
		/* Threads made later too (where the instance has the option). */
		write_file(rec->inst, "options/event-fork", "1", false);
		ret = add_threads(rec->inst, pid);
		if (ret < 0)
			return tracefs_error("set_event_pid", ret);
		*threads = ret;
	}
	for (k = 0; k < 2; k++) {
		path_fmt(path, sizeof(path), "events/vrampool/%s/enable", events[k]);
		ret = write_file(rec->inst, path, "1", false);
		if (ret)
			return tracefs_error(path, ret);
	}
	ret = write_file(rec->inst, "tracing_on", "1", false);
	return ret ? tracefs_error("tracing_on", ret) : EXIT_OK;
}

/* Events the instance's buffer lost (the overrun of each CPU's buffer). */
static uint64_t lost_events(const struct recorder *rec)
{
	char path[PATH_MAX], line[128];
	uint64_t lost = 0, v;
	long k, ncpu = sysconf(_SC_NPROCESSORS_CONF);
	FILE *f;

	for (k = 0; k < ncpu; k++) {
		path_fmt(path, sizeof(path), "%s/per_cpu/cpu%ld/stats", rec->inst, k);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "overrun: %" SCNu64, &v) == 1)
				lost += v;
		}
		fclose(f);
	}
	return lost;
}

/* ---- The command --------------------------------------------------------- */

static const char record_usage[] =
	"usage: vrampoolctl record [--pid P] [--client ID] [--duration SECS] FILE|-\n";

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static bool alive(pid_t pid)
{
	return !kill(pid, 0) || errno == EPERM;
}

struct record_args {
	const char *file;
	pid_t pid;
	bool by_client;
	uint64_t client;
	bool timed;
	struct timespec duration;
};

static int parse_args(int argc, char **argv, struct record_args *a)
{
	enum { O_PID, O_CLIENT, O_DURATION };
	static const struct opt options[] = {
		[O_PID] = { "--pid", NULL, true, OPT_ID_OWN },
		[O_CLIENT] = { "--client", NULL, true, OPT_ID_OWN },
		[O_DURATION] = { "--duration", NULL, true, OPT_ID_OWN },
		OPT_END,
	};
	struct opt_iter it;
	char why[256];
	const char *v;
	uint64_t n;
	int k;

	memset(a, 0, sizeof(*a));
	opt_init(&it, argc, argv, options, false);
	while ((k = opt_next(&it, &v)) != OPT_DONE) {
		if (k == OPT_FAILED)
			return EXIT_USAGE;
		if (k == OPT_HELP) {
			fputs(record_usage, stdout);
			return -1;
		} else if (k == O_PID) {
			if (parse_count(v, &n, why, sizeof(why)) || !n || n > INT_MAX)
				return usage_error("record: --pid: '%s' is not a process id", v);
			a->pid = (pid_t)n;
		} else if (k == O_CLIENT) {
			if (parse_count(v, &a->client, why, sizeof(why)))
				return usage_error("record: --client: %s", why);
			a->by_client = true;
		} else if (k == O_DURATION) {
			if (parse_seconds(v, &a->duration, why, sizeof(why)))
				return usage_error("record: --duration: %s", why);
			a->timed = true;
		} else if (!a->file) {
			a->file = v;
		} else {
			return usage_error("record: unexpected argument '%s' (one file)", v);
		}
	}
	if (!a->file)
		return usage_error("record: no file given (a file, or - for standard output)");
	if (a->pid && !alive(a->pid))
		return usage_error("record: --pid %d: no such process", (int)a->pid);
	return 0;
}

static void print_header(const struct recorder *rec, const struct record_args *a)
{
	fprintf(rec->out, "# vrampool allocation trace: `alloc ID SIZE [persistent]` or `free ID`, one a line (vrampoolctl(1))\n");
	fprintf(rec->out, "# made by: vrampoolctl record");
	if (a->pid)
		fprintf(rec->out, " --pid %d", (int)a->pid);
	if (a->by_client)
		fprintf(rec->out, " --client %" PRIu64, a->client);
	fprintf(rec->out, "\n");
}

static void print_summary(const struct recorder *rec, const char *why, uint64_t lost)
{
	if (lost)
		fprintf(rec->out, "# %" PRIu64 " events lost: the tracing buffer overran\n", lost);
	fprintf(rec->out, "# recorded: %" PRIu64 " allocs (%" PRIu64 " persistent), %" PRIu64 " frees, %zu left live; peak live %" PRIu64 " bytes; %" PRIu64 " frees of earlier allocations left out; %" PRIu64 " unseen frees; stopped: %s\n",
		rec->allocs, rec->persistent, rec->frees, rec->nlive, rec->peak_bytes,
		rec->unknown_frees, rec->reused, why);
}

static int record_loop(struct recorder *rec, const struct record_args *a, int pipe_fd,
		       const char **why)
{
	uint64_t end = 0;
	struct pollfd pfd = { .fd = pipe_fd, .events = POLLIN };

	if (a->timed)
		end = mono_ns() + (uint64_t)a->duration.tv_sec * 1000000000ULL +
		      (uint64_t)a->duration.tv_nsec;
	for (;;) {
		if (!drain(rec, pipe_fd))
			return -errno;
		if (stop_signal) {
			*why = stop_signal == SIGINT ? "SIGINT" : "SIGTERM";
			break;
		}
		if (a->pid && !alive(a->pid)) {
			*why = "the process exited";
			break;
		}
		if (a->timed && mono_ns() >= end) {
			*why = "the duration passed";
			break;
		}
		poll(&pfd, 1, POLL_MS);
	}
	/* What the buffer still holds: the last events came before the exit. */
	return drain(rec, pipe_fd) ? 0 : -errno;
}

static int run(int argc, char **argv)
{
	static struct recorder rec;
	struct record_args a;
	struct sigaction sa = { .sa_handler = on_signal };
	const char *root, *why = "?";
	char path[PATH_MAX];
	uint64_t lost;
	int ret, pipe_fd, threads = 0;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	root = tracefs_root();
	if (!root) {
		fprintf(stderr, "vrampoolctl: record: no tracefs at /sys/kernel/tracing or /sys/kernel/debug/tracing (mount -t tracefs nodev /sys/kernel/tracing)\n");
		return EXIT_FAILED;
	}
	if (geteuid()) {
		fprintf(stderr, "vrampoolctl: record: tracefs needs root (run as root)\n");
		return EXIT_FAILED;
	}
	memset(&rec, 0, sizeof(rec));
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = instance_setup(&rec, root, a.pid, a.by_client, a.client, &threads);
	if (ret)
		goto out;
	path_fmt(path, sizeof(path), "%s/trace_pipe", rec.inst);
	pipe_fd = open(path, O_RDONLY | O_NONBLOCK);
	if (pipe_fd < 0) {
		ret = tracefs_error(path, -errno);
		goto out;
	}
	rec.out = strcmp(a.file, "-") ? fopen(a.file, "w") : stdout;
	if (!rec.out) {
		fprintf(stderr, "vrampoolctl: record: %s: %s\n", a.file, strerror(errno));
		ret = EXIT_FAILED;
		goto out_pipe;
	}
	print_header(&rec, &a);
	if (a.pid)
		fprintf(stderr, "vrampoolctl: record: recording pid %d (%d thread%s) into %s, until it exits\n",
			(int)a.pid, threads, threads == 1 ? "" : "s", a.file);
	else
		fprintf(stderr, "vrampoolctl: record: recording %s into %s, until SIGINT or SIGTERM%s\n",
			a.by_client ? "the client" : "every client", a.file,
			a.timed ? " or the duration" : "");
	ret = record_loop(&rec, &a, pipe_fd, &why);
	if (ret) {
		fprintf(stderr, "vrampoolctl: record: reading trace_pipe: %s\n", strerror(-ret));
		why = "a read error";
	}
	lost = lost_events(&rec);
	if (lost)
		fprintf(stderr, "vrampoolctl: record: %" PRIu64 " events lost (the tracing buffer overran): the trace is incomplete\n",
			lost);
	print_summary(&rec, why, lost);
	ret = ret ? EXIT_FAILED : EXIT_OK;
	if (rec.out != stdout && fclose(rec.out)) {
		fprintf(stderr, "vrampoolctl: record: %s: %s\n", a.file, strerror(errno));
		ret = EXIT_FAILED;
	} else if (rec.out == stdout) {
		fflush(stdout);
	}
out_pipe:
	close(pipe_fd);
out:
	instance_remove(&rec);
	free(rec.live);
	free(rec.sizes);
	return ret;
}

const struct command cmd_record = {
	.name = "record",
	.help = "  record [--pid P] [--client ID] [--duration SECS] FILE|-\n"
		"      Record allocations and frees from the vrampool tracepoints (tracefs,\n"
		"      as root) as a trace that replay reads: of process P's threads, of\n"
		"      client ID (drm-client-id), or of every client; until P exits,\n"
		"      SIGINT or SIGTERM, or SECS seconds.\n",
	.run = run,
};

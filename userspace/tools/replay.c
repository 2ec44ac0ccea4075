// SPDX-License-Identifier: MIT
/*
 * vrampoolctl replay: a trace of allocations, replayed through the ioctls.
 *
 *   vrampoolctl replay [--device PATH] [--json] TRACE|- [LAYOUT]
 *
 * The trace format (`vrampoolctl trace` writes it; so can anything else):
 *
 *   # a comment, from '#' to the end of the line; blank lines are skipped
 *   alloc ID SIZE [persistent]
 *   free ID
 *
 * One operation a line, its words separated by blanks. ID is the trace's
 * own name for an allocation: 1 to 63 letters, digits, '_', '-' or '.'.
 * An ID names one live allocation at a time, and may be allocated again
 * once freed. SIZE is a number of bytes, with an optional unit as
 * everywhere in vrampoolctl (4096, 64MiB). `persistent` asks for the
 * persistent pool (DRM_VRAMPOOL_ALLOC_PERSISTENT). What a trace leaves
 * live is freed when the device is closed.
 *
 * The trace is read and checked whole before the device is opened: an
 * unknown operation, a bad ID or size, an alloc of an ID that is live or a
 * free of one that is not is a usage error (exit 2) naming the line. Then
 * one client (one open file) installs LAYOUT (in the syntax of `install`;
 * without it, the client keeps the default layout a new client has:
 * sub-slices, or exclusive-pages on an exclusive-memory-only device) and
 * makes every operation in order through ALLOC and FREE. The first one
 * that fails stops the replay with its documented error (exit 1).
 *
 * The figures:
 *  - peak live: the most bytes the live allocations held at once (the sum
 *    of their sizes), as the trace itself says;
 *  - peak reserved: the most bytes the client's pools reserved at once
 *    (reserved_bytes of every pool, the persistent pool 255 included),
 *    sampled with one POOL_QUERY after each ALLOC: only an ALLOC can make
 *    a pool reserve more (FREE never does), so the samples see the peak;
 *  - their ratio, peak reserved / peak live;
 *  - ops/s: operations per second of time spent in ALLOC and FREE alone
 *    (the POOL_QUERY samples are timed apart, in the wall time);
 *  - the same peaks for the dynamic pools alone (without pool 255 and the
 *    persistent allocations), which pools served how many allocations,
 *    and the pools as they are at the end of the trace (nothing cleaned).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "vrampoolctl.h"

#define MAX_TRACE_WORDS	4

/* The command whose messages these are: "replay" or "plan". */
static const char *trace_cmd = "replay";

static int trace_error(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int trace_error(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vrampoolctl: %s: line %d: ", trace_cmd, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static void *must_grow(void *p, size_t *cap, size_t elem)
{
	size_t ncap = *cap ? 2 * *cap : 1024;

	p = realloc(p, ncap * elem);
	if (!p) {
		fprintf(stderr, "vrampoolctl: replay: out of memory\n");
		exit(EXIT_FAILED);
	}
	*cap = ncap;
	return p;
}

/* ---- IDs ------------------------------------------------------------------ */

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static void rehash(struct trace *t, size_t nslots)
{
	size_t i, k, mask = nslots - 1;

	free(t->slots);
	t->slots = calloc(nslots, sizeof(*t->slots));
	if (!t->slots) {
		fprintf(stderr, "vrampoolctl: replay: out of memory\n");
		exit(EXIT_FAILED);
	}
	t->nslots = nslots;
	for (i = 0; i < t->nids; i++) {
		for (k = hash(t->ids[i].name) & mask; t->slots[k]; k = (k + 1) & mask)
			;
		t->slots[k] = (uint32_t)i + 1;
	}
}

/* The index of ID @name; with @add, a new one if it is not known. -1: unknown. */
static long find_id(struct trace *t, const char *name, bool add)
{
	size_t k, mask;

	if (add && 2 * (t->nids + 1) > t->nslots)
		rehash(t, t->nslots ? 2 * t->nslots : 1024);
	if (!t->nslots)
		return -1;
	mask = t->nslots - 1;
	for (k = hash(name) & mask; t->slots[k]; k = (k + 1) & mask) {
		if (!strcmp(t->ids[t->slots[k] - 1].name, name))
			return t->slots[k] - 1;
	}
	if (!add)
		return -1;
	if (t->nids == t->capids)
		t->ids = must_grow(t->ids, &t->capids, sizeof(*t->ids));
	t->ids[t->nids] = (struct trace_id){ .name = strdup(name) };
	if (!t->ids[t->nids].name) {
		fprintf(stderr, "vrampoolctl: replay: out of memory\n");
		exit(EXIT_FAILED);
	}
	t->slots[k] = (uint32_t)t->nids + 1;
	return (long)t->nids++;
}

void free_trace(struct trace *t)
{
	size_t i;

	for (i = 0; i < t->nids; i++)
		free(t->ids[i].name);
	free(t->ids);
	free(t->ops);
	free(t->slots);
}

/* ---- Reading a trace ------------------------------------------------------ */

/* One line's operation into @t; a mistake is reported and returned. */
static int parse_op(struct trace *t, int line, int n, char **w)
{
	struct trace_op op = { .line = line };
	struct trace_id *id;
	char why[384];
	long i;

	if (!strcmp(w[0], "alloc")) {
		if (n < 3 || n > 4)
			return trace_error(line, "usage: alloc ID SIZE [persistent]");
		if (!valid_name(w[1]))
			return trace_error(line, "'%s' is not an ID (letters, digits, _ - .; at most %d)",
					   w[1], NAME_MAX_LEN);
		if (parse_size(w[2], &op.size, why, sizeof(why)))
			return trace_error(line, "alloc: %s", why);
		if (n == 4) {
			if (strcmp(w[3], "persistent"))
				return trace_error(line, "alloc: '%s': only 'persistent' may follow the size",
						   w[3]);
			op.persistent = true;
		}
		i = find_id(t, w[1], true);
		id = &t->ids[i];
		if (id->live)
			return trace_error(line, "'%s' is still allocated (line %d): free it first",
					   w[1], id->line);
		op.alloc = true;
		id->live = true;
	} else if (!strcmp(w[0], "free")) {
		if (n != 2)
			return trace_error(line, "usage: free ID");
		i = find_id(t, w[1], false);
		if (i < 0)
			return trace_error(line, "'%s' is not allocated by an earlier line", w[1]);
		id = &t->ids[i];
		if (!id->live)
			return trace_error(line, "'%s' is already freed (line %d)", w[1], id->line);
		id->live = false;
	} else {
		return trace_error(line, "unknown operation '%s' (alloc or free)", w[0]);
	}
	id->line = line;
	op.id = (uint32_t)i;
	if (t->nops == t->capops)
		t->ops = must_grow(t->ops, &t->capops, sizeof(*t->ops));
	t->ops[t->nops++] = op;
	return 0;
}

static int parse_trace(FILE *in, const char *file, struct trace *t)
{
	char *line = NULL, *save, *w, *words[MAX_TRACE_WORDS + 1];
	size_t cap = 0, i;
	int lineno = 0, n, ret = 0;

	while (!ret && getline(&line, &cap, in) >= 0) {
		lineno++;
		n = 0;
		save = NULL;
		for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
			if (*w == '#')
				break;
			if (n == MAX_TRACE_WORDS + 1)
				break;
			words[n++] = w;
		}
		if (n)
			ret = parse_op(t, lineno, n, words);
	}
	free(line);
	if (!ret && ferror(in))
		ret = trace_error(lineno, "read error: %s", strerror(errno));
	if (!ret && !t->nops)
		ret = usage_error("%s: %s: no operation (alloc or free) in the trace", trace_cmd, file);
	/* The replay starts with nothing live. */
	for (i = 0; i < t->nids; i++)
		t->ids[i].live = false;
	return ret;
}

int load_trace(const char *cmd, const char *file, struct trace *t)
{
	FILE *in;
	int ret;

	trace_cmd = cmd;
	in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!in)
		return usage_error("%s: %s: %s", cmd, file, strerror(errno));
	ret = parse_trace(in, file, t);
	if (in != stdin)
		fclose(in);
	return ret;
}

/* ---- Replaying ------------------------------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* POOL_QUERY into a buffer sized once: the layout does not change meanwhile. */
struct sampler {
	struct drm_vrampool_pool_status *pools;
	uint32_t size;
};

static int sampler_init(int fd, struct sampler *s)
{
	struct drm_vrampool_pool_query q = { 0 };

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q))
		return -errno;
	s->size = q.size;
	s->pools = malloc(q.size);
	return s->pools ? 0 : -ENOMEM;
}

static int sample(int fd, struct sampler *s, struct replay_result *r)
{
	struct drm_vrampool_pool_query q = { .size = s->size, .pools = (uintptr_t)s->pools };
	uint64_t all = 0, dyn = 0;
	uint32_t i;

	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q))
		return -errno;
	for (i = 0; i < s->size / sizeof(*s->pools); i++) {
		all += s->pools[i].reserved_bytes;
		if (s->pools[i].index != DRM_VRAMPOOL_PERSISTENT_POOL)
			dyn += s->pools[i].reserved_bytes;
	}
	if (all > r->peak_reserved)
		r->peak_reserved = all;
	if (dyn > r->peak_reserved_dyn)
		r->peak_reserved_dyn = dyn;
	if (q.vram_in_use > r->peak_vram)
		r->peak_vram = q.vram_in_use;
	return 0;
}

static int replay_alloc(int fd, struct trace *t, const struct trace_op *op, struct sampler *s,
			struct replay_result *r)
{
	struct vrampool_allocation a;
	uint64_t t0;
	int ret;

	t0 = now_ns();
	ret = vrampool_alloc(fd, op->size, op->persistent ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a,
			     &r->err);
	r->op_ns += now_ns() - t0;
	if (ret) {
		r->failed_call = "ALLOC";
		return ret;
	}
	t->ids[op->id].handle = a.handle;
	t->ids[op->id].size = op->size;
	t->ids[op->id].persistent = op->persistent;
	t->ids[op->id].live = true;
	r->allocs++;
	r->persistent += op->persistent;
	r->served[a.pool % N_POOLS]++;
	r->live += op->size;
	if (r->live > r->peak_live)
		r->peak_live = r->live;
	if (!op->persistent) {
		r->live_dyn += op->size;
		if (r->live_dyn > r->peak_live_dyn)
			r->peak_live_dyn = r->live_dyn;
	}
	ret = sample(fd, s, r);
	if (ret) {
		vrampool_error_from_ioctl(&r->err, -ret, NULL);
		r->failed_call = "POOL_QUERY";
	}
	return ret;
}

static int replay_free(int fd, struct trace *t, const struct trace_op *op,
		       struct replay_result *r)
{
	struct trace_id *id = &t->ids[op->id];
	uint64_t t0;
	int ret;

	t0 = now_ns();
	ret = vrampool_free(fd, id->handle, &r->err);
	r->op_ns += now_ns() - t0;
	if (ret) {
		r->failed_call = "FREE";
		return ret;
	}
	id->live = false;
	r->frees++;
	r->live -= id->size;
	if (!id->persistent)
		r->live_dyn -= id->size;
	return 0;
}

int replay(int fd, struct trace *t, struct replay_result *r)
{
	struct sampler s = { 0 };
	uint64_t start;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < t->nids; i++)
		t->ids[i].live = false;
	start = now_ns();
	ret = sampler_init(fd, &s);
	if (!ret)
		ret = sample(fd, &s, r);
	if (ret) {
		fprintf(stderr, "vrampoolctl: replay: POOL_QUERY: %s\n", strerror(-ret));
		free(s.pools);
		return ret;
	}
	for (i = 0; !ret && i < t->nops; i++) {
		const struct trace_op *op = &t->ops[i];

		ret = op->alloc ? replay_alloc(fd, t, op, &s, r) : replay_free(fd, t, op, r);
		if (ret)
			r->failed = op;
		else
			r->done++;
	}
	r->wall_ns = now_ns() - start;
	for (i = 0; i < t->nids; i++) {
		if (t->ids[i].live)
			r->left++;
	}
	r->left_bytes = r->live;
	free(s.pools);
	return ret;
}

/* ---- Reporting -------------------------------------------------------------- */

struct replay_ctx {
	const char *file;
	const struct vrampool_device_info *info;
	const char *layout;	/* the layout, for people: "sub-slices (the default)" */
	const char *preset;	/* the preset's name, NULL with pool specs */
	bool default_layout;
	struct trace *t;
	struct replay_result *r;
	const struct client_view *end;	/* the pools after the trace, or NULL */
};

static double ratio(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : -1.0;
}

uint64_t ops_per_sec(const struct replay_result *r)
{
	return r->op_ns ? (uint64_t)((double)(r->allocs + r->frees) * 1e9 / (double)r->op_ns) : 0;
}

static void print_figure(const char *label, uint64_t v)
{
	char a[32];

	printf("  %-15s %" PRIu64 " (%s)\n", label, v, format_approx(v, a, sizeof(a)));
}

static void print_ratio(const char *label, uint64_t num, uint64_t den, const char *what)
{
	if (den)
		printf("  %-15s %.3f (%s)\n", label, ratio(num, den), what);
	else
		printf("  %-15s - (%s; nothing was live)\n", label, what);
}

static void print_result(const struct replay_ctx *c)
{
	const struct replay_result *r = c->r;
	char a[32], b[32];
	bool first = true;
	unsigned int p;

	if (c->r->failed)
		printf("replay %s: stopped at line %d, after %zu of %zu operations, on %s (%s, %s), layout %s\n",
		       c->file, r->failed->line, r->done, c->t->nops, c->info->path, c->info->name,
		       vrampool_backend_name(c->info->backend), c->layout);
	else
		printf("replay %s: %zu operations (%" PRIu64 " allocs, %" PRIu64 " frees) on %s (%s, %s), layout %s\n",
		       c->file, r->done, r->allocs, r->frees, c->info->path, c->info->name,
		       vrampool_backend_name(c->info->backend), c->layout);
	print_figure("peak live", r->peak_live);
	print_figure("peak reserved", r->peak_reserved);
	print_ratio("ratio", r->peak_reserved, r->peak_live, "peak reserved / peak live");
	printf("  %-15s peak live %" PRIu64 " (%s), peak reserved %" PRIu64 " (%s), ratio ",
	       "dynamic pools", r->peak_live_dyn, format_approx(r->peak_live_dyn, a, sizeof(a)),
	       r->peak_reserved_dyn, format_approx(r->peak_reserved_dyn, b, sizeof(b)));
	if (r->peak_live_dyn)
		printf("%.3f\n", ratio(r->peak_reserved_dyn, r->peak_live_dyn));
	else
		printf("-\n");
	printf("  %-15s %" PRIu64 " (%.1f ms in ALLOC and FREE; %.1f ms in all, with a POOL_QUERY after each ALLOC)\n",
	       "ops/s", ops_per_sec(r), (double)r->op_ns / 1e6, (double)r->wall_ns / 1e6);
	printf("  %-15s", "served by pool");
	for (p = 0; p < N_POOLS; p++) {
		if (!r->served[p])
			continue;
		printf("%s %u: %" PRIu64, first ? "" : ",", p, r->served[p]);
		first = false;
	}
	printf("%s\n", first ? " none" : "");
	printf("  %-15s %" PRIu64 " allocation%s, %" PRIu64 " bytes\n", "left live", r->left,
	       r->left == 1 ? "" : "s", r->left_bytes);
	if (c->end) {
		printf("pools at the end of the trace (nothing cleaned up):\n");
		print_pool_table(stdout, c->end->pools, c->end->count);
	}
}

static void json_figures(struct json *j, const char *key, uint64_t live, uint64_t reserved)
{
	if (key)
		json_object_begin(j, key);
	json_u64(j, "peak_live", live);
	json_u64(j, "peak_reserved", reserved);
	if (live)
		json_double(j, "ratio", ratio(reserved, live));
	else
		json_null(j, "ratio");
	if (key)
		json_object_end(j);
}

static void json_result(const struct replay_ctx *c)
{
	const struct replay_result *r = c->r;
	char text[160];
	struct json j;
	unsigned int p;
	uint32_t i;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_bool(&j, "ok", !r->failed);
	json_string(&j, "device", c->info->path);
	json_string(&j, "trace", c->file);
	if (c->preset)
		json_string(&j, "preset", c->preset);
	else
		json_null(&j, "preset");
	json_bool(&j, "default_layout", c->default_layout);
	json_u64(&j, "operations", c->t->nops);
	json_u64(&j, "done", r->done);
	json_u64(&j, "allocs", r->allocs);
	json_u64(&j, "frees", r->frees);
	json_u64(&j, "persistent_allocs", r->persistent);
	json_figures(&j, NULL, r->peak_live, r->peak_reserved);
	json_figures(&j, "dynamic", r->peak_live_dyn, r->peak_reserved_dyn);
	json_u64(&j, "peak_vram", r->peak_vram);
	json_u64(&j, "op_ns", r->op_ns);
	json_u64(&j, "wall_ns", r->wall_ns);
	if (r->op_ns)
		json_u64(&j, "ops_per_sec", ops_per_sec(r));
	else
		json_null(&j, "ops_per_sec");
	json_array_begin(&j, "served");
	for (p = 0; p < N_POOLS; p++) {
		if (!r->served[p])
			continue;
		json_object_begin(&j, NULL);
		json_u64(&j, "pool", p);
		json_u64(&j, "allocs", r->served[p]);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_u64(&j, "left_live", r->left);
	json_u64(&j, "left_live_bytes", r->left_bytes);
	if (r->failed) {
		const struct trace_op *op = r->failed;

		json_u64(&j, "line", (uint64_t)op->line);
		if (op->alloc)
			snprintf(text, sizeof(text), "alloc %s %" PRIu64 "%s", c->t->ids[op->id].name,
				 op->size, op->persistent ? " persistent" : "");
		else
			snprintf(text, sizeof(text), "free %s", c->t->ids[op->id].name);
		json_string(&j, "op", text);
		json_string(&j, "call", r->failed_call);
		json_object_begin(&j, "error");
		json_error(&j, &r->err);
		json_object_end(&j);
	}
	json_array_begin(&j, "pools");
	for (i = 0; c->end && i < c->end->count; i++)
		json_pool_status(&j, &c->end->pools[i]);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

static void print_failure(const struct replay_ctx *c)
{
	const struct trace_op *op = c->r->failed;
	char prefix[256];

	if (op->alloc)
		snprintf(prefix, sizeof(prefix), "vrampoolctl: replay: line %d: alloc %s %" PRIu64 "%s: %s",
			 op->line, c->t->ids[op->id].name, op->size, op->persistent ? " persistent" : "",
			 strcmp(c->r->failed_call, "POOL_QUERY") ? "" : "POOL_QUERY: ");
	else
		snprintf(prefix, sizeof(prefix), "vrampoolctl: replay: line %d: free %s: ", op->line,
			 c->t->ids[op->id].name);
	print_error(stderr, prefix, &c->r->err, NULL, 0);
}

/* ---- The command ------------------------------------------------------------- */

static const char replay_usage[] =
	"usage: vrampoolctl replay [--device PATH] [--json] TRACE|- [LAYOUT]\n";

static int install_layout(int fd, struct layout_request *req)
{
	struct vrampool_error err;

	if (!vrampool_pool_install(fd, 0, req->preset, layout_entries(req), req->count, NULL, &err))
		return 0;
	print_error(stderr, "vrampoolctl: replay: install: ", &err, req->entries, req->count);
	return -1;
}

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_JSON,
	OPT_END,
};

/* argv: the trace, then the layout's words. */
static int run(const struct opts *o, int argc, char **argv)
{
	static struct layout_request req;
	static struct replay_result r;
	struct vrampool_device_info info;
	struct client_view view = { 0 };
	struct trace t = { 0 };
	struct replay_ctx c = { .t = &t, .r = &r, .info = &info };
	const char *file = argc ? argv[0] : NULL;
	char **layout = argv + 1, why[512], layout_text[64];
	int nlayout = argc ? argc - 1 : 0, fd, ret;
	bool have_view = false;

	if (!file)
		return usage_error("replay: no trace given (a file, or - for standard input)");
	if (nlayout && parse_layout(nlayout, layout, &req, why, sizeof(why)))
		return usage_error("replay: %s", why);

	ret = load_trace("replay", file, &t);
	if (ret)
		goto out_trace;

	fd = open_device(o->device, &info);
	if (fd < 0) {
		ret = -fd;
		goto out_trace;
	}
	c.file = file;
	c.default_layout = !nlayout;
	c.layout = layout_text;
	if (!nlayout) {
		c.preset = info.exclusive_memory_only ? "exclusive-pages" : "sub-slices";
		snprintf(layout_text, sizeof(layout_text), "%s (the default)", c.preset);
	} else if (req.preset != DRM_VRAMPOOL_PRESET_NONE) {
		c.preset = vrampool_preset_name(req.preset);
		snprintf(layout_text, sizeof(layout_text), "%s", c.preset);
	} else {
		snprintf(layout_text, sizeof(layout_text), "of %u pool spec%s", req.count,
			 req.count == 1 ? "" : "s");
	}
	if (nlayout && install_layout(fd, &req)) {
		ret = EXIT_FAILED;
		goto out_close;
	}

	ret = replay(fd, &t, &r) ? EXIT_FAILED : EXIT_OK;
	if (ret && !r.failed)
		goto out_close;		/* the first POOL_QUERY failed (printed) */
	if (!client_view_read(fd, &view)) {
		have_view = true;
		c.end = &view;
	}
	if (o->json)
		json_result(&c);
	else
		print_result(&c);
	if (r.failed)
		print_failure(&c);
	if (have_view)
		client_view_free(&view);
out_close:
	close(fd);	/* frees whatever the trace left live */
out_trace:
	free_trace(&t);
	return ret;
}

const struct command cmd_replay = {
	.name = "replay",
	.help = "  replay [--device PATH] [--json] TRACE|- [LAYOUT]\n"
		"      Replay a trace through ALLOC and FREE in one client, with LAYOUT\n"
		"      (default: a new client's default layout), and print its peak live\n"
		"      and peak reserved bytes, their ratio and ops/s.\n",
	.parser = { .opts = options, .usage = replay_usage, .max_operands = OPT_ANY },
	.run_opts = run,
};

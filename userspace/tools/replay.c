// SPDX-License-Identifier: MIT
/*
 * vrampoolctl replay: a trace of allocations, replayed through the ioctls.
 *
 *   vrampoolctl replay [--device PATH] [--json] TRACE|- [LAYOUT]
 *
 * The trace is read and checked whole first (tracefile.c); then one client
 * (one open file) installs LAYOUT (in the syntax of `install`; without it,
 * the client keeps the default layout a new client has: sub-slices, or
 * exclusive-pages on an exclusive-memory-only device) and makes every
 * operation in order through ALLOC and FREE (replayer.c, which says what
 * the figures are). The first one that fails stops the replay with its
 * documented error (exit 1).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vrampoolctl.h"

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

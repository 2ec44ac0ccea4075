// SPDX-License-Identifier: MIT
/*
 * vrampoolctl plan: a layout proposed for a trace, replayed beside the presets.
 *
 *   vrampoolctl plan [--device PATH] [--json] TRACE|-
 *
 * reads the trace (the format of `vrampoolctl replay`, replay.c), derives
 * candidate layouts from its sizes and its live set over time and the
 * device's alignment, largest page and VRAM, replays the trace with each
 * candidate and with each preset through the device (a fresh client per
 * candidate, the layout installed, then every ALLOC and FREE, as replay
 * does), and prints their figures side by side and the chosen layout as
 * an `install` line (a script line of `vrampoolctl run`, and, after
 * "vrampoolctl ", a command line that install and validate accept).
 *
 * The candidates (eff(s): s aligned up to the device's alignment):
 *
 *  - the presets, sub-slices and exclusive-pages (where the device has
 *    them);
 *  - "sliced heap": one sliced pool of the largest page, slices up to a
 *    whole page, capped at the VRAM (a capped pool takes no size above
 *    its slices: no near-page rule), then a direct pool for anything
 *    larger;
 *  - "sliced <= T + direct", T = 1 MiB, 256 KiB, 64 KiB: the small
 *    allocations in a capped sliced pool of pages of 16 T (at most the
 *    largest page), every larger one in a direct pool;
 *  - "direct": one direct pool for every size.
 *
 * Each direct pool gets reclaim=R, R the peak, over the trace, of the sum
 * of eff(s) of the live non-persistent allocations it serves (the sizes
 * above T): the pool keeps free buffers for reuse while it holds at most
 * R, and releases them before it would grow past R, so it never holds
 * more than R, the least it can hold at its own peak.
 *
 * The choice: the least peak reserved (peak live is the trace's, the same
 * for all) wins; within 1% of it, and no more than any preset's, the
 * candidate listed first, presets first, then the candidates above in
 * that order, which make fewer buffer objects (fewer direct pools'
 * buffers, each a TTM buffer object made on an ALLOC) and so run faster.
 * ops/s are shown, never used: the choice is the same on every run on a
 * given device (the replay's peaks do not depend on timing).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampoolctl.h"

#define MAX_CANDIDATES	8
#define MAX_PLAN_ENTRIES	2
#define NEAR_PERCENT	1	/* within 1% of the least peak reserved */

struct candidate {
	char name[48];
	uint32_t preset;	/* DRM_VRAMPOOL_PRESET_*, NONE for @entries */
	uint32_t count;
	struct drm_vrampool_pool_entry entries[MAX_PLAN_ENTRIES];
	char spec[256];		/* the layout in install's syntax */
	bool ran, ok;
	const char *failed_call;	/* install: "POOL_INSTALL" */
	struct replay_result r;
};

struct plan {
	struct candidate c[MAX_CANDIDATES];
	int n;
	int chosen;		/* -1: none replayed */
	uint64_t best, bound;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* The peak of the eff() sum of live non-persistent allocations above @above. */
static uint64_t peak_above(const struct trace *t, uint64_t above, uint64_t align)
{
	uint64_t live = 0, peak = 0, *size;
	size_t i;

	size = calloc(t->nids ? t->nids : 1, sizeof(*size));
	if (!size) {
		fprintf(stderr, "vrampoolctl: plan: out of memory\n");
		exit(EXIT_FAILED);
	}
	for (i = 0; i < t->nops; i++) {
		const struct trace_op *op = &t->ops[i];

		if (op->alloc) {
			size[op->id] = op->persistent || op->size <= above ? 0 :
				       align_up(op->size, align);
			live += size[op->id];
			if (live > peak)
				peak = live;
		} else {
			live -= size[op->id];
			size[op->id] = 0;
		}
	}
	free(size);
	return peak;
}

static struct drm_vrampool_pool_entry direct_entry(uint64_t reclaim)
{
	return (struct drm_vrampool_pool_entry) {
		.type = DRM_VRAMPOOL_POOL_DIRECT,
		.flags = DRM_VRAMPOOL_ENTRY_RECLAIM_AT,
		.reclaim_at = reclaim,
	};
}

/* A capped sliced pool: pages of @page, slices up to @slice, the VRAM's worth of pages. */
static bool sliced_entry(const struct vrampool_device_info *info, uint64_t page, uint64_t slice,
			 struct drm_vrampool_pool_entry *e)
{
	uint64_t pages = info->vram_size / page;

	if (!pages)
		return false;
	if (pages > 65535)
		pages = 65535;
	*e = (struct drm_vrampool_pool_entry) {
		.type = DRM_VRAMPOOL_POOL_SLICED,
		.flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
		.page_size = page,
		.max_slice_size = slice,
		.max_pool_size = pages * page,
	};
	return true;
}

static bool same_layout(const struct candidate *a, const struct candidate *b)
{
	return a->preset == b->preset && a->count == b->count &&
	       !memcmp(a->entries, b->entries, a->count * sizeof(a->entries[0]));
}

static void add(struct plan *p, const char *name, uint32_t preset,
		const struct drm_vrampool_pool_entry *e, uint32_t count)
{
	struct candidate *c = &p->c[p->n];
	char spec[160];
	uint32_t i;
	int k, len = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->preset = preset;
	c->count = count;
	for (i = 0; i < count; i++)
		c->entries[i] = e[i];
	for (k = 0; k < p->n; k++) {
		if (same_layout(&p->c[k], c))
			return;
	}
	if (preset != DRM_VRAMPOOL_PRESET_NONE)
		snprintf(c->spec, sizeof(c->spec), "%s", vrampool_preset_name(preset));
	for (i = 0; i < count; i++)
		len += snprintf(c->spec + len, sizeof(c->spec) - (size_t)len, "%s%s", i ? " " : "",
				format_spec(&e[i], spec, sizeof(spec)));
	p->n++;
}

static void candidates(struct plan *p, const struct trace *t,
		       const struct vrampool_device_info *info)
{
	static const uint64_t smalls[] = { 1ULL << 20, 256ULL << 10, 64ULL << 10 };
	uint64_t a = info->alignment, m = info->max_page_size / a * a, page, slice;
	struct drm_vrampool_pool_entry e[MAX_PLAN_ENTRIES];
	char name[48], sz[32];
	unsigned int k;

	if (!info->exclusive_memory_only)
		add(p, "sub-slices", DRM_VRAMPOOL_PRESET_SUB_SLICES, NULL, 0);
	add(p, "exclusive-pages", DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES, NULL, 0);
	if (!info->exclusive_memory_only && m && sliced_entry(info, m, m, &e[0])) {
		e[1] = direct_entry(peak_above(t, m, a));
		add(p, "sliced heap", DRM_VRAMPOOL_PRESET_NONE, e, 2);
	}
	for (k = 0; !info->exclusive_memory_only && k < sizeof(smalls) / sizeof(smalls[0]); k++) {
		slice = align_up(smalls[k], a);
		page = align_up(16 * smalls[k], a);
		if (page > m)
			page = m;
		if (slice > page || !sliced_entry(info, page, slice, &e[0]))
			continue;
		e[1] = direct_entry(peak_above(t, slice, a));
		snprintf(name, sizeof(name), "sliced <= %s + direct",
			 format_size(slice, sz, sizeof(sz)));
		add(p, name, DRM_VRAMPOOL_PRESET_NONE, e, 2);
	}
	e[0] = direct_entry(peak_above(t, 0, a));
	add(p, "direct", DRM_VRAMPOOL_PRESET_NONE, e, 1);
}

/* One candidate: a fresh client, the layout installed, the trace replayed. */
static int run_candidate(const char *device, struct trace *t, struct candidate *c)
{
	struct vrampool_device_info info;
	int fd, ret;

	fd = open_device(device, &info);
	if (fd < 0)
		return -fd;
	c->ran = true;
	ret = vrampool_pool_install(fd, 0, c->preset, c->count ? c->entries : NULL, c->count,
				    NULL, &c->r.err);
	if (ret) {
		c->failed_call = "POOL_INSTALL";
	} else {
		ret = replay(fd, t, &c->r);
		if (ret && !c->r.failed) {	/* the first POOL_QUERY (printed) */
			close(fd);
			return EXIT_FAILED;
		}
		c->failed_call = c->r.failed_call;
	}
	c->ok = !ret;
	close(fd);		/* frees whatever the trace left live */
	return EXIT_OK;
}

static void choose(struct plan *p)
{
	uint64_t presets = UINT64_MAX;
	int k;

	p->chosen = -1;
	p->best = UINT64_MAX;
	for (k = 0; k < p->n; k++) {
		if (!p->c[k].ok)
			continue;
		if (p->c[k].r.peak_reserved < p->best)
			p->best = p->c[k].r.peak_reserved;
		if (p->c[k].preset != DRM_VRAMPOOL_PRESET_NONE && p->c[k].r.peak_reserved < presets)
			presets = p->c[k].r.peak_reserved;
	}
	if (p->best == UINT64_MAX)
		return;
	p->bound = p->best + p->best / 100 * NEAR_PERCENT;
	if (presets < p->bound)
		p->bound = presets;
	for (k = 0; k < p->n; k++) {
		if (p->c[k].ok && p->c[k].r.peak_reserved <= p->bound) {
			p->chosen = k;
			return;
		}
	}
}

static double ratio_of(const struct replay_result *r)
{
	return r->peak_live ? (double)r->peak_reserved / (double)r->peak_live : -1.0;
}

static void print_plan(const struct plan *p, const char *file, const struct trace *t,
		       const struct vrampool_device_info *info)
{
	char a[32], b[32], msg[MSG_MAX];
	int k;

	printf("plan %s: %zu operations on %s (%s, %s): alignment %" PRIu64 ", largest page %s, VRAM %s\n",
	       file, t->nops, info->path, info->name, vrampool_backend_name(info->backend),
	       info->alignment, format_size(info->max_page_size, a, sizeof(a)),
	       format_size(info->vram_size, b, sizeof(b)));
	printf("  %-24s %12s %14s %7s %9s  %s\n", "candidate", "peak live", "peak reserved",
	       "ratio", "ops/s", "layout");
	for (k = 0; k < p->n; k++) {
		const struct candidate *c = &p->c[k];

		if (!c->ok) {
			vrampool_error_message(&c->r.err, msg, sizeof(msg));
			printf("%c %-24s failed: %s: %s: %s  %s\n", ' ', c->name,
			       c->failed_call ? c->failed_call : "?",
			       vrampool_error_kind_name(c->r.err.kind), msg, c->spec);
			continue;
		}
		printf("%c %-24s %12" PRIu64 " %14" PRIu64 " %7.3f %9" PRIu64 "  %s\n",
		       k == p->chosen ? '*' : ' ', c->name, c->r.peak_live, c->r.peak_reserved,
		       ratio_of(&c->r), ops_per_sec(&c->r), c->spec);
	}
	if (p->chosen < 0)
		return;
	printf("chosen: %s, ratio %.3f (the least peak reserved: %" PRIu64 "; within 1%% of it and no more than a preset's: %" PRIu64 ")\n",
	       p->c[p->chosen].name, ratio_of(&p->c[p->chosen].r), p->best, p->bound);
	printf("install %s\n", p->c[p->chosen].spec);
}

static void json_plan(const struct plan *p, const char *file, const struct trace *t,
		      const struct vrampool_device_info *info)
{
	struct json j;
	char line[300];
	int k;

	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_bool(&j, "ok", p->chosen >= 0);
	json_string(&j, "device", info->path);
	json_string(&j, "trace", file);
	json_u64(&j, "operations", t->nops);
	json_u64(&j, "alignment", info->alignment);
	json_u64(&j, "max_page_size", info->max_page_size);
	json_u64(&j, "vram_size", info->vram_size);
	json_array_begin(&j, "candidates");
	for (k = 0; k < p->n; k++) {
		const struct candidate *c = &p->c[k];

		json_object_begin(&j, NULL);
		json_string(&j, "name", c->name);
		if (c->preset != DRM_VRAMPOOL_PRESET_NONE)
			json_string(&j, "preset", vrampool_preset_name(c->preset));
		else
			json_null(&j, "preset");
		json_string(&j, "layout", c->spec);
		json_bool(&j, "ok", c->ok);
		json_u64(&j, "peak_live", c->r.peak_live);
		json_u64(&j, "peak_reserved", c->r.peak_reserved);
		if (c->ok && c->r.peak_live)
			json_double(&j, "ratio", ratio_of(&c->r));
		else
			json_null(&j, "ratio");
		if (c->ok && c->r.op_ns)
			json_u64(&j, "ops_per_sec", ops_per_sec(&c->r));
		else
			json_null(&j, "ops_per_sec");
		if (!c->ok) {
			json_string(&j, "call", c->failed_call ? c->failed_call : "?");
			json_object_begin(&j, "error");
			json_error(&j, &c->r.err);
			json_object_end(&j);
		}
		json_object_end(&j);
	}
	json_array_end(&j);
	if (p->chosen >= 0) {
		json_string(&j, "chosen", p->c[p->chosen].name);
		json_string(&j, "layout", p->c[p->chosen].spec);
		snprintf(line, sizeof(line), "install %s", p->c[p->chosen].spec);
		json_string(&j, "install", line);
		json_u64(&j, "best_peak_reserved", p->best);
		json_u64(&j, "bound", p->bound);
	} else {
		json_null(&j, "chosen");
	}
	json_object_end(&j);
	json_finish(&j);
}

static const char plan_usage[] = "usage: vrampoolctl plan [--device PATH] [--json] TRACE|-\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_JSON,
	OPT_END,
};

/* argv: the trace. */
static int run(const struct opts *o, int argc, char **argv)
{
	static struct plan p;
	struct vrampool_device_info info;
	struct trace t = { 0 };
	const char *device = o->device, *file = argc ? argv[0] : NULL;
	int k, fd, ret;

	if (argc > 1)
		return usage_error("plan: unexpected argument '%s' (one trace)", argv[1]);
	if (!file)
		return usage_error("plan: no trace given (a file, or - for standard input)");

	ret = load_trace("plan", file, &t);
	if (ret)
		goto out;
	fd = open_device(device, &info);
	if (fd < 0) {
		ret = -fd;
		goto out;
	}
	close(fd);
	if (!device)
		device = info.path;	/* every candidate on the same device */

	memset(&p, 0, sizeof(p));
	candidates(&p, &t, &info);
	for (k = 0; k < p.n; k++) {
		ret = run_candidate(device, &t, &p.c[k]);
		if (ret)
			goto out;
	}
	choose(&p);
	if (o->json)
		json_plan(&p, file, &t, &info);
	else
		print_plan(&p, file, &t, &info);
	ret = EXIT_OK;
	if (p.chosen < 0) {
		fprintf(stderr, "vrampoolctl: plan: %s: no candidate layout replayed the trace\n",
			file);
		ret = EXIT_FAILED;
	}
out:
	free_trace(&t);
	return ret;
}

const struct command cmd_plan = {
	.name = "plan",
	.help = "  plan [--device PATH] [--json] TRACE|-\n"
		"      Propose a layout for the trace (pool pages, slice sizes and caps from\n"
		"      its sizes and live set), replay the trace with it, with the other\n"
		"      candidates and with the presets (a fresh client each), show their\n"
		"      figures side by side, and print the chosen layout as an install line.\n",
	.parser = { .opts = options, .usage = plan_usage, .max_operands = OPT_ANY },
	.run_opts = run,
};

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl trace: write a model-shaped allocation trace.
 *
 *   vrampoolctl trace gpt2-small|llama-7b [--vram SIZE] [--steps N] [--seed S] [-o FILE]
 *
 * writes, in the trace format `vrampoolctl replay` reads (replay.c), the
 * allocations and frees that training the model for N steps would make,
 * with the model scaled down (by the largest factor, found by bisection)
 * so that its peak live bytes fit in half of SIZE. The generators are in
 * gen/ (gen/models.c says how a trace is made).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vrampoolctl.h"
#include "gen/gen.h"

#define DEFAULT_VRAM	(256ULL << 20)
#define DEFAULT_STEPS	3
#define DEFAULT_SEED	1
#define BISECTIONS	40

static const char trace_usage[] =
	"usage: vrampoolctl trace gpt2-small|llama-7b [--vram SIZE] [--steps N] [--seed S] [-o FILE]\n";

enum { O_VRAM, O_STEPS, O_SEED, O_OUTPUT };

static const struct opt options[] = {
	[O_VRAM] = { "--vram", NULL, true, OPT_ID_OWN },
	[O_STEPS] = { "--steps", NULL, true, OPT_ID_OWN },
	[O_SEED] = { "--seed", NULL, true, OPT_ID_OWN },
	[O_OUTPUT] = { "--output", "-o", true, OPT_ID_OWN },
	OPT_END,
};

static int run(int argc, char **argv)
{
	const struct model *m = NULL;
	const char *file = NULL, *v;
	uint64_t vram = DEFAULT_VRAM, steps = DEFAULT_STEPS, seed = DEFAULT_SEED, target, peak;
	struct gen_stats st;
	struct dims d;
	char why[256], a[32];
	double f = 1.0, lo, hi, mid;
	FILE *out;
	struct opt_iter it;
	int i, k, ret;

	opt_init(&it, argc, argv, options, false);
	while ((k = opt_next(&it, &v)) != OPT_DONE) {
		if (k == OPT_FAILED)
			return EXIT_USAGE;
		if (k == OPT_HELP) {
			fputs(trace_usage, stdout);
			return EXIT_OK;
		} else if (k == O_VRAM) {
			if (parse_size(v, &vram, why, sizeof(why)))
				return usage_error("trace: --vram: %s", why);
		} else if (k == O_STEPS) {
			if (parse_count(v, &steps, why, sizeof(why)))
				return usage_error("trace: --steps: %s", why);
			if (!steps || steps > MAX_STEPS)
				return usage_error("trace: --steps: %s: from 1 to %d", v, MAX_STEPS);
		} else if (k == O_SEED) {
			if (parse_count(v, &seed, why, sizeof(why)))
				return usage_error("trace: --seed: %s", why);
		} else if (k == O_OUTPUT) {
			file = v;
		} else if (m) {
			return usage_error("trace: one model only ('%s', then '%s')", m->name, v);
		} else {
			m = gen_find_model(v);
			if (!m)
				return usage_error("trace: unknown model '%s' (gpt2-small or llama-7b)",
						   v);
		}
	}
	if (!m)
		return usage_error("trace: no model given (gpt2-small or llama-7b)");

	/* The largest scale whose peak live is at most half the VRAM. */
	target = vram / 2;
	peak = gen_peak_at(m, 1.0, seed, (int)steps, &d);
	if (peak > target) {
		peak = gen_peak_at(m, 0.0, seed, (int)steps, &d);
		if (peak > target)
			return usage_error("trace: --vram %s is too small for %s: at its smallest, its peak live (%" PRIu64
					   " bytes) is more than half of it",
					   format_size(vram, a, sizeof(a)), m->name, peak);
		lo = 0.0;
		hi = 1.0;
		for (i = 0; i < BISECTIONS; i++) {
			mid = (lo + hi) / 2;
			if (gen_peak_at(m, mid, seed, (int)steps, &d) <= target)
				lo = mid;
			else
				hi = mid;
		}
		f = lo;
	}
	gen_scale_dims(m, f, &d);
	if (gen_generate(m, &d, seed, (int)steps, NULL, &st))
		return EXIT_FAILED;

	out = stdout;
	if (file && strcmp(file, "-")) {
		out = fopen(file, "w");
		if (!out) {
			fprintf(stderr, "vrampoolctl: trace: %s: %s\n", file, strerror(errno));
			return EXIT_FAILED;
		}
	}
	gen_write_header(out, m, &d, f, vram, seed, (int)steps, &st);
	ret = gen_generate(m, &d, seed, (int)steps, out, &st) ? EXIT_FAILED : EXIT_OK;
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "vrampoolctl: trace: %s: %s\n", file ? file : "standard output",
			strerror(errno));
		ret = EXIT_FAILED;
	}
	if (out != stdout)
		fclose(out);
	return ret;
}

const struct command cmd_trace = {
	.name = "trace",
	.help = "  trace gpt2-small|llama-7b [--vram SIZE] [--steps N] [--seed S] [-o FILE]\n"
		"      Write the allocation trace (see below) of N training steps (default 3)\n"
		"      of the model, scaled so that its peak live bytes fit in half of SIZE\n"
		"      (default 256MiB). No device needed; the same arguments give the same\n"
		"      trace. --seed 0: every step at the whole context.\n",
	.notes = "Traces (trace, replay, plan, record), one operation per line; '#' starts a comment:\n"
		"  alloc ID SIZE [persistent]     allocate SIZE bytes as ID\n"
		"  free ID                        free it (ID may then be allocated again)\n"
		"A trace is read whole and checked before it is replayed.\n"
		"\n",
	.run = run,
};

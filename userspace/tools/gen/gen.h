/* SPDX-License-Identifier: MIT */
/*
 * vrampoolctl: the synthetic trace generators, model-shaped allocation
 * traces (models.c says how they are made), as `vrampoolctl trace` uses them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOLCTL_GEN_H
#define VRAMPOOLCTL_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Most training steps a trace may have. */
#define MAX_STEPS	1000

struct dims {
	uint64_t layers, d, heads, ff, vocab, ctx, batch;
};

struct gen;

struct model {
	const char *name;
	const char *title;
	struct dims pub;	/* as published */
	unsigned int dtype;	/* bytes per element */
	const char *dtype_name;
	const char *notes;	/* for the header */
	int globals, per_layer;	/* weights and buffers: of the model, of each layer */
	void (*load)(struct gen *g);
	void (*step)(struct gen *g, int step);
	void (*finish)(struct gen *g);	/* the loop's last references (may be NULL) */
};

/* What a generated trace holds. */
struct gen_stats {
	uint64_t peak, allocs, frees, persistent_allocs, weight_bytes, buffer_bytes;
	uint64_t weights, buffers, largest;
	int peak_step;
	const char *peak_phase;
};

/* The models, in the order `vrampoolctl trace` names them. */
extern const struct model gen_gpt2_small, gen_llama_7b;

/** gen_find_model() - the model named @name, or NULL */
const struct model *gen_find_model(const char *name);

/** gen_scale_dims() - @m's shapes scaled by @f (<= 1; 1: as published) */
void gen_scale_dims(const struct model *m, double f, struct dims *d);

/**
 * gen_generate() - the whole trace of @m with shapes @d: written to @out
 * (NULL: only counted), its figures in @st. Return: 0, or -1 (printed).
 */
int gen_generate(const struct model *m, const struct dims *d, uint64_t seed, int steps,
		 FILE *out, struct gen_stats *st);

/** gen_peak_at() - the peak live bytes of @m scaled by @f (@d: its shapes); UINT64_MAX on error */
uint64_t gen_peak_at(const struct model *m, double f, uint64_t seed, int steps, struct dims *d);

/** gen_write_header() - the trace's '#' lines: how it was made, its shapes and figures */
void gen_write_header(FILE *out, const struct model *m, const struct dims *d, double f,
		      uint64_t vram, uint64_t seed, int steps, const struct gen_stats *st);

#endif /* VRAMPOOLCTL_GEN_H */

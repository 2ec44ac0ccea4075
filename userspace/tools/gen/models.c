// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: model-shaped allocation traces, from published shapes.
 *
 * `vrampoolctl trace MODEL` (trace.c) writes, in the trace format `vrampoolctl replay` reads (replay.c), the
 * allocations and frees that training the model for N steps would make,
 * with the model scaled down to fit SIZE bytes of VRAM. The same arguments
 * always give the same trace, byte for byte.
 *
 * The models, as published:
 *
 *   gpt2-small  GPT-2 small (the "gpt2" checkpoint): 12 layers, d_model 768,
 *               12 heads, FFN 3072, vocab 50257, context 1024, 124,439,808
 *               parameters; fp32 throughout; batch 12 (nanoGPT's
 *               config/train_gpt2.py); the attention matrix written out
 *               (B x heads x S x S scores, as the original code and the
 *               eager attention of Hugging Face's GPT2Attention compute it);
 *               the output head tied to the token embedding; a causal-mask
 *               buffer of context^2 bytes per layer.
 *   llama-7b    LLaMA 7B: 32 layers, d_model 4096, 32 heads, FFN 11008
 *               (SwiGLU), vocab 32000, context 2048, 6,738,415,616
 *               parameters; fp16 throughout (a model loaded in fp16: Adam's
 *               moments take the parameters' dtype), the logits upcast to
 *               fp32 for the loss (as Hugging Face's LlamaForCausalLM);
 *               batch 1; RMSNorm, rotary embeddings, flash attention (no
 *               scores matrix; an fp32 dq accumulator in its backward),
 *               untied output head.
 *
 * Scaling. A model is scaled by one factor f <= 1 applied to every width
 * that grows with it: d_model, the FFN (kept in the published ratio to
 * d_model), the vocabulary and the context, each rounded to a whole
 * number; the layer count, head count and batch stay as published (so the
 * head dimension, d_model / heads, need not stay a whole number: only the
 * sizes matter here). Every tensor then shrinks by about f^2 (weights are
 * d x d, d x FFN, vocab x d; activations S x d, S x FFN, S x vocab; the
 * attention matrix heads x S x S): each keeps its share of the total, and
 * so its size relative to the VRAM and to the pools' pages, which are
 * sized from the VRAM too. f is the largest (found by bisection) that
 * keeps the trace's peak live bytes at or below half of SIZE, the other
 * half being the room a layout may take beyond the live bytes; with SIZE
 * large enough, f is 1 and the shapes are the published ones. The trace's
 * header says f and the scaled shapes.
 *
 * Lifetimes. The trace is what PyTorch's eager mode allocates: a small
 * autograd engine below replays the forward pass as operations, each
 * allocating its output and keeping (saving) what its backward needs, and
 * runs the backward pass over them in reverse, as autograd does:
 *
 *  - weights (and buffers) are allocated first, persistent, in the order
 *    the model's modules create them, and freed last;
 *  - a step's inputs (token ids and targets, int64) are allocated when the
 *    loop fetches them: gpt2-small follows nanoGPT's loop, which fetches
 *    the next batch right after the forward pass and keeps the logits and
 *    loss until the next forward pass returns; llama-7b follows a Hugging
 *    Face Trainer-style loop, which fetches at the start of the step and
 *    drops the outputs once the loss is computed;
 *  - the forward pass allocates activations in forward order; an
 *    activation is freed when neither the program nor a saving operation
 *    holds it: temporaries (scaled and masked scores, a rotated query, the
 *    fp32 logits, ...) right after their one use, saved ones during
 *    the backward pass, when the operation that saved them has run;
 *  - the backward pass allocates each operation's input gradients while
 *    the output gradient lives, then frees the output gradient and the
 *    tensors the operation saved; a gradient passed on unchanged (residual
 *    adds, views) is not copied; a second contribution to a gradient is
 *    added into it in place, from a temporary; weight gradients are
 *    allocated in backward order and kept;
 *  - the optimizer is AdamW in PyTorch's default (foreach) form: its
 *    moments (two per parameter, not persistent: a runtime allocates them
 *    like any tensor) at the first step, in parameter order, then per step
 *    one temporary per parameter (the square root of the second moment),
 *    all allocated, then all freed; then zero_grad(set_to_none) frees the
 *    gradients in parameter order;
 *  - at the end, the program's last tensors, then the optimizer's moments,
 *    then the weights are freed: the trace ends with nothing live.
 *
 * Not modelled: dropout (nanoGPT pretrains without it), gradient
 * accumulation, the allocator caching of the framework itself (the trace
 * is what the framework asks of it), CPU tensors (Adam's step counts).
 *
 * Sequence lengths: with --seed 0 every step uses the whole context; any
 * other seed draws each step's length from context/2 to context (in
 * steps of context/32), as variable-length batches do.
 *
 * Copyright (C) 2026 The vrampool authors
 */


#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vrampoolctl.h"
#include "engine.h"

/* The models, in the order `vrampoolctl trace` names them. */
static const struct model *const models[] = { &gen_gpt2_small, &gen_llama_7b };

#define N_MODELS (sizeof(models) / sizeof(models[0]))

const struct model *gen_find_model(const char *name)
{
	size_t k;

	for (k = 0; k < N_MODELS; k++) {
		if (!strcmp(name, models[k]->name))
			return models[k];
	}
	return NULL;
}

static uint64_t scaled(uint64_t v, double f, uint64_t min)
{
	uint64_t s = (uint64_t)((double)v * f + 0.5);

	return s < min ? min : s;
}

void gen_scale_dims(const struct model *m, double f, struct dims *d)
{
	const struct dims *p = &m->pub;

	*d = *p;
	if (f >= 1.0)
		return;
	d->d = scaled(p->d, f, 1);
	d->ff = (p->ff * d->d + p->d / 2) / p->d;
	if (!d->ff)
		d->ff = 1;
	d->vocab = scaled(p->vocab, f, 2);
	d->ctx = scaled(p->ctx, f, 2);
}

/* Each step's sequence length: the whole context, or drawn from [ctx/2, ctx]. */
static void seq_lengths(uint64_t ctx, uint64_t seed, int steps, uint64_t *seq)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < steps; i++) {
		uint64_t z, r;

		if (!seed) {
			seq[i] = ctx;
			continue;
		}
		/* splitmix64 */
		z = (x += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		r = z % 17;
		seq[i] = (ctx * (16 + r) + 16) / 32;
		if (!seq[i])
			seq[i] = 1;
	}
}

/* Run the whole trace: write it to @out (NULL: only count). */
int gen_generate(const struct model *m, const struct dims *d, uint64_t seed, int steps,
		 FILE *out, struct gen_stats *st)
{
	struct gen g = {
		.out = out, .m = m, .d = *d, .steps = steps,
		.held_logits = NO_TENSOR, .held_loss = NO_TENSOR,
		.batch_in = NO_TENSOR, .batch_tgt = NO_TENSOR,
	};
	uint64_t *seq = calloc((size_t)steps + 1, sizeof(*seq));
	int i, ret = 0;

	g.nw = m->globals + (int)d->layers * m->per_layer;
	g.w = calloc((size_t)g.nw, sizeof(*g.w));
	g.params = calloc((size_t)g.nw, sizeof(*g.params));
	g.loaded = calloc((size_t)g.nw, sizeof(*g.loaded));
	if (!seq || !g.w || !g.params || !g.loaded) {
		fprintf(stderr, "vrampoolctl: trace: out of memory\n");
		exit(EXIT_FAILED);
	}
	/* One length more: nanoGPT's loop fetches a batch past the last step. */
	seq_lengths(d->ctx, seed, steps + 1, seq);
	g.seq = seq;
	g.phase = "load";

	m->load(&g);
	for (i = 1; i <= steps; i++)
		m->step(&g, i);
	g.prefix[0] = '\0';
	if (m->finish)
		m->finish(&g);
	gen_teardown(&g);

	if (g.live || g.st.allocs != g.st.frees) {
		fprintf(stderr, "vrampoolctl: trace: internal error: %" PRIu64 " bytes left live\n",
			g.live);
		ret = -1;
	}
	*st = g.st;
	if (g.out) {
		for (i = 0; i < g.nt; i++)
			free(g.t[i].name);
	}
	free(g.t);
	free(g.n);
	free(g.w);
	free(g.params);
	free(g.loaded);
	free(g.adam);
	free(seq);
	return ret;
}

uint64_t gen_peak_at(const struct model *m, double f, uint64_t seed, int steps, struct dims *d)
{
	struct gen_stats st;

	gen_scale_dims(m, f, d);
	if (gen_generate(m, d, seed, steps, NULL, &st))
		return UINT64_MAX;
	return st.peak;
}

void gen_write_header(FILE *out, const struct model *m, const struct dims *d, double f,
		      uint64_t vram, uint64_t seed, int steps, const struct gen_stats *st)
{
	const struct dims *p = &m->pub;
	uint64_t seq[MAX_STEPS + 1];
	char a[32];
	int i;

	seq_lengths(d->ctx, seed, steps, seq);
	fprintf(out, "# vrampool allocation trace: `alloc ID SIZE [persistent]` or `free ID`, one a line (vrampoolctl(1))\n");
	fprintf(out, "# made by: vrampoolctl trace %s --vram %s --steps %d --seed %" PRIu64 "\n",
		m->name, format_size(vram, a, sizeof(a)), steps, seed);
	fprintf(out, "# model: %s as published: %" PRIu64 " layers, d_model %" PRIu64 ", %" PRIu64
		" heads, FFN %" PRIu64 ", vocab %" PRIu64 ", context %" PRIu64 "; %s, batch %" PRIu64 "\n",
		m->title, p->layers, p->d, p->heads, p->ff, p->vocab, p->ctx, m->dtype_name, p->batch);
	fprintf(out, "# %s\n", m->notes);
	if (f >= 1.0)
		fprintf(out, "# not scaled: the published shapes fit in %s\n",
			format_size(vram, a, sizeof(a)));
	else
		fprintf(out, "# scaled by %.4f for %s of VRAM: %" PRIu64 " layers, d_model %" PRIu64
			", %" PRIu64 " heads, FFN %" PRIu64 ", vocab %" PRIu64 ", context %" PRIu64
			", batch %" PRIu64 "\n",
			f, format_size(vram, a, sizeof(a)), d->layers, d->d, d->heads, d->ff, d->vocab,
			d->ctx, d->batch);
	fprintf(out, "# training: %d steps, sequence lengths", steps);
	for (i = 0; i < steps; i++)
		fprintf(out, " %" PRIu64, seq[i]);
	fprintf(out, "\n");
	fprintf(out, "# weights: %" PRIu64 " tensors, %" PRIu64 " bytes; buffers: %" PRIu64
		" tensors, %" PRIu64 " bytes; all persistent\n",
		st->weights, st->weight_bytes, st->buffers, st->buffer_bytes);
	fprintf(out, "# peak live: %" PRIu64 " bytes (%s), at step %d (%s); largest allocation %" PRIu64 " bytes\n",
		st->peak, format_approx(st->peak, a, sizeof(a)), st->peak_step, st->peak_phase,
		st->largest);
	fprintf(out, "# operations: %" PRIu64 " allocs (%" PRIu64 " persistent), %" PRIu64 " frees\n",
		st->allocs, st->persistent_allocs, st->frees);
}

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: GPT-2 small's training, as nanoGPT's loop runs it, for the
 * trace generator (models.c).
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

enum { G_WTE, G_WPE, G_LNF_W, G_LNF_B, G_GLOBAL };
enum {
	G_LN1_W, G_LN1_B, G_MASK, G_QKV_W, G_QKV_B, G_PROJ_W, G_PROJ_B,
	G_LN2_W, G_LN2_B, G_FC_W, G_FC_B, G_FCP_W, G_FCP_B, G_LAYER
};

#define GW(g, l, k)	((g)->w[G_GLOBAL + (l) * G_LAYER + (k)])

static void gpt2_load(struct gen *g)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, l;
	int x = G_GLOBAL;

	g->phase = "load";
	gen_weight(g, G_WTE, d->vocab * d->d * b, true, gen_name(g, "w.wte"));
	gen_weight(g, G_WPE, d->ctx * d->d * b, true, gen_name(g, "w.wpe"));
	for (l = 0; l < d->layers; l++, x += G_LAYER) {
		gen_weight(g, x + G_LN1_W, d->d * b, true, gen_name(g, "w.h%" PRIu64 ".ln_1.weight", l));
		gen_weight(g, x + G_LN1_B, d->d * b, true, gen_name(g, "w.h%" PRIu64 ".ln_1.bias", l));
		/* The causal mask, a bool buffer registered by GPT2Attention. */
		gen_weight(g, x + G_MASK, d->ctx * d->ctx, false, gen_name(g, "w.h%" PRIu64 ".attn.bias", l));
		gen_weight(g, x + G_QKV_W, d->d * 3 * d->d * b, true,
		       gen_name(g, "w.h%" PRIu64 ".attn.c_attn.weight", l));
		gen_weight(g, x + G_QKV_B, 3 * d->d * b, true,
		       gen_name(g, "w.h%" PRIu64 ".attn.c_attn.bias", l));
		gen_weight(g, x + G_PROJ_W, d->d * d->d * b, true,
		       gen_name(g, "w.h%" PRIu64 ".attn.c_proj.weight", l));
		gen_weight(g, x + G_PROJ_B, d->d * b, true,
		       gen_name(g, "w.h%" PRIu64 ".attn.c_proj.bias", l));
		gen_weight(g, x + G_LN2_W, d->d * b, true, gen_name(g, "w.h%" PRIu64 ".ln_2.weight", l));
		gen_weight(g, x + G_LN2_B, d->d * b, true, gen_name(g, "w.h%" PRIu64 ".ln_2.bias", l));
		gen_weight(g, x + G_FC_W, d->d * d->ff * b, true,
		       gen_name(g, "w.h%" PRIu64 ".mlp.c_fc.weight", l));
		gen_weight(g, x + G_FC_B, d->ff * b, true, gen_name(g, "w.h%" PRIu64 ".mlp.c_fc.bias", l));
		gen_weight(g, x + G_FCP_W, d->ff * d->d * b, true,
		       gen_name(g, "w.h%" PRIu64 ".mlp.c_proj.weight", l));
		gen_weight(g, x + G_FCP_B, d->d * b, true,
		       gen_name(g, "w.h%" PRIu64 ".mlp.c_proj.bias", l));
	}
	gen_weight(g, G_LNF_W, d->d * b, true, gen_name(g, "w.ln_f.weight"));
	gen_weight(g, G_LNF_B, d->d * b, true, gen_name(g, "w.ln_f.bias"));
}

/* nanoGPT's get_batch(): x, then y, copied to the device. */
static void gpt2_fetch(struct gen *g, int step)
{
	uint64_t tokens = g->d.batch * g->seq[step - 1];

	snprintf(g->prefix, sizeof(g->prefix), "s%d.", step);
	g->batch_in = gen_alloc_t(g, tokens * 8, gen_name(g, "idx"));
	g->batch_tgt = gen_alloc_t(g, tokens * 8, gen_name(g, "targets"));
}

/* nn.LayerNorm: the output, then mean and rstd (fp32), saved with the input. */
static int layer_norm(struct gen *g, int x, int w, int b, uint64_t rows, const char *nm,
		      const char *stats_nm)
{
	int y = gen_activation(g, rows * g->d.d * g->m->dtype, nm);
	int st = gen_alloc_t(g, rows * 2 * 4, stats_nm);

	gen_node(g, &y, 1, LIST(x, w, b), LIST(x, w, st), 0);
	gen_drop(g, st);
	return y;
}

/* nn.Linear (Conv1D in GPT-2): saves its input and weight. */
static int gpt2_block(struct gen *g, uint64_t l, int x, uint64_t s)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, rows = d->batch * s, act = rows * d->d * b;
	uint64_t att = d->batch * d->heads * s * s * b;
	int ln1, qkv, q, k, v, sc, scaled, masked, p, pv, y, a, x2, ln2, h, ge, m, x3;

	ln1 = layer_norm(g, x, GW(g, l, G_LN1_W), GW(g, l, G_LN1_B), rows,
			 gen_name(g, "h%" PRIu64 ".ln_1", l), gen_name(g, "h%" PRIu64 ".ln_1.stats", l));
	qkv = gen_linear(g, ln1, GW(g, l, G_QKV_W), GW(g, l, G_QKV_B), rows, 3 * d->d,
		     gen_name(g, "h%" PRIu64 ".attn.c_attn", l));
	gen_drop(g, ln1);
	/* split(): three views; its backward puts their gradients back together. */
	q = gen_view(g, qkv, act, gen_name(g, "h%" PRIu64 ".attn.q", l));
	k = gen_view(g, qkv, act, gen_name(g, "h%" PRIu64 ".attn.k", l));
	v = gen_view(g, qkv, act, gen_name(g, "h%" PRIu64 ".attn.v", l));
	gen_node(g, LIST(q, k, v), LIST(qkv), NONE, 0);
	gen_drop(g, qkv);

	sc = gen_op(g, att, gen_name(g, "h%" PRIu64 ".attn.scores", l), LIST(q, k), LIST(q, k), 0);
	scaled = gen_op(g, att, gen_name(g, "h%" PRIu64 ".attn.scaled", l), LIST(sc), NONE, 0);
	gen_drop(g, sc);
	masked = gen_op(g, att, gen_name(g, "h%" PRIu64 ".attn.masked", l), LIST(scaled),
		    LIST(GW(g, l, G_MASK)), 0);
	gen_drop(g, scaled);
	/* softmax saves its result; its backward needs a temporary of that size. */
	p = gen_op(g, att, gen_name(g, "h%" PRIu64 ".attn.softmax", l), LIST(masked), LIST(SELF), att);
	gen_drop(g, masked);
	pv = gen_op(g, act, gen_name(g, "h%" PRIu64 ".attn.pv", l), LIST(p, v), LIST(p, v), 0);
	gen_drop(g, p);
	gen_drop(g, q);
	gen_drop(g, k);
	gen_drop(g, v);
	/* transpose(1, 2).contiguous(): a copy; the gradient goes back as is. */
	y = gen_op(g, act, gen_name(g, "h%" PRIu64 ".attn.merge", l), LIST(pv | PASS), NONE, 0);
	gen_drop(g, pv);
	a = gen_linear(g, y, GW(g, l, G_PROJ_W), GW(g, l, G_PROJ_B), rows, d->d,
		   gen_name(g, "h%" PRIu64 ".attn.c_proj", l));
	gen_drop(g, y);
	x2 = gen_op(g, act, gen_name(g, "h%" PRIu64 ".res1", l), LIST(x | PASS, a | PASS), NONE, 0);
	gen_drop(g, a);
	gen_drop(g, x);

	ln2 = layer_norm(g, x2, GW(g, l, G_LN2_W), GW(g, l, G_LN2_B), rows,
			 gen_name(g, "h%" PRIu64 ".ln_2", l), gen_name(g, "h%" PRIu64 ".ln_2.stats", l));
	h = gen_linear(g, ln2, GW(g, l, G_FC_W), GW(g, l, G_FC_B), rows, d->ff,
		   gen_name(g, "h%" PRIu64 ".mlp.c_fc", l));
	gen_drop(g, ln2);
	ge = gen_op(g, rows * d->ff * b, gen_name(g, "h%" PRIu64 ".mlp.gelu", l), LIST(h), LIST(h), 0);
	gen_drop(g, h);
	m = gen_linear(g, ge, GW(g, l, G_FCP_W), GW(g, l, G_FCP_B), rows, d->d,
		   gen_name(g, "h%" PRIu64 ".mlp.c_proj", l));
	gen_drop(g, ge);
	x3 = gen_op(g, act, gen_name(g, "h%" PRIu64 ".res2", l), LIST(x2 | PASS, m | PASS), NONE, 0);
	gen_drop(g, m);
	gen_drop(g, x2);
	return x3;
}

/*
 * One iteration of nanoGPT's loop: logits, loss = model(X, Y); X, Y =
 * get_batch(); loss.backward(); optimizer.step(); zero_grad().
 */
static void gpt2_step(struct gen *g, int step)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, s = g->seq[step - 1], rows = d->batch * s, l;
	int pos, tok, pe, x, lnf, logits, logp, raw, loss, idx, tgt;

	g->step = step;
	g->phase = "forward";
	if (step == 1)
		gpt2_fetch(g, 1);
	snprintf(g->prefix, sizeof(g->prefix), "s%d.", step);
	idx = g->batch_in;
	tgt = g->batch_tgt;

	pos = gen_alloc_t(g, s * 8, gen_name(g, "pos"));
	tok = gen_op(g, rows * d->d * b, gen_name(g, "tok_emb"), LIST(g->w[G_WTE]), LIST(idx), 0);
	pe = gen_op(g, s * d->d * b, gen_name(g, "pos_emb"), LIST(g->w[G_WPE]), LIST(pos), 0);
	gen_drop(g, pos);
	/* tok_emb + pos_emb: pos_emb is broadcast, its gradient a sum of its own. */
	x = gen_op(g, rows * d->d * b, gen_name(g, "x"), LIST(tok | PASS, pe), NONE, 0);
	gen_drop(g, tok);
	gen_drop(g, pe);
	for (l = 0; l < d->layers; l++)
		x = gpt2_block(g, l, x, s);
	lnf = layer_norm(g, x, g->w[G_LNF_W], g->w[G_LNF_B], rows, gen_name(g, "ln_f"),
			 gen_name(g, "ln_f.stats"));
	gen_drop(g, x);
	logits = gen_op(g, rows * d->vocab * b, gen_name(g, "logits"), LIST(lnf, g->w[G_WTE]),
		    LIST(lnf, g->w[G_WTE]), 0);
	gen_drop(g, lnf);
	/* F.cross_entropy: log_softmax (saves its result), then nll_loss. */
	logp = gen_op(g, rows * d->vocab * 4, gen_name(g, "log_softmax"), LIST(logits), LIST(SELF), 0);
	raw = gen_op(g, 4, gen_name(g, "nll_loss"), LIST(logp), LIST(tgt), 0);
	gen_drop(g, logp);
	/* model() returns: the loop's variables drop the last step's logits and loss. */
	gen_drop(g, g->held_logits);
	gen_drop(g, g->held_loss);
	/* loss = loss / gradient_accumulation_steps */
	loss = gen_op(g, 4, gen_name(g, "loss"), LIST(raw), NONE, 0);
	gen_drop(g, raw);
	g->held_logits = logits;
	g->held_loss = loss;

	/* The next batch is fetched before the backward pass. */
	gen_drop(g, idx);
	gen_drop(g, tgt);
	gpt2_fetch(g, step + 1);
	snprintf(g->prefix, sizeof(g->prefix), "s%d.", step);

	gen_backward(g, loss);
	gen_adamw_step(g);
}

static void gpt2_finish(struct gen *g)
{
	g->phase = "end";
	gen_drop(g, g->held_logits);
	gen_drop(g, g->held_loss);
	gen_drop(g, g->batch_in);
	gen_drop(g, g->batch_tgt);
}

const struct model gen_gpt2_small = {
	.name = "gpt2-small",
	.title = "GPT-2 small",
	.pub = { .layers = 12, .d = 768, .heads = 12, .ff = 3072, .vocab = 50257,
		 .ctx = 1024, .batch = 12 },
	.dtype = 4,
	.dtype_name = "fp32",
	.notes = "nanoGPT's training loop: AdamW, attention matrix written out, head tied to wte",
	.globals = G_GLOBAL,
	.per_layer = G_LAYER,
	.load = gpt2_load,
	.step = gpt2_step,
	.finish = gpt2_finish,
};

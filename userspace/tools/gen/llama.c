// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: LLaMA 7B's training, as a Trainer-style loop runs it, for
 * the trace generator (models.c).
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

enum { L_EMBED, L_NORM, L_INV_FREQ, L_HEAD, L_GLOBAL };
enum {
	L_Q, L_K, L_V, L_O, L_GATE, L_UP, L_DOWN, L_IN_NORM, L_POST_NORM, L_LAYER
};

#define LW(g, l, k)	((g)->w[L_GLOBAL + (l) * L_LAYER + (k)])

static void llama_load(struct gen *g)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, hd = d->d / d->heads, l;
	int x = L_GLOBAL;

	g->phase = "load";
	gen_weight(g, L_EMBED, d->vocab * d->d * b, true, gen_name(g, "w.embed_tokens"));
	for (l = 0; l < d->layers; l++, x += L_LAYER) {
		gen_weight(g, x + L_Q, d->d * d->d * b, true, gen_name(g, "w.l%" PRIu64 ".q_proj", l));
		gen_weight(g, x + L_K, d->d * d->d * b, true, gen_name(g, "w.l%" PRIu64 ".k_proj", l));
		gen_weight(g, x + L_V, d->d * d->d * b, true, gen_name(g, "w.l%" PRIu64 ".v_proj", l));
		gen_weight(g, x + L_O, d->d * d->d * b, true, gen_name(g, "w.l%" PRIu64 ".o_proj", l));
		gen_weight(g, x + L_GATE, d->ff * d->d * b, true,
		       gen_name(g, "w.l%" PRIu64 ".gate_proj", l));
		gen_weight(g, x + L_UP, d->ff * d->d * b, true, gen_name(g, "w.l%" PRIu64 ".up_proj", l));
		gen_weight(g, x + L_DOWN, d->d * d->ff * b, true,
		       gen_name(g, "w.l%" PRIu64 ".down_proj", l));
		gen_weight(g, x + L_IN_NORM, d->d * b, true,
		       gen_name(g, "w.l%" PRIu64 ".input_layernorm", l));
		gen_weight(g, x + L_POST_NORM, d->d * b, true,
		       gen_name(g, "w.l%" PRIu64 ".post_attention_layernorm", l));
	}
	gen_weight(g, L_NORM, d->d * b, true, gen_name(g, "w.norm"));
	/* LlamaRotaryEmbedding's inv_freq: head_dim / 2 floats. */
	gen_weight(g, L_INV_FREQ, (hd + 1) / 2 * 4, false, gen_name(g, "w.rotary_emb.inv_freq"));
	gen_weight(g, L_HEAD, d->vocab * d->d * b, true, gen_name(g, "w.lm_head"));
}

/* RMSNorm (fused): the output and rstd (fp32), saved with the input. */
static int rms_norm(struct gen *g, int x, int w, uint64_t rows, const char *nm,
		    const char *rstd_nm)
{
	int y = gen_activation(g, rows * g->d.d * g->m->dtype, nm);
	int r = gen_alloc_t(g, rows * 4, rstd_nm);

	gen_node(g, &y, 1, LIST(x, w), LIST(x, w, r), 0);
	gen_drop(g, r);
	return y;
}

/* apply_rotary_pos_emb on one of q, k: rotate_half() is a temporary. */
static int rope(struct gen *g, int x, int cos, int sin, uint64_t bytes, const char *rot_nm,
		const char *nm)
{
	int rot = gen_alloc_t(g, bytes, rot_nm);
	int y = gen_op(g, bytes, nm, LIST(x), LIST(cos, sin), bytes);

	gen_drop(g, rot);
	gen_drop(g, x);
	return y;
}

static int llama_block(struct gen *g, uint64_t l, int h, int cos, int sin, uint64_t s)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, rows = d->batch * s, act = rows * d->d * b;
	uint64_t ffa = rows * d->ff * b;
	int n1, q, k, v, lse, o, oc, a, h2, n2, gt, up, sl, hm, dn, h3;

	n1 = rms_norm(g, h, LW(g, l, L_IN_NORM), rows, gen_name(g, "l%" PRIu64 ".input_layernorm", l),
		      gen_name(g, "l%" PRIu64 ".input_layernorm.rstd", l));
	q = gen_linear(g, n1, LW(g, l, L_Q), NO_TENSOR, rows, d->d, gen_name(g, "l%" PRIu64 ".q_proj", l));
	k = gen_linear(g, n1, LW(g, l, L_K), NO_TENSOR, rows, d->d, gen_name(g, "l%" PRIu64 ".k_proj", l));
	v = gen_linear(g, n1, LW(g, l, L_V), NO_TENSOR, rows, d->d, gen_name(g, "l%" PRIu64 ".v_proj", l));
	gen_drop(g, n1);
	q = rope(g, q, cos, sin, act, gen_name(g, "l%" PRIu64 ".q_rot", l),
		 gen_name(g, "l%" PRIu64 ".q_embed", l));
	k = rope(g, k, cos, sin, act, gen_name(g, "l%" PRIu64 ".k_rot", l),
		 gen_name(g, "l%" PRIu64 ".k_embed", l));

	/* Flash attention: the output and its logsumexp, both saved. */
	o = gen_activation(g, act, gen_name(g, "l%" PRIu64 ".attn", l));
	lse = gen_alloc_t(g, d->batch * d->heads * s * 4, gen_name(g, "l%" PRIu64 ".attn.lse", l));
	gen_node(g, &o, 1, LIST(q, k, v), LIST(q, k, v, o, lse), rows * d->d * 4);
	gen_drop(g, lse);
	gen_drop(g, q);
	gen_drop(g, k);
	gen_drop(g, v);
	oc = gen_op(g, act, gen_name(g, "l%" PRIu64 ".attn.merge", l), LIST(o | PASS), NONE, 0);
	gen_drop(g, o);
	a = gen_linear(g, oc, LW(g, l, L_O), NO_TENSOR, rows, d->d, gen_name(g, "l%" PRIu64 ".o_proj", l));
	gen_drop(g, oc);
	h2 = gen_op(g, act, gen_name(g, "l%" PRIu64 ".res1", l), LIST(h | PASS, a | PASS), NONE, 0);
	gen_drop(g, a);
	gen_drop(g, h);

	n2 = rms_norm(g, h2, LW(g, l, L_POST_NORM), rows,
		      gen_name(g, "l%" PRIu64 ".post_attention_layernorm", l),
		      gen_name(g, "l%" PRIu64 ".post_attention_layernorm.rstd", l));
	gt = gen_linear(g, n2, LW(g, l, L_GATE), NO_TENSOR, rows, d->ff,
		    gen_name(g, "l%" PRIu64 ".gate_proj", l));
	up = gen_linear(g, n2, LW(g, l, L_UP), NO_TENSOR, rows, d->ff,
		    gen_name(g, "l%" PRIu64 ".up_proj", l));
	gen_drop(g, n2);
	sl = gen_op(g, ffa, gen_name(g, "l%" PRIu64 ".act_fn", l), LIST(gt), LIST(gt), 0);
	gen_drop(g, gt);
	hm = gen_op(g, ffa, gen_name(g, "l%" PRIu64 ".mul", l), LIST(sl, up), LIST(sl, up), 0);
	gen_drop(g, sl);
	gen_drop(g, up);
	dn = gen_linear(g, hm, LW(g, l, L_DOWN), NO_TENSOR, rows, d->d,
		    gen_name(g, "l%" PRIu64 ".down_proj", l));
	gen_drop(g, hm);
	h3 = gen_op(g, act, gen_name(g, "l%" PRIu64 ".res2", l), LIST(h2 | PASS, dn | PASS), NONE, 0);
	gen_drop(g, dn);
	gen_drop(g, h2);
	return h3;
}

/* LlamaRotaryEmbedding.forward (no grad): fp32 work, then cos and sin in fp16. */
static void llama_rotary(struct gen *g, uint64_t rows, int *cos, int *sin)
{
	uint64_t hd = g->d.d / g->d.heads, b = g->m->dtype;
	int posf, freqs, emb, c32, s32;

	posf = gen_alloc_t(g, rows * 4, gen_name(g, "rotary.position_ids"));
	freqs = gen_alloc_t(g, rows * ((hd + 1) / 2) * 4, gen_name(g, "rotary.freqs"));
	gen_drop(g, posf);
	emb = gen_alloc_t(g, rows * hd * 4, gen_name(g, "rotary.emb"));
	gen_drop(g, freqs);
	c32 = gen_alloc_t(g, rows * hd * 4, gen_name(g, "rotary.cos32"));
	s32 = gen_alloc_t(g, rows * hd * 4, gen_name(g, "rotary.sin32"));
	gen_drop(g, emb);
	*cos = gen_alloc_t(g, rows * hd * b, gen_name(g, "rotary.cos"));
	*sin = gen_alloc_t(g, rows * hd * b, gen_name(g, "rotary.sin"));
	gen_drop(g, c32);
	gen_drop(g, s32);
}

/*
 * One training step as the Hugging Face Trainer takes it: the batch to the
 * device, outputs = model(**inputs) with the causal-LM loss, backward,
 * optimizer.step(), zero_grad().
 */
static void llama_step(struct gen *g, int step)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, s = g->seq[step - 1], rows = d->batch * s, l;
	int ids, labels, h, cos, sin, nf, logits, l32, pad, shift, logp, sum, loss;

	snprintf(g->prefix, sizeof(g->prefix), "s%d.", step);
	g->step = step;
	g->phase = "forward";
	ids = gen_alloc_t(g, rows * 8, gen_name(g, "input_ids"));
	labels = gen_alloc_t(g, rows * 8, gen_name(g, "labels"));

	h = gen_op(g, rows * d->d * b, gen_name(g, "inputs_embeds"), LIST(g->w[L_EMBED]), LIST(ids), 0);
	llama_rotary(g, rows, &cos, &sin);
	for (l = 0; l < d->layers; l++)
		h = llama_block(g, l, h, cos, sin, s);
	gen_drop(g, cos);
	gen_drop(g, sin);
	nf = rms_norm(g, h, g->w[L_NORM], rows, gen_name(g, "norm"), gen_name(g, "norm.rstd"));
	gen_drop(g, h);
	logits = gen_linear(g, nf, g->w[L_HEAD], NO_TENSOR, rows, d->vocab, gen_name(g, "logits"));
	gen_drop(g, nf);

	/* ForCausalLMLoss: logits.float(), the labels padded and shifted, cross entropy. */
	l32 = gen_op(g, rows * d->vocab * 4, gen_name(g, "logits.float"), LIST(logits), NONE, 0);
	pad = gen_alloc_t(g, d->batch * (s + 1) * 8, gen_name(g, "labels.pad"));
	shift = gen_alloc_t(g, rows * 8, gen_name(g, "labels.shift"));
	gen_drop(g, pad);
	logp = gen_op(g, rows * d->vocab * 4, gen_name(g, "log_softmax"), LIST(l32), LIST(SELF), 0);
	sum = gen_op(g, 4, gen_name(g, "nll_loss"), LIST(logp), LIST(shift), 0);
	loss = gen_op(g, 4, gen_name(g, "loss"), LIST(sum), NONE, 0);
	gen_drop(g, sum);
	gen_drop(g, logp);
	gen_drop(g, shift);
	gen_drop(g, l32);
	/* The outputs (their fp16 logits) are dropped once the loss is taken. */
	gen_drop(g, logits);

	gen_backward(g, loss);
	gen_adamw_step(g);
	gen_drop(g, loss);
	gen_drop(g, ids);
	gen_drop(g, labels);
}

const struct model gen_llama_7b = {
	.name = "llama-7b",
	.title = "LLaMA 7B",
	.pub = { .layers = 32, .d = 4096, .heads = 32, .ff = 11008, .vocab = 32000,
		 .ctx = 2048, .batch = 1 },
	.dtype = 2,
	.dtype_name = "fp16",
	.notes = "a Trainer-style loop: AdamW, flash attention, fp32 logits for the loss",
	.globals = L_GLOBAL,
	.per_layer = L_LAYER,
	.load = llama_load,
	.step = llama_step,
};

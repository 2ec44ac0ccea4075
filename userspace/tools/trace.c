// SPDX-License-Identifier: MIT
/*
 * vrampoolctl trace: model-shaped allocation traces, from published shapes.
 *
 *   vrampoolctl trace gpt2-small|llama-7b [--vram SIZE] [--steps N] [--seed S] [-o FILE]
 *
 * writes, in the trace format `vrampoolctl replay` reads (replay.c), the
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

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampoolctl.h"

#define DEFAULT_VRAM	(256ULL << 20)
#define DEFAULT_STEPS	3
#define DEFAULT_SEED	1
#define MAX_STEPS	1000
#define BISECTIONS	40

#define NO_TENSOR	(-1)
#define SELF		(-2)		/* in a saved list: the operation's own output */
#define PASS		(1 << 30)	/* an input whose gradient is the output's, passed on */
#define MAX_IO		6
#define NAME_BUFS	4

/* A list of tensors for an argument pair (array, count). */
#define LIST(...)	((const int[]){ __VA_ARGS__ }), \
			(int)(sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))
#define NONE		LIST(NO_TENSOR)

/* ---- The models ----------------------------------------------------------- */

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

/* ---- The autograd engine -------------------------------------------------- */

struct tensor {
	uint64_t bytes;		/* its size; for a view, the bytes its gradient takes */
	int base;		/* whose storage it is: itself unless a view */
	int refs;		/* the program's reference, saving operations', aliases */
	int grad;		/* its gradient, or NO_TENSOR */
	bool needs_grad;
	bool view;
	char *name;		/* only when writing */
	size_t label;		/* where the name goes on after its step prefix */
};

struct node {
	int out[3], nout;
	int in[MAX_IO], nin;
	unsigned int pass;	/* bit k: in[k]'s gradient is out[0]'s */
	int saved[MAX_IO], nsaved;
	uint64_t scratch;	/* bytes its backward allocates for itself, then frees */
};

struct gen_stats {
	uint64_t peak, allocs, frees, persistent_allocs, weight_bytes, buffer_bytes;
	uint64_t weights, buffers, largest;
	int peak_step;
	const char *peak_phase;
};

struct gen {
	FILE *out;		/* NULL: count only */
	const struct model *m;
	struct dims d;
	const uint64_t *seq;	/* sequence length of each step */
	int steps;

	struct tensor *t;
	int nt, capt;
	struct node *n;
	int nn, capn;
	int *w;			/* the model's weights and buffers, by the model's own index */
	int nw;
	int *params;		/* weights with a gradient, in parameter order */
	int nparams;
	int *loaded;		/* weights and buffers, in load order */
	int nloaded;
	/* Two moments per parameter, then a temporary each; NULL before step 1. */
	int *adam;

	char prefix[16];	/* "s2." during step 2 */
	char names[NAME_BUFS][128];
	int next_name;
	unsigned long seqno;	/* makes an out-of-place gradient's name unique */
	uint64_t live;
	int step;
	const char *phase;
	struct gen_stats st;

	/* The training loop's own references, from one step to the next. */
	int batch_in, batch_tgt, held_logits, held_loss;
};

static void *grow(void *p, int *cap, size_t elem)
{
	int ncap = *cap ? 2 * *cap : 256;

	p = realloc(p, (size_t)ncap * elem);
	if (!p) {
		fprintf(stderr, "vrampoolctl: trace: out of memory\n");
		exit(EXIT_FAILED);
	}
	*cap = ncap;
	return p;
}

/* A name for the next tensor (NULL when only counting): one of a few buffers. */
static const char *name(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *name(struct gen *g, const char *fmt, ...)
{
	char *buf;
	va_list ap;

	if (!g->out)
		return NULL;
	buf = g->names[g->next_name++ % NAME_BUFS];
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(g->names[0]), fmt, ap);
	va_end(ap);
	return buf;
}

static const char *label(const struct gen *g, int i)
{
	return g->out ? g->t[i].name + g->t[i].label : NULL;
}

static int new_tensor(struct gen *g, uint64_t bytes, bool stepped, const char *nm)
{
	struct tensor *t;
	size_t plen = stepped ? strlen(g->prefix) : 0;

	if (g->nt == g->capt)
		g->t = grow(g->t, &g->capt, sizeof(*g->t));
	t = &g->t[g->nt];
	*t = (struct tensor){ .bytes = bytes, .base = g->nt, .refs = 1, .grad = NO_TENSOR };
	if (g->out) {
		t->name = malloc(plen + strlen(nm) + 1);
		if (!t->name) {
			fprintf(stderr, "vrampoolctl: trace: out of memory\n");
			exit(EXIT_FAILED);
		}
		memcpy(t->name, g->prefix, plen);
		strcpy(t->name + plen, nm);
		t->label = plen;
	}
	return g->nt++;
}

/* Allocate: a line of the trace. @stepped: the name takes the step's prefix. */
static int alloc_as(struct gen *g, uint64_t bytes, bool persistent, bool stepped, const char *nm)
{
	int i = new_tensor(g, bytes, stepped, nm);

	g->live += bytes;
	g->st.allocs++;
	g->st.persistent_allocs += persistent;
	if (bytes > g->st.largest)
		g->st.largest = bytes;
	if (g->live > g->st.peak) {
		g->st.peak = g->live;
		g->st.peak_step = g->step;
		g->st.peak_phase = g->phase;
	}
	if (g->out)
		fprintf(g->out, "alloc %s %" PRIu64 "%s\n", g->t[i].name, bytes,
			persistent ? " persistent" : "");
	return i;
}

/* A tensor of the current step, with no gradient of its own. */
static int alloc_t(struct gen *g, uint64_t bytes, const char *nm)
{
	return alloc_as(g, bytes, false, true, nm);
}

/* An activation: a tensor autograd gives a gradient. */
static int activation(struct gen *g, uint64_t bytes, const char *nm)
{
	int i = alloc_t(g, bytes, nm);

	g->t[i].needs_grad = true;
	return i;
}

static void ref(struct gen *g, int i)
{
	g->t[i].refs++;
}

/* Drop a reference; the last one frees the tensor (a view: its base's reference). */
static void drop(struct gen *g, int i)
{
	struct tensor *t;

	if (i == NO_TENSOR)
		return;
	t = &g->t[i];
	if (--t->refs > 0)
		return;
	if (t->view) {
		drop(g, t->base);
		return;
	}
	g->live -= t->bytes;
	g->st.frees++;
	if (g->out)
		fprintf(g->out, "free %s\n", t->name);
}

/* A view of @base: no allocation; it keeps @base alive. */
static int view(struct gen *g, int base, uint64_t bytes, const char *nm)
{
	int i = new_tensor(g, bytes, true, nm ? nm : "");

	g->t[i].view = true;
	g->t[i].base = base;
	g->t[i].needs_grad = true;
	ref(g, base);
	return i;
}

/* Record an operation for the backward pass; it holds what it saves. */
static void node(struct gen *g, const int *out, int nout, const int *in, int nin,
		 const int *saved, int nsaved, uint64_t scratch)
{
	struct node *n;
	int k, v;

	if (g->nn == g->capn)
		g->n = grow(g->n, &g->capn, sizeof(*g->n));
	n = &g->n[g->nn++];
	memset(n, 0, sizeof(*n));
	for (k = 0; k < nout && k < 3; k++)
		n->out[n->nout++] = out[k];
	for (k = 0; k < nin && n->nin < MAX_IO; k++) {
		v = in[k];
		if (v == NO_TENSOR)
			continue;
		if (v & PASS) {
			n->pass |= 1u << n->nin;
			v &= ~PASS;
		}
		n->in[n->nin++] = v;
	}
	for (k = 0; k < nsaved && n->nsaved < MAX_IO; k++) {
		v = saved[k] == SELF ? out[0] : saved[k];
		if (v == NO_TENSOR)
			continue;
		ref(g, v);
		n->saved[n->nsaved++] = v;
	}
	n->scratch = scratch;
}

/* An operation with one output: allocate it, record the node. */
static int op(struct gen *g, uint64_t bytes, const char *nm, const int *in, int nin,
	      const int *saved, int nsaved, uint64_t scratch)
{
	int o = activation(g, bytes, nm);

	node(g, &o, 1, in, nin, saved, nsaved, scratch);
	return o;
}

/*
 * A contribution to @i's gradient: @alias (the output's gradient, passed on)
 * or, with NO_TENSOR, a new tensor of @i's size.
 */
static void grad_add(struct gen *g, int i, int alias)
{
	int old = g->t[i].grad, c = NO_TENSOR, sum;
	const char *lb = label(g, i);

	if (old == NO_TENSOR) {
		if (alias != NO_TENSOR) {
			ref(g, alias);
			g->t[i].grad = alias;
		} else {
			/* Not in one statement: alloc_t() may move g->t. */
			c = alloc_t(g, g->t[i].bytes, name(g, "g.%s", lb));
			g->t[i].grad = c;
		}
		return;
	}
	if (alias == NO_TENSOR)
		c = alloc_t(g, g->t[i].bytes, name(g, "g.%s.acc", lb));
	if (g->t[old].refs == 1) {
		/* Only @i holds its gradient: added in place. */
		drop(g, c);
		return;
	}
	/* Shared with another tensor: a new sum. */
	sum = alloc_t(g, g->t[i].bytes, name(g, "g.%s.%lu", lb, ++g->seqno));
	drop(g, c);
	drop(g, old);
	g->t[i].grad = sum;
}

static void node_backward(struct gen *g, const struct node *n)
{
	int k, scratch = NO_TENSOR, gout = g->t[n->out[0]].grad;
	bool reached = false;

	for (k = 0; k < n->nout; k++)
		reached |= g->t[n->out[k]].grad != NO_TENSOR;
	if (reached) {
		if (n->scratch)
			scratch = alloc_t(g, n->scratch, name(g, "%s.bwd", label(g, n->out[0])));
		for (k = 0; k < n->nin; k++) {
			int i = n->in[k];

			if (!g->t[i].needs_grad)
				continue;
			grad_add(g, i, (n->pass & (1u << k)) && gout != NO_TENSOR ? gout : NO_TENSOR);
		}
		drop(g, scratch);
		for (k = 0; k < n->nout; k++) {
			drop(g, g->t[n->out[k]].grad);
			g->t[n->out[k]].grad = NO_TENSOR;
		}
	}
	for (k = 0; k < n->nsaved; k++)
		drop(g, n->saved[k]);
}

/* loss.backward(): the loss's gradient (ones_like), then every node in reverse. */
static void backward(struct gen *g, int loss)
{
	int i, grad;

	g->phase = "backward";
	grad = alloc_t(g, g->t[loss].bytes, name(g, "g.%s", label(g, loss)));
	g->t[loss].grad = grad;
	for (i = g->nn - 1; i >= 0; i--)
		node_backward(g, &g->n[i]);
	g->nn = 0;
}

/* ---- Weights and the optimizer -------------------------------------------- */

/* A weight (@param: with a gradient) or a buffer of the model: persistent. */
static int weight(struct gen *g, int index, uint64_t bytes, bool param, const char *nm)
{
	int i = alloc_as(g, bytes, true, false, nm);

	g->t[i].needs_grad = param;
	g->w[index] = i;
	g->loaded[g->nloaded++] = i;
	if (param) {
		g->params[g->nparams++] = i;
		g->st.weights++;
		g->st.weight_bytes += bytes;
	} else {
		g->st.buffers++;
		g->st.buffer_bytes += bytes;
	}
	return i;
}

/* A weight's name without its "w.": "h3.ln_1.weight". */
static const char *weight_name(const struct gen *g, int i)
{
	return g->out ? g->t[i].name + 2 : NULL;
}

/* optimizer.step() of torch.optim.AdamW (foreach), then zero_grad(set_to_none). */
static void adamw_step(struct gen *g)
{
	int k, *tmp = g->adam ? g->adam + 2 * g->nparams : NULL;

	g->phase = "optimizer";
	if (!g->adam) {
		g->adam = malloc(3 * (size_t)g->nparams * sizeof(*g->adam));
		if (!g->adam) {
			fprintf(stderr, "vrampoolctl: trace: out of memory\n");
			exit(EXIT_FAILED);
		}
		tmp = g->adam + 2 * g->nparams;
		for (k = 0; k < g->nparams; k++) {
			int p = g->params[k];

			g->adam[2 * k] = alloc_as(g, g->t[p].bytes, false, false,
						  name(g, "adam.m.%s", weight_name(g, p)));
			g->adam[2 * k + 1] = alloc_as(g, g->t[p].bytes, false, false,
						      name(g, "adam.v.%s", weight_name(g, p)));
		}
	}
	/* exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs), used, then dropped. */
	for (k = 0; k < g->nparams; k++)
		tmp[k] = alloc_t(g, g->t[g->params[k]].bytes,
				 name(g, "adam.sqrt.%s", weight_name(g, g->params[k])));
	for (k = 0; k < g->nparams; k++)
		drop(g, tmp[k]);
	for (k = 0; k < g->nparams; k++) {
		int p = g->params[k];

		drop(g, g->t[p].grad);
		g->t[p].grad = NO_TENSOR;
	}
}

/* The end of the program: the optimizer's state, then the model. */
static void teardown(struct gen *g)
{
	int k;

	g->phase = "end";
	if (g->adam) {
		for (k = 0; k < 2 * g->nparams; k++)
			drop(g, g->adam[k]);
	}
	for (k = 0; k < g->nloaded; k++)
		drop(g, g->loaded[k]);
}

/* ---- GPT-2 small ------------------------------------------------------------ */

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
	weight(g, G_WTE, d->vocab * d->d * b, true, name(g, "w.wte"));
	weight(g, G_WPE, d->ctx * d->d * b, true, name(g, "w.wpe"));
	for (l = 0; l < d->layers; l++, x += G_LAYER) {
		weight(g, x + G_LN1_W, d->d * b, true, name(g, "w.h%" PRIu64 ".ln_1.weight", l));
		weight(g, x + G_LN1_B, d->d * b, true, name(g, "w.h%" PRIu64 ".ln_1.bias", l));
		/* The causal mask, a bool buffer registered by GPT2Attention. */
		weight(g, x + G_MASK, d->ctx * d->ctx, false, name(g, "w.h%" PRIu64 ".attn.bias", l));
		weight(g, x + G_QKV_W, d->d * 3 * d->d * b, true,
		       name(g, "w.h%" PRIu64 ".attn.c_attn.weight", l));
		weight(g, x + G_QKV_B, 3 * d->d * b, true,
		       name(g, "w.h%" PRIu64 ".attn.c_attn.bias", l));
		weight(g, x + G_PROJ_W, d->d * d->d * b, true,
		       name(g, "w.h%" PRIu64 ".attn.c_proj.weight", l));
		weight(g, x + G_PROJ_B, d->d * b, true,
		       name(g, "w.h%" PRIu64 ".attn.c_proj.bias", l));
		weight(g, x + G_LN2_W, d->d * b, true, name(g, "w.h%" PRIu64 ".ln_2.weight", l));
		weight(g, x + G_LN2_B, d->d * b, true, name(g, "w.h%" PRIu64 ".ln_2.bias", l));
		weight(g, x + G_FC_W, d->d * d->ff * b, true,
		       name(g, "w.h%" PRIu64 ".mlp.c_fc.weight", l));
		weight(g, x + G_FC_B, d->ff * b, true, name(g, "w.h%" PRIu64 ".mlp.c_fc.bias", l));
		weight(g, x + G_FCP_W, d->ff * d->d * b, true,
		       name(g, "w.h%" PRIu64 ".mlp.c_proj.weight", l));
		weight(g, x + G_FCP_B, d->d * b, true,
		       name(g, "w.h%" PRIu64 ".mlp.c_proj.bias", l));
	}
	weight(g, G_LNF_W, d->d * b, true, name(g, "w.ln_f.weight"));
	weight(g, G_LNF_B, d->d * b, true, name(g, "w.ln_f.bias"));
}

/* nanoGPT's get_batch(): x, then y, copied to the device. */
static void gpt2_fetch(struct gen *g, int step)
{
	uint64_t tokens = g->d.batch * g->seq[step - 1];

	snprintf(g->prefix, sizeof(g->prefix), "s%d.", step);
	g->batch_in = alloc_t(g, tokens * 8, name(g, "idx"));
	g->batch_tgt = alloc_t(g, tokens * 8, name(g, "targets"));
}

/* nn.LayerNorm: the output, then mean and rstd (fp32), saved with the input. */
static int layer_norm(struct gen *g, int x, int w, int b, uint64_t rows, const char *nm,
		      const char *stats_nm)
{
	int y = activation(g, rows * g->d.d * g->m->dtype, nm);
	int st = alloc_t(g, rows * 2 * 4, stats_nm);

	node(g, &y, 1, LIST(x, w, b), LIST(x, w, st), 0);
	drop(g, st);
	return y;
}

/* nn.Linear (Conv1D in GPT-2): saves its input and weight. */
static int linear(struct gen *g, int x, int w, int b, uint64_t rows, uint64_t out_features,
		  const char *nm)
{
	return op(g, rows * out_features * g->m->dtype, nm, LIST(x, w, b), LIST(x, w), 0);
}

static int gpt2_block(struct gen *g, uint64_t l, int x, uint64_t s)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, rows = d->batch * s, act = rows * d->d * b;
	uint64_t att = d->batch * d->heads * s * s * b;
	int ln1, qkv, q, k, v, sc, scaled, masked, p, pv, y, a, x2, ln2, h, ge, m, x3;

	ln1 = layer_norm(g, x, GW(g, l, G_LN1_W), GW(g, l, G_LN1_B), rows,
			 name(g, "h%" PRIu64 ".ln_1", l), name(g, "h%" PRIu64 ".ln_1.stats", l));
	qkv = linear(g, ln1, GW(g, l, G_QKV_W), GW(g, l, G_QKV_B), rows, 3 * d->d,
		     name(g, "h%" PRIu64 ".attn.c_attn", l));
	drop(g, ln1);
	/* split(): three views; its backward puts their gradients back together. */
	q = view(g, qkv, act, name(g, "h%" PRIu64 ".attn.q", l));
	k = view(g, qkv, act, name(g, "h%" PRIu64 ".attn.k", l));
	v = view(g, qkv, act, name(g, "h%" PRIu64 ".attn.v", l));
	node(g, LIST(q, k, v), LIST(qkv), NONE, 0);
	drop(g, qkv);

	sc = op(g, att, name(g, "h%" PRIu64 ".attn.scores", l), LIST(q, k), LIST(q, k), 0);
	scaled = op(g, att, name(g, "h%" PRIu64 ".attn.scaled", l), LIST(sc), NONE, 0);
	drop(g, sc);
	masked = op(g, att, name(g, "h%" PRIu64 ".attn.masked", l), LIST(scaled),
		    LIST(GW(g, l, G_MASK)), 0);
	drop(g, scaled);
	/* softmax saves its result; its backward needs a temporary of that size. */
	p = op(g, att, name(g, "h%" PRIu64 ".attn.softmax", l), LIST(masked), LIST(SELF), att);
	drop(g, masked);
	pv = op(g, act, name(g, "h%" PRIu64 ".attn.pv", l), LIST(p, v), LIST(p, v), 0);
	drop(g, p);
	drop(g, q);
	drop(g, k);
	drop(g, v);
	/* transpose(1, 2).contiguous(): a copy; the gradient goes back as is. */
	y = op(g, act, name(g, "h%" PRIu64 ".attn.merge", l), LIST(pv | PASS), NONE, 0);
	drop(g, pv);
	a = linear(g, y, GW(g, l, G_PROJ_W), GW(g, l, G_PROJ_B), rows, d->d,
		   name(g, "h%" PRIu64 ".attn.c_proj", l));
	drop(g, y);
	x2 = op(g, act, name(g, "h%" PRIu64 ".res1", l), LIST(x | PASS, a | PASS), NONE, 0);
	drop(g, a);
	drop(g, x);

	ln2 = layer_norm(g, x2, GW(g, l, G_LN2_W), GW(g, l, G_LN2_B), rows,
			 name(g, "h%" PRIu64 ".ln_2", l), name(g, "h%" PRIu64 ".ln_2.stats", l));
	h = linear(g, ln2, GW(g, l, G_FC_W), GW(g, l, G_FC_B), rows, d->ff,
		   name(g, "h%" PRIu64 ".mlp.c_fc", l));
	drop(g, ln2);
	ge = op(g, rows * d->ff * b, name(g, "h%" PRIu64 ".mlp.gelu", l), LIST(h), LIST(h), 0);
	drop(g, h);
	m = linear(g, ge, GW(g, l, G_FCP_W), GW(g, l, G_FCP_B), rows, d->d,
		   name(g, "h%" PRIu64 ".mlp.c_proj", l));
	drop(g, ge);
	x3 = op(g, act, name(g, "h%" PRIu64 ".res2", l), LIST(x2 | PASS, m | PASS), NONE, 0);
	drop(g, m);
	drop(g, x2);
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

	pos = alloc_t(g, s * 8, name(g, "pos"));
	tok = op(g, rows * d->d * b, name(g, "tok_emb"), LIST(g->w[G_WTE]), LIST(idx), 0);
	pe = op(g, s * d->d * b, name(g, "pos_emb"), LIST(g->w[G_WPE]), LIST(pos), 0);
	drop(g, pos);
	/* tok_emb + pos_emb: pos_emb is broadcast, its gradient a sum of its own. */
	x = op(g, rows * d->d * b, name(g, "x"), LIST(tok | PASS, pe), NONE, 0);
	drop(g, tok);
	drop(g, pe);
	for (l = 0; l < d->layers; l++)
		x = gpt2_block(g, l, x, s);
	lnf = layer_norm(g, x, g->w[G_LNF_W], g->w[G_LNF_B], rows, name(g, "ln_f"),
			 name(g, "ln_f.stats"));
	drop(g, x);
	logits = op(g, rows * d->vocab * b, name(g, "logits"), LIST(lnf, g->w[G_WTE]),
		    LIST(lnf, g->w[G_WTE]), 0);
	drop(g, lnf);
	/* F.cross_entropy: log_softmax (saves its result), then nll_loss. */
	logp = op(g, rows * d->vocab * 4, name(g, "log_softmax"), LIST(logits), LIST(SELF), 0);
	raw = op(g, 4, name(g, "nll_loss"), LIST(logp), LIST(tgt), 0);
	drop(g, logp);
	/* model() returns: the loop's variables drop the last step's logits and loss. */
	drop(g, g->held_logits);
	drop(g, g->held_loss);
	/* loss = loss / gradient_accumulation_steps */
	loss = op(g, 4, name(g, "loss"), LIST(raw), NONE, 0);
	drop(g, raw);
	g->held_logits = logits;
	g->held_loss = loss;

	/* The next batch is fetched before the backward pass. */
	drop(g, idx);
	drop(g, tgt);
	gpt2_fetch(g, step + 1);
	snprintf(g->prefix, sizeof(g->prefix), "s%d.", step);

	backward(g, loss);
	adamw_step(g);
}

static void gpt2_finish(struct gen *g)
{
	g->phase = "end";
	drop(g, g->held_logits);
	drop(g, g->held_loss);
	drop(g, g->batch_in);
	drop(g, g->batch_tgt);
}

/* ---- LLaMA 7B --------------------------------------------------------------- */

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
	weight(g, L_EMBED, d->vocab * d->d * b, true, name(g, "w.embed_tokens"));
	for (l = 0; l < d->layers; l++, x += L_LAYER) {
		weight(g, x + L_Q, d->d * d->d * b, true, name(g, "w.l%" PRIu64 ".q_proj", l));
		weight(g, x + L_K, d->d * d->d * b, true, name(g, "w.l%" PRIu64 ".k_proj", l));
		weight(g, x + L_V, d->d * d->d * b, true, name(g, "w.l%" PRIu64 ".v_proj", l));
		weight(g, x + L_O, d->d * d->d * b, true, name(g, "w.l%" PRIu64 ".o_proj", l));
		weight(g, x + L_GATE, d->ff * d->d * b, true,
		       name(g, "w.l%" PRIu64 ".gate_proj", l));
		weight(g, x + L_UP, d->ff * d->d * b, true, name(g, "w.l%" PRIu64 ".up_proj", l));
		weight(g, x + L_DOWN, d->d * d->ff * b, true,
		       name(g, "w.l%" PRIu64 ".down_proj", l));
		weight(g, x + L_IN_NORM, d->d * b, true,
		       name(g, "w.l%" PRIu64 ".input_layernorm", l));
		weight(g, x + L_POST_NORM, d->d * b, true,
		       name(g, "w.l%" PRIu64 ".post_attention_layernorm", l));
	}
	weight(g, L_NORM, d->d * b, true, name(g, "w.norm"));
	/* LlamaRotaryEmbedding's inv_freq: head_dim / 2 floats. */
	weight(g, L_INV_FREQ, (hd + 1) / 2 * 4, false, name(g, "w.rotary_emb.inv_freq"));
	weight(g, L_HEAD, d->vocab * d->d * b, true, name(g, "w.lm_head"));
}

/* RMSNorm (fused): the output and rstd (fp32), saved with the input. */
static int rms_norm(struct gen *g, int x, int w, uint64_t rows, const char *nm,
		    const char *rstd_nm)
{
	int y = activation(g, rows * g->d.d * g->m->dtype, nm);
	int r = alloc_t(g, rows * 4, rstd_nm);

	node(g, &y, 1, LIST(x, w), LIST(x, w, r), 0);
	drop(g, r);
	return y;
}

/* apply_rotary_pos_emb on one of q, k: rotate_half() is a temporary. */
static int rope(struct gen *g, int x, int cos, int sin, uint64_t bytes, const char *rot_nm,
		const char *nm)
{
	int rot = alloc_t(g, bytes, rot_nm);
	int y = op(g, bytes, nm, LIST(x), LIST(cos, sin), bytes);

	drop(g, rot);
	drop(g, x);
	return y;
}

static int llama_block(struct gen *g, uint64_t l, int h, int cos, int sin, uint64_t s)
{
	const struct dims *d = &g->d;
	uint64_t b = g->m->dtype, rows = d->batch * s, act = rows * d->d * b;
	uint64_t ffa = rows * d->ff * b;
	int n1, q, k, v, lse, o, oc, a, h2, n2, gt, up, sl, hm, dn, h3;

	n1 = rms_norm(g, h, LW(g, l, L_IN_NORM), rows, name(g, "l%" PRIu64 ".input_layernorm", l),
		      name(g, "l%" PRIu64 ".input_layernorm.rstd", l));
	q = linear(g, n1, LW(g, l, L_Q), NO_TENSOR, rows, d->d, name(g, "l%" PRIu64 ".q_proj", l));
	k = linear(g, n1, LW(g, l, L_K), NO_TENSOR, rows, d->d, name(g, "l%" PRIu64 ".k_proj", l));
	v = linear(g, n1, LW(g, l, L_V), NO_TENSOR, rows, d->d, name(g, "l%" PRIu64 ".v_proj", l));
	drop(g, n1);
	q = rope(g, q, cos, sin, act, name(g, "l%" PRIu64 ".q_rot", l),
		 name(g, "l%" PRIu64 ".q_embed", l));
	k = rope(g, k, cos, sin, act, name(g, "l%" PRIu64 ".k_rot", l),
		 name(g, "l%" PRIu64 ".k_embed", l));

	/* Flash attention: the output and its logsumexp, both saved. */
	o = activation(g, act, name(g, "l%" PRIu64 ".attn", l));
	lse = alloc_t(g, d->batch * d->heads * s * 4, name(g, "l%" PRIu64 ".attn.lse", l));
	node(g, &o, 1, LIST(q, k, v), LIST(q, k, v, o, lse), rows * d->d * 4);
	drop(g, lse);
	drop(g, q);
	drop(g, k);
	drop(g, v);
	oc = op(g, act, name(g, "l%" PRIu64 ".attn.merge", l), LIST(o | PASS), NONE, 0);
	drop(g, o);
	a = linear(g, oc, LW(g, l, L_O), NO_TENSOR, rows, d->d, name(g, "l%" PRIu64 ".o_proj", l));
	drop(g, oc);
	h2 = op(g, act, name(g, "l%" PRIu64 ".res1", l), LIST(h | PASS, a | PASS), NONE, 0);
	drop(g, a);
	drop(g, h);

	n2 = rms_norm(g, h2, LW(g, l, L_POST_NORM), rows,
		      name(g, "l%" PRIu64 ".post_attention_layernorm", l),
		      name(g, "l%" PRIu64 ".post_attention_layernorm.rstd", l));
	gt = linear(g, n2, LW(g, l, L_GATE), NO_TENSOR, rows, d->ff,
		    name(g, "l%" PRIu64 ".gate_proj", l));
	up = linear(g, n2, LW(g, l, L_UP), NO_TENSOR, rows, d->ff,
		    name(g, "l%" PRIu64 ".up_proj", l));
	drop(g, n2);
	sl = op(g, ffa, name(g, "l%" PRIu64 ".act_fn", l), LIST(gt), LIST(gt), 0);
	drop(g, gt);
	hm = op(g, ffa, name(g, "l%" PRIu64 ".mul", l), LIST(sl, up), LIST(sl, up), 0);
	drop(g, sl);
	drop(g, up);
	dn = linear(g, hm, LW(g, l, L_DOWN), NO_TENSOR, rows, d->d,
		    name(g, "l%" PRIu64 ".down_proj", l));
	drop(g, hm);
	h3 = op(g, act, name(g, "l%" PRIu64 ".res2", l), LIST(h2 | PASS, dn | PASS), NONE, 0);
	drop(g, dn);
	drop(g, h2);
	return h3;
}

/* LlamaRotaryEmbedding.forward (no grad): fp32 work, then cos and sin in fp16. */
static void llama_rotary(struct gen *g, uint64_t rows, int *cos, int *sin)
{
	uint64_t hd = g->d.d / g->d.heads, b = g->m->dtype;
	int posf, freqs, emb, c32, s32;

	posf = alloc_t(g, rows * 4, name(g, "rotary.position_ids"));
	freqs = alloc_t(g, rows * ((hd + 1) / 2) * 4, name(g, "rotary.freqs"));
	drop(g, posf);
	emb = alloc_t(g, rows * hd * 4, name(g, "rotary.emb"));
	drop(g, freqs);
	c32 = alloc_t(g, rows * hd * 4, name(g, "rotary.cos32"));
	s32 = alloc_t(g, rows * hd * 4, name(g, "rotary.sin32"));
	drop(g, emb);
	*cos = alloc_t(g, rows * hd * b, name(g, "rotary.cos"));
	*sin = alloc_t(g, rows * hd * b, name(g, "rotary.sin"));
	drop(g, c32);
	drop(g, s32);
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
	ids = alloc_t(g, rows * 8, name(g, "input_ids"));
	labels = alloc_t(g, rows * 8, name(g, "labels"));

	h = op(g, rows * d->d * b, name(g, "inputs_embeds"), LIST(g->w[L_EMBED]), LIST(ids), 0);
	llama_rotary(g, rows, &cos, &sin);
	for (l = 0; l < d->layers; l++)
		h = llama_block(g, l, h, cos, sin, s);
	drop(g, cos);
	drop(g, sin);
	nf = rms_norm(g, h, g->w[L_NORM], rows, name(g, "norm"), name(g, "norm.rstd"));
	drop(g, h);
	logits = linear(g, nf, g->w[L_HEAD], NO_TENSOR, rows, d->vocab, name(g, "logits"));
	drop(g, nf);

	/* ForCausalLMLoss: logits.float(), the labels padded and shifted, cross entropy. */
	l32 = op(g, rows * d->vocab * 4, name(g, "logits.float"), LIST(logits), NONE, 0);
	pad = alloc_t(g, d->batch * (s + 1) * 8, name(g, "labels.pad"));
	shift = alloc_t(g, rows * 8, name(g, "labels.shift"));
	drop(g, pad);
	logp = op(g, rows * d->vocab * 4, name(g, "log_softmax"), LIST(l32), LIST(SELF), 0);
	sum = op(g, 4, name(g, "nll_loss"), LIST(logp), LIST(shift), 0);
	loss = op(g, 4, name(g, "loss"), LIST(sum), NONE, 0);
	drop(g, sum);
	drop(g, logp);
	drop(g, shift);
	drop(g, l32);
	/* The outputs (their fp16 logits) are dropped once the loss is taken. */
	drop(g, logits);

	backward(g, loss);
	adamw_step(g);
	drop(g, loss);
	drop(g, ids);
	drop(g, labels);
}

static const struct model models[] = {
	{
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
	},
	{
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
	},
};

#define N_MODELS (sizeof(models) / sizeof(models[0]))

/* ---- Scaling and the command -------------------------------------------------- */

static uint64_t scaled(uint64_t v, double f, uint64_t min)
{
	uint64_t s = (uint64_t)((double)v * f + 0.5);

	return s < min ? min : s;
}

static void scale_dims(const struct model *m, double f, struct dims *d)
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
static int generate(const struct model *m, const struct dims *d, uint64_t seed, int steps,
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
	teardown(&g);

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

static uint64_t peak_at(const struct model *m, double f, uint64_t seed, int steps,
			struct dims *d)
{
	struct gen_stats st;

	scale_dims(m, f, d);
	if (generate(m, d, seed, steps, NULL, &st))
		return UINT64_MAX;
	return st.peak;
}

static void write_header(FILE *out, const struct model *m, const struct dims *d, double f,
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

static const char trace_usage[] =
	"usage: vrampoolctl trace gpt2-small|llama-7b [--vram SIZE] [--steps N] [--seed S] [-o FILE]\n";

int cmd_trace(int argc, char **argv)
{
	static const char *const valued[] = { "--vram", "--steps", "--seed", "--output", "-o", NULL };
	const struct model *m = NULL;
	const char *file = NULL, *v;
	uint64_t vram = DEFAULT_VRAM, steps = DEFAULT_STEPS, seed = DEFAULT_SEED, target, peak;
	struct gen_stats st;
	struct dims d;
	char why[256], opt[64], a[32];
	double f = 1.0, lo, hi, mid;
	FILE *out;
	size_t k;
	int i, ret;

	for (i = 1; i < argc; i++) {
		ret = take_option(argc, argv, &i, valued, opt, sizeof(opt), &v);
		if (ret)
			return ret;
		if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
			fputs(trace_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(opt, "--vram")) {
			if (parse_size(v, &vram, why, sizeof(why)))
				return usage_error("trace: --vram: %s", why);
		} else if (!strcmp(opt, "--steps")) {
			if (parse_count(v, &steps, why, sizeof(why)))
				return usage_error("trace: --steps: %s", why);
			if (!steps || steps > MAX_STEPS)
				return usage_error("trace: --steps: %s: from 1 to %d", v, MAX_STEPS);
		} else if (!strcmp(opt, "--seed")) {
			if (parse_count(v, &seed, why, sizeof(why)))
				return usage_error("trace: --seed: %s", why);
		} else if (!strcmp(opt, "--output") || !strcmp(opt, "-o")) {
			file = v;
		} else if (opt[0] == '-' && opt[1]) {
			return usage_error("trace: unknown option '%s'", opt);
		} else if (m) {
			return usage_error("trace: one model only ('%s', then '%s')", m->name, opt);
		} else {
			for (k = 0; k < N_MODELS && strcmp(opt, models[k].name); k++)
				;
			if (k == N_MODELS)
				return usage_error("trace: unknown model '%s' (gpt2-small or llama-7b)",
						   opt);
			m = &models[k];
		}
	}
	if (!m)
		return usage_error("trace: no model given (gpt2-small or llama-7b)");

	/* The largest scale whose peak live is at most half the VRAM. */
	target = vram / 2;
	peak = peak_at(m, 1.0, seed, (int)steps, &d);
	if (peak > target) {
		peak = peak_at(m, 0.0, seed, (int)steps, &d);
		if (peak > target)
			return usage_error("trace: --vram %s is too small for %s: at its smallest, its peak live (%" PRIu64
					   " bytes) is more than half of it",
					   format_size(vram, a, sizeof(a)), m->name, peak);
		lo = 0.0;
		hi = 1.0;
		for (i = 0; i < BISECTIONS; i++) {
			mid = (lo + hi) / 2;
			if (peak_at(m, mid, seed, (int)steps, &d) <= target)
				lo = mid;
			else
				hi = mid;
		}
		f = lo;
	}
	scale_dims(m, f, &d);
	if (generate(m, &d, seed, (int)steps, NULL, &st))
		return EXIT_FAILED;

	out = stdout;
	if (file && strcmp(file, "-")) {
		out = fopen(file, "w");
		if (!out) {
			fprintf(stderr, "vrampoolctl: trace: %s: %s\n", file, strerror(errno));
			return EXIT_FAILED;
		}
	}
	write_header(out, m, &d, f, vram, seed, (int)steps, &st);
	ret = generate(m, &d, seed, (int)steps, out, &st) ? EXIT_FAILED : EXIT_OK;
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "vrampoolctl: trace: %s: %s\n", file ? file : "standard output",
			strerror(errno));
		ret = EXIT_FAILED;
	}
	if (out != stdout)
		fclose(out);
	return ret;
}

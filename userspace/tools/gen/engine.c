// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: the autograd engine of the model generators: each
 * operation allocates its output and saves what its backward needs; the
 * backward pass runs over them in reverse, as PyTorch's autograd does
 * (models.c says what that means for the trace).
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
const char *gen_name(struct gen *g, const char *fmt, ...)
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
int gen_alloc_t(struct gen *g, uint64_t bytes, const char *nm)
{
	return alloc_as(g, bytes, false, true, nm);
}

/* An activation: a tensor autograd gives a gradient. */
int gen_activation(struct gen *g, uint64_t bytes, const char *nm)
{
	int i = gen_alloc_t(g, bytes, nm);

	g->t[i].needs_grad = true;
	return i;
}

static void ref(struct gen *g, int i)
{
	g->t[i].refs++;
}

/* Drop a reference; the last one frees the tensor (a view: its base's reference). */
void gen_drop(struct gen *g, int i)
{
	struct tensor *t;

	if (i == NO_TENSOR)
		return;
	t = &g->t[i];
	if (--t->refs > 0)
		return;
	if (t->view) {
		gen_drop(g, t->base);
		return;
	}
	g->live -= t->bytes;
	g->st.frees++;
	if (g->out)
		fprintf(g->out, "free %s\n", t->name);
}

/* A view of @base: no allocation; it keeps @base alive. */
int gen_view(struct gen *g, int base, uint64_t bytes, const char *nm)
{
	int i = new_tensor(g, bytes, true, nm ? nm : "");

	g->t[i].view = true;
	g->t[i].base = base;
	g->t[i].needs_grad = true;
	ref(g, base);
	return i;
}

/* Record an operation for the backward pass; it holds what it saves. */
void gen_node(struct gen *g, const int *out, int nout, const int *in, int nin,
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
int gen_op(struct gen *g, uint64_t bytes, const char *nm, const int *in, int nin,
	   const int *saved, int nsaved, uint64_t scratch)
{
	int o = gen_activation(g, bytes, nm);

	gen_node(g, &o, 1, in, nin, saved, nsaved, scratch);
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
			/* Not in one statement: gen_alloc_t() may move g->t. */
			c = gen_alloc_t(g, g->t[i].bytes, gen_name(g, "g.%s", lb));
			g->t[i].grad = c;
		}
		return;
	}
	if (alias == NO_TENSOR)
		c = gen_alloc_t(g, g->t[i].bytes, gen_name(g, "g.%s.acc", lb));
	if (g->t[old].refs == 1) {
		/* Only @i holds its gradient: added in place. */
		gen_drop(g, c);
		return;
	}
	/* Shared with another tensor: a new sum. */
	sum = gen_alloc_t(g, g->t[i].bytes, gen_name(g, "g.%s.%lu", lb, ++g->seqno));
	gen_drop(g, c);
	gen_drop(g, old);
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
			scratch = gen_alloc_t(g, n->scratch, gen_name(g, "%s.bwd", label(g, n->out[0])));
		for (k = 0; k < n->nin; k++) {
			int i = n->in[k];

			if (!g->t[i].needs_grad)
				continue;
			grad_add(g, i, (n->pass & (1u << k)) && gout != NO_TENSOR ? gout : NO_TENSOR);
		}
		gen_drop(g, scratch);
		for (k = 0; k < n->nout; k++) {
			gen_drop(g, g->t[n->out[k]].grad);
			g->t[n->out[k]].grad = NO_TENSOR;
		}
	}
	for (k = 0; k < n->nsaved; k++)
		gen_drop(g, n->saved[k]);
}

/* loss.backward(): the loss's gradient (ones_like), then every node in reverse. */
void gen_backward(struct gen *g, int loss)
{
	int i, grad;

	g->phase = "backward";
	grad = gen_alloc_t(g, g->t[loss].bytes, gen_name(g, "g.%s", label(g, loss)));
	g->t[loss].grad = grad;
	for (i = g->nn - 1; i >= 0; i--)
		node_backward(g, &g->n[i]);
	g->nn = 0;
}

/* ---- Weights and the optimizer -------------------------------------------- */

/* A weight (@param: with a gradient) or a buffer of the model: persistent. */
int gen_weight(struct gen *g, int index, uint64_t bytes, bool param, const char *nm)
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
void gen_adamw_step(struct gen *g)
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
						  gen_name(g, "adam.m.%s", weight_name(g, p)));
			g->adam[2 * k + 1] = alloc_as(g, g->t[p].bytes, false, false,
						      gen_name(g, "adam.v.%s", weight_name(g, p)));
		}
	}
	/* exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs), used, then dropped. */
	for (k = 0; k < g->nparams; k++)
		tmp[k] = gen_alloc_t(g, g->t[g->params[k]].bytes,
				 gen_name(g, "adam.sqrt.%s", weight_name(g, g->params[k])));
	for (k = 0; k < g->nparams; k++)
		gen_drop(g, tmp[k]);
	for (k = 0; k < g->nparams; k++) {
		int p = g->params[k];

		gen_drop(g, g->t[p].grad);
		g->t[p].grad = NO_TENSOR;
	}
}

/* The end of the program: the optimizer's state, then the model. */
void gen_teardown(struct gen *g)
{
	int k;

	g->phase = "end";
	if (g->adam) {
		for (k = 0; k < 2 * g->nparams; k++)
			gen_drop(g, g->adam[k]);
	}
	for (k = 0; k < g->nloaded; k++)
		gen_drop(g, g->loaded[k]);
}

int gen_linear(struct gen *g, int x, int w, int b, uint64_t rows, uint64_t out_features,
	       const char *nm)
{
	return gen_op(g, rows * out_features * g->m->dtype, nm, LIST(x, w, b), LIST(x, w), 0);
}

/* SPDX-License-Identifier: MIT */
/*
 * vrampoolctl: the autograd engine the model generators share (engine.c):
 * tensors, the operations that make them, and a backward pass over them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOLCTL_GEN_ENGINE_H
#define VRAMPOOLCTL_GEN_ENGINE_H

#include "gen.h"

#define NO_TENSOR	(-1)
#define SELF		(-2)		/* in a saved list: the operation's own output */
#define PASS		(1 << 30)	/* an input whose gradient is the output's, passed on */
#define MAX_IO		6
#define NAME_BUFS	4

/* A list of tensors for an argument pair (array, count). */
#define LIST(...)	((const int[]){ __VA_ARGS__ }), \
			(int)(sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))
#define NONE		LIST(NO_TENSOR)

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

/* A name for a new tensor, after the step's prefix ("s2."), in a rotating buffer. */
const char *gen_name(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new tensor of @bytes, not persistent; its index. */
int gen_alloc_t(struct gen *g, uint64_t bytes, const char *nm);
/* A new activation (it needs a gradient); its index. */
int gen_activation(struct gen *g, uint64_t bytes, const char *nm);
/* Drop the program's reference to tensor @i (freed when none is left). */
void gen_drop(struct gen *g, int i);
/* A view of @base's storage whose gradient takes @bytes; its index. */
int gen_view(struct gen *g, int base, uint64_t bytes, const char *nm);
/* An operation of the graph: its outputs, inputs, saved tensors and scratch bytes. */
void gen_node(struct gen *g, const int *out, int nout, const int *in, int nin,
	      const int *saved, int nsaved, uint64_t scratch);
/* An operation with one new output of @bytes; the output's index. */
int gen_op(struct gen *g, uint64_t bytes, const char *nm, const int *in, int nin,
	   const int *saved, int nsaved, uint64_t scratch);
/* The backward pass from @loss, as autograd runs it. */
void gen_backward(struct gen *g, int loss);
/* Weight or buffer @index of the model, persistent; its index. */
int gen_weight(struct gen *g, int index, uint64_t bytes, bool param, const char *nm);
/* One AdamW step over the parameters, then zero_grad(set_to_none). */
void gen_adamw_step(struct gen *g);
/* The end: the program's last tensors, the moments, then the weights, freed. */
void gen_teardown(struct gen *g);
/* x @ w^T (+ b), @rows x @out_features; its index. */
int gen_linear(struct gen *g, int x, int w, int b, uint64_t rows, uint64_t out_features,
	       const char *nm);

#endif /* VRAMPOOLCTL_GEN_ENGINE_H */

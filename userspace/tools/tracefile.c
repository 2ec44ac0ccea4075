// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: traces of allocations, read and checked (replay, plan).
 *
 * The trace format (`vrampoolctl trace` writes it; so can anything else):
 *
 *   # a comment, from '#' to the end of the line; blank lines are skipped
 *   alloc ID SIZE [persistent]
 *   free ID
 *
 * One operation a line, its words separated by blanks. ID is the trace's
 * own name for an allocation: 1 to 63 letters, digits, '_', '-' or '.'.
 * An ID names one live allocation at a time, and may be allocated again
 * once freed. SIZE is a number of bytes, with an optional unit as
 * everywhere in vrampoolctl (4096, 64MiB). `persistent` asks for the
 * persistent pool (DRM_VRAMPOOL_ALLOC_PERSISTENT). What a trace leaves
 * live is freed when the device is closed.
 *
 * The trace is read and checked whole before the device is opened: an
 * unknown operation, a bad ID or size, an alloc of an ID that is live or a
 * free of one that is not is a usage error (exit 2) naming the line; the
 * message names the command that read it (replay or plan).
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

#define MAX_TRACE_WORDS	4

/* The command whose messages these are: "replay" or "plan". */
static const char *trace_cmd = "replay";

static int trace_error(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int trace_error(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vrampoolctl: %s: line %d: ", trace_cmd, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static void *must_grow(void *p, size_t *cap, size_t elem)
{
	size_t ncap = *cap ? 2 * *cap : 1024;

	p = realloc(p, ncap * elem);
	if (!p) {
		fprintf(stderr, "vrampoolctl: replay: out of memory\n");
		exit(EXIT_FAILED);
	}
	*cap = ncap;
	return p;
}

/* ---- IDs ------------------------------------------------------------------ */

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static void rehash(struct trace *t, size_t nslots)
{
	size_t i, k, mask = nslots - 1;

	free(t->slots);
	t->slots = calloc(nslots, sizeof(*t->slots));
	if (!t->slots) {
		fprintf(stderr, "vrampoolctl: replay: out of memory\n");
		exit(EXIT_FAILED);
	}
	t->nslots = nslots;
	for (i = 0; i < t->nids; i++) {
		for (k = hash(t->ids[i].name) & mask; t->slots[k]; k = (k + 1) & mask)
			;
		t->slots[k] = (uint32_t)i + 1;
	}
}

/* The index of ID @name; with @add, a new one if it is not known. -1: unknown. */
static long find_id(struct trace *t, const char *name, bool add)
{
	size_t k, mask;

	if (add && 2 * (t->nids + 1) > t->nslots)
		rehash(t, t->nslots ? 2 * t->nslots : 1024);
	if (!t->nslots)
		return -1;
	mask = t->nslots - 1;
	for (k = hash(name) & mask; t->slots[k]; k = (k + 1) & mask) {
		if (!strcmp(t->ids[t->slots[k] - 1].name, name))
			return t->slots[k] - 1;
	}
	if (!add)
		return -1;
	if (t->nids == t->capids)
		t->ids = must_grow(t->ids, &t->capids, sizeof(*t->ids));
	t->ids[t->nids] = (struct trace_id){ .name = strdup(name) };
	if (!t->ids[t->nids].name) {
		fprintf(stderr, "vrampoolctl: replay: out of memory\n");
		exit(EXIT_FAILED);
	}
	t->slots[k] = (uint32_t)t->nids + 1;
	return (long)t->nids++;
}

void free_trace(struct trace *t)
{
	size_t i;

	for (i = 0; i < t->nids; i++)
		free(t->ids[i].name);
	free(t->ids);
	free(t->ops);
	free(t->slots);
}

/* ---- Reading a trace ------------------------------------------------------ */

/* One line's operation into @t; a mistake is reported and returned. */
static int parse_op(struct trace *t, int line, int n, char **w)
{
	struct trace_op op = { .line = line };
	struct trace_id *id;
	char why[384];
	long i;

	if (!strcmp(w[0], "alloc")) {
		if (n < 3 || n > 4)
			return trace_error(line, "usage: alloc ID SIZE [persistent]");
		if (!valid_name(w[1]))
			return trace_error(line, "'%s' is not an ID (letters, digits, _ - .; at most %d)",
					   w[1], NAME_MAX_LEN);
		if (parse_size(w[2], &op.size, why, sizeof(why)))
			return trace_error(line, "alloc: %s", why);
		if (n == 4) {
			if (strcmp(w[3], "persistent"))
				return trace_error(line, "alloc: '%s': only 'persistent' may follow the size",
						   w[3]);
			op.persistent = true;
		}
		i = find_id(t, w[1], true);
		id = &t->ids[i];
		if (id->live)
			return trace_error(line, "'%s' is still allocated (line %d): free it first",
					   w[1], id->line);
		op.alloc = true;
		id->live = true;
	} else if (!strcmp(w[0], "free")) {
		if (n != 2)
			return trace_error(line, "usage: free ID");
		i = find_id(t, w[1], false);
		if (i < 0)
			return trace_error(line, "'%s' is not allocated by an earlier line", w[1]);
		id = &t->ids[i];
		if (!id->live)
			return trace_error(line, "'%s' is already freed (line %d)", w[1], id->line);
		id->live = false;
	} else {
		return trace_error(line, "unknown operation '%s' (alloc or free)", w[0]);
	}
	id->line = line;
	op.id = (uint32_t)i;
	if (t->nops == t->capops)
		t->ops = must_grow(t->ops, &t->capops, sizeof(*t->ops));
	t->ops[t->nops++] = op;
	return 0;
}

static int parse_trace(FILE *in, const char *file, struct trace *t)
{
	char *line = NULL, *save, *w, *words[MAX_TRACE_WORDS + 1];
	size_t cap = 0, i;
	int lineno = 0, n, ret = 0;

	while (!ret && getline(&line, &cap, in) >= 0) {
		lineno++;
		n = 0;
		save = NULL;
		for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
			if (*w == '#')
				break;
			if (n == MAX_TRACE_WORDS + 1)
				break;
			words[n++] = w;
		}
		if (n)
			ret = parse_op(t, lineno, n, words);
	}
	free(line);
	if (!ret && ferror(in))
		ret = trace_error(lineno, "read error: %s", strerror(errno));
	if (!ret && !t->nops)
		ret = usage_error("%s: %s: no operation (alloc or free) in the trace", trace_cmd, file);
	/* The replay starts with nothing live. */
	for (i = 0; i < t->nids; i++)
		t->ids[i].live = false;
	return ret;
}

int load_trace(const char *cmd, const char *file, struct trace *t)
{
	FILE *in;
	int ret;

	trace_cmd = cmd;
	in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!in)
		return usage_error("%s: %s: %s", cmd, file, strerror(errno));
	ret = parse_trace(in, file, t);
	if (in != stdin)
		fclose(in);
	return ret;
}

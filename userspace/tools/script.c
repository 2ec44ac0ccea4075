// SPDX-License-Identifier: MIT
/*
 * vrampoolctl run: a script read and checked whole, before anything runs
 * (run.c runs it): each line one command of `vrampoolctl help`'s "Script
 * commands", its words, names and values checked; a mistake is a usage
 * error (exit 2) naming the line.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"

#define MAX_WORDS	(MAX_SPECS + 4)

static const struct {
	const char *word;
	enum op op;
	int min_args, max_args;		/* -1: any number */
	const char *usage;
} ops[] = {
	{ "install", OP_INSTALL, 1, -1, "install [--test-only] LAYOUT" },
	{ "alloc", OP_ALLOC, 2, 3, "alloc NAME SIZE [persistent]" },
	{ "free", OP_FREE, 1, 1, "free NAME" },
	{ "cleanup", OP_CLEANUP, 0, 0, "cleanup" },
	{ "mode", OP_MODE, 1, 1, "mode enabled|size-match|disabled|enforced" },
	{ "write", OP_WRITE, 2, 2, "write NAME BYTE" },
	{ "check", OP_CHECK, 2, 2, "check NAME BYTE" },
	{ "stat", OP_STAT, 0, 2, "stat [--all] [--json]" },
	{ "map", OP_MAP, 0, 0, "map" },
	{ "expect-error", OP_EXPECT, 1, 1, "expect-error KIND" },
	{ "sleep", OP_SLEEP, 1, 1, "sleep SECS" },
	{ "wait", OP_WAIT, 1, 1, "wait FILE" },
	{ "alloc-batch", OP_ALLOC_BATCH, 1, -1, "alloc-batch NAME=SIZE[:persistent]..." },
	{ "free-batch", OP_FREE_BATCH, 1, -1, "free-batch NAME..." },
};

#define N_OPS (sizeof(ops) / sizeof(ops[0]))

int script_error(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vrampoolctl: run: line %d: ", line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static int find_name(struct script *s, const char *word)
{
	int i;

	for (i = 0; i < s->nnames; i++) {
		if (!strcmp(s->names[i].name, word))
			return i;
	}
	return -1;
}

bool valid_name(const char *w)
{
	size_t i, n = strlen(w);

	if (!n || n > NAME_MAX_LEN)
		return false;
	for (i = 0; i < n; i++) {
		char c = w[i];

		if (!(c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
	}
	return true;
}

static int parse_byte(const char *w, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!*w || *w == '-' || *w == '+')
		return -1;
	errno = 0;
	v = strtoul(w, &end, 0);	/* 171, 0xab */
	if (errno || *end || v > 255)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* Split @line into words, a '#' word ending it; the number of words, or -1. */
static int split(char *line, char **words, int max)
{
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (*w == '#')
			break;
		if (n == max)
			return -1;
		words[n++] = w;
	}
	return n;
}

/* The index of name @w, made if new; -1 when there are too many. */
static int name_of(struct script *s, const char *w)
{
	int idx = find_name(s, w);

	if (idx >= 0 || s->nnames == MAX_NAMES)
		return idx;
	idx = s->nnames++;
	snprintf(s->names[idx].name, sizeof(s->names[idx].name), "%s", w);
	return idx;
}

static int bad_name(int line, const char *w)
{
	return script_error(line, "'%s' is not a name (letters, digits, _ - .; at most %d)", w,
			    NAME_MAX_LEN);
}

/* alloc-batch NAME=SIZE[:persistent]...: one request per word. */
static int parse_alloc_batch(struct script *s, struct step *st, int nargs, char **argv)
{
	char why[512], *eq, *colon;
	uint64_t size;
	uint32_t i, j;

	st->items = calloc((size_t)nargs, sizeof(*st->items));
	st->reqs = calloc((size_t)nargs, sizeof(*st->reqs));
	if (!st->items || !st->reqs)
		return script_error(st->line, "out of memory");
	for (i = 0; i < (uint32_t)nargs; i++) {
		eq = strchr(argv[i + 1], '=');
		if (!eq)
			return script_error(st->line, "alloc-batch: '%s' is not NAME=SIZE", argv[i + 1]);
		*eq = '\0';
		colon = strchr(eq + 1, ':');
		if (colon) {
			*colon = '\0';
			if (strcmp(colon + 1, "persistent"))
				return script_error(st->line, "alloc-batch: '%s': only ':persistent' may follow the size",
						    colon + 1);
			st->reqs[i].flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
		}
		if (!valid_name(argv[i + 1]))
			return bad_name(st->line, argv[i + 1]);
		if (parse_size(eq + 1, &size, why, sizeof(why)))
			return script_error(st->line, "alloc-batch: %s", why);
		st->reqs[i].size = size;
		st->items[i] = name_of(s, argv[i + 1]);
		if (st->items[i] < 0)
			return script_error(st->line, "more than %d names", MAX_NAMES);
		for (j = 0; j < i; j++) {
			if (st->items[j] == st->items[i])
				return script_error(st->line, "alloc-batch: '%s' twice in one batch",
						    argv[i + 1]);
		}
		st->nitems++;
	}
	return 0;
}

/* free-batch NAME...: names an earlier line allocated (the same twice, too). */
static int parse_free_batch(struct script *s, struct step *st, int nargs, char **argv)
{
	int i;

	st->items = calloc((size_t)nargs, sizeof(*st->items));
	if (!st->items)
		return script_error(st->line, "out of memory");
	for (i = 0; i < nargs; i++) {
		st->items[i] = find_name(s, argv[i + 1]);
		if (st->items[i] < 0)
			return script_error(st->line, "'%s' is not allocated by an earlier line",
					    argv[i + 1]);
	}
	st->nitems = (uint32_t)nargs;
	return 0;
}

/* One line's command into @st; a usage error is reported and returned. */
static int parse_step(struct script *s, struct step *st, int argc, char **argv)
{
	char why[512];
	size_t k;
	int nargs = argc - 1, first = 1, idx;

	for (k = 0; k < N_OPS; k++) {
		if (!strcmp(argv[0], ops[k].word))
			break;
	}
	if (k == N_OPS)
		return script_error(st->line, "unknown command '%s'", argv[0]);
	st->op = ops[k].op;
	if (st->op == OP_INSTALL && nargs > 0 && !strcmp(argv[1], "--test-only")) {
		st->test_only = true;
		first = 2;
		nargs--;
	}
	if (nargs < ops[k].min_args || (ops[k].max_args >= 0 && nargs > ops[k].max_args))
		return script_error(st->line, "usage: %s", ops[k].usage);

	switch (st->op) {
	case OP_INSTALL:
		st->layout = malloc(sizeof(*st->layout));
		if (!st->layout)
			return script_error(st->line, "out of memory");
		if (parse_layout(nargs, argv + first, st->layout, why, sizeof(why)))
			return script_error(st->line, "install: %s", why);
		break;
	case OP_ALLOC_BATCH:
		if (nargs > DRM_VRAMPOOL_BATCH_MAX)
			return script_error(st->line, "alloc-batch: more than %u requests",
					    DRM_VRAMPOOL_BATCH_MAX);
		return parse_alloc_batch(s, st, nargs, argv);
	case OP_FREE_BATCH:
		if (nargs > DRM_VRAMPOOL_BATCH_MAX)
			return script_error(st->line, "free-batch: more than %u handles",
					    DRM_VRAMPOOL_BATCH_MAX);
		return parse_free_batch(s, st, nargs, argv);
	case OP_ALLOC:
		if (!valid_name(argv[1]))
			return bad_name(st->line, argv[1]);
		if (parse_size(argv[2], &st->size, why, sizeof(why)))
			return script_error(st->line, "alloc: %s", why);
		if (nargs == 3) {
			if (strcmp(argv[3], "persistent"))
				return script_error(st->line, "alloc: '%s': only 'persistent' may follow the size",
						    argv[3]);
			st->persistent = true;
		}
		idx = name_of(s, argv[1]);
		if (idx < 0)
			return script_error(st->line, "more than %d names", MAX_NAMES);
		st->name = idx;
		break;
	case OP_FREE:
	case OP_WRITE:
	case OP_CHECK:
		st->name = find_name(s, argv[1]);
		if (st->name < 0)
			return script_error(st->line, "'%s' is not allocated by an earlier line", argv[1]);
		if (st->op != OP_FREE && parse_byte(argv[2], &st->byte))
			return script_error(st->line, "'%s' is not a byte (0 to 255, or 0x00 to 0xff)",
					    argv[2]);
		break;
	case OP_MODE:
		st->mode = persistent_mode_of(argv[1]);
		if (st->mode < 0)
			return script_error(st->line, "usage: %s", ops[k].usage);
		break;
	case OP_STAT:
		for (idx = 1; idx <= nargs; idx++) {
			if (!strcmp(argv[idx], "--json") && !st->json)
				st->json = true;
			else if (!strcmp(argv[idx], "--all") && !st->all)
				st->all = true;
			else
				return script_error(st->line, "usage: %s", ops[k].usage);
		}
		break;
	case OP_EXPECT:
		st->kind = error_kind_of(argv[1]);
		if (st->kind < 0)
			return script_error(st->line, "'%s' is not an error kind (see `vrampoolctl help`)",
					    argv[1]);
		break;
	case OP_SLEEP:
		if (parse_seconds(argv[1], &st->secs, why, sizeof(why)))
			return script_error(st->line, "sleep: %s", why);
		break;
	case OP_WAIT:
		/* The text is the words joined by one blank: the path follows "wait ". */
		st->path = st->text + strlen(ops[k].word) + 1;
		break;
	default:
		break;
	}
	return 0;
}

/* Only commands that ask the device something can fail with a kind. */
static bool can_fail(enum op op)
{
	return op == OP_INSTALL || op == OP_ALLOC || op == OP_FREE || op == OP_CLEANUP ||
	       op == OP_MODE || op == OP_WRITE || op == OP_CHECK || op == OP_ALLOC_BATCH ||
	       op == OP_FREE_BATCH;
}

int parse_script(FILE *in, struct script *s)
{
	char *line = NULL, *copy, *words[MAX_WORDS];
	size_t cap = 0;
	int lineno = 0, n, ret = 0, i;
	struct step *st;

	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		copy = strdup(line);
		if (!copy) {
			ret = script_error(lineno, "out of memory");
			break;
		}
		copy[strcspn(copy, "\r\n")] = '\0';
		n = split(line, words, MAX_WORDS);
		if (n < 0) {
			free(copy);
			ret = script_error(lineno, "more than %d words", MAX_WORDS);
			break;
		}
		if (!n) {
			free(copy);
			continue;
		}
		if (s->count == s->cap) {
			int ncap = s->cap ? 2 * s->cap : 64;
			struct step *bigger = realloc(s->steps, ncap * sizeof(*bigger));

			if (!bigger) {
				free(copy);
				ret = script_error(lineno, "out of memory");
				break;
			}
			s->steps = bigger;
			s->cap = ncap;
		}
		st = &s->steps[s->count++];
		memset(st, 0, sizeof(*st));
		st->line = lineno;
		/* The command as written, words joined by one blank, no comment. */
		copy[0] = '\0';
		for (i = 0; i < n; i++) {
			if (i)
				strcat(copy, " ");
			strcat(copy, words[i]);
		}
		st->text = copy;
		ret = parse_step(s, st, n, words);
		if (ret)
			break;
	}
	free(line);
	if (!ret && ferror(in))
		ret = script_error(lineno, "read error: %s", strerror(errno));

	for (i = 0; !ret && i < s->count; i++) {
		if (s->steps[i].op != OP_EXPECT)
			continue;
		if (i + 1 == s->count || !can_fail(s->steps[i + 1].op))
			ret = script_error(s->steps[i].line,
					   "expect-error must come before install, alloc, free, cleanup, mode, write, check, alloc-batch or free-batch");
	}
	return ret;
}

void free_script(struct script *s)
{
	int i;

	for (i = 0; i < s->count; i++) {
		free(s->steps[i].text);
		free(s->steps[i].layout);
		free(s->steps[i].items);
		free(s->steps[i].reqs);
	}
	free(s->steps);
	free(s->names);
}

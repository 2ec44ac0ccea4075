// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: the one option parser every command uses.
 *
 * A command lists the options it takes; options and operands may come in
 * any order ("validate LAYOUT --json"), unless the command stops at its
 * first operand (watch, which hands the rest to another command). An
 * option is a long name, "--name" or "--name=VALUE", or a unique prefix of
 * one ("--dev"), or a short alias ("-o VALUE"); "--" ends the options;
 * "-" alone is an operand; --help and -h ask for the command's usage. An
 * unknown option is named without its "=VALUE".
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampoolctl.h"

void opt_init(struct opt_iter *it, int argc, char **argv, const struct opt *opts, bool stop)
{
	*it = (struct opt_iter) { .argc = argc, .argv = argv, .opts = opts, .stop = stop, .i = 0 };
}

/* The option @word names (its first @len characters), or -1: none or several. */
static int find(const struct opt *opts, const char *word, size_t len)
{
	int k, found = -1, matches = 0;

	for (k = 0; opts[k].name; k++) {
		if (opts[k].alias && strlen(opts[k].alias) == len &&
		    !strncmp(word, opts[k].alias, len))
			return k;
		if (strncmp(word, opts[k].name, len))
			continue;
		if (strlen(opts[k].name) == len)
			return k;		/* exact */
		if (len > 2) {			/* a prefix of "--name" */
			found = k;
			matches++;
		}
	}
	return matches == 1 ? found : -1;
}

int opt_next(struct opt_iter *it, const char **val)
{
	const char *arg, *eq;
	size_t len;
	int k;

	*val = NULL;
	if (++it->i >= it->argc)
		return OPT_DONE;
	arg = it->argv[it->i];
	if (it->operands_only || arg[0] != '-' || !arg[1]) {
		if (it->stop)
			it->operands_only = true;
		*val = arg;
		return OPT_OPERAND;
	}
	if (!strcmp(arg, "--")) {
		it->operands_only = true;
		return opt_next(it, val);
	}
	if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
		return OPT_HELP;

	eq = strncmp(arg, "--", 2) ? NULL : strchr(arg, '=');
	len = eq ? (size_t)(eq - arg) : strlen(arg);
	k = find(it->opts, arg, len);
	if (k < 0 || (eq && !it->opts[k].valued)) {
		/* "--json=1": the name alone */
		usage_error("%s: unknown option '%.*s'", it->argv[0], (int)len, arg);
		return OPT_FAILED;
	}
	if (!it->opts[k].valued)
		return k;
	if (eq) {
		*val = eq + 1;
	} else if (it->i + 1 < it->argc) {
		*val = it->argv[++it->i];
	} else {
		usage_error("%s: %s needs a value", it->argv[0], arg);
		return OPT_FAILED;
	}
	return k;
}

#define DEFAULT_ALIGNMENT	256
#define DEFAULT_MAX_PAGE_SIZE	(64ULL << 20)

/* Option @id of command @cmd with value @v into @o; 0 or EXIT_USAGE (printed). */
static int take(const char *cmd, int id, const char *v, struct opts *o)
{
	char why[256];

	switch (id) {
	case OPT_ID_DEVICE:
		o->device = v;
		break;
	case OPT_ID_JSON:
		o->json = true;
		break;
	case OPT_ID_TEST_ONLY:
		o->test_only = true;
		break;
	case OPT_ID_EXCLUSIVE:
		o->exclusive_memory_only = true;
		break;
	case OPT_ID_ALL:
		o->all = true;
		break;
	case OPT_ID_ALIGNMENT:
		if (parse_size(v, &o->alignment, why, sizeof(why)))
			return usage_error("%s: --alignment: %s", cmd, why);
		if (!o->alignment || (o->alignment & (o->alignment - 1)))
			return usage_error("%s: --alignment: %s is not a power of two", cmd, v);
		break;
	case OPT_ID_MAX_PAGE_SIZE:
		if (parse_size(v, &o->max_page_size, why, sizeof(why)))
			return usage_error("%s: --max-page-size: %s", cmd, why);
		break;
	case OPT_ID_INTERVAL:
		if (parse_seconds(v, &o->interval, why, sizeof(why)))
			return usage_error("%s: --interval: %s", cmd, why);
		o->timing = true;
		break;
	case OPT_ID_ITERATIONS:
		if (parse_count(v, &o->count, why, sizeof(why)))
			return usage_error("%s: --iterations: %s", cmd, why);
		o->timing = true;
		break;
	case OPT_ID_COUNT:
		if (parse_count(v, &o->count, why, sizeof(why)))
			return usage_error("%s: --count: %s", cmd, why);
		break;
	}
	return 0;
}

int opt_parse(int argc, char **argv, const struct opt_parser *p, struct opts *o, int *first)
{
	struct opt_iter it;
	char **operands;
	const char *v;
	int k, n = 0, ret = 0;

	*o = (struct opts) {
		.alignment = DEFAULT_ALIGNMENT,
		.max_page_size = DEFAULT_MAX_PAGE_SIZE,
		.interval.tv_sec = 2,
	};
	operands = calloc((size_t)argc, sizeof(*operands));
	if (!operands) {
		fprintf(stderr, "vrampoolctl: %s: out of memory\n", argv[0]);
		return EXIT_FAILED;
	}
	opt_init(&it, argc, argv, p->opts, p->stop);
	while (!ret && (k = opt_next(&it, &v)) != OPT_DONE) {
		if (k == OPT_OPERAND)
			operands[n++] = (char *)v;
		else if (k == OPT_FAILED)
			ret = EXIT_USAGE;
		else if (k == OPT_HELP)
			ret = -1;
		else
			ret = take(argv[0], p->opts[k].id, v, o);
	}
	if (ret < 0)
		fputs(p->usage, stdout);
	else if (!ret && p->max_operands >= 0 && n > p->max_operands)
		ret = usage_error("%s: unexpected argument '%s'", argv[0],
				  operands[p->max_operands]);
	if (!ret) {
		/* The operands last, in order, as GNU getopt leaves them. */
		*first = argc - n;
		memcpy(argv + *first, operands, (size_t)n * sizeof(*operands));
	}
	free(operands);
	return ret;
}

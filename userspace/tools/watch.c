// SPDX-License-Identifier: MIT
/*
 * vrampoolctl watch: repeat info, stat or map.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vrampoolctl.h"

static const char usage[] =
	"usage: vrampoolctl watch [--interval SECS] [--count N] [info|stat|map [OPTIONS]]\n";

static const struct opt options[] = {
	{ "--interval", NULL, true, OPT_ID_INTERVAL },
	{ "--count", NULL, true, OPT_ID_COUNT },
	OPT_END,
};

static int run(const struct opts *o, int argc, char **argv)
{
	static char *info_argv[] = { "info", NULL };
	const struct command *cmd = &cmd_info;
	char **sub = info_argv;
	int ret, nsub = 1, i;
	bool json = false;
	uint64_t k;

	/* The command to repeat, with its own options (opt_parse() stopped there). */
	if (argc) {
		if (strcmp(argv[0], "info") && strcmp(argv[0], "stat") && strcmp(argv[0], "map"))
			return usage_error("watch: can repeat info, stat or map, not '%s'", argv[0]);
		cmd = find_command(argv[0]);
		sub = argv;
		nsub = argc;
		for (i = 1; i < nsub; i++)
			json |= !strcmp(sub[i], "--json");
	}

	for (k = 1; !o->count || k <= o->count; k++) {
		/* JSON Lines stay pure JSON: no header between documents. */
		if (!json) {
			if (o->count)
				printf("--- %s %" PRIu64 " of %" PRIu64 " ---\n", sub[0], k, o->count);
			else
				printf("--- %s %" PRIu64 " ---\n", sub[0], k);
		}
		ret = command_run(cmd, nsub, sub);
		fflush(stdout);
		if (ret)
			return ret;
		if (o->count && k == o->count)
			break;
		nanosleep(&o->interval, NULL);
	}
	return EXIT_OK;
}

const struct command cmd_watch = {
	.name = "watch",
	.help = "  watch [--interval SECS] [--count N] [info|stat|map [OPTIONS]]\n"
		"      Repeat a command (default: info) every SECS seconds (default 2), N\n"
		"      times (default 0: until interrupted).\n",
	.parser = { .opts = options, .usage = usage, .max_operands = OPT_ANY, .stop = true },
	.run_opts = run,
};

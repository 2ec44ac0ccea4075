// SPDX-License-Identifier: MIT
/*
 * vrampoolctl stat: the pools of this client (a fresh open file: the
 * device's default layout) with their statistics; --all: every client of
 * every device, from sysfs (sysfs.c).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stdio.h>

#include "vrampoolctl.h"

static const char usage[] = "usage: vrampoolctl stat [--device PATH] [--all] [--json]\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_JSON,
	{ "--all", NULL, false, OPT_ID_ALL },
	OPT_END,
};

static int run(const struct opts *o, int argc, char **argv)
{
	struct vrampool_device_info info;
	struct client_view view;
	int ret;
	struct json j;

	if (o->all)
		return stat_all(o->device, o->json);

	ret = client_view_open(o->device, &info, &view);
	if (ret)
		return ret;
	if (o->json) {
		json_init(&j, stdout);
		json_stat(&j, &info, &view);
	} else {
		print_stat(stdout, &info, &view);
	}
	client_view_free(&view);
	return EXIT_OK;
}

const struct command cmd_stat = {
	.name = "stat",
	.help = "  stat [--device PATH] [--all] [--json]\n"
		"      The pools of this client (a fresh open file: the device's default\n"
		"      layout), with their statistics. --all: every client of every device\n"
		"      (or of PATH), with its pid and command, from sysfs.\n",
	.parser = { .opts = options, .usage = usage, .max_operands = 0 },
	.run_opts = run,
};

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl map: the occupancy of this client's pools, one bar per pool.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stdio.h>

#include "vrampoolctl.h"

static const char usage[] = "usage: vrampoolctl map [--device PATH]\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_END,
};

static int run(const struct opts *o, int argc, char **argv)
{
	struct vrampool_device_info info;
	struct client_view view;
	int ret;

	ret = client_view_open(o->device, &info, &view);
	if (ret)
		return ret;
	print_map(stdout, &info, &view);
	client_view_free(&view);
	return EXIT_OK;
}

const struct command cmd_map = {
	.name = "map",
	.help = "  map [--device PATH]\n"
		"      The occupancy of this client's pools, one bar per pool.\n",
	.parser = { .opts = options, .usage = usage, .max_operands = 0 },
	.run_opts = run,
};

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl install: send a layout to the kernel (POOL_INSTALL), or
 * only have it checked there (--test-only), and show what it resolved.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "vrampoolctl.h"

static const char usage[] =
	"usage: vrampoolctl install [--device PATH] [--test-only] [--json] LAYOUT\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_JSON,
	{ "--test-only", NULL, false, OPT_ID_TEST_ONLY },
	OPT_END,
};

static int run(const struct opts *o, int argc, char **argv)
{
	static struct drm_vrampool_pool_entry out[VRAMPOOL_LAYOUT_MAX_POOLS];
	static struct layout_request req;
	struct vrampool_install_result res = { 0 };
	struct drm_vrampool_pool_entry *pools = out;
	struct vrampool_device_info info;
	struct vrampool_error err;
	struct vrampool_props props;
	struct client_view view = { 0 };
	char why[512];
	uint32_t n = 0, i;
	int ret, fd;
	struct json j;

	if (parse_layout(argc, argv, &req, why, sizeof(why)))
		return usage_error("install: %s", why);

	fd = open_device(o->device, &info);
	if (fd < 0)
		return -fd;

	ret = vrampool_pool_install(fd, o->test_only ? DRM_VRAMPOOL_INSTALL_TEST_ONLY : 0,
				    req.preset, layout_entries(&req), req.count, &res, &err);
	if (ret) {
		if (o->json) {
			json_init(&j, stdout);
			json_object_begin(&j, NULL);
			json_bool(&j, "ok", false);
			json_string(&j, "device", info.path);
			json_bool(&j, "test_only", o->test_only);
			json_preset(&j, req.preset);
			json_object_begin(&j, "error");
			json_error(&j, &err);
			json_object_end(&j);
			json_object_end(&j);
			json_finish(&j);
		}
		print_error(stderr, "vrampoolctl: ", &err, req.entries, req.count);
		close(fd);
		return EXIT_FAILED;
	}

	if (o->test_only) {
		/* The kernel said yes but returns no pools: resolve them here. */
		ret = vrampool_props_of(fd, &props);
		if (!ret)
			ret = vrampool_layout_validate(&props, req.preset, req.entries, req.count,
						       out, &n, &err);
		if (ret || n != res.num_pools) {
			fprintf(stderr, "vrampoolctl: the kernel accepted the layout (%u pools) but libvrampool resolves it differently (%s, %u pools)\n",
				res.num_pools, ret ? "refused" : "accepted", n);
			close(fd);
			return EXIT_FAILED;
		}
	} else {
		/* What the kernel installed, as it reports it. */
		if (client_view_read(fd, &view)) {
			close(fd);
			return EXIT_FAILED;
		}
		n = view.count ? view.count - 1 : 0;	/* without the persistent pool */
		for (i = 0; i < n; i++)
			out[i] = view.pools[i].config;
		pools = out;
	}
	close(fd);

	if (o->json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_bool(&j, "ok", true);
		json_string(&j, "device", info.path);
		json_bool(&j, "test_only", o->test_only);
		json_preset(&j, req.preset);
		if (o->test_only)
			json_null(&j, "generation");
		else
			json_u64(&j, "generation", res.generation);
		json_u64(&j, "num_pools", res.num_pools);
		json_pools(&j, pools, n);
		json_object_end(&j);
		json_finish(&j);
	} else if (o->test_only) {
		printf("%s: the kernel accepts the layout (test only: nothing installed), %u pool%s\n",
		       info.path, res.num_pools, res.num_pools == 1 ? "" : "s");
		print_pools(pools, n);
	} else {
		printf("%s: installed layout generation %" PRIu64 ", %u pool%s\n", info.path,
		       res.generation, res.num_pools, res.num_pools == 1 ? "" : "s");
		print_pools(pools, n);
	}
	if (!o->test_only)
		fprintf(stderr, "vrampoolctl: note: a layout belongs to the open file that installed it: this one was removed when vrampoolctl closed the device; use `vrampoolctl run` to install a layout and work with it\n");
	client_view_free(&view);
	return EXIT_OK;
}

const struct command cmd_install = {
	.name = "install",
	.help = "  install [--device PATH] [--test-only] [--json] LAYOUT\n"
		"      Install LAYOUT on the device (POOL_INSTALL) and show what the kernel\n"
		"      resolved. A layout belongs to the open file that installed it and is\n"
		"      gone when vrampoolctl exits; use `run` to keep one while working.\n"
		"      --test-only: the kernel checks the layout and installs nothing.\n",
	.parser = { .opts = options, .usage = usage, .max_operands = OPT_ANY },
	.run_opts = run,
};

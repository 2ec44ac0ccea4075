// SPDX-License-Identifier: MIT
/*
 * vrampoolctl validate: resolve a layout offline, with the rules the
 * kernel uses (common/vrampool_layout.c, through libvrampool).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stdio.h>

#include "vrampoolctl.h"

static const char usage[] =
	"usage: vrampoolctl validate [--alignment N] [--max-page-size SIZE] [--exclusive-memory-only] [--json] LAYOUT\n";

static const struct opt options[] = {
	{ "--alignment", NULL, true, OPT_ID_ALIGNMENT },
	{ "--max-page-size", NULL, true, OPT_ID_MAX_PAGE_SIZE },
	{ "--exclusive-memory-only", NULL, false, OPT_ID_EXCLUSIVE },
	OPT_JSON,
	OPT_END,
};

static void json_props(struct json *j, const struct vrampool_props *p)
{
	json_object_begin(j, "props");
	json_u64(j, "alignment", p->alignment);
	json_u64(j, "max_page_size", p->max_page_size);
	json_bool(j, "exclusive_memory_only", p->exclusive_memory_only);
	json_object_end(j);
}

static const char *layout_name(const struct layout_request *req, char *buf, size_t len)
{
	if (req->preset != DRM_VRAMPOOL_PRESET_NONE)
		snprintf(buf, len, "preset %s", vrampool_preset_name(req->preset));
	else
		snprintf(buf, len, "%u pool spec%s", req->count, req->count == 1 ? "" : "s");
	return buf;
}

static int run(const struct opts *o, int argc, char **argv)
{
	static struct drm_vrampool_pool_entry out[VRAMPOOL_LAYOUT_MAX_POOLS];
	static struct layout_request req;
	struct vrampool_error err;
	struct vrampool_props props;
	char why[512], a[32], name[64];
	uint32_t n = 0;
	struct json j;
	int ret;

	if (parse_layout(argc, argv, &req, why, sizeof(why)))
		return usage_error("validate: %s", why);

	props = (struct vrampool_props) {
		.alignment = o->alignment,
		.max_page_size = o->max_page_size,
		.exclusive_memory_only = o->exclusive_memory_only,
	};
	ret = vrampool_layout_validate(&props, req.preset, req.entries, req.count, out, &n, &err);

	if (o->json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_bool(&j, "ok", !ret);
		json_props(&j, &props);
		json_preset(&j, req.preset);
		if (ret) {
			json_object_begin(&j, "error");
			json_error(&j, &err);
			json_object_end(&j);
		} else {
			json_pools(&j, out, n);
		}
		json_object_end(&j);
		json_finish(&j);
	}
	if (ret) {
		print_error(stderr, "vrampoolctl: ", &err, req.entries, req.count);
		return EXIT_FAILED;
	}
	if (!o->json) {
		printf("valid: %s resolves to %u pool%s (alignment %" PRIu64 ", max page size %s%s)\n",
		       layout_name(&req, name, sizeof(name)), n, n == 1 ? "" : "s",
		       props.alignment, format_size(props.max_page_size, a, sizeof(a)),
		       props.exclusive_memory_only ? ", exclusive memory only" : "");
		print_pools(out, n);
	}
	return EXIT_OK;
}

const struct command cmd_validate = {
	.name = "validate",
	.help = "  validate [--alignment N] [--max-page-size SIZE] [--exclusive-memory-only]\n"
		"           [--json] LAYOUT\n"
		"      Resolve LAYOUT offline with the rules the kernel uses; no device needed.\n"
		"      Defaults: alignment 256, max page size 64MiB, sliced pools allowed.\n",
	.parser = { .opts = options, .usage = usage, .max_operands = OPT_ANY },
	.run_opts = run,
};

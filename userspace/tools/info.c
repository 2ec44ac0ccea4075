// SPDX-License-Identifier: MIT
/*
 * vrampoolctl info: the vrampool devices and their properties.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vrampoolctl.h"

static const char usage[] = "usage: vrampoolctl info [--device PATH] [--json]\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_JSON,
	OPT_END,
};

static void print_size_line(const char *label, uint64_t bytes)
{
	char a[32];

	if (bytes >= 1024)
		printf("  %-22s %" PRIu64 " (%s)\n", label, bytes, format_approx(bytes, a, sizeof(a)));
	else
		printf("  %-22s %" PRIu64 "\n", label, bytes);
}

static void print_info(const struct vrampool_device_info *info)
{
	printf("%s (%s, %s)\n", info->path, info->name, vrampool_backend_name(info->backend));
	print_size_line("vram_size", info->vram_size);
	print_size_line("vram_in_use", info->vram_in_use);
	print_size_line("alignment", info->alignment);
	print_size_line("max_page_size", info->max_page_size);
	printf("  %-22s %s\n", "exclusive_memory_only", info->exclusive_memory_only ? "yes" : "no");
	printf("  %-22s %u\n", "max_dynamic_pools", info->max_dynamic_pools);
	printf("  %-22s %u\n", "persistent_pool", info->persistent_pool);
	printf("  %-22s %u\n", "abi_version", info->abi_version);
}

static void json_info(struct json *j, const struct vrampool_device_info *info)
{
	json_object_begin(j, NULL);
	json_string(j, "path", info->path);
	json_string(j, "name", info->name);
	json_string(j, "backend", vrampool_backend_name(info->backend));
	json_u64(j, "vram_size", info->vram_size);
	json_u64(j, "vram_in_use", info->vram_in_use);
	json_u64(j, "alignment", info->alignment);
	json_u64(j, "max_page_size", info->max_page_size);
	json_bool(j, "exclusive_memory_only", info->exclusive_memory_only);
	json_u64(j, "max_dynamic_pools", info->max_dynamic_pools);
	json_u64(j, "persistent_pool", info->persistent_pool);
	json_u64(j, "abi_version", info->abi_version);
	json_object_end(j);
}

static int run(const struct opts *o, int argc, char **argv)
{
	char paths[MAX_DEVICES][VRAMPOOL_NAME_MAX];
	struct vrampool_device_info info[MAX_DEVICES];
	int count, i, n = 0, fd, ret;
	struct json j;

	ret = EXIT_OK;
	/* With no device, an empty list (and exit 3). */
	count = device_paths(o->device, paths, MAX_DEVICES);
	if (count == -EXIT_NODEV) {
		count = 0;
		ret = EXIT_NODEV;
	} else if (count < 0) {
		return -count;
	}
	for (i = 0; i < count; i++) {
		fd = open_device(paths[i], &info[n]);
		if (fd < 0) {
			ret = -fd;
			continue;
		}
		close(fd);
		n++;
	}

	if (o->json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_array_begin(&j, "devices");
		for (i = 0; i < n; i++)
			json_info(&j, &info[i]);
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	} else {
		for (i = 0; i < n; i++)
			print_info(&info[i]);
	}
	return ret;
}

const struct command cmd_info = {
	.name = "info",
	.help = "  info [--device PATH] [--json]\n"
		"      List vrampool devices (or PATH) and their properties.\n",
	.parser = { .opts = options, .usage = usage, .max_operands = 0 },
	.run_opts = run,
};

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: inspect and drive vrampool devices.
 *
 * Exit codes: 0 success; 1 the operation failed (the message says why);
 * 2 bad usage; 3 no vrampool device found.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vrampool.h"

#define EXIT_FAILED	1
#define EXIT_USAGE	2
#define EXIT_NODEV	3

#define MAX_DEVICES	64

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vrampoolctl <command> [options]\n"
		"\n"
		"commands:\n"
		"  info     list vrampool devices and their properties\n"
		"  help     show this text\n");
}

static void print_size(const char *label, uint64_t bytes)
{
	if (bytes >= (1ULL << 20) && !(bytes & ((1ULL << 20) - 1)))
		printf("  %-22s %" PRIu64 " (%" PRIu64 " MiB)\n", label, bytes, bytes >> 20);
	else
		printf("  %-22s %" PRIu64 "\n", label, bytes);
}

static int print_device(const char *path)
{
	struct vrampool_device_info info;
	int fd, ret;

	fd = vrampool_open(path);
	if (fd < 0) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path, strerror(-fd));
		return EXIT_FAILED;
	}
	ret = vrampool_device_info(fd, path, &info);
	close(fd);
	if (ret) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path, strerror(-ret));
		return EXIT_FAILED;
	}

	printf("%s (%s, %s)\n", info.path, info.name, vrampool_backend_name(info.backend));
	print_size("vram_size", info.vram_size);
	print_size("vram_in_use", info.vram_in_use);
	print_size("alignment", info.alignment);
	print_size("max_page_size", info.max_page_size);
	printf("  %-22s %s\n", "exclusive_memory_only", info.exclusive_memory_only ? "yes" : "no");
	printf("  %-22s %u\n", "max_dynamic_pools", info.max_dynamic_pools);
	printf("  %-22s %u\n", "persistent_pool", info.persistent_pool);
	printf("  %-22s %u\n", "abi_version", info.abi_version);
	return 0;
}

static int cmd_info(void)
{
	char paths[MAX_DEVICES][VRAMPOOL_NAME_MAX];
	int count, i, ret = 0;

	count = vrampool_list_devices(paths, MAX_DEVICES);
	if (count < 0) {
		fprintf(stderr, "vrampoolctl: cannot list devices: %s\n", strerror(-count));
		return EXIT_FAILED;
	}
	if (!count) {
		fprintf(stderr, "vrampoolctl: no vrampool device found\n");
		return EXIT_NODEV;
	}
	for (i = 0; i < count && i < MAX_DEVICES; i++) {
		if (print_device(paths[i]))
			ret = EXIT_FAILED;
	}
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "info"))
		return cmd_info();
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "vrampoolctl: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

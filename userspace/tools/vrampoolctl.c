// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: inspect and drive vrampool devices.
 *
 *   info      devices and their properties
 *   validate  resolve a layout offline, with the kernel's own rules
 *   install   send a layout to the kernel (or only test it there)
 *   run       a script of installs, allocations, frees, ... in one client
 *   trace     write a model-shaped allocation trace (trace.c)
 *   replay    replay a trace in one client, with its peak figures (replay.c)
 *   plan      a layout for a trace, replayed beside the presets (plan.c)
 *   record    a client's allocations, from the tracepoints, as a trace (record.c)
 *   stat      the calling client's pools, with their statistics; --all:
 *             every client's, from sysfs
 *   map       the calling client's pool occupancy, as bars
 *   watch     repeat info, stat or map
 *   top       every client of a device, from sysfs, refreshed (top.c)
 *
 * `vrampoolctl help` and the manual page vrampoolctl(1) say more.
 *
 * A layout belongs to an open file (a client) and dies with it: `install`
 * shows what the kernel resolved and installed, and the layout is gone when
 * the tool exits. `run` keeps one open file for a whole script.
 *
 * Errors print the documented message of their kind (vrampool_error_message())
 * after the kind's name: "vrampoolctl: SliceLargerThanPage: `max_slice_size` ...".
 *
 * Exit codes:
 *   0  success
 *   1  the operation failed: a documented error (message printed), or a
 *      system call failed
 *   2  usage error: unknown command or option, bad size, pool spec, or script
 *   3  no vrampool device: none found, or --device PATH is not one
 *   4  run: an expectation failed (`check` found another byte, or the
 *      command after `expect-error` did not fail with that kind)
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_names.h"
#include "vrampoolctl.h"

#define MAX_DEVICES		64
#define DEFAULT_ALIGNMENT	256
#define DEFAULT_MAX_PAGE_SIZE	(64ULL << 20)

static const char usage_head[] =
"usage: vrampoolctl COMMAND [OPTIONS] [ARGS]\n"
"\n"
"Commands:\n"
"  info [--device PATH] [--json]\n"
"      List vrampool devices (or PATH) and their properties.\n"
"  validate [--alignment N] [--max-page-size SIZE] [--exclusive-memory-only]\n"
"           [--json] LAYOUT\n"
"      Resolve LAYOUT offline with the rules the kernel uses; no device needed.\n"
"      Defaults: alignment 256, max page size 64MiB, sliced pools allowed.\n"
"  install [--device PATH] [--test-only] [--json] LAYOUT\n"
"      Install LAYOUT on the device (POOL_INSTALL) and show what the kernel\n"
"      resolved. A layout belongs to the open file that installed it and is\n"
"      gone when vrampoolctl exits; use `run` to keep one while working.\n"
"      --test-only: the kernel checks the layout and installs nothing.\n"
"  run [--device PATH] SCRIPT|-\n"
"      Run a script (see below) in one process and one open file (a client).\n"
"  trace gpt2-small|llama-7b [--vram SIZE] [--steps N] [--seed S] [-o FILE]\n"
"      Write the allocation trace (see below) of N training steps (default 3)\n"
"      of the model, scaled so that its peak live bytes fit in half of SIZE\n"
"      (default 256MiB). No device needed; the same arguments give the same\n"
"      trace. --seed 0: every step at the whole context.\n"
"  replay [--device PATH] [--json] TRACE|- [LAYOUT]\n"
"      Replay a trace through ALLOC and FREE in one client, with LAYOUT\n"
"      (default: a new client's default layout), and print its peak live\n"
"      and peak reserved bytes, their ratio and ops/s.\n"
"  plan [--device PATH] [--json] TRACE|-\n"
"      Propose a layout for the trace (pool pages, slice sizes and caps from\n"
"      its sizes and live set), replay the trace with it, with the other\n"
"      candidates and with the presets (a fresh client each), show their\n"
"      figures side by side, and print the chosen layout as an install line.\n"
"  record [--pid P] [--client ID] [--duration SECS] FILE|-\n"
"      Record allocations and frees from the vrampool tracepoints (tracefs,\n"
"      as root) as a trace that replay reads: of process P's threads, of\n"
"      client ID (drm-client-id), or of every client; until P exits,\n"
"      SIGINT or SIGTERM, or SECS seconds.\n"
"  stat [--device PATH] [--all] [--json]\n"
"      The pools of this client (a fresh open file: the device's default\n"
"      layout), with their statistics. --all: every client of every device\n"
"      (or of PATH), with its pid and command, from sysfs.\n"
"  map [--device PATH]\n"
"      The occupancy of this client's pools, one bar per pool.\n"
"  watch [--interval SECS] [--count N] [info|stat|map [OPTIONS]]\n"
"      Repeat a command (default: info) every SECS seconds (default 2), N\n"
"      times (default 0: until interrupted).\n"
"  top [--device PATH] [--interval SECS] [--iterations N] | [--json]\n"
"      Every client of every device (or of PATH), from sysfs, the largest\n"
"      VRAM holder first: VRAM held, live bytes, free cached bytes (which\n"
"      reclaim may take), bytes reclaimed from it; the device's VRAM, quota\n"
"      and reclaimed total. Refreshed every SECS seconds (default 2), N times\n"
"      (default 0: until interrupted). --json: one snapshot.\n"
"  help\n"
"      This text.\n"
"Without --device, commands use the first vrampool device.\n"
"\n"
"LAYOUT is a preset alone, or one or more pool specs, in allocation order:\n"
"  sub-slices | exclusive-pages\n"
"  sliced:page=SIZE[,slice=SIZE][,cap=SIZE][,dealloc=N]\n"
"  exclusive:max=SIZE[,dealloc=N]\n"
"  direct[:reclaim=SIZE]\n"
"SIZE is a number of bytes, with an optional unit: B, KiB, MiB, GiB, TiB\n"
"(1024-based) or KB, MB, GB, TB (1000-based): 4096, 64MiB, 1.5GiB. At most\n"
"2^64 - 1 bytes. N is a plain number.\n"
"\n"
"Script commands (run), one per line; '#' starts a comment:\n"
"  install [--test-only] LAYOUT   replace the client's layout\n"
"  alloc NAME SIZE [persistent]   allocate SIZE bytes, named NAME\n"
"  free NAME                      free it (again, after expect-error: NotFound)\n"
"  alloc-batch NAME=SIZE[:persistent]...   allocate them all in one call, or\n"
"                                 none (ALLOC_BATCH)\n"
"  free-batch NAME...             free them all in one call, or none\n"
"  cleanup                        give the client's free pages back\n"
"  mode enabled|size-match|disabled|enforced   the persistent mode\n"
"  write NAME BYTE                fill NAME with BYTE through a CPU mapping\n"
"  check NAME BYTE                check that every byte of NAME is BYTE\n"
"  stat [--all] [--json] | map    as the commands, for the script's client\n"
"  expect-error KIND              the next command must fail with KIND\n"
"  sleep SECS\n"
"  wait FILE                      read FILE to its end (a FIFO: until written)\n"
"The script is read whole and checked before it runs; it stops at the\n"
"first command that fails.\n"
"\n"
"Traces (trace, replay, plan, record), one operation per line; '#' starts a comment:\n"
"  alloc ID SIZE [persistent]     allocate SIZE bytes as ID\n"
"  free ID                        free it (ID may then be allocated again)\n"
"A trace is read whole and checked before it is replayed.\n"
"\n"
	;

/* The error kinds, as vrampool_names.h lists them, then Os. */
#define VRAMPOOL_NAMES_ERROR(kind, name) " " name
static const char kinds_text[] = "Error kinds:" VRAMPOOL_NAMES_ERRORS
	" Os (an errno with no documented kind)";

static const char usage_tail[] =
"\n"
"Exit status:\n"
"  0  success\n"
"  1  the operation failed: a documented error or a system error; the\n"
"     message says which\n"
"  2  usage error: command, option, size, pool spec or script\n"
"  3  no vrampool device: none found, or PATH is not one\n"
"  4  run: a `check` or `expect-error` expectation was not met\n";

/* Help text lines are at most this wide. */
#define USAGE_WIDTH	76

/* @text, its words wrapped at USAGE_WIDTH, each line after the first indented. */
static void print_wrapped(FILE *out, const char *text)
{
	const char *w = text, *end;
	int col = 0, n;

	while (*w) {
		end = strchr(w, ' ');
		n = end ? (int)(end - w) : (int)strlen(w);
		if (col && col + 1 + n > USAGE_WIDTH) {
			fputs("\n  ", out);
			col = 2;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", n, w);
		col += n;
		w += n;
		while (*w == ' ')
			w++;
	}
	fputc('\n', out);
}

static void print_usage(FILE *out)
{
	fputs(usage_head, out);
	print_wrapped(out, kinds_text);
	fputs(usage_tail, out);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("vrampoolctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(see `vrampoolctl help`)\n", stderr);
	return EXIT_USAGE;
}

/* ---- Errors ------------------------------------------------------------- */

int error_kind_of(const char *name)
{
	int k;

	for (k = VRAMPOOL_ERR_EMPTY_POOL_LIST; k <= VRAMPOOL_ERR_DUPLICATE_HANDLE; k++) {
		if (!strcmp(name, vrampool_error_kind_name(k)))
			return k;
	}
	return -1;
}

void print_error(FILE *out, const char *prefix, const struct vrampool_error *err,
		 const struct drm_vrampool_pool_entry *entries, uint32_t count)
{
	char msg[MSG_MAX], spec[160];

	vrampool_error_message(err, msg, sizeof(msg));
	fprintf(out, "%s%s: %s\n", prefix, vrampool_error_kind_name(err->kind), msg);
	if (entries && err->kind != VRAMPOOL_ERR_OS && err->entry < count)
		fprintf(out, "%s  at pool %u: %s\n", prefix, err->entry,
			format_spec(&entries[err->entry], spec, sizeof(spec)));
}

/* One value of an error; a preset or a client limit by name when it has one. */
static void json_value(struct json *j, const char *key, uint64_t v)
{
	const char *name = NULL;

	if (!strcmp(key, "preset"))
		name = vrampool_preset_name((uint32_t)v);
	else if (!strcmp(key, "limit"))
		name = vrampool_limit_name((uint32_t)v);
	if (name)
		json_string(j, key, name);
	else
		json_u64(j, key, v);
}

/* The values the error's kind carries, named as vrampool_names.h lists them. */
#define VRAMPOOL_NAMES_VALUE(k, member, key, from)	\
	if (e->kind == VRAMPOOL_ERR_##k)		\
		json_value(j, key, e->member);

void json_error(struct json *j, const struct vrampool_error *e)
{
	char msg[MSG_MAX];

	vrampool_error_message(e, msg, sizeof(msg));
	json_string(j, "kind", vrampool_error_kind_name(e->kind));
	json_string(j, "message", msg);
	json_u64(j, "errno", (uint64_t)e->os_errno);
	if (e->kind != VRAMPOOL_ERR_OS && e->entry != DRM_VRAMPOOL_NO_ENTRY)
		json_u64(j, "entry", e->entry);
	else
		json_null(j, "entry");
	if (e->field)
		json_string(j, "field", vrampool_field_name(e->field));
	else
		json_null(j, "field");

	VRAMPOOL_NAMES_VALUES
}

/* ---- Devices ------------------------------------------------------------ */

/* The fd is a DRM node of the vrampool driver (DRM_IOCTL_VERSION works on any). */
static bool is_vrampool(int fd)
{
	char name[32] = "";
	struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };

	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return false;
	name[sizeof(name) - 1] = '\0';
	return v.name_len == strlen("vrampool") && !strcmp(name, "vrampool");
}

int open_device(const char *path, struct vrampool_device_info *info)
{
	char paths[MAX_DEVICES][VRAMPOOL_NAME_MAX];
	int fd, ret, count;

	if (!path) {
		count = vrampool_list_devices(paths, MAX_DEVICES);
		if (count < 0) {
			fprintf(stderr, "vrampoolctl: cannot list devices: %s\n", strerror(-count));
			return -EXIT_FAILED;
		}
		if (!count) {
			fprintf(stderr, "vrampoolctl: no vrampool device found\n");
			return -EXIT_NODEV;
		}
		path = paths[0];
	}

	fd = vrampool_open(path);
	if (fd < 0) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path, strerror(-fd));
		return fd == -ENOENT || fd == -ENXIO || fd == -ENODEV ? -EXIT_NODEV : -EXIT_FAILED;
	}
	if (!is_vrampool(fd)) {
		fprintf(stderr, "vrampoolctl: %s: not a vrampool device\n", path);
		close(fd);
		return -EXIT_NODEV;
	}
	ret = vrampool_device_info(fd, path, info);
	if (ret) {
		fprintf(stderr, "vrampoolctl: %s: %s\n", path, strerror(-ret));
		close(fd);
		return -EXIT_FAILED;
	}
	return fd;
}

/* ---- Option parsing ----------------------------------------------------- */

enum {
	OPT_DEVICE = 1000, OPT_JSON, OPT_TEST_ONLY, OPT_ALIGNMENT, OPT_MAX_PAGE_SIZE,
	OPT_EXCLUSIVE, OPT_INTERVAL, OPT_COUNT, OPT_HELP, OPT_ALL, OPT_ITERATIONS,
};

struct opts {
	const char *device;
	bool json;
	bool test_only;
	bool exclusive_memory_only;
	uint64_t alignment;
	uint64_t max_page_size;
	struct timespec interval;
	uint64_t count;
	bool help;
	bool all;
	bool timing;		/* --interval or --iterations given */
};

/*
 * Parse the options of command argv[0] that @allowed lists; the operands
 * start at *first. @stop_at_operand: options end at the first operand
 * (watch passes the rest on).
 */
static int parse_opts(int argc, char **argv, const struct option *allowed, bool stop_at_operand,
		      struct opts *o, int *first)
{
	char why[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->alignment = DEFAULT_ALIGNMENT;
	o->max_page_size = DEFAULT_MAX_PAGE_SIZE;
	o->interval.tv_sec = 2;

	opterr = 0;
	optind = 0;	/* GNU getopt: start afresh */
	while ((c = getopt_long(argc, argv, stop_at_operand ? "+:h" : ":h", allowed, NULL)) != -1) {
		switch (c) {
		case OPT_DEVICE:
			o->device = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_TEST_ONLY:
			o->test_only = true;
			break;
		case OPT_EXCLUSIVE:
			o->exclusive_memory_only = true;
			break;
		case OPT_ALIGNMENT:
			if (parse_size(optarg, &o->alignment, why, sizeof(why)))
				return usage_error("%s: --alignment: %s", argv[0], why);
			if (!o->alignment || (o->alignment & (o->alignment - 1)))
				return usage_error("%s: --alignment: %s is not a power of two",
						   argv[0], optarg);
			break;
		case OPT_MAX_PAGE_SIZE:
			if (parse_size(optarg, &o->max_page_size, why, sizeof(why)))
				return usage_error("%s: --max-page-size: %s", argv[0], why);
			break;
		case OPT_INTERVAL:
			if (parse_seconds(optarg, &o->interval, why, sizeof(why)))
				return usage_error("%s: --interval: %s", argv[0], why);
			o->timing = true;
			break;
		case OPT_ITERATIONS:
			if (parse_count(optarg, &o->count, why, sizeof(why)))
				return usage_error("%s: --iterations: %s", argv[0], why);
			o->timing = true;
			break;
		case OPT_COUNT:
			if (parse_count(optarg, &o->count, why, sizeof(why)))
				return usage_error("%s: --count: %s", argv[0], why);
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case 'h':
		case OPT_HELP:
			o->help = true;
			break;
		case ':':
			return usage_error("%s: %s needs a value", argv[0], argv[optind - 1]);
		default:
			return usage_error("%s: unknown option '%s'", argv[0], argv[optind - 1]);
		}
	}
	*first = optind;
	return 0;
}

#define O_DEVICE	{ "device", required_argument, NULL, OPT_DEVICE }
#define O_JSON		{ "json", no_argument, NULL, OPT_JSON }
#define O_HELP		{ "help", no_argument, NULL, OPT_HELP }
#define O_END		{ NULL, 0, NULL, 0 }

/* ---- info --------------------------------------------------------------- */

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

static int cmd_info(int argc, char **argv)
{
	static const struct option allowed[] = { O_DEVICE, O_JSON, O_HELP, O_END };
	char paths[MAX_DEVICES][VRAMPOOL_NAME_MAX];
	struct vrampool_device_info info[MAX_DEVICES];
	int count, i, n = 0, fd, ret = EXIT_OK, first;
	struct opts o;
	struct json j;

	ret = parse_opts(argc, argv, allowed, false, &o, &first);
	if (ret)
		return ret;
	if (o.help) {
		printf("usage: vrampoolctl info [--device PATH] [--json]\n");
		return EXIT_OK;
	}
	if (first < argc)
		return usage_error("info: unexpected argument '%s'", argv[first]);

	if (o.device) {
		count = 1;
		snprintf(paths[0], sizeof(paths[0]), "%s", o.device);
	} else {
		count = vrampool_list_devices(paths, MAX_DEVICES);
		if (count < 0) {
			fprintf(stderr, "vrampoolctl: cannot list devices: %s\n", strerror(-count));
			return EXIT_FAILED;
		}
		if (count > MAX_DEVICES)
			count = MAX_DEVICES;
		if (!count) {
			fprintf(stderr, "vrampoolctl: no vrampool device found\n");
			ret = EXIT_NODEV;
		}
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

	if (o.json) {
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

/* ---- validate and install ----------------------------------------------- */

static void print_pools(const struct drm_vrampool_pool_entry *pools, uint32_t count)
{
	char spec[160];
	uint32_t i;

	for (i = 0; i < count; i++)
		printf("  %3u  %s\n", i, format_spec(&pools[i], spec, sizeof(spec)));
}

static void json_pools(struct json *j, const struct drm_vrampool_pool_entry *pools,
		       uint32_t count)
{
	uint32_t i;

	json_array_begin(j, "pools");
	for (i = 0; i < count; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "index", i);
		json_pool_config(j, &pools[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_props(struct json *j, const struct vrampool_props *p)
{
	json_object_begin(j, "props");
	json_u64(j, "alignment", p->alignment);
	json_u64(j, "max_page_size", p->max_page_size);
	json_bool(j, "exclusive_memory_only", p->exclusive_memory_only);
	json_object_end(j);
}

static void json_preset(struct json *j, uint32_t preset)
{
	if (preset == DRM_VRAMPOOL_PRESET_NONE)
		json_null(j, "preset");
	else
		json_string(j, "preset", vrampool_preset_name(preset));
}

static const char *layout_name(const struct layout_request *req, char *buf, size_t len)
{
	if (req->preset != DRM_VRAMPOOL_PRESET_NONE)
		snprintf(buf, len, "preset %s", vrampool_preset_name(req->preset));
	else
		snprintf(buf, len, "%u pool spec%s", req->count, req->count == 1 ? "" : "s");
	return buf;
}

static int cmd_validate(int argc, char **argv)
{
	static const struct option allowed[] = {
		{ "alignment", required_argument, NULL, OPT_ALIGNMENT },
		{ "max-page-size", required_argument, NULL, OPT_MAX_PAGE_SIZE },
		{ "exclusive-memory-only", no_argument, NULL, OPT_EXCLUSIVE },
		O_JSON, O_HELP, O_END,
	};
	static struct drm_vrampool_pool_entry out[VRAMPOOL_LAYOUT_MAX_POOLS];
	static struct layout_request req;
	struct vrampool_error err;
	struct vrampool_props props;
	char why[512], a[32], name[64];
	uint32_t n = 0;
	struct opts o;
	struct json j;
	int first, ret;

	ret = parse_opts(argc, argv, allowed, false, &o, &first);
	if (ret)
		return ret;
	if (o.help) {
		printf("usage: vrampoolctl validate [--alignment N] [--max-page-size SIZE] [--exclusive-memory-only] [--json] LAYOUT\n");
		return EXIT_OK;
	}
	if (parse_layout(argc - first, argv + first, &req, why, sizeof(why)))
		return usage_error("validate: %s", why);

	props = (struct vrampool_props) {
		.alignment = o.alignment,
		.max_page_size = o.max_page_size,
		.exclusive_memory_only = o.exclusive_memory_only,
	};
	ret = vrampool_layout_validate(&props, req.preset, req.entries, req.count, out, &n, &err);

	if (o.json) {
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
	if (!o.json) {
		printf("valid: %s resolves to %u pool%s (alignment %" PRIu64 ", max page size %s%s)\n",
		       layout_name(&req, name, sizeof(name)), n, n == 1 ? "" : "s",
		       props.alignment, format_size(props.max_page_size, a, sizeof(a)),
		       props.exclusive_memory_only ? ", exclusive memory only" : "");
		print_pools(out, n);
	}
	return EXIT_OK;
}

static int cmd_install(int argc, char **argv)
{
	static const struct option allowed[] = {
		O_DEVICE, O_JSON, O_HELP,
		{ "test-only", no_argument, NULL, OPT_TEST_ONLY },
		O_END,
	};
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
	int first, ret, fd;
	struct opts o;
	struct json j;

	ret = parse_opts(argc, argv, allowed, false, &o, &first);
	if (ret)
		return ret;
	if (o.help) {
		printf("usage: vrampoolctl install [--device PATH] [--test-only] [--json] LAYOUT\n");
		return EXIT_OK;
	}
	if (parse_layout(argc - first, argv + first, &req, why, sizeof(why)))
		return usage_error("install: %s", why);

	fd = open_device(o.device, &info);
	if (fd < 0)
		return -fd;

	ret = vrampool_pool_install(fd, o.test_only ? DRM_VRAMPOOL_INSTALL_TEST_ONLY : 0,
				    req.preset, layout_entries(&req), req.count, &res, &err);
	if (ret) {
		if (o.json) {
			json_init(&j, stdout);
			json_object_begin(&j, NULL);
			json_bool(&j, "ok", false);
			json_string(&j, "device", info.path);
			json_bool(&j, "test_only", o.test_only);
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

	if (o.test_only) {
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

	if (o.json) {
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_bool(&j, "ok", true);
		json_string(&j, "device", info.path);
		json_bool(&j, "test_only", o.test_only);
		json_preset(&j, req.preset);
		if (o.test_only)
			json_null(&j, "generation");
		else
			json_u64(&j, "generation", res.generation);
		json_u64(&j, "num_pools", res.num_pools);
		json_pools(&j, pools, n);
		json_object_end(&j);
		json_finish(&j);
	} else if (o.test_only) {
		printf("%s: the kernel accepts the layout (test only: nothing installed), %u pool%s\n",
		       info.path, res.num_pools, res.num_pools == 1 ? "" : "s");
		print_pools(pools, n);
	} else {
		printf("%s: installed layout generation %" PRIu64 ", %u pool%s\n", info.path,
		       res.generation, res.num_pools, res.num_pools == 1 ? "" : "s");
		print_pools(pools, n);
	}
	if (!o.test_only)
		fprintf(stderr, "vrampoolctl: note: a layout belongs to the open file that installed it: this one was removed when vrampoolctl closed the device; use `vrampoolctl run` to install a layout and work with it\n");
	client_view_free(&view);
	return EXIT_OK;
}

/* ---- stat and map ------------------------------------------------------- */

static int cmd_stat_or_map(int argc, char **argv)
{
	static const struct option stat_opts[] = {
		O_DEVICE, O_JSON, O_HELP, { "all", no_argument, NULL, OPT_ALL }, O_END,
	};
	static const struct option map_opts[] = { O_DEVICE, O_HELP, O_END };
	bool is_map = !strcmp(argv[0], "map");
	struct vrampool_device_info info;
	struct client_view view;
	int first, ret, fd;
	struct opts o;
	struct json j;

	ret = parse_opts(argc, argv, is_map ? map_opts : stat_opts, false, &o, &first);
	if (ret)
		return ret;
	if (o.help) {
		printf(is_map ? "usage: vrampoolctl map [--device PATH]\n" :
				"usage: vrampoolctl stat [--device PATH] [--all] [--json]\n");
		return EXIT_OK;
	}
	if (first < argc)
		return usage_error("%s: unexpected argument '%s'", argv[0], argv[first]);
	if (o.all)
		return stat_all(o.device, o.json);

	fd = open_device(o.device, &info);
	if (fd < 0)
		return -fd;
	ret = client_view_read(fd, &view);
	close(fd);
	if (ret)
		return EXIT_FAILED;

	if (is_map) {
		print_map(stdout, &info, &view);
	} else if (o.json) {
		json_init(&j, stdout);
		json_stat(&j, &info, &view);
	} else {
		print_stat(stdout, &info, &view);
	}
	client_view_free(&view);
	return EXIT_OK;
}

/* ---- watch -------------------------------------------------------------- */

static int cmd_watch(int argc, char **argv)
{
	static const struct option allowed[] = {
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "count", required_argument, NULL, OPT_COUNT },
		O_HELP, O_END,
	};
	static char *info_argv[] = { "info", NULL };
	int (*cmd)(int, char **) = cmd_info;
	char **sub = info_argv;
	int first, ret, nsub = 1, i;
	bool json = false;
	uint64_t k;
	struct opts o;

	ret = parse_opts(argc, argv, allowed, true, &o, &first);
	if (ret)
		return ret;
	if (o.help) {
		printf("usage: vrampoolctl watch [--interval SECS] [--count N] [info|stat|map [OPTIONS]]\n");
		return EXIT_OK;
	}
	if (first < argc) {
		if (!strcmp(argv[first], "info"))
			cmd = cmd_info;
		else if (!strcmp(argv[first], "stat") || !strcmp(argv[first], "map"))
			cmd = cmd_stat_or_map;
		else
			return usage_error("watch: can repeat info, stat or map, not '%s'", argv[first]);
		sub = argv + first;
		nsub = argc - first;
		for (i = 1; i < nsub; i++)
			json |= !strcmp(sub[i], "--json");
	}

	for (k = 1; !o.count || k <= o.count; k++) {
		/* JSON Lines stay pure JSON: no header between documents. */
		if (!json) {
			if (o.count)
				printf("--- %s %" PRIu64 " of %" PRIu64 " ---\n", sub[0], k, o.count);
			else
				printf("--- %s %" PRIu64 " ---\n", sub[0], k);
		}
		ret = cmd(nsub, sub);
		fflush(stdout);
		if (ret)
			return ret;
		if (o.count && k == o.count)
			break;
		nanosleep(&o.interval, NULL);
	}
	return EXIT_OK;
}

/* ---- top ---------------------------------------------------------------- */

static int cmd_top(int argc, char **argv)
{
	static const struct option allowed[] = {
		O_DEVICE, O_JSON, O_HELP,
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "iterations", required_argument, NULL, OPT_ITERATIONS },
		O_END,
	};
	struct opts o;
	int first, ret;

	ret = parse_opts(argc, argv, allowed, false, &o, &first);
	if (ret)
		return ret;
	if (o.help) {
		printf("usage: vrampoolctl top [--device PATH] [--interval SECS] [--iterations N] | [--json]\n");
		return EXIT_OK;
	}
	if (first < argc)
		return usage_error("%s: unexpected argument '%s'", argv[0], argv[first]);
	if (o.json && o.timing)
		return usage_error("%s: --json prints one snapshot: no --interval or --iterations",
				   argv[0]);
	return top_run(o.device, &o.interval, o.count, o.json);
}

/* ---- main --------------------------------------------------------------- */

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "info", cmd_info },
		{ "validate", cmd_validate },
		{ "install", cmd_install },
		{ "run", cmd_run },
		{ "trace", cmd_trace },
		{ "replay", cmd_replay },
		{ "plan", cmd_plan },
		{ "record", cmd_record },
		{ "stat", cmd_stat_or_map },
		{ "map", cmd_stat_or_map },
		{ "watch", cmd_watch },
		{ "top", cmd_top },
	};
	size_t i;

	/* Results and errors stay in order when both go to one pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_usage(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	}
	return usage_error("unknown command '%s'", argv[1]);
}

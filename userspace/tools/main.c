// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: inspect and drive vrampool devices; this file dispatches
 * each command, through one table, to the file of its own.
 *
 *   info      devices and their properties (info.c)
 *   validate  resolve a layout offline, with the kernel's own rules (validate.c)
 *   install   send a layout to the kernel, or only test it there (install.c)
 *   run       a script of installs, allocations, frees, ... in one client
 *             (run.c; script.c reads the script)
 *   trace     write a model-shaped allocation trace (trace.c; the models: gen/)
 *   replay    replay a trace in one client, with its peak figures (replay.c)
 *   plan      a layout for a trace, replayed beside the presets (plan.c)
 *   record    a client's allocations, from the tracepoints, as a trace (record.c)
 *   stat      the calling client's pools, with their statistics; --all:
 *             every client's, from sysfs (stat.c)
 *   map       the calling client's pool occupancy, as bars (map.c)
 *   watch     repeat info, stat or map (watch.c)
 *   top       every client of a device, from sysfs, refreshed (top.c)
 *   help      this text (here)
 *
 * Each command's file holds its options, its usage line and its entry in
 * `vrampoolctl help`, in a struct command; options.c parses every
 * command's options; common.c has the errors and devices all share.
 *
 * `vrampoolctl help` and the manual page vrampoolctl(1) say more.
 *
 * A layout belongs to an open file (a client) and dies with it: `install`
 * shows what the kernel resolved and installed, and the layout is gone when
 * the tool exits. `run` keeps one open file for a whole script.
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

#include <stdio.h>
#include <string.h>

#include "vrampool_names.h"
#include "vrampoolctl.h"

/* Every command, in the order `vrampoolctl help` lists them. */
static const struct command *const commands[] = {
	&cmd_info, &cmd_validate, &cmd_install, &cmd_run, &cmd_trace, &cmd_replay,
	&cmd_plan, &cmd_record, &cmd_stat, &cmd_map, &cmd_watch, &cmd_top,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < N_COMMANDS; i++) {
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	}
	return NULL;
}

int command_run(const struct command *cmd, int argc, char **argv)
{
	struct opts o;
	int first, ret;

	if (!cmd->parser.opts)
		return cmd->run(argc, argv);
	ret = opt_parse(argc, argv, &cmd->parser, &o, &first);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	return cmd->run_opts(&o, argc - first, argv + first);
}

/* ---- help ---------------------------------------------------------------- */

static const char help_head[] =
	"usage: vrampoolctl COMMAND [OPTIONS] [ARGS]\n"
	"\n"
	"Commands:\n";

static const char help_rest[] =
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
	"\n";

/* The error kinds, as vrampool_names.h lists them, then Os. */
#define VRAMPOOL_NAMES_ERROR(kind, name) " " name
static const char kinds_text[] = "Error kinds:" VRAMPOOL_NAMES_ERRORS
	" Os (an errno with no documented kind)";

static const char help_tail[] =
	"\n"
	"Exit status:\n"
	"  0  success\n"
	"  1  the operation failed: a documented error or a system error; the\n"
	"     message says which\n"
	"  2  usage error: command, option, size, pool spec or script\n"
	"  3  no vrampool device: none found, or PATH is not one\n"
	"  4  run: a `check` or `expect-error` expectation was not met\n";

/* Help text lines are at most this wide. */
#define HELP_WIDTH	76

/* @text, its words wrapped at HELP_WIDTH, each line after the first indented. */
static void print_wrapped(FILE *out, const char *text)
{
	const char *w = text;
	int col = 0, n;

	while (*w) {
		n = (int)strcspn(w, " ");
		if (col && col + 1 + n > HELP_WIDTH) {
			fputs("\n  ", out);
			col = 2;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", n, w);
		col += n;
		w += n;
		w += strspn(w, " ");
	}
	fputc('\n', out);
}

/* `vrampoolctl help`: each command's entry, then each one's notes. */
static void print_help(FILE *out)
{
	size_t i;

	fputs(help_head, out);
	for (i = 0; i < N_COMMANDS; i++)
		fputs(commands[i]->help, out);
	fputs(help_rest, out);
	for (i = 0; i < N_COMMANDS; i++) {
		if (commands[i]->notes)
			fputs(commands[i]->notes, out);
	}
	print_wrapped(out, kinds_text);
	fputs(help_tail, out);
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	/* Results and errors stay in order when both go to one pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_help(stdout);
		return EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error("unknown command '%s'", argv[1]);
	return command_run(cmd, argc - 1, argv + 1);
}

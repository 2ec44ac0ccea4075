// SPDX-License-Identifier: MIT
/*
 * vrampoolctl run: a script executed by one process in one open file.
 *
 * Handles, layouts and the persistent mode belong to an open file (a
 * client), so a sequence of them only makes sense inside one process:
 * this is that process. The script is read whole and checked first (a
 * mistake is a usage error, exit 2, and nothing runs); then each command
 * runs in turn and prints its result on stdout. The first command that
 * fails stops the script: its documented error goes to stderr (exit 1).
 * `expect-error KIND` turns the next command's failure with KIND into a
 * result; any other outcome, like a `check` that finds another byte,
 * stops the script with exit 4.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "script.h"

/* ---- Running ------------------------------------------------------------ */

struct run_ctx {
	bool expecting;		/* an expect-error waits for this command */
	int fd;
	struct vrampool_device_info info;
	struct script *s;
};

/*
 * The outcome of one command: 0 and a printed result, or an error in
 * @err (a documented kind or Os), or a script mistake found at run time
 * (EXIT_USAGE, EXIT_EXPECT: reported already).
 */
enum outcome { DONE, FAILED, STOP_USAGE, STOP_FAILED, STOP_EXPECT };

static enum outcome run_install(struct run_ctx *c, struct step *st, struct vrampool_error *err)
{
	struct vrampool_install_result res;
	struct client_view view;
	char spec[160];
	uint32_t i;

	if (vrampool_pool_install(c->fd, st->test_only ? DRM_VRAMPOOL_INSTALL_TEST_ONLY : 0,
				  st->layout->preset, layout_entries(st->layout), st->layout->count, &res,
				  err))
		return FAILED;
	if (st->test_only) {
		printf("%s: accepted (test only: nothing installed), %u pool%s\n", st->text,
		       res.num_pools, res.num_pools == 1 ? "" : "s");
		return DONE;
	}
	printf("%s: installed layout generation %" PRIu64 ", %u pool%s\n", st->text,
	       res.generation, res.num_pools, res.num_pools == 1 ? "" : "s");
	if (client_view_read(c->fd, &view))
		return STOP_FAILED;
	for (i = 0; i + 1 < view.count; i++)
		printf("  %3u  %s\n", i, format_spec(&view.pools[i].config, spec, sizeof(spec)));
	client_view_free(&view);
	return DONE;
}

/* The line alloc and alloc-batch print for an allocation, after their prefix. */
static void print_placed(const struct vrampool_allocation *a)
{
	char page[24];

	if (a->page == DRM_VRAMPOOL_NO_PAGE)
		snprintf(page, sizeof(page), "none");
	else
		snprintf(page, sizeof(page), "%u", a->page);
	printf("handle %u, pool %u, page %s, offset %" PRIu64 ", size %" PRIu64
	       ", padding %" PRIu64 "\n", a->handle, a->pool, page, a->offset, a->size, a->padding);
}

static enum outcome run_alloc(struct run_ctx *c, struct step *st, struct vrampool_error *err)
{
	struct name *nm = &c->s->names[st->name];
	struct vrampool_allocation a;

	if (nm->live) {
		script_error(st->line, "'%s' is still allocated: free it first", nm->name);
		return STOP_USAGE;
	}
	if (vrampool_alloc(c->fd, st->size,
			   st->persistent ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a, err))
		return FAILED;
	nm->a = a;
	nm->live = nm->ever = true;
	printf("%s: ", st->text);
	print_placed(&a);
	return DONE;
}

static enum outcome run_alloc_batch(struct run_ctx *c, struct step *st,
				    struct vrampool_error *err)
{
	struct vrampool_allocation *out;
	struct name *nm;
	uint32_t i;

	for (i = 0; i < st->nitems; i++) {
		nm = &c->s->names[st->items[i]];
		if (nm->live) {
			script_error(st->line, "'%s' is still allocated: free it first", nm->name);
			return STOP_USAGE;
		}
	}
	out = calloc(st->nitems, sizeof(*out));
	if (!out) {
		vrampool_error_from_ioctl(err, ENOMEM, NULL);
		return FAILED;
	}
	if (vrampool_alloc_batch(c->fd, st->reqs, st->nitems, out, err)) {
		free(out);
		return FAILED;
	}
	printf("%s: %u allocation%s\n", st->text, st->nitems, st->nitems == 1 ? "" : "s");
	for (i = 0; i < st->nitems; i++) {
		nm = &c->s->names[st->items[i]];
		nm->a = out[i];
		nm->live = nm->ever = true;
		printf("  %s: ", nm->name);
		print_placed(&out[i]);
	}
	free(out);
	return DONE;
}

static enum outcome run_free_batch(struct run_ctx *c, struct step *st,
				   struct vrampool_error *err)
{
	uint32_t *handles, i;
	struct name *nm;

	handles = calloc(st->nitems, sizeof(*handles));
	if (!handles) {
		vrampool_error_from_ioctl(err, ENOMEM, NULL);
		return FAILED;
	}
	for (i = 0; i < st->nitems; i++) {
		nm = &c->s->names[st->items[i]];
		/* As free: a freed name only after expect-error. */
		if (!nm->ever || (!nm->live && !c->expecting)) {
			script_error(st->line, nm->ever ?
				     "'%s' is already freed (free it again only after expect-error)" :
				     "'%s' holds no allocation (its alloc failed)", nm->name);
			free(handles);
			return STOP_USAGE;
		}
		handles[i] = nm->a.handle;
	}
	if (vrampool_free_batch(c->fd, handles, st->nitems, err)) {
		free(handles);
		return FAILED;
	}
	printf("%s: freed handle%s", st->text, st->nitems == 1 ? "" : "s");
	for (i = 0; i < st->nitems; i++) {
		c->s->names[st->items[i]].live = false;
		printf(" %u", handles[i]);
	}
	printf("\n");
	free(handles);
	return DONE;
}

static enum outcome run_free(struct run_ctx *c, struct step *st, struct vrampool_error *err)
{
	struct name *nm = &c->s->names[st->name];

	if (!nm->ever) {
		script_error(st->line, "'%s' holds no allocation (its alloc failed)", nm->name);
		return STOP_USAGE;
	}
	/*
	 * A freed name keeps its handle, so that freeing it again after
	 * expect-error asks the kernel (NotFound). Not otherwise: the kernel
	 * may have given that handle to a newer allocation.
	 */
	if (!nm->live && !c->expecting) {
		script_error(st->line, "'%s' is already freed (free it again only after expect-error)",
			     nm->name);
		return STOP_USAGE;
	}
	if (vrampool_free(c->fd, nm->a.handle, err))
		return FAILED;
	nm->live = false;
	printf("%s: freed handle %u\n", st->text, nm->a.handle);
	return DONE;
}

static enum outcome run_access(struct run_ctx *c, struct step *st, struct vrampool_error *err)
{
	struct name *nm = &c->s->names[st->name];
	struct vrampool_mapping m;
	const unsigned char *p;
	uint64_t i;
	int ret;

	if (!nm->live) {
		script_error(st->line, "'%s' is not allocated", nm->name);
		return STOP_USAGE;
	}
	ret = vrampool_map(c->fd, &nm->a, &m);
	if (ret) {
		vrampool_error_from_ioctl(err, -ret, NULL);
		return FAILED;
	}
	if (st->op == OP_WRITE) {
		if (nm->a.size)
			memset(m.ptr, (int)st->byte, nm->a.size);
		printf("%s: wrote %" PRIu64 " bytes of 0x%02x\n", st->text, nm->a.size, st->byte);
	} else {
		p = m.ptr;
		for (i = 0; i < nm->a.size; i++) {
			if (p[i] != st->byte)
				break;
		}
		if (i < nm->a.size) {
			fprintf(stderr, "vrampoolctl: run: line %d: %s: byte %" PRIu64 " of %" PRIu64 " is 0x%02x, not 0x%02x\n",
				st->line, st->text, i, nm->a.size, p[i], st->byte);
			vrampool_unmap(&m);
			return STOP_EXPECT;
		}
		printf("%s: %" PRIu64 " bytes of 0x%02x\n", st->text, nm->a.size, st->byte);
	}
	vrampool_unmap(&m);
	return DONE;
}

/*
 * wait FILE: FILE read to its end. A FIFO holds the script until another
 * process has opened it for writing and closed it: a handshake.
 */
static enum outcome run_wait(const struct step *st)
{
	char buf[512];
	ssize_t n;
	int fd;

	do {
		fd = open(st->path, O_RDONLY | O_CLOEXEC);
	} while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		fprintf(stderr, "vrampoolctl: run: line %d: %s: %s\n", st->line, st->text,
			strerror(errno));
		return STOP_FAILED;
	}
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0) {
		fprintf(stderr, "vrampoolctl: run: line %d: %s: %s\n", st->line, st->text,
			strerror(errno));
		close(fd);
		return STOP_FAILED;
	}
	close(fd);
	printf("%s: done\n", st->text);
	return DONE;
}

static enum outcome run_step(struct run_ctx *c, struct step *st, struct vrampool_error *err)
{
	struct client_view view;
	struct json j;
	uint32_t old;
	int ret;

	memset(err, 0, sizeof(*err));
	switch (st->op) {
	case OP_INSTALL:
		return run_install(c, st, err);
	case OP_ALLOC:
		return run_alloc(c, st, err);
	case OP_FREE:
		return run_free(c, st, err);
	case OP_ALLOC_BATCH:
		return run_alloc_batch(c, st, err);
	case OP_FREE_BATCH:
		return run_free_batch(c, st, err);
	case OP_WRITE:
	case OP_CHECK:
		return run_access(c, st, err);
	case OP_CLEANUP:
		ret = vrampool_cleanup(c->fd);
		if (ret) {
			vrampool_error_from_ioctl(err, -ret, NULL);
			return FAILED;
		}
		printf("%s: done\n", st->text);
		return DONE;
	case OP_MODE:
		ret = vrampool_set_persistent_mode(c->fd, (uint32_t)st->mode, &old);
		if (ret) {
			vrampool_error_from_ioctl(err, -ret, NULL);
			return FAILED;
		}
		printf("%s: persistent mode %s (was %s)\n", st->text,
		       persistent_mode_name((uint32_t)st->mode), persistent_mode_name(old));
		return DONE;
	case OP_STAT:
	case OP_MAP:
		if (st->all)
			return stat_all(c->info.path, st->json) ? STOP_FAILED : DONE;
		if (client_view_read(c->fd, &view))
			return STOP_FAILED;
		if (st->op == OP_MAP) {
			print_map(stdout, &c->info, &view);
		} else if (st->json) {
			json_init(&j, stdout);
			json_stat(&j, &c->info, &view);
		} else {
			print_stat(stdout, &c->info, &view);
		}
		client_view_free(&view);
		return DONE;
	case OP_SLEEP:
		nanosleep(&st->secs, NULL);
		return DONE;
	case OP_WAIT:
		return run_wait(st);
	default:
		return DONE;
	}
}

/* "request N (NAME): " for a batch's failing entry, else "". */
static const char *batch_where(const struct run_ctx *c, const struct step *st,
			       const struct vrampool_error *err, char *buf, size_t len)
{
	buf[0] = '\0';
	if ((st->op == OP_ALLOC_BATCH || st->op == OP_FREE_BATCH) && err->entry < st->nitems)
		snprintf(buf, len, "%s %u (%s): ", st->op == OP_ALLOC_BATCH ? "request" : "entry",
			 err->entry, c->s->names[st->items[err->entry]].name);
	return buf;
}

static int run_script(struct run_ctx *c)
{
	struct script *s = c->s;
	struct vrampool_error err;
	char prefix[640], msg[MSG_MAX], where[128];
	const struct layout_request *l;
	enum outcome out;
	int expect = -1, i;
	struct step *st;

	for (i = 0; i < s->count; i++) {
		st = &s->steps[i];
		if (st->op == OP_EXPECT) {
			expect = st->kind;
			continue;
		}
		c->expecting = expect >= 0;
		out = run_step(c, st, &err);
		fflush(stdout);
		if (out == STOP_USAGE)
			return EXIT_USAGE;
		if (out == STOP_EXPECT)
			return EXIT_EXPECT;
		if (out == STOP_FAILED)
			return EXIT_FAILED;

		l = st->op == OP_INSTALL ? st->layout : NULL;
		if (expect >= 0) {
			if (out == DONE) {
				fprintf(stderr, "vrampoolctl: run: line %d: %s: succeeded, expected %s\n",
					st->line, st->text, vrampool_error_kind_name(expect));
				return EXIT_EXPECT;
			}
			if ((int)err.kind != expect) {
				snprintf(prefix, sizeof(prefix),
					 "vrampoolctl: run: line %d: %s: expected %s, got %s", st->line,
					 st->text, vrampool_error_kind_name(expect),
					 batch_where(c, st, &err, where, sizeof(where)));
				print_error(stderr, prefix, &err, l ? l->entries : NULL,
					    l ? l->count : 0);
				return EXIT_EXPECT;
			}
			vrampool_error_message(&err, msg, sizeof(msg));
			printf("%s: failed as expected: %s%s: %s\n", st->text,
			       batch_where(c, st, &err, where, sizeof(where)),
			       vrampool_error_kind_name(err.kind), msg);
			expect = -1;
			continue;
		}
		if (out == FAILED) {
			snprintf(prefix, sizeof(prefix), "vrampoolctl: run: line %d: %s: %s", st->line,
				 st->text, batch_where(c, st, &err, where, sizeof(where)));
			print_error(stderr, prefix, &err, l ? l->entries : NULL, l ? l->count : 0);
			return EXIT_FAILED;
		}
	}
	return EXIT_OK;
}

static const char usage[] = "usage: vrampoolctl run [--device PATH] SCRIPT|-\n";

static const struct opt options[] = {
	OPT_DEVICE,
	OPT_END,
};

/* argv: the script. */
static int run(const struct opts *o, int argc, char **argv)
{
	struct script s = { 0 };
	struct run_ctx c = { .s = &s };
	const char *file = argc ? argv[0] : NULL;
	FILE *in;
	int ret;

	if (argc > 1)
		return usage_error("run: one script only ('%s', then '%s')", argv[0], argv[1]);
	if (!file)
		return usage_error("run: no script given (a file, or - for standard input)");

	s.names = calloc(MAX_NAMES, sizeof(*s.names));
	if (!s.names) {
		fprintf(stderr, "vrampoolctl: out of memory\n");
		return EXIT_FAILED;
	}
	if (!strcmp(file, "-")) {
		in = stdin;
	} else {
		in = fopen(file, "r");
		if (!in) {
			free(s.names);
			return usage_error("run: %s: %s", file, strerror(errno));
		}
	}
	ret = parse_script(in, &s);
	if (in != stdin)
		fclose(in);
	if (ret) {
		free_script(&s);
		return ret;
	}

	c.fd = open_device(o->device, &c.info);
	if (c.fd < 0) {
		free_script(&s);
		return -c.fd;
	}
	printf("device %s (%s, %s)\n", c.info.path, c.info.name,
	       vrampool_backend_name(c.info.backend));
	ret = run_script(&c);
	close(c.fd);	/* frees everything the script's client still holds */
	free_script(&s);
	return ret;
}

const struct command cmd_run = {
	.name = "run",
	.help = "  run [--device PATH] SCRIPT|-\n"
		"      Run a script (see below) in one process and one open file (a client).\n",
	.notes = "Script commands (run), one per line; '#' starts a comment:\n"
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
		"\n",
	.parser = { .opts = options, .usage = usage, .max_operands = OPT_ANY },
	.run_opts = run,
};

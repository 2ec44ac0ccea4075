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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vrampoolctl.h"

#define MAX_WORDS	(MAX_SPECS + 4)
#define MAX_NAMES	4096

enum op {
	OP_INSTALL, OP_ALLOC, OP_FREE, OP_CLEANUP, OP_MODE, OP_WRITE, OP_CHECK,
	OP_STAT, OP_MAP, OP_EXPECT, OP_SLEEP, OP_WAIT, OP_ALLOC_BATCH, OP_FREE_BATCH,
};

struct step {
	enum op op;
	int line;
	char *text;			/* the command as written, for messages */
	struct layout_request *layout;	/* install */
	bool test_only;			/* install */
	int name;			/* alloc, free, write, check: index in names */
	uint64_t size;			/* alloc */
	bool persistent;		/* alloc */
	unsigned int byte;		/* write, check */
	int mode;			/* mode */
	bool json;			/* stat */
	bool all;			/* stat */
	int kind;			/* expect-error */
	struct timespec secs;		/* sleep */
	char *path;			/* wait */
	uint32_t nitems;		/* alloc-batch, free-batch: how many names */
	int *items;			/* their indices in names */
	struct drm_vrampool_alloc_request *reqs;	/* alloc-batch */
};

struct name {
	char name[NAME_MAX_LEN + 1];
	bool live;		/* holds an allocation now */
	bool ever;		/* has held one: free sends its (stale) handle */
	struct vrampool_allocation a;
};

struct script {
	struct step *steps;
	int count;
	int cap;
	struct name *names;
	int nnames;
};

static const struct {
	const char *word;
	enum op op;
	int min_args, max_args;		/* -1: any number */
	const char *usage;
} ops[] = {
	{ "install", OP_INSTALL, 1, -1, "install [--test-only] LAYOUT" },
	{ "alloc", OP_ALLOC, 2, 3, "alloc NAME SIZE [persistent]" },
	{ "free", OP_FREE, 1, 1, "free NAME" },
	{ "cleanup", OP_CLEANUP, 0, 0, "cleanup" },
	{ "mode", OP_MODE, 1, 1, "mode enabled|size-match|disabled|enforced" },
	{ "write", OP_WRITE, 2, 2, "write NAME BYTE" },
	{ "check", OP_CHECK, 2, 2, "check NAME BYTE" },
	{ "stat", OP_STAT, 0, 2, "stat [--all] [--json]" },
	{ "map", OP_MAP, 0, 0, "map" },
	{ "expect-error", OP_EXPECT, 1, 1, "expect-error KIND" },
	{ "sleep", OP_SLEEP, 1, 1, "sleep SECS" },
	{ "wait", OP_WAIT, 1, 1, "wait FILE" },
	{ "alloc-batch", OP_ALLOC_BATCH, 1, -1, "alloc-batch NAME=SIZE[:persistent]..." },
	{ "free-batch", OP_FREE_BATCH, 1, -1, "free-batch NAME..." },
};

#define N_OPS (sizeof(ops) / sizeof(ops[0]))

static int script_error(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int script_error(int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vrampoolctl: run: line %d: ", line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static int find_name(struct script *s, const char *word)
{
	int i;

	for (i = 0; i < s->nnames; i++) {
		if (!strcmp(s->names[i].name, word))
			return i;
	}
	return -1;
}

bool valid_name(const char *w)
{
	size_t i, n = strlen(w);

	if (!n || n > NAME_MAX_LEN)
		return false;
	for (i = 0; i < n; i++) {
		char c = w[i];

		if (!(c == '_' || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return false;
	}
	return true;
}

static int parse_byte(const char *w, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!*w || *w == '-' || *w == '+')
		return -1;
	errno = 0;
	v = strtoul(w, &end, 0);	/* 171, 0xab */
	if (errno || *end || v > 255)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* Split @line into words, a '#' word ending it; the number of words, or -1. */
static int split(char *line, char **words, int max)
{
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (*w == '#')
			break;
		if (n == max)
			return -1;
		words[n++] = w;
	}
	return n;
}

/* The index of name @w, made if new; -1 when there are too many. */
static int name_of(struct script *s, const char *w)
{
	int idx = find_name(s, w);

	if (idx >= 0 || s->nnames == MAX_NAMES)
		return idx;
	idx = s->nnames++;
	snprintf(s->names[idx].name, sizeof(s->names[idx].name), "%s", w);
	return idx;
}

static int bad_name(int line, const char *w)
{
	return script_error(line, "'%s' is not a name (letters, digits, _ - .; at most %d)", w,
			    NAME_MAX_LEN);
}

/* alloc-batch NAME=SIZE[:persistent]...: one request per word. */
static int parse_alloc_batch(struct script *s, struct step *st, int nargs, char **argv)
{
	char why[512], *eq, *colon;
	uint64_t size;
	uint32_t i, j;

	st->items = calloc((size_t)nargs, sizeof(*st->items));
	st->reqs = calloc((size_t)nargs, sizeof(*st->reqs));
	if (!st->items || !st->reqs)
		return script_error(st->line, "out of memory");
	for (i = 0; i < (uint32_t)nargs; i++) {
		eq = strchr(argv[i + 1], '=');
		if (!eq)
			return script_error(st->line, "alloc-batch: '%s' is not NAME=SIZE", argv[i + 1]);
		*eq = '\0';
		colon = strchr(eq + 1, ':');
		if (colon) {
			*colon = '\0';
			if (strcmp(colon + 1, "persistent"))
				return script_error(st->line, "alloc-batch: '%s': only ':persistent' may follow the size",
						    colon + 1);
			st->reqs[i].flags = DRM_VRAMPOOL_ALLOC_PERSISTENT;
		}
		if (!valid_name(argv[i + 1]))
			return bad_name(st->line, argv[i + 1]);
		if (parse_size(eq + 1, &size, why, sizeof(why)))
			return script_error(st->line, "alloc-batch: %s", why);
		st->reqs[i].size = size;
		st->items[i] = name_of(s, argv[i + 1]);
		if (st->items[i] < 0)
			return script_error(st->line, "more than %d names", MAX_NAMES);
		for (j = 0; j < i; j++) {
			if (st->items[j] == st->items[i])
				return script_error(st->line, "alloc-batch: '%s' twice in one batch",
						    argv[i + 1]);
		}
		st->nitems++;
	}
	return 0;
}

/* free-batch NAME...: names an earlier line allocated (the same twice, too). */
static int parse_free_batch(struct script *s, struct step *st, int nargs, char **argv)
{
	int i;

	st->items = calloc((size_t)nargs, sizeof(*st->items));
	if (!st->items)
		return script_error(st->line, "out of memory");
	for (i = 0; i < nargs; i++) {
		st->items[i] = find_name(s, argv[i + 1]);
		if (st->items[i] < 0)
			return script_error(st->line, "'%s' is not allocated by an earlier line",
					    argv[i + 1]);
	}
	st->nitems = (uint32_t)nargs;
	return 0;
}

/* One line's command into @st; a usage error is reported and returned. */
static int parse_step(struct script *s, struct step *st, int argc, char **argv)
{
	char why[512];
	size_t k;
	int nargs = argc - 1, first = 1, idx;

	for (k = 0; k < N_OPS; k++) {
		if (!strcmp(argv[0], ops[k].word))
			break;
	}
	if (k == N_OPS)
		return script_error(st->line, "unknown command '%s'", argv[0]);
	st->op = ops[k].op;
	if (st->op == OP_INSTALL && nargs > 0 && !strcmp(argv[1], "--test-only")) {
		st->test_only = true;
		first = 2;
		nargs--;
	}
	if (nargs < ops[k].min_args || (ops[k].max_args >= 0 && nargs > ops[k].max_args))
		return script_error(st->line, "usage: %s", ops[k].usage);

	switch (st->op) {
	case OP_INSTALL:
		st->layout = malloc(sizeof(*st->layout));
		if (!st->layout)
			return script_error(st->line, "out of memory");
		if (parse_layout(nargs, argv + first, st->layout, why, sizeof(why)))
			return script_error(st->line, "install: %s", why);
		break;
	case OP_ALLOC_BATCH:
		if (nargs > DRM_VRAMPOOL_BATCH_MAX)
			return script_error(st->line, "alloc-batch: more than %u requests",
					    DRM_VRAMPOOL_BATCH_MAX);
		return parse_alloc_batch(s, st, nargs, argv);
	case OP_FREE_BATCH:
		if (nargs > DRM_VRAMPOOL_BATCH_MAX)
			return script_error(st->line, "free-batch: more than %u handles",
					    DRM_VRAMPOOL_BATCH_MAX);
		return parse_free_batch(s, st, nargs, argv);
	case OP_ALLOC:
		if (!valid_name(argv[1]))
			return bad_name(st->line, argv[1]);
		if (parse_size(argv[2], &st->size, why, sizeof(why)))
			return script_error(st->line, "alloc: %s", why);
		if (nargs == 3) {
			if (strcmp(argv[3], "persistent"))
				return script_error(st->line, "alloc: '%s': only 'persistent' may follow the size",
						    argv[3]);
			st->persistent = true;
		}
		idx = name_of(s, argv[1]);
		if (idx < 0)
			return script_error(st->line, "more than %d names", MAX_NAMES);
		st->name = idx;
		break;
	case OP_FREE:
	case OP_WRITE:
	case OP_CHECK:
		st->name = find_name(s, argv[1]);
		if (st->name < 0)
			return script_error(st->line, "'%s' is not allocated by an earlier line", argv[1]);
		if (st->op != OP_FREE && parse_byte(argv[2], &st->byte))
			return script_error(st->line, "'%s' is not a byte (0 to 255, or 0x00 to 0xff)",
					    argv[2]);
		break;
	case OP_MODE:
		st->mode = persistent_mode_of(argv[1]);
		if (st->mode < 0)
			return script_error(st->line, "usage: %s", ops[k].usage);
		break;
	case OP_STAT:
		for (idx = 1; idx <= nargs; idx++) {
			if (!strcmp(argv[idx], "--json") && !st->json)
				st->json = true;
			else if (!strcmp(argv[idx], "--all") && !st->all)
				st->all = true;
			else
				return script_error(st->line, "usage: %s", ops[k].usage);
		}
		break;
	case OP_EXPECT:
		st->kind = error_kind_of(argv[1]);
		if (st->kind < 0)
			return script_error(st->line, "'%s' is not an error kind (see `vrampoolctl help`)",
					    argv[1]);
		break;
	case OP_SLEEP:
		if (parse_seconds(argv[1], &st->secs, why, sizeof(why)))
			return script_error(st->line, "sleep: %s", why);
		break;
	case OP_WAIT:
		/* The text is the words joined by one blank: the path follows "wait ". */
		st->path = st->text + strlen(ops[k].word) + 1;
		break;
	default:
		break;
	}
	return 0;
}

/* Only commands that ask the device something can fail with a kind. */
static bool can_fail(enum op op)
{
	return op == OP_INSTALL || op == OP_ALLOC || op == OP_FREE || op == OP_CLEANUP ||
	       op == OP_MODE || op == OP_WRITE || op == OP_CHECK || op == OP_ALLOC_BATCH ||
	       op == OP_FREE_BATCH;
}

static int parse_script(FILE *in, struct script *s)
{
	char *line = NULL, *copy, *words[MAX_WORDS];
	size_t cap = 0;
	int lineno = 0, n, ret = 0, i;
	struct step *st;

	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		copy = strdup(line);
		if (!copy) {
			ret = script_error(lineno, "out of memory");
			break;
		}
		copy[strcspn(copy, "\r\n")] = '\0';
		n = split(line, words, MAX_WORDS);
		if (n < 0) {
			free(copy);
			ret = script_error(lineno, "more than %d words", MAX_WORDS);
			break;
		}
		if (!n) {
			free(copy);
			continue;
		}
		if (s->count == s->cap) {
			int ncap = s->cap ? 2 * s->cap : 64;
			struct step *bigger = realloc(s->steps, ncap * sizeof(*bigger));

			if (!bigger) {
				free(copy);
				ret = script_error(lineno, "out of memory");
				break;
			}
			s->steps = bigger;
			s->cap = ncap;
		}
		st = &s->steps[s->count++];
		memset(st, 0, sizeof(*st));
		st->line = lineno;
		/* The command as written, words joined by one blank, no comment. */
		copy[0] = '\0';
		for (i = 0; i < n; i++) {
			if (i)
				strcat(copy, " ");
			strcat(copy, words[i]);
		}
		st->text = copy;
		ret = parse_step(s, st, n, words);
		if (ret)
			break;
	}
	free(line);
	if (!ret && ferror(in))
		ret = script_error(lineno, "read error: %s", strerror(errno));

	for (i = 0; !ret && i < s->count; i++) {
		if (s->steps[i].op != OP_EXPECT)
			continue;
		if (i + 1 == s->count || !can_fail(s->steps[i + 1].op))
			ret = script_error(s->steps[i].line,
					   "expect-error must come before install, alloc, free, cleanup, mode, write, check, alloc-batch or free-batch");
	}
	return ret;
}

static void free_script(struct script *s)
{
	int i;

	for (i = 0; i < s->count; i++) {
		free(s->steps[i].text);
		free(s->steps[i].layout);
		free(s->steps[i].items);
		free(s->steps[i].reqs);
	}
	free(s->steps);
	free(s->names);
}

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

/* SPDX-License-Identifier: MIT */
/*
 * vrampoolctl run: a script, as script.c reads it and run.c runs it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOLCTL_SCRIPT_H
#define VRAMPOOLCTL_SCRIPT_H

#include "vrampoolctl.h"

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

/** script_error() - "vrampoolctl: run: line N: <fmt>" on stderr; EXIT_USAGE */
int script_error(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * parse_script() - read the whole script @in into @s, every line checked
 * Return: 0, or EXIT_USAGE (printed). free_script() @s either way.
 */
int parse_script(FILE *in, struct script *s);
void free_script(struct script *s);

#endif /* VRAMPOOLCTL_SCRIPT_H */

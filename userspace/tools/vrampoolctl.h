/* SPDX-License-Identifier: MIT */
/*
 * vrampoolctl: what the tool's source files share.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOLCTL_H
#define VRAMPOOLCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "vrampool.h"
#include "vrampool_bus.h"

/* Exit codes: see the header comment of main.c and `vrampoolctl help`. */
#define EXIT_OK		0
#define EXIT_FAILED	1	/* the operation failed: a documented error, or a system error */
#define EXIT_USAGE	2	/* bad command line, size, pool spec or script */
#define EXIT_NODEV	3	/* no vrampool device (none found, or PATH is not one) */
#define EXIT_EXPECT	4	/* a `run` script's expectation (check, expect-error) failed */

/* Longest message vrampool_error_message() writes, with room to spare. */
#define MSG_MAX		512

/* Most devices a command lists. */
#define MAX_DEVICES	64

/* Most pool specs one command line or script line may hold. */
#define MAX_SPECS	(VRAMPOOL_LAYOUT_MAX_POOLS + 16)

/* ---- Sizes and numbers (size.c) ----------------------------------------- */

/**
 * parse_size() - a size in bytes: "4096", "64MiB", "1.5GiB", "10MB"
 * @s: the text; units B, KiB, MiB, GiB, TiB (1024-based) and KB, MB, GB, TB
 *     (1000-based); a fraction only with a unit and only when the result is
 *     a whole number of bytes
 * @out: the size
 * @why: on failure, why (for a usage message)
 * @len: size of @why
 *
 * Return: 0, or -1 for garbage or a size above 2^64 - 1.
 */
int parse_size(const char *s, uint64_t *out, char *why, size_t len);

/** parse_count() - a plain decimal number up to 2^64 - 1; 0 or -1 as parse_size() */
int parse_count(const char *s, uint64_t *out, char *why, size_t len);

/* Longest wait `sleep` and `watch --interval` take: a day. */
#define MAX_SECONDS	86400

/** parse_seconds() - "2", "0.5": seconds with up to 9 decimals; 0 or -1 */
int parse_seconds(const char *s, struct timespec *ts, char *why, size_t len);

/**
 * format_size() - @v with the largest binary unit that divides it exactly,
 * if fewer than 10000 of them ("64MiB", "3375KiB"), else in bytes
 * ("1219328"): parse_size() reads it back to the same value.
 * Return: @buf.
 */
char *format_size(uint64_t v, char *buf, size_t len);

/** format_approx() - @v rounded for people: "1.50 GiB", "512 B". Return: @buf. */
char *format_approx(uint64_t v, char *buf, size_t len);

/* ---- Pool specs (spec.c) ------------------------------------------------ */

/** A layout from the command line: a preset, or a list of entries. */
struct layout_request {
	uint32_t preset;	/* DRM_VRAMPOOL_PRESET_*; NONE for @entries */
	uint32_t count;
	struct drm_vrampool_pool_entry entries[MAX_SPECS];
};

/**
 * parse_layout() - a preset name alone, or one or more pool specs
 * @argc: number of words
 * @argv: the words
 * @req: filled in
 * @why: on failure, why
 * @len: size of @why
 *
 * Return: 0, or -1 (a usage error) with @why set.
 */
int parse_layout(int argc, char **argv, struct layout_request *req, char *why, size_t len);

/**
 * layout_entries() - the entries to send: NULL with a preset (POOL_INSTALL
 * wants no entries pointer then)
 */
const struct drm_vrampool_pool_entry *layout_entries(const struct layout_request *req);

/** preset_of() - DRM_VRAMPOOL_PRESET_* for a name, or NONE */
uint32_t preset_of(const char *name);

/** format_spec() - an entry as a spec parse_layout() reads back. Return: @buf. */
char *format_spec(const struct drm_vrampool_pool_entry *e, char *buf, size_t len);

/** pool_type_name() - "exclusive", "sliced", "direct", "persistent" or "unknown" */
const char *pool_type_name(uint32_t type);

/* ---- JSON output (json.c) ----------------------------------------------- */

#define JSON_MAX_DEPTH	16

/* A JSON writer: one compact document per line, commas placed for you. */
struct json {
	FILE *out;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *out);
/* @key is the member name inside an object, NULL inside an array or at the top. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/* A decimal with four digits after the point; null when not finite. */
void json_double(struct json *j, const char *key, double v);
/* Ends the document with a newline. */
void json_finish(struct json *j);

/* ---- Commands (main.c and one file each) --------------------------------- */

/* ---- Options (options.c) ------------------------------------------------ */

/** One option a command takes. */
struct opt {
	const char *name;	/* "--device" */
	const char *alias;	/* a short name ("-o"), or NULL */
	bool valued;		/* takes a value: "--name VALUE" or "--name=VALUE" */
	int id;			/* what opt_parse() sets: an OPT_ID_* */
};

/* What opt_next() returns when it is no option of the command's list. */
#define OPT_DONE	(-1)	/* no word left */
#define OPT_OPERAND	(-2)	/* an operand, in *val */
#define OPT_HELP	(-3)	/* --help or -h */
#define OPT_FAILED	(-4)	/* a usage error, printed: exit with EXIT_USAGE */

/** Where opt_next() is in a command's words. */
struct opt_iter {
	int argc;
	char **argv;
	const struct opt *opts;	/* ends with a NULL name */
	bool stop;		/* options end at the first operand */
	bool operands_only;	/* after "--", or past the first operand with @stop */
	int i;
};

/**
 * opt_init() - start on the words of command argv[0]
 * @it: the parser
 * @argc: number of words
 * @argv: the words; argv[0] names the command in messages
 * @opts: the options it takes, ending with { NULL }
 * @stop: options end at the first operand (the rest are operands)
 */
void opt_init(struct opt_iter *it, int argc, char **argv, const struct opt *opts, bool stop);

/**
 * opt_next() - the next word: an option (its index in the list; *@val its
 * value, or NULL), or OPT_OPERAND, OPT_HELP, OPT_DONE, OPT_FAILED
 */
int opt_next(struct opt_iter *it, const char **val);

/*
 * The options opt_parse() knows, each meaning the same in every command;
 * OPT_ID_OWN: one the command reads itself, with opt_next().
 */
enum {
	OPT_ID_OWN = -1,
	OPT_ID_DEVICE, OPT_ID_JSON, OPT_ID_TEST_ONLY, OPT_ID_ALIGNMENT, OPT_ID_MAX_PAGE_SIZE,
	OPT_ID_EXCLUSIVE, OPT_ID_INTERVAL, OPT_ID_COUNT, OPT_ID_ALL, OPT_ID_ITERATIONS,
};

#define OPT_DEVICE	{ "--device", NULL, true, OPT_ID_DEVICE }
#define OPT_JSON	{ "--json", NULL, false, OPT_ID_JSON }
#define OPT_END		{ NULL }

/** What opt_parse() read: defaults, then the options given. */
struct opts {
	const char *device;
	bool json;
	bool test_only;
	bool exclusive_memory_only;
	uint64_t alignment;		/* default 256 */
	uint64_t max_page_size;		/* default 64 MiB */
	struct timespec interval;	/* default 2 s */
	uint64_t count;			/* --count or --iterations */
	bool all;
	bool timing;			/* --interval or --iterations given */
};

/** How opt_parse() reads a command's words. */
struct opt_parser {
	const struct opt *opts;	/* the options, ending with OPT_END */
	const char *usage;	/* printed on stdout for --help */
	int max_operands;	/* more is a usage error; OPT_ANY: no limit */
	bool stop;		/* options end at the first operand */
};

#define OPT_ANY		(-1)

/**
 * opt_parse() - every option of command argv[0] into @o, the operands
 * moved last, in order (as GNU getopt leaves them), from *@first
 *
 * Return: 0; -1 for --help, its usage printed (exit 0); or EXIT_USAGE
 * (printed) for a bad option, value or an operand too many.
 */
int opt_parse(int argc, char **argv, const struct opt_parser *p, struct opts *o, int *first);

/* ---- Commands (main.c and one file each) --------------------------------- */

/**
 * A command: its name, how it runs, and its parts of `vrampoolctl help`.
 * With @parser.opts, command_run() parses its options (opt_parse()) and
 * calls @run_opts with them and the operands; else @run reads its words
 * itself (opt_next()).
 */
struct command {
	const char *name;
	struct opt_parser parser;
	int (*run_opts)(const struct opts *o, int argc, char **argv);
	/* argv[0] is the command's name; returns an exit code */
	int (*run)(int argc, char **argv);
	const char *help;	/* its entry in the list of commands */
	const char *notes;	/* a section after the list, or NULL */
};

extern const struct command cmd_info, cmd_validate, cmd_install, cmd_run, cmd_trace,
	cmd_replay, cmd_plan, cmd_record, cmd_stat, cmd_map, cmd_watch, cmd_top;

/** find_command() - the command named @name, or NULL */
const struct command *find_command(const char *name);

/** command_run() - run @cmd on its words (argv[0] its name); an exit code */
int command_run(const struct command *cmd, int argc, char **argv);

/* ---- Errors and devices (common.c) -------------------------------------- */

/** Print "vrampoolctl: <fmt>" on stderr; return EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * print_error() - a documented error on @out:
 *   "<prefix>Variant: message", then the entry at fault, if any
 * @entries: the request's entries, to name the entry at fault (may be NULL)
 * @count: how many
 */
void print_error(FILE *out, const char *prefix, const struct vrampool_error *err,
		 const struct drm_vrampool_pool_entry *entries, uint32_t count);

/** json_error() - the error as the members of the current JSON object */
void json_error(struct json *j, const struct vrampool_error *err);

/** A variant from its name ("PoolCapacityExceeded"); -1 when unknown. */
int error_kind_of(const char *name);

/**
 * device_paths() - the devices a command shows: @path alone, or every
 * vrampool device (at most @max)
 * Return: how many; or, printed, -EXIT_FAILED (they cannot be listed) or
 * -EXIT_NODEV (none found).
 */
int device_paths(const char *path, char (*paths)[VRAMPOOL_NAME_MAX], int max);

/**
 * open_device() - open @path, or the first vrampool device when NULL
 * @path: a device node, or NULL
 * @info: the device's properties
 *
 * Prints why on failure.
 * Return: a file descriptor, or -EXIT_NODEV / -EXIT_FAILED.
 */
int open_device(const char *path, struct vrampool_device_info *info);

/* ---- Pools: stat and map (pools.c) -------------------------------------- */

/** What POOL_QUERY says about the calling client. */
struct client_view {
	struct drm_vrampool_pool_status *pools;	/* malloc()ed */
	uint32_t count;
	uint64_t generation;
	uint64_t vram_in_use;
	uint32_t persistent_mode;
};

/** client_view_read() - query the client; 0 or a negative errno (printed) */
int client_view_read(int fd, struct client_view *v);
void client_view_free(struct client_view *v);

const char *persistent_mode_name(uint32_t mode);
/** persistent_mode_of() - DRM_VRAMPOOL_PERSISTENT_* for a name, or -1 */
int persistent_mode_of(const char *name);

/** print_pool_table() - the stat table: a header row, then one row per pool */
void print_pool_table(FILE *out, const struct drm_vrampool_pool_status *pools, uint32_t count);
/** json_pool_status() - one pool, configuration and statistics, as an object */
void json_pool_status(struct json *j, const struct drm_vrampool_pool_status *s);

void print_stat(FILE *out, const struct vrampool_device_info *info, const struct client_view *v);
void json_stat(struct json *j, const struct vrampool_device_info *info,
	       const struct client_view *v);
void print_map(FILE *out, const struct vrampool_device_info *info, const struct client_view *v);

/**
 * client_view_open() - open @path (NULL: the first device) and query the
 * new client it makes; printed on failure. Return: an exit code.
 */
int client_view_open(const char *path, struct vrampool_device_info *info, struct client_view *v);

/** One pool's resolved configuration as JSON members (no statistics). */
void json_pool_config(struct json *j, const struct drm_vrampool_pool_entry *e);

/* ---- A layout's pools, as validate and install show them (layout.c) ---- */

/** print_pools() - one line per pool: its index and its spec */
void print_pools(const struct drm_vrampool_pool_entry *pools, uint32_t count);
/** json_pools() - the "pools" array of the current JSON object */
void json_pools(struct json *j, const struct drm_vrampool_pool_entry *pools, uint32_t count);
/** json_preset() - the "preset" member: its name, or null */
void json_preset(struct json *j, uint32_t preset);

/* ---- Every client, from sysfs (sysfs.c) -------------------------------- */

/**
 * stat_all() - print every client of @path (or of every device) with its
 * pools, as text or JSON, from <device>/vrampool/clients/ in sysfs
 * Return: an exit code.
 */
int stat_all(const char *path, bool json);

/* Most clients, or pools of a client, read from one sysfs folder. */
#define MAX_ENTRIES	4096

/** One clients/<id>/ folder, as read_client() reads it. */
struct sysfs_client {
	uint64_t id;
	int64_t pid;
	char comm[32];
	uint64_t generation;
	char persistent_mode[32];
	uint64_t vram;
	struct drm_vrampool_pool_status *pools;	/* malloc()ed */
	uint32_t count;
};

/** path_fmt() - snprintf() for paths: one too long is cut (and then not found) */
void path_fmt(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** read_text() - @dir/@name without its newline; 0 or -errno */
int read_text(const char *dir, const char *name, char *buf, size_t len);
/** read_u64() - a number, or "none" (*@present false, when @present is given); 0 or -errno */
int read_u64(const char *dir, const char *name, uint64_t *v, bool *present);
/** numeric_entries() - the numeric names in @dir, sorted; how many, or -errno */
int numeric_entries(const char *dir, uint64_t *ids, int max);
/** read_client() - @clients/@id/ and its pools; 0 or -errno (gone, most likely) */
int read_client(const char *clients, uint64_t id, struct sysfs_client *c);
/** device_dir() - the sysfs folder of the device node @path; 0 or -errno (-ENODEV) */
int device_dir(const char *path, char *out, size_t len);
/** link_name() - the last component of the symbolic link @dir/@name, or "unknown" */
void link_name(const char *dir, const char *name, char *out, size_t len);
/** backend_of() - the backend name of a device on bus @bus */
const char *backend_of(const char *bus);

/* ---- Scripts (run.c) ------------------------------------------------------ */

/* Longest name of an allocation in a `run` script or a trace. */
#define NAME_MAX_LEN	63

/**
 * valid_name() - @w is a name for an allocation (run.c): 1 to
 * NAME_MAX_LEN letters, digits, '_', '-' or '.'
 */
bool valid_name(const char *w);

/* ---- Traces (tracefile.c) and their replay (replayer.c): replay, plan ---- */

#define N_POOLS		256

/** One ID of a trace: its name, and its state during a replay. */
struct trace_id {
	char *name;
	uint64_t size;		/* while live, in the replay: its size, */
	bool persistent;	/* whether it is persistent, */
	uint32_t handle;	/* and its handle */
	int line;		/* the last line that allocated or freed it */
	bool live;
};

/** One operation of a trace: alloc (with its size) or free of ID @id. */
struct trace_op {
	uint64_t size;
	uint32_t id;
	int line;
	bool alloc;
	bool persistent;
};

/** A trace, read whole and checked (load_trace()). */
struct trace {
	struct trace_op *ops;
	size_t nops, capops;
	struct trace_id *ids;
	size_t nids, capids;
	uint32_t *slots;	/* a hash table of IDs: index + 1, 0 when empty */
	size_t nslots;
};

/** What one replay measured (replay()); zero it before each replay. */
struct replay_result {
	uint64_t allocs, frees, persistent;
	uint64_t live, peak_live, live_dyn, peak_live_dyn;
	uint64_t peak_reserved, peak_reserved_dyn, peak_vram;
	uint64_t op_ns, wall_ns;
	uint64_t served[N_POOLS];
	uint64_t left, left_bytes;
	size_t done;			/* operations made */
	const struct trace_op *failed;	/* the operation that failed, or NULL */
	const char *failed_call;	/* the call that failed: ALLOC, FREE, POOL_QUERY */
	struct vrampool_error err;
};

/**
 * load_trace() - read and check the trace @file ("-": standard input)
 * @cmd: the command, for messages ("replay", "plan")
 * @file: the trace
 * @t: filled in; free_trace() it, whatever the result
 *
 * Return: 0, or EXIT_USAGE (printed: an unreadable file, a bad line).
 */
int load_trace(const char *cmd, const char *file, struct trace *t);
void free_trace(struct trace *t);

/**
 * replay() - every operation of @t, in order, in the client @fd
 * @fd: the client, with its layout installed
 * @t: the trace (its IDs' replay state is reset first)
 * @r: the figures (zeroed here)
 *
 * Return: 0, or a negative errno: @r->failed is the operation that failed
 * (NULL if the first POOL_QUERY did, printed), @r->err its error.
 */
int replay(int fd, struct trace *t, struct replay_result *r);
/** ops_per_sec() - operations per second spent in ALLOC and FREE; 0 when none */
uint64_t ops_per_sec(const struct replay_result *r);

#endif /* VRAMPOOLCTL_H */

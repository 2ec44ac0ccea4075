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

/* Exit codes: see the header comment of vrampoolctl.c and `vrampoolctl help`. */
#define EXIT_OK		0
#define EXIT_FAILED	1	/* the operation failed: a documented error, or a system error */
#define EXIT_USAGE	2	/* bad command line, size, pool spec or script */
#define EXIT_NODEV	3	/* no vrampool device (none found, or PATH is not one) */
#define EXIT_EXPECT	4	/* a `run` script's expectation (check, expect-error) failed */

/* Longest message vrampool_error_message() writes, with room to spare. */
#define MSG_MAX		512

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

/* ---- Errors and devices (vrampoolctl.c) --------------------------------- */

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

/** One pool's resolved configuration as JSON members (no statistics). */
void json_pool_config(struct json *j, const struct drm_vrampool_pool_entry *e);

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

/* ---- top (top.c) --------------------------------------------------------- */

/**
 * top_run() - every client of @path (or of every device), refreshed every
 * @interval, @iterations times (0: until interrupted); @json: one snapshot
 * Return: an exit code.
 */
int top_run(const char *path, const struct timespec *interval, uint64_t iterations, bool json);

/* ---- Commands ----------------------------------------------------------- */

/* Longest name of an allocation in a `run` script or a trace. */
#define NAME_MAX_LEN	63

/**
 * valid_name() - @w is a name for an allocation (script.c): 1 to
 * NAME_MAX_LEN letters, digits, '_', '-' or '.'
 */
bool valid_name(const char *w);

/**
 * take_option() - the word at argv[*i] as an option and its value (replay.c)
 * @argc: number of words
 * @argv: the words; argv[0] names the command in messages
 * @i: the word; moved past the value when it is the next word
 * @valued: the options that take a value ("--name VALUE", "--name=VALUE",
 *          "-o VALUE"), NULL-terminated
 * @opt: the option's name ("--vram"), or the word itself when it is no option
 * @len: size of @opt
 * @val: the value, or NULL
 *
 * Return: 0, or EXIT_USAGE (printed) for a missing value or "--name=VALUE"
 * of an option that takes none.
 */
int take_option(int argc, char **argv, int *i, const char *const *valued, char *opt,
		size_t len, const char **val);

/* ---- Traces and their replay (replay.c), shared with plan (plan.c) ------ */

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

int cmd_run(int argc, char **argv);
/* Model-shaped allocation traces (trace.c) and their replay (replay.c). */
int cmd_trace(int argc, char **argv);
int cmd_replay(int argc, char **argv);
/* A layout proposed for a trace, replayed beside the presets (plan.c). */
int cmd_plan(int argc, char **argv);
/* A client's allocations recorded from the tracepoints, as a trace (record.c). */
int cmd_record(int argc, char **argv);

#endif /* VRAMPOOLCTL_H */

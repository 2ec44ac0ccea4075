/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the sources of vrampool_fuzz_test share: its limits, the state of
 * the devices and clients it drives (with what the model keeps of each),
 * and the functions one part calls in another. vrampool_fuzz_test.c says
 * what the fuzzer does; vrampool_fuzz_model.h is its model of the pools.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_FUZZ_H
#define VRAMPOOL_FUZZ_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrampool_fuzz_model.h"
#include "vrampool_layout.h"
#include "vrampool_test_lib.h"

#define MAX_CLIENTS	6
#define MAX_LIVE	40		/* allocations a client holds at most */
#define MAX_ORPHANS	16		/* mappings kept after their FREE */
#define GEN_MAX		12		/* entries of a generated layout */
#define BIG_SIZE	(4 * MiB)	/* larger sizes are rare */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

enum prof_kind {
	P_IOCTL, P_IOCTL_OK, P_QUERY, P_VRAM, P_CHECK, P_FILL, P_MMAP, P_READS, P_FORK, P_WAIT,
	P_OPEN, P_CLOSE,
	P_KINDS
};

struct fz_alloc {
	uint32_t handle, pool, page, seed;
	uint64_t size, offset, padding, mmap_offset, page_size;
	uint8_t *map;			/* its page, mapped; NULL for size 0 */
	size_t map_len;
};

struct fz_orphan {			/* a mapping kept after FREE */
	uint8_t *map;
	size_t map_len;
	uint64_t mmap_offset;
};

struct fz_pool {
	uint64_t allocations, bytes, padding;
};

struct fz_dev {
	struct vp_device d;
	struct vp_props p;
	struct vrampool_layout_props lp;
	uint64_t vram_start;
	uint64_t quota_start;		/* its sysfs vram_quota, put back at the end */
	uint64_t user_allocs[FZM_USERS]; /* each user's allocations in no fuzzer client */
	int probe;			/* an fd for GET_PARAM, no allocations */
	struct fzm_dev m;		/* the model of its pools and VRAM */
};

struct fz_client {
	int fd;
	int dev;
	uint64_t generation;
	uint32_t mode;
	uint32_t num_pools;
	struct drm_vrampool_pool_entry layout[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct fz_pool st[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	struct fz_pool pers;
	struct fz_alloc live[MAX_LIVE];
	int nlive;
	struct fz_orphan orphans[MAX_ORPHANS];
	int norphans;
	struct fzm_client m;		/* the model's prediction of it */
};

/* Distinct errors seen: (ioctl, errno, code). */
#define SEEN_MAX 512

struct fz_seen {
	const char *op;
	int err;
	uint32_t code;
	uint64_t n;
};

/* Which pools may serve a size, in the model: the answer must be one of them. */
struct alloc_plan {
	int err;		/* the exact error, when certain; 0 otherwise */
	uint32_t code;
	uint64_t limit;
	bool pers_ok, pers_must;
	bool dyn[DRM_VRAMPOOL_MAX_DYNAMIC_POOLS];
	bool capacity_ok;	/* every accepting pool is capped: ENOSPC capacity possible */
	bool efbig_ok;		/* size-match: BufferTooBig unless persistent serves it */
	uint32_t last_capped;
};

/* The state (vrampool_fuzz_state.c and the parts that own each). */
extern uint64_t rng_state;
extern bool profiling;
extern struct fz_dev devs[VP_MAX_DEVICES];
extern int ndevs;
extern struct fz_client clients[MAX_CLIENTS];
extern int nclients;
extern uint64_t max_allocations, max_pages;
extern uint8_t *mem_none, *mem_ro, *scratch;
extern uint64_t seed, step, steps;
extern int only_dev;
extern bool worker;
extern bool fail_nth_mode;
extern bool model_exact;
extern int fail_nth_fd;
extern int armed;
extern bool injected;
extern uint64_t ops_failed_injected, ops_absorbed;
extern const char *op_name;
extern uint8_t sink;
extern uint64_t bytes_checked, allocs_made, forks_done, reopens, installs_done, installs_busy;
extern uint64_t quotas_set;
extern struct fz_seen seen[SEEN_MAX];
extern int nseen;
extern struct vp_snap snap;

/* vrampool_fuzz_state.c */
uint64_t rnd64(void);
uint32_t rnd(uint32_t n);
bool chance(uint32_t one_in);
uint64_t prof_start(void);
void prof_end(enum prof_kind k, uint64_t t0);
void prof_step(const char *op, uint64_t t0);
void prof_print(double secs);
void saw(const char *op, int err, uint32_t code);
void mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
const char *ename(int err);
void fail_nth_write(unsigned int n);
unsigned int fail_nth_read(void);
int xioctl(int fd, unsigned long req, void *arg);
bool injected_failure(int ret, int want);
void client_open(struct fz_client *c, int dev);
uid_t user_uid(uint32_t user);
uint64_t user_nlive(const struct fz_client *c);
void users_start(int dev);
void check_users(int dev, const char *when);
void prof_munmap(struct fz_client *c, void *p, size_t len, uint64_t off);
void drop_orphan(struct fz_client *c, int i);
void client_close(struct fz_client *c);
struct fz_client *pick_client(void);

/* vrampool_fuzz_check.c */
void check_alloc_bytes(const struct fz_client *c, const struct fz_alloc *a,
		       const char *when, bool full);
void check_client_bytes(const struct fz_client *c, const char *when);
void check_device_bytes(int dev, const char *when);
void check_alloc_placement_bytes(const struct fz_client *c, const struct fz_alloc *l);
size_t map_len_of(uint64_t page_size);
uint64_t eff_size(const struct fz_dev *d, uint64_t size, bool *ok);
bool capped(const struct drm_vrampool_pool_entry *e);
bool pool_accepts(const struct fz_dev *d, const struct drm_vrampool_pool_entry *e,
		  uint64_t size);
struct fz_pool *pool_stats(struct fz_client *c, uint32_t pool);
uint64_t dynamic_live(const struct fz_client *c, uint64_t *bytes);
void check_query(struct fz_client *c, const char *when);
void check_device_vram(int dev, const char *when);

/* vrampool_fuzz_alloc.c */
uint64_t gen_size(const struct fz_client *c);
void plan_alloc(const struct fz_client *c, const struct drm_vrampool_alloc *req,
		struct alloc_plan *p);
void check_alloc_placement(struct fz_client *c, const struct drm_vrampool_alloc *a);
void check_alloc_error(struct fz_client *c, const struct drm_vrampool_alloc *req,
		       const struct drm_vrampool_alloc *a, int ret,
		       const struct alloc_plan *p);
struct fz_alloc *model_keep(struct fz_client *c, const struct drm_vrampool_alloc *a);

/* vrampool_fuzz_predict.c */
void model_alloc(struct fz_client *c, uint64_t size, uint32_t flags, struct fzm_answer *p);
void check_predicted(struct fz_client *c, const char *what, uint64_t size, uint32_t flags,
		     int ret, const struct drm_vrampool_alloc_error *err,
		     const struct drm_vrampool_alloc_answer *ans, const struct fzm_answer *p);
void alloc_answer_of(const struct drm_vrampool_alloc *a,
		     struct drm_vrampool_alloc_answer *ans);
void map_fill(struct fz_client *c, struct fz_alloc *l, bool new_page);
void do_alloc(struct fz_client *c, bool hostile);

/* vrampool_fuzz_free.c */
void forget(struct fz_client *c, int i, bool keep_map);
bool handle_live(const struct fz_client *c, uint32_t h, int *idx);
void do_free(struct fz_client *c, bool hostile);
void free_dynamic(struct fz_client *c);
void do_cleanup(struct fz_client *c, bool hostile);

/* vrampool_fuzz_install.c */
void do_install(struct fz_client *c);

/* vrampool_fuzz_hostile.c */
void do_query_hostile(struct fz_client *c);
void do_get_param(struct fz_client *c);
void do_set_mode(struct fz_client *c);
void do_bad_arg(struct fz_client *c);
void do_unaligned_arg(struct fz_client *c);

/* vrampool_fuzz_batch.c */
void do_alloc_batch(struct fz_client *c, bool hostile);
void do_free_batch(struct fz_client *c, bool hostile);

/* vrampool_fuzz_process.c */
void do_fork(struct fz_client *c);
void do_reopen(struct fz_client *c);
void quotas_restore(void);
void do_quota(struct fz_client *c);
void quota_tick(void);
void do_reads(struct fz_client *c);
void check_one(const struct fz_client *c, const struct fz_alloc *a);

/* vrampool_fuzz_steps.c */
void one_step(void);
void setup_memory(void);
void setup_devices(void);

/* vrampool_fuzz_floor.c */
void print_seen(void);
int missing_answers(uint64_t quotas);

#endif /* VRAMPOOL_FUZZ_H */

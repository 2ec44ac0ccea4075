/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The helper library of the vrampool kselftests, one vp_ layer:
 *
 *  - devices: enumeration through sysfs, opening;
 *  - files: sysfs, procfs, debugfs and module parameters, read and parsed;
 *  - the ioctls on caller-built structs, and small wrappers of them;
 *  - pool entries, install requests, POOL_QUERY snapshots to compare byte
 *    for byte;
 *  - expected layouts, computed here from the formulas of the uapi's "pool
 *    layouts" section and Documentation/vrampool.rst (not from the
 *    driver's code);
 *  - a client's sysfs folders and fdinfo;
 *  - byte patterns for buffer contents;
 *  - systematic fault injection (fail-nth).
 *
 * The checks written with kselftest_harness.h (fixture setups, asserting
 * wrappers, layout checks) are in vrampool_test_harness.h, which includes
 * this. Every function returns 0 (or a count / fd) on success and a negative
 * errno on failure, so that tests can assert the exact error.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_TEST_LIB_H
#define VRAMPOOL_TEST_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <drm/vrampool_accel.h>

#define KiB			1024ULL
#define MiB			(1024ULL * KiB)

#define VP_DRIVER_NAME		"vrampool"
#define VP_MAX_DEVICES		16
/* A CPU page: what a buffer object's size is rounded up to. */
#define VP_CPU_PAGE		4096ULL
#define VP_DEFAULT_BO_SIZE	65536ULL
#define VP_SYSFS_ACCEL_CLASS	"/sys/class/accel"
#define VP_SYSFS_MODULE_PARAMS	"/sys/module/" VP_DRIVER_NAME "/parameters"
#define VP_DEBUGFS_ROOT		"/sys/kernel/debug"
#define VP_DEBUGFS_ACCEL	VP_DEBUGFS_ROOT "/accel"

/* Most entries POOL_QUERY can report: every dynamic pool + the persistent one. */
#define VP_QUERY_MAX		(DRM_VRAMPOOL_MAX_DYNAMIC_POOLS + 1)
/* Room for any resolved layout (an explicit list is the longest). */
#define VP_LAYOUT_MAX		DRM_VRAMPOOL_MAX_DYNAMIC_POOLS

/* ---- Devices ------------------------------------------------------------ */

enum vp_backend {
	VP_BACKEND_ANY = -1,	/* for vp_enumerate_backend(): every backend */
	VP_BACKEND_UNKNOWN = 0,
	VP_BACKEND_PLATFORM,
	VP_BACKEND_PCI,
};

/* One /dev/accel/accelN node bound to the vrampool driver. */
struct vp_device {
	char path[64];		/* /dev/accel/accelN */
	char sysfs[96];		/* /sys/class/accel/accelN */
	int minor;		/* N */
	enum vp_backend backend;
	char backend_name[32];	/* basename of device/subsystem: "platform", "pci" */
	char name[64];		/* basename of device: "vrampool.0", "0000:00:04.0" */
};

const char *vp_backend_str(enum vp_backend backend);

/*
 * Fill @devs with the vrampool accel devices, sorted by minor. Returns how
 * many were found (at most @max) or a negative errno.
 */
int vp_enumerate(struct vp_device *devs, int max);

/* The devices of @backend, sorted by minor: count (at most @max) or -errno. */
int vp_enumerate_backend(enum vp_backend backend, struct vp_device *devs, int max);

/* The first (lowest minor) device of @backend, or -ENODEV. */
int vp_find_backend(enum vp_backend backend, struct vp_device *out);

/* open(2) the accel node read-write, close-on-exec: fd or -errno. */
int vp_open_device(const struct vp_device *dev);

/*
 * As vp_open_device(), for a root caller, but the file is @uid's: opened
 * with @uid as the real uid (the tenant the kernel charges, DOC: tenants),
 * root's real uid put back after. fd or -errno.
 */
int vp_open_device_as(const struct vp_device *dev, uid_t uid);

/* ---- Files -------------------------------------------------------------- */

/* A whole small file, NUL-terminated. */
int vp_read_file(const char *path, char *buf, size_t len);
/* The /proc/meminfo field @key ("SUnreclaim", "MemAvailable") in bytes; 0 if unreadable. */
uint64_t vp_meminfo_bytes(const char *key);
/*
 * A file of exactly one line (sysfs, module parameters, debugfs values),
 * without its newline; anything else is -EBADMSG.
 */
int vp_read_line(const char *path, char *buf, size_t len);
/* A canonical decimal number (digits only, no leading zero): 0 or -EBADMSG. */
int vp_parse_u64(const char *s, uint64_t *v);
/* vp_read_line() of a canonical decimal number. */
int vp_read_u64_file(const char *path, uint64_t *value);
/* One write(2) of @str: 0 or -errno (a short write is -EIO). */
int vp_write_file(const char *path, const char *str);
/* Whether @path exists. */
bool vp_exists(const char *path);

/* Module parameters from /sys/module/vrampool/parameters/<name>. */
int vp_module_param_str(const char *name, char *buf, size_t len);
int vp_module_param_u64(const char *name, uint64_t *value);
/* Accepts Y/N and 1/0. */
int vp_module_param_bool(const char *name, bool *value);

/* Size of BAR @bar of PCI device @bdf, from /sys/bus/pci/devices/<bdf>/resource. */
int vp_pci_bar_size(const char *bdf, int bar, uint64_t *size);

/* Make sure debugfs is mounted (mounting it if needed): 0 or -errno. */
int vp_debugfs_ready(void);
/* /sys/kernel/debug/accel/<name> and a file inside it. */
int vp_debugfs_dir(const struct vp_device *dev, char *buf, size_t len);
int vp_debugfs_path(const struct vp_device *dev, const char *file,
		    char *buf, size_t len);

/* The test_bo_size knob and the test_bo file. */
int vp_test_bo_size_get(const struct vp_device *dev, uint64_t *size);
int vp_test_bo_size_set(const struct vp_device *dev, uint64_t size);
int vp_test_bo_size_write_str(const struct vp_device *dev, const char *str);
/* Creates a new BO: fd or -errno. */
int vp_test_bo_open(const struct vp_device *dev);

/*
 * pread/pwrite looping over short transfers until @len bytes or end of file
 * (a 0-byte transfer). Returns the bytes moved or -errno of the first error.
 */
ssize_t vp_pread_all(int fd, void *buf, size_t len, off_t off);
ssize_t vp_pwrite_all(int fd, const void *buf, size_t len, off_t off);

/* ---- The ioctls --------------------------------------------------------- */

/*
 * ioctl(2) with the result as 0 or -errno: the raw call, on a struct the
 * caller built (every field as the test wants it, malformed ones too).
 */
int vp_ioctl(int fd, unsigned long request, void *arg);

/* GET_PARAM with pad/reserved zero. */
int vp_get_param(int fd, uint32_t param, uint64_t *value);
/* GET_PARAM VRAM_IN_USE of the device, or UINT64_MAX when it fails. */
uint64_t vp_vram_in_use(int fd);

/* ALLOC of @size with @flags (@out zeroed first, filled in also on failure). */
int vp_alloc(int fd, uint64_t size, uint32_t flags, struct drm_vrampool_alloc *out);
/* FREE of @handle. */
int vp_free(int fd, uint32_t handle);
/* CLEANUP: free pages go back to the device. */
/* ALLOC_BATCH of @count @reqs into @answers; @out holds the whole answer. */
int vp_alloc_batch(int fd, const struct drm_vrampool_alloc_request *reqs,
		   struct drm_vrampool_alloc_answer *answers, uint32_t count,
		   struct drm_vrampool_alloc_batch *out);
/* FREE_BATCH of @count @handles; @out holds the whole answer. */
int vp_free_batch(int fd, const uint32_t *handles, uint32_t count,
		  struct drm_vrampool_free_batch *out);
int vp_cleanup(int fd);
/* SET_PERSISTENT_MODE; *@old gets the previous mode (may be NULL). */
int vp_set_persistent_mode(int fd, uint32_t mode, uint32_t *old);

/* POOL_INSTALL and POOL_QUERY of caller-built requests. */
int vp_install(int fd, struct drm_vrampool_pool_install *args);
int vp_query(int fd, struct drm_vrampool_pool_query *args);
/* The query header alone: num_pools, generation, vram_in_use, persistent_mode. */
int vp_query_head(int fd, struct drm_vrampool_pool_query *q);

/* ---- Pool entries and install requests ---------------------------------- */

/* An optional pool entry field left absent. */
#define VP_ABSENT		UINT64_MAX

/*
 * Pool entries; VP_ABSENT leaves an optional field out (its flag clear).
 * vp_entry_set() sets any optional field, to any value (UINT64_MAX too).
 */
struct drm_vrampool_pool_entry vp_sliced(uint64_t page_size, uint64_t max_slice_size,
					 uint64_t max_pool_size);
struct drm_vrampool_pool_entry vp_exclusive(uint64_t max_alloc_size, uint64_t dealloc_period);
struct drm_vrampool_pool_entry vp_direct(uint64_t reclaim_at);
/* Set the field of @flag (one DRM_VRAMPOOL_ENTRY_* bit) and the flag. */
void vp_entry_set(struct drm_vrampool_pool_entry *e, uint32_t flag, uint64_t value);

/* Requests: an explicit list (entry_size set), or a preset. */
void vp_req_list(struct drm_vrampool_pool_install *args,
		 const struct drm_vrampool_pool_entry *entries, uint32_t count, uint32_t flags);
void vp_req_preset(struct drm_vrampool_pool_install *args, uint32_t preset, uint32_t flags);

/*
 * Install @count entries with flags 0; the answer (generation, num_pools,
 * the structured error) in @ans, which may be NULL.
 */
int vp_install_list(int fd, const struct drm_vrampool_pool_entry *entries, uint32_t count,
		    struct drm_vrampool_pool_install *ans);

/* ---- Snapshots of POOL_QUERY -------------------------------------------- */

/* A device's layout-relevant properties, as GET_PARAM reports them. */
struct vp_props {
	uint64_t vram_size;
	uint64_t alignment;
	uint64_t max_page_size;
	bool exclusive;
};

int vp_read_props(int fd, struct vp_props *props);

/* What POOL_QUERY said, whole: compare two of them with vp_snap_diff(). */
struct vp_snap {
	uint64_t generation;
	uint64_t vram_in_use;	/* the client's, as POOL_QUERY says */
	uint32_t persistent_mode;
	uint32_t num_pools;
	uint32_t size;		/* bytes the data step returned */
	uint32_t count;		/* size / sizeof(struct drm_vrampool_pool_status) */
	struct drm_vrampool_pool_status pools[VP_QUERY_MAX];
};

/* Two-step POOL_QUERY into @s (retried if the layout changes in between). */
/* @s from the answer @q of a POOL_QUERY into @s->pools. */
void vp_snap_set(struct vp_snap *s, const struct drm_vrampool_pool_query *q);
int vp_snap_take(int fd, struct vp_snap *s);
/* vp_snap_take() for a check that explains: 0, or -1 with the error in @why. */
int vp_snap_take_why(int fd, struct vp_snap *s, char *why, size_t len);
/*
 * 0 when @a and @b are byte-for-byte the same answer (generation, num_pools,
 * VRAM in use, persistent mode, size and every status byte); else 1 with the
 * first difference in @why.
 */
int vp_snap_diff(const struct vp_snap *a, const struct vp_snap *b, char *why, size_t len);
/* The layout part (configs of the dynamic pools) of a snapshot. */
void vp_snap_configs(const struct vp_snap *s, struct drm_vrampool_pool_entry *out);
/* The status of the pool at @index (DRM_VRAMPOOL_PERSISTENT_POOL too), or -ENOENT. */
int vp_pool(int fd, uint32_t index, struct drm_vrampool_pool_status *out);

/* ---- Expected results, from the documented formulas --------------------- */

/* @v rounded up to a multiple of @a (0 and 1: unchanged). */
uint64_t vp_align_up(uint64_t v, uint64_t a);
/* The buffer object of a page of @page_size: whole CPU pages. */
uint64_t vp_bo_bytes(uint64_t page_size);
/* The presets' dealloc period: 5000 * (1 + round-half-up(size / GiB)). */
uint64_t vp_expect_dealloc(uint64_t size);
/* The presets, into @out (room for VP_LAYOUT_MAX): the pool count. */
uint32_t vp_expect_sub_slices(const struct vp_props *p, struct drm_vrampool_pool_entry *out);
uint32_t vp_expect_exclusive_pages(const struct vp_props *p,
				   struct drm_vrampool_pool_entry *out);
/*
 * One well-formed, valid entry resolved by the rules of the uapi's "pool
 * layouts" section (sizes aligned up, max_slice_size filled in).
 */
void vp_expect_resolved(const struct vp_props *p, const struct drm_vrampool_pool_entry *in,
			struct drm_vrampool_pool_entry *out);

/* "exclusive", "sliced", "direct", "persistent", or "type?". */
const char *vp_pool_type_str(uint32_t type);
/* "exclusive(1){flags 0x4 page 0 ...}" and the like, for logs. */
const char *vp_entry_str(const struct drm_vrampool_pool_entry *e, char *buf, size_t len);
/*
 * Index of the first of @n entries where @a and @b differ, or -1; the
 * difference is described in @why.
 */
int vp_entries_diff(const struct drm_vrampool_pool_entry *a,
		    const struct drm_vrampool_pool_entry *b, uint32_t n, char *why, size_t len);

/* ---- A client's sysfs folder and fdinfo ------------------------------- */

/* The kernel keeps TASK_COMM_LEN - 1 characters of a task's name. */
#define VP_COMM_MAX		15
/* A sysfs value, and a listing of one folder. */
#define VP_VAL_MAX		256
#define VP_NAMES_MAX		300
#define VP_NAME_LEN		48
/* Paths: a folder, a path in it, a path in that (sized for -Wformat-truncation). */
#define VP_DIR_LEN		512
#define VP_PATH_LEN		1024
#define VP_FILE_LEN		2048

/* <device>/vrampool[/<file>] */
void vp_sysfs_dev_path(const struct vp_device *dev, const char *file, char *buf, size_t len);
/* <device>/vrampool/clients/<id> */
void vp_sysfs_client_path(const struct vp_device *dev, uint64_t id, char *buf, size_t len);
/* The number in <device>/vrampool/<file>, or UINT64_MAX. */
uint64_t vp_sysfs_dev_u64(const struct vp_device *dev, const char *file);
/* users/<uid>/<file> of @dev (DOC: tenants); UINT64_MAX when unreadable or absent. */
uint64_t vp_sysfs_user_u64(const struct vp_device *dev, unsigned int uid, const char *file);

/* sysfs's name of a persistent mode ("enabled", ...), or "?". */
const char *vp_persistent_mode_str(uint32_t mode);
/* The name a task gets from its program, as the kernel truncates it. */
void vp_comm_of(const char *name, char *buf, size_t len);
/* This process's name as the kernel keeps it. */
void vp_my_comm(char *buf, size_t len);

/*
 * The fields of the file clients/<id>/pools/<index>: one "name value" line
 * each, in this order.
 */
enum vp_pool_file {
	VP_PF_TYPE, VP_PF_PAGE_SIZE, VP_PF_MAX_SLICE_SIZE, VP_PF_MAX_POOL_SIZE,
	VP_PF_MAX_ALLOC_SIZE, VP_PF_RECLAIM_AT, VP_PF_DEALLOC_PERIOD, VP_PF_PAGES,
	VP_PF_PAGES_PEAK, VP_PF_ALLOCATIONS, VP_PF_BYTES_IN_USE, VP_PF_PADDING,
	VP_PF_RESERVED, VP_PF_LARGEST_ALLOC, VP_PF_PAGES_MADE, VP_PF_COUNT,
};

extern const char *const vp_pool_files[VP_PF_COUNT];
/*
 * The value of field @name in a stats text: 0, -ENOENT when no line has
 * it, -EEXIST when two do, -EBADMSG for a line that is not "name value".
 */
int vp_pool_stats_field(const char *text, const char *name, char *buf, size_t len);
/* The same, read from the pool's file @path: also the read's -errno. */
int vp_pool_stat_read(const char *path, const char *name, char *buf, size_t len);
/* The whole stats text a POOL_QUERY status must read as, in @buf. */
void vp_pool_stats_expected(const struct drm_vrampool_pool_status *st, char *buf, size_t len);
/*
 * What field @f of pools/<index> must read for a POOL_QUERY status: a config
 * field, or "none" where the pool's type lacks it or the optional field is
 * absent; a statistic.
 */
void vp_pool_file_expected(const struct drm_vrampool_pool_status *st, enum vp_pool_file f,
			   char *buf, size_t len);

/*
 * The value of @key in /proc/self/fdinfo/<fd>: 0, -ENOENT when the key is
 * missing, -EEXIST when it appears twice.
 */
int vp_fdinfo_get(int fd, const char *key, char *buf, size_t len);
/* A drm-*-<region> size as fdinfo prints it: "N", "N KiB", "N MiB" or "N GiB". */
int vp_parse_fdinfo_size(const char *s, uint64_t *bytes);
int vp_fdinfo_size(int fd, const char *key, uint64_t *bytes);
/* fdinfo's drm-client-id of @fd: the name of its clients/ folder. */
int vp_client_id(int fd, uint64_t *id);

/* A folder's entries but . and .., sorted (numbers by value, first). */
struct vp_names {
	int n;
	char v[VP_NAMES_MAX][VP_NAME_LEN];
};

bool vp_all_digits(const char *s);
int vp_list_dir(const char *path, struct vp_names *out);
/*
 * Every slab cache shrunk (/sys/kernel/slab/<cache>/shrink): its empty slabs
 * go back to the page allocator, and under KASAN the objects waiting in its
 * quarantine are freed first (kmem_cache_shrink() drains them), so that
 * memory freed leaves the slab figures on a debug kernel too.
 */
void vp_slab_shrink_all(void);
void vp_names_add(struct vp_names *ns, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Sort as vp_list_dir() does. */
void vp_names_sort(struct vp_names *ns);
bool vp_names_equal(const struct vp_names *a, const struct vp_names *b);
bool vp_names_has(const struct vp_names *ns, const char *name);
/* "0 1 2 255", cut short when it does not fit. */
const char *vp_names_str(const struct vp_names *ns, char *buf, size_t len);

/* ---- Byte patterns ------------------------------------------------------ */

/*
 * A byte pattern that depends on @seed and on the absolute offset in the BO,
 * and is never zero (so leftover data cannot pass for fresh zeroes).
 */
uint8_t vp_pattern_byte(uint32_t seed, uint64_t off);
void vp_fill_pattern(void *buf, size_t len, uint32_t seed, uint64_t off);
/* Index of the first byte that differs from the pattern, or -1. */
ssize_t vp_check_pattern(const void *buf, size_t len, uint32_t seed,
			 uint64_t off);
/* Index of the first non-zero byte, or -1. */
ssize_t vp_first_nonzero(const void *buf, size_t len);

/*
 * A cheaper pattern for bulk data (fuzzers, storms: a byte-wise pattern
 * takes most of their time under TCG): 64-bit words seed * C + i * K,
 * little endian, i the word index from the start of the allocation. @from
 * (the offset of @buf in the allocation) must be a multiple of 8.
 */
void vp_fill_words(void *buf, uint64_t from, uint64_t len, uint32_t seed);
/* Index (from @buf) of the first byte that differs from the pattern, or -1. */
int64_t vp_check_words(const void *buf, uint64_t from, uint64_t len, uint32_t seed);

/*
 * Read @len bytes of @fd at @off in chunks and check they are all zero
 * (@zero) or all the pattern (@seed). Returns -1 when all match, the offset
 * of the first mismatch, or -2 on a read error / short read (errno set).
 */
int64_t vp_verify_zero(int fd, uint64_t off, uint64_t len);
int64_t vp_verify_pattern(int fd, uint64_t off, uint64_t len, uint32_t seed);
/* Write the pattern @seed over [@off, @off + @len): 0 or -errno. */
int vp_write_pattern(int fd, uint64_t off, uint64_t len, uint32_t seed);

/* ---- Fault injection ---------------------------------------------------- */

/*
 * vp_fault_run() drives one operation through /proc/thread-self/fail-nth:
 * writing N there makes the N-th fault-injection point (an allocation, with
 * failslab / fail_page_alloc set up to fail GFP_KERNEL allocations) of this
 * task's next system calls fail; reading it back gives 0 when that fault was
 * injected. The operation runs with N = 1, 2, ... until it succeeds with no
 * fault injected. After each injected fault that made it fail, the helper
 * checks that:
 *
 *  - it failed cleanly, with an errno from the caller's allowed set;
 *  - the state the caller can read back through the ABI is unchanged (the
 *    caller's snapshot/unchanged callbacks, e.g. POOL_QUERY bytes and the
 *    layout generation);
 *  - the device's VRAM in use (GET_PARAM VRAM_IN_USE) is unchanged.
 *
 * A fault the kernel absorbs (the call succeeds anyway, e.g. kvmalloc()
 * falling back to vmalloc(), or, on a kmemleak kernel, kmemleak's own
 * metadata allocation falling back to its pool) is a success like any
 * other: the caller's succeeded callback checks the new state and cleans
 * up. Kernel reports (KASAN, kmemleak, lockdep, WARN) are the VM log
 * checker's business.
 */

/* The exact skip reason where the kernel has no fault injection. */
#define VP_FAULT_SKIP_REASON "no /proc/self/fail-nth (kernel without CONFIG_FAULT_INJECTION)"
/* Set to 1 by a VM whose kernel has fault injection: then it must work. */
#define VP_FAULT_ENV "VRAMPOOL_FAULT_INJECTION"
#define VP_FAULT_PROBE "/proc/self/fail-nth"
#define VP_FAULT_FILE "/proc/thread-self/fail-nth"
/* Default bound on N. */
#define VP_FAULT_MAX_NTH 2000
/* Seconds per fault-injection test: a debug kernel under TCG is slow. */
#define VP_FAULT_TIMEOUT 120

/* vp_fault_op.allowed of a call whose allocations fail: ENOMEM alone. */
extern const int vp_fault_only_enomem[];

enum vp_fault_avail {
	VP_FAULT_READY = 0,	/* fail-nth is there */
	VP_FAULT_UNAVAILABLE,	/* it is not, and that is allowed: skip */
	VP_FAULT_REQUIRED_MISSING, /* VRAMPOOL_FAULT_INJECTION=1 but it is not there */
};

enum vp_fault_avail vp_fault_available(void);

/* One operation to drive; every callback gets @ctx. */
struct vp_fault_op {
	const char *name;
	/* The operation: its system calls only, no logging. 0 or -errno. */
	int (*call)(void *ctx);
	/* Record the state before an attempt: 0 or -errno. May be NULL. */
	int (*snapshot)(void *ctx);
	/*
	 * After a failed attempt: 0 when the state equals the snapshot, else
	 * -1 with the difference in @why. May be NULL.
	 */
	int (*unchanged)(void *ctx, char *why, size_t len);
	/*
	 * After a successful attempt (a fault absorbed, or none injected):
	 * check the new state and undo what must be undone (close an fd).
	 * 0, or -1 with the problem in @why. May be NULL.
	 */
	int (*succeeded)(void *ctx, char *why, size_t len);
	void *ctx;
	/* Errnos (positive) a failed attempt may give; 0-terminated. */
	const int *allowed;
	/* An open device whose VRAM_IN_USE must not move, or -1. */
	int vram_fd;
	/* Bound on N; 0 means VP_FAULT_MAX_NTH. */
	unsigned int max_nth;
};

struct vp_fault_result {
	unsigned int failed;	/* faults injected that made the call fail */
	unsigned int absorbed;	/* faults injected that the call survived */
	unsigned int last_nth;	/* N of the final attempt (no fault injected) */
	int first_errno;	/* errno of the first injected failure, or 0 */
	char msg[768];		/* what went wrong, when vp_fault_run() fails */
};

/*
 * Drive @op as described above. Returns 0 when every injected failure was
 * clean and the call finally succeeded with no fault injected; -1 with
 * @res->msg saying why otherwise.
 */
int vp_fault_run(const struct vp_fault_op *op, struct vp_fault_result *res);

#endif /* VRAMPOOL_TEST_LIB_H */

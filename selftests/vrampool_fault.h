/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Systematic fault injection for the vrampool kselftests.
 *
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
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_FAULT_H
#define VRAMPOOL_FAULT_H

#include <stddef.h>
#include <stdint.h>

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

/*
 * For kselftest_harness tests: skip with VP_FAULT_SKIP_REASON when the
 * kernel has no fault injection, fail when the VM said it has.
 */
#define VP_FAULT_REQUIRE() do { \
	enum vp_fault_avail __vp_avail = vp_fault_available(); \
	if (__vp_avail == VP_FAULT_UNAVAILABLE) \
		SKIP(return, VP_FAULT_SKIP_REASON); \
	ASSERT_EQ((int)VP_FAULT_READY, (int)__vp_avail) { \
		TH_LOG(VP_FAULT_ENV "=1 but there is no " VP_FAULT_PROBE \
		       ": this kernel was expected to have fault injection"); \
	} \
} while (0)

#endif /* VRAMPOOL_FAULT_H */

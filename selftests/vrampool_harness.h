/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kselftest_harness.h (read from the kernel source at build time) with the
 * one -Wextra warning it trips in 6.12 (an unused signal-handler parameter)
 * silenced, so that the tests themselves keep -Wall -Wextra -Werror; and the
 * harness-side pieces the tests share: one fixture variant per backend,
 * setups that open the first device of a backend or every device, and a
 * fault-injection sweep (vrampool_fault.h) as a test's checks.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_HARNESS_H
#define VRAMPOOL_HARNESS_H

#include <string.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "vrampool_fault.h"
#include "vrampool_test_lib.h"

/*
 * The variants of fixture @f: "platform" and "pci", each with its backend
 * in variant->backend.
 */
#define VP_BACKEND_VARIANTS(f) \
	FIXTURE_VARIANT(f) { \
		enum vp_backend backend; \
	}; \
	FIXTURE_VARIANT_ADD(f, platform) { .backend = VP_BACKEND_PLATFORM }; \
	FIXTURE_VARIANT_ADD(f, pci) { .backend = VP_BACKEND_PCI }

/*
 * For a fixture setup: the first device of @backend into @dev, opened
 * read-write; returns its fd. Asserts that there is one and that it opens.
 */
static inline int vp_setup_open_first(struct __test_metadata *_metadata,
				      enum vp_backend backend, struct vp_device *dev)
{
	int ret, fd;

	ret = vp_find_backend(backend, dev);
	ASSERT_EQ(0, ret) TH_LOG("no %s device: %s", vp_backend_str(backend), strerror(-ret));
	fd = vp_open_device(dev);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", dev->path, strerror(-fd));
	return fd;
}

/*
 * For a fixture setup: every device of @backend (VP_BACKEND_ANY: every
 * vrampool device), sorted by minor, into @devs, each opened read-write into
 * @fds; the other fds of the VP_MAX_DEVICES are -1. Returns how many.
 * Asserts that there is one at least and that each opens.
 */
static inline int vp_setup_open_all(struct __test_metadata *_metadata, enum vp_backend backend,
				    struct vp_device *devs, int *fds)
{
	int i, n;

	for (i = 0; i < VP_MAX_DEVICES; i++)
		fds[i] = -1;
	n = vp_enumerate_backend(backend, devs, VP_MAX_DEVICES);
	ASSERT_LE(0, n) TH_LOG("enumerating %s: %s", VP_SYSFS_ACCEL_CLASS, strerror(-n));
	ASSERT_LT(0, n) {
		TH_LOG("no %s device is bound to " VP_DRIVER_NAME,
		       backend == VP_BACKEND_ANY ? "accel" : vp_backend_str(backend));
	}
	for (i = 0; i < n; i++) {
		fds[i] = vp_open_device(&devs[i]);
		ASSERT_LE(0, fds[i]) {
			TH_LOG("open %s (%s): %s", devs[i].path, devs[i].name, strerror(-fds[i]));
		}
	}
	return n;
}

/* For a fixture teardown: close the fds of vp_setup_open_all(). */
static inline void vp_teardown_close_all(const int *fds)
{
	int i;

	for (i = 0; i < VP_MAX_DEVICES; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * vp_fault_run() of @op, checked: every injected failure clean and then a
 * success, with at least @min_faults faults injected on the way (failed or
 * absorbed); the counts go to the log. @dev names the device in the log.
 */
static inline void vp_fault_check(struct __test_metadata *_metadata, const struct vp_fault_op *op,
				  const char *dev, unsigned int min_faults)
{
	struct vp_fault_result res;
	int ret;

	ret = vp_fault_run(op, &res);
	EXPECT_EQ(0, ret) TH_LOG("%s: %s", dev, res.msg);
	TH_LOG("%s: %s: %u injected faults failed it (first: %s), %u were absorbed; "
	       "succeeded at nth %u", dev, op->name, res.failed,
	       res.first_errno ? strerror(res.first_errno) : "none", res.absorbed,
	       res.last_nth);
	EXPECT_LE(min_faults, res.failed + res.absorbed) {
		TH_LOG("%s: %s: fewer faults injected than it has allocations: can failslab and "
		       "fail_page_alloc fail GFP_KERNEL allocations here (ignore-gfp-wait N)?",
		       dev, op->name);
	}
}

#endif /* VRAMPOOL_HARNESS_H */

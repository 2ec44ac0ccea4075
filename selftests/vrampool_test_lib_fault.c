// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helper library of the vrampool kselftests: systematic fault
 * injection. See vrampool_test_lib.h; the fail-nth semantics are those of
 * Documentation/fault-injection/fault-injection.rst in the kernel's source.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_lib.h"

const int vp_fault_only_enomem[] = { ENOMEM, 0 };

enum vp_fault_avail vp_fault_available(void)
{
	const char *env = getenv(VP_FAULT_ENV);

	if (access(VP_FAULT_PROBE, F_OK) == 0)
		return VP_FAULT_READY;
	if (env && !strcmp(env, "1"))
		return VP_FAULT_REQUIRED_MISSING;
	return VP_FAULT_UNAVAILABLE;
}

/* Arm the N-th fault point of this task's next system calls (0: disarm). */
static int fail_nth_set(int fd, unsigned int nth)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", nth);
	ssize_t n = write(fd, buf, len);

	if (n < 0)
		return -errno;
	return n == len ? 0 : -EIO;
}

/* What is left of the count: 0 once the fault was injected. */
static int fail_nth_get(int fd, unsigned int *left)
{
	char buf[16];
	ssize_t n;
	char *end;
	unsigned long v;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*left = (unsigned int)v;
	return 0;
}

static int errno_allowed(const int *allowed, int err)
{
	for (; allowed && *allowed; allowed++)
		if (*allowed == err)
			return 1;
	return 0;
}

static void allowed_str(const int *allowed, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; allowed && *allowed && used < len; allowed++)
		used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
				 strerrorname_np(*allowed) ?: "?");
}

static int vram_in_use(int fd, uint64_t *v)
{
	return fd < 0 ? 0 : vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, v);
}

int vp_fault_run(const struct vp_fault_op *op, struct vp_fault_result *res)
{
	unsigned int max = op->max_nth ? op->max_nth : VP_FAULT_MAX_NTH;
	unsigned int nth, left = 0;
	char why[512], allowed[128];
	int fd, ret, err, status = -1;

	memset(res, 0, sizeof(*res));
	fd = open(VP_FAULT_FILE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(res->msg, sizeof(res->msg), "%s: open %s: %s", op->name,
			 VP_FAULT_FILE, strerror(errno));
		return -1;
	}

	for (nth = 1; nth <= max; nth++) {
		uint64_t vram_before = 0, vram_after = 0;

		res->last_nth = nth;
		if (op->snapshot) {
			ret = op->snapshot(op->ctx);
			if (ret) {
				snprintf(res->msg, sizeof(res->msg), "%s: nth %u: snapshot: %s",
					 op->name, nth, strerror(-ret));
				goto out;
			}
		}
		ret = vram_in_use(op->vram_fd, &vram_before);
		if (ret) {
			snprintf(res->msg, sizeof(res->msg), "%s: nth %u: VRAM_IN_USE: %s",
				 op->name, nth, strerror(-ret));
			goto out;
		}

		/* Nothing but the operation may run between arming and reading back. */
		ret = fail_nth_set(fd, nth);
		if (ret) {
			snprintf(res->msg, sizeof(res->msg), "%s: arming fail-nth %u: %s",
				 op->name, nth, strerror(-ret));
			goto out;
		}
		err = op->call(op->ctx);
		ret = fail_nth_get(fd, &left);
		/* Disarm before anything else can allocate. */
		if (fail_nth_set(fd, 0) && !ret)
			ret = -EIO;
		if (ret) {
			snprintf(res->msg, sizeof(res->msg), "%s: reading fail-nth after nth %u: %s",
				 op->name, nth, strerror(-ret));
			goto out;
		}

		if (err == 0) {
			if (op->succeeded && op->succeeded(op->ctx, why, sizeof(why))) {
				snprintf(res->msg, sizeof(res->msg),
					 "%s: nth %u: succeeded%s, but %s", op->name, nth,
					 left ? "" : " with the fault injected", why);
				goto out;
			}
			if (left) {	/* no fault was left to inject: done */
				status = 0;
				goto out;
			}
			res->absorbed++;
			continue;
		}

		if (left) {
			snprintf(res->msg, sizeof(res->msg),
				 "%s: nth %u: failed with %s (%d) although no fault was injected",
				 op->name, nth, strerror(-err), -err);
			goto out;
		}
		res->failed++;
		if (!res->first_errno)
			res->first_errno = -err;
		if (!errno_allowed(op->allowed, -err)) {
			allowed_str(op->allowed, allowed, sizeof(allowed));
			snprintf(res->msg, sizeof(res->msg),
				 "%s: nth %u: injected fault gave %s (%d), not one of: %s",
				 op->name, nth, strerrorname_np(-err) ?: "?", -err, allowed);
			goto out;
		}
		if (op->unchanged && op->unchanged(op->ctx, why, sizeof(why))) {
			snprintf(res->msg, sizeof(res->msg),
				 "%s: nth %u: failed with %s, but the state changed: %s",
				 op->name, nth, strerrorname_np(-err) ?: "?", why);
			goto out;
		}
		ret = vram_in_use(op->vram_fd, &vram_after);
		if (ret || vram_after != vram_before) {
			snprintf(res->msg, sizeof(res->msg),
				 "%s: nth %u: failed with %s, but VRAM in use went from %" PRIu64
				 " to %" PRIu64 " (%s)", op->name, nth,
				 strerrorname_np(-err) ?: "?", vram_before, vram_after,
				 ret ? strerror(-ret) : "read fine");
			goto out;
		}
	}
	snprintf(res->msg, sizeof(res->msg),
		 "%s: still failing after %u injected faults (%u failed, %u absorbed)",
		 op->name, max, res->failed, res->absorbed);
out:
	close(fd);
	return status;
}

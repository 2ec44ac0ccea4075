// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzzer's floor: what was answered, and whether every ioctl
 * succeeded at least once and every error code the devices make reachable
 * was seen, naming what never was.
 *
 * Part of vrampool_fuzz_test (vrampool_fuzz_test.c says what it does);
 * what the parts share is declared in vrampool_fuzz.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_fuzz.h"

void print_seen(void)
{
	bool err_seen[256] = { false }, code_seen[64] = { false };
	int i, errs = 0, codes = 0;

	printf("# %d distinct answers (ioctl, errno, error code):\n", nseen);
	for (i = 0; i < nseen; i++) {
		int e = -seen[i].err;

		printf("#   %-24s %-10s code %2u: %" PRIu64 "\n", seen[i].op, ename(seen[i].err),
		       seen[i].code, seen[i].n);
		if (e > 0 && e < 256 && !err_seen[e]) {
			err_seen[e] = true;
			errs++;
		}
		if (seen[i].code && seen[i].code < 64 && !code_seen[seen[i].code]) {
			code_seen[seen[i].code] = true;
			codes++;
		}
	}
	printf("# distinct errnos: %d; distinct DRM_VRAMPOOL_ERR_* codes: %d of %d\n", errs,
	       codes, DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE);
}

/* Whether @op succeeded in any run. */
static bool succeeded(const char *op)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i].op, op) && !seen[i].err)
			return true;
	return false;
}

static bool code_seen(uint32_t code)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (seen[i].code == code)
			return true;
	return false;
}

/*
 * The plan's floor: every ioctl succeeded at least once, and every error
 * code the devices and limits make reachable was answered at least once
 * (PresetUnavailable and SlicedPoolsUnavailable need an exclusive-only
 * device, ClientLimit limits within reach of MAX_LIVE, QuotaExceeded a
 * quota step). Returns how many are missing; each is named.
 */
int missing_answers(uint64_t quotas)
{
	static const char *const ioctls[] = {
		"ALLOC", "FREE", "CLEANUP", "POOL_INSTALL", "POOL_INSTALL test-only",
		"POOL_QUERY", "GET_PARAM", "SET_PERSISTENT_MODE", "ALLOC_BATCH", "FREE_BATCH",
	};
	bool exclusive_only = false;
	int i, missing = 0;
	uint32_t code;

	for (i = 0; i < ndevs; i++)
		exclusive_only |= devs[i].p.exclusive;
	for (i = 0; i < (int)ARRAY_SIZE(ioctls); i++) {
		if (succeeded(ioctls[i]))
			continue;
		printf("# never answered: %s succeeding\n", ioctls[i]);
		missing++;
	}
	for (code = 1; code <= DRM_VRAMPOOL_ERR_DUPLICATE_HANDLE; code++) {
		bool reachable = true;

		if (code == DRM_VRAMPOOL_ERR_PRESET_UNAVAILABLE ||
		    code == DRM_VRAMPOOL_ERR_SLICED_POOLS_UNAVAILABLE)
			reachable = exclusive_only;
		else if (code == DRM_VRAMPOOL_ERR_CLIENT_LIMIT)
			reachable = max_allocations <= MAX_LIVE || max_pages <= MAX_LIVE;
		else if (code == DRM_VRAMPOOL_ERR_QUOTA_EXCEEDED)
			reachable = quotas > 0;
		if (!reachable || code_seen(code))
			continue;
		printf("# never answered: error code %u\n", code);
		missing++;
	}
	return missing;
}

/* What the runs add up to, for the summary (a worker's reach its parent). */

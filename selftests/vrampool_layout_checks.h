/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kselftest_harness checks of POOL_INSTALL answers, shared by the layout
 * tests: include after vrampool_harness.h. Each check names the device and
 * the case in its TH_LOG lines.
 *
 *  - check_installed(): a valid request installs (or, with TEST_ONLY, only
 *    resolves) exactly the expected layout, at the next generation;
 *  - check_refused(): a request is refused with the exact errno and
 *    structured error, with and without TEST_ONLY, and changes nothing;
 *  - libvrampool (vrampool_layout_validate(), vrampool_error_message())
 *    agrees with the kernel on both.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_LAYOUT_CHECKS_H
#define VRAMPOOL_LAYOUT_CHECKS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrampool.h"
#include "vrampool_layout_lib.h"

#define ENTRY_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_entry))
#define STATUS_SIZE	((uint32_t)sizeof(struct drm_vrampool_pool_status))
#define POISON		0xa5
#define NO_ENTRY	DRM_VRAMPOOL_NO_ENTRY
#define TEST_ONLY	DRM_VRAMPOOL_INSTALL_TEST_ONLY
#define INVALID		DRM_VRAMPOOL_ERR_INVALID_ARGUMENT

/* One client of one device. */
struct vp_client {
	int fd;
	const char *name;		/* the device, for logs */
	const struct vp_props *props;
};

static inline struct vp_snap *snap_alloc(void)
{
	return calloc(1, sizeof(struct vp_snap));
}

/* The libvrampool message for an ioctl's errno and structured error. */
static inline void expect_message(struct __test_metadata *_metadata, const char *dev,
				  const char *what, int err, const struct drm_vrampool_layout_error *le,
				  const char *message)
{
	struct vrampool_error ve;
	char buf[512];

	vrampool_error_from_ioctl(&ve, err, le);
	vrampool_error_message(&ve, buf, sizeof(buf));
	EXPECT_STREQ(message, buf) {
		TH_LOG("%s: %s: kind %s", dev, what, vrampool_error_kind_name(ve.kind));
	}
}

/*
 * The snapshot's layout is @expect (n pools at indexes 0..n-1, no
 * statistics), then the persistent pool at 255, and nothing else.
 */
static inline void check_layout(struct __test_metadata *_metadata, const char *dev, const char *what,
				const struct vp_snap *s, const struct drm_vrampool_pool_entry *expect,
				uint32_t n)
{
	struct drm_vrampool_pool_status want;
	char x[200], y[200];
	uint32_t k;

	EXPECT_EQ(n, s->num_pools) TH_LOG("%s: %s: num_pools", dev, what);
	EXPECT_EQ((n + 1) * STATUS_SIZE, s->size) TH_LOG("%s: %s: answer size", dev, what);
	ASSERT_EQ(n + 1, s->count) TH_LOG("%s: %s: pools reported", dev, what);
	for (k = 0; k < n; k++) {
		memset(&want, 0, sizeof(want));
		want.config = expect[k];
		want.index = k;
		EXPECT_EQ(0, memcmp(&want, &s->pools[k], sizeof(want))) {
			TH_LOG("%s: %s: pool %u is %s index %u (%" PRIu64 " allocations), not %s",
			       dev, what, k, vp_entry_str(&s->pools[k].config, x, sizeof(x)),
			       s->pools[k].index, (uint64_t)s->pools[k].allocations,
			       vp_entry_str(&expect[k], y, sizeof(y)));
		}
	}
	memset(&want, 0, sizeof(want));
	want.config.type = DRM_VRAMPOOL_POOL_PERSISTENT;
	want.index = DRM_VRAMPOOL_PERSISTENT_POOL;
	EXPECT_EQ(0, memcmp(&want, &s->pools[n], sizeof(want))) {
		TH_LOG("%s: %s: last pool is %s index %u, not the empty persistent pool at 255",
		       dev, what, vp_entry_str(&s->pools[n].config, x, sizeof(x)),
		       s->pools[n].index);
	}
}

/* libvrampool's vrampool_layout_validate() resolves @req to @expect too. */
static inline void check_lib_resolves(struct __test_metadata *_metadata, const char *dev,
				      const char *what, const struct vp_props *p,
				      const struct drm_vrampool_pool_install *req,
				      const struct drm_vrampool_pool_entry *expect, uint32_t n)
{
	struct vrampool_props lp = {
		.alignment = p->alignment,
		.max_page_size = p->max_page_size,
		.exclusive_memory_only = p->exclusive,
	};
	struct drm_vrampool_pool_entry *out = calloc(VP_LAYOUT_MAX, ENTRY_SIZE);
	struct vrampool_error err;
	uint32_t count = 0;
	char why[512];
	int ret;

	ASSERT_NE(NULL, out);
	ret = vrampool_layout_validate(&lp, req->preset,
				       (const void *)(uintptr_t)req->entries, req->count,
				       out, &count, &err);
	EXPECT_EQ(0, ret) TH_LOG("%s: %s: libvrampool refuses it: %s", dev, what, strerror(-ret));
	EXPECT_EQ(n, count) TH_LOG("%s: %s: libvrampool pool count", dev, what);
	if (!ret && count == n) {
		EXPECT_EQ(-1, vp_entries_diff(expect, out, n, why, sizeof(why))) {
			TH_LOG("%s: %s: expected vs libvrampool: %s", dev, what, why);
		}
	}
	free(out);
}

/*
 * Install @req (valid), with its own flags: 0 and the layout @expect of
 * @n pools in force at the next generation, or with TEST_ONLY: 0, @n pools,
 * and nothing changed.
 */
static inline void check_installed(struct __test_metadata *_metadata, const struct vp_client *c,
				   const char *what, const struct drm_vrampool_pool_install *req,
				   const struct drm_vrampool_pool_entry *expect, uint32_t n)
{
	const char *dev = c->name;
	struct vp_snap *before = snap_alloc(), *after = snap_alloc();
	bool test_only = req->flags & TEST_ONLY;
	struct drm_vrampool_pool_install args;
	char why[512];
	int ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ret = vp_snap_take(c->fd, before);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));

	args = *req;
	memset(&args.error, POISON, sizeof(args.error));
	args.generation = 0;
	args.num_pools = ~0u;
	ret = vp_install(c->fd, &args);
	ASSERT_EQ(0, ret) {
		TH_LOG("%s: %s: refused with %s: code %u entry %d field %u values %" PRIu64
		       " %" PRIu64, dev, what, strerror(-ret), args.error.code,
		       (int)args.error.entry, args.error.field, (uint64_t)args.error.value[0],
		       (uint64_t)args.error.value[1]);
	}
	EXPECT_EQ(n, args.num_pools) TH_LOG("%s: %s: num_pools", dev, what);
	EXPECT_EQ(before->generation + (test_only ? 0 : 1), args.generation) {
		TH_LOG("%s: %s: generation (was %" PRIu64 ")", dev, what, before->generation);
	}
	EXPECT_EQ(0u, args.error.code) TH_LOG("%s: %s: error not cleared", dev, what);
	EXPECT_EQ(0u, args.error.entry) TH_LOG("%s: %s: error not cleared", dev, what);
	EXPECT_EQ(0u, args.error.field) TH_LOG("%s: %s: error not cleared", dev, what);
	EXPECT_EQ(0u, args.error.pad) TH_LOG("%s: %s: error not cleared", dev, what);
	EXPECT_EQ(0ull, args.error.value[0]) TH_LOG("%s: %s: error not cleared", dev, what);
	EXPECT_EQ(0ull, args.error.value[1]) TH_LOG("%s: %s: error not cleared", dev, what);

	ret = vp_snap_take(c->fd, after);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));
	if (test_only) {
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) {
			TH_LOG("%s: %s: TEST_ONLY changed the layout: %s", dev, what, why);
		}
	} else {
		EXPECT_EQ(args.generation, after->generation) {
			TH_LOG("%s: %s: POOL_QUERY's generation", dev, what);
		}
		check_layout(_metadata, dev, what, after, expect, n);
	}
	check_lib_resolves(_metadata, dev, what, c->props, req, expect, n);
	free(before);
	free(after);
}

/* What a refused install must answer. */
struct refusal {
	int err;		/* errno (positive) */
	uint32_t code;		/* DRM_VRAMPOOL_ERR_*; NONE (all zero) for EFAULT */
	uint32_t entry;
	uint32_t field;
	uint64_t v0, v1;
	const char *message;	/* libvrampool's (the seed's) message, or NULL */
	bool lib;		/* vrampool_layout_validate() must refuse it alike */
};

/* libvrampool refuses @req exactly as the kernel did. */
static inline void check_lib_refuses(struct __test_metadata *_metadata, const char *dev,
				     const char *what, const struct vp_props *p,
				     const struct drm_vrampool_pool_install *req, int kerr,
				     const struct drm_vrampool_layout_error *le)
{
	struct vrampool_props lp = {
		.alignment = p->alignment,
		.max_page_size = p->max_page_size,
		.exclusive_memory_only = p->exclusive,
	};
	struct drm_vrampool_pool_entry *out = calloc(VP_LAYOUT_MAX, ENTRY_SIZE);
	struct vrampool_error lib, kernel;
	char lmsg[512], kmsg[512];
	uint32_t count = 0;
	int ret;

	ASSERT_NE(NULL, out);
	ret = vrampool_layout_validate(&lp, req->preset,
				       (const void *)(uintptr_t)req->entries, req->count,
				       out, &count, &lib);
	EXPECT_EQ(-kerr, ret) TH_LOG("%s: %s: libvrampool's errno", dev, what);
	vrampool_error_from_ioctl(&kernel, kerr, le);
	vrampool_error_message(&kernel, kmsg, sizeof(kmsg));
	if (!ret) {
		free(out);
		return;
	}
	vrampool_error_message(&lib, lmsg, sizeof(lmsg));
	EXPECT_EQ(kernel.kind, lib.kind) TH_LOG("%s: %s: libvrampool's variant", dev, what);
	EXPECT_EQ(kernel.entry, lib.entry) TH_LOG("%s: %s: libvrampool's entry", dev, what);
	EXPECT_EQ(kernel.field, lib.field) TH_LOG("%s: %s: libvrampool's field", dev, what);
	EXPECT_STREQ(kmsg, lmsg) TH_LOG("%s: %s: libvrampool's message", dev, what);
	free(out);
}

/*
 * Install @req, once with its flags and once with TEST_ONLY added: both are
 * refused as @x says, report the generation in force and no pools, give
 * their [in] fields back untouched, and leave the layout byte for byte as
 * it was.
 */
static inline void check_refused(struct __test_metadata *_metadata, const struct vp_client *c,
				 const char *what, const struct drm_vrampool_pool_install *req,
				 const struct refusal *x)
{
	const char *dev = c->name;
	struct vp_snap *before = snap_alloc(), *after = snap_alloc();
	const uint32_t flags[2] = { req->flags, req->flags | TEST_ONLY };
	struct drm_vrampool_pool_install args;
	char why[512];
	int pass, ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ret = vp_snap_take(c->fd, before);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));

	for (pass = 0; pass < 2; pass++) {
		uint64_t v0 = x->v0;

		/* An unknown-flags refusal names the flags as given. */
		if (x->code == INVALID && x->field == DRM_VRAMPOOL_FIELD_FLAGS)
			v0 = flags[pass];

		args = *req;
		args.flags = flags[pass];
		memset(&args.error, POISON, sizeof(args.error));
		args.generation = ~0ull;
		args.num_pools = ~0u;
		ret = vp_install(c->fd, &args);
		EXPECT_EQ(-x->err, ret) {
			TH_LOG("%s: %s (flags %#x): got %s, code %u", dev, what, flags[pass],
			       ret ? strerror(-ret) : "success", args.error.code);
		}
		EXPECT_EQ(x->code, args.error.code) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(x->entry, args.error.entry) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(x->field, args.error.field) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(0u, args.error.pad) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(v0, args.error.value[0]) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(x->v1, args.error.value[1]) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(before->generation, args.generation) {
			TH_LOG("%s: %s (flags %#x): generation reported", dev, what, flags[pass]);
		}
		EXPECT_EQ(0u, args.num_pools) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);

		/* [in] fields come back as they went in */
		EXPECT_EQ(flags[pass], args.flags) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->preset, args.preset) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->entries, args.entries) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->count, args.count) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->entry_size, args.entry_size) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->pad, args.pad) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->reserved[0], args.reserved[0]) TH_LOG("%s: %s", dev, what);
		EXPECT_EQ(req->reserved[1], args.reserved[1]) TH_LOG("%s: %s", dev, what);

		if (x->message && pass == 0)
			expect_message(_metadata, dev, what, -ret, &args.error, x->message);
		if (x->lib && pass == 0)
			check_lib_refuses(_metadata, dev, what, c->props, req, -ret,
					  &args.error);

		ret = vp_snap_take(c->fd, after);
		ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) {
			TH_LOG("%s: %s (flags %#x): the refused install changed the layout: %s",
			       dev, what, flags[pass], why);
		}
	}
	free(before);
	free(after);
}

#endif /* VRAMPOOL_LAYOUT_CHECKS_H */

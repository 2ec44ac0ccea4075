// SPDX-License-Identifier: GPL-2.0-only
/*
 * The checks of vrampool_test_harness.h (which declares them and says what
 * each does): the kselftest_harness.h side of the helper library, asserting
 * through the _metadata of the test that calls them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * kselftest_harness.h also brings its runner, meant for the one file of a
 * program that has main(): definitions with external linkage, which the
 * test's own file has too (__run_test(), __wait_for_test(), __active_test,
 * _fixture_global), and static functions this file never calls. Here those
 * get names of their own and the unused ones do not warn; the checks'
 * macros are the same.
 */
#define __run_test vp_harness_lib_run_test_unused
#define __wait_for_test vp_harness_lib_wait_for_test_unused
#define __active_test vp_harness_lib_active_test_unused
#define _fixture_global vp_harness_lib_fixture_global_unused
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "vrampool_test_harness.h"
#pragma GCC diagnostic pop
#undef __run_test
#undef __wait_for_test
#undef __active_test
#undef _fixture_global

/* ---- Fixtures ----------------------------------------------------------- */

int vp_setup_open_first(struct __test_metadata *_metadata,
			enum vp_backend backend, struct vp_device *dev)
{
	int ret, fd;

	ret = vp_find_backend(backend, dev);
	ASSERT_EQ(0, ret) TH_LOG("no %s device: %s", vp_backend_str(backend), strerror(-ret));
	fd = vp_open_device(dev);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", dev->path, strerror(-fd));
	return fd;
}

int vp_setup_open_all(struct __test_metadata *_metadata, enum vp_backend backend,
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

void vp_teardown_close_all(const int *fds)
{
	int i;

	for (i = 0; i < VP_MAX_DEVICES; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

void vp_require_alignment(struct __test_metadata *_metadata, int fd,
			  const struct vp_device *dev, uint64_t want,
			  const char *why)
{
	uint64_t alignment;

	ASSERT_EQ(0, vp_get_param(fd, DRM_VRAMPOOL_PARAM_ALIGNMENT, &alignment));
	ASSERT_EQ(want, alignment) TH_LOG("%s: %s", dev->name, why);
}

/* ---- Allocations and pool statistics ------------------------------------ */

void vp_expect_pool(struct __test_metadata *_metadata, int fd, uint32_t index,
		    const char *when, const struct vp_stats *want)
{
	struct drm_vrampool_pool_status st;
	int ret = vp_pool(fd, index, &st);

	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY of pool %u: %s", when, index, strerror(-ret));
	EXPECT_EQ(want->allocations, st.allocations)
		TH_LOG("%s: pool %u: allocations", when, index);
	EXPECT_EQ(want->bytes_in_use, st.bytes_in_use)
		TH_LOG("%s: pool %u: bytes_in_use", when, index);
	EXPECT_EQ(want->padding, st.padding)
		TH_LOG("%s: pool %u: padding", when, index);
	EXPECT_EQ(want->reserved_bytes, st.reserved_bytes)
		TH_LOG("%s: pool %u: reserved_bytes", when, index);
	EXPECT_EQ(want->pages, st.pages)
		TH_LOG("%s: pool %u: pages", when, index);
	EXPECT_EQ(want->pages_peak, st.pages_peak)
		TH_LOG("%s: pool %u: pages_peak", when, index);
	EXPECT_EQ(want->largest_alloc, st.largest_alloc)
		TH_LOG("%s: pool %u: largest_alloc", when, index);
}

void vp_expect_pages(struct __test_metadata *_metadata, int fd, uint32_t index,
		     const char *when, uint64_t pages, uint64_t reserved)
{
	struct drm_vrampool_pool_status st;
	int ret = vp_pool(fd, index, &st);

	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY of pool %u: %s", when, index, strerror(-ret));
	EXPECT_EQ(pages, st.pages) TH_LOG("%s: pool %u: pages", when, index);
	EXPECT_EQ(reserved, st.reserved_bytes) TH_LOG("%s: pool %u: reserved_bytes", when, index);
}

/* ---- Layouts ------------------------------------------------------------ */

void vp_expect_lib_message(struct __test_metadata *_metadata, const char *dev,
			   const char *what, int err,
			   const struct drm_vrampool_layout_error *le,
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

void vp_check_layout(struct __test_metadata *_metadata, const char *dev,
		     const char *what, const struct vp_snap *s,
		     const struct drm_vrampool_pool_entry *expect, uint32_t n)
{
	struct drm_vrampool_pool_status want;
	char x[200], y[200];
	uint32_t k;

	EXPECT_EQ(n, s->num_pools) TH_LOG("%s: %s: num_pools", dev, what);
	EXPECT_EQ((n + 1) * (uint32_t)sizeof(struct drm_vrampool_pool_status), s->size)
		TH_LOG("%s: %s: answer size", dev, what);
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

void vp_check_lib_resolves(struct __test_metadata *_metadata, const char *dev,
			   const char *what, const struct vp_props *p,
			   const struct drm_vrampool_pool_install *req,
			   const struct drm_vrampool_pool_entry *expect, uint32_t n)
{
	struct vrampool_props lp = {
		.alignment = p->alignment,
		.max_page_size = p->max_page_size,
		.exclusive_memory_only = p->exclusive,
	};
	struct drm_vrampool_pool_entry *out = calloc(VP_LAYOUT_MAX, sizeof(*out));
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

void vp_check_installed(struct __test_metadata *_metadata,
			const struct vp_client *c, const char *what,
			const struct drm_vrampool_pool_install *req,
			const struct drm_vrampool_pool_entry *expect, uint32_t n)
{
	const char *dev = c->name;
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	bool test_only = req->flags & DRM_VRAMPOOL_INSTALL_TEST_ONLY;
	struct drm_vrampool_pool_install args;
	char why[512];
	int ret;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ret = vp_snap_take(c->fd, before);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", dev, strerror(-ret));

	args = *req;
	memset(&args.error, VP_POISON, sizeof(args.error));
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
		vp_check_layout(_metadata, dev, what, after, expect, n);
	}
	vp_check_lib_resolves(_metadata, dev, what, c->props, req, expect, n);
	free(before);
	free(after);
}

void vp_check_lib_refuses(struct __test_metadata *_metadata, const char *dev,
			  const char *what, const struct vp_props *p,
			  const struct drm_vrampool_pool_install *req, int kerr,
			  const struct drm_vrampool_layout_error *le)
{
	struct vrampool_props lp = {
		.alignment = p->alignment,
		.max_page_size = p->max_page_size,
		.exclusive_memory_only = p->exclusive,
	};
	struct drm_vrampool_pool_entry *out = calloc(VP_LAYOUT_MAX, sizeof(*out));
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

void vp_check_refused(struct __test_metadata *_metadata,
		      const struct vp_client *c, const char *what,
		      const struct drm_vrampool_pool_install *req,
		      const struct vp_refusal *x)
{
	const char *dev = c->name;
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	const uint32_t flags[2] = { req->flags, req->flags | DRM_VRAMPOOL_INSTALL_TEST_ONLY };
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
		if (x->code == DRM_VRAMPOOL_ERR_INVALID_ARGUMENT &&
		    x->field == DRM_VRAMPOOL_FIELD_FLAGS)
			v0 = flags[pass];

		args = *req;
		args.flags = flags[pass];
		memset(&args.error, VP_POISON, sizeof(args.error));
		args.generation = ~0ull;
		args.num_pools = ~0u;
		ret = vp_install(c->fd, &args);
		EXPECT_EQ(-x->err, ret) {
			TH_LOG("%s: %s (flags %#x): got %s, code %u", dev, what, flags[pass],
			       ret ? strerror(-ret) : "success", args.error.code);
		}
		EXPECT_EQ(x->code, args.error.code)
			TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(x->entry, args.error.entry)
			TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(x->field, args.error.field)
			TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(0u, args.error.pad) TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(v0, args.error.value[0])
			TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
		EXPECT_EQ(x->v1, args.error.value[1])
			TH_LOG("%s: %s (flags %#x)", dev, what, flags[pass]);
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
			vp_expect_lib_message(_metadata, dev, what, -ret, &args.error, x->message);
		if (x->lib && pass == 0)
			vp_check_lib_refuses(_metadata, dev, what, c->props, req, -ret,
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

/* ---- A client's sysfs folder and fdinfo --------------------------------- */

void vp_sysfs_client_setup(struct __test_metadata *_metadata,
			   enum vp_backend backend, struct vp_sysfs_client *c)
{
	uint64_t v;
	int ret;

	c->fd = vp_setup_open_first(_metadata, backend, &c->dev);
	vp_require_alignment(_metadata, c->fd, &c->dev, 256,
			     "these tests expect the default alignment");
	ASSERT_EQ(0, vp_get_param(c->fd, DRM_VRAMPOOL_PARAM_EXCLUSIVE_MEMORY_ONLY, &v));
	ASSERT_EQ(0u, v) TH_LOG("%s: these tests install sliced pools", c->dev.name);
	ASSERT_EQ(0, vp_get_param(c->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &c->vram_size));
	ASSERT_LE(32 * MiB, c->vram_size) TH_LOG("%s: too small for the mix", c->dev.name);
	ASSERT_EQ(0, vp_get_param(c->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &c->vram_start));
	ret = vp_client_id(c->fd, &c->id);
	ASSERT_EQ(0, ret) TH_LOG("drm-client-id of %s: %s", c->dev.path, strerror(-ret));
	vp_sysfs_client_path(&c->dev, c->id, c->cdir, sizeof(c->cdir));
	c->clients_start = vp_sysfs_dev_u64(&c->dev, "client_count");
	ASSERT_NE(UINT64_MAX, c->clients_start) TH_LOG("%s: client_count", c->dev.name);
	ASSERT_LE(1u, c->clients_start);
}

void vp_sysfs_client_close(struct vp_sysfs_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
}

void vp_expect_listing(struct __test_metadata *_metadata, const char *path,
		       const char *const *want, size_t n, const char *when)
{
	static struct vp_names got, exp;
	char a[1024], b[1024];
	size_t i;
	int ret;

	ret = vp_list_dir(path, &got);
	ASSERT_EQ(0, ret) TH_LOG("%s: list %s: %s", when, path, strerror(-ret));
	exp.n = 0;
	for (i = 0; i < n; i++)
		vp_names_add(&exp, "%s", want[i]);
	vp_names_sort(&exp);
	EXPECT_TRUE(vp_names_equal(&exp, &got)) {
		TH_LOG("%s: %s holds [%s], want [%s]", when, path, vp_names_str(&got, a, sizeof(a)),
		       vp_names_str(&exp, b, sizeof(b)));
	}
}

void vp_expect_value(struct __test_metadata *_metadata, const char *path,
		     const char *want, const char *when)
{
	char got[VP_VAL_MAX];
	int ret = vp_read_line(path, got, sizeof(got));

	ASSERT_EQ(0, ret) TH_LOG("%s: read %s: %s", when, path, strerror(-ret));
	EXPECT_STREQ(want, got) TH_LOG("%s: %s", when, path);
}

void vp_expect_u64(struct __test_metadata *_metadata, const char *path,
		   uint64_t want, const char *when)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, want);
	vp_expect_value(_metadata, path, buf, when);
}

void vp_expect_file(struct __test_metadata *_metadata, const char *dir,
		    const char *file, const char *want, const char *when)
{
	char path[VP_PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	vp_expect_value(_metadata, path, want, when);
}

void vp_write_u64_ok(struct __test_metadata *_metadata, const char *path, uint64_t v)
{
	char buf[32];
	int ret;

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	ret = vp_write_file(path, buf);
	ASSERT_EQ(0, ret) TH_LOG("write %s to %s: %s", buf, path, strerror(-ret));
}

void vp_expect_file_u64(struct __test_metadata *_metadata, const char *dir,
			const char *file, uint64_t want, const char *when)
{
	char path[VP_PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	vp_expect_u64(_metadata, path, want, when);
}

void vp_expect_client_matches(struct __test_metadata *_metadata, const char *cdir,
			      int fd, pid_t pid, const char *comm,
			      const char *when)
{
	static const char *const client_files[] = {
		"comm", "generation", "persistent_mode", "pid", "pools", "purgeable",
		"reclaimed", "reclaimed_pages", "uid", "vram",
	};
	static const struct { const char *file, *key; } usage[] = {
		{ "purgeable", "drm-purgeable-vram" },
		{ "reclaimed", "vrampool-reclaimed-bytes" },
		{ "reclaimed_pages", "vrampool-reclaimed-pages" },
	};
	struct drm_vrampool_pool_query q;
	uint64_t total, resident, v;
	unsigned int i;
	int ret;

	vp_expect_listing(_metadata, cdir, client_files, ARRAY_SIZE(client_files), when);
	ret = vp_query_head(fd, &q);
	ASSERT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", when, strerror(-ret));

	vp_expect_file_u64(_metadata, cdir, "pid", (uint64_t)pid, when);
	/* The tests open their files as root, but for vp_open_device_as(). */
	vp_expect_file_u64(_metadata, cdir, "uid", 0, when);
	vp_expect_file(_metadata, cdir, "comm", comm, when);
	vp_expect_file_u64(_metadata, cdir, "generation", q.generation, when);
	vp_expect_file(_metadata, cdir, "persistent_mode",
		       vp_persistent_mode_str(q.persistent_mode), when);
	vp_expect_file_u64(_metadata, cdir, "vram", q.vram_in_use, when);

	ret = vp_fdinfo_size(fd, "drm-total-vram", &total);
	ASSERT_EQ(0, ret) TH_LOG("%s: fdinfo drm-total-vram: %s", when, strerror(-ret));
	ret = vp_fdinfo_size(fd, "drm-resident-vram", &resident);
	ASSERT_EQ(0, ret) TH_LOG("%s: fdinfo drm-resident-vram: %s", when, strerror(-ret));
	EXPECT_EQ(q.vram_in_use, total) TH_LOG("%s: fdinfo drm-total-vram", when);
	EXPECT_EQ(q.vram_in_use, resident) TH_LOG("%s: fdinfo drm-resident-vram", when);
	for (i = 0; i < ARRAY_SIZE(usage); i++) {
		ret = vp_fdinfo_size(fd, usage[i].key, &v);
		ASSERT_EQ(0, ret) TH_LOG("%s: fdinfo %s: %s", when, usage[i].key, strerror(-ret));
		vp_expect_file_u64(_metadata, cdir, usage[i].file, v, when);
	}
}

void vp_expect_device_vram(struct __test_metadata *_metadata,
			   const struct vp_device *dev, int fd, uint64_t want,
			   const char *when)
{
	EXPECT_EQ(want, vp_vram_in_use(fd)) TH_LOG("%s: GET_PARAM VRAM_IN_USE", when);
	EXPECT_EQ(want, vp_sysfs_dev_u64(dev, "vram_in_use")) {
		TH_LOG("%s: sysfs vram_in_use", when);
	}
}

int vp_expect_snap(struct __test_metadata *_metadata, int fd, struct vp_snap *s,
		   const char *when)
{
	int ret = vp_snap_take(fd, s);

	EXPECT_EQ(0, ret) TH_LOG("%s: POOL_QUERY: %s", when, strerror(-ret));
	if (ret || !s->count)
		return 0;
	EXPECT_EQ(s->num_pools + 1, s->count) TH_LOG("%s: POOL_QUERY's answer", when);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_PERSISTENT_POOL, s->pools[s->count - 1].index)
		TH_LOG("%s: the last status is the persistent pool", when);
	return (int)s->count;
}

void vp_expect_pools_match(struct __test_metadata *_metadata, const char *cdir,
			   int fd, const char *when)
{
	static struct vp_names got, exp;
	static struct vp_snap s;
	static char want_text[VP_FILE_LEN];
	char path[VP_PATH_LEN], a[1024], b[1024], want[VP_VAL_MAX], val[VP_VAL_MAX];
	int n, i, f, ret;

	n = vp_expect_snap(_metadata, fd, &s, when);
	ASSERT_LT(0, n);
	exp.n = 0;
	for (i = 0; i < n; i++)
		vp_names_add(&exp, "%u", s.pools[i].index);
	snprintf(path, sizeof(path), "%s/pools", cdir);
	ret = vp_list_dir(path, &got);
	ASSERT_EQ(0, ret) TH_LOG("%s: list %s: %s", when, path, strerror(-ret));
	ASSERT_TRUE(vp_names_equal(&exp, &got)) {
		TH_LOG("%s: %s holds [%s]; POOL_QUERY (generation %" PRIu64 ") has [%s]", when,
		       path, vp_names_str(&got, a, sizeof(a)), s.generation,
		       vp_names_str(&exp, b, sizeof(b)));
	}
	for (i = 0; i < n; i++) {
		char file[VP_PATH_LEN], text[VP_FILE_LEN];

		snprintf(file, sizeof(file), "%s/pools/%u", cdir, s.pools[i].index);
		ret = vp_read_file(file, text, sizeof(text));
		EXPECT_EQ(0, ret) TH_LOG("%s: read %s: %s", when, file, strerror(-ret));
		if (ret)
			continue;
		/* Field by field, for the message; then the text as a whole (order, extras). */
		for (f = 0; f < VP_PF_COUNT; f++) {
			vp_pool_file_expected(&s.pools[i], f, want, sizeof(want));
			ret = vp_pool_stats_field(text, vp_pool_files[f], val, sizeof(val));
			EXPECT_EQ(0, ret) TH_LOG("%s: %s: field %s: %s", when, file,
						 vp_pool_files[f], strerror(-ret));
			if (ret)
				continue;
			EXPECT_STREQ(want, val) {
				TH_LOG("%s: pool %u (%s) %s", when, s.pools[i].index,
				       vp_entry_str(&s.pools[i].config, a, sizeof(a)),
				       vp_pool_files[f]);
			}
		}
		vp_pool_stats_expected(&s.pools[i], want_text, sizeof(want_text));
		EXPECT_STREQ(want_text, text) TH_LOG("%s: %s", when, file);
	}
}

void vp_expect_pool_stat(struct __test_metadata *_metadata, const char *cdir,
			 const char *pool, const char *name, const char *want,
			 const char *when)
{
	char path[VP_PATH_LEN], val[VP_VAL_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", cdir, pool);
	ret = vp_pool_stat_read(path, name, val, sizeof(val));
	ASSERT_EQ(0, ret) TH_LOG("%s: %s: field %s: %s", when, path, name, strerror(-ret));
	EXPECT_STREQ(want, val) TH_LOG("%s: %s: %s", when, path, name);
}

/* ---- Fault injection ---------------------------------------------------- */

void vp_fault_check(struct __test_metadata *_metadata, const struct vp_fault_op *op,
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
	if (!min_faults) {
		EXPECT_EQ(0u, res.failed + res.absorbed) {
			TH_LOG("%s: %s: documented to allocate nothing, yet %u faults were "
			       "injected", dev, op->name, res.failed + res.absorbed);
		}
		EXPECT_EQ(1u, res.last_nth) TH_LOG("%s: %s", dev, op->name);
	}
}

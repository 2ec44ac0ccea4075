/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kselftest_harness.h side of the vrampool kselftests' helper library
 * (vrampool_test_lib.h, which this includes): checks that assert, with the
 * context in their TH_LOG lines.
 *
 *  - fixtures: one variant per backend, setups that open the first device
 *    of a backend or every device;
 *  - asserting wrappers of ALLOC, FREE and POOL_INSTALL, and checks of a
 *    pool's statistics;
 *  - layouts: a valid request installs (or, with TEST_ONLY, only resolves)
 *    exactly the expected layout; a refused one answers the exact errno and
 *    structured error and changes nothing; where a test compares
 *    libvrampool with the kernel, the library agrees on both;
 *  - a client's sysfs folder, fdinfo and pool folders against POOL_QUERY
 *    and GET_PARAM;
 *  - a fault-injection sweep as a test's checks.
 *
 * The declarations: the bodies are in vrampool_test_lib_harness.c, one
 * more file of the library every program links.
 *
 * kselftest_harness.h is read from the kernel source at build time; the
 * one -Wextra warning it trips in 6.12 (an unused signal-handler parameter)
 * is silenced around it, so that the tests themselves keep -Wall -Wextra
 * -Werror. Its TEST_F() bodies trip -Wclobbered at -O2 (setjmp), which is
 * off for the rest of each test file.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef VRAMPOOL_TEST_HARNESS_H
#define VRAMPOOL_TEST_HARNESS_H

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#pragma GCC diagnostic ignored "-Wclobbered"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "vrampool.h"
#include "vrampool_test_lib.h"

/* The error struct's bytes before a call: the kernel must write them all. */
#define VP_POISON	0xa5

/* ---- Fixtures ----------------------------------------------------------- */

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
int vp_setup_open_first(struct __test_metadata *_metadata,
			enum vp_backend backend, struct vp_device *dev);

/*
 * For a fixture setup: every device of @backend (VP_BACKEND_ANY: every
 * vrampool device), sorted by minor, into @devs, each opened read-write into
 * @fds; the other fds of the VP_MAX_DEVICES are -1. Returns how many.
 * Asserts that there is one at least and that each opens.
 */
int vp_setup_open_all(struct __test_metadata *_metadata, enum vp_backend backend,
		      struct vp_device *devs, int *fds);

/* For a fixture teardown: close the fds of vp_setup_open_all(). */
void vp_teardown_close_all(const int *fds);

/*
 * For a fixture setup: the device's alignment must be @want; @why (in the
 * log) says who needs it.
 */
void vp_require_alignment(struct __test_metadata *_metadata, int fd,
			  const struct vp_device *dev, uint64_t want,
			  const char *why);

/* ---- Allocations and pool statistics ------------------------------------ */

/* ALLOC that must succeed; @what names it in the log. */
#define VP_ALLOC_OK(fd, size, flags, a, what) do { \
	int __r = vp_alloc(fd, size, flags, a); \
	ASSERT_EQ(0, __r) { \
		TH_LOG("%s: ALLOC(%" PRIu64 ", flags %#x): %s (code %u)", what, \
		       (uint64_t)(size), (unsigned int)(flags), strerror(-__r), (a)->error.code); \
	} \
} while (0)

#define VP_FREE_OK(fd, handle, what) do { \
	int __r = vp_free(fd, handle); \
	ASSERT_EQ(0, __r) TH_LOG("%s: FREE(%u): %s", what, (unsigned int)(handle), strerror(-__r)); \
} while (0)

#define VP_INSTALL_OK(fd, entries, n, what) do { \
	struct drm_vrampool_pool_install __ins; \
	int __r = vp_install_list(fd, entries, n, &__ins); \
	ASSERT_EQ(0, __r) { \
		TH_LOG("%s: POOL_INSTALL: %s (code %u, entry %u, field %u)", what, \
		       strerror(-__r), __ins.error.code, __ins.error.entry, __ins.error.field); \
	} \
} while (0)

/* What a pool's statistics must be. */
struct vp_stats {
	uint64_t allocations;
	uint64_t bytes_in_use;
	uint64_t padding;
	uint64_t reserved_bytes;
	uint64_t pages;
	uint64_t pages_peak;
	uint64_t largest_alloc;
};

/*
 * Check every statistic of the pool at @index against @want; @when names
 * the step of the test in the log.
 */
#define VP_EXPECT_POOL(fd, index, when, ...) \
	vp_expect_pool(_metadata, fd, index, when, &(struct vp_stats){ __VA_ARGS__ })

void vp_expect_pool(struct __test_metadata *_metadata, int fd, uint32_t index,
		    const char *when, const struct vp_stats *want);

/* Only the pages and reserved bytes of a pool. */
#define VP_EXPECT_PAGES(fd, index, when, want_pages, want_reserved) \
	vp_expect_pages(_metadata, fd, index, when, want_pages, want_reserved)

void vp_expect_pages(struct __test_metadata *_metadata, int fd, uint32_t index,
		     const char *when, uint64_t pages, uint64_t reserved);

/* ---- Layouts ------------------------------------------------------------ */

/* One client of one device. */
struct vp_client {
	int fd;
	const char *name;		/* the device, for logs */
	const struct vp_props *props;
};

/* The libvrampool message for an ioctl's errno and structured error. */
void vp_expect_lib_message(struct __test_metadata *_metadata, const char *dev,
			   const char *what, int err,
			   const struct drm_vrampool_layout_error *le,
			   const char *message);

/*
 * The snapshot's layout is @expect (n pools at indexes 0..n-1, no
 * statistics), then the persistent pool at 255, and nothing else.
 */
void vp_check_layout(struct __test_metadata *_metadata, const char *dev,
		     const char *what, const struct vp_snap *s,
		     const struct drm_vrampool_pool_entry *expect, uint32_t n);

/* libvrampool's vrampool_layout_validate() resolves @req to @expect too. */
void vp_check_lib_resolves(struct __test_metadata *_metadata, const char *dev,
			   const char *what, const struct vp_props *p,
			   const struct drm_vrampool_pool_install *req,
			   const struct drm_vrampool_pool_entry *expect, uint32_t n);

/*
 * Install @req (valid), with its own flags: 0 and the layout @expect of
 * @n pools in force at the next generation, or with TEST_ONLY: 0, @n pools,
 * and nothing changed.
 */
void vp_check_installed(struct __test_metadata *_metadata,
			const struct vp_client *c, const char *what,
			const struct drm_vrampool_pool_install *req,
			const struct drm_vrampool_pool_entry *expect, uint32_t n);

/* What a refused install must answer. */
struct vp_refusal {
	int err;		/* errno (positive) */
	uint32_t code;		/* DRM_VRAMPOOL_ERR_*; NONE (all zero) for EFAULT */
	uint32_t entry;
	uint32_t field;
	uint64_t v0, v1;
	const char *message;	/* libvrampool's message (vrampoolctl's), or NULL */
	bool lib;		/* vrampool_layout_validate() must refuse it alike */
};

/* libvrampool refuses @req exactly as the kernel did. */
void vp_check_lib_refuses(struct __test_metadata *_metadata, const char *dev,
			  const char *what, const struct vp_props *p,
			  const struct drm_vrampool_pool_install *req, int kerr,
			  const struct drm_vrampool_layout_error *le);

/*
 * Install @req, once with its flags and once with TEST_ONLY added: both are
 * refused as @x says, report the generation in force and no pools, give
 * their [in] fields back untouched, and leave the layout byte for byte as
 * it was.
 */
void vp_check_refused(struct __test_metadata *_metadata,
		      const struct vp_client *c, const char *what,
		      const struct drm_vrampool_pool_install *req,
		      const struct vp_refusal *x);

/* ---- A client's sysfs folder and fdinfo --------------------------------- */

/*
 * One client of the first device of a backend, as the sysfs, fdinfo and
 * debugfs tests look at it. The numbers of those tests assume the module
 * defaults (alignment 256, sliced pools allowed): vp_sysfs_client_setup()
 * checks them.
 */
struct vp_sysfs_client {
	int fd;
	struct vp_device dev;
	uint64_t id;		/* fdinfo's drm-client-id */
	char cdir[VP_DIR_LEN];	/* its clients/<id> */
	uint64_t vram_size;
	uint64_t vram_start;	/* device VRAM in use at the start */
	uint64_t clients_start;	/* client_count at the start, this client in */
};

/* For a fixture setup: open @c on the first device of @backend. */
void vp_sysfs_client_setup(struct __test_metadata *_metadata,
			   enum vp_backend backend, struct vp_sysfs_client *c);

/* For a fixture teardown. */
void vp_sysfs_client_close(struct vp_sysfs_client *c);

/*
 * Fixture @f of the sysfs, fdinfo and debugfs tests: one variant per
 * backend, self->c opened by vp_sysfs_client_setup().
 */
#define VP_SYSFS_CLIENT_FIXTURE(f) \
	FIXTURE(f) { \
		struct vp_sysfs_client c; \
	}; \
	VP_BACKEND_VARIANTS(f); \
	FIXTURE_SETUP(f) \
	{ \
		vp_sysfs_client_setup(_metadata, variant->backend, &self->c); \
	} \
	FIXTURE_TEARDOWN(f) \
	{ \
		vp_sysfs_client_close(&self->c); \
	}

/* The folder @path holds exactly @want (sorted as vp_list_dir() sorts). */
void vp_expect_listing(struct __test_metadata *_metadata, const char *path,
		       const char *const *want, size_t n, const char *when);

/* @path reads exactly @want. */
void vp_expect_value(struct __test_metadata *_metadata, const char *path,
		     const char *want, const char *when);

void vp_expect_u64(struct __test_metadata *_metadata, const char *path,
		   uint64_t want, const char *when);

/* @dir/@file reads exactly @want, or the number @want. */
void vp_expect_file(struct __test_metadata *_metadata, const char *dir,
		    const char *file, const char *want, const char *when);

/* Writes @v, in decimal, to the sysfs file @path (a device's vram_quota); asserts it took. */
void vp_write_u64_ok(struct __test_metadata *_metadata, const char *path, uint64_t v);

void vp_expect_file_u64(struct __test_metadata *_metadata, const char *dir,
			const char *file, uint64_t want, const char *when);

/*
 * clients/<id>/ of @fd: its files, pid and comm as given, generation,
 * persistent_mode and vram as POOL_QUERY says, vram as fdinfo says, and
 * purgeable, reclaimed and reclaimed_pages as fdinfo's drm-purgeable-vram,
 * vrampool-reclaimed-bytes and vrampool-reclaimed-pages.
 */
void vp_expect_client_matches(struct __test_metadata *_metadata, const char *cdir,
			      int fd, pid_t pid, const char *comm,
			      const char *when);

/* Device VRAM in use by sysfs and by GET_PARAM, both @want. */
void vp_expect_device_vram(struct __test_metadata *_metadata,
			   const struct vp_device *dev, int fd, uint64_t want,
			   const char *when);

/*
 * POOL_QUERY into @s, checked: as many statuses as num_pools + 1, the last
 * the persistent pool. Returns the count, 0 on a failure.
 */
int vp_expect_snap(struct __test_metadata *_metadata, int fd, struct vp_snap *s,
		   const char *when);

/*
 * pools/ of the client of @fd (folder @cdir) against POOL_QUERY: exactly
 * 0..num_pools-1 and 255, each with exactly the pool files, each file the
 * status's value or "none".
 */
void vp_expect_pools_match(struct __test_metadata *_metadata, const char *cdir,
			   int fd, const char *when);

/* Field @name of the pool file <@cdir>/<@pool> reads exactly @want. */
void vp_expect_pool_stat(struct __test_metadata *_metadata, const char *cdir,
			 const char *pool, const char *name, const char *want,
			 const char *when);

/* ---- Fault injection ---------------------------------------------------- */

/*
 * Skip with VP_FAULT_SKIP_REASON when the kernel has no fault injection,
 * fail when the VM said it has.
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

/*
 * vp_fault_run() of @op, checked: every injected failure clean and then a
 * success, with at least @min_faults faults injected on the way (failed or
 * absorbed); the counts go to the log. @dev names the device in the log.
 * @min_faults 0 says the path allocates nothing, and that is checked too:
 * no fault is injected, the first call (nth 1) succeeds.
 */
void vp_fault_check(struct __test_metadata *_metadata, const struct vp_fault_op *op,
		    const char *dev, unsigned int min_faults);

#endif /* VRAMPOOL_TEST_HARNESS_H */

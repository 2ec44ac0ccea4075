// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sharing a device between clients, on each backend (the first device of
 * each):
 *
 *  - VRAM a neighbour cannot fragment: client A holds one 4 KiB buffer in
 *    every 16 MiB of VRAM (the debugfs vram_mm dump shows no free block of
 *    16 MiB or more left), yet client B gets a page of half the VRAM and
 *    then one of all the VRAM still free, each mapped and stamped page by
 *    page without touching A's buffers; one more page is "VRAM full"
 *    (-ENOSPC), not "kernel memory failed";
 *  - the debugfs test buffers copy through the blocks: with VRAM so
 *    scattered, a test_bo of 3 x 16 MiB + 12 KiB spans many blocks, and two
 *    patterns written over it (the second from an odd offset) read back;
 *  - orphans charged, never evicted: A maps a page (64 MiB, or half of a
 *    smaller VRAM), frees and cleans it up, so only the mapping keeps it;
 *    B fills the VRAM. MemAvailable drops less than 16 MiB (the orphan did
 *    not move to system RAM), A's mapping still reads its pattern, and the
 *    device's VRAM in use, A's fdinfo (drm-total-vram, drm-resident-vram,
 *    vrampool-orphan-vram, vrampool-orphans), POOL_QUERY and sysfs vram
 *    all still count the orphan, also once half the mapping is gone;
 *    after the last munmap() they drop and B gets the orphan's VRAM.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vrampool_test_harness.h"
#include "vrampool.h"

#define STRIDE		(16 * MiB)
#define VP_PAGE		4096u

FIXTURE(share) {
	int a, b;			/* the two clients */
	struct vp_device dev;
	uint64_t vram_size;
	bool knob_touched;		/* test_bo_size changed */
};

VP_BACKEND_VARIANTS(share);

FIXTURE_SETUP(share)
{
	self->b = -1;
	self->a = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	self->b = vp_open_device(&self->dev);
	ASSERT_LE(0, self->b) TH_LOG("open %s: %s", self->dev.path, strerror(-self->b));
	ASSERT_EQ(0, vp_get_param(self->a, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram_size));
	ASSERT_LE(4 * STRIDE, self->vram_size) TH_LOG("%s: too small", self->dev.name);
}

FIXTURE_TEARDOWN(share)
{
	if (self->knob_touched)
		vp_test_bo_size_set(&self->dev, VP_DEFAULT_BO_SIZE);
	if (self->a >= 0)
		close(self->a);
	if (self->b >= 0)
		close(self->b);
}

static uint64_t vram_free(int fd)
{
	uint64_t size = 0, used = 0;

	vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &size);
	vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &used);
	return size - used;
}

static void *map_alloc(int fd, const struct drm_vrampool_alloc *a)
{
	void *p = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       a->mmap_offset);

	return p == MAP_FAILED ? NULL : p;
}

/* Each CPU page of @p gets its own number at both ends. */
static void stamp_pages(void *p, uint64_t len, uint64_t seed)
{
	uint64_t i;

	for (i = 0; i < len / VP_PAGE; i++) {
		volatile uint64_t *pg = (volatile uint64_t *)((char *)p + i * VP_PAGE);

		pg[0] = seed << 32 | i;
		pg[VP_PAGE / 8 - 1] = ~(seed << 32 | i);
	}
}

/* The first page of @p whose stamp is wrong, or -1. */
static int64_t check_stamps(const void *p, uint64_t len, uint64_t seed)
{
	uint64_t i;

	for (i = 0; i < len / VP_PAGE; i++) {
		const volatile uint64_t *pg = (const volatile uint64_t *)((const char *)p +
									 i * VP_PAGE);

		if (pg[0] != (seed << 32 | i) || pg[VP_PAGE / 8 - 1] != ~(seed << 32 | i))
			return (int64_t)i;
	}
	return -1;
}

/* Free blocks of @min_bytes or more in the debugfs vram_mm dump, or -errno. */
static int64_t free_blocks_from(const struct vp_device *dev, uint64_t min_bytes)
{
	char path[PATH_MAX], text[8192], *line;
	unsigned long long chunk_kib = 0, blocks;
	int64_t count = 0;
	bool seen = false;
	int order, ret;

	ret = vp_debugfs_ready();
	if (!ret)
		ret = vp_debugfs_path(dev, "vram_mm", path, sizeof(path));
	if (!ret)
		ret = vp_read_file(path, text, sizeof(text));
	if (ret)
		return ret;
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		const char *c = strstr(line, "chunk_size: ");
		const char *b = strstr(line, "blocks: ");

		if (c)
			sscanf(c, "chunk_size: %lluKiB", &chunk_kib);
		if (sscanf(line, "order-%d", &order) != 1 || !b || !chunk_kib)
			continue;
		if (sscanf(b, "blocks: %llu", &blocks) != 1)
			return -EBADMSG;
		seen = true;
		if ((chunk_kib << 10 << order) >= min_bytes)
			count += blocks;
	}
	return seen ? count : -EBADMSG;
}

/*
 * A: a 4 KiB persistent buffer, then one of 16 MiB - 4 KiB, over and over
 * until VRAM is full; then the large ones are freed and cleaned up, so A
 * holds 4 KiB scattered over VRAM. Returns how many small ones A holds.
 */
static unsigned int scatter_small(struct __test_metadata *_metadata, int fd, uint64_t vram,
				  struct drm_vrampool_alloc *small)
{
	struct drm_vrampool_alloc big;
	unsigned int n = 0, i;
	uint32_t bigs[64];
	int ret;

	while (n < vram / STRIDE && n < 64) {
		ret = vp_alloc(fd, VP_PAGE, DRM_VRAMPOOL_ALLOC_PERSISTENT, &small[n]);
		if (ret == -ENOSPC)
			break;
		EXPECT_EQ(0, ret) TH_LOG("small buffer %u: %s", n, strerror(-ret));
		if (ret)
			break;
		ret = vp_alloc(fd, STRIDE - VP_PAGE, DRM_VRAMPOOL_ALLOC_PERSISTENT, &big);
		bigs[n++] = ret ? 0 : big.handle;
		if (ret == -ENOSPC)
			break;
		EXPECT_EQ(0, ret) TH_LOG("large buffer %u: %s", n, strerror(-ret));
		if (ret)
			break;
	}
	for (i = 0; i < n; i++)
		if (bigs[i])
			EXPECT_EQ(0, vp_free(fd, bigs[i]));
	EXPECT_EQ(0, vp_cleanup(fd));
	return n;
}

TEST_F(share, scattered_neighbour_does_not_fragment)
{
	uint64_t want_half = self->vram_size / 2, free_now;
	struct drm_vrampool_alloc half, rest, more;
	struct drm_vrampool_alloc small[64];
	void *ph, *pr, *ps[64];
	unsigned int n, i;
	int64_t big_free, bad;

	n = scatter_small(_metadata, self->a, self->vram_size, small);
	ASSERT_LE(4u, n) TH_LOG("A holds only %u small buffers", n);
	for (i = 0; i < n; i++) {
		ps[i] = map_alloc(self->a, &small[i]);
		ASSERT_NE(NULL, ps[i]) TH_LOG("mmap of A's buffer %u: %s", i, strerror(errno));
		stamp_pages(ps[i], VP_PAGE, 100 + i);
	}

	big_free = free_blocks_from(&self->dev, STRIDE);
	ASSERT_LE(0, big_free) TH_LOG("debugfs vram_mm: %s", strerror((int)-big_free));
	ASSERT_EQ(0, big_free) {
		TH_LOG("A's %u buffers left %" PRId64 " free blocks of 16 MiB or more:", n,
		       big_free);
		TH_LOG("the setup did not scatter them; the test proves nothing");
	}
	TH_LOG("A holds %u x 4 KiB, no free block of 16 MiB left; %" PRIu64 " MiB free",
	       n, vram_free(self->a) >> 20);

	VP_ALLOC_OK(self->b, want_half, DRM_VRAMPOOL_ALLOC_PERSISTENT, &half, "B: half the VRAM");
	ph = map_alloc(self->b, &half);
	ASSERT_NE(NULL, ph) TH_LOG("mmap of B's half: %s", strerror(errno));
	stamp_pages(ph, want_half, 1);

	free_now = vram_free(self->b);
	ASSERT_LT(0u, free_now);
	VP_ALLOC_OK(self->b, free_now, DRM_VRAMPOOL_ALLOC_PERSISTENT, &rest, "B: all the rest");
	EXPECT_EQ(0u, vram_free(self->b)) TH_LOG("VRAM is full");
	pr = map_alloc(self->b, &rest);
	ASSERT_NE(NULL, pr) TH_LOG("mmap of B's rest: %s", strerror(errno));
	stamp_pages(pr, free_now, 2);

	EXPECT_EQ(-ENOSPC, vp_alloc(self->b, VP_PAGE, DRM_VRAMPOOL_ALLOC_PERSISTENT, &more))
		TH_LOG("full VRAM is -ENOSPC (OutOfMemory), not -ENOMEM");

	bad = check_stamps(ph, want_half, 1);
	EXPECT_EQ(-1, bad) TH_LOG("B's half: page %" PRId64 " reads another's data", bad);
	bad = check_stamps(pr, free_now, 2);
	EXPECT_EQ(-1, bad) TH_LOG("B's rest: page %" PRId64 " reads another's data", bad);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(-1, check_stamps(ps[i], VP_PAGE, 100 + i))
			TH_LOG("A's buffer %u was overwritten", i);
		munmap(ps[i], VP_PAGE);
	}

	munmap(ph, want_half);
	munmap(pr, free_now);
	VP_FREE_OK(self->b, half.handle, "B's half");
	VP_FREE_OK(self->b, rest.handle, "B's rest");
	EXPECT_EQ(0, vp_cleanup(self->b));
	for (i = 0; i < n; i++)
		VP_FREE_OK(self->a, small[i].handle, "A's small buffer");
	EXPECT_EQ(0, vp_cleanup(self->a));
}

TEST_F(share, test_bo_copies_through_scattered_blocks)
{
	const uint64_t size = 3 * STRIDE + 3 * VP_PAGE, odd = STRIDE / 2 + 1234;
	struct drm_vrampool_alloc small[64];
	unsigned int n, i;
	int64_t bad;
	int ret, fd;

	n = scatter_small(_metadata, self->a, self->vram_size, small);
	ASSERT_LE(4u, n) TH_LOG("A holds only %u small buffers", n);
	ASSERT_EQ(0, free_blocks_from(&self->dev, STRIDE)) TH_LOG("VRAM is not scattered");

	self->knob_touched = true;
	ret = vp_test_bo_size_set(&self->dev, size);
	ASSERT_EQ(0, ret) TH_LOG("test_bo_size: %s", strerror(-ret));
	fd = vp_test_bo_open(&self->dev);
	ASSERT_LE(0, fd) TH_LOG("test_bo of %" PRIu64 " bytes: %s", size, strerror(-fd));

	ASSERT_EQ(0, vp_write_pattern(fd, 0, size, 11));
	bad = vp_verify_pattern(fd, 0, size, 11);
	EXPECT_EQ(-1, bad) TH_LOG("first pattern: byte %" PRId64 " differs", bad);
	ASSERT_EQ(0, vp_write_pattern(fd, odd, size - odd - 5, 12));
	bad = vp_verify_pattern(fd, 0, odd, 11);
	EXPECT_EQ(-1, bad) TH_LOG("head of the first pattern: byte %" PRId64 " differs", bad);
	bad = vp_verify_pattern(fd, odd, size - odd - 5, 12);
	EXPECT_EQ(-1, bad) TH_LOG("second pattern: byte %" PRId64 " differs", bad);
	bad = vp_verify_pattern(fd, size - 5, 5, 11);
	EXPECT_EQ(-1, bad) TH_LOG("tail of the first pattern: byte %" PRId64 " differs", bad);
	close(fd);

	for (i = 0; i < n; i++)
		VP_FREE_OK(self->a, small[i].handle, "A's small buffer");
	EXPECT_EQ(0, vp_cleanup(self->a));
}

/* MemAvailable from /proc/meminfo, in bytes; 0 if unreadable. */
static uint64_t mem_available(void)
{
	return vp_meminfo_bytes("MemAvailable");
}

static uint64_t fdinfo_bytes(struct __test_metadata *_metadata, int fd, const char *key)
{
	uint64_t v = UINT64_MAX;
	int ret = vp_fdinfo_size(fd, key, &v);

	EXPECT_EQ(0, ret) TH_LOG("fdinfo %s: %s", key, strerror(-ret));
	return v;
}

static uint64_t sysfs_client_vram(const struct vp_device *dev, int fd)
{
	char dir[PATH_MAX], path[PATH_MAX + 8];
	uint64_t id, v = UINT64_MAX;

	if (vp_client_id(fd, &id))
		return UINT64_MAX;
	vp_sysfs_client_path(dev, id, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/vram", dir);
	if (vp_read_u64_file(path, &v))
		return UINT64_MAX;
	return v;
}

/* B takes VRAM in persistent buffers until it is full; returns the bytes. */
static uint64_t fill_vram(struct __test_metadata *_metadata, int fd, uint32_t *handles,
			  unsigned int max, unsigned int *count)
{
	static const uint64_t sizes[] = { 16 * MiB, MiB, 64 * 1024, VP_PAGE };
	struct drm_vrampool_alloc a;
	uint64_t total = 0;
	unsigned int s;
	int ret;

	*count = 0;
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		while (*count < max) {
			ret = vp_alloc(fd, sizes[s], DRM_VRAMPOOL_ALLOC_PERSISTENT, &a);
			if (ret == -ENOSPC)
				break;
			EXPECT_EQ(0, ret) TH_LOG("fill: %s", strerror(-ret));
			if (ret)
				return total;
			handles[(*count)++] = a.handle;
			total += sizes[s];
		}
	}
	return total;
}

TEST_F(share, orphan_stays_in_vram_and_charged)
{
	uint64_t orphan = self->vram_size / 2 < 64 * MiB ? self->vram_size / 2 : 64 * MiB;
	uint64_t used0, used1, used2, avail0, avail1, filled, v;
	struct drm_vrampool_alloc a, again;
	struct drm_vrampool_pool_query q;
	unsigned int count, i;
	uint32_t handles[512];
	int64_t bad;
	void *p;

	ASSERT_EQ(0, vp_get_param(self->a, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &used0));
	VP_ALLOC_OK(self->a, orphan, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "A's page");
	p = map_alloc(self->a, &a);
	ASSERT_NE(NULL, p) TH_LOG("mmap: %s", strerror(errno));
	stamp_pages(p, orphan, 7);
	VP_FREE_OK(self->a, a.handle, "A frees its page");
	ASSERT_EQ(0, vp_cleanup(self->a));

	/* Only the mapping holds it now: an orphan, charged to A. */
	EXPECT_EQ(orphan, fdinfo_bytes(_metadata, self->a, "vrampool-orphan-vram"));
	EXPECT_EQ(1u, fdinfo_bytes(_metadata, self->a, "vrampool-orphans"));
	EXPECT_EQ(orphan, fdinfo_bytes(_metadata, self->a, "drm-total-vram"));
	EXPECT_EQ(orphan, fdinfo_bytes(_metadata, self->a, "drm-resident-vram"));
	EXPECT_EQ(orphan, sysfs_client_vram(&self->dev, self->a));
	ASSERT_EQ(0, vp_query_head(self->a, &q));
	EXPECT_EQ(orphan, q.vram_in_use);
	ASSERT_EQ(0, vp_get_param(self->a, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &used1));
	EXPECT_EQ(used0 + orphan, used1) TH_LOG("the device counts the orphan");

	avail0 = mem_available();
	ASSERT_LT(0u, avail0) TH_LOG("MemAvailable");
	filled = fill_vram(_metadata, self->b, handles, 512, &count);
	avail1 = mem_available();
	TH_LOG("B filled %" PRIu64 " MiB in %u buffers; MemAvailable %" PRIu64 " -> %" PRIu64
	       " MiB", filled >> 20, count, avail0 >> 20, avail1 >> 20);
	EXPECT_EQ(self->vram_size - used1, filled) TH_LOG("B got all VRAM but the orphan's");
	EXPECT_GT(avail1 + 16 * MiB, avail0) TH_LOG("the orphan went to system RAM");

	bad = check_stamps(p, orphan, 7);
	EXPECT_EQ(-1, bad) TH_LOG("A's mapping: page %" PRId64 " lost its data", bad);
	ASSERT_EQ(0, vp_get_param(self->a, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &v));
	EXPECT_EQ(self->vram_size, v) TH_LOG("VRAM in use still counts the orphan");
	EXPECT_EQ(orphan, fdinfo_bytes(_metadata, self->a, "drm-total-vram"));
	EXPECT_EQ(1u, fdinfo_bytes(_metadata, self->a, "vrampool-orphans"));

	/* Half a mapping still holds the whole orphan. */
	ASSERT_EQ(0, munmap(p, orphan / 2));
	EXPECT_EQ(orphan, fdinfo_bytes(_metadata, self->a, "vrampool-orphan-vram"));
	EXPECT_EQ(1u, fdinfo_bytes(_metadata, self->a, "vrampool-orphans"));
	EXPECT_EQ(7ull << 32 | (orphan / 2 / VP_PAGE),
		  *(volatile uint64_t *)((char *)p + orphan / 2))
		TH_LOG("A's remaining half lost its data");
	ASSERT_EQ(0, munmap((char *)p + orphan / 2, orphan / 2));
	EXPECT_EQ(0u, fdinfo_bytes(_metadata, self->a, "vrampool-orphan-vram"));
	EXPECT_EQ(0u, fdinfo_bytes(_metadata, self->a, "vrampool-orphans"));
	EXPECT_EQ(0u, fdinfo_bytes(_metadata, self->a, "drm-total-vram"));
	EXPECT_EQ(0u, sysfs_client_vram(&self->dev, self->a));
	ASSERT_EQ(0, vp_get_param(self->a, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &used2));
	EXPECT_EQ(self->vram_size - orphan, used2) TH_LOG("munmap gave the orphan's VRAM back");
	VP_ALLOC_OK(self->b, orphan, DRM_VRAMPOOL_ALLOC_PERSISTENT, &again,
		    "B takes the orphan's VRAM");
	VP_FREE_OK(self->b, again.handle, "B's last buffer");

	for (i = 0; i < count; i++)
		VP_FREE_OK(self->b, handles[i], "B's fill");
	EXPECT_EQ(0, vp_cleanup(self->b));
}

TEST_HARNESS_MAIN

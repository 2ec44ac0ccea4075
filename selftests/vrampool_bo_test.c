// SPDX-License-Identifier: GPL-2.0-only
/*
 * VRAM buffer objects through the debugfs test-only interface
 * (/sys/kernel/debug/accel/<device>/test_bo and test_bo_size), on each
 * backend: fresh BOs are zero, data round-trips at any offset and length,
 * freed data never reaches the next BO, VRAM_IN_USE follows the BOs, the
 * size knob is validated, and VRAM exhaustion fails with ENOSPC.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define MAX_BOS		64
/* The fill test splits VRAM into this many BOs. */
#define FILL_PARTS	16

FIXTURE(bo) {
	struct vp_device dev;
	int fd;			/* an accel client, for GET_PARAM */
	uint64_t vram;		/* VRAM_SIZE */
	uint64_t base;		/* VRAM_IN_USE when the test started */
	uint64_t size_at_start;	/* test_bo_size before setup touched it */
	bool knob_touched;
	int bos[MAX_BOS];
};

VP_BACKEND_VARIANTS(bo);

FIXTURE_SETUP(bo)
{
	int i, ret;

	self->fd = -1;
	for (i = 0; i < MAX_BOS; i++)
		self->bos[i] = -1;

	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ret = vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &self->vram);
	ASSERT_EQ(0, ret) TH_LOG("VRAM_SIZE: %s", strerror(-ret));
	ret = vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->base);
	ASSERT_EQ(0, ret) TH_LOG("VRAM_IN_USE: %s", strerror(-ret));

	ret = vp_debugfs_ready();
	ASSERT_EQ(0, ret) TH_LOG("debugfs: %s", strerror(-ret));
	ret = vp_test_bo_size_get(&self->dev, &self->size_at_start);
	ASSERT_EQ(0, ret) TH_LOG("%s: test_bo_size: %s", self->dev.name, strerror(-ret));
	/* Start from the default even if an earlier test died mid-way. */
	self->knob_touched = true;
	ret = vp_test_bo_size_set(&self->dev, VP_DEFAULT_BO_SIZE);
	ASSERT_EQ(0, ret) TH_LOG("%s: test_bo_size: %s", self->dev.name, strerror(-ret));
}

FIXTURE_TEARDOWN(bo)
{
	int i;

	for (i = 0; i < MAX_BOS; i++)
		if (self->bos[i] >= 0)
			close(self->bos[i]);
	if (self->knob_touched)
		vp_test_bo_size_set(&self->dev, VP_DEFAULT_BO_SIZE);
	if (self->fd >= 0)
		close(self->fd);
}

static uint64_t in_use(struct __test_metadata *_metadata, FIXTURE_DATA(bo) *self)
{
	uint64_t v = ~0ULL;
	int ret;

	ret = vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &v);
	ASSERT_EQ(0, ret) TH_LOG("%s: VRAM_IN_USE: %s", self->dev.name, strerror(-ret));
	return v;
}

static void set_size(struct __test_metadata *_metadata, FIXTURE_DATA(bo) *self,
		     uint64_t size)
{
	int ret = vp_test_bo_size_set(&self->dev, size);

	ASSERT_EQ(0, ret) {
		TH_LOG("%s: test_bo_size=%llu: %s", self->dev.name,
		       (unsigned long long)size, strerror(-ret));
	}
}

/* A new BO of @size bytes, recorded in self->bos[@slot]. */
static int open_bo(struct __test_metadata *_metadata, FIXTURE_DATA(bo) *self,
		   int slot, uint64_t size)
{
	int fd;

	set_size(_metadata, self, size);
	fd = vp_test_bo_open(&self->dev);
	ASSERT_LE(0, fd) {
		TH_LOG("%s: open test_bo of %llu bytes (in use %llu of %llu): %s",
		       self->dev.name, (unsigned long long)size,
		       (unsigned long long)in_use(_metadata, self),
		       (unsigned long long)self->vram, strerror(-fd));
	}
	self->bos[slot] = fd;
	return fd;
}

static void close_bo(FIXTURE_DATA(bo) *self, int slot)
{
	close(self->bos[slot]);
	self->bos[slot] = -1;
}

/* Bytes readable through read(2) from the start until end of file. */
static int64_t readable_bytes(int fd, bool *all_zero)
{
	char buf[3001];		/* an odd chunk size on purpose */
	int64_t total = 0;
	ssize_t n;

	*all_zero = true;
	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (vp_first_nonzero(buf, n) >= 0)
			*all_zero = false;
		total += n;
	}
	return n < 0 ? -1 : total;
}

/* Runs first: nothing has touched the knob yet in this test run. */
TEST_F(bo, size_knob_default)
{
	EXPECT_EQ(VP_DEFAULT_BO_SIZE, (unsigned long long)self->size_at_start) {
		TH_LOG("%s: test_bo_size starts at %llu", self->dev.name,
		       (unsigned long long)self->size_at_start);
	}
}

TEST_F(bo, new_bo_reads_zero)
{
	bool zero;
	int64_t n;
	char c;
	int fd;

	fd = open_bo(_metadata, self, 0, VP_DEFAULT_BO_SIZE);
	n = readable_bytes(fd, &zero);
	ASSERT_EQ((int64_t)VP_DEFAULT_BO_SIZE, n) TH_LOG("%s: read: %s", self->dev.name, strerror(errno));
	EXPECT_TRUE(zero) TH_LOG("%s: a new BO is not zero-filled", self->dev.name);
	/* at end of file, read keeps returning 0 */
	EXPECT_EQ(0, read(fd, &c, 1));
}

TEST_F(bo, write_read_back_whole)
{
	const size_t size = VP_DEFAULT_BO_SIZE;
	uint8_t *in, *out;
	ssize_t n;
	int fd;

	in = malloc(size);
	out = malloc(size);
	ASSERT_TRUE(in && out);
	vp_fill_pattern(in, size, 7, 0);

	fd = open_bo(_metadata, self, 0, size);
	n = pwrite(fd, in, size, 0);
	ASSERT_EQ((ssize_t)size, n) TH_LOG("%s: pwrite: %s", self->dev.name, strerror(errno));

	memset(out, 0, size);
	n = vp_pread_all(fd, out, size, 0);
	ASSERT_EQ((ssize_t)size, n) TH_LOG("%s: pread: %s", self->dev.name, strerror(-n));
	EXPECT_EQ(-1, vp_check_pattern(out, size, 7, 0)) TH_LOG("%s: pread differs", self->dev.name);

	/* the same through the file position */
	memset(out, 0, size);
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	n = read(fd, out, size);
	ASSERT_EQ((ssize_t)size, n) TH_LOG("%s: read: %s", self->dev.name, strerror(errno));
	EXPECT_EQ(0, memcmp(in, out, size)) TH_LOG("%s: read differs", self->dev.name);

	/* write() at the position, then read it back */
	vp_fill_pattern(in, size, 8, 0);
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	ASSERT_EQ((ssize_t)size, write(fd, in, size)) TH_LOG("%s: write: %s", self->dev.name, strerror(errno));
	EXPECT_EQ((off_t)size, lseek(fd, 0, SEEK_CUR));
	n = vp_pread_all(fd, out, size, 0);
	ASSERT_EQ((ssize_t)size, n);
	EXPECT_EQ(-1, vp_check_pattern(out, size, 8, 0)) TH_LOG("%s: write() data differs", self->dev.name);
	free(in);
	free(out);
}

TEST_F(bo, odd_offsets_and_lengths)
{
	static const struct { uint32_t off, len; } ops[] = {
		{ 0, 1 }, { 1, 1 }, { 3, 5 }, { 7, 4093 }, { 4095, 2 },
		{ 4096, 1 }, { 4097, 12345 }, { 30000, 3 }, { 65535, 1 },
		{ 65536 - 7, 7 }, { 12288 - 1, 4098 }, { 100, 65000 },
	};
	const size_t size = VP_DEFAULT_BO_SIZE;
	uint8_t *shadow, *buf;
	size_t k;
	ssize_t n;
	int fd;

	shadow = malloc(size);
	buf = malloc(size);
	ASSERT_TRUE(shadow && buf);

	fd = open_bo(_metadata, self, 0, size);
	vp_fill_pattern(shadow, size, 1, 0);
	ASSERT_EQ(0, vp_write_pattern(fd, 0, size, 1));

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		uint32_t seed = 100 + k;

		vp_fill_pattern(buf, ops[k].len, seed, ops[k].off);
		n = pwrite(fd, buf, ops[k].len, ops[k].off);
		ASSERT_EQ((ssize_t)ops[k].len, n) {
			TH_LOG("%s: pwrite %u@%u: %s", self->dev.name, ops[k].len,
			       ops[k].off, strerror(errno));
		}
		memcpy(shadow + ops[k].off, buf, ops[k].len);

		/* read back the same range and one byte either side */
		{
			size_t lo = ops[k].off ? ops[k].off - 1 : 0;
			size_t hi = ops[k].off + ops[k].len < size ?
				    ops[k].off + ops[k].len + 1 : size;

			n = pread(fd, buf, hi - lo, lo);
			ASSERT_EQ((ssize_t)(hi - lo), n) {
				TH_LOG("%s: pread %zu@%zu: %s", self->dev.name,
				       hi - lo, lo, strerror(errno));
			}
			EXPECT_EQ(0, memcmp(shadow + lo, buf, hi - lo)) {
				TH_LOG("%s: range %zu..%zu differs after pwrite %u@%u",
				       self->dev.name, lo, hi, ops[k].len, ops[k].off);
			}
		}
	}

	n = vp_pread_all(fd, buf, size, 0);
	ASSERT_EQ((ssize_t)size, n);
	EXPECT_EQ(0, memcmp(shadow, buf, size)) TH_LOG("%s: BO differs from its model", self->dev.name);
	free(shadow);
	free(buf);
}

TEST_F(bo, file_position)
{
	const uint64_t size = VP_DEFAULT_BO_SIZE;
	uint8_t buf[64], back[64];
	int fd;

	fd = open_bo(_metadata, self, 0, size);
	EXPECT_EQ(0, lseek(fd, 0, SEEK_CUR));
	ASSERT_EQ(100, lseek(fd, 100, SEEK_SET));
	vp_fill_pattern(buf, 10, 3, 100);
	ASSERT_EQ(10, write(fd, buf, 10));
	EXPECT_EQ(110, lseek(fd, 0, SEEK_CUR));
	EXPECT_EQ(105, lseek(fd, -5, SEEK_CUR));
	ASSERT_EQ(5, read(fd, back, 5));
	EXPECT_EQ(0, memcmp(buf + 5, back, 5));
	EXPECT_EQ(110, lseek(fd, 0, SEEK_CUR));
	/* the end is the BO size */
	EXPECT_EQ((off_t)size, lseek(fd, 0, SEEK_END)) TH_LOG("%s", self->dev.name);
	EXPECT_EQ((off_t)size - 4, lseek(fd, -4, SEEK_END));
	EXPECT_EQ(4, read(fd, back, sizeof(back)));
	EXPECT_EQ(0, read(fd, back, sizeof(back)));
	/* negative positions are refused */
	errno = 0;
	EXPECT_EQ(-1, lseek(fd, -1, SEEK_SET));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(bo, read_at_and_past_end)
{
	const uint64_t size = VP_DEFAULT_BO_SIZE;
	uint8_t buf[128];
	int fd;

	fd = open_bo(_metadata, self, 0, size);
	ASSERT_EQ(0, vp_write_pattern(fd, 0, size, 5));

	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), size)) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), size + 1));
	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), size + 4096));
	EXPECT_EQ(0, pread(fd, buf, sizeof(buf), 1LL << 40));
	/* a read crossing the end is cut at the end */
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(10, pread(fd, buf, sizeof(buf), size - 10)) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	EXPECT_EQ(-1, vp_check_pattern(buf, 10, 5, size - 10));
	EXPECT_EQ(-1, vp_first_nonzero(buf + 10, sizeof(buf) - 10)) TH_LOG("read wrote past its count");
	ASSERT_EQ(1, pread(fd, buf, sizeof(buf), size - 1));
	EXPECT_EQ(vp_pattern_byte(5, size - 1), buf[0]);
	/* read() at the end position */
	ASSERT_EQ((off_t)size, lseek(fd, size, SEEK_SET));
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));
}

TEST_F(bo, write_at_and_past_end)
{
	const uint64_t size = VP_DEFAULT_BO_SIZE;
	uint8_t buf[128], back[16];
	int64_t bad;
	int fd;

	fd = open_bo(_metadata, self, 0, size);
	vp_fill_pattern(buf, sizeof(buf), 9, 0);

	errno = 0;
	EXPECT_EQ(-1, pwrite(fd, buf, 1, size)) TH_LOG("%s: write at the end accepted", self->dev.name);
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, pwrite(fd, buf, sizeof(buf), size + 1));
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, pwrite(fd, buf, sizeof(buf), size + 4096));
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	errno = 0;
	EXPECT_EQ(-1, pwrite(fd, buf, sizeof(buf), 1LL << 40));
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	/* write() at the end position */
	ASSERT_EQ((off_t)size, lseek(fd, size, SEEK_SET));
	errno = 0;
	EXPECT_EQ(-1, write(fd, buf, 1));
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s: %s", self->dev.name, strerror(errno));

	/* nothing of that reached the BO */
	bad = vp_verify_zero(fd, 0, size);
	EXPECT_EQ(-1, bad) TH_LOG("%s: byte %lld changed by a refused write", self->dev.name, (long long)bad);

	/* a write crossing the end is truncated to the size */
	vp_fill_pattern(buf, sizeof(buf), 9, size - 10);
	ASSERT_EQ(10, pwrite(fd, buf, sizeof(buf), size - 10)) TH_LOG("%s: %s", self->dev.name, strerror(errno));
	ASSERT_EQ(10, pread(fd, back, sizeof(back), size - 10));
	EXPECT_EQ(-1, vp_check_pattern(back, 10, 9, size - 10));
	ASSERT_EQ(1, pwrite(fd, buf, 2, size - 1));
	EXPECT_EQ(-1, vp_verify_zero(fd, 0, size - 10)) TH_LOG("%s: bytes before the write changed", self->dev.name);
}

/* Data written to a BO is gone once it is freed: the next BO reads zero. */
TEST_F(bo, freed_data_not_seen)
{
	static const uint64_t sizes[] = { 65536, 4096, 4096 * 3 + 1, 1 << 20 };
	size_t s;
	int iter;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (iter = 0; iter < 4; iter++) {
			uint32_t seed = 1000 + s * 10 + iter;
			int64_t bad;
			int fd;

			fd = open_bo(_metadata, self, 0, sizes[s]);
			ASSERT_EQ(0, vp_write_pattern(fd, 0, sizes[s], seed));
			ASSERT_EQ(-1, vp_verify_pattern(fd, 0, sizes[s], seed));
			close_bo(self, 0);

			fd = open_bo(_metadata, self, 0, sizes[s]);
			bad = vp_verify_zero(fd, 0, sizes[s]);
			EXPECT_EQ(-1, bad) {
				TH_LOG("%s: new %llu-byte BO shows old data at %lld (iteration %d)",
				       self->dev.name, (unsigned long long)sizes[s],
				       (long long)bad, iter);
			}
			close_bo(self, 0);
		}
	}
}

/* Two freed neighbours, then one BO spanning both: still all zero. */
TEST_F(bo, freed_neighbours_not_seen)
{
	const uint64_t size = VP_DEFAULT_BO_SIZE;
	int64_t bad;
	int i, fd;

	for (i = 0; i < 4; i++) {
		fd = open_bo(_metadata, self, i, size);
		ASSERT_EQ(0, vp_write_pattern(fd, 0, size, 2000 + i));
	}
	for (i = 0; i < 4; i++)
		close_bo(self, i);

	fd = open_bo(_metadata, self, 0, 4 * size);
	bad = vp_verify_zero(fd, 0, 4 * size);
	EXPECT_EQ(-1, bad) TH_LOG("%s: old data at %lld", self->dev.name, (long long)bad);
}

TEST_F(bo, vram_in_use_accounting)
{
	static const uint64_t sizes[] = {
		1, 4095, 4096, 4097, 5000, 65536, 65537, 3 * 4096 + 17, 1 << 20,
	};
	size_t k;

	ASSERT_EQ(self->base, in_use(_metadata, self));
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t rounded = vp_align_up(sizes[k], VP_CPU_PAGE);
		bool zero;
		int64_t n;
		int fd;

		fd = open_bo(_metadata, self, 0, sizes[k]);
		EXPECT_EQ(self->base + rounded, in_use(_metadata, self)) {
			TH_LOG("%s: a %llu-byte BO", self->dev.name, (unsigned long long)sizes[k]);
		}
		/* the file holds exactly the requested bytes */
		n = readable_bytes(fd, &zero);
		EXPECT_EQ((int64_t)sizes[k], n) {
			TH_LOG("%s: a %llu-byte BO reads %lld bytes", self->dev.name,
			       (unsigned long long)sizes[k], (long long)n);
		}
		EXPECT_TRUE(zero);
		close_bo(self, 0);
		EXPECT_EQ(self->base, in_use(_metadata, self)) {
			TH_LOG("%s: after freeing a %llu-byte BO", self->dev.name,
			       (unsigned long long)sizes[k]);
		}
	}
}

/* A BO keeps the size it was made with when the knob changes later. */
TEST_F(bo, size_fixed_at_open)
{
	bool zero;
	int fd;

	fd = open_bo(_metadata, self, 0, 8192);
	set_size(_metadata, self, 65536);
	EXPECT_EQ(8192, readable_bytes(fd, &zero));
	EXPECT_EQ(self->base + 8192, in_use(_metadata, self));
	open_bo(_metadata, self, 1, 65536);
	EXPECT_EQ(self->base + 8192 + 65536, in_use(_metadata, self));
	EXPECT_EQ(65536, readable_bytes(self->bos[1], &zero));
}

static void expect_knob_einval(struct __test_metadata *_metadata,
			       FIXTURE_DATA(bo) *self, const char *str)
{
	uint64_t after = 0;
	int ret;

	ret = vp_test_bo_size_write_str(&self->dev, str);
	EXPECT_EQ(-EINVAL, ret) {
		TH_LOG("%s: test_bo_size <- '%s': %s", self->dev.name, str,
		       ret ? strerror(-ret) : "accepted");
	}
	ret = vp_test_bo_size_get(&self->dev, &after);
	ASSERT_EQ(0, ret);
	EXPECT_EQ(VP_DEFAULT_BO_SIZE, (unsigned long long)after) {
		TH_LOG("%s: refused '%s' changed test_bo_size to %llu",
		       self->dev.name, str, (unsigned long long)after);
	}
}

TEST_F(bo, size_knob_validation)
{
	uint8_t b = 0x5a, back = 0;
	char str[64];
	uint64_t v = 0;
	int fd;

	expect_knob_einval(_metadata, self, "0\n");
	expect_knob_einval(_metadata, self, "0");
	snprintf(str, sizeof(str), "%llu\n", (unsigned long long)self->vram + 1);
	expect_knob_einval(_metadata, self, str);
	snprintf(str, sizeof(str), "%llu\n", (unsigned long long)self->vram + 4096);
	expect_knob_einval(_metadata, self, str);
	snprintf(str, sizeof(str), "%llu\n", (unsigned long long)self->vram * 2);
	expect_knob_einval(_metadata, self, str);
	expect_knob_einval(_metadata, self, "18446744073709551615\n");
	expect_knob_einval(_metadata, self, "-1\n");
	expect_knob_einval(_metadata, self, "abc\n");

	/* the limits themselves are accepted */
	set_size(_metadata, self, self->vram);
	ASSERT_EQ(0, vp_test_bo_size_get(&self->dev, &v));
	EXPECT_EQ(self->vram, v);
	set_size(_metadata, self, 1);
	ASSERT_EQ(0, vp_test_bo_size_get(&self->dev, &v));
	EXPECT_EQ(1ULL, (unsigned long long)v);
	fd = open_bo(_metadata, self, 0, 1);
	EXPECT_EQ(self->base + VP_CPU_PAGE, in_use(_metadata, self));
	ASSERT_EQ(1, pwrite(fd, &b, 1, 0));
	ASSERT_EQ(1, pread(fd, &back, 1, 0));
	EXPECT_EQ(b, back);
	ASSERT_EQ(0, pread(fd, &back, 1, 1)) TH_LOG("a 1-byte BO reads past byte 0");
}

TEST_F(bo, several_bos_at_once)
{
	static const uint64_t sizes[] = {
		4096, 8192, 12288, 65536, 69632, 200704, 4096, 1 << 20, 5000, 300,
	};
	static const int close_order[] = { 3, 0, 9, 7, 1, 5, 2, 8, 6, 4 };
	const int n = sizeof(sizes) / sizeof(sizes[0]);
	bool closed[sizeof(sizes) / sizeof(sizes[0])] = { false };
	uint64_t expected = self->base;
	int i, j;

	for (i = 0; i < n; i++) {
		int fd = open_bo(_metadata, self, i, sizes[i]);
		int64_t bad;

		expected += vp_align_up(sizes[i], VP_CPU_PAGE);
		EXPECT_EQ(expected, in_use(_metadata, self)) TH_LOG("%s: after BO %d", self->dev.name, i);
		/* fresh, even next to BOs full of data */
		bad = vp_verify_zero(fd, 0, sizes[i]);
		EXPECT_EQ(-1, bad) TH_LOG("%s: BO %d not zero at %lld", self->dev.name, i, (long long)bad);
		ASSERT_EQ(0, vp_write_pattern(fd, 0, sizes[i], 3000 + i));
	}
	for (i = 0; i < n; i++) {
		int64_t bad = vp_verify_pattern(self->bos[i], 0, sizes[i], 3000 + i);

		EXPECT_EQ(-1, bad) TH_LOG("%s: BO %d differs at %lld", self->dev.name, i, (long long)bad);
	}
	for (j = 0; j < n; j++) {
		i = close_order[j];
		close_bo(self, i);
		closed[i] = true;
		expected -= vp_align_up(sizes[i], VP_CPU_PAGE);
		EXPECT_EQ(expected, in_use(_metadata, self)) TH_LOG("%s: after freeing BO %d", self->dev.name, i);
		/* the others keep their data */
		for (i = 0; i < n; i++) {
			int64_t bad;

			if (closed[i])
				continue;
			bad = vp_verify_pattern(self->bos[i], 0, sizes[i], 3000 + i);
			EXPECT_EQ(-1, bad) TH_LOG("%s: BO %d differs at %lld", self->dev.name, i, (long long)bad);
		}
	}
	/* Every BO closed: the device's VRAM use is back where it started. */
	EXPECT_EQ(self->base, in_use(_metadata, self));
}

/* One BO of the whole VRAM; then nothing else fits. */
TEST_F_TIMEOUT(bo, whole_vram_bo, 180)
{
	const uint64_t edge = 65536;
	int64_t bad;
	uint8_t b = 0xc3, back = 0;
	int fd, ret;

	ASSERT_EQ(0ULL, (unsigned long long)self->base) {
		TH_LOG("%s: %llu bytes of VRAM already in use", self->dev.name,
		       (unsigned long long)self->base);
	}
	fd = open_bo(_metadata, self, 0, self->vram);
	EXPECT_EQ(self->vram, in_use(_metadata, self));
	bad = vp_verify_zero(fd, 0, edge);
	EXPECT_EQ(-1, bad) TH_LOG("%s: not zero at %lld", self->dev.name, (long long)bad);
	bad = vp_verify_zero(fd, self->vram - edge, edge);
	EXPECT_EQ(-1, bad) TH_LOG("%s: not zero at %lld", self->dev.name, (long long)bad);
	ASSERT_EQ(1, pwrite(fd, &b, 1, self->vram - 1));
	ASSERT_EQ(1, pread(fd, &back, 1, self->vram - 1));
	EXPECT_EQ(b, back);

	/* VRAM is full: the smallest BO does not fit */
	set_size(_metadata, self, 1);
	ret = vp_test_bo_open(&self->dev);
	EXPECT_EQ(-ENOSPC, ret) {
		TH_LOG("%s: open with VRAM full: %s", self->dev.name,
		       ret >= 0 ? "succeeded" : strerror(-ret));
	}
	if (ret >= 0)
		close(ret);
	EXPECT_EQ(self->vram, in_use(_metadata, self));

	close_bo(self, 0);
	EXPECT_EQ(0ULL, (unsigned long long)in_use(_metadata, self));
	open_bo(_metadata, self, 0, 1);
	EXPECT_EQ(VP_CPU_PAGE, (unsigned long long)in_use(_metadata, self));
}

/*
 * Fill VRAM with FILL_PARTS BOs until open fails with ENOSPC; free one and
 * the next BO fits again, in that freed VRAM, and reads zero.
 */
TEST_F_TIMEOUT(bo, fill_vram_enospc, 240)
{
	const uint64_t chunk = vp_align_up(self->vram / FILL_PARTS, VP_CPU_PAGE);
	const uint64_t mark = 4096;
	const int victim = 5;
	int i, count = 0, ret;
	int64_t bad;

	ASSERT_EQ(0ULL, (unsigned long long)self->base) {
		TH_LOG("%s: %llu bytes of VRAM already in use", self->dev.name,
		       (unsigned long long)self->base);
	}
	ASSERT_EQ(0ULL, (unsigned long long)(self->vram % chunk)) TH_LOG("VRAM %llu", (unsigned long long)self->vram);
	set_size(_metadata, self, chunk);

	/* One more attempt than fits: it must fail, not evict anything. */
	for (i = 0; i <= FILL_PARTS; i++) {
		ret = vp_test_bo_open(&self->dev);
		if (ret < 0)
			break;
		self->bos[i] = ret;
		count++;
		ASSERT_EQ(0, vp_write_pattern(ret, 0, mark, 4000 + i));
		ASSERT_EQ(0, vp_write_pattern(ret, chunk - mark, mark, 4000 + i));
	}
	ASSERT_EQ(FILL_PARTS, count) {
		TH_LOG("%s: %d BOs of %llu bytes fit in %llu bytes of VRAM (last: %s)",
		       self->dev.name, count, (unsigned long long)chunk,
		       (unsigned long long)self->vram, ret < 0 ? strerror(-ret) : "ok");
	}
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s: open with VRAM full: %s", self->dev.name, strerror(-ret));
	EXPECT_EQ(self->vram, in_use(_metadata, self));

	/* even a page does not fit */
	set_size(_metadata, self, VP_CPU_PAGE);
	ret = vp_test_bo_open(&self->dev);
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s: a page with VRAM full: %s", self->dev.name,
				       ret >= 0 ? "succeeded" : strerror(-ret));
	if (ret >= 0)
		close(ret);

	/* free one full of data; the next BO takes its place and reads zero */
	ASSERT_EQ(0, vp_write_pattern(self->bos[victim], 0, chunk, 4999));
	close_bo(self, victim);
	EXPECT_EQ(self->vram - chunk, in_use(_metadata, self));
	open_bo(_metadata, self, victim, chunk);
	EXPECT_EQ(self->vram, in_use(_metadata, self));
	bad = vp_verify_zero(self->bos[victim], 0, chunk);
	EXPECT_EQ(-1, bad) TH_LOG("%s: refilled BO shows old data at %lld", self->dev.name, (long long)bad);

	ret = vp_test_bo_open(&self->dev);
	EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s: open with VRAM full again: %s", self->dev.name,
				       ret >= 0 ? "succeeded" : strerror(-ret));
	if (ret >= 0)
		close(ret);

	/* nobody else's data moved or changed */
	for (i = 0; i < FILL_PARTS; i++) {
		if (i == victim)
			continue;
		bad = vp_verify_pattern(self->bos[i], 0, mark, 4000 + i);
		EXPECT_EQ(-1, bad) TH_LOG("%s: BO %d head differs at %lld", self->dev.name, i, (long long)bad);
		bad = vp_verify_pattern(self->bos[i], chunk - mark, mark, 4000 + i);
		EXPECT_EQ(-1, bad) TH_LOG("%s: BO %d tail differs at %lld", self->dev.name, i, (long long)bad);
	}

	for (i = 0; i < FILL_PARTS; i++)
		close_bo(self, i);
	EXPECT_EQ(0ULL, (unsigned long long)in_use(_metadata, self));
}

TEST_HARNESS_MAIN

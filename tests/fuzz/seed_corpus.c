// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the seed corpus of layout_fuzz into a directory: the devices the
 * host tests pin both presets of (m = 128 MiB with alignments 256 and 32,
 * m = 20 GiB with alignment 512) and edge devices, with each preset, and
 * explicit lists that hit every rule and every error once
 * (layout_fuzz_format.h describes the encoding).
 *
 *   seed_corpus DIR
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_fuzz_format.h"

struct seed {
	uint8_t b[4096];
	size_t n;
};

static void put8(struct seed *s, unsigned int v)
{
	if (s->n < sizeof(s->b))
		s->b[s->n++] = (uint8_t)v;
}

static void put32(struct seed *s, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		put8(s, (v >> (8 * i)) & 0xff);
}

static void put64(struct seed *s, uint64_t v)
{
	put32(s, (uint32_t)v);
	put32(s, (uint32_t)(v >> 32));
}

/* A size, always as a raw u64: the fuzzer finds the shorter encodings. */
static void size(struct seed *s, uint64_t v)
{
	if (!v) {
		put8(s, LF_SIZE_ZERO);
	} else {
		put8(s, LF_SIZE_RAW);
		put64(s, v);
	}
}

static void device(struct seed *s, unsigned int what, int excl, uint64_t a, uint64_t m)
{
	s->n = 0;
	put8(s, what | (excl ? LF_MODE_EXCLUSIVE_ONLY : 0));
	size(s, a);
	size(s, m);
}

static void count(struct seed *s, uint32_t n)
{
	if (n < LF_COUNT_RAW) {
		put8(s, n);
	} else {
		put8(s, LF_COUNT_RAW);
		put32(s, n);
	}
}

static void exclusive(struct seed *s, uint64_t max, int dealloc, uint64_t period)
{
	put8(s, 0);
	put8(s, dealloc ? 0x4 : 0);
	size(s, max);
	if (dealloc)
		size(s, period);
}

/* flags: 1 slice, 2 cap, 4 dealloc */
static void sliced(struct seed *s, unsigned int flags, uint64_t page, uint64_t slice,
		   uint64_t cap, uint64_t period)
{
	put8(s, 1);
	put8(s, flags);
	size(s, page);
	if (flags & 1)
		size(s, slice);
	if (flags & 2)
		size(s, cap);
	if (flags & 4)
		size(s, period);
}

static void direct(struct seed *s, int reclaim, uint64_t at)
{
	put8(s, 2);
	put8(s, reclaim ? 0x8 : 0);
	if (reclaim)
		size(s, at);
}

/* An entry with every field given, whatever its type and flags. */
static void raw_entry(struct seed *s, uint32_t type, uint32_t flags, const uint64_t f[7])
{
	int i;

	put8(s, LF_ENTRY_TYPE_RAW | LF_ENTRY_FLAGS_RAW | LF_ENTRY_FLAGS_ANY | LF_ENTRY_ALL_FIELDS);
	put32(s, type);
	put32(s, flags);
	for (i = 0; i < 7; i++)
		size(s, f[i]);
}

/* The error-conversion tail: errno, code, entry, field, values, length. */
static void tail(struct seed *s, int err, uint32_t code, uint64_t v0)
{
	put32(s, (uint32_t)err);
	put32(s, code);
	put32(s, 1);
	put32(s, 2);
	put64(s, v0);
	put64(s, 0);
	put8(s, 40);
}

static const char *dir;
static int written;

static void save(struct seed *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%03d", dir, written++);
	f = fopen(path, "wb");
	if (!f || fwrite(s->b, 1, s->n, f) != s->n || fclose(f)) {
		fprintf(stderr, "seed_corpus: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const struct {
		uint64_t a, m;
	} devices[] = {
		{ 256, 128 * LF_MIB }, { 512, 20 * LF_GIB }, { 32, 128 * LF_MIB }, { 0, 0 },
		{ 4096, 4096 }, { 256, 32 * LF_MIB }, { 48 * LF_MIB, 128 * LF_MIB },
		{ 512, 1ULL << 63 }, { 4096, ~0ULL }, { 1, 1 },
	};
	const uint64_t bad_fields[7] = { 1, 2, 3, 4, 5, 6, 7 };
	struct seed s;
	size_t i;
	int excl;

	if (argc != 2) {
		fprintf(stderr, "usage: seed_corpus DIR\n");
		return 2;
	}
	dir = argv[1];

	/* Presets on each device, both kinds of device. */
	for (i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
		for (excl = 0; excl < 2; excl++) {
			device(&s, LF_WHAT_SUB_SLICES, excl, devices[i].a, devices[i].m);
			tail(&s, EOPNOTSUPP, 7, 1);
			save(&s);
			device(&s, LF_WHAT_EXCLUSIVE_PAGES, excl, devices[i].a, devices[i].m);
			tail(&s, EOVERFLOW, 9, ~0ULL);
			save(&s);
		}
	}
	device(&s, LF_WHAT_RAW_PRESET, 0, 256, 128 * LF_MIB);
	put32(&s, 3);
	save(&s);

	/* A valid mixed list. */
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 6);
	exclusive(&s, 0, 0, 0);
	sliced(&s, 1, 8 * LF_MIB, 2 * LF_MIB, 0, 0);
	sliced(&s, 7, 1000, 300, 256 * 65535 + 255, 0);
	exclusive(&s, 12345, 1, 0);
	direct(&s, 1, 0);
	direct(&s, 0, 0);
	tail(&s, EINVAL, 2, 0);
	save(&s);

	/* The same on an exclusive-memory-only device: sliced pools refused. */
	s.b[0] |= LF_MODE_EXCLUSIVE_ONLY;
	save(&s);

	/* Caps of exactly 65535 pages, with and without alignment. */
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 2);
	sliced(&s, 2, 256, 0, 256ULL * 65535, 0);
	sliced(&s, 2, 200, 0, 256ULL * 65535 + 255, 0);
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 1, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 2, 1, 0, 65535, 0);
	save(&s);

	/* One rule each. */
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 0);
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 255);
	save(&s);
	s.b[0] |= LF_MODE_NULL_ENTRIES;
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 254);
	for (i = 0; i < 254; i++)
		exclusive(&s, i, 0, 0);
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 0, 0, 0, 0, 0);			/* zero page */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 1, 1024, 0, 0, 0);			/* zero slice */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 1, 1024, 2048, 0, 0);		/* slice larger than page */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 2, 256, 0, 100, 0);			/* cap smaller than page */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 2, 256, 0, 256 * 65536, 0);		/* too many pages */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 2);
	exclusive(&s, 1, 0, 0);
	exclusive(&s, ~0ULL, 0, 0);			/* overflow */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 4096, 128 * LF_MIB);
	count(&s, 1);
	sliced(&s, 1, ~0ULL - 4095, ~0ULL - 4094, 0, 0);	/* slice overflow */
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 3);
	exclusive(&s, 0, 0, 0);
	raw_entry(&s, 4, 0, bad_fields);		/* persistent, every field set */
	direct(&s, 0, 0);
	save(&s);
	device(&s, LF_WHAT_LIST, 0, 256, 128 * LF_MIB);
	count(&s, 1);
	raw_entry(&s, 2, 0x18, bad_fields);		/* unknown flag */
	save(&s);

	printf("seed_corpus: %d seeds in %s\n", written, dir);
	return 0;
}

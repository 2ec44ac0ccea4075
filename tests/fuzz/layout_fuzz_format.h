/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The input format of layout_fuzz.c, shared with seed_corpus.c which writes
 * the seed corpus in it. Reading past the end of an input yields zeros, so
 * every byte string is a valid input.
 *
 *   mode      1 byte   LF_MODE_* bits
 *   alignment size     device alignment (0 is taken as 1)
 *   max_page  size     device max_page_size
 *   then, by LF_MODE_WHAT:
 *     LIST:         count (1 byte; LF_COUNT_RAW: a u32 follows), then the
 *                   entries (at most 254 are read; a count above 254 gets a
 *                   short array, or NULL with LF_MODE_NULL_ENTRIES)
 *     SUB_SLICES, EXCLUSIVE_PAGES: nothing
 *     RAW_PRESET:   u32 preset (0 reads as an explicit list)
 *   then the error-conversion tail: s32 errno, u32 code, u32 entry,
 *   u32 field, u64 value[0], u64 value[1], 1 byte message buffer length.
 *
 * A size is a selector byte (LF_SIZE_*) and its operands. An entry is a
 * kind byte (LF_ENTRY_*), a u32 type if LF_ENTRY_TYPE_RAW, the flags (u32
 * with LF_ENTRY_FLAGS_RAW, else one byte of which the low 4 bits count),
 * then sizes: with LF_ENTRY_ALL_FIELDS every field in struct order plus
 * reserved, else only the fields the type has and whose flag is set.
 * Integers are little-endian.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef LAYOUT_FUZZ_FORMAT_H
#define LAYOUT_FUZZ_FORMAT_H

#define LF_MODE_EXCLUSIVE_ONLY		0x01
#define LF_MODE_WHAT			0x06
#define LF_WHAT_LIST			0x00
#define LF_WHAT_SUB_SLICES		0x02
#define LF_WHAT_EXCLUSIVE_PAGES		0x04
#define LF_WHAT_RAW_PRESET		0x06
#define LF_MODE_NULL_ENTRIES		0x08

#define LF_COUNT_RAW			0xff

/* Size selectors (the low 3 bits of the byte). */
#define LF_SIZE_ZERO			0	/* 0 */
#define LF_SIZE_BYTE			1	/* b */
#define LF_SIZE_POW2			2	/* 2^(b & 63) + (s8)d */
#define LF_SIZE_NEAR_MAX		3	/* 2^64 - 1 - b */
#define LF_SIZE_RAW			4	/* u64 */
#define LF_SIZE_DICT			5	/* lf_dict[b % LF_DICT_SIZE] */
#define LF_SIZE_SCALED			6	/* (u16) << (b & 63), truncated */
#define LF_SIZE_MULTIPLE		7	/* (b + 1) * 2^(s & 63) - (s8)d */

#define LF_ENTRY_TYPE			0x03	/* 0 exclusive, 1 sliced, 2 direct */
#define LF_ENTRY_TYPE_RAW		0x03	/* ... 3: a u32 type follows */
#define LF_ENTRY_FLAGS_RAW		0x04
#define LF_ENTRY_FLAGS_ANY		0x08	/* keep flags the type does not have */
#define LF_ENTRY_ALL_FIELDS		0x10

#define LF_MIB				(1ULL << 20)
#define LF_GIB				(1ULL << 30)

/* Sizes worth hitting exactly: limits of the rules and of the presets. */
static const unsigned long long lf_dict[] = {
	0, 1, 2, 3, 8, 32, 64, 100, 255, 256, 257, 511, 512, 513, 1000, 1024, 4095, 4096,
	4097, 32767, 32768, 32769, 65535, 65536, 65537, 256ULL * 65535, 256ULL * 65535 + 255,
	256ULL * 65536, 8 * LF_MIB, 32 * LF_MIB - 1, 32 * LF_MIB, 32 * LF_MIB + 1,
	48 * LF_MIB, 128 * LF_MIB, 20 * LF_GIB, 1ULL << 29, (1ULL << 29) - 1, 1ULL << 45,
	1ULL << 53, 1ULL << 62, 1ULL << 63, (1ULL << 63) + 1, ~0ULL / 65535, ~0ULL / 65536,
	~0ULL - 4095, ~0ULL - 511, ~0ULL - 255, ~0ULL - 1, ~0ULL,
};

#define LF_DICT_SIZE	(sizeof(lf_dict) / sizeof(lf_dict[0]))

#endif /* LAYOUT_FUZZ_FORMAT_H */

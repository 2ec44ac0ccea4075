// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: sizes in bytes, read from and written for people.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vrampoolctl.h"

typedef unsigned __int128 u128;

static const struct {
	const char *name;
	uint64_t bytes;
} units[] = {
	{ "B", 1 },
	{ "KiB", 1ULL << 10 },
	{ "MiB", 1ULL << 20 },
	{ "GiB", 1ULL << 30 },
	{ "TiB", 1ULL << 40 },
	{ "KB", 1000ULL },
	{ "MB", 1000ULL * 1000 },
	{ "GB", 1000ULL * 1000 * 1000 },
	{ "TB", 1000ULL * 1000 * 1000 * 1000 },
};

#define N_UNITS (sizeof(units) / sizeof(units[0]))

/* Most fraction digits read: 10^18 times a unit still fits 128 bits. */
#define MAX_FRACTION_DIGITS 18

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal digits at @s into @v (128 bits, saturating past 2^64); the count read. */
static size_t read_digits(const char *s, u128 *v)
{
	size_t n = 0;

	*v = 0;
	while (is_digit(s[n])) {
		if (*v <= UINT64_MAX)
			*v = *v * 10 + (u128)(s[n] - '0');
		n++;
	}
	return n;
}

int parse_size(const char *s, uint64_t *out, char *why, size_t len)
{
	u128 whole, frac = 0, pow10 = 1, total;
	size_t n, nfrac = 0, i;
	const char *p = s, *unit;
	uint64_t mult = 0;

	n = read_digits(p, &whole);
	if (!n) {
		snprintf(why, len, "'%s' is not a size (a number, then an optional unit: B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)",
			 s);
		return -1;
	}
	p += n;
	if (*p == '.') {
		p++;
		nfrac = read_digits(p, &frac);
		if (!nfrac) {
			snprintf(why, len, "'%s' is not a size: no digits after the decimal point", s);
			return -1;
		}
		if (nfrac > MAX_FRACTION_DIGITS) {
			snprintf(why, len, "'%s': too many digits after the decimal point", s);
			return -1;
		}
		p += nfrac;
		for (i = 0; i < nfrac; i++)
			pow10 *= 10;
	}

	unit = p;
	if (!*unit) {
		mult = 1;
	} else {
		for (i = 0; i < N_UNITS; i++) {
			if (!strcmp(unit, units[i].name)) {
				mult = units[i].bytes;
				break;
			}
		}
		if (!mult) {
			snprintf(why, len, "'%s': unknown unit '%s' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)",
				 s, unit);
			return -1;
		}
	}

	if (whole > UINT64_MAX) {
		snprintf(why, len, "'%s' is too large: a size is at most 18446744073709551615 bytes (2^64 - 1)",
			 s);
		return -1;
	}
	total = whole * mult;
	if (nfrac) {
		if (frac * mult % pow10) {
			snprintf(why, len, "'%s' is not a whole number of bytes", s);
			return -1;
		}
		total += frac * mult / pow10;
	}
	if (total > UINT64_MAX) {
		snprintf(why, len, "'%s' is too large: a size is at most 18446744073709551615 bytes (2^64 - 1)",
			 s);
		return -1;
	}
	*out = (uint64_t)total;
	return 0;
}

int parse_count(const char *s, uint64_t *out, char *why, size_t len)
{
	u128 v;
	size_t n = read_digits(s, &v);

	if (!n || s[n]) {
		snprintf(why, len, "'%s' is not a number (decimal digits only)", s);
		return -1;
	}
	if (v > UINT64_MAX) {
		snprintf(why, len, "'%s' is too large: at most 18446744073709551615 (2^64 - 1)", s);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/* Past this many units, plain bytes read better ("113740800", not "111075KiB"). */
#define MAX_UNITS_SHOWN 10000

char *format_size(uint64_t v, char *buf, size_t len)
{
	static const char *const names[] = { "TiB", "GiB", "MiB", "KiB" };
	static const unsigned int shifts[] = { 40, 30, 20, 10 };
	size_t i;

	for (i = 0; v && i < sizeof(shifts) / sizeof(shifts[0]); i++) {
		if (!(v & ((1ULL << shifts[i]) - 1)) && (v >> shifts[i]) < MAX_UNITS_SHOWN) {
			snprintf(buf, len, "%" PRIu64 "%s", v >> shifts[i], names[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

char *format_approx(uint64_t v, char *buf, size_t len)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned int i = 0;
	double d = (double)v;

	while (d >= 1024 && i < sizeof(names) / sizeof(names[0]) - 1) {
		d /= 1024;
		i++;
	}
	if (!i)
		snprintf(buf, len, "%" PRIu64 " B", v);
	else
		snprintf(buf, len, "%.2f %s", d, names[i]);
	return buf;
}

int parse_seconds(const char *s, struct timespec *ts, char *why, size_t len)
{
	u128 whole, frac = 0;
	size_t n, nfrac = 0;

	n = read_digits(s, &whole);
	if (n && s[n] == '.') {
		nfrac = read_digits(s + n + 1, &frac);
		if (!nfrac || nfrac > 9) {
			snprintf(why, len, "'%s' is not a number of seconds (at most 9 decimals)", s);
			return -1;
		}
		n += 1 + nfrac;
	}
	if (!n || s[n]) {
		snprintf(why, len, "'%s' is not a number of seconds", s);
		return -1;
	}
	if (whole > MAX_SECONDS) {
		snprintf(why, len, "'%s': at most %d seconds", s, MAX_SECONDS);
		return -1;
	}
	while (nfrac++ < 9)
		frac *= 10;
	ts->tv_sec = (time_t)whole;
	ts->tv_nsec = (long)frac;
	return 0;
}

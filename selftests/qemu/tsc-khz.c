// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print the rate of the host's time stamp counter, in kHz.
 *
 * Under TCG, QEMU's guest reads the host's TSC (plus an offset), so this
 * is the rate the guest's TSC runs at. run-vm.sh passes it to the debug
 * kernel (tsc_early_khz=), which has no HPET or ACPI PM timer to calibrate
 * its TSC against: its PIT calibration fails or lands far off when the
 * host is busy (506 MHz measured for a 2596 MHz TSC, the guest's clock
 * then running 5 times too fast, its timeouts firing 5 times too early).
 *
 * The TSC is read against CLOCK_MONOTONIC_RAW twice, 200 ms apart; each
 * reading is the clock between two TSC reads, the closest pair of 16, so
 * that a preemption between the reads does not count. Exit 1, printing
 * nothing, when the host's TSC has no constant rate (no constant_tsc and
 * nonstop_tsc in /proc/cpuinfo) or the reading makes no sense.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#define PAIRS		16
#define INTERVAL_NS	200000000L

struct reading {
	double ns;		/* CLOCK_MONOTONIC_RAW */
	double tsc;		/* the TSC then: the mean of the reads around it */
};

static double clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The clock between two TSC reads, the pair closest together of PAIRS. */
static struct reading read_pair(void)
{
	struct reading best = { 0, 0 };
	unsigned long long gap = ~0ULL, t0, t1;
	double ns;

	for (int i = 0; i < PAIRS; i++) {
		t0 = __rdtsc();
		ns = clock_ns();
		t1 = __rdtsc();
		if (t1 - t0 < gap) {
			gap = t1 - t0;
			best.ns = ns;
			best.tsc = (double)t0 + (double)(t1 - t0) / 2;
		}
	}
	return best;
}

/* Whether a flags line of /proc/cpuinfo names @flag as a whole word. */
static int has_flag(const char *line, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = strstr(line, flag); p; p = strstr(p + 1, flag))
		if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Both flags: the TSC ticks at one rate, through frequency and idle states. */
static int tsc_is_constant(void)
{
	char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int ok = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		ok = has_flag(line, "constant_tsc") && has_flag(line, "nonstop_tsc");
		break;
	}
	fclose(f);
	return ok;
}

int main(void)
{
	struct timespec pause = { 0, INTERVAL_NS };
	struct reading a, b;
	double khz;

	if (!tsc_is_constant())
		return 1;
	a = read_pair();
	nanosleep(&pause, NULL);
	b = read_pair();
	if (b.ns <= a.ns || b.tsc <= a.tsc)
		return 1;
	khz = (b.tsc - a.tsc) / (b.ns - a.ns) * 1e6;
	/* Between 100 MHz and 10 GHz, or no TSC this kernel can use. */
	if (khz < 1e5 || khz > 1e7)
		return 1;
	printf("%.0f\n", khz);
	return 0;
}

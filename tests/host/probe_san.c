// SPDX-License-Identifier: GPL-2.0-only
/*
 * Built with the host tests' sanitizers: san-run.sh runs it to learn whether
 * LeakSanitizer works on this host.
 *
 * With no argument it leaks one object (a working LeakSanitizer reports it
 * at exit) and prints the word san-run.sh looks for; with "uaf", it reads
 * freed memory (san_runner_test.sh: ASan still catches that when leak
 * detection is off).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *volatile probe_keep;

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "uaf")) {
		char *volatile p = malloc(8);

		free(p);
		return p[0];
	}
	probe_keep = malloc(24);
	probe_keep = NULL;
	puts("vrampool-san-probe");
	return 0;
}

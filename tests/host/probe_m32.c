// SPDX-License-Identifier: GPL-2.0-only
/*
 * Built as a static i386 program: m32-run.sh runs it to learn whether this
 * host executes i386 programs (natively, or under qemu-i386).
 *
 * With no argument it prints the word m32-run.sh looks for; with one, it
 * exits with that code (m32_runner_test.sh's failing i386 program).
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc > 1)
		return atoi(argv[1]);
	puts("vrampool-m32-probe");
	return 0;
}

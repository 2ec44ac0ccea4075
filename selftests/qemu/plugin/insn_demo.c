// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn_demo: a static /init that checks the insn_count plugin (try.sh).
 *
 * Slot 0 is an empty region (count 0). Slots 1-4 run a known user-space
 * body 1000, 2000, 1000 and 2000 times; slots 5-8 make 1000, 2000, 1000
 * and 2000 getppid() system calls (user and kernel code, as the
 * benchmark's ioctls are). Slot 9 begins on one vCPU and ends on the
 * other. Slot 12 sums three regions of 1000 bodies (pause markers).
 * INSN_DEMO_SPIN=N on the kernel command line adds slots 10 and 11,
 * N * 1000 bodies and system calls, timed (the plugin's cost). Then, as a VM's init (pid 1), it powers the VM
 * off; run elsewhere (qemu-x86_64 -plugin ...) it only counts.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "marker.h"

static volatile unsigned int sink;

/* The known body: a fixed number of instructions whatever its input. */
static __attribute__((noinline)) void body(unsigned int x)
{
	for (int i = 0; i < 8; i++)
		x = x * 2654435761u + i;
	sink = x;
}

#define USER_LOOP(slot, n)					\
	do {							\
		VP_INSN_BEGIN(slot);				\
		for (unsigned int i = 0; i < (n); i++)		\
			body(i);				\
		VP_INSN_END(slot);				\
	} while (0)

#define SYSCALL_LOOP(slot, n)					\
	do {							\
		VP_INSN_BEGIN(slot);				\
		for (unsigned int i = 0; i < (n); i++)		\
			syscall(SYS_getppid);			\
		VP_INSN_END(slot);				\
	} while (0)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* INSN_DEMO_SPIN=N: time N * 1000 bodies and system calls (the overhead). */
static void spin(int n)
{
	double t = now_ns();

	USER_LOOP(10, n * 1000);
	printf("insn_demo: body %.1f ns\n", (now_ns() - t) / (n * 1000.0));
	t = now_ns();
	SYSCALL_LOOP(11, n * 1000);
	printf("insn_demo: getppid %.1f ns\n", (now_ns() - t) / (n * 1000.0));
}

int main(void)
{
	bool init = getpid() == 1;
	cpu_set_t set;
	int fd;

	/* Only as a VM's init: elsewhere (qemu-x86_64) it leaves /dev alone. */
	if (init) {
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
	}
	/* INSN_DEMO_CPU=N on the kernel command line pins us to vCPU N. */
	if (getenv("INSN_DEMO_CPU")) {
		CPU_ZERO(&set);
		CPU_SET(atoi(getenv("INSN_DEMO_CPU")), &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
	}
	printf("insn_demo: start on CPU %d\n", sched_getcpu());

	VP_INSN_BEGIN(0);
	VP_INSN_END(0);
	USER_LOOP(1, 1000);
	USER_LOOP(2, 2000);
	USER_LOOP(3, 1000);
	USER_LOOP(4, 2000);
	SYSCALL_LOOP(5, 1000);
	SYSCALL_LOOP(6, 2000);
	SYSCALL_LOOP(7, 1000);
	SYSCALL_LOOP(8, 2000);

	/* Slot 9 moves to the other vCPU: "# 9 vCPU A -> B: not counted". */
	CPU_ZERO(&set);
	CPU_SET(!sched_getcpu(), &set);
	VP_INSN_BEGIN(9);
	sched_setaffinity(0, sizeof(set), &set);
	VP_INSN_END(9);

	/* Slot 12: the 1000 bodies three times, paused twice: slot 1's sum x 3. */
	for (int k = 0; k < 3; k++) {
		VP_INSN_BEGIN(12);
		for (unsigned int i = 0; i < 1000; i++)
			body(i);
		if (k < 2)
			VP_INSN_PAUSE(12);
		else
			VP_INSN_END(12);
	}
	if (getenv("INSN_DEMO_SPIN"))
		spin(atoi(getenv("INSN_DEMO_SPIN")));

	printf("insn_demo: done on CPU %d\n", sched_getcpu());
	fflush(stdout);
	if (init) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}

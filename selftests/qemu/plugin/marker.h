/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Markers for the insn_count QEMU plugin (insn_count.c), for x86-64 guest
 * code, user space or kernel:
 *
 *	VP_INSN_BEGIN(3);
 *	for (i = 0; i < n; i++)
 *		body();
 *	VP_INSN_END(3);
 *
 * appends "3 COUNT" to the plugin's out= file: the instructions that the
 * vCPU ran between the two markers. The slot is a constant, 0 to 4095.
 * VP_INSN_PAUSE(3) instead of VP_INSN_END(3) adds the region's count to
 * the slot's sum and writes nothing: the next VP_INSN_END(3) writes the
 * sum of every region since the last one.
 *
 * Each marker is one instruction, "nopl 0x5650KSSS(%rax)" (K: 1 begin,
 * 2 end, 3 pause; SSS: the slot), bytes 0f 1f 80 SS KS 50 56. It is a NOP for every
 * x86-64 CPU: it neither reads memory nor faults, in user space or in the
 * kernel, with or without the plugin (on real hardware or under KVM it
 * costs a cycle or so). Compilers and assemblers pad with NOPs whose
 * displacement is 0, never 0x5650xxxx, so no other code looks like one.
 *
 * The "memory" clobber keeps the compiler from moving memory accesses
 * across a marker; the code of the region between them must still have
 * a side effect the compiler keeps (a volatile access, a call it cannot
 * see into, a system call).
 */
#ifndef VP_INSN_MARKER_H
#define VP_INSN_MARKER_H

#define VP_INSN_MAGIC		0x5650
#define VP_INSN_KIND_BEGIN	1
#define VP_INSN_KIND_END	2
#define VP_INSN_KIND_PAUSE	3

#define __VP_INSN_MARK(kind, slot)					\
	do {								\
		__asm__ __volatile__("nopl %c0(%%rax)" : :		\
			"i" ((VP_INSN_MAGIC << 16) | ((kind) << 12) |	\
			     ((slot) & 0xfff)) : "memory");		\
	} while (0)

#define VP_INSN_BEGIN(slot)	__VP_INSN_MARK(VP_INSN_KIND_BEGIN, slot)
#define VP_INSN_END(slot)	__VP_INSN_MARK(VP_INSN_KIND_END, slot)
#define VP_INSN_PAUSE(slot)	__VP_INSN_MARK(VP_INSN_KIND_PAUSE, slot)

#endif /* VP_INSN_MARKER_H */

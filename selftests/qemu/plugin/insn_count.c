// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn_count: a QEMU TCG plugin that counts the guest instructions run
 * between two marker instructions the guest executes (marker.h).
 *
 *   qemu-system-x86_64 -accel tcg \
 *	-plugin libinsn_count.so,out=FILE[,vcpus=one|all][,priv=all|user|kernel]
 *		[,profile=N]...
 *
 * Markers: "nopl 0x5650KSSS(%rax)", bytes 0f 1f 80 <disp32 LE>, with K = 1
 * (begin), 2 (end) or 3 (pause) and SSS the slot, 0 to 0xfff. The begin
 * marker of a slot takes a snapshot of the count; a pause marker adds the
 * instructions run since (after the begin marker, before the pause marker)
 * to the slot's sum; an end marker adds them too and appends the line
 * "SLOT SUM" to FILE, then sets the sum back to 0. So BEGIN ... END counts
 * one region (an empty one counts 0), and BEGIN ... PAUSE, BEGIN ... PAUSE,
 * BEGIN ... END the regions together.
 *
 * vcpus=one (default): only the instructions of the vCPU that ran the
 * begin marker are counted. When a region ends on another vCPU (the guest
 * thread migrated), its end marker appends "# SLOT vCPU A -> B: not
 * counted" instead of the sum. vcpus=all: the instructions of every vCPU.
 *
 * profile=N (repeatable, up to MAX_PSLOTS slots): while a region of slot N
 * is open on a vCPU, the instructions of each block it runs are also added
 * to the block's start address; at exit, one line "P N ADDRESS COUNT" per
 * address (bench-report.py turns addresses into functions).
 *
 * priv=user or priv=kernel counts only the blocks that start at a user
 * (below 0x800000000000) or a kernel address: x86-64 Linux's address
 * split, not the CPU's privilege level, which 7.2's API does not give.
 *
 * QEMU 7.2 (plugin API version 1) has no per-vCPU inline counters (the
 * scoreboard came in 9.0): an inline add goes to one address for every
 * vCPU, without atomics. So each translated block gets an execution
 * callback that adds its length to the counter of the vCPU running it;
 * each vCPU thread writes only its own counter, so no atomic operation is
 * needed. A block is counted whole when it starts: a synchronous exception
 * in its middle (a page fault) counts the instructions after it too.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARKER_LEN	7
#define MARKER_MAGIC	0x5650u		/* "VP": the displacement's top half */
#define MARKER_BEGIN	1
#define MARKER_END	2
#define MARKER_PAUSE	3
#define MAX_SLOTS	4096
/* linux-user numbers a vCPU per guest thread: counters past this are lost. */
#define USER_MAX_VCPUS	1024
#define USER_SPLIT	0x800000000000ull

enum { PRIV_KERNEL, PRIV_USER, PRIV_ALL };

struct vcpu_count {
	uint64_t insns[2];		/* [PRIV_KERNEL], [PRIV_USER] */
	int pslot;			/* the profiled slot open here, or -1 */
} __attribute__((aligned(64)));

/* The profile: instructions by (slot, block start), open addressing. */
#define MAX_PSLOTS	8
#define PROFILE_SIZE	(1u << 16)

struct profile_entry {
	uint64_t key;			/* slot << 48 | low 48 bits of the address, 0 free */
	uint64_t count;
};

static struct profile_entry *profile;
static pthread_mutex_t profile_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int pslots[MAX_PSLOTS], n_pslots;
static uint64_t profile_lost;

struct slot {
	bool open;
	bool migrated;		/* a region of the sum ended on another vCPU */
	unsigned int vcpu, to;
	uint64_t start;
	uint64_t sum;		/* of the regions since the last end marker */
};

static struct vcpu_count *counts;
static unsigned int max_vcpus;
static bool all_vcpus;
static int priv = PRIV_ALL;

static struct slot slots[MAX_SLOTS];
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static uint64_t n_begin, n_end, n_lost;

/*
 * An execution callback's userdata: the block's length and its side of the
 * address split; a marker's: its kind, slot, the block's side, and how many
 * instructions of the block, the marker included, follow it (already
 * counted when the block started).
 */
#define UD_PRIV_SHIFT	63
#define UD_KIND_SHIFT	12
#define UD_AFTER_SHIFT	16

static uint64_t vcpu_read(unsigned int vcpu, int which)
{
	uint64_t *c = counts[vcpu].insns;

	if (which == PRIV_ALL)
		return __atomic_load_n(&c[PRIV_KERNEL], __ATOMIC_RELAXED) +
		       __atomic_load_n(&c[PRIV_USER], __ATOMIC_RELAXED);
	return __atomic_load_n(&c[which], __ATOMIC_RELAXED);
}

/* The count that a slot measures, as seen from @vcpu. */
static uint64_t count_now(unsigned int vcpu)
{
	uint64_t sum = 0;

	if (!all_vcpus)
		return vcpu_read(vcpu, priv);
	for (unsigned int i = 0; i < max_vcpus; i++)
		sum += vcpu_read(i, priv);
	return sum;
}

static bool profiled(unsigned int slot)
{
	for (unsigned int i = 0; i < n_pslots; i++)
		if (pslots[i] == slot)
			return true;
	return false;
}

/* Adds @n instructions to the block at @vaddr in profiled slot @slot. */
static void profile_add(unsigned int slot, uint64_t vaddr, uint64_t n)
{
	uint64_t key = (uint64_t)(slot + 1) << 48 | (vaddr & ((1ull << 48) - 1));
	unsigned int i = (unsigned int)((key * 0x9e3779b97f4a7c15ull) >> 48) &
			 (PROFILE_SIZE - 1);

	pthread_mutex_lock(&profile_lock);
	for (unsigned int probes = 0; probes < PROFILE_SIZE; probes++) {
		struct profile_entry *e = &profile[(i + probes) & (PROFILE_SIZE - 1)];

		if (e->key == key || !e->key) {
			e->key = key;
			e->count += n;
			pthread_mutex_unlock(&profile_lock);
			return;
		}
	}
	profile_lost += n;
	pthread_mutex_unlock(&profile_lock);
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t ud = (uintptr_t)udata;
	uint64_t *c;

	if (vcpu >= max_vcpus)
		return;
	c = &counts[vcpu].insns[ud >> UD_PRIV_SHIFT];
	/* Only this vCPU's thread writes *c: a plain add, read elsewhere. */
	__atomic_store_n(c, *c + (uint32_t)ud, __ATOMIC_RELAXED);
}

/* The same for a block of a profile: @udata points at its address and length. */
static void tb_exec_profiled(unsigned int vcpu, void *udata)
{
	const uint64_t *tb = udata;	/* [0] the udata of tb_exec(), [1] the address */
	int pslot;

	tb_exec(vcpu, (void *)(uintptr_t)tb[0]);
	if (vcpu >= max_vcpus)
		return;
	pslot = __atomic_load_n(&counts[vcpu].pslot, __ATOMIC_RELAXED);
	if (pslot >= 0)
		profile_add(pslot, tb[1], (uint32_t)tb[0]);
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	uintptr_t ud = (uintptr_t)udata;
	unsigned int slot = ud & (MAX_SLOTS - 1);
	unsigned int kind = (ud >> UD_KIND_SHIFT) & 0xf;
	uint64_t after = (uint32_t)(ud >> UD_AFTER_SHIFT);
	int side = ud >> UD_PRIV_SHIFT;
	struct slot *s = &slots[slot];
	uint64_t now;

	if (vcpu >= max_vcpus)
		return;
	now = count_now(vcpu);
	/* The rest of this block is counted already: take it back. */
	if (priv == PRIV_ALL || priv == side)
		now -= after;

	if (n_pslots && profiled(slot))
		__atomic_store_n(&counts[vcpu].pslot, kind == MARKER_BEGIN ? (int)slot : -1,
				 __ATOMIC_RELAXED);
	pthread_mutex_lock(&slot_lock);
	if (kind == MARKER_BEGIN) {
		s->open = true;
		s->vcpu = vcpu;
		s->start = now;
		/* The begin marker itself is not counted. */
		if (priv == PRIV_ALL || priv == side)
			s->start++;
		n_begin++;
	} else if (!s->open) {
		n_lost++;
	} else {
		s->open = false;
		if (!all_vcpus && s->vcpu != vcpu) {
			s->migrated = true;
			s->to = vcpu;
		} else {
			s->sum += now - s->start;
		}
		if (kind == MARKER_END) {
			n_end++;
			if (out && s->migrated)
				fprintf(out, "# %u vCPU %u -> %u: not counted\n",
					slot, s->vcpu, s->to);
			else if (out)
				fprintf(out, "%u %" PRIu64 "\n", slot, s->sum);
			if (out)
				fflush(out);
			s->sum = 0;
			s->migrated = false;
		}
	}
	pthread_mutex_unlock(&slot_lock);
}

/* The marker's kind (MARKER_BEGIN, _END or _PAUSE) and slot, or 0. */
static unsigned int marker_parse(struct qemu_plugin_insn *insn,
				 unsigned int *slot)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (qemu_plugin_insn_size(insn) != MARKER_LEN)
		return 0;
	/* nopl disp32(%rax): 0f 1f /0, ModRM mod=10 reg=0 rm=000 (0x80) */
	if (b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80)
		return 0;
	disp = b[3] | b[4] << 8 | b[5] << 16 | (uint32_t)b[6] << 24;
	if (disp >> 16 != MARKER_MAGIC)
		return 0;
	*slot = disp & (MAX_SLOTS - 1);
	switch ((disp >> UD_KIND_SHIFT) & 0xf) {
	case MARKER_BEGIN:
		return MARKER_BEGIN;
	case MARKER_END:
		return MARKER_END;
	case MARKER_PAUSE:
		return MARKER_PAUSE;
	}
	return 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uintptr_t side = qemu_plugin_tb_vaddr(tb) < USER_SPLIT ?
			 PRIV_USER : PRIV_KERNEL;

	if (!n)
		return;
	if (n_pslots) {
		/* Never freed: a translated block's callbacks outlive nothing we know of. */
		uint64_t *tb_ud = malloc(2 * sizeof(*tb_ud));

		if (tb_ud) {
			tb_ud[0] = side << UD_PRIV_SHIFT | (uint32_t)n;
			tb_ud[1] = qemu_plugin_tb_vaddr(tb);
			qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_profiled,
							     QEMU_PLUGIN_CB_NO_REGS, tb_ud);
		}
	} else {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
			(void *)(side << UD_PRIV_SHIFT | (uint32_t)n));
	}

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		unsigned int kind, slot;
		uintptr_t ud;

		kind = marker_parse(insn, &slot);
		if (!kind)
			continue;
		ud = side << UD_PRIV_SHIFT | (uintptr_t)(n - i) << UD_AFTER_SHIFT |
		     kind << UD_KIND_SHIFT | slot;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
						       QEMU_PLUGIN_CB_NO_REGS,
						       (void *)ud);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	if (!out)
		return;
	fprintf(out, "# begin %" PRIu64 " end %" PRIu64 " unmatched end %"
		PRIu64 "\n", n_begin, n_end, n_lost);
	for (unsigned int i = 0; profile && i < PROFILE_SIZE; i++)
		if (profile[i].key)
			fprintf(out, "P %u 0x%" PRIx64 " %" PRIu64 "\n",
				(unsigned int)(profile[i].key >> 48) - 1,
				/* the address, sign-extended from 48 bits */
				(uint64_t)((int64_t)(profile[i].key << 16) >> 16),
				profile[i].count);
	if (profile_lost)
		fprintf(out, "# profile: %" PRIu64 " instructions lost (table full)\n",
			profile_lost);
	for (unsigned int i = 0; i < max_vcpus; i++) {
		uint64_t k = vcpu_read(i, PRIV_KERNEL), u = vcpu_read(i, PRIV_USER);

		if (k || u)
			fprintf(out, "# vCPU %u kernel %" PRIu64 " user %" PRIu64
				"\n", i, k, u);
	}
	fclose(out);
	out = NULL;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;

	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *val = eq ? eq + 1 : "";
		size_t klen = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

		if (klen == 3 && !strncmp(argv[i], "out", 3)) {
			path = val;
		} else if (klen == 5 && !strncmp(argv[i], "vcpus", 5) &&
			   (!strcmp(val, "one") || !strcmp(val, "all"))) {
			all_vcpus = !strcmp(val, "all");
		} else if (klen == 7 && !strncmp(argv[i], "profile", 7) &&
			   n_pslots < MAX_PSLOTS && *val) {
			pslots[n_pslots++] = (unsigned int)strtoul(val, NULL, 0) &
					     (MAX_SLOTS - 1);
		} else if (klen == 4 && !strncmp(argv[i], "priv", 4) &&
			   !strcmp(val, "all")) {
			priv = PRIV_ALL;
		} else if (klen == 4 && !strncmp(argv[i], "priv", 4) &&
			   !strcmp(val, "user")) {
			priv = PRIV_USER;
		} else if (klen == 4 && !strncmp(argv[i], "priv", 4) &&
			   !strcmp(val, "kernel")) {
			priv = PRIV_KERNEL;
		} else {
			fprintf(stderr, "insn_count: unknown option %s\n",
				argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "insn_count: out=FILE is required\n");
		return -1;
	}
	if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insn_count: x86_64 guests only, not %s\n",
			info->target_name);
		return -1;
	}

	max_vcpus = info->system_emulation ? info->system.max_vcpus :
			USER_MAX_VCPUS;
	/* One cache line per vCPU: no false sharing between vCPU threads. */
	counts = aligned_alloc(64, max_vcpus * sizeof(*counts));
	if (!counts)
		return -1;
	memset(counts, 0, max_vcpus * sizeof(*counts));
	for (unsigned int i = 0; i < max_vcpus; i++)
		counts[i].pslot = -1;
	if (n_pslots) {
		profile = calloc(PROFILE_SIZE, sizeof(*profile));
		if (!profile) {
			free(counts);
			return -1;
		}
	}
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "insn_count: cannot open %s\n", path);
		free(counts);
		return -1;
	}

	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * vrampool_canary: deliberate memory bugs, on request, so that the debug
 * VM can prove its detectors report them (make check-debug). Test-only:
 * never load it anywhere else.
 *
 * Write one word to /sys/kernel/debug/vrampool_canary/trigger:
 *
 *   leak             kmalloc objects too large for a slab cache and drop
 *                    the only pointers to them (kmemleak reports them
 *                    after two scans, 5 s later); reading "leaked" then
 *                    gives their addresses, one per line
 *   double-free      kfree the same object twice (KASAN: double-free)
 *   use-after-free   read an object after kfree (KASAN: slab-use-after-free)
 *   ubsan            index a fixed-size array one past its end (UBSAN:
 *                    array-index-out-of-bounds; the element is still inside
 *                    the object, so KASAN stays silent)
 *   rcu              rcu_dereference() outside rcu_read_lock() (lockdep:
 *                    "suspicious RCU usage")
 *   soft-lockup      spin with preemption off for CANARY_SPIN_SECS (the VM's
 *                    init first lowers watchdog_thresh to 1: "BUG: soft
 *                    lockup" after 2 s)
 *   hung-task        sleep uninterruptibly for CANARY_SLEEP_SECS (the init
 *                    lowers hung_task_timeout_secs to 2: "blocked for more
 *                    than 2 seconds")
 *   kobject-release  drop the last reference to a kobject and free its memory
 *                    at once, the bug DEBUG_KOBJECT_RELEASE exists to show:
 *                    its release is delayed ("'vrampool_canary' (...):
 *                    kobject_release, parent ... (delayed N)"), then runs
 *                    on the freed memory (KASAN: slab-use-after-free, in
 *                    the timer and the workqueue that run it); the write
 *                    waits for it
 *
 * A write returns once its bug is done (the two waits take their time).
 */

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define CANARY_SIZE	200
#define CANARY_BYTE	0xca
/*
 * kmemleak scans every live task's whole kernel stack, stale parts included,
 * and an exited task's stack may stay allocated (the per-CPU cache of
 * stacks) and scanned until a new task takes it: a stale copy of a leaked
 * pointer there hides the leak. The allocator's callees leave such copies
 * well below the caller's frame (KASAN and lockdep make their frames deep),
 * so leak several objects, then wipe all of the stack below this frame.
 *
 * Nor do they come from a slab cache: 7.3's per-CPU sheaves keep the
 * pointer of each object they handed out in a slot of their own array
 * until a refill overwrites it, and kmemleak, scanning the sheaf, counts
 * that stale copy as a reference (seen: every leaked 200-byte object had
 * count 1). Past KMALLOC_MAX_CACHE_SIZE, kmalloc() takes whole pages,
 * which kmemleak tracks and nothing points to.
 */
#define CANARY_LEAKS		8
#define CANARY_LEAK_SIZE	(4 * PAGE_SIZE)
/* Longer than the init's lowered thresholds (2 s each) with room for TCG. */
#define CANARY_SPIN_SECS	8
#define CANARY_SLEEP_SECS	10

static struct dentry *canary_dir;

/*
 * The addresses of the objects "leak" dropped, for the init to look up in
 * kmemleak's list (and to dump, should kmemleak stay silent). Complemented:
 * kmemleak scans this module's data, and a plain copy would be a reference.
 */
static unsigned long canary_leaked_inv[CANARY_LEAKS];
static int canary_nr_leaked;

/* For "rcu": an RCU-protected pointer, read without the read lock. */
static int canary_rcu_value = 0xca;
static int __rcu *canary_rcu_ptr = RCU_INITIALIZER(&canary_rcu_value);

/*
 * Zero this task's stack from its end up to the stack pointer. Nothing below
 * the stack pointer is live (the kernel has no red zone), and an interrupt
 * that pushes its frame there meanwhile is done with it when the loop goes
 * on. Uninstrumented: KASAN may still hold stale redzones of frames below.
 */
static noinline __no_sanitize_address void canary_wipe_stack(void)
{
	unsigned long *w = end_of_stack(current) + 1;	/* past STACK_END_MAGIC */
	unsigned long *sp = (unsigned long *)current_stack_pointer;

	for (; w < sp; w++)
		WRITE_ONCE(*w, 0);
}

static noinline void canary_leak(void)
{
	static_assert(CANARY_LEAK_SIZE > KMALLOC_MAX_CACHE_SIZE);
	int i;

	for (i = 0; i < CANARY_LEAKS; i++) {
		char *p = kmalloc(CANARY_LEAK_SIZE, GFP_KERNEL);

		if (!p)
			return;
		memset(p, CANARY_BYTE, CANARY_LEAK_SIZE);
		OPTIMIZER_HIDE_VAR(p);
		WRITE_ONCE(canary_leaked_inv[i], ~(unsigned long)p);
		WRITE_ONCE(canary_nr_leaked, i + 1);
	}
	pr_info("vrampool_canary: leaked %d objects of %lu bytes\n", CANARY_LEAKS,
		CANARY_LEAK_SIZE);
	canary_wipe_stack();
}

static noinline void canary_double_free(void)
{
	char *p = kmalloc(CANARY_SIZE, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	kfree(p);
	pr_info("vrampool_canary: freed a %d-byte object twice\n", CANARY_SIZE);
}

static noinline void canary_use_after_free(void)
{
	char *p = kmalloc(CANARY_SIZE, GFP_KERNEL);
	char c;

	if (!p)
		return;
	memset(p, CANARY_BYTE, CANARY_SIZE);
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	c = READ_ONCE(p[CANARY_SIZE / 2]);
	pr_info("vrampool_canary: read 0x%02x after kfree\n", (unsigned char)c);
}

/* For "ubsan": a fixed-size array with a neighbour, so one past it stays in. */
struct canary_bounds {
	int arr[4];
	int after;
};

static noinline void canary_ubsan(void)
{
	struct canary_bounds *b = kzalloc(sizeof(*b), GFP_KERNEL);
	int i = ARRAY_SIZE(b->arr);

	if (!b)
		return;
	OPTIMIZER_HIDE_VAR(i);
	b->arr[i] = CANARY_BYTE;
	pr_info("vrampool_canary: wrote arr[%d] of int[4]: after = 0x%x\n", i, b->after);
	kfree(b);
}

static noinline void canary_rcu(void)
{
	int *p = rcu_dereference(canary_rcu_ptr);

	pr_info("vrampool_canary: read %d through an RCU pointer without rcu_read_lock\n", *p);
}

static noinline void canary_soft_lockup(void)
{
	u64 end = local_clock() + CANARY_SPIN_SECS * NSEC_PER_SEC;

	preempt_disable();
	while (local_clock() < end)
		cpu_relax();
	preempt_enable();
	pr_info("vrampool_canary: spun %d s with preemption off\n", CANARY_SPIN_SECS);
}

static noinline void canary_hung_task(void)
{
	DECLARE_COMPLETION_ONSTACK(never);

	/* Uninterruptible, like a lost wake-up: nothing completes it. */
	wait_for_completion_timeout(&never, CANARY_SLEEP_SECS * HZ);
	pr_info("vrampool_canary: slept %d s uninterruptibly\n", CANARY_SLEEP_SECS);
}

/*
 * For "kobject-release": the kobject sits past the start of its allocation,
 * where KASAN keeps its free-time metadata, so that its fields are intact
 * when the delayed release reads them: only the use after free shows.
 */
struct canary_kobj {
	char pad[64];
	struct kobject kobj;
};

static bool canary_kobj_released;

/* Frees nothing: the buggy caller already did. */
static void canary_kobj_release(struct kobject *kobj)
{
	WRITE_ONCE(canary_kobj_released, true);
}

static const struct kobj_type canary_ktype = {
	.release = canary_kobj_release,
};

static noinline void canary_kobject_release(void)
{
	struct canary_kobj *ck = kzalloc(sizeof(*ck), GFP_KERNEL);
	bool delayed;
	int i;

	if (!ck)
		return;
	kobject_init(&ck->kobj, &canary_ktype);
	if (kobject_set_name(&ck->kobj, "vrampool_canary")) {
		kfree(ck);
		return;
	}
	WRITE_ONCE(canary_kobj_released, false);
	kobject_put(&ck->kobj);
	delayed = !READ_ONCE(canary_kobj_released);
	/* The bug: the release may not have run yet. */
	kfree(ck);
	/* DEBUG_KOBJECT_RELEASE delays it by 1 to 4 s: wait for it here. */
	for (i = 0; i < CANARY_SLEEP_SECS * 10 && !READ_ONCE(canary_kobj_released); i++)
		msleep(100);
	pr_info("vrampool_canary: freed a kobject right after its last put; its release ran %s\n",
		delayed ? "later" : "at once");
}

static const struct {
	const char *name;
	void (*trigger)(void);
} canary_bugs[] = {
	{ "leak", canary_leak },
	{ "double-free", canary_double_free },
	{ "use-after-free", canary_use_after_free },
	{ "ubsan", canary_ubsan },
	{ "rcu", canary_rcu },
	{ "soft-lockup", canary_soft_lockup },
	{ "hung-task", canary_hung_task },
	{ "kobject-release", canary_kobject_release },
};

static ssize_t canary_trigger_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	char buf[32];
	size_t n = min(len, sizeof(buf) - 1);
	size_t i;

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = '\0';
	strim(buf);

	for (i = 0; i < ARRAY_SIZE(canary_bugs); i++) {
		if (!strcmp(buf, canary_bugs[i].name)) {
			canary_bugs[i].trigger();
			return len;
		}
	}
	return -EINVAL;
}

static const struct file_operations canary_trigger_fops = {
	.owner = THIS_MODULE,
	.write = canary_trigger_write,
};

static int canary_leaked_show(struct seq_file *m, void *unused)
{
	int i, n = READ_ONCE(canary_nr_leaked);

	for (i = 0; i < n; i++)
		seq_printf(m, "0x%lx\n", ~READ_ONCE(canary_leaked_inv[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(canary_leaked);

static int __init canary_init(void)
{
	canary_dir = debugfs_create_dir("vrampool_canary", NULL);
	debugfs_create_file("trigger", 0200, canary_dir, NULL, &canary_trigger_fops);
	debugfs_create_file("leaked", 0400, canary_dir, NULL, &canary_leaked_fops);
	return 0;
}

static void __exit canary_exit(void)
{
	debugfs_remove_recursive(canary_dir);
}

module_init(canary_init);
module_exit(canary_exit);
MODULE_DESCRIPTION("vrampool test canary: deliberate bugs for each debug-kernel detector");
MODULE_LICENSE("GPL");

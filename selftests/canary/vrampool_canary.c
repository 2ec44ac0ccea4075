// SPDX-License-Identifier: GPL-2.0
/*
 * vrampool_canary: deliberate memory bugs, on request, so that the debug
 * VM can prove its detectors report them (make check-debug). Test-only:
 * never load it anywhere else.
 *
 * Write one word to /sys/kernel/debug/vrampool_canary/trigger:
 *
 *   leak             kmalloc objects and drop the only pointers to them
 *                    (kmemleak reports them after two scans, 5 s later)
 *   double-free      kfree the same object twice (KASAN: double-free)
 *   use-after-free   read an object after kfree (KASAN: slab-use-after-free)
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define CANARY_SIZE	200
#define CANARY_BYTE	0xca
/*
 * kmemleak scans every live task's whole kernel stack, stale parts included,
 * and a freed stack's pages may become the next task's stack: a stale copy
 * of a leaked pointer there hides the leak. Only the last pointers can be
 * left in stack slots and registers, so leak several objects, then wipe
 * the stack below this frame.
 */
#define CANARY_LEAKS	4

static struct dentry *canary_dir;

/* Zero about depth * 512 bytes of stack below the caller's frame. */
static noinline void canary_wipe_stack(int depth)
{
	char junk[512];

	if (depth > 1)
		canary_wipe_stack(depth - 1);
	memzero_explicit(junk, sizeof(junk));
}

static noinline void canary_leak(void)
{
	int i;

	for (i = 0; i < CANARY_LEAKS; i++) {
		char *p = kmalloc(CANARY_SIZE, GFP_KERNEL);

		if (!p)
			return;
		memset(p, CANARY_BYTE, CANARY_SIZE);
		OPTIMIZER_HIDE_VAR(p);
	}
	pr_info("vrampool_canary: leaked %d objects of %d bytes\n", CANARY_LEAKS, CANARY_SIZE);
	canary_wipe_stack(12);
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

static ssize_t canary_trigger_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	char buf[32];
	size_t n = min(len, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = '\0';
	strim(buf);

	if (!strcmp(buf, "leak"))
		canary_leak();
	else if (!strcmp(buf, "double-free"))
		canary_double_free();
	else if (!strcmp(buf, "use-after-free"))
		canary_use_after_free();
	else
		return -EINVAL;
	return len;
}

static const struct file_operations canary_trigger_fops = {
	.owner = THIS_MODULE,
	.write = canary_trigger_write,
};

static int __init canary_init(void)
{
	canary_dir = debugfs_create_dir("vrampool_canary", NULL);
	debugfs_create_file("trigger", 0200, canary_dir, NULL, &canary_trigger_fops);
	return 0;
}

static void __exit canary_exit(void)
{
	debugfs_remove_recursive(canary_dir);
}

module_init(canary_init);
module_exit(canary_exit);
MODULE_DESCRIPTION("vrampool test canary: deliberate leak, double free, use after free");
MODULE_LICENSE("GPL");

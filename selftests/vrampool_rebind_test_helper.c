// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a file whose device was unbound can still do: every vrampool ioctl
 * on it fails with ENODEV (and touches nothing), and so does opening the
 * device's old accel node again.
 *
 *   vrampool_rebind_test_helper alloc FD          (before the unbind)
 *   vrampool_rebind_test_helper check FD [NODE]   (after it)
 *   vrampool_rebind_test_helper stall FD IOCTL UNBIND DEVICE
 *
 * FD is an inherited descriptor of the device, open across the unbind.
 * "alloc" gives its file live allocations (a slice, an exclusive page and a
 * persistent buffer), which stay with the open file after this exits and
 * go when the script closes it, after the unbind. "check" runs every ioctl
 * on it; NODE, if given, is a character device node with the unbound
 * device's old major:minor, which must not open.
 *
 * "stall" makes IOCTL (install or batch) copy its array from a page a
 * userfaultfd never fills, so that the copy waits; once it waits, it writes
 * DEVICE to UNBIND (the driver's unbind file) in a child and requires the
 * unbind to finish within 10 s while the copy still waits (DOC: unplug,
 * driver/vrampool_drv.c). Then it fills the page: the ioctl ends, with
 * any result. If the unbind does not finish, it fills the page all the
 * same, so that the unbind can, and fails.
 * Prints one "#" line per check, for the calling script's TAP, and exits 1
 * if any check failed.
 *
 * Not a *_test: only vrampool_rebind_test.sh runs it, between an unbind
 * and the bind that follows.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#include "vrampool_test_lib.h"

static int failed;

static void expect_enodev(const char *what, int ret)
{
	if (ret == -ENODEV) {
		printf("# unplugged: %s fails with ENODEV\n", what);
		return;
	}
	printf("# FAIL unplugged: %s gave %d (%s), not ENODEV\n", what, ret,
	       ret ? strerror(-ret) : "success");
	failed++;
}

static void check_ioctls(int fd)
{
	struct drm_vrampool_pool_install inst;
	struct drm_vrampool_pool_query q = {};
	struct drm_vrampool_alloc a;
	uint64_t v;

	expect_enodev("GET_PARAM", vp_get_param(fd, DRM_VRAMPOOL_PARAM_VRAM_SIZE, &v));
	vp_req_preset(&inst, DRM_VRAMPOOL_PRESET_SUB_SLICES, 0);
	expect_enodev("POOL_INSTALL", vp_install(fd, &inst));
	expect_enodev("POOL_QUERY", vp_query(fd, &q));
	expect_enodev("ALLOC", vp_alloc(fd, 4096, 0, &a));
	expect_enodev("ALLOC persistent", vp_alloc(fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a));
	expect_enodev("FREE", vp_free(fd, 1));
	expect_enodev("CLEANUP", vp_cleanup(fd));
	expect_enodev("SET_PERSISTENT_MODE",
		      vp_set_persistent_mode(fd, DRM_VRAMPOOL_PERSISTENT_DISABLED, NULL));
}

static void check_open(const char *node)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	expect_enodev("open() of the old node", fd >= 0 ? 0 : -errno);
}

static int give_allocations(int fd)
{
	static const uint64_t sizes[] = { 1000, 0, 65536 };
	struct drm_vrampool_alloc a;
	unsigned int i;
	int ret;

	for (i = 0; i < 3; i++) {
		ret = vp_alloc(fd, sizes[i], i == 2 ? DRM_VRAMPOOL_ALLOC_PERSISTENT : 0, &a);
		if (ret) {
			printf("# FAIL ALLOC of %llu before the unbind: %s\n",
			       (unsigned long long)sizes[i], strerror(-ret));
			return 1;
		}
	}
	return 0;
}

/* ---- an ioctl stalled in a user copy, and an unbind -------------------- */

struct stalled {
	int fd;
	bool batch;
	void *page;		/* the never-filled page the ioctl reads */
	int ret;
};

static void *stalled_ioctl(void *arg)
{
	struct stalled *st = arg;

	if (st->batch) {
		struct drm_vrampool_alloc_batch b = {
			.requests = (uintptr_t)st->page,
			.answers = (uintptr_t)st->page + 2048,
			.count = 4,
		};

		st->ret = vp_ioctl(st->fd, DRM_IOCTL_VRAMPOOL_ALLOC_BATCH, &b);
	} else {
		struct drm_vrampool_pool_install inst;

		vp_req_list(&inst, st->page, 2, 0);
		st->ret = vp_ioctl(st->fd, DRM_IOCTL_VRAMPOOL_POOL_INSTALL, &inst);
	}
	return NULL;
}

/* A page registered with a new userfaultfd (missing pages): the uffd, or -1. */
static int uffd_page(void **page)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	long psz = sysconf(_SC_PAGESIZE);
	int uffd;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		printf("# FAIL userfaultfd: %s\n", strerror(errno));
		return -1;
	}
	*page = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (uintptr_t)*page;
	reg.range.len = psz;
	if (*page == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api) ||
	    ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		printf("# FAIL userfaultfd setup: %s\n", strerror(errno));
		close(uffd);
		return -1;
	}
	return uffd;
}

/* Whether a fault on the page arrives within @ms: the ioctl waits in its copy. */
static bool fault_seen(int uffd, int ms)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	return poll(&p, 1, ms) == 1 && read(uffd, &msg, sizeof(msg)) == sizeof(msg) &&
	       msg.event == UFFD_EVENT_PAGEFAULT;
}

/* Writes @dev to @unbind in a child; its pid. */
static pid_t unbind_in_child(const char *unbind, const char *dev)
{
	pid_t pid = fork();

	if (!pid)
		_exit(vp_write_file(unbind, dev) ? 1 : 0);
	return pid;
}

/* Whether @pid exits within @s seconds, with status 0. */
static bool exits_within(pid_t pid, int s, bool *ok)
{
	int i, status;

	for (i = 0; i < s * 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			*ok = WIFEXITED(status) && !WEXITSTATUS(status);
			return true;
		}
		usleep(100000);
	}
	return false;
}

static int stall(int fd, const char *what, const char *unbind, const char *dev)
{
	struct stalled st = { .fd = fd, .batch = !strcmp(what, "batch") };
	struct uffdio_zeropage zero;
	bool done, ok = false;
	pthread_t t;
	pid_t pid;
	int uffd, status;

	uffd = uffd_page(&st.page);
	if (uffd < 0)
		return 1;
	if (pthread_create(&t, NULL, stalled_ioctl, &st)) {
		printf("# FAIL pthread_create\n");
		return 1;
	}
	if (!fault_seen(uffd, 10000)) {
		printf("# FAIL %s: the ioctl never read the page\n", what);
		failed++;
	}
	pid = unbind_in_child(unbind, dev);
	done = exits_within(pid, 10, &ok);
	if (done && ok)
		printf("# %s stalled in its copy: the unbind finished\n", what);
	else if (done)
		printf("# FAIL %s stalled: the unbind failed\n", what), failed++;
	else
		printf("# FAIL %s stalled: the unbind still waits after 10 s\n", what), failed++;

	/* Fill the page: the copy goes on, the ioctl ends (any result). */
	zero.range.start = (uintptr_t)st.page;
	zero.range.len = sysconf(_SC_PAGESIZE);
	zero.mode = 0;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero) && errno != EEXIST) {
		printf("# FAIL UFFDIO_ZEROPAGE: %s\n", strerror(errno));
		failed++;
	}
	pthread_join(t, NULL);
	printf("# %s ended with %d after the page came\n", what, st.ret);
	if (!done)
		waitpid(pid, &status, 0);
	close(uffd);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "alloc"))
		return give_allocations(atoi(argv[2]));
	if (argc == 6 && !strcmp(argv[1], "stall"))
		return stall(atoi(argv[2]), argv[3], argv[4], argv[5]);
	if ((argc != 3 && argc != 4) || strcmp(argv[1], "check")) {
		fprintf(stderr, "usage: %s alloc FD | check FD [NODE] | stall FD IOCTL UNBIND DEVICE\n",
			argv[0]);
		return 2;
	}
	check_ioctls(atoi(argv[2]));
	if (argc == 4)
		check_open(argv[3]);
	return failed ? 1 : 0;
}

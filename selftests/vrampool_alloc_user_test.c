// SPDX-License-Identifier: GPL-2.0-only
/*
 * ALLOC and FREE arguments in user memory, on each backend, as
 * drm_ioctl() copies them in and out:
 * - An argument the kernel cannot read is EFAULT, with nothing allocated or
 *   freed, whether it is NULL or runs into an unmapped page.
 * - An argument it cannot write back (read-only) is EFAULT after the
 *   allocation is made: the allocation is the file's. A FREE from
 *   read-only memory (FREE is write-only, nothing is copied back) frees it.
 * - Every answer and error field is written back on success and on
 *   failure, whatever it held before; the input fields stay as they were.
 *   A refused argument (EINVAL) is left byte for byte as it was.
 * - The same command with another argument size serves and frees just the
 *   same (drm_ioctl() zero-extends a shorter one).
 * - A descriptor handed to another process: that process's first call
 *   makes it the file's owner (sysfs pid).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"

#define GARBAGE		0xa5

VP_SYSFS_CLIENT_FIXTURE(alloc_user);

/* Live allocations in every pool of the file, as POOL_QUERY counts them. */
static uint64_t live_allocations(struct __test_metadata *_metadata, int fd)
{
	struct vp_snap *s = malloc(sizeof(*s));
	uint64_t n = 0;
	uint32_t i;

	if (!s)
		return UINT64_MAX;
	EXPECT_EQ(0, vp_snap_take(fd, s));
	for (i = 0; i < s->count; i++)
		n += s->pools[i].allocations;
	free(s);
	return n;
}

/* A raw ioctl: -errno, no retry. */
static int raw_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

TEST_F(alloc_user, unreadable_argument_is_efault_and_changes_nothing)
{
	long page = sysconf(_SC_PAGESIZE);
	struct drm_vrampool_alloc *a, live;
	struct drm_vrampool_free *f;
	char *map;

	EXPECT_EQ(-EFAULT, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_ALLOC, NULL));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_FREE, NULL));

	/* Two pages, the second unmapped: each argument runs into it. */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + page, page));
	a = (void *)(map + page - offsetof(struct drm_vrampool_alloc, pad));
	memset(a, 0, offsetof(struct drm_vrampool_alloc, pad));
	a->size = 4096;
	EXPECT_EQ(-EFAULT, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_ALLOC, a));
	EXPECT_EQ(0u, live_allocations(_metadata, self->c.fd)) TH_LOG("an ALLOC that faulted");

	/* A live allocation, and a FREE of it that faults: it stays live. */
	ASSERT_EQ(0, vp_alloc(self->c.fd, 4096, 0, &live));
	f = (void *)(map + page - offsetof(struct drm_vrampool_free, reserved));
	f->handle = live.handle;
	f->flags = 0;
	EXPECT_EQ(-EFAULT, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_FREE, f));
	EXPECT_EQ(1u, live_allocations(_metadata, self->c.fd)) TH_LOG("a FREE that faulted");
	EXPECT_EQ(0, vp_free(self->c.fd, live.handle));
	munmap(map, page);
}

TEST_F(alloc_user, unwritable_answer_is_efault_after_the_allocation)
{
	long page = sysconf(_SC_PAGESIZE);
	struct drm_vrampool_alloc *a;
	struct drm_vrampool_alloc next;
	struct drm_vrampool_free *f;
	char *map;

	map = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	a = (void *)map;
	memset(a, 0, sizeof(*a));
	a->size = 4096;
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	EXPECT_EQ(-EFAULT, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_ALLOC, a));
	EXPECT_EQ(1u, live_allocations(_metadata, self->c.fd)) {
		TH_LOG("drm_ioctl() makes the allocation before its copy out fails");
	}
	EXPECT_EQ(0u, a->handle) TH_LOG("nothing was written");

	/* A FREE from read-only memory writes nothing back: it frees (FREE is write-only). */
	ASSERT_EQ(0, mprotect(map, page, PROT_READ | PROT_WRITE));
	f = (void *)map;
	memset(f, 0, sizeof(*f));
	f->handle = 1;
	ASSERT_EQ(0, mprotect(map, page, PROT_READ));
	EXPECT_EQ(0, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_FREE, f));
	EXPECT_EQ(0u, live_allocations(_metadata, self->c.fd)) TH_LOG("the read-only FREE");
	munmap(map, page);

	/* It took handle 1, freed above: the next ALLOC answers 2. */
	ASSERT_EQ(0, vp_alloc(self->c.fd, 4096, 0, &next));
	EXPECT_EQ(2u, next.handle);
	EXPECT_EQ(-ENOENT, vp_free(self->c.fd, 1));
	EXPECT_EQ(0, vp_free(self->c.fd, next.handle));
	EXPECT_EQ(0u, live_allocations(_metadata, self->c.fd));
}

/* An ALLOC of @size with @flags, every field it gives back holding garbage. */
static void garbage_request(struct drm_vrampool_alloc *a, uint64_t size, uint32_t flags)
{
	memset(a, GARBAGE, sizeof(*a));
	a->size = size;
	a->flags = flags;
	a->pad = a->pad2 = 0;
	a->reserved[0] = a->reserved[1] = 0;
}

TEST_F(alloc_user, every_answer_field_is_written_back)
{
	struct drm_vrampool_alloc a, before;

	/* Success: the answer fields are the allocation's; the error is zero. */
	garbage_request(&a, 4096, 0);
	ASSERT_EQ(0, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a));
	EXPECT_EQ(4096u, a.size) TH_LOG("an input field changed");
	EXPECT_NE(0u, a.handle);
	EXPECT_NE((uint32_t)DRM_VRAMPOOL_NO_PAGE, a.page);
	EXPECT_LE(4096u, a.page_size);
	EXPECT_NE(0u, a.mmap_offset);
	EXPECT_EQ(0u, a.padding);
	EXPECT_GE(a.page_size - 4096, a.offset);
	EXPECT_EQ(0u, a.error.code);
	EXPECT_EQ(0u, a.error.pool);
	EXPECT_EQ(0u, a.error.size);
	EXPECT_EQ(0u, a.error.capacity);
	EXPECT_EQ(0u, a.error.in_use);
	EXPECT_EQ(0, vp_free(self->c.fd, a.handle));

	/* Failure: the answer fields are zero and the error says why. */
	garbage_request(&a, self->c.vram_size * 4, 0);
	EXPECT_EQ(-EFBIG, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a));
	EXPECT_EQ(0u, a.handle);
	EXPECT_EQ(0u, a.pool);
	EXPECT_EQ(0u, a.page);
	EXPECT_EQ(0u, a.offset);
	EXPECT_EQ(0u, a.padding);
	EXPECT_EQ(0u, a.mmap_offset);
	EXPECT_EQ(0u, a.page_size);
	EXPECT_EQ((uint32_t)DRM_VRAMPOOL_ERR_BUFFER_TOO_BIG, a.error.code);
	EXPECT_EQ(self->c.vram_size * 4, a.error.size);
	EXPECT_EQ(0u, a.error.capacity);
	EXPECT_EQ(0u, a.error.in_use);

	/*
	 * A bad flag is EINVAL with every byte as it was: drm_ioctl() writes
	 * back what it read, and nothing else may reach userspace.
	 */
	garbage_request(&a, 4096, 1u << 31);
	memcpy(&before, &a, sizeof(a));
	EXPECT_EQ(-EINVAL, raw_ioctl(self->c.fd, DRM_IOCTL_VRAMPOOL_ALLOC, &a));
	EXPECT_EQ(0, memcmp(&before, &a, sizeof(a))) TH_LOG("a refused ALLOC wrote its argument");
}

/* The ALLOC command with @size bytes of argument. */
#define ALLOC_SIZED(size) \
	_IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE, DRM_COMMAND_BASE + DRM_VRAMPOOL_ALLOC, size)

TEST_F(alloc_user, other_argument_sizes_serve_the_same)
{
	unsigned char buf[sizeof(struct drm_vrampool_alloc) + 64];
	struct drm_vrampool_alloc *a = (void *)buf;
	uint32_t handles[2];

	/* Shorter, as an older header would have it: zero-extended. */
	memset(buf, 0, sizeof(buf));
	a->size = 4096;
	ASSERT_EQ(0, raw_ioctl(self->c.fd, ALLOC_SIZED(offsetof(struct drm_vrampool_alloc, error)),
			       a));
	EXPECT_NE(0u, a->handle);
	handles[0] = a->handle;

	/* Longer, as a newer one might: the driver's part is the same. */
	memset(buf, 0, sizeof(buf));
	a->size = 4096;
	ASSERT_EQ(0, raw_ioctl(self->c.fd, ALLOC_SIZED(sizeof(buf)), a));
	EXPECT_EQ(handles[0] + 1, a->handle);
	handles[1] = a->handle;
	EXPECT_EQ(2u, live_allocations(_metadata, self->c.fd));

	EXPECT_EQ(0, vp_free(self->c.fd, handles[0]));
	EXPECT_EQ(0, vp_free(self->c.fd, handles[1]));
	EXPECT_EQ(-ENOENT, vp_free(self->c.fd, handles[1]));
	EXPECT_EQ(0u, live_allocations(_metadata, self->c.fd));
}

/* The child: ALLOC on the inherited descriptor, then report its owner. */
static int child_allocates(int fd, const char *cdir)
{
	struct drm_vrampool_alloc a;
	char path[VP_DIR_LEN + 8];
	uint64_t pid;

	if (vp_alloc(fd, 4096, 0, &a) || vp_free(fd, a.handle))
		return 2;
	snprintf(path, sizeof(path), "%s/pid", cdir);
	if (vp_read_u64_file(path, &pid))
		return 3;
	return pid == (uint64_t)getpid() ? 0 : 1;
}

TEST_F(alloc_user, another_process_becomes_the_owner)
{
	char path[VP_DIR_LEN + 8];
	uint64_t pid;
	int status;
	pid_t child;

	snprintf(path, sizeof(path), "%s/pid", self->c.cdir);
	ASSERT_EQ(0, vp_read_u64_file(path, &pid));
	EXPECT_EQ((uint64_t)getpid(), pid);

	child = fork();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(child_allocates(self->c.fd, self->c.cdir));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		TH_LOG("the child's ALLOC did not make it the owner (status %#x)", status);
	}

	/* And back: the parent's first call takes the file again. */
	EXPECT_EQ(0, child_allocates(self->c.fd, self->c.cdir));
}

TEST_HARNESS_MAIN

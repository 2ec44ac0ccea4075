// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ownership and CPU access of allocations, on each backend (the first
 * device of each):
 *
 *  - a handle belongs to the open file that made it: another file of the
 *    same process or another process gets -ENOENT for it, and a page of one
 *    file cannot be mapped through another (drm_gem_mmap: -EACCES, the
 *    offset is not allowed for that file);
 *  - dup() and fork() share the open file, so they share its handles;
 *  - closing the file frees everything it owned (a mapping keeps its page
 *    until munmap());
 *  - data written through a mapping stays while other allocations come and
 *    go in the same page; a new page never shows an earlier client's data;
 *  - writable MAP_PRIVATE mappings are refused; libvrampool's
 *    vrampool_map() points at the allocation;
 *  - the clients' POOL_QUERY vram_in_use add up to the device's VRAM_IN_USE.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vrampool_test_harness.h"
#include "vrampool.h"

FIXTURE(iso) {
	int fd;				/* client A */
	struct vp_device dev;
	uint64_t vram_start;
};

VP_BACKEND_VARIANTS(iso);

FIXTURE_SETUP(iso)
{
	self->fd = vp_setup_open_first(_metadata, variant->backend, &self->dev);
	ASSERT_EQ(0, vp_get_param(self->fd, DRM_VRAMPOOL_PARAM_VRAM_IN_USE, &self->vram_start));
}

FIXTURE_TEARDOWN(iso)
{
	if (self->fd >= 0)
		close(self->fd);
}

static int open_client(struct __test_metadata *_metadata, const struct vp_device *dev)
{
	int fd = vp_open_device(dev);

	EXPECT_LE(0, fd) TH_LOG("open %s: %s", dev->path, strerror(-fd));
	return fd;
}

/* Live allocations in all of a client's pools. */
static uint64_t live_allocations(struct __test_metadata *_metadata, int fd)
{
	struct vp_snap s;
	uint64_t sum = 0;
	uint32_t i;
	int ret;

	ret = vp_snap_take(fd, &s);
	EXPECT_EQ(0, ret) TH_LOG("POOL_QUERY: %s", strerror(-ret));
	EXPECT_LT(0u, s.count) TH_LOG("POOL_QUERY: no pool");
	for (i = 0; i < s.count; i++)
		sum += s.pools[i].allocations;
	return sum;
}

/* Run @fn in a child process; its exit status (0 = as expected). */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(fn(arg));
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- Ownership ------------------------------------------------------------ */

/*
 * Handles are per open file: another file of the same process gets
 * -ENOENT for A's handle, and numbers its own from 1 as A does; freeing
 * its own handle 1 leaves A's handle 1 alone.
 */
TEST_F(iso, handles_belong_to_their_open_file)
{
	struct drm_vrampool_alloc a, b;
	int fd2;

	VP_ALLOC_OK(self->fd, 1000, 0, &a, "A's allocation");
	fd2 = open_client(_metadata, &self->dev);
	ASSERT_LE(0, fd2);

	EXPECT_EQ(-ENOENT, vp_free(fd2, a.handle)) TH_LOG("B frees A's handle");
	EXPECT_EQ(1u, live_allocations(_metadata, self->fd));

	VP_ALLOC_OK(fd2, 1000, 0, &b, "B's allocation");
	EXPECT_EQ(a.handle, b.handle) TH_LOG("both files number their handles from 1");
	EXPECT_NE(a.mmap_offset, b.mmap_offset) TH_LOG("and each has its own page");
	VP_FREE_OK(fd2, b.handle, "B's own handle");
	EXPECT_EQ(0u, live_allocations(_metadata, fd2));
	EXPECT_EQ(1u, live_allocations(_metadata, self->fd)) TH_LOG("A's allocation lives");
	EXPECT_EQ(-ENOENT, vp_free(fd2, a.handle));
	close(fd2);

	VP_FREE_OK(self->fd, a.handle, "A's handle");
}

struct foreign_free {
	const struct vp_device *dev;
	uint32_t handle;
};

/* In a child: a new open file of the same device cannot free @handle. */
static int free_from_new_file(void *p)
{
	struct foreign_free *ff = p;
	int fd = vp_open_device(ff->dev);
	int ret;

	if (fd < 0)
		return 10;
	ret = vp_free(fd, ff->handle);
	close(fd);
	return ret == -ENOENT ? 0 : ret == 0 ? 11 : 12;
}

/* Another process, with a file of its own, gets -ENOENT. */
TEST_F(iso, handles_belong_to_their_process)
{
	struct drm_vrampool_alloc a;
	struct foreign_free ff = { &self->dev, 0 };
	int rc;

	VP_ALLOC_OK(self->fd, 1000, 0, &a, "A's allocation");
	ff.handle = a.handle;
	rc = in_child(free_from_new_file, &ff);
	EXPECT_EQ(0, rc) {
		TH_LOG("the other process's FREE: %s", rc == 11 ? "succeeded" :
		       rc == 12 ? "failed with an errno other than ENOENT" : "could not run");
	}
	EXPECT_EQ(1u, live_allocations(_metadata, self->fd));
	VP_FREE_OK(self->fd, a.handle, "A's handle");
}

struct inherited_free {
	int fd;
	uint32_t handle;
};

static int free_inherited(void *p)
{
	struct inherited_free *inh = p;

	return vp_free(inh->fd, inh->handle) ? 1 : 0;
}

/*
 * dup() and fork() do not make a new client: the descriptors share the
 * one open file, and the client is the open file (struct drm_file), so
 * they share its handles. A dup'ed descriptor frees A's handle; so does a
 * child through the descriptor it inherited, and the parent then sees the
 * allocation gone. Only a new open() makes a new client.
 */
TEST_F(iso, dup_and_fork_share_the_open_file)
{
	struct drm_vrampool_alloc a, b;
	struct inherited_free inh;
	int dupfd, rc;

	VP_ALLOC_OK(self->fd, 1000, 0, &a, "freed through dup()");
	VP_ALLOC_OK(self->fd, 2000, 0, &b, "freed by the child");

	dupfd = dup(self->fd);
	ASSERT_LE(0, dupfd) TH_LOG("dup: %s", strerror(errno));
	EXPECT_EQ(0, vp_free(dupfd, a.handle)) TH_LOG("FREE through the dup'ed descriptor");
	EXPECT_EQ(-ENOENT, vp_free(self->fd, a.handle)) TH_LOG("gone for the original too");
	close(dupfd);
	EXPECT_EQ(1u, live_allocations(_metadata, self->fd))
		TH_LOG("closing one of two descriptors of the file frees nothing");

	inh = (struct inherited_free){ self->fd, b.handle };
	rc = in_child(free_inherited, &inh);
	EXPECT_EQ(0, rc) TH_LOG("the child's FREE of its parent's handle failed");
	EXPECT_EQ(-ENOENT, vp_free(self->fd, b.handle)) TH_LOG("the child freed it for us");
	EXPECT_EQ(0u, live_allocations(_metadata, self->fd));
}

/*
 * Closing a file frees everything it owned in every pool, the persistent
 * one included: VRAM_IN_USE goes back to its start value. A page mapped
 * when the file closes stays (with its data) until munmap().
 */
TEST_F(iso, closing_the_file_frees_everything)
{
	struct drm_vrampool_pool_entry e[3] = {
		vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT),
		vp_exclusive(1 * MiB, VP_ABSENT),
		vp_direct(VP_ABSENT),
	};
	static const uint64_t sizes[] = { 100, 5000, 64 * KiB, 300 * KiB, 2 * MiB, 0 };
	struct drm_vrampool_alloc a;
	uint64_t vram;
	uint8_t *p;
	unsigned int i;
	int fd2;

	fd2 = open_client(_metadata, &self->dev);
	ASSERT_LE(0, fd2);
	VP_INSTALL_OK(fd2, e, 3, "sliced, exclusive, direct");
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		VP_ALLOC_OK(fd2, sizes[i], 0, &a, "B's allocations");
	VP_ALLOC_OK(fd2, 8192, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "B's persistent one");
	VP_ALLOC_OK(fd2, 1000, 0, &a, "B, freed");
	VP_FREE_OK(fd2, a.handle, "B, freed");
	vram = vp_vram_in_use(self->fd);
	EXPECT_LT(self->vram_start, vram);
	close(fd2);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd)) TH_LOG("B's VRAM after its close");

	/* With a mapping: the page outlives the file until munmap(). */
	fd2 = open_client(_metadata, &self->dev);
	ASSERT_LE(0, fd2);
	VP_ALLOC_OK(fd2, 64 * KiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "mapped");
	p = mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	vp_fill_pattern(p, 64 * KiB, 3, 0);
	close(fd2);
	EXPECT_EQ(self->vram_start + 64 * KiB, vp_vram_in_use(self->fd))
		TH_LOG("the mapped page stays while mapped");
	EXPECT_EQ(-1, vp_check_pattern(p, 64 * KiB, 3, 0)) TH_LOG("and keeps its data");
	munmap(p, 64 * KiB);
	EXPECT_EQ(self->vram_start, vp_vram_in_use(self->fd)) TH_LOG("gone after munmap()");
}

/*
 * A's page cannot be mapped through B's file (-EACCES: the mmap offset is
 * allowed for A's file only), nor can B free it; a dup of A's descriptor
 * maps it. A page that is gone has no mmap offset any more (-EINVAL).
 */
TEST_F(iso, mapping_through_another_file_is_refused)
{
	struct drm_vrampool_alloc a, b;
	int fd2, dupfd;
	void *p;

	VP_ALLOC_OK(self->fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "A's page");
	fd2 = open_client(_metadata, &self->dev);
	ASSERT_LE(0, fd2);
	VP_ALLOC_OK(fd2, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &b, "B's page");

	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("B mapped A's page");
	EXPECT_EQ(EACCES, errno) TH_LOG("B mapping A's page: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, b.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("A mapped B's page");
	EXPECT_EQ(EACCES, errno);
	if (p != MAP_FAILED)
		munmap(p, 4096);

	dupfd = dup(self->fd);
	ASSERT_LE(0, dupfd);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, dupfd, a.mmap_offset);
	EXPECT_NE(MAP_FAILED, p) TH_LOG("a dup of A's descriptor: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(dupfd);

	VP_FREE_OK(self->fd, a.handle, "A's page");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("the released page was mapped");
	EXPECT_EQ(EINVAL, errno) TH_LOG("mapping a released page: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd2);
}

/* ---- CPU access ------------------------------------------------------------ */

/*
 * In one 64 KiB sliced page, data written through a mapping stays put
 * while other slices are allocated, written, freed and reused around it.
 */
TEST_F(iso, data_stays_while_the_page_changes)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d;
	uint8_t *p, *q;
	ssize_t bad;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{64 KiB}");
	VP_ALLOC_OK(self->fd, 4000, 0, &a, "a");
	p = mmap(NULL, 64 * KiB, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(-1, vp_first_nonzero(p, 64 * KiB)) TH_LOG("a new page reads zero");
	vp_fill_pattern(p + a.offset, a.size, 1, 0);

	VP_ALLOC_OK(self->fd, 4000, 0, &b, "b");
	VP_ALLOC_OK(self->fd, 20000, 0, &c, "c");
	ASSERT_EQ(a.mmap_offset, b.mmap_offset);
	ASSERT_EQ(a.mmap_offset, c.mmap_offset);
	vp_fill_pattern(p + b.offset, b.size, 2, 0);
	vp_fill_pattern(p + c.offset, c.size, 3, 0);
	VP_FREE_OK(self->fd, b.handle, "b");
	VP_ALLOC_OK(self->fd, 1000, 0, &d, "d, in b's place");
	EXPECT_EQ(b.offset, d.offset);
	vp_fill_pattern(p + d.offset, d.size, 4, 0);
	VP_FREE_OK(self->fd, c.handle, "c");

	bad = vp_check_pattern(p + a.offset, a.size, 1, 0);
	EXPECT_EQ(-1, bad) TH_LOG("a's data differs at %zd", bad);
	bad = vp_check_pattern(p + d.offset, d.size, 4, 0);
	EXPECT_EQ(-1, bad) TH_LOG("d's data differs at %zd", bad);

	/* A second mapping sees the same bytes. */
	q = mmap(NULL, 64 * KiB, PROT_READ, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, q) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(0, memcmp(p, q, 64 * KiB));
	munmap(q, 64 * KiB);
	munmap(p, 64 * KiB);
}

/*
 * A new page never shows an earlier client's data: A writes all over a
 * 4 MiB buffer, frees it and cleans up so that its VRAM goes back; B's
 * buffer of the same size (placed where A's was, on an otherwise empty
 * device) reads zero. The same holds for a page A gets back itself.
 */
TEST_F(iso, new_pages_never_show_old_data)
{
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	const uint64_t size = 4 * MiB;
	struct drm_vrampool_alloc a, b;
	ssize_t bad;
	uint8_t *p;
	int fd2;

	VP_INSTALL_OK(self->fd, &e, 1, "direct{}");
	VP_ALLOC_OK(self->fd, size, 0, &a, "A's buffer");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	memset(p, 0xa5, size);
	munmap(p, size);
	VP_FREE_OK(self->fd, a.handle, "A's buffer");
	ASSERT_EQ(0, vp_cleanup(self->fd));
	ASSERT_EQ(self->vram_start, vp_vram_in_use(self->fd)) TH_LOG("A's buffer went back");

	fd2 = open_client(_metadata, &self->dev);
	ASSERT_LE(0, fd2);
	VP_INSTALL_OK(fd2, &e, 1, "direct{}, B");
	VP_ALLOC_OK(fd2, size, 0, &b, "B's buffer");
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd2, b.mmap_offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	bad = vp_first_nonzero(p, size);
	EXPECT_EQ(-1, bad) TH_LOG("B's new buffer shows A's data at %zd", bad);
	munmap(p, size);
	close(fd2);

	VP_ALLOC_OK(self->fd, size, 0, &a, "A's new buffer");
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, self->fd, a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("mmap: %s", strerror(errno));
	bad = vp_first_nonzero(p, size);
	EXPECT_EQ(-1, bad) TH_LOG("A's new buffer shows old data at %zd", bad);
	munmap(p, size);
}

/*
 * A writable MAP_PRIVATE mapping of a page is refused (-EINVAL), and so is
 * a read-only one: TTM refuses every copy-on-write mapping (MAP_PRIVATE
 * always has VM_MAYWRITE).
 */
TEST_F(iso, writable_private_mapping_is_refused)
{
	struct drm_vrampool_alloc a;
	void *p;

	VP_ALLOC_OK(self->fd, 4096, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "a page");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, self->fd, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("a writable private mapping was made");
	EXPECT_EQ(EINVAL, errno) TH_LOG("writable MAP_PRIVATE: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	/* TTM refuses every copy-on-write mapping, a read-only one too. */
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, self->fd, a.mmap_offset);
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("a read-only private mapping was made");
	EXPECT_EQ(EINVAL, errno) TH_LOG("read-only MAP_PRIVATE: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, a.mmap_offset);
	EXPECT_NE(MAP_FAILED, p) TH_LOG("MAP_SHARED: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, 4096);
}

/*
 * libvrampool's vrampool_map() maps the allocation's page and points at
 * the allocation itself: what is written through it is at @offset of the
 * page. A zero-size allocation maps nothing.
 */
TEST_F(iso, libvrampool_map_points_at_the_allocation)
{
	struct drm_vrampool_pool_entry e = vp_sliced(16 * KiB, VP_ABSENT, VP_ABSENT);
	struct vrampool_allocation a, b, z;
	struct vrampool_mapping m, mz;
	uint8_t *page;
	int ret;

	VP_INSTALL_OK(self->fd, &e, 1, "sliced{16 KiB}");
	ASSERT_EQ(0, vrampool_alloc(self->fd, 5000, 0, &a, NULL));
	ASSERT_EQ(0, vrampool_alloc(self->fd, 3000, 0, &b, NULL));
	EXPECT_EQ(5120u, b.offset);
	EXPECT_EQ(a.mmap_offset, b.mmap_offset);

	ret = vrampool_map(self->fd, &b, &m);
	ASSERT_EQ(0, ret) TH_LOG("vrampool_map: %s", strerror(-ret));
	EXPECT_EQ((uint8_t *)m.base + b.offset, (uint8_t *)m.ptr);
	EXPECT_EQ(-1, vp_first_nonzero(m.ptr, b.size));
	vp_fill_pattern(m.ptr, b.size, 9, 0);

	page = mmap(NULL, 16 * KiB, PROT_READ, MAP_SHARED, self->fd, b.mmap_offset);
	ASSERT_NE(MAP_FAILED, page) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(-1, vp_check_pattern(page + b.offset, b.size, 9, 0));
	EXPECT_EQ(-1, vp_first_nonzero(page, b.offset)) TH_LOG("a's bytes were touched");
	munmap(page, 16 * KiB);
	EXPECT_EQ(0, vrampool_unmap(&m));

	ASSERT_EQ(0, vrampool_alloc(self->fd, 0, 0, &z, NULL));
	EXPECT_EQ(0, vrampool_map(self->fd, &z, &mz));
	EXPECT_EQ(NULL, mz.ptr);
	EXPECT_EQ(0, vrampool_unmap(&mz));
}

/* ---- Accounting across clients ----------------------------------------------- */

/*
 * Three clients allocate different things; each one's POOL_QUERY
 * vram_in_use is the BO bytes of its own pages, and together they make
 * the device's VRAM_IN_USE.
 */
TEST_F(iso, clients_vram_adds_up_to_the_device)
{
	struct drm_vrampool_pool_entry e = vp_direct(VP_ABSENT);
	struct drm_vrampool_pool_query q;
	struct drm_vrampool_alloc a;
	int fds[3] = { self->fd, -1, -1 };
	uint64_t want[3], sum = 0;
	int i;

	fds[1] = open_client(_metadata, &self->dev);
	fds[2] = open_client(_metadata, &self->dev);
	ASSERT_LE(0, fds[1]);
	ASSERT_LE(0, fds[2]);

	/* A: the default layout. */
	VP_ALLOC_OK(fds[0], 1000, 0, &a, "A 1000");
	want[0] = vp_bo_bytes(a.page_size);
	VP_ALLOC_OK(fds[0], 0, 0, &a, "A 0");
	/* B: direct buffers of 1000 (1024 -> 4 KiB) and 5000 (5120 -> 8 KiB). */
	VP_INSTALL_OK(fds[1], &e, 1, "B direct{}");
	VP_ALLOC_OK(fds[1], 1000, 0, &a, "B 1000");
	VP_ALLOC_OK(fds[1], 5000, 0, &a, "B 5000");
	want[1] = 4096 + 8192;
	/* C: persistent 1 MiB, and a freed (still held) 12 KiB one. */
	VP_ALLOC_OK(fds[2], 1 * MiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "C 1 MiB");
	VP_ALLOC_OK(fds[2], 12 * KiB, DRM_VRAMPOOL_ALLOC_PERSISTENT, &a, "C 12 KiB");
	VP_FREE_OK(fds[2], a.handle, "C 12 KiB");
	want[2] = 1 * MiB + 12 * KiB;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, vp_query_head(fds[i], &q));
		EXPECT_EQ(want[i], q.vram_in_use) TH_LOG("client %d", i);
		sum += q.vram_in_use;
	}
	EXPECT_EQ(vp_vram_in_use(self->fd), self->vram_start + sum) {
		TH_LOG("clients hold %" PRIu64 " bytes (and %" PRIu64 " were in use before)",
		       sum, self->vram_start);
	}

	close(fds[2]);
	EXPECT_EQ(self->vram_start + want[0] + want[1], vp_vram_in_use(self->fd));
	close(fds[1]);
	EXPECT_EQ(self->vram_start + want[0], vp_vram_in_use(self->fd));
}

TEST_HARNESS_MAIN

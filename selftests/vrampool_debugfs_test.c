// SPDX-License-Identifier: GPL-2.0-only
/*
 * The debugfs page map (<debugfs>/accel/<device>/clients), on each backend
 * (the first device of each): after allocations in a sliced pool, a
 * client's part of the map shows each slice and each free range exactly,
 * zero-size allocations in no page, and the persistent pool; sysfs agrees
 * on the same state.
 *
 * The numbers assume the module defaults (alignment 256, sliced pools
 * allowed): the fixture checks them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vrampool_test_harness.h"

#define PERSISTENT	DRM_VRAMPOOL_ALLOC_PERSISTENT

VP_SYSFS_CLIENT_FIXTURE(debugfs);

/* This client's part of debugfs clients: from its "client <id> " line to the next client. */
static int debugfs_client(const struct vp_device *dev, uint64_t id, char *out, size_t len)
{
	static char text[1 << 16];
	char path[VP_PATH_LEN], head[64], *start, *end;
	int ret;

	ret = vp_debugfs_ready();
	if (!ret)
		ret = vp_debugfs_path(dev, "clients", path, sizeof(path));
	if (!ret)
		ret = vp_read_file(path, text, sizeof(text));
	if (ret)
		return ret;
	snprintf(head, sizeof(head), "client %" PRIu64 " ", id);
	for (start = text; start; start = strchr(start, '\n'), start = start ? start + 1 : NULL)
		if (!strncmp(start, head, strlen(head)))
			break;
	if (!start)
		return -ENOENT;
	end = strstr(start, "\nclient ");
	snprintf(out, len, "%.*s", (int)(end ? end + 1 - start : (long)strlen(start)), start);
	return 0;
}

static void expect_page_map(struct __test_metadata *_metadata, const struct vp_device *dev,
			    uint64_t id, const char *want, const char *when)
{
	char got[4096];
	int ret = debugfs_client(dev, id, got, sizeof(got));

	ASSERT_EQ(0, ret) TH_LOG("%s: debugfs clients: %s", when, strerror(-ret));
	EXPECT_STREQ(want, got) TH_LOG("%s", when);
}

/*
 * After allocations in a sliced pool (first fit, lowest offset; sizes
 * aligned to 256), the client's page map shows each slice and each free
 * range exactly, zero-size allocations in no page, and the persistent pool.
 */
TEST_F(debugfs, page_map_shows_slices_and_free_ranges)
{
	struct drm_vrampool_pool_entry e = vp_sliced(64 * KiB, VP_ABSENT, VP_ABSENT);
	struct drm_vrampool_alloc a, b, c, d, z, f, g, p;
	char want[2048];
	uint64_t id = self->c.id;

	VP_INSTALL_OK(self->c.fd, &e, 1, "sliced{64 KiB}");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 0 pages, 0 allocations\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "nothing allocated");

	VP_ALLOC_OK(self->c.fd, 1000, 0, &a, "1000");	/* 0+1024 */
	VP_ALLOC_OK(self->c.fd, 4096, 0, &b, "4096");	/* 1024+4096 */
	VP_ALLOC_OK(self->c.fd, 200, 0, &c, "200");		/* 5120+256 */
	VP_ALLOC_OK(self->c.fd, 3000, 0, &d, "3000");	/* 5376+3072 */
	VP_ALLOC_OK(self->c.fd, 0, 0, &z, "0");		/* no space */
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 1 pages, 5 allocations\n"
		 "    page 0 size 65536: used 0+1024 used 1024+4096 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "five allocations");

	VP_FREE_OK(self->c.fd, b.handle, "4096");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 1 pages, 4 allocations\n"
		 "    page 0 size 65536: used 0+1024 free 1024+4096 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "  pool 255 persistent: 0 pages, 0 allocations\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "the 4096 freed");

	VP_ALLOC_OK(self->c.fd, 2048, 0, &f, "2048");	/* first fit: 1024+2048 */
	VP_ALLOC_OK(self->c.fd, 60000, 0, &g, "60000");	/* 60160: a second page */
	VP_ALLOC_OK(self->c.fd, 3000, PERSISTENT, &p, "3000 persistent");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 2 pages, 6 allocations\n"
		 "    page 0 size 65536: used 0+1024 used 1024+2048 free 3072+2048 used 5120+256"
		 " used 5376+3072 free 8448+57088\n"
		 "    page 1 size 65536: used 0+60160 free 60160+5376\n"
		 "  pool 255 persistent: 1 pages, 1 allocations\n"
		 "    page 0 size 3072: used 0+3072\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "a hole refilled, a second page");
	EXPECT_EQ(1024u, f.offset);
	EXPECT_EQ(1u, g.page);

	/* sysfs agrees on the same state. */
	vp_expect_pools_match(_metadata, self->c.cdir, self->c.fd, "the mapped state");

	VP_FREE_OK(self->c.fd, a.handle, "1000");
	VP_FREE_OK(self->c.fd, c.handle, "200");
	VP_FREE_OK(self->c.fd, d.handle, "3000");
	VP_FREE_OK(self->c.fd, z.handle, "0");
	VP_FREE_OK(self->c.fd, f.handle, "2048");
	VP_FREE_OK(self->c.fd, p.handle, "3000 persistent");
	snprintf(want, sizeof(want),
		 "client %" PRIu64 " generation 2\n"
		 "  pool 0 sliced: 2 pages, 1 allocations\n"
		 "    page 0 size 65536: free 0+65536\n"
		 "    page 1 size 65536: used 0+60160 free 60160+5376\n"
		 "  pool 255 persistent: 1 pages, 0 allocations\n"
		 "    page 0 size 3072: free 0+3072\n", id);
	expect_page_map(_metadata, &self->c.dev, id, want, "one allocation left");
	VP_FREE_OK(self->c.fd, g.handle, "60000");
}

TEST_HARNESS_MAIN

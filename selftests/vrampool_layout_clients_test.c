// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pool layouts on every vrampool device (one variant per backend): clients
 * (files, also in other processes) own independent layouts, and an
 * inherited fd is the same client.
 *
 * The fixture and the helpers: vrampool_layout_fixture.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_layout_fixture.h"

/* ---- Clients ----------------------------------------------------------- */

TEST_F(layout, two_files_independent)
{
	struct drm_vrampool_pool_entry base[BASE_POOLS], one[1], expect[VP_LAYOUT_MAX];
	struct vp_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct drm_vrampool_pool_install ans;
	int i, fd, k, ret;
	uint32_t n;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;
		uint64_t al = self->props[i].alignment;
		struct drm_vrampool_pool_entry x[2] = {
			vp_exclusive(al, VP_ABSENT), vp_direct(VP_ABSENT),
		};

		fd = vp_open_device(&self->devs[i]);
		ASSERT_LE(0, fd) TH_LOG("%s: open: %s", dev, strerror(-fd));
		for (k = 0; k < 3; k++) {
			ret = vp_install_list(fd, x, 2, &ans);
			ASSERT_EQ(0, ret) TH_LOG("%s: second client: %s", dev, strerror(-ret));
			EXPECT_EQ((uint64_t)k + 2, ans.generation) TH_LOG("%s: second client", dev);
		}

		/* the fixture's client still has its base layout at generation 2 */
		ret = vp_snap_take(self->fds[i], a);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN, a->generation) TH_LOG("%s: first client", dev);
		base_layout(al, base);
		for (k = 0; k < BASE_POOLS; k++)
			vp_expect_resolved(&self->props[i], &base[k], &expect[k]);
		vp_check_layout(_metadata, dev, "first client", a, expect, BASE_POOLS);

		/* and its installs do not reach the second one */
		vp_expect_resolved(&self->props[i], &x[0], &one[0]);
		ret = vp_install_list(self->fds[i], x, 1, &ans);
		ASSERT_EQ(0, ret) TH_LOG("%s: first client: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, ans.generation) TH_LOG("%s: first client", dev);
		ret = vp_snap_take(fd, b);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ(4ull, b->generation) TH_LOG("%s: second client", dev);
		vp_expect_resolved(&self->props[i], &x[0], &expect[0]);
		vp_expect_resolved(&self->props[i], &x[1], &expect[1]);
		vp_check_layout(_metadata, dev, "second client", b, expect, 2);

		/* closing the second client leaves the first alone */
		close(fd);
		ret = vp_snap_take(self->fds[i], a);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, a->generation) TH_LOG("%s: first client", dev);
		vp_check_layout(_metadata, dev, "first client after close", a, one, 1);

		/* a client opened now starts afresh */
		fd = open_new_client(_metadata, self, i, b, "third client");
		n = vp_expect_sub_slices(&self->props[i], expect);
		vp_check_layout(_metadata, dev, "third client", b, expect, n);
		close(fd);
	}
	free(a);
	free(b);
}

/* Exit codes of the child of two_processes_independent. */
enum child_step {
	CHILD_OK = 0, CHILD_OPEN, CHILD_QUERY, CHILD_DEFAULT, CHILD_INSTALL, CHILD_GENERATION,
	CHILD_SYNC, CHILD_LAYOUT,
};

/*
 * In another process: a new client of @dev starts from the default layout
 * (@def, @ndef pools), installs @x twice (generations 2 and 3), tells the
 * parent, waits for it, and finds its layout unchanged.
 */
static int child_client(const struct vp_device *dev, const struct drm_vrampool_pool_entry *def,
			uint32_t ndef, const struct drm_vrampool_pool_entry *x,
			const struct drm_vrampool_pool_entry *xres, uint32_t nx, int tell, int wait)
{
	struct drm_vrampool_pool_entry got[VP_LAYOUT_MAX];
	struct vp_snap *s = calloc(1, sizeof(*s));
	struct drm_vrampool_pool_install ans;
	char why[512], c = 'r';
	int fd, k, ret;

	fd = vp_open_device(dev);
	if (fd < 0)
		return CHILD_OPEN;
	if (!s || vp_snap_take(fd, s))
		return CHILD_QUERY;
	vp_snap_configs(s, got);
	if (s->generation != 1 || s->num_pools != ndef ||
	    vp_entries_diff(def, got, ndef, why, sizeof(why)) >= 0) {
		fprintf(stderr, "# child: default layout: generation %" PRIu64 ", %u pools: %s\n",
			s->generation, s->num_pools, why);
		return CHILD_DEFAULT;
	}
	for (k = 0; k < 2; k++) {
		ret = vp_install_list(fd, x, nx, &ans);
		if (ret) {
			fprintf(stderr, "# child: install: %s\n", strerror(-ret));
			return CHILD_INSTALL;
		}
		if (ans.generation != (uint64_t)k + 2) {
			fprintf(stderr, "# child: generation %" PRIu64 "\n",
				(uint64_t)ans.generation);
			return CHILD_GENERATION;
		}
	}
	if (write(tell, &c, 1) != 1 || read(wait, &c, 1) != 1 || c != 'g')
		return CHILD_SYNC;
	if (vp_snap_take(fd, s))
		return CHILD_QUERY;
	vp_snap_configs(s, got);
	if (s->generation != 3 || s->num_pools != nx ||
	    vp_entries_diff(xres, got, nx, why, sizeof(why)) >= 0) {
		fprintf(stderr, "# child: after the parent's install: generation %" PRIu64
			", %u pools: %s\n", s->generation, s->num_pools, why);
		return CHILD_LAYOUT;
	}
	close(fd);
	free(s);
	return CHILD_OK;
}

TEST_F(layout, two_processes_independent)
{
	struct drm_vrampool_pool_entry def[VP_LAYOUT_MAX], xres[2], z[1], zres[1];
	struct vp_snap *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	int i, k, ret, status, up[2], down[2];
	char why[512], c = 0;
	struct drm_vrampool_pool_install ans;
	uint32_t ndef;
	pid_t pid;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;
		uint64_t a = self->props[i].alignment;
		struct drm_vrampool_pool_entry x[2] = {
			vp_exclusive(a + 1, VP_ABSENT), vp_direct(VP_ABSENT),
		};

		ndef = vp_expect_sub_slices(&self->props[i], def);
		for (k = 0; k < 2; k++)
			vp_expect_resolved(&self->props[i], &x[k], &xres[k]);
		z[0] = vp_sliced(16 * a, VP_ABSENT, VP_ABSENT);
		vp_expect_resolved(&self->props[i], &z[0], &zres[0]);

		ret = vp_snap_take(self->fds[i], before);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		ASSERT_EQ(0, pipe(up));
		ASSERT_EQ(0, pipe(down));
		pid = fork();
		ASSERT_LE(0, pid) TH_LOG("fork: %s", strerror(errno));
		if (pid == 0) {
			close(up[0]);
			close(down[1]);
			_exit(child_client(&self->devs[i], def, ndef, x, xres, 2, up[1], down[0]));
		}
		close(up[1]);
		close(down[0]);

		/* the child's two installs are done */
		EXPECT_EQ(1, read(up[0], &c, 1)) TH_LOG("%s: the child did not get there", dev);
		ret = vp_snap_take(self->fds[i], after);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ(0, vp_snap_diff(before, after, why, sizeof(why))) {
			TH_LOG("%s: another process's client changed this one: %s", dev, why);
		}
		ret = vp_install_list(self->fds[i], z, 1, &ans);
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, ans.generation) TH_LOG("%s", dev);
		c = 'g';
		EXPECT_EQ(1, write(down[1], &c, 1));
		close(down[1]);
		close(up[0]);

		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status)) TH_LOG("%s: child status %#x", dev, status);
		EXPECT_EQ(CHILD_OK, WEXITSTATUS(status)) {
			TH_LOG("%s: the child failed at step %d", dev, WEXITSTATUS(status));
		}
		ret = vp_snap_take(self->fds[i], after);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, after->generation) TH_LOG("%s", dev);
		vp_check_layout(_metadata, dev, "after the child exited", after, zres, 1);
	}
	free(before);
	free(after);
}

/* A client is an open file: a forked process using the same fd is the same client. */
TEST_F(layout, inherited_fd_is_same_client)
{
	struct drm_vrampool_pool_entry x[1], xres[1];
	struct vp_snap *s = calloc(1, sizeof(*s));
	int i, ret, status;
	pid_t pid;

	ASSERT_NE(NULL, s);
	for (i = 0; i < self->n; i++) {
		const char *dev = self->devs[i].name;

		x[0] = vp_exclusive(5 * self->props[i].alignment, VP_ABSENT);
		vp_expect_resolved(&self->props[i], &x[0], &xres[0]);
		pid = fork();
		ASSERT_LE(0, pid) TH_LOG("fork: %s", strerror(errno));
		if (pid == 0) {
			struct drm_vrampool_pool_install ans;

			ret = vp_install_list(self->fds[i], x, 1, &ans);
			_exit(ret ? 1 : ans.generation == BASE_GEN + 1 ? 0 : 2);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			TH_LOG("%s: the child's install on the inherited fd: status %#x", dev, status);
		}
		ret = vp_snap_take(self->fds[i], s);
		ASSERT_EQ(0, ret) TH_LOG("%s: %s", dev, strerror(-ret));
		EXPECT_EQ((uint64_t)BASE_GEN + 1, s->generation) TH_LOG("%s", dev);
		vp_check_layout(_metadata, dev, "installed by the child", s, xres, 1);
	}
	free(s);
}

TEST_HARNESS_MAIN

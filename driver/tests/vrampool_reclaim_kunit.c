// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the order a reclaim across clients visits the other
 * clients in (vrampool_reclaim.c, DOC: reclaim): the idlest first (the
 * oldest last ALLOC), the lower DRM client id on a tie, never the walk's
 * own client, one that allocated after the walk began last but not never;
 * the clients open when it began, in the order of their stamps then, with a
 * reference each until the walk ends; its work counted.
 *
 * The clients are bare structs on a fake device's list: the order is
 * decided from their stamps and ids alone, without a device or VRAM.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/refcount.h>

#include <drm/drm_file.h>

#include "vrampool_client_types.h"
#include "vrampool_device_types.h"
#include "vrampool_reclaim.h"
#include "vrampool_tenant.h"

struct fake_clients {
	struct vrampool_device *vdev;
	struct vrampool_client *c[32];
	unsigned int n;
};

static struct fake_clients *fake_device(struct kunit *test, u64 clock)
{
	struct fake_clients *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->vdev = kunit_kzalloc(test, sizeof(*f->vdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->vdev);
	INIT_LIST_HEAD(&f->vdev->clients);
	mutex_init(&f->vdev->clients_lock);
	atomic64_set(&f->vdev->alloc_clock, clock);
	return f;
}

/* A client with DRM client id @id whose last ALLOC was at @stamp. */
static struct vrampool_client *add_client(struct kunit *test, struct fake_clients *f,
					  u64 id, u64 stamp)
{
	struct vrampool_client *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->file = kunit_kzalloc(test, sizeof(*c->file), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->file);
	c->file->client_id = id;
	c->vdev = f->vdev;
	c->last_alloc = stamp;
	refcount_set(&c->ref, 1);
	list_add_tail(&c->link, &f->vdev->clients);
	atomic_inc(&f->vdev->client_count);
	f->c[f->n++] = c;
	return c;
}

/*
 * The clients @walk visits, in order, are @want[0..n): each on top in
 * turn, then left behind (vrampool_reclaim_leave() drops its reference).
 */
static void expect_order(struct kunit *test, struct vrampool_reclaim *walk,
			 struct vrampool_client *const *want, u32 n)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, (u32)walk->victims.nr, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, vrampool_reclaim_peek(walk), want[i], "victim %u", i);
		vrampool_reclaim_leave(walk);
	}
	KUNIT_EXPECT_NULL(test, vrampool_reclaim_peek(walk));
}

/*
 * Idlest first, the lower id on a tie, whatever the list order; not the
 * walk's own client; one that allocated after the walk began comes last,
 * but comes: idle first is an order, not an exemption. Each holds a
 * reference until the walk ends.
 */
static void idlest_first(struct kunit *test)
{
	struct fake_clients *f = fake_device(test, 100);
	struct vrampool_client *self, *a, *b, *c, *late, *never;
	struct vrampool_reclaim walk;

	a = add_client(test, f, 10, 50);
	self = add_client(test, f, 12, 1);	/* the idlest, but the walk's own */
	late = add_client(test, f, 13, 101);	/* allocated after the walk began */
	b = add_client(test, f, 11, 30);
	c = add_client(test, f, 9, 50);		/* ties with a: the lower id first */
	never = add_client(test, f, 14, 0);	/* never allocated: idlest of all */

	KUNIT_ASSERT_EQ(test, 0, vrampool_reclaim_start(&walk, self, false));
	KUNIT_EXPECT_EQ(test, 2u, refcount_read(&a->ref));
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&self->ref));
	expect_order(test, &walk, (struct vrampool_client *[]){ never, b, c, a, late }, 5);
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&a->ref));
	vrampool_reclaim_end(&walk);
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&a->ref));
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&never->ref));

	/* A walk ended before its clients were visited drops their references too. */
	KUNIT_ASSERT_EQ(test, 0, vrampool_reclaim_start(&walk, self, false));
	KUNIT_EXPECT_EQ(test, 2u, refcount_read(&late->ref));
	vrampool_reclaim_end(&walk);
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&late->ref));
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&never->ref));
	KUNIT_EXPECT_EQ(test, 2, atomic64_read(&f->vdev->reclaim_walks));
}

/*
 * The order is the stamps' when the walk began: a client that allocates
 * meanwhile keeps its place; clients that open meanwhile are not visited,
 * so they cannot keep a walk going. A new walk sees both.
 */
static void clients_at_start(struct kunit *test)
{
	struct fake_clients *f = fake_device(test, 100);
	struct vrampool_client *self, *a, *b, *c, *d;
	struct vrampool_reclaim walk;

	self = add_client(test, f, 1, 99);
	a = add_client(test, f, 2, 10);
	b = add_client(test, f, 3, 20);
	c = add_client(test, f, 4, 30);

	KUNIT_ASSERT_EQ(test, 0, vrampool_reclaim_start(&walk, self, false));
	a->last_alloc = 105;			/* a allocates meanwhile */
	d = add_client(test, f, 5, 5);		/* opened meanwhile, idlest of all */
	expect_order(test, &walk, (struct vrampool_client *[]){ a, b, c }, 3);
	vrampool_reclaim_end(&walk);

	KUNIT_ASSERT_EQ(test, 0, vrampool_reclaim_start(&walk, self, false));
	expect_order(test, &walk, (struct vrampool_client *[]){ d, b, c, a }, 4);
	vrampool_reclaim_end(&walk);
}

/* A walk for its user's limits visits that user's other files alone. */
static void same_user_only(struct kunit *test)
{
	struct fake_clients *f = fake_device(test, 100);
	struct vrampool_tenant *mine, *theirs;
	struct vrampool_client *self, *a, *b, *x;
	struct vrampool_reclaim walk;

	mine = kunit_kzalloc(test, sizeof(*mine), GFP_KERNEL);
	theirs = kunit_kzalloc(test, sizeof(*theirs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mine);
	KUNIT_ASSERT_NOT_NULL(test, theirs);
	self = add_client(test, f, 1, 50);
	a = add_client(test, f, 2, 40);
	x = add_client(test, f, 3, 10);
	b = add_client(test, f, 4, 30);
	self->tenant = mine;
	a->tenant = mine;
	b->tenant = mine;
	x->tenant = theirs;

	KUNIT_ASSERT_EQ(test, 0, vrampool_reclaim_start(&walk, self, true));
	expect_order(test, &walk, (struct vrampool_client *[]){ b, a }, 2);
	KUNIT_EXPECT_EQ(test, 1u, refcount_read(&x->ref));
	vrampool_reclaim_end(&walk);
}

/*
 * Its work is the clients examined and the comparisons of the heap: at
 * most 3n for n clients to order them (a heap, not a sort), and 2 log2 n
 * more for each client left behind; the device adds it up.
 */
static void work_counted(struct kunit *test)
{
	struct fake_clients *f = fake_device(test, 1000);
	struct vrampool_client *self;
	struct vrampool_reclaim walk;
	u64 n = ARRAY_SIZE(f->c), work, prev;
	u32 i;

	self = add_client(test, f, 100, 999);
	for (i = 1; i < n; i++)
		add_client(test, f, i, (i * 37) % 11);
	KUNIT_ASSERT_EQ(test, 0, vrampool_reclaim_start(&walk, self, false));
	KUNIT_EXPECT_EQ(test, n - 1, (u64)walk.victims.nr);
	KUNIT_EXPECT_GE(test, walk.work, n);
	KUNIT_EXPECT_LE(test, walk.work, 3 * n);
	for (i = 1, prev = 0; vrampool_reclaim_peek(&walk); i++) {
		KUNIT_EXPECT_LE(test, prev, vrampool_reclaim_peek(&walk)->last_alloc);
		prev = vrampool_reclaim_peek(&walk)->last_alloc;
		vrampool_reclaim_leave(&walk);
	}
	KUNIT_EXPECT_EQ(test, n, (u64)i);
	KUNIT_EXPECT_LE(test, walk.work, 3 * n + n * ilog2(n) * 2);
	work = walk.work;
	vrampool_reclaim_end(&walk);
	KUNIT_EXPECT_EQ(test, (s64)work, atomic64_read(&f->vdev->reclaim_work));
}

static struct kunit_case vrampool_reclaim_cases[] = {
	KUNIT_CASE(idlest_first),
	KUNIT_CASE(clients_at_start),
	KUNIT_CASE(same_user_only),
	KUNIT_CASE(work_counted),
	{}
};

static struct kunit_suite vrampool_reclaim_suite = {
	.name = "vrampool_reclaim",
	.test_cases = vrampool_reclaim_cases,
};

kunit_test_suite(vrampool_reclaim_suite);

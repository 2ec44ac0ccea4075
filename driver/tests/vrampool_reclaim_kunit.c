// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the order a reclaim across clients visits the other
 * clients in (vrampool_reclaim.c, DOC: reclaim): the idlest first (the
 * oldest last ALLOC), the lower DRM client id on a tie, never the walk's
 * own client, one that allocated after the walk began last but not never,
 * each at most once, and no more visits than clients when it began.
 *
 * The clients are bare structs on a fake device's list: the order is
 * decided from their stamps and ids alone, without a device or VRAM.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <kunit/test.h>
#include <linux/mutex.h>

#include <drm/drm_file.h>

#include "vrampool_client_types.h"
#include "vrampool_device_types.h"
#include "vrampool_reclaim.h"

struct fake_clients {
	struct vrampool_device *vdev;
	struct vrampool_client *c[8];
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
	list_add_tail(&c->link, &f->vdev->clients);
	atomic_inc(&f->vdev->client_count);
	f->c[f->n++] = c;
	return c;
}

static struct vrampool_client *next(struct vrampool_reclaim *walk)
{
	struct vrampool_client *c;

	mutex_lock(&walk->self->vdev->clients_lock);
	c = vrampool_reclaim_next_idle(walk);
	mutex_unlock(&walk->self->vdev->clients_lock);
	return c;
}

/*
 * Idlest first, the lower id on a tie, whatever the list order; not the
 * walk's own client; one that allocated after the walk began comes last,
 * but comes: idle first is an order, not an exemption.
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

	vrampool_reclaim_start(&walk, self);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), never);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), b);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), c);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), a);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), late);
	KUNIT_EXPECT_NULL(test, next(&walk));
	KUNIT_EXPECT_NULL(test, next(&walk));
}

/*
 * Each client at most once: one that allocates during the walk after its
 * visit is not visited again; one that allocates before its turn still
 * has it, after the idler ones. A new walk visits everyone again.
 */
static void each_client_once(struct kunit *test)
{
	struct fake_clients *f = fake_device(test, 100);
	struct vrampool_client *self, *a, *b, *c;
	struct vrampool_reclaim walk;

	self = add_client(test, f, 1, 99);
	a = add_client(test, f, 2, 10);
	b = add_client(test, f, 3, 20);
	c = add_client(test, f, 4, 30);

	vrampool_reclaim_start(&walk, self);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), a);
	a->last_alloc = 105;			/* a allocates meanwhile */
	c->last_alloc = 102;			/* so does c, before its turn */
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), b);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), c);
	KUNIT_EXPECT_NULL(test, next(&walk));

	vrampool_reclaim_start(&walk, self);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), b);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), c);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), a);
	KUNIT_EXPECT_NULL(test, next(&walk));
}

/*
 * Bounded by the clients open when it began: clients that come after
 * cannot keep a walk going.
 */
static void bounded_by_the_clients_at_start(struct kunit *test)
{
	struct fake_clients *f = fake_device(test, 100);
	struct vrampool_client *self, *a, *b;
	struct vrampool_reclaim walk;

	self = add_client(test, f, 1, 99);
	a = add_client(test, f, 2, 10);
	vrampool_reclaim_start(&walk, self);	/* two clients: one to visit, and self */
	b = add_client(test, f, 3, 5);		/* opened meanwhile, idlest of all */
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), b);
	KUNIT_EXPECT_PTR_EQ(test, next(&walk), a);
	KUNIT_EXPECT_NULL(test, next(&walk));	/* two visits: the walk's budget */
}

static struct kunit_case vrampool_reclaim_cases[] = {
	KUNIT_CASE(idlest_first),
	KUNIT_CASE(each_client_once),
	KUNIT_CASE(bounded_by_the_clients_at_start),
	{}
};

static struct kunit_suite vrampool_reclaim_suite = {
	.name = "vrampool_reclaim",
	.test_cases = vrampool_reclaim_cases,
};

kunit_test_suite(vrampool_reclaim_suite);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: a randomized differential test of every pool type against a
 * model of CubeCL's pools.
 *
 * The fake backing and the helpers: vrampool_pool_kunit.h.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include "vrampool_pool_kunit.h"

/* ---- A randomized differential test against a model of CubeCL ------------- */

/*
 * The model places each request as CubeCL's pools do (sliced first fit over
 * pages oldest first; exclusive reuse by fewest idle checks, then age;
 * direct slots and reclaim in slot order; persistent reuse oldest first),
 * with vrampool's deliberate differences: a slice spans its padding, and
 * page indices follow the rule of vrampool_pool_page.c rather than CubeCL's
 * renumbering. Seeded random operations run on a pool and on the model, and
 * every placement, page, index, idle count and statistic must agree. Apart
 * from the model, each sliced placement is checked against the order
 * invariant itself: no page older than the chosen one, and no lower offset
 * in the chosen page, had a hole that fits.
 */
#define MODEL_SLOTS	1024	/* pages (direct: slots) the model tracks */
#define MODEL_LIVE	48	/* live allocations at most */
#define MODEL_OPS	4000

struct model_page {
	struct vrampool_pool_page *real;	/* vrampool's page for it, once made */
	u64 size;
	u32 index;		/* the index vrampool must give it */
	u32 free_count;		/* exclusive pools: the idle count */
	u32 live;		/* live allocations in it */
};

struct model_alloc {
	struct vrampool_alloc *a;
	struct model_page *page;
	u64 offset, eff;
};

struct model {
	struct kunit *test;
	struct vrampool_pool *pool;
	struct drm_vrampool_pool_entry cfg;
	struct rnd_state rnd;
	u32 op;
	/* Oldest first; direct pools: by slot, NULL for a vacant one. */
	struct model_page *pages[MODEL_SLOTS];
	u32 count;
	u32 vacant[MODEL_SLOTS];	/* direct pools: released slots, the last on top */
	u32 nvacant;
	struct model_alloc live[MODEL_LIVE];
	u32 nlive;
	/* The allocations' memory, here so that it outlives model_free_all(). */
	struct vrampool_alloc store[MODEL_LIVE];
	bool stored[MODEL_LIVE];
	u32 next_index;		/* where the next index is searched from */
	u64 alloc_nr, last_check;
};

struct order_case {
	const char *name;
	struct drm_vrampool_pool_entry cfg;
	u32 first_index;	/* the pool's first page index, to cross the wrap */
	u64 seed;
};

static bool model_is(const struct model *m, u32 type)
{
	return m->cfg.type == type;
}

static u32 model_pages(const struct model *m)
{
	u32 i, n = 0;

	for (i = 0; i < m->count; i++)
		n += !!m->pages[i];
	return n;
}

static u64 model_reserved(const struct model *m)
{
	u64 bytes = 0;
	u32 i;

	for (i = 0; i < m->count; i++)
		bytes += m->pages[i] ? m->pages[i]->size : 0;
	return bytes;
}

/* The index rule: the next index no live page holds, wrapping past the last. */
static u32 model_next_index(struct model *m)
{
	u32 index = m->next_index > LAST_PAGE_INDEX ? 0 : m->next_index;
	u32 i;

again:
	for (i = 0; i < m->count; i++) {
		if (m->pages[i] && m->pages[i]->index == index) {
			index = index == LAST_PAGE_INDEX ? 0 : index + 1;
			goto again;
		}
	}
	m->next_index = index + 1;
	return index;
}

/* A new page: last in creation order, or in the slot released last. */
static struct model_page *model_new(struct model *m, u64 size)
{
	struct model_page *p = kunit_kzalloc(m->test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(m->test, p);
	KUNIT_ASSERT_LT(m->test, m->count, MODEL_SLOTS);
	p->size = size;
	if (model_is(m, DRM_VRAMPOOL_POOL_DIRECT)) {
		p->index = m->nvacant ? m->vacant[--m->nvacant] : m->count++;
		m->pages[p->index] = p;
	} else {
		p->index = model_next_index(m);
		m->pages[m->count++] = p;
	}
	return p;
}

/* Release page @i: the others keep their order; a direct slot goes vacant. */
static void model_drop(struct model *m, u32 i)
{
	if (model_is(m, DRM_VRAMPOOL_POOL_DIRECT)) {
		m->pages[i] = NULL;
		m->vacant[m->nvacant++] = i;
		return;
	}
	memmove(&m->pages[i], &m->pages[i + 1], (m->count - i - 1) * sizeof(m->pages[0]));
	m->count--;
}

/* Explicit cleanup, or the periodic pass of exclusive pools. */
static void model_cleanup(struct model *m, bool explicit)
{
	bool exclusive = model_is(m, DRM_VRAMPOOL_POOL_EXCLUSIVE);
	struct model_page *p;
	u32 i = 0;

	if (exclusive) {
		if (!explicit && m->alloc_nr - m->last_check < m->cfg.dealloc_period / 5)
			return;
		m->last_check = m->alloc_nr;
	} else if (!explicit) {
		return;
	}

	while (i < m->count) {
		p = m->pages[i];
		if (p && !p->live) {
			p->free_count += exclusive;
			if (!exclusive || explicit || p->free_count >= 5) {
				model_drop(m, i);
				if (!model_is(m, DRM_VRAMPOOL_POOL_DIRECT))
					continue;
			}
		}
		i++;
	}
}

/* Sliced: the lowest offset of @p where @eff bytes are free. */
static bool model_fits(const struct model *m, const struct model_page *p, u64 eff, u64 *offset)
{
	u64 at = 0, start, end;
	bool found;
	u32 i;

	for (;;) {
		found = false;
		start = p->size;
		end = 0;
		for (i = 0; i < m->nlive; i++) {
			const struct model_alloc *l = &m->live[i];

			if (l->page == p && l->offset >= at && l->offset < start) {
				start = l->offset;
				end = l->offset + l->eff;
				found = true;
			}
		}
		if (start - at >= eff) {
			*offset = at;
			return true;
		}
		if (!found)
			return false;
		at = end;
	}
}

/* Where CubeCL puts @size: a page (new ones have no real page yet), or NULL when full. */
static struct model_page *model_place(struct model *m, u64 size, u64 eff, u64 *offset)
{
	struct model_page *p, *best = NULL;
	u32 i;

	*offset = 0;
	switch (m->cfg.type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		for (i = 0; i < m->count; i++) {
			if (model_fits(m, m->pages[i], eff, offset))
				return m->pages[i];
		}
		if ((m->cfg.flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE) &&
		    m->count >= m->cfg.max_pool_size / m->cfg.page_size)
			return NULL;
		return model_new(m, m->cfg.page_size);
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		for (i = 0; i < m->count; i++) {
			p = m->pages[i];
			if (p->live || p->size < size)
				continue;
			if (!best || p->free_count < best->free_count)
				best = p;
		}
		if (best) {
			best->free_count -= !!best->free_count;
			return best;
		}
		p = model_new(m, 0);			/* sized by the average */
		p->free_count = 4;
		return p;
	default:				/* direct, persistent */
		for (i = 0; i < m->count; i++) {
			p = m->pages[i];
			if (p && !p->live && p->size == eff)
				return p;
		}
		if (!(m->cfg.flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT))
			return model_new(m, eff);
		for (i = 0; i < m->count; i++) {
			if (model_reserved(m) + eff <= m->cfg.reclaim_at)
				break;
			if (m->pages[i] && !m->pages[i]->live)
				model_drop(m, i);
		}
		return model_new(m, eff);
	}
}

/* The order invariant of sliced first fit, on the pool alone. */
static void check_first_fit(struct model *m, const struct vrampool_alloc *a, u64 eff)
{
	struct vrampool_pool_page *ppage;
	struct vrampool_slice *pos;
	u64 start, end, order = 0;
	bool first = true;

	list_for_each_entry(ppage, &m->pool->by_age, age_link) {
		KUNIT_ASSERT_TRUE_MSG(m->test, first || ppage->order > order,
				      "op %u: pages out of creation order", m->op);
		first = false;
		order = ppage->order;
		/* Each hole: before each slice, and the tail. */
		start = 0;
		pos = vrampool_slices_first(&ppage->slices);
		for (;;) {
			end = pos ? vrampool_slices_offset(&ppage->slices, pos) : ppage->size;
			if (!(ppage == a->ppage && end > vrampool_alloc_offset(a)))
				KUNIT_ASSERT_LT_MSG(m->test, end - start, eff,
						    "op %u: a hole in page %u (of %u at %llu) fits",
						    m->op, ppage->index, a->ppage->index,
						    vrampool_alloc_offset(a));
			if (!pos)
				break;
			start = vrampool_slices_end(&ppage->slices, pos);
			pos = vrampool_slices_next(pos);
		}
		if (ppage == a->ppage)
			return;
	}
	KUNIT_FAIL(m->test, "op %u: the slice's page is not the pool's", m->op);
}

static void model_alloc(struct model *m, u64 size)
{
	struct kunit *test = m->test;
	u64 eff = ALIGN(size, 256), offset;
	struct vrampool_alloc *a;
	struct model_page *p;
	u32 i, slot = 0;
	bool full;
	int ret;

	while (m->stored[slot])
		slot++;
	a = &m->store[slot];
	memset(a, 0, sizeof(*a));
	p = model_place(m, size, eff, &offset);
	ret = vrampool_pool_alloc(m->pool, size, a, &full);
	if (!p) {
		KUNIT_ASSERT_EQ_MSG(test, ret, -ENOSPC, "op %u: %llu in a full pool", m->op, size);
		KUNIT_ASSERT_TRUE(test, full);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "op %u: %llu", m->op, size);
	/* Recorded first, so that a failed check leaves nothing behind. */
	m->stored[slot] = true;
	m->live[m->nlive++] = (struct model_alloc){ .a = a, .page = p, .offset = offset,
						    .eff = eff };
	p->live++;

	if (p->real) {
		KUNIT_ASSERT_PTR_EQ_MSG(test, a->ppage, p->real, "op %u: %llu not in page %u",
					m->op, size, p->index);
	} else {
		for (i = 0; i < m->count; i++)
			KUNIT_ASSERT_FALSE_MSG(test, m->pages[i] && m->pages[i]->real == a->ppage,
					       "op %u: %llu reused page %u, not a new one",
					       m->op, size, a->ppage->index);
		p->real = a->ppage;
		p->size = p->size ?: a->ppage->size;
		KUNIT_ASSERT_EQ_MSG(test, a->ppage->index, p->index, "op %u: a new page's index",
				    m->op);
	}
	KUNIT_ASSERT_EQ_MSG(test, vrampool_alloc_offset(a), offset, "op %u: %llu in page %u",
			    m->op, size, p->index);
	if (model_is(m, DRM_VRAMPOOL_POOL_SLICED))
		check_first_fit(m, a, eff);
}

static void model_free(struct model *m, u32 i)
{
	struct model_alloc *l = &m->live[i];

	vrampool_pool_free(l->a);
	m->stored[l->a - m->store] = false;
	l->page->live--;
	*l = m->live[--m->nlive];
}

static void model_check(struct model *m)
{
	struct kunit *test = m->test;
	struct vrampool_pool_stats *st = &m->pool->stats;
	struct model_page *p;
	u32 i;

	KUNIT_ASSERT_EQ_MSG(test, st->pages, model_pages(m), "op %u", m->op);
	KUNIT_ASSERT_EQ_MSG(test, st->reserved, model_reserved(m), "op %u", m->op);
	KUNIT_ASSERT_EQ_MSG(test, st->allocations, m->nlive, "op %u", m->op);
	for (i = 0; i < m->count; i++) {
		p = m->pages[i];
		if (!p)
			continue;
		KUNIT_ASSERT_EQ_MSG(test, p->real->index, p->index, "op %u", m->op);
		KUNIT_ASSERT_EQ_MSG(test, p->real->live, p->live, "op %u: page %u", m->op,
				    p->index);
		if (model_is(m, DRM_VRAMPOOL_POOL_EXCLUSIVE))
			KUNIT_ASSERT_EQ_MSG(test, p->real->free_count, p->free_count,
					    "op %u: page %u", m->op, p->index);
	}
}

static u64 model_size(struct model *m)
{
	static const u64 buffer_sizes[] = { 100, 256, 700, 1000, 1024, 2048, 3000 };
	u32 r = prandom_u32_state(&m->rnd);

	switch (m->cfg.type) {
	case DRM_VRAMPOOL_POOL_SLICED:		/* mostly small, some up to a page */
		return 1 + r % (r & BIT(31) ? m->cfg.page_size : 600);
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		return 1 + r % m->cfg.max_alloc_size;
	default:				/* a few sizes, so that buffers are reused */
		return buffer_sizes[r % ARRAY_SIZE(buffer_sizes)];
	}
}

/*
 * Frees what a failed test left live, before its pool is destroyed. The
 * model's pages are gone by then (allocated after this action was added,
 * they are freed before it runs): only the allocations are touched.
 */
static void model_free_all(void *data)
{
	struct model *m = data;
	u32 i;

	for (i = 0; i < m->nlive; i++)
		vrampool_pool_free(m->live[i].a);
	m->nlive = 0;
}

static const struct order_case order_cases[] = {
	{ "sliced", SLICED(4096, 4096), 0, 1 },
	{ "sliced, capped at 4 pages",
	  { .type = DRM_VRAMPOOL_POOL_SLICED,
	    .flags = DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE | DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE,
	    .page_size = 4096, .max_slice_size = 4096, .max_pool_size = 16384 }, 0, 2 },
	{ "sliced, indices wrapping", SLICED(4096, 4096), LAST_PAGE_INDEX - 8, 3 },
	{ "exclusive", EXCLUSIVE(8192, 10), 0, 4 },
	{ "exclusive, indices wrapping", EXCLUSIVE(8192, 10), LAST_PAGE_INDEX - 8, 5 },
	{ "direct", { .type = DRM_VRAMPOOL_POOL_DIRECT }, 0, 6 },
	{ "direct, reclaim_at 6144", DIRECT(6144), 0, 7 },
	{ "persistent", PERSISTENT, 0, 8 },
	{ "persistent, indices wrapping", PERSISTENT, LAST_PAGE_INDEX - 8, 9 },
};

static void order_case_desc(const struct order_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(order, order_cases, order_case_desc);

static void pool_order_differential(struct kunit *test)
{
	const struct order_case *c = test->param_value;
	struct model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	u32 r;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->test = test;
	m->cfg = c->cfg;
	m->pool = make_pool(test, fake_backing(test), c->cfg);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, model_free_all, m), 0);
	if (c->first_index) {
		m->pool->next_index = c->first_index;
		m->next_index = c->first_index;
	}
	prandom_seed_state(&m->rnd, c->seed);

	for (m->op = 0; m->op < MODEL_OPS; m->op++) {
		r = prandom_u32_state(&m->rnd) % 100;
		if (r < 3) {
			vrampool_pool_cleanup(m->pool, true, m->alloc_nr);
			model_cleanup(m, true);
		} else if (m->nlive == MODEL_LIVE || (m->nlive && r < 48)) {
			model_free(m, prandom_u32_state(&m->rnd) % m->nlive);
		} else {
			/* As a client does: count the request, run the periodic pass. */
			m->alloc_nr++;
			vrampool_pool_cleanup(m->pool, false, m->alloc_nr);
			model_cleanup(m, false);
			model_alloc(m, model_size(m));
		}
		model_check(m);
	}
}

/* One pool of each type, and what tells its operations from the others'. */

static struct kunit_case vrampool_pool_model_cases[] = {
	KUNIT_CASE_PARAM(pool_order_differential, order_gen_params),
	{}
};

static struct kunit_suite vrampool_pool_model_suite = {
	.name = "vrampool_pool_model",
	.test_cases = vrampool_pool_model_cases,
};

kunit_test_suite(vrampool_pool_model_suite);

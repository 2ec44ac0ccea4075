// SPDX-License-Identifier: GPL-2.0-only
/*
 * vrampool: a client's handle table, which names its allocations.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>

#include <drm/drm_file.h>

#include <drm/vrampool_accel.h>

#include "vrampool_client_types.h"
#include "vrampool_handles.h"
#include "vrampool_trace.h"
#include "vrampool_xa.h"

/**
 * DOC: handle entries
 *
 * A handle's entry in &vrampool_client.handles is its allocation's
 * &struct vrampool_alloc, except for a zero-size allocation: it has no page,
 * so it keeps no record either, only the index of its pool as an xarray
 * value (xa_mk_value()). Its pool counts it like any other, and it costs
 * nothing but its slot in the handle table, so that a client cannot hold
 * kernel memory with allocations that hold no VRAM. The index stays valid:
 * an install refuses while any dynamic allocation lives, and the
 * persistent pool (255) is never replaced.
 */

/**
 * DOC: retired handle
 *
 * Handles are cyclic, so a freed handle's slot is mostly the only one left
 * in its part of the handle table: erasing it would free the xarray nodes
 * on the path to it (through RCU), and the next ALLOC, one handle on, would
 * allocate them again. FREE instead leaves the handle it takes reserved
 * (an xarray zero entry: it loads as NULL, like a handle an ALLOC_BATCH
 * under way reserved, so a FREE of it finds nothing) and erases the one it had
 * retired before. Neighbouring handles share their nodes, so the table
 * allocates and frees a node only once every XA_CHUNK_SIZE handles. The
 * one retired handle is never handed out, but for the wrap of a table
 * that is otherwise full.
 */

/**
 * DOC: handle window
 *
 * Handles go round a window, 1 to max(65,536, 4 times the file's live
 * allocations): the cursor starts again from 1 past its end. A handle
 * table costs a node of 576 bytes per 64 handles it spans, however few of
 * them live: with handles cyclic over all of 32 bits, a file that keeps
 * one allocation of every 64 it makes would hold a node per allocation,
 * and its user's max_allocations would bound 576 bytes of table each, not
 * 9. Within the window the table spans at most four handles per live
 * allocation (and 65,536 at least), so it costs at most about 36 bytes per
 * allocation the file ever held at once. At least three quarters of the
 * window is free, so a freed handle comes back only after at least 49,152
 * others were handed out, which still turns a stale FREE into -ENOENT.
 */
#define HANDLE_WINDOW_MIN	65536u

/* The last handle of the window (DOC: handle window). */
static u32 handle_window(const struct vrampool_client *client)
{
	return max_t(u64, HANDLE_WINDOW_MIN, min_t(u64, (u64)client->allocations * 4, U32_MAX));
}

/*
 * Stores @entry at the next handle if its slot is free,
 * nearly always the case: one walk, in a node that is there already (DOC:
 * retired handle). False when the slot is taken (after a wrap), the cursor
 * is past the window (DOC: handle window), or a node it needs cannot be
 * had without sleeping; then
 * the search (vrampool_xa_alloc_next()) picks the same handle or the next
 * free one, reusing any node made here.
 */
static bool handle_next_fast(struct vrampool_client *client, void *entry, u32 *handle)
{
	u32 next = client->next_handle;
	XA_STATE(xas, &client->handles, next);
	bool stored = false;

	if (!next || next > handle_window(client))
		return false;
	xas_lock(&xas);
	if (!xas_load(&xas)) {
		xas_store(&xas, entry);
		stored = !xas_error(&xas);
		if (stored)
			xas_clear_mark(&xas, XA_FREE_MARK);
	}
	xas_unlock(&xas);
	if (!stored)
		return false;
	*handle = next;
	client->next_handle = next + 1;
	return true;
}

/*
 * The search for a handle to reserve: the next one in the window after
 * the last handed out that is free (vrampool_xa_alloc_next(), DOC: handle
 * window); the retired handle too, only when no other is free (DOC:
 * retired handle).
 */
static int handle_search(struct vrampool_client *client, u32 *handle)
{
	struct xa_limit window = XA_LIMIT(1, handle_window(client));
	int ret;

	ret = vrampool_xa_alloc_next(&client->handles, handle, NULL, window,
				     &client->next_handle, GFP_KERNEL);
	if (ret != -EBUSY || !client->retired_handle)
		return ret;
	xa_erase(&client->handles, client->retired_handle);
	client->retired_handle = 0;
	return vrampool_xa_alloc_next(&client->handles, handle, NULL, window,
				      &client->next_handle, GFP_KERNEL);
}

/**
 * vrampool_handles_store() - store an entry at a new handle
 * @client: the client, locked
 * @entry: the allocation's entry (DOC: handle entries)
 * @handle: set to the handle
 *
 * The next handle, in one walk nearly always, else the one the search
 * picks (handle_search()), which may sleep for memory.
 *
 * Return: 0, or -ENOMEM or -EBUSY with nothing stored.
 */
int vrampool_handles_store(struct vrampool_client *client, void *entry, u32 *handle)
{
	int ret;

	if (handle_next_fast(client, entry, handle))
		return 0;
	ret = handle_search(client, handle);
	if (ret)
		return ret;
	/* Into the slot just reserved: allocates nothing, so cannot fail. */
	ret = xa_err(xa_store(&client->handles, *handle, entry, GFP_KERNEL));
	if (ret) {
		xa_erase(&client->handles, *handle);
		client->next_handle = *handle;
	}
	return ret;
}

/**
 * vrampool_handles_take() - take a handle out of use, for FREE
 * @client: the client, locked
 * @handle: the handle
 *
 * The handle is left reserved and the one retired before erased (DOC:
 * retired handle). A handle an ALLOC_BATCH still under way reserved names
 * nothing: erasing it would drop the reservation while that batch, copying
 * its answers out without the client lock, still counts on it. One walk
 * and one lock (the retired handle is mostly the one below, one step
 * away): replacing an entry with the zero entry allocates nothing.
 *
 * Return: the entry (DOC: handle entries), or NULL, and nothing changed,
 * if @handle names no allocation.
 */
void *vrampool_handles_take(struct vrampool_client *client, u32 handle)
{
	XA_STATE(xas, &client->handles, handle);
	void *entry;

	xas_lock(&xas);
	entry = xas_load(&xas);
	if (!entry || xa_is_zero(entry)) {
		entry = NULL;
		goto out;
	}
	xas_store(&xas, XA_ZERO_ENTRY);
	if (client->retired_handle) {
		/* Mostly the handle below: one step back, else a walk to it. */
		if (client->retired_handle + 1 == handle)
			xas_prev(&xas);
		else
			xas_set(&xas, client->retired_handle);
		xas_store(&xas, NULL);
	}
	client->retired_handle = handle;
out:
	xas_unlock(&xas);
	return entry;
}

/*
 * Moves @xas to @handle and loads its entry: one step (xas_next()) when
 * @xas stands at a node and @handle is the next index up, else a walk from
 * the root. A walk over a list of handles, mostly consecutive, so costs
 * about one step each. (A fresh state is no node: xas_next() would load
 * its own index again.)
 */
static void *walk_to(struct xa_state *xas, u32 handle)
{
	if (xas_is_node(xas) && xas->xa_index + 1 == handle)
		return xas_next(xas);
	xas_set(xas, handle);
	return xas_load(xas);
}

/**
 * vrampool_handles_first_missing() - the first of a list of handles that names nothing
 * @client: their client, locked
 * @handles: the handles
 * @count: how many
 *
 * One walk of the handle table (walk_to()). Only the client lock's holder changes the table, so
 * what it finds stays true until the lock is dropped. A reserved or
 * retired handle names nothing, nor does 0.
 *
 * Return: the lowest index whose handle names no allocation, or @count.
 */
u32 vrampool_handles_first_missing(struct vrampool_client *client, const u32 *handles,
				   u32 count)
{
	XA_STATE(xas, &client->handles, 0);
	void *entry;
	u32 i;

	rcu_read_lock();
	for (i = 0; i < count && handles[i]; i++) {
		entry = walk_to(&xas, handles[i]);
		if (!entry || xa_is_zero(entry))
			break;
	}
	rcu_read_unlock();
	return i;
}

/**
 * vrampool_handles_take_all() - take a list of handles out of use, for FREE_BATCH
 * @client: their client, locked
 * @handles: the handles, each naming an allocation (vrampool_handles_first_missing())
 *	     and none twice
 * @count: how many, at least 1
 * @entries: set to their entries (DOC: handle entries)
 *
 * As FREE's take of each in turn, under the table's lock once: the last
 * handle stays retired (DOC: retired handle), the others and the handle
 * retired before are erased. One walk (walk_to()): an erasure that frees
 * a node leaves the state at a node above, from which the step to the
 * next index still finds it, as a walk that erases what it visits
 * expects of the xarray.
 */
void vrampool_handles_take_all(struct vrampool_client *client, const u32 *handles, u32 count,
			       void **entries)
{
	XA_STATE(xas, &client->handles, 0);
	u32 i;

	xas_lock(&xas);
	for (i = 0; i < count; i++) {
		walk_to(&xas, handles[i]);
		entries[i] = xas_store(&xas, i + 1 < count ? NULL : XA_ZERO_ENTRY);
	}
	if (client->retired_handle) {
		xas_set(&xas, client->retired_handle);
		xas_store(&xas, NULL);
	}
	client->retired_handle = handles[count - 1];
	xas_unlock(&xas);
}

/*
 * Stores @entries at handles from the cursor on while each slot is free,
 * in one walk under the table's lock, each handle into its answer.
 * Return: how many it stored; it stops at a slot that is taken, the end of
 * the window, or a node it cannot have without sleeping (handle_next_fast()).
 */
static u32 store_run(struct vrampool_client *client, void **entries,
		     struct drm_vrampool_alloc_answer *answers, u32 count)
{
	XA_STATE(xas, &client->handles, 0);
	u32 i, next, last = handle_window(client);

	xas_lock(&xas);
	for (i = 0; i < count; i++) {
		next = client->next_handle;
		if (!next || next > last || walk_to(&xas, next))
			break;
		xas_store(&xas, entries[i]);
		if (xas_error(&xas))
			break;
		xas_clear_mark(&xas, XA_FREE_MARK);
		answers[i].handle = next;
		client->next_handle = next + 1;
	}
	xas_unlock(&xas);
	return i;
}

/**
 * vrampool_handles_store_all() - give placed allocations their handles, for ALLOC_BATCH
 * @client: the client, locked
 * @entries: the allocations' entries, vrampool_handles_entry(), in order
 * @answers: their answers; each one's handle is set
 * @count: how many
 * @failed: on failure, the index of the entry that got no handle
 *
 * The handles each would get from its own ALLOC in turn (vrampool_handles_store()),
 * mostly in one walk of the handle table. The handles are valid at once:
 * the caller holds the client lock until they may be used.
 *
 * Return: 0, or a negative errno with no handle stored, the handle cursor
 * put back and each answer's handle 0.
 */
int vrampool_handles_store_all(struct vrampool_client *client, void **entries,
			       struct drm_vrampool_alloc_answer *answers, u32 count, u32 *failed)
{
	u32 start = client->next_handle, i = 0, j;
	int ret;

	for (;;) {
		i += store_run(client, entries + i, answers + i, count - i);
		if (i == count)
			return 0;
		/* The slow way for this one (it may sleep), then one walk again. */
		ret = vrampool_handles_store(client, entries[i], &answers[i].handle);
		if (ret)
			break;
		i++;
	}
	for (j = 0; j < i; j++) {
		xa_erase(&client->handles, answers[j].handle);
		answers[j].handle = 0;
	}
	client->next_handle = start;
	*failed = i;
	return ret;
}

/**
 * vrampool_handles_publish() - make hidden handles valid again, or hide them
 * @client: the client, locked
 * @answers: the allocations' answers, each with its handle
 *	     (vrampool_handles_store_all())
 * @entries: their entries, vrampool_handles_entry(), in the same order; NULL
 *	     hides every handle (a reserved slot: it names nothing)
 * @count: how many
 *
 * One walk of the handle table, under its lock once (walk_to(): a batch's
 * handles mostly follow each other). Storing into a slot that holds an
 * entry allocates nothing, so it cannot fail.
 */
void vrampool_handles_publish(struct vrampool_client *client,
			      const struct drm_vrampool_alloc_answer *answers, void **entries,
			      u32 count)
{
	XA_STATE(xas, &client->handles, 0);
	u32 i;

	xas_lock(&xas);
	for (i = 0; i < count; i++) {
		walk_to(&xas, answers[i].handle);
		xas_store(&xas, entries ? entries[i] : XA_ZERO_ENTRY);
	}
	xas_unlock(&xas);
}

/**
 * vrampool_handles_erase() - drop a handle and what it holds
 * @client: the client, locked
 * @handle: a handle an entry or a reservation holds; 0 for none
 */
void vrampool_handles_erase(struct vrampool_client *client, u32 handle)
{
	if (handle)
		xa_erase(&client->handles, handle);
}

/**
 * vrampool_handles_trace_free() - the vrampool_free event of a freed handle
 * @client: its client
 * @handle: the handle
 * @entry: its entry (DOC: handle entries), not freed yet
 */
void vrampool_handles_trace_free(struct vrampool_client *client, u32 handle, void *entry)
{
	struct vrampool_alloc *a = entry;

	if (xa_is_value(entry))
		trace_vrampool_free(client->file->client_id, handle, 0, xa_to_value(entry));
	else
		trace_vrampool_free(client->file->client_id, handle, vrampool_pool_alloc_size(a),
				    vrampool_alloc_pool(a)->index);
}

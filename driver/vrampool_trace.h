/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vrampool: tracepoints, under events/vrampool/ in tracefs.
 *
 * Every event names the client by its fdinfo drm-client-id (@client), so a
 * trace can be cut per process. Sizes are bytes; @pool is the pool index
 * (255: the persistent pool); @page a page index as ALLOC reports it.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM vrampool

#if !defined(_VRAMPOOL_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _VRAMPOOL_TRACE_H_

#include <linux/tracepoint.h>
#include <linux/types.h>

#include <drm/vrampool_accel.h>

#include "vrampool_names.h"

/* The error kind of a refusal by name, as libvrampool names it. */
#undef VRAMPOOL_NAMES_ERROR
#define VRAMPOOL_NAMES_ERROR(kind, name) { DRM_VRAMPOOL_ERR_##kind, name },
#define vrampool_trace_error_name(code) \
	__print_symbolic(code, VRAMPOOL_NAMES_ERRORS { DRM_VRAMPOOL_ERR_NONE, "None" })

/* The operations of a vrampool_batch event. */
#define VRAMPOOL_BATCH_ALLOC	0
#define VRAMPOOL_BATCH_FREE	1

TRACE_EVENT(vrampool_alloc,
	    TP_PROTO(u64 client, u32 handle, u64 size, u32 flags, u32 pool, u32 page,
		     u64 offset),
	    TP_ARGS(client, handle, size, flags, pool, page, offset),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, size)
			     __field(u64, offset)
			     __field(u32, handle)
			     __field(u32, flags)
			     __field(u32, pool)
			     __field(u32, page)),
	    TP_fast_assign(__entry->client = client;
			   __entry->size = size;
			   __entry->offset = offset;
			   __entry->handle = handle;
			   __entry->flags = flags;
			   __entry->pool = pool;
			   __entry->page = page;),
	    TP_printk("client=%llu handle=%u size=%llu flags=%#x pool=%u page=%d offset=%llu",
		      __entry->client, __entry->handle, __entry->size, __entry->flags,
		      __entry->pool, (int)__entry->page, __entry->offset)
);

TRACE_EVENT(vrampool_alloc_refused,
	    TP_PROTO(u64 client, u64 size, u32 flags, int ret, u32 code),
	    TP_ARGS(client, size, flags, ret, code),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, size)
			     __field(u32, flags)
			     __field(int, ret)
			     __field(u32, code)),
	    TP_fast_assign(__entry->client = client;
			   __entry->size = size;
			   __entry->flags = flags;
			   __entry->ret = ret;
			   __entry->code = code;),
	    TP_printk("client=%llu size=%llu flags=%#x ret=%d error=%s",
		      __entry->client, __entry->size, __entry->flags, __entry->ret,
		      vrampool_trace_error_name(__entry->code))
);

TRACE_EVENT(vrampool_free,
	    TP_PROTO(u64 client, u32 handle, u64 size, u32 pool),
	    TP_ARGS(client, handle, size, pool),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, size)
			     __field(u32, handle)
			     __field(u32, pool)),
	    TP_fast_assign(__entry->client = client;
			   __entry->size = size;
			   __entry->handle = handle;
			   __entry->pool = pool;),
	    TP_printk("client=%llu handle=%u size=%llu pool=%u",
		      __entry->client, __entry->handle, __entry->size, __entry->pool)
);

/*
 * One ALLOC_BATCH or FREE_BATCH: @failed is the index at fault, -1 (as
 * printed) when none is; a successful batch's allocations and frees have
 * their own vrampool_alloc and vrampool_free events, before this one.
 */
TRACE_EVENT(vrampool_batch,
	    TP_PROTO(u64 client, u32 op, u32 count, int ret, u32 failed, u32 code),
	    TP_ARGS(client, op, count, ret, failed, code),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u32, op)
			     __field(u32, count)
			     __field(int, ret)
			     __field(u32, failed)
			     __field(u32, code)),
	    TP_fast_assign(__entry->client = client;
			   __entry->op = op;
			   __entry->count = count;
			   __entry->ret = ret;
			   __entry->failed = failed;
			   __entry->code = code;),
	    TP_printk("client=%llu op=%s count=%u ret=%d failed=%d error=%s",
		      __entry->client,
		      __print_symbolic(__entry->op, { VRAMPOOL_BATCH_ALLOC, "alloc" },
				       { VRAMPOOL_BATCH_FREE, "free" }),
		      __entry->count, __entry->ret, (int)__entry->failed,
		      vrampool_trace_error_name(__entry->code))
);

TRACE_EVENT(vrampool_install,
	    TP_PROTO(u64 client, u64 generation, u32 pools, int ret, u32 code),
	    TP_ARGS(client, generation, pools, ret, code),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, generation)
			     __field(u32, pools)
			     __field(int, ret)
			     __field(u32, code)),
	    TP_fast_assign(__entry->client = client;
			   __entry->generation = generation;
			   __entry->pools = pools;
			   __entry->ret = ret;
			   __entry->code = code;),
	    TP_printk("client=%llu generation=%llu pools=%u ret=%d code=%u",
		      __entry->client, __entry->generation, __entry->pools, __entry->ret,
		      __entry->code)
);

TRACE_EVENT(vrampool_cleanup,
	    TP_PROTO(u64 client, u64 released),
	    TP_ARGS(client, released),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, released)),
	    TP_fast_assign(__entry->client = client;
			   __entry->released = released;),
	    TP_printk("client=%llu released=%llu", __entry->client, __entry->released)
);

/*
 * A client's teardown at close (postclose), counted as it went: @allocs
 * live allocations dropped (the handle table's entries, page-less ones
 * too), @records allocation records freed (theirs and the spare ones),
 * @pages pool pages released (each with its vrampool_page_release event
 * first). Each walk visits each item once, so these are its work.
 */
TRACE_EVENT(vrampool_close,
	    TP_PROTO(u64 client, u64 allocs, u64 records, u64 pages),
	    TP_ARGS(client, allocs, records, pages),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, allocs)
			     __field(u64, records)
			     __field(u64, pages)),
	    TP_fast_assign(__entry->client = client;
			   __entry->allocs = allocs;
			   __entry->records = records;
			   __entry->pages = pages;),
	    TP_printk("client=%llu allocs=%llu records=%llu pages=%llu",
		      __entry->client, __entry->allocs, __entry->records, __entry->pages)
);

TRACE_EVENT(vrampool_reclaim,
	    TP_PROTO(u64 client, u64 from, u64 bytes, u64 pages),
	    TP_ARGS(client, from, bytes, pages),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(u64, from)
			     __field(u64, bytes)
			     __field(u64, pages)),
	    TP_fast_assign(__entry->client = client;
			   __entry->from = from;
			   __entry->bytes = bytes;
			   __entry->pages = pages;),
	    TP_printk("client=%llu from=%llu bytes=%llu pages=%llu",
		      __entry->client, __entry->from, __entry->bytes, __entry->pages)
);

DECLARE_EVENT_CLASS(vrampool_page,
		    TP_PROTO(u64 client, u32 pool, u32 page, u64 size),
		    TP_ARGS(client, pool, page, size),
		    TP_STRUCT__entry(__field(u64, client)
				     __field(u64, size)
				     __field(u32, pool)
				     __field(u32, page)),
		    TP_fast_assign(__entry->client = client;
				   __entry->size = size;
				   __entry->pool = pool;
				   __entry->page = page;),
		    TP_printk("client=%llu pool=%u page=%u size=%llu",
			      __entry->client, __entry->pool, __entry->page, __entry->size)
);

DEFINE_EVENT(vrampool_page, vrampool_page_create,
	     TP_PROTO(u64 client, u32 pool, u32 page, u64 size),
	     TP_ARGS(client, pool, page, size)
);

DEFINE_EVENT(vrampool_page, vrampool_page_release,
	     TP_PROTO(u64 client, u32 pool, u32 page, u64 size),
	     TP_ARGS(client, pool, page, size)
);

#endif /* _VRAMPOOL_TRACE_H_ */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE vrampool_trace
#include <trace/define_trace.h>

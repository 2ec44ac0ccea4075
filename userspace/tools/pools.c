// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: the calling client's pools, as POOL_QUERY reports them:
 * `stat` (a table or JSON) and `map` (occupancy bars).
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vrampoolctl.h"

static const char *const mode_names[] = {
	[DRM_VRAMPOOL_PERSISTENT_ENABLED] = "enabled",
	[DRM_VRAMPOOL_PERSISTENT_SIZE_MATCH] = "size-match",
	[DRM_VRAMPOOL_PERSISTENT_DISABLED] = "disabled",
	[DRM_VRAMPOOL_PERSISTENT_ENFORCED] = "enforced",
};

#define N_MODES (sizeof(mode_names) / sizeof(mode_names[0]))

const char *persistent_mode_name(uint32_t mode)
{
	return mode < N_MODES ? mode_names[mode] : "unknown";
}

int persistent_mode_of(const char *name)
{
	size_t i;

	for (i = 0; i < N_MODES; i++) {
		if (!strcmp(name, mode_names[i]))
			return (int)i;
	}
	return -1;
}

int client_view_read(int fd, struct client_view *v)
{
	struct drm_vrampool_pool_query q = { 0 };
	int ret;

	memset(v, 0, sizeof(*v));
	/*
	 * The size-query call alone reports the client totals that
	 * vrampool_pool_query() does not return.
	 */
	if (ioctl(fd, DRM_IOCTL_VRAMPOOL_POOL_QUERY, &q)) {
		ret = -errno;
		fprintf(stderr, "vrampoolctl: POOL_QUERY: %s\n", strerror(-ret));
		return ret;
	}
	v->vram_in_use = q.vram_in_use;
	v->persistent_mode = q.persistent_mode;

	ret = vrampool_pool_query(fd, &v->pools, &v->count, &v->generation);
	if (ret) {
		fprintf(stderr, "vrampoolctl: POOL_QUERY: %s\n", strerror(-ret));
		return ret;
	}
	return 0;
}

int client_view_open(const char *path, struct vrampool_device_info *info, struct client_view *v)
{
	int fd, ret;

	fd = open_device(path, info);
	if (fd < 0)
		return -fd;
	ret = client_view_read(fd, v);
	close(fd);
	return ret ? EXIT_FAILED : EXIT_OK;
}

void client_view_free(struct client_view *v)
{
	free(v->pools);
	v->pools = NULL;
	v->count = 0;
}

/* ---- stat: a table ------------------------------------------------------ */

enum col {
	C_INDEX, C_TYPE, C_PAGE, C_SLICE, C_CAP, C_MAX, C_RECLAIM, C_DEALLOC,
	C_ALLOCS, C_IN_USE, C_PADDING, C_RESERVED, C_PAGES, C_PEAK, C_LARGEST, N_COLS
};

static const char *const col_names[N_COLS] = {
	"index", "type", "page", "slice", "cap", "max", "reclaim", "dealloc",
	"allocs", "in_use", "padding", "reserved", "pages", "peak", "largest",
};

#define CELL 24

static void cell_size(char *cell, bool present, uint64_t v)
{
	if (present)
		format_size(v, cell, CELL);
	else
		snprintf(cell, CELL, "-");
}

static void cell_u64(char *cell, bool present, uint64_t v)
{
	if (present)
		snprintf(cell, CELL, "%" PRIu64, v);
	else
		snprintf(cell, CELL, "-");
}

static void fill_row(char row[N_COLS][CELL], const struct drm_vrampool_pool_status *s)
{
	const struct drm_vrampool_pool_entry *e = &s->config;
	bool sliced = e->type == DRM_VRAMPOOL_POOL_SLICED;

	snprintf(row[C_INDEX], CELL, "%u", s->index);
	snprintf(row[C_TYPE], CELL, "%s", pool_type_name(e->type));
	cell_size(row[C_PAGE], sliced, e->page_size);
	cell_size(row[C_SLICE], sliced && (e->flags & DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE),
		  e->max_slice_size);
	cell_size(row[C_CAP], sliced && (e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE),
		  e->max_pool_size);
	cell_size(row[C_MAX], e->type == DRM_VRAMPOOL_POOL_EXCLUSIVE, e->max_alloc_size);
	cell_size(row[C_RECLAIM], e->flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT, e->reclaim_at);
	cell_u64(row[C_DEALLOC], e->flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, e->dealloc_period);
	cell_u64(row[C_ALLOCS], true, s->allocations);
	cell_size(row[C_IN_USE], true, s->bytes_in_use);
	cell_size(row[C_PADDING], true, s->padding);
	cell_size(row[C_RESERVED], true, s->reserved_bytes);
	cell_u64(row[C_PAGES], true, s->pages);
	cell_u64(row[C_PEAK], true, s->pages_peak);
	cell_size(row[C_LARGEST], true, s->largest_alloc);
}

static void print_client_header(FILE *out, const struct vrampool_device_info *info,
				const struct client_view *v)
{
	char a[32];

	fprintf(out, "%s (%s, %s): this client (its own open file)\n", info->path, info->name,
		vrampool_backend_name(info->backend));
	fprintf(out, "  layout generation %" PRIu64 ", %u dynamic pools + persistent, persistent mode %s, VRAM held %" PRIu64 " (%s)\n",
		v->generation, v->count ? v->count - 1 : 0,
		persistent_mode_name(v->persistent_mode), v->vram_in_use,
		format_approx(v->vram_in_use, a, sizeof(a)));
}

void print_pool_table(FILE *out, const struct drm_vrampool_pool_status *pools, uint32_t count)
{
	char (*rows)[N_COLS][CELL];
	int width[N_COLS];
	uint32_t r;
	int c;

	rows = calloc(count + 1, sizeof(*rows));
	if (!rows) {
		fprintf(stderr, "vrampoolctl: out of memory\n");
		return;
	}
	for (c = 0; c < N_COLS; c++)
		snprintf(rows[0][c], CELL, "%s", col_names[c]);
	for (r = 0; r < count; r++)
		fill_row(rows[r + 1], &pools[r]);

	for (c = 0; c < N_COLS; c++) {
		width[c] = 0;
		for (r = 0; r <= count; r++) {
			int w = (int)strlen(rows[r][c]);

			if (w > width[c])
				width[c] = w;
		}
	}
	for (r = 0; r <= count; r++) {
		fputs(" ", out);
		for (c = 0; c < N_COLS; c++) {
			/* Numbers right-aligned, the type left-aligned. */
			if (c == C_TYPE)
				fprintf(out, " %-*s", width[c], rows[r][c]);
			else
				fprintf(out, " %*s", width[c], rows[r][c]);
		}
		fputc('\n', out);
	}
	free(rows);
}

void print_stat(FILE *out, const struct vrampool_device_info *info, const struct client_view *v)
{
	print_client_header(out, info, v);
	print_pool_table(out, v->pools, v->count);
}

void json_pool_config(struct json *j, const struct drm_vrampool_pool_entry *e)
{
	char spec[160];

	json_string(j, "type", pool_type_name(e->type));
	switch (e->type) {
	case DRM_VRAMPOOL_POOL_SLICED:
		json_u64(j, "page_size", e->page_size);
		if (e->flags & DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE)
			json_u64(j, "max_slice_size", e->max_slice_size);
		else
			json_null(j, "max_slice_size");
		if (e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE)
			json_u64(j, "max_pool_size", e->max_pool_size);
		else
			json_null(j, "max_pool_size");
		break;
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		json_u64(j, "max_alloc_size", e->max_alloc_size);
		break;
	case DRM_VRAMPOOL_POOL_DIRECT:
		if (e->flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT)
			json_u64(j, "reclaim_at", e->reclaim_at);
		else
			json_null(j, "reclaim_at");
		break;
	default:
		break;
	}
	if (e->type == DRM_VRAMPOOL_POOL_SLICED || e->type == DRM_VRAMPOOL_POOL_EXCLUSIVE) {
		if (e->flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD)
			json_u64(j, "dealloc_period", e->dealloc_period);
		else
			json_null(j, "dealloc_period");
	}
	json_string(j, "spec", format_spec(e, spec, sizeof(spec)));
}

void json_pool_status(struct json *j, const struct drm_vrampool_pool_status *s)
{
	json_object_begin(j, NULL);
	json_u64(j, "index", s->index);
	json_pool_config(j, &s->config);
	json_u64(j, "allocations", s->allocations);
	json_u64(j, "bytes_in_use", s->bytes_in_use);
	json_u64(j, "padding", s->padding);
	json_u64(j, "reserved_bytes", s->reserved_bytes);
	json_u64(j, "pages", s->pages);
	json_u64(j, "pages_peak", s->pages_peak);
	json_u64(j, "largest_alloc", s->largest_alloc);
	json_u64(j, "pages_made", s->pages_made);
	json_object_end(j);
}

void json_stat(struct json *j, const struct vrampool_device_info *info,
	       const struct client_view *v)
{
	uint32_t i;

	json_object_begin(j, NULL);
	json_object_begin(j, "device");
	json_string(j, "path", info->path);
	json_string(j, "name", info->name);
	json_string(j, "backend", vrampool_backend_name(info->backend));
	json_object_end(j);
	json_u64(j, "generation", v->generation);
	json_u64(j, "vram_in_use", v->vram_in_use);
	json_string(j, "persistent_mode", persistent_mode_name(v->persistent_mode));
	json_array_begin(j, "pools");
	for (i = 0; i < v->count; i++)
		json_pool_status(j, &v->pools[i]);
	json_array_end(j);
	json_object_end(j);
	json_finish(j);
}

/* ---- map: occupancy bars ------------------------------------------------ */

#define BAR 32

void print_map(FILE *out, const struct vrampool_device_info *info, const struct client_view *v)
{
	char spec[160], used_s[32], res_s[32], bar[BAR + 1], pages_s[48];
	int spec_w = 0, w;
	uint32_t i;

	print_client_header(out, info, v);
	fprintf(out, "  each bar is a pool's reserved VRAM: '#' in use (bytes + padding), '.' free\n");
	for (i = 0; i < v->count; i++) {
		w = (int)strlen(format_spec(&v->pools[i].config, spec, sizeof(spec)));
		if (w > spec_w)
			spec_w = w;
	}
	for (i = 0; i < v->count; i++) {
		const struct drm_vrampool_pool_status *s = &v->pools[i];
		const struct drm_vrampool_pool_entry *e = &s->config;
		uint64_t used = s->bytes_in_use + s->padding, cap_pages = 0;
		unsigned int fill = 0, k;

		if (e->type == DRM_VRAMPOOL_POOL_SLICED && e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE &&
		    e->page_size)
			cap_pages = e->max_pool_size / e->page_size;
		if (cap_pages)
			snprintf(pages_s, sizeof(pages_s), "%" PRIu64 "/%" PRIu64 " pages", (uint64_t)s->pages,
				 cap_pages);
		else
			snprintf(pages_s, sizeof(pages_s), "%" PRIu64 " page%s", (uint64_t)s->pages,
				 s->pages == 1 ? "" : "s");

		format_spec(e, spec, sizeof(spec));
		if (!s->reserved_bytes) {
			fprintf(out, "  %3u %-*s %14s  (nothing reserved)%s\n", s->index, spec_w, spec,
				pages_s, s->allocations ? ", zero-size allocations only" : "");
			continue;
		}
		if (used >= s->reserved_bytes) {
			fill = BAR;
		} else if (used) {
			fill = (unsigned int)(((unsigned __int128)used * BAR + s->reserved_bytes / 2) /
					      s->reserved_bytes);
			/* Any use shows, and so does any room left. */
			if (!fill)
				fill = 1;
			if (fill == BAR)
				fill = BAR - 1;
		}
		for (k = 0; k < BAR; k++)
			bar[k] = k < fill ? '#' : '.';
		bar[BAR] = '\0';
		fprintf(out, "  %3u %-*s %14s  [%s] %s of %s (%.1f%%)\n", s->index, spec_w, spec,
			pages_s, bar, format_approx(used, used_s, sizeof(used_s)),
			format_approx(s->reserved_bytes, res_s, sizeof(res_s)),
			100.0 * (double)used / (double)s->reserved_bytes);
	}
}

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: pool specs, the command-line form of a layout.
 *
 *   sliced:page=SIZE[,slice=SIZE][,cap=SIZE][,dealloc=N]
 *   exclusive:max=SIZE[,dealloc=N]
 *   direct[:reclaim=SIZE]
 *
 * or one preset name alone: sub-slices, exclusive-pages. The long names of
 * the uapi fields (page_size, max_slice_size, max_pool_size,
 * max_alloc_size, dealloc_period, reclaim_at) are accepted too. A spec only
 * says what the user wrote: the layout rules (vrampool_layout_validate()
 * and the kernel) judge the values.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vrampool_names.h"
#include "vrampoolctl.h"

enum key_kind { KEY_SIZE, KEY_COUNT };

struct spec_key {
	const char *name;
	const char *long_name;
	uint32_t types;		/* bit (1 << type) for each type that has it */
	uint32_t flag;		/* DRM_VRAMPOOL_ENTRY_*, 0 when mandatory */
	enum key_kind kind;
	size_t offset;		/* of the __u64 in struct drm_vrampool_pool_entry */
};

#define T(t)	(1u << DRM_VRAMPOOL_POOL_##t)
#define AT(f)	offsetof(struct drm_vrampool_pool_entry, f)

static const struct spec_key keys[] = {
	{ "page", "page_size", T(SLICED), 0, KEY_SIZE, AT(page_size) },
	{ "slice", "max_slice_size", T(SLICED), DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE, KEY_SIZE,
	  AT(max_slice_size) },
	{ "cap", "max_pool_size", T(SLICED), DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE, KEY_SIZE,
	  AT(max_pool_size) },
	{ "max", "max_alloc_size", T(EXCLUSIVE), 0, KEY_SIZE, AT(max_alloc_size) },
	{ "dealloc", "dealloc_period", T(SLICED) | T(EXCLUSIVE),
	  DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD, KEY_COUNT, AT(dealloc_period) },
	{ "reclaim", "reclaim_at", T(DIRECT), DRM_VRAMPOOL_ENTRY_RECLAIM_AT, KEY_SIZE,
	  AT(reclaim_at) },
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

const char *pool_type_name(uint32_t type)
{
	return vrampool_names_lookup_pool_type(type);
}

uint32_t preset_of(const char *name)
{
	if (!strcmp(name, "sub-slices"))
		return DRM_VRAMPOOL_PRESET_SUB_SLICES;
	if (!strcmp(name, "exclusive-pages"))
		return DRM_VRAMPOOL_PRESET_EXCLUSIVE_PAGES;
	return DRM_VRAMPOOL_PRESET_NONE;
}

/* One spec; @why says what is wrong with it. */
static int parse_spec(const char *spec, struct drm_vrampool_pool_entry *e, char *why,
		      size_t len)
{
	char buf[256], reason[192], *opts, *item, *save = NULL, *eq;
	uint32_t type, seen = 0;
	const struct spec_key *k;
	uint64_t v;
	size_t i;
	int ret;

	if (strlen(spec) >= sizeof(buf)) {
		snprintf(why, len, "pool spec too long: '%.40s...'", spec);
		return -1;
	}
	strcpy(buf, spec);
	opts = strchr(buf, ':');
	if (opts)
		*opts++ = '\0';

	ret = vrampool_names_parse_pool_type(buf);
	if (ret == DRM_VRAMPOOL_POOL_SLICED || ret == DRM_VRAMPOOL_POOL_EXCLUSIVE ||
	    ret == DRM_VRAMPOOL_POOL_DIRECT) {
		type = (uint32_t)ret;
	} else {	/* the persistent pool is never installed */
		snprintf(why, len,
			 "'%s' is not a pool spec or preset (sliced:..., exclusive:..., direct[:...], sub-slices, exclusive-pages)",
			 spec);
		return -1;
	}

	memset(e, 0, sizeof(*e));
	e->type = type;
	if (opts && !*opts) {
		snprintf(why, len, "'%s': nothing after ':'", spec);
		return -1;
	}
	if (opts && (*opts == ',' || strstr(opts, ",,") || opts[strlen(opts) - 1] == ',')) {
		snprintf(why, len, "'%s': an empty KEY=VALUE between commas", spec);
		return -1;
	}
	for (item = opts ? strtok_r(opts, ",", &save) : NULL; item;
	     item = strtok_r(NULL, ",", &save)) {
		eq = strchr(item, '=');
		if (!eq || eq == item || !eq[1]) {
			snprintf(why, len, "'%s': '%s' is not KEY=VALUE", spec, item);
			return -1;
		}
		*eq = '\0';
		for (i = 0, k = NULL; i < N_KEYS; i++) {
			if ((keys[i].types & (1u << type)) &&
			    (!strcmp(item, keys[i].name) || !strcmp(item, keys[i].long_name))) {
				k = &keys[i];
				break;
			}
		}
		if (!k) {
			snprintf(why, len, "'%s': unknown key '%s' for %s pools (%s)", spec, item,
				 pool_type_name(type),
				 type == DRM_VRAMPOOL_POOL_SLICED ? "page, slice, cap, dealloc" :
				 type == DRM_VRAMPOOL_POOL_EXCLUSIVE ? "max, dealloc" : "reclaim");
			return -1;
		}
		if (seen & (1u << i)) {
			snprintf(why, len, "'%s': '%s' given twice", spec, k->name);
			return -1;
		}
		seen |= 1u << i;
		if ((k->kind == KEY_SIZE ? parse_size : parse_count)(eq + 1, &v, reason,
								     sizeof(reason))) {
			snprintf(why, len, "'%s': %s: %s", spec, k->name, reason);
			return -1;
		}
		memcpy((char *)e + k->offset, &v, sizeof(v));
		e->flags |= k->flag;
	}

	for (i = 0; i < N_KEYS; i++) {
		if ((keys[i].types & (1u << type)) && !keys[i].flag && !(seen & (1u << i))) {
			snprintf(why, len, "'%s': %s pools need %s=SIZE", spec,
				 pool_type_name(type), keys[i].name);
			return -1;
		}
	}
	return 0;
}

int parse_layout(int argc, char **argv, struct layout_request *req, char *why, size_t len)
{
	char reason[384];
	int i;

	memset(req, 0, sizeof(*req));
	if (argc < 1) {
		snprintf(why, len, "no layout given: a preset (sub-slices, exclusive-pages) or pool specs");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (preset_of(argv[i]) != DRM_VRAMPOOL_PRESET_NONE) {
			if (argc > 1) {
				snprintf(why, len, "the preset '%s' comes alone, without pool specs",
					 argv[i]);
				return -1;
			}
			req->preset = preset_of(argv[i]);
			return 0;
		}
	}
	if (argc > MAX_SPECS) {
		snprintf(why, len, "more than %d pool specs", MAX_SPECS);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (parse_spec(argv[i], &req->entries[i], reason, sizeof(reason))) {
			snprintf(why, len, "%s", reason);
			return -1;
		}
	}
	req->count = (uint32_t)argc;
	return 0;
}

const struct drm_vrampool_pool_entry *layout_entries(const struct layout_request *req)
{
	return req->preset == DRM_VRAMPOOL_PRESET_NONE ? req->entries : NULL;
}

char *format_spec(const struct drm_vrampool_pool_entry *e, char *buf, size_t len)
{
	char a[32], b[32], c[32];
	int n = 0;

	switch (e->type) {
	case DRM_VRAMPOOL_POOL_EXCLUSIVE:
		n = snprintf(buf, len, "exclusive:max=%s", format_size(e->max_alloc_size, a, sizeof(a)));
		break;
	case DRM_VRAMPOOL_POOL_SLICED:
		n = snprintf(buf, len, "sliced:page=%s", format_size(e->page_size, a, sizeof(a)));
		if (e->flags & DRM_VRAMPOOL_ENTRY_MAX_SLICE_SIZE && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - n, ",slice=%s",
				      format_size(e->max_slice_size, b, sizeof(b)));
		if (e->flags & DRM_VRAMPOOL_ENTRY_MAX_POOL_SIZE && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - n, ",cap=%s",
				      format_size(e->max_pool_size, c, sizeof(c)));
		break;
	case DRM_VRAMPOOL_POOL_DIRECT:
		n = snprintf(buf, len, "direct");
		if (e->flags & DRM_VRAMPOOL_ENTRY_RECLAIM_AT && (size_t)n < len)
			n += snprintf(buf + n, len - n, ":reclaim=%s",
				      format_size(e->reclaim_at, a, sizeof(a)));
		break;
	default:
		n = snprintf(buf, len, "%s", pool_type_name(e->type));
		break;
	}
	if (e->flags & DRM_VRAMPOOL_ENTRY_DEALLOC_PERIOD && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ",dealloc=%" PRIu64, (uint64_t)e->dealloc_period);
	return buf;
}

// SPDX-License-Identifier: MIT
/*
 * vrampoolctl: a resolved layout's pools, as validate and install show them.
 *
 * Copyright (C) 2026 The vrampool authors
 */

#include <stdio.h>

#include "vrampoolctl.h"

void print_pools(const struct drm_vrampool_pool_entry *pools, uint32_t count)
{
	char spec[160];
	uint32_t i;

	for (i = 0; i < count; i++)
		printf("  %3u  %s\n", i, format_spec(&pools[i], spec, sizeof(spec)));
}

void json_pools(struct json *j, const struct drm_vrampool_pool_entry *pools,
		       uint32_t count)
{
	uint32_t i;

	json_array_begin(j, "pools");
	for (i = 0; i < count; i++) {
		json_object_begin(j, NULL);
		json_u64(j, "index", i);
		json_pool_config(j, &pools[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

void json_preset(struct json *j, uint32_t preset)
{
	if (preset == DRM_VRAMPOOL_PRESET_NONE)
		json_null(j, "preset");
	else
		json_string(j, "preset", vrampool_preset_name(preset));
}

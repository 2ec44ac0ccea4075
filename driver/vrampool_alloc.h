/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The vrampool authors
 */

#ifndef _VRAMPOOL_ALLOC_H_
#define _VRAMPOOL_ALLOC_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct drm_vrampool_alloc;
struct drm_vrampool_alloc_answer;
struct vrampool_alloc;
struct vrampool_client;
struct vrampool_device;

void vrampool_alloc_entry_free(struct vrampool_client *client, void *entry);
struct vrampool_alloc *vrampool_alloc_entry_release(struct vrampool_client *client, void *entry);
void vrampool_alloc_release_run(struct vrampool_client *client, struct vrampool_alloc *const *a,
				u32 count);
u32 vrampool_alloc_first_missing(struct vrampool_client *client, const u32 *handles, u32 count);
void vrampool_alloc_take_all(struct vrampool_client *client, const u32 *handles, u32 count,
			     void **entries);
bool vrampool_alloc_routable(struct vrampool_client *client, u64 size, u32 flags);
int vrampool_alloc_place(struct vrampool_client *client, struct drm_vrampool_alloc *args,
			 struct vrampool_alloc *a);
u32 vrampool_alloc_place_run(struct vrampool_client *client, u64 size,
			     struct vrampool_alloc *const *a, u32 count,
			     const struct vrampool_alloc *prev);
int vrampool_alloc_store_all(struct vrampool_client *client, void **entries,
			     struct drm_vrampool_alloc_answer *answers, u32 count, u32 *failed);
void *vrampool_alloc_entry(struct vrampool_alloc *a);
void vrampool_alloc_publish(struct vrampool_client *client,
			    const struct drm_vrampool_alloc_answer *answers, void **entries,
			    u32 count);
void vrampool_alloc_unplace(struct vrampool_client *client, u32 handle, void *entry);
void vrampool_alloc_answer(const struct vrampool_alloc *a, u32 handle,
			   struct drm_vrampool_alloc_answer *ans);
void vrampool_alloc_trace_free(struct vrampool_client *client, u32 handle, void *entry);

int vrampool_alloc_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
bool vrampool_alloc_check(struct vrampool_device *vdev, const struct drm_vrampool_alloc *args);
int vrampool_alloc_serve(struct drm_file *file, struct drm_vrampool_alloc *args);
int vrampool_free_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_cleanup_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int vrampool_set_persistent_mode_ioctl(struct drm_device *drm, void *data,
				       struct drm_file *file);

#endif /* _VRAMPOOL_ALLOC_H_ */

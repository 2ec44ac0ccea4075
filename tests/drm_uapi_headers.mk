# SPDX-License-Identifier: GPL-2.0-only
#
# <drm/drm.h> for the userspace test builds (selftests/Makefile and
# tests/host/Makefile include this).
#
# uapi/drm/vrampool_accel.h includes "drm.h", as the kernel's own uapi
# headers do: installed, it sits next to drm.h (or, on Debian, finds libdrm's
# through pkg-config's -I/usr/include/libdrm). Here the directory that holds
# drm.h is searched too, after all the others.
#
# It comes from /usr/include (linux-libc-dev). Debian's 6.1 linux-libc-dev
# ships no drm/ headers; then take them from the kernel source KSFT belongs
# to: its installed uapi headers (make headers: usr/include) when present,
# else drm.h and drm_mode.h sanitised into $(OUT)/.uapi the way
# headers_install does (stripping __user). -idirafter is searched after the
# system directories, so it only supplies headers the system lacks.
#
# In:  KSFT (tools/testing/selftests of that source), OUT.
# Out: DRM_HDR_FLAGS for the compiler; DRM_HDRS, the generated headers
#      (empty unless made here), for prerequisites; KSRC, the source.

KSRC := $(abspath $(KSFT)/../../..)
DRM_HDRS :=
DRM_HDR_FLAGS := -idirafter /usr/include/drm
ifeq ($(wildcard /usr/include/drm/drm.h),)
ifneq ($(wildcard $(KSRC)/usr/include/drm/drm.h),)
DRM_HDR_FLAGS := -idirafter $(KSRC)/usr/include -idirafter $(KSRC)/usr/include/drm
else
DRM_HDR_DIR := $(OUT)/.uapi
DRM_HDRS := $(DRM_HDR_DIR)/drm/drm.h $(DRM_HDR_DIR)/drm/drm_mode.h
DRM_HDR_FLAGS := -idirafter $(DRM_HDR_DIR) -idirafter $(DRM_HDR_DIR)/drm

$(DRM_HDR_DIR)/drm/%.h: $(KSRC)/include/uapi/drm/%.h
	mkdir -p $(@D)
	sed -E 's/([[:space:](])(__user|__force|__iomem)[[:space:]]/\1/g' $< > $@.tmp
	mv $@.tmp $@

.SECONDARY: $(DRM_HDRS)
endif
endif

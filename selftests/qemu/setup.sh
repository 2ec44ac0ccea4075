#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare everything the build and the VM test loop need, idempotently:
#   - host packages (compiler, QEMU, busybox, kmod, Debian 6.12 headers and source,
#     debootstrap for the newest kernel's build root (setup-newest.sh),
#     gcc-multilib and qemu-user for the host tests' i386 builds, which run
#     under qemu-i386 where the host's kernel cannot execute i386 programs,
#     the static checkers: sparse, coccinelle, Sphinx for the docs; and what
#     the package tier uses: debhelper, dh-dkms, dkms, lintian, libdrm-dev,
#     pkgconf);
#   - Debian's unsigned 6.12 kernel image, extracted (not installed) under
#     build/kernel/<ver>/, with a depmod index for the initramfs builder;
#   - the linux-source-6.12 tree extracted under build/linux-source-6.12
#     (kselftest headers, checkpatch, kernel-doc), with its uapi headers
#     installed in build/linux-source-6.12/usr/include (make headers, built
#     out of tree so that the tree stays clean for O= kernel builds).
# The resolved kernel version is written to build/kernel/VERSION.
#
# A warm run (everything present) does not touch apt and takes well under a
# second. Set VRAMPOOL_REFRESH=1 to re-resolve the newest kernel version.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
STAMPS=$BUILD/.stamps
APT_MAX_AGE=$((6 * 3600))

BASE_PKGS=(qemu-system-x86 qemu-user strace busybox-static cpio kmod xz-utils gcc gcc-multilib g++ make libc6-dev
	   perl bc flex bison libelf-dev libssl-dev python3 linux-libc-dev
	   linux-source-6.12 rsync debootstrap
	   sparse coccinelle ocaml-nox python3-sphinx groff-base
	   debhelper dh-dkms dkms lintian libdrm-dev pkgconf man-db)

export DEBIAN_FRONTEND=noninteractive
# The kernel-tree makes below are independent of any make that runs us.
unset MAKEFLAGS MFLAGS MAKELEVEL

log() { echo "setup: $*" >&2; }

# Run as root, or through sudo when that is available.
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { log "need root (or sudo) for apt-get"; exit 1; }
	SUDO=(sudo)
fi

installed() {	# installed PKG... -> true if every package is installed
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || return 1
	done
}

apt_update() {	# apt-get update unless done recently (or forced)
	local stamp=$STAMPS/apt-update now age
	now=$(date +%s)
	if [ -f "$stamp" ] && [ "${1:-}" != force ]; then
		age=$((now - $(stat -c %Y "$stamp")))
		[ "$age" -lt "$APT_MAX_AGE" ] && return 0
	fi
	log "apt-get update"
	"${SUDO[@]}" apt-get update -qq
	mkdir -p "$STAMPS" && touch "$stamp"
}

apt_install() {	# on failure, refresh stale package lists once and retry
	local cmd=("${SUDO[@]}" apt-get install -y -qq --no-install-recommends "$@")
	log "apt-get install $*"
	if ! "${cmd[@]}" >/dev/null; then
		apt_update force
		"${cmd[@]}" >/dev/null
	fi
}

resolve_kver() {	# newest linux-headers-6.12.N+deb12-amd64 known to apt
	apt-cache pkgnames linux-headers-6.12. |
		sed -n 's/^linux-headers-\(6\.12\.[0-9][0-9]*+deb12-amd64\)$/\1/p' |
		sort -V | tail -n 1
}


mkdir -p "$BUILD/kernel" "$STAMPS"

# 1. Base packages.
if ! installed "${BASE_PKGS[@]}"; then
	apt_update
	apt_install "${BASE_PKGS[@]}"
fi

# 2. Kernel version: keep the one already resolved unless asked to refresh.
KVER=""
[ -s "$BUILD/kernel/VERSION" ] && KVER=$(cat "$BUILD/kernel/VERSION")
if [ -z "$KVER" ] || [ -n "${VRAMPOOL_REFRESH:-}" ]; then
	[ -n "${VRAMPOOL_REFRESH:-}" ] && apt_update force
	KVER=$(resolve_kver)
	if [ -z "$KVER" ]; then
		apt_update force
		KVER=$(resolve_kver)
	fi
	[ -n "$KVER" ] || { log "no linux-headers-6.12.*+deb12-amd64 in the apt sources"; exit 1; }
	log "kernel version $KVER"
fi

# 3. Headers (these pull in the signed image package as a dependency: fine).
if ! installed "linux-headers-$KVER" || [ ! -e "/lib/modules/$KVER/build/Makefile" ]; then
	apt_update
	apt_install "linux-headers-$KVER"
fi
echo "$KVER" > "$BUILD/kernel/VERSION.tmp"
mv "$BUILD/kernel/VERSION.tmp" "$BUILD/kernel/VERSION"
PKGVER=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER")

# 4. The unsigned image, extracted (never installed), plus a depmod index.
#    The .deb stays in build/kernel/debs: "make -C KDIR M=<repo> clean" (kbuild)
#    deletes every *.ko.* below the repository, build/ included, and this
#    step then re-extracts without a download.
KTREE=$BUILD/kernel/$KVER
MODTREE=$KTREE/lib/modules/$KVER
DEBS=$BUILD/kernel/debs
IMG=linux-image-$KVER-unsigned

kernel_ok() {
	[ -f "$STAMPS/kernel-$KVER" ] && [ -f "$KTREE/boot/vmlinuz-$KVER" ] &&
		[ -f "$MODTREE/modules.dep" ] &&
		compgen -G "$MODTREE/kernel/drivers/gpu/drm/ttm/ttm.ko*" >/dev/null
}

if ! kernel_ok; then
	if ! compgen -G "$DEBS/${IMG}_*.deb" >/dev/null; then
		rm -rf "$DEBS"
		mkdir -p "$DEBS"
		log "downloading $IMG $PKGVER"
		if ! (cd "$DEBS" && apt-get download -qq "$IMG=$PKGVER" 2>/dev/null); then
			apt_update force
			(cd "$DEBS" && apt-get download -qq "$IMG=$PKGVER")
		fi
	fi
	log "extracting $IMG"
	rm -rf "$KTREE" "$STAMPS/kernel-$KVER"
	dpkg-deb -x "$DEBS/${IMG}"_*.deb "$KTREE"
	[ -f "$KTREE/boot/vmlinuz-$KVER" ] || { log "no vmlinuz in $IMG"; exit 1; }
	depmod -b "$KTREE" "$KVER"
	touch "$STAMPS/kernel-$KVER"
fi

# 5. The kernel source tree, extracted once per linux-source package version.
SRCVER=$(dpkg-query -W -f='${Version}' linux-source-6.12)
SRCSTAMP=$STAMPS/linux-source-$SRCVER
if [ ! -f "$SRCSTAMP" ]; then
	tarball=/usr/src/linux-source-6.12.tar.xz
	[ -f "$tarball" ] || { log "$tarball missing"; exit 1; }
	log "extracting $tarball (about a minute)"
	rm -rf "$BUILD/linux-source-6.12" "$STAMPS"/linux-source-*
	tar -xf "$tarball" -C "$BUILD"
	[ -d "$BUILD/linux-source-6.12/tools/testing/selftests" ] ||
		{ log "unexpected layout in $tarball"; exit 1; }
	rm -f "$STAMPS"/headers-*
	touch "$SRCSTAMP"
fi

# 6. Sanitised uapi headers (make headers) in build/linux-source-6.12/usr/include,
#    for userspace code that needs a newer <drm/drm.h> than linux-libc-dev's.
#    They are built out of tree and copied in: the debug kernel is built with
#    O=, which kbuild refuses on a source tree holding in-tree build output
#    (an older setup.sh ran "make headers" in the tree: clean that up once).
KSRC=$BUILD/linux-source-6.12
if [ ! -f "$STAMPS/headers-o-$SRCVER" ]; then
	if [ -e "$KSRC/.config" ] || [ -d "$KSRC/include/config" ] ||
	   [ -d "$KSRC/arch/x86/include/generated" ]; then
		log "make mrproper in linux-source-6.12 (in-tree build output)"
		make -s -C "$KSRC" mrproper >/dev/null
	fi
	log "make headers for linux-source-6.12"
	rm -rf "$BUILD/linux-headers"
	make -s -C "$KSRC" O="$BUILD/linux-headers" headers >/dev/null
	(cd "$BUILD/linux-headers/usr/include" && find . -name '*.h' -print0 |
		cpio --quiet -0 -pdm "$KSRC/usr/include")
	rm -rf "$BUILD/linux-headers"
	rm -f "$STAMPS"/headers-*
	touch "$STAMPS/headers-o-$SRCVER"
fi

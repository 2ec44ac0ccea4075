#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the newest-kernel tier (README: Kernels), idempotently, without
# touching the host's apt configuration:
#   - build/newest/apt/: a sources list of the project's own for the suites
#     NEWEST_ROOT_SUITE and NEWEST_SUITE (default trixie, trixie-backports)
#     on the mirror the host's own Debian sources name, with its own package
#     lists and cache (apt-get -o Dir::Etc::sourcelist=...);
#   - the newest linux-headers-NEWEST_SERIES.N+debNN-amd64 there (default
#     series 7.3), written to build/newest/VERSION;
#   - Debian's unsigned image and its modules package, downloaded and
#     extracted (never installed) under build/kernel/<ver>/ in the layout
#     setup.sh gives the 6.12 kernel, with a depmod index;
#   - a minimal root of NEWEST_ROOT_SUITE (debootstrap --variant=minbase)
#     holding that kernel's headers, its compiler (gcc-14) and kbuild, make
#     and dkms: build/newest/root-<key>, with build/newest/root pointing at
#     it. The key hashes the suite, the kernel version and the package list,
#     so a new kernel makes a new root and the old one is removed. Modules
#     are built inside it with in-root.sh: the kernel's kbuild programs need
#     the C library of the suite they were built in;
#   - linux-source-NEWEST_SERIES of the same suite, extracted under
#     build/linux-source-NEWEST_SERIES: the debug tier's kernel source.
# A warm run does not touch the network and takes well under a second.
# VRAMPOOL_REFRESH=1 re-resolves the newest kernel version.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
NEWEST_SERIES=${NEWEST_SERIES:-7.3}
NEWEST_SUITE=${NEWEST_SUITE:-trixie-backports}
NEWEST_ROOT_SUITE=${NEWEST_ROOT_SUITE:-trixie}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
N=$BUILD/newest
APT_DIR=$N/apt
STAMPS=$BUILD/.stamps
APT_MAX_AGE=$((6 * 3600))
# What the build root holds besides the base system.
ROOT_PKGS=(make dkms kmod xz-utils)

export DEBIAN_FRONTEND=noninteractive
unset MAKEFLAGS MFLAGS MAKELEVEL

log() { echo "setup-newest: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap, chroot)"; exit 1; }
for tool in debootstrap unshare dpkg-deb depmod; do
	command -v "$tool" >/dev/null || { log "$tool missing (run setup.sh)"; exit 1; }
done

# The Debian mirror of the host's own apt sources: the first URI of a
# "deb" source serving a suite that is not -security (one-line lists and
# deb822 .sources files alike). Only the suites differ.
host_mirror() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" {
			i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			if ($(i + 1) !~ /-security$/ && $i ~ /debian\/?$/) { print $i; exit }
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			uri = ""; suites = ""; types = ""
			for (k = 1; k <= NF; k++) {
				if ($k ~ /^URIs:/) { uri = $k; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
				if ($k ~ /^Suites:/) suites = $k
				if ($k ~ /^Types:/) types = $k
			}
			if (types ~ /[ \t]deb([ \t]|$)/ && suites !~ /-security/ && uri ~ /debian\/?$/) { print uri; exit }
		}' "$f"
	done
}

APT=(apt-get -o "Dir::Etc::sourcelist=$APT_DIR/sources.list" -o Dir::Etc::sourceparts=-
     -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache")
APT_CACHE=(apt-cache -o "Dir::Etc::sourcelist=$APT_DIR/sources.list" -o Dir::Etc::sourceparts=-
	   -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache")

apt_update() {	# our lists, unless fetched recently (or forced)
	local stamp=$STAMPS/newest-apt-update age
	if [ -f "$stamp" ] && [ "${1:-}" != force ] && [ -s "$APT_DIR/sources.list" ]; then
		age=$(($(date +%s) - $(stat -c %Y "$stamp")))
		[ "$age" -lt "$APT_MAX_AGE" ] && return 0
	fi
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$STAMPS"
	local mirror
	mirror=$(host_mirror | head -n 1)
	[ -n "$mirror" ] || { log "no Debian mirror in the host's apt sources"; exit 1; }
	{
		echo "# Written by selftests/qemu/setup-newest.sh: the host's mirror, this tier's suites."
		echo "deb [signed-by=$KEYRING] $mirror $NEWEST_ROOT_SUITE main"
		[ "$NEWEST_SUITE" = "$NEWEST_ROOT_SUITE" ] ||
			echo "deb [signed-by=$KEYRING] $mirror $NEWEST_SUITE main"
	} > "$APT_DIR/sources.list"
	log "apt-get update ($NEWEST_ROOT_SUITE, $NEWEST_SUITE on $mirror)"
	"${APT[@]}" update -qq
	touch "$stamp"
}

resolve_kver() {	# newest linux-headers-SERIES.N+debNN-amd64 in our lists
	local series=${NEWEST_SERIES//./\\.}
	"${APT_CACHE[@]}" pkgnames "linux-headers-$NEWEST_SERIES." |
		sed -n "s/^linux-headers-\($series\.[0-9][0-9]*+deb[0-9]*-amd64\)\$/\1/p" |
		sort -V | tail -n 1
}

mkdir -p "$N" "$STAMPS"

# 1. The kernel version.
KVER=""
[ -s "$N/VERSION" ] && KVER=$(cat "$N/VERSION")
case $KVER in "$NEWEST_SERIES".*) ;; *) KVER="" ;; esac
if [ -z "$KVER" ] || [ -n "${VRAMPOOL_REFRESH:-}" ]; then
	apt_update ${VRAMPOOL_REFRESH:+force}
	KVER=$(resolve_kver)
	if [ -z "$KVER" ]; then
		apt_update force
		KVER=$(resolve_kver)
	fi
	[ -n "$KVER" ] || { log "no linux-headers-$NEWEST_SERIES.*-amd64 in $NEWEST_SUITE"; exit 1; }
	log "kernel version $KVER"
	echo "$KVER" > "$N/VERSION.tmp"
	mv "$N/VERSION.tmp" "$N/VERSION"
fi

# 2. The unsigned image and its modules, extracted, plus a depmod index.
#    Debian's 7.x kernels ship the image as linux-binary-unsigned-KVER and
#    the modules apart, in linux-modules-KVER, under /usr/lib/modules.
KTREE=$BUILD/kernel/$KVER
MODTREE=$KTREE/lib/modules/$KVER
DEBS=$N/debs
kernel_ok() {
	[ -f "$STAMPS/kernel-$KVER" ] && [ -f "$KTREE/boot/vmlinuz-$KVER" ] &&
		[ -f "$MODTREE/modules.dep" ] &&
		compgen -G "$MODTREE/kernel/drivers/gpu/drm/ttm/ttm.ko*" >/dev/null
}
download() {	# download DIR PKG...: into DIR, refreshing stale lists once
	local dir=$1
	shift
	mkdir -p "$dir"
	(cd "$dir" && "${APT[@]}" download -qq "$@" 2>/dev/null) && return 0
	apt_update force
	(cd "$dir" && "${APT[@]}" download -qq "$@")
}
if ! kernel_ok; then
	IMG=(linux-binary-unsigned-"$KVER" linux-modules-"$KVER" linux-base-"$KVER")
	if ! compgen -G "$DEBS/linux-modules-${KVER}_*.deb" >/dev/null ||
	   ! compgen -G "$DEBS/linux-binary-unsigned-${KVER}_*.deb" >/dev/null; then
		rm -rf "$DEBS"
		log "downloading ${IMG[*]}"
		download "$DEBS" "${IMG[@]}"
	fi
	log "extracting ${IMG[*]}"
	rm -rf "$KTREE" "$STAMPS/kernel-$KVER"
	for deb in "$DEBS"/*.deb; do
		dpkg-deb -x "$deb" "$KTREE"
	done
	if [ -d "$KTREE/usr/lib/modules/$KVER" ]; then
		mkdir -p "$KTREE/lib/modules"
		mv "$KTREE/usr/lib/modules/$KVER" "$MODTREE"
	fi
	mkdir -p "$KTREE/boot"
	for img in "$MODTREE/vmlinuz.unsigned" "$MODTREE/vmlinuz" "$KTREE/boot/vmlinuz-$KVER"; do
		if [ -f "$img" ]; then
			[ "$img" = "$KTREE/boot/vmlinuz-$KVER" ] || mv "$img" "$KTREE/boot/vmlinuz-$KVER"
			break
		fi
	done
	[ -f "$KTREE/boot/vmlinuz-$KVER" ] || { log "no kernel image in ${IMG[*]}"; exit 1; }
	depmod -b "$KTREE" "$KVER"
	touch "$STAMPS/kernel-$KVER"
fi

# 3. The build root.
KEY=$(printf '%s\n' "$NEWEST_ROOT_SUITE" "$NEWEST_SUITE" "$KVER" "${ROOT_PKGS[@]}" |
	sha256sum | cut -c1-12)
BROOT=$N/root-$KEY
root_ok() {
	[ -f "$BROOT/.vrampool-root" ] && [ -f "$BROOT/usr/src/linux-headers-$KVER/Makefile" ]
}
if ! root_ok; then
	apt_update
	mirror=$(awk '/^deb /{ print $3; exit }' "$APT_DIR/sources.list")
	rm -rf "$BROOT"
	log "debootstrap $NEWEST_ROOT_SUITE into $BROOT (about a minute)"
	debootstrap --variant=minbase --keyring="$KEYRING" "$NEWEST_ROOT_SUITE" "$BROOT" "$mirror" \
		> "$N/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$N/debootstrap.log" >&2; log "debootstrap failed"; exit 1; }
	{
		echo "deb $mirror $NEWEST_ROOT_SUITE main"
		[ "$NEWEST_SUITE" = "$NEWEST_ROOT_SUITE" ] || echo "deb $mirror $NEWEST_SUITE main"
	} > "$BROOT/etc/apt/sources.list"
	log "installing linux-headers-$KVER ${ROOT_PKGS[*]} in the root"
	"$ROOT/selftests/qemu/in-root.sh" "$BROOT" -- sh -c \
		"apt-get update -qq && apt-get install -y -qq --no-install-recommends \
		 linux-headers-$KVER ${ROOT_PKGS[*]} >/dev/null && apt-get clean" ||
		{ log "installing into the root failed"; exit 1; }
	echo "$KVER" > "$BROOT/.vrampool-root"
fi
ln -sfn "root-$KEY" "$N/root"
for old in "$N"/root-*; do
	[ "$old" = "$BROOT" ] || rm -rf "$old"
done

# 4. The newest kernel's source, for the debug tier (build-debug-kernel.sh
#    builds its debug kernel from it): linux-source-SERIES of the same
#    suite, downloaded and its tarball extracted once per kernel version in
#    build/linux-source-SERIES, the package version in .vrampool-version.
SRCPKG=linux-source-$NEWEST_SERIES
SRCDIR=$BUILD/$SRCPKG
src_ok() {
	[ -f "$STAMPS/source-$KVER" ] && [ -f "$SRCDIR/Makefile" ] && [ -s "$SRCDIR/.vrampool-version" ]
}
if ! src_ok; then
	rm -rf "$N/src" "$SRCDIR" "$STAMPS"/source-*
	log "downloading $SRCPKG"
	download "$N/src" "$SRCPKG"
	deb=$(compgen -G "$N/src/${SRCPKG}_*.deb" | head -n 1)
	[ -n "$deb" ] || { log "no $SRCPKG package downloaded"; exit 1; }
	log "extracting $SRCPKG ($(dpkg-deb -f "$deb" Version))"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -O "./usr/src/$SRCPKG.tar.xz" | tar -xJ -C "$BUILD"
	[ -f "$SRCDIR/Makefile" ] || { log "$SRCPKG.tar.xz did not give $SRCDIR"; exit 1; }
	dpkg-deb -f "$deb" Version > "$SRCDIR/.vrampool-version"
	rm -rf "$N/src"
	touch "$STAMPS/source-$KVER"
fi

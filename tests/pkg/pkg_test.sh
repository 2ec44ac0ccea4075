#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The package tier (make check-pkg; make check runs it too), as kselftest
# TAP: vrampool as a user installs it, on this machine.
#
#   - VERSION is the one release number: debian/changelog agrees with it;
#   - make install (userspace/Makefile) under DESTDIR puts every file in
#     place, libvrampool.so.1 exports each function of vrampool.h at
#     VRAMPOOL_1, and a PREFIX install builds the README's example with
#     pkg-config and nothing but Debian packages (libdrm-dev's drm.h);
#   - dpkg-buildpackage builds the four packages, lintian finds no error
#     (and does find the one of a broken canary package);
#   - dpkg -i installs them (apt-get install -f for missing dependencies),
#     the README's example builds against `pkg-config --cflags --libs
#     vrampool` and runs, vrampoolctl validate works, DKMS builds and
#     installs the module for the VM's kernel (VRAMPOOL_KVER); dpkg --purge
#     removes every trace again;
#   - dkms.conf lets DKMS build for 6.12 and newer only;
#   - in the newest kernel's build root (setup-newest.sh), dpkg -i
#     vrampool-dkms and DKMS build the module for that kernel
#     (VRAMPOOL_NEW_KVER) with its own compiler; dpkg --purge removes it.
#
# The DKMS-built modules are left in $VRAMPOOL_PKG_OUT/vrampool.ko (the
# Debian kernel) and $VRAMPOOL_PKG_OUT/newest/vrampool.ko, and the example,
# built statically, in $VRAMPOOL_PKG_OUT/vrampool_runtime_example: the
# Makefile then loads each module in its kernel's VM and runs a kselftest
# and the example (vrampool_runtime_example_test.sh) on it.
#
# Environment: VRAMPOOL_PKG_OUT (work folder, default build/pkg),
# VRAMPOOL_KVER (default build/kernel/VERSION), VRAMPOOL_NEW_KVER and
# VRAMPOOL_NEW_ROOT (default build/newest/VERSION and build/newest/root).
# Needs root (dpkg, chroot), and the
# packages setup.sh installs (debhelper, dh-dkms, dkms, lintian, libdrm-dev,
# pkgconf). Installs are serialised with flock: two runs on one machine
# never install at once.
set -uo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
OUT=${VRAMPOOL_PKG_OUT:-$ROOT/build/pkg}
KVER=${VRAMPOOL_KVER:-$(cat "$ROOT/build/kernel/VERSION" 2>/dev/null)}
NEW_KVER=${VRAMPOOL_NEW_KVER:-$(cat "$ROOT/build/newest/VERSION" 2>/dev/null)}
NEW_ROOT=${VRAMPOOL_NEW_ROOT:-$ROOT/build/newest/root}
IN_ROOT=$ROOT/selftests/qemu/in-root.sh
VERSION=$(cat "$ROOT/VERSION")
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
LOCK=/run/lock/vrampool-pkg-test.lock
W=$OUT/work
rm -rf "$W" "$OUT/vrampool.ko" "$OUT/newest" "$OUT/vrampool_runtime_example"
mkdir -p "$W"

n=0
failed=0
result() {	# result OK|FAIL NAME [REPORT FILE]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		[ -n "${3:-}" ] && [ -f "$3" ] && sed 's/^/# /' "$3" | tail -n 40
		echo "not ok $n $2"
	fi
}
check() {	# check NAME CMD...: ok when CMD succeeds; its output is the report
	local name=$1
	shift
	if "$@" > "$W/last.out" 2>&1; then
		result OK "$name"
	else
		result FAIL "$name" "$W/last.out"
	fi
}

echo "TAP version 13"
PLANNED=25
echo "1..$PLANNED"

# --- The one version ------------------------------------------------------------
changelog=$(cd "$ROOT" && dpkg-parsechangelog -S Version)
check "debian/changelog's version ($changelog) is VERSION ($VERSION)" \
	test "$changelog" = "$VERSION"

# --- The README's example ---------------------------------------------------------
# The first C block of "## Use it from your runtime", byte for byte.
awk '/^## Use it from your runtime/ { s = 1; next }
     s && /^## / { exit }
     s == 1 && /^```c$/ { s = 2; next }
     s == 2 && /^```$/ { exit }
     s == 2 { print }' "$ROOT/README.md" > "$W/runtime.c"
check "the README's example is there ($(wc -l < "$W/runtime.c") lines)" \
	grep -q 'int main' "$W/runtime.c"

# What the example does without a device (this machine) or with one.
run_example() {	# run_example BINARY: its exit code and message fit the machine
	local rc=0
	"$1" > "$W/example.out" 2>&1 || rc=$?
	cat "$W/example.out"
	if [ -e /dev/accel ] && ls /sys/module/vrampool >/dev/null 2>&1; then
		[ "$rc" -eq 0 ] && grep -q 'bytes in pool' "$W/example.out"
	else
		[ "$rc" -eq 2 ] && grep -qx 'no vrampool device: load vrampool.ko' "$W/example.out"
	fi
}

# --- make install --------------------------------------------------------------
D=$W/destdir
US=(make -s -C "$ROOT/userspace" OUT="$W/userspace")
check "make install DESTDIR=... PREFIX=/usr" "${US[@]}" install DESTDIR="$D" PREFIX=/usr
files_in() {	# files_in DIR: every file (and link) under DIR, relative
	(cd "$1" && find . ! -type d | LC_ALL=C sort)
}
cat > "$W/expected.files" <<FILES
./usr/bin/vrampoolctl
./usr/include/drm/vrampool_accel.h
./usr/include/vrampool.h
./usr/lib/libvrampool.a
./usr/lib/libvrampool.so
./usr/lib/libvrampool.so.1
./usr/lib/pkgconfig/vrampool.pc
./usr/share/man/man1/vrampoolctl.1
FILES
files_in "$D" > "$W/destdir.files"
check "make install puts exactly the expected files under DESTDIR" \
	diff -u "$W/expected.files" "$W/destdir.files"

lib=$D/usr/lib/libvrampool.so.1
soname_ok() { readelf -d "$lib" | grep -q 'Library soname: \[libvrampool.so.1\]'; }
check "libvrampool.so.1 has the soname libvrampool.so.1" soname_ok

# Every function vrampool.h declares is exported, at VRAMPOOL_1 or (the
# batch functions, added later) VRAMPOOL_1.1, and nothing else.
sed -n 's/^[a-z].*[ *]\(vrampool_[a-z0-9_]*\)(.*/\1/p' "$ROOT/userspace/lib/vrampool.h" |
	LC_ALL=C sort -u > "$W/declared"
objdump -T "$lib" | awk '$NF ~ /^vrampool_/ && ($(NF-1) == "VRAMPOOL_1" || $(NF-1) == "VRAMPOOL_1.1") { print $NF }' |
	LC_ALL=C sort -u > "$W/exported"
check "each of the $(wc -l < "$W/declared") functions of vrampool.h is exported at VRAMPOOL_1 or VRAMPOOL_1.1 (userspace/libvrampool.map), and no other" \
	diff -u "$W/declared" "$W/exported"
batch_at_1_1() {
	[ "$(objdump -T "$lib" | awk '$NF ~ /^vrampool_/ && $(NF-1) == "VRAMPOOL_1.1" { print $NF }' | LC_ALL=C sort | tr '\n' ' ')" = \
	  "vrampool_alloc_batch vrampool_free_batch " ]
}
check "the batch functions, and only they, are at VRAMPOOL_1.1" batch_at_1_1
uninstalled() {
	"${US[@]}" uninstall DESTDIR="$D" PREFIX=/usr || return 1
	files_in "$D"
	[ -z "$(files_in "$D")" ]
}
check "make uninstall removes every file" uninstalled

# A PREFIX install, used as a runtime author would: the installed headers,
# pkg-config, libdrm-dev's drm.h (no kernel tree, no repository folder).
P=$W/prefix
build_prefix() {
	"${US[@]}" install PREFIX="$P" || return 1
	flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs vrampool) || return 1
	echo "pkg-config: $flags"
	# shellcheck disable=SC2086 # a list of flags
	cc -Wall -Wextra -Werror -o "$W/runtime-prefix" "$W/runtime.c" $flags &&
		LD_LIBRARY_PATH=$P/lib run_example "$W/runtime-prefix"
}
check "make install PREFIX=...: the README's example builds with pkg-config and runs" build_prefix

# --- The packages --------------------------------------------------------------
DEB=$OUT/deb
check "dpkg-buildpackage builds the packages; lintian reports no error" \
	"$ROOT/tests/pkg/build-debs.sh" "$DEB"
if [ -f "$DEB/lintian.log" ]; then
	sed 's/^/# lintian: /' "$DEB/lintian.log"
fi
canary_lintian() {
	local c=$W/canary
	mkdir -p "$c/DEBIAN" "$c/usr/bin"
	printf 'Package: vrampool-canary\nVersion: 1\nArchitecture: all\nMaintainer: x <x@example.com>\nDescription: canary\n canary package\n' \
		> "$c/DEBIAN/control"
	printf '#!/bin/sh\n' > "$c/usr/bin/vrampool-canary"
	chmod 755 "$c/usr/bin/vrampool-canary"
	dpkg-deb -b "$c" "$W/canary.deb" >/dev/null || return 1
	lintian --allow-root "$W/canary.deb" > "$W/canary.lintian"	# exits 1: it found errors
	grep '^E: vrampool-canary: no-copyright-file' "$W/canary.lintian"
}
check "lintian finds the canary package's missing copyright file" canary_lintian

debs=()
for p in vrampool-dkms_"$VERSION"_all libvrampool1_"$VERSION"_amd64 \
	 libvrampool-dev_"$VERSION"_amd64 vrampool-tools_"$VERSION"_amd64; do
	debs+=("$DEB/$p.deb")
done

PKGS=(vrampool-tools libvrampool-dev libvrampool1 vrampool-dkms)
purge() { dpkg --purge "${PKGS[@]}" > "$W/purge.out" 2>&1; }
in_root() { "$IN_ROOT" "$NEW_ROOT" --bind "$DEB:/vrampool-debs" -- "$@"; }
purge_root() {
	[ -x "$NEW_ROOT/bin/sh" ] || return 0
	in_root dpkg --purge vrampool-dkms > "$W/purge-root.out" 2>&1
}

exec 9> "$LOCK"
if ! flock -w 900 9; then
	echo "# another package test held $LOCK for 15 minutes"
fi
trap 'purge; purge_root' EXIT

install_debs() {
	dpkg -i "${debs[@]}" && return 0
	DEBIAN_FRONTEND=noninteractive apt-get install -f -y -qq --no-install-recommends
}
check "dpkg -i installs the four packages" install_debs

check "pkg-config --modversion vrampool is $VERSION" \
	bash -c "test \"\$(pkg-config --modversion vrampool)\" = $VERSION"
installed_example() {
	flags=$(pkg-config --cflags --libs vrampool) || return 1
	echo "pkg-config: $flags"
	# shellcheck disable=SC2086 # a list of flags
	cc -Wall -Wextra -Werror -o "$W/runtime-deb" "$W/runtime.c" $flags || return 1
	# /lib is /usr/lib on a merged-/usr system: either path is the package's.
	ldd "$W/runtime-deb" | tee "$W/ldd.out"
	grep -Eq "libvrampool\.so\.1 => (/usr)?/lib/$MULTIARCH/libvrampool\.so\.1 " "$W/ldd.out" || return 1
	run_example "$W/runtime-deb"
}
check "the README's example builds against the installed packages with pkg-config, links libvrampool.so.1 and runs" \
	installed_example
# For the VM, which has no C library: -static takes libvrampool.a.
static_example() {
	# shellcheck disable=SC2046 # a list of flags
	cc -static -Wall -Wextra -Werror -o "$OUT/vrampool_runtime_example" "$W/runtime.c" \
		$(pkg-config --cflags --libs vrampool)
}
check "the README's example links statically against the installed libvrampool.a (for the VM)" \
	static_example

validate_installed() {
	/usr/bin/vrampoolctl validate --alignment 256 --max-page-size 128MiB sub-slices > "$W/validate.out" || return 1
	cat "$W/validate.out"
	head -n 1 "$W/validate.out" |
		grep -qx 'valid: preset sub-slices resolves to 4 pools (alignment 256, max page size 128MiB)'
}
check "the installed vrampoolctl validate resolves the sub-slices preset" validate_installed
check "man finds vrampoolctl(1), naming release $VERSION" \
	bash -c "zcat \"\$(man -w vrampoolctl)\" | grep -q '\"vrampool $VERSION\"'"

# DKMS: vrampool-dkms's source built and installed for the VM's kernel.
KO_DIR=/var/lib/dkms/vrampool/$VERSION/$KVER/$(uname -m)/module
dkms_module() {
	[ -n "$KVER" ] || { echo "no kernel version (build/kernel/VERSION)"; return 1; }
	if ! dkms status -m vrampool -v "$VERSION" -k "$KVER" | grep -q installed; then
		dkms install -m vrampool -v "$VERSION" -k "$KVER" || return 1
	fi
	dkms status -m vrampool -v "$VERSION" -k "$KVER"
	ls /lib/modules/"$KVER"/updates/dkms/vrampool.ko*
}
check "dkms builds and installs vrampool $VERSION for $KVER" dkms_module
take_module() {
	local kos ko
	kos=("$KO_DIR"/vrampool.ko*)
	ko=${kos[0]}
	[ -f "$ko" ] || { echo "nothing in $KO_DIR"; return 1; }
	case $ko in
	*.xz) xz -dc "$ko" > "$OUT/vrampool.ko" ;;
	*) cp "$ko" "$OUT/vrampool.ko" ;;
	esac
	modinfo -F vermagic "$OUT/vrampool.ko" | grep -q "^$KVER "
}
check "the DKMS-built module is for $KVER (kept in $OUT/vrampool.ko for the VM)" take_module

# dkms.conf: DKMS takes 6.12 and newer and skips older kernels (it matches
# BUILD_EXCLUSIVE_KERNEL with bash's =~, as here).
exclusive_kernel() {
	local BUILD_EXCLUSIVE_KERNEL v want got
	# dkms.conf is shell assignments; its MAKE lines name dkms's variables.
	# shellcheck disable=SC1091
	BUILD_EXCLUSIVE_KERNEL=$(set +u; . "$ROOT/dkms.conf" && echo "$BUILD_EXCLUSIVE_KERNEL")
	[ -n "$BUILD_EXCLUSIVE_KERNEL" ] || { echo "no BUILD_EXCLUSIVE_KERNEL"; return 1; }
	for v in 6.12.0 6.12.117+deb12-amd64 6.13.1 6.19.2 6.20.0 7.0.0 7.3.4+deb13-amd64 \
		 9.9.9 10.1.0 "$KVER" "$NEW_KVER" -- 6.1.0-31-amd64 6.11.11 6.2.0 5.15.0 4.19.0 3.12.0; do
		[ "$v" = -- ] && { want=no; continue; }
		[[ $v =~ $BUILD_EXCLUSIVE_KERNEL ]] && got=yes || got=no
		echo "$v: $got"
		[ "$got" = "${want:-yes}" ] || return 1
	done
}
check "dkms.conf builds for 6.12 and newer and skips older kernels" exclusive_kernel

# DKMS for the newest kernel, in its build root (its compiler and glibc):
# the same package, installed there with dpkg.
KO_DIR_NEW=/var/lib/dkms/vrampool/$VERSION/$NEW_KVER/$(uname -m)/module
dkms_newest() {
	[ -n "$NEW_KVER" ] && [ -x "$NEW_ROOT/bin/sh" ] ||
		{ echo "no newest-kernel build root (make setup-newest)"; return 1; }
	in_root dpkg -i /vrampool-debs/vrampool-dkms_"$VERSION"_all.deb || return 1
	if ! in_root dkms status -m vrampool -v "$VERSION" -k "$NEW_KVER" | grep -q installed; then
		in_root dkms install -m vrampool -v "$VERSION" -k "$NEW_KVER" || return 1
	fi
	in_root dkms status -m vrampool -v "$VERSION" -k "$NEW_KVER"
}
check "in the newest kernel's build root, dpkg -i vrampool-dkms and dkms build and install vrampool $VERSION for $NEW_KVER" \
	dkms_newest
take_module_newest() {
	local kos ko
	kos=("$NEW_ROOT$KO_DIR_NEW"/vrampool.ko*)
	ko=${kos[0]}
	[ -f "$ko" ] || { echo "nothing in $NEW_ROOT$KO_DIR_NEW"; return 1; }
	mkdir -p "$OUT/newest"
	case $ko in
	*.xz) xz -dc "$ko" > "$OUT/newest/vrampool.ko" ;;
	*) cp "$ko" "$OUT/newest/vrampool.ko" ;;
	esac
	modinfo -F vermagic "$OUT/newest/vrampool.ko"
	modinfo -F vermagic "$OUT/newest/vrampool.ko" | grep -q "^$NEW_KVER "
}
check "the DKMS-built module is for $NEW_KVER (kept in $OUT/newest/vrampool.ko for its VM)" \
	take_module_newest
removed_root() {
	purge_root || { cat "$W/purge-root.out"; return 1; }
	local left
	left=$(ls -d "$NEW_ROOT"/usr/src/vrampool-"$VERSION" "$NEW_ROOT"/var/lib/dkms/vrampool \
		"$NEW_ROOT"/lib/modules/"$NEW_KVER"/updates/dkms/vrampool.ko* 2>/dev/null)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
}
check "dpkg --purge in the build root removes the package and its module" removed_root

removed() {
	purge || { cat "$W/purge.out"; return 1; }
	local left
	left=$(ls /usr/include/vrampool.h /usr/include/drm/vrampool_accel.h /usr/bin/vrampoolctl \
		/usr/lib/"$MULTIARCH"/libvrampool* /usr/src/vrampool-"$VERSION" \
		/lib/modules/"$KVER"/updates/dkms/vrampool.ko* 2>/dev/null)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	! dkms status -m vrampool | grep -q .
}
check "dpkg --purge removes the packages, their files and the DKMS module" removed
check "pkg-config no longer finds vrampool" bash -c '! pkg-config --exists vrampool'
trap - EXIT
flock -u 9

echo "# $((n - failed)) passed, $failed failed"
[ "$n" -eq "$PLANNED" ] || echo "# planned $PLANNED, ran $n"
[ "$failed" -eq 0 ] && [ "$n" -eq "$PLANNED" ]

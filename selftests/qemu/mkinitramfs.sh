#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test VM's initramfs (an uncompressed cpio "newc" archive):
#   /init                     selftests/qemu/init
#   /run-tests.sh, /demo.sh   the in-VM test runner and demo
#   /bin/busybox + applets    from busybox-static
#   /lib/modules/*.ko         Debian modules our module needs (decompressed)
#   /lib/modules/load-order   file names in insmod order
#   /vrampool.ko              the module under test (optional)
#   /<name>.ko                extra modules (-e, repeatable; missing ones
#                             skipped): vrampool_kunit.ko, vrampool_canary.ko
#   /tests/*                  everything in the selftests output folder
#   /bin/<name>               extra static programs (-b, repeatable; a
#                             "-static" suffix is dropped; missing ones skipped)
#
# Usage: mkinitramfs.sh -k KVER -o OUT [-r ROOT] [-m MODULE.ko] [-t TESTS_DIR]
#                       [-b PROG]... [-e EXTRA.ko]...
# ROOT holds the kernel's modules in lib/modules/KVER, with a depmod index
# (default: build/kernel/KVER, Debian's kernel extracted by setup.sh; the
# debug kernel passes its modules_install root).
# Rebuilds only when an input changed (a manifest of input hashes is kept
# beside OUT).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}

# Modules always loaded before ours, whatever its "depends" says.
BASE_MODULES=(drm drm_kms_helper ttm drm_ttm_helper)

KVER="" OUT="" KO="" TESTS="" KTREE=""
PROGS=() EXTRAS=()
while getopts "k:o:r:m:t:b:e:" opt; do
	case $opt in
	k) KVER=$OPTARG ;;
	o) OUT=$OPTARG ;;
	r) KTREE=$OPTARG ;;
	m) KO=$OPTARG ;;
	t) TESTS=$OPTARG ;;
	b) [ -f "$OPTARG" ] && PROGS+=("$OPTARG") ;;
	e) [ -f "$OPTARG" ] && EXTRAS+=("$OPTARG") ;;
	*) echo "usage: $0 -k KVER -o OUT [-r ROOT] [-m MODULE.ko] [-t TESTS_DIR] [-b PROG]... [-e EXTRA.ko]..." >&2; exit 2 ;;
	esac
done
if [ -z "$KVER" ] || [ -z "$OUT" ]; then
	echo "$0: -k and -o are required" >&2
	exit 2
fi

KTREE=${KTREE:-$BUILD/kernel/$KVER}
MODDIR=$KTREE/lib/modules/$KVER
BUSYBOX=$(command -v busybox || true)
[ -x /bin/busybox ] && BUSYBOX=/bin/busybox
[ -n "$BUSYBOX" ] || { echo "$0: busybox not found (apt-get install busybox-static)" >&2; exit 1; }
[ -f "$MODDIR/modules.dep" ] || { echo "$0: $MODDIR not prepared (run make setup)" >&2; exit 1; }
if [ -n "$KO" ] && [ ! -f "$KO" ]; then
	echo "$0: $KO not found" >&2; exit 1
fi

# --- Which kernel modules, in which order ----------------------------------
wanted=("${BASE_MODULES[@]}")
if [ -n "$KO" ]; then
	IFS=, read -ra deps <<< "$(modinfo -F depends "$KO")"
	wanted+=("${deps[@]}")
fi
declare -A seen=()
LOAD=()
for mod in "${wanted[@]}"; do
	if ! plan=$(modprobe -d "$KTREE" -S "$KVER" --show-depends "$mod"); then
		echo "$0: module $mod not found for $KVER in $KTREE" >&2; exit 1
	fi
	while read -r verb path _; do
		[ "$verb" = insmod ] || continue	# "builtin NAME" needs nothing
		[ -z "${seen[$path]:-}" ] || continue
		seen[$path]=1
		LOAD+=("$path")
	done <<< "$plan"
done

# --- Is the archive up to date? ---------------------------------------
manifest() {
	echo "kver $KVER"
	echo "ktree $KTREE"
	for path in "${LOAD[@]}"; do echo "kmod $path $(sha256sum < "$path")"; done
	for e in "${EXTRAS[@]}"; do echo "extra $e $(sha256sum < "$e")"; done
	echo "busybox $(sha256sum < "$BUSYBOX")"
	(cd "$HERE" && sha256sum mkinitramfs.sh init run-tests.sh demo.sh)
	[ -n "$KO" ] && echo "module $(sha256sum < "$KO")"
	for p in "${PROGS[@]}"; do echo "prog $p $(sha256sum < "$p")"; done
	if [ -n "$TESTS" ] && [ -d "$TESTS" ]; then
		(cd "$TESTS" && find . -type f -print0 | sort -z | xargs -0r sha256sum)
		# Modes too: the runner only runs executable tests.
		(cd "$TESTS" && find . -type f -perm -u+x | LC_ALL=C sort | sed 's/^/exec /')
	fi
}
MANIFEST=$OUT.manifest
new_manifest=$(manifest)
if [ -f "$OUT" ] && [ -f "$MANIFEST" ] && [ "$new_manifest" = "$(cat "$MANIFEST")" ]; then
	exit 0
fi

# --- Stage the tree ----------------------------------------------------
STAGE=$OUT.d
rm -rf "$STAGE"
mkdir -p "$STAGE"/{bin,dev,proc,sys,tmp,run,mnt,root,etc,lib/modules,tests}
ln -s bin "$STAGE/sbin"
mkdir -p "$STAGE/usr"
ln -s ../bin "$STAGE/usr/bin"
ln -s ../bin "$STAGE/usr/sbin"

cp "$BUSYBOX" "$STAGE/bin/busybox"
for applet in $("$BUSYBOX" --list); do
	[ "$applet" = busybox ] || ln -sf busybox "$STAGE/bin/$applet"
done

install -m 0755 "$HERE/init" "$STAGE/init"
install -m 0755 "$HERE/run-tests.sh" "$STAGE/run-tests.sh"
install -m 0755 "$HERE/demo.sh" "$STAGE/demo.sh"

# Modules: the base list plus whatever our module depends on, each with its
# own dependencies (and softdeps), in the order modprobe would load them
# (LOAD holds their paths in that order; built-in ones need nothing).
: > "$STAGE/lib/modules/load-order"
for path in "${LOAD[@]}"; do
	name=$(basename "$path")
	name=${name%.xz}
	case $path in
	*.xz) xz -dc "$path" > "$STAGE/lib/modules/$name" ;;
	*) cp "$path" "$STAGE/lib/modules/$name" ;;
	esac
	echo "$name" >> "$STAGE/lib/modules/load-order"
done

[ -n "$KO" ] && cp "$KO" "$STAGE/vrampool.ko"
for e in "${EXTRAS[@]}"; do
	cp "$e" "$STAGE/$(basename "$e")"
done

for p in "${PROGS[@]}"; do
	name=$(basename "$p")
	install -m 0755 "$p" "$STAGE/bin/${name%-static}"
done

if [ -n "$TESTS" ] && [ -d "$TESTS" ]; then
	cp -a "$TESTS"/. "$STAGE/tests/"
fi

# --- Pack ------------------------------------------------------------------
(cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0) > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "$new_manifest" > "$MANIFEST"
rm -rf "$STAGE"

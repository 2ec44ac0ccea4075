#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel of "make check-debug" from the newest kernel's
# source, build/linux-source-NEWEST_SERIES (default 7.3; setup-newest.sh
# extracts Debian's linux-source package there), with the config fragment
# selftests/qemu/debug.config, out of tree, once per (fragment, source
# package version, compiler, recipe): the build lives in
#
#   build/debug-kernel/<key>/obj      the O= tree: bzImage, KDIR for modules
#   build/debug-kernel/<key>/root     modules_install + depmod (initramfs input)
#   build/debug-kernel/<key>/release  the kernel release (uname -r)
#   build/debug-kernel/<key>/build.log
#   build/debug-kernel/current ->     <key>, once the build succeeded
#
# With the key's build complete this does nothing but point "current" at it
# (instant). Builds of other keys are removed. An interrupted build resumes
# where it stopped. Every line of debug.config must survive olddefconfig,
# or the build stops and names the lines that did not.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
NEWEST_SERIES=${NEWEST_SERIES:-7.3}
KSRC=$BUILD/linux-source-$NEWEST_SERIES
FRAGMENT=$HERE/debug.config
DK=$BUILD/debug-kernel
RECIPE=1	# bump when the steps below change what gets built
JOBS=${JOBS:-$(nproc)}

log() { echo "debug-kernel: $*" >&2; }

# The kernel build is its own make world with its own -j, even when this
# runs under "make -jN" (whose jobserver it would not get anyway).
unset MAKEFLAGS MFLAGS MAKELEVEL

[ -f "$KSRC/Makefile" ] && [ -s "$KSRC/.vrampool-version" ] ||
	{ log "$KSRC missing (run make setup-newest)"; exit 1; }
SRCVER=$(cat "$KSRC/.vrampool-version")
CCVER=$(gcc --version | head -n 1)
KEY=$({ echo "recipe $RECIPE"; echo "linux-source-$NEWEST_SERIES $SRCVER"; echo "cc $CCVER";
	cat "$FRAGMENT"; } | sha256sum | cut -c 1-16)
DIR=$DK/$KEY
OBJ=$DIR/obj

if [ -f "$DIR/done" ]; then
	[ "$(readlink "$DK/current" 2>/dev/null)" = "$KEY" ] || ln -sfn "$KEY" "$DK/current"
	exit 0
fi

if [ -e "$KSRC/.config" ] || [ -d "$KSRC/arch/x86/include/generated" ]; then
	log "$KSRC holds in-tree build output; remove it and run make setup-newest"
	exit 1
fi

# One build at a time is kept: a KASAN kernel tree is large.
mkdir -p "$DK"
for d in "$DK"/*; do
	[ -e "$d" ] || continue
	case ${d##*/} in "$KEY" | current) ;; *) rm -rf "$d" ;; esac
done
rm -f "$DK/current"
mkdir -p "$OBJ"

start=$(date +%s)
log "building $SRCVER with $(basename "$FRAGMENT") in ${DIR#"$ROOT"/} (key $KEY)"
log "13 to 19 minutes on 2 cores; log: ${DIR#"$ROOT"/}/build.log"
{
	make -C "$KSRC" O="$OBJ" allnoconfig
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAGMENT"
	make -C "$KSRC" O="$OBJ" olddefconfig
} > "$DIR/build.log" 2>&1 || { tail -n 20 "$DIR/build.log" >&2; log "configuration failed"; exit 1; }

# Every line of the fragment must be in the final .config as written.
lost=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF -- "$line" "$OBJ/.config" || lost+=("$line")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		! grep -q "^$opt=" "$OBJ/.config" || lost+=("$line")
		;;
	esac
done < "$FRAGMENT"
if [ ${#lost[@]} -gt 0 ]; then
	log "these lines of $(basename "$FRAGMENT") do not survive olddefconfig (missing"
	log "dependency, or a symbol that does not exist in this kernel):"
	for l in "${lost[@]}"; do
		opt=${l#\# }
		opt=${opt%%[= ]*}
		now=$(grep -E "^(# )?${opt}[= ]" "$OBJ/.config" | head -n 1 || true)
		log "    $l    (now: ${now:-absent})"
	done
	exit 1
fi

if ! make -C "$KSRC" O="$OBJ" -j"$JOBS" bzImage modules >> "$DIR/build.log" 2>&1; then
	grep -E "error|Error" "$DIR/build.log" | tail -n 20 >&2 || tail -n 20 "$DIR/build.log" >&2
	log "build failed (log: $DIR/build.log)"
	exit 1
fi
rm -rf "$DIR/root"
make -C "$KSRC" O="$OBJ" INSTALL_MOD_PATH="$DIR/root" modules_install >> "$DIR/build.log" 2>&1 ||
	{ tail -n 20 "$DIR/build.log" >&2; log "modules_install failed"; exit 1; }
release=$(cat "$OBJ/include/config/kernel.release")
[ -f "$DIR/root/lib/modules/$release/modules.dep" ] || depmod -b "$DIR/root" "$release"
echo "$release" > "$DIR/release"
touch "$DIR/done"
ln -sfn "$KEY" "$DK/current"
log "built $release in $(( $(date +%s) - start )) s"

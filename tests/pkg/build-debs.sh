#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the Debian packages (vrampool-dkms, libvrampool1, libvrampool-dev,
# vrampool-tools) with dpkg-buildpackage from a clean copy of the tree, then
# run lintian on them.
#
# Usage: build-debs.sh OUTDIR
#   OUTDIR/src/      the copy the packages are built from (no build/, .git,
#                    kernel objects)
#   OUTDIR/*.deb     the packages, with the .changes and .buildinfo
#   OUTDIR/build.log dpkg-buildpackage's output
#   OUTDIR/lintian.log lintian's report (E: errors, W: warnings, ...)
# Exits non-zero when the build fails or lintian reports an error.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build-debs.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SRC=$OUT/src

rm -rf "$SRC" "$OUT"/*.deb "$OUT"/*.changes "$OUT"/*.buildinfo
mkdir -p "$SRC"
rsync -a --exclude=/build/ --exclude=/.git --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' --exclude='.*.d' \
	--exclude='*.a' --exclude='.tmp_*' --exclude=Module.symvers \
	--exclude=modules.order "$ROOT"/ "$SRC/vrampool/"

# dpkg-buildpackage writes the packages into the parent of the tree.
if ! (cd "$SRC/vrampool" && dpkg-buildpackage -b -us -uc) > "$OUT/build.log" 2>&1; then
	tail -n 40 "$OUT/build.log" >&2
	echo "build-debs: dpkg-buildpackage failed (log: $OUT/build.log)" >&2
	exit 1
fi
mv "$SRC"/*.deb "$SRC"/*.changes "$SRC"/*.buildinfo "$OUT/"

lintian --allow-root --tag-display-limit 0 --display-info "$OUT"/vrampool_*.changes > "$OUT/lintian.log" 2>&1 || true
if grep -q '^E: ' "$OUT/lintian.log"; then
	grep '^E: ' "$OUT/lintian.log" >&2
	echo "build-debs: lintian reports errors (log: $OUT/lintian.log)" >&2
	exit 1
fi
echo "build-debs: $(cd "$OUT" && printf '%s ' ./*.deb)"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the insn_count QEMU plugin: OUTDIR/libinsn_count.so.
#
# Usage: build.sh OUTDIR
#
# Debian ships no qemu-plugin.h in a binary package: it comes from the
# source package of the installed qemu-system-x86 (apt-get source, with a
# deb-src list of our own under OUTDIR/apt: the system's apt sources are
# not touched), and only that header is kept, in OUTDIR/include. A plugin
# must be built against the header of the QEMU that loads it.
# QEMU_PLUGIN_H=FILE uses that header instead (no download).
#
# glib: QEMU 7.2's header needs none; later ones include <glib.h>. Its
# flags are given when pkg-config knows glib-2.0, and it is required when
# the header includes it (apt-get install libglib2.0-dev).
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: build.sh OUTDIR" >&2; exit 2; }
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
HDR=$OUT/include/qemu-plugin.h

fetch_header() {
	local ver mirror apt=$OUT/apt src=$OUT/apt/src opts orig debian

	ver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
		{ echo "build.sh: qemu-system-x86 is not installed" >&2; return 1; }
	# The mirror of the system's sources, as deb-src lines of our own.
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -E '^(deb |URIs:)' | grep -oE 'https?://[^ ]+/debian/?( |$)' |
		head -n 1 | tr -d ' ') || true
	mirror=${mirror:-http://deb.debian.org/debian}
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$src"
	printf 'deb-src %s bookworm main\ndeb-src %s bookworm-updates main\n' \
		"${mirror%/}" "${mirror%/}" > "$apt/sources.list"
	printf 'deb-src %s-security bookworm-security main\n' "${mirror%/}" \
		>> "$apt/sources.list"
	opts=(-o "Dir::Etc::sourcelist=$apt/sources.list"
	      -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$apt/lists"
	      -o "Dir::Cache=$apt/cache")
	apt-get "${opts[@]}" -q update >&2
	(cd "$src" && apt-get "${opts[@]}" -q source --download-only "qemu=$ver") >&2
	orig=("$src"/qemu_*.orig.tar.*)
	debian=("$src"/qemu_*.debian.tar.*)
	mkdir -p "$OUT/include"
	# Only the header, from the upstream tarball (Debian's patches leave
	# it alone: build.sh fails below if one day they do not).
	if tar -xOf "${debian[0]}" --wildcards \
		'debian/patches/*' 2>/dev/null | grep -q 'qemu-plugin\.h'; then
		echo "build.sh: Debian's patches change qemu-plugin.h: extract with dpkg-source -x" >&2
		return 1
	fi
	tar -xOf "${orig[0]}" --wildcards '*/include/qemu/qemu-plugin.h' > "$HDR.tmp"
	mv "$HDR.tmp" "$HDR"
	echo "$ver" > "$OUT/include/VERSION"
	rm -rf "$src"
}

if [ -n "${QEMU_PLUGIN_H:-}" ]; then
	mkdir -p "$OUT/include"
	cp "$QEMU_PLUGIN_H" "$HDR"
elif [ ! -f "$HDR" ] || [ "$(cat "$OUT/include/VERSION" 2>/dev/null)" != \
	"$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null)" ]; then
	fetch_header
fi

GLIB=""
if pkg-config --exists glib-2.0 2>/dev/null; then
	GLIB=$(pkg-config --cflags glib-2.0)
elif grep -q '#include <glib.h>' "$HDR"; then
	echo "build.sh: the header needs glib: apt-get install libglib2.0-dev" >&2
	exit 1
fi

# shellcheck disable=SC2086 # GLIB is a list of flags
${CC:-cc} -O2 -Wall -Wextra -Wno-unused-parameter -shared -fPIC $GLIB \
	-I"$OUT/include" -o "$OUT/libinsn_count.so" "$HERE/insn_count.c"
echo "$OUT/libinsn_count.so"

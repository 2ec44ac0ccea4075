#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Find a clang that links a libFuzzer target with ASan and UBSan, installing
# one with apt-get when there is none, and write its name to FILE (only when
# it changed, so that a warm build stays warm).
#
# Debian bookworm packages: clang-14 (the compiler) and libclang-rt-14-dev
# (libclang_rt.fuzzer-x86_64.a and the sanitizer runtimes). The latter is only
# Recommended by clang-14's dependencies, so --no-install-recommends (as
# selftests/qemu/setup.sh installs) leaves it out: both are named here.
#
# Usage: deps.sh FILE
set -eu

out=${1:?usage: deps.sh FILE}
pkgs="clang-14 libclang-rt-14-dev"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

log() { echo "tests/fuzz: $*" >&2; }

can_link() {	# can_link CC: a libFuzzer + ASan + UBSan target links
	command -v "$1" >/dev/null 2>&1 || return 1
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ return d && n ? 0 : 0; }\n' \
		> "$tmp/t.c"
	"$1" -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1
}

found() {
	if [ "$(cat "$out" 2>/dev/null)" != "$1" ]; then
		echo "$1" > "$out"
	fi
	exit 0
}

for cc in ${CLANG:-} clang clang-14; do
	can_link "$cc" && found "$cc"
done

sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { log "need root (or sudo) to install $pkgs"; exit 1; }
	sudo=sudo
fi
log "no clang that links a libFuzzer target: apt-get install $pkgs"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is wanted
if ! $sudo apt-get install -y -qq --no-install-recommends $pkgs >/dev/null; then
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
fi
can_link clang-14 && found clang-14
log "clang-14 still cannot link a libFuzzer target"
exit 1

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the insn_count plugin in a real VM: boot KERNEL with a one-file
# initramfs (insn_demo.c as /init) under TCG, BOOTS times with the plugin
# and, with --bare, as many times without it, and print each boot's counts
# and wall time.
#
# Usage: try.sh OUTDIR [KERNEL] [BOOTS] [--bare] [-- PLUGIN_OPTS]
#   OUTDIR   build.sh's output folder; the demo's files go to OUTDIR/demo
#   KERNEL   default: the host's newest /boot/vmlinuz-*
#   PLUGIN_OPTS  extra plugin options, e.g. vcpus=all or priv=user
# INSN_DEMO_APPEND adds kernel parameters (INSN_DEMO_CPU=1 pins the demo).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: try.sh OUTDIR [KERNEL] [BOOTS] [--bare] [-- PLUGIN_OPTS]}
shift
BARE="" POPTS="" POS=()
while [ $# -gt 0 ]; do
	case $1 in
	--bare) BARE=1 ;;
	--) shift; POPTS=${*:+,$(IFS=,; echo "$*")}; break ;;
	*) POS+=("$1") ;;
	esac
	shift
done
KERNEL=${POS[0]:-$(printf '%s\n' /boot/vmlinuz-* | sort -V | tail -n 1)}
BOOTS=${POS[1]:-2}
[ -f "$KERNEL" ] || { echo "try.sh: no kernel $KERNEL" >&2; exit 1; }
DEMO=$OUT/demo
mkdir -p "$DEMO/root"

"$HERE/build.sh" "$OUT" > /dev/null
cc -O2 -static -Wall -I"$HERE" -o "$DEMO/root/init" "$HERE/insn_demo.c"
(cd "$DEMO/root" && echo init | cpio -o -H newc --quiet) > "$DEMO/initramfs.cpio"

boot() {	# boot NAME [QEMU OPTIONS...]: prints its wall and CPU time
	local name=$1 TIMEFORMAT
	shift
	TIMEFORMAT="$name: %R s wall, %U s user + %S s sys CPU"
	time timeout 600 qemu-system-x86_64 -accel tcg -nographic -no-reboot \
		-m 512 -smp 2 -kernel "$KERNEL" -initrd "$DEMO/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 ${INSN_DEMO_APPEND:-}" "$@" \
		< /dev/null > "$DEMO/$name.console.log" 2>&1 || true
	grep -q 'insn_demo: done' "$DEMO/$name.console.log" ||
		{ echo "$name: the demo did not finish: $DEMO/$name.console.log" >&2; return 1; }
}

for i in $(seq 1 "$BOOTS"); do
	boot "plugin$i" -plugin "$OUT/libinsn_count.so,out=$DEMO/plugin$i.txt$POPTS"
	grep -h 'insn_demo:' "$DEMO/plugin$i.console.log" | tr -d '\r'
	cat "$DEMO/plugin$i.txt"
	[ -n "$BARE" ] && boot "bare$i"
done
exit 0

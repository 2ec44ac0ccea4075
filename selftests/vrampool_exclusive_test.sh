#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Exclusive-memory-only devices: reload vrampool.ko (at /vrampool.ko in the
# test VM) with exclusive_memory_only=1 and the other parameters it has now,
# bind the PCI devices again, run vrampool_exclusive_mode (a kselftest
# program beside this script), then restore the original parameters and
# bindings, so later tests see the devices they saw before.
#
# The output is one TAP stream: this script's own steps and the program's
# results, numbered in order, the program's plan replaced by this script's
# plan at the end.

KO=${VRAMPOOL_KO:-/vrampool.ko}
PARAMS=/sys/module/vrampool/parameters
MAIN=${VRAMPOOL_IVSHMEM_MAIN:-}
PROG=$(dirname "$0")/vrampool_exclusive_mode
TMP=${TMPDIR:-/tmp}/vrampool_exclusive_test.$$

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { # NAME COMMAND...: ok if COMMAND succeeds
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

echo "TAP version 13"
if [ ! -f "$KO" ] || [ ! -d "$PARAMS" ]; then
	echo "1..0 # SKIP needs the VM: vrampool.ko at $KO, loaded"
	exit 4
fi

BASE="emulated_devices=$(cat $PARAMS/emulated_devices) vram_size=$(cat $PARAMS/vram_size)"
BASE="$BASE alignment=$(cat $PARAMS/alignment) max_page_size=$(cat $PARAMS/max_page_size)"
ORIG_EXCL=$(cat $PARAMS/exclusive_memory_only)
ORIG="$BASE exclusive_memory_only=$ORIG_EXCL"
EXCL="$BASE exclusive_memory_only=1"

# Emulated vrampool devices that have an accel node.
emulated_nodes() {
	count=0
	for d in /sys/class/accel/accel*; do
		[ -e "$d/device/driver" ] || continue
		[ "$(basename "$(readlink "$d/device/driver")")" = vrampool ] || continue
		[ "$(basename "$(readlink "$d/device/subsystem")")" = platform ] || continue
		count=$((count + 1))
	done
	echo $count
}

bound() { # BDF: the PCI device is bound to vrampool
	[ "$(basename "$(readlink "/sys/bus/pci/devices/$1/driver")")" = vrampool ]
}

# bind BDF: bind a PCI device to vrampool (loading the module binds devices
# whose driver_override names it already).
bind() {
	bound "$1" && return 0
	echo vrampool > "/sys/bus/pci/devices/$1/driver_override" &&
		echo "$1" > /sys/bus/pci/drivers/vrampool/bind 2>/dev/null && bound "$1"
}

bind_all() {
	for bdf in $MAIN; do
		bind "$bdf" || return 1
	done
	return 0
}

# reload PARAMS...: the module comes back with PARAMS, its devices with it.
reload() {
	rmmod vrampool || return 1
	# shellcheck disable=SC2086 # a list of module parameters
	insmod "$KO" "$@" || return 1
	[ "$(emulated_nodes)" -eq "$(cat $PARAMS/emulated_devices)" ] && bind_all
}

# run_program: the program's TAP, renumbered after this script's results.
run_program() {
	if [ ! -x "$PROG" ]; then
		not_ok "vrampool_exclusive_mode: $PROG not found"
		return
	fi
	{ "$PROG" < /dev/null 2>&1; echo $? > "$TMP.rc"; } | awk -v base="$n" -v out="$TMP.count" '
		/^TAP version/ { next }
		/^1\.\.0 *# *SKIP/ { skip = $0; sub(/^1\.\.0 *# *SKIP */, "", skip); next }
		/^1\.\.[0-9]+/ { next }
		/^ok [0-9]+/ { count++; sub(/^ok [0-9]+/, "ok " (base + count)); print; next }
		/^not ok [0-9]+/ {
			count++; fails++; sub(/^not ok [0-9]+/, "not ok " (base + count)); print; next
		}
		{ print }
		END {
			if (!count && skip != "") {
				count++
				print "ok " (base + count) " vrampool_exclusive_mode # SKIP " skip
			}
			print count + 0, fails + 0 > out
		}'
	rc=$(cat "$TMP.rc" 2>/dev/null || echo 255)
	read -r count fails < "$TMP.count" || { count=0; fails=0; }
	rm -f "$TMP.rc" "$TMP.count"
	n=$((n + count))
	failed=$((failed + fails))
	if [ "$count" -eq 0 ]; then
		not_ok "vrampool_exclusive_mode: no results (exit code $rc)"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && { [ "$rc" -ne 1 ] || [ "$fails" -eq 0 ]; }; then
		not_ok "vrampool_exclusive_mode: exit code $rc"
	fi
}

# shellcheck disable=SC2086 # a list of module parameters
if reload $EXCL; then
	ok "reload with exclusive_memory_only=1"
	run_program
else
	not_ok "reload with exclusive_memory_only=1 ($EXCL)"
fi

# shellcheck disable=SC2086 # a list of module parameters
check "reload with the original parameters" reload $ORIG
check "exclusive_memory_only back to $ORIG_EXCL" \
	[ "$(cat $PARAMS/exclusive_memory_only 2>/dev/null)" = "$ORIG_EXCL" ]
check "PCI devices bound again" bind_all

echo "1..$n"
echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
[ $failed -eq 0 ]

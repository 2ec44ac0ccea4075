#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Alignment padding on a device with alignment 64: reload vrampool.ko (at
# /vrampool.ko in the test VM) with alignment=64 and every other parameter
# as it is now, bind the PCI devices again, run vrampool_alloc_align (a
# kselftest program beside this script, not a *_test, so the runner never
# runs it on its own), then reload with the original parameters and bind
# the PCI devices again, so later tests see what they saw before.
#
# The output is one TAP stream: the program's results, then this script's
# own steps, numbered in order, with one plan at the end.

KO=${VRAMPOOL_KO:-/vrampool.ko}
PARAMS=/sys/module/vrampool/parameters
PCI_DEVS=${VRAMPOOL_IVSHMEM_MAIN:-}
PROG=$(dirname "$0")/vrampool_alloc_align
WORK=${TMPDIR:-/tmp}/vrampool_alloc_align_test.$$

n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }

echo "TAP version 13"
if [ ! -f "$KO" ] || [ ! -d "$PARAMS" ]; then
	echo "1..0 # SKIP needs the VM: vrampool.ko at $KO, loaded"
	exit 4
fi

param() { cat "$PARAMS/$1"; }
KEEP="emulated_devices=$(param emulated_devices) vram_size=$(param vram_size)"
KEEP="$KEEP max_page_size=$(param max_page_size)"
KEEP="$KEEP exclusive_memory_only=$(param exclusive_memory_only)"
ALIGNMENT=$(param alignment)

# Every PCI device the init bound must be bound to vrampool again.
pci_bound() { # BDF
	[ "$(basename "$(readlink "/sys/bus/pci/devices/$1/driver")")" = vrampool ]
}
bind_pci() {
	for bdf in $PCI_DEVS; do
		pci_bound "$bdf" && continue
		echo vrampool > "/sys/bus/pci/devices/$bdf/driver_override" || return 1
		echo "$bdf" > /sys/bus/pci/drivers/vrampool/bind 2>/dev/null
		pci_bound "$bdf" || return 1
	done
}

# load ALIGNMENT: the module with that alignment and the kept parameters.
load() {
	rmmod vrampool || return 1
	# shellcheck disable=SC2086 # a list of module parameters
	insmod "$KO" $KEEP alignment="$1" || return 1
	[ "$(param alignment)" = "$1" ] && bind_pci
}

# The program's TAP, renumbered from 1 (it runs first) into this stream;
# its "1..N" plan and totals are dropped: this script prints its own.
run_program() {
	if [ ! -x "$PROG" ]; then
		fail "vrampool_alloc_align: $PROG is missing"
		return
	fi
	"$PROG" < /dev/null > "$WORK.out" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"TAP version"*|1..*|"# Totals:"*) ;;
		"ok "*) n=$((n + 1)); echo "ok $n ${line#ok [0-9]* }" ;;
		"not ok "*)
			n=$((n + 1)); failed=$((failed + 1))
			echo "not ok $n ${line#not ok [0-9]* }" ;;
		*) echo "$line" ;;
		esac
	done < "$WORK.out"
	rm -f "$WORK.out"
	[ "$rc" -eq 0 ] || [ "$failed" -gt 0 ] || fail "vrampool_alloc_align: exit code $rc"
}

if load 64; then
	run_program
	pass "reload with alignment=64"
else
	fail "reload with alignment=64 ($KEEP)"
fi

if load "$ALIGNMENT"; then
	pass "reload with alignment=$ALIGNMENT and the PCI devices bound again"
else
	fail "reload with alignment=$ALIGNMENT ($KEEP)"
fi

echo "1..$n"
echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
[ "$failed" -eq 0 ]

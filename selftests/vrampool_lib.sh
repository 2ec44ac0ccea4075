# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Shell helpers shared by the vrampool *_test.sh scripts, which source it
# from beside themselves:
#
#	. "$(dirname "$0")/vrampool_lib.sh"
#
# It is not a *_test.sh, so the runner never runs it on its own.
#
#  - TAP results: ok, not_ok, check, and the totals at the end;
#  - the test VM's module: vrampool.ko (at /vrampool.ko) reloaded with other
#    parameters, its PCI devices (VRAMPOOL_IVSHMEM_MAIN) bound again;
#  - a kselftest program's TAP merged into the script's.
#
# Copyright (C) 2026 The vrampool authors

KO=${VRAMPOOL_KO:-/vrampool.ko}
PARAMS=/sys/module/vrampool/parameters
MAIN=${VRAMPOOL_IVSHMEM_MAIN:-}

# ---- TAP ----------------------------------------------------------------------

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { # NAME COMMAND...: ok if COMMAND succeeds
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# A test of several checks: t NAME starts it, each fail WHY adds a reason,
# end [FILE...] reports it: ok, or not ok with the reasons and the start of
# each FILE (a command's output).
name="" why=""
t() { name=$1; why=""; }
fail() { why="${why:+$why; }$*"; }
end() {
	if [ -z "$why" ]; then
		ok "$name"
		return 0
	fi
	not_ok "$name"
	echo "# $why"
	for f in "$@"; do
		sed "s|^|# $(basename "$f"): |" "$f" 2> /dev/null | head -n 30
	done
}

# totals: the closing "# Totals:" line; fails when a result did.
totals() {
	echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
	[ $failed -eq 0 ]
}

# require_module: start the TAP stream; outside the test VM (no vrampool.ko
# at $KO, or not loaded), skip the whole script.
require_module() {
	echo "TAP version 13"
	if [ ! -f "$KO" ] || [ ! -d "$PARAMS" ]; then
		echo "1..0 # SKIP needs the VM: vrampool.ko at $KO, loaded"
		exit 4
	fi
}

# ---- The module and its devices -------------------------------------------------

param() { cat "$PARAMS/$1"; }

# module_params [NAME]: the module parameters it has now, as insmod
# arguments, NAME left out.
module_params() {
	args=""
	for p in emulated_devices vram_size alignment max_page_size exclusive_memory_only \
		 max_allocations max_pages vram_quota; do
		[ "$p" = "$1" ] || args="${args:+$args }$p=$(param "$p")"
	done
	echo "$args"
}

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

# bind BDF: bind a PCI device to vrampool; fails if the probe refuses it.
# Loading the module binds devices whose driver_override names it already.
bind() {
	bound "$1" && return 0
	echo vrampool > "/sys/bus/pci/devices/$1/driver_override" &&
		echo "$1" > /sys/bus/pci/drivers/vrampool/bind 2>/dev/null && bound "$1"
}

# bind_all: bind every PCI device of $MAIN (all are tried); fails if one fails.
bind_all() {
	all_bound=0
	for bdf in $MAIN; do
		bind "$bdf" || all_bound=1
	done
	return $all_bound
}

# reload PARAMS...: the module comes back with PARAMS, every emulated device
# with an accel node, every PCI device bound again.
reload() {
	rmmod vrampool || return 1
	insmod "$KO" "$@" || return 1
	[ "$(emulated_nodes)" -eq "$(param emulated_devices)" ] && bind_all
}

# largest_device VRAMPOOLCTL: sets DEV and VRAM to the accel node with the
# most VRAM and its size (DEV empty when there is none). The device order is
# not fixed (the emulated and the PCI backend probe in either order).
largest_device() {
	DEV="" VRAM=0
	for d in $("$1" info --json 2> /dev/null | grep -o '"path":"[^"]*"' | cut -d'"' -f4); do
		v=$("$1" info --json --device "$d" | grep -o '"vram_size":[0-9]*' | head -n 1 | cut -d: -f2)
		if [ "${v:-0}" -gt "$VRAM" ]; then
			DEV=$d VRAM=$v
		fi
	done
}

# ---- A kselftest program inside the script's TAP ------------------------------

# run_program PROG: run PROG (a kselftest program) and print its results
# numbered on after this script's, as this script's; its plan and totals
# are dropped (the script prints its own), a skip of the whole program
# becomes one skipped result. No results, or a failing exit code with no
# failed result to show for it, is one failure more.
run_program() {
	prog=$1
	tmp=${TMPDIR:-/tmp}/$(basename "$0").$$
	if [ ! -x "$prog" ]; then
		not_ok "$(basename "$prog"): $prog not found"
		return
	fi
	{ "$prog" < /dev/null 2>&1; echo $? > "$tmp.rc"; } |
	awk -v base="$n" -v out="$tmp.count" -v name="$(basename "$prog")" '
		/^TAP version/ || /^# Totals:/ { next }
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
				print "ok " (base + count) " " name " # SKIP " skip
			}
			print count + 0, fails + 0 > out
		}'
	rc=$(cat "$tmp.rc" 2>/dev/null || echo 255)
	read -r count fails < "$tmp.count" || { count=0; fails=0; }
	rm -f "$tmp.rc" "$tmp.count"
	n=$((n + count))
	failed=$((failed + fails))
	if [ "$count" -eq 0 ]; then
		not_ok "$(basename "$prog"): no results (exit code $rc)"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && { [ "$rc" -ne 1 ] || [ "$fails" -eq 0 ]; }; then
		not_ok "$(basename "$prog"): exit code $rc"
	fi
}

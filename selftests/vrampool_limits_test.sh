#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The per-client limits (module parameters max_allocations and max_pages):
# their defaults, read-only in /sys/module/vrampool/parameters; values that
# make no sense refuse the module load with the kernel's log line; then,
# with the module reloaded with small limits, vrampool_limits_test_helper
# (a kselftest program beside this script) checks the exact counts where
# ALLOC fails, the error's payload, and that a client keeps working after
# freeing. The original parameters and PCI bindings are restored at the
# end, so later tests see the devices they saw before.
#
# The output is one TAP stream, the program's results numbered on after
# this script's, the plan at the end.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"
PROG=$(dirname "$0")/vrampool_limits_test_helper
SMALL_ALLOCATIONS=64
SMALL_PAGES=32

require_module

BASE=$(module_params max_allocations | sed 's/ max_pages=[0-9]*//')
ORIG=$(module_params)
ORIG_ALLOCATIONS=$(param max_allocations)
ORIG_PAGES=$(param max_pages)

# mode NAME: the parameter file's permissions, as ls shows them.
mode() { stat -c %A "$PARAMS/$1"; }
# limits_are ALLOCATIONS PAGES: the module has these limits now.
limits_are() { [ "$(param max_allocations)" = "$1" ] && [ "$(param max_pages)" = "$2" ]; }

check "max_allocations defaults to 1048576" [ "$(param max_allocations)" = 1048576 ]
check "max_pages defaults to 65536" [ "$(param max_pages)" = 65536 ]
check "max_allocations is read-only" [ "$(mode max_allocations)" = "-r--r--r--" ]
check "max_pages is read-only" [ "$(mode max_pages)" = "-r--r--r--" ]

# refused PARAM=VALUE: insmod fails, and the kernel names the parameter.
refused() {
	mark="vrampool-limits-test: mark $n"
	echo "$mark" > /dev/kmsg
	# shellcheck disable=SC2086 # a list of module parameters
	if insmod "$KO" $BASE "$1" 2>/dev/null; then
		not_ok "$1 refused (the module loaded)"
		rmmod vrampool
		return
	fi
	if dmesg | sed -n "/$mark/,\$p" | grep -qF "invalid for parameter \`${1%%=*}'"; then
		ok "$1 refused"
	else
		dmesg | sed -n "/$mark/,\$p" | sed 's/^/# /'
		not_ok "$1 refused (no log line naming the parameter)"
	fi
}

if rmmod vrampool; then
	refused max_allocations=0
	refused max_pages=0
	refused max_pages=-1
	refused max_allocations=4294967296
	refused max_pages=lots
else
	not_ok "rmmod vrampool"
fi

# shellcheck disable=SC2086 # a list of module parameters
if insmod "$KO" $BASE max_allocations=$SMALL_ALLOCATIONS max_pages=$SMALL_PAGES &&
   [ "$(emulated_nodes)" -eq "$(param emulated_devices)" ] && bind_all; then
	ok "reload with max_allocations=$SMALL_ALLOCATIONS max_pages=$SMALL_PAGES"
	check "the limits read $SMALL_ALLOCATIONS, $SMALL_PAGES" \
		limits_are $SMALL_ALLOCATIONS $SMALL_PAGES
	run_program "$PROG"
else
	not_ok "reload with max_allocations=$SMALL_ALLOCATIONS max_pages=$SMALL_PAGES"
fi

# The largest values load (every u32 is a limit).
# shellcheck disable=SC2086 # a list of module parameters
check "max_allocations=4294967295 max_pages=4294967295 load" \
	reload $BASE max_allocations=4294967295 max_pages=4294967295
check "and read back" limits_are 4294967295 4294967295

# shellcheck disable=SC2086 # a list of module parameters
check "reload with the original parameters" reload $ORIG
check "the limits back to $ORIG_ALLOCATIONS, $ORIG_PAGES" \
	limits_are "$ORIG_ALLOCATIONS" "$ORIG_PAGES"
check "PCI devices bound again" bind_all

echo "1..$n"
totals

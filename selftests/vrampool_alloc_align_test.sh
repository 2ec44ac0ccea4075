#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Alignment padding on a device with alignment 64: reload vrampool.ko (at
# /vrampool.ko in the test VM) with alignment=64 and every other parameter
# as it is now, bind the PCI devices again, run
# vrampool_alloc_align_test_helper (a kselftest program beside this script,
# not a *_test, so the runner never runs it on its own), then reload with
# the original parameters and bind the PCI devices again, so later tests
# see what they saw before.
#
# The output is one TAP stream: the program's results, then this script's
# own steps, numbered in order, with one plan at the end.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"
PROG=$(dirname "$0")/vrampool_alloc_align_test_helper

require_module

KEEP=$(module_params alignment)
ALIGNMENT=$(param alignment)

# load ALIGNMENT: the module with that alignment and the kept parameters.
load() {
	# shellcheck disable=SC2086 # a list of module parameters
	reload $KEEP alignment="$1" && [ "$(param alignment)" = "$1" ]
}

if load 64; then
	run_program "$PROG"
	ok "reload with alignment=64"
else
	not_ok "reload with alignment=64 ($KEEP)"
fi

if load "$ALIGNMENT"; then
	ok "reload with alignment=$ALIGNMENT and the PCI devices bound again"
else
	not_ok "reload with alignment=$ALIGNMENT ($KEEP)"
fi

echo "1..$n"
totals

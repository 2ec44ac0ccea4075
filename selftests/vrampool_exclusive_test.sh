#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Exclusive-memory-only devices: reload vrampool.ko (at /vrampool.ko in the
# test VM) with exclusive_memory_only=1 and the other parameters it has now,
# bind the PCI devices again, run vrampool_exclusive_test_helper (a kselftest
# program beside this script), then restore the original parameters and
# bindings, so later tests see the devices they saw before.
#
# The output is one TAP stream: this script's own steps and the program's
# results, numbered in order, the program's plan replaced by this script's
# plan at the end.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"
PROG=$(dirname "$0")/vrampool_exclusive_test_helper

require_module

BASE=$(module_params exclusive_memory_only)
ORIG_EXCL=$(param exclusive_memory_only)
ORIG="$BASE exclusive_memory_only=$ORIG_EXCL"
EXCL="$BASE exclusive_memory_only=1"

# shellcheck disable=SC2086 # a list of module parameters
if reload $EXCL; then
	ok "reload with exclusive_memory_only=1"
	run_program "$PROG"
else
	not_ok "reload with exclusive_memory_only=1 ($EXCL)"
fi

# shellcheck disable=SC2086 # a list of module parameters
check "reload with the original parameters" reload $ORIG
check "exclusive_memory_only back to $ORIG_EXCL" \
	[ "$(cat $PARAMS/exclusive_memory_only 2>/dev/null)" = "$ORIG_EXCL" ]
check "PCI devices bound again" bind_all

echo "1..$n"
totals

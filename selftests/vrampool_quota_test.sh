#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The VRAM quota: the module parameter vram_quota (default 0, read-only),
# then, with the module reloaded with vram_quota=32 MiB,
# vrampool_quota_test_helper (a kselftest program beside this script)
# checks that every device's sysfs vram_quota starts there and what ALLOC
# does under it. The original parameters and PCI bindings are restored at
# the end.
#
# The output is one TAP stream, the program's results numbered on after
# this script's, the plan at the end.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"
PROG=$(dirname "$0")/vrampool_quota_test_helper
QUOTA=33554432

require_module

ORIG=$(module_params)
BASE=$(module_params vram_quota)

check "vram_quota defaults to 0" [ "$(param vram_quota)" = 0 ]
check "vram_quota is read-only" [ "$(stat -c %A "$PARAMS/vram_quota")" = "-r--r--r--" ]

# shellcheck disable=SC2086 # a list of module parameters
if reload $BASE vram_quota=$QUOTA; then
	ok "reload with vram_quota=$QUOTA"
	check "the parameter reads $QUOTA" [ "$(param vram_quota)" = $QUOTA ]
	run_program "$PROG"
else
	not_ok "reload with vram_quota=$QUOTA"
fi

# shellcheck disable=SC2086 # a list of module parameters
check "reload with the original parameters" reload $ORIG
check "vram_quota back to 0" [ "$(param vram_quota)" = 0 ]

echo "1..$n"
totals

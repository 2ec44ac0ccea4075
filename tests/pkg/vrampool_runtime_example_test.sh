#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# In the package tier's VM (the DKMS-built module loaded): the README's
# "Use it from your runtime" example, as tests/pkg/pkg_test.sh built it
# against the installed libvrampool-dev (statically: the VM has no C
# library), finds a device, installs the sub-slices preset, allocates,
# maps and writes 1 MiB, and frees it. TAP, one case.
echo "TAP version 13"
echo "1..1"
rc=0
out=$(./vrampool_runtime_example 2>&1) || rc=$?
echo "$out" | sed 's/^/# /'
if [ "$rc" -eq 0 ] && echo "$out" | grep -q ': 1048576 bytes in pool [0-9]*, page [0-9]*$'; then
	echo "ok 1 the README's example allocates, maps and frees 1 MiB of VRAM"
else
	echo "not ok 1 the README's example allocates, maps and frees 1 MiB of VRAM (exit $rc)"
fi

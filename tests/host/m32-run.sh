#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run one i386 host test program (a static -m32 build) whichever way this
# host allows:
#
#   1. natively, when the kernel executes i386 programs (CONFIG_IA32_EMULATION
#      on and not disabled with ia32_emulation=false);
#   2. else under qemu-i386 (Debian's qemu-user, which setup.sh installs),
#      when the kernel answers the probe with anything else (typically
#      "Exec format error", exit 126);
#   3. else, with no emulator installed at all, the whole program skips with
#      the reason (kselftest "1..0 # SKIP", exit 4), which
#      selftests/expected-skips.host accepts.
#
# The way is chosen by running PROBE (a static i386 program printing
# "vrampool-m32-probe"), never by the test's own exit code: a test that
# fails under either way fails, and an installed emulator that cannot run
# the probe is a failure too, not a skip.
#
# Usage: m32-run.sh PROBE PROGRAM [ARG...]
#
# VRAMPOOL_M32_EXEC   a command that stands for "execute natively" (default:
#                     none, the program itself). m32_runner_test.sh sets it
#                     to a wrapper that fails with "Exec format error", as a
#                     kernel without i386 support does.
# VRAMPOOL_QEMU_I386  the emulator (default: qemu-i386 on PATH).

probe=${1:?usage: m32-run.sh PROBE PROGRAM [ARG...]}
prog=${2:?usage: m32-run.sh PROBE PROGRAM [ARG...]}
shift 2
MAGIC=vrampool-m32-probe

# native PROGRAM [ARG...]: execute as the kernel (or the stand-in) would
native() {
	if [ -n "${VRAMPOOL_M32_EXEC:-}" ]; then
		# shellcheck disable=SC2086 # the stand-in may carry arguments
		$VRAMPOOL_M32_EXEC "$@"
	else
		"$@"
	fi
}

out=$(native "$probe" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "$MAGIC" ]; then
	echo "# i386: run natively"
	native "$prog" "$@"
	exit $?
fi
why=$(printf '%s' "$out" | tail -n 1)
why="exit $rc${why:+: $why}"

qemu=$(command -v "${VRAMPOOL_QEMU_I386:-qemu-i386}")
if [ -z "$qemu" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP this host cannot execute i386 programs ($why) and has no qemu-i386 (Debian package qemu-user)"
	exit 4
fi
qout=$("$qemu" "$probe" 2>&1)
qrc=$?
if [ $qrc -ne 0 ] || [ "$qout" != "$MAGIC" ]; then
	echo "m32-run.sh: this host cannot execute i386 programs ($why), and $qemu cannot run the probe either (exit $qrc): $qout" >&2
	exit 1
fi
echo "# i386: run under $qemu (natively: $why)"
exec "$qemu" "$prog" "$@"

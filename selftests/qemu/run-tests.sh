#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run kselftest programs and print each one's output between markers:
#
#   @@VRAMPOOL BEGIN <name> timeout=<secs>
#   ... the test's own output (kselftest TAP) ...
#   @@VRAMPOOL END <name> rc=<exit code> secs=<elapsed>
#
# Usage: run-tests.sh [-t SECS] DIR [NAME...]
# Without NAMEs, runs every executable DIR/*_test and DIR/*_test.sh in sorted
# order. Used inside the VM (busybox) and on the host (host unit tests), so
# this is plain POSIX sh. Always exits 0: check-log.sh judges the results.

TIMEOUT=300
if [ "$1" = -t ]; then
	TIMEOUT=$2
	shift 2
fi
DIR=${1:?usage: run-tests.sh [-t SECS] DIR [NAME...]}
shift
cd "$DIR" || exit 1

if [ $# -eq 0 ]; then
	for f in *_test *_test.sh; do
		[ -f "$f" ] && [ -x "$f" ] && set -- "$@" "$f"
	done
	# shellcheck disable=SC2046 # names have no spaces
	set -- $(printf '%s\n' "$@" | LC_ALL=C sort)
fi

mark() {
	echo "@@VRAMPOOL $*"
	# Inside the VM, also tag the kernel log so warnings can be blamed.
	if [ -n "${VRAMPOOL_KMSG:-}" ] && [ -w /dev/kmsg ]; then
		echo "vrampool-vm: $*" > /dev/kmsg
	fi
}

# A program that needs longer than the others says so in DIR/settings with a
# line "timeout_factor_<name>=N": its timeout is N times the others'. (The
# kernel's kselftest runner evaluates every line of settings as a shell
# assignment to kselftest_<line>: this form is a harmless one there.)
timeout_of() {
	f=
	[ -f settings ] && f=$(sed -n "s/^timeout_factor_$1=//p" settings)
	case $f in
	'' | *[!0-9]*) echo "$TIMEOUT" ;;
	*) echo $((TIMEOUT * f)) ;;
	esac
}

for t in "$@"; do
	tmo=$(timeout_of "$t")
	mark BEGIN "$t timeout=$tmo"
	start=$(date +%s)
	if [ -x "$t" ]; then
		timeout "$tmo" "./$t" < /dev/null 2>&1
		rc=$?
	else
		echo "# $t: not found or not executable"
		rc=127
	fi
	end=$(date +%s)
	mark END "$t rc=$rc secs=$((end - start))"
done
exit 0

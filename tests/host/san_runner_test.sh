#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Self-test of san-run.sh, the launcher of the sanitized host tests. A host
# where LeakSanitizer cannot run is made for real: the probe and the test
# run under strace (VRAMPOOL_SAN_EXEC), and LeakSanitizer dies under ptrace.
# Prints kselftest TAP.
#
# Installed into the host tests' folder by tests/host/Makefile, next to
# .san/ (the probe, the launcher, kcompat_test built with the sanitizers);
# ROOT is set there to the source tree (for tap-check.sh).
#
# shellcheck disable=SC2317 # the checks are called through check()

ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
D=$(cd "$(dirname "$0")" && pwd)/.san
TMP=$(mktemp -d "${TMPDIR:-/tmp}/san-runner-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
STRACE=$(command -v strace)

# shellcheck source=selftests/qemu/tap-check.sh
. "$ROOT/selftests/qemu/tap-check.sh"

# launch ENV PROGRAM [ARG]: san-run.sh with ENV (NAME=VALUE, or "" for
# none); rc and output in $TMP/out
launch() {
	e=$1 p=$2
	shift 2
	env ${e:+"$e"} sh "$D/san-run.sh" "$D/probe" "$p" "$@" > "$TMP/out" 2>&1
	rc=$?
}

passed() { [ "$rc" = 0 ] && has "^# Totals: pass:[1-9][0-9]* fail:0"; }
leaks_on_passed() { passed && ! has "leaks not checked"; }
leaks_off_passed() {
	passed && has "^# LeakSanitizer cannot run on this host (LeakSanitizer has encountered a fatal error.): leaks not checked, ASan and UBSan on"
}
leak_caught() { [ "$rc" != 0 ] && has "ERROR: LeakSanitizer: detected memory leaks"; }
uaf_caught() {
	[ "$rc" != 0 ] && has "leaks not checked" && has "ERROR: AddressSanitizer: heap-use-after-free"
}
# says_leaks ENV PREFIX: san-run.sh --leaks answers PREFIX...
says_leaks() {
	env ${1:+"$1"} sh "$D/san-run.sh" --leaks "$D/probe" > "$TMP/out" 2>&1
	case $(head -n 1 "$TMP/out") in "$2"*) return 0 ;; esac
	return 1
}

echo "TAP version 13"
echo "1..6"
# Whether LeakSanitizer works here, asked of the probe itself, not of the
# launcher under test.
if "$D/probe" 2>&1 | grep -q "ERROR: LeakSanitizer: detected memory leaks"; then
	lsan=yes
else
	lsan="no: $("$D/probe" 2>&1 | grep -m 1 LeakSanitizer | sed 's/^==[0-9]*==//')"
fi
launch "" "$D/kcompat_test"
if [ "$lsan" = yes ]; then
	check "this host: the test runs with LeakSanitizer on and passes" leaks_on_passed
	launch "" "$D/probe"
	check "this host: a leak fails the program" leak_caught
else
	check "this host ($lsan): the test runs with leak detection off and passes" passed
	skip "this host: a leak fails the program" "LeakSanitizer cannot run on this host ($lsan)"
fi
if [ -n "$STRACE" ]; then
	tr="VRAMPOOL_SAN_EXEC=$STRACE -f -o /dev/null"
	launch "$tr" "$D/kcompat_test"
	check "under ptrace: LeakSanitizer off with a note, the test passes" leaks_off_passed
	launch "$tr" "$D/probe" uaf
	check "under ptrace: a use after free still fails the program" uaf_caught
	check "under ptrace: --leaks says no, and why" \
		says_leaks "$tr" "no: LeakSanitizer has encountered a fatal error"
else
	for d in "under ptrace: LeakSanitizer off with a note, the test passes" \
		"under ptrace: a use after free still fails the program" \
		"under ptrace: --leaks says no, and why"; do
		skip "$d" "no strace on this host (setup.sh installs it)"
	done
fi
check "--leaks on this host: $lsan" says_leaks "" "$lsan"

tap_exit

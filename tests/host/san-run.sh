#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run one host test program built with -fsanitize=address,undefined with as
# much of the sanitizers as this host allows. LeakSanitizer stops the world
# with ptrace-like means and dies ("LeakSanitizer has encountered a fatal
# error") where the process is traced or ptrace is restricted; ASan itself
# still works there. So PROBE (a sanitized program that leaks one object) is
# run first:
#
#   - a leak report: run PROGRAM as it is, leaks checked;
#   - else, when the probe runs clean with detect_leaks=0: run PROGRAM with
#     ASAN_OPTIONS=detect_leaks=0, and say so on a "#" line (ASan and UBSan
#     still on);
#   - else: the sanitizers cannot run here at all; a failure, with the
#     probe's last words.
#
# Usage: san-run.sh PROBE PROGRAM [ARG...]
#        san-run.sh --leaks PROBE   prints "yes", or "no: <why>" (run_fuzz.sh
#                                   turns leak detection off on "no")
#
# VRAMPOOL_SAN_EXEC  a command to run the probe and the program under
#                    (san_runner_test.sh: strace, which LeakSanitizer cannot
#                    work under).

leaks_only=
if [ "$1" = --leaks ]; then
	leaks_only=y
	shift
fi
probe=${1:?usage: san-run.sh PROBE PROGRAM [ARG...]}
[ -n "$leaks_only" ] || prog=${2:?usage: san-run.sh PROBE PROGRAM [ARG...]}
shift
[ -n "$leaks_only" ] || shift

# run PROGRAM [ARG...]: under the stand-in, if any
run() {
	# shellcheck disable=SC2086 # the stand-in carries its arguments
	${VRAMPOOL_SAN_EXEC:-} "$@"
}

out=$(run "$probe" 2>&1)
if printf '%s\n' "$out" | grep -q 'ERROR: LeakSanitizer: detected memory leaks'; then
	[ -n "$leaks_only" ] && { echo yes; exit 0; }
	run "$prog" "$@"
	exit $?
fi
why=$(printf '%s\n' "$out" | grep -m 1 -E 'LeakSanitizer|DEADLYSIGNAL|ERROR' | sed 's/^==[0-9]*==//')
why=${why:-$(printf '%s\n' "$out" | tail -n 1)}
nleak=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
ok=$(ASAN_OPTIONS=$nleak run "$probe" 2>&1)
okrc=$?
if [ $okrc -ne 0 ] || [ "$ok" != vrampool-san-probe ]; then
	echo "san-run.sh: the sanitizers cannot run on this host: the probe says: $why; with detect_leaks=0: $(printf '%s\n' "$ok" | tail -n 1)" >&2
	[ -n "$leaks_only" ] && echo "no: the sanitizers cannot run here: $why"
	exit 1
fi
[ -n "$leaks_only" ] && { echo "no: $why"; exit 0; }
echo "# LeakSanitizer cannot run on this host ($why): leaks not checked, ASan and UBSan on"
ASAN_OPTIONS=$nleak run "$prog" "$@"

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Sourced by the shell self-tests (run-vm-selftest.sh, tests/host's
# m32_runner_test.sh and san_runner_test.sh): one kselftest TAP result per
# check, the output of the step under test ($TMP/out) shown under a failing
# one.

n=0
failed=0

# check DESCRIPTION CONDITION...: one TAP result
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		failed=$((failed + 1))
		[ -z "${rc:-}" ] || echo "# rc=$rc"
		sed 's/^/# /' "$TMP/out"
	fi
}

# skip DESCRIPTION REASON: one skipped TAP result
skip() {
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

# has PATTERN [FILE]: FILE (default $TMP/out) has a line matching PATTERN
has() { grep -q -- "$1" "${2:-$TMP/out}" 2>/dev/null; }

# tap_exit: 0 when every check passed
tap_exit() {
	[ "$failed" -eq 0 ] && exit 0
	exit 1
}

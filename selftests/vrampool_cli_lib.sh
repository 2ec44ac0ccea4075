# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=sh
#
# The helpers of the two vrampoolctl test suites: vrampool_cli_test.sh
# (in the test VM, against its devices) and tests/cli/cli_test.sh (on the
# host, the offline commands). Each sources it after setting V (the
# vrampoolctl to run) and TMP (a scratch folder):
#
#	. "$(dirname "$0")/vrampool_cli_lib.sh"
#
# A test is "t NAME", commands run with vp (or vp_in), checks of their
# exit code, stdout and stderr, and "end", which prints its TAP result.
# tap_run FUNCTION runs the suite twice: first only counting the tests
# (COUNT set: every helper does nothing), so that the TAP plan comes first,
# then for real. It is not a *_test.sh, so the runner never runs it alone.

n=0 failed=0 COUNT=1 rc=0 name="" why=""

t() { n=$((n + 1)); name=$1; why=""; }
fail() { why="${why:+$why; }$*"; }

vp() {	# run vrampoolctl ARGS...; stdout, stderr and rc kept
	[ -n "$COUNT" ] && return 0
	"$V" "$@" > "$TMP/out" 2> "$TMP/err" < /dev/null
	rc=$?
	printf '%s\n' "$*" > "$TMP/cmd"
}

vp_in() {	# vp with standard input from the file $1
	[ -n "$COUNT" ] && return 0
	f=$1
	shift
	"$V" "$@" > "$TMP/out" 2> "$TMP/err" < "$f"
	rc=$?
	printf '%s\n' "$* < $f" > "$TMP/cmd"
}

rc_is() { [ -n "$COUNT" ] || [ "$rc" = "$1" ] || fail "exit $rc, expected $1"; }
out_line() { [ -n "$COUNT" ] || grep -qxF -- "$1" "$TMP/out" || fail "no stdout line: $1"; }
out_has() { [ -n "$COUNT" ] || grep -qF -- "$1" "$TMP/out" || fail "stdout lacks: $1"; }
out_lacks() { [ -n "$COUNT" ] || ! grep -qF -- "$1" "$TMP/out" || fail "stdout has: $1"; }
out_re() { [ -n "$COUNT" ] || grep -qE -- "$1" "$TMP/out" || fail "no stdout match: $1"; }
out_empty() { [ -n "$COUNT" ] || [ ! -s "$TMP/out" ] || fail "stdout not empty"; }
err_line() { [ -n "$COUNT" ] || grep -qxF -- "$1" "$TMP/err" || fail "no stderr line: $1"; }
err_has() { [ -n "$COUNT" ] || grep -qF -- "$1" "$TMP/err" || fail "stderr lacks: $1"; }
err_empty() { [ -n "$COUNT" ] || [ ! -s "$TMP/err" ] || fail "stderr not empty"; }

end() {	# the test's result; on a failure, why, and the command's output
	[ -n "$COUNT" ] && return 0
	if [ -z "$why" ]; then
		echo "ok $n $name"
		return 0
	fi
	failed=$((failed + 1))
	echo "not ok $n $name"
	echo "# $why"
	echo "# command: vrampoolctl $(cat "$TMP/cmd" 2> /dev/null)"
	sed 's/^/# stdout: /' "$TMP/out" 2> /dev/null | head -n 60
	sed 's/^/# stderr: /' "$TMP/err" 2> /dev/null | head -n 40
}

tap_run() {	# tap_run FUNCTION: the plan, every result, the totals
	"$1"
	echo "1..$n"
	n=0 COUNT=""
	"$1"
	echo "# $((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of check-log.py on the sample logs in testdata/: the clean
# samples must pass, every broken one must fail. Prints kselftest TAP.

HERE=$(cd "$(dirname "$0")" && pwd)
D=$HERE/testdata
CHECK="python3 $HERE/check-log.py --expected-skips $D/expected-skips"

n=0
failed=0
# expect pass|fail DESCRIPTION PATTERN CHECK-LOG-ARGS...
# The checker must exit 0 (pass) or 1 (fail) and print a line matching
# the extended regex PATTERN.
expect() {
	want=$1 desc=$2 pattern=$3
	shift 3
	n=$((n + 1))
	out=$($CHECK "$@" 2>&1)
	rc=$?
	case $want:$rc in
	pass:0 | fail:1)
		if echo "$out" | grep -Eq -- "$pattern"; then
			echo "ok $n $desc"
			return
		fi
		echo "not ok $n $desc (no line matches '$pattern')"
		;;
	*)
		echo "not ok $n $desc (check-log.py exited $rc, wanted $want)"
		;;
	esac
	failed=$((failed + 1))
	echo "$out" | sed 's/^/# /'
}

echo "TAP version 13"
echo "1..16"
expect pass "clean VM log passes" "^4 passed, 0 failed, 1 skipped$" --vm --console "$D/clean.console.log" "$D/clean.log"
expect pass "clean host log passes" "^4 passed, 0 failed, 1 skipped$" "$D/host.log"
expect fail "kernel WARNING fails" "FAIL kernel \\(during alloc_test\\): WARNING: CPU: 1" --vm --console "$D/warning.console.log" "$D/clean.log"
expect fail "kmemleak report fails" "FAIL kernel: unreferenced object" --vm --console "$D/leak.console.log" "$D/clean.log"
expect fail "Oops and a dead VM fail" "FAIL kernel \\(during alloc_test\\): Oops: general protection" --vm --console "$D/oops.console.log" "$D/vm-died.log"
expect fail "missing TAP plan fails" "FAIL sysfs_test.sh: no TAP plan" "$D/no-plan.log"
expect fail "short TAP plan fails" "FAIL sysfs_test.sh: TAP plan 1..2 but 1 results" "$D/short-plan.log"
expect fail "not ok fails" "FAIL alloc_test: not ok 2 dev.emulated.mmap_rw" "$D/not-ok.log"
expect fail "crashed test program fails" "FAIL alloc_test: killed by signal 11" "$D/crash.log"
expect fail "timed-out test program fails" "FAIL sysfs_test.sh: timed out" "$D/timeout.log"
expect fail "unexpected skip fails" "unexpected skip: no coffee" "$D/unexpected-skip.log"
expect fail "unexpected whole-program skip fails" "unexpected skip of the whole program" "$D/skip-program.log"
expect fail "rmmod failure fails" "FAIL VM: rmmod vrampool failed" --vm --console "$D/clean.console.log" "$D/rmmod.log"
expect fail "VM that died mid-test fails" "FAIL alloc_test: never finished" --vm --console "$D/clean.console.log" "$D/vm-died.log"
expect fail "missing console log fails" "console log .* missing" --vm --console "$D/nonexistent.console.log" "$D/clean.log"

# The last line must be exactly the summary.
n=$((n + 1))
last=$($CHECK --vm --console "$D/clean.console.log" "$D/clean.log" | tail -n 1)
if [ "$last" = "4 passed, 0 failed, 1 skipped" ]; then
	echo "ok $n summary line of the clean sample"
else
	failed=$((failed + 1))
	echo "not ok $n summary line of the clean sample: '$last'"
fi

[ $failed -eq 0 ]

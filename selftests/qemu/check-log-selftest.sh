#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of check-log.py on the sample logs in testdata/: the clean
# samples must pass, every broken one must fail. Prints kselftest TAP.

HERE=$(cd "$(dirname "$0")" && pwd)
D=$HERE/testdata
CHECK="python3 $HERE/check-log.py --expected-skips $D/expected-skips"
# The repository's own per-tier skip lists (a later --expected-skips wins).
DEBIAN_SKIPS=$HERE/../expected-skips.debian
DEBUG_SKIPS=$HERE/../expected-skips.debug

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
expect pass "clean VM log passes" "^4 passed, 0 failed, 1 skipped$" --vm --console "$D/clean.console.log" "$D/clean.log"
# --kernel: the tier must have booted the kernel it names, and says which.
expect pass "the tier's kernel is named" "^vm: kernel 6\\.12\\.117\\+deb12-amd64$" --label vm --kernel 6.12.117+deb12-amd64 --vm --console "$D/clean.console.log" "$D/clean.log"
expect fail "another kernel than the tier's fails" "FAIL VM: booted kernel 6\\.12\\.117\\+deb12-amd64, not the tier's 7\\.3\\.4\\+deb13-amd64" --kernel 7.3.4+deb13-amd64 --vm --console "$D/clean.console.log" "$D/clean.log"
expect fail "an empty --kernel (no kernel set up) fails" "FAIL VM: no kernel release to check against" --kernel "" --vm --console "$D/clean.console.log" "$D/clean.log"
expect fail "a result file that cannot be written fails, with a sentence" "^vm: cannot write the result file: .*No such file or directory" --label vm --result /nonexistent/vrampool/check.result --vm --console "$D/clean.console.log" "$D/clean.log"
expect pass "clean host log passes" "^4 passed, 0 failed, 1 skipped$" "$D/host.log"
expect fail "kernel WARNING fails" "FAIL kernel \\(during alloc_test\\): WARNING: CPU: 1" --vm --console "$D/warning.console.log" "$D/clean.log"
expect fail "kmemleak report fails" "FAIL kernel: unreferenced object" --vm --console "$D/leak.console.log" "$D/clean.log"
expect pass "a known kernel leak (TTM's list_lru, 7.3) is named, not failed" "known kernel leak, not vrampool's: kernel \\(during kmemleak scan after-tests\\): kmemleak: unreferenced object 0xffff888007447d00 \\(size 128\\): TTM's pool types never destroy" --vm --console "$D/ttm-leak.console.log" "$D/clean.log"
expect fail "a leak of ours beside the known one fails" "^FAIL kernel \\(during kmemleak scan after-tests\\): kmemleak: unreferenced object 0xffff888007440000" --vm --console "$D/ttm-leak-and-ours.console.log" "$D/clean.log"
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

# The debug kernel (samples from real runs): a clean run, then each report
# kind, the detectors being off, and the per-tier skip lists.
expect pass "clean debug-kernel log passes (RCU lockdep banner is no report)" "^24 passed, 0 failed$" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug.console.log" "$D/debug.log"
expect fail "lockdep splat fails" "FAIL kernel \\(during vrampool_alloc_test\\): WARNING: possible circular locking" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug-reports.console.log" "$D/debug.log"
expect fail "sleeping in atomic context fails" "FAIL kernel \\(during vrampool_fault_test\\): BUG: sleeping function called from invalid context" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug-reports.console.log" "$D/debug.log"
expect fail "refcount warning fails" "FAIL kernel \\(during vrampool_fault_test\\): refcount_t: decrement hit 0" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug-reports.console.log" "$D/debug.log"
expect fail "each leaked object found by a scan fails" "FAIL kernel \\(during kmemleak scan after-tests\\): kmemleak: unreferenced object 0xff110000163de640" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug-reports.console.log" "$D/debug.log"
expect fail "one failure per report (3 splats, 2 leaks)" "^24 passed, 5 failed$" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug-reports.console.log" "$D/debug.log"
expect fail "leaks found but not printed fail" "FAIL kernel \\(during kmemleak scan after-rmmod\\): kmemleak: 3 new suspected memory leaks" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug-leak-nodump.console.log" "$D/debug.log"
expect fail "fault injection not configured fails" "FAIL VM: fault injection could not be configured" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug.console.log" "$D/debug-detectors-off.log"
expect fail "failed kmemleak scan fails" "FAIL VM: kmemleak after-tests: scan failed" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug.console.log" "$D/debug-detectors-off.log"
expect pass "fail-nth skip is expected on the Debian kernel" "^23 passed, 0 failed, 1 skipped$" --expected-skips "$DEBIAN_SKIPS" --vm --console "$D/debug.console.log" "$D/debug-skip.log"
expect fail "fail-nth skip fails on the debug kernel" "unexpected skip: no /proc/self/fail-nth .*\\(not in expected-skips.debug\\)" --expected-skips "$DEBUG_SKIPS" --vm --console "$D/debug.console.log" "$D/debug-skip.log"

# KUnit: KTAP on the kernel log, every case and every parameter counted.
expect pass "KUnit: 9 + 5 cases, one with 17 parameters: 30 results" "^30 passed, 0 failed$" --expected-skips "$DEBUG_SKIPS" --kunit required --console "$D/debug.console.log" "$D/debug.log"
expect fail "KUnit: failing parameter fails" "FAIL ksample_good.param_a.val=2: not ok 2" --expected-skips "$DEBUG_SKIPS" --kunit required --console "$D/kunit-fail.console.log" "$D/debug.log"
expect fail "KUnit: failing case fails" "FAIL ksample_mixed.fail_a: not ok 2" --expected-skips "$DEBUG_SKIPS" --kunit required --console "$D/kunit-fail.console.log" "$D/debug.log"
expect fail "KUnit: skip fails on the debug kernel" "FAIL ksample_mixed.skip_a: unexpected skip: no widget here" --expected-skips "$DEBUG_SKIPS" --kunit required --console "$D/kunit-fail.console.log" "$D/debug.log"
expect fail "KUnit: counts leaves, not suites" "^5 passed, 3 failed$" --expected-skips "$DEBUG_SKIPS" --kunit required --console "$D/kunit-fail.console.log" "$D/debug.log"
expect fail "KUnit: a lost result line fails (KUnit's own totals)" "FAIL vrampool_layout: 24 results on the log but KUnit counted 25" --kunit required --console "$D/kunit-lost.console.log" "$D/debug.log"
expect fail "KUnit: a crash during insmod is one failure" "^11 passed, 1 failed$" --kunit required --console "$D/kunit-crash.console.log" "$D/kunit-crash.log"
expect fail "KUnit: missing module fails once Kbuild builds it" "FAIL KUnit: vrampool_kunit.ko missing" --kunit required --console "$D/debug.console.log" "$D/kunit-missing.log"
expect pass "KUnit: missing module passes while Kbuild builds none" "^0 passed, 0 failed$" --kunit optional --console "$D/debug.console.log" "$D/kunit-missing.log"

# The detector proof: each deliberate bug reported by its own detector
# (a real canary run; the kobject-release section cut after 150 lines).
CANARY="--console $D/canary.console.log $D/canary.log"
expect pass "canary: eight detectors proven" "^8 passed, 0 failed$" --canary $CANARY
expect fail "canary: its reports fail a normal run (15 reports)" "^0 passed, 15 failed$" --vm $CANARY
expect fail "canary: a silent kmemleak fails, saying what the trigger and the list held" "FAIL leak: kmemleak reported nothing: the detector is silent \\(the trigger printed: .*vrampool_canary: leaked 4 objects of 200 bytes; kmemleak's list held 4 object\\(s\\)\\)" --canary --console "$D/canary-silent.console.log" "$D/canary.log"
expect fail "canary: a silent kmemleak's failure quotes kmemleak's record of an object the init dumped" "FAIL leak: .*kmemleak's list held 4 object\\(s\\); kmemleak's record of the first: min_count 1, count 1, flags 0x1, checksum 2316741298\\)" --canary --console "$D/canary-silent-dumped.console.log" "$D/canary.log"
expect fail "canary: the wrong kind of report fails" "FAIL use-after-free: expected only KASAN use-after-free reports" --canary --console "$D/canary-wrong.console.log" "$D/canary.log"
expect fail "canary: a silent UBSAN fails" "FAIL ubsan: UBSAN bounds reported nothing" --canary --console "$D/canary-silent-ubsan.console.log" "$D/canary.log"
expect fail "canary: a kobject release that was not delayed proves nothing" "FAIL kobject-release: .*a report but no line matching" --canary --console "$D/canary-nodelay.console.log" "$D/canary.log"
# Each new report kind fails a run on its own (from the same real log).
expect fail "UBSAN report fails" "FAIL kernel \\(during canary ubsan\\): UBSAN: array-index-out-of-bounds" --vm $CANARY
expect fail "suspicious RCU usage fails" "FAIL kernel \\(during canary rcu\\): WARNING: suspicious RCU usage" --vm $CANARY
expect fail "soft lockup fails" "FAIL kernel \\(during canary soft-lockup\\): watchdog: BUG: soft lockup" --vm $CANARY
expect fail "hung task fails" "FAIL kernel \\(during canary hung-task\\): INFO: task sh:[0-9]+ blocked for more than 2 seconds" --vm $CANARY
expect fail "a delayed kobject release on freed memory fails" "FAIL kernel \\(during canary kobject-release\\): BUG: KASAN: slab-use-after-free in run_timer_softirq" --vm $CANARY
# debugobjects (constructed from warning.console.log: the ODEBUG line a
# kobject freed with its delayed release pending prints, then its WARNING).
expect fail "ODEBUG report fails, once" "^4 passed, 1 failed, 1 skipped$" --vm --console "$D/odebug.console.log" "$D/clean.log"
expect fail "ODEBUG report is named" "FAIL kernel \\(during alloc_test\\): ODEBUG: free active" --vm --console "$D/odebug.console.log" "$D/clean.log"

# The rules without a sample before (review-tests 4).
expect fail "not ok with # TODO fails: no test is marked known broken" "FAIL alloc_test: not ok 2 dev.emulated.mmap_rw # mapping is broken" "$D/todo.log"
expect fail "a module that fails to load fails" "FAIL VM: insmod ttm.ko failed \\(rc=1\\)" --vm --console "$D/clean.console.log" "$D/insmod-fail.log"
expect fail "a device that fails to bind fails" "FAIL VM: binding ivshmem 0000:00:04.0 to vrampool failed \\(rc=19\\)" --vm --console "$D/clean.console.log" "$D/bind-fail.log"
expect fail "XPASS fails" "FAIL alloc_test: ok 2 dev.emulated.mmap_rw: passed but is marked XFAIL \\(XPASS\\)" "$D/xpass.log"
expect fail "an error exit with only ok results fails" "FAIL alloc_test: exited with 1" "$D/rc-all-ok.log"
expect fail "an END marker without BEGIN fails" "FAIL sysfs_test.sh: END marker without BEGIN" "$D/end-no-begin.log"
expect fail "a VM where no test ran fails" "FAIL VM: no tests ran" --vm --console "$D/clean.console.log" "$D/no-tests.log"
# run-vm.sh's CLOCK marker (the clean sample has one within the bounds):
# samples made from it, and from a VM that died, with another marker.
CLK=$(mktemp -d "${TMPDIR:-/tmp}/check-log-selftest.XXXXXX") || exit 1
trap 'rm -rf "$CLK"' EXIT
clock_sample() { # OUT FROM MARKER: FROM's CLOCK marker replaced (or added)
	grep -v '^@@VRAMPOOL CLOCK' "$D/$2" > "$CLK/$1"
	echo "@@VRAMPOOL CLOCK $3" >> "$CLK/$1"
}
clock_sample clock-fast.log clean.log "guest=2826.6 host=1562.0"
clock_sample clock-slow.log clean.log "guest=301.5 host=612.0"
clock_sample clock-bad.log clean.log "guest=44.1"
clock_sample clock-hung.log vm-died.log "guest=301.5 host=900.0"
expect fail "a guest clock that ran fast fails" "FAIL VM: the guest's clock ran 1.81 times as fast as the host's \\(2827 s against 1562 s\\)" --vm --console "$D/clean.console.log" "$CLK/clock-fast.log"
expect fail "a guest clock that ran slow fails" "FAIL VM: the guest's clock ran 0.49 times as fast" --vm --console "$D/clean.console.log" "$CLK/clock-slow.log"
expect pass "under --icount (the clock follows instructions) a slow guest clock passes" "^4 passed, 0 failed, 1 skipped$" --icount --vm --console "$D/clean.console.log" "$CLK/clock-slow.log"
expect fail "under --icount a fast guest clock still fails" "FAIL VM: the guest's clock ran 1.81 times as fast" --icount --vm --console "$D/clean.console.log" "$CLK/clock-fast.log"
expect fail "a VM that hung is not blamed on a slow clock too (3 failures, as without it)" "^1 passed, 3 failed$" --vm --console "$D/oops.console.log" "$CLK/clock-hung.log"
expect fail "a CLOCK marker without both numbers fails" "FAIL VM: a CLOCK marker without numbers" --vm --console "$D/clean.console.log" "$CLK/clock-bad.log"
expect fail "list corruption fails" "FAIL kernel \\(during alloc_test\\): list_add corruption" --vm --console "$D/list-corruption.console.log" "$D/clean.log"

# --sum: a missing result file is a failure, and named.
n=$((n + 1))
printf '3 0 0\n' > "${TMPDIR:-/tmp}/check-log-selftest.$$.result"
out=$(python3 "$HERE/check-log.py" --sum "${TMPDIR:-/tmp}/check-log-selftest.$$.result" "$D/no-such.result" 2>&1)
rc=$?
rm -f "${TMPDIR:-/tmp}/check-log-selftest.$$.result"
if [ $rc -eq 1 ] && echo "$out" | grep -q "^FAILED no results in $D/no-such.result" &&
   [ "$(echo "$out" | tail -n 1)" = "3 passed, 1 failed" ]; then
	echo "ok $n --sum: a missing result file fails, named before the total"
else
	failed=$((failed + 1))
	echo "not ok $n --sum: a missing result file fails, named before the total (rc $rc)"
	echo "$out" | sed 's/^/# /'
fi

# The last line must be exactly the summary.
n=$((n + 1))
last=$($CHECK --vm --console "$D/clean.console.log" "$D/clean.log" | tail -n 1)
if [ "$last" = "4 passed, 0 failed, 1 skipped" ]; then
	echo "ok $n summary line of the clean sample"
else
	failed=$((failed + 1))
	echo "not ok $n summary line of the clean sample: '$last'"
fi

echo "1..$n"
[ $failed -eq 0 ]

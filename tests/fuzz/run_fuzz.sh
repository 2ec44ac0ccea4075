#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A bounded run of the layout fuzzer, printed as kselftest TAP with one
# result. tests/host installs it as layout_fuzz_test.sh beside the host tests,
# with the fuzzer built in fuzz/ next to it.
#
# The fuzzer starts from the seed corpus (seeds/) and what earlier runs found
# (corpus/); a crash, a sanitizer report or a broken rule fails the test and
# leaves the input in crashes/. A fuzzer that was not built fails the test
# too: it never skips. So does a run that executed fewer than MIN inputs
# (VRAMPOOL_FUZZ_MIN_INPUTS, default 2000: an idle machine does about 5,000
# a second, one with every CPU taken by make check's VMs over 2,000; a
# fuzzer that exits at once without finding anything has tested nothing).
#
# Where LeakSanitizer cannot run on this host (the host tests' san-run.sh
# --leaks, in .san/ beside this script, says so), the fuzzer runs with
# -detect_leaks=0 and ASAN_OPTIONS=detect_leaks=0 (the check at exit), and
# says so; ASan and UBSan stay on.
#
# Usage: run_fuzz.sh [FUZZ_DIR [SECONDS]]   (SECONDS also from VRAMPOOL_FUZZ_TIME)

dir=${1:-$(dirname "$0")/fuzz}
secs=${2:-${VRAMPOOL_FUZZ_TIME:-20}}
min=${VRAMPOOL_FUZZ_MIN_INPUTS:-2000}
name=layout_fuzz

echo "TAP version 13"
echo "1..1"
if [ ! -f "$dir/build.ok" ] || [ ! -x "$dir/$name" ] || [ ! -d "$dir/seeds" ]; then
	echo "# $name: not built. The build needs clang with libFuzzer, ASan and UBSan"
	echo "# (Debian: clang-14 libclang-rt-14-dev); the end of its log:"
	if [ -f "$dir/build.log" ]; then
		tail -n 25 "$dir/build.log" | sed 's/^/#   /'
	fi
	echo "not ok 1 $name # not built"
	exit 1
fi

leaks=
san=$(dirname "$0")/.san
if [ -x "$san/probe" ]; then
	lsan=$(sh "$san/san-run.sh" --leaks "$san/probe")
	case $lsan in
	yes) ;;
	*)
		echo "# LeakSanitizer cannot run on this host (${lsan#no: }): -detect_leaks=0"
		leaks=-detect_leaks=0
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		export ASAN_OPTIONS
		;;
	esac
fi

mkdir -p "$dir/corpus" "$dir/crashes"
log=$dir/run.log
count() { find "$1" -maxdepth 1 -type f ! -name '.*' | wc -l; }
echo "# $name: $secs s from $(count "$dir/seeds") seeds and $(count "$dir/corpus") saved inputs"
"$dir/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
	-print_final_stats=1 -artifact_prefix="$dir/crashes/" $leaks \
	"$dir/corpus" "$dir/seeds" > "$log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" -eq 0 ] && [ "${runs:-0}" -lt "$min" ]; then
	tail -n 25 "$log" | sed 's/^/# /'
	echo "not ok 1 $name # only ${runs:-no} inputs executed in $secs s, fewer than $min"
	exit 1
fi
if [ "$rc" -eq 0 ]; then
	grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs|stat::(number_of_executed_units|peak_rss_mb|new_units_added))' \
		"$log" | sed 's/^/# /'
	echo "ok 1 $name: ${runs:-?} inputs in $secs s, every rule held, no sanitizer report"
	exit 0
fi
# The finding first (a broken rule, a sanitizer report), then the log's end.
grep -E -A3 'check failed|runtime error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' \
	"$log" | head -n 40 | sed 's/^/# /'
echo "# ..."
tail -n 25 "$log" | sed 's/^/# /'
# shellcheck disable=SC2012 # the newest file: names are libFuzzer's hex digests
crash=$(ls -t "$dir/crashes" 2>/dev/null | head -n 1)
if [ -n "$crash" ]; then
	echo "# reproduce: $dir/$name $dir/crashes/$crash"
fi
echo "not ok 1 $name # exit $rc after ${runs:-?} inputs"
exit 1

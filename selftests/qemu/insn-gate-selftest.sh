#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of insn-gate.py, the instruction gate of make check: a run like
# its baseline passes, a row grown past 3% fails with the row and the
# functions that grew named, a missing row fails, --update takes a new
# baseline. Prints kselftest TAP.

HERE=$(cd "$(dirname "$0")" && pwd)
GATE="python3 $HERE/insn-gate.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# report FILE PAIR_FACTOR DROP_ROW: a bench report with every gated row, the
# sliced 4 KiB pair (and xas_store in its profile) scaled by PAIR_FACTOR
# percent, and DROP_ROW left out.
report() {
	python3 - "$@" <<'EOF'
import json, sys
path, factor, drop = sys.argv[1], int(sys.argv[2]) / 100, sys.argv[3]
rows = [f"warm ALLOC+FREE {t} {s}" for t in ("sliced", "exclusive", "direct", "persistent")
        for s in ("4 KiB", "1 MiB")] + [
    "batched ALLOC per allocation, batch 64", "batched FREE per allocation, batch 64",
    "POOL_INSTALL sub-slices preset", "close() with 10^4 live"]
figs = [{"figure": r, "insns": 4000.0 * (factor if r == "warm ALLOC+FREE sliced 4 KiB" else 1)}
        for r in rows if r != drop]
extra = 4000.0 * (factor - 1)
prof = {"5": {"functions": [{"name": "xas_store", "per_op": 365 + extra},
                            {"name": "drm_ioctl", "per_op": 355.0}]},
        "1": {"functions": [{"name": "vrampool_batch_alloc [vrampool]", "per_op": 80.0}]}}
json.dump({"figures": figs, "profile": prof}, open(path, "w"))
EOF
}

n=0
failed=0
# expect RC DESCRIPTION PATTERN ARGS...: insn-gate.py exits RC and prints a
# line matching the extended regex PATTERN.
expect() {
	want=$1 desc=$2 pattern=$3
	shift 3
	n=$((n + 1))
	out=$($GATE "$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && echo "$out" | grep -Eq -- "$pattern"; then
		echo "ok $n $desc"
		return
	fi
	echo "not ok $n $desc (exit $rc, wanted $want; or no line matches '$pattern')"
	failed=$((failed + 1))
	echo "$out" | sed 's/^/# /'
}

echo "TAP version 13"
echo "1..6"
report "$T/base.json" 100 none
expect 0 "--update takes a baseline of every row" "baseline .* updated: 12 rows" \
	"$T/base.json" "$T/baseline.json" --update
report "$T/same.json" 102 none
expect 0 "a row 2% over its baseline passes" "^insns: 12 passed, 0 failed$" \
	"$T/same.json" "$T/baseline.json" --result "$T/same.result"
n=$((n + 1))
if [ "$(head -n 1 "$T/same.result")" = "12 0 0" ]; then
	echo "ok $n the result file holds '12 0 0'"
else
	echo "not ok $n the result file holds '$(head -n 1 "$T/same.result")'"
	failed=$((failed + 1))
fi
report "$T/grown.json" 105 none
expect 1 "a row 5% over fails, naming the row, the growth and the function that grew" \
	"FAIL warm ALLOC\+FREE sliced 4 KiB: 4200.0 .* baseline 4000.0 \(\+5.00%\), over the 3% limit; grew most: xas_store \+200.0 \(365.0 -> 565.0\)\. On purpose\? make insn-baseline" \
	"$T/grown.json" "$T/baseline.json"
report "$T/missing.json" 100 "close() with 10^4 live"
expect 1 "a row the run did not count fails" \
	"FAIL close\(\) with 10\^4 live: not counted in this run" \
	"$T/missing.json" "$T/baseline.json"
report "$T/faster.json" 90 none
expect 0 "a row 10% under passes and says to take the gain" \
	"ok   warm ALLOC\+FREE sliced 4 KiB: .*\(-10.00%\); below the baseline by more than the limit" \
	"$T/faster.json" "$T/baseline.json"
[ "$failed" -eq 0 ]

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

# shellcheck source=selftests/qemu/tap-check.sh
. "$HERE/tap-check.sh"
TMP=$T
# gate ARGS...: run insn-gate.py, its output in $TMP/out, its exit in $rc
gate() {
	$GATE "$@" > "$TMP/out" 2>&1
	rc=$?
}
# said RC PATTERN: the last gate exited RC and printed a line matching the
# basic regex PATTERN
said() { [ "$rc" -eq "$1" ] && has "$2"; }

echo "TAP version 13"
echo "1..6"
report "$T/base.json" 100 none
gate "$T/base.json" "$T/baseline.json" --update
check "--update takes a baseline of every row" \
	said 0 "baseline .* updated: 12 rows"
report "$T/same.json" 102 none
gate "$T/same.json" "$T/baseline.json" --result "$T/same.result"
check "a row 2% over its baseline passes" \
	said 0 "^insns: 12 passed, 0 failed$"
check "the result file holds '12 0 0'" \
	has "^12 0 0$" "$T/same.result"
report "$T/grown.json" 105 none
gate "$T/grown.json" "$T/baseline.json"
check "a row 5% over fails, naming the row, the growth and the function that grew" \
	said 1 "FAIL warm ALLOC+FREE sliced 4 KiB: 4200.0 .* baseline 4000.0 (+5.00%), over the 3% limit; grew most: xas_store +200.0 (365.0 -> 565.0)\. On purpose? make insn-baseline"
report "$T/missing.json" 100 "close() with 10^4 live"
gate "$T/missing.json" "$T/baseline.json"
check "a row the run did not count fails" \
	said 1 "FAIL close() with 10^4 live: not counted in this run"
report "$T/faster.json" 90 none
gate "$T/faster.json" "$T/baseline.json"
check "a row 10% under passes and says to take the gain" \
	said 0 "ok   warm ALLOC+FREE sliced 4 KiB: .*(-10.00%); below the baseline by more than the limit"
tap_exit

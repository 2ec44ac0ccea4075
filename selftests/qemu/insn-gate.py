#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The instruction gate of make check: key counts against a committed baseline.

Usage: insn-gate.py RESULT_JSON BASELINE_JSON [--result FILE] [--update]
                    [--label LABEL]

RESULT_JSON is what bench-report.py wrote for a counting boot of
vrampool_bench_test in its gate mode (make check-insns): every figure's
guest instructions per operation (the least over its samples) and the
profile by function of the warm pairs and the batches. BASELINE_JSON
(selftests/qemu/insn-baseline.json) holds the same rows and profiles from
a run that was accepted.

A row fails when it grows more than LIMIT (3%) over its baseline; its line
names the row, both counts and the growth, then the functions of its
profile that grew most. A row missing from the run fails too. A row that
shrank passes, and says so: take the gain with --update.

--update writes BASELINE_JSON from RESULT_JSON (make insn-baseline), for a
change that costs instructions on purpose, or one that saved some.
--result writes "passed failed 0" and one line per failure, for
check-log.py --sum.
"""
import argparse
import json
import sys

LIMIT = 0.03

# The gated rows, and the profile (bench-report.py's slot) that names the
# functions of each.
PAIR_SLOT, BATCH_ALLOC_SLOT, BATCH_FREE_SLOT = "5", "1", "2"
ROWS = [
    *[(f"warm ALLOC+FREE {t} {s}", PAIR_SLOT)
      for t in ("sliced", "exclusive", "direct", "persistent")
      for s in ("4 KiB", "1 MiB")],
    ("batched ALLOC per allocation, batch 64", BATCH_ALLOC_SLOT),
    ("batched FREE per allocation, batch 64", BATCH_FREE_SLOT),
    ("POOL_INSTALL sub-slices preset", None),
    # Not "POOL_INSTALL 254 pools": its count is bimodal between boots
    # (345,163 or 368,348 instructions, every repetition of a boot alike),
    # 6.7% apart; it is gated once the cause is found.
    ("close() with 10^4 live", None),
]
UPDATE_HOW = "make insn-baseline (then commit selftests/qemu/insn-baseline.json)"


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def current(result):
    """{row: insns per op} and {slot: {function: per op}} of a bench report."""
    by = {f["figure"]: f.get("insns") for f in result.get("figures", [])}
    rows = {name: by.get(name) for name, _ in ROWS}
    profiles = {str(slot): {fn["name"]: fn["per_op"] for fn in p.get("functions", [])}
                for slot, p in (result.get("profile") or {}).items()}
    return rows, profiles


def grown_functions(now, then, n=5):
    """The functions that grew most between two profiles, per operation."""
    deltas = []
    for name in set(now) | set(then):
        d = now.get(name, 0.0) - then.get(name, 0.0)
        if d > 0.5:
            deltas.append((d, name))
    deltas.sort(reverse=True)
    return [f"{name} +{d:.1f} ({then.get(name, 0.0):.1f} -> {now.get(name, 0.0):.1f})"
            for d, name in deltas[:n]]


def judge(rows, profiles, base):
    """(passed, failures, lines) of the run against the baseline."""
    passed, failures, lines = 0, [], []
    for name, slot in ROWS:
        was, now = base["rows"].get(name), rows.get(name)
        if was is None:
            failures.append(f"{name}: not in the baseline; {UPDATE_HOW}")
            continue
        if now is None:
            failures.append(f"{name}: not counted in this run (the benchmark"
                            " or the plugin failed)")
            continue
        growth = now / was - 1
        what = f"{name}: {now:.1f} instructions per operation, baseline {was:.1f} ({growth:+.2%})"
        if growth > LIMIT:
            grew = grown_functions(profiles.get(slot, {}),
                                   base.get("profiles", {}).get(slot, {})) if slot else []
            failures.append(f"{what}, over the {LIMIT:.0%} limit"
                            + (f"; grew most: {', '.join(grew)}" if grew else
                               "; no profile for this row" if not slot else "")
                            + f". On purpose? {UPDATE_HOW}")
        else:
            passed += 1
            lines.append(f"ok   {what}"
                         + ("; below the baseline by more than the limit: take it with "
                            + UPDATE_HOW if growth < -LIMIT else ""))
    return passed, failures, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("result_json")
    ap.add_argument("baseline")
    ap.add_argument("--result")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--label", default="insns")
    a = ap.parse_args()
    try:
        rows, profiles = current(load(a.result_json))
    except (OSError, ValueError) as e:
        rows, profiles = {}, {}
        print(f"{a.label}: no bench report ({e})", file=sys.stderr)
    if a.update:
        missing = [name for name, v in rows.items() if v is None]
        if missing:
            print(f"{a.label}: not updated: not counted: {', '.join(missing)}", file=sys.stderr)
            return 1
        slots = {slot for _, slot in ROWS if slot}
        with open(a.baseline, "w", encoding="utf-8") as f:
            json.dump({"rows": rows,
                       "profiles": {s: p for s, p in profiles.items() if s in slots}},
                      f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{a.label}: baseline {a.baseline} updated: {len(rows)} rows")
        return 0
    passed, failures, lines = judge(rows, profiles, load(a.baseline))
    for line in lines:
        print(f"{a.label}: {line}")
    for line in failures:
        print(f"{a.label}: FAIL {line}")
    print(f"{a.label}: {passed} passed, {len(failures)} failed")
    if a.result:
        with open(a.result, "w", encoding="utf-8") as f:
            f.write(f"{passed} {len(failures)} 0\n")
            for line in failures:
                f.write(f"{a.label}: {line}\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print one make bench run as the README's Markdown tables.

Usage: bench-table.py [RESULT_JSON]   (default: build/bench/result.json)

Reads the JSON bench-report.py wrote and prints two tables: every figure
that is read against another (its time ratio, instructions per operation
and their ratio), and every goal with its value, target and whether it is
met. Times appear only as ratios: their absolute values mean little in a
TCG guest. Exit 1 if the file has no figure.
"""
import json
import sys


def cell(v, fmt):
    return "-" if v is None else format(v, fmt)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "build/bench/result.json"
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    figs = doc.get("figures", [])
    if not figs:
        print(f"bench-table: no figure in {path}", file=sys.stderr)
        return 1
    print("| figure | read against | time ratio | instructions/op | instruction ratio |")
    print("|---|---|---:|---:|---:|")
    for fig in figs:
        if not fig.get("vs") and "insns" not in fig:
            continue
        times = "" if fig["vs_times"] in (0, 1) else f"{fig['vs_times']:g} x "
        vs = times + fig["vs"] if fig.get("vs") else "-"
        ratio = fig["ratio"] if fig.get("vs") else None
        print(f"| {fig['figure']} | {vs} | {cell(ratio, '.2f')} |"
              f" {cell(fig.get('insns'), ',.0f')} | {cell(fig.get('insn_ratio'), '.2f')} |")
    print()
    print("| goal | value | target | state |")
    print("|---|---:|---|---|")
    for g in doc.get("goals", []):
        state = {None: "not measured", True: "met", False: "**MISSED**"}[g["met"]]
        print(f"| {g['goal']} | {cell(g['value'], '.2f')} | {g['op']} {g['target']:g} |"
              f" {state} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a test log written by run-tests.sh (and, for the VM, by the init).

The log holds, for each test program:

    @@VRAMPOOL BEGIN <name> timeout=<secs>
    ... kselftest TAP: "TAP version 13", "1..N", "ok N ...", "not ok N ..." ...
    @@VRAMPOOL END <name> rc=<exit code> secs=<elapsed>

plus, in the VM, the init's markers (BOOT, INSMOD, IVSHMEM, BIND, RMMOD,
DONE).  The kernel log (the VM's serial console) is scanned separately.

Every one of these counts as one failure: a "not ok" result; an XPASS; a
missing TAP plan; fewer (or more) results than planned; a program that
crashed, exited non-zero or timed out; a program that never finished;
a skip whose reason matches no line of the expected-skips file; and, with
--vm, a module that failed to load, an ivshmem bind or rmmod that failed,
no tests at all, a VM that never reached DONE, and every kernel log line
reporting a WARNING, BUG, Oops, KASAN, lockdep, refcount, list corruption
or memory leak problem.

The last line printed is "N passed, N failed" (", N skipped" when some
expected skips happened).  Exit status: 0 when nothing failed, 1 otherwise.

Usage:
  check-log.py [--vm] [--console FILE] [--expected-skips FILE]
               [--result FILE] [--label NAME [--prefix-summary]] LOG
  check-log.py --sum RESULT...    add up result files into one summary line
"""

import argparse
import os
import re
import sys

MARK = "@@VRAMPOOL "
KMSG_MARK = "vrampool-vm: "

# Kernel log lines that fail the run.
KERNEL_PROBLEMS = re.compile(
    r"WARNING:|BUG:|kernel BUG at|\bOops\b|general protection|KASAN:|"
    r"\blockdep\b|possible circular locking|possible recursive locking|"
    r"inconsistent lock state|suspicious RCU usage|refcount_t:|"
    r"list_add corruption|list_del corruption|unreferenced object|UBSAN:|"
    r"Kernel panic|blocked for more than \d+ seconds|"
    r"Unable to handle kernel|stack-protector|double fault"
)
# A kernel log line carries a printk timestamp ("[   12.345678] ").
KERNEL_LINE = re.compile(r"\[\s*\d+\.\d+\] ")

RESULT = re.compile(r"^(ok|not ok)\s+(\d+)\b\s*(.*)$")
DIRECTIVE = re.compile(r"\s#\s*(SKIP|XFAIL|XPASS|TODO|error)\b\s*(.*)$",
                       re.IGNORECASE)
PLAN = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(?:SKIP\b)?\s*(.*))?$", re.IGNORECASE)

KSFT_SKIP = 4
TIMEOUT_CODES = (124, 137, 143)


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", errors="replace")
    return [line.rstrip("\r") for line in data.replace("\r\n", "\n").split("\n")]


def marker_fields(rest):
    """'name rc=0 secs=3' -> ('name', {'rc': '0', 'secs': '3'})."""
    words = rest.split()
    name = words[0] if words else ""
    fields = {}
    for w in words[1:]:
        if "=" in w:
            k, v = w.split("=", 1)
            fields[k] = v
    return name, fields


def load_expected_skips(path):
    pats = []
    if path and os.path.exists(path):
        for line in read_lines(path):
            line = line.strip()
            if line and not line.startswith("#"):
                pats.append(re.compile(line))
    return pats


class Report:
    def __init__(self, label):
        self.label = label
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def say(self, text):
        print(f"{self.label}: {text}" if self.label else text)

    def fail(self, what, context=()):
        self.failed += 1
        self.say(f"FAIL {what}")
        for line in context:
            print(f"    | {line}")

    def summary(self):
        s = f"{self.passed} passed, {self.failed} failed"
        if self.skipped:
            s += f", {self.skipped} skipped"
        return s


class Test:
    def __init__(self, name, begin_line, timeout):
        self.name = name
        self.begin_line = begin_line
        self.timeout = timeout
        self.lines = []
        self.end = None  # dict of END fields once finished


def split_log(lines, rep):
    """Return (tests, markers): test sections and the other marker lines."""
    tests, markers = [], []
    cur = None
    for i, line in enumerate(lines):
        pos = line.find(MARK)
        if pos < 0:
            if cur is not None:
                cur.lines.append(line)
            continue
        # A marker may follow unterminated test output on the same line.
        if pos > 0 and cur is not None:
            cur.lines.append(line[:pos])
        kind, _, rest = line[pos + len(MARK):].partition(" ")
        if kind == "BEGIN":
            name, fields = marker_fields(rest)
            if cur is not None:
                tests.append(cur)
            cur = Test(name, i, fields.get("timeout"))
        elif kind == "END":
            name, fields = marker_fields(rest)
            if cur is None or cur.name != name:
                rep.fail(f"{name}: END marker without BEGIN")
                continue
            cur.end = fields
            tests.append(cur)
            cur = None
        else:
            markers.append((kind, rest))
    if cur is not None:
        tests.append(cur)
    return tests, markers


def skip_expected(pats, text):
    return any(p.search(text) for p in pats)


def judge_test(t, rep, skip_pats):
    """Count one program's TAP results and problems."""
    plan = None
    plan_skip = None
    results = []  # (status, num, desc, directive, reason)
    for raw in t.lines:
        line = raw.rstrip()
        m = PLAN.match(line)
        if m:
            plan = (plan or 0) + int(m.group(1))
            if int(m.group(1)) == 0:
                plan_skip = (m.group(2) or "").strip()
            continue
        m = RESULT.match(line)
        if not m:
            continue
        status, num, rest = m.group(1), int(m.group(2)), m.group(3)
        d = DIRECTIVE.search(" " + rest)
        if d:
            desc = (" " + rest)[: d.start()].strip()
            directive, reason = d.group(1).upper(), d.group(2).strip()
        else:
            desc, directive, reason = rest.split(" #", 1)[0].strip(), "", ""
        results.append((status, num, desc, directive, reason))

    npass = nfail = nskip = 0
    for status, num, desc, directive, reason in results:
        what = f"{t.name}: {status} {num} {desc}".rstrip()
        if status == "not ok" and directive != "TODO":
            nfail += 1
            rep.fail(what + (f" # {reason}" if reason else ""))
        elif directive == "SKIP":
            if skip_expected(skip_pats, f"{t.name} {desc}: {reason}"):
                nskip += 1
            else:
                nfail += 1
                rep.fail(f"{what}: unexpected skip: {reason or '(no reason)'}"
                         " (not in selftests/expected-skips)")
        elif directive == "XPASS":
            nfail += 1
            rep.fail(f"{what}: passed but is marked XFAIL (XPASS)")
        else:
            npass += 1

    # How the program ended. A crash, a timeout or an error exit is one
    # failure; a short TAP plan is then only its consequence.
    problems = 0
    ended_badly = False
    secs = ""
    if t.end is None:
        ended_badly = True
        rep.fail(f"{t.name}: never finished (VM crashed, hung or was killed)",
                 t.lines[-15:])
    else:
        secs = t.end.get("secs", "?")
        rc_text = t.end.get("rc", "?")
        try:
            rc = int(rc_text)
        except ValueError:
            rc = -1
        timed_out = (rc in TIMEOUT_CODES and t.timeout is not None
                     and secs.isdigit() and int(secs) >= int(t.timeout))
        if timed_out:
            ended_badly = True
            rep.fail(f"{t.name}: timed out after {secs} s", t.lines[-10:])
        elif rc == KSFT_SKIP and (plan_skip is not None or
                                  any(r[3] == "SKIP" for r in results)):
            pass  # a skipping program; its skips are judged here
        elif rc == 1 and nfail:
            pass  # KSFT_FAIL: the "not ok" results above already count
        elif rc != 0:
            ended_badly = True
            how = f"killed by signal {rc - 128}" if rc > 128 else f"exited with {rc_text}"
            rep.fail(f"{t.name}: {how}", t.lines[-10:])
    if ended_badly:
        problems += 1

    if plan == 0 and plan_skip is not None and not results:
        # "1..0 # SKIP reason": the whole program skipped.
        if skip_expected(skip_pats, f"{t.name}: {plan_skip}"):
            nskip += 1
        else:
            problems += 1
            rep.fail(f"{t.name}: unexpected skip of the whole program: "
                     f"{plan_skip or '(no reason)'} (not in selftests/expected-skips)")
    elif ended_badly:
        pass
    elif plan is None:
        problems += 1
        rep.fail(f"{t.name}: no TAP plan (1..N) in its output",
                 t.lines[-10:])
    elif len(results) != plan:
        problems += 1
        rep.fail(f"{t.name}: TAP plan 1..{plan} but {len(results)} results",
                 t.lines[-10:])

    rep.passed += npass
    rep.skipped += nskip
    state = "FAIL" if (nfail or problems) else "ok  "
    extra = f", {nskip} skipped" if nskip else ""
    rep.say(f"{state} {t.name}: {npass} passed, {nfail + problems} failed{extra}"
            + (f" ({secs} s)" if secs else ""))


def judge_vm_markers(markers, tests, rep):
    kinds = [k for k, _ in markers]
    if "BOOT" not in kinds:
        rep.fail("VM: the init never started (no BOOT marker)")
    module_loaded = False
    for kind, rest in markers:
        name, f = marker_fields(rest)
        if kind == "INSMOD" and f.get("rc") != "0":
            why = "missing from the initramfs" if f.get("rc") == "missing" else f"rc={f.get('rc')}"
            rep.fail(f"VM: insmod {name} failed ({why})")
        elif kind == "INSMOD" and name == "vrampool.ko":
            module_loaded = True
        elif kind == "BIND" and f.get("rc") != "0":
            rep.fail(f"VM: binding ivshmem {name} to vrampool failed (rc={f.get('rc')})")
        elif kind == "RMMOD" and f.get("rc") != "0":
            rep.fail(f"VM: rmmod {name} failed (rc={f.get('rc')})")
        elif kind == "ERROR":
            rep.fail(f"VM: {rest}")
    if "DONE" not in kinds:
        last = f" (last marker: {markers[-1][0]} {markers[-1][1]})" if markers else ""
        if tests and tests[-1].end is None:
            last = f" (while {tests[-1].name} ran)"
        rep.fail(f"VM: did not reach the end: kernel panic, hang or timeout{last}")
    elif module_loaded and not tests:
        rep.fail("VM: no tests ran (no *_test or *_test.sh in the initramfs)")


def kernel_context(lines, i):
    """The lines around a kernel report: a little before, then up to the
    end of the splat (or the next test marker), at most 25 lines."""
    ctx = lines[max(0, i - 2): i + 1]
    for line in lines[i + 1: i + 25]:
        if KMSG_MARK in line:
            break
        ctx.append(line)
        if "---[ end" in line:
            break
    return ctx


def judge_kernel_log(path, rep):
    if not os.path.exists(path):
        rep.fail(f"kernel: console log {path} missing")
        return
    lines = read_lines(path)
    seen = set()
    running = None
    splat_end = -1  # last line of the previous report's context
    for i, line in enumerate(lines):
        k = line.find(KMSG_MARK)
        if k >= 0:
            kind, _, rest = line[k + len(KMSG_MARK):].partition(" ")
            running = marker_fields(rest)[0] if kind == "BEGIN" else None
            continue
        ts = KERNEL_LINE.search(line)
        if not ts:
            continue
        text = line[ts.start():]
        if not KERNEL_PROBLEMS.search(text) or text in seen:
            continue
        seen.add(text)
        if i <= splat_end:
            continue  # part of the report just shown (e.g. BUG, Oops, panic)
        during = f" (during {running})" if running else ""
        ctx = kernel_context(lines, i)
        splat_end = i + len(ctx) - 3
        rep.fail(f"kernel{during}: {line[ts.end():].strip()}", ctx)


def sum_results(paths):
    p = f = s = 0
    for path in paths:
        try:
            with open(path) as fh:
                a, b, c = (int(x) for x in fh.read().split()[:3])
        except (OSError, ValueError):
            print(f"FAIL no results in {path} (the build or the run failed)")
            a, b, c = 0, 1, 0
        p, f, s = p + a, f + b, s + c
    line = f"{p} passed, {f} failed" + (f", {s} skipped" if s else "")
    print(line)
    return 1 if f else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vm", action="store_true", help="judge the init's markers too")
    ap.add_argument("--console", help="kernel console log to scan")
    ap.add_argument("--expected-skips", default=None)
    ap.add_argument("--result", help="write 'passed failed skipped' here")
    ap.add_argument("--label", default="", help="prefix for report lines")
    ap.add_argument("--prefix-summary", action="store_true",
                    help="prefix the summary line with the label too")
    ap.add_argument("--sum", action="store_true", help="add up result files")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()

    if a.sum:
        return sum_results(a.files)

    if a.expected_skips is None:
        here = os.path.dirname(os.path.abspath(__file__))
        a.expected_skips = os.path.join(here, "..", "expected-skips")
    skip_pats = load_expected_skips(a.expected_skips)

    rep = Report(a.label)
    log = a.files[0]
    lines = read_lines(log) if os.path.exists(log) else None
    if lines is None:
        rep.fail(f"log {log} missing")
        tests, markers = [], []
    else:
        tests, markers = split_log(lines, rep)
    for t in tests:
        judge_test(t, rep, skip_pats)
    if a.vm:
        judge_vm_markers(markers, tests, rep)
    if a.console:
        judge_kernel_log(a.console, rep)

    if a.result:
        with open(a.result, "w") as fh:
            fh.write(f"{rep.passed} {rep.failed} {rep.skipped}\n")
    if a.prefix_summary and a.label:
        print(f"{a.label}: {rep.summary()}")
    else:
        print(rep.summary())
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())

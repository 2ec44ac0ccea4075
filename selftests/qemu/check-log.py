#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a test log written by run-tests.sh (and, for the VM, by the init).

The log holds, for each test program:

    @@VRAMPOOL BEGIN <name> timeout=<secs>
    ... kselftest TAP: "TAP version 13", "1..N", "ok N ...", "not ok N ..." ...
    @@VRAMPOOL END <name> rc=<exit code> secs=<elapsed>

plus, in the VM, the init's markers (BOOT, INSMOD, IVSHMEM, BIND, RMMOD,
DONE; on the debug kernel also FAULT_INJECTION, KMEMLEAK_BEGIN/KMEMLEAK,
KUNIT_BEGIN/KUNIT, CANARY/CANARY_END).  The kernel log (the VM's serial
console) is scanned separately.

Every one of these counts as one failure: a "not ok" result; an XPASS; a
missing TAP plan; fewer (or more) results than planned; a program that
crashed, exited non-zero or timed out; a program that never finished;
a skip whose reason matches no line of the expected-skips file; and, with
--vm, a module that failed to load, an ivshmem bind or rmmod that failed,
fault injection that could not be set up, a kmemleak scan that failed,
no tests at all, a VM that never reached DONE, a VM whose BOOT marker
names another release than --kernel (the tier ran on the wrong kernel),
and every kernel report:
WARNING, BUG, Oops, KASAN, lockdep and RCU checks, sleeping in atomic
context, refcount, list corruption, UBSAN, debugobjects (ODEBUG), soft
lockups, hung tasks, RCU and workqueue stalls, and every
object kmemleak finds unreferenced (see KERNEL_PROBLEM_KINDS).  A report
is blamed on what ran: a test, KUnit, or a kmemleak scan.

Two more modes judge the debug kernel's extra suites from the same VM
logs:

  --kunit required|optional   the KUnit results: the KTAP that insmod of
      vrampool_kunit.ko printed on the kernel log (between the init's
      KUNIT_BEGIN and KUNIT markers).  Every test case counts, and every
      parameter of a parameterised case; a "not ok" case, an unexpected
      skip, a suite that does not finish or a short plan is a failure.
      "optional": a missing vrampool_kunit.ko is not a failure (the Kbuild
      does not build one yet).
  --canary    the detector proof: in each CANARY section of the kernel log
      (one deliberate bug of vrampool_canary.ko) the kernel-report scan used
      for every run must find reports of exactly the expected kind, naming
      the canary: use-after-free -> KASAN use-after-free, double-free ->
      KASAN double-free/invalid-free, leak -> kmemleak, ubsan -> UBSAN,
      rcu -> "suspicious RCU usage", soft-lockup -> "soft lockup",
      hung-task -> "blocked for more than", kobject-release -> KASAN
      use-after-free by the delayed release (plus kobject_release()'s
      "(delayed N)" line for the canary's kobject).  Each detector
      proven is one pass, each one that stayed silent (or reported
      something else) one failure.

The last line printed is "N passed, N failed" (", N skipped" when some
expected skips happened).  Exit status: 0 when nothing failed, 1 otherwise.

Usage:
  check-log.py [--vm [--kernel RELEASE]] [--console FILE] [--expected-skips FILE]
               [--result FILE] [--label NAME [--prefix-summary]] LOG
  check-log.py --kunit required|optional --console FILE [--expected-skips FILE]
               [--result FILE] [--label NAME [--prefix-summary]] LOG
  check-log.py --canary --console FILE [--result FILE]
               [--label NAME [--prefix-summary]] LOG
  check-log.py --sum RESULT...    add up result files into one summary line
"""

import argparse
import os
import re
import sys

MARK = "@@VRAMPOOL "
KMSG_MARK = "vrampool-vm: "

# Kernel log lines that fail the run, by kind; the first match decides.
KERNEL_PROBLEM_KINDS = [
    ("kasan-use-after-free", r"KASAN: [\w-]*use-after-free"),
    ("kasan-double-free", r"KASAN: (?:double-free|invalid-free)"),
    ("kasan", r"KASAN:"),
    ("kmemleak", r"unreferenced object 0x"),
    # kmemleak's own line after a scan; it only counts when the objects
    # themselves were not printed (see scan_kernel_reports).
    ("kmemleak-summary", r"kmemleak: \d+ new suspected memory leaks?"),
    # kmemleak warnings about its own bookkeeping, or kmemleak giving up.
    ("kmemleak-error", r"kmemleak: (?:Found object by alias|Freeing unknown|"
     r"Partially freeing unknown|Trying to color unknown|Not resetting|"
     r"Adding scan area to unknown|Scan area larger|Setting excess_ref|"
     r"Not scanning unknown|Updating stack trace for unknown|Cannot allocate|"
     r"Memory pool empty|Kernel memory leak detector disabled)"),
    # lockdep's RCU checks (PROVE_RCU): rcu_dereference() outside a reader.
    ("rcu-lockdep", r"suspicious RCU usage"),
    ("lockdep", r"possible circular locking|possible recursive locking|"
     r"inconsistent lock state|possible irq lock inversion|"
     r"held lock freed|lock held when returning|"
     r"bad unlock balance|lock held at task exit|DEBUG_LOCKS_WARN_ON|"
     r"lockdep is turned off"),
    ("sleep-in-atomic", r"sleeping function called from invalid context|"
     r"scheduling while atomic"),
    ("refcount", r"refcount_t:"),
    ("list-corruption", r"list_\w+ corruption|list_add double add"),
    ("ubsan", r"UBSAN:"),
    # debugobjects (DEBUG_OBJECTS_*): an object freed, re-initialised or
    # destroyed in the wrong state, e.g. a kobject freed while its delayed
    # release (DEBUG_KOBJECT_RELEASE) is pending; or debugobjects giving up.
    ("odebug", r"ODEBUG:"),
    ("soft-lockup", r"soft lockup"),
    ("hung-task", r"blocked for more than \d+ seconds"),
    ("hang", r"detected stalls? on CPU|self-detected stall|hard LOCKUP|"
     r"workqueue lockup"),
    ("oops", r"\bOops\b|general protection|Unable to handle kernel|"
     r"kernel BUG at|double fault|stack-protector|Kernel panic"),
    # SLUB's own checks print "BUG kmalloc-64 (Tainted: ...): ...".
    ("bug", r"BUG:|BUG [\w.:-]+ \((?:Not tainted|Tainted)"),
    ("warning", r"WARNING:"),
]
KERNEL_PROBLEM_RES = [(k, re.compile(r)) for k, r in KERNEL_PROBLEM_KINDS]
KERNEL_PROBLEMS = re.compile("|".join(f"(?:{r})" for _, r in KERNEL_PROBLEM_KINDS))
# Reports that always stand alone: never swallowed as a line of the
# previous report (with kasan_multi_shot, KASAN reports can follow each
# other; kmemleak prints one report per leaked object).
STANDALONE_KINDS = ("kasan-use-after-free", "kasan-double-free", "kasan",
                    "kmemleak", "kmemleak-summary")
KASAN_RULE = "=" * 40
# A kernel log line carries a printk timestamp ("[   12.345678] ").
KERNEL_LINE = re.compile(r"\[\s*\d+\.\d+\] ")

RESULT = re.compile(r"^(ok|not ok)\s+(\d+)\b\s*(.*)$")
DIRECTIVE = re.compile(r"\s#\s*(SKIP|XFAIL|XPASS|TODO|error)\b\s*(.*)$",
                       re.IGNORECASE)
PLAN = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(?:SKIP\b)?\s*(.*))?$", re.IGNORECASE)

KSFT_SKIP = 4
SKIPS_NAME = "the expected-skips file"  # for messages; set by main()
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
        self.failures = []

    def say(self, text):
        print(f"{self.label}: {text}" if self.label else text)

    def fail(self, what, context=()):
        self.failed += 1
        self.failures.append(f"{self.label}: {what}" if self.label else what)
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
        if status == "not ok":  # TODO too: vrampool marks no test as known broken
            nfail += 1
            rep.fail(what + (f" # {reason}" if reason else ""))
        elif directive == "SKIP":
            if skip_expected(skip_pats, f"{t.name} {desc}: {reason}"):
                nskip += 1
            else:
                nfail += 1
                rep.fail(f"{what}: unexpected skip: {reason or '(no reason)'}"
                         f" (not in {SKIPS_NAME})")
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
                     f"{plan_skip or '(no reason)'} (not in {SKIPS_NAME})")
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


# run-vm.sh's CLOCK marker: the guest's uptime at its last console line
# and the host's seconds from QEMU's start to its end, over one boot. The
# guest's clock starts a few seconds late (firmware, loading the kernel);
# beyond these bounds it ran too fast (every timeout fired early: the debug
# kernel's TSC, calibrated on a busy host, once ran 5 times too fast) or
# too slow (a clock on jiffies that lost ticks). Too slow only counts in a
# VM that reached DONE: one that hung printed nothing for its last minutes.
CLOCK_FAST = (1.2, 10)      # guest > host * 1.2 + 10 s
CLOCK_SLOW = (0.8, 20)      # guest < host * 0.8 - 20 s
# --icount: the boot ran under QEMU's -icount, whose clock follows the
# guest's instructions (1 ns each) while it is busy: slow by design, so only
# a fast clock fails.
CLOCK_BY_INSNS = False


def judge_clock(rest, rep, finished):
    f = dict(w.split("=", 1) for w in rest.split() if "=" in w)   # no name first
    try:
        guest, host = float(f["guest"]), float(f["host"])
    except (KeyError, ValueError):
        rep.fail(f"VM: a CLOCK marker without numbers guest= and host= ({f})")
        return
    if (guest > host * CLOCK_FAST[0] + CLOCK_FAST[1] or
            (finished and not CLOCK_BY_INSNS and
             guest < host * CLOCK_SLOW[0] - CLOCK_SLOW[1])):
        rep.fail(f"VM: the guest's clock ran {guest / max(host, 1):.2f} times as fast as the "
                 f"host's ({guest:.0f} s against {host:.0f} s): its timeouts are off")


def judge_kernel_release(markers, want, rep):
    """The BOOT marker's kernel= must be the kernel the tier is meant to boot:
    a tier that silently ran on another kernel has proven nothing about its
    own. Says which kernel ran, for the record."""
    booted = [dict(w.split("=", 1) for w in r.split() if "=" in w).get("kernel")
              for k, r in markers if k == "BOOT"]
    if not booted:
        return
    if not want:
        rep.fail("VM: no kernel release to check against (--kernel is empty: "
                 "was the kernel ever set up?)")
    elif booted[0] != want:
        rep.fail(f"VM: booted kernel {booted[0]}, not the tier's {want}")
    rep.say(f"kernel {booted[0]}")


def judge_vm_markers(markers, tests, rep, kernel=None):
    kinds = [k for k, _ in markers]
    if "BOOT" not in kinds:
        rep.fail("VM: the init never started (no BOOT marker)")
    if kernel is not None:
        judge_kernel_release(markers, kernel, rep)
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
        elif kind == "FAULT_INJECTION" and f.get("rc") != "0":
            rep.fail("VM: fault injection could not be configured "
                     "(no /proc/self/fail-nth or /sys/kernel/debug/fail*)")
        elif kind == "KMEMLEAK" and f.get("rc") != "0":
            rep.fail(f"VM: kmemleak {name}: scan failed (rc={f.get('rc')}): "
                     "the leak detector is off")
        elif kind == "CLOCK":
            judge_clock(rest, rep, "DONE" in kinds)
        elif kind == "ERROR":
            rep.fail(f"VM: {rest}")
    if "DONE" not in kinds:
        last = f" (last marker: {markers[-1][0]} {markers[-1][1]})" if markers else ""
        if tests and tests[-1].end is None:
            last = f" (while {tests[-1].name} ran)"
        rep.fail(f"VM: did not reach the end: kernel panic, hang or timeout{last}")
    elif module_loaded and not tests:
        rep.fail("VM: no tests ran (no *_test or *_test.sh in the initramfs)")


def kernel_kind(text):
    for kind, rx in KERNEL_PROBLEM_RES:
        if rx.search(text):
            return kind
    return None


def kernel_context(lines, i, kind):
    """The lines around a kernel report: a little before, then up to the
    end of the splat (or the next test marker), at most 25 lines.
    Returns (context, index of its last line)."""
    ctx = lines[max(0, i - 2): i + 1]
    last = i
    for j in range(i + 1, min(len(lines), i + 25)):
        line = lines[j]
        if KMSG_MARK in line:
            break
        if kind.startswith("kmemleak") and (
                "unreferenced object 0x" in line or "new suspected memory leak" in line):
            break
        ctx.append(line)
        last = j
        if "---[ end" in line:
            break
        if kind.startswith("kasan") and KASAN_RULE in line:
            break
    return ctx, last


class KernelReport:
    def __init__(self, kind, text, during, section, ctx):
        self.kind = kind
        self.text = text        # the report's first line, without timestamp
        self.during = during    # what ran: a test, KUnit, a kmemleak scan...
        self.section = section  # the canary bug being triggered, if any
        self.ctx = ctx

    def what(self):
        during = f" (during {self.during})" if self.during else ""
        return f"kernel{during}: {self.text}"


def marker_context(kind, rest):
    """What a kernel-log marker says is running now (None: nothing)."""
    name = marker_fields(rest)[0]
    return {
        "BEGIN": name,
        "KUNIT_BEGIN": f"KUnit {name}",
        "KMEMLEAK_BEGIN": f"kmemleak scan {name}",
        "CANARY": f"canary {name}",
    }.get(kind)


def kmsg_walk(lines):
    """Each kernel log line as (index, line, marker, section): marker is
    (kind, rest) for the init's markers, else None; section is the canary
    bug being triggered (between CANARY and CANARY_END), else None."""
    section = None
    for i, line in enumerate(lines):
        k = line.find(KMSG_MARK)
        if k < 0:
            yield i, line, None, section
            continue
        kind, _, rest = line[k + len(KMSG_MARK):].partition(" ")
        if kind == "CANARY":
            section = marker_fields(rest)[0]
        elif kind == "CANARY_END":
            section = None
        yield i, line, (kind, rest), section


def scan_kernel_reports(lines):
    """Every kernel report in a console log, one per splat."""
    reports = []
    seen = set()
    running = None
    splat_end = -1          # last line of the previous report's context
    leaks_since_summary = 0
    for i, line, marker, section in kmsg_walk(lines):
        if marker:
            running = marker_context(*marker)
            continue
        ts = KERNEL_LINE.search(line)
        if not ts:
            continue
        text = line[ts.start():]
        kind = kernel_kind(text)
        if kind is None or text in seen:
            continue
        seen.add(text)
        if kind == "kmemleak-summary":
            # "N new suspected memory leaks": the objects were printed
            # before it (verbose kmemleak); count it only if they were not.
            if leaks_since_summary:
                leaks_since_summary = 0
                continue
        elif i <= splat_end and kind not in STANDALONE_KINDS:
            continue  # part of the report just shown (e.g. BUG, Oops, panic)
        if kind == "kmemleak":
            leaks_since_summary += 1
        ctx, splat_end = kernel_context(lines, i, kind)
        reports.append(KernelReport(kind, line[ts.end():].strip(), running,
                                    section, ctx))
    return reports


# Leaks of the kernel's own code that vrampool's tests trigger but cannot
# avoid, each recognised by its allocation backtrace: frames that must
# follow one another, innermost first. Such a report is printed with its
# reason and does not fail the run; any other leak does. Keep this list
# short, every entry a kernel bug with the code that shows it.
KNOWN_KERNEL_LEAKS = (
    # 7.3's ttm_pool_type_fini() walks the type's list_lru but never calls
    # list_lru_destroy() on it: each time TTM's globals are released (the
    # last TTM device going, as at every reload of vrampool.ko) the
    # per-node array __list_lru_init() allocated for each pool type leaks.
    ("TTM's pool types never destroy their list_lru (7.3 ttm_pool_type_fini())",
     ("__list_lru_init", "ttm_pool_type_init", "ttm_pool_mgr_init", "ttm_global_init")),
)


def known_kernel_leak(report):
    """The reason a kmemleak report is a known kernel leak, or None."""
    if report.kind != "kmemleak":
        return None
    frames = []
    for line in report.ctx:
        m = re.search(r"kmemleak:\s+([A-Za-z0-9_.]+)\+0x", line)
        if m:
            frames.append(m.group(1))
    for reason, chain in KNOWN_KERNEL_LEAKS:
        for k in range(len(frames) - len(chain) + 1):
            if tuple(frames[k:k + len(chain)]) == chain:
                return reason
    return None


def judge_kernel_log(path, rep):
    if not os.path.exists(path):
        rep.fail(f"kernel: console log {path} missing")
        return
    for r in scan_kernel_reports(read_lines(path)):
        reason = known_kernel_leak(r)
        if reason:
            rep.say(f"known kernel leak, not vrampool's: {r.what().rstrip(':')}: {reason}")
            continue
        rep.fail(r.what(), r.ctx)


# --- KUnit -------------------------------------------------------------------

KTAP_VERSION = re.compile(r"^( *)KTAP version \d+\s*$")
KTAP_SUBTEST = re.compile(r"^( *)# Subtest: (.*?)\s*$")
KTAP_PLAN = re.compile(r"^( *)1\.\.(\d+)\s*$")
KTAP_RESULT = re.compile(r"^( *)(ok|not ok) (\d+)(?: (.*))?$")
# KUnit's own count for the suite that ends next (params counted one by one).
KTAP_TOTALS = re.compile(r"^# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)")
KTAP_INDENT = 4


class KtapNode:
    """A KTAP result. Leaves are what counts: a case, or each parameter of a
    parameterised case; a suite or a case with parameters adds up its own."""
    def __init__(self, name):
        self.name = name
        self.passed = self.failed = self.skipped = 0
        self.leaves = 0

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.leaves += other.leaves


def kunit_section(lines):
    """The kernel log lines (timestamps stripped) from the init's
    KUNIT_BEGIN marker to the next marker (or the end of the log)."""
    body, inside = [], False
    for line in lines:
        k = line.find(KMSG_MARK)
        if k >= 0:
            kind = line[k + len(KMSG_MARK):].partition(" ")[0]
            if kind == "KUNIT_BEGIN":
                inside, body = True, []
            elif inside:
                break
            continue
        if inside:
            ts = KERNEL_LINE.search(line)
            if ts:
                body.append(line[ts.end():])
    return body


def judge_ktap(body, rep, skip_pats, finished=True):
    """Count the KUnit results in KTAP text; return the number of KTAP
    headers seen. finished=False: the output was cut short (the kernel
    died during insmod); what is there counts, and the caller reports
    the crash once, so unfinished suites and short plans are not."""
    pending = {}   # depth -> results at that depth not yet claimed by a parent
    plans = {}     # depth -> "1..N" of the test list at that depth
    names = {}     # depth -> "# Subtest:" name of the list at that depth
    totals = None  # the last "# Totals:" line, for the suite that ends next
    headers = 0

    def fullname(depth, desc):
        return ".".join([names[d] for d in range(1, depth + 1) if d in names] + [desc])

    for text in body:
        m = KTAP_VERSION.match(text)
        if m:
            d = len(m.group(1)) // KTAP_INDENT
            headers += 1
            for dd in [x for x in set(plans) | set(names) if x >= d]:
                plans.pop(dd, None)
                names.pop(dd, None)
            continue
        m = KTAP_SUBTEST.match(text)
        if m:
            names[len(m.group(1)) // KTAP_INDENT] = m.group(2)
            continue
        m = KTAP_PLAN.match(text)
        if m:
            plans[len(m.group(1)) // KTAP_INDENT] = int(m.group(2))
            continue
        m = KTAP_TOTALS.match(text)
        if m:
            totals = tuple(int(x) for x in m.groups())
            continue
        m = KTAP_RESULT.match(text)
        if not m or not headers:
            continue
        d = len(m.group(1)) // KTAP_INDENT
        status, num, rest = m.group(2), m.group(3), (m.group(4) or "")
        dm = DIRECTIVE.search(" " + rest)
        if dm:
            desc = (" " + rest)[: dm.start()].strip()
            directive, reason = dm.group(1).upper(), dm.group(2).strip()
        else:
            desc, directive, reason = rest.strip(), "", ""
        node = KtapNode(fullname(d, desc))
        children = pending.pop(d + 1, [])
        planned = plans.pop(d + 1, None)
        names.pop(d + 1, None)
        for c in children:
            node.add(c)
        if planned is not None and planned != len(children):
            node.failed += 1
            rep.fail(f"{node.name}: KTAP plan 1..{planned} but {len(children)} results")
        if children:
            if status == "not ok" and not node.failed:
                node.failed += 1
                rep.fail(f"{node.name}: not ok {num}" + (f" # {reason}" if reason else ""))
        else:
            node.leaves = 1
            if status == "not ok":  # TODO too: vrampool marks no test as known broken
                node.failed += 1
                rep.fail(f"{node.name}: not ok {num}" + (f" # {reason}" if reason else ""))
            elif directive == "SKIP":
                if skip_expected(skip_pats, f"kunit {node.name}: {reason}"):
                    node.skipped += 1
                else:
                    node.failed += 1
                    rep.fail(f"{node.name}: unexpected skip: {reason or '(no reason)'}"
                             f" (not in {SKIPS_NAME})")
            else:
                node.passed += 1
        if d == 0:
            if totals is not None and totals[3] != node.leaves:
                node.failed += 1
                rep.fail(f"{node.name}: {node.leaves} results on the log but KUnit "
                         f"counted {totals[3]} (# Totals): lines lost?")
            totals = None
        pending.setdefault(d, []).append(node)

    # Results whose parents never printed their own line.
    for d in sorted((x for x in pending if x > 0), reverse=True):
        orphans = pending.pop(d)
        parent = KtapNode(fullname(d - 1, names.get(d, "?")) if d > 1
                          else names.get(d, "?"))
        for c in orphans:
            parent.add(c)
        if finished:
            parent.failed += 1
            rep.fail(f"{parent.name}: did not finish (no result line after "
                     f"{len(orphans)} results)")
        pending.setdefault(d - 1, []).append(parent)
    suites = pending.get(0, [])
    if finished and 0 in plans and plans[0] != len(suites):
        rep.fail(f"KUnit: KTAP plan 1..{plans[0]} but {len(suites)} suites")
    # rep.fail() counted every failure already; the nodes' own failure
    # counts are for the per-suite lines.
    for sn in suites:
        rep.passed += sn.passed
        rep.skipped += sn.skipped
        state = "FAIL" if sn.failed else "ok  "
        extra = f", {sn.skipped} skipped" if sn.skipped else ""
        rep.say(f"{state} {sn.name}: {sn.passed} passed, {sn.failed} failed{extra}")
    return headers


def judge_kunit(log_lines, console, rep, skip_pats, required):
    _, markers = split_log(log_lines, rep) if log_lines is not None else ([], [])
    began = [r for k, r in markers if k == "KUNIT_BEGIN"]
    ended = [r for k, r in markers if k == "KUNIT"]
    if ended:
        name, f = marker_fields(ended[-1])
        if f.get("rc") == "missing":
            if required:
                rep.fail(f"KUnit: {name} missing from the initramfs, but Kbuild builds it")
            else:
                rep.say(f"no {name}: Kbuild does not build it yet (nothing to run)")
            return
    elif not began:
        rep.fail("KUnit: never ran (the VM stopped before it)")
        return
    name = marker_fields((ended or began)[-1])[0]
    if not os.path.exists(console):
        rep.fail(f"KUnit: console log {console} missing")
        return
    finished = bool(ended)
    if not finished:
        rep.fail(f"KUnit: insmod {name} never returned (the kernel died or hung)")
    elif marker_fields(ended[-1])[1].get("rc") != "0":
        rep.fail(f"KUnit: insmod {name} failed "
                 f"(rc={marker_fields(ended[-1])[1].get('rc')})")
    if not judge_ktap(kunit_section(read_lines(console)), rep, skip_pats, finished):
        rep.fail(f"KUnit: no KTAP output from {name} on the kernel log")


# --- Canary --------------------------------------------------------------------

CANARY_EXPECT = [
    # bug, detector, report kinds that prove it
    ("use-after-free", "KASAN use-after-free", ("kasan-use-after-free",)),
    ("double-free", "KASAN double-free", ("kasan-double-free",)),
    ("leak", "kmemleak", ("kmemleak",)),
    ("ubsan", "UBSAN bounds", ("ubsan",)),
    ("rcu", "lockdep's RCU checks", ("rcu-lockdep",)),
    ("soft-lockup", "the soft-lockup detector", ("soft-lockup",)),
    ("hung-task", "the hung-task detector", ("hung-task",)),
    ("kobject-release", "DEBUG_KOBJECT_RELEASE (with KASAN)", ("kasan-use-after-free",)),
]
# A line the section must hold besides the reports: proof that the detector
# did its part (kobject_release() printed that it delays the canary
# kobject's release; without the delay the free would be no bug at all).
# It stands in for the canary's name, which the reports of a delayed
# release (from the timer and the workqueue) do not carry.
CANARY_PROOF = {
    "kobject-release": re.compile(
        r"'vrampool_canary' \([0-9a-fx]+\): kobject_release, parent \w+ \(delayed \d+\)"),
}


def canary_sections(lines):
    """Kernel log lines by the canary bug being triggered."""
    sections = {}
    for _, line, marker, section in kmsg_walk(lines):
        if not marker and section is not None:
            sections.setdefault(section, []).append(line)
    return sections


def canary_leak_hint(bug, sections, log_lines):
    """For a silent kmemleak: what the trigger said and what the list held."""
    if bug != "leak":
        return ""
    said = [line for line in sections.get(bug, []) if "vrampool_canary: leaked" in line]
    listed = sum("unreferenced object 0x" in line for line in log_lines or [])
    # What kmemleak said of the first object when the init dumped it.
    dumped = [m.group(1) + " " + m.group(2) for m in
              (re.search(r"kmemleak:\s+(min_count|count|flags|checksum) = (\S+)", line)
               for line in sections.get(bug, [])) if m][:4]
    return (f" (the trigger {'printed: ' + said[0].strip() if said else 'printed nothing'};"
            f" kmemleak's list held {listed} object(s)"
            + (f"; kmemleak's record of the first: {', '.join(dumped)}" if dumped else "")
            + ")")


def judge_canary(log_lines, console, rep):
    _, markers = split_log(log_lines, rep) if log_lines is not None else ([], [])
    ends = {}
    for kind, rest in markers:
        name, f = marker_fields(rest)
        if kind == "INSMOD" and f.get("rc") != "0":
            rep.say(f"insmod {name} failed (rc={f.get('rc')}): nothing was triggered")
        elif kind == "CANARY_END":
            ends[name] = f.get("rc")
        elif kind == "KMEMLEAK" and f.get("rc") != "0":
            rep.say(f"kmemleak {rest}: a scan failed")
        elif kind == "ERROR":
            rep.fail(f"VM: {rest}")
    console_lines = read_lines(console) if os.path.exists(console) else []
    reports = scan_kernel_reports(console_lines)
    sections = canary_sections(console_lines)
    if not os.path.exists(console):
        rep.say(f"console log {console} missing")
    for bug, detector, kinds in CANARY_EXPECT:
        got = [r for r in reports if r.section == bug]
        if bug not in ends:
            rep.fail(f"{bug}: not triggered (the VM stopped before), so {detector} is unproven")
            continue
        wrong = [r for r in got if r.kind not in kinds]
        ours = [r for r in got if r.kind in kinds
                and (bug in CANARY_PROOF
                     or any("vrampool_canary" in line for line in r.ctx))]
        proof = CANARY_PROOF.get(bug)
        if ours and not wrong and proof and not any(
                proof.search(line) for line in sections.get(bug, [])):
            rep.fail(f"{bug}: {detector}: a report but no line matching "
                     f"/{proof.pattern}/", [line for r in got for line in r.ctx][:30])
        elif ours and not wrong:
            rep.passed += 1
            rep.say(f"ok   {bug}: caught by {detector}, and it fails a run: {ours[0].text}")
        elif not got:
            rep.fail(f"{bug}: {detector} reported nothing: the detector is silent"
                     + canary_leak_hint(bug, sections, log_lines))
        else:
            rep.fail(f"{bug}: expected only {detector} reports naming vrampool_canary, got "
                     + ", ".join(f"{r.kind} ({r.text})" for r in got),
                     [line for r in got for line in r.ctx][:30])
    for r in reports:
        if r.section is None:
            rep.fail(r.what() + " (outside the canary's bugs)", r.ctx)
    if "DONE" not in [k for k, _ in markers]:
        rep.fail("VM: did not reach the end: kernel panic, hang or timeout")


def sum_results(paths):
    """The total of every result file, after the list of what failed: a
    log's tail (all CI shows) then names each failure."""
    p = f = s = 0
    failures = []
    for path in paths:
        try:
            with open(path) as fh:
                first, *rest = fh.read().split("\n")
                a, b, c = (int(x) for x in first.split()[:3])
            failures += [line for line in rest if line.strip()]
        except (OSError, ValueError):
            failures.append(f"no results in {path} (the build or the run failed)")
            a, b, c = 0, 1, 0
        p, f, s = p + a, f + b, s + c
    for what in failures:
        print(f"FAILED {what}")
    line = f"{p} passed, {f} failed" + (f", {s} skipped" if s else "")
    print(line)
    return 1 if f else 0


def main():
    global SKIPS_NAME, CLOCK_BY_INSNS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vm", action="store_true", help="judge the init's markers too")
    ap.add_argument("--console", help="kernel console log to scan")
    ap.add_argument("--expected-skips", default=None)
    ap.add_argument("--icount", action="store_true",
                    help="with --vm: the guest's clock followed its instructions"
                    " (QEMU -icount): a slow clock is no failure")
    ap.add_argument("--kernel", default=None,
                    help="with --vm: the release the BOOT marker must name")
    ap.add_argument("--result", help="write 'passed failed skipped' here")
    ap.add_argument("--label", default="", help="prefix for report lines")
    ap.add_argument("--prefix-summary", action="store_true",
                    help="prefix the summary line with the label too")
    ap.add_argument("--sum", action="store_true", help="add up result files")
    ap.add_argument("--kunit", choices=("required", "optional"),
                    help="judge the KUnit results on the console log instead")
    ap.add_argument("--canary", action="store_true",
                    help="judge the detector proof (canary VM) instead")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()

    if a.sum:
        return sum_results(a.files)

    if a.expected_skips:
        SKIPS_NAME = os.path.basename(a.expected_skips)
    CLOCK_BY_INSNS = a.icount
    skip_pats = load_expected_skips(a.expected_skips)

    rep = Report(a.label)
    log = a.files[0]
    lines = read_lines(log) if os.path.exists(log) else None
    if lines is None:
        rep.fail(f"log {log} missing")
    if (a.kunit or a.canary) and not a.console:
        ap.error("--kunit and --canary need --console")
    if a.kunit:
        judge_kunit(lines, a.console, rep, skip_pats, a.kunit == "required")
    elif a.canary:
        judge_canary(lines, a.console, rep)
    else:
        tests, markers = split_log(lines, rep) if lines is not None else ([], [])
        for t in tests:
            judge_test(t, rep, skip_pats)
        if a.vm:
            judge_vm_markers(markers, tests, rep, a.kernel)
        if a.console:
            judge_kernel_log(a.console, rep)

    if a.result:
        try:
            with open(a.result, "w") as fh:
                fh.write(f"{rep.passed} {rep.failed} {rep.skipped}\n")
                for what in rep.failures:
                    fh.write(what.replace("\n", " ") + "\n")
        except OSError as e:
            # The judgement stands; --sum then names the missing file.
            print(f"{a.label or 'check-log'}: cannot write the result file: {e}",
                  file=sys.stderr)
            rep.failed += 1
    if a.prefix_summary and a.label:
        print(f"{a.label}: {rep.summary()}")
    else:
        print(rep.summary())
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())

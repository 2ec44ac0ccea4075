#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make mutants: plant each bug of tests/mutants/mutants.list and run the
tests that should catch it.

For each mutant, in turn:
  1. the module's source is synced into build/mutants/src-TIER/ (rsync
     without modification times, by checksum: a file that differs from the
     repository's, the previous mutant's above all, is written anew with
     the current time, so kbuild rebuilds it and nothing else);
  2. its one-line change is made there: its from: text must occur exactly
     once in its file, else the mutant is NOT-APPLIED (the list has gone
     stale);
  3. the module is built there (build/mutants/ID/build.log), against
     Debian's headers (tier debian) or the debug kernel (tier debug, with
     vrampool_kunit.ko); a failure is BUILD-FAILED;
  4. an initramfs with that module and the kselftests of build/selftests
     (built once, from the unchanged tree) is booted in a VM running only
     the mutant's tests (run-vm.sh, VM name mutant-ID; its logs are moved
     to build/mutants/ID/);
  5. check-log.py judges the logs (build/mutants/ID/judge.log and result):
     CAUGHT when at least one test program (or KUnit case) failed, naming
     them; SURVIVED when everything passed; ERROR when only the VM or the
     kernel failed (a boot that went wrong, a kernel report) and no test
     said anything: such a run tells nothing about the tests.

Before the mutants, each tier's VM runs the union of their tests once on
the unchanged source (the baseline, in build/mutants/baseline-TIER/): a
test that fails there cannot catch anything, so a failed baseline fails
the run (MUTANTS_BASELINE=0 skips it).

The report (build/mutants/report, also printed) has one line per mutant;
the exit status is 1 if any mutant was not caught, did not apply or did
not build, or a baseline failed.

Usage: run-mutants.py [--list FILE] [--no-baseline] [--check] [--tests NAMES]
                      [--report NAME] [ID...]
--check only checks that every from: text occurs once (no build, no VM).
--tests runs every mutant against NAMES instead of its own tests (make
mutants-fuzz: the fuzzer alone, which must catch what it claims to model);
--report names the report file in build/mutants/ (default: report).
Environment (the Makefile sets them): KVER, KDIR, DBG_KDIR, DBG_KVER,
DBG_BZIMAGE, DBG_ROOT, TEST_TIMEOUT, DEBUG_TEST_TIMEOUT, VM_TIMEOUT,
DEBUG_VM_TIMEOUT, VM_APPEND.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(ROOT, "build")
OUT = os.path.join(BUILD, "mutants")
QEMU = os.path.join(ROOT, "selftests", "qemu")
FIELDS = ("id", "file", "from", "to", "why", "tests", "tier")
TIERS = ("debian", "debug")

# The module's source, as the Makefile's RSYNC_SRC copies it; no -t: a
# changed file gets the current time (see above). Objects in the copy are
# excluded, so --delete keeps them.
RSYNC = ["rsync", "-rlpc", "--delete", "--exclude=/build/", "--exclude=/.git/",
         "--exclude=*.o", "--exclude=*.ko", "--exclude=*.mod", "--exclude=*.mod.c",
         "--exclude=.*.cmd", "--exclude=.*.d", "--exclude=*.a", "--exclude=.*.tmp",
         "--exclude=.tmp_*", "--exclude=Module.symvers", "--exclude=modules.order",
         # The API probes' result is the kernel's (the repository's copy is
         # the Debian kernel's): each copy probes for its own.
         "--exclude=vrampool_compat_probed.h*"]


def env(name, default=None):
    v = os.environ.get(name, "")
    if v:
        return v
    if default is None:
        sys.exit(f"run-mutants: {name} is not set (run it through make mutants)")
    return default


def unescape(text):
    return text.replace("\\t", "\t")


def parse_list(path):
    """The mutants of @path, in order: a list of dicts (FIELDS)."""
    mutants, cur = [], {}

    def close(lineno):
        if not cur:
            return
        missing = [f for f in FIELDS if f not in cur and f != "tier"]
        if missing:
            sys.exit(f"{path}:{lineno}: mutant {cur.get('id', '?')}: no {', '.join(missing)}")
        cur.setdefault("tier", "debian")
        if cur["tier"] not in TIERS:
            sys.exit(f"{path}:{lineno}: mutant {cur['id']}: tier {cur['tier']} is not one of {TIERS}")
        if not re.fullmatch(r"[A-Za-z0-9_-]+", cur["id"]):
            sys.exit(f"{path}:{lineno}: bad id {cur['id']!r}")
        if any(m["id"] == cur["id"] for m in mutants):
            sys.exit(f"{path}:{lineno}: mutant {cur['id']} listed twice")
        cur["tests"] = cur["tests"].split()
        if "kunit" in cur["tests"] and cur["tier"] != "debug":
            sys.exit(f"{path}:{lineno}: mutant {cur['id']}: kunit needs tier: debug")
        if not [t for t in cur["tests"] if t != "kunit"]:
            sys.exit(f"{path}:{lineno}: mutant {cur['id']}: no kselftest named")
        mutants.append(dict(cur))
        cur.clear()

    with open(path, encoding="utf-8") as f:
        lineno = 0
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                close(lineno)
                continue
            key, sep, value = line.partition(": ")
            if not sep or key not in FIELDS:
                sys.exit(f"{path}:{lineno}: expected one of {', '.join(FIELDS)}: {line!r}")
            if key in cur:
                sys.exit(f"{path}:{lineno}: {key} given twice")
            cur[key] = unescape(value) if key in ("from", "to") else value.strip()
        close(lineno)
    return mutants


def run(cmd, log, **kw):
    """Runs @cmd with its output appended to @log; its exit status."""
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        return subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, **kw)


def sync_source(src, log):
    os.makedirs(src, exist_ok=True)
    if run(RSYNC + [ROOT + "/", src + "/"], log):
        raise RuntimeError(f"rsync into {src} failed (see {log})")


def apply(m, src):
    """Makes @m's change in @src; None, or why it could not."""
    path = os.path.join(src, m["file"])
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return f"{m['file']}: {e.strerror}"
    n = text.count(m["from"])
    if n != 1:
        return f"{m['file']}: from: text found {n} times, not once: {m['from']!r}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(m["from"], m["to"]))
    return None


class Tier:
    def __init__(self, name):
        self.name = name
        self.src = os.path.join(OUT, f"src-{name}")
        self.initrd = os.path.join(OUT, f"initramfs-{name}.cpio")
        if name == "debian":
            self.kver = env("KVER")
            self.kdir = env("KDIR")
            self.skips = os.path.join(ROOT, "selftests", "expected-skips.debian")
            self.timeout = env("TEST_TIMEOUT", "300")
            self.vm_timeout = env("VM_TIMEOUT", "900")
        else:
            self.kver = env("DBG_KVER")
            self.kdir = env("DBG_KDIR")
            self.skips = os.path.join(ROOT, "selftests", "expected-skips.debug")
            self.timeout = env("DEBUG_TEST_TIMEOUT", "900")
            self.vm_timeout = env("DEBUG_VM_TIMEOUT", "1800")

    def build(self, log):
        """Builds the module in the tier's source copy; whether it built."""
        if run(["make", "-C", self.kdir, f"M={self.src}", "modules"], log):
            return False
        cmd = [os.path.join(QEMU, "mkinitramfs.sh"), "-k", self.kver, "-o", self.initrd,
               "-m", os.path.join(self.src, "vrampool.ko"),
               "-t", os.path.join(BUILD, "selftests"),
               "-b", os.path.join(BUILD, "userspace", "vrampoolctl-static")]
        if self.name == "debug":
            cmd += ["-r", env("DBG_ROOT"), "-e", os.path.join(self.src, "vrampool_kunit.ko")]
        return run(cmd, log) == 0

    def boot(self, name, tests, kunit, log):
        """Runs @tests in a VM named @name; the paths of its logs."""
        cmd = [os.path.join(QEMU, "run-vm.sh"), "--mode", "check", "--name", name,
               "--initrd", self.initrd, "--tests", " ".join(tests)]
        append = f"vrampool.timeout={self.timeout} {os.environ.get('VM_APPEND', '')}"
        if self.name == "debug":
            cmd += ["--tier", "debug", "--kernel", env("DBG_BZIMAGE")]
            if not kunit:
                append += " vrampool.kunit=0"
        cmd += ["--timeout", self.vm_timeout, "--append", append.strip()]
        run(cmd, log)
        return (os.path.join(BUILD, "vm", f"{name}.log"),
                os.path.join(BUILD, "vm", f"{name}.console.log"))

    def judge(self, vmlog, console, kunit, outdir):
        """check-log.py's verdicts: (failure lines, whether all passed)."""
        judge_log = os.path.join(outdir, "judge.log")
        results = [("vm", os.path.join(outdir, "result"),
                    ["--vm", "--console", console, "--expected-skips", self.skips])]
        if kunit:
            results.append(("kunit", os.path.join(outdir, "kunit.result"),
                            ["--kunit", "required", "--console", console,
                             "--expected-skips", self.skips]))
        failures, ok = [], True
        for label, result, opts in results:
            cmd = ["python3", os.path.join(QEMU, "check-log.py"), "--label", label,
                   "--result", result] + opts + [vmlog]
            if run(cmd, judge_log):
                ok = False
            try:
                with open(result, encoding="utf-8") as f:
                    failures += [line.rstrip("\n") for line in f.readlines()[1:] if line.strip()]
            except OSError:
                failures.append(f"{label}: no result written (see {judge_log})")
                ok = False
        return failures, ok


def caught_by(failures):
    """The test programs and KUnit suites named by @failures, and the rest.

    A result line is "LABEL: WHAT: DETAIL"; WHAT is a program for a test's
    failure, "VM" or "kernel (during ...)" for the VM's and the kernel's.
    The programs come back as "PROGRAM: CASE, CASE (+N more)", a TAP
    failure's case being what follows its "not ok N".
    """
    tests, other = {}, []
    for line in failures:
        label, _, rest = line.partition(": ")
        what, _, detail = rest.partition(": ")
        case = re.sub(r"^not ok \d+ ", "", detail)
        if label == "kunit" and not what.startswith("KUnit"):
            tests.setdefault("KUnit", []).append(what)
        elif label == "vm" and what.startswith("vrampool_"):
            tests.setdefault(what, []).append(case)
        else:
            other.append(line)
    named = []
    for prog, cases in tests.items():
        more = f" (+{len(cases) - 3} more)" if len(cases) > 3 else ""
        named.append(f"{prog}: {', '.join(cases[:3])}{more}")
    return named, other


def move_logs(vmlog, console, outdir):
    for path in (vmlog, console):
        if os.path.exists(path):
            shutil.move(path, os.path.join(outdir, os.path.basename(path)))
    return (os.path.join(outdir, os.path.basename(vmlog)),
            os.path.join(outdir, os.path.basename(console)))


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def baseline(tier, mutants):
    """Runs the union of @mutants' tests on the unchanged source: (ok, text)."""
    outdir = fresh_dir(os.path.join(OUT, f"baseline-{tier.name}"))
    log = os.path.join(outdir, "build.log")
    tests = sorted({t for m in mutants for t in m["tests"] if t != "kunit"})
    kunit = any("kunit" in m["tests"] for m in mutants)
    sync_source(tier.src, log)
    if not tier.build(log):
        return False, f"BASELINE {tier.name}: the unchanged module did not build (see {log})"
    vmlog, console = tier.boot(f"mutant-baseline-{tier.name}", tests, kunit,
                               os.path.join(outdir, "vm.out"))
    vmlog, console = move_logs(vmlog, console, outdir)
    failures, ok = tier.judge(vmlog, console, kunit, outdir)
    what = " ".join(tests) + (" + KUnit" if kunit else "")
    if ok:
        return True, f"baseline {tier.name}: passed ({what})"
    return False, (f"BASELINE {tier.name} FAILED ({what}): a test that fails on the "
                   "unchanged driver catches nothing:\n" +
                   "\n".join("    " + f for f in failures))


def try_mutant(m, tier):
    """Plants @m, builds, boots, judges: (outcome, detail)."""
    outdir = fresh_dir(os.path.join(OUT, m["id"]))
    log = os.path.join(outdir, "build.log")
    sync_source(tier.src, log)
    why = apply(m, tier.src)
    if why:
        return "NOT-APPLIED", why
    subprocess.call(["diff", "-u", os.path.join(ROOT, m["file"]),
                     os.path.join(tier.src, m["file"])],
                    stdout=open(os.path.join(outdir, "diff"), "w", encoding="utf-8"))
    if not tier.build(log):
        return "BUILD-FAILED", f"see {os.path.relpath(log, ROOT)}"
    tests = [t for t in m["tests"] if t != "kunit"]
    kunit = "kunit" in m["tests"]
    vmlog, console = tier.boot(f"mutant-{m['id']}", tests, kunit,
                               os.path.join(outdir, "vm.out"))
    vmlog, console = move_logs(vmlog, console, outdir)
    failures, ok = tier.judge(vmlog, console, kunit, outdir)
    if ok:
        return "SURVIVED", "every test passed: " + " ".join(m["tests"])
    tests, other = caught_by(failures)
    if tests:
        return "CAUGHT", "by " + "; ".join(tests)
    return "ERROR", ("no test failed, but: " + "; ".join(other) +
                     f" (see {os.path.relpath(outdir, ROOT)}/)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", default=os.path.join(ROOT, "tests", "mutants", "mutants.list"))
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="only check that each mutant's from: text occurs once")
    ap.add_argument("--tests", help="run every mutant against these tests instead")
    ap.add_argument("--report", default="report", help="the report's name in build/mutants/")
    ap.add_argument("ids", nargs="*", help="only these mutants (default: all)")
    a = ap.parse_args()

    mutants = parse_list(a.list)
    if a.tests:
        for m in mutants:
            m["tests"] = a.tests.split()
            m["tier"] = "debug" if "kunit" in m["tests"] else "debian"
    if a.ids:
        known = {m["id"] for m in mutants}
        unknown = [i for i in a.ids if i not in known]
        if unknown:
            sys.exit(f"run-mutants: no mutant {', '.join(unknown)} in {a.list}")
        mutants = [m for m in mutants if m["id"] in a.ids]
    if a.check:
        bad = 0
        for m in mutants:
            try:
                with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as f:
                    n = f.read().count(m["from"])
            except OSError as e:
                n, bad = e.strerror, bad + 1
            if n != 1:
                bad += 1
                print(f"NOT-APPLIED {m['id']}: {m['file']}: from: text found {n} times")
        print(f"{len(mutants) - bad} of {len(mutants)} mutants apply")
        return 1 if bad else 0
    os.makedirs(OUT, exist_ok=True)
    start = time.time()

    lines, failed = [], False
    tiers = {}
    for name in TIERS:
        mine = [m for m in mutants if m["tier"] == name]
        if not mine:
            continue
        tiers[name] = Tier(name)
        if a.no_baseline:
            continue
        print(f"mutants: baseline for the {name} tier ...", flush=True)
        ok, text = baseline(tiers[name], mine)
        print(text, flush=True)
        lines.append(text)
        failed |= not ok

    counts = {}
    for m in mutants:
        t0 = time.time()
        print(f"mutants: {m['id']} ({m['tier']}): {m['why']} ...", flush=True)
        outcome, detail = try_mutant(m, tiers[m["tier"]])
        counts[outcome] = counts.get(outcome, 0) + 1
        failed |= outcome != "CAUGHT"
        line = (f"{outcome:<12} {m['id']:<30} {m['file']}: {m['why']}\n"
                f"{'':13}{detail} [{time.time() - t0:.0f} s]")
        print(line, flush=True)
        lines.append(line)
    # Leave the copies as the repository has them.
    for tier in tiers.values():
        sync_source(tier.src, os.path.join(OUT, "sync.log"))

    summary = (", ".join(f"{n} {o.lower()}" for o, n in sorted(counts.items())) +
               f" of {len(mutants)} mutants in {time.time() - start:.0f} s")
    report = "\n".join(lines + [summary]) + "\n"
    with open(os.path.join(OUT, a.report), "w", encoding="utf-8") as f:
        f.write(report)
    print(f"\n== mutants report (build/mutants/{a.report})\n" + report, end="")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

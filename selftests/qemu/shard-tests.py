#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Split the VM's test programs into N shards of about equal run time.

The debug kernel runs them several times slower than Debian's, and its VM
uses a single CPU: "make check" boots one debug VM per shard, at once.

Usage: shard-tests.py SHARDS INDEX TESTS_DIR [--only "a_test b.sh"]
                      [--durations FILE] [LOG...]

Prints the names of shard INDEX (1-based), space-separated, sorted. The
programs are every executable *_test and *_test.sh in TESTS_DIR (what
run-tests.sh would run), or those of --only. Their durations come from the
END markers of earlier logs (the last one seen wins), else from --durations
(lines "NAME SECONDS", a debug run's, committed so that a fresh clone, as
CI's, splits as evenly as a warm tree); a program in neither counts as the
median of the others. Longest first, each goes to the least loaded shard;
ties go to the lower shard, so the split is deterministic.
"""

import os
import re
import sys

END = re.compile(r"@@VRAMPOOL END (\S+) rc=\S+ secs=(\d+)")


def programs(tests_dir):
    names = []
    for n in sorted(os.listdir(tests_dir)):
        p = os.path.join(tests_dir, n)
        if (n.endswith("_test") or n.endswith("_test.sh")) and \
                os.path.isfile(p) and os.access(p, os.X_OK):
            names.append(n)
    return names


def durations(logs):
    secs = {}
    for path in logs:
        try:
            with open(path, errors="replace") as f:
                for line in f:
                    m = END.search(line)
                    if m:
                        secs[m.group(1)] = int(m.group(2))
        except OSError:
            pass
    return secs


def read_durations(path):
    secs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) == 2 and not line.startswith("#"):
                secs[fields[0]] = int(fields[1])
    return secs


def main(argv):
    args = argv[1:]
    only = None
    base = {}
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1].split()
        del args[i:i + 2]
    if "--durations" in args:
        i = args.index("--durations")
        base = read_durations(args[i + 1])
        del args[i:i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    shards, index, tests_dir, logs = int(args[0]), int(args[1]), args[2], args[3:]
    names = only if only is not None else programs(tests_dir)
    known = {**base, **durations(logs)}
    seen = sorted(known[n] for n in names if n in known)
    default = seen[len(seen) // 2] if seen else 1
    cost = {n: known.get(n, default) for n in names}

    load = [0] * shards
    out = [[] for _ in range(shards)]
    for n in sorted(names, key=lambda n: (-cost[n], n)):
        k = min(range(shards), key=lambda k: (load[k], k))
        load[k] += max(cost[n], 1)
        out[k].append(n)
    print(" ".join(sorted(out[index - 1])))


if __name__ == "__main__":
    main(sys.argv)

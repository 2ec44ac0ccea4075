#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The driver's structure rules (DOC: Conventions, in vrampool_drv.h).

    structure.py DIR [MAX_LINES]

Reads DIR/*.c (the driver's files, not its KUnit tests) and prints one
line per breach, exiting 1 if there is any:
- a file longer than MAX_LINES (600) lines;
- two files that call each other's non-static functions;
- two files each of which includes the other's header (x.c includes y.h,
  y.c includes x.h);
- a non-static function not named vrampool_<file>_<verb>() after the file
  that defines it (an ioctl handler, vrampool_<ioctl>_ioctl(), and the
  to_*() helpers are the named exceptions);
- a kernel-version test (LINUX_VERSION_CODE, KERNEL_VERSION()) or a probe
  result (VRAMPOOL_HAVE_*) in any DIR/*.[ch] but vrampool_compat.h (DOC:
  Kernel compatibility: every API difference is named there, once).
"""

import glob
import os
import re
import sys

DEF = re.compile(r'^(?!static\b)(?:[A-Za-z_][\w \t\*]*?[\s\*])?(vrampool_\w+)\s*\(([^;{]*?)\)\s*\{',
                 re.M | re.S)
INCLUDE = re.compile(r'^#include "(vrampool_\w+)\.h"', re.M)
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
COMPAT_FILE = 'vrampool_compat.h'
VERSION_TEST = re.compile(r'\b(LINUX_VERSION_CODE|KERNEL_VERSION\s*\(|VRAMPOOL_HAVE_\w+)')


def strip(text):
    """The code without comments (a comment may name a function)."""
    return COMMENT.sub(' ', text)


def main():
    root = sys.argv[1]
    max_lines = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    files = sorted(glob.glob(os.path.join(root, '*.c')))
    code = {}
    breaches = []
    for path in files:
        name = os.path.basename(path)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        lines = text.count('\n')
        if lines > max_lines:
            breaches.append(f'{name}: {lines} lines, more than {max_lines}')
        code[name] = strip(text)

    defined = {}
    for name, text in code.items():
        stem = name[:-2]
        for m in DEF.finditer(text):
            func = m.group(1)
            defined.setdefault(func, name)
            if func.endswith('_ioctl') or func.startswith(stem + '_') or func == stem:
                continue
            breaches.append(f'{name}: {func}() is not named {stem}_<verb>()')

    calls = {name: set() for name in code}
    for name, text in code.items():
        for func in set(re.findall(r'\b(vrampool_\w+)\s*\(', text)):
            other = defined.get(func)
            if other and other != name:
                calls[name].add(other)
    for a in sorted(calls):
        for b in sorted(calls[a]):
            if a < b and a in calls.get(b, ()):
                breaches.append(f'{a} and {b} call each other')

    includes = {name: set(INCLUDE.findall(text)) for name, text in code.items()}
    for a in sorted(includes):
        for b in sorted(includes):
            if a < b and b[:-2] in includes[a] and a[:-2] in includes[b]:
                breaches.append(f'{a} and {b} include each other\'s header')

    for path in sorted(glob.glob(os.path.join(root, '*.[ch]'))):
        name = os.path.basename(path)
        if name == COMPAT_FILE:
            continue
        with open(path, encoding='utf-8') as f:
            text = strip(f.read())
        for m in VERSION_TEST.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            breaches.append(f'{name}:{line}: {m.group(1).rstrip("( ")} outside {COMPAT_FILE}')

    for line in breaches:
        print(line)
    return 1 if breaches else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print every non-static function defined in the given C files that has no
kernel-doc comment ("/**" then " * name() - ..."); exit 1 if there is one.

kernel-doc -Wall checks the comments that exist, not the functions that
lack one: this is the other half. A definition is a line at column 0
whose signature (this line and the ones up to a lone "{") has a "(".
"""
import re
import sys

missing = []
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    text = "\n".join(lines)
    for i, line in enumerate(lines):
        if line != "{":
            continue
        j = i - 1
        while j > 0 and lines[j][:1] in ("\t", " ") and lines[j].strip():
            j -= 1
        sig = " ".join(x.strip() for x in lines[j:i])
        if "(" not in sig or re.match(r"(static|struct|union|enum|#)\b", sig):
            continue
        m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", sig)
        if not m:
            continue
        name = m.group(1)
        if not re.search(r"/\*\*\n \* " + re.escape(name) + r"\(\) - ", text):
            missing.append(f"{path}:{j + 1}: {name}() has no kernel-doc")
print("\n".join(missing))
sys.exit(1 if missing else 0)

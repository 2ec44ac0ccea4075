# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration for vrampool's documentation, built with the
# kernel's own kernel-doc extension from linux-source-6.12 (make htmldocs).
# The kernel-doc directives name files relative to the repository root.

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
KSRC = os.environ.get("VRAMPOOL_KSRC", os.path.join(ROOT, "build", "linux-source-6.12"))
sys.path.insert(0, os.path.join(KSRC, "Documentation", "sphinx"))

project = "vrampool"
copyright = "2026, The vrampool authors"
extensions = ["kerneldoc"]
kerneldoc_bin = os.path.join(KSRC, "scripts", "kernel-doc")
kerneldoc_srctree = ROOT
master_doc = "index"
exclude_patterns = ["ABI"]
primary_domain = "c"
highlight_language = "none"
html_theme = "classic"

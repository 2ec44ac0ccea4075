#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel code's static checks, as kselftest TAP: checkpatch --strict,
# kernel-doc -Wall, sparse with W=1 (C=2), the kernel's coccinelle
# scripts (make coccicheck MODE=report), and the driver's structure rules
# (structure.py: file sizes, calls between files, names). Each must report
# nothing on the module's sources (driver/, driver/tests/, common/,
# uapi/). Each tool is also run once on a small file with a known defect,
# so a tool that runs but sees nothing (a broken path, a missing package)
# fails the test too.
#
# Installed into the host tier by tests/lint/Makefile, which writes in
# the paths below.
set -uo pipefail

ROOT=@ROOT@
KSRC=@KSRC@
KDIR=@KDIR@
# Outside any git work tree: in one, spatch pre-filters files with
# "git grep", which never sees ignored (or untracked) copies.
WORK=$(mktemp -d /tmp/vrampool-lint.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

cd "$ROOT" || exit 1
shopt -s nullglob
KFILES=(driver/*.[ch] driver/compat/*.c driver/tests/*.[ch] common/*.[ch] uapi/drm/*.h)
CFILES=(driver/*.c driver/tests/*.c common/*.c)

n=0
failed=0
plan() { echo "TAP version 13"; echo "1..$1"; }
result() {	# result OK|FAIL NAME [REPORT FILE]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | head -n 60
		echo "not ok $n $2"
	fi
}

mkdir -p "$WORK/bad"
# The canary: one file with a defect each tool must find.
cat > "$WORK/bad/canary.c" <<'CANARY'
// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
#include <linux/slab.h>

int canary_undocumented(int *p);
/**
 * canary_undocumented() - free what @q points at
 */
int canary_undocumented(int *p)
{
	int __user *u = (int __user *)p;

	if (p)
		kfree(p);
	return *(int *)u ;
}

int canary_nodoc(void);
int canary_nodoc(void)
{
	return 0;
}
MODULE_LICENSE("GPL");
CANARY
echo 'obj-m := canary.o' > "$WORK/bad/Kbuild"

plan 14

# --- checkpatch ----------------------------------------------------------------
"$KSRC/scripts/checkpatch.pl" --no-tree --strict --terse -f "${KFILES[@]}" \
	> "$WORK/checkpatch.out" 2>&1
if [ -s "$WORK/checkpatch.out" ]; then
	result FAIL "checkpatch --strict reports nothing on ${#KFILES[@]} files" "$WORK/checkpatch.out"
else
	result OK "checkpatch --strict reports nothing on ${#KFILES[@]} files"
fi
"$KSRC/scripts/checkpatch.pl" --no-tree --strict --terse -f "$WORK/bad/canary.c" \
	> "$WORK/checkpatch.canary" 2>&1
if grep -q 'SPACING\|space prohibited' "$WORK/checkpatch.canary"; then
	result OK "checkpatch finds the canary's defect"
else
	result FAIL "checkpatch finds the canary's defect" "$WORK/checkpatch.canary"
fi

# --- kernel-doc ----------------------------------------------------------------
"$KSRC/scripts/kernel-doc" -none -Wall "${KFILES[@]}" > "$WORK/kdoc.out" 2>&1
if [ -s "$WORK/kdoc.out" ]; then
	result FAIL "kernel-doc -Wall reports nothing" "$WORK/kdoc.out"
else
	result OK "kernel-doc -Wall reports nothing"
fi
"$KSRC/scripts/kernel-doc" -none -Wall "$WORK/bad/canary.c" > "$WORK/kdoc.canary" 2>&1
if grep -q "member 'p' not described" "$WORK/kdoc.canary"; then
	result OK "kernel-doc finds the canary's undescribed parameter"
else
	result FAIL "kernel-doc finds the canary's undescribed parameter" "$WORK/kdoc.canary"
fi

# Every non-static function has kernel-doc (kernel-doc checks only the
# comments that exist).
if python3 "$ROOT/tests/lint/kdoc_coverage.py" "${CFILES[@]}" > "$WORK/kdoc_cov.out" 2>&1; then
	result OK "every non-static function of ${#CFILES[@]} files has kernel-doc"
else
	result FAIL "every non-static function of ${#CFILES[@]} files has kernel-doc" "$WORK/kdoc_cov.out"
fi
python3 "$ROOT/tests/lint/kdoc_coverage.py" "$WORK/bad/canary.c" > "$WORK/kdoc_cov.canary" 2>&1
if grep -q 'canary_nodoc() has no kernel-doc' "$WORK/kdoc_cov.canary" &&
   ! grep -q 'canary_undocumented' "$WORK/kdoc_cov.canary"; then
	result OK "the coverage check finds the canary's function without kernel-doc"
else
	result FAIL "the coverage check finds the canary's function without kernel-doc" "$WORK/kdoc_cov.canary"
fi

# --- structure: file size, call cycles, include pairs, names (DOC: Conventions)
if python3 "$ROOT/tests/lint/structure.py" driver > "$WORK/structure.out" 2>&1; then
	result OK "the driver's files keep DOC: Conventions (600 lines, no cycles, names, compat in one file)"
else
	result FAIL "the driver's files keep DOC: Conventions (600 lines, no cycles, names, compat in one file)" "$WORK/structure.out"
fi
# The canary: two files that call each other, one misnamed function.
mkdir -p "$WORK/structure"
printf '#include "vrampool_b.h"\nint vrampool_a_go(void)\n{\n\treturn vrampool_b_go();\n}\n' \
	> "$WORK/structure/vrampool_a.c"
printf '#include "vrampool_a.h"\nint vrampool_b_go(void)\n{\n\treturn vrampool_a_go();\n}\nint vrampool_c_go(void)\n{\n\treturn 0;\n}\n' \
	> "$WORK/structure/vrampool_b.c"
printf '#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)\n#endif\n' > "$WORK/structure/vrampool_c.h"
python3 "$ROOT/tests/lint/structure.py" "$WORK/structure" > "$WORK/structure.canary" 2>&1
if grep -q 'vrampool_a.c and vrampool_b.c call each other' "$WORK/structure.canary" &&
   grep -q "include each other's header" "$WORK/structure.canary" &&
   grep -q 'vrampool_c_go() is not named vrampool_b_<verb>()' "$WORK/structure.canary" &&
   grep -q 'vrampool_c.h:1: LINUX_VERSION_CODE outside vrampool_compat.h' "$WORK/structure.canary"; then
	result OK "the structure check finds the canary's cycle, misnamed function and version test"
else
	result FAIL "the structure check finds the canary's cycle, misnamed function and version test" "$WORK/structure.canary"
fi

# --- sparse (C=2 checks every file) with W=1 -----------------------------------
# A copy of the sources: the objects of the real builds are not touched.
progress='^ *(CC|CHECK|LD|MODPOST|BTF|Skipping|AR) |^make|^ *$'
mkdir -p "$WORK/src"
rsync -a --exclude=/build/ --exclude=/.git/ --include='*/' --include='*.[ch]' \
	--include=Kbuild --include=Makefile --include=/driver/compat/probe.sh --exclude='*' \
	./ "$WORK/src/"
make -s -C "$KDIR" M="$WORK/src" C=2 W=1 modules > "$WORK/sparse.log" 2>&1
rc=$?
grep -Ev "$progress" "$WORK/sparse.log" > "$WORK/sparse.out"
if [ $rc -ne 0 ] || [ -s "$WORK/sparse.out" ]; then
	result FAIL "sparse and W=1 report nothing (make rc=$rc)" "$WORK/sparse.out"
else
	result OK "sparse and W=1 report nothing"
fi
make -s -C "$KDIR" M="$WORK/bad" C=2 W=1 modules > "$WORK/sparse.canary" 2>&1
if grep -q 'address space' "$WORK/sparse.canary"; then
	result OK "sparse finds the canary's address-space cast"
else
	result FAIL "sparse finds the canary's address-space cast" "$WORK/sparse.canary"
fi

# --- coccinelle: every script of the kernel, in report mode -------------------
cocci() {	# cocci DIR OUT: make coccicheck over DIR only
	make -C "$KSRC" M="$1" MODE=report coccicheck > "$2.log" 2>&1
	local rc=$?
	grep -E '^[^ ]+:[0-9]+:[0-9]+-[0-9]+: |^coccicheck failed|No OCaml' "$2.log" > "$2" || true
	return $rc
}
mkdir -p "$WORK/cocci"
for f in "${KFILES[@]}"; do
	mkdir -p "$WORK/cocci/$(dirname "$f")"
	cp "$f" "$WORK/cocci/$f"
done
cocci "$WORK/cocci" "$WORK/cocci.out"
rc=$?
if [ $rc -ne 0 ] || [ -s "$WORK/cocci.out" ]; then
	result FAIL "coccicheck reports nothing (rc=$rc)" "$WORK/cocci.out"
else
	result OK "coccicheck reports nothing ($(grep -c 'cocci-file' "$WORK/cocci.out.log") scripts)"
fi
cocci "$WORK/bad" "$WORK/cocci.canary"
if grep -q 'canary.c:.*NULL check before some freeing functions is not needed' "$WORK/cocci.canary"; then
	result OK "coccicheck finds the canary's needless NULL check"
else
	result FAIL "coccicheck finds the canary's needless NULL check" "$WORK/cocci.canary.log"
fi

# --- The documentation: Sphinx with the kernel's kernel-doc extension --------
# -W: any warning (a kernel-doc directive naming a DOC block or file that is
# gone, bad markup) fails the build.
# kernel-doc's own warnings (a directive naming a DOC block that is gone)
# reach only its stderr, not Sphinx's -W: with -q, any output fails.
if VRAMPOOL_KSRC="$KSRC" sphinx-build -q -W -b html "$ROOT/Documentation" "$WORK/html" \
	> "$WORK/sphinx.out" 2>&1 && ! grep -q . "$WORK/sphinx.out"; then
	result OK "the documentation builds with no Sphinx or kernel-doc warning"
else
	result FAIL "the documentation builds with no Sphinx or kernel-doc warning" "$WORK/sphinx.out"
fi
# Every uapi struct reaches the rendered page.
missing=$(for name in $(sed -n 's/^struct \(drm_vrampool_[a-z_]*\) {$/\1/p' uapi/drm/vrampool_accel.h); do
		grep -qF "${name//_/ }" <(sed 's/<[^>]*>//g; s/_/ /g' "$WORK/html/vrampool.html" 2>/dev/null) ||
			echo "$name"
	done)
if [ -f "$WORK/html/vrampool.html" ] && [ -z "$missing" ]; then
	result OK "every uapi struct is in the rendered guide"
else
	echo "missing: ${missing:-the page itself}" > "$WORK/sphinx.missing"
	result FAIL "every uapi struct is in the rendered guide" "$WORK/sphinx.missing"
fi

echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
[ $failed -eq 0 ]

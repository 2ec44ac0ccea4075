#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run host test programs and print kselftest TAP, each program's own output
# indented as diagnostics, then a summary line. Exit 1 if any failed.
#
# Usage: run_tests.sh DIR NAME...

dir=${1:?usage: run_tests.sh DIR NAME...}
shift
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT

echo "TAP version 13"
echo "1..$#"
i=0 pass=0 fail=0 skip=0
for t in "$@"; do
	i=$((i + 1))
	echo "# selftests: host: $t"
	if [ -x "$dir/$t" ]; then
		timeout 300 "$dir/$t" < /dev/null > "$tmp" 2>&1
		rc=$?
	else
		echo "$dir/$t: not found or not executable" > "$tmp"
		rc=127
	fi
	sed 's/^/# /' "$tmp"
	case $rc in
	0) echo "ok $i host: $t"; pass=$((pass + 1)) ;;
	4) echo "ok $i host: $t # SKIP"; skip=$((skip + 1)) ;;
	*) echo "not ok $i host: $t # exit=$rc"; fail=$((fail + 1)) ;;
	esac
done
echo "# Totals: pass:$pass fail:$fail skip:$skip"
echo "host: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Self-test of m32-run.sh, the launcher of the i386 host tests: whatever this
# host's kernel allows, each way the launcher can take is played with
# stand-ins. "Natively" is a VRAMPOOL_M32_EXEC wrapper: one that fails as a
# kernel without i386 support does (Exec format error, exit 126), or
# qemu-i386 itself as a kernel that executes them. Prints kselftest TAP.
#
# Installed into the host tests' folder by tests/host/Makefile, next to
# .m32/ (the probe, the launcher, kcompat_test built as i386); ROOT is set
# there to the source tree (for check-log.py and expected-skips.host).
#
# shellcheck disable=SC2317 # the checks are called through check()

ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
D=$(cd "$(dirname "$0")" && pwd)/.m32
TMP=$(mktemp -d "${TMPDIR:-/tmp}/m32-runner-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
QEMU=$(command -v qemu-i386)

# A kernel that refuses i386 executables, as the shell reports it.
cat > "$TMP/enoexec" <<'EOF'
#!/bin/sh
echo "sh: 1: $1: Exec format error" >&2
exit 126
EOF
# An emulator that is installed but broken.
printf '#!/bin/sh\necho "qemu-i386: cannot map the guest" >&2\nexit 1\n' > "$TMP/badqemu"
chmod +x "$TMP/enoexec" "$TMP/badqemu"

# shellcheck source=selftests/qemu/tap-check.sh
. "$ROOT/selftests/qemu/tap-check.sh"

# launch ENV...: m32-run.sh PROBE PROGRAM [ARG] in that environment; rc,
# output in $TMP/out. PROG and ARG are variables set by the caller.
launch() {
	# shellcheck disable=SC2086 # ARG: none or one word
	env "$@" sh "$D/m32-run.sh" "$D/probe" "$PROG" $ARG > "$TMP/out" 2>&1
	rc=$?
}

ran_qemu_passed() {
	[ "$rc" = 0 ] && has "^# i386: run under $QEMU (natively: exit 126: .*Exec format error)" &&
		has "^# Totals: pass:[1-9][0-9]* fail:0"
}
ran_native_passed() {
	[ "$rc" = 0 ] && has "^# i386: run natively" && has "^# Totals: pass:[1-9][0-9]* fail:0"
}
failure_kept() { [ "$rc" = 3 ] && has "^# i386: run under"; }
broken_emulator() {
	[ "$rc" = 1 ] && has "cannot execute i386 programs" && has "cannot run the probe" &&
		! has "SKIP"
}
# The skip, judged by check-log.py against expected-skips.host, as the
# host tier judges it.
skip_expected() {
	[ "$rc" = 4 ] && has "^1..0 # SKIP this host cannot execute i386 programs" || return 1
	{
		echo "@@VRAMPOOL BEGIN kcompat_m32_test timeout=300"
		cat "$TMP/out"
		echo "@@VRAMPOOL END kcompat_m32_test rc=$rc secs=0"
	} > "$TMP/host.log"
	python3 "$ROOT/selftests/qemu/check-log.py" --label m32 \
		--expected-skips "$ROOT/selftests/expected-skips.host" \
		"$TMP/host.log" >> "$TMP/out" 2>&1 &&
		grep -q "0 passed, 0 failed, 1 skipped" "$TMP/out"
}

echo "TAP version 13"
echo "1..5"
PROG=$D/kcompat_test ARG=
if [ -n "$QEMU" ]; then
	launch VRAMPOOL_M32_EXEC="$TMP/enoexec"
	check "a kernel that refuses i386 programs: the test runs under qemu-i386 and passes" ran_qemu_passed
	launch VRAMPOOL_M32_EXEC="$QEMU"
	check "a kernel that runs them: the test runs natively and passes" ran_native_passed
	PROG=$D/probe ARG=3
	launch VRAMPOOL_M32_EXEC="$TMP/enoexec"
	check "a failing i386 program fails under qemu-i386 with its own code" failure_kept
	PROG=$D/kcompat_test ARG=
else
	why="no qemu-i386 on this host (Debian package qemu-user, which setup.sh installs)"
	skip "a kernel that refuses i386 programs: the test runs under qemu-i386 and passes" "$why"
	skip "a kernel that runs them: the test runs natively and passes" "$why"
	skip "a failing i386 program fails under qemu-i386 with its own code" "$why"
fi
launch VRAMPOOL_M32_EXEC="$TMP/enoexec" VRAMPOOL_QEMU_I386="$TMP/badqemu"
check "an emulator that cannot run the probe: a failure, not a skip" broken_emulator
launch VRAMPOOL_M32_EXEC="$TMP/enoexec" VRAMPOOL_QEMU_I386="$TMP/no-such-qemu"
check "no way at all: the whole program skips, with a reason expected-skips.host accepts" skip_expected

tap_exit

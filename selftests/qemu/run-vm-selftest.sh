#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of run-vm.sh's second boot, with a fake QEMU (VRAMPOOL_QEMU_BIN)
# that plays one scenario per boot: "crash" writes an Oops to the console
# and ends before the init's BOOT marker; "ok" writes BOOT and DONE to the
# test log. run-vm.sh must boot once more only after a boot without BOOT,
# keep that boot's console log aside, and boot at most twice. Prints
# kselftest TAP.
#
# shellcheck disable=SC2317 # the checks are called through check()

HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/run-vm-selftest.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
: > "$TMP/vmlinuz"
: > "$TMP/initrd"

# The fake: boot N plays word N of $FAKE_BOOTS. Of its two -serial files,
# the first is the console, the second the test log.
cat > "$TMP/fake-qemu" <<'FAKE'
#!/bin/sh
console="" log=""
while [ $# -gt 0 ]; do
	if [ "$1" = -serial ]; then
		f=${2#file:}
		if [ -z "$console" ]; then console=$f; else log=$f; fi
		shift
	fi
	shift
done
n=$(($(cat "$FAKE_DIR/boots" 2>/dev/null || echo 0) + 1))
echo "$n" > "$FAKE_DIR/boots"
# shellcheck disable=SC2086 # a list of words
set -- $FAKE_BOOTS
shift $((n - 1))
case ${1:-none} in
crash) echo "[    1.6] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI" >> "$console" ;;
ok)
	echo "[    2.0] vrampool-vm: BOOT" >> "$console"
	printf '@@VRAMPOOL BOOT kernel=fake\n@@VRAMPOOL DONE\n' >> "$log"
	;;
esac
exit 0
FAKE
chmod +x "$TMP/fake-qemu"

# shellcheck source=selftests/qemu/tap-check.sh
. "$HERE/tap-check.sh"
# boots SCENARIO: run run-vm.sh with the fake playing SCENARIO
boots() {
	rm -rf "$TMP/build" "$TMP/boots"
	mkdir -p "$TMP/build"
	FAKE_BOOTS=$1 FAKE_DIR=$TMP VRAMPOOL_QEMU_BIN=$TMP/fake-qemu BUILD=$TMP/build \
		bash "$HERE/run-vm.sh" --name t --kernel "$TMP/vmlinuz" --initrd "$TMP/initrd" \
		> "$TMP/out" 2>&1
	rc=$?
	count=$(cat "$TMP/boots" 2>/dev/null || echo 0)
}
once_only() {
	[ "$rc" = 0 ] && [ "$count" = 1 ] && has "@@VRAMPOOL DONE" "$V/t.log" &&
		[ ! -e "$V/t.boot1.console.log" ] && ! has "booting once more" "$TMP/out"
}
once_more() {
	[ "$count" = 2 ] && has "booting once more" "$TMP/out" &&
		has "Oops: int3" "$V/t.boot1.console.log" && ! has "Oops" "$V/t.console.log" &&
		has "@@VRAMPOOL DONE" "$V/t.log"
}
no_third() {
	[ "$count" = 2 ] && ! has "@@VRAMPOOL BOOT" "$V/t.log" &&
		has "Oops: int3" "$V/t.console.log" && has "Oops: int3" "$V/t.boot1.console.log"
}

V=$TMP/build/vm
echo "TAP version 13"
echo "1..3"
boots "ok"
check "a boot that reaches the init: booted once, no first-boot log" once_only
boots "crash ok"
check "a kernel that stops before the init: booted once more, its log kept aside" once_more
boots "crash crash ok"
check "two such boots: no third, the test log without BOOT" no_third

tap_exit

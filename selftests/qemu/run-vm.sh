#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's 6.12 kernel (or the debug kernel) in QEMU (TCG) with the
# test initramfs. --kernel boots another stock Debian kernel in the debian
# tier (the newest kernel's VM: make check-newest) or the debug kernel.
#
# Usage: run-vm.sh [--mode check|demo|shell|canary] [--name NAME] [--initrd FILE]
#                  [--tier debian|debug] [--kernel BZIMAGE]
#                  [--args "MODULE PARAMS"] [--tests "a_test b_test.sh"]
#                  [--append "EXTRA CMDLINE"] [--timeout SECS] [--stream]
#
# --tier debug boots --kernel (the debug kernel: KASAN, lockdep, kmemleak,
# fault injection, KUnit) with kasan_multi_shot (every KASAN report is
# printed, not only the first), a soft-lockup threshold twice the default
# and tells the init (vrampool.tier=debug). Its
# CPU has no LA57 (5-level paging): with it, 6.12 + KASAN can take an
# interrupt while identify_cpu() has cleared the feature bits, and then
# reports wild memory accesses in a loop forever, early in boot.
#
# A VM whose init has not started (no BOOT marker) within --boot-timeout
# seconds (default 300) is stopped: the boot went wrong. Such a boot, or
# one that ended before its init started, is booted once more (see boot()
# below); its console log stays in build/vm/NAME.boot1.console.log.
#
# Serial ports:
#   ttyS0 (console): the kernel log at loglevel 7  -> build/vm/NAME.console.log
#   ttyS1          : markers + test output (TAP)   -> build/vm/NAME.log
# --stream also copies NAME.log to stdout while the VM runs (demo does this);
# VRAMPOOL_QEMU_EXTRA adds QEMU options; VRAMPOOL_QEMU_BIN replaces
# qemu-system-x86_64 (run-vm-selftest.sh gives it a fake);
# --mode shell gives an interactive busybox shell on the console instead.
#
# PCI: two ivshmem-plain devices (1af4:1110), BAR2 backed by RAM:
#   0000:00:04.0  64 MiB   the PCI-backed VRAM device (the init binds it)
#   0000:00:05.0  256 KiB  too small: the driver must refuse it (tests bind it)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}

MODE=check NAME="" INITRD=$BUILD/vm/initramfs.cpio ARGS="" TESTS="" APPEND=""
TIMEOUT=900 STREAM="" TIER=debian KERNEL="" BOOT_TIMEOUT=300
while [ $# -gt 0 ]; do
	case $1 in
	--mode) MODE=$2; shift ;;
	--name) NAME=$2; shift ;;
	--initrd) INITRD=$2; shift ;;
	--tier) TIER=$2; shift ;;
	--kernel) KERNEL=$2; shift ;;
	--args) ARGS=$2; shift ;;
	--tests) TESTS=$2; shift ;;
	--append) APPEND=$2; shift ;;
	--timeout) TIMEOUT=$2; shift ;;
	--boot-timeout) BOOT_TIMEOUT=$2; shift ;;
	--stream) STREAM=1 ;;
	*) echo "run-vm.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
NAME=${NAME:-$MODE}

if [ -z "$KERNEL" ]; then
	KVER=$(cat "$BUILD/kernel/VERSION")
	KERNEL=$BUILD/kernel/$KVER/boot/vmlinuz-$KVER
fi
[ -f "$KERNEL" ] || { echo "run-vm.sh: $KERNEL missing (make setup)" >&2; exit 1; }
[ -f "$INITRD" ] || { echo "run-vm.sh: $INITRD missing" >&2; exit 1; }

mkdir -p "$BUILD/vm"

# tsc_khz: the host's TSC rate in kHz (tsc-khz.c), built on first use;
# fails if the host's TSC has no constant rate.
tsc_khz() {
	local bin=$BUILD/vm/tsc-khz src=$ROOT/selftests/qemu/tsc-khz.c
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		# VMs booted at once may build it together: each its own file.
		cc -O2 -o "$bin.$$" "$src" && mv -f "$bin.$$" "$bin" || return 1
	fi
	"$bin"
}

LOG=$BUILD/vm/$NAME.log
CONSOLE=$BUILD/vm/$NAME.console.log
rm -f "$LOG" "$CONSOLE" "$BUILD/vm/$NAME.boot1.console.log"

# loglevel=7: every kernel message but debug reaches the console log; the
# interactive shell only gets warnings and worse.
LOGLEVEL=7
[ "$MODE" = shell ] && LOGLEVEL=4
CMDLINE="console=ttyS0 loglevel=$LOGLEVEL panic=-1 oops=panic vrampool.mode=$MODE"
# trace_options=norecord-cmd: enabling a trace event then hooks no probe
# on the scheduler's sched_switch and sched_wakeup tracepoints (tracefs
# records command names through them), so the kernel patches no text that
# the other vCPU runs all the time. QEMU 7.2's multi-threaded TCG can run
# a stale int3 left by such a patch after it is done: an Oops in
# __schedule or ttwu_do_activate while vrampool_trace_test.sh or
# vrampool_record_test.sh enabled the vrampool events. Those tests and
# vrampoolctl record read no command name.
CMDLINE+=" trace_options=norecord-cmd"
# Two tracing instances, off, each holding a probe on every scheduler
# tracepoint that a pid filter hooks (vrampoolctl record --pid writes
# set_event_pid, with event-fork): the kernel patches a tracepoint's text
# only for its first and second probe (its static key, its static call),
# so with two from boot on, the probes a test adds and removes patch
# nothing the other vCPU runs. Without them: an Oops (int3) in
# try_to_wake_up while vrampool_record_test.sh ran, as above.
SCHED_EVENTS=sched:sched_switch,sched:sched_wakeup,sched:sched_wakeup_new
SCHED_EVENTS+=,sched:sched_waking,sched:sched_process_fork,sched:sched_process_free
for pin in vm_pin1 vm_pin2; do
	CMDLINE+=" trace_instance=$pin^traceoff,$SCHED_EVENTS"
done
CPU=max
case $TIER in
debian) ;;
debug)
	# watchdog_thresh=20: a soft lockup is a CPU 40 s without scheduling
	# (the default 20 s is tight for KASAN under TCG on a shared host).
	CMDLINE+=" vrampool.tier=debug kasan_multi_shot watchdog_thresh=20"
	CPU=max,la57=off
	# Its TSC's rate, measured on the host (tsc-khz.c says why), and no
	# watchdog on it: its only other clock, jiffies, loses ticks when the
	# host is busy, and the watchdog would then switch the clock to them.
	if khz=$(tsc_khz); then
		CMDLINE+=" tsc_early_khz=$khz tsc=reliable"
	else
		echo "run-vm.sh: the host's TSC rate is unknown: the debug kernel calibrates its own" >&2
	fi
	;;
*) echo "run-vm.sh: unknown tier $TIER" >&2; exit 2 ;;
esac
[ -n "$ARGS" ] && CMDLINE+=" vrampool.args=\"$ARGS\""
[ -n "$TESTS" ] && CMDLINE+=" vrampool.tests=\"$TESTS\""
[ -n "$APPEND" ] && CMDLINE+=" $APPEND"

# shellcheck disable=SC2054 # the commas belong to QEMU's option syntax
QEMU=("${VRAMPOOL_QEMU_BIN:-qemu-system-x86_64}"
	-machine pc -accel tcg -cpu "$CPU" -smp 2 -m 2G
	-nodefaults -no-reboot -display none
	-kernel "$KERNEL" -initrd "$INITRD" -append "$CMDLINE"
	-object memory-backend-ram,id=vram0,size=64M
	-device ivshmem-plain,memdev=vram0,bus=pci.0,addr=0x4
	-object memory-backend-ram,id=vram1,size=256K
	-device ivshmem-plain,memdev=vram1,bus=pci.0,addr=0x5
)

# Extra QEMU options for debugging, e.g. "-d cpu_reset -D build/vm/qemu.log"
# (the CPU state when the guest resets: a triple fault ends the VM without a
# word on the console).
# shellcheck disable=SC2206 # split on purpose
[ -n "${VRAMPOOL_QEMU_EXTRA:-}" ] && QEMU+=(${VRAMPOOL_QEMU_EXTRA})

if [ "$MODE" = shell ]; then
	exec "${QEMU[@]}" -serial mon:stdio -serial null
fi

QEMU+=(-monitor none -serial "file:$CONSOLE" -serial "file:$LOG")

# clock_marker START: a CLOCK marker at the end of the test log, the
# guest's uptime at its last console line against the host's seconds since
# START (date +%s.%N), for check-log.py: a guest clock that runs fast fires
# every timeout early, one that runs slow lets a hang go on.
clock_marker() {
	local guest
	guest=$(sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p' "$CONSOLE" | tail -n 1)
	[ -n "$guest" ] || return 0
	awk -v g="$guest" -v s="$1" -v e="$(date +%s.%N)" \
		'BEGIN { printf "@@VRAMPOOL CLOCK guest=%.1f host=%.1f\n", g, e - s }' >> "$LOG"
}

# One boot: the VM, its boot watchdog, its exit status in $rc.
boot() {
	local start
	: > "$LOG"
	: > "$CONSOLE"
	start=$(date +%s.%N)
	timeout -k 10 "$TIMEOUT" "${QEMU[@]}" < /dev/null &
	qpid=$!

	# Boot watchdog: stop the VM if its init never says BOOT.
	(
		waited=0
		while [ $waited -lt "$BOOT_TIMEOUT" ]; do
			sleep 2
			waited=$((waited + 2))
			kill -0 "$qpid" 2>/dev/null || exit 0
			grep -q '@@VRAMPOOL BOOT' "$LOG" 2>/dev/null && exit 0
		done
		echo "run-vm.sh: no BOOT marker after $BOOT_TIMEOUT s: stopping the VM" >&2
		kill "$qpid" 2>/dev/null
	) &
	wpid=$!

	if [ -n "$STREAM" ]; then
		tail -n +1 -f --pid="$qpid" "$LOG" | tr -d '\r' || true
	fi
	rc=0
	wait "$qpid" || rc=$?
	kill "$wpid" 2>/dev/null || true
	wait "$wpid" 2>/dev/null || true
	clock_marker "$start"
}

# A kernel that stops before the init starts has run nothing of ours (the
# init loads the module after its BOOT marker): Debian's kernel under TCG
# now and then takes a stray int3 while it patches its own text during
# boot. Such a boot is kept aside and the VM booted once more; a second
# one stops the run as any other failure does.
boot
if ! grep -q '@@VRAMPOOL BOOT' "$LOG" 2>/dev/null; then
	mv "$CONSOLE" "$BUILD/vm/$NAME.boot1.console.log"
	echo "run-vm.sh: the kernel stopped before the init started (its log:" \
		"build/vm/$NAME.boot1.console.log); booting once more" >&2
	boot
fi
if [ $rc -eq 124 ]; then
	echo "run-vm.sh: the VM did not finish within $TIMEOUT s" >&2
fi
exit $rc

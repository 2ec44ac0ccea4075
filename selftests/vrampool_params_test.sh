#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad device parameters refuse the device with one clear log line, never an
# oops; the module stays loadable and the other devices keep working.
#
# Reloads vrampool.ko (at /vrampool.ko in the test VM) several times, then
# restores the parameters and PCI bindings it found, so later tests see the
# same devices.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"
TINY=${VRAMPOOL_IVSHMEM_TINY:-}

require_module
echo "1..14"

# shellcheck disable=SC2119 # every parameter: none left out
ORIG=$(module_params)

# log_has TEXT: the kernel log since the last mark holds TEXT.
log_mark() { echo "vrampool-params-test: mark $n" > /dev/kmsg; MARK="vrampool-params-test: mark $n"; }
log_has() { dmesg | sed -n "/$MARK/,\$p" | grep -qF "$1"; }

# rmmod, then wait (10 s at most) for the platform driver's sysfs folder to
# go: the debug kernel delays kobject releases (DEBUG_KOBJECT_RELEASE), and
# an insmod while it is still there fails with a duplicate filename.
unload() {
	rmmod vrampool || return 1
	i=0
	while [ -e /sys/bus/platform/drivers/vrampool ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# refused NAME LOG-TEXT PARAMS...: the module loads with PARAMS but makes no
# emulated device, and says why.
refused() {
	name=$1 text=$2
	shift 2
	unload || { not_ok "$name: rmmod"; return; }
	log_mark
	if ! insmod "$KO" "$@"; then
		not_ok "$name: insmod $*"
		return
	fi
	if [ "$(emulated_nodes)" -eq 0 ] && log_has "$text" && ! log_has "Oops" ; then
		ok "$name"
	else
		dmesg | sed -n "/$MARK/,\$p" | sed 's/^/# /'
		not_ok "$name"
	fi
}

# 1: a PCI device whose BAR is too small is refused, with its reason.
if [ -n "$TINY" ]; then
	set -- $TINY
	log_mark
	if ! bind "$1" && [ ! -e "/sys/bus/pci/devices/$1/driver" ] &&
	   log_has "vrampool $1: refusing device: VRAM size"; then
		ok "tiny BAR refused"
	else
		not_ok "tiny BAR refused"
	fi
	echo > "/sys/bus/pci/devices/$1/driver_override"
else
	not_ok "tiny BAR refused # no small ivshmem device in this VM"
fi

refused "vram_size=0" "refusing device: VRAM size 0 is below the minimum of 1048576 bytes" \
	vram_size=0
refused "vram_size not page-aligned" \
	"refusing device: VRAM size 2097153 is not a multiple of the page size" vram_size=2097153
refused "vram_size beyond RAM" "exceeds half of system RAM" vram_size=1125899906842624 \
	alignment=1048576
refused "VRAM of 2^32 alignment units" \
	"refusing device: VRAM size 4294967296 is 2^32 alignment units (1 bytes) or more" \
	vram_size=4294967296 alignment=1
refused "alignment=0" "refusing device: alignment 0 is not a power of two" alignment=0
refused "alignment not a power of two" "refusing device: alignment 384 is not a power of two" \
	alignment=384
refused "max_page_size below alignment" "refusing device: max_page_size 1 is outside" \
	max_page_size=1
refused "max_page_size above VRAM" "refusing device: max_page_size 268439552 is outside" \
	vram_size=268435456 max_page_size=268439552

# 10: too many emulated devices refuse the module load itself. (A failed
# rmmod or insmod between the checks fails the check after it too: the
# "#" lines say which step went wrong first.)
unload || echo "# rmmod vrampool failed: the next check cannot pass"
log_mark
if ! insmod "$KO" emulated_devices=9 2>/dev/null &&
   log_has "emulated_devices=9 exceeds the maximum of 8"; then
	ok "emulated_devices=9 refused"
else
	not_ok "emulated_devices=9 refused"
	rmmod vrampool 2>/dev/null
fi

# 11: a bad alignment refuses a PCI device too.
insmod "$KO" alignment=0 || echo "# insmod alignment=0 failed: the next check cannot pass"
if [ -n "$MAIN" ]; then
	set -- $MAIN
	log_mark
	if ! bind "$1" && log_has "vrampool $1: refusing device: alignment 0"; then
		ok "PCI device refused with alignment=0"
	else
		not_ok "PCI device refused with alignment=0"
	fi
else
	not_ok "PCI device refused with alignment=0 # no ivshmem device in this VM"
fi

# 12, 13: the original parameters bring every device back.
unload || echo "# rmmod vrampool failed: the reload cannot pass"
# shellcheck disable=SC2086 # ORIG is a list of module parameters
check "reload with the original parameters" insmod "$KO" $ORIG
check "emulated devices back" [ "$(emulated_nodes)" -eq "$(param emulated_devices)" ]
check "PCI devices rebound" bind_all

totals

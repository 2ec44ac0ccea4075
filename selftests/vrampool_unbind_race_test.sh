#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Unbind racing open: two loops open the device's node, ask GET_PARAM, make
# and free an allocation and close it, while the device is unbound and bound
# again VRAMPOOL_RACE_ROUNDS times (default 200), for the emulated device and
# for the PCI device. The loops may only meet the unbind (ENOENT, ENODEV,
# ENXIO); rounds must have gone through, and at least one ioctl must have met
# the unbind on a file opened before it (else no race was tried); the kernel may report nothing (the log checker fails the run on
# any KASAN, lockdep, ODEBUG or kobject report). Then rmmod right after a
# close and right after an unbind: with CONFIG_DEBUG_KOBJECT_RELEASE the
# kobjects' releases run 1-4 s after that, once the module is gone, so a
# release in module text would oops; the script waits them out before it
# loads the module again.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"

require_module
MAIN=${VRAMPOOL_IVSHMEM_MAIN%% *}
if [ -z "$MAIN" ] || [ ! -d /sys/bus/platform/devices/vrampool.0 ]; then
	echo "1..0 # SKIP needs the VM's emulated and ivshmem devices"
	exit 4
fi
echo "1..19"

LOOP=$(dirname "$0")/vrampool_unbind_race_test_helper
ROUNDS=${VRAMPOOL_RACE_ROUNDS:-200}
TMP=${TMPDIR:-/tmp}/unbind_race.$$
ORIG=$(module_params)
# Delayed kobject releases: at most 4 s (HZ + HZ * 0..3), with room for TCG.
RELEASE_WAIT=6

node_of() { # DIR: the accel node of a bound device
	ls "$1/accel" 2>/dev/null | head -n 1
}

sum_lines() { awk '{ s += $1 } END { print s + 0 }'; }

# race BUS DEVICE: ROUNDS unbinds and binds under two open loops.
race() {
	bus=$1 dev=$2
	D=/sys/bus/$bus/devices/$dev
	rm -f "$TMP.stop"
	"$LOOP" "$D" "$TMP.stop" > "$TMP.1" 2>&1 &
	p1=$!
	"$LOOP" "$D" "$TMP.stop" > "$TMP.2" 2>&1 &
	p2=$!
	i=0 bad=0
	start=$(date +%s)
	while [ $i -lt "$ROUNDS" ]; do
		echo "$dev" > "/sys/bus/$bus/drivers/vrampool/unbind" || bad=$((bad + 1))
		echo "$dev" > "/sys/bus/$bus/drivers/vrampool/bind" || bad=$((bad + 1))
		i=$((i + 1))
	done
	touch "$TMP.stop"
	rc1=0 rc2=0
	wait $p1 || rc1=$?
	wait $p2 || rc2=$?
	cat "$TMP.1" "$TMP.2"
	echo "# $dev: $ROUNDS rounds in $(( $(date +%s) - start )) s"
	check "$dev: $ROUNDS unbinds and binds, none refused ($bad)" [ $bad -eq 0 ]
	check "$dev: open loops met only the unbind (exit $rc1, $rc2)" [ $((rc1 + rc2)) -eq 0 ]
	through=$(sed -n 's/.*: \([0-9]*\) rounds through,.*/\1/p' "$TMP.1" "$TMP.2" | sum_lines)
	raced=$(sed -n 's/.* \([0-9]*\) of them on an open file$/\1/p' "$TMP.1" "$TMP.2" | sum_lines)
	seen=0
	[ "$through" -gt 0 ] && [ "$raced" -gt 0 ] && seen=1
	check "$dev: rounds went through ($through), ioctls met the unbind on an open file ($raced)" \
		[ $seen -eq 1 ]
	check "$dev: bound at the end, with its folder" [ -d "$D/vrampool/clients" ]
	check "$dev: bound at the end, with an accel node" [ -n "$(node_of "$D")" ]
}

# A small emulated VRAM: a bind allocates and clears all of it (256 MiB
# take seconds under TCG), and the rounds are what counts here.
SMALL="$(module_params vram_size) vram_size=16777216"
rmmod vrampool
# shellcheck disable=SC2086 # a list of module parameters
if ! insmod "$KO" $SMALL || ! bind_all; then
	not_ok "loaded with 16 MiB of emulated VRAM ($SMALL)"
	insmod "$KO" $ORIG
	bind_all
	totals
	exit
fi
ok "loaded with 16 MiB of emulated VRAM"
race platform vrampool.0
race pci "$MAIN"

# back: the module with its original parameters and its PCI devices, once
# the delayed releases of what rmmod left had their time.
back() {
	sleep $RELEASE_WAIT
	# shellcheck disable=SC2086 # ORIG is a list of module parameters
	insmod "$KO" $ORIG && bind_all
}

D=/sys/bus/platform/devices/vrampool.0
# A client with pool folders, closed, then rmmod at once.
exec 3<>"/dev/accel/$(node_of "$D")"
exec 3>&-
check "rmmod right after a close" rmmod vrampool
check "the module loads again after the delayed releases" back

# Unbind both devices, then rmmod at once.
echo vrampool.0 > /sys/bus/platform/drivers/vrampool/unbind
echo "$MAIN" > /sys/bus/pci/drivers/vrampool/unbind
check "rmmod right after an unbind" rmmod vrampool
check "the module loads again after the delayed releases" back

# A client holding the device across its unbind, closed, then rmmod at once.
exec 3<>"/dev/accel/$(node_of "$D")"
echo vrampool.0 > /sys/bus/platform/drivers/vrampool/unbind
exec 3>&-
check "rmmod right after the last close of an unbound device" rmmod vrampool
check "the module loads again after the delayed releases" back
check "every device back" [ "$(emulated_nodes)" -eq "$(param emulated_devices)" ]
check "the emulated device opens" sh -c "exec 4<>/dev/accel/$(node_of "$D")"

rm -f "$TMP.1" "$TMP.2" "$TMP.stop"
totals

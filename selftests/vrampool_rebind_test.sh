#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A device unbound while a client holds it open goes away cleanly: its
# vrampool/ folder goes with the binding, every ioctl on the client's file
# fails with ENODEV, its old accel node no longer opens (ENODEV), and it
# binds again at once, with no stale accel node left behind, before and
# after that client (with live allocations) closes. An unbind never waits
# for userspace memory: with POOL_INSTALL or ALLOC_BATCH stalled in the copy
# of its array from a page a userfaultfd never fills, the unbind finishes
# within 10 s, and the device binds again.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"
HERE=$(dirname "$0")

echo "TAP version 13"
MAIN=${VRAMPOOL_IVSHMEM_MAIN%% *}
if [ -z "$MAIN" ] || [ ! -d /sys/bus/platform/devices/vrampool.0 ]; then
	echo "1..0 # SKIP needs the VM's emulated and ivshmem devices"
	exit 4
fi
echo "1..24"

# Every accel node belongs to a bound device: none is stale.
no_stale_nodes() {
	for d in /sys/class/accel/accel*; do
		[ -e "$d" ] || continue
		[ -e "$d/device/driver" ] || { echo "# stale node $d"; return 1; }
	done
}

# rebind BUS DEVICE: unbind DEVICE while a client holds it, bind it again.
rebind() {
	bus=$1 dev=$2
	D=/sys/bus/$bus/devices/$dev
	node=$(ls "$D/accel" | head -n 1)
	old=/tmp/vrampool-old-$node
	rm -f "$old"
	mknod "$old" c "$(cut -d: -f1 "$D/accel/$node/dev")" "$(cut -d: -f2 "$D/accel/$node/dev")"
	exec 3<>"/dev/accel/$node"
	check "$dev: the client gets allocations" "$HERE/vrampool_rebind_test_helper" alloc 3
	echo "$dev" > "/sys/bus/$bus/drivers/vrampool/unbind"
	check "$dev: vrampool/ goes with the binding" [ ! -e "$D/vrampool" ]
	check "$dev: every ioctl of the unbound client and a new open fail with ENODEV" \
		"$HERE/vrampool_rebind_test_helper" check 3 "$old"
	rm -f "$old"
	check "$dev: binds again while the old client is open" \
		sh -c "echo $dev > /sys/bus/$bus/drivers/vrampool/bind"
	check "$dev: a new accel node with its vrampool/ folder" \
		[ -d "$D/vrampool/clients" -a -n "$(ls "$D/accel" 2>/dev/null)" ]
	exec 3>&-
	check "$dev: no stale accel node after the old client closed" no_stale_nodes
	check "$dev: the old client's folder is gone" [ -z "$(ls "$D/vrampool/clients")" ]
	check "$dev: the new node opens" sh -c "exec 4<>/dev/accel/$(ls "$D/accel" | head -n 1)"
}

# stalled BUS DEVICE IOCTL: IOCTL waits in a user copy while DEVICE is unbound.
stalled() {
	bus=$1 dev=$2 what=$3
	D=/sys/bus/$bus/devices/$dev
	exec 3<>"/dev/accel/$(ls "$D/accel" | head -n 1)"
	check "$dev: unbound within 10 s while $what waits in a user copy" \
		"$HERE/vrampool_rebind_test_helper" stall 3 "$what" \
		"/sys/bus/$bus/drivers/vrampool/unbind" "$dev"
	exec 3>&-
	[ -e "$D/driver" ] || echo "$dev" > "/sys/bus/$bus/drivers/vrampool/bind"
	check "$dev: binds again after the stalled $what" [ -n "$(ls "$D/accel" 2>/dev/null)" ]
}

rebind pci "$MAIN"
rebind platform vrampool.0
for what in install batch; do
	stalled pci "$MAIN" "$what"
	stalled platform vrampool.0 "$what"
done

totals

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM (make demo): show every vrampool accel device, its backend
# and the properties its sysfs folder exposes.

echo
echo "vrampool demo on $(uname -r)"
if [ -d /sys/module/vrampool/parameters ]; then
	printf 'module parameters:'
	for p in /sys/module/vrampool/parameters/*; do
		[ -r "$p" ] && printf ' %s=%s' "${p##*/}" "$(cat "$p")"
	done
	echo
fi

# show_files DIR INDENT: print "name: value" for each readable file in DIR.
show_files() {
	for f in "$1"/*; do
		if [ ! -f "$f" ] || [ ! -r "$f" ]; then
			continue
		fi
		printf '%s%-24s %s\n' "$2" "${f##*/}:" "$(head -c 256 "$f" 2>/dev/null | tr '\n' ' ')"
	done
}

found=0
for node in /dev/accel/accel*; do
	[ -c "$node" ] || continue
	found=$((found + 1))
	name=${node##*/}
	sys=/sys/class/accel/$name
	dev=$(readlink -f "$sys/device")
	bus=$(basename "$(readlink -f "$dev/subsystem")")
	driver=$(basename "$(readlink -f "$dev/driver" 2>/dev/null)" 2>/dev/null)
	echo
	case $bus in
	pci)
		bar2=$(sed -n 3p "$dev/resource" | { read -r s e _; echo $(((e - s + 1) / 1048576)); })
		echo "$node: PCI ${dev##*/} ($(cat "$dev/vendor"):$(cat "$dev/device"), BAR2 $bar2 MiB), driver $driver"
		;;
	platform)
		echo "$node: platform ${dev##*/}, driver $driver"
		;;
	*)
		echo "$node: $bus ${dev##*/}, driver $driver"
		;;
	esac
	if [ -d "$dev/vrampool" ]; then
		show_files "$dev/vrampool" "    "
		for d in "$dev/vrampool"/*/; do
			[ -d "$d" ] || continue
			echo "    ${d%/}/" | sed "s|$dev/vrampool/||"
			show_files "${d%/}" "        "
		done
	fi
done
echo
echo "$found vrampool device(s)"

# The same through the ioctl interface, when userspace/ built the tool.
if command -v vrampoolctl >/dev/null; then
	echo
	echo "vrampoolctl info:"
	vrampoolctl info 2>&1 | sed 's/^/    /'
fi

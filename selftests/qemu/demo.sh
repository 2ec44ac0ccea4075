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

# The driver's main job: a runtime carves its VRAM into pools. One script,
# one process, one open file (handles and layouts belong to an open file).
if command -v vrampoolctl >/dev/null; then
	cat > /tmp/transformer.vp <<'SCRIPT'
# A small transformer on vrampool.0: install a layout for this model.
install sliced:page=4MiB,slice=1MiB sliced:page=16MiB,slice=8MiB,cap=64MiB exclusive:max=32MiB,dealloc=1000 direct:reclaim=32MiB
# Weights live in the persistent pool (255), which no install touches.
alloc tok_embed 6MiB persistent
alloc l0_qkv 3MiB persistent
alloc l0_proj 1MiB persistent
alloc l0_mlp_up 4MiB persistent
alloc l0_mlp_down 4MiB persistent
alloc l1_qkv 3MiB persistent
alloc l1_proj 1MiB persistent
alloc l1_mlp_up 4MiB persistent
alloc l1_mlp_down 4MiB persistent
alloc lm_head 6MiB persistent
# Activations and caches come from the dynamic pools, first fit.
alloc hidden 768KiB
alloc attn_scores 512KiB
alloc mlp_act 3MiB
alloc kv_cache 12MiB
alloc logits 40000
alloc batch_staging 48MiB
write hidden 7
check hidden 7
stat
map
# A layout whose slice exceeds its page is refused, with the documented error.
expect-error SliceLargerThanPage
install sliced:page=1MiB,slice=2MiB
# Reinstalling while activations live: PoolsInUse, with the live bytes.
expect-error PoolsInUse
install exclusive-pages
# Free the activations: now the new layout goes in; the weights stay.
free hidden
free attn_scores
free mlp_act
free kv_cache
free logits
free batch_staging
install sliced:page=8MiB,slice=2MiB direct
map
SCRIPT
	echo
	echo "vrampoolctl run (a small transformer on /dev/accel/accel0):"
	vrampoolctl run --device /dev/accel/accel0 /tmp/transformer.vp 2>&1 | sed 's/^/    /'
fi

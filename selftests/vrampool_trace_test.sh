#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The tracepoints (events/vrampool/ in tracefs): a vrampoolctl script on the
# first device allocates, frees, is refused, cleans up and installs, with
# every vrampool event enabled; the trace must show that client's events in
# that order with the script's own values (sizes, handles, the refusal's
# error kind and errno, the install's generation and pool count), page
# creations and releases that balance once the file is closed, cleanup's
# released bytes equal to the pages released during it, and the close's
# vrampool_close event counting the live allocation (w), its record and
# the spare one (a's), and the pages released after it. A second script
# allocates and frees in batches and has one refused: each allocation and
# free of a successful batch has its own vrampool_alloc / vrampool_free
# event, each batch a vrampool_batch event (op, count, errno, the index
# at fault, the error kind).
#
# busybox only in the VM: the trace is read with grep and sed.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"

V=${VRAMPOOLCTL:-vrampoolctl}
T=/sys/kernel/tracing
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vrampool_trace_test.XXXXXX") || exit 1

cleanup() {
	[ -d "$T/events/vrampool" ] && echo 0 > "$T/events/vrampool/enable"
	rm -rf "$TMP"
}
trap cleanup EXIT

require_module
if ! command -v "$V" > /dev/null 2>&1; then
	echo "1..0 # SKIP $V not installed (the test VM has it in /bin)"
	exit 4
fi
echo "1..14"
[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2> /dev/null
if [ ! -d "$T/events/vrampool" ]; then
	not_ok "events/vrampool/ in tracefs"
	echo "# $T/events/vrampool missing: a kernel without CONFIG_TRACING?"
	exit 1
fi
ok "events/vrampool/ in tracefs"

# The test VM (its init sets VRAMPOOL_TIER) boots with
# trace_options=norecord-cmd (run-vm.sh says why): enabling the events
# below must patch no scheduler tracepoint.
t="the test VM's tracefs records no command names (trace_options=norecord-cmd)"
if [ -z "${VRAMPOOL_TIER:-}" ]; then
	n=$((n + 1))
	echo "ok $n $t # SKIP not the test VM"
elif [ "$(cat "$T/options/record-cmd")" = 0 ]; then
	ok "$t"
else
	not_ok "$t"
fi
# ... and with the scheduler's tracepoints held by two probes each from
# boot on (run-vm.sh's trace_instance=vm_pin1 and vm_pin2), so that the
# pid filter of vrampoolctl record patches none of them either.
t="the test VM keeps two probes on the scheduler's tracepoints (trace_instance=vm_pin1, vm_pin2)"
pinned=0
for e in sched_switch sched_wakeup sched_wakeup_new sched_waking sched_process_fork \
	sched_process_free; do
	for i in vm_pin1 vm_pin2; do
		[ "$(cat "$T/instances/$i/events/sched/$e/enable" 2> /dev/null)" = 1 ] &&
			pinned=$((pinned + 1))
	done
done
if [ -z "${VRAMPOOL_TIER:-}" ]; then
	n=$((n + 1))
	echo "ok $n $t # SKIP not the test VM"
elif [ "$pinned" = 12 ]; then
	ok "$t"
else
	not_ok "$t"
	echo "# $pinned of 12 scheduler events enabled in vm_pin1 and vm_pin2"
fi

# The device with the most VRAM (the emulated one: its default layout has
# sliced pools, whose free page the script's cleanup gives back).
largest_device "$V"

cat > "$TMP/script" <<'EOF'
alloc a 4096
alloc w 8192 persistent
free a
expect-error BufferTooBig
alloc big 1099511627776
cleanup
install exclusive-pages
EOF

echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/events/vrampool/enable"
echo 1 > "$T/tracing_on"
"$V" run --device "$DEV" "$TMP/script" > "$TMP/out" 2> "$TMP/err"
rc=$?
echo 0 > "$T/tracing_on"
# One line per event, "NAME: fields", in trace order.
sed -n 's/.* \(vrampool_[a-z_]*\): /\1: /p' "$T/trace" > "$TMP/events"
sed 's/^/# trace: /' "$TMP/events" | head -n 40

if [ $rc -eq 0 ]; then
	ok "the script ran"
else
	not_ok "the script ran (exit $rc)"
	sed 's/^/# /' "$TMP/err"
fi

# The script's client: the first allocation's.
client=$(sed -n 's/^vrampool_alloc: client=\([0-9]*\) .*/\1/p' "$TMP/events" | head -n 1)
grep "client=$client " "$TMP/events" > "$TMP/mine"
names=$(grep -v '^vrampool_page_' "$TMP/mine" | cut -d: -f1 | tr '\n' ' ')
# The install cleans up too, before it swaps the pools: a second cleanup.
want="vrampool_alloc vrampool_alloc vrampool_free vrampool_alloc_refused vrampool_cleanup vrampool_cleanup vrampool_install vrampool_close "
if [ -n "$client" ] && [ "$names" = "$want" ]; then
	ok "client $client: alloc, alloc, free, refused alloc, cleanup, install (cleanup, swap), close, in order"
else
	not_ok "the script's events in order"
	echo "# got:  $names"
	echo "# want: $want"
fi

# field NAME N KEY: KEY's value in the Nth NAME event of the client
field() {
	grep "^$1: " "$TMP/mine" | sed -n "$2p" | sed -n "s/.* $3=\([^ ]*\).*/\1/p"
}

h=$(field vrampool_alloc 1 handle)
if [ "$(field vrampool_alloc 1 size)" = 4096 ] && [ "$(field vrampool_alloc 2 size)" = 8192 ] &&
   [ "$(field vrampool_alloc 2 pool)" = 255 ] && [ -n "$h" ] &&
   grep -q "^alloc a 4096: handle $h," "$TMP/out"; then
	ok "alloc events: the sizes, the persistent pool, the handle the script was given"
else
	not_ok "alloc events: the sizes, the persistent pool, the handle the script was given"
	sed 's/^/# out: /' "$TMP/out" | head -n 10
fi

if [ "$(field vrampool_free 1 handle)" = "$h" ] && [ "$(field vrampool_free 1 size)" = 4096 ]; then
	ok "free event: the handle and size of a"
else
	not_ok "free event: the handle and size of a"
fi

if [ "$(field vrampool_alloc_refused 1 size)" = 1099511627776 ] &&
   [ "$(field vrampool_alloc_refused 1 error)" = BufferTooBig ] &&
   [ "$(field vrampool_alloc_refused 1 ret)" = -27 ]; then
	ok "refused alloc event: size, BufferTooBig, -EFBIG"
else
	not_ok "refused alloc event: size, BufferTooBig, -EFBIG"
fi

# The CLEANUP's released bytes: the sizes of the pages released during it.
released=$(field vrampool_cleanup 1 released)
sum=0
for s in $(sed -n '/^vrampool_alloc_refused: /,/^vrampool_cleanup: /p' "$TMP/mine" |
	   sed -n 's/^vrampool_page_release: .* size=\([0-9]*\).*/\1/p'); do
	sum=$((sum + s))
done
if [ -n "$released" ] && [ "$released" -gt 0 ] && [ "$released" = "$sum" ]; then
	ok "cleanup released $released bytes, the pages released during it"
else
	not_ok "cleanup released '$released' bytes, pages released during it: $sum"
fi

gen=$(field vrampool_install 1 generation)
pools=$(field vrampool_install 1 pools)
if [ "$(field vrampool_install 1 ret)" = 0 ] && [ "$gen" = 2 ] && [ "${pools:-0}" -gt 1 ] &&
   [ "$(grep -c "^vrampool_page_create: " "$TMP/mine")" = \
     "$(grep -c "^vrampool_page_release: " "$TMP/mine")" ]; then
	ok "install event: generation 2, $pools pools; every page created was released by the close"
else
	not_ok "install event (generation '$gen', pools '$pools') and balanced page events"
fi

# The close: w live (one allocation, one record), a's record kept as the
# one spare (the refused ALLOC took it and gave it back), and the pages
# released between the install and the close's own event.
closing=$(sed -n '/^vrampool_install: /,/^vrampool_close: /p' "$TMP/mine" |
	  grep -c '^vrampool_page_release: ')
if [ "$(field vrampool_close 1 allocs)" = 1 ] && [ "$(field vrampool_close 1 records)" = 2 ] &&
   [ "$closing" -gt 0 ] && [ "$(field vrampool_close 1 pages)" = "$closing" ]; then
	ok "close event: 1 allocation, 2 records, the $closing pages released by the close"
else
	not_ok "close event: 1 allocation, 2 records, the $closing pages released by the close"
	grep '^vrampool_close: ' "$TMP/mine" | sed 's/^/# /'
fi

# ---- batches -------------------------------------------------------------
cat > "$TMP/batch" <<'EOF'
alloc-batch p=4096 q=0 r=8192:persistent
free-batch p q r
expect-error BufferTooBig
alloc-batch s=4096 big=1099511627776
EOF

echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/tracing_on"
"$V" run --device "$DEV" "$TMP/batch" > "$TMP/out" 2> "$TMP/err"
rc=$?
echo 0 > "$T/tracing_on"
sed -n 's/.* \(vrampool_[a-z_]*\): /\1: /p' "$T/trace" > "$TMP/events"
client=$(sed -n 's/^vrampool_batch: client=\([0-9]*\) .*/\1/p' "$TMP/events" | head -n 1)
grep "client=$client " "$TMP/events" > "$TMP/mine"
grep -v '^vrampool_page_' "$TMP/mine" | sed 's/^/# trace: /' | head -n 20
names=$(grep -v '^vrampool_page_' "$TMP/mine" | cut -d: -f1 | tr '\n' ' ')
want="vrampool_alloc vrampool_alloc vrampool_alloc vrampool_batch vrampool_free vrampool_free vrampool_free vrampool_batch vrampool_batch vrampool_close "
if [ $rc -eq 0 ] && [ -n "$client" ] && [ "$names" = "$want" ]; then
	ok "batches: each allocation and free, then the batch's event, in order; a refused batch alone; the close"
else
	not_ok "batches: the events in order (exit $rc)"
	echo "# got:  $names"
	echo "# want: $want"
	sed 's/^/# /' "$TMP/err"
fi

hp=$(sed -n 's/^  p: handle \([0-9]*\),.*/\1/p' "$TMP/out")
hr=$(sed -n 's/^  r: handle \([0-9]*\),.*/\1/p' "$TMP/out")
if [ -n "$hp" ] && [ "$(field vrampool_alloc 1 handle)" = "$hp" ] &&
   [ "$(field vrampool_alloc 1 size)" = 4096 ] && [ "$(field vrampool_alloc 2 size)" = 0 ] &&
   [ "$(field vrampool_alloc 3 handle)" = "$hr" ] && [ "$(field vrampool_alloc 3 pool)" = 255 ] &&
   [ "$(field vrampool_free 1 handle)" = "$hp" ] && [ "$(field vrampool_free 3 size)" = 8192 ] &&
   [ "$(field vrampool_batch 1 op)" = alloc ] && [ "$(field vrampool_batch 1 count)" = 3 ] &&
   [ "$(field vrampool_batch 1 ret)" = 0 ] && [ "$(field vrampool_batch 1 failed)" = -1 ] &&
   [ "$(field vrampool_batch 1 error)" = None ] &&
   [ "$(field vrampool_batch 2 op)" = free ] && [ "$(field vrampool_batch 2 count)" = 3 ] &&
   [ "$(field vrampool_batch 2 ret)" = 0 ]; then
	ok "batch events: the handles and sizes the script was given, op, count, ret 0, no index"
else
	not_ok "batch events: the handles and sizes the script was given, op, count, ret 0, no index"
	sed 's/^/# out: /' "$TMP/out" | head -n 10
fi

if [ "$(field vrampool_batch 3 op)" = alloc ] && [ "$(field vrampool_batch 3 count)" = 2 ] &&
   [ "$(field vrampool_batch 3 ret)" = -27 ] && [ "$(field vrampool_batch 3 failed)" = 1 ] &&
   [ "$(field vrampool_batch 3 error)" = BufferTooBig ] &&
   ! grep -q '^vrampool_alloc_refused: ' "$TMP/mine"; then
	ok "refused batch event: count 2, -EFBIG, request 1, BufferTooBig (and no per-request event)"
else
	not_ok "refused batch event: count 2, -EFBIG, request 1, BufferTooBig (and no per-request event)"
fi

totals

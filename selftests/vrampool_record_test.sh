#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# record -> replay -> plan, on the test VM's device with the most VRAM
# (/bin/vrampoolctl):
#
#  - `record --pid` of a `vrampoolctl run` script records exactly what the
#    script did (sizes, order, persistent, frees; a batch's allocations
#    and frees one by one), as a trace that replays;
#  - `record --pid` of a replay of a model trace records that trace's
#    operations exactly (its IDs renamed a1, a2, ... in allocation order);
#  - `record --client ID` keeps that client alone while another one
#    allocates; `record` stops on SIGTERM, and with --duration by itself;
#  - every recording leaves tracefs as it found it: no instance left, the
#    top-level vrampool events still disabled and unfiltered;
#  - `plan` on both model traces (vrampoolctl trace at the device's VRAM)
#    proposes a layout that validates offline, installs on the device, and
#    whose peak reserved is no more than every preset's; a replay with it
#    gives the figures plan showed (the plan is deterministic). The
#    figures are printed ("# plan ..."), never asserted beyond that.
#
# No fixed sleep: each workload first waits on a FIFO (the run script's
# `wait FILE`, after it has opened the device; `read` for a replay), which
# the test opens and closes only once the recorder has said on stderr that
# it records; a recorder that missed the first events fails the
# comparison. Waits for a condition poll without a bound: the suite's
# per-test timeout catches a hang.
# The debug kernel (VRAMPOOL_TIER=debug) runs several times slower: there,
# the model traces have one training step at a quarter of the VRAM.
#
# busybox only in the VM: the JSON is read with grep, sed and awk.

# shellcheck source=vrampool_lib.sh
. "$(dirname "$0")/vrampool_lib.sh"

V=${VRAMPOOLCTL:-vrampoolctl}
T=/sys/kernel/tracing
STEPS=2
[ "${VRAMPOOL_TIER:-}" = debug ] && STEPS=1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vrampool_record_test.XXXXXX") || exit 1
trap 'kill $(jobs -p) 2> /dev/null; rm -rf "$TMP"' EXIT

# ops FILE: the operations of a trace, comments and blank lines dropped
ops() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }

# renamed FILE: a trace's operations with its IDs renamed a1, a2, ... in
# allocation order, as record names them
renamed() {
	ops "$1" | awk '$1 == "alloc" { id[$2] = "a" (++k); $2 = id[$2]; print; next }
			$1 == "free" { $2 = id[$2]; print }'
}

# tracefs_clean: no recorder instance left, the top-level events off and unfiltered
tracefs_clean() {
	for i in "$T"/instances/vrampoolctl-record-*; do
		[ -e "$i" ] && fail "instance $i left"
	done
	for e in vrampool_alloc vrampool_free; do
		[ "$(cat "$T/events/vrampool/$e/enable")" = 0 ] || fail "top-level $e enabled"
		[ "$(cat "$T/events/vrampool/$e/filter")" = none ] || fail "top-level $e filtered"
	done
}

# The client id of process PID on the device (its sysfs clients/ folder)
client_of() {
	for c in "$CLIENTS"/*; do
		[ "$(cat "$c/pid" 2> /dev/null)" = "$1" ] && basename "$c" && return 0
	done
	return 1
}

# recording ERR PID: wait until the recorder PID says on stderr (file ERR)
# that it records; 1 if it exits without saying so.
recording() {
	while ! grep -q '^vrampoolctl: record: recording ' "$1"; do
		if ! kill -0 "$2" 2> /dev/null; then
			grep -q '^vrampoolctl: record: recording ' "$1"
			return
		fi
		sleep 0.1
	done
}

# start_recorder ERR ARGS...: `record ARGS` in the background (its pid in
# $RP, its stderr in ERR), once it has said that it records
start_recorder() {
	err=$1
	shift
	: > "$err"	# the shell opens the job's 2>> in the child: empty it first
	"$V" record "$@" > /dev/null 2>> "$err" &
	RP=$!
	recording "$err" "$RP" || fail "the recorder exited without recording: $(cat "$err")"
}

# go FIFO: let the workload waiting on FIFO go on (open, close: its EOF)
go() { : > "$1"; }

# cat_script FIFO: the script, which waits on FIFO first
cat_script() {
	cat <<EOF
wait $1
alloc a 4096
alloc w 8192 persistent
alloc b 1MiB
free a
alloc c 12345
alloc a 300
free b
free c
free w
alloc-batch p=4096 q=12 r=8192:persistent
free-batch p q
EOF
}

# What that script does, as record writes it.
cat > "$TMP/want" <<'EOF'
alloc a1 4096
alloc a2 8192 persistent
alloc a3 1048576
free a1
alloc a4 12345
alloc a5 300
free a3
free a4
free a2
alloc a6 4096
alloc a7 12
alloc a8 8192 persistent
free a6
free a7
EOF

record_script() {
	mkfifo "$TMP/go"
	cat_script "$TMP/go" > "$TMP/script"
	t "record --pid of a run script: exactly its allocations and frees (batches too), in order"
	"$V" run --device "$DEV" "$TMP/script" > "$TMP/run.out" 2>&1 &
	pid=$!
	start_recorder "$TMP/rec.err" --pid "$pid" "$TMP/rec.trace"
	go "$TMP/go"
	wait "$RP"
	rc=$?
	wait "$pid" || fail "the script failed"
	[ "$rc" = 0 ] || fail "record: exit $rc"
	grep -qx "vrampoolctl: record: recording pid $pid (1 thread) into $TMP/rec.trace, until it exits" \
		"$TMP/rec.err" || fail "no 'recording' line"
	ops "$TMP/rec.trace" > "$TMP/got"
	cmp -s "$TMP/got" "$TMP/want" || fail "the recorded operations differ"
	grep -q '^# recorded: 8 allocs (2 persistent), 6 frees, 2 left live; peak live 1069413 bytes; 0 frees of earlier allocations left out; 0 unseen frees; stopped: the process exited$' \
		"$TMP/rec.trace" || fail "not the summary line"
	end "$TMP/got" "$TMP/rec.err" "$TMP/run.out"

	t "record: tracefs as it was (no instance left, top-level events off, no filter)"
	tracefs_clean
	end

	t "the recorded trace replays: its peak live, the persistent allocation in pool 255"
	"$V" replay --device "$DEV" --json "$TMP/rec.trace" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ "$rc" = 0 ] || fail "exit $rc"
	grep -q '^{"ok":true,' "$TMP/out" || fail "not ok"
	grep -q '"operations":14,"done":14,"allocs":8,"frees":6,"persistent_allocs":2,"peak_live":1069413,' \
		"$TMP/out" || fail "not the trace's counts and peak live"
	grep -q '{"pool":255,"allocs":2}' "$TMP/out" || fail "pool 255 did not serve the persistent ones"
	end "$TMP/out" "$TMP/err"
}

record_replay() {
	m=$1
	"$V" trace "$m" --vram "$PLAN_VRAM" --steps 1 -o "$TMP/$m.trace" || return
	[ -p "$TMP/go" ] || mkfifo "$TMP/go"
	t "record --pid of a replay of $m: the trace's operations, IDs renamed"
	sh -c "read -r _ < \"$TMP/go\"; exec \"$V\" replay --device \"$DEV\" \"$TMP/$m.trace\"" \
		> "$TMP/run.out" 2>&1 &
	pid=$!
	start_recorder "$TMP/rec.err" --pid "$pid" "$TMP/rec.trace"
	go "$TMP/go"
	wait "$RP"
	rc=$?
	wait "$pid" || fail "the replay failed"
	[ "$rc" = 0 ] || fail "record: exit $rc"
	renamed "$TMP/$m.trace" > "$TMP/want.$m"
	ops "$TMP/rec.trace" > "$TMP/got"
	cmp -s "$TMP/got" "$TMP/want.$m" || fail "the recorded operations differ (first: $(cmp "$TMP/got" "$TMP/want.$m" 2>&1 | head -n 1))"
	[ -s "$TMP/got" ] || fail "nothing recorded"
	grep -q "unseen frees; stopped: the process exited$" "$TMP/rec.trace" || fail "no summary"
	tracefs_clean
	end "$TMP/rec.err"
	echo "# record $m: $(grep -c . "$TMP/got") operations recorded"
}

record_client() {
	t "record --client ID: that client alone, while another allocates; stopped by SIGTERM"
	# Both scripts open the device, then wait: the first one's client
	# exists before the recorder starts, and neither allocates before it
	# records.
	mkfifo "$TMP/go1" "$TMP/go2"
	cat_script "$TMP/go1" > "$TMP/script"
	"$V" run --device "$DEV" "$TMP/script" > /dev/null 2>&1 &
	p1=$!
	printf 'wait %s\nalloc other 65536\nfree other\n' "$TMP/go2" > "$TMP/script2"
	"$V" run --device "$DEV" "$TMP/script2" > /dev/null 2>&1 &
	p2=$!
	while ! id=$(client_of "$p1") && kill -0 "$p1" 2> /dev/null; do
		sleep 0.1
	done
	[ -n "$id" ] || fail "no client of pid $p1 in $CLIENTS"
	start_recorder "$TMP/rec.err" --client "${id:-0}" "$TMP/rec.trace"
	go "$TMP/go1"
	go "$TMP/go2"
	wait "$p1" || fail "the first script failed"
	wait "$p2" || fail "the second script failed"
	# Both done: their events are in the buffer, which the recorder
	# drains after the signal.
	kill -TERM "$RP"
	wait "$RP"
	rc=$?
	[ "$rc" = 0 ] || fail "record: exit $rc"
	grep -qx "vrampoolctl: record: recording the client into $TMP/rec.trace, until SIGINT or SIGTERM" \
		"$TMP/rec.err" || fail "no 'recording' line"
	ops "$TMP/rec.trace" > "$TMP/got"
	cmp -s "$TMP/got" "$TMP/want" || fail "not exactly the first client's operations"
	grep -q "^# made by: vrampoolctl record --client ${id:-0}$" "$TMP/rec.trace" || fail "no header"
	grep -q "stopped: SIGTERM$" "$TMP/rec.trace" || fail "not stopped by SIGTERM"
	tracefs_clean
	end "$TMP/got" "$TMP/rec.err"

	t "record --duration: stops by itself once the duration has passed, exit 0"
	# What it records (any client's work meanwhile) is not asserted: only
	# that the duration, not a signal or an exit, stopped it.
	"$V" record --duration 0.5 "$TMP/dur.trace" > /dev/null 2> "$TMP/dur.err"
	rc=$?
	[ "$rc" = 0 ] || fail "record: exit $rc"
	grep -qx "vrampoolctl: record: recording every client into $TMP/dur.trace, until SIGINT or SIGTERM or the duration" \
		"$TMP/dur.err" || fail "no 'recording' line"
	grep -q "stopped: the duration passed$" "$TMP/dur.trace" || fail "not stopped by the duration"
	tracefs_clean
	end "$TMP/dur.err"

	t "record (every client) stops on SIGTERM, exit 0, tracefs as it was"
	# A new tracing instance takes a while on a busy emulated machine:
	# start_recorder waits for it to say it records, however long that takes.
	start_recorder "$TMP/sigterm.err" "$TMP/all.trace"
	p=$RP
	printf 'alloc x 4096\nfree x\n' > "$TMP/script3"
	"$V" run --device "$DEV" "$TMP/script3" > /dev/null 2>&1 || fail "the script failed"
	# The script has exited: its events are in the buffer, which the
	# recorder drains after the signal.
	kill -TERM "$p"
	wait "$p"
	rc=$?
	[ "$rc" = 0 ] || fail "record: exit $rc"
	ops "$TMP/all.trace" > "$TMP/got"
	printf 'alloc a1 4096\nfree a1\n' > "$TMP/want3"
	cmp -s "$TMP/got" "$TMP/want3" || fail "not the script's two operations: $(tr '\n' ';' < "$TMP/got")"
	grep -q "stopped: SIGTERM$" "$TMP/all.trace" || fail "not stopped by SIGTERM"
	tracefs_clean
	end "$TMP/got" "$TMP/sigterm.err"

	t "record --pid of no process: exit 2, the documented message"
	"$V" record --pid 999999 "$TMP/none.trace" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ "$rc" = 2 ] || fail "exit $rc"
	grep -qx "vrampoolctl: record: --pid 999999: no such process" "$TMP/err" || fail "not the message"
	[ ! -e "$TMP/none.trace" ] || fail "a file was written"
	end "$TMP/err"
}

# jget KEY FILE: the first value of KEY (a number) in FILE's JSON
jget() { grep -o "\"$1\":[^,}]*" "$2" | head -n 1 | cut -d: -f2- | tr -d '"'; }

plan_model() {
	m=$1
	t "plan $m: a layout that validates, installs, and reserves no more than every preset"
	"$V" trace "$m" --vram "$PLAN_VRAM" --steps "$STEPS" -o "$TMP/$m.trace" || fail "trace failed"
	"$V" plan --device "$DEV" --json "$TMP/$m.trace" > "$TMP/plan.json" 2> "$TMP/err"
	rc=$?
	[ "$rc" = 0 ] || fail "exit $rc"
	grep -q '^{"ok":true,' "$TMP/plan.json" || fail "not ok"
	# The chosen layout: the top-level "layout", after the candidates.
	layout=$(sed 's/.*\],"chosen":"[^"]*","layout":"\([^"]*\)".*/\1/' "$TMP/plan.json")
	chosen=$(sed -n 's/.*\],"chosen":"\([^"]*\)".*/\1/p' "$TMP/plan.json")
	install=$(sed -n 's/.*"install":"\([^"]*\)".*/\1/p' "$TMP/plan.json")
	[ -n "$chosen" ] || fail "no chosen layout"
	[ "$install" = "install $layout" ] || fail "install line '$install', layout '$layout'"
	# One candidate a line: name, preset, ok, peak reserved.
	grep -o '{"name":"[^{}]*' "$TMP/plan.json" |
		sed -n 's/.*"name":"\([^"]*\)","preset":\([^,]*\),"layout":"\([^"]*\)","ok":\([a-z]*\),"peak_live":\([0-9]*\),"peak_reserved":\([0-9]*\),"ratio":\([^,]*\),"ops_per_sec":\([^,]*\).*/\1|\2|\4|\5|\6|\7|\8|\3/p' \
		> "$TMP/cands"
	best=$(awk -F'|' -v c="$chosen" '$1 == c { print $5 }' "$TMP/cands")
	[ -n "$best" ] || fail "the chosen candidate '$chosen' has no figures"
	while IFS='|' read -r cname preset cok live res ratio ops spec; do
		echo "# plan $m: $cname: peak live $live, peak reserved $res, ratio $ratio, $ops ops/s ($spec)"
		[ "$preset" = null ] && continue
		[ "$cok" = true ] || continue
		[ "${best:-0}" -le "$res" ] || fail "chosen reserves $best, preset $cname $res"
	done < "$TMP/cands"
	grep -q '"preset":"sub-slices"' "$TMP/plan.json" || fail "no sub-slices candidate"
	# shellcheck disable=SC2086 # the layout is words
	"$V" validate --alignment "$ALIGN" --max-page-size "$MAXPAGE" $layout > "$TMP/out" 2> "$TMP/err" ||
		fail "validate $layout failed"
	# shellcheck disable=SC2086
	"$V" install --device "$DEV" $layout > "$TMP/out" 2> "$TMP/err" || fail "install $layout failed"
	# shellcheck disable=SC2086
	"$V" replay --device "$DEV" --json "$TMP/$m.trace" $layout > "$TMP/out" 2> "$TMP/err" ||
		fail "replay with $layout failed"
	[ "$(jget peak_reserved "$TMP/out")" = "$best" ] ||
		fail "replay reserves $(jget peak_reserved "$TMP/out"), plan said $best"
	end "$TMP/plan.json" "$TMP/err"
	echo "# plan $m: chosen $chosen: $install"
}

require_module
if ! command -v "$V" > /dev/null 2>&1; then
	echo "1..0 # SKIP $V not installed (the test VM has it in /bin)"
	exit 4
fi
[ -d "$T/events" ] || mount -t tracefs nodev "$T" 2> /dev/null
if [ ! -d "$T/events/vrampool" ]; then
	echo "1..1"
	echo "not ok 1 events/vrampool/ in tracefs"
	exit 1
fi
largest_device "$V"
if [ -z "$DEV" ]; then
	echo "1..1"
	echo "not ok 1 no vrampool device"
	exit 1
fi
CLIENTS=/sys/class/accel/$(basename "$DEV")/device/vrampool/clients
"$V" info --json --device "$DEV" > "$TMP/info"
ALIGN=$(jget alignment "$TMP/info")
MAXPAGE=$(jget max_page_size "$TMP/info")
PLAN_VRAM=$VRAM
[ "${VRAMPOOL_TIER:-}" = debug ] && PLAN_VRAM=$((VRAM / 4))
echo "# device $DEV, $VRAM bytes of VRAM, alignment $ALIGN, largest page $MAXPAGE; traces at $PLAN_VRAM, $STEPS steps"

record_script
record_replay gpt2-small
record_replay llama-7b
record_client
plan_model gpt2-small
plan_model llama-7b

echo "1..$n"
totals

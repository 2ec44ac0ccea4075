#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vrampoolctl against the real devices of the test VM (/bin/vrampoolctl):
# info (text, JSON, --device), install and install --test-only on every
# device, `run` scripts (allocations, frees, CPU writes and checks, the
# documented errors through expect-error with their exact messages,
# persistent modes), stat and map of a script's client, stat --all while
# another process holds a client, top with two other processes' clients
# (text, frames, JSON), watch --count, plan of a small trace (text,
# JSON, every candidate's figures) and of one no layout takes, and the exit
# codes.
#
# The VM has busybox and no python3: JSON is checked here for its
# structure only (one line, balanced, no trailing comma, strings closed)
# and for a few values with grep; tests/cli parses the offline commands'
# JSON for real.
#
# Expected values come from the device (info) and from the tool's own
# offline resolver (validate), so the kernel is checked against the
# layout code it shares with libvrampool.

V=${VRAMPOOLCTL:-vrampoolctl}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vrampool_cli_test.XXXXXX") || exit 1
BG=""
BG2=""
cleanup() {
	[ -n "$BG" ] && kill "$BG" 2> /dev/null
	[ -n "$BG2" ] && kill "$BG2" 2> /dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# shellcheck source=vrampool_cli_lib.sh
. "$(dirname "$0")/vrampool_cli_lib.sh"

# ---- more helpers: each is a no-op while the tests are counted -----------
# out_words LINE: a stdout line has these words (blanks between them squeezed)
out_words() {
	[ -n "$COUNT" ] && return 0
	awk '{ $1 = $1; print }' "$TMP/out" | grep -qxF -- "$1" || fail "no stdout line (words): $1"
}
out_count() {	# out_count N TEXT: N stdout lines contain TEXT
	[ -n "$COUNT" ] && return 0
	c=$(grep -cF -- "$2" "$TMP/out")
	[ "$c" = "$1" ] || fail "$c stdout lines with '$2', expected $1"
}

# json_lines [N]: every stdout line is a JSON object, structurally: brackets
# balanced and matched outside strings, strings closed, no comma before a
# closing bracket; and there are N lines (default 1).
json_lines() {
	[ -n "$COUNT" ] && return 0
	awk -v want="${1:-1}" '
	{
		s = $0; stack = ""; instr = 0; esc = 0; prev = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (instr) {
				if (esc) esc = 0
				else if (c == "\\") esc = 1
				else if (c == "\"") instr = 0
				prev = "x"
				continue
			}
			if (c == "\"") { instr = 1; continue }
			if (c == "{" || c == "[") stack = stack c
			else if (c == "}" || c == "]") {
				if (prev == ",") bad = "comma before " c " in line " NR
				top = substr(stack, length(stack), 1)
				if ((c == "}" && top != "{") || (c == "]" && top != "["))
					bad = "unmatched " c " in line " NR
				stack = substr(stack, 1, length(stack) - 1)
			}
			if (c != " ") prev = c
		}
		if (stack != "" || instr) bad = "unbalanced line " NR
		if (substr(s, 1, 1) != "{" || substr(s, length(s), 1) != "}")
			bad = "line " NR " is not an object"
	}
	END {
		if (NR != want) bad = NR " lines, expected " want
		if (bad != "") { print bad; exit 1 }
	}' "$TMP/out" > "$TMP/jsonerr" || fail "JSON: $(cat "$TMP/jsonerr")"
}

# json_value DEVICE KEY: a number from info --json for one device
json_value() {
	"$V" info --json --device "$1" | grep -o "\"$2\":[0-9]*" | cut -d: -f2
}

# ---- the tests --------------------------------------------------------------

tests_info() {
	t "info: every device, exit 0"
	vp info
	rc_is 0
	for d in $DEVS; do
		out_has "$d ("
	done
	out_count "$NDEVS" "  abi_version "
	err_empty
	end

	t "info --json: one object listing every device"
	vp info --json
	rc_is 0
	json_lines 1
	out_has '{"devices":[{"path":"'
	out_count 1 "\"max_dynamic_pools\":254,\"persistent_pool\":255,\"abi_version\":"
	[ -n "$COUNT" ] || [ "$(grep -o '"path":' "$TMP/out" | wc -l)" = "$NDEVS" ] ||
		fail "not $NDEVS devices"
	end

	for d in $DEVS; do
		t "info --device $d: that device only"
		vp info --device "$d"
		rc_is 0
		out_count 1 "  vram_size "
		out_has "$d ("
		end
	done

	t "info --json escapes strings: a path with a quote and a backslash"
	if [ -z "$COUNT" ]; then
		first=${DEVS%% *}
		ln -s "$first" "$TMP/q\"uo\\te"
	fi
	vp info --json --device "$TMP/q\"uo\\te"
	rc_is 0
	json_lines 1
	out_has "\"path\":\"$TMP/q\\\"uo\\\\te\""
	end
}

tests_device() {
	d=$1
	[ -n "$COUNT" ] || {
		A=$(json_value "$d" alignment)
		M=$(json_value "$d" max_page_size)
		VRAM=$(json_value "$d" vram_size)
		"$V" validate --alignment "$A" --max-page-size "$M" sub-slices > "$TMP/default" 2>&1
		NPOOLS=$(grep -c '^ *[0-9]*  ' "$TMP/default")
	}

	t "$d: stat shows a fresh client with the default layout"
	vp stat --device "$d"
	rc_is 0
	out_has "$d ("
	out_has "): this client (its own open file)"
	out_has "  layout generation 1, $NPOOLS dynamic pools + persistent, persistent mode enabled, VRAM held 0 (0 B)"
	out_words "index type page slice cap max reclaim dealloc allocs in_use padding reserved pages peak largest"
	out_words "255 persistent - - - - - - 0 0 0 0 0 0 0"
	[ -n "$COUNT" ] || [ "$(grep -c '^ *[0-9][0-9]* [a-z]' "$TMP/out")" = $((NPOOLS + 1)) ] ||
		fail "not $NPOOLS pools + the persistent one"
	end

	t "$d: stat --json agrees with validate for the device's properties"
	vp stat --device "$d" --json
	rc_is 0
	json_lines 1
	out_has "\"generation\":1,\"vram_in_use\":0,\"persistent_mode\":\"enabled\""
	out_has '{"index":255,"type":"persistent","spec":"persistent","allocations":0'
	if [ -z "$COUNT" ]; then
		sed -n 's/^ *[0-9]*  //p' "$TMP/default" > "$TMP/specs"
		while read -r spec; do
			grep -qF "\"spec\":\"$spec\"" "$TMP/out" || fail "no pool $spec"
		done < "$TMP/specs"
	fi
	end

	t "$d: map of a fresh client: nothing reserved"
	vp map --device "$d"
	rc_is 0
	out_count $((NPOOLS + 1)) "(nothing reserved)"
	end

	t "$d: install --test-only sub-slices: the kernel accepts, validate's pools"
	vp install --device "$d" --test-only sub-slices
	rc_is 0
	out_line "$d: the kernel accepts the layout (test only: nothing installed), $NPOOLS pools"
	if [ -z "$COUNT" ]; then
		grep '^ *[0-9]*  ' "$TMP/default" > "$TMP/want"
		grep '^ *[0-9]*  ' "$TMP/out" | cmp -s - "$TMP/want" || fail "pools differ from validate"
	fi
	err_empty
	end

	t "$d: install --test-only of a bad layout: the kernel's documented error"
	vp install --device "$d" --test-only direct sliced:page=1KiB,slice=2KiB
	rc_is 1
	err_line "vrampoolctl: SliceLargerThanPage: \`max_slice_size\` (2048) exceeds \`page_size\` (1024); a slice can never span pages"
	err_line "vrampoolctl:   at pool 1: sliced:page=1KiB,slice=2KiB"
	end

	t "$d: install: what the kernel installed, and a note that it is gone"
	vp install --device "$d" sliced:page=64KiB,slice=8KiB,cap=1MiB,dealloc=10 exclusive:max=1000 direct:reclaim=7MiB
	rc_is 0
	out_line "$d: installed layout generation 2, 3 pools"
	out_line "    0  sliced:page=64KiB,slice=8KiB,cap=1MiB,dealloc=10"
	out_line "    1  exclusive:max=1KiB"
	out_line "    2  direct:reclaim=7MiB"
	err_has "vrampoolctl: note: a layout belongs to the open file that installed it"
	end

	t "$d: install --json"
	vp install --device "$d" --json exclusive:max=1MiB
	rc_is 0
	json_lines 1
	out_has "{\"ok\":true,\"device\":\"$d\",\"test_only\":false,\"preset\":null,\"generation\":2,\"num_pools\":1,\"pools\":[{\"index\":0,\"type\":\"exclusive\",\"max_alloc_size\":1048576,\"dealloc_period\":null,\"spec\":\"exclusive:max=1MiB\"}]}"
	end

	t "$d: install --json of a refused layout"
	vp install --device "$d" --json sliced:page=2KiB,cap=1KiB
	rc_is 1
	json_lines 1
	out_has '"ok":false'
	# shellcheck disable=SC2016 # the backquotes are the message's own
	out_has '"error":{"kind":"CapSmallerThanPage","message":"`max_pool_size` (1024) is smaller than `page_size` (2048); the cap can'"'"'t fit a single page","errno":22,"entry":0,"field":"max_pool_size","page_size":2048,"max_pool_size":1024}'
	end

	cat > "$TMP/main.vps" <<-'EOF'
	# Fill a capped pool, watch it refuse, free, reinstall.
	install sliced:page=2KiB,cap=4KiB
	alloc a 2KiB
	alloc b 2000
	expect-error PoolCapacityExceeded
	alloc c 2KiB      # no other pool takes it
	write a 0xab
	check a 0xab
	check b 0         # fresh VRAM reads zero
	map
	stat
	free a
	expect-error NotFound
	free a
	expect-error PoolsInUse
	install sub-slices
	free b
	install direct
	alloc p 1000 persistent
	mode enforced
	alloc q 3000
	mode disabled
	alloc r 1000 persistent
	alloc z 0
	write q 7
	check q 7
	stat --json
	cleanup
	EOF

	t "$d: run: allocations, expected errors with their messages, modes"
	vp run --device "$d" "$TMP/main.vps"
	rc_is 0
	out_line "install sliced:page=2KiB,cap=4KiB: installed layout generation 2, 1 pool"
	out_line "    0  sliced:page=2KiB,slice=2KiB,cap=4KiB"
	out_line "alloc a 2KiB: handle 1, pool 0, page 0, offset 0, size 2048, padding 0"
	out_line "alloc b 2000: handle 2, pool 0, page 1, offset 0, size 2000, padding 48"
	out_line "alloc c 2KiB: failed as expected: PoolCapacityExceeded: memory pool capacity exceeded: failed to reserve 2048 bytes, pool is capped at 4096 bytes (4048 bytes in use)"
	out_line "write a 0xab: wrote 2048 bytes of 0xab"
	out_line "check a 0xab: 2048 bytes of 0xab"
	out_line "check b 0: 2000 bytes of 0x00"
	out_line "free a: freed handle 1"
	out_line "free a: failed as expected: NotFound: couldn't find resource for that handle: no allocation 1 in this file"
	out_line "install sub-slices: failed as expected: PoolsInUse: the dynamic pools still hold 2000 bytes of live allocations; free them before installing a layout"
	out_line "free b: freed handle 2"
	out_line "install direct: installed layout generation 3, 1 pool"
	out_re "^alloc p 1000 persistent: handle [0-9]+, pool 255, page 0, offset 0, size 1000, padding 24$"
	out_line "mode enforced: persistent mode enforced (was enabled)"
	out_re "^alloc q 3000: handle [0-9]+, pool 255, page 1, offset 0, size 3000, padding 72$"
	out_line "mode disabled: persistent mode disabled (was enforced)"
	out_re "^alloc r 1000 persistent: handle [0-9]+, pool 0, page 0, offset 0, size 1000, padding 24$"
	out_re "^alloc z 0: handle [0-9]+, pool 0, page none, offset 0, size 0, padding 0$"
	out_line "write q 7: wrote 3000 bytes of 0x07"
	out_line "check q 7: 3000 bytes of 0x07"
	out_line "cleanup: done"
	err_empty
	end

	t "$d: run: map draws the full capped pool"
	out_words "0 sliced:page=2KiB,slice=2KiB,cap=4KiB 2/2 pages [################################] 4.00 KiB of 4.00 KiB (100.0%)"
	out_has "  255 persistent "
	end

	t "$d: run: stat shows the script's client"
	out_re "^  layout generation 2, 1 dynamic pools \+ persistent, persistent mode enabled, VRAM held [0-9]+ "
	# index type page slice cap max reclaim dealloc allocs in_use padding reserved pages peak largest
	out_words "0 sliced 2KiB 2KiB 4KiB - - - 2 4048 48 4KiB 2 2 2KiB"
	end

	t "$d: run: stat --json inside a script"
	if [ -z "$COUNT" ]; then
		grep '^{' "$TMP/out" > "$TMP/out.json"
		mv "$TMP/out.json" "$TMP/out"
	fi
	json_lines 1
	out_has '"generation":3'
	out_has '"persistent_mode":"disabled"'
	out_has '{"index":0,"type":"direct","reclaim_at":null,"spec":"direct","allocations":2,"bytes_in_use":1000,'
	out_has '{"index":255,"type":"persistent","spec":"persistent","allocations":2,"bytes_in_use":4000,'
	end

	t "$d: run: handles belong to the open file: a new run starts at 1"
	printf 'alloc a 1KiB\nalloc b 1KiB\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 0
	out_has "alloc a 1KiB: handle 1, "
	out_has "alloc b 1KiB: handle 2, "
	end

	t "$d: run: BufferTooBig unexpected: exit 1, the message, the script stops"
	printf 'install exclusive:max=1KiB\nalloc big 2KiB\nalloc never 1\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 1
	err_line "vrampoolctl: run: line 2: alloc big 2KiB: BufferTooBig: can't allocate buffer of size: 2048"
	out_lacks "alloc never"
	end

	t "$d: run: expect-error of another kind: exit 4"
	printf 'install exclusive:max=1KiB\nexpect-error PoolCapacityExceeded\nalloc big 2KiB\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 4
	err_line "vrampoolctl: run: line 3: alloc big 2KiB: expected PoolCapacityExceeded, got BufferTooBig: can't allocate buffer of size: 2048"
	end

	t "$d: run: expect-error, then success: exit 4"
	printf 'expect-error NotFound\nalloc a 1KiB\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 4
	err_line "vrampoolctl: run: line 2: alloc a 1KiB: succeeded, expected NotFound"
	end

	t "$d: run: freeing a freed name without expect-error: exit 2"
	printf 'alloc a 1KiB\nfree a\nfree a\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 2
	err_line "vrampoolctl: run: line 3: 'a' is already freed (free it again only after expect-error)"
	end

	cat > "$TMP/batch.vps" <<-'EOF'
	install sliced:page=2KiB,cap=4KiB
	alloc-batch a=2KiB b=2000
	write a 0xab
	check a 0xab
	free-batch a b
	expect-error PoolCapacityExceeded
	alloc-batch x=2KiB y=2KiB z=2KiB
	expect-error BufferTooBig
	alloc-batch x=2KiB big=1TiB
	stat --json
	expect-error NotFound
	free-batch a
	alloc-batch c=1KiB d=1KiB:persistent
	expect-error DuplicateHandle
	free-batch c d c
	free-batch c d
	EOF

	t "$d: run: alloc-batch and free-batch, all or nothing, their errors by request"
	vp run --device "$d" "$TMP/batch.vps"
	rc_is 0
	out_line "alloc-batch a=2KiB b=2000: 2 allocations"
	out_line "  a: handle 1, pool 0, page 0, offset 0, size 2048, padding 0"
	out_line "  b: handle 2, pool 0, page 1, offset 0, size 2000, padding 48"
	out_line "check a 0xab: 2048 bytes of 0xab"
	out_line "free-batch a b: freed handles 1 2"
	out_line "alloc-batch x=2KiB y=2KiB z=2KiB: failed as expected: request 2 (z): PoolCapacityExceeded: memory pool capacity exceeded: failed to reserve 2048 bytes, pool is capped at 4096 bytes (4096 bytes in use)"
	out_line "alloc-batch x=2KiB big=1TiB: failed as expected: request 1 (big): BufferTooBig: can't allocate buffer of size: 1099511627776"
	out_line "free-batch a: failed as expected: entry 0 (a): NotFound: couldn't find resource for that handle: no allocation 1 in this file"
	# The refused batches used up no handle: c gets 3.
	out_line "alloc-batch c=1KiB d=1KiB:persistent: 2 allocations"
	out_line "  c: handle 3, pool 0, page 0, offset 0, size 1024, padding 0"
	out_re "^  d: handle 4, pool 255, page [0-9]+, offset 0, size 1024, padding 0$"
	out_line "free-batch c d c: failed as expected: entry 2 (c): DuplicateHandle: handle 3 is named twice in the batch (entry 2)"
	out_line "free-batch c d: freed handles 3 4"
	err_empty
	end

	t "$d: run: a refused batch leaves no allocation (stat --json)"
	if [ -z "$COUNT" ]; then
		grep '^{' "$TMP/out" > "$TMP/out.json"
		mv "$TMP/out.json" "$TMP/out"
	fi
	json_lines 1
	out_re '"index":0,[^}]*"allocations":0,"bytes_in_use":0,'
	end

	t "$d: run: alloc-batch refused unexpectedly: exit 1, the request named, the script stops"
	printf 'install exclusive:max=1KiB\nalloc-batch a=1KiB big=2KiB\nalloc never 1\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 1
	err_line "vrampoolctl: run: line 2: alloc-batch a=1KiB big=2KiB: request 1 (big): BufferTooBig: can't allocate buffer of size: 2048"
	out_lacks "alloc never"
	end

	t "$d: run: check finds another byte: exit 4"
	printf 'alloc a 1KiB\nwrite a 1\ncheck a 2\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 4
	err_line "vrampoolctl: run: line 3: check a 2: byte 0 of 1024 is 0x01, not 0x02"
	end

	t "$d: run: an install the kernel refuses: exit 1, the entry named"
	printf 'install direct sliced:page=1KiB,slice=2KiB\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 1
	err_line "vrampoolctl: run: line 1: install direct sliced:page=1KiB,slice=2KiB: SliceLargerThanPage: \`max_slice_size\` (2048) exceeds \`page_size\` (1024); a slice can never span pages"
	err_line "vrampoolctl: run: line 1: install direct sliced:page=1KiB,slice=2KiB:   at pool 1: sliced:page=1KiB,slice=2KiB"
	end

	t "$d: run: OutOfMemory when VRAM is exhausted"
	if [ -z "$COUNT" ]; then
		big=$((VRAM * 3 / 4))
		printf 'install exclusive:max=%s\nalloc x %s\nexpect-error OutOfMemory\nalloc y %s\n' \
			"$VRAM" "$big" "$big" > "$TMP/s"
	fi
	vp run --device "$d" "$TMP/s"
	rc_is 0
	out_line "alloc y $big: failed as expected: OutOfMemory: out of device memory allocating $big bytes"
	end

	t "$d: run: install --test-only inside a script keeps the layout"
	printf 'install sliced:page=4KiB\ninstall --test-only exclusive-pages\nstat\n' > "$TMP/s"
	vp run --device "$d" "$TMP/s"
	rc_is 0
	out_has "install --test-only exclusive-pages: accepted (test only: nothing installed), "
	out_has "  layout generation 2, 1 dynamic pools + persistent"
	end
}

tests_all_clients() {
	d=${DEVS%% *}
	t "stat --all: another process's client, its pools and statistics"
	if [ -z "$COUNT" ]; then
		# Held by `wait` on a FIFO nobody writes, until killed.
		[ -p "$TMP/hold" ] || mkfifo "$TMP/hold"
		printf 'install sliced:page=4KiB,cap=8KiB\nmode size-match\nalloc x 3000\nwait %s\n' \
			"$TMP/hold" > "$TMP/bg.vps"
		"$V" run --device "$d" "$TMP/bg.vps" > "$TMP/bg.out" 2>&1 &
		BG=$!
		while ! grep -q '^alloc x 3000: ' "$TMP/bg.out" && kill -0 "$BG" 2> /dev/null; do
			sleep 0.1
		done
	fi
	vp stat --all --device "$d"
	rc_is 0
	out_has "$d ("
	out_has "): 1 client"
	out_has ": pid $BG (vrampoolctl), layout generation 2, persistent mode size-match, VRAM held 4096 (4.00 KiB)"
	out_words "0 sliced 4KiB 4KiB 8KiB - - - 1 3000 72 4KiB 1 1 3000"
	end

	t "stat --all --json: the same client"
	vp stat --all --json
	rc_is 0
	json_lines 1
	out_has "\"pid\":$BG,\"comm\":\"vrampoolctl\",\"generation\":2,\"persistent_mode\":\"size-match\",\"vram\":4096,\"pools\":[{\"index\":0,\"type\":\"sliced\",\"page_size\":4096,\"max_slice_size\":4096,\"max_pool_size\":8192,\"dealloc_period\":null,\"spec\":\"sliced:page=4KiB,slice=4KiB,cap=8KiB\",\"allocations\":1,\"bytes_in_use\":3000,\"padding\":72,"
	out_count 1 '"clients":[{'
	end

	t "stat --all: the client is gone with its process"
	if [ -z "$COUNT" ]; then
		kill "$BG"
		wait "$BG" 2> /dev/null
		BG=""
	fi
	vp stat --all --device "$d"
	rc_is 0
	out_has "): 0 clients"
	end
}

# bg_run SCRIPT LINE: vrampoolctl run SCRIPT in the background on $d, until
# its output has LINE's start (or it exits); its pid in $BGPID.
bg_run() {
	"$V" run --device "$d" "$1" > "$1.out" 2>&1 &
	BGPID=$!
	while ! grep -q "^$2" "$1.out" && kill -0 "$BGPID" 2> /dev/null; do
		sleep 0.1
	done
}

tests_top() {
	d=${DEVS%% *}
	if [ -z "$COUNT" ]; then
		# One client holds 4 KiB live (3000 bytes) and an 8 KiB free cached
		# buffer, the other 64 KiB, all live.
		[ -p "$TMP/hold" ] || mkfifo "$TMP/hold"
		printf 'install direct\nalloc x 3000\nalloc y 8192\nfree y\nwait %s\n' "$TMP/hold" \
			> "$TMP/t1.vps"
		printf 'install direct\nalloc z 65536\nwait %s\n' "$TMP/hold" > "$TMP/t2.vps"
		bg_run "$TMP/t1.vps" "free y: "
		BG=$BGPID
		bg_run "$TMP/t2.vps" "alloc z 65536: "
		BG2=$BGPID
		cdir=$(ls -d /sys/class/accel/accel*/device/vrampool/clients 2> /dev/null | head -n 1)
		# This module publishes a client's free cached VRAM and what reclaim
		# took from it, or it does not (then top prints "-", JSON null).
		if ls "$cdir"/*/purgeable > /dev/null 2>&1; then
			CACHED1="8.00 KiB" CACHED2="0 B" RECL="0 B" JC1=8192 JC2=0 JR=0
			# The device's total counts every reclaim since the
			# module was loaded (an earlier test's too), as top
			# prints it (format_approx()).
			DJR=$(cat "$cdir/../reclaimed")
			DRECL=$(awk -v v="$DJR" 'BEGIN { split("B KiB MiB GiB TiB", u, " ");
				i = 1; d = v; while (d >= 1024 && i < 5) { d /= 1024; i++ }
				if (i == 1) printf "%d B", v; else printf "%.2f %s", d, u[i] }')
		else
			CACHED1="-" CACHED2="-" RECL="-" JC1=null JC2=null JR=null
			DRECL="-" DJR=null
		fi
		# And its users' sums (users/<uid>/), or it does not.
		USERS=""
		[ -d "$cdir/../users" ] && USERS=1
	fi

	t "top --iterations 2: two frames, both clients, the largest holder first"
	vp top --device "$d" --iterations 2 --interval 0.1
	rc_is 0
	out_line "--- top 1 of 2 ---"
	out_line "--- top 2 of 2 ---"
	out_count 2 "$d ("
	out_count 2 "): VRAM 76.00 KiB of "
	out_count 2 " in use, 2 clients, quota none, reclaimed $DRECL"
	out_count 2 "  CLIENT      PID COMMAND                  HELD         LIVE       CACHED    RECLAIMED"
	out_re "^ +[0-9]+ +$BG2 vrampoolctl +64.00 KiB +64.00 KiB +$CACHED2 +$RECL\$"
	out_re "^ +[0-9]+ +$BG vrampoolctl +12.00 KiB +2.93 KiB +$CACHED1 +$RECL\$"
	if [ -z "$COUNT" ]; then
		first=$(grep -n " $BG2 vrampoolctl" "$TMP/out" | head -n 1 | cut -d: -f1)
		second=$(grep -n " $BG vrampoolctl" "$TMP/out" | head -n 1 | cut -d: -f1)
		[ "${first:-0}" -lt "${second:-0}" ] || fail "the 64 KiB holder is not first"
	fi
	if [ -n "$USERS" ]; then
		# Both clients are root's: 2 files, 3 pages, 2 live allocations.
		out_count 2 "    USER    FILES         VRAM  ALLOCATIONS        PAGES    RECLAIMED"
		out_re "^ +0 +2 +76.00 KiB +2 +3 +0 B\$"
	fi
	end

	t "top --json: one snapshot with the exact figures"
	vp top --device "$d" --json
	rc_is 0
	json_lines 1
	out_has "\"path\":\"$d\","
	out_has "\"vram_in_use\":77824,\"vram_quota\":0,\"reclaimed\":$DJR,\"clients\":[{"
	out_has "\"pid\":$BG2,\"comm\":\"vrampoolctl\",\"held\":65536,\"live\":65536,\"cached\":$JC2,\"reclaimed\":$JR,"
	out_has "\"pid\":$BG,\"comm\":\"vrampoolctl\",\"held\":12288,\"live\":3000,\"cached\":$JC1,\"reclaimed\":$JR,"
	[ -z "$USERS" ] ||
		out_has "\"users\":[{\"uid\":0,\"files\":2,\"vram\":77824,\"allocations\":2,\"pages\":3,\"reclaimed\":0}]"
	end

	t "top: the clients are gone with their processes"
	if [ -z "$COUNT" ]; then
		kill "$BG" "$BG2"
		wait "$BG" "$BG2" 2> /dev/null
		BG="" BG2=""
	fi
	vp top --device "$d" --iterations 1
	rc_is 0
	out_has " in use, 0 clients, "
	out_lacks "vrampoolctl"
	end
}

tests_watch() {
	t "watch --count 2: two rounds of info, exit 0"
	vp watch --count 2 --interval 0.2
	rc_is 0
	out_line "--- info 1 of 2 ---"
	out_line "--- info 2 of 2 ---"
	out_count $((2 * NDEVS)) "  abi_version "
	end

	t "watch --count 2 stat --json: two JSON lines"
	vp watch --count 2 --interval 0.1 stat --json
	rc_is 0
	json_lines 2
	end

	t "watch --count 2 map --device: two maps of that device"
	vp watch --interval 0.1 --count 2 map --device "${DEVS##* }"
	rc_is 0
	out_line "--- map 2 of 2 ---"
	out_count 2 "${DEVS##* } ("
	end
}

tests_exit_codes() {
	t "help: exit 0"
	vp help
	rc_is 0
	end

	t "--device /dev/null: not a vrampool device, exit 3"
	vp stat --device /dev/null
	rc_is 3
	err_line "vrampoolctl: /dev/null: not a vrampool device"
	end

	t "--device of a missing node: exit 3"
	vp install --device /dev/accel/accel99 sub-slices
	rc_is 3
	end

	t "a bad size: exit 2, nothing opened"
	vp install sliced:page=1QiB
	rc_is 2
	end
}

# plan on the device with the most VRAM: a small trace whose figures are
# known (every candidate's, on any device with sliced pools and pages of a
# MiB or more), text and JSON; a trace no layout can replay.
tests_plan() {
	d=""
	[ -n "$COUNT" ] || {
		best=0
		for x in $DEVS; do
			v=$(json_value "$x" vram_size)
			[ "$v" -gt "$best" ] && best=$v d=$x
		done
		printf 'alloc a 4096\nalloc b 1MiB\nfree a\nalloc c 4KiB persistent\nfree b\nfree c\n' \
			> "$TMP/plan.trace"
		printf 'alloc a 4096\nalloc big 1TiB\n' > "$TMP/big.trace"
	}

	t "plan: the candidates side by side, the chosen one marked, its install line"
	vp plan --device "$d" "$TMP/plan.trace"
	rc_is 0
	out_has "plan $TMP/plan.trace: 6 operations on $d ("
	out_words "candidate peak live peak reserved ratio ops/s layout"
	out_re '^  sub-slices +1052672 +[0-9]+ +[0-9.]+ +[0-9]+  sub-slices$'
	out_re '^  exclusive-pages +1052672 +[0-9]+ +[0-9.]+ +[0-9]+  exclusive-pages$'
	out_re '^  sliced heap +1052672 +[0-9]+ +[0-9.]+ +[0-9]+  sliced:page=[0-9A-Za-z]+,slice=[0-9A-Za-z]+,cap=[0-9A-Za-z]+ direct:reclaim=0$'
	out_re '^  sliced <= 64KiB \+ direct +1052672 +2101248 +1.996 +[0-9]+  sliced:page=1MiB,slice=64KiB,cap=[0-9A-Za-z]+ direct:reclaim=1MiB$'
	out_re '^\* direct +1052672 +1056768 +1.004 +[0-9]+  direct:reclaim=1028KiB$'
	out_has "chosen: direct, ratio 1.004 (the least peak reserved: 1056768; within 1% of it and no more than a preset's: "
	out_line "install direct:reclaim=1028KiB"
	err_empty
	end

	t "plan --json: one document, every candidate, the chosen layout"
	vp plan --device "$d" --json "$TMP/plan.trace"
	rc_is 0
	json_lines 1
	out_has "{\"ok\":true,\"device\":\"$d\",\"trace\":\"$TMP/plan.trace\",\"operations\":6,"
	out_has '"candidates":[{"name":"sub-slices","preset":"sub-slices","layout":"sub-slices","ok":true,"peak_live":1052672,'
	out_has '{"name":"direct","preset":null,"layout":"direct:reclaim=1028KiB","ok":true,"peak_live":1052672,"peak_reserved":1056768,"ratio":1.0039,"ops_per_sec":'
	out_has '],"chosen":"direct","layout":"direct:reclaim=1028KiB","install":"install direct:reclaim=1028KiB","best_peak_reserved":1056768,"bound":'
	end

	t "plan: the chosen layout installs and replays to the same figures"
	vp replay --device "$d" --json "$TMP/plan.trace" direct:reclaim=1028KiB
	rc_is 0
	out_has '"peak_live":1052672,"peak_reserved":1056768,"ratio":1.0039,'
	end

	t "plan: no candidate replays a 1 TiB allocation: each one's error, exit 1"
	vp plan --device "$d" "$TMP/big.trace"
	rc_is 1
	out_line "  sub-slices               failed: ALLOC: BufferTooBig: can't allocate buffer of size: 1099511627776  sub-slices"
	out_lacks "chosen:"
	out_lacks "install "
	err_line "vrampoolctl: plan: $TMP/big.trace: no candidate layout replayed the trace"
	vp plan --device "$d" --json "$TMP/big.trace"
	rc_is 1
	json_lines 1
	out_has '{"name":"sub-slices","preset":"sub-slices","layout":"sub-slices","ok":false,"peak_live":4096,'
	out_has '"call":"ALLOC","error":{"kind":"BufferTooBig","message":"can'"'"'t allocate buffer of size: 1099511627776","errno":27,'
	out_has '],"chosen":null}'
	end
}

all_tests() {
	tests_info
	for dev in $DEVS; do
		tests_device "$dev"
	done
	tests_all_clients
	tests_top
	tests_watch
	tests_plan
	tests_exit_codes
}

echo "TAP version 13"
if ! command -v "$V" > /dev/null 2>&1; then
	echo "1..0 # SKIP $V not installed (the test VM has it in /bin)"
	exit 4
fi
DEVS=$("$V" info --json 2> /dev/null | grep -o '"path":"[^"]*"' | cut -d'"' -f4 | tr '\n' ' ')
DEVS=${DEVS% }
NDEVS=$(echo "$DEVS" | wc -w)
SYSFS_DEVS=0
for l in /sys/class/accel/*/device/driver; do
	[ -e "$l" ] && [ "$(basename "$(readlink "$l")")" = vrampool ] && SYSFS_DEVS=$((SYSFS_DEVS + 1))
done
if [ "$NDEVS" -eq 0 ] || [ "$NDEVS" != "$SYSFS_DEVS" ]; then
	echo "1..1"
	echo "not ok 1 vrampoolctl info lists $NDEVS devices, sysfs has $SYSFS_DEVS"
	exit 1
fi
echo "# devices: $DEVS"

tap_run all_tests

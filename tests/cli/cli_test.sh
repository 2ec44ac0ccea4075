#!/bin/sh
# SPDX-License-Identifier: MIT
#
# vrampoolctl on the host, without a device: validate (both presets of two
# devices, every documented error with its exact message, JSON
# parsed with python3's json module), sizes and pool specs, usage errors,
# exit codes, and the commands that need a device refusing with exit 3;
# trace (the published shapes, determinism, the format and its totals) and
# replay's checks of its arguments and traces, made before any device.
# The commands that drive a device are tested in the VM
# (selftests/vrampool_cli_test.sh).
#
# Prints kselftest TAP. VRAMPOOLCTL names the binary (default: the one
# tests/cli/Makefile substituted, else build/userspace/vrampoolctl).

V=${VRAMPOOLCTL:-@VRAMPOOLCTL@}
case $V in
@*) V=$(cd "$(dirname "$0")/../.." && pwd)/build/userspace/vrampoolctl ;;
esac

TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# The helpers shared with the VM's suite: t, vp, the checks, end, tap_run.
LIB=@CLI_LIB@
case $LIB in
@*) LIB=$(cd "$(dirname "$0")/../.." && pwd)/selftests/vrampool_cli_lib.sh ;;
esac
# shellcheck source=../../selftests/vrampool_cli_lib.sh
. "$LIB"

# ---- more helpers: each is a no-op while counting the tests ----------------

# json CODE: every stdout line is one JSON document (python3's json module,
# strict: no NaN or Infinity); CODE runs with d (the document; the list of
# them when there are several) and asserts what it must.
json() {
	[ -n "$COUNT" ] && return 0
	python3 -c '
import json, sys

def no_constants(name):
    raise ValueError("not JSON: " + name)

with open(sys.argv[1]) as f:
    lines = [l for l in f.read().split("\n") if l.strip()]
try:
    docs = [json.loads(l, parse_constant=no_constants) for l in lines]
except ValueError as e:
    print("invalid JSON: %s" % e, file=sys.stderr)
    sys.exit(1)
if not docs:
    print("no JSON on stdout", file=sys.stderr)
    sys.exit(1)
d = docs[0] if len(docs) == 1 else docs
try:
    exec(sys.argv[2], {"d": d, "docs": docs, "json": json})
except AssertionError as e:
    print("assertion failed: %s" % (e or "(no message)"), file=sys.stderr)
    sys.exit(1)
except Exception as e:
    print("%s: %s" % (type(e).__name__, e), file=sys.stderr)
    sys.exit(1)
' "$TMP/out" "$1" 2> "$TMP/pyerr" || fail "JSON: $(tr '\n' ' ' < "$TMP/pyerr")"
}


# ---- expected values ----------------------------------------------------------
# Both presets of two devices (128 MiB pages with alignment 256, as WebGPU's
# limits give; 20 GiB pages with alignment 512, an 80 GiB CUDA card), written
# out by hand from the formulas of Documentation/vrampool.rst ("Presets").

REF1="--alignment 256 --max-page-size 128MiB"
REF2="--alignment 512 --max-page-size 20GiB"
EP1="[32768, 47104, 67584, 97024, 139264, 199936, 286976, 412160, 591616, 849152,
 1219328, 1750272, 2512896, 3607808, 5179392, 7436032, 10675712, 15326976,
 22004736, 31591936, 45355776, 65116672, 93487104, 134217728]"
EP2="[32768, 58880, 105472, 188416, 336896, 602624, 1078784, 1930752, 3456000,
 6187008, 11075584, 19826688, 35492864, 63537152, 113740800, 203613696,
 364499456, 652510208, 1168094208, 2091068416, 3743334400, 6701145088,
 11996082688, 21474836480]"
EP2_DEALLOC="[5000] * 17 + [10000, 10000, 15000, 20000, 35000, 60000, 105000]"
MiB=1048576
GiB=1073741824
TOO_LARGE="is too large: a size is at most 18446744073709551615 bytes (2^64 - 1)"

# A vrampool device on this machine changes what the no-device tests expect.
HAVE_DEVICE=""
for d in /sys/class/accel/*/device/driver; do
	[ -e "$d" ] && [ "$(basename "$(readlink "$d")")" = vrampool ] && HAVE_DEVICE=1
done
HAVE_GROFF=""
command -v groff > /dev/null 2>&1 && HAVE_GROFF=1
MAN=$(cd "$(dirname "$0")" && pwd)/../../userspace/man/vrampoolctl.1
[ -f "$MAN" ] || MAN=@MANPAGE@

# ---- the tests ------------------------------------------------------------

tests_help() {
	t "help: exit 0, the exit codes documented"
	vp help
	rc_is 0
	out_line "Exit status:"
	out_line "  0  success"
	out_line "  1  the operation failed: a documented error or a system error; the"
	out_line "  2  usage error: command, option, size, pool spec or script"
	out_line "  3  no vrampool device: none found, or PATH is not one"
	out_line "  4  run: a \`check\` or \`expect-error\` expectation was not met"
	out_line "  plan [--device PATH] [--json] TRACE|-"
	out_line "  record [--pid P] [--client ID] [--duration SECS] FILE|-"
	err_empty
	end

	t "no command: usage on stderr, exit 2"
	vp
	rc_is 2
	err_has "usage: vrampoolctl COMMAND"
	out_empty
	end

	for c in info validate install run trace replay plan record stat map watch top; do
		t "$c --help: exit 0"
		vp "$c" --help
		rc_is 0
		out_has "usage: vrampoolctl $c"
		end
	done
}

tests_presets() {
	t "validate sub-slices, device 1 (128 MiB pages, alignment 256): text"
	# shellcheck disable=SC2086 # REF1 is a list of options
	vp validate $REF1 sub-slices
	rc_is 0
	out_line "valid: preset sub-slices resolves to 4 pools (alignment 256, max page size 128MiB)"
	out_line "    0  exclusive:max=0"
	out_line "    1  sliced:page=8MiB,slice=2MiB"
	out_line "    2  sliced:page=32MiB,slice=16MiB"
	out_line "    3  exclusive:max=128MiB,dealloc=5000"
	err_empty
	end

	t "validate sub-slices, device 1: JSON"
	# shellcheck disable=SC2086
	vp validate $REF1 --json sub-slices
	rc_is 0
	json "
assert d['ok'] is True
assert d['preset'] == 'sub-slices'
assert d['props'] == {'alignment': 256, 'max_page_size': 128 * $MiB, 'exclusive_memory_only': False}, d['props']
p = d['pools']
assert [x['index'] for x in p] == [0, 1, 2, 3]
assert p[0] == {'index': 0, 'type': 'exclusive', 'max_alloc_size': 0, 'dealloc_period': None, 'spec': 'exclusive:max=0'}, p[0]
assert p[1] == {'index': 1, 'type': 'sliced', 'page_size': 8 * $MiB, 'max_slice_size': 2 * $MiB, 'max_pool_size': None, 'dealloc_period': None, 'spec': 'sliced:page=8MiB,slice=2MiB'}, p[1]
assert p[2]['type'] == 'sliced' and p[2]['page_size'] == 32 * $MiB and p[2]['max_slice_size'] == 16 * $MiB
assert p[3] == {'index': 3, 'type': 'exclusive', 'max_alloc_size': 134217728, 'dealloc_period': 5000, 'spec': 'exclusive:max=128MiB,dealloc=5000'}, p[3]
"
	end

	t "validate exclusive-pages, device 1: the 24 buckets"
	# shellcheck disable=SC2086
	vp validate $REF1 --json exclusive-pages
	rc_is 0
	json "
p = d['pools']
assert [x['max_alloc_size'] for x in p] == $EP1, [x['max_alloc_size'] for x in p]
assert all(x['type'] == 'exclusive' and x['dealloc_period'] == 5000 for x in p)
assert d['preset'] == 'exclusive-pages'
"
	end

	t "validate sub-slices, device 2 (20 GiB pages, alignment 512)"
	# shellcheck disable=SC2086
	vp validate $REF2 --json sub-slices
	rc_is 0
	json "
p = d['pools']
assert p[0]['type'] == 'exclusive' and p[0]['max_alloc_size'] == 0
s = p[1:-1]
assert [x['page_size'] for x in s] == [20 * $MiB, 80 * $MiB, 320 * $MiB, 1280 * $MiB, 5 * $GiB], s
assert [x['max_slice_size'] for x in s] == [640 * 1024, 5 * $MiB, 40 * $MiB, 320 * $MiB, 2560 * $MiB], s
assert all(x['type'] == 'sliced' and x['max_pool_size'] is None for x in s)
assert p[-1]['type'] == 'exclusive' and p[-1]['max_alloc_size'] == 21474836480 and p[-1]['dealloc_period'] == 105000, p[-1]
"
	end

	t "validate exclusive-pages, device 2: buckets and dealloc periods"
	# shellcheck disable=SC2086
	vp validate $REF2 --json exclusive-pages
	rc_is 0
	json "
p = d['pools']
assert [x['max_alloc_size'] for x in p] == $EP2, [x['max_alloc_size'] for x in p]
assert [x['dealloc_period'] for x in p] == $EP2_DEALLOC, [x['dealloc_period'] for x in p]
"
	end

	t "validate defaults: alignment 256, max page size 64MiB"
	vp validate sub-slices
	rc_is 0
	out_line "valid: preset sub-slices resolves to 3 pools (alignment 256, max page size 64MiB)"
	out_line "    1  sliced:page=16MiB,slice=8MiB"
	out_line "    2  exclusive:max=64MiB,dealloc=5000"
	end

	t "validate --exclusive-memory-only exclusive-pages is available"
	vp validate --exclusive-memory-only --json exclusive-pages
	rc_is 0
	json "assert d['ok'] and d['props']['exclusive_memory_only'] is True and len(d['pools']) == 24"
	end

	t "validate: specs printed by validate read back to the same pools"
	# shellcheck disable=SC2086
	vp validate $REF2 --json exclusive-pages
	if [ -z "$COUNT" ]; then
		cp "$TMP/out" "$TMP/first.json"
		python3 -c 'import json,sys; print(" ".join(p["spec"] for p in json.load(open(sys.argv[1]))["pools"]))' \
			"$TMP/first.json" > "$TMP/specs" || fail "no specs"
	fi
	# shellcheck disable=SC2086,SC2046
	vp validate $REF2 --json $(cat "$TMP/specs" 2>/dev/null)
	rc_is 0
	json "
first = json.load(open('$TMP/first.json'))['pools']
assert d['pools'] == first, (d['pools'], first)
"
	end
}

tests_specs() {
	t "validate pool specs: sliced, exclusive, direct with every key"
	vp validate --json sliced:page=64MiB,slice=8MiB,cap=1GiB,dealloc=1000 \
		exclusive:max=1MiB,dealloc=7 direct:reclaim=7MiB direct sliced:page=4KiB
	rc_is 0
	json "
p = d['pools']
assert d['preset'] is None
assert p[0] == {'index': 0, 'type': 'sliced', 'page_size': 64 * $MiB, 'max_slice_size': 8 * $MiB, 'max_pool_size': $GiB, 'dealloc_period': 1000, 'spec': 'sliced:page=64MiB,slice=8MiB,cap=1GiB,dealloc=1000'}, p[0]
assert p[1] == {'index': 1, 'type': 'exclusive', 'max_alloc_size': $MiB, 'dealloc_period': 7, 'spec': 'exclusive:max=1MiB,dealloc=7'}, p[1]
assert p[2] == {'index': 2, 'type': 'direct', 'reclaim_at': 7 * $MiB, 'spec': 'direct:reclaim=7MiB'}, p[2]
assert p[3] == {'index': 3, 'type': 'direct', 'reclaim_at': None, 'spec': 'direct'}, p[3]
assert p[4]['max_slice_size'] == 4096, 'slice defaults to the page'
"
	end

	t "validate pool specs: text lists the resolved specs"
	vp validate sliced:page=64MiB,slice=8MiB,cap=1GiB,dealloc=1000 exclusive:max=1MiB direct:reclaim=7MiB
	rc_is 0
	out_line "valid: 3 pool specs resolves to 3 pools (alignment 256, max page size 64MiB)"
	out_line "    0  sliced:page=64MiB,slice=8MiB,cap=1GiB,dealloc=1000"
	out_line "    1  exclusive:max=1MiB"
	out_line "    2  direct:reclaim=7MiB"
	end

	t "validate pool specs: the uapi field names as keys"
	vp validate --json sliced:page_size=4KiB,max_slice_size=1KiB,max_pool_size=8KiB,dealloc_period=3 \
		exclusive:max_alloc_size=1,dealloc_period=0 direct:reclaim_at=1
	rc_is 0
	json "
p = d['pools']
assert (p[0]['page_size'], p[0]['max_slice_size'], p[0]['max_pool_size'], p[0]['dealloc_period']) == (4096, 1024, 8192, 3), p[0]
assert (p[1]['max_alloc_size'], p[1]['dealloc_period']) == (256, 0), p[1]
assert p[2]['reclaim_at'] == 1, 'reclaim_at is kept as given'
"
	end

	t "validate: sizes aligned up to --alignment"
	vp validate --alignment 4096 --json sliced:page=1000,slice=100 exclusive:max=1 exclusive:max=0 exclusive:max=8192
	rc_is 0
	json "
p = d['pools']
assert (p[0]['page_size'], p[0]['max_slice_size']) == (4096, 4096), p[0]
assert [x['max_alloc_size'] for x in p[1:]] == [4096, 0, 8192], p
"
	end

	t "sizes: B KiB MiB GiB TiB (1024) and KB MB GB TB (1000), plain bytes"
	vp validate --alignment 1 --json exclusive:max=1B exclusive:max=1KiB exclusive:max=1MiB \
		exclusive:max=1GiB exclusive:max=1TiB exclusive:max=1KB exclusive:max=1MB \
		exclusive:max=1GB exclusive:max=1TB exclusive:max=12345 exclusive:max=0
	rc_is 0
	json "
got = [x['max_alloc_size'] for x in d['pools']]
assert got == [1, 1024, 1024**2, 1024**3, 1024**4, 1000, 1000**2, 1000**3, 1000**4, 12345, 0], got
"
	end

	t "sizes: decimal fractions that make whole bytes"
	vp validate --alignment 1 --json exclusive:max=1.5GiB exclusive:max=0.5KiB exclusive:max=2.25MB \
		exclusive:max=7.0 exclusive:max=0.001KB
	rc_is 0
	json "
got = [x['max_alloc_size'] for x in d['pools']]
assert got == [1610612736, 512, 2250000, 7, 1], got
"
	end

	t "sizes: 2^64 - 1 bytes is the largest"
	vp validate --alignment 1 --json exclusive:max=18446744073709551615 direct:reclaim=18446744073709551615
	rc_is 0
	json "assert [d['pools'][0]['max_alloc_size'], d['pools'][1]['reclaim_at']] == [2**64 - 1] * 2"
	end

	for s in 18446744073709551616 99999999999999999999999999 16777216TiB 17179869184GiB \
		18446744073709551616B 18446744073709551.616KB 18446744073710MB; do
		t "sizes: $s is too large: usage error"
		vp validate "exclusive:max=$s"
		rc_is 2
		err_line "vrampoolctl: validate: 'exclusive:max=$s': max: '$s' $TOO_LARGE"
		out_empty
		end
	done

	for s in 12abc abc -1 +1 1.5 1. .5 0x10 "1 MiB" 1mib 1KIB 1e3 1Ki 1.5B; do
		t "sizes: '$s' is refused: usage error"
		vp validate "exclusive:max=$s"
		rc_is 2
		err_has "vrampoolctl: validate: 'exclusive:max=$s': max: '$s'"
		out_empty
		end
	done

	t "pool spec: an unknown key is a usage error"
	vp validate sliced:page=1MiB,foo=1
	rc_is 2
	err_line "vrampoolctl: validate: 'sliced:page=1MiB,foo=1': unknown key 'foo' for sliced pools (page, slice, cap, dealloc)"
	end

	t "pool spec: a key of another pool type is unknown"
	vp validate exclusive:max=1MiB,page=1
	rc_is 2
	err_line "vrampoolctl: validate: 'exclusive:max=1MiB,page=1': unknown key 'page' for exclusive pools (max, dealloc)"
	vp validate direct:dealloc=5
	rc_is 2
	err_line "vrampoolctl: validate: 'direct:dealloc=5': unknown key 'dealloc' for direct pools (reclaim)"
	end

	t "pool spec: a key given twice"
	vp validate sliced:page=1MiB,page_size=2MiB
	rc_is 2
	err_line "vrampoolctl: validate: 'sliced:page=1MiB,page_size=2MiB': 'page' given twice"
	end

	t "pool spec: the mandatory size is missing"
	vp validate sliced:slice=1KiB
	rc_is 2
	err_line "vrampoolctl: validate: 'sliced:slice=1KiB': sliced pools need page=SIZE"
	vp validate exclusive
	rc_is 2
	err_line "vrampoolctl: validate: 'exclusive': exclusive pools need max=SIZE"
	end

	for s in bogus:page=1 sliced: sliced:page sliced:page= sliced:=1 sliced:page=1KiB,,slice=1KiB \
		"sliced:page=1KiB," sliced:,page=1KiB Sliced:page=1KiB direct: "sliced:page=1KiB slice=1KiB"; do
		t "pool spec: '$s' is malformed: usage error"
		vp validate "$s"
		rc_is 2
		err_has "vrampoolctl: validate: '$s'"
		end
	done

	t "pool spec: dealloc is a plain number"
	vp validate exclusive:max=1,dealloc=1KiB
	rc_is 2
	err_line "vrampoolctl: validate: 'exclusive:max=1,dealloc=1KiB': dealloc: '1KiB' is not a number (decimal digits only)"
	end

	t "layout: a preset comes alone"
	vp validate sub-slices direct
	rc_is 2
	err_has "the preset 'sub-slices' comes alone, without pool specs"
	end

	t "layout: none given"
	vp validate
	rc_is 2
	err_has "vrampoolctl: validate: no layout given"
	end
}

# err_kind KIND MESSAGE: the documented error, exit 1, nothing on stdout
err_kind() {
	rc_is 1
	err_line "vrampoolctl: $1: $2"
	out_empty
}

tests_errors() {
	t "ZeroSize: page_size"
	vp validate sliced:page=0
	err_kind ZeroSize "\`page_size\` must be non-zero"
	err_line "vrampoolctl:   at pool 0: sliced:page=0"
	end

	t "ZeroSize: max_slice_size"
	vp validate exclusive:max=0 sliced:page=1KiB,slice=0
	err_kind ZeroSize "\`max_slice_size\` must be non-zero"
	err_line "vrampoolctl:   at pool 1: sliced:page=1KiB,slice=0"
	end

	t "ZeroSize: max_pool_size"
	vp validate sliced:page=1KiB,cap=0
	err_kind ZeroSize "\`max_pool_size\` must be non-zero"
	end

	t "SliceLargerThanPage: text"
	vp validate sliced:page=1KiB,slice=2KiB
	err_kind SliceLargerThanPage "\`max_slice_size\` (2048) exceeds \`page_size\` (1024); a slice can never span pages"
	err_line "vrampoolctl:   at pool 0: sliced:page=1KiB,slice=2KiB"
	end

	t "SliceLargerThanPage: JSON names the entry, the field and the values"
	vp validate --json exclusive:max=1KiB sliced:page=1KiB,slice=2KiB
	rc_is 1
	json "
assert d['ok'] is False and 'pools' not in d
e = d['error']
assert e['kind'] == 'SliceLargerThanPage', e
assert e['message'] == '\`max_slice_size\` (2048) exceeds \`page_size\` (1024); a slice can never span pages', e
assert (e['entry'], e['field'], e['page_size'], e['max_slice_size']) == (1, 'max_slice_size', 1024, 2048), e
assert e['errno'] == 0, 'found offline: no errno'
"
	err_line "vrampoolctl:   at pool 1: sliced:page=1KiB,slice=2KiB"
	end

	t "SliceLargerThanPage: sizes compared after alignment"
	vp validate --alignment 4096 sliced:page=1KiB,slice=5000
	err_kind SliceLargerThanPage "\`max_slice_size\` (8192) exceeds \`page_size\` (4096); a slice can never span pages"
	end

	t "CapSmallerThanPage"
	vp validate sliced:page=2KiB,cap=1KiB
	err_kind CapSmallerThanPage "\`max_pool_size\` (1024) is smaller than \`page_size\` (2048); the cap can't fit a single page"
	vp validate --json sliced:page=2KiB,cap=1KiB
	json "e = d['error']; assert (e['kind'], e['page_size'], e['max_pool_size'], e['field']) == ('CapSmallerThanPage', 2048, 1024, 'max_pool_size'), e"
	end

	t "TooManyPages"
	vp validate sliced:page=1KiB,cap=100MiB
	err_kind TooManyPages "\`max_pool_size\` spans 102400 pages of \`page_size\`, exceeding the maximum of 65535; increase \`page_size\` or lower the cap"
	vp validate --json sliced:page=1KiB,cap=100MiB
	json "assert d['error']['kind'] == 'TooManyPages' and d['error']['pages'] == 102400"
	end

	t "TooManyPages: 65535 pages are allowed"
	vp validate sliced:page=1KiB,cap=65535KiB
	rc_is 0
	end

	t "TooManyPools: 255 pool specs"
	set --
	i=0
	while [ $i -lt 255 ]; do set -- "$@" direct; i=$((i + 1)); done
	vp validate "$@"
	err_kind TooManyPools "the pool list has 255 entries, exceeding the maximum of 254 dynamic pools"
	vp validate --json "$@"
	json "e = d['error']; assert (e['kind'], e['count'], e['entry']) == ('TooManyPools', 255, None), e"
	end

	t "TooManyPools: 254 pool specs are allowed"
	shift
	vp validate --json "$@"
	rc_is 0
	json "assert len(d['pools']) == 254 and d['pools'][253]['index'] == 253"
	end

	t "PresetUnavailable: sub-slices on an exclusive-memory-only device"
	vp validate --exclusive-memory-only sub-slices
	err_kind PresetUnavailable "the \`sub-slices\` preset is not available in this build"
	vp validate --exclusive-memory-only --json sub-slices
	json "e = d['error']; assert (e['kind'], e['preset'], e['entry']) == ('PresetUnavailable', 'sub-slices', None), e"
	end

	t "SlicedPoolsUnavailable: a sliced pool on an exclusive-memory-only device"
	vp validate --exclusive-memory-only exclusive:max=1MiB sliced:page=1MiB
	err_kind SlicedPoolsUnavailable "sliced pools are not available in this build (exclusive memory only)"
	err_line "vrampoolctl:   at pool 1: sliced:page=1MiB"
	end

	t "SizeOverflow: max_alloc_size aligned past 2^64 - 1"
	vp validate exclusive:max=18446744073709551615
	err_kind SizeOverflow "\`max_alloc_size\` (18446744073709551615) overflows 64 bits when aligned up to 256 bytes"
	vp validate --json exclusive:max=18446744073709551615
	json "e = d['error']; assert (e['kind'], e['size'], e['alignment'], e['field']) == ('SizeOverflow', 2**64 - 1, 256, 'max_alloc_size'), e"
	end

	t "SizeOverflow: page_size"
	vp validate --alignment 4096 sliced:page=18446744073709551000
	err_kind SizeOverflow "\`page_size\` (18446744073709551000) overflows 64 bits when aligned up to 4096 bytes"
	end

	t "SizeOverflow: a preset from a max page size near 2^64"
	vp validate --max-page-size 18446744073709551615 --json exclusive-pages
	rc_is 1
	json "assert d['error']['kind'] == 'SizeOverflow' and d['error']['field'] == 'max_alloc_size'"
	err_has "vrampoolctl: SizeOverflow: \`max_alloc_size\` ("
	end
}

tests_usage() {
	t "unknown command: exit 2"
	vp frobnicate
	rc_is 2
	err_line "vrampoolctl: unknown command 'frobnicate'"
	end

	t "unknown option: exit 2"
	vp validate --bogus sub-slices
	rc_is 2
	err_line "vrampoolctl: validate: unknown option '--bogus'"
	vp info --test-only
	rc_is 2
	end

	t "option without its value: exit 2"
	vp validate sub-slices --alignment
	rc_is 2
	err_line "vrampoolctl: validate: --alignment needs a value"
	end

	for a in 3 0 100 1KB x; do
		t "--alignment $a is refused: exit 2"
		vp validate --alignment "$a" sub-slices
		rc_is 2
		err_has "vrampoolctl: validate: --alignment:"
		end
	done

	t "--max-page-size takes sizes, refuses garbage"
	vp validate --max-page-size 1.5GiB --json exclusive-pages
	rc_is 0
	json "assert d['props']['max_page_size'] == 1610612736 and d['pools'][-1]['max_alloc_size'] == 1610612736"
	vp validate --max-page-size 1QiB exclusive-pages
	rc_is 2
	err_has "vrampoolctl: validate: --max-page-size:"
	end

	t "extra arguments: exit 2"
	vp info extra
	rc_is 2
	err_line "vrampoolctl: info: unexpected argument 'extra'"
	vp stat extra
	rc_is 2
	end

	t "watch: bad arguments: exit 2"
	vp watch validate
	rc_is 2
	err_line "vrampoolctl: watch: can repeat info, stat or map, not 'validate'"
	vp watch --count x
	rc_is 2
	vp watch --interval -1
	rc_is 2
	vp watch --interval 86401
	rc_is 2
	end

	t "map takes no --json: exit 2"
	vp map --json
	rc_is 2
	end

	t "top: bad arguments: exit 2, nothing on stdout"
	vp top extra
	rc_is 2
	err_line "vrampoolctl: top: unexpected argument 'extra'"
	out_empty
	vp top --iterations x
	rc_is 2
	err_line "vrampoolctl: top: --iterations: 'x' is not a number (decimal digits only)"
	vp top --iterations
	rc_is 2
	err_line "vrampoolctl: top: --iterations needs a value"
	vp top --interval -1
	rc_is 2
	vp top --interval 86401
	rc_is 2
	vp top --count 2
	rc_is 2
	err_line "vrampoolctl: top: unknown option '--count'"
	vp top --all
	rc_is 2
	end

	t "top --json is one snapshot: with --interval or --iterations, exit 2"
	vp top --json --iterations 2
	rc_is 2
	err_line "vrampoolctl: top: --json prints one snapshot: no --interval or --iterations"
	out_empty
	vp top --json --interval 1
	rc_is 2
	err_line "vrampoolctl: top: --json prints one snapshot: no --interval or --iterations"
	end

	t "top --device on a file that is no vrampool device: exit 3"
	vp top --device /dev/null --iterations 1
	rc_is 3
	err_line "vrampoolctl: /dev/null: not a vrampool device"
	vp top --device "$TMP/none" --json
	rc_is 3
	err_line "vrampoolctl: $TMP/none: No such file or directory"
	json "assert d == {'devices': []}, d"
	end
}

# script NAME: write standard input to $TMP/NAME
script() { cat > "$TMP/$1"; }

tests_scripts() {
	# Scripts are checked whole before the device is opened: these fail
	# with exit 2 whether a device exists or not.
	script bad-command <<-'EOF'
	# a comment
	alloc a 1KiB
	frob a
	EOF
	t "run: an unknown script command: exit 2, its line named"
	vp run "$TMP/bad-command"
	rc_is 2
	err_line "vrampoolctl: run: line 3: unknown command 'frob'"
	out_empty
	end

	t "run: script errors: exit 2 and the line, nothing run"
	printf 'alloc a 1KiB\nfree b\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 2: 'b' is not allocated by an earlier line"
	printf 'alloc a 12abc\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: alloc: '12abc': unknown unit 'abc' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)"
	printf 'alloc a 1 bogus\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: alloc: 'bogus': only 'persistent' may follow the size"
	printf 'expect-error Bogus\nalloc a 1\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: 'Bogus' is not an error kind (see \`vrampoolctl help\`)"
	printf 'alloc a 1\nexpect-error NotFound\nstat\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 2: expect-error must come before install, alloc, free, cleanup, mode, write, check, alloc-batch or free-batch"
	printf 'alloc a 1\nexpect-error NotFound\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	printf 'mode sometimes\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: usage: mode enabled|size-match|disabled|enforced"
	printf 'alloc a 1\nwrite a 256\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 2: '256' is not a byte (0 to 255, or 0x00 to 0xff)"
	printf 'install sliced:page=1KiB,bad=1\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_has "vrampoolctl: run: line 1: install: 'sliced:page=1KiB,bad=1': unknown key 'bad'"
	printf 'sleep forever\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	printf 'wait\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: usage: wait FILE"
	printf 'stat --json --json\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	printf 'alloc 0bad/name 1\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	end

	t "run: alloc-batch and free-batch script errors: exit 2, nothing run"
	printf 'alloc-batch a\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: alloc-batch: 'a' is not NAME=SIZE"
	printf 'alloc-batch a=1 b=2 a=3\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: alloc-batch: 'a' twice in one batch"
	printf 'alloc-batch a=1:bogus\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: alloc-batch: 'bogus': only ':persistent' may follow the size"
	printf 'alloc-batch a=12abc\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: alloc-batch: '12abc': unknown unit 'abc' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)"
	printf 'alloc-batch 0bad/name=1\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: '0bad/name' is not a name (letters, digits, _ - .; at most 63)"
	printf 'alloc-batch\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: usage: alloc-batch NAME=SIZE[:persistent]..."
	printf 'alloc-batch a=1 b=2\nfree-batch a c\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 2: 'c' is not allocated by an earlier line"
	printf 'free-batch\n' > "$TMP/s1"
	vp run "$TMP/s1"
	rc_is 2
	err_line "vrampoolctl: run: line 1: usage: free-batch NAME..."
	out_empty
	end

	t "run: a script from standard input"
	printf 'alloc a 1\nfrob\n' > "$TMP/s1"
	vp_in "$TMP/s1" run -
	rc_is 2
	err_line "vrampoolctl: run: line 2: unknown command 'frob'"
	end

	t "run: no script, two scripts, a missing file: exit 2"
	vp run
	rc_is 2
	err_has "vrampoolctl: run: no script given"
	vp run a b
	rc_is 2
	vp run "$TMP/does-not-exist"
	rc_is 2
	err_has "vrampoolctl: run: $TMP/does-not-exist: No such file or directory"
	vp run --frob x
	rc_is 2
	end
}

tests_nodev() {
	printf 'alloc a 1KiB\n' > "$TMP/ok-script"
	for c in info stat map "stat --all" "install sub-slices" "install --test-only direct" \
		"run $TMP/ok-script"; do
		t "$c --device /dev/null: not a vrampool device, exit 3"
		# shellcheck disable=SC2086 # $c is a command and its arguments
		vp $c --device /dev/null
		rc_is 3
		err_line "vrampoolctl: /dev/null: not a vrampool device"
		end
	done

	t "--device of a missing node: exit 3"
	vp stat --device /dev/accel/accel250
	rc_is 3
	err_line "vrampoolctl: /dev/accel/accel250: No such file or directory"
	vp install --device /dev/accel/accel250 sub-slices
	rc_is 3
	end

	t "validate needs no device"
	vp validate --device /dev/null sub-slices
	rc_is 2
	err_line "vrampoolctl: validate: unknown option '--device'"
	end

	if [ -z "$HAVE_DEVICE" ]; then
		t "no vrampool device: info exits 3"
		vp info
		rc_is 3
		err_line "vrampoolctl: no vrampool device found"
		out_empty
		end

		t "no vrampool device: info --json lists none, exits 3"
		vp info --json
		rc_is 3
		json "assert d == {'devices': []}, d"
		end

		t "no vrampool device: stat, map, install, run, stat --all, top exit 3"
		for c in stat map "install sub-slices" "run $TMP/ok-script" "stat --all" \
			 "top --iterations 1" "top --json"; do
			# shellcheck disable=SC2086
			vp $c
			rc_is 3
			err_line "vrampoolctl: no vrampool device found"
		done
		end

		t "no vrampool device: watch stops at the first failing round"
		vp watch --count 3 --interval 0.01
		rc_is 3
		out_line "--- info 1 of 3 ---"
		[ -n "$COUNT" ] || ! grep -q "info 2 of 3" "$TMP/out" || fail "a second round ran"
		end
	fi
}

# trace_check VRAM: the trace on stdout is well formed and adds up (python3):
# every line a comment, `alloc ID SIZE [persistent]` or `free ID`; an ID
# allocated only while not live, freed only while live; the persistent
# allocations (the weights, "w.") first and freed last; nothing live at
# the end; the header's counts, weights and peak live what the lines say;
# the peak live within half of VRAM.
trace_check() {
	[ -n "$COUNT" ] && return 0
	python3 -c '
import re, sys
vram = int(sys.argv[2])
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "no newline at the end"
head = {}
live, peak, allocs, frees, pers, wbytes, seen_dynamic = {}, 0, 0, 0, 0, 0, False
cur = 0
for n, l in enumerate(lines[:-1], 1):
    if l.startswith("#"):
        if ": " in l:
            k, v = l[2:].split(": ", 1)
            head[k] = v
        continue
    m = re.fullmatch(r"alloc ([A-Za-z0-9_.-]{1,63}) ([0-9]+)( persistent)?", l)
    if m:
        i, size = m.group(1), int(m.group(2))
        assert i not in live, "line %d: %s allocated while live" % (n, i)
        live[i] = size
        cur += size
        peak = max(peak, cur)
        allocs += 1
        if m.group(3):
            assert not seen_dynamic, "line %d: a persistent allocation after the first dynamic one" % n
            assert i.startswith("w."), "line %d: persistent %s" % (n, i)
            pers += 1
            wbytes += size
        else:
            seen_dynamic = True
            assert not i.startswith("w."), "line %d: %s not persistent" % (n, i)
        continue
    m = re.fullmatch(r"free ([A-Za-z0-9_.-]{1,63})", l)
    assert m, "line %d: %r" % (n, l)
    i = m.group(1)
    assert i in live, "line %d: %s freed while not live" % (n, i)
    cur -= live.pop(i)
    frees += 1
assert not live, "left live: %s" % list(live)[:5]
assert head["operations"] == "%d allocs (%d persistent), %d frees" % (allocs, pers, frees), head["operations"]
w = re.fullmatch(r"[0-9]+ tensors, ([0-9]+) bytes; buffers: [0-9]+ tensors, ([0-9]+) bytes; all persistent", head["weights"])
assert w and int(w.group(1)) + int(w.group(2)) == wbytes, (head["weights"], wbytes)
assert head["peak live"].startswith("%d bytes (" % peak), (head["peak live"], peak)
assert peak <= vram // 2, (peak, vram)
# the weights are freed last
tail = [l for l in lines[:-1] if not l.startswith("#")][-pers:]
assert all(l.startswith("free w.") for l in tail), tail[:3]
' "$TMP/out" "$1" 2> "$TMP/pyerr" || fail "trace: $(tr '\n' ' ' < "$TMP/pyerr")"
}

# trace_size ID: the size of the first allocation of ID in the trace on stdout
trace_size() { awk -v id="$1" '$1 == "alloc" && $2 == id { print $3; exit }' "$TMP/out"; }

# parse_size_sh SIZE: BYTES gets 64MiB, 256MiB or 1GiB in bytes
parse_size_sh() {
	case $1 in
	*MiB) BYTES=$((${1%MiB} * 1048576)) ;;
	*GiB) BYTES=$((${1%GiB} * 1073741824)) ;;
	*) BYTES=$1 ;;
	esac
}

# header KEY: a header line's value ("# KEY: VALUE") from the trace on stdout
header() { sed -n "s/^# $1: //p" "$TMP/out"; }

tests_trace() {
	t "trace gpt2-small: the defaults are --vram 256MiB --steps 3 --seed 1"
	vp trace gpt2-small
	rc_is 0
	[ -n "$COUNT" ] || cp "$TMP/out" "$TMP/default.trace"
	vp trace gpt2-small --vram 256MiB --steps=3 --seed 1
	rc_is 0
	[ -n "$COUNT" ] || cmp -s "$TMP/out" "$TMP/default.trace" || fail "not the same trace"
	out_line "# made by: vrampoolctl trace gpt2-small --vram 256MiB --steps 3 --seed 1"
	err_empty
	end

	t "trace: deterministic; -o FILE writes what stdout gets"
	vp trace llama-7b --vram 100MiB
	[ -n "$COUNT" ] || cp "$TMP/out" "$TMP/first.trace"
	vp trace llama-7b --vram 100MiB -o "$TMP/o.trace"
	rc_is 0
	out_empty
	[ -n "$COUNT" ] || cmp -s "$TMP/o.trace" "$TMP/first.trace" || fail "-o differs from stdout"
	vp trace --output="$TMP/o2.trace" llama-7b --vram=100MiB
	rc_is 0
	[ -n "$COUNT" ] || cmp -s "$TMP/o2.trace" "$TMP/first.trace" || fail "--output= differs"
	end

	for m in gpt2-small llama-7b; do
		for v in 64MiB 256MiB 1GiB; do
			t "trace $m --vram $v: well formed, adds up, peak live near half the VRAM"
			vp trace "$m" --vram "$v"
			rc_is 0
			[ -n "$COUNT" ] || parse_size_sh "$v"
			trace_check "$BYTES"
			if [ -z "$COUNT" ]; then
				p=$(header "peak live" | cut -d' ' -f1)
				[ "$p" -ge $((BYTES / 2 * 9 / 10)) ] || fail "peak live $p: not 90% of half $BYTES"
			fi
			out_has "# scaled by 0."
			end
		done
	done

	t "trace gpt2-small --vram 1TiB: the published shapes, fp32"
	vp trace gpt2-small --vram 1TiB
	rc_is 0
	trace_check 1099511627776
	out_line "# model: GPT-2 small as published: 12 layers, d_model 768, 12 heads, FFN 3072, vocab 50257, context 1024; fp32, batch 12"
	out_line "# not scaled: the published shapes fit in 1TiB"
	# 124,439,808 parameters of 4 bytes; a 1024 x 1024 bool mask per layer
	out_line "# weights: 148 tensors, 497759232 bytes; buffers: 12 tensors, 12582912 bytes; all persistent"
	if [ -z "$COUNT" ]; then
		s=$(header training | awk '{ print $5 }')
		[ "$(trace_size w.wte)" = $((50257 * 768 * 4)) ] || fail "wte"
		[ "$(trace_size w.wpe)" = $((1024 * 768 * 4)) ] || fail "wpe"
		[ "$(trace_size w.h0.attn.c_attn.weight)" = $((768 * 2304 * 4)) ] || fail "c_attn"
		[ "$(trace_size w.h11.mlp.c_proj.weight)" = $((3072 * 768 * 4)) ] || fail "mlp.c_proj"
		[ "$(trace_size s1.h0.attn.softmax)" = $((12 * 12 * s * s * 4)) ] || fail "attention"
		[ "$(trace_size s1.logits)" = $((12 * s * 50257 * 4)) ] || fail "logits"
		[ "$(trace_size adam.m.wte)" = $((50257 * 768 * 4)) ] || fail "Adam's moment"
	fi
	end

	t "trace llama-7b --vram 1TiB: the published shapes, fp16"
	vp trace llama-7b --vram 1TiB
	rc_is 0
	trace_check 1099511627776
	out_line "# model: LLaMA 7B as published: 32 layers, d_model 4096, 32 heads, FFN 11008, vocab 32000, context 2048; fp16, batch 1"
	# 6,738,415,616 parameters of 2 bytes; inv_freq: 64 floats
	out_line "# weights: 291 tensors, 13476831232 bytes; buffers: 1 tensors, 256 bytes; all persistent"
	if [ -z "$COUNT" ]; then
		s=$(header training | awk '{ print $5 }')
		[ "$(trace_size w.embed_tokens)" = $((32000 * 4096 * 2)) ] || fail "embed_tokens"
		[ "$(trace_size w.l0.q_proj)" = $((4096 * 4096 * 2)) ] || fail "q_proj"
		[ "$(trace_size w.l31.gate_proj)" = $((11008 * 4096 * 2)) ] || fail "gate_proj"
		[ "$(trace_size w.lm_head)" = $((32000 * 4096 * 2)) ] || fail "lm_head"
		[ "$(trace_size s1.l0.gate_proj)" = $((s * 11008 * 2)) ] || fail "gate activation"
		[ "$(trace_size s1.logits.float)" = $((s * 32000 * 4)) ] || fail "fp32 logits"
		[ "$(trace_size s1.l0.attn.lse)" = $((32 * s * 4)) ] || fail "logsumexp"
	fi
	end

	t "trace --seed: 0 runs every step at the whole context, others draw lengths"
	vp trace gpt2-small --vram 1TiB --seed 0 --steps 4
	rc_is 0
	out_line "# training: 4 steps, sequence lengths 1024 1024 1024 1024"
	vp trace gpt2-small --vram 1TiB --seed 2 --steps 4
	out_line "# training: 4 steps, sequence lengths 1024 608 800 768"
	end

	t "trace --steps: one AdamW step, one set of moments, per step"
	vp trace llama-7b --steps 1
	rc_is 0
	trace_check 268435456
	if [ -z "$COUNT" ]; then
		[ "$(grep -c '^alloc adam\.m\.' "$TMP/out")" = 291 ] || fail "moments"
		[ "$(grep -c '^alloc s1\.adam\.sqrt\.' "$TMP/out")" = 291 ] || fail "foreach temporaries"
		! grep -q '^alloc s2\.' "$TMP/out" || fail "a second step"
	fi
	vp trace llama-7b --steps 5
	if [ -z "$COUNT" ]; then
		[ "$(grep -c '^alloc adam\.m\.' "$TMP/out")" = 291 ] || fail "moments allocated again"
		[ "$(grep -c '^alloc s5\.adam\.sqrt\.' "$TMP/out")" = 291 ] || fail "step 5"
	fi
	end

	t "trace: usage errors, exit 2"
	vp trace
	rc_is 2
	err_line "vrampoolctl: trace: no model given (gpt2-small or llama-7b)"
	vp trace gpt3
	rc_is 2
	err_line "vrampoolctl: trace: unknown model 'gpt3' (gpt2-small or llama-7b)"
	vp trace gpt2-small llama-7b
	rc_is 2
	err_line "vrampoolctl: trace: one model only ('gpt2-small', then 'llama-7b')"
	vp trace gpt2-small --steps 0
	rc_is 2
	err_line "vrampoolctl: trace: --steps: 0: from 1 to 1000"
	vp trace gpt2-small --steps 1001
	rc_is 2
	vp trace gpt2-small --steps x
	rc_is 2
	err_line "vrampoolctl: trace: --steps: 'x' is not a number (decimal digits only)"
	vp trace gpt2-small --vram 1QiB
	rc_is 2
	err_has "vrampoolctl: trace: --vram: '1QiB': unknown unit 'QiB'"
	vp trace gpt2-small --vram
	rc_is 2
	err_line "vrampoolctl: trace: --vram needs a value"
	vp trace gpt2-small --bogus
	rc_is 2
	err_line "vrampoolctl: trace: unknown option '--bogus'"
	vp trace gpt2-small --json=1
	rc_is 2
	err_line "vrampoolctl: trace: unknown option '--json'"
	vp trace llama-7b --vram 1KiB
	rc_is 2
	err_line "vrampoolctl: trace: --vram 1KiB is too small for llama-7b: at its smallest, its peak live (12474 bytes) is more than half of it"
	out_empty
	end

	t "trace -o into a missing folder: exit 1"
	vp trace gpt2-small -o "$TMP/no/such/file"
	rc_is 1
	err_line "vrampoolctl: trace: $TMP/no/such/file: No such file or directory"
	end
}

# replay_err LINE MESSAGE: replay of $TMP/t (made by the caller) fails with
# exit 2 before any device is opened, naming LINE
replay_err() {
	vp replay --device /dev/null "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: replay: line $1: $2"
	out_empty
}

tests_replay() {
	t "replay: every trace that trace writes reads back (then /dev/null: exit 3)"
	for m in gpt2-small llama-7b; do
		[ -n "$COUNT" ] || "$V" trace "$m" -o "$TMP/$m.trace"
		vp replay --device /dev/null "$TMP/$m.trace"
		rc_is 3
		err_line "vrampoolctl: /dev/null: not a vrampool device"
	done
	end

	t "replay: comments, blank lines, units, IDs allocated again once freed"
	printf '# a trace\n\nalloc a 1KiB # a comment\nalloc B.2-x_y 0 persistent\n\tfree a\nalloc a 1.5MiB\nfree B.2-x_y\n' > "$TMP/t"
	vp replay --device /dev/null "$TMP/t" sub-slices
	rc_is 3
	vp_in "$TMP/t" replay --device /dev/null -
	rc_is 3
	end

	t "replay: trace errors name their line, exit 2"
	printf 'alloc a 1\nfrob a\n' > "$TMP/t"
	replay_err 2 "unknown operation 'frob' (alloc or free)"
	printf 'alloc a\n' > "$TMP/t"
	replay_err 1 "usage: alloc ID SIZE [persistent]"
	printf 'alloc a 1 persistent extra\n' > "$TMP/t"
	replay_err 1 "usage: alloc ID SIZE [persistent]"
	printf 'alloc a 1\nfree\n' > "$TMP/t"
	replay_err 2 "usage: free ID"
	printf 'alloc a 1\nfree a a\n' > "$TMP/t"
	replay_err 2 "usage: free ID"
	printf 'alloc a/b 1\n' > "$TMP/t"
	replay_err 1 "'a/b' is not an ID (letters, digits, _ - .; at most 63)"
	printf 'alloc %s 1\n' "$(printf 'x%.0s' $(seq 64))" > "$TMP/t"
	replay_err 1 "'$(printf 'x%.0s' $(seq 64))' is not an ID (letters, digits, _ - .; at most 63)"
	printf 'alloc a 12abc\n' > "$TMP/t"
	replay_err 1 "alloc: '12abc': unknown unit 'abc' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)"
	printf 'alloc a -1\n' > "$TMP/t"
	replay_err 1 "alloc: '-1' is not a size (a number, then an optional unit: B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)"
	printf 'alloc a 1 Persistent\n' > "$TMP/t"
	replay_err 1 "alloc: 'Persistent': only 'persistent' may follow the size"
	printf 'alloc a 1\nalloc b 2\nalloc a 3\n' > "$TMP/t"
	replay_err 3 "'a' is still allocated (line 1): free it first"
	printf 'alloc a 1\nfree b\n' > "$TMP/t"
	replay_err 2 "'b' is not allocated by an earlier line"
	printf 'alloc a 1\nfree a\n# again\nfree a\n' > "$TMP/t"
	replay_err 4 "'a' is already freed (line 2)"
	end

	t "replay: a trace with no operation: exit 2"
	printf '# nothing\n\n' > "$TMP/t"
	vp replay --device /dev/null "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: replay: $TMP/t: no operation (alloc or free) in the trace"
	end

	t "replay: arguments: exit 2 before any device"
	printf 'alloc a 1\n' > "$TMP/t"
	vp replay
	rc_is 2
	err_line "vrampoolctl: replay: no trace given (a file, or - for standard input)"
	vp replay --device /dev/null "$TMP/does-not-exist"
	rc_is 2
	err_line "vrampoolctl: replay: $TMP/does-not-exist: No such file or directory"
	vp replay --device /dev/null "$TMP/t" sliced:page=1QiB
	rc_is 2
	err_line "vrampoolctl: replay: 'sliced:page=1QiB': page: '1QiB': unknown unit 'QiB' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)"
	vp replay --device /dev/null "$TMP/t" sub-slices direct
	rc_is 2
	err_line "vrampoolctl: replay: the preset 'sub-slices' comes alone, without pool specs"
	vp replay --bogus "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: replay: unknown option '--bogus'"
	vp replay "$TMP/t" --device
	rc_is 2
	err_line "vrampoolctl: replay: --device needs a value"
	end

	t "replay --device of a missing node, a layout on /dev/null: exit 3"
	printf 'alloc a 1\n' > "$TMP/t"
	vp replay --device /dev/accel/accel250 "$TMP/t"
	rc_is 3
	err_line "vrampoolctl: /dev/accel/accel250: No such file or directory"
	vp replay --json --device=/dev/null "$TMP/t" direct exclusive:max=1MiB
	rc_is 3
	err_line "vrampoolctl: /dev/null: not a vrampool device"
	end

	if [ -z "$HAVE_DEVICE" ]; then
		t "no vrampool device: replay exits 3"
		vp replay "$TMP/t"
		rc_is 3
		err_line "vrampoolctl: no vrampool device found"
		end
	fi
}

# plan and record: their checks of the arguments and the trace, made before
# any device or tracefs is opened; record's errors where tracefs is missing.
tests_plan_record() {
	t "plan: arguments and trace errors: exit 2 before any device, 'plan:' messages"
	printf 'alloc a 1\n' > "$TMP/t"
	vp plan
	rc_is 2
	err_line "vrampoolctl: plan: no trace given (a file, or - for standard input)"
	vp plan --bogus "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: plan: unknown option '--bogus'"
	vp plan "$TMP/t" "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: plan: unexpected argument '$TMP/t' (one trace)"
	vp plan "$TMP/t" --device
	rc_is 2
	err_line "vrampoolctl: plan: --device needs a value"
	vp plan --device /dev/null "$TMP/does-not-exist"
	rc_is 2
	err_line "vrampoolctl: plan: $TMP/does-not-exist: No such file or directory"
	printf 'alloc a 1\nfree b\n' > "$TMP/t"
	vp plan --device /dev/null "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: plan: line 2: 'b' is not allocated by an earlier line"
	out_empty
	printf '# nothing\n' > "$TMP/t"
	vp plan --device /dev/null "$TMP/t"
	rc_is 2
	err_line "vrampoolctl: plan: $TMP/t: no operation (alloc or free) in the trace"
	end

	t "plan: a model trace on /dev/null: read whole, then exit 3"
	[ -n "$COUNT" ] || "$V" trace llama-7b -o "$TMP/llama.trace"
	vp plan --json --device /dev/null "$TMP/llama.trace"
	rc_is 3
	err_line "vrampoolctl: /dev/null: not a vrampool device"
	out_empty
	end

	t "record: arguments: exit 2 before tracefs"
	vp record
	rc_is 2
	err_line "vrampoolctl: record: no file given (a file, or - for standard output)"
	vp record --pid 0 "$TMP/r"
	rc_is 2
	err_line "vrampoolctl: record: --pid: '0' is not a process id"
	vp record --pid x "$TMP/r"
	rc_is 2
	err_line "vrampoolctl: record: --pid: 'x' is not a process id"
	vp record --client -1 "$TMP/r"
	rc_is 2
	err_has "vrampoolctl: record: --client: "
	vp record --duration 1y "$TMP/r"
	rc_is 2
	err_has "vrampoolctl: record: --duration: "
	vp record --frob "$TMP/r"
	rc_is 2
	err_line "vrampoolctl: record: unknown option '--frob'"
	vp record "$TMP/r" "$TMP/s"
	rc_is 2
	err_line "vrampoolctl: record: unexpected argument '$TMP/s' (one file)"
	vp record --pid 2147483647 "$TMP/r"
	rc_is 2
	err_line "vrampoolctl: record: --pid 2147483647: no such process"
	[ -n "$COUNT" ] || [ ! -e "$TMP/r" ] || fail "record wrote $TMP/r"
	end

	if [ ! -d /sys/kernel/tracing/events ] && [ ! -d /sys/kernel/debug/tracing/events ]; then
		t "record without tracefs: exit 1, how to mount it"
		vp record "$TMP/r"
		rc_is 1
		err_line "vrampoolctl: record: no tracefs at /sys/kernel/tracing or /sys/kernel/debug/tracing (mount -t tracefs nodev /sys/kernel/tracing)"
		end
	elif [ "$(id -u)" != 0 ]; then
		t "record as a user: exit 1, tracefs needs root"
		vp record "$TMP/r"
		rc_is 1
		err_line "vrampoolctl: record: tracefs needs root (run as root)"
		end
	fi
}

# groff is in setup.sh's packages: without it the test fails, never vanishes.
tests_man() {
	t "vrampoolctl.1: groff renders it without a warning"
	if [ -z "$COUNT" ]; then
		if [ -z "$HAVE_GROFF" ]; then
			fail "groff missing (selftests/qemu/setup.sh installs groff-base)"
		elif [ -f "$MAN" ]; then
			groff -man -ww -z "$MAN" > "$TMP/err" 2>&1 || fail "groff failed"
			[ ! -s "$TMP/err" ] || fail "groff warnings: $(head -n 3 "$TMP/err" | tr '\n' ' ')"
			groff -man -Tascii -P-cbou "$MAN" 2> /dev/null | grep -q "^EXIT STATUS" ||
				fail "no EXIT STATUS section"
			if command -v man > /dev/null 2>&1; then
				MANWIDTH=80 man -l "$MAN" 2> /dev/null | grep -q "^NAME" ||
					fail "man -l does not render it"
			fi
		else
			fail "$MAN missing"
		fi
	fi
	end
}

all_tests() {
	tests_help
	tests_presets
	tests_specs
	tests_errors
	tests_usage
	tests_scripts
	tests_nodev
	tests_trace
	tests_replay
	tests_plan_record
	tests_man
}

echo "TAP version 13"
if [ ! -x "$V" ]; then
	echo "1..0 # SKIP $V not built (make userspace)"
	exit 4
fi
if ! command -v python3 > /dev/null 2>&1; then
	echo "1..0 # SKIP python3 missing: the JSON checks need it"
	exit 4
fi
[ -n "$HAVE_DEVICE" ] && echo "# a vrampool device exists: the no-device tests are left out"

tap_run all_tests

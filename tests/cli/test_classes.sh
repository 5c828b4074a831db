#!/bin/sh
# test_classes.sh - traffic classes on SLs and VLs of their own (issue 29),
# offline:
#   1. the full Fire-Flyer 2 fabric with two classes: 2 classes x 2 deadlock
#      layers on 4 VLs, no hard finding with every class walked, and the
#      independent per-VL analysis (tests/tools/vl_cdg.py) finds no cycle;
#      the LFTs are byte for byte those routed without classes (classes
#      add SLs and VLs, they move no route: per-zone shifts and balance
#      unchanged);
#   2. the built-in four classes on the small ff2 and on a one-zone frame
#      (8 VLs: the switches' own routes turn, so 2 layers each);
#   3. refusals with the numbers: --vl-limit 2 with two classes on ff2;
#      --vl-limit 3 with four classes; four classes on four zones (21 SLs);
#      three classes there fit (16 SLs) and verify;
#   4. the checker can fail: SL2VL edited so that one class's two layers
#      share a VL finds a credit loop, in `ffroute check` and in vl_cdg.py;
#   5. bad class files: file:line:col errors (unknown word, SL 16, shared
#      SL, two defaults, no sl, SL 0 off the default class, no class line),
#      exit 2;
#   6. determinism: the same run twice writes the same bytes.
# Environment: FFROUTE, top_srcdir.  Exit 0 / 1 / 77 (no jq or python3).

: "${FFROUTE:?FFROUTE not set}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-classes.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"
F=$top_srcdir/fabrics
VLCDG=$top_srcdir/tests/tools/vl_cdg.py

printf 'class collectives sl 1 weight 64\nclass storage sl 2 weight 32 roles storage default\n' \
	>"$TMP/two.conf"

# route NAME FABRIC ARGS...: route and check --json; the summary in NAME.err
route() {
	name=$1 fab=$2
	shift 2
	if "$FFROUTE" route "$fab" -o "$TMP/$name" "$@" 2>"$TMP/$name.err"; then
		"$FFROUTE" check "$TMP/$name" --json >"$TMP/$name.json" 2>>"$TMP/$name.err"
		ok "$name: routed ($*)"
	else
		not_ok "$name: route ($*)" "$TMP/$name.err"
		return 1
	fi
}
expect() {	# expect NAME JQ-EXPR
	if jq -e "$2" "$TMP/$1.json" >/dev/null 2>&1; then ok "$1: $2"; else
		not_ok "$1: $2" "$TMP/$1.json"
	fi
}
has() {	# has FILE PATTERN WHAT
	if grep -q -- "$2" "$1"; then ok "$3"; else not_ok "$3 (no '$2')" "$1"; fi
}
vlcdg() {	# vlcdg NAME WANT: vl_cdg.py's summary starts with WANT and finds no cycle
	if python3 "$VLCDG" "$TMP/$1" >"$TMP/$1.vl" 2>&1 && grep -q "^$2 .* cyclic 0$" "$TMP/$1.vl"; then
		ok "$1: vl_cdg.py: $(cat "$TMP/$1.vl")"
	else
		not_ok "$1: vl_cdg.py ($2, cyclic 0)" "$TMP/$1.vl"
	fi
}
nohard='.findings | to_entries | map(select(.value.hard and .value.count > 0)) | length == 0'

# ---- 1. full ff2, two classes x two layers ------------------------------------------
route ff2two "$F/ff2-bridge-full.net" --classes "$TMP/two.conf"
has "$TMP/ff2two/ffroute.vlarb" "^qos_max_vls 4$" "ff2 full: 2 classes x 2 layers = 4 VLs"
has "$TMP/ff2two/ffroute.vlarb" "^qos_vlarb_low 0:64,1:64,2:32,3:32$" "ff2 full: VL arbitration weights"
has "$TMP/ff2two/ffroute.sl" "^class storage " "ff2 full: ffroute.sl carries the classes"
expect ff2two "$nohard"
expect ff2two '.findings.credit_loop.count == 0 and .findings.credit_loop_switch.count == 0'
vlcdg ff2two "classes 2 vls 4"
route ff2none "$F/ff2-bridge-full.net"
if cmp -s "$TMP/ff2two/opensm-lfts.dump" "$TMP/ff2none/opensm-lfts.dump"; then
	ok "ff2 full: the LFTs with classes are those without, byte for byte"
else
	not_ok "ff2 full: classes moved routes" /dev/null
fi
for m in shift_zone0_max shift_zone1_max uplink_spread_compute uplink_spread_storage ebb; do
	a=$(jq ".metrics.$m" "$TMP/ff2two.json") b=$(jq ".metrics.$m" "$TMP/ff2none.json")
	if [ "$a" = "$b" ] && [ "$a" != null ]; then ok "ff2 full: $m $a with and without classes"
	else not_ok "ff2 full: $m $a with classes, $b without" /dev/null; fi
done

# ---- 2. the built-in four classes -------------------------------------------------------
route ff2four "$F/ff2-bridge-small.net" --classes default
has "$TMP/ff2four/ffroute.vlarb" "^qos_max_vls 8$" "ff2 small, four classes: 8 VLs"
expect ff2four "$nohard"
vlcdg ff2four "classes 4 vls 8"
route frame4 "$F/frame-director-small.net" --classes default
has "$TMP/frame4/ffroute.vlarb" "^qos_max_vls 8$" "one-zone frame, four classes: 8 VLs (switches' turns: 2 layers)"
expect frame4 "$nohard"
vlcdg frame4 "classes 4 vls [0-9]*"

# ---- 3. refusals with the numbers ---------------------------------------------------------
if "$FFROUTE" route "$F/ff2-bridge-full.net" -o "$TMP/r2" --classes "$TMP/two.conf" --vl-limit 2 \
	2>"$TMP/r2.err"; then not_ok "--vl-limit 2 with two classes was routed" "$TMP/r2.err"
else has "$TMP/r2.err" "2 classes x 2 VLs of deadlock layers need 4 VLs, the limit is 2" \
	"--vl-limit 2, two classes on ff2: refused with the numbers"; fi
if "$FFROUTE" route "$F/ff2-bridge-small.net" -o "$TMP/r3" --classes default --vl-limit 3 \
	2>"$TMP/r3.err"; then not_ok "--vl-limit 3 with four classes was routed" "$TMP/r3.err"
else has "$TMP/r3.err" "4 classes need 4 VLs at least, the limit is 3" \
	"--vl-limit 3, four classes: refused with the numbers"; fi
if "$FFROUTE" route "$F/multiframe-director-small.net" -o "$TMP/r4" --classes default \
	2>"$TMP/r4.err"; then not_ok "four classes on four zones were routed" "$TMP/r4.err"
else has "$TMP/r4.err" "4 classes x 5 SLs of deadlock layers (+1 for switches' turns) need 21 SLs" \
	"four zones, four classes: refused, 21 SLs needed"; fi
printf 'class other sl 0 default\nclass collectives sl 1\nclass storage sl 2 roles storage\n' \
	>"$TMP/three.conf"
route mf3 "$F/multiframe-director-small.net" --classes "$TMP/three.conf"
expect mf3 "$nohard"
vlcdg mf3 "classes 3 vls 6"
[ ! -e "$TMP/r2/opensm-lfts.dump" ] && ok "a refused run writes nothing" ||
	not_ok "a refused run wrote tables" /dev/null

# ---- 4. the checker can fail -----------------------------------------------------------------
cp -r "$TMP/ff2four" "$TMP/merged"
# the default class "other" (VLs 0-1): its layer-1 VL merged into VL 0
awk '/^[0-9]+ [0-9]+ :/ { for (i = 4; i <= NF; i++) if ($i == 1) $i = 0 } { print }' \
	"$TMP/ff2four/opensm-sl2vl.dump" >"$TMP/merged/opensm-sl2vl.dump"
"$FFROUTE" check "$TMP/merged" --json >"$TMP/merged.json" 2>/dev/null
expect merged '.findings.credit_loop.count > 0'
if python3 "$VLCDG" "$TMP/merged" >"$TMP/merged.vl" 2>&1; then
	not_ok "vl_cdg.py missed the merged layers" "$TMP/merged.vl"
else ok "vl_cdg.py finds the merged layers' cycle: $(cat "$TMP/merged.vl")"; fi

# ---- 5. bad class files ------------------------------------------------------------------------
bad() {	# bad TEXT WANT: --classes with TEXT fails with WANT (file:line:col ...)
	printf '%b' "$1" >"$TMP/bad.conf"
	"$FFROUTE" route "$F/ff2-bridge-small.net" -o "$TMP/bad" --classes "$TMP/bad.conf" \
		>/dev/null 2>"$TMP/bad.err"
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$2" "$TMP/bad.err"; then ok "bad class file: $(head -1 "$TMP/bad.err")"
	else not_ok "bad class file '$1': exit $rc, want 2 and '$2'" "$TMP/bad.err"; fi
}
bad 'class a sl 1\nclass b sl 2 colour red\n' "bad.conf:2:14: error: sl, weight, roles, high or default expected"
bad 'class a sl 16\n' "bad.conf:1:12: error: sl is 0..15"
bad 'class a sl 1 roles storage,gpu\n' "bad.conf:1:20: error: roles is a comma list"
bad 'class a sl 1\nclass b sl 1\n' "classes a and b share an SL"
bad 'class a sl 1 default\nclass b sl 2 default\n' "2 classes marked default"
bad 'class a weight 3\n' "class a has no sl"
bad 'class a sl 0\nclass b sl 1 default\n' "class a: SL 0 is what a request naming no SL asks for"
bad '# nothing\n' "no class line"
bad 'vl_limit 4\n' "bad.conf:1:1: error: expected \"class NAME sl N ...\""

# ---- 6. determinism ---------------------------------------------------------------------------------
"$FFROUTE" route "$F/ff2-bridge-small.net" -q -o "$TMP/again" --classes default 2>/dev/null
for f in opensm-lfts.dump ffroute.sl opensm-sl2vl.dump ffroute.vlarb; do
	if cmp -s "$TMP/ff2four/$f" "$TMP/again/$f"; then ok "deterministic: $f"
	else not_ok "deterministic: $f differs" /dev/null; fi
done
tap_done

#!/bin/sh
# test_route.sh - `ffroute route` on every reference fabric, judged by
# `ffroute check` on what it wrote, and `ffroute classify`.
#
#   1. every fabrics/*.net (small and full) and generated degraded copies
#      (1 % and 5 % of the switch links dropped, seed 1: frame full, ff2
#      full bridge + leaf2leaf, multiframe small, rail2/rail3 full) and
#      healthy fabrics with a SHARP node on every switch: exit 0,
#      no hard finding, no credit loop of any kind (credit_loop and
#      credit_loop_switch both 0; rail3 full at 5 %: one switch loop, as
#      the built-in engines), no unreachable destination, no
#      non-minimal route inside a zone, switch LIDs routed;
#   2. healthy fabrics: per-class up-link spread <= 1 on every leaf
#      (compute, storage, other); shift permutations contention-free (max
#      load 1) per zone on ff2 and multiframe, per rail on rail2/rail3, and
#      on the rail-only subnets; the frames' shifts at most 2 (792 compute
#      HCAs on 20 spines, 30 on 4: N is not a multiple of the spine count,
#      and no D-mod-K routing can then do better, see ffroute(1)), and no
#      frame link carries a switch LID for every other leaf; two VLs
#      on ff2/multiframe; rail violations 0;
#   3. determinism: routing the same fabric twice writes identical bytes;
#   4. classify: levels, zones, rails and the verdict of known fabrics
#      (JSON), a real third-party fabric included;
#   5. usage errors exit 2; a two-zone fabric with --vl-limit 1 is routed
#      in one up*/down* order (no credit loop, the zone detours reported);
#      a fabric cut in two is refused (the classification's reason) and
#      nothing is written;
#   6. --no-lfts-dump: ffroute.lftb alone, read by check and convert;
#      --lfts-compact: the dump's rows alone ("0xLLLL PPP"), the same
#      report from check once ffroute.lftb is gone, convert turns it into
#      the full dump byte for byte; with --no-lfts-dump a usage error.
# Needs jq.  Environment: FFROUTE, top_srcdir.  Exit 0 / 1 / 77.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }

FAB=$top_srcdir/fabrics
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-route.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"

# expect NAME JQ-EXPR: the check JSON of NAME satisfies EXPR
expect() {
	if jq -e "$2" "$TMP/$1.json" >/dev/null 2>&1; then ok "$1: $2"; else
		not_ok "$1: $2 (got $(jq -c "$3" "$TMP/$1.json" 2>/dev/null))" "$TMP/$1.err"; fi
}

# route NAME NETFILE [rooted]: route into $TMP/NAME, check into $TMP/NAME.json;
# "rooted": the rooted layer must be used, and its routes may be non-minimal
route() {
	if "$FFROUTE" route "$2" -o "$TMP/$1" --check --json >"$TMP/$1.json" 2>"$TMP/$1.err"; then
		ok "route + check $1"
	else
		not_ok "route + check $1 (exit $?)" "$TMP/$1.err" "$TMP/$1.json"
		return 1
	fi
	expect "$1" '.hard_findings == 0' '.hard_findings'
	expect "$1" '[.findings.unreachable.count, .findings.loop.count, .findings.blackhole.count,
		.findings.switch_lid.count, .findings.credit_loop.count,
		.findings.credit_loop_switch.count, .findings.rail_mix.count,
		.findings.rail_leave.count, .findings.cross_zone_link.count,
		.findings.storage_cross_zone.count] | add == 0' '.findings'
	if [ "${3:-}" = rooted ]; then
		n=$(sed -n 's/.* \([0-9][0-9]*\) LIDs rooted.*/\1/p' "$TMP/$1.err")
		[ "${n:-0}" -gt 0 ] && ok "$1: $n LIDs on the rooted layer" ||
			not_ok "$1: the rooted layer is not used" "$TMP/$1.err"
		return 0
	fi
	expect "$1" '.metrics | to_entries | map(select(.key | test("^nonminimal_routes_zone")))
		| map(.value) | add // 0 | . == 0' '.metrics.nonminimal_routes'
}

# ---- 1 + 2: reference fabrics ---------------------------------------------
for net in "$FAB"/*.net; do
	name=$(basename "$net" .net)
	route "$name" "$net" || continue
	case $name in *degraded*) continue ;; esac
	expect "$name" '[.metrics.uplink_spread_compute, .metrics.uplink_spread_storage,
		.metrics.uplink_spread_other] | max <= 1' \
		'[.metrics.uplink_spread_compute,.metrics.uplink_spread_storage,.metrics.uplink_spread_other]'
	case $name in
	ff2-*|multiframe-*)
		expect "$name" '[.metrics | to_entries[] | select(.key | test("^shift_zone[0-9]+_max$"))
			| .value] | max == 1' '.metrics.shift_zone0_max'
		# two VL layers: cross-zone SLs in ffroute.sl, mapped to VL 1 by the SL2VL dump
		if grep -q '^sl [0-9]* [0-9-]* [1-9]$' "$TMP/$name/ffroute.sl" &&
		   grep -q ': 0 1 \| : 0 0 1 ' "$TMP/$name/opensm-sl2vl.dump"; then
			ok "$name: cross-zone SLs on VL 1"
		else
			not_ok "$name: no cross-zone SL / VL 1 in the dumps"
		fi ;;
	rail2-*|rail3-*)
		expect "$name" '.metrics.shift_rail_max == 1' '.metrics.shift_rail_max' ;;
	railonly-*)
		expect "$name" '.metrics.shift_max == 1' '.metrics.shift_max' ;;
	frame-*)
		expect "$name" '.metrics.shift_max <= 2 and .metrics.shift_lb_max == 1' \
			'[.metrics.shift_max, .metrics.shift_lb_max]'
		# the leaves spread a switch LID (class other) over the spines: no
		# down-link carries one for every other leaf (full frame: 41 class-other
		# routes on one link when all leaves chose alike, 7 now)
		expect "$name" '.metrics.link_routes_other_max < .classification.switch_levels.leaf - 1' \
			'[.metrics.link_routes_other_max, .classification.switch_levels.leaf]' ;;
	esac
done

# degraded copies, generated (seeded) on the fly; ROOTED=rooted: see route()
gen() {
	name=$1
	shift
	if "$FFROUTE" fabric "$@" -o "$TMP/$name.net" 2>"$TMP/$name.gen.err"; then
		route "$name" "$TMP/$name.net" "${ROOTED:-}"
	else
		not_ok "generate $name" "$TMP/$name.gen.err"
	fi
}
for p in 0.01 0.05; do
	gen "frame-full-d$p" frame --size full --drop-links $p --seed 1
	gen "ff2-l2l-full-d$p" ff2 --style leaf2leaf --size full --drop-links $p --seed 1
	gen "multiframe-small-d$p" multiframe --size small --drop-links $p --seed 1
	gen "rail2-full-d$p" rail --style rail2 --size full --drop-links $p --seed 1
done
gen "rail3-full-d0.01" rail --style rail3 --size full --drop-links 0.01 --seed 1
# the 5 %-degraded full rail3 keeps one soft credit loop of switch-originated
# routes since destinations follow the graph's position order (class_pos.c),
# as dfsssp's, minhop's and nue's do on it: the CA routes' credit loops (hard)
# stay 0, and a second switch loop fails
"$FFROUTE" fabric rail --style rail3 --size full --drop-links 0.05 --seed 1 \
	-o "$TMP/r3full5.net" 2>"$TMP/r3full5.err" &&
	"$FFROUTE" route "$TMP/r3full5.net" -o "$TMP/r3full5" --check --json >"$TMP/r3full5.json" \
	2>"$TMP/r3full5.err"
expect r3full5 '.hard_findings == 0 and .findings.credit_loop.count == 0 and
	.findings.credit_loop_switch.count <= 1' '.findings.credit_loop_switch'
expect r3full5 '.metrics | to_entries | map(select(.key | test("^nonminimal_routes_zone")))
	| map(.value) | add // 0 | . == 0' '.metrics.nonminimal_routes'

# a 3-level tree whose spine lost a core (seed 1 drops r0-spine01's link to
# core 2): with one substitute core for every source its link down carried two
# destinations' routes (86 routes, max/mean 1.85); the sources spread them now
gen rail3-small-d0.01 rail --style rail3 --drop-links 0.01 --seed 1
expect rail3-small-d0.01 '.metrics.link_routes_max_over_mean < 1.75' \
	'[.metrics.link_routes_max, .metrics.link_routes_max_over_mean]'
# ... and (5 %) a leaf kept one of its two links to a spine: that spine's
# switch-LID turns now weigh the leaves' groups per link (2.14 -> 2.00); the
# fabric's switch-originated routes keep one soft credit loop, as dfsssp's do
"$FFROUTE" fabric rail --style rail3 --drop-links 0.05 --seed 1 -o "$TMP/r3d5.net" \
	2>"$TMP/r3d5.err" &&
	"$FFROUTE" route "$TMP/r3d5.net" -o "$TMP/r3d5" --check --json >"$TMP/r3d5.json" \
	2>"$TMP/r3d5.err"
expect r3d5 '.hard_findings == 0 and .metrics.link_routes_max_over_mean < 2.05' \
	'[.hard_findings, .metrics.link_routes_max, .metrics.link_routes_max_over_mean]'

# rail isolation that cannot be kept: the 5 %-degraded full rail3 with SHARP
# nodes (seed 3) needs the rooted layer, whose routes leave some rail
# planes.  auto (default) accepts those rail findings and says so
# (it refused before: a credit loop, then the rail findings); the checker
# still counts the rail findings, and no credit loop; on refuses; off routes
"$FFROUTE" fabric rail --style rail3 --size full --drop-links 0.05 --seed 3 --sharp \
	-o "$TMP/r3s3.net" 2>"$TMP/r3s3.err"
for mode in auto on off; do
	"$FFROUTE" route "$TMP/r3s3.net" -o "$TMP/r3s3-$mode" --rail-isolation $mode -q \
		2>"$TMP/r3s3-$mode.err"
	echo "$?" >"$TMP/r3s3-$mode.rc"
done
if [ "$(cat "$TMP/r3s3-auto.rc" "$TMP/r3s3-on.rc" "$TMP/r3s3-off.rc" | tr '\n' ' ')" = "0 1 0 " ] &&
   grep -q "rail isolation could not be kept.*rail finding" "$TMP/r3s3-auto.err" &&
   grep -q "rail_leave" "$TMP/r3s3-on.err" && ! grep -q "could not" "$TMP/r3s3-off.err"; then
	ok "rail3 full 5 % SHARP seed 3: auto accepts the rail findings and says so, on refuses, off routes"
else
	not_ok "rail3 full 5 % SHARP seed 3: exit auto/on/off $(cat "$TMP"/r3s3-*.rc | tr '\n' ' ')" \
		"$TMP/r3s3-auto.err" "$TMP/r3s3-on.err"
fi
"$FFROUTE" check "$TMP/r3s3-auto" --no-metrics --json >"$TMP/r3s3.json" 2>>"$TMP/r3s3.err"
expect r3s3 '.findings.credit_loop.count == 0 and .findings.unreachable.count == 0 and
	.findings.loop.count == 0 and .findings.rail_leave.count > 0' \
	'[.findings.credit_loop.count, .findings.unreachable.count, .findings.rail_leave.count]'

# a SHARP aggregation node (a CA) on every switch: CAs above the leaves
# inject into spine-to-spine turns and bridge-to-bridge paths
for f in "frame-full:frame --size full" "ff2-small:ff2" "ff2-full:ff2 --size full" \
	 "rail3-small:rail --style rail3" "fattree3-small:fattree --levels 3" \
	 "multiframe-full:multiframe --size full"; do
	# shellcheck disable=SC2086 # the family's options are words
	gen "sharp-${f%%:*}" ${f#*:} --sharp
done

# 3-level trees whose drops leave CAs with no up*down* path by levels (one
# leaf kept only a plane-1 up-link, another only a plane-2 one): the rooted
# layer (with SHARP nodes, seed 5: reached after the fallback's turns fail)
ROOTED=rooted gen fattree3-small-d0.05-s2 fattree --levels 3 --drop-links 0.05 --seed 2
ROOTED=rooted gen sharp-fattree3-small-d0.05-s5 fattree --levels 3 --drop-links 0.05 --seed 5 --sharp

# ---- 3. determinism ---------------------------------------------------------
for f in ff2-bridge-full-degraded5 rail3-small; do
	"$FFROUTE" route "$FAB/$f.net" -o "$TMP/again-$f" -q 2>/dev/null
	if diff -r "$TMP/$f" "$TMP/again-$f" >/dev/null 2>&1; then
		ok "$f: the same bytes twice"
	else
		not_ok "$f: routing twice differs"
	fi
done
for f in ffroute.sl opensm-sl2vl.dump opensm-lfts.dump fabric.topo ffroute.slots; do
	[ -s "$TMP/ff2-bridge-full/$f" ] && ok "ff2-bridge-full wrote $f" ||
		not_ok "ff2-bridge-full did not write $f"
done
[ ! -e "$TMP/ff2-bridge-full/ffroute.ibroute" ] && ok "no ffroute.ibroute unless asked" ||
	not_ok "ffroute.ibroute written without --ibroute"
"$FFROUTE" route "$FAB/ff2-bridge-small.net" -o "$TMP/ibr" --ibroute -q 2>/dev/null
[ -s "$TMP/ibr/ffroute.ibroute" ] && "$FFROUTE" route "$FAB/ff2-bridge-small.net" -o "$TMP/ibr" -q &&
	[ ! -e "$TMP/ibr/ffroute.ibroute" ] && ok "--ibroute writes it; a later run without removes it" ||
	not_ok "--ibroute"

# ---- 4. classify --------------------------------------------------------------
cj() {	# cj FABRIC JQ-EXPR
	if "$FFROUTE" classify --json "$1" >"$TMP/c.json" 2>"$TMP/c.err" &&
	   jq -e "$2" "$TMP/c.json" >/dev/null; then ok "classify $(basename "$1"): $2"; else
		not_ok "classify $(basename "$1"): $2" "$TMP/c.json" "$TMP/c.err"; fi
}
cj "$FAB/ff2-bridge-full.net" '.zones == 2 and .zoneless_switches == 2 and .levels["1"] == 80
	and .roles.storage == 360 and .routable'
cj "$FAB/rail3-full.net" '.zones == 1 and .rails == 8 and .levels["3"] == 40'
cj "$FAB/rail2-full.net" '.zones == 1 and .rails == 8'
cj "$FAB/multiframe-director-full.net" '.zones == 4 and .zoneless_switches == 0'
cj "$FAB/frame-director-full.net" '.zones == 1 and .rails == 0 and .roles.mgmt == 8'
cj "$top_srcdir/tests/data/real/ufm_sdk_3.0__selene.storage.txt" '.routable and .switches == 160'

# ---- 5. usage -------------------------------------------------------------------
"$FFROUTE" route "$FAB/frame-director-small.net" >/dev/null 2>&1
[ $? -eq 2 ] && ok "route without -o: exit 2" || not_ok "route without -o: not exit 2"
"$FFROUTE" route "$FAB/frame-director-small.net" -o "$TMP/x" --vl-limit 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok "route --vl-limit 0: exit 2" || not_ok "route --vl-limit 0: not exit 2"
"$FFROUTE" route "$TMP/nonexistent.net" -o "$TMP/x" >/dev/null 2>&1
[ $? -eq 2 ] && ok "route of a missing file: exit 2" || not_ok "missing file: not exit 2"
"$FFROUTE" route "$FAB/frame-director-small.net" -o "$TMP/x" --class-weights 1,8 >/dev/null 2>&1
[ $? -eq 2 ] && ok "route --class-weights 1,8: exit 2" || not_ok "route --class-weights 1,8: not exit 2"
"$FFROUTE" route "$FAB/ff2-bridge-small.net" -o "$TMP/weighted" --class-weights 1,8,1 --check --json \
	>"$TMP/weighted.json" 2>"$TMP/weighted.err" && jq -e '.hard_findings == 0' "$TMP/weighted.json" >/dev/null &&
	ok "ff2 small with --class-weights 1,8,1: routed, no hard finding" ||
	not_ok "ff2 small with --class-weights 1,8,1" "$TMP/weighted.err"
# one VL allowed on a two-zone fabric: every LID up*/down* in one order
# (route_single.c), said on stderr; the check finds no credit loop, only
# the zone detours that order cannot avoid; no layer files
"$FFROUTE" route "$FAB/ff2-bridge-small.net" -o "$TMP/onevl" --vl-limit 1 >/dev/null 2>"$TMP/onevl.err"
rc=$?
"$FFROUTE" check "$TMP/onevl" --json --no-metrics >"$TMP/onevl.json" 2>/dev/null
if [ $rc -eq 0 ] && grep -q "every LID routed up\*/down\* in one order" "$TMP/onevl.err" &&
   [ ! -e "$TMP/onevl/ffroute.sl" ] &&
   jq -e '.findings.credit_loop.count == 0 and .findings.credit_loop_switch.count == 0 and
	  .findings.unreachable.count == 0 and .findings.loop.count == 0 and
	  .findings.cross_zone_link.count > 0' "$TMP/onevl.json" >/dev/null; then
	ok "ff2 with --vl-limit 1: one up*/down* order, no credit loop, zone detours reported"
else
	not_ok "ff2 with --vl-limit 1: exit $rc" "$TMP/onevl.err" "$TMP/onevl.json"
fi
# a fabric cut in two (both spines of a small 2-level tree dropped): refused
# by the classification, the reason said, nothing written
"$FFROUTE" fabric fattree --levels 2 --drop-switches 2 --seed 4 -o "$TMP/cut.net" 2>/dev/null
"$FFROUTE" route "$TMP/cut.net" -o "$TMP/cut" >/dev/null 2>"$TMP/cut.err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$TMP/cut/opensm-lfts.dump" ] &&
   grep -q "refused by the classification: zones 0 and 1 have no link path between them" "$TMP/cut.err"; then
	ok "a fabric cut in two: refused with the reason, nothing written"
else
	not_ok "a fabric cut in two: exit $rc" "$TMP/cut.err"
fi

# ---- 6. captured terminal logs: a prompt after the last record warns ------------
TINY=$top_srcdir/tests/data/cli/tiny.topo
{ cat "$TINY"; printf 'root@head:~# \n'; } >"$TMP/prompt.topo"
n=$(wc -l <"$TMP/prompt.topo")
if "$FFROUTE" info "$TMP/prompt.topo" >/dev/null 2>"$TMP/prompt.err" &&
   grep -q "prompt.topo:$n:1: warning: ignoring text after the last node record" "$TMP/prompt.err"; then
	ok "text after the last record: a warning at its line, exit 0"
else
	not_ok "text after the last record" "$TMP/prompt.err"
fi
{ printf 'root@head:~# ibnetdiscover\n'; cat "$TINY"; } >"$TMP/banner.topo"
"$FFROUTE" info "$TMP/banner.topo" >/dev/null 2>"$TMP/banner.err" &&
	grep -q "banner.topo:1:1: warning: ignoring text before the first node record" "$TMP/banner.err" &&
	ok "text before the first record: a warning" || not_ok "text before the first record" "$TMP/banner.err"
awk '/^(Switch|Ca)/ { rec = 1 } rec && !done && /^$/ { print "garbage in the middle"; done = 1 } { print }' \
	"$TINY" >"$TMP/middle.topo"
"$FFROUTE" info "$TMP/middle.topo" >/dev/null 2>"$TMP/middle.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'error: unknown record type "garbage"' "$TMP/middle.err" &&
	ok "unknown text between records: an error, exit 2" || not_ok "text in the middle (exit $rc)" "$TMP/middle.err"

# --no-lfts-dump: no opensm-lfts.dump (a stale one removed), the tables in
# ffroute.lftb, which check reads (the same report) and convert turns into
# the same dump
SMALL=$FAB/ff2-bridge-small.net
"$FFROUTE" route "$SMALL" -o "$TMP/nd1" -q 2>/dev/null &&
	"$FFROUTE" route "$SMALL" -o "$TMP/nd2" -q 2>/dev/null &&
	"$FFROUTE" route "$SMALL" -o "$TMP/nd2" -q --no-lfts-dump 2>"$TMP/nd.err" &&
	[ ! -e "$TMP/nd2/opensm-lfts.dump" ] && [ -s "$TMP/nd2/ffroute.lftb" ] &&
	ok "route --no-lfts-dump: ffroute.lftb, no opensm-lfts.dump (an earlier one removed)" ||
	not_ok "route --no-lfts-dump" "$TMP/nd.err"
"$FFROUTE" check --json "$TMP/nd1" 2>/dev/null | jq -S 'del(.input)' >"$TMP/nd1.json"
"$FFROUTE" check --json "$TMP/nd2" 2>"$TMP/nd.err" | jq -S 'del(.input)' >"$TMP/nd2.json"
[ -s "$TMP/nd2.json" ] && cmp -s "$TMP/nd1.json" "$TMP/nd2.json" &&
	jq -e '.hard_findings == 0' "$TMP/nd2.json" >/dev/null &&
	ok "check DIR reads fabric.topo + ffroute.lftb: the report of the dump's" ||
	not_ok "check of a --no-lfts-dump directory" "$TMP/nd.err"
"$FFROUTE" convert --lft "$TMP/nd2/ffroute.lftb" --to opensm-lfts -o "$TMP/nd2.dump" \
	"$TMP/nd2/fabric.topo" 2>"$TMP/nd.err" && cmp -s "$TMP/nd2.dump" "$TMP/nd1/opensm-lfts.dump" &&
	ok "convert --lft ffroute.lftb --to opensm-lfts: the dump route writes" ||
	not_ok "convert from ffroute.lftb" "$TMP/nd.err"
# --lfts-compact: rows without comments, read back as the full dump's tables
"$FFROUTE" route "$SMALL" -o "$TMP/cp" -q --lfts-compact 2>"$TMP/cp.err" &&
	rm "$TMP/cp/ffroute.lftb" &&
	! grep -q '#' "$TMP/cp/opensm-lfts.dump" && grep -q '^0x0001 [0-9][0-9][0-9]$' "$TMP/cp/opensm-lfts.dump" &&
	"$FFROUTE" check --json "$TMP/cp" 2>>"$TMP/cp.err" | jq -S 'del(.input)' >"$TMP/cp.json" &&
	cmp -s "$TMP/nd1.json" "$TMP/cp.json" &&
	"$FFROUTE" convert --lft "$TMP/cp/opensm-lfts.dump" --to opensm-lfts -o "$TMP/cp.dump" \
		"$TMP/cp/fabric.topo" 2>>"$TMP/cp.err" && cmp -s "$TMP/cp.dump" "$TMP/nd1/opensm-lfts.dump" &&
	ok "route --lfts-compact: rows alone; check's report and convert's dump are the full dump's" ||
	not_ok "route --lfts-compact" "$TMP/cp.err"
"$FFROUTE" route "$SMALL" -o "$TMP/cp2" -q --lfts-compact --no-lfts-dump 2>"$TMP/cp.err"
rc=$?
[ $rc -eq 2 ] && grep -q "lfts-compact" "$TMP/cp.err" && [ ! -e "$TMP/cp2" ] &&
	ok "--lfts-compact with --no-lfts-dump: usage error, exit 2" ||
	not_ok "--lfts-compact with --no-lfts-dump (exit $rc)" "$TMP/cp.err"
# a dump taken before the SM gave one CA its LID: routed, with a warning
# that names the count (its LID is not the one OpenSM will give it)
# (the CA's own port line and its switch's line to it both say lid 5)
sed -e 's/# lid 5 lmc 0 /# lid 0 lmc 0 /' -e 's/" lid 5 4xHDR$/" lid 0 4xHDR/' \
	"$top_srcdir/tests/data/foreign/superpod-small.topo" >"$TMP/nolid.topo"
"$FFROUTE" route "$TMP/nolid.topo" -o "$TMP/nolid" 2>"$TMP/nolid.err" &&
	grep -q "warning: 1 of 146 end ports have no LID (lid 0)" "$TMP/nolid.err" &&
	ok "a CA without a LID among CAs with LIDs: routed, with a warning" ||
	not_ok "a CA without a LID: no warning" "$TMP/nolid.err"
"$FFROUTE" route "$FAB/demo/mini.net" -o "$TMP/mini-nolid" 2>"$TMP/mini-nolid.err" &&
	! grep -q "no LID" "$TMP/mini-nolid.err" &&
	ok "a fabric with no LIDs at all (.net): no warning" ||
	not_ok "a .net fabric: a LID warning" "$TMP/mini-nolid.err"

tap_done

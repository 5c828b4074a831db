#!/bin/sh
# test_shift_refine.sh - the engine's shift refinement on degraded
# two-level zones (route_shift.c), offline, judged by `ffroute check`:
#   1. full frame with 5 % and 1 % of its switch links dropped (the
#      generator, seed 1): with the refinement every shift's most loaded
#      link is within 1 of its physical lower bound and the mean within
#      0.25 of the mean bound (issue 7's bar), no hard finding, no credit
#      loop; with --no-shift-refine the 5 % frame misses the mean bar, so
#      the refinement is what makes the difference; the effective
#      bisection bandwidth stays within 0.01; the most routes on one link
#      (link_routes_max) fall by more than a quarter; the double binary
#      tree shares no switch link beyond its endpoints' 4 flows;
#   2. degraded full ff2: zone shifts no worse than without, no hard finding;
#      SHARP nodes on every switch (their routes and spines' turns pass
#      through leaves; those entries stay): a degraded frame routes with
#      no credit loop, and a degraded multiframe's findings are exactly
#      those without the refinement (it once added a credit loop there);
#   3. healthy fabrics: the refinement does not run (identical tables);
#   4. same input twice: identical bytes.
# Needs jq.  Environment: FFROUTE, top_srcdir.  Exit 0 / 1 / 77.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }

FAB=$top_srcdir/fabrics
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-shift.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"

route() {	# route NAME FABRIC [OPTIONS...]: route and check into NAME/, NAME.json
	name=$1 fab=$2
	shift 2
	if "$FFROUTE" route "$fab" -o "$TMP/$name" "$@" 2>"$TMP/$name.err" &&
		"$FFROUTE" check "$TMP/$name" --json >"$TMP/$name.json" 2>>"$TMP/$name.err"; then
		ok "route + check $name $*"
	else
		not_ok "route + check $name $*" "$TMP/$name.err"
	fi
}

expect() {	# expect NAME JQ-EXPR
	if jq -e "$2" "$TMP/$1.json" >/dev/null 2>&1; then ok "$1: $2"; else
		not_ok "$1: $2 ($(jq -c '[.metrics.shift_max, .metrics.shift_lb_max, .metrics.shift_mean, .metrics.shift_lb_mean, .metrics.ebb]' "$TMP/$1.json"))"
	fi
}

# ---- 1. degraded full frames ----------------------------------------------------------
for pct in 5 1; do
	net=$TMP/frame$pct.net
	"$FFROUTE" fabric frame --size full --drop-links "0.0$pct" --seed 1 -o "$net" 2>/dev/null ||
		not_ok "generate frame $pct %"
	route "f$pct" "$net"
	route "f$pct-plain" "$net" --no-shift-refine
	if grep -q "shifts refined in 1 zone" "$TMP/f$pct.err"; then ok "f$pct: refined in 1 zone"; else
		not_ok "f$pct: not refined" "$TMP/f$pct.err"
	fi
	expect "f$pct" '.hard_findings == 0 and .findings.credit_loop.count == 0'
	expect "f$pct" '.metrics.shift_max <= .metrics.shift_lb_max + 1'
	expect "f$pct" '.metrics.shift_mean <= .metrics.shift_lb_mean + 0.25'
	plain_ebb=$(jq '.metrics.ebb' "$TMP/f$pct-plain.json")
	expect "f$pct" ".metrics.ebb >= $plain_ebb - 0.01"
	# route balance: the substitute spine's down-link no longer carries
	# the orphaned destination for every leaf (108 / 112 routes without)
	plain_links=$(jq '.metrics.link_routes_max' "$TMP/f$pct-plain.json")
	expect "f$pct" ".metrics.link_routes_max * 4 < $plain_links * 3"
	# and HFReduce's double binary tree at the 4 flows its endpoints force
	expect "f$pct" '.metrics.dbt_zone0_max_share == 4 and .metrics.dbt_zone0_bw >= 0.25'
done
expect f5-plain '.metrics.shift_mean > .metrics.shift_lb_mean + 0.25'

# ---- 2. degraded full ff2 -------------------------------------------------------------------
route ff2 "$FAB/ff2-bridge-full-degraded5.net"
route ff2-plain "$FAB/ff2-bridge-full-degraded5.net" --no-shift-refine
expect ff2 '.hard_findings == 0 and .findings.credit_loop.count == 0'
for z in 0 1; do
	pm=$(jq ".metrics.shift_zone${z}_mean" "$TMP/ff2-plain.json")
	px=$(jq ".metrics.shift_zone${z}_max" "$TMP/ff2-plain.json")
	expect ff2 ".metrics.shift_zone${z}_mean <= $pm and .metrics.shift_zone${z}_max <= $px"
done

for f in "frame --size full --drop-links 0.05 --seed 3 --sharp" \
	 "multiframe --size small --drop-links 0.05 --seed 3 --sharp"; do
	n=$(echo "$f" | cut -d' ' -f1)-sharp
	# shellcheck disable=SC2086 # the family's options are words
	"$FFROUTE" fabric $f -o "$TMP/$n.net" 2>/dev/null || not_ok "generate $f"
	for o in "" --no-shift-refine; do
		"$FFROUTE" route "$TMP/$n.net" -o "$TMP/$n$o" -q --no-verify 2>/dev/null
		"$FFROUTE" check "$TMP/$n$o" --json 2>/dev/null |
			jq -c '[.findings | to_entries[] | select(.value.hard and .value.count > 0) |
				{(.key): .value.count}]' >"$TMP/$n$o.hard"
	done
	if cmp -s "$TMP/$n.hard" "$TMP/$n--no-shift-refine.hard"; then
		ok "$n: hard findings as without the refinement: $(cat "$TMP/$n.hard")"
	else
		not_ok "$n: $(cat "$TMP/$n.hard") vs $(cat "$TMP/$n--no-shift-refine.hard") without"
	fi
done
if [ "$(cat "$TMP/frame-sharp.hard")" = "[]" ]; then ok "frame-sharp: no hard finding"; else
	not_ok "frame-sharp: $(cat "$TMP/frame-sharp.hard")"
fi

# ---- 3. healthy: not run --------------------------------------------------------------------
for f in frame-director-small ff2-bridge-small; do
	"$FFROUTE" route "$FAB/$f.net" -o "$TMP/h-$f" 2>"$TMP/h.err"
	"$FFROUTE" route "$FAB/$f.net" -o "$TMP/h-$f-plain" -q --no-shift-refine 2>/dev/null
	if grep -q "shifts refined in 0 zones" "$TMP/h.err" &&
		cmp -s "$TMP/h-$f/opensm-lfts.dump" "$TMP/h-$f-plain/opensm-lfts.dump"; then
		ok "$f (healthy): not refined, identical tables"
	else
		not_ok "$f (healthy): refined or tables differ" "$TMP/h.err"
	fi
done

# ---- 4. determinism -------------------------------------------------------------------------
"$FFROUTE" route "$TMP/frame5.net" -o "$TMP/f5-again" -q 2>/dev/null
if cmp -s "$TMP/f5/opensm-lfts.dump" "$TMP/f5-again/opensm-lfts.dump"; then
	ok "frame 5 % twice: identical LFT dumps"
else
	not_ok "frame 5 % twice: LFT dumps differ"
fi
tap_done

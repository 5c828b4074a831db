#!/bin/sh
# test_relabel.sh - the graph is the truth: the same fabric under other
# GUIDs, switch port numbers and file order (tests/lib/relabel.awk), as
# another generator or a real cluster would name it, routes as well.
#   1. 3-level rail fabric (small and full): shifts contention-free (max
#      and mean 1) and HFReduce's tree at 4 flows per channel, as with the
#      generator's names.  Before positions came from the graph
#      (class_pos.c, route_pos.c's columns) the relabelled copies had shift
#      max 2 / mean 1.98 / tree 6 (small) and 8 / 8 / 24 with 1,222 routes
#      on a link instead of ~230 (full): GUID order interleaved the pods;
#   2. full frame: shift max 2 (no D-mod-K routing does better on 792 HCAs
#      and 20 spines), the same HFReduce tree, and switch-LID routes spread
#      (class other at most 10 per link: 8 relabelled, 7 with the
#      generator's names, 16 when rotations started from the switch
#      ordinal, which GUIDs decide);
#   3. no hard finding and the same routes, links and LIDs count.
# Needs jq.  Environment: FFROUTE, top_srcdir.  Exit 0 / 1 / 77.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
. "$top_srcdir/tests/lib/tap.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-relabel.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP
FAB=$top_srcdir/fabrics

# relabel NAME: $TMP/NAME.net from fabrics/NAME.net; route + check both
relabel() {
	awk -f "$top_srcdir/tests/lib/relabel.awk" "$FAB/$1.net" "$FAB/$1.net" >"$TMP/$1.net"
	for v in orig relabelled; do
		net=$FAB/$1.net
		[ $v = relabelled ] && net=$TMP/$1.net
		if "$FFROUTE" route "$net" -o "$TMP/$1.$v" --check --json -q >"$TMP/$1.$v.json" \
			2>"$TMP/$1.$v.err"; then
			ok "route + check $1 ($v)"
		else
			not_ok "route + check $1 ($v)" "$TMP/$1.$v.err"
		fi
	done
	if cmp -s "$FAB/$1.net" "$TMP/$1.net"; then not_ok "$1: relabel.awk changed nothing"; fi
	a=$(jq -c '[.metrics.routes_checked, .fabric.links, .fabric.lids, .hard_findings]' "$TMP/$1.orig.json")
	b=$(jq -c '[.metrics.routes_checked, .fabric.links, .fabric.lids, .hard_findings]' "$TMP/$1.relabelled.json")
	[ "$a" = "$b" ] && ok "$1: same routes, links, no hard finding ($b)" ||
		not_ok "$1: routes/links/hard differ: $a vs $b"
}

# expect NAME JQ: on the relabelled copy's check
expect() {
	if jq -e "$2" "$TMP/$1.relabelled.json" >/dev/null 2>&1; then ok "$1 relabelled: $2"; else
		not_ok "$1 relabelled: $2 (got $(jq -c '.metrics | [.shift_max, .shift_mean,
			.dbt_zone0_max_share, .link_routes_max, .link_routes_other_max]' \
			"$TMP/$1.relabelled.json"))"
	fi
}

for n in rail3-small rail3-full; do
	relabel $n
	expect $n '.hard_findings == 0 and .metrics.shift_max == 1 and .metrics.shift_mean == 1'
	expect $n '.metrics.dbt_zone0_max_share == 4'
done
relabel frame-director-full
expect frame-director-full '.metrics.shift_max == 2 and .metrics.dbt_zone0_max_share == 4'
expect frame-director-full '.metrics.link_routes_other_max <= 10'
tap_done

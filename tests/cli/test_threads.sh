#!/bin/sh
# test_threads.sh - one thread or two give the same bytes.
#   1. `ffroute route --threads 1` and `--threads 2` (and the default)
#      write identical LFT, SL and SL2VL dumps: a frame, ff2 (zones,
#      storage, VL layers), a degraded ff2 (shift refinement), rails, a
#      multiframe, class weights (one thread by design), hetero fabrics
#      with SHARP nodes in their low-speed subtrees, and two degraded
#      3-level trees that need the rooted layer (the two-thread pass is
#      dropped and routed again on one thread: route_all.c);
#   2. `ffroute check --threads 1` and `--threads 2` print the same JSON
#      report: a clean routing (the second thread's credit-loop edges are
#      kept), the same LFTs judged without SLs (credit loops on VL 0), and
#      LFTs with an entry removed, and a routing loop whose channels would
#      form a credit loop (some routes invalid: the edges are collected
#      again from the valid routes only: chk_find.c).
# Needs jq.  Environment: FFROUTE, top_srcdir.  Exit 0 / 1 / 77.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }

FAB=$top_srcdir/fabrics
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-threads.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"

# same NAME FABRIC [OPTIONS...]: route with 1, 2 and the default threads; compare
same() {
	name=$1 fab=$2
	shift 2
	for th in 1 2 default; do
		opt="--threads $th"
		[ $th = default ] && opt=
		# shellcheck disable=SC2086
		if ! "$FFROUTE" route "$fab" -o "$TMP/$name.$th" $opt "$@" 2>"$TMP/$name.$th.err"; then
			not_ok "$name: route $opt $*" "$TMP/$name.$th.err"
			return
		fi
	done
	for f in opensm-lfts.dump ffroute.sl opensm-sl2vl.dump; do
		[ -f "$TMP/$name.1/$f" ] || [ -f "$TMP/$name.2/$f" ] || continue
		if cmp -s "$TMP/$name.1/$f" "$TMP/$name.2/$f" &&
			cmp -s "$TMP/$name.1/$f" "$TMP/$name.default/$f"; then
			ok "$name: $f identical with 1, 2 and default threads"
		else
			not_ok "$name: $f differs between thread counts"
		fi
	done
}

# ---- 1. route --------------------------------------------------------------------------
same frame "$FAB/frame-director-small.net"
same ff2 "$FAB/ff2-bridge-small.net"
same ff2-d5 "$FAB/ff2-bridge-full-degraded5.net"
same rail2 "$FAB/rail2-small.net"
same multiframe "$FAB/multiframe-director-small.net"
same ff2-weights "$FAB/ff2-bridge-small.net" --class-weights 1,8,1
# low-speed subtrees with SHARP nodes (class other) in them: entry loads per class
"$FFROUTE" fabric hetero --sharp -o "$TMP/hetero.net" 2>/dev/null &&
	same hetero-sharp "$TMP/hetero.net"
same superpod-hetero "$top_srcdir/tests/data/foreign/superpod-hetero.topo"
# degraded 3-level trees whose CAs need the rooted layer (test_route.sh has them too)
"$FFROUTE" fabric fattree --levels 3 --drop-links 0.05 --seed 2 -o "$TMP/ft3-s2.net" 2>/dev/null ||
	not_ok "generate fattree3 seed 2"
"$FFROUTE" fabric fattree --levels 3 --drop-links 0.05 --seed 5 --sharp \
	-o "$TMP/ft3-s5.net" 2>/dev/null || not_ok "generate sharp fattree3 seed 5"
for n in ft3-s2 ft3-s5; do
	same "$n" "$TMP/$n.net"
	rooted=$(sed -n 's/.* \([0-9][0-9]*\) LIDs rooted.*/\1/p' "$TMP/$n.2.err")
	if [ "${rooted:-0}" -gt 0 ]; then ok "$n: the rooted layer is used ($rooted LIDs)"; else
		not_ok "$n: the rooted layer is not used: the one-thread retry is not exercised" \
			"$TMP/$n.2.err"
	fi
done

# ---- 2. check --------------------------------------------------------------------------
# check_same NAME ARGS...: the JSON reports with 1 and 2 threads are identical
check_same() {
	name=$1
	shift
	"$FFROUTE" check "$@" --threads 1 --json >"$TMP/$name.c1.json" 2>"$TMP/$name.c1.err"
	rc1=$?
	"$FFROUTE" check "$@" --threads 2 --json >"$TMP/$name.c2.json" 2>"$TMP/$name.c2.err"
	rc2=$?
	if [ $rc1 = $rc2 ] && [ $rc1 -le 1 ] && cmp -s "$TMP/$name.c1.json" "$TMP/$name.c2.json"; then
		ok "$name: check reports identical with 1 and 2 threads (exit $rc1)"
	else
		not_ok "$name: check differs between thread counts (exit $rc1 / $rc2)" "$TMP/$name.c2.err"
	fi
}

expect() {	# expect NAME JQ-EXPR: on the two-thread report
	if jq -e "$2" "$TMP/$1.c2.json" >/dev/null 2>&1; then ok "$1: $2"; else
		not_ok "$1: $2"
	fi
}

d=$TMP/ff2.1
check_same clean "$d"
expect clean '.hard_findings == 0 and .findings.credit_loop.count == 0'

# the same tables without SLs: every channel on VL 0, cross-zone credit loops
check_same vl0 --topo "$d/fabric.topo" --lft "$d/opensm-lfts.dump"
expect vl0 '.findings.credit_loop.count >= 1'

# one switch loses its entry for one CA LID: unreachable routes, edges re-collected
lid=$(awk '/^0x/ && /Channel Adapter/ { print $1; exit }' "$d/opensm-lfts.dump")
awk -v lid="$lid" '$1 == lid && !done { done = 1; next } { print }' "$d/opensm-lfts.dump" \
	>"$TMP/broken.dump"
if [ -n "$lid" ] && ! cmp -s "$d/opensm-lfts.dump" "$TMP/broken.dump"; then
	ok "removed switch 1's entry for LID $lid"
else
	not_ok "could not remove an entry (LID '$lid')"
fi
check_same broken --topo "$d/fabric.topo" --lft "$TMP/broken.dump"
expect broken '.findings.unreachable.count >= 1 and .findings.credit_loop.count >= 1'

# three switches (tests/data/lft/3sw.*): leaf1 and spine1 send gpu03's LID to each
# other, a routing loop; its channels would form a credit loop if the edges of
# invalid routes were kept (as the second thread first collects them)
L=$top_srcdir/tests/data/lft
awk '/^Unicast/ { sw = $0 ~ /Lid 1 / ? 1 : $0 ~ /Lid 3 / ? 3 : 0 }
     $1 == "0x0006" && (sw == 1 || sw == 3) { $2 = "006" } { print }' "$L/3sw.lfts" \
	>"$TMP/loop.lfts"
check_same loop --topo "$L/3sw.lst" --lft "$TMP/loop.lfts"
expect loop '.findings.loop.count == 2 and .findings.credit_loop.count == 0'

tap_done

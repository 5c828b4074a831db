#!/bin/sh
# test_tree_digits.sh - the engine's HFReduce tree digits (route_dbt.c),
# offline, judged by hfreduce-check's path mode and `ffroute check`:
#   1. full Fire-Flyer 2 (15 compute HCAs per leaf, 20 spines): with the
#      digits, the double binary tree over each zone's compute HCAs runs
#      every transfer at its endpoint limit (--strict exits 0) for several
#      sizes and chunks; with --no-tree-digits (rank mod m) it does not
#      (--strict exits 1), so the search is what makes the difference;
#   2. the digits keep what D-mod-K gives: shift permutations per zone
#      contention-free (shift_zone<k>_max 1), per-class up-link spread <= 1,
#      no hard finding;
#   3. the small ff2 likewise, with tree_digits (default) vs off;
#   4. the full frame (W = m = 20 and 792 compute HCAs: no multiple of
#      20, so rank mod m already loads some up-link twice in most shifts):
#      swaps inside a leaf free the tree (--strict 0, and 1 without);
#      shift max stays 2, the shift mean moves by less than 0.01 and the
#      per-class spreads stay; the full multiframe (W = m, 800 per zone)
#      keeps rank mod m: byte-identical tables with and without the option;
#   4b. W = m dividing n (another generator's Fire-Flyer 2, 10 HCAs under
#      10 spines per leaf): the tree is freed at a shifts' mean <= 1.25;
#      where that costs more (4 under 4), rank mod m stays;
#   5. routing twice gives identical bytes.
# Needs jq.  Environment: FFROUTE, top_srcdir, top_builddir.  Exit 0 / 1 / 77.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
: "${top_builddir:?top_builddir not set}"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
HFR=$top_builddir/contrib/hfreduce/hfreduce-check
[ -x "$HFR" ] || { echo "SKIP: hfreduce-check not built"; exit 77; }

FAB=$top_srcdir/fabrics
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-tree.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"

route() {	# route NAME FABRIC [OPTIONS...]
	name=$1 fab=$2
	shift 2
	if "$FFROUTE" route "$fab" -o "$TMP/$name" -q "$@" 2>"$TMP/$name.err"; then
		ok "route $name $*"
	else
		not_ok "route $name $*" "$TMP/$name.err"
	fi
}

# strict DIR WANT JOB SIZE CHUNK: hfreduce-check --strict exits WANT
strict() {
	"$HFR" --paths "$TMP/$1" --job "$3" --size "$4" --chunk "$5" --no-ring --summary \
		--strict >"$TMP/h.txt" 2>&1
	rc=$?
	if [ "$rc" -eq "$2" ]; then
		ok "$1 $3 $4/$5: --strict exit $rc ($(grep -o '([0-9.]* %)' "$TMP/h.txt" | head -1))"
	else
		not_ok "$1 $3 $4/$5: --strict exit $rc, want $2" "$TMP/h.txt"
	fi
}

same_tables() {	# same_tables NAME WHAT: NAME and NAME-plain hold the same tables
	if cmp -s "$TMP/$1/opensm-lfts.dump" "$TMP/$1-plain/opensm-lfts.dump"; then
		ok "$2: rank mod m kept (identical tables with and without tree digits)"
	else
		not_ok "$2: tables differ with tree digits"
	fi
}

expect() {	# expect DIR JQ-EXPR
	if jq -e "$2" "$TMP/$1.json" >/dev/null 2>&1; then ok "$1: $2"; else
		not_ok "$1: $2" "$TMP/$1.json"
	fi
}

# ---- 1, 2. full ff2 ------------------------------------------------------------
route ff2 "$FAB/ff2-bridge-full.net"
route ff2-plain "$FAB/ff2-bridge-full.net" --no-tree-digits
for job in zone:0 zone:1; do
	strict ff2 0 $job 256M 4M
	strict ff2-plain 1 $job 256M 4M
done
strict ff2 0 zone:0 32M 1M
strict ff2 0 zone:0 1G 16M
"$FFROUTE" check "$TMP/ff2" --json >"$TMP/ff2.json" 2>"$TMP/ff2.cerr"
expect ff2 '.metrics.shift_zone0_max == 1 and .metrics.shift_zone1_max == 1'
expect ff2 '.metrics.uplink_spread_compute <= 1 and .metrics.uplink_spread_storage <= 1 and .metrics.uplink_spread_other <= 1'
expect ff2 '.hard_findings == 0'

# ---- 3. small ff2 -----------------------------------------------------------------
route ff2s "$FAB/ff2-bridge-small.net"
route ff2s-plain "$FAB/ff2-bridge-small.net" --no-tree-digits
strict ff2s 0 zone:0 256M 4M
strict ff2s-plain 1 zone:0 256M 4M

# ---- 4. W = m: the full frame searches inside leaves, the multiframe keeps rank mod m --
route frame "$FAB/frame-director-full.net"
route frame-plain "$FAB/frame-director-full.net" --no-tree-digits
strict frame 0 zone:0 256M 4M
strict frame-plain 1 zone:0 256M 4M
for x in frame frame-plain; do
	"$FFROUTE" check "$TMP/$x" --json >"$TMP/$x.json" 2>"$TMP/$x.cerr"
done
plain_mean=$(jq '.metrics.shift_mean' "$TMP/frame-plain.json")
expect frame-plain '.metrics.shift_max == 2 and .metrics.shift_mean > 1.9'
expect frame ".metrics.shift_max == 2 and .metrics.shift_mean < $plain_mean + 0.01"
expect frame '.metrics.uplink_spread_compute <= 1 and .metrics.downlink_spread_compute == 0'
expect frame '.hard_findings == 0'
route mf "$FAB/multiframe-director-full.net"
route mf-plain "$FAB/multiframe-director-full.net" --no-tree-digits
same_tables mf "multiframe (W = m, m | n)"

# ---- 4b. W = m dividing n, another generator's Fire-Flyer 2 (ff2-cross: 10 HCAs
# under 10 spines on every compute leaf): rank mod m is free for shifts but
# not for the tree; windows of m - 1 free it at a shifts' mean within 1.25
# of 1.  ff2-leaf2leaf-small (4 under 4): the tree would cost 1.35, so
# rank mod m stays (the same tables as without the option).
FOR=$top_srcdir/tests/data/foreign
route cross "$FOR/ff2-cross.topo"
route cross-plain "$FOR/ff2-cross.topo" --no-tree-digits
for job in zone:0 zone:1; do
	strict cross 0 $job 256M 4M
	strict cross-plain 1 $job 256M 4M
done
"$FFROUTE" check "$TMP/cross" --json >"$TMP/cross.json" 2>"$TMP/cross.cerr"
expect cross '.metrics.shift_zone0_max == 2 and .metrics.shift_zone0_mean <= 1.25 and .metrics.shift_zone1_mean <= 1.25'
expect cross '.hard_findings == 0'
route l2ls "$FOR/ff2-leaf2leaf-small.topo"
route l2ls-plain "$FOR/ff2-leaf2leaf-small.topo" --no-tree-digits
same_tables l2ls "ff2-leaf2leaf-small (W = m = 4, m | n)"

# ---- 5. determinism ----------------------------------------------------------------------
route ff2-again "$FAB/ff2-bridge-full.net"
for f in opensm-lfts.dump ffroute.sl opensm-sl2vl.dump; do
	if cmp -s "$TMP/ff2/$f" "$TMP/ff2-again/$f"; then ok "ff2 twice: $f identical"; else
		not_ok "ff2 twice: $f differs"
	fi
done
tap_done

#!/bin/sh
# bench/hetero.sh [BUILDDIR] - link rates (issue 28): OpenSM's engines and
# ffroute side by side on the generator's heterogeneous fabrics, under
# ibsim.  Per fabric and engine: one OpenSM 3.3.23 sweep (minhop, updn,
# ftree, dfsssp, nue, and ffroute through the plugin), the tables read back
# with SMPs (dump_lfts), and `ffroute check` of them: endpoint pairs routed
# slower than a path as short runs (rate_slowed), pairs through a
# low-speed subtree holding neither end (slow_transit), full-rate pairs
# whose PathRecord rate (the path's slowest link, as OpenSM's SA computes
# it) is the full rate, the lowest such rate, the spread of the subtrees'
# traffic over their up-links by capacity, the shift permutations' busiest
# channel by rate (shift_rated_*: each flow asks its path's least rate, a
# channel carries the asks over its own rate; mean and max over shifts)
# and among the full-rate hosts (shift_fast_mean).  (Credit loops need each
# engine's SLs, which dfsssp and nue keep in the SA: not judged here.)  A
# markdown table
# on stdout (bench/hetero.md keeps the last one).  ENGINES overrides the
# engine list.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
ff=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
engines=${ENGINES:-"minhop updn ftree dfsssp nue ffroute"}
log=$SIM_DIR/opensm.log
fail() { echo "hetero: $*" >&2; exit 1; }

echo "| fabric | engine | routed by | rate_slowed pairs | slow_transit pairs | full-rate pairs at 200 Gb/s | lowest full-rate pair | pairs with a slow end at its rate | subtree up-link max/mean | shift by rate mean / max | fast shift mean |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for spec in "small-mixed:--style mixed --trained-down 2 --seed 3" \
	"full-mixed:--size full --style mixed --trained-down 6 --slow-hcas 4" \
	"full-below-spine:--size full --style below-spine --sub-uplinks 3 --sub-rate 56" \
	"full-below-leaf:--size full --style below-leaf --sub-uplinks 4 --sub-rate 40"; do
	name=${spec%%:*}
	# shellcheck disable=SC2086
	"$ff" fabric hetero ${spec#*:} -o "$SIM_DIR/$name.net" 2>/dev/null || fail "generate $name"
	for eng in $engines; do
		sim_start "$SIM_DIR/$name.net" || fail "ibsim did not start on $name"
		sim_bench_conf "$eng"
		SIM_OSM_TIMEOUT=1800
		if ! sim_opensm_bg; then
			echo "| $name | $eng | (no SUBNET UP) | | | | | | | | |"
			sim_opensm_stop
			sim_stop
			continue
		fi
		# OpenSM names the engine whose tables it installed (a fallback's too)
		by=$(grep -o "[a-zA-Z0-9_-]* tables configured on all switches" "$log" |
			tail -1 | awk '{ print $1 }')
		sim_run dump_lfts >"$SIM_DIR/t.lfts" 2>/dev/null || fail "dump_lfts ($eng, $name)"
		sim_opensm_stop
		sim_stop
		"$ff" check --topo "$SIM_DIR/dump/opensm-subnet.lst" --lft "$SIM_DIR/t.lfts" --json \
			>"$SIM_DIR/c.json" 2>/dev/null || true
		jq -r --arg f "$name" --arg e "$eng" --arg by "$by" '"| \($f) | \($e) | \($by) | \(.findings.rate_slowed.count) | \(.findings.slow_transit.count) | \(.metrics.rate_pairs_fast_fast_at_rate) of \(.metrics.rate_pairs_fast_fast) | \(.metrics.rate_fast_fast_min_gbps) Gb/s | \(.metrics.rate_pairs_slow_at_rate) of \(.metrics.rate_pairs_slow) | \(.metrics.subtree_uplink_max_over_mean // "-" | if type == "number" then (. * 1000 | round / 1000) else . end) | \(.metrics.shift_rated_mean * 1000 | round / 1000) / \(.metrics.shift_rated_max * 1000 | round / 1000) | \(.metrics.shift_fast_mean * 1000 | round / 1000) |"' \
			"$SIM_DIR/c.json"
	done
done

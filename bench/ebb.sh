#!/bin/sh
# bench/ebb.sh [BUILDDIR] - how much of an EBB difference is sampling: the
# checker's EBB is a mean over seeded random bisections (ffroute(1), ebb),
# so at 32 (the default until 2026-11-24) two routings 0.0004 apart may
# differ by the draw alone.  On the full frame, one OpenSM sweep under ibsim per engine
# (minhop, dfsssp, ffroute), then `ffroute check --bisections 32` and
# `--bisections 4096` (bench/run's; about check's default on this fabric), each with --seed N for
# N = 1..16, the same bisections for every engine: each engine's mean and,
# paired by seed, ffroute minus each built-in engine.  Writes bench/ebb.md
# and the README's part between the ebb markers.  About a minute on 2 cores.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
ff=$build/tools/ffroute
out=$top/bench/ebb.md
seeds=16
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
net=$top/fabrics/frame-director-full.net
for eng in minhop dfsssp ffroute; do
	sim_bench_sweep "$net" "$eng"
	[ -s "$SIM_DIR/dump/opensm-lfts.dump" ] || { echo "bench/ebb.sh: $eng dumped no LFTs" >&2; exit 1; }
	mv "$SIM_DIR/dump" "$SIM_DIR/$eng"
	for nb in 32 4096; do
		n=1
		while [ $n -le $seeds ]; do
			"$ff" check --json --seed $n --bisections $nb "$SIM_DIR/$eng" |
				jq -r --arg n $n '"\($n) \(.metrics.ebb)"'
			n=$((n + 1))
		done >"$SIM_DIR/$eng.$nb"
	done
done
# mean and its standard error; for the pairs, the per-seed difference's
stats='{ d = $2; s += d; q += d * d; n++; up += d > 0; down += d < 0 }
	function se() { return n > 1 ? sqrt((q - s * s / n) / (n - 1) / n) : 0 }'
{
	echo "| bisections per check | routing | EBB, seed 1 | EBB, mean of $seeds seeds | standard error | ffroute minus it, paired by seed | ffroute higher / lower (seeds) |"
	echo "|---:|---|---:|---:|---:|---|---|"
	for nb in 32 4096; do
		for eng in minhop dfsssp ffroute; do
			first=$(awk 'NR == 1 { print $2 }' "$SIM_DIR/$eng.$nb")
			awk "$stats"' END { printf "%.5f | %.5f |", s / n, se() }' "$SIM_DIR/$eng.$nb" >"$SIM_DIR/m"
			if [ $eng = ffroute ]; then
				pair="- | -"
			else
				pair=$(paste -d ' ' "$SIM_DIR/ffroute.$nb" "$SIM_DIR/$eng.$nb" |
					awk '{ print $1, $2 - $4 }' |
					awk "$stats"' END { printf "%+.5f (standard error %.5f) | %d / %d", s / n, se(), up, down }')
			fi
			echo "| $nb | $eng | $first | $(cat "$SIM_DIR/m") $pair |"
		done
	done
} >"$SIM_DIR/table"
{
	echo "# EBB sampling on the full frame (bench/ebb.sh)"
	echo
	echo "Date: $(date -u +%Y-%m-%d). Machine: $(nproc) cores, $(. /etc/os-release; echo "$PRETTY_NAME"). Fabric: fabrics/frame-director-full.net, one OpenSM sweep per engine under ibsim, \`ffroute check --seed N --bisections B\` for N = 1..$seeds and B = 32 (check's default until 2026-11-24) and 4,096 (bench/run; check's default here is 4,041)."
	echo
	cat "$SIM_DIR/table"
} >"$out"
cat "$out"
sh "$top/bench/splice.sh" ebb "$SIM_DIR/table" "$top/README.md"

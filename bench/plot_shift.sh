#!/bin/sh
# bench/plot_shift.sh RESULTS.json OUT.svg - shift load per engine: for every
# healthy fabric of a bench/run results file (full size, and the foreign
# ones; a --quick run's small ones), each engine's shift mean over its lower bound (1 = every shift's
# busiest link at the bound), from the LFTs OpenSM installed.  An engine
# that fell back (updn, ftree on two zones) has no bar.  bench/run calls it.
set -eu
json=$1 out=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
engines=$(jq -r '[.runs[].engine] | unique | .[]' "$json" | sort -u)
# the full fabrics and the foreign ones; a --quick run has only small ones: those
fabrics=$(jq -r '[.runs[] | select(.drop == 0 and .shift_lb_mean != null)] as $r |
	($r | map(select(.size == "full" or .family == "foreign"))) as $f |
	(if ($f | length) > 0 then $f else $r end) | .[].fabric' "$json" | awk '!seen[$0]++')
if [ -z "$fabrics" ]; then
	echo "bench/plot_shift.sh: no healthy fabric with shifts in $json: no plot" >&2
	exit 0
fi
for f in $fabrics; do
	printf '%s' "$f" | sed 's/^foreign-//'
	for e in minhop updn ftree dfsssp nue ffroute; do
		echo "$engines" | grep -qx "$e" || continue
		v=$(jq -r --arg f "$f" --arg e "$e" '.runs[] | select(.fabric == $f and .engine == $e and
			.drop == 0 and .status == "ran" and .shift_lb_mean > 0) |
			(.shift_mean / .shift_lb_mean)' "$json" | head -1)
		printf ' %s' "${v:-?}"
	done
	echo
done >"$tmp/data"
cols=$(for e in minhop updn ftree dfsssp nue ffroute; do echo "$engines" | grep -qx "$e" && echo "$e"; done)
{
	echo "set terminal svg size 1000,480 dynamic font 'sans,11'"
	echo "set output '$out'"
	echo "set title 'Shift permutations: mean busiest link over its lower bound (healthy fabrics; 1 = at the bound)'"
	echo "set ylabel 'shift mean / lower bound'; set logscale y; set yrange [0.9:*]"
	echo "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
	echo "set datafile missing '?'; set xtics rotate by -30; set key top left"
	printf 'plot '
	i=2 sep=
	for e in $cols; do
		printf "%s'%s' using %d:xtic(1) title '%s'" "$sep" "$tmp/data" "$i" "$e"
		i=$((i + 1)) sep=", "
	done
	echo
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"

#!/bin/sh
# bench/hfreduce.sh [BUILDDIR] - hfreduce-check's prediction for the zone-0
# job (all compute HCAs of the first zone, 256 MiB, 4 MiB chunks) of the
# full Fire-Flyer 2 fabric (600 ranks) and of the full frame (792 ranks)
# under the routing of OpenSM's minhop and updn and of ffroute, each one
# OpenSM sweep under ibsim; plus path mode's own run time.  Writes bench/hfreduce.md and
# the README's table between the hfreduce markers.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
hfr=$build/contrib/hfreduce/hfreduce-check
out=$top/bench/hfreduce.md
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
: >"$SIM_DIR/rows"
{
	echo "# hfreduce-check on the full Fire-Flyer 2 fabric and the full frame (bench/hfreduce.sh)"
	echo
	echo "Date: $(date -u +%Y-%m-%d). Machine: $(nproc) cores, $(. /etc/os-release; echo "$PRETTY_NAME")."
	echo "Job: the compute HCAs of zone 0 (600 on ff2, 792 on the frame); 256 MiB float32 in 4 MiB chunks; one OpenSM sweep per engine under ibsim; \`hfreduce-check --paths DUMPDIR --summary\`."
	echo
	for fab in ff2-bridge-full frame-director-full; do
	net=$top/fabrics/$fab.net
	for eng in minhop updn ffroute; do
		rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
		sim_start "$net" >/dev/null
		sim_engine_conf "$eng"
		sim_opensm >/dev/null 2>&1 || true
		sim_stop
		used=$(grep -o -E "[a-z0-9]+ tables configured on all switches" "$SIM_DIR/opensm.log" | tail -1 | cut -d' ' -f1)
		echo "## $fab, $eng (tables configured by ${used:-nobody})"
		echo
		s=$(date +%s%N)
		"$hfr" --paths "$SIM_DIR/dump" --summary >"$SIM_DIR/h.txt" 2>&1 || true
		e=$(date +%s%N)
		echo '```'
		cat "$SIM_DIR/h.txt"
		echo '```'
		echo
		awk -v f="$fab" -v e="$eng" -v u="${used:-none}" '
			function num(l, k, a) { split(l, a, k); split(a[2], a, " "); return a[1] }
			/^  predicted:/ { p = num($0, "predicted: "); i = num($0, "ideal "); w = num($0, "worst sharing "); sub(/;/, "", w); sl = num($0, "routing ") + 0 }
			/^  with storage incast/ { ip = num($0, "zone\\): "); ii = num($0, "ideal ") }
			/^ring/ { r = num($0, "comparison\\): ") }
			END { inc = ip == "" ? "- (no storage)" : ip " (ideal " ii ")"
			      printf "| %s | %s | %s | %s | %s | %.1f %% | %s | %s | %s | %s |\n", f, e, u, p, i, 100 * p / i, w, sl, inc, r }' \
			"$SIM_DIR/h.txt" >>"$SIM_DIR/rows"
		echo "Path mode run time (read dumps, tree steps with and without incast, ring steps): $(( (e - s) / 1000000 )) ms."
		echo
	done
	done
} >"$out"
cat "$out"
{
	echo "| fabric | routing | configured by | DBT predicted GB/s | endpoint-limited GB/s | ratio | worst sharing | transfers slowed | with storage incast GB/s | ring GB/s |"
	echo "|---|---|---|---:|---:|---:|---:|---:|---|---:|"
	cat "$SIM_DIR/rows"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) cores; path mode takes $(grep -o 'run time[^:]*: [0-9]* ms' "$out" | sed 's/.*: //' | sort -n | tail -1) at most for these jobs (bar: < 2 s for 600 hosts)."
} >"$SIM_DIR/readme.part"
sh "$top/bench/splice.sh" hfreduce "$SIM_DIR/readme.part" "$top/README.md"

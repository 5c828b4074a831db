#!/bin/sh
# bench/soak.sh [BUILDDIR] [CYCLES] [NETFILE...] - one long-running OpenSM
# per fabric under ibsim, sweeping every second, through CYCLES link flaps
# (a switch-to-switch link of the first switch down, then up, going round
# its links).  Every flap must be followed by a heavy sweep that configures
# the tables again.  Runs ffroute (the plugin) and, for comparison, minhop
# alone; ENGINES="ffroute minhop" by default.  Samples OpenSM's resident
# memory after every sweep and prints a Markdown table: fabric, engine,
# sweeps, RSS after the first sweep, after the last, the highest, the
# growth from the 10th sweep on (after OpenSM's caches warm up), mean
# seconds of an ffroute pass, ffroute errors logged.  Default: 100 flaps on
# the generated full Fire-Flyer 2 fabric.  Leaks are checked under valgrind
# by tests/integration/test_plugin_resweep.sh (VALGRIND=1, in .ci/run).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
cycles=${2:-100}
[ $# -gt 2 ] && shift 2 || set --
ff=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_require
sim_workdir
sim_plugin_env "$build/opensm/.libs"
if [ $# -eq 0 ]; then
	"$ff" fabric ff2 --size full -o "$SIM_DIR/ff2-full.net" 2>/dev/null
	set -- "$SIM_DIR/ff2-full.net"
fi
log=$SIM_DIR/opensm.log
fail() { echo "soak: $*" >&2; exit 1; }

# "id port" of the first switch's switch-to-switch links, one per line
switch_links() {
	awk '/^Switch/ { n++; if (n == 1) { id = $3; on = 1 } else on = 0; next }
	     on && /^\[/ && $2 ~ /^"S-/ { p = $1; gsub(/[^0-9]/, "", p); print id, p }' "$1"
}
sweeps() { grep -c "tables configured on all switches" "$log" || true; }
wait_sweep() {	# wait_sweep N: until N sweeps configured the tables
	i=0
	while [ "$(sweeps)" -lt "$1" ]; do
		i=$((i + 1)); [ $i -gt 600 ] && fail "no sweep $1 after a flap"; sleep 0.1
	done
}

soak_one() {	# soak_one NETFILE ENGINE
	net=$1 eng=$2
	links=$(switch_links "$net")
	[ -n "$links" ] || fail "$net: the first switch has no switch-to-switch link"
	nlinks=$(printf '%s\n' "$links" | wc -l)
	sim_start_console "$net" || fail "ibsim did not start on $net"
	sim_engine_conf "$eng"
	[ "$eng" = ffroute ] || SIM_OSM_CONF="$SIM_OSM_CONF
qos TRUE"
	SIM_OSM_CONF="$SIM_OSM_CONF
sweep_interval 1"
	SIM_OSM_TIMEOUT=$((cycles * 30 + 120))
	sim_opensm_bg || fail "OpenSM did not bring the subnet up"
	osm=$(pgrep -P "$OSM_PID" opensm || true)
	[ -n "$osm" ] || fail "no opensm process under $OSM_PID"
	wait_sweep 1
	sleep 1
	first=$(awk '/^VmRSS/ { print $2 }' "/proc/$osm/status")
	max=$first warm=$first n=1 c=0
	while [ $c -lt "$cycles" ]; do
		line=$(printf '%s\n' "$links" | sed -n "$(((c / 2) % nlinks + 1))p")
		if [ $((c % 2)) -eq 0 ]; then
			sim_console "Unlink ${line% *}[${line#* }]"
		else
			sim_console "ReLink ${line% *}[${line#* }]"
		fi
		n=$((n + 1))
		wait_sweep $n
		sleep 0.5
		r=$(awk '/^VmRSS/ { print $2 }' "/proc/$osm/status")
		[ "$r" -gt "$max" ] && max=$r
		[ $n -eq 10 ] && warm=$r
		c=$((c + 1))
	done
	last=$(awk '/^VmRSS/ { print $2 }' "/proc/$osm/status")
	secs=$(grep -o -E "ffroute: pass [0-9]+: .* [0-9.]+ s" "$log" | grep -o -E "[0-9.]+ s$" |
		awk '{ s += $1; k++ } END { if (k) printf "%.3f", s / k; else printf "-" }')
	errs=$(grep -c "ERR RE" "$log" || true)
	sim_opensm_stop
	echo quit >&3
	exec 3>&-
	wait "$SIM_PID" 2>/dev/null || true
	SIM_PID=
	echo "| $(basename "$net" .net) | $eng | $(sweeps) | $((first / 1024)) MiB | $((last / 1024)) MiB | $((max / 1024)) MiB | $((last - warm)) KiB | $secs | $errs |"
}

echo "| fabric | engine | sweeps | RSS first | RSS last | RSS max | growth from sweep 10 | s per ffroute pass | ffroute errors |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for net in "$@"; do
	for eng in ${ENGINES:-ffroute minhop}; do
		soak_one "$net" "$eng"
	done
done

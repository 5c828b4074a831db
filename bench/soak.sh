#!/bin/sh
# bench/soak.sh [BUILDDIR] [EVENTS] [NETFILE...] - one long-running OpenSM
# per fabric under ibsim (its own IBSIM_SOCKNAME), sweeping every second,
# through EVENTS random faults and repairs drawn with SEED (default 1):
# a host's cable pulled (its leaf port), a switch-to-switch link down, a
# whole switch down (at most 3 at once), or one of those that is down
# coming back (half the events once something is down); never a port of a
# switch that is down.  An event OpenSM does not see (no heavy sweep within
# 10 s: the repaired link hangs from a part still cut off) is counted as
# unseen.  After every event:
#   - the next heavy sweep must configure the tables again; a sweep that
#     ffroute refused (ERR RE03: OpenSM used the next engine) is counted as
#     a fallback;
#   - `ffroute check` judges OpenSM's dump folder (what OpenSM installed and
#     dumped, with ffroute.sl when the pass left one): hard findings and
#     refusals (a stale ffroute.sl) are counted;
#   - every 10th event, `ffroute check --live` reads the switches' tables
#     back with MADs and judges them with the dumped SLs and SL2VL.
# After a failed dump check, SIM_DIR/eventN.down lists what was down (the
# catalogue's lines) and SIM_DIR/eventN.lst is OpenSM's subnet.lst: with
# SIM_KEEP=1, `ffroute route SIM_DIR/eventN.lst` replays the pass offline.
# Samples OpenSM's resident memory after every sweep.  Prints a Markdown
# table: fabric, engine, events (down/up), sweeps, fallbacks, dump checks
# failed, live checks failed, LFT blocks changed per pass (mean), seconds
# per pass (mean), RSS first/last/max and growth from the 10th sweep,
# ffroute errors logged.  ENGINES="ffroute" by default ("ffroute minhop"
# compares memory).  Leaks are checked under valgrind by
# tests/integration/test_plugin_resweep.sh (VALGRIND=1, in .ci/run).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
events=${2:-200}
seed=${SEED:-1}
[ $# -gt 2 ] && shift 2 || set --
ff=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
[ $# -eq 0 ] && set -- "$top/fabrics/ff2-bridge-small.net"
log=$SIM_DIR/opensm.log
fail() { echo "soak: $*" >&2; exit 1; }

# The fault catalogue of a .net file, one per line: "host SW PORT",
# "link SW PORT" (switch side, once per link), "switch SW".
catalogue() {
	awk 'NR == FNR { if (/^Switch/) { n = $3; gsub(/"/, "", n); isw[n] = 1 } next }
	     /^Switch/ { sw = $3; gsub(/"/, "", sw); print "switch \"" sw "\""; next }
	     /^(Hca|Ca|Rt)/ { sw = ""; next }
	     sw != "" && /^\[/ { p = $1; gsub(/[^0-9]/, "", p); peer = $2; sub(/\[.*/, "", peer); gsub(/"/, "", peer)
		pp = $2; sub(/.*\[/, "", pp); sub(/\].*/, "", pp)
		if (!(peer in isw)) print "host \"" sw "\" " p
		else if (!((peer ":" pp) in seen)) { seen[sw ":" p] = 1; print "link \"" sw "\" " p " \"" peer "\"" } }' "$1" "$1"
}
sweeps() { grep -c "tables configured on all switches" "$log" || true; }
wait_sweep() {	# wait_sweep N: until N sweeps configured the tables; 1 after 10 s without
	i=0
	while [ "$(sweeps)" -lt "$1" ]; do
		i=$((i + 1)); [ $i -gt 100 ] && return 1; sleep 0.1
	done
	return 0
}
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }

soak_one() {	# soak_one NETFILE ENGINE
	net=$1 eng=$2
	catalogue "$net" >"$SIM_DIR/faults"
	[ -s "$SIM_DIR/faults" ] || fail "$net: nothing to take down"
	: >"$SIM_DIR/down"
	sim_start_console "$net" || fail "ibsim did not start on $net"
	sim_engine_conf "$eng"
	SIM_OSM_CONF="$SIM_OSM_CONF
qos TRUE
sweep_interval 1"
	SIM_OSM_TIMEOUT=$((events * 30 + 120))
	sim_opensm_bg || fail "OpenSM did not bring the subnet up"
	osm=$(pgrep -P "$OSM_PID" opensm || true)
	[ -n "$osm" ] || fail "no opensm process under $OSM_PID"
	wait_sweep 1 || fail "no first sweep"
	sleep 1
	first=$(rss "$osm") max=$first warm=$first n=1 c=0 ndown=0 nup=0 dumpbad=0 livebad=0 quiet=0
	rng=$seed
	while [ $c -lt "$events" ]; do
		rng=$(( (rng * 1103515245 + 12345) % 2147483648 ))
		nd=$(wc -l <"$SIM_DIR/down")
		if [ "$nd" -gt 0 ] && [ $((rng / 65536 % 2)) -eq 0 ]; then	# a repair
			k=$((rng / 131072 % nd + 1))
			ev=$(sed -n "${k}p" "$SIM_DIR/down")
			sed -i "${k}d" "$SIM_DIR/down"
			set -- $ev
			case $1 in switch) sim_console "ReLink $2" ;; *) sim_console "ReLink $2[$3]" ;; esac
			nup=$((nup + 1))
		else	# a fault: 2 in 5 hosts, 2 in 5 links, 1 in 5 switches (at most 3 down)
			kind=$((rng / 131072 % 5))
			want=host
			[ $kind -ge 2 ] && want=link
			[ $kind -eq 4 ] && [ "$(grep -c '^switch' "$SIM_DIR/down" || true)" -lt 3 ] && want=switch
			# not already down, and not on a switch that is down (no change, no sweep)
			awk -v want="$want" -v downf="$SIM_DIR/down" 'FILENAME == downf { down[$0] = 1; if ($1 == "switch") dsw[$2] = 1; next }
				$1 == want && !($0 in down) && !($2 in dsw && $1 != "switch") &&
				!($4 != "" && $4 in dsw)' "$SIM_DIR/down" "$SIM_DIR/faults" >"$SIM_DIR/cand"
			nc=$(wc -l <"$SIM_DIR/cand")
			[ "$nc" -gt 0 ] || continue
			ev=$(sed -n "$((rng / 4096 % nc + 1))p" "$SIM_DIR/cand")
			echo "$ev" >>"$SIM_DIR/down"
			set -- $ev
			case $1 in switch) sim_console "Unlink $2" ;; *) sim_console "Unlink $2[$3]" ;; esac
			ndown=$((ndown + 1))
		fi
		n=$((n + 1))
		if ! wait_sweep $n; then	# nothing OpenSM saw changed (a repair of a cut part)
			n=$((n - 1)) quiet=$((quiet + 1)) c=$((c + 1))
			continue
		fi
		sleep 1	# OpenSM writes its dumps after the tables
		r=$(rss "$osm")
		[ "$r" -gt "$max" ] && max=$r
		[ $n -eq 10 ] && warm=$r
		"$ff" check "$SIM_DIR/dump" --no-metrics >"$SIM_DIR/check.txt" 2>&1 || {
			cp "$SIM_DIR/down" "$SIM_DIR/event$c.down"	# SIM_KEEP=1 keeps them
			cp "$SIM_DIR/dump/opensm-subnet.lst" "$SIM_DIR/event$c.lst" 2>/dev/null || true
			dumpbad=$((dumpbad + 1)); echo "soak: event $c ($ev): dump check:" >&2
			grep -E "error|hard" "$SIM_DIR/check.txt" | head -5 >&2; }
		if [ $((c % 10)) -eq 9 ]; then
			vl=
			[ -f "$SIM_DIR/dump/ffroute.sl" ] && vl="--sl $SIM_DIR/dump/ffroute.sl"
			# shellcheck disable=SC2086
			sim_run "$ff" check --live --no-metrics $vl --sl2vl "$SIM_DIR/dump/opensm-sl2vl.dump" \
				>"$SIM_DIR/live.txt" 2>&1 || {
				livebad=$((livebad + 1)); echo "soak: event $c ($ev): live check:" >&2
				grep -E "error|hard" "$SIM_DIR/live.txt" | head -5 >&2; }
		fi
		c=$((c + 1))
	done
	last=$(rss "$osm")
	passes=$(grep -o -E "ffroute: pass [0-9]+: [0-9]+ LFT entries, [0-9]+ blocks changed.* [0-9.]+ s" "$log" || true)
	secs=$(printf '%s\n' "$passes" | grep -o -E "[0-9.]+ s$" |
		awk '{ s += $1; k++ } END { if (k) printf "%.3f", s / k; else printf "-" }')
	blocks=$(printf '%s\n' "$passes" | sed -E 's/.* LFT entries, ([0-9]+) blocks changed.*/\1/' |
		awk 'NR > 1 { s += $1; k++ } END { if (k) printf "%.1f", s / k; else printf "-" }')
	falls=$(grep -c "ERR RE03" "$log" || true)
	errs=$(grep -c "ERR RE" "$log" || true)
	sim_opensm_stop
	echo quit >&3
	exec 3>&-
	wait "$SIM_PID" 2>/dev/null || true
	SIM_PID=
	echo "| $(basename "$net" .net) | $eng | $events ($ndown/$nup, $quiet unseen) | $(sweeps) | $falls | $dumpbad | $livebad of $((events / 10)) | $blocks | $secs | $((first / 1024)) / $((last / 1024)) / $((max / 1024)) MiB | $((last - warm)) KiB | $errs |"
}

echo "| fabric | engine | events (down/up, unseen) | sweeps | fallbacks | dump checks failed | live checks failed | LFT blocks changed per pass | s per pass | RSS first / last / max | growth from sweep 10 | ffroute errors |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for net in "$@"; do
	for eng in ${ENGINES:-ffroute}; do
		soak_one "$net" "$eng"
	done
done

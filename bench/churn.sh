#!/bin/sh
# bench/churn.sh [BUILDDIR] [NETFILE...] - what a fault and its repair make
# OpenSM send, per routing engine: ibsim (its own IBSIM_SOCKNAME) with one
# OpenSM per (fabric, engine), sweeping every second, through the same
# events in turn: a leaf-to-spine link fails and comes back, a compute
# host's cable is pulled and plugged back, a spine fails and comes back.
# After each heavy sweep the switches' tables are read back with MADs
# (dump_lfts) and compared with the previous state by `ffroute diff` on
# OpenSM's subnet.lst of each (LIDs as OpenSM keeps them): LFT entries of
# destinations in both that differ, 64-LID blocks that differ (what OpenSM
# sent), and whether the tables after each repair are the healthy ones.
# Seconds: wall time from the event to the end of the heavy sweep
# (OpenSM's sweep interval of 1 s included).  Engines: ENGINES (default minhop, updn,
# minhop and updn with use_ucast_cache TRUE, ftree on one-zone fabrics,
# dfsssp, nue, ffroute).  The events are bench/churn_pick.py's (levels and
# roles, never names).  Prints a Markdown table, then a second: from each
# engine's healthy tables, the leaf entries that go up to each level-2
# switch of zone 0 (bench/spine_share.py: what that spine's failure must
# change, at least), min / mean / max over those spines and for the spine
# failed here.
#
# EVENTS=spines: every level-2 switch of zone 0 fails and comes back in
# turn instead (churn_pick.py --spines), OpenSM and the MAD tools attached
# to a host (ibsim's SIM_HOST) rather than to the file's first node, and a
# third table sums each engine's rows: which spine fails decides how much
# moves, and an engine can be below another on the spine picked and above
# it on the others.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
[ $# -gt 1 ] && shift || set --
ff=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
[ $# -eq 0 ] && set -- "$top/fabrics/frame-director-full.net" "$top/fabrics/ff2-bridge-full.net" \
	"$top/fabrics/rail3-full.net"
engines=${ENGINES:-"minhop updn minhop+cache updn+cache ftree dfsssp nue ffroute"}
log=$SIM_DIR/opensm.log
fail() { echo "churn: $*" >&2; exit 1; }
events=${EVENTS:-picked}
case $events in
picked) pick= ;;
spines) pick=--spines ;;
*) fail "EVENTS: picked or spines, not $events" ;;
esac
: >"$SIM_DIR/rows"

# heavy sweeps done (with use_ucast_cache a host's sweep may route nothing)
sweeps() { grep -c -- "-> SUBNET UP" "$log" || true; }
wait_sweep() {	# wait_sweep N: until N heavy sweeps are done (600 s at most)
	i=0
	while [ "$(sweeps)" -lt "$1" ]; do
		i=$((i + 1)); [ $i -gt 6000 ] && return 1; sleep 0.1
	done
	sleep 1		# the dumps follow the tables
}
snap() {	# snap NAME: the tables read back, and OpenSM's view of the subnet
	sim_run dump_lfts >"$SIM_DIR/$1.lfts" 2>/dev/null || fail "dump_lfts failed"
	cp "$SIM_DIR/dump/opensm-subnet.lst" "$SIM_DIR/$1.lst"
}
delta() {	# delta A B: "entries blocks" from A to B
	"$ff" diff --json --no-metrics "$SIM_DIR/$1.lst:$SIM_DIR/$1.lfts" \
		"$SIM_DIR/$2.lst:$SIM_DIR/$2.lfts" 2>/dev/null |
		jq -r '.diff | "\(.lft_entries_differ) \(.lft_blocks_differ) \(.lft_entries_compared) \(.lft_blocks)"'
}

echo "| fabric | engine | event | entries changed | blocks changed | s | repaired: entries / blocks | healthy again |"
echo "|---|---|---|---|---|---|---|---|"
for net in "$@"; do
	python3 "$top/bench/churn_pick.py" $pick "$ff" "$net" >"$SIM_DIR/picked"
	grep -v '^sm ' "$SIM_DIR/picked" >"$SIM_DIR/events" || true
	sm=$(awk '$1 == "sm" { print $2 }' "$SIM_DIR/picked")
	[ -n "$sm" ] && export SIM_HOST="$sm"	# spines: OpenSM on a host
	n=$(wc -l <"$SIM_DIR/events")
	{ [ "$events" = spines ] && [ "$n" -gt 0 ]; } || [ "$n" -eq 3 ] ||
		fail "$net: cannot pick the events: $(cat "$SIM_DIR/events")"
	zones=$("$ff" classify --json "$net" | jq .zones)
	for eng in $engines; do
		[ "$eng" = ftree ] && [ "$zones" != 1 ] && continue
		base=${eng%+cache}
		sim_start_console "$net" || fail "ibsim did not start on $net"
		sim_bench_conf "$base"
		SIM_OSM_CONF="$SIM_OSM_CONF
sweep_interval 1"
		[ "$eng" != "$base" ] && SIM_OSM_CONF="$SIM_OSM_CONF
use_ucast_cache TRUE"
		SIM_OSM_TIMEOUT=3600
		sim_opensm_bg || fail "OpenSM did not bring the subnet up ($eng, $net)"
		wait_sweep 1 || fail "no first sweep ($eng)"
		snap healthy
		sp=	# the spine failed here (spines: all of them, none named)
		[ "$events" = picked ] && sp=$(awk '$1 == "spine" { print $2 }' "$SIM_DIR/events")
		share=$(python3 "$top/bench/spine_share.py" "$ff" "$net" "$SIM_DIR/healthy.lst" \
			"$SIM_DIR/healthy.lfts" "$sp" 2>/dev/null || echo "-")
		echo "| $(basename "$net" .net) | $eng | $share |" >>"$SIM_DIR/shares"
		n=1
		while read -r kind a b c; do
			case $kind in	# ibsim's console: a switch, or a switch port
			host) what="\"$b\"[$c]" ;;
			link) what="\"$a\"[$b]" ;;
			*) what="\"$a\"" ;;
			esac
			t0=$(date +%s.%N)
			sim_console "Unlink $what"
			n=$((n + 1))
			wait_sweep $n || fail "no sweep after $kind down ($eng)"
			t1=$(date +%s.%N)
			snap down
			sim_console "ReLink $what"
			n=$((n + 1))
			wait_sweep $n || fail "no sweep after $kind up ($eng)"
			snap up
			set -- $(delta healthy down)
			d_e=$1 d_b=$2 ce=$3 cb=$4
			set -- $(delta down up)
			u_e=$1 u_b=$2
			set -- $(delta healthy up)
			again=no
			[ "$1" = 0 ] && [ "$2" = 0 ] && again=yes
			printf '| %s | %s | %s down | %s of %s | %s of %s | %.1f | %s / %s | %s |\n' \
				"$(basename "$net" .net)" "$eng" "$kind" "$d_e" "$ce" "$d_b" "$cb" \
				"$(echo "$t1 - $t0" | bc)" "$u_e" "$u_b" "$again"
			echo "$(basename "$net" .net) $eng $kind $d_e $d_b $again" >>"$SIM_DIR/rows"
		done <"$SIM_DIR/events"
		grep -q "ERR RE03" "$log" && echo "churn: $eng on $net: ffroute fell back (RE03)" >&2
		sim_opensm_stop
		sim_stop
	done
done
echo
echo "| fabric | engine | leaf entries up to each spine of zone 0 (spine_share.py) |"
echo "|---|---|---|"
cat "$SIM_DIR/shares"
[ "$events" = spines ] || exit 0
# per (fabric, engine): the spread over the spines, and against minhop
# spine by spine (the rows of one fabric come in the same spine order)
echo
echo "| fabric | engine | spines | entries min / mean / max | blocks min / mean / max | healthy again | entries <= minhop's | blocks <= minhop's |"
echo "|---|---|---|---|---|---|---|---|"
awk '$3 == "spine" {
	k = $1 " " $2; if (!(k in n)) ord[++nk] = k
	i = ++n[k]; e[k, i] = $4; b[k, i] = $5; ok[k] += ($6 == "yes")
}
END {
	for (j = 1; j <= nk; j++) {
		k = ord[j]; split(k, f, " "); m = f[1] " minhop"
		emin = bmin = 1e18; emax = bmax = es = bs = 0; le = lb = "-"
		if (m in n && n[m] == n[k]) le = lb = 0
		for (i = 1; i <= n[k]; i++) {
			if (e[k, i] < emin) emin = e[k, i]; if (e[k, i] > emax) emax = e[k, i]
			if (b[k, i] < bmin) bmin = b[k, i]; if (b[k, i] > bmax) bmax = b[k, i]
			es += e[k, i]; bs += b[k, i]
			if (le != "-") { le += (e[k, i] <= e[m, i]); lb += (b[k, i] <= b[m, i]) }
		}
		printf "| %s | %s | %d | %d / %.1f / %d | %d / %.1f / %d | %d of %d | %s | %s |\n",
			f[1], f[2], n[k], emin, es / n[k], emax, bmin, bs / n[k], bmax, ok[k], n[k],
			le == "-" ? "-" : le " of " n[k], lb == "-" ? "-" : lb " of " n[k]
	}
}' "$SIM_DIR/rows"

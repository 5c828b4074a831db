#!/bin/sh
# bench/roles.sh [BUILDDIR] [LINES] - what a large roles file costs.
# LINES (default 2,000) plain regex lines, one per compute host
# (`/^cnNNNN mlx5_0$/ compute`), on the full Fire-Flyer 2 reference fabric
# (1,690 ports, 122 switches):
#   - offline: `ffroute classify --roles` (one classification: every regex
#     runs once per distinct NodeDescription), median of 3, and without
#     the roles file;
#   - inside OpenSM (ibsim, its own IBSIM_SOCKNAME): the plugin's pass
#     times for the first sweep (regexes compiled when ffroute.conf is
#     read, each run once per description) and for two re-sweeps after a
#     link flap (descriptions seen before: no regex runs), with and
#     without the roles file.
# Writes a Markdown table on standard output (bench/roles.md).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
lines=${2:-2000}
ff=$build/tools/ffroute
net=$top/fabrics/ff2-bridge-full.net
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
log=$SIM_DIR/opensm.log
awk -v n="$lines" 'BEGIN { for (i = 1; i <= n; i++) printf "/^cn%04d mlx5_0$/ compute\n", i }' \
	>"$SIM_DIR/site.roles"

median3() { sort -n | sed -n 2p; }
classify_s() {	# classify_s [--roles F]: median seconds of 3 runs
	for i in 1 2 3; do
		/usr/bin/time -f %e "$ff" classify "$@" "$net" 2>&1 >/dev/null | tail -1
	done | median3
}
wait_pass() {
	i=0
	until grep -q "ffroute: pass $1:" "$log"; do
		i=$((i + 1)); [ $i -gt 1200 ] && { echo "bench/roles.sh: no pass $1" >&2; exit 1; }; sleep 0.1
	done
}
pass_s() { grep -o -E "ffroute: pass $1: .* [0-9.]+ s$" "$log" | grep -o -E "[0-9.]+ s$" | cut -d' ' -f1; }
plugin() {	# plugin CONF: "first | re-sweep | re-sweep" pass seconds
	SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $1
routing_engine ffroute,updn
qos TRUE
sweep_interval 1"
	sim_opensm_bg >/dev/null || { echo "bench/roles.sh: no SUBNET UP" >&2; exit 1; }
	wait_pass 1
	sim_console 'Unlink "S-0002c90010000010"[1]'
	wait_pass 2
	sim_console 'ReLink "S-0002c90010000010"[1]'
	wait_pass 3
	echo "$(pass_s 1) | $(pass_s 2) | $(pass_s 3)"
	sim_opensm_stop
}

sim_start_console "$net" || exit 1
printf 'roles %s/site.roles\n' "$SIM_DIR" >"$SIM_DIR/with.conf"
: >"$SIM_DIR/without.conf"
echo "| roles file | classify (s, median of 3) | plugin pass 1 (s) | pass 2 (s) | pass 3 (s) |"
echo "|---|---:|---:|---:|---:|"
echo "| none | $(classify_s) | $(plugin "$SIM_DIR/without.conf") |"
echo "| $lines regex lines | $(classify_s --roles "$SIM_DIR/site.roles") | $(plugin "$SIM_DIR/with.conf") |"

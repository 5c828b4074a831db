#!/bin/sh
# scripts/demo.sh [BUILDDIR] [NETFILE] - the main job on a bundled fabric:
# start ibsim on NETFILE (default fabrics/ff2-bridge-small.net, a small
# Fire-Flyer 2 two-zone fabric), run one OpenSM sweep configured as an
# operator would (event_plugin_name ffroute, routing_engine ffroute,updn),
# then read the fabric and every switch's LFT back from the simulated
# switches with SMPs and print ffroute's check report of what is installed.
#
# The plugin routes the subnet (two zones: two VL layers), so OpenSM runs
# with "qos TRUE" to call the engine's update_sl2vl for every port, and the
# check judges credit loops per VL with the SLs the plugin dumped
# (ffroute.sl) and the SL2VL tables OpenSM dumped (opensm-sl2vl.dump).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
net=${2:-$top/fabrics/ff2-bridge-small.net}
ffroute=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_require
sim_workdir

echo "== fabric: $net"
sim_start "$net"
SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,updn
qos TRUE"
sim_plugin_env "$build/opensm/.libs"
if ! sim_opensm; then
	echo "opensm failed:"; tail -20 "$SIM_DIR/opensm.out"; exit 1
fi
echo "== OpenSM 3.3.23 with the ffroute plugin"
grep -E " -> .*(ffroute: |tables configured|SUBNET UP)" "$SIM_DIR/opensm.log" |
	sed -E 's/^.* -> [a-z_]+: /  /' | awk '!seen[$0]++'
echo "== ffroute check --live --live-vl (topology, LFTs, SL2VL and VL arbitration read from the switches over MADs)"
rc=0
vl=--live-vl
[ -f "$SIM_DIR/dump/ffroute.sl" ] && vl="$vl --sl $SIM_DIR/dump/ffroute.sl"
# shellcheck disable=SC2086
sim_run "$ffroute" check --live $vl 2>"$SIM_DIR/check.err" || rc=$?
grep -v "^ibwarn: .*sim_connect" "$SIM_DIR/check.err" >&2 || true
case $rc in
0) echo "== check: no hard findings" ;;
1) echo "== check: hard findings in the installed routing (exit status 1; see above)" ;;
*) echo "== check failed (exit status $rc)"; exit "$rc" ;;
esac

#!/bin/sh
# scripts/demo.sh [BUILDDIR] [NETFILE] - the main job on a bundled fabric:
# start ibsim on NETFILE (default fabrics/demo/mini.net), run one OpenSM
# sweep with the ffroute plugin loaded (routing_engine ffroute,minhop),
# read every switch's LFT back from the simulated switches with MADs
# (dump_lfts), and print the report: the fabric as OpenSM discovered it
# and the forwarding tables that were really installed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
net=${2:-$top/fabrics/demo/mini.net}
ffroute=$build/tools/ffroute
top_srcdir=$top
. "$top/tests/lib/sim.sh"
sim_require
sim_workdir

echo "== fabric: $net"
sim_start "$net"
SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,minhop"
sim_plugin_env "$build/opensm/.libs"
if ! sim_opensm; then
	echo "opensm failed; see below"; tail -20 "$SIM_DIR/opensm.out"; exit 1
fi
echo "== OpenSM with the ffroute plugin"
grep -E " -> .*(ffroute|tables configured|SUBNET UP)" "$SIM_DIR/opensm.log" |
	sed -E 's/^.* -> [a-z_]+: /  /' | awk '!seen[$0]++' 
echo "== the subnet OpenSM discovered (opensm-subnet.lst)"
"$ffroute" info "$SIM_DIR/dump/opensm-subnet.lst"
echo "== forwarding tables read back from the switches (dump_lfts over MADs)"
sim_run dump_lfts >"$SIM_DIR/live.lfts" 2>"$SIM_DIR/dump_lfts.err"
"$ffroute" convert --lft "$SIM_DIR/live.lfts" --to opensm-lfts -o "$SIM_DIR/live.dump" \
	"$SIM_DIR/dump/opensm-subnet.lst"
echo "  $(grep -c '^Unicast lids' "$SIM_DIR/live.dump") switch tables," \
	"$(grep -c '^0x' "$SIM_DIR/live.dump") routes;" \
	"identical to OpenSM's own dump: $(cmp -s "$SIM_DIR/live.dump" \
	"$SIM_DIR/dump/opensm-lfts.dump" && echo yes || echo NO)"

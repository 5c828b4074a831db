#!/bin/sh
# bench/engines.sh [BUILDDIR] [NETFILE...] - OpenSM's own engines and ffroute
# side by side on the same fabric, under ibsim: for each fabric and each of
# minhop, updn, ftree, dfsssp, nue and ffroute (the plugin), one OpenSM sweep
# (qos TRUE, so dfsssp/nue/ffroute can use VLs), then `ffroute check` of the
# dumps OpenSM wrote (with ffroute.sl for ffroute; the other engines' SLs are
# not dumped by OpenSM, so their routes are judged on SL 0).  Prints one
# Markdown row per (fabric, engine): the engine that really configured the
# tables (updn and ftree fall back to minhop on fabrics they refuse), hard
# findings, credit loops, shift max/mean and lower bound, EBB, up-link
# spread, and OpenSM's routing time: from its log's timestamps, the first
# "building routing with '<engine>'" to "<engine that configured> tables
# configured on all switches" (a fallback's time is included, as an operator
# waits for it too).  Default fabric: a 5 %-degraded full frame (generated,
# seed 1).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
[ $# -gt 0 ] && shift
ff=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_require
sim_workdir
n=$#	# fabric paths as given, before leaving the caller's directory
while [ "$n" -gt 0 ]; do
	f=$1
	shift
	set -- "$@" "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
	n=$((n - 1))
done
cd "$SIM_DIR"
sim_plugin_env "$build/opensm/.libs"
if [ $# -eq 0 ]; then
	"$ff" fabric frame --size full --drop-links 0.05 --seed 1 -o "$SIM_DIR/frame-full-degraded5.net" 2>/dev/null
	set -- "$SIM_DIR/frame-full-degraded5.net"
fi
echo "| fabric | engine | configured by | routing time (s) | hard | credit loops | shift max (LB) | shift mean (LB) | EBB | up-link spread (compute) |"
echo "|---|---|---|---:|---:|---:|---|---|---:|---:|"
# route_secs LOG ENGINE: seconds from building routing with ENGINE to tables configured
route_secs() {
	awk -v e="$2" '
		function t(l, a) { split($3, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] + $4 / 1e6 }
		index($0, "building routing with \047" e "\047") && !s { s = t() }
		/tables configured on all switches/ && s && !d { d = t() }
		END { if (s && d) printf "%.3f", d - s; else printf "-" }' "$1"
}
for net in "$@"; do
	for eng in minhop updn ftree dfsssp nue ffroute; do
		rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
		sim_start "$net" || { echo "ibsim failed on $net" >&2; exit 1; }
		SIM_OSM_CONF="routing_engine $eng
qos TRUE"
		[ "$eng" = ffroute ] && SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,minhop
qos TRUE"
		sim_opensm >/dev/null 2>&1 || true
		sim_stop
		used=$(grep -o -E "[a-z0-9]+ tables configured on all switches" "$SIM_DIR/opensm.log" |
			tail -1 | cut -d' ' -f1)
		sl=
		[ -f "$SIM_DIR/dump/ffroute.sl" ] && sl="--sl $SIM_DIR/dump/ffroute.sl"
		# shellcheck disable=SC2086
		"$ff" check --json $sl "$SIM_DIR/dump" >"$SIM_DIR/c.json" 2>/dev/null || true
		secs=$(route_secs "$SIM_DIR/opensm.log" "$eng")
		jq -r --arg f "$(basename "$net" .net)" --arg e "$eng" --arg u "${used:-none}" --arg s "$secs" \
			'.metrics as $m | "| \($f) | \($e) | \($u) | \($s) | \(.hard_findings) | \(.findings.credit_loop.count) | \($m.shift_max) (\($m.shift_lb_max)) | \($m.shift_mean * 1000 | round / 1000) (\($m.shift_lb_mean * 1000 | round / 1000)) | \($m.ebb * 1000 | round / 1000) | \($m.uplink_spread_compute) |"' \
			"$SIM_DIR/c.json" 2>/dev/null || echo "| $(basename "$net" .net) | $eng | ${used:-none} | $secs | check failed | | | | | |"
	done
done

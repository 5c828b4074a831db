#!/bin/sh
# test_hetero_sa.sh - link rates inside OpenSM (issue 28), under ibsim:
# a small hetero fabric (ffroute fabric hetero: one low-speed subtree below
# leaves and one below spines, 4x EDR, plus 2 trained-down switch links)
# routed by the plugin:
#   1. the live tables, read back with SMPs, have no hard finding: no pair
#      routed slower than a path as short (rate_slowed), no transit through
#      a subtree (slow_transit), no credit loop;
#   2. OpenSM's SA answers path records from the LFTs (the slowest link on
#      the path): from every CA to every other, the rate (its low 6 bits;
#      saquery prints the selector above them) is 200 Gb/s (0x11) between
#      full-rate CAs and 100 Gb/s (0x10) when a subtree's host is an end,
#      never 50 (a trained-down 1x link) or 100 between full-rate CAs;
#   3. for comparison, minhop on the same fabric (printed, not judged).
# Every ibsim has its own IBSIM_SOCKNAME (tests/lib/sim.sh).  Exit 77
# without ibsim/opensm, the plugin or jq.
set -u
. "$top_srcdir/tests/lib/sim.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
sim_plugin_test
fail() { echo "FAIL: $*"; grep -i -E 'ffroute|ERR' "$log" | head -20; exit 1; }

net=$SIM_DIR/hetero.net
"$FFROUTE" fabric hetero --style mixed --trained-down 2 --seed 3 -o "$net" 2>/dev/null ||
	fail "cannot generate the hetero fabric"
"$FFROUTE" classify "$net" | grep -q "subtrees 2; trained-down links 2" ||
	fail "the fabric lacks its subtrees or trained-down links: $("$FFROUTE" classify "$net" | grep rates)"

# rates ENGINE: path record rates of every CA pair -> $SIM_DIR/ENGINE.rates
# ("fast 0x11" per pair: fast = both ends full-rate cn*, slow = an inf* end)
rates() {
	"$FFROUTE" convert --to ibnetdiscover -o "$SIM_DIR/$1.topo" "$SIM_DIR/dump/opensm-subnet.lst" \
		2>/dev/null || fail "convert subnet.lst ($1)"
	awk '/^(Ca|Hca)/ { split($0, q, "\""); name = q[4] }
		/^\[1\]/ && name != "" { for (i = 1; i < NF; i++) if ($i == "lid") { print $(i + 1), name; break }
			name = "" }' \
		"$SIM_DIR/$1.topo" >"$SIM_DIR/$1.cas"
	[ "$(wc -l <"$SIM_DIR/$1.cas")" = 28 ] || fail "28 CA LIDs not found ($1)"
	while read -r s sn; do
		while read -r d dn; do
			[ "$s" = "$d" ] && continue
			r=$(sim_run saquery -p --slid "$s" --dlid "$d" 2>/dev/null |
				awk '$1 ~ /^rate\.+0x/ { sub(/^rate\.+0x/, "", $1); v = 0
					for (i = 1; i <= length($1); i++)
						v = v * 16 + index("0123456789abcdef", tolower(substr($1, i, 1))) - 1
					printf "0x%02x\n", v % 64; exit }')
			[ -n "$r" ] || fail "no path record $s -> $d ($1)"
			case "$sn$dn" in *inf*) echo "slow $r" ;; *) echo "fast $r" ;; esac
		done <"$SIM_DIR/$1.cas"
	done <"$SIM_DIR/$1.cas" | sort | uniq -c >"$SIM_DIR/$1.rates"
}

# ---- 1. the plugin; live tables -------------------------------------------------
sim_start "$net" || fail "ibsim did not start"
SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,minhop"
sim_opensm_bg || fail "OpenSM did not bring the subnet up"
grep -q "ffroute tables configured on all switches" "$log" || fail "ffroute did not route it"
sim_run "$FFROUTE" check --live --json --no-metrics >"$SIM_DIR/live.json" 2>"$SIM_DIR/live.err" ||
	fail "check --live: $(grep -E '"count": [1-9]' "$SIM_DIR/live.json" | head -c 1200)"
jq -e '.findings.rate_slowed.count == 0 and .findings.slow_transit.count == 0 and
	.findings.credit_loop.count == 0' "$SIM_DIR/live.json" >/dev/null ||
	fail "live findings: $(grep -E '"count": [1-9]' "$SIM_DIR/live.json" | head -c 1200)"
echo "ok: the plugin's live tables: no rate_slowed, no slow_transit, no credit loop"

# ---- 2. path record rates ---------------------------------------------------------
rates ffroute
sim_opensm_stop
awk '{ n[$2 " " $3] += $1 } END {
	ok = n["fast 0x11"] > 0 && n["slow 0x10"] > 0
	for (k in n) if (k != "fast 0x11" && k != "slow 0x10") ok = 0
	exit !ok }' "$SIM_DIR/ffroute.rates" ||
	fail "path record rates (pairs, ends, rate): $(cat "$SIM_DIR/ffroute.rates")"
echo "ok: path records: $(awk '{ printf "%s%s %s pairs at %s", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$SIM_DIR/ffroute.rates")"

# ---- 3. minhop, for comparison ----------------------------------------------------
SIM_OSM_CONF="routing_engine minhop"
if sim_opensm_bg; then
	rates minhop
	echo "note: minhop's path records: $(awk '{ printf "%s%s %s pairs at %s", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$SIM_DIR/minhop.rates")"
	sim_opensm_stop
fi
sim_stop
echo "PASS: link rates inside OpenSM"
exit 0

#!/bin/sh
# test_plugin.sh - OpenSM 3.3.23 loads libffroute.so as an event plugin and
# routes the live subnet with the ffroute engine, under ibsim:
#   1. fabrics/demo/mini.net: the plugin registers "ffroute", models the
#      subnet exactly (6 switches, 8 CAs), "ffroute tables configured on all
#      switches", SUBNET UP; every switch's LFT read back with SMPs
#      (ffroute check --live) has no hard finding; dump_lfts (infiniband-
#      diags) reads the same tables as OpenSM's opensm-lfts.dump;
#   2. fabrics/ff2-bridge-small.net with qos TRUE and an ffroute.conf
#      with class_weights 1,8,1: two VL layers; the live
#      check with the plugin's ffroute.sl and OpenSM's opensm-sl2vl.dump
#      (written from the engine's update_sl2vl) has no credit loop;
#      saquery path records between hosts of different zones succeed and
#      carry the SL the engine chose (1 + destination zone), and within a
#      zone SL 0; the 4 links of one bridge switch are 1x, and from every
#      CA to 4 others the path record's rate is the 1x rate exactly when
#      ibtracert's walk of the live LFTs crosses that bridge (the records
#      follow the LFTs);
#   2b. frame, multiframe, rail2, rail3 small: routed by ffroute, live
#      tables clean per VL; and a 3-level tree with 5 % of its links
#      dropped (seed 2) whose CAs need the rooted layer: OpenSM's log says
#      how many LIDs took it, the live tables are clean per VL; a
#      SuperPOD-style tree without one core-spine cable: fallback routes
#      on SLs 12 and 11, the switches' SL2VL read back, clean per VL;
#   3. fallback: a roles file splitting mini.net into zones that are not
#      joined makes the classification refuse it: ERR RE05 and RE03 in the
#      log, updn/minhop configure the tables, SUBNET UP;
#   4. a bad ffroute.conf: ERR RE08 with file:line:col, the plugin does not
#      load and the subnet still comes up;
#   5. only osm_event_plugin is exported from the shared object;
#   6. a torus (not a tree) under ffroute,dfsssp: RE13 in one line, dfsssp
#      routes it (its SLs live in the SA: not judged here); non_tree route
#      in ffroute.conf: ffroute does.
# Every ibsim has its own IBSIM_SOCKNAME (tests/lib/sim.sh).  Exit 77 without
# ibsim/opensm or the plugin.
set -u
. "$top_srcdir/tests/lib/sim.sh"
sim_plugin_test
fail() { echo "FAIL: $*"; grep -i -E 'ffroute|ERR|routing|configured' "$log" | head -40; exit 1; }

# ---- 5. exports ---------------------------------------------------------------
exports=$(nm -D --defined-only "$plugdir/libffroute.so" | awk '$2 ~ /^[TDBR]$/ { print $3 }')
[ "$exports" = "osm_event_plugin" ] || fail "the plugin exports more than osm_event_plugin: $exports"
echo "ok: only osm_event_plugin is exported"

# ---- 1. mini.net ----------------------------------------------------------------
sim_start "$top_srcdir/fabrics/demo/mini.net" || fail "ibsim did not start"
SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,minhop"
sim_opensm || fail "opensm sweep failed (rc $?)"
grep -q "ffroute: routing engine registered" "$log" || fail "plugin not loaded"
grep -q "ffroute: pass 1: [0-9]* LFT entries, [0-9]* blocks changed; 6 switches, 8 CAs, 14 LIDs" "$log" ||
	fail "adapter did not model the subnet"
grep -q "ffroute tables configured on all switches" "$log" || fail "ffroute did not configure the tables"
grep -q "SUBNET UP" "$log" || fail "subnet did not come up"
grep -q "ERR RE" "$log" && fail "an ffroute error was logged"
sim_run "$FFROUTE" check --live --json --no-metrics >"$SIM_DIR/mini.json" 2>"$SIM_DIR/mini.err" ||
	fail "check --live on mini: $(head -c 600 "$SIM_DIR/mini.json")"
sim_run dump_lfts >"$SIM_DIR/mini.dump_lfts" 2>/dev/null || fail "dump_lfts failed"
"$FFROUTE" convert --lft "$SIM_DIR/mini.dump_lfts" --to opensm-lfts -o "$SIM_DIR/mini.lfts" \
	"$SIM_DIR/dump/opensm-subnet.lst" 2>/dev/null || fail "convert dump_lfts"
[ -f "$SIM_DIR/dump/opensm-lfts.dump" ] && { cmp -s "$SIM_DIR/mini.lfts" "$SIM_DIR/dump/opensm-lfts.dump" ||
	fail "the switches hold other tables than OpenSM dumped"; }
echo "ok: mini.net routed by ffroute inside OpenSM; live tables clean"
sim_stop

# ---- 2. ff2-bridge-small, two VL layers ------------------------------------------
rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
# every link of bridge switch 0x0002c90210000010 at 1x: a path record's rate
# is the slowest link on its path, and the SA finds the path by walking the
# switches' LFTs (OpenSM's osm_sa_path_record.c), so the rate tells whether
# the path crosses that bridge
br=0002c90210000010
awk -v br="$br" '/^Switch/ { sw = $0 } /^$/ { sw = "" }
	(sw ~ "\"S-" br "\"" || $0 ~ "^\\[[0-9]+\\][ \t]+\"S-" br "\"") && /\tw=/ {
		sub(/\tw=[0-9]+/, "\tw=1") }
	{ print }' "$top_srcdir/fabrics/ff2-bridge-small.net" >"$SIM_DIR/ff2-slow.net"
[ "$(diff "$top_srcdir/fabrics/ff2-bridge-small.net" "$SIM_DIR/ff2-slow.net" | grep -c '^>')" = 8 ] ||
	fail "could not slow the 4 links of bridge $br"
sim_start "$SIM_DIR/ff2-slow.net" || fail "ibsim did not start (ff2)"
printf '# storage routes weigh 8 in the all-class tie-break\nclass_weights 1,8,1\nthreads 1\n' \
	>"$SIM_DIR/weights.conf"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/weights.conf
routing_engine ffroute,updn
qos TRUE"
sim_opensm_bg || fail "OpenSM did not bring ff2 up (background)"
grep -q "ffroute tables configured on all switches" "$log" || fail "ffroute did not route ff2"
grep -q "ffroute: routing engine registered (VL limit 2, 0 traffic classes, class weights 1,8,1, threads 1)" "$log" ||
	fail "the class weights and threads of ffroute.conf were not taken"
grep -q "ffroute: pass 1: [0-9]* LFT entries, [0-9]* blocks changed; 26 switches, 56 CAs, 82 LIDs, 2 VLs, 2 zones" "$log" ||
	fail "no two-zone summary line"
[ -f "$SIM_DIR/dump/ffroute.sl" ] || fail "no ffroute.sl in the dump directory"
[ -f "$SIM_DIR/dump/opensm-sl2vl.dump" ] || fail "OpenSM wrote no opensm-sl2vl.dump"
# no hard finding, rates included: a leaf whose only exit is the slowed
# bridge goes up to a faster exit where that is no longer (rate_slowed 0);
# pairs whose every shortest way crosses that bridge still do (below)
sim_run "$FFROUTE" check --live --json --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
	--sl2vl "$SIM_DIR/dump/opensm-sl2vl.dump" >"$SIM_DIR/ff2.json" 2>"$SIM_DIR/ff2.err" ||
	fail "check --live with VLs on ff2: $(grep -E '"count": [1-9]' "$SIM_DIR/ff2.json" | head -c 1500)"
# path records: cn0001 (zone 0) -> cn0021 (zone 1): SL 2; cn0001 -> cn0002: SL 0
lid_of() { awk -v d="$1" 'index($0, "\"" d "\" lid ") { for (i = 1; i <= NF; i++) if ($i == "lid") { print $(i + 1); exit } }' \
	"$SIM_DIR/ff2.topo" 2>/dev/null; }
"$FFROUTE" convert --to ibnetdiscover -o "$SIM_DIR/ff2.topo" "$SIM_DIR/dump/opensm-subnet.lst" \
	2>/dev/null || fail "convert subnet.lst"
a=$(lid_of "cn0001 mlx5_0") b=$(lid_of "cn0021 mlx5_0") c=$(lid_of "cn0002 mlx5_0")
[ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] || fail "LIDs of cn0001/cn0021/cn0002 not found"
sl() { sim_run saquery -p --slid "$1" --dlid "$2" 2>/dev/null |
	awk '$1 ~ /^sl\.+0x[0-9a-fA-F]$/ { print index("0123456789abcdef", tolower(substr($1, length($1)))) - 1; exit }'; }
s1=$(sl "$a" "$b") s2=$(sl "$b" "$a") s3=$(sl "$a" "$c")
[ "$s1" = 2 ] && [ "$s2" = 1 ] && [ "$s3" = 0 ] ||
	fail "path record SLs: zone0->zone1 '$s1' (want 2), zone1->zone0 '$s2' (want 1), in zone '$s3' (want 0)"
# path records follow the LFTs: from every CA to 4 others, the record's rate
# is the 1x rate exactly when ibtracert (MADs to the switches) crosses the bridge
ca_lids=$(awk '/^Switch/ { sw = 1 } /^Ca/ { sw = 0 }
	sw && /"H-/ { for (i = 1; i < NF; i++) if ($i == "lid") { print $(i + 1); break } }' \
	"$SIM_DIR/ff2.topo" | sort -n)
[ "$(echo $ca_lids | wc -w)" = 56 ] || fail "expected 56 CA LIDs, got: $ca_lids"
for s in $ca_lids; do
	for d in $(echo $ca_lids | tr ' ' '\n' | awk 'NR % 14 == 1'); do
		[ "$s" = "$d" ] && continue
		path=$(sim_run ibtracert "$s" "$d" 2>/dev/null) || fail "ibtracert $s $d: no path"
		rate=$(sim_run saquery -p --slid "$s" --dlid "$d" 2>/dev/null |
			awk '$1 ~ /^rate\.+0x/ { sub(/^rate\.+/, "", $1); print $1; exit }')
		[ -n "$rate" ] || fail "no path record $s -> $d"
		case $path in *"{0x$br}"*) echo "cross $rate" ;; *) echo "direct $rate" ;; esac
	done
done | sort | uniq -c >"$SIM_DIR/rates"
awk '{ n[$2]++ } END { exit !(n["cross"] == 1 && n["direct"] == 1) }' "$SIM_DIR/rates" ||
	fail "path record rates do not follow the LFT paths (count, path, rate): $(cat "$SIM_DIR/rates")"
[ "$(awk '{ print $3 }' "$SIM_DIR/rates" | sort -u | wc -l)" = 2 ] ||
	fail "crossing and direct paths have the same rate: $(cat "$SIM_DIR/rates")"
sim_opensm_stop
echo "ok: ff2 routed with 2 VLs; live check per VL clean; path record SLs 2/1/0;" \
	"rates follow the LFT paths ($(awk '{ printf "%s%s %s at %s", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$SIM_DIR/rates"))"

# ---- 2b. the other small reference fabrics: routed by ffroute, live tables clean --------
"$FFROUTE" fabric fattree --levels 3 --drop-links 0.05 --seed 2 -o "$SIM_DIR/fattree3-d5.net" \
	2>/dev/null || fail "cannot generate the degraded 3-level tree"
for f in frame-director-small multiframe-director-small rail2-small rail3-small fattree3-d5; do
	net=$top_srcdir/fabrics/$f.net
	[ -f "$net" ] || net=$SIM_DIR/$f.net
	sim_stop
	rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
	sim_start "$net" || fail "ibsim did not start ($f)"
	SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,updn
qos TRUE"
	sim_opensm || fail "opensm sweep failed on $f"
	grep -q "ffroute tables configured on all switches" "$log" || fail "ffroute did not route $f"
	vl=
	[ -f "$SIM_DIR/dump/ffroute.sl" ] && vl="--sl $SIM_DIR/dump/ffroute.sl"
	[ -f "$SIM_DIR/dump/opensm-sl2vl.dump" ] && vl="$vl --sl2vl $SIM_DIR/dump/opensm-sl2vl.dump"
	# shellcheck disable=SC2086
	sim_run "$FFROUTE" check --live --json --no-metrics $vl >"$SIM_DIR/$f.json" 2>"$SIM_DIR/$f.err" ||
		fail "check --live on $f: $(head -c 600 "$SIM_DIR/$f.json")"
	case $f in fattree3-d5)
		grep -q "ffroute: pass 1: .* 1 zone, 0 rails, [1-9][0-9]* LIDs rooted" "$log" ||
			fail "no rooted layer on $f" ;;
	esac
	echo "ok: $f routed by ffroute inside OpenSM; live tables clean"
done
# another generator's SuperPOD (4 units of 8 rails, SHARP nodes, a
# management branch: 3,304 fallback routes while whole) loses one
# core-spine cable while OpenSM runs: the re-route is incremental (the
# merge spreads the broken LIDs' fallback routes over SLs 12 and 11 around
# the kept LIDs' own: route_mvalley.c; before, every merge closed a VL 1
# credit loop and the plugin routed from scratch), no LID rooted; the
# switches' SL2VL tables read back with SMPs (--live-vl) and the plugin's
# SLs: no credit loop
if python3 "$top_srcdir/tests/lib/gen_foreign.py" superpod 4 8 8 4 1 8 2 1 >"$SIM_DIR/g4.topo" &&
   "$FFROUTE" convert --to net -o "$SIM_DIR/g4.net" "$SIM_DIR/g4.topo"; then
	sim_stop
	rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
	# shellcheck disable=SC2046 # the limits are words
	sim_start_console "$SIM_DIR/g4.net" $(sim_net_limits "$SIM_DIR/g4.net") ||
		fail "ibsim did not start (g4)"
	SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,updn
qos TRUE
sweep_interval 1"
	sim_opensm_bg || fail "OpenSM did not bring g4 up"
	sim_wait_pass 1 || fail "g4: no ffroute pass 1"
	sim_console 'Unlink "S-248a07031c010454"[6]'
	sim_wait_pass 2 || fail "g4: no ffroute pass 2 after the cable went"
	grep "ffroute: pass 2:" "$log" | grep -q "incremental (LIDs kept" ||
		fail "g4: a core-spine cable lost was not routed incrementally: \
$(grep 'ffroute: \(pass 2\|incremental\)' "$log" | tail -4)"
	grep -q "ffroute: pass 2: .* 0 LIDs rooted" "$log" || fail "g4: LIDs rooted"
	grep -q "^sl .* 11$" "$SIM_DIR/dump/ffroute.sl" || fail "g4: no fallback route on SL 11"
	sim_run "$FFROUTE" check --live --live-vl --sl "$SIM_DIR/dump/ffroute.sl" --json --no-metrics \
		>"$SIM_DIR/g4.json" 2>"$SIM_DIR/g4.err" ||
		fail "check --live --live-vl on g4: $(head -c 600 "$SIM_DIR/g4.json")"
	# without the paths' SLs every path is judged on SL 0: said, not silent
	sim_run "$FFROUTE" check --live --live-vl --json --no-metrics >/dev/null 2>"$SIM_DIR/g4-nosl.err"
	grep -q "no --sl: every path judged on SL 0" "$SIM_DIR/g4-nosl.err" ||
		fail "check --live --live-vl without --sl: no warning"
	chg=$(grep "ffroute: pass 2:" "$log" | tail -1 |
		sed -E 's/.*ffroute: pass 2: ([0-9]+ LFT entries, [0-9]+ blocks changed).*/\1/')
	sim_opensm_stop
	# a new OpenSM on the fabric without the cable: no base, routed from
	# scratch (route_valley.c spreads its 3,374 fallback routes), clean too
	sim_opensm || fail "opensm sweep failed on g4 without the cable"
	grep -q "ffroute: pass 1: .* 0 LIDs rooted" "$log" || fail "g4 from scratch: LIDs rooted"
	grep -q "^sl .* 11$" "$SIM_DIR/dump/ffroute.sl" || fail "g4 from scratch: no route on SL 11"
	sim_run "$FFROUTE" check --live --live-vl --sl "$SIM_DIR/dump/ffroute.sl" --json --no-metrics \
		>"$SIM_DIR/g4s.json" 2>"$SIM_DIR/g4s.err" ||
		fail "check --live --live-vl on g4 from scratch: $(head -c 600 "$SIM_DIR/g4s.json")"
	exec 3>&-
	echo "ok: a SuperPOD loses a core-spine cable: incremental ($chg)," \
		"fallback routes on SLs 12 and 11, live tables clean; from scratch too"
else
	fail "cannot generate the SuperPOD"
fi
sim_stop
sim_start "$top_srcdir/fabrics/ff2-bridge-small.net" || fail "ibsim did not start (ff2, fallback)"

# ---- 3. fallback: a fabric the classification refuses -------------------------------
# roles overrides split mini.net into 3 zones, 0 and 2 joined only through 1
printf '/;leaf01:/ - zone=0\n/;spine/ - zone=1\n/;leaf0[234]:/ - zone=2\n' >"$SIM_DIR/split.roles"
printf 'roles split.roles\n' >"$SIM_DIR/split.conf"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/split.conf
routing_engine ffroute,updn"
sim_stop
sim_start "$top_srcdir/fabrics/demo/mini.net" || fail "ibsim did not start (mini, fallback)"
echo "# a stale one" >"$SIM_DIR/dump/ffroute.sl"
sim_opensm || fail "opensm sweep failed with the splitting roles (rc $?)"
[ -e "$SIM_DIR/dump/ffroute.sl" ] && fail "ffroute.sl left beside the next engine's tables"
grep -q "ERR RE05: ffroute: fabric refused by the classification: zones 0 and 2 are not joined" "$log" ||
	fail "no RE05 refusal"
grep -q "ERR RE03: ffroute: pass 1: no LFT written" "$log" || fail "no RE03 fallback message"
grep -q -E "(updn|minhop) tables configured on all switches" "$log" || fail "no fallback engine ran"
grep -q "SUBNET UP" "$log" || fail "subnet did not come up after the fallback"
echo "ok: refusal falls back to the next engine with ERR RE05/RE03"

# ---- 4. a bad configuration -----------------------------------------------------------
printf 'vl_limit 2\nvl_limit lots\n' >"$SIM_DIR/bad.conf"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/bad.conf
routing_engine ffroute,updn"
sim_opensm || fail "opensm sweep failed with a bad configuration (rc $?)"
grep -q "ERR RE08: ffroute: $SIM_DIR/bad.conf:2:10: error: vl_limit must be 1..15, not lots" "$log" ||
	fail "no RE08 file:line:col error for the bad configuration"
grep -q "SUBNET UP" "$log" || fail "subnet did not come up with a bad plugin configuration"
echo "ok: a bad ffroute.conf is reported (RE08) and OpenSM still brings the subnet up"
sim_stop

# ---- 6. a fabric that is not a tree -------------------------------------------------
# a 4 x 4 torus (tests/data/foreign): declined in one line (RE13, no RE03),
# dfsssp routes it; with non_tree route in ffroute.conf ffroute routes it
"$FFROUTE" convert --to net --lossy -o "$SIM_DIR/torus.net" "$top_srcdir/tests/data/foreign/torus.topo" ||
	fail "cannot convert torus.topo"
sim_start "$SIM_DIR/torus.net" || fail "ibsim did not start (torus)"
SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,dfsssp"
sim_opensm || fail "opensm sweep failed on the torus (rc $?)"
grep -q "ERR RE13: ffroute: pass 1: declined, not a tree: 64 of 64 switch-to-switch ports" "$log" ||
	fail "no RE13 decline"
grep -q "ERR RE0[35]" "$log" && fail "a decline logged more than its one line"
grep -q "dfsssp tables configured on all switches" "$log" || fail "dfsssp did not route the torus"
printf 'non_tree route\n' >"$SIM_DIR/torus.conf"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/torus.conf
routing_engine ffroute,dfsssp
qos TRUE"
sim_opensm || fail "opensm sweep failed on the torus with non_tree route (rc $?)"
grep -q "ffroute tables configured on all switches" "$log" || fail "non_tree route: ffroute did not route"
grep -q "ERR RE13" "$log" && fail "non_tree route still declined"
echo "ok: a torus is declined in one line and dfsssp routes it; non_tree route routes it"
sim_stop
echo "PASS: plugin routes the live subnet, falls back safely"

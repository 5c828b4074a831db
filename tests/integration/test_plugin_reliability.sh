#!/bin/sh
# test_plugin_reliability.sh - the plugin inside OpenSM against the second
# red team's scenarios (tests/data/redteam2/README.md), each on ibsim with
# its own IBSIM_SOCKNAME:
#   1. the port holding the highest LID leaves (and comes back): ffroute
#      keeps routing every sweep (no RE07), the live tables are clean, and
#      the healthy tables return;
#   2. VLs OpenSM would drop: max_op_vls 1, or qos FALSE, on two zones:
#      every LID up*/down* in one order on VL 0 (the live tables have no
#      credit loop), RE10 says so, no ffroute.sl is left in the dump folder;
#   3. configuration: a folder, a long comment line, a relative roles path
#      with OpenSM in /, a back-referencing regex (RE08 naming the
#      ffroute.conf line);
#   4. a QoS policy's SL is kept on paths no layer needs another for (SL 6
#      on ff2-bridge-small, whose layers use SLs 0-4); a policy SL that is a
#      layer SL is replaced and RE11 says so;
#   5. an edited ffroute.conf is read again at the next heavy sweep; a pass
#      that then uses one VL removes ffroute.sl; a bad edit keeps the
#      settings.  (A failed pass removing it: test_plugin.sh's fallback.)
# Exit 77 without ibsim/opensm or the plugin.
set -u
. "$top_srcdir/tests/lib/sim.sh"
D=$top_srcdir/tests/data/redteam2
sim_plugin_test
fail() { echo "FAIL: $*"; grep -E 'ffroute|ERR RE|configured' "$log" | tail -20; exit 1; }
wait_pass() { sim_wait_pass "$1" || fail "no ffroute pass $1"; }

# ---- 1. the highest-LID port leaves and returns -------------------------------------
sim_start_console "$top_srcdir/fabrics/demo/mini.net" || fail "ibsim did not start"
SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,minhop
sweep_interval 1"
sim_opensm_bg || fail "no SUBNET UP on mini"
wait_pass 1
top=$(awk 'NF == 3 { print $2 }' "$SIM_DIR/cache/guid2lid" | sort | tail -1)
[ "$top" = 0x000e ] || fail "mini.net's highest LID is $top, expected 0x000e (cn0008)"
sim_run dump_lfts >"$SIM_DIR/healthy.lfts" 2>/dev/null || fail "dump_lfts"
sim_console 'Unlink "leaf04"[2]'	# cn0008's only link
wait_pass 2
sim_console 'Unlink "leaf01"[3]'	# and any later change
wait_pass 3
grep -q "ERR RE" "$log" && fail "an ffroute error while the highest-LID port was gone"
[ "$(grep -c 'ffroute tables configured' "$log")" = 3 ] || fail "ffroute did not route passes 2 and 3"
sim_run "$FFROUTE" check --live --json --no-metrics >"$SIM_DIR/gone.json" 2>/dev/null ||
	fail "live check with the highest-LID port gone: $(head -c 600 "$SIM_DIR/gone.json")"
sim_console 'ReLink "leaf01"[3]'
wait_pass 4
sim_console 'ReLink "leaf04"[2]'
wait_pass 5
sim_run dump_lfts >"$SIM_DIR/back.lfts" 2>/dev/null || fail "dump_lfts"
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/back.lfts" || fail "tables differ once everything came back"
sim_opensm_stop
echo "ok: the highest-LID port left and came back: ffroute routed every pass, tables restored"
sim_console quit
exec 3>&-
sim_stop

# ---- 2. VLs OpenSM would drop ---------------------------------------------------------
sim_start "$top_srcdir/fabrics/ff2-bridge-small.net" || fail "ibsim did not start (ff2)"
for what in "max_op_vls 1" "qos FALSE"; do
	rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
	echo "# stale" >"$SIM_DIR/dump/ffroute.sl"
	SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,updn
qos TRUE
$what"
	sim_opensm || fail "opensm sweep failed with $what"
	grep -q "ERR RE10: ffroute: pass 1: .* leaves 1 VL, too few for this fabric's VL layers: every LID routed up\*/down\* in one order" \
		"$log" || fail "$what: no RE10 naming the one-order routing"
	grep -q "ffroute: pass 1: .* 1 VL, 2 zones" "$log" || fail "$what: the pass did not use 1 VL"
	grep -q "ffroute tables configured" "$log" || fail "$what: ffroute did not install its tables"
	[ -e "$SIM_DIR/dump/ffroute.sl" ] && fail "$what: ffroute.sl left beside a one-VL routing"
	sim_run "$FFROUTE" check --live --json --no-metrics >"$SIM_DIR/onevl.json" 2>/dev/null
	jq -e '.findings.credit_loop.count == 0 and .findings.unreachable.count == 0 and
	       .findings.loop.count == 0 and .findings.blackhole.count == 0' "$SIM_DIR/onevl.json" >/dev/null ||
		fail "$what: the one-order tables have a credit loop or a hole: $(head -c 800 "$SIM_DIR/onevl.json")"
	echo "ok: $what on two zones: one up*/down* order on VL 0, no credit loop, RE10 says so, no ffroute.sl"
done

# ---- 4. QoS policy SLs ------------------------------------------------------------------
lid_of() { awk -v d="$1" 'index($0, "\"" d "\" lid ") { for (i = 1; i <= NF; i++) if ($i == "lid") { print $(i + 1); exit } }' \
	"$SIM_DIR/ff2.topo" 2>/dev/null; }
sl() { sim_run saquery -p --slid "$1" --dlid "$2" 2>/dev/null |
	awk '$1 ~ /^sl\.+0x[0-9a-fA-F]$/ { print index("0123456789abcdef", tolower(substr($1, length($1)))) - 1; exit }'; }
for pol in 6 2; do
	printf 'qos-ulps\n    default : %s\nend-qos-ulps\n' $pol >"$SIM_DIR/qos-policy.conf"
	SIM_OSM_CONF="event_plugin_name ffroute
routing_engine ffroute,updn
qos TRUE
qos_policy_file $SIM_DIR/qos-policy.conf"
	sim_opensm_bg || fail "no SUBNET UP with QoS policy SL $pol"
	"$FFROUTE" convert --to ibnetdiscover -o "$SIM_DIR/ff2.topo" "$SIM_DIR/dump/opensm-subnet.lst" \
		2>/dev/null || fail "convert subnet.lst"
	a=$(lid_of "cn0001 mlx5_0") b=$(lid_of "cn0021 mlx5_0") c=$(lid_of "cn0002 mlx5_0")
	s1=$(sl "$a" "$b") s2=$(sl "$b" "$a") s3=$(sl "$a" "$c")
	sim_opensm_stop
	if [ $pol = 6 ]; then
		[ "$s1" = 2 ] && [ "$s2" = 1 ] && [ "$s3" = 6 ] ||
			fail "policy SL 6: zone0->zone1 '$s1' (want 2), zone1->zone0 '$s2' (want 1), in zone '$s3' (want 6)"
		grep -q "ERR RE11" "$log" && fail "RE11 although SL 6 is free"
	else
		[ "$s1" = 2 ] && [ "$s2" = 1 ] && [ "$s3" = 0 ] ||
			fail "policy SL 2: zone0->zone1 '$s1', zone1->zone0 '$s2', in zone '$s3' (want 2 1 0)"
		grep -q "ERR RE11: ffroute: the QoS policy's SLs 0x0004 are SLs of ffroute's VL layers" "$log" ||
			fail "no RE11 for a policy SL that is a layer SL"
	fi
done
"$FFROUTE" check "$SIM_DIR/dump" --no-metrics >"$SIM_DIR/qos.check" 2>&1 ||
	fail "the tables with a QoS policy fail the check: $(head -20 "$SIM_DIR/qos.check")"
echo "ok: a QoS policy's free SL is kept (SL 6 in a zone, 2/1 across); a clashing one (2) gets RE11"
sim_stop

# ---- 3. configuration mistakes ------------------------------------------------------------
sim_start "$top_srcdir/fabrics/demo/mini.net" || fail "ibsim did not start (mini)"
conf_run() {	# conf_run CONF [dir to start OpenSM in]
	SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $1
routing_engine ffroute,minhop"
	(cd "${2:-.}" && sim_opensm) || fail "opensm sweep failed with $1"
}
mkdir -p "$SIM_DIR/etc"
conf_run "$SIM_DIR/etc"
grep -q "ERR RE08: ffroute: $SIM_DIR/etc: error: is a directory" "$log" || fail "a folder as ffroute.conf: no RE08"
grep -q "routing engine registered" "$log" && fail "the plugin loaded with a folder as ffroute.conf"
{ printf '# '; head -c 8189 /dev/zero | tr '\0' x; printf 'vl_limit 1\n'; } >"$SIM_DIR/etc/long.conf"
conf_run "$SIM_DIR/etc/long.conf"
grep -q "routing engine registered (VL limit 2," "$log" || fail "a long comment line changed a setting"
echo "0x0000000000100001 storage" >"$SIM_DIR/etc/site.roles"
echo "roles site.roles" >"$SIM_DIR/etc/ffroute.conf"
conf_run "$SIM_DIR/etc/ffroute.conf" /
grep -q "ERR RE" "$log" && fail "a relative roles path with OpenSM in /"
grep -q "ffroute tables configured" "$log" || fail "ffroute did not route with a relative roles path"
cp "$D/backref.roles" "$SIM_DIR/etc/site.roles"
conf_run "$SIM_DIR/etc/ffroute.conf"
grep -q "ERR RE08: ffroute: $SIM_DIR/etc/ffroute.conf:1:7: error: cannot use the roles file $SIM_DIR/etc/site.roles" \
	"$log" || fail "a back-reference: no RE08 naming the ffroute.conf line"
grep -q "error: back-reference" "$log" || fail "a back-reference: the roles error is not logged"
echo "ok: configuration: folder and back-reference refused (RE08), long line whole, roles path from the conf's folder"
sim_stop

# ---- 5. an edit is read at the next sweep; a failing pass removes ffroute.sl ---------------
sim_start_console "$top_srcdir/fabrics/ff2-bridge-small.net" || fail "ibsim did not start (ff2)"
rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
echo "vl_limit 2" >"$SIM_DIR/etc/ff2.conf"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/etc/ff2.conf
routing_engine ffroute,updn
qos TRUE
sweep_interval 1"
sim_opensm_bg || fail "no SUBNET UP on ff2"
wait_pass 1
[ -f "$SIM_DIR/dump/ffroute.sl" ] || fail "no ffroute.sl after a 2-VL pass"
printf '# one VL now\nvl_limit 1\n' >"$SIM_DIR/etc/ff2.conf"
sim_console 'Unlink "S-0002c90010000050"[5]'
wait_pass 2
grep -q "ffroute: configuration $SIM_DIR/etc/ff2.conf re-read (VL limit 1, 0 traffic classes)" "$log" || fail "the edit was not read"
grep -q "ffroute: pass 2: .* 1 VL, 2 zones" "$log" || fail "pass 2 did not route within 1 VL"
sleep 1
[ -e "$SIM_DIR/dump/ffroute.sl" ] && fail "ffroute.sl left after a one-VL pass"
printf 'vl_limit 2\nvl_limit lots\n' >"$SIM_DIR/etc/ff2.conf"
sim_console 'ReLink "S-0002c90010000050"[5]'
wait_pass 3
grep -q "ERR RE08: ffroute: $SIM_DIR/etc/ff2.conf changed but cannot be used: keeping the settings" "$log" ||
	fail "a bad edit was not reported"
grep -q "ffroute: pass 3: .* 1 VL, 2 zones" "$log" || fail "pass 3 did not keep vl_limit 1"
printf 'vl_limit 2\n' >"$SIM_DIR/etc/ff2.conf"	# the fix of the bad edit is read
sim_console 'Unlink "S-0002c90010000050"[5]'
wait_pass 4
grep -q "ffroute: pass 4: .* 2 VLs, 2 zones" "$log" || fail "the fixed ffroute.conf was not read"
[ -f "$SIM_DIR/dump/ffroute.sl" ] || fail "no ffroute.sl after the 2-VL pass 4"
sim_opensm_stop
echo "ok: edits read at the next sweep, a bad edit keeps the settings and its fix is read, a one-VL pass removes ffroute.sl"
echo "PASS"

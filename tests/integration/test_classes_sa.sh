#!/bin/sh
# test_classes_sa.sh - traffic classes on SLs and VLs of their own inside
# OpenSM (issue 29), under ibsim, on the small Fire-Flyer 2 fabric (two
# zones: two deadlock layers):
#   1. two classes (collectives SL 1, storage SL 2 by role) x 2 layers:
#      the plugin routes on 4 VLs; the live tables read back with SMPs and
#      judged with the dump's ffroute.sl (every class walked) have no
#      credit loop; tests/tools/vl_cdg.py agrees on the offline run;
#   2. path records asked with no class get the default class's SLs;
#      asked with SL 1 in the query, pairs inside a zone get SL 1 and pairs
#      across zones are refused by OpenSM (ERR 1F2A: the layer needs
#      another SL of the class);
#   3. the VL arbitration tables read back from switch ports and an HCA
#      with SMPs (smpquery vlarb) are the configured weights; the SL2VL
#      rows read back (smpquery sl2vl) keep each class's SLs on its VLs;
#      `check --live --live-vl` reads every switch's SL2VL and VLArb
#      tables itself: judged with them and the dump's SLs, no credit
#      loop, and every cabled switch port's low table is the configured
#      one;
#   4. three classes (other default, collectives, storage by role) on 6
#      VLs, with a QoS policy (qos-class 1 -> QoS level SL 1, as a
#      scheduler's ServiceID or QoS class would be mapped): every pair
#      asked with qos-class 1 gets a collectives SL; asked with no class,
#      pairs with a storage end get storage SLs, the rest the default's;
#   5. vl_limit 2: the plugin refuses (2 classes x 2 layers need 4 VLs),
#      says why, and OpenSM falls back to the next engine.
# Every ibsim has its own IBSIM_SOCKNAME (tests/lib/sim.sh).  Exit 77
# without ibsim/opensm, the plugin or jq.
set -u
. "$top_srcdir/tests/lib/sim.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
sim_plugin_test
fail() { echo "FAIL: $*"; grep -i -E "ffroute|ERR" "$log" | cut -c1-300 | sort -k5 | uniq -f4 -c | head -30; exit 1; }

net=$top_srcdir/fabrics/ff2-bridge-small.net
cat >"$SIM_DIR/ffroute.conf" <<EOF
class other sl 0 weight 16 default
class collectives sl 1 weight 64
class storage sl 2 weight 32 roles storage
EOF
printf 'class collectives sl 1 weight 64\nclass storage sl 2 weight 32 roles storage default\n' \
	>"$SIM_DIR/two.conf"
cat >"$SIM_DIR/qos-policy.conf" <<EOF
qos-levels
	qos-level
		name: default
		sl: 0
	end-qos-level
	qos-level
		name: collectives
		sl: 1
	end-qos-level
end-qos-levels
qos-match-rules
	qos-match-rule
		qos-class: 1
		qos-level-name: collectives
	end-qos-match-rule
end-qos-match-rules
EOF

# ---- 1. two classes x two layers: 4 VLs, no credit loop --------------------------
"$FFROUTE" route "$net" -o "$SIM_DIR/off" --classes "$SIM_DIR/two.conf" -q ||
	fail "offline route with two classes"
grep -q "^qos_max_vls 4$" "$SIM_DIR/off/ffroute.vlarb" ||
	fail "offline: not 4 VLs: $(cat "$SIM_DIR/off/ffroute.vlarb")"
python3 "$top_srcdir/tests/tools/vl_cdg.py" "$SIM_DIR/off" >"$SIM_DIR/vlcdg.out" ||
	fail "independent per-VL CDG: $(cat "$SIM_DIR/vlcdg.out")"
grep -q "classes 2 vls 4 " "$SIM_DIR/vlcdg.out" || fail "vl_cdg: $(cat "$SIM_DIR/vlcdg.out")"
echo "ok: offline: 2 classes x 2 layers on 4 VLs; vl_cdg.py: $(cat "$SIM_DIR/vlcdg.out")"

sim_start "$net" || fail "ibsim did not start"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/two.conf
routing_engine ffroute,minhop
qos TRUE"
sim_opensm_bg || fail "OpenSM did not bring the subnet up"
grep -q "ffroute tables configured on all switches" "$log" || fail "ffroute did not route it"
grep -q "ffroute: pass 1: .* 4 VLs" "$log" || fail "the plugin did not use 4 VLs"
grep "ffroute: pass 1: class" "$log" | sed 's/^.*ffroute: /  /'
sim_run "$FFROUTE" check --live --json --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
	--sl2vl "$SIM_DIR/dump/opensm-sl2vl.dump" >"$SIM_DIR/live.json" 2>"$SIM_DIR/live.err" ||
	fail "check --live: $(cat "$SIM_DIR/live.err") $(grep -E '"count": [1-9]' "$SIM_DIR/live.json" | head -c 600)"
jq -e '.findings.credit_loop.count == 0' "$SIM_DIR/live.json" >/dev/null || fail "live credit loops"
grep -c "^class " "$SIM_DIR/dump/ffroute.sl" | grep -q "^2$" || fail "ffroute.sl lacks the classes"
echo "ok: the plugin's live tables, judged with both classes' SLs: no credit loop"

# ---- 2. path records -------------------------------------------------------------------
"$FFROUTE" convert --to ibnetdiscover -o "$SIM_DIR/live.topo" "$SIM_DIR/dump/opensm-subnet.lst" \
	2>/dev/null || fail "convert subnet.lst"
awk '/^(Ca|Hca)/ { split($0, q, "\""); name = q[4] }
	/^\[1\]/ && name != "" { gsub(/ /, "_", name); for (i = 1; i < NF; i++) if ($i == "lid") { print $(i + 1), name; break }
		name = "" }' "$SIM_DIR/live.topo" >"$SIM_DIR/cas"
# zone of a CA by its leaf's description (MF0;zone0 / zone1); storage ends: st*
sls=$(grep "ffroute: pass 1: class collectives" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/')
ssls=$(grep "ffroute: pass 1: class storage" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/')
[ -n "$sls" ] && [ -n "$ssls" ] || fail "class SLs not logged"
in_set() { case ",$2," in *",$1,"*) return 0 ;; esac; return 1; }
head -12 "$SIM_DIR/cas" >"$SIM_DIR/cas12"
tail -4 "$SIM_DIR/cas" >>"$SIM_DIR/cas12"
pairs() { while read -r s sn; do while read -r d dn; do [ "$s" = "$d" ] || echo "$s $sn $d $dn"
	done <"$SIM_DIR/cas12"; done <"$SIM_DIR/cas12"; }
n=0 bad=0 inzone=0 refused=0
pairs >"$SIM_DIR/pairs"
while read -r s sn d dn; do
	n=$((n + 1))
	u=$(sim_pr_sl "$s" "$d")
	in_set "$u" "$ssls" || { bad=$((bad + 1)); echo "  $sn -> $dn: SL $u, not the default (storage)"; }
	x=$(sim_pr_sl "$s" "$d" --sl 1)
	if [ "$x" = 1 ]; then inzone=$((inzone + 1)); elif [ "$x" = none ]; then refused=$((refused + 1))
	else bad=$((bad + 1)); echo "  --sl 1 $sn -> $dn: SL $x"; fi
done <"$SIM_DIR/pairs"
[ "$bad" = 0 ] || fail "$bad path record(s) off their class"
[ "$inzone" -gt 0 ] && [ "$refused" -gt 0 ] || fail "--sl 1: $inzone granted, $refused refused"
grep -q "ERR 1F2A" "$log" || fail "no ERR 1F2A for the refused --sl 1 queries"
echo "ok: path records of $n pairs asked with no class: the default class (storage: SLs $ssls); asked with SL 1 in the query: $inzone granted (inside a zone), $refused refused by OpenSM, ERR 1F2A (across zones: the layer needs another SL of the class)"

# ---- 3. SL2VL and VLArb read back ----------------------------------------------------
want=$(sed -n 's/^qos_vlarb_low //p' "$SIM_DIR/off/ffroute.vlarb")
sw=$(awk '/^Switch/ { for (i = 1; i <= NF; i++) if ($i == "lid") { print $(i + 1); exit } }' "$SIM_DIR/live.topo")
ca=$(head -1 "$SIM_DIR/cas" | cut -d' ' -f1)
[ "$want" = "0:64,1:64,2:32,3:32" ] || fail "offline qos_vlarb_low: $want"
for at in "$sw 1" "$sw 2" "$ca"; do
	# shellcheck disable=SC2086
	got=$(sim_vlarb_low $at)
	[ "$got" = "$want" ] || fail "VL arbitration of LID/port $at: $got, configured $want"
done
# every SL2VL row out of 3 switch ports and of an HCA: collectives' SLs on VLs 0-1, storage's on 2-3
for at in "$sw 1" "$sw 2" "$sw 3" "$ca"; do	# smpquery sl2vl LID [OUT]: every input port's row
	# shellcheck disable=SC2086
	sim_run smpquery sl2vl $at >"$SIM_DIR/sl2vl.at" 2>/dev/null || fail "smpquery sl2vl $at"
	awk -F'|' -v c="$sls" -v s="$ssls" '
		BEGIN { nc = split(c, C, ","); ns = split(s, S, ",") }
		/^ports:/ { rows++; for (i = 1; i <= nc; i++) { v = $(C[i] + 2) + 0; if (v > 1) bad++ }
			for (i = 1; i <= ns; i++) { v = $(S[i] + 2) + 0; if (v < 2 || v > 3) bad++ } }
		END { exit !(rows > 0 && !bad) }' "$SIM_DIR/sl2vl.at" ||
		fail "SL2VL of $at off the classes' VLs: $(head -5 "$SIM_DIR/sl2vl.at")"
	cat "$SIM_DIR/sl2vl.at" >>"$SIM_DIR/sl2vl.all"
done
echo "ok: read back with SMPs: VL arbitration $want on switch ports and an HCA; $(grep -c '^ports:' "$SIM_DIR/sl2vl.all") SL2VL rows out of 3 switch ports and an HCA keep each class on its VLs"
sim_run "$FFROUTE" check --live --live-vl --json --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
	>"$SIM_DIR/livevl.json" 2>"$SIM_DIR/livevl.err" ||
	fail "check --live --live-vl: $(cat "$SIM_DIR/livevl.err") $(grep -E '"count": [1-9]' "$SIM_DIR/livevl.json" | head -c 600)"
jq -e '.findings.credit_loop.count == 0' "$SIM_DIR/livevl.json" >/dev/null ||
	fail "credit loops with the switches' own SL2VL"
jq -e --arg w "$want" '(.vlarb_live | length) == 1 and (.vlarb_live[0] | test(" low " + $w + " high "))' \
	"$SIM_DIR/livevl.json" >/dev/null || fail "VL arbitration read by check: $(jq -c .vlarb_live "$SIM_DIR/livevl.json")"
sim_run "$FFROUTE" check --live --json --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
	>"$SIM_DIR/livenovl.json" 2>/dev/null
nl=$(jq '.findings.credit_loop.count' "$SIM_DIR/livenovl.json")
[ "${nl:-0}" -gt 0 ] || fail "without the SL2VL tables the same routes should close a loop on one VL"
echo "ok: check --live --live-vl: the switches' own SL2VL tables, no credit loop (without them, on one VL: $nl); VL arbitration $(jq -r '.vlarb_live[0]' "$SIM_DIR/livevl.json")"
sim_opensm_stop

# ---- 4. three classes, the class from a QoS level or from the role ---------------------
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/ffroute.conf
routing_engine ffroute,minhop
qos TRUE
qos_policy_file $SIM_DIR/qos-policy.conf"
sim_opensm_bg || fail "OpenSM did not bring the subnet up (three classes)"
grep -q "ffroute: pass 1: .* 6 VLs" "$log" || fail "three classes: not 6 VLs"
sls=$(grep "ffroute: pass 1: class collectives" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/')
ssls=$(grep "ffroute: pass 1: class storage" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/')
osls=$(grep "ffroute: pass 1: class other" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/')
n=0 bad=0
while read -r s sn d dn; do
	n=$((n + 1))
	q=$(sim_pr_sl "$s" "$d" -Q 1)
	in_set "$q" "$sls" || { bad=$((bad + 1)); echo "  qos-class 1 $sn -> $dn: SL $q"; }
	u=$(sim_pr_sl "$s" "$d")
	case "$sn $dn" in
	*st[0-9]*) in_set "$u" "$ssls" || { bad=$((bad + 1)); echo "  $sn -> $dn: SL $u, not storage"; } ;;
	*) in_set "$u" "$osls" || { bad=$((bad + 1)); echo "  $sn -> $dn: SL $u, not other"; } ;;
	esac
done <"$SIM_DIR/pairs"
[ "$bad" = 0 ] || fail "$bad path record(s) off their class"
echo "ok: three classes on 6 VLs; path records of $n pairs: qos-class 1 (a QoS level with SL 1) -> collectives (SLs $sls); no class -> storage (SLs $ssls) when an end is a storage HCA, else other (SLs $osls)"
sim_opensm_stop

# ---- 5. vl_limit 2: refused, OpenSM falls back ------------------------------------------
printf 'vl_limit 2\n' >>"$SIM_DIR/two.conf"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/two.conf
routing_engine ffroute,minhop
qos TRUE"
sim_opensm_bg || fail "OpenSM did not bring the subnet up (vl_limit 2)"
grep -q "traffic classes: 2 classes x 2 VLs of deadlock layers need 4 VLs, the limit is 2" "$log" ||
	fail "no reason for the refusal"
grep -q "ERR RE03: ffroute: pass 1: no LFT written; OpenSM falls back" "$log" || fail "no fallback"
grep -q "minhop tables configured on all switches" "$log" || fail "minhop did not route it"
echo "ok: vl_limit 2: $(grep -o 'traffic classes: 2 classes x 2 VLs[^(]*' "$log" | head -1); OpenSM fell back to minhop"
sim_opensm_stop
sim_stop
echo "PASS: traffic classes inside OpenSM"
exit 0

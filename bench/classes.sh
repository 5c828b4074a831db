#!/bin/sh
# bench/classes.sh [BUILDDIR] - traffic classes (issue 29) inside OpenSM on
# the full Fire-Flyer 2 fabric (fabrics/ff2-bridge-full.net: two zones,
# 1,568 CAs), under ibsim.  Per configuration, one OpenSM 3.3.23 sweep
# with the plugin (qos TRUE, a QoS policy mapping qos-class 1 to SL 1):
# which engine's tables were installed, the VLs, the pass time, the live
# tables read back with SMPs and judged with the dump's SLs, every class
# walked (credit loops per VL); path records of 300 seeded CA pairs asked
# with qos-class 1 (collectives expected) and with no class (storage
# expected when an end is a storage HCA, else the default class); the VL
# arbitration and SL2VL tables of 24 seeded ports read back with SMPs
# against the configuration.  dfsssp on the same fabric for comparison
# (the VLs its layers take; it has no classes).  A markdown table on
# stdout (bench/classes.md keeps the last one).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
ff=$build/tools/ffroute
. "$top/tests/lib/sim.sh"
sim_bench_start "$build"
log=$SIM_DIR/opensm.log
net=$top/fabrics/ff2-bridge-full.net
fail() { echo "classes: $*" >&2; exit 1; }

printf 'class collectives sl 1 weight 64\nclass storage sl 2 weight 32 roles storage default\n' \
	>"$SIM_DIR/two.conf"
printf 'class other sl 0 weight 32 default\nclass collectives sl 1 weight 64 roles sharp\nclass storage sl 2 weight 64 roles storage\nclass management sl 3 weight 16 roles mgmt,switch\n' \
	>"$SIM_DIR/four.conf"
{ cat "$SIM_DIR/two.conf"; echo "vl_limit 2"; } >"$SIM_DIR/two-vl2.conf"
printf 'qos-levels\n\tqos-level\n\t\tname: default\n\t\tsl: 0\n\tend-qos-level\n\tqos-level\n\t\tname: collectives\n\t\tsl: 1\n\tend-qos-level\nend-qos-levels\nqos-match-rules\n\tqos-match-rule\n\t\tqos-class: 1\n\t\tqos-level-name: collectives\n\tend-qos-match-rule\nend-qos-match-rules\n' \
	>"$SIM_DIR/qos-policy.conf"

class_sls() { grep "ffroute: pass 1: class $1" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/'; }
in_set() { case ",$2," in *",$1,"*) return 0 ;; esac; return 1; }

echo "| configuration | routed by | VLs | pass | live credit loops (every class) | qos-class 1 -> collectives | no class -> storage, management (mg*), else default | VLArb read back | SL2VL rows read back (cabled input ports) on their class's VLs |"
echo "|---|---|---|---|---|---|---|---|---|"
for cfg in ${CONFIGS:-two four two-vl2 dfsssp}; do
	sim_start "$net" || fail "ibsim did not start"
	if [ "$cfg" = dfsssp ]; then
		SIM_OSM_CONF="routing_engine dfsssp
qos TRUE"
	else
		SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/$cfg.conf
routing_engine ffroute,minhop
qos TRUE
qos_policy_file $SIM_DIR/qos-policy.conf"
	fi
	SIM_OSM_TIMEOUT=1800
	sim_opensm_bg || fail "no SUBNET UP ($cfg)"
	by=$(grep -o "[a-zA-Z0-9_-]* tables configured on all switches" "$log" | tail -1 |
		awk '{ print $1 }')
	if [ "$by" != ffroute ]; then
		vls=$(grep -o "Virtual Lanes needed: [0-9]*" "$log" | head -1)
		why=$(grep -o "traffic classes: [^(;]*" "$log" | head -1)
		echo "| $cfg | $by | ${vls:--} | - | ${why:--} | - | - | - | - |"
		sim_opensm_stop
		sim_stop
		continue
	fi
	vls=$(grep -o "ffroute: pass 1: .* \([0-9]*\) VLs" "$log" | sed 's/.* \([0-9]*\) VLs$/\1/' | head -1)
	secs=$(grep "ffroute: pass 1:" "$log" | grep -o "[0-9.]* s$" | head -1)
	sim_run "$ff" check --live --json --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
		--sl2vl "$SIM_DIR/dump/opensm-sl2vl.dump" >"$SIM_DIR/live.json" 2>/dev/null || true
	loops=$(jq '.findings.credit_loop.count' "$SIM_DIR/live.json")
	csls=$(class_sls collectives)
	ssls=$(class_sls storage)
	dsls=$(grep "ffroute: pass 1: class .* (default)" "$log" | sed 's/.*SLs \([0-9,]*\),.*/\1/')
	msls=$(class_sls management)
	"$ff" convert --to ibnetdiscover -o "$SIM_DIR/live.topo" "$SIM_DIR/dump/opensm-subnet.lst" \
		2>/dev/null || fail "convert"
	awk '/^(Ca|Hca)/ { split($0, q, "\""); name = q[4] }
		/^\[1\]/ && name != "" { gsub(/ /, "_", name); for (i = 1; i < NF; i++) if ($i == "lid") { print $(i + 1), name; break }
			name = "" }' "$SIM_DIR/live.topo" >"$SIM_DIR/cas"
	awk 'BEGIN { srand(29) } { l[NR] = $0 } END { for (i = 0; i < 300; i++) {
		a = l[int(rand() * NR) + 1]; b = l[int(rand() * NR) + 1]; if (a != b) print a, b } }' \
		"$SIM_DIR/cas" >"$SIM_DIR/pairs"
	n=0 qok=0 uok=0
	while read -r s sn d dn; do
		n=$((n + 1))
		q=$(sim_pr_sl "$s" "$d" -Q 1)
		in_set "$q" "$csls" && qok=$((qok + 1))
		u=$(sim_pr_sl "$s" "$d")
		want=$dsls	# the destination's role first, then the source's (route_path_class)
		for end in "$sn" "$dn"; do
			case "$end" in st[0-9]*) want=$ssls ;; mg[0-9]*) want=${msls:-$want} ;; esac
		done
		in_set "$u" "$want" && uok=$((uok + 1))
	done <"$SIM_DIR/pairs"
	"$ff" route "$net" -q -o "$SIM_DIR/off" --classes "$SIM_DIR/$cfg.conf" 2>/dev/null ||
		fail "offline route ($cfg)"
	want=$(sed -n 's/^qos_vlarb_low //p' "$SIM_DIR/off/ffroute.vlarb")
	awk '/^Switch/ { for (i = 1; i <= NF; i++) if ($i == "lid") l = $(i + 1) }
		/^(Ca|Hca)/ { l = "" }
		/^\[[0-9]+\]/ && l { p = $1; gsub(/[^0-9]/, "", p); print l, p }' "$SIM_DIR/live.topo" >"$SIM_DIR/cabled"
	<"$SIM_DIR/cabled" \
		awk 'BEGIN { srand(7) } { l[NR] = $0 } END { for (i = 0; i < 20; i++) print l[int(rand() * NR) + 1] }' \
		>"$SIM_DIR/ports"
	head -4 "$SIM_DIR/cas" | awk '{ print $1 }' >>"$SIM_DIR/ports"
	vok=0 vn=0 rows=0 rbad=0
	while read -r at; do
		vn=$((vn + 1))
		# shellcheck disable=SC2086
		got=$(sim_vlarb_low $at)
		if [ "$got" = "$want" ]; then vok=$((vok + 1))
		else echo "classes: $cfg: VL arbitration of LID/port $at: $got" >&2; fi
		# shellcheck disable=SC2086
		sim_run smpquery sl2vl $at >"$SIM_DIR/sl2vl" 2>/dev/null || continue
		set -- $(awk -F'|' -v map="$(grep '^class ' "$SIM_DIR/off/ffroute.sl" | awk '{ print $2 }' | tr '\n' ' ')" \
			-v vpc="$(($(sed -n 's/^qos_max_vls //p' "$SIM_DIR/off/ffroute.vlarb") / $(grep -c '^class ' "$SIM_DIR/off/ffroute.sl")))" \
			-v f="$SIM_DIR/off/ffroute.vlarb" -v cab="$SIM_DIR/cabled" -v lid="${at%% *}" '
			BEGIN { k = 0; while ((getline line < f) > 0) if (line ~ /^# class /) {
				sub(/.*: SLs /, "", line); sub(/,.*/, "", line); n = split(line, a, " ")
				for (i = 1; i <= n; i++) cls[a[i]] = k; k++ }
				while ((getline line < cab) > 0) { split(line, b, " "); up[b[1] " " b[2]] = 1 } }
			/^ports:/ { split($1, q, /[ ,:]+/); inp = q[3]
				if (inp != 0 && !((lid " " inp) in up) && lid in sw) next }
			/^# SL2VL table: Lid/ { for (x in up) { split(x, c, " "); sw[c[1]] = 1 } }
			/^ports:/ { r++; for (sl = 0; sl < 16; sl++) if (sl in cls) { v = $(sl + 2) + 0
				if (int(v / vpc) != cls[sl]) { bad++; break } } }
			END { print r + 0, bad + 0 }' "$SIM_DIR/sl2vl")
		rows=$((rows + $1)) rbad=$((rbad + $2))
	done <"$SIM_DIR/ports"
	echo "| $cfg | $by | $vls | $secs | $loops | $qok of $n | $uok of $n | $vok of $vn ports ($want) | $((rows - rbad)) of $rows |"
	sim_opensm_stop
	sim_stop
done

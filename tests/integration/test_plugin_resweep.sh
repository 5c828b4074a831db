#!/bin/sh
# test_plugin_resweep.sh - faults between sweeps: OpenSM (background, one
# sweep a second) with the ffroute plugin on fabrics/demo/mini.net; ibsim's
# console (fed through a FIFO) takes a link down and brings it back, then a
# whole spine.  After every change the next heavy sweep must be routed by
# ffroute again ("ffroute: pass N", "ffroute tables configured"), log how
# many LFT blocks changed (> 0 after a change), and the tables read back
# from the switches (ffroute check --live) must have no hard finding.
# A host that goes away moves no other destination's entry; when it is
# back, the tables are the healthy ones.  A link or a spine that fails
# is routed incrementally (the healthy routes it left intact are kept),
# its verification judging the changed LIDs alone (fewer than all);
# when it is back, the tables are the healthy ones too.
# Without the spine, its routes move to the other one; with it back, the
# routing is the original one again (identical tables).  A host away, then
# a link too, then the host back: the tables of the link down alone, byte
# for byte; all back: the healthy ones.  Then ffroute.conf says
# "incremental off" (re-read at the next sweep): the link down again is
# routed from scratch ("incremental off in ffroute.conf"), into other
# tables than the merge's (so the comparisons here can tell them apart),
# and back up from scratch too, the healthy tables byte for byte.
# Incremental on again, the link down is merged (the first tables again);
# OpenSM's console "reroute" (loopback console, a free port) then routes
# it from scratch: the from-scratch tables; back: healthy.
# Under valgrind (VALGRIND=1, as in .ci/run's soak): no leak or error with a
# plugin frame.  Exit 77 without ibsim/opensm/plugin.
set -u
. "$top_srcdir/tests/lib/sim.sh"
sim_plugin_test
cd "$SIM_DIR" || exit 1
fail() { echo "FAIL: $*"; grep -i -E 'ffroute|ERR' "$log" | tail -20; exit 1; }

sim_start_console "$top_srcdir/fabrics/demo/mini.net" || fail "ibsim did not start"
sim_cmd() { sim_console "$@"; sleep 0.5; }

vg=
[ -n "${VALGRIND:-}" ] && vg="valgrind --leak-check=full --show-leak-kinds=definite --log-file=$SIM_DIR/vg.%p"
echo "# ffroute.conf: defaults" >"$SIM_DIR/ff.conf"
# OpenSM's console on a free loopback port: its reroute command
cport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
	fail "no free loopback port for OpenSM's console"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/ff.conf
routing_engine ffroute,minhop
console loopback
console_port $cport
sweep_interval 1"
if [ -n "$vg" ]; then
	# valgrind runs opensm itself: wrap the binary the helper starts
	mkdir -p "$SIM_DIR/bin"
	printf '#!/bin/sh\nexec %s /usr/sbin/opensm "$@"\n' "$vg" >"$SIM_DIR/bin/opensm"
	chmod +x "$SIM_DIR/bin/opensm"
	PATH=$SIM_DIR/bin:$PATH
fi
sim_opensm_bg || fail "OpenSM did not bring the subnet up"

wait_pass() { sim_wait_pass "$1" || fail "no ffroute pass $1 after the change"; }
live_ok() {	# live_ok LABEL: the switches' tables have no hard finding
	sim_run "$FFROUTE" check --live --json --no-metrics >"$SIM_DIR/$1.json" 2>"$SIM_DIR/$1.err" ||
		fail "$1: live check: $(head -c 600 "$SIM_DIR/$1.json") $(tail -2 "$SIM_DIR/$1.err")"
	sim_run dump_lfts >"$SIM_DIR/$1.lfts" 2>/dev/null || fail "$1: dump_lfts"
}
changed() {	# changed N: blocks changed reported by pass N
	grep "ffroute: pass $1:" "$log" | sed -E 's/.*ffroute: pass [0-9]+: [0-9]+ LFT entries, ([0-9]+) blocks changed.*/\1/' | tail -1
}
entries() {	# entries N: entries changed reported by pass N
	grep "ffroute: pass $1:" "$log" | sed -E 's/.*ffroute: pass [0-9]+: ([0-9]+) LFT entries.*/\1/' | tail -1
}

wait_pass 1
live_ok healthy
# a host reboots: no other destination's entry moves (its place is kept),
# and when it is back the tables are the healthy ones again
lid=$(grep "'cn0001 " "$SIM_DIR/healthy.lfts" | head -1 | cut -d' ' -f1)
[ -n "$lid" ] || fail "no LID of cn0001 in the healthy tables"
sim_cmd 'Unlink "leaf01"[1]'
wait_pass 2
live_ok host-down
moved=$(diff "$SIM_DIR/healthy.lfts" "$SIM_DIR/host-down.lfts" | grep '^[<>] 0x' |
	grep -v "^[<>] $lid " | wc -l)
[ "$moved" -eq 0 ] || fail "a host went away and $moved entries of other destinations moved: \
$(diff "$SIM_DIR/healthy.lfts" "$SIM_DIR/host-down.lfts" | head -8)"
sim_cmd 'ReLink "leaf01"[1]'
wait_pass 3
live_ok host-up
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/host-up.lfts" || fail "tables after the host came back differ"
sim_cmd 'Unlink "leaf01"[3]'
wait_pass 4
[ "$(changed 4)" -gt 0 ] || fail "pass 4 changed no LFT block after a link went down"
live_ok link-down
sim_cmd 'ReLink "leaf01"[3]'
wait_pass 5
live_ok link-up
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/link-up.lfts" || fail "tables after the link came back differ"
sim_cmd 'Unlink "spine02"'
wait_pass 6
[ "$(changed 6)" -gt 0 ] || fail "pass 6 changed no LFT block after a spine went down"
live_ok spine-down
sim_cmd 'ReLink "spine02"'
wait_pass 7
live_ok spine-up
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/spine-up.lfts" || fail "tables after the spine came back differ"
grep -q "ffroute: pass 6: .* incremental (LIDs kept" "$log" ||
	fail "pass 6 (a spine down) was not incremental: $(grep 'ffroute: pass 6' "$log")"
# the link and the spine down: the verification judged the changed LIDs
# alone (chk_trace.c), the spine against the trace the healed pass 5 kept
for n in 4 6; do
	line=$(grep "ffroute: pass $n: " "$log" | tail -1)
	lids=$(echo "$line" | sed -E 's/.* ([0-9]+) LIDs, .*/\1/')
	ver=$(echo "$line" | sed -nE 's/.*, verified ([0-9]+)\).*/\1/p')
	[ -n "$ver" ] && [ "$ver" -gt 0 ] && [ "$ver" -lt "$lids" ] ||
		fail "pass $n did not judge the changed LIDs alone: $line"
done
# history: cn0003 away, then the link leaf01-spine01 too, then cn0003
# back: the tables of the link down alone (pass 4), whatever came between
# (not forced: routed from scratch, that fabric's tables differ, below)
sim_cmd 'Unlink "leaf02"[1]'
wait_pass 8
sim_cmd 'Unlink "leaf01"[3]'
wait_pass 9
sim_cmd 'ReLink "leaf02"[1]'
wait_pass 10
live_ok link-down-again
cmp -s "$SIM_DIR/link-down.lfts" "$SIM_DIR/link-down-again.lfts" ||
	fail "the link down after the host came back: not the tables of the link down alone"
sim_cmd 'ReLink "leaf01"[3]'
wait_pass 11
live_ok link-up-again
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/link-up-again.lfts" ||
	fail "everything back after host and link overlapped: not the healthy tables"
echo "ok: a host and a link down overlapping, the host back: the link-alone tables; all back: healthy"
# incremental off: the link down routed from scratch, other tables than
# the merge's (pass 4); back up: the healthy tables
echo "incremental off" >"$SIM_DIR/ff.conf"
sim_cmd 'Unlink "leaf01"[3]'
wait_pass 12
grep -q "ffroute: pass 12: incremental off in ffroute.conf: routed from scratch" "$log" &&
	grep "ffroute: pass 12: [0-9]" "$log" | grep -q "from scratch" ||
	fail "pass 12 (incremental off): $(grep 'ffroute: pass 12' "$log")"
live_ok link-down-scratch
cmp -s "$SIM_DIR/link-down.lfts" "$SIM_DIR/link-down-scratch.lfts" &&
	fail "the link down from scratch: the merged tables (the test would not tell them apart)"
sim_cmd 'ReLink "leaf01"[3]'
wait_pass 13
live_ok link-up-scratch
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/link-up-scratch.lfts" ||
	fail "from scratch on the healed fabric: not the healthy tables"
echo "ok: incremental off: a link down and up routed from scratch (entries/blocks $(entries 12)/$(changed 12)), the healthy tables again"
# incremental on again: the link down is merged into the base (pass 4's
# tables); OpenSM's console "reroute" (a pass with no heavy sweep) routes
# it from scratch (pass 12's); back up: the healthy ones
echo "# ffroute.conf: defaults" >"$SIM_DIR/ff.conf"
sim_cmd 'Unlink "leaf01"[3]'
wait_pass 14
live_ok link-down-merged
grep -q "ffroute: pass 14: .* incremental (LIDs kept" "$log" &&
	cmp -s "$SIM_DIR/link-down.lfts" "$SIM_DIR/link-down-merged.lfts" ||
	fail "pass 14 (incremental on again): $(grep 'ffroute: pass 14' "$log")"
python3 - "$cport" <<'PY' || fail "OpenSM's console (loopback port $cport) did not take reroute: $(grep -i console "$log" | tail -2)"
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
time.sleep(0.5)
s.sendall(b"reroute\n")
time.sleep(0.5)
s.sendall(b"quit\n")
s.close()
PY
wait_pass 15
grep -q "ffroute: pass 15: OpenSM's reroute (a pass with no heavy sweep): routed from scratch" "$log" &&
	grep "ffroute: pass 15: [0-9]" "$log" | grep -q "from scratch" ||
	fail "pass 15 (console reroute): $(grep 'ffroute: pass 15' "$log")"
live_ok link-down-reroute
cmp -s "$SIM_DIR/link-down-scratch.lfts" "$SIM_DIR/link-down-reroute.lfts" ||
	fail "console reroute of the link down: not the from-scratch tables"
sim_cmd 'ReLink "leaf01"[3]'
wait_pass 16
live_ok link-up-reroute
cmp -s "$SIM_DIR/healthy.lfts" "$SIM_DIR/link-up-reroute.lfts" ||
	fail "after the console reroute, the link back: not the healthy tables"
echo "ok: console reroute: the link down routed from scratch (pass 15), back up: the healthy tables"
grep -q "ERR RE" "$log" && fail "an ffroute error was logged"
echo "ok: host, link and spine down/up: re-routed each time (LFT entries/blocks changed: \
$(entries 2)/$(changed 2), $(entries 3)/$(changed 3), $(entries 4)/$(changed 4), \
$(entries 5)/$(changed 5), $(entries 6)/$(changed 6), $(entries 7)/$(changed 7)), live tables clean"
sim_opensm_stop
echo quit >&3
exec 3>&-
if [ -n "$vg" ]; then
	sleep 2
	if grep -l -E "definitely lost|Invalid (read|write)" "$SIM_DIR"/vg.* 2>/dev/null |
	   xargs -r grep -l -E "libffroute|osm_ffroute|route_|cls_|chk_" >/dev/null 2>&1; then
		grep -h -B2 -A12 -E "definitely lost|Invalid" "$SIM_DIR"/vg.* | head -60
		fail "valgrind reports a plugin leak or error"
	fi
	echo "ok: valgrind: no leak or error in the plugin over 16 sweeps"
fi
echo "PASS"

#!/bin/sh
# test_route_file_engine.sh - the dumps `ffroute route` writes are loadable:
# OpenSM's own `file` routing engine (routing_engine file, lfts_file)
# installs ffroute's opensm-lfts.dump into ibsim's switches, and
# `ffroute check --live` (LFTs read back from the switches with SMPs)
# finds the same routing, entry for entry by destination port
# (`ffroute diff` exits 0), with no hard finding.
#
# For each fabric (default: ff2-bridge-small, rail2-small, frame-director-small):
#   1. ffroute route FABRIC -o R (LIDs assigned offline in GUID order);
#   2. ibsim (own IBSIM_SOCKNAME) + one OpenSM sweep with the file engine:
#      OpenSM assigns its own LIDs and the file engine remaps every entry
#      by the destination port GUID the dump names;
#   3. the log says the file engine configured the tables;
#   4. ffroute check --live --json with R's ffroute.sl and
#      opensm-sl2vl.dump (the SL dump names each LID's port, so it is
#      remapped to OpenSM's LIDs like the LFTs): no hard finding, no credit
#      loop per VL; ffroute diff between R and the tables read from the
#      switches (dump_lfts): no LFT difference.
# Then the compact dump (route --lfts-compact: no comment after each row's
# port, so nothing to remap LIDs by): routed from the subnet.lst of an
# OpenSM run with minhop (OpenSM's own LIDs), loaded by a second OpenSM run
# with the file engine over minhop's tables; the switches then hold
# ffroute's tables (diff exits 0), which differ from minhop's (diff exits 1).
# Exit 77 without ibsim/opensm/jq.  SIM_KEEP=1 keeps the work directory.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/lib/sim.sh"

sim_require
FFROUTE=${FFROUTE:-$top_builddir/tools/ffroute}
[ -x "$FFROUTE" ] || { echo "SKIP: $FFROUTE not built"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
"$FFROUTE" check --help 2>&1 | grep -q -- --live || { echo "SKIP: no --live"; exit 77; }

FABRICS=${FABRICS:-"ff2-bridge-small rail2-small frame-director-small"}
sim_workdir
cd "$SIM_DIR" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for f in $FABRICS; do
	net=$top_srcdir/fabrics/$f.net
	R=$SIM_DIR/$f
	"$FFROUTE" route "$net" -o "$R" -q 2>"$SIM_DIR/$f.route.err" ||
		{ bad "$f: ffroute route: $(cat "$SIM_DIR/$f.route.err")"; continue; }
	rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
	sim_start "$net" || { bad "$f: ibsim did not start"; continue; }
	SIM_OSM_CONF="routing_engine file
lfts_file $R/opensm-lfts.dump"
	sim_opensm || bad "$f: OpenSM with the file engine failed: $(tail -3 "$SIM_DIR/opensm.out")"
	grep -q "file tables configured on all switches" "$SIM_DIR/opensm.log" ||
		bad "$f: the file engine did not configure the tables: $(grep ERR "$SIM_DIR/opensm.log" | head -3)"
	vl=
	[ -f "$R/ffroute.sl" ] && vl="--sl $R/ffroute.sl --sl2vl $R/opensm-sl2vl.dump"
	# Sanitizer builds: umad2sim comes before the ASan runtime and over-reads
	# its own buffers (see test_check_engines.sh); libibnetdisc leaks.
	# shellcheck disable=SC2086
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:replace_intrin=0" \
	LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/data/engines/lsan.supp" \
		sim_run "$FFROUTE" check --live --json --no-metrics $vl >"$SIM_DIR/$f.live.json" \
		2>"$SIM_DIR/$f.live.err"
	rc=$?
	[ $rc -eq 0 ] || bad "$f: check --live exit $rc: $(head -3 "$SIM_DIR/$f.live.err")"
	jq -e '.hard_findings == 0 and .findings.unreachable.count == 0' "$SIM_DIR/$f.live.json" \
		>/dev/null || bad "$f: live tables have hard findings: $(jq -c .findings "$SIM_DIR/$f.live.json")"
	# the same routing as the one written: compare by destination port
	sim_run dump_lfts >"$SIM_DIR/$f.dump_lfts" 2>/dev/null || bad "$f: dump_lfts failed"
	"$FFROUTE" diff --json --no-metrics "$R" \
		"$SIM_DIR/dump/opensm-subnet.lst:$SIM_DIR/$f.dump_lfts" >"$SIM_DIR/$f.diff.json" \
		2>"$SIM_DIR/$f.diff.err"
	rc=$?
	[ $rc -eq 0 ] || bad "$f: the switches hold other tables than ffroute wrote (diff exit $rc): \
$(head -c 400 "$SIM_DIR/$f.diff.json") $(head -3 "$SIM_DIR/$f.diff.err")"
	sim_stop
	[ $fail -eq 0 ] && echo "ok $f: OpenSM's file engine installed ffroute's tables; live check clean"
done

# the compact dump, on OpenSM's own LIDs
f=frame-director-small
C=$SIM_DIR/compact
rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
if sim_start "$top_srcdir/fabrics/$f.net"; then
	SIM_OSM_CONF="routing_engine minhop"
	sim_opensm || bad "compact: OpenSM with minhop failed"
	sim_run dump_lfts >"$SIM_DIR/minhop.dump_lfts" 2>/dev/null || bad "compact: dump_lfts failed"
	cp "$SIM_DIR/dump/opensm-subnet.lst" "$SIM_DIR/minhop.lst"
	"$FFROUTE" route "$SIM_DIR/minhop.lst" -o "$C" --lfts-compact -q 2>"$SIM_DIR/compact.err" ||
		bad "compact: ffroute route: $(cat "$SIM_DIR/compact.err")"
	grep -q '^0x[0-9a-f]* [0-9]* #' "$C/opensm-lfts.dump" && bad "compact: rows with comments"
	"$FFROUTE" diff --no-metrics "$C" "$SIM_DIR/minhop.lst:$SIM_DIR/minhop.dump_lfts" \
		>/dev/null 2>&1
	[ $? -eq 1 ] || bad "compact: ffroute's tables are minhop's: the test could not tell"
	SIM_OSM_CONF="routing_engine file
lfts_file $C/opensm-lfts.dump"
	sim_opensm || bad "compact: OpenSM with the file engine failed"
	grep -q "file tables configured on all switches" "$SIM_DIR/opensm.log" ||
		bad "compact: the file engine did not configure the tables"
	sim_run dump_lfts >"$SIM_DIR/compact.dump_lfts" 2>/dev/null || bad "compact: dump_lfts failed"
	"$FFROUTE" diff --no-metrics "$C" "$SIM_DIR/dump/opensm-subnet.lst:$SIM_DIR/compact.dump_lfts" \
		>"$SIM_DIR/compact.diff" 2>&1 ||
		bad "compact: the switches hold other tables: $(head -5 "$SIM_DIR/compact.diff")"
	sim_stop
	[ $fail -eq 0 ] && echo "ok compact: OpenSM's file engine installed the compact dump"
else
	bad "compact: ibsim did not start"
fi
exit $fail

#!/bin/sh
# test_opensm_dumps.sh - the LFT dump readers and writers against a real
# OpenSM 3.3.23 running on ibsim.
#
# One OpenSM sweep (default engine, log_flags 0x47) on tests/data/lft/net.3sw5hca,
# then:
#   (a) the tables read from opensm-lfts.dump, opensm.fdbs and a live
#       dump_lfts (under umad2sim) are identical: each is converted to
#       opensm-lfts with the same topology (opensm-subnet.lst) and diffed;
#   (b) converting OpenSM's own opensm-lfts.dump reproduces it byte for
#       byte (switch order, skipped rows, header and footer);
#   (c) a dump written by ffroute with a changed route, loaded by a second
#       OpenSM run with "routing_engine file" + "lfts_file", is what the
#       switches hold afterwards (read back with dump_lfts).
# Conversion uses "$FFROUTE convert"; when the CLI is not built it falls back
# to the converter mode of the unit-test binary tests/unit/test_io_lft.
# Exit 77 (skip) without ibsim/opensm/dump_lfts or any converter.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/lib/sim.sh"

sim_require
command -v dump_lfts >/dev/null 2>&1 || { echo "SKIP: dump_lfts (infiniband-diags) not installed"; exit 77; }

HELPER=$top_builddir/tests/unit/test_io_lft
if [ -n "${FFROUTE:-}" ] && [ -x "$FFROUTE" ] && "$FFROUTE" convert --help >/dev/null 2>&1; then
	conv() { "$FFROUTE" convert --lft "$2" --to "$3" -o "$4" "$1"; }
	echo "converter: $FFROUTE convert"
elif [ -x "$HELPER" ]; then
	conv() { "$HELPER" convert "$1" "$2" "$3" "$4"; }
	echo "converter: $HELPER convert (ffroute convert unavailable)"
else
	echo "SKIP: neither \$FFROUTE convert nor $HELPER is available"
	exit 77
fi

fail() {
	echo "FAIL: $*"
	exit 1
}

sim_workdir
cp "$top_srcdir/tests/data/lft/net.3sw5hca" "$SIM_DIR/net" || fail "no net file"
sim_start "$SIM_DIR/net" || fail "ibsim did not start"
sim_opensm || { cat "$SIM_DIR/opensm.out"; fail "OpenSM sweep failed"; }
D=$SIM_DIR/dump
for f in opensm-subnet.lst opensm-lfts.dump opensm.fdbs; do
	[ -s "$D/$f" ] || fail "OpenSM wrote no $f"
done
TOPO=$D/opensm-subnet.lst
sim_run dump_lfts >"$SIM_DIR/live.dump_lfts" 2>"$SIM_DIR/dump_lfts.err" ||
	fail "dump_lfts failed: $(cat "$SIM_DIR/dump_lfts.err")"

# (a) three sources, one table
conv "$TOPO" "$D/opensm-lfts.dump" opensm-lfts "$SIM_DIR/a1" || fail "convert opensm-lfts.dump"
conv "$TOPO" "$D/opensm.fdbs" opensm-lfts "$SIM_DIR/a2" || fail "convert opensm.fdbs"
conv "$TOPO" "$SIM_DIR/live.dump_lfts" opensm-lfts "$SIM_DIR/a3" || fail "convert dump_lfts"
cmp "$SIM_DIR/a1" "$SIM_DIR/a2" || fail "(a) opensm-lfts.dump and opensm.fdbs differ"
cmp "$SIM_DIR/a1" "$SIM_DIR/a3" || fail "(a) opensm-lfts.dump and live dump_lfts differ"
echo "ok (a): opensm-lfts.dump, opensm.fdbs and live dump_lfts give the same tables"

# (b) OpenSM's own dump, byte for byte
cmp "$SIM_DIR/a1" "$D/opensm-lfts.dump" || {
	diff "$D/opensm-lfts.dump" "$SIM_DIR/a1" | head -20
	fail "(b) lft_write_osm does not reproduce opensm-lfts.dump"
}
conv "$TOPO" "$D/opensm-lfts.dump" ibroute "$SIM_DIR/b.ibroute" || fail "convert to ibroute"
conv "$TOPO" "$SIM_DIR/b.ibroute" opensm-lfts "$SIM_DIR/b2" || fail "read back ibroute"
cmp "$SIM_DIR/b2" "$D/opensm-lfts.dump" || fail "(b) ibroute round trip changed the tables"
echo "ok (b): opensm-lfts.dump reproduced byte for byte; ibroute round trip"

# (c) a changed table, pushed through OpenSM's file engine.  On leaf1
# (Lid 1) the CAs of leaf2 (LIDs 6, 7) go over the spine (port 6) instead
# of the direct link (port 5): non-minimal but loop-free, and not what the
# default engine computes.
awk '/^Unicast lids/ { leaf1 = ($0 ~ / guid 0x0002c90000000201 /) }
     leaf1 && /^0x000[67] 005 / { sub(/ 005 /, " 006 ") } { print }' \
	"$SIM_DIR/a1" >"$SIM_DIR/want.in" || fail "awk"
cmp -s "$SIM_DIR/want.in" "$SIM_DIR/a1" && fail "(c) the test route change did not apply"
# normalise through ffroute: the file OpenSM loads is one ffroute wrote
conv "$TOPO" "$SIM_DIR/want.in" opensm-lfts "$SIM_DIR/want.lfts" || fail "convert want"
mv "$D" "$SIM_DIR/dump1" && mkdir -p "$D"
SIM_OSM_CONF="routing_engine file
lfts_file $SIM_DIR/want.lfts"
sim_opensm || { cat "$SIM_DIR/opensm.out"; fail "OpenSM with the file engine failed"; }
grep -q "file tables configured on all switches" "$SIM_DIR/opensm.log" ||
	fail "(c) OpenSM did not use the file engine: $(grep -i 'routing\|ERR' "$SIM_DIR/opensm.log" | tail -5)"
sim_run dump_lfts >"$SIM_DIR/live2.dump_lfts" 2>"$SIM_DIR/dump_lfts.err" ||
	fail "dump_lfts (2) failed"
conv "$SIM_DIR/dump1/opensm-subnet.lst" "$SIM_DIR/live2.dump_lfts" opensm-lfts "$SIM_DIR/c" ||
	fail "convert dump_lfts (2)"
cmp "$SIM_DIR/c" "$SIM_DIR/want.lfts" || {
	diff "$SIM_DIR/want.lfts" "$SIM_DIR/c" | head -20
	fail "(c) the switches do not hold the tables ffroute wrote"
}
echo "ok (c): tables written by ffroute were loaded by OpenSM's file engine into the switches"
exit 0

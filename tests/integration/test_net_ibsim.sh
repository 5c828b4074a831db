#!/bin/sh
# test_net_ibsim.sh - does net_read() see the fabric ibsim really builds?
#
# For each .net file (hand-written ones in tests/data/net and one written
# by topo_write_net), start ibsim 0.10 with its own socket, run one OpenSM
# sweep, run ibnetdiscover, and compare with net_read() of the same file:
#   1. always: a canonical "N guid type nports sysguid desc" /
#      "L guid port portguid peer peerport WxSPEED" listing, made from the
#      ibnetdiscover output with awk and from net_read() by
#      "test_io_net --dump FILE" (the unit test binary);
#   2. when the CLI works: ffroute cmp --ignore-lids (ibnetdiscover output
#      and OpenSM's opensm-subnet.lst against the .net file).
# Exit 77 (skip) without ibsim/opensm or the unit test binary.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
. "$top_srcdir/tests/lib/sim.sh"

sim_require
command -v ibnetdiscover >/dev/null 2>&1 || { echo "SKIP: ibnetdiscover not installed"; exit 77; }
DUMP=$top_builddir/tests/unit/test_io_net
[ -x "$DUMP" ] || { echo "SKIP: $DUMP not built (needs cmocka)"; exit 77; }
sim_workdir
DATA=$top_srcdir/tests/data/net
fail=0

# ffroute cmp is usable when it accepts a file identical to itself
have_cmp=no
if [ -x "${FFROUTE:-}" ] && "$FFROUTE" cmp --ignore-lids "$DATA/noguid.net" "$DATA/noguid.net" \
	>/dev/null 2>&1; then
	have_cmp=yes
else
	echo "note: ffroute cmp not available yet; checking with the canonical listing only"
fi

# canonical listing of ibnetdiscover output (GUIDs: lower-case hex, no 0x, no leading 0)
canon_ibnd() {
	awk '
	function hex(s) { s = tolower(s); sub(/^0x/, "", s); sub(/^0+/, "", s); return s == "" ? "0" : s }
	/^sysimgguid=/ { sys = hex(substr($0, 12)) }
	/^(switchguid|caguid|rtguid)=/ {
		g = $0; sub(/^[a-z]+=/, "", g); sub(/[( \t].*/, "", g); guid = hex(g)
	}
	/^(Switch|Ca|Rt)[ \t]/ {
		type = $1 == "Switch" ? "S" : $1 == "Ca" ? "H" : "R"
		d = $0; i = index(d, "# \""); d = substr(d, i + 3); d = substr(d, 1, index(d, "\"") - 1)
		print "N", guid, type, $2, sys, d
	}
	/^\[/ {
		p = substr($0, 2, index($0, "]") - 2); rest = substr($0, index($0, "]") + 1)
		pg = "-"
		if (type != "S" && substr(rest, 1, 1) == "(")
			pg = hex(substr(rest, 2, index(rest, ")") - 2))
		r = substr(rest, index(rest, "\"") + 1); id = substr(r, 1, index(r, "\"") - 1)
		r = substr(r, index(r, "\"") + 1); pp = substr(r, 2, index(r, "]") - 2)
		print "L", guid, p, pg, hex(substr(id, 3)), pp, $NF
	}' "$1" | LC_ALL=C sort
}

# check_net NAME FILE: ibsim + OpenSM + ibnetdiscover vs net_read(FILE)
check_net() {
	name=$1 net=$2 out=$SIM_DIR/$1
	mkdir -p "$out"
	if ! sim_start "$net"; then
		echo "FAIL: $name: ibsim does not load it"; fail=1; return
	fi
	rm -f "$SIM_DIR"/dump/*
	sim_opensm || echo "note: $name: opensm exit status $?"
	if ! sim_run ibnetdiscover >"$out/ibnd.txt" 2>"$out/ibnd.err"; then
		echo "FAIL: $name: ibnetdiscover failed"; cat "$out/ibnd.err"; fail=1; sim_stop; return
	fi
	cp "$SIM_DIR/dump/opensm-subnet.lst" "$out/subnet.lst" 2>/dev/null
	sim_stop
	canon_ibnd "$out/ibnd.txt" >"$out/seen"
	if ! "$DUMP" --dump "$net" 2>"$out/dump.err" | LC_ALL=C sort >"$out/read"; then
		echo "FAIL: $name: net_read() rejects it:"; cat "$out/dump.err"; fail=1; return
	fi
	if ! diff -u "$out/seen" "$out/read" >"$out/diff"; then
		echo "FAIL: $name: net_read() differs from what ibsim built (- ibsim, + net_read):"
		cat "$out/diff"; fail=1; return
	fi
	echo "ok: $name: $(grep -c '^N' "$out/seen") nodes, $(grep -c '^L' "$out/seen") link ends match"
	[ "$have_cmp" = yes ] || return
	if ! "$FFROUTE" cmp --ignore-lids "$out/ibnd.txt" "$net"; then
		echo "FAIL: $name: ffroute cmp ibnetdiscover vs .net"; fail=1
	fi
	if [ -s "$out/subnet.lst" ] && ! "$FFROUTE" cmp --ignore-lids "$out/subnet.lst" "$net"; then
		echo "FAIL: $name: ffroute cmp opensm-subnet.lst vs .net"; fail=1
	fi
}

for f in noguid guids masks alias example-2sw2path4hca2port ibnd-masks; do
	check_net "$f" "$DATA/$f.net"
done

# a file written by topo_write_net (through the CLI when it works, else the test binary)
w=$SIM_DIR/written.net
if [ "$have_cmp" = yes ] && "$FFROUTE" convert "$DATA/guids.net" -o "$w" --to net 2>/dev/null; then
	:
else
	"$DUMP" --write "$DATA/masks.net" >"$w" || { echo "FAIL: topo_write_net"; fail=1; }
fi
check_net written "$w"

exit $fail

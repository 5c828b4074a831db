#!/bin/sh
# test_fabrics_ibsim.sh - does every committed reference fabric load in ibsim
# 0.10 and does OpenSM 3.3.23 discover all of it in one sweep?
#
# For each fabrics/*.net (not fabrics/demo/; rail-only per-rail files are
# standalone subnets and are checked like the others):
#   1. count nodes, switches and ports in the file and raise ibsim's
#      -N/-S/-P limits (defaults 2048 nodes, 256 switches, 13312 ports) when
#      the fabric needs more;
#   2. start ibsim (own IBSIM_SOCKNAME, via tests/lib/sim.sh), one OpenSM
#      sweep (-o), and read $SIM_DIR/dump/opensm-subnet.lst;
#   3. compare the switch and CA counts of "ffroute info --json" on the
#      .lst with the .net file's.  Every committed fabric, the degraded ones
#      included (1% and 5% of the switch-switch links dropped), is still
#      connected, so OpenSM must reach every node.
# Prints one line per fabric with its ibsim start and OpenSM sweep times.
# FABRICS="a.net b.net" restricts the run.  Exit 77 (skip) without
# ibsim/opensm or the ffroute CLI.
set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/lib/sim.sh"

sim_require
FFROUTE=${FFROUTE:-$top_builddir/tools/ffroute}
[ -x "$FFROUTE" ] || { echo "SKIP: $FFROUTE not built"; exit 77; }
"$FFROUTE" info --help >/dev/null 2>&1 || { echo "SKIP: ffroute info unavailable"; exit 77; }
sim_workdir
fail=0
nfab=0

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# json_int FILE KEY: the top-level integer "KEY": N of ffroute info --json
json_int() {
	sed -n "s/^  \"$2\": \\([0-9][0-9]*\\),*\$/\\1/p" "$1"
}

# ibsim limits for a .net file: "-N nodes -S switches -P ports", or nothing
limits() {
	awk '
	/^Switch[ \t]/ { sw++; nodes++; ports += $2 + 1 }
	/^(Ca|Hca|Rt)[ \t]/ { nodes++; ports += $2 }
	END {
		n = nodes > 2048 ? nodes + 16 : 0
		s = sw > 256 ? sw + 8 : 0
		p = ports > 13312 ? ports + 64 : 0
		if (n || s || p)
			printf "-N %d -S %d -P %d", n ? n : 2048, s ? s : 256, p ? p : 13312
	}' "$1"
}

check_fabric() {
	net=$1 name=$(basename "$1" .net)
	if ! "$FFROUTE" info --json "$net" >"$SIM_DIR/want.json" 2>"$SIM_DIR/info.err"; then
		echo "FAIL: $name: ffroute info rejects it:"; cat "$SIM_DIR/info.err"; fail=1; return
	fi
	want_sw=$(json_int "$SIM_DIR/want.json" switches)
	want_ca=$(json_int "$SIM_DIR/want.json" cas)
	lim=$(limits "$net")
	t0=$(now)
	# shellcheck disable=SC2086 # $lim is a word list on purpose
	if ! sim_start "$net" $lim; then
		echo "FAIL: $name: ibsim does not load it ($lim)"; fail=1; return
	fi
	t1=$(now)
	rm -f "$SIM_DIR"/dump/*
	sim_opensm || echo "note: $name: opensm exit status $?"
	t2=$(now)
	sim_stop
	lst=$SIM_DIR/dump/opensm-subnet.lst
	if [ ! -s "$lst" ]; then
		echo "FAIL: $name: OpenSM wrote no opensm-subnet.lst"; tail -5 "$SIM_DIR/opensm.log"
		fail=1; return
	fi
	if ! "$FFROUTE" info --json "$lst" >"$SIM_DIR/seen.json" 2>"$SIM_DIR/info.err"; then
		echo "FAIL: $name: ffroute info rejects OpenSM's .lst:"; cat "$SIM_DIR/info.err"
		fail=1; return
	fi
	seen_sw=$(json_int "$SIM_DIR/seen.json" switches)
	seen_ca=$(json_int "$SIM_DIR/seen.json" cas)
	times="ibsim $(elapsed "$t0" "$t1") s, opensm $(elapsed "$t1" "$t2") s"
	if [ "$seen_sw" != "$want_sw" ] || [ "$seen_ca" != "$want_ca" ]; then
		echo "FAIL: $name: OpenSM found $seen_sw switches, $seen_ca CAs;" \
			"the file has $want_sw, $want_ca ($times)"
		fail=1; return
	fi
	echo "ok: $name: $want_sw switches, $want_ca CAs discovered ($times${lim:+; $lim})"
}

start=$(now)
for net in ${FABRICS:-"$top_srcdir"/fabrics/*.net}; do
	[ -f "$net" ] || continue
	nfab=$((nfab + 1))
	check_fabric "$net"
done
[ "$nfab" -gt 0 ] || { echo "SKIP: no fabrics/*.net"; exit 77; }
echo "$nfab fabrics in $(elapsed "$start" "$(now)") s"
exit $fail

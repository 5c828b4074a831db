#!/bin/sh
# tests/cli/test_check_cli.sh - "ffroute check": options, exit status, input
# discovery, text and JSON reports.
#
#   1. usage errors exit 2 with the usage line; --help exits 0
#   2. bad input exits 2 with file:line:col diagnostics (missing or empty
#      directory, two topologies, a broken role/job/SL2VL file)
#   3. tests/data/check/mini (OpenSM 3.3.23 dumps of fabrics/demo/mini.net
#      with QoS on: opensm-subnet.lst, opensm-lfts.dump, opensm-sl2vl.dump)
#      exits 0 with every finding count 0 in the JSON; the same tables found
#      as ibdiagnet2.*, ibdiagnet.* and as one *.lst + one *.lfts; role and
#      job files; deterministic output; --html writes a page
#   4. a copy with a routing loop made by hand (spine01 sends cn0001's LID
#      to leaf02, leaf02 sends it back) exits 1 naming the loop
#   5. the real pair tests/data/real/ibutils__subnet.lst +
#      ibutils__osm.fdbs: no hard finding; one credit_loop_switch (OpenSM's
#      routing of that 2005 lab mesh has a channel-dependency cycle on VL0,
#      an SCC of 216 channels, checked independently, made by switches' own
#      routes: the routes of its 3 CAs alone are acyclic), nothing else
#   6. ibsim + one OpenSM sweep on fabrics/demo/mini.net: the fresh dump
#      directory exits 0 with every finding 0 (skipped without ibsim)
# Environment: FFROUTE, top_srcdir (tests/subdir.am).  Exit 0 / 1.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"

DATA=$top_srcdir/tests/data/check
MINI=$DATA/mini
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-check.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"
FINDINGS="no_table unreachable unreachable_physical loop blackhole switch_lid non_minimal
credit_loop rail_mix rail_leave cross_zone_link storage_cross_zone credit_loop_switch"

# run STATUS CMD...: stdout to $TMP/out, stderr to $TMP/err
run() {
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "exit $want: $*"; else
		not_ok "exit $want (got $rc): $*" "$TMP/out" "$TMP/err"; fi
}

# has FILE TEXT: FILE contains TEXT
has() {
	if grep -qF -- "$2" "$1"; then ok "$(basename "$1") has '$2'"; else
		not_ok "$(basename "$1") lacks '$2'" "$1"; fi
}

# counts FILE NAME=N ...: JSON finding counts; unnamed findings must be 0
counts() {
	f=$1
	shift
	for k in $FINDINGS; do
		want=0
		for kv in "$@"; do [ "${kv%%=*}" = "$k" ] && want=${kv#*=}; done
		if grep -q "^    \"$k\": {\"count\": $want," "$f"; then :; else
			not_ok "$(basename "$f"): $k count $want" "$f"
			return
		fi
	done
	ok "finding counts: ${*:-all 0}"
}

# ---- 0. --link-loads: one line per switch-to-switch channel ------------------
if "$FFROUTE" check "$MINI" --link-loads "$TMP/ll.tsv" >/dev/null 2>"$TMP/err"; then
	want=$(grep -c "{ SW .*} { SW " "$MINI/opensm-subnet.lst")
	got=$(grep -vc '^#' "$TMP/ll.tsv")
	if [ "$got" -eq $((2 * want)) ] && head -1 "$TMP/ll.tsv" | grep -q '^# from_guid	from_port	to_guid'; then
		ok "--link-loads: $got channels (2 x $want switch links)"
	else
		not_ok "--link-loads: $got lines for $want switch links" "$TMP/ll.tsv"
	fi
else
	not_ok "--link-loads exit" "$TMP/err"
fi

# ---- 1. usage ---------------------------------------------------------------
run 2 "$FFROUTE" check
has "$TMP/err" "usage: ffroute check [DIR]"
run 2 "$FFROUTE" check --bogus "$MINI"
run 2 "$FFROUTE" check "$MINI" "$MINI"
run 2 "$FFROUTE" check --ca mlx5_0 "$MINI"
run 2 "$FFROUTE" check --live "$MINI"
run 2 "$FFROUTE" check --seed x1 "$MINI"
run 2 "$FFROUTE" check --bisections 0 "$MINI"
run 2 "$FFROUTE" check --bisections 1000001 "$MINI"
run 2 "$FFROUTE" check --port 0 --live
run 2 "$FFROUTE" check --topo "$MINI/opensm-subnet.lst"
run 2 "$FFROUTE" check --lft-format net "$MINI"
run 2 "$FFROUTE" check --topo-format lst "$MINI"
run 0 "$FFROUTE" check --help
has "$TMP/out" "Exit status: 0 no hard finding, 1 hard findings, 2 bad input or usage."

# ---- 2. bad input -------------------------------------------------------------
run 2 "$FFROUTE" check "$TMP/nothing"
has "$TMP/err" "nothing: error: not a directory"
mkdir "$TMP/empty"
run 2 "$FFROUTE" check "$TMP/empty"
has "$TMP/err" "error: no topology file (*.lst, *.topo, *.net) in the directory"
mkdir "$TMP/two"
cp "$MINI/opensm-subnet.lst" "$TMP/two/a.lst"
cp "$MINI/opensm-subnet.lst" "$TMP/two/b.lst"
cp "$MINI/opensm-lfts.dump" "$TMP/two/r.lfts"
run 2 "$FFROUTE" check "$TMP/two"
has "$TMP/err" "2 topology files (a.lst, b.lst): say which with --topo"
run 0 "$FFROUTE" check --no-metrics --topo "$TMP/two/a.lst" "$TMP/two"
# the size limit (FFR_MAX_INPUT, 4,095 MiB): a sparse file one MiB over it
# is refused before anything is read; 16k-host OpenSM dumps (1.7 GB) pass
if truncate -s 4096M "$TMP/huge.dump"; then ok "sparse 4096 MiB file"; else
	not_ok "truncate -s 4096M failed: the size limit is not tested"; fi
run 2 "$FFROUTE" check --topo "$MINI/opensm-subnet.lst" --lft "$TMP/huge.dump"
has "$TMP/err" "huge.dump: error: file too large (4294967296 bytes, limit 4293918720)"
rm -f "$TMP/huge.dump"
printf '0x0000000000100000 compute\n0x0000000000100002 bogus\n' >"$TMP/roles"
run 2 "$FFROUTE" check --no-metrics --roles "$TMP/roles" "$MINI"
has "$TMP/err" "roles:2:20: error: unknown role 'bogus'"
printf 'cn0001\nnohost\n' >"$TMP/job"
run 2 "$FFROUTE" check --no-metrics --job "$TMP/job" "$MINI"
has "$TMP/err" "job:2:1: error: unknown host 'nohost'"
sed '4s/: 0 /: 17 /' "$MINI/opensm-sl2vl.dump" >"$TMP/bad.sl2vl"
run 2 "$FFROUTE" check --no-metrics --sl2vl "$TMP/bad.sl2vl" "$MINI"
has "$TMP/err" "bad.sl2vl:4:11: error: VL out of range (0..15)"
head -c 3000 "$MINI/opensm-subnet.lst" >"$TMP/cut.lst"
run 2 "$FFROUTE" check --topo "$TMP/cut.lst" --lft "$MINI/opensm-lfts.dump"

# ---- 3. the OpenSM dumps of mini.net ---------------------------------------------
run 0 "$FFROUTE" check "$MINI"
has "$TMP/out" "findings: 0 hard (PASS)"
has "$TMP/out" "fabric: 6 switches (6 with a forwarding table), 8 CAs (8 hosts, 0 SHARP"
run 0 "$FFROUTE" check --json "$MINI"
cp "$TMP/out" "$TMP/mini.json"
counts "$TMP/mini.json"
has "$TMP/mini.json" '"hard_findings": 0,'
has "$TMP/mini.json" '"routes_checked": 84,'
has "$TMP/mini.json" '"routes_valid": 84,'
has "$TMP/mini.json" '"seed": 1'
run 0 "$FFROUTE" check --json "$MINI"
if cmp -s "$TMP/out" "$TMP/mini.json"; then ok "JSON is deterministic"; else
	not_ok "JSON differs between two runs" "$TMP/out"; fi
run 0 "$FFROUTE" check --json --seed 7 --no-metrics "$MINI"
has "$TMP/out" '"seed": 7'
run 0 "$FFROUTE" check --json --bisections 1 "$MINI"
has "$TMP/out" '"ebb_bisections": 1'
if grep -q ebb_stderr "$TMP/out"; then not_ok "ebb_stderr with one bisection" "$TMP/out"; else
	ok "no ebb_stderr with one bisection"; fi
has "$TMP/mini.json" '"ebb_bisections": 4096'
has "$TMP/mini.json" '"ebb_stderr": '
printf '0x0000000000100000 storage zone=0\n# comment\n0x0000000000100003 mgmt\n' >"$TMP/roles"
printf 'cn0001\n0x0000000000100002\n' >"$TMP/job"
run 0 "$FFROUTE" check --json --roles "$TMP/roles" --job "$TMP/job" "$MINI"
has "$TMP/out" '"roles": {"compute": 6, "storage": 1, "mgmt": 1, "sharp": 0, "other": 0}'
for kind in ibdiagnet2 ibdiagnet; do
	mkdir "$TMP/$kind"
	cp "$MINI/opensm-subnet.lst" "$TMP/$kind/$kind.lst"
	cp "$MINI/opensm-lfts.dump" "$TMP/$kind/$kind.fdbs"
	run 0 "$FFROUTE" check --json --no-metrics "$TMP/$kind"
	has "$TMP/out" "$kind.lst + $TMP/$kind/$kind.fdbs"
	counts "$TMP/out"
done
# An ibdiagnet2 directory with ibdiagnet2.db_csv (tests/data/dbcsv/ibdiag2):
# found, read without a diagnostic and named in the input (the speeds it
# sets are asserted in tests/unit/test_io_dbcsv.c; no report prints them).
# A broken db_csv found in a directory warns and the check goes on; given
# with --db-csv its errors are errors.
DBC=$top_srcdir/tests/data/dbcsv/ibdiag2
run 0 "$FFROUTE" check --json "$DBC"
has "$TMP/out" "ibdiagnet2.fdbs + $DBC/ibdiagnet2.db_csv\","
counts "$TMP/out"
if [ -s "$TMP/err" ]; then not_ok "db_csv: diagnostics on stderr" "$TMP/err"; else
	ok "db_csv read without a diagnostic"; fi
mkdir "$TMP/dbcsv"
cp "$DBC/ibdiagnet2.lst" "$DBC/ibdiagnet2.fdbs" "$TMP/dbcsv/"
sed 's/^0x0c42a10300a00001,\(0x0c42a10300a00001,2,\)/0x0c42a10300a0000z,\1/' \
	"$DBC/ibdiagnet2.db_csv" >"$TMP/dbcsv/ibdiagnet2.db_csv"
run 0 "$FFROUTE" check --json --no-metrics "$TMP/dbcsv"
has "$TMP/err" "ibdiagnet2.db_csv:30:18: warning: NodeGuid: unexpected character in a GUID"
has "$TMP/err" "warning: not used: link speeds stay as in $TMP/dbcsv/ibdiagnet2.lst"
has "$TMP/out" "\"input\": \"$TMP/dbcsv/ibdiagnet2.lst + $TMP/dbcsv/ibdiagnet2.fdbs\","
run 2 "$FFROUTE" check --no-metrics --db-csv "$TMP/dbcsv/ibdiagnet2.db_csv" "$TMP/dbcsv"
has "$TMP/err" "ibdiagnet2.db_csv:30:18: error: NodeGuid: unexpected character in a GUID"
run 2 "$FFROUTE" check --live --db-csv "$DBC/ibdiagnet2.db_csv"
mkdir "$TMP/route"
cp "$MINI/opensm-subnet.lst" "$TMP/route/fabric.lst"
cp "$MINI/opensm-lfts.dump" "$TMP/route/fabric.lfts"
run 0 "$FFROUTE" check --no-metrics "$TMP/route"
has "$TMP/out" "input: $TMP/route/fabric.lst + $TMP/route/fabric.lfts"
run 0 "$FFROUTE" check --no-metrics --html "$TMP/report.html" "$MINI"
if [ -s "$TMP/report.html" ] && grep -q "<svg" "$TMP/report.html"; then
	ok "--html wrote a page with SVG"
else
	not_ok "--html wrote no page" "$TMP/report.html"
fi

# ---- 4. a routing loop made by hand ------------------------------------------------
mkdir "$TMP/loop"
cp "$MINI/opensm-subnet.lst" "$MINI/opensm-sl2vl.dump" "$TMP/loop/"
awk '/^Unicast lids/ { sw = $0 ~ /guid 0x0000000000200000 / ? 1 : $0 ~ /guid 0x0000000000200003 / ? 2 : 0 }
     sw == 1 && /^0x0002 / { $0 = substr($0, 1, 7) "002" substr($0, 11) }
     sw == 2 && /^0x0002 / { $0 = substr($0, 1, 7) "003" substr($0, 11) } { print }' \
	"$MINI/opensm-lfts.dump" >"$TMP/loop/opensm-lfts.dump"
if cmp -s "$TMP/loop/opensm-lfts.dump" "$MINI/opensm-lfts.dump"; then
	not_ok "the loop edit did not apply"
fi
run 1 "$FFROUTE" check "$TMP/loop"
grep -q '^  loop  *[1-9][0-9]*  hard$' "$TMP/out" && ok "text counts the loop as hard" ||
	not_ok "text has no hard loop" "$TMP/out"
has "$TMP/out" "LID 2 (cn0001 mlx5_0/1): routes loop from"
has "$TMP/out" "MF0;spine01:MQM8700/U1/2 -> MF0;leaf02:MQM8700/U1/3 -> MF0;spine01:MQM8700/U1/2"
run 1 "$FFROUTE" check --json --no-metrics "$TMP/loop"
grep -q '^    "loop": {"count": [1-9][0-9]*, "hard": true' "$TMP/out" &&
	ok "JSON counts the loop as hard" || not_ok "JSON has no hard loop" "$TMP/out"

# ---- 5. the real .lst + .fdbs pair ------------------------------------------------------
REAL=${REAL_FIXTURES:-$top_srcdir/tests/data/real}
if [ -f "$REAL/ibutils__subnet.lst" ] && [ -f "$REAL/ibutils__osm.fdbs" ]; then
	run 0 "$FFROUTE" check --json --topo "$REAL/ibutils__subnet.lst" \
		--lft "$REAL/ibutils__osm.fdbs"
	counts "$TMP/out" credit_loop_switch=1
	has "$TMP/out" '"hard_findings": 0,'
	has "$TMP/out" '"routes_checked": 4030,'
	has "$TMP/out" '"routes_valid": 4030,'
	has "$TMP/out" '"VL0: 0x0002c90109faf598/5 -> 0x0002c90109fcc230/4 -> '
	has "$TMP/out" '(strongly connected set of 216 channels)'
else
	echo "# real fixtures not found in $REAL: part 5 skipped"
fi

# ---- 6. a fresh OpenSM sweep under ibsim ----------------------------------------------------
if command -v ibsim >/dev/null 2>&1 && command -v opensm >/dev/null 2>&1; then
	(
		. "$top_srcdir/tests/lib/sim.sh"
		sim_require
		sim_workdir
		sim_start "$top_srcdir/fabrics/demo/mini.net" || exit 1
		SIM_OSM_CONF="qos TRUE"
		sim_opensm || { cat "$SIM_DIR/opensm.out"; exit 1; }
		"$FFROUTE" check --json "$SIM_DIR/dump" >"$TMP/sim.json" 2>"$TMP/sim.err"
		echo $? >"$TMP/sim.rc"
	)
	if [ $? -eq 77 ]; then
		echo "# ibsim/umad2sim incomplete: part 6 skipped"
	elif [ "$(cat "$TMP/sim.rc" 2>/dev/null)" = 0 ]; then
		ok "fresh OpenSM dump exits 0"
		counts "$TMP/sim.json"
		has "$TMP/sim.json" '"routes_valid": 84,'
	else
		not_ok "fresh OpenSM dump: exit $(cat "$TMP/sim.rc" 2>/dev/null)" "$TMP/sim.err"
	fi
else
	echo "# ibsim/opensm not installed: part 6 skipped"
fi

tap_done

#!/bin/sh
# tests/cli/test_cli.sh - the ffroute command line: dispatch, exit status,
# "info" (text and JSON, exact output), "convert" round trips, "cmp", and
# that a failed convert never leaves a partial output file.
#
# Environment (tests/subdir.am): FFROUTE, top_srcdir.  Fixtures are in
# tests/data/cli/; tiny.topo is described in its header comment.
# Exit status: 0 all passed, 1 something failed.

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"

DATA=$top_srcdir/tests/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-cli.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
cd "$DATA" || exit 1

. "$top_srcdir/tests/lib/tap.sh"

# run EXPECTED_STATUS CMD...: run CMD, stdout to $TMP/out, stderr to $TMP/err
run() {
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "exit $want: $*"
	else
		not_ok "exit $want (got $rc): $*" "$TMP/out" "$TMP/err"
	fi
}

# has FILE LINE: FILE has exactly this line
has() {
	if grep -qxF -- "$2" "$1"; then
		ok "$(basename "$1") has '$2'"
	else
		not_ok "$(basename "$1") lacks '$2'" "$1"
	fi
}

# has_text FILE TEXT: FILE contains TEXT somewhere
has_text() {
	if grep -qF -- "$2" "$1"; then
		ok "$(basename "$1") mentions '$2'"
	else
		not_ok "$(basename "$1") does not mention '$2'" "$1"
	fi
}

# same FILE EXPECTED: byte-identical
same() {
	if cmp -s "$1" "$2"; then
		ok "$1 matches $2"
	else
		not_ok "$1 differs from $2"
		diff -u "$2" "$1" | head -40
	fi
}

no_crash() {
	if [ "$rc" -lt 128 ]; then ok "no crash"; else not_ok "crashed (status $rc)" "$TMP/err"; fi
}

# ---- dispatch and exit status ------------------------------------------------

run 0 "$FFROUTE" --help
has_text "$TMP/out" "usage: ffroute [--version] [--help] COMMAND [ARGS]"
for c in info convert cmp; do
	grep -q "^  $c " "$TMP/out" && ok "--help lists $c" || not_ok "--help lacks $c" "$TMP/out"
done
run 0 "$FFROUTE" -h
run 0 "$FFROUTE" --version
grep -qE '^ffroute [0-9]+\.[0-9]+' "$TMP/out" && ok "version line" || not_ok "version line" "$TMP/out"
run 2 "$FFROUTE"
run 2 "$FFROUTE" frobnicate
has_text "$TMP/err" "'frobnicate' is not an ffroute command"
run 2 "$FFROUTE" --frobnicate
has_text "$TMP/err" "unknown option '--frobnicate'"
run 2 "$FFROUTE" info --frobnicate cli/tiny.topo
has_text "$TMP/err" "ffroute info: unknown option '--frobnicate'"
run 2 "$FFROUTE" info -Z cli/tiny.topo
has_text "$TMP/err" "ffroute info: unknown option '-Z'"
run 2 "$FFROUTE" info
has_text "$TMP/err" "usage: ffroute info"
run 2 "$FFROUTE" info cli/tiny.topo cli/tiny.topo
run 2 "$FFROUTE" info --format nosuch cli/tiny.topo
has_text "$TMP/err" "unknown format 'nosuch'"
run 2 "$FFROUTE" info --format opensm-lfts cli/tiny.topo
has_text "$TMP/err" "forwarding-table format"
run 2 "$FFROUTE" cmp cli/tiny.topo
run 2 "$FFROUTE" cmp --bogus cli/tiny.topo cli/tiny.topo
for c in info convert cmp; do
	run 0 "$FFROUTE" help "$c"
	mv "$TMP/out" "$TMP/help1"
	run 0 "$FFROUTE" "$c" --help
	same "$TMP/out" "$TMP/help1"
	has_text "$TMP/out" "usage: ffroute $c"
done
run 0 "$FFROUTE" help
run 2 "$FFROUTE" help frobnicate

# ---- info ----------------------------------------------------------------------

run 0 "$FFROUTE" info cli/tiny.topo
same "$TMP/out" cli/tiny.info
run 0 "$FFROUTE" info --json cli/tiny.topo
same "$TMP/out" cli/tiny.json
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" &&
		ok "info --json is valid JSON" || not_ok "info --json is not valid JSON" "$TMP/out"
fi
run 0 "$FFROUTE" info --format ibnetdiscover cli/tiny.topo
same "$TMP/out" cli/tiny.info
run 0 "$FFROUTE" info -j -f ibnetdiscover cli/tiny.topo
same "$TMP/out" cli/tiny.json

# LMC 2 on the aggregation node: LIDs 20..23
sed 's/# lid 20 lmc 0 /# lid 20 lmc 2 /' cli/tiny.topo >"$TMP/lmc.topo"
run 0 "$FFROUTE" info "$TMP/lmc.topo"
has "$TMP/out" "LIDs: 1-23, LMC 0,2, 0 nodes without a LID"
has "$TMP/out" "CAs: 3 (hosts 2, SHARP aggregation nodes 1)"

# a hand-written ibsim .net (no ibnetdiscover ids) is detected as net
run 0 "$FFROUTE" info cli/hand.net
has "$TMP/out" "format: net"
has "$TMP/out" "switches: 1"
has "$TMP/out" "CAs: 2 (hosts 2, SHARP aggregation nodes 0)"
has "$TMP/out" "links: 2 (switch-switch 0, switch-CA 2, other 0)"
has "$TMP/out" "parallel links: 0 groups, 0 extra links"
has "$TMP/out" "loopback cables: 0"

# missing file, directory, not a fabric
run 2 "$FFROUTE" info cli/no-such-file.topo
has "$TMP/err" "cli/no-such-file.topo: error: cannot open: No such file or directory"
no_crash
run 2 "$FFROUTE" info cli
has "$TMP/err" "cli: error: is a directory"
run 2 "$FFROUTE" info cli/tiny.lfts
has_text "$TMP/err" "cli/tiny.lfts: error: opensm-lfts is a forwarding-table format, not a topology"

# ---- convert: topology round trips --------------------------------------------

# ibsim .net carries no LIDs (OpenSM assigns them), so that round trip is
# exact up to LIDs; every CA port GUID of tiny.topo is node GUID + port, as
# ibsim requires.
run 0 "$FFROUTE" convert --to net -o "$TMP/tiny.net" cli/tiny.topo
run 0 "$FFROUTE" cmp --ignore-lids cli/tiny.topo "$TMP/tiny.net"
run 1 "$FFROUTE" cmp cli/tiny.topo "$TMP/tiny.net"
has_text "$TMP/out" "LID 1/0 vs 0/0"
run 0 "$FFROUTE" info "$TMP/tiny.net"
has "$TMP/out" "format: net"
has "$TMP/out" "links: 7 (switch-switch 3, switch-CA 4, other 0)"
run 0 "$FFROUTE" convert --to ibnetdiscover -o "$TMP/tiny.ibnd" cli/tiny.topo
run 0 "$FFROUTE" cmp cli/tiny.topo "$TMP/tiny.ibnd"
run 0 "$FFROUTE" cmp --ignore-lids "$TMP/tiny.ibnd" "$TMP/tiny.net"
# net -> ibnetdiscover -> net is stable
run 0 "$FFROUTE" convert --from net --to ibnetdiscover -o "$TMP/tiny2.ibnd" "$TMP/tiny.net"
run 0 "$FFROUTE" convert --to net -o "$TMP/tiny2.net" "$TMP/tiny2.ibnd"
same "$TMP/tiny2.net" "$TMP/tiny.net"
# -o - writes the same bytes to stdout
run 0 "$FFROUTE" convert --to net -o - cli/tiny.topo
same "$TMP/out" "$TMP/tiny.net"
# a converted file is readable by info with the same counts
run 0 "$FFROUTE" info "$TMP/tiny.ibnd"
sed 1,2d "$TMP/out" >"$TMP/a"
sed 1,2d cli/tiny.info >"$TMP/b"
same "$TMP/a" "$TMP/b"

# ---- convert: forwarding tables ----------------------------------------------

run 0 "$FFROUTE" convert --lft cli/tiny.lfts --to opensm-lfts -o "$TMP/a.lfts" cli/tiny.topo
n=$(grep -c '^Unicast lids \[' "$TMP/a.lfts")
[ "$n" = 2 ] && ok "opensm-lfts output has 2 switch tables" || not_ok "opensm-lfts has $n tables" "$TMP/a.lfts"
run 0 "$FFROUTE" convert --lft cli/tiny.lfts --to ibroute -o "$TMP/a.ibroute" cli/tiny.topo
run 0 "$FFROUTE" convert --lft "$TMP/a.ibroute" --to opensm-lfts -o "$TMP/b.lfts" cli/tiny.topo
same "$TMP/b.lfts" "$TMP/a.lfts"
run 0 "$FFROUTE" convert --lft cli/tiny.ibroute --lft-format ibroute --to opensm-lfts \
	-o "$TMP/c.lfts" cli/tiny.topo
same "$TMP/c.lfts" "$TMP/a.lfts"
run 0 "$FFROUTE" convert --lft cli/tiny.fdbs --to opensm-lfts -o "$TMP/d.lfts" cli/tiny.topo
same "$TMP/d.lfts" "$TMP/a.lfts"

# ---- convert: usage errors ------------------------------------------------------

run 2 "$FFROUTE" convert -o "$TMP/x" cli/tiny.topo
has_text "$TMP/err" "--to FMT is required"
run 2 "$FFROUTE" convert --to net cli/tiny.topo
has_text "$TMP/err" "-o OUT is required"
run 2 "$FFROUTE" convert --to opensm-lfts -o "$TMP/x" cli/tiny.topo
has_text "$TMP/err" "--to opensm-lfts needs --lft LFTFILE"
run 2 "$FFROUTE" convert --to lst -o "$TMP/x" cli/tiny.topo
has_text "$TMP/err" "cannot write lst"
run 2 "$FFROUTE" convert --lft cli/tiny.lfts --to net -o "$TMP/x" cli/tiny.topo
run 2 "$FFROUTE" convert --to net -o "$TMP/x" cli/tiny.topo cli/tiny.topo
run 2 "$FFROUTE" convert --to frob -o "$TMP/x" cli/tiny.topo
[ ! -e "$TMP/x" ] && ok "no output after usage errors" || not_ok "usage error left $TMP/x"

# ---- convert: a failure leaves no partial output ------------------------------

mkdir "$TMP/o"
run 2 "$FFROUTE" convert --to net -o "$TMP/o/new.net" cli/no-such-file.topo
has_text "$TMP/err" "cli/no-such-file.topo"
echo "precious" >"$TMP/o/old.net"
run 2 "$FFROUTE" convert --to net -o "$TMP/o/old.net" cli/tiny.lfts
run 2 "$FFROUTE" convert --lft cli/tiny.topo --to opensm-lfts -o "$TMP/o/old.net" cli/tiny.topo
run 2 "$FFROUTE" convert --lft cli/no-such.lfts --to ibroute -o "$TMP/o/new.lfts" cli/tiny.topo
# LFT dump cut in the middle of an entry: an error, and nothing written
{ head -n 3 cli/tiny.lfts; printf '0x000a'; } >"$TMP/trunc.lfts"
run 2 "$FFROUTE" convert --lft "$TMP/trunc.lfts" --to ibroute -o "$TMP/o/new.lfts" cli/tiny.topo
no_crash
[ "$(cat "$TMP/o/old.net")" = precious ] && ok "failed convert kept the old OUT" ||
	not_ok "failed convert changed OUT" "$TMP/o/old.net"
left=$(ls -A "$TMP/o")
[ "$left" = old.net ] && ok "no partial or temporary files left" ||
	not_ok "files left after failed converts: $left"
# a directory that does not exist: clear error, status 2
run 2 "$FFROUTE" convert --to net -o "$TMP/nodir/x.net" cli/tiny.topo
has_text "$TMP/err" "cannot create $TMP/nodir/x.net"

# ---- cmp ------------------------------------------------------------------------

run 0 "$FFROUTE" cmp cli/tiny.topo cli/tiny.topo
sed 's/gpu01 mlx5_0/gpu99 mlx5_0/' cli/tiny.topo >"$TMP/other.topo"
run 1 "$FFROUTE" cmp cli/tiny.topo "$TMP/other.topo"
has "$TMP/out" "cli/tiny.topo and $TMP/other.topo differ: node 0x0002c90300001000: description \"gpu01 mlx5_0\" vs \"gpu99 mlx5_0\""
# one link fewer (the parallel link 2-2 removed at both ends)
grep -v '^\[2\]	"S-' cli/tiny.topo >"$TMP/less.topo"
run 1 "$FFROUTE" cmp cli/tiny.topo "$TMP/less.topo"
has_text "$TMP/out" "differ: 5 nodes/7 links vs 5 nodes/6 links"
# LIDs: a renumbered fabric differs, but not with --ignore-lids
sed -e 's/# lid 10 lmc 0 /# lid 30 lmc 0 /' -e 's/"gpu01 mlx5_0" lid 10 /"gpu01 mlx5_0" lid 30 /' \
	cli/tiny.topo >"$TMP/relid.topo"
run 1 "$FFROUTE" cmp cli/tiny.topo "$TMP/relid.topo"
has_text "$TMP/out" "LID 10/0 vs 30/0"
run 0 "$FFROUTE" cmp --ignore-lids cli/tiny.topo "$TMP/relid.topo"
run 0 "$FFROUTE" cmp -i "$TMP/lmc.topo" cli/tiny.topo
run 1 "$FFROUTE" cmp --ignore-lids cli/tiny.topo "$TMP/other.topo"
run 2 "$FFROUTE" cmp cli/tiny.topo cli/no-such-file.topo
has "$TMP/err" "cli/no-such-file.topo: error: cannot open: No such file or directory"
run 2 "$FFROUTE" cmp cli/tiny.lfts cli/tiny.topo

tap_done

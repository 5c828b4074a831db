#!/bin/sh
# test_redteam.sh - regression tests for the red-team findings fixed so far
# (tests/data/redteam/README.md):
#   outputs: -o to a FIFO and to a character device (when mknod is allowed)
#     are written in place and stay what they were; through a symlink the
#     target is replaced and the link stays; a hard-linked file is written
#     in place (both names see it); a 0600 file stays 0600; a 255-byte
#     file name works; "-" and /dev/stdout are standard output;
#   binary input is refused from its first bytes (all-NUL file, /dev/zero);
#   zone=32767 in a role file makes one more zone, not 32,768;
#   a LID-less topology with real LFTs is an input error, not a PASS;
#   a write error on standard output is exit 2; undefined ratios are null;
#   declared ports are bounded (TOPO_MAX_PORT_SLOTS), whatever the input says;
#   inputs that disagree with themselves (a port's LID, a node's description,
#   a link's speed from its two ends) warn; .net losses are warned on stderr;
#   a UTF-8 BOM is skipped; control bytes in descriptions never reach output.
: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
D=$top_srcdir/tests/data
TINY=$D/cli/tiny.topo
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-redteam.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
. "$top_srcdir/tests/lib/tap.sh"
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

cd "$TMP" || exit 1
mkfifo fifo
( cat fifo >fifo.out ) &
reader=$!
"$FFROUTE" convert --to net -o fifo "$TINY"
wait $reader
check "a FIFO is written through, not replaced" '[ -p fifo ] && grep -q "^Switch" fifo.out'
if mknod -m 666 mynull c 1 3 2>/dev/null; then
	"$FFROUTE" convert --to net -o mynull "$TINY"
	check "a character device stays a device" '[ -c mynull ]'
else
	echo "# mknod not permitted: device case skipped"
fi
echo ORIG >target.net && ln -s target.net link.net
"$FFROUTE" convert --to net -o link.net "$TINY"
check "through a symlink: the link stays, its target is replaced" '[ -L link.net ] && grep -q "^Switch" target.net'
echo ORIG >a.net && ln a.net b.net
"$FFROUTE" convert --to net -o a.net "$TINY"
check "a hard-linked file is written in place" 'grep -q "^Switch" b.net'
echo secret >priv.net && chmod 600 priv.net
"$FFROUTE" convert --to net -o priv.net "$TINY"
check "a 0600 file stays 0600" '[ "$(stat -c %a priv.net)" = 600 ] && grep -q "^Switch" priv.net'
long=$(printf 'x%.0s' $(seq 1 251)).net
"$FFROUTE" convert --to net -o "$long" "$TINY"
check "a 255-byte file name works" '[ -s "$long" ]'
"$FFROUTE" convert --to net -o /dev/stdout "$TINY" >stdout.out
check "/dev/stdout is standard output" 'grep -q "^Switch" stdout.out'

"$FFROUTE" info "$D/redteam/zeros-4k.topo" 2>err >/dev/null
check "all-NUL input: binary data at 1:1, exit 2" '[ $? -eq 2 ] && grep -q "zeros-4k.topo:1:1: error: binary data" err'
timeout 10 "$FFROUTE" info /dev/zero 2>err >/dev/null
check "/dev/zero is refused at once" '[ $? -eq 2 ] && grep -q "binary data" err'

"$FFROUTE" check --json --no-metrics --topo "$TINY" --lft "$D/cli/tiny.lfts" \
	--roles "$D/redteam/zone-amplification.roles" >out 2>err
check "zone=32767: 2 zones, not 32,768" 'grep -q "\"zones\": 2," out'

"$FFROUTE" check --topo "$D/redteam/zero-lids.net" --lft "$D/redteam/zero-lids.lfts" >out 2>err
rc=$?
check "LID-less topology + LFTs: input error, exit 2 (not PASS)" \
	'[ $rc -eq 2 ] && grep -q "the fabric has no LIDs" err && ! grep -q PASS out'

"$FFROUTE" --help >/dev/full 2>err
check "a write error on standard output: exit 2" '[ $? -eq 2 ] && grep -q "error writing the output" err'
"$FFROUTE" check --json --topo "$D/redteam/one.topo" --lft "$D/redteam/one.lfts" >out 2>/dev/null
check "no switch-to-switch link: ratios are null, not 0" 'grep -q "\"link_routes_max_over_mean\": null" out'
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "switchguid=0x%x\nSwitch\t254 \"S-%016x\"\n", 1048576 + i, 1048576 + i }' \
	>many.topo
"$FFROUTE" info many.topo >/dev/null 2>err
check "thousands of bare 254-port switches: refused at the port bound" \
	'[ $? -eq 2 ] && grep -q "ports declared in all: not a real fabric" err'

"$FFROUTE" check --topo "$TINY" --lft "$D/cli/tiny.lfts" --roles "$D/redteam/roles-unknown-guid.roles" \
	--job "$D/redteam/job-duplicates.job" >/dev/null 2>err
check "unused override and duplicate job hosts: warnings with file:line" \
	'grep -q "roles-unknown-guid.roles:1:1: warning: GUID 0x00000000deadbeef is not in the fabric" err &&
	 grep -q "job-duplicates.job:2:1: warning: host .gpu01. is already in the job" err'

"$FFROUTE" check --topo "$D/lft/3sw.lst" --lft "$D/redteam/lft-dup-lid-in-block.lfts" >/dev/null 2>err
check "a LID twice in one LFT block: error at the second" \
	'[ $? -eq 2 ] && grep -q "lft-dup-lid-in-block.lfts:11:1: error: LID 9 given twice" err'
"$FFROUTE" check --topo "$D/lft/3sw.lst" --lft "$D/redteam/lft-reversed-header.lfts" >/dev/null 2>err
check "a reversed LID range header: error" '[ $? -eq 2 ] && grep -q "reversed LID range \[9-0\]" err'
"$FFROUTE" check --topo "$D/lft/3sw.lst" --lft "$D/redteam/lft-short-header.lfts" >/dev/null 2>err
check "an LFT block holding LIDs its header does not announce: warning" \
	'grep -q "lft-short-header.lfts:7:1: warning: LID 6 is outside the range \[0-5\] of this block.s header (line 1)" err'
"$FFROUTE" info "$D/redteam/lmc-misaligned.topo" >/dev/null 2>err
check "a misaligned LMC base: error" '[ $? -eq 2 ] && grep -q "LID 33 is not aligned to its LMC 2 range" err'
"$FFROUTE" info "$D/redteam/lmc7-range-message.topo" >/dev/null 2>err
check "an LMC range past 0xbfff: says so" '[ $? -eq 2 ] && grep -q "LMC 7 range 0xbfcc-0xc04b" err'

"$FFROUTE" info "$D/redteam/dup-port-guid-no-location.topo" >/dev/null 2>err
check "a duplicate port GUID: error at the second port's line" \
	'[ $? -eq 2 ] && grep -q "dup-port-guid-no-location.topo:60:52: error: duplicate port GUID" err'

R=$D/redteam
"$FFROUTE" check --topo "$TINY" --lft "$D/cli/tiny.lfts" --job "$R/job-sharp-only.job" >/dev/null 2>err
check "a job naming only a SHARP node: warnings, no silent empty job" \
	'grep -q "job-sharp-only.job:2:1: warning: 0x0002c90300000008 is a SHARP aggregation node" err &&
	 grep -q "the job names no host" err'
"$FFROUTE" convert --lft "$R/zero-lids.lfts" --to opensm-lfts -o zl.lfts "$R/zero-lids.net" 2>err
check "convert --lft on a LID-less fabric: error, nothing written" \
	'[ $? -eq 2 ] && [ ! -e zl.lfts ] && grep -q "the fabric has no LIDs" err'
"$FFROUTE" convert --lft "$D/cli/tiny.lfts" --to opensm-lfts -o nb.lfts "$D/lft/3sw.lst" 2>err
check "convert --lft with tables of another fabric: error" \
	'[ $? -eq 2 ] && [ ! -e nb.lfts ] && grep -q "switch GUID 0x0002c90300000001 is not in the fabric" err'
"$FFROUTE" info "$R/bom.lst" >bom.out 2>err && tail -c +4 "$R/bom.lst" >nobom.lst &&
	"$FFROUTE" info nobom.lst >nobom.out
check "a UTF-8 BOM is skipped: the same fabric as without it" \
	'[ -s bom.out ] && sed 1d bom.out >a && sed 1d nobom.out >b && cmp -s a b && [ ! -s err ]'
"$FFROUTE" info "$R/net-unknown-header.net" >/dev/null 2>err
check ".net: an unknown (case-mismatched) header line warns at its line" \
	'grep -q "net-unknown-header.net:4:1: warning: unknown line (keywords are case-sensitive" err'
"$FFROUTE" info "$R/net-caguid-wrap.net" >/dev/null 2>err
check ".net: CA port GUIDs wrapping past 2^64 are an error" \
	'[ $? -eq 2 ] && grep -q "net-caguid-wrap.net:6:7: error: port GUIDs of \"h1\" (0xfffffffffffffffe + port) wrap" err'
"$FFROUTE" info "$R/lst-conflicting-lid.lst" >/dev/null 2>err
check ".lst: one port given two LIDs warns" \
	'grep -q "lst-conflicting-lid.lst:10:335: warning: LID 49 here but LID 4 at line 1" err'
"$FFROUTE" info "$R/lst-conflicting-desc.lst" >/dev/null 2>err
check ".lst: one node given two descriptions warns" \
	'grep -q "lst-conflicting-desc.lst:10:177: warning: node 0x0002c90000100000 has another NodeDescription at line 1" err'
"$FFROUTE" info "$R/link-speed-conflict.topo" >/dev/null 2>err
check "a link whose two ends disagree on its speed warns" \
	'grep -q "link-speed-conflict.topo:53:21: warning: link width/speed differs from line 28" err'
"$FFROUTE" check --topo "$R/text-escape.topo" --lft "$R/text-escape.lfts" >out 2>err
check "control bytes in a NodeDescription never reach the report" \
	'grep -q "black hole" out && ! tr -d "\n\t" <out | LC_ALL=C grep -q "[[:cntrl:]]" &&
	 grep -q "text-escape.topo:35:1: warning: control characters" err'
"$FFROUTE" info "$R/p255-cascade.topo" >/dev/null 2>err
check "a refused port count gives no follow-on errors for its port lines" \
	'[ $(grep -c error: err) -eq 2 ] && ! grep -q "switch has 254" err'
"$FFROUTE" convert --to net -o x.net "$D/real/ufm_sdk_3.0__small_topo_file" 2>err
check "convert to .net refuses to change port GUIDs, and says why" \
	'[ $? -eq 2 ] && [ ! -e x.net ] && grep -q "error: 13 CA port GUID(s) are not node GUID + port" err &&
	 grep -q "error: 6 derived CA port GUID(s) are another node.s GUID" err'
"$FFROUTE" convert --lossy --to net -o x.net "$D/real/ufm_sdk_3.0__small_topo_file" 2>err
check "convert --lossy to .net writes it, with warnings" \
	'[ $? -eq 0 ] && [ -s x.net ] && grep -q "warning: 13 CA port GUID(s)" err'
"$FFROUTE" convert --to net -o t.net "$TINY" 2>err && "$FFROUTE" cmp --ignore-lids "$TINY" t.net >/dev/null 2>&1
check "a fabric .net can carry converts without a word and compares equal" '[ $? -eq 0 ] && [ ! -s err ]'

tap_done

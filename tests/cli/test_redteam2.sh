#!/bin/sh
# test_redteam2.sh - the offline findings of the second red team
# (tests/data/redteam2/README.md; the OpenSM ones are in
# tests/integration/test_plugin_reliability.sh):
#   a stale ffroute.sl (another pass's LFTs) is refused by check, exit 2;
#   ffroute.sl names the digest of its LFTs and check accepts the match;
#   route -o on a full disk keeps the previous set whole, says ENOSPC
#     (needs a tmpfs: root; else that case says SKIP);
#   LMC exhaustion names the LID count, not ENOSPC;
#   an LFT dump naming port GUIDs the fabric lacks warns;
#   an IB router is role other, never compute;
#   control bytes from roles and job files never reach diagnostics raw;
#   a back-referencing roles regex is an error at file:line:col.
: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
D=$top_srcdir/tests/data/redteam2
F=$top_srcdir/fabrics
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-redteam2.XXXXXX") || exit 1
trap 'umount "$TMP/fs" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
. "$top_srcdir/tests/lib/tap.sh"
check() { if eval "$2"; then ok "$1"; else not_ok "$1" $3; fi; }
cd "$TMP" || exit 1

# ---- ffroute.sl belongs to its LFTs -----------------------------------------------
"$FFROUTE" route "$F/ff2-bridge-small.net" -o a -q
"$FFROUTE" fabric ff2 --size small --drop-links 0.1 --seed 3 -o degraded.net >/dev/null
"$FFROUTE" route degraded.net -o b -q
check "ffroute.sl names its LFTs' digest" 'grep -q "^lfts 0x[0-9a-f]\{16\}$" a/ffroute.sl'
"$FFROUTE" check b --no-metrics >b.out 2>b.err
check "the matching ffroute.sl is accepted" '[ $? -eq 0 ] && ! grep -q "other LFTs" b.err' b.err
cp a/ffroute.sl b/ffroute.sl
"$FFROUTE" check b --no-metrics >b.out 2>b.err
rc=$?
check "a stale ffroute.sl is refused: exit 2, named" \
	'[ $rc -eq 2 ] && grep -q "ffroute.sl: error: written for other LFTs" b.err' b.err
sed '/^lfts /d' a/ffroute.sl >a/old.sl
"$FFROUTE" check a --sl a/old.sl --no-metrics >/dev/null 2>a.err
check "an ffroute.sl without a digest: a warning, still read" \
	'[ $? -eq 0 ] && grep -q "no \"lfts\" line" a.err' a.err

# ---- route -o on a full disk: the previous set stays whole --------------------------
mkdir fs
if mount -t tmpfs -o size=600k tmpfs fs 2>/dev/null; then
	"$FFROUTE" route "$F/ff2-bridge-small.net" -o fs/out -q
	free=$(df -k fs | awk 'END { print $4 }')
	dd if=/dev/zero of=fs/filler bs=1k count=$((free - 60)) 2>/dev/null
	"$FFROUTE" route degraded.net -o fs/out -q 2>enospc.err
	rc=$?
	check "full disk: exit 2, No space left on device" \
		'[ $rc -eq 2 ] && grep -q "No space left on device" enospc.err' enospc.err
	"$FFROUTE" check fs/out --no-metrics >/dev/null 2>&1
	check "full disk: the previous set is left whole (check passes)" '[ $? -eq 0 ]'
	check "full disk: no temporary file left" '! ls -A fs/out | grep -q "^\.ffr"'
	umount fs
else
	echo "# SKIP: cannot mount a tmpfs (root needed): the full-disk case"
fi

# ---- messages ----------------------------------------------------------------------
"$FFROUTE" route --lmc 7 "$F/ff2-bridge-full.net" -o lmc7 -q 2>lmc.err
check "LMC 7 on 1,568 end ports: the LID count, not ENOSPC" \
	'grep -q "LMC 7 needs 128 LIDs per end port (1568 end ports, 122 switches); only 49151" lmc.err &&
	 ! grep -q "No space" lmc.err' lmc.err
"$FFROUTE" check --topo "$D/mini.topo" --lft "$D/unknown-portguid.lfts" --no-metrics >/dev/null 2>u.err
check "an LFT dump naming an unknown port GUID warns, with a count" \
	'grep -q "unknown-portguid.lfts:3:1: warning: LID 2: port 0x000000000000dead is not in the fabric" u.err &&
	 grep -q "6 entries name port GUIDs that are not in the fabric" u.err' u.err
"$FFROUTE" classify --nodes "$D/mini-plus.net" >rtr.out 2>&1
check "an IB router is role other" "grep \"rtr01\" rtr.out | grep -q \"role other\"" rtr.out

# ---- control bytes never reach a diagnostic raw -------------------------------------
{ "$FFROUTE" classify --roles "$D/osc-title.roles" "$F/demo/mini.net"
  "$FFROUTE" classify --roles "$D/esc-role.roles" "$F/demo/mini.net"
  "$FFROUTE" classify --roles "$D/bad-utf8.roles" "$F/demo/mini.net"
  "$FFROUTE" route "$F/demo/mini.net" -o mini -q
  "$FFROUTE" check mini --job "$D/esc-host.job"; } >/dev/null 2>ctl.err
check "no ESC, BEL or invalid UTF-8 byte in diagnostics" \
	'! LC_ALL=C grep -q "$(printf "[\033\007\377\376]")" ctl.err && grep -q "?" ctl.err' ctl.err

# ---- roles regexes -----------------------------------------------------------------
"$FFROUTE" classify --roles "$D/backref.roles" "$F/demo/mini.net" >/dev/null 2>br.err
rc=$?
check "a back-reference in a roles regex is an error at file:line:col" \
	'[ $rc -eq 2 ] && grep -q "backref.roles:[0-9]*:[0-9]*: error: back-reference" br.err' br.err
printf '/a\\\\1b/ compute\n' >escaped.roles
"$FFROUTE" classify --roles escaped.roles "$F/demo/mini.net" >/dev/null 2>esc.err
check "an escaped backslash before a digit is no back-reference" '! grep -q "back-reference" esc.err' esc.err
tap_done

#!/bin/sh
# test_hfreduce.sh - hfreduce-check end to end:
#   1. --local: the real allreduce over 13 threads, a size the chunk does
#      not divide, float32 and bfloat16: exact sums; --steps times each
#      pipeline step of rank 0 (10 lines for 8 chunks per tree);
#   2. --verbs: with no RDMA device (this machine, CI) it says so and exits
#      77; with one, this part is skipped (it needs peers);
#   3. bad input: a missing directory, a bad --job: exit 2, a message;
#   4. path mode under ibsim on fabrics/frame-director-small.net, routed
#      once by OpenSM's updn and once by ffroute (the plugin):
#      - a step where updn makes two tree transfers with different
#        destinations share a switch-to-switch link: found in the tool's
#        --trace, then confirmed from OpenSM's LFT dump itself (the switch
#        sends both LIDs out of the same port: hand-checked for this fabric,
#        leaf L04/U1 port 6 for cn0016 and cn0014 at step 2), and ffroute's
#        tables send them out of different ports;
#      - the two reports differ; --strict's exit status follows the verdict;
#      - --live (the tables read back from ibsim's switches over MADs) gives
#        the same prediction as the dump.
set -u
. "$top_srcdir/tests/lib/sim.sh"
HFR=$top_builddir/contrib/hfreduce/hfreduce-check
[ -x "$HFR" ] || { echo "SKIP: hfreduce-check not built"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ffr-hfr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- 1. local transport --------------------------------------------------------
for dt in f32 bf16; do
	out=$("$HFR" --local 13 --size 1000001 --chunk 4093 --dtype $dt) || fail "--local $dt: $out"
	echo "$out" | grep -q ", 0 wrong elements" || fail "--local $dt: $out"
done
echo "ok: local allreduce exact (13 ranks, f32 and bf16)"
# --steps: rank 0's pipeline, one line per iteration: 1 MiB f32 in 64 KiB
# chunks is 8 chunks per tree, + 2 iterations of broadcast lag = 10
out=$("$HFR" --local 5 --size 1M --chunk 64K --steps) || fail "--local --steps: $out"
n=$(echo "$out" | grep -c "^rank 0 step [0-9]*: [0-9.]* us, [0-9]* bytes put, [0-9.]* GB/s$")
[ "$n" -eq 10 ] || fail "--steps: $n step lines, want 10: $out"
echo "$out" | grep -q "^rank 0: 10 pipeline steps, mean [0-9.]* us; slowest step [0-9]*:" ||
	fail "--steps: no summary line: $out"
echo "ok: --steps times each of the 10 pipeline steps of rank 0"

# ---- 2. verbs device check ------------------------------------------------------
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	"$HFR" --verbs --hosts a,b --rank 0 >"$tmp/v.out" 2>"$tmp/v.err"
	rc=$?
	[ $rc -eq 77 ] || fail "--verbs without a device: exit $rc, want 77: $(cat "$tmp/v.err")"
	grep -q "no RDMA device" "$tmp/v.err" || grep -q "built without libibverbs" "$tmp/v.err" ||
		fail "--verbs: no clear message: $(cat "$tmp/v.err")"
	echo "ok: --verbs skips cleanly (exit 77): $(head -1 "$tmp/v.err")"
else
	echo "SKIP (part): an RDMA device is present; --verbs needs peer hosts"
fi

# ---- 3. bad input ---------------------------------------------------------------
"$HFR" --paths "$tmp/none" >/dev/null 2>"$tmp/e1"
[ $? -eq 2 ] || fail "missing directory: want exit 2"
"$HFR" --local 4 --job bogus >/dev/null 2>"$tmp/e2"
[ $? -eq 2 ] && grep -q "bad value 'bogus' for --job" "$tmp/e2" || fail "bad --job: $(cat "$tmp/e2")"
echo "ok: bad input exits 2 with a message"

# ---- 4. path mode under ibsim ---------------------------------------------------
sim_require
plugdir=$top_builddir/opensm/.libs
[ -f "$plugdir/libffroute.so" ] || { echo "SKIP: plugin not built"; exit 77; }
sim_workdir
sim_plugin_env "$plugdir"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:replace_intrin=0"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$top_srcdir/tests/data/engines/lsan.supp"
net=$top_srcdir/fabrics/frame-director-small.net
args="--size 64K --chunk 16K --no-ring"
for eng in updn ffroute; do
	sim_start "$net" || fail "ibsim did not start"
	rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
	sim_engine_conf $eng
	sim_opensm || fail "opensm ($eng) failed"
	grep -q "$eng tables configured on all switches" "$SIM_DIR/opensm.log" || fail "$eng did not route"
	cp -r "$SIM_DIR/dump" "$tmp/$eng"
	# shellcheck disable=SC2086
	"$HFR" --paths "$tmp/$eng" $args >"$tmp/$eng.txt" 2>&1
	rc=$?
	if grep -q "^verdict: every transfer" "$tmp/$eng.txt"; then want=0; else want=1; fi
	# shellcheck disable=SC2086
	"$HFR" --paths "$tmp/$eng" $args --strict >/dev/null 2>&1
	[ $? -eq $want ] && [ $rc -eq 0 ] || fail "$eng: --strict exit does not follow the verdict"
	# shellcheck disable=SC2086
	sim_run "$HFR" --live $args --summary >"$tmp/$eng.live" 2>"$tmp/$eng.live.err" ||
		fail "--live ($eng): $(cat "$tmp/$eng.live.err")"
	[ "$(grep predicted "$tmp/$eng.live")" = "$(grep predicted "$tmp/$eng.txt")" ] ||
		fail "--live and the dump disagree ($eng)"
	sim_stop
done
echo "ok: updn and ffroute modelled from dumps and live; --strict follows the verdict"
printf 'cn0016\ncn0014\ncn0023\n' >"$tmp/job"
"$HFR" --paths "$tmp/updn" --job "hosts:$tmp/job" $args --summary | grep -q "job: the hosts of .*, 3 ranks" ||
	fail "--job hosts:FILE"
echo "ok: --job hosts:FILE picks its 3 hosts"
cmp -s "$tmp/updn.txt" "$tmp/ffroute.txt" && fail "updn and ffroute give the same report"

# a switch-to-switch channel carrying two transfers to different destinations under updn
found=
for k in 0 1 2 3 4 5 6 7 8 9 10; do
	# shellcheck disable=SC2086
	"$HFR" --paths "$tmp/updn" $args --summary --trace $k |
		sed -n "s/^  rank .*-> rank [0-9]* ('[^']*' port [0-9]*, LID \([0-9]*\)), tree [01] [a-z]*: '\([^']*\)' port \([0-9]*\) '.*/\2|\3|\1/p" \
		>"$tmp/first_hop"
	found=$(awk -F'|' '{ k = $1 "|" $2; if (k in lid && lid[k] != $3) { print k "|" lid[k] "|" $3; exit } lid[k] = $3 }' \
		"$tmp/first_hop")
	[ -n "$found" ] && break
done
[ -n "$found" ] || fail "no step where updn shares a leaf up-link between two destinations"
sw=${found%%|*}
rest=${found#*|}
port=${rest%%|*}
rest=${rest#*|}
l1=${rest%%|*}
l2=${rest#*|}
# confirm from OpenSM's dump, without the tool: the leaf sends both LIDs out of $port
lft_port() {	# DUMP SWITCH LID
	awk -v sw="$2" -v lid="$3" '/^Unicast lids/ { on = index($0, "(\047" sw "\047)") > 0; next }
		on { v = 0; s = tolower(substr($1, 3))
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			if (v == lid) { print $2 + 0; exit } }' "$1"
}
[ "$(lft_port "$tmp/updn/opensm-lfts.dump" "$sw" "$l1")" = "$port" ] &&
	[ "$(lft_port "$tmp/updn/opensm-lfts.dump" "$sw" "$l2")" = "$port" ] ||
	fail "the dump does not confirm $sw port $port for LIDs $l1 and $l2"
echo "ok: step $k: updn sends LIDs $l1 and $l2 out of '$sw' port $port (confirmed in the LFT dump)"
p1=$(lft_port "$tmp/ffroute/opensm-lfts.dump" "$sw" "$l1")
p2=$(lft_port "$tmp/ffroute/opensm-lfts.dump" "$sw" "$l2")
[ -n "$p1" ] && [ "$p1" != "$p2" ] || fail "ffroute also shares '$sw' for LIDs $l1 and $l2 ($p1, $p2)"
echo "ok: ffroute sends them out of ports $p1 and $p2"
exit 0

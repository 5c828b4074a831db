#!/bin/sh
# test_jobs_sa.sh - job-aware routing inside OpenSM (issue 29), under
# ibsim, on the small Fire-Flyer 2 fabric:
#   1. ffroute.conf names a jobs file (3 jobs placed at random,
#      tests/lib/gen_jobs.py); the plugin routes for them: its log says so,
#      and the tables OpenSM installed are entry for entry those of
#      `ffroute route --jobs` with the same file (ffroute diff), and not
#      those routed without jobs;
#   2. every job's double binary tree, read back live from the switches
#      with SMPs (hfreduce-check --live --strict), runs at its endpoints'
#      rates;
#   3. with two traffic classes on as well: a job host's cable pulled and
#      put back, then a leaf-spine link flapped: each fault moves no entry
#      of the destinations that stay (the base routed for the same jobs is
#      kept), the live tables judged with every class's SLs have no hard
#      finding, and each repair restores the tables of pass 1;
#   4. the scheduler rewrites the jobs file and sends SIGHUP: the next
#      heavy sweep routes for the new jobs, re-routing only the CAs of the
#      jobs that changed (the tables then equal `ffroute route --previous`
#      of the first file's run with the new file); the log says so;
#   5. a bad jobs file: ERR RE08 names file:line:col, the pass routes as
#      if no job ran (every job ended: the tables of `ffroute route
#      --previous` of step 4's run without jobs), OpenSM keeps ffroute's
#      tables.
# Every ibsim has its own IBSIM_SOCKNAME (tests/lib/sim.sh).  Exit 77
# without ibsim/opensm, the plugin, jq or python3.
set -u
. "$top_srcdir/tests/lib/sim.sh"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
sim_plugin_test
HC=$top_builddir/contrib/hfreduce/hfreduce-check
[ -x "$HC" ] || { echo "SKIP: hfreduce-check not built"; exit 77; }
fail() { echo "FAIL: $*"; grep -E "ffroute|ERR|HEAVY|SIGHUP|signal" "$log" | tail -16 | cut -c1-250; exit 1; }

net=$top_srcdir/fabrics/ff2-bridge-small.net
"$FFROUTE" classify "$net" --nodes >"$SIM_DIR/nodes" 2>/dev/null || fail "classify"
mkdir "$SIM_DIR/a" "$SIM_DIR/b"
python3 "$top_srcdir/tests/lib/gen_jobs.py" "$SIM_DIR/nodes" "$SIM_DIR/a" --jobs 3 --min 4 --max 10 \
	--seed 2 >/dev/null || fail "gen_jobs"
python3 "$top_srcdir/tests/lib/gen_jobs.py" "$SIM_DIR/nodes" "$SIM_DIR/b" --jobs 3 --min 4 --max 10 \
	--seed 5 >/dev/null || fail "gen_jobs"
# a, then b after a (only the CAs of the jobs that changed take new routes),
# then none after b; and without jobs from scratch
"$FFROUTE" route "$net" -q -o "$SIM_DIR/off-a" --jobs "$SIM_DIR/a/jobs" || fail "offline route (a)"
"$FFROUTE" route "$net" -q -o "$SIM_DIR/off-b" --previous "$SIM_DIR/off-a" --jobs "$SIM_DIR/b/jobs" ||
	fail "offline route (b after a)"
"$FFROUTE" route "$net" -q -o "$SIM_DIR/off-b-none" --previous "$SIM_DIR/off-b" ||
	fail "offline route (none after b)"
"$FFROUTE" route "$net" -q -o "$SIM_DIR/off-none" || fail "offline route (no jobs)"
cp "$SIM_DIR/a/jobs" "$SIM_DIR/jobs.txt"
printf 'jobs jobs.txt\nclass collectives sl 1\nclass storage sl 2 roles storage default\n' \
	>"$SIM_DIR/ffroute.conf"	# jobs.txt: relative to ffroute.conf's folder

# same_as LABEL DIR: the tables OpenSM installed are DIR's, entry for entry
same_as() {
	"$FFROUTE" diff --no-metrics --json "$2" "$SIM_DIR/dump" >"$SIM_DIR/diff.json" 2>/dev/null
	jq -e '.diff.same_fabric and .diff.lft_entries_differ == 0 and .diff.lft_entries_compared > 0' \
		"$SIM_DIR/diff.json" >/dev/null
}
passes() { grep -c "ffroute: pass [0-9]*: [0-9]* LFT entries" "$log"; }
# wait_pass N: until "ffroute: pass N" is logged and OpenSM wrote its dumps
wait_pass() {
	i=0
	until grep -q "ffroute: pass $1:" "$log" && grep -q "SUBNET UP" "$log"; do
		i=$((i + 1)); [ $i -gt 600 ] && fail "no ffroute pass $1"; sleep 0.1
	done
	sleep 2
	[ "$(passes)" = "$1" ] || fail "pass $1 was followed by another"
}

# ---- 1. the plugin routes for the jobs ------------------------------------------------
sim_start_console "$net" || fail "ibsim did not start"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/ffroute.conf
routing_engine ffroute,minhop
qos TRUE
sweep_interval 1"
sim_opensm_bg || fail "OpenSM did not bring the subnet up"
grep -q "ffroute tables configured on all switches" "$log" || fail "ffroute did not route it"
grep -q "ffroute: pass 1: 3 job(s) of $SIM_DIR/jobs.txt" "$log" || fail "pass 1 did not read the jobs"
same_as 1 "$SIM_DIR/off-a" || fail "the installed tables are not route --jobs': $(jq -c .diff.lft_entries_differ "$SIM_DIR/diff.json")"
same_as 1 "$SIM_DIR/off-none" && fail "the installed tables are those without jobs: the test cannot tell"
echo "ok: pass 1 routed for 3 jobs: the installed tables are those of ffroute route --jobs, not those without"

# ---- 2. every job live, read back with SMPs ---------------------------------------------
for f in "$SIM_DIR"/a/job*.hosts; do
	sim_run "$HC" --live --job "hosts:$f" --strict --summary --no-ring >"$SIM_DIR/hc.out" 2>&1 ||
		fail "hfreduce-check --live --strict $(basename "$f"): $(tail -3 "$SIM_DIR/hc.out")"
done
echo "ok: every job's double binary tree, read live, at its endpoints' rates"

# ---- 3. churn: a job host away and back, a link flap --------------------------------------
cp -r "$SIM_DIR/dump" "$SIM_DIR/dump1"
# fault DO UNDO LABEL MAX: one fault (at most MAX entries of the destinations in
# both states move) and its repair, each its own pass
fault() {
	n=$(($(passes) + 1))
	sim_console "$1"
	wait_pass $n
	"$FFROUTE" diff --no-metrics --json "$SIM_DIR/dump1" "$SIM_DIR/dump" >"$SIM_DIR/diff.json" 2>/dev/null
	jq -e '.diff.lft_entries_differ <= $max' --argjson max "$4" "$SIM_DIR/diff.json" >/dev/null ||
		fail "$3: $(jq -c .diff.lft_entries_differ "$SIM_DIR/diff.json") entries of staying destinations moved"
	moved=$(jq -c .diff.lft_entries_differ "$SIM_DIR/diff.json")
	sim_run "$FFROUTE" check --live --json --no-metrics --sl "$SIM_DIR/dump/ffroute.sl" \
		--sl2vl "$SIM_DIR/dump/opensm-sl2vl.dump" >"$SIM_DIR/live.json" 2>/dev/null ||
		fail "$3: live check: $(grep -E '"count": [1-9]' "$SIM_DIR/live.json" | head -c 600)"
	n=$(($(passes) + 1))
	sim_console "$2"
	wait_pass $n
	same_as $n "$SIM_DIR/dump1" || fail "$3: the repair did not restore pass 1's tables"
	echo "ok: $3: $moved entries of staying destinations moved, live tables clean with both classes, repair restores pass 1"
}
host=$(head -1 "$SIM_DIR/a/job0.hosts")
hid=$(grep -m1 "\"$host mlx5_0\"" "$net" | sed 's/.*"\(H-[0-9a-f]*\)".*/\1/')
[ -n "$hid" ] || fail "no ibsim id for $host"
fault "Unlink \"$hid\"[1]" "ReLink \"$hid\"[1]" "job host $host away and back" 0
leaf=$(awk '/^Switch/ && /L01\/U1/ { split($0, q, "\""); print q[2]; exit }' "$net")
lport=$(awk -v id="$leaf" '/^Switch/ { on = index($0, "\"" id "\"") > 0; next }
	on && /^\[[0-9]+\][ \t]*"S-/ { p = $1; gsub(/[^0-9]/, "", p); print p; exit }' "$net")
[ -n "$leaf" ] && [ -n "$lport" ] || fail "no leaf-spine link found"
fault "Unlink \"$leaf\"[$lport]" "ReLink \"$leaf\"[$lport]" "link $leaf/$lport flapped" 100000
grep -q "the jobs changed" "$log" && fail "a fault threw away the base routed for the same jobs"

# ---- 4. the scheduler rewrites the jobs file, SIGHUP --------------------------------------
osm=$(pgrep -P "$OSM_PID" -x opensm) || fail "no opensm process under $OSM_PID"	# not timeout(1)
cp "$SIM_DIR/b/jobs" "$SIM_DIR/jobs.txt.new" && mv "$SIM_DIR/jobs.txt.new" "$SIM_DIR/jobs.txt"
n=$(($(passes) + 1))
kill -HUP "$osm"
wait_pass $n
same_as $n "$SIM_DIR/off-b" || fail "after SIGHUP the tables are not those of the new jobs: $(jq -c .diff.lft_entries_differ "$SIM_DIR/diff.json")"
grep -q "ffroute: pass $n: [0-9]* job(s) changed: their CAs" "$log" || fail "pass $n did not say which jobs changed"
echo "ok: SIGHUP: pass $n routed for the rewritten jobs file, only the changed jobs' CAs re-routed"

# ---- 5. a bad jobs file ---------------------------------------------------------------------------
printf 'job x\nnosuchhost\njob y tree\n' >"$SIM_DIR/jobs.txt"
n=$(($(passes) + 1))
kill -HUP "$osm"
wait_pass $n
grep -q "ERR RE08: ffroute: $SIM_DIR/jobs.txt:3:7: error: the collective is dbt or ring" "$log" ||
	fail "no file:line:col for the bad jobs file"
grep -q "ffroute: pass $n: 0 job(s)" "$log" || fail "pass $n did not route without jobs"
same_as $n "$SIM_DIR/off-b-none" || fail "a bad jobs file: the tables are not those without jobs"
echo "ok: a bad jobs file: RE08 with file:line:col, routed as if no job ran"
sim_opensm_stop
sim_stop
echo "PASS: job-aware routing inside OpenSM"
exit 0

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
#   3. the scheduler rewrites the jobs file and sends SIGHUP: the next
#      heavy sweep routes for the new jobs (the tables then equal the
#      offline run with the new file);
#   4. a bad jobs file: ERR RE08 names file:line:col, the pass routes as
#      if no job ran (the tables of a run without jobs), OpenSM keeps
#      ffroute's tables.
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
for x in a b; do
	"$FFROUTE" route "$net" -q -o "$SIM_DIR/off-$x" --jobs "$SIM_DIR/$x/jobs" || fail "offline route ($x)"
done
"$FFROUTE" route "$net" -q -o "$SIM_DIR/off-none" || fail "offline route (no jobs)"
cp "$SIM_DIR/a/jobs" "$SIM_DIR/jobs.txt"
printf 'jobs jobs.txt\n' >"$SIM_DIR/ffroute.conf"	# relative: from ffroute.conf's folder

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
sim_start "$net" || fail "ibsim did not start"
SIM_OSM_CONF="event_plugin_name ffroute
event_plugin_options $SIM_DIR/ffroute.conf
routing_engine ffroute,minhop
qos TRUE"
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

# ---- 3. the scheduler rewrites the jobs file, SIGHUP --------------------------------------
osm=$(pgrep -P "$OSM_PID" -x opensm) || fail "no opensm process under $OSM_PID"	# not timeout(1)
cp "$SIM_DIR/b/jobs" "$SIM_DIR/jobs.txt.new" && mv "$SIM_DIR/jobs.txt.new" "$SIM_DIR/jobs.txt"
n=$(($(passes) + 1))
kill -HUP "$osm"
wait_pass $n
same_as $n "$SIM_DIR/off-b" || fail "after SIGHUP the tables are not those of the new jobs: $(jq -c .diff.lft_entries_differ "$SIM_DIR/diff.json")"
echo "ok: SIGHUP: pass $n routed for the rewritten jobs file"

# ---- 4. a bad jobs file ---------------------------------------------------------------------------
printf 'job x\nnosuchhost\njob y tree\n' >"$SIM_DIR/jobs.txt"
n=$(($(passes) + 1))
kill -HUP "$osm"
wait_pass $n
grep -q "ERR RE08: ffroute: $SIM_DIR/jobs.txt:3:7: error: the collective is dbt or ring" "$log" ||
	fail "no file:line:col for the bad jobs file"
grep -q "ffroute: pass $n: 0 job(s)" "$log" || fail "pass $n did not route without jobs"
same_as $n "$SIM_DIR/off-none" || fail "a bad jobs file: the tables are not those without jobs"
echo "ok: a bad jobs file: RE08 with file:line:col, routed as if no job ran"
sim_opensm_stop
sim_stop
echo "PASS: job-aware routing inside OpenSM"
exit 0

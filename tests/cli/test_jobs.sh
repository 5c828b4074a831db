#!/bin/sh
# test_jobs.sh - job-aware routing (issue 29), offline, on the full
# Fire-Flyer 2 fabric with 6 jobs placed at random (tests/lib/gen_jobs.py,
# seed 1: 16..256 hosts, the first across both zones):
#   1. without --jobs, hfreduce-check --paths --strict fails for some job
#      (the test can fail: the jobs lose bandwidth to plain D-mod-K);
#      with --jobs it passes for every job, each at its ideal bandwidth;
#   2. the fabric-wide bars are those of a run without jobs: no hard
#      finding, shift max 1 in each zone, up-link spread 1 per class;
#   3. the job across zones of seeds 2 and 3, and of seed 1 on the fabric
#      cabled leaf to leaf, passes --strict (these need a leaf's up-links
#      swapped, or a two-hop detour around an exit leaf's one inter-zone
#      link), with the same fabric-wide bars;
#   3b. full leaves (another generator's ff2: 20 compute HCAs under 20
#      spines, seed 2): leaf swaps inside the zones lift the jobs' mean
#      bandwidth and make some in-zone job pass that fails without
#      --jobs, while each zone's shifts stay within mean 1.25, max 2; a
#      job starting there on a base without it keeps spread 1 and those
#      shift bounds (the base's leaf swaps stay whole);
#   3c. a job change with --previous (ffroute.jobs of the earlier run):
#      job2 starts on a base routed without it: no entry of the running
#      jobs' CAs moves, every job passes --strict, no hard finding,
#      shifts per zone within 2 and spread 1; it ends again: no entry
#      moves at all;
#   4. a ring job and an unnamed job parse and route;
#   5. bad jobs files: file:line:col errors, exit 2;
#   6. determinism: the same run twice writes the same tables.
# Environment: FFROUTE, HFREDUCE_CHECK, top_srcdir.  Exit 0 / 1 / 77.

: "${FFROUTE:?FFROUTE not set}"
HC=${HFREDUCE_CHECK:-$(dirname "$FFROUTE")/../contrib/hfreduce/hfreduce-check}
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
[ -x "$HC" ] || { echo "SKIP: hfreduce-check not built"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-jobs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"
net=$top_srcdir/fabrics/ff2-bridge-full.net

"$FFROUTE" classify "$net" --nodes >"$TMP/nodes" 2>/dev/null
mkdir "$TMP/j"
sizes=$(python3 "$top_srcdir/tests/lib/gen_jobs.py" "$TMP/nodes" "$TMP/j" --seed 1)
ok "6 jobs placed at random (sizes $sizes)"
"$FFROUTE" route "$net" -q -o "$TMP/plain" 2>"$TMP/plain.err" || not_ok "route without jobs" "$TMP/plain.err"
if "$FFROUTE" route "$net" -q -o "$TMP/jobs" --jobs "$TMP/j/jobs" 2>"$TMP/jobs.err"; then
	ok "routed with --jobs"
else
	not_ok "route --jobs" "$TMP/jobs.err"
fi

# ---- 1. every job's double binary tree at its endpoints' rates -------------------
fails=0
for f in "$TMP"/j/job*.hosts; do
	j=$(basename "$f" .hosts)
	"$HC" --paths "$TMP/plain" --job "hosts:$f" --strict --summary --no-ring >"$TMP/$j.plain" 2>&1 ||
		fails=$((fails + 1))
	if "$HC" --paths "$TMP/jobs" --job "hosts:$f" --strict --summary --no-ring >"$TMP/$j.out" 2>&1 &&
		grep -q "(100.0 %)" "$TMP/$j.out"; then
		ok "$j: hfreduce-check --strict passes: $(grep -m1 'predicted' "$TMP/$j.out" | sed 's/;.*//')"
	else
		not_ok "$j: hfreduce-check --strict with --jobs" "$TMP/$j.out"
	fi
done
if [ "$fails" -gt 0 ]; then ok "without --jobs $fails of 6 jobs fail --strict"
else not_ok "without --jobs every job passed: the test cannot tell" /dev/null; fi

# ---- 2. the fabric-wide bars ---------------------------------------------------------
for d in plain jobs; do
	"$FFROUTE" check "$TMP/$d" --json >"$TMP/$d.json" 2>/dev/null
done
for e in '[.findings | to_entries[] | select(.value.hard) | .value.count] | add == 0' \
	'.metrics.shift_zone0_max == 1 and .metrics.shift_zone1_max == 1' \
	'.metrics.uplink_spread_compute <= 1 and .metrics.uplink_spread_storage <= 1 and .metrics.uplink_spread_other <= 1'; do
	if jq -e "$e" "$TMP/jobs.json" >/dev/null && jq -e "$e" "$TMP/plain.json" >/dev/null; then
		ok "with and without jobs: $e"
	else
		not_ok "with jobs: $e" "$TMP/jobs.json"
	fi
done

# ---- 3. jobs across zones that a minimal, leaf-keeping refinement leaves slowed -----------
for case in ff2-bridge-full:2 ff2-bridge-full:3 ff2-leaf2leaf-full:1; do
	f=$top_srcdir/fabrics/${case%:*}.net sd=${case#*:} o=$TMP/x-${case%:*}-$sd
	mkdir -p "$o"
	"$FFROUTE" classify "$f" --nodes >"$o/nodes" 2>/dev/null
	python3 "$top_srcdir/tests/lib/gen_jobs.py" "$o/nodes" "$o" --seed "$sd" >/dev/null
	if ! "$FFROUTE" route "$f" -q -o "$o/r" --jobs "$o/jobs" 2>"$o/err"; then
		not_ok "${case%:*} seed $sd: route --jobs" "$o/err"
		continue
	fi
	if "$HC" --paths "$o/r" --job "hosts:$o/job0.hosts" --strict --summary --no-ring >"$o/hc" 2>&1; then
		ok "${case%:*} seed $sd: job0 across zones passes --strict: $(grep -m1 'predicted' "$o/hc" | sed 's/;.*//')"
	else
		not_ok "${case%:*} seed $sd: job0 across zones --strict" "$o/hc"
	fi
	"$FFROUTE" check "$o/r" --json >"$o/c.json" 2>/dev/null
	if jq -e '([.findings | to_entries[] | select(.value.hard) | .value.count] | add == 0) and
		.metrics.shift_zone0_max == 1 and .metrics.shift_zone1_max == 1 and
		.metrics.uplink_spread_compute <= 1 and .metrics.uplink_spread_storage <= 1 and
		.metrics.nonminimal_routes_zone0 == 0 and .metrics.nonminimal_routes_zone1 == 0' \
		"$o/c.json" >/dev/null; then
		ok "${case%:*} seed $sd: no hard finding, shifts 1, spread <= 1, minimal inside zones ($(jq '.findings.non_minimal.count' "$o/c.json") detour routes between zones)"
	else
		not_ok "${case%:*} seed $sd: fabric-wide bars" "$o/c.json"
	fi
done

# ---- 3b. full leaves: in-zone jobs by leaf swaps, within the shifts' cost ---------------------
o=$TMP/full
mkdir -p "$o"
python3 "$top_srcdir/tests/lib/gen_foreign.py" ff2 20 39 30 20 8 2 11 >"$o/f.topo"
"$FFROUTE" classify "$o/f.topo" --nodes >"$o/nodes" 2>/dev/null
python3 "$top_srcdir/tests/lib/gen_jobs.py" "$o/nodes" "$o" --seed 2 >/dev/null
if "$FFROUTE" route "$o/f.topo" -q -o "$o/plain" 2>"$o/err" &&
	"$FFROUTE" route "$o/f.topo" -q -o "$o/r" --jobs "$o/jobs" 2>"$o/err"; then
	gain=0 sum0=0 sum1=0
	for f in "$o"/job[1-9].hosts; do	# the jobs inside one zone
		"$HC" --paths "$o/plain" --job "hosts:$f" --strict --summary --no-ring >"$o/a" 2>&1; a=$?
		"$HC" --paths "$o/r" --job "hosts:$f" --strict --summary --no-ring >"$o/b" 2>&1; b=$?
		[ $a != 0 ] && [ $b = 0 ] && gain=$((gain + 1))
		sum0=$(sed -n 's/^  predicted: .* (\([0-9.]*\) %).*/\1/p' "$o/a" | awk -v s="$sum0" '{ print s + $1 }')
		sum1=$(sed -n 's/^  predicted: .* (\([0-9.]*\) %).*/\1/p' "$o/b" | awk -v s="$sum1" '{ print s + $1 }')
	done
	if [ "$gain" -gt 0 ] && awk -v a="$sum0" -v b="$sum1" 'BEGIN { exit !(b > a + 5) }'; then
		ok "full leaves: $gain in-zone job(s) pass only with --jobs; share of ideal summed $sum0 -> $sum1 %"
	else
		not_ok "full leaves: in-zone jobs not helped ($gain pass only with --jobs; $sum0 -> $sum1 %)" /dev/null
	fi
	"$FFROUTE" check "$o/r" --json >"$o/c.json" 2>/dev/null
	if jq -e '([.findings | to_entries[] | select(.value.hard) | .value.count] | add == 0) and
		.metrics.shift_zone0_max <= 2 and .metrics.shift_zone1_max <= 2 and
		.metrics.shift_zone0_mean <= 1.25 and .metrics.shift_zone1_mean <= 1.25' "$o/c.json" >/dev/null; then
		ok "full leaves: no hard finding; shifts per zone max $(jq '.metrics.shift_zone0_max' "$o/c.json"), mean $(jq '.metrics.shift_zone0_mean' "$o/c.json") and $(jq '.metrics.shift_zone1_mean' "$o/c.json") (bound 1.25)"
	else
		not_ok "full leaves: fabric-wide bars" "$o/c.json"
	fi
	# a job starting there: the base's swaps stay whole (spread, shifts)
	awk '/^job /{ skip = ($2 == "job3") } !skip' "$o/jobs" >"$o/minus3"
	if "$FFROUTE" route "$o/f.topo" -q -o "$o/b3" --jobs "$o/minus3" 2>"$o/err" &&
		"$FFROUTE" route "$o/f.topo" -q -o "$o/s3" --previous "$o/b3" --jobs "$o/jobs" 2>"$o/err" &&
		"$FFROUTE" check "$o/s3" --json >"$o/c3.json" 2>/dev/null &&
		jq -e '([.findings | to_entries[] | select(.value.hard) | .value.count] | add == 0) and
		.metrics.uplink_spread_compute <= 1 and .metrics.shift_zone0_max <= 2 and
		.metrics.shift_zone1_max <= 2 and .metrics.shift_zone0_mean <= 1.25 and
		.metrics.shift_zone1_mean <= 1.25' "$o/c3.json" >/dev/null; then
		ok "full leaves: job3 starts on a base without it: spread $(jq '.metrics.uplink_spread_compute' "$o/c3.json"), shifts within 1.25 / 2"
	else
		not_ok "full leaves: job3 starts: bars" "$o/c3.json"
	fi
else
	not_ok "full leaves: route" "$o/err"
fi

# ---- 3c. a job change: only the CAs of the jobs that changed move ------------------------------
o=$TMP/change
mkdir -p "$o"
awk '/^job /{ skip = ($2 == "job2") } !skip' "$TMP/j/jobs" >"$o/minus2"
"$FFROUTE" route "$net" -q -o "$o/base" --jobs "$o/minus2" 2>/dev/null && cp -r "$o/base" "$o/b0" ||
	not_ok "job change: base" /dev/null
if "$FFROUTE" route "$net" -v -o "$o/start" --previous "$o/b0" --jobs "$TMP/j/jobs" 2>"$o/err" &&
	grep -q "1 job(s) changed since the base" "$o/err"; then
	m=$(python3 "$top_srcdir/tests/lib/lft_moved.py" "$o/b0/opensm-lfts.dump" "$o/start/opensm-lfts.dump" \
		"$TMP"/j/job[01345].hosts)
	case $m in
	*"of the hosts' LIDs 0") ok "job2 starts: $m (the running jobs' CAs)" ;;
	*) not_ok "job2 starts: $m" /dev/null ;;
	esac
	fails=0
	for f in "$TMP"/j/job*.hosts; do
		"$HC" --paths "$o/start" --job "hosts:$f" --strict --summary --no-ring >/dev/null 2>&1 ||
			fails=$((fails + 1))
	done
	[ $fails = 0 ] && ok "job2 starts: every job passes --strict" ||
		not_ok "job2 starts: $fails of 6 jobs fail --strict" /dev/null
	"$FFROUTE" check "$o/start" --json >"$o/c.json" 2>/dev/null
	if jq -e '([.findings | to_entries[] | select(.value.hard) | .value.count] | add == 0) and
		.metrics.shift_zone0_max <= 2 and .metrics.shift_zone1_max <= 2 and
		.metrics.uplink_spread_compute <= 1' "$o/c.json" >/dev/null; then
		ok "job2 starts: no hard finding, shifts per zone $(jq -c '[.metrics.shift_zone0_max, .metrics.shift_zone1_max]' "$o/c.json"), spread <= 1"
	else
		not_ok "job2 starts: fabric-wide bars" "$o/c.json"
	fi
	"$FFROUTE" route "$net" -q -o "$o/end" --previous "$o/start" --jobs "$o/minus2" 2>"$o/err"
	m=$(python3 "$top_srcdir/tests/lib/lft_moved.py" "$o/start/opensm-lfts.dump" "$o/end/opensm-lfts.dump")
	case $m in
	"moved 0 of "*) ok "job2 ends: $m" ;;
	*) not_ok "job2 ends: $m" "$o/err" ;;
	esac
else
	not_ok "job change: route --previous --jobs" "$o/err"
fi

# ---- 4. a ring job and an unnamed job -------------------------------------------------
{ head -20 "$TMP/j/job1.hosts"; echo "job r ring"; head -30 "$TMP/j/job2.hosts"; } >"$TMP/ring.jobs"
if "$FFROUTE" route "$net" -q -o "$TMP/ring" --jobs "$TMP/ring.jobs" 2>"$TMP/ring.err"; then
	ok "an unnamed job and a ring job route"
else
	not_ok "ring / unnamed jobs" "$TMP/ring.err"
fi

# ---- 5. bad jobs files ---------------------------------------------------------------------
bad() {	# bad TEXT WANT
	printf '%b' "$1" >"$TMP/bad.jobs"
	"$FFROUTE" route "$net" -q -o "$TMP/bad" --jobs "$TMP/bad.jobs" >/dev/null 2>"$TMP/bad.err"
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$2" "$TMP/bad.err"; then ok "bad jobs file: $(grep -m1 error "$TMP/bad.err")"
	else not_ok "bad jobs file '$1': exit $rc, want 2 and '$2'" "$TMP/bad.err"; fi
}
bad 'job a dbt\ncn0001\njob a\ncn0002\n' "bad.jobs:3:5: error: a second job a"
bad 'job a tree\ncn0001\n' "bad.jobs:1:7: error: the collective is dbt or ring, not tree"
bad 'job a\nnosuchhost\n' "bad.jobs:2:1: error: unknown host 'nosuchhost'"
bad 'job a\ncn0001 cn0002\n' "bad.jobs:2:8: error: one host or GUID per line"
bad 'job a\n0x1234\n' "bad.jobs:2:1: error: no CA with GUID 0x0000000000001234"

# ---- 6. determinism -----------------------------------------------------------------------------
"$FFROUTE" route "$net" -q -o "$TMP/again" --jobs "$TMP/j/jobs" 2>/dev/null
if cmp -s "$TMP/jobs/opensm-lfts.dump" "$TMP/again/opensm-lfts.dump"; then ok "deterministic tables"
else not_ok "the same jobs routed twice differ" /dev/null; fi
tap_done

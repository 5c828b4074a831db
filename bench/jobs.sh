#!/bin/sh
# bench/jobs.sh [BUILDDIR] - job-aware routing (issue 29): the full
# Fire-Flyer 2 fabric (fabrics/ff2-bridge-full.net) with 6 jobs placed at
# random (tests/lib/gen_jobs.py: 16..256 compute hosts each, the first
# across both zones), for SEEDS (default 1 2 3).  Per seed: ffroute route
# without and with --jobs, then per job `hfreduce-check --paths --strict
# --job hosts:FILE` of both: passes (no double-binary-tree transfer below
# its endpoint-limited rate), predicted / ideal algorithm bandwidth; and
# the fabric-wide bars of the run with jobs (hard findings, shift max per
# zone, up-link spread per class).  Then, per seed, passes only on other
# cablings: fabrics/ff2-leaf2leaf-full.net and another generator's
# Fire-Flyer 2 with full leaves (tests/lib/gen_foreign.py ff2: 20 compute
# HCAs under 20 spines, unconfigured descriptions, cabled leaf to leaf).
# Then job changes: a job starts on a base routed without it (route
# --previous) and ends again: entries moved, of the running jobs' CAs and
# the rest, against routing from scratch.
# Markdown on stdout (bench/jobs.md keeps the last one).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
ff=$build/tools/ffroute
hc=$build/contrib/hfreduce/hfreduce-check
net=$top/fabrics/ff2-bridge-full.net
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-jobs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$ff" classify "$net" --nodes >"$tmp/nodes" 2>/dev/null
"$ff" route "$net" -q -o "$tmp/plain" 2>/dev/null
"$ff" check "$tmp/plain" --json >"$tmp/plain.json" 2>/dev/null || true
echo "| seed | job | ranks | zones | without --jobs: strict | GB/s (of ideal) | with --jobs: strict | GB/s (of ideal) | gain |"
echo "|---|---|---|---|---|---|---|---|---|"
for seed in ${SEEDS:-1 2 3}; do
	mkdir -p "$tmp/s$seed"
	python3 "$top/tests/lib/gen_jobs.py" "$tmp/nodes" "$tmp/s$seed" --seed "$seed" >/dev/null
	"$ff" route "$net" -q -o "$tmp/s$seed/r" --jobs "$tmp/s$seed/jobs" 2>/dev/null
	"$ff" check "$tmp/s$seed/r" --json >"$tmp/s$seed/c.json" 2>/dev/null || true
	for f in "$tmp/s$seed"/job*.hosts; do
		j=$(basename "$f" .hosts)
		n=$(wc -l <"$f")
		zones=$(awk 'NR == FNR { if ($0 ~ / role compute /) { split($0, q, "\x27"); split(q[2], h, " ")
				z = $0; sub(/.* zone /, "", z); sub(/ .*/, "", z); zone[h[1]] = z } next }
			{ seen[zone[$1]] = 1 } END { for (z in seen) n++; print n }' "$tmp/nodes" "$f")
		row="| $seed | $j | $n | $zones"
		for d in "$tmp/plain" "$tmp/s$seed/r"; do
			if "$hc" --paths "$d" --job "hosts:$f" --strict --summary --no-ring >"$tmp/h.out" 2>&1
			then v=pass; else v=FAIL; fi
			bw=$(sed -n 's/^  predicted: \([0-9.]*\) GB\/s, endpoint-limited ideal \([0-9.]*\) GB\/s (\([0-9.]*\) %).*/\1 (\3 %)/p' "$tmp/h.out" | head -1)
			row="$row | $v | $bw"
			eval "bw_$(basename "$d" | tr -c 'a-z0-9\n' '_')=\$(echo \"\$bw\" | cut -d' ' -f1)"
		done
		echo "$row | $(awk -v a="$bw_plain" -v b="$bw_r" 'BEGIN { printf "%+.1f %%", (b / a - 1) * 100 }') |"
		echo "$row $bw_plain $bw_r" >>"$tmp/rows"
	done
	jq -r --arg s "$seed" '"| \($s) | fabric bars with --jobs | | | hard findings \([.findings | to_entries[] | select(.value.hard) | .value.count] | add) | shift max zone0 \(.metrics.shift_zone0_max), zone1 \(.metrics.shift_zone1_max) | up-link spread compute \(.metrics.uplink_spread_compute), storage \(.metrics.uplink_spread_storage), other \(.metrics.uplink_spread_other) | | |"' \
		"$tmp/s$seed/c.json"
done
jq -r '"| - | fabric bars without --jobs | | | hard findings \([.findings | to_entries[] | select(.value.hard) | .value.count] | add) | shift max zone0 \(.metrics.shift_zone0_max), zone1 \(.metrics.shift_zone1_max) | up-link spread compute \(.metrics.uplink_spread_compute), storage \(.metrics.uplink_spread_storage), other \(.metrics.uplink_spread_other) | | |"' \
	"$tmp/plain.json"
# totals: passes without / with, the mean and geometric-mean gain of the predicted bandwidth
awk -F"|" '{ n++; k = split($0, w, " "); a = w[k - 1]; b = w[k]
	p0 += $6 ~ /pass/; p1 += $8 ~ /pass/; s += b / a; g += log(b / a) }
	END { printf "| all | %d jobs | | | %d pass | | %d pass | | mean %+.1f %%, geometric %+.1f %% |\n",
		n, p0, p1, (s / n - 1) * 100, (exp(g / n) - 1) * 100 }' "$tmp/rows"

# other cablings: per seed, how many jobs pass --strict without and with --jobs
passes() {	# passes DIR JOBDIR: "P of N (job0: ...), mean % of ideal" over the jobs
	n=0 p=0 x= sum=0
	for f in "$2"/job*.hosts; do
		n=$((n + 1))
		if "$hc" --paths "$1" --job "hosts:$f" --strict --summary --no-ring >"$tmp/p.out" 2>&1; then
			p=$((p + 1)); [ -n "$x" ] || x=pass
		else [ -n "$x" ] || x=FAIL; fi
		sum=$(sed -n 's/^  predicted: .* (\([0-9.]*\) %).*/\1/p' "$tmp/p.out" | head -1 |
			awk -v s="$sum" '{ print s + $1 }')
	done
	echo "$p of $n (job0 across zones: $x), $(awk -v s="$sum" -v n="$n" 'BEGIN { printf "%.1f", s / n }') %"
}
python3 "$top/tests/lib/gen_foreign.py" ff2 20 39 30 20 8 2 11 >"$tmp/foreign.topo"
echo
echo "| fabric | seed | without --jobs: jobs passing --strict, mean share of ideal bandwidth | with --jobs | non-minimal routes with --jobs | shift max / mean per zone with --jobs |"
echo "|---|---|---|---|---|---|"
for f in "$top/fabrics/ff2-leaf2leaf-full.net" "$tmp/foreign.topo"; do
	name=$(basename "$f" | sed 's/\.net$//; s/^foreign.topo$/foreign ff2, full leaves (gen_foreign.py ff2 20 39 30 20 8 2 11)/')
	"$ff" classify "$f" --nodes >"$tmp/o.nodes" 2>/dev/null
	"$ff" route "$f" -q -o "$tmp/o.plain" 2>/dev/null
	for seed in ${SEEDS:-1 2 3}; do
		rm -rf "$tmp/o"; mkdir -p "$tmp/o"
		python3 "$top/tests/lib/gen_jobs.py" "$tmp/o.nodes" "$tmp/o" --seed "$seed" >/dev/null
		"$ff" route "$f" -q -o "$tmp/o/r" --jobs "$tmp/o/jobs" 2>/dev/null
		"$ff" check "$tmp/o/r" --json >"$tmp/o/c.json" 2>/dev/null || true
		echo "| $name | $seed | $(passes "$tmp/o.plain" "$tmp/o") | $(passes "$tmp/o/r" "$tmp/o") |" \
			"$(jq -r '"\(.findings.non_minimal.count // 0) | \(.metrics.shift_zone0_max) / \(.metrics.shift_zone0_mean * 1000 | round / 1000), \(.metrics.shift_zone1_max) / \(.metrics.shift_zone1_mean * 1000 | round / 1000)"' "$tmp/o/c.json") |"
	done
done

# job changes: a job starts on a base routed without it (route --previous,
# the base's ffroute.jobs), and ends again; entries moved against from scratch
echo
echo "| seed | event | entries moved: the running jobs' CAs | the job's and idle CAs' | jobs passing --strict | from scratch: the running jobs' CAs moved |"
echo "|---|---|---|---|---|---|"
for seed in ${SEEDS:-1 2 3}; do
	for k in 0 2 4; do
		o=$tmp/chg
		rm -rf "$o"; mkdir -p "$o"
		python3 "$top/tests/lib/gen_jobs.py" "$tmp/nodes" "$o" --seed "$seed" >/dev/null
		awk -v k="job$k" '/^job /{ skip = ($2 == k) } !skip' "$o/jobs" >"$o/minus"
		others=$(ls "$o"/job*.hosts | grep -v "/job$k.hosts")
		"$ff" route "$net" -q -o "$o/base" --jobs "$o/minus" 2>/dev/null
		"$ff" route "$net" -q -o "$o/start" --previous "$o/base" --jobs "$o/jobs" 2>/dev/null
		"$ff" route "$net" -q -o "$o/scratch" --jobs "$o/jobs" 2>/dev/null
		"$ff" route "$net" -q -o "$o/end" --previous "$o/start" --jobs "$o/minus" 2>/dev/null
		# shellcheck disable=SC2086
		run=$(python3 "$top/tests/lib/lft_moved.py" "$o/base/opensm-lfts.dump" "$o/start/opensm-lfts.dump" $others)
		# shellcheck disable=SC2086
		scr=$(python3 "$top/tests/lib/lft_moved.py" "$o/base/opensm-lfts.dump" "$o/scratch/opensm-lfts.dump" $others)
		end=$(python3 "$top/tests/lib/lft_moved.py" "$o/start/opensm-lfts.dump" "$o/end/opensm-lfts.dump")
		p=0
		for f in "$o"/job*.hosts; do
			"$hc" --paths "$o/start" --job "hosts:$f" --strict --summary --no-ring >/dev/null 2>&1 && p=$((p + 1))
		done
		a=${run##* } tot=$(echo "$run" | sed 's/moved \([0-9]*\) of.*/\1/')
		echo "| $seed | job$k starts | $a | $((tot - a)) | $p of 6 | ${scr##* } |"
		echo "| $seed | job$k ends | $(echo "$end" | sed 's/moved \([0-9]*\) of.*/\1/') (all) | | | |"
	done
done

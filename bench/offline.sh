#!/bin/sh
# bench/offline.sh [BUILDDIR] - the offline benchmarks (reading, generating,
# checking, routing without OpenSM) and ffroute route's quality: bench/offline.md
# and the README's part between the offline markers.
# The comparison with OpenSM's engines under ibsim is bench/run.
# Built with the normal (optimised, no sanitizer) configuration.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
out=$top/bench/offline.md
work=$(mktemp -d "${TMPDIR:-/tmp}/ffr-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
make -C "$build" -s bench/bench_load bench/bench_gen bench/bench_check bench/bench_route >/dev/null
b=$build/bench/bench_load
gen=$("$b" gen "$work/big.ibnd")
load=$("$b" load "$work/big.ibnd" 9)
size=$(du -k "$work/big.ibnd" | cut -f1)
gen_ff2=$("$build/bench/bench_gen" 9)
check_ff2=$("$build/bench/bench_check" 9)
route_ff2=$("$build/bench/bench_route" ff2 9)
route_700=$("$build/bench/bench_route" ft3-700 3)
route_16k=$("$build/bench/bench_route" ft3-16k 3)
route_16k_1=$("$build/bench/bench_route" ft3-16k 1 1)	# one thread, for comparison
route_32k=$("$build/bench/bench_route" ft3-32k 1)	# issue 27: radix 64, 32,768 hosts
route_incr=$("$build/bench/bench_route" ft3-16k-incr 11)	# issue 27: one link down, the base kept (11 runs: a shared machine varies by 10 %)
ff=$build/tools/ffroute
# issue 27: the 32k tree end to end, as an operator runs it (read, classify, route,
# verify, write every dump); the 6.8 GB text dump is removed at once
"$ff" fabric fattree --levels 3 --radix 64 --hosts 32768 -o "$work/ft3-32k.net" 2>/dev/null
s0=$(date +%s.%N)
"$ff" route "$work/ft3-32k.net" -o "$work/ft3-32k" -q
s1=$(date +%s.%N)
# the floor of writing those bytes here: dd copies the text dump (in the page
# cache) to a new file and syncs it, as ffroute syncs each file it writes
d0=$(date +%s.%N)
dd if="$work/ft3-32k/opensm-lfts.dump" of="$work/copy" bs=1M conv=fsync 2>/dev/null
d1=$(date +%s.%N)
route_32k_e2e=$(printf 'route ft3-32k end to end (`ffroute route FILE -o DIR`: read, classify, route, verify, write %s MB): %.1f s; dd copying opensm-lfts.dump alone (%s MB, synced): %.1f s' \
	"$(du -sm "$work/ft3-32k" | cut -f1)" "$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')" \
	"$(du -sm "$work/copy" | cut -f1)" "$(awk -v a="$d0" -v b="$d1" 'BEGIN { print b - a }')")
rm -rf "$work/ft3-32k" "$work/copy"
# the same without the text dump (--no-lfts-dump: the tables in ffroute.lftb)
s0=$(date +%s.%N)
"$ff" route "$work/ft3-32k.net" -o "$work/ft3-32k" -q --no-lfts-dump
s1=$(date +%s.%N)
route_32k_e2e_bin=$(printf 'route ft3-32k end to end with `--no-lfts-dump` (the tables in ffroute.lftb; write %s MB): %.1f s' \
	"$(du -sm "$work/ft3-32k" | cut -f1)" "$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')")
rm -rf "$work/ft3-32k"
# and with the compact text dump (--lfts-compact: rows without their comments,
# which OpenSM's file engine loads, each LID as written)
s0=$(date +%s.%N)
"$ff" route "$work/ft3-32k.net" -o "$work/ft3-32k" -q --lfts-compact
s1=$(date +%s.%N)
route_32k_e2e_compact=$(printf 'route ft3-32k end to end with `--lfts-compact` (opensm-lfts.dump %s MB; write %s MB in all): %.1f s' \
	"$(du -sm "$work/ft3-32k/opensm-lfts.dump" | cut -f1)" "$(du -sm "$work/ft3-32k" | cut -f1)" \
	"$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')")
rm -rf "$work/ft3-32k" "$work/ft3-32k.net"
# routing quality: ffroute route --check on the reference fabrics (+ generated degraded
# frames, and the fabrics of tests/data/foreign, another generator's)
"$ff" fabric frame --size full --drop-links 0.01 --seed 1 -o "$work/frame-full-degraded1.net" 2>/dev/null
"$ff" fabric frame --size full --drop-links 0.05 --seed 1 -o "$work/frame-full-degraded5.net" 2>/dev/null
quality=$(
	echo "| fabric | hard | credit loops (CA / switch) | VLs | non-minimal in zones | up-link spread c/s/o | shift max (LB) | shift mean (LB mean) | per zone / rail shift max | inter-zone max/mean | EBB |"
	echo "|---|---:|---|---:|---:|---|---|---|---|---:|---:|"
	for net in "$top"/fabrics/frame-director-full.net "$work"/frame-full-degraded1.net \
		"$work"/frame-full-degraded5.net "$top"/fabrics/ff2-*-full*.net \
		"$top"/fabrics/multiframe-director-full.net "$top"/fabrics/rail2-full.net \
		"$top"/fabrics/rail3-full.net "$top"/fabrics/railonly-full.rail0.net \
		"$top"/tests/data/foreign/*.topo; do
		n=$(basename "$net")
		n=${n%.*}
		# torus, dragonfly: declined by default; their quality when asked to route
		"$ff" route "$net" -o "$work/$n" -q --check --json --non-tree route >"$work/$n.json" 2>/dev/null
		vls=1
		[ -f "$work/$n/ffroute.sl" ] && vls=2
		jq -r --arg n "$n" --arg vls "$vls" '.metrics as $m | [$n, .hard_findings,
			"\(.findings.credit_loop.count) / \(.findings.credit_loop_switch.count)",
			$vls,
			([$m | to_entries[] | select(.key | test("^nonminimal_routes_zone")) | .value] | add // 0),
			"\($m.uplink_spread_compute)/\($m.uplink_spread_storage)/\($m.uplink_spread_other)",
			"\($m.shift_max) (\($m.shift_lb_max))",
			"\($m.shift_mean * 1000 | round / 1000) (\($m.shift_lb_mean * 1000 | round / 1000))",
			(if $m.shift_zone0_max then ([$m | to_entries[] | select(.key | test("^shift_zone[0-9]+_max$")) | .value] | max | tostring) + " (zones)"
			 elif $m.shift_rail_max then "\($m.shift_rail_max) (rails)" else "-" end),
			(if $m.xzone_link_routes_max_over_mean then ($m.xzone_link_routes_max_over_mean * 1000 | round / 1000 | tostring) else "-" end),
			($m.ebb * 1000 | round / 1000)] | "| " + (map(tostring) | join(" | ")) + " |"' "$work/$n.json"
	done)
{
	echo "# ffroute benchmarks"
	echo
	echo "Machine: $(nproc) cores, $(uname -m), $(. /etc/os-release; echo "$PRETTY_NAME"), CFLAGS: default (-O2 -g)."
	echo "Date: $(date -u +%Y-%m-%d)."
	echo
	echo "## Load a 4,000-CA, 700-switch ibnetdiscover file (issue 2 bar: < 0.2 s, < 100 MB)"
	echo
	echo "- $gen (${size} KiB)"
	echo "- $load"
	echo
	echo "## Generate the full Fire-Flyer 2 fabric (issue 3 bar: < 1 s)"
	echo
	echo "- $gen_ff2"
	echo
	echo "## Check the full Fire-Flyer 2 fabric with all metrics (issue 4 bar: < 2 s)"
	echo
	echo "Routed min-hop D-mod-K by tests/unit/route_util.h; timed: classify, findings, metrics."
	echo
	echo "$check_ff2" | sed 's/^/- /'
	echo
	echo "## Route: classify + route + verify (issue 7 bars: ff2 <= 50 ms, 700-switch 3-level <= 1 s, 16k endpoints <= 2 s; memory <= 3 x LFT + topology)"
	echo
	echo "- $route_ff2"
	echo "- $route_700"
	echo "- $route_16k"
	echo "- $route_16k_1"
	echo "- $route_32k"
	echo "- $route_32k_e2e"
	echo "- $route_32k_e2e_bin"
	echo "- $route_32k_e2e_compact"
	echo "- $route_incr"
	echo
	echo "## Routing quality (ffroute route --check; seeds 1; all shifts up to 1024 HCAs, else 64 sampled)"
	echo
	echo "$quality"
	echo
} >"$out"
cat "$out"
# the README's part: the same lines and table, between the offline markers
{
	echo "Date: $(date -u +%Y-%m-%d). Machine: $(nproc) cores, $(. /etc/os-release; echo "$PRETTY_NAME"), \`-O2\`. Bars in brackets."
	echo
	echo "- $load [< 0.2 s, < 100 MB]"
	echo "- $gen_ff2 [< 1 s]"
	echo "- $check_ff2" | head -1 | sed 's/$/ [< 2 s]/'
	echo "- $route_ff2 [<= 50 ms]"
	echo "- $route_700 [<= 1 s]"
	echo "- $route_16k [<= 2 s; memory <= 3 x LFT + topology]"
	echo "- $route_16k_1 [the same on one thread]"
	echo "- $route_32k [issue 27: <= 5 s in-process]"
	echo "- $route_32k_e2e [issue 27: <= 10 s]"
	echo "- $route_32k_e2e_bin [issue 27: <= 10 s]"
	echo "- $route_32k_e2e_compact [issue 27: <= 10 s]"
	echo "- $route_incr"
	echo
	echo "Routing quality of \`ffroute route --check\` (c/s/o = compute/storage/other; LB = the checker's physical lower bound; degraded frames generated with seed 1; taper4, taper2-randwire, randwire, torus, dragonfly: tests/data/foreign):"
	echo
	echo "$quality"
} >"$work/readme.part"
sh "$top/bench/splice.sh" offline "$work/readme.part" "$top/README.md"

#!/bin/sh
# bench/run.sh [BUILDDIR] - run the benchmarks and write bench/results.md.
# Built with the normal (optimised, no sanitizer) configuration.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
out=$top/bench/results.md
work=$(mktemp -d "${TMPDIR:-/tmp}/ffr-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
make -C "$build" -s bench/bench_load bench/bench_gen bench/bench_check >/dev/null
b=$build/bench/bench_load
gen=$("$b" gen "$work/big.ibnd")
load=$("$b" load "$work/big.ibnd" 9)
size=$(du -k "$work/big.ibnd" | cut -f1)
gen_ff2=$("$build/bench/bench_gen" 9)
check_ff2=$("$build/bench/bench_check" 9)
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
} >"$out"
cat "$out"

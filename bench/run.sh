#!/bin/sh
# bench/run.sh [BUILDDIR] - run the benchmarks and write bench/results.md.
# Built with the normal (optimised, no sanitizer) configuration.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
out=$top/bench/results.md
work=$(mktemp -d "${TMPDIR:-/tmp}/ffr-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
make -C "$build" -s bench/bench_load >/dev/null
b=$build/bench/bench_load
gen=$("$b" gen "$work/big.ibnd")
load=$("$b" load "$work/big.ibnd" 9)
size=$(du -k "$work/big.ibnd" | cut -f1)
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
} >"$out"
cat "$out"

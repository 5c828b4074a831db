#!/bin/sh
# bench/splice.sh NAME PART FILE - replace what stands between the lines
# "<!-- NAME:begin -->" and "<!-- NAME:end -->" of FILE (the README) by the
# contents of PART: how the benchmarks write their tables into the README
# without anyone editing a number by hand.  FILE is replaced whole, or not.
set -eu
grep -q "<!-- $1:begin -->" "$3" && grep -q "<!-- $1:end -->" "$3" ||
	{ echo "splice.sh: no $1 markers in $3" >&2; exit 1; }
tmp=$(mktemp "$3.XXXXXX")
awk -v part="$2" -v b="<!-- $1:begin -->" -v e="<!-- $1:end -->" '
	$0 == b { print; while ((getline l < part) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$3" >"$tmp" && mv "$tmp" "$3"

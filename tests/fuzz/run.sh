#!/bin/sh
# tests/fuzz/run.sh BUILDDIR [SECONDS] - run every libFuzzer target briefly.
# Seeds: the test fixtures of each format plus the real third-party dumps.
# New inputs go to a temporary corpus; a crash leaves crash-* in the cwd
# and fails the run.
set -eu
build=${1:?usage: run.sh BUILDDIR [SECONDS]}
secs=${2:-20}
src=$(cd "$(dirname "$0")/../.." && pwd)
real=${REAL_FIXTURES:-$src/tests/data/real}
work=$(mktemp -d "${TMPDIR:-/tmp}/ffr-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

seed() { # seed TARGET FILE...
	mkdir -p "$work/$1"
	for f in "$@"; do
		[ "$f" = "$1" ] && continue
		[ -f "$f" ] && cp "$f" "$work/$1/" 2>/dev/null || true
	done
}
seed ibnd "$src"/tests/data/ibnd/* "$real"/*.txt "$real"/*small_topo_file "$real"/*.topo
seed ibnd_ports "$src"/tests/data/ibnd/* "$real"/*ibnetdiscover-p*
seed net "$src"/tests/data/net/* "$src"/fabrics/demo/*.net
seed lst "$src"/tests/data/lst/* "$real"/*.lst
seed osm_lfts "$src"/tests/data/lft/*
seed fdbs "$src"/tests/data/lft/* "$real"/*.fdbs
seed ibroute "$src"/tests/data/lft/*
seed slots "$src"/tests/data/cli/*.slots
mkdir -p "$work/jobs"	# first byte: odd a jobs file, even a classes file
printf '\001job a dbt\nca\n0x100003\njob b ring\r0x100004\r' >"$work/jobs/jobs"
printf '\000class a sl 0 weight 9 default\nclass b sl 2 roles storage,mgmt high\n' >"$work/jobs/classes"
# check: "topology, %%, tables" pairs that bind
pair() { # pair NAME TOPO LFT
	mkdir -p "$work/check"
	[ -f "$2" ] && [ -f "$3" ] && { cat "$2"; echo "%%"; cat "$3"; } >"$work/check/$1"
}
pair tiny "$src"/tests/data/cli/tiny.topo "$src"/tests/data/cli/tiny.lfts
for f in "$src"/tests/data/lft/*.lfts "$src"/tests/data/lft/*.fdbs "$src"/tests/data/lft/*.ibr*; do
	pair "3sw-$(basename "$f")" "$src"/tests/data/lft/3sw.lst "$f"
done
pair ibutils "$real"/ibutils__subnet.lst "$real"/ibutils__osm.fdbs

status=0
mkdir -p "$work/lftb"
for t in ibnd ibnd_ports net lst osm_lfts fdbs ibroute check slots jobs lftb; do
	bin=$build/tests/fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "fuzz_$t: not built (configure CC=clang --enable-fuzz)"; exit 1; }
	# seed inputs that are huge slow the run down; cap the size
	if "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "$work/$t" >"$work/$t.log" 2>&1; then
		echo "fuzz_$t: ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t.log" | grep -o '[0-9]*$') runs)"
	else
		echo "fuzz_$t: FAILED"; tail -40 "$work/$t.log"; status=1
	fi
done
exit $status

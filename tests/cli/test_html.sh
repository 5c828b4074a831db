#!/bin/sh
# tests/cli/test_html.sh - the HTML report (`ffroute check --html`,
# `ffroute diff --html`) and `ffroute diff` exit status, on routings that
# OpenSM 3.3.23 computes under ibsim:
#   tests/data/html/esc.net  3 spines x 3 leaves whose descriptions hold
#                            "<&>" and "<script>" (escaping), a missing
#                            and a doubled up-link; minhop and updn
#   frame (generated)        one 4 x 8 frame; minhop and ftree
#   ff2 (generated)          two zones; minhop
# Structure: one <html>, balanced tags, every '<' starts a tag, one
# "heatmap routes" <svg> per zone and routing with spines x leaves cells
# (2 <rect> each).  Rendering: when chromium is installed, each page is
# rendered headless; the PNG must be larger than a blank page rendered at
# the same size, and --dump-dom must show the same heat maps.
# diff exit status: identical (LIDs renumbered) 0, different 1, different
# fabrics or bad arguments 2.
#
# Environment (tests/subdir.am): FFROUTE, top_srcdir.
# Exit status: 0 passed, 1 failed, 77 skipped (no ibsim/opensm).

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"
# shellcheck disable=SC1091
. "$top_srcdir/tests/lib/sim.sh"

sim_require
sim_workdir
W=$SIM_DIR
. "$top_srcdir/tests/lib/tap.sh"

# check COND_STATUS TEXT: record the result of the previous command
check() { if [ "$1" -eq 0 ]; then ok "$2"; else not_ok "$2"; fi; }

# run WANT CMD...: CMD exits with WANT (a list like "0 1" is allowed)
run() {
	want=$1
	shift
	"$@" >"$W/out" 2>"$W/err"
	rc=$?
	for w in $want; do
		[ "$rc" -eq "$w" ] && { ok "exit $rc: $*"; return 0; }
	done
	not_ok "exit $want (got $rc): $*" "$W/out" "$W/err"
	return 1
}

# count FILE STRING: occurrences of STRING in FILE
count() { grep -oF -- "$2" "$1" | wc -l | tr -d ' '; }

# eq WHAT GOT WANT
eq() {
	if [ "$2" = "$3" ]; then ok "$1: $2"; else not_ok "$1: got '$2', want '$3'"; fi
}

# route NET NAME ENGINE...: OpenSM dumps of NET per engine in $W/NAME-ENGINE
route() {
	net=$1
	name=$2
	shift 2
	sim_start "$net" || { not_ok "ibsim starts on $net" "$SIM_DIR/ibsim.log"; return 1; }
	for e in "$@"; do
		rm -rf "$SIM_DIR/dump" && mkdir -p "$SIM_DIR/dump"
		if SIM_OSM_CONF="routing_engine $e" sim_opensm; then
			mkdir -p "$W/$name-$e"
			cp "$SIM_DIR/dump/opensm-subnet.lst" "$SIM_DIR/dump/opensm-lfts.dump" \
				"$W/$name-$e/"
		else
			not_ok "OpenSM $e on $name" "$SIM_DIR/opensm.out"
		fi
	done
	sim_stop
}

# wellformed HTML: the structure report_html promises
wellformed() {
	f=$1
	[ -s "$f" ] || { not_ok "$(basename "$f") was written"; return 1; }
	eq "$(basename "$f"): <html>" "$(count "$f" '<html')" 1
	eq "$(basename "$f"): </html>" "$(count "$f" '</html>')" 1
	eq "$(basename "$f"): <body>" "$(count "$f" '<body>')" 1
	for tag in svg table figure ul tr title; do
		eq "$(basename "$f"): <$tag> closed" "$(count "$f" "<$tag")" \
			"$(count "$f" "</$tag>")"
	done
	eq "$(basename "$f"): <g> closed" "$(count "$f" '<g')" "$(count "$f" '</g>')"
	bad=$(grep -o '<[^a-zA-Z/!]' "$f" | head -3 | tr '\n' ' ')
	eq "$(basename "$f"): every '<' starts a tag" "$bad" ""
	eq "$(basename "$f"): no <script>" "$(count "$f" '<script')" 0
	eq "$(basename "$f"): no external resources" \
		"$(grep -c -E '(src|href)="(https?:|//)' "$f")" 0
}

# maps FILE: "spines x leaves cells rects" of each "heatmap routes" SVG
maps() {
	awk '/<svg class="heatmap routes"/ {
		on = 1; c = 0; r = 0
		match($0, /data-spines="[0-9]+"/); s = substr($0, RSTART + 13, RLENGTH - 14)
		match($0, /data-leaves="[0-9]+"/); l = substr($0, RSTART + 13, RLENGTH - 14)
	}
	on { c += gsub(/<g class="c">/, "&"); r += gsub(/<rect /, "&") }
	on && /<\/svg>/ { print s "x" l " " c " " r; on = 0 }' "$1"
}

# heatmaps FILE N SPINES LEAVES: N routes maps, each SPINES x LEAVES cells
heatmaps() {
	[ -s "$1" ] || return 1
	eq "$(basename "$1"): heat maps (routes)" "$(maps "$1" | wc -l | tr -d ' ')" "$2"
	want=$(awk -v s="$3" -v l="$4" -v n="$2" \
		'BEGIN { for (i = 0; i < n; i++) print s "x" l " " s * l " " 2 * s * l }')
	eq "$(basename "$1"): spines x leaves, cells, rects" "$(maps "$1" | tr '\n' ';')" \
		"$(printf '%s\n' "$want" | tr '\n' ';')"
}

# ---- routings ---------------------------------------------------------------

"$FFROUTE" fabric frame -o "$W/frame.net" >/dev/null 2>&1 || not_ok "ffroute fabric frame"
"$FFROUTE" fabric ff2 -o "$W/ff2.net" >/dev/null 2>&1 || not_ok "ffroute fabric ff2"
route "$top_srcdir/tests/data/html/esc.net" esc minhop updn
route "$W/frame.net" frame minhop ftree
route "$W/ff2.net" ff2 minhop
for d in esc-minhop esc-updn frame-minhop frame-ftree ff2-minhop; do
	[ -s "$W/$d/opensm-lfts.dump" ] || { echo "FAIL: no OpenSM dump $d"; exit 1; }
done

# ---- check --html -------------------------------------------------------------

run "0 1" "$FFROUTE" check --html "$W/r.html" "$W/esc-minhop"
wellformed "$W/r.html"
heatmaps "$W/r.html" 1 3 3
n=$(count "$W/r.html" 'leaf&lt;&amp;&gt;02')
[ "$n" -gt 0 ]
check $? "r.html: '<&>' in a NodeDescription is escaped ($n times)"
eq "r.html: no raw '<&>'" "$(count "$W/r.html" '<&>')" 0
grep -q 'leaf03 ↔ spine03: no link' "$W/r.html"
check $? "r.html: the missing link leaf03-spine03 is a 'no link' cell"
grep -q 'leaf03 ↔ spine02: up [0-9]*, down [0-9]* (2 links)' "$W/r.html"
check $? "r.html: the two parallel links leaf03-spine02 are summed in one cell"
grep -q 'class="hist"' "$W/r.html" && grep -q 'id="metrics"' "$W/r.html" &&
	grep -q 'id="findings"' "$W/r.html" && grep -q 'class="badge' "$W/r.html"
check $? "r.html: summary badge, findings, histogram and metric sections"

z0s=$(grep -c '"MF0;zone0:[^"]*/S[0-9]' "$W/ff2.net")
z0l=$(grep -c '"MF0;zone0:[^"]*/L[0-9]' "$W/ff2.net")
run "0 1" "$FFROUTE" check --html "$W/ff2.html" "$W/ff2-minhop"
wellformed "$W/ff2.html"
heatmaps "$W/ff2.html" 2 "$z0s" "$z0l"

# ---- diff ---------------------------------------------------------------------

fs=$(grep -c '"MF0;frame0:[^"]*/S[0-9]' "$W/frame.net")
fl=$(grep -c '"MF0;frame0:[^"]*/L[0-9]' "$W/frame.net")
run 1 "$FFROUTE" diff --html "$W/d.html" "$W/frame-minhop" "$W/frame-ftree"
grep -q '^LFT entries that differ: [1-9]' "$W/out"
check $? "diff minhop ftree: counts the differing LFT entries"
wellformed "$W/d.html"
heatmaps "$W/d.html" 2 "$fs" "$fl"
eq "d.html: both routings named" "$(grep -c 'frame-minhop\|frame-ftree' "$W/d.html" | \
	awk '{ print ($1 > 0) }')" 1

run 1 "$FFROUTE" diff --json "$W/esc-minhop" "$W/esc-updn"
grep -q '"a":' "$W/out" && grep -q '"b":' "$W/out" && grep -q '"lft_entries_differ": [1-9]' "$W/out"
check $? "diff --json: a, b and diff objects"
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool "$W/out" >/dev/null 2>&1
	check $? "diff --json is valid JSON"
fi

# the same routing with two CA LIDs swapped: identical by destination port
mkdir -p "$W/esc-swap"
cp "$W/esc-minhop/opensm-lfts.dump" "$W/esc-swap/"
la=$(sed -n 's/.*{cn0001 mlx5_0} LID:\([0-9A-Fa-f]*\) .*/\1/p' "$W/esc-minhop/opensm-subnet.lst" | head -1)
lb=$(sed -n 's/.*{cn0002 mlx5_0} LID:\([0-9A-Fa-f]*\) .*/\1/p' "$W/esc-minhop/opensm-subnet.lst" | head -1)
sed "s/LID:$la /LID:XXXX /g; s/LID:$lb /LID:$la /g; s/LID:XXXX /LID:$lb /g" \
	"$W/esc-minhop/opensm-subnet.lst" >"$W/esc-swap/opensm-subnet.lst"
cmp -s "$W/esc-minhop/opensm-subnet.lst" "$W/esc-swap/opensm-subnet.lst"
[ $? -eq 1 ] && [ -n "$la" ] && [ -n "$lb" ]
check $? "LIDs $la and $lb swapped in a copy"
run 0 "$FFROUTE" diff "$W/esc-minhop" "$W/esc-swap"
run 0 "$FFROUTE" diff "$W/esc-minhop" \
	"$W/esc-swap/opensm-subnet.lst:$W/esc-minhop/opensm-lfts.dump"
run 2 "$FFROUTE" diff "$W/frame-minhop" "$W/esc-minhop"
grep -q 'not states of one fabric: no switch GUID is in both' "$W/err"
check $? "diff of two fabrics says why"
run 2 "$FFROUTE" diff "$W/esc-minhop"
run 2 "$FFROUTE" diff "$W/esc-minhop" "$W/no-such-dir"
run 2 "$FFROUTE" diff --seed x "$W/esc-minhop" "$W/esc-updn"
[ ! -e "$W/bad.html" ]
run 2 "$FFROUTE" diff --html "$W/bad.html" "$W/frame-minhop" "$W/esc-minhop"
[ ! -e "$W/bad.html" ]
check $? "a refused diff writes no HTML file"

for f in r.html ff2.html d.html; do
	echo "# $f: $(wc -c <"$W/$f") bytes"
done

# ---- rendering ------------------------------------------------------------------

chrome() {
	prof=$(mktemp -d "$W/chrome.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --hide-scrollbars --user-data-dir="$prof" "$@" 2>/dev/null
	rc=$?
	rm -rf "$prof"
	return $rc
}

if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: chromium not installed (render check)"
else
	printf '<!DOCTYPE html>\n<html><head><title>blank</title></head><body></body></html>\n' \
		>"$W/blank.html"
	chrome --screenshot="$W/blank.png" --window-size=1400,2000 "file://$W/blank.html" >/dev/null
	blank=$(wc -c <"$W/blank.png" 2>/dev/null || echo 0)
	for f in r ff2 d; do
		chrome --screenshot="$W/$f.png" --window-size=1400,2000 "file://$W/$f.html" >/dev/null
		size=$(wc -c <"$W/$f.png" 2>/dev/null || echo 0)
		magic=$(head -c 4 "$W/$f.png" 2>/dev/null | od -An -c | tr -d ' ')
		[ "$magic" = '211PNG' ] && [ "$size" -gt "$blank" ] && [ "$blank" -gt 0 ]
		check $? "$f.html renders: PNG of $size bytes, blank page $blank bytes"
		chrome --dump-dom "file://$W/$f.html" >"$W/$f.dom"
		eq "$f.html rendered DOM: <svg> elements" "$(count "$W/$f.dom" '<svg')" \
			"$(count "$W/$f.html" '<svg')"
		eq "$f.html rendered DOM: heat-map cells" "$(count "$W/$f.dom" '<g class="c">')" \
			"$(count "$W/$f.html" '<g class="c">')"
	done
fi

tap_done

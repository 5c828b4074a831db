#!/bin/sh
# tests/cli/test_real_fixtures.sh - ffroute against real third-party dumps.
#
# Every file in $REAL_FIXTURES (default tests/data/real; read only,
# never edited) that is a fabric must load with "ffroute info", exit 0, and
# report the node and link counts this script derives independently from
# the raw text with grep/awk:
#   ibnetdiscover  switches = records starting "Switch", CAs = "Ca",
#                  SHARP ANs = "Ca" records named "...Aggregation Node",
#                  links = port lines / 2 (each link is listed from both
#                  ends), switch-CA = port lines of Switch records to "H-",
#                  radix = the port count of each Switch header,
#                  width x speed = the last token of Switch port lines
#                  (switch-switch lines halved), LIDs from the headers
#   .lst           distinct NodeGUIDs by type; links = lines / 2
#   ibnetdiscover -p  distinct port GUIDs by type (own and peer columns),
#                  links = distinct unordered (guid,port) pairs
# The .lst + .fdbs pair converts to opensm-lfts with one table per switch
# named in the .fdbs (62), and perfquery output is refused with status 2.
# Skips (77) when the directory is missing.

: "${FFROUTE:?FFROUTE not set}"
REAL=${REAL_FIXTURES:-${top_srcdir:-.}/tests/data/real}
if [ ! -d "$REAL" ]; then
	echo "SKIP: no real fixtures in $REAL"
	exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-real.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"
has() {
	if grep -qxF -- "$2" "$1"; then ok "$3: '$2'"; else not_ok "$3: expected '$2'" "$1"; fi
}

# info FILE: run "ffroute info FILE" expecting status 0
info() {
	"$FFROUTE" info "$1" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then ok "info $(basename "$1") exit 0"; else
		not_ok "info $(basename "$1") exit $rc" "$TMP/err"; fi
}

check_ibnd() {
	f=$1
	b=$(basename "$f")
	nsw=$(grep -c '^Switch' "$f")
	nca=$(grep -c '^Ca' "$f")
	nan=$(grep -c '^Ca.*"Mellanox Technologies Aggregation Node"' "$f")
	nrt=$(grep -c '^Rt' "$f")
	set -- $(awk '
		/^(Switch|Ca|Rt)/ { type = $1; next }
		/^\[/ { n++; if (type == "Switch" && $0 ~ /"H-/) sc++ }
		END { printf "%d %d\n", n / 2, sc }' "$f")
	nlinks=$1
	nsc=$2
	info "$f"
	has "$TMP/out" "format: ibnetdiscover" "$b"
	has "$TMP/out" "switches: $nsw" "$b"
	has "$TMP/out" "CAs: $nca (hosts $((nca - nan)), SHARP aggregation nodes $nan)" "$b"
	has "$TMP/out" "routers: $nrt" "$b"
	grep -q "^links: $nlinks (switch-switch $((nlinks - nsc)), switch-CA $nsc, other 0)$" \
		"$TMP/out" && ok "$b: $nlinks links, $nsc switch-CA" ||
		not_ok "$b: expected $nlinks links, $nsc switch-CA" "$TMP/out"
	# radix histogram
	awk '/^Switch/ { print $2 }' "$f" | sort -n | uniq -c |
		awk '{ printf "  %s %s\n", $2, $1 }' >"$TMP/radix"
	sed -n '/^switches by radix/,/^switches by cabled/p' "$TMP/out" | sed '1d;$d' >"$TMP/got"
	cmp -s "$TMP/radix" "$TMP/got" && ok "$b: radix histogram" ||
		not_ok "$b: radix histogram" "$TMP/radix" "$TMP/got"
	# width x speed histogram (as a set of lines; info orders by speed)
	awk '/^(Switch|Ca|Rt)/ { type = $1; next }
		/^\[/ && type == "Switch" {
			k = $NF
			if ($0 ~ /"S-/) ss[k]++; else h[k]++
		}
		END { for (k in ss) h[k] += ss[k] / 2; for (k in h) printf "  %s %d\n", k, h[k] }' \
		"$f" | sort >"$TMP/ws"
	sed -n '/^links by width x speed/,/^LIDs:/p' "$TMP/out" | sed '1d;$d' | sort >"$TMP/got"
	cmp -s "$TMP/ws" "$TMP/got" && ok "$b: width x speed histogram" ||
		not_ok "$b: width x speed histogram" "$TMP/ws" "$TMP/got"
	# LID range from the switch headers and the CA port lines
	lids=$(awk '
		function upd(l, m) { if (min == "" || l + 0 < min) min = l + 0
			if (l + 2 ^ m - 1 > max) max = l + 2 ^ m - 1 }
		/^Switch/ && match($0, /port 0 lid [0-9]+ lmc [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), a, " "); upd(a[4], a[6]) }
		/^\[/ && match($0, /# lid [0-9]+ lmc [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), a, " "); upd(a[3], a[5]) }
		END { printf "%d-%d", min, max }' "$f")
	grep -q "^LIDs: $lids, " "$TMP/out" && ok "$b: LIDs $lids" ||
		not_ok "$b: expected LIDs $lids" "$TMP/out"
}

check_lst() {
	f=$1
	b=$(basename "$f")
	guids() {
		grep -o '{ [A-Za-z-]* Ports:[0-9A-Fa-f]* SystemGUID:[0-9a-fA-F]* NodeGUID:[0-9a-fA-F]*' "$f" |
			awk '{ split($2, t, "-"); split($5, g, ":"); print t[1], tolower(g[2]) }' | sort -u
	}
	nsw=$(guids | grep -c '^SW ')
	nca=$(guids | grep -c '^CA ')
	nlinks=$(($(grep -c '^{' "$f") / 2))
	info "$f"
	has "$TMP/out" "format: lst" "$b"
	has "$TMP/out" "switches: $nsw" "$b"
	grep -q "^CAs: $nca " "$TMP/out" && ok "$b: $nca CAs" || not_ok "$b: expected $nca CAs" "$TMP/out"
	grep -q "^links: $nlinks " "$TMP/out" && ok "$b: $nlinks links" ||
		not_ok "$b: expected $nlinks links" "$TMP/out"
}

check_ibnd_ports() {
	f=$1
	b=$(basename "$f")
	awk '$1 ~ /^(CA|SW|RT)$/ { print $1, $4; if ($7 == "-") print $8, $11 }' "$f" |
		sort -u >"$TMP/nodes"
	nsw=$(grep -c '^SW ' "$TMP/nodes")
	nca=$(grep -c '^CA ' "$TMP/nodes")
	nlinks=$(awk '$7 == "-" { a = $4 ":" $3; b = $11 ":" $10
		print (a < b ? a " " b : b " " a) }' "$f" | sort -u | wc -l)
	nlinks=$((nlinks + 0))
	info "$f"
	has "$TMP/out" "format: ibnetdiscover-ports" "$b"
	has "$TMP/out" "switches: $nsw" "$b"
	grep -q "^CAs: $nca " "$TMP/out" && ok "$b: $nca CAs" || not_ok "$b: expected $nca CAs" "$TMP/out"
	grep -q "^links: $nlinks " "$TMP/out" && ok "$b: $nlinks links" ||
		not_ok "$b: expected $nlinks links" "$TMP/out"
}

check_not_fabric() {
	f=$1
	"$FFROUTE" info "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 2 ] && ok "info refuses $(basename "$f") (exit 2)" ||
		not_ok "info $(basename "$f"): exit $rc, expected 2" "$TMP/out" "$TMP/err"
	grep -qF "$f: error: cannot tell the topology format" "$TMP/err" &&
		ok "clear message for $(basename "$f")" ||
		not_ok "no clear message for $(basename "$f")" "$TMP/err"
}

for f in "$REAL"/*; do
	[ -f "$f" ] || continue
	case $(basename "$f") in
	README*) continue ;;
	*perfquery*) check_not_fabric "$f" ;;
	*.fdbs) ;;	# forwarding tables: checked with their .lst below
	*)
		if grep -q '^{ .*Ports:' "$f"; then
			check_lst "$f"
		elif grep -qE '^(CA|SW) +[0-9]+ +[0-9]+ 0x' "$f"; then
			check_ibnd_ports "$f"
		elif grep -qE '^(Switch|Ca)[ 	]+[0-9]+ "' "$f"; then
			check_ibnd "$f"
		else
			"$FFROUTE" info "$f" >/dev/null 2>&1
			rc=$?
			[ "$rc" -lt 128 ] && ok "unknown $(basename "$f"): no crash ($rc)" ||
				not_ok "unknown $(basename "$f"): crashed ($rc)"
		fi
		;;
	esac
done

# The real .lst + .fdbs pair: one opensm-lfts table per switch of the .fdbs
LST=$REAL/ibutils__subnet.lst
FDBS=$REAL/ibutils__osm.fdbs
if [ -f "$LST" ] && [ -f "$FDBS" ]; then
	nfdbs=$(grep -c 'dump_ucast_routes: Switch 0x' "$FDBS")
	[ "$nfdbs" -eq 62 ] && ok "osm.fdbs names 62 switches" || not_ok "osm.fdbs names $nfdbs switches"
	"$FFROUTE" convert "$LST" --lft "$FDBS" --to opensm-lfts -o "$TMP/lfts" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 0 ] && ok "convert .lst + .fdbs to opensm-lfts" ||
		not_ok "convert .lst + .fdbs: exit $rc" "$TMP/err"
	n=$(grep -c '^Unicast lids \[' "$TMP/lfts" 2>/dev/null)
	[ "${n:-0}" -eq "$nfdbs" ] && ok "opensm-lfts has a table for all $nfdbs switches" ||
		not_ok "opensm-lfts has ${n:-0} tables, expected $nfdbs" "$TMP/lfts"
	grep -o 'Switch 0x[0-9a-fA-F]*' "$FDBS" | sed 's/Switch 0x//' | tr 'A-F' 'a-f' |
		sort -u >"$TMP/want"
	grep '^Unicast lids' "$TMP/lfts" 2>/dev/null | sed 's/.* guid 0x\([0-9a-fA-F]*\).*/\1/' |
		tr 'A-F' 'a-f' | sort -u >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" && ok "the tables are for the switches of the .fdbs" ||
		not_ok "switch GUIDs of the tables differ from the .fdbs" "$TMP/want" "$TMP/got"
	# the same routes: (switch, LID, port) for every LID with a port
	awk '/Switch 0x/ { sw = tolower($NF); sub(/^0x/, "", sw) }
		/^0x[0-9a-fA-F]+ : [0-9]+/ { printf "%s %s %d\n", sw, tolower($1), $3 }' \
		"$FDBS" | sort >"$TMP/want"
	awk '/^Unicast lids/ { sw = $0; sub(/.* guid 0x/, "", sw); sub(/[^0-9a-fA-F].*/, "", sw)
			sw = tolower(sw) }
		/^0x[0-9a-fA-F]+ [0-9]+/ { printf "%s %s %d\n", sw, tolower($1), $2 }' \
		"$TMP/lfts" 2>/dev/null | sort >"$TMP/got"
	nroutes=$(wc -l <"$TMP/want")
	[ "$nroutes" -eq 4030 ] && ok "osm.fdbs has 4030 routes" || not_ok "osm.fdbs: $nroutes routes"
	cmp -s "$TMP/want" "$TMP/got" && ok "opensm-lfts holds the same $nroutes routes" ||
		not_ok "opensm-lfts routes differ from the .fdbs" "$TMP/got"
fi

tap_done

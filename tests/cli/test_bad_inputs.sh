#!/bin/sh
# tests/cli/test_bad_inputs.sh - the bad-input corpus in tests/data/bad/.
#
# For every bad/NAME.expect (format in tests/data/bad/README.md) run
#   ffroute info [ARGS] bad/NAME.EXT                        (topologies)
#   ffroute convert --lft bad/NAME.EXT --to opensm-lfts -o OUT TOPO   ("# lft: TOPO")
# from tests/data, so diagnostics name the file as "bad/NAME.EXT", and check:
# exit status 2, no crash (status < 128), every expected line present on
# stderr exactly, and (for convert) no output file left behind.
# "# generate: overlong EXT|directory" entries are built at run time in a
# scratch copy of the layout (a > 64 KiB line is not worth committing).

: "${FFROUTE:?FFROUTE not set}"
: "${top_srcdir:?top_srcdir not set}"

DATA=$top_srcdir/tests/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ffroute-bad.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

. "$top_srcdir/tests/lib/tap.sh"

# A line of $1 bytes: "#" and then "x"s.
long_line() {
	awk -v n="$1" 'BEGIN { s = "x"; while (length(s) < n) s = s s; print "#" substr(s, 1, n - 1) }'
}

# generate KIND EXT NAME: make bad/NAME.EXT under $TMP/gen; prints the directory to run in
generate() {
	gen=$TMP/gen
	mkdir -p "$gen/bad"
	[ -e "$gen/cli" ] || ln -s "$DATA/cli" "$gen/cli"
	case $1 in
	overlong)
		out=$gen/bad/$3.$2
		if [ "$2" = lst ]; then
			head -n 1 "$DATA/bad/lst-port-range.lst" >"$out"
			long_line 70000 >>"$out"
			sed -n '2,$p' "$DATA/bad/lst-port-range.lst" | sed 's/PN:09/PN:05/' >>"$out"
		else
			head -n 8 "$DATA/cli/tiny.topo" >"$out"
			long_line 70000 >>"$out"
			sed -n '9,$p' "$DATA/cli/tiny.topo" >>"$out"
		fi
		;;
	directory)
		mkdir -p "$gen/bad/$3.topo"
		;;
	esac
	echo "$gen"
}

for exp in "$DATA"/bad/*.expect; do
	name=$(basename "$exp" .expect)
	lft=$(sed -n 's/^# lft: *//p' "$exp")
	args=$(sed -n 's/^# args: *//p' "$exp")
	gen=$(sed -n 's/^# generate: *//p' "$exp")
	dir=$DATA
	if [ -n "$gen" ]; then
		# shellcheck disable=SC2086
		set -- $gen
		kind=$1
		ext=${2:-topo}
		dir=$(generate "$kind" "$ext" "$name")
		input=bad/$name.$ext
		[ "$kind" = directory ] && input=bad/$name.topo
	else
		input=
		for f in "$DATA"/bad/"$name".*; do
			case $f in *.expect) ;; *) input=bad/$(basename "$f") ;; esac
		done
		if [ -z "$input" ]; then
			not_ok "$name: no input file next to $name.expect"
			continue
		fi
	fi
	rm -f "$TMP/out.lfts"
	if [ -n "$lft" ]; then
		(cd "$dir" && "$FFROUTE" convert --lft "$input" --to opensm-lfts \
			-o "$TMP/out.lfts" "$lft") >/dev/null 2>"$TMP/err"
	else
		# shellcheck disable=SC2086
		(cd "$dir" && "$FFROUTE" info $args "$input") >/dev/null 2>"$TMP/err"
	fi
	rc=$?
	if [ "$rc" -ge 128 ]; then
		not_ok "$name: crashed (status $rc)" "$TMP/err"
		continue
	fi
	[ "$rc" -eq 2 ] && ok "$name: exit 2" || not_ok "$name: exit $rc, expected 2" "$TMP/err"
	grep -v '^#' "$exp" | while IFS= read -r line; do
		[ -n "$line" ] || continue
		grep -qxF -- "$line" "$TMP/err" || { echo "$line"; }
	done >"$TMP/missing"
	if [ -s "$TMP/missing" ]; then
		not_ok "$name: expected diagnostic missing: $(head -1 "$TMP/missing")" "$TMP/err"
	else
		ok "$name: expected diagnostics"
	fi
	if [ -n "$lft" ]; then
		[ ! -e "$TMP/out.lfts" ] && ok "$name: no output written" ||
			not_ok "$name: output file left behind"
	fi
done

tap_done

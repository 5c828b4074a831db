# shellcheck shell=sh
# tap.sh - the TAP counters the CLI test scripts share.  Source it, call
# ok / not_ok for each assertion, and end with tap_done: the plan, then
# exit 1 when anything failed (automake's TAP-less driver reads the exit).
failed=0
ntests=0
ok() { ntests=$((ntests + 1)); echo "ok $ntests - $1"; }
# not_ok MESSAGE [FILE...]: a failure, then the start of each FILE that exists
not_ok() {
	ntests=$((ntests + 1)); failed=$((failed + 1))
	echo "not ok $ntests - $1"
	shift
	for f in "$@"; do
		[ -f "$f" ] && { echo "--- $f"; head -40 "$f" | cut -c1-3000; }
	done
	return 0
}
tap_done() {
	echo "1..$ntests"
	[ "$failed" -eq 0 ] || { echo "$failed of $ntests failed"; exit 1; }
	exit 0
}

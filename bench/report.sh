#!/bin/sh
# bench/report.sh [--readme] RESULTS.json - the Markdown of one bench/run:
# every (fabric, engine) row, then where ffroute is worse than the best
# built-in engine, column by column.  --readme: the README's part (healthy
# full fabrics, the comparison over all fabrics).  Kept apart from bench/run
# so a results file can be re-rendered without re-running anything.
set -eu
mode=full
[ "${1:-}" = --readme ] && { mode=readme; shift; }
jq -r --arg mode "$mode" '
def r3: if . == null then "-" else (. * 1000 | round / 1000 | tostring) end;
def r4: if . == null then "-" else (. * 10000 | round / 10000 | tostring) end;
def n: if . == null then "-" else tostring end;
# quality columns: key, heading, better (min or max)
def cols: [["reach", "reach", "max"], ["hard", "hard findings", "min"],
	["credit_loops", "credit loops (CA)", "min"], ["credit_loops_switch", "credit loops (switch)", "min"],
	["link_max", "link max", "min"], ["link_max_over_mean", "link max/mean", "min"],
	["shift_max", "shift max", "min"], ["shift_mean", "shift mean", "min"], ["ebb", "EBB", "max"],
	["dbt_max_share", "DBT max share", "min"], ["dbt_bw", "DBT bw", "max"],
	["incast_mix", "incast mix", "max"], ["rail_violations", "rail violations", "min"]];
def row: "| \(.fabric) | \(.engine) | \(.status) | \(.routing_time_s | n) | \(.lft_blocks | n) | " +
	"\(.reach | r3) | \(.hard | n) | \(.credit_loops | n) / \(.credit_loops_switch | n) | " +
	"\(.link_max | n) (\(.link_max_over_mean | r3)) | \(.shift_max | n) (\(.shift_lb_max | n)) | " +
	"\(.shift_mean | r3) (\(.shift_lb_mean | r3)) | \(.ebb | r4) | \(.dbt_max_share | n) / \(.dbt_bw | r3) | " +
	"\(.incast_mix | r3) | \(.rail_violations | n) |";
def head: "| fabric | engine | result | time (s) | LFT blocks | reach | hard | credit loops CA / switch | link max (max/mean) | shift max (LB) | shift mean (LB) | EBB | DBT share / bw | incast mix | rail viol. |",
	"|---|---|---|---:|---:|---:|---:|---|---|---|---|---:|---|---:|---:|";
def worse($f; $o; $c): ($f[$c[0]]) as $v | ($o | map(select(.[$c[0]] != null))) as $a |
	if ($a | length) == 0 then empty
	else (if $c[2] == "min" then ($a | min_by(.[$c[0]])) else ($a | max_by(.[$c[0]])) end) as $b |
	  if $v == null then "- \($f.fabric): \($c[1]): ffroute has no value, best built-in \($b[$c[0]] | r3) (\($b.engine))"
	  elif ($c[2] == "min" and $v > $b[$c[0]] + 1e-9) or ($c[2] == "max" and $v < $b[$c[0]] - 1e-9) then
	    "- \($f.fabric): \($c[1]): ffroute \($v | r4), best built-in \($b[$c[0]] | r4) (\([$a[] | select(.[$c[0]] == $b[$c[0]]) | .engine + (if .hard > 0 then " with \(.hard) hard finding" + (if .hard > 1 then "s" else "" end) else "" end)] | join(", ")))" +
	    (if $c[0] == "ebb" and $f.ebb_stderr != null then "; standard errors \($f.ebb_stderr | r4) and \($b.ebb_stderr | r4)" else "" end)
	  else empty end end;
def compare($valid): [group_by(.fabric)[] | (map(select(.engine == "ffroute" and .hard != null))[0]) as $f |
	(map(select(.engine != "ffroute" and .hard != null and ((.hard == 0) == $valid)))) as $o |
	if $f == null or ($o | length) == 0 then empty else cols[] as $c | worse($f; $o; $c) end];
def list: if length == 0 then "- nowhere" else .[] end;
. as $top |
(if $mode == "full" then "# ffroute vs OpenSM'"'"'s engines (bench/run)", "",
	"Date: \(.date). Machine: \(.machine). Command: `\(.command)`.",
	"Definitions: bench/README.md. EBB over \(.ebb_bisections // 32) bisections. Offline engine: \(.offline_route)", "",
	head, (.runs[] | row), ""
 else "Date: \(.date). Machine: \(.machine). Command: `\(.command)` (full results: `bench/results/\(.date).md`, plots `bench/results/\(.date)-linkload.svg`, `-time.svg` and `-shift.svg`).", "",
	"Healthy full-size fabrics, and the fabrics of tests/data/foreign, written as another generator would (1 % and 5 % degraded copies are in the results file; EBB over \(.ebb_bisections // 32) random bisections, the same for every engine):", "",
	head, (.runs[] | select((.size == "full" or .family == "foreign") and .drop == 0) | row), "",
	"Offline engine (`ffroute route`'"'"'s classify + route + verify): \(.offline_route)", ""
 end),
"Where ffroute is worse than the best built-in engine whose routing has no hard finding (complete, loop-free, no credit loop on the VLs the check can see), every fabric and quality column of this run:", "",
($top.runs | compare(true) | list), "",
"Where ffroute is worse than a built-in engine whose routing has hard findings (unreachable destinations, loops or credit loops: its other columns leave out the flows it cannot carry):", "",
(if $mode == "full" then ($top.runs | compare(false) | list)
 else "- \($top.runs | compare(false) | length) fabric/column pairs, listed in the results file" end)
' "$1"

# relabel.awk - the same fabric under other names, as another generator or a
# real cluster would give it: run as `awk -f relabel.awk NET NET` (the file
# twice: the first pass learns each switch's port count).
#   GUIDs: the last 10 hex digits reversed (a bijection that scatters the
#          generator's sequential GUIDs, so GUID order no longer follows
#          the cabling);
#   switch ports: p -> (p - 1) * a mod N + 1 with a the first of 7, 11, 13,
#          17, 19, 23 prime to N, the switch's port count;
#   node blocks: in reverse file order.
# Descriptions and link attributes are kept.  Used by test_relabel.sh.

function rev(g,    n, head, tail, out, i) {
	n = length(g)
	head = substr(g, 1, n - 10)
	tail = substr(g, n - 9)
	out = ""
	for (i = 10; i >= 1; i--)
		out = out substr(tail, i, 1)
	return head out
}
function gcd(a, b,    t) {
	while (b) { t = a % b; a = b; b = t }
	return a
}
function mult(n,    k, c) {
	split("7 11 13 17 19 23", c, " ")
	for (k = 1; k <= 6; k++)
		if (gcd(c[k], n) == 1)
			return c[k]
	return 1
}
function newport(guid, p) {
	return guid in nports ? (p - 1) * mult(nports[guid]) % nports[guid] + 1 : p
}
# "S-<guid>"[port] or "H-<guid>"[port] references inside a port line
function peer(s,    m, g, p) {
	if (!match(s, /"[SHR]-[0-9a-fA-F]+"\[[0-9]+\]/))
		return s
	m = substr(s, RSTART, RLENGTH)
	g = substr(m, 4, index(m, "\"[") - 4)
	p = substr(m, index(m, "[") + 1) + 0
	return substr(s, 1, RSTART - 1) "\"" substr(m, 2, 2) rev(g) "\"[" newport(g, p) "]" \
	       substr(s, RSTART + RLENGTH)
}

FNR == NR {
	if ($1 == "Switch") {
		g = $3
		gsub(/"|S-/, "", g)
		nports[g] = $2 + 0
	}
	next
}
FNR == 1 { nb = 0; cur = ""; node = "" }
/^[ \t]*$/ { if (cur != "") blk[++nb] = cur; cur = ""; next }
/^#/ { next }
/^(switchguid|caguid|sysimgguid)=/ {
	split($0, kv, "=")
	cur = cur kv[1] "=0x" rev(substr(kv[2], 3)) "\n"
	next
}
/^(Switch|Ca|Hca|Rt)[ \t]/ {
	line = $0
	if (match(line, /"[SHR]-[0-9a-fA-F]+"/)) {
		node = substr(line, RSTART + 3, RLENGTH - 4)
		line = substr(line, 1, RSTART + 2) rev(node) substr(line, RSTART + RLENGTH - 1)
	}
	cur = cur line "\n"
	next
}
/^\[[0-9]+\]/ {
	p = substr($0, 2, index($0, "]") - 2) + 0
	rest = substr($0, index($0, "]") + 1)
	if (match(rest, /^\([0-9a-fA-F]+\)/))
		rest = "(" rev(substr(rest, 2, RLENGTH - 2)) ")" substr(rest, RLENGTH + 1)
	cur = cur "[" newport(node, p) "]" peer(rest) "\n"
	next
}
{ cur = cur $0 "\n" }
END {
	if (cur != "")
		blk[++nb] = cur
	print "# relabelled by relabel.awk: GUIDs, switch port numbers and node order changed\n"
	for (i = nb; i >= 1; i--)
		printf "%s\n", blk[i]
}

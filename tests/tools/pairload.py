#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/tools/pairload.py TOPO LFTDUMP - all-pairs flows per channel,
independent of ffroute's checker (which counts (switch, LID) routes, not
flows): every CA sends to every CA's base LID (itself included, one flow
per source switch at most, which changes no ratio here); the LFTs of the
opensm-lfts.dump are followed from the source's switch; every
switch-to-switch channel (one direction) counts the flows on it.  Prints
max, mean and max/mean over the channels between two switches that both
have CAs (leaf to leaf: Fire-Flyer 2's inter-zone links when cabled leaf
to leaf) and over all switch channels.  TOPO is ibnetdiscover text as
`ffroute route -o` writes it (fabric.topo)."""
import re, sys
topo, dump = sys.argv[1], sys.argv[2]
peer, lid_of, ca_sw, is_sw = {}, {}, {}, set()
cur = None
for line in open(topo):
    m = re.match(r'(Switch|Ca)\s+\d+\s+"([^"]+)".*?(?:lid (\d+))?', line)
    if m:
        cur = m.group(2)
        if m.group(1) == 'Switch':
            is_sw.add(cur)
            lid = re.search(r'port 0 lid (\d+)', line)
            lid_of[cur] = int(lid.group(1))
        continue
    m = re.match(r'\[(\d+)\](?:\([0-9a-f]+\))?\s+"([^"]+)"\[(\d+)\]', line)
    if m and cur:
        peer[(cur, int(m.group(1)))] = (m.group(2), int(m.group(3)))
        if cur not in is_sw:
            l = re.search(r'# lid (\d+)', line)
            lid_of[cur] = int(l.group(1))
            ca_sw[cur] = (m.group(2), int(m.group(3)))
guid2name = {}
for n in is_sw:
    guid2name[int(n[2:], 16)] = n
lft = {}
sw = None
for line in open(dump):
    m = re.match(r"Unicast lids .* guid 0x([0-9a-f]+)", line)
    if m:
        sw = guid2name[int(m.group(1), 16)]; lft[sw] = {}; continue
    m = re.match(r"0x([0-9a-f]+) (\d+)", line)
    if m and sw:
        lft[sw][int(m.group(1), 16)] = int(m.group(2))
has_ca = set(s for s, _ in ca_sw.values())
load = {}
cas = sorted(ca_sw)
# flows from every source switch: count sources per switch, walk once per (switch, dst)
src_count = {}
for c in cas:
    src_count[ca_sw[c][0]] = src_count.get(ca_sw[c][0], 0) + 1
for d in cas:
    dl = lid_of[d]
    for s, k in src_count.items():
        x, hops = s, 0
        while x != ca_sw[d][0]:
            p = lft[x].get(dl)
            if p is None or hops > 64:
                raise SystemExit("no route %s -> %s" % (x, d))
            y = peer[(x, p)][0]
            key = (x, p)
            load[key] = load.get(key, 0) + k
            x, hops = y, hops + 1
ll = [v for (x, p), v in load.items() if x in has_ca and peer[(x, p)][0] in has_ca]
al = [v for (x, p), v in load.items()]
if ll:
    print("leaf-leaf channels %d: max %d mean %.1f max/mean %.3f" % (len(ll), max(ll), sum(ll) / len(ll), max(ll) * len(ll) / sum(ll)))
print("all switch channels %d: max %d mean %.1f" % (len(al), max(al), sum(al) / len(al)))

#!/usr/bin/env python3
# tests/tools/vl_cdg.py DIR - an independent per-VL credit-loop check of a
# `ffroute route -o DIR` output, traffic classes included.  Not ffroute
# code: plain parsing of fabric.topo (ibnetdiscover), opensm-lfts.dump,
# ffroute.sl and opensm-sl2vl.dump, then the channel dependency graph with
# vertices (sending port, VL) for every class, every source node and every
# LID, and Tarjan's SCCs.  Prints "classes K vls V vertices N edges E
# cyclic C" and exits 1 when C > 0.
import re
import sys

sys.setrecursionlimit(1000000)
d = sys.argv[1]

# fabric.topo: links (guid, port) -> (guid, port), node types, LIDs
links, ntype, lidnode, ca_port = {}, {}, {}, {}
cur = None
for line in open(d + '/fabric.topo'):
    m = re.match(r'(Switch|Ca|Rt)\s+\d+\s+"[SHR]-([0-9a-f]+)"', line)
    if m:
        cur = int(m.group(2), 16)
        ntype[cur] = 'SW' if m.group(1) == 'Switch' else 'CA'
        m2 = re.search(r'port 0 lid (\d+)', line)
        if m2:
            lidnode[int(m2.group(1))] = (cur, 0)
        continue
    m = re.match(r'\[(\d+)\](?:\([0-9a-f]+\))?\s+"[SHR]-([0-9a-f]+)"\[(\d+)\]', line)
    if m and cur is not None:
        p, peer, pp = int(m.group(1)), int(m.group(2), 16), int(m.group(3))
        links[(cur, p)] = (peer, pp)
        if ntype[cur] == 'CA':
            m2 = re.search(r'# lid (\d+) lmc (\d+)', line)
            if m2:
                for k in range(1 << int(m2.group(2))):
                    lidnode[int(m2.group(1)) + k] = (cur, p)

# opensm-lfts.dump
lft, cur = {}, None
for line in open(d + '/opensm-lfts.dump'):
    m = re.match(r'Unicast lids .* guid 0x([0-9a-f]+)', line)
    if m:
        cur = int(m.group(1), 16)
        lft[cur] = {}
        continue
    m = re.match(r'0x([0-9a-f]+) (\d+) ', line)
    if m and cur is not None:
        lft[cur][int(m.group(1), 16)] = int(m.group(2))

# ffroute.sl: group of each node, SL per (group, LID), class maps
group, sl, classes = {}, {}, []
for line in open(d + '/ffroute.sl'):
    w = line.split()
    if not w or w[0].startswith('#'):
        continue
    if w[0] == 'node':
        group[int(w[1], 16)] = int(w[2])
    elif w[0] == 'sl':
        a, _, b = w[2].partition('-')
        for lid in range(int(a), int(b or a) + 1):
            sl[(int(w[1]), lid)] = int(w[3])
    elif w[0] == 'class':
        classes.append([int(x) for x in w[2:18]])
if not classes:
    classes = [list(range(16))]

# opensm-sl2vl.dump: per node, base row per out port (first given) and (in, out) rows
base, rows, cur = {}, {}, None
for line in open(d + '/opensm-sl2vl.dump'):
    m = re.match(r'(Switch|Channel Adapter|Router) 0x([0-9a-f]+)', line)
    if m:
        cur = int(m.group(2), 16)
        continue
    m = re.match(r'(\d+) (\d+) :((?: \d+){16})', line)
    if m and cur is not None:
        i, o, v = int(m.group(1)), int(m.group(2)), [int(x) for x in m.group(3).split()]
        rows[(cur, i, o)] = v
        base.setdefault((cur, o), v)


def vl(node, inp, out, s):
    r = rows.get((node, inp, out)) or base.get((node, out))
    return r[s] if r else 0


# sources: (group, entry switch, in port); CAs enter at their switch
starts = set()
for n, t in ntype.items():
    g = group.get(n, 0)
    if t == 'SW':
        starts.add((g, n, 0))
    else:
        for (a, p), (b, q) in links.items():
            if a == n and ntype.get(b) == 'SW':
                starts.add((g, b, q))
edges = set()
for lid, (dn, dp) in lidnode.items():
    seen = set()
    for g, s0, in0 in starts:
        for cmap in classes:
            s_l = cmap[sl.get((g, lid), 0)]
            s, inp, prev = s0, in0, None
            for _ in range(64):
                if s == dn and dp == 0:
                    break
                out = lft.get(s, {}).get(lid)
                if not out:
                    break
                nxt = links.get((s, out))
                if not nxt:
                    break
                ch = (s, out, vl(s, inp, out, s_l))
                if prev:
                    edges.add((prev, ch))
                if ntype.get(nxt[0]) != 'SW' or (ch, s_l) in seen:
                    break
                seen.add((ch, s_l))
                prev, s, inp = ch, nxt[0], nxt[1]

adj = {}
for a, b in edges:
    adj.setdefault(a, []).append(b)
index, low, onstk, stk, cyclic, counter = {}, {}, set(), [], 0, [0]


def tarjan(v0):
    global cyclic
    work = [(v0, 0)]
    while work:
        v, i = work.pop()
        if i == 0:
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stk.append(v)
            onstk.add(v)
        nb = adj.get(v, [])
        if i < len(nb):
            work.append((v, i + 1))
            w = nb[i]
            if w not in index:
                work.append((w, 0))
            elif w in onstk:
                low[v] = min(low[v], index[w])
            continue
        if low[v] == index[v]:
            comp = []
            while True:
                w = stk.pop()
                onstk.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in adj.get(v, []):
                cyclic += 1
        if work:
            u = work[-1][0]
            low[u] = min(low[u], low[v])


for v in list(adj):
    if v not in index:
        tarjan(v)
vls = {v[2] for v in adj} | {b[2] for a in adj for b in adj[a]}
print('classes %d vls %d vertices %d edges %d cyclic %d' %
      (len(classes), len(vls), len(index), len(edges), cyclic))
sys.exit(1 if cyclic else 0)

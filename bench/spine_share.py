#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""spine_share.py - how many LFT entries a spine failure must change, for
every spine at once, from one set of healthy tables (bench/churn.sh).

usage: spine_share.py FFROUTE FABRIC TOPO LFTS [SPINE]
  FABRIC  the fabric as churn_pick.py reads it (.net or ibnetdiscover):
          levels and zones come from `ffroute classify --nodes` of it
  TOPO    the subnet the tables belong to (OpenSM's subnet.lst, or
          anything `ffroute convert` reads)
  LFTS    the tables (dump_lfts, opensm-lfts.dump, ...)
  SPINE   optional: the spine churn_pick.py fails, by its name in FABRIC

When level-2 switch S fails, every entry of a level-1 switch (a leaf)
that leaves toward S, for a destination other than S itself, must change:
the destination is still there and the port is not.  E(S) counts them.
Each leaf entry toward a level-2 switch counts in exactly one E(S), so the
sum over the spines of E(S) is the leaf entries that go up to a spine:
the same for every engine that sends the same leaf entries up.  Their
mean over the spines is then a property of the fabric, not of the
routing: an engine below it for one spine is above it for another.
Prints "spines N min M mean A max X [spine E]" over the level-2
switches of zone 0 (those churn_pick.py picks from).
"""
import os
import re
import subprocess
import sys
import tempfile

NODE = re.compile(r"node 0x([0-9a-f]+) (\w+) level (\d+) zone (-?\d+) ")
HEAD = re.compile(r'^(Switch|Ca|Hca|Rt)\s+\d+\s+"([^"]+)"')
GUIDL = re.compile(r'^(?:switchguid|caguid|nodeguid)=0x([0-9a-fA-F]+)')
LINK = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')
SWLID = re.compile(r'port 0 lid (\d+)')
CALID = re.compile(r'# lid (\d+) lmc (\d+)')
LFTHEAD = re.compile(r'Unicast lids .* guid 0x([0-9a-f]+)')
LFTLINE = re.compile(r'0x([0-9a-f]+) (\d+)')


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=True).stdout


def guid_of(fabric, name):
    """The GUID of node @name in @fabric (the GUID line before its head)."""
    g = None
    for line in open(fabric):
        m = GUIDL.match(line)
        if m:
            g = int(m.group(1), 16)
            continue
        m = HEAD.match(line)
        if m and m.group(2) == name:
            return g
    return None


def main(argv):
    if len(argv) not in (5, 6):
        sys.stderr.write(__doc__)
        return 2
    ff, fabric, topo, lfts = argv[1:5]
    spine = guid_of(fabric, argv[5]) if len(argv) == 6 else None
    cls = {}
    for m in NODE.finditer(run([ff, "classify", "--nodes", fabric])):
        cls[int(m.group(1), 16)] = (m.group(2), int(m.group(3)), int(m.group(4)))
    with tempfile.TemporaryDirectory() as tmp:
        t, lft = os.path.join(tmp, "t.topo"), os.path.join(tmp, "t.lfts")
        run([ff, "convert", "--to", "ibnetdiscover", "-o", t, topo])
        run([ff, "convert", "--lft", lfts, "--to", "opensm-lfts", "-o", lft, topo])
        guid, peer, owner = {}, {}, {}     # name -> guid; (guid, port) -> guid; lid -> guid
        cur = None
        for line in open(t):
            m = HEAD.match(line)
            if m:
                cur = m.group(2)
                g = re.search(r'"[SH]-([0-9a-f]+)"', line)
                guid[cur] = int(g.group(1), 16) if g else None
                m2 = SWLID.search(line)
                if m2:
                    owner[int(m2.group(1))] = guid[cur]
                continue
            m = LINK.match(line)
            if m and cur is not None:
                peer[(guid[cur], int(m.group(1)))] = m.group(2)
                m2 = CALID.search(line)
                if m2 and guid[cur] in cls and cls[guid[cur]][0] == "ca":
                    for k in range(1 << int(m2.group(2))):
                        owner[int(m2.group(1)) + k] = guid[cur]
        table, sw = {}, None
        for line in open(lft):
            m = LFTHEAD.match(line)
            if m:
                sw = int(m.group(1), 16)
                table[sw] = {}
                continue
            m = LFTLINE.match(line)
            if m and sw is not None:
                table[sw][int(m.group(1), 16)] = int(m.group(2))
    spines = {g for g, c in cls.items() if c == ("switch", 2, 0)}
    leaves = {g for g, c in cls.items() if c[0] == "switch" and c[1] == 1}
    e = dict.fromkeys(spines, 0)
    for leaf in leaves:
        for lid, port in table.get(leaf, {}).items():
            p = peer.get((leaf, port))
            up = guid.get(p) if p else None
            if up in e and owner.get(lid) != up:
                e[up] += 1
    if not e:
        print("spines 0")
        return 0
    v = sorted(e.values())
    out = "spines %d min %d mean %.1f max %d" % (len(v), v[0], sum(v) / len(v), v[-1])
    if spine is not None and spine in e:
        out += " spine %d" % e[spine]
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

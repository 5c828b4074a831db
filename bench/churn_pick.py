#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""churn_pick.py - the faults the churn benchmarks inject, picked from the
graph as ffroute classifies it (levels, zones, roles), never from names:
  host  the middle compute HCA by GUID: its name, its switch and port
  link  the first link from a level-1 switch to the level-2 switch of
        zone 0 after the middle one: the level-1 switch and its port
  spine the middle level-2 switch of zone 0
Works on ibsim .net and ibnetdiscover files (nodes matched to the
classification by the GUID line before each node, else by NodeDescription).

usage: churn_pick.py [--spines] FFROUTE FABRIC
  prints "host CA SW PORT", "link SW PORT", "spine SW" (names as in FABRIC);
  with --spines, "sm CA" and then "spine SW" for every level-2 switch of
  zone 0 instead, in GUID order (a spine failure's churn depends on which
  spine fails).  CA: where OpenSM should run (ibsim's SIM_HOST), the first
  management CA by GUID, else the first compute CA: by default ibsim
  attaches OpenSM to the file's first node, often a spine
"""
import re
import subprocess
import sys

HEAD = re.compile(r'^(Switch|Hca|Ca)\s+\d+\s+"([^"]+)"[^#]*#\s*"([^"]*)"')
GUID = re.compile(r'^(?:switchguid|caguid|hcaguid)=0x([0-9a-fA-F]+)')
LINK = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')


def pick(ffroute, fabric, every_spine=False):
    out = subprocess.run([ffroute, "classify", "--nodes", fabric], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    cls, byguid = {}, {}
    for line in out.splitlines():
        m = re.match(r"node 0x([0-9a-f]+) (\w+) level (\d+) zone (-?\d+) rail -?\d+ role (\w+)"
                     r" host -?\d+(?: rate \d+(?: slow)?(?: subtree)?)? '(.*)'$", line)
        if m:
            c = (int(m.group(1), 16), m.group(2), int(m.group(3)), int(m.group(4)), m.group(5))
            cls[m.group(6)] = c
            byguid[c[0]] = c
    name, links, cur, guid = {}, {}, None, None
    for line in open(fabric):
        m = GUID.match(line)
        if m:
            guid = int(m.group(1), 16)
            continue
        m = HEAD.match(line)
        if m:
            cur = m.group(2)
            name[cur] = byguid.get(guid) if guid is not None else cls.get(m.group(3))
            links[cur] = []
            guid = None
            continue
        m = LINK.match(line)
        if m and cur:
            links[cur].append((int(m.group(1)), m.group(2)))
    known = {n: c for n, c in name.items() if c}
    cas = sorted((c[0], n) for n, c in known.items() if c[1] == "ca" and c[4] == "compute")
    spines = sorted((c[0], n) for n, c in known.items()
                    if c[1] == "switch" and c[2] == 2 and c[3] == 0)
    ev = []
    if every_spine:
        mg = sorted((c[0], n) for n, c in known.items() if c[1] == "ca" and c[4] == "mgmt")
        sm = (mg or cas)[:1]
        return [("sm", n) for _, n in sm] + [("spine", n) for _, n in spines]
    if cas:
        ca = cas[len(cas) // 2][1]
        for sw, ls in links.items():
            for port, peer in ls:
                if peer == ca and known.get(sw, (0, ""))[1] == "switch":
                    ev.append(("host", ca, sw, port))
                    break
            if ev:
                break
    if spines:
        other = spines[(len(spines) // 2 + 1) % len(spines)][1]
        for sw, ls in sorted(links.items()):
            c = known.get(sw)
            if c and c[1] == "switch" and c[2] == 1:
                port = next((p for p, peer in ls if peer == other), None)
                if port is not None:
                    ev.append(("link", sw, port))
                    break
        ev.append(("spine", spines[len(spines) // 2][1]))
    return ev


if __name__ == "__main__":
    args = sys.argv[1:]
    every = bool(args) and args[0] == "--spines"
    if every:
        args = args[1:]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    for e in pick(args[0], args[1], every):
        print(" ".join(str(x) for x in e))

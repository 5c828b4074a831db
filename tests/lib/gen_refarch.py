#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/lib/gen_refarch.py - ibnetdiscover-format fabrics from public reference architectures,
written independently of ffroute's own generators (tests/lib/gen_foreign.py
and `ffroute fabric`).  Random GUIDs (several OUIs), random port numbers on
every switch, file order shuffled, LIDs in an independent random order.

usage: gen_refarch.py superpod-h100 SEED [SU=4] [N=32] [UNCONF=0.1] [noufm] [allconf] [nosharp] [nostorage] > OUT.topo
  DGX H100 SuperPOD-style, 3 levels, SUs joined only through cores.
  Per SU: 8 rail leaves (QM9700, 65 ports), 32 DGX nodes, HCA r of node n on
  the rail-r leaf of its SU; an SU spine group of 8 spines, 4 cables from
  every leaf to every spine of its SU.  Core groups: spine g of every SU
  to the 4 cores of core group g, 8 cables each (8 groups, 32 cores).
  A SHARP aggregation node on every switch, on a random port.
  Storage branch: 8 storage leaves (each DGX's mlx5_7 on storage leaf
  2*(u)+0.., mlx5_8 on the next one; 2 DDN ai400x HCAs per storage leaf),
  4 storage spines (4 cables from each storage leaf), storage spine k to
  core (g, k) of every core group g, 2 cables each.  UFM appliance
  (ufm-01, ufm-02) on two SU spines.  Some HCAs and switches keep their
  unconfigured NodeDescription; one whole DGX is unconfigured.
usage: gen_refarch.py mixedrate SEED [PODS=4] [LEAVES=8] [HOSTS=4] [nohdr] [notrained] [mgmtagg] > OUT.topo
  3-level fat tree, 2:1 taper at leaves: PODS pods of LEAVES leaves
  (HOSTS hosts of 4 HCAs each, all on one leaf: 16 HCAs, 8 up-links, two
  to each of 4 aggregation switches); aggregation a of every pod to the 8
  cores of core group a, 2 cables each.  Mostly 4xNDR; pod 1 is an older
  HDR pod (leaf-agg links and its hosts 4xHDR); trained-down links:
  one leaf-agg 1xNDR, one leaf-agg 4xSDR, one agg-core 1xSDR, one host 1xNDR.
usage: gen_refarch.py irregular SEED > OUT.topo
  2-level HDR tree (QM8700, 41 ports) of 8 spines, with what a real cluster
  has: 6 normal leaves (16 hosts, one link to each spine), a leaf with only
  one up-link, a leaf with a double-cabled up-link, two leaves sharing 8
  dual-port hosts (port 1 on one, port 2 on the other), a spare leaf with
  no hosts, a management switch (MSB7800) under one spine with 2 hosts,
  and SHARP nodes on some switches.
"""
import random
import sys

OUIS = [0xb83fd2, 0x946dae, 0xfc6a1c, 0x1070fd, 0xa088c2, 0x043f72, 0x9c63c0]


class Fab:
    def __init__(self, rng):
        self.rng = rng
        self.nodes = []       # dict(kind, guid, desc, nports, ports{p: (node, port, rate)}, sys, pguid{})
        self.used = set()

    def guid(self):
        while True:
            g = (self.rng.choice(OUIS) << 40) | (self.rng.getrandbits(38) << 2)
            if not any(x in self.used for x in (g, g + 1, g + 2, g + 3)):
                for x in (g, g + 1, g + 2, g + 3):
                    self.used.add(x)
                return g

    def switch(self, desc, nports, name=None):
        g = self.guid()
        self.nodes.append(dict(kind="S", guid=g, sys=g, desc=desc, nports=nports, ports={},
                               name=name or desc,
                               devid=0xd2f2 if nports > 41 else 0xd2f0))
        return len(self.nodes) - 1

    def ca(self, desc, nports=1, sysguid=None, devid=0x1021, name=None):
        g = self.guid()
        # ConnectX port GUIDs: node GUID + port, or the node GUID itself on port 1
        same = self.rng.random() < 0.3 and nports == 1
        pg = {p: (g if same else g + p) for p in range(1, nports + 1)}
        self.nodes.append(dict(kind="H", guid=g, sys=sysguid if sysguid else g, desc=desc,
                               name=name or desc,
                               nports=nports, ports={}, pguid=pg, devid=devid))
        return len(self.nodes) - 1

    def free(self, n):
        nd = self.nodes[n]
        f = [p for p in range(1, nd["nports"] + 1) if p not in nd["ports"]]
        if not f:
            raise SystemExit("gen_refarch.py: node %s out of ports" % nd["desc"])
        return f

    def link(self, a, b, rate="4xNDR", pa=None, pb=None):
        if pa is None:
            f = self.free(a)
            pa = f[0] if self.nodes[a]["kind"] == "H" else self.rng.choice(f)
        if pb is None:
            f = [p for p in self.free(b) if (b, p) != (a, pa)]
            pb = f[0] if self.nodes[b]["kind"] == "H" else self.rng.choice(f)
        assert pa not in self.nodes[a]["ports"] and pb not in self.nodes[b]["ports"]
        self.nodes[a]["ports"][pa] = (b, pb, rate)
        self.nodes[b]["ports"][pb] = (a, pa, rate)

    def write(self, out, cmd):
        import os
        rng = self.rng
        if os.environ.get("GEN_ORDER_SEED"):   # same fabric, another file order and LIDs
            rng = random.Random(int(os.environ["GEN_ORDER_SEED"]))
        # LIDs: one per switch, one per CA port; in a random order
        lidof = {}
        keys = []
        for i, n in enumerate(self.nodes):
            if n["kind"] == "S":
                keys.append((i, 0))
            else:
                keys += [(i, p) for p in sorted(n["ports"])]
        rng.shuffle(keys)
        for lid, k in enumerate(keys, 1):
            lidof[k] = lid

        def lid(i, p):
            return lidof[(i, 0 if self.nodes[i]["kind"] == "S" else p)]

        def nid(i):
            n = self.nodes[i]
            return "%s-%016x" % (n["kind"], n["guid"])

        order = list(range(len(self.nodes)))
        rng.shuffle(order)
        o = ["#", "# Topology file: generated by tests/lib/gen_refarch.py %s" % cmd, "#", ""]
        for i in order:
            n = self.nodes[i]
            o.append("vendid=0x2c9")
            o.append("devid=0x%x" % n["devid"])
            o.append("sysimgguid=0x%x" % n["sys"])
            if n["kind"] == "S":
                o.append("switchguid=0x%x(%x)" % (n["guid"], n["guid"]))
                o.append('Switch\t%d "%s"\t\t# "%s" enhanced port 0 lid %d lmc 0'
                         % (n["nports"], nid(i), n["desc"], lid(i, 0)))
                for p in sorted(n["ports"]):
                    j, pp, rate = n["ports"][p]
                    m = self.nodes[j]
                    if m["kind"] == "S":
                        o.append('[%d]\t"%s"[%d]\t\t# "%s" lid %d %s'
                                 % (p, nid(j), pp, m["desc"], lid(j, 0), rate))
                    else:
                        o.append('[%d]\t"%s"[%d](%x) \t\t# "%s" lid %d %s'
                                 % (p, nid(j), pp, m["pguid"][pp], m["desc"], lid(j, pp), rate))
            else:
                rt = n["kind"] == "R"
                o.append("%s=0x%x" % ("rtguid" if rt else "caguid", n["guid"]))
                o.append('%s\t%d "%s"\t\t# "%s"' % ("Rt" if rt else "Ca", n["nports"], nid(i), n["desc"]))
                for p in sorted(n["ports"]):
                    j, pp, rate = n["ports"][p]
                    m = self.nodes[j]
                    pg = "" if m["kind"] == "S" else "(%x)" % m["pguid"][pp]
                    o.append('[%d](%x) \t"%s"[%d]%s\t\t# lid %d lmc 0 "%s" lid %d %s'
                             % (p, n["pguid"][p], nid(j), pp, pg, lid(i, p), m["desc"],
                                lid(j, pp), rate))
            o.append("")
        out.write("\n".join(o) + "\n")

    def write_map(self, path):
        with open(path, "w") as fp:
            for n in self.nodes:
                fp.write("%s-%016x %s\n" % (n["kind"], n["guid"], n["name"]))


HCA7 = "MT4129 ConnectX7 Mellanox Technologies"
HCA6 = "MT4123 ConnectX6 Mellanox Technologies"
QM2 = "Quantum-2 Mellanox Technologies"
QM1 = "Quantum Mellanox Technologies"
AN = "Mellanox Technologies Aggregation Node"


def superpod_h100(f, rng, args):
    SU = int(args[0]) if len(args) > 0 else 4
    N = int(args[1]) if len(args) > 1 else 32
    unconf = float(args[2]) if len(args) > 2 else 0.1
    flags = args[3:]
    R, G, P, CG, Q = 8, 8, 4, 4, 8
    NSL, NSS = (8, 4) if "nostorage" not in flags else (0, 0)
    R65 = 65

    def swdesc(name):
        return QM2 if rng.random() < 0.3 else "MF0;%s:MQM9700/U1" % name

    def mk(name):
        return f.switch(swdesc(name), R65, name=name)

    sw = []
    leaf = {(u, r): mk("su%d-leaf-r%d" % (u + 1, r)) for u in range(SU) for r in range(R)}
    spine = {(u, g): mk("su%d-spine%02d" % (u + 1, g + 1)) for u in range(SU) for g in range(G)}
    core = {(g, c): mk("core-g%d-%02d" % (g + 1, c + 1)) for g in range(G) for c in range(CG)}
    sleaf = [mk("stor-leaf%02d" % (i + 1)) for i in range(NSL)]
    sspine = [mk("stor-spine%02d" % (i + 1)) for i in range(NSS)]
    sw = list(leaf.values()) + list(spine.values()) + list(core.values()) + sleaf + sspine
    # SHARP first (a random port each), so cables take the others
    for s in sw if "nosharp" not in flags else []:
        a = f.ca(AN, 1, devid=0xcf09)
        f.link(s, a, "4xNDR")
    ufm = [(0, 0), (min(1, SU - 1), 3)] if "noufm" not in flags else []
    if "ufm1" in flags:
        ufm = [(0, 0)]
    # cabling (leaf-spine, spine-core, storage)
    for u in range(SU):
        for r in range(R):
            for g in range(G):
                for _ in range(P):
                    f.link(leaf[(u, r)], spine[(u, g)])
        for g in range(G):
            for c in range(CG):
                # a spine with a UFM appliance gave one core cable's port to it
                q = Q - 1 if (u, g) in ufm and c == CG - 1 else Q
                for _ in range(q):
                    f.link(spine[(u, g)], core[(g, c)])
    for i in range(NSL):
        for k in range(NSS):
            for _ in range(4):
                f.link(sleaf[i], sspine[k])
    for k in range(NSS):
        for g in range(G):
            for _ in range(2):
                f.link(sspine[k], core[(g, k % CG)])
    # DGX H100 nodes
    devs = ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"]
    allunconf = (1, 5) if "allconf" not in flags else None  # one DGX left unconfigured
    for u in range(SU):
        for n in range(N):
            host = "dgx-su%d-%02d" % (u + 1, n + 1)
            sysg = f.guid()
            for r in range(R):
                d = HCA7 if (u, n) == allunconf or rng.random() < unconf else "%s %s" % (host, devs[r])
                c = f.ca(d, 1, sysg, name="%s %s" % (host, devs[r]))
                f.link(leaf[(u, r)], c, "4xNDR")
            for j, dev in enumerate(("mlx5_7", "mlx5_8") if NSL else ()):
                d = HCA7 if (u, n) == allunconf else "%s %s" % (host, dev)
                c = f.ca(d, 1, sysg, name="%s %s" % (host, dev))
                # mlx5_7 of each DGX on an even storage leaf, mlx5_8 on the odd one after it
                f.link(sleaf[(2 * ((u * N + n) * (NSL // 2) // (SU * N)) + j)], c, "4xNDR")
    for i in range(NSL):
        for h in range(2):
            host = "ai400x-%02d" % (i * 2 + h + 1)
            c = f.ca("%s mlx5_%d" % (host, 0), 1)
            f.link(sleaf[i], c, "4xNDR")
    # UFM appliances on two SU spines
    for i, s in enumerate(spine[x] for x in ufm):
        c = f.ca("ufm-%02d mlx5_0" % (i + 1), 1)
        f.link(s, c, "4xNDR")


def mixedrate(f, rng, args):
    PODS = int(args[0]) if len(args) > 0 else 4
    L = int(args[1]) if len(args) > 1 else 8
    H = int(args[2]) if len(args) > 2 else 4
    A, CG, QC = 4, 8, 2
    flags = args[3:]
    oldpod = 1 if "nohdr" not in flags else -1
    leaf = {(p, l): f.switch("MF0;pod%d-leaf%02d:MQM9700/U1" % (p + 1, l + 1), 64)
            for p in range(PODS) for l in range(L)}
    agg = {(p, a): f.switch(QM2 if (p + a) % 3 == 0 else "MF0;pod%d-agg%02d:MQM9700/U1" % (p + 1, a + 1), 64,
                            name="pod%d-agg%02d" % (p + 1, a + 1))
           for p in range(PODS) for a in range(A)}
    core = {(a, c): f.switch("MF0;core%02d:MQM9700/U1" % (a * CG + c + 1), 64)
            for a in range(A) for c in range(CG)}
    la = []   # leaf-agg link records, to train some down
    for p in range(PODS):
        for l in range(L):
            for a in range(A):
                for _ in range(2):
                    la.append((leaf[(p, l)], agg[(p, a)], "4xHDR" if p == oldpod else "4xNDR"))
    ac = []
    for p in range(PODS):
        for a in range(A):
            for c in range(CG):
                for _ in range(QC):
                    ac.append((agg[(p, a)], core[(a, c)], "4xNDR"))
    # trained-down faults
    cand = [i for i, e in enumerate(la) if e[2] == "4xNDR"]
    i1, i2 = rng.sample(cand, 2)
    i3 = rng.randrange(len(ac))
    if "notrained" not in flags:
        la[i1] = la[i1][:2] + ("1xNDR",)
        la[i2] = la[i2][:2] + ("4xSDR",)
        ac[i3] = ac[i3][:2] + ("1xSDR",)
    for a, b, r in la + ac:
        f.link(a, b, r)
    slow_host = (rng.randrange(PODS), rng.randrange(L), rng.randrange(H))
    k = 0
    for p in range(PODS):
        for l in range(L):
            for h in range(H):
                k += 1
                host = "nd%04d" % k
                sysg = f.guid()
                for d in range(4):
                    rate = "4xHDR" if p == oldpod else "4xNDR"
                    if (p, l, h) == slow_host and d == 2 and "notrained" not in flags:
                        rate = "1xNDR"
                    c = f.ca("%s mlx5_ib%d" % (host, d), 1, sysg,
                             devid=0x101b if p == oldpod else 0x1021)
                    f.link(leaf[(p, l)], c, rate)
    if "mgmtagg" in flags:
        f.link(agg[(0, 0)], f.ca("ufm-01 mlx5_0", 1), "4xNDR")


def irregular(f, rng, args):
    S = 8
    spine = [f.switch("MF0;spine%02d:MQM8700/U1" % (i + 1), 41) for i in range(S)]
    leaves = [f.switch(QM1 if i % 4 == 3 else "MF0;leaf%02d:MQM8700/U1" % (i + 1), 41,
                       name="leaf%02d" % (i + 1)) for i in range(11)]
    R = "4xHDR"
    # SHARP nodes on spines and normal leaves
    for s in spine + leaves[:6]:
        f.link(s, f.ca(AN, 1, devid=0xcf09), R)
    # normal leaves 0..5: one link to every spine
    for l in leaves[:6]:
        for s in spine:
            f.link(l, s, R)
    # leaf 6: one up-link only
    f.link(leaves[6], spine[2], R)
    # leaf 7: double-cabled to spine 1, one link to every other spine
    for i, s in enumerate(spine):
        f.link(leaves[7], s, R)
        if i == 1:
            f.link(leaves[7], s, R)
    # leaves 8, 9: normal up-links, share the dual-port hosts
    for l in leaves[8:10]:
        for s in spine:
            f.link(l, s, R)
    # leaf 10: spare, no hosts
    for s in spine:
        f.link(leaves[10], s, R)
    # management switch under spine 3
    mg = f.switch("MF0;mgmt-sw01:MSB7800/U1", 36)
    f.link(spine[3], mg, "4xEDR")
    for name in ("mgmt01 mlx5_0", "login01 mlx5_0"):
        f.link(mg, f.ca(name, 1, devid=0x1017), "4xEDR")
    k = 0
    for li, l in enumerate(leaves[:8]):
        nh = 8 if li == 6 else 16
        for _ in range(nh):
            k += 1
            f.link(l, f.ca(HCA6 if rng.random() < 0.2 else "cn%04d mlx5_0" % k, 1, devid=0x101b,
                           name="cn%04d mlx5_0" % k), R)
    for i in range(8):
        k += 1
        c = f.ca("cn%04d mlx5_0" % k, 2, devid=0x101b)
        f.link(leaves[8], c, R, pb=1)
        f.link(leaves[9], c, R, pb=2)
    for l in leaves[8:10]:
        for _ in range(8):
            k += 1
            f.link(l, f.ca("cn%04d mlx5_0" % k, 1, devid=0x101b), R)


def irregular2(f, rng, args):
    """irregular plus harder cases: a dual-port HCA with both ports on one leaf,
    a host with port 1 on a leaf and port 2 on a spine, a loopback cable on a
    leaf, a leaf cabled only below the management switch (3 levels under a
    spine), a spare spine with one link, a back-to-back cable between two
    hosts' second ports, a double cable with one side trained down, and an
    IB router on a spine."""
    flags = args
    irregular(f, rng, [])
    by = {n["name"]: i for i, n in enumerate(f.nodes)}
    sp = [i for i, n in enumerate(f.nodes) if n["kind"] == "S" and "spine" in n["desc"]]
    lv = [by["leaf%02d" % (i + 1)] for i in range(11)]
    mg = [i for i, n in enumerate(f.nodes) if "mgmt-sw" in n["desc"]][0]
    R = "4xHDR"
    if "nosame" not in flags:
        c = f.ca("cn0901 mlx5_0", 2, devid=0x101b)
        f.link(lv[0], c, R, pb=1)
        f.link(lv[0], c, R, pb=2)
    if "nospinehost" not in flags:
        c = f.ca("cn0902 mlx5_0", 2, devid=0x101b)
        f.link(lv[1], c, R, pb=1)
        f.link(sp[5], c, R, pb=2)
    if "noloop" not in flags:
        f.link(lv[2], lv[2], R)
    if "nosubleaf" not in flags:
        sub = f.switch("MF0;lab-leaf:MSB7800/U1", 36, name="lab-leaf")
        f.link(mg, sub, "4xEDR")
        for i in range(3):
            f.link(sub, f.ca("lab%02d mlx5_0" % (i + 1), 1, devid=0x1017), "4xEDR")
    if "nospare" not in flags:
        s = f.switch("MF0;spine09:MQM8700/U1", 41, name="spine09")
        f.link(lv[3], s, R)
    if "nob2b" not in flags:
        a = f.ca("cn0903 mlx5_0", 2, devid=0x101b)
        b = f.ca("cn0904 mlx5_0", 2, devid=0x101b)
        f.link(lv[4], a, R, pb=1)
        f.link(lv[5], b, R, pb=1)
        f.link(a, b, R, pa=2, pb=2)
    if "notrained" not in flags:
        # leaf 8's double cable to spine 2: trained down one side
        pp = [p for p, v in f.nodes[lv[7]]["ports"].items() if v[0] == sp[1]]
        for p in pp[:1]:
            j, q, _ = f.nodes[lv[7]]["ports"][p]
            f.nodes[lv[7]]["ports"][p] = (j, q, "1xHDR")
            f.nodes[j]["ports"][q] = (lv[7], p, "1xHDR")
    if "norouter" not in flags:
        g = f.guid()
        f.nodes.append(dict(kind="R", guid=g, sys=g, desc="ib-router01", name="ib-router01",
                            nports=2, ports={}, pguid={1: g + 1, 2: g + 2}, devid=0x1013))
        f.link(sp[6], len(f.nodes) - 1, R, pb=1)


def main():
    kind, seed, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rng = random.Random(seed)
    f = Fab(rng)
    {"superpod-h100": superpod_h100, "mixedrate": mixedrate, "irregular": irregular,
     "irregular2": irregular2}[kind](f, rng, rest)
    f.write(sys.stdout, " ".join(sys.argv[1:]))
    import os
    if os.environ.get("GEN_MAP"):
        f.write_map(os.environ["GEN_MAP"])


if __name__ == "__main__":
    main()

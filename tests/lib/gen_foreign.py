#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/lib/gen_foreign.py - fabrics as another generator would write them.

Regenerates tests/data/foreign/*.topo (the tests read the committed files;
this script is not needed to run them).  Why: ffroute's classification must
follow the graph, not our own generator's habits, so these fabrics differ
from `ffroute fabric` in every hint it could lean on: random 64-bit GUIDs,
random port numbers on every switch, file order by random LID, unconfigured
NodeDescriptions ("MT4123 ConnectX6   Mellanox Technologies" on every HCA,
"Quantum Mellanox Technologies" on every switch), and tiers or whole
topologies our generator never makes.

usage: gen_foreign.py xgft P L A U H SEED [randwire] > OUT.topo
  P pods of L leaves and A aggregation switches (every leaf to every
  aggregation switch of its pod), U cores per aggregation switch index
  (aggregation switch a of every pod to cores a*U .. a*U+U-1; with randwire
  each pod permutes which of its aggregation switches takes which core
  group), H hosts per leaf.  Aggregation taper = L : U.  With
  corestor=K,SH,C,Q (after SEED): K storage leaves of SH servers
  "stNNN mlx5_0" hung straight from the first C cores, Q cables to each.
       gen_foreign.py torus X Y H SEED > OUT.topo
  an X x Y 2-D torus of switches, H hosts on each.
       gen_foreign.py dragonfly G A H SEED > OUT.topo
  G groups of A switches, all-to-all inside a group, one global link
  between every two groups, H hosts per switch.
       gen_foreign.py directors T H D LC FS SEED > OUT.topo
  T top-of-rack switches with H hosts and H up-links, spread over D
  director chassis of LC line ASICs and FS fabric ASICs each (every line
  ASIC to every fabric ASIC): up-link u of ToR t goes to director u mod D,
  line ASIC (t + u div D) mod LC, so neighbouring ToRs share line ASICs in
  overlapping windows (no pods).
       gen_foreign.py superpod S N R G P C M SEED > OUT.topo
  NVIDIA DGX SuperPOD-style: S scalable units of N hosts of R HCAs (rails,
  named as a DGX H100 names them), one leaf per rail per unit, P parallel
  links from each leaf to each of the G spines of its rail's spine group,
  spine g of every group to the C cores of core group g, a SHARP
  aggregation node on every switch, and a management branch of M leaves
  (4 hosts each) under 2 spines of their own, joined to the cores.  Host
  HCAs share their host's SystemImageGUID and are described
  "dgx-suU-NN mlx5_K"; the switches stay unconfigured.
       gen_foreign.py ff2 S L CL D K P SEED [cable=leaf|cross|spine] > OUT.topo
  Fire-Flyer 2 with two zones of S spines and L leaves of D host ports, CL
  compute leaves (D unconfigured HCAs each), storage leaves after them;
  storage servers "stNNN mlx5_Z" with one HCA per zone on the same leaf
  index.  Between the zones, K times P links: leaf (default) from each of
  the first K storage leaves to the same leaf of the other zone, cross to
  the next storage leaf of the other zone, spine from each of the first K
  spines to the same spine of the other zone.

Any kind may end with (after its SEED):
  slow=K,H,U   K low-speed subtrees: a switch with H unconfigured HCAs at
               4x EDR, cabled at 4x EDR to U distinct switches that hold
               hosts, picked at random (and a SHARP node when the kind
               puts one on every switch)
  trained=N    N random switch-to-switch links (not a subtree's) at 1x HDR
"""
import random
import sys


def xgft(args, rng):
    P, L, A, U, H = map(int, args[:5])
    randwire = "randwire" in args[6:]
    edges, hosts = [], {}
    for p in range(P):
        base = p * (L + A)
        for leaf in range(L):
            hosts[base + leaf] = H
            for a in range(A):
                edges.append((base + leaf, base + L + a))
        perm = list(range(A))
        if randwire:
            rng.shuffle(perm)
        for a in range(A):
            for u in range(U):
                edges.append((base + L + perm[a], P * (L + A) + a * U + u))
    nsw, radix = P * (L + A) + A * U, max(L + U, A + H, P) + 4
    cs = [a for a in args[6:] if a.startswith("corestor=")]
    if not cs:
        return nsw, edges, hosts, radix
    K, SH, C, Q = map(int, cs[0][9:].split(","))
    named = [(s, None, "") for s in sorted(hosts) for _ in range(hosts[s])]
    for k in range(K):
        for c in range(C):
            edges += [(nsw + k, P * (L + A) + c)] * Q
        named += [(nsw + k, "st%03d" % (k * SH + h + 1), "mlx5_0") for h in range(SH)]
    return nsw + K, edges, named, max(radix, C * Q + SH, P + K * Q) + 4


def torus(args, rng):
    X, Y, H = map(int, args[:3])
    edges = []
    for x in range(X):
        for y in range(Y):
            s = x * Y + y
            edges += [(s, ((x + 1) % X) * Y + y), (s, x * Y + (y + 1) % Y)]
    return X * Y, edges, {s: H for s in range(X * Y)}, 4 + H + 4


def dragonfly(args, rng):
    G, A, H = map(int, args[:3])
    edges = []
    for g in range(G):
        edges += [(g * A + i, g * A + j) for i in range(A) for j in range(i + 1, A)]
        edges += [(g * A + h % A, h * A + g % A) for h in range(g + 1, G)]
    return G * A, edges, {s: H for s in range(G * A)}, A + H + G + 4


def directors(args, rng):
    T, H, D, LC, FS = map(int, args[:5])
    U = H                        # non-blocking ToRs: as many up-links as hosts
    edges, hosts = [], {}
    line = lambda d, i: T + d * (LC + FS) + i
    fab = lambda d, j: T + d * (LC + FS) + LC + j
    for t in range(T):
        hosts[t] = H
        for u in range(U):
            d = u % D
            edges.append((t, line(d, (t + u // D) % LC)))
    down = T * U // (D * LC)     # ToR links per line ASIC
    for d in range(D):
        for i in range(LC):
            for k in range(down):
                edges.append((line(d, i), fab(d, k % FS)))
    return T + D * (LC + FS), edges, hosts, max(U + H, 2 * down, LC * down // FS) + 4


def superpod(args, rng):
    """S scalable units of N DGX hosts with R rails; host n of SU u has HCA r
    on leaf (u, r).  Leaf (u, r) has P parallel links to each of the G spines
    of spine group r; spine (r, g) has one link to each of the C cores of core
    group g.  A SHARP aggregation node on every switch.  A management branch:
    M leaves of 4 management hosts under 2 management spines, each of them
    with one link to core 0 of every core group."""
    S, N, R, G, P, C, M = map(int, args[:7])
    edges, hosts = [], {}
    leaf = lambda u, r: u * R + r
    spine = lambda r, g: S * R + r * G + g
    core = lambda g, c: S * R + R * G + g * C + c
    mleaf = lambda m: S * R + R * G + G * C + m
    mspine = lambda k: S * R + R * G + G * C + M + k
    nsw = S * R + R * G + G * C + M + 2
    for u in range(S):
        for r in range(R):
            for g in range(G):
                edges += [(leaf(u, r), spine(r, g))] * P
    for r in range(R):
        for g in range(G):
            edges += [(spine(r, g), core(g, c)) for c in range(C)]
    for m in range(M):
        hosts[mleaf(m)] = 4
        edges += [(mleaf(m), mspine(k)) for k in range(2)]
    for k in range(2):
        edges += [(mspine(k), core(g, 0)) for g in range(G)]
    # (switch, host name, HCA name) per CA, rails by the DGX H100 device names
    devs = ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"]
    named = []
    for u in range(S):
        for n in range(N):
            h = "dgx-su%d-%02d" % (u + 1, n + 1)
            named += [(leaf(u, r), h, devs[r % len(devs)]) for r in range(R)]
    for m in range(M):
        named += [(mleaf(m), "mgmt%02d" % (4 * m + i + 1), "mlx5_0") for i in range(4)]
    for s in range(nsw):
        named.append((s, "sharp-an", None))
    radix = max(N + G * P, S * P + C, R + 2, 4 + 2) + 2
    return nsw, edges, named, radix


def ff2(args, rng):
    """Fire-Flyer 2 cabled between the zones: two zones of S spines and L
    leaves (every leaf one link to every spine of its zone, D host ports).
    Per zone, leaves 0..CL-1 hold D compute HCAs each; the other leaves
    hold storage HCAs.  A storage server is one HCA in each zone on the
    same leaf index, sharing a SystemImageGUID.  The inter-zone cabling
    (cable=, after SEED): leaf (default) P links from each of the first K
    storage leaves to the same leaf of the other zone (D - P storage HCAs
    there); cross the same from storage leaf k to storage leaf (k + 1) mod
    K of the other zone; spine P links from each of the first K spines to
    the same spine of the other zone (D storage HCAs on every leaf)."""
    S, L, CL, D, K, P = map(int, args[:6])
    cable = next((a[6:] for a in args if a.startswith("cable=")), "leaf")
    if cable not in ("leaf", "cross", "spine"):
        sys.exit("gen_foreign.py: cable=%s: leaf, cross or spine" % cable)
    leaf = lambda z, l: z * (S + L) + l
    spine = lambda z, j: z * (S + L) + L + j
    edges, named = [], []
    for z in range(2):
        for l in range(L):
            edges += [(leaf(z, l), spine(z, j)) for j in range(S)]
    for k in range(K):
        a, b = (spine(0, k), spine(1, k)) if cable == "spine" else \
            (leaf(0, CL + k), leaf(1, CL + ((k + 1) % K if cable == "cross" else k)))
        edges += [(a, b)] * P
    n = 0
    for z in range(2):
        for l in range(CL):
            named += [(leaf(z, l), None, "") for _ in range(D)]
    for l in range(CL, L):
        for i in range(D - (P if l < CL + K and cable != "spine" else 0)):
            n += 1
            named += [(leaf(z, l), "st%03d" % n, "mlx5_%d" % z) for z in range(2)]
    return 2 * (S + L), edges, named, max(D + S, 2 * S, L + P if cable == "spine" else 0) + 4


def extras(args, rng, nsw, edges, hosts, radix):
    """slow=K,H,U and trained=N (see the top): the subtrees' switches,
    links and hosts appended; link rates by edge index in the result."""
    rates, host_rate = {}, {}
    named = hosts if not isinstance(hosts, dict) else \
        [(s, None, "") for s in sorted(hosts) for _ in range(hosts[s])]
    sharp = any(dev is None for _, _, dev in named)
    leaves = sorted({s for s, _, dev in named if dev is not None})
    for a in args:
        if a.startswith("slow="):
            k, h, u = map(int, a[5:].split(","))
            for i in range(k):
                sub = nsw
                nsw += 1
                for leaf in rng.sample(leaves, u):
                    rates[len(edges)] = "4xEDR"
                    edges.append((sub, leaf))
                for _ in range(h):
                    host_rate[len(named)] = "4xEDR"
                    named.append((sub, None, ""))
                if sharp:
                    named.append((sub, "sharp-an", None))
            radix += (k * u + len(leaves) - 1) // len(leaves) + 1
        elif a.startswith("trained="):
            fast = [i for i in range(len(edges)) if i not in rates]
            for i in rng.sample(fast, int(a[8:])):
                rates[i] = "1xHDR"
    return nsw, edges, named, radix, rates, host_rate


def main():
    kind, args = sys.argv[1], sys.argv[2:]
    seed = int(args[{"xgft": 5, "torus": 3, "dragonfly": 3, "directors": 5, "superpod": 7,
                     "ff2": 6}[kind]])
    rng = random.Random(seed)
    nsw, edges, hosts, radix = {"xgft": xgft, "torus": torus, "dragonfly": dragonfly,
                               "directors": directors, "superpod": superpod,
                               "ff2": ff2}[kind](args, rng)
    nsw, edges, hosts, radix, rates, host_rate = extras(
        [a for a in args if "=" in a], rng, nsw, edges, hosts, radix)
    guids = set()

    def guid():
        while True:
            g = 0x248A070300000000 | rng.getrandbits(30) << 1
            if g not in guids:
                guids.add(g)
                return g

    sw = [dict(guid=guid(), ports={}, free=list(range(1, radix + 1))) for _ in range(nsw)]

    def take(s):
        f = sw[s]["free"]
        return f.pop(rng.randrange(len(f)))

    for e, (a, b) in enumerate(edges):
        pa, pb = take(a), take(b)
        sw[a]["ports"][pa] = ("s", b, pb, rates.get(e, "4xHDR"))
        sw[b]["ports"][pb] = ("s", a, pa, rates.get(e, "4xHDR"))
    cas = []
    sysguid = {}
    for i, (s, host, dev) in enumerate(hosts):
        port = take(s)
        g = guid()
        if host is not None and dev is not None:
            sysguid.setdefault(host, g)
        cas.append(dict(guid=g, sw=s, swp=port, host=host, dev=dev,
                        sys=sysguid.get(host, g) if dev else g,
                        rate=host_rate.get(i, "4xHDR")))
        sw[s]["ports"][port] = ("c", len(cas) - 1, 1, None)
    nodes = [("s", i) for i in range(nsw)] + [("c", i) for i in range(len(cas))]
    rng.shuffle(nodes)
    for lid, (k, i) in enumerate(nodes, 1):
        (sw if k == "s" else cas)[i]["lid"] = lid
    hd, sd = "MT4123 ConnectX6   Mellanox Technologies", "Quantum Mellanox Technologies"

    def cdesc(c):
        if c["host"] is None:
            return hd
        if c["dev"] is None:
            return "Mellanox Technologies Aggregation Node"
        return "%s %s" % (c["host"], c["dev"])
    out = ["#", "# Topology file: tests/lib/gen_foreign.py %s" % " ".join(sys.argv[1:]), "#", ""]
    for k, i in nodes:
        if k == "s":
            s = sw[i]
            out.append("vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%x\nswitchguid=0x%x(%x)"
                       % (s["guid"], s["guid"], s["guid"]))
            out.append('Switch\t%d "S-%016x"\t\t# "%s" enhanced port 0 lid %d lmc 0'
                       % (radix, s["guid"], sd, s["lid"]))
            for port in sorted(s["ports"]):
                t, j, pp, rate = s["ports"][port]
                if t == "s":
                    out.append('[%d]\t"S-%016x"[%d]\t\t# "%s" lid %d %s'
                               % (port, sw[j]["guid"], pp, sd, sw[j]["lid"], rate))
                else:
                    c = cas[j]
                    out.append('[%d]\t"H-%016x"[1](%x) \t\t# "%s" lid %d %s'
                               % (port, c["guid"], c["guid"] + 1, cdesc(c), c["lid"],
                                  c["rate"]))
        else:
            c = cas[i]
            s = sw[c["sw"]]
            out.append("vendid=0x2c9\ndevid=0x101b\nsysimgguid=0x%x\ncaguid=0x%x"
                       % (c["sys"], c["guid"]))
            out.append('Ca\t1 "H-%016x"\t\t# "%s"' % (c["guid"], cdesc(c)))
            out.append('[1](%x) \t"S-%016x"[%d]\t\t# lid %d lmc 0 "%s" lid %d %s'
                       % (c["guid"] + 1, s["guid"], c["swp"], c["lid"], sd, s["lid"],
                          c["rate"]))
        out.append("")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()

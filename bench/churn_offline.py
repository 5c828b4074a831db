#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""churn_offline.py - what one fault changes in ffroute's tables, offline.

usage: churn_offline.py FFROUTE OUT.md FABRIC...

For each fabric (any format `ffroute route` reads): route it whole, then
for each event - a compute HCA goes away, one leaf-to-spine link fails, one
spine fails - remove it from the fabric.topo that route wrote (LIDs kept,
as an SM keeps them: tests/lib/fabric_edit.py), route that with --previous
(incremental) and without (from scratch), and compare with `ffroute diff`:
LFT entries of destinations in both that differ, 64-LID blocks that differ
(what an SM sends), switches touched.  Then the fault heals: route the
whole fabric again with --previous of the degraded run and compare the
bytes of opensm-lfts.dump with the healthy ones.  `ffroute check` gives
the degraded tables' hard findings, the worst zone's shift max against its
lower bound (the whole fabric's with one zone), and the compute up-link
spread.  The events are churn_pick.py's (from levels and roles, never
names).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import churn_pick

HERE = os.path.dirname(os.path.abspath(__file__))
EDIT = os.path.join(HERE, "..", "tests", "lib", "fabric_edit.py")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def route(ff, fab, out, prev=None):
    cmd = [ff, "route", fab, "-o", out] + (["--previous", prev] if prev else [])
    t0 = time.monotonic()
    r = run(cmd)
    if r.returncode:
        raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr[-400:]))
    return time.monotonic() - t0, r.stderr


def pick(ff, topo):
    """The events as fabric_edit.py edits (churn_pick.py chooses them)."""
    ev = {}
    for e in churn_pick.pick(ff, topo):
        if e[0] == "host":
            ev["host"] = ["node:" + e[1]]
        elif e[0] == "link":
            ev["link"] = ["port:%s:%d" % (e[1], e[2])]
        else:
            ev["spine"] = ["node:" + e[1]]
    return ev


def diff(ff, a, b):
    r = run([ff, "diff", "--json", "--no-metrics", a, b])
    d = json.loads(r.stdout)["diff"]
    return d["lft_entries_differ"], d["lft_entries_compared"], d["lft_blocks_differ"], \
        d["lft_blocks"], d["switches_differ"], d["switches_compared"]


def quality(ff, d):
    r = run([ff, "check", "--json", d])
    j = json.loads(r.stdout)
    m = {x["name"]: x["value"] for x in j.get("metrics", [])} if isinstance(j.get("metrics"), list) \
        else j.get("metrics", {})
    worst = None
    for k, v in m.items():
        z = re.match(r"shift_zone(\d+)_max$", k)
        if z:
            lb = m.get("shift_zone%s_lb_max" % z.group(1))
            if lb is not None and (worst is None or v - lb > worst[0] - worst[1]):
                worst = (v, lb)
    if worst is None and "shift_max" in m and "shift_lb_max" in m:
        worst = (m["shift_max"], m["shift_lb_max"])
    return j.get("hard_findings"), worst, m.get("uplink_spread_compute")


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    ff, outmd, fabs = argv[1], argv[2], argv[3:]
    rows = []
    with tempfile.TemporaryDirectory(prefix="ffr-churn.") as tmp:
        for fab in fabs:
            name = os.path.basename(fab).rsplit(".", 1)[0]
            h = os.path.join(tmp, name + "-healthy")
            sec_full, _ = route(ff, fab, h)
            topo = os.path.join(h, "fabric.topo")
            for ev, edits in sorted(pick(ff, topo).items()):
                bad = os.path.join(tmp, "%s-%s.topo" % (name, ev))
                r = run(["python3", EDIT, topo, bad] + edits)
                if r.returncode:
                    raise RuntimeError(r.stderr)
                inc, scr, back = (os.path.join(tmp, "%s-%s-%s" % (name, ev, k))
                                  for k in ("inc", "scratch", "back"))
                sec_inc, log = route(ff, bad, inc, h)
                route(ff, bad, scr)
                route(ff, topo, back, inc)
                same = open(os.path.join(h, "opensm-lfts.dump"), "rb").read() == \
                    open(os.path.join(back, "opensm-lfts.dump"), "rb").read()
                mode = "incremental" if "incremental:" in log else "from scratch"
                hard, worst, spread = quality(ff, inc)
                rows.append((name, ev, mode, diff(ff, h, inc), diff(ff, h, scr), same, hard,
                             worst, spread, sec_full, sec_inc))
    with open(outmd, "w") as fp:
        fp.write("| fabric | event | mode | entries changed (incremental) | blocks | switches "
                 "| entries changed (from scratch) | blocks | healed identical | hard findings "
                 "| worst zone shift max / bound | compute up-link spread | s full / incremental |\n")
        fp.write("|" + "---|" * 13 + "\n")
        for (name, ev, mode, di, ds, same, hard, worst, spread, sf, si) in rows:
            fp.write("| %s | %s | %s | %d of %d (%.3f %%) | %d of %d (%.1f %%) | %d of %d "
                     "| %d (%.2f %%) | %d (%.1f %%) | %s | %s | %s | %s | %.2f / %.2f |\n" % (
                         name, ev, mode, di[0], di[1], 100.0 * di[0] / max(di[1], 1), di[2], di[3],
                         100.0 * di[2] / max(di[3], 1), di[4], di[5], ds[0],
                         100.0 * ds[0] / max(ds[1], 1), ds[2], 100.0 * ds[2] / max(ds[3], 1),
                         "yes" if same else "NO", hard,
                         "%g / %g" % worst if worst else "-", spread, sf, si))
    sys.stdout.write(open(outmd).read())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""fabric_edit.py - a fault in an ibnetdiscover file, LIDs kept (as an SM
keeps them): for churn tests and bench/churn.sh, which compare the routing
before and after.

usage: fabric_edit.py IN OUT EDIT...
  node:NAME        remove node NAME (its quoted ibnetdiscover name, e.g.
                   H-0c42a10010000640 or "leaf01") and every link to it
  port:NAME:N      remove the link on port N of node NAME (both ends)
"""
import re
import sys

HEAD = re.compile(r'^(Switch|Hca|Ca|Rt)\s+\d+\s+"([^"]+)"', re.M)
LINK = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    src, out, edits = argv[1], argv[2], argv[3:]
    gone, ports = set(), set()
    for e in edits:
        f = e.split(':')
        if f[0] == 'node' and len(f) == 2:
            gone.add(f[1])
        elif f[0] == 'port' and len(f) == 3 and f[2].isdigit():
            ports.add((f[1], int(f[2])))
        else:
            sys.stderr.write("fabric_edit.py: bad edit '%s'\n" % e)
            return 2
    blocks = open(src).read().split("\n\n")
    for b in blocks:        # the far end of every removed link
        m = HEAD.search(b)
        for line in b.split("\n") if m else []:
            mm = LINK.match(line)
            if mm and (m.group(2), int(mm.group(1))) in ports:
                ports.add((mm.group(2), int(mm.group(3))))
    res, seen = [], set()
    for b in blocks:
        m = HEAD.search(b)
        if m:
            seen.add(m.group(2))
        if m and m.group(2) in gone:
            continue
        keep = []
        for line in b.split("\n"):
            mm = LINK.match(line)
            if mm and m and (mm.group(2) in gone or (m.group(2), int(mm.group(1))) in ports):
                continue
            keep.append(line)
        res.append("\n".join(keep))
    missing = [n for n in gone | {p[0] for p in ports} if n not in seen]
    if missing:
        sys.stderr.write("fabric_edit.py: no node %s in %s\n" % (", ".join(sorted(missing)), src))
        return 2
    with open(out, "w") as fp:
        fp.write("\n\n".join(res))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

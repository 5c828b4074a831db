#!/usr/bin/env python3
# tests/lib/lft_moved.py A.dump B.dump [HOSTS...] - entries that differ
# between two opensm-lfts.dump files of one fabric (same LIDs), in total
# and of the destinations whose host (the first word of the CA's
# description) is named in the HOSTS files (one host per line).  Prints
# "moved N of M; of the hosts' LIDs K".  Independent of ffroute: parses
# the dump's text only.
import re
import sys


def load(path):
    table, host, sw = {}, {}, None
    for line in open(path):
        m = re.match(r"Unicast lids \[\S+\] of switch (?:Lid \d+ )?guid (0x[0-9a-f]+)", line)
        if m:
            sw = m.group(1)
            continue
        m = re.match(r"0x([0-9a-f]+) (\d+) .*'(.*)'", line)
        if m and sw:
            lid = int(m.group(1), 16)
            table[(sw, lid)] = m.group(2)
            host[lid] = m.group(3).split()[0] if m.group(3).split() else ''
    return table, host


a, host = load(sys.argv[1])
b, _ = load(sys.argv[2])
named = set()
for f in sys.argv[3:]:
    named |= set(line.strip() for line in open(f) if line.strip())
moved = [k for k in a if k in b and a[k] != b[k]]
print("moved %d of %d; of the hosts' LIDs %d" %
      (len(moved), len(a), sum(1 for k in moved if host.get(k[1]) in named)))

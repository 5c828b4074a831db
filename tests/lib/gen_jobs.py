#!/usr/bin/env python3
# tests/lib/gen_jobs.py NODES OUTDIR [--jobs N] [--min A] [--max B] [--seed S]
# Jobs placed at random, as a scheduler would on a shared cluster: N jobs
# of A..B compute hosts each (sizes drawn per job), hosts drawn without
# replacement from `ffroute classify --nodes` output (NODES), ranks in
# drawn order; the first job spans both zones (half from each, zone 0's
# ranks first: the order a scheduler that knows the zones gives, so the
# double binary tree crosses between them on few edges).  Writes
# OUTDIR/jobN.hosts (one host name per line: hfreduce-check --job
# hosts:FILE) and OUTDIR/jobs (all of them under "job jobN" lines: ffroute
# route --jobs).  Hosts are named by their node GUIDs when descriptions
# are not unique (unconfigured CAs).  Deterministic for a seed.
import argparse
import random
import re

ap = argparse.ArgumentParser()
ap.add_argument('nodes')
ap.add_argument('outdir')
ap.add_argument('--jobs', type=int, default=6)
ap.add_argument('--min', type=int, default=16)
ap.add_argument('--max', type=int, default=256)
ap.add_argument('--seed', type=int, default=1)
a = ap.parse_args()

cas = []
for line in open(a.nodes):
    m = re.match(r"node (0x[0-9a-f]+) ca .* zone (-?\d+) .* role compute .*'(\S+)", line)
    if m:
        cas.append((int(m.group(2)), m.group(3), m.group(1)))
unique = len(set(c[1] for c in cas)) == len(cas)
zones = {}
for z, name, guid in cas:
    zones.setdefault(z, []).append(name if unique else guid)
rng = random.Random(a.seed)
free = {z: sorted(set(h)) for z, h in zones.items() if z >= 0}
for z in free:
    rng.shuffle(free[z])
zs = sorted(free)
jobs = []
for j in range(a.jobs):
    size = rng.randint(a.min, a.max)
    if j == 0 and len(zs) > 1:   # across the zones (drawn first)
        half = size // 2
        hosts = [free[zs[0]].pop() for _ in range(half)] + \
                [free[zs[1]].pop() for _ in range(size - half)]
        jobs.append(hosts)
        continue
    z = rng.choice(zs)
    if len(free[z]) < size:         # full: the other zone, else what is left
        z = max(zs, key=lambda y: len(free[y]))
        size = min(size, len(free[z]))
    if size < 2:
        break
    jobs.append([free[z].pop() for _ in range(size)])
with open(a.outdir + '/jobs', 'w') as all_:
    for j, hosts in enumerate(jobs):
        all_.write('job job%d dbt\n' % j)
        with open('%s/job%d.hosts' % (a.outdir, j), 'w') as f:
            for h in hosts:
                f.write(h + '\n')
                all_.write(h + '\n')
print(' '.join(str(len(h)) for h in jobs))

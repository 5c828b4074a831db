// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_traffic.c - how well a routing carries the traffic AI training sends:
 * flows between HCAs, walked through the LFTs (chk_walk), loaded onto the
 * directed channels, each flow's bandwidth = 1 / the most flows sharing a
 * channel of its path (a flow whose walk is not OK has bandwidth 0 and is
 * counted in flows_unrouted).
 *
 * Endpoints.  The compute set is every cabled, LID-holding port of a CA
 * whose role is compute (SHARP ANs, storage, management excluded), ordered
 * by (zone, leaf switch position (class_pos.c: pods together), leaf port
 * number); the storage set likewise.
 *
 * Metrics (names are stable; see ffroute(1), CHECK METRICS):
 *   compute_hcas          N, the compute endpoints
 *   shift_max/_mean       shift k sends i -> (i + k) mod N for every i;
 *                         per shift the most flows on any channel; max and
 *                         mean over k = 1..N-1, or over a seeded sample of
 *                         opts->shift_samples shifts when N > shift_all_max
 *                         (1024); also shift_zone<k>_* over the compute HCAs
 *                         of zone k (two zones or more) and shift_rail_*
 *                         over each rail's (two rails or more; the worst
 *                         max and lower bound, the mean of the means)
 *   shift_lb_max/_mean    per shift the physical lower bound: 1, and the
 *                         largest over leaves of ceil(flows leaving the
 *                         leaf / its cabled switch links) and ceil(flows
 *                         entering / the same links), over the parts of
 *                         class_pos.c (the pods of a 3-level tree) of
 *                         ceil(flows leaving (entering) the part / the
 *                         switch links leaving it), and over zones of
 *                         ceil(flows leaving (entering) the zone / its
 *                         inter-zone channels out (in)); no routing can do
 *                         better, so a degraded or tapered fabric is judged
 *                         fairly
 *   shift_count, shift_sampled   shifts evaluated; 1 if sampled
 *   ebb, ebb_bisections   effective bisection bandwidth (Hoefler,
 *                         Schneider, Lumsdaine, "Multistage switches are
 *                         not crossbars", Cluster 2008; ORCS): per seeded
 *                         random bisection (chk_ebb_bisections: about 3.2
 *                         million flows, 32 to 4096) of the compute set a random
 *                         perfect matching across, both directions; mean
 *                         flow bandwidth over all flows of all bisections
 *   ebb_stderr            its standard error: the bisections' means' sample
 *                         standard deviation over sqrt(bisections)
 *   dbt_<job>_ranks/_flows/_max_share/_bw   NCCL double binary tree
 *                         allreduce (Sanders, Speck, Traeff 2009; NCCL
 *                         ncclGetDtree: tree 1 the in-order binary tree
 *                         over ranks 0..n-1, tree 2 its mirror (n even) or
 *                         shift by one (n odd), so leaves of one are inner
 *                         nodes of the other); flows = every tree edge in
 *                         both directions of both trees, 4(n - 1); max
 *                         flows on a channel (host links included) and mean
 *                         flow bandwidth.  Jobs: zone0 (compute of zone 0),
 *                         xzone (opts->xzone_job hosts, seeded, half from
 *                         zone 0 and half from zone 1, ranks in compute
 *                         order; only with >= 2 zones), job (opts->job, in
 *                         the given order)
 *   incast_flows, incast_mix_ratio   every compute HCA reads from two
 *                         storage HCAs of its zone (seeded; storage ->
 *                         compute) while shift 1 runs over the compute set;
 *                         mean shift-1 flow bandwidth with the reads / alone,
 *                         both counted on switch-to-switch channels only
 *                         (a reader's own host link carries its reads
 *                         whatever the routing); 1.0 = no interference
 *   a2a_max/_mean, a2a_flows, a2a_sampled   all-to-all among the compute
 *                         set: flows per switch-to-switch channel (max,
 *                         mean over all such channels); r->ch_load gets
 *                         every channel's count.  Sources are aggregated
 *                         per leaf (one walk per leaf and destination);
 *                         above 2^26 walks a seeded sample of destinations
 *                         is used (a2a_sampled = 1, counts not scaled)
 *   flows_unrouted        flows of all the patterns above whose walk failed
 * Each pattern draws from its own splitmix64 stream derived from
 * opts->seed, so one pattern's options never change another's numbers.
 *
 * Cost, N compute endpoints, S shifts, B bisections, h hops, L leaves:
 * O((S + B) N h + N L h) walks' work (B N is about 3.2 million by
 * default), O(nports + N) memory.  The full Fire-Flyer 2 fabric (1,200
 * compute HCAs) takes ~0.3 s, 0.2 s of it EBB.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/util.h"
#include "check/chk_traffic.h"

#define A2A_WALKS_MAX (1u << 26)	/* all-to-all walks before sampling */

int chk_setf(struct tctx *x, const char *fmt, const char *a, double v)
{
	char name[48];

	snprintf(name, sizeof(name), fmt, a);
	return set(x, name, v);
}

/* ---- flow sets ---------------------------------------------------------- */

void chk_fset_reset(struct fset *f)
{
	f->n = 0;
	f->nch = 0;
}

static void fset_free(struct fset *f)
{
	free(f->off);
	free(f->ch);
	free(f->ok);
	memset(f, 0, sizeof(*f));
}

static int fset_grow(struct fset *f, uint32_t more)
{
	if (f->n + 1 >= f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 1024;
		uint32_t *off = realloc(f->off, ((size_t)cap + 1) * sizeof(*off));
		uint8_t *ok;

		if (!off)
			return -ENOMEM;
		f->off = off;
		ok = realloc(f->ok, cap);
		if (!ok)
			return -ENOMEM;
		f->ok = ok;
		f->cap = cap;
	}
	if (f->nch + more > f->capch) {
		uint32_t cap = f->capch ? f->capch : 4096;
		uint32_t *ch;

		while (cap < f->nch + more)
			cap *= 2;
		ch = realloc(f->ch, (size_t)cap * sizeof(*ch));
		if (!ch)
			return -ENOMEM;
		f->ch = ch;
		f->capch = cap;
	}
	return 0;
}

/* Add the flow from CA port @src to @dlid; a failed walk is kept as not ok. */
int chk_fset_add(struct tctx *x, struct fset *f, uint32_t src, uint32_t dlid)
{
	struct chk_path p;
	int rc = fset_grow(f, CHK_MAX_HOPS);

	if (rc)
		return rc;
	chk_walk(x->t, x->l, src, dlid, &p);
	if (!f->n)
		f->off[0] = 0;
	f->ok[f->n] = p.status == CHK_WALK_OK;
	if (p.status == CHK_WALK_OK) {
		memcpy(f->ch + f->nch, p.ch, p.nch * sizeof(p.ch[0]));
		f->nch += p.nch;
	} else {
		x->unrouted++;
	}
	f->off[++f->n] = f->nch;
	return 0;
}

void chk_fset_load(const struct fset *f, uint32_t *load)
{
	for (uint32_t i = 0; i < f->nch; i++)
		load[f->ch[i]]++;
}

void chk_fset_unload(const struct fset *f, uint32_t *load)
{
	for (uint32_t i = 0; i < f->nch; i++)
		load[f->ch[i]] = 0;
}

uint32_t chk_fset_max(const struct fset *f, const uint32_t *load)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < f->nch; i++)
		if (load[f->ch[i]] > m)
			m = load[f->ch[i]];
	return m;
}

/*
 * Bandwidth of flow @i, in units of the full rate: the least over its
 * channels (only switch links if @mask) of the channel's share, its
 * capacity (@cap: rate / full rate; NULL: 1) over the flows on it.
 */
static double flow_bw(const struct fset *f, uint32_t i, const uint32_t *load,
		      const uint8_t *mask, const float *cap)
{
	double bw = 1.0;

	if (!f->ok[i])
		return 0.0;
	for (uint32_t k = f->off[i]; k < f->off[i + 1]; k++) {
		uint32_t ch = f->ch[k];
		double share;

		if ((mask && !mask[ch]) || !load[ch])
			continue;
		share = (cap ? cap[ch] : 1.0) / load[ch];
		bw = share < bw ? share : bw;
	}
	return bw;
}

static double fset_bw_sum(const struct tctx *x, const struct fset *f, const uint8_t *mask)
{
	double s = 0;

	for (uint32_t i = 0; i < f->n; i++)
		s += flow_bw(f, i, x->load, mask, x->cap);
	return s;
}

/* ---- endpoints and capacities ------------------------------------------- */

static int cmp_ep(const void *a, const void *b)
{
	const struct ep *x = a, *y = b;
	uint16_t zx = (uint16_t)x->zone, zy = (uint16_t)y->zone;	/* -1 last */

	if (zx != zy)
		return zx < zy ? -1 : 1;
	if (x->lpos != y->lpos)
		return x->lpos < y->lpos ? -1 : 1;
	return x->rport < y->rport ? -1 : x->rport > y->rport;
}

/* Fill @e from CA port @p; false if it is no endpoint (no LID, not on a switch). */
static bool ep_of(const struct topo *t, const struct cls *c, uint32_t p, struct ep *e)
{
	uint32_t r = t->port_remote[p];

	if (!t->port_lid[p] || r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
		return false;
	e->port = p;
	e->rport = r;
	e->leaf = t->port_node[r];
	e->lpos = c->pos[e->leaf];
	e->lid = t->port_lid[p];
	e->zone = c->zone[t->port_node[p]];
	return true;
}

bool chk_node_ep(const struct topo *t, const struct cls *c, uint32_t node, struct chk_ep *e)
{
	for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++)
		if (ep_of(t, c, p, e))
			return true;
	return false;
}

int chk_endpoints(const struct topo *t, const struct cls *c, enum cls_role role,
		  struct chk_ep **out, uint32_t *n)
{
	struct ep *v = malloc(((size_t)t->ncas + 1) * 2 * sizeof(*v));
	uint32_t cap = (t->ncas + 1) * 2, k = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t nd = 0; nd < t->nnodes; nd++) {
		if (t->node_type[nd] != TOPO_NODE_CA || c->role[nd] != role)
			continue;
		for (uint32_t p = t->port_off[nd] + 1; p < t->port_off[nd + 1]; p++) {
			if (k == cap) {
				struct ep *w = realloc(v, (size_t)(cap *= 2) * sizeof(*v));

				if (!w) {
					free(v);
					return -ENOMEM;
				}
				v = w;
			}
			k += ep_of(t, c, p, &v[k]);
		}
	}
	qsort(v, k, sizeof(*v), cmp_ep);
	*out = v;
	*n = k;
	return 0;
}

/* Channel masks and the link counts the lower bound divides by. */
static void capacities(struct tctx *x)
{
	const struct topo *t = x->t;
	const struct cls *c = x->c;

	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p], a = t->port_node[p], b;

		if (r == TOPO_NONE || !topo_is_switch(t, a) || !topo_is_switch(t, b = t->port_node[r]))
			continue;
		x->sw2sw[p] = 1;
		x->leaf_cap[t->node_sw[a]]++;
		for (unsigned i = 0; i < c->npartlv; i++) {
			uint32_t pa = c->part[(size_t)a * c->npartlv + i];

			if (pa != UINT32_MAX && pa != c->part[(size_t)b * c->npartlv + i])
				x->pcap[(size_t)i * (t->nnodes + 1) + pa]++;
		}
		if (!c->interzone[p])
			continue;
		if (c->zone[a] >= 0 && (uint32_t)c->zone[a] < c->nzones)
			x->zcap_out[c->zone[a]]++;
		if (c->zone[b] >= 0 && (uint32_t)c->zone[b] < c->nzones)
			x->zcap_in[c->zone[b]]++;
	}
}

/* ---- effective bisection bandwidth --------------------------------------- */

/*
 * The default is a flow budget, not a count: a bisection's mean over n
 * flows varies about as 1 / sqrt(n), so a fixed number of flows keeps the
 * standard error about the same on every size (0.0002 on the 800-host
 * frame, where 32 bisections give 0.002, more than two engines differ)
 * and the time too (about 0.1 s).
 */
unsigned chk_ebb_bisections(uint32_t n)
{
	uint64_t b = n ? (3200000u + n - 1) / n : 4096;

	return b < 32 ? 32 : b > 4096 ? 4096 : (unsigned)b;
}

static int ebb_metric(struct tctx *x)
{
	uint32_t n = x->ncomp, *perm;
	uint32_t nb = x->o->bisections ? x->o->bisections : chk_ebb_bisections(n);
	uint64_t nflows = 0;
	double sum = 0, bsum = 0, bsq = 0;
	struct rng g;
	int rc = 0;

	if (n < 2)
		return 0;
	perm = malloc((size_t)n * sizeof(*perm));
	if (!perm)
		return -ENOMEM;
	rng_init(&g, x->o->seed, ST_EBB);
	for (uint32_t b = 0; b < nb && !rc; b++) {
		uint32_t half = n / 2;
		double bw;

		for (uint32_t i = 0; i < n; i++)
			perm[i] = i;
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t j = rng_below(&g, i + 1), tmp = perm[i];

			perm[i] = perm[j];
			perm[j] = tmp;
		}
		chk_fset_reset(&x->fs);
		for (uint32_t i = 0; i < half && !rc; i++) {
			const struct ep *a = &x->comp[perm[i]], *z = &x->comp[perm[half + i]];

			rc = chk_fset_add(x, &x->fs, a->port, z->lid);
			if (!rc)
				rc = chk_fset_add(x, &x->fs, z->port, a->lid);
		}
		chk_fset_load(&x->fs, x->load);
		bw = fset_bw_sum(x, &x->fs, NULL);
		sum += bw;
		nflows += x->fs.n;
		bw = x->fs.n ? bw / x->fs.n : 0;
		bsum += bw;
		bsq += bw * bw;
		chk_fset_unload(&x->fs, x->load);
	}
	free(perm);
	if (rc || (rc = set(x, "ebb", nflows ? sum / (double)nflows : 0)))
		return rc;
	/* every bisection has the same number of flows: ebb is the mean of the
	 * bisections' means, and its standard error theirs over sqrt(B) */
	if (nb > 1 && (rc = set(x, "ebb_stderr",
				sqrt(fmax(bsq - bsum * bsum / nb, 0) / (nb - 1) / nb))))
		return rc;
	return set(x, "ebb_bisections", nb);
}

/* ---- double binary tree --------------------------------------------------- */

/* NCCL ncclGetBtree: parent of @r in the in-order binary tree rooted at 0. */
static int64_t btree_parent(int64_t n, int64_t r)
{
	int64_t bit, up;

	if (r == 0)
		return -1;
	for (bit = 1; bit < n; bit <<= 1)
		if (bit & r)
			break;
	up = (r ^ bit) | (bit << 1);
	return up >= n ? r ^ bit : up;
}

int64_t chk_dbt_parent(int64_t n, int64_t r, int tree)
{
	int64_t p;

	if (tree == 0)
		return btree_parent(n, r);
	if (n % 2) {			/* odd: shift by one rank */
		p = btree_parent(n, (r - 1 + n) % n);
		return p < 0 ? -1 : (p + 1) % n;
	}
	p = btree_parent(n, n - 1 - r);	/* even: mirror */
	return p < 0 ? -1 : n - 1 - p;
}

int64_t chk_dbt_tree(uint32_t n, int tree, int32_t *parent, uint32_t *depth)
{
	int64_t height = 0;

	for (uint32_t r = 0; r < n; r++)
		parent[r] = (int32_t)chk_dbt_parent(n, r, tree);
	for (uint32_t r = 0; r < n; r++) {	/* height is O(log n): O(n log n) in all */
		uint32_t d = 0;

		for (int32_t v = (int32_t)r; parent[v] >= 0 && d <= n; v = parent[v])
			d++;
		if (d > n)
			return -EINVAL;	/* a cycle */
		depth[r] = d;
		if (d > height)
			height = d;
	}
	return height;
}

/* Allreduce over @n ranks @rk (in rank order); metrics dbt_<name>_*. */
static int dbt_run(struct tctx *x, const char *name, const struct ep *rk, uint32_t n)
{
	uint32_t mx;
	double bw;
	int rc = 0;

	if (n < 2)
		return 0;
	chk_fset_reset(&x->fs);
	for (int tree = 0; tree < 2 && !rc; tree++)
		for (uint32_t i = 0; i < n && !rc; i++) {
			int64_t p = chk_dbt_parent(n, i, tree);

			if (p < 0)
				continue;
			rc = chk_fset_add(x, &x->fs, rk[i].port, rk[p].lid);
			if (!rc)
				rc = chk_fset_add(x, &x->fs, rk[p].port, rk[i].lid);
		}
	if (rc)
		return rc;
	chk_fset_load(&x->fs, x->load);
	mx = chk_fset_max(&x->fs, x->load);
	bw = fset_bw_sum(x, &x->fs, NULL) / x->fs.n;
	chk_fset_unload(&x->fs, x->load);
	if ((rc = chk_setf(x, "dbt_%s_ranks", name, n)) ||
	    (rc = chk_setf(x, "dbt_%s_flows", name, x->fs.n)) ||
	    (rc = chk_setf(x, "dbt_%s_max_share", name, mx)))
		return rc;
	return chk_setf(x, "dbt_%s_bw", name, bw);
}

/* Choose @k of the @n indices lo..lo+n-1 (seeded), appended to @out. */
static void choose(struct rng *g, uint32_t lo, uint32_t n, uint32_t k, uint32_t *tmp,
		   uint32_t *out)
{
	for (uint32_t i = 0; i < n; i++)
		tmp[i] = lo + i;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t j = i + rng_below(g, n - i), v = tmp[j];

		tmp[j] = tmp[i];
		out[i] = v;
	}
}

/* The cross-zone job: half from zone 0, half from zone 1, in compute order. */
static int dbt_xzone(struct tctx *x)
{
	uint32_t z0 = 0, z1 = 0, n, h0, h1, *idx, *tmp;
	struct ep *rk;
	struct rng g;
	int rc = -ENOMEM;

	while (z0 < x->ncomp && x->comp[z0].zone == 0)
		z0++;
	while (z0 + z1 < x->ncomp && x->comp[z0 + z1].zone == 1)
		z1++;
	if (!z0 || !z1 || !x->o->xzone_job)
		return 0;
	n = x->o->xzone_job < z0 + z1 ? x->o->xzone_job : z0 + z1;
	h1 = n - (n / 2 < z0 ? n / 2 : z0);
	h1 = h1 < z1 ? h1 : z1;
	h0 = n - h1;
	idx = malloc((size_t)n * sizeof(*idx));
	tmp = malloc((size_t)(z0 > z1 ? z0 : z1) * sizeof(*tmp));
	rk = malloc((size_t)n * sizeof(*rk));
	if (idx && tmp && rk) {
		rng_init(&g, x->o->seed, ST_XZONE);
		choose(&g, 0, z0, h0, tmp, idx);
		choose(&g, z0, z1, h1, tmp, idx + h0);
		qsort(idx, n, sizeof(*idx), ffr_cmp_u32);
		for (uint32_t i = 0; i < n; i++)
			rk[i] = x->comp[idx[i]];
		rc = dbt_run(x, "xzone", rk, n);
	}
	free(idx);
	free(tmp);
	free(rk);
	return rc;
}

/* opts->job: CA node ids in rank order; each at its first endpoint port. */
static int dbt_job(struct tctx *x)
{
	const struct topo *t = x->t;
	struct ep *rk = malloc(((size_t)x->o->njob + 1) * sizeof(*rk));
	uint32_t n = 0;
	int rc;

	if (!rk)
		return -ENOMEM;
	for (uint32_t i = 0; i < x->o->njob; i++) {
		uint32_t nd = x->o->job[i];

		if (nd < t->nnodes && !topo_is_switch(t, nd))
			n += chk_node_ep(t, x->c, nd, &rk[n]);
	}
	rc = dbt_run(x, "job", rk, n);
	free(rk);
	return rc;
}

static int dbt_metrics(struct tctx *x)
{
	uint32_t z0 = 0;
	int rc;

	while (z0 < x->ncomp && x->comp[z0].zone == 0)
		z0++;
	rc = dbt_run(x, "zone0", x->comp, z0);
	if (!rc && x->c->nzones >= 2)
		rc = dbt_xzone(x);
	if (!rc && x->o->job && x->o->njob)
		rc = dbt_job(x);
	return rc;
}

/* ---- storage incast mix ---------------------------------------------------- */

/* Two storage reads per compute endpoint, from its zone (fs2). */
static int incast_reads(struct tctx *x)
{
	uint32_t nz = x->c->nzones, *zs = calloc((size_t)nz + 2, sizeof(*zs));
	struct rng g;
	int rc = 0;

	if (!zs)
		return -ENOMEM;
	for (uint32_t i = 0; i < x->nstor; i++)	/* stor is sorted by zone */
		if (zone_ok(x, x->stor[i].zone))
			zs[x->stor[i].zone + 1] = i + 1;
	for (uint32_t z = 1; z <= nz; z++)
		zs[z] = zs[z] > zs[z - 1] ? zs[z] : zs[z - 1];
	rng_init(&g, x->o->seed, ST_INCAST);
	chk_fset_reset(&x->fs2);
	for (uint32_t i = 0; i < x->ncomp && !rc; i++) {
		int16_t z = x->comp[i].zone;
		uint32_t lo, m, a, b;

		if (!zone_ok(x, z) || !(m = zs[z + 1] - (lo = zs[z])))
			continue;
		a = rng_below(&g, m);
		rc = chk_fset_add(x, &x->fs2, x->stor[lo + a].port, x->comp[i].lid);
		if (rc || m < 2)
			continue;
		b = rng_below(&g, m - 1);
		b += b >= a;
		rc = chk_fset_add(x, &x->fs2, x->stor[lo + b].port, x->comp[i].lid);
	}
	free(zs);
	return rc;
}

static int incast_metric(struct tctx *x)
{
	uint32_t n = x->ncomp;
	double alone, mix;
	int rc = 0;

	if (n < 2)
		return 0;
	chk_fset_reset(&x->fs);
	for (uint32_t i = 0; i < n && !rc; i++)
		rc = chk_fset_add(x, &x->fs, x->comp[i].port, x->comp[(i + 1) % n].lid);
	if (rc || (rc = incast_reads(x)))
		return rc;
	chk_fset_load(&x->fs, x->load);
	alone = fset_bw_sum(x, &x->fs, x->sw2sw);
	chk_fset_load(&x->fs2, x->load);
	mix = fset_bw_sum(x, &x->fs, x->sw2sw);
	chk_fset_unload(&x->fs, x->load);
	chk_fset_unload(&x->fs2, x->load);
	if ((rc = set(x, "incast_flows", x->fs2.n)))
		return rc;
	return set(x, "incast_mix_ratio", alone > 0 ? mix / alone : 0);
}

/* ---- all-to-all -------------------------------------------------------------- */

/* Walk from leaf @sw to @lid and add @cnt flows to every channel. */
static void a2a_add(struct tctx *x, uint32_t sw, uint32_t lid, uint32_t cnt)
{
	struct chk_path p;

	chk_walk(x->t, x->l, x->t->port_off[sw], lid, &p);
	if (p.status != CHK_WALK_OK) {
		x->unrouted += cnt;
		return;
	}
	for (uint32_t k = 0; k < p.nch; k++)
		x->r->ch_load[p.ch[k]] += cnt;
}

/* Destinations (indices into comp): all, or a seeded sample; *nd set. */
static uint32_t *a2a_dests(struct tctx *x, uint32_t ngroups, uint32_t *nd, bool *sampled)
{
	uint32_t n = x->ncomp, *d = malloc((size_t)n * sizeof(*d)), *tmp;
	uint64_t walks = (uint64_t)n * ngroups;
	struct rng g;

	*nd = n;
	*sampled = walks > A2A_WALKS_MAX;
	if (!d)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		d[i] = i;
	if (!*sampled)
		return d;
	*nd = A2A_WALKS_MAX / ngroups;
	tmp = malloc((size_t)n * sizeof(*tmp));
	if (!tmp) {
		free(d);
		return NULL;
	}
	rng_init(&g, x->o->seed, ST_A2A);
	choose(&g, 0, n, *nd, tmp, d);
	free(tmp);
	qsort(d, *nd, sizeof(*d), ffr_cmp_u32);
	return d;
}

static int a2a_metric(struct tctx *x)
{
	const struct topo *t = x->t;
	uint32_t n = x->ncomp, ng = 0, nd, *gl, *gc, *d, mx = 0, nsw = 0;
	uint64_t sum = 0;
	bool sampled;
	int rc;

	memset(x->r->ch_load, 0, (size_t)t->nports * sizeof(uint32_t));
	if (n < 2)
		return 0;
	gl = malloc(((size_t)n + 1) * sizeof(*gl));
	gc = malloc(((size_t)n + 1) * sizeof(*gc));
	for (uint32_t i = 0; gl && gc && i < n; i++) {	/* comp is grouped by leaf */
		if (!ng || gl[ng - 1] != x->comp[i].leaf)
			gl[ng] = x->comp[i].leaf, gc[ng++] = 0;
		gc[ng - 1]++;
	}
	d = gl && gc ? a2a_dests(x, ng ? ng : 1, &nd, &sampled) : NULL;
	if (!d) {
		free(gl);
		free(gc);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)	/* host link of each source: a flow per dest */
		x->r->ch_load[x->comp[i].port] += nd;
	for (uint32_t k = 0; k < nd; k++) {
		const struct ep *e = &x->comp[d[k]];

		for (uint32_t g = 0; g < ng; g++) {
			uint32_t cnt = gc[g] - (gl[g] == e->leaf);

			if (cnt)
				a2a_add(x, gl[g], e->lid, cnt);
		}
		x->r->ch_load[e->port]--;	/* but not to itself */
	}
	for (uint32_t p = 0; p < t->nports; p++)
		if (x->sw2sw[p]) {
			nsw++;
			sum += x->r->ch_load[p];
			mx = x->r->ch_load[p] > mx ? x->r->ch_load[p] : mx;
		}
	free(gl);
	free(gc);
	free(d);
	if ((rc = set(x, "a2a_max", mx)) || (rc = set(x, "a2a_mean", nsw ? (double)sum / nsw : 0)) ||
	    (rc = set(x, "a2a_flows", n ? (double)nd * (n - 1) : 0)))
		return rc;
	return set(x, "a2a_sampled", sampled);
}

/* ---- entry ---------------------------------------------------------------------- */

static void tctx_free(struct tctx *x)
{
	free(x->comp);
	free(x->stor);
	free(x->load);
	free(x->sw2sw);
	free(x->cap);
	free(x->leaf_cap);
	free(x->leaf_out);
	free(x->leaf_in);
	free(x->zcap_out);
	free(x->zcap_in);
	free(x->z_out);
	free(x->z_in);
	free(x->pcap);
	free(x->p_out);
	free(x->p_in);
	fset_free(&x->fs);
	fset_free(&x->fs2);
}

static int tctx_init(struct tctx *x)
{
	size_t np = (size_t)x->t->nports + 1, ns = (size_t)x->t->nswitches + 1;
	size_t nz = (size_t)x->c->nzones + 1;
	size_t npt = (size_t)x->c->npartlv * ((size_t)x->t->nnodes + 1) + 1;
	int rc;

	x->load = calloc(np, sizeof(uint32_t));
	x->sw2sw = calloc(np, 1);
	x->leaf_cap = calloc(ns, sizeof(uint32_t));
	x->leaf_out = calloc(ns, sizeof(uint32_t));
	x->leaf_in = calloc(ns, sizeof(uint32_t));
	x->zcap_out = calloc(nz, sizeof(uint32_t));
	x->zcap_in = calloc(nz, sizeof(uint32_t));
	x->z_out = calloc(nz, sizeof(uint32_t));
	x->z_in = calloc(nz, sizeof(uint32_t));
	x->pcap = calloc(npt, sizeof(uint32_t));
	x->p_out = calloc(npt, sizeof(uint32_t));
	x->p_in = calloc(npt, sizeof(uint32_t));
	if (!x->load || !x->sw2sw || !x->leaf_cap || !x->leaf_out || !x->leaf_in ||
	    !x->zcap_out || !x->zcap_in || !x->z_out || !x->z_in || !x->pcap || !x->p_out ||
	    !x->p_in)
		return -ENOMEM;
	capacities(x);
	if (x->c->rates_mixed) {	/* flows share a slower link's lesser rate */
		x->cap = malloc(np * sizeof(*x->cap));
		if (!x->cap)
			return -ENOMEM;
		for (uint32_t p = 0; p < x->t->nports; p++)
			x->cap[p] = x->c->rate[p] && x->c->full_rate ?
				    (float)x->c->rate[p] / (float)x->c->full_rate : 1.0f;
	}
	rc = chk_endpoints(x->t, x->c, CLS_ROLE_COMPUTE, &x->comp, &x->ncomp);
	return rc ? rc : chk_endpoints(x->t, x->c, CLS_ROLE_STORAGE, &x->stor, &x->nstor);
}

int chk_traffic_metrics(const struct topo *t, const struct lft *l, const struct cls *c,
			const struct chk_opts *o, struct chk_report *r)
{
	struct tctx x = { .t = t, .l = l, .c = c, .o = o, .r = r };
	int rc;

	r->seed = o->seed;
	rc = tctx_init(&x);
	if (!rc)
		rc = set(&x, "compute_hcas", x.ncomp);
	if (!rc)
		rc = chk_shift_metrics(&x);
	if (!rc)
		rc = ebb_metric(&x);
	if (!rc)
		rc = dbt_metrics(&x);
	if (!rc)
		rc = incast_metric(&x);
	if (!rc)
		rc = a2a_metric(&x);
	if (!rc)
		rc = set(&x, "flows_unrouted", (double)x.unrouted);
	tctx_free(&x);
	return rc;
}

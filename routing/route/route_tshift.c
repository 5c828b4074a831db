// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_tshift.c - on a zone that is not a two-level Clos D-mod-K can
 * place exactly (three levels or more, ToRs under directors whose line
 * cards overlap, rail-grouped SuperPOD-style trees), re-choose single
 * (switch, compute destination) entries among the equally short
 * up*\/down* next hops, so that shift permutations come closer to their
 * lower bound.
 *
 * Why.  Where the digits of route_pos.c hold, every shift is at its bound.
 * Where they do not (no pods, or pods whose up-groups do not line up with
 * the position order), the balanced choice of route_dest.c spreads routes
 * per link but knows nothing of which destinations are busy together: on
 * 16 ToRs under two directors whose line cards overlap the mean over
 * shifts of the most loaded link was 4.69 against dfsssp's 4.35.
 *
 * What.  The zone's compute endpoints in the checker's order (chk_endpoints)
 * and families of permutations: every shift of them (at most
 * TS_ALL_SHIFTS + 1 endpoints: a sample would be searched and the shifts
 * left out would pay), and with rails every shift of each rail's.  Loads
 * are kept per permutation and switch-to-switch port.  A permutation sends
 * at most one flow into each destination, so moving the entry (x, j)
 * touches one flow per permutation: the one into j, if its path passes x.
 * A move is kept when the sum over permutations of (most loaded channel,
 * then how many channels carry that much) does not grow; a permutation at
 * its bound counts as the bound: the checker's shift_lb_sp (leaves, parts,
 * shortest paths between leaves) when every route between the zone's
 * leaves is a shortest path, else its shift_lb.  Moves are drawn from
 * flows on a most loaded channel of a permutation above its bound, from a
 * fixed seed: deterministic.  After n tries without a better sum, a few
 * moves are made whatever they cost (TS_KICKS times at most), and the best
 * tables seen are kept.  The search stops when every permutation is at its
 * bound, after TS_ITERS moves, 4 x TS_ITERS tries or TS_STEPS switch hops
 * walked.  Zones whose HFReduce digits were searched (route_dbt.c) are
 * left alone, and so is a zone where TS_FIRST evenly spread permutations
 * are all at their bound (a healthy tree D-mod-K routes).
 *
 * What is kept.  A move replaces the next hop of x toward j by another
 * port of x in the same direction (up or down) whose switch reaches j in
 * as many hops, going only down when x went down and up*\/down* otherwise,
 * at the same link rate and rate bottleneck, never into or through a
 * low-speed subtree: every route keeps its length and stays up*\/down* on
 * the zone's one VL, and no slower.  Entries on a path that is not plain
 * up*\/down* inside the zone (a switch-LID turn, a route from another zone
 * or a bridge) and entries toward a subtree's HCAs are fixed: the SLs and
 * VLs of those paths were chosen for the hops they have, and subtrees
 * spread their own (route_subtree.c).  Other classes, switch LIDs and
 * healthy zones are untouched.
 *
 * Cost: O(switches x n) to find the fixed entries, memory O(permutations x
 * channels) for the loads (at most TS_MAX_CELLS), then at most TS_STEPS
 * hops walked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/rng.h"
#include "route/route_int.h"

#define TS_HMAX 1040u		/* above any load: a channel carries at most n <= TS_ALL_SHIFTS + 1 flows */
#define TS_MAX_CELLS (16u << 20)	/* permutations x channels at most (32 MiB of loads) */
#define TS_FIRST 64u		/* permutations looked at before the rest */
#define TS_ALL_SHIFTS 1024u	/* every shift of the zone, as the checker runs them, at most */
_Static_assert(TS_ALL_SHIFTS + 2 < TS_HMAX, "a channel's load stays below TS_HMAX");
#define TS_ITERS 30000u		/* moves tried at most */
#define TS_STEPS (4ull << 20)	/* switch hops walked by the search at most (~30 ms) */
#define TS_KICKS 40u		/* escapes from a local optimum at most */
#define TS_KICK_MOVES 4u	/* moves made whatever they cost, per escape */
#define TS_MAX_FAM 33u		/* families of shifts: the zone's and 32 rails' at most */

enum ts_state { TS_DOWN = 1, TS_UPDOWN, TS_OTHER };

struct tsz {
	struct rt *r;
	struct lft *l;
	uint32_t n;		/* compute endpoints of the zone */
	uint32_t *lid, *leaf;	/* [n] LID; switch ordinal it hangs on */
	int16_t *rail;		/* [n] the endpoint's rail, -1 none */
	uint32_t nperm, nfam;	/* permutations; families of shifts (the zone, each rail) */
	uint32_t fm[TS_MAX_FAM];	/* ranks of each family */
	uint32_t *fidx;		/* [nfam * n] family f's ranks in order, the first fm[f] */
	uint32_t *fpos;		/* [nfam * n] a rank's place in family f, or TOPO_NONE */
	uint32_t *fk;		/* [nfam * n] the permutation of shift k of family f, or TOPO_NONE */
	uint32_t *pf, *pk;	/* [nperm] family and shift of each permutation */
	uint32_t nleaf, *lsw, *lbeg, *lrank;	/* leaves with ranks; CSR of their ranks */
	uint32_t *chan;		/* [nports] compact channel, or TOPO_NONE */
	uint32_t nch;
	uint16_t *ld;		/* [nperm * nch] flows per permutation and channel */
	uint32_t *hist;		/* [nperm * TS_HMAX] channels per load */
	uint16_t *mx, *lb;	/* [nperm] most loaded channel; lower bound */
	uint8_t *fixed;		/* [nsw * n] bits: the entry stays */
	uint64_t *aff;		/* [n * nfam] scratch: (permutation, source) a move touches */
	uint8_t *inz;		/* [nsw] in the zone */
	uint64_t steps, rng;
	int16_t zone;
};

static void ts_free(struct tsz *z)
{
	free(z->lid);
	free(z->leaf);
	free(z->rail);
	free(z->fidx);
	free(z->fpos);
	free(z->fk);
	free(z->pf);
	free(z->pk);
	free(z->lsw);
	free(z->lbeg);
	free(z->lrank);
	free(z->chan);
	free(z->ld);
	free(z->hist);
	free(z->mx);
	free(z->lb);
	free(z->fixed);
	free(z->aff);
	free(z->inz);
}

static inline bool ts_fixed(const struct tsz *z, uint32_t s, uint32_t j)
{
	size_t b = (size_t)s * z->n + j;

	return z->fixed[b >> 3] >> (b & 7) & 1;
}

/* The rank sending into rank @j in permutation @q, or TOPO_NONE. */
static inline uint32_t ts_src(const struct tsz *z, uint32_t q, uint32_t j)
{
	size_t f = z->pf[q], m = z->fm[f];
	uint32_t p = z->fpos[f * z->n + j];

	return p == TOPO_NONE ? TOPO_NONE : z->fidx[f * z->n + (p + m - z->pk[q]) % m];
}

/* The permutation of family @f in which rank @i sends into rank @j, or TOPO_NONE. */
static inline uint32_t ts_perm_of(const struct tsz *z, size_t f, uint32_t i, uint32_t j)
{
	uint32_t a = z->fpos[f * z->n + i], b = z->fpos[f * z->n + j];

	if (a == TOPO_NONE || b == TOPO_NONE || a == b)
		return TOPO_NONE;
	return z->fk[f * z->n + (b + z->fm[f] - a) % z->fm[f]];
}

/* The port switch @s sends rank @j out of (a port index), or TOPO_NONE. */
static uint32_t ts_port(const struct tsz *z, uint32_t s, uint32_t j)
{
	const struct topo *t = z->r->t;
	uint32_t node = rt_node(z->r, s), pn = lft_get(z->l, s, z->lid[j]);

	return pn && pn <= t->node_nports[node] ? t->port_off[node] + pn : TOPO_NONE;
}

/*
 * Walk from switch @s toward rank @j: the kind of path (TS_DOWN: only down,
 * TS_UPDOWN: up then down, inside the zone), *len its switch hops, *rate
 * its slowest switch link's rate.
 */
static enum ts_state ts_path(struct tsz *z, uint32_t s, uint32_t j, uint32_t *len, uint32_t *rate)
{
	const uint8_t *dir = z->r->c->dir;
	bool down = false;

	*len = 0;
	*rate = UINT32_MAX;
	while (s != z->leaf[j]) {
		uint32_t p = ts_port(z, s, j);

		z->steps++;
		if (p == TOPO_NONE || !z->inz[s] || *len >= RT_MAXD ||
		    z->r->c->subtree[rt_node(z->r, s)] != TOPO_NONE)
			return TS_OTHER;
		*rate = rt_rate(z->r, p) < *rate ? rt_rate(z->r, p) : *rate;
		if (dir[p] == CLS_DIR_DOWN)
			down = true;
		else if (dir[p] != CLS_DIR_UP || down)
			return TS_OTHER;
		s = rt_peer(z->r, p);
		if (s == TOPO_NONE)
			return TS_OTHER;
		++*len;
	}
	return z->inz[s] ? (down || !*len ? TS_DOWN : TS_UPDOWN) : TS_OTHER;
}

/* Whether the route from switch @s toward rank @j passes switch @x. */
static bool ts_passes(struct tsz *z, uint32_t s, uint32_t j, uint32_t x)
{
	for (uint32_t h = 0; h <= RT_MAXD; h++) {
		uint32_t p;

		z->steps++;
		if (s == x)
			return true;
		if (s == z->leaf[j] || (p = ts_port(z, s, j)) == TOPO_NONE ||
		    (s = rt_peer(z->r, p)) == TOPO_NONE)
			return false;
	}
	return false;
}

/* ---- loads ----------------------------------------------------------------------- */

/* Add (@d = 1) or remove (@d = -1) one flow of permutation @q on channel @c. */
static void flow1(struct tsz *z, uint32_t q, uint32_t c, int d)
{
	rt_hist_move(&z->ld[(size_t)q * z->nch + c], &z->hist[(size_t)q * TS_HMAX], &z->mx[q], d);
}

/* Add or remove the flow of permutation @q from switch @s into rank @j. */
static void flow(struct tsz *z, uint32_t q, uint32_t s, uint32_t j, int d)
{
	for (uint32_t h = 0; s != z->leaf[j] && h < RT_MAXD; h++) {
		uint32_t p = ts_port(z, s, j);

		z->steps++;
		if (p == TOPO_NONE)
			return;
		if (z->chan[p] != TOPO_NONE)
			flow1(z, q, z->chan[p], d);
		if ((s = rt_peer(z->r, p)) == TOPO_NONE)
			return;
	}
}

/* A permutation's cost (rt_hist_cost). */
static uint64_t perm_cost(const struct tsz *z, uint32_t q)
{
	return rt_hist_cost(z->mx[q], z->lb[q], &z->hist[(size_t)q * TS_HMAX]);
}

/*
 * Set the entry (switch @x, rank @j) to port number @pn, moving the flows
 * into j that pass x; the change of cost.
 */
static int64_t ts_move(struct tsz *z, uint32_t x, uint32_t j, uint8_t pn)
{
	uint32_t na = 0;
	int64_t dc = 0;

	for (uint32_t a = 0; a < z->nleaf; a++) {
		if (z->lsw[a] == z->leaf[j] || !ts_passes(z, z->lsw[a], j, x))
			continue;
		for (uint32_t k = z->lbeg[a]; k < z->lbeg[a + 1]; k++)
			for (uint32_t f = 0; f < z->nfam; f++) {
				uint32_t i = z->lrank[k], q = ts_perm_of(z, f, i, j);

				if (q != TOPO_NONE)
					z->aff[na++] = (uint64_t)q << 32 | i;
			}
	}
	for (uint32_t k = 0; k < na; k++) {
		uint32_t q = (uint32_t)(z->aff[k] >> 32), i = (uint32_t)z->aff[k];

		dc -= (int64_t)perm_cost(z, q);
		flow(z, q, z->leaf[i], j, -1);
	}
	lft_set(z->l, x, z->lid[j], pn);
	for (uint32_t k = 0; k < na; k++) {
		uint32_t q = (uint32_t)(z->aff[k] >> 32), i = (uint32_t)z->aff[k];

		flow(z, q, z->leaf[i], j, 1);
		dc += (int64_t)perm_cost(z, q);
	}
	return dc;
}

/* ---- set-up ------------------------------------------------------------------------ */

/* The zone's compute endpoints in the checker's order: 1, 0 to leave the zone alone. */
static int ts_ranks(struct tsz *z, const struct chk_ep *ep, uint32_t nep)
{
	const struct topo *t = z->r->t;
	uint8_t top = 0;

	for (uint32_t s = 0; s < z->r->nsw; s++)
		if (rt_zone(z->r, s) == z->zone && z->r->c->level[rt_node(z->r, s)] > top)
			top = z->r->c->level[rt_node(z->r, s)];
	if (top < 3 || (z->r->dbt_done && z->r->dbt_done[z->zone]))
		return 0;	/* two levels: D-mod-K, or route_shift.c where links were lost;
			 * or digits chosen for HFReduce's tree and jobs (route_dbt.c) */

	z->lid = malloc(((size_t)nep + 1) * sizeof(*z->lid));
	z->leaf = malloc(((size_t)nep + 1) * sizeof(*z->leaf));
	z->rail = malloc(((size_t)nep + 1) * sizeof(*z->rail));
	if (!z->lid || !z->leaf || !z->rail)
		return -ENOMEM;
	for (uint32_t i = 0; i < nep; i++) {
		if (ep[i].zone != z->zone)
			continue;
		z->lid[z->n] = ep[i].lid;
		z->rail[z->n] = z->r->c->rail[t->port_node[ep[i].port]];
		z->leaf[z->n++] = t->node_sw[ep[i].leaf];
	}
	return z->n >= 4;
}

/* Channels: every port joining two switches of the zone. */
static int ts_channels(struct tsz *z)
{
	const struct topo *t = z->r->t;

	z->inz = calloc(z->r->nsw + 1, 1);
	z->chan = malloc(((size_t)t->nports + 1) * sizeof(*z->chan));
	if (!z->inz || !z->chan)
		return -ENOMEM;
	memset(z->chan, 0xff, (size_t)t->nports * sizeof(*z->chan));
	for (uint32_t s = 0; s < z->r->nsw; s++)
		z->inz[s] = rt_zone(z->r, s) == z->zone;
	for (uint32_t s = 0; s < z->r->nsw; s++) {
		uint32_t node = rt_node(z->r, s);

		for (uint32_t p = t->port_off[node] + 1; z->inz[s] && p < t->port_off[node + 1]; p++) {
			uint32_t w = rt_peer(z->r, p);

			if (w != TOPO_NONE && z->inz[w])
				z->chan[p] = z->nch++;
		}
	}
	return 0;
}

/* Family @f: the ranks @idx[0..m) and every one of their shifts, appended as permutations. */
static void ts_family(struct tsz *z, const uint32_t *idx, uint32_t m)
{
	size_t f = z->nfam++, o = f * z->n;

	z->fm[f] = m;
	for (uint32_t a = 0; a < m; a++) {
		z->fidx[o + a] = idx[a];
		z->fpos[o + idx[a]] = a;
	}
	z->fk[o] = TOPO_NONE;
	for (uint32_t k = 1; k < m; k++, z->nperm++) {
		z->pf[z->nperm] = (uint32_t)f;
		z->pk[z->nperm] = k;
		z->fk[o + k] = z->nperm;
	}
}

/* Ranks by leaf: lsw, lbeg, lrank. */
static int ts_leaves(struct tsz *z)
{
	uint32_t *cnt = calloc((size_t)z->r->nsw + 1, sizeof(*cnt));
	uint32_t *at = malloc(((size_t)z->n + 1) * sizeof(*at));

	z->lsw = malloc(((size_t)z->n + 1) * sizeof(*z->lsw));
	z->lbeg = calloc((size_t)z->n + 2, sizeof(*z->lbeg));
	z->lrank = malloc(((size_t)z->n + 1) * sizeof(*z->lrank));
	if (!cnt || !at || !z->lsw || !z->lbeg || !z->lrank) {
		free(cnt);
		free(at);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < z->n; i++)
		if (!cnt[z->leaf[i]]++)
			z->lsw[z->nleaf++] = z->leaf[i];
	for (uint32_t a = 0; a < z->nleaf; a++) {
		z->lbeg[a + 1] = z->lbeg[a] + cnt[z->lsw[a]];
		at[a] = z->lbeg[a];
		cnt[z->lsw[a]] = a;	/* from here: the leaf's index */
	}
	for (uint32_t i = 0; i < z->n; i++)
		z->lrank[at[cnt[z->leaf[i]]]++] = i;
	free(cnt);
	free(at);
	return 0;
}

/*
 * The permutations: every shift of the zone's compute HCAs and, with
 * rails, of each rail's (as the checker runs them); 1, or 0 when they
 * are more than TS_ALL_SHIFTS or their loads more than TS_MAX_CELLS (a
 * sample would be searched, and the shifts left out would pay).
 */
static int ts_perms(struct tsz *z)
{
	uint32_t nr = z->r->c->nrails >= 2 ? z->r->c->nrails : 0, np = z->n - 1;
	uint32_t *idx = malloc(((size_t)z->n + 1) * sizeof(*idx)), *m;
	size_t nf, cells;
	int rc = 0;

	nr = nr < TS_MAX_FAM - 1 ? nr : TS_MAX_FAM - 1;
	nf = 1 + (size_t)nr;
	cells = nf * z->n;
	m = calloc(nf + 1, sizeof(*m));
	z->fidx = malloc(cells * sizeof(*z->fidx));
	z->fpos = malloc(cells * sizeof(*z->fpos));
	z->fk = malloc(cells * sizeof(*z->fk));
	z->pf = malloc((cells + 1) * sizeof(*z->pf));
	z->pk = malloc((cells + 1) * sizeof(*z->pk));
	z->aff = malloc((cells + 1) * sizeof(*z->aff));
	if (!idx || !m || !z->fidx || !z->fpos || !z->fk || !z->pf || !z->pk || !z->aff) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < z->n; i++)
		if (z->rail[i] >= 0 && (uint32_t)z->rail[i] < nr)
			m[z->rail[i]]++;
	for (uint32_t rl = 0; rl < nr; rl++)
		np += m[rl] > 1 ? m[rl] - 1 : 0;
	if (z->n - 1 > TS_ALL_SHIFTS || (uint64_t)np * z->nch > TS_MAX_CELLS)
		goto out;
	memset(z->fpos, 0xff, cells * sizeof(*z->fpos));
	for (uint32_t i = 0; i < z->n; i++)
		idx[i] = i;
	ts_family(z, idx, z->n);
	for (uint32_t rl = 0; rl < nr; rl++) {
		uint32_t k = 0;

		for (uint32_t i = 0; i < z->n; i++)
			if (z->rail[i] == (int16_t)rl)
				idx[k++] = i;
		if (k >= 2)
			ts_family(z, idx, k);
	}
	rc = 1;
out:
	free(idx);
	free(m);
	return rc;
}

/*
 * Cut capacities of the checker's bound: per switch and per (part level,
 * part), links out; the shortest-path cuts between the leaves when every
 * route between them is a shortest path (else they bound nothing).
 */
struct ts_cut {
	uint32_t *cap, *out, *in;	/* [nsw] each */
	uint32_t *pcap, *pout, *pin;	/* [npartlv * (nnodes + 1)] each */
	size_t stride;
	struct chk_mincut mc;		/* shortest-path cuts between the leaves */
	uint64_t *pairs;		/* [n] scratch */
};

static int ts_cut_init(struct tsz *z, struct ts_cut *k)
{
	const struct topo *t = z->r->t;
	const struct cls *c = z->r->c;
	size_t np = c->npartlv * (k->stride = (size_t)t->nnodes + 1);

	k->cap = calloc(3 * (size_t)z->r->nsw + 3 * np + 1, sizeof(*k->cap));
	k->pairs = malloc(((size_t)z->n + 1) * sizeof(*k->pairs));
	if (!k->cap || !k->pairs || chk_mincut_build(t, z->lsw, z->nleaf, &k->mc)) {
		free(k->cap);
		free(k->pairs);
		return -ENOMEM;
	}
	for (uint32_t a = 0; a < z->nleaf && k->mc.nl; a++)	/* its bound holds for shortest paths only */
		for (uint32_t j = 0; j < z->n; j++) {
			uint32_t b = k->mc.idx[z->leaf[j]], len, rate;

			if (b != a && (ts_path(z, z->lsw[a], j, &len, &rate) == TS_OTHER ||
				       len != k->mc.dist[(size_t)a * k->mc.nl + b])) {
				chk_mincut_free(&k->mc);
				break;
			}
		}
	k->out = k->cap + z->r->nsw;
	k->in = k->out + z->r->nsw;
	k->pcap = k->in + z->r->nsw;
	k->pout = k->pcap + np;
	k->pin = k->pout + np;
	for (uint32_t s = 0; s < z->r->nsw; s++) {
		uint32_t a = rt_node(z->r, s);

		for (uint32_t p = t->port_off[a] + 1; p < t->port_off[a + 1]; p++) {
			uint32_t w = rt_peer(z->r, p);

			if (w == TOPO_NONE)
				continue;
			k->cap[s]++;
			for (unsigned i = 0; i < c->npartlv; i++) {
				uint32_t pa = c->part[(size_t)a * c->npartlv + i];

				if (pa != UINT32_MAX && pa != c->part[(size_t)rt_node(z->r, w) * c->npartlv + i])
					k->pcap[i * k->stride + pa]++;
			}
		}
	}
	return 0;
}

static inline uint32_t ts_ceil(uint32_t a, uint32_t b)
{
	return b ? (a + b - 1) / b : 0;
}

/*
 * The checker's lower bound of permutation @q for routings on shortest
 * paths (shift_lb_sp: leaves, parts and the shortest paths between leaves;
 * one zone, so no inter-zone cut).
 */
static uint32_t ts_bound(const struct tsz *z, struct ts_cut *k, uint32_t q)
{
	const struct cls *c = z->r->c;
	uint32_t lb = 1, np = 0, sp;

	for (int pass = 0; pass < 2; pass++)
		for (uint32_t j = 0; j < z->n; j++) {
			uint32_t i = ts_src(z, q, j), a, b, na, nb;

			if (i == TOPO_NONE || (a = z->leaf[i]) == (b = z->leaf[j]))
				continue;
			na = rt_node(z->r, a);
			nb = rt_node(z->r, b);
			if (!pass) {
				if (k->mc.nl)
					k->pairs[np++] = (uint64_t)k->mc.idx[a] << 32 | k->mc.idx[b];
				k->out[a]++;
				k->in[b]++;
			} else {
				lb = ts_ceil(k->out[a], k->cap[a]) > lb ? ts_ceil(k->out[a], k->cap[a]) : lb;
				lb = ts_ceil(k->in[b], k->cap[b]) > lb ? ts_ceil(k->in[b], k->cap[b]) : lb;
			}
			for (unsigned v = 0; v < c->npartlv; v++) {
				uint32_t pa = c->part[(size_t)na * c->npartlv + v];
				uint32_t pb = c->part[(size_t)nb * c->npartlv + v];
				size_t xa = v * k->stride + pa, xb = v * k->stride + pb;

				if (pa == pb)
					continue;
				if (!pass) {
					if (pa != UINT32_MAX)
						k->pout[xa]++;
					if (pb != UINT32_MAX)
						k->pin[xb]++;
					continue;
				}
				if (pa != UINT32_MAX && ts_ceil(k->pout[xa], k->pcap[xa]) > lb)
					lb = ts_ceil(k->pout[xa], k->pcap[xa]);
				if (pb != UINT32_MAX && ts_ceil(k->pin[xb], k->pcap[xb]) > lb)
					lb = ts_ceil(k->pin[xb], k->pcap[xb]);
			}
		}
	for (uint32_t j = 0; j < z->n; j++) {	/* back to zero */
		uint32_t i = ts_src(z, q, j), na, nb;

		if (i == TOPO_NONE)
			continue;
		k->out[z->leaf[i]] = k->in[z->leaf[j]] = 0;
		na = rt_node(z->r, z->leaf[i]);
		nb = rt_node(z->r, z->leaf[j]);
		for (unsigned v = 0; v < c->npartlv; v++) {
			uint32_t pa = c->part[(size_t)na * c->npartlv + v];
			uint32_t pb = c->part[(size_t)nb * c->npartlv + v];

			if (pa != UINT32_MAX)
				k->pout[v * k->stride + pa] = 0;
			if (pb != UINT32_MAX)
				k->pin[v * k->stride + pb] = 0;
		}
	}
	sp = chk_mincut_bound(&k->mc, k->pairs, np);
	return sp > lb ? sp : lb;
}

/* Loads and bound of permutation @q: 1 if above it, else 0. */
static int ts_load1(struct tsz *z, struct ts_cut *k, uint32_t q)
{
	uint32_t lb = ts_bound(z, k, q);

	z->hist[(size_t)q * TS_HMAX] = z->nch;
	for (uint32_t j = 0; j < z->n; j++) {
		uint32_t i = ts_src(z, q, j);

		if (i != TOPO_NONE && z->leaf[i] != z->leaf[j])
			flow(z, q, z->leaf[i], j, 1);
	}
	z->lb[q] = (uint16_t)(lb < TS_HMAX ? lb : TS_HMAX - 1);
	return z->mx[q] > z->lb[q];
}

/*
 * Loads and lower bounds of every permutation: 1 if one is above its
 * bound, else 0.  TS_FIRST of them, evenly spread, first: a zone where
 * those are all at their bound (a healthy tree D-mod-K routes) is left
 * alone at a fraction of the cost.
 */
static int ts_loads(struct tsz *z)
{
	struct ts_cut k;
	uint32_t stride = (z->nperm + TS_FIRST - 1) / TS_FIRST;
	int above = 0;

	z->ld = calloc((size_t)z->nperm * z->nch + 1, sizeof(*z->ld));
	z->hist = calloc((size_t)z->nperm * TS_HMAX, sizeof(*z->hist));
	z->mx = calloc((size_t)z->nperm + 1, sizeof(*z->mx));
	z->lb = calloc((size_t)z->nperm + 1, sizeof(*z->lb));
	if (!z->ld || !z->hist || !z->mx || !z->lb || ts_cut_init(z, &k))
		return -ENOMEM;
	for (uint32_t pass = 0; pass < 2 && (!pass || above); pass++)
		for (uint32_t q = 0; q < z->nperm; q++)
			if ((q % stride == 0) == !pass)
				above |= ts_load1(z, &k, q);
	chk_mincut_free(&k.mc);
	free(k.pairs);
	free(k.cap);
	return above;
}

/* Mark every entry of zone switches on the route from switch @s toward rank @j fixed. */
static void ts_fix_path(struct tsz *z, uint32_t s, uint32_t j)
{
	for (uint32_t h = 0; s != TOPO_NONE && h <= RT_MAXD; h++) {
		size_t b = (size_t)s * z->n + j;
		uint32_t p;

		if (z->inz[s])
			z->fixed[b >> 3] |= (uint8_t)(1u << (b & 7));
		if (s == z->leaf[j] || (p = ts_port(z, s, j)) == TOPO_NONE)
			return;
		s = rt_peer(z->r, p);
	}
}

/*
 * The entries that stay: those on a route that is not up*\/down* inside
 * the zone (a switch-LID turn toward a CA, a route from another zone or a
 * bridge), whose SLs and VLs were chosen for the hops they have.
 */
static int ts_fixed_entries(struct tsz *z)
{
	z->fixed = calloc(((size_t)z->r->nsw * z->n + 7) / 8 + 1, 1);
	if (!z->fixed)
		return -ENOMEM;
	for (uint32_t j = 0; j < z->n; j++)
		for (uint32_t s = 0; s < z->r->nsw; s++) {
			uint32_t len, rate;

			if (ts_path(z, s, j, &len, &rate) == TS_OTHER)
				ts_fix_path(z, s, j);
		}
	return 0;
}

/* ---- search ------------------------------------------------------------------------ */

/*
 * The port numbers of switch @x, other than its entry toward rank @j, that
 * keep the route minimal and up*\/down* (see the top); how many in @alt.
 */
static uint32_t ts_alts(struct tsz *z, uint32_t x, uint32_t j, uint8_t *alt)
{
	const struct topo *t = z->r->t;
	const struct cls *c = z->r->c;
	uint32_t node = rt_node(z->r, x), p = ts_port(z, x, j), y, ly, ry, n = 0;

	if (p == TOPO_NONE || (y = rt_peer(z->r, p)) == TOPO_NONE ||
	    (c->dir[p] != CLS_DIR_UP && c->dir[p] != CLS_DIR_DOWN) || c->subtree[node] != TOPO_NONE ||
	    c->subtree[rt_node(z->r, z->leaf[j])] != TOPO_NONE ||
	    c->subtree[rt_node(z->r, y)] != TOPO_NONE ||
	    ts_path(z, y, j, &ly, &ry) == TS_OTHER)
		return 0;
	for (uint32_t q = t->port_off[node] + 1; q < t->port_off[node + 1]; q++) {
		uint32_t w = rt_peer(z->r, q), lw, rw;
		enum ts_state sw;

		if (q == p || w == TOPO_NONE || !z->inz[w] || c->dir[q] != c->dir[p] ||
		    c->rate[q] != c->rate[p] || c->subtree[rt_node(z->r, w)] != TOPO_NONE)
			continue;
		sw = ts_path(z, w, j, &lw, &rw);
		if (lw == ly && rw >= ry && (sw == TS_DOWN || (sw == TS_UPDOWN && c->dir[p] == CLS_DIR_UP)))
			alt[n++] = (uint8_t)(q - t->port_off[node]);
	}
	return n;
}

/* A permutation above its bound, from a random start; false if none. */
static bool pick_perm(struct tsz *z, uint32_t *q)
{
	uint32_t k = ffr_rng_below(&z->rng, z->nperm);

	for (uint32_t i = 0; i < z->nperm; i++, k = k + 1 == z->nperm ? 0 : k + 1)
		if (z->mx[k] > z->lb[k]) {
			*q = k;
			return true;
		}
	return false;
}

/* A channel carrying permutation @q's most, from a random start. */
static uint32_t pick_chan(struct tsz *z, uint32_t q)
{
	const uint16_t *v = &z->ld[(size_t)q * z->nch];
	uint32_t k = ffr_rng_below(&z->rng, z->nch);

	for (uint32_t i = 0; i < z->nch; i++, k = k + 1 == z->nch ? 0 : k + 1)
		if (v[k] == z->mx[q])
			return k;
	return 0;
}

/*
 * A flow of permutation @q over channel @c, from a random start: its rank
 * in *j, the switches of its route up to the channel in @path; how many.
 */
static uint32_t pick_flow(struct tsz *z, uint32_t q, uint32_t c, uint32_t *j, uint32_t *path)
{
	uint32_t k = ffr_rng_below(&z->rng, z->n);

	for (uint32_t i = 0; i < z->n; i++, k = k + 1 == z->n ? 0 : k + 1) {
		uint32_t src = ts_src(z, q, k), s, np = 0;

		if (src == TOPO_NONE)
			continue;
		for (s = z->leaf[src]; s != z->leaf[k] && np < RT_MAXD;) {
			uint32_t p = ts_port(z, s, k);

			z->steps++;
			path[np++] = s;
			if (p == TOPO_NONE)
				break;
			if (z->chan[p] == c) {
				*j = k;
				return np;
			}
			if ((s = rt_peer(z->r, p)) == TOPO_NONE)
				break;
		}
	}
	return 0;
}

struct ts_touch {
	uint32_t x, j, seq;
	uint8_t orig;
};

/*
 * The best move for the flow into @j along @path (@np switches), made if it
 * does not add to the cost or if @kick; its change of cost, INT64_MAX if none.
 */
static int64_t ts_step(struct tsz *z, uint32_t j, const uint32_t *path, uint32_t np,
		       bool kick, struct ts_touch *log, uint32_t *nlog)
{
	int64_t best = INT64_MAX;
	uint32_t bx = 0;
	uint8_t bp = 0, alt[256];

	for (uint32_t k = 0; k < np; k++) {
		uint32_t x = path[k], na;
		uint8_t old = lft_get(z->l, x, z->lid[j]);

		if (ts_fixed(z, x, j) || !(na = ts_alts(z, x, j, alt)))
			continue;
		for (uint32_t a = 0; a < na; a++) {
			int64_t dc = ts_move(z, x, j, alt[a]);

			ts_move(z, x, j, old);
			if (dc < best)
				best = dc, bx = x, bp = alt[a];
		}
	}
	if (best == INT64_MAX || (best > 0 && !kick))
		return INT64_MAX;
	log[*nlog] = (struct ts_touch){ .x = bx, .j = j, .orig = lft_get(z->l, bx, z->lid[j]) };
	*nlog += 1;
	ts_move(z, bx, j, bp);
	return best;
}

static int cmp_touch(const void *a, const void *b)
{
	const struct ts_touch *x = a, *y = b;

	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	if (x->j != y->j)
		return x->j < y->j ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The distinct entries of @log[0..n) now off the port they had first (sorts @log). */
static uint32_t ts_moved(const struct tsz *z, struct ts_touch *log, uint32_t n)
{
	uint32_t moved = 0;

	for (uint32_t i = 0; i < n; i++)
		log[i].seq = i;
	qsort(log, n, sizeof(*log), cmp_touch);
	for (uint32_t i = 0; i < n; i++)
		if (!i || log[i].x != log[i - 1].x || log[i].j != log[i - 1].j)
			moved += lft_get(z->l, log[i].x, z->lid[log[i].j]) != log[i].orig;
	return moved;
}

/*
 * The local search (see the top): after z->n tries without a better sum, a
 * few kicks (the best move of a flow even if it costs), up to TS_KICKS
 * times; in the end the best tables seen.  The entries it changed.
 */
static uint32_t ts_search(struct tsz *z)
{
	struct ts_touch *log = malloc(TS_ITERS * sizeof(*log));
	uint32_t stall = 0, nlog = 0, bestlog = 0, kicks = 0, moved = 0, path[RT_MAXD + 1];
	int64_t cost = 0, best = 0;

	if (!log)
		return 0;	/* nothing changed: the tables stay as routed */
	z->steps = 0;	/* the search's own hops (not the set-up's) */
	for (uint32_t it = 0; nlog < TS_ITERS && it < 4 * TS_ITERS && z->steps < TS_STEPS; it++) {
		uint32_t q, j = 0, np;
		bool kick = stall >= z->n && stall < z->n + TS_KICK_MOVES;
		int64_t dc;

		if (stall >= z->n + TS_KICK_MOVES) {
			if (++kicks > TS_KICKS)
				break;
			stall = 0;
		}
		if (!pick_perm(z, &q))
			break;
		np = pick_flow(z, q, pick_chan(z, q), &j, path);
		dc = np ? ts_step(z, j, path, np, kick, log, &nlog) : INT64_MAX;
		cost += dc == INT64_MAX ? 0 : dc;
		stall = dc < 0 && cost < best ? 0 : stall + 1;
		if (cost < best || (cost == best && !kick))
			best = cost, bestlog = nlog;
	}
	while (nlog > bestlog) {	/* back to the best */
		nlog--;
		ts_move(z, log[nlog].x, log[nlog].j, log[nlog].orig);
	}
	moved = ts_moved(z, log, nlog);
	free(log);
	return moved;
}

/* Refine zone @zone (see the top).  0 or -ENOMEM. */
static int ts_zone(struct rt *r, const struct chk_ep *ep, uint32_t nep, int16_t zone)
{
	struct tsz z = { .r = r, .l = r->out->lft, .zone = zone };
	int rc = ts_ranks(&z, ep, nep);

	if (rc == 1 && !(rc = ts_channels(&z)) && !(rc = ts_leaves(&z)))
		rc = ts_perms(&z);
	if (rc == 1)
		rc = ts_loads(&z);
	if (rc == 1 && !(rc = ts_fixed_entries(&z))) {
		z.rng = 0x54534654u ^ z.n;	/* "TSFT" */
		r->shift_moved += ts_search(&z);
		r->shift_zones++;
	}
	ts_free(&z);
	return rc < 0 ? rc : 0;
}

int rt_tree_shift(struct rt *r, const uint8_t *done)
{
	struct chk_ep *ep = NULL;
	uint32_t nep = 0;
	int rc;

	if (r->out->rooted_lids || r->c->nlevels < 3)
		return 0;	/* up*\/down* from one root, not by levels; or two levels */
	rc = chk_endpoints(r->t, r->c, CLS_ROLE_COMPUTE, &ep, &nep);
	for (uint32_t zn = 0; !rc && zn < r->c->nzones; zn++)
		if (!done[zn])
			rc = ts_zone(r, ep, nep, (int16_t)zn);
	free(ep);
	return rc;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_shift.c - on a degraded two-level zone, re-choose the spine each
 * leaf sends each compute destination through, so that shift
 * permutations come as close to their physical lower bound as the holes
 * allow.
 *
 * Why.  D-mod-K with substitutes for lost up-links (route_pos.c) keeps
 * each leaf's up-links within the lower bound, but a destination whose
 * designated spine lost its link to the destination's leaf, or that a
 * source leaf reaches through a substitute, arrives over a spine's
 * down-link that another destination of that leaf already uses in the
 * same shift.  On the 5 %-degraded full frame that left the mean over
 * shifts of the most loaded link at 2.56 against a lower bound of 1.96.
 *
 * What.  Per zone whose compute leaves do not all reach one up-group by
 * one link per member (holes), when every compute destination of the
 * zone is one LID (LMC 0) on a leaf, every other leaf reaches it in two
 * hops (leaf -> spine -> leaf, the spine's entry going straight down), at
 * most SH_MAX_RANKS of them and no rails: the shift permutations of the
 * zone's compute HCAs in position order (as the checker runs them, every
 * shift) are kept as link loads per shift.  A local search moves one
 * (source leaf, destination) entry to another spine that goes straight
 * down to the destination's leaf: the change touches only the shifts in
 * which a source on that leaf sends to that destination (one per source).
 * A move is kept if the sum over shifts of (most loaded link, then how
 * many links carry that much) does not grow; shifts at their lower bound
 * count as the bound.  Moves are drawn from flows on a most loaded link
 * of a shift above its bound, from a fixed seed: deterministic.
 *
 * Then two balance passes (shz_balance): HFReduce's double binary tree
 * (the checker's dbt metrics), then routes per link (its link_routes,
 * every class).  An entry leaves the link carrying the most for a spine
 * whose two links carry less, if no shift gets worse, until the most
 * loaded link keeps its entries; the tree flows a link carries after the
 * first pass cap every later move.  Without the route pass every leaf
 * sends a destination whose leaf lost its D-mod-K spine through the one
 * substitute, whose down-link then carries two destinations for every
 * leaf (107 routes against ~64 elsewhere on the 1 %-degraded full frame;
 * 70 after); without the tree pass that frame's tree shares a link 5
 * ways (4 after, what its endpoints force).
 *
 * What is kept.  Every route stays leaf -> spine -> leaf (minimal,
 * up*down*, the same VL); only leaf entries of compute destinations of
 * the leaf's own zone change, and only those no other switch routes
 * through the leaf (shz_fixed: turns, SHARP nodes, other zones keep the
 * paths their VLs were chosen for); spines, other classes and healthy
 * zones are untouched.
 *
 * Cost: O(leaves x n x up-degree) to set up, memory O(n x links) for the
 * loads (n <= 1024: ~ 6 MB on a 40-leaf frame), then SH_ITERS moves of
 * O(W) each, W the most compute HCAs on a leaf; the route counts walk
 * every (switch, LID) path once, then each balance move scans the routes
 * on one link.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/rng.h"
#include "route/route_int.h"

#define SH_MAX_RANKS 1024u	/* the checker runs every shift up to this many */
#define SH_ITERS 30000u	/* moves tried per zone at most */
#define SH_HMAX 250u		/* loads are kept below this (else the zone is left alone) */
#define SH_MAX_CELLS (16u << 20)	/* shifts x channels at most (32 MiB of loads) */
#define SH_DOWN 0x80000000u	/* cown: a spine's channel down into the leaf */

struct shz {
	const struct rt *r;
	uint32_t n, nleaf, nch, nsh;
	uint32_t *lid;		/* [n] LID of each rank */
	uint32_t *lx;		/* [n] compact leaf of each rank */
	uint32_t *lbeg;		/* [nleaf + 1] first rank of each leaf */
	uint32_t *lsw;		/* [nleaf] switch ordinal */
	uint32_t *chan;		/* [nports] compact channel, or TOPO_NONE */
	uint32_t *cown;		/* [nports, by channel] leaf it leaves, or SH_DOWN | leaf it enters */
	uint32_t *cur;		/* [nleaf * n] up-port of (leaf, rank), TOPO_NONE on its own leaf */
	uint8_t *fixed;		/* [nleaf * n] another switch routes the rank through the leaf */
	uint32_t *aoff, *aport;	/* CSR [nleaf * nleaf + 1]: up-ports of leaf a going straight to b */
	uint16_t *ld;		/* [nsh * nch] load per shift and channel */
	uint32_t *hist;		/* [nsh * SH_HMAX] channels per load */
	uint16_t *mx, *lb;	/* [nsh] most loaded channel; lower bound */
	uint32_t *rl;		/* [nch] (switch, LID) routes on the channel, every class */
	uint8_t *dw;		/* [nleaf * n] tree flows from the leaf to the rank (DBT) */
	uint16_t *dl;		/* [nch] tree flows on the channel */
	uint32_t dlim;		/* no move takes a channel beyond this many tree flows */
	uint64_t rng;
};

static void shz_free(struct shz *z)
{
	free(z->lid);
	free(z->lx);
	free(z->lbeg);
	free(z->lsw);
	free(z->chan);
	free(z->cown);
	free(z->cur);
	free(z->fixed);
	free(z->rl);
	free(z->dw);
	free(z->dl);
	free(z->aoff);
	free(z->aport);
	free(z->ld);
	free(z->hist);
	free(z->mx);
	free(z->lb);
}

/* ---- loads --------------------------------------------------------------------- */

/* The port the spine across up-port @p sends rank @j out of, or TOPO_NONE (none, itself). */
static uint32_t down_port(const struct shz *z, uint32_t p, uint32_t j)
{
	const struct topo *t = z->r->t;
	uint32_t k = rt_peer(z->r, p), node, pn;

	if (k == TOPO_NONE)
		return TOPO_NONE;
	node = rt_node(z->r, k);
	pn = lft_get(z->r->out->lft, k, z->lid[j]);
	return pn && pn <= t->node_nports[node] ? t->port_off[node] + pn : TOPO_NONE;
}

/* Add (@d = 1) or remove (@d = -1) one flow of shift @s on channel @c. */
static void flow1(struct shz *z, uint32_t s, uint32_t c, int d)
{
	rt_hist_move(&z->ld[(size_t)s * z->nch + c], &z->hist[(size_t)s * SH_HMAX], &z->mx[s], d);
}

/* Add or remove the flow of shift @s into rank @j over up-port @p. */
static void flow(struct shz *z, uint32_t s, uint32_t p, uint32_t j, int d)
{
	flow1(z, s, z->chan[p], d);
	flow1(z, s, z->chan[down_port(z, p, j)], d);
}

/* A shift's cost (rt_hist_cost). */
static uint64_t shift_cost(const struct shz *z, uint32_t s)
{
	return rt_hist_cost(z->mx[s], z->lb[s], &z->hist[(size_t)s * SH_HMAX]);
}

/* Add (@d = 1) or remove (@d = -1) the route of (leaf, rank @j) over up-port @p. */
static void route1(struct shz *z, uint32_t p, uint32_t j, int d)
{
	z->rl[z->chan[p]] += (uint32_t)d;
	z->rl[z->chan[down_port(z, p, j)]] += (uint32_t)d;
}

/* Add or remove the @w tree flows of (leaf, rank @j) over up-port @p. */
static void tree1(struct shz *z, uint32_t p, uint32_t j, uint32_t w, int d)
{
	z->dl[z->chan[p]] = (uint16_t)(z->dl[z->chan[p]] + d * (int)w);
	z->dl[z->chan[down_port(z, p, j)]] =
		(uint16_t)(z->dl[z->chan[down_port(z, p, j)]] + d * (int)w);
}

/* Whether (leaf @a, rank @j) on up-port @p keeps both channels within @lim tree flows. */
static bool tree_fits(const struct shz *z, uint32_t a, uint32_t j, uint32_t p, uint32_t lim)
{
	uint32_t w = z->dw[(size_t)a * z->n + j];

	return !w || (z->dl[z->chan[p]] + w <= lim && z->dl[z->chan[down_port(z, p, j)]] + w <= lim);
}

/* Move (leaf @a, rank @j) to up-port @p; the change of cost (INT64_MAX: not done). */
static int64_t move(struct shz *z, uint32_t a, uint32_t j, uint32_t p)
{
	uint32_t old = z->cur[(size_t)a * z->n + j];
	int64_t dc = 0;

	for (uint32_t i = z->lbeg[a]; i < z->lbeg[a + 1]; i++)
		if (z->mx[(j + z->n - i) % z->n] + 2u >= SH_HMAX)
			return INT64_MAX;

	for (uint32_t i = z->lbeg[a]; i < z->lbeg[a + 1]; i++) {
		uint32_t s = (j + z->n - i) % z->n;

		dc -= (int64_t)shift_cost(z, s);
		flow(z, s, old, j, -1);
		flow(z, s, p, j, 1);
		dc += (int64_t)shift_cost(z, s);
	}
	route1(z, old, j, -1);
	route1(z, p, j, 1);
	tree1(z, old, j, z->dw[(size_t)a * z->n + j], -1);
	tree1(z, p, j, z->dw[(size_t)a * z->n + j], 1);
	z->cur[(size_t)a * z->n + j] = p;
	return dc;
}

/* ---- set-up --------------------------------------------------------------------------- */

/*
 * Whether the spine across up-port @p of leaf @a goes straight down to leaf
 * @b for all its ranks, and (links of several rates) at the full rate both
 * ways: a move never puts an entry on a slower link (an entry on one stays).
 */
static bool straight(struct shz *z, uint32_t a, uint32_t p, uint32_t b, bool mark)
{
	const struct cls *c = z->r->c;
	uint32_t sp = rt_peer(z->r, p);

	if (b == a || sp == TOPO_NONE || c->dir[p] != CLS_DIR_UP ||
	    (c->rates_mixed && rt_rate(z->r, p) < c->full_rate))
		return false;
	for (uint32_t j = z->lbeg[b]; j < z->lbeg[b + 1]; j++) {
		uint32_t q = down_port(z, p, j);

		if (q == TOPO_NONE || rt_peer(z->r, q) != z->lsw[b] ||
		    (c->rates_mixed && rt_rate(z->r, q) < c->full_rate))
			return false;
	}
	for (uint32_t j = z->lbeg[b]; mark && j < z->lbeg[b + 1]; j++) {
		uint32_t q = down_port(z, p, j);

		if (z->chan[q] == TOPO_NONE)
			z->cown[z->nch] = SH_DOWN | b, z->chan[q] = z->nch++;
	}
	if (mark && z->chan[p] == TOPO_NONE)
		z->cown[z->nch] = a, z->chan[p] = z->nch++;
	return true;
}

/* Channels and, per (leaf a, leaf b), the up-ports of a whose spine goes straight to b. */
static int shz_paths(struct shz *z)
{
	const struct topo *t = z->r->t;
	size_t npair = (size_t)z->nleaf * z->nleaf;
	uint32_t *fill = NULL;

	z->aoff = calloc(npair + 1, sizeof(*z->aoff));
	z->chan = malloc((size_t)t->nports * sizeof(*z->chan));
	z->cown = malloc((size_t)t->nports * sizeof(*z->cown));
	if (!z->aoff || !z->chan || !z->cown)
		return -ENOMEM;
	memset(z->chan, 0xff, (size_t)t->nports * sizeof(*z->chan));
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t a = 0; a < z->nleaf; a++) {
			uint32_t node = rt_node(z->r, z->lsw[a]);

			for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++)
				for (uint32_t b = 0; b < z->nleaf; b++) {
					size_t x = (size_t)a * z->nleaf + b;

					if (!straight(z, a, p, b, pass))
						continue;
					if (pass)
						z->aport[fill[x]++] = p;
					else
						z->aoff[x + 1]++;
				}
		}
		if (pass)
			break;
		for (size_t x = 0; x < npair; x++)
			z->aoff[x + 1] += z->aoff[x];
		z->aport = malloc(((size_t)z->aoff[npair] + 1) * sizeof(*z->aport));
		fill = malloc((npair + 1) * sizeof(*fill));
		if (!z->aport || !fill) {
			free(fill);
			return -ENOMEM;
		}
		memcpy(fill, z->aoff, npair * sizeof(*fill));
	}
	free(fill);
	return 0;
}

/* Loads of every shift under the current entries, and each shift's lower bound. */
static int shz_loads(struct shz *z)
{
	uint32_t *out = calloc(2 * (size_t)z->nleaf + 1, sizeof(*out)), *in = out + z->nleaf;
	uint32_t *cap = calloc((size_t)z->nleaf + 1, sizeof(*cap));
	const struct topo *t = z->r->t;

	z->nsh = z->n;	/* shift 0 unused */
	z->ld = calloc((size_t)z->nsh * z->nch, sizeof(*z->ld));
	z->hist = calloc((size_t)z->nsh * SH_HMAX, sizeof(*z->hist));
	z->mx = calloc(z->nsh, sizeof(*z->mx));
	z->lb = calloc(z->nsh, sizeof(*z->lb));
	if (!out || !cap || !z->ld || !z->hist || !z->mx || !z->lb) {
		free(out);
		free(cap);
		return -ENOMEM;
	}
	for (uint32_t a = 0; a < z->nleaf; a++) {	/* the checker's: every cabled switch link */
		uint32_t node = rt_node(z->r, z->lsw[a]);

		for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++)
			cap[a] += rt_peer(z->r, p) != TOPO_NONE;
		cap[a] += !cap[a];
	}
	for (uint32_t s = 1; s < z->nsh; s++) {
		uint32_t lb = 1;

		z->hist[(size_t)s * SH_HMAX] = (uint16_t)z->nch;
		for (uint32_t i = 0; i < z->n; i++) {
			uint32_t j = (i + s) % z->n, a = z->lx[i], b = z->lx[j];

			if (a == b)
				continue;
			flow(z, s, z->cur[(size_t)a * z->n + j], j, 1);
			out[a]++;
			in[b]++;
		}
		for (uint32_t a = 0; a < z->nleaf; a++) {
			uint32_t o = (out[a] + cap[a] - 1) / cap[a], q = (in[a] + cap[a] - 1) / cap[a];

			lb = o > lb ? o : lb;
			lb = q > lb ? q : lb;
			out[a] = in[a] = 0;
		}
		z->lb[s] = (uint16_t)(lb < SH_HMAX ? lb : SH_HMAX);
		if (z->mx[s] + 2u >= SH_HMAX)
			break;	/* outside the model: shz_zone leaves the zone alone */
	}
	free(out);
	free(cap);
	return 0;
}

/*
 * Routes per channel: every (switch, LID) path of the tables walked, as
 * the checker counts them (link_routes), on the channels of the model.
 */
static int shz_routes(struct shz *z)
{
	const struct rt *r = z->r;
	const struct topo *t = r->t;
	const struct lft *l = r->out->lft;

	z->rl = calloc((size_t)z->nch + 1, sizeof(*z->rl));
	if (!z->rl)
		return -ENOMEM;
	for (uint32_t s = 0; s < r->nsw; s++)
		for (uint32_t lid = 1; lid < l->nlids; lid++) {
			uint32_t v = s;

			for (unsigned hop = 0; hop <= RT_MAXD && v != TOPO_NONE; hop++) {
				uint32_t node = rt_node(r, v), e = lft_get(l, v, lid), p;

				if (!e || e > t->node_nports[node])
					break;	/* arrived, or no route */
				p = t->port_off[node] + e;
				if (z->chan[p] != TOPO_NONE)
					z->rl[z->chan[p]]++;
				v = rt_peer(r, p);
			}
		}
	return 0;
}

/* The most tree flows on a channel, at least the 4 a rank's own link carries. */
static uint32_t tree_cap(const struct shz *z)
{
	uint32_t cap = 4;

	for (uint32_t c = 0; c < z->nch; c++)
		cap = z->dl[c] > cap ? z->dl[c] : cap;
	return cap;
}

/*
 * HFReduce's double binary tree over the zone's ranks (the checker's
 * dbt metrics: every edge of both trees, both ways at once): the tree
 * flows of each (leaf, rank) entry and of each channel; the cap is what
 * the entries give, at least the 4 flows a rank's own link carries.
 */
static int shz_trees(struct shz *z)
{
	z->dw = calloc((size_t)z->nleaf * z->n + 1, 1);
	z->dl = calloc((size_t)z->nch + 1, sizeof(*z->dl));
	if (!z->dw || !z->dl)
		return -ENOMEM;
	for (int tree = 0; tree < 2; tree++)
		for (uint32_t i = 0; i < z->n; i++) {
			int64_t pa = chk_dbt_parent(z->n, i, tree);
			uint32_t e[2][2] = { { i, (uint32_t)pa }, { (uint32_t)pa, i } };

			for (int k = 0; pa >= 0 && k < 2; k++) {
				uint32_t a = z->lx[e[k][0]], j = e[k][1];

				if (a != z->lx[j])
					z->dw[(size_t)a * z->n + j]++;
			}
		}
	for (uint32_t a = 0; a < z->nleaf; a++)
		for (uint32_t j = 0; j < z->n; j++) {
			uint32_t p = z->cur[(size_t)a * z->n + j];

			if (p == TOPO_NONE || !z->dw[(size_t)a * z->n + j])
				continue;
			tree1(z, p, j, z->dw[(size_t)a * z->n + j], 1);
		}
	z->dlim = tree_cap(z);
	return 0;
}

/* ---- search ------------------------------------------------------------------------- */

/* A flow of shift @s on one of its most loaded links: its source leaf and rank, or false. */
static bool pick_flow(struct shz *z, uint32_t s, uint32_t *a, uint32_t *j)
{
	uint32_t i0 = ffr_rng_below(&z->rng, z->n);

	for (uint32_t k = 0; k < z->n; k++) {
		uint32_t i = (i0 + k) % z->n, jj = (i + s) % z->n, aa = z->lx[i], p;
		const uint16_t *l = &z->ld[(size_t)s * z->nch];

		if (aa == z->lx[jj] || z->fixed[(size_t)aa * z->n + jj])
			continue;
		p = z->cur[(size_t)aa * z->n + jj];
		if (l[z->chan[p]] == z->mx[s] || l[z->chan[down_port(z, p, jj)]] == z->mx[s]) {
			*a = aa;
			*j = jj;
			return true;
		}
	}
	return false;
}

/*
 * Moves drawn from shifts above their bound; a move is kept if the total
 * cost does not grow (sideways moves let the search cross plateaus).
 * Stops when every shift is at its bound, at SH_ITERS, or after 2 n
 * moves without a better total.
 */
static void shz_search(struct shz *z)
{
	uint32_t *bad = malloc((size_t)z->nsh * sizeof(*bad)), nbad = 0;
	uint32_t stall = 2 * z->n, last = 0;
	int64_t cost = 0, best;

	if (!bad)
		return;	/* no search: the entries stay */
	for (uint32_t s = 1; s < z->nsh; s++)
		cost += (int64_t)shift_cost(z, s);
	best = cost;
	for (uint32_t it = 0; it < SH_ITERS && it - last < stall; it++) {
		uint32_t s, a, j, b, np, p, old;
		int64_t dc;

		if (it % 256 == 0 || !nbad) {
			nbad = 0;
			for (uint32_t x = 1; x < z->nsh; x++)
				if (z->mx[x] > z->lb[x])
					bad[nbad++] = x;
		}
		if (!nbad)
			break;
		s = bad[ffr_rng_below(&z->rng, nbad)];
		if (z->mx[s] <= z->lb[s] || !pick_flow(z, s, &a, &j)) {
			nbad = 0;
			continue;
		}
		b = z->lx[j];
		np = z->aoff[(size_t)a * z->nleaf + b + 1] - z->aoff[(size_t)a * z->nleaf + b];
		old = z->cur[(size_t)a * z->n + j];
		p = z->aport[z->aoff[(size_t)a * z->nleaf + b] + ffr_rng_below(&z->rng, np)];
		if (p == old || z->mx[s] + 1u >= SH_HMAX || !tree_fits(z, a, j, p, z->dlim))
			continue;
		dc = move(z, a, j, p);
		if (dc > 0) {
			if (dc != INT64_MAX)
				move(z, a, j, old);
			continue;
		}
		cost += dc;
		if (cost < best) {
			best = cost;
			last = it;
		}
	}
	free(bad);
}

/* A move of (leaf a, rank j) to up-port q that unloads a channel; m: its new channels' load. */
struct shm {
	uint32_t m, a, j, q;
};

static int cmp_shm(const void *x, const void *y)
{
	const struct shm *u = x, *v = y;

	if (u->m != v->m)
		return u->m < v->m ? -1 : 1;
	if (u->a != v->a)
		return u->a < v->a ? -1 : 1;
	if (u->j != v->j)
		return u->j < v->j ? -1 : 1;
	return u->q < v->q ? -1 : u->q > v->q;
}

/* What a balance pass evens out: routes of every class, or tree flows. */
enum shk { SHK_ROUTES, SHK_TREES };

static uint32_t load_of(const struct shz *z, enum shk k, uint32_t c)
{
	return k == SHK_ROUTES ? z->rl[c] : z->dl[c];
}

static uint32_t max_channel(const struct shz *z, enum shk k)
{
	uint32_t c = 0;

	for (uint32_t x = 1; x < z->nch; x++)
		c = load_of(z, k, x) > load_of(z, k, c) ? x : c;
	return c;
}

/*
 * Whether (leaf @a, rank @j) on up-port @q keeps the other measure: a
 * route move the tree cap; a tree move the most routes a channel
 * carries (@rmax, unused for route moves).
 */
static bool keeps_other(const struct shz *z, enum shk k, uint32_t a, uint32_t j, uint32_t q,
			uint32_t rmax)
{
	if (k == SHK_ROUTES)
		return tree_fits(z, a, j, q, z->dlim);
	return z->rl[z->chan[q]] < rmax && z->rl[z->chan[down_port(z, q, j)]] < rmax;
}

/*
 * The moves of an entry on channel @c to a spine whose two channels stay
 * below @c's load of @k, into *@mv (grown, capacity *@cap).
 */
static int64_t unload_moves(const struct shz *z, enum shk k, uint32_t c, uint32_t rmax,
			    struct shm **mv, size_t *cap)
{
	uint32_t own = z->cown[c], b = own & ~SH_DOWN, lc = load_of(z, k, c);
	bool down = own & SH_DOWN;
	/* the entries on c: of its leaf (up), or toward its leaf's ranks (down) */
	uint32_t a0 = down ? 0 : b, a1 = down ? z->nleaf : b + 1;
	uint32_t j0 = down ? z->lbeg[b] : 0, j1 = down ? z->lbeg[b + 1] : z->n;
	size_t nm = 0;

	for (uint32_t a = a0; a < a1; a++)
		for (uint32_t j = j0; j < j1; j++) {
			uint32_t p = z->cur[(size_t)a * z->n + j], x;
			uint32_t w = k == SHK_ROUTES ? 1 : z->dw[(size_t)a * z->n + j];

			if (p == TOPO_NONE || !w || z->fixed[(size_t)a * z->n + j] ||
			    (z->chan[p] != c && z->chan[down_port(z, p, j)] != c))
				continue;
			x = (uint32_t)((size_t)a * z->nleaf + z->lx[j]);
			for (uint32_t i = z->aoff[x]; i < z->aoff[x + 1]; i++) {
				uint32_t q = z->aport[i], u, d, m;

				if (q == p)
					continue;
				u = load_of(z, k, z->chan[q]);
				d = load_of(z, k, z->chan[down_port(z, q, j)]);
				m = (u > d ? u : d) + w;
				if (m >= lc || !keeps_other(z, k, a, j, q, rmax))
					continue;
				if (nm == *cap) {
					size_t nc = *cap ? 2 * *cap : 256;
					struct shm *g = realloc(*mv, nc * sizeof(*g));

					if (!g)
						return -ENOMEM;
					*mv = g;
					*cap = nc;
				}
				(*mv)[nm++] = (struct shm){ m, a, j, q };
			}
		}
	return (int64_t)nm;
}

/* Try the moves @mv[0..@nm) whose load is (@eq) or is not @m, in turn: whether one was kept. */
static bool try_moves(struct shz *z, const struct shm *mv, int64_t nm, uint32_t m, bool eq)
{
	for (int64_t i = 0; i < nm; i++) {
		uint32_t old = z->cur[(size_t)mv[i].a * z->n + mv[i].j];
		int64_t dc;

		if ((mv[i].m == m) != eq)
			continue;
		dc = move(z, mv[i].a, mv[i].j, mv[i].q);
		if (dc <= 0)
			return true;
		if (dc != INT64_MAX)
			move(z, mv[i].a, mv[i].j, old);
	}
	return false;
}

/*
 * After the shift search, two balance passes of the same rule: an entry
 * leaves the channel carrying the most of @k for a spine whose two
 * channels stay below it, if no shift gets worse (the total shift cost
 * does not grow) and the other measure is kept, until the most loaded
 * channel keeps its entries.  Tree flows first (down to the 4 a rank's
 * own link carries; the cap then follows), then routes (the checker's
 * link_routes, every class): a destination whose leaf lost its D-mod-K
 * spine is otherwise sent by every leaf through the one substitute,
 * whose down-link then carries two destinations for every leaf.
 */
static void shz_balance(struct shz *z, enum shk k)
{
	struct shm *mv = NULL;
	size_t cap = 0;

	for (uint32_t it = 0; it < SH_ITERS; it++) {
		uint32_t c = max_channel(z, k), m = UINT32_MAX;
		uint32_t rmax = k == SHK_TREES ? z->rl[max_channel(z, SHK_ROUTES)] : 0;
		int64_t nm;
		bool done;

		if (k == SHK_TREES && z->dl[c] <= 4)
			break;
		nm = unload_moves(z, k, c, rmax, &mv, &cap);
		if (nm < 0)
			break;	/* no memory: the entries stay as they are */
		for (int64_t i = 0; i < nm; i++)
			m = mv[i].m < m ? mv[i].m : m;
		/* in (m, leaf, rank, port) order; the least loaded moves first, as found */
		done = try_moves(z, mv, nm, m, true);
		if (!done && nm > 1)
			qsort(mv, (size_t)nm, sizeof(*mv), cmp_shm);
		done = done || try_moves(z, mv, nm, m, false);
		if (!done)
			break;
	}
	if (k == SHK_TREES)
		z->dlim = tree_cap(z);
	free(mv);
}

/* ---- zones ------------------------------------------------------------------------ */

struct shd {
	uint32_t pos, node, port, lid, attach;	/* pos: the leaf's (cls pos) */
};

static int cmp_shd(const void *a, const void *b)
{
	const struct shd *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->lid < y->lid ? -1 : x->lid > y->lid;
}

/*
 * The compute destinations of zone @zone in the checker's order (leaf
 * position, port), if the model holds (see the top): 1, 0 to leave the zone
 * alone, -ENOMEM.
 */
static int shz_job(struct shz *z, const struct rt_dest *d, uint32_t nd, int16_t zone)
{
	const struct rt *r = z->r;
	struct shd *v = malloc(((size_t)nd + 1) * sizeof(*v));
	uint32_t n = 0, first = TOPO_NONE, m = 0;
	bool holes = false;
	int rc = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < nd; i++) {
		if (d[i].tc != CLS_TC_COMPUTE || rt_zone(r, d[i].attach) != zone)
			continue;
		if (r->c->level[rt_node(r, d[i].attach)] != 1 || n >= SH_MAX_RANKS ||
		    r->c->subtree[rt_node(r, d[i].attach)] != TOPO_NONE)
			goto out;	/* the model is leaves' compute HCAs in rank order */
		v[n++] = (struct shd){ r->c->pos[rt_node(r, d[i].attach)], rt_node(r, d[i].attach),
				       d[i].port, d[i].lid, d[i].attach };
	}
	qsort(v, n, sizeof(*v), cmp_shd);
	for (uint32_t i = 0; i < n; i++) {
		if (i && v[i].node == v[i - 1].node && v[i].port == v[i - 1].port)
			goto out;	/* LMC > 0 */
		if (i && v[i].node == v[i - 1].node)
			continue;
		if (first == TOPO_NONE) {
			first = v[i].attach;
			m = r->upg_off[first + 1] - r->upg_off[first];
		}
		holes |= !rt_same_up_group(r, v[i].attach, first, m, false);
		z->nleaf++;
	}
	if (n < 4 || z->nleaf < 2 || !holes)
		goto out;
	z->n = n;
	z->lid = malloc((size_t)n * sizeof(*z->lid));
	z->lx = malloc((size_t)n * sizeof(*z->lx));
	z->lbeg = calloc((size_t)z->nleaf + 1, sizeof(*z->lbeg));
	z->lsw = malloc((size_t)z->nleaf * sizeof(*z->lsw));
	rc = -ENOMEM;
	if (!z->lid || !z->lx || !z->lbeg || !z->lsw)
		goto out;
	z->nleaf = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i && v[i].node != v[i - 1].node)
			z->lbeg[++z->nleaf] = i;
		z->lsw[z->nleaf] = v[i].attach;
		z->lid[i] = v[i].lid;
		z->lx[i] = z->nleaf;
	}
	z->lbeg[++z->nleaf] = n;
	rc = 1;
out:
	free(v);
	return rc;
}

/*
 * The entries another switch's routes pass through (a spine that lost its
 * link to the destination's leaf turns there, a SHARP node's or another
 * zone's routes): their SLs and VLs were chosen for the path they have.
 */
static void shz_fixed(struct shz *z, uint32_t a)
{
	const struct topo *t = z->r->t;
	uint32_t node = rt_node(z->r, z->lsw[a]);

	for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
		uint32_t w = rt_peer(z->r, p), q = t->port_remote[p], qn;

		if (w == TOPO_NONE)
			continue;
		qn = q - t->port_off[t->port_node[q]];
		for (uint32_t j = 0; j < z->n; j++)
			if (lft_get(z->r->out->lft, w, z->lid[j]) == qn)
				z->fixed[(size_t)a * z->n + j] = 1;
	}
}

/* The current entries: every (leaf, rank of another leaf) on a straight path, else 0. */
static int shz_entries(struct shz *z)
{
	const struct topo *t = z->r->t;

	z->cur = malloc((size_t)z->nleaf * z->n * sizeof(*z->cur));
	z->fixed = calloc((size_t)z->nleaf * z->n, sizeof(*z->fixed));
	if (!z->cur || !z->fixed)
		return -ENOMEM;
	for (uint32_t a = 0; a < z->nleaf; a++) {
		uint32_t node = rt_node(z->r, z->lsw[a]);

		shz_fixed(z, a);

		for (uint32_t j = 0; j < z->n; j++) {
			uint32_t b = z->lx[j], pn = lft_get(z->r->out->lft, z->lsw[a], z->lid[j]), p, x;
			bool ok = false;

			z->cur[(size_t)a * z->n + j] = TOPO_NONE;
			if (b == a)
				continue;
			if (!pn || pn > t->node_nports[node])
				return 0;
			p = t->port_off[node] + pn;
			x = (uint32_t)((size_t)a * z->nleaf + b);
			for (uint32_t k = z->aoff[x]; k < z->aoff[x + 1] && !ok; k++)
				ok = z->aport[k] == p;
			if (!ok)
				return 0;
			z->cur[(size_t)a * z->n + j] = p;
		}
	}
	return 1;
}

/* Search one zone; write the moved entries into the LFT.  0 or -ENOMEM. */
static int shz_zone(struct rt *r, const struct rt_dest *d, uint32_t nd, int16_t zone)
{
	struct shz z = { .r = r };
	int rc = shz_job(&z, d, nd, zone);

	if (rc == 1 && (rc = shz_paths(&z)) == 0)
		rc = (size_t)z.n * z.nch <= SH_MAX_CELLS ? shz_entries(&z) : 0;
	if (rc == 1 && (rc = shz_loads(&z)) == 0 && (rc = shz_routes(&z)) == 0 &&
	    (rc = shz_trees(&z)) == 0)
		rc = 1;
	for (uint32_t s = 1; rc == 1 && s < z.nsh; s++)
		if (z.mx[s] + 2u >= SH_HMAX)
			rc = 0;	/* loads beyond the model */
	if (rc == 1) {
		z.rng = 0x53484654u ^ z.n;	/* "SHFT" */
		shz_search(&z);
		shz_balance(&z, SHK_TREES);
		shz_balance(&z, SHK_ROUTES);
		for (uint32_t a = 0; a < z.nleaf; a++) {
			uint32_t off = r->t->port_off[rt_node(r, z.lsw[a])];

			for (uint32_t j = 0; j < z.n; j++) {
				uint32_t p = z.cur[(size_t)a * z.n + j];

				if (p == TOPO_NONE ||
				    lft_get(r->out->lft, z.lsw[a], z.lid[j]) == p - off)
					continue;
				lft_set(r->out->lft, z.lsw[a], z.lid[j], (uint8_t)(p - off));
				r->shift_moved++;
			}
		}
		r->shift_zones++;
	}
	shz_free(&z);
	return rc < 0 ? rc : 0;
}

int rt_shift_refine(struct rt *r, const struct rt_dest *d, uint32_t nd)
{
	uint8_t *done = calloc(r->c->nzones + 1, 1);
	int rc = done ? 0 : -ENOMEM;

	for (uint32_t zn = 0; zn < r->c->nzones && !rc && !r->rails; zn++) {
		uint32_t before = r->shift_zones;

		rc = shz_zone(r, d, nd, (int16_t)zn);
		done[zn] = r->shift_zones != before;
	}
	if (!rc)
		rc = rt_tree_shift(r, done);
	free(done);
	return rc;
}

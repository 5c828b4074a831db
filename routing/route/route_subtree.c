// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_subtree.c - the switches of a low-speed subtree that hangs below
 * the fast tree spread their hosts' routes over their up-links by
 * capacity, once every destination is routed.
 *
 * Why.  While routing, a subtree switch takes, per destination, the
 * least-loaded of its candidate up-links; but some destinations have one
 * candidate only (a parent's own hosts, another subtree reached through
 * the parents the two share), and they come in position order, after
 * free ones have filled the same up-link: a 3-host subtree below four
 * leaves sent 9, 12, 18 and 18 routes over its up-links (12, 15, 15, 15
 * after this pass).
 *
 * What.  Per subtree switch S with endpoints and two up-links or more
 * (links to fast switches), its entries toward endpoint LIDs outside its
 * subtree, each on one up-link.  An entry may move to another up-link
 * when the switch across reaches the LID in as many hops (walking the
 * LFTs), without passing S, at no lower bottleneck rate.  Entries stay
 * (but count) for LIDs with turn routes (switch-to-switch SLs, the rooted
 * layer) and for LIDs in another subtree (where they enter it is that
 * subtree's balance, by_entry() in route_dest.c).  Then, while an entry on
 * the up-link carrying the most entries per unit of rate has a place
 * where, moved, it leaves both below that, the first such entry (lowest
 * LID) moves to its emptiest place.  Deterministic.
 *
 * Into a subtree that hangs below the fast tree (not a slow part joined
 * sideways, such as a whole older zone), the same per link from the fast tree: the endpoint
 * pairs each carries (a route's sources behind the switch where it
 * turns toward that link).  While the link with the most pairs per unit
 * of rate has a route that, moved at one switch outside the subtree to
 * another port in the same direction toward a fast switch that enters
 * elsewhere in one hop less, at no lower bottleneck, leaves both links
 * below that, it moves (the first LID, the emptiest link).  At a switch
 * of another subtree the move must leave that switch's own up-link
 * counts no fuller than their fullest, or come with a swap: one of its
 * routes to a fast endpoint moved back the other way.  A 3-host subtree
 * below 4 spines took 19, 20, 19 and 23 pairs in (21, 20, 20, 20 after).
 *
 * What is kept.  Every moved route keeps its length and direction
 * (up*down*, minimal); LIDs with turn routes stay; only the routes into
 * a subtree and, in a swap, one route out of another change;
 * verification judges the result as always.  Cost: per subtree switch,
 * LIDs x up-links walks of the LFTs, then O(entries) per move; into a
 * subtree, per move, walks from every switch to each of its LIDs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "route/route_int.h"

#define SUB_MAX_UP 64		/* up-links of one subtree switch considered */
#define IN_MOVES 8		/* moves into a subtree at most: this many per LID of it, in all */

/*
 * Hops and bottleneck rate from switch @w to @lid by the LFTs (chk_walk);
 * false if no valid route or it passes switch @avoid.
 */
static bool walk(const struct rt *r, uint32_t w, uint32_t lid, uint32_t avoid, unsigned *hops,
		 uint32_t *rate)
{
	const struct topo *t = r->t;
	struct chk_path path;

	chk_walk(t, r->out->lft, t->port_off[rt_node(r, w)], lid, &path);
	if (path.status != CHK_WALK_OK || !path.nch)
		return false;
	*hops = path.nch - 1;	/* the last channel goes to the CA */
	*rate = UINT32_MAX;
	for (uint32_t i = 0; i < path.nch; i++) {
		if (t->port_node[path.ch[i]] == rt_node(r, avoid))
			return false;
		*rate = rt_rate(r, path.ch[i]) < *rate ? rt_rate(r, path.ch[i]) : *rate;
	}
	return true;
}

struct sub_entry {
	uint32_t lid;
	uint8_t at;		/* index of the up-link it takes */
	uint64_t alt;		/* bit k: up-link k would do as well */
};

/* @a per unit of up-link @i's rate below @b per unit of @j's. */
static inline bool less(const struct rt *r, const uint32_t *up, uint64_t a, unsigned i,
			uint64_t b, unsigned j)
{
	return a * rt_rate(r, up[j]) < b * rt_rate(r, up[i]);
}

/* Move entries of @s off its fullest up-link while that helps. */
static void spread(struct rt *r, uint32_t s, const uint32_t *up, unsigned nup,
		   struct sub_entry *e, uint32_t ne)
{
	uint32_t cnt[SUB_MAX_UP] = { 0 };

	for (uint32_t i = 0; i < ne; i++)
		cnt[e[i].at]++;
	for (uint32_t i = 0; i < ne; i++) {	/* each entry moves at most once */
		unsigned hi = 0, lo = 0;
		uint32_t j;

		for (unsigned k = 1; k < nup; k++)
			if (less(r, up, cnt[hi], hi, cnt[k], k))
				hi = k;
		for (j = 0; j < ne; j++) {	/* an entry on it with a better place */
			if (e[j].at != hi || !e[j].alt)
				continue;
			lo = hi;
			for (unsigned k = 0; k < nup; k++)
				if ((e[j].alt >> k & 1) && less(r, up, cnt[k], k, cnt[lo], lo))
					lo = k;
			if (lo != hi && less(r, up, cnt[lo] + 1u, lo, cnt[hi], hi))
				break;
		}
		if (j == ne)
			break;	/* the fullest keeps what it has */
		e[j].at = (uint8_t)lo;
		e[j].alt = 0;
		cnt[hi]--;
		cnt[lo]++;
		lft_set(r->out->lft, s, e[j].lid, r->pnum[up[lo]]);
	}
}

/* S's entries toward endpoints outside its subtree into @e, how many. */
static uint32_t entries(const struct rt *r, uint32_t s, const uint32_t *up, unsigned nup,
			const uint8_t *turned, struct sub_entry *e)
{
	const struct topo *t = r->t;
	uint32_t ne = 0, st = r->c->subtree[rt_node(r, s)];

	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		uint32_t p = t->lid_port[lid], pn = lft_get(r->out->lft, s, lid), node;
		unsigned at = nup, h0, h;
		uint32_t rate0, rate;

		if (p == TOPO_NONE)
			continue;
		node = t->port_node[p];
		if (topo_is_switch(t, node) || !cls_is_endpoint(t, r->c, node) ||
		    r->c->subtree[node] == st)
			continue;
		for (unsigned k = 0; k < nup; k++)
			if (r->pnum[up[k]] == pn)
				at = k;
		if (at == nup)
			continue;
		e[ne] = (struct sub_entry){ lid, (uint8_t)at, 0 };	/* counted, maybe fixed */
		if (turned[lid] || r->c->subtree[node] != TOPO_NONE ||
		    !walk(r, r->peer[up[at]], lid, s, &h0, &rate0)) {
			ne++;
			continue;
		}
		rate0 = rate0 < rt_rate(r, up[at]) ? rate0 : rt_rate(r, up[at]);
		for (unsigned k = 0; k < nup; k++)
			if (k != at && walk(r, r->peer[up[k]], lid, s, &h, &rate) && h == h0 &&
			    (rate < rt_rate(r, up[k]) ? rate : rt_rate(r, up[k])) >= rate0)
				e[ne].alt |= 1ull << k;
		ne++;
	}
	return ne;
}

/* ---- into a subtree --------------------------------------------------------- */

/* A fast switch's route to the current LID, by the LFTs. */
struct in_path {
	uint32_t entry;		/* index of the link into the subtree it ends on, or IN_NONE */
	uint32_t rate;		/* bottleneck (switch links and the last hop) */
	uint16_t hops;
	bool down;		/* every switch-to-switch hop goes down */
};

#define IN_NONE UINT32_MAX

struct in_ctx {
	struct rt *r;
	uint32_t st;		/* the subtree */
	uint32_t *link, nlink;	/* ports of fast switches into it */
	uint32_t *lidx;		/* [nports] index in link, or IN_NONE */
	uint64_t *load;		/* [nlink] endpoint pairs over each, so far */
	struct in_path *pa;	/* [nsw] for the current LID */
	uint64_t *hw;		/* [nsw] endpoints whose route passes each switch */
	uint32_t *ord;		/* [nsw] scratch: switches by hops, farthest first */
	uint32_t *ucnt;		/* [nports] a subtree switch's entries toward endpoints
				 * outside its subtree on each up-link (spread()'s count) */
	const uint8_t *turned;	/* [LIDs] with turn routes */
};

static bool fast(const struct rt *r, uint32_t s)
{
	return !r->c->below[rt_node(r, s)];
}

/* @x's route to @lid into c->pa[x]; false if it is not a plain route into the subtree. */
static bool in_walk(struct in_ctx *c, uint32_t x, uint32_t lid)
{
	const struct rt *r = c->r;
	const struct topo *t = r->t;
	struct in_path *a = &c->pa[x];
	struct chk_path path;

	*a = (struct in_path){ IN_NONE, UINT32_MAX, 0, true };
	chk_walk(t, r->out->lft, t->port_off[rt_node(r, x)], lid, &path);
	if (path.status != CHK_WALK_OK || !path.nch)
		return false;
	a->hops = (uint16_t)(path.nch - 1);
	for (uint32_t i = 0; i < path.nch; i++) {
		uint32_t p = path.ch[i], q = t->port_remote[p];

		a->rate = rt_rate(r, p) < a->rate ? rt_rate(r, p) : a->rate;
		if (i + 1 < path.nch && r->c->dir[p] != CLS_DIR_DOWN)
			a->down = false;
		if (a->entry == IN_NONE && q != TOPO_NONE)
			a->entry = c->lidx[p];
	}
	return a->entry != IN_NONE;
}

/*
 * Every switch's route to @lid and c->hw (sources outside the subtree, by
 * the LFTs); with @count, their pairs added to c->load.
 */
static void in_state(struct in_ctx *c, uint32_t lid, bool count)
{
	struct rt *r = c->r;
	uint32_t n = 0, at[CHK_MAX_HOPS + 1] = { 0 };

	for (uint32_t x = 0; x < r->nsw; x++) {	/* by hops, farthest first (counting sort) */
		c->hw[x] = r->c->subtree[rt_node(r, x)] == c->st ? 0 : r->nep[x];
		if (in_walk(c, x, lid) && r->c->subtree[rt_node(r, x)] != c->st)
			at[CHK_MAX_HOPS - c->pa[x].hops]++, n++;
	}
	for (uint32_t h = 0, sum = 0; h <= CHK_MAX_HOPS; h++) {
		uint32_t k = at[h];

		at[h] = sum;
		sum += k;
	}
	for (uint32_t x = 0; x < r->nsw; x++)
		if (c->pa[x].entry != IN_NONE && r->c->subtree[rt_node(r, x)] != c->st)
			c->ord[at[CHK_MAX_HOPS - c->pa[x].hops]++] = x;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = c->ord[i], y = rt_peer(r, r->t->port_off[rt_node(r, x)] +
					   lft_get(r->out->lft, x, lid));

		if (y != TOPO_NONE && c->pa[y].entry != IN_NONE &&
		    r->c->subtree[rt_node(r, y)] != c->st)
			c->hw[y] += c->hw[x];
		else if (count)	/* the switch that enters */
			c->load[c->pa[x].entry] += c->hw[x];
	}
}

/* @a per unit of link @i's rate below @b per unit of link @j's. */
static inline bool in_less(const struct in_ctx *c, uint64_t a, uint32_t i, uint64_t b, uint32_t j)
{
	return a * rt_rate(c->r, c->link[j]) < b * rt_rate(c->r, c->link[i]);
}

/*
 * Whether subtree switch @s (of another subtree) may send one more entry
 * up port @p: no more per unit of rate than its fullest up-link now, so
 * spread()'s balance of its own routes holds.
 */
static bool out_room(const struct in_ctx *c, uint32_t s, uint32_t p)
{
	const struct rt *r = c->r;
	uint32_t top = p;

	for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
		uint32_t u = r->swp[j];

		if (r->peer[u] != TOPO_NONE && fast(r, r->peer[u]) &&
		    (uint64_t)c->ucnt[u] * rt_rate(r, top) > (uint64_t)c->ucnt[top] * rt_rate(r, u))
			top = u;
	}
	return (uint64_t)(c->ucnt[p] + 1) * rt_rate(r, top) <= (uint64_t)c->ucnt[top] * rt_rate(r, p);
}

/*
 * A fast endpoint's LID that subtree switch @s sends up port @p and could
 * send up @p0 as well (as short, at no lower bottleneck, not through @s):
 * the swap that keeps out_room() when one entry moves from @p0 to @p.
 * 0 if none.
 */
static uint32_t out_swap(const struct in_ctx *c, uint32_t s, uint32_t p, uint32_t p0)
{
	const struct rt *r = c->r;
	const struct topo *t = r->t;

	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		uint32_t lp = t->lid_port[lid], node, rate0, rate;
		unsigned h0, h;

		if (lp == TOPO_NONE || c->turned[lid] || lft_get(r->out->lft, s, lid) != r->pnum[p])
			continue;
		node = t->port_node[lp];
		if (topo_is_switch(t, node) || r->c->subtree[node] != TOPO_NONE ||
		    !cls_is_endpoint(t, r->c, node) ||
		    !walk(r, r->peer[p], lid, s, &h0, &rate0) || !walk(r, r->peer[p0], lid, s, &h, &rate))
			continue;
		rate0 = rate0 < rt_rate(r, p) ? rate0 : rt_rate(r, p);
		if (h == h0 && (rate < rt_rate(r, p0) ? rate : rt_rate(r, p0)) >= rate0)
			return lid;
	}
	return 0;
}

/*
 * A move for @lid off link @hi: a switch outside the subtree (a fast one,
 * or one of another subtree going up within out_room(), else with the
 * swap of out_swap() in *@swap) whose route enters by @hi
 * and another port in the same direction to a fast switch whose route
 * enters elsewhere, as short (one hop less), not through the switch, at
 * no lower bottleneck, down only if the switch went down; the one that
 * leaves both links lowest.  The port in *@q, its switch in *@x; false
 * if none leaves both below c->load[hi].
 */
static bool in_move(struct in_ctx *c, uint32_t lid, uint32_t hi, uint32_t *x, uint32_t *q,
		    uint32_t *swap)
{
	struct rt *r = c->r;
	uint32_t best_lo = IN_NONE;

	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t p0 = r->t->port_off[rt_node(r, s)] + lft_get(r->out->lft, s, lid);

		if (c->pa[s].entry != hi || !c->hw[s] || rt_zone(r, s) !=
		    rt_zone(r, r->t->node_sw[r->t->port_node[c->link[hi]]]))
			continue;
		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
			uint32_t p = r->swp[j], y = r->peer[p], lo, sw;
			bool room;
			const struct in_path *b = y == TOPO_NONE ? NULL : &c->pa[y];

			if (p == p0 || !b || !fast(r, y) || r->c->subtree[rt_node(r, y)] == c->st ||
			    b->entry == IN_NONE ||
			    b->entry == hi || r->c->dir[p] != r->c->dir[p0] ||
			    b->hops + 1u != c->pa[s].hops || (r->c->dir[p] == CLS_DIR_DOWN && !b->down) ||
			    (b->rate < rt_rate(r, p) ? b->rate : rt_rate(r, p)) < c->pa[s].rate ||
			    rt_zone(r, y) != rt_zone(r, s))
				continue;
			lo = b->entry;
			if (!in_less(c, c->load[lo] + c->hw[s], lo, c->load[hi], hi) ||
			    (best_lo != IN_NONE && !in_less(c, c->load[lo], lo, c->load[best_lo], best_lo)))
				continue;
			room = fast(r, s) || out_room(c, s, p);
			sw = room ? 0 : out_swap(c, s, p, p0);
			if (room || sw)
				best_lo = lo, *x = s, *q = p, *swap = sw;
		}
	}
	return best_lo != IN_NONE;
}

/* Subtree @st's endpoint LIDs without turn routes into @lids; how many. */
static uint32_t in_lids(const struct rt *r, uint32_t st, const uint8_t *turned, uint32_t *lids)
{
	const struct topo *t = r->t;
	uint32_t n = 0;

	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		uint32_t p = t->lid_port[lid], node;

		if (p == TOPO_NONE || turned[lid])
			continue;
		node = t->port_node[p];
		if (!topo_is_switch(t, node) && r->c->subtree[node] == st &&
		    cls_is_endpoint(t, r->c, node))
			lids[n++] = lid;
	}
	return n;
}

/*
 * Subtree @st: while the link into it that carries the most endpoint
 * pairs per unit of rate has a route that, moved at one switch outside
 * it (in_move()), leaves both links below that, move it (the first LID, the emptiest
 * place).  At most IN_MOVES times its LIDs moves in all.
 */
static void in_spread(struct in_ctx *c, uint32_t *lids)
{
	struct rt *r = c->r;
	uint32_t nl = in_lids(r, c->st, c->turned, lids), budget = IN_MOVES * nl;

	memset(c->load, 0, c->nlink * sizeof(*c->load));
	for (uint32_t i = 0; i < nl; i++)
		in_state(c, lids[i], true);
	while (budget--) {
		uint32_t hi = 0, x = 0, q = 0, swap = 0, i, p0;

		for (uint32_t k = 1; k < c->nlink; k++)
			if (in_less(c, c->load[hi], hi, c->load[k], k))
				hi = k;
		for (i = 0; i < nl; i++) {
			in_state(c, lids[i], false);
			if (in_move(c, lids[i], hi, &x, &q, &swap))
				break;
		}
		if (i == nl)
			return;	/* the fullest keeps what it has */
		p0 = r->t->port_off[rt_node(r, x)] + lft_get(r->out->lft, x, lids[i]);
		c->load[hi] -= c->hw[x];
		c->load[c->pa[r->peer[q]].entry] += c->hw[x];
		lft_set(r->out->lft, x, lids[i], r->pnum[q]);
		if (swap) {	/* x's counts stay */
			lft_set(r->out->lft, x, swap, r->pnum[p0]);
		} else if (!fast(r, x)) {	/* spread()'s counts of a subtree switch */
			c->ucnt[p0]--;
			c->ucnt[q]++;
		}
	}
}

/* Every subtree's links into it, spread (in_spread()).  0 or -ENOMEM. */
static int spread_in(struct rt *r, const uint8_t *turned)
{
	const struct topo *t = r->t;
	struct in_ctx c = { .r = r, .turned = turned };
	uint32_t *lids = malloc(((size_t)t->max_lid + 1) * sizeof(*lids));
	int rc = 0;

	c.link = malloc(((size_t)r->swp_off[r->nsw] + 1) * sizeof(*c.link));
	c.load = malloc(((size_t)r->swp_off[r->nsw] + 1) * sizeof(*c.load));
	c.pa = malloc((size_t)r->nsw * sizeof(*c.pa));
	c.hw = malloc((size_t)r->nsw * sizeof(*c.hw));
	c.ord = malloc((size_t)r->nsw * sizeof(*c.ord));
	c.ucnt = calloc((size_t)t->nports + 1, sizeof(*c.ucnt));
	c.lidx = malloc(((size_t)t->nports + 1) * sizeof(*c.lidx));
	if (!lids || !c.link || !c.load || !c.pa || !c.hw || !c.ord || !c.ucnt || !c.lidx)
		rc = -ENOMEM;
	for (uint32_t p = 0; !rc && p <= t->nports; p++)
		c.lidx[p] = IN_NONE;
	for (uint32_t lid = 1; !rc && lid <= t->max_lid; lid++) {	/* spread()'s counts */
		uint32_t p = t->lid_port[lid], node = p == TOPO_NONE ? 0 : t->port_node[p];

		if (p == TOPO_NONE || topo_is_switch(t, node) || !cls_is_endpoint(t, r->c, node))
			continue;
		for (uint32_t s = 0; s < r->nsw; s++) {
			uint8_t pn = lft_get(r->out->lft, s, lid);

			if (r->c->below[rt_node(r, s)] && pn != LFT_NONE &&
			    r->c->subtree[rt_node(r, s)] != r->c->subtree[node])
				c.ucnt[t->port_off[rt_node(r, s)] + pn]++;
		}
	}
	for (c.st = 0; !rc && c.st < r->c->nsubtrees; c.st++) {
		bool hangs = false;

		c.nlink = 0;
		for (uint32_t s = 0; s < r->nsw; s++) {
			uint32_t sst = r->c->subtree[rt_node(r, s)];

			hangs |= sst == c.st && r->c->below[rt_node(r, s)];
			for (uint32_t j = r->swp_off[s]; fast(r, s) && sst != c.st &&
			     j < r->swp_off[s + 1]; j++) {
				uint32_t w = r->peer[r->swp[j]];

				if (w != TOPO_NONE && r->c->subtree[rt_node(r, w)] == c.st)
					c.link[c.nlink++] = r->swp[j];
			}
		}
		if (!hangs || c.nlink < 2)
			continue;	/* a slow part joined sideways (a whole zone): its own routing */
		for (uint32_t k = 0; k < c.nlink; k++)
			c.lidx[c.link[k]] = k;
		in_spread(&c, lids);
		for (uint32_t k = 0; k < c.nlink; k++)
			c.lidx[c.link[k]] = IN_NONE;
	}
	free(lids);
	free(c.link);
	free(c.load);
	free(c.pa);
	free(c.hw);
	free(c.ord);
	free(c.ucnt);
	free(c.lidx);
	return rc;
}

/**
 * rt_subtree_spread - see the top comment; before rt_sl_tables (the turn
 * marks in out->sl are still the routing's)
 * Return: 0 or -ENOMEM.
 */
int rt_subtree_spread(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t nlids = t->max_lid + 1, up[SUB_MAX_UP];
	uint8_t *turned;
	struct sub_entry *e;
	int rc;

	if (!r->c->nsubtrees || !r->nep)
		return 0;
	turned = calloc(nlids + 1, 1);
	e = malloc(((size_t)nlids + 1) * sizeof(*e));
	if (!turned || !e) {
		free(turned);
		free(e);
		return -ENOMEM;
	}
	for (uint32_t g = 0; g < r->out->ngroups; g++)
		for (uint32_t lid = 0; lid < nlids && lid < r->out->nlids; lid++) {
			uint8_t sl = r->out->sl[(size_t)g * r->out->nlids + lid];

			turned[lid] |= sl == ROUTE_SL_TURN || sl == RT_SL_ROOTED || rt_is_valley(r->c, sl);
		}
	for (uint32_t s = 0; s < r->nsw; s++) {
		unsigned nup = 0;

		if (!r->c->below[rt_node(r, s)] || !r->nep[s])
			continue;
		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1] && nup < SUB_MAX_UP; j++)
			if (!r->c->below[rt_node(r, r->peer[r->swp[j]])])
				up[nup++] = r->swp[j];
		if (nup >= 2)
			spread(r, s, up, nup, e, entries(r, s, up, nup, turned, e));
	}
	free(e);
	rc = spread_in(r, turned);
	free(turned);
	return rc;
}


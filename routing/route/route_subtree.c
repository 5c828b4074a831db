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
 * What is kept.  S goes up, the switch above routes as before: up*down*
 * and minimal stay; only S's hosts' routes change; verification judges
 * the result as always.  Cost: per subtree switch, LIDs x up-links walks
 * of the LFTs, then O(entries) per move.
 */
#include <errno.h>
#include <stdlib.h>

#include <ffroute/check.h>

#include "route/route_int.h"

#define SUB_MAX_UP 64		/* up-links of one subtree switch considered */

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

			turned[lid] |= sl == ROUTE_SL_TURN || sl == RT_SL_ROOTED;
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
	free(turned);
	free(e);
	return 0;
}

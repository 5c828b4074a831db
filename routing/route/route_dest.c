// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_dest.c - the route of every switch toward one destination LID.
 *
 * Algorithm (per destination d hanging on switch a of zone Z):
 *
 * 1. Designated path (D-mod-K).  From a, go up one level at a time; at
 *    each step take the up-neighbour whose channel down toward us carries
 *    the fewest destinations of d's class so far, ties broken by rotating
 *    from d's rank (rank mod candidates at the first level, rank / n1 mod
 *    n2 at the next, ...).  On a healthy Clos every class's destinations
 *    are then spread over the spines in rank order, exactly D-mod-K, and
 *    every switch routes d through the same spine, so a shift permutation
 *    meets no contention.  The path ends at a switch above the leaves
 *    that lost the member D-mod-K gives d: the sources spread d over the
 *    remaining ones from there (lost_above_leaves()).
 *
 * 2. Labels: every switch's mode and distance toward d's switch
 *    (route_label.c), which name the next hops each may take.
 *
 * 3. Choice.  Among the ports that lead one hop closer, a switch takes the
 *    one nearest the designated path (prefer), then the least loaded for
 *    d's class, then the rotation by rank: parallel links and equal
 *    candidates are used evenly.
 *
 * Cost: O(switch ports) per destination for the labels and choices, plus
 * the designated path's memoised walk; memory O(switches + ports).
 */
#include <errno.h>
#include <string.h>

#include "route/route_int.h"

/* ---- designated path and preference ------------------------------------------ */

/*
 * @rank mod @m, for a switch of level @lv: memoized per level, as most
 * switches of a level share the size of their up-group and one
 * destination's rank digit (a division per switch and destination cost
 * a tenth of the routing of a fat tree).
 */
static inline uint32_t rank_mod(struct rt *r, uint8_t lv, uint32_t rank, uint32_t m)
{
	if (r->mod_m[lv] != m || r->mod_rank[lv] != rank) {
		r->mod_m[lv] = m;
		r->mod_rank[lv] = rank;
		r->mod_v[lv] = rank % m;
	}
	return r->mod_v[lv];
}

/*
 * Whether D-mod-K's member for @rank at switch @s is lost and @s is above
 * the leaves.  One substitute would carry the lost member's destinations
 * for every source: two destinations' routes on one link down (a 3-level
 * tree whose spine lost a core: 86 routes on it, about 60 on its peers).  The
 * designated path ends at @s instead (open_lv) and each source spreads
 * such a destination by load, its ties rotated from the source switch's
 * position (class_pos.c).
 * A leaf's lost member keeps its substitute: on two-level zones the shift
 * refinement (route_shift.c) rebalances those with shifts in view.
 */
static bool lost_above_leaves(struct rt *r, uint32_t s, uint32_t rank)
{
	uint32_t b = r->upg_off[s], m = r->upg_off[s + 1] - b, i;
	uint8_t lv;

	if (!m || (lv = r->c->level[rt_node(r, s)]) < 2)
		return false;
	i = rank_mod(r, lv, rank, m);
	return r->upg_alt[b + i] != i;
}

static uint32_t rotation(uint32_t idx, uint32_t n, uint32_t rank)
{
	return (idx + n - rank % n) % n;
}

/*
 * Compute destinations: at each level the up-neighbour nearest (rotating)
 * to position rank mod |up-group| of the switch's up-group: exact D-mod-K,
 * which makes shift permutations contention-free.  Ties (parallel links)
 * by the fewest destinations designated over the link.  Storage and other
 * destinations get no designated path: every switch balances them over
 * its own ports, so each leaf's up-links stay within +-1 per class
 * although each leaf skips its own destinations.
 */
/* Switch @v has preference @pf: its switch peers may choose by it (choose()). */
static void mark_near(struct rt *r, uint32_t v, uint16_t pf)
{
	for (uint32_t j = r->swp_off[v]; j < r->swp_off[v + 1]; j++) {
		uint32_t q = r->peer[r->swp[j]];

		if (r->near_stamp[q] != r->stamp || r->near_pref[q] > pf)
			r->near_stamp[q] = r->stamp, r->near_pref[q] = pf;
	}
}

/*
 * The up-port of @u on @dst's designated path (TOPO_NONE if none): toward
 * D-mod-K's member for @rank (its substitute if lost), among parallel
 * links the one with the fewest destinations designated over it.
 */
static uint32_t designate_up(const struct rt *r, uint32_t u, const struct rt_dest *dst,
			     uint32_t rank, uint32_t m)
{
	const struct topo *t = r->t;
	uint32_t n = rt_node(r, u), target = rt_up_target(r, u, rank), best = TOPO_NONE, bk = 0;

	for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
		uint32_t w = rt_peer(r, p), pos, key;

		if (r->c->dir[p] != CLS_DIR_UP || w == TOPO_NONE || rt_zone(r, w) != rt_zone(r, u))
			continue;
		pos = rt_up_pos(r, u, w);
		key = w == target ? 0 : pos == TOPO_NONE ? m + 1 : 1 + rotation(pos, m, rank);
		if (best == TOPO_NONE || key < bk || (key == bk &&
		    r->dsg[dst->tc][t->port_remote[p]] < r->dsg[dst->tc][t->port_remote[best]]))
			best = p, bk = key;
	}
	return best;
}

static void designate(struct rt *r, const struct rt_dest *dst)
{
	const struct topo *t = r->t;
	uint32_t u = dst->attach, rank = dst->rank;

	rt_exit_designate(r, dst);
	r->ndesig = 0;
	r->open_lv = UINT8_MAX;
	r->desig[r->ndesig++] = u;
	for (unsigned l = 0; l < r->nlev; l++) {
		r->dk_rank[l] = rank;
		r->dk_m[l] = 1;
	}
	while (dst->tc == CLS_TC_COMPUTE && r->ndesig < RT_MAXDESIG) {
		uint32_t n = rt_node(r, u), m = r->upg_off[u + 1] - r->upg_off[u], bp;
		uint8_t lv = r->c->level[n];

		if (m && (lost_above_leaves(r, u, rank) || r->c->below[n])) {
			r->open_lv = lv;	/* the sources balance d from here up */
			break;
		}
		r->dk_rank[lv] = rank;
		r->dk_m[lv] = m ? m : 1;
		for (unsigned l = lv + 1u; m && l < r->nlev; l++)
			r->dk_rank[l] = rank / m;
		if (!m || (bp = designate_up(r, u, dst, rank, m)) == TOPO_NONE)
			break;
		r->dsg[dst->tc][t->port_remote[bp]]++;
		u = rt_peer(r, bp);
		r->desig[r->ndesig++] = u;
		rank /= m;
	}
	for (unsigned l = 0; l < r->nlev; l++)
		r->dk_dig[l] = r->dk_m[l] > 1 ? r->dk_rank[l] / r->dk_m[l] : r->dk_rank[l];
	r->stamp++;
	for (unsigned i = 0; i < r->ndesig; i++) {	/* on the path: preference 0 */
		r->pref_stamp[r->desig[i]] = r->stamp;
		r->pref[r->desig[i]] = 0;
		mark_near(r, r->desig[i], 0);
	}
	for (unsigned i = 1; i < r->ndesig; i++)	/* just below it: 1 */
		for (uint32_t j = r->swp_off[r->desig[i]]; j < r->swp_off[r->desig[i] + 1]; j++) {
			uint32_t p = r->swp[j], v = r->peer[p];

			if (r->c->dir[p] == CLS_DIR_DOWN && r->pref_stamp[v] != r->stamp) {
				r->pref_stamp[v] = r->stamp;
				r->pref[v] = 1;
				mark_near(r, v, 1);
			}
		}
}

/*
 * Hops up from switch @w to the designated path: 0 on it, 1 below one of
 * its switches (designate() marks both), else RT_INF.  Two levels are what
 * a 3-level tree needs (a leaf of another pod picks the aggregation switch
 * under the designated core); deeper trees fall back to the other keys.
 */
static inline unsigned pref(const struct rt *r, uint32_t w)
{
	return r->pref_stamp[w] == r->stamp ? r->pref[w] : RT_INF;
}

/* The least preference among the switch peers of @s. */
static inline unsigned peer_pref(const struct rt *r, uint32_t s)
{
	return r->near_stamp[s] == r->stamp ? r->near_pref[s] : RT_INF;
}

/* ---- choice ------------------------------------------------------------------ */

/* The one direction next_hop() lets a switch of mode @m go in (CLS_DIR_COUNT: any). */
static inline unsigned mode_dir(enum rt_mode m)
{
	switch (m) {
	case RM_DOWN:
	case RM_TURN:
		return CLS_DIR_DOWN;
	case RM_EXIT:
		return CLS_DIR_XZONE;
	case RM_UP:
	case RM_UPTURN:
		return CLS_DIR_UP;
	default:
		return CLS_DIR_COUNT;
	}
}

/* Whether port @p of switch @s is a next hop of its label. */
static bool next_hop(struct rt *r, uint32_t s, uint32_t p, uint32_t w)
{
	enum cls_dir dir = (enum cls_dir)r->dir[p];
	enum rt_mode mw;

	if (w == TOPO_NONE)
		return false;
	mw = (enum rt_mode)r->mode[w];
	if (mw == RM_NONE || r->dist[w] + 1 != r->dist[s])
		return false;
	switch ((enum rt_mode)r->mode[s]) {
	case RM_DOWN:
		return dir == CLS_DIR_DOWN && (mw == RM_DOWN || mw == RM_EXIT || mw == RM_DEST);
	case RM_EXIT:
		return dir == CLS_DIR_XZONE && rt_zone(r, w) != rt_zone(r, s);
	case RM_UP:	/* into up*down* labels only, never a fallback's */
		return dir == CLS_DIR_UP && mw <= RM_UP && (!r->u0[s] || r->u0[w]);
	case RM_TURN:
		return dir == CLS_DIR_DOWN && ((r->u0[w] && r->dist[w] <= 1) || mw == RM_TURN);
	case RM_UPTURN:
		return dir == CLS_DIR_UP && (mw == RM_TURN || mw == RM_UPTURN);
	default:
		return true;
	}
}

/*
 * Whether switch @s may send the destination in subtree @dst_st (TOPO_NONE:
 * the fast tree) to switch @w: a route enters a low-speed subtree only to
 * reach a destination inside it (moving inside one, or out of it, is
 * free).
 */
static inline bool no_transit(const struct rt *r, uint32_t s, uint32_t w, uint32_t dst_st)
{
	uint32_t sw = r->c->subtree[rt_node(r, w)];

	return sw == TOPO_NONE || sw == dst_st || sw == r->c->subtree[rt_node(r, s)];
}

/* Port @p to @w keeps @s's best bottleneck (always, with links of one rate). */
static inline bool rate_ok(const struct rt *r, uint32_t s, uint32_t p, uint32_t w)
{
	uint32_t v;

	if (!r->wide)
		return true;
	v = rt_rate(r, p);
	return (v < r->wide[w] ? v : r->wide[w]) >= r->wide[s];
}

/*
 * Key of candidate port @p (peer @w) of switch @s, smaller is better:
 * with rail isolation, not a leaf of another rail than the destination's;
 * nearest to the designated path; for an up move, whether @w is the
 * D-mod-K target of the destination's digit at @s's level (its substitute
 * when @s lost the link: route_pos.c; none when a switch above the leaves
 * lost it: lost_above_leaves()); when the target does not win (none,
 * no candidate, or behind on the keys before), the fewest endpoints'
 * routes on the two links to the destination's switch (spill_load(), if
 * every tied candidate has that key); the fewest routes of the class on the
 * port group (all parallel links to that peer; above the leaves every
 * route counts the switches whose routes pass through @s, as switches are
 * routed farthest first), per link of the group where it goes to a CA or
 * turns (a group that lost a parallel link takes its share: the turns of
 * a rail-3 spine whose leaf kept one link of two; switch-LID routes going
 * up compare group totals still, as weighting them measurably moved a
 * degraded 3-level fabric's switch-originated routes into a credit loop,
 * route_sl.c); among parallel links
 * the rotation by the digit of the link's level, which spreads
 * consecutive destinations over them the same way at both ends; with
 * class weights, the weighted routes of all classes on the port group (a
 * storage route weighing 8 keeps compute routes off a storage-heavy link);
 * last the rotation among all candidates by rank, for storage and other
 * destinations and above where a compute destination's designated path
 * ended (no designated path) started at @s's position: the switches then
 * spread one such destination over their links instead of all picking
 * the same spine, whose down-link would carry it for every leaf.
 */
struct ckey {
	unsigned grot, rot, width;	/* width: the group's parallel links */
	uint64_t spill;		/* endpoints' routes on the two links to the
				 * destination's switch (spill_load()) */
	uint32_t load, pload;
	uint64_t wload;		/* all classes, weighted (route_opts.class_weight) */
};

/* The keys after primary_key()'s. */
static bool ckey_less(const struct ckey *a, const struct ckey *b)
{
	uint64_t la = (uint64_t)a->load * b->width, lb = (uint64_t)b->load * a->width;

	if (a->spill != b->spill)
		return a->spill < b->spill;
	if (la != lb)	/* per link of the group: a thin group takes its share */
		return la < lb;
	if (a->grot != b->grot)
		return a->grot < b->grot;
	if (a->wload != b->wload)
		return a->wload < b->wload;
	if (a->pload != b->pload)
		return a->pload < b->pload;
	return a->rot < b->rot;
}

/* (idx - rank) mod n with rank already reduced mod n: no division */
static inline uint32_t rot_fast(uint32_t idx, uint32_t n, uint32_t rm)
{
	return idx >= rm ? idx - rm : idx + n - rm;
}

/* The rank digit for a link whose lower end is at level @low. */
static inline uint32_t link_digit(const struct rt *r, uint8_t low, uint32_t s)
{
	return r->dk_dig[low] + (r->mode[s] >= RM_TURN ? r->c->pos[rt_node(r, s)] : 0);
}

/*
 * Whether candidate port @p of a switch outside the destination's zone
 * leads away from the inter-zone entry designated for it from that
 * switch's zone (else from the bridges; route_exit.c): not that port at
 * its switch, elsewhere not one hop nearer its switch.
 */
static inline bool off_entry(const struct rt *r, uint32_t p)
{
	uint32_t s = r->t->node_sw[r->t->port_node[p]], w = r->peer[p], k;
	int16_t zs;
	const uint16_t *xd;

	if (!r->xon || (zs = rt_zone(r, s)) == r->xzone)
		return false;
	k = r->xsel[zs + 1] != UINT32_MAX ? r->xsel[zs + 1] : r->xsel[0];
	if (k == UINT32_MAX)
		return false;
	if (s == r->xin_sw[k])
		return p != r->xin[k];
	xd = r->xdist + (size_t)k * r->nsw;
	return w == TOPO_NONE || xd[s] == RT_INF || xd[w] + 1u != xd[s];
}

/*
 * The first four keys (rail, inter-zone entry, preference, D-mod-K
 * target) of candidate port @p, packed so that a smaller number is a
 * better candidate.
 */
static uint32_t primary_key(const struct rt *r, const struct rt_dest *dst, uint32_t p,
			    uint32_t target)
{
	uint32_t w = r->peer[p], nw = rt_node(r, w);
	bool other_rail = r->rails && dst->rail >= 0 && r->c->level[nw] == 1 &&
			  r->c->rail[nw] >= 0 && r->c->rail[nw] != dst->rail;
	unsigned pf = r->ndesig > 1 ? pref(r, w) : RT_INF;

	if (r->c->below[r->t->port_node[p]])
		return (uint32_t)other_rail << 20;	/* out of a subtree: by load alone */
	return (uint32_t)other_rail << 20 | (uint32_t)off_entry(r, p) << 19 | pf << 1 |
	       (uint32_t)(r->dir[p] == CLS_DIR_UP && w != target);
}

/*
 * Whether primary_key() can be skipped for an up move of switch @s: with
 * no rail rule, every candidate's key is its preference, then 1 if not the
 * target.  When no switch peer of @s has a smaller preference than the
 * target, the target's candidates win (a target is a peer); when, also,
 * the target is no candidate and no peer has a preference, all tie.
 */
static bool up_by_target(const struct rt *r, uint32_t s, const struct rt_dest *dst,
			 uint32_t target)
{
	if (r->mode[s] != RM_UP || target == TOPO_NONE || (r->rails && dst->rail >= 0) ||
	    (r->xon && rt_zone(r, s) != r->xzone))	/* off_entry() decides */
		return false;
	return peer_pref(r, s) >= pref(r, target);
}

/*
 * Switch @s's candidates to up-group member @ti (an index into upg[]), in
 * candidate order, into @tie; how many.  The map of each switch's
 * candidates by member is made on first use under the current labels: a
 * scan of its candidates once per attach switch, not once per destination
 * (the 32k tree's aggregation switches reach each core over two links:
 * 32 candidates scanned for 32.5 million choices).
 */
static uint32_t target_hits(struct rt *r, uint32_t s, uint32_t ti, uint32_t *tie)
{
	uint32_t b = r->cand_off[s], n = r->cand_off[s + 1] - b, ub = r->upg_off[s], hits = 0;

	if (r->cmap_epoch[s] != r->cand_epoch) {
		r->cmap_epoch[s] = r->cand_epoch;
		for (uint32_t i = ub; i < r->upg_off[s + 1]; i++)
			r->cmap_first[i] = TOPO_NONE;
		for (uint32_t k = n; k-- > 0;) {	/* pushed in front: in order */
			uint32_t pos = rt_up_pos(r, s, r->cand_w[b + k]);

			if (pos == TOPO_NONE)	/* not a member: never a target */
				continue;
			r->cmap_next[b + k] = r->cmap_first[ub + pos];
			r->cmap_first[ub + pos] = k;
		}
	}
	for (uint32_t k = r->cmap_first[ti]; k != TOPO_NONE; k = r->cmap_next[b + k])
		tie[hits++] = k;
	return hits;
}

/*
 * up_by_target()'s keys: 0 for the candidates across which is the
 * target, upg[@ti] (target_hits()), 1 for the others; the smallest key,
 * in @tie the indices that have it, in @nmin how many.
 */
static uint32_t target_keys(struct rt *r, uint32_t s, uint32_t ti, uint32_t *tie, uint32_t *nmin)
{
	uint32_t n = r->cand_off[s + 1] - r->cand_off[s], hits = target_hits(r, s, ti, tie);

	if (hits) {
		*nmin = hits;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		tie[i] = i;
	*nmin = n;
	return 1;
}

/*
 * The candidates of @s with the smallest first keys (primary_key()): their
 * indices in @tie, in @nmin how many, in @best the first of them.  When
 * up_by_target() holds, only the target matters: its one port if that is
 * a candidate (then @tie is not filled), else target_keys().
 */
/*
 * The up-group index @dst takes at @s: D-mod-K's (rt_up_index), except that
 * a leaf sends the destinations of a lost member to the members it still
 * reaches in turn, per class, from the member's substitute, so that they
 * add one route to each up-link before any gets two (up-link spread; any
 * |group| consecutive ranks hold one destination of the lost member, so a
 * shift still loads a link at most twice).  A turn per lost member: one
 * for all, taken in alternation by two lost members whose substitutes
 * alternate too, sent every such destination to one member (a storage
 * leaf on 2 of the 4 cores of a group: 44 to 109 routes on its up-links).
 * Called once per (switch, destination): choose().
 */
static uint32_t up_index(struct rt *r, uint32_t s, const struct rt_dest *dst, uint32_t rank)
{
	uint32_t b = r->upg_off[s], m = r->upg_off[s + 1] - b, i, a, k;
	uint8_t lv = r->c->level[rt_node(r, s)];

	if (!m)
		return TOPO_NONE;
	i = rank_mod(r, lv, rank, m);
	if (lv != 1 || !r->upg_nr[s])
		return b + r->upg_alt[b + i];	/* rt_up_index() */
	a = r->upg_alt[b + i];
	if (a == i)
		return b + a;
	k = r->holes[dst->tc][b + i]++;
	return b + r->upg_reach[b + (r->upg_rix[b + a] + k) % r->upg_nr[s]];
}

static void primary_keys(struct rt *r, uint32_t s, const struct rt_dest *dst, uint32_t rank,
			 uint32_t *tie, uint32_t *nmin, uint32_t *best, bool *spill)
{
	uint32_t ncand = r->cand_off[s + 1] - r->cand_off[s], minkey = UINT32_MAX;
	const uint32_t *cand = r->cand + r->cand_off[s];
	uint32_t ti = r->ndesig > 1 && !r->c->below[rt_node(r, s)] ? up_index(r, s, dst, rank)
									  : TOPO_NONE;
	uint32_t target;

	if (ti != TOPO_NONE && lost_above_leaves(r, s, rank))
		ti = TOPO_NONE;	/* balance instead: no target */
	target = ti == TOPO_NONE ? TOPO_NONE : r->upg[ti];
	*spill = false;

	if (up_by_target(r, s, dst, target)) {
		if (r->upg_port[ti] != RT_NOPORT && next_hop(r, s, r->upg_port[ti], target) &&
		    rate_ok(r, s, r->upg_port[ti], target) &&
		    (!r->wide || no_transit(r, s, target, r->c->subtree[rt_node(r, dst->attach)]))) {
			*nmin = 1;
			*best = r->upg_port[ti];
			return;
		}
		minkey = target_keys(r, s, ti, tie, nmin);
		if (minkey == 0 || peer_pref(r, s) == RT_INF) {
			*best = cand[tie[0]];	/* the target won, or (none) all tie */
			*spill = minkey == 1;
			return;
		}
	}
	minkey = UINT32_MAX;
	for (uint32_t i = 0; i < ncand; i++) {	/* rail, preference, target first */
		uint32_t k = primary_key(r, dst, cand[i], target);

		if (k < minkey)
			minkey = k, *nmin = 0, *best = cand[i];
		if (k == minkey)
			tie[(*nmin)++] = i;
	}
	*spill = r->ndesig > 1 && (minkey & 1);	/* an up move, not to the target */
}

/* Whether switch @w is cabled to the low-speed subtree of switch @a. */
static bool enters(const struct rt *r, uint32_t w, uint32_t a)
{
	uint32_t st = r->c->subtree[rt_node(r, a)];

	if (w == TOPO_NONE)
		return false;
	for (uint32_t j = r->swp_off[w]; j < r->swp_off[w + 1]; j++)
		if (r->c->subtree[rt_node(r, r->peer[r->swp[j]])] == st)
			return true;
	return false;
}

/*
 * A destination in a low-speed subtree: of the tied candidates, the one
 * toward the switch that the routes of the fewest endpoints have entered
 * so far, over every destination of that subtree (eload; each switch
 * starts a destination with its own endpoints, which it sends on itself),
 * then the rotation from the switch's position.  The endpoints' traffic
 * into a subtree thus splits over its up-links by what each source sends,
 * not one route per source switch.
 */
static uint32_t by_entry(const struct rt *r, const uint32_t *cand, const uint32_t *tie,
			 uint32_t nmin, uint32_t ncand, uint32_t rm)
{
	uint32_t best = TOPO_NONE, brot = 0;
	uint64_t bl = 0;

	for (uint32_t j = 0; j < nmin; j++) {
		uint32_t i = tie[j], p = cand[i], w = r->peer[p], rot = rot_fast(i, ncand, rm);
		uint64_t l = w == TOPO_NONE ? UINT64_MAX : r->el[w];

		if (best == TOPO_NONE || l < bl || (l == bl && rot < brot))
			best = p, bl = l, brot = rot;
	}
	return best;
}

/*
 * The tie loop's answer, without its keys, when every tied candidate is
 * a parallel link of one group and the links' digit decides (the group's
 * load and width are the same for all, and its digit rotation differs for
 * each): the member whose index is the digit mod the group's size.
 * TOPO_NONE when that does not apply (links of several rates, routes into
 * a subtree, no digit at that level) or the member is not tied.
 */
static uint32_t group_digit_pick(const struct rt *r, uint32_t s, const uint32_t *cand,
				 const uint32_t *tie, uint32_t nmin, uint8_t lv)
{
	uint32_t p0 = cand[tie[0]], g = r->gsize[p0], grp = r->c->group[p0], w = r->peer[p0];
	uint8_t low = r->c->dir[p0] == CLS_DIR_DOWN ? r->c->level[rt_node(r, w)] : lv;
	uint32_t want;

	if (r->gcap || r->by_pos || g < 2 || r->dk_m[low] < 2 ||
	    (lv == 1 && r->c->dir[p0] == CLS_DIR_XZONE))
		return TOPO_NONE;
	want = link_digit(r, low, s) % g;
	for (uint32_t j = 1; j < nmin; j++)
		if (r->c->group[cand[tie[j]]] != grp)
			return TOPO_NONE;
	for (uint32_t j = 0; j < nmin; j++)
		if (r->gidx[cand[tie[j]]] == want)
			return cand[tie[j]];
	return TOPO_NONE;
}

/*
 * The spill key of candidate port @p (peer @w) for @dst: where D-mod-K's
 * target is not a candidate (a ToR that shares only some line ASICs with
 * the destination's), the route lands on a down-link that other
 * destinations' designated paths use.  Taking the candidate whose two
 * links to the destination's switch carry the fewest endpoints' routes so
 * far (hw-weighted, the last one by its least loaded parallel link) keeps
 * those down-links even for random traffic, as dfsssp's link weights do.
 * UINT64_MAX (no key) unless @w is next to the destination's switch
 * (farther on, @w's own choices are not made yet) and has up-links of its
 * own: a top switch missing is a hole of a two-level zone, whose entries
 * the shift refinement re-chooses with shifts in view (route_shift.c).
 */
static uint64_t spill_load(const struct rt *r, uint32_t p, uint32_t w, const struct rt_dest *dst)
{
	const uint64_t *e = r->eroutes[dst->tc];
	uint64_t down = UINT64_MAX;

	if (w == TOPO_NONE || r->dist[w] != 1 || r->upg_off[w + 1] == r->upg_off[w])
		return UINT64_MAX;
	for (uint32_t j = r->swp_off[w]; j < r->swp_off[w + 1]; j++)
		if (r->peer[r->swp[j]] == dst->attach && e[r->swp[j]] < down)
			down = e[r->swp[j]];
	return e[p] + (down == UINT64_MAX ? 0 : down);
}

/*
 * choose()'s tie loop where no key but the loads and the rotation can
 * differ (no parallel links, one link rate, no class weights, no spill
 * key, not into a subtree): the fewest routes of the class on the link,
 * then on the port, then the rotation.  The same choice, without the
 * general keys' cost (switch LIDs tie on every up-link).
 */
static uint32_t plain_ties(const struct rt *r, const uint32_t *cand, const uint32_t *tie,
			   uint32_t nmin, uint32_t ncand, uint32_t rm, unsigned tc)
{
	const uint32_t *ld = r->load[tc], *pl = r->pload[tc];
	uint32_t best = TOPO_NONE, bl = 0, bp = 0, br = 0;

	for (uint32_t j = 0; j < nmin; j++) {
		uint32_t i = tie[j], p = cand[i], l = ld[r->c->group[p]], q = pl[p];
		uint32_t rot = rot_fast(i, ncand, rm);

		if (best == TOPO_NONE || l < bl || (l == bl && (q < bp || (q == bp && rot < br))))
			best = p, bl = l, bp = q, br = rot;
	}
	return best;
}

/* The port switch @s sends @dst out of (a port index), TOPO_NONE if none. */
static uint32_t choose(struct rt *r, uint32_t s, const struct rt_dest *dst)
{
	uint32_t ncand = r->cand_off[s + 1] - r->cand_off[s], best = TOPO_NONE;
	const uint32_t *cand = r->cand + r->cand_off[s];
	uint8_t lv = r->c->level[rt_node(r, s)];
	uint32_t rank = r->dk_rank[lv], rm = 0, nmin = 0, spos = r->c->pos[rt_node(r, s)];
	uint32_t gdig = UINT32_MAX, gn = 0, gmod = 0;	/* last (digit, group size) -> digit mod size */
	uint32_t tie[TOPO_MAX_PORTS + 1];
	uint64_t skey[TOPO_MAX_PORTS + 1];	/* spill keys of the tied candidates */
	struct ckey bk = { 0, 0, 1, 0, 0, 0, 0 };
	bool spill;

	if (!ncand)
		return TOPO_NONE;
	primary_keys(r, s, dst, rank, tie, &nmin, &best, &spill);
	if (nmin > 1) {
		best = TOPO_NONE;
		rm = (rank + (dst->tc != CLS_TC_COMPUTE || lv >= r->open_lv ? spos : 0)) % ncand;
	}
	/* into a subtree: the least-entered switch (from another subtree only
	 * where the choice is the way in; elsewhere its routes leave for the
	 * fast tree, and the rotation spreads them) */
	if (r->by_pos && nmin > 1 && (r->c->subtree[rt_node(r, s)] == TOPO_NONE ||
				      enters(r, r->peer[cand[tie[0]]], dst->attach))) {
		best = by_entry(r, cand, tie, nmin, ncand, rm);
		nmin = 1;
	}
	if (nmin > 1 && (best = group_digit_pick(r, s, cand, tie, nmin, lv)) != TOPO_NONE)
		nmin = 1;
	for (uint32_t j = 0; spill && nmin > 1 && j < nmin; j++)	/* a key for all, or none */
		if ((skey[j] = spill_load(r, cand[tie[j]], r->peer[cand[tie[j]]], dst)) == UINT64_MAX)
			spill = false;
	if (nmin > 1 && !spill && !r->gcap && !r->weighted && !r->by_pos && !r->par[s]) {
		best = plain_ties(r, cand, tie, nmin, ncand, rm, dst->tc);
		nmin = 1;	/* the loop below, where every link is its own group */
	}
	for (uint32_t j = 0; j < nmin && nmin > 1; j++) {	/* ties: load, then rotations */
		uint32_t i = tie[j], p = cand[i], w = r->peer[p], g = r->gsize[p];
		uint8_t low = lv;
		struct ckey k;

		k.load = r->load[dst->tc][r->c->group[p]];	/* the whole port group's */
		k.width = dst->port || r->mode[s] >= RM_TURN ? g : 1;
		if (r->gcap)	/* links of several rates: routes per unit of rate */
			k.width = k.width > 1 ? r->gcap[p] : rt_rate(r, p);
		if (r->c->dir[p] == CLS_DIR_DOWN)	/* the digit of the lower end's level */
			low = r->c->level[rt_node(r, w)];
		/* parallel links: by the digit where D-mod-K reached this level, else by load;
		 * the tied candidates are mostly one group: one division for all */
		k.grot = 0;
		if (g > 1 && r->dk_m[low] > 1 && !(lv == 1 && r->c->dir[p] == CLS_DIR_XZONE)) {
			uint32_t dig = link_digit(r, low, s);

			if (dig != gdig || g != gn)
				gdig = dig, gn = g, gmod = dig % g;
			k.grot = rot_fast(r->gidx[p], g, gmod);
		}
		k.wload = 0;
		for (unsigned c = 0; c < CLS_TC_COUNT && r->weighted; c++)
			if (r->load[c])	/* NULL: the fabric has no destination of class c */
				k.wload += (uint64_t)r->o->class_weight[c] *
					   r->load[c][r->c->group[p]];
		k.pload = r->pload[dst->tc][p];
		k.rot = rot_fast(i, ncand, rm);
		k.spill = spill ? skey[j] : 0;
		if (r->by_pos)	/* the rotation alone: each source its own way in */
			k.load = k.pload = 0, k.wload = 0, k.grot = 0, k.spill = 0;
		if (best == TOPO_NONE || ckey_less(&k, &bk))
			best = p, bk = k;
	}
	/* above the leaves, count the routes passing through s too (inter-zone
	 * balance); a leaf balances its own routes (per-class up-link balance) */
	r->load[dst->tc][r->c->group[best]] += lv == 1 ? 1 : r->sub[s];
	/* a leaf's inter-zone link carries the routes of every switch behind
	 * the leaf: its parallel links split those, not the leaf's own */
	r->pload[dst->tc][best] += lv == 1 && r->c->dir[best] == CLS_DIR_XZONE ? r->sub[s] : 1;
	if (r->by_pos && r->peer[best] != TOPO_NONE)
		r->el[r->peer[best]] += r->hw[s];
	return best;
}

/*
 * Links of several rates: each labelled switch's best bottleneck to the
 * destination (wide[], nearest first), and only the candidates that keep
 * it and carry no transit through a low-speed subtree (no_transit()),
 * unless that leaves a switch none.  A slower link (a low-speed subtree's,
 * a trained-down one) is then taken only where every next hop under the
 * labels is as slow.
 */
static void rate_filter(struct rt *r, uint32_t dst_st)
{
	uint32_t n = 0;

	for (uint32_t i = r->norder; i-- > 0;) {
		uint32_t s = r->order[i], best = 0;

		for (uint32_t k = r->cand_off[s]; k < r->cand_off[s + 1]; k++) {
			uint32_t v = rt_rate(r, r->cand[k]), w = r->wide[r->cand_w[k]];

			if (!no_transit(r, s, r->cand_w[k], dst_st))
				continue;
			v = v < w ? v : w;
			best = v > best ? v : best;
		}
		r->wide[s] = r->mode[s] == RM_DEST ? UINT32_MAX : best;
	}
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t b = r->cand_off[s], e = r->cand_off[s + 1], n0 = n;

		r->cand_off[s] = n;
		for (uint32_t k = b; k < e; k++)
			if (rate_ok(r, s, r->cand[k], r->cand_w[k]) &&
			    no_transit(r, s, r->cand_w[k], dst_st))
				r->cand_w[n] = r->cand_w[k], r->cand[n++] = r->cand[k];
		for (uint32_t k = b; k < e && n == n0; k++)	/* none left: all of them */
			r->cand_w[n] = r->cand_w[k], r->cand[n++] = r->cand[k];
	}
	r->cand_off[r->nsw] = n;
}

/*
 * Every switch's next-hop ports under the current labels, and the
 * labelled switches by decreasing distance (once per attach switch).
 */
static void candidates(struct rt *r, uint32_t attach)
{
	uint32_t n = 0, cnt[RT_MAXD + 2] = { 0 };

	for (uint32_t s = 0; s < r->nsw; s++)
		if (r->mode[s] != RM_NONE)
			cnt[RT_MAXD - r->dist[s]]++;
	for (uint32_t d = 0, pos = 0; d <= RT_MAXD; d++) {
		uint32_t k = cnt[d];

		cnt[d] = pos;
		pos += k;
	}
	r->norder = 0;
	/* links of several rates: at one distance a subtree's switches first, so
	 * that what they send into another subtree is counted (by_entry())
	 * before the fast tree's switches choose */
	for (int pass = r->wide ? 0 : 1; pass < 2; pass++)
		for (uint32_t s = 0; s < r->nsw; s++)
			if (r->mode[s] != RM_NONE &&
			    (!r->wide || (r->c->subtree[rt_node(r, s)] == TOPO_NONE) == pass)) {
				r->order[cnt[RT_MAXD - r->dist[s]]++] = s;
				r->norder++;
			}

	for (uint32_t s = 0; s < r->nsw; s++) {
		const uint32_t *ports;
		uint32_t np;

		r->cand_off[s] = n;
		if (r->mode[s] == RM_NONE || r->mode[s] == RM_DEST)
			continue;
		ports = rt_dir_ports(r, s, mode_dir((enum rt_mode)r->mode[s]), &np);
		for (uint32_t i = 0; i < np; i++)
			if (next_hop(r, s, ports[i], r->peer[ports[i]]))
				r->cand_w[n] = r->peer[ports[i]], r->cand[n++] = ports[i];
	}
	r->cand_off[r->nsw] = n;
	if (r->wide)
		rate_filter(r, r->c->subtree[rt_node(r, attach)]);
	if (!++r->cand_epoch) {	/* wrapped: every map is stale */
		memset(r->cmap_epoch, 0, (size_t)r->nsw * sizeof(uint32_t));
		r->cand_epoch = 1;
	}
}

int rt_route_dest(struct rt *r, const struct rt_dest *dst)
{
	int rc;

	designate(r, dst);
	r->by_pos = r->c->below[rt_node(r, dst->attach)] && dst->port;
	if (r->by_pos)	/* below[] implies a subtree */
		r->el = r->eload + ((size_t)dst->tc * (r->c->nsubtrees + 1) +
				    r->c->subtree[rt_node(r, dst->attach)]) * (r->nsw + 1);
	/* labels depend only on the attach switch (and switch LID or not) */
	if (dst->attach != r->lab_attach || !dst->port != r->lab_swlid) {
		if ((rc = rt_label(r, dst)))
			return rc;
		candidates(r, dst->attach);
		r->lab_attach = dst->attach;
		r->lab_swlid = !dst->port;
	}
	if (r->rooted) {	/* no D-mod-K: balance alone; every source on VL 1 */
		if (!r->strict && r->any_above)
			return -EAGAIN;	/* route again, strict (route_root.c) */
		r->strict = true;
		r->ndesig = 1;
		r->out->rooted_lids += !dst->ghost;
		for (uint32_t g = 0; g < r->out->ngroups && !dst->ghost; g++) {
			*rt_sl(r, g, dst->lid) = RT_SL_ROOTED;
			r->sl_own[g] = 1;
		}
	}
	r->turned = false;
	for (uint32_t i = 0; i < r->norder; i++) {
		uint32_t s = r->order[i];

		r->sub[s] = 1;
		r->hw[s] = r->nep[s];
		if (r->by_pos)	/* by_entry()'s weights */
			r->el[s] += r->nep[s];
	}
	for (uint32_t i = 0; i < r->norder; i++) {	/* farthest first: weights known */
		uint32_t s = r->order[i], p;
		uint8_t e;

		switch ((enum rt_mode)r->mode[s]) {
		case RM_NONE:
			continue;
		case RM_DEST:
			e = dst->port;
			break;
		default:
			p = choose(r, s, dst);
			e = p == TOPO_NONE ? LFT_NONE : r->pnum[p];
			if (p != TOPO_NONE)
				r->eroutes[dst->tc][p] += r->hw[s];
			if (p != TOPO_NONE && r->peer[p] != TOPO_NONE) {
				r->sub[r->peer[p]] += r->sub[s];
				r->hw[r->peer[p]] += r->hw[s];
			}
			if (dst->ghost)
				break;
			r->turned |= r->mode[s] >= RM_TURN;
			if (r->mode[s] == RM_TURN || r->mode[s] == RM_ANY) {
				r->out->turn_routes++;
				*rt_sl(r, r->c->nzones + 1 + s, dst->lid) = r->mode[s] == RM_ANY ?
					rt_valley_sl(r->c) : ROUTE_SL_TURN;
				r->sl_own[r->c->nzones + 1 + s] = 1;
			}
			r->any_routes += r->mode[s] == RM_ANY;
		}
		if (e == LFT_NONE)
			return -EINVAL;	/* a label always has a next hop */
		if (dst->ghost)
			continue;
		*rt_col(r, s) = e;
		r->out->routes++;
	}
	/* a pass of the broken LIDs alone: the merge finds the rows (route_mrows.c) */
	if (r->turned && !r->o->only_lids && (rc = rt_mark_turns(r)))
		return rc;
	if (dst->ghost)
		return 0;
	r->out->turned[dst->lid] = r->turned || r->rooted;
	r->col_lid[r->ncol++] = r->lid_col ? r->lid_col[dst->lid] : dst->lid;
	if (r->ncol == LFT_COLS)
		rt_col_flush(r);
	return 0;
}

void rt_col_flush(struct rt *r)
{
	lft_cols_put(r->out->lft, r->col_lid, r->ncol, r->col);
	memset(r->col, LFT_NONE, (size_t)r->nsw * LFT_COLS);
	r->ncol = 0;
}

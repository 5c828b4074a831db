// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_label.c - the labels of every switch toward one destination's
 * switch a: a mode (which way it may go) and a distance; route_dest.c
 * takes each switch's next hop among the ports they allow.
 *
 * Labels, by bucket-queue BFS from a (each phase finishes before the
 * next; within a phase the smallest distance wins):
 *   DOWN   zone-Z switches with a down-only path to a;
 *   UP     zone-Z switches that go up to a labelled switch;
 *   TRANSIT zone-less switches (bridges) joined to labelled ones;
 *   EXIT/DOWN/UP in every other zone: switches with an inter-zone link
 *          to a labelled switch exit there; the others reach an exit
 *          down-only, or up then down;
 *   TURN   (switch LIDs only) switches that reach, going down, a switch
 *          one up-link below a: spine-to-spine routes, whose turn is
 *          their last hop (a longer up tail after the turn would ride
 *          VL 0 for CA-injected packets: credit loops, route_sl.c);
 *   UPTURN (switch LIDs only) switches that go up to a TURN switch (a
 *          leaf that lost its link to the destination spine);
 *   ANY    whatever is left but connected: any shortest hop; the
 *          verification judges these (none on the reference fabrics).
 * A switch that can go down always does, so every route inside a zone
 * is up*down*: no credit loop inside a zone (Autonet).  Routes between
 * zones are up*down* to an exit, the inter-zone link(s), then up*down*
 * in the destination zone: the SLs of route_sl.c lift the part inside
 * the destination zone to VL 1, which keeps each VL acyclic.
 *
 * Why labels and not a shortest-path tree: the modes keep every route
 * up*down* where it can be (no credit loop inside a zone) and say where it
 * cannot; the choice among the hops they allow is route_dest.c's.
 *
 * Cost: O(switch ports) per destination switch, a few passes.
 */
#include <string.h>

#include "route/route_int.h"

/* ---- bucket queue ------------------------------------------------------------- */

static void bq_reset(struct rt_bq *q)
{
	for (unsigned d = 0; d <= RT_MAXD + 1; d++)
		q->head[d] = TOPO_NONE;
	q->n = 0;
}

static void bq_push(struct rt_bq *q, unsigned d, uint32_t s)
{
	if (d > RT_MAXD || q->n >= q->cap)
		return;		/* longer than any route we keep; cap is ports + switches */
	q->v[q->n] = s;
	q->next[q->n] = q->head[d];
	q->head[d] = q->n++;
}

/* Pop the entries of distance @d one by one: returns TOPO_NONE at the end. */
static uint32_t bq_pop(struct rt_bq *q, unsigned d)
{
	uint32_t i = q->head[d];

	if (i == TOPO_NONE)
		return TOPO_NONE;
	q->head[d] = q->next[i];
	return q->v[i];
}

static void set_label(struct rt *r, uint32_t s, enum rt_mode m, unsigned d)
{
	r->nlabeled += r->mode[s] == RM_NONE;
	r->mode[s] = (uint8_t)m;
	r->dist[s] = (uint16_t)d;
	bq_push(&r->bq, d, s);
}

/* Push every labelled switch accepted by @zone_ok (z = its zone). */
static void seed(struct rt *r, int16_t zone, bool other_zones)
{
	bq_reset(&r->bq);
	for (uint32_t s = 0; s < r->nsw; s++) {
		int16_t z = rt_zone(r, s);

		if (r->mode[s] != RM_NONE && (other_zones ? z >= 0 && z != zone : z == zone))
			bq_push(&r->bq, r->dist[s], s);
	}
}

/*
 * Links of several rates: whether every inter-zone link of exit switch @u
 * toward a labelled switch runs below the full rate (a trained-down
 * cable, a slow bridge).  An up*down* way to another exit, no longer,
 * then wins over it (relax()).
 */
static bool slow_exit(const struct rt *r, uint32_t u)
{
	if (!r->wide)
		return false;
	for (uint32_t j = r->swp_off[u]; j < r->swp_off[u + 1]; j++) {
		uint32_t p = r->swp[j], y = r->peer[p];

		if (r->c->dir[p] == CLS_DIR_XZONE && r->mode[y] != RM_NONE &&
		    rt_rate(r, p) >= r->c->full_rate)
			return false;
	}
	return true;
}

/*
 * Whether exit @u going up instead would leave a switch above it, sent
 * down toward @u, without another way down (next_hop(): a down label
 * continues only into a down, exit or destination label one hop nearer).
 */
static bool strands(const struct rt *r, uint32_t u)
{
	for (uint32_t j = r->swp_off[u]; j < r->swp_off[u + 1]; j++) {
		uint32_t y = r->peer[r->swp[j]];
		bool other = false;

		if (r->c->dir[r->swp[j]] != CLS_DIR_UP || r->mode[y] != RM_DOWN ||
		    r->dist[y] != r->dist[u] + 1u)
			continue;
		for (uint32_t k = r->swp_off[y]; k < r->swp_off[y + 1] && !other; k++) {
			uint32_t z = r->peer[r->swp[k]];

			other = z != u && r->c->dir[r->swp[k]] == CLS_DIR_DOWN &&
				r->dist[z] == r->dist[u] && (r->mode[z] == RM_DOWN ||
				r->mode[z] == RM_EXIT || r->mode[z] == RM_DEST);
		}
		if (!other)
			return true;
	}
	return false;
}

/*
 * Relax along ports of direction @dir from every popped switch to
 * switches of the same zone (@exclude: not zone @ex), labelling them @m.
 * @down_only: only switches already in a down mode propagate.
 */
static void relax(struct rt *r, enum cls_dir dir, enum rt_mode m, int16_t ex, bool down_only)
{
	for (unsigned d = 0; d <= RT_MAXD; d++) {
		const uint32_t *ports;
		uint32_t s, np;

		while ((s = bq_pop(&r->bq, d)) != TOPO_NONE) {
			if (r->dist[s] != d)
				continue;	/* stale */
			if (down_only && r->mode[s] != RM_DOWN && r->mode[s] != RM_EXIT &&
			    r->mode[s] != RM_DEST)
				continue;
			ports = rt_dir_ports(r, s, dir, &np);
			for (uint32_t j = 0; j < np; j++) {
				uint32_t p = ports[j], u = r->peer[p];

				if (r->dir[p] != dir ||
				    rt_zone(r, u) != rt_zone(r, s) || rt_zone(r, u) == ex)
					continue;
				if (r->mode[u] == RM_NONE ||
				    (r->mode[u] == m && r->dist[u] > d + 1) ||
				    (m == RM_DOWN && r->mode[u] == RM_EXIT && r->dist[u] > d + 1) ||
				    (m == RM_UP && r->mode[u] == RM_EXIT && r->dist[u] >= d + 1 &&
				     slow_exit(r, u) && !strands(r, u)))
					set_label(r, u, m, d + 1);
			}
		}
	}
}

/* Switch @s is a leaf of another rail than @rail (>= 0). */
static bool other_rail_leaf(const struct rt *r, uint32_t s, int16_t rail)
{
	uint32_t n = rt_node(r, s);

	return rail >= 0 && r->c->level[n] == 1 && r->c->rail[n] >= 0 && r->c->rail[n] != rail;
}

/*
 * Zone-less switches (and, with @any, every switch) next to labelled ones.
 * @plane >= 0: not through a leaf of another rail than @plane; -2: only
 * switches still unlabelled (after a pass inside a plane).
 */
static void relax_open(struct rt *r, enum rt_mode m, bool any, int16_t plane)
{
	bq_reset(&r->bq);
	for (uint32_t s = 0; s < r->nsw; s++)
		if (r->mode[s] != RM_NONE && !other_rail_leaf(r, s, plane))
			bq_push(&r->bq, r->dist[s], s);
	for (unsigned d = 0; d <= RT_MAXD; d++) {
		uint32_t s;

		while ((s = bq_pop(&r->bq, d)) != TOPO_NONE) {
			if (r->dist[s] != d)
				continue;
			for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
				uint32_t u = r->peer[r->swp[j]];

				if ((!any && rt_zone(r, u) >= 0) || other_rail_leaf(r, u, plane))
					continue;
				if (r->mode[u] == RM_NONE ||
				    (plane != -2 && r->mode[u] == m && r->dist[u] > d + 1))
					set_label(r, u, m, d + 1);
			}
		}
	}
}

/* Other zones' exits: inter-zone links to a switch of zone @z or a bridge. */
static void seed_exits(struct rt *r, int16_t z)
{
	const struct topo *t = r->t;

	bq_reset(&r->bq);
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t n = rt_node(r, s);
		unsigned best = RT_INF;

		if (r->mode[s] != RM_NONE || rt_zone(r, s) < 0 || rt_zone(r, s) == z)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t y = rt_peer(r, p);

			if (y != TOPO_NONE && r->c->dir[p] == CLS_DIR_XZONE &&
			    r->mode[y] != RM_NONE && (rt_zone(r, y) == z || rt_zone(r, y) < 0) &&
			    r->dist[y] + 1u < best)
				best = r->dist[y] + 1u;
		}
		if (best != RT_INF)
			set_label(r, s, RM_EXIT, best);
	}
}

/* Switch destinations: which zone-@z switches go up only, then TURN labels. */
static void label_turns(struct rt *r, uint32_t a, int16_t z)
{
	memset(r->u0, 0, r->nsw);
	r->u0[a] = 1;
	seed(r, z, false);
	for (unsigned d = 1; d <= RT_MAXD; d++) {
		const uint32_t *ports;
		uint32_t s, np;

		while ((s = bq_pop(&r->bq, d)) != TOPO_NONE) {
			if (r->mode[s] != RM_UP || r->dist[s] != d)
				continue;
			ports = rt_dir_ports(r, s, CLS_DIR_UP, &np);
			for (uint32_t j = 0; j < np && !r->u0[s]; j++) {
				uint32_t p = ports[j], w = r->peer[p];

				if (w != TOPO_NONE && r->c->dir[p] == CLS_DIR_UP && r->u0[w] &&
				    r->dist[w] + 1u == d)
					r->u0[s] = 1;
			}
		}
	}
	/* turn only one hop below a: the turn is then the route's last hop,
	 * the one hop route_sl.c lifts to VL 1 for every SL */
	bq_reset(&r->bq);
	for (uint32_t s = 0; s < r->nsw; s++)
		if (r->u0[s] && r->dist[s] <= 1)
			bq_push(&r->bq, r->dist[s], s);
	relax(r, CLS_DIR_UP, RM_TURN, -2, false);
	bq_reset(&r->bq);
	for (uint32_t s = 0; s < r->nsw; s++)
		if (r->mode[s] == RM_TURN)
			bq_push(&r->bq, r->dist[s], s);
	relax(r, CLS_DIR_DOWN, RM_UPTURN, -2, false);
}

/* Labels from scratch: the destination, down-only, then up-then-down in zone @z. */
static void label_zone(struct rt *r, uint32_t a, int16_t z)
{
	memset(r->mode, RM_NONE, r->nsw);
	memset(r->u0, 0, r->nsw);
	r->nlabeled = 0;
	bq_reset(&r->bq);
	set_label(r, a, RM_DEST, 0);
	relax(r, CLS_DIR_UP, RM_DOWN, -2, true);	/* zone z: down-only */
	seed(r, z, false);
	relax(r, CLS_DIR_DOWN, RM_UP, -2, false);	/* zone z: up, then down */
}

/*
 * The rooted layer (route_root.c) instead, when some CA's switch is left
 * to the fallback: the whole destination up*down* in the root's order.
 */
static int label_rooted(struct rt *r, uint32_t a, int16_t z)
{
	int rc = rt_rooted_dirs(r);

	if (rc)
		return rc;
	r->dir = r->rdir;
	r->rooted = true;
	label_zone(r, a, z);
	if (r->nlabeled < r->nsw)
		relax_open(r, RM_ANY, true, -1);	/* not in the root's component */
	return 0;
}

int rt_label(struct rt *r, const struct rt_dest *dst)
{
	uint32_t a = dst->attach;
	int16_t z = rt_zone(r, a);

	r->dir = r->c->dir;
	r->rooted = false;
	label_zone(r, a, z);
	if (r->zoneless)
		relax_open(r, RM_TRANSIT, false, -1);	/* bridges */
	seed_exits(r, z);
	relax(r, CLS_DIR_UP, RM_DOWN, z, true);		/* other zones: to an exit */
	seed(r, z, true);
	relax(r, CLS_DIR_DOWN, RM_UP, z, false);
	if (r->zoneless)
		relax_open(r, RM_TRANSIT, false, -1);	/* bridges behind other zones */
	if (!dst->port || r->c->level[rt_node(r, a)] >= 2)	/* on a spine: turns end there */
		label_turns(r, a, z);
	/* the rest: fallback hops, inside the destination's rail plane first
	 * (a core cut from a rail's spine turned at another rail's leaf) */
	if (r->nlabeled < r->nsw && r->rails && dst->rail >= 0)
		relax_open(r, RM_ANY, true, dst->rail);
	if (r->nlabeled < r->nsw)
		relax_open(r, RM_ANY, true, r->rails && dst->rail >= 0 ? -2 : -1);
	return rt_rooted_needed(r) ? label_rooted(r, a, z) : 0;
}

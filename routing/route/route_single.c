// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_single.c - the whole fabric up*down* in one order, on one VL: the
 * routing left when the VL layers cannot be had.
 *
 * Why: zones and joined frames are routed over two VLs (route_sl.c).
 * Inside OpenSM a fabric may offer one: qos FALSE (OpenSM programs no
 * SL2VL), max_op_vls 1, or a port whose VLCap is VL 0 only.  OpenSM's
 * updn then finds no root on a two-zone fabric and minhop installs a
 * credit loop; refusing hands the fabric to them.  One Autonet order
 * keeps it deadlock-free on one VL at the price of longer paths between
 * zones and a hot root.
 *
 * Order: BFS distance from one root switch (a centre of the largest
 * connected part; build_order), ties by BFS order; a hop toward a smaller
 * key goes up.  Per destination switch d, in two sweeps
 * over the switches in key order:
 *   down[s] = hops from s to d going down only (larger keys first);
 *   any[s]  = down[s] when finite, else 1 + min any[u] over s's
 *             up-neighbours u: the hops s will really take.
 * A switch that can reach d going down does (a packet may arrive there
 * already going down, so it must not turn up); otherwise it goes up along
 * any[].  Every path is up* then down*: one order, no cycle in the
 * channel dependencies.  Among the equal next hops each LID takes the
 * port with the fewest LIDs so far (lowest port on ties): deterministic.
 * Cost O(switches x switch links + LIDs x switches).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

#define FAR UINT32_MAX

struct single {
	const struct topo *t;
	uint32_t nsw;
	uint32_t *key;		/* [nsw] rank in the root's BFS order */
	uint32_t *order;	/* [nsw] switches by key */
	uint32_t *adj_off;	/* [nsw + 1] CSR of switch links: */
	uint32_t *adj_port;	/*   the port (index) on this side */
	uint32_t *adj_sw;	/*   the switch on the other side */
	uint32_t *down, *any;	/* [nsw] per destination */
	uint32_t *load;		/* [nports] LIDs routed out of each port */
};

static uint32_t peer_sw(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]) || t->port_node[r] == t->port_node[p])
		return TOPO_NONE;
	return t->node_sw[t->port_node[r]];
}

static int build_adj(struct single *g)
{
	const struct topo *t = g->t;
	uint32_t n = 0;

	g->adj_off = calloc((size_t)g->nsw + 1, sizeof(uint32_t));
	if (!g->adj_off)
		return -ENOMEM;
	for (uint32_t pass = 0; pass < 2; pass++) {
		n = 0;
		for (uint32_t s = 0; s < g->nsw; s++) {
			uint32_t node = t->sw_node[s];

			g->adj_off[s] = n;
			for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
				uint32_t w = peer_sw(t, p);

				if (w == TOPO_NONE)
					continue;
				if (pass) {
					g->adj_port[n] = p;
					g->adj_sw[n] = w;
				}
				n++;
			}
		}
		g->adj_off[g->nsw] = n;
		if (!pass) {
			g->adj_port = malloc(((size_t)n + 1) * sizeof(uint32_t));
			g->adj_sw = malloc(((size_t)n + 1) * sizeof(uint32_t));
			if (!g->adj_port || !g->adj_sw)
				return -ENOMEM;
		}
	}
	return 0;
}

/* BFS from @start over the switches not yet ordered; appends to order[]. */
static uint32_t bfs(struct single *g, uint32_t start, uint32_t tail)
{
	uint32_t head = tail;

	g->key[start] = tail;
	g->order[tail++] = start;
	while (head < tail) {
		uint32_t s = g->order[head++];

		for (uint32_t j = g->adj_off[s]; j < g->adj_off[s + 1]; j++)
			if (g->key[g->adj_sw[j]] == FAR) {
				g->key[g->adj_sw[j]] = tail;
				g->order[tail++] = g->adj_sw[j];
			}
	}
	return tail;
}

/* Eccentricity of @s in hops (its farthest reachable switch), *@reach the switches it reaches. */
static uint32_t eccentricity(struct single *g, uint32_t s, uint32_t *reach)
{
	uint32_t n, far = 0;

	for (uint32_t k = 0; k < g->nsw; k++)
		g->key[k] = FAR;
	n = bfs(g, s, 0);
	*reach = n;
	for (uint32_t k = 0; k < n; k++)
		g->down[g->order[k]] = k ? FAR : 0;
	for (uint32_t k = 0; k < n; k++) {	/* BFS order: a hop count per switch */
		uint32_t v = g->order[k];

		for (uint32_t j = g->adj_off[v]; j < g->adj_off[v + 1]; j++)
			if (g->down[g->adj_sw[j]] == FAR)
				g->down[g->adj_sw[j]] = g->down[v] + 1;
		far = g->down[v] > far ? g->down[v] : far;
	}
	return far;
}

/*
 * Root: in the largest connected part, a centre of the switch graph
 * (least eccentricity: the paths of one order are shortest around it),
 * then the highest level, the most switch links, the lowest ordinal.  Then the root's BFS order; switches
 * it does not reach follow, each part its own BFS.
 */
static void build_order(struct single *g, const struct cls *c)
{
	uint32_t root = 0, root_ecc = FAR, root_reach = 0, tail;

	for (uint32_t s = 0; s < g->nsw; s++) {
		uint32_t reach, e = eccentricity(g, s, &reach), ds = g->adj_off[s + 1] - g->adj_off[s];
		uint32_t dr = g->adj_off[root + 1] - g->adj_off[root];
		uint8_t l = c->level[g->t->sw_node[s]], lr = c->level[g->t->sw_node[root]];

		if (reach > root_reach || (reach == root_reach && (e < root_ecc || (e == root_ecc &&
		    (l > lr || (l == lr && ds > dr)))))) {
			root = s;
			root_ecc = e;
			root_reach = reach;
		}
	}
	for (uint32_t s = 0; s < g->nsw; s++)
		g->key[s] = FAR;
	tail = g->nsw ? bfs(g, root, 0) : 0;
	for (uint32_t s = 0; s < g->nsw; s++)
		if (g->key[s] == FAR)
			tail = bfs(g, s, tail);
}

/* down[] and any[] toward destination switch @d. */
static void distances(struct single *g, uint32_t d)
{
	for (uint32_t i = g->nsw; i-- > 0;) {	/* larger keys first */
		uint32_t s = g->order[i], best = s == d ? 0 : FAR;

		for (uint32_t j = g->adj_off[s]; j < g->adj_off[s + 1] && s != d; j++) {
			uint32_t w = g->adj_sw[j];

			if (g->key[w] > g->key[s] && g->down[w] != FAR && g->down[w] + 1 < best)
				best = g->down[w] + 1;
		}
		g->down[s] = best;
	}
	for (uint32_t i = 0; i < g->nsw; i++) {		/* smaller keys first */
		uint32_t s = g->order[i], best = g->down[s];

		for (uint32_t j = g->adj_off[s]; j < g->adj_off[s + 1] && g->down[s] == FAR; j++) {
			uint32_t u = g->adj_sw[j];

			if (g->key[u] < g->key[s] && g->any[u] != FAR && g->any[u] + 1 < best)
				best = g->any[u] + 1;
		}
		g->any[s] = best;
	}
}

/* The out-port of switch @s toward destination switch @d, or TOPO_NONE. */
static uint32_t next_port(struct single *g, uint32_t s)
{
	bool go_down = g->down[s] != FAR;
	uint32_t want = go_down ? g->down[s] - 1 : g->any[s] - 1, best = TOPO_NONE;

	if (!go_down && g->any[s] == FAR)
		return TOPO_NONE;
	for (uint32_t j = g->adj_off[s]; j < g->adj_off[s + 1]; j++) {
		uint32_t w = g->adj_sw[j], p = g->adj_port[j];
		bool ok = go_down ? g->key[w] > g->key[s] && g->down[w] == want :
				    g->key[w] < g->key[s] && g->any[w] == want;

		if (ok && (best == TOPO_NONE || g->load[p] < g->load[best]))
			best = p;
	}
	return best;
}

/* Route every LID whose port hangs from (or is) destination switch @d. */
static void route_dest_switch(struct single *g, uint32_t d, const uint32_t *lids, uint32_t n,
			      struct route_out *out)
{
	const struct topo *t = g->t;

	distances(g, d);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t lid = lids[k], p = t->lid_port[lid];

		for (uint32_t s = 0; s < g->nsw; s++) {
			uint32_t q;

			if (s == d)
				q = t->port_node[p] == t->sw_node[d] ? t->port_off[t->sw_node[d]] :
					t->port_remote[p];
			else
				q = next_port(g, s);
			if (q == TOPO_NONE)
				continue;
			lft_set(out->lft, s, lid, (uint8_t)topo_port_num(t, q));
			out->routes++;
			if (s != d)
				g->load[q]++;
		}
	}
}

/* The switch a LID's port is (switch port 0) or hangs from, or TOPO_NONE. */
static uint32_t dest_switch(const struct topo *t, uint32_t lid)
{
	uint32_t p = t->lid_port[lid], r;

	if (p == TOPO_NONE)
		return TOPO_NONE;
	if (topo_is_switch(t, t->port_node[p]))
		return t->node_sw[t->port_node[p]];
	r = t->port_remote[p];
	return r != TOPO_NONE && topo_is_switch(t, t->port_node[r]) ? t->node_sw[t->port_node[r]] :
								      TOPO_NONE;
}

static void single_free(struct single *g)
{
	free(g->key);
	free(g->order);
	free(g->adj_off);
	free(g->adj_port);
	free(g->adj_sw);
	free(g->down);
	free(g->any);
	free(g->load);
}

int route_single_order(const struct topo *t, const struct cls *c, struct route_out *out)
{
	struct single g = { .t = t, .nsw = t->nswitches };
	uint32_t *lids = NULL, *first = NULL, *next = NULL;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	g.key = malloc(((size_t)g.nsw + 1) * sizeof(uint32_t));
	g.order = malloc(((size_t)g.nsw + 1) * sizeof(uint32_t));
	g.down = malloc(((size_t)g.nsw + 1) * sizeof(uint32_t));
	g.any = malloc(((size_t)g.nsw + 1) * sizeof(uint32_t));
	g.load = calloc((size_t)t->nports + 1, sizeof(uint32_t));
	lids = malloc(((size_t)t->max_lid + 1) * sizeof(uint32_t));
	first = malloc(((size_t)g.nsw + 1) * sizeof(uint32_t));
	next = malloc(((size_t)t->max_lid + 1) * sizeof(uint32_t));
	out->lft = lft_new(g.nsw, t->max_lid);
	if (!g.key || !g.order || !g.down || !g.any || !g.load || !lids || !first || !next ||
	    !out->lft || build_adj(&g))
		goto done;
	build_order(&g, c);
	for (uint32_t s = 0; s < g.nsw; s++) {
		first[s] = TOPO_NONE;
		out->lft->have[s] = 1;
	}
	for (uint32_t lid = t->max_lid; lid >= 1; lid--) {	/* per switch, LIDs ascending */
		uint32_t d = dest_switch(t, lid);

		if (d != TOPO_NONE) {
			next[lid] = first[d];
			first[d] = lid;
		}
	}
	for (uint32_t k = 0; k < g.nsw; k++) {	/* destinations in the root's order */
		uint32_t d = g.order[k], n = 0;

		for (uint32_t lid = first[d]; lid != TOPO_NONE; lid = next[lid])
			lids[n++] = lid;
		if (n)
			route_dest_switch(&g, d, lids, n, out);
	}
	out->nvls = 1;
	rc = 0;
done:
	free(lids);
	free(first);
	free(next);
	single_free(&g);
	if (rc) {
		route_out_free(out);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

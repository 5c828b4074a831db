// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_order.c - the destinations and the order they are routed in.
 *
 * Why.  D-mod-K ranks destinations in position order (zone, the attach
 * switch's position in class_pos.c, attach port, LID: the order the
 * checker's shift permutations take too), per traffic class; remembered
 * places of CAs that went away keep their ranks (ghosts, route_slots.c).
 * The routing order is that order, but for destinations whose load is
 * forced (on a switch with an inter-zone link, below a low-speed subtree,
 * the jobs' CAs that receive from another zone), which go first so the
 * others' least-loaded choices spread around them.
 *
 * Cost: O(LIDs log LIDs) to sort, O(LIDs + ports + job ranks) to order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "route/route_int.h"

/* ---- destinations ---------------------------------------------------------------- */

struct dkey {
	int16_t zone;
	bool ghost;			/* a remembered place (route_slots.c): ranked, not routed */
	uint32_t attach_node, pos;	/* pos: the attach switch's (cls pos) */
	struct rt_dest d;
};

static int cmp_dkey(const void *a, const void *b)
{
	const struct dkey *x = a, *y = b;

	if (x->zone != y->zone)
		return x->zone < y->zone ? -1 : 1;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->d.port != y->d.port)
		return x->d.port < y->d.port ? -1 : 1;
	return x->d.lid < y->d.lid ? -1 : x->d.lid > y->d.lid;
}

/* Key of LID @lid on switch node @sw (zone, position). */
static void dkey_at(const struct topo *t, const struct cls *c, struct dkey *k, uint32_t sw,
		    uint32_t lid)
{
	k->zone = c->zone[sw];
	k->attach_node = sw;
	k->pos = c->pos[sw];
	k->d.attach = t->node_sw[sw];
	k->d.lid = lid;
}

/* Remembered places whose port is free now, one key per LID (lid 0..nlids-1: order only). */
static uint32_t ghosts(const struct topo *t, const struct cls *c, const struct route_opts *o,
		       struct dkey *k)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < o->nslots; i++) {
		uint32_t p = rt_slot_port(t, &o->slots[i]);

		for (uint32_t j = 0; p != TOPO_NONE && j < o->slots[i].nlids; j++, n++) {
			memset(&k[n], 0, sizeof(k[n]));
			dkey_at(t, c, &k[n], t->port_node[p], 0);
			k[n].d.lid = j;	/* order within the place; routed as LID 0 */
			k[n].ghost = true;
			k[n].d.ghost = true;
			k[n].d.port = (uint8_t)topo_port_num(t, p);
			k[n].d.tc = o->slots[i].tc < CLS_TC_COUNT ? o->slots[i].tc : CLS_TC_OTHER;
			k[n].d.rail = o->slots[i].rail;
		}
	}
	return n;
}

/*
 * Every routable LID, in position order, ranked per class; remembered
 * places whose CA is away take their ranks too (route_slots.c).
 */
struct rt_dest *rt_destinations(const struct topo *t, const struct cls *c,
				    const struct route_opts *o, uint32_t *nd)
{
	size_t nghost = 0;
	struct dkey *k;
	struct rt_dest *d;
	uint32_t n = 0, m = 0, rank[2 * CLS_TC_COUNT] = { 0 };

	for (uint32_t i = 0; i < o->nslots; i++)
		nghost += o->slots[i].nlids;
	k = malloc(((size_t)t->max_lid + 1 + nghost) * sizeof(*k));
	if (!k)
		return NULL;
	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		uint32_t p = t->lid_port[lid], node, r, sw;

		if (p == TOPO_NONE)
			continue;
		node = t->port_node[p];
		k[n].ghost = false;
		k[n].d.ghost = false;
		if (topo_is_switch(t, node)) {
			sw = node;
			k[n].d.port = 0;
			k[n].d.tc = CLS_TC_OTHER;
			k[n].d.rail = -1;
		} else {
			r = t->port_remote[p];
			if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
				continue;	/* not behind a switch: no switch can reach it */
			sw = t->port_node[r];
			k[n].d.port = (uint8_t)topo_port_num(t, r);
			k[n].d.tc = (uint8_t)cls_tclass_of((enum cls_role)c->role[node]);
			k[n].d.rail = c->rail[node];
		}
		dkey_at(t, c, &k[n++], sw, lid);
	}
	n += ghosts(t, c, o, k + n);
	qsort(k, n, sizeof(*k), cmp_dkey);
	d = malloc(((size_t)n + 1) * sizeof(*d));
	/* destinations on leaves and the others (spine LIDs, the hosts of low-speed
	 * subtrees) ranked apart: a leaf's full-rate hosts keep consecutive ranks.
	 * A port's LIDs (LMC) share its rank, plus their offset: the base LIDs
	 * are ranked as with LMC 0 (each offset's LIDs are consecutive ranks,
	 * spread over every up-link), and offset j of a port takes the path of
	 * rank + j, another than its base LID's */
	for (uint32_t i = 0, base = 0, off = 0; d && i < n; i++) {
		uint32_t an = k[i].attach_node;
		bool run = i && an == k[i - 1].attach_node && k[i].d.port == k[i - 1].d.port &&
			   k[i].ghost == k[i - 1].ghost;

		d[m] = k[i].d;
		off = run ? off + 1 : 0;
		if (!run)
			base = rank[d[m].tc + (c->level[an] == 1 && c->subtree[an] == TOPO_NONE
					       ? 0 : CLS_TC_COUNT)]++;
		d[m].rank = base + off;
		if (d[m].ghost)
			d[m].lid = 0;
		m++;
	}
	free(k);
	*nd = m;
	return d;
}

/*
 * Keep the destinations that are present and, with @only ([lid]), marked
 * (in order); their count.
 */
uint32_t rt_drop_ghosts(struct rt_dest *d, uint32_t nd, const uint8_t *only)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < nd; i++)
		if (!d[i].ghost && (!only || only[d[i].lid]))
			d[m++] = d[i];
	return m;
}

/*
 * CAs of the jobs that receive transfers from another zone (the ends of
 * tree edges or ring neighbours in two zones): @mark[node] = 1.
 */
static int job_crossers(const struct rt *r, uint8_t *mark)
{
	const struct chk_jobs *J = r->o->jobs;

	for (uint32_t q = 0; J && q < J->n; q++) {
		const uint32_t *v = J->node + J->off[q];
		uint32_t n = J->off[q + 1] - J->off[q];
		int32_t *par = malloc(((size_t)n + 1) * sizeof(*par));
		uint32_t *dep = malloc(((size_t)n + 1) * sizeof(*dep));

		if (!par || !dep) {
			free(par);
			free(dep);
			return -ENOMEM;
		}
		for (int tree = 0; tree < (J->coll[q] == CHK_COLL_RING ? 1 : 2); tree++) {
			if (J->coll[q] == CHK_COLL_RING)
				for (uint32_t i = 0; i < n; i++)
					par[i] = (int32_t)((i + 1) % n);
			else if (chk_dbt_tree(n, tree, par, dep) < 0)
				continue;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t a = v[i], b;

				if (par[i] < 0)
					continue;
				b = v[par[i]];
				if (r->c->zone[a] == r->c->zone[b])
					continue;
				mark[b] = 1;	/* a tree edge carries both ways; a ring one way */
				if (J->coll[q] != CHK_COLL_RING)
					mark[a] = 1;
			}
		}
		free(par);
		free(dep);
	}
	return 0;
}

/*
 * Destinations whose load is forced, routed first, so that the others'
 * choices (least loaded first) spread around it: between zones, one on a
 * switch with an inter-zone link (every route from the other side takes
 * that link: the minimal path); one in a low-speed subtree hanging below
 * (its routes from another subtree can only take the parents the two
 * share).  Before them, the jobs' CAs that receive from another zone
 * (those whose load is forced first): routed onto unloaded inter-zone
 * paths, they take distinct ones.
 * Stable: the rest keep position order; ranks are unchanged.
 */
int rt_forced_first(const struct rt *r, struct rt_dest *d, uint32_t nd)
{
	const struct topo *t = r->t;
	struct rt_dest *tmp = malloc(((size_t)nd + 1) * sizeof(*tmp));
	uint8_t *first = calloc((size_t)r->nsw + 1, 1);
	uint8_t *cross = calloc((size_t)t->nnodes + 1, 1);
	uint32_t n = 0;

	if (!tmp || !first || !cross || job_crossers(r, cross)) {
		free(tmp);
		free(first);
		free(cross);
		return -ENOMEM;
	}
	for (uint32_t p = 0; p < t->nports; p++)
		if (r->c->dir[p] == CLS_DIR_XZONE && topo_is_switch(t, t->port_node[p]))
			first[t->node_sw[t->port_node[p]]] = 1;
	for (uint32_t s = 0; s < r->nsw; s++)
		first[s] |= r->c->below[t->sw_node[s]];
	for (int pass = 3; pass >= 0; pass--)
		for (uint32_t i = 0; i < nd; i++) {
			uint32_t node = d[i].lid ? t->port_node[t->lid_port[d[i].lid]] : TOPO_NONE;
			int p = first[d[i].attach] + (node != TOPO_NONE && cross[node] ? 2 : 0);

			if (p == pass)
				tmp[n++] = d[i];
		}
	memcpy(d, tmp, (size_t)nd * sizeof(*d));
	free(tmp);
	free(first);
	free(cross);
	return 0;
}

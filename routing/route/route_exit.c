// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_exit.c - the inter-zone link each compute destination is entered
 * by, D-mod-K style.
 *
 * Why.  A shift permutation over the whole fabric sends, from one zone to
 * the other, flows into a run of consecutive compute destinations.  Its
 * bound is that run over the inter-zone links into the zone.  Spreading
 * the routes over those links by counts (route_dest.c's load) balances
 * all-pairs traffic but not each shift: on Fire-Flyer 2 cabled leaf to
 * leaf (another generator's, 16 links) the shifts' mean was 22.95 against
 * a bound of 19.69, dfsssp 21.34.
 *
 * What.  Per zone entered and zone the link comes from (zone-less
 * bridges apart), the switch-to-switch ports that enter, in position
 * order (of the switch outside, then of the one inside, then the index
 * among parallel links); a compute destination of D-mod-K rank i is
 * designated, in each such group, port i mod the group's size, so any
 * run of consecutive destinations is spread over them evenly.  Per
 * entering port, every switch's hops to the port's switch over switches
 * outside the zone (BFS).  choose() then prefers, at a switch of another
 * zone, the candidates one hop nearer the designated port of its own
 * zone's group (else of the bridges' group), and there the port itself:
 * a preference among the candidates the labels give (shortest legal
 * paths), never a longer path.  Where none of them leads there, or the
 * switch's zone has no group into the destination's, the usual keys
 * decide.  Other classes keep the load-based spread.
 *
 * Cost: O(entering ports x (switches + links)) once, O(zones) per
 * destination, O(1) per choice.  Skipped with one zone, more than
 * RT_XZONES, or beyond RX_MAX_CELLS distances.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

#define RX_MAX_CELLS (16u << 20)	/* entering ports x switches at most (32 MiB) */

struct rx_port {
	uint32_t group, port, sw, pos_out, pos_in, gidx;
};

static int cmp_rx(const void *a, const void *b)
{
	const struct rx_port *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->pos_out != y->pos_out)
		return x->pos_out < y->pos_out ? -1 : 1;
	if (x->pos_in != y->pos_in)
		return x->pos_in < y->pos_in ? -1 : 1;
	if (x->gidx != y->gidx)
		return x->gidx < y->gidx ? -1 : 1;
	return x->port < y->port ? -1 : x->port > y->port;
}

/* Hops from every switch to @u over switches outside zone @z into @d (RT_INF: none). */
static void rx_bfs(const struct rt *r, uint32_t u, int16_t z, uint16_t *d, uint32_t *q)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < r->nsw; s++)
		d[s] = RT_INF;
	d[u] = 0;
	q[tail++] = u;
	while (head < tail) {
		uint32_t s = q[head++];

		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
			uint32_t w = r->peer[r->swp[j]];

			if (w == TOPO_NONE || d[w] != RT_INF || rt_zone(r, w) == z)
				continue;
			d[w] = (uint16_t)(d[s] + 1);
			q[tail++] = w;
		}
	}
}

/* Group of a port from a switch of zone @out into zone @in (see the top). */
static inline uint32_t rx_group(const struct rt *r, int16_t in, int16_t out)
{
	return (uint32_t)in * (r->c->nzones + 1) + (uint32_t)(out + 1);
}

/* The ports entering each zone, sorted by group (see the top); r->xin_off. */
static int rx_ports(struct rt *r, struct rx_port **out, uint32_t *nout)
{
	uint32_t ng = r->c->nzones * (r->c->nzones + 1), n = 0;
	struct rx_port *v;

	v = malloc(((size_t)r->swp_off[r->nsw] + 1) * sizeof(*v));
	r->xin_off = calloc((size_t)ng + 1, sizeof(*r->xin_off));
	if (!v || !r->xin_off) {
		free(v);
		return -ENOMEM;
	}
	for (uint32_t s = 0; s < r->nsw; s++)
		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
			uint32_t p = r->swp[j], w = r->peer[p], g;

			if (w == TOPO_NONE || rt_zone(r, w) < 0 || rt_zone(r, w) == rt_zone(r, s))
				continue;
			g = rx_group(r, rt_zone(r, w), rt_zone(r, s));
			v[n++] = (struct rx_port){ g, p, s, r->c->pos[rt_node(r, s)],
						    r->c->pos[rt_node(r, w)], r->gidx[p] };
			r->xin_off[g + 1]++;
		}
	qsort(v, n, sizeof(*v), cmp_rx);
	for (uint32_t g = 0; g < ng; g++)
		r->xin_off[g + 1] += r->xin_off[g];
	*out = v;
	*nout = n;
	return 0;
}

int rt_exits(struct rt *r)
{
	struct rx_port *v = NULL;
	uint32_t n = 0, *q = NULL;
	int rc;

	r->xon = false;
	if (r->c->nzones < 2 || r->c->nzones > RT_XZONES)
		return 0;
	rc = rx_ports(r, &v, &n);
	if (!rc && (!n || (uint64_t)n * r->nsw > RX_MAX_CELLS)) {
		free(v);
		free(r->xin_off);
		r->xin_off = NULL;
		return 0;
	}
	if (!rc) {
		r->xin = malloc((size_t)n * sizeof(*r->xin));
		r->xin_sw = malloc((size_t)n * sizeof(*r->xin_sw));
		r->xdist = malloc((size_t)n * r->nsw * sizeof(*r->xdist));
		q = malloc((size_t)r->nsw * sizeof(*q));
		if (!r->xin || !r->xin_sw || !r->xdist || !q)
			rc = -ENOMEM;
	}
	for (uint32_t k = 0; !rc && k < n; k++) {	/* sorted: the groups' CSR order */
		r->xin[k] = v[k].port;
		r->xin_sw[k] = v[k].sw;
		rx_bfs(r, v[k].sw, rt_zone(r, r->peer[v[k].port]), r->xdist + (size_t)k * r->nsw, q);
	}
	free(v);
	free(q);
	return rc;
}

void rt_exits_free(struct rt *r)
{
	free(r->xin_off);
	free(r->xin);
	free(r->xin_sw);
	free(r->xdist);
}

void rt_exit_designate(struct rt *r, const struct rt_dest *dst)
{
	int16_t z = rt_zone(r, dst->attach);

	r->xon = false;
	if (!r->xin_off || dst->tc != CLS_TC_COMPUTE || z < 0)
		return;
	r->xzone = z;
	for (int16_t o = -1; o < (int16_t)r->c->nzones; o++) {
		uint32_t g = rx_group(r, z, o), n = r->xin_off[g + 1] - r->xin_off[g];

		r->xsel[o + 1] = n ? r->xin_off[g] + dst->rank % n : UINT32_MAX;
		r->xon |= n > 0;
	}
}

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
 * What.  Per zone, the switch-to-switch ports that enter it from outside,
 * in position order (of the switch outside, then of the one inside, then
 * the index among parallel links); compute destination number i of the
 * zone is designated port i mod their count, so any run of consecutive
 * destinations is spread over them evenly.  Per entering port, every
 * switch's hops to the port's switch over switches outside the zone
 * (BFS).  choose() then prefers, at a switch outside the destination's
 * zone, the candidates one hop nearer that switch, and there the port
 * itself: a preference among the candidates the labels give (shortest
 * legal paths), never a longer path.  Where none of them leads there, the
 * usual keys decide.  Other classes keep the load-based spread.
 *
 * Cost: O(entering ports x (switches + links)) once, O(1) per choice.
 * Skipped with one zone, or beyond RX_MAX_CELLS distances.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

#define RX_MAX_CELLS (16u << 20)	/* entering ports x switches at most (32 MiB) */

struct rx_port {
	uint32_t port, sw, pos_out, pos_in, gidx;
};

static int cmp_rx(const void *a, const void *b)
{
	const struct rx_port *x = a, *y = b;

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

/* The ports entering each zone, sorted (see the top), into r->xin_off / xin / xin_sw. */
static int rx_ports(struct rt *r, struct rx_port **out, uint32_t *nout)
{
	uint32_t nz = r->c->nzones, n = 0;
	struct rx_port *v;

	v = malloc(((size_t)r->swp_off[r->nsw] + 1) * sizeof(*v));
	r->xin_off = calloc((size_t)nz + 1, sizeof(*r->xin_off));
	if (!v || !r->xin_off) {
		free(v);
		return -ENOMEM;
	}
	n = 0;
	for (uint32_t s = 0; s < r->nsw; s++)
		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
			uint32_t p = r->swp[j], w = r->peer[p];

			if (w == TOPO_NONE || rt_zone(r, w) < 0 || rt_zone(r, w) == rt_zone(r, s))
				continue;
			v[n++] = (struct rx_port){ p, s, r->c->pos[rt_node(r, s)],
						    r->c->pos[rt_node(r, w)], r->gidx[p] };
			r->xin_off[rt_zone(r, w) + 1]++;
		}
	qsort(v, n, sizeof(*v), cmp_rx);
	for (uint32_t z = 0; z < nz; z++)
		r->xin_off[z + 1] += r->xin_off[z];
	*out = v;
	*nout = n;
	return 0;
}

int rt_exits(struct rt *r)
{
	struct rx_port *v = NULL;
	uint32_t n = 0, *fill = NULL, *q = NULL;
	int rc;

	r->xport = TOPO_NONE;
	if (r->c->nzones < 2)
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
		fill = calloc(r->c->nzones, sizeof(*fill));
		q = malloc((size_t)r->nsw * sizeof(*q));
		if (!r->xin || !r->xin_sw || !r->xdist || !fill || !q)
			rc = -ENOMEM;
	}
	for (uint32_t i = 0; !rc && i < n; i++) {	/* stable: position order per zone */
		int16_t z = rt_zone(r, r->peer[v[i].port]);
		uint32_t k = r->xin_off[z] + fill[z]++;

		r->xin[k] = v[i].port;
		r->xin_sw[k] = v[i].sw;
		rx_bfs(r, v[i].sw, z, r->xdist + (size_t)k * r->nsw, q);
	}
	free(v);
	free(fill);
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
	uint32_t n, k;

	r->xport = TOPO_NONE;
	if (!r->xin_off || dst->tc != CLS_TC_COMPUTE || z < 0 ||
	    !(n = r->xin_off[z + 1] - r->xin_off[z]))
		return;
	k = r->xin_off[z] + dst->rank % n;
	r->xzone = z;
	r->xport = r->xin[k];
	r->xtail = r->xin_sw[k];
	r->xd = r->xdist + (size_t)k * r->nsw;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_mincut.c - for every ordered pair of leaves (a, b), how many of a's
 * switch links start a shortest switch path to b, and how many of b's end
 * one.  A routing whose routes are all shortest paths sends every flow
 * from a to b over those links, so f such flows load one of them with at
 * least ceil(f / count): the shortest-path part of the shift bound
 * (shift_lb_sp_*, ffroute(1)), and the bound route_tshift.c searches to
 * where every route between leaves is a shortest path.
 *
 * Why: on ToRs under directors whose line cards overlap in windows, two
 * ToRs that share one line ASIC per director reach each other in two hops
 * through those two only, and a shift that sends all 16 hosts of one to
 * the other loads them with 8 flows each whatever the minimal routing;
 * the cut bound (1) says nothing of it.
 *
 * Cost: one BFS over the switches per leaf, then each leaf's links looked
 * at once per leaf: O(leaves x (switches + links) + leaves^2 x radix);
 * memory O(leaves^2) for the counts, distances and a bound's scratch
 * counts (32 MiB at the cap of 2,048 leaves); a bound O(its flows).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

/* Hop distances over switch links from switch @src into @d[nswitches]; @q scratch. */
static void bfs(const struct topo *t, uint32_t src, uint16_t *d, uint32_t *q)
{
	uint32_t h = 0, n = 0;

	memset(d, 0xff, (size_t)t->nswitches * sizeof(*d));
	d[src] = 0;
	q[n++] = src;
	while (h < n) {
		uint32_t s = q[h++], node = t->sw_node[s];

		for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
			uint32_t r = t->port_remote[p], w;

			if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
				continue;
			w = t->node_sw[t->port_node[r]];
			if (d[w] == UINT16_MAX) {
				d[w] = (uint16_t)(d[s] + 1);
				q[n++] = w;
			}
		}
	}
}

/* Links of switch @s to a switch one hop nearer by @d (distances to the other end). */
static uint16_t toward(const struct topo *t, uint32_t s, const uint16_t *d)
{
	uint32_t node = t->sw_node[s];
	uint16_t n = 0;

	for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
		uint32_t r = t->port_remote[p];

		if (r != TOPO_NONE && topo_is_switch(t, t->port_node[r]) &&
		    d[t->node_sw[t->port_node[r]]] + 1u == d[s])
			n++;
	}
	return n;
}

int chk_mincut_build(const struct topo *t, const uint32_t *leaves, uint32_t nl, struct chk_mincut *m)
{
	uint16_t *d = malloc(((size_t)t->nswitches + 1) * sizeof(*d));
	uint32_t *q = malloc(((size_t)t->nswitches + 1) * sizeof(*q));
	size_t nn = (size_t)nl * nl + 1;

	memset(m, 0, sizeof(*m));
	if (nl <= CHK_MINCUT_MAX_LEAVES && d && q) {
		m->idx = malloc(((size_t)t->nswitches + 1) * sizeof(*m->idx));
		m->toward = malloc(nn * sizeof(*m->toward));
		m->dist = malloc(nn * sizeof(*m->dist));
		m->cnt = calloc(nn, sizeof(*m->cnt));
	}
	if (!d || !q || (nl <= CHK_MINCUT_MAX_LEAVES &&
			 (!m->idx || !m->toward || !m->dist || !m->cnt))) {
		free(d);
		free(q);
		chk_mincut_free(m);
		return -ENOMEM;
	}
	if (nl <= CHK_MINCUT_MAX_LEAVES) {
		m->nl = nl;
		memset(m->idx, 0xff, (size_t)t->nswitches * sizeof(*m->idx));
		for (uint32_t a = 0; a < nl; a++)
			m->idx[leaves[a]] = a;
	}
	for (uint32_t a = 0; a < m->nl; a++) {	/* distances to a: every b's links toward a */
		bfs(t, leaves[a], d, q);
		for (uint32_t b = 0; b < nl; b++) {
			bool reach = a != b && d[leaves[b]] != UINT16_MAX;

			m->toward[(size_t)b * nl + a] = reach ? toward(t, leaves[b], d) : 0;
			m->dist[(size_t)b * nl + a] = d[leaves[b]];
		}
	}
	free(d);
	free(q);
	return 0;
}

void chk_mincut_free(struct chk_mincut *m)
{
	free(m->idx);
	free(m->toward);
	free(m->dist);
	free(m->cnt);
	memset(m, 0, sizeof(*m));
}

uint32_t chk_mincut_bound(struct chk_mincut *m, const uint64_t *pairs, uint32_t n)
{
	uint32_t lb = 0;

	if (!m->nl)
		return 0;
	for (uint32_t i = 0; i < n; i++)	/* flows per (leaf, leaf): counted, not sorted */
		m->cnt[(size_t)(pairs[i] >> 32) * m->nl + (uint32_t)pairs[i]]++;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = (uint32_t)(pairs[i] >> 32), b = (uint32_t)pairs[i], f, fa, la;
		size_t ab = (size_t)a * m->nl + b;

		if (!(f = m->cnt[ab]))
			continue;	/* the pair's first flow took them */
		m->cnt[ab] = 0;		/* zero again for the next call */
		fa = m->toward[ab];	/* a's links toward b */
		la = m->toward[(size_t)b * m->nl + a];	/* b's links toward a: the last hops */
		if (fa && (f + fa - 1) / fa > lb)
			lb = (f + fa - 1) / fa;
		if (la && (f + la - 1) / la > lb)
			lb = (f + la - 1) / la;
	}
	return lb;
}

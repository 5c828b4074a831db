// SPDX-License-Identifier: BSD-2-Clause
/*
 * class_pos.c - the position order of switches, from the graph.
 *
 * Why.  D-mod-K makes shift permutations contention-free when the ranks
 * it spreads are numbered so that every subtree's endpoints are
 * consecutive: the hosts of a leaf, then the leaves of a pod (the leaves
 * under one set of aggregation switches), and so on up.  The engine ranks
 * destinations, and the checker orders the shifts' endpoints, by this
 * order.  Node order alone (by GUID) is no such numbering: on a real
 * fabric switch GUIDs say nothing about where a switch is cabled, and a
 * 3-level tree whose pods' leaves interleave by GUID loses D-mod-K's
 * property (full 3-level rail fabric relabelled by tests/lib/relabel.awk:
 * shift max 8 instead of 1, HFReduce's tree 24 flows on a link instead of
 * 4; with route_pos.c's columns and these positions, 1 and 4).
 *
 * What.  For each level l from the top switch level - 1 down to 2, the
 * connected parts of the switch graph restricted to levels 1..l (a pod is
 * one part at l = 2 on a 3-level tree), each named by its lowest node
 * index.  Switches sort by those names from the highest l down (a switch
 * above l, a core at l = 2, or of unknown level sorts after every part),
 * then higher levels first, then by node index: on a 2-level tree the
 * spines, then the leaves, each in node order.  Names and tie-breaks are
 * node indices, so the order depends on the graph and, for ties, on the
 * GUIDs: not on file order, port numbers or descriptions.  Higher levels
 * first, because the engine routes destinations in this order and its
 * greedy balance spreads switch LIDs best that way on the frame (7
 * switch-LID routes per link at most, 13 with leaves first).
 *
 * The parts stay in cls.part: the checker's shift lower bound counts the
 * links out of each (chk_shift.c).
 *
 * Cost: O((levels - 2) x (switches + switch links) + S log S).
 */
#include <errno.h>
#include <stdlib.h>

#include <ffroute/class.h>

#include "class/class_int.h"

/* uf: the parts of the switches of levels 1..@l, each rooted at its lowest node. */
static void parts(const struct topo *t, const struct cls *c, unsigned l, uint32_t *uf)
{
	for (uint32_t n = 0; n < t->nnodes; n++)
		uf[n] = n;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (!topo_is_switch(t, n) || !c->level[n] || c->level[n] > l)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p), a, b;

			if (q == TOPO_NONE || !c->level[q] || c->level[q] > l)
				continue;
			a = cls_uf_find(uf, n);
			b = cls_uf_find(uf, q);
			if (a != b) {	/* the lower index is the root: the part's name */
				if (a < b)
					uf[b] = a;
				else
					uf[a] = b;
			}
		}
	}
}

struct pkey {
	const uint32_t *name;	/* [nk]: the part at each grouping level, highest first */
	uint32_t node;
	unsigned nk;
	uint8_t down;		/* 255 - level: higher levels first; unknown (0) last */
};

static int cmp_pkey(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;

	for (unsigned i = 0; i < x->nk; i++)
		if (x->name[i] != y->name[i])
			return x->name[i] < y->name[i] ? -1 : 1;
	if (x->down != y->down)
		return x->down < y->down ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

int cls_positions(const struct topo *t, struct cls *c)
{
	unsigned nk = c->nlevels > 2 ? c->nlevels - 2u : 0;	/* levels nlevels-1 .. 2 */
	size_t nn = (size_t)t->nnodes + 1;
	uint32_t *uf = malloc(nn * sizeof(*uf)), *names = malloc(nn * (nk + 1) * sizeof(*names));
	struct pkey *k = malloc(nn * sizeof(*k));
	uint32_t ns = 0;

	c->pos = malloc(nn * sizeof(*c->pos));
	c->part = names;
	c->npartlv = nk;
	if (!uf || !names || !k || !c->pos) {
		free(uf);
		free(k);
		return -ENOMEM;	/* cls_free frees pos and part */
	}
	for (unsigned i = 0; i < nk; i++) {
		unsigned l = c->nlevels - 1u - i;

		parts(t, c, l, uf);
		for (uint32_t n = 0; n < t->nnodes; n++)
			names[(size_t)n * nk + i] = topo_is_switch(t, n) && c->level[n] &&
							    c->level[n] <= l ?
						    cls_uf_find(uf, n) : UINT32_MAX;
	}
	for (uint32_t n = 0; n < t->nnodes; n++) {
		c->pos[n] = TOPO_NONE;
		if (topo_is_switch(t, n))
			k[ns++] = (struct pkey){ names + (size_t)n * nk, n, nk,
						 (uint8_t)(c->level[n] ? 255 - c->level[n] : 255) };
	}
	qsort(k, ns, sizeof(*k), cmp_pkey);
	for (uint32_t i = 0; i < ns; i++)
		c->pos[k[i].node] = i;
	free(uf);
	free(k);
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_root.c - the rooted layer: up*down* from one root switch, for the
 * destinations that levels cannot reach without a turn.
 *
 * Why: on a degraded tree a leaf can lose every up-link into the part of
 * the tree its destination still hangs from (a 3-level tree whose pods
 * are split into planes: a leaf that lost its plane-1 link and one that
 * lost its plane-2 link).  Up*down* by levels then has no path between
 * their CAs and any route needs a down->up turn.  OpenSM's updn leaves
 * such pairs unreachable; minhop makes credit loops.
 *
 * Autonet's answer: order the switches by (BFS distance from one root,
 * switch ordinal) - ordinals follow node GUIDs, so the order is the
 * graph's, not the input's - and call "up" the direction toward the
 * smaller key.  Every switch of the root's component then reaches every
 * other one up*down*, and the channel dependencies of all up*down* routes
 * under one such order are acyclic.  A destination some CA would reach
 * only with a turn is routed whole in this order, on an SL of its own
 * (RT_SL_ROOTED) that every port maps to VL 1; the other destinations
 * stay on levels and VL 0.  Each VL then holds up*down* routes of one
 * order only: no credit loop, whichever destinations take the layer.
 * Only on one-zone fabrics, where VL 1 carries nothing else but the last
 * hops of switch-LID turns (route_sl.c), which end at their destination.
 * With rail isolation too (a SuperPOD-style tree that lost a spine and a
 * core: switch-LID routes from the spines of one rail group to a core
 * turned two levels below it, which VL 1's last-hop rule does not cover):
 * rooted routes ignore rail planes, and the verification judges them.
 * CAs cabled above the leaves (SHARP nodes) share their switch's source
 * group and its turn SL (route_sl.c): they need the layer only once it
 * is in use (rt_rooted_needed).
 *
 * Root: a switch of the highest level with the most switch links (the
 * lowest ordinal among equals): the centre of a tree, so rooted routes
 * stay short.  Cost: one BFS, O(switches + ports), built on first use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

static uint32_t pick_root(const struct rt *r)
{
	uint32_t best = TOPO_NONE;

	for (uint32_t s = 0; s < r->nsw; s++) {
		uint8_t l = r->c->level[rt_node(r, s)], lb;

		if (best == TOPO_NONE) {
			best = s;
			continue;
		}
		lb = r->c->level[rt_node(r, best)];
		if (l > lb || (l == lb && r->swp_off[s + 1] - r->swp_off[s] >
					  r->swp_off[best + 1] - r->swp_off[best]))
			best = s;
	}
	return best;
}

int rt_rooted_dirs(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t *dist, *queue, head = 0, tail = 0, root = pick_root(r);

	if (r->rdir)
		return 0;
	r->rdir = malloc((size_t)t->nports + 1);
	dist = malloc(((size_t)r->nsw + 1) * sizeof(uint32_t));
	queue = malloc(((size_t)r->nsw + 1) * sizeof(uint32_t));
	if (!r->rdir || !dist || !queue) {
		free(dist);
		free(queue);
		return -ENOMEM;
	}
	memcpy(r->rdir, r->c->dir, t->nports);
	for (uint32_t s = 0; s < r->nsw; s++)
		dist[s] = UINT32_MAX;
	if (root != TOPO_NONE) {
		dist[root] = 0;
		queue[tail++] = root;
	}
	while (head < tail) {
		uint32_t s = queue[head++];

		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
			uint32_t w = r->peer[r->swp[j]];

			if (dist[w] == UINT32_MAX) {
				dist[w] = dist[s] + 1;
				queue[tail++] = w;
			}
		}
	}
	for (uint32_t s = 0; s < r->nsw; s++)
		for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++) {
			uint32_t p = r->swp[j], w = r->peer[p];
			bool up = dist[w] < dist[s] || (dist[w] == dist[s] && w < s);

			r->rdir[p] = (uint8_t)(up ? CLS_DIR_UP : CLS_DIR_DOWN);
		}
	free(dist);
	free(queue);
	return 0;
}

/*
 * A CA above the leaves shares its switch's turn SL (route_sl.c), whose
 * fallback routes may step from VL 1 back to VL 0 after their peak: safe
 * while VL 1 holds only turn tails, not once the layer uses it.  So once
 * the layer is in use (strict) such a CA's fallback takes the layer too;
 * a fallback of that kind met before the first rooted LID (any_above)
 * makes the caller route again, strict from the start.
 */
bool rt_rooted_needed(struct rt *r)
{
	bool need = false;

	if (!r->rooted_ok)
		return false;
	for (uint32_t s = 0; s < r->nsw && !need; s++) {
		if (r->mode[s] != RM_ANY)
			continue;
		need = (r->has_ca[s] & RT_CA_LEAF) || (r->strict && r->has_ca[s]);
		r->any_above |= (r->has_ca[s] & RT_CA_ABOVE) != 0;
	}
	return need;
}

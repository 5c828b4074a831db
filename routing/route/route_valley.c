// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_valley.c - the fallback routes' SLs: a switch whose own route
 * has no up*down* path by levels (RM_ANY: a core that lost its cable to
 * a rail's spine) goes down, turns up and comes down again.
 *
 * Why more than one SL: on a fallback SL a port pair's row lifts the SL
 * to VL 1 where some fallback route comes down after its turn
 * (rt_turn_pair()), and that row holds for every route of the SL through
 * the pair.  A route that descends through such a pair before its own
 * turn then climbs on VL 1 after coming down on it: a down->up dependency
 * on VL 1.  A SuperPOD-style tree with a management branch that lost one
 * core-spine cable has 3,374 fallback routes, and with one SL they closed
 * a VL 1 credit loop (128 LIDs then took the rooted layer: shift 32
 * against a bound of 2).
 *
 * So each fallback route takes the first of the fallback SLs (12, 11,
 * 10: rt_valley_nsl()) where no pair it descends through before its turn
 * is lifted by another route of that SL, and none it lifts is one another
 * route of that SL descends through before its turn; with none free, the
 * last (the verification judges it).  Greedy, switch by switch, LID by
 * LID: the same tables give the same SLs.  Each SL's pairs go to its own
 * plane of the turn pairs (rt_turn_rows()).
 *
 * Cost: a scan of the switches' rows of the SL table, then O(hops) per
 * fallback route; two bit planes per SL of nports x (radix / 8) bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

/* One fallback route's pairs: before its turn, down->down (they must stay on VL 0); lifted. */
struct vroute {
	uint32_t pre[RT_MAXD][2], lift[RT_MAXD][2];	/* (in, out) port pairs */
	uint32_t npre, nlift;
};

/* The pairs of switch @s's route to @lid (rt_mark_turns()'s walk). */
static void walk(const struct rt *r, uint32_t s, uint32_t lid, struct vroute *v)
{
	const struct topo *t = r->t;
	const uint8_t *dir = r->c->dir;
	uint32_t cur = s, in = TOPO_NONE;
	bool turned = false;

	v->npre = v->nlift = 0;
	for (unsigned hop = 0; hop < RT_MAXD && cur != TOPO_NONE; hop++) {
		uint8_t e = lft_get(r->out->lft, cur, lid);
		uint32_t p;

		if (e == 0 || e == LFT_NONE || e > t->node_nports[rt_node(r, cur)])
			break;
		p = topo_port(t, rt_node(r, cur), e);
		if (in != TOPO_NONE && !turned && dir[in] == CLS_DIR_UP && dir[p] == CLS_DIR_DOWN) {
			v->pre[v->npre][0] = in;
			v->pre[v->npre++][1] = p;
		}
		if (in != TOPO_NONE && rt_turn_pair(dir, in, p, &turned)) {
			v->lift[v->nlift][0] = in;
			v->lift[v->nlift++][1] = p;
		}
		in = t->port_remote[p];
		cur = r->peer[p];
	}
}

/* Whether route @v can take the SL whose lifted pairs are @lift and pre-turn pairs @pre. */
static bool fits(const struct rt *r, const struct vroute *v, const uint8_t *lift,
		 const uint8_t *pre, uint32_t stride)
{
	for (uint32_t i = 0; i < v->npre; i++)
		if (rt_turn_marked(r->t, lift, stride, v->pre[i][0], v->pre[i][1]))
			return false;
	for (uint32_t i = 0; i < v->nlift; i++)
		if (rt_turn_marked(r->t, pre, stride, v->lift[i][0], v->lift[i][1]))
			return false;
	return true;
}

/* Switch @s's fallback route to @lid onto the first fallback SL it fits. */
static void place(struct rt *r, uint32_t s, uint32_t lid, uint8_t *pre, struct vroute *v)
{
	const struct topo *t = r->t;
	unsigned nsl = rt_valley_nsl(r->c), k;
	uint32_t half = r->turn_stride / rt_turn_planes(r->c);

	walk(r, s, lid, v);
	for (k = 0; k < nsl; k++)
		if (fits(r, v, r->turn_bits + (size_t)(1 + k) * half, pre + (size_t)k * half,
			 r->turn_stride))
			break;
	if (k == nsl) {		/* none free: the last, logged (route.c pass_log()) */
		k = nsl - 1;
		r->valley_left++;
	}
	*rt_sl(r, r->c->nzones + 1 + s, lid) = (uint8_t)(RT_SL_VALLEY - k);
	for (uint32_t i = 0; i < v->nlift; i++)
		rt_turn_mark(t, r->turn_bits + (size_t)(1 + k) * half, r->turn_stride,
			     v->lift[i][0], v->lift[i][1]);
	for (uint32_t i = 0; i < v->npre; i++)
		rt_turn_mark(t, pre + (size_t)k * half, r->turn_stride, v->pre[i][0], v->pre[i][1]);
}

int rt_valley_sls(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t nlids = r->out->nlids;
	struct vroute *v;
	uint8_t *pre;

	if (!r->any_routes || !rt_valley_nsl(r->c) || r->lid_col)
		return 0;	/* none, on the turn SL (rt_mark_turns()), or the merge's */
	if (!r->turn_bits &&
	    !(r->turn_bits = calloc((size_t)t->nports * r->turn_stride + 1, 1)))
		return -ENOMEM;
	pre = calloc((size_t)t->nports * r->turn_stride + 1, 1);
	v = malloc(sizeof(*v));
	if (!pre || !v) {
		free(pre);
		free(v);
		return -ENOMEM;
	}
	for (uint32_t s = 0; s < r->nsw; s++) {
		const uint8_t *row = r->out->sl + (size_t)(r->c->nzones + 1 + s) * nlids;
		const uint8_t *e = row + 1, *end = row + nlids;

		while (e < end && (e = memchr(e, RT_SL_VALLEY, (size_t)(end - e))))
			place(r, s, (uint32_t)(e++ - row), pre, v);
	}
	free(pre);
	free(v);
	return 0;
}

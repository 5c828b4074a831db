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
 * fallback route (a hash set of its pairs per SL, two keys of 8 bytes a
 * hop at most).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

void rt_vroute_hop(struct rt_vroute *v, const struct topo *t, const uint8_t *dir, uint32_t p)
{
	uint32_t in = v->in;

	v->in = t->port_remote[p];
	if (in == TOPO_NONE)
		return;
	if (!v->turned && dir[in] == CLS_DIR_UP && dir[p] == CLS_DIR_DOWN && v->npre < RT_MAXD) {
		v->pre[v->npre][0] = in;
		v->pre[v->npre++][1] = p;
	}
	if (rt_turn_pair(dir, in, p, &v->turned) && v->nlift < RT_MAXD) {
		v->lift[v->nlift][0] = in;
		v->lift[v->nlift++][1] = p;
		v->lifts |= dir[p] == CLS_DIR_DOWN;
	}
}

/* The key of pair (@in, @p) of kind @pre (else lifted) on SL RT_SL_VALLEY - @k. */
static uint64_t vkey(const struct rt_vplanes *vp, bool pre, unsigned k, uint32_t in, uint32_t p)
{
	return 1 + ((uint64_t)(2 * k + pre) * vp->nports + in) * vp->nports + p;
}

static uint32_t vslot(const struct rt_vplanes *vp, uint64_t key)
{
	uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (vp->cap - 1);

	while (vp->key[i] && vp->key[i] != key)
		i = (i + 1) & (vp->cap - 1);
	return i;
}

static bool vhas(const struct rt_vplanes *vp, uint64_t key)
{
	return vp->cap && vp->key[vslot(vp, key)] == key;
}

/* Into the set, which grows to stay at most half full; vp->nomem if it cannot. */
static void vadd(struct rt_vplanes *vp, uint64_t key)
{
	uint32_t i;

	if (2 * (vp->n + 1) > vp->cap) {
		struct rt_vplanes old = *vp;
		uint32_t cap = vp->cap ? 2 * vp->cap : 1024;

		if (!cap || !(vp->key = calloc(cap, sizeof(*vp->key)))) {
			vp->key = old.key;
			vp->nomem = true;
			return;
		}
		vp->cap = cap;
		for (uint32_t j = 0; j < old.cap; j++)
			if (old.key[j])
				vp->key[vslot(vp, old.key[j])] = old.key[j];
		free(old.key);
	}
	i = vslot(vp, key);
	vp->n += !vp->key[i];
	vp->key[i] = key;
}

void rt_vplanes_free(struct rt_vplanes *vp)
{
	free(vp->key);
	vp->key = NULL;
	vp->cap = vp->n = 0;
}

/* Whether route @v can take SL RT_SL_VALLEY - @k: no pair of its marked as the other kind. */
static bool fits(const struct rt_vplanes *vp, const struct rt_vroute *v, unsigned k)
{
	for (uint32_t i = 0; i < v->npre; i++)
		if (vhas(vp, vkey(vp, false, k, v->pre[i][0], v->pre[i][1])))
			return false;
	for (uint32_t i = 0; i < v->nlift; i++)
		if (vp->dir[v->lift[i][1]] == CLS_DIR_DOWN &&
		    vhas(vp, vkey(vp, true, k, v->lift[i][0], v->lift[i][1])))
			return false;
	return true;
}

void rt_vplanes_mark(struct rt_vplanes *vp, const struct rt_vroute *v, unsigned k)
{
	for (uint32_t i = 0; i < v->nlift; i++)
		if (vp->dir[v->lift[i][1]] == CLS_DIR_DOWN)
			vadd(vp, vkey(vp, false, k, v->lift[i][0], v->lift[i][1]));
	for (uint32_t i = 0; i < v->npre; i++)
		vadd(vp, vkey(vp, true, k, v->pre[i][0], v->pre[i][1]));
}

unsigned rt_vplanes_place(struct rt_vplanes *vp, const struct rt_vroute *v)
{
	unsigned k;

	for (k = 0; k < vp->nsl && !fits(vp, v, k); k++)
		;
	if (k == vp->nsl) {	/* none free: the last (the verification judges it) */
		k = vp->nsl - 1;
		vp->left++;
	}
	rt_vplanes_mark(vp, v, k);
	return k;
}

/* The pairs of switch @s's route to column @col of the tables (rt_mark_turns()'s walk). */
static void walk(const struct rt *r, uint32_t s, uint32_t col, struct rt_vroute *v)
{
	const struct topo *t = r->t;
	uint32_t cur = s;

	rt_vroute_start(v);
	for (unsigned hop = 0; hop < RT_MAXD && cur != TOPO_NONE; hop++) {
		uint8_t e = lft_get(r->out->lft, cur, col);
		uint32_t p;

		if (e == 0 || e == LFT_NONE || e > t->node_nports[rt_node(r, cur)])
			break;
		p = topo_port(t, rt_node(r, cur), e);
		rt_vroute_hop(v, t, r->c->dir, p);
		cur = r->peer[p];
	}
}

int rt_valley_sls(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t nlids = r->out->nlids, half = r->turn_stride / rt_turn_planes(r->c);
	struct rt_vplanes vp = { .nports = t->nports, .dir = r->c->dir, .nsl = rt_valley_nsl(r->c) };
	struct rt_vroute *v;

	if (!r->any_routes || !vp.nsl || r->lid_col)
		return 0;	/* none, on the turn SL (rt_mark_turns()), or the merge's */
	if (!r->turn_bits &&
	    !(r->turn_bits = calloc((size_t)t->nports * r->turn_stride + 1, 1)))
		return -ENOMEM;
	if (!(v = malloc(sizeof(*v))))
		return -ENOMEM;
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint8_t *row = r->out->sl + (size_t)(r->c->nzones + 1 + s) * nlids;
		uint8_t *e = row + 1, *end = row + nlids;

		for (; e < end && (e = memchr(e, RT_SL_VALLEY, (size_t)(end - e))); e++) {
			unsigned k;

			walk(r, s, (uint32_t)(e - row), v);
			k = rt_vplanes_place(&vp, v);
			*e = (uint8_t)(RT_SL_VALLEY - k);
			if (v->lifts && r->out->valley_planes < 2 + k)
				r->out->valley_planes = 2 + k;
			for (uint32_t i = 0; i < v->nlift; i++)	/* its SL's rows: plane 1 + k */
				rt_turn_mark(t, r->turn_bits + (size_t)(1 + k) * half, r->turn_stride,
					     v->lift[i][0], v->lift[i][1]);
		}
	}
	r->valley_left += vp.left;
	rt_vplanes_free(&vp);
	free(v);
	return vp.nomem ? -ENOMEM : 0;
}

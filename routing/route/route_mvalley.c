// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_mvalley.c - the SLs of the fallback routes an incremental pass
 * hands the merge (route_incr.c), spread over the fallback SLs around
 * those of the LIDs that keep the base's routes.
 *
 * Why: a pass of the broken LIDs alone puts its fallback routes on SL 12
 * (route_valley.c spreads a full pass's only).  Where the base has
 * fallback routes of its own (a SuperPOD-style tree whose management
 * branch leaves some switches only a valley to a rail: 3,304 of them on
 * the 4-unit tree of tests/lib/gen_foreign.py), the kept LIDs' are on SL
 * 12 or 11 too.  One of the pass's that descends before its turn through
 * a pair a kept route lifts (or the reverse) then climbs on VL 1 after
 * coming down on it: a VL 1 credit loop.  The verification refused every
 * merge, strict ones too, and the fault was routed from scratch (that
 * tree without one core-spine cable: 2,169 of 46,400 entries changed).
 *
 * So before the merge, the kept LIDs' fallback routes mark their pairs on
 * their SLs, then the pass's take, switch by switch and LID by LID, the
 * first fallback SL they fit as the pass routed them (route_valley.c's
 * rule).  The merge keeps the pass's SL where a switch's merged route is
 * the pass's (set_sls()); a route that mixes both routings is the
 * verification's to judge, and a strict merge's to make one routing's.
 * A conflict needs a pair lifted on the SL's row (a peak, or down after
 * it): when neither the pass's routes nor the base's (out.valley_planes)
 * lift one, every route stays on SL 12 and the kept ones are not walked
 * (a 16k-host tree with one link down: 744 fallback routes to switch
 * LIDs, a walk of each, 0.2 ms).
 *
 * Cost: O(hops) per fallback route of this pass; where one lifts a pair,
 * a scan of the switches' rows of the SL table and O(hops) per kept
 * fallback route (route_valley.c's hash set of their pairs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_incr.h"

/* The pairs of switch @s's route in the column @col (@step bytes a switch). */
static void walk(const struct mg *m, uint32_t s, const uint8_t *col, size_t step,
		 struct rt_vroute *v)
{
	const struct topo *t = m->t;

	rt_vroute_start(v);
	for (unsigned h = 0; h < RT_MAXD && s != TOPO_NONE; h++) {
		uint8_t e = col[(size_t)s * step];

		if (e == 0 || e == LFT_NONE || e > t->node_nports[t->sw_node[s]])
			break;
		rt_vroute_hop(v, t, m->c->dir, t->port_off[t->sw_node[s]] + e);
		s = rt_next_sw(m, s, e);
	}
}

/* The kept LIDs' fallback routes (the base's, copied: rt_copy_base()) onto their SLs' planes. */
static void kept(const struct mg *m, struct rt_vplanes *vp, struct rt_vroute *v)
{
	const struct route_out *o = m->out;
	const struct lft *l = o->lft;

	for (uint32_t s = 0; s < m->ns; s++) {
		const uint8_t *row = o->sl + (size_t)(m->c->nzones + 1 + s) * o->nlids;

		for (uint32_t lid = 1; lid < o->nlids && lid <= m->t->max_lid; lid++) {
			if (!rt_is_valley(m->c, row[lid]) || m->only[lid] ||
			    m->t->lid_port[lid] == TOPO_NONE)
				continue;
			walk(m, s, l->port + lid, l->nlids, v);
			rt_vplanes_mark(vp, v, RT_SL_VALLEY - row[lid]);
		}
	}
}

/*
 * Whether some fallback route of this pass lifts a pair (its SLs in the
 * switches' rows @sl of @k, @n columns each): a conflict needs a lift on
 * one side.
 */
static bool pass_lifts(const struct mg *m, const struct rt_merge_keep *k, const uint8_t *sl,
		       struct rt_vroute *v)
{
	for (uint32_t s = 0; s < m->ns; s++) {
		const uint8_t *row = sl + (size_t)s * k->n, *e = row, *end = row + k->n;

		for (; e < end && (e = memchr(e, RT_SL_VALLEY, (size_t)(end - e))); e++) {
			walk(m, s, k->col + (e - row), k->n, v);
			if (v->lifts)
				return true;
		}
	}
	return false;
}

int rt_merge_valleys(struct mg *m)
{
	const struct rt_merge_keep *k = m->keep;
	uint32_t g0 = m->c->nzones + 1;
	uint8_t *sl = k->col + (size_t)(m->ns + g0) * k->n;	/* the switches' rows */
	struct rt_vplanes vp = { .nports = m->t->nports, .dir = m->c->dir,
				 .nsl = rt_valley_nsl(m->c) };
	struct rt_vroute *v;
	int rc = 0;

	if (!vp.nsl || !m->only || !m->bo || !k->rows || m->again || m->ngroups <= g0 || !k->n ||
	    !memchr(sl, RT_SL_VALLEY, (size_t)(m->ngroups - g0) * k->n))
		return 0;	/* no fallback route in this pass */
	if (!(v = malloc(sizeof(*v))))
		return -ENOMEM;
	/* neither this pass's nor the base's lift a pair: SL 12 for all */
	if (!pass_lifts(m, k, sl, v) && m->bo->sl2vl && rt_base_planes(m) == 1)
		goto out;
	kept(m, &vp, v);
	for (uint32_t s = 0; s < m->ns; s++) {	/* this pass's, where it routed them */
		uint8_t *row = sl + (size_t)s * k->n, *e = row, *end = row + k->n;

		for (; e < end && (e = memchr(e, RT_SL_VALLEY, (size_t)(end - e))); e++) {
			walk(m, s, k->col + (e - row), k->n, v);
			*e = (uint8_t)(RT_SL_VALLEY - rt_vplanes_place(&vp, v));
		}
	}
	rc = vp.nomem ? -ENOMEM : 0;
	rt_vplanes_free(&vp);
out:
	free(v);
	return rc;
}

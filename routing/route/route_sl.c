// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_sl.c - service levels and SL2VL: the VL layers that keep routes
 * between zones deadlock-free.
 *
 * Source groups: z (CAs of zone z), Z (zone-less CAs), Z + 1 + s (switch
 * ordinal s: its own packets and those of CAs cabled to it when it is
 * above the leaves, whose routes turn like the switch's).  SL of a path
 * from a group to LID l with destination zone dz (the zone of l's switch)
 * and source zone sz:
 *   0              sz == dz (up*down* inside the zone)
 *   1 + dz         sz != dz, dz >= 0 (crossing into zone dz)
 *   1 + Z + sz     dz < 0, sz >= 0 (to a bridge or a CA on one; when
 *                  2Z + 1 <= 14, else 0): a bridge that lost its links
 *                  to zone sz is reached through another zone
 *   13 (rooted)    every source to a LID of the rooted layer (one zone,
 *                  route_root.c): VL 1 on every port
 *   14 (transit)   zone-less source to a zone-less destination
 *   12, 11, 10     a switch whose own route is a fallback (ANY: a spine
 *     (valley)     that lost its link to the destination's leaf, a core
 *                  that lost its way down to a rail): 12, or 11 or 10
 *                  where 12's turn rows would lift it too early
 *                  (route_valley.c); those above the zone SLs, and 15
 *                  when a zone SL takes 12 (six zones or more)
 *   15 (turn)      a switch whose own route turns down->up (TURN: to a
 *                  switch LID); route_dest.c sets these
 * SL2VL, by the zone of the sending port's node zn and the port's
 * direction:
 *   SL 0 -> VL 0, except from an up-port to an up-port (a down->up turn,
 *   taken only by routes to switch LIDs): VL 1;  SL 1 + dz -> VL 1 iff
 *   zn == dz;  SL 1 + Z + sz -> VL 1 iff zn >= 0 and zn != sz;
 *   SL 14 -> VL 1 iff zn >= 0;  SL 15 (and 12..10) -> VL 1 when the port
 *   goes up, or from a down-port to a down-port (the peak after the turn
 *   of a switch's own down-up-down route, degraded fabrics), or down
 *   after coming down on the pairs a route descends through after its
 *   turn (rt_turn_pair(): a core cut off from a unit goes down, up and
 *   down two levels); other SLs -> VL 0.  The turn rows are the only ones that depend on the input port
 *   (out->vlx), and only the pairs turn routes really use get them.
 *   The fallback routes mark their pairs apart and lift their SL alone: a
 *   fallback that comes down after its turn through a pair would
 *   otherwise lift every SL 15 route there, a switch-LID route before its
 *   own turn too, and VL 1 then held a down->up dependency (a SuperPOD
 *   with a SHARP node on every switch that lost one spine-core cable: a
 *   VL 1 credit loop, then 92 LIDs rooted and shift 32 against 3).  A
 *   switch-LID route turns only one hop below its destination
 *   (route_dest.c), so its hops after the turn are on VL 1 and VL 1 has
 *   no down->up dependency.
 * Why it is acyclic: VL 1 holds only up*down* paths inside the
 * destination zone (a packet reaches VL 1 on entering it and stays there),
 * the up*down* tails of turn routes after their turn, and transit paths (and paths to a
 * bridge through another zone) that end at their bridge; VL 0 holds
 * up*down* paths inside the source zone up to an exit,
 * whose inter-zone channels lead only into VL 1 or to the destination.
 * nvls = 2 when any SL other than 0 is used, else 1; with vl_limit 1 (per
 * traffic class: route_tc.c maps the classes over these SLs) every SL is 0 and the checker then judges the single VL.
 *
 * Cost: O(groups x LIDs + ports x 16).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_int.h"

/*
 * A CA cabled to a switch above the leaves (a SHARP aggregation node, a
 * management host on a spine) enters the fabric where that switch's own
 * packets do and follows the same routes, turns included: it shares the
 * switch's group, so its packets get the turn SL too.
 */
static uint32_t group_of(const struct rt *r, uint32_t n)
{
	const struct topo *t = r->t;
	int16_t z = r->c->zone[n];

	if (topo_is_switch(t, n))
		return r->c->nzones + 1 + t->node_sw[n];
	for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
		uint32_t q = t->port_remote[p];

		if (q != TOPO_NONE && topo_is_switch(t, t->port_node[q])) {
			if (rt_ca_joins_switch(r, t->port_node[q]))
				return r->c->nzones + 1 + t->node_sw[t->port_node[q]];
			break;
		}
	}
	return z < 0 ? r->c->nzones : (uint32_t)z;
}

int rt_sl_alloc(struct rt *r)
{
	struct route_out *out = r->out;
	size_t n;

	out->ngroups = r->c->nzones + 1 + r->nsw;
	/* a pass of a few LIDs: a column per LID, as its LFT (only_cols()) */
	out->nlids = r->lid_col ? r->out->lft->nlids : r->t->max_lid + 1;
	n = (size_t)out->ngroups * out->nlids;
	out->sl = calloc(n ? n : 1, 1);
	if (out->sl)	/* as large as the LFT block (lft.c) */
		ffr_huge_hint(out->sl, n);
	out->turned = calloc((size_t)r->t->max_lid + 1, 1);
	return out->sl && out->turned ? 0 : -ENOMEM;
}

/* Zone of the switch a LID hangs on (-2: none). */
static int16_t lid_zone(const struct topo *t, const struct cls *c, uint32_t lid)
{
	uint32_t p = t->lid_port[lid], n, q;

	if (p == TOPO_NONE)
		return -2;
	n = t->port_node[p];
	if (topo_is_switch(t, n))
		return c->zone[n];
	q = t->port_remote[p];
	return q == TOPO_NONE ? -2 : c->zone[t->port_node[q]];
}

/* Whether SLs 1 + Z .. 2Z (zone z to a zone-less destination) fit below the transit SL. */
static bool leave_sls(const struct cls *c)
{
	return 1 + 2 * c->nzones <= RT_SL_TRANSIT;
}

/* The SL from source group @g to a LID of zone @dz (-1: none, -2: no LID), with two VLs. */
static uint8_t sl_of(const struct topo *t, const struct cls *c, uint32_t g, int16_t dz)
{
	uint32_t nz = c->nzones;
	int16_t sz = g < nz ? (int16_t)g : g == nz ? -1 : c->zone[t->sw_node[g - nz - 1]];

	if (dz == -2 || (sz == dz && sz >= 0))
		return 0;
	if (dz >= 0)
		return (uint8_t)(1 + dz);
	if (sz >= 0)	/* to a bridge: lifted in any zone it passes after its own */
		return leave_sls(c) ? (uint8_t)(1 + nz + (uint32_t)sz) : 0;
	return RT_SL_TRANSIT;
}

void rt_sl_zone_row(const struct topo *t, const struct cls *c, uint32_t g, uint8_t *row)
{
	row[0] = 0;
	for (uint32_t lid = 1; lid <= t->max_lid; lid++)
		row[lid] = sl_of(t, c, g, lid_zone(t, c, lid));
}

/* The VL of @sl out of a port of zone @zn (-1: none), an up-port or not. */
static uint8_t vl_of(const struct rt *r, int16_t zn, bool up, unsigned sl)
{
	if (sl == ROUTE_SL_TURN || rt_is_valley(r->c, sl))
		return up;
	if (sl == RT_SL_ROOTED)
		return 1;
	if (sl == RT_SL_TRANSIT)
		return zn >= 0;
	if (sl >= 1 && sl <= r->c->nzones)
		return zn == (int16_t)(sl - 1);
	if (leave_sls(r->c) && sl > r->c->nzones && sl <= 2 * r->c->nzones)
		return zn >= 0 && zn != (int16_t)(sl - 1 - r->c->nzones);
	return 0;
}

/*
 * Walk the routes of the switches routed by a turn toward the current
 * destination (its column: rt_col) and record
 * where they go up after coming down (in: an up-port, out: an up-port) or
 * down after a turn (in: a down-port, out: a down-port): only these
 * (input, output) pairs get rows of their own (turn_rows).  O(turn
 * routes x hops).
 */
int rt_mark_turns(struct rt *r)
{
	const struct topo *t = r->t;
	bool valley = rt_valley_nsl(r->c) > 0;

	if (!r->turn_bits &&
	    !(r->turn_bits = calloc((size_t)t->nports * r->turn_stride + 1, 1)))
		return -ENOMEM;
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t cur = s, in = TOPO_NONE;
		bool turned = false;

		if (r->mode[s] != RM_TURN && r->mode[s] != RM_UPTURN &&
		    (r->mode[s] != RM_ANY || valley))
			continue;	/* fallback routes of their own SLs: route_valley.c */
		for (unsigned hop = 0; hop < RT_MAXD && cur != TOPO_NONE; hop++) {
			uint8_t e = *rt_col(r, cur);
			uint32_t p;

			if (e == 0 || e == LFT_NONE)
				break;
			p = topo_port(t, rt_node(r, cur), e);
			if (in != TOPO_NONE && rt_turn_pair(r->c->dir, in, p, &turned))
				rt_turn_mark(t, r->turn_bits, r->turn_stride, in, p);
			in = t->port_remote[p];
			cur = r->peer[p];
		}
	}
	return 0;
}

/* The pairs marked in any of @n planes @hs bytes apart, at byte @b. */
static inline unsigned plane_or(const uint8_t *b, uint32_t hs, unsigned n)
{
	unsigned v = 0;

	for (unsigned pl = 0; pl < n; pl++)
		v |= b[(size_t)pl * hs];
	return v;
}

/* rt_turn_rows()'s nodes: rows[first[node]...] from their out ports' bits. */
struct rows_fill {
	const struct topo *t;
	const uint8_t *dir, *bits, *sl2vl;
	uint32_t stride;
	unsigned nplanes;		/* rt_turn_planes() */
	const uint32_t *first;		/* [node]: its first row */
	struct chk_vlx_row *rows;
};

static void rows_fill(void *ctx, uint32_t lo, uint32_t hi, unsigned half)
{
	const struct rows_fill *x = ctx;
	const struct topo *t = x->t;

	(void)half;
	for (uint32_t node = lo; node < hi; node++) {
		struct chk_vlx_row *row = x->rows + x->first[node];

		for (uint32_t p = t->port_off[node] + 1; topo_is_switch(t, node) &&
		     p < t->port_off[node + 1]; p++) {
			const uint8_t *b = x->bits + (size_t)p * x->stride;
			uint32_t hs = x->stride / x->nplanes;

			for (uint32_t k = 0; k < hs; k++)
				for (unsigned v = plane_or(b + k, hs, x->nplanes); v; v &= v - 1) {
					uint32_t in = t->port_off[node] + k * 8 +
						      (unsigned)__builtin_ctz(v);
					/* a turn: SL 0 (a switch LID's route); a
					 * peak, or down after it: the plane's SL */
					bool uu = x->dir[in] == CLS_DIR_UP && x->dir[p] == CLS_DIR_UP;
					unsigned bit = v & -v;

					row->key = (uint64_t)p << 32 | in;
					memcpy(row->vl, x->sl2vl + (size_t)p * 16, 16);
					for (unsigned pl = 0; pl < x->nplanes; pl++)
						if (b[(size_t)pl * hs + k] & bit)
							row->vl[uu ? 0 : rt_plane_sl(pl)] = 1;
					row++;
				}
		}
	}
}

/*
 * Rows that depend on the input port, for the pairs marked in @bits
 * (rt_turn_mark()): SL 0 from an up-port to an up-port (a down->up turn)
 * and SL 15 from a down-port to a down-port (the peak after a switch
 * route's turn) go to VL 1, over the out port's row.  Counted per node
 * first, so the table is allocated once, exactly, and each node's rows
 * have their place: the nodes are filled on two threads (@threads), out
 * port by out port, input ports in order, in the table's key order
 * (sorting it needs no buffer, at the engine's peak of memory).
 */
int rt_turn_rows(const struct topo *t, const uint8_t *dir, const uint8_t *bits, uint32_t stride,
		 unsigned nplanes, const uint8_t *sl2vl, struct chk_vlx *x, unsigned threads)
{
	uint32_t *first = malloc(((size_t)t->nnodes + 1) * sizeof(*first));
	struct rows_fill f = { t, dir, bits, sl2vl, stride, nplanes, first, NULL };
	uint32_t half = stride / nplanes;
	uint64_t n = 0;

	chk_vlx_free(x);
	memset(x, 0, sizeof(*x));
	for (uint32_t node = 0; first && node < t->nnodes; node++) {
		uint32_t p0 = t->port_off[node], p1 = t->port_off[node + 1];

		first[node] = (uint32_t)n;
		for (uint32_t q = p0 + 1; topo_is_switch(t, node) && q < p1; q++)
			for (uint32_t k = 0; k < half; k++)
				n += (unsigned)__builtin_popcount(
					plane_or(bits + (size_t)q * stride + k, half, nplanes));
	}
	if (!first || n > UINT32_MAX / 2 || (n && !(f.rows = chk_vlx_extend(x, (uint32_t)n)))) {
		free(first);
		return -ENOMEM;
	}
	if (n)
		ffr_split2(threads, t->nnodes, 256, rows_fill, &f);
	free(first);
	chk_vlx_sort(x);
	return 0;
}

static int turn_rows(struct rt *r)
{
	int rc;

	if ((rc = rt_valley_sls(r)))
		return rc;
	if (!r->turn_bits)
		return 0;
	rc = rt_turn_rows(r->t, r->c->dir, r->turn_bits, r->turn_stride, rt_turn_planes(r->c),
			  r->out->sl2vl, &r->out->vlx, r->o->threads);
	free(r->turn_bits);	/* not needed any more */
	r->turn_bits = NULL;
	return rc;
}

/*
 * Each port's SL2VL row (vl_of()): a row depends only on the zone of the
 * port's switch and whether it is an up-port, so the rows of those pairs
 * are made once and copied (a 16k-host tree has 100,000 ports).
 */
static void sl2vl_rows(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t nz = r->c->nzones;
	uint8_t row[2][RT_SL_ROOTED + 1][16];	/* [up][zone + 1], zones below 13 */

	for (unsigned up = 0; up < 2; up++)
		for (uint32_t z = 0; z <= nz && z <= RT_SL_ROOTED; z++)
			for (unsigned sl = 0; sl < 16; sl++)
				row[up][z][sl] = vl_of(r, (int16_t)((int)z - 1), up, sl);
	for (uint32_t p = 0; p < t->nports; p++) {
		int16_t zn = r->c->zone[t->port_node[p]];
		bool up = r->c->dir[p] == CLS_DIR_UP;
		uint8_t *to = r->out->sl2vl + (size_t)p * 16;

		if (zn >= -1 && zn < (int16_t)nz && zn < RT_SL_ROOTED) {
			memcpy(to, row[up][zn + 1], 16);
			continue;
		}
		for (unsigned sl = 0; sl < 16; sl++)
			to[sl] = vl_of(r, zn, up, sl);
	}
}

/* rt_sl_tables()'s rows of the SL table, of groups [lo, hi) on one half. */
struct sl_rows {
	struct rt *r;
	const uint32_t *zi, *list;	/* [lid]: 2 + its zone; the LIDs routed (only) */
	const uint8_t *zout;		/* [2 + zone]: a LID of it not routed here */
	const uint8_t *tmpl;		/* [1 + source zone][nlids]: a whole row's SLs, for
					 * the rows with no route's own SL (NULL: none) */
	const bool *tmpl_layered;	/* [1 + source zone]: that row has an SL not 0 */
	uint32_t nzi, nlist;
	bool two, only;
	uint8_t *tbl[2];		/* per half: [2 + zone] the group's SL into it */
	bool layered[2];
};

/* The zone of group @g's sources (-1: none): its SLs depend on it alone (sl_of()). */
static int16_t group_zone(const struct topo *t, const struct cls *c, uint32_t g)
{
	return g < c->nzones ? (int16_t)g : g == c->nzones ? -1 : c->zone[t->sw_node[g - c->nzones - 1]];
}

/* A group's SL to a LID depends on the LID's zone alone, or is a turn's. */
static void sl_rows(void *ctx, uint32_t lo, uint32_t hi, unsigned half)
{
	struct sl_rows *x = ctx;
	const struct rt *r = x->r;
	const uint32_t *col = r->lid_col, *zi = x->zi, *list = x->list;	/* col: rt_sl() */
	uint32_t nlids = r->t->max_lid + 1, stride = r->out->nlids;
	uint8_t *tbl = x->tbl[half], own[16];	/* own[sl]: a route's own SL, kept */
	bool layered = false, all = !x->only, two = x->two;	/* else the LIDs routed
								 * here, a column each:
								 * the others' SLs are
								 * the base's (the merge) */

	for (unsigned sl = 0; sl < 16; sl++)
		own[sl] = sl == ROUTE_SL_TURN || sl == RT_SL_ROOTED || rt_is_valley(r->c, sl);
	for (uint32_t g = lo; g < hi; g++) {
		uint8_t *row = r->out->sl + (size_t)g * stride;
		int16_t gz = group_zone(r->t, r->c, g);

		if (x->tmpl && !r->sl_own[g] && gz >= -1 && gz < (int16_t)r->c->nzones) {
			/* no route's own SL to keep: the zone's row whole */
			memcpy(row + 1, x->tmpl + (size_t)(gz + 1) * nlids + 1, nlids - 1);
			layered |= x->tmpl_layered[gz + 1];
			continue;
		}
		for (uint32_t z = 0; z < x->nzi; z++) {
			tbl[z] = two ? sl_of(r->t, r->c, g, (int16_t)((int)z - 2)) : 0;
			layered |= !all && x->zout[z] && tbl[z];	/* as if routed */
		}
		for (uint32_t i = 0; i < (all ? nlids - 1 : x->nlist); i++) {
			uint32_t lid = all ? i + 1 : list[i];
			uint8_t *e = row + (col ? col[lid] : lid);

			if (!two)
				*e = 0;
			else if (!own[*e & 15])
				*e = tbl[zi[lid]];
			layered |= *e != 0;
		}
	}
	x->layered[half] |= layered;
}

/*
 * The rows of every LID (no pass of a few) for each zone of the sources
 * (-1 first), in *@tmpl and whether each has an SL not 0 in *@lay: most
 * groups' rows hold no route's own SL (a switch without turns), and a
 * copy reads nothing of the row (the 32k tree's table is 90 MB: its rows
 * take 0.09 s on two threads).  -ENOMEM, or 0 (*@tmpl NULL: build each
 * row).
 */
static int sl_templates(struct rt *r, bool two, uint8_t **tmpl, bool **lay)
{
	const struct cls *c = r->c;
	uint32_t nlids = r->t->max_lid + 1, nt = c->nzones + 1;

	*tmpl = NULL, *lay = NULL;
	if (r->o->only_lids || r->lid_col)
		return 0;
	*tmpl = calloc((size_t)nt * nlids, 1);
	*lay = calloc(nt, sizeof(bool));
	if (!*tmpl || !*lay)
		return -ENOMEM;
	for (uint32_t z = 0; z < nt && two; z++) {
		uint8_t *row = *tmpl + (size_t)z * nlids;

		/* a group whose sources are of zone z - 1: sl_of() reads only that */
		rt_sl_zone_row(r->t, c, z ? z - 1 : c->nzones, row);
		for (uint32_t lid = 1; lid < nlids && !(*lay)[z]; lid++)
			(*lay)[z] = row[lid] != 0;
	}
	return 0;
}

int rt_sl_tables(struct rt *r)
{
	const struct topo *t = r->t;
	struct route_out *out = r->out;
	uint32_t nlids = t->max_lid + 1, nz = r->c->nzones;
	const uint8_t *only = r->o->only_lids;	/* a pass of the broken LIDs alone */
	uint32_t *zi = malloc(((size_t)nlids + 1) * 2 * sizeof(*zi)), *list, nlist = 0, nzi = nz + 2;
	uint8_t *tbl = NULL, *zout;	/* [2 + zone] x 3: two halves' SLs into it; a LID not routed */
	struct sl_rows x = { .r = r, .zi = zi, .only = only != NULL,
			     .two = rt_layer_limit(r->o) >= 2 };
	uint8_t *tmpl;
	bool layered, *tlay;

	out->sl_group = calloc((size_t)t->nnodes + 1, sizeof(uint32_t));
	out->sl2vl = calloc((size_t)t->nports * 16 + 1, 1);
	for (uint32_t lid = 1; zi && lid < nlids; lid++) {	/* 2 + the zone of its switch */
		zi[lid] = (uint32_t)(lid_zone(r->t, r->c, lid) + 2);
		nzi = zi[lid] >= nzi ? zi[lid] + 1 : nzi;
	}
	if (zi)
		tbl = calloc(3 * (size_t)nzi, 1);
	if (!out->sl_group || !out->sl2vl || !zi || !tbl) {
		free(zi);
		free(tbl);
		return -ENOMEM;
	}
	list = zi + nlids;
	zout = tbl + 2 * nzi;
	for (uint32_t n = 0; n < t->nnodes; n++)
		out->sl_group[n] = group_of(r, n);
	if (sl_templates(r, x.two, &tmpl, &tlay)) {
		free(zi);
		free(tbl);
		free(tmpl);
		free(tlay);
		return -ENOMEM;
	}
	x.tmpl = tmpl, x.tmpl_layered = tlay;
	for (uint32_t lid = 1; lid < nlids; lid++) {
		if (only && !only[lid])
			zout[zi[lid]] = 1;
		else if (only)
			list[nlist++] = lid;
	}
	/* row by row (a column per LID would touch a row per group), the
	 * groups in two halves on two threads */
	x.list = list, x.nlist = nlist, x.zout = zout, x.nzi = nzi;
	x.tbl[0] = tbl, x.tbl[1] = tbl + nzi;
	ffr_split2(r->o->threads, out->ngroups, 64, sl_rows, &x);
	layered = x.layered[0] || x.layered[1];
	free(zi);
	free(tbl);
	free(tmpl);
	free(tlay);
	if (layered)
		sl2vl_rows(r);
	out->nvls = layered ? 2 : 1;
	out->valley_planes = layered && !only;	/* none yet: rt_valley_sls() */
	/* a pass of the broken LIDs alone: the merge finds the rows again for
	 * the merged tables (route_incr.c) */
	return layered && out->turn_routes && !only ? turn_rows(r) : 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_incr.c - incremental re-routing: a fault changes only the routes
 * it breaks.
 *
 * Why.  Routed from scratch, a failed link changes the load counters, and
 * every later choice by load (exits between zones, switch LIDs, fallback
 * hops) may move: thousands of entries for one link.  So the caller keeps
 * a base: the fabric as it was whole (route_base: its topology and the
 * tables routed from scratch on it).  When the fabric now is the base
 * minus something (links, switches, CAs gone; the same LIDs), every
 * destination whose base route is intact keeps it, and only the others
 * take the routes of this pass (routed from scratch on the fabric as it
 * is).  The result is verified as any other; if it fails, the pass's own
 * routing stands.  When everything is back, every route is intact: the
 * tables are the base's, byte for byte, whatever the faults were in
 * between.  A fabric with anything the base lacks (a new link or node, a
 * LID moved) is routed from scratch, and becomes the caller's new base.
 *
 * Intact: at every switch of the fabric, the base entry for the LID
 * leaves by a port that is still cabled (to the same peer: the fabric is
 * a subset of the base), or is port 0 of the LID's own switch.  Following
 * such entries from any switch stays on the base route, which reached the
 * destination, and it is still minimal (removing links lengthens no path
 * that avoids them).  Patched: where a base entry leads into a lost link
 * or switch, this pass's entry replaces it, the others stay, if every
 * switch still reaches the LID without a loop (a leaf that lost a spine
 * sends that spine's destinations to the others, whose entries down are
 * the base's) and by no longer a path than this pass's, which is shortest
 * (an entry intact at a core may lead down into the spine that lost its
 * link to the LID's leaf, which would detour: the switches whose path
 * grew take this pass's entries too, longer()); else the switches one
 * hop above those take this pass's entries too, one hop further at a
 * time (patch()), then every switch whose base route meets the fault;
 * else the LID takes this pass's whole column.  Up*down* and the VL rules
 * are for the verification to judge.
 *
 * Which LIDs the fault broke and whether the fabric is the base minus
 * something: route_broken.c.
 *
 * Cost: O(switches x LIDs) to merge, times the hops of a broken route
 * where patch() climbs it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_incr.h"

/* Does entry @e of switch ordinal @s lead toward @lid on @t (a live hop, or @lid itself)? */
static bool hop_ok(const struct mg *m, uint32_t s, uint32_t lid, uint8_t e)
{
	const struct topo *t = m->t;
	uint32_t dp = t->lid_port[lid], v = m->nx[(size_t)s * 256 + e];

	if (e == 0)
		return t->port_node[dp] == t->sw_node[s];
	return v != TOPO_NONE && (!(v & TOPO_PEER_PORT) || (v & ~TOPO_PEER_PORT) == dp);
}



/* Whether switch ordinal @s has no entry for the LID in the base nor in this pass: cut off. */
static bool cut(const struct mg *m, uint32_t s)
{
	return m->col[s] == LFT_NONE && m->own[s] == LFT_NONE;
}

/*
 * Hops from switch @w following @col to @lid, 0 if it does not get there;
 * the lowest link rate on the way in *@rate.
 */
static unsigned hops(const struct mg *m, const uint8_t *col, uint32_t w, uint32_t lid,
		     uint32_t *rate)
{
	const struct topo *t = m->t;
	const struct cls *c = m->c;

	*rate = UINT32_MAX;
	for (unsigned h = 1; h <= t->nswitches; h++) {
		uint32_t p = t->port_off[t->sw_node[w]] + col[w];

		if (!hop_ok(m, w, lid, col[w]))
			return 0;
		if (col[w] && c->rate[p] < *rate)
			*rate = c->rate[p];
		if ((w = rt_next_sw(m, w, col[w])) == TOPO_NONE)
			return h;
	}
	return 0;
}

/*
 * Switch ordinal @s's entry for @lid where the base's met a fault: of its
 * links to switches of the level this pass's entry @e goes to, whose
 * entries lead on to @lid in as many hops and no slower, the one its
 * routes of class @tc use least (@use: [switch][port][class]).  This pass
 * chose @e with its own balance, not the base's: the destinations a lost
 * spine carried would otherwise all take the link D-mod-K's digit names.
 */
static uint8_t patch_entry(const struct mg *m, const uint8_t *col, uint32_t s, uint32_t lid,
			   uint8_t e, const uint32_t *u, unsigned tc)
{
	const struct topo *t = m->t;
	const struct cls *c = m->c;
	uint32_t node = t->sw_node[s], w0 = rt_next_sw(m, s, e), h0, r0;
	uint8_t best = e;

	if (w0 == TOPO_NONE || !(h0 = hops(m, col, w0, lid, &r0)))
		return e;
	r0 = c->rate[t->port_off[node] + e] < r0 ? c->rate[t->port_off[node] + e] : r0;
	for (unsigned p = 1; p <= t->node_nports[node]; p++) {
		uint32_t w = rt_next_sw(m, s, (uint8_t)p), r;

		if (w == TOPO_NONE || p == best ||
		    c->level[t->sw_node[w]] != c->level[t->sw_node[w0]] ||
		    u[p * CLS_TC_COUNT + tc] >= u[best * CLS_TC_COUNT + tc] ||
		    c->rate[t->port_off[node] + p] < r0 || hops(m, col, w, lid, &r) != h0 ||
		    r < r0)
			continue;
		best = (uint8_t)p;
	}
	return best;
}

/*
 * Mark in @dead every switch whose base route (@col) meets a switch already
 * marked; true if that added any.  @st: scratch [nswitches].
 */
static bool broken_above(const struct mg *m, const uint8_t *col, uint8_t *dead, uint8_t *st)
{
	const struct topo *t = m->t;
	bool more = false;

	memset(st, 0, t->nswitches);	/* 0 unknown, 1 on this walk, 2 done */
	for (uint32_t s0 = 0; s0 < t->nswitches; s0++) {
		uint32_t s = s0, x;
		uint8_t bad;

		while (s != TOPO_NONE && st[s] == 0 && !dead[s]) {
			st[s] = 1;
			s = rt_next_sw(m, s, col[s]);
		}
		bad = s != TOPO_NONE && (dead[s] || st[s] == 1);
		for (x = s0; x != TOPO_NONE && st[x] == 1; x = rt_next_sw(m, x, col[x])) {
			st[x] = 2;
			if (bad && !dead[x]) {
				dead[x] = 1;
				more = true;
			}
		}
	}
	return more;
}

/*
 * Whether entries @a and @b of switch ordinal @s take the same hop: equal,
 * or parallel links to one switch.  A path is a routing's whole if it
 * visits its switches in its order, whichever of the parallel links it
 * takes (their channels play the same part in every layer): a core's
 * valley that follows this pass's switches need not move the parallel
 * link a spine below it keeps for every other source.
 */
static bool same_hop(const struct mg *m, uint32_t s, uint8_t a, uint8_t b)
{
	uint32_t w;

	if (a == b)
		return true;
	if (a == 0 || b == 0 || a == LFT_NONE || b == LFT_NONE)
		return false;
	w = rt_next_sw(m, s, a);
	return w != TOPO_NONE && w == rt_next_sw(m, s, b);
}

/* What a path of the merged column is (path_kind()). */
enum { PK_BASE = 1, PK_OWN = 2, PK_PLAIN = 4 };

/*
 * The path from switch @s to the current LID (m->bk) along m->try: the
 * base's (every entry on it the base's), this pass's, plain, any of these
 * or none.  Plain:
 * no hop within a level, never up after coming down, except one turn
 * (down, then up) as the path's last hop, on the source's SL 0:
 * route_sl.c lifts that hop to VL 1 (a switch LID's route turns one hop
 * below it), and the turn rows are found again for the merged tables
 * (route_mrows.c); a hop after it would be back on VL 0, going up after
 * coming down.  A path that is none is a mix whose SLs
 * and VLs neither routing proved: a patched spine that turns below (its
 * fallback) under a leaf that still sends it the LID would carry the
 * leaf's CAs up again on VL 0, then down.
 */
static unsigned path_kind(const struct mg *m, uint32_t s)
{
	const struct topo *t = m->t;
	const uint8_t *dir = m->c->dir;
	unsigned k = PK_BASE | PK_OWN | PK_PLAIN;
	int16_t zs = m->c->zone[t->sw_node[s]];
	uint32_t in = TOPO_NONE;
	bool turned = false, sl0 = !m->ngroups || (zs >= 0 && (uint32_t)zs < m->c->nzones &&
				   m->sblk[(size_t)zs * LFT_COLS + m->bk] == 0);

	for (uint32_t h = 0; k && s != TOPO_NONE && h <= m->ns; h++) {
		uint8_t e = m->try[s];
		uint32_t p;

		if (!same_hop(m, s, e, m->col[s]))
			k &= ~(unsigned)PK_BASE;
		if (!same_hop(m, s, e, m->own[s]))
			k &= ~(unsigned)PK_OWN;
		if (e == 0 || e == LFT_NONE)
			break;
		p = t->port_off[t->sw_node[s]] + e;
		if (dir[p] == CLS_DIR_SAME || turned) {
			k &= ~(unsigned)PK_PLAIN;	/* a hop after the turn drops back to VL 0 */
		} else if (dir[p] == CLS_DIR_UP && in != TOPO_NONE && dir[in] == CLS_DIR_UP) {
			if (!sl0)
				k &= ~(unsigned)PK_PLAIN;	/* the turn row lifts SL 0 only */
			turned = true;
		}
		in = t->port_remote[p];
		s = rt_next_sw(m, s, e);
	}
	return k;
}

/*
 * Switch @s's row of m->use (patch_entry()): the base's routes per port and
 * class, counted on first use (a fault patches few switches; counting
 * every row would read every entry).
 */
static uint32_t *use_row(struct mg *m, uint32_t s)
{
	const struct lft *bl = m->base->lft;
	const uint8_t *row = bl->port + (size_t)m->bsw[s] * bl->nlids;
	uint32_t *u = m->use + (size_t)s * 256 * CLS_TC_COUNT;

	if (m->used[s])
		return u;
	m->used[s] = 1;
	for (uint32_t lid = 1; lid <= m->t->max_lid && lid < bl->nlids; lid++)
		if (m->tcl[lid] != 0xff && row[lid] != LFT_NONE)
			u[(size_t)row[lid] * CLS_TC_COUNT + m->tcl[lid]]++;
	return u;
}

/*
 * m->try for @lid from m->dead: the base's entry where 0, this pass's
 * where 2, and where 1 this pass's, balanced (patch_entry()) where it
 * differs from the base's.
 */
static void build(struct mg *m, uint32_t lid, unsigned tc)
{
	for (uint32_t s = 0; s < m->ns; s++)
		m->try[s] = m->dead[s] ? m->own[s] : m->col[s];
	for (uint32_t s = 0; s < m->ns; s++)
		if (m->dead[s] == 1 && m->try[s] != m->col[s])
			m->try[s] = patch_entry(m, m->try, s, lid, m->try[s], use_row(m, s), tc);
}

/*
 * Mark 2 on @s and this pass's path from it, where the merged entry
 * (m->try) takes another hop than this pass's (same_hop()); true if any
 * mark was new.
 */
static bool own_path(struct mg *m, uint32_t s)
{
	bool grew = false;

	for (uint32_t h = 0; s != TOPO_NONE && h <= m->ns; h++) {
		if (!same_hop(m, s, m->try[s], m->own[s])) {
			grew |= m->dead[s] != 2;
			m->dead[s] = 2;
		}
		s = rt_next_sw(m, s, m->own[s]);
	}
	return grew;
}

/* The rate of the link entry @e of switch ordinal @s leaves by (UINT32_MAX: none, port 0). */
static uint32_t hop_rate(const struct mg *m, uint32_t s, uint8_t e)
{
	if (e == 0 || e == LFT_NONE)
		return UINT32_MAX;
	return m->c->rate[m->t->port_off[m->t->sw_node[s]] + e];
}

/*
 * col_walk()'s lengths unknown: every switch not walked yet.
 */
static void col_reset(const struct mg *m, int32_t *len)
{
	for (uint32_t s = 0; s < m->ns; s++)
		len[s] = -1;
}

/*
 * Switch hops from switch @s0, and from every switch on its way not
 * walked yet, to @lid following @col, into @len (col_reset() first):
 * INT32_MAX where @col does not deliver it (a loop, or a dead end: no
 * entry, a lost link, another node), and the slowest link on the way,
 * into @rate.  With @meet, also whether the path from the switch meets
 * one m->dead marks.  Each switch is walked once per reset.
 */
static void col_walk(const struct mg *m, const uint8_t *col, uint32_t lid, int32_t *len,
		     uint32_t *rate, uint8_t *meet, uint32_t s0)
{
	uint32_t *stk = m->stk, n = 0, s = s0, r, hr;
	int32_t d;
	bool mt;

	while (s != TOPO_NONE && len[s] == -1) {
		len[s] = -2;	/* on this walk: a loop if met again */
		stk[n++] = s;	/* each switch once: n <= ns */
		s = rt_next_sw(m, s, col[s]);
	}
	if (!n)
		return;	/* walked before */
	if (s == TOPO_NONE)	/* the last switch delivers, or ends nowhere */
		d = hop_ok(m, stk[n - 1], lid, col[stk[n - 1]]) ? -1 : INT32_MAX;
	else
		d = len[s] < 0 ? INT32_MAX : len[s];
	r = s != TOPO_NONE && len[s] >= 0 ? rate[s] : UINT32_MAX;
	mt = s != TOPO_NONE && meet && len[s] >= 0 && meet[s];
	while (n) {
		s = stk[--n];
		d = d == INT32_MAX ? d : d + 1;
		len[s] = d;
		hr = hop_rate(m, s, col[s]);
		rate[s] = r = hr < r ? hr : r;
		mt = mt || m->dead[s];
		if (meet)
			meet[s] = mt;
	}
}

/*
 * col_walk() from every switch: whether @col delivers @lid from every
 * switch not cut off from it (cut()), without a loop.  A walk from a
 * switch that does ends where another did, or at the LID (hop_ok() of
 * the last hop; every hop to a switch is a live one), so a loop or a
 * dead end on any switch's way leaves INT32_MAX in its length.
 */
static bool col_hops(const struct mg *m, const uint8_t *col, uint32_t lid, int32_t *len,
		     uint32_t *rate, uint8_t *meet)
{
	bool ok = true;

	col_reset(m, len);
	for (uint32_t s = 0; s < m->ns; s++)
		col_walk(m, col, lid, len, rate, meet, s);
	for (uint32_t s = 0; s < m->ns && ok; s++)
		ok = len[s] != INT32_MAX || cut(m, s);
	return ok;
}

/*
 * Switches whose path in the merged column m->try (its lengths m->len,
 * rates m->rate and meetings of a m->dead switch in m->st + ns, by
 * col_hops()) meets a switch that takes this pass's entry and is longer
 * than this pass's route (m->len + ns: col_walk() of m->own, as needed;
 * merge_lid() resets it), or as long but
 * through a slower link: a base route intact at a switch may lead into
 * one that lost its way and detours there (a core sending a leaf's LIDs
 * down to the spine that lost its link to that leaf), and a patched entry
 * may lead into a base route that crosses a link trained down (the base
 * sent no CA's route that way; this pass avoids it).  Such a switch takes
 * this pass's entry (balanced), then this pass's whole path; sets *@grew
 * when a mark is new.  Whether there was one.  A path that meets no such
 * switch is the base's whole, which this pass's may beat only by a detour
 * of the base's own (jobs, zones): kept.
 */
static bool longer(struct mg *m, uint32_t lid, bool *grew)
{
	int32_t *a = m->len, *b = m->len + m->ns;
	uint32_t *ra = m->rate, *rb = m->rate + m->ns;
	const uint8_t *meet = m->st + m->ns;	/* col_hops() of m->try */
	bool any = false;

	for (uint32_t s = 0; s < m->ns; s++) {
		if (!meet[s])
			continue;
		col_walk(m, m->own, lid, b, rb, NULL, s);
		if (b[s] == INT32_MAX || a[s] < b[s] || (a[s] == b[s] && ra[s] >= rb[s]))
			continue;
		any = true;
		if (m->dead[s]) {
			*grew |= own_path(m, s);
		} else {
			m->dead[s] = 1;
			*grew = true;
		}
	}
	return any;
}

/*
 * The column m->dead gives; strict, once every switch's path is the
 * base's, this pass's or plain: a switch whose path is a mix takes this
 * pass's entry (balanced), then this pass's whole path; and the same for
 * a switch whose path is longer than this pass's (longer()).  If it
 * delivers, write it to the tables, count its use and return true.
 */
static bool take_own(struct mg *m, uint32_t lid, unsigned tc)
{
	for (;;) {
		bool bad = false, grew = false;

		build(m, lid, tc);
		/* for longer() too: the strict marks below change m->dead only if bad */
		if (!col_hops(m, m->try, lid, m->len, m->rate, m->st + m->ns))
			return false;
		for (uint32_t s = 0; m->lstrict && s < m->ns; s++) {
			if (path_kind(m, s))
				continue;
			bad = true;
			if (m->dead[s]) {
				grew |= own_path(m, s);
			} else {
				m->dead[s] = 1;
				grew = true;
			}
		}
		if (!bad)
			bad = longer(m, lid, &grew);
		if (!bad)
			break;
		if (!grew)
			return false;
	}
	for (uint32_t s = 0; s < m->ns; s++) {
		if (m->dead[s])
			use_row(m, s)[(size_t)m->try[s] * CLS_TC_COUNT + tc]++;
		m->oblk[(size_t)s * LFT_COLS + m->bk] = m->try[s];
	}
	return true;
}

/*
 * Mark in m->dead every switch whose base entry (m->col) leads straight
 * into a switch already marked: one hop up the broken routes at a time,
 * so that a core whose entry leads down into a spine that lost its link
 * takes its own way down, and the leaves above it keep theirs (a leaf is
 * marked only when no try with the switches nearer the fault delivered;
 * marks a failed try left, longer()'s and own_path()'s, stay).  True if
 * that added any.
 */
static bool one_hop_above(struct mg *m)
{
	uint8_t *add = m->st;	/* this round's marks: a mark made now is not met again */
	bool more = false;

	for (uint32_t s = 0; s < m->ns; s++) {
		uint32_t w = m->dead[s] ? TOPO_NONE : rt_next_sw(m, s, m->col[s]);

		add[s] = w != TOPO_NONE && m->dead[w];
		more |= add[s];
	}
	for (uint32_t s = 0; s < m->ns; s++)
		if (add[s])
			m->dead[s] = 1;
	return more;
}

/*
 * take_own() on m->dead, then with the switches above it marked too, one
 * hop further up at a time (one_hop_above()), then with every switch
 * whose base route meets a marked one (broken_above()).  Whether one
 * delivered.
 */
static bool patch(struct mg *m, uint32_t lid, unsigned tc)
{
	if (take_own(m, lid, tc))
		return true;
	while (one_hop_above(m))
		if (take_own(m, lid, tc))
			return true;
	return broken_above(m, m->col, m->dead, m->st) && take_own(m, lid, tc);
}

/* Traffic class of the destination of @lid. */
static unsigned lid_class(const struct topo *t, const struct cls *c, uint32_t lid)
{
	uint32_t node = t->port_node[t->lid_port[lid]];

	return topo_is_switch(t, node) ? CLS_TC_OTHER :
	       (unsigned)cls_tclass_of((enum cls_role)c->role[node]);
}

/* Whether node @n is a CA with no port cabled (its switch gone). */
static bool cut_off(const struct topo *t, uint32_t n)
{
	if (topo_is_switch(t, n))
		return false;
	for (uint32_t p = t->port_off[n]; p < t->port_off[n + 1]; p++)
		if (t->port_remote[p] != TOPO_NONE)
			return false;
	return true;
}

/*
 * The base's SL group of each of this pass's groups, through the nodes
 * in them, and this pass's number of each base zone (an SL into or out
 * of zone z names z: a fault may number the zones otherwise); false
 * (base SLs unknown, this pass's stand) when the base kept none, this
 * pass uses one VL, there are classes, or the groups do not correspond
 * (nodes grouped apart, zones that are not zones there).  -ENOMEM in *@rc.
 */
static bool base_groups(struct mg *m, int *rc)
{
	const struct route_out *bo = m->base->out, *o = m->out;
	const struct topo *t = m->t;
	uint32_t nz = m->c->nzones;

	if (!bo || !bo->sl || !bo->sl_group || !o->sl || o->nvls < 2 || bo->tcs.n || o->tcs.n ||
	    nz >= RT_SL_ROOTED || bo->ngroups != nz + 1 + m->base->t->nswitches)
		return false;	/* ... or as many zones as here: SLs name zones */
	if (!(m->bgroup = malloc(((size_t)o->ngroups + 1) * sizeof(*m->bgroup)))) {
		*rc = -ENOMEM;
		return false;
	}
	memset(m->bgroup, 0xff, ((size_t)o->ngroups + 1) * sizeof(*m->bgroup));
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t bn = m->bnode[n], g = o->sl_group[n];

		if (bn == TOPO_NONE || g >= o->ngroups || cut_off(t, n))
			continue;	/* a CA cut off sends nothing: its group is no group */
		if (bo->sl_group[bn] >= bo->ngroups ||
		    (m->bgroup[g] != UINT32_MAX && m->bgroup[g] != bo->sl_group[bn]))
			return false;
		m->bgroup[g] = bo->sl_group[bn];
	}
	memset(m->zone_of, 0xff, sizeof(m->zone_of));
	for (uint32_t z = 0; z < nz; z++) {	/* zone groups: the base's zones, one to one */
		uint32_t bz = m->bgroup[z];

		if (bz != UINT32_MAX && (bz >= nz || m->zone_of[bz] != 0xff))
			return false;
		if (bz != UINT32_MAX)
			m->zone_of[bz] = (uint8_t)z;
	}
	if (m->bgroup[nz] != UINT32_MAX && m->bgroup[nz] != nz)
		return false;	/* the zone-less CAs' group */
	m->bo = bo;
	return true;
}

/*
 * The base's SL @v in this pass's zone numbers (route_sl.c: 1 + z into
 * zone z, 1 + Z + z out of zone z to a bridge); the others name no zone.
 * A zone no CA of this pass's shows keeps its number (SLs into it are
 * then on switch LIDs, and the verification judges them).
 */
uint8_t rt_sl_xlate(const struct mg *m, uint8_t v)
{
	uint32_t nz = m->c->nzones;
	uint8_t z;

	if (v >= 1 && v <= nz)
		z = (uint8_t)(v - 1);
	else if (v > nz && v <= 2 * nz && v < RT_SL_ROOTED)
		z = (uint8_t)(v - 1 - nz);
	else
		return v;
	return m->zone_of[z] == 0xff ? v : (uint8_t)(v - z + m->zone_of[z]);
}

/* The base's SL from group @g to @lid, in this pass's zone numbers. */
static uint8_t base_sl(const struct mg *m, uint32_t g)
{
	return rt_sl_xlate(m, m->bsblk[(size_t)m->bgroup[g] * LFT_COLS + m->bk]);
}

/*
 * For each of the @nb LIDs @lids of the block: is it routed in the rooted
 * layer (SL 13 from some group) here or in the base?  Row by row: a
 * LID's column touches a row per group.
 */
static void block_rooted(struct mg *m, const uint32_t *lids, uint32_t nb)
{
	const struct route_out *bo = m->bo;

	memset(m->rooted, 0, sizeof(m->rooted));
	for (uint32_t g = 0; g < m->ngroups; g++) {
		const uint8_t *row = m->sblk + (size_t)g * LFT_COLS;

		for (uint32_t k = 0; k < nb; k++)
			m->rooted[k] |= row[k] == RT_SL_ROOTED;
	}
	for (uint32_t g = 0; bo && g < bo->ngroups; g++) {
		const uint8_t *row = m->bsblk + (size_t)g * LFT_COLS;

		for (uint32_t k = 0; k < nb; k++)
			m->rooted[k] |= row[k] == RT_SL_ROOTED && lids[k] < bo->nlids;
	}
}

/*
 * path_kind()'s PK_BASE and PK_OWN of the path from switch @s to the LID,
 * which do not depend on how the path got to a switch: memoized along the
 * paths in @memo (0 unknown, 1 on this walk, else 2 + the flags), O(1)
 * per switch.  A loop, or a path longer than RT_MAXD, is walked by
 * path_kind() instead.
 */
static unsigned base_own(const struct mg *m, uint32_t s, uint8_t *memo)
{
	uint32_t walk[RT_MAXD + 1], n = 0, x = s;
	unsigned k = PK_BASE | PK_OWN;

	while (x != TOPO_NONE && !memo[x] && n <= RT_MAXD) {
		memo[x] = 1;
		walk[n++] = x;
		x = m->try[x] && m->try[x] != LFT_NONE ? rt_next_sw(m, x, m->try[x]) : TOPO_NONE;
	}
	if (x != TOPO_NONE && memo[x] < 2) {	/* a loop, or too long */
		while (n--)
			memo[walk[n]] = 0;
		return path_kind(m, s) & (PK_BASE | PK_OWN);
	}
	if (x != TOPO_NONE)
		k = memo[x] - 2u;
	while (n--) {
		uint32_t z = walk[n];

		k &= (m->try[z] == m->col[z] ? (unsigned)PK_BASE : 0u) |
		     (m->try[z] == m->own[z] ? (unsigned)PK_OWN : 0u);
		memo[z] = (uint8_t)(2 + k);
	}
	return k;
}

/*
 * The SLs to @lid of the merged column: a switch's group takes the SL of
 * the routing whose path it follows (this pass's, else the base's), or
 * its zone's CAs' SL where its path is plain up*down* of neither; with
 * @intact, every group the base's.  Without the base's SLs a path that
 * is the base's only keeps this pass's SL, as before.
 */
static void set_sls(struct mg *m, uint32_t lid, bool intact)
{
	const struct route_out *bo = m->bo;
	uint32_t nz = m->c->nzones;
	uint8_t *col = m->sblk + m->bk, *memo = m->st + m->ns;	/* stride LFT_COLS */

	if (!intact)
		memset(memo, 0, m->ns);
	for (uint32_t g = 0; g < m->ngroups; g++) {
		bool from_base = bo && m->bgroup[g] != UINT32_MAX && lid < bo->nlids;
		uint32_t s = g - nz - 1, node;
		unsigned k;

		if (g <= nz || intact) {	/* CAs: their zone's SL, the same in both */
			if (intact && from_base)
				col[(size_t)g * LFT_COLS] = base_sl(m, g);
			continue;
		}
		k = base_own(m, s, memo);
		node = m->t->sw_node[s];
		if (k & PK_OWN)
			continue;
		if ((k & PK_BASE) && from_base)
			col[(size_t)g * LFT_COLS] = base_sl(m, g);
		else if (path_kind(m, s) & PK_PLAIN)
			col[(size_t)g * LFT_COLS] =
				col[(size_t)(m->c->zone[node] >= 0 ? (uint32_t)m->c->zone[node] : nz) *
				    LFT_COLS];
	}
}

/* Keep this pass's columns (LFT, then SLs) of @lid for a merge after this one. */
static int keep_lid(struct mg *m, uint32_t lid)
{
	struct rt_merge_keep *k = m->keep;
	size_t w = (size_t)m->ns + m->ngroups;

	if (k->n == k->cap) {
		uint32_t cap = k->cap ? 2 * k->cap : 64;
		uint32_t *l = realloc(k->lid, (size_t)cap * sizeof(*l));
		uint8_t *c = l ? realloc(k->col, cap * w) : NULL;

		if (l)
			k->lid = l;
		if (!c)
			return -ENOMEM;
		k->col = c;
		k->cap = cap;
	}
	k->lid[k->n] = lid;
	memcpy(k->col + k->n * w, m->own, m->ns);
	for (uint32_t g = 0; g < m->ngroups; g++)
		k->col[k->n * w + m->ns + g] = m->sblk[(size_t)g * LFT_COLS + m->bk];
	k->n++;
	return 0;
}

/* Put back the columns keep_lid() or rt_copy_base() kept: this pass's tables before the merge. */
static void restore(struct mg *m)
{
	const struct rt_merge_keep *k = m->keep;
	struct route_out *o = m->out;
	size_t w = (size_t)m->ns + m->ngroups;

	for (uint32_t r = 0; k->rows && r < w; r++) {	/* row by row: a row per switch, group */
		uint8_t *row = r < m->ns ? o->lft->port + (size_t)r * o->lft->nlids :
			       o->sl + (size_t)(r - m->ns) * o->nlids;

		for (uint32_t i = 0; i < k->n; i++)
			row[k->lid[i]] = k->col[(size_t)r * k->n + i];
	}
	for (uint32_t i = 0; !k->rows && i < k->n; i++) {
		for (uint32_t s = 0; s < m->ns; s++)
			lft_set(o->lft, s, k->lid[i], k->col[i * w + s]);
		for (uint32_t g = 0; g < m->ngroups; g++)
			o->sl[(size_t)g * o->nlids + k->lid[i]] = k->col[i * w + m->ns + g];
	}
}

void rt_merge_keep_free(struct rt_merge_keep *k)
{
	free(k->lid);
	free(k->col);
	memset(k, 0, sizeof(*k));
}

/* One LID: the base's column, patched, or this pass's (take_own()).  0 or -ENOMEM. */
static int merge_lid(struct mg *m, uint32_t lid, struct rt_merge_count *n)
{
	const struct topo *t = m->t;
	unsigned tc = lid_class(t, m->c, lid);
	uint32_t nd = 0;

	if (m->force && m->force[lid]) {	/* a changed job's: this pass's column and SLs */
		n->rerouted++;
		return 0;
	}
	for (uint32_t s = 0; s < m->ns; s++) {
		m->col[s] = m->bblk[(size_t)s * LFT_COLS + m->bk];
		m->own[s] = m->oblk[(size_t)s * LFT_COLS + m->bk];
		/* no entry in either: cut off from the LID (an isolated switch) */
		m->dead[s] = !hop_ok(m, s, lid, m->col[s]) && !cut(m, s);
		nd += m->dead[s];
	}
	if (!nd) {
		n->intact++;
		for (uint32_t s = 0; s < m->ns; s++)
			m->oblk[(size_t)s * LFT_COLS + m->bk] = m->col[s];
		set_sls(m, lid, true);
		return 0;
	}
	m->lstrict = m->strict || (m->slid && m->slid[lid]);
	col_reset(m, m->len + m->ns);	/* this pass's lengths: longer() walks them */
	if (m->broke)
		m->broke[lid] = 1;
	if (!m->again && !m->only && keep_lid(m, lid))
		return -ENOMEM;
	/* the entries into a lost link; then the switches above them, one hop
	 * at a time, then every switch whose base route meets one (patch());
	 * then this pass's whole column */
	if (!m->rooted[m->bk] && patch(m, lid, tc)) {
		n->patched++;
	} else {
		n->rerouted++;
		memset(m->dead, 2, m->ns);
		take_own(m, lid, tc);
	}
	set_sls(m, lid, false);
	return 0;
}

/* The base's columns of @lids[0..n) into m->bblk, row by row (lft_cols_get() by base ordinal). */
static void base_cols(struct mg *m, const uint32_t *lids, uint32_t n)
{
	const struct lft *bl = m->base->lft;

	for (uint32_t s = 0; s < m->ns; s++) {
		const uint8_t *row = bl->port + (size_t)m->bsw[s] * bl->nlids;
		uint8_t *col = m->bblk + (size_t)s * LFT_COLS;

		for (uint32_t k = 0; k < n; k++)
			col[k] = lids[k] < bl->nlids ? row[lids[k]] : LFT_NONE;
	}
}

/* turn_routes()'s rows of one half. */
struct turns {
	const uint8_t *sl;	/* the switches' rows of the SL table */
	uint32_t nlids;
	unsigned nvalley;	/* the fallback routes' SLs of their own (rt_valley_nsl()) */
	uint64_t n[2];
};

static void count_turns(void *ctx, uint32_t lo, uint32_t hi, unsigned half)
{
	struct turns *x = ctx;

	const uint8_t *sl = x->sl + (size_t)lo * x->nlids;
	size_t n = (size_t)(hi - lo) * x->nlids;

	x->n[half] += ffr_count_byte_range(sl, n, ROUTE_SL_TURN, RT_SL_VALLEY + 1 - x->nvalley,
					   RT_SL_VALLEY);
}

/* The switches' own routes on the turn SL in the merged tables, on two threads. */
static uint64_t turn_routes(const struct mg *m)
{
	const struct route_out *o = m->out;
	uint32_t nz = m->c->nzones;
	struct turns x = { o->sl + (size_t)(nz + 1) * o->nlids, o->nlids,
			   rt_valley_nsl(m->c), { 0, 0 } };

	if (o->ngroups > nz + 1)
		ffr_split2(m->threads, o->ngroups - nz - 1, 64, count_turns, &x);
	return x.n[0] + x.n[1];
}

/*
 * The columns of the @nb LIDs to merge from the @i-th on, from what
 * rt_copy_base() kept row by row (m->bcols; this pass's entries and SLs in
 * m->keep): contiguous reads, where the tables' rows take one a column.
 */
static void kept_cols(struct mg *m, uint32_t i, uint32_t nb)
{
	const struct rt_merge_keep *k = m->keep;

	for (uint32_t s = 0; s < m->ns; s++) {
		memcpy(m->bblk + (size_t)s * LFT_COLS, m->bcols + (size_t)s * k->n + i, nb);
		memcpy(m->oblk + (size_t)s * LFT_COLS, k->col + (size_t)s * k->n + i, nb);
	}
	for (uint32_t g = 0; g < m->ngroups; g++)
		memcpy(m->sblk + (size_t)g * LFT_COLS, k->col + (size_t)(m->ns + g) * k->n + i, nb);
	for (uint32_t g = 0; m->bscols && g < m->bo->ngroups; g++)
		memcpy(m->bsblk + (size_t)g * LFT_COLS, m->bscols + (size_t)g * k->n + i, nb);
}

/*
 * Every LID to merge (merge_lid()), LFT_COLS at a time: their columns of
 * both LFTs and SL tables row by row (one LID's column touches a row per
 * switch and group, far apart), merged, put back.  0 or -ENOMEM.
 */
static int merge_lids(struct mg *m, struct rt_merge_count *n)
{
	const struct topo *t = m->t;
	struct route_out *o = m->out;
	const struct route_out *bo = m->bo;
	struct lft sl = { .nsw = m->ngroups, .nlids = o->nlids, .port = o->sl };
	struct lft bsl = { .nsw = bo ? bo->ngroups : 0, .nlids = bo ? bo->nlids : 0,
			   .port = bo ? bo->sl : NULL };
	uint32_t lids[LFT_COLS], nk = 0;
	int rc = 0;

	m->sblk = malloc(((size_t)sl.nsw + bsl.nsw) * LFT_COLS + 1);
	if (!m->sblk)
		return -ENOMEM;
	m->bsblk = m->sblk + (size_t)sl.nsw * LFT_COLS;
	for (uint32_t lid = 1, nb = 0; !rc && lid <= t->max_lid + 1; lid++) {
		if (lid <= t->max_lid && t->lid_port[lid] != TOPO_NONE) {
			if (m->only && !m->only[lid])
				n->intact++;
			else
				lids[nb++] = lid;
		}
		if (nb < LFT_COLS && lid <= t->max_lid)
			continue;
		if (m->bcols)	/* rt_copy_base() kept them row by row */
			kept_cols(m, nk, nb);
		else
			base_cols(m, lids, nb);
		if (!m->bcols)
			lft_cols_get(o->lft, lids, nb, m->oblk);
		if (!m->bcols)
			lft_cols_get(&sl, lids, nb, m->sblk);
		if (!m->bscols)
			lft_cols_get(&bsl, lids, nb, m->bsblk);
		nk += nb;
		block_rooted(m, lids, nb);
		for (m->bk = 0; m->bk < nb && !rc; m->bk++)
			rc = merge_lid(m, lids[m->bk], n);
		lft_cols_put(o->lft, lids, nb, m->oblk);
		lft_cols_put(&sl, lids, nb, m->sblk);
		if (m->rows && !rc)
			rt_rows_done(m->rows, lid);	/* their walks may go on */
		nb = 0;
	}
	free(m->sblk);
	m->sblk = m->bsblk = NULL;
	return rc;
}

/*
 * For every LID, the least of this pass's entries that delivers it from
 * every switch: none when the base's route is intact; else this pass's
 * (balanced) only where a base entry leads into a lost link; else also
 * wherever the base's route meets one (a lost spine that was the LID's way
 * down: the cores above it, and the switches that sent the LID to them,
 * choose again; the rest keep the base's); else this pass's whole column.
 * Every switch's path ends up the base's, this pass's or plain up*down*
 * (take_own()), and its SLs those of the routing it follows (set_sls(),
 * merge_rows()).  Counts the LIDs intact, patched (either middle way) and
 * re-routed.  Following a patched column from any switch takes this
 * pass's entries until it meets a switch whose base route is whole, then
 * that route: it delivers, and from no switch by a longer path than this
 * pass's (longer()).  0 or -ENOMEM.
 */
int rt_base_merge(const struct topo *t, const struct cls *c, const struct route_base *base,
		  struct route_out *out, const struct rt_merge_how *h,
		  struct rt_merge_keep *keep, struct rt_merge_count *n)
{
	struct mg m = { .t = t, .c = c, .base = base, .out = out, .ns = t->nswitches,
			.ngroups = out->sl ? out->ngroups : 0, .strict = h->strict, .keep = keep,
			.slid = h->strict_lid, .again = h->strict || h->strict_lid,
			.broke = h->broke,
			.only = h->only, .force = h->force, .bnode = h->bnode, .copy = h->copy,
			.threads = h->threads };
	const uint8_t *only = h->only;
	bool rows = m.ngroups && out->nvls >= 2 && !out->tcs.n;
	struct rt_rows rw = { 0 };	/* layer SLs: the merged tables' turn rows */
	size_t ns = m.ns;
	int rc;

	m.bsw = malloc((ns + 1) * sizeof(*m.bsw));
	m.use = calloc(ns * 256 * CLS_TC_COUNT + 1, sizeof(*m.use));
	m.used = calloc(ns + 1, 1);
	m.tcl = malloc((size_t)t->max_lid + 1);
	m.col = malloc(4 * ns + 1);
	m.st = calloc(2 * ns + 1, 1);
	m.len = malloc((2 * ns + 1) * sizeof(*m.len));
	m.rate = malloc((2 * ns + 1) * sizeof(*m.rate));
	m.stk = malloc((ns + 2) * sizeof(*m.stk));
	m.bblk = malloc(2 * ns * LFT_COLS + 1);
	m.oblk = m.bblk ? m.bblk + ns * LFT_COLS : NULL;
	rc = m.bsw && m.use && m.used && m.tcl && m.col && m.st && m.len && m.rate && m.stk &&
	     m.bblk ? 0 : -ENOMEM;
	memset(n, 0, sizeof(*n));
	if (!rc) {
		m.own = m.col + ns;
		m.try = m.own + ns;
		m.dead = m.try + ns;
		rc = (m.nx = topo_sw_peers(t)) ? 0 : -ENOMEM;
	}
	if (!rc)
		base_groups(&m, &rc);
	/* this pass routed only @only: every other LID's SLs must be the base's */
	if (!rc && only && !m.bo && out->nvls >= 2) {
		snprintf(out->mode_why, sizeof(out->mode_why), "the base's SLs are unknown");
		rc = -EAGAIN;
	}
	for (uint32_t s = 0; !rc && s < ns; s++)
		m.bsw[s] = base->t->node_sw[m.bnode[t->sw_node[s]]];
	for (uint32_t lid = 1; !rc && lid <= t->max_lid; lid++)
		m.tcl[lid] = t->lid_port[lid] != TOPO_NONE ? (uint8_t)lid_class(t, c, lid) : 0xff;
	if (!rc && only && !m.again)
		rc = rt_copy_base(&m);
	else if (!rc && m.again)
		restore(&m);	/* this pass's tables, as before the first merge */
	if (!rc && !m.again)
		rc = rt_merge_valleys(&m);
	if (!rc && rows && !(rc = rt_rows_begin(&m, &rw)))
		m.rows = &rw;
	if (!rc)
		rc = merge_lids(&m, n);
	out->valley_planes = 0;	/* this pass's, not the merged tables' */
	if (!rc && !rows) {
		free(out->turned);	/* this pass's marks, not the merged tables' */
		out->turned = NULL;
	} else if (!rc) {	/* layer SLs: classes map rows */
		rc = rt_rows_end(&m, &rw);
		out->turn_routes = turn_routes(&m);
	}
	rt_rows_free(&rw);
	free(m.bcols);
	free(m.bscols);
	free(m.nx);
	free(m.bsw);
	free(m.bgroup);
	free(m.use);
	free(m.bblk);
	free(m.used);
	free(m.tcl);
	free(m.col);
	free(m.st);
	free(m.len);
	free(m.rate);
	free(m.stk);
	return rc;
}

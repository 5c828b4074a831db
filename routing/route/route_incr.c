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
 * the base's); else every switch whose base route meets the fault takes
 * this pass's entry (rt_base_merge); else the LID takes this pass's whole
 * column.  Up*down* and the VL rules are for the verification to judge.
 *
 * Cost: O(nodes + ports) to compare the fabrics, O(switches x LIDs) to
 * merge.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

/*
 * Is @t the base minus something?  1: a strict subset, 0: the same
 * fabric, -1: not a subset (@why says what the base lacks).
 */
int rt_base_subset(const struct topo *t, const struct route_base *base, char *why, size_t len)
{
	const struct topo *b = base->t;
	bool less = t->nnodes < b->nnodes || t->nlinks < b->nlinks;

	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t bp = topo_port_in(t, p, b), r = t->port_remote[p];
		const char *what = NULL;

		if (r == TOPO_NONE && !topo_is_switch(t, t->port_node[p]))
			continue;	/* a CA port cut off: no route to it, whatever its LID */
		if (bp == TOPO_NONE)
			what = "a node or port";
		else if (t->port_lid[p] != b->port_lid[bp] || t->port_lmc[p] != b->port_lmc[bp])
			what = "this LID";
		else if (r != TOPO_NONE && b->port_remote[bp] != topo_port_in(t, r, b))
			what = "a link";
		if (what) {
			snprintf(why, len, "the base has not %s: %s (0x%016llx) port %u", what,
				 t->node_desc[t->port_node[p]],
				 (unsigned long long)t->node_guid[t->port_node[p]], topo_port_num(t, p));
			return -1;
		}
	}
	return less ? 1 : 0;
}

/* Does entry @e of switch ordinal @s lead toward @lid on @t (a live hop, or @lid itself)? */
static bool hop_ok(const struct topo *t, uint32_t s, uint32_t lid, uint8_t e)
{
	uint32_t node = t->sw_node[s], dp = t->lid_port[lid], r;

	if (e == LFT_NONE || e > t->node_nports[node])
		return false;
	if (e == 0)
		return t->port_node[dp] == node;
	r = t->port_remote[t->port_off[node] + e];
	return r != TOPO_NONE && (topo_is_switch(t, t->port_node[r]) || r == dp);
}

/* The switch ordinal entry @e of switch @s leads to, or TOPO_NONE (port 0, a CA). */
static uint32_t next_sw(const struct topo *t, uint32_t s, uint8_t e)
{
	uint32_t r = e ? t->port_remote[t->port_off[t->sw_node[s]] + e] : TOPO_NONE;

	return r != TOPO_NONE && topo_is_switch(t, t->port_node[r]) ?
	       t->node_sw[t->port_node[r]] : TOPO_NONE;
}

/*
 * Does column @col (an entry per switch ordinal) deliver @lid from every
 * switch, without a loop?  @st: scratch [nswitches].
 */
static bool delivers(const struct topo *t, const uint8_t *col, uint32_t lid, uint8_t *st)
{
	memset(st, 0, t->nswitches);	/* 0 unknown, 1 on this walk, 2 delivers */
	for (uint32_t s0 = 0; s0 < t->nswitches; s0++) {
		uint32_t s = s0, x;

		while (s != TOPO_NONE && st[s] == 0) {
			if (!hop_ok(t, s, lid, col[s]))
				return false;
			st[s] = 1;
			s = next_sw(t, s, col[s]);
		}
		if (s != TOPO_NONE && st[s] == 1)
			return false;	/* a loop */
		for (x = s0; x != TOPO_NONE && st[x] == 1; x = next_sw(t, x, col[x]))
			st[x] = 2;
	}
	return true;
}

/* Hops from switch @w following @col to @lid; 0 if it does not get there. */
static unsigned hops(const struct topo *t, const uint8_t *col, uint32_t w, uint32_t lid)
{
	for (unsigned h = 1; h <= t->nswitches; h++) {
		if (!hop_ok(t, w, lid, col[w]))
			return 0;
		if ((w = next_sw(t, w, col[w])) == TOPO_NONE)
			return h;
	}
	return 0;
}

/*
 * Switch ordinal @s's entry for @lid where the base's met a fault: of its
 * links to switches of the level this pass's entry @e goes to, whose
 * entries lead on to @lid in as many hops, the one its routes of class
 * @tc use least (@use: [switch][port][class]).  This pass chose @e with
 * its own balance, not the base's: the destinations a lost spine carried
 * would otherwise all take the link D-mod-K's digit names.
 */
static uint8_t patch_entry(const struct topo *t, const struct cls *c, const uint8_t *col,
			   uint32_t s, uint32_t lid, uint8_t e, const uint32_t *use, unsigned tc)
{
	uint32_t node = t->sw_node[s], w0 = next_sw(t, s, e), h0;
	const uint32_t *u = use + ((size_t)s * 256) * CLS_TC_COUNT;
	uint8_t best = e;

	if (w0 == TOPO_NONE || !(h0 = hops(t, col, w0, lid)))
		return e;
	for (unsigned p = 1; p <= t->node_nports[node]; p++) {
		uint32_t w = next_sw(t, s, (uint8_t)p);

		if (w == TOPO_NONE || p == best ||
		    c->level[t->sw_node[w]] != c->level[t->sw_node[w0]] ||
		    u[p * CLS_TC_COUNT + tc] >= u[best * CLS_TC_COUNT + tc] ||
		    hops(t, col, w, lid) != h0)
			continue;
		best = (uint8_t)p;
	}
	return best;
}

/*
 * Mark in @dead every switch whose base route (@col) meets a switch already
 * marked; true if that added any.  @st: scratch [nswitches].
 */
static bool broken_above(const struct topo *t, const uint8_t *col, uint8_t *dead, uint8_t *st)
{
	bool more = false;

	memset(st, 0, t->nswitches);	/* 0 unknown, 1 on this walk, 2 done */
	for (uint32_t s0 = 0; s0 < t->nswitches; s0++) {
		uint32_t s = s0, x;
		uint8_t bad;

		while (s != TOPO_NONE && st[s] == 0 && !dead[s]) {
			st[s] = 1;
			s = next_sw(t, s, col[s]);
		}
		bad = s != TOPO_NONE && (dead[s] || st[s] == 1);
		for (x = s0; x != TOPO_NONE && st[x] == 1; x = next_sw(t, x, col[x])) {
			st[x] = 2;
			more |= bad && !dead[x];
			dead[x] |= bad;
		}
	}
	return more;
}

/*
 * @col: the base's column of @lid with this pass's (@l's) entries where
 * @dead, balanced where they differ from the base's (patch_entry()); if it
 * delivers from every switch, write it to @l, count its use and return
 * true.  @col keeps the base's entries where not @dead either way.
 */
static bool take_own(const struct topo *t, const struct cls *c, const struct route_base *base,
		     const uint32_t *bsw, struct lft *l, uint32_t lid, unsigned tc, uint8_t *col,
		     const uint8_t *dead, uint32_t *use, uint8_t *st)
{
	uint32_t ns = t->nswitches;
	uint8_t *try = st + ns;	/* scratch: the candidate column */

	for (uint32_t s = 0; s < ns; s++)
		try[s] = dead[s] ? lft_get(l, s, lid) : col[s];
	for (uint32_t s = 0; s < ns; s++)	/* where it moves anyway */
		if (dead[s] && try[s] != lft_get(base->lft, bsw[s], lid))
			try[s] = patch_entry(t, c, try, s, lid, try[s], use, tc);
	if (!delivers(t, try, lid, st))
		return false;
	for (uint32_t s = 0; s < ns; s++) {
		if (dead[s])
			use[((size_t)s * 256 + try[s]) * CLS_TC_COUNT + tc]++;
		lft_set(l, s, lid, try[s]);
	}
	return true;
}

/* Traffic class of the destination of @lid. */
static unsigned lid_class(const struct topo *t, const struct cls *c, uint32_t lid)
{
	uint32_t node = t->port_node[t->lid_port[lid]];

	return topo_is_switch(t, node) ? CLS_TC_OTHER :
	       (unsigned)cls_tclass_of((enum cls_role)c->role[node]);
}

/*
 * For every LID, the least of this pass's entries that delivers it from
 * every switch: none when the base's route is intact; else this pass's
 * (balanced) only where a base entry leads into a lost link; else also
 * wherever the base's route meets one (a lost spine that was the LID's way
 * down: the cores above it, and the switches that sent the LID to them,
 * choose again; the rest keep the base's); else this pass's whole column.
 * Counts the LIDs intact, patched (either middle way) and re-routed.
 * Following a patched column from any switch takes this pass's entries
 * until it meets a switch whose base route is whole, then that route: it
 * delivers, and minimally (no path of the fabric is shorter than the
 * base's, which is still there).  0 or -ENOMEM.
 */
int rt_base_merge(const struct topo *t, const struct cls *c, const struct route_base *base,
		  struct lft *l, struct rt_merge_count *n)
{
	uint32_t ns = t->nswitches, *bsw = malloc(((size_t)ns + 1) * sizeof(*bsw));
	uint32_t *use = calloc((size_t)ns * 256 * CLS_TC_COUNT + 1, sizeof(*use));
	uint8_t *col = malloc((size_t)ns + 1), *st = calloc(2 * (size_t)ns + 1, 1);
	uint8_t *dead = calloc((size_t)ns + 1, 1);
	int rc = bsw && use && col && st && dead ? 0 : -ENOMEM;

	memset(n, 0, sizeof(*n));
	for (uint32_t s = 0; !rc && s < ns; s++)
		bsw[s] = base->t->node_sw[topo_find_guid(base->t, t->node_guid[t->sw_node[s]])];
	for (uint32_t lid = 1; !rc && lid <= t->max_lid; lid++) {	/* the base's use */
		unsigned tc = t->lid_port[lid] != TOPO_NONE ? lid_class(t, c, lid) : 0;

		for (uint32_t s = 0; t->lid_port[lid] != TOPO_NONE && s < ns; s++) {
			uint8_t e = lft_get(base->lft, bsw[s], lid);

			if (e != LFT_NONE)
				use[((size_t)s * 256 + e) * CLS_TC_COUNT + tc]++;
		}
	}
	for (uint32_t lid = 1; !rc && lid <= t->max_lid; lid++) {
		uint32_t own = 0;
		unsigned tc;

		if (t->lid_port[lid] == TOPO_NONE)
			continue;
		tc = lid_class(t, c, lid);
		for (uint32_t s = 0; s < ns; s++) {
			col[s] = lft_get(base->lft, bsw[s], lid);
			dead[s] = !hop_ok(t, s, lid, col[s]);
			own += dead[s];
		}
		if (!own) {
			n->intact++;
			for (uint32_t s = 0; s < ns; s++)
				lft_set(l, s, lid, col[s]);
			continue;
		}
		/* the entries into a lost link; then every switch whose base route
		 * meets one; then this pass's whole column */
		if (take_own(t, c, base, bsw, l, lid, tc, col, dead, use, st) ||
		    (broken_above(t, col, dead, st) &&
		     take_own(t, c, base, bsw, l, lid, tc, col, dead, use, st))) {
			n->patched++;
			continue;
		}
		n->rerouted++;
		memset(dead, 1, ns);
		take_own(t, c, base, bsw, l, lid, tc, col, dead, use, st);
	}
	free(bsw);
	free(use);
	free(col);
	free(st);
	free(dead);
	return rc;
}

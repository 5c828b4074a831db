// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_find.c - correctness, minimality, rail and zone findings of a routing.
 *
 * A route is the forwarding path of one (switch with a table, LID) pair,
 * for every switch that has a table and every LID the fabric assigns (each
 * LID of a port's LMC range, switch port-0 LIDs included).
 *
 * Algorithm.  Destinations are taken one at a time, grouped by the switch
 * their port is cabled to (the "attach" switch; a switch LID's attach
 * switch is the switch itself).  One BFS over switch-switch links from the
 * attach switch gives every switch's shortest distance in switch hops and
 * whether a physical path exists (judged against a trace, chk_trace.c, or
 * with chk_opts.no_minimal: only for a LID with a route that fails;
 * non_minimal is not counted).
 * Then each switch's outcome toward the LID is resolved with
 * memoisation: a switch's outcome is its own LFT
 * entry's outcome, or, when the entry leads to another switch with a
 * table, that switch's outcome one hop longer.  Walking from an unresolved
 * switch pushes switches on a chain until a resolved switch, a terminal
 * entry or a switch already on the chain (a loop) is met; the chain then
 * inherits back.  Every switch is resolved once per LID, so the total is
 * O(switches x LIDs) LFT reads, plus one BFS per attach switch,
 * O(switches x switch links) in all.  Route properties needed by the zone
 * and rail findings (inter-zone link used, zone left, other-rail leaf
 * passed, number of zone changes) are memoised the same way.  Per-channel
 * route counts come from subtree sizes: the valid routes toward one LID
 * form an in-tree; processing switches by decreasing hop count and adding
 * each subtree to its next hop gives the routes using each channel in
 * O(switches) per LID: r->ch_routes[p] is the number of valid routes whose
 * path uses channel p (switch-switch and switch-CA channels alike), and
 * r->ch_routes_tc[k][p] the same for destinations of traffic class k
 * (switch LIDs count as "other"), r->ch_dests_tc[k][p] the number of
 * class-k destination LIDs whose valid routes use channel p at all.
 * The valid routes are handed to chk_cdg.c as a bitmap for the
 * credit-loop analysis.
 *
 * Definitions (a "route" is one (switch, LID) pair; counts are routes
 * unless said otherwise; examples are grouped per destination LID):
 *
 *   no_table              a switch has no forwarding table (counted per
 *                         switch; routes of other switches that enter it
 *                         are counted in its example, not elsewhere). Hard.
 *   unreachable           an LFT entry on the way is empty (or the LID is
 *                         beyond the table) although a physical path exists
 *                         from the switch to the destination.  Hard.
 *   unreachable_physical  no physical path (over cabled switch-switch links)
 *                         from the switch to the destination's attach
 *                         switch, whatever the LFTs say.  Not hard.
 *   loop                  the route visits a switch twice.  Hard.
 *   blackhole             the route ends at an out-port that is not cabled
 *                         or beyond the switch's ports, at port 0 of a switch
 *                         that does not own the LID, or at a CA/router port
 *                         that does not own the LID.  Hard.
 *   switch_lid            a route to a switch LID is a loop, black hole or
 *                         empty entry although a physical path exists (kept
 *                         apart from the CA-LID findings above).  Hard.
 *   non_minimal           a valid route takes more switch-switch hops than
 *                         the BFS shortest distance; stretch = hops taken /
 *                         shortest.  Not hard.  Metrics nonminimal_routes,
 *                         nonminimal_max_stretch (1 when none),
 *                         nonminimal_routes_zone<k> (switch and destination
 *                         both in zone k) and nonminimal_routes_other.
 *   rail_mix              (rails exist: >= 2) a switch-switch link carries,
 *                         in either direction, valid routes from a rail-r
 *                         leaf to rail-r CAs for two different r (routes
 *                         from other rails' leaves are cross-rail traffic a
 *                         rail-optimized fabric does not send); only
 *                         links whose lower switch serves one rail (or
 *                         none) count: a switch above leaves of several
 *                         rails shares its links by design.  Counted per
 *                         link.  Hard.
 *   rail_leave            (rails exist) a valid route from a switch of rail
 *                         r's plane (the leaves of rail r and every switch
 *                         with no rail) to a rail-r CA passes, after the
 *                         switch, a leaf of another rail although the
 *                         switch reaches the CA's leaf inside the plane.
 *                         Hard.
 *   cross_zone_link       (zones exist: >= 2) a valid route from a switch to
 *                         a CA of the same zone uses an inter-zone link, or
 *                         any valid route to a CA changes zone more than
 *                         once (changes counted between consecutive zoned
 *                         switches on the path; bridges have no zone).  Hard.
 *   storage_cross_zone    (zones exist) a valid route from a switch of zone
 *                         z to a storage HCA of zone z passes a switch that
 *                         is not in zone z.  Hard.  (Such a route is also a
 *                         cross_zone_link.)
 *   credit_loop           see chk_cdg.c.
 *
 * Examples name nodes by NodeDescription, or by GUID when it is empty or
 * shared with another node, and give port numbers and LIDs
 * (chk_find_text.c).
 *
 * Invariants: the topology and LFTs are read-only; a report's counters
 * only grow; output is deterministic (switches and LIDs in index order
 * within a destination group, groups in attach-switch order).
 * Memory: O(switches) per destination, O(ports) per channel, plus a
 * switches x LIDs bitmap.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/util.h"
#include "check/chk_find.h"
#include "check/chk_trace.h"

/* ---- allocation ------------------------------------------------------------ */

static void find_free(struct find *f)
{
	free(f->st);
	free(f->peer);
	free(f->bits);
	free(f->zch);
	free(f->fz);
	free(f->hops);
	free(f->at);
	free(f->nxt);
	free(f->outp);
	free(f->sub);
	free(f->chain);
	free(f->order);
	free(f->bucket);
	free(f->dist);
	free(f->queue);
	free(f->pcomp);
	free(f->ok);
	free(f->notab);
	free(f->nonmin_zone);
	free(f->blk);
	for (int i = 0; i < 2; i++) {
		free(f->chr[i]);
		free(f->chlid[i]);
	}
}

static int find_alloc(struct find *f)
{
	size_t n = (size_t)f->nsw + 1, np = (size_t)f->t->nports + 1;

	f->st = calloc(n, 1);
	f->bits = calloc(n, 1);
	f->zch = calloc(n, 1);
	f->fz = calloc(n, sizeof(int16_t));
	f->hops = calloc(n, sizeof(uint16_t));
	f->at = calloc(n, sizeof(uint32_t));
	f->nxt = calloc(n, sizeof(uint32_t));
	f->outp = calloc(n, sizeof(uint32_t));
	f->sub = calloc(n, sizeof(uint32_t));
	f->chain = calloc(n, sizeof(uint32_t));
	f->order = calloc(n, sizeof(uint32_t));
	f->bucket = calloc(n + 1, sizeof(uint32_t));
	f->dist = calloc(n, sizeof(uint32_t));
	f->queue = calloc(n, sizeof(uint32_t));
	f->pcomp = calloc(n * (f->c->nrails + 1), sizeof(uint32_t));
	f->ok = calloc(((size_t)f->nsw * f->nlids + 7) / 8 + 1, 1);
	f->notab = calloc(n, sizeof(uint64_t));
	f->nonmin_zone = calloc((size_t)f->c->nzones + 1, sizeof(uint64_t));
	f->blk = malloc(n * LFT_COLS);
	f->peer = topo_sw_peers(f->t);
	for (int i = 0; i < 2; i++) {
		f->chr[i] = malloc(np * sizeof(int16_t));
		f->chlid[i] = calloc(np, sizeof(uint32_t));
		if (!f->chr[i] || !f->chlid[i])
			return -ENOMEM;
		for (size_t p = 0; p < np; p++)
			f->chr[i][p] = -1;
	}
	if (!f->st || !f->bits || !f->zch || !f->fz || !f->hops || !f->at || !f->nxt ||
	    !f->outp || !f->sub || !f->chain || !f->order || !f->bucket || !f->dist ||
	    !f->queue || !f->pcomp || !f->ok || !f->notab || !f->nonmin_zone || !f->blk ||
	    !f->peer)
		return -ENOMEM;
	return 0;
}

/* ---- physical reachability --------------------------------------------------- */

/* BFS over switch-switch links from switch ordinal @a into f->dist. */
static void bfs(struct find *f, uint32_t a)
{
	const struct topo *t = f->t;
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < f->nsw; s++)
		f->dist[s] = DIST_INF;
	if (a == TOPO_NONE)
		return;
	f->dist[a] = 0;
	f->queue[tail++] = a;
	while (head < tail) {
		uint32_t s = f->queue[head++], node = t->sw_node[s];

		for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
			uint32_t q = sw_peer(t, p);

			if (q != TOPO_NONE && f->dist[q] == DIST_INF) {
				f->dist[q] = f->dist[s] + 1;
				f->queue[tail++] = q;
			}
		}
	}
}

/* In rail r's plane: a leaf of rail r or a switch without a rail. */
static bool in_plane(const struct find *f, uint32_t s, int r)
{
	int16_t sr = f->c->rail[f->t->sw_node[s]];

	return sr < 0 || sr == r;
}

/* Connected components of each rail plane (labelled by lowest member). */
static void rail_planes(struct find *f)
{
	const struct topo *t = f->t;

	for (uint32_t r = 0; r < f->c->nrails; r++) {
		uint32_t *comp = f->pcomp + (size_t)r * f->nsw;

		for (uint32_t s = 0; s < f->nsw; s++)
			comp[s] = TOPO_NONE;
		for (uint32_t s0 = 0; s0 < f->nsw; s0++) {
			uint32_t head = 0, tail = 0;

			if (comp[s0] != TOPO_NONE || !in_plane(f, s0, (int)r))
				continue;
			comp[s0] = s0;
			f->queue[tail++] = s0;
			while (head < tail) {
				uint32_t s = f->queue[head++], node = t->sw_node[s];

				for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1];
				     p++) {
					uint32_t q = sw_peer(t, p);

					if (q == TOPO_NONE || comp[q] != TOPO_NONE ||
					    !in_plane(f, q, (int)r))
						continue;
					comp[q] = s0;
					f->queue[tail++] = q;
				}
			}
		}
	}
}

/* ---- resolving one destination ------------------------------------------------ */

/* Switch ordinal @s's own entry; FS_STEP with *next to continue there. */
static uint8_t step(struct find *f, uint32_t s, uint32_t *next)
{
	const struct topo *t = f->t;
	uint32_t node = t->sw_node[s], v;
	uint8_t e = f->blk[(size_t)s * LFT_COLS + f->blk_k];	/* lft_get(f->l, s, f->lid) */

	f->outp[s] = TOPO_NONE;
	if (e == LFT_NONE)
		return FS_NO_ROUTE;
	if (e == 0)
		return node == f->dnode ? FS_OK : FS_PORT0;
	v = f->peer[(size_t)s * 256 + e];	/* topo_sw_peers() */
	if (v == TOPO_NONE)	/* past the switch's ports, or not cabled */
		return FS_DEAD;
	f->outp[s] = topo_port(t, node, e);
	if (v & TOPO_PEER_PORT)
		return (v & ~TOPO_PEER_PORT) == f->dport ? FS_OK : FS_WRONG;
	*next = v;
	return f->l->have[*next] ? FS_STEP : FS_NO_TABLE;
}

static uint8_t own_bits(const struct find *f, uint32_t s)
{
	uint32_t node = f->t->sw_node[s];
	const struct cls *c = f->c;
	uint8_t b = 0;

	if (c->zone[node] != f->dzone)
		b |= FB_NZ;
	if (f->drail >= 0 && c->level[node] == 1 && c->rail[node] >= 0 &&
	    c->rail[node] != f->drail)
		b |= FB_OR;
	return b;
}

static void terminal(struct find *f, uint32_t s, uint8_t res, uint32_t next)
{
	f->st[s] = res;
	f->hops[s] = 0;
	f->at[s] = res == FS_NO_TABLE ? next : s;
	f->nxt[s] = res == FS_NO_TABLE ? next : TOPO_NONE;
	if (res == FS_OK) {
		f->bits[s] = own_bits(f, s);
		f->fz[s] = f->c->zone[f->t->sw_node[s]];
		f->zch[s] = 0;
	}
}

static void inherit(struct find *f, uint32_t x, uint32_t y)
{
	int16_t z = f->c->zone[f->t->sw_node[x]];

	f->st[x] = f->st[y];
	f->at[x] = f->at[y];
	if (f->st[x] != FS_OK)
		return;
	f->hops[x] = f->hops[y] < UINT16_MAX ? f->hops[y] + 1 : UINT16_MAX;
	f->bits[x] = (uint8_t)((f->bits[y] & (FB_IZ | FB_NZ | FB_OR)) | own_bits(f, x) |
			       (f->c->interzone[f->outp[x]] ? FB_IZ : 0));
	f->fz[x] = z >= 0 ? z : f->fz[y];
	f->zch[x] = f->zch[y];
	if (z >= 0 && f->fz[y] >= 0 && z != f->fz[y] && f->zch[x] < UINT8_MAX)
		f->zch[x]++;
}

static void resolve(struct find *f, uint32_t s)
{
	uint32_t n = 0, cur = s, nx = TOPO_NONE;

	for (;;) {
		uint8_t res;

		f->chain[n++] = cur;
		f->st[cur] = FS_BUSY;
		res = step(f, cur, &nx);
		if (res != FS_STEP) {
			terminal(f, cur, res, nx);
			break;
		}
		f->nxt[cur] = nx;
		if (f->st[nx] == FS_BUSY) {
			f->st[cur] = FS_LOOP;
			f->at[cur] = nx;
			break;
		}
		if (f->st[nx] != FS_NEW)
			break;
		cur = nx;
	}
	while (n--) {
		uint32_t x = f->chain[n];

		if (f->st[x] == FS_BUSY)
			inherit(f, x, f->nxt[x]);
	}
}

/* ---- tallies --------------------------------------------------------------------- */

static void tally(struct find *f, enum chk_finding_kind k, uint32_t s)
{
	if (!f->tn[k]++)
		f->tfirst[k] = s;
}

static void check_valid(struct find *f, uint32_t s)
{
	const struct cls *c = f->c;
	uint32_t node = f->t->sw_node[s], a = f->attach;
	int16_t z = c->zone[node];

	f->nvalid++;
	if (!f->lazy && f->hops[s] > f->dist[s]) {	/* lazy: no distances, often */
		double stretch = f->dist[s] ? (double)f->hops[s] / (double)f->dist[s]
					    : (double)f->hops[s];
		int16_t dz = c->zone[f->dnode];

		tally(f, CHK_F_NONMINIMAL, s);
		f->nonmin++;
		if (stretch > f->max_stretch)
			f->max_stretch = stretch;
		if (z >= 0 && z == dz && (uint32_t)z < c->nzones)
			f->nonmin_zone[z]++;
		else
			f->nonmin_other++;
	}
	if (f->zones && f->dca) {
		bool same = f->dzone >= 0 && z == f->dzone;

		if ((same && (f->bits[s] & FB_IZ)) || f->zch[s] > 1)
			tally(f, CHK_F_XZONE_LINK, s);
		if (f->dstor && same && (f->bits[s] & FB_NZ))
			tally(f, CHK_F_STORAGE_XZONE, s);
	}
	if (f->rails && f->dca && f->drail >= 0 && (uint32_t)f->drail < c->nrails &&
	    f->nxt[s] != TOPO_NONE && (f->bits[f->nxt[s]] & FB_OR) &&
	    in_plane(f, s, f->drail)) {
		const uint32_t *comp = f->pcomp + (size_t)f->drail * f->nsw;

		if (comp[s] != TOPO_NONE && comp[s] == comp[a])
			tally(f, CHK_F_RAIL_LEAVE, s);
	}
}

static void tally_switch(struct find *f, uint32_t s)
{
	bool phys = f->dist[s] != DIST_INF;
	uint8_t st = f->st[s];
	uint64_t bit = (uint64_t)f->lid * f->nsw + s;	/* a LID's switches together */

	f->nroutes++;
	if (st == FS_OK) {
		f->ok[bit >> 3] |= (uint8_t)(1u << (bit & 7));
		check_valid(f, s);
	} else if (st == FS_LOOP) {
		tally(f, f->dsw ? CHK_F_SWITCH_LID : CHK_F_LOOP, s);
	} else if (!phys) {
		tally(f, CHK_F_UNREACHABLE_PHYS, s);
	} else if (st == FS_NO_TABLE) {
		f->notab[f->at[s]]++;
	} else if (f->dsw) {
		tally(f, CHK_F_SWITCH_LID, s);
	} else {
		tally(f, st == FS_NO_ROUTE ? CHK_F_UNREACHABLE : CHK_F_BLACKHOLE, s);
	}
}

/* ---- per-channel route counts (subtree sizes) -------------------------------------- */

static void rail_on(struct find *f, uint32_t p)
{
	if (f->chr[0][p] < 0) {
		f->chr[0][p] = f->drail;
		f->chlid[0][p] = f->lid;
	} else if (f->chr[0][p] != f->drail && f->chr[1][p] < 0) {
		f->chr[1][p] = f->drail;
		f->chlid[1][p] = f->lid;
	}
}

static void subtrees(struct find *f)
{
	const struct topo *t = f->t;
	enum cls_tclass tc = cls_tclass_of((enum cls_role)f->c->role[f->dnode]);
	uint32_t *ch_tc = f->r->ch_routes_tc[tc], *ch_d = f->r->ch_dests_tc[tc];
	uint32_t n = 0, maxh = 0;
	bool rails = f->rails && f->dca && f->drail >= 0;
	unsigned nk = f->o && f->o->tcs && f->o->tcs->n ? f->o->tcs->n : 1;	/* each class's VL */

	if (f->partial && !rails && !f->use_vl)
		return;	/* the judged LIDs alone: no channel counts (routes_counted) */
	for (uint32_t s = 0; s < f->nsw; s++)
		if (f->st[s] == FS_OK && f->hops[s] < f->nsw) {
			uint32_t node = t->sw_node[s];

			f->bucket[f->hops[s]]++;
			if (f->hops[s] > maxh)
				maxh = f->hops[s];
			f->sub[s] = 1;
			if (f->c->level[node] == 1 && f->c->rail[node] == f->drail)
				f->bits[s] |= FB_RAIL;
			n++;
		}
	/* counting sort by decreasing hops: bucket[h] becomes the start of h */
	for (uint32_t h = maxh + 1, pos = 0; h-- > 0;) {
		uint32_t cnt = f->bucket[h];

		f->bucket[h] = pos;
		pos += cnt;
	}
	for (uint32_t s = 0; s < f->nsw; s++)
		if (f->st[s] == FS_OK && f->hops[s] < f->nsw)
			f->order[f->bucket[f->hops[s]]++] = s;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = f->order[i], p = f->outp[s], y = f->nxt[s];

		if (p != TOPO_NONE) {
			f->r->ch_routes[p] += f->sub[s];
			ch_tc[p] += f->sub[s];
			ch_d[p]++;
			if (rails && (f->bits[s] & FB_RAIL) && sw_peer(t, p) != TOPO_NONE)
				rail_on(f, p);
			for (unsigned k = 0; f->use_vl && sw_peer(t, p) != TOPO_NONE && k < nk; k++)
				f->vl[chk_vl(f->o, p, chk_sl(f->o, chk_sl_group(f->o, t->sw_node[s]),
								 f->nlids, f->lid, k))] += f->sub[s];
		}
		if (y != TOPO_NONE) {
			f->sub[y] += f->sub[s];
			f->bits[y] |= f->bits[s] & FB_RAIL;
		}
	}
	for (uint32_t h = 0; h <= maxh; h++)
		f->bucket[h] = 0;
}

static void set_dest(struct find *f, uint32_t lid)
{
	const struct topo *t = f->t;
	uint32_t r;

	f->lid = lid;
	f->dport = t->lid_port[lid];
	f->dnode = t->port_node[f->dport];
	f->dsw = topo_is_switch(t, f->dnode);
	f->dca = t->node_type[f->dnode] == TOPO_NODE_CA;
	f->dstor = f->c->role[f->dnode] == CLS_ROLE_STORAGE;
	f->dzone = f->c->zone[f->dnode];
	f->drail = f->dca ? f->c->rail[f->dnode] : -1;
	r = t->port_remote[f->dport];
	if (f->dsw)
		f->attach = t->node_sw[f->dnode];
	else if (r != TOPO_NONE && topo_is_switch(t, t->port_node[r]))
		f->attach = t->node_sw[t->port_node[r]];
	else
		f->attach = TOPO_NONE;
}

static void one_dest(struct find *f, uint32_t lid)
{
	set_dest(f, lid);
	memset(f->tn, 0, sizeof(f->tn));
	memset(f->st, FS_NEW, f->nsw);
	for (uint32_t s = 0; s < f->nsw; s++)
		if (f->l->have[s] && f->st[s] == FS_NEW)
			resolve(f, s);
	/* lazy: the distances tell a failed route's finding (physical path or
	 * not); with every route delivered only minimality needs them, and
	 * non_minimal is no hard finding */
	for (uint32_t s = 0; f->lazy && !f->dist_ok && s < f->nsw; s++)
		if (f->l->have[s] && f->st[s] != FS_OK) {
			bfs(f, f->attach);
			f->dist_ok = true;
		}
	for (uint32_t s = 0; s < f->nsw; s++)
		if (f->l->have[s])
			tally_switch(f, s);
	chk_find_emit_dest(f);
	subtrees(f);
}

static int set_metrics(struct find *f)
{
	char name[48];
	int rc = 0;

	rc |= chk_metric_set(f->r, "routes_checked", (double)f->nroutes);
	rc |= chk_metric_set(f->r, "routes_valid", (double)f->nvalid);
	rc |= chk_metric_set(f->r, "nonminimal_routes", (double)f->nonmin);
	rc |= chk_metric_set(f->r, "nonminimal_max_stretch", f->nonmin ? f->max_stretch : 1.0);
	for (uint32_t z = 0; z < f->c->nzones; z++) {
		snprintf(name, sizeof(name), "nonminimal_routes_zone%u", z);
		rc |= chk_metric_set(f->r, name, (double)f->nonmin_zone[z]);
	}
	if (f->c->nzones)
		rc |= chk_metric_set(f->r, "nonminimal_routes_other", (double)f->nonmin_other);
	for (unsigned k = 0; f->use_vl && k < 16; k++) {
		if (!f->vl[k])
			continue;
		snprintf(name, sizeof(name), "vl%u_routes", k);
		rc |= chk_metric_set(f->r, name, (double)f->vl[k]);
	}
	return rc ? -ENOMEM : 0;
}

/* LIDs grouped by attach switch (ordinal; TOPO_NONE last), LID order within. */
static uint32_t *group_lids(struct find *f, uint32_t *nd)
{
	const struct topo *t = f->t;
	uint32_t *key = malloc((size_t)f->nlids * sizeof(uint32_t));
	uint32_t *cnt = calloc((size_t)f->nsw + 2, sizeof(uint32_t));
	uint32_t *out = malloc((size_t)f->nlids * sizeof(uint32_t));
	uint32_t n = 0;

	if (!key || !cnt || !out) {
		free(key);
		free(cnt);
		free(out);
		return NULL;
	}
	for (uint32_t lid = 1; lid < f->nlids; lid++) {
		key[lid] = TOPO_NONE;
		if (t->lid_port[lid] == TOPO_NONE)
			continue;
		set_dest(f, lid);
		key[lid] = f->attach == TOPO_NONE ? f->nsw : f->attach;
		cnt[key[lid] + 1]++;
		n++;
	}
	for (uint32_t i = 1; i <= f->nsw + 1; i++)
		cnt[i] += cnt[i - 1];
	for (uint32_t lid = 1; lid < f->nlids; lid++)
		if (key[lid] != TOPO_NONE)
			out[cnt[key[lid]]++] = lid;
	free(key);
	free(cnt);
	*nd = n;
	return out;
}

/*
 * The CDG's edges on a second thread while the routes are resolved: the
 * valid routes are not known yet, so every route of a switch with a table
 * is taken as valid (chk_cdg_collect, ok NULL).  That is the same edge set
 * exactly when every route turns out valid; otherwise the edges are
 * collected again with the valid-route bitmap.
 */
struct cdg_job {
	const struct topo *t;
	const struct lft *l;
	const struct chk_opts *o;
	struct chk_cdg *g;
	int rc;
};

static void *cdg_job_run(void *arg)
{
	struct cdg_job *j = arg;

	j->rc = chk_cdg_fill(j->t, j->l, NULL, j->o, j->g);
	return NULL;
}

/*
 * Judged against chk_opts.since: the second thread checks the judged
 * LIDs' edges against the trace's order (chk_cdg_since()) while the first
 * resolves their routes, then helps it (blocks of LIDs from one cursor),
 * every route taken as valid; the answer stands if they all are (as the
 * graph of cdg_job_run()).
 */
struct since_job {
	const struct topo *t;
	const struct lft *l;
	const struct chk_opts *o;
	const uint32_t *lids, *pmap;
	uint32_t n;
	struct chk_since_share sh;
	int rc;
};

static void *since_job_run(void *arg)
{
	struct since_job *j = arg;

	j->rc = chk_cdg_since_from(j->t, j->l, NULL, j->o, j->lids, j->n, j->o->since, j->pmap,
				   &j->sh);
	return NULL;
}

/* The findings of every destination (routes resolved, tallied, counted). */
static void all_dests(struct find *f, const uint32_t *lids, uint32_t nd)
{
	uint32_t cur = TOPO_NONE;

	for (uint32_t i = 0; i < nd; i++) {
		if (i % LFT_COLS == 0)
			lft_cols_get(f->l, lids + i, nd - i < LFT_COLS ? nd - i : LFT_COLS, f->blk);
		f->blk_k = i % LFT_COLS;
		set_dest(f, lids[i]);
		if (i == 0 || f->attach != cur) {
			cur = f->attach;
			f->dist_ok = !f->lazy;
			if (!f->lazy)
				bfs(f, cur);
		}
		one_dest(f, lids[i]);
	}
}

/*
 * Credit loops: the second thread's edges if they are the valid routes'
 * ones; the graph's order into @tr (NULL: not wanted) when acyclic.
 */
static int credit_loops(struct find *f, struct cdg_job *job, struct chk_trace *tr)
{
	bool all_valid = f->nvalid == f->nroutes;
	struct chk_cdg *g;
	int rc;

	if (job && !job->rc && all_valid) {
		rc = chk_cdg_judge_trace(f->t, job->g, f->r, tr);
		chk_cdg_free(job->g);
		return rc;
	}
	if (job)
		chk_cdg_free(job->g);
	rc = chk_cdg_collect(f->t, f->l, f->ok, f->o, &g);
	if (!rc)
		rc = chk_cdg_judge_trace(f->t, g, f->r, tr);
	chk_cdg_free(g);
	return rc;
}

/* Keep the LIDs @only marks (in order); their count. */
static uint32_t only_these(uint32_t *lids, uint32_t nd, const uint8_t *only)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < nd; i++)
		if (only[lids[i]])
			lids[m++] = lids[i];
	return m;
}

static void find_init(struct find *f, const struct topo *t, const struct lft *l,
		      const struct cls *c, const struct chk_opts *o, struct chk_report *r)
{
	memset(f, 0, sizeof(*f));
	f->t = t;
	f->l = l;
	f->c = c;
	f->o = o;
	f->r = r;
	f->use_vl = o && o->sl2vl && o->metrics;
	f->nsw = t->nswitches;
	f->nlids = t->max_lid + 1;
	f->zones = c->nzones >= 2;
	f->rails = c->nrails >= 2;
}

int chk_findings(const struct topo *t, const struct lft *l, const struct cls *c,
		 const struct chk_opts *o, struct chk_report *r)
{
	struct find f;
	struct cdg_job job = { t, l, o, NULL, 0 };
	struct since_job sj = { .t = t, .l = l, .o = o, .rc = -1 };
	struct chk_trace *tr = NULL;
	struct chk_cdg *help = NULL;
	pthread_t th;
	bool two, two_since;
	uint32_t *lids, nd = 0, *pmap = NULL;
	int rc;

	if (l->nsw != t->nswitches)
		return -EINVAL;
	if (o && o->trace)
		*o->trace = NULL;
	if (o && o->since && o->since_only)	/* the changed LIDs alone, if it may */
		pmap = chk_trace_fits(o->since, t, c, o->no_switch_cdg);
	if (o && o->trace && !(tr = chk_trace_new(t, c))) {
		free(pmap);
		return -ENOMEM;
	}
	find_init(&f, t, l, c, o, r);
	rc = find_alloc(&f);
	lids = rc ? NULL : group_lids(&f, &nd);
	if (!lids) {
		find_free(&f);
		free(pmap);
		chk_trace_free(tr);
		return -ENOMEM;
	}
	if (pmap)
		nd = only_these(lids, nd, o->since_only);
	f.lazy = pmap != NULL || (o && o->no_minimal);
	f.partial = pmap != NULL;
	if (f.rails)
		rail_planes(&f);
	for (uint32_t p = 0; f.rails && pmap && p < t->nports; p++)
		f.chr[0][p] = o->since->rail[pmap[p]];	/* the kept routes' (chk_trace.c) */
	two = !pmap && ffr_threads(o ? o->threads : 0) >= 2 && !chk_cdg_prepare(t, o, &job.g);
	if (two && pthread_create(&th, NULL, cdg_job_run, &job)) {
		chk_cdg_free(job.g);
		two = false;
	}
	sj.lids = lids, sj.n = nd, sj.pmap = pmap;
	atomic_init(&sj.sh.next, 0);
	atomic_init(&sj.sh.sls, -1);
	two_since = pmap && ffr_threads(o->threads) >= 2 &&
		    !pthread_create(&th, NULL, since_job_run, &sj);
	all_dests(&f, lids, nd);
	if (two_since) {
		int mine = chk_cdg_since_from(t, l, NULL, o, lids, nd, o->since, pmap, &sj.sh);

		pthread_join(th, NULL);
		sj.rc = mine < 0 || sj.rc < 0 ? -1 : mine | sj.rc;
	}
	if (two && chk_cdg_help(t, l, NULL, o, job.g, &help))	/* its last LIDs, here too */
		help = NULL;
	if (two) {
		pthread_join(th, NULL);
		chk_cdg_absorb(job.g, help);
	}
	chk_find_emit_no_table(&f);
	rc = f.rails ? chk_find_emit_rail_mix(&f) : 0;
	if (!rc)
		rc = set_metrics(&f);
	if (!rc && !pmap && (!o || !o->rates_if_mixed || c->rates_mixed))
		rc = chk_rates(t, l, c, r);
	if (!rc && pmap)
		rc = chk_trace_credit_loops(t, l, f.ok, o, lids, nd, pmap, r, tr,
					    f.nvalid == f.nroutes && sj.rc >= 0 ? sj.rc : -1);
	else if (!rc)
		rc = credit_loops(&f, two ? &job : NULL, tr);
	else if (two)
		chk_cdg_free(job.g);
	r->routes_counted = !rc && !pmap;
	r->partial = pmap != NULL;
	if (rc >= 0 && tr)	/* 0 or, judged against since, 1: the order was searched again */
		chk_trace_keep(o, r, t, c, tr, pmap && !rc, pmap, f.rails ? f.chr[0] : NULL);
	else
		chk_trace_free(tr);
	rc = rc > 0 ? 0 : rc;
	free(pmap);
	free(lids);
	find_free(&f);
	return rc;
}

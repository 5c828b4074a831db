// SPDX-License-Identifier: BSD-2-Clause
/*
 * route.c - the engine's entry points: destinations in position order
 * (route_order.c), one route tree per destination (route_dest.c), SLs and
 * SL2VL (route_sl.c), then verification by the checker.
 *
 * Destinations are every LID the fabric assigns: each LID of a CA or
 * router port's LMC range (routed through the switch the port is cabled
 * to) and every switch's port-0 LID.  They are processed sorted by
 * (zone, attach switch's position (class_pos.c), attach port, LID) - the
 * position order the checker also uses for shift permutations - and ranked
 * within their traffic class (compute, storage, other), so D-mod-K spreads
 * each class on its own.
 * LMC LIDs of one port have consecutive ranks, so they take distinct
 * designated paths.  With several zones, destinations on switches with
 * an inter-zone link are routed first (exits_first), ranks unchanged.
 * One zone whose CAs lack up*down* paths by levels: a second pass with
 * the rooted layer (route_root.c), taken only when the first fails the
 * verification.
 *
 * Verification (route_verify.c): chk_findings() on the result with the
 * engine's SL and SL2VL tables; any hard finding (unreachable, loop, black hole, switch
 * LID, credit loop per VL, rail or zone violation) refuses the result.
 *
 * Cost: O(LIDs x switch ports) time; memory: the LFT block, the SL table
 * (groups x LIDs), SL2VL (ports x 16) and O(switches + ports) scratch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ffroute/check.h>

#include "route/route_int.h"

void route_opts_init(struct route_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->vl_limit = 2;
	o->rail_isolation = -1;
	o->rooted_layer = -1;
	o->verify = true;
	o->tree_digits = true;
	o->shift_refine = true;
	o->threads = 0;
}

void route_out_free(struct route_out *out)
{
	lft_free(out->lft);
	free(out->sl);
	free(out->sl_group);
	free(out->sl2vl);
	free(out->turned);
	out->turned = NULL;
	free(out->forced);
	out->forced = NULL;
	chk_trace_free(out->trace);
	out->trace = NULL;
	chk_vlx_free(&out->vlx);
	free(out->slots);
	out->slots = NULL;
	out->nslots = 0;
	out->lft = NULL;
	out->sl = out->sl2vl = NULL;
	out->sl_group = NULL;
}

int route_parse_class_weights(const char *s, unsigned w[3])
{
	unsigned v[3];

	for (unsigned i = 0; i < 3; i++) {
		char *end;
		unsigned long x;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		x = strtoul(s, &end, 10);
		if (x > 1000 || *end != (i < 2 ? ',' : '\0'))
			return -EINVAL;
		v[i] = (unsigned)x;
		s = end + 1;
	}
	memcpy(w, v, sizeof(v));
	return 0;
}

uint8_t route_sl(const struct route_out *out, uint32_t src_node, uint32_t dlid)
{
	if (!out->sl || dlid >= out->nlids || !out->sl_group)
		return 0;
	return out->sl[(size_t)out->sl_group[src_node] * out->nlids + dlid];
}

static void logf_(const struct route_opts *o, enum route_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void logf_(const struct route_opts *o, enum route_log_level lvl, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ffr_sanitize(msg, msg, sizeof(msg));	/* examples quote NodeDescriptions */
	o->log(o->log_ctx, lvl, msg);
}

/* ---- engine ------------------------------------------------------------------------ */

/* Each switch's ports to switches (CSR), and whether some switch has no zone. */
static int switch_ports(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t n = 0;

	r->swp_off = calloc((size_t)r->nsw + 1, sizeof(uint32_t));
	r->swp = malloc(((size_t)t->nports + 1) * sizeof(uint32_t));
	r->peer = malloc(((size_t)t->nports + 1) * sizeof(uint32_t));
	r->has_ca = calloc((size_t)r->nsw + 1, 1);
	if (!r->swp_off || !r->swp || !r->peer || !r->has_ca)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++)
		r->peer[p] = rt_peer(r, p);
	r->turn_stride = 1;
	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t node = t->sw_node[s];

		if (t->node_nports[node] / 8u + 1 > r->turn_stride)
			r->turn_stride = t->node_nports[node] / 8u + 1;
		r->swp_off[s] = n;
		r->zoneless |= r->c->zone[node] < 0;
		for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++)
			if (rt_peer(r, p) != TOPO_NONE)
				r->swp[n++] = p;
			else if (t->port_remote[p] != TOPO_NONE)
				r->has_ca[s] |= rt_ca_joins_switch(r, node) ? RT_CA_ABOVE : RT_CA_LEAF;
	}
	r->turn_stride *= rt_turn_planes(r->c);	/* TURN/UPTURN, then per fallback SL */
	r->swp_off[r->nsw] = n;
	r->dsw_off = malloc(((size_t)r->nsw * CLS_DIR_COUNT + 1) * sizeof(uint32_t));
	r->dsw = malloc(((size_t)n + 1) * sizeof(uint32_t));
	if (!r->dsw_off || !r->dsw)
		return -ENOMEM;
	n = 0;
	for (uint32_t s = 0; s < r->nsw; s++)	/* the ports of one direction each, in order */
		for (unsigned d = 0; d < CLS_DIR_COUNT; d++) {
			r->dsw_off[s * CLS_DIR_COUNT + d] = n;
			for (uint32_t j = r->swp_off[s]; j < r->swp_off[s + 1]; j++)
				if (r->c->dir[r->swp[j]] == d)
					r->dsw[n++] = r->swp[j];
		}
	r->dsw_off[(size_t)r->nsw * CLS_DIR_COUNT] = n;
	/* with rail isolation too: the layer's routes ignore rail planes, but
	 * most LIDs that need it are switch LIDs (no rail rule), and where a
	 * CA's are not kept in its plane the verification says so (rail
	 * isolation then gives way when auto: route_run) */
	r->rooted_ok = r->c->nzones == 1 && !r->zoneless && rt_layer_limit(r->o) >= 2 &&
		       r->o->rooted_layer != 0;
	return 0;
}

/* Per port: index within its port group (parallel links), the group's size, its number. */
static int port_groups(struct rt *r)
{
	const struct topo *t = r->t;

	r->gidx = calloc((size_t)t->nports + 1, 1);
	r->gsize = calloc((size_t)t->nports + 1, 1);
	r->pnum = calloc((size_t)t->nports + 1, 1);
	r->par = calloc((size_t)r->nsw + 1, 1);
	if (!r->gidx || !r->gsize || !r->pnum || !r->par)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t g = r->c->group[p];

		r->pnum[p] = (uint8_t)topo_port_num(t, p);
		if (g == p) {
			r->gsize[p] = 1;
			continue;
		}
		r->gidx[p] = r->gsize[g];
		r->gsize[g]++;
	}
	for (uint32_t p = 0; p < t->nports; p++) {
		r->gsize[p] = r->gsize[r->c->group[p]];
		if (r->gsize[p] > 1 && topo_is_switch(t, t->port_node[p]))
			r->par[t->node_sw[t->port_node[p]]] = 1;
	}
	if (!r->c->rates_mixed)
		return 0;
	r->gcap = calloc((size_t)t->nports + 1, sizeof(*r->gcap));
	if (!r->gcap)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++)
		r->gcap[r->c->group[p]] += rt_rate(r, p);
	for (uint32_t p = 0; p < t->nports; p++)
		r->gcap[p] = r->gcap[r->c->group[p]];
	return 0;
}

static void rt_free(struct rt *r)
{
	rt_scratch_free(r);
	rt_exits_free(r);
	free(r->dbt_done);
	free(r->dig_moved);
	free(r->upg_off);
	free(r->upg);
	free(r->upg_alt);
	free(r->upg_reach);
	free(r->upg_rix);
	free(r->upg_nr);
	free(r->upg_port);
	free(r->upg_ord);
	free(r->upg_opos);
	free(r->gidx);
	free(r->gsize);
	free(r->par);
	free(r->gcap);
	free(r->nep);
	free(r->pnum);
	free(r->swp_off);
	free(r->swp);
	free(r->dsw_off);
	free(r->dsw);
	free(r->peer);
	free(r->lid_col);
	free(r->has_ca);
	for (unsigned k = 0; k < CLS_TC_COUNT; k++) {
		free(r->load[k]);
		free(r->dsg[k]);
		free(r->pload[k]);
		free(r->eroutes[k]);
		free(r->holes[k]);
	}
}

/* Balance counters of the classes some destination has (the others stay NULL). */
/*
 * nep: the endpoints on each switch, places of CAs that went away included
 * (route_slots.c), so that a host's reboot moves no entry that weighs by
 * them (by_entry(), the spill key of choose()).
 */
static int endpoint_counts(struct rt *r, const struct rt_dest *d, uint32_t nd)
{
	const struct topo *t = r->t;

	r->nep = calloc((size_t)r->nsw + 1, sizeof(*r->nep));
	if (!r->nep)
		return -ENOMEM;
	for (uint32_t i = 0; i < nd; i++)
		if (d[i].port && (d[i].ghost ||
		    cls_is_endpoint(t, r->c, t->port_node[t->lid_port[d[i].lid]])))
			r->nep[d[i].attach]++;
	return 0;
}

static int class_counters(struct rt *r, const struct rt_dest *d, uint32_t nd)
{
	size_t np = (size_t)r->t->nports + 1;
	bool used[CLS_TC_COUNT] = { false };

	for (uint32_t i = 0; i < nd; i++)
		used[d[i].tc] = true;
	for (unsigned k = 0; k < CLS_TC_COUNT; k++) {
		if (!used[k])
			continue;
		r->load[k] = calloc(np, sizeof(uint32_t));
		r->dsg[k] = calloc(np, sizeof(uint32_t));
		r->pload[k] = calloc(np, sizeof(uint32_t));
		r->eroutes[k] = calloc(np, sizeof(uint64_t));
		r->holes[k] = calloc((size_t)r->upg_off[r->nsw] + 1, sizeof(uint32_t));
		if (!r->load[k] || !r->dsg[k] || !r->pload[k] || !r->eroutes[k] || !r->holes[k])
			return -ENOMEM;
	}
	return 0;
}

/*
 * A pass of the LIDs o->only_lids marks: its table, a column per such LID
 * with a port, in LID order (the merge reads them, then writes the merged
 * columns into the base's table: a whole table would be written for
 * nothing).  0 or -ENOMEM.
 */
static int only_cols(struct rt *r)
{
	const struct topo *t = r->t;
	uint32_t n = 0, *map = malloc(((size_t)t->max_lid + 1) * sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (uint32_t lid = 0; lid <= t->max_lid; lid++)
		map[lid] = lid && r->o->only_lids[lid] && t->lid_port[lid] != TOPO_NONE ? n++ :
			   UINT32_MAX;
	r->lid_col = map;
	r->out->only_cols = true;
	r->out->lft = lft_new(t->nswitches, n);	/* n + 1 columns, the last unused */
	return r->out->lft ? 0 : -ENOMEM;
}

/* What a pass did beyond D-mod-K, one INFO line each (route_opts.log). */
static void pass_log(const struct route_opts *o, const struct rt *r)
{
	if (r->out->rooted_lids)
		logf_(o, ROUTE_LOG_INFO, "%u LIDs routed up*/down* from one root on VL 1: no "
		      "up*/down* path by levels from some CA", r->out->rooted_lids);
	if (r->xjob_jobs)
		logf_(o, ROUTE_LOG_INFO, "jobs across zones: %u refined, %u with transfers still "
		      "over a link's rate", r->xjob_jobs, r->xjob_left);
	if (r->xjob_zswaps + r->xjob_inzone)
		logf_(o, ROUTE_LOG_INFO, "jobs: %u leaf swaps inside zones (shifts within %.2f), %u "
		      "job(s) inside one zone still over a link's rate", r->xjob_zswaps,
		      RT_SHIFT_COST, r->xjob_inzone);
	if (r->dbt_unread)
		logf_(o, ROUTE_LOG_INFO, "jobs changed: %u compute digits not read off the base's "
		      "tables (rank mod m)", r->dbt_unread);
	if (r->dbt_jobs_out)
		logf_(o, ROUTE_LOG_INFO, "jobs: %u left out of a zone's digit search (more than "
		      "its load-slot budget: the smallest go first)", r->dbt_jobs_out);
	if (r->dbt_zones)
		logf_(o, ROUTE_LOG_INFO, "HFReduce tree: D-mod-K digits searched in %u zone(s), %u "
		      "with tree steps still over a link's rate", r->dbt_zones, r->dbt_left);
	if (r->any_routes)
		logf_(o, ROUTE_LOG_INFO, "%llu routes outside up*/down* (fallback hops)",
		      (unsigned long long)r->any_routes);
	if (r->valley_left)
		logf_(o, ROUTE_LOG_INFO, "%llu fallback routes on SL %u with a pair another "
		      "route of it lifts (no fallback SL was free; the verification judges them)",
		      (unsigned long long)r->valley_left, RT_SL_VALLEY + 1 - rt_valley_nsl(r->c));
}

static int compute_pass(const struct topo *t, const struct cls *c, const struct route_opts *o,
			struct route_out *out, bool strict)
{
	struct rt r = { .t = t, .c = c, .o = o, .out = out, .nsw = t->nswitches, .dir = c->dir,
			.rails = c->nrails >= 2 && o->rail_isolation != 0, .strict = strict,
			.weighted = (o->class_weight[0] | o->class_weight[1] | o->class_weight[2]) != 0 };
	struct rt_dest *d = NULL;
	uint32_t nd = 0, bad = 0;
	int rc;

	if (o->only_lids)
		rc = only_cols(&r);
	else
		rc = (out->lft = lft_new(t->nswitches, t->max_lid)) ? 0 : -ENOMEM;
	if (!rc)
		rc = rt_sl_alloc(&r);
	if (!rc && o->force_lids && o->base) {	/* a job change: idle CAs moved join them */
		out->forced = malloc((size_t)t->max_lid + 1);
		r.dig_moved = calloc((size_t)t->max_lid + 1, 1);
		if (out->forced && r.dig_moved)
			memcpy(out->forced, o->force_lids, (size_t)t->max_lid + 1);
		else
			rc = -ENOMEM;
	}
	if (!rc)
		rc = rt_up_groups(&r);
	if (!rc)
		rc = port_groups(&r);
	if (!rc)
		rc = switch_ports(&r);
	if (!rc)
		rc = rt_scratch_alloc(&r);	/* sized by the switch ports */
	if (!rc)
		rc = rt_exits(&r);
	if (!rc && !(d = rt_destinations(t, c, o, &nd)))
		rc = -ENOMEM;
	if (!rc)
		rc = class_counters(&r, d, nd);
	if (!rc)
		rc = endpoint_counts(&r, d, nd);
	if (!rc && (o->tree_digits || o->jobs))
		rc = rt_dbt_digits(&r, d, nd);
	if (!rc && (c->nzones > 1 || c->nsubtrees))
		rc = rt_forced_first(&r, d, nd);
	if (!rc && o->only_lids)	/* ranks and digits are of them all */
		nd = rt_drop_ghosts(d, nd, o->only_lids);
	for (uint32_t i = 0; !rc && i < nd; i++)
		out->pass_lids += !d[i].ghost;

	for (uint32_t s = 0; !rc && s < t->nswitches; s++) {
		out->lft->have[s] = 1;
		if (c->level[t->sw_node[s]] >= r.nlev)
			r.nlev = c->level[t->sw_node[s]] + 1u;
	}
	if (!rc && (rc = rt_route_all(&r, d, nd, &bad)) == -EINVAL)
		snprintf(out->err, sizeof(out->err), "internal error: a switch has no "
			 "next hop toward LID %u", bad);
	if (!rc && (o->shift_refine || o->jobs))
		nd = rt_drop_ghosts(d, nd, NULL);	/* on the LFT entries: ghosts have none */
	if (!rc && o->shift_refine)
		rc = rt_shift_refine(&r, d, nd);
	if (!rc && o->jobs)
		rc = rt_xjob_refine(&r, d, nd);
	if (!rc && c->nsubtrees)
		rc = rt_subtree_spread(&r);
	if (!rc)
		rc = rt_sl_tables(&r);
	if (!rc)
		rc = rt_tc_map(&r);
	out->tree_zones = r.dbt_zones;
	out->tree_left = r.dbt_left;
	out->shift_zones = r.shift_zones;
	out->shift_moved = r.shift_moved;
	if (!rc)
		pass_log(o, &r);
	free(d);
	rt_free(&r);
	if (rc == -ENOMEM)
		snprintf(out->err, sizeof(out->err), "out of memory");
	return rc;
}

/*
 * One pass; again on one thread when the rooted layer was used on two
 * (route_all.c); a last, strict from the start, when the rooted layer
 * asks (route_root.c).
 */
static int ffroute_compute(const struct topo *t, const struct cls *c, const struct route_opts *o,
			   struct route_out *out)
{
	struct route_opts one = *o;
	bool strict = o->rooted_layer == 2;
	int rc = compute_pass(t, c, o, out, strict);

	one.threads = 1;
	if (rc == -ERESTART) {
		route_out_free(out);
		memset(out, 0, sizeof(*out));
		rc = compute_pass(t, c, &one, out, strict);
	}
	if (rc != -EAGAIN)
		return rc;
	route_out_free(out);
	memset(out, 0, sizeof(*out));
	return compute_pass(t, c, &one, out, true);
}

const struct route_engine route_engine_ffroute = { "ffroute", ffroute_compute };

/* ---- run + verify ------------------------------------------------------------------ */

/* Milliseconds since @t0 (CLOCK_MONOTONIC); @t0 becomes now. */
static double ms_since(struct timespec *t0)
{
	struct timespec t1;
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
	*t0 = t1;
	return ms;
}

/* Rounds of merging strictly where the merged tables failed (strict_where_failed()). */
#define LOOP_ROUNDS 8

/* Mark in @mark the LIDs of @cand that @found names and @mark does not yet; how many. */
static int mark_found(uint32_t max_lid, const uint8_t *found, const uint8_t *cand, uint8_t *mark)
{
	int more = 0;

	for (uint32_t lid = 1; lid <= max_lid; lid++)
		if (found[lid] && cand[lid] && !mark[lid]) {
			mark[lid] = 1;
			more++;
		}
	return more;
}

/*
 * The lenient merge in @out failed the verification: merge again, strictly
 * for the LIDs among @broke (the LIDs the merge changes) that the last
 * verification found fault with on their own routes (@found: a route that
 * leaves its rail's plane through a valley the merge joined), else for
 * those whose routes make an edge of a credit loop of the tables merged
 * last (chk_loop_lids(): same channel, same VL), leniently for the
 * others, while a round finds LIDs not yet strict (LOOP_ROUNDS at most).
 * The fewest routes leave the lenient merge: those LIDs, not every LID.
 * 0 when a round passes the verification, 1 when none does (the tables
 * are the last round's), or -ENOMEM.
 */
static int strict_where_failed(const struct topo *t, const struct cls *c,
			       const struct route_opts *o, struct rt_merge_how *h,
			       struct route_out *out, unsigned soft, const struct chk_trace *since,
			       uint8_t *found, struct rt_merge_keep *keep, struct rt_merge_count *n)
{
	uint8_t *mark = calloc((size_t)t->max_lid + 1, 1);
	struct chk_opts co;
	int rc = mark ? 1 : -ENOMEM, more;
	const char *why = "have a finding of their own";

	h->strict_lid = mark;
	for (unsigned r = 0; rc == 1 && r < LOOP_ROUNDS; r++) {
		more = mark_found(t->max_lid, found, h->broke, mark);
		if (!more) {
			rt_verify_opts(out, o->threads, &co);
			more = chk_loop_lids(t, out->lft, &co, h->broke, mark);
			why = "make a credit loop";
		}
		if (more <= 0) {	/* none to mark (or -EOVERFLOW): every LID strictly */
			rc = more == -ENOMEM ? more : 1;
			break;
		}
		logf_(o, ROUTE_LOG_INFO, "incremental: %d more LIDs %s; merging those strictly",
		      more, why);
		out->max_link_routes = 0;
		rc = rt_base_merge(t, c, o->base, out, h, keep, n);
		if (!rc)
			rc = rt_verify_since(t, c, o->threads, out, soft, since, h->only, found) ? 1 : 0;
	}
	h->strict_lid = NULL;
	free(mark);
	return rc;
}

/*
 * The base's routes where this fabric left them intact (route_incr.c),
 * verified like any tables: first merged leniently (a switch may follow
 * this pass's entries into the base's, turns and all: the fewest
 * changes); if that fails the verification, strictly (every path one
 * routing's whole or plain up*down*) for the LIDs that have a finding of
 * their own or make a credit loop (strict_where_failed()), then for every
 * LID; -EAGAIN when all fail (mode_why says why).
 */
static int incremental(const struct topo *t, const struct cls *c, const struct route_opts *o,
		       const struct rt_merge_how *how, struct route_out *out, unsigned soft,
		       double ms[2])
{
	const uint8_t *only = how->only;
	/* the LIDs routed alone: judged alone against the base's trace, if it may */
	const struct chk_trace *since = only && o->base->out &&
					rt_base_same_vls(t, o->base, how->bnode, out) ?
					o->base->out->trace : NULL;
	struct rt_merge_keep keep = { 0 };
	struct rt_merge_count n;
	struct rt_merge_how h = *how;
	const char *how_ = "";	/* which merge stood */
	uint8_t *found;		/* the LIDs a verification found fault with */
	struct timespec t0;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	h.force = out->forced;
	h.threads = o->threads;
	h.broke = calloc(2 * ((size_t)t->max_lid + 1), 1);
	found = h.broke ? h.broke + t->max_lid + 1 : NULL;
	out->max_link_routes = 0;
	rc = h.broke ? rt_base_merge(t, c, o->base, out, &h, &keep, &n) : -ENOMEM;
	ms[0] = ms_since(&t0);
	if (!rc && rt_verify_since(t, c, o->threads, out, soft, since, only, found)) {
		logf_(o, ROUTE_LOG_INFO, "incremental: the lenient merge fails the verification "
		      "(%.160s)", out->err);
		rc = strict_where_failed(t, c, o, &h, out, soft, since, found, &keep, &n);
		how_ = rc ? how_ : " (strict where it failed)";
	}
	if (rc == 1) {
		logf_(o, ROUTE_LOG_INFO, "incremental: merging every LID strictly");
		h.strict = true;
		how_ = " (strict)";
		out->max_link_routes = 0;
		rc = rt_base_merge(t, c, o->base, out, &h, &keep, &n);
		if (!rc && rt_verify_since(t, c, o->threads, out, soft, since, only, NULL)) {
			snprintf(out->mode_why, sizeof(out->mode_why), "the base's routes kept "
				 "where intact fail the verification (%.160s)", out->err);
			rc = -EAGAIN;
		}
	}
	ms[1] = ms_since(&t0);	/* with a strict merge, the second merge too */
	rt_merge_keep_free(&keep);
	free(h.broke);
	if (!rc) {
		out->incremental = true;
		out->kept_lids = n.intact;
		out->patched_lids = n.patched;
		out->rerouted_lids = n.rerouted;
		logf_(o, ROUTE_LOG_INFO, "incremental%s: %u LIDs keep the base's routes, %u "
		      "patched where they met a fault, %u re-routed", how_, n.intact, n.patched, n.rerouted);
	}
	return rc;
}

/* Compute, check the VL count, verify (@rails_soft: the rail rules do not refuse). */
static int attempt(const struct topo *t, const struct cls *c, const struct route_opts *o,
		   struct route_out *out, bool rails_soft)
{
	int rc = route_engine_ffroute.compute(t, c, o, out);

	if (!rc && out->nvls > (o->vl_limit ? o->vl_limit : 1)) {
		snprintf(out->err, sizeof(out->err), "the routing needs %u VLs, the limit is %u",
			 out->nvls, o->vl_limit);
		rc = -EINVAL;
	}
	if (!rc && o->verify && !o->only_lids)	/* rail isolation off: the rail rules are no rules */
		rc = rt_verify(t, c, o->threads, out,
			    o->rail_isolation && !rails_soft ? 0 : RT_VF_RAILS_SOFT);
	return rc;
}

/* Whether the classes have a VL each at least (else out->err, logged). */
static bool classes_fit(const struct route_opts *o, struct route_out *out)
{
	if (!o->ntc || o->vl_limit >= o->ntc)
		return true;
	snprintf(out->err, sizeof(out->err), "traffic classes: %u classes need %u VLs at "
		 "least, the limit is %u", o->ntc, o->ntc, o->vl_limit);
	logf_(o, ROUTE_LOG_ERROR, "%s", out->err);
	return false;
}

/* The refusal of classes on one VL each when the layers need two: out->err says so. */
static void classes_short(const struct route_opts *o, struct route_out *out)
{
	char err[sizeof(out->err)];

	snprintf(err, sizeof(err), "traffic classes: %u classes x 2 VLs of deadlock layers "
		 "need %u VLs, the limit is %u (on 1 VL per class: %.120s)", o->ntc,
		 2 * o->ntc, o->vl_limit, out->err);
	memcpy(out->err, err, sizeof(err));
}

/* A fabric the classification refused, or not a tree and not to be routed: out->err says so. */
static int refused(const struct cls *c, const struct route_opts *o, struct route_out *out)
{
	if (c->nreasons) {
		snprintf(out->err, sizeof(out->err), "fabric refused by the classification: %s",
			 c->reason[0]);
		logf_(o, ROUTE_LOG_ERROR, "%s", out->err);
		return -EINVAL;
	}
	/* a torus or a dragonfly: an engine built for them (dfsssp, nue, torus-2QoS)
	 * routes it better than ffroute's one order; the caller says so */
	if (c->not_tree && !o->non_tree) {
		snprintf(out->err, sizeof(out->err), "declined, %s; --non-tree route "
			 "(non_tree route in ffroute.conf) routes it", c->shape_why);
		logf_(o, ROUTE_LOG_ERROR, "%s", out->err);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* One VL and the layered routing refused: every LID in one up-down order, verified. */
static int single_order(const struct topo *t, const struct cls *c, const struct route_opts *o,
			struct route_out *out)
{
	int rc;

	logf_(o, ROUTE_LOG_INFO, "%s; routing again in one up*/down* order on one VL", out->err);
	route_out_free(out);
	memset(out, 0, sizeof(*out));
	rc = route_single_order(t, c, out);
	if (!rc)
		rc = rt_verify(t, c, o->threads, out, RT_VF_ZONES_SOFT |
			    (o->rail_isolation > 0 ? 0 : RT_VF_RAILS_SOFT));
	if (!rc) {
		out->single_order = true;
		out->rails_given_up = o->rail_isolation < 0 && out->rail_findings;
	}
	return rc;
}

/* Route from scratch (the attempts above), verify; @soft: what the verification let through. */
static int run_once(const struct topo *t, const struct cls *c, const struct route_opts *o,
		    struct route_out *out, unsigned *soft)
{
	struct timespec t0;
	struct route_opts first;
	bool rails_soft = false;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(out, 0, sizeof(*out));
	if ((rc = refused(c, o, out)))
		return rc;
	/* auto: the fallback's turns where the checker proves them safe (minimal
	 * routes), the rooted layer where it does not (one zone only) */
	first = *o;
	if (o->rooted_layer < 0)
		first.rooted_layer = o->verify ? 0 : 1;
	if (!classes_fit(o, out))
		return -EINVAL;
	rc = attempt(t, c, &first, out, false);
	while (rc == -EINVAL && o->verify && rt_layer_limit(o) >= 2) {
		/* only rail findings: auto rail isolation gives way (a degraded rail
		 * fabric whose planes no longer hold every route: the routes still
		 * avoid other rails' leaves where they can, but the findings left do
		 * not refuse); anything else, a credit loop above all: the rooted
		 * layer */
		bool rails_only = first.rail_isolation && !rails_soft && out->rail_findings &&
				  out->hard_findings == out->rail_findings;
		bool rails = rails_only && o->rail_isolation < 0;
		bool more = !rails_only && o->rooted_layer < 0 && c->nzones == 1 &&
			    first.rooted_layer < 2;

		if (!rails && !more)
			break;
		/* the layer, then strict from the start: every LID whose
		 * fallback meets a switch with a CA, SHARP nodes too (their
		 * switches' fallbacks on the turn SL go up, down, then up:
		 * a loop of such routes alone on VL 1) */
		logf_(o, ROUTE_LOG_INFO, "%s; routing again %s", out->err, rails ?
		      "accepting rail findings" : first.rooted_layer ?
		      "with the rooted layer for every fallback" : "with the rooted layer");
		route_out_free(out);
		memset(out, 0, sizeof(*out));
		if (rails)
			rails_soft = true;
		else
			first.rooted_layer++;
		rc = attempt(t, c, &first, out, rails_soft);
	}
	out->rails_given_up = !rc && rails_soft;
	if (rc == -EINVAL && o->verify && o->ntc && rt_layer_limit(o) <= 1) {
		classes_short(o, out);	/* classes are never merged: refuse */
	} else if (rc == -EINVAL && o->verify && o->vl_limit <= 1) {
		rc = single_order(t, c, o, out);
	}
	*soft = (rails_soft ? RT_VF_RAILS_SOFT : 0) |
		(out->single_order ? RT_VF_ZONES_SOFT | (o->rail_isolation > 0 ? 0 : RT_VF_RAILS_SOFT) : 0);
	if (!rc && route_slots(t, c, o->slots, o->nslots, &out->slots, &out->nslots))
		rc = -ENOMEM;
	out->seconds = ms_since(&t0) / 1e3;
	if (rc) {
		char err[sizeof(out->err)];

		if (rc == -ENOMEM && !out->err[0])
			snprintf(out->err, sizeof(out->err), "out of memory");
		memcpy(err, out->err, sizeof(err));
		route_out_free(out);
		memcpy(out->err, err, sizeof(err));
		logf_(o, ROUTE_LOG_ERROR, "%s", out->err);
		return rc;
	}
	logf_(o, ROUTE_LOG_INFO, "%llu routes, %u VL(s), %llu turn routes, %.3f s",
	      (unsigned long long)out->routes, out->nvls, (unsigned long long)out->turn_routes,
	      out->seconds);
	return 0;
}

/*
 * The LIDs a pass with a base must route, when the merge needs no more
 * of the pass than their columns (rt_base_broken()): the base's SLs known
 * (the others keep them), and no traffic classes (their rows are the
 * pass's), jobs or low-speed subtrees (refinements over all the pass's
 * tables).  NULL: route them all.  *@nneed: how many.
 */
static uint8_t *broken_only(const struct topo *t, const struct cls *c, const struct route_opts *o,
			    const uint32_t *bnode, uint32_t *nneed)
{
	const struct route_out *bo = o->base->out;
	uint8_t *need;

	if (!bo || !bo->sl || !bo->sl_group || bo->single_order || bo->tcs.n || bo->rooted_lids ||
	    o->ntc || o->jobs || o->force_lids || c->nsubtrees ||
	    !(need = malloc((size_t)t->max_lid + 1)))
		return NULL;	/* the rooted layer: its strict mode asks for every LID */
	if ((*nneed = rt_base_broken(t, o->base, bnode, need, o->threads)) == UINT32_MAX) {
		free(need);
		return NULL;
	}
	return need;
}

/*
 * Incremental on the broken LIDs alone (broken_only()): this pass routes
 * them, unverified, and the merge with the base is verified.  The base's
 * verification let through what it let through (rail findings).  0, or
 * anything else when the caller must route every LID.
 */
static int broken_pass(const struct topo *t, const struct cls *c, const struct route_opts *o,
		       const uint32_t *bnode, struct route_opts *own, struct route_out *out)
{
	struct timespec t0;
	struct rt_base_copy copy;	/* the base's LFT, made while the pass routes */
	struct rt_merge_how how = { .bnode = bnode, .copy = &copy };
	uint32_t nneed = 0;
	uint8_t *need;
	double ms[4] = { 0 };	/* the broken LIDs found, the pass, the merge, the verification */
	unsigned soft;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!(need = broken_only(t, c, o, bnode, &nneed)))
		return -EAGAIN;
	ms[0] = ms_since(&t0);
	how.only = own->only_lids = need;
	rc = rt_base_copy_start(&copy, t, o->base, bnode, need, o->threads);
	if (rc)
		memset(out, 0, sizeof(*out));
	else
		rc = run_once(t, c, own, out, &soft);
	own->only_lids = NULL;
	ms[1] = ms_since(&t0);
	soft = o->base->out->rails_given_up ? RT_VF_RAILS_SOFT : 0;
	if (!rc)
		rc = incremental(t, c, o, &how, out, soft, ms + 2);
	rt_base_copy_free(&copy);
	if (!rc)
		logf_(o, ROUTE_LOG_INFO, "incremental on the %u LIDs the fault broke: found in %.1f "
		      "ms, routed in %.1f ms, merged in %.1f ms, verified in %.1f ms", nneed, ms[0],
		      ms[1], ms[2], ms[3]);
	free(need);
	if (!rc)	/* the pass alone was not verified: what the merge's verification let through */
		out->rails_given_up = (soft & RT_VF_RAILS_SOFT) && out->rail_findings;
	if (!rc && out->judged_lids < out->kept_lids + out->patched_lids + out->rerouted_lids)
		out->max_link_routes = o->base->out->max_link_routes;	/* judged: the changed LIDs */
	if (rc == -ENOMEM) {	/* no half-merged tables */
		route_out_free(out);
		snprintf(out->err, sizeof(out->err), "out of memory");
		logf_(o, ROUTE_LOG_ERROR, "%s", out->err);
		return rc;
	}
	if (rc) {
		logf_(o, ROUTE_LOG_INFO, "incremental on the %u LIDs the fault broke: %s; "
		      "routing every LID", nneed, out->mode_why[0] ? out->mode_why : out->err);
		route_out_free(out);
		memset(out, 0, sizeof(*out));
	}
	return rc;
}

/*
 * From scratch, or, when the fabric is the base minus something, this
 * pass's routes only where the base's meet a fault (route_incr.c): the
 * leaf entries are then the base's, so this pass's shift refinement
 * (tuned to its own tables) is left out.  The pass routes the broken LIDs
 * alone where it can (broken_pass()), else every LID; if the merged tables
 * fail the verification, the pass is routed again from scratch,
 * refinement and all.
 */
int route_run(const struct topo *t, const struct cls *c, const struct route_opts *o,
	      struct route_out *out)
{
	struct route_opts def, own, scratch;
	char why[sizeof(out->mode_why)] = "";
	struct timespec t0;
	uint32_t *bnode = NULL;	/* [node]: the base's (rt_base_nodes()) */
	unsigned soft = 0;
	int sub = -1, rc = -EAGAIN;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!o) {
		route_opts_init(&def);
		o = &def;
	}
	if (o->only_lids) {	/* route_run's own: never a caller's */
		def = *o;
		def.only_lids = NULL;
		o = &def;
	}
	own = *o;
	scratch = *o;
	scratch.force_lids = NULL;	/* from scratch: no job change to confine */
	if (o->base && o->verify) {
		bnode = rt_base_nodes(t, o->base->t);
		sub = rt_base_subset(t, o->base, bnode, why, sizeof(why));
	}
	if (sub < 0)
		own.force_lids = NULL;
	if (sub >= 0) {
		own.shift_refine = false;
		rc = broken_pass(t, c, o, bnode, &own, out);
		if (!rc)
			out->base_in_force = sub == 1;
	}
	if (rc && rc != -ENOMEM)
		rc = run_once(t, c, &own, out, &soft);
	if (!rc && sub >= 0 && o->force_lids && !out->forced)	/* the single-order fallback */
		snprintf(why, sizeof(why), "the jobs changed and one up*/down* order routed them");
	else if (!rc && sub >= 0 && !out->incremental) {
		double ms[2];

		out->base_in_force = sub == 1;
		struct rt_merge_how how = { .bnode = bnode };

		rc = incremental(t, c, o, &how, out, soft, ms);
		if (rc == -EAGAIN) {	/* refused: from scratch */
			memcpy(why, out->mode_why, sizeof(why));
			route_out_free(out);
			rc = run_once(t, c, &scratch, out, &soft);
			out->base_in_force = sub == 1;
		} else if (rc) {	/* out of memory: no half-merged tables */
			route_out_free(out);
			snprintf(out->err, sizeof(out->err), "out of memory");
			logf_(o, ROUTE_LOG_ERROR, "%s", out->err);
		}
	}
	if (o->base && !out->incremental) {
		memcpy(out->mode_why, why, sizeof(out->mode_why));
		if (!rc)
			logf_(o, ROUTE_LOG_INFO, "routed from scratch: %s", why);
	}
	free(bnode);
	if (!rc)
		out->seconds = ms_since(&t0) / 1e3;
	return rc;
}

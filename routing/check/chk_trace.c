// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_trace.c - judging a routing on the LIDs that changed (chk_opts.since).
 *
 * Why.  An incremental re-route (route_incr.c) keeps every LID's route but
 * a few, on the fabric less what failed; judging every route again costs as
 * much as routing from scratch.  So a clean chk_findings() keeps a trace
 * (chk_opts.trace):
 *   - a topological order of its CA-injected channel dependency graph:
 *     each vertex's height, 1 + its longest path, so an edge u -> v has
 *     ord[u] > ord[v] (0: no edge out).  Heights, not any order: they
 *     follow the tree (in an up*down* layer every up-channel of a level
 *     sits above every up-channel of the next), so a new route of the
 *     shape of the old ones fits them (chk_cdg.c keep_order());
 *   - the rail of the routes over each channel (rails only);
 *   - the classification its zone and rail findings depended on.
 * A later run whose routes are the traced ones except for the LIDs of
 * chk_opts.since_only, on the traced fabric less links or nodes, every node
 * left classified as before and links of one rate, needs only those LIDs:
 *   - their routes' findings (distances searched only for a LID with a
 *     route that fails, where they tell unreachable from no physical path:
 *     non_minimal, no hard finding, is not counted).  A kept LID's path
 *     from every switch is the traced one and still cabled: it delivers as
 *     before, no path got shorter (links only went away), no zone or rail
 *     moved, so each of its findings is the traced one's (none, the trace
 *     being clean) or gone (a plane that lost links asks less of
 *     rail_leave);
 *   - credit loops.  The graph is the kept routes' edges, which the traced
 *     graph holds (same entries, SLs and VLs: the caller vouches), plus the
 *     judged LIDs' edges.  If every one of these goes down the traced order,
 *     that order sorts the whole graph: no cycle.  If one does not, the
 *     graph is built and searched whole, as without a trace;
 *   - rail_mix.  A channel's traced rail stands for its kept routes' (all
 *     of them lead to it, or none): a judged route to another rail is
 *     reported, even where the kept routes to the traced rail are gone.
 *     A partial judgement may thus refuse what a full one accepts (that
 *     too, and a cycle among routes the fallback takes as valid): a caller
 *     judges in full before refusing (route.c verify_since()).
 * The turn rows (chk_opts.vlx) are the caller's: the kept routes must
 * meet the rows they met (route_incr.c: every route that turns comes from
 * a turn mode, whose LID the base marks; those LIDs are walked again).
 * Links of several rates, and a switch-injected graph (chk_opts.no_switch_cdg
 * false), are judged in full (rate findings are of every
 * route).  The trace of such a run is the old one moved onto this fabric:
 * its order still sorts every edge.
 *
 * Cost: O(nodes + ports) to match the fabrics, then the judged LIDs' share
 * of a full judgement.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "check/chk_trace.h"

void chk_trace_free(struct chk_trace *tr)
{
	if (!tr)
		return;
	free(tr->ord);
	free(tr->rail);
	free(tr->zone);
	free(tr->crail);
	free(tr->role);
	free(tr->level);
	free(tr);
}

struct chk_trace *chk_trace_new(const struct topo *t, const struct cls *c)
{
	struct chk_trace *tr = calloc(1, sizeof(*tr));
	size_t n = (size_t)t->nnodes + 1;

	if (!tr)
		return NULL;
	tr->t = t;
	tr->nzones = c->nzones;
	tr->nrails = c->nrails;
	tr->zone = malloc(n * sizeof(int16_t));
	tr->crail = malloc(n * sizeof(int16_t));
	tr->role = malloc(n);
	tr->level = malloc(n);
	if (!tr->zone || !tr->crail || !tr->role || !tr->level) {
		chk_trace_free(tr);
		return NULL;
	}
	for (uint32_t i = 0; i < t->nnodes; i++) {
		tr->zone[i] = c->zone[i];
		tr->crail[i] = c->rail[i];
		tr->role[i] = c->role[i];
		tr->level[i] = c->level[i];
	}
	return tr;
}

uint32_t *chk_trace_fits(const struct chk_trace *tr, const struct topo *t, const struct cls *c,
			 bool o_ok)
{
	uint32_t *pmap;

	if (!tr || !tr->ord || !o_ok || c->rates_mixed || tr->nzones != c->nzones ||
	    tr->nrails != c->nrails ||
	    (c->nrails >= 2) != (tr->rail != NULL))
		return NULL;
	pmap = malloc(((size_t)t->nports + 1) * sizeof(*pmap));
	if (!pmap)
		return NULL;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t b = topo_find_guid(tr->t, t->node_guid[n]);

		if (b == TOPO_NONE || tr->t->node_type[b] != t->node_type[n] ||
		    tr->t->node_nports[b] < t->node_nports[n] || tr->zone[b] != c->zone[n] ||
		    tr->crail[b] != c->rail[n] || tr->role[b] != c->role[n] ||
		    tr->level[b] != c->level[n]) {
			free(pmap);
			return NULL;
		}
		for (uint32_t p = t->port_off[n]; p < t->port_off[n + 1]; p++)
			pmap[p] = tr->t->port_off[b] + (p - t->port_off[n]);
	}
	for (uint32_t p = 0; p < t->nports; p++)	/* the same LIDs, links a subset */
		if (t->port_lid[p] != tr->t->port_lid[pmap[p]] ||
		    (t->port_remote[p] != TOPO_NONE &&
		     tr->t->port_remote[pmap[p]] != pmap[t->port_remote[p]])) {
			free(pmap);
			return NULL;
		}
	return pmap;
}

struct chk_trace *chk_trace_moved(const struct chk_trace *old, const struct topo *t,
				  const struct cls *c, const uint32_t *pmap, const int16_t *rail)
{
	struct chk_trace *tr = chk_trace_new(t, c);

	if (!tr)
		return NULL;
	tr->nvl = old->nvl;
	memcpy(tr->vix, old->vix, sizeof(tr->vix));
	tr->ord = malloc(((size_t)t->nports * old->nvl + 1) * sizeof(uint32_t));
	tr->rail = rail ? malloc(((size_t)t->nports + 1) * sizeof(int16_t)) : NULL;
	if (!tr->ord || (rail && !tr->rail)) {
		chk_trace_free(tr);
		return NULL;
	}
	for (uint32_t p = 0; p < t->nports; p++) {
		for (unsigned v = 0; v < old->nvl; v++)
			tr->ord[(size_t)p * old->nvl + v] = old->ord[(size_t)pmap[p] * old->nvl + v];
		if (rail)
			tr->rail[p] = rail[p];
	}
	return tr;
}

int chk_trace_credit_loops(const struct topo *t, const struct lft *l, const uint8_t *ok,
			   const struct chk_opts *o, const uint32_t *lids, uint32_t n,
			   const uint32_t *pmap, struct chk_report *r, struct chk_trace *full,
			   int since)
{
	struct chk_cdg *g;
	int rc = since >= 0 ? since : chk_cdg_since(t, l, ok, o, lids, n, o->since, pmap);

	if (rc != 1)
		return rc;
	/* an edge against the order: the whole graph, every route taken as valid
	 * (the judged LIDs' invalid ones are hard findings already, or lead
	 * nowhere: a superset of the valid routes' edges, no cycle missed) */
	rc = chk_cdg_collect(t, l, NULL, o, &g);
	if (!rc)
		rc = chk_cdg_judge_trace(t, g, r, full);
	chk_cdg_free(g);
	return rc ? rc : 1;
}

void chk_trace_keep(const struct chk_opts *o, const struct chk_report *r, const struct topo *t,
		    const struct cls *c, struct chk_trace *tr, bool moved, const uint32_t *pmap,
		    const int16_t *rail)
{
	bool clean = !chk_hard_findings(r);

	if (clean && moved)	/* the old order still sorts every edge */
		*o->trace = chk_trace_moved(o->since, t, c, pmap, rail);
	if (clean && !moved && tr->ord && rail &&
	    (tr->rail = malloc(((size_t)t->nports + 1) * sizeof(int16_t))))
		memcpy(tr->rail, rail, (size_t)t->nports * sizeof(int16_t));
	if (clean && !moved && tr->ord && (!rail || tr->rail))
		*o->trace = tr;
	else
		chk_trace_free(tr);
}

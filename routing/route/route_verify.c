// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_verify.c - the checker's verdict on the engine's tables: every
 * hard finding (unreachable, loop, black hole, switch LID, credit loop
 * per VL, rail or zone violation) refuses them, but those a fallback
 * cannot keep (route_int.h RT_VF_*); rates are reported, never refused.
 *
 * Why a file of its own: route.c decides what to route and in which
 * order to try; this is the one place that asks the checker (check.h)
 * and reads its report back into route_out.
 *
 * Cost: chk_findings()'s (check/), on the changed LIDs alone when judged
 * against a trace.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ffroute/check.h>

#include "route/route_int.h"

/* The checker's options that judge @out's tables: its SLs and VLs, findings only. */
void rt_verify_opts(const struct route_out *out, unsigned threads, struct chk_opts *co)
{
	chk_opts_init(co);
	co->threads = threads;
	co->no_switch_cdg = true;	/* not a hard finding: the CLI's check reports it */
	co->no_minimal = true;		/* nor non_minimal (the CLI's check counts it) */
	co->rates_if_mixed = true;
	co->metrics = false;		/* findings only (no per-VL route counts) */
	co->sl = out->sl;
	co->sl_group = out->sl_group;
	co->sl_ngroups = out->ngroups;
	co->tcs = out->tcs.n ? &out->tcs : NULL;
	co->sl2vl = out->sl2vl;
	co->vlx = &out->vlx;
}

/*
 * The hard findings refuse the routing, except those @soft names:
 * RT_VF_ZONES_SOFT (one order on one VL) the zone rules, as that order
 * cannot keep every route inside its zone and a detour is better than a
 * credit loop (route_single.c); RT_VF_RAILS_SOFT (rail isolation given up)
 * the rail rules (as with rail isolation off).  What they let through
 * is counted in @out.  @found (optional, [max_lid + 1]): cleared, then
 * the LIDs with a hard finding on their own routes (chk_opts.lid_found).
 */
int rt_verify_since(const struct topo *t, const struct cls *c, unsigned threads,
			struct route_out *out, unsigned soft, const struct chk_trace *since,
			const uint8_t *only, uint8_t *found)
{
	struct chk_opts co;
	struct chk_report rep;
	int rc;

	rt_verify_opts(out, threads, &co);
	chk_trace_free(out->trace);	/* the routing's own, if it is clean */
	out->trace = NULL;
	co.trace = &out->trace;
	co.since = since;
	co.since_only = only;
	co.lid_found = found;
	if (found)
		memset(found, 0, (size_t)t->max_lid + 1);
	rc = chk_report_init(&rep, t->nports);
	if (!rc)
		rc = chk_findings(t, out->lft, c, &co, &rep);
	if (!rc && rep.partial && chk_hard_findings(&rep)) {
		/* judged on the changed LIDs, a finding may be one the whole
		 * routing has not (a kept route's rail gone, chk_trace.c): in full */
		chk_report_free(&rep);
		co.since = NULL;
		rc = chk_report_init(&rep, t->nports);
		if (!rc)
			rc = chk_findings(t, out->lft, c, &co, &rep);
	}
	out->judged_lids = 0;
	for (uint32_t lid = 1; !rc && lid <= t->max_lid; lid++)
		out->judged_lids += t->lid_port[lid] != TOPO_NONE && (!rep.partial || only[lid]);
	for (uint32_t p = 0; !rc && !rep.partial && p < t->nports; p++) {
		if (topo_is_sw_link(t, p) && rep.ch_routes[p] > out->max_link_routes)
			out->max_link_routes = rep.ch_routes[p];
	}
	if (!rc) {
		if (soft & RT_VF_ZONES_SOFT) {
			rep.f[CHK_F_XZONE_LINK].hard = false;
			rep.f[CHK_F_STORAGE_XZONE].hard = false;
			out->zone_detours = rep.f[CHK_F_XZONE_LINK].count +
					    rep.f[CHK_F_STORAGE_XZONE].count;
		}
		/* rates judge performance, not correctness: reported, never refused */
		rep.f[CHK_F_RATE_SLOWED].hard = rep.f[CHK_F_SLOW_TRANSIT].hard = false;
		out->rate_findings = rep.f[CHK_F_RATE_SLOWED].count +
				     rep.f[CHK_F_SLOW_TRANSIT].count;
		out->rail_findings = rep.f[CHK_F_RAIL_MIX].count + rep.f[CHK_F_RAIL_LEAVE].count;
		if (soft & RT_VF_RAILS_SOFT) {
			rep.f[CHK_F_RAIL_MIX].hard = false;
			rep.f[CHK_F_RAIL_LEAVE].hard = false;
		}
		out->hard_findings = chk_hard_findings(&rep);
		for (unsigned k = 0; k < CHK_F_COUNT && out->hard_findings; k++)
			if (rep.f[k].hard && rep.f[k].count) {
				snprintf(out->err, sizeof(out->err),
					 "verification failed: %llu %s finding(s), e.g. %s",
					 (unsigned long long)rep.f[k].count,
					 chk_finding_name((enum chk_finding_kind)k),
					 rep.f[k].nex ? rep.f[k].ex[0] : "-");
				rc = -EINVAL;
				break;
			}
	}
	chk_report_free(&rep);
	return rc;
}

int rt_verify(const struct topo *t, const struct cls *c, unsigned threads,
		  struct route_out *out, unsigned soft)
{
	return rt_verify_since(t, c, threads, out, soft, NULL, NULL, NULL);
}

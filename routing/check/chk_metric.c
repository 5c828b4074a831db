// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_metric.c - balance metrics of a routing, and the entry point of every
 * metric (chk_metrics; the traffic patterns are in chk_traffic.c).
 *
 * Route counts are chk_findings()'s: a route is the forwarding path of one
 * (switch with a table, destination LID) pair, valid when it reaches the
 * port that owns the LID, and a channel (sending port) counts every valid
 * route whose path uses it (r->ch_routes, per destination class in
 * r->ch_routes_tc; classes compute, storage, other = management, SHARP,
 * other CAs, switch LIDs; every LID of an LMC range counts).  chk_metrics()
 * runs chk_findings() first when the report has no counts yet.  This is
 * DESIGN.md property 4's measure: a leaf up-link carries the routes from
 * that leaf, so sibling up-links should carry as many routes of each class
 * (+-1).
 *
 * Metrics (names are stable; see ffroute(1), CHECK METRICS):
 *   link_routes_max, link_routes_mean, link_routes_max_over_mean
 *                         over every cabled switch-to-switch channel (both
 *                         directions; channels with no route count as 0)
 *   link_routes_<c>_max, _mean, _max_over_mean   the same for class
 *                         c = compute, storage, other
 *   uplink_spread, uplink_spread_<c>   the largest, over leaves (level 1),
 *                         of max - min over the leaf's up-links (channels to
 *                         a higher-level switch of the same zone; inter-zone
 *                         links excluded) of the leaf's own routes (its LFT
 *                         entries, one per destination LID of class c) sent
 *                         on the up-link; routes of other switches passing
 *                         through (a zone's entry leaf) are not the leaf's
 *                         choice and are left out; 0 is perfect, 1 is the
 *                         +-1 of DESIGN.md
 *   xzone_link_routes_max, _mean, _max_over_mean   (two zones or more) the
 *                         routes on the inter-zone channels (both
 *                         directions of every link joining two zones or a
 *                         zone and a zone-less switch): how evenly routes
 *                         between zones are spread over those links
 *   downlink_spread_<c>   the largest, over leaves, of max - min over the
 *                         down-links into the leaf (from higher-level
 *                         switches of its zone) of the destination LIDs of
 *                         class c whose routes use the down-link
 * (chk_findings() also sets vl<k>_routes when SL and SL2VL tables are given)
 * then the traffic metrics of chk_traffic.c, and r->seed = opts->seed.
 *
 * Cost: O(ports) for the statistics, after chk_findings().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

static const char *const tc_names[CLS_TC_COUNT] = { "compute", "storage", "other" };

/* max, mean and max/mean of @v over the switch-to-switch channels. */
static int link_stats(const struct topo *t, const uint32_t *v, const char *cls,
		      struct chk_report *r)
{
	uint32_t mx = 0, n = 0;
	uint64_t sum = 0;
	double mean;
	char pre[24], name[48];
	int rc;

	for (uint32_t p = 0; p < t->nports; p++)
		if (topo_is_sw_link(t, p)) {
			n++;
			sum += v[p];
			mx = v[p] > mx ? v[p] : mx;
		}
	mean = n ? (double)sum / n : 0;
	snprintf(pre, sizeof(pre), "link_routes%s%s", cls ? "_" : "", cls ? cls : "");
	snprintf(name, sizeof(name), "%s_max", pre);
	if ((rc = chk_metric_set(r, name, mx)))
		return rc;
	snprintf(name, sizeof(name), "%s_mean", pre);
	if ((rc = chk_metric_set(r, name, mean)))
		return rc;
	snprintf(name, sizeof(name), "%s_max_over_mean", pre);
	return chk_metric_set(r, name, mean > 0 ? mx / mean : NAN);	/* undefined: null */
}

/* A same-zone link from @n to a switch @dir levels up (+1) or down (-1). */
static bool tree_link(const struct topo *t, const struct cls *c, uint32_t n, uint32_t p, int dir)
{
	uint32_t q;

	if (!topo_is_sw_link(t, p) || c->interzone[p])
		return false;
	q = t->port_node[t->port_remote[p]];
	if (c->zone[q] != c->zone[n])
		return false;
	return dir > 0 ? c->level[q] > c->level[n] : c->level[q] < c->level[n];
}

static void spread_of(const uint32_t lo_hi[2], uint32_t *worst)
{
	if (lo_hi[0] != UINT32_MAX && lo_hi[1] - lo_hi[0] > *worst)
		*worst = lo_hi[1] - lo_hi[0];
}

/* Largest max - min of the leaf's own routes per up-link, per class (@k, or all). */
static uint32_t uplink_spread(const struct topo *t, const struct lft *l, const struct cls *c,
			      int k, uint32_t *cnt)
{
	uint32_t worst = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t lh[2] = { UINT32_MAX, 0 }, s = t->node_sw[n];

		if (!topo_is_switch(t, n) || c->level[n] != 1 || !l->have[s])
			continue;
		for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
			uint32_t d = topo_lid_node(t, lid);
			uint8_t e = lft_get(l, s, lid);

			if (d == TOPO_NONE || e == LFT_NONE || !e || e > t->node_nports[n])
				continue;
			if (k < 0 || cls_tclass_of((enum cls_role)c->role[d]) == (enum cls_tclass)k)
				cnt[topo_port(t, n, e)]++;
		}
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			if (tree_link(t, c, n, p, +1)) {
				lh[0] = cnt[p] < lh[0] ? cnt[p] : lh[0];
				lh[1] = cnt[p] > lh[1] ? cnt[p] : lh[1];
			}
			cnt[p] = 0;
		}
		spread_of(lh, &worst);
	}
	return worst;
}

/* Largest max - min over the down-links into one leaf of @v (destinations). */
static uint32_t downlink_spread(const struct topo *t, const struct cls *c, const uint32_t *v)
{
	uint32_t worst = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t lh[2] = { UINT32_MAX, 0 };

		if (!topo_is_switch(t, n) || c->level[n] != 1)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t in = t->port_remote[p];

			if (!tree_link(t, c, n, p, +1))
				continue;
			lh[0] = v[in] < lh[0] ? v[in] : lh[0];
			lh[1] = v[in] > lh[1] ? v[in] : lh[1];
		}
		spread_of(lh, &worst);
	}
	return worst;
}

static int xzone_stats(const struct topo *t, const struct cls *c, struct chk_report *r)
{
	uint32_t mx = 0, n = 0;
	uint64_t sum = 0;
	double mean;
	int rc;

	for (uint32_t p = 0; p < t->nports; p++)
		if (topo_is_sw_link(t, p) && c->interzone[p]) {
			n++;
			sum += r->ch_routes[p];
			mx = r->ch_routes[p] > mx ? r->ch_routes[p] : mx;
		}
	mean = n ? (double)sum / n : 0;
	if ((rc = chk_metric_set(r, "xzone_link_routes_max", mx)) ||
	    (rc = chk_metric_set(r, "xzone_link_routes_mean", mean)))
		return rc;
	return chk_metric_set(r, "xzone_link_routes_max_over_mean", mean > 0 ? mx / mean : NAN);
}

static int balance_metrics(const struct topo *t, const struct lft *l, const struct cls *c,
			   struct chk_report *r)
{
	uint32_t *cnt = calloc((size_t)t->nports + 1, sizeof(*cnt));
	char name[48];
	int rc = cnt ? link_stats(t, r->ch_routes, NULL, r) : -ENOMEM;

	for (unsigned k = 0; k < CLS_TC_COUNT && !rc; k++)
		rc = link_stats(t, r->ch_routes_tc[k], tc_names[k], r);
	if (!rc)
		rc = chk_metric_set(r, "uplink_spread", uplink_spread(t, l, c, -1, cnt));
	for (unsigned k = 0; k < CLS_TC_COUNT && !rc; k++) {
		snprintf(name, sizeof(name), "uplink_spread_%s", tc_names[k]);
		rc = chk_metric_set(r, name, uplink_spread(t, l, c, (int)k, cnt));
	}
	if (!rc && c->nzones >= 2)
		rc = xzone_stats(t, c, r);
	for (unsigned k = 0; k < CLS_TC_COUNT && !rc; k++) {
		snprintf(name, sizeof(name), "downlink_spread_%s", tc_names[k]);
		rc = chk_metric_set(r, name, downlink_spread(t, c, r->ch_dests_tc[k]));
	}
	free(cnt);
	return rc;
}

int chk_metrics(const struct topo *t, const struct lft *l, const struct cls *c,
		const struct chk_opts *o, struct chk_report *r)
{
	int rc = 0;

	r->seed = o->seed;
	if (!r->routes_counted)
		rc = chk_findings(t, l, c, o, r);
	if (!rc)
		rc = balance_metrics(t, l, c, r);
	return rc ? rc : chk_traffic_metrics(t, l, c, o, r);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_metric.c - balance metrics of a routing, and the entry point of every
 * metric (chk_metrics; the traffic patterns are in chk_traffic.c).
 *
 * Route counts.  A route is the forwarding path of one (switch with a
 * table, destination LID) pair; it is valid when it reaches the port that
 * owns the LID.  A channel (sending port) counts every valid route whose
 * path uses it: per LID, memoised chains resolve each switch once and the
 * routes' in-tree is summed deepest first (subtree sizes), O(switches) per
 * LID - the same definition and method as chk_findings(), which fills
 * r->ch_routes/ch_routes_tc; chk_metrics() fills them only when they are
 * still empty.  Classes are the destination node's (compute, storage,
 * other = management, SHARP, other CAs, switch LIDs); every LID of an LMC
 * range counts.  This is DESIGN.md property 4's measure: a leaf up-link
 * carries the routes from that leaf, so sibling up-links should carry as
 * many routes of each class (+-1).
 *
 * Metrics (names are stable; see ffroute(1), CHECK METRICS):
 *   link_routes_max, link_routes_mean, link_routes_max_over_mean
 *                         over every cabled switch-to-switch channel (both
 *                         directions; channels with no route count as 0)
 *   link_routes_<c>_max, _mean, _max_over_mean   the same for class
 *                         c = compute, storage, other
 *   uplink_spread, uplink_spread_<c>   the largest, over leaves (level 1),
 *                         of max - min routes (of class c) over the leaf's
 *                         up-links: channels to a higher-level switch of
 *                         the same zone (inter-zone links excluded); 0 is
 *                         perfect, 1 is the +-1 of DESIGN.md
 *   vl<k>_routes          when opts->sl and opts->sl2vl are given: the
 *                         (route, switch-to-switch channel) pairs counted
 *                         above whose VL - the channel's SL2VL entry for
 *                         the destination LID's SL - is k; only VLs with
 *                         routes are set
 * then the traffic metrics of chk_traffic.c, and r->seed = opts->seed.
 *
 * Cost: O(switches x LIDs) for the counts, O(ports) for the statistics;
 * O(switches + ports) scratch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

static const char *const tc_names[CHK_TC_COUNT] = { "compute", "storage", "other" };

static bool sw2sw(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	return r != TOPO_NONE && topo_is_switch(t, t->port_node[p]) &&
	       topo_is_switch(t, t->port_node[r]);
}

/* Scratch of the route-count pass, per switch ordinal for one destination. */
struct rc_ctx {
	const struct topo *t;
	const struct lft *l;
	uint32_t lid, dnode, dport;
	uint8_t *st;
	uint32_t *outp, *nxt, *depth, *sub, *chain, *bucket, *order;
	uint32_t *ch, *ch_tc[CHK_TC_COUNT];	/* [nports] counts */
};

enum { RS_NEW = 0, RS_BUSY, RS_OK, RS_BAD };

/* Switch @s's own entry: RS_OK/RS_BAD when it ends there, RS_NEW to go on. */
static uint8_t rc_step(struct rc_ctx *x, uint32_t s)
{
	const struct topo *t = x->t;
	uint32_t node = t->sw_node[s], p, r;
	uint8_t e = lft_get(x->l, s, x->lid);

	x->outp[s] = x->nxt[s] = TOPO_NONE;
	if (e == LFT_NONE || e > t->node_nports[node])
		return RS_BAD;
	if (e == 0)
		return node == x->dnode ? RS_OK : RS_BAD;
	p = topo_port(t, node, e);
	if ((r = t->port_remote[p]) == TOPO_NONE)
		return RS_BAD;
	x->outp[s] = p;
	if (!topo_is_switch(t, t->port_node[r]))
		return r == x->dport ? RS_OK : RS_BAD;
	x->nxt[s] = t->node_sw[t->port_node[r]];
	return x->l->have[x->nxt[s]] ? RS_NEW : RS_BAD;
}

/* Resolve the route of @s (and of the switches its chain passes) to x->lid. */
static void rc_resolve(struct rc_ctx *x, uint32_t s)
{
	uint32_t n = 0, cur = s;
	uint8_t res;

	for (;;) {
		x->chain[n++] = cur;
		x->st[cur] = RS_BUSY;
		res = rc_step(x, cur);
		if (res != RS_NEW)
			break;
		cur = x->nxt[cur];
		if (x->st[cur] != RS_NEW) {
			res = x->st[cur] == RS_OK ? RS_OK : RS_BAD;	/* BUSY: a loop */
			break;
		}
	}
	while (n--) {
		uint32_t y = x->chain[n], z = x->nxt[y];

		x->st[y] = res;
		x->depth[y] = res == RS_OK && z != TOPO_NONE ? x->depth[z] + 1 : 0;
	}
}

/* Every valid route to x->lid adds 1 to each channel of its path. */
static void rc_dest(struct rc_ctx *x, uint8_t cls, uint64_t *vl, const struct chk_opts *o)
{
	uint32_t nsw = x->t->nswitches, nok = 0, maxd = 0;

	for (uint32_t s = 0; s < nsw; s++)
		x->st[s] = RS_NEW;
	for (uint32_t s = 0; s < nsw; s++)
		if (x->l->have[s] && x->st[s] == RS_NEW)
			rc_resolve(x, s);
	for (uint32_t s = 0; s < nsw; s++)
		if (x->l->have[s] && x->st[s] == RS_OK) {
			x->sub[s] = 1;
			x->bucket[x->depth[s]]++;
			maxd = x->depth[s] > maxd ? x->depth[s] : maxd;
			nok++;
		}
	for (uint32_t d = maxd + 1, pos = 0; d-- > 0;) {	/* deepest first */
		uint32_t cnt = x->bucket[d];

		x->bucket[d] = pos;
		pos += cnt;
	}
	for (uint32_t s = 0; s < nsw; s++)
		if (x->l->have[s] && x->st[s] == RS_OK)
			x->order[x->bucket[x->depth[s]]++] = s;
	for (uint32_t i = 0; i < nok; i++) {
		uint32_t s = x->order[i], p = x->outp[s];

		if (p != TOPO_NONE) {
			x->ch[p] += x->sub[s];
			x->ch_tc[cls][p] += x->sub[s];
			if (vl && sw2sw(x->t, p))
				vl[o->sl2vl[(size_t)p * 16 + (o->sl[x->lid] & 15)] & 15] +=
					x->sub[s];
		}
		if (x->nxt[s] != TOPO_NONE)
			x->sub[x->nxt[s]] += x->sub[s];
	}
	for (uint32_t d = 0; d <= maxd; d++)
		x->bucket[d] = 0;
}

static int rc_alloc(struct rc_ctx *x, uint32_t nsw, uint32_t nports)
{
	size_t ns = (size_t)nsw + 1, np = (size_t)nports + 1;

	x->st = malloc(ns);
	x->outp = malloc(ns * sizeof(uint32_t));
	x->nxt = malloc(ns * sizeof(uint32_t));
	x->depth = malloc(ns * sizeof(uint32_t));
	x->sub = malloc(ns * sizeof(uint32_t));
	x->chain = malloc(ns * sizeof(uint32_t));
	x->order = malloc(ns * sizeof(uint32_t));
	x->bucket = calloc(ns, sizeof(uint32_t));
	x->ch = calloc(np, sizeof(uint32_t));
	for (unsigned k = 0; k < CHK_TC_COUNT; k++)
		x->ch_tc[k] = calloc(np, sizeof(uint32_t));
	return x->st && x->outp && x->nxt && x->depth && x->sub && x->chain && x->order &&
	       x->bucket && x->ch && x->ch_tc[0] && x->ch_tc[1] && x->ch_tc[2] ? 0 : -ENOMEM;
}

static void rc_free(struct rc_ctx *x)
{
	free(x->st);
	free(x->outp);
	free(x->nxt);
	free(x->depth);
	free(x->sub);
	free(x->chain);
	free(x->order);
	free(x->bucket);
	free(x->ch);
	for (unsigned k = 0; k < CHK_TC_COUNT; k++)
		free(x->ch_tc[k]);
}

/*
 * Route counts of every channel into @x->ch/ch_tc (and per VL into @vl if
 * given): per destination LID, memoised chains give each switch's outcome
 * and depth, then subtree sizes flow down the in-tree, deepest first.
 */
static int count_routes(struct rc_ctx *x, const struct chk_class *c, const struct chk_opts *o,
			uint64_t *vl)
{
	const struct topo *t = x->t;
	int rc = rc_alloc(x, t->nswitches, t->nports);

	if (rc || x->l->nsw < t->nswitches)
		return rc ? rc : -EINVAL;
	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		uint32_t dport = t->lid_port[lid];

		if (dport == TOPO_NONE)
			continue;
		x->lid = lid;
		x->dport = dport;
		x->dnode = t->port_node[dport];
		rc_dest(x, (uint8_t)chk_tclass_of((enum chk_role)c->role[x->dnode]), vl, o);
	}
	return 0;
}

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
		if (sw2sw(t, p)) {
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
	return chk_metric_set(r, name, mean > 0 ? mx / mean : 0);
}

/* Largest max - min of @v over the up-links of one leaf. */
static uint32_t uplink_spread(const struct topo *t, const struct chk_class *c,
			      const uint32_t *v)
{
	uint32_t worst = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t lo = UINT32_MAX, hi = 0;

		if (!topo_is_switch(t, n) || c->level[n] != 1)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q;

			if (!sw2sw(t, p) || c->interzone[p])
				continue;
			q = t->port_node[t->port_remote[p]];
			if (c->level[q] <= c->level[n] || c->zone[q] != c->zone[n])
				continue;
			lo = v[p] < lo ? v[p] : lo;
			hi = v[p] > hi ? v[p] : hi;
		}
		if (lo != UINT32_MAX && hi - lo > worst)
			worst = hi - lo;
	}
	return worst;
}

static int balance_metrics(const struct topo *t, const struct chk_class *c,
			   const struct rc_ctx *x, struct chk_report *r)
{
	char name[48];
	int rc = link_stats(t, x->ch, NULL, r);

	for (unsigned k = 0; k < CHK_TC_COUNT && !rc; k++)
		rc = link_stats(t, x->ch_tc[k], tc_names[k], r);
	if (!rc)
		rc = chk_metric_set(r, "uplink_spread", uplink_spread(t, c, x->ch));
	for (unsigned k = 0; k < CHK_TC_COUNT && !rc; k++) {
		snprintf(name, sizeof(name), "uplink_spread_%s", tc_names[k]);
		rc = chk_metric_set(r, name, uplink_spread(t, c, x->ch_tc[k]));
	}
	return rc;
}

/* Hand the counts to the report unless chk_findings() already filled it. */
static void publish(const struct topo *t, const struct rc_ctx *x, struct chk_report *r)
{
	size_t sz = (size_t)t->nports * sizeof(uint32_t);

	for (uint32_t p = 0; p < t->nports; p++)
		if (r->ch_routes[p])
			return;
	memcpy(r->ch_routes, x->ch, sz);
	for (unsigned k = 0; k < CHK_TC_COUNT; k++)
		memcpy(r->ch_routes_tc[k], x->ch_tc[k], sz);
}

int chk_metrics(const struct topo *t, const struct lft *l, const struct chk_class *c,
		const struct chk_opts *o, struct chk_report *r)
{
	struct rc_ctx x = { .t = t, .l = l };
	uint64_t vl[16] = { 0 };
	bool use_vl = o->sl && o->sl2vl;
	int rc;

	r->seed = o->seed;
	rc = count_routes(&x, c, o, use_vl ? vl : NULL);
	if (!rc) {
		publish(t, &x, r);
		rc = balance_metrics(t, c, &x, r);
	}
	rc_free(&x);
	for (unsigned k = 0; use_vl && k < 16 && !rc; k++) {
		char name[48];

		if (!vl[k])
			continue;
		snprintf(name, sizeof(name), "vl%u_routes", k);
		rc = chk_metric_set(r, name, (double)vl[k]);
	}
	return rc ? rc : chk_traffic_metrics(t, l, c, o, r);
}

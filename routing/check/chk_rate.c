// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_rate.c - rate findings and metrics: what link rates make of the
 * routes (DESIGN.md property 8).  An SA answers a PathRecord with the
 * rate of the slowest link on the LFT path, so a pair routed through a
 * slower link than it needed is slowed for good.
 *
 * For every endpoint pair (source CA port, destination CA port's base LID;
 * SHARP nodes are not endpoints) whose route is valid:
 *   pair rate      the lowest link rate on the path, both CA links
 *                  included: the PathRecord rate the SA predicts;
 *   best rate      the highest such bottleneck over the shortest paths
 *                  (fewest switch hops, any direction) from the source's
 *                  switch to the destination's: a widest-path recurrence
 *                  over the BFS layers, W(s) = max over neighbours n one
 *                  hop nearer of min(rate(s, n), W(n));
 *   rate_slowed    (hard) pair rate below the best rate: some path as
 *                  short would have run faster;
 *   slow_transit   (hard) the path passes through a low-speed subtree
 *                  (class_rate.c) that holds neither endpoint.
 * Metrics: rate_full_gbps; per pair class (fast_fast: both endpoints at
 * the full rate, slow: either below it) pairs, pairs whose PathRecord
 * rate is the full rate (fast_fast) or the slower endpoint's (slow), and
 * the lowest PathRecord rate; rate_slowed_pairs, slow_transit_pairs;
 * subtree_uplink_max_over_mean: per subtree and direction, the endpoint
 * pairs crossing each link between it and the fast tree per unit of the
 * link's rate (the first and the last such link of a path count), max
 * over mean, the worst; 1 is a spread exactly by capacity.
 * Cost: per destination LID, a BFS over the switch links and one pass
 * over the switches (routes memoised along the LFT): O(LIDs x links);
 * when every link runs at one rate, no BFS and no per-pair work: every
 * valid pair runs at that rate, O(LIDs x switches).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#define NO_RATE UINT32_MAX

struct rate_pass {
	const struct topo *t;
	const struct lft *l;
	const struct cls *c;
	struct chk_report *r;
	uint32_t nsw, full;
	uint32_t *dist, *queue;		/* [nsw] BFS hops to the destination's switch */
	uint32_t *best;			/* [nsw] widest shortest-path bottleneck W(s) */
	uint32_t *route;		/* [nsw] the route's bottleneck from s, NO_RATE unknown */
	uint32_t *tr;			/* [nsw * 2] first two subtrees the route meets after s */
	uint32_t *bx;			/* [nsw * 2] first and last subtree boundary channel
					 * the route crosses from s, TOPO_NONE */
	uint64_t *bload;		/* [nports] endpoint pairs over each boundary channel */
	uint8_t *state;			/* [nsw] 0 new, 1 on the walk, 2 done, 3 invalid */
	uint32_t *src_off, *src;	/* CSR [nsw + 1]: endpoint CA ports on each switch */
	uint64_t pairs[2], full_pairs[2], slowed, transit;
	uint32_t min_rate[2];
};

static uint32_t rate_of(const struct rate_pass *x, uint32_t p)
{
	return x->c->rate[p] ? x->c->rate[p] : x->full;
}

static uint32_t min2(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Endpoint CA ports per switch (sources), CSR. */
static int sources(struct rate_pass *x)
{
	const struct topo *t = x->t;
	uint32_t n = 0;

	x->src_off = calloc((size_t)x->nsw + 1, sizeof(*x->src_off));
	x->src = malloc(((size_t)t->nports + 1) * sizeof(*x->src));	/* CA ports, at most */
	if (!x->src_off || !x->src)
		return -ENOMEM;
	for (uint32_t s = 0; s < x->nsw; s++) {
		uint32_t sn = t->sw_node[s];

		x->src_off[s] = n;
		for (uint32_t p = t->port_off[sn] + 1; p < t->port_off[sn + 1]; p++) {
			uint32_t q = t->port_remote[p];

			if (q != TOPO_NONE && !topo_is_switch(t, t->port_node[q]) &&
			    cls_is_endpoint(t, x->c, t->port_node[q]) && t->port_lid[q])
				x->src[n++] = q;
		}
	}
	x->src_off[x->nsw] = n;
	return 0;
}

/* dist and best (W) toward switch @d, its own links to CAs left out. */
static void widest(struct rate_pass *x, uint32_t d)
{
	const struct topo *t = x->t;
	uint32_t head = 0, tail = 0;

	for (uint32_t s = 0; s < x->nsw; s++)
		x->dist[s] = UINT32_MAX, x->best[s] = 0;
	x->dist[d] = 0;
	x->best[d] = NO_RATE;
	x->queue[tail++] = d;
	while (head < tail) {	/* BFS order: a switch's nearer neighbours are final */
		uint32_t s = x->queue[head++], sn = t->sw_node[s];

		for (uint32_t p = t->port_off[sn] + 1; p < t->port_off[sn + 1]; p++) {
			uint32_t q = t->port_remote[p], w;

			if (q == TOPO_NONE || !topo_is_switch(t, t->port_node[q]))
				continue;
			w = t->node_sw[t->port_node[q]];
			if (x->dist[w] == UINT32_MAX) {
				x->dist[w] = x->dist[s] + 1;
				x->queue[tail++] = w;
			}
			if (x->dist[w] == x->dist[s] + 1 &&
			    min2(rate_of(x, p), x->best[s]) > x->best[w])
				x->best[w] = min2(rate_of(x, p), x->best[s]);
		}
	}
}

/* bx of @v, whose route takes port @p to switch @w (done). */
static void boundary(struct rate_pass *x, uint32_t v, uint32_t p, uint32_t w)
{
	const struct topo *t = x->t;
	uint32_t *b = x->bx + 2 * (size_t)v, *bw = x->bx + 2 * (size_t)w;
	bool cross = x->c->subtree[t->sw_node[v]] != x->c->subtree[t->sw_node[w]];

	b[0] = cross ? p : bw[0];
	b[1] = bw[1] != TOPO_NONE ? bw[1] : cross ? p : TOPO_NONE;
}

/* Add subtree @st to @s's list of two (after its successor's). */
static void tr_add(uint32_t *tr, uint32_t st)
{
	if (st == TOPO_NONE || tr[0] == st || tr[1] == st)
		return;
	if (tr[0] == TOPO_NONE)
		tr[0] = st;
	else if (tr[1] == TOPO_NONE)
		tr[1] = st;
}

/*
 * The route's bottleneck from switch @s0 to the destination (switch @d,
 * link rate @r0), memoised; NO_RATE where the route is not valid (the
 * findings of chk_find.c report those).
 */
static uint32_t route_rate(struct rate_pass *x, uint32_t s0, uint32_t d, uint32_t r0,
			   uint32_t lid)
{
	const struct topo *t = x->t;
	uint32_t s = s0, n = 0;

	while (x->state[s] == 0) {	/* walk forward, stacking the switches */
		uint32_t sn = t->sw_node[s], pn = lft_get(x->l, s, lid), p, q;

		x->state[s] = 1;
		x->queue[n++] = s;
		if (s == d)
			break;
		p = t->port_off[sn] + pn;
		q = pn && pn <= t->node_nports[sn] ? t->port_remote[p] : TOPO_NONE;
		if (q == TOPO_NONE || !topo_is_switch(t, t->port_node[q]))
			break;	/* not toward a switch: invalid unless s == d */
		s = t->node_sw[t->port_node[q]];
	}
	while (n) {		/* unwind: each switch from its successor */
		uint32_t v = x->queue[--n], vn = t->sw_node[v], pn = lft_get(x->l, v, lid);
		uint32_t p = t->port_off[vn] + pn, q, w, *tr = x->tr + 2 * (size_t)v;

		x->state[v] = 3;
		tr[0] = tr[1] = TOPO_NONE;
		x->bx[2 * (size_t)v] = x->bx[2 * (size_t)v + 1] = TOPO_NONE;
		if (v == d) {
			x->route[v] = r0;
			x->state[v] = 2;
			continue;
		}
		q = pn && pn <= t->node_nports[vn] ? t->port_remote[p] : TOPO_NONE;
		if (q == TOPO_NONE || !topo_is_switch(t, t->port_node[q]))
			continue;
		w = t->node_sw[t->port_node[q]];
		if (x->state[w] != 2)
			continue;
		x->route[v] = min2(rate_of(x, p), x->route[w]);
		x->state[v] = 2;
		if (w != d)
			tr_add(tr, x->c->subtree[t->sw_node[w]]);
		tr_add(tr, x->tr[2 * (size_t)w]);
		tr_add(tr, x->tr[2 * (size_t)w + 1]);
		boundary(x, v, p, w);
	}
	return x->state[s0] == 2 ? x->route[s0] : NO_RATE;
}

/* One finding; its text (O(nodes) names) only while examples are kept. */
static void finding(struct rate_pass *x, enum chk_finding_kind k, uint32_t an, uint32_t dn,
		    uint32_t got, uint32_t best, uint32_t st, uint32_t w)
{
	char b1[80], b2[80];

	x->r->f[k].count += w - 1;	/* chk_finding_add counts the w-th */
	if (x->r->f[k].nex >= CHK_EXAMPLES) {
		chk_finding_add(x->r, k, true, "-");
		return;
	}
	chk_node_name(x->t, an, b1, sizeof(b1));
	chk_node_name(x->t, dn, b2, sizeof(b2));
	if (k == CHK_F_RATE_SLOWED)
		chk_finding_add(x->r, k, true, "%s -> %s: routed at %u.%u Gb/s, a path as short "
				"runs %u.%u", b1, b2, got / 10, got % 10, best / 10, best % 10);
	else
		chk_finding_add(x->r, k, true, "%s -> %s passes through low-speed subtree %u",
				b1, b2, st);
}

/*
 * @w source ports like @a (the same rate, slowness and subtree) on switch
 * @s to @dport: route bottleneck @rr (from @s, with the destination's
 * link), best possible x->best[s] (without it).
 */
static void pair(struct rate_pass *x, uint32_t a, uint32_t s, uint32_t dport, uint32_t rr,
		 uint32_t dst_st, uint32_t w)
{
	const struct topo *t = x->t;
	uint32_t an = t->port_node[a], dn = t->port_node[dport], ra = rate_of(x, a);
	uint32_t rd = rate_of(x, dport), got = min2(ra, rr);
	uint32_t best = min2(min2(ra, rd), x->best[s]);
	const uint32_t *tr = x->tr + 2 * (size_t)s;
	int slow = x->c->slow[an] || x->c->slow[dn];
	uint32_t want = slow ? min2(min2(ra, rd), x->full) : x->full;

	x->pairs[slow] += w;
	x->full_pairs[slow] += got >= want ? w : 0;
	if (got < x->min_rate[slow])
		x->min_rate[slow] = got;
	if (x->bx[2 * (size_t)s] != TOPO_NONE) {
		x->bload[x->bx[2 * (size_t)s]] += w;
		if (x->bx[2 * (size_t)s + 1] != x->bx[2 * (size_t)s])
			x->bload[x->bx[2 * (size_t)s + 1]] += w;
	}
	if (got < best) {
		x->slowed += w;
		finding(x, CHK_F_RATE_SLOWED, an, dn, got, best, 0, w);
	}
	for (int i = 0; i < 2; i++)
		if (tr[i] != TOPO_NONE && tr[i] != x->c->subtree[an] && tr[i] != dst_st) {
			x->transit += w;
			finding(x, CHK_F_SLOW_TRANSIT, an, dn, 0, 0, tr[i], w);
			break;
		}
}

/* Whether source ports @a and @b count alike in pair(). */
static bool alike(const struct rate_pass *x, uint32_t a, uint32_t b)
{
	uint32_t an = x->t->port_node[a], bn = x->t->port_node[b];

	return rate_of(x, a) == rate_of(x, b) && x->c->slow[an] == x->c->slow[bn] &&
	       x->c->subtree[an] == x->c->subtree[bn];
}

/* Every source's pair with the CA port @dport (its base LID) on switch @d. */
static void one_dest(struct rate_pass *x, uint32_t d, uint32_t dport)
{
	const struct topo *t = x->t;
	uint32_t lid = t->port_lid[dport], r0 = rate_of(x, dport);
	uint32_t dst_st = x->c->subtree[t->port_node[dport]];

	if (lid >= x->l->nlids)
		return;
	memset(x->state, 0, x->nsw);
	for (uint32_t s = 0; s < x->nsw; s++) {
		uint32_t rr, n = x->src_off[s + 1] - x->src_off[s];

		if (!n || (x->c->rates_mixed && x->dist[s] == UINT32_MAX))
			continue;
		rr = route_rate(x, s, d, r0, lid);
		if (rr == NO_RATE)
			continue;
		if (!x->c->rates_mixed) {	/* one rate: every valid pair at it, nothing slowed */
			n -= s == d;	/* not to itself */
			x->pairs[0] += n;
			x->full_pairs[0] += n;
			x->min_rate[0] = n && rr < x->min_rate[0] ? rr : x->min_rate[0];
			continue;
		}
		for (uint32_t i = x->src_off[s], j; i < x->src_off[s + 1]; i = j) {
			uint32_t w = x->src[i] != dport;	/* runs of alike ports: one pair() */

			for (j = i + 1; j < x->src_off[s + 1] && alike(x, x->src[i], x->src[j]); j++)
				w += x->src[j] != dport;
			if (w)
				pair(x, x->src[i] != dport ? x->src[i] : x->src[i + 1], s, dport, rr,
				     dst_st, w);
		}
	}
}

/*
 * Per subtree and direction (out of it, into it), the pairs on each of its
 * boundary channels per unit of rate: the worst max / mean.  1 is an
 * exact spread by capacity.
 */
static double uplink_spread(const struct rate_pass *x)
{
	const struct topo *t = x->t;
	double worst = 0;

	for (uint32_t st = 0; st < x->c->nsubtrees; st++) {
		for (int in = 0; in < 2; in++) {
			double sum = 0, mx = 0;
			uint32_t n = 0;

			for (uint32_t p = 0; p < t->nports; p++) {
				uint32_t q = t->port_remote[p], a, b;
				double v;

				if (q == TOPO_NONE || !topo_is_sw_link(t, p))
					continue;
				a = x->c->subtree[t->port_node[p]];
				b = x->c->subtree[t->port_node[q]];
				if (a == b || (in ? b : a) != st)
					continue;
				v = (double)x->bload[p] * x->full / rate_of(x, p);
				sum += v;
				mx = v > mx ? v : mx;
				n++;
			}
			if (sum > 0 && mx * n / sum > worst)
				worst = mx * n / sum;
		}
	}
	return worst;
}

static int set_metrics(struct rate_pass *x)
{
	static const char *const cls_name[2] = { "fast_fast", "slow" };
	char name[48];
	int rc = chk_metric_set(x->r, "rate_full_gbps", x->full / 10.0);

	for (int k = 0; k < 2 && !rc; k++) {
		snprintf(name, sizeof(name), "rate_pairs_%s", cls_name[k]);
		rc = chk_metric_set(x->r, name, (double)x->pairs[k]);
		snprintf(name, sizeof(name), "rate_pairs_%s_at_rate", cls_name[k]);
		rc = rc ? rc : chk_metric_set(x->r, name, (double)x->full_pairs[k]);
		snprintf(name, sizeof(name), "rate_%s_min_gbps", cls_name[k]);
		rc = rc ? rc : chk_metric_set(x->r, name, x->pairs[k] ?
					      x->min_rate[k] / 10.0 : 0);
	}
	if (!rc)
		rc = chk_metric_set(x->r, "rate_slowed_pairs", (double)x->slowed);
	if (!rc)
		rc = chk_metric_set(x->r, "slow_transit_pairs", (double)x->transit);
	if (!rc && x->c->nsubtrees)
		rc = chk_metric_set(x->r, "subtree_uplink_max_over_mean", uplink_spread(x));
	return rc;
}

/**
 * chk_rates - rate_slowed and slow_transit findings, rate metrics
 * Return: 0 or -ENOMEM.
 */
int chk_rates(const struct topo *t, const struct lft *l, const struct cls *c,
	      struct chk_report *r)
{
	struct rate_pass x = { .t = t, .l = l, .c = c, .r = r, .nsw = t->nswitches,
			       .full = c->full_rate ? c->full_rate : 1,
			       .min_rate = { NO_RATE, NO_RATE } };
	size_t n = (size_t)t->nswitches + 1;
	int rc = -ENOMEM;

	x.dist = malloc(n * sizeof(*x.dist));
	x.queue = malloc(n * sizeof(*x.queue));
	x.best = malloc(n * sizeof(*x.best));
	x.route = malloc(n * sizeof(*x.route));
	x.tr = malloc(2 * n * sizeof(*x.tr));
	x.state = malloc(n);
	x.bx = malloc(2 * n * sizeof(*x.bx));
	x.bload = calloc((size_t)t->nports + 1, sizeof(*x.bload));
	if (x.dist && x.queue && x.best && x.route && x.tr && x.state && x.bx && x.bload &&
	    !sources(&x)) {
		for (uint32_t d = 0; d < x.nsw; d++) {	/* destinations by switch */
			if (c->rates_mixed && x.src_off[d] < x.src_off[d + 1])
				widest(&x, d);	/* one rate: every path is as fast */
			for (uint32_t i = x.src_off[d]; i < x.src_off[d + 1]; i++)
				one_dest(&x, d, x.src[i]);
		}
		rc = set_metrics(&x);
	}
	free(x.dist);
	free(x.queue);
	free(x.best);
	free(x.route);
	free(x.tr);
	free(x.state);
	free(x.bx);
	free(x.bload);
	free(x.src_off);
	free(x.src);
	return rc;
}

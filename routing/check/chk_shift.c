// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_shift.c - shift permutations of the compute set (shift_*), and their
 * physical lower bound (shift_lb_*): leaves, the parts of class_pos.c (the
 * pods of a 3-level tree) and zones, each a cut no routing can beat.
 * Definitions in chk_traffic.c's top comment and ffroute(1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "check/chk_traffic.h"

#define SHIFT_ALL_MAX 1024		/* all shifts up to this many endpoints */

/* Count flow @s -> @d leaving and entering the parts (pods) it crosses. */
static void part_flow(struct tctx *x, uint32_t s, uint32_t d)
{
	const struct cls *c = x->c;
	size_t stride = (size_t)x->t->nnodes + 1;

	for (unsigned i = 0; i < c->npartlv; i++) {
		uint32_t ps = c->part[(size_t)s * c->npartlv + i];
		uint32_t pd = c->part[(size_t)d * c->npartlv + i];

		if (ps == pd)
			continue;
		if (ps != UINT32_MAX)
			x->p_out[i * stride + ps]++;
		if (pd != UINT32_MAX)
			x->p_in[i * stride + pd]++;
	}
}

/* The parts' bound for the flows part_flow counted from @leaf; zeroes them. */
static uint32_t part_lb(struct tctx *x, uint32_t leaf)
{
	const struct cls *c = x->c;
	size_t stride = (size_t)x->t->nnodes + 1;
	uint32_t lb = 0;

	for (unsigned i = 0; i < c->npartlv; i++) {
		uint32_t pl = c->part[(size_t)leaf * c->npartlv + i], b, b2;
		size_t j = i * stride + pl;

		if (pl == UINT32_MAX)
			continue;
		b = ceil_div(x->p_out[j], x->pcap[j]);
		b2 = ceil_div(x->p_in[j], x->pcap[j]);
		lb = b > lb ? b : lb;
		lb = b2 > lb ? b2 : lb;
		x->p_out[j] = x->p_in[j] = 0;
	}
	return lb;
}

/* Physical lower bound of shift @k (chk_traffic.c's top comment). */
static uint32_t shift_lb(struct tctx *x, const struct ep *ep, uint32_t n, uint32_t k)
{
	const struct topo *t = x->t;
	uint32_t lb = 1;

	for (uint32_t i = 0; i < n; i++) {
		const struct ep *s = &ep[i], *d = &ep[(i + k) % n];

		if (s->leaf != d->leaf) {
			x->leaf_out[t->node_sw[s->leaf]]++;
			x->leaf_in[t->node_sw[d->leaf]]++;
			part_flow(x, s->leaf, d->leaf);
		}
		if (s->zone != d->zone && zone_ok(x, s->zone) && zone_ok(x, d->zone)) {
			x->z_out[s->zone]++;
			x->z_in[d->zone]++;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t sw = t->node_sw[ep[i].leaf], cap = x->leaf_cap[sw];
		uint32_t b = ceil_div(x->leaf_out[sw], cap), b2 = ceil_div(x->leaf_in[sw], cap);
		uint32_t b3 = part_lb(x, ep[i].leaf);

		lb = b > lb ? b : lb;
		lb = b2 > lb ? b2 : lb;
		lb = b3 > lb ? b3 : lb;
		x->leaf_out[sw] = x->leaf_in[sw] = 0;
	}
	for (uint32_t z = 0; z < x->c->nzones; z++) {
		uint32_t b = ceil_div(x->z_out[z], x->zcap_out[z]);
		uint32_t b2 = ceil_div(x->z_in[z], x->zcap_in[z]);

		lb = b > lb ? b : lb;
		lb = b2 > lb ? b2 : lb;
		x->z_out[z] = x->z_in[z] = 0;
	}
	return lb;
}

/* The shifts to evaluate: 1..n-1, or a sorted seeded sample. */
static uint32_t *pick_shifts(const struct tctx *x, uint32_t n, uint32_t *nk, bool *sampled)
{
	uint32_t m = x->o->shift_samples ? x->o->shift_samples : 64;
	uint32_t *k = malloc((size_t)n * sizeof(*k));
	struct rng g;

	if (!k)
		return NULL;
	for (uint32_t i = 0; i + 1 < n; i++)
		k[i] = i + 1;
	*sampled = n > (x->o->shift_all_max ? x->o->shift_all_max : SHIFT_ALL_MAX) && m < n - 1;
	*nk = *sampled ? m : n - 1;
	if (!*sampled)
		return k;
	rng_init(&g, x->o->seed, ST_SHIFT);
	for (uint32_t i = 0; i < m; i++) {	/* partial Fisher-Yates */
		uint32_t j = i + rng_below(&g, n - 1 - i), tmp = k[i];

		k[i] = k[j];
		k[j] = tmp;
	}
	qsort(k, m, sizeof(*k), ffr_cmp_u32);
	return k;
}

struct shift_res {
	uint32_t max, lbmax, spmax, nk;
	double mean, lbmean, spmean;
	double rmax, rmean;	/* by rate (rated_max()), when links run at several */
	bool sampled;
};

/*
 * A shift's busiest channel by rate: each flow asks its bottleneck (the
 * least rate / full rate on its path) and a channel carries the sum of
 * its flows' asks over its own rate / full rate.  1.0: no link asked more
 * than it runs at; D-mod-K's flow count where every link runs at one
 * rate.  @acc: [nports] zeros, left zero.
 */
static double rated_max(const struct tctx *x, const struct fset *f, double *acc)
{
	double m = 0;

	for (uint32_t i = 0; i < f->n; i++) {
		double ask = 1.0;

		if (!f->ok[i])
			continue;
		for (uint32_t k = f->off[i]; k < f->off[i + 1]; k++)
			ask = x->cap[f->ch[k]] < ask ? x->cap[f->ch[k]] : ask;
		for (uint32_t k = f->off[i]; k < f->off[i + 1]; k++)
			acc[f->ch[k]] += ask / x->cap[f->ch[k]];
	}
	for (uint32_t k = 0; k < f->nch; k++)
		m = acc[f->ch[k]] > m ? acc[f->ch[k]] : m;
	for (uint32_t k = 0; k < f->nch; k++)
		acc[f->ch[k]] = 0;
	return m;
}

/* The bound of shift @k for routings on shortest paths: the cuts, or chk_mincut's. */
static uint32_t shift_lb_sp(struct tctx *x, const struct ep *ep, uint32_t n, uint32_t k, uint32_t lb)
{
	const struct topo *t = x->t;
	uint32_t np = 0, sp;

	for (uint32_t i = 0; i < n && x->mc.nl; i++) {
		uint32_t a = x->mc.idx[t->node_sw[ep[i].leaf]];
		uint32_t b = x->mc.idx[t->node_sw[ep[(i + k) % n].leaf]];

		if (a != b)
			x->pairs[np++] = (uint64_t)a << 32 | b;
	}
	sp = chk_mincut_bound(&x->mc, x->pairs, np);
	return sp > lb ? sp : lb;
}

/*
 * Every (or a sample of) shift permutation of the endpoints @ep[0..n);
 * with @acc ([nports] zeros), by rate too.
 */
static int shift_run(struct tctx *x, const struct ep *ep, uint32_t n, struct shift_res *res,
		     double *acc)
{
	uint32_t *ks;
	double ssum = 0, lbsum = 0, spsum = 0, rsum = 0;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (n < 2)
		return 0;
	ks = pick_shifts(x, n, &res->nk, &res->sampled);
	if (!ks)
		return -ENOMEM;
	for (uint32_t s = 0; s < res->nk && !rc; s++) {
		uint32_t k = ks[s], m, lb, sp;

		chk_fset_reset(&x->fs);
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = chk_fset_add(x, &x->fs, ep[i].port, ep[(i + k) % n].lid);
		chk_fset_load(&x->fs, x->load);
		m = chk_fset_max(&x->fs, x->load);
		chk_fset_unload(&x->fs, x->load);
		lb = shift_lb(x, ep, n, k);
		sp = shift_lb_sp(x, ep, n, k, lb);
		res->max = m > res->max ? m : res->max;
		res->lbmax = lb > res->lbmax ? lb : res->lbmax;
		res->spmax = sp > res->spmax ? sp : res->spmax;
		if (acc && x->cap) {
			double r = rated_max(x, &x->fs, acc);

			res->rmax = r > res->rmax ? r : res->rmax;
			rsum += r;
		}
		ssum += m;
		lbsum += lb;
		spsum += sp;
	}
	free(ks);
	res->mean = res->nk ? ssum / res->nk : 0;
	res->lbmean = res->nk ? lbsum / res->nk : 0;
	res->spmean = res->nk ? spsum / res->nk : 0;
	res->rmean = res->nk ? rsum / res->nk : 0;
	return rc;
}

static int shift_set(struct tctx *x, const char *pre, const struct shift_res *res)
{
	int rc;

	if ((rc = chk_setf(x, "%s_max", pre, res->max)) || (rc = chk_setf(x, "%s_mean", pre, res->mean)) ||
	    (rc = chk_setf(x, "%s_lb_max", pre, res->lbmax)) ||
	    (rc = chk_setf(x, "%s_lb_mean", pre, res->lbmean)) ||
	    (rc = chk_setf(x, "%s_lb_sp_max", pre, res->spmax)) ||
	    (rc = chk_setf(x, "%s_lb_sp_mean", pre, res->spmean)) ||
	    (rc = chk_setf(x, "%s_count", pre, res->nk)))
		return rc;
	return chk_setf(x, "%s_sampled", pre, res->sampled);
}

/*
 * The compute endpoints of zone @z (@rail < 0) or of rail @rail, in order;
 * @z -2: those that are not slow (class_rate.c).
 */
static uint32_t subset(const struct tctx *x, int z, int rail, struct ep *out)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < x->ncomp; i++) {
		uint32_t node = x->t->port_node[x->comp[i].port];

		if (rail >= 0 ? x->c->rail[node] == rail :
		    z == -2 ? !x->c->slow[node] : x->comp[i].zone == z)
			out[n++] = x->comp[i];
	}
	return n;
}

/* The compute endpoints' leaves (switch ordinals, once each) and their cuts. */
static int mincut_init(struct tctx *x)
{
	uint32_t *lv = malloc(((size_t)x->ncomp + 1) * sizeof(*lv)), nl = 0;
	uint8_t *seen = calloc((size_t)x->t->nswitches + 1, 1);
	int rc = -ENOMEM;

	x->pairs = malloc(((size_t)x->ncomp + 1) * sizeof(*x->pairs));
	if (lv && seen && x->pairs) {
		for (uint32_t i = 0; i < x->ncomp; i++) {
			uint32_t s = x->t->node_sw[x->comp[i].leaf];

			if (!seen[s]) {
				seen[s] = 1;
				lv[nl++] = s;
			}
		}
		rc = chk_mincut_build(x->t, lv, nl, &x->mc);
	}
	free(lv);
	free(seen);
	return rc;
}

static int shift_all(struct tctx *x);

/*
 * shift_* over every compute endpoint; shift_zone<k>_* within zone k (two
 * zones or more); shift_rail_* within each rail (two rails or more): the
 * largest max and lower bound, the mean of the means over rails.
 */
int chk_shift_metrics(struct tctx *x)
{
	int rc = mincut_init(x);

	if (!rc)
		rc = shift_all(x);
	chk_mincut_free(&x->mc);
	free(x->pairs);
	x->pairs = NULL;
	return rc;
}

static int shift_all(struct tctx *x)
{
	struct shift_res res, worst = { 0 };
	double *acc = x->cap ? calloc((size_t)x->t->nports + 1, sizeof(*acc)) : NULL;
	struct ep *sub;
	char pre[32];
	int rc = x->cap && !acc ? -ENOMEM : shift_run(x, x->comp, x->ncomp, &res, acc);

	if (!rc && acc && ((rc = chk_setf(x, "%s_rated_max", "shift", res.rmax)) == 0))
		rc = chk_setf(x, "%s_rated_mean", "shift", res.rmean);
	free(acc);
	if (rc || (rc = shift_set(x, "shift", &res)))
		return rc;
	if (x->c->nzones < 2 && x->c->nrails < 2 && !x->c->rates_mixed)
		return 0;
	sub = malloc(((size_t)x->ncomp + 1) * sizeof(*sub));
	if (!sub)
		return -ENOMEM;
	if (x->c->rates_mixed) {	/* the full-rate compute HCAs among themselves */
		rc = shift_run(x, sub, subset(x, -2, -1, sub), &res, NULL);
		if (!rc)
			rc = shift_set(x, "shift_fast", &res);
	}
	for (uint32_t z = 0; x->c->nzones >= 2 && z < x->c->nzones && !rc; z++) {
		rc = shift_run(x, sub, subset(x, (int)z, -1, sub), &res, NULL);
		snprintf(pre, sizeof(pre), "shift_zone%u", z);
		if (!rc)
			rc = shift_set(x, pre, &res);
	}
	for (uint32_t k = 0; x->c->nrails >= 2 && k < x->c->nrails && !rc; k++) {
		rc = shift_run(x, sub, subset(x, -1, (int)k, sub), &res, NULL);
		worst.max = res.max > worst.max ? res.max : worst.max;
		worst.lbmax = res.lbmax > worst.lbmax ? res.lbmax : worst.lbmax;
		worst.spmax = res.spmax > worst.spmax ? res.spmax : worst.spmax;
		worst.mean += res.mean / x->c->nrails;
		worst.lbmean += res.lbmean / x->c->nrails;
		worst.spmean += res.spmean / x->c->nrails;
		worst.nk += res.nk;
		worst.sampled |= res.sampled;
	}
	if (!rc && x->c->nrails >= 2)
		rc = shift_set(x, "shift_rail", &worst);
	free(sub);
	return rc;
}


// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_all.c - route every destination, on one thread or two.
 *
 * Why two threads give the same tables as one: a destination's routes
 * depend on the labels of its attach switch (recomputed from the fabric),
 * on its rank (fixed before routing), and on the balance counters of its
 * own traffic class (load, pload, dsg: one array per class).  So the
 * compute destinations and the others (storage, management, switch LIDs)
 * are two independent sequences: a worker thread routes the second with
 * scratch of its own (labels, candidates, LFT columns, turn pairs) while
 * this thread routes the first, each in position order.  Each writes only
 * its own LIDs' LFT bytes and SL entries.  Afterwards the counters are
 * added and the turn pairs merged.
 *
 * When not: class weights make every class's counters part of every
 * choice (route_opts.class_weight), and the rooted layer's strict mode
 * depends on what earlier destinations of any class met (route_root.c).
 * With weights one thread routes all; when a LID takes the rooted layer,
 * the two-thread pass is dropped and the caller routes again on one
 * thread (-ERESTART).  On a fabric where one class is nearly everything,
 * the worker has little to do: the split is by class, not by cost.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_int.h"

/*
 * Candidates are switch-to-switch ports (swp), and so is every bucket
 * queue entry but one seed per switch (a label improves at most once per
 * port examined, each switch is examined once per phase): sized by those,
 * not by all ports.  Needs switch_ports() first.
 */
int rt_scratch_alloc(struct rt *r)
{
	size_t ns = (size_t)r->nsw + 1, np = (size_t)r->swp_off[r->nsw] + 1;

	r->mode = calloc(ns, 1);
	r->u0 = calloc(ns, 1);
	r->dist = calloc(ns, sizeof(uint16_t));
	r->pref = calloc(ns, sizeof(uint16_t));
	r->pref_stamp = calloc(ns, sizeof(uint32_t));
	r->near_stamp = calloc(ns, sizeof(uint32_t));
	r->near_pref = calloc(ns, sizeof(uint16_t));
	r->col = malloc(ns * LFT_COLS);
	r->bq.cap = (uint32_t)(np + ns);
	r->bq.v = malloc(r->bq.cap * sizeof(uint32_t));
	r->bq.next = malloc(r->bq.cap * sizeof(uint32_t));
	r->cand_off = calloc(ns, sizeof(uint32_t));
	r->cand = malloc(np * sizeof(uint32_t));
	r->cand_w = malloc(np * sizeof(uint32_t));
	r->order = malloc(ns * sizeof(uint32_t));
	r->sub = malloc(ns * sizeof(uint32_t));
	r->wide = r->c->rates_mixed ? calloc(ns, sizeof(uint32_t)) : NULL;
	r->hw = calloc(ns, sizeof(uint32_t));
	r->sl_own = calloc((size_t)r->out->ngroups + 1, 1);
	r->cmap_epoch = calloc(ns, sizeof(uint32_t));
	r->cmap_first = malloc(((size_t)r->upg_off[r->nsw] + 1) * sizeof(uint32_t));
	r->cmap_next = malloc(np * sizeof(uint32_t));
	r->cand_epoch = 0;
	r->eload = r->c->rates_mixed ? calloc(ns * ((size_t)r->c->nsubtrees + 1) * CLS_TC_COUNT,
					      sizeof(uint64_t)) : NULL;
	r->turn_bits = NULL;	/* lazily: rt_mark_turns */
	r->rdir = NULL;		/* lazily: rt_rooted_dirs */
	r->stamp = 0;
	r->ncol = 0;
	r->lab_attach = TOPO_NONE;
	if (!r->mode || !r->u0 || !r->dist || !r->pref || !r->pref_stamp || !r->near_stamp ||
	    !r->near_pref || !r->col || !r->bq.v || !r->bq.next || !r->cand_off || !r->cand ||
	    !r->cand_w || !r->order || !r->sub || !r->hw || !r->sl_own || !r->cmap_epoch ||
	    !r->cmap_first || !r->cmap_next ||
	    (r->c->rates_mixed && (!r->wide || !r->eload)))
		return -ENOMEM;
	memset(r->col, LFT_NONE, ns * LFT_COLS);
	return 0;
}

void rt_scratch_free(struct rt *r)
{
	free(r->mode);
	free(r->u0);
	free(r->dist);
	free(r->pref);
	free(r->pref_stamp);
	free(r->near_stamp);
	free(r->near_pref);
	free(r->col);
	free(r->bq.v);
	free(r->bq.next);
	free(r->cand_off);
	free(r->cand);
	free(r->cand_w);
	free(r->order);
	free(r->sub);
	free(r->wide);
	free(r->hw);
	free(r->sl_own);
	free(r->cmap_epoch);
	free(r->cmap_first);
	free(r->cmap_next);
	free(r->eload);
	free(r->turn_bits);
	free(r->rdir);
}

/* One sequence: the destinations of @d whose class is (or, with @others, is not) compute. */
struct seq {
	struct rt *r;
	const struct rt_dest *d;
	uint32_t nd;
	int which;		/* -1 all, 0 compute only, 1 all but compute */
	int rc;
	uint32_t bad_lid;	/* the LID rc is about */
};

static void *route_seq(void *arg)
{
	struct seq *q = arg;

	q->rc = 0;
	for (uint32_t i = 0; i < q->nd && !q->rc; i++) {
		if (q->which >= 0 && (q->d[i].tc != CLS_TC_COMPUTE) != q->which)
			continue;
		q->rc = rt_route_dest(q->r, &q->d[i]);
		q->bad_lid = q->d[i].lid;
	}
	if (!q->rc)
		rt_col_flush(q->r);
	return NULL;
}

/* Whether a worker thread pays: two CPUs, no class weights, both sequences non-empty. */
static bool two_threads(const struct rt *r, const struct rt_dest *d, uint32_t nd)
{
	uint32_t ncomp = 0;

	if (ffr_threads(r->o->threads) < 2 || r->weighted)
		return false;
	for (uint32_t i = 0; i < nd; i++)
		ncomp += d[i].tc == CLS_TC_COMPUTE;
	return ncomp && ncomp < nd;
}

/* Add the worker's counters and turn pairs to @r's. */
static void merge(struct rt *r, struct rt *w)
{
	size_t n = (size_t)r->t->nports * r->turn_stride;

	r->out->routes += w->out->routes;
	r->out->turn_routes += w->out->turn_routes;
	r->any_routes += w->any_routes;
	for (uint32_t g = 0; g < r->out->ngroups; g++)
		r->sl_own[g] |= w->sl_own[g];
	if (!w->turn_bits)
		return;
	if (!r->turn_bits) {
		r->turn_bits = w->turn_bits;
		w->turn_bits = NULL;
		return;
	}
	for (size_t i = 0; i < n; i++)
		r->turn_bits[i] |= w->turn_bits[i];
}

int rt_route_all(struct rt *r, const struct rt_dest *d, uint32_t nd, uint32_t *bad_lid)
{
	struct seq main_q = { r, d, nd, -1, 0, 0 }, wq;
	struct route_out wout;
	struct rt w;
	pthread_t th;
	int rc;

	if (!two_threads(r, d, nd)) {
		route_seq(&main_q);
		*bad_lid = main_q.bad_lid;
		return main_q.rc;
	}
	w = *r;
	wout = *r->out;		/* the LFT and SL table are shared: disjoint LIDs */
	wout.routes = wout.turn_routes = 0;
	wout.rooted_lids = 0;
	w.out = &wout;
	w.any_routes = 0;
	if ((rc = rt_scratch_alloc(&w))) {
		rt_scratch_free(&w);
		return rc;
	}
	wq = (struct seq){ &w, d, nd, 1, 0, 0 };
	main_q.which = 0;
	if (pthread_create(&th, NULL, route_seq, &wq)) {
		route_seq(&wq);		/* no thread: the same, one after the other */
		route_seq(&main_q);
	} else {
		route_seq(&main_q);
		pthread_join(th, NULL);
	}
	rc = main_q.rc ? main_q.rc : wq.rc;
	*bad_lid = main_q.rc ? main_q.bad_lid : wq.bad_lid;
	if (!rc && (r->out->rooted_lids || wout.rooted_lids))
		rc = -ERESTART;	/* the rooted layer: one thread decides strictness */
	if (rc == -EAGAIN)
		rc = -ERESTART;
	if (!rc)
		merge(r, &w);
	rt_scratch_free(&w);
	return rc;
}

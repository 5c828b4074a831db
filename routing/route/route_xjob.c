// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_xjob.c - the transfers of a job that spans zones, once every LID
 * is routed.
 *
 * Why.  The digit search (route_dbt.c) keeps each zone's part of a job off
 * shared leaf up-links, but a transfer between zones goes up to a spine,
 * down to an exit leaf, over an inter-zone link, and in again, on hops
 * that each switch chose by load while routing.  Two of a job's
 * transfers then meet on a spine's link to an exit leaf, on a bridge's
 * link into the other zone, or on the link an in-zone destination of the
 * exit leaf is designated to.
 *
 * What.  Per job with ranks in two zones: every transfer of every step of
 * its collective (rt_job_xfers, endpoint-limited rates), followed through
 * the LFTs; the load of each (step, channel).  Then, for a destination
 * that receives from another zone and a switch above the leaves (a spine,
 * a bridge) whose entry toward it carries an overloaded slot, the other
 * ports of that switch are tried: same direction, a peer in the same zone
 * (or zone-less as before), whose own route reaches the destination's
 * switch in as many hops.  A change is kept when the job's overload falls.
 *
 * What is kept.  Routes stay minimal and up*down* per zone with the same
 * zone sequence (so the SLs and VLs of route_sl.c still hold; the
 * verification checks it), leaf entries are not touched (per-class
 * up-link balance, shifts), and only destinations of a job that receive
 * from another zone move, at most once per (switch, destination) per
 * sweep of the search.
 *
 * Cost: per job, O(steps x transfers x hops) to set up and per move
 * O(transfers into the destination x hops).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/util.h"
#include "route/route_int.h"

#define XJ_EPS 1e-9
#define XJ_HOPS 16		/* longest path followed */
#define XJ_ROUNDS 4		/* sweeps over the overloaded slots */

struct xfer {
	uint32_t step, src, dst;	/* source and destination CA nodes */
	double rate;
	uint32_t nhop, hop[XJ_HOPS];	/* switch-to-switch channels (port indices) */
};

struct xj {
	struct rt *r;
	struct xfer *x;
	uint32_t nx, nsteps;
	uint32_t *doff, *didx;	/* CSR: the transfers into each node (didx[doff[n]..doff[n+1]]) */
	double *load;		/* [nsteps * nports] */
	double ov;
};

static double over(double v)
{
	return v > 1.0 + XJ_EPS ? v - 1.0 : 0.0;
}

/* The switch a CA node is cabled to (first cabled port), TOPO_NONE if none. */
static uint32_t ca_switch(const struct topo *t, uint32_t n, uint32_t *lid)
{
	for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
		uint32_t q = t->port_remote[p];

		if (q != TOPO_NONE && topo_is_switch(t, t->port_node[q]) && t->port_lid[p]) {
			*lid = t->port_lid[p];
			return t->node_sw[t->port_node[q]];
		}
	}
	return TOPO_NONE;
}

/* Follow @x from switch @s toward @lid into x->hop; false if it does not arrive. */
static bool walk(const struct rt *r, struct xfer *x, uint32_t s, uint32_t dsw, uint32_t lid)
{
	const struct topo *t = r->t;

	x->nhop = 0;
	while (s != dsw) {
		uint8_t e = lft_get(r->out->lft, s, lid);
		uint32_t p;

		if (e == 0 || e == LFT_NONE || x->nhop == XJ_HOPS)
			return false;
		p = topo_port(t, rt_node(r, s), e);
		if (r->peer[p] == TOPO_NONE)
			return false;
		x->hop[x->nhop++] = p;
		s = r->peer[p];
	}
	return true;
}

static void add(struct xj *j, const struct xfer *x, double sign)
{
	for (uint32_t h = 0; h < x->nhop; h++) {
		double *l = &j->load[(size_t)x->step * j->r->t->nports + x->hop[h]];

		j->ov -= over(*l);
		*l += sign * x->rate;
		j->ov += over(*l);
	}
}

/* Re-walk the transfers into @dst (node) from their sources: loads out, walk, loads in. */
static bool rewalk(struct xj *j, uint32_t dst)
{
	const struct topo *t = j->r->t;
	bool ok = true;

	for (uint32_t k = j->doff[dst]; k < j->doff[dst + 1]; k++) {
		struct xfer *x = &j->x[j->didx[k]];
		uint32_t lid, dl, s, d;

		add(j, x, -1);
		s = ca_switch(t, x->src, &lid);
		d = ca_switch(t, dst, &dl);
		ok &= walk(j->r, x, s, d, dl);
		add(j, x, +1);
	}
	return ok;
}

/* The transfers into each node, by counting sort (doff, didx). */
static int index_dst(struct xj *j)
{
	uint32_t nn = j->r->t->nnodes;

	j->doff = calloc((size_t)nn + 2, sizeof(*j->doff));
	j->didx = malloc(((size_t)j->nx + 1) * sizeof(*j->didx));
	if (!j->doff || !j->didx)
		return -ENOMEM;
	for (uint32_t i = 0; i < j->nx; i++)
		j->doff[j->x[i].dst + 2]++;
	for (uint32_t n = 0; n <= nn; n++)
		j->doff[n + 1] += j->doff[n];
	for (uint32_t i = 0; i < j->nx; i++)
		j->didx[j->doff[j->x[i].dst + 1]++] = i;
	return 0;
}

/* The job's transfers between and inside zones, walked; 0 or -ENOMEM; n 0 if not across zones. */
static int setup(struct xj *j, const struct chk_jobs *J, uint32_t q)
{
	const struct topo *t = j->r->t;
	const uint32_t *v = J->node + J->off[q];
	struct rt_job job = { .n = J->off[q + 1] - J->off[q], .coll = J->coll[q] };
	uint32_t n = job.n, xmax = 4 * n + 4, *src, *dst, *act, cap = 0;
	double *rate, *capv;
	bool across = false;
	int rc;

	for (uint32_t i = 1; i < n; i++)
		across |= j->r->c->zone[v[i]] != j->r->c->zone[v[0]];
	if (!across || n < 2)
		return 0;
	if ((rc = rt_job_steps(&job))) {
		rt_job_free(&job);
		return rc == -ENOMEM ? rc : 0;	/* no tree: nothing to refine */
	}
	src = malloc(xmax * sizeof(*src));
	dst = malloc(xmax * sizeof(*dst));
	act = malloc(2 * ((size_t)n + 1) * sizeof(*act));
	rate = malloc(xmax * sizeof(*rate));
	capv = malloc(2 * ((size_t)n + 1) * sizeof(*capv));
	rc = src && dst && act && rate && capv ? 0 : -ENOMEM;
	j->nsteps = job.nsteps;
	for (uint32_t s = 0; !rc && s < job.nsteps; s++) {
		uint32_t k = rt_job_xfers(&job, s, src, dst);

		rt_endpoint_rates(n, k, src, dst, rate, capv, act);
		if (ffr_grow((void **)&j->x, &cap, (uint64_t)j->nx + k, sizeof(*j->x))) {
			rc = -ENOMEM;
			break;
		}
		for (uint32_t i = 0; i < k; i++) {
			struct xfer *x = &j->x[j->nx];
			uint32_t a, b, la, lb;

			a = ca_switch(t, v[src[i]], &la);
			b = ca_switch(t, v[dst[i]], &lb);
			x->step = s, x->src = v[src[i]], x->dst = v[dst[i]], x->rate = rate[i];
			if (a != TOPO_NONE && b != TOPO_NONE && walk(j->r, x, a, b, lb))
				j->nx++;
		}
	}
	if (!rc && !(j->load = calloc((size_t)j->nsteps * t->nports + 1, sizeof(*j->load))))
		rc = -ENOMEM;
	if (!rc)
		rc = index_dst(j);
	for (uint32_t i = 0; !rc && i < j->nx; i++)
		add(j, &j->x[i], +1);
	free(src);
	free(dst);
	free(act);
	free(rate);
	free(capv);
	rt_job_free(&job);
	return rc;
}

/* Hops from switch @w to @dsw by the LFTs toward @lid; UINT32_MAX if it does not arrive or meets @avoid. */
static uint32_t hops_to(const struct rt *r, uint32_t w, uint32_t dsw, uint32_t lid, uint32_t avoid)
{
	uint32_t h = 0;

	while (w != dsw) {
		uint8_t e = lft_get(r->out->lft, w, lid);
		uint32_t p;

		if (w == avoid || e == 0 || e == LFT_NONE || ++h > XJ_HOPS)
			return UINT32_MAX;
		p = topo_port(r->t, rt_node(r, w), e);
		w = r->peer[p];
		if (w == TOPO_NONE)
			return UINT32_MAX;
	}
	return h;
}

/*
 * Switch @s's entry toward CA @dst: the other ports that keep the route
 * as it was (direction, the peer's zone, hops), each tried; the one that
 * lowers the job's overload most stays.  True if it moved.
 */
static bool try_switch(struct xj *j, uint32_t s, uint32_t dst)
{
	struct rt *r = j->r;
	const struct topo *t = r->t;
	uint32_t lid, dsw = ca_switch(t, dst, &lid), p0, w0, h0;
	uint8_t e0 = lft_get(r->out->lft, s, lid), be = e0;
	double best = j->ov;

	if (dsw == TOPO_NONE || e0 == 0 || e0 == LFT_NONE)
		return false;
	p0 = topo_port(t, rt_node(r, s), e0);
	w0 = r->peer[p0];
	if (w0 == TOPO_NONE || (h0 = hops_to(r, w0, dsw, lid, s)) == UINT32_MAX)
		return false;
	for (uint32_t i = r->swp_off[s]; i < r->swp_off[s + 1]; i++) {
		uint32_t q = r->swp[i], w = r->peer[q];

		if (q == p0 || r->c->dir[q] != r->c->dir[p0] || rt_zone(r, w) != rt_zone(r, w0) ||
		    hops_to(r, w, dsw, lid, s) != h0)
			continue;
		lft_set(r->out->lft, s, lid, (uint8_t)topo_port_num(t, q));
		if (rewalk(j, dst) && j->ov < best - XJ_EPS)
			best = j->ov, be = (uint8_t)topo_port_num(t, q);
	}
	lft_set(r->out->lft, s, lid, be);
	rewalk(j, dst);
	return be != e0;
}

/* Whether some hop of @x is over its link's rate. */
static bool overloaded(const struct xj *j, const struct xfer *x)
{
	for (uint32_t h = 0; h < x->nhop; h++)
		if (over(j->load[(size_t)x->step * j->r->t->nports + x->hop[h]]))
			return true;
	return false;
}

/*
 * One sweep over the transfers between zones that meet an overloaded hop:
 * the switches above the leaves on their path, in order (a leaf's hop,
 * an exit leaf's one inter-zone link above all, is moved from upstream).
 */
static bool sweep(struct xj *j)
{
	struct rt *r = j->r;
	const struct topo *t = r->t;
	bool moved = false;

	for (uint32_t i = 0; i < j->nx && j->ov > XJ_EPS; i++) {
		struct xfer *x = &j->x[i];

		if (r->c->zone[x->src] == r->c->zone[x->dst] || !overloaded(j, x))
			continue;
		for (uint32_t h = 0; h < x->nhop; h++) {
			uint32_t node = t->port_node[x->hop[h]];

			if (r->c->level[node] < 2 && r->c->zone[node] >= 0)
				continue;	/* leaves keep their entries */
			if (try_switch(j, t->node_sw[node], x->dst)) {
				moved = true;
				break;	/* x's hops were walked again */
			}
		}
	}
	return moved;
}

int rt_xjob_refine(struct rt *r)
{
	const struct chk_jobs *J = r->o->jobs;

	for (uint32_t q = 0; J && q < J->n; q++) {
		struct xj j = { .r = r };
		int rc = setup(&j, J, q);

		for (unsigned round = 0; !rc && j.nx && round < XJ_ROUNDS && j.ov > XJ_EPS; round++) {
			double was = j.ov;

			if (!sweep(&j) || j.ov > was - XJ_EPS)
				break;
		}
		if (!rc && j.nx) {
			r->xjob_jobs++;
			r->xjob_left += j.ov > XJ_EPS;
		}
		free(j.x);
		free(j.load);
		free(j.doff);
		free(j.didx);
		if (rc)
			return rc;
	}
	return 0;
}

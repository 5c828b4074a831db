// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_xjob.c - the jobs' transfers, followed through the LFTs once every
 * LID is routed: the overload the digit search could not remove.
 *
 * Why.  The digit search (route_dbt.c) keeps each zone's part of a job off
 * shared leaf up-links, but a transfer between zones goes up to a spine,
 * down to an exit leaf, over an inter-zone link, and in again, on hops
 * that each switch chose by load while routing.  Two of a job's
 * transfers then meet on a spine's link to an exit leaf, on a bridge's
 * link into the other zone, or on the link an in-zone destination of the
 * exit leaf is designated to.  And where the digits are forced (full
 * leaves: route_jshift.c) or the search leaves overload, transfers inside
 * a zone still meet on their leaf's up-links.
 *
 * What.  Per job: every transfer of every step of its collective
 * (rt_job_xfers, endpoint-limited rates), followed through the LFTs; the
 * load of each (step, channel).  For a job across zones, for a
 * destination that receives from another zone and a switch above the
 * leaves (a spine, a bridge) whose entry toward it carries an overloaded
 * slot, the other ports of that switch are tried: same direction, a peer
 * in the same zone (or zone-less as before), whose own route reaches the
 * destination's switch in as many hops.  A change is kept when the job's
 * overload falls.  Where overload is left, wider moves, each only where
 * the narrower ones left it:
 *   swap    a leaf's up-link toward a destination in another zone is
 *           exchanged with that of a destination of the same class, the
 *           same zone and no job (per-class up-link counts unchanged, both
 *           routes as long as before): an in-zone transfer and one
 *           between zones no longer meet on the leaf's up-link;
 *   detour  two hops more: a bridge sends the destination into its zone
 *           through another exit leaf (which takes it up and down), or an
 *           exit leaf sends it up to one of its least-used spines (for the
 *           destination's class) instead of over its one inter-zone link,
 *           the switches that forwarded it there re-pointed.  An exit
 *           leaf's single inter-zone link is otherwise forced: minimal
 *           paths into or out of it all take it;
 *   zswap   (every job, transfers inside a zone) the source leaf's
 *           up-link toward the destination exchanged with that of the
 *           nearest destination in position order that is in no job and
 *           leaves by an up-link with room, while the zone's shift
 *           permutations stay within RT_SHIFT_COST on average and load no
 *           link three times (route_jshift.c counts them); the swap that
 *           removes the most overload per shift it loads twice wins.
 *
 * What is kept.  Every switch's route keeps its zone sequence and stays
 * up*down* inside each zone (so the SLs and VLs of route_sl.c still hold;
 * the verification checks it); routes stay minimal but for detours (two
 * hops between zones, a soft finding); leaf entries move only by swaps
 * (per-class up-link counts unchanged) or a detour onto a least-used
 * up-link, so per-class spread stays within 1; shifts inside zones are
 * untouched but by zswaps, within their bound; only destinations of jobs,
 * their swap partners (in no job) and the switches re-pointed for a
 * detour move.
 *
 * Cost: per job, O(steps x transfers x hops) to set up and per move
 * O(transfers into the destination x hops); a move tried costs
 * O(switches x hops), plus one pass over the LIDs per leaf (swap,
 * detour) or over the zone's positions (zswap).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/util.h"
#include "route/route_int.h"

#define XJ_EPS 1e-9
#define XJ_HOPS 16		/* longest path followed */
#define XJ_ROUNDS 4		/* sweeps over the overloaded slots, per kind of move */
#define XJ_DETOUR 2		/* hops a detour adds */
#define XJ_MOVE 64		/* entries one move changes at most */

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
	const uint8_t *injob;	/* [nnodes]: a CA of some job */
	struct xpath *pb, *pb2;	/* [nsw]: scratch, every switch's route before a move */
	bool across;		/* the job has ranks in two zones */
	struct rt_zshift *zs;	/* the zones' shifts (mode 3), or NULL */
	uint64_t zsum;		/* the zone's shift load with the last move tried */
	uint32_t zswaps;	/* leaf swaps kept inside zones */
};

/* A switch's route toward a LID: hops, down->up turns inside a zone, zone changes. */
struct xpath {
	uint16_t hops, turns, xings;
	bool ok;		/* it arrives */
};

/* LFT entries changed together; applying a move twice restores them. */
struct move {
	uint32_t n, sw[XJ_MOVE], lid[XJ_MOVE];
	uint8_t e[XJ_MOVE];
};

/* A route to judge a move by: LID, its switch, its routes before (xpath). */
struct xcheck {
	uint32_t lid, dsw;
	const struct xpath *pb;
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

/* The job's transfers between and inside zones, walked; 0 or -ENOMEM (nx 0: no tree). */
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
	j->across = across;
	if (n < 2)
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

static bool is_leaf(const struct rt *r, uint32_t s)
{
	return r->c->level[rt_node(r, s)] < 2 && rt_zone(r, s) >= 0;
}

/* The switch ordinal LID @lid's port is cabled to (itself for a switch), TOPO_NONE if none. */
static uint32_t lid_switch(const struct topo *t, uint32_t lid)
{
	uint32_t p = t->lid_port[lid], q;

	if (p == TOPO_NONE)
		return TOPO_NONE;
	if (topo_is_switch(t, t->port_node[p]))
		return t->node_sw[t->port_node[p]];
	q = t->port_remote[p];
	return q != TOPO_NONE && topo_is_switch(t, t->port_node[q]) ? t->node_sw[t->port_node[q]]
								     : TOPO_NONE;
}

/* Switch @w's route toward @lid by the LFTs (struct xpath). */
static struct xpath path_of(const struct rt *r, uint32_t w, uint32_t dsw, uint32_t lid)
{
	struct xpath o = { 0 };
	int16_t z = rt_zone(r, w), zw;
	bool down = false;

	while (w != dsw) {
		uint8_t e = lft_get(r->out->lft, w, lid);
		uint32_t p;

		if (e == 0 || e == LFT_NONE || ++o.hops > XJ_HOPS)
			return o;
		p = topo_port(r->t, rt_node(r, w), e);
		if ((w = r->peer[p]) == TOPO_NONE)
			return o;
		if (r->c->dir[p] == CLS_DIR_XZONE)
			down = false;
		else if (r->c->dir[p] == CLS_DIR_DOWN)
			down = true;
		else if (r->c->dir[p] == CLS_DIR_UP)
			o.turns += down;
		zw = rt_zone(r, w);
		if (zw >= 0 && zw != z) {
			o.xings += z >= 0;
			z = zw;
		}
	}
	o.ok = true;
	return o;
}

static void paths_of(const struct rt *r, uint32_t dsw, uint32_t lid, struct xpath *pb)
{
	for (uint32_t w = 0; w < r->nsw; w++)
		pb[w] = path_of(r, w, dsw, lid);
}

/* Every route that arrived still does, with no more turns, the same zone changes, <= @slack more hops. */
static bool still_valid(const struct rt *r, const struct xcheck *ck, unsigned slack)
{
	for (uint32_t w = 0; w < r->nsw; w++) {
		const struct xpath *b = &ck->pb[w];
		struct xpath a;

		if (!b->ok)
			continue;
		a = path_of(r, w, ck->dsw, ck->lid);
		if (!a.ok || a.hops > b->hops + slack || a.turns > b->turns || a.xings != b->xings)
			return false;
	}
	return true;
}

static bool push(struct move *m, uint32_t sw, uint32_t lid, uint8_t e)
{
	if (m->n == XJ_MOVE)
		return false;
	m->sw[m->n] = sw, m->lid[m->n] = lid, m->e[m->n++] = e;
	return true;
}

static void apply(const struct rt *r, struct move *m)
{
	for (uint32_t i = 0; i < m->n; i++) {
		uint8_t was = lft_get(r->out->lft, m->sw[i], m->lid[i]);

		lft_set(r->out->lft, m->sw[i], m->lid[i], m->e[i]);
		m->e[i] = was;
	}
}

/* The shift model told of @m's entries, just applied or undone (apply() keeps the others in m->e). */
static void zmodel(struct xj *j, const struct move *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		rt_zshift_entry(j->zs, m->sw[i], m->lid[i], m->e[i],
				lft_get(j->r->out->lft, m->sw[i], m->lid[i]));
}

/*
 * The job's overload with @m applied (then undone), INFINITY if a route of
 * @ck breaks or, with a leaf @zl (else TOPO_NONE), the zone's shifts would
 * cost more than RT_SHIFT_COST.
 */
static double trial(struct xj *j, struct move *m, uint32_t dst, const struct xcheck *ck,
		    unsigned nck, unsigned slack, uint32_t zl)
{
	double ov = INFINITY;
	bool ok = true;

	apply(j->r, m);
	if (zl != TOPO_NONE) {	/* the cheaper test first */
		zmodel(j, m);
		ok = rt_zshift_ok(j->zs, zl);
		j->zsum = rt_zshift_sum(j->zs, zl);
	}
	for (unsigned k = 0; ok && k < nck; k++)
		ok = still_valid(j->r, &ck[k], slack);
	if (ok && rewalk(j, dst))
		ov = j->ov;
	apply(j->r, m);
	if (zl != TOPO_NONE)
		zmodel(j, m);
	if (ok)
		rewalk(j, dst);
	return ov;
}

/* @m kept in @best if its overload @ov is below *@bov. */
static void keep(const struct move *m, double ov, struct move *best, double *bov)
{
	if (ov < *bov - XJ_EPS) {
		*bov = ov;
		*best = *m;
	}
}

static bool commit(struct xj *j, struct move *best, uint32_t dst)
{
	if (!best->n)
		return false;
	apply(j->r, best);
	rewalk(j, dst);
	for (uint32_t i = 0; j->r->out->forced && i < best->n; i++)
		j->r->out->forced[best->lid[i]] = 1;	/* a job change: this pass's routes */
	return true;
}

/* A CA LID's node, or TOPO_NONE (a switch's, or none). */
static uint32_t lid_ca(const struct topo *t, uint32_t lid)
{
	uint32_t n = topo_lid_node(t, lid);

	return n == TOPO_NONE || topo_is_switch(t, n) ? TOPO_NONE : n;
}

static uint8_t tclass(const struct rt *r, uint32_t ca)
{
	return (uint8_t)cls_tclass_of((enum cls_role)r->c->role[ca]);
}

/* CA @n (LID @lid) may be a swap partner: in no job (on a job change, commit() marks it moved). */
static bool free_partner(const struct xj *j, uint32_t n, uint32_t lid)
{
	(void)lid;
	return !j->injob[n];
}

/*
 * Leaf @s's entry toward CA @dst (LID @lid, port @e0) exchanged with that
 * of each partner @part[e] (leaving by port e), every switch's routes to
 * both as long as before; with a zone shift model (@zl = @s, else
 * TOPO_NONE) within its bound.  The exchange that removes the most
 * overload per shift it loads twice (without a model: the most overload)
 * into @best; false if none lowers it.
 */
static bool best_exchange(struct xj *j, uint32_t s, uint32_t dst, uint32_t lid, uint8_t e0,
			  const uint32_t part[256], uint32_t zl, struct move *best)
{
	const struct topo *t = j->r->t;
	uint32_t dsw = lid_switch(t, lid);
	uint64_t sum0 = zl != TOPO_NONE ? rt_zshift_sum(j->zs, zl) : 0;
	double bscore = 0;

	paths_of(j->r, dsw, lid, j->pb);
	for (unsigned e = 1; e < 256; e++) {
		struct xcheck ck[2] = { { lid, dsw, j->pb }, { part[e], 0, j->pb2 } };
		struct move m = { 0 };
		double ov, cost = 0, score;

		if (!part[e])
			continue;
		ck[1].dsw = lid_switch(t, part[e]);
		paths_of(j->r, ck[1].dsw, part[e], j->pb2);
		push(&m, s, lid, (uint8_t)e);
		push(&m, s, part[e], e0);
		ov = trial(j, &m, dst, ck, 2, 0, zl);
		if (zl != TOPO_NONE)
			cost = fmax(0.0, (double)j->zsum - (double)sum0);
		score = (j->ov - ov) / (1.0 + cost);
		if (ov < j->ov - XJ_EPS && score > bscore + XJ_EPS) {
			bscore = score;
			*best = m;
		}
	}
	return best->n > 0;
}

/*
 * Leaf @s's up-link toward CA @dst of another zone, exchanged with that
 * of a destination of the same class and zone in no job whose route is as
 * long either way (the first such LID per up-link).  True if one stayed.
 */
static bool try_swap(struct xj *j, uint32_t s, uint32_t dst)
{
	struct rt *r = j->r;
	const struct topo *t = r->t;
	uint32_t lid, dsw = ca_switch(t, dst, &lid), part[256] = { 0 }, p0;
	uint8_t e0 = lft_get(r->out->lft, s, lid);
	struct move best = { 0 };

	if (dsw == TOPO_NONE || r->c->zone[dst] == rt_zone(r, s) || e0 == 0 || e0 == LFT_NONE)
		return false;
	p0 = topo_port(t, rt_node(r, s), e0);
	if (r->c->dir[p0] != CLS_DIR_UP)
		return false;
	for (uint32_t b = 1; b <= t->max_lid; b++) {
		uint8_t e = lft_get(r->out->lft, s, b);
		uint32_t n = lid_ca(t, b), q, bsw, h;

		if (e == 0 || e == LFT_NONE || e == e0 || part[e] || n == TOPO_NONE || !free_partner(j, n, b) ||
		    r->c->zone[n] != r->c->zone[dst] || tclass(r, n) != tclass(r, dst))
			continue;
		q = topo_port(t, rt_node(r, s), e);
		if (r->c->dir[q] != CLS_DIR_UP || (bsw = lid_switch(t, b)) == TOPO_NONE)
			continue;
		h = hops_to(r, r->peer[q], bsw, b, s);
		if (h != UINT32_MAX && h == hops_to(r, r->peer[p0], bsw, b, s))
			part[e] = b;
	}
	return best_exchange(j, s, dst, lid, e0, part, TOPO_NONE, &best) && commit(j, &best, dst);
}

/* Routes of class @tc over each of leaf @s's up-links (by port number); their least. */
static uint32_t uplink_counts(const struct rt *r, uint32_t s, uint8_t tc, uint32_t cnt[256])
{
	const struct topo *t = r->t;
	uint32_t lo = UINT32_MAX;

	memset(cnt, 0, 256 * sizeof(*cnt));
	for (uint32_t b = 1; b <= t->max_lid; b++) {
		uint8_t e = lft_get(r->out->lft, s, b);
		uint32_t n = lid_ca(t, b);

		if (e != 0 && e != LFT_NONE && n != TOPO_NONE && tclass(r, n) == tc)
			cnt[e]++;
	}
	for (uint32_t i = r->swp_off[s]; i < r->swp_off[s + 1]; i++)
		if (r->c->dir[r->swp[i]] == CLS_DIR_UP)
			lo = cnt[r->pnum[r->swp[i]]] < lo ? cnt[r->pnum[r->swp[i]]] : lo;
	return lo;
}

/*
 * The switches that forward @lid into @s, re-pointed: the first other
 * port of the same direction into @s's zone whose route is as long and
 * avoids @s.  False if one has none (or the move is full).
 */
static bool repoint(const struct rt *r, struct move *m, uint32_t s, uint32_t dsw, uint32_t lid,
		    const struct xpath *pb)
{
	for (uint32_t w = 0; w < r->nsw; w++) {
		uint8_t e = lft_get(r->out->lft, w, lid);
		uint32_t p, alt = TOPO_NONE;

		if (w == s || !pb[w].ok || e == 0 || e == LFT_NONE)
			continue;
		p = topo_port(r->t, rt_node(r, w), e);
		if (r->peer[p] != s)
			continue;
		for (uint32_t i = r->swp_off[w]; i < r->swp_off[w + 1] && alt == TOPO_NONE; i++) {
			uint32_t q = r->swp[i], v = r->peer[q];

			if (v != s && r->c->dir[q] == r->c->dir[p] && rt_zone(r, v) == rt_zone(r, s) &&
			    hops_to(r, v, dsw, lid, s) + 1 == pb[w].hops)
				alt = q;
		}
		if (alt == TOPO_NONE || !push(m, w, lid, r->pnum[alt]))
			return false;
	}
	return true;
}

/*
 * Two hops more toward CA @dst: a switch outside the zones into another
 * exit leaf of the same zone, or an exit leaf up to one of its least-used
 * up-links for @dst's class instead of over its inter-zone link (the
 * switches that forwarded @dst to it re-pointed when they would turn).
 */
static bool try_detour(struct xj *j, uint32_t s, uint32_t dst)
{
	struct rt *r = j->r;
	const struct topo *t = r->t;
	uint32_t lid, dsw = ca_switch(t, dst, &lid), cnt[256], lo = 0, p0;
	uint8_t e0 = lft_get(r->out->lft, s, lid);
	bool leaf = is_leaf(r, s);
	struct move best = { 0 };
	double bov = j->ov;
	struct xcheck ck = { lid, dsw, j->pb };

	if (dsw == TOPO_NONE || e0 == 0 || e0 == LFT_NONE)
		return false;
	p0 = topo_port(t, rt_node(r, s), e0);
	if (leaf && (r->c->dir[p0] != CLS_DIR_XZONE || r->c->zone[dst] == rt_zone(r, s)))
		return false;
	if (!leaf && rt_zone(r, s) >= 0)
		return false;	/* a spine's detour would turn down->up */
	if (leaf)
		lo = uplink_counts(r, s, tclass(r, dst), cnt);
	paths_of(r, dsw, lid, j->pb);
	for (uint32_t i = r->swp_off[s]; i < r->swp_off[s + 1]; i++) {
		uint32_t q = r->swp[i];
		struct move m = { 0 };
		double ov;

		if (q == p0 || (leaf && (r->c->dir[q] != CLS_DIR_UP || cnt[r->pnum[q]] != lo)) ||
		    (!leaf && (r->c->dir[q] != r->c->dir[p0] ||
			       rt_zone(r, r->peer[q]) != rt_zone(r, r->peer[p0]))))
			continue;
		push(&m, s, lid, r->pnum[q]);
		ov = trial(j, &m, dst, &ck, 1, XJ_DETOUR, TOPO_NONE);
		if (ov == INFINITY && leaf && repoint(r, &m, s, dsw, lid, j->pb))
			ov = trial(j, &m, dst, &ck, 1, XJ_DETOUR, TOPO_NONE);
		keep(&m, ov, &best, &bov);
	}
	return commit(j, &best, dst);
}

/*
 * Leaf @s's up-link toward CA @dst of its own zone exchanged with that of
 * the destination nearest it in position order (in no job, on another
 * leaf, its route as long either way) that the leaf sends up another
 * up-link with room for @x in its step, while the zone's shifts stay
 * within RT_SHIFT_COST and load no link three times (route_jshift.c).
 * True if one stayed.
 */
static bool try_zswap(struct xj *j, uint32_t s, const struct xfer *x)
{
	uint32_t dst = x->dst;
	struct rt *r = j->r;
	const struct topo *t = r->t;
	uint32_t lid, dsw = ca_switch(t, dst, &lid), part[256] = { 0 }, p0, pd, n;
	uint8_t e0 = lft_get(r->out->lft, s, lid);
	struct move best = { 0 };

	if (dsw == TOPO_NONE || dsw == s || r->c->zone[dst] != rt_zone(r, s) || e0 == 0 ||
	    e0 == LFT_NONE || (pd = rt_zshift_pos(j->zs, lid)) == UINT32_MAX ||
	    !(n = rt_zshift_n(j->zs, s)))
		return false;
	p0 = topo_port(t, rt_node(r, s), e0);
	if (r->c->dir[p0] != CLS_DIR_UP)
		return false;
	for (uint32_t dd = 1; 2 * dd <= n; dd++)
		for (unsigned sg = 0; sg < 2; sg++) {
			uint32_t b = rt_zshift_lid(j->zs, s, sg ? pd + n - dd : pd + dd), node, q, bsw, h;
			uint8_t e = lft_get(r->out->lft, s, b);

			if (e == 0 || e == LFT_NONE || e == e0 || part[e] ||
			    (node = lid_ca(t, b)) == TOPO_NONE || !free_partner(j, node, b))
				continue;
			q = topo_port(t, rt_node(r, s), e);
			if (r->c->dir[q] != CLS_DIR_UP || (bsw = lid_switch(t, b)) == s || bsw == TOPO_NONE ||
			    j->load[(size_t)x->step * t->nports + q] + x->rate > 1.0 + XJ_EPS)
				continue;	/* no room there for @x's transfer */
			h = hops_to(r, r->peer[q], bsw, b, s);
			if (h != UINT32_MAX && h == hops_to(r, r->peer[p0], bsw, b, s))
				part[e] = b;
		}
	if (!best_exchange(j, s, dst, lid, e0, part, s, &best) || !commit(j, &best, dst))
		return false;
	zmodel(j, &best);
	j->zswaps++;
	return true;
}

/*
 * One sweep over the transfers that meet an overloaded hop: the switches
 * on their path, in order.  Modes 0 to 2, transfers between zones: 0 the
 * switches above the leaves only, minimal moves (a leaf's hop, an exit
 * leaf's one inter-zone link above all, is moved from upstream); 1 leaves
 * swap too; 2 detours.  Mode 3, transfers inside a zone: their source
 * leaf swaps within the shifts' cost.
 */
static bool sweep(struct xj *j, unsigned mode)
{
	struct rt *r = j->r;
	const struct topo *t = r->t;
	bool moved = false;

	for (uint32_t i = 0; i < j->nx && j->ov > XJ_EPS; i++) {
		struct xfer *x = &j->x[i];
		bool inzone = r->c->zone[x->src] == r->c->zone[x->dst];

		if (inzone != (mode == 3) || !overloaded(j, x) || !x->nhop)
			continue;
		if (mode == 3) {
			moved |= try_zswap(j, t->node_sw[t->port_node[x->hop[0]]], x);
			continue;
		}
		for (uint32_t h = 0; h < x->nhop; h++) {
			uint32_t s = t->node_sw[t->port_node[x->hop[h]]];
			bool leaf = is_leaf(r, s);

			if ((leaf && mode == 0) ||
			    !((!leaf && try_switch(j, s, x->dst)) || (leaf && try_swap(j, s, x->dst)) ||
			      (mode == 2 && try_detour(j, s, x->dst))))
				continue;
			moved = true;
			break;	/* x's hops were walked again */
		}
	}
	return moved;
}

/* The CAs of every job ([nnodes]); NULL on ENOMEM. */
static uint8_t *job_cas(const struct topo *t, const struct chk_jobs *J)
{
	uint8_t *in = calloc((size_t)t->nnodes + 1, 1);

	for (uint32_t i = 0; in && i < J->off[J->n]; i++)
		in[J->node[i]] = 1;
	return in;
}

/* Sweeps of @mode while they lower the job's overload. */
static void sweeps(struct xj *j, unsigned mode)
{
	for (unsigned round = 0; round < XJ_ROUNDS && j->ov > XJ_EPS; round++) {
		double was = j->ov;

		if (!sweep(j, mode) || j->ov > was - XJ_EPS)
			break;
	}
}

/* A job change (route_opts.force_lids): job @q did not change (none of its LIDs is forced). */
static bool unchanged_job(const struct rt *r, const struct chk_jobs *J, uint32_t q)
{
	const struct topo *t = r->t;

	if (!r->out->forced)
		return false;
	for (uint32_t i = J->off[q]; i < J->off[q + 1]; i++)
		for (uint32_t p = t->port_off[J->node[i]]; p < t->port_off[J->node[i] + 1]; p++)
			if (t->port_lid[p] && r->o->force_lids[t->port_lid[p]])
				return false;
	return true;
}

/*
 * A job change (route_out.forced): every LID whose digit did not move takes
 * the base's entries wherever they still lead to a cabled port: as the
 * merge leaves the others, and with the base's swaps for the changed jobs'
 * CAs, so the jobs' moves start from the installed tables and the zone
 * shift model judges them.
 */
static void base_tables(struct rt *r)
{
	const struct route_base *b = r->o->base;
	const struct topo *t = r->t;

	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t nn = rt_node(r, s), bn = topo_find_guid(b->t, t->node_guid[nn]);
		uint32_t np = t->port_off[nn + 1] - t->port_off[nn];

		if (bn == TOPO_NONE || b->t->node_sw[bn] == TOPO_NONE)
			continue;
		for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
			uint8_t e = lft_get(b->lft, b->t->node_sw[bn], lid);

			if (r->dig_moved[lid] || t->lid_port[lid] == TOPO_NONE || e == LFT_NONE ||
			    e >= np || (e && t->port_remote[topo_port(t, nn, e)] == TOPO_NONE))
				continue;
			lft_set(r->out->lft, s, lid, e);
		}
	}
}

int rt_xjob_refine(struct rt *r, const struct rt_dest *d, uint32_t nd)
{
	const struct chk_jobs *J = r->o->jobs;
	uint8_t *injob = J ? job_cas(r->t, J) : NULL;
	struct xpath *pb = malloc(((size_t)r->nsw + 1) * sizeof(*pb));
	struct xpath *pb2 = malloc(((size_t)r->nsw + 1) * sizeof(*pb2));
	struct rt_zshift *zs = NULL;
	int rc = J && (!injob || !pb || !pb2) ? -ENOMEM : 0;

	if (!rc && r->out->forced)
		base_tables(r);
	for (uint32_t q = 0; !rc && J && q < J->n; q++) {
		struct xj j = { .r = r, .injob = injob, .pb = pb, .pb2 = pb2 };

		if (unchanged_job(r, J, q))
			continue;	/* a job change: this job's routes are the base's */
		rc = setup(&j, J, q);
		for (unsigned mode = 0; !rc && j.nx && j.across && mode <= 2; mode++)
			sweeps(&j, mode);
		if (!rc && j.nx && j.ov > XJ_EPS && !zs)
			rc = rt_zshift_new(r, d, nd, &zs);	/* built once, when first needed */
		j.zs = zs;
		if (!rc && j.nx && j.ov > XJ_EPS)
			sweeps(&j, 3);
		if (!rc && j.nx) {
			r->xjob_jobs += j.across;
			r->xjob_left += j.across && j.ov > XJ_EPS;
			r->xjob_inzone += !j.across && j.ov > XJ_EPS;
			r->xjob_zswaps += j.zswaps;
		}
		free(j.x);
		free(j.load);
		free(j.doff);
		free(j.didx);
	}
	rt_zshift_free(zs);
	free(injob);
	free(pb);
	free(pb2);
	return rc;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_mrows.c - the turn rows (SL2VL per input and output port pair) of
 * the tables an incremental pass merged with its base (route_incr.c).
 *
 * Why: neither routing's rows fit the merged routes.  A row the merged
 * routes do not need lifts other routes through its pair too early, one
 * they lack leaves a turn on VL 0.  So the rows are found again as
 * route_sl.c finds its own: along every route that turns.  When the pass
 * merged a few LIDs and kept the base's columns for the others, and every
 * LID that turned in the base is one of those (none merged, none gone,
 * no switch gone), the base's rows stand for them (its own walks of the
 * same routes), and only the merged LIDs are walked.
 *
 * Cost: O(switches) per LID walked, plus O(ports x radix) to read the rows out.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_incr.h"

/*
 * Mark in @bits (rt_turn_mark()), along the merged route of switch @s to
 * @lid, the pairs rt_turn_pair() names (a turn, a peak, down after a
 * turn).  @walked[w] (per LID): bit 1, a walk that had not turned went on
 * from w, bit 2 one that had, so every pair after w is marked for that
 * state; the pair at w depends on the hop into it, the rest on the state.
 * O(switches) per LID, whichever switches walk.
 */
static void walk_turns(const struct mg *m, uint32_t s, uint8_t *bits, uint32_t stride,
		       uint8_t *walked, unsigned plane)
{
	const struct topo *t = m->t;
	const uint8_t *dir = m->c->dir;
	uint32_t in = TOPO_NONE;
	bool turned = false;

	for (uint32_t h = 0; s != TOPO_NONE && h <= m->ns; h++) {
		uint8_t e = m->bc[(size_t)s * LFT_COLS], bit;
		uint32_t p;

		if (e == 0 || e == LFT_NONE)
			break;
		p = t->port_off[t->sw_node[s]] + e;
		if (in != TOPO_NONE && rt_turn_pair(dir, in, p, &turned))
			rt_turn_mark(t, bits, stride, in, p);
		bit = (uint8_t)((turned ? 2 : 1) << (2 * plane));
		if (walked[s] & bit)
			break;
		walked[s] |= bit;
		in = t->port_remote[p];
		s = rt_next_sw(m, s, e);
	}
}

/*
 * Whether the merged route of switch @s to @lid turns (up after coming
 * down) somewhere after @s: at the next switch, by the hop into it and the
 * hop out, or after it, which does not depend on how the route got
 * there.  Memoized in m->st (0 unknown, 1 no, 2 yes, 3 on the walk: a
 * loop, which the verification reports): O(switches) per LID.
 */
static bool turns_after(struct mg *m, uint32_t s)
{
	const struct topo *t = m->t;
	const uint8_t *dir = m->c->dir;
	uint8_t e = m->bc[(size_t)s * LFT_COLS], e2;
	uint32_t w, in, p2;

	if (m->st[s])
		return m->st[s] == 2;
	m->st[s] = 3;
	w = e == LFT_NONE ? TOPO_NONE : rt_next_sw(m, s, e);
	if (w != TOPO_NONE && m->st[w] != 3) {
		in = t->port_remote[t->port_off[t->sw_node[s]] + e];
		e2 = m->bc[(size_t)w * LFT_COLS];
		p2 = t->port_off[t->sw_node[w]] + e2;
		m->st[s] = (e2 && e2 != LFT_NONE && dir[in] == CLS_DIR_UP &&
			    dir[p2] == CLS_DIR_UP) || turns_after(m, w) ? 2 : 1;
	} else {
		m->st[s] = 1;
	}
	return m->st[s] == 2;
}

/*
 * With m->only (every other LID keeps the base's column), when every LID
 * that turned in the base is kept (none merged, none gone) and no switch
 * is gone: the rows the walks of the kept LIDs that turn would find are
 * then the base's (route_sl.c walked the same routes, and no other), so
 * they go into @bits (stride @stride, rt_turn_mark()) on this
 * fabric's ports; true.  False (walk them all) otherwise, as a row only a
 * merged or gone route needed must go (it would lift other routes through
 * its pair too early), or when the base's rows or turn marks are unknown.
 */
static bool base_rows(const struct mg *m, uint8_t *bits, uint32_t stride, unsigned np)
{
	const struct topo *t = m->t, *b = m->base->t;
	const struct chk_vlx *x = m->bo ? &m->bo->vlx : NULL;
	uint32_t *sw_of;	/* [base switch ordinal]: this fabric's, or TOPO_NONE */

	if (!m->only || !m->bo || !m->bo->turned || !x->n || b->nswitches != m->ns)
		return false;	/* unknown, or a switch gone: its routes' rows with it */
	for (uint32_t lid = 1; lid < m->bo->nlids; lid++)	/* merged or gone: rows to drop */
		if (m->bo->turned[lid] && (lid > t->max_lid || t->lid_port[lid] == TOPO_NONE ||
					   m->only[lid]))
			return false;
	if (!(sw_of = malloc(((size_t)b->nswitches + 1) * sizeof(*sw_of))))
		return false;
	memset(sw_of, 0xff, (size_t)b->nswitches * sizeof(*sw_of));
	for (uint32_t s = 0; s < m->ns; s++)
		sw_of[m->bsw[s]] = s;
	for (uint32_t i = 0; i < x->n; i++) {
		uint32_t bin = (uint32_t)x->v[i].key, bout = (uint32_t)(x->v[i].key >> 32);
		uint32_t bn = b->port_node[bout], s = sw_of[b->node_sw[bn]], node, ie, e;

		if (s == TOPO_NONE || b->port_node[bin] != bn)
			continue;
		node = t->sw_node[s];
		ie = bin - b->port_off[bn];
		e = bout - b->port_off[bn];
		if (ie > t->node_nports[node] || e > t->node_nports[node])
			continue;
		if (x->v[i].vl[ROUTE_SL_TURN] || x->v[i].vl[0])
			rt_turn_mark(t, bits, stride, t->port_off[node] + ie, t->port_off[node] + e);
		for (unsigned k = 1; k < np; k++)	/* the fallback SLs' */
			if (x->v[i].vl[rt_plane_sl(k)])
				rt_turn_mark(t, bits + k * (stride / np), stride,
					     t->port_off[node] + ie, t->port_off[node] + e);
	}
	free(sw_of);
	return true;
}

/*
 * Whether the merge has written the columns of the LIDs it merges among
 * lids[@i, @i + @nb): it goes in LID order (rt_rows_done()); waits for it.
 * False when the walks are to stop.
 */
static bool columns_ready(const struct walks *w, uint32_t i, uint32_t nb)
{
	struct rt_rows *rw = w->rw;
	const uint8_t *only = w->m.only;
	uint32_t need = 0;
	bool go;

	for (uint32_t k = 0; k < nb; k++)
		if ((!only || only[w->lids[i + k]]) && w->lids[i + k] > need)
			need = w->lids[i + k];
	if (!need || !rw->sync)
		return true;
	pthread_mutex_lock(&rw->mu);
	while (rw->done < need && !rw->stop)
		pthread_cond_wait(&rw->cv, &rw->mu);
	go = !rw->stop;
	pthread_mutex_unlock(&rw->mu);
	return go;
}

void rt_rows_done(struct rt_rows *rw, uint32_t lid)
{
	if (!rw->sync) {
		rw->done = lid;
		return;
	}
	pthread_mutex_lock(&rw->mu);
	rw->done = lid;
	pthread_cond_broadcast(&rw->cv);
	pthread_mutex_unlock(&rw->mu);
}

/*
 * Walk the merged routes to the LIDs, LFT_COLS at a time (the blocks the
 * shared cursor hands out), row by row (the switches' SLs are laid out as
 * a table: a row per switch): every switch on the turn SL, or whose route
 * turns after it, marks its route's pairs.
 */
static void *walk_lids(void *arg)
{
	struct walks *w = arg;
	struct mg *m = &w->m;
	struct route_out *o = m->out;
	struct lft swsl = { .nsw = m->ns, .nlids = o->nlids,
			    .port = o->sl + (size_t)(m->c->nzones + 1) * o->nlids };
	unsigned np = w->np;

	for (uint32_t i = atomic_fetch_add(w->next, LFT_COLS); i < w->n;
	     i = atomic_fetch_add(w->next, LFT_COLS)) {
		uint32_t nb = w->n - i < LFT_COLS ? w->n - i : LFT_COLS;

		if (!columns_ready(w, i, nb))
			break;
		lft_cols_get(o->lft, w->lids + i, nb, w->blk);
		lft_cols_get(&swsl, w->lids + i, nb, w->blk + (size_t)m->ns * LFT_COLS);
		for (uint32_t k = 0; k < nb; k++) {
			const uint8_t *sl = w->blk + (size_t)m->ns * LFT_COLS + k;
			bool turned = false;

			m->bc = w->blk + k;
			/* turns_after(): 0 unknown; walk_turns(): none walked */
			memset(m->st, 0, 2 * (size_t)m->ns);
			for (uint32_t s = 0; s < m->ns; s++)
				if (rt_is_valley(m->c, sl[(size_t)s * LFT_COLS])) {
					unsigned pl = rt_turn_plane(m->c, sl[(size_t)s * LFT_COLS]);

					/* a plane merge_planes() left out: a base's
					 * route that lifts no pair of its SL, its
					 * marks are turns (SL 0's row, the same in
					 * every plane) */
					pl = pl < np ? pl : np - 1;

					walk_turns(m, s, w->bits + pl * (w->stride / np), w->stride,
						   m->st + m->ns, pl);
					turned = true;
				} else if (sl[(size_t)s * LFT_COLS] == ROUTE_SL_TURN || turns_after(m, s)) {
					walk_turns(m, s, w->bits, w->stride, m->st + m->ns, 0);
					turned = true;
				}
			if (o->turned)
				o->turned[w->lids[i + k]] = turned;
		}
	}
	return NULL;
}

/* Scratch of one share: bits, two blocks of columns, st; 0 or -ENOMEM (none kept). */
static int walks_alloc(struct walks *w, const struct mg *m, size_t nbits)
{
	w->m = *m;
	w->bits = calloc(nbits + 1, 1);
	w->blk = malloc(2 * (size_t)m->ns * LFT_COLS + 1);
	w->m.st = malloc(2 * (size_t)m->ns + 1);
	if (w->bits && w->blk && w->m.st)
		return 0;
	free(w->bits);
	free(w->blk);
	free(w->m.st);
	w->bits = w->blk = w->m.st = NULL;
	return -ENOMEM;
}

static void walks_free(struct walks *w)
{
	free(w->bits);
	free(w->blk);
	free(w->m.st);
}

unsigned rt_base_planes(struct mg *m)
{
	const struct route_out *bo = m->bo;
	unsigned used = 1, np = rt_turn_planes(m->c);

	if (m->bplanes)
		return m->bplanes;
	if (bo && bo->valley_planes)	/* its routing said */
		return m->bplanes = bo->valley_planes < np ? bo->valley_planes : np;
	/* else from its rows, a row per pair some route turns at: once a merge */
	for (uint32_t i = 0; bo && bo->sl2vl && i < bo->vlx.n && used < np; i++) {
		const uint8_t *def = bo->sl2vl + (size_t)(bo->vlx.v[i].key >> 32) * 16;

		for (unsigned k = used; k < np; k++)
			if (bo->vlx.v[i].vl[rt_plane_sl(k)] != def[rt_plane_sl(k)])
				used = k + 1;
	}
	return m->bplanes = used;
}

/*
 * The planes this pass's fallback routes take (rt_merge_valleys() spread
 * them), at least the first fallback SL's: its switches' SLs kept row by
 * row (rt_copy_base()), searched per SL.
 */
static unsigned pass_planes(const struct mg *m, unsigned np)
{
	const struct rt_merge_keep *k = m->keep;
	uint32_t g0 = m->c->nzones + 1;
	const uint8_t *sl = k->col + (size_t)(m->ns + g0) * k->n;
	size_t n = m->ngroups > g0 ? (size_t)(m->ngroups - g0) * k->n : 0;

	for (unsigned pl = np - 1; pl > 1; pl--)
		if (memchr(sl, rt_plane_sl(pl), n))
			return pl + 1;
	return 2;
}

/*
 * The planes of turn pairs the merge needs (rt_turn_planes() at most): the
 * turn SL's, the first fallback SL's, and the others' as far as this
 * pass's fallback routes take them (pass_planes()) or the base's rows lift
 * one of them (its fallback routes there).  Each plane is nports x radix
 * / 8 bytes to clear, walk and read out: on the 16k-host tree two more
 * took the re-route after a fault from 0.11 s to 0.18 s.  All when this
 * pass routed every LID (its fallback routes may be on any of them) or
 * the base's rows are unknown.
 */
static unsigned merge_planes(struct mg *m)
{
	unsigned np = rt_turn_planes(m->c), used, b;

	if (np <= 2 || !m->only || !m->bo || !m->bo->sl2vl || !m->keep->rows)
		return np;
	used = pass_planes(m, np);
	b = rt_base_planes(m);
	return b > used ? b : used;
}

/*
 * The turn rows of the merged tables, found as route_sl.c finds them for
 * its own: along the route of every switch that turns (on the turn SL,
 * or up after coming down), the pairs that keep a direction; a pair whose
 * in port is an up-port lifts SL 0 to VL 1 (a turn), a down-port the turn
 * SL (after a peak), over the out port's row.  Neither routing's rows
 * would do: a row the merged routes do not need lifts other routes
 * through its pair too early.  Layer SLs only: with traffic classes
 * (base_groups() keeps them out) this pass's rows stand.  With m->only,
 * the base's rows stand for the kept LIDs (base_rows()) and only the
 * merged ones are walked; else the kept LIDs that turned in the base are
 * walked too, on a second thread while the merge runs (rt_rows_begin()),
 * then the merged ones on both (rt_rows_end()).
 */
int rt_rows_begin(struct mg *m, struct rt_rows *rw)
{
	const struct topo *t = m->t;
	struct route_out *o = m->out;
	/* a kept LID whose base routes never turn gives no row: walk the others */
	const uint8_t *bt = m->only && m->base->out ? m->base->out->turned : NULL;
	uint32_t bn = bt ? m->base->out->nlids : 0;
	struct walks *w = rw->w;

	memset(rw, 0, sizeof(*rw));
	rw->stride = 1;
	for (uint32_t s = 0; s < m->ns; s++)
		if (t->node_nports[t->sw_node[s]] / 8u + 1 > rw->stride)
			rw->stride = t->node_nports[t->sw_node[s]] / 8u + 1;
	rw->np = merge_planes(m);
	rw->stride *= rw->np;	/* planes per SL (route_sl.c) */
	rw->nbits = (size_t)t->nports * rw->stride;
	rw->lids = malloc(((size_t)t->max_lid + 1) * sizeof(*rw->lids));
	if (!rw->lids || walks_alloc(&w[0], m, rw->nbits))
		return -ENOMEM;
	rw->kept = base_rows(m, w[0].bits, rw->stride, rw->np);
	for (int merged = 0; merged < 2; merged++) {	/* the kept LIDs' walks first */
		for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
			bool walk = t->lid_port[lid] != TOPO_NONE &&
				    (!bt || m->only[lid] || (!rw->kept && lid < bn && bt[lid]));

			if (walk && merged == (!bt || m->only[lid]))
				rw->lids[rw->nl++] = lid;
			else if (!walk && !merged && o->turned)
				o->turned[lid] = rw->kept && lid < bn && bt[lid];	/* the base's */
		}
		if (!merged)
			rw->nkept = rw->nl;
	}
	w[0].stride = w[1].stride = rw->stride;
	w[0].np = w[1].np = rw->np;
	w[0].lids = w[1].lids = rw->lids;
	atomic_init(&rw->next, 0);
	w[0].next = w[1].next = &rw->next;
	w[0].rw = w[1].rw = rw;
	w[0].n = w[1].n = rw->nl;
	if (!pthread_mutex_init(&rw->mu, NULL)) {
		rw->sync = !pthread_cond_init(&rw->cv, NULL);
		if (!rw->sync)
			pthread_mutex_destroy(&rw->mu);
	}
	/* the kept LIDs' columns are the base's, put before the merge: walked
	 * meanwhile, then the merged ones as the merge writes them */
	rw->ahead = rw->nl && rw->sync && ffr_threads(m->threads) >= 2 &&
		    !walks_alloc(&w[1], m, rw->nbits) &&
		    !pthread_create(&rw->th, NULL, walk_lids, &w[1]);
	return 0;
}

int rt_rows_end(struct mg *m, struct rt_rows *rw)
{
	struct walks *w = rw->w;
	bool two = !rw->ahead && rw->nl >= 2 * LFT_COLS && ffr_threads(m->threads) >= 2;
	pthread_t th;
	int rc;

	rt_rows_done(rw, UINT32_MAX);	/* every column is merged */
	if (two && !w[1].bits && walks_alloc(&w[1], m, rw->nbits))
		two = false;
	if (two && pthread_create(&th, NULL, walk_lids, &w[1]))
		two = false;
	walk_lids(&w[0]);	/* what is left, beside the thread that went ahead */
	if (rw->ahead)
		pthread_join(rw->th, NULL);
	rw->ahead = false;
	if (two)
		pthread_join(th, NULL);
	for (size_t i = 0; w[1].bits && i < rw->nbits; i++)
		w[0].bits[i] |= w[1].bits[i];
	rc = rt_turn_rows(m->t, m->c->dir, w[0].bits, rw->stride, rw->np, m->out->sl2vl,
			  &m->out->vlx, m->threads);
	rt_rows_free(rw);
	return rc;
}

void rt_rows_free(struct rt_rows *rw)
{
	if (rw->ahead) {	/* the merge failed: the walks stop */
		pthread_mutex_lock(&rw->mu);
		rw->stop = true;
		pthread_cond_broadcast(&rw->cv);
		pthread_mutex_unlock(&rw->mu);
		pthread_join(rw->th, NULL);
	}
	rw->ahead = false;
	if (rw->sync) {
		pthread_cond_destroy(&rw->cv);
		pthread_mutex_destroy(&rw->mu);
	}
	walks_free(&rw->w[0]);
	walks_free(&rw->w[1]);
	free(rw->lids);
	memset(rw, 0, sizeof(*rw));
}

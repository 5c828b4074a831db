// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_icopy.c - the base's tables as the start of a merge that routed
 * only the LIDs a fault broke (route_incr.c, rt_base_merge() with
 * rt_merge_how.only): its LFT copied meanwhile onto this fabric's
 * switches (rt_base_copy_start()), its SL table row by row, this pass's
 * columns of the LIDs to merge kept aside for the merge.
 *
 * Why a file of its own: the merge's rules (route_incr.c) do not depend
 * on where the tables start from; this is the bookkeeping of one start.
 *
 * Cost: O(groups x LIDs) for the SL rows, on two threads; the LFT copy
 * was made while this pass routed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_incr.h"

/* rt_copy_base()'s rows of the SL table. */
struct copy {
	struct mg *m;
	const uint32_t *gone;		/* the LIDs absent */
	uint32_t ngone, snl, nl;	/* the base's rows' LIDs here, every one */
	uint8_t *sl;			/* the merged table: a new one when this pass's
					 * has a column per LID (cols), else that one */
	bool cols;
	uint8_t xl[256];		/* the base's SL -> this pass's (rt_sl_xlate()) */
	bool same;			/* xl is the identity */
};

/*
 * Group @g's row of the SL table: this pass's SLs of the LIDs to merge
 * into the keep, the base's row (where a node of the group is the base's;
 * else this pass's row as it routed every LID: a zone's SLs, none from a
 * switch), those SLs back.
 */
static void copy_row(const struct copy *x, uint32_t g)
{
	struct mg *m = x->m;
	const struct rt_merge_keep *k = m->keep;
	const struct route_out *bo = m->bo;
	const uint8_t *own = m->out->sl + (size_t)g * m->out->nlids;
	uint8_t *row = x->sl + (size_t)g * x->nl;
	uint8_t *kept = k->col + (size_t)(m->ns + g) * k->n;

	for (uint32_t i = 0; i < k->n; i++)
		kept[i] = own[x->cols ? i : k->lid[i]];
	if (bo && m->bgroup[g] != UINT32_MAX) {
		const uint8_t *from = bo->sl + (size_t)m->bgroup[g] * bo->nlids;

		if (x->cols) {	/* LID 0 and those past the base's: none, or put back */
			row[0] = 0;
			memset(row + x->snl, 0, x->nl - x->snl);
		}
		if (x->same)
			memcpy(row + 1, from + 1, x->snl - 1);
		for (uint32_t lid = 1; !x->same && lid < x->snl; lid++)
			row[lid] = x->xl[from[lid]];
		for (uint32_t i = 0; i < x->ngone; i++)
			row[x->gone[i]] = 0;	/* as this pass has them */
	} else if (x->cols && g <= m->c->nzones && m->out->nvls >= 2) {
		rt_sl_zone_row(m->t, m->c, g, row);
	} else if (x->cols) {
		memset(row, 0, x->nl);
	}
	for (uint32_t i = 0; i < k->n; i++)
		row[k->lid[i]] = kept[i];
}

static void copy_rows(void *ctx, uint32_t lo, uint32_t hi, unsigned half)
{
	(void)half;
	for (uint32_t g = lo; g < hi; g++)
		copy_row(ctx, g);
}

/*
 * The LFT: rt_base_copy_start()'s table, made while this pass routed.
 * This pass's entries of the LIDs to merge (its table has a column per
 * such LID; a whole one after the single-order fallback) go to the keep,
 * the base's to m->bcols; the table becomes the one merged.
 */
static int take_copy(struct mg *m)
{
	struct rt_base_copy *bc = m->copy;
	struct rt_merge_keep *k = m->keep;
	struct route_out *o = m->out;
	const struct lft *l = o->lft;
	size_t w = (size_t)m->ns + m->ngroups;
	int rc = bc ? rt_base_copy_wait(bc) : -EINVAL;

	if (rc == -EINVAL)
		snprintf(o->mode_why, sizeof(o->mode_why), "a switch is not the base's");
	if (!rc && (l->nsw != m->ns || l->nlids != (o->only_cols ? bc->n + 1 : m->t->max_lid + 1))) {
		snprintf(o->mode_why, sizeof(o->mode_why), "internal error: the pass's table is "
			 "not the one the merge was made for");
		rc = -EINVAL;
	}
	if (!rc && !(k->col = malloc(w * bc->n + 1)))
		rc = -ENOMEM;
	if (rc)
		return rc;
	k->lid = bc->lid, k->n = k->cap = bc->n;
	m->bcols = bc->bcols;
	m->bscols = m->bo == m->base->out ? bc->bscols : NULL;	/* else the base's SLs unread */
	bc->lid = NULL, bc->bcols = NULL;
	if (m->bscols)
		bc->bscols = NULL;
	for (uint32_t s = 0; s < m->ns; s++) {
		const uint8_t *row = l->port + (size_t)s * l->nlids;
		uint8_t *kept = k->col + (size_t)s * k->n;

		if (o->only_cols)
			memcpy(kept, row, k->n);
		for (uint32_t i = 0; !o->only_cols && i < k->n; i++)
			kept[i] = row[k->lid[i]];
	}
	lft_free(o->lft);
	o->lft = bc->lft;
	bc->lft = NULL;
	o->only_cols = false;
	o->routes += bc->routes;	/* this pass counted those it routed */
	return 0;
}

/*
 * The base's tables wherever they are intact (rt_base_broken()): its LFT
 * (take_copy()), then the SLs of every group the base knows, except the
 * columns of the LIDs to merge, which this pass routed: row by row (a
 * column would touch a row per group), kept in m->keep, the base's row
 * copied, put back.  When this pass's SL table has a column per LID, into
 * a new one.  The rows on two threads.  0, -ENOMEM, or -EINVAL when the
 * LFT was made for another pass.
 */
int rt_copy_base(struct mg *m)
{
	const struct route_out *bo = m->bo;
	struct route_out *o = m->out;
	struct copy x = { .m = m, .same = true, .nl = m->t->max_lid + 1, .sl = o->sl,
			  .cols = o->only_cols && o->sl };
	uint32_t *gone = NULL;
	int rc;

	rt_merge_keep_free(m->keep);
	m->keep->rows = true;
	if (x.cols && !(x.sl = malloc((size_t)m->ngroups * x.nl + 1)))
		return -ENOMEM;
	rc = take_copy(m);
	if (!rc && !(gone = malloc(((size_t)m->t->max_lid + 1) * sizeof(*gone))))
		rc = -ENOMEM;
	if (rc) {
		if (x.cols)
			free(x.sl);
		return rc;
	}
	for (uint32_t lid = 1; lid <= m->t->max_lid; lid++)	/* LIDs absent */
		if (m->t->lid_port[lid] == TOPO_NONE)
			gone[x.ngone++] = lid;
	for (unsigned v = 0; bo && v < 256; v++) {
		x.xl[v] = rt_sl_xlate(m, (uint8_t)v);
		x.same &= x.xl[v] == v;
	}
	x.gone = gone;
	x.snl = bo && x.nl < bo->nlids ? x.nl : bo ? bo->nlids : 0;
	ffr_split2(m->threads, m->ngroups, 64, copy_rows, &x);
	free(gone);
	if (x.cols) {
		free(o->sl);
		o->sl = x.sl;
		o->nlids = x.nl;
	}
	return 0;
}

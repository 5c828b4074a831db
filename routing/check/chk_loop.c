// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_loop.c - which LIDs make the credit loops of a routing, so that an
 * engine can route those otherwise (route.c: an incremental merge the
 * verification refused is merged again strictly for them alone).
 *
 * Why.  A loop needs every one of its edges; one edge gone breaks it.
 * So per loop (one shortest cycle per cyclic component of the CDG, as
 * chk_cdg.c reports them) the LIDs whose walks make each edge are found,
 * matched by channel and VL at both ends (chk_walk_lid() told the
 * edges to look for).  An edge that a LID the engine will not route
 * otherwise also makes (one marked in an earlier call, whose routes are
 * already the other ones, or one not among the candidates) stays; of the
 * others, the LIDs of the edge the fewest make are marked.  That edge is
 * taken out and the cycles searched again, until the CDG is acyclic or
 * no loop left has an edge that can go.
 *
 * Cost: one CDG (O(switches x LIDs)), then per step a cycle search and
 * the walks of every LID.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/chk_cdg.h"

/* A LID's state in chk_loop_lids(). */
enum { FREE, MARKED, FIXED };	/* may be marked, marked by this call, stays as it is */

/*
 * Per loop of @h, the edge to take out: none that a FIXED LID makes; of
 * the others, the one the fewest FREE LIDs make (the first on a tie).
 * Those LIDs become MARKED (@mark set), the edge leaves @cdg.  Returns
 * how many edges left, *@n += the LIDs marked.
 */
static uint32_t cut_loops(const struct topo *t, const struct loop_edges *h,
			  const uint64_t *made, uint8_t *st, uint8_t *mark,
			  struct edge_set *cdg, uint32_t *n)
{
	uint32_t cut = 0;

	for (uint32_t c = 0; c < h->ncyc; c++) {
		uint32_t best = UINT32_MAX, fewest = UINT32_MAX;

		for (uint32_t j = 0; j < h->n; j++) {
			uint32_t k = 0;
			bool stays = false;

			if (h->cyc[j] != c)
				continue;
			for (uint32_t lid = 1; !stays && lid <= t->max_lid; lid++) {
				if (!(made[lid] >> j & 1))
					continue;
				stays = st[lid] == FIXED;
				k += st[lid] == FREE;
			}
			if (!stays && k < fewest) {
				best = j;
				fewest = k;
			}
		}
		if (best == UINT32_MAX)
			continue;	/* this loop stays: the verification will say so */
		for (uint32_t lid = 1; lid <= t->max_lid; lid++)
			if ((made[lid] >> best & 1) && st[lid] == FREE) {
				st[lid] = MARKED;
				mark[lid] = 1;
				(*n)++;
			}
		cdg->bits[h->bit[best] / 64] &= ~(1ull << (h->bit[best] % 64));
		cut++;
	}
	return cut;
}

/*
 * One step of chk_loop_lids() on the CDG @g: its loops' edges, which of
 * them each LID makes (@made), one edge per loop cut (cut_loops()).  The
 * edges cut, or -ENOMEM.
 */
static int loop_step(const struct topo *t, const struct lft *l, const struct chk_opts *co,
		     struct chk_cdg *g, uint64_t *made, uint8_t *st, uint8_t *mark, uint32_t *n)
{
	struct loop_edges h;
	struct inject in = { 0 };
	uint32_t ncyc = 0, lids[LFT_COLS];
	int rc;

	memset(&h, 0, sizeof(h));
	rc = chk_es_like(&g->ca, &h.set, t);
	if (!rc)
		rc = chk_cdg_cycles(t, &g->ca, CHK_F_CREDIT_LOOP, &ncyc, NULL, NULL, &h);
	in.ng = g->ng;
	in.hit = &h;
	if (!rc && h.ncyc)
		rc = chk_inject_init(t, co, g->sls, &in);
	for (uint32_t lid0 = 1; !rc && h.ncyc && lid0 <= t->max_lid; lid0 += LFT_COLS) {
		uint32_t nb = t->max_lid + 1 - lid0 < LFT_COLS ? t->max_lid + 1 - lid0 : LFT_COLS;

		for (uint32_t k = 0; k < nb; k++)
			lids[k] = lid0 + k;
		lft_cols_get(l, lids, nb, in.blk);
		for (uint32_t k = 0; k < nb; k++) {
			made[lids[k]] = in.hmask = 0;
			if (t->lid_port[lids[k]] == TOPO_NONE)
				continue;
			chk_walk_lid(t, in.blk + k, NULL, l, co, &in, &in.ca, lids[k], NULL);
			made[lids[k]] = in.hmask;
		}
	}
	if (!rc)
		rc = (int)cut_loops(t, &h, made, st, mark, &g->ca, n);
	chk_inject_free(&in);
	chk_es_free(&h.set);
	return rc;
}

/* Steps while one cuts an edge: the loops left are those with no edge that can go. */
int chk_loop_lids(const struct topo *t, const struct lft *l, const struct chk_opts *o,
		  const uint8_t *cand, uint8_t *mark)
{
	struct chk_opts co;
	uint64_t *made = malloc(((size_t)t->max_lid + 1) * sizeof(*made));
	uint8_t *st = malloc((size_t)t->max_lid + 1);
	struct chk_cdg *g = NULL;
	uint32_t n = 0;
	int rc = made && st ? 0 : -ENOMEM;

	if (o)
		co = *o;
	else
		chk_opts_init(&co);
	co.no_switch_cdg = true;
	for (uint32_t lid = 0; !rc && lid <= t->max_lid; lid++)
		st[lid] = mark[lid] || (cand && !cand[lid]) ? FIXED : FREE;
	if (!rc)
		rc = chk_cdg_collect(t, l, NULL, &co, &g);
	while (!rc && (rc = loop_step(t, l, &co, g, made, st, mark, &n)) > 0)
		rc = 0;
	chk_cdg_free(g);
	free(made);
	free(st);
	return rc < 0 ? rc : (int)n;
}

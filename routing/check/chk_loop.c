// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_loop.c - which LIDs make the credit loops of a routing, so that an
 * engine can route those otherwise (route.c: an incremental merge the
 * verification refused is merged again strictly for them alone).
 *
 * Why.  A loop needs every one of its edges; one edge gone breaks it.
 * So per loop (one shortest cycle per cyclic component of the CDG, as
 * chk_cdg.c reports them) the LIDs whose walks make each edge are found,
 * matched by channel and VL at both ends (chk_walk_edges() told the
 * edges to look for), and those of the edge the fewest LIDs make are
 * marked.  That edge is taken out and the cycles searched again, until
 * the CDG is acyclic or a loop has no edge with a LID not marked yet.
 *
 * Cost: one CDG (O(switches x LIDs)), then per step a cycle search and
 * the walks of the LIDs not marked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check/chk_cdg.h"

/*
 * Which LIDs to route otherwise to break the credit loops: the edges of
 * each cycle the report would give (one shortest cycle per cyclic
 * component of the CA-injected CDG), every LID's walks told which of them
 * they make (a bit each), then per loop the LIDs of its edge that the
 * fewest LIDs not marked yet make: one edge gone breaks the loop.
 */
static uint32_t mark_loops(const struct topo *t, const struct loop_edges *h,
			   const uint64_t *made, uint8_t *mark, struct edge_set *cdg)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < h->ncyc; c++) {
		uint32_t best = UINT32_MAX, fewest = UINT32_MAX;

		for (uint32_t j = 0; j < h->n; j++) {
			uint32_t k = 0;

			for (uint32_t lid = 1; h->cyc[j] == c && lid <= t->max_lid; lid++)
				k += (made[lid] >> j & 1) && !mark[lid];
			if (k && k < fewest) {
				best = j;
				fewest = k;
			}
		}
		for (uint32_t lid = 1; best != UINT32_MAX && lid <= t->max_lid; lid++)
			if ((made[lid] >> best & 1) && !mark[lid]) {
				mark[lid] = 1;
				n++;
			}
		if (best != UINT32_MAX)	/* taken as gone: the next loops are other ones */
			cdg->bits[h->bit[best] / 64] &= ~(1ull << (h->bit[best] % 64));
	}
	return n;
}

/*
 * One step of chk_loop_lids() on the CDG @g: its loops' edges, the LIDs
 * not marked that make them (made), those of one edge per loop marked and
 * that edge taken out of @g.  How many, or -ENOMEM; *@loops: whether
 * there was a loop.
 */
static int loop_step(const struct topo *t, const struct lft *l, const struct chk_opts *co,
		     struct chk_cdg *g, uint64_t *made, uint8_t *mark, bool *loops)
{
	unsigned nk = co->sl && co->tcs && co->tcs->n ? co->tcs->n : 1;
	struct loop_edges h;
	struct inject in = { 0 };
	uint32_t ncyc = 0, lids[LFT_COLS];
	int rc;

	memset(&h, 0, sizeof(h));
	rc = chk_es_like(&g->ca, &h.set, t);
	if (!rc)
		rc = chk_cdg_cycles(t, &g->ca, CHK_F_CREDIT_LOOP, &ncyc, NULL, NULL, &h);
	*loops = ncyc > 0;
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
			if (t->lid_port[lids[k]] == TOPO_NONE || mark[lids[k]])
				continue;
			in.stamp++;
			for (uint32_t x = 0; x < in.ca.ngs; x++)
				for (unsigned c = 0; c < nk; c++)
					chk_walk_edges(t, in.blk + k, NULL, l->have, co, &in, &in.ca,
						   in.ca.gs[x], c, lids[k], NULL);
			made[lids[k]] = in.hmask;
		}
	}
	if (!rc)
		rc = (int)mark_loops(t, &h, made, mark, &g->ca);
	chk_inject_free(&in);
	chk_es_free(&h.set);
	return rc;
}

/*
 * Steps until no loop is left in the CDG, each marked LID's chosen edge
 * taken to go once the LID is routed otherwise (the caller's verification
 * judges that), or until a loop has no edge with a LID to mark.
 */
int chk_loop_lids(const struct topo *t, const struct lft *l, const struct chk_opts *o,
		  uint8_t *mark)
{
	struct chk_opts co = *o;
	uint64_t *made = malloc(((size_t)t->max_lid + 1) * sizeof(*made));
	struct chk_cdg *g = NULL;
	bool loops = true;
	int rc = made ? 0 : -ENOMEM, n = 0;

	co.no_switch_cdg = true;
	if (!rc)
		rc = chk_cdg_collect(t, l, NULL, &co, &g);
	while (!rc && loops && (rc = loop_step(t, l, &co, g, made, mark, &loops)) > 0) {
		n += rc;
		rc = 0;
	}
	chk_cdg_free(g);
	free(made);
	return rc < 0 ? rc : n;
}

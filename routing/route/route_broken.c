// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_broken.c - the fabric against the base of an incremental pass
 * (route_incr.c): whether it is the base minus something, which LIDs'
 * base routes the fault broke, whether its ports map SLs to VLs as the
 * base's did.
 *
 * Why apart: these read the two fabrics and the base's tables whole, once
 * a pass, before anything is routed; the merge reads the broken LIDs'
 * columns.  Cost: O(nodes + ports) to compare the fabrics (both lists in
 * GUID order: one merge), O(switches x LIDs) table lookups for the broken
 * LIDs, eight entries at a time on a switch whose ports are all cabled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_int.h"

/* Both lists of nodes are in GUID order (topo_find_guid()): one merge. */
uint32_t *rt_base_nodes(const struct topo *t, const struct topo *b)
{
	uint32_t *map = malloc(((size_t)t->nnodes + 1) * sizeof(*map));

	for (uint32_t n = 0, bn = 0; map && n < t->nnodes; n++) {
		while (bn < b->nnodes && b->node_guid[bn] < t->node_guid[n])
			bn++;
		map[n] = bn < b->nnodes && b->node_guid[bn] == t->node_guid[n] &&
			 b->node_type[bn] == t->node_type[n] ? bn : TOPO_NONE;
	}
	return map;
}

/* topo_port_in() of port @p of @t in @b, with node_map()'s @map. */
static uint32_t port_in(const struct topo *t, uint32_t p, const struct topo *b,
			const uint32_t *map)
{
	uint32_t bn = map[t->port_node[p]];
	unsigned num = topo_port_num(t, p);

	return bn == TOPO_NONE || num > b->node_nports[bn] ? TOPO_NONE : b->port_off[bn] + num;
}

/*
 * Is @t the base minus something?  1: a strict subset, 0: the same
 * fabric, -1: not a subset (@why says what the base lacks, or that
 * memory ran out: routed from scratch then).
 */
int rt_base_subset(const struct topo *t, const struct route_base *base, const uint32_t *map,
		   char *why, size_t len)
{
	const struct topo *b = base->t;
	bool less = t->nnodes < b->nnodes || t->nlinks < b->nlinks;

	for (uint32_t p = 0; map && p < t->nports; p++) {
		uint32_t bp = port_in(t, p, b, map), r = t->port_remote[p];
		const char *what = NULL;

		if (r == TOPO_NONE && !topo_is_switch(t, t->port_node[p]))
			continue;	/* a CA port cut off: no route to it, whatever its LID */
		if (bp == TOPO_NONE)
			what = "a node or port";
		else if (t->port_lid[p] != b->port_lid[bp] || t->port_lmc[p] != b->port_lmc[bp])
			what = "this LID";
		else if (r != TOPO_NONE && b->port_remote[bp] != port_in(t, r, b, map))
			what = "a link";
		if (what) {
			snprintf(why, len, "the base has not %s: %s (0x%016llx) port %u", what,
				 t->node_desc[t->port_node[p]],
				 (unsigned long long)t->node_guid[t->port_node[p]], topo_port_num(t, p));
			return -1;
		}
	}
	if (!map) {
		snprintf(why, len, "out of memory comparing the fabric with the base");
		return -1;
	}
	return less ? 1 : 0;
}

/* rt_base_broken()'s rows of one half: need[half][lid] |= a dead entry. */
struct broken {
	const struct topo *t;
	const struct route_base *base;
	const uint32_t *bnode;		/* rt_base_nodes() */
	uint8_t *need[2];
	uint32_t nl;
	bool foreign[2];	/* per half: a switch not the base's */
};

/*
 * need[lid] |= !@ok[@row[lid]] for LIDs [1, @nl).  When every port of the
 * switch is cabled (@all) the dead entries are among the bytes above its
 * last port (LFT_NONE too, which @ok keeps): eight at a time, a byte at a
 * time only in the words that have one.
 */
static void dead_entries(const uint8_t *row, uint32_t nl, const uint8_t *ok, unsigned nports,
			 bool all, uint8_t *need)
{
	const uint64_t above = 0x0101010101010101ull * (127 - nports), high = 0x8080808080808080ull;
	uint32_t lid = 1;

	for (; all && nports < 127 && lid + 8 <= nl; lid += 8) {
		uint64_t x;

		memcpy(&x, row + lid, 8);
		if (!(((x + above) | x) & high))
			continue;	/* no byte above nports */
		for (unsigned j = 0; j < 8; j++)
			need[lid + j] |= !ok[row[lid + j]];
	}
	for (; lid < nl; lid++)
		need[lid] |= !ok[row[lid]];
}

static void broken_rows(void *ctx, uint32_t lo, uint32_t hi, unsigned half)
{
	struct broken *b = ctx;
	const struct topo *t = b->t;
	const struct lft *bl = b->base->lft;
	uint8_t ok[256], *need = b->need[half];

	for (uint32_t s = lo; s < hi; s++) {
		uint32_t node = t->sw_node[s], bn = b->bnode[node];
		const uint8_t *row;

		bool all = true;

		if (bn == TOPO_NONE) {	/* not the base's: every LID (rt_base_subset() says) */
			b->foreign[half] = true;
			return;
		}
		row = bl->port + (size_t)b->base->t->node_sw[bn] * bl->nlids;
		/* ports past the switch's: dead; LFT_NONE: no route in the base,
		 * whose verification found none there (a switch cut off from the
		 * LID, an isolated one): none in a subset of it either */
		memset(ok, 0, sizeof(ok));
		ok[0] = ok[LFT_NONE] = 1;
		for (unsigned e = 1; e <= t->node_nports[node]; e++) {
			ok[e] = t->port_remote[t->port_off[node] + e] != TOPO_NONE;
			all &= ok[e];
		}
		dead_entries(row, b->nl, ok, t->node_nports[node], all, need);
	}
}

/*
 * The LIDs whose base route meets a fault: @need[lid] = 1 where some
 * switch's base entry for it leaves by a port no longer cabled.  @t is
 * the base or less (rt_base_subset() >= 0), so a port
 * still cabled leads where it led.  Row by row, one table lookup per
 * entry, the rows in two halves on two threads (@threads: route_opts').
 * Their count; UINT32_MAX when out of memory.
 */
uint32_t rt_base_broken(const struct topo *t, const struct route_base *base,
			const uint32_t *bnode, uint8_t *need, unsigned threads)
{
	const struct lft *bl = base->lft;
	struct broken b = { .t = t, .base = base, .bnode = bnode,
			    .need = { need, calloc((size_t)t->max_lid + 1, 1) },
			    .nl = t->max_lid + 1 < bl->nlids ? t->max_lid + 1 : bl->nlids };
	uint32_t n = 0;

	if (!b.need[1])
		return UINT32_MAX;
	memset(need, 0, (size_t)t->max_lid + 1);
	for (uint32_t lid = b.nl; lid <= t->max_lid; lid++)
		need[lid] = 1;	/* past the base's tables */
	ffr_split2(threads, t->nswitches, 64, broken_rows, &b);
	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		need[lid] = (need[lid] | b.need[1][lid] | b.foreign[0] | b.foreign[1]) &
			    (t->lid_port[lid] != TOPO_NONE);
		n += need[lid];
	}
	free(b.need[1]);
	return n;
}

/*
 * Whether every cabled port of @t maps each SL to the VL its port in the
 * base does (@out: this pass's tables), as the judgement of the changed LIDs
 * alone requires (chk_trace.c: the kept routes' VLs are the traced ones').
 */
bool rt_base_same_vls(const struct topo *t, const struct route_base *base,
		      const uint32_t *bnode, const struct route_out *out)
{
	const struct route_out *bo = base->out;

	if (!bo->sl2vl || !out->sl2vl)
		return !bo->sl2vl && !out->sl2vl;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t b = bnode[n];

		if (b == TOPO_NONE || base->t->node_nports[b] < t->node_nports[n])
			return false;
		for (uint32_t p = t->port_off[n]; p < t->port_off[n + 1]; p++)
			if (t->port_remote[p] != TOPO_NONE &&	/* an uncabled port carries nothing */
			    memcmp(out->sl2vl + (size_t)p * 16,
				   bo->sl2vl + (size_t)(base->t->port_off[b] + p - t->port_off[n]) * 16,
				   16))
				return false;
	}
	return true;
}

/*
 * rt_base_copy_start()'s work: every row the base's (its switch by GUID),
 * LFT_NONE past the base's tables and for a LID gone; the entries of the
 * LIDs to merge kept aside (bcols) and the others' counted, as the merge
 * needs them.
 */
static void *base_copy_run(void *arg)
{
	struct rt_base_copy *x = arg;
	const struct topo *t = x->t, *b = x->base->t;
	const struct lft *bl = x->base->lft;
	const struct route_out *bo = x->base->out;
	struct lft *l;
	uint32_t nl, ngone = 0, *gone;

	/* here, not in rt_base_copy_start(): a fresh table's pages fault in on
	 * this thread; every entry is written below */
	if (!(l = x->lft = lft_new_raw(t->nswitches, t->max_lid)) ||
	    !(gone = malloc(((size_t)l->nlids + 1) * sizeof(*gone)))) {	/* LIDs absent */
		x->rc = -ENOMEM;
		return NULL;
	}
	nl = l->nlids < bl->nlids ? l->nlids : bl->nlids;
	for (uint32_t lid = 1; lid < nl; lid++)
		if (t->lid_port[lid] == TOPO_NONE)
			gone[ngone++] = lid;
	for (uint32_t s = 0; s < t->nswitches; s++) {
		uint8_t *row = l->port + (size_t)s * l->nlids;
		uint32_t bn = x->bnode[t->sw_node[s]];

		if (bn == TOPO_NONE) {	/* not the base's (rt_base_subset() refuses it) */
			x->rc = -EINVAL;
			break;
		}
		memcpy(row, bl->port + (size_t)b->node_sw[bn] * bl->nlids, nl);
		memset(row + nl, LFT_NONE, l->nlids - nl);
		for (uint32_t i = 0; i < x->n; i++)
			x->bcols[(size_t)s * x->n + i] = row[x->lid[i]];
		for (uint32_t i = 0; i < ngone; i++)
			row[gone[i]] = LFT_NONE;	/* a LID gone: no entry, as routed */
		x->routes += nl > 1 ? nl - 1 - ffr_count_byte(row + 1, nl - 1, LFT_NONE) : 0;
		for (uint32_t i = 0; i < x->n && x->lid[i] < nl; i++)
			x->routes -= row[x->lid[i]] != LFT_NONE;
		l->have[s] = 1;
	}
	for (uint32_t g = 0; x->bscols && g < bo->ngroups; g++) {
		const uint8_t *row = bo->sl + (size_t)g * bo->nlids;

		for (uint32_t i = 0; i < x->n; i++)
			x->bscols[(size_t)g * x->n + i] = x->lid[i] < bo->nlids ? row[x->lid[i]] :
							  LFT_NONE;
	}
	free(gone);
	return NULL;
}

int rt_base_copy_start(struct rt_base_copy *x, const struct topo *t, const struct route_base *base,
		       const uint32_t *bnode, const uint8_t *only, unsigned threads)
{
	memset(x, 0, sizeof(*x));
	x->t = t, x->base = base, x->bnode = bnode;
	x->lid = malloc(((size_t)t->max_lid + 1) * sizeof(*x->lid));
	for (uint32_t lid = 1; x->lid && lid <= t->max_lid; lid++)
		if (only[lid] && t->lid_port[lid] != TOPO_NONE)	/* rt_base_merge()'s order */
			x->lid[x->n++] = lid;
	x->bcols = malloc((size_t)t->nswitches * x->n + 1);
	if (base->out && base->out->sl && !(x->bscols = malloc((size_t)base->out->ngroups * x->n + 1)))
		return x->rc = -ENOMEM;
	if (!x->lid || !x->bcols)
		return x->rc = -ENOMEM;
	x->running = ffr_threads(threads) >= 2 && !pthread_create(&x->th, NULL, base_copy_run, x);
	if (x->running)
		return 0;	/* its rc when rt_base_copy_wait() joins it */
	base_copy_run(x);
	return x->rc;
}

int rt_base_copy_wait(struct rt_base_copy *x)
{
	if (x->running)
		pthread_join(x->th, NULL);
	x->running = false;
	return x->rc;
}

void rt_base_copy_free(struct rt_base_copy *x)
{
	rt_base_copy_wait(x);
	lft_free(x->lft);
	free(x->bcols);
	free(x->bscols);
	free(x->lid);
	memset(x, 0, sizeof(*x));
}

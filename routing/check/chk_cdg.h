/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chk_cdg.h - what the CDG of chk_cdg.c shares with the search for the
 * LIDs that make its loops (chk_loop.c): the edge bitmaps, the walks of
 * the routes from their injection points, the cycle search.  Internal.
 */
#ifndef FFROUTE_CHK_CDG_H
#define FFROUTE_CHK_CDG_H

#include <stdatomic.h>

#include <ffroute/check.h>

#define NOROW UINT64_MAX

/*
 * The CDG's edges as bits.  A channel p into switch n can only be
 * followed by a channel out of n, so the edges of vertex (p, VL) are a
 * bitmap over (n's port number, VL): row[p] + (vi * (ports(n) + 1) + qn)
 * * nvl + vj, with the VLs renumbered densely (vi, vj) over those the
 * tables can give.  Bits cost channels x ports x VLs^2, no hashing, and
 * the vertices and their edges come out in ascending order.
 */
struct edge_set {
	uint64_t *bits;
	uint64_t *row;		/* [nports]: first bit of channel p, NOROW if not a channel */
	uint8_t vix[16];	/* VL -> dense index */
	uint8_t vl[16];		/* dense index -> VL */
	unsigned nvl;
	size_t nwords;
};

/* The bit of edge (p, vp) -> (port number qn of the switch p leads to, vq). */
static inline uint64_t set_bit(const struct edge_set *es, const struct topo *t, uint32_t p,
			       unsigned vp, uint32_t qn, unsigned vq)
{
	return es->row[p] + ((uint64_t)es->vix[vp] *
			     (t->node_nports[t->port_node[t->port_remote[p]]] + 1u) + qn) *
			    es->nvl + es->vix[vq];
}

static inline void set_add(struct edge_set *es, const struct topo *t, uint32_t p, unsigned vp,
			   uint32_t qn, unsigned vq)
{
	uint64_t b = set_bit(es, t, p, vp, qn, vq);

	es->bits[b / 64] |= 1ull << (b % 64);
}

static inline bool set_has(const struct edge_set *es, uint64_t b)
{
	return es->bits[b / 64] >> (b % 64) & 1;
}

#define LOOP_EDGES 64	/* the loops' edges chk_loop_lids() tells apart: a bit each */

/* The edges of the loops chk_loop_lids() looks for. */
struct loop_edges {
	struct edge_set set;
	uint64_t bit[LOOP_EDGES];	/* set's bit of each edge */
	uint32_t cyc[LOOP_EDGES];	/* the loop it is on */
	uint32_t n, ncyc;
};

/*
 * Where each source group's packets enter the fabric: per group a list of
 * (switch ordinal, port the packet enters it by), CA-injected (the first
 * CA port of the group on that switch) and switch-originated (port 0).
 */
struct inj_list {
	uint32_t *off;		/* [ng + 1] */
	uint32_t *sw, *port;	/* [off[ng]] */
	uint32_t *gs, ngs;	/* the groups with an injection point, ascending: a
				 * switch's own group has no CA-injected one */
};

struct inject {
	uint32_t ng;
	struct inj_list ca, self;
	uint32_t *mark;		/* [nports * nsl]: stamp of the LID walked from (channel, SL) */
	uint32_t stamp;
	uint8_t six[16];	/* SL -> dense index over the SLs the SL table uses */
	unsigned nsl;
	uint8_t *blk;		/* [nsw * LFT_COLS]: LFT columns of the current LIDs */
	/* chk_cdg_since(): edges checked against a trace's order, not collected */
	const struct chk_trace *tr;
	const uint32_t *pmap;	/* [nports]: the traced fabric's port */
	bool bad;		/* an edge against the order, or a vertex it lacks */
	const struct loop_edges *hit;	/* chk_loop_lids(): the edges to look for ... */
	uint64_t hmask;		/* ... and those the LID's walks made */
};

/* The edges of a routing's CDG: CA-injected routes, and with switch-injected ones. */
struct chk_cdg {
	struct edge_set ca, all;
	bool sw;		/* all is collected */
	struct inject in;	/* until the edges are collected */
	uint16_t sls;		/* the SLs the SL table uses */
	uint32_t ng;		/* source groups (g->in's, which fill frees) */
	atomic_uint next;	/* the next LID block of the CA-injected walks */
};

/* An empty set laid out as @a (same VLs, same rows); 0 or -ENOMEM. */
int chk_es_like(const struct edge_set *a, struct edge_set *b, const struct topo *t);
void chk_es_free(struct edge_set *es);
/* @in's injection points and memo for the SLs @sls; 0 or -ENOMEM. */
int chk_inject_init(const struct topo *t, const struct chk_opts *o, uint16_t sls,
		    struct inject *in);
void chk_inject_free(struct inject *in);
/*
 * The edges of every source group's and traffic class's routes toward
 * @lid (its column of a column block @col, as lft_cols_get() gives it
 * from @l) from the injection points of @li: into @es, or as @in says (a
 * trace's order, a loop's edges).  One stamp of @in's memo per call.
 */
void chk_walk_lid(const struct topo *t, const uint8_t *col, const uint8_t *ok,
		  const struct lft *l, const struct chk_opts *o, struct inject *in,
		  const struct inj_list *li, uint32_t lid, struct edge_set *es);
/*
 * The cycles of the CDG made of @es, reported as @kind into @r; with @tr
 * its order when acyclic; with @hit, each cycle's edges there instead of
 * into @r.  *@ncyc: the cyclic components.  0 or -ENOMEM.
 */
int chk_cdg_cycles(const struct topo *t, const struct edge_set *es, enum chk_finding_kind kind,
		   uint32_t *ncyc, struct chk_report *r, struct chk_trace *tr,
		   struct loop_edges *hit);

#endif

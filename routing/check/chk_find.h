/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chk_find.h - the state of chk_findings() (chk_find.c) that the text of
 * its examples (chk_find_text.c) reads: internal to the checker.
 */
#ifndef FFROUTE_CHK_FIND_H
#define FFROUTE_CHK_FIND_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/check.h>

/* Outcome of one route, for the current destination. */
enum fst {
	FS_NEW = 0,	/* not resolved yet */
	FS_BUSY,	/* on the current chain */
	FS_OK,
	FS_NO_ROUTE,	/* empty entry */
	FS_NO_TABLE,	/* enters a switch without a table (at = that switch) */
	FS_LOOP,	/* at = a switch of the cycle */
	FS_DEAD,	/* uncabled port or beyond the radix */
	FS_PORT0,	/* port 0 of a switch that does not own the LID */
	FS_WRONG,	/* delivered to a CA/router port that does not own the LID */
	FS_STEP,	/* internal: go on at the next switch */
};

/* Memoised route properties (from this switch on, this one included). */
#define FB_IZ	1	/* uses an inter-zone link */
#define FB_NZ	2	/* passes a switch outside the destination's zone */
#define FB_OR	4	/* passes a leaf of another rail than the destination's */
#define FB_RAIL	8	/* (subtree pass) carries routes from a leaf of the destination's rail */

#define DIST_INF UINT32_MAX
#define NAME_LEN 72

struct find {
	const struct topo *t;
	const struct lft *l;
	const struct cls *c;
	const struct chk_opts *o;
	struct chk_report *r;
	uint32_t nsw, nlids;
	bool zones, rails;
	/* current destination */
	uint32_t lid, dnode, dport, attach;
	int16_t dzone, drail;
	bool dsw, dca, dstor;
	/* per switch ordinal, for the current destination */
	uint8_t *st, *bits, *zch;
	int16_t *fz;
	uint16_t *hops;
	uint32_t *at, *nxt, *outp, *sub, *chain, *order, *bucket;
	/* per switch ordinal, for the current attach switch */
	uint32_t *dist, *queue;
	bool lazy;		/* judged against a trace, or no non_minimal asked for
				 * (chk_opts.no_minimal): dist[] only when a route fails */
	bool dist_ok;		/* dist[] is the current attach switch's */
	bool partial;		/* judged against a trace: the changed LIDs alone, their
				 * channel counts not kept (chk_report.routes_counted) */
	/* whole run */
	uint32_t *pcomp;	/* [nrails x nsw] component in rail r's plane or TOPO_NONE */
	uint8_t *ok;		/* bit lid * nsw + s: valid route (a LID's bits
				 * together: written a LID at a time) */
	uint64_t *notab;	/* [nsw] routes entering this table-less switch */
	int16_t *chr[2];	/* [nports] first two rails routed over the channel */
	uint32_t *chlid[2];	/* a LID of each */
	uint64_t nvalid, nroutes, nonmin, nonmin_other, *nonmin_zone;
	bool use_vl;		/* SL and SL2VL tables given (and metrics wanted) */
	uint8_t *blk;		/* [nsw * LFT_COLS]: the LFT columns of the current LIDs */
	uint32_t *peer;		/* topo_sw_peers(): one lookup a hop */
	uint32_t blk_k;		/* the current LID's column in blk */
	uint64_t vl[16];	/* (route, switch-switch channel) pairs per VL */
	double max_stretch;
	/* per destination tallies */
	uint32_t tn[CHK_F_COUNT], tfirst[CHK_F_COUNT];
};

/* Switch ordinal across port index @p, or TOPO_NONE. */
static inline uint32_t sw_peer(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
		return TOPO_NONE;
	return t->node_sw[t->port_node[r]];
}

/* chk_find_text.c: the findings of the current destination, with an example each */
void chk_find_emit_dest(struct find *f);
/* ... the switches without a table */
void chk_find_emit_no_table(struct find *f);
/* ... the links carrying two rails' routes (f->chr, f->chlid): 0 or -ENOMEM */
int chk_find_emit_rail_mix(struct find *f);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_incr.h - what the merge of an incremental pass with its base
 * (route_incr.c) shares with the turn rows of the merged tables
 * (route_mrows.c): the merge's state.
 */
#ifndef FFROUTE_ROUTE_INCR_H
#define FFROUTE_ROUTE_INCR_H

#include <pthread.h>
#include <stdatomic.h>

#include "route/route_int.h"

/* One merge: both fabrics, both tables, scratch. */
struct mg {
	const struct topo *t;
	const struct cls *c;
	const struct route_base *base;
	const struct route_out *bo;	/* the base's SLs and rows; NULL: unknown */
	struct route_out *out;		/* this pass's tables, merged in place */
	uint32_t ns;
	uint32_t *nx;			/* topo_sw_peers() */
	uint32_t *bsw;			/* [switch]: its ordinal in the base */
	uint32_t *bgroup;		/* [SL group]: the base's group of its nodes */
	uint8_t zone_of[RT_SL_ROOTED];	/* [base zone]: this pass's number, 0xff none */
	uint32_t *use;			/* [switch][port][class]: routes on the port
					 * (use_row()) */
	uint8_t *used;			/* [switch]: its row counted */
	uint8_t *tcl;			/* [lid]: its traffic class, 0xff none */
	uint8_t *col, *own, *try, *dead, *st;	/* [switch]: the base's, this pass's and
						 * the merged column, dead, scratch (2 x) */
	int32_t *len;			/* [2 x switch]: hops (longer()) ... */
	uint32_t *rate;			/* ... [2 x switch]: their slowest link ... */
	uint32_t *stk;			/* ... [switch + 2]: a walk */
	uint32_t ngroups;		/* this pass's SL groups; 0: no SL table */
	bool strict;			/* every path one routing's or plain (take_own()) */
	const uint8_t *slid;		/* [lid]: ... for these LIDs; NULL: none */
	bool lstrict;			/* ... for the current LID */
	bool again;			/* not the first merge: the keep is full */
	uint8_t *broke;			/* rt_merge_how.broke */
	unsigned threads;		/* route_opts.threads (route_mrows.c) */
	uint8_t *bblk, *oblk;		/* rt_base_merge(): the base's and this pass's
					 * columns of LFT_COLS LIDs (lft_cols_get()) ... */
	uint8_t *sblk, *bsblk;		/* ... and SLs: this pass's [group], the base's
					 * [base group] ... */
	uint32_t bk;			/* ... the current LID's */
	uint8_t rooted[LFT_COLS];	/* [LID of the block]: on the rooted layer here or
					 * in the base (block_rooted()) */
	uint8_t *bcols;			/* rt_copy_base(): the base's entries of the LIDs
					 * to merge, [switch][keep->lid index]; NULL:
					 * read the base's rows (base_cols()) ... */
	uint8_t *bscols;		/* ... and SLs, [base group][index]; NULL: read
					 * them off its table */
	const uint8_t *bc;		/* route_mrows.c: the LID's column in a block
					 * (lft_cols_get(), stride LFT_COLS) */
	const uint8_t *only;		/* [lid]: the LIDs to merge, the others the base's
					 * (rt_base_broken()); NULL: every LID */
	const uint32_t *bnode;		/* [node]: the base's (rt_base_nodes()) */
	struct rt_base_copy *copy;	/* with only: the base's table, made meanwhile */
	const uint8_t *force;		/* [lid]: this pass's column though the base's is
					 * intact (the jobs that changed); NULL: none */
	struct rt_merge_keep *keep;	/* this pass's columns the merge replaces */
	struct rt_rows *rows;		/* the turn rows' walks, told as LIDs are
					 * merged (rt_rows_done()); NULL: none */
	unsigned bplanes;		/* rt_base_planes(); 0: not yet */
};

/*
 * The switch ordinal entry @e of switch @s leads to, or TOPO_NONE (port 0,
 * a CA, no entry: a LID this pass could not route, its CA cut off): one
 * lookup in m->nx.
 */
static inline uint32_t rt_next_sw(const struct mg *m, uint32_t s, uint8_t e)
{
	uint32_t v = m->nx[(size_t)s * 256 + e];

	return v & TOPO_PEER_PORT ? TOPO_NONE : v;
}

/* One thread's walks of merged routes (route_mrows.c). */
struct walks {
	struct mg m;		/* the merge's, with this thread's scratch (st, bc) */
	const uint32_t *lids;
	uint32_t n, stride;
	unsigned np;		/* planes of stride / np bytes (rt_rows.np) */
	atomic_uint *next;	/* the next block of LIDs to walk, shared */
	uint8_t *bits, *blk;	/* [port][in / 8]; two blocks of columns */
	struct rt_rows *rw;	/* whose merge may still be writing the columns */
};

/* The turn rows of the merged tables, found along their routes (route_mrows.c). */
struct rt_rows {
	struct walks w[2];
	uint32_t *lids, nl, nkept;	/* the LIDs to walk: lids[0..nkept) kept, then
					 * those the merge changes */
	uint32_t stride;
	unsigned np;			/* planes of turn pairs (merge_planes()) */
	size_t nbits;
	bool kept;			/* the base's rows stand for the kept LIDs */
	bool ahead;			/* a thread walks meanwhile (th) */
	pthread_t th;
	atomic_uint next;
	/* the merge's progress: every LID up to done is merged, or the walks
	 * are to stop; under mu, signalled on cv */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t done;
	bool stop, sync;		/* sync: mu and cv initialised */
};
/*
 * rt_rows_begin - before the merge: the LIDs to walk, and their walks
 * started on a second thread: the kept ones at once (their columns are the
 * base's: the merge does not change them), then the merged ones as the
 * merge finishes them (rt_rows_done()).  0 or -ENOMEM (then rt_rows_free()).
 */
int rt_rows_begin(struct mg *m, struct rt_rows *rw);
/* rt_rows_done - the merge has written the columns of every LID up to @lid */
void rt_rows_done(struct rt_rows *rw, uint32_t lid);
/* rt_rows_end - after it: the rest walked, the rows into m->out->vlx; 0 or -ENOMEM */
int rt_rows_end(struct mg *m, struct rt_rows *rw);
/* rt_rows_free - stop and release (after either; twice is fine) */
void rt_rows_free(struct rt_rows *rw);

/*
 * rt_base_planes - 1 + the highest plane of turn pairs (rt_turn_planes())
 * whose SL the base's rows lift (its fallback routes'; route_mrows.c), at
 * least 1; kept in m->bplanes
 */
unsigned rt_base_planes(struct mg *m);
/*
 * rt_merge_valleys - before the merge, this pass's fallback routes over
 * the fallback SLs, around the kept LIDs' (route_mvalley.c); 0 or -ENOMEM
 */
int rt_merge_valleys(struct mg *m);
/* rt_sl_xlate - the base's SL @v in this pass's zone numbers (route_incr.c) */
uint8_t rt_sl_xlate(const struct mg *m, uint8_t v);
/*
 * rt_copy_base - the base's tables wherever they are intact, this pass's
 * columns of the LIDs to merge into m->keep (route_icopy.c); 0, -ENOMEM or
 * -EINVAL
 */
int rt_copy_base(struct mg *m);

#endif

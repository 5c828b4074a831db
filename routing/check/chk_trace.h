/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chk_trace.h - how chk_findings() makes traces (chk_trace.c).  Internal.
 */
#ifndef FFROUTE_CHK_TRACE_H
#define FFROUTE_CHK_TRACE_H

#include <stdatomic.h>

#include <ffroute/check.h>

/* What two threads of chk_cdg_since_from() share. */
struct chk_since_share {
	atomic_uint next;	/* the next block of LFT_COLS LIDs, an index into lids */
	atomic_int sls;		/* the SLs the judged LIDs' SL columns use; -1 unknown */
};
/*
 * chk_cdg_since() on the blocks of LFT_COLS of @lids that @sh's cursor
 * hands out, shared by two threads: 1 if any edge either walks is against
 * the order (NULL @sh: every block).
 */
int chk_cdg_since_from(const struct topo *t, const struct lft *l, const uint8_t *ok,
		       const struct chk_opts *o, const uint32_t *lids, uint32_t n,
		       const struct chk_trace *tr, const uint32_t *pmap,
		       struct chk_since_share *sh);

/* A trace of @t's classification @c; ord and rail not set yet (NULL on ENOMEM). */
struct chk_trace *chk_trace_new(const struct topo *t, const struct cls *c);
/*
 * @old moved onto @t (@pmap: chk_trace_fits()), with @c's classification and
 * the channels' rails @rail ([nports], NULL without rails); NULL on ENOMEM.
 */
struct chk_trace *chk_trace_moved(const struct chk_trace *old, const struct topo *t,
				  const struct cls *c, const uint32_t *pmap, const int16_t *rail);
/*
 * Credit loops of a routing judged against chk_opts.since on @lids[0..n)
 * (@ok: their valid routes; @pmap: chk_trace_fits()): 0 when every edge of
 * theirs follows the trace's order (no cycle); else the whole graph is
 * searched, cycles reported in @r, its order into @full when acyclic, and
 * 1 returned; -ENOMEM.  @since: chk_cdg_since() of these, if already
 * known (0 or 1), else -1.
 */
int chk_trace_credit_loops(const struct topo *t, const struct lft *l, const uint8_t *ok,
			   const struct chk_opts *o, const uint32_t *lids, uint32_t n,
			   const uint32_t *pmap, struct chk_report *r, struct chk_trace *full,
			   int since);
/*
 * What a run keeps in *@o->trace when @r has no hard finding: @tr (its
 * graph's order; freed when not kept), or, judged against @o->since whose
 * order held (@moved), that trace moved onto @t; with the channels' rails
 * @rail ([nports], NULL without rails).
 */
void chk_trace_keep(const struct chk_opts *o, const struct chk_report *r, const struct topo *t,
		    const struct cls *c, struct chk_trace *tr, bool moved, const uint32_t *pmap,
		    const int16_t *rail);

#endif

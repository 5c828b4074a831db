/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * route_int.h - state shared by the engine's files (route/).
 */
#ifndef FFROUTE_ROUTE_INT_H
#define FFROUTE_ROUTE_INT_H

#include <pthread.h>

#include <ffroute/route.h>

#define RT_INF 0xFFFFu
#define RT_XZONES 16u	/* zones for inter-zone entries (route_exit.c) at most */
#define RT_MAXD 254		/* longest route considered, in switch hops */
#define RT_MAXDESIG 32		/* designated path length (levels) */
#define RT_SL_TRANSIT 14	/* zone-less to zone-less: VL 1 in every zone */
#define RT_CA_LEAF 1		/* has_ca: a CA of the zone's source group */
#define RT_CA_ABOVE 2		/* has_ca: a CA in its switch's group (SHARP node) */
#define RT_SL_ROOTED 13	/* one zone, rooted up*down* layer: VL 1 everywhere */
#define RT_SL_VALLEY 12	/* fallback routes (RM_ANY): turn rows of their own */
#define RT_VALLEY_MAX 3	/* fallback SLs 12, 11, 10 at most (route_valley.c) */
#define RT_NOPORT (TOPO_NONE - 1)	/* upg_port: none, or parallel links */

/* How a switch forwards toward the current destination. */
enum rt_mode {
	RM_NONE = 0,
	RM_DEST,	/* the destination's switch */
	RM_DOWN,	/* down toward it (or toward an exit of its zone) */
	RM_EXIT,	/* over an inter-zone link */
	RM_UP,		/* up, then down */
	RM_TRANSIT,	/* zone-less switch between zones */
	RM_TURN,	/* switch-LID route: down, then up only */
	RM_UPTURN,	/* switch-LID route: up to a TURN switch */
	RM_ANY,		/* fallback: any shortest hop (verification judges it) */
};

/* One destination LID. */
struct rt_dest {
	uint32_t lid;
	uint32_t attach;	/* switch ordinal it hangs on (the switch itself for a switch LID) */
	uint8_t port;		/* out-port at the attach switch (0 for a switch LID) */
	uint8_t tc;		/* enum cls_tclass */
	uint32_t rank;		/* rank within its class, in position order */
	int16_t rail;		/* the destination CA's rail, -1 none */
	bool ghost;		/* a remembered place (route_slots.c): routed for the
				 * balance counters only, no LFT entry (lid 0) */
};

/* Bucket queue: vectors of switch ordinals per distance. */
struct rt_bq {
	uint32_t *v;		/* [cap] entries, chained per distance */
	uint32_t *next;
	uint32_t head[RT_MAXD + 2];
	uint32_t n, cap;
};

struct rt {
	const struct topo *t;
	const struct cls *c;
	const struct route_opts *o;
	struct route_out *out;
	uint32_t nsw;
	/* per destination, per switch ordinal */
	uint8_t *mode;
	uint8_t *u0;		/* up-only path to a switch destination */
	uint16_t *dist;
	uint16_t *pref;		/* distance up to the designated path (memo) */
	uint32_t *pref_stamp, stamp;
	uint32_t *near_stamp;	/* [nsw] == stamp: a switch peer has a preference ... */
	uint16_t *near_pref;	/* [nsw]: ... the least of theirs (choose()) */
	uint32_t desig[RT_MAXDESIG];	/* designated path, switch ordinals */
	uint32_t dk_rank[256];		/* per level: the rank digit source at that level */
	uint32_t dk_m[256];		/* per level: the up-group size there */
	uint32_t dk_dig[256];		/* per level: dk_rank / dk_m (the link digit) */
	uint32_t mod_rank[256], mod_m[256], mod_v[256];	/* per level: the last rank mod m
								 * (route_dest.c rank_mod()) */
	unsigned nlev;			/* highest switch level + 1: the dk_* entries in use */
	unsigned ndesig;
	uint8_t open_lv;		/* the designated path ended at a hole on this level (else 255) */
	struct rt_bq bq;
	/* balance: per class, per port */
	uint32_t *load[CLS_TC_COUNT];	/* routes sent over each port group (by its first port) */
	uint32_t *pload[CLS_TC_COUNT];	/* routes sent over each port */
	uint64_t *eroutes[CLS_TC_COUNT];	/* endpoints' routes sent over each port: each
					 * route weighs the endpoints behind it (hw) */
	uint32_t *dsg[CLS_TC_COUNT];	/* destinations designated over each port */
	uint32_t *holes[CLS_TC_COUNT];	/* per up-group member (upg): destinations sent to its
					 * substitutes so far (route_dest.c up_index) */
	/* per switch: the up-level switches of its "pod" (route_pos.c) */
	uint32_t *upg_off, *upg;	/* CSR [nsw + 1] / switch ordinals by (column, ordinal) */
	uint32_t *upg_ord, *upg_opos;	/* parallel to upg: the members by ordinal, their position */
	uint32_t *upg_alt;		/* parallel to upg: position used instead */
	uint32_t *upg_reach;		/* parallel to upg: the reached members' positions, first
					 * upg_nr[s] of each group */
	uint32_t *upg_rix;		/* parallel to upg: a reached member's index in them */
	uint32_t *upg_nr;		/* [nsw]: members reached */
	uint32_t *upg_port;		/* parallel to upg: the one port to it, else RT_NOPORT */
	uint8_t *gidx, *gsize;		/* [nports]: index in its port group, group size */
	uint8_t *par;			/* [nsw]: some port group of the switch has parallel links */
	uint8_t *pnum;			/* [nports]: port number (topo_port_num, one load) */
	/* links of several rates only (cls.rates_mixed), else NULL */
	uint32_t *gcap;			/* [nports]: the port group's links' rates, summed */
	uint32_t *wide;			/* [nsw]: best bottleneck to the destination under
					 * the labels (candidates()); scratch, per thread */
	uint32_t *nep;			/* [nsw]: endpoint CAs cabled to each switch */
	uint32_t *hw;			/* [nsw]: endpoints whose route passes the switch;
					 * scratch */
	uint64_t *eload;		/* [class][subtree][nsw + 1]: endpoint routes toward
					 * each subtree's destinations of a class sent into
					 * each switch, so far; scratch (per class, like load:
					 * the two threads route disjoint classes) */
	uint64_t *el;			/* eload's row for the current destination */
	uint64_t any_routes;	/* switches routed by the fallback */
	uint8_t *sl_own;		/* [ngroups]: an SL of a route's own (turn, fallback,
					 * rooted) written in the group's row; per thread,
					 * ORed after (route_all.c); rt_sl_tables() fills
					 * the other rows whole */
	uint64_t valley_left;	/* fallback routes no SL was free for (route_valley.c) */
	uint32_t nlabeled;	/* switches with a label for the current attach switch */
	uint32_t lab_attach;	/* attach switch the labels are for (TOPO_NONE: none) */
	bool lab_swlid;		/* ... and whether they are for its switch LID */
	bool zoneless;		/* some switch has no zone (bridges) */
	bool rails;		/* rail isolation: avoid other rails' leaves */
	uint32_t *swp_off, *swp;	/* CSR [nsw + 1]: each switch's ports to switches */
	uint32_t *dsw_off, *dsw;	/* CSR [nsw * CLS_DIR_COUNT + 1]: the same by direction
					 * (c->dir), in port order (rt_dir_ports()) */
	uint32_t *cand_off, *cand;	/* CSR [nsw + 1]: next-hop ports under the labels */
	uint32_t *cand_w;		/* [like cand]: the switch across each */
	/* per switch, the candidates to each up-group member, made on first
	 * use under the current labels (target_hits()) */
	uint32_t cand_epoch;		/* candidates()'s count: the labels' version */
	uint32_t *cmap_epoch;		/* [nsw]: the version a switch's map is of */
	uint32_t *cmap_first;		/* [like upg]: the first candidate (index in the
					 * switch's) to that member, or TOPO_NONE */
	uint32_t *cmap_next;		/* [like cand]: the next to the same member */
	uint32_t *peer;			/* [nports]: switch ordinal across the port, or TOPO_NONE */
	uint32_t *order, norder;	/* labelled switches by decreasing distance */
	uint32_t *sub;			/* [nsw]: switches whose route passes (incl. itself) */
	/* inter-zone entries (route_exit.c), shared by both threads: per
	 * (zone entered, zone of the switch outside + 1; 0 zone-less) the
	 * ports entering, their switches, and per such port every switch's
	 * hops to its switch outside the zone; NULL with one zone */
	uint32_t *xin_off, *xin, *xin_sw;	/* CSR [nzones * (nzones + 1) + 1] / ports / switches */
	uint16_t *xdist;		/* [entering ports][nsw] */
	/* the current destination's entries (per copy of struct rt) */
	bool xon;			/* some */
	int16_t xzone;			/* the zone they enter */
	uint32_t xsel[RT_XZONES + 1];	/* per zone outside + 1: an index into xin, or UINT32_MAX */
	uint8_t *turn_bits;		/* [nports * turn_stride]: (out port, in port number)
					 * pairs where a route turns (up->up or down->down),
					 * in planes (rt_turn_planes()): the turn routes',
					 * then one per fallback SL; lazily allocated */
	uint32_t turn_stride;		/* bytes per out port: planes x (most switch
					 * ports + 1) / 8, rounded up */
	bool turned;			/* the current destination has turn routes */
	/* LFT columns of the last destinations, [nsw][LFT_COLS]: written switch
	 * by switch per destination, copied row by row (one row per switch is
	 * far apart from the next: writing a column straight into the LFT costs
	 * a TLB miss per switch) */
	uint8_t *col;
	uint32_t col_lid[LFT_COLS], ncol;	/* their LIDs, or columns (lid_col) */
	uint32_t *lid_col;		/* a pass of a few LIDs: [lid] its column of
					 * out->lft and out->sl (route_out.only_cols);
					 * NULL: the LID */
	/* rooted layer (route_dest.c): one zone, a LID whose CAs need a turn */
	const uint8_t *dir;		/* [nports]: directions the labels use (c->dir or rdir) */
	uint8_t *rdir;			/* [nports]: up = toward the root; lazily built */
	uint8_t *has_ca;		/* [nsw]: CAs cabled to it: RT_CA_LEAF | RT_CA_ABOVE */
	bool weighted;			/* some class weight is set (choose()) */
	bool rooted_ok;			/* one zone, no bridges, 2 VLs allowed */
	bool rooted;			/* the current labels are the rooted layer's */
	bool by_pos;			/* the destination hangs in a low-speed subtree:
					 * every source spreads it by position (choose()) */
	bool strict;			/* the layer is in use: CAs above the leaves need it too */
	bool any_above;			/* a fallback route carried a CA above the leaves */
	uint32_t dbt_zones, dbt_left;	/* zones whose digits were searched; with overload left */
	uint8_t *dbt_done;		/* [nzones] the digits were searched there (or NULL) */
	uint32_t dbt_jobs_out;		/* jobs left out of a zone's search (slot budget) */
	uint32_t dbt_unread;		/* a job change: compute digits not read off the base */
	uint8_t *dig_moved;		/* [max_lid + 1], a job change: the digit differs from
					 * the base's (route_dbt.c); else NULL */
	uint32_t xjob_jobs, xjob_left;	/* jobs across zones refined (route_xjob.c); with overload left */
	uint32_t xjob_inzone;		/* jobs inside one zone with overload left */
	uint32_t xjob_zswaps;		/* leaf swaps inside zones kept (route_jshift.c's bound) */
	uint32_t shift_zones, shift_moved;	/* degraded zones refined for shifts; entries moved */
};

static inline uint32_t rt_node(const struct rt *r, uint32_t s)
{
	return r->t->sw_node[s];
}

/* Switch ordinal across port @p, or TOPO_NONE. */
static inline uint32_t rt_peer(const struct rt *r, uint32_t p)
{
	uint32_t q = r->t->port_remote[p];

	if (q == TOPO_NONE)
		return TOPO_NONE;
	q = r->t->port_node[q];
	return topo_is_switch(r->t, q) ? r->t->node_sw[q] : TOPO_NONE;
}

/* Rate of port @p's link, Gb/s x 10; unknown counts as the full rate. */
static inline uint32_t rt_rate(const struct rt *r, uint32_t p)
{
	return r->c->rate[p] ? r->c->rate[p] : r->c->full_rate;
}

static inline int16_t rt_zone(const struct rt *r, uint32_t s)
{
	return r->c->zone[rt_node(r, s)];
}

/*
 * The ports of switch @s to switches that may go in direction @dir (of
 * enum cls_dir; CLS_DIR_COUNT: any), in port order: the classification's
 * list of that direction while the labels use its directions, else all
 * of them (the rooted layer's own): the caller still tests r->dir.
 */
static inline const uint32_t *rt_dir_ports(const struct rt *r, uint32_t s, unsigned dir,
					   uint32_t *n)
{
	size_t k = (size_t)s * CLS_DIR_COUNT + dir;

	if (dir >= CLS_DIR_COUNT || r->dir != r->c->dir) {
		*n = r->swp_off[s + 1] - r->swp_off[s];
		return r->swp + r->swp_off[s];
	}
	*n = r->dsw_off[k + 1] - r->dsw_off[k];
	return r->dsw + r->dsw_off[k];
}

/*
 * Whether a CA cabled to switch node @n joins the switch's source group
 * (route_sl.c: above the leaves, e.g. a SHARP node) rather than its zone's.
 */
static inline bool rt_ca_joins_switch(const struct rt *r, uint32_t n)
{
	return r->c->level[n] >= 2;
}

/**
 * rt_sl_zone_row - @row[0..max_lid]: the SL from source group @g (a zone's,
 * or the zone-less CAs') to each LID, as rt_sl_tables() gives it with two
 * VLs where no route turns (route_sl.c)
 */
void rt_sl_zone_row(const struct topo *t, const struct cls *c, uint32_t g, uint8_t *row);
/**
 * rt_base_nodes - the node of @b of each node of @t (the same GUID and
 * type) or TOPO_NONE, in O(nodes); NULL when out of memory.  Computed once
 * a pass: the functions below and the merge read it.
 */
uint32_t *rt_base_nodes(const struct topo *t, const struct topo *b);
/**
 * rt_base_subset - 1: @t is @base's fabric minus something, 0: the same,
 * -1: not (@why); @bnode: rt_base_nodes() (NULL: out of memory, -1)
 */
int rt_base_subset(const struct topo *t, const struct route_base *base, const uint32_t *bnode,
		   char *why, size_t len);
/**
 * rt_base_broken - @need[lid] = 1 where @base's route to it meets a fault on
 * @t; how many (UINT32_MAX: out of memory).  On two threads if @threads allow.
 */
uint32_t rt_base_broken(const struct topo *t, const struct route_base *base,
			const uint32_t *bnode, uint8_t *need, unsigned threads);
/** rt_base_same_vls - whether @out's SL2VL rows are the base's on every port of @t */
bool rt_base_same_vls(const struct topo *t, const struct route_base *base,
		      const uint32_t *bnode, const struct route_out *out);
/* LIDs by what rt_base_merge did */
struct rt_merge_count {
	uint32_t intact;	/* the base's route, whole */
	uint32_t patched;	/* the base's, entries into lost links replaced by this pass's */
	uint32_t rerouted;	/* this pass's */
};
/* This pass's columns (LFT and SLs) of the LIDs a lenient merge replaced. */
struct rt_merge_keep {
	uint32_t n, cap;
	uint32_t *lid;
	uint8_t *col;	/* per LID: an entry per switch, then an SL per group;
			 * with rows, per switch then per group: an entry per LID */
	bool rows;	/* lid[] ascending, col row by row (rt_copy_base()) */
};
/*
 * The base's table on this fabric, made on a thread of its own while a
 * pass routes the LIDs its faults broke (route_broken.c): the merge then
 * only writes those LIDs' columns into it.
 */
struct rt_base_copy {
	const struct topo *t;
	const struct route_base *base;
	const uint32_t *bnode;		/* rt_base_nodes() */
	struct lft *lft;		/* the base's entries by this fabric's switch
					 * ordinals, LFT_NONE for a LID gone or past the
					 * base's tables; the merge takes it */
	uint32_t *lid, n;		/* the LIDs to merge: @only's with a port, in order */
	uint8_t *bcols;			/* [switch][i]: the base's entry of lid[i] */
	uint8_t *bscols;		/* [base SL group][i]: the base's SL to lid[i]
					 * (LFT_NONE past its table); NULL: it has none */
	uint64_t routes;		/* the entries (not LFT_NONE) of the other LIDs */
	pthread_t th;
	bool running;			/* th joins */
	int rc;				/* 0, -ENOMEM, or -EINVAL: a switch not the base's */
};
/** rt_base_copy_start - make @x for the LIDs @only marks, on a thread if @threads allow; 0 or -ENOMEM */
int rt_base_copy_start(struct rt_base_copy *x, const struct topo *t, const struct route_base *base,
		       const uint32_t *bnode, const uint8_t *only, unsigned threads);
/** rt_base_copy_wait - wait for it; its rc */
int rt_base_copy_wait(struct rt_base_copy *x);
/** rt_base_copy_free - wait, release what the merge did not take */
void rt_base_copy_free(struct rt_base_copy *x);
/* How rt_base_merge() merges. */
struct rt_merge_how {
	bool strict;
	const uint8_t *strict_lid;	/* [lid]: those strictly, the others leniently;
					 * NULL: none */
	uint8_t *broke;			/* out, [lid]: 1 where the base's route met the
					 * fault (merged, not kept or forced: what
					 * strictness can change); NULL: not wanted */
	const uint8_t *only, *force;	/* [lid]; NULL: none */
	const uint32_t *bnode;		/* rt_base_nodes() */
	struct rt_base_copy *copy;	/* with only: the base's table (its lft and
					 * bcols taken), out->lft a column per LID */
	unsigned threads;		/* route_opts.threads */
};
/**
 * rt_base_merge - the base's entries (and SLs) on @t where they still lead
 * somewhere live.  Lenient (!@h->strict): the columns it replaces go to
 * @keep; strict: @keep's columns are put back first, and every switch's
 * path is then one routing's whole or plain up*down* (route_incr.c); with
 * @h->strict_lid, strict for those LIDs (the keep put back first too).
 * @h->only (NULL: all): merge those LIDs, take the base's tables for the
 * others (this pass routed only @only); -EAGAIN if the base's SLs are
 * unknown.  @h->force (NULL: none): those LIDs take this pass's columns whole
 */
int rt_base_merge(const struct topo *t, const struct cls *c, const struct route_base *base,
		  struct route_out *out, const struct rt_merge_how *h,
		  struct rt_merge_keep *keep, struct rt_merge_count *n);
void rt_merge_keep_free(struct rt_merge_keep *k);
/** rt_slot_port - the switch port of a remembered place if it is free now, else TOPO_NONE */
uint32_t rt_slot_port(const struct topo *t, const struct route_slot *s);
/* What rt_verify() lets through: the rules a fallback cannot keep. */
enum { RT_VF_ZONES_SOFT = 1, RT_VF_RAILS_SOFT = 2 };
struct chk_trace;
struct chk_opts;
/** rt_verify_opts - the checker's options that judge @out's tables (SLs, VLs; findings only) */
void rt_verify_opts(const struct route_out *out, unsigned threads, struct chk_opts *co);
/**
 * rt_verify_since - judge @out's tables (route_verify.c): 0, or -EINVAL
 * with out->err on a hard finding @soft does not let through; against
 * @since (a trace), only the @only LIDs when it fits; @found (optional,
 * [max_lid + 1]): the LIDs with a hard finding on their own routes
 */
int rt_verify_since(const struct topo *t, const struct cls *c, unsigned threads,
		    struct route_out *out, unsigned soft, const struct chk_trace *since,
		    const uint8_t *only, uint8_t *found);
/** rt_verify - rt_verify_since() on every LID */
int rt_verify(const struct topo *t, const struct cls *c, unsigned threads,
	      struct route_out *out, unsigned soft);
/** rt_up_groups - build upg_off, upg, upg_ord, upg_opos, upg_alt, upg_port (route_pos.c) */
int rt_up_groups(struct rt *r);
/** rt_up_index - index into upg of the up-switch D-mod-K gives @rank at @s, or TOPO_NONE */
static inline uint32_t rt_up_index(const struct rt *r, uint32_t s, uint32_t rank)
{
	uint32_t b = r->upg_off[s], m = r->upg_off[s + 1] - b;

	return m ? b + r->upg_alt[b + rank % m] : TOPO_NONE;
}
/** rt_up_target - the up-switch D-mod-K gives @rank at @s (holes: the substitute) */
static inline uint32_t rt_up_target(const struct rt *r, uint32_t s, uint32_t rank)
{
	uint32_t i = rt_up_index(r, s, rank);

	return i == TOPO_NONE ? TOPO_NONE : r->upg[i];
}
/** rt_same_up_group - whether @u's up-group is @g's (@m members), one link each to those it
 * reaches, and no holes unless @holes_ok */
bool rt_same_up_group(const struct rt *r, uint32_t u, uint32_t g, uint32_t m, bool holes_ok);
/** rt_up_pos - position of switch @w in @s's up-group, or TOPO_NONE */
uint32_t rt_up_pos(const struct rt *r, uint32_t s, uint32_t w);
/* The labels toward @dst's switch (route_label.c); 0 or -ENOMEM. */
int rt_label(struct rt *r, const struct rt_dest *dst);
/** rt_route_dest - label every switch and set its LFT entries for @d (route_dest.c) */
int rt_route_dest(struct rt *r, const struct rt_dest *d);
/**
 * route_single_order - every LID up*down* in one root's order, on one VL
 * (route_single.c): zones without their VL layers.  Fills out->lft,
 * routes, nvls = 1.  Return: 0 or -ENOMEM.
 */
int route_single_order(const struct topo *t, const struct cls *c, struct route_out *out);
/** rt_rooted_dirs - build rdir, the root's up*down* order (route_root.c) */
int rt_rooted_dirs(struct rt *r);
/** rt_rooted_needed - whether the current labels leave a CA's switch to the fallback */
bool rt_rooted_needed(struct rt *r);
/** rt_scratch_alloc / rt_scratch_free - one router's per-destination scratch (route_all.c) */
/* route_exit.c: the inter-zone entry of each compute destination (see there) */
int rt_exits(struct rt *r);
void rt_exits_free(struct rt *r);
void rt_exit_designate(struct rt *r, const struct rt_dest *dst);

int rt_scratch_alloc(struct rt *r);
void rt_scratch_free(struct rt *r);
/** rt_route_all - route every destination, on two threads when it pays (route_all.c);
 * -ERESTART: route again on one thread; @bad_lid: the LID an error is about */
int rt_route_all(struct rt *r, const struct rt_dest *d, uint32_t nd, uint32_t *bad_lid);
/** rt_sl_alloc - the SL table, before routing (turn routes set their SL) */
int rt_sl_alloc(struct rt *r);
/** rt_col_flush - copy the buffered LFT columns into the LFT (route_dest.c) */
void rt_col_flush(struct rt *r);
/** rt_col - the current destination's LFT entry of switch @s */
static inline uint8_t *rt_col(const struct rt *r, uint32_t s)
{
	return &r->col[(size_t)s * LFT_COLS + r->ncol];
}
/** rt_sl - the SL from source group @g to @lid in this pass's table (a column per LID: lid_col) */
static inline uint8_t *rt_sl(const struct rt *r, uint32_t g, uint32_t lid)
{
	return &r->out->sl[(size_t)g * r->out->nlids + (r->lid_col ? r->lid_col[lid] : lid)];
}
/** rt_mark_turns - record the turn pairs of the current destination's turn routes (route_sl.c) */
int rt_mark_turns(struct rt *r);
/*
 * rt_turn_mark - mark the pair (in port @in, out port @p) of one switch in
 * @bits: bit @in - (the switch's first port) of @p's @stride bytes.
 */
static inline void rt_turn_mark(const struct topo *t, uint8_t *bits, uint32_t stride,
				uint32_t in, uint32_t p)
{
	uint32_t ie = in - t->port_off[t->port_node[p]];

	bits[(size_t)p * stride + ie / 8] |= (uint8_t)(1u << (ie % 8));
}
/* rt_turn_marked - whether rt_turn_mark() marked the pair (@in, @p) in @bits */
static inline bool rt_turn_marked(const struct topo *t, const uint8_t *bits, uint32_t stride,
				  uint32_t in, uint32_t p)
{
	uint32_t ie = in - t->port_off[t->port_node[p]];

	return bits[(size_t)p * stride + ie / 8] >> (ie % 8) & 1;
}
/*
 * rt_turn_pair - whether a route's hop in at port @in, out at port @p
 * needs a turn row: up after coming down (a turn, which sets *@turned),
 * down after going up (a peak), or, once the route has turned, down after
 * coming down (the descent after the peak stays on VL 1: a valley route
 * from a core whose group lost its spine of the destination's unit goes
 * down two levels after its peak, and back on VL 0 it closed credit loops
 * with the routes that turn below it).
 */
static inline bool rt_turn_pair(const uint8_t *dir, uint32_t in, uint32_t p, bool *turned)
{
	if (dir[p] == CLS_DIR_UP && dir[in] == CLS_DIR_UP)
		return *turned = true;
	return dir[p] == CLS_DIR_DOWN && (dir[in] == CLS_DIR_DOWN ||
					  (*turned && dir[in] == CLS_DIR_UP));
}
/*
 * The fallback routes' (RM_ANY) SLs of their own: 12 and down, above the
 * zone SLs (1 .. 2 nzones), at most RT_VALLEY_MAX; 0: they share the turn
 * SL (six zones or more).
 */
static inline unsigned rt_valley_nsl(const struct cls *c)
{
	unsigned z = 2 * c->nzones;

	if (z >= RT_SL_VALLEY)
		return 0;
	return RT_SL_VALLEY - z < RT_VALLEY_MAX ? RT_SL_VALLEY - z : RT_VALLEY_MAX;
}
/* The fallback routes' first SL: RT_SL_VALLEY, or ROUTE_SL_TURN without one of their own */
static inline uint8_t rt_valley_sl(const struct cls *c)
{
	return rt_valley_nsl(c) ? RT_SL_VALLEY : ROUTE_SL_TURN;
}
/* Whether @sl is a fallback routes' SL of their own (not a zone's, not the turn SL) */
static inline bool rt_is_valley(const struct cls *c, unsigned sl)
{
	return sl <= RT_SL_VALLEY && sl + rt_valley_nsl(c) > RT_SL_VALLEY;
}
/* Planes of turn pairs: the turn SL's (0), then one per fallback SL (1 + k: SL 12 - k) */
static inline unsigned rt_turn_planes(const struct cls *c)
{
	return 1 + rt_valley_nsl(c);
}
/* The plane of @sl's turn pairs (rt_turn_planes()) */
static inline unsigned rt_turn_plane(const struct cls *c, unsigned sl)
{
	return rt_is_valley(c, sl) ? 1 + RT_SL_VALLEY - sl : 0;
}
/* The SL whose rows plane @k lifts: 15, then 12, 11, ... */
static inline uint8_t rt_plane_sl(unsigned k)
{
	return k ? (uint8_t)(RT_SL_VALLEY + 1 - k) : ROUTE_SL_TURN;
}
/**
 * rt_turn_rows - @x: the turn rows of the pairs marked in @bits (route_sl.c),
 * @nplanes planes of @stride / @nplanes bytes a port (rt_turn_planes()):
 * the turn routes' (ROUTE_SL_TURN), then the fallback routes' per SL; on
 * two threads if @threads allow; 0 or -ENOMEM
 */
int rt_turn_rows(const struct topo *t, const uint8_t *dir, const uint8_t *bits, uint32_t stride,
		 unsigned nplanes, const uint8_t *sl2vl, struct chk_vlx *x, unsigned threads);
/* One fallback route's pairs: before its turn, down->down (they must stay on VL 0); lifted. */
struct rt_vroute {
	uint32_t pre[RT_MAXD][2], lift[RT_MAXD][2];	/* (in, out) port pairs */
	uint32_t npre, nlift;
	uint32_t in;	/* the port the walk entered its switch by; TOPO_NONE: at its start */
	bool turned;
	bool lifts;	/* a pair it lifts is on its SL's row (a peak, down after
			 * it), not only up->up turns (SL 0's rows: rt_turn_rows()) */
};
/*
 * Per fallback SL, the pairs its routes lift and those they descend
 * before their turn: a hash set of (kind, SL, in, out) keys (a few per
 * route; bit planes of every port would cost a page fault a mark where
 * few routes fall back).
 */
struct rt_vplanes {
	uint64_t *key;		/* open addressing, 0: empty */
	uint32_t cap, n;	/* cap: a power of two, 0 before the first mark */
	uint64_t nports;	/* topo.nports: the keys' radix */
	const uint8_t *dir;	/* cls.dir: only a pair out of a down-port can be both
				 * kinds (a descent's always is), so a lifted pair
				 * out of an up-port is neither marked nor looked up */
	unsigned nsl;		/* rt_valley_nsl() */
	uint64_t left;		/* routes no SL was free for */
	bool nomem;		/* a mark was lost: -ENOMEM */
};
static inline void rt_vroute_start(struct rt_vroute *v)
{
	v->npre = v->nlift = 0;
	v->in = TOPO_NONE;
	v->turned = v->lifts = false;
}
/** rt_vroute_hop - the route's hop out at port @p (route_valley.c): its pairs */
void rt_vroute_hop(struct rt_vroute *v, const struct topo *t, const uint8_t *dir, uint32_t p);
/** rt_vplanes_free - release @vp's set */
void rt_vplanes_free(struct rt_vplanes *vp);
/** rt_vplanes_mark - route @v's pairs on the planes of SL RT_SL_VALLEY - @k */
void rt_vplanes_mark(struct rt_vplanes *vp, const struct rt_vroute *v, unsigned k);
/**
 * rt_vplanes_place - @v onto the first fallback SL it fits (see
 * rt_valley_sls()), marked; with none free the last (vp->left counts
 * it): k, of SL RT_SL_VALLEY - k
 */
unsigned rt_vplanes_place(struct rt_vplanes *vp, const struct rt_vroute *v);
/**
 * rt_valley_sls - the fallback routes' SLs and turn pairs (route_valley.c):
 * each on the first fallback SL where no pair it descends before its turn
 * is one another route of that SL descends after its own, nor the
 * reverse; 0 or -ENOMEM
 */
int rt_valley_sls(struct rt *r);
/* A double binary tree (chk_dbt_tree): parent and depth of each rank. */
struct rt_tree {
	int32_t *parent;
	uint32_t *depth, height;
};

/* A job's collective over its ranks, as hfreduce-check schedules it (route_dbt.c). */
struct rt_job {
	uint32_t *zr;		/* route_dbt.c: the zone rank of each rank (UINT32_MAX: elsewhere) */
	uint32_t n;		/* ranks */
	uint8_t coll;		/* CHK_COLL_* */
	struct rt_tree tr[2];
	uint32_t chunks, nsteps;
};
/** rt_job_steps - @j's trees and steps (2H + 1 chunks), or the ring's one step */
int rt_job_steps(struct rt_job *j);
/** rt_job_xfers - the transfers of step @s of @j, in its ranks (at most 4n + 4) */
uint32_t rt_job_xfers(const struct rt_job *j, uint32_t s, uint32_t *src, uint32_t *dst);
/** rt_endpoint_rates - max-min fair rates of @k transfers over the HCA links alone (capacity 1) */
void rt_endpoint_rates(uint32_t n, uint32_t k, const uint32_t *src, const uint32_t *dst,
		       double *rate, double *cap, uint32_t *act);
void rt_job_free(struct rt_job *j);
/*
 * What a zone's shift permutations may cost HFReduce's trees or the jobs
 * (x rank mod m's 1, on average over the shifts): route_dbt.c's digits on
 * full leaves, route_xjob.c's leaf swaps (route_jshift.c).
 */
#define RT_SHIFT_COST 1.25

/**
 * rt_destinations - every routable LID in position order, ranked per
 * class, ghosts (remembered places, lid 0) included; *@nd of them, NULL
 * on ENOMEM (route_order.c)
 */
struct rt_dest *rt_destinations(const struct topo *t, const struct cls *c,
				const struct route_opts *o, uint32_t *nd);
/** rt_drop_ghosts - keep the present destinations (and, with @only[lid], the marked) in order; their count */
uint32_t rt_drop_ghosts(struct rt_dest *d, uint32_t nd, const uint8_t *only);
/** rt_forced_first - destinations whose load is forced first, the rest in position order; 0 or -ENOMEM */
int rt_forced_first(const struct rt *r, struct rt_dest *d, uint32_t nd);

/** rt_xjob_refine - the jobs' transfers, once routed (route_xjob.c); @d: the present LIDs */
int rt_xjob_refine(struct rt *r, const struct rt_dest *d, uint32_t nd);

/*
 * The shift permutations of each two-level zone's compute destinations:
 * per shift, the flows on each leaf's up-links and each spine's
 * down-links, by the LFTs (route_jshift.c).
 */
struct rt_zshift;
int rt_zshift_new(const struct rt *r, const struct rt_dest *d, uint32_t nd, struct rt_zshift **out);
void rt_zshift_free(struct rt_zshift *zs);
/** rt_zshift_pos - @lid's position in its zone's model, UINT32_MAX if not in one */
uint32_t rt_zshift_pos(const struct rt_zshift *zs, uint32_t lid);
/** rt_zshift_n - destinations of the zone leaf @sw is in (0: not in a model) */
uint32_t rt_zshift_n(const struct rt_zshift *zs, uint32_t sw);
/** rt_zshift_lid - the LID at position @pos (mod n) of leaf @sw's zone */
uint32_t rt_zshift_lid(const struct rt_zshift *zs, uint32_t sw, uint32_t pos);
/** rt_zshift_entry - leaf @s's entry toward @lid moves from port @from to @to: the flows moved */
void rt_zshift_entry(struct rt_zshift *zs, uint32_t s, uint32_t lid, uint8_t from, uint8_t to);
/** rt_zshift_sum - the zone's shifts' most loaded links, summed */
uint64_t rt_zshift_sum(const struct rt_zshift *zs, uint32_t s);
/** rt_zshift_ok - leaf @s's zone is modelled, its shifts within RT_SHIFT_COST, no link loaded 3 times */
bool rt_zshift_ok(const struct rt_zshift *zs, uint32_t s);
/** rt_dbt_digits - D-mod-K digits that keep HFReduce's tree contention-free (route_dbt.c) */
int rt_dbt_digits(struct rt *r, struct rt_dest *d, uint32_t nd);
/*
 * The shift searches' loads (route_shift.c, route_tshift.c): one flow more
 * (@d = 1) or less (-1) on a channel's load @v, with @h the permutation's
 * channels per load and @mx its most loaded channel.
 */
static inline void rt_hist_move(uint16_t *v, uint32_t *h, uint16_t *mx, int d)
{
	h[*v]--;
	*v = (uint16_t)(*v + d);
	h[*v]++;
	if (*v > *mx)
		*mx = *v;
	while (*mx && !h[*mx])
		--*mx;
}

/* A permutation's cost: its most loaded channel, then how many carry that; the bound if at it. */
static inline uint64_t rt_hist_cost(uint32_t mx, uint32_t lb, const uint32_t *h)
{
	uint32_t m = mx > 1 ? mx : 1;

	if (m <= lb)
		return (uint64_t)lb << 32;
	return ((uint64_t)m << 32) + h[m];
}

/** rt_shift_refine - degraded two-level zones: leaf entries re-chosen for shifts (route_shift.c) */
int rt_shift_refine(struct rt *r, const struct rt_dest *d, uint32_t nd);
/** rt_tree_shift - the zones not @done, of any depth: entries re-chosen for shifts (route_tshift.c) */
int rt_tree_shift(struct rt *r, const uint8_t *done);
/* VLs the deadlock layers may use: each class's share with traffic classes. */
static inline unsigned rt_layer_limit(const struct route_opts *o)
{
	return o->ntc ? o->vl_limit / o->ntc : o->vl_limit;
}

/** rt_tc_map - traffic classes over the layers' SLs and SL2VL (route_tc.c) */
int rt_tc_map(struct rt *r);
/** rt_sl_tables - SL per (source group, LID) and SL2VL per port (route_sl.c) */
int rt_sl_tables(struct rt *r);
/** rt_subtree_spread - subtree switches' hosts over their up-links by capacity (route_subtree.c) */
int rt_subtree_spread(struct rt *r);

#endif

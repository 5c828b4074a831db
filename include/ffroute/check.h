/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h - validation of a fabric's unicast routing (`ffroute check`).
 *
 * Inputs are a struct topo and a struct lft, however they were obtained
 * (dumps, live MADs, ffroute's own engine): the checker is independent of
 * how routes were made.  Three layers:
 *
 *   classification  roles (compute/storage/mgmt/SHARP), zones (frames),
 *                   rails and switch levels, inferred from NodeDescriptions
 *                   and the graph (cls_classify)
 *   path walker     follows the LFTs from a switch or CA port to a LID,
 *                   yielding the directed channels used (chk_walk)
 *   analyses        findings (hard errors) and metrics, collected in a
 *                   struct chk_report that the CLI prints as text, JSON or
 *                   HTML
 *
 * A directed channel (one direction of a link) is named by the index of
 * its sending port: channel p goes from port p to port_remote[p].  So
 * per-link counters are plain arrays of topo->nports.
 *
 * RETURN VALUE: int functions return 0 or -errno.
 */
#ifndef FFROUTE_CHECK_H
#define FFROUTE_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <stddef.h>

#include <ffroute/class.h>
#include <ffroute/diag.h>
#include <ffroute/lft.h>
#include <ffroute/topo.h>

/* ---- checker inputs ------------------------------------------------------ */

/* Jobs: which CAs run together, in rank order (jobs.c). */
enum { CHK_COLL_DBT = 0, CHK_COLL_RING };
#define CHK_JOBS_LENIENT 1u	/* unknown hosts and GUIDs are warnings, left out */
struct chk_jobs {
	uint32_t n;		/* jobs */
	uint32_t *off;		/* [n + 1]: job i's CAs are node[off[i] .. off[i + 1]) */
	uint32_t *node;		/* CA node ids, each job in rank order */
	uint8_t *coll;		/* [n] CHK_COLL_* */
	char (*name)[32];	/* [n] "" for the unnamed job */
};
/**
 * chk_jobs_read - a jobs file: "job NAME [dbt|ring]" lines, each followed
 * by its hosts (names or node/port GUIDs, one per line); hosts before any
 * job line form one unnamed job.  Return: 0, -EINVAL (@dl), -ENOMEM.
 */
int chk_jobs_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		  unsigned flags, struct chk_jobs *jobs, struct diag_list *dl);
void chk_jobs_free(struct chk_jobs *jobs);
/** chk_jobs_write - @j as a jobs file (node GUIDs, the unnamed job first); 0 or -EIO */
int chk_jobs_write(FILE *f, const struct chk_jobs *j, const struct topo *t);
/** chk_jobs_lids - every LID of every job's CAs on @t into @mark[max_lid + 1] */
void chk_jobs_lids(const struct chk_jobs *j, const struct topo *t, uint8_t *mark);
/**
 * chk_jobs_changed - the jobs that differ between @was (on @tw) and @now
 * (on @t), matched by name (CAs by node GUID, in order, and collective):
 * every LID of the CAs of the jobs of @now that started or changed into
 * @mark[max_lid + 1] (a job's CAs that left it, and those of a job that
 * ended, are not marked: their routes stay valid).  Return: how many jobs
 * changed (started, ended or changed), or -ENOMEM.
 */
int chk_jobs_changed(const struct chk_jobs *was, const struct topo *tw, const struct chk_jobs *now,
		     const struct topo *t, uint8_t *mark);
/**
 * chk_job_read - read a job file: host names or node/port GUIDs, one per
 * line, naming the CAs that run one job together (chk_jobs_read with one
 * job).  *nodes is malloc'd.
 */
int chk_job_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		 uint32_t **nodes, uint32_t *n, struct diag_list *dl);
/*
 * SL2VL rows of (input port, output port) pairs that differ from the
 * output port's base row (IBA SL2VL tables are per input x output port).
 */
struct chk_vlx_row {
	uint64_t key;		/* out port index << 32 | in port index */
	uint8_t vl[16];		/* VL of each SL */
};

struct chk_vlx {
	struct chk_vlx_row *v;	/* sorted by key once chk_vlx_sort() ran */
	uint32_t n, cap;
	bool sorted;
	uint32_t *off;		/* after chk_vlx_sort: rows of out port o are off[o]..off[o+1] */
	uint32_t nout;		/* highest out port index + 1 */
	uint64_t *inmask;	/* with off: per out port, bit (in % 64) of each row's in port */
};

/*
 * Traffic classes over an SL table (route_tc.c): a packet of class k
 * carries SL map[k][s] where the table says s.  An engine that keeps
 * classes on VLs of their own gives each class its own SLs; the checker
 * walks every route once per class.
 */
#define CHK_TC_MAX 8
#define CHK_TC_NAME 24
struct chk_sl_classes {
	unsigned n;			/* 0: none (packets carry the table's SLs) */
	uint8_t map[CHK_TC_MAX][16];
	char name[CHK_TC_MAX][CHK_TC_NAME];
};

/** chk_vlx_add - record the row of (@in, @out); call chk_vlx_sort() after the last */
int chk_vlx_add(struct chk_vlx *x, uint32_t in, uint32_t out, const uint8_t *vl16);
void chk_vlx_sort(struct chk_vlx *x);
/**
 * chk_vlx_extend - @n rows appended for the caller to fill (key, vl), as
 * chk_vlx_add() would; call chk_vlx_sort() after.  NULL on ENOMEM.
 */
struct chk_vlx_row *chk_vlx_extend(struct chk_vlx *x, uint32_t n);
/** chk_vlx_reserve - room for @n rows in all (no slack when the count is known) */
int chk_vlx_reserve(struct chk_vlx *x, uint32_t n);
/** chk_vlx_find - the row of (@in, @out), or NULL (use the base row) */
const uint8_t *chk_vlx_find(const struct chk_vlx *x, uint32_t in, uint32_t out);
void chk_vlx_free(struct chk_vlx *x);

/**
 * chk_sl2vl_read - read OpenSM's opensm-sl2vl.dump into a [nports * 16]
 * table (VL of each SL leaving each port; identity where not given): the
 * first row given for an output port is its base row; with @x, rows of
 * other input ports that differ go to @x (else a warning).
 */
int chk_sl2vl_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		   uint8_t **sl2vl, struct chk_vlx *x, struct diag_list *dl);

/* ---- endpoints and collectives (shared with contrib/hfreduce) ------------- */

/* A CA port that traffic patterns use: cabled to a switch, with a LID. */
struct chk_ep {
	uint32_t port;		/* CA port index */
	uint32_t leaf;		/* switch node it is cabled to */
	uint32_t lpos;		/* the leaf's position (cls pos; sort key) */
	uint32_t rport;		/* the leaf's port index (sort key) */
	uint16_t lid;
	int16_t zone;
};

/**
 * chk_endpoints - every port of the CAs of role @role that is an endpoint,
 * in the "compute order" of the traffic metrics: by zone (none last), then
 * by the position of the switch it is cabled to (cls pos: a pod's leaves
 * together), then by that switch's port number.  *out is malloc'd.
 */
int chk_endpoints(const struct topo *t, const struct cls *c, enum cls_role role,
		  struct chk_ep **out, uint32_t *n);

/*
 * Shortest-path cuts between leaves (chk_mincut.c): for leaves a, b (switch
 * ordinals, indexed 0..nl-1 by idx), toward[a * nl + b] of a's switch links
 * start a shortest switch path to b (0: b unreachable, or a == b; the
 * links of b that end one are toward[b * nl + a]), dist[a * nl + b] its
 * length in switch hops (UINT16_MAX: unreachable).  Nothing is built
 * beyond CHK_MINCUT_MAX_LEAVES leaves (nl stays 0).
 */
#define CHK_MINCUT_MAX_LEAVES 2048u
struct chk_mincut {
	uint32_t nl;
	uint32_t *idx;		/* [nswitches] leaf index, or TOPO_NONE */
	uint16_t *toward, *dist;	/* [nl * nl] */
	uint32_t *cnt;		/* [nl * nl] chk_mincut_bound()'s counts, zero between calls */
};
/** chk_mincut_build - the counts for @leaves[0..nl) (distinct switch ordinals); 0 or -ENOMEM */
int chk_mincut_build(const struct topo *t, const uint32_t *leaves, uint32_t nl, struct chk_mincut *m);
void chk_mincut_free(struct chk_mincut *m);
/**
 * chk_mincut_bound - the most flows one link carries under any routing on
 * shortest paths, by the cuts, for flows given as (leaf index << 32 | leaf
 * index) @pairs[0..n); 0 when nothing was built.  O(n): @m's counts
 * are scratch, so one chk_mincut serves one thread.
 */
uint32_t chk_mincut_bound(struct chk_mincut *m, const uint64_t *pairs, uint32_t n);

/** chk_node_ep - the first endpoint port of CA @node (a job's rank); false if none */
bool chk_node_ep(const struct topo *t, const struct cls *c, uint32_t node, struct chk_ep *e);

/**
 * chk_dbt_parent - parent of rank @r in tree @tree (0 or 1) of NCCL's double
 * binary tree over @n ranks (ncclGetDtree): tree 0 the in-order binary tree
 * rooted at 0, tree 1 its mirror (n even) or tree 0 shifted by one (n odd);
 * -1 for a root.
 */
int64_t chk_dbt_parent(int64_t n, int64_t r, int tree);

/**
 * chk_dbt_tree - tree @tree of the double binary tree over @n ranks:
 * @parent[r] (chk_dbt_parent, -1 for the root) and @depth[r] (hops to the
 * root), both of @n entries.  Return: the height, or -EINVAL if the
 * parents do not form a tree.
 */
int64_t chk_dbt_tree(uint32_t n, int tree, int32_t *parent, uint32_t *depth);

/* ---- path walker ---------------------------------------------------------- */

enum chk_walk_status {
	CHK_WALK_OK = 0,	/* reached the node owning the LID */
	CHK_WALK_NO_ROUTE,	/* an LFT entry is LFT_NONE or the LID is beyond the table */
	CHK_WALK_NO_TABLE,	/* a switch on the way has no LFT at all */
	CHK_WALK_LOOP,		/* visited a switch twice */
	CHK_WALK_DEAD_PORT,	/* out-port beyond the radix, not cabled, or port 0 elsewhere */
	CHK_WALK_NO_LID,	/* no port owns the LID */
	CHK_WALK_WRONG_NODE,	/* the path ends at a CA that does not own the LID */
};

#define CHK_MAX_HOPS 64

struct chk_path {
	enum chk_walk_status status;
	uint32_t nch;			/* channels used */
	uint32_t ch[CHK_MAX_HOPS];	/* sending port index of each hop, in order */
	uint32_t last_sw;		/* switch node where the walk stopped/delivered */
};

/**
 * chk_walk - follow the LFTs from port @src (a CA port: its link is the
 * first channel; or a switch port 0: start at that switch) to @dlid.
 * O(path length).
 */
void chk_walk(const struct topo *t, const struct lft *l, uint32_t src, uint32_t dlid,
	      struct chk_path *p);
const char *chk_walk_status_name(enum chk_walk_status s);

/* ---- report --------------------------------------------------------------- */

enum chk_finding_kind {
	CHK_F_NO_TABLE = 0,	/* a switch has no LFT */
	CHK_F_UNREACHABLE,	/* (switch, LID) with no route though a path exists */
	CHK_F_UNREACHABLE_PHYS,	/* destination physically unreachable (reported, not hard) */
	CHK_F_LOOP,		/* routing loop */
	CHK_F_BLACKHOLE,	/* route into a dead/uncabled port or the wrong node */
	CHK_F_SWITCH_LID,	/* route to a switch LID broken */
	CHK_F_NONMINIMAL,	/* longer than the shortest path (not hard) */
	CHK_F_CREDIT_LOOP,	/* channel-dependency cycle on a VL */
	CHK_F_RAIL_MIX,		/* a switch-switch link carries routes of two rails */
	CHK_F_RAIL_LEAVE,	/* a route leaves its rail's plane */
	CHK_F_XZONE_LINK,	/* a cross-zone route uses a link other than inter-zone links */
	CHK_F_STORAGE_XZONE,	/* a storage HCA reached through the other zone */
	CHK_F_CREDIT_LOOP_SW,	/* a credit loop that needs switch-originated routes */
	CHK_F_RATE_SLOWED,	/* an endpoint pair routed slower than a path as short runs */
	CHK_F_SLOW_TRANSIT,	/* a route through a low-speed subtree holding neither end */
	CHK_F_COUNT
};

#define CHK_EXAMPLES 5

struct chk_finding {
	enum chk_finding_kind kind;
	bool hard;			/* makes `ffroute check` exit 1 */
	uint64_t count;			/* occurrences */
	unsigned nex;			/* examples kept (<= CHK_EXAMPLES) */
	char ex[CHK_EXAMPLES][240];	/* human-readable examples */
};

struct chk_metric {
	char name[48];			/* stable snake_case, e.g. "shift_max" */
	double value;
};

struct chk_report {
	struct chk_finding f[CHK_F_COUNT];	/* indexed by kind; count 0 = none */
	struct chk_metric *m;
	uint32_t nm, capm;
	/* per directed channel (sending port index), sized topo->nports */
	uint32_t *ch_routes;			/* LFT routes (switch, dest LID) using it */
	uint32_t *ch_routes_tc[CLS_TC_COUNT];	/* the same per destination class */
	uint32_t *ch_dests_tc[CLS_TC_COUNT];	/* destination LIDs of a class it carries */
	uint32_t *ch_load;			/* flows of the all-to-all / heat-map load */
	bool routes_counted;			/* ch_routes* filled by chk_findings() */
	bool partial;				/* chk_findings judged chk_opts.since_only's
						 * LIDs alone (chk_trace.c) */
	uint64_t seed;				/* seed used by the sampled metrics */
};

struct chk_opts {
	uint64_t seed;			/* every random choice derives from it */
	unsigned shift_samples;		/* shifts sampled when N > shift_all_max (64) */
	unsigned shift_all_max;		/* every shift up to this many endpoints (1024) */
	unsigned bisections;		/* random bisections for EBB (0: chk_ebb_bisections) */
	unsigned xzone_job;		/* hosts of the cross-zone allreduce job (512) */
	bool metrics;			/* compute metrics, not only findings */
	const uint8_t *sl2vl;		/* optional: [nports * 16] VL of each SL out of a port */
	const struct chk_vlx *vlx;	/* optional: per (in, out) rows that differ */
	const uint8_t *sl;		/* optional: [sl_ngroups * nlids] SL from a source group */
	const uint32_t *sl_group;	/* with sl: [nnodes] source group of each node */
	uint32_t sl_ngroups;		/* with sl: groups (1 if sl_group is NULL) */
	const struct chk_sl_classes *tcs;	/* with sl: traffic classes (NULL: none) */
	bool no_switch_cdg;		/* skip credit_loop_switch (only CA-injected routes) */
	bool no_minimal;		/* skip non_minimal: shortest distances only where a
					 * route fails (an engine's verification) */
	bool rates_if_mixed;		/* chk_rates only when links run at several rates */
	unsigned threads;		/* chk_findings: 0 (default) 2 when 2 CPUs are online,
					 * 1 one; the report does not depend on it */
	struct chk_trace **trace;	/* optional, out: when the findings are clean and the
					 * CA-injected CDG acyclic, what a later run needs to
					 * judge changed LIDs alone (else NULL) */
	const struct chk_trace *since;	/* optional: a trace of this fabric or of one with
					 * more links and nodes (same LIDs) ... */
	const uint8_t *since_only;	/* ... and [max_lid + 1]: the LIDs whose routes may
					 * differ from the traced ones; every other LID's
					 * entries, SLs and VLs must be the traced routing's.
					 * Judged on these LIDs alone when the classification
					 * matches (chk_report.partial), else in full */
	uint8_t *lid_found;		/* optional, out: [max_lid + 1], set to 1 for a LID with a
					 * hard finding on its own routes (a loop, a black hole,
					 * rail_leave, a zone rule: not credit loops, rail_mix,
					 * rates); route.c merges those strictly */
	const uint32_t *job;		/* optional: CA node ids of one job (hosts running together) */
	uint32_t njob;
};

/**
 * chk_sl - the SL a packet of traffic class @k (0 without classes) from
 * source group @g to @lid carries: sl[g][lid] through the class map, 0
 * without an SL table
 */
static inline unsigned chk_sl(const struct chk_opts *o, uint32_t g, uint32_t nlids, uint32_t lid,
			      unsigned k)
{
	unsigned sl;

	if (!o || !o->sl)
		return 0;
	sl = o->sl[(size_t)g * nlids + lid] & 15;
	return o->tcs && k < o->tcs->n ? o->tcs->map[k][sl] & 15 : sl;
}

/**
 * chk_vl - the VL a packet on @sl takes on channel @p by its base row:
 * sl2vl[p][sl] when SL2VL is given, else 0 (everything on one VL)
 */
static inline unsigned chk_vl(const struct chk_opts *o, uint32_t p, unsigned sl)
{
	if (!o || !o->sl2vl)
		return 0;
	return o->sl2vl[(size_t)p * 16 + sl] & 15;
}

/** chk_vl_in - chk_vl() for a packet that entered through port @in */
static inline unsigned chk_vl_in(const struct chk_opts *o, uint32_t in, uint32_t p, unsigned sl)
{
	const struct chk_vlx *x = o ? o->vlx : NULL;
	const uint8_t *row = NULL;

	/* most (in, out) pairs have no row of their own: skip the search */
	if (x && x->n && (!x->off || (p < x->nout && (x->inmask[p] >> (in & 63) & 1))))
		row = chk_vlx_find(x, in, p);

	if (!row)
		return chk_vl(o, p, sl);
	return row[sl] & 15;
}

/** chk_sl_group - source group of node @n (0 without an SL table) */
static inline uint32_t chk_sl_group(const struct chk_opts *o, uint32_t n)
{
	return o && o->sl && o->sl_group ? o->sl_group[n] : 0;
}

/** chk_opts_init - defaults: seed 1, all shifts up to 1024 endpoints else 64 samples,
 * bisections by chk_ebb_bisections, 512-host job */
void chk_opts_init(struct chk_opts *o);
/** chk_ebb_bisections - EBB's default bisections for @n compute endpoints:
 * about 3.2 million flows (n per bisection), between 32 and 4096 */
unsigned chk_ebb_bisections(uint32_t n);
/** chk_report_init / chk_report_free - the report of one fabric (nports channels) */
int chk_report_init(struct chk_report *r, uint32_t nports);
void chk_report_free(struct chk_report *r);
/** chk_metric_set - set (or add) metric @name */
int chk_metric_set(struct chk_report *r, const char *name, double value);
/** chk_metric_get - value of @name, or NaN */
double chk_metric_get(const struct chk_report *r, const char *name);
/** chk_finding_add - count one occurrence of @kind; keep the text as an example */
void chk_finding_add(struct chk_report *r, enum chk_finding_kind kind, bool hard,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *chk_finding_name(enum chk_finding_kind k);
/** chk_finding_hard - whether findings of kind @k make the check fail */
bool chk_finding_hard(enum chk_finding_kind k);
/**
 * chk_node_name - how findings name a node: its NodeDescription, or
 * "0x<GUID>" when the description is empty or shared with another node
 * (O(nodes): for examples only).  Returns @buf.
 */
const char *chk_node_name(const struct topo *t, uint32_t n, char *buf, size_t len);
/** chk_hard_findings - number of hard findings */
uint64_t chk_hard_findings(const struct chk_report *r);

/**
 * chk_findings - correctness, deadlock, minimality, rail and zone findings
 * (and ch_routes/ch_routes_tc).  O(switches x LIDs) for the route trees,
 * O(channels x radix) for the dependency graph.
 */
int chk_findings(const struct topo *t, const struct lft *l, const struct cls *c,
		 const struct chk_opts *o, struct chk_report *r);
/**
 * chk_credit_loops - credit loops (CHK_F_CREDIT_LOOP): cycles of the
 * channel dependency graph of the valid routes, per VL.  @ok has bit
 * lid * nswitches + s set when switch ordinal s routes lid validly
 * (chk_findings builds it and calls this).  O(switches x LIDs + E log E).
 */
int chk_credit_loops(const struct topo *t, const struct lft *l, const uint8_t *ok,
		     const struct chk_opts *o, struct chk_report *r);
/**
 * chk_loop_lids - LIDs to route otherwise to break the credit loops of
 * @l's CA-injected routes (every route of a switch with a table; @o as
 * for chk_credit_loops(), NULL: defaults): for each cycle it would report
 * (one shortest cycle per cyclic strongly connected set, of at most 64
 * edges in all), the edges are matched to the LIDs whose routes make them
 * (by channel and VL at both ends).  An edge that a LID already marked or
 * not in @cand ([max_lid + 1], NULL: every LID) makes stays; of the
 * others, the LIDs of the edge the fewest make are marked in @mark
 * ([max_lid + 1]), that edge is taken as gone and the cycles are searched
 * again.  Returns how many LIDs it newly marked (0: no loop, or none can
 * be broken so), or -ENOMEM / -EOVERFLOW.  (route.c merges those
 * strictly.)
 */
int chk_loop_lids(const struct topo *t, const struct lft *l, const struct chk_opts *o,
		  const uint8_t *cand, uint8_t *mark);
/**
 * chk_cdg_prepare / chk_cdg_fill / chk_cdg_collect / chk_cdg_judge /
 * chk_cdg_free - chk_credit_loops() in steps: the CDG's memory, its edges
 * (@ok NULL: every route of a switch with a table taken as valid; fill
 * allocates nothing, so a thread of its own takes no heap of its own),
 * both at once, then its cycles into @r.  chk_findings fills on a second
 * thread while it resolves the routes (chk_opts.threads).
 */
struct chk_cdg;
int chk_cdg_prepare(const struct topo *t, const struct chk_opts *o, struct chk_cdg **g);
int chk_cdg_fill(const struct topo *t, const struct lft *l, const uint8_t *ok,
		 const struct chk_opts *o, struct chk_cdg *g);
int chk_cdg_collect(const struct topo *t, const struct lft *l, const uint8_t *ok,
		    const struct chk_opts *o, struct chk_cdg **g);
int chk_cdg_judge(const struct topo *t, const struct chk_cdg *g, struct chk_report *r);
void chk_cdg_free(struct chk_cdg *g);
/**
 * chk_cdg_help / chk_cdg_absorb - a second collector for the CA-injected
 * walks that chk_cdg_fill() runs on @g in another thread: help takes LID
 * blocks from the same cursor into edges of its own (*@h; the same @ok),
 * until none is left; once that thread is joined, absorb adds them to
 * @g's and frees @h.  Nothing to do when @g collects a switch-injected
 * graph too.  0, or -ENOMEM before taking any block (fill does them all).
 */
int chk_cdg_help(const struct topo *t, const struct lft *l, const uint8_t *ok,
		 const struct chk_opts *o, struct chk_cdg *g, struct chk_cdg **h);
void chk_cdg_absorb(struct chk_cdg *g, struct chk_cdg *h);
/*
 * chk_trace - what a clean chk_findings() keeps (chk_opts.trace) so that a
 * routing of the same fabric less something is judged on its changed LIDs
 * alone (chk_opts.since; chk_trace.c says why that is sound).
 */
struct chk_trace {
	const struct topo *t;	/* the fabric traced (not owned: it must outlive the trace) */
	unsigned nvl;		/* VLs of the CDG's vertices, densely numbered ... */
	uint8_t vix[16];	/* ... VL -> index, 0xff none */
	uint32_t *ord;		/* [nports * nvl]: vertex (channel, VL) -> its height in the
				 * CA-injected CDG, 1 + its longest path (an edge u -> v
				 * has ord[u] > ord[v]); 0: no edge out */
	int16_t *rail;		/* [nports]: the rail routes over the channel lead to, -1
				 * none; NULL without rails */
	int16_t *zone, *crail;	/* [nnodes]: the classification judged ... */
	uint8_t *role, *level;
	uint32_t nzones, nrails;
};
/** chk_trace_free - release @tr and its arrays (NULL is fine) */
void chk_trace_free(struct chk_trace *tr);
/**
 * chk_trace_fits - whether @t with @c can be judged against @tr: every node
 * of @t traced with the same zone, rail, role and level, its ports with the
 * same LIDs and cabled as there or not at all, one rate (@o_ok: the rest of
 * the options allow it).  Returns the map from @t's ports to @tr->t's, to
 * free, or NULL.
 */
uint32_t *chk_trace_fits(const struct chk_trace *tr, const struct topo *t, const struct cls *c,
			 bool o_ok);
/**
 * chk_cdg_since - whether every CA-injected CDG edge of the valid routes
 * (@ok) toward @lids[0..n) follows @tr's order (@pmap: chk_trace_fits()):
 * 0 yes (with the traced routes, no cycle), 1 no or unknown, -ENOMEM.
 */
int chk_cdg_since(const struct topo *t, const struct lft *l, const uint8_t *ok,
		  const struct chk_opts *o, const uint32_t *lids, uint32_t n,
		  const struct chk_trace *tr, const uint32_t *pmap);
/**
 * chk_cdg_judge_trace - chk_cdg_judge(), and when the CA-injected graph has
 * no cycle, its order into @tr (ord, nvl, vix; @tr NULL: none)
 */
int chk_cdg_judge_trace(const struct topo *t, const struct chk_cdg *g, struct chk_report *r,
			struct chk_trace *tr);
/**
 * chk_rates - rate_slowed and slow_transit findings and the rate metrics
 * (chk_rate.c; chk_findings calls it).  O(LIDs x links).
 */
int chk_rates(const struct topo *t, const struct lft *l, const struct cls *c,
	      struct chk_report *r);
/**
 * chk_metrics - balance and traffic-pattern metrics (see ffroute(1)).
 * Balance metrics use the route counts of chk_findings(); if it has not
 * run on @r yet, chk_metrics() runs it first (so @r gets findings too).
 */
int chk_metrics(const struct topo *t, const struct lft *l, const struct cls *c,
		const struct chk_opts *o, struct chk_report *r);
/**
 * chk_traffic_metrics - only the traffic-pattern metrics (shifts and their
 * lower bound, EBB, double binary trees, storage incast, all-to-all, which
 * fills ch_load); chk_metrics() calls it after the route-count metrics
 */
int chk_traffic_metrics(const struct topo *t, const struct lft *l, const struct cls *c,
			const struct chk_opts *o, struct chk_report *r);

#endif

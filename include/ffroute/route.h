/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * route.h - the routing engine: LFTs, SLs and SL2VL tables for a
 * classified fabric, verified before they are returned.
 *
 * Inputs: a struct topo and its struct cls (class.h).  Outputs (struct
 * route_out): the LFT of every switch, the SL of every (source group,
 * destination LID) and the SL2VL table of every sending port, and figures
 * of the run.  route_run() refuses (and returns no tables) when the
 * classification refused the fabric, when the engine cannot route every
 * reachable LID, or when the checker finds any hard finding in the result
 * (loops, black holes, credit loops per VL, rail/zone violations).
 *
 * Table sizes: LFT nsw x (max_lid + 1) bytes; SL ngroups x (max_lid + 1)
 * bytes (ngroups = zones + 1 + switches); SL2VL nports x 16 bytes; scratch
 * O(switch ports) per destination plus per-port load counters.
 *
 * RETURN VALUE: int functions return 0 or -errno; out->err says why.
 */
#ifndef FFROUTE_ROUTE_H
#define FFROUTE_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/check.h>
#include <ffroute/class.h>
#include <ffroute/lft.h>
#include <ffroute/topo.h>

/* Service levels: SL 0 inside a zone, SL 1 + z for paths into zone z from
 * elsewhere, ROUTE_SL_TURN for switch-to-switch paths that turn down->up. */
#define ROUTE_SL_TURN 15

enum route_log_level { ROUTE_LOG_ERROR = 0, ROUTE_LOG_INFO, ROUTE_LOG_DEBUG };

/* Where a CA was cabled: its place in D-mod-K order, kept while it is away
 * (route_slots.c). */
struct route_slot {
	uint64_t sw_guid;	/* the switch it is cabled to */
	uint8_t port;		/* the switch's port */
	uint8_t tc;		/* enum cls_tclass */
	uint16_t nlids;		/* its LIDs (1 << LMC) */
	int16_t rail;		/* its rail, -1 none */
};

/*
 * A traffic class on VLs of its own (route_tc.c).  Its SL inside a zone
 * is @sl, the SL hosts ask for; the other deadlock layers' SLs of the
 * class are allocated from the SLs no class names.  Class k's VLs are
 * k * L .. k * L + L - 1 (L: the deadlock layers' VLs, 1 or 2).
 */
struct route_tclass {
	char name[CHK_TC_NAME];
	uint8_t sl;		/* the SL hosts request for it (0..15) */
	uint8_t weight;		/* VL arbitration weight of each of its VLs (1..255) */
	bool high;		/* in the high-priority arbitration table */
	bool fallback;		/* "default": paths whose request names no class */
	uint16_t roles;		/* bit 1 << enum cls_role: paths to (else from) such an
				 * endpoint take this class when the request names none */
};

/*
 * The fabric as it was whole and its tables routed from scratch
 * (route_incr.c): @out, when given, its SLs (sl, sl_group, ngroups,
 * nlids, tcs), so the turns of the routes kept keep the VLs they were
 * proved on (the turn rows are found again on the merged tables); NULL:
 * this pass's SLs stand for them.
 */
struct route_base {
	const struct topo *t;
	const struct lft *lft;
	const struct route_out *out;
};

struct route_opts {
	unsigned vl_limit;	/* most data VLs the engine may use (default 2) */
	int rail_isolation;	/* -1 auto (on when rails are found), 0 off, 1 on */
	bool verify;		/* run the checker on the result (default true) */
	bool non_tree;		/* route a fabric that is not a tree (cls.not_tree) as
				 * any other (levels, then the rooted layer: one
				 * up*down* order); default false: decline it */
	int rooted_layer;	/* -1 auto (default): when routes by levels alone fail the
				 * verification, then for every fallback if that fails
				 * too; 0 off; 1 on (route_root.c); 2 on for every LID
				 * whose fallback meets a switch with a CA */
	bool tree_digits;	/* D-mod-K digits searched so that HFReduce's double binary
				 * tree over each zone's compute HCAs shares no link
				 * (route_dbt.c; default true); false: rank mod m */
	bool shift_refine;	/* degraded two-level zones: leaf entries re-chosen so
				 * shift permutations near their lower bound
				 * (route_shift.c; default true) */
	unsigned class_weight[3];	/* compute, storage, other: what one route of the
					 * class weighs in the all-class tie-break; all 0
					 * (default): no such tie-break */
	unsigned threads;	/* 0 (default): 2 when 2 CPUs are online, else 1; 1: one
				 * thread; 2: two.  The tables do not depend on it
				 * (route_all.c) */
	const struct route_slot *slots;	/* places of earlier passes (route_slots()); a
					 * CA that went away keeps its rank while its
					 * port is free; NULL: none */
	uint32_t nslots;
	const struct chk_jobs *jobs;	/* the running jobs (NULL: none): each zone's D-mod-K
					 * digits keep their collectives' transfers off
					 * shared links (route_dbt.c) */
	const struct route_tclass *tc;	/* traffic classes (NULL, ntc 0: none, SLs are
					 * the deadlock layers'); vl_limit is then the
					 * VLs of all classes together */
	unsigned ntc;
	const struct route_base *base;	/* when the fabric is this base minus something,
					 * routes it did not break are kept (route_incr.c);
					 * NULL: from scratch */
	const uint8_t *force_lids;	/* [max_lid + 1], with base: the LIDs that take this
					 * pass's routes though the base's are intact (the
					 * CAs of the jobs that changed: chk_jobs_changed());
					 * every other compute LID keeps the base's D-mod-K
					 * digit (route_dbt.c); NULL: none */
	const uint8_t *only_lids;	/* [max_lid + 1], route_run()'s own (a caller's is
					 * ignored): route the LIDs marked, the ones the
					 * fault broke (the pass is merged with the base,
					 * not verified); NULL: all */
	/* optional logger; the core never prints */
	void (*log)(void *ctx, enum route_log_level lvl, const char *msg);
	void *log_ctx;
};

struct route_out {
	struct lft *lft;	/* every switch's table (have[] all set); of a pass
				 * of the LIDs only_lids names, a column per such
				 * LID with a port, in LID order (only_cols), until
				 * the merge with the base makes it whole */
	uint8_t *sl;		/* [ngroups * nlids]: SL from a source group to a LID */
	uint32_t *sl_group;	/* [nnodes]: source group of each node */
	uint32_t ngroups, nlids;
	uint8_t *sl2vl;		/* [nports * 16]: VL of each SL leaving each port */
	struct chk_vlx vlx;	/* SL2VL of (in, out) port pairs that differ: turns */
	struct chk_trace *trace;	/* the verification's, when clean: a later incremental
					 * pass is judged on its changed LIDs (chk_trace.c);
					 * NULL: none */
	uint32_t judged_lids;	/* LIDs the verification judged: all, or those */
	uint8_t *turned;	/* [nlids]: 1 where some switch's route to the LID turns
				 * (the turn SL, or up after coming down) or takes the
				 * rooted layer: the LIDs whose routes give vlx its
				 * rows; NULL: unknown */
	uint8_t *forced;	/* [max_lid + 1], a job change (route_opts.force_lids):
				 * the LIDs that take this pass's routes, those
				 * and the idle CAs (in no job) the pass moved for
				 * the jobs that changed; NULL: none */
	unsigned nvls;		/* data VLs used (1 = no VL layering), all classes */
	struct chk_sl_classes tcs;	/* traffic classes: SL of each (class, layer SL) */
	struct route_tclass tc[CHK_TC_MAX];	/* ... their definitions (opts.tc) */
	uint16_t tc_sls[CHK_TC_MAX];	/* ... the SLs each class uses (a mask) */
	unsigned tc_fallback;	/* ... the class of paths whose request names none */
	unsigned layer_vls;	/* VLs per class (the deadlock layers': 1 or 2) */
	uint64_t routes;	/* (switch, LID) entries set */
	uint64_t turn_routes;	/* switch-to-switch routes that turn down->up */
	uint32_t rooted_lids;	/* LIDs routed up*down* from one root on VL 1 (route_dest.c) */
	unsigned valley_planes;	/* 1 + the fallback SLs whose rows its routes lift
				 * (route_valley.c; 1: none), of a pass from
				 * scratch with VL layers; 0: unknown (a merge,
				 * a pass of some LIDs, tables read from files) */
	uint32_t tree_zones;	/* zones whose D-mod-K digits were searched (route_dbt.c) */
	uint32_t tree_left;	/* ... of which a tree step still exceeds a link's rate */
	uint32_t shift_zones;	/* degraded zones whose leaf entries were refined (route_shift.c) */
	uint32_t shift_moved;	/* ... leaf entries moved there */
	uint64_t hard_findings;	/* from the verification (0 when returned) */
	bool single_order;	/* one VL: every LID up*down* in one root's order */
	uint64_t zone_detours;	/* ... zone-rule findings it leaves (cross-zone links used) */
	bool rails_given_up;	/* auto rail isolation could not be kept: findings accepted */
	uint64_t rate_findings;	/* ... rate_slowed + slow_transit it leaves (not refused) */
	uint64_t rail_findings;	/* ... rail_mix + rail_leave findings it leaves */
	uint32_t max_link_routes;	/* most routes on one switch-to-switch channel */
	bool base_in_force;	/* the fabric is opts.base minus something: keep that base */
	bool incremental;	/* the base's routes kept where intact (opts.base) */
	uint32_t kept_lids, patched_lids, rerouted_lids;	/* ... LIDs that kept them whole,
							 * patched around a fault, re-routed */
	bool only_cols;		/* lft and sl: a column per LID routed (see lft;
				 * nlids then counts those columns) */
	uint32_t pass_lids;	/* LIDs the last pass routed: every one, or with a base
				 * the ones its routes broke alone (route_incr.c) */
	char mode_why[240];	/* why the pass was from scratch when a base was given */
	struct route_slot *slots;	/* the places for the next pass (route_slots()) */
	uint32_t nslots;
	double seconds;		/* wall time of route_run */
	char err[240];		/* why route_run failed */
};

/* An engine: compute() fills @out (no verification). */
struct route_engine {
	const char *name;
	int (*compute)(const struct topo *t, const struct cls *c, const struct route_opts *o,
		       struct route_out *out);
};

extern const struct route_engine route_engine_ffroute;

/** route_opts_init - defaults: 2 VLs, rail isolation auto, verify on */
void route_opts_init(struct route_opts *o);
/**
 * route_run - classify-aware routing plus verification
 * Return: 0 with @out filled, or -EINVAL (refused: out->err), -ENOMEM.
 * On failure @out holds no tables.
 */
int route_run(const struct topo *t, const struct cls *c, const struct route_opts *o,
	      struct route_out *out);
/** route_out_free - release the tables (a zeroed struct is fine) */
void route_out_free(struct route_out *out);
/**
 * route_parse_class_weights - "C,S,O" (three integers 0..1000) into @w
 * Return: 0, or -EINVAL (@w unchanged).
 */
int route_parse_class_weights(const char *s, unsigned w[3]);
/** route_sl - SL of the path from @src_node to @dlid (0 when unknown) */
uint8_t route_sl(const struct route_out *out, uint32_t src_node, uint32_t dlid);
/** route_tclass_defaults - the built-in classes (other, collectives, storage,
 * management); returns how many (at most CHK_TC_MAX) */
unsigned route_tclass_defaults(struct route_tclass *tc);
/**
 * route_tclass_parse - one class from "NAME sl N [weight W] [roles R,..]
 * [high] [default]" (the text after "class"); on error *@col is the
 * 0-based column of the bad word and @err says why.  Return: 0 or -EINVAL.
 */
int route_tclass_parse(const char *s, struct route_tclass *tc, unsigned *col, char *err,
		       size_t errsz);
/** route_tclasses_valid - names and SLs distinct, at most one default; -EINVAL (@err) */
int route_tclasses_valid(const struct route_tclass *tc, unsigned n, char *err, size_t errsz);
/**
 * route_path_class - the class of a path from node @src to node @dst asked
 * for with SL @hint: the class whose SLs hold @hint (the default class's
 * SLs name none), else the first whose roles hold @dst's role, else @src's,
 * else the default class.  0 without classes.
 */
unsigned route_path_class(const struct route_out *out, const struct cls *c, uint8_t hint,
			  uint32_t src, uint32_t dst);
/** route_class_sl - the SL of class @k's packets from @src_node to @dlid */
uint8_t route_class_sl(const struct route_out *out, unsigned k, uint32_t src_node, uint32_t dlid);
/**
 * route_vlarb - the VL arbitration table (@high: high priority) the
 * classes ask for: (VL, weight) entries, *@n of them (at most 64)
 */
void route_vlarb(const struct route_out *out, bool high, uint8_t vl[64], uint8_t weight[64],
		 unsigned *n);
/** route_vlarb_conf - the same as opensm.conf's qos_vlarb_* syntax "VL:W,VL:W" */
void route_vlarb_conf(const struct route_out *out, bool high, char *buf, size_t size);

/** route_slots - the places after a pass over @t: its CA ports and @prev's kept ones
 * (sorted by switch GUID and port; free *@out) */
int route_slots(const struct topo *t, const struct cls *c, const struct route_slot *prev,
		uint32_t nprev, struct route_slot **out, uint32_t *nout);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chk_traffic.h - what the traffic patterns of chk_traffic.c (EBB, double
 * binary tree, incast, all-to-all) share with the shift permutations of
 * chk_shift.c: the context, flow sets and seeded streams.  Internal.
 */
#ifndef FFROUTE_CHK_TRAFFIC_H
#define FFROUTE_CHK_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/check.h>

#include "base/rng.h"

enum stream { ST_SHIFT = 1, ST_EBB, ST_XZONE, ST_INCAST, ST_A2A };

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *g)
{
	return ffr_rng_next(&g->s);
}

static inline void rng_init(struct rng *g, uint64_t seed, enum stream st)
{
	g->s = seed ^ ((uint64_t)st << 56);
	g->s = rng_next(g);
}

static inline uint32_t rng_below(struct rng *g, uint32_t n)
{
	return ffr_rng_below(&g->s, n);
}

#define ep chk_ep

/* Flows and their paths: flow i uses ch[off[i] .. off[i+1]). */
struct fset {
	uint32_t n, cap, nch, capch;
	uint32_t *off, *ch;
	uint8_t *ok;
};

struct tctx {
	const struct topo *t;
	const struct lft *l;
	const struct cls *c;
	const struct chk_opts *o;
	struct chk_report *r;
	struct ep *comp, *stor;
	uint32_t ncomp, nstor;
	uint32_t *load;		/* [nports], all zero between patterns */
	uint8_t *sw2sw;		/* [nports] channel joins two switches */
	float *cap;		/* [nports] the link's rate / the full rate; NULL when
				 * every link runs at one rate (then 1) */
	uint32_t *leaf_cap;	/* [nswitches] cabled switch links of a switch */
	uint32_t *leaf_out, *leaf_in;	/* [nswitches] scratch */
	uint32_t *zcap_out, *zcap_in, *z_out, *z_in;	/* [nzones] */
	uint32_t *pcap, *p_out, *p_in;	/* [npartlv * (nnodes + 1)]: per part (pod)
					 * level and part name, channels out (= in)
					 * and flows leaving / entering */
	struct fset fs, fs2;
	uint64_t unrouted;
	struct chk_mincut mc;	/* shortest-path cuts between the compute leaves (chk_shift.c) */
	uint64_t *pairs;	/* [ncomp] scratch: (leaf, leaf) of a shift's flows */
};

static inline int set(struct tctx *x, const char *name, double v)
{
	return chk_metric_set(x->r, name, v);
}

static inline uint32_t ceil_div(uint32_t a, uint32_t b)
{
	return b ? (a + b - 1) / b : 0;
}

static inline bool zone_ok(const struct tctx *x, int16_t z)
{
	return z >= 0 && (uint32_t)z < x->c->nzones;
}

int chk_setf(struct tctx *x, const char *fmt, const char *a, double v);
void chk_fset_reset(struct fset *f);
int chk_fset_add(struct tctx *x, struct fset *f, uint32_t src, uint32_t dlid);
void chk_fset_load(const struct fset *f, uint32_t *load);
void chk_fset_unload(const struct fset *f, uint32_t *load);
uint32_t chk_fset_max(const struct fset *f, const uint32_t *load);
/** chk_shift_metrics - shift_* over the compute set, each zone and each rail (chk_shift.c) */
int chk_shift_metrics(struct tctx *x);

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen_fattree.c - generic k-ary fat trees of 2 or 3 levels (family
 * "fattree"), and the wiring helpers the tree families share (gen_wire,
 * gen_split; the rail family uses them too).
 *
 * Shape, K = radix, N = hosts, o = oversub (leaf down:up = o:1, default 1):
 *   leaf   u = K/(o+1) up-links, d = o x u host ports; L = ceil(N/d) leaves
 *          (with --leaves L: d = ceil(N/L), u = ceil(d/o)).  Hosts are
 *          spread evenly: leaf i holds hosts [i*N/L, (i+1)*N/L) on ports
 *          1.., and its up-links are ports d+1 .. d+u.
 *   2-level  S spines; every leaf has u/S links to every spine.  S is the
 *          smallest divisor of u with L x u/S <= K (fills the spines), or
 *          --spines.  A 2-level tree holds at most K leaves (K^2/2 hosts).
 *   3-level  pods of up to Lp leaves and A aggregation switches; every leaf
 *          has u/A links to every aggregation switch of its pod (A = u, or
 *          --spines); Lp = (K/2) / (u/A), so an aggregation switch uses at
 *          most half its ports down.  P = ceil(L/Lp) pods, the leaves spread
 *          evenly over them; an aggregation switch has as many up-links as
 *          leaf-side ports (Lp' x u/A, Lp' = ceil(L/P)).  Core group j (of A)
 *          joins aggregation switch j of every pod: C cores, C the smallest
 *          divisor of the up-links with P x up/C <= K.  At most K pods
 *          (K^3/4 hosts).
 * Non-blocking by default: every leaf and aggregation switch has at least
 * as many up-links as hosts/leaf-side links.  Hosts are "cnNNNN mlx5_0"
 * (from cn0001); switches "MF0;ft-...:MQM8700/U1" (MQM9700 above 40 ports),
 * each its own system image; all in GUID zone 0; every cable 4x HDR (ibsim
 * 0.10 knows no NDR).
 *
 * Presets (levels default 3):
 *                 small (k = 4, tiny)              full
 *   levels 2   K 4,  N 8:  4 leaves + 2 spines     K 40, N 800: 40 leaves + 20 spines
 *   levels 3   K 4,  N 16: 8 leaves + 8 aggr.      K 64, N 16384: 512 leaves + 512 aggr.
 *              + 4 cores (Al-Fares k = 4)          + 256 cores (16 pods, 32 core groups
 *                                                  of 8, 4 links per aggr.-core pair)
 * Giving --radix without --hosts builds the full non-blocking tree of that
 * radix (K^2/2 or K^3/4 hosts).  The full 3-level preset is for scale tests:
 * generate it on demand (ibsim needs -N/-S/-P raised for it).
 * O(nodes + cables).
 */
#include <errno.h>
#include <stdlib.h>

#include "gen/gen_int.h"

struct ft_shape {
	unsigned levels, radix, hosts;
	unsigned leaves, down, up;	/* leaves in all; leaf host ports, up-links */
	unsigned pods, pleaves;		/* 3-level: pods, most leaves in a pod */
	unsigned spines;		/* 2-level: spines; 3-level: aggr. per pod */
	unsigned sdown, sup;		/* spine: leaf-side links, core-side links */
	unsigned cores;			/* 3-level: cores per core group */
};

static const struct ft_preset {
	unsigned radix, hosts;
} ft_presets[2][2] = {
	/* [full][levels == 3] */
	{ { 4, 8 }, { 4, 16 } },
	{ { 40, 800 }, { 64, 16384 } },
};

static unsigned div_up(unsigned a, unsigned b)
{
	return (unsigned)(((uint64_t)a + b - 1) / b);
}

/* First item of part @part when @total items are split evenly into @parts parts. */
static unsigned share(unsigned part, unsigned total, unsigned parts)
{
	return (unsigned)((uint64_t)part * total / parts);
}

static const char *model(unsigned radix)
{
	return radix <= 40 ? "MQM8700" : "MQM9700";
}

int gen_wire(struct gen *g, const int *lo, unsigned nlo, unsigned port0, const int *hi,
	     unsigned nhi, unsigned per, unsigned *next)
{
	for (unsigned i = 0; i < nlo; i++)
		for (unsigned x = 0; x < nhi * per; x++)
			if (gen_cable(g, lo[i], port0 + x, hi[x % nhi], next[x % nhi]++))
				return -EINVAL;
	return 0;
}

unsigned gen_split(unsigned links, unsigned n, unsigned cap)
{
	for (unsigned s = 1; s <= links; s++)
		if (links % s == 0 && (uint64_t)n * (links / s) <= cap)
			return s;
	return 0;
}

static int ft_shape2(struct gen *g, struct ft_shape *s)
{
	unsigned sp = g->o->spines;

	if (sp && s->up % sp)
		return gen_fail(g, "fattree: %u spines do not divide the %u up-links of a leaf",
				sp, s->up);
	if (!sp)
		sp = gen_split(s->up, s->leaves, s->radix);
	if (!sp || (uint64_t)s->leaves * (s->up / sp) > s->radix)
		return gen_fail(g, "fattree: %u leaves with %u up-links each do not fit on "
				"%u-port spines (2 levels of radix %u hold at most %u leaves, "
				"%u hosts); use levels=3", s->leaves, s->up, s->radix,
				s->radix, s->radix, s->radix * s->radix / 2);
	s->spines = sp;
	s->sdown = s->leaves * (s->up / sp);
	s->pods = 1;
	s->pleaves = s->leaves;
	return 0;
}

static int ft_shape3(struct gen *g, struct ft_shape *s)
{
	unsigned a = g->o->spines ? g->o->spines : s->up, per, lp;

	if (s->up % a)
		return gen_fail(g, "fattree: %u aggregation switches per pod do not divide "
				"the %u up-links of a leaf", a, s->up);
	per = s->up / a;
	lp = s->radix / 2 / per;
	if (!lp)
		return gen_fail(g, "fattree: %u links from a leaf to each aggregation switch "
				"exceed half of its %u ports", per, s->radix);
	s->spines = a;
	s->pods = div_up(s->leaves, lp);
	s->pleaves = div_up(s->leaves, s->pods);
	s->sdown = s->pleaves * per;
	s->sup = s->sdown;
	s->cores = gen_split(s->sup, s->pods, s->radix);
	if (!s->cores)
		return gen_fail(g, "fattree: %u pods exceed the %u ports of a core switch "
				"(3 levels of radix %u hold at most %u pods, %u hosts)", s->pods,
				s->radix, s->radix, s->radix, s->radix * s->radix / 4 * s->radix);
	return 0;
}

static int ft_shape(struct gen *g, struct ft_shape *s)
{
	const struct gen_opts *o = g->o;
	unsigned ov = o->oversub ? o->oversub : 1, k;
	const struct ft_preset *p;
	uint64_t nodes;
	int rc;

	s->levels = o->levels ? o->levels : 3;
	if (s->levels != 2 && s->levels != 3)
		return gen_fail(g, "fattree: levels must be 2 or 3, not %u", s->levels);
	p = &ft_presets[o->full ? 1 : 0][s->levels == 3];
	k = s->radix = o->radix ? o->radix : p->radix;
	if (k < 2 || k >= TOPO_MAX_PORTS)
		return gen_fail(g, "fattree: radix %u out of range (2..%u)", k, TOPO_MAX_PORTS - 1);
	s->hosts = o->hosts ? o->hosts : !o->radix ? p->hosts :
		   s->levels == 2 ? k * k / 2 : k / 2 * k / 2 * k;
	if (o->leaves) {
		if (o->leaves > s->hosts)
			return gen_fail(g, "fattree: %u leaves for %u hosts leave a leaf empty",
					o->leaves, s->hosts);
		s->leaves = o->leaves;
		s->down = div_up(s->hosts, s->leaves);
		s->up = div_up(s->down, ov);
	} else {
		s->up = k / (ov + 1);
		s->down = ov * s->up;
		if (!s->up)
			return gen_fail(g, "fattree: radix %u is too small for %u:1 leaves", k, ov);
		s->leaves = div_up(s->hosts, s->down);
	}
	if (s->down + s->up > k)
		return gen_fail(g, "fattree: a leaf needs %u host ports and %u up-links, "
				"but has %u ports", s->down, s->up, k);
	rc = s->levels == 2 ? ft_shape2(g, s) : ft_shape3(g, s);
	if (rc)
		return rc;
	nodes = (uint64_t)s->hosts + s->leaves + (uint64_t)s->pods * s->spines +
		(uint64_t)s->spines * s->cores;
	if (nodes > TOPO_MAX_UCAST_LID)
		return gen_fail(g, "fattree: %llu nodes need more than the %u unicast LIDs",
				(unsigned long long)nodes, TOPO_MAX_UCAST_LID);
	return 0;
}

/* Declare the switches: leaf[] by pod, spine[] by pod, core[] by group. */
static int ft_switches(struct gen *g, const struct ft_shape *s, int *leaf, int *spine, int *core)
{
	const char *m = model(s->radix);

	for (unsigned p = 0; p < s->pods; p++) {
		unsigned l0 = share(p, s->leaves, s->pods);

		for (unsigned l = l0; l < share(p + 1, s->leaves, s->pods); l++)
			leaf[l] = s->levels == 2 ?
				  gen_switch(g, 0, s->radix, 0, "MF0;ft-leaf%03u:%s/U1", l + 1, m) :
				  gen_switch(g, 0, s->radix, 0, "MF0;ft-p%02u-leaf%02u:%s/U1",
					     p + 1, l - l0 + 1, m);
	}
	for (unsigned p = 0; p < s->pods; p++)
		for (unsigned j = 0; j < s->spines; j++)
			spine[p * s->spines + j] = s->levels == 2 ?
				gen_switch(g, 0, s->radix, 0, "MF0;ft-spine%03u:%s/U1", j + 1, m) :
				gen_switch(g, 0, s->radix, 0, "MF0;ft-p%02u-spine%02u:%s/U1",
					   p + 1, j + 1, m);
	for (unsigned j = 0; j < s->spines && s->levels == 3; j++)
		for (unsigned c = 0; c < s->cores; c++)
			core[j * s->cores + c] = gen_switch(g, 0, s->radix, 0,
							    "MF0;ft-core%02u-%02u:%s/U1",
							    j + 1, c + 1, m);
	return g->failed ? -EINVAL : 0;
}

static int ft_hosts(struct gen *g, const struct ft_shape *s, const int *leaf)
{
	for (unsigned l = 0; l < s->leaves; l++) {
		unsigned h0 = share(l, s->hosts, s->leaves);

		for (unsigned h = h0; h < share(l + 1, s->hosts, s->leaves); h++) {
			int ca = gen_ca(g, 0, 1, 0, "cn%04u mlx5_0", h + 1);

			if (ca < 0 || gen_cable(g, ca, 1, leaf[l], h - h0 + 1))
				return -EINVAL;
		}
	}
	return 0;
}

static int ft_cables(struct gen *g, const struct ft_shape *s, const int *leaf, const int *spine,
		     const int *core, unsigned *next)
{
	unsigned a = s->spines, *cnext = next + s->pods * a;

	for (unsigned p = 0; p < s->pods; p++) {
		unsigned l0 = share(p, s->leaves, s->pods);

		if (gen_wire(g, leaf + l0, share(p + 1, s->leaves, s->pods) - l0, s->down + 1,
			     spine + p * a, a, s->up / a, next + p * a))
			return -EINVAL;
	}
	for (unsigned p = 0; p < s->pods && s->levels == 3; p++)
		for (unsigned j = 0; j < a; j++)
			if (gen_wire(g, spine + p * a + j, 1, s->sdown + 1, core + j * s->cores,
				     s->cores, s->sup / s->cores, cnext + j * s->cores))
				return -EINVAL;
	return 0;
}

/**
 * gen_fattree - a 2- or 3-level fat tree (see the top of this file)
 * @g: the generator, options in g->o (levels, radix, hosts, leaves, spines, oversub)
 *
 * Return: 0, or -EINVAL with the reason recorded (gen_fail) when the
 * options cannot be satisfied.
 */
int gen_fattree(struct gen *g)
{
	struct ft_shape s = { 0 };
	size_t nsp, nsw;
	int *sw, rc;
	unsigned *next;

	if (g->o->style != GEN_STYLE_DEFAULT)
		return gen_fail(g, "fattree: style %s does not apply (fat trees have none)",
				gen_style_name(g->o->style));
	if (ft_shape(g, &s))
		return -EINVAL;
	nsp = (size_t)s.pods * s.spines;
	nsw = s.leaves + nsp + (size_t)s.spines * s.cores;
	sw = malloc(nsw * sizeof(*sw));
	next = malloc((nsw - s.leaves + 1) * sizeof(*next));
	if (!sw || !next) {
		free(sw);
		free(next);
		return gen_fail(g, "out of memory");
	}
	for (size_t i = 0; i < nsw - s.leaves; i++)
		next[i] = 1;
	rc = ft_switches(g, &s, sw, sw + s.leaves, sw + s.leaves + nsp);
	if (!rc)
		rc = ft_hosts(g, &s, sw);
	if (!rc)
		rc = ft_cables(g, &s, sw, sw + s.leaves, sw + s.leaves + nsp, next);
	free(sw);
	free(next);
	return rc ? -EINVAL : 0;
}

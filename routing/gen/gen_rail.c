// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen_rail.c - GPU fabrics with one HCA per rail (family "rail"): the
 * rail-optimized 2- and 3-level trees and rail-only subnets.
 *
 * Hosts: H hosts "gpuNNN" (from gpu001) with R HCAs each (rails, default
 * 8); HCA k is its own 1-port CA "gpuNNN mlx5_k" and is cabled to a rail-k
 * leaf.  All HCAs of a host share one system image GUID, the host's: the
 * GUID of its mlx5_0 (rail-k HCAs are in GUID zone k with the host number
 * as sequence, so the host GUID is the same in every style and in every
 * rail-only subnet).
 *
 * Scalable units: the hosts are split evenly into L blocks (SUs; L =
 * leaves per rail, default ceil(H / (K/2)), K = radix); SU s has one leaf
 * per rail, "su<s>-r<k>-leaf", holding HCA k of each of its hosts on ports
 * 1..d (d = ceil(H/L)) with u = d up-links on ports d+1..2d (non-blocking).
 *
 * rail2 (rail-optimized, 2 levels; DGX SuperPOD up to ~4 SUs): S spines
 * "spineNN" shared by all rails; every leaf of every rail has u/S links to
 * every spine.  S = the smallest divisor of u with R x L x u/S <= K (the
 * spines are full), or --spines.  Leaves of two rails meet only at a spine.
 *
 * rail3 (rail-optimized, 3 levels; DGX SuperPOD beyond, e.g. 16 SUs: 128
 * leaves, 128 spines, 64 cores): each rail has its own spine group of S
 * spines "r<k>-spineNN" (S the smallest divisor of u with L x u/S <= K/2,
 * or --spines); every rail-k leaf has u/S links to every rail-k spine; a
 * spine has as many core-side links as leaf-side ones (c = L x u/S).
 * Cores come in S core groups, shared by all rails: group j, "core-gJJ-NN",
 * joins spine j of every rail's group, C cores (C the smallest divisor of c
 * with R x c/C <= K), c/C links per spine-core pair.  Same rail, other SU:
 * leaf-spine-leaf; other rail: leaf-spine-core-spine-leaf.  (Spine groups
 * are per rail and core groups per spine index, as in the DGX SuperPOD
 * reference designs; core groups per rail would leave no switch path
 * between rails, which is rail-only.)
 *
 * rail-only (no switch path between rails, arXiv 2307.12169): opts.rail
 * picks rail k; its subnet holds the rail-k HCAs, the rail-k leaves and the
 * rail-k spine group exactly as in rail3 without the cores (when L x u
 * does not fit on half the spine ports, the spines use all of them).
 *
 * Presets (K 40 = QM8700 HDR; every cable 4x HDR, as ibsim 0.10 knows no NDR):
 *   rail2  small  H 16,  R 8, K 16: 16 leaves (2/rail, 8+8), 8 spines (16 down),   128 HCAs
 *          full   H 100, R 8, K 40: 40 leaves (5/rail, 20+20), 20 spines (40 down), 800 HCAs
 *   rail3  small  H 8,   R 8, K 8: 2 SUs of 4; 16 leaves (4+4), 16 spines (2/rail,
 *                 4+4, 2 links per leaf-spine), 8 cores (2 groups of 4, 8 ports)    64 HCAs
 *          full   H 160, R 8, K 40: 8 SUs of 20; 64 leaves (20+20), 80 spines
 *                 (10/rail, 16+16), 40 cores (10 groups of 4, 32 ports)           1280 HCAs
 *   rail-only per rail: small 2 leaves + 2 spines, 8 HCAs; full 8 leaves +
 *          10 spines, 160 HCAs (the rail3 presets without cores).
 * Options: hosts, rails (1..64), radix, leaves (per rail = SUs), spines
 * (rail2: in all; rail3, rail-only: per rail), rail (rail-only: which
 * subnet); 0 = the preset's value or the rule above.  Per-rail switches
 * are in GUID zone k, shared ones (rail2 spines, rail3 cores) in zone
 * 0xfe.  O(nodes + cables).
 */
#include <errno.h>
#include <stdlib.h>

#include "gen/gen_int.h"

#define RAIL_SHARED_ZONE 0xfe
#define RAIL_MAX 64

struct rail_shape {
	enum gen_style style;
	unsigned hosts, rails, radix;
	unsigned leaves;		/* per rail = scalable units */
	unsigned down, up;		/* leaf host ports, up-links */
	unsigned spines;		/* rail2: in all; rail3, rail-only: per rail */
	unsigned sdown, sup;		/* spine: leaf-side, core-side links */
	unsigned cores;			/* rail3: per core group */
	unsigned first, nrails;		/* rails built: [first, first + nrails) */
};

static const struct rail_preset {
	unsigned hosts, radix;
} rail_presets[3][2] = {
	/* [style][full] */
	{ { 16, 16 }, { 100, 40 } },	/* rail2 */
	{ { 8, 8 }, { 160, 40 } },	/* rail3 */
	{ { 8, 8 }, { 160, 40 } },	/* rail-only */
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

/* Spines per rail of rail3/rail-only; 0 and a recorded error if none fit. */
static unsigned rail_group(struct gen *g, const struct rail_shape *s)
{
	unsigned sp = g->o->spines, cap = s->radix / 2;
	const char *name = gen_style_name(s->style);

	if (sp && s->up % sp)
		return gen_fail(g, "%s: %u spines per rail do not divide the %u up-links of "
				"a leaf", name, sp, s->up), 0;
	/* rail-only spines have no core side: all ports when half do not do */
	if (s->style == GEN_STYLE_RAILONLY &&
	    (sp ? (uint64_t)s->leaves * (s->up / sp) > cap : !gen_split(s->up, s->leaves, cap)))
		cap = s->radix;
	if (!sp)
		sp = gen_split(s->up, s->leaves, cap);
	if (!sp || (uint64_t)s->leaves * (s->up / sp) > cap)
		return gen_fail(g, "%s: %u leaves per rail with %u up-links each do not fit "
				"on %u ports of the rail's spines", name, s->leaves, s->up,
				cap), 0;
	return sp;
}

static int rail_upper(struct gen *g, struct rail_shape *s)
{
	unsigned sp = g->o->spines;

	if (s->style == GEN_STYLE_RAIL2) {
		if (sp && s->up % sp)
			return gen_fail(g, "rail2: %u spines do not divide the %u up-links of a "
					"leaf", sp, s->up);
		if (!sp)
			sp = gen_split(s->up, s->rails * s->leaves, s->radix);
		if (!sp || (uint64_t)s->rails * s->leaves * (s->up / sp) > s->radix)
			return gen_fail(g, "rail2: %u leaves (%u rails x %u) with %u up-links "
					"each do not fit on %u-port spines; use style rail3",
					s->rails * s->leaves, s->rails, s->leaves, s->up,
					s->radix);
		s->spines = sp;
		s->sdown = s->rails * s->leaves * (s->up / sp);
		return 0;
	}
	s->spines = rail_group(g, s);
	if (!s->spines)
		return -EINVAL;
	s->sdown = s->leaves * (s->up / s->spines);
	if (s->style == GEN_STYLE_RAILONLY)
		return 0;
	s->sup = s->sdown;
	s->cores = gen_split(s->sup, s->rails, s->radix);
	if (!s->cores)
		return gen_fail(g, "rail3: %u rails exceed the %u ports of a core switch",
				s->rails, s->radix);
	return 0;
}

static int rail_shape(struct gen *g, struct rail_shape *s)
{
	const struct gen_opts *o = g->o;
	const struct rail_preset *p;
	uint64_t nodes;

	s->style = o->style == GEN_STYLE_DEFAULT ? GEN_STYLE_RAIL2 : o->style;
	if (s->style != GEN_STYLE_RAIL2 && s->style != GEN_STYLE_RAIL3 &&
	    s->style != GEN_STYLE_RAILONLY)
		return gen_fail(g, "rail: style %s does not apply (rail2, rail3, rail-only)",
				gen_style_name(s->style));
	p = &rail_presets[s->style - GEN_STYLE_RAIL2][o->full ? 1 : 0];
	s->hosts = o->hosts ? o->hosts : p->hosts;
	s->rails = o->rails ? o->rails : 8;
	s->radix = o->radix ? o->radix : p->radix;
	if (s->rails > RAIL_MAX)
		return gen_fail(g, "rail: %u rails, at most %u", s->rails, RAIL_MAX);
	if (s->radix < 2 || s->radix >= TOPO_MAX_PORTS)
		return gen_fail(g, "rail: radix %u out of range (2..%u)", s->radix,
				TOPO_MAX_PORTS - 1);
	s->first = 0;
	s->nrails = s->rails;
	if (s->style == GEN_STYLE_RAILONLY) {
		if (o->rail >= s->rails)
			return gen_fail(g, "rail-only: no rail %u (rails 0..%u)", o->rail,
					s->rails - 1);
		s->first = o->rail;
		s->nrails = 1;
	}
	s->leaves = o->leaves ? o->leaves : div_up(s->hosts, s->radix / 2);
	if (s->leaves > s->hosts)
		return gen_fail(g, "rail: %u leaves per rail for %u hosts leave a leaf empty",
				s->leaves, s->hosts);
	s->down = div_up(s->hosts, s->leaves);
	s->up = s->down;
	if (s->down + s->up > s->radix)
		return gen_fail(g, "rail: a leaf needs %u host ports and %u up-links, but has "
				"%u ports", s->down, s->up, s->radix);
	if (rail_upper(g, s))
		return -EINVAL;
	nodes = (uint64_t)s->nrails * (s->hosts + s->leaves) +
		(s->style == GEN_STYLE_RAIL2 ? s->spines :
		 (uint64_t)s->nrails * s->spines + (uint64_t)s->spines * s->cores);
	if (nodes > TOPO_MAX_UCAST_LID)
		return gen_fail(g, "rail: %llu nodes need more than the %u unicast LIDs",
				(unsigned long long)nodes, TOPO_MAX_UCAST_LID);
	return 0;
}

/* Leaves by (rail, SU), spines by (rail, index) or shared, cores by (group, index). */
static int rail_switches(struct gen *g, const struct rail_shape *s, int *leaf, int *spine,
			 int *core)
{
	const char *m = model(s->radix);

	for (unsigned r = 0; r < s->nrails; r++) {
		unsigned k = s->first + r;

		for (unsigned l = 0; l < s->leaves; l++)
			leaf[r * s->leaves + l] = gen_switch(g, k, s->radix, 0,
							     "MF0;su%02u-r%u-leaf:%s/U1",
							     l + 1, k, m);
		for (unsigned j = 0; j < s->spines && s->style != GEN_STYLE_RAIL2; j++)
			spine[r * s->spines + j] = gen_switch(g, k, s->radix, 0,
							      "MF0;r%u-spine%02u:%s/U1",
							      k, j + 1, m);
	}
	for (unsigned j = 0; j < s->spines && s->style == GEN_STYLE_RAIL2; j++)
		spine[j] = gen_switch(g, RAIL_SHARED_ZONE, s->radix, 0, "MF0;spine%02u:%s/U1",
				      j + 1, m);
	for (unsigned j = 0; j < s->spines && s->style == GEN_STYLE_RAIL3; j++)
		for (unsigned c = 0; c < s->cores; c++)
			core[j * s->cores + c] = gen_switch(g, RAIL_SHARED_ZONE, s->radix, 0,
							    "MF0;core-g%02u-%02u:%s/U1",
							    j + 1, c + 1, m);
	return g->failed ? -EINVAL : 0;
}

/*
 * HCA k of every host, in host order per rail, so that its GUID sequence
 * in zone k is the host number: clearing the zone field then gives the
 * GUID of the host's mlx5_0, its system image GUID (see gen_int.h).
 */
static int rail_hosts(struct gen *g, const struct rail_shape *s, const int *leaf)
{
	for (unsigned r = 0; r < s->nrails; r++) {
		unsigned k = s->first + r;

		for (unsigned l = 0; l < s->leaves; l++) {
			unsigned h0 = share(l, s->hosts, s->leaves);

			for (unsigned h = h0; h < share(l + 1, s->hosts, s->leaves); h++) {
				int ca = gen_ca(g, k, 1, 0, "gpu%03u mlx5_%u", h + 1, k);

				if (ca < 0)
					return -EINVAL;
				g->nodes[ca].sysguid = g->nodes[ca].guid &
						       ~(0xffULL << GEN_ZONE_SHIFT);
				if (gen_cable(g, ca, 1, leaf[r * s->leaves + l], h - h0 + 1))
					return -EINVAL;
			}
		}
	}
	return 0;
}

static int rail_cables(struct gen *g, const struct rail_shape *s, const int *leaf,
		       const int *spine, const int *core, unsigned *next)
{
	unsigned sp = s->spines, *cnext = next + s->nrails * sp;

	if (s->style == GEN_STYLE_RAIL2)
		return gen_wire(g, leaf, s->rails * s->leaves, s->down + 1, spine, sp,
				s->up / sp, next);
	for (unsigned r = 0; r < s->nrails; r++)
		if (gen_wire(g, leaf + r * s->leaves, s->leaves, s->down + 1, spine + r * sp,
			     sp, s->up / sp, next + r * sp))
			return -EINVAL;
	for (unsigned r = 0; r < s->nrails && s->style == GEN_STYLE_RAIL3; r++)
		for (unsigned j = 0; j < sp; j++)
			if (gen_wire(g, spine + r * sp + j, 1, s->sdown + 1, core + j * s->cores,
				     s->cores, s->sup / s->cores, cnext + j * s->cores))
				return -EINVAL;
	return 0;
}

/**
 * gen_rail - rail-optimized (rail2, rail3) or rail-only GPU fabric (see the
 * top of this file)
 * @g: the generator, options in g->o (style, hosts, rails, radix, leaves,
 *     spines, rail)
 *
 * Return: 0, or -EINVAL with the reason recorded (gen_fail) when the
 * options cannot be satisfied.
 */
int gen_rail(struct gen *g)
{
	struct rail_shape s = { 0 };
	size_t nleaf, nsp, nsw;
	unsigned *next;
	int *sw, rc;

	if (rail_shape(g, &s))
		return -EINVAL;
	nleaf = (size_t)s.nrails * s.leaves;
	nsp = s.style == GEN_STYLE_RAIL2 ? s.spines : (size_t)s.nrails * s.spines;
	nsw = nleaf + nsp + (size_t)s.spines * s.cores;
	sw = malloc(nsw * sizeof(*sw));
	next = malloc((nsw - nleaf + 1) * sizeof(*next));
	if (!sw || !next) {
		free(sw);
		free(next);
		return gen_fail(g, "out of memory");
	}
	for (size_t i = 0; i < nsw - nleaf; i++)
		next[i] = 1;
	rc = rail_switches(g, &s, sw, sw + nleaf, sw + nleaf + nsp);
	if (!rc)
		rc = rail_hosts(g, &s, sw);
	if (!rc)
		rc = rail_cables(g, &s, sw, sw + nleaf, sw + nleaf + nsp, next);
	free(sw);
	free(next);
	return rc ? -EINVAL : 0;
}

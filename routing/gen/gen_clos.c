// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen_clos.c - the 2-level Clos ("800-port frame") every frame-based family
 * is made of, and the frame and multiframe families.
 *
 * One Clos (gen_clos): S spines and L leaves of R ports.  Leaf ports
 * 1..D go down (hosts, bridges, inter-frame cables), ports D+1..R go up:
 * up-link k = l x (R - D) + u of leaf l (u = 0..R-D-1) goes to spine
 * k % S, spine port k / S + 1.  With the preset shape (L = R, S = R - D)
 * that is exactly one link from every leaf to every spine, and spine s
 * port l + 1 is leaf l.  Hosts take "slots": slot i is leaf i % L, port
 * i / L + 1 (gen_clos_slot), so a class of hosts given consecutive slots is
 * spread evenly over the leaves, as Fire-Flyer did on purpose for static
 * routing balance.
 *
 * Styles: director - every ASIC of a frame shares the chassis system image
 * GUID (gen_chassis_guid(zone)) and is named like a CS8500 ASIC, leaf l
 * "MF0;<chassis>:MCS8500/L<l/2+1>/U<l%2+1>" (two ASICs per leaf module),
 * spine s ".../S<s+1>/U1"; discrete - 1U switches with their own system
 * GUIDs, "MF0;<name>-leaf<l+1>:MQM8700/U1" and "...-spine<s+1>...".
 *
 * frame: one Clos in zone 0 ("frame0").  Presets:
 *   full   R 40, 20 spines x 40 leaves, 20 down / 20 up per leaf
 *          (800 host ports): 792 compute + 8 management
 *          = 60 switches, 800 CAs, 1600 links
 *   small  R 8, 4 spines x 8 leaves, 4 down / 4 up (32 host ports):
 *          30 compute + 2 management = 12 switches, 32 CAs, 64 links
 * Compute defaults to every free down-port (--hosts is a synonym).
 *
 * multiframe: M frames (default 4, zone f = frame f, chassis "frame<f>"),
 * each as above, joined as a full mesh by inter_links leaf-to-leaf cables
 * per frame pair (full 4, small 2), and no third tier: inter-frame cables
 * take leaf down-ports (a full frame has no free spine port), after the
 * compute and management slots.  Per frame: full 780 compute + 8 mgmt +
 * 12 inter-frame ports = 800; small 24 + 2 + 6 = 32.
 *
 * Names: compute "cnNNNN mlx5_0", management "mgNNN mlx5_0", numbered from
 * 1 across all frames.  O(nodes + cables).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"

#define CLOS_MAX_SWITCHES 1024	/* spines or leaves of one Clos */
#define MF_MAX_FRAMES 64

/* The management hosts per zone/frame of the frame families' presets. */
static unsigned preset_mgmt(const struct gen_opts *o, unsigned full, unsigned small)
{
	return o->mgmt ? o->mgmt : o->full ? full : small;
}

int gen_clos_shape(struct gen *g, struct gen_clos *c, unsigned zone, bool director,
		   const char *name)
{
	const struct gen_opts *o = g->o;
	unsigned oversub = o->oversub ? o->oversub : 1;
	unsigned long up, per_spine;

	c->zone = zone;
	c->director = director;
	c->name = name;
	c->radix = o->radix ? o->radix : o->full ? 40 : 8;
	if (c->radix < 2 || c->radix >= TOPO_MAX_PORTS)
		return gen_fail(g, "radix %u out of range (2..%u)", c->radix, TOPO_MAX_PORTS - 1);
	if (oversub > c->radix)
		return gen_fail(g, "oversubscription %u:1 needs more than %u ports", oversub,
				c->radix);
	c->down = (unsigned)((unsigned long)c->radix * oversub / (oversub + 1));
	if (c->down < 1 || c->down >= c->radix)
		return gen_fail(g, "radix %u with oversubscription %u:1 leaves no down or up port",
				c->radix, oversub);
	up = c->radix - c->down;
	c->leaves = o->leaves ? o->leaves : c->radix;
	c->spines = o->spines ? o->spines : (unsigned)up;
	if (c->leaves > CLOS_MAX_SWITCHES || c->spines > CLOS_MAX_SWITCHES)
		return gen_fail(g, "%u spines x %u leaves: at most %u of each", c->spines,
				c->leaves, CLOS_MAX_SWITCHES);
	per_spine = (c->leaves * up + c->spines - 1) / c->spines;
	if (per_spine > c->radix)
		return gen_fail(g, "%u leaves x %lu up-links need %lu ports on each of %u spines "
				"(radix %u)", c->leaves, up, per_spine, c->spines, c->radix);
	return 0;
}

static int clos_switch(struct gen *g, const struct gen_clos *c, bool spine, unsigned i)
{
	uint64_t sys = c->director ? gen_chassis_guid(g, c->zone) : 0;

	if (c->director && spine)
		return gen_switch(g, c->zone, c->radix, sys, "MF0;%s:MCS8500/S%02u/U1", c->name,
				  i + 1);
	if (c->director)
		return gen_switch(g, c->zone, c->radix, sys, "MF0;%s:MCS8500/L%02u/U%u", c->name,
				  i / 2 + 1, i % 2 + 1);
	return gen_switch(g, c->zone, c->radix, 0, "MF0;%s-%s%02u:MQM8700/U1", c->name,
			  spine ? "spine" : "leaf", i + 1);
}

/**
 * gen_clos - declare one 2-level Clos and cable its leaves to its spines
 * @c: shape (see gen_clos_shape); c->leaf[] and c->spine[] get node ids.
 * Return: 0 or -EINVAL (the reason is recorded with gen_fail).
 */
int gen_clos(struct gen *g, struct gen_clos *c)
{
	unsigned up = c->radix - c->down;

	if (!c->spines || !c->leaves || c->down >= c->radix)
		return gen_fail(g, "Clos of %u spines x %u leaves, %u of %u ports down: bad shape",
				c->spines, c->leaves, c->down, c->radix);
	for (unsigned s = 0; s < c->spines; s++)
		if ((c->spine[s] = clos_switch(g, c, true, s)) < 0)
			return -EINVAL;
	for (unsigned l = 0; l < c->leaves; l++)
		if ((c->leaf[l] = clos_switch(g, c, false, l)) < 0)
			return -EINVAL;
	for (unsigned l = 0; l < c->leaves; l++) {
		for (unsigned u = 0; u < up; u++) {
			unsigned long k = (unsigned long)l * up + u;

			if (gen_cable(g, c->leaf[l], c->down + 1 + u, c->spine[k % c->spines],
				      (unsigned)(k / c->spines) + 1))
				return -EINVAL;
		}
	}
	return 0;
}

int gen_clos_slot(const struct gen_clos *c, unsigned i, unsigned *port)
{
	if (i / c->leaves >= c->down)
		return -1;
	*port = i / c->leaves + 1;
	return c->leaf[i % c->leaves];
}

int gen_clos_hosts(struct gen *g, const struct gen_clos *c, unsigned *slot, unsigned n,
		   const char *prefix, unsigned width, unsigned first)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned port;
		int leaf = gen_clos_slot(c, *slot, &port), h;

		if (leaf < 0)
			return gen_fail(g, "%s: no free leaf port for host %s%0*u", c->name, prefix,
					(int)width, first + i);
		h = gen_ca(g, c->zone, 1, 0, "%s%0*u mlx5_0", prefix, (int)width, first + i);
		if (h < 0 || gen_cable(g, leaf, port, h, 1))
			return -EINVAL;
		(*slot)++;
	}
	return 0;
}

/* Director or discrete; anything else is not a frame style. */
static int frame_style(struct gen *g, bool *director)
{
	enum gen_style s = g->o->style;

	if (s != GEN_STYLE_DEFAULT && s != GEN_STYLE_DIRECTOR && s != GEN_STYLE_DISCRETE)
		return gen_fail(g, "%s: style '%s' does not apply (director or discrete)",
				gen_family_name(g->o->family), gen_style_name(s));
	*director = s != GEN_STYLE_DISCRETE;
	return 0;
}

/* Allocate c->leaf/c->spine for a shape already filled in. */
static int clos_alloc(struct gen *g, struct gen_clos *c)
{
	c->leaf = calloc(c->leaves, sizeof(*c->leaf));
	c->spine = calloc(c->spines, sizeof(*c->spine));
	if (!c->leaf || !c->spine)
		return gen_fail(g, "out of memory");
	return 0;
}

static void clos_release(struct gen_clos *c)
{
	free(c->leaf);
	free(c->spine);
	c->leaf = c->spine = NULL;
}

/* Do @hosts endpoints (plus the switches) fit the unicast LID space? */
static int check_lids(struct gen *g, unsigned long switches, unsigned long hosts)
{
	if (switches + hosts > TOPO_MAX_UCAST_LID)
		return gen_fail(g, "%lu switches + %lu CAs exceed the %u unicast LIDs", switches,
				hosts, TOPO_MAX_UCAST_LID);
	return 0;
}

/**
 * gen_frame - one 2-level Clos, director or discrete (see the top comment)
 * Return: 0 or -EINVAL.
 */
int gen_frame(struct gen *g)
{
	const struct gen_opts *o = g->o;
	struct gen_clos c = { 0 };
	unsigned long ports;
	unsigned mgmt, compute, slot = 0;
	bool director;
	int rc;

	if (frame_style(g, &director) || gen_clos_shape(g, &c, 0, director, "frame0"))
		return -EINVAL;
	ports = (unsigned long)c.leaves * c.down;
	mgmt = preset_mgmt(o, 8, 2);
	compute = o->compute ? o->compute : o->hosts;
	if (!compute)
		compute = ports > mgmt ? (unsigned)(ports - mgmt) : 0;
	if ((unsigned long)compute + mgmt > ports)
		return gen_fail(g, "frame: %u compute + %u management hosts do not fit %lu leaf "
				"down-ports (%u leaves x %u)", compute, mgmt, ports, c.leaves,
				c.down);
	if (check_lids(g, c.spines + c.leaves, (unsigned long)compute + mgmt) ||
	    clos_alloc(g, &c)) {
		clos_release(&c);
		return -EINVAL;
	}
	rc = gen_clos(g, &c);
	if (!rc)
		rc = gen_clos_hosts(g, &c, &slot, compute, "cn", 4, 1);
	if (!rc)
		rc = gen_clos_hosts(g, &c, &slot, mgmt, "mg", 3, 1);
	clos_release(&c);
	return rc;
}

/* Cable frame pairs leaf to leaf: a full mesh, @inter links per pair. */
static int mf_mesh(struct gen *g, struct gen_clos *fr, unsigned m, unsigned inter,
		   unsigned *slot)
{
	for (unsigned a = 0; a < m; a++) {
		for (unsigned b = a + 1; b < m; b++) {
			for (unsigned k = 0; k < inter; k++) {
				unsigned pa = 0, pb = 0;
				int la = gen_clos_slot(&fr[a], slot[a]++, &pa);
				int lb = gen_clos_slot(&fr[b], slot[b]++, &pb);

				if (la < 0 || lb < 0)
					return gen_fail(g, "multiframe: no leaf port left for "
							"link %u of frames %u-%u", k, a, b);
				if (gen_cable(g, la, pa, lb, pb))
					return -EINVAL;
			}
		}
	}
	return 0;
}

/* Frames and their hosts; slot[f] ends where the inter-frame ports start. */
static int mf_frames(struct gen *g, struct gen_clos *fr, unsigned m, unsigned compute,
		     unsigned mgmt, unsigned *slot)
{
	for (unsigned f = 0; f < m; f++)
		if (clos_alloc(g, &fr[f]) || gen_clos(g, &fr[f]))
			return -EINVAL;
	for (unsigned f = 0; f < m; f++)
		if (gen_clos_hosts(g, &fr[f], &slot[f], compute, "cn", 4, f * compute + 1) ||
		    gen_clos_hosts(g, &fr[f], &slot[f], mgmt, "mg", 3, f * mgmt + 1))
			return -EINVAL;
	return 0;
}

/**
 * gen_multiframe - M frames joined leaf to leaf, no third tier
 * Return: 0 or -EINVAL.
 */
int gen_multiframe(struct gen *g)
{
	const struct gen_opts *o = g->o;
	unsigned m = o->frames ? o->frames : 4, inter = o->inter_links ? o->inter_links :
							o->full ? 4 : 2;
	unsigned mgmt = preset_mgmt(o, 8, 2), compute, slot[MF_MAX_FRAMES] = { 0 };
	unsigned long ports, reserved;
	struct gen_clos fr[MF_MAX_FRAMES];
	char name[MF_MAX_FRAMES][16];
	bool director;
	int rc = -EINVAL;

	if (m < 2 || m > MF_MAX_FRAMES)
		return gen_fail(g, "multiframe: %u frames out of range (2..%u)", m, MF_MAX_FRAMES);
	if (frame_style(g, &director))
		return -EINVAL;
	memset(fr, 0, sizeof(fr));
	for (unsigned f = 0; f < m; f++) {
		snprintf(name[f], sizeof(name[f]), "frame%u", f);
		if (gen_clos_shape(g, &fr[f], f, director, name[f]))
			return -EINVAL;
	}
	ports = (unsigned long)fr[0].leaves * fr[0].down;
	reserved = (unsigned long)(m - 1) * inter;
	compute = o->compute ? o->compute : o->hosts;
	if (!compute)
		compute = ports > mgmt + reserved ? (unsigned)(ports - mgmt - reserved) : 0;
	if ((unsigned long)compute + mgmt + reserved > ports)
		gen_fail(g, "multiframe: %u compute + %u management hosts + %lu inter-frame "
			 "links (%u per pair) do not fit %lu leaf down-ports per frame",
			 compute, mgmt, reserved, inter, ports);
	else if (!check_lids(g, (unsigned long)m * (fr[0].spines + fr[0].leaves),
			     (unsigned long)m * (compute + mgmt)) &&
		 !mf_frames(g, fr, m, compute, mgmt, slot))
		rc = mf_mesh(g, fr, m, inter, slot);
	for (unsigned f = 0; f < m; f++)
		clos_release(&fr[f]);
	return rc;
}

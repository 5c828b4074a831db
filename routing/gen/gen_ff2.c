// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen_ff2.c - the Fire-Flyer 2 two-zone converged fabric (arXiv 2408.14158
 * §III-B; ref/fireflyer-facts.md §1.2).
 *
 * Two zones, each one director frame (gen_clos, chassis "zone0"/"zone1",
 * CS8500-style ASIC names, one system image GUID per chassis): S spines x
 * L leaves of R ports, leaf ports 1..D down, D+1..R up to the spines.
 * Per zone, in this order of host slots (slot i = leaf i % L, port
 * i / L + 1, so every class is spread evenly over the leaves, per-leaf
 * counts differing by at most one - Fire-Flyer did this on purpose for
 * static routing balance):
 *   compute      C hosts, "cnNNNN mlx5_0" (zone 0: 1..C, zone 1: C+1..2C)
 *   storage      T servers, "stNNN mlx5_Z" on zone Z (the same slot, so
 *                the same leaf index, in both zones)
 *   management   M hosts, "mgNNN mlx5_0" (zone 0: 1..M, zone 1: M+1..2M)
 *   inter-zone   I leaf ports
 * A storage server is two one-port CA nodes, one per zone, sharing a
 * system image GUID (the node GUID of its mlx5_0): that is what a server
 * with two HCAs looks like to ibsim, OpenSM and ibnetdiscover (each HCA its
 * own node, NodeDescription and LID), and it keeps "stNNN mlx5_Z" names.
 *
 * The zones are joined by I links per zone (--inter-links, the cut
 * between the zones in links):
 *   bridge     two extra R-port switches "MF0;ff2-bridge01/02:MQM8700/U1"
 *              (GUID zone field 2); inter-zone port i of zone Z goes to
 *              bridge i % 2, port Z x ceil(I/2) + i/2 + 1.  2(S+L)+2
 *              switches.
 *   leaf2leaf  inter-zone port i of zone 0 cabled to inter-zone port i
 *              of zone 1 (the same leaf index).  2(S+L) switches.
 *
 * Port budget of the full preset (R 40, S 20, L 40, D 20, so 800 leaf
 * down-ports per zone): C 600 + T 180 + M 4 + I 16 = 800, every down-port
 * used.  Per leaf: 15 compute; 5 storage on leaves 0..19 and 4 on 20..39;
 * one management host on leaves 20..23 and one inter-zone port on
 * leaves 24..39; so every leaf has 20 down and 20 up.  Each bridge takes 8
 * links from each zone (16 of its 40 ports).  Full bridge fabric: 122
 * switches (2 x 60 + 2), 1568 CAs (1200 compute + 360 storage HCAs + 8
 * mgmt), 1600 leaf-spine + 32 bridge + 1568 host = 3200 links; leaf2leaf:
 * 120 switches, 1600 + 16 + 1568 = 3184 links.
 * Small preset (R 8, 4 x 8, D 4: 32 down-ports per zone): C 20 + T 6 +
 * M 2 + I 4 = 32; bridge: 26 switches, 56 CAs, 128 links.
 * O(nodes + cables).
 */
#include <errno.h>
#include <stdlib.h>

#include "gen/gen_int.h"

#define FF2_BRIDGES 2
#define FF2_BRIDGE_ZONE 2	/* GUID zone field of the bridges */

struct ff2_plan {
	unsigned compute, storage, mgmt, inter;
	bool bridge;
	unsigned slot[2];	/* next host slot per zone */
	struct gen_clos z[2];
};

static int ff2_plan(struct gen *g, struct ff2_plan *p)
{
	const struct gen_opts *o = g->o;
	enum gen_style s = o->style;
	unsigned long ports, need, per_bridge;

	if (s != GEN_STYLE_DEFAULT && s != GEN_STYLE_BRIDGE && s != GEN_STYLE_LEAF2LEAF)
		return gen_fail(g, "ff2: style '%s' does not apply (bridge or leaf2leaf)",
				gen_style_name(s));
	p->bridge = s != GEN_STYLE_LEAF2LEAF;
	p->compute = o->compute ? o->compute : o->hosts ? o->hosts : o->full ? 600 : 20;
	p->storage = o->storage ? o->storage : o->full ? 180 : 6;
	p->mgmt = o->mgmt ? o->mgmt : o->full ? 4 : 2;
	p->inter = o->inter_links ? o->inter_links : o->full ? 16 : 4;
	if (gen_clos_shape(g, &p->z[0], 0, true, "zone0") ||
	    gen_clos_shape(g, &p->z[1], 1, true, "zone1"))
		return -EINVAL;
	ports = (unsigned long)p->z[0].leaves * p->z[0].down;
	need = (unsigned long)p->compute + p->storage + p->mgmt + p->inter;
	if (need > ports)
		return gen_fail(g, "ff2: %u compute + %u storage + %u management + %u inter-zone "
				"ports = %lu do not fit the %lu leaf down-ports of a zone "
				"(%u leaves x %u)", p->compute, p->storage, p->mgmt, p->inter,
				need, ports, p->z[0].leaves, p->z[0].down);
	per_bridge = 2 * ((p->inter + 1) / 2);
	if (p->bridge && per_bridge > p->z[0].radix)
		return gen_fail(g, "ff2: %u inter-zone links per zone need %lu ports on each "
				"bridge (radix %u)", p->inter, per_bridge, p->z[0].radix);
	if (2ul * (p->z[0].spines + p->z[0].leaves) + FF2_BRIDGES +
	    2ul * (p->compute + p->storage + p->mgmt) > TOPO_MAX_UCAST_LID)
		return gen_fail(g, "ff2: more nodes than the %u unicast LIDs", TOPO_MAX_UCAST_LID);
	return 0;
}

/* Storage server k: mlx5_0 in zone 0, mlx5_1 in zone 1, one system image GUID. */
static int ff2_storage(struct gen *g, struct ff2_plan *p)
{
	for (unsigned k = 0; k < p->storage; k++) {
		uint64_t sys = 0;

		for (unsigned z = 0; z < 2; z++) {
			unsigned port;
			int leaf = gen_clos_slot(&p->z[z], p->slot[z]++, &port);
			int h = gen_ca(g, z, 1, sys, "st%03u mlx5_%u", k + 1, z);

			if (leaf < 0 || h < 0 || gen_cable(g, leaf, port, h, 1))
				return -EINVAL;
			sys = g->nodes[h].guid;
		}
	}
	return 0;
}

/* The inter-zone links: through the two bridges, or leaf to leaf. */
static int ff2_join(struct gen *g, struct ff2_plan *p)
{
	unsigned half = (p->inter + 1) / 2, radix = p->z[0].radix;
	int br[FF2_BRIDGES];

	for (unsigned b = 0; p->bridge && b < FF2_BRIDGES; b++)
		if ((br[b] = gen_switch(g, FF2_BRIDGE_ZONE, radix, 0,
					"MF0;ff2-bridge%02u:MQM8700/U1", b + 1)) < 0)
			return -EINVAL;
	for (unsigned i = 0; i < p->inter; i++) {
		unsigned port[2];
		int leaf[2];

		for (unsigned z = 0; z < 2; z++)
			if ((leaf[z] = gen_clos_slot(&p->z[z], p->slot[z]++, &port[z])) < 0)
				return gen_fail(g, "ff2: no leaf port for inter-zone link %u", i);
		if (!p->bridge) {
			if (gen_cable(g, leaf[0], port[0], leaf[1], port[1]))
				return -EINVAL;
			continue;
		}
		for (unsigned z = 0; z < 2; z++)
			if (gen_cable(g, leaf[z], port[z], br[i % 2], z * half + i / 2 + 1))
				return -EINVAL;
	}
	return 0;
}

static int ff2_build(struct gen *g, struct ff2_plan *p)
{
	for (unsigned z = 0; z < 2; z++) {
		p->z[z].leaf = calloc(p->z[z].leaves, sizeof(int));
		p->z[z].spine = calloc(p->z[z].spines, sizeof(int));
		if (!p->z[z].leaf || !p->z[z].spine)
			return gen_fail(g, "out of memory");
		if (gen_clos(g, &p->z[z]))
			return -EINVAL;
	}
	for (unsigned z = 0; z < 2; z++)
		if (gen_clos_hosts(g, &p->z[z], &p->slot[z], p->compute, "cn", 4,
				   z * p->compute + 1))
			return -EINVAL;
	if (ff2_storage(g, p))
		return -EINVAL;
	for (unsigned z = 0; z < 2; z++)
		if (gen_clos_hosts(g, &p->z[z], &p->slot[z], p->mgmt, "mg", 3, z * p->mgmt + 1))
			return -EINVAL;
	return ff2_join(g, p);
}

/**
 * gen_ff2 - Fire-Flyer 2: two director zones, dual-homed storage, bridge
 * or leaf-to-leaf inter-zone links (see the top comment for the numbers)
 * Return: 0 or -EINVAL.
 */
int gen_ff2(struct gen *g)
{
	struct ff2_plan p = { 0 };
	int rc = ff2_plan(g, &p);

	if (!rc)
		rc = ff2_build(g, &p);
	for (unsigned z = 0; z < 2; z++) {
		free(p.z[z].leaf);
		free(p.z[z].spine);
	}
	return rc;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen_hetero.c - the hetero family: a fast frame with low-speed subtrees
 * for other accelerators cabled below its leaves or spines, as Fire-Flyer
 * runs them ("other low-speed subtrees on a typical fat tree").
 *
 * The frame is one 2-level Clos (gen_clos) of 4x HDR links, with fewer
 * leaves than a spine has ports so that spines keep free ports: full R 40,
 * 20 spines x 36 leaves (4 free ports per spine); small R 8, 4 spines x 6
 * leaves (2 free per spine).  Each subtree is one switch ("MF0;subNN:
 * MSB7800/U1", R ports) with its own hosts ("infNNN mlx5_0") and
 * sub_uplinks up-links to distinct fast switches, every link at the
 * subtree's rate (default 4x EDR):
 *   below a leaf:  up-link j of subtree i goes to leaf (i x u + j) mod L,
 *                  on the leaf's highest free down-port;
 *   below a spine: to spine (i x u + j) mod S, on its lowest free port.
 * Style mixed (the default) alternates (subtree 0 below leaves, 1 below
 * spines, ...); below-leaf and below-spine put every subtree there.
 * Compute hosts ("cnNNNN mlx5_0") take the free leaf down-ports in slot
 * order (gen_clos_slot), so they stay spread evenly over the leaves.
 * Presets: full 8 subtrees of 16 hosts, small 2 of 3, 2 up-links each.
 * Trained-down links and slow HCAs are degradation options of every
 * family (gen.c).  O(nodes + cables).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_int.h"

struct hetero {
	struct gen_clos c;
	unsigned n, hosts, up;	/* subtrees, hosts per subtree, up-links per subtree */
	uint8_t width, speed;	/* the subtrees' links */
	unsigned *leaf_top;	/* [leaves] highest free down-port, counting down */
	unsigned *spine_next;	/* [spines] lowest free port, counting up */
	uint8_t *taken;		/* [leaves * down] down-port used by a subtree */
};

/* Cable at the subtrees' rate. */
static int slow_cable(struct gen *g, const struct hetero *h, int a, unsigned pa, int b,
		      unsigned pb)
{
	if (gen_cable(g, a, pa, b, pb))
		return -1;
	g->cables[g->ncables - 1].width = h->width;
	g->cables[g->ncables - 1].speed = h->speed;
	return 0;
}

/* The fast switch and port that up-link @j of subtree @i lands on. */
static int uplink_end(struct gen *g, struct hetero *h, unsigned i, unsigned j, unsigned *port)
{
	const struct gen_clos *c = &h->c;
	bool spine = g->o->style == GEN_STYLE_BELOW_SPINE ||
		     (g->o->style != GEN_STYLE_BELOW_LEAF && i % 2);
	unsigned k = i * h->up + j, l = k % c->leaves, s = k % c->spines;

	if (spine) {
		if (h->spine_next[s] > c->radix)
			return gen_fail(g, "hetero: spine %u has no free port for subtree %u", s,
					i), -1;
		*port = h->spine_next[s]++;
		return c->spine[s];
	}
	if (h->leaf_top[l] < 1)
		return gen_fail(g, "hetero: leaf %u has no free port for subtree %u", l, i), -1;
	*port = h->leaf_top[l]--;
	h->taken[(size_t)l * c->down + *port - 1] = 1;
	return c->leaf[l];
}

static int subtree(struct gen *g, struct hetero *h, unsigned i)
{
	unsigned radix = h->c.radix, first = i * h->hosts + 1;
	int sw;

	if (h->hosts + h->up > radix)
		return gen_fail(g, "hetero: %u hosts + %u up-links exceed a subtree switch's %u "
				"ports", h->hosts, h->up, radix);
	sw = gen_switch(g, 0, radix, 0, "MF0;sub%02u:MSB7800/U1", i + 1);
	if (sw < 0)
		return -EINVAL;
	for (unsigned j = 0; j < h->up; j++) {
		unsigned port;
		int fast = uplink_end(g, h, i, j, &port);

		if (fast < 0 || slow_cable(g, h, sw, radix - j, fast, port))
			return -EINVAL;
	}
	for (unsigned k = 0; k < h->hosts; k++) {
		int ca = gen_ca(g, 0, 1, 0, "inf%03u mlx5_0", first + k);

		if (ca < 0 || slow_cable(g, h, sw, k + 1, ca, 1))
			return -EINVAL;
	}
	return 0;
}

/* Compute hosts on the leaf down-ports the subtrees left, in slot order. */
static int compute_hosts(struct gen *g, const struct hetero *h)
{
	const struct gen_clos *c = &h->c;
	unsigned long free_ports = 0;
	unsigned want, port, made = 0;

	for (size_t i = 0; i < (size_t)c->leaves * c->down; i++)
		free_ports += !h->taken[i];
	want = g->o->compute ? g->o->compute : g->o->hosts ? g->o->hosts : (unsigned)free_ports;
	if (want > free_ports)
		return gen_fail(g, "hetero: %u compute hosts do not fit the %lu free leaf "
				"down-ports", want, free_ports);
	for (unsigned slot = 0; made < want; slot++) {
		int leaf = gen_clos_slot(c, slot, &port), ca;

		if (h->taken[(size_t)(slot % c->leaves) * c->down + port - 1])
			continue;
		ca = gen_ca(g, 0, 1, 0, "cn%04u mlx5_0", ++made);
		if (ca < 0 || gen_cable(g, leaf, port, ca, 1))
			return -EINVAL;
	}
	return 0;
}

static int hetero_shape(struct gen *g, struct hetero *h)
{
	const struct gen_opts *o = g->o;
	enum gen_style s = o->style;

	if (s != GEN_STYLE_DEFAULT && s != GEN_STYLE_MIXED && s != GEN_STYLE_BELOW_LEAF &&
	    s != GEN_STYLE_BELOW_SPINE)
		return gen_fail(g, "hetero: style '%s' does not apply (mixed, below-leaf, "
				"below-spine)", gen_style_name(s));
	if (gen_clos_shape(g, &h->c, 0, false, "hetero"))
		return -EINVAL;
	if (!o->leaves)
		h->c.leaves = o->full ? 36 : 6;
	h->n = o->subtrees ? o->subtrees : o->full ? 8 : 2;
	h->hosts = o->sub_hosts ? o->sub_hosts : o->full ? 16 : 3;
	h->up = o->sub_uplinks ? o->sub_uplinks : 2;
	h->width = o->sub_width ? o->sub_width : 4;
	h->speed = o->sub_speed ? o->sub_speed : TOPO_SPEED_EDR;
	if (!topo_width_valid(h->width) || h->speed >= TOPO_SPEED_COUNT)
		return gen_fail(g, "hetero: bad subtree rate %ux%s", h->width,
				topo_speed_name(h->speed));
	h->c.leaf = calloc(h->c.leaves, sizeof(*h->c.leaf));
	h->c.spine = calloc(h->c.spines, sizeof(*h->c.spine));
	h->leaf_top = calloc(h->c.leaves, sizeof(*h->leaf_top));
	h->spine_next = calloc(h->c.spines, sizeof(*h->spine_next));
	h->taken = calloc((size_t)h->c.leaves * h->c.down, 1);
	if (!h->c.leaf || !h->c.spine || !h->leaf_top || !h->spine_next || !h->taken)
		return gen_fail(g, "out of memory");
	for (unsigned l = 0; l < h->c.leaves; l++)
		h->leaf_top[l] = h->c.down;
	for (unsigned s2 = 0; s2 < h->c.spines; s2++)	/* gen_clos fills ports 1..used */
		h->spine_next[s2] = (h->c.leaves * (h->c.radix - h->c.down) + h->c.spines - 1) /
				    h->c.spines + 1;
	return 0;
}

/**
 * gen_hetero - a frame with low-speed subtrees (see the top comment)
 * Return: 0 or -EINVAL.
 */
int gen_hetero(struct gen *g)
{
	struct hetero h;
	int rc;

	memset(&h, 0, sizeof(h));
	rc = hetero_shape(g, &h);
	if (!rc)
		rc = gen_clos(g, &h.c);
	for (unsigned i = 0; !rc && i < h.n; i++)
		rc = subtree(g, &h, i);
	if (!rc)
		rc = compute_hosts(g, &h);
	free(h.c.leaf);
	free(h.c.spine);
	free(h.leaf_top);
	free(h.spine_next);
	free(h.taken);
	return rc;
}

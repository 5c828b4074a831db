// SPDX-License-Identifier: BSD-2-Clause
/*
 * gen.c - the generator's common part: node/cable collection, GUID plan,
 * seeded PRNG (splitmix64), degradation and SHARP ANs, and the final build
 * through struct topo_builder (which re-validates everything, so a
 * generator bug shows up as a diagnostic, not as a bad fabric).
 *
 * Degradation order: remove round(drop_links x switch-switch cables)
 * cables by a seeded partial Fisher-Yates shuffle; remove drop_switches
 * switches (and their cables) the same way; then swap the far ends of
 * `miscable` random pairs of remaining switch-switch cables.  O(N + C).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gen/gen_int.h"
#include "base/rng.h"
#include "base/util.h"

static const char *const family_names[GEN_FAMILY_COUNT] = {
	"frame", "ff2", "multiframe", "rail", "fattree", "hetero",
};

static const char *const style_names[GEN_STYLE_COUNT] = {
	"default", "director", "discrete", "bridge", "leaf2leaf", "rail2", "rail3", "rail-only",
	"mixed", "below-leaf", "below-spine",
};

const char *gen_family_name(enum gen_family f)
{
	return (unsigned)f < GEN_FAMILY_COUNT ? family_names[f] : "?";
}

int gen_family_parse(const char *s)
{
	for (int i = 0; i < GEN_FAMILY_COUNT; i++)
		if (!strcasecmp(s, family_names[i]))
			return i;
	return -1;
}

const char *gen_style_name(enum gen_style s)
{
	return (unsigned)s < GEN_STYLE_COUNT ? style_names[s] : "?";
}

int gen_style_parse(const char *s)
{
	for (int i = 0; i < GEN_STYLE_COUNT; i++)
		if (!strcasecmp(s, style_names[i]))
			return i;
	if (!strcasecmp(s, "railonly"))
		return GEN_STYLE_RAILONLY;
	return -1;
}

void gen_opts_init(struct gen_opts *o, enum gen_family family)
{
	memset(o, 0, sizeof(*o));
	o->family = family;
	o->seed = 1;
}

/* ---- collection ---------------------------------------------------------- */

int gen_fail(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(g->dl, DIAG_ERROR, "fabric", 0, 0, fmt, ap);
	va_end(ap);
	g->failed = true;
	return -EINVAL;
}

static int add_node(struct gen *g, uint8_t type, unsigned zone, unsigned nports,
		    uint64_t sysguid, const char *fmt, va_list ap)
{
	char desc[128];
	int n, kind = type == TOPO_NODE_SWITCH ? 0 : 1;
	uint64_t base = kind ? GEN_CA_OUI << 40 : GEN_SWITCH_OUI << 40;
	struct gen_node *gn;

	if (g->failed)
		return -1;
	if (zone > 254 || nports < 1 || nports > TOPO_MAX_PORTS ||
	    g->seq[kind][zone] >= GEN_SEQ_MAX)
		return gen_fail(g, "node %u of zone %u: %u ports out of range", g->nnodes, zone,
				nports), -1;
	n = vsnprintf(desc, sizeof(desc), fmt, ap);
	if (n < 0 || (size_t)n >= 64)
		return gen_fail(g, "NodeDescription too long (%d bytes, limit 63)", n), -1;
	if (ffr_grow((void **)&g->nodes, &g->capnodes, g->nnodes + 1, sizeof(*g->nodes)) ||
	    ffr_grow((void **)&g->strs, &g->capstrs, g->nstrs + (uint32_t)n + 1, 1))
		return gen_fail(g, "out of memory"), -1;
	gn = &g->nodes[g->nnodes];
	memset(gn, 0, sizeof(*gn));
	gn->type = type;
	gn->nports = (uint8_t)nports;
	gn->zone = (uint8_t)zone;
	gn->guid = base | (uint64_t)g->o->family << GEN_FAMILY_SHIFT |
		   (uint64_t)zone << GEN_ZONE_SHIFT | (uint64_t)(++g->seq[kind][zone]) << 4;
	gn->sysguid = sysguid ? sysguid : gn->guid;
	gn->desc = g->nstrs;
	memcpy(g->strs + g->nstrs, desc, (size_t)n + 1);
	g->nstrs += (uint32_t)n + 1;
	return (int)g->nnodes++;
}

int gen_switch(struct gen *g, unsigned zone, unsigned nports, uint64_t sysguid,
	       const char *fmt, ...)
{
	va_list ap;
	int id;

	va_start(ap, fmt);
	/* a SHARP AN needs a port of its own, the last one, as on a QM8700 (41) */
	id = add_node(g, TOPO_NODE_SWITCH, zone, nports + (g->o->sharp ? 1 : 0), sysguid, fmt, ap);
	va_end(ap);
	return id;
}

int gen_ca(struct gen *g, unsigned zone, unsigned nports, uint64_t sysguid, const char *fmt, ...)
{
	va_list ap;
	int id;

	va_start(ap, fmt);
	id = add_node(g, TOPO_NODE_CA, zone, nports, sysguid, fmt, ap);
	va_end(ap);
	return id;
}

uint64_t gen_chassis_guid(const struct gen *g, unsigned idx)
{
	return GEN_SWITCH_OUI << 40 | (uint64_t)g->o->family << GEN_FAMILY_SHIFT |
	       (uint64_t)GEN_CHASSIS_ZONE << GEN_ZONE_SHIFT | (uint64_t)(idx + 1) << 4;
}

int gen_cable(struct gen *g, int a, unsigned pa, int b, unsigned pb)
{
	struct gen_cable *c;

	if (g->failed)
		return -1;
	if (a < 0 || b < 0 || (uint32_t)a >= g->nnodes || (uint32_t)b >= g->nnodes ||
	    pa < 1 || pa > g->nodes[a].nports || pb < 1 || pb > g->nodes[b].nports)
		return gen_fail(g, "cable %d/%u - %d/%u: no such port", a, pa, b, pb), -1;
	if (ffr_grow((void **)&g->cables, &g->capcables, g->ncables + 1, sizeof(*g->cables)))
		return gen_fail(g, "out of memory"), -1;
	c = &g->cables[g->ncables++];
	memset(c, 0, sizeof(*c));
	c->a = (uint32_t)a;
	c->b = (uint32_t)b;
	c->pa = (uint8_t)pa;
	c->pb = (uint8_t)pb;
	c->width = 4;
	c->speed = TOPO_SPEED_HDR;
	return 0;
}

uint64_t gen_rand(struct gen *g)
{
	return ffr_rng_next(&g->rng);
}

uint32_t gen_pick(struct gen *g, uint32_t n)
{
	return ffr_rng_below(&g->rng, n);
}

/* ---- degradation ---------------------------------------------------------- */

static bool sw_sw(const struct gen *g, const struct gen_cable *c)
{
	return g->nodes[c->a].type == TOPO_NODE_SWITCH && g->nodes[c->b].type == TOPO_NODE_SWITCH &&
	       c->a != c->b;
}

/* Indices of live switch-switch cables (or live switches when @switches). */
static uint32_t candidates(const struct gen *g, bool switches, uint32_t *out)
{
	uint32_t n = 0;

	if (switches) {
		for (uint32_t i = 0; i < g->nnodes; i++)
			if (g->nodes[i].type == TOPO_NODE_SWITCH && !g->nodes[i].removed)
				out[n++] = i;
		return n;
	}
	for (uint32_t i = 0; i < g->ncables; i++)
		if (!g->cables[i].removed && sw_sw(g, &g->cables[i]))
			out[n++] = i;
	return n;
}

/* Move @k random members of v[0..n) to its front (partial Fisher-Yates). */
static void choose(struct gen *g, uint32_t *v, uint32_t n, uint32_t k)
{
	for (uint32_t i = 0; i < k && i < n; i++) {
		uint32_t j = i + gen_pick(g, n - i), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/*
 * Full-rate (4x HDR) cables, switch-switch or switch-host: trained-down
 * links (even picks 4x -> 1x, odd HDR -> EDR) and slow HCAs (4x EDR).
 */
static int slow_down(struct gen *g, uint32_t *v)
{
	const struct gen_opts *o = g->o;

	for (int hosts = 0; hosts < 2; hosts++) {
		uint32_t n = 0, k = hosts ? o->slow_hcas : o->trained_down;

		for (uint32_t i = 0; i < g->ncables; i++) {
			const struct gen_cable *c = &g->cables[i];

			if (!c->removed && c->width == 4 && c->speed == TOPO_SPEED_HDR &&
			    sw_sw(g, c) == !hosts)
				v[n++] = i;
		}
		if (k > n)
			return gen_fail(g, "cannot slow %u of %u full-rate %s links", k, n,
					hosts ? "host" : "switch-switch");
		choose(g, v, n, k);
		for (uint32_t i = 0; i < k; i++) {
			struct gen_cable *c = &g->cables[v[i]];

			if (!hosts && i % 2 == 0)
				c->width = 1;
			else
				c->speed = TOPO_SPEED_EDR;
		}
	}
	return 0;
}

static int degrade(struct gen *g)
{
	const struct gen_opts *o = g->o;
	uint32_t *v = malloc(((size_t)g->ncables + g->nnodes + 1) * sizeof(*v));
	uint32_t n, k;
	int rc;

	if (!v)
		return gen_fail(g, "out of memory");
	n = candidates(g, false, v);
	k = (uint32_t)llround(o->drop_links * n);
	choose(g, v, n, k);
	for (uint32_t i = 0; i < k; i++)
		g->cables[v[i]].removed = 1;

	n = candidates(g, true, v);
	if (o->drop_switches >= n && o->drop_switches) {
		free(v);
		return gen_fail(g, "cannot remove %u of %u switches", o->drop_switches, n);
	}
	choose(g, v, n, o->drop_switches);
	for (uint32_t i = 0; i < o->drop_switches; i++)
		g->nodes[v[i]].removed = 1;
	for (uint32_t i = 0; i < g->ncables; i++)
		if (g->nodes[g->cables[i].a].removed || g->nodes[g->cables[i].b].removed)
			g->cables[i].removed = 1;

	n = candidates(g, false, v);
	if (2 * o->miscable > n) {
		free(v);
		return gen_fail(g, "cannot swap %u cable pairs among %u switch links", o->miscable, n);
	}
	choose(g, v, n, 2 * o->miscable);
	for (uint32_t i = 0; i < o->miscable; i++) {
		struct gen_cable *x = &g->cables[v[2 * i]], *y = &g->cables[v[2 * i + 1]];
		uint32_t tb = x->b;
		uint8_t tp = x->pb;

		x->b = y->b;
		x->pb = y->pb;
		y->b = tb;
		y->pb = tp;
	}
	rc = slow_down(g, v);
	free(v);
	return rc;
}

static int add_sharp(struct gen *g)
{
	uint32_t nsw = g->nnodes;

	for (uint32_t i = 0; i < nsw; i++) {
		struct gen_node *sw = &g->nodes[i];
		int an;

		if (sw->type != TOPO_NODE_SWITCH || sw->removed)
			continue;
		an = gen_ca(g, sw->zone, 1, 0, "Mellanox Technologies Aggregation Node");
		if (an < 0)
			return -EINVAL;
		sw = &g->nodes[i];	/* gen_ca may move the array */
		g->nodes[an].guid = sw->guid | 0x8;
		g->nodes[an].sysguid = sw->guid | 0x8;
		if (gen_cable(g, (int)i, sw->nports, an, 1))
			return -EINVAL;
	}
	return 0;
}

/* ---- build ------------------------------------------------------------------ */

static struct topo *build(struct gen *g)
{
	struct topo_builder *b = topo_builder_new(g->dl);
	int *id = calloc((size_t)g->nnodes + 1, sizeof(*id));

	if (!b || !id) {
		topo_builder_free(b);
		free(id);
		errno = ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < g->nnodes; i++) {
		const struct gen_node *n = &g->nodes[i];
		struct topo_node_info ni = { .type = n->type, .nports = n->nports, .guid = n->guid,
					     .sysguid = n->sysguid, .vendor = 0x2c9,
					     .devid = n->type == TOPO_NODE_SWITCH ? 0xd2f0 : 0x101b,
					     .desc = g->strs + n->desc };
		struct topo_port_info pi = { 0 };

		id[i] = -1;
		if (n->removed)
			continue;
		id[i] = topo_builder_add_node(b, &ni, NULL);
		if (id[i] < 0)	/* recorded in @dl; finish() fails */
			continue;
		for (unsigned p = 1; n->type != TOPO_NODE_SWITCH && p <= n->nports; p++) {
			pi.guid = n->guid + p;
			topo_builder_set_port(b, id[i], p, &pi, NULL);
		}
	}
	for (uint32_t i = 0; i < g->ncables; i++) {
		const struct gen_cable *c = &g->cables[i];
		struct topo_ref r = { NULL, g->nodes[c->b].guid };

		if (!c->removed && id[c->a] >= 0 && id[c->b] >= 0)
			topo_builder_add_link(b, id[c->a], c->pa, &r, c->pb, c->width, c->speed, NULL);
	}
	free(id);
	return topo_builder_finish(b);
}

static int (*const families[GEN_FAMILY_COUNT])(struct gen *) = {
	gen_frame, gen_ff2, gen_multiframe, gen_rail, gen_fattree, gen_hetero,
};

struct topo *gen_fabric(const struct gen_opts *o, struct diag_list *dl)
{
	struct gen g = { .o = o, .dl = dl, .rng = o->seed };
	struct topo *t = NULL;

	if ((unsigned)o->family >= GEN_FAMILY_COUNT) {
		diag_add(dl, DIAG_ERROR, "fabric", 0, 0, "unknown fabric family %d", o->family);
		errno = EINVAL;
		return NULL;
	}
	if (o->drop_links < 0 || o->drop_links > 1 || isnan(o->drop_links)) {
		diag_add(dl, DIAG_ERROR, "fabric", 0, 0, "link drop fraction %g not in [0, 1]",
			 o->drop_links);
		errno = EINVAL;
		return NULL;
	}
	if (!families[o->family](&g) && !g.failed && !degrade(&g) && (!o->sharp || !add_sharp(&g)))
		t = build(&g);
	else
		errno = EINVAL;
	free(g.nodes);
	free(g.cables);
	free(g.strs);
	return t;
}

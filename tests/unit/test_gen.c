// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_gen.c - structural tests of the frame, ff2 and multiframe generators
 * and of the common degradation code (gen.c).
 *
 * Every expected number is derived from the shape (spines, leaves, radix,
 * down-ports, host counts, options), never copied from a generated file.
 * Roles come from the documented naming (director ".../L<nn>/U<n>",
 * ".../S<nn>/U1"; discrete "...-leafNN"/"...-spineNN"; "cn", "st", "mg"
 * hosts; "ff2-bridge") and zones from the GUID plan in gen_int.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* open_memstream */
#endif
#include "unit.h"

#include <ffroute/gen.h>
#include <ffroute/io.h>

#include "gen/gen_int.h"

/* ---- helpers -------------------------------------------------------------- */

static struct topo *gen_ok(struct gen_opts *o)
{
	struct diag_list dl;
	struct topo *t;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	t = gen_fabric(o, &dl);
	if (!t) {
		char buf[DIAG_MSG_MAX + 512];

		for (unsigned i = 0; i < dl.n; i++) {
			diag_format(&dl.v[i], buf, sizeof(buf));
			print_message("  %s\n", buf);
		}
	}
	assert_non_null(t);
	diag_free(&dl);
	return t;
}

static struct gen_opts opts(enum gen_family f, enum gen_style s, bool full)
{
	struct gen_opts o;

	gen_opts_init(&o, f);
	o.style = s;
	o.full = full;
	return o;
}

static bool has(const struct topo *t, uint32_t n, const char *s)
{
	return strstr(t->node_desc[n], s) != NULL;
}

static bool is_spine(const struct topo *t, uint32_t n)
{
	return topo_is_switch(t, n) && (has(t, n, "/S") || has(t, n, "-spine"));
}

static bool is_leaf(const struct topo *t, uint32_t n)
{
	return topo_is_switch(t, n) && (has(t, n, "/L") || has(t, n, "-leaf"));
}

static bool is_bridge(const struct topo *t, uint32_t n)
{
	return topo_is_switch(t, n) && has(t, n, "ff2-bridge");
}

static unsigned zone_of(const struct topo *t, uint32_t n)
{
	return gen_guid_zone(t->node_guid[n]);
}

static uint32_t peer(const struct topo *t, uint32_t n, unsigned pn)
{
	uint32_t r = t->port_remote[topo_port(t, n, pn)];

	return r == TOPO_NONE ? TOPO_NONE : t->port_node[r];
}

static unsigned degree(const struct topo *t, uint32_t n)
{
	unsigned d = 0;

	for (unsigned pn = 1; pn <= t->node_nports[n]; pn++)
		d += peer(t, n, pn) != TOPO_NONE;
	return d;
}

static unsigned links_between(const struct topo *t, uint32_t a, uint32_t b)
{
	unsigned k = 0;

	for (unsigned pn = 1; pn <= t->node_nports[a]; pn++)
		k += peer(t, a, pn) == b;
	return k;
}

static unsigned count(const struct topo *t, bool (*pred)(const struct topo *, uint32_t))
{
	unsigned k = 0;

	for (uint32_t n = 0; n < t->nnodes; n++)
		k += pred(t, n);
	return k;
}

static unsigned count_desc(const struct topo *t, const char *prefix)
{
	unsigned k = 0;

	for (uint32_t n = 0; n < t->nnodes; n++)
		k += !strncmp(t->node_desc[n], prefix, strlen(prefix));
	return k;
}

static uint32_t find_desc(const struct topo *t, const char *desc)
{
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (!strcmp(t->node_desc[n], desc))
			return n;
	return TOPO_NONE;
}

static unsigned swsw_links(const struct topo *t)
{
	unsigned k = 0;

	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p];

		k += r != TOPO_NONE && p < r && topo_is_switch(t, t->port_node[p]) &&
		     topo_is_switch(t, t->port_node[r]);
	}
	return k;
}

/*
 * One Clos seen from its leaves in @zone: @spines x @leaves, @down hosts
 * per leaf when @full_leaves, every leaf up-port to a spine, and @per
 * links from every leaf to every spine.
 */
static void check_clos(const struct topo *t, unsigned zone, unsigned spines, unsigned leaves,
		       unsigned radix, unsigned per)
{
	unsigned ns = 0, nl = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (zone_of(t, n) != zone || !topo_is_switch(t, n))
			continue;
		ns += is_spine(t, n);
		nl += is_leaf(t, n);
		assert_true(is_spine(t, n) || is_leaf(t, n));
		assert_int_equal(t->node_nports[n], radix);
		if (!is_leaf(t, n))
			continue;
		for (uint32_t s = 0; s < t->nnodes; s++)
			if (zone_of(t, s) == zone && is_spine(t, s))
				assert_int_equal(links_between(t, n, s), per);
	}
	assert_int_equal(ns, spines);
	assert_int_equal(nl, leaves);
}

/* ---- frame ---------------------------------------------------------------- */

/* Full director frame: 20 spines x 40 leaves of 40 ports, 800 host ports. */
static void test_frame_full_director(void **state)
{
	struct gen_opts o = opts(GEN_FRAME, GEN_STYLE_DIRECTOR, true);
	struct topo *t = gen_ok(&o);
	const unsigned spines = 20, leaves = 40, radix = 40, down = 20, mgmt = 8;
	char want[64];
	uint64_t chassis = 0;

	(void)state;
	assert_int_equal(t->nswitches, spines + leaves);
	assert_int_equal(t->ncas, leaves * down);
	assert_int_equal(count_desc(t, "cn"), leaves * down - mgmt);
	assert_int_equal(count_desc(t, "mg"), mgmt);
	assert_int_equal(t->nlinks, leaves * (radix - down) + leaves * down);
	check_clos(t, 0, spines, leaves, radix, 1);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (!topo_is_switch(t, n))
			continue;
		assert_int_equal(degree(t, n), radix);	/* every port used */
		if (!chassis)
			chassis = t->node_sysguid[n];
		assert_int_equal(t->node_sysguid[n], chassis);	/* one chassis */
		assert_int_not_equal(t->node_sysguid[n], t->node_guid[n]);
	}
	/* two ASICs per leaf module, L01..L20 x U1/U2, spines S01..S20 */
	for (unsigned l = 0; l < leaves; l++) {
		snprintf(want, sizeof(want), "MF0;frame0:MCS8500/L%02u/U%u", l / 2 + 1, l % 2 + 1);
		assert_int_not_equal(find_desc(t, want), TOPO_NONE);
	}
	for (unsigned s = 0; s < spines; s++) {
		snprintf(want, sizeof(want), "MF0;frame0:MCS8500/S%02u/U1", s + 1);
		assert_int_not_equal(find_desc(t, want), TOPO_NONE);
	}
	topo_free(t);
}

/* Small discrete frame: 4 spines x 8 leaves of 8 ports, own system GUIDs. */
static void test_frame_small_discrete(void **state)
{
	struct gen_opts o = opts(GEN_FRAME, GEN_STYLE_DISCRETE, false);
	struct topo *t = gen_ok(&o);
	const unsigned spines = 4, leaves = 8, radix = 8, down = 4;
	char want[64];

	(void)state;
	assert_int_equal(t->nswitches, spines + leaves);
	assert_int_equal(t->ncas, leaves * down);
	check_clos(t, 0, spines, leaves, radix, 1);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (!topo_is_switch(t, n))
			continue;
		assert_int_equal(degree(t, n), radix);
		assert_int_equal(t->node_sysguid[n], t->node_guid[n]);
		assert_null(strstr(t->node_desc[n], "MCS8500"));
	}
	for (unsigned l = 0; l < leaves; l++) {
		snprintf(want, sizeof(want), "MF0;frame0-leaf%02u:MQM8700/U1", l + 1);
		assert_int_not_equal(find_desc(t, want), TOPO_NONE);
	}
	topo_free(t);
}

/* 3:1 oversubscribed: radix 8 -> 6 down, 2 up, 2 spines of 8 leaves each. */
static void test_frame_oversub(void **state)
{
	struct gen_opts o = opts(GEN_FRAME, GEN_STYLE_DEFAULT, false);
	struct topo *t;
	const unsigned radix = 8, down = radix * 3 / 4, up = radix - down, leaves = radix;

	(void)state;
	o.oversub = 3;
	t = gen_ok(&o);
	assert_int_equal(t->ncas, leaves * down);
	check_clos(t, 0, up, leaves, radix, 1);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (is_spine(t, n))
			assert_int_equal(degree(t, n), leaves);
	topo_free(t);
}

/* ---- ff2 ---------------------------------------------------------------- */

/* Per leaf of each zone, the hosts of each class differ by at most one. */
static void check_spread(const struct topo *t, const char *const *classes, unsigned nclass)
{
	for (unsigned z = 0; z < 2; z++) {
		for (unsigned c = 0; c < nclass; c++) {
			unsigned lo = UINT32_MAX, hi = 0;

			for (uint32_t n = 0; n < t->nnodes; n++) {
				unsigned k = 0;

				if (!is_leaf(t, n) || zone_of(t, n) != z)
					continue;
				for (unsigned pn = 1; pn <= t->node_nports[n]; pn++) {
					uint32_t h = peer(t, n, pn);

					k += h != TOPO_NONE && !topo_is_switch(t, h) &&
					     !strncmp(t->node_desc[h], classes[c],
						      strlen(classes[c]));
				}
				lo = k < lo ? k : lo;
				hi = k > hi ? k : hi;
			}
			assert_true(hi - lo <= 1);
		}
	}
}

/* Storage server k: mlx5_Z on a zone-Z leaf, both HCAs one system image. */
static void check_storage(const struct topo *t, unsigned storage)
{
	char d[32];

	for (unsigned k = 1; k <= storage; k++) {
		uint32_t h[2];

		for (unsigned z = 0; z < 2; z++) {
			uint32_t leaf;

			snprintf(d, sizeof(d), "st%03u mlx5_%u", k, z);
			h[z] = find_desc(t, d);
			assert_int_not_equal(h[z], TOPO_NONE);
			assert_int_equal(t->node_nports[h[z]], 1);
			leaf = peer(t, h[z], 1);
			assert_int_not_equal(leaf, TOPO_NONE);
			assert_true(is_leaf(t, leaf));
			assert_int_equal(zone_of(t, leaf), z);
		}
		assert_int_equal(t->node_sysguid[h[0]], t->node_sysguid[h[1]]);
		assert_int_not_equal(t->node_guid[h[0]], t->node_guid[h[1]]);
	}
}

/* Links between switches of zone 0 and zone 1, or between a bridge and zone @z. */
static unsigned cross_links(const struct topo *t, int z)
{
	unsigned k = 0;

	for (uint32_t a = 0; a < t->nnodes; a++) {
		for (uint32_t b = 0; b < t->nnodes; b++) {
			if (!topo_is_switch(t, a) || !topo_is_switch(t, b) || is_bridge(t, b))
				continue;
			if (z < 0 && !is_bridge(t, a) && zone_of(t, a) == 0 && zone_of(t, b) == 1)
				k += links_between(t, a, b);
			if (z >= 0 && is_bridge(t, a) && zone_of(t, b) == (unsigned)z)
				k += links_between(t, a, b);
		}
	}
	return k;
}

static const char *const ff2_classes[] = { "cn", "st", "mg" };

/* Full ff2, bridge: 2 x (20 + 40) + 2 = 122 switches, 2 x 600 + 180 x 2. */
static void test_ff2_full_bridge(void **state)
{
	struct gen_opts o = opts(GEN_FF2, GEN_STYLE_BRIDGE, true);
	struct topo *t = gen_ok(&o);
	const unsigned spines = 20, leaves = 40, radix = 40, down = 20;
	const unsigned compute = 600, storage = 180, mgmt = 4, inter = 16;

	(void)state;
	assert_int_equal(t->nswitches, 2 * (spines + leaves) + 2);
	assert_int_equal(count(t, is_bridge), 2);
	assert_int_equal(count_desc(t, "cn"), 2 * compute);
	assert_int_equal(count_desc(t, "st"), 2 * storage);
	assert_int_equal(count_desc(t, "mg"), 2 * mgmt);
	assert_int_equal(t->ncas, 2 * (compute + storage + mgmt));
	/* the port budget: every leaf down-port of both zones is used */
	assert_int_equal(compute + storage + mgmt + inter, leaves * down);
	for (unsigned z = 0; z < 2; z++)
		check_clos(t, z, spines, leaves, radix, 1);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (is_leaf(t, n) || is_spine(t, n))
			assert_int_equal(degree(t, n), radix);
	check_storage(t, storage);
	check_spread(t, ff2_classes, 3);
	assert_int_equal(cross_links(t, 0), inter);
	assert_int_equal(cross_links(t, 1), inter);
	assert_int_equal(cross_links(t, -1), 0);	/* no direct zone-zone link */
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (is_bridge(t, n))
			assert_int_equal(degree(t, n), inter);	/* inter/2 from each zone */
	topo_free(t);
}

/* Full ff2, leaf to leaf: 120 switches, inter_links zone-0 <-> zone-1 cables. */
static void test_ff2_full_leaf2leaf(void **state)
{
	struct gen_opts o = opts(GEN_FF2, GEN_STYLE_LEAF2LEAF, true);
	struct topo *t = gen_ok(&o);

	(void)state;
	assert_int_equal(t->nswitches, 2 * (20 + 40));
	assert_int_equal(count(t, is_bridge), 0);
	assert_int_equal(t->ncas, 2 * (600 + 180 + 4));
	check_storage(t, 180);
	check_spread(t, ff2_classes, 3);
	assert_int_equal(cross_links(t, -1), 16);
	topo_free(t);
}

/* Small ff2 in both styles with a chosen inter-zone link count. */
static void test_ff2_small_inter(void **state)
{
	const unsigned spines = 4, leaves = 8, inter = 6;
	enum gen_style styles[2] = { GEN_STYLE_BRIDGE, GEN_STYLE_LEAF2LEAF };

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		struct gen_opts o = opts(GEN_FF2, styles[i], false);
		struct topo *t;

		o.inter_links = inter;
		o.compute = 10;
		o.storage = 7;
		t = gen_ok(&o);
		assert_int_equal(t->nswitches, 2 * (spines + leaves) + (i == 0 ? 2 : 0));
		check_storage(t, 7);
		check_spread(t, ff2_classes, 3);
		if (i == 0) {
			assert_int_equal(cross_links(t, 0), inter);
			assert_int_equal(cross_links(t, 1), inter);
		} else {
			assert_int_equal(cross_links(t, -1), inter);
		}
		topo_free(t);
	}
}

/* ---- multiframe ------------------------------------------------------------ */

static void check_multiframe(unsigned frames, unsigned inter)
{
	struct gen_opts o = opts(GEN_MULTIFRAME, GEN_STYLE_DEFAULT, false);
	struct topo *t;
	unsigned per_pair[8][8] = { { 0 } };

	o.frames = frames;
	o.inter_links = inter;
	t = gen_ok(&o);
	assert_int_equal(t->nswitches, frames * (4 + 8));
	for (unsigned f = 0; f < frames; f++)
		check_clos(t, f, 4, 8, 8, 1);
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p], a = t->port_node[p], b;

		if (r == TOPO_NONE || p > r)
			continue;
		b = t->port_node[r];
		if (!topo_is_switch(t, a) || !topo_is_switch(t, b) ||
		    zone_of(t, a) == zone_of(t, b))
			continue;
		/* between frames: leaf to leaf only, no third tier */
		assert_true(is_leaf(t, a) && is_leaf(t, b));
		per_pair[zone_of(t, a)][zone_of(t, b)]++;
		per_pair[zone_of(t, b)][zone_of(t, a)]++;
	}
	for (unsigned a = 0; a < frames; a++)
		for (unsigned b = 0; b < frames; b++)
			assert_int_equal(per_pair[a][b], a == b ? 0 : inter);
	topo_free(t);
}

static void test_multiframe(void **state)
{
	(void)state;
	check_multiframe(4, 2);		/* the small preset */
	check_multiframe(3, 3);
	check_multiframe(6, 1);
}

/* ---- degradation --------------------------------------------------------- */

/* Sorted switch-switch links as "lowguid:port-highguid:port" pairs. */
struct lk {
	uint64_t ga, gb;
	unsigned pa, pb;
};

static int lk_cmp(const void *x, const void *y)
{
	const struct lk *a = x, *b = y;

	if (a->ga != b->ga)
		return a->ga < b->ga ? -1 : 1;
	if (a->pa != b->pa)
		return a->pa < b->pa ? -1 : 1;
	if (a->gb != b->gb)
		return a->gb < b->gb ? -1 : 1;
	return (int)a->pb - (int)b->pb;
}

static struct lk *sw_links(const struct topo *t, unsigned *n)
{
	struct lk *v = calloc(t->nlinks + 1, sizeof(*v));

	assert_non_null(v);
	*n = 0;
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p], a = t->port_node[p], b;
		struct lk l;

		if (r == TOPO_NONE || p > r || !topo_is_switch(t, a) ||
		    !topo_is_switch(t, b = t->port_node[r]))
			continue;
		l = (struct lk){ t->node_guid[a], t->node_guid[b], topo_port_num(t, p),
				 topo_port_num(t, r) };
		if (lk_cmp(&(struct lk){ l.gb, l.ga, l.pb, l.pa }, &l) < 0)
			l = (struct lk){ l.gb, l.ga, l.pb, l.pa };
		v[(*n)++] = l;
	}
	qsort(v, *n, sizeof(*v), lk_cmp);
	return v;
}

/* Links of @a missing from @b (both sorted), into @out; returns the count. */
static unsigned lk_minus(const struct lk *a, unsigned na, const struct lk *b, unsigned nb,
			 struct lk *out)
{
	unsigned k = 0;

	for (unsigned i = 0; i < na; i++) {
		if (bsearch(&a[i], b, nb, sizeof(*b), lk_cmp))
			continue;
		if (out)
			out[k] = a[i];
		k++;
	}
	return k;
}

static void test_drop_links(void **state)
{
	struct gen_opts o = opts(GEN_FF2, GEN_STYLE_BRIDGE, false);
	struct topo *base = gen_ok(&o), *a, *b, *c;
	unsigned nbase, na, nb, nc, swsw = swsw_links(base);
	/* small bridge ff2: 2 x 8 x 4 leaf-spine + 2 x 4 bridge links */
	const unsigned expect_swsw = 2 * 8 * 4 + 2 * 4;
	struct lk *lb = sw_links(base, &nbase), *la, *l2, *l3;

	(void)state;
	assert_int_equal(swsw, expect_swsw);
	o.drop_links = 0.25;
	o.seed = 42;
	a = gen_ok(&o);
	b = gen_ok(&o);
	o.seed = 43;
	c = gen_ok(&o);
	la = sw_links(a, &na);
	l2 = sw_links(b, &nb);
	l3 = sw_links(c, &nc);
	/* round(0.25 x 72) = 18 removed, the others untouched */
	assert_int_equal(na, expect_swsw - 18);
	assert_int_equal(nc, expect_swsw - 18);
	assert_int_equal(lk_minus(la, na, lb, nbase, NULL), 0);
	assert_int_equal(lk_minus(lb, nbase, la, na, NULL), 18);
	assert_int_equal(a->ncas, base->ncas);	/* host links never dropped */
	assert_int_equal(a->nlinks, base->nlinks - 18);
	/* the same seed removes the same set, another seed another */
	assert_int_equal(nb, na);
	assert_memory_equal(la, l2, na * sizeof(*la));
	assert_int_not_equal(lk_minus(la, na, l3, nc, NULL), 0);
	free(lb);
	free(la);
	free(l2);
	free(l3);
	topo_free(base);
	topo_free(a);
	topo_free(b);
	topo_free(c);
}

static void test_drop_switches(void **state)
{
	struct gen_opts o = opts(GEN_FRAME, GEN_STYLE_DISCRETE, false);
	struct topo *base = gen_ok(&o), *t;
	unsigned missing = 0;

	(void)state;
	o.drop_switches = 3;
	o.seed = 9;
	t = gen_ok(&o);
	assert_int_equal(t->nswitches, base->nswitches - 3);
	for (uint32_t n = 0; n < base->nnodes; n++) {
		uint32_t m = topo_find_guid(t, base->node_guid[n]);

		if (!topo_is_switch(base, n)) {
			assert_int_not_equal(m, TOPO_NONE);	/* hosts stay (maybe unlinked) */
			continue;
		}
		if (m == TOPO_NONE) {
			missing++;
			/* nothing in the fabric still points at a removed switch */
			for (uint32_t p = 0; p < t->nports; p++)
				assert_true(t->port_remote[p] == TOPO_NONE ||
					    t->node_guid[t->port_node[t->port_remote[p]]] !=
					    base->node_guid[n]);
		}
	}
	assert_int_equal(missing, 3);
	o.drop_switches = base->nswitches;
	{
		struct diag_list dl;

		diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
		assert_null(gen_fabric(&o, &dl));
		unit_expect_diag(&dl, "cannot remove");
		diag_free(&dl);
	}
	topo_free(base);
	topo_free(t);
}

/* Every new link joins the ends of two different removed ones: swaps. */
static void test_miscable(void **state)
{
	struct gen_opts o = opts(GEN_FF2, GEN_STYLE_LEAF2LEAF, false);
	struct topo *base = gen_ok(&o), *t;
	unsigned nb, nt, nold, nnew;
	struct lk *lb, *lt, old[16], nw[16];

	(void)state;
	o.miscable = 3;
	o.seed = 5;
	t = gen_ok(&o);
	lb = sw_links(base, &nb);
	lt = sw_links(t, &nt);
	assert_int_equal(nt, nb);
	nold = lk_minus(lb, nb, lt, nt, old);
	nnew = lk_minus(lt, nt, lb, nb, nw);
	assert_int_equal(nold, 2 * o.miscable);
	assert_int_equal(nnew, 2 * o.miscable);
	for (unsigned i = 0; i < nnew; i++) {
		int ea = -1, eb = -1;

		for (unsigned j = 0; j < nold; j++) {
			bool a = (old[j].ga == nw[i].ga && old[j].pa == nw[i].pa) ||
				 (old[j].gb == nw[i].ga && old[j].pb == nw[i].pa);
			bool b = (old[j].ga == nw[i].gb && old[j].pa == nw[i].pb) ||
				 (old[j].gb == nw[i].gb && old[j].pb == nw[i].pb);

			ea = a ? (int)j : ea;
			eb = b ? (int)j : eb;
		}
		assert_true(ea >= 0 && eb >= 0 && ea != eb);
	}
	free(lb);
	free(lt);
	topo_free(base);
	topo_free(t);
}

static void test_sharp(void **state)
{
	struct gen_opts o = opts(GEN_FF2, GEN_STYLE_BRIDGE, false);
	struct topo *t;
	const unsigned radix = 8;

	(void)state;
	o.sharp = true;
	t = gen_ok(&o);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t an;

		if (!topo_is_switch(t, n))
			continue;
		assert_int_equal(t->node_nports[n], radix + 1);
		an = peer(t, n, radix + 1);
		assert_int_not_equal(an, TOPO_NONE);
		assert_true(topo_is_sharp_an(t, an));
		assert_string_equal(t->node_desc[an], "Mellanox Technologies Aggregation Node");
	}
	assert_int_equal(count(t, topo_is_sharp_an), t->nswitches);
	topo_free(t);
}

/* ---- determinism and errors -------------------------------------------------- */

static char *write_mem(const struct topo *t, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(topo_write_net(t, fp), 0);
	fclose(fp);
	return buf;
}

static void test_determinism(void **state)
{
	struct gen_opts o = opts(GEN_FF2, GEN_STYLE_BRIDGE, true);
	struct topo *a, *b, *c;
	size_t la, lb, lc;
	char *ba, *bb, *bc;

	(void)state;
	o.drop_links = 0.05;
	o.miscable = 2;
	o.sharp = true;
	o.seed = 1234;
	a = gen_ok(&o);
	b = gen_ok(&o);
	o.seed = 1235;
	c = gen_ok(&o);
	ba = write_mem(a, &la);
	bb = write_mem(b, &lb);
	bc = write_mem(c, &lc);
	assert_int_equal(la, lb);
	assert_memory_equal(ba, bb, la);
	assert_true(la != lc || memcmp(ba, bc, la));
	free(ba);
	free(bb);
	free(bc);
	topo_free(a);
	topo_free(b);
	topo_free(c);
}

static void expect_fail(struct gen_opts *o, const char *why)
{
	struct diag_list dl;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	errno = 0;
	assert_null(gen_fabric(o, &dl));
	assert_int_equal(errno, EINVAL);
	unit_expect_diag(&dl, why);
	diag_free(&dl);
}

static void test_impossible(void **state)
{
	struct gen_opts o;

	(void)state;
	o = opts(GEN_FF2, GEN_STYLE_BRIDGE, true);
	o.compute = 700;	/* 700 + 180 + 4 + 16 > 800 */
	expect_fail(&o, "do not fit the 800 leaf down-ports");
	o = opts(GEN_FF2, GEN_STYLE_BRIDGE, false);
	o.inter_links = 12;	/* 2 x 6 > 8 bridge ports */
	o.compute = 1;
	expect_fail(&o, "bridge");
	o = opts(GEN_FRAME, GEN_STYLE_BRIDGE, false);
	expect_fail(&o, "does not apply");
	o = opts(GEN_FF2, GEN_STYLE_DISCRETE, false);
	expect_fail(&o, "does not apply");
	o = opts(GEN_FRAME, GEN_STYLE_DEFAULT, false);
	o.radix = 300;
	expect_fail(&o, "radix 300");
	o = opts(GEN_FRAME, GEN_STYLE_DEFAULT, false);
	o.spines = 1;		/* 8 leaves x 4 up-links on one 8-port spine */
	expect_fail(&o, "spines");
	o = opts(GEN_FRAME, GEN_STYLE_DEFAULT, false);
	o.compute = 40;
	expect_fail(&o, "do not fit 32 leaf down-ports");
	o = opts(GEN_MULTIFRAME, GEN_STYLE_DEFAULT, false);
	o.frames = 1;
	expect_fail(&o, "frames out of range");
	o = opts(GEN_MULTIFRAME, GEN_STYLE_DEFAULT, false);
	o.inter_links = 20;
	expect_fail(&o, "inter-frame");
	o = opts(GEN_FRAME, GEN_STYLE_DEFAULT, true);
	o.leaves = 1024;
	o.radix = 200;
	o.spines = 1000;
	expect_fail(&o, "unicast LIDs");
	o = opts(GEN_FRAME, GEN_STYLE_DEFAULT, false);
	o.miscable = 100;
	expect_fail(&o, "cannot swap");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_full_director),
		cmocka_unit_test(test_frame_small_discrete),
		cmocka_unit_test(test_frame_oversub),
		cmocka_unit_test(test_ff2_full_bridge),
		cmocka_unit_test(test_ff2_full_leaf2leaf),
		cmocka_unit_test(test_ff2_small_inter),
		cmocka_unit_test(test_multiframe),
		cmocka_unit_test(test_drop_links),
		cmocka_unit_test(test_drop_switches),
		cmocka_unit_test(test_miscable),
		cmocka_unit_test(test_sharp),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_impossible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

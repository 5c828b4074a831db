// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_gen_rail.c - structure of the rail (rail2, rail3, rail-only) and
 * fattree generator families: switches per layer and their degrees, rail
 * purity of leaves, paths between rails, shared host system images,
 * non-blocking leaves, degradation counts, determinism and bad options.
 *
 * Layers are found from the graph alone: a multi-source BFS from every
 * host CA over the links gives leaves at distance 1, spines/aggregation
 * switches at 2, cores at 3.  Expected counts come from the shape rules in
 * routing/gen_rail.c and routing/gen_fattree.c, worked out in comments.
 */
#define _GNU_SOURCE	/* open_memstream */
#include "unit.h"

#include <math.h>

#include <ffroute/gen.h>
#include <ffroute/io.h>
#include <ffroute/topo.h>

#define MAX_LAYER 4

/* What a shape rule says a fabric must look like. */
struct expect {
	unsigned cas;			/* host CAs */
	unsigned nsw[MAX_LAYER];	/* switches per layer 1..3 */
	unsigned deg[MAX_LAYER];	/* linked ports of every switch of a layer */
	unsigned down[MAX_LAYER];	/* of which towards the layer below (leaf: hosts) */
};

struct layers {
	unsigned *dist;			/* per node: hops from the nearest host CA */
	unsigned nsw[MAX_LAYER + 1];
};

static struct topo *make(const struct gen_opts *o)
{
	struct diag_list dl;
	struct topo *t;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	t = gen_fabric(o, &dl);
	if (!t)
		diag_print(&dl, stderr);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	diag_free(&dl);
	return t;
}

static void make_fails(const struct gen_opts *o, const char *why)
{
	struct diag_list dl;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	errno = 0;
	assert_null(gen_fabric(o, &dl));
	assert_int_equal(errno, EINVAL);
	unit_expect_diag(&dl, why);
	diag_free(&dl);
}

static uint32_t peer_node(const struct topo *t, uint32_t node, unsigned p)
{
	uint32_t r = t->port_remote[topo_port(t, node, p)];

	return r == TOPO_NONE ? TOPO_NONE : t->port_node[r];
}

static bool is_host(const struct topo *t, uint32_t n)
{
	return t->node_type[n] == TOPO_NODE_CA && !topo_is_sharp_an(t, n);
}

/* BFS from every host CA; counts switches per distance. */
static void layers_of(const struct topo *t, struct layers *ly)
{
	uint32_t *q = malloc(t->nnodes * sizeof(*q)), qh = 0, qt = 0;

	ly->dist = malloc(t->nnodes * sizeof(*ly->dist));
	assert_true(q && ly->dist);
	memset(ly->nsw, 0, sizeof(ly->nsw));
	for (uint32_t n = 0; n < t->nnodes; n++) {
		ly->dist[n] = UINT32_MAX;
		if (is_host(t, n)) {
			ly->dist[n] = 0;
			q[qt++] = n;
		}
	}
	while (qh < qt) {
		uint32_t n = q[qh++];

		for (unsigned p = 1; p <= t->node_nports[n]; p++) {
			uint32_t m = peer_node(t, n, p);

			if (m != TOPO_NONE && ly->dist[m] == UINT32_MAX && topo_is_switch(t, m)) {
				ly->dist[m] = ly->dist[n] + 1;
				q[qt++] = m;
			}
		}
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (topo_is_switch(t, n)) {
			assert_true(ly->dist[n] >= 1 && ly->dist[n] <= MAX_LAYER);
			ly->nsw[ly->dist[n]]++;
		}
	free(q);
}

/* Counts per layer, and every switch's degree and down-degree. */
static void check_shape(const struct topo *t, const struct expect *e, struct layers *ly)
{
	unsigned hosts = 0;

	layers_of(t, ly);
	for (uint32_t n = 0; n < t->nnodes; n++)
		hosts += is_host(t, n);
	assert_int_equal(hosts, e->cas);
	for (unsigned l = 1; l < MAX_LAYER; l++)
		assert_int_equal(ly->nsw[l], e->nsw[l]);
	assert_int_equal(ly->nsw[MAX_LAYER], 0);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		unsigned deg = 0, down = 0, l = ly->dist[n];

		if (!topo_is_switch(t, n))
			continue;
		for (unsigned p = 1; p <= t->node_nports[n]; p++) {
			uint32_t m = peer_node(t, n, p);

			if (m == TOPO_NONE)
				continue;
			deg++;
			down += ly->dist[m] == l - 1;
			/* a tree: links only between neighbouring layers */
			assert_true(ly->dist[m] == l - 1 || ly->dist[m] == l + 1);
		}
		assert_int_equal(deg, e->deg[l]);
		assert_int_equal(down, e->down[l]);
	}
}

/* "gpuNNN mlx5_K" -> host NNN, rail K */
static void hca_of(const struct topo *t, uint32_t n, unsigned *host, unsigned *rail)
{
	assert_int_equal(sscanf(t->node_desc[n], "gpu%u mlx5_%u", host, rail), 2);
}

/*
 * Every leaf's HCAs are of one rail (returned per switch in rail_of[]);
 * there are @per_rail leaves of every rail in [first, first + nrails);
 * every HCA of a host shares the host's system image GUID, distinct hosts
 * have distinct ones (sys[host] records them, 0 = not seen yet).
 */
static void check_rails(const struct topo *t, unsigned first, unsigned nrails, unsigned per_rail,
			unsigned *rail_of, uint64_t *sys, unsigned nhosts)
{
	unsigned cnt[64] = { 0 };

	for (uint32_t n = 0; n < t->nnodes; n++) {
		unsigned host, rail;

		rail_of[n] = UINT32_MAX;
		if (!is_host(t, n))
			continue;
		hca_of(t, n, &host, &rail);
		assert_true(host >= 1 && host <= nhosts);
		assert_true(rail >= first && rail < first + nrails);
		if (!sys[host - 1])
			sys[host - 1] = t->node_sysguid[n];
		assert_true(sys[host - 1] == t->node_sysguid[n]);
	}
	for (unsigned h = 0; h + 1 < nhosts; h++)
		for (unsigned j = h + 1; j < nhosts; j++)
			assert_true(sys[h] != sys[j]);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (!topo_is_switch(t, n))
			continue;
		for (unsigned p = 1; p <= t->node_nports[n]; p++) {
			uint32_t m = peer_node(t, n, p);
			unsigned host, rail;

			if (m == TOPO_NONE || !is_host(t, m))
				continue;
			hca_of(t, m, &host, &rail);
			if (rail_of[n] == UINT32_MAX)
				cnt[rail]++;
			else
				assert_int_equal(rail_of[n], rail);	/* pure */
			rail_of[n] = rail;
		}
	}
	for (unsigned k = 0; k < 64; k++)
		assert_int_equal(cnt[k], k >= first && k < first + nrails ? per_rail : 0);
}

/* Hops between switches a and b over switch-switch links only. */
static void sw_dist(const struct topo *t, uint32_t a, unsigned *d)
{
	uint32_t *q = malloc(t->nnodes * sizeof(*q)), qh = 0, qt = 0;

	assert_non_null(q);
	for (uint32_t n = 0; n < t->nnodes; n++)
		d[n] = UINT32_MAX;
	d[a] = 0;
	q[qt++] = a;
	while (qh < qt) {
		uint32_t n = q[qh++];

		for (unsigned p = 1; p <= t->node_nports[n]; p++) {
			uint32_t m = peer_node(t, n, p);

			if (m != TOPO_NONE && topo_is_switch(t, m) && d[m] == UINT32_MAX) {
				d[m] = d[n] + 1;
				q[qt++] = m;
			}
		}
	}
	free(q);
}

/*
 * Leaves meet only through upper layers: from every leaf, a leaf of the
 * same rail is @same hops away and a leaf of another rail @other hops
 * (UINT32_MAX: unreachable); never 1 (no leaf-leaf links).
 */
static void check_leaf_paths(const struct topo *t, const unsigned *rail_of, unsigned same,
			     unsigned other)
{
	unsigned *d = malloc(t->nnodes * sizeof(*d));

	assert_non_null(d);
	for (uint32_t a = 0; a < t->nnodes; a++) {
		if (rail_of[a] == UINT32_MAX)
			continue;
		sw_dist(t, a, d);
		for (uint32_t b = 0; b < t->nnodes; b++)
			if (b != a && rail_of[b] != UINT32_MAX)
				assert_int_equal(d[b], rail_of[a] == rail_of[b] ? same : other);
	}
	free(d);
}

/* ---- rail-optimized ------------------------------------------------------ */

static void rail_opts(struct gen_opts *o, enum gen_style style, bool full)
{
	gen_opts_init(o, GEN_RAIL);
	o->style = style;
	o->full = full;
}

/*
 * rail2, H hosts x R rails, radix K: d = u = K/2 host ports and up-links
 * per leaf, L = H/d leaves per rail, R x L leaves in all; S spines fill
 * their K ports: S = R x L x u / K when that divides u.
 */
static void check_rail2(unsigned H, unsigned R, unsigned K, bool full)
{
	unsigned d = K / 2, L = H / d, S = R * L * d / K;
	struct expect e = { .cas = H * R, .nsw = { 0, R * L, S },
			    .deg = { 0, 2 * d, K }, .down = { 0, d, K } };
	struct gen_opts o;
	struct layers ly;
	struct topo *t;
	unsigned *rail_of;
	uint64_t *sys = calloc(H, sizeof(*sys));

	assert_int_equal(H % d, 0);
	assert_int_equal(d % S, 0);
	rail_opts(&o, GEN_STYLE_RAIL2, full);
	t = make(&o);
	rail_of = malloc(t->nnodes * sizeof(*rail_of));
	assert_true(sys && rail_of);
	check_shape(t, &e, &ly);
	assert_int_equal(t->nswitches, R * L + S);
	check_rails(t, 0, R, L, rail_of, sys, H);
	/* every leaf to every spine: any two leaves are leaf-spine-leaf apart */
	check_leaf_paths(t, rail_of, 2, 2);
	free(ly.dist);
	free(rail_of);
	free(sys);
	topo_free(t);
}

static void test_rail2_small(void **state)
{
	(void)state;
	check_rail2(16, 8, 16, false);	/* 16 leaves, 8 spines */
}

static void test_rail2_full(void **state)
{
	(void)state;
	check_rail2(100, 8, 40, true);	/* 40 leaves, 20 spines */
}

/*
 * rail3, H hosts x R rails, radix K: SUs of d = K/2 hosts, L = H/d SUs,
 * one leaf per rail per SU (u = d up-links); S spines per rail, S the
 * smallest divisor of u with L x u/S <= K/2; spines have c = L x u/S links
 * down and c up; S core groups of C cores, C the smallest divisor of c
 * with R x c/C <= K; a core has c/C links from each of the R rails.
 */
static void check_rail3(unsigned H, unsigned R, unsigned K, bool full, unsigned S, unsigned C)
{
	unsigned d = K / 2, L = H / d, c = L * d / S;
	struct expect e = { .cas = H * R, .nsw = { 0, R * L, R * S, S * C },
			    .deg = { 0, 2 * d, 2 * c, R * c / C },
			    .down = { 0, d, c, R * c / C } };
	struct gen_opts o;
	struct layers ly;
	struct topo *t;
	unsigned *rail_of;
	uint64_t *sys = calloc(H, sizeof(*sys));

	assert_int_equal(d % S, 0);
	assert_true(c <= K / 2);
	assert_int_equal(c % C, 0);
	rail_opts(&o, GEN_STYLE_RAIL3, full);
	t = make(&o);
	rail_of = malloc(t->nnodes * sizeof(*rail_of));
	assert_true(sys && rail_of);
	check_shape(t, &e, &ly);
	check_rails(t, 0, R, L, rail_of, sys, H);
	/* same rail: leaf-spine-leaf; other rail: up to a core and down again */
	check_leaf_paths(t, rail_of, 2, 4);
	/* a spine's leaves are all of one rail: spine groups are per rail */
	for (uint32_t n = 0; n < t->nnodes; n++) {
		unsigned r = UINT32_MAX;

		if (!topo_is_switch(t, n) || ly.dist[n] != 2)
			continue;
		for (unsigned p = 1; p <= t->node_nports[n]; p++) {
			uint32_t m = peer_node(t, n, p);

			if (m == TOPO_NONE || ly.dist[m] != 1)
				continue;
			if (r == UINT32_MAX)
				r = rail_of[m];
			assert_int_equal(rail_of[m], r);
		}
	}
	free(ly.dist);
	free(rail_of);
	free(sys);
	topo_free(t);
}

static void test_rail3_small(void **state)
{
	(void)state;
	/*
	 * H 8, K 8: 2 SUs of 4; u = 4, S | 4 with 2 x 4 / S <= 4 -> S = 2,
	 * c = 4; C | 4 with 8 x 4 / C <= 8 -> C = 4 cores of 8 ports per group
	 */
	check_rail3(8, 8, 8, false, 2, 4);
}

static void test_rail3_full(void **state)
{
	(void)state;
	/*
	 * H 160, K 40: 8 SUs of 20; S | 20 with 8 x 20 / S <= 20 -> S = 10 (not
	 * 8), c = 16; C | 16 with 8 x 16 / C <= 40 -> C = 4 cores of 32 ports
	 */
	check_rail3(160, 8, 40, true, 10, 4);
}

/* ---- rail-only ------------------------------------------------------------- */

/* Each rail's subnet: only its HCAs, connected, same host GUIDs in every rail. */
static void check_railonly(unsigned H, unsigned R, unsigned K, bool full, unsigned S)
{
	unsigned d = K / 2, L = H / d, c = L * d / S;
	struct expect e = { .cas = H, .nsw = { 0, L, S }, .deg = { 0, 2 * d, c },
			    .down = { 0, d, c } };
	uint64_t *sys0 = calloc(H, sizeof(*sys0)), *sys = calloc(H, sizeof(*sys));
	uint64_t *seen = calloc((size_t)R * (H + L + S) * 2, sizeof(*seen));
	unsigned nseen = 0;

	assert_true(sys0 && sys && seen);
	for (unsigned k = 0; k < R; k++) {
		struct gen_opts o;
		struct layers ly;
		struct topo *t;
		unsigned *rail_of, *dist;

		rail_opts(&o, GEN_STYLE_RAILONLY, full);
		o.rail = k;
		t = make(&o);
		rail_of = malloc(t->nnodes * sizeof(*rail_of));
		dist = malloc(t->nnodes * sizeof(*dist));
		assert_true(rail_of && dist);
		check_shape(t, &e, &ly);
		assert_int_equal(t->nnodes, H + L + S);
		memset(sys, 0, H * sizeof(*sys));
		check_rails(t, k, 1, L, rail_of, sys, H);
		/* the host's system image GUID is the same in every rail's subnet */
		for (unsigned h = 0; h < H; h++) {
			if (!k)
				sys0[h] = sys[h];
			assert_true(sys[h] == sys0[h]);
		}
		/* one connected rail: every switch reachable from the first */
		sw_dist(t, t->sw_node[0], dist);
		for (uint32_t n = 0; n < t->nnodes; n++)
			assert_true(!topo_is_switch(t, n) || dist[n] != UINT32_MAX);
		/* node GUIDs never repeat across the rails' subnets */
		for (uint32_t n = 0; n < t->nnodes; n++) {
			for (unsigned i = 0; i < nseen; i++)
				assert_true(seen[i] != t->node_guid[n]);
		}
		for (uint32_t n = 0; n < t->nnodes; n++)
			seen[nseen++] = t->node_guid[n];
		free(ly.dist);
		free(rail_of);
		free(dist);
		topo_free(t);
	}
	free(seen);
	free(sys0);
	free(sys);
}

static void test_railonly_small(void **state)
{
	(void)state;
	check_railonly(8, 8, 8, false, 2);	/* rail3 small without cores */
}

static void test_railonly_full(void **state)
{
	(void)state;
	check_railonly(160, 8, 40, true, 10);	/* rail3 full without cores */
}

/* A rail-only rail larger than rail3's spine groups: spines use all ports. */
static void test_railonly_big_rail(void **state)
{
	/* 800 hosts, K 40: 40 leaves of 20 + 20; S | 20, 40 x 20 / S <= 40 -> S = 20 */
	struct expect e = { .cas = 800, .nsw = { 0, 40, 20 }, .deg = { 0, 40, 40 },
			    .down = { 0, 20, 40 } };
	struct gen_opts o;
	struct layers ly;
	struct topo *t;

	(void)state;
	rail_opts(&o, GEN_STYLE_RAILONLY, true);
	o.hosts = 800;
	o.rail = 5;
	t = make(&o);
	check_shape(t, &e, &ly);
	free(ly.dist);
	topo_free(t);
}

/* ---- fat trees ---------------------------------------------------------------- */

static void ft_opts(struct gen_opts *o, unsigned levels, bool full)
{
	gen_opts_init(o, GEN_FATTREE);
	o->levels = levels;
	o->full = full;
}

/* leaves: hosts == up-links (non-blocking); every switch as expected. */
static void check_fattree(const struct gen_opts *o, const struct expect *e)
{
	struct layers ly;
	struct topo *t = make(o);

	check_shape(t, e, &ly);
	/* non-blocking: per leaf and per aggregation switch, down == up */
	for (unsigned l = 1; l < MAX_LAYER; l++)
		if (e->nsw[l] && l + 1 < MAX_LAYER && e->nsw[l + 1])
			assert_int_equal(e->down[l], e->deg[l] - e->down[l]);
	assert_int_equal(t->nswitches, e->nsw[1] + e->nsw[2] + e->nsw[3]);
	free(ly.dist);
	topo_free(t);
}

/*
 * Radix 16, 100 hosts: d = u = 8, 13 leaves holding 7 or 8 hosts each (100 =
 * 9 x 8 + 4 x 7), all with 8 up-links; S | 8 with 13 x 8 / S <= 16 -> S = 8
 * spines of 13 ports.
 */
static void check_uneven_leaves(void)
{
	struct gen_opts o;
	struct layers ly;
	struct topo *t;

	gen_opts_init(&o, GEN_FATTREE);
	o.levels = 2;
	o.radix = 16;
	o.hosts = 100;
	t = make(&o);
	layers_of(t, &ly);
	assert_int_equal(ly.nsw[1], 13);
	assert_int_equal(ly.nsw[2], 8);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		unsigned cnt[3] = { 0 };	/* links to hosts, leaves, spines */

		if (!topo_is_switch(t, n))
			continue;
		for (unsigned p = 1; p <= t->node_nports[n]; p++) {
			uint32_t m = peer_node(t, n, p);

			if (m != TOPO_NONE)
				cnt[ly.dist[m]]++;
		}
		if (ly.dist[n] == 1) {
			assert_true(cnt[0] == 7 || cnt[0] == 8);
			assert_int_equal(cnt[2], 8);
		} else {
			assert_int_equal(cnt[1], 13);	/* one link from every leaf */
		}
	}
	free(ly.dist);
	topo_free(t);
}

static void test_fattree2(void **state)
{
	/* k-ary 2-level: K leaves of K/2 + K/2, K/2 spines of K ports, K^2/2 hosts */
	struct expect e4 = { .cas = 8, .nsw = { 0, 4, 2 }, .deg = { 0, 4, 4 },
			     .down = { 0, 2, 4 } };
	struct expect e40 = { .cas = 800, .nsw = { 0, 40, 20 }, .deg = { 0, 40, 40 },
			      .down = { 0, 20, 40 } };
	struct gen_opts o;

	(void)state;
	ft_opts(&o, 2, false);
	check_fattree(&o, &e4);
	ft_opts(&o, 2, true);
	check_fattree(&o, &e40);
	check_uneven_leaves();
}

static void test_fattree3(void **state)
{
	/* Al-Fares k = 4: 4 pods of 2 leaves + 2 aggr., 4 cores, 16 hosts */
	struct expect e4 = { .cas = 16, .nsw = { 0, 8, 8, 4 }, .deg = { 0, 4, 4, 4 },
			     .down = { 0, 2, 2, 4 } };
	/* k = 8 via --radix: 128 hosts, 8 pods x (4 + 4), 16 cores */
	struct expect e8 = { .cas = 128, .nsw = { 0, 32, 32, 16 }, .deg = { 0, 8, 8, 8 },
			     .down = { 0, 4, 4, 8 } };
	struct gen_opts o;

	(void)state;
	ft_opts(&o, 0, false);	/* levels default to 3 */
	check_fattree(&o, &e4);
	ft_opts(&o, 3, false);
	o.radix = 8;
	check_fattree(&o, &e8);
}

/*
 * The 16k-endpoint tree: radix 64, 16384 hosts -> 512 leaves of 32 + 32;
 * pods of 32 leaves -> 16 pods, 32 aggr. each (one link per leaf), 32 up;
 * core group j: 16 pods x 32 links <= 64 x C -> C = 8 -> 256 cores of 64.
 * Only built, counted and freed: no timing.
 */
static void test_fattree_16k(void **state)
{
	struct expect e = { .cas = 16384, .nsw = { 0, 512, 512, 256 },
			    .deg = { 0, 64, 64, 64 }, .down = { 0, 32, 32, 64 } };
	struct gen_opts o;

	(void)state;
	ft_opts(&o, 3, true);
	check_fattree(&o, &e);
}

/* ---- degradation, determinism, bad options --------------------------------- */

static void test_degrade(void **state)
{
	struct gen_opts o;
	struct topo *t;
	/* rail3 small: 64 HCA links; 16 leaves x 4 + 16 spines x 4 switch links */
	unsigned ss = 16 * 4 + 16 * 4, links = 64 + ss;

	(void)state;
	rail_opts(&o, GEN_STYLE_RAIL3, false);
	t = make(&o);
	assert_int_equal(t->nlinks, links);
	topo_free(t);

	o.drop_links = 0.05;	/* round(0.05 x 128) = 6 */
	o.seed = 7;
	t = make(&o);
	assert_int_equal(t->nlinks, links - (unsigned)llround(0.05 * ss));
	assert_int_equal(t->nlinks, links - 6);
	topo_free(t);

	o.drop_links = 0;	/* removing 3 of 40 switches keeps every host */
	o.drop_switches = 3;
	t = make(&o);
	assert_int_equal(t->nswitches, 40 - 3);
	assert_int_equal(t->ncas, 64);
	topo_free(t);

	o.drop_switches = 0;	/* swapped cables: as many links as before */
	o.miscable = 5;
	t = make(&o);
	assert_int_equal(t->nlinks, links);
	topo_free(t);

	/* fattree k = 4, SHARP: one AN per switch, on its port 5 */
	ft_opts(&o, 3, false);
	o.sharp = true;
	o.drop_links = 0.25;	/* 32 switch links -> 8 removed */
	t = make(&o);
	assert_int_equal(t->nswitches, 20);
	assert_int_equal(t->ncas, 16 + 20);
	assert_int_equal(t->nlinks, 16 + 32 - 8 + 20);
	for (uint32_t i = 0; i < t->nswitches; i++) {
		uint32_t sw = t->sw_node[i];

		assert_int_equal(t->node_nports[sw], 5);
		assert_true(topo_is_sharp_an(t, peer_node(t, sw, 5)));
	}
	topo_free(t);
}

static char *net_text(const struct gen_opts *o, size_t *len)
{
	struct topo *t = make(o);
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(topo_write_net(t, fp), 0);
	assert_int_equal(fclose(fp), 0);
	topo_free(t);
	return buf;
}

static void same_twice(const struct gen_opts *o)
{
	size_t n1, n2;
	char *a = net_text(o, &n1), *b = net_text(o, &n2);

	assert_true(n1 > 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(a, b, n1);
	free(a);
	free(b);
}

static void test_deterministic(void **state)
{
	static const enum gen_style styles[] = { GEN_STYLE_RAIL2, GEN_STYLE_RAIL3,
						 GEN_STYLE_RAILONLY };
	struct gen_opts o;
	size_t n1, n2;
	char *a, *b;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		rail_opts(&o, styles[i], false);
		o.rail = 3;
		o.drop_links = 0.1;
		o.miscable = 2;
		o.sharp = true;
		o.seed = 42;
		same_twice(&o);
	}
	ft_opts(&o, 3, false);
	o.drop_switches = 1;
	o.seed = 9;
	same_twice(&o);
	/* another seed, another fabric */
	a = net_text(&o, &n1);
	o.seed = 10;
	b = net_text(&o, &n2);
	assert_true(n1 != n2 || memcmp(a, b, n1) != 0);
	free(a);
	free(b);
}

static void test_bad_options(void **state)
{
	struct gen_opts o;

	(void)state;
	rail_opts(&o, GEN_STYLE_RAIL2, true);
	o.hosts = 200;		/* 8 x 10 leaves > 40 spine ports */
	make_fails(&o, "use style rail3");
	rail_opts(&o, GEN_STYLE_RAILONLY, false);
	o.rail = 8;
	make_fails(&o, "no rail 8 (rails 0..7)");
	rail_opts(&o, GEN_STYLE_DIRECTOR, false);
	make_fails(&o, "style director does not apply");
	rail_opts(&o, GEN_STYLE_RAIL3, true);
	o.spines = 3;
	make_fails(&o, "3 spines per rail do not divide the 20 up-links");
	rail_opts(&o, GEN_STYLE_RAIL3, false);
	o.rails = 12;		/* 12 rails x 4 links / C > 8 ports for every C | 4 */
	make_fails(&o, "12 rails exceed the 8 ports of a core switch");
	rail_opts(&o, GEN_STYLE_RAIL2, false);
	o.leaves = 1;		/* 16 hosts on one 16-port leaf: no up-links left */
	make_fails(&o, "a leaf needs 16 host ports and 16 up-links");
	rail_opts(&o, GEN_STYLE_RAIL2, false);
	o.leaves = 17;
	make_fails(&o, "17 leaves per rail for 16 hosts");

	ft_opts(&o, 4, false);
	make_fails(&o, "levels must be 2 or 3, not 4");
	ft_opts(&o, 2, true);
	o.hosts = 801;		/* 41 leaves of radix 40 */
	make_fails(&o, "use levels=3");
	ft_opts(&o, 3, false);
	o.radix = 8;
	o.hosts = 129;		/* k = 8 holds 128 hosts: a 9th pod */
	make_fails(&o, "9 pods exceed the 8 ports of a core switch");
	ft_opts(&o, 3, false);
	o.radix = 200;
	o.hosts = 60000;
	make_fails(&o, "unicast LIDs");
	ft_opts(&o, 3, false);
	o.radix = 255;
	make_fails(&o, "radix 255 out of range");
	ft_opts(&o, 3, false);
	o.style = GEN_STYLE_RAIL2;
	make_fails(&o, "style rail2 does not apply");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rail2_small),
		cmocka_unit_test(test_rail2_full),
		cmocka_unit_test(test_rail3_small),
		cmocka_unit_test(test_rail3_full),
		cmocka_unit_test(test_railonly_small),
		cmocka_unit_test(test_railonly_full),
		cmocka_unit_test(test_railonly_big_rail),
		cmocka_unit_test(test_fattree2),
		cmocka_unit_test(test_fattree3),
		cmocka_unit_test(test_fattree_16k),
		cmocka_unit_test(test_degrade),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bad_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

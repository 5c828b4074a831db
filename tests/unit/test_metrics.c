// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_metrics.c - chk_metrics() on fabrics whose answers are derived by
 * hand (each test says how).  Fabrics are generated (gen_fabric) or built
 * port by port, given LIDs in (leaf, port) order and routed min-hop D-mod-K
 * by route_util.h, so host i of the compute order has LID i + 1.
 */
#include <math.h>

#include "unit.h"

#include <ffroute/check.h>
#include <ffroute/gen.h>

#include "route_util.h"

#define EPS 1e-9

/* A checked fabric. */
struct fab {
	struct diag_list dl;
	struct topo *t;
	struct lft *l;
	struct cls c;
	struct chk_opts o;
	struct chk_report r;
};

/* Hand-built fabrics: switches 0..nsw-1, hosts on (switch, port), links. */
struct hspec {
	const char *name;	/* "cn01" compute, "st01" storage, "mg01" management */
	unsigned sw, port;
};

struct lspec {
	unsigned a, pa, b, pb;
};

#define SW_GUID(i) (0x0002c90000000100ULL + (i))
#define CA_GUID(i) (0x0c42a10000001000ULL + ((uint64_t)(i) << 4))

/* Hosts in @slow1x (a bit per host) are on 1x links, the others 4x (HDR). */
static struct topo *build(struct diag_list *dl, unsigned nsw, unsigned radix,
			  const struct hspec *h, unsigned nh, const struct lspec *lk, unsigned nl,
			  unsigned slow1x)
{
	struct topo_builder *b = topo_builder_new(dl);
	int sw[32];
	char desc[64];

	assert_non_null(b);
	assert_true(nsw <= 32);
	for (unsigned i = 0; i < nsw; i++) {
		struct topo_node_info ni = { .type = TOPO_NODE_SWITCH, .nports = (uint8_t)radix,
					     .guid = SW_GUID(i), .desc = desc };

		snprintf(desc, sizeof(desc), "MF0;sw%u:MQM8700/U1", i);
		sw[i] = topo_builder_add_node(b, &ni, NULL);
		assert_true(sw[i] >= 0);
	}
	for (unsigned i = 0; i < nh; i++) {
		struct topo_node_info ni = { .type = TOPO_NODE_CA, .nports = 1,
					     .guid = CA_GUID(i), .desc = desc };
		struct topo_port_info pi = { .guid = CA_GUID(i) + 1 };
		struct topo_ref ref = { NULL, SW_GUID(h[i].sw) };
		int n;

		snprintf(desc, sizeof(desc), "%s mlx5_0", h[i].name);
		n = topo_builder_add_node(b, &ni, NULL);
		assert_true(n >= 0);
		topo_builder_set_port(b, n, 1, &pi, NULL);
		assert_int_equal(topo_builder_add_link(b, n, 1, &ref, h[i].port,
						       (slow1x >> i & 1) ? 1 : 4, TOPO_SPEED_HDR,
						       NULL), 0);
	}
	for (unsigned i = 0; i < nl; i++) {
		struct topo_ref ref = { NULL, SW_GUID(lk[i].b) };

		assert_int_equal(topo_builder_add_link(b, sw[lk[i].a], lk[i].pa, &ref, lk[i].pb, 4,
						       TOPO_SPEED_HDR, NULL), 0);
	}
	return topo_builder_finish(b);
}

/* Give @raw LIDs (dropping node @skip), route it D-mod-K, classify. */
static void fab_init(struct fab *f, struct topo *raw, uint32_t skip)
{
	if (!raw)
		diag_print(&f->dl, stderr);
	assert_non_null(raw);
	f->t = ru_relid(raw, skip, &f->dl);
	topo_free(raw);
	if (!f->t)
		diag_print(&f->dl, stderr);
	assert_non_null(f->t);
	f->l = ru_dmodk(f->t);
	assert_non_null(f->l);
	assert_int_equal(cls_classify(f->t, NULL, &f->c), 0);
	chk_opts_init(&f->o);
	assert_int_equal(chk_report_init(&f->r, f->t->nports), 0);
}

static void fab_hand(struct fab *f, unsigned nsw, unsigned radix, const struct hspec *h,
		     unsigned nh, const struct lspec *lk, unsigned nl)
{
	diag_init(&f->dl, 0);
	fab_init(f, build(&f->dl, nsw, radix, h, nh, lk, nl, 0), TOPO_NONE);
}

/* A generated fabric; @drop_spine removes its first spine (level 2). */
static void fab_gen(struct fab *f, const struct gen_opts *go, bool drop_spine)
{
	struct topo *raw;
	uint32_t skip = TOPO_NONE;

	diag_init(&f->dl, 0);
	raw = gen_fabric(go, &f->dl);
	if (raw && drop_spine) {
		struct cls c;

		assert_int_equal(cls_classify(raw, NULL, &c), 0);
		for (uint32_t n = 0; n < raw->nnodes && skip == TOPO_NONE; n++)
			if (topo_is_switch(raw, n) && c.level[n] == 2)
				skip = n;
		cls_free(&c);
		assert_true(skip != TOPO_NONE);
	}
	fab_init(f, raw, skip);
}

static void fab_run(struct fab *f)
{
	chk_report_free(&f->r);
	assert_int_equal(chk_report_init(&f->r, f->t->nports), 0);
	assert_int_equal(chk_metrics(f->t, f->l, &f->c, &f->o, &f->r), 0);
}

static void fab_free(struct fab *f)
{
	chk_report_free(&f->r);
	cls_free(&f->c);
	lft_free(f->l);
	topo_free(f->t);
	diag_free(&f->dl);
}

static double m(const struct fab *f, const char *name)
{
	return chk_metric_get(&f->r, name);
}

#define expect_metric(f, name, want)                                                   \
	do {                                                                           \
		double got_ = m(f, name), want_ = (want);                              \
		if (!(fabs(got_ - want_) < EPS))                                       \
			fail_msg("%s = %.12g, expected %.12g", name, got_, want_);     \
	} while (0)

/* Port index of switch @sw's port @pn in @f (switches are nodes 0..). */
static uint32_t swport(const struct fab *f, unsigned sw, unsigned pn)
{
	uint32_t n = topo_find_guid(f->t, SW_GUID(sw));

	assert_true(n != TOPO_NONE);
	return topo_port(f->t, n, pn);
}

static uint16_t host_lid(const struct fab *f, unsigned i)
{
	uint32_t n = topo_find_guid(f->t, CA_GUID(i));

	assert_true(n != TOPO_NONE);
	return topo_node_lid(f->t, n);
}

static void ft2_opts(struct gen_opts *go, unsigned radix, unsigned hosts)
{
	gen_opts_init(go, GEN_FATTREE);
	go->levels = 2;
	go->radix = radix;
	go->hosts = hosts;
}

/*
 * 2-level fat tree, radix 8, 32 hosts: 8 leaves x 4 hosts, 4 spines, one
 * link from every leaf to every spine.  Host i has LID i + 1, so a leaf's
 * hosts have 4 consecutive LIDs (mod 32 too, as 4 divides 32).  Shift k:
 * the 4 sources of a leaf go to 4 consecutive LIDs, distinct mod 4, so to
 * 4 different up-links; spine j carries to leaf b only b's one LID that
 * is j mod 4.  Every channel has at most 1 flow: shift_max = 1 for every k
 * and the lower bound is 1 (4 flows / 4 up-links).
 */
static void test_shift_fattree_ideal(void **state)
{
	struct gen_opts go;
	struct fab f;

	(void)state;
	ft2_opts(&go, 8, 32);
	fab_gen(&f, &go, false);
	assert_int_equal(f.t->nswitches, 12);
	fab_run(&f);
	expect_metric(&f, "compute_hcas", 32);
	expect_metric(&f, "shift_count", 31);
	expect_metric(&f, "shift_sampled", 0);
	expect_metric(&f, "shift_max", 1);
	expect_metric(&f, "shift_mean", 1);
	expect_metric(&f, "shift_lb_max", 1);
	expect_metric(&f, "shift_lb_mean", 1);
	expect_metric(&f, "flows_unrouted", 0);
	expect_metric(&f, "uplink_spread_compute", 0);
	fab_free(&f);
}

/*
 * The same tree without one spine: every leaf has 3 up-links for 4 hosts.
 * Shift k in 4..28 sends all 4 hosts of a leaf off the leaf: the lower
 * bound is ceil(4 / 3) = 2, and D-mod-K reaches it: 4 LIDs consecutive
 * mod 32 take residues mod 3 at most twice each (e.g. 31,32,1,2 -> 1,2,1,2),
 * so an up-link has at most 2 flows, and a spine-to-leaf link at most 2 of
 * the leaf's 4 consecutive LIDs.  Shifts 1..3 and 29..31 send min(k, 32-k)
 * <= 3 flows off a leaf to consecutive LIDs: 1 per link, bound 1.  So
 * shift_max = shift_lb_max = 2, and both means are (25 x 2 + 6 x 1) / 31.
 */
static void test_shift_fattree_spine_removed(void **state)
{
	struct gen_opts go;
	struct fab f;

	(void)state;
	ft2_opts(&go, 8, 32);
	fab_gen(&f, &go, true);
	assert_int_equal(f.t->nswitches, 11);
	fab_run(&f);
	expect_metric(&f, "shift_count", 31);
	expect_metric(&f, "shift_max", 2);
	expect_metric(&f, "shift_lb_max", 2);
	expect_metric(&f, "shift_mean", 56.0 / 31);
	expect_metric(&f, "shift_lb_mean", 56.0 / 31);
	expect_metric(&f, "flows_unrouted", 0);
	fab_free(&f);
}

/*
 * Hand-made lower bound: spines 0, 1; leaves 2 (hosts cn0, cn1) and 3
 * (cn2, cn3), each leaf linked to both spines.  The routing is made bad:
 * both leaves send the other leaf's hosts up through spine 0 only.
 *   shift 1: cn1->cn2, cn3->cn0 cross, 1 flow per link: max 1, bound 1
 *   shift 2: cn0->cn2, cn1->cn3 both on leaf 2 -> spine 0: max 2; bound
 *            ceil(2 flows / 2 up-links) = 1
 *   shift 3: cn0->cn3, cn2->cn1 cross, one each way: max 1, bound 1
 * shift_max 2, mean 4/3; shift_lb_max 1, mean 1 (the routing, not the
 * fabric, is at fault).  Up-link route counts of leaf 2: spine 0 carries
 * cn2 and cn3, spine 1 no compute route: uplink_spread_compute = 2
 * (D-mod-K alone: LIDs 3, 4 split 1/1, spread 0).
 * Then without the link leaf 2 - spine 1: shift 2's bound becomes
 * ceil(2 / 1) = 2, so shift_lb_max 2, mean 4/3.
 */
static const struct hspec lb_hosts[] = {
	{ "cn0", 2, 1 }, { "cn1", 2, 2 }, { "cn2", 3, 1 }, { "cn3", 3, 2 },
};

static void lb_route_via_spine0(struct fab *f)
{
	for (unsigned leaf = 2; leaf <= 3; leaf++) {
		uint32_t s = f->t->node_sw[topo_find_guid(f->t, SW_GUID(leaf))];

		for (unsigned h = 0; h < 4; h++)
			if (lb_hosts[h].sw != leaf)
				lft_set(f->l, s, host_lid(f, h), 3);	/* port 3: spine 0 */
	}
}

static void test_shift_lower_bound_hand(void **state)
{
	static const struct lspec links[] = {
		{ 2, 3, 0, 1 }, { 2, 4, 1, 1 }, { 3, 3, 0, 2 }, { 3, 4, 1, 2 },
	};
	static const struct lspec degraded[] = {	/* leaf 2 - spine 1 gone */
		{ 2, 3, 0, 1 }, { 3, 3, 0, 2 }, { 3, 4, 1, 2 },
	};
	struct fab f;

	(void)state;
	fab_hand(&f, 4, 4, lb_hosts, 4, links, 4);
	fab_run(&f);
	expect_metric(&f, "shift_max", 1);
	expect_metric(&f, "uplink_spread_compute", 0);
	lb_route_via_spine0(&f);
	fab_run(&f);
	expect_metric(&f, "shift_count", 3);
	expect_metric(&f, "shift_max", 2);
	expect_metric(&f, "shift_mean", 4.0 / 3);
	expect_metric(&f, "shift_lb_max", 1);
	expect_metric(&f, "shift_lb_mean", 1);
	expect_metric(&f, "uplink_spread_compute", 2);
	fab_free(&f);

	fab_hand(&f, 4, 4, lb_hosts, 4, degraded, 3);
	lb_route_via_spine0(&f);
	fab_run(&f);
	expect_metric(&f, "shift_max", 2);
	expect_metric(&f, "shift_lb_max", 2);
	expect_metric(&f, "shift_lb_mean", 4.0 / 3);
	fab_free(&f);
}

/*
 * Shifts by rate (shift_rated_*), by hand: lb_hosts with cn0 on a 1x link
 * (50 of 200 Gb/s: 0.25), every route between the leaves through spine 0.
 * A flow asks its path's least rate: 0.25 from or to cn0, else 1; a
 * channel carries its flows' asks over its own rate.
 *   shift 1: cn0->cn1 (local: cn0's link 0.25 / 0.25 = 1), cn1->cn2 (1 on
 *            each hop), cn2->cn3 (local), cn3->cn0 (0.25 up to cn0's link,
 *            there 1): max 1 (flows: 1)
 *   shift 2: cn0->cn2 and cn1->cn3 share leaf 2 -> spine 0 and spine 0 ->
 *            leaf 3: 0.25 + 1 = 1.25; back the same: max 1.25 (flows: 2)
 *   shift 3: cn0->cn3 (0.25), cn1->cn0 (local, 1 on cn0's link), cn2->cn1
 *            (1 per hop), cn3->cn2: max 1 (flows: 1)
 * shift_rated_max 1.25, mean 3.25 / 3; shift_max 2, mean 4 / 3.  On one
 * rate the metric is not reported.
 */
static void test_shift_rated_hand(void **state)
{
	static const struct lspec links[] = {
		{ 2, 3, 0, 1 }, { 2, 4, 1, 1 }, { 3, 3, 0, 2 }, { 3, 4, 1, 2 },
	};
	struct fab f;

	(void)state;
	diag_init(&f.dl, 0);
	fab_init(&f, build(&f.dl, 4, 4, lb_hosts, 4, links, 4, 1u << 0), TOPO_NONE);
	lb_route_via_spine0(&f);
	fab_run(&f);
	expect_metric(&f, "shift_count", 3);
	expect_metric(&f, "shift_max", 2);
	expect_metric(&f, "shift_mean", 4.0 / 3);
	expect_metric(&f, "shift_rated_max", 1.25);
	expect_metric(&f, "shift_rated_mean", 3.25 / 3);
	fab_free(&f);

	fab_hand(&f, 4, 4, lb_hosts, 4, links, 4);
	fab_run(&f);
	assert_true(isnan(chk_metric_get(&f.r, "shift_rated_max")));
	fab_free(&f);
}

/*
 * The bound for routes on shortest paths (shift_lb_sp), by hand: leaf 2
 * (cn0, cn1) has links to switches 0 and 1, leaf 3 (cn2, cn3) to 0 and 4,
 * and 1 - 4 are joined.  Leaf to leaf, the only shortest path is through
 * switch 0 (two hops; through 1 and 4 three).  Shift 2 sends cn0, cn1 to
 * cn2, cn3 and back: 2 flows over leaf 2's one link that starts a
 * shortest path, so shift_lb_sp 2, while the leaves' cuts (2 links each)
 * give shift_lb 1.  Shifts 1 and 3 cross one flow each way: 1 and 1.
 * shift_lb_sp_max 2, mean 4/3; shift_lb_max 1, mean 1.
 */
static void test_shift_lb_shortest_hand(void **state)
{
	static const struct lspec links[] = {
		{ 2, 3, 0, 1 }, { 2, 4, 1, 1 }, { 3, 3, 0, 2 }, { 3, 4, 4, 1 }, { 1, 2, 4, 2 },
	};
	struct fab f;

	(void)state;
	fab_hand(&f, 5, 4, lb_hosts, 4, links, 5);
	fab_run(&f);
	expect_metric(&f, "shift_count", 3);
	expect_metric(&f, "shift_lb_max", 1);
	expect_metric(&f, "shift_lb_mean", 1);
	expect_metric(&f, "shift_lb_sp_max", 2);
	expect_metric(&f, "shift_lb_sp_mean", 4.0 / 3);
	fab_free(&f);
}

/*
 * Inter-zone bound: the small Fire-Flyer 2 fabric (2 zones of 20 compute
 * HCAs, 4 inter-zone links per zone through 2 bridges).  Shift 20 sends all
 * 20 zone-0 hosts to zone 1: ceil(20 / 4) = 5; no leaf bound is larger (at
 * most 3 compute hosts per leaf, >= 4 up-links).  Shift 20 is evaluated
 * (N = 40 <= 256), so shift_lb_max = 5 exactly.  The cross-zone job takes
 * all 40 (xzone_job 512 > 40): 4 x 39 flows.
 */
static void test_shift_interzone_bound(void **state)
{
	struct gen_opts go;
	struct fab f;

	(void)state;
	gen_opts_init(&go, GEN_FF2);
	fab_gen(&f, &go, false);
	assert_int_equal(f.c.nzones, 2);
	fab_run(&f);
	expect_metric(&f, "compute_hcas", 40);
	expect_metric(&f, "shift_lb_max", 5);
	assert_true(m(&f, "shift_max") >= 5);
	expect_metric(&f, "dbt_zone0_ranks", 20);
	expect_metric(&f, "dbt_zone0_flows", 4 * 19);
	expect_metric(&f, "dbt_xzone_ranks", 40);
	expect_metric(&f, "dbt_xzone_flows", 4 * 39);
	expect_metric(&f, "flows_unrouted", 0);
	fab_free(&f);
}

/* One switch with @n compute hosts on ports 1..n. */
static void fab_single(struct fab *f, unsigned n)
{
	static const char *const names[] = { "cn0", "cn1", "cn2", "cn3", "cn4", "cn5", "cn6",
					     "cn7" };
	struct hspec h[8];

	assert_true(n <= 8);
	for (unsigned i = 0; i < n; i++)
		h[i] = (struct hspec){ names[i], 0, i + 1 };
	fab_hand(f, 1, 8, h, n, NULL, 0);
}

/*
 * EBB = 1 where no two flows of a perfect matching can share a channel: a
 * single switch (a crossbar), and a tree with one host per leaf (a leaf's
 * up-link carries only its host's flow, spine -> leaf only the flow to
 * it).  Note that D-mod-K on a non-blocking tree with several hosts per
 * leaf does NOT give 1 under random matchings: that is Hoefler's point.
 */
static void test_ebb_nonblocking(void **state)
{
	static const struct hspec h[] = {
		{ "cn0", 1, 1 }, { "cn1", 2, 1 }, { "cn2", 3, 1 }, { "cn3", 4, 1 },
	};
	static const struct lspec links[] = {
		{ 1, 2, 0, 1 }, { 2, 2, 0, 2 }, { 3, 2, 0, 3 }, { 4, 2, 0, 4 },
	};
	struct fab f;

	(void)state;
	fab_single(&f, 6);
	fab_run(&f);
	expect_metric(&f, "ebb", 1);
	expect_metric(&f, "ebb_stderr", 0);
	expect_metric(&f, "ebb_bisections", 4096);
	fab_free(&f);
	fab_hand(&f, 5, 4, h, 4, links, 4);
	fab_run(&f);
	expect_metric(&f, "ebb", 1);
	expect_metric(&f, "shift_max", 1);
	fab_free(&f);
}

/*
 * The compute order follows the graph, not the GUIDs (class_pos.c).  A
 * 3-level tree whose GUID order interleaves its pods: core 0; pod A =
 * leaves 1 and 3 under spine 5; pod B = leaves 2 and 4 under spine 6; one
 * host per leaf (cn0 on 1, cn1 on 2, cn2 on 3, cn3 on 4).  Parts of the
 * levels 1..2 graph: A (named by node 1) and B (node 2); within a part the
 * spine first, then the leaves by GUID; the core last.  Positions: 5 1 3
 * 6 2 4 0, so the compute order is cn0 cn2 cn1 cn3 (by GUID it was cn0
 * cn1 cn2 cn3: every shift-1 flow crossed the core).
 */
static void test_positions_from_graph(void **state)
{
	static const struct hspec h[] = {
		{ "cn0", 1, 1 }, { "cn1", 2, 1 }, { "cn2", 3, 1 }, { "cn3", 4, 1 },
	};
	static const struct lspec links[] = {
		{ 1, 2, 5, 1 }, { 3, 2, 5, 2 }, { 2, 2, 6, 1 }, { 4, 2, 6, 2 },
		{ 5, 3, 0, 1 }, { 6, 3, 0, 2 },
	};
	static const unsigned order[] = { 5, 1, 3, 6, 2, 4, 0 }, leaf_of[] = { 1, 3, 2, 4 };
	struct chk_ep *ep = NULL;
	uint32_t n = 0;
	struct fab f;

	(void)state;
	fab_hand(&f, 7, 4, h, 4, links, 6);
	assert_int_equal(f.c.nlevels, 3);
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(f.c.pos[topo_find_guid(f.t, SW_GUID(order[i]))], i);
	assert_int_equal(chk_endpoints(f.t, &f.c, CLS_ROLE_COMPUTE, &ep, &n), 0);
	assert_int_equal(n, 4);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(ep[i].leaf, topo_find_guid(f.t, SW_GUID(leaf_of[i])));
	free(ep);
	fab_free(&f);
}

/*
 * The same tree with a management host on the core: the core is a leaf
 * by the BFS (2 levels, no pods); a level=3 override puts it back on top,
 * and the positions must see the override's 3 levels (they read nlevels
 * before the override once, and pods interleaved by GUID again).
 */
static void test_positions_level_override(void **state)
{
	static const struct hspec h[] = {
		{ "cn0", 1, 1 }, { "cn1", 2, 1 }, { "cn2", 3, 1 }, { "cn3", 4, 1 }, { "mg0", 0, 3 },
	};
	static const struct lspec links[] = {
		{ 1, 2, 5, 1 }, { 3, 2, 5, 2 }, { 2, 2, 6, 1 }, { 4, 2, 6, 2 },
		{ 5, 3, 0, 1 }, { 6, 3, 0, 2 },
	};
	static const unsigned order[] = { 5, 1, 3, 6, 2, 4, 0 };
	struct cls_override o = { SW_GUID(0), NULL, -1, -1, -1, 3, 1, -1 };
	struct cls_overrides ov = { &o, 1, "roles", NULL };
	struct fab f;

	(void)state;
	fab_hand(&f, 7, 4, h, 5, links, 6);
	assert_int_equal(f.c.nlevels, 2);
	cls_free(&f.c);
	assert_int_equal(cls_classify(f.t, &ov, &f.c), 0);
	assert_int_equal(f.c.nlevels, 3);
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(f.c.pos[topo_find_guid(f.t, SW_GUID(order[i]))], i);
	fab_free(&f);
}

/*
 * A 2-level Clos with a leaf that has no host: spines 0, 1; leaves 2..5
 * with one host each, leaf 6 with none.  The BFS puts leaf 6 on level 3;
 * its spines mostly go down and it shares both with leaf 2: a leaf.
 */
static void test_hostless_leaf(void **state)
{
	static const struct hspec h[] = {
		{ "cn0", 2, 1 }, { "cn1", 3, 1 }, { "cn2", 4, 1 }, { "cn3", 5, 1 },
	};
	static const struct lspec links[] = {
		{ 2, 2, 0, 1 }, { 2, 3, 1, 1 }, { 3, 2, 0, 2 }, { 3, 3, 1, 2 }, { 4, 2, 0, 3 },
		{ 4, 3, 1, 3 }, { 5, 2, 0, 4 }, { 5, 3, 1, 4 }, { 6, 2, 0, 5 }, { 6, 3, 1, 5 },
	};
	struct fab f;

	(void)state;
	fab_hand(&f, 7, 8, h, 4, links, 10);
	assert_int_equal(f.c.level[topo_find_guid(f.t, SW_GUID(6))], 1);
	assert_int_equal(f.c.nlevels, 2);
	assert_int_equal(f.c.nzones, 1);
	fab_free(&f);
}

/*
 * A 3-level tree tapered 4:1 at its aggregation switches: pod p (0..2) =
 * leaves 6p..6p+3 under aggregation switches 6p+4 and 6p+5, each with one
 * link up (6p+4 to core 18, 6p+5 to core 19), two hosts per leaf.  The
 * aggregation switches mostly go down (4 to 1), yet the cores are no
 * host-less leaves: each shares one of a leaf's two up-neighbours.  The
 * three pods hang from the tier above them: one zone, three levels.
 * Shift bound by hand: 24 compute HCAs, 8 per pod (consecutive in the
 * compute order), 2 links out of each pod.  Shift k sends min(k, 24 - k,
 * 8) flows out of each pod: bound ceil(that / 2), for k = 1..23
 * 1 1 2 2 3 3 4 (4 x 9) 4 3 3 2 2 1 1 (leaves: 2 flows at most on 2
 * up-links): max 4, mean 68 / 23.  Without the pods' bound it was 1.
 */
static void test_tapered_tree(void **state)
{
	static char names[24][8];
	struct hspec h[24];
	struct lspec links[30];
	unsigned nl = 0;
	struct fab f;

	(void)state;
	for (unsigned p = 0; p < 3; p++) {
		for (unsigned j = 0; j < 4; j++) {
			for (unsigned k = 0; k < 2; k++) {
				unsigned i = p * 8 + j * 2 + k;

				snprintf(names[i], sizeof(names[i]), "cn%02u", i);
				h[i] = (struct hspec){ names[i], 6 * p + j, 1 + k };
			}
			links[nl++] = (struct lspec){ 6 * p + j, 3, 6 * p + 4, 1 + j };
			links[nl++] = (struct lspec){ 6 * p + j, 4, 6 * p + 5, 1 + j };
		}
		links[nl++] = (struct lspec){ 6 * p + 4, 5, 18, 1 + p };
		links[nl++] = (struct lspec){ 6 * p + 5, 5, 19, 1 + p };
	}
	fab_hand(&f, 20, 8, h, 24, links, nl);
	for (unsigned i = 0; i < 20; i++)
		assert_int_equal(f.c.level[topo_find_guid(f.t, SW_GUID(i))],
				 i >= 18 ? 3 : i % 6 >= 4 ? 2 : 1);
	assert_int_equal(f.c.nlevels, 3);
	assert_int_equal(f.c.nzones, 1);
	assert_int_equal(f.c.npartlv, 1);
	fab_run(&f);
	expect_metric(&f, "shift_count", 23);
	expect_metric(&f, "shift_lb_max", 4);
	expect_metric(&f, "shift_lb_mean", 68.0 / 23);
	assert_true(m(&f, "shift_max") >= 4);
	expect_metric(&f, "flows_unrouted", 0);
	fab_free(&f);
}

/* EBB's default bisections: 3.2 million flows' worth, within 32..4096. */
static void test_ebb_default_bisections(void **state)
{
	(void)state;
	assert_int_equal(chk_ebb_bisections(792), 4041);	/* ceil(4040.4) */
	assert_int_equal(chk_ebb_bisections(16384), 196);
	assert_int_equal(chk_ebb_bisections(4), 4096);
	assert_int_equal(chk_ebb_bisections(0), 4096);
	assert_int_equal(chk_ebb_bisections(200000), 32);
}

/*
 * 2:1 oversubscribed: spine 0, leaves 1 (cn0, cn1) and 2 (cn2, cn3), one
 * up-link each.  A random bisection with a random matching across is a
 * uniform perfect matching of the 4 hosts, each with probability 1/3:
 *   {cn0-cn1, cn2-cn3}: all flows inside a leaf, bandwidth 1
 *   {cn0-cn2, cn1-cn3}, {cn0-cn3, cn1-cn2}: 2 flows on each leaf-spine
 *   channel (both directions), every flow 1/2
 * so each bisection gives 1 or 1/2, and E[ebb] = 1/3 + 2/3 x 1/2 = 2/3.
 * With B bisections ebb = 1/2 + j / (2B) for an integer j (the bisections
 * at 1); with B = 6000 the mean is within 0.015 of 2/3 (sd 0.003).  The
 * bisections' means are j ones and B - j halves: sample variance
 * (1/4) j (B - j) / (B (B - 1)), so ebb_stderr = sqrt(that / B).
 * All-to-all: every leaf-spine channel carries 2 x 2 flows: a2a_max =
 * a2a_mean = 4; each host link out carries 3.
 */
static const struct hspec os_hosts[] = {
	{ "cn0", 1, 1 }, { "cn1", 1, 2 }, { "cn2", 2, 1 }, { "cn3", 2, 2 },
};
static const struct lspec os_links[] = { { 1, 3, 0, 1 }, { 2, 3, 0, 2 } };

static void test_ebb_oversubscribed(void **state)
{
	struct fab f;
	double e, j;

	(void)state;
	fab_hand(&f, 3, 4, os_hosts, 4, os_links, 2);
	f.o.bisections = 6000;
	fab_run(&f);
	e = m(&f, "ebb");
	j = (e - 0.5) * 2 * 6000;
	assert_true(e < 1);
	assert_true(fabs(j - round(j)) < 1e-6);
	if (fabs(e - 2.0 / 3) > 0.015)
		fail_msg("ebb %.6f, expected 2/3 +- 0.015", e);
	j = round(j);
	expect_metric(&f, "ebb_stderr", sqrt(0.25 * j * (6000 - j) / (6000.0 * 5999) / 6000));
	expect_metric(&f, "a2a_max", 4);
	expect_metric(&f, "a2a_mean", 4);
	expect_metric(&f, "a2a_flows", 12);
	expect_metric(&f, "a2a_sampled", 0);
	assert_int_equal(f.r.ch_load[swport(&f, 1, 3)], 4);
	assert_int_equal(f.r.ch_load[swport(&f, 0, 2)], 4);
	assert_int_equal(f.r.ch_load[topo_port(f.t, topo_find_guid(f.t, CA_GUID(0)), 1)], 3);
	assert_int_equal(f.r.ch_load[swport(&f, 1, 1)], 3);	/* into cn0 */
	fab_free(&f);
}

/*
 * Double binary tree on one switch, where a flow shares only host links.
 * n = 8 (even: tree 2 mirrors tree 1).  Tree 1 (NCCL btree): 0-4, 4-2,
 * 4-6, 2-1, 2-3, 6-5, 6-7; tree 2 maps r -> 7 - r.  Neighbours per rank
 * over both trees: ranks 0 and 7 have 2, all others 4 (a leaf of one tree
 * is inner in the other).  Flows 2 x 7 x 2 = 28; the host link of a rank
 * carries one flow per neighbour: max share 4; every edge has an end of
 * degree 4, so every flow gets 1/4: bw 0.25.
 * n = 5 (odd: tree 2 is tree 1 shifted by one rank).  Tree 1: 0-4, 4-2,
 * 2-1, 2-3; tree 2: 1-0, 0-3, 3-2, 3-4.  Degrees 0:3 1:2 2:4 3:4 4:3.
 * Flow a->b gets 1/max(deg a, deg b): the 2 edges 0-4 and 1-0 give 4
 * flows of 1/3, the other 6 edges 12 flows of 1/4: bw = (4/3 + 3) / 16
 * = 13/48; 16 flows, max share 4.
 */
static void test_dbt_single_switch(void **state)
{
	struct fab f;

	(void)state;
	fab_single(&f, 8);
	fab_run(&f);
	expect_metric(&f, "dbt_zone0_ranks", 8);
	expect_metric(&f, "dbt_zone0_flows", 2 * 7 * 2);
	expect_metric(&f, "dbt_zone0_max_share", 4);
	expect_metric(&f, "dbt_zone0_bw", 0.25);
	assert_true(isnan(m(&f, "dbt_xzone_flows")));	/* one zone: no cross-zone job */
	fab_free(&f);

	fab_single(&f, 5);
	fab_run(&f);
	expect_metric(&f, "dbt_zone0_flows", 2 * 4 * 2);
	expect_metric(&f, "dbt_zone0_max_share", 4);
	expect_metric(&f, "dbt_zone0_bw", 13.0 / 48);
	fab_free(&f);
}

/* A job given as CA nodes: 3 ranks -> 2 x 2 x 2 = 8 flows, in job order. */
static void test_dbt_job(void **state)
{
	struct fab f;
	uint32_t job[3];

	(void)state;
	fab_single(&f, 6);
	for (unsigned i = 0; i < 3; i++)
		job[i] = topo_find_guid(f.t, CA_GUID(5 - i));
	f.o.job = job;
	f.o.njob = 3;
	fab_run(&f);
	expect_metric(&f, "dbt_job_ranks", 3);
	expect_metric(&f, "dbt_job_flows", 8);
	expect_metric(&f, "dbt_zone0_ranks", 6);
	fab_free(&f);
}

/*
 * Storage incast.  Spine 0, leaves 1 and 2.
 * (a) cn0..cn3 on leaf 1, st1, st2 on leaf 2: shift 1 stays on leaf 1 and
 *     the reads (8 flows) come down from the spine: no switch-to-switch
 *     channel is shared, ratio 1.
 * (b) cn0, cn1 on leaf 1; cn2, cn3, st1, st2 on leaf 2.  Shift 1:
 *     cn0->cn1, cn2->cn3 local; cn1->cn2 up leaf 1; cn3->cn0 up leaf 2.
 *     Reads (each compute from both storage HCAs): cn0, cn1 read 4 flows
 *     over leaf 2 -> spine -> leaf 1, the channels cn3->cn0 uses: 5 flows
 *     there, so cn3->cn0 gets 1/5, the other three 1.  Alone all get 1.
 *     ratio = (3 + 1/5) / 4 = 0.8.
 */
static void test_incast(void **state)
{
	static const struct hspec ha[] = {
		{ "cn0", 1, 1 }, { "cn1", 1, 2 }, { "cn2", 1, 3 }, { "cn3", 1, 4 },
		{ "st1", 2, 1 }, { "st2", 2, 2 },
	};
	static const struct hspec hb[] = {
		{ "cn0", 1, 1 }, { "cn1", 1, 2 }, { "cn2", 2, 1 }, { "cn3", 2, 2 },
		{ "st1", 2, 3 }, { "st2", 2, 4 },
	};
	static const struct lspec links[] = { { 1, 6, 0, 1 }, { 2, 6, 0, 2 } };
	struct fab f;

	(void)state;
	fab_hand(&f, 3, 6, ha, 6, links, 2);
	fab_run(&f);
	expect_metric(&f, "incast_flows", 8);
	expect_metric(&f, "incast_mix_ratio", 1);
	fab_free(&f);
	fab_hand(&f, 3, 6, hb, 6, links, 2);
	fab_run(&f);
	expect_metric(&f, "incast_flows", 8);
	expect_metric(&f, "incast_mix_ratio", 0.8);
	fab_free(&f);
}

/*
 * Per-class route counts.  Spine 0 (port 1 to leaf 1, port 2 to leaf 2);
 * leaf 1: cn0 (port 1), st1 (2), up port 3; leaf 2: cn1 (1), mg1 (2), up
 * port 3.  LIDs: cn0 1, st1 2, cn1 3, mg1 4, switches 0, 1, 2 -> 5, 6, 7.
 * A route (switch, LID) counts on every channel of its path:
 *   leaf1 -> spine  from leaf 1: cn1, mg1, sw0, sw2        compute 1 storage 0 other 3
 *   leaf2 -> spine  from leaf 2: cn0, st1, sw0, sw1        1 1 2
 *   spine -> leaf1  from spine and leaf 2: cn0, st1, sw1   2 2 2
 *   spine -> leaf2  from spine and leaf 1: cn1, mg1, sw2   2 0 4
 * all 4, 4, 6, 6: max 6, mean 5; compute max 2, mean 1.5; storage max 2,
 * mean 0.75; other max 4, mean 2.75.
 * With SL 1 toward st1 (others 0) and SL2VL = identity: VL1 carries the 3
 * (route, channel) pairs toward st1, VL0 the other 17.
 */
static void test_link_routes_per_class(void **state)
{
	static const struct hspec h[] = {
		{ "cn0", 1, 1 }, { "st1", 1, 2 }, { "cn1", 2, 1 }, { "mg1", 2, 2 },
	};
	static const struct lspec links[] = { { 1, 3, 0, 1 }, { 2, 3, 0, 2 } };
	uint8_t *sl, *sl2vl;
	struct fab f;

	(void)state;
	fab_hand(&f, 3, 4, h, 4, links, 2);
	assert_int_equal(host_lid(&f, 1), 2);
	sl = calloc(f.t->max_lid + 1, 1);
	sl2vl = malloc((size_t)f.t->nports * 16);
	assert_non_null(sl);
	assert_non_null(sl2vl);
	for (uint32_t p = 0; p < f.t->nports; p++)
		for (unsigned s = 0; s < 16; s++)
			sl2vl[p * 16 + s] = (uint8_t)s;
	sl[host_lid(&f, 1)] = 1;
	f.o.sl = sl;
	f.o.sl2vl = sl2vl;
	fab_run(&f);
	expect_metric(&f, "link_routes_max", 6);
	expect_metric(&f, "link_routes_mean", 5);
	expect_metric(&f, "link_routes_max_over_mean", 1.2);
	expect_metric(&f, "link_routes_compute_max", 2);
	expect_metric(&f, "link_routes_compute_mean", 1.5);
	expect_metric(&f, "link_routes_storage_max", 2);
	expect_metric(&f, "link_routes_storage_mean", 0.75);
	expect_metric(&f, "link_routes_storage_max_over_mean", 2 / 0.75);
	expect_metric(&f, "link_routes_other_max", 4);
	expect_metric(&f, "link_routes_other_mean", 2.75);
	expect_metric(&f, "uplink_spread", 0);
	expect_metric(&f, "vl0_routes", 17);
	expect_metric(&f, "vl1_routes", 3);
	assert_true(isnan(m(&f, "vl2_routes")));
	assert_int_equal(f.r.ch_routes[swport(&f, 1, 3)], 4);
	assert_int_equal(f.r.ch_routes_tc[CLS_TC_OTHER][swport(&f, 1, 3)], 3);
	assert_int_equal(f.r.ch_routes_tc[CLS_TC_STORAGE][swport(&f, 2, 3)], 1);
	assert_int_equal(f.r.ch_routes[swport(&f, 0, 2)], 6);
	assert_int_equal(f.r.ch_routes[swport(&f, 1, 1)], 3);	/* leaf 1 -> cn0 */
	free(sl);
	free(sl2vl);
	fab_free(&f);
}

/*
 * Unrouted flows count as bandwidth 0 and in flows_unrouted.  One switch,
 * cn0..cn3, the route to cn3 removed.  Flows toward cn3: shifts 1..3 one
 * each (3); each of 32 bisections (set) one (32); the 4-rank double binary tree
 * gives cn3 one neighbour per tree (2); shift 1 of the incast mix one (1);
 * the all-to-all three (3): 41.
 */
static void test_unrouted(void **state)
{
	struct fab f;

	(void)state;
	fab_single(&f, 4);
	f.o.bisections = 32;
	lft_set(f.l, 0, host_lid(&f, 3), LFT_NONE);
	fab_run(&f);
	expect_metric(&f, "flows_unrouted", 41);
	assert_true(m(&f, "ebb") < 1);
	fab_free(&f);
}

/*
 * chk_metrics() on a fresh report runs chk_findings() for the route counts:
 * the same counts and metrics as running findings first.
 */
static void metrics_equal(const struct chk_report *a, const struct chk_report *b);

static void test_routes_match_findings(void **state)
{
	struct gen_opts go;
	struct chk_report mine;
	struct fab f;

	(void)state;
	gen_opts_init(&go, GEN_FF2);
	fab_gen(&f, &go, false);
	fab_run(&f);		/* chk_metrics() alone */
	assert_true(f.r.routes_counted);
	mine = f.r;
	assert_int_equal(chk_report_init(&f.r, f.t->nports), 0);
	assert_int_equal(chk_findings(f.t, f.l, &f.c, &f.o, &f.r), 0);
	for (uint32_t p = 0; p < f.t->nports; p++) {
		assert_int_equal(f.r.ch_routes[p], mine.ch_routes[p]);
		for (unsigned k = 0; k < CLS_TC_COUNT; k++)
			assert_int_equal(f.r.ch_routes_tc[k][p], mine.ch_routes_tc[k][p]);
	}
	assert_int_equal(chk_metrics(f.t, f.l, &f.c, &f.o, &f.r), 0);
	metrics_equal(&f.r, &mine);
	chk_report_free(&mine);
	fab_free(&f);
}

static void metrics_equal(const struct chk_report *a, const struct chk_report *b)
{
	assert_int_equal(a->nm, b->nm);
	for (uint32_t i = 0; i < a->nm; i++) {
		assert_string_equal(a->m[i].name, b->m[i].name);
		if (a->m[i].value != b->m[i].value &&
		    !(isnan(a->m[i].value) && isnan(b->m[i].value)))	/* undefined in both */
			fail_msg("%s: %.17g != %.17g", a->m[i].name, a->m[i].value,
				 b->m[i].value);
	}
}

/*
 * Determinism on a 288-host tree (radix 24, 24 leaves x 12 hosts, one of
 * 12 spines removed, so shifts differ: max 1 for k in 1..11 and 277..287,
 * 2 otherwise).  N > shift_all_max = 256: 64 sampled shifts.  Same seed, same numbers;
 * another seed samples other shifts and bisections; the number of
 * bisections does not change the shift numbers (separate streams).
 */
static void test_determinism(void **state)
{
	struct chk_report first;
	struct gen_opts go;
	struct fab f;
	double shift_mean, ebb;

	(void)state;
	ft2_opts(&go, 24, 288);
	fab_gen(&f, &go, true);
	f.o.shift_all_max = 256;
	fab_run(&f);
	expect_metric(&f, "compute_hcas", 288);
	expect_metric(&f, "shift_sampled", 1);
	expect_metric(&f, "shift_count", 64);
	expect_metric(&f, "shift_max", 2);
	expect_metric(&f, "shift_lb_max", 2);
	assert_int_equal(f.r.seed, 1);
	shift_mean = m(&f, "shift_mean");
	ebb = m(&f, "ebb");
	first = f.r;
	memset(&f.r, 0, sizeof(f.r));
	fab_run(&f);
	metrics_equal(&first, &f.r);
	chk_report_free(&first);

	f.o.seed = 2;
	fab_run(&f);
	assert_int_equal(f.r.seed, 2);
	assert_true(m(&f, "shift_mean") != shift_mean);
	assert_true(m(&f, "ebb") != ebb);

	f.o.seed = 1;
	f.o.bisections = 8;
	fab_run(&f);
	expect_metric(&f, "shift_mean", shift_mean);
	assert_true(m(&f, "ebb") != ebb);
	fab_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shift_fattree_ideal),
		cmocka_unit_test(test_shift_fattree_spine_removed),
		cmocka_unit_test(test_shift_lower_bound_hand),
		cmocka_unit_test(test_shift_lb_shortest_hand),
		cmocka_unit_test(test_shift_rated_hand),
		cmocka_unit_test(test_shift_interzone_bound),
		cmocka_unit_test(test_ebb_nonblocking),
		cmocka_unit_test(test_ebb_oversubscribed),
		cmocka_unit_test(test_ebb_default_bisections),
		cmocka_unit_test(test_positions_from_graph),
		cmocka_unit_test(test_positions_level_override),
		cmocka_unit_test(test_hostless_leaf),
		cmocka_unit_test(test_tapered_tree),
		cmocka_unit_test(test_dbt_single_switch),
		cmocka_unit_test(test_dbt_job),
		cmocka_unit_test(test_incast),
		cmocka_unit_test(test_link_routes_per_class),
		cmocka_unit_test(test_unrouted),
		cmocka_unit_test(test_routes_match_findings),
		cmocka_unit_test(test_determinism),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

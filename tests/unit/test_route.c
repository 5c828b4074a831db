// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_route.c - the classification (routing/class/) and the engine
 * (routing/route/) on generated fabrics with known answers:
 *   ff2 small: 2 zones, 2 zone-less bridges, 12 storage HCAs (dual-homed);
 *     route_run verifies, 2 VLs, every (switch, LID) routed, SL 0 inside a
 *     zone and 1 + zone across, identical tables twice; with one VL every
 *     LID up*down* in one order (route_single.c): complete, no credit loop
 *     (switch-LID routes included), no loop or hole by the checker, zone
 *     detours counted, identical tables twice;
 *   rail3 small: one zone (rail pods merged), 8 rails;
 *   frame small with a SHARP node on every switch: levels unchanged;
 *   frame small without one spine: still routed and verified;
 *   override file: a regex role and a level;
 *   3-level tree, 5 % of its links dropped (seed 2): one leaf kept only its
 *     plane-1 up-link, another only its plane-2 one, so their CAs have no
 *     up*down* path by levels.  Without the rooted layer the verification
 *     refuses (credit loop); with it (auto) the routing verifies, uses 2
 *     VLs, and every rooted LID has SL 13 from every source group, which
 *     every port maps to VL 1; the other LIDs keep SL 0 (VL 0);
 *   class weights 1,8,1 on ff2 small: still verified, and every leaf's
 *     weighted up-link spread (max - min over its up-links of compute + 8
 *     storage + other routes of its own) reaches 8 at most - one storage
 *     route more on a link is unavoidable when the storage count is not a
 *     multiple of the up-links, a compute route more on the same link is
 *     not - where the default (no weights) leaves 10.
 *   incremental (route_opts.base) on ff2 small, frame small and a 3-level
 *     tree, one switch link dropped, then one switch: the pass routes only
 *     the LIDs whose base route met the fault, every other LID's column is
 *     the base's; the merge that walks only the LIDs the base marks turned
 *     finds the same tables, SLs and turn rows as one that walks them all;
 *     the healed fabric gets the base's tables, SLs and rows byte for byte;
 *   the verification of an incremental pass on its changed LIDs alone (the
 *     base's trace, chk_trace.c) decides as the full one: on those three
 *     and on every switch above the leaves of the SuperPOD-style tree with
 *     SHARP nodes (tests/data/foreign) failing in turn, where some lenient
 *     merges fail the verification, routing with the base's trace and
 *     without it gives the same tables, SLs, rows and LID counts.
 */
#include "unit.h"

#include <ffroute/check.h>
#include <ffroute/class.h>
#include <ffroute/gen.h>
#include <ffroute/io.h>
#include <ffroute/route.h>

#include "route/route_int.h"
#include "route_util.h"

/* The fabric @go describes, without LIDs. */
static struct topo *made(const struct gen_opts *go)
{
	struct diag_list dl;
	struct topo *t;

	diag_init(&dl, 0);
	t = gen_fabric(go, &dl);
	diag_free(&dl);
	assert_non_null(t);
	return t;
}

static struct topo *gen(enum gen_family f, enum gen_style st, bool sharp, unsigned drop_sw)
{
	struct gen_opts go;
	struct topo *t;

	gen_opts_init(&go, f);
	go.style = st;
	go.sharp = sharp;
	go.drop_switches = drop_sw;
	t = made(&go);
	assert_int_equal(topo_assign_lids(t, 0), 0);
	return t;
}

static unsigned count_level(const struct topo *t, const struct cls *c, unsigned lv)
{
	unsigned n = 0;

	for (uint32_t i = 0; i < t->nnodes; i++)
		n += topo_is_switch(t, i) && c->level[i] == lv;
	return n;
}

/* Node of the first CA whose description starts with @prefix. */
static uint32_t ca_named(const struct topo *t, const char *prefix)
{
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (!topo_is_switch(t, i) && !strncmp(t->node_desc[i], prefix, strlen(prefix)))
			return i;
	fail_msg("no CA %s", prefix);
	return TOPO_NONE;
}

/* The checker on one VL: no credit loop, no loop, no hole, nothing unreachable. */
static void one_vl_clean(const struct topo *t, const struct cls *c, const struct lft *l)
{
	struct chk_report rep;
	struct chk_opts co;

	chk_opts_init(&co);
	co.metrics = false;
	assert_int_equal(chk_report_init(&rep, t->nports), 0);
	assert_int_equal(chk_findings(t, l, c, &co, &rep), 0);
	assert_int_equal(rep.f[CHK_F_CREDIT_LOOP].count, 0);
	assert_int_equal(rep.f[CHK_F_CREDIT_LOOP_SW].count, 0);
	assert_int_equal(rep.f[CHK_F_LOOP].count, 0);
	assert_int_equal(rep.f[CHK_F_BLACKHOLE].count, 0);
	assert_int_equal(rep.f[CHK_F_UNREACHABLE].count, 0);
	assert_int_equal(rep.f[CHK_F_SWITCH_LID].count, 0);
	chk_report_free(&rep);
}

static void test_ff2(void **state)
{
	struct topo *t = gen(GEN_FF2, GEN_STYLE_BRIDGE, false, 0);
	struct route_out a, b;
	struct route_opts o;
	struct cls c;
	unsigned storage = 0, zoneless = 0;
	uint32_t c0, c1;

	(void)state;
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(c.nzones, 2);
	assert_int_equal(c.nreasons, 0);
	for (uint32_t i = 0; i < t->nnodes; i++) {
		storage += c.role[i] == CLS_ROLE_STORAGE;
		zoneless += topo_is_switch(t, i) && c.zone[i] < 0;
	}
	assert_int_equal(storage, 12);
	assert_int_equal(zoneless, 2);
	route_opts_init(&o);
	assert_int_equal(route_run(t, &c, &o, &a), 0);
	assert_int_equal(a.nvls, 2);
	assert_int_equal(a.hard_findings, 0);
	assert_int_equal(a.routes, (uint64_t)t->nswitches * t->max_lid);
	c0 = ca_named(t, "cn0001");
	c1 = ca_named(t, "cn0021");	/* compute of zone 1 (zone 0: cn0001..cn0020) */
	assert_int_equal(c.zone[c0], 0);
	assert_int_equal(c.zone[c1], 1);
	assert_int_equal(route_sl(&a, c0, t->port_lid[topo_port(t, c1, 1)]), 2);
	assert_int_equal(route_sl(&a, c1, t->port_lid[topo_port(t, c0, 1)]), 1);
	assert_int_equal(route_sl(&a, c0, t->port_lid[topo_port(t, ca_named(t, "cn0002"), 1)]),
			 0);
	assert_int_equal(route_run(t, &c, &o, &b), 0);
	assert_memory_equal(a.lft->port, b.lft->port, (size_t)a.lft->nsw * a.lft->nlids);
	route_out_free(&b);
	o.vl_limit = 1;
	assert_int_equal(route_run(t, &c, &o, &b), 0);
	assert_true(b.single_order);
	assert_int_equal(b.nvls, 1);
	assert_null(b.sl);
	assert_int_equal(b.routes, (uint64_t)t->nswitches * t->max_lid);
	assert_int_equal(b.hard_findings, 0);
	assert_true(b.zone_detours > 0);	/* one order cannot keep both zones inside */
	one_vl_clean(t, &c, b.lft);
	route_out_free(&a);
	assert_int_equal(route_run(t, &c, &o, &a), 0);	/* deterministic */
	assert_memory_equal(a.lft->port, b.lft->port, (size_t)a.lft->nsw * a.lft->nlids);
	route_out_free(&a);
	route_out_free(&b);
	cls_free(&c);
	topo_free(t);
}

static void test_rail3(void **state)
{
	struct topo *t = gen(GEN_RAIL, GEN_STYLE_RAIL3, false, 0);
	struct route_out out;
	struct cls c;

	(void)state;
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(c.nzones, 1);		/* the 8 rail pods are not zones */
	assert_int_equal(c.nrails, 8);
	assert_int_equal(count_level(t, &c, 3), 8);
	assert_int_equal(route_run(t, &c, NULL, &out), 0);
	route_out_free(&out);
	cls_free(&c);
	topo_free(t);
}

static void test_frame_sharp_and_holes(void **state)
{
	struct topo *t = gen(GEN_FRAME, GEN_STYLE_DIRECTOR, true, 0);
	struct route_out out;
	struct cls c;

	(void)state;
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(count_level(t, &c, 1), 8);	/* SHARP nodes make no leaves */
	assert_int_equal(count_level(t, &c, 2), 4);
	assert_int_equal(route_run(t, &c, NULL, &out), 0);
	route_out_free(&out);
	cls_free(&c);
	topo_free(t);

	t = gen(GEN_FRAME, GEN_STYLE_DIRECTOR, false, 1);
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(route_run(t, &c, NULL, &out), 0);
	assert_int_equal(out.hard_findings, 0);
	route_out_free(&out);
	cls_free(&c);
	topo_free(t);
}

static void test_rooted(void **state)
{
	struct gen_opts go;
	struct diag_list dl;
	struct route_opts o;
	struct route_out out;
	struct topo *t;
	struct cls c;
	uint32_t rooted = 0;

	(void)state;
	gen_opts_init(&go, GEN_FATTREE);
	go.levels = 3;
	go.drop_links = 0.05;
	go.seed = 2;
	diag_init(&dl, 0);
	t = gen_fabric(&go, &dl);
	diag_free(&dl);
	assert_non_null(t);
	assert_int_equal(topo_assign_lids(t, 0), 0);
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(c.nzones, 1);

	route_opts_init(&o);
	o.rooted_layer = 0;
	assert_int_equal(route_run(t, &c, &o, &out), -EINVAL);
	assert_non_null(strstr(out.err, "credit_loop"));
	assert_null(out.lft);

	o.rooted_layer = -1;
	assert_int_equal(route_run(t, &c, &o, &out), 0);
	assert_int_equal(out.hard_findings, 0);
	assert_int_equal(out.nvls, 2);
	assert_true(out.rooted_lids > 0);
	for (uint32_t lid = 1; lid < out.nlids; lid++) {
		bool r13 = out.sl[lid] == 13;	/* group 0: zone 0's CAs */

		rooted += r13;
		for (uint32_t g = 1; g < out.ngroups; g++)
			if (out.sl[(size_t)g * out.nlids + lid] != 15)	/* a switch's turn */
				assert_int_equal(out.sl[(size_t)g * out.nlids + lid] == 13, r13);
		if (!r13)
			assert_int_equal(out.sl[lid], 0);
	}
	assert_int_equal(rooted, out.rooted_lids);
	for (uint32_t p = 0; p < t->nports; p++)
		assert_int_equal(out.sl2vl[(size_t)p * 16 + 13], 1);
	route_out_free(&out);
	cls_free(&c);
	topo_free(t);
}

/* Largest, over leaves, weighted spread of a leaf's own routes over its up-links. */
static unsigned weighted_spread(const struct topo *t, const struct cls *c, const struct lft *l,
				const unsigned w[3])
{
	unsigned worst = 0;

	for (uint32_t s = 0; s < t->nswitches; s++) {
		uint32_t node = t->sw_node[s], lo = UINT32_MAX, hi = 0;

		if (c->level[node] != 1)
			continue;
		for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
			uint32_t sum = 0;

			if (c->dir[p] != CLS_DIR_UP)
				continue;
			for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
				uint32_t q = t->lid_port[lid], n;
				uint8_t e = lft_get(l, s, lid);

				if (q == TOPO_NONE || e == LFT_NONE || topo_port(t, node, e) != p)
					continue;
				n = t->port_node[q];
				sum += w[topo_is_switch(t, n) ? CLS_TC_OTHER :
					 cls_tclass_of((enum cls_role)c->role[n])];
			}
			lo = sum < lo ? sum : lo;
			hi = sum > hi ? sum : hi;
		}
		if (hi >= lo && hi - lo > worst)
			worst = hi - lo;
	}
	return worst;
}

static void test_class_weights(void **state)
{
	static const unsigned w[3] = { 1, 8, 1 };
	struct topo *t = gen(GEN_FF2, GEN_STYLE_BRIDGE, false, 0);
	struct route_opts o;
	struct route_out a, b;
	struct cls c;
	unsigned w0, w1;

	(void)state;
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	route_opts_init(&o);
	assert_int_equal(route_run(t, &c, &o, &a), 0);
	memcpy(o.class_weight, w, sizeof(w));
	assert_int_equal(route_run(t, &c, &o, &b), 0);
	assert_int_equal(b.hard_findings, 0);
	w0 = weighted_spread(t, &c, a.lft, w);
	w1 = weighted_spread(t, &c, b.lft, w);
	assert_int_equal(w0, 10);
	assert_int_equal(w1, 8);
	assert_int_equal(route_parse_class_weights("1,8,1", o.class_weight), 0);
	assert_int_equal(route_parse_class_weights("1,8", o.class_weight), -EINVAL);
	assert_int_equal(route_parse_class_weights("1,8,1001", o.class_weight), -EINVAL);
	assert_int_equal(route_parse_class_weights("1,-8,1", o.class_weight), -EINVAL);
	assert_int_equal(route_parse_class_weights("1,8,1,", o.class_weight), -EINVAL);
	route_out_free(&a);
	route_out_free(&b);
	cls_free(&c);
	topo_free(t);
}

static void test_overrides(void **state)
{
	static const char text[] = "# overrides\n/^cn0001 / storage\n/S01/ - level=7\n";
	struct topo *t = gen(GEN_FRAME, GEN_STYLE_DIRECTOR, false, 0);
	struct cls_overrides ov;
	struct diag_list dl;
	struct cls c;
	unsigned seven = 0;

	(void)state;
	diag_init(&dl, 10);
	assert_int_equal(cls_overrides_read(text, strlen(text), "o.txt", &ov, &dl), 0);
	assert_int_equal(cls_classify(t, &ov, &c), 0);
	assert_int_equal(c.role[ca_named(t, "cn0001")], CLS_ROLE_STORAGE);
	for (uint32_t i = 0; i < t->nnodes; i++)
		seven += c.level[i] == 7;
	assert_int_equal(seven, 1);
	cls_free(&c);
	cls_overrides_free(&ov);
	assert_int_equal(cls_overrides_read("/[/ compute\n", 12, "bad.txt", &ov, &dl), -EINVAL);
	unit_expect_diag(&dl, "bad.txt:1:2: error: bad regular expression");
	diag_free(&dl);
	topo_free(t);
}

/*
 * route_single.c by hand: a ring of 4 switches s0..s3 (s_i port 1 to
 * s_i+1's port 2), host h_i on port 3 of s_i; LIDs h0..h3 = 1..4.  Every
 * switch is 2 hops from the farthest and a leaf with 2 switch links, so
 * the root is s0 (lowest ordinal); BFS keys s0 0, s1 1, s3 2, s2 3.  To h3
 * (on s3): s0 goes down to s3 (port 2); s1 cannot go down to s3 (s1 -> s2
 * is down, s2 -> s3 up), so it goes up to s0 (port 2), never through s2,
 * although both are 2 hops; s2 goes up to s3 (port 1).  To h1 (on s1): s0
 * down (port 1), s2 up (port 2), s3 up to s0 (port 1), not through s2.
 */
static void test_single_order_ring(void **state)
{
	static const char net[] =
		"Switch 4 \"s0\"\n[1] \"s1\"[2]\n[2] \"s3\"[1]\n[3] \"h0\"[1]\n\n"
		"Switch 4 \"s1\"\n[1] \"s2\"[2]\n[2] \"s0\"[1]\n[3] \"h1\"[1]\n\n"
		"Switch 4 \"s2\"\n[1] \"s3\"[2]\n[2] \"s1\"[1]\n[3] \"h2\"[1]\n\n"
		"Switch 4 \"s3\"\n[1] \"s0\"[2]\n[2] \"s2\"[1]\n[3] \"h3\"[1]\n\n"
		"Hca 1 \"h0\"\n[1] \"s0\"[3]\n\nHca 1 \"h1\"\n[1] \"s1\"[3]\n\n"
		"Hca 1 \"h2\"\n[1] \"s2\"[3]\n\nHca 1 \"h3\"\n[1] \"s3\"[3]\n";
	static const uint8_t to_h3[4] = { 2, 2, 1, 3 }, to_h1[4] = { 1, 3, 2, 1 };
	struct diag_list dl;
	struct route_out out;
	struct topo *t;
	struct cls c;

	(void)state;
	diag_init(&dl, 0);
	t = topo_read_buf(net, sizeof(net) - 1, "ring.net", FFR_FMT_NET, &dl);
	assert_non_null(t);
	assert_int_equal(topo_assign_lids(t, 0), 0);
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(route_single_order(t, &c, &out), 0);
	for (uint32_t s = 0; s < 4; s++) {
		assert_int_equal(lft_get(out.lft, s, 4), to_h3[s]);
		assert_int_equal(lft_get(out.lft, s, 2), to_h1[s]);
		assert_int_equal(lft_get(out.lft, s, 5 + s), 0);	/* its own LID */
	}
	assert_int_equal(out.routes, 4u * 8u);
	one_vl_clean(t, &c, out.lft);
	route_out_free(&out);
	cls_free(&c);
	topo_free(t);
	diag_free(&dl);
}

/*
 * Rails, and why there are none: 2 hosts of 4 HCAs ("gpuH mlx5_K"), one
 * spine, @nleaf leaves; HCA k of each host on leaf k mod @nleaf.  With 4
 * leaves every leaf holds one rank: 4 rails, 8 of 8 HCAs agree.  With 2,
 * leaf 0 holds ranks 0 and 2 of both hosts (2 of its 4 HCAs have its
 * majority rank), leaf 1 ranks 1 and 3: 4 of 8 agree, under 90 %, no
 * rails, and rail_why says the leaves carry several ranks.
 */
static void rails_on(unsigned nleaf, unsigned want_rails, const char *why)
{
	char net[4096];
	size_t n = 0;
	struct diag_list dl;
	struct topo *t;
	struct cls c;

	n += (size_t)snprintf(net + n, sizeof(net) - n, "Switch 8 \"spine\"\n");
	for (unsigned l = 0; l < nleaf; l++)
		n += (size_t)snprintf(net + n, sizeof(net) - n, "[%u] \"leaf%u\"[8]\n", l + 1, l);
	for (unsigned l = 0; l < nleaf; l++) {
		unsigned port = 1;

		n += (size_t)snprintf(net + n, sizeof(net) - n, "\nSwitch 8 \"leaf%u\"\n", l);
		for (unsigned h = 0; h < 2; h++)
			for (unsigned k = l; k < 4; k += nleaf)
				n += (size_t)snprintf(net + n, sizeof(net) - n,
						      "[%u] \"gpu%u-%u\"[1]\n", port++, h, k);
		n += (size_t)snprintf(net + n, sizeof(net) - n, "[8] \"spine\"[%u]\n", l + 1);
	}
	for (unsigned h = 0; h < 2; h++)
		for (unsigned k = 0; k < 4; k++) {
			unsigned port = 1 + h * (4 / nleaf) + (k / nleaf);

			n += (size_t)snprintf(net + n, sizeof(net) - n,
					      "\nHca 1 \"gpu%u-%u\" # \"gpu%u mlx5_%u\"\n"
					      "[1] \"leaf%u\"[%u]\n", h, k, h, k, k % nleaf, port);
		}
	assert_true(n < sizeof(net));
	diag_init(&dl, 0);
	t = topo_read_buf(net, n, "rails.net", FFR_FMT_NET, &dl);
	if (!t)
		diag_print(&dl, stderr);
	assert_non_null(t);
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	assert_int_equal(c.nhosts, 2);
	assert_int_equal(c.nrails, want_rails);
	if (!strstr(c.rail_why, why))
		fail_msg("rail_why \"%s\" lacks \"%s\"", c.rail_why, why);
	cls_free(&c);
	topo_free(t);
	diag_free(&dl);
}

static void test_rails_why(void **state)
{
	(void)state;
	rails_on(4, 4, "(8 of 8 HCAs)");
	rails_on(2, 0, "only 4 of 8 sit on a leaf whose HCAs mostly have their rank");
}

/* @f's small fabric (3 levels for a fat tree), @frac of its switch links or @dsw switches dropped. */
static struct topo *gen_less(enum gen_family f, double frac, unsigned dsw)
{
	struct gen_opts go;

	gen_opts_init(&go, f);
	if (f == GEN_FATTREE)
		go.levels = 3;
	go.drop_links = frac;
	go.drop_switches = dsw;
	return made(&go);
}

/* @t's LIDs those of the same ports on @t0, as a subnet manager keeps them. */
static struct topo *lids_of(struct topo *t, const struct topo *t0)
{
	free(t->lid_port);
	t->lid_port = malloc(((size_t)t0->max_lid + 1) * sizeof(*t->lid_port));
	assert_non_null(t->lid_port);
	for (uint32_t lid = 0; lid <= t0->max_lid; lid++)
		t->lid_port[lid] = TOPO_NONE;
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t q = topo_port_in(t, p, t0);

		t->port_lid[p] = q == TOPO_NONE ? 0 : t0->port_lid[q];
		t->port_lmc[p] = q == TOPO_NONE ? 0 : t0->port_lmc[q];
		if (t->port_lid[p])
			t->lid_port[t->port_lid[p]] = p;
	}
	t->max_lid = t0->max_lid;
	return t;
}

static void same_out(const struct route_out *a, const struct route_out *b)
{
	assert_int_equal(a->lft->nsw, b->lft->nsw);
	assert_int_equal(a->lft->nlids, b->lft->nlids);
	assert_memory_equal(a->lft->port, b->lft->port, (size_t)a->lft->nsw * a->lft->nlids);
	assert_int_equal(a->ngroups, b->ngroups);
	assert_memory_equal(a->sl, b->sl, (size_t)a->ngroups * a->nlids);
	assert_int_equal(a->vlx.n, b->vlx.n);
	if (a->vlx.n)
		assert_memory_equal(a->vlx.v, b->vlx.v, a->vlx.n * sizeof(*a->vlx.v));
}

/* One fault on @t0 (routed into @base): see the top comment; @alone: the broken LIDs routed alone. */
static void incr_case(const struct topo *t0, const struct route_out *base, struct topo *t1,
		      bool alone)
{
	struct route_base rb = { t0, base->lft, base };
	struct route_out bnt = *base, o1, o2;
	struct route_opts o;
	struct cls c1;
	uint32_t kept = 0;

	route_opts_init(&o);
	o.base = &rb;
	assert_int_equal(cls_classify(t1, NULL, &c1), 0);
	assert_int_equal(route_run(t1, &c1, &o, &o1), 0);
	assert_true(o1.incremental);
	assert_true(o1.patched_lids + o1.rerouted_lids > 0);
	if (alone)	/* the LIDs it broke: no more than those whose columns changed */
		assert_int_equal(o1.pass_lids, o1.patched_lids + o1.rerouted_lids);
	for (uint32_t lid = 1; lid <= t1->max_lid; lid++) {	/* intact: the base's column */
		bool intact = t1->lid_port[lid] != TOPO_NONE;

		for (uint32_t s = 0; intact && s < t1->nswitches; s++) {
			uint32_t n = t1->sw_node[s], bs = t0->node_sw[topo_find_guid(t0, t1->node_guid[n])];
			uint8_t e = lft_get(base->lft, bs, lid);

			intact = e == 0 || (e != LFT_NONE && e <= t1->node_nports[n] &&
					    t1->port_remote[t1->port_off[n] + e] != TOPO_NONE);
		}
		for (uint32_t s = 0; intact && s < t1->nswitches; s++) {
			uint32_t n = t1->sw_node[s], bs = t0->node_sw[topo_find_guid(t0, t1->node_guid[n])];

			assert_int_equal(lft_get(o1.lft, s, lid), lft_get(base->lft, bs, lid));
		}
		kept += intact;
	}
	assert_int_equal(kept, o1.kept_lids);
	bnt.turned = NULL;	/* unknown: the merge walks every LID for the turn rows */
	rb.out = &bnt;
	assert_int_equal(route_run(t1, &c1, &o, &o2), 0);
	same_out(&o1, &o2);
	route_out_free(&o1);
	route_out_free(&o2);
	cls_free(&c1);
	topo_free(t1);
}

static void test_incremental(void **state)
{
	const enum gen_family fam[] = { GEN_FF2, GEN_FRAME, GEN_FATTREE };
	uint32_t turned = 0, rows = 0;

	(void)state;
	for (unsigned i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		struct topo *t0 = gen_less(fam[i], 0, 0);
		struct route_base rb;
		struct route_out base, healed;
		struct route_opts o;
		struct cls c0;
		uint32_t n = 0;

		assert_int_equal(topo_assign_lids(t0, 0), 0);
		for (uint32_t p = 0; p < t0->nports; p++)
			n += topo_is_sw_link(t0, p);
		assert_int_equal(cls_classify(t0, NULL, &c0), 0);
		route_opts_init(&o);
		assert_int_equal(route_run(t0, &c0, &o, &base), 0);
		assert_non_null(base.turned);
		for (uint32_t lid = 1; lid <= t0->max_lid; lid++)
			turned += base.turned[lid];
		rows += base.vlx.n;
		incr_case(t0, &base, lids_of(gen_less(fam[i], 2.0 / n, 0), t0), true);	/* 1 of n / 2 */
		incr_case(t0, &base, lids_of(gen_less(fam[i], 0, 1), t0), false);
		rb = (struct route_base){ t0, base.lft, &base };
		o.base = &rb;
		assert_int_equal(route_run(t0, &c0, &o, &healed), 0);
		assert_true(healed.incremental);
		assert_int_equal(healed.pass_lids, 0);
		same_out(&base, &healed);
		route_out_free(&healed);
		route_out_free(&base);
		cls_free(&c0);
		topo_free(t0);
	}
	assert_true(turned > 0 && rows > 0);	/* the walks that may be skipped exist */
}

/* One fault: judged on the changed LIDs (the base's trace) and in full (none): the same. */
static uint32_t judged_alike(const struct topo *t0, const struct route_out *base, struct topo *t1)
{
	struct route_base rb = { t0, base->lft, base };
	struct route_out nt = *base, a, b;
	struct route_opts o;
	struct cls c1;
	uint32_t partial;

	route_opts_init(&o);
	o.base = &rb;
	assert_int_equal(cls_classify(t1, NULL, &c1), 0);
	assert_int_equal(route_run(t1, &c1, &o, &a), 0);
	nt.trace = NULL;
	rb.out = &nt;
	assert_int_equal(route_run(t1, &c1, &o, &b), 0);
	same_out(&a, &b);
	assert_int_equal(a.incremental, b.incremental);
	assert_int_equal(a.kept_lids, b.kept_lids);
	assert_int_equal(a.patched_lids, b.patched_lids);
	assert_int_equal(a.rerouted_lids, b.rerouted_lids);
	partial = a.judged_lids < b.judged_lids;
	route_out_free(&a);
	route_out_free(&b);
	cls_free(&c1);
	topo_free(t1);
	return partial;
}

static void test_judged_alike(void **state)
{
	const enum gen_family fam[] = { GEN_FF2, GEN_FRAME, GEN_FATTREE };
	struct diag_list dl;
	struct route_out base;
	struct route_opts o;
	struct topo *t0;
	struct cls c0;
	uint32_t partial = 0, n;

	(void)state;
	route_opts_init(&o);
	diag_init(&dl, 0);
	for (unsigned i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		t0 = gen_less(fam[i], 0, 0);
		assert_int_equal(topo_assign_lids(t0, 0), 0);
		n = 0;
		for (uint32_t p = 0; p < t0->nports; p++)
			n += topo_is_sw_link(t0, p);
		assert_int_equal(cls_classify(t0, NULL, &c0), 0);
		assert_int_equal(route_run(t0, &c0, &o, &base), 0);
		assert_non_null(base.trace);
		for (unsigned k = 1; k <= 3; k++)	/* 1, 2, 3 links of n / 2 */
			partial += judged_alike(t0, &base, lids_of(gen_less(fam[i], 2.0 * k / n, 0), t0));
		route_out_free(&base);
		cls_free(&c0);
		topo_free(t0);
	}
	t0 = topo_read_file(SRCDIR "/tests/data/foreign/superpod-small.topo", FFR_FMT_AUTO, &dl);
	assert_non_null(t0);
	assert_int_equal(cls_classify(t0, NULL, &c0), 0);
	assert_int_equal(route_run(t0, &c0, &o, &base), 0);
	assert_non_null(base.trace);
	for (uint32_t node = 0; node < t0->nnodes; node++)
		if (topo_is_switch(t0, node) && c0.level[node] >= 2)
			partial += judged_alike(t0, &base, lids_of(ru_relid(t0, node, &dl), t0));
	assert_true(partial >= 10);	/* most of them judged on their changed LIDs */
	route_out_free(&base);
	cls_free(&c0);
	topo_free(t0);
	diag_free(&dl);
}

/*
 * A top switch removed (a review's case): its LID and the turns toward it
 * go, and no merged LID turned, so the base's turn rows must not stand for
 * the kept LIDs (route_mrows.c base_rows()): the merge's rows equal the
 * full walk's (incr_case()), on each family, for up to 3 top switches.
 */
static void test_incremental_top_gone(void **state)
{
	const enum gen_family fam[] = { GEN_FF2, GEN_FRAME, GEN_FATTREE };
	struct diag_list dl;

	(void)state;
	diag_init(&dl, 0);
	for (unsigned i = 0; i < sizeof(fam) / sizeof(fam[0]); i++) {
		struct topo *t0 = gen_less(fam[i], 0, 0);
		struct route_out base;
		struct route_opts o;
		struct cls c0;
		unsigned top = 0, done = 0;

		assert_int_equal(topo_assign_lids(t0, 0), 0);
		assert_int_equal(cls_classify(t0, NULL, &c0), 0);
		route_opts_init(&o);
		assert_int_equal(route_run(t0, &c0, &o, &base), 0);
		for (uint32_t n = 0; n < t0->nnodes; n++)
			if (topo_is_switch(t0, n) && c0.level[n] > top)
				top = c0.level[n];
		for (uint32_t n = 0; n < t0->nnodes && done < 3; n++)
			if (topo_is_switch(t0, n) && c0.level[n] == top) {
				incr_case(t0, &base, lids_of(ru_relid(t0, n, &dl), t0), false);
				done++;
			}
		assert_int_equal(done, 3);
		route_out_free(&base);
		cls_free(&c0);
		topo_free(t0);
	}
	diag_free(&dl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ff2),
		cmocka_unit_test(test_rail3),
		cmocka_unit_test(test_frame_sharp_and_holes),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_rooted),
		cmocka_unit_test(test_class_weights),
		cmocka_unit_test(test_single_order_ring),
		cmocka_unit_test(test_rails_why),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_judged_alike),
		cmocka_unit_test(test_incremental_top_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

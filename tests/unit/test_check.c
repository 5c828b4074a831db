// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_check.c - the checker's findings, classification, path walker and
 * input files on hand-built fabrics with hand-written LFTs, each with a
 * known answer.
 *
 * Fabrics (port numbers in brackets):
 *
 *   tree      S1 S2 (spines, port k = leaf k)
 *             L1 L2 L3 (leaves: [1],[2] CAs, [3] S1, [4] S2, 8 ports)
 *             cn0001..cn0006, two per leaf; cn0006 has LMC 1 (LIDs 6, 7);
 *             LIDs: CAs 1-7, S1 10, S2 11, L1 12, L2 13, L3 14;
 *             optional island: switch X (LID 21) with cn0009 (LID 20)
 *   ring      (check_fab.h, for the SL2VL dump)
 *   rails     S1 S2; 16 leaves rR-a / rR-b ([1] CA, [2] S1, [3] S2);
 *             gpu001/gpu002 with 8 HCAs each (mlx5_R on rR-a / rR-b)
 *   zones     frame A: SA1 SA2 LA1 LA2; frame B: SB1 SB2 LB1 LB2;
 *             bridges BR1 (SA1[3], SB1[3]) and BR2 (SA2[3], SB2[3]);
 *             leaves [1],[2] CAs, [3] S?1, [4] S?2; storage st001 mlx5_0
 *             on LA1[2] (zone 0) and st001 mlx5_1 on LB1[2] (zone 1)
 *
 * LFTs start as min-hop (lowest port toward a closer switch) and tests
 * then break single entries.
 */
#include "unit.h"

#include <math.h>

#include <ffroute/check.h>
#include <ffroute/io.h>
#include <ffroute/lft.h>
#include <ffroute/topo.h>

#include "check_fab.h"

#define BIT(k) (1u << (k))

/* ---- the tree --------------------------------------------------------------------- */

enum { S1 = 0x1001, S2, L1, L2, L3, X = 0x1009 };

static struct topo *tree(bool island)
{
	static const char *const cas[] = { "cn0001 mlx5_0", "cn0002 mlx5_0", "cn0003 mlx5_0",
					   "cn0004 mlx5_0", "cn0005 mlx5_0", "cn0006 mlx5_0" };
	static const char *const sws[] = { "S1", "S2", "L1", "L2", "L3" };
	struct fab f;

	fab_init(&f);
	for (unsigned i = 0; i < 5; i++)
		fab_node(&f, true, S1 + i, 8, sws[i], (uint16_t)(10 + i), 0);
	for (unsigned i = 0; i < 6; i++) {
		fab_node(&f, false, 0x2001 + i, 1, cas[i], (uint16_t)(i + 1), i == 5);
		fab_link(&f, L1 + i / 2, 1 + i % 2, 0x2001 + i, 1);
	}
	for (unsigned k = 0; k < 3; k++) {
		fab_link(&f, L1 + k, 3, S1, 1 + k);
		fab_link(&f, L1 + k, 4, S2, 1 + k);
	}
	if (island) {
		fab_node(&f, true, X, 8, "X", 21, 0);
		fab_node(&f, false, 0x2009, 1, "cn0009 mlx5_0", 20, 0);
		fab_link(&f, X, 1, 0x2009, 1);
	}
	return fab_finish(&f);
}

static void test_tree_clean(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	check(t, l, NULL, NULL, &x);
	expect_only(&x, 0);
	assert_int_equal(chk_hard_findings(&x.r), 0);
	/* 5 switches x (7 CA LIDs + 5 switch LIDs) */
	assert_true(chk_metric_get(&x.r, "routes_checked") == 60);
	assert_true(chk_metric_get(&x.r, "routes_valid") == 60);
	assert_true(chk_metric_get(&x.r, "nonminimal_routes") == 0);
	assert_true(chk_metric_get(&x.r, "nonminimal_max_stretch") == 1);
	/* L1 -> cn0001 carries the routes of all 5 switches to LID 1 */
	assert_int_equal(x.r.ch_routes[topo_port(t, node_of(t, L1), 1)], 5);
	assert_int_equal(x.r.ch_routes_tc[CLS_TC_COMPUTE][topo_port(t, node_of(t, L1), 1)], 5);
	/* L1 -> S1: L1's routes to LIDs 3-7, 10, 13, 14 and S2's to S1 (10) */
	assert_int_equal(x.r.ch_routes[topo_port(t, node_of(t, L1), 3)], 9);
	/* S1 -> L2: routes of S1, L1, L3 to LIDs 3, 4, 13 */
	assert_int_equal(x.r.ch_routes[topo_port(t, node_of(t, S1), 2)], 9);
	assert_int_equal(x.r.ch_routes_tc[CLS_TC_OTHER][topo_port(t, node_of(t, S1), 2)], 3);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_loop(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct chk_path p;
	struct res x;

	(void)state;
	route(t, l, S1, 3, 1);	/* S1 sends cn0003 back to L1 */
	route(t, l, L1, 3, 3);	/* which sends it to S1 */
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_LOOP));
	assert_int_equal(count(&x, CHK_F_LOOP), 3);	/* S1, L1 and L3 (via S1) */
	assert_true(x.r.f[CHK_F_LOOP].hard);
	expect_example(&x, CHK_F_LOOP, "LID 3 (cn0003 mlx5_0/1)");
	expect_example(&x, CHK_F_LOOP, "S1/1 -> L1/3 -> S1/1");
	assert_int_equal(chk_hard_findings(&x.r), 3);
	chk_walk(t, l, ca_port(t, 0x2005), 3, &p);
	assert_int_equal(p.status, CHK_WALK_LOOP);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_blackhole(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct chk_path p;
	struct res x;

	(void)state;
	route(t, l, L1, 3, 6);	/* uncabled port */
	route(t, l, S2, 4, 0);	/* port 0 of a switch that is not cn0004 */
	route(t, l, S1, 5, 2);	/* cn0005 via L2 ... */
	route(t, l, L2, 5, 1);	/* ... delivered to cn0003 */
	route(t, l, L3, 1, 9);	/* beyond the 8 ports */
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_BLACKHOLE));
	assert_int_equal(count(&x, CHK_F_BLACKHOLE), 1 + 1 + 3 + 1);
	expect_example(&x, CHK_F_BLACKHOLE, "L1 sends it to port 6, which is not cabled");
	expect_example(&x, CHK_F_BLACKHOLE, "S2 sends it to its port 0");
	expect_example(&x, CHK_F_BLACKHOLE, "L2/1 delivers it to cn0003 mlx5_0/1");
	expect_example(&x, CHK_F_BLACKHOLE, "port 9, beyond its 8 ports");
	chk_walk(t, l, ca_port(t, 0x2001), 3, &p);
	assert_int_equal(p.status, CHK_WALK_DEAD_PORT);
	chk_walk(t, l, ca_port(t, 0x2001), 5, &p);
	assert_int_equal(p.status, CHK_WALK_WRONG_NODE);
	assert_int_equal(p.nch, 4);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_unreachable(void **state)
{
	struct topo *t = tree(true);
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	route(t, l, L1, 7, LFT_NONE);	/* second LID of cn0006's LMC range */
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_UNREACHABLE) | BIT(CHK_F_UNREACHABLE_PHYS));
	assert_int_equal(count(&x, CHK_F_UNREACHABLE), 1);
	expect_example(&x, CHK_F_UNREACHABLE, "LID 7 (cn0006 mlx5_0/1): no route from 1 switch");
	expect_example(&x, CHK_F_UNREACHABLE, "empty LFT entry at L1");
	/* the island: 5 switches x 2 LIDs one way, X x 12 LIDs the other */
	assert_int_equal(count(&x, CHK_F_UNREACHABLE_PHYS), 5 * 2 + 12);
	assert_false(x.r.f[CHK_F_UNREACHABLE_PHYS].hard);
	expect_example(&x, CHK_F_UNREACHABLE_PHYS, "LID 10 (switch S1): no physical path from 1 "
		       "switch, e.g. X");
	assert_int_equal(chk_hard_findings(&x.r), 1);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_switch_lid(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	route(t, l, S1, 13, LFT_NONE);	/* L2's LID: S1, L1, L3 lose it */
	route(t, l, L3, 11, 3);		/* S2's LID: L3 -> S1 -> L3 loop */
	route(t, l, S1, 11, 3);
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_SWITCH_LID));
	assert_int_equal(count(&x, CHK_F_SWITCH_LID), 3 + 2);
	expect_example(&x, CHK_F_SWITCH_LID, "LID 13 (switch L2): broken route from 3 switches");
	expect_example(&x, CHK_F_SWITCH_LID, "LID 11 (switch S2)");
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_no_table(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct chk_path p;
	struct res x;

	(void)state;
	l->have[sw_of(t, L3)] = 0;
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_NO_TABLE));
	assert_int_equal(count(&x, CHK_F_NO_TABLE), 1);
	/* S1, S2, L1, L2 to LIDs 5, 6, 7, 14 */
	expect_example(&x, CHK_F_NO_TABLE, "switch L3 (0x0000000000001005, LID 14) has no "
		       "forwarding table; 16 routes");
	assert_true(chk_metric_get(&x.r, "routes_checked") == 4 * 12);
	chk_walk(t, l, ca_port(t, 0x2001), 5, &p);
	assert_int_equal(p.status, CHK_WALK_NO_TABLE);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_nonminimal(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	route(t, l, S1, 3, 3);	/* cn0003 (L2): S1 -> L3 -> S2 -> L2 */
	route(t, l, L3, 3, 4);
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_NONMINIMAL));
	/* L1: 4 hops for 2; S1: 3 for 1; L3: 2 for 2 is minimal */
	assert_int_equal(count(&x, CHK_F_NONMINIMAL), 2);
	assert_false(x.r.f[CHK_F_NONMINIMAL].hard);
	assert_true(chk_metric_get(&x.r, "nonminimal_routes") == 2);
	assert_true(chk_metric_get(&x.r, "nonminimal_max_stretch") == 3);
	assert_int_equal(x.c.nzones, 1);
	assert_true(chk_metric_get(&x.r, "nonminimal_routes_zone0") == 2);
	expect_example(&x, CHK_F_NONMINIMAL, "e.g. S1 (3 switch hops, shortest 1)");
	assert_int_equal(chk_hard_findings(&x.r), 0);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_walk(void **state)
{
	struct topo *t = tree(false);
	struct lft *l = minhop(t);
	struct chk_path p;

	(void)state;
	chk_walk(t, l, ca_port(t, 0x2001), 3, &p);
	assert_int_equal(p.status, CHK_WALK_OK);
	assert_int_equal(p.nch, 4);	/* cn0001-L1, L1-S1, S1-L2, L2-cn0003 */
	assert_int_equal(p.ch[0], ca_port(t, 0x2001));
	assert_int_equal(p.ch[1], topo_port(t, node_of(t, L1), 3));
	assert_int_equal(p.last_sw, node_of(t, L2));
	chk_walk(t, l, topo_port(t, node_of(t, L1), 0), 13, &p);
	assert_int_equal(p.status, CHK_WALK_OK);
	assert_int_equal(p.nch, 2);
	chk_walk(t, l, ca_port(t, 0x2001), 7, &p);	/* LMC LID */
	assert_int_equal(p.status, CHK_WALK_OK);
	chk_walk(t, l, ca_port(t, 0x2001), 9, &p);
	assert_int_equal(p.status, CHK_WALK_NO_LID);
	route(t, l, S1, 3, LFT_NONE);
	chk_walk(t, l, ca_port(t, 0x2001), 3, &p);
	assert_int_equal(p.status, CHK_WALK_NO_ROUTE);
	assert_string_equal(chk_walk_status_name(CHK_WALK_WRONG_NODE), "wrong node");
	lft_free(l);
	topo_free(t);
}

/* ---- rails ------------------------------------------------------------------------ */

static struct topo *rails(void)
{
	struct fab f;
	char d[32];

	fab_init(&f);
	fab_node(&f, true, S1, 16, "S1", 40, 0);
	fab_node(&f, true, S2, 16, "S2", 41, 0);
	for (unsigned r = 0; r < 8; r++)
		for (unsigned h = 0; h < 2; h++) {
			uint64_t leaf = 0x1100 + r * 2 + h, ca = 0x2000 + r * 2 + h;

			snprintf(d, sizeof(d), "r%u-%c", r, h ? 'b' : 'a');
			fab_node(&f, true, leaf, 3, d, (uint16_t)(20 + r * 2 + h), 0);
			snprintf(d, sizeof(d), "gpu00%u mlx5_%u", h + 1, r);
			fab_node(&f, false, ca, 1, d, (uint16_t)(1 + r * 2 + h), 0);
			fab_link(&f, leaf, 1, ca, 1);
			fab_link(&f, leaf, 2, S1, 1 + r * 2 + h);
			fab_link(&f, leaf, 3, S2, 1 + r * 2 + h);
		}
	return fab_finish(&f);
}

static void test_rails(void **state)
{
	struct topo *t = rails();
	struct lft *l = minhop(t);
	struct res x;
	uint32_t lid;

	(void)state;
	check(t, l, NULL, NULL, &x);
	assert_int_equal(x.c.nrails, 8);
	assert_int_equal(x.c.rail[node_of(t, 0x2000 + 3 * 2 + 1)], 3);	/* gpu002 mlx5_3 */
	assert_int_equal(x.c.rail[node_of(t, 0x1100 + 5 * 2)], 5);	/* r5-a */
	assert_int_equal(x.c.rail[node_of(t, S1)], -1);
	assert_int_equal(x.c.level[node_of(t, S1)], 2);
	expect_only(&x, 0);
	res_free(&x);

	/* gpu002 mlx5_1 (on r1-b) from S1 through r0-a and S2 */
	lid = topo_node_lid(t, node_of(t, 0x2000 + 1 * 2 + 1));
	route(t, l, S1, lid, 1);		/* S1[1] = r0-a */
	route(t, l, 0x1100, lid, 3);		/* r0-a -> S2 */
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_RAIL_LEAVE) | BIT(CHK_F_RAIL_MIX) | BIT(CHK_F_NONMINIMAL));
	/* S1 (no rail) and r1-a (rail 1, via S1); other rails' leaves are not in plane 1 */
	assert_int_equal(count(&x, CHK_F_RAIL_LEAVE), 2);
	expect_example(&x, CHK_F_RAIL_LEAVE, "passes r0-a, a leaf of rail 0");
	/* S1 -> r0-a carries rail 1 (r1-a's route) and rail 0 (r0-b's routes to r0-a) */
	assert_int_equal(count(&x, CHK_F_RAIL_MIX), 1);
	expect_example(&x, CHK_F_RAIL_MIX, "link S1/1 <-> r0-a/2 carries routes to rail");
	assert_true(x.r.f[CHK_F_RAIL_MIX].hard && x.r.f[CHK_F_RAIL_LEAVE].hard);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

/*
 * Two units of 4 rail leaves (hosts gpu001, gpu002: mlx5_0..3), each unit's
 * leaves under one spine (Sa, Sb: shared by the rails, as in NVIDIA's
 * SuperPOD units), the spines under a core C.  Every route between the units
 * crosses Sa - C - Sb, for all four rails: links whose lower switch serves
 * several rails are shared by design, and rail_mix does not count them.
 */
static void test_rails_shared(void **state)
{
	enum { SA = 0x1201, SB, C };
	struct fab f;
	struct topo *t;
	struct lft *l;
	struct res x;
	char d[32];

	(void)state;
	fab_init(&f);
	fab_node(&f, true, SA, 5, "Sa", 40, 0);
	fab_node(&f, true, SB, 5, "Sb", 41, 0);
	fab_node(&f, true, C, 2, "C", 42, 0);
	fab_link(&f, SA, 5, C, 1);
	fab_link(&f, SB, 5, C, 2);
	for (unsigned u = 0; u < 2; u++)
		for (unsigned r = 0; r < 4; r++) {
			uint64_t leaf = 0x1300 + u * 4 + r, ca = 0x2300 + u * 4 + r;

			snprintf(d, sizeof(d), "u%u-r%u", u, r);
			fab_node(&f, true, leaf, 2, d, (uint16_t)(20 + u * 4 + r), 0);
			snprintf(d, sizeof(d), "gpu00%u mlx5_%u", u + 1, r);
			fab_node(&f, false, ca, 1, d, (uint16_t)(1 + u * 4 + r), 0);
			fab_link(&f, leaf, 1, ca, 1);
			fab_link(&f, leaf, 2, u ? SB : SA, 1 + r);
		}
	t = fab_finish(&f);
	l = minhop(t);
	check(t, l, NULL, NULL, &x);
	assert_int_equal(x.c.nrails, 4);
	assert_int_equal(x.c.level[node_of(t, C)], 3);
	expect_only(&x, 0);
	assert_int_equal(count(&x, CHK_F_RAIL_MIX), 0);
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

/* ---- zones ---------------------------------------------------------------------- */

enum { SA1 = 0x1001, SA2, LA1, LA2, SB1, SB2, LB1, LB2, BR1, BR2 };

static struct topo *zones(void)
{
	static const char *const sws[] = { "SA1", "SA2", "LA1", "LA2", "SB1", "SB2", "LB1",
					   "LB2", "BR1", "BR2" };
	static const char *const cas[] = { "cn0001 mlx5_0", "st001 mlx5_0", "cn0002 mlx5_0",
					   "cn0003 mlx5_0", "cn0004 mlx5_0", "st001 mlx5_1",
					   "cn0005 mlx5_0", "cn0006 mlx5_0" };
	static const uint64_t leaf[] = { LA1, LA2, LB1, LB2 };
	struct fab f;

	fab_init(&f);
	for (unsigned i = 0; i < 10; i++)
		fab_node(&f, true, SA1 + i, 4, sws[i], (uint16_t)(20 + i), 0);
	for (unsigned i = 0; i < 8; i++) {
		fab_node(&f, false, 0x2001 + i, 1, cas[i], (uint16_t)(i + 1), 0);
		fab_link(&f, leaf[i / 2], 1 + i % 2, 0x2001 + i, 1);
	}
	for (unsigned k = 0; k < 2; k++) {
		fab_link(&f, LA1 + k, 3, SA1, 1 + k);
		fab_link(&f, LA1 + k, 4, SA2, 1 + k);
		fab_link(&f, LB1 + k, 3, SB1, 1 + k);
		fab_link(&f, LB1 + k, 4, SB2, 1 + k);
	}
	fab_link(&f, BR1, 1, SA1, 3);
	fab_link(&f, BR1, 2, SB1, 3);
	fab_link(&f, BR2, 1, SA2, 3);
	fab_link(&f, BR2, 2, SB2, 3);
	return fab_finish(&f);
}

static void test_zone_class(void **state)
{
	struct topo *t = zones();
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	check(t, l, NULL, NULL, &x);
	assert_int_equal(x.c.nzones, 2);
	assert_int_equal(x.c.zone[node_of(t, LA2)], 0);
	assert_int_equal(x.c.zone[node_of(t, SA2)], 0);
	assert_int_equal(x.c.zone[node_of(t, LB1)], 1);
	assert_int_equal(x.c.zone[node_of(t, SB1)], 1);
	assert_int_equal(x.c.zone[node_of(t, BR1)], -1);
	assert_int_equal(x.c.zone[node_of(t, 0x2006)], 1);	/* st001 mlx5_1 */
	assert_int_equal(x.c.level[node_of(t, BR1)], 3);
	assert_true(x.c.interzone[topo_port(t, node_of(t, SA1), 3)]);
	assert_false(x.c.interzone[topo_port(t, node_of(t, SA1), 1)]);
	assert_int_equal(x.c.role[node_of(t, 0x2002)], CLS_ROLE_STORAGE);
	/*
	 * Min-hop crosses zones once, through a bridge; but the bridges close
	 * an 8-switch ring SA1-BR1-SB1-LB1-SB2-BR2-SA2-LA1, and min-hop routes
	 * around it both ways: one credit loop per direction.  Only switches'
	 * own routes use the ring's down->up turns (SA1 reaches SB2's LID
	 * through LA1 and SA2 at a hop-count tie; no CA's packets pass SA1 ->
	 * LA1 -> SA2, checked by hand), so they are credit_loop_switch.
	 */
	expect_only(&x, BIT(CHK_F_CREDIT_LOOP_SW));
	assert_int_equal(count(&x, CHK_F_CREDIT_LOOP_SW), 2);
	assert_false(x.r.f[CHK_F_CREDIT_LOOP_SW].hard);
	expect_example(&x, CHK_F_CREDIT_LOOP_SW, "VL0: SA1/1 -> LA1/4 -> SA2/3 -> BR2/2 -> SB2/1 -> "
		       "LB1/3 -> SB1/3 -> BR1/1 -> SA1/1");
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_zone_link(void **state)
{
	struct topo *t = zones();
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	/* cn0002 (LA2, zone 0) from LA1 through zone 1 and both bridges */
	route(t, l, LA1, 3, 3);
	route(t, l, SA1, 3, 3);
	route(t, l, BR1, 3, 2);
	route(t, l, SB1, 3, 1);
	route(t, l, LB1, 3, 4);
	route(t, l, SB2, 3, 3);
	route(t, l, BR2, 3, 1);
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_XZONE_LINK) | BIT(CHK_F_NONMINIMAL) | BIT(CHK_F_CREDIT_LOOP) |
		    BIT(CHK_F_CREDIT_LOOP_SW));
	assert_int_equal(count(&x, CHK_F_XZONE_LINK), 2);	/* LA1 and SA1 */
	expect_example(&x, CHK_F_XZONE_LINK, "e.g. SA1 (uses inter-zone link SA1/3 -> BR1/1 "
		       "(2 zone changes))");
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

static void test_storage_zone(void **state)
{
	struct topo *t = zones();
	struct lft *l = minhop(t);
	struct res x;

	(void)state;
	/* st001 mlx5_0 (LA1, zone 0) from LA2 around through zone 1 */
	route(t, l, LA2, 2, 4);
	route(t, l, SA2, 2, 3);
	route(t, l, BR2, 2, 2);
	route(t, l, SB2, 2, 1);
	route(t, l, LB1, 2, 3);
	check(t, l, NULL, NULL, &x);
	expect_only(&x, BIT(CHK_F_STORAGE_XZONE) | BIT(CHK_F_XZONE_LINK) |
			BIT(CHK_F_NONMINIMAL) | BIT(CHK_F_CREDIT_LOOP) | BIT(CHK_F_CREDIT_LOOP_SW));
	assert_int_equal(count(&x, CHK_F_STORAGE_XZONE), 2);	/* LA2 and SA2 */
	assert_int_equal(count(&x, CHK_F_XZONE_LINK), 2);
	expect_example(&x, CHK_F_STORAGE_XZONE, "LID 2 (st001 mlx5_0/1): storage reached outside "
		       "its zone from 2 switches, e.g. SA2");
	res_free(&x);
	lft_free(l);
	topo_free(t);
}

/* ---- classification of roles and the role file --------------------------------- */

static void test_roles(void **state)
{
	static const char *const d[] = {
		"cn0001 mlx5_0", "st001 mlx5_0", "mg01 mlx5_0", "login1 HCA-1", "ai400x-001 HCA-1",
		"Mellanox Technologies Aggregation Node", "gpu001 mlx5_0", "",
	};
	static const uint8_t want[] = {
		CLS_ROLE_COMPUTE, CLS_ROLE_STORAGE, CLS_ROLE_MGMT, CLS_ROLE_MGMT, CLS_ROLE_STORAGE,
		CLS_ROLE_SHARP, CLS_ROLE_COMPUTE, CLS_ROLE_COMPUTE,
	};
	const char *rf = "# overrides\n0x2001 storage zone=3\n0x3002 mgmt rail=2  # by port GUID\n"
			 "0x2003 -\n";
	struct cls_overrides ov;
	struct cls c;
	struct diag_list dl;
	struct topo *t;
	struct fab f;

	(void)state;
	fab_init(&f);
	fab_node(&f, true, S1, 8, "", 10, 0);
	for (unsigned i = 0; i < 8; i++) {
		fab_node(&f, false, 0x2001 + i, 1, d[i], (uint16_t)(i + 1), 0);
		fab_link(&f, S1, 1 + i, 0x2001 + i, 1);
	}
	t = fab_finish(&f);
	assert_int_equal(cls_classify(t, NULL, &c), 0);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(c.role[node_of(t, 0x2001 + i)], want[i]);
	assert_int_equal(c.role[node_of(t, S1)], CLS_ROLE_SWITCH);
	cls_free(&c);

	diag_init(&dl, 20);
	assert_int_equal(cls_overrides_read(rf, strlen(rf), "r.txt", &ov, &dl), 0);
	assert_int_equal(dl.n, 0);
	assert_int_equal(ov.n, 3);
	assert_int_equal(ov.v[0].guid, 0x2001);
	assert_int_equal(ov.v[0].role, CLS_ROLE_STORAGE);
	assert_int_equal(ov.v[0].zone, 3);
	assert_int_equal(ov.v[0].rail, -1);
	assert_int_equal(ov.v[1].rail, 2);
	assert_int_equal(ov.v[2].role, -1);
	assert_int_equal(cls_classify(t, &ov, &c), 0);
	assert_int_equal(c.role[node_of(t, 0x2001)], CLS_ROLE_STORAGE);
	/* zone and rail ids are renumbered densely in order (zone=32767 must not
	 * make 32,768 zones): zones {0, 3} -> {0, 1}, rail {2} -> {0} */
	assert_int_equal(c.zone[node_of(t, 0x2001)], 1);
	assert_int_equal(c.nzones, 2);
	assert_int_equal(c.role[node_of(t, 0x2002)], CLS_ROLE_MGMT);	/* by port GUID */
	assert_int_equal(c.rail[node_of(t, 0x2002)], 0);
	assert_int_equal(c.role[node_of(t, 0x2003)], CLS_ROLE_MGMT);	/* "-" keeps */
	cls_free(&c);
	cls_overrides_free(&ov);
	diag_free(&dl);
	topo_free(t);
}

static void expect_roles_error_n(const char *text, size_t len, const char *msg)
{
	struct cls_overrides ov;
	struct diag_list dl;

	diag_init(&dl, 20);
	assert_int_equal(cls_overrides_read(text, len, "r.txt", &ov, &dl), -EINVAL);
	assert_int_equal(ov.n, 0);
	assert_null(ov.v);
	unit_expect_diag(&dl, msg);
	diag_free(&dl);
}

static void expect_roles_error(const char *text, const char *msg)
{
	expect_roles_error_n(text, strlen(text), msg);
}

static void test_roles_errors(void **state)
{
	static const char bin[] = "0x2001 mgmt\n\0\n";

	(void)state;
	expect_roles_error("0x2001 bogus\n", "r.txt:1:8: error: unknown role 'bogus'");
	expect_roles_error("\nzz storage\n", "r.txt:2:1: error: expected a GUID");
	expect_roles_error("0x2001\n", "r.txt:1:7: error: expected a role after the GUID");
	expect_roles_error("0x2001 compute zone=1 zone=2\n", "r.txt:1:23: error: zone given twice");
	expect_roles_error("0x2001 compute rail=x\n", "r.txt:1:21: error: expected a number after");
	expect_roles_error("0x2001 compute zone=40000\n", "r.txt:1:21: error: zone out of range");
	expect_roles_error("0x2001 compute color=red\n", "r.txt:1:16: error: unknown attribute");
	expect_roles_error("0 compute\n", "r.txt:1:1: error: GUID 0 is not valid");
	expect_roles_error("0x12345678901234567 mgmt\n", "more than 16 hex digits");
	expect_roles_error("0x2001 mgmt\r\n0x2001 other\r\n",
			   "r.txt:2:1: error: GUID 0x0000000000002001 already given on line 1");
	expect_roles_error_n(bin, sizeof(bin) - 1, "r.txt:2:1: error: binary data");
}

/* ---- job file --------------------------------------------------------------------- */

static void test_job(void **state)
{
	struct topo *t = rails();
	const char *ok = "# job\ngpu002\n0x2000   # gpu001 mlx5_0\ngpu002\n";
	const char *bad = "gpu009\n0x1001\n0x9999\ngpu001 gpu002\n";
	struct diag_list dl;
	uint32_t *nodes, n;

	(void)state;
	diag_init(&dl, 20);
	assert_int_equal(chk_job_read(ok, strlen(ok), "j.txt", t, &nodes, &n, &dl), 0);
	assert_int_equal(n, 9);	/* gpu002's 8 HCAs, then gpu001 mlx5_0 */
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(strncmp(t->node_desc[nodes[i]], "gpu002 ", 7), 0);
	assert_int_equal(nodes[8], node_of(t, 0x2000));
	free(nodes);
	assert_int_equal(chk_job_read(bad, strlen(bad), "j.txt", t, &nodes, &n, &dl), -EINVAL);
	assert_null(nodes);
	unit_expect_diag(&dl, "j.txt:1:1: error: unknown host 'gpu009'");
	unit_expect_diag(&dl, "j.txt:2:1: error: GUID 0x0000000000001001 is not a CA");
	unit_expect_diag(&dl, "j.txt:3:1: error: no CA with GUID 0x0000000000009999");
	unit_expect_diag(&dl, "j.txt:4:8: error: one host or GUID per line");
	diag_free(&dl);
	topo_free(t);
}

/* ---- SL2VL dump --------------------------------------------------------------------- */

static void test_sl2vl(void **state)
{
	struct topo *t = ring();
	const char *dump =
		"Switch 0x0000000000001001, base LID 10, \"R0\"\n"
		"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
		"#--------------------------------------------------------\n"
		"0   2   : 5  5  5  5  5  5  5  5  5  5  5  5  5  5  5  5 \n"
		"1   2   : 1  1  1  1  1  1  1  1  1  1  1  1  1  1  1  1 \n"
		"2   2   : 7  7  7  7  7  7  7  7  7  7  7  7  7  7  7  7 \n"
		"3   2   : 2  2  2  2  2  2  2  2  2  2  2  2  2  2  2  2 \n"
		"\n"
		"Switch 0x00000000000077aa, base LID 99, \"gone\"\n"
		"0   1   : 0  0  0  0  0  0  0  0  0  0  0  0  0  0  0  0 \n"
		"Channel Adapter 0x0000000000003001, base LID 1, \"h0 mlx5_0\"\n"
		"0   0   : 0  1  2  3  0  1  2  3  0  1  2  3  0  1  2  3 \n";
	uint32_t r0p2 = topo_port(t, node_of(t, R0), 2), h0 = ca_port(t, 0x2001);
	struct diag_list dl;
	uint8_t *tab;

	(void)state;
	diag_init(&dl, 20);
	assert_int_equal(chk_sl2vl_read(dump, strlen(dump), "s.dump", t, &tab, NULL, &dl), 0);
	assert_int_equal(tab[r0p2 * 16 + 0], 1);	/* input port 1's row */
	assert_int_equal(tab[r0p2 * 16 + 15], 1);
	assert_int_equal(tab[h0 * 16 + 5], 1);
	assert_int_equal(tab[h0 * 16 + 7], 3);
	assert_int_equal(tab[topo_port(t, node_of(t, R0), 3) * 16 + 9], 9);	/* identity */
	unit_expect_diag(&dl, "s.dump:7:1: warning: SL2VL of out-port 2 differs by input port");
	unit_expect_diag(&dl, "s.dump:9:8: warning: GUID 0x00000000000077aa is not in the fabric");
	assert_int_equal(dl.nerrors, 0);
	free(tab);
	diag_free(&dl);

	diag_init(&dl, 20);
	dump = "0   1   : 0\n"
	       "Switch 0x0000000000001001, base LID 10, \"R0\"\n"
	       "1   2   : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 16\n"
	       "1   9   : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
	       "1   2   : 0  1  2\n"
	       "Channel Adapter 0x0000000000001002, base LID 1, \"R1\"\n"
	       "Switch 1001\n";
	assert_int_equal(chk_sl2vl_read(dump, strlen(dump), "s.dump", t, &tab, NULL, &dl), -EINVAL);
	assert_null(tab);
	unit_expect_diag(&dl, "s.dump:1:1: error: SL2VL row before any node header");
	unit_expect_diag(&dl, "s.dump:3:56: error: VL out of range (0..15)");
	unit_expect_diag(&dl, "s.dump:4:1: error: port 9 out of range (switch has 4)");
	unit_expect_diag(&dl, "s.dump:5:18: error: expected 16 VLs (SL 0..15), got 3");
	unit_expect_diag(&dl, "s.dump:6:17: error: GUID 0x0000000000001002 is a switch");
	unit_expect_diag(&dl, "s.dump:7:8: error: expected the port GUID");
	diag_free(&dl);
	topo_free(t);
}

/* OpenSM's own dump (QoS on, qos_sl2vl 0,1,2,3,...) of fabrics/demo/mini.net */
static void test_sl2vl_opensm(void **state)
{
	const char *lst = SRCDIR "/tests/data/check/mini/opensm-subnet.lst";
	const char *sd = SRCDIR "/tests/data/check/mini/opensm-sl2vl.dump";
	struct diag_list dl;
	struct topo *t;
	uint8_t *tab;
	char *buf;
	size_t len;

	(void)state;
	diag_init(&dl, 20);
	t = topo_read_file(lst, FFR_FMT_AUTO, &dl);
	assert_non_null(t);
	buf = unit_read_file(sd, &len);
	assert_int_equal(chk_sl2vl_read(buf, len, sd, t, &tab, NULL, &dl), 0);
	assert_int_equal(dl.n, 0);
	for (uint32_t p = 0; p < t->nports; p++)
		if (t->port_remote[p] != TOPO_NONE)
			for (unsigned s = 0; s < 16; s++)
				assert_int_equal(tab[p * 16 + s], s % 4);
	free(tab);
	free(buf);
	diag_free(&dl);
	topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_clean),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_blackhole),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_switch_lid),
		cmocka_unit_test(test_no_table),
		cmocka_unit_test(test_nonminimal),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_rails),
		cmocka_unit_test(test_rails_shared),
		cmocka_unit_test(test_zone_class),
		cmocka_unit_test(test_zone_link),
		cmocka_unit_test(test_storage_zone),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_roles_errors),
		cmocka_unit_test(test_job),
		cmocka_unit_test(test_sl2vl),
		cmocka_unit_test(test_sl2vl_opensm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

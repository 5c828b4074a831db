// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_cdg.c - credit loops on a hand-built ring with hand-written LFTs,
 * each with a known answer: the loop the checker reports, the same with
 * two collectors, and the LIDs that make it (chk_loop_lids()).
 *
 * Fabric (port numbers in brackets):
 *
 *   ring      R0-R1-R2-R3-R0: Ri[2] -> R(i+1)[3], CA hi on Ri[1];
 *             LIDs: hi = i + 1, Ri = 10 + i
 */
#include "check_fab.h"

/* ---- credit loops: the ring ------------------------------------------------------- */

/* One and two hops clockwise, three hops as one counter-clockwise. */
static struct lft *ring_lft(const struct topo *t)
{
	struct lft *l = lft_new(t->nswitches, t->max_lid);

	assert_non_null(l);
	for (unsigned i = 0; i < 4; i++) {
		l->have[sw_of(t, R0 + i)] = 1;
		for (unsigned j = 0; j < 4; j++) {
			static const uint8_t out[4] = { 0, 2, 2, 3 };
			unsigned k = (j + 4 - i) % 4;

			route(t, l, R0 + i, j + 1, k ? out[k] : 1);
			route(t, l, R0 + i, 10 + j, out[k]);
		}
	}
	return l;
}

static void test_credit_loop(void **state)
{
	struct topo *t = ring();
	struct lft *l = ring_lft(t);
	uint8_t *sl2vl = malloc((size_t)t->nports * 16), *sl = calloc(t->max_lid + 1, 1);
	struct chk_opts o;
	struct res x;

	(void)state;
	assert_non_null(sl2vl);
	assert_non_null(sl);
	check(t, l, NULL, NULL, &x);
	assert_int_equal(count(&x, CHK_F_CREDIT_LOOP), 1);
	assert_int_equal(x.r.f[CHK_F_CREDIT_LOOP].nex, 1);
	assert_string_equal(x.r.f[CHK_F_CREDIT_LOOP].ex[0],
			    "VL0: R0/2 -> R1/2 -> R2/2 -> R3/2 -> R0/2");
	assert_true(x.r.f[CHK_F_CREDIT_LOOP].hard);
	assert_int_equal(count(&x, CHK_F_LOOP) + count(&x, CHK_F_BLACKHOLE) +
			 count(&x, CHK_F_UNREACHABLE) + count(&x, CHK_F_NONMINIMAL), 0);
	res_free(&x);

	/* routes to h2 and R2 on SL 1 -> VL 1: R0/2 -> R1/2 leaves VL 0 */
	for (size_t i = 0; i < (size_t)t->nports * 16; i++)
		sl2vl[i] = (uint8_t)(i % 16);
	sl[3] = sl[12] = 1;
	chk_opts_init(&o);
	o.sl2vl = sl2vl;
	o.sl = sl;
	check(t, l, &o, NULL, &x);
	assert_int_equal(count(&x, CHK_F_CREDIT_LOOP), 0);
	res_free(&x);

	/* mapping SL 1 back to VL 0 on the ports it uses restores the loop */
	sl2vl[(size_t)topo_port(t, node_of(t, R0), 2) * 16 + 1] = 0;
	sl2vl[(size_t)topo_port(t, node_of(t, R0 + 1), 2) * 16 + 1] = 0;
	check(t, l, &o, NULL, &x);
	assert_int_equal(count(&x, CHK_F_CREDIT_LOOP), 1);
	expect_example(&x, CHK_F_CREDIT_LOOP, "VL0: R0/2 -> R1/2");
	res_free(&x);
	free(sl2vl);
	free(sl);
	lft_free(l);
	topo_free(t);
}

/*
 * The CDG's CA-injected walks shared by two collectors (chk_cdg_help): the
 * helper first (it takes every LID block, the fill none), then the fill
 * first (the helper none): the same loop either way, by hand the one
 * test_credit_loop finds.
 */
static void test_credit_loop_help(void **state)
{
	struct topo *t = ring();
	struct lft *l = ring_lft(t);
	struct chk_opts o;

	(void)state;
	chk_opts_init(&o);
	o.no_switch_cdg = true;	/* as the engine's verification: helpers allowed */
	for (int helper_first = 1; helper_first >= 0; helper_first--) {
		struct chk_cdg *g = NULL, *h = NULL;
		struct chk_report r;

		assert_int_equal(chk_cdg_prepare(t, &o, &g), 0);
		if (helper_first)
			assert_int_equal(chk_cdg_help(t, l, NULL, &o, g, &h), 0);
		assert_int_equal(chk_cdg_fill(t, l, NULL, &o, g), 0);
		if (!helper_first)
			assert_int_equal(chk_cdg_help(t, l, NULL, &o, g, &h), 0);
		assert_non_null(h);
		chk_cdg_absorb(g, h);
		assert_int_equal(chk_report_init(&r, t->nports), 0);
		assert_int_equal(chk_cdg_judge(t, g, &r), 0);
		assert_int_equal(r.f[CHK_F_CREDIT_LOOP].count, 1);
		assert_string_equal(r.f[CHK_F_CREDIT_LOOP].ex[0],
				    "VL0: R0/2 -> R1/2 -> R2/2 -> R3/2 -> R0/2");
		chk_report_free(&r);
		chk_cdg_free(g);
	}
	lft_free(l);
	topo_free(t);
}

/*
 * The LIDs that make the ring's loop, by hand.  Edge Ri/2 -> R(i+1)/2 is
 * made by the routes two hops clockwise: the two LIDs of R(i+2) (its CA's
 * and its own), so every edge by two.  The first edge of the loop as
 * reported, R0/2 -> R1/2, wins the tie: LIDs 3 and 12; taken out, no loop
 * is left.  Asked again on the same tables (as if routing those two
 * otherwise had not removed the edge), that edge stays, being made by
 * LIDs already marked: the next one, 4 and 13.  The same when LID 3 is
 * not a candidate (the engine would not change it).  With no candidate,
 * nothing.  Matched by VL: LID 3 on SL 1 -> VL 1 leaves LID 12 alone on
 * R0/2 -> R1/2 on VL 0, the fewest: 12 only (by port alone it would be 3
 * and 12).  Both on VL 1: no loop, nothing marked.
 */
/* @mark holds LIDs @a and @b (0: none), nothing else. */
static void expect_marked(const struct topo *t, const uint8_t *mark, uint32_t a, uint32_t b)
{
	for (uint32_t lid = 1; lid <= t->max_lid; lid++)
		assert_int_equal(mark[lid], lid == a || lid == b);
}

static void test_loop_lids(void **state)
{
	struct topo *t = ring();
	struct lft *l = ring_lft(t);
	uint8_t *mark = calloc(t->max_lid + 1, 1), *sl = calloc(t->max_lid + 1, 1);
	uint8_t *sl2vl = malloc((size_t)t->nports * 16), *cand = malloc(t->max_lid + 1);
	struct chk_opts o;

	(void)state;
	assert_non_null(mark);
	assert_non_null(sl);
	assert_non_null(sl2vl);
	assert_non_null(cand);
	chk_opts_init(&o);
	assert_int_equal(chk_loop_lids(t, l, &o, NULL, mark), 2);
	expect_marked(t, mark, 3, 12);
	assert_int_equal(chk_loop_lids(t, l, &o, NULL, mark), 2);
	for (uint32_t lid = 1; lid <= t->max_lid; lid++)
		assert_int_equal(mark[lid], lid == 3 || lid == 12 || lid == 4 || lid == 13);
	memset(mark, 0, t->max_lid + 1);
	memset(cand, 1, t->max_lid + 1);
	cand[3] = 0;
	assert_int_equal(chk_loop_lids(t, l, &o, cand, mark), 2);
	expect_marked(t, mark, 4, 13);
	memset(mark, 0, t->max_lid + 1);
	memset(cand, 0, t->max_lid + 1);
	assert_int_equal(chk_loop_lids(t, l, NULL, cand, mark), 0);
	expect_marked(t, mark, 0, 0);

	for (size_t i = 0; i < (size_t)t->nports * 16; i++)
		sl2vl[i] = (uint8_t)(i % 16);
	o.sl2vl = sl2vl;
	o.sl = sl;
	sl[3] = 1;
	assert_int_equal(chk_loop_lids(t, l, &o, NULL, mark), 1);
	expect_marked(t, mark, 12, 12);
	sl[12] = 1;
	memset(mark, 0, t->max_lid + 1);
	assert_int_equal(chk_loop_lids(t, l, &o, NULL, mark), 0);
	expect_marked(t, mark, 0, 0);
	free(cand);
	free(sl2vl);
	free(sl);
	free(mark);
	lft_free(l);
	topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_credit_loop),
		cmocka_unit_test(test_credit_loop_help),
		cmocka_unit_test(test_loop_lids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: BSD-2-Clause
/* test_topo.c - the topology builder, lookups, diagnostics and line reader */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ffroute/topo.h>
#include "model/lft_load.h"
#include "base/text.h"
#include "base/util.h"

static int add(struct topo_builder *b, uint8_t type, uint8_t nports, uint64_t guid,
	       const char *name, const char *desc)
{
	struct topo_node_info ni = { .type = type, .nports = nports, .guid = guid,
				     .name = name, .desc = desc };
	struct src_loc loc = { "t.topo", 1, 1 };

	return topo_builder_add_node(b, &ni, &loc);
}

static void link_name(struct topo_builder *b, int n, unsigned p, const char *peer, unsigned pp)
{
	struct topo_ref r = { .name = peer };
	struct src_loc loc = { "t.topo", 2, 3 };

	assert_int_equal(topo_builder_add_link(b, n, p, &r, pp, 4, TOPO_SPEED_HDR, &loc), 0);
}

/* Two switches, two CAs: the smallest fabric with every kind of lookup. */
static struct topo *small(struct diag_list *dl)
{
	struct topo_builder *b = topo_builder_new(dl);
	struct topo_port_info pi = { 0 };
	int s1, s2, h1, h2;

	assert_non_null(b);
	/* declared out of GUID order on purpose */
	s2 = add(b, TOPO_NODE_SWITCH, 8, 0x200001, "sw2", "MF0;leaf2:MQM8700/U1");
	s1 = add(b, TOPO_NODE_SWITCH, 8, 0x200000, "sw1", "MF0;leaf1:MQM8700/U1");
	h1 = add(b, TOPO_NODE_CA, 1, 0x100000, "h1", "gpu01 mlx5_0");
	h2 = add(b, TOPO_NODE_CA, 2, 0x100010, "h2", "st001 mlx5_0");
	assert_true(s1 >= 0 && s2 >= 0 && h1 >= 0 && h2 >= 0);
	pi.lid = 1;
	assert_int_equal(topo_builder_set_port(b, s1, 0, &pi, NULL), 0);
	pi.lid = 2;
	/* a switch LID given on an external port lands on port 0 */
	assert_int_equal(topo_builder_set_port(b, s2, 3, &pi, NULL), 0);
	pi.lid = 4;
	pi.lmc = 1;
	pi.guid = 0x100001;
	assert_int_equal(topo_builder_set_port(b, h1, 1, &pi, NULL), 0);
	pi.lid = 6;
	pi.lmc = 0;
	pi.guid = 0x100011;
	assert_int_equal(topo_builder_set_port(b, h2, 1, &pi, NULL), 0);
	link_name(b, s1, 1, "h1", 1);
	link_name(b, h1, 1, "sw1", 1);	/* the same link from the other end */
	link_name(b, s1, 5, "sw2", 5);
	link_name(b, s1, 6, "sw2", 6);	/* parallel link */
	link_name(b, s2, 1, "h2", 1);
	link_name(b, s2, 7, "sw2", 8);	/* loopback cable */
	return topo_builder_finish(b);
}

static void test_build_and_lookup(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t n, p;

	(void)state;
	diag_init(&dl, 0);
	t = small(&dl);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	assert_int_equal(t->nnodes, 4);
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->ncas, 2);
	assert_int_equal(t->nlinks, 5);
	/* sorted by GUID */
	for (n = 1; n < t->nnodes; n++)
		assert_true(t->node_guid[n - 1] < t->node_guid[n]);
	n = topo_find_guid(t, 0x200000);
	assert_int_not_equal(n, TOPO_NONE);
	assert_string_equal(t->node_name[n], "sw1");
	assert_int_equal(t->node_sw[t->sw_node[0]], 0);
	assert_int_equal(t->node_guid[t->sw_node[0]], 0x200000);
	assert_int_equal(topo_find_guid(t, 0x123), TOPO_NONE);
	/* LIDs: switch on port 0, LMC range, unassigned */
	assert_int_equal(t->max_lid, 6);
	assert_int_equal(topo_find_lid(t, 2), topo_port(t, topo_find_guid(t, 0x200001), 0));
	assert_int_equal(topo_lid_node(t, 4), topo_find_guid(t, 0x100000));
	assert_int_equal(topo_lid_node(t, 5), topo_find_guid(t, 0x100000));
	assert_int_equal(topo_find_lid(t, 3), TOPO_NONE);
	assert_int_equal(topo_find_lid(t, 0), TOPO_NONE);
	assert_int_equal(topo_find_lid(t, 999), TOPO_NONE);
	/* port GUIDs: CA ports and switch port 0 defaulting to the node GUID */
	p = topo_find_port_guid(t, 0x100011);
	assert_int_equal(t->port_node[p], topo_find_guid(t, 0x100010));
	assert_int_equal(topo_port_num(t, p), 1);
	p = topo_find_port_guid(t, 0x200001);
	assert_int_equal(topo_port_num(t, p), 0);
	/* links both ways, parallel and loopback */
	n = topo_find_guid(t, 0x200000);
	p = t->port_remote[topo_port(t, n, 5)];
	assert_int_equal(t->port_node[p], topo_find_guid(t, 0x200001));
	assert_int_equal(topo_port_num(t, p), 5);
	assert_int_equal(t->port_remote[p], topo_port(t, n, 5));
	n = topo_find_guid(t, 0x200001);
	assert_int_equal(t->port_remote[topo_port(t, n, 7)], topo_port(t, n, 8));
	assert_int_equal(t->port_remote[topo_port(t, n, 8)], topo_port(t, n, 7));
	assert_int_equal(t->port_width[topo_port(t, n, 7)], 4);
	assert_int_equal(t->port_speed[topo_port(t, n, 7)], TOPO_SPEED_HDR);
	assert_int_equal(t->port_remote[topo_port(t, n, 2)], TOPO_NONE);
	topo_free(t);
	diag_free(&dl);
}

static void expect_diag(struct diag_list *dl, const char *text)
{
	char buf[512];

	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		if (strstr(buf, text))
			return;
	}
	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		print_message("  have: %s\n", buf);
	}
	fail_msg("no diagnostic contains \"%s\"", text);
}

static void test_errors(void **state)
{
	struct diag_list dl;
	struct topo_builder *b;
	struct topo_port_info pi = { .lid = 7 };
	int s, h, h2;

	(void)state;
	diag_init(&dl, 0);
	b = topo_builder_new(&dl);
	s = add(b, TOPO_NODE_SWITCH, 36, 0x10, "s", "sw");
	h = add(b, TOPO_NODE_CA, 1, 0x20, "h", "host");
	assert_int_equal(add(b, TOPO_NODE_CA, 1, 0x20, "h3", "dup"), -EEXIST);
	assert_int_equal(add(b, TOPO_NODE_CA, 0, 0x30, "h4", "noports"), -EINVAL);
	assert_int_equal(add(b, TOPO_NODE_CA, 1, 0, "h5", "zero"), -EINVAL);
	h2 = add(b, TOPO_NODE_CA, 1, 0x40, "h2", "host2");
	{
		struct topo_ref r = { .name = "s" };
		struct topo_ref nope = { .name = "ghost" };
		struct src_loc loc = { "t.topo", 12, 7 };

		assert_int_equal(topo_builder_add_link(b, s, 37, &r, 1, 0, 0, &loc), -ERANGE);
		assert_int_equal(topo_builder_add_link(b, h, 1, &r, 1, 0, 0, &loc), 0);
		assert_int_equal(topo_builder_add_link(b, h2, 1, &r, 1, 0, 0, &loc), 0);
		assert_int_equal(topo_builder_add_link(b, s, 2, &nope, 1, 0, 0, &loc), 0);
	}
	assert_int_equal(topo_builder_set_port(b, h, 1, &pi, NULL), 0);
	assert_int_equal(topo_builder_set_port(b, h2, 1, &pi, NULL), 0);
	assert_int_equal(topo_builder_set_port(b, h, 0, &pi, NULL), -ERANGE);
	assert_null(topo_builder_finish(b));
	assert_int_equal(errno, EINVAL);
	expect_diag(&dl, "t.topo:1:1: error: duplicate node GUID 0x0000000000000020");
	expect_diag(&dl, "CA has 0 ports");
	expect_diag(&dl, "node GUID is 0");
	expect_diag(&dl, "t.topo:12:7: error: port 37 out of range (switch has 36)");
	expect_diag(&dl, "is already cabled to");
	expect_diag(&dl, "link to unknown node \"ghost\"");
	expect_diag(&dl, "LID 7 of");
	expect_diag(&dl, "port 0 exists only on switches");
	diag_free(&dl);
}

static void test_lines(void **state)
{
	static const char in[] = "a\r\nbb\rccc\n\n  d  \r";
	struct diag_list dl;
	struct text_reader r;
	const char *want[] = { "a", "bb", "ccc", "", "  d  " };
	unsigned i = 0;

	(void)state;
	diag_init(&dl, 0);
	text_init(&r, in, sizeof(in) - 1, "x", &dl);
	while (text_next(&r)) {
		assert_true(i < 5);
		assert_string_equal(r.line, want[i]);
		assert_int_equal(r.lineno, i + 1);
		i++;
	}
	assert_int_equal(i, 5);
	text_fini(&r);
	assert_int_equal(dl.nerrors, 0);

	text_init(&r, "ok\nbin\0ary\n", 11, "b.dat", &dl);
	assert_true(text_next(&r));
	assert_false(text_next(&r));
	text_fini(&r);
	expect_diag(&dl, "b.dat:2:4: error: binary data");
	diag_free(&dl);
}

static void test_scan(void **state)
{
	struct scan s;
	uint64_t v;
	char q[8];

	(void)state;
	scan_init(&s, "  0x1F 42 99999999999999999999 \"abc\" \"toolongstring\" \"open");
	scan_ws(&s);
	assert_int_equal(scan_uint(&s, 16, UINT64_MAX, &v), 0);
	assert_int_equal(v, 0x1f);
	scan_ws(&s);
	assert_int_equal(scan_uint(&s, 10, 40, &v), -ERANGE);
	scan_ws(&s);
	assert_int_equal(scan_col(&s), 11);
	assert_int_equal(scan_uint(&s, 10, UINT64_MAX, &v), -ERANGE);
	scan_ws(&s);
	assert_int_equal(scan_quoted(&s, q, sizeof(q)), 0);
	assert_string_equal(q, "abc");
	scan_ws(&s);
	assert_int_equal(scan_quoted(&s, q, sizeof(q)), -ERANGE);
	assert_int_equal(scan_uint(&s, 10, 5, &v), -EINVAL);
	s.p = strchr(s.p + 1, '"') + 2;
	assert_int_equal(scan_quoted(&s, q, sizeof(q)), -EINVAL);
}

static void test_speed(void **state)
{
	(void)state;
	assert_int_equal(topo_speed_parse("HDR", 3), TOPO_SPEED_HDR);
	assert_int_equal(topo_speed_parse("fdr10", 5), TOPO_SPEED_FDR10);
	assert_int_equal(topo_speed_parse("FDR", 3), TOPO_SPEED_FDR);
	assert_int_equal(topo_speed_parse("XYZ", 3), TOPO_SPEED_UNKNOWN);
	assert_string_equal(topo_speed_name(TOPO_SPEED_NDR), "NDR");
	assert_int_equal(topo_speed_gbps_x10(TOPO_SPEED_HDR), 500);
	assert_true(topo_width_valid(12));
	assert_false(topo_width_valid(3));
	/* IBA PortInfo encodings */
	assert_int_equal(topo_width_from_iba(2), 4);
	assert_int_equal(topo_width_from_iba(16), 2);
	assert_int_equal(topo_width_from_iba(3), 0);
	assert_int_equal(topo_speed_from_iba(4, 0, false), TOPO_SPEED_QDR);
	assert_int_equal(topo_speed_from_iba(4, 0, true), TOPO_SPEED_FDR10);
	assert_int_equal(topo_speed_from_iba(4, 4, false), TOPO_SPEED_HDR);
	assert_int_equal(topo_speed_from_iba(1, 8, false), TOPO_SPEED_NDR);
	assert_int_equal(topo_speed_from_iba(0, 0, false), TOPO_SPEED_UNKNOWN);
}

static void test_equal(void **state)
{
	struct diag_list dl;
	struct topo *a, *b;
	char why[200];

	(void)state;
	diag_init(&dl, 0);
	a = small(&dl);
	b = small(&dl);
	assert_true(topo_equal(a, b, why, sizeof(why)));
	b->port_lid[topo_port(b, topo_find_guid(b, 0x100010), 1)] = 9;
	assert_false(topo_equal(a, b, why, sizeof(why)));
	assert_non_null(strstr(why, "LID"));
	topo_free(a);
	topo_free(b);
	diag_free(&dl);
}

/* Dump LIDs from another sweep are remapped by port GUID, LMC offset kept. */
static void test_lft_remap_lmc(void **state)
{
	struct diag_list dl;
	struct topo *t;
	struct lft_loader *ld;
	struct lft *l;
	int sw;

	(void)state;
	diag_init(&dl, 0);
	t = small(&dl);		/* h1 port 1: GUID 0x100001, LIDs 4-5 (LMC 1) */
	assert_non_null(t);
	ld = lft_loader_new(t, &dl, "d.dump");
	sw = lft_loader_switch(ld, 0x200000, 1, 1);
	assert_int_equal(sw, 0);
	/* the dump knew that port as LIDs 10-11 */
	assert_int_equal(lft_loader_entry(ld, sw, 10, 1, 0x100001, 2, 1), 0);
	assert_int_equal(lft_loader_entry(ld, sw, 11, 1, 0x100001, 3, 1), 0);
	assert_int_equal(lft_loader_entry(ld, sw, 6, 5, 0, 4, 1), 0);
	assert_int_equal(lft_loader_entry(ld, sw, 0, 5, 0, 5, 3), -EINVAL);
	assert_int_equal(lft_loader_entry(ld, sw, 7, 9, 0, 6, 8), -EINVAL);
	assert_int_equal(lft_loader_switch(ld, 0x100000, 7, 1), -ENOENT);
	assert_int_equal(lft_loader_switch(ld, 0x999, 8, 1), -ENOENT);
	l = lft_loader_finish(ld);
	assert_null(l);
	expect_diag(&dl, "d.dump:5:3: error: LID 0 is not a valid LID");
	expect_diag(&dl, "d.dump:6:8: error: port 9 out of range (switch has 8)");
	expect_diag(&dl, "d.dump:7:1: error: GUID 0x0000000000100000 is a CA, not a switch");
	expect_diag(&dl, "d.dump:8:1: error: switch GUID 0x0000000000000999 is not in the fabric");
	diag_free(&dl);

	diag_init(&dl, 0);
	ld = lft_loader_new(t, &dl, "d.dump");
	sw = lft_loader_switch(ld, 0x200000, 1, 1);
	assert_int_equal(lft_loader_entry(ld, sw, 10, 1, 0x100001, 2, 1), 0);
	assert_int_equal(lft_loader_entry(ld, sw, 11, 6, 0x100001, 3, 1), 0);
	l = lft_loader_finish(ld);
	assert_non_null(l);
	assert_int_equal(lft_get(l, 0, 4), 1);
	assert_int_equal(lft_get(l, 0, 5), 6);
	assert_int_equal(lft_get(l, 0, 10), LFT_NONE);
	assert_int_equal(l->have[0], 1);
	assert_int_equal(l->have[1], 0);
	expect_diag(&dl, "d.dump:2:1: note: LID 10 belongs to port 0x0000000000100001, which now has LID 4");
	lft_free(l);
	topo_free(t);
	diag_free(&dl);
}

/* Every port of a switch shares one port GUID; the model keeps it on port 0. */
static void test_switch_port_guid(void **state)
{
	struct diag_list dl;
	struct topo_builder *b;
	struct topo_port_info pi = { .guid = 0xabc };
	struct topo *t;
	int s;

	(void)state;
	diag_init(&dl, 0);
	b = topo_builder_new(&dl);
	s = add(b, TOPO_NODE_SWITCH, 4, 0x10, "s", "sw");
	for (unsigned p = 1; p <= 4; p++)
		assert_int_equal(topo_builder_set_port(b, s, p, &pi, NULL), 0);
	t = topo_builder_finish(b);
	assert_non_null(t);
	assert_int_equal(t->port_guid[topo_port(t, 0, 0)], 0xabc);
	for (unsigned p = 1; p <= 4; p++)
		assert_int_equal(t->port_guid[topo_port(t, 0, p)], 0);
	assert_int_equal(topo_find_port_guid(t, 0xabc), topo_port(t, 0, 0));
	topo_free(t);
	diag_free(&dl);
}

/*
 * ffr_count_byte and ffr_count_byte_range against a byte loop, over every
 * length and alignment up to 40, bytes of every value (128 and more too),
 * ranges empty, of one value, and of all below 128
 */
static void test_count_byte(void **state)
{
	static const uint8_t rng[][2] = { { 10, 12 }, { 13, 12 }, { 200, 3 }, { 0, 0 },
					  { 12, 12 }, { 0, 127 }, { 127, 127 } };
	uint8_t buf[48];

	(void)state;
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 % 5 == 0 ? 15 : i % 3 == 0 ? 12 : i % 4 == 0 ? 11 :
				   i * 37 % 256);
	for (unsigned off = 0; off < 8; off++)
		for (unsigned n = 0; off + n <= 40; n++) {
			size_t one = 0;

			for (unsigned i = off; i < off + n; i++)
				one += buf[i] == 15;
			assert_int_equal(ffr_count_byte(buf + off, n, 15), one);
			for (unsigned k = 0; k < sizeof(rng) / sizeof(rng[0]); k++) {
				size_t in = 0;

				for (unsigned i = off; i < off + n; i++)
					in += buf[i] == 15 || (buf[i] >= rng[k][0] &&
							       buf[i] <= rng[k][1]);
				assert_int_equal(ffr_count_byte_range(buf + off, n, 15, rng[k][0],
								       rng[k][1]), in);
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_and_lookup),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_lft_remap_lmc),
		cmocka_unit_test(test_switch_port_guid),
		cmocka_unit_test(test_count_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

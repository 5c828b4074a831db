// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_io_lst.c - the .lst reader (routing/io_lst.c): OpenSM, ibdiagnet v1
 * and ibdiagnet2 variants, the real ibutils subnet.lst, and broken inputs
 * with their exact file:line:col diagnostics.
 */
#include "unit.h"

#include <ffroute/io.h>

#define DATA SRCDIR "/tests/data"

static struct topo *read_path(const char *path, struct diag_list *dl)
{
	size_t len;
	char *buf = unit_read_file(path, &len);
	struct topo *t = lst_read(buf, len, path, dl);

	free(buf);
	return t;
}

static uint32_t node(const struct topo *t, uint64_t guid)
{
	uint32_t n = topo_find_guid(t, guid);

	assert_int_not_equal(n, TOPO_NONE);
	return n;
}

/* OpenSM 3.3.23 opensm-subnet.lst of the ibsim fabric net.3sw5hca. */
static void test_opensm_lst(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t sw1, h5, p;

	(void)state;
	diag_init(&dl, 0);
	t = read_path(DATA "/lft/3sw.lst", &dl);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	assert_int_equal(t->nswitches, 3);
	assert_int_equal(t->ncas, 5);
	assert_int_equal(t->nlinks, 9);
	assert_int_equal(t->max_lid, 9);
	sw1 = node(t, 0x0002c90000000201ULL);
	assert_int_equal(t->node_nports[sw1], 8);
	assert_string_equal(t->node_desc[sw1], "MF0;leaf1:MQM8700/U1");
	assert_int_equal(topo_node_lid(t, sw1), 1);
	assert_int_equal(t->port_lid[topo_port(t, sw1, 0)], 1);
	assert_int_equal(t->port_lid[topo_port(t, sw1, 5)], 0);
	p = topo_port(t, sw1, 5);
	assert_int_equal(t->port_width[p], 4);
	assert_int_equal(t->port_speed[p], TOPO_SPEED_SDR);
	assert_int_equal(t->port_state[p], TOPO_PORT_ACTIVE);
	assert_int_equal(t->node_guid[t->port_node[t->port_remote[p]]], 0x0002c90000010200ULL);
	assert_int_equal(topo_port_num(t, t->port_remote[p]), 5);
	/* a CA with both ports cabled to one switch */
	h5 = node(t, 0x0002c9000010000cULL);
	assert_int_equal(t->node_type[h5], TOPO_NODE_CA);
	assert_int_equal(t->port_lid[topo_port(t, h5, 1)], 8);
	assert_int_equal(t->port_lid[topo_port(t, h5, 2)], 9);
	assert_int_equal(t->port_guid[topo_port(t, h5, 2)], 0x0002c9000010000eULL);
	assert_int_equal(topo_find_port_guid(t, 0x0002c9000010000eULL), topo_port(t, h5, 2));
	assert_int_equal(topo_lid_node(t, 9), h5);
	topo_free(t);
	diag_free(&dl);
}

/* ibdiagnet2 style: lower-case hex, Ports/PN in hex, odd descriptions. */
static void test_ibdiag2_lst(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t sw, sp, ca, odd;

	(void)state;
	diag_init(&dl, 0);
	t = read_path(DATA "/lst/ibdiag2.lst", &dl);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->ncas, 2);
	assert_int_equal(t->nlinks, 4);	/* host, odd CA, sw-spine, spine loopback */
	sw = node(t, 0x0002c90300688830ULL);
	sp = node(t, 0x0002c903006888f0ULL);
	ca = node(t, 0x0002c90300165e60ULL);
	odd = node(t, 0x0002c9030068883aULL);
	assert_int_equal(t->node_nports[sw], 36);	/* Ports:24 is hex */
	assert_int_equal(t->node_nports[sp], 41);
	assert_int_equal(t->node_devid[sw], 0xc738);
	assert_int_equal(t->node_vendor[sw], 0x2c9);
	assert_int_equal(t->node_rev[sw], 0xa1);
	assert_int_equal(topo_node_lid(t, sp), 0xb0);
	/* PN:14 is port 20 */
	assert_int_equal(t->port_remote[topo_port(t, sw, 20)], topo_port(t, ca, 1));
	assert_int_equal(t->port_speed[topo_port(t, sw, 20)], TOPO_SPEED_FDR);
	assert_int_equal(t->port_speed[topo_port(t, sw, 35)], TOPO_SPEED_FDR10);
	assert_int_equal(t->port_width[topo_port(t, sw, 35)], 2);
	assert_int_equal(t->port_state[topo_port(t, sw, 35)], TOPO_PORT_INIT);
	assert_int_equal(t->port_speed[topo_port(t, sw, 1)], TOPO_SPEED_HDR);
	assert_string_equal(t->node_desc[odd], "odd {desc} # x; \"q\" LID:zz");
	assert_int_equal(t->port_lid[topo_port(t, odd, 1)], 0x1a);
	/* loopback cable on the spine, state ARM, speed "??" */
	assert_int_equal(t->port_remote[topo_port(t, sp, 2)], topo_port(t, sp, 3));
	assert_int_equal(t->port_state[topo_port(t, sp, 2)], TOPO_PORT_ARMED);
	assert_int_equal(t->port_speed[topo_port(t, sp, 2)], TOPO_SPEED_UNKNOWN);
	assert_int_equal(t->port_width[topo_port(t, sp, 2)], 1);
	topo_free(t);
	diag_free(&dl);
}

/* ibdiagnet v1 / old OpenSM: DevID with a 0000 suffix, no SPD, CA-SM. */
static void test_v1_lst(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t sw, ca;

	(void)state;
	diag_init(&dl, 0);
	t = read_path(DATA "/lst/v1.lst", &dl);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	sw = node(t, 0x0002c90109fb0000ULL);
	assert_int_equal(t->node_devid[sw], 0xA87C);
	assert_string_equal(t->node_desc[sw], "MT43132 Mellanox Technologies");
	assert_int_equal(topo_node_lid(t, sw), 2);
	assert_int_equal(t->port_speed[topo_port(t, sw, 5)], TOPO_SPEED_UNKNOWN);
	assert_int_equal(t->port_width[topo_port(t, sw, 5)], 4);
	ca = node(t, 0x0002c90109769a00ULL);
	assert_int_equal(t->node_type[ca], TOPO_NODE_CA);
	assert_int_equal(t->node_devid[ca], 0x5A44);
	assert_int_equal(t->port_lid[topo_port(t, ca, 1)], 1);
	topo_free(t);
	diag_free(&dl);
}

/* The real ibutils subnet.lst: 61 8-port + one 24-port switch, 3 CAs. */
static void test_real_lst(void **state)
{
	const char *path = unit_real_fixture("ibutils__subnet.lst");
	struct diag_list dl;
	struct topo *t;
	unsigned n8 = 0, n24 = 0;

	(void)state;
	if (!path)
		skip();
	diag_init(&dl, 0);
	t = read_path(path, &dl);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	assert_int_equal(t->nswitches, 62);
	assert_int_equal(t->ncas, 3);
	/* 344 lines, each link twice (grep -c . ibutils__subnet.lst = 344) */
	assert_int_equal(t->nlinks, 172);
	for (uint32_t s = 0; s < t->nswitches; s++) {
		unsigned np = t->node_nports[t->sw_node[s]];

		n8 += np == 8;
		n24 += np == 24;
	}
	assert_int_equal(n8, 61);
	assert_int_equal(n24, 1);
	assert_int_equal(t->max_lid, 0x41);
	for (uint32_t lid = 1; lid <= 0x41; lid++)
		assert_int_not_equal(topo_find_lid(t, lid), TOPO_NONE);
	topo_free(t);
	diag_free(&dl);
}

#define G_SW "{ SW Ports:08 SystemGUID:0000000000200000 NodeGUID:0000000000200000 " \
	     "PortGUID:0000000000200000 VenID:000000 DevID:0000 Rev:000000A1 {sw} LID:0001 PN:01 }"
#define G_CA "{ CA Ports:02 SystemGUID:0000000000100000 NodeGUID:0000000000100000 " \
	     "PortGUID:0000000000100001 VenID:000000 DevID:0000 Rev:000000A1 {ca} LID:0002 PN:01 }"

/* Read @len bytes as "bad.lst"; it must fail with a diagnostic containing @want. */
static void expect_bad_len(const char *text, size_t len, const char *want)
{
	struct diag_list dl;
	struct topo *t;

	diag_init(&dl, 0);
	t = lst_read(text, len, "bad.lst", &dl);
	if (t)
		fail_msg("accepted: %s", text);
	unit_expect_diag(&dl, want);
	diag_free(&dl);
}

static void expect_bad(const char *text, const char *want)
{
	expect_bad_len(text, strlen(text), want);
}

static void test_bad_lst(void **state)
{
	(void)state;
	/* a valid pair first, so the errors are on line 2 */
	expect_bad(G_SW " " G_CA " PHY=4x LOG=ACT\n"
		   "{ SW Ports:10 SystemGUID:0 NodeGUID:0000000000200000 PortGUID:1 "
		   "VenID:0 DevID:0 Rev:0 {sw} LID:0001 PN:02 } " G_CA " PHY=4x\n",
		   "bad.lst:2:12: error: node 0x0000000000200000 has Ports:10 here but "
		   "Ports:08 at line 1");
	expect_bad(G_SW " " G_CA " PHY=4x\n"
		   "{ CA Ports:08 SystemGUID:0 NodeGUID:0000000000200000 PortGUID:1 "
		   "VenID:0 DevID:0 Rev:0 {sw} LID:0001 PN:02 } " G_CA " PHY=4x\n",
		   "bad.lst:2:3: error: node 0x0000000000200000 is a CA here but a switch "
		   "at line 1");
	expect_bad("{ SW Ports:08 NodeGUID:0000000000200000 PortGUID:1 {sw} LID:1 PN:100 } "
		   G_CA "\n", "bad.lst:1:66: error: PN: port number does not fit in 8 bits");
	expect_bad("{ SW Ports:08 NodeGUID:0000000000200000 PortGUID:1 {sw} LID:1 PN:09 } "
		   G_CA "\n", "bad.lst:1:66: error: PN:09 out of range (switch has 8 ports)");
	expect_bad("hello world\n", "bad.lst:1:1: error: expected '{'");
	expect_bad("\n\n  { XX Ports:1 }\n",
		   "bad.lst:3:5: error: unknown node type 'XX' (expected SW, CA or Rt)");
	expect_bad("{ SW Ports:08 NodeGUID:0000000000200000 LID:1 PN:1 } " G_CA "\n",
		   "bad.lst:1:52: error: missing PortGUID: field");
	expect_bad("{ SW Ports:08 NodeGUID:00000000002g0000 PortGUID:1 {sw} LID:1 PN:1 }\n",
		   "bad.lst:1:35: error: NodeGUID: unexpected character 'g' in a hex number");
	expect_bad("{ SW Ports:08 NodeGUID:200000 PortGUID:1 {sw LID:1 PN:1 }\n",
		   "bad.lst:1:42: error: unterminated node description");
	expect_bad(G_SW " " G_CA " PHY=3x\n", "bad.lst:1:");
	expect_bad(G_SW " " G_CA " PHY=4x LOG=ACT SPD=7\n", "error: bad SPD value '7'");
	expect_bad(G_SW " " G_CA " junk\n", "error: expected PHY=, LOG= or SPD=");
	expect_bad(G_SW "\n", "bad.lst:1:");
	expect_bad("{ SW Ports:00 NodeGUID:200000 PortGUID:1 {sw} LID:1 PN:1 } " G_CA "\n",
		   "bad.lst:1:12: error: switch has 0 ports (must be 1..254)");
	expect_bad(G_SW " " G_CA "\n" G_SW " { CA Ports:02 NodeGUID:0000000000100002 "
		   "PortGUID:0000000000100003 {ca2} LID:0003 PN:01 }\n",
		   "bad.lst:2:1: error: port 1 of \"sw\" is already cabled to port 1 of \"ca\"");
	expect_bad_len(G_SW " " G_CA "\n\x01\x02\x00zz", sizeof(G_SW " " G_CA "\n\x01\x02\x00zz") - 1,
		       "bad.lst:2:3: error: binary data (NUL byte)");
}

/* Every prefix and a few byte flips of a valid file: errors, never a crash. */
static void test_truncated_lst(void **state)
{
	size_t len;
	char *buf = unit_read_file(DATA "/lst/ibdiag2.lst", &len);

	(void)state;
	for (size_t n = 0; n <= len; n += 7) {
		struct diag_list dl;
		struct topo *t;
		char *cp = malloc(n + 1);

		assert_non_null(cp);
		memcpy(cp, buf, n);
		cp[n] = '\0';
		if (n > 300)
			cp[n / 2] ^= (char)(n & 0x3f);
		diag_init(&dl, 5);
		t = lst_read(cp, n, "cut.lst", &dl);
		topo_free(t);
		diag_free(&dl);
		free(cp);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opensm_lst),
		cmocka_unit_test(test_ibdiag2_lst),
		cmocka_unit_test(test_v1_lst),
		cmocka_unit_test(test_real_lst),
		cmocka_unit_test(test_bad_lst),
		cmocka_unit_test(test_truncated_lst),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

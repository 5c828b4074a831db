// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_io_net.c - the ibsim .net reader and writer.
 *
 * The expected GUIDs, descriptions and link widths/speeds below are what
 * the installed ibsim 0.10 really built from the same files (read back with
 * OpenSM + ibnetdiscover; tests/integration/test_net_ibsim.sh re-checks it).
 *
 * Also a helper for that integration test:
 *   test_io_net --dump FILE    canonical listing of net_read(FILE)
 *   test_io_net --write FILE   topo_write_net(net_read(FILE)) to stdout
 */
#include "unit.h"

#include <ffroute/io.h>
#include <ffroute/topo.h>

#define NETDIR SRCDIR "/tests/data/net/"

static struct topo *read_buf(const char *text, const char *fname, struct diag_list *dl)
{
	diag_init(dl, 50);
	return net_read(text, strlen(text), fname, dl);
}

static struct topo *read_fixture(const char *name, struct diag_list *dl)
{
	char path[512];
	size_t len;
	char *buf;
	struct topo *t;

	snprintf(path, sizeof(path), NETDIR "%s", name);
	buf = unit_read_file(path, &len);
	diag_init(dl, 50);
	t = net_read(buf, len, name, dl);
	free(buf);
	return t;
}

static struct topo *must_read(const char *name, struct diag_list *dl)
{
	struct topo *t = read_fixture(name, dl);

	if (!t || dl->nerrors || dl->nwarnings) {
		diag_print(dl, stderr);
		fail_msg("%s: not read cleanly", name);
	}
	return t;
}

static uint32_t node(const struct topo *t, uint64_t guid)
{
	uint32_t n = topo_find_guid(t, guid);

	if (n == TOPO_NONE)
		fail_msg("no node 0x%llx", (unsigned long long)guid);
	return n;
}

/* port @pn of node @guid is linked to port @rpn of @rguid at @w x @speed */
static void expect_link(const struct topo *t, uint64_t guid, unsigned pn, uint64_t rguid,
			unsigned rpn, unsigned w, unsigned speed)
{
	uint32_t p = topo_port(t, node(t, guid), pn), r = t->port_remote[p];

	assert_int_not_equal(r, TOPO_NONE);
	assert_int_equal(t->node_guid[t->port_node[r]], rguid);
	assert_int_equal(topo_port_num(t, r), rpn);
	assert_int_equal(t->port_width[p], w);
	assert_int_equal(t->port_speed[p], speed);
	assert_int_equal(t->port_width[r], w);
	assert_int_equal(t->port_speed[r], speed);
}

static void expect_node(const struct topo *t, uint64_t guid, unsigned type, unsigned nports,
			uint64_t sysguid, const char *desc)
{
	uint32_t n = node(t, guid);

	assert_int_equal(t->node_type[n], type);
	assert_int_equal(t->node_nports[n], nports);
	assert_int_equal(t->node_sysguid[n], sysguid);
	assert_string_equal(t->node_desc[n], desc);
	for (unsigned pn = 1; pn <= nports; pn++) {
		uint32_t p = topo_port(t, n, pn);

		/* CA port p is node GUID + p; unseen (0) when not cabled */
		assert_int_equal(t->port_guid[p], type == TOPO_NODE_SWITCH ||
				 t->port_remote[p] == TOPO_NONE ? 0 : guid + pn);
	}
	if (type == TOPO_NODE_SWITCH)
		assert_int_equal(t->port_guid[topo_port(t, n, 0)], guid);
}

/* ---- what ibsim builds ----------------------------------------------------- */

static void test_noguid(void **state)
{
	struct diag_list dl;
	struct topo *t = must_read("noguid.net", &dl);

	(void)state;
	assert_int_equal(t->nnodes, 6);
	assert_int_equal(t->nlinks, 6);
	/* observed: switches 0x200000.. one each, CAs 0x100000.. 1 + NumPorts each */
	expect_node(t, 0x200000, TOPO_NODE_SWITCH, 8, 0x200000, "MF0;leaf1:MQM8700/U1");
	expect_node(t, 0x200001, TOPO_NODE_SWITCH, 4, 0x200001, "spine1");
	expect_node(t, 0x200002, TOPO_NODE_SWITCH, 4, 0x200002, "MF0;leaf2:MQM8700/U1");
	expect_node(t, 0x100000, TOPO_NODE_CA, 1, 0x100000, "gpu01 mlx5_0");
	expect_node(t, 0x100002, TOPO_NODE_CA, 2, 0x100002, "gpu02 mlx5_0");
	expect_node(t, 0x100005, TOPO_NODE_CA, 3, 0x100005, "st01");
	expect_link(t, 0x200000, 1, 0x100000, 1, 4, TOPO_SPEED_SDR);
	expect_link(t, 0x200000, 2, 0x100002, 2, 4, TOPO_SPEED_SDR);
	expect_link(t, 0x200000, 8, 0x200001, 2, 4, TOPO_SPEED_SDR);
	expect_link(t, 0x200002, 1, 0x100005, 1, 4, TOPO_SPEED_SDR);
	assert_int_equal(t->max_lid, 0);	/* LIDs are OpenSM's business */
	assert_int_equal(topo_node_lid(t, node(t, 0x200000)), 0);
	assert_string_equal(t->node_name[node(t, 0x200001)], "spine1");
	topo_free(t);
	diag_free(&dl);
}

static void test_guid_lines(void **state)
{
	struct diag_list dl;
	struct topo *t = must_read("guids.net", &dl);
	uint32_t n;

	(void)state;
	expect_node(t, 0x2c90300aa0001, TOPO_NODE_SWITCH, 36, 0x2c90300aa0000,
		    "MF0;core:MQM8700/U1");
	expect_node(t, 0x2c90300aa0011, TOPO_NODE_SWITCH, 36, 0x2c90300aa0011,
		    "MF0;edge1:MQM8700/U1");	/* "+0x10" from the last "=" */
	expect_node(t, 0x2c90300aa0012, TOPO_NODE_SWITCH, 36, 0x2c90300aa0012, "edge2");
	expect_node(t, 0x2c90300bb0000, TOPO_NODE_CA, 1, 0x2c90300bb0000, "node01 HCA-1");
	expect_node(t, 0x2c90300bb0002, TOPO_NODE_CA, 2, 0x2c90300bbffff, "node02 HCA-1");
	expect_node(t, 0x2c90300bb0100, TOPO_NODE_CA, 2, 0x2c90300bb0100, "node03 HCA-1");
	expect_node(t, 0x2c90300cc0000, TOPO_NODE_ROUTER, 2, 0x2c90300cc0000, "router gw");
	n = node(t, 0x2c90300aa0001);
	assert_int_equal(t->node_vendor[n], 0x2c9);
	assert_int_equal(t->node_devid[n], 0xd2f0);
	n = node(t, 0x2c90300aa0011);	/* vendid= is for one node, devid= sticks */
	assert_int_equal(t->node_vendor[n], 0);
	assert_int_equal(t->node_devid[n], 0xd2f0);
	assert_int_equal(t->node_devid[node(t, 0x2c90300cc0000)], 0x1017);
	expect_link(t, 0x2c90300aa0012, 1, 0x2c90300bb0100, 2, 4, TOPO_SPEED_SDR);
	expect_link(t, 0x2c90300aa0001, 3, 0x2c90300cc0000, 1, 4, TOPO_SPEED_SDR);
	topo_free(t);
	diag_free(&dl);
}

static void test_masks(void **state)
{
	struct diag_list dl;
	struct topo *t = must_read("masks.net", &dl);

	(void)state;
	expect_link(t, 0x200000, 1, 0x200001, 1, 4, TOPO_SPEED_SDR);	/* defaults */
	expect_link(t, 0x200000, 2, 0x200001, 2, 12, TOPO_SPEED_QDR);
	expect_link(t, 0x200000, 3, 0x200001, 3, 1, TOPO_SPEED_DDR);
	expect_link(t, 0x200000, 4, 0x200001, 4, 2, TOPO_SPEED_FDR);
	expect_link(t, 0x200000, 5, 0x200001, 5, 8, TOPO_SPEED_EDR);
	expect_link(t, 0x200000, 6, 0x200001, 6, 4, TOPO_SPEED_HDR);
	expect_link(t, 0x200000, 7, 0x100000, 1, 4, TOPO_SPEED_DDR);
	/* width=8 speed=4 extspeed=7 for the CAs: 12x, e=4&7 -> HDR */
	expect_link(t, 0x200000, 8, 0x100002, 1, 12, TOPO_SPEED_HDR);
	expect_link(t, 0x200001, 7, 0x100004, 1, 4, TOPO_SPEED_SDR);
	topo_free(t);
	diag_free(&dl);
}

static void test_alias(void **state)
{
	struct diag_list dl;
	struct topo *t = must_read("alias.net", &dl);

	(void)state;
	assert_int_equal(t->nlinks, 4);
	expect_link(t, 0x200001, 1, 0x200000, 3, 4, TOPO_SPEED_SDR);
	expect_link(t, 0x200001, 2, 0x200000, 4, 4, TOPO_SPEED_SDR);
	topo_free(t);
	diag_free(&dl);
}

/* ibnetdiscover output of masks.net run in ibsim reads as the same fabric */
static void test_ibnd_format(void **state)
{
	struct diag_list dl, dl2;
	struct topo *a = must_read("masks.net", &dl), *b = must_read("ibnd-masks.net", &dl2);
	char why[256] = "";

	(void)state;
	if (!topo_equal(a, b, why, sizeof(why)))
		fail_msg("%s", why);
	topo_free(a);
	topo_free(b);
	diag_free(&dl);
	diag_free(&dl2);
}

/* ibnetdiscover input: "Ca" records, (portguid), lid/width comments, FDR10 */
static void test_ibnd_text(void **state)
{
	static const char text[] =
		"#\n# Topology file: generated on today\n#\n\n"
		"vendid=0x2c9\ndevid=0xc738\nsysimgguid=0x2c903007b78b0\n"
		"switchguid=0x2c903007b78b0(2c903007b78b0)\n"
		"Switch\t36 \"S-0002c903007b78b0\"\t\t# \"MF0;sw:SX6036/U1\" enhanced port 0 lid 19 lmc 0\n"
		"[3]\t\"H-e41d2d03005cf34c\"[1](e41d2d03005cf34c) \t\t# \"host HCA-1\" lid 3 4xFDR\n"
		"[25]\t\"S-0002c903007b78b0\"[26]\t\t# \"MF0;sw:SX6036/U1\" lid 19 4xFDR10\n"
		"[26]\t\"S-0002c903007b78b0\"[25]\t\t# \"MF0;sw:SX6036/U1\" lid 19 4xFDR10\n\n"
		"vendid=0x2c9\ndevid=0x1003\nsysimgguid=0xe41d2d03005cf34f\ncaguid=0xe41d2d03005cf34c\n"
		"Ca\t2 \"H-e41d2d03005cf34c\"\t\t# \"host HCA-1\"\n"
		"[1](e41d2d03005cf34c) \t\"S-0002c903007b78b0\"[3]\t\t# lid 3 lmc 0 \"MF0;sw:SX6036/U1\" lid 19 4xFDR\n";
	struct diag_list dl;
	struct topo *t = read_buf(text, "ibnd.txt", &dl);

	(void)state;
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	/* ibsim ignores "(portguid)": port 1 is node GUID + 1, and says so once */
	unit_expect_diag(&dl, "ibnd.txt:19:1: warning: 1 CA port GUID(s) in the file differ");
	expect_node(t, 0xe41d2d03005cf34c, TOPO_NODE_CA, 2, 0xe41d2d03005cf34f, "host HCA-1");
	expect_link(t, 0x2c903007b78b0, 3, 0xe41d2d03005cf34c, 1, 4, TOPO_SPEED_FDR);
	expect_link(t, 0x2c903007b78b0, 25, 0x2c903007b78b0, 26, 4, TOPO_SPEED_FDR10);
	assert_int_equal(t->max_lid, 0);
	topo_free(t);
	diag_free(&dl);
}

/* ---- writer ---------------------------------------------------------------- */

static char *write_mem(const struct topo *t, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(topo_write_net(t, fp), 0);
	fclose(fp);
	return buf;
}

static void round_trip(const struct topo *t, const char *what)
{
	struct diag_list dl;
	size_t len, len2;
	char *buf = write_mem(t, &len), *buf2 = write_mem(t, &len2), why[256] = "";
	struct topo *u;

	assert_int_equal(len, len2);	/* deterministic */
	assert_memory_equal(buf, buf2, len);
	for (char *l = buf, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		assert_non_null(e);
		if (e - l > 254)
			fail_msg("%s: line longer than 254 bytes: %.40s...", what, l);
	}
	diag_init(&dl, 20);
	u = net_read(buf, len, what, &dl);
	if (!u || dl.nerrors || dl.nwarnings) {
		diag_print(&dl, stderr);
		fprintf(stderr, "%s", buf);
		fail_msg("%s: written file does not read back cleanly", what);
	}
	if (!topo_equal(t, u, why, sizeof(why)))
		fail_msg("%s: round trip differs: %s", what, why);
	topo_free(u);
	diag_free(&dl);
	free(buf);
	free(buf2);
}

static void test_round_trip_fixtures(void **state)
{
	static const char *const names[] = { "noguid.net", "guids.net", "masks.net", "alias.net",
		"ibnd-masks.net", "example-2sw2path4hca2port.net" };

	(void)state;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct diag_list dl;
		struct topo *t = must_read(names[i], &dl);

		round_trip(t, names[i]);
		topo_free(t);
		diag_free(&dl);
	}
}

/* A fabric made without ibsim's rules: every speed, odd descriptions, a loop. */
static void test_round_trip_built(void **state)
{
	static const struct { unsigned w, s; } ls[] = {
		{ 1, TOPO_SPEED_SDR }, { 2, TOPO_SPEED_DDR }, { 4, TOPO_SPEED_QDR },
		{ 8, TOPO_SPEED_FDR10 }, { 12, TOPO_SPEED_FDR }, { 4, TOPO_SPEED_EDR },
		{ 2, TOPO_SPEED_HDR }, { 4, TOPO_SPEED_HDR },
	};
	struct diag_list dl;
	struct topo_builder *b;
	struct topo_node_info sw = { .type = TOPO_NODE_SWITCH, .nports = 254,
				     .guid = 0xfffffffffffffff0ULL, .sysguid = 0x1234,
				     .vendor = 0x2c9, .devid = 0xd2f0,
				     .desc = "MF0;big:MCS8500/L07/U1 # with hash", .name = "sw" };
	struct topo_node_info ca = { .type = TOPO_NODE_CA, .nports = 2, .guid = 0x1,
				     .sysguid = 0x1, .desc = "h", .name = "h" };
	struct topo_node_info rt = { .type = TOPO_NODE_ROUTER, .nports = 1, .guid = 0x50,
				     .sysguid = 0x50, .desc = "rt", .name = "rt" };
	struct topo_port_info pi = { 0 };
	struct topo_ref r = { .name = "sw" };
	struct topo *t;
	int s, h, rr;

	(void)state;
	diag_init(&dl, 20);
	b = topo_builder_new(&dl);
	s = topo_builder_add_node(b, &sw, NULL);
	h = topo_builder_add_node(b, &ca, NULL);
	rr = topo_builder_add_node(b, &rt, NULL);
	assert_true(s >= 0 && h >= 0 && rr >= 0);
	pi.guid = 3;	/* port 1 stays uncabled and so without a GUID */
	assert_int_equal(topo_builder_set_port(b, h, 2, &pi, NULL), 0);
	pi.guid = 0x51;
	assert_int_equal(topo_builder_set_port(b, rr, 1, &pi, NULL), 0);
	for (unsigned i = 0; i < sizeof(ls) / sizeof(ls[0]); i++)
		topo_builder_add_link(b, s, 100 + i, &r, 200 + i, ls[i].w, ls[i].s, NULL);
	topo_builder_add_link(b, h, 2, &r, 254, 4, TOPO_SPEED_EDR, NULL);
	topo_builder_add_link(b, rr, 1, &r, 1, 12, TOPO_SPEED_QDR, NULL);
	t = topo_builder_finish(b);
	assert_non_null(t);
	round_trip(t, "built.net");
	topo_free(t);
	diag_free(&dl);
}

/* ---- diagnostics ----------------------------------------------------------- */

/* tests/data/net/bad/NAME.net starts with "# expect: <diagnostic>" */
static void test_bad_fixtures(void **state)
{
	static const char *const names[] = {
		"bad-width", "bad-speed", "bad-extspeed", "one-sided", "unknown-peer",
		"no-common-width", "dup-id", "port-range", "remote-port-range", "guid-overflow",
		"router-guid", "include", "do-unlink", "no-id", "no-nports", "unknown-alias",
		"dup-guid", "swallowed", "nports-range", "unterminated",
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[512], fname[64], want[300];
		struct diag_list dl;
		struct topo *t;
		size_t len;
		char *buf, *nl;

		snprintf(path, sizeof(path), NETDIR "bad/%s.net", names[i]);
		snprintf(fname, sizeof(fname), "%s.net", names[i]);
		buf = unit_read_file(path, &len);
		assert_true(!strncmp(buf, "# expect: ", 10));
		nl = strchr(buf, '\n');
		assert_non_null(nl);
		snprintf(want, sizeof(want), "%.*s", (int)(nl - buf - 10), buf + 10);
		diag_init(&dl, 50);
		t = net_read(buf, len, fname, &dl);
		if (t)
			fail_msg("%s: accepted", fname);
		assert_int_equal(errno, EINVAL);
		unit_expect_diag(&dl, want);
		diag_free(&dl);
		free(buf);
	}
}

static void test_several_errors(void **state)
{
	static const char text[] =
		"Switch 4 \"a\"\n[1] \"b\"[1] w=32\n[2] \"b\"[300]\n[3] \"zz\"[1]\n\n"
		"Ca 2 \"b\"\n[1] \"a\"[1]\n[5] \"a\"[2]\n\ncaguid=0x1ffffffffffffffff\n";
	struct diag_list dl;
	struct topo *t = read_buf(text, "m.net", &dl);

	(void)state;
	assert_null(t);
	unit_expect_diag(&dl, "m.net:2:12: error: link width mask w=32 out of range (1..31)");
	unit_expect_diag(&dl, "m.net:3:9: error: remote port 300 out of range (1..254)");
	unit_expect_diag(&dl, "m.net:8:2: error: port 5 out of range (\"b\" has 2 ports)");
	unit_expect_diag(&dl, "m.net:10:8: error: GUID: number too large");
	unit_expect_diag(&dl, "m.net:4:5: error: link to unknown node \"zz\"");
	assert_true(dl.nerrors >= 5);
	diag_free(&dl);
}

static void test_warnings(void **state)
{
	static const char text[] =
		"Switch 3 \"a\"\n[1] \"b\" [1]\n[2] \"c\"[1] s=7\n"
		"Hca 1 \"x\"\n[1] \"a\"[3]\n\n"
		"Hca 1 \"b\"\n[1] \"a\"[1]\n[1] \"a\"[1]\n\n  Hca 1 \"c\"\n"
		"Hca 1 \"c\"\n[1] \"a\"[2]\n";
	struct diag_list dl;
	struct topo *t = read_buf(text, "w.net", &dl);

	(void)state;
	assert_non_null(t);
	unit_expect_diag(&dl, "w.net:2:9: warning: blank before the remote port: ibsim ignores "
			 "it and uses port 1");
	unit_expect_diag(&dl, "w.net:4:1: warning: this line ends the record of \"a\" and ibsim "
			 "ignores it");
	unit_expect_diag(&dl, "w.net:5:1: warning: port line outside a node record; ibsim "
			 "ignores it");
	unit_expect_diag(&dl, "w.net:9:1: warning: ibsim reads at most NumPorts (1) port lines "
			 "for \"b\" and ignores this one");
	unit_expect_diag(&dl, "w.net:11:1: warning: leading blanks: ibsim ignores this line");
	unit_expect_diag(&dl, "w.net:3:5: warning: link comes up at 4xSDR, but an OpenSM sweep "
			 "may change it");
	assert_int_equal(dl.nerrors, 0);
	assert_int_equal(t->nnodes, 3);	/* "x" was swallowed */
	assert_int_equal(t->nlinks, 2);
	topo_free(t);
	diag_free(&dl);
}

static void test_long_line_and_limits(void **state)
{
	char text[1200];
	struct diag_list dl;
	struct topo *t;

	(void)state;
	snprintf(text, sizeof(text), "Switch 1 \"s\"\t# \"%0300d\"\n[1] \"h\"[1]\n\n"
		 "Hca 1 \"h\"\n[1] \"s\"[1]\n", 0);
	t = read_buf(text, "l.net", &dl);
	assert_non_null(t);
	unit_expect_diag(&dl, "l.net:1:255: warning: line is 317 bytes; ibsim 0.10 reads at most 254");
	unit_expect_diag(&dl, "l.net:1:10: warning: NodeDescription longer than 63 bytes");
	assert_int_equal(strlen(t->node_desc[node(t, 0x200000)]), 63);
	topo_free(t);
	diag_free(&dl);
}

/* Every prefix and many one-byte corruptions of a fixture: no crash, no leak. */
static void test_mangled(void **state)
{
	static const char mut[] = "\"[]@#=+x0 \n\r\t9\xff";
	size_t len;
	char *src = unit_read_file(NETDIR "guids.net", &len), *buf = malloc(len + 1);

	(void)state;
	assert_non_null(buf);
	for (size_t cut = 0; cut <= len; cut += 3) {
		struct diag_list dl;

		memcpy(buf, src, cut);
		diag_init(&dl, 5);
		topo_free(net_read(buf, cut, "cut.net", &dl));
		diag_free(&dl);
	}
	for (size_t i = 0; i < len; i += 2) {
		for (unsigned k = 0; k < sizeof(mut) - 1; k += 3) {
			struct diag_list dl;

			memcpy(buf, src, len);
			buf[i] = mut[(i + k) % (sizeof(mut) - 1)];
			diag_init(&dl, 5);
			topo_free(net_read(buf, len, "mut.net", &dl));
			diag_free(&dl);
		}
	}
	free(buf);
	free(src);
}

/* ---- helper modes for the integration test --------------------------------- */

static void hexg(uint64_t g, FILE *fp)
{
	fprintf(fp, "%llx", (unsigned long long)g);
}

/* "N guid type nports sysguid desc" and "L guid port portguid peer peerport WxS" */
static void dump_canon(const struct topo *t, FILE *fp)
{
	for (uint32_t n = 0; n < t->nnodes; n++) {
		char type = topo_is_switch(t, n) ? 'S' : t->node_type[n] == TOPO_NODE_CA ? 'H' : 'R';

		fputs("N ", fp);
		hexg(t->node_guid[n], fp);
		fprintf(fp, " %c %u ", type, t->node_nports[n]);
		hexg(t->node_sysguid[n], fp);
		fprintf(fp, " %s\n", t->node_desc[n]);
		for (unsigned pn = 1; pn <= t->node_nports[n]; pn++) {
			uint32_t p = topo_port(t, n, pn), r = t->port_remote[p];

			if (r == TOPO_NONE)
				continue;
			fputs("L ", fp);
			hexg(t->node_guid[n], fp);
			fprintf(fp, " %u ", pn);
			if (type == 'S')
				fputc('-', fp);
			else
				hexg(t->port_guid[p], fp);
			fputc(' ', fp);
			hexg(t->node_guid[t->port_node[r]], fp);
			fprintf(fp, " %u %ux%s\n", topo_port_num(t, r), t->port_width[p],
				topo_speed_name(t->port_speed[p]));
		}
	}
}

static int helper(const char *mode, const char *path)
{
	struct diag_list dl;
	struct topo *t;
	int rc = 0;

	diag_init(&dl, 20);
	t = topo_read_file(path, FFR_FMT_NET, &dl);
	diag_print(&dl, stderr);
	if (!t)
		rc = 1;
	else if (!strcmp(mode, "--dump"))
		dump_canon(t, stdout);
	else
		rc = topo_write_net(t, stdout) ? 1 : 0;
	topo_free(t);
	diag_free(&dl);
	return rc;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noguid),
		cmocka_unit_test(test_guid_lines),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_ibnd_format),
		cmocka_unit_test(test_ibnd_text),
		cmocka_unit_test(test_round_trip_fixtures),
		cmocka_unit_test(test_round_trip_built),
		cmocka_unit_test(test_bad_fixtures),
		cmocka_unit_test(test_several_errors),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_long_line_and_limits),
		cmocka_unit_test(test_mangled),
	};

	if (argc == 3 && (!strcmp(argv[1], "--dump") || !strcmp(argv[1], "--write")))
		return helper(argv[1], argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

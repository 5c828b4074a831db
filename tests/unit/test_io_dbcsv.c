// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_io_dbcsv.c - link widths and speeds from ibdiagnet2.db_csv
 * (routing/io_dbcsv.c).
 *
 * tests/data/dbcsv/ibdiag2/ is a small ibdiagnet2 directory (spine01,
 * leaf01, leaf02, three hosts).  Its .lst shows SPD=2.5 on the NDR/HDR
 * links and SPD=10 on the FDR10/QDR ones, as real files do; its db_csv
 * (comment header, INDEX_TABLE, NODES with quoted descriptions holding a
 * comma, "" and a latin-1 byte, PORTS without LinkSpeedExtActv, N/A values,
 * EXTENDED_PORT_INFO with LinkSpeedExtActv and the FDR10 bit) says:
 *
 *   spine01/1 - leaf01/33   2x NDR        leaf01/1 - gpu01/1    4x HDR
 *   spine01/2 - leaf02/21   4x HDR        leaf02/1 - stor01/1   4x FDR10
 *                                         leaf02/2 - cn03/1     4x QDR
 *
 * reorder.db_csv (CRLF, other column order, "NodeGUID" spelling,
 * LinkSpeedExtActv in PORTS, EXTENDED_PORT_INFO keyed by PortGuid only)
 * must give the same.  Then broken inputs with their exact diagnostics,
 * the warnings, all-or-nothing, and inputs that must not crash.
 */
#include "unit.h"

#include <ffroute/io.h>

#define DATA SRCDIR "/tests/data/dbcsv"
#define LST DATA "/ibdiag2/ibdiagnet2.lst"

#define SPINE 0x0c42a10300a00001ULL
#define LEAF1 0x0c42a10300b00001ULL
#define LEAF2 0x0c42a10300b00002ULL
#define GPU01 0x0c42a10300c00010ULL
#define STOR01 0x0c42a10300c00020ULL
#define CN03 0x0c42a10300c00030ULL

static struct topo *read_lst(void)
{
	struct diag_list dl;
	size_t len;
	char *buf = unit_read_file(LST, &len);
	struct topo *t;

	diag_init(&dl, 0);
	t = lst_read(buf, len, "ibdiagnet2.lst", &dl);
	assert_non_null(t);
	assert_int_equal(dl.nerrors, 0);
	free(buf);
	diag_free(&dl);
	return t;
}

static uint32_t port(const struct topo *t, uint64_t guid, unsigned pn)
{
	uint32_t n = topo_find_guid(t, guid);

	assert_int_not_equal(n, TOPO_NONE);
	return topo_port(t, n, pn);
}

static void expect_port(const struct topo *t, uint64_t guid, unsigned pn, unsigned width,
			unsigned speed)
{
	uint32_t p = port(t, guid, pn);

	if (t->port_width[p] != width || t->port_speed[p] != speed)
		fail_msg("0x%016llx/%u: %ux%s, expected %ux%s", (unsigned long long)guid, pn,
			 t->port_width[p], topo_speed_name(t->port_speed[p]), width,
			 topo_speed_name(speed));
}

/* Both ends of each link of the fixture fabric. */
static void expect_fixture_speeds(const struct topo *t)
{
	expect_port(t, SPINE, 1, 2, TOPO_SPEED_NDR);
	expect_port(t, LEAF1, 33, 2, TOPO_SPEED_NDR);
	expect_port(t, SPINE, 2, 4, TOPO_SPEED_HDR);
	expect_port(t, LEAF2, 21, 4, TOPO_SPEED_HDR);
	expect_port(t, LEAF1, 1, 4, TOPO_SPEED_HDR);
	expect_port(t, GPU01, 1, 4, TOPO_SPEED_HDR);
	expect_port(t, LEAF2, 1, 4, TOPO_SPEED_FDR10);
	expect_port(t, STOR01, 1, 4, TOPO_SPEED_FDR10);
	expect_port(t, LEAF2, 2, 4, TOPO_SPEED_QDR);
	expect_port(t, CN03, 1, 4, TOPO_SPEED_QDR);
	/* down and unlinked ports keep what the .lst gave (nothing) */
	expect_port(t, SPINE, 3, 0, TOPO_SPEED_UNKNOWN);
	expect_port(t, STOR01, 2, 0, TOPO_SPEED_UNKNOWN);
	expect_port(t, SPINE, 0, 0, TOPO_SPEED_UNKNOWN);
}

/* Apply @text (length @len) to a fresh fixture fabric; *dl is initialised. */
static int apply_buf(struct topo **t, const char *text, size_t len, struct diag_list *dl)
{
	*t = read_lst();
	diag_init(dl, 0);
	return dbcsv_apply_speeds(*t, text, len, "bad.db_csv", dl);
}

static int apply_str(struct topo **t, const char *text, struct diag_list *dl)
{
	return apply_buf(t, text, strlen(text), dl);
}

static void apply_file(const char *path, struct topo *t)
{
	struct diag_list dl;
	size_t len;
	char *buf = unit_read_file(path, &len);

	diag_init(&dl, 0);
	assert_int_equal(dbcsv_apply_speeds(t, buf, len, path, &dl), 0);
	if (dl.n)
		diag_print(&dl, stderr);
	assert_int_equal(dl.n, 0);		/* not even a warning */
	free(buf);
	diag_free(&dl);
}

static void test_fixture_dir(void **state)
{
	struct topo *t = read_lst();

	(void)state;
	/* what the .lst alone says: legacy speeds only */
	expect_port(t, SPINE, 1, 2, TOPO_SPEED_SDR);
	expect_port(t, SPINE, 2, 4, TOPO_SPEED_SDR);
	expect_port(t, LEAF2, 1, 4, TOPO_SPEED_QDR);
	apply_file(DATA "/ibdiag2/ibdiagnet2.db_csv", t);
	expect_fixture_speeds(t);
	topo_free(t);
}

static void test_reorder_crlf(void **state)
{
	struct topo *t = read_lst();

	(void)state;
	apply_file(DATA "/reorder.db_csv", t);
	expect_fixture_speeds(t);
	topo_free(t);
}

/* A quoted field with commas, "" and a latin-1 byte inside a section that is read. */
static void test_quoted_fields(void **state)
{
	static const char in[] =
		"START_PORTS\n"
		"NodeGuid,\"Desc, with comma\",PortNum,LinkWidthActv,LinkSpeedActv,LinkSpeedExtActv\n"
		"0x0c42a10300a00001,\"a,b \"\"c\"\", caf\xe9\",\"1\", 16 ,1,8\n"
		"END_PORTS\n";
	struct diag_list dl;
	struct topo *t;

	(void)state;
	assert_int_equal(apply_str(&t, in, &dl), 0);
	assert_int_equal(dl.n, 0);
	expect_port(t, SPINE, 1, 2, TOPO_SPEED_NDR);
	expect_port(t, LEAF1, 33, 2, TOPO_SPEED_SDR);	/* not in the file: as in the .lst */
	topo_free(t);
	diag_free(&dl);
}

/*
 * PORTS keyed by PortGuid; N/A leaves values; port 0 and Down ports are
 * skipped; EXTENDED_PORT_INFO fills in LinkSpeedExtActv.
 */
static void test_keys_and_na(void **state)
{
	static const char in[] =
		"START_PORTS\n"
		"PortGuid,PortNum,PortState,LinkWidthActv,LinkSpeedActv,LinkSpeedExtActv\n"
		"0x0c42a10300c00011,1,4,2,1,2\n"		/* gpu01: 4x EDR */
		"0x0c42a10300a00001,1,4,N/A,1,4\n"	/* spine01/1: width kept, HDR */
		"0x0c42a10300a00001,2,1,1,1,8\n"		/* Down: skipped */
		"0x0c42a10300a00001,0,4,1,1,8\n"		/* port 0: skipped */
		"0x0c42a10300b00002,21,N/A,,N/A,N/A\n"	/* nothing known */
		"END_PORTS\n"
		"START_EXTENDED_PORT_INFO\n"
		"NodeGuid,PortNum,LinkSpeedExtActv\n"
		"0x0c42a10300a00001,2,8\n"		/* Down in PORTS: still skipped */
		"0x0c42a10300b00002,21,2\n"		/* leaf02/21: EDR */
		"END_EXTENDED_PORT_INFO\n";
	struct diag_list dl;
	struct topo *t;

	(void)state;
	assert_int_equal(apply_str(&t, in, &dl), 0);
	assert_int_equal(dl.n, 0);
	expect_port(t, GPU01, 1, 4, TOPO_SPEED_EDR);
	expect_port(t, SPINE, 1, 2, TOPO_SPEED_HDR);
	expect_port(t, SPINE, 2, 4, TOPO_SPEED_SDR);
	expect_port(t, SPINE, 0, 0, TOPO_SPEED_UNKNOWN);
	expect_port(t, LEAF2, 21, 4, TOPO_SPEED_EDR);
	topo_free(t);
	diag_free(&dl);
}

/* EXTENDED_PORT_INFO without speed columns (an older version) is skipped. */
static void test_epi_without_speeds(void **state)
{
	static const char in[] =
		"START_EXTENDED_PORT_INFO\n"
		"NodeGuid,PortNum,OOOSLMask,AdaptiveTimeoutSLMask\n"
		"garbage that is not read\n"
		"END_EXTENDED_PORT_INFO\n"
		"START_PORTS\n"
		"NodeGuid,PortNum,LinkWidthActv,LinkSpeedActv\n"
		"0x0c42a10300a00001,1,2,4\n"
		"END_PORTS\n";
	struct diag_list dl;
	struct topo *t;

	(void)state;
	assert_int_equal(apply_str(&t, in, &dl), 0);
	assert_int_equal(dl.n, 0);
	expect_port(t, SPINE, 1, 4, TOPO_SPEED_QDR);
	topo_free(t);
	diag_free(&dl);
}

#define PH "START_PORTS\nNodeGuid,PortNum,LinkWidthActv,LinkSpeedActv,LinkSpeedExtActv\n"

static const struct {
	const char *in, *msg;
} bad[] = {
	{ "START_PORTS\nNodeGuid,PortNum,LinkWidthActv\n0x1,1,2\nEND_PORTS\n",
	  "bad.db_csv:2:1: error: the PORTS header lacks LinkSpeedActv: cannot read link speeds" },
	{ "START_PORTS\nPortNum,LinkSpeedExtActv\nEND_PORTS\n",
	  "bad.db_csv:2:1: error: the PORTS header lacks NodeGuid (or PortGuid), LinkWidthActv, "
	  "LinkSpeedActv: cannot read link speeds" },
	{ "START_EXTENDED_PORT_INFO\nPortNum,LinkSpeedExtActv\nEND_EXTENDED_PORT_INFO\n"
	  PH "END_PORTS\n",
	  "bad.db_csv:2:1: error: the EXTENDED_PORT_INFO header lacks NodeGuid (or PortGuid): "
	  "cannot read link speeds" },
	{ "# IBDIAG\n\nSTART_NODES\nNodeDesc\n\"a,b\"\nEND_NODES\n",
	  "bad.db_csv: error: no PORTS section (START_PORTS ... END_PORTS): cannot read link "
	  "speeds" },
	{ "START_PORTS\nEND_PORTS\n", "bad.db_csv:2:1: error: the PORTS section has no header row" },
	{ PH "0x0c42a10300a0000g,1,2,1,4\nEND_PORTS\n",
	  "bad.db_csv:3:18: error: NodeGuid: unexpected character in a GUID" },
	{ PH "xyz,1,2,1,4\nEND_PORTS\n",
	  "bad.db_csv:3:1: error: NodeGuid: expected a GUID (0x and hex digits)" },
	{ PH "N/A,1,2,1,4\nEND_PORTS\n", "bad.db_csv:3:1: error: NodeGuid: no GUID" },
	{ PH "0x0c42a10300a00001,1x,2,1,4\nEND_PORTS\n",
	  "bad.db_csv:3:21: error: PortNum: unexpected character in a number" },
	{ PH "0x0c42a10300a00001,300,2,1,4\nEND_PORTS\n",
	  "bad.db_csv:3:20: error: PortNum: value too large" },
	{ PH "0x0c42a10300a00001,,2,1,4\nEND_PORTS\n",
	  "bad.db_csv:3:20: error: PortNum: no port number" },
	{ PH "0x0c42a10300a00001,1,2,-1,4\nEND_PORTS\n",
	  "bad.db_csv:3:24: error: LinkSpeedActv: expected a number or N/A" },
	{ PH "0x0c42a10300a00001,1,2,1\nEND_PORTS\n",
	  "bad.db_csv:3:25: error: 4 fields, the header has 5 columns" },
	{ PH "0x0c42a10300a00001,1,2,1,4,7\nEND_PORTS\n",
	  "bad.db_csv:3:28: error: field 6: the header has 5 columns" },
	{ "START_PORTS\nNodeGuid,\"PortNum,LinkWidthActv,LinkSpeedActv\nEND_PORTS\n",
	  "bad.db_csv:2:10: error: unterminated quoted field" },
	{ "START_PORTS\nNodeGuid,\"PortNum\"x,LinkWidthActv,LinkSpeedActv\nEND_PORTS\n",
	  "bad.db_csv:2:19: error: expected ',' after the closing quote" },
	{ PH "0x0c42a10300a00001,1,2,1,4\n",
	  "bad.db_csv:1:1: error: START_PORTS has no END_PORTS" },
	{ PH "END_PORT\n", "bad.db_csv:3:5: error: END_PORT does not close START_PORTS (line 1)" },
	{ "garbage\n" PH "END_PORTS\n",
	  "bad.db_csv:1:1: error: expected START_<SECTION>: a line outside any section" },
	{ "END_NODES\n" PH "END_PORTS\n", "bad.db_csv:1:1: error: END_NODES without START_NODES" },
	{ "START_NODES\nNodeDesc\n" PH "END_PORTS\n",
	  "bad.db_csv:3:1: error: START_PORTS inside section NODES (line 1): missing END_NODES" },
	{ "START_ \n" PH "END_PORTS\n", "bad.db_csv:1:7: error: bad section name" },
	{ PH "0x0c42a10300a00001,1,2,1,4\r\nEND_PORTS\r\n\0garbage",
	  "bad.db_csv:5:1: error: binary data (NUL byte): not a text dump" },
};

static void test_bad_inputs(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct diag_list dl;
		struct topo *t;
		size_t len = strlen(bad[i].in);

		if (strstr(bad[i].in, "\r\nEND_PORTS\r\n"))	/* the NUL case */
			len += 1 + strlen("garbage");
		assert_int_equal(apply_buf(&t, bad[i].in, len, &dl), -EINVAL);
		unit_expect_diag(&dl, bad[i].msg);
		/* all or nothing: spine01/1 keeps the .lst speed */
		expect_port(t, SPINE, 1, 2, TOPO_SPEED_SDR);
		topo_free(t);
		diag_free(&dl);
	}
}

static const struct {
	const char *row, *msg;
} warn[] = {
	{ "0x0c42a103ffffffff,1,2,1,4",
	  "bad.db_csv:3:1: warning: NodeGuid 0x0c42a103ffffffff is not in the fabric; row ignored" },
	{ "0x0c42a10300c00010,2,2,1,4", "bad.db_csv:3:20: warning: port 2 out of range: node "
	  "0x0c42a10300c00010 has 1 port; row ignored" },
	{ "0x0c42a10300a00001,1,3,1,8",
	  "bad.db_csv:3:22: warning: LinkWidthActv 3 is not an IBA code; left as it was" },
	{ "0x0c42a10300a00001,1,16,1,3",
	  "bad.db_csv:3:27: warning: LinkSpeedExtActv 3 is not an IBA code; left as it was" },
};

static void test_warnings(void **state)
{
	char in[512];

	(void)state;
	for (unsigned i = 0; i < sizeof(warn) / sizeof(warn[0]); i++) {
		struct diag_list dl;
		struct topo *t;

		snprintf(in, sizeof(in), PH "%s\nEND_PORTS\n", warn[i].row);
		assert_int_equal(apply_str(&t, in, &dl), 0);
		unit_expect_diag(&dl, warn[i].msg);
		assert_int_equal(dl.nerrors, 0);
		topo_free(t);
		diag_free(&dl);
	}
}

/* The valid half of a row with a bad code is still applied; a port twice: the last counts. */
static void test_partial_and_twice(void **state)
{
	static const char in[] = PH
		"0x0c42a10300a00001,1,3,1,8\n"
		"0x0c42a10300a00001,2,2,1,4\n"
		"0x0c42a10300a00001,2,16,1,8\n"
		"END_PORTS\n";
	struct diag_list dl;
	struct topo *t;

	(void)state;
	assert_int_equal(apply_str(&t, in, &dl), 0);
	expect_port(t, SPINE, 1, 2, TOPO_SPEED_NDR);	/* width kept from the .lst */
	expect_port(t, SPINE, 2, 2, TOPO_SPEED_NDR);
	unit_expect_diag(&dl, "bad.db_csv:5:1: warning: port 2 of node 0x0c42a10300a00001 "
			 "listed twice in PORTS; the last row counts");
	topo_free(t);
	diag_free(&dl);
}

/* Another fabric's db_csv: ten warnings, a count of the rest, and a summary. */
static void test_other_fabric(void **state)
{
	char in[4096];
	struct diag_list dl;
	struct topo *t;
	size_t n;

	(void)state;
	n = (size_t)snprintf(in, sizeof(in), PH);
	for (unsigned i = 0; i < 15; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "0x00000000000000%02x,1,2,1,4\n",
				      i + 1);
	snprintf(in + n, sizeof(in) - n, "END_PORTS\n");
	assert_int_equal(apply_str(&t, in, &dl), 0);
	assert_int_equal(dl.nerrors, 0);
	assert_int_equal(dl.nwarnings, 12);
	unit_expect_diag(&dl, "bad.db_csv:12:1: warning: NodeGuid 0x000000000000000a is not in");
	unit_expect_diag(&dl, "bad.db_csv: warning: 5 more warnings like these");
	unit_expect_diag(&dl, "bad.db_csv: warning: no PORTS row names a port of this fabric");
	expect_port(t, SPINE, 1, 2, TOPO_SPEED_SDR);
	topo_free(t);
	diag_free(&dl);
}

static void test_args(void **state)
{
	struct diag_list dl;
	struct topo *t = read_lst();

	(void)state;
	diag_init(&dl, 0);
	assert_int_equal(dbcsv_apply_speeds(NULL, "", 0, "x", &dl), -EINVAL);
	assert_int_equal(dbcsv_apply_speeds(t, NULL, 5, "x", &dl), -EINVAL);
	assert_int_equal(dbcsv_apply_speeds(t, "", 0, "x", NULL), -EINVAL);
	/* empty input: no PORTS section */
	assert_int_equal(dbcsv_apply_speeds(t, NULL, 0, NULL, &dl), -EINVAL);
	unit_expect_diag(&dl, "<input>: error: no PORTS section");
	topo_free(t);
	diag_free(&dl);
}

/* Every prefix of the fixture, and seeded byte mutations: 0 or -EINVAL, never a crash. */
static void test_no_crash(void **state)
{
	size_t len;
	char *good = unit_read_file(DATA "/ibdiag2/ibdiagnet2.db_csv", &len);
	char *buf = malloc(len + 1);
	struct topo *t = read_lst();
	uint32_t seed = 12345;

	(void)state;
	assert_non_null(buf);
	for (size_t n = 0; n <= len; n += 1 + n / 64) {
		struct diag_list dl;
		int rc;

		memcpy(buf, good, n);
		diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
		rc = dbcsv_apply_speeds(t, buf, n, "cut.db_csv", &dl);
		assert_true(rc == 0 || rc == -EINVAL);
		diag_free(&dl);
	}
	for (unsigned round = 0; round < 300; round++) {
		static const char bytes[] = ",\"\n\r\0x0N/A_9 #";
		struct diag_list dl;
		int rc;

		memcpy(buf, good, len);
		for (unsigned k = 0; k < 8; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[(seed >> 8) % len] = bytes[(seed >> 20) % (sizeof(bytes) - 1)];
		}
		diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
		rc = dbcsv_apply_speeds(t, buf, len, "mut.db_csv", &dl);
		assert_true(rc == 0 || rc == -EINVAL);
		diag_free(&dl);
	}
	topo_free(t);
	free(buf);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_dir),
		cmocka_unit_test(test_reorder_crlf),
		cmocka_unit_test(test_quoted_fields),
		cmocka_unit_test(test_keys_and_na),
		cmocka_unit_test(test_epi_without_speeds),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_partial_and_twice),
		cmocka_unit_test(test_other_fabric),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_no_crash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

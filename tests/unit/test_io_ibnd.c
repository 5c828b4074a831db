// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_io_ibnd.c - the ibnetdiscover reader/writer (routing/io_ibnd.c) and
 * the ibnetdiscover -p reader (routing/io_ibnd_ports.c).
 *
 * Hand-written fixtures live in tests/data/ibnd/ (clean.topo has the
 * fabric drawn at its top); bad-*.topo list their exact diagnostics in
 * "# expect:" lines.  The real third-party dumps come from
 * tests/data/real; their expected counts were derived with grep and
 * awk over the files (see each test), not from this reader.
 */
#include "unit.h"

#include <ffroute/io.h>
#include <ffroute/topo.h>

#define DATA SRCDIR "/tests/data/ibnd/"

/* clean.topo */
#define G_LEAF1 0x0002c90300000001ULL
#define G_LEAF2 0x0002c90300000002ULL
#define G_AN 0x0002c90300000009ULL
#define G_GPU 0x0002c90300001000ULL
#define G_ST 0x0002c90300002000ULL

/* ---- helpers --------------------------------------------------------------- */

static char *load(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), DATA "%s", name);
	return unit_read_file(path, len);
}

static struct topo *read_text(const char *text, size_t len, const char *fname,
			      struct diag_list *dl)
{
	diag_init(dl, 0);
	return ibnd_read(text, len, fname, dl);
}

/* Read tests/data/ibnd/@name; diagnostics name the file by its base name. */
static struct topo *read_data(const char *name, struct diag_list *dl)
{
	size_t len;
	char *buf = load(name, &len);
	struct topo *t = read_text(buf, len, name, dl);

	free(buf);
	return t;
}

static void print_diags(const struct diag_list *dl)
{
	char buf[DIAG_MSG_MAX + 512];

	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		print_message("  diag: %s\n", buf);
	}
}

/* A fabric with no diagnostics at all (@warnings: how many are expected). */
static void assert_clean_read(const struct topo *t, const struct diag_list *dl,
			      unsigned warnings)
{
	if (!t || dl->nerrors || dl->nwarnings != warnings)
		print_diags(dl);
	assert_non_null(t);
	assert_int_equal(dl->nerrors, 0);
	assert_int_equal(dl->nwarnings, warnings);
}

static void assert_same_fabric(const struct topo *a, const struct topo *b)
{
	char why[256] = "";

	if (!topo_equal(a, b, why, sizeof(why)))
		fail_msg("fabrics differ: %s", why);
}

/* The exact list of formatted diagnostics. */
static void assert_diags(const struct diag_list *dl, const char *const *want, unsigned n)
{
	char buf[DIAG_MSG_MAX + 512];

	if (dl->n != n)
		print_diags(dl);
	assert_int_equal(dl->n, n);
	for (unsigned i = 0; i < n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		assert_string_equal(buf, want[i]);
	}
}

static uint32_t node(const struct topo *t, uint64_t guid)
{
	uint32_t n = topo_find_guid(t, guid);

	assert_int_not_equal(n, TOPO_NONE);
	return n;
}

/* Assert that port @pn of @guid is cabled to port @ppn of @peer. */
static void assert_link(const struct topo *t, uint64_t guid, unsigned pn, uint64_t peer,
			unsigned ppn)
{
	uint32_t p = topo_port(t, node(t, guid), pn), r = t->port_remote[p];

	assert_int_not_equal(r, TOPO_NONE);
	assert_int_equal(t->node_guid[t->port_node[r]], peer);
	assert_int_equal(topo_port_num(t, r), ppn);
	assert_int_equal(t->port_remote[r], p);
}

static void assert_rate(const struct topo *t, uint64_t guid, unsigned pn, unsigned width,
			unsigned speed)
{
	uint32_t p = topo_port(t, node(t, guid), pn);

	assert_int_equal(t->port_width[p], width);
	assert_int_equal(t->port_speed[p], speed);
}

static unsigned count_loopbacks(const struct topo *t)
{
	unsigned n = 0;

	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p];

		if (r != TOPO_NONE && r > p && t->port_node[r] == t->port_node[p])
			n++;
	}
	return n;
}

static unsigned count_sw_sw_links(const struct topo *t)
{
	unsigned n = 0;

	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p];

		if (r != TOPO_NONE && r > p && topo_is_switch(t, t->port_node[p]) &&
		    topo_is_switch(t, t->port_node[r]))
			n++;
	}
	return n;
}

/* topo_write_ibnd() into a malloc'd string. */
static char *write_string(const struct topo *t, size_t *len)
{
	FILE *fp = tmpfile();
	char *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(topo_write_ibnd(t, fp), 0);
	n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Replace every @from by @to (to may be "" or two characters long). */
static char *replace_all(const char *s, char from, const char *to, size_t *len)
{
	size_t n = strlen(s), k = strlen(to), o = 0;
	char *out = malloc(n * (k ? k : 1) + 1);

	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] != from) {
			out[o++] = s[i];
			continue;
		}
		memcpy(out + o, to, k);
		o += k;
	}
	out[o] = '\0';
	*len = o;
	return out;
}

static void roundtrip(const struct topo *t);

/* ---- the clean fabric -------------------------------------------------------- */

static void test_clean(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t n, p;

	(void)state;
	t = read_data("clean.topo", &dl);
	assert_clean_read(t, &dl, 0);
	assert_int_equal(t->nnodes, 5);
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->ncas, 3);
	assert_int_equal(t->nrouters, 0);
	assert_int_equal(t->nlinks, 7);

	/* leaf1: attributes, name, LID on port 0, port-0 GUID */
	n = node(t, G_LEAF1);
	assert_int_equal(t->node_type[n], TOPO_NODE_SWITCH);
	assert_int_equal(t->node_nports[n], 8);
	assert_int_equal(t->node_vendor[n], 0x2c9);
	assert_int_equal(t->node_devid[n], 0xd2f0);
	assert_int_equal(t->node_sysguid[n], G_LEAF1);
	assert_string_equal(t->node_desc[n], "MF0;leaf1:MQM8700/U1");
	assert_string_equal(t->node_name[n], "S-0002c90300000001");
	assert_int_equal(t->port_lid[topo_port(t, n, 0)], 1);
	assert_int_equal(t->port_guid[topo_port(t, n, 0)], G_LEAF1);
	n = node(t, G_LEAF2);
	assert_int_equal(t->node_vendor[n], 0x8f1);
	assert_int_equal(t->node_devid[n], 0x5a5a);
	assert_int_equal(topo_node_lid(t, n), 2);

	/* the dual-port CA: port GUIDs, LIDs, LMC */
	n = node(t, G_ST);
	assert_int_equal(t->node_type[n], TOPO_NODE_CA);
	assert_int_equal(t->node_nports[n], 2);
	assert_int_equal(t->node_devid[n], 0x101b);
	p = topo_port(t, n, 1);
	assert_int_equal(t->port_guid[p], 0x2c90300002001ULL);
	assert_int_equal(t->port_lid[p], 20);
	assert_int_equal(t->port_lmc[p], 1);
	assert_int_equal(t->port_guid[topo_port(t, n, 2)], 0x2c90300002002ULL);
	assert_int_equal(t->port_lid[topo_port(t, n, 2)], 22);
	assert_int_equal(topo_find_port_guid(t, 0x2c90300002002ULL), topo_port(t, n, 2));
	assert_int_equal(topo_lid_node(t, 21), n);	/* LMC 1: 20..21 */
	assert_int_equal(topo_lid_node(t, 10), node(t, G_GPU));
	assert_int_equal(topo_lid_node(t, 3), node(t, G_AN));
	assert_int_equal(topo_find_lid(t, 2), topo_port(t, node(t, G_LEAF2), 0));
	assert_int_equal(t->max_lid, 22);

	/* every link, both ways, with its width and speed */
	assert_link(t, G_LEAF1, 1, G_GPU, 1);
	assert_link(t, G_LEAF1, 2, G_ST, 1);
	assert_link(t, G_LEAF2, 1, G_ST, 2);
	assert_link(t, G_LEAF1, 8, G_AN, 1);
	assert_rate(t, G_LEAF1, 1, 4, TOPO_SPEED_HDR);
	assert_rate(t, G_GPU, 1, 4, TOPO_SPEED_HDR);
	assert_rate(t, G_LEAF1, 2, 2, TOPO_SPEED_NDR);
	assert_rate(t, G_ST, 1, 2, TOPO_SPEED_NDR);
	assert_rate(t, G_ST, 2, 4, TOPO_SPEED_FDR10);
	assert_rate(t, G_LEAF2, 7, 4, TOPO_SPEED_EDR);
	assert_int_equal(t->port_remote[topo_port(t, node(t, G_LEAF1), 3)], TOPO_NONE);
	topo_free(t);
	diag_free(&dl);
}

static void test_hash_and_spaces_in_desc(void **state)
{
	struct diag_list dl;
	struct topo *t;

	(void)state;
	t = read_data("clean.topo", &dl);
	assert_clean_read(t, &dl, 0);
	assert_string_equal(t->node_desc[node(t, G_LEAF2)], "Voltaire 4036 # v4036");
	assert_string_equal(t->node_desc[node(t, G_ST)], "st01 mlx5_1 ");
	topo_free(t);
	diag_free(&dl);
}

static void test_sharp_an(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t an, leaf;

	(void)state;
	t = read_data("clean.topo", &dl);
	assert_clean_read(t, &dl, 0);
	an = node(t, G_AN);
	leaf = node(t, G_LEAF1);
	assert_true(topo_is_sharp_an(t, an));
	assert_false(topo_is_sharp_an(t, node(t, G_GPU)));
	assert_int_equal(t->node_sysguid[an], G_LEAF1);	/* shares the switch's system */
	assert_int_equal(t->node_devid[an], 0xcf09);
	/* on the last switch port */
	assert_link(t, G_LEAF1, t->node_nports[leaf], G_AN, 1);
	topo_free(t);
	diag_free(&dl);
}

static void test_parallel_and_loopback(void **state)
{
	struct diag_list dl;
	struct topo *t;

	(void)state;
	t = read_data("clean.topo", &dl);
	assert_clean_read(t, &dl, 0);
	assert_link(t, G_LEAF1, 5, G_LEAF2, 5);
	assert_link(t, G_LEAF1, 6, G_LEAF2, 6);
	assert_link(t, G_LEAF2, 7, G_LEAF2, 8);
	assert_int_equal(count_loopbacks(t), 1);
	assert_int_equal(count_sw_sw_links(t), 3);
	topo_free(t);
	diag_free(&dl);
}

/* ---- variants of the same fabric --------------------------------------------- */

static void test_grouping_output(void **state)
{
	struct diag_list dl, dl2;
	struct topo *a, *b;

	(void)state;
	a = read_data("clean.topo", &dl);
	b = read_data("clean-g.topo", &dl2);
	assert_clean_read(a, &dl, 0);
	assert_clean_read(b, &dl2, 0);
	assert_same_fabric(a, b);
	assert_int_equal(b->node_vendor[node(b, G_LEAF2)], 0x8f1);
	topo_free(a);
	topo_free(b);
	diag_free(&dl);
	diag_free(&dl2);
}

static void check_variant(const struct topo *clean, const char *text, size_t len,
			  unsigned warnings)
{
	struct diag_list dl;
	struct topo *t = read_text(text, len, "variant.topo", &dl);

	assert_clean_read(t, &dl, warnings);
	assert_same_fabric(clean, t);
	topo_free(t);
	diag_free(&dl);
}

static void test_damaged_variants(void **state)
{
	static const char banner[] = "ibwarn: [1234] _do_madrpc: recv failed: Connection timed out\n";
	struct diag_list dl;
	struct topo *clean, *t;
	size_t len, vlen;
	char *text, *v;

	(void)state;
	text = load("clean.topo", &len);
	clean = read_text(text, len, "clean.topo", &dl);
	assert_clean_read(clean, &dl, 0);
	diag_free(&dl);

	v = replace_all(text, '\n', "\r\n", &vlen);	/* CRLF */
	check_variant(clean, v, vlen, 0);
	free(v);
	v = replace_all(text, '\n', "\r", &vlen);	/* bare CR */
	check_variant(clean, v, vlen, 0);
	free(v);
	v = replace_all(text, '\t', "", &vlen);		/* tabs lost: Switch8 "S-.."# */
	assert_non_null(strstr(v, "Switch8 \"S-0002c90300000001\"# \"MF0;leaf1"));
	check_variant(clean, v, vlen, 0);
	free(v);
	v = replace_all(text, '\t', " ", &vlen);	/* tabs turned into spaces */
	check_variant(clean, v, vlen, 0);
	free(v);
	v = malloc(sizeof(banner) + len);		/* a banner line first */
	assert_non_null(v);
	memcpy(v, banner, sizeof(banner) - 1);
	memcpy(v + sizeof(banner) - 1, text, len + 1);
	check_variant(clean, v, sizeof(banner) - 1 + len, 1);
	free(v);

	/* the on-disk mix: two stray lines, lost tabs, spaces */
	t = read_data("damaged.topo", &dl);
	assert_clean_read(t, &dl, 2);
	unit_expect_diag(&dl, "damaged.topo:1:1: warning: ignoring text before the first node record");
	unit_expect_diag(&dl, "damaged.topo:2:1: warning: ignoring text before the first node record");
	assert_same_fabric(clean, t);
	topo_free(t);
	diag_free(&dl);
	topo_free(clean);
	free(text);
}

static void test_lid_unassigned_and_extras(void **state)
{
	static const char text[] =
		"switchguid=0x10(10)\n"
		"Switch\t4 \"S-0000000000000010\"\t\t# \"sw\" enhanced port 0 lid 65535 lmc 0\n"
		"[1]\t\"H-0000000000000020\"[1](21) \t\t# \"ca\" lid 65535 4xGDR\n"
		"[2]\t\"H-0000000000000020\"[2](22) \t\t# \"ca\" lid 7 4x???\n"
		"[3]\t\"H-0000000000000030\"[1](31) \t\t# \"x\" lid 8 ??SDR s=1 w=2 v=3\n"
		"[4]\t\"R-0000000000000040\"[1](41) \t\t# \"rtr\" lid 9 4xHDR\n"
		"\n"
		"Ca\t2 \"H-0000000000000020\"\t\t# \"ca\" (scp)\n"
		"[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 65535 lmc 0 \"sw\" lid 65535 4xGDR\n"
		"[2](22) \t\"S-0000000000000010\"[2]\t\t# lid 7 lmc 0 \"sw\" lid 65535 4x???\n"
		"\n"
		"Ca\t1 \"H-0000000000000030\"\n"
		"[1](31) \"S-0000000000000010\"[3]\n"
		"\n"
		"rtguid=0x40\n"
		"Rt\t1 \"R-0000000000000040\"\t\t# \"rtr\"\n"
		"[1](41) \t\"S-0000000000000010\"[4]\t\t# lid 9 lmc 0 \"sw\" lid 65535 4xHDR\n";
	struct diag_list dl;
	struct topo *t;
	uint32_t sw, ca;

	(void)state;
	t = read_text(text, sizeof(text) - 1, "x.topo", &dl);
	assert_clean_read(t, &dl, 2);
	unit_expect_diag(&dl, "x.topo:3:54: warning: unknown link speed \"GDR\"");
	unit_expect_diag(&dl, "x.topo:9:70: warning: unknown link speed \"GDR\"");
	sw = node(t, 0x10);
	ca = node(t, 0x20);
	assert_int_equal(t->port_lid[topo_port(t, sw, 0)], 0);
	assert_int_equal(t->port_lid[topo_port(t, ca, 1)], 0);
	assert_int_equal(t->port_lid[topo_port(t, ca, 2)], 7);
	assert_int_equal(t->max_lid, 9);
	assert_int_equal(t->nrouters, 1);
	assert_int_equal(t->node_type[node(t, 0x40)], TOPO_NODE_ROUTER);
	assert_int_equal(topo_lid_node(t, 9), node(t, 0x40));
	assert_int_equal(t->port_guid[topo_port(t, node(t, 0x40), 1)], 0x41);
	assert_rate(t, 0x20, 1, 4, TOPO_SPEED_UNKNOWN);
	assert_rate(t, 0x20, 2, 4, TOPO_SPEED_UNKNOWN);
	assert_rate(t, 0x10, 3, 0, TOPO_SPEED_SDR);
	/* no comment at all: no description, no LID, width/speed unknown */
	assert_string_equal(t->node_desc[node(t, 0x30)], "");
	assert_rate(t, 0x30, 1, 0, TOPO_SPEED_SDR);	/* from the switch's end */
	assert_int_equal(t->nlinks, 4);
	roundtrip(t);
	topo_free(t);
	diag_free(&dl);
}

/* ---- writer ---------------------------------------------------------------------- */

static void roundtrip(const struct topo *t)
{
	struct diag_list dl;
	struct topo *back;
	size_t len, len2;
	char *text, *text2;

	text = write_string(t, &len);
	back = read_text(text, len, "written.topo", &dl);
	assert_clean_read(back, &dl, 0);
	assert_same_fabric(t, back);
	text2 = write_string(back, &len2);	/* deterministic and stable */
	assert_int_equal(len, len2);
	assert_memory_equal(text, text2, len);
	topo_free(back);
	diag_free(&dl);
	free(text);
	free(text2);
}

static void test_write_roundtrip(void **state)
{
	struct diag_list dl;
	struct topo *t;
	size_t len;
	char *text;

	(void)state;
	t = read_data("clean.topo", &dl);
	assert_clean_read(t, &dl, 0);
	roundtrip(t);
	/* the format: switches first, the fields ibnetdiscover prints */
	text = write_string(t, &len);
	assert_non_null(strstr(text, "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x2c90300000001\n"
				     "switchguid=0x2c90300000001(2c90300000001)\n"
				     "Switch\t8 \"S-0002c90300000001\"\t\t# \"MF0;leaf1:MQM8700/U1\" "
				     "enhanced port 0 lid 1 lmc 0\n"
				     "[1]\t\"H-0002c90300001000\"[1](2c90300001001) \t\t# "
				     "\"gpu01 mlx5_0\" lid 10 4xHDR\n"));
	assert_non_null(strstr(text, "\ncaguid=0x2c90300002000\nCa\t2 \"H-0002c90300002000\"\t\t# "
				     "\"st01 mlx5_1 \"\n[1](2c90300002001) \t\"S-0002c90300000001\"[2]"
				     "\t\t# lid 20 lmc 1 \"MF0;leaf1:MQM8700/U1\" lid 1 2xNDR\n"));
	assert_true(strstr(text, "Switch\t8 \"S-0002c90300000002\"") < strstr(text, "\nCa\t"));
	free(text);
	topo_free(t);
	diag_free(&dl);

	t = read_data("clean-g.topo", &dl);
	assert_clean_read(t, &dl, 0);
	roundtrip(t);
	topo_free(t);
	diag_free(&dl);
}

static void test_write_eio(void **state)
{
	struct diag_list dl;
	struct topo *t;
	FILE *fp;

	(void)state;
	fp = fopen("/dev/full", "w");
	if (!fp)
		skip();
	t = read_data("clean.topo", &dl);
	assert_non_null(t);
	assert_int_equal(topo_write_ibnd(t, fp), -EIO);
	fclose(fp);
	topo_free(t);
	diag_free(&dl);
}

/* ---- broken input ------------------------------------------------------------------ */

static const char *const bad_files[] = {
	"bad-port-range.topo", "bad-lid.topo", "bad-lmc.topo", "bad-quote.topo",
	"bad-record.topo", "bad-outside.topo", "bad-guid.topo", "bad-nports.topo",
	"bad-width.topo", "bad-peer.topo", "bad-dup-lid.topo", "bad-truncated.topo",
	"bad-vendid.topo", "bad-conflict.topo", "bad-many.topo",
};

/* Each bad-*.topo ends with the exact diagnostics it must give, in order. */
static void test_bad_files(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		char *want[16];
		struct diag_list dl;
		struct topo *t;
		unsigned n = 0;
		size_t len;
		char *text = load(bad_files[i], &len);
		const char *p = text;

		while ((p = strstr(p, "# expect: ")) != NULL) {
			size_t k;

			p += strlen("# expect: ");
			k = strcspn(p, "\n");
			assert_true(n < 16);
			want[n] = malloc(k + 1);
			assert_non_null(want[n]);
			memcpy(want[n], p, k);
			want[n++][k] = '\0';
			p += k;
		}
		assert_true(n > 0);
		print_message("  %s\n", bad_files[i]);
		t = read_text(text, len, bad_files[i], &dl);
		assert_null(t);
		assert_int_equal(errno, EINVAL);
		assert_diags(&dl, (const char *const *)want, n);
		diag_free(&dl);
		free(text);
		while (n)
			free(want[--n]);
	}
}

static void expect_diags(const char *text, const char *const *want, unsigned n)
{
	struct diag_list dl;
	struct topo *t = read_text(text, strlen(text), "in.topo", &dl);

	assert_null(t);
	assert_diags(&dl, want, n);
	diag_free(&dl);
}

static void expect_one(const char *text, const char *diag)
{
	expect_diags(text, &diag, 1);
}

static void test_bad_inline(void **state)
{
	static const char nul[] = "switchguid=0x10(10)\nSwi\0tch\n";
	static const char *const banner_only[] = {
		"in.topo:1:1: warning: ignoring text before the first node record",
		"in.topo: error: no node records found",
	};
	struct diag_list dl;
	struct topo *t;
	size_t len;
	char *text;

	(void)state;
	expect_one("", "in.topo: error: no node records found");
	expect_diags("ibwarn: nothing found\n", banner_only, 2);
	expect_one("caguid=0x20\nSwitch 2 \"S-0000000000000020\" # \"s\"\n",
		   "in.topo:2:1: error: caguid= (line 1) does not belong to a Switch record");
	expect_one("caguid=0x20\nCa 2 \"H-0000000000000021\" # \"h\"\n",
		   "in.topo:2:6: error: node id \"H-0000000000000021\" does not match "
		   "caguid=0x20 (line 1)");
	expect_one("Ca 2 \"host1\" # \"h\"\n",
		   "in.topo:1:6: error: no node GUID: no caguid= line and the id is not H-<GUID>");
	expect_one("devid=0x1\ndevid=0x2\nCa 1 \"H-1\"\n",
		   "in.topo:2:1: error: device ID given twice with no node header between "
		   "(line 1)");
	expect_one("Ca 1 \"H-1\" # \"h\" lid 3\n",
		   "in.topo:1:18: error: unexpected text after the description");
	expect_one("Switch 2 \"S-1\" # \"s\" enhanced port 0 lid 3 lmc 0 x\n",
		   "in.topo:1:50: error: unexpected text after the LMC");
	expect_one("Switch 2 \"S-1\" # \"s\" enhanced port 0 lid 3 lmc 0\n[1]\n",
		   "in.topo:2:4: error: expected a quoted node id");
	expect_one("Switch 2 \"S-0\" # \"s\"\n", "in.topo:1:1: error: node GUID is 0");
	expect_one("Switch 2 \"S-1\" # \"s\"\n[0] \"S-1\"[1]\n",
		   "in.topo:2:2: error: port 0 out of range (switch has 2)");
	expect_one("Switch 2 \"S-1\" # \"s\"\n[99999999999] \"S-1\"[1]\n",
		   "in.topo:2:2: error: port number too large (max 4294967295)");
	expect_one("Switch 2 \"S-1\" # \"s\"\n[1] \"S-1\"[1]\n",
		   "in.topo:2:5: error: port 1 is cabled to itself");
	expect_one("vendid=0x2c9 x\nCa 1 \"H-1\"\n",
		   "in.topo:1:14: error: unexpected text after the vendor ID");

	/* binary data stops the reader */
	t = read_text(nul, sizeof(nul) - 1, "bin.topo", &dl);
	assert_null(t);
	unit_expect_diag(&dl, "bin.topo:2:4: error: binary data (NUL byte): not a text dump");
	diag_free(&dl);

	/* the reader stops at the error limit */
	text = load("bad-many.topo", &len);
	diag_init(&dl, 2);
	t = ibnd_read(text, len, "bad-many.topo", &dl);
	assert_null(t);
	assert_int_equal(dl.nerrors, 2);
	assert_true(diag_full(&dl));
	diag_free(&dl);
	free(text);
}

/* Truncations and byte mutations of valid input: a fabric or a diagnosed error. */
static void test_no_crash_on_damage(void **state)
{
	static const char junk[] = "\"#[]()x0 \t\n\r?-'9";
	const char *names[] = { "clean.topo", "clean-g.topo", "ports.txt" };
	uint64_t rng = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (unsigned f = 0; f < 3; f++) {
		size_t len;
		char *text = load(names[f], &len);
		char *copy = malloc(len + 1);

		assert_non_null(copy);
		for (size_t cut = 0; cut <= len; cut += 7) {
			char *part = malloc(cut ? cut : 1);	/* exact size, for ASan */
			struct diag_list dl;
			struct topo *t;

			assert_non_null(part);
			memcpy(part, text, cut);
			diag_init(&dl, 0);
			t = f < 2 ? ibnd_read(part, cut, "cut", &dl)
				  : ibnd_ports_read(part, cut, "cut", &dl);
			assert_true(t != NULL || dl.nerrors > 0);
			topo_free(t);
			diag_free(&dl);
			free(part);
		}
		for (unsigned i = 0; i < 2000; i++) {
			struct diag_list dl;
			struct topo *t;

			memcpy(copy, text, len + 1);
			for (unsigned k = 0; k < 4; k++) {
				rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
				copy[(rng >> 33) % len] = junk[(rng >> 20) % (sizeof(junk) - 1)];
			}
			diag_init(&dl, 0);
			t = f < 2 ? ibnd_read(copy, len, "mut", &dl)
				  : ibnd_ports_read(copy, len, "mut", &dl);
			assert_true(t != NULL || dl.nerrors > 0);
			topo_free(t);
			diag_free(&dl);
		}
		free(copy);
		free(text);
	}
}

/* ---- real third-party dumps ----------------------------------------------------------- */

struct real_case {
	const char *name;
	unsigned switches, cas, links, sw_sw, loopbacks, sharp, warnings;
};

/*
 * Expected counts, derived with grep/awk over the files:
 *  switches = grep -c '^Switch', CAs = grep -c '^Ca';
 *  links = number of distinct unordered {id:port, peer:port} pairs over all
 *  "[p] ... "peer"[pp]" lines (awk; every pair was seen exactly twice);
 *  sw_sw = port lines of Switch records naming an "S-" peer, / 2;
 *  loopbacks = pairs whose two ends are the same id;
 *  sharp = grep -c '^Ca.*Aggregation Node'.
 * ibtopotool__3.topo starts with one stray error line (one warning).
 */
static const struct real_case real_cases[] = {
	{ "ufm_sdk_3.0__selene.storage.txt", 160, 1247, 3286, 2039, 0, 0, 0 },
	{ "ufm_sdk_3.0__small_topo_file", 2, 13, 16, 3, 2, 1, 0 },
	{ "ibtopotool__3.topo", 2, 6, 10, 4, 3, 0, 1 },
};

static void test_real_fixtures(void **state)
{
	unsigned found = 0;

	(void)state;
	for (unsigned i = 0; i < sizeof(real_cases) / sizeof(real_cases[0]); i++) {
		const struct real_case *rc = &real_cases[i];
		const char *path = unit_real_fixture(rc->name);
		struct diag_list dl;
		unsigned sharp = 0;
		struct topo *t;
		size_t len;
		char *text;

		if (!path)
			continue;
		found++;
		print_message("  %s\n", rc->name);
		text = unit_read_file(path, &len);
		t = read_text(text, len, rc->name, &dl);
		assert_clean_read(t, &dl, rc->warnings);
		assert_int_equal(t->nswitches, rc->switches);
		assert_int_equal(t->ncas, rc->cas);
		assert_int_equal(t->nlinks, rc->links);
		assert_int_equal(count_sw_sw_links(t), rc->sw_sw);
		assert_int_equal(count_loopbacks(t), rc->loopbacks);
		for (uint32_t n = 0; n < t->nnodes; n++)
			sharp += topo_is_sharp_an(t, n);
		assert_int_equal(sharp, rc->sharp);
		roundtrip(t);
		topo_free(t);
		diag_free(&dl);
		free(text);
	}
	if (!found)
		skip();
}

/* Spot checks of single records, read off the files by eye. */
static void test_real_details(void **state)
{
	const char *path = unit_real_fixture("ufm_sdk_3.0__selene.storage.txt");
	struct diag_list dl;
	struct topo *t;
	size_t len;
	char *text;
	uint32_t n;

	(void)state;
	if (!path)
		skip();
	text = unit_read_file(path, &len);
	t = read_text(text, len, "selene", &dl);
	assert_clean_read(t, &dl, 0);
	/* Switch 41 "S-0c42a103009d6eb6" # "MF0;SLG04-16:MQM8700/U1" ... lid 1380 */
	n = node(t, 0x0c42a103009d6eb6ULL);
	assert_int_equal(t->node_nports[n], 41);
	assert_string_equal(t->node_desc[n], "MF0;SLG04-16:MQM8700/U1");
	assert_int_equal(topo_node_lid(t, n), 1380);
	assert_int_equal(t->node_devid[n], 0xd2f0);
	/* [1] "H-0c42a10300595394"[1](c42a10300595394) # "ai400x-157 HCA-1" lid 1351 4xEDR */
	assert_link(t, 0x0c42a103009d6eb6ULL, 1, 0x0c42a10300595394ULL, 1);
	assert_rate(t, 0x0c42a103009d6eb6ULL, 1, 4, TOPO_SPEED_EDR);
	assert_int_equal(topo_lid_node(t, 1351), node(t, 0x0c42a10300595394ULL));
	/* a trailing space kept: Ca 1 "H-0c42a10300751b3f" # "selene-cache-04 mlx5_2 " */
	assert_string_equal(t->node_desc[node(t, 0x0c42a10300751b3fULL)],
			    "selene-cache-04 mlx5_2 ");
	assert_string_equal(t->node_desc[node(t, 0x0c42a10300303df7ULL)],
			    "MT4123 ConnectX6   Mellanox Technologies");
	topo_free(t);
	diag_free(&dl);
	free(text);
}

/* ---- ibnetdiscover -p ------------------------------------------------------------------- */

static struct topo *read_ports(const char *text, size_t len, const char *fname,
			       struct diag_list *dl)
{
	diag_init(dl, 0);
	return ibnd_ports_read(text, len, fname, dl);
}

static void test_ports_small(void **state)
{
	struct diag_list dl;
	struct topo *t;
	uint32_t n;
	size_t len;
	char *text;

	(void)state;
	text = load("ports.txt", &len);
	t = read_ports(text, len, "ports.txt", &dl);
	assert_clean_read(t, &dl, 0);
	assert_int_equal(t->nswitches, 2);
	assert_int_equal(t->ncas, 4);	/* st01's two ports are two nodes */
	assert_int_equal(t->nlinks, 5);
	n = node(t, G_LEAF1);
	assert_int_equal(t->node_nports[n], 8);
	assert_string_equal(t->node_desc[n], "leaf1");
	assert_int_equal(topo_node_lid(t, n), 1);
	n = node(t, G_LEAF2);		/* known only as a peer */
	assert_int_equal(t->node_nports[n], 7);
	assert_string_equal(t->node_desc[n], "spine1");
	assert_int_equal(topo_node_lid(t, n), 2);
	assert_link(t, G_LEAF1, 6, G_LEAF2, 6);
	assert_link(t, G_LEAF1, 7, G_LEAF2, 7);
	/* CA: node GUID = port GUID, the port at its own number */
	n = node(t, 0x0002c90300002002ULL);
	assert_int_equal(t->node_type[n], TOPO_NODE_CA);
	assert_int_equal(t->node_nports[n], 2);
	assert_int_equal(t->port_guid[topo_port(t, n, 2)], 0x0002c90300002002ULL);
	assert_int_equal(t->port_lid[topo_port(t, n, 2)], 21);
	assert_string_equal(t->node_desc[n], "st01 mlx5_1");
	assert_link(t, G_LEAF1, 1, 0x0002c90300002002ULL, 2);
	assert_rate(t, G_LEAF1, 1, 4, TOPO_SPEED_FDR10);
	assert_rate(t, G_LEAF1, 2, 2, TOPO_SPEED_NDR);
	/* unconnected: no link, no width/speed; a quote inside the description */
	assert_int_equal(t->port_remote[topo_port(t, node(t, G_LEAF1), 3)], TOPO_NONE);
	assert_rate(t, G_LEAF1, 3, 0, TOPO_SPEED_UNKNOWN);
	n = node(t, 0x0002c90300003001ULL);
	assert_string_equal(t->node_desc[n], "bob's node");
	assert_int_equal(t->port_lid[topo_port(t, n, 1)], 0);	/* LID 65535 */
	/* no roundtrip(): ibnetdiscover output cannot hold an unconnected CA port */
	topo_free(t);
	diag_free(&dl);
	free(text);
}

static void expect_ports_error(const char *text, const char *diag)
{
	struct diag_list dl;
	struct topo *t = read_ports(text, strlen(text), "p.txt", &dl);

	assert_null(t);
	assert_diags(&dl, &diag, 1);
	diag_free(&dl);
}

static void test_ports_bad(void **state)
{
	(void)state;
	expect_ports_error("", "p.txt: error: no port lines found");
	expect_ports_error("SW 1 2 0x10 5x EDR 'a'\n",
			   "p.txt:1:13: error: expected a link width (1x, 2x, 4x, 8x or 12x)");
	expect_ports_error("SW 1 255 0x10 4x EDR 'a'\n",
			   "p.txt:1:6: error: port 255 out of range (1..254)");
	expect_ports_error("SW 70000 2 0x10 4x EDR 'a'\n",
			   "p.txt:1:4: error: LID too large (max 65535)");
	expect_ports_error("SW 1 2 0x10 4x EDR 'a'\nXX 1 2 0x10 4x EDR 'a'\n"
			   "SW 1 3 0x10 4x EDR 'a'\n",
			   "p.txt:2:1: error: expected CA, SW or RT");
	expect_ports_error("SW 1 2 0x10 4x EDR - CA 3 1 0x20 'a' - 'b'\n",
			   "p.txt:1:34: error: expected '('");
	expect_ports_error("SW 1 2 0x10 4x EDR - CA 3 1 0x20 ( 'a' 'b' )\n",
			   "p.txt:1:36: error: expected 'desc' - 'peer desc'");
	expect_ports_error("SW 1 2 0x10 4x EDR 'a\n", "p.txt:1:20: error: missing closing quote");
	expect_ports_error("SW 1 2 0x10 4x EDR - CA 3 1 0x20 ( 'a' - 'b' )\n"
			   "CA 3 1 0x10 4x EDR 'c'\n",
			   "p.txt:2:1: error: GUID 0x0000000000000010 is a CA here but a switch on "
			   "line 1");
	expect_ports_error("SW 1 2 0x10 4x EDR 'a'\nSW 2 3 0x10 4x EDR 'a'\n",
			   "p.txt:2:1: error: switch 0x0000000000000010 has LID 2 here but LID 1 on "
			   "line 1");
	expect_ports_error("CA 3 1 0x20 4x EDR 'a'\nCA 3 2 0x20 4x EDR 'a'\n",
			   "p.txt:2:1: error: port GUID 0x0000000000000020 is port 2 here but port 1 "
			   "on line 1");
	expect_ports_error("SW 1 2 0x10 4x EDR - SW 1 3 0x10 ( 'a' - 'a' )\n"
			   "SW 1 2 0x10 4x EDR - SW 1 4 0x10 ( 'a' - 'a' )\n",
			   "p.txt:2:22: error: port 2 of \"a\" is already cabled to port 3 of \"a\" "
			   "(line 1)");
}

static void test_ports_real(void **state)
{
	const char *path = unit_real_fixture("infiniband_exporter__ibnetdiscover-p_test.out");
	struct diag_list dl;
	struct topo *t;
	size_t len;
	char *text;
	uint32_t n;

	(void)state;
	if (!path)
		skip();
	/*
	 * By hand over the 9 lines: switch GUIDs ...9ce5b0, ...5c2740, ...b07320
	 * (only as a peer), ...add20e (only an unconnected port) = 4 switches;
	 * CA port GUIDs ...3b4bde, ...3b4b96, ...cc02a6 = 3 CAs; distinct links
	 * 134-1719/10, 133-1719/11, 1432-2052/35, 1719/1-1516/1 = 4.
	 */
	text = unit_read_file(path, &len);
	t = read_ports(text, len, "test.out", &dl);
	assert_clean_read(t, &dl, 0);
	assert_int_equal(t->nswitches, 4);
	assert_int_equal(t->ncas, 3);
	assert_int_equal(t->nlinks, 4);
	assert_int_equal(count_sw_sw_links(t), 1);
	n = node(t, 0x7cfe9003009ce5b0ULL);
	assert_int_equal(t->node_nports[n], 11);
	assert_int_equal(topo_node_lid(t, n), 1719);
	assert_string_equal(t->node_desc[n], "ib-i1l1s01");
	assert_link(t, 0x7cfe9003009ce5b0ULL, 1, 0x7cfe900300b07320ULL, 1);
	assert_link(t, 0x7cfe9003003b4bdeULL, 1, 0x7cfe9003009ce5b0ULL, 10);
	assert_rate(t, 0x7cfe9003003b4bdeULL, 1, 4, TOPO_SPEED_EDR);
	assert_int_equal(t->node_nports[node(t, 0x506b4b03005c2740ULL)], 37);
	assert_int_equal(t->node_nports[node(t, 0x08c0eb0300add20eULL)], 80);
	assert_int_equal(topo_lid_node(t, 1516), node(t, 0x7cfe900300b07320ULL));
	roundtrip(t);
	topo_free(t);
	diag_free(&dl);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_hash_and_spaces_in_desc),
		cmocka_unit_test(test_sharp_an),
		cmocka_unit_test(test_parallel_and_loopback),
		cmocka_unit_test(test_grouping_output),
		cmocka_unit_test(test_damaged_variants),
		cmocka_unit_test(test_lid_unassigned_and_extras),
		cmocka_unit_test(test_write_roundtrip),
		cmocka_unit_test(test_write_eio),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_inline),
		cmocka_unit_test(test_no_crash_on_damage),
		cmocka_unit_test(test_real_fixtures),
		cmocka_unit_test(test_real_details),
		cmocka_unit_test(test_ports_small),
		cmocka_unit_test(test_ports_bad),
		cmocka_unit_test(test_ports_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_io_lft.c - forwarding-table dumps (routing/io_lftdump.c readers and
 * routing/io_lftwrite.c writers): every format variant, LID remapping by
 * port GUID, write/read round trips, byte-exact OpenSM output, the real
 * ibutils subnet.lst + osm.fdbs pair, and broken inputs.
 *
 * Run with arguments it is a small converter used by the integration test
 * when the ffroute CLI is not built:
 *   test_io_lft convert TOPO.lst LFTFILE opensm-lfts|ibroute OUT
 */
#include "unit.h"

#include <unistd.h>

#include <ffroute/io.h>

#define DATA SRCDIR "/tests/data"

struct fab {
	struct diag_list dl;
	struct topo *t;
};

static void fab_load(struct fab *f, const char *lst)
{
	diag_init(&f->dl, 0);
	f->t = topo_read_file(lst, FFR_FMT_LST, &f->dl);
	if (!f->t)
		diag_print(&f->dl, stderr);
	assert_non_null(f->t);
}

static void fab_free(struct fab *f)
{
	topo_free(f->t);
	diag_free(&f->dl);
}

static struct lft *load_lft(struct fab *f, const char *path, enum ffr_format fmt)
{
	struct lft *l = lft_read_file(path, fmt, f->t, &f->dl);

	if (!l)
		diag_print(&f->dl, stderr);
	assert_non_null(l);
	return l;
}

static void assert_lft_equal(const struct lft *a, const struct lft *b)
{
	assert_int_equal(a->nsw, b->nsw);
	assert_int_equal(a->nlids, b->nlids);
	assert_memory_equal(a->have, b->have, a->nsw);
	assert_memory_equal(a->port, b->port, (size_t)a->nsw * a->nlids);
}

static uint32_t sw_of(const struct topo *t, uint64_t guid)
{
	uint32_t n = topo_find_guid(t, guid);

	assert_int_not_equal(n, TOPO_NONE);
	return t->node_sw[n];
}

/* Write @l with @fn into a memory buffer (caller frees). */
static char *write_mem(int (*fn)(const struct topo *, const struct lft *, FILE *),
		       const struct topo *t, const struct lft *l, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(fn(t, l, fp), 0);
	fclose(fp);
	return buf;
}

#define LST3 DATA "/lft/3sw.lst"
#define SW_LEAF1 0x0002c90000000201ULL
#define SW_LEAF2 0x0002c90000010200ULL
#define SW_SPINE 0x0002c90000000200ULL

/* The same OpenSM run read from its five dumps gives one table. */
static void test_variants_agree(void **state)
{
	static const struct {
		const char *file;
		enum ffr_format fmt;
	} v[] = {
		{ DATA "/lft/3sw.fdbs", FFR_FMT_FDBS },		/* opensm.fdbs */
		{ DATA "/lft/3sw-v1.fdbs", FFR_FMT_FDBS },	/* v1 prefix */
		{ DATA "/lft/3sw-v2.fdbs", FFR_FMT_FDBS },	/* PLFT_NUM, lower case */
		{ DATA "/lft/3sw.dump_lfts", FFR_FMT_IBROUTE },	/* DR-path headers */
		{ DATA "/lft/3sw.ibroute", FFR_FMT_IBROUTE },	/* "Lid N" headers */
		{ DATA "/lft/3sw.dump_lfts", FFR_FMT_AUTO },
		{ DATA "/lft/3sw-v2.fdbs", FFR_FMT_AUTO },
	};
	struct fab f;
	struct lft *ref;
	uint32_t s1;

	(void)state;
	fab_load(&f, LST3);
	ref = load_lft(&f, DATA "/lft/3sw.lfts", FFR_FMT_OSM_LFTS);
	assert_int_equal(ref->nlids, 10);
	s1 = sw_of(f.t, SW_LEAF1);
	assert_true(ref->have[s1]);
	assert_int_equal(lft_get(ref, s1, 1), 0);
	assert_int_equal(lft_get(ref, s1, 4), 1);
	assert_int_equal(lft_get(ref, s1, 6), 5);
	assert_int_equal(lft_get(ref, s1, 9), 6);
	assert_int_equal(lft_get(ref, s1, 0), LFT_NONE);
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct lft *l = load_lft(&f, v[i].file, v[i].fmt);

		assert_lft_equal(ref, l);
		lft_free(l);
	}
	assert_int_equal(f.dl.nerrors, 0);
	/* the PLFT 1 block was noted once */
	unit_expect_diag(&f.dl, "3sw-v2.fdbs:44:11: warning: private LFT 1 ignored");
	lft_free(ref);
	fab_free(&f);
}

/* Upper-case ibdiagnet v1 LIDs (0x000A) and lower-case ibdiagnet2 LIDs. */
static void test_hex_case(void **state)
{
	static const char up[] =
		"osm_ucast_mgr_dump_ucast_routes: Switch 0x0002C90000000201\n"
		"LID    : Port : Hops : Optimal\n"
		"0x0001 : UNREACHABLE\n0x0009 : 006  : 00   : yes\n"
		"0x000A : UNREACHABLE\n0x000B : 002  : 00   : yes\n\n";
	static const char lo[] =
		"osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90000000201\n"
		"PLFT_NUM: 0\nLID    : Port : Hops : Optimal\n"
		"0x0001 : UNREACHABLE\n0x0009 : 006  : 00   : yes\n"
		"0x000a : UNREACHABLE\n0x000b : 002  : 00   : yes\n";
	struct fab f;
	struct lft *a, *b;
	uint32_t s1;

	(void)state;
	fab_load(&f, LST3);
	a = fdbs_read(up, sizeof(up) - 1, "up.fdbs", f.t, &f.dl);
	b = fdbs_read(lo, sizeof(lo) - 1, "lo.fdbs", f.t, &f.dl);
	assert_non_null(a);
	assert_non_null(b);
	assert_lft_equal(a, b);
	s1 = sw_of(f.t, SW_LEAF1);
	assert_int_equal(a->nlids, 12);	/* sized to the dump's LID 0xB */
	assert_int_equal(lft_get(a, s1, 9), 6);
	assert_int_equal(lft_get(a, s1, 0xB), 2);
	assert_int_equal(lft_get(a, s1, 0xA), LFT_NONE);
	assert_int_equal(lft_get(a, s1, 1), LFT_NONE);
	assert_false(a->have[sw_of(f.t, SW_SPINE)]);
	lft_free(a);
	lft_free(b);
	fab_free(&f);
}

/* Entries that name a port GUID follow that port to its current LID. */
static void test_remap_by_guid(void **state)
{
	static const char osm[] =
		"Unicast lids [0-40] of switch Lid 7 guid 0x0002c90000000201 ('x'):\n"
		"0x0020 002 # Channel Adapter portguid 0x0002c90000100001: 'gpu01 mlx5_0'\n"
		"0x0004 005 # Channel Adapter portguid 0x0002c90000100007: 'gpu03 mlx5_0'\n"
		"0x0021 006 # unknown node and type\n"
		"40 lids dumped\n";
	static const char ibr[] =
		"Unicast lids [0x0-0x30] of switch DR path slid 0; dlid 0; 0 guid "
		"0x0002c90000000201 (x):\n  Lid  Out   Destination\n       Port     Info \n"
		"0x0030 002 : (Channel Adapter portguid 0x0002c90000100001: 'gpu01 mlx5_0')\n"
		"1 valid lids dumped \n";
	struct fab f;
	struct lft *l;
	uint32_t s1;

	(void)state;
	fab_load(&f, LST3);
	s1 = sw_of(f.t, SW_LEAF1);
	l = osm_lfts_read(osm, sizeof(osm) - 1, "remap.lfts", f.t, &f.dl);
	assert_non_null(l);
	/* gpu01 (port ...01) has LID 4 and gpu03 (...07) LID 6 in 3sw.lst */
	assert_int_equal(lft_get(l, s1, 4), 2);
	assert_int_equal(lft_get(l, s1, 6), 5);
	assert_int_equal(lft_get(l, s1, 0x20), LFT_NONE);
	assert_int_equal(lft_get(l, s1, 0x21), 6);	/* no GUID: kept as is */
	unit_expect_diag(&f.dl, "remap.lfts:2:1: note: LID 32 belongs to port "
			 "0x0002c90000100001, which now has LID 4");
	lft_free(l);
	l = ibroute_read(ibr, sizeof(ibr) - 1, "remap.ibroute", f.t, &f.dl);
	assert_non_null(l);
	assert_int_equal(lft_get(l, s1, 4), 2);
	assert_int_equal(lft_get(l, s1, 0x30), LFT_NONE);
	assert_int_equal(f.dl.nerrors, 0);
	lft_free(l);
	fab_free(&f);
}

/* lft_write_osm reproduces OpenSM's own opensm-lfts.dump byte for byte. */
static void test_osm_byte_exact(void **state)
{
	struct fab f;
	struct lft *l;
	size_t len, olen;
	char *out, *orig = unit_read_file(DATA "/lft/3sw.lfts", &olen);

	(void)state;
	fab_load(&f, LST3);
	l = load_lft(&f, DATA "/lft/3sw.fdbs", FFR_FMT_FDBS);
	out = write_mem(lft_write_osm, f.t, l, &len);
	assert_int_equal(len, olen);
	assert_memory_equal(out, orig, olen);
	free(out);
	/* the ibroute writer gives what "ibroute <lid>" prints per switch */
	free(orig);
	orig = unit_read_file(DATA "/lft/3sw.ibroute", &olen);
	out = write_mem(lft_write_ibroute, f.t, l, &len);
	assert_int_equal(len, olen);
	assert_memory_equal(out, orig, olen);
	free(out);
	free(orig);
	lft_free(l);
	fab_free(&f);
}

/* Round trips through both writers, on a table with holes. */
static void test_round_trip(void **state)
{
	struct fab f;
	struct lft *l, *back;
	uint32_t sp;
	size_t len;
	char *out;

	(void)state;
	fab_load(&f, LST3);
	l = load_lft(&f, DATA "/lft/3sw.lfts", FFR_FMT_OSM_LFTS);
	sp = sw_of(f.t, SW_SPINE);
	lft_set(l, sp, 5, LFT_NONE);		/* a hole */
	lft_set(l, sw_of(f.t, SW_LEAF2), 1, 7);	/* a detour */
	l->have[sw_of(f.t, SW_LEAF1)] = 0;	/* a switch without a table */
	memset(l->port + (size_t)sw_of(f.t, SW_LEAF1) * l->nlids, LFT_NONE, l->nlids);

	out = write_mem(lft_write_osm, f.t, l, &len);
	assert_null(strstr(out, "switch Lid 1 guid"));
	back = osm_lfts_read(out, len, "rt.lfts", f.t, &f.dl);
	assert_non_null(back);
	assert_lft_equal(l, back);
	lft_free(back);
	free(out);

	out = write_mem(lft_write_ibroute, f.t, l, &len);
	back = ibroute_read(out, len, "rt.ibroute", f.t, &f.dl);
	assert_non_null(back);
	assert_lft_equal(l, back);
	lft_free(back);
	free(out);
	assert_int_equal(f.dl.nerrors, 0);
	lft_free(l);
	fab_free(&f);
}

/* Write @l as ffroute.lftb to a temporary file; its path (static). */
static const char *write_bin_file(const struct topo *t, const struct lft *l)
{
	static char path[] = "/tmp/ffr-lftb.XXXXXX";
	int fd;
	FILE *fp;

	strcpy(path, "/tmp/ffr-lftb.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "wb");
	assert_non_null(fp);
	assert_int_equal(lft_write_bin(t, l, fp), 0);
	fclose(fp);
	return path;
}

/* Change byte @off of @path (or cut the file to @off bytes with @cut). */
static void damage(const char *path, long off, bool cut)
{
	FILE *fp = fopen(path, "r+b");
	int c;

	assert_non_null(fp);
	if (cut) {
		assert_int_equal(ftruncate(fileno(fp), off), 0);
	} else {
		assert_int_equal(fseek(fp, off, SEEK_SET), 0);
		c = fgetc(fp);
		assert_int_equal(fseek(fp, off, SEEK_SET), 0);
		fputc(c ^ 0x01, fp);
	}
	fclose(fp);
}

/*
 * ffroute.lftb (io_lftbin.c): the round trip keeps every entry, a hole, a
 * detour and a switch without a table; a flipped entry byte fails the
 * digest, a cut file the size check, another magic the magic; each an
 * error naming the file.  Offsets: 15-byte magic, 8 bytes of counts, then
 * rows of 8 + nlids bytes.
 */
static void test_bin_round_trip(void **state)
{
	struct fab f;
	struct lft *l, *back;
	const char *path;

	(void)state;
	fab_load(&f, LST3);
	l = load_lft(&f, DATA "/lft/3sw.lfts", FFR_FMT_OSM_LFTS);
	lft_set(l, sw_of(f.t, SW_SPINE), 5, LFT_NONE);
	lft_set(l, sw_of(f.t, SW_LEAF2), 1, 7);
	l->have[sw_of(f.t, SW_LEAF1)] = 0;
	memset(l->port + (size_t)sw_of(f.t, SW_LEAF1) * l->nlids, LFT_NONE, l->nlids);
	path = write_bin_file(f.t, l);
	back = lft_read_bin(path, f.t, &f.dl);
	assert_non_null(back);
	assert_lft_equal(l, back);
	assert_int_equal(back->have[sw_of(f.t, SW_LEAF1)], 0);
	lft_free(back);
	assert_int_equal(f.dl.nerrors, 0);

	damage(path, 15 + 8 + 8 + 1, false);	/* an entry of the first row */
	assert_null(lft_read_bin(path, f.t, &f.dl));
	assert_int_equal(f.dl.nerrors, 1);
	assert_non_null(strstr(f.dl.v[0].msg, "digest does not match"));
	damage(path, 40, true);
	assert_null(lft_read_bin(path, f.t, &f.dl));
	assert_non_null(strstr(f.dl.v[1].msg, "truncated or foreign"));
	damage(path, 0, false);
	assert_null(lft_read_bin(path, f.t, &f.dl));
	assert_non_null(strstr(f.dl.v[2].msg, "not an ffroute.lftb file"));
	assert_string_equal(f.dl.v[2].file, path);
	remove(path);
	lft_free(l);
	fab_free(&f);
}

/*
 * The real ibutils pair.  Expected counts, derived with grep/awk from the
 * files and not from this parser:
 *   switches:  grep -oE '\{ SW[^ ]* Ports:[0-9A-F]+ [^ ]+ NodeGUID:[0-9a-f]+' \
 *              subnet.lst | sort -u  ->  61 x "Ports:08", 1 x "Ports:18" (24)
 *   CAs:       the same with CA -> 3 distinct NodeGUIDs
 *   LIDs:      distinct LID: values of all port groups -> 65, 0x0001..0x0041
 *   LFT:       awk '/dump_ucast_routes/{n++} /^0x/ && !/UNREACHABLE/{c++}'
 *              osm.fdbs -> 62 blocks, 4030 routed entries = 62 x 65, and
 *              every block routes all 65 LIDs.
 */
static void test_real_pair(void **state)
{
	char lst[4096], fdbs[4096];
	const char *p1 = unit_real_fixture("ibutils__subnet.lst");
	unsigned n8 = 0, n24 = 0, routed = 0;
	struct fab f;
	struct lft *l;

	(void)state;
	if (!p1)
		skip();
	snprintf(lst, sizeof(lst), "%s", p1);	/* unit_real_fixture reuses its buffer */
	p1 = unit_real_fixture("ibutils__osm.fdbs");
	if (!p1)
		skip();
	snprintf(fdbs, sizeof(fdbs), "%s", p1);
	fab_load(&f, lst);
	assert_int_equal(f.t->nswitches, 62);
	assert_int_equal(f.t->ncas, 3);
	for (uint32_t s = 0; s < f.t->nswitches; s++) {
		n8 += f.t->node_nports[f.t->sw_node[s]] == 8;
		n24 += f.t->node_nports[f.t->sw_node[s]] == 24;
	}
	assert_int_equal(n8, 61);
	assert_int_equal(n24, 1);
	assert_int_equal(f.t->max_lid, 65);
	l = load_lft(&f, fdbs, FFR_FMT_AUTO);
	assert_int_equal(f.dl.nerrors, 0);
	assert_int_equal(l->nsw, 62);
	for (uint32_t s = 0; s < l->nsw; s++) {
		assert_true(l->have[s]);
		for (uint32_t lid = 1; lid <= f.t->max_lid; lid++) {
			if (topo_find_lid(f.t, lid) == TOPO_NONE)
				continue;
			assert_int_not_equal(lft_get(l, s, lid), LFT_NONE);
			routed++;
		}
	}
	assert_int_equal(routed, 4030);
	/* a switch routes its own LID to port 0 */
	for (uint32_t s = 0; s < l->nsw; s++)
		assert_int_equal(lft_get(l, s, topo_node_lid(f.t, f.t->sw_node[s])), 0);
	lft_free(l);
	fab_free(&f);
}

/* Read @text with @fn; it must fail with a diagnostic containing @want. */
static void expect_bad(struct lft *(*fn)(const char *, size_t, const char *,
					  const struct topo *, struct diag_list *),
		       const struct topo *t, const char *fname, const char *text,
		       const char *want)
{
	struct diag_list dl;
	struct lft *l;

	diag_init(&dl, 0);
	l = fn(text, strlen(text), fname, t, &dl);
	if (l)
		fail_msg("accepted: %s", text);
	unit_expect_diag(&dl, want);
	diag_free(&dl);
}

#define OSM_HDR "Unicast lids [0-9] of switch Lid 1 guid 0x0002c90000000201 ('leaf1'):\n"
#define FDBS_HDR "dump_ucast_routes: Switch 0x0002c90000000201\nLID    : Port : Hops : Optimal\n"
#define IBR_HDR "Unicast lids [0x0-0x9] of switch Lid 1 guid 0x0002c90000000201 (leaf1):\n" \
		"  Lid  Out   Destination\n       Port     Info \n"

static void test_bad_lft(void **state)
{
	struct fab f;

	(void)state;
	fab_load(&f, LST3);
	expect_bad(osm_lfts_read, f.t, "b.lfts",
		   "Unicast lids [0-9] of switch Lid 1 guid 0x0002c900000009ff ('x'):\n"
		   "0x0001 000 # x\n",
		   "b.lfts:1:41: error: switch GUID 0x0002c900000009ff is not in the fabric");
	expect_bad(osm_lfts_read, f.t, "b.lfts",
		   "Unicast lids [0-9] of switch Lid 1 guid 0x0002c90000100000 ('x'):\n",
		   "b.lfts:1:41: error: GUID 0x0002c90000100000 is a CA, not a switch");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "0x0001 000 # x\n0x0004 009 # x\n",
		   "b.lfts:3:8: error: port 9 out of range (switch has 8)");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "0x0000 001 # x\n",
		   "b.lfts:2:1: error: LID 0 is not a valid LID");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "0x0004 256 # x\n",
		   "b.lfts:2:8: error: port number does not fit in 8 bits");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "0x0004 1x # x\n",
		   "b.lfts:2:9: error: unexpected character 'x' after the port");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "0xC000 001 # x\n",
		   "b.lfts:2:1: error: LID 0xc000 is not a unicast LID");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "hello\n",
		   "b.lfts:2:1: error: unrecognised line in an opensm-lfts dump");
	expect_bad(osm_lfts_read, f.t, "b.lfts", "0x0004 001 # x\n",
		   "b.lfts:1:1: error: forwarding entry before any switch header");
	expect_bad(osm_lfts_read, f.t, "b.lfts", "Unicast lids [0-9] of switch Lid 1 ('x'):\n",
		   "b.lfts:1:20: error: expected \"of switch ... guid 0x...\"");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR "0x0001 000 # Switch portguid 0x0",
		   "b.lfts:2: error: truncated dump: the block started at line 1 has no "
		   "\"lids dumped\" footer");
	expect_bad(osm_lfts_read, f.t, "b.lfts", OSM_HDR OSM_HDR "9 lids dumped\n",
		   "b.lfts:2:1: error: the block started at line 1 has no \"lids dumped\" footer");
	expect_bad(ibroute_read, f.t, "b.ibr", IBR_HDR "0x0001 000 : (x)\n",
		   "b.ibr:4: error: truncated dump");
	expect_bad(fdbs_read, f.t, "b.fdbs", FDBS_HDR "0x0004 : 009  : 00   : yes\n",
		   "b.fdbs:3:10: error: port 9 out of range (switch has 8)");
	expect_bad(fdbs_read, f.t, "b.fdbs", FDBS_HDR "0x0000 : 001  : 00   : yes\n",
		   "b.fdbs:3:1: error: LID 0 is not a valid LID");
	expect_bad(fdbs_read, f.t, "b.fdbs", FDBS_HDR "0x0004 : 300  : 00   : yes\n",
		   "b.fdbs:3:10: error: port number does not fit in 8 bits");
	expect_bad(fdbs_read, f.t, "b.fdbs", FDBS_HDR "0x0004 - 001\n",
		   "b.fdbs:3:8: error: expected ':' after the LID");
	expect_bad(fdbs_read, f.t, "b.fdbs", FDBS_HDR "garbage line\n",
		   "b.fdbs:3:1: error: unrecognised line in a .fdbs dump");
	expect_bad(fdbs_read, f.t, "b.fdbs", "dump_ucast_routes: Switch 0x00000000000000aa\n",
		   "b.fdbs:1:27: error: switch GUID 0x00000000000000aa is not in the fabric");
	expect_bad(fdbs_read, f.t, "b.fdbs", FDBS_HDR "PLFT_NUM: x\n",
		   "b.fdbs:3:11: error: expected a PLFT number (0..255)");
	expect_bad(ibroute_read, f.t, "b.ibr", IBR_HDR "0x0004 010 : (x)\n",
		   "b.ibr:4:8: error: port 10 out of range (switch has 8)");
	expect_bad(ibroute_read, f.t, "b.ibr", IBR_HDR "0x10000 001 : (x)\n",
		   "b.ibr:4:1: error: LID does not fit in 16 bits");
	expect_bad(ibroute_read, f.t, "b.ibr", IBR_HDR "0x0004 001 # (x)\n",
		   "b.ibr:4:12: error: expected ':' or the end of the line");
	expect_bad(ibroute_read, f.t, "b.ibr",
		   IBR_HDR "0x0004 001 : (Switch portguid 0xzz: 'x')\n",
		   "b.ibr:4:31: error: expected a GUID (0x...)");
	expect_bad(ibroute_read, f.t, "b.ibr", IBR_HDR "some garbage\n",
		   "b.ibr:4:1: error: unrecognised line in an ibroute dump");
	fab_free(&f);
}

/* Cut and damaged dumps: errors, never a crash (ASan/UBSan builds). */
static void test_truncated_lft(void **state)
{
	static const char *const files[] = {
		DATA "/lft/3sw.lfts", DATA "/lft/3sw-v2.fdbs", DATA "/lft/3sw.dump_lfts",
	};
	struct fab f;

	(void)state;
	fab_load(&f, LST3);
	for (unsigned i = 0; i < 3; i++) {
		size_t len;
		char *buf = unit_read_file(files[i], &len);

		for (size_t n = 0; n <= len; n += 5) {
			struct diag_list dl;
			char *cp = malloc(n + 1);

			assert_non_null(cp);
			memcpy(cp, buf, n);
			cp[n] = '\0';
			if (n > 200)
				cp[n / 3] = (char)('0' + n % 75);
			diag_init(&dl, 5);
			lft_free(osm_lfts_read(cp, n, "x", f.t, &dl));
			lft_free(fdbs_read(cp, n, "x", f.t, &dl));
			lft_free(ibroute_read(cp, n, "x", f.t, &dl));
			diag_free(&dl);
			free(cp);
		}
		free(buf);
	}
	fab_free(&f);
}

/* test_io_lft convert TOPO LFTFILE opensm-lfts|ibroute OUT */
static int convert(int argc, char **argv)
{
	struct diag_list dl;
	struct topo *t;
	struct lft *l = NULL;
	FILE *fp = NULL;
	int rc = 1;

	if (argc != 6 || strcmp(argv[1], "convert")) {
		fprintf(stderr, "usage: %s convert TOPO LFTFILE opensm-lfts|ibroute OUT\n",
			argv[0]);
		return 2;
	}
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	t = topo_read_file(argv[2], FFR_FMT_AUTO, &dl);
	if (t)
		l = lft_read_file(argv[3], FFR_FMT_AUTO, t, &dl);
	if (l)
		fp = fopen(argv[5], "w");
	if (fp) {
		int w = !strcmp(argv[4], "ibroute") ? lft_write_ibroute(t, l, fp)
						    : lft_write_osm(t, l, fp);

		rc = fclose(fp) || w ? 1 : 0;
	}
	diag_print(&dl, stderr);
	lft_free(l);
	topo_free(t);
	diag_free(&dl);
	return rc;
}

/*
 * Column blocks (lft_cols_get/put): a block of scattered LIDs holds each
 * switch's entries for them, a LID past the table reads LFT_NONE, and
 * putting a block back writes those columns and nothing else.
 */
static void test_column_blocks(void **state)
{
	struct lft *l = lft_new(3, 200), *copy = lft_new(3, 200);
	uint32_t lids[LFT_COLS] = { 7, 1, 200, 64, 65, 3 };
	uint8_t blk[3 * LFT_COLS];

	(void)state;
	assert_non_null(l);
	assert_non_null(copy);
	for (uint32_t s = 0; s < 3; s++)
		for (uint32_t lid = 0; lid <= 200; lid++)
			lft_set(l, s, lid, (uint8_t)((s * 31 + lid) % 250));
	lids[6] = 201;	/* past the table */
	lft_cols_get(l, lids, 7, blk);
	for (uint32_t s = 0; s < 3; s++) {
		for (uint32_t k = 0; k < 6; k++)
			assert_int_equal(blk[s * LFT_COLS + k], lft_get(l, s, lids[k]));
		assert_int_equal(blk[s * LFT_COLS + 6], LFT_NONE);
	}
	lft_cols_put(copy, lids, 6, blk);
	for (uint32_t s = 0; s < 3; s++)
		for (uint32_t lid = 0; lid <= 200; lid++) {
			bool in = lid == 7 || lid == 1 || lid == 200 || lid == 64 || lid == 65 || lid == 3;

			assert_int_equal(lft_get(copy, s, lid), in ? lft_get(l, s, lid) : LFT_NONE);
		}
	lft_free(l);
	lft_free(copy);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_agree),
		cmocka_unit_test(test_hex_case),
		cmocka_unit_test(test_remap_by_guid),
		cmocka_unit_test(test_osm_byte_exact),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bin_round_trip),
		cmocka_unit_test(test_real_pair),
		cmocka_unit_test(test_bad_lft),
		cmocka_unit_test(test_truncated_lft),
		cmocka_unit_test(test_column_blocks),
	};

	if (argc > 1)
		return convert(argc, argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

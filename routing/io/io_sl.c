// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_sl.c - the engine's service levels and SL2VL tables as files.
 *
 * ffroute.sl (ffroute's own format: no standard dump holds per-path SLs,
 * OpenSM hands them out only in SA path records):
 *   # comments
 *   groups <G>                    number of source groups, first
 *   lfts 0x<digest>               lft_digest() of the LFTs these SLs were
 *                                 computed with: the checker refuses the
 *                                 file beside other LFTs (a stale dump)
 *   node 0x<node GUID> <g>        the source group of a node (every node)
 *   lid <lid> 0x<port GUID> <k>   the port that LID was given to (LMC
 *                                 offset k): a reader remaps the LIDs of
 *                                 the sl lines to that port's current LIDs,
 *                                 so the dump stays valid when an SM
 *                                 assigns other LIDs (as OpenSM's file
 *                                 engine remaps opensm-lfts.dump)
 *   sl <g> <lid>[-<lid>] <SL>     the SL of the path from group g to these
 *                                 LIDs (runs of equal SL; unlisted = 0)
 *   class <name> <s0> .. <s15>    a traffic class (route_tc.c): its packets
 *                                 carry SL s<l> where an sl line says l;
 *                                 without class lines they carry l
 * A packet from a CA takes its CA's group; a switch's own packets its
 * switch's group.  The checker judges credit loops per VL with it.
 *
 * opensm-sl2vl.dump (OpenSM's format, as read by chk_sl2vl_read): per
 * switch "Switch 0x<GUID>, base LID <n>, "<desc>"" then "<in> <out> : v0 ..
 * v15" with, per cabled out-port, its base row (in = the lowest other
 * cabled port without a row of its own) and the rows of the (in, out)
 * pairs that differ (chk_vlx: the engine's turn rows); per CA port
 * "Channel Adapter 0x<port GUID>, ..." and one "0 0 : ..." row.
 *
 * Reader errors are file:line:col; it keeps going until diag_full().
 * Cost O(nodes + groups x LIDs + ports x 16).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>
#include <ffroute/io.h>
#include <ffroute/route.h>

#include "base/text.h"

#define SL_MAX_GROUPS 70000

int sl_write(const struct topo *t, const uint8_t *sl, const uint32_t *group, uint32_t ngroups,
	     const struct chk_sl_classes *tcs, uint64_t lfts, FILE *fp)
{
	uint32_t nlids = t->max_lid + 1;

	fprintf(fp, "# ffroute SL dump: SL of the path from a source group to a LID\n"
		    "groups %u\nlfts 0x%016" PRIx64 "\n", ngroups, lfts);
	for (unsigned k = 0; tcs && k < tcs->n; k++) {
		fprintf(fp, "class %s", tcs->name[k]);
		for (unsigned l = 0; l < 16; l++)
			fprintf(fp, " %u", tcs->map[k][l]);
		fputc('\n', fp);
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		fprintf(fp, "node 0x%016" PRIx64 " %u\n", t->node_guid[n], group[n]);
	for (uint32_t lid = 1; lid < nlids; lid++) {
		uint32_t p = t->lid_port[lid];

		if (p != TOPO_NONE && t->port_guid[p])
			fprintf(fp, "lid %u 0x%016" PRIx64 " %u\n", lid, t->port_guid[p],
				lid - t->port_lid[p]);
	}
	for (uint32_t g = 0; g < ngroups; g++)
		for (uint32_t a = 1, b; a < nlids; a = b) {
			uint8_t v = sl[(size_t)g * nlids + a];

			for (b = a + 1; b < nlids && sl[(size_t)g * nlids + b] == v; b++)
				;
			if (v && b - 1 > a)
				fprintf(fp, "sl %u %u-%u %u\n", g, a, b - 1, v);
			else if (v)
				fprintf(fp, "sl %u %u %u\n", g, a, v);
		}
	return ferror(fp) ? -EIO : 0;
}

/* Input port of the base row: the lowest cabled other port without a row of its own. */
static uint32_t other_port(const struct topo *t, const struct chk_vlx *x, uint32_t node,
			   uint32_t out)
{
	for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++)
		if (p != out && t->port_remote[p] != TOPO_NONE && (!x || !chk_vlx_find(x, p, out)))
			return topo_port_num(t, p);
	return 0;
}

static void vl_row(FILE *fp, unsigned in, unsigned out, const uint8_t *v)
{
	fprintf(fp, "%u %u :", in, out);
	for (unsigned i = 0; i < 16; i++)
		fprintf(fp, " %u", v[i]);
	fputc('\n', fp);
}

int sl2vl_write(const struct topo *t, const uint8_t *sl2vl, const struct chk_vlx *x, FILE *fp)
{
	for (uint32_t n = 0; n < t->nnodes; n++) {
		bool sw = topo_is_switch(t, n);

		for (uint32_t p = t->port_off[n] + !sw; p < t->port_off[n + 1]; p++) {
			if (sw && p == t->port_off[n]) {
				fprintf(fp, "Switch 0x%016" PRIx64 ", base LID %u, \"%s\"\n"
					    "#in out : 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15\n",
					t->port_guid[p], t->port_lid[p], t->node_desc[n]);
				continue;
			}
			if (t->port_remote[p] == TOPO_NONE)
				continue;
			if (!sw)
				fprintf(fp, "%s 0x%016" PRIx64 ", base LID %u, \"%s\"\n",
					t->node_type[n] == TOPO_NODE_ROUTER ? "Router"
					: "Channel Adapter", t->port_guid[p], t->port_lid[p],
					t->node_desc[n]);
			vl_row(fp, sw ? other_port(t, x, n, p) : 0, sw ? topo_port_num(t, p) : 0,
			       sl2vl + (size_t)p * 16);
			for (uint32_t in = t->port_off[n]; sw && x && in < t->port_off[n + 1]; in++) {
				const uint8_t *row = chk_vlx_find(x, in, p);

				if (row)
					vl_row(fp, topo_port_num(t, in), topo_port_num(t, p), row);
			}
		}
	}
	return ferror(fp) ? -EIO : 0;
}

struct sl_ctx {
	const struct topo *t;
	uint32_t ngroups, nlids;
	uint8_t *sl;
	uint32_t *group;
	uint8_t *seen;
	uint32_t *map;		/* [TOPO_MAX_UCAST_LID + 1]: dump LID -> current LID, 0 none */
	bool mapped;		/* "lid" lines were given */
	bool have_lfts;		/* an "lfts" line was given */
	uint64_t lfts;
	struct chk_sl_classes tcs;
};

/* "class <name> <s0> .. <s15>" */
static void sl_class(struct text_reader *rd, struct scan *s, struct sl_ctx *x)
{
	unsigned k = x->tcs.n;
	uint64_t v;

	scan_ws(s);
	if (k == CHK_TC_MAX) {
		text_error(rd, scan_col(s), "more than %u classes", CHK_TC_MAX);
		return;
	}
	if (!scan_word(s, " \t", x->tcs.name[k], CHK_TC_NAME)) {
		text_error(rd, scan_col(s), "a class name expected");
		return;
	}
	for (unsigned l = 0; l < 16; l++) {
		if (!text_get_num(rd, s, 10, 15, "an SL (0..15)", &v))
			return;
		x->tcs.map[k][l] = (uint8_t)v;
	}
	x->tcs.n++;
}

/* "lid <lid> 0x<port GUID> <k>": where the dump's LID now is. */
static void sl_lid(struct text_reader *rd, struct scan *s, struct sl_ctx *x)
{
	uint64_t lid, guid, k;
	uint32_t p;
	unsigned col;

	if (!text_get_num(rd, s, 10, TOPO_MAX_UCAST_LID, "a LID", &lid))
		return;
	scan_ws(s);
	col = scan_col(s);
	if (!text_get_num(rd, s, 16, UINT64_MAX, "a port GUID", &guid) ||
	    !text_get_num(rd, s, 10, 127, "an LMC offset", &k))
		return;
	x->mapped = true;
	p = topo_find_port_guid(x->t, guid);
	if (p == TOPO_NONE || !x->t->port_lid[p]) {
		text_warn(rd, col, "port 0x%016" PRIx64 " is not in the fabric or has no LID", guid);
		return;
	}
	if (k >= (1u << x->t->port_lmc[p])) {
		text_warn(rd, col, "LMC offset %" PRIu64 " beyond the port's LMC", k);
		return;
	}
	x->map[lid] = x->t->port_lid[p] + (uint32_t)k;
}

static void sl_node(struct text_reader *rd, struct scan *s, struct sl_ctx *x)
{
	uint64_t guid, g;
	uint32_t n;
	unsigned col;

	scan_ws(s);
	col = scan_col(s);
	if (!text_get_num(rd, s, 16, UINT64_MAX, "a node GUID", &guid) ||
	    !text_get_num(rd, s, 10, x->ngroups - 1, "a group", &g))
		return;
	n = topo_find_guid(x->t, guid);
	if (n == TOPO_NONE) {
		text_warn(rd, col, "node 0x%016" PRIx64 " is not in the fabric", guid);
		return;
	}
	if (x->seen[n]++)
		text_error(rd, col, "node 0x%016" PRIx64 " given twice", guid);
	x->group[n] = (uint32_t)g;
}

static void sl_run(struct text_reader *rd, struct scan *s, struct sl_ctx *x)
{
	uint64_t g, a, b, v;

	if (!text_get_num(rd, s, 10, x->ngroups - 1, "a group", &g) ||
	    !text_get_num(rd, s, 10, TOPO_MAX_UCAST_LID, "a LID", &a))
		return;
	b = a;
	if (scan_char(s, '-') && !text_get_num(rd, s, 10, TOPO_MAX_UCAST_LID, "the last LID", &b))
		return;
	if (b < a || !a) {
		text_error(rd, scan_col(s), "bad LID range %" PRIu64 "-%" PRIu64, a, b);
		return;
	}
	if (!text_get_num(rd, s, 10, 15, "an SL (0..15)", &v))
		return;
	for (uint64_t l = a; l <= b; l++) {
		uint32_t cur = x->mapped ? x->map[l] : (uint32_t)l;

		if (cur && cur < x->nlids)
			x->sl[(size_t)g * x->nlids + cur] = (uint8_t)v;
	}
}

static bool sl_line(struct text_reader *rd, struct sl_ctx *x)
{
	struct scan s;
	uint64_t g;

	scan_init(&s, rd->line);
	scan_ws(&s);
	if (scan_eol(&s) || *s.p == '#')
		return true;
	if (!x->sl) {
		if (!scan_lit(&s, "groups"))
			return text_fail(rd, scan_col(&s), "expected \"groups N\" first");
		if (!text_get_num(rd, &s, 10, SL_MAX_GROUPS, "the number of groups", &g))
			return false;
		if (!g)
			return text_fail(rd, scan_col(&s), "no groups");
		x->ngroups = (uint32_t)g;
		x->sl = calloc((size_t)x->ngroups * x->nlids, 1);
		if (!x->sl)
			return false;
	} else if (scan_lit(&s, "node ")) {
		sl_node(rd, &s, x);
	} else if (scan_lit(&s, "lfts ")) {
		scan_ws(&s);
		if (text_get_num(rd, &s, 16, UINT64_MAX, "an LFT digest", &x->lfts))
			x->have_lfts = true;
	} else if (scan_lit(&s, "lid ")) {
		sl_lid(rd, &s, x);
	} else if (scan_lit(&s, "sl ")) {
		sl_run(rd, &s, x);
	} else if (scan_lit(&s, "class ")) {
		sl_class(rd, &s, x);
	} else {
		text_error(rd, scan_col(&s), "expected \"node\", \"sl\" or \"class\"");
	}
	scan_ws(&s);
	if (!scan_eol(&s) && *s.p != '#')
		text_error(rd, scan_col(&s), "unexpected text at the end of the line");
	return true;
}

int sl_read(const char *buf, size_t len, const char *fname, const struct topo *t,
	    uint8_t **sl, uint32_t **group, uint32_t *ngroups, struct chk_sl_classes *tcs,
	    uint64_t *lfts, struct diag_list *dl)
{
	struct sl_ctx x = { .t = t, .nlids = t->max_lid + 1 };
	struct text_reader rd;
	unsigned nerr0 = dl->nerrors;
	int rc = 0;

	x.group = calloc((size_t)t->nnodes + 1, sizeof(uint32_t));
	x.seen = calloc((size_t)t->nnodes + 1, 1);
	x.map = calloc(TOPO_MAX_UCAST_LID + 1, sizeof(uint32_t));
	if (!x.group || !x.seen || !x.map) {
		free(x.group);
		free(x.seen);
		free(x.map);
		return -ENOMEM;
	}
	text_init(&rd, buf, len, fname, dl);
	while (text_next(&rd))
		if (!sl_line(&rd, &x))
			break;
	if (!x.sl && !rd.failed && dl->nerrors == nerr0)
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "no \"groups\" line: not an SL dump");
	if (rd.failed && !x.sl)
		rc = -ENOMEM;
	text_fini(&rd);
	free(x.seen);
	free(x.map);
	if (!rc && dl->nerrors != nerr0)
		rc = -EINVAL;
	if (rc) {
		free(x.sl);
		free(x.group);
		return rc;
	}
	*sl = x.sl;
	*group = x.group;
	*ngroups = x.ngroups;
	if (tcs)
		*tcs = x.tcs;
	if (!x.have_lfts)
		diag_add(dl, DIAG_WARNING, fname, 0, 0, "no \"lfts\" line: cannot tell whether "
			 "these SLs belong to the LFTs beside them");
	*lfts = x.have_lfts ? x.lfts : 0;
	return 0;
}

/* One "class ..." line of a classes file into tc[*n]. */
static void tclass_line(struct text_reader *rd, struct route_tclass *tc, unsigned *n)
{
	struct scan s;
	unsigned col = 0;
	char err[160];

	scan_init(&s, rd->line);
	scan_ws(&s);
	if (scan_eol(&s) || *s.p == '#')
		return;
	rd->line[strcspn(rd->line, "#")] = '\0';
	if (!scan_lit(&s, "class ") && !scan_lit(&s, "class\t")) {
		text_error(rd, scan_col(&s), "expected \"class NAME sl N ...\"");
		return;
	}
	if (*n == CHK_TC_MAX) {
		text_error(rd, scan_col(&s), "more than %u classes", CHK_TC_MAX);
		return;
	}
	if (route_tclass_parse(s.p, &tc[*n], &col, err, sizeof(err)))
		text_error(rd, scan_col(&s) + col, "%s", err);
	else
		(*n)++;
}

int tclass_read(const char *buf, size_t len, const char *fname, struct route_tclass *tc,
		unsigned *n, struct diag_list *dl)
{
	struct text_reader rd;
	unsigned nerr0 = dl->nerrors;
	char err[160];

	*n = 0;
	text_init(&rd, buf, len, fname, dl);
	while (text_next(&rd))
		tclass_line(&rd, tc, n);
	text_fini(&rd);
	if (dl->nerrors == nerr0 && !*n)
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "no class line");
	else if (dl->nerrors == nerr0 && route_tclasses_valid(tc, *n, err, sizeof(err)))
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "%s", err);
	return dl->nerrors == nerr0 ? 0 : -EINVAL;
}

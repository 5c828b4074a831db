// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_lftdump.c - readers of unicast forwarding-table dumps:
 *
 *   opensm-lfts.dump   "Unicast lids [0-MAX] of switch Lid N guid 0x<16> ('desc'):"
 *                      "0x%04x %03u # <type> portguid 0x<16>: 'desc'"
 *                      "MAX lids dumped"
 *   .fdbs              "[osm_ucast_mgr_]dump_ucast_routes: Switch 0x<16>"
 *                      ["PLFT_NUM: n"]  "LID    : Port : Hops : Optimal"
 *                      "0xLLLL : PPP  : HH   : yes" | "0xLLLL : UNREACHABLE"
 *                      (OpenSM, ibdiagnet v1 upper-case, ibdiagnet2 lower-case)
 *   ibroute/dump_lfts  "Unicast lids [0x0-0xTOP] of switch Lid N|DR path ... guid 0x<16> (desc):"
 *                      two column-title lines, "0x%04x %03u : (...)",
 *                      "N valid lids dumped "; blocks may be concatenated
 *
 * LIDs are hex, ports decimal.  An opensm-lfts or ibroute block must end
 * with its "lids dumped" footer, so a truncated dump is an error.  Tables are bound to the fabric by switch
 * GUID through the lft_loader; when an entry names the destination port
 * GUID, the loader moves it to the LID that port holds in the fabric (as
 * OpenSM's file engine does).  "UNREACHABLE" and "(illegal port)" are
 * LFT_NONE.  Of the ibdiagnet2 private LFTs only PLFT 0 is kept.
 *
 * Time O(lines) plus the loader's O(entries); memory 8 B per entry.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <ffroute/io.h>
#include "model/lft_load.h"
#include "base/text.h"

#define SW_NONE (-1)		/* no header seen yet (or after a footer) */
#define SW_SKIP (-2)		/* entries are ignored: bad header, mcast, PLFT != 0 */

enum dump_kind { DUMP_OSM, DUMP_FDBS, DUMP_IBROUTE };

struct dump_rd {
	struct text_reader r;
	struct lft_loader *ld;
	const struct topo *t;
	enum dump_kind kind;
	int sw;
	unsigned entries;
	bool noted_mcast, in_mcast;
	unsigned open_line;	/* header line of a block without its footer yet */
	uint32_t blk_lo, blk_hi;	/* LID range its header announced */
	bool noted_range;	/* a LID outside it was reported for this block */
	/* .fdbs: the current switch header, bound lazily (fdbs_bind) */
	enum { HDR_NONE, HDR_BAD, HDR_OK } hdr;
	uint64_t hguid;
	unsigned hline, hcol;
	int hsw;		/* ordinal once bound, SW_SKIP, or SW_NONE */
	bool plft0;		/* the block holds PLFT 0 */
	bool noted_plft;
};

/* "0x" and up to 16 hex digits followed by a blank, ':', ')' or the end. */
static int scan_guid(struct dump_rd *rd, struct scan *s, uint64_t *guid)
{
	unsigned col = scan_col(s);
	int rc;

	if (!scan_lit_ci(s, "0x")) {
		text_error(&rd->r, col, "expected a GUID (0x...)");
		return -EINVAL;
	}
	rc = scan_uint(s, 16, UINT64_MAX, guid);
	if (rc) {
		text_error(&rd->r, col, rc == -ERANGE ? "GUID has more than 16 hex digits"
						      : "expected a GUID (0x...)");
		return -EINVAL;
	}
	if (*s->p && !strchr(" \t:)(", *s->p)) {
		text_error(&rd->r, scan_col(s), "unexpected character '%c' after the GUID", *s->p);
		return -EINVAL;
	}
	return 0;
}

/* "Unicast lids [A-B] of switch ... guid 0x...": bind the switch. */
static void unicast_header(struct dump_rd *rd, struct scan *s)
{
	uint64_t lo, hi, guid;
	unsigned col;

	rd->sw = SW_SKIP;
	scan_ws(s);
	col = scan_col(s);
	if (scan_uint(s, 0, 0xFFFF, &lo) || !scan_char(s, '-')) {
		text_error(&rd->r, col, "expected the LID range [first-last]");
		return;
	}
	col = scan_col(s);
	if (scan_uint(s, 0, 0xFFFF, &hi) || !scan_char(s, ']')) {
		text_error(&rd->r, col, "expected the last LID of the range and ']'");
		return;
	}
	if (hi < lo) {
		text_error(&rd->r, col, "reversed LID range [%llu-%llu]", (unsigned long long)lo,
			   (unsigned long long)hi);
		return;
	}
	scan_ws(s);
	col = scan_col(s);
	if (!scan_lit(s, "of switch") || !scan_find(s, " guid ")) {
		text_error(&rd->r, col, "expected \"of switch ... guid 0x...\"");
		return;
	}
	s->p += 6;
	col = scan_col(s);
	if (scan_guid(rd, s, &guid))
		return;
	rd->blk_lo = (uint32_t)lo;
	rd->blk_hi = (uint32_t)hi;
	rd->noted_range = false;
	rd->sw = lft_loader_switch(rd->ld, guid, rd->r.lineno, col);
	if (rd->sw < 0)
		rd->sw = SW_SKIP;
}

/* Port number (decimal, 8 bits), checked against the switch radix. */
static int scan_port(struct dump_rd *rd, struct scan *s, int sw, unsigned *port)
{
	unsigned col = scan_col(s);
	uint64_t v;
	int rc = scan_uint(s, 10, 0xFF, &v);

	if (rc == -EINVAL) {
		text_error(&rd->r, col, "expected a port number");
		return rc;
	}
	if (rc == -ERANGE) {
		text_error(&rd->r, col, "port number does not fit in 8 bits");
		return rc;
	}
	if (*s->p && !strchr(" \t:", *s->p)) {
		text_error(&rd->r, scan_col(s), "unexpected character '%c' after the port",
			   *s->p);
		return -EINVAL;
	}
	if (sw >= 0 && v != LFT_NONE) {
		unsigned radix = rd->t->node_nports[rd->t->sw_node[sw]];

		if (v > radix) {
			text_error(&rd->r, col, "port %u out of range (switch has %u)",
				   (unsigned)v, radix);
			return -ERANGE;
		}
	}
	*port = (unsigned)v;
	return 0;
}

/* "0x<lid>": the LID column of an entry line. */
static int scan_lid(struct dump_rd *rd, struct scan *s, uint32_t *lid)
{
	unsigned col = scan_col(s);
	uint64_t v;
	int rc;

	if (!scan_lit_ci(s, "0x") || (rc = scan_uint(s, 16, 0xFFFF, &v)) == -EINVAL) {
		text_error(&rd->r, col, "expected a LID (0x...)");
		return -EINVAL;
	}
	if (rc == -ERANGE) {
		text_error(&rd->r, col, "LID does not fit in 16 bits");
		return rc;
	}
	if (*s->p && !strchr(" \t:", *s->p)) {
		text_error(&rd->r, scan_col(s), "unexpected character '%c' after the LID", *s->p);
		return -EINVAL;
	}
	*lid = (uint32_t)v;
	return 0;
}

/* Destination port GUID named after the port ("portguid 0x..."), or 0. */
static int scan_dest(struct dump_rd *rd, struct scan *s, uint64_t *guid)
{
	*guid = 0;
	if (!scan_find(s, "portguid "))
		return 0;
	s->p += strlen("portguid ");
	return scan_guid(rd, s, guid);
}

/* Entry of the current switch; @sw may be SW_SKIP (dropped). */
static void add_entry(struct dump_rd *rd, int sw, uint32_t lid, unsigned port,
		      uint64_t dest, unsigned lid_col)
{
	rd->entries++;
	if (sw == SW_NONE) {
		text_error(&rd->r, 1, "forwarding entry before any switch header");
		return;
	}
	if (sw < 0)
		return;
	lft_loader_entry(rd->ld, sw, lid, port, dest, rd->r.lineno, lid_col);
}

/*
 * "0x%04x %03u # ..." (opensm-lfts) or "0x%04x %03u : (...)" (ibroute):
 * LID, port, then an optional destination.
 */
static void lid_port_line(struct dump_rd *rd, struct scan *s)
{
	unsigned lid_col = scan_col(s), port = 0;
	uint64_t dest = 0;
	uint32_t lid;

	if (scan_lid(rd, s, &lid))
		return;
	scan_ws(s);
	if (scan_port(rd, s, rd->sw, &port))
		return;
	scan_ws(s);
	if (!scan_eol(s)) {
		char sep = rd->kind == DUMP_OSM ? '#' : ':';

		if (!scan_char(s, sep)) {
			text_error(&rd->r, scan_col(s), "expected '%c' or the end of the line", sep);
			return;
		}
		if (strstr(s->p, "(illegal port)"))
			port = LFT_NONE;
		else if (scan_dest(rd, s, &dest))
			return;
	}
	if (rd->sw >= 0 && (lid < rd->blk_lo || lid > rd->blk_hi) && !rd->noted_range) {
		/* a header that announces less than the block holds: cut, or edited */
		text_warn(&rd->r, lid_col, "LID %u is outside the range [%u-%u] of this block's "
			  "header (line %u)", lid, rd->blk_lo, rd->blk_hi, rd->open_line);
		rd->noted_range = true;
	}
	add_entry(rd, rd->sw, lid, port, dest, lid_col);
}

/* "N lids dumped" / "N valid lids dumped ": end of a block. */
static bool footer(struct dump_rd *rd, const char *p)
{
	struct scan s;
	uint64_t n;

	scan_init(&s, p);
	if (scan_uint(&s, 10, UINT32_MAX, &n))
		return false;
	scan_ws(&s);
	if (!scan_lit(&s, "lids dumped") && !scan_lit(&s, "valid lids dumped") &&
	    !scan_lit(&s, "valid mlids dumped") && !scan_lit(&s, "mlids dumped"))
		return false;
	scan_ws(&s);
	if (!scan_eol(&s))
		return false;
	rd->sw = SW_NONE;
	rd->open_line = 0;
	return true;
}

static void mcast_header(struct dump_rd *rd)
{
	if (!rd->noted_mcast)
		text_warn(&rd->r, 1, "multicast table skipped (only unicast LFTs are read)");
	rd->noted_mcast = true;
	rd->in_mcast = true;
	rd->sw = SW_SKIP;
}

/* A block header: the previous block must have ended with its footer. */
static void block_start(struct dump_rd *rd)
{
	if (rd->open_line)
		text_error(&rd->r, 1, "the block started at line %u has no \"lids dumped\" "
			   "footer (truncated dump?)", rd->open_line);
	rd->open_line = rd->r.lineno;
}

static void lfts_fini(struct dump_rd *rd)
{
	if (rd->open_line)
		diag_add(rd->r.dl, DIAG_ERROR, rd->r.fname, rd->r.lineno, 0,
			 "truncated dump: the block started at line %u has no \"lids dumped\" "
			 "footer", rd->open_line);
}

/* Common line dispatch of opensm-lfts and ibroute dumps. */
static void lfts_line(struct dump_rd *rd, const char *line)
{
	struct scan s;

	scan_init(&s, line);
	scan_ws(&s);
	if (scan_lit(&s, "Unicast lids [")) {
		block_start(rd);
		rd->in_mcast = false;
		unicast_header(rd, &s);
	} else if (scan_lit(&s, "Multicast mlids [")) {
		block_start(rd);
		mcast_header(rd);
	} else if (rd->in_mcast) {
		/* body of a multicast block */
	} else if (s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		lid_port_line(rd, &s);
	} else if (footer(rd, s.p)) {
		/* end of block */
	} else if (rd->kind == DUMP_IBROUTE &&
		   (scan_lit(&s, "Lid ") || scan_lit(&s, "Port ") || scan_lit(&s, "***"))) {
		/* column titles; dump_lfts' "*** WARNING ***" trailer */
	} else {
		text_error(&rd->r, scan_col(&s), "unrecognised line in an %s dump",
			   rd->kind == DUMP_OSM ? "opensm-lfts" : "ibroute");
	}
}

static bool skip_line(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == '#' || text_is_blank(line);
}

static struct lft *read_dump(const char *buf, size_t len, const char *fname,
			     const struct topo *t, struct diag_list *dl, enum dump_kind kind,
			     void (*fn)(struct dump_rd *, const char *),
			     void (*fini)(struct dump_rd *))
{
	struct dump_rd rd;

	memset(&rd, 0, sizeof(rd));
	rd.t = t;
	rd.kind = kind;
	rd.sw = SW_NONE;
	rd.hsw = SW_NONE;
	text_init(&rd.r, buf, len, fname, dl);
	rd.ld = lft_loader_new(t, dl, rd.r.fname);
	if (!rd.ld) {
		diag_add(dl, DIAG_ERROR, rd.r.fname, 0, 0, "out of memory");
		return NULL;
	}
	while (text_next(&rd.r))
		if (!skip_line(rd.r.line))
			fn(&rd, rd.r.line);
	if (fini && !rd.r.failed)
		fini(&rd);
	if (!rd.entries && !rd.r.failed)
		diag_add(dl, DIAG_WARNING, rd.r.fname, 0, 0, "no forwarding entries found");
	text_fini(&rd.r);
	return lft_loader_finish(rd.ld);
}

/**
 * osm_lfts_read - read OpenSM's opensm-lfts.dump (the file engine's input)
 * Return: tables for fabric @t, or NULL (errno EINVAL: see @dl; ENOMEM).
 */
struct lft *osm_lfts_read(const char *buf, size_t len, const char *fname,
			  const struct topo *t, struct diag_list *dl)
{
	return read_dump(buf, len, fname, t, dl, DUMP_OSM, lfts_line, lfts_fini);
}

/**
 * ibroute_read - read ibroute / dump_lfts output (blocks may be concatenated)
 * Return: tables for fabric @t, or NULL (errno EINVAL: see @dl; ENOMEM).
 */
struct lft *ibroute_read(const char *buf, size_t len, const char *fname,
			 const struct topo *t, struct diag_list *dl)
{
	return read_dump(buf, len, fname, t, dl, DUMP_IBROUTE, lfts_line, lfts_fini);
}

/* ---- .fdbs ----------------------------------------------------------------- */

/*
 * A switch header is bound lazily, at the first sign that the block holds
 * PLFT 0 (its column titles, an entry, or the end of the block), so a
 * header repeated for a private LFT does not count as a second table.
 */
static int fdbs_bind(struct dump_rd *rd)
{
	if (rd->hdr != HDR_OK || !rd->plft0)
		return SW_SKIP;
	if (rd->hsw == SW_NONE) {
		rd->hsw = lft_loader_switch(rd->ld, rd->hguid, rd->hline, rd->hcol);
		if (rd->hsw < 0)
			rd->hsw = SW_SKIP;
	}
	return rd->hsw;
}

static void fdbs_header(struct dump_rd *rd, struct scan *s)
{
	uint64_t guid;
	unsigned col;

	fdbs_bind(rd);		/* an empty block still says the switch was dumped */
	rd->hdr = HDR_BAD;
	scan_ws(s);
	col = scan_col(s);
	if (!scan_lit(s, "Switch")) {
		text_error(&rd->r, col, "expected \"Switch 0x<guid>\"");
		return;
	}
	scan_ws(s);
	col = scan_col(s);
	if (scan_guid(rd, s, &guid))
		return;
	scan_ws(s);
	if (!scan_eol(s)) {
		text_error(&rd->r, scan_col(s), "unexpected text after the switch GUID");
		return;
	}
	rd->hdr = HDR_OK;
	rd->hguid = guid;
	rd->hline = rd->r.lineno;
	rd->hcol = col;
	rd->hsw = SW_NONE;
	rd->plft0 = true;
}

static void fdbs_plft(struct dump_rd *rd, struct scan *s)
{
	unsigned col;
	uint64_t n;

	scan_ws(s);
	col = scan_col(s);
	if (scan_uint(s, 10, 255, &n) || (scan_ws(s), !scan_eol(s))) {
		text_error(&rd->r, col, "expected a PLFT number (0..255)");
		return;
	}
	if (rd->hdr == HDR_NONE) {
		text_error(&rd->r, 1, "PLFT_NUM before any switch header");
		return;
	}
	rd->plft0 = n == 0;
	if (n && !rd->noted_plft) {
		text_warn(&rd->r, col, "private LFT %u ignored: only PLFT 0 is read",
			  (unsigned)n);
		rd->noted_plft = true;
	}
}

/* "0xLLLL : PPP  : HH   : yes" or "0xLLLL : UNREACHABLE" */
static void fdbs_entry(struct dump_rd *rd, struct scan *s)
{
	unsigned lid_col = scan_col(s), port;
	int sw = rd->hdr == HDR_NONE ? SW_NONE : fdbs_bind(rd);
	uint32_t lid;

	if (scan_lid(rd, s, &lid))
		return;
	scan_ws(s);
	if (!scan_char(s, ':')) {
		text_error(&rd->r, scan_col(s), "expected ':' after the LID");
		return;
	}
	scan_ws(s);
	if (scan_lit(s, "UNREACHABLE"))
		port = LFT_NONE;
	else if (scan_port(rd, s, sw, &port))
		return;
	/* hops and "Optimal" are not checked: ibdiagnet fakes them */
	add_entry(rd, sw, lid, port, 0, lid_col);
}

static void fdbs_line(struct dump_rd *rd, const char *line)
{
	struct scan s;

	scan_init(&s, line);
	scan_ws(&s);
	if (scan_lit(&s, "dump_ucast_routes:") ||
	    scan_lit(&s, "osm_ucast_mgr_dump_ucast_routes:")) {
		fdbs_header(rd, &s);
	} else if (scan_lit(&s, "PLFT_NUM:")) {
		fdbs_plft(rd, &s);
	} else if (scan_lit(&s, "LID") && (scan_ws(&s), scan_char(&s, ':'))) {
		fdbs_bind(rd);
	} else if (s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		fdbs_entry(rd, &s);
	} else {
		text_error(&rd->r, scan_col(&s), "unrecognised line in a .fdbs dump");
	}
}

static void fdbs_fini(struct dump_rd *rd)
{
	fdbs_bind(rd);
}

/**
 * fdbs_read - read opensm.fdbs, ibdiagnet.fdbs (v1) or ibdiagnet2.fdbs
 * Return: tables for fabric @t, or NULL (errno EINVAL: see @dl; ENOMEM).
 */
struct lft *fdbs_read(const char *buf, size_t len, const char *fname,
		      const struct topo *t, struct diag_list *dl)
{
	return read_dump(buf, len, fname, t, dl, DUMP_FDBS, fdbs_line, fdbs_fini);
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_ibnd.c - ibnetdiscover topology reader and writer.
 *
 * Format (infiniband-diags ibnetdiscover, default and -g output; see
 * ref/dump-formats.md section 1).  A switch record is
 *
 *   vendid=0x2c9                         attribute lines, each optional;
 *   devid=0xd2f0                         a trailing "# ..." (added by -g)
 *   sysimgguid=0x1c34da0300728866        is ignored
 *   switchguid=0xNODEGUID(PORT0GUID)
 *   Switch 41 "S-<guid>"  # "<desc>" enhanced port 0 lid 1600 lmc 0
 *   [1]  "H-<guid>"[1](<peer portguid>)  # "<peer desc>" lid 837 4xHDR
 *   [39] "S-<guid>"[39]                  # "<peer desc>" lid 102 4xHDR
 *
 * and a CA (router: rtguid=, Rt, R-) record is
 *
 *   caguid=0x1c34da030072886e
 *   Ca 1 "H-<guid>"  # "<desc>"
 *   [1](<own portguid>)  "S-<guid>"[41]  # lid 355 lmc 0 "<peer desc>" lid 1600 4xHDR
 *
 * Only connected ports are listed, so every link shows up once from each
 * end; a blank line ends a record.
 *
 * Reader: one pass over the lines with a three-state machine (between
 * records / in a node record / skipping a record whose header was bad).
 * Attribute lines pile up until the header that consumes them.  Nodes go to
 * the topology builder under their quoted id, so port lines name peers by
 * id and topo_builder_finish() resolves them and keeps each link once.
 * The node GUID is the *guid= value, else the hex of the id.
 * Whitespace between tokens is optional everywhere, so files whose tabs were
 * lost or turned into spaces read the same.  A description runs from its
 * opening quote to the LAST quote on the line (nothing after a description
 * holds a quote), so '#' and even '"' inside descriptions survive, as do
 * trailing spaces.  Also tolerated: CRLF and bare CR (text.c), stray lines
 * before the first record and after the last (warnings: captured terminal
 * logs), "lid 65535" (unassigned), the -g
 * section titles ("Non-Chassis Nodes", "Chassis N (guid 0x...)",
 * "Hostname: ..."), "[ext N]" labels, and whatever -f/-g append after the
 * width/speed token (" s=4 w=2 v=3", " slot 3", " (scp)").  An unknown
 * speed name ("4xGDR") is a warning and reads as unknown.  The peer LID and
 * peer port GUID on a port line repeat what the peer's own record says:
 * they are checked for syntax only.  Every other deviation is an error at
 * its column; the line is dropped and reading goes on until diag_full().
 *
 * Writer: switches, then CAs, then routers, each in node (GUID) order,
 * ports in port order, connected ports only, as ibnetdiscover prints them.
 * Ids are S-/H-/R- plus the 16-digit node GUID; every switch header says
 * "enhanced" (the model does not keep the SP0 type); control characters in
 * descriptions become spaces.  The format cannot carry the GUID or LID of
 * an unconnected CA port, GUIDs of switch ports 1..n, the node revision or
 * port states; everything the reader reads round-trips (topo_equal()).
 *
 * Time O(L + N log N) for L lines and N nodes (the builder sorts); memory
 * O(N + P) plus one line.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#include "base/text.h"

#define IBND_ID_MAX 128

enum rec_state { REC_NONE, REC_NODE, REC_SKIP };

enum { ATTR_VENDID, ATTR_DEVID, ATTR_SYSGUID, ATTR_GUID, ATTR_COUNT };

struct ibnd_attrs {
	unsigned have;			/* 1 << ATTR_* seen since the last header */
	unsigned line[ATTR_COUNT];	/* where each was given */
	uint32_t vendor, devid;
	uint64_t sysguid, guid, pguid;	/* pguid: switchguid=...(PORT0GUID) */
	uint8_t guid_type;		/* node type named by the *guid= line */
};

struct ibnd_parser {
	struct text_reader r;
	struct topo_builder *b;
	struct ibnd_attrs a;
	enum rec_state state;
	bool seen_record;		/* a record line was met (banner detection) */
	unsigned nheaders;
	int node;			/* builder handle of the current record */
	uint8_t type;
	unsigned nports;
	bool nports_bad;		/* its header's count was refused */
	unsigned pend_line, pend_col;	/* an unknown line after the records */
	char pend_word[32];
};

struct attr_kw {
	const char *kw;
	unsigned attr;
	uint8_t type;			/* for *guid= */
	uint64_t max;
	const char *what;
};

static const struct attr_kw attr_kws[] = {
	{ "vendid=", ATTR_VENDID, 0, 0xffffff, "vendor ID" },
	{ "devid=", ATTR_DEVID, 0, 0xffff, "device ID" },
	{ "sysimgguid=", ATTR_SYSGUID, 0, UINT64_MAX, "system image GUID" },
	{ "switchguid=", ATTR_GUID, TOPO_NODE_SWITCH, UINT64_MAX, "node GUID" },
	{ "caguid=", ATTR_GUID, TOPO_NODE_CA, UINT64_MAX, "node GUID" },
	{ "rtguid=", ATTR_GUID, TOPO_NODE_ROUTER, UINT64_MAX, "node GUID" },
};

static const char *type_kw(uint8_t type)
{
	return type == TOPO_NODE_SWITCH ? "Switch" : type == TOPO_NODE_ROUTER ? "Rt" : "Ca";
}

static const char *type_name(uint8_t type)
{
	return type == TOPO_NODE_SWITCH ? "switch" : type == TOPO_NODE_ROUTER ? "router" : "CA";
}

static const char *guid_kw(uint8_t type)
{
	return type == TOPO_NODE_SWITCH ? "switchguid" : type == TOPO_NODE_ROUTER ? "rtguid"
										  : "caguid";
}

static char id_prefix(uint8_t type)
{
	return type == TOPO_NODE_SWITCH ? 'S' : type == TOPO_NODE_ROUTER ? 'R' : 'H';
}

/* ---- scanning helpers (each reports its own error and returns false) ---- */

static bool get_num(struct ibnd_parser *ps, struct scan *s, int base, uint64_t max,
		    const char *what, uint64_t *out)
{
	return text_get_num(&ps->r, s, base, max, what, out);
}

static bool expect_lit(struct ibnd_parser *ps, struct scan *s, const char *lit)
{
	scan_ws(s);
	if (scan_lit(s, lit))
		return true;
	return text_fail(&ps->r, scan_col(s), "expected '%s'", lit);
}

/* A quoted node id: no blanks, quotes, '#', brackets or parentheses inside. */
static bool get_id(struct ibnd_parser *ps, struct scan *s, char *out, size_t outsz)
{
	const char *p;
	unsigned col;
	size_t n;

	scan_ws(s);
	col = scan_col(s);
	if (*s->p != '"')
		return text_fail(&ps->r, col, "expected a quoted node id");
	p = s->p + 1;
	n = strcspn(p, "\" \t\r\v\f#[]()");
	if (p[n] != '"')
		return text_fail(&ps->r, col, "missing closing quote");
	if (!n)
		return text_fail(&ps->r, col, "empty node id");
	if (n >= outsz)
		return text_fail(&ps->r, col, "node id too long (max %zu characters)", outsz - 1);
	memcpy(out, p, n);
	out[n] = '\0';
	s->p = p + n + 1;
	return true;
}

/* A description, up to the last quote of the line; NUL-terminated in place. */
static bool get_desc(struct ibnd_parser *ps, struct scan *s, const char **desc)
{
	char *open, *close;
	unsigned col;

	scan_ws(s);
	col = scan_col(s);
	if (*s->p != '"')
		return text_fail(&ps->r, col, "expected a quoted description");
	open = ps->r.line + (s->p - s->line);
	close = strrchr(open + 1, '"');
	if (!close)
		return text_fail(&ps->r, col, "missing closing quote");
	*close = '\0';
	*desc = open + 1;
	s->p = close + 1;
	return true;
}

/* "4xHDR", "2xNDR", "4x???", "??SDR": width and speed (0 = unknown). */
static bool get_rate(struct ibnd_parser *ps, struct scan *s, uint8_t *width, uint8_t *speed)
{
	const char *name;
	uint64_t w = 0;
	unsigned col, scol;
	size_t n;
	int rc;

	scan_ws(s);
	col = scan_col(s);
	if (*s->p == '?') {
		while (*s->p == '?')
			s->p++;
	} else {
		rc = scan_uint(s, 10, UINT8_MAX, &w);
		if (rc == -EINVAL || (*s->p != 'x' && *s->p != 'X'))
			return text_fail(&ps->r, col, "expected link width and speed (like 4xHDR)");
		if (rc == -ERANGE || !topo_width_valid((unsigned)w))
			return text_fail(&ps->r, col, "invalid link width (1x, 2x, 4x, 8x or 12x)");
		s->p++;
	}
	scol = scan_col(s);
	name = s->p;
	while (isalnum((unsigned char)*s->p) || *s->p == '?')
		s->p++;
	n = (size_t)(s->p - name);
	*width = (uint8_t)w;
	*speed = TOPO_SPEED_UNKNOWN;
	if (n && strspn(name, "?") < n) {
		*speed = (uint8_t)topo_speed_parse(name, (unsigned)(n < 64 ? n : 64));
		if (*speed == TOPO_SPEED_UNKNOWN)
			text_warn(&ps->r, scol, "unknown link speed \"%.*s\"", (int)(n < 32 ? n : 32),
				  name);
	}
	return true;
}

/* Optional "[ext N]" label (-g). */
static bool skip_ext(struct ibnd_parser *ps, struct scan *s)
{
	uint64_t n;

	if (!scan_lit(s, "[ext"))
		return true;
	return get_num(ps, s, 10, UINT32_MAX, "external port number", &n) &&
	       expect_lit(ps, s, "]");
}

/* Optional "(hexguid)". */
static bool opt_guid(struct ibnd_parser *ps, struct scan *s, uint64_t *guid)
{
	scan_ws(s);
	if (!scan_char(s, '('))
		return true;
	return get_num(ps, s, 16, UINT64_MAX, "port GUID", guid) && expect_lit(ps, s, ")");
}

/* "X-<1..16 hex digits>" -> GUID. */
static bool id_guid(const char *id, uint64_t *guid)
{
	size_t n;

	if (!isalpha((unsigned char)id[0]) || id[1] != '-')
		return false;
	n = strlen(id + 2);
	if (!n || n > 16 || strspn(id + 2, "0123456789abcdefABCDEF") != n)
		return false;
	*guid = strtoull(id + 2, NULL, 16);
	return true;
}

/* ---- attribute lines ------------------------------------------------------ */

static void parse_attr(struct ibnd_parser *ps, struct scan *s, const struct attr_kw *kw)
{
	struct ibnd_attrs *a = &ps->a;
	uint64_t v, pguid = 0;

	ps->state = REC_NONE;
	ps->seen_record = true;
	if (a->have & (1u << kw->attr)) {
		text_fail(&ps->r, 1, "%s given twice with no node header between (line %u)",
		     kw->attr == ATTR_GUID ? "node GUID" : kw->what, a->line[kw->attr]);
		return;
	}
	if (!get_num(ps, s, 16, kw->max, kw->what, &v))
		return;
	if (kw->attr == ATTR_GUID && !opt_guid(ps, s, &pguid))
		return;
	scan_ws(s);
	if (!scan_eol(s) && *s->p != '#') {
		text_fail(&ps->r, scan_col(s), "unexpected text after the %s", kw->what);
		return;
	}
	a->have |= 1u << kw->attr;
	a->line[kw->attr] = ps->r.lineno;
	switch (kw->attr) {
	case ATTR_VENDID:
		a->vendor = (uint32_t)v;
		break;
	case ATTR_DEVID:
		a->devid = (uint32_t)v;
		break;
	case ATTR_SYSGUID:
		a->sysguid = v;
		break;
	default:
		a->guid = v;
		a->pguid = pguid;
		a->guid_type = kw->type;
		break;
	}
}

/* ---- node header ---------------------------------------------------------- */

struct header {
	uint64_t nports, lid, lmc;
	unsigned idcol, lidcol;
	char id[IBND_ID_MAX];
	const char *desc;
};

/* After the id: '# "desc"' then, on switches, "enhanced port 0 lid N lmc M". */
static bool header_comment(struct ibnd_parser *ps, struct scan *s, uint8_t type,
			   struct header *h)
{
	scan_ws(s);
	if (scan_eol(s))
		return true;
	if (!scan_char(s, '#'))
		return text_fail(&ps->r, scan_col(s), "expected '#'");
	if (!get_desc(ps, s, &h->desc))
		return false;
	scan_ws(s);
	if (type != TOPO_NODE_SWITCH) {
		scan_lit(s, "(scp)");
		scan_ws(s);
		return scan_eol(s) || text_fail(&ps->r, scan_col(s), "unexpected text after the description");
	}
	if (scan_eol(s))
		return true;
	if (!scan_lit(s, "enhanced") && !scan_lit(s, "base"))
		return text_fail(&ps->r, scan_col(s), "expected 'enhanced' or 'base'");
	if (!expect_lit(ps, s, "port") || !expect_lit(ps, s, "0") || !expect_lit(ps, s, "lid"))
		return false;
	scan_ws(s);
	h->lidcol = scan_col(s);
	if (!get_num(ps, s, 10, UINT16_MAX, "LID", &h->lid) || !expect_lit(ps, s, "lmc") ||
	    !get_num(ps, s, 10, 7, "LMC", &h->lmc))
		return false;
	scan_ws(s);
	return scan_eol(s) || text_fail(&ps->r, scan_col(s), "unexpected text after the LMC");
}

/* The node GUID: the *guid= line, else the id; they must agree. */
static bool header_guid(struct ibnd_parser *ps, uint8_t type, const struct header *h,
			uint64_t *guid)
{
	const struct ibnd_attrs *a = &ps->a;
	uint64_t g = 0;
	bool have = id_guid(h->id, &g);

	if (a->have & (1u << ATTR_GUID)) {
		if (a->guid_type != type)
			return text_fail(&ps->r, 1, "%s= (line %u) does not belong to a %s record",
				    guid_kw(a->guid_type), a->line[ATTR_GUID], type_kw(type));
		if (have && g != a->guid)
			return text_fail(&ps->r, h->idcol, "node id \"%s\" does not match %s=0x%" PRIx64
				    " (line %u)", h->id, guid_kw(type), a->guid,
				    a->line[ATTR_GUID]);
		*guid = a->guid;
		return true;
	}
	if (!have)
		return text_fail(&ps->r, h->idcol, "no node GUID: no %s= line and the id is not %c-<GUID>",
			    guid_kw(type), id_prefix(type));
	*guid = g;
	return true;
}

static void parse_header(struct ibnd_parser *ps, struct scan *s, uint8_t type)
{
	struct topo_node_info ni = { .type = type };
	struct topo_port_info pi = { 0 };
	struct header h = { .desc = "" };
	struct src_loc loc;
	unsigned ncol;
	int node, rc;
	bool bad_count = false;

	ps->state = REC_SKIP;	/* until a node is declared */
	ps->seen_record = true;
	ps->nheaders++;
	scan_ws(s);
	ncol = scan_col(s);
	rc = scan_uint(s, 10, UINT32_MAX, &h.nports);
	if (rc == -EINVAL) {
		text_fail(&ps->r, ncol, "expected port count");
		goto out;
	}
	if (rc || h.nports < 1 || h.nports > TOPO_MAX_PORTS) {
		/* go on as if it had the most ports, to limit follow-up errors */
		if (rc)
			text_fail(&ps->r, ncol, "port count too large (max %u)", TOPO_MAX_PORTS);
		else
			text_fail(&ps->r, ncol, "port count %" PRIu64 " out of range (1..%u)", h.nports,
			     TOPO_MAX_PORTS);
		h.nports = TOPO_MAX_PORTS;
		bad_count = true;
	}
	scan_ws(s);
	h.idcol = scan_col(s);
	if (!get_id(ps, s, h.id, sizeof(h.id)))
		goto out;
	/* a bad comment is reported, but the node is still declared */
	if (!header_comment(ps, s, type, &h))
		h.lid = h.lmc = 0;
	if (!header_guid(ps, type, &h, &ni.guid))
		goto out;
	ni.nports = (uint8_t)h.nports;
	ni.sysguid = ps->a.sysguid;
	ni.vendor = ps->a.vendor;
	ni.devid = ps->a.devid;
	ni.desc = h.desc;
	ni.name = h.id;
	loc = text_loc(&ps->r, 1);
	node = topo_builder_add_node(ps->b, &ni, &loc);
	if (node < 0)
		goto out;
	ps->state = REC_NODE;
	ps->node = node;
	ps->type = type;
	ps->nports = (unsigned)h.nports;
	ps->nports_bad = bad_count;
	if (type == TOPO_NODE_SWITCH) {
		pi.guid = ps->a.pguid;
		pi.lid = (uint16_t)h.lid;
		pi.lmc = (uint8_t)h.lmc;
		loc = text_loc(&ps->r, h.lidcol ? h.lidcol : 1);
		topo_builder_set_port(ps->b, node, 0, &pi, &loc);
	}
out:
	memset(&ps->a, 0, sizeof(ps->a));
}

/* ---- port lines ----------------------------------------------------------- */

struct port_line {
	uint64_t port, pport, guid, pguid, lid, lmc, plid;
	unsigned pcol, ppcol, idcol, lidcol;
	uint8_t width, speed;
	char id[IBND_ID_MAX];
};

/* '[p][ext N](guid)  "peer"[pp][ext N](peer guid)' */
static bool port_ends(struct ibnd_parser *ps, struct scan *s, struct port_line *pl)
{
	scan_char(s, '[');
	scan_ws(s);
	pl->pcol = scan_col(s);
	if (!get_num(ps, s, 10, UINT32_MAX, "port number", &pl->port) || !expect_lit(ps, s, "]") ||
	    !skip_ext(ps, s) || !opt_guid(ps, s, &pl->guid))
		return false;
	scan_ws(s);
	pl->idcol = scan_col(s);
	if (!get_id(ps, s, pl->id, sizeof(pl->id)) || !expect_lit(ps, s, "["))
		return false;
	scan_ws(s);
	pl->ppcol = scan_col(s);
	return get_num(ps, s, 10, UINT32_MAX, "peer port number", &pl->pport) &&
	       expect_lit(ps, s, "]") && skip_ext(ps, s) && opt_guid(ps, s, &pl->pguid);
}

/*
 * The comment: switch '# "peer desc" lid N 4xHDR',
 * CA/router '# lid N lmc M "peer desc" lid N 4xHDR'.
 */
static bool port_comment(struct ibnd_parser *ps, struct scan *s, struct port_line *pl)
{
	const char *desc;

	scan_ws(s);
	if (scan_eol(s))
		return true;
	if (!scan_char(s, '#'))
		return text_fail(&ps->r, scan_col(s), "expected '#'");
	if (ps->type != TOPO_NODE_SWITCH) {
		if (!expect_lit(ps, s, "lid"))
			return false;
		scan_ws(s);
		pl->lidcol = scan_col(s);
		if (!get_num(ps, s, 10, UINT16_MAX, "LID", &pl->lid) || !expect_lit(ps, s, "lmc") ||
		    !get_num(ps, s, 10, 7, "LMC", &pl->lmc))
			return false;
	}
	if (!get_desc(ps, s, &desc))
		return false;
	scan_ws(s);
	if (scan_eol(s))
		return true;
	if (!expect_lit(ps, s, "lid") || !get_num(ps, s, 10, UINT16_MAX, "peer LID", &pl->plid))
		return false;
	scan_ws(s);
	return scan_eol(s) || get_rate(ps, s, &pl->width, &pl->speed);
}

static void parse_port(struct ibnd_parser *ps, struct scan *s)
{
	struct port_line pl;
	struct topo_port_info pi = { 0 };
	struct topo_ref peer = { 0 };
	struct src_loc loc;

	ps->seen_record = true;
	if (ps->state == REC_SKIP)
		return;
	if (ps->state == REC_NONE) {
		text_fail(&ps->r, scan_col(s), "port line outside a node record");
		return;
	}
	memset(&pl, 0, sizeof(pl));
	if (!port_ends(ps, s, &pl))
		return;
	if (pl.port == 0 || pl.port > ps->nports) {
		if (ps->nports_bad && pl.port > ps->nports)
			return;	/* follows from the refused port count, already reported */
		text_fail(&ps->r, pl.pcol, "port %" PRIu64 " out of range (%s has %u)", pl.port,
		     type_name(ps->type), ps->nports);
		return;
	}
	if (pl.pport == 0 || pl.pport > TOPO_MAX_PORTS) {
		text_fail(&ps->r, pl.ppcol, "peer port %" PRIu64 " out of range (1..%u)", pl.pport,
		     TOPO_MAX_PORTS);
		return;
	}
	if (!port_comment(ps, s, &pl))
		return;
	pi.width = pl.width;
	pi.speed = pl.speed;
	if (ps->type != TOPO_NODE_SWITCH) {
		pi.guid = pl.guid;
		pi.lid = (uint16_t)pl.lid;
		pi.lmc = (uint8_t)pl.lmc;
	}
	loc = text_loc(&ps->r, pl.lidcol ? pl.lidcol : pl.pcol);
	topo_builder_set_port(ps->b, ps->node, (unsigned)pl.port, &pi, &loc);
	peer.name = pl.id;
	loc = text_loc(&ps->r, pl.idcol);
	topo_builder_add_link(ps->b, ps->node, (unsigned)pl.port, &peer, (unsigned)pl.pport,
			      pl.width, pl.speed, &loc);
}

/* ---- lines ---------------------------------------------------------------- */

/* "Switch", "Ca" or "Rt" followed by a blank or the port count. */
static uint8_t header_type(struct scan *s)
{
	static const uint8_t types[] = { TOPO_NODE_SWITCH, TOPO_NODE_CA, TOPO_NODE_ROUTER };
	const char *p0 = s->p;

	for (unsigned i = 0; i < sizeof(types); i++) {
		if (!scan_lit(s, type_kw(types[i])))
			continue;
		if (isdigit((unsigned char)*s->p) || *s->p == ' ' || *s->p == '\t')
			return types[i];
		s->p = p0;
	}
	return 0;
}

/* -g section titles: "Non-Chassis Nodes", "Chassis 3 (guid 0x...)", "Hostname: x". */
static bool section_title(struct scan *s)
{
	struct scan t = *s;

	if (scan_lit(&t, "Non-Chassis Nodes") || scan_lit(&t, "Hostname:"))
		return true;
	if (!scan_lit(&t, "Chassis"))
		return false;
	scan_ws(&t);
	return isdigit((unsigned char)*t.p);
}

/*
 * An unknown line after the records is an error only if a record follows
 * it; text after the last record (a shell prompt in a captured terminal
 * log) gets a warning at the end (ibnd_read).
 */
static void flush_pending(struct ibnd_parser *ps)
{
	if (!ps->pend_line)
		return;
	diag_add(ps->r.dl, DIAG_ERROR, ps->r.fname, ps->pend_line, ps->pend_col,
		 "unknown record type \"%s\"", ps->pend_word);
	ps->pend_line = 0;
}

static void parse_line(struct ibnd_parser *ps)
{
	struct scan s;
	uint8_t type;

	scan_init(&s, ps->r.line);
	scan_ws(&s);
	if (scan_eol(&s)) {
		ps->state = REC_NONE;
		return;
	}
	if (*s.p == '#')
		return;
	if (ps->pend_line || !ps->seen_record) {
		struct scan k = s;

		if (*k.p == '[' || header_type(&k) || (k = s, section_title(&k)))
			flush_pending(ps);
		for (unsigned i = 0; ps->pend_line && i < sizeof(attr_kws) / sizeof(attr_kws[0]); i++)
			if (!strncmp(s.p, attr_kws[i].kw, strlen(attr_kws[i].kw)))
				flush_pending(ps);
	}
	if (*s.p == '[') {
		parse_port(ps, &s);
		return;
	}
	for (unsigned i = 0; i < sizeof(attr_kws) / sizeof(attr_kws[0]); i++) {
		if (scan_lit(&s, attr_kws[i].kw)) {
			parse_attr(ps, &s, &attr_kws[i]);
			return;
		}
	}
	type = header_type(&s);
	if (type) {
		parse_header(ps, &s, type);
		return;
	}
	if (section_title(&s)) {
		ps->state = REC_NONE;
		return;
	}
	if (!ps->seen_record) {
		text_warn(&ps->r, scan_col(&s), "ignoring text before the first node record");
		return;
	}
	if (!ps->pend_line) {
		ps->pend_line = ps->r.lineno;
		ps->pend_col = scan_col(&s);
		scan_word(&s, "\"#[", ps->pend_word, sizeof(ps->pend_word));
	}
	ps->state = REC_SKIP;
	memset(&ps->a, 0, sizeof(ps->a));	/* they belonged to this record */
}

/**
 * ibnd_read - read ibnetdiscover output (default or -g)
 * See the top of this file for the format and what is tolerated.
 * Return: the fabric, or NULL with errno set (EINVAL: see @dl).
 */
struct topo *ibnd_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	struct ibnd_parser ps;

	memset(&ps, 0, sizeof(ps));
	text_init(&ps.r, buf, buf ? len : 0, fname, dl);
	ps.b = topo_builder_new(dl);
	if (!ps.b) {
		diag_add(dl, DIAG_ERROR, ps.r.fname, 0, 0, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	while (text_next(&ps.r))
		parse_line(&ps);
	if (ps.pend_line)
		diag_add(dl, DIAG_WARNING, ps.r.fname, ps.pend_line, ps.pend_col,
			 "ignoring text after the last node record (\"%s\")", ps.pend_word);
	if (ps.a.have && !ps.r.failed && !diag_full(dl)) {
		unsigned first = UINT32_MAX;

		for (unsigned i = 0; i < ATTR_COUNT; i++)
			if ((ps.a.have & (1u << i)) && ps.a.line[i] < first)
				first = ps.a.line[i];
		diag_add(dl, DIAG_ERROR, ps.r.fname, first, 1,
			 "truncated record: no Switch, Ca or Rt header follows");
	}
	if (!ps.nheaders && !ps.r.failed)
		diag_add(dl, DIAG_ERROR, ps.r.fname, 0, 0, "no node records found");
	text_fini(&ps.r);
	return topo_builder_finish(ps.b);
}

/* ---- writer --------------------------------------------------------------- */

static void write_desc(FILE *fp, const char *d)
{
	fputc('"', fp);
	for (; *d; d++)
		fputc(iscntrl((unsigned char)*d) ? ' ' : *d, fp);
	fputc('"', fp);
}

static void write_id(const struct topo *t, uint32_t n, FILE *fp)
{
	fprintf(fp, "\"%c-%016" PRIx64 "\"", id_prefix(t->node_type[n]), t->node_guid[n]);
}

static void write_rate(const struct topo *t, uint32_t port, FILE *fp)
{
	unsigned w = t->port_width[port], sp = t->port_speed[port];

	if (topo_width_valid(w))
		fprintf(fp, "%ux", w);
	else
		fputs("??", fp);
	fputs(sp > TOPO_SPEED_UNKNOWN && sp < TOPO_SPEED_COUNT ? topo_speed_name(sp) : "???", fp);
}

static void write_port(const struct topo *t, uint32_t n, unsigned pn, FILE *fp)
{
	uint32_t port = topo_port(t, n, pn), rp = t->port_remote[port];
	uint32_t rn = t->port_node[rp];
	bool sw = topo_is_switch(t, n), rsw = topo_is_switch(t, rn);
	unsigned rlid = rsw ? t->port_lid[t->port_off[rn]] : t->port_lid[rp];

	fprintf(fp, "[%u]", pn);
	if (!sw)
		fprintf(fp, "(%" PRIx64 ") ", t->port_guid[port]);
	fputc('\t', fp);
	write_id(t, rn, fp);
	fprintf(fp, "[%u]", topo_port_num(t, rp));
	if (!rsw)
		fprintf(fp, "%s(%" PRIx64 ") ", sw ? "" : " ", t->port_guid[rp]);
	fputs("\t\t# ", fp);
	if (!sw)
		fprintf(fp, "lid %u lmc %u ", t->port_lid[port], t->port_lmc[port]);
	write_desc(fp, t->node_desc[rn]);
	fprintf(fp, " lid %u ", rlid);
	write_rate(t, port, fp);
	fputc('\n', fp);
}

static void write_node(const struct topo *t, uint32_t n, FILE *fp)
{
	uint8_t type = t->node_type[n];
	uint32_t p0 = t->port_off[n];

	fprintf(fp, "\nvendid=0x%x\ndevid=0x%x\n", t->node_vendor[n], t->node_devid[n]);
	if (t->node_sysguid[n])
		fprintf(fp, "sysimgguid=0x%" PRIx64 "\n", t->node_sysguid[n]);
	if (type == TOPO_NODE_SWITCH)
		fprintf(fp, "switchguid=0x%" PRIx64 "(%" PRIx64 ")\n", t->node_guid[n],
			t->port_guid[p0]);
	else
		fprintf(fp, "%s=0x%" PRIx64 "\n", guid_kw(type), t->node_guid[n]);
	fprintf(fp, "%s\t%u ", type_kw(type), t->node_nports[n]);
	write_id(t, n, fp);
	fputs("\t\t# ", fp);
	write_desc(fp, t->node_desc[n]);
	if (type == TOPO_NODE_SWITCH)
		fprintf(fp, " enhanced port 0 lid %u lmc %u", t->port_lid[p0], t->port_lmc[p0]);
	fputc('\n', fp);
	for (unsigned pn = 1; pn <= t->node_nports[n]; pn++)
		if (t->port_remote[topo_port(t, n, pn)] != TOPO_NONE)
			write_port(t, n, pn, fp);
}

/**
 * topo_write_ibnd - write @t as ibnetdiscover default output
 * Switches first, then CAs, then routers, each in GUID order; only
 * connected ports.  Return: 0, or -EIO when the stream reports an error.
 */
int topo_write_ibnd(const struct topo *t, FILE *fp)
{
	static const uint8_t order[] = { TOPO_NODE_SWITCH, TOPO_NODE_CA, TOPO_NODE_ROUTER };

	fputs("#\n# Topology file: written by ffroute (ibnetdiscover format)\n#\n", fp);
	for (unsigned k = 0; k < sizeof(order); k++)
		for (uint32_t n = 0; n < t->nnodes; n++)
			if (t->node_type[n] == order[k])
				write_node(t, n, fp);
	if (fflush(fp) || ferror(fp))
		return -EIO;
	return 0;
}

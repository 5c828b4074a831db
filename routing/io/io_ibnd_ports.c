// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_ibnd_ports.c - reader of the ibnetdiscover -p ("ports report") output.
 *
 * Format (ref/dump-formats.md section 1c): one line per port of every
 * node, whitespace-separated:
 *
 *   CA   134  1 0x7cfe9003003b4bde 4x EDR - SW  1719 10 0x7cfe9003009ce5b0 ( 'o0001 HCA-1' - 'ib-i1l1s01' )
 *   SW  2052 37 0x506b4b03005c2740 4x ???                                    'ib-i4l1s01'
 *
 * type (CA, SW or RT), LID (a switch shows its port-0 LID on every port),
 * port number, port GUID, width ("4x", "??"), speed ("EDR", "???"); then
 * either "- " and the same four fields of the peer port followed by
 * "( 'desc' - 'peer desc' )", or, for a port without a peer, only the
 * node's own description.  Descriptions are taken up to the last quote of
 * the line, so quotes inside them are harmless.
 *
 * Making nodes.  The report names ports, not nodes:
 *  - a switch shows the same GUID on every port: it is the node GUID (and
 *    port 0's GUID, as on every switch); the LID goes on port 0;
 *  - of a CA or router only the port GUID is known, so every CA/router port
 *    becomes a node of its own whose node GUID is that port GUID, with the
 *    port at its real number p (NumPorts = p) carrying the GUID and the LID
 *    (LMC unknown, 0).  A dual-port HCA thus reads as two nodes.  Grouping
 *    ports by description was rejected: unconfigured hosts share one;
 *  - NumPorts of a node is the highest port number seen for it, in its own
 *    lines and as a peer;
 *  - a node seen only as a peer (e.g. a switch outside the listed part) is
 *    made from the peer fields; SystemImageGUID, vendor and device IDs are
 *    not in the report and stay 0; nodes get no file-local name;
 *  - width/speed are kept on connected ports only (on an unconnected port
 *    they are PortInfo left-overs of a link that is down).
 * Each link is listed from both ends; the builder keeps it once.  A node
 * whose type, LID or (CA) port number differs between two lines is an
 * error at the second line.
 *
 * Two passes: parse every line into port ends (its own, and the peer's),
 * sort the ends by node GUID (stable, by line), merge each run into one
 * node, declare the nodes, then set the ports and add the links by GUID.
 * Time O(L log L), memory O(L) for L lines.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#include "base/text.h"
#include "base/util.h"

struct pend {			/* one end of a port line */
	uint64_t guid;		/* node key: the (port) GUID */
	uint32_t desc;		/* offset into the string pool */
	uint32_t seq;		/* order of appearance (stable sort) */
	uint16_t lid;
	uint8_t type, port;
	uint8_t width, speed;	/* own end of a connected line only */
	bool own;		/* the line's own end (not a peer mention) */
	int node;		/* builder handle, after merging */
	unsigned line, col;	/* of its type field */
};

struct plink {
	uint32_t a, b;		/* own end, peer end (indices into ends) */
};

struct pparser {
	struct text_reader r;
	struct topo_builder *b;
	struct pend *ends;
	uint32_t nends, capends;
	struct plink *links;
	uint32_t nlinks, caplinks;
	char *strs;
	uint32_t nstrs, capstrs;
	bool seen_record, oom;
	unsigned pend_line, pend_col;	/* an unknown line after port lines */
};

static bool grow(struct pparser *ps, void **v, uint32_t *cap, uint32_t need, size_t elem)
{
	if (!ffr_grow(v, cap, need, elem))
		return true;
	ps->oom = true;
	return text_fail(&ps->r, 0, "out of memory");
}

/* Copy [s, s+n) into the pool; returns its offset or UINT32_MAX. */
static uint32_t add_str(struct pparser *ps, const char *s, size_t n)
{
	uint32_t off = ps->nstrs;

	if (n > UINT32_MAX / 4 ||
	    !grow(ps, (void **)&ps->strs, &ps->capstrs, ps->nstrs + (uint32_t)n + 1, 1))
		return UINT32_MAX;
	memcpy(ps->strs + off, s, n);
	ps->strs[off + n] = '\0';
	ps->nstrs += (uint32_t)n + 1;
	return off;
}

/* ---- one line ------------------------------------------------------------- */

static bool get_num(struct pparser *ps, struct scan *s, int base, uint64_t max,
		    const char *what, uint64_t *out)
{
	if (!text_get_num(&ps->r, s, base, max, what, out))
		return false;
	if (*s->p && !isspace((unsigned char)*s->p))
		return text_fail(&ps->r, scan_col(s), "unexpected character after the %s", what);
	return true;
}

/* "CA|SW|RT <lid> <port> 0x<guid>" */
static bool parse_end(struct pparser *ps, struct scan *s, struct pend *e)
{
	uint64_t lid, port;
	unsigned pcol;

	scan_ws(s);
	e->line = ps->r.lineno;
	e->col = scan_col(s);
	if (scan_lit(s, "SW"))
		e->type = TOPO_NODE_SWITCH;
	else if (scan_lit(s, "CA"))
		e->type = TOPO_NODE_CA;
	else if (scan_lit(s, "RT"))
		e->type = TOPO_NODE_ROUTER;
	else
		return text_fail(&ps->r, e->col, "expected CA, SW or RT");
	if (!get_num(ps, s, 10, UINT16_MAX, "LID", &lid))
		return false;
	scan_ws(s);
	pcol = scan_col(s);
	if (!get_num(ps, s, 10, UINT32_MAX, "port number", &port))
		return false;
	if (port < 1 || port > TOPO_MAX_PORTS)
		return text_fail(&ps->r, pcol, "port %" PRIu64 " out of range (1..%u)", port,
			    TOPO_MAX_PORTS);
	if (!get_num(ps, s, 16, UINT64_MAX, "port GUID", &e->guid))
		return false;
	e->lid = lid == TOPO_LID_UNASSIGNED ? 0 : (uint16_t)lid;
	e->port = (uint8_t)port;
	return true;
}

/* "4x EDR", "4x ???", "?? ???": width and speed, 0 = unknown. */
static bool parse_rate(struct pparser *ps, struct scan *s, struct pend *e)
{
	const char *w;
	uint64_t width = 0;
	unsigned col;
	size_t n;

	scan_ws(s);
	col = scan_col(s);
	if (*s->p == '?') {
		s->p += strspn(s->p, "?");
	} else if (scan_uint(s, 10, UINT8_MAX, &width) || (*s->p != 'x' && *s->p != 'X') ||
		   !topo_width_valid((unsigned)width)) {
		return text_fail(&ps->r, col, "expected a link width (1x, 2x, 4x, 8x or 12x)");
	} else {
		s->p++;
	}
	scan_ws(s);
	col = scan_col(s);
	w = s->p;
	while (isalnum((unsigned char)*s->p) || *s->p == '?')
		s->p++;
	n = (size_t)(s->p - w);
	if (!n)
		return text_fail(&ps->r, col, "expected a link speed");
	e->width = (uint8_t)width;
	if (strspn(w, "?") < n) {
		e->speed = (uint8_t)topo_speed_parse(w, (unsigned)(n < 64 ? n : 64));
		if (e->speed == TOPO_SPEED_UNKNOWN)
			text_warn(&ps->r, col, "unknown link speed \"%.*s\"", (int)(n < 32 ? n : 32), w);
	}
	return true;
}

/*
 * From the cursor: "( 'desc' - 'peer desc' )" when @peer, else "'desc'".
 * Descriptions end at the last quote of the line.
 */
static bool parse_descs(struct pparser *ps, struct scan *s, bool peer, uint32_t *d1,
			uint32_t *d2)
{
	const char *open, *close, *sep;

	scan_ws(s);
	if (peer && !scan_char(s, '('))
		return text_fail(&ps->r, scan_col(s), "expected '('");
	scan_ws(s);
	open = s->p;
	if (*open != '\'')
		return text_fail(&ps->r, scan_col(s), "expected a quoted description");
	close = strrchr(open + 1, '\'');
	if (!close)
		return text_fail(&ps->r, scan_col(s), "missing closing quote");
	s->p = close + 1;
	scan_ws(s);
	if (peer && !scan_char(s, ')'))
		return text_fail(&ps->r, scan_col(s), "expected ')'");
	scan_ws(s);
	if (!scan_eol(s))
		return text_fail(&ps->r, scan_col(s), "unexpected text after the description");
	if (!peer) {
		*d1 = add_str(ps, open + 1, (size_t)(close - open - 1));
		return *d1 != UINT32_MAX;
	}
	sep = strstr(open + 1, "' - '");
	if (!sep || sep >= close)
		return text_fail(&ps->r, (unsigned)(open - s->line) + 1,
			    "expected 'desc' - 'peer desc'");
	*d1 = add_str(ps, open + 1, (size_t)(sep - open - 1));
	*d2 = add_str(ps, sep + 5, (size_t)(close - sep - 5));
	return *d1 != UINT32_MAX && *d2 != UINT32_MAX;
}

static void parse_line(struct pparser *ps, struct scan *s)
{
	struct pend own = { .own = true }, peer = { 0 };
	bool connected;

	if (!parse_end(ps, s, &own) || !parse_rate(ps, s, &own))
		return;
	scan_ws(s);
	connected = scan_char(s, '-');
	if (connected && !parse_end(ps, s, &peer))
		return;
	if (!parse_descs(ps, s, connected, &own.desc, &peer.desc))
		return;
	if (!connected)
		own.width = own.speed = 0;
	if (!grow(ps, (void **)&ps->ends, &ps->capends, ps->nends + 2, sizeof(*ps->ends)) ||
	    !grow(ps, (void **)&ps->links, &ps->caplinks, ps->nlinks + 1, sizeof(*ps->links)))
		return;
	own.seq = ps->nends;
	ps->ends[ps->nends++] = own;
	if (!connected)
		return;
	peer.seq = ps->nends;
	ps->ends[ps->nends++] = peer;
	ps->links[ps->nlinks].a = own.seq;
	ps->links[ps->nlinks++].b = peer.seq;
}

static void read_lines(struct pparser *ps)
{
	while (text_next(&ps->r) && !ps->oom) {
		struct scan s;

		scan_init(&s, ps->r.line);
		scan_ws(&s);
		if (scan_eol(&s) || *s.p == '#')
			continue;
		if (!scan_lit(&s, "CA") && !scan_lit(&s, "SW") && !scan_lit(&s, "RT")) {
			if (ps->seen_record && !ps->pend_line) {	/* error if a port line follows */
				ps->pend_line = ps->r.lineno;
				ps->pend_col = scan_col(&s);
			} else if (!ps->seen_record) {
				text_warn(&ps->r, scan_col(&s),
					  "ignoring text before the first port line");
			}
			continue;
		}
		if (ps->pend_line)
			diag_add(ps->r.dl, DIAG_ERROR, ps->r.fname, ps->pend_line, ps->pend_col,
				 "expected CA, SW or RT");
		ps->pend_line = 0;
		ps->seen_record = true;
		scan_init(&s, ps->r.line);
		parse_line(ps, &s);
	}
	if (ps->pend_line)	/* a shell prompt after a captured listing */
		diag_add(ps->r.dl, DIAG_WARNING, ps->r.fname, ps->pend_line, ps->pend_col,
			 "ignoring text after the last port line");
}

/* ---- nodes and links ------------------------------------------------------ */

static const char *type_name(uint8_t type)
{
	return type == TOPO_NODE_SWITCH ? "switch" : type == TOPO_NODE_ROUTER ? "router" : "CA";
}

struct end_key {
	uint64_t guid;
	uint32_t seq;		/* index into ends[], in line order */
};

static int cmp_key(const void *x, const void *y)
{
	const struct end_key *a = x, *b = y;

	if (a->guid != b->guid)
		return a->guid < b->guid ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Is @e consistent with @first, the first end of its node?  Reports if not. */
static bool same_node(struct pparser *ps, const struct pend *first, const struct pend *e)
{
	struct diag_list *dl = ps->r.dl;
	unsigned long long g = (unsigned long long)e->guid;

	if (e->type != first->type)
		diag_add(dl, DIAG_ERROR, ps->r.fname, e->line, e->col,
			 "GUID 0x%016llx is a %s here but a %s on line %u", g, type_name(e->type),
			 type_name(first->type), first->line);
	else if (e->type != TOPO_NODE_SWITCH && e->port != first->port)
		diag_add(dl, DIAG_ERROR, ps->r.fname, e->line, e->col,
			 "port GUID 0x%016llx is port %u here but port %u on line %u", g, e->port,
			 first->port, first->line);
	else if (e->lid != first->lid)
		diag_add(dl, DIAG_ERROR, ps->r.fname, e->line, e->col,
			 "%s 0x%016llx has LID %u here but LID %u on line %u", type_name(e->type),
			 g, e->lid, first->lid, first->line);
	else
		return true;
	return false;
}

/* Declare the node made of ends order[i..j) and set its ports. */
static void declare_node(struct pparser *ps, const struct end_key *order, uint32_t i,
			 uint32_t j)
{
	struct pend *first = &ps->ends[order[i].seq];
	struct topo_node_info ni = { .type = first->type, .guid = first->guid };
	struct topo_port_info pi = { 0 };
	struct src_loc loc = { ps->r.fname, first->line, first->col };
	unsigned maxport = 0;
	bool ok = true;
	int node;

	for (uint32_t k = i; k < j; k++) {
		const struct pend *e = &ps->ends[order[k].seq];

		ok = same_node(ps, first, e) && ok;
		if (e->port > maxport)
			maxport = e->port;
	}
	ni.nports = (uint8_t)maxport;
	ni.desc = ps->strs + first->desc;
	node = ok ? topo_builder_add_node(ps->b, &ni, &loc) : -EINVAL;
	for (uint32_t k = i; k < j; k++)
		ps->ends[order[k].seq].node = node;
	if (node < 0)
		return;
	pi.lid = first->lid;
	if (first->type == TOPO_NODE_SWITCH) {
		topo_builder_set_port(ps->b, node, 0, &pi, &loc);
		pi.lid = 0;
	} else {
		pi.guid = first->guid;
		topo_builder_set_port(ps->b, node, first->port, &pi, &loc);
	}
	for (uint32_t k = i; k < j; k++) {
		const struct pend *e = &ps->ends[order[k].seq];

		pi.width = e->width;
		pi.speed = e->speed;
		loc.line = e->line;
		loc.col = e->col;
		if (e->own && (e->width || e->speed))
			topo_builder_set_port(ps->b, node, e->port, &pi, &loc);
	}
}

static void build(struct pparser *ps)
{
	struct end_key *order = malloc(((size_t)ps->nends + 1) * sizeof(*order));

	if (!order) {
		text_fail(&ps->r, 0, "out of memory");
		return;
	}
	for (uint32_t i = 0; i < ps->nends; i++) {
		order[i].guid = ps->ends[i].guid;
		order[i].seq = i;
	}
	qsort(order, ps->nends, sizeof(*order), cmp_key);
	for (uint32_t i = 0, j; i < ps->nends && !diag_full(ps->r.dl); i = j) {
		for (j = i + 1; j < ps->nends && order[j].guid == order[i].guid;)
			j++;
		declare_node(ps, order, i, j);
	}
	free(order);
	for (uint32_t l = 0; l < ps->nlinks && !diag_full(ps->r.dl); l++) {
		const struct pend *a = &ps->ends[ps->links[l].a], *b = &ps->ends[ps->links[l].b];
		struct topo_ref peer = { .guid = b->guid };
		struct src_loc loc = { ps->r.fname, a->line, b->col };

		if (a->node < 0 || b->node < 0)
			continue;
		topo_builder_add_link(ps->b, a->node, a->port, &peer, b->port, a->width, a->speed,
				      &loc);
	}
}

/**
 * ibnd_ports_read - read an ibnetdiscover -p ports report
 * See the top of this file for how nodes are made from ports.
 * Return: the fabric, or NULL with errno set (EINVAL: see @dl).
 */
struct topo *ibnd_ports_read(const char *buf, size_t len, const char *fname,
			     struct diag_list *dl)
{
	struct pparser ps;
	struct topo *t;

	memset(&ps, 0, sizeof(ps));
	text_init(&ps.r, buf, buf ? len : 0, fname, dl);
	ps.b = topo_builder_new(dl);
	if (!ps.b) {
		diag_add(dl, DIAG_ERROR, ps.r.fname, 0, 0, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	read_lines(&ps);
	if (!ps.seen_record && !ps.r.failed)
		diag_add(dl, DIAG_ERROR, ps.r.fname, 0, 0, "no port lines found");
	if (!ps.oom)
		build(&ps);
	t = topo_builder_finish(ps.b);
	text_fini(&ps.r);
	free(ps.ends);
	free(ps.links);
	free(ps.strs);
	return t;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_lst.c - reader of the ".lst" subnet listing written by OpenSM
 * (opensm-subnet.lst), ibdiagnet v1 (ibdiagnet.lst) and ibdiagnet2
 * (ibdiagnet2.lst).
 *
 * Format (one line per connected port, so every link appears twice):
 *
 *   { SW-SM Ports:08 SystemGUID:<16 hex> NodeGUID:<16 hex> PortGUID:<16 hex>
 *     VenID:<hex> DevID:<hex> Rev:<hex> {<NodeDesc>} LID:<hex> PN:<hex> }
 *   { <the same for the peer port> } PHY=4x LOG=ACT SPD=2.5
 *
 * Every number is hex, in upper or lower case.  The type is SW, CA or Rt,
 * with "-SM" on the master SM's node.  Old files append "0000" to DevID
 * (a 16-bit value printed through a 32-bit byte swap); SPD is optional.
 * NodeDesc may hold spaces and braces: it ends at the first '}' that is
 * followed by "LID:".  A switch's LID is its port-0 LID.
 *
 * A node is declared on its first appearance (as either end); later
 * appearances must agree on the node type and Ports, else the line gets
 * an error at that column.  Links go to the topology builder, which keeps
 * a link seen from both ends once and reports ports cabled twice.
 *
 * Time O(L log N) for L lines and N nodes (hash lookups, then the builder's
 * sort); memory O(N + L).  Any error makes the reader return NULL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ffroute/io.h>
#include "base/text.h"

#define LST_DESC_MAX 256

/* One "{ ... }" group: a port and its node. */
struct lst_end {
	uint8_t type;
	unsigned nports, lid, pn;
	uint64_t sysguid, guid, pguid;
	uint32_t vendor, devid, rev;
	char desc[LST_DESC_MAX];
	unsigned type_col, ports_col, pn_col;
	unsigned seen;		/* bit mask of enum lst_key */
};

/* Attributes of the link after the two groups. */
struct lst_link {
	unsigned width, speed, state;
};

/* What the first appearance of a node said (indexed by builder handle). */
struct lst_node {
	uint8_t type, nports;
	unsigned line;
	uint32_t desc_hash;	/* to notice a node described two ways */
	uint64_t sysguid;
};

static uint32_t desc_hash(const char *d)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (*d)
		h = (h ^ (unsigned char)*d++) * 16777619u;
	return h;
}

struct lst_ctx {
	struct text_reader r;
	struct topo_builder *b;
	struct lst_node *nodes;
	uint32_t nnodes, cap;
};

enum lst_key {
	K_PORTS, K_SYSGUID, K_NODEGUID, K_PORTGUID, K_VENID, K_DEVID, K_REV,
	K_LID, K_PN, K_COUNT
};

static const struct {
	const char *name;
	uint64_t max;
} lst_keys[K_COUNT] = {
	[K_PORTS] = { "Ports", 0xFF },
	[K_SYSGUID] = { "SystemGUID", UINT64_MAX },
	[K_NODEGUID] = { "NodeGUID", UINT64_MAX },
	[K_PORTGUID] = { "PortGUID", UINT64_MAX },
	[K_VENID] = { "VenID", UINT32_MAX },
	[K_DEVID] = { "DevID", UINT32_MAX },
	[K_REV] = { "Rev", UINT32_MAX },
	[K_LID] = { "LID", 0xFFFF },
	[K_PN] = { "PN", 0xFF },
};

#define LST_REQUIRED ((1u << K_PORTS) | (1u << K_NODEGUID) | (1u << K_PORTGUID) | \
		      (1u << K_LID) | (1u << K_PN))

static const char *type_name(unsigned type)
{
	return type == TOPO_NODE_SWITCH ? "switch" : type == TOPO_NODE_ROUTER ? "router" : "CA";
}

/* "SW", "CA", "Rt" with an optional "-SM"; 0 if unknown. */
static uint8_t parse_type(struct scan *s)
{
	static const struct {
		const char *lit;
		uint8_t type;
	} types[] = {
		{ "SW", TOPO_NODE_SWITCH }, { "CA", TOPO_NODE_CA }, { "Rt", TOPO_NODE_ROUTER },
	};
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct scan t = *s;

		if (!scan_lit_ci(&t, types[i].lit))
			continue;
		scan_lit_ci(&t, "-SM");
		if (*t.p != ' ' && *t.p != '\t')
			continue;
		*s = t;
		return types[i].type;
	}
	return 0;
}

/* NodeDesc after '{': up to the first '}' followed by blanks and "LID:". */
static int parse_desc(struct lst_ctx *c, struct scan *s, struct lst_end *e)
{
	unsigned col = scan_col(s);
	const char *start = s->p + 1, *q = start;
	size_t n;

	for (;;) {
		struct scan t;

		q = strchr(q, '}');
		if (!q) {
			text_error(&c->r, col, "unterminated node description (no '} LID:')");
			return -EINVAL;
		}
		scan_init(&t, s->line);
		t.p = q + 1;
		scan_ws(&t);
		if (scan_lit_ci(&t, "LID:"))
			break;
		q++;
	}
	n = (size_t)(q - start);
	if (n >= sizeof(e->desc))
		n = sizeof(e->desc) - 1;	/* IB allows 64; keep a long mapped name cut */
	memcpy(e->desc, start, n);
	e->desc[n] = '\0';
	s->p = q + 1;
	return 0;
}

/* One "Key:hexvalue" field. */
static int parse_field(struct lst_ctx *c, struct scan *s, struct lst_end *e)
{
	unsigned col = scan_col(s), vcol;
	uint64_t v;
	int k, rc;

	for (k = 0; k < K_COUNT; k++) {
		struct scan t = *s;

		if (scan_lit_ci(&t, lst_keys[k].name) && scan_char(&t, ':')) {
			*s = t;
			break;
		}
	}
	if (k == K_COUNT) {
		text_error(&c->r, col, "expected a Key:value field, '{NodeDesc}' or '}'");
		return -EINVAL;
	}
	vcol = scan_col(s);
	rc = scan_uint(s, 16, lst_keys[k].max, &v);
	if (rc == -EINVAL) {
		text_error(&c->r, vcol, "%s: expected a hex number", lst_keys[k].name);
		return rc;
	}
	if (rc == -ERANGE) {
		if (k == K_PN)
			text_error(&c->r, vcol, "PN: port number does not fit in 8 bits");
		else
			text_error(&c->r, vcol, "%s: value too large", lst_keys[k].name);
		return rc;
	}
	if (*s->p && *s->p != ' ' && *s->p != '\t' && *s->p != '}' && *s->p != '\r') {
		text_error(&c->r, scan_col(s), "%s: unexpected character '%c' in a hex number",
			   lst_keys[k].name, *s->p);
		return -EINVAL;
	}
	if (e->seen & (1u << k))
		text_warn(&c->r, col, "%s given twice; the last one counts", lst_keys[k].name);
	e->seen |= 1u << k;
	switch (k) {
	case K_PORTS:
		e->nports = (unsigned)v;
		e->ports_col = vcol;
		break;
	case K_SYSGUID:
		e->sysguid = v;
		break;
	case K_NODEGUID:
		e->guid = v;
		break;
	case K_PORTGUID:
		e->pguid = v;
		break;
	case K_VENID:
		e->vendor = (uint32_t)v;
		break;
	case K_DEVID:
		/* 16-bit DeviceID printed via a 32-bit swap: "A87C0000" */
		e->devid = v > 0xFFFF && !(v & 0xFFFF) ? (uint32_t)(v >> 16) : (uint32_t)v;
		break;
	case K_REV:
		e->rev = (uint32_t)v;
		break;
	case K_LID:
		e->lid = (unsigned)v;
		break;
	default:
		e->pn = (unsigned)v;
		e->pn_col = vcol;
		break;
	}
	return 0;
}

/* One "{ TYPE Key:value ... {desc} ... }" group. */
static int parse_end(struct lst_ctx *c, struct scan *s, struct lst_end *e)
{
	unsigned open_col;

	memset(e, 0, sizeof(*e));
	scan_ws(s);
	open_col = scan_col(s);
	if (!scan_char(s, '{')) {
		text_error(&c->r, open_col, "expected '{'");
		return -EINVAL;
	}
	scan_ws(s);
	e->type_col = scan_col(s);
	e->type = parse_type(s);
	if (!e->type) {
		char w[16];

		scan_word(s, "", w, sizeof(w));
		text_error(&c->r, e->type_col, "unknown node type '%s' (expected SW, CA or Rt)", w);
		return -EINVAL;
	}
	for (;;) {
		scan_ws(s);
		if (scan_char(s, '}'))
			break;
		if (scan_eol(s)) {
			text_error(&c->r, scan_col(s), "unterminated port group (missing '}')");
			return -EINVAL;
		}
		if (*s->p == '{' ? parse_desc(c, s, e) : parse_field(c, s, e))
			return -EINVAL;
	}
	for (int k = 0; k < K_COUNT; k++) {
		if ((LST_REQUIRED & (1u << k)) && !(e->seen & (1u << k))) {
			text_error(&c->r, scan_col(s) - 1, "missing %s: field", lst_keys[k].name);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_width(const char *v)
{
	static const char *const w[] = { "1x", "2x", "4x", "8x", "12x" };
	static const int lanes[] = { 1, 2, 4, 8, 12 };

	if (!strcmp(v, "??"))
		return 0;
	for (unsigned i = 0; i < 5; i++)
		if (!strcasecmp(v, w[i]))
			return lanes[i];
	return -1;
}

static int parse_speed(const char *v)
{
	static const struct {
		const char *s;
		int speed;
	} sp[] = {
		{ "2.5", TOPO_SPEED_SDR }, { "5", TOPO_SPEED_DDR }, { "10", TOPO_SPEED_QDR },
		{ "FDR10", TOPO_SPEED_FDR10 }, { "14", TOPO_SPEED_FDR }, { "25", TOPO_SPEED_EDR },
		{ "50", TOPO_SPEED_HDR }, { "100", TOPO_SPEED_NDR }, { "200", TOPO_SPEED_XDR },
		{ "??", TOPO_SPEED_UNKNOWN },
	};
	for (unsigned i = 0; i < sizeof(sp) / sizeof(sp[0]); i++)
		if (!strcasecmp(v, sp[i].s))
			return sp[i].speed;
	return -1;
}

static int parse_state(const char *v)
{
	if (!strcasecmp(v, "ACT") || !strcasecmp(v, "ACTIVE"))
		return TOPO_PORT_ACTIVE;
	if (!strcasecmp(v, "ARM") || !strcasecmp(v, "ARMED"))
		return TOPO_PORT_ARMED;
	if (!strcasecmp(v, "INI") || !strcasecmp(v, "INIT"))
		return TOPO_PORT_INIT;
	if (!strcasecmp(v, "DWN") || !strcasecmp(v, "DOWN"))
		return TOPO_PORT_DOWN;
	return -1;
}

/* "PHY=4x LOG=ACT SPD=2.5", each part optional. */
static int parse_link(struct lst_ctx *c, struct scan *s, struct lst_link *lk)
{
	memset(lk, 0, sizeof(*lk));
	for (;;) {
		char key[16], val[16];
		unsigned col, vcol;
		int v;

		scan_ws(s);
		if (scan_eol(s))
			return 0;
		col = scan_col(s);
		scan_word(s, "=", key, sizeof(key));
		if (!scan_char(s, '=')) {
			text_error(&c->r, col, "expected PHY=, LOG= or SPD= after the port groups");
			return -EINVAL;
		}
		vcol = scan_col(s);
		scan_word(s, "", val, sizeof(val));
		if (!strcasecmp(key, "PHY")) {
			v = parse_width(val);
			lk->width = (unsigned)v;
		} else if (!strcasecmp(key, "LOG")) {
			v = parse_state(val);
			lk->state = (unsigned)v;
		} else if (!strcasecmp(key, "SPD")) {
			v = parse_speed(val);
			lk->speed = (unsigned)v;
		} else {
			text_warn(&c->r, col, "unknown link attribute '%s' ignored", key);
			continue;
		}
		if (v < 0) {
			text_error(&c->r, vcol, "bad %s value '%s'", key, val);
			return -EINVAL;
		}
	}
}

/* Handle of @e's node, declaring it on first sight; <0 on error. */
static int declare(struct lst_ctx *c, const struct lst_end *e)
{
	struct topo_node_info ni = { 0 };
	struct src_loc loc = text_loc(&c->r, e->type_col);
	int h = topo_builder_find_guid(c->b, e->guid);

	if (h >= 0) {
		const struct lst_node *n = &c->nodes[h];

		if (n->type != e->type) {
			text_error(&c->r, e->type_col,
				   "node 0x%016llx is a %s here but a %s at line %u",
				   (unsigned long long)e->guid, type_name(e->type),
				   type_name(n->type), n->line);
			return -EINVAL;
		}
		if (n->nports != e->nports) {
			text_error(&c->r, e->ports_col,
				   "node 0x%016llx has Ports:%02X here but Ports:%02X at line %u",
				   (unsigned long long)e->guid, e->nports, n->nports, n->line);
			return -EINVAL;
		}
		if (n->desc_hash != desc_hash(e->desc) || n->sysguid != e->sysguid)
			text_warn(&c->r, e->type_col, "node 0x%016llx has another %s at line %u; "
				  "the first is kept", (unsigned long long)e->guid,
				  n->sysguid != e->sysguid ? "SystemGUID" : "NodeDescription", n->line);
		return h;
	}
	ni.type = e->type;
	ni.nports = (uint8_t)e->nports;
	ni.guid = e->guid;
	ni.sysguid = e->sysguid;
	ni.vendor = e->vendor;
	ni.devid = e->devid;
	ni.rev = e->rev;
	ni.desc = e->desc;
	if (e->nports < 1 || e->nports > TOPO_MAX_PORTS)
		loc.col = e->ports_col;
	h = topo_builder_add_node(c->b, &ni, &loc);
	if (h < 0)
		return h;
	if ((uint32_t)h >= c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 256;
		struct lst_node *nn;

		while (cap <= (uint32_t)h)
			cap *= 2;
		nn = realloc(c->nodes, cap * sizeof(*nn));
		if (!nn) {
			text_error(&c->r, 0, "out of memory");
			return -ENOMEM;
		}
		c->nodes = nn;
		c->cap = cap;
	}
	c->nodes[h] = (struct lst_node){ e->type, (uint8_t)e->nports, c->r.lineno,
					 desc_hash(e->desc), e->sysguid };
	return h;
}

/* Record the port of @e (its GUID and LID; link attributes if @lk). */
static int set_port(struct lst_ctx *c, int h, const struct lst_end *e, const struct lst_link *lk)
{
	struct topo_port_info pi = { 0 };
	struct src_loc loc = text_loc(&c->r, e->pn_col);
	int rc;

	if (e->pn == 0 || e->pn > e->nports) {
		text_error(&c->r, e->pn_col, "PN:%02X out of range (%s has %u ports)", e->pn,
			   type_name(e->type), e->nports);
		return -ERANGE;
	}
	if (lk) {
		pi.width = (uint8_t)lk->width;
		pi.speed = (uint8_t)lk->speed;
		pi.state = (uint8_t)lk->state;
	}
	if (e->type != TOPO_NODE_SWITCH) {
		pi.guid = e->pguid;
		pi.lid = (uint16_t)e->lid;
		return topo_builder_set_port(c->b, h, e->pn, &pi, &loc);
	}
	rc = topo_builder_set_port(c->b, h, e->pn, &pi, &loc);
	if (rc)
		return rc;
	memset(&pi, 0, sizeof(pi));
	pi.guid = e->pguid;
	pi.lid = (uint16_t)e->lid;
	return topo_builder_set_port(c->b, h, 0, &pi, &loc);
}

static void parse_line(struct lst_ctx *c, const char *line)
{
	struct lst_end a, z;
	struct lst_link lk;
	struct scan s;
	struct topo_ref peer = { 0 };
	struct src_loc loc;
	int ha, hz;

	scan_init(&s, line);
	if (parse_end(c, &s, &a) || parse_end(c, &s, &z) || parse_link(c, &s, &lk))
		return;
	ha = declare(c, &a);
	if (ha < 0)
		return;
	hz = declare(c, &z);
	if (hz < 0 || set_port(c, ha, &a, &lk) || set_port(c, hz, &z, NULL))
		return;
	peer.guid = z.guid;
	loc = text_loc(&c->r, 1);
	topo_builder_add_link(c->b, ha, a.pn, &peer, z.pn, lk.width, lk.speed, &loc);
}

/**
 * lst_read - read an OpenSM / ibdiagnet(2) .lst subnet listing
 * @buf, @len: the whole input; @fname: name for diagnostics.
 * Return: the fabric, or NULL (errno EINVAL: errors in @dl; ENOMEM).
 */
struct topo *lst_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	struct lst_ctx c;
	struct topo *t;
	unsigned lines = 0;

	memset(&c, 0, sizeof(c));
	c.b = topo_builder_new(dl);
	if (!c.b)
		return NULL;
	text_init(&c.r, buf, len, fname, dl);
	while (text_next(&c.r)) {
		const char *p = c.r.line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || text_is_blank(p))
			continue;
		parse_line(&c, c.r.line);
		lines++;
	}
	if (!lines && !dl->nerrors)
		diag_add(dl, DIAG_WARNING, c.r.fname, 0, 0, "no port lines: empty fabric");
	text_fini(&c.r);
	free(c.nodes);
	t = topo_builder_finish(c.b);
	return t;
}

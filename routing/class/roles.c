// SPDX-License-Identifier: BSD-2-Clause
/*
 * roles.c - optional input files of the classification and the checker: role overrides, a job
 * (hosts that run together) and OpenSM's SL2VL dump.
 *
 * Role file: one "GUID ROLE [zone=Z] [rail=R]" per line; GUID is a node or
 * port GUID in hex (0x optional), ROLE one of compute, storage, mgmt, sharp,
 * other or "-" (keep the inferred role); Z and R are 0..32767.  '#' starts
 * a comment; blank lines are skipped.  A GUID given twice is an error.
 *
 * Job file: one host per line: a host name (the first word of the CAs'
 * NodeDescriptions; it names every CA of that host) or a node/port GUID
 * written 0x... (names that one CA).  '#' comments.  The result keeps the
 * file's order without duplicates.  Host lookup is a binary search in the
 * CAs sorted by host name: O((CAs + lines) log CAs).
 *
 * SL2VL dump (opensm-sl2vl.dump, written by OpenSM when QoS is on): blocks
 *   <Switch|Channel Adapter|Router> 0x<port GUID>, base LID <n>, "<desc>"
 *   #in out : 0  1  2 ... 15          (comment lines)
 *   <in> <out> : <VL of SL 0> ... <VL of SL 15>
 * A switch lists, for every cabled out-port, one row per input port; a CA
 * or router one row for its port.  The checker keeps one table per sending
 * port: for a switch out-port, the row of the lowest input port >= 1 other
 * than the out-port itself (a warning when other input ports disagree;
 * rows of input port 0 or the out-port are used only when nothing else is
 * given).  Ports not in the dump keep the identity (VL = SL).
 *
 * Every error is file:line:col in the diag list; readers keep going until
 * diag_full().  Return: 0, -EINVAL (errors recorded), -ENOMEM.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/text.h"
#include "class/class_int.h"

#define WORD_MAX 128

static const char *const role_words[CLS_ROLE_COUNT] = {
	NULL, "compute", "storage", "mgmt", "sharp", "other",
};

bool cls_at_end(struct scan *s)
{
	scan_ws(s);
	return scan_eol(s) || *s->p == '#';
}

/* ---- role file ---------------------------------------------------------------- */

static int parse_role(struct text_reader *rd, struct scan *s, int8_t *role)
{
	char w[WORD_MAX];
	unsigned col = scan_col(s);

	scan_word(s, "#", w, sizeof(w));
	if (!strcmp(w, "-")) {
		*role = -1;
		return 0;
	}
	for (int r = 1; r < CLS_ROLE_COUNT; r++)
		if (!strcmp(w, role_words[r])) {
			*role = (int8_t)r;
			return 0;
		}
	if (!w[0])
		text_error(rd, col, "expected a role (compute, storage, mgmt, sharp, other or -)");
	else
		text_error(rd, col, "unknown role '%s' (compute, storage, mgmt, sharp, other or -)",
			   w);
	return -EINVAL;
}

/* "zone=Z", "rail=R" or "level=L" */
static int parse_attr(struct text_reader *rd, struct scan *s, struct cls_override *o)
{
	static const char *const names[] = { "zone", "rail", "level" };
	int16_t *dst[] = { &o->zone, &o->rail, &o->level };
	unsigned col = scan_col(s), k;
	uint64_t v;
	int rc;

	for (k = 0; k < 3; k++) {
		char lit[8];

		snprintf(lit, sizeof(lit), "%s=", names[k]);
		if (scan_lit(s, lit))
			break;
	}
	if (k == 3) {
		char w[WORD_MAX];

		scan_word(s, "#", w, sizeof(w));
		text_error(rd, col, "unknown attribute '%s' (zone=Z, rail=R or level=L)", w);
		return -EINVAL;
	}
	if (*dst[k] >= 0) {
		text_error(rd, col, "%s given twice", names[k]);
		return -EINVAL;
	}
	col = scan_col(s);
	rc = scan_uint(s, 10, k == 2 ? 254 : 32767, &v);
	if (rc) {
		if (rc == -ERANGE)
			text_error(rd, col, "%s out of range (0..%u)", names[k], k == 2 ? 254 : 32767);
		else
			text_error(rd, col, "expected a number after %s=", names[k]);
		return -EINVAL;
	}
	if (!scan_eol(s) && !isspace((unsigned char)*s->p) && *s->p != '#') {
		text_error(rd, scan_col(s), "unexpected character '%c'", *s->p);
		return -EINVAL;
	}
	*dst[k] = (int16_t)v;
	return 0;
}

/* "/REGEX/": an extended regular expression on the NodeDescription. */
static int parse_regex(struct text_reader *rd, struct scan *s, char **out)
{
	unsigned col = scan_col(s);
	const char *b = s->p + 1, *e = strchr(b, '/');
	regex_t re;
	char *str;
	int rc;

	if (!e || e == b) {
		text_error(rd, col, e ? "empty regular expression" : "regular expression without "
			   "its closing '/'");
		return -EINVAL;
	}
	for (const char *q = b; q < e; q++)
		if (*q == '\\' && ++q < e && *q >= '1' && *q <= '9') {
			text_error(rd, col + 1 + (unsigned)(q - b), "back-reference \\%c: not "
				   "allowed (its matching time grows exponentially with the "
				   "description)", *q);
			return -EINVAL;
		}
	str = strndup(b, (size_t)(e - b));
	if (!str)
		return -ENOMEM;
	rc = regcomp(&re, str, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[96];

		regerror(rc, &re, msg, sizeof(msg));
		text_error(rd, col + 1, "bad regular expression: %s", msg);
		free(str);
		return -EINVAL;
	}
	regfree(&re);
	s->p = e + 1;
	*out = str;
	return 0;
}

int cls_parse_guid(struct text_reader *rd, struct scan *s, uint64_t *guid)
{
	unsigned col = scan_col(s);
	int rc = scan_uint(s, 16, UINT64_MAX, guid);

	if (rc) {
		text_error(rd, col, rc == -ERANGE ? "GUID has more than 16 hex digits"
			   : "expected a GUID (hex)");
		return -EINVAL;
	}
	if (!scan_eol(s) && !isspace((unsigned char)*s->p) && *s->p != '#') {
		text_error(rd, scan_col(s), "unexpected character '%c' in the GUID", *s->p);
		return -EINVAL;
	}
	if (!*guid) {
		text_error(rd, col, "GUID 0 is not valid");
		return -EINVAL;
	}
	return 0;
}

static int role_line(struct text_reader *rd, struct cls_override *o)
{
	struct scan s;
	int rc;

	scan_init(&s, rd->line);
	memset(o, 0, sizeof(*o));
	o->zone = o->rail = o->level = -1;
	o->role = -1;
	o->line = rd->lineno;
	rc = *s.p == '/' ? parse_regex(rd, &s, &o->re) : cls_parse_guid(rd, &s, &o->guid);
	if (rc)
		return rc;
	if (cls_at_end(&s)) {
		text_error(rd, scan_col(&s), "expected a role after the %s",
			   o->re ? "regular expression" : "GUID");
		goto bad;
	}
	if (parse_role(rd, &s, &o->role))
		goto bad;
	while (!cls_at_end(&s))
		if (parse_attr(rd, &s, o))
			goto bad;
	return 0;
bad:
	free(o->re);
	o->re = NULL;
	return -EINVAL;
}

struct guid_line {
	uint64_t guid;
	unsigned line;
};

static int cmp_gl(const void *a, const void *b)
{
	const struct guid_line *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* A GUID given twice: an error at its later line. */
static int role_dups(const struct cls_overrides *ov, const unsigned *lines, const char *fname,
		     struct diag_list *dl)
{
	struct guid_line *g = malloc(((size_t)ov->n + 1) * sizeof(*g));
	int rc = 0;

	if (!g)
		return -ENOMEM;
	uint32_t ng = 0;

	for (uint32_t i = 0; i < ov->n; i++)
		if (!ov->v[i].re)
			g[ng++] = (struct guid_line){ ov->v[i].guid, lines[i] };
	qsort(g, ng, sizeof(*g), cmp_gl);
	for (uint32_t i = 1; i < ng; i++)
		if (g[i].guid == g[i - 1].guid) {
			diag_add(dl, DIAG_ERROR, fname, g[i].line, 1,
				 "GUID 0x%016llx already given on line %u",
				 (unsigned long long)g[i].guid, g[i - 1].line);
			rc = -EINVAL;
		}
	free(g);
	return rc;
}

int cls_overrides_read(const char *buf, size_t len, const char *fname, struct cls_overrides *ov,
		   struct diag_list *dl)
{
	struct text_reader rd;
	unsigned *lines = NULL, nerr0 = dl->nerrors;
	uint32_t cap = 0;
	int rc = 0;

	memset(ov, 0, sizeof(*ov));
	text_init(&rd, buf, len, fname, dl);
	while (rc != -ENOMEM && text_next(&rd)) {
		struct scan s;
		struct cls_override o;
		int rc2;

		scan_init(&s, rd.line);
		if (cls_at_end(&s))
			continue;
		if ((rc2 = role_line(&rd, &o))) {
			if (rc2 == -ENOMEM)
				rc = rc2;
			continue;
		}
		if (ov->n == cap) {
			uint32_t nc = cap ? cap * 2 : 64;
			struct cls_override *nv = realloc(ov->v, nc * sizeof(*nv));
			unsigned *nl = realloc(lines, nc * sizeof(*nl));

			if (nv)
				ov->v = nv;
			if (nl)
				lines = nl;
			if (!nv || !nl) {
				free(o.re);
				rc = -ENOMEM;
				continue;
			}
			cap = nc;
		}
		lines[ov->n] = rd.lineno;
		ov->v[ov->n++] = o;
	}
	if (!rc && !rd.failed)
		rc = role_dups(ov, lines, rd.fname, dl);
	if (!rc && !rd.failed && dl->nerrors == nerr0)
		rc = cls_overrides_compile(ov);
	text_fini(&rd);
	free(lines);
	if (!rc && dl->nerrors != nerr0)
		rc = -EINVAL;
	if (rc)
		cls_overrides_free(ov);
	return rc;
}

void cls_overrides_free(struct cls_overrides *ov)
{
	cls_overrides_uncompile(ov);
	for (uint32_t i = 0; i < ov->n; i++)
		free(ov->v[i].re);
	free(ov->v);
	ov->v = NULL;
	ov->n = 0;
}

/* ---- SL2VL dump ------------------------------------------------------------------ */

struct sl2vl_ctx {
	const struct topo *t;
	uint8_t *tab;		/* [nports * 16] */
	uint8_t *have;		/* [nports]: 0 identity, 1 weak row, 2 proper row */
	uint8_t *warned;	/* [nports] */
	uint32_t node;		/* current block's node, TOPO_NONE = skip, UINT32_MAX-1 none */
	uint32_t port;		/* CA/router block: its port */
	struct chk_vlx *x;	/* every switch row, or NULL */
	int err;		/* -ENOMEM */
};

#define NO_BLOCK (TOPO_NONE - 1)

/* "<type> 0x<guid>, base LID <n>, "<desc>"" */
static void sl2vl_header(struct text_reader *rd, struct scan *s, struct sl2vl_ctx *x, bool sw)
{
	const struct topo *t = x->t;
	unsigned col;
	uint64_t guid;
	uint32_t p;

	scan_ws(s);
	col = scan_col(s);
	x->node = TOPO_NONE;
	if (!scan_lit_ci(s, "0x") || scan_uint(s, 16, UINT64_MAX, &guid) || !scan_char(s, ',')) {
		text_error(rd, col, "expected the port GUID (0x...,) after the node type");
		return;
	}
	p = topo_find_port_guid(t, guid);
	if (p == TOPO_NONE && sw && (p = topo_find_guid(t, guid)) != TOPO_NONE)
		p = topo_port(t, p, 0);
	if (p == TOPO_NONE) {
		text_warn(rd, col, "GUID 0x%016llx is not in the fabric; block ignored",
			  (unsigned long long)guid);
		return;
	}
	if (topo_is_switch(t, t->port_node[p]) != sw) {
		text_error(rd, col, "GUID 0x%016llx is %s switch in the fabric",
			   (unsigned long long)guid, sw ? "not a" : "a");
		return;
	}
	x->node = t->port_node[p];
	x->port = p;
}

/* "<in> <out> : v0 .. v15" */
static void sl2vl_row(struct text_reader *rd, struct scan *s, struct sl2vl_ctx *x)
{
	const struct topo *t = x->t;
	uint64_t in, out, v[16];
	unsigned col = scan_col(s);
	uint32_t p;
	uint8_t strength;

	if (scan_uint(s, 10, 255, &in) || !scan_ws(s) || scan_uint(s, 10, 255, &out) ||
	    (scan_ws(s), !scan_char(s, ':'))) {
		text_error(rd, col, "expected \"<in port> <out port> :\"");
		return;
	}
	for (int i = 0; i < 16; i++) {
		int rc;

		scan_ws(s);
		col = scan_col(s);
		rc = scan_uint(s, 10, 15, &v[i]);
		if (rc == -ERANGE) {
			text_error(rd, col, "VL out of range (0..15)");
			return;
		}
		if (rc) {
			text_error(rd, col, "expected 16 VLs (SL 0..15), got %d", i);
			return;
		}
	}
	if (!cls_at_end(s)) {
		text_error(rd, scan_col(s), "more than 16 VLs");
		return;
	}
	if (x->node == TOPO_NONE)
		return;
	if (topo_is_switch(t, x->node)) {
		if (out > t->node_nports[x->node] || in > t->node_nports[x->node]) {
			text_error(rd, 1, "port %llu out of range (switch has %u)",
				   (unsigned long long)(out > in ? out : in), t->node_nports[x->node]);
			return;
		}
		p = topo_port(t, x->node, (unsigned)out);
		strength = in >= 1 && in != out ? 2 : 1;
		if (x->x) {
			uint8_t row[16];

			for (int i = 0; i < 16; i++)
				row[i] = (uint8_t)v[i];
			if (chk_vlx_add(x->x, topo_port(t, x->node, (unsigned)in), p, row))
				x->err = -ENOMEM;
		}
	} else {
		p = x->port;
		strength = 2;
	}
	if (x->have[p] > strength)
		return;
	if (x->have[p] == 2) {
		for (int i = 0; i < 16 && !x->x; i++)
			if (x->tab[(size_t)p * 16 + i] != v[i] && !x->warned[p]) {
				x->warned[p] = 1;
				text_warn(rd, 1, "SL2VL of out-port %llu differs by input port; "
					  "the table of the first input port is used",
					  (unsigned long long)out);
			}
		return;
	}
	for (int i = 0; i < 16; i++)
		x->tab[(size_t)p * 16 + i] = (uint8_t)v[i];
	x->have[p] = strength;
}

static void sl2vl_line(struct text_reader *rd, struct sl2vl_ctx *x)
{
	struct scan s;

	scan_init(&s, rd->line);
	if (cls_at_end(&s))
		return;
	if (scan_lit(&s, "Switch"))
		sl2vl_header(rd, &s, x, true);
	else if (scan_lit(&s, "Channel Adapter") || scan_lit(&s, "Router"))
		sl2vl_header(rd, &s, x, false);
	else if (x->node == NO_BLOCK)
		text_error(rd, scan_col(&s), "SL2VL row before any node header");
	else
		sl2vl_row(rd, &s, x);
}

/* Keep only the rows that differ from their output port's base row. */
static void drop_base_rows(const uint8_t *tab, struct chk_vlx *x)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < x->n; i++) {
		uint32_t out = (uint32_t)(x->v[i].key >> 32);

		if (memcmp(x->v[i].vl, tab + (size_t)out * 16, 16))
			x->v[m++] = x->v[i];
	}
	x->n = m;
	chk_vlx_sort(x);
}

int chk_sl2vl_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		   uint8_t **sl2vl, struct chk_vlx *vx, struct diag_list *dl)
{
	struct sl2vl_ctx x = { t, NULL, NULL, NULL, NO_BLOCK, TOPO_NONE, vx, 0 };
	struct text_reader rd;
	unsigned nerr0 = dl->nerrors;
	size_t np = (size_t)t->nports + 1;
	int rc = 0;

	*sl2vl = NULL;
	x.tab = malloc(np * 16);
	x.have = calloc(np, 1);
	x.warned = calloc(np, 1);
	if (!x.tab || !x.have || !x.warned) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < np * 16; i++)
		x.tab[i] = (uint8_t)(i % 16);
	text_init(&rd, buf, len, fname, dl);
	while (text_next(&rd))
		sl2vl_line(&rd, &x);
	text_fini(&rd);
	if (x.err || dl->nerrors != nerr0) {
		rc = x.err ? x.err : -EINVAL;
		goto out;
	}
	if (vx)
		drop_base_rows(x.tab, vx);
	*sl2vl = x.tab;
	x.tab = NULL;
out:
	if (rc && vx)
		chk_vlx_free(vx);
	free(x.tab);
	free(x.have);
	free(x.warned);
	return rc;
}

/* ---- overrides against a fabric --------------------------------------------------- */

int cls_overrides_check(const struct topo *t, const struct cls_overrides *ov, const char *fname,
			struct diag_list *dl)
{
	cls_overrides_reserve(ov, t->nnodes);
	for (uint32_t i = 0; ov && i < ov->n; i++) {
		const struct cls_override *o = &ov->v[i];
		uint32_t n = TOPO_NONE, hits = 0;

		if (o->re) {
			for (uint32_t k = 0; k < t->nnodes && !hits; k++) {
				const uint8_t *m = cls_overrides_match(ov, t->node_desc[k]);

				hits += !m || (o->re_idx >= 0 && (m[o->re_idx / 8] >> (o->re_idx % 8) & 1));
			}
			if (!hits)
				diag_add(dl, DIAG_WARNING, fname, o->line, 1,
					 "/%s/ matches no NodeDescription: override unused", o->re);
			continue;
		}
		n = topo_find_guid(t, o->guid);
		if (n == TOPO_NONE) {
			uint32_t p = topo_find_port_guid(t, o->guid);

			n = p == TOPO_NONE ? TOPO_NONE : t->port_node[p];
		}
		if (n == TOPO_NONE)
			diag_add(dl, DIAG_WARNING, fname, o->line, 1,
				 "GUID 0x%016llx is not in the fabric: override unused",
				 (unsigned long long)o->guid);
		else if (topo_is_switch(t, n) && o->role >= 0)
			diag_add(dl, DIAG_WARNING, fname, o->line, 1,
				 "GUID 0x%016llx is a switch: its role is not changed",
				 (unsigned long long)o->guid);
	}
	return 0;
}

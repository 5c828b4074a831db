// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_net.c - ibsim .net topology reader: the lines (the links and the
 * fabric they make are io_net_link.c; the writer is io_net_write.c).
 *
 * Format: ibsim's net file (ibsim/sim_net.c, the installed 0.10 is the
 * reference; see ref/dump-formats.md section 2), which is also a superset of
 * ibnetdiscover output.  Lines are matched at column 1 only:
 *   Switch|Hca|Ca|Rt <nports> "id" [# "NodeDescription" ...]   node record
 *   [p] "peer"[pp] [w=M] [s=M] [e=M] [# ... lid N <W>x<SPEED>]   port line
 *   @[p] "alias"                                                   alias
 *   switchguid|caguid|hcaguids|rtguid =G or +G, sysimgguid=, vendid=,
 *   devid=, width=, speed=, extspeed=, module="prefix"
 * The reader reproduces what ibsim 0.10 builds (checked against the binary):
 *   - node GUIDs come from per-type counters (CA 0x100000, switch 0x200000,
 *     router 0); a switch takes one GUID, a CA/router 1 + NumPorts, and CA
 *     port p has GUID node + p (ibsim ignores the "(portguid)" of
 *     ibnetdiscover input; like ibnetdiscover and OpenSM we only give
 *     cabled ports a GUID); "=" sets a counter, "+" adds to the last "=";
 *   - the NodeDescription is the "# "..."" comment cut to 63 bytes, else
 *     the node id; the system GUID is sysimgguid= (next node only) or the
 *     node GUID; vendid= applies to the next node, devid= until changed;
 *   - a record reads at most NumPorts port lines; the first other line ends
 *     it and is swallowed; every link must be listed from both ends (or
 *     through an alias);
 *   - each port has enabled masks (width=/speed=/extspeed= defaults 4x,
 *     SDR, none; then w=/s=/e=; then an ibnetdiscover "lid N 4xHDR"
 *     comment); a link comes up at the best width/speed of the AND of its
 *     two ends: 12x>8x>4x>2x>1x, HDR>EDR>FDR>FDR10>QDR>DDR>SDR.
 * LIDs are not kept: ibsim ignores them (OpenSM assigns LIDs), so every
 * port of the result has LID 0.  Port states are left unknown.
 * Things ibsim does differently are errors here rather than crashes or
 * aborts: "include" and "do" are refused; problems ibsim would silently
 * mis-parse (over-long lines, swallowed lines) are warnings.
 *
 * Complexity: O(B + P) time for B input bytes and P ports (hashed id and
 * alias lookups), memory ~32 B per port plus the id strings.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ffroute/io.h>

#include "base/text.h"

#include "io/io_net.h"
#include "base/util.h"

#include "io/io_net_int.h"

/* ---- storage --------------------------------------------------------------- */

static bool grow(struct net_parser *np, void **v, uint32_t *cap, uint64_t need, size_t elem)
{
	if (!ffr_grow(v, cap, need, elem))
		return true;
	if (!np->oom)
		text_error(&np->r, 0, "out of memory");
	np->oom = true;
	return false;
}

/* Store @n bytes of @s as a string; NO_STR on failure. */
static uint32_t add_strn(struct net_parser *np, const char *s, size_t n)
{
	uint32_t off = np->nstr;

	if (n > 4096 || !grow(np, (void **)&np->str, &np->capstr, (uint64_t)np->nstr + n + 1, 1))
		return NO_STR;
	memcpy(np->str + off, s, n);
	np->str[off + n] = '\0';
	np->nstr += (uint32_t)n + 1;
	return off;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static uint32_t smap_slot(const struct net_parser *np, const struct smap *m, const char *s)
{
	uint32_t j = (uint32_t)hash_str(s) & (m->cap - 1);

	while (m->key[j] != NO_STR && strcmp(np->str + m->key[j], s))
		j = (j + 1) & (m->cap - 1);
	return j;
}

uint32_t net_smap_get(const struct net_parser *np, const struct smap *m, const char *s)
{
	uint32_t j;

	if (!m->cap)
		return NO_IDX;
	j = smap_slot(np, m, s);
	return m->key[j] == NO_STR ? NO_IDX : m->val[j];
}

/* Insert string offset @key (not present yet) with @val. */
static bool smap_put(struct net_parser *np, struct smap *m, uint32_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap) {
		uint32_t ncap = m->cap ? m->cap * 2 : 256, *ok = m->key, *ov = m->val;

		m->key = malloc(ncap * sizeof(*m->key));
		m->val = malloc(ncap * sizeof(*m->val));
		if (!m->key || !m->val || ncap > UINT32_MAX / 4) {
			free(m->key);
			free(m->val);
			m->key = ok;
			m->val = ov;
			np->oom = true;
			text_error(&np->r, 0, "out of memory");
			return false;
		}
		memset(m->key, 0xff, ncap * sizeof(*m->key));
		m->cap = ncap;
		for (uint32_t i = 0; ok && i < ncap / 2; i++) {
			uint32_t j;

			if (ok[i] == NO_STR)
				continue;
			j = smap_slot(np, m, np->str + ok[i]);
			m->key[j] = ok[i];
			m->val[j] = ov[i];
		}
		free(ok);
		free(ov);
	}
	uint32_t j = smap_slot(np, m, np->str + key);

	m->key[j] = key;
	m->val[j] = val;
	m->n++;
	return true;
}

/* ---- lexical helpers ------------------------------------------------------- */

static unsigned col_of(const char *line, const char *p)
{
	return (unsigned)(p - line) + 1;
}

/*
 * strtoull(p, &end, @base) for base 0 (0x hex, 0 octal, else decimal) or
 * 16, without its traps: leading blanks and '+' are skipped.  Return 0,
 * -EINVAL (no digits; *end = p), -ERANGE (overflow), -EDOM (a minus sign).
 */
static int c_strtoull(const char *p, unsigned base, const char **end, uint64_t *out)
{
	const char *q = p;
	unsigned d;
	uint64_t v = 0;
	bool ovf = false;

	*end = p;
	*out = 0;
	while (isspace((unsigned char)*q))
		q++;
	if (*q == '-')
		return -EDOM;
	if (*q == '+')
		q++;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && isxdigit((unsigned char)q[2])) {
		base = 16;
		q += 2;
	} else if (base == 0) {
		base = q[0] == '0' ? 8 : 10;
	}
	if (!isdigit((unsigned char)*q) && base != 16)
		return -EINVAL;
	for (;; q++) {
		if (isdigit((unsigned char)*q))
			d = (unsigned)(*q - '0');
		else if (isxdigit((unsigned char)*q))
			d = (unsigned)(tolower((unsigned char)*q) - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			ovf = true;
		v = v * base + d;
	}
	*end = q;
	*out = v;
	return ovf ? -ERANGE : 0;
}

/* Decimal digits after optional blanks (atoi without sign); -1 if none, -2 if huge. */
static long dec_num(const char *p, const char **end)
{
	long v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '+')
		p++;
	if (!isdigit((unsigned char)*p)) {
		*end = p;
		return -1;
	}
	for (; isdigit((unsigned char)*p); p++)
		v = v > 100000 ? v : v * 10 + (*p - '0');
	*end = p;
	return v > 100000 ? -2 : v;
}

/* Report the result of c_strtoull() for a field; true if usable. */
static bool num_ok(struct net_parser *np, int rc, const char *line, const char *at,
		   const char *what)
{
	if (rc == 0)
		return true;
	text_error(&np->r, col_of(line, at), rc == -ERANGE ? "%s: number too large" :
		   rc == -EDOM ? "%s: negative number" : "%s: expected a number", what);
	return false;
}

/* The first quoted string of @s: its contents run from *b up to *e. */
static bool find_quoted(const char *s, const char **b, const char **e)
{
	const char *q = strchr(s, '"');

	if (!q || !(*e = strchr(q + 1, '"')))
		return false;
	*b = q + 1;
	return true;
}

/* "prefix#base" (or base) cut to NET_ID_MAX bytes, as ibsim builds ids. */
static uint32_t make_id(struct net_parser *np, const char *b, size_t n, bool use_prefix)
{
	char buf[NET_ID_MAX + NET_PREFIX_MAX + 8];
	size_t k = 0;

	if (use_prefix && np->prefix[0] && !memchr(b, '#', n)) {
		k = strlen(np->prefix);
		memcpy(buf, np->prefix, k);
		buf[k++] = '#';
	}
	if (n > NET_ID_MAX)
		n = NET_ID_MAX;
	memcpy(buf + k, b, n);
	k += n;
	if (k > NET_ID_MAX)
		k = NET_ID_MAX;
	return add_strn(np, buf, k);
}

/* ---- node records ---------------------------------------------------------- */

/* The NodeDescription of a header, as ibsim's parse_node_desc() finds it. */
static void header_desc(const char *rest, const char **b, size_t *n)
{
	static const char *const cuts[] = { " enhanced port ", " base port ", " lid ", " lmc " };
	const char *s = strchr(rest, '#'), *e;

	*b = NULL;
	*n = 0;
	if (!s)
		return;
	for (s++; isspace((unsigned char)*s); s++)
		;
	if (*s == '"') {
		s++;
		e = strchr(s, '"');
	} else {
		e = NULL;
		for (unsigned i = 0; i < 4 && !e; i++)
			e = strstr(s, cuts[i]);
	}
	*b = s;
	*n = e ? (size_t)(e - s) : strlen(s);
}

/* The port count: first digits at or after @skip, read by strtoul(.., 0). */
static int header_nports(struct net_parser *np, const char *line, size_t skip)
{
	const char *p = line + (skip < strlen(line) ? skip : strlen(line)), *p0 = p, *end, *q;
	uint64_t v;
	int rc;

	while (*p && !isdigit((unsigned char)*p))
		p++;
	q = strchr(line, '"');
	if (!*p) {
		text_error(&np->r, col_of(line, p0), "missing port count");
		return -1;
	}
	rc = c_strtoull(p, 0, &end, &v);
	if (!num_ok(np, rc, line, p, "port count"))
		return -1;
	if (v < 1 || v > TOPO_MAX_PORTS) {
		text_error(&np->r, col_of(line, p), "port count %llu out of range (1..%u)",
			   (unsigned long long)v, TOPO_MAX_PORTS);
		return -1;
	}
	if (q && q < p)
		text_warn(&np->r, col_of(line, p),
			  "port count %u taken from inside the node id (as ibsim does)",
			  (unsigned)v);
	return (int)v;
}

static bool header_id(struct net_parser *np, const char *line, const char **b, const char **e)
{
	const char *q = strchr(line, '"');

	if (!find_quoted(line, b, e)) {
		text_error(&np->r, q ? col_of(line, q) : (unsigned)strlen(line) + 1,
			   q ? "unterminated node id" : "missing node id (\"...\")");
		return false;
	}
	if (*b == *e || memchr(*b, '#', (size_t)(*e - *b)) || memchr(*b, '@', (size_t)(*e - *b))) {
		text_error(&np->r, col_of(line, *b - 1), *b == *e ? "empty node id" :
			   "node id may not contain '#' or '@' (reserved by ibsim)");
		return false;
	}
	if ((size_t)(*e - *b) > NET_ID_MAX)
		text_warn(&np->r, col_of(line, *b), "node id longer than %u bytes; ibsim cuts it",
			  NET_ID_MAX);
	return true;
}

/* Allocate the node and its ports with the defaults of the moment. */
static bool node_new(struct net_parser *np, uint8_t type, unsigned nports, uint32_t id,
		     const char *d, size_t dn, unsigned col)
{
	struct nnode *n;

	if ((uint64_t)np->nports + nports > NET_MAX_PORTS) {
		text_error(&np->r, 1, "fabric too large (more than %u ports)", NET_MAX_PORTS);
		return false;
	}
	if (!grow(np, (void **)&np->nodes, &np->capnodes, (uint64_t)np->nnodes + 1, sizeof(*n)) ||
	    !grow(np, (void **)&np->ports, &np->capports, (uint64_t)np->nports + nports,
		  sizeof(*np->ports)))
		return false;
	if (dn > NET_DESC_MAX) {
		text_warn(&np->r, col, "NodeDescription longer than %u bytes; ibsim cuts it",
			  NET_DESC_MAX);
		dn = NET_DESC_MAX;
	}
	n = &np->nodes[np->nnodes];
	memset(n, 0, sizeof(*n));
	n->id = id;
	if (d && dn) {
		n->desc = add_strn(np, d, dn);
	} else {
		char buf[NET_DESC_MAX + 1];	/* the id, cut as a description */

		snprintf(buf, sizeof(buf), "%s", np->str + id);
		n->desc = strlen(np->str + id) > NET_DESC_MAX ? add_strn(np, buf, NET_DESC_MAX) : id;
	}
	n->type = type;
	n->nports = (uint8_t)nports;
	n->line = np->r.lineno;
	n->col = col;
	n->guid = np->guid[type];
	n->sysguid = np->sysimgguid ? np->sysimgguid : n->guid;
	n->vendor = np->vendid;
	n->devid = np->devid;
	np->guid[type] += type == TOPO_NODE_SWITCH ? 1 : nports + 1u;
	np->sysimgguid = 0;
	np->vendid = 0;
	n->pbase = np->nports;
	for (unsigned i = 0; i < nports; i++) {
		struct nport *p = &np->ports[np->nports + i];

		memset(p, 0, sizeof(*p));
		p->node = np->nnodes;
		p->rid = p->alias = p->ralias = NO_STR;
		p->peer = NO_IDX;
		p->w = np->width;
		p->s = np->speed;
		p->e = np->extspeed;
	}
	np->nports += nports;
	if (n->desc == NO_STR || !smap_put(np, &np->ids, id, np->nnodes))
		return false;
	np->nnodes++;
	return true;
}

static void net_header(struct net_parser *np, const char *line, uint8_t type, size_t skip)
{
	const char *b, *e, *d;
	size_t dn;
	int nports;
	uint32_t id, other;

	np->skipping = true;
	np->cur = NO_IDX;
	nports = header_nports(np, line, skip);
	if (!header_id(np, line, &b, &e) || nports < 0)
		return;
	id = make_id(np, b, (size_t)(e - b), true);
	if (id == NO_STR)
		return;
	other = net_smap_get(np, &np->ids, np->str + id);
	if (other != NO_IDX) {
		text_error(&np->r, col_of(line, b - 1), "duplicate node id \"%s\" (line %u)",
			   np->str + id, np->nodes[other].line);
		return;
	}
	if (!np->guid[type]) {
		static const char *const what[] = { "", "CA", "switch", "router" };
		static const char *const set[] = { "", "caguid", "switchguid", "rtguid" };

		text_error(&np->r, 1, "%s GUID is 0%s: set %s= before it", what[type],
			   type == TOPO_NODE_ROUTER ? " (ibsim's default router GUID base)" : "",
			   set[type]);
		return;
	}
	if (type != TOPO_NODE_SWITCH && np->guid[type] > UINT64_MAX - (unsigned)nports) {
		/* ibsim gives port p the GUID node + p: it would pass 0xffff... and wrap */
		text_error(&np->r, col_of(line, b - 1), "port GUIDs of \"%s\" (0x%016llx + port) "
			   "wrap past 0xffffffffffffffff", np->str + id,
			   (unsigned long long)np->guid[type]);
		return;
	}
	header_desc(e + 1, &d, &dn);
	if (!node_new(np, type, (unsigned)nports, id, d, dn, col_of(line, b - 1)))
		return;
	np->skipping = false;
	np->cur = np->nnodes - 1;
	np->left = (unsigned)nports;
}

/* ---- port lines ------------------------------------------------------------ */

/* w=/s=/e= anywhere after the remote id, found the way ibsim finds them. */
static void port_opts(struct net_parser *np, struct nport *p, const char *line, const char *s)
{
	static const struct { char c; uint64_t lo, hi; const char *what; } opt[] = {
		{ 'w', 1, 31, "link width mask w=%llu out of range (1..31)" },
		{ 's', 1, 7, "link speed mask s=%llu out of range (1..7)" },
		{ 'e', 0, 7, "extended speed mask e=%llu out of range (0..7; ibsim 0.10 knows no NDR)" },
	};
	const char *q = s, *o, *end;

	while (*q && (q = strchr(q + 1, '='))) {
		uint64_t v;
		int rc;

		for (o = q; o > line && !isalpha((unsigned char)*o); o--)
			;
		for (unsigned i = 0; i < 3; i++) {
			if (*o != opt[i].c)
				continue;
			rc = c_strtoull(q + 1, 0, &end, &v);
			if (rc == -EINVAL)
				rc = 0;	/* ibsim reads no digits as 0 */
			if (!num_ok(np, rc, line, q + 1, "port option"))
				break;
			if (v < opt[i].lo || v > opt[i].hi) {
				text_error(&np->r, col_of(line, o), opt[i].what, (unsigned long long)v);
				break;
			}
			if (i == 0)
				p->w = (uint8_t)v;
			else if (i == 1)
				p->s = (uint8_t)v;
			else
				p->e = (uint8_t)v;
		}
	}
}

/* ibnetdiscover's trailing "lid N <W>x<SPEED>" (switch and CA ports only). */
static void port_conn(struct net_parser *np, struct nport *p, const char *line, const char *s)
{
	static const struct { const char *name; uint8_t s, e, m; bool keep_e; } sp[] = {
		{ "SDR", S_SDR, 0, 0, true }, { "DDR", S_SDR | S_DDR, 0, 0, true },
		{ "QDR", 7, 0, 0, true }, { "FDR", 7, E_FDR, 1, false },
		{ "EDR", 7, E_FDR | E_EDR, 1, false }, { "HDR", 7, 7, 1, false },
		{ "FDR10", 7, 0, 1, true },
	};
	const char *lq = strrchr(s, '"'), *l, *q, *t;
	long w;
	size_t n;

	l = strstr(lq ? lq : s, "lid");
	if (!l)
		return;
	q = l + 3;
	while (isspace((unsigned char)*q))
		q++;
	if (*q == '-' || *q == '+')
		q++;
	if (!isdigit((unsigned char)*q))
		return;
	while (isdigit((unsigned char)*q))
		q++;
	w = dec_num(q, &t);
	if (w < 0 || *t != 'x')
		return;
	for (t++; isspace((unsigned char)*t); t++)
		;
	for (n = 0; t[n] && !isspace((unsigned char)t[n]) && n < 9; n++)
		;
	if (!n)
		return;
	if (w == 12 || w == 8 || w == 4 || w == 1 || w == 2)
		p->w = w == 12 ? W_1X | W_4X | W_12X : w == 8 ? W_8X : w == 4 ? W_1X | W_4X :
		       w == 1 ? W_1X : W_2X;
	else
		text_warn(&np->r, col_of(line, l), "ibsim cannot parse link width %ldx", w);
	for (unsigned i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
		if (n > strlen(sp[i].name) || strncmp(t, sp[i].name, n))
			continue;
		p->s = sp[i].s;
		p->m = sp[i].m;
		if (!sp[i].keep_e)
			p->e = sp[i].e;
		return;
	}
	text_warn(&np->r, col_of(line, t), "ibsim 0.10 cannot parse link speed \"%.*s\"; "
		  "the port keeps its enabled speeds", (int)n, t);
}

/* Remote end of a non-alias port line; false on error. */
static bool port_remote(struct net_parser *np, struct nport *p, const char *line,
			const char *b, const char *e)
{
	const char *end;
	long rp;

	if (memchr(b, '@', (size_t)(e - b))) {
		char key[NET_ID_MAX + NET_PREFIX_MAX + 8];
		size_t k = 0, n = (size_t)(e - b);
		uint32_t a, np2;

		if (*b == '@') {
			k = strlen(np->prefix);
			memcpy(key, np->prefix, k);
		}
		memcpy(key + k, b, n > NET_ID_MAX ? NET_ID_MAX : n);
		k += n > NET_ID_MAX ? NET_ID_MAX : n;
		key[k > NET_ID_MAX ? NET_ID_MAX : k] = '\0';
		a = net_smap_get(np, &np->aliases, key);
		if (a == NO_IDX) {
			text_error(&np->r, col_of(line, b - 1),
				   "unknown alias \"%.*s\" (define it with @[port] before use)",
				   (int)n, b);
			return false;
		}
		np2 = np->ports[a].node;
		p->ralias = add_strn(np, b, n > NET_ALIAS_MAX + 1 ? NET_ALIAS_MAX + 1 : n);
		p->rid = np->nodes[np2].id;
		p->rport = (uint8_t)(a - np->nodes[np2].pbase + 1);
		return p->ralias != NO_STR;
	}
	p->ralias = NO_STR;
	p->rid = make_id(np, b, (size_t)(e - b), true);
	if (p->rid == NO_STR)
		return false;
	if (e[1] != '[') {
		const char *t = e + 1;

		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '[')
			text_warn(&np->r, col_of(line, t),
				  "blank before the remote port: ibsim ignores it and uses port 1");
		p->rport = 1;
		return true;
	}
	rp = dec_num(e + 2, &end);
	if (rp == -1) {
		text_error(&np->r, col_of(line, e + 2), "expected a remote port number");
		return false;
	}
	if (rp < 1 || rp > TOPO_MAX_PORTS) {
		if (rp == -2)
			text_error(&np->r, col_of(line, e + 2), "remote port number too large");
		else
			text_error(&np->r, col_of(line, e + 2), "remote port %ld out of range (1..%u)",
				   rp, TOPO_MAX_PORTS);
		return false;
	}
	p->rport = (uint8_t)rp;
	return true;
}

/* "@[p] "alias"": the port can be named as "@alias" by one peer. */
static bool port_alias(struct net_parser *np, struct nport *p, const char *line,
		       const char *b, const char *e)
{
	char key[NET_PREFIX_MAX + NET_ALIAS_MAX + 4];
	uint32_t k;

	if (memchr(b, '#', (size_t)(e - b)) || memchr(b, '@', (size_t)(e - b))) {
		text_error(&np->r, col_of(line, b - 1),
			   "alias may not contain '#' or '@' (reserved by ibsim)");
		return false;
	}
	snprintf(key, NET_ALIAS_MAX + 1, "%s@%.*s", np->prefix,
		 (int)((size_t)(e - b) > NET_ALIAS_MAX ? NET_ALIAS_MAX : (size_t)(e - b)), b);
	if (net_smap_get(np, &np->aliases, key) != NO_IDX) {
		text_error(&np->r, col_of(line, b - 1), "alias \"%s\" is already defined", key);
		return false;
	}
	k = add_strn(np, key, strlen(key));
	if (k == NO_STR || !smap_put(np, &np->aliases, k, (uint32_t)(p - np->ports)))
		return false;
	p->alias = k;
	return true;
}

static void net_port_line(struct net_parser *np, const char *line)
{
	struct nnode *n = &np->nodes[np->cur];
	bool isalias = line[0] == '@';
	const char *s = line + isalias, *b, *e, *end, *g;
	struct nport *p;
	long pn;

	pn = s[0] == '[' ? dec_num(s + 1, &end) : -1;
	if (pn < 0 || *end != ']') {
		text_error(&np->r, col_of(line, s), "expected \"[port]\"");
		return;
	}
	if (pn < 1 || pn > n->nports) {
		text_error(&np->r, col_of(line, s + 1), "port %ld out of range (\"%s\" has %u ports)",
			   pn, np->str + n->id, n->nports);
		return;
	}
	p = &np->ports[n->pbase + (uint32_t)pn - 1];
	g = end + 1;
	if (!find_quoted(line, &b, &e)) {
		const char *q = strchr(line, '"');

		text_error(&np->r, q ? col_of(line, q) : (unsigned)strlen(line) + 1,
			   q ? "unterminated remote node id" : "missing remote node id (\"...\")");
		return;
	}
	if (p->line && !isalias)
		text_warn(&np->r, 1, "port %ld of \"%s\" listed again (line %u); the last line wins",
			  pn, np->str + n->id, p->line);
	if (isalias ? !port_alias(np, p, line, b, e) : !port_remote(np, p, line, b, e)) {
		if (!isalias)
			p->rid = p->ralias = NO_STR;
		return;
	}
	if (!isalias) {
		p->line = np->r.lineno;
		p->col = col_of(line, b - 1);
	}
	port_opts(np, p, line, e + 1);
	if (n->type != TOPO_NODE_ROUTER)
		port_conn(np, p, line, e + 1);
	if (!isalias && n->type != TOPO_NODE_SWITCH && g[0] == '(') {
		/* ibnetdiscover's "[p](portguid)": ibsim ignores it */
		uint64_t v;

		if (c_strtoull(g + 1, 16, &end, &v) == 0 && *end == ')' &&
		    v != n->guid + (uint64_t)pn && !np->pguid_diff++)
			np->pguid_line = np->r.lineno;
	}
	np->left--;
}

/* ---- global assignments ---------------------------------------------------- */

static void net_guidbase(struct net_parser *np, const char *line, uint8_t type)
{
	const char *s = strchr(line, '='), *end;
	bool rel = false;
	uint64_t v;

	if (!s && (s = strchr(line, '+')))
		rel = true;
	if (!s) {
		text_error(&np->r, (unsigned)strlen(line) + 1, "expected '=' or '+'");
		return;
	}
	if (!num_ok(np, c_strtoull(s + 1, 0, &end, &v), line, s + 1, "GUID"))
		return;
	if (!rel) {
		np->absguid[type] = v;
		v = 0;
	}
	np->guid[type] = np->absguid[type] + v;
}

enum net_var { V_VENDID, V_DEVID, V_SYSGUID, V_WIDTH, V_SPEED, V_EXTSPEED };

static void net_assign(struct net_parser *np, const char *line, enum net_var var)
{
	static const struct { const char *name; uint64_t lo, hi; } lim[] = {
		[V_VENDID] = { "vendid", 0, 0xffffff }, [V_DEVID] = { "devid", 0, 0xffff },
		[V_SYSGUID] = { "sysimgguid", 0, UINT64_MAX }, [V_WIDTH] = { "width", 1, 31 },
		[V_SPEED] = { "speed", 1, 7 }, [V_EXTSPEED] = { "extspeed", 0, 7 },
	};
	const char *s = strchr(line, '='), *end;
	uint64_t v;
	int rc;

	if (!s) {
		text_error(&np->r, (unsigned)strlen(line) + 1, "expected '='");
		return;
	}
	rc = c_strtoull(s + 1, 0, &end, &v);
	if (rc == -EINVAL)
		rc = 0;	/* strtol: no digits reads as 0 */
	if (!num_ok(np, rc, line, s + 1, lim[var].name))
		return;
	if (v < lim[var].lo || v > lim[var].hi) {
		text_error(&np->r, col_of(line, s + 1), "%s=%llu out of range (%llu..%llu)",
			   lim[var].name, (unsigned long long)v, (unsigned long long)lim[var].lo,
			   (unsigned long long)lim[var].hi);
		return;
	}
	switch (var) {
	case V_VENDID: np->vendid = (uint32_t)v; break;
	case V_DEVID: np->devid = (uint32_t)v; break;
	case V_SYSGUID: np->sysimgguid = v; break;
	case V_WIDTH: np->width = (uint8_t)v; break;
	case V_SPEED: np->speed = (uint8_t)v; break;
	case V_EXTSPEED: np->extspeed = (uint8_t)v; break;
	}
}

static void net_module(struct net_parser *np, const char *line)
{
	const char *s = strchr(line, '='), *b, *e;

	if (!s || !find_quoted(s + 1, &b, &e)) {
		text_error(&np->r, s ? col_of(line, s + 1) : 1, "expected module=\"prefix\"");
		return;
	}
	if ((size_t)(e - b) > NET_PREFIX_MAX) {
		text_error(&np->r, col_of(line, b), "module prefix longer than %u bytes",
			   NET_PREFIX_MAX);
		return;
	}
	memcpy(np->prefix, b, (size_t)(e - b));
	np->prefix[e - b] = '\0';
}

/* ---- line dispatch --------------------------------------------------------- */

static const struct net_kw {
	const char *kw;
	int kind;		/* >0 node type, <0 other */
} net_kws[] = {
	{ "Switch", TOPO_NODE_SWITCH }, { "Hca", TOPO_NODE_CA }, { "Ca", TOPO_NODE_CA },
	{ "Rt", TOPO_NODE_ROUTER }, { "switchguid", -1 }, { "hcaguids", -2 },
	{ "caguid", -2 }, { "rtguid", -3 }, { "vendid", -10 - V_VENDID },
	{ "devid", -10 - V_DEVID }, { "sysimgguid", -10 - V_SYSGUID },
	{ "width", -10 - V_WIDTH }, { "speed", -10 - V_SPEED },
	{ "extspeed", -10 - V_EXTSPEED }, { "module", -4 }, { "include", -5 },
	{ "pdebug", -6 }, { "do", -7 },
};

static const struct net_kw *net_keyword(const char *line)
{
	for (unsigned i = 0; i < sizeof(net_kws) / sizeof(net_kws[0]); i++)
		if (!strncmp(line, net_kws[i].kw, strlen(net_kws[i].kw)))
			return &net_kws[i];
	return NULL;
}

/* "do <cmd>": commands that change the fabric are refused, others are harmless. */
static void net_do(struct net_parser *np, const char *line)
{
	static const char *const bad[] = { "Link", "Unlink", "Clear", "Guid", "ReLink", "Quit",
					   "X" };
	const char *t = line + 2;
	size_t n = 0;

	while (isspace((unsigned char)*t))
		t++;
	while (t[n] && !isspace((unsigned char)t[n]))
		n++;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]) && *t != '!'; i++)
		if (n == strlen(bad[i]) && !strncasecmp(t, bad[i], n))
			goto refuse;
	if (*t != '!')
		return;
refuse:
	text_error(&np->r, col_of(line, t), "ibsim console command \"%.*s\" is not supported",
		   (int)n, t);
}

static void net_top_line(struct net_parser *np, const char *line)
{
	const struct net_kw *kw = net_keyword(line);
	const char *t;

	if (line[0] == '[' || line[0] == '@') {
		if (!np->ignored_warned) {
			if (np->full_node != NO_IDX)
				text_warn(&np->r, 1, "ibsim reads at most NumPorts (%u) port lines for "
					  "\"%s\" and ignores this one", np->nodes[np->full_node].nports,
					  np->str + np->nodes[np->full_node].id);
			else
				text_warn(&np->r, 1, "port line outside a node record; ibsim ignores it");
		}
		np->ignored_warned = true;
		return;
	}
	np->full_node = NO_IDX;
	np->ignored_warned = false;
	if (!kw) {
		for (t = line; *t == ' ' || *t == '\t'; t++)
			;
		if (t != line && (*t == '[' || net_keyword(t)))
			text_warn(&np->r, 1, "leading blanks: ibsim ignores this line");
		else if (t == line && *t != '#' && !text_is_blank(line))
			text_warn(&np->r, 1, "unknown line (keywords are case-sensitive: Switch, Hca, "
				  "Ca, Rt, ...); ibsim ignores it");
		return;
	}
	if (kw->kind > 0)
		net_header(np, line, (uint8_t)kw->kind, kw->kind == TOPO_NODE_SWITCH ? 6 : 3);
	else if (kw->kind >= -3)
		net_guidbase(np, line, kw->kind == -1 ? TOPO_NODE_SWITCH :
			     kw->kind == -2 ? TOPO_NODE_CA : TOPO_NODE_ROUTER);
	else if (kw->kind <= -10)
		net_assign(np, line, (enum net_var)(-10 - kw->kind));
	else if (kw->kind == -4)
		net_module(np, line);
	else if (kw->kind == -5)
		text_error(&np->r, 1, "include is not supported: merge the included file into this one");
	else if (kw->kind == -7)
		net_do(np, line);
}

void net_line(struct net_parser *np, const char *line)
{
	if (np->r.linelen > NET_LINE_MAX)
		text_warn(&np->r, NET_LINE_MAX + 1, "line is %zu bytes; ibsim 0.10 reads at most %u "
			  "and misreads the rest", np->r.linelen, NET_LINE_MAX);
	if (np->cur != NO_IDX) {
		if (line[0] == '#')
			return;
		if (line[0] == '[' || line[0] == '@') {
			net_port_line(np, line);
			if (!np->left) {
				np->full_node = np->cur;
				np->cur = NO_IDX;
			}
			return;
		}
		if (!text_is_blank(line))
			text_warn(&np->r, 1, "this line ends the record of \"%s\" and ibsim ignores it "
				  "(end records with a blank line)", np->str + np->nodes[np->cur].id);
		np->cur = NO_IDX;
		return;
	}
	if (np->skipping) {
		/* the port lines of a rejected header */
		if (line[0] == '#' || line[0] == '[' || line[0] == '@')
			return;
		np->skipping = false;
	}
	net_top_line(np, line);
}

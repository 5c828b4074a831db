// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_net_link.c - ibsim .net reader, second half: the links the port
 * lines name (each listed from both ends, or through an alias) come up at
 * the best width and speed both ends enable, as ibsim 0.10 brings them
 * up, then the fabric is built; and net_read(), the entry point.  The
 * lines themselves are io_net.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#include "base/text.h"
#include "base/util.h"
#include "io/io_net.h"
#include "io/io_net_int.h"

/* ---- links ----------------------------------------------------------------- */

static unsigned mask_width(unsigned m)
{
	return m & W_12X ? 12 : m & W_8X ? 8 : m & W_4X ? 4 : m & W_2X ? 2 : m & W_1X ? 1 : 0;
}

static unsigned link_speed(unsigned s, unsigned e, unsigned m)
{
	if (e)
		return e & E_HDR ? TOPO_SPEED_HDR : e & E_EDR ? TOPO_SPEED_EDR : TOPO_SPEED_FDR;
	if (m)
		return TOPO_SPEED_FDR10;
	return s & S_QDR ? TOPO_SPEED_QDR : s & S_DDR ? TOPO_SPEED_DDR :
	       s & S_SDR ? TOPO_SPEED_SDR : TOPO_SPEED_UNKNOWN;
}

static const char *pname(const struct net_parser *np, const struct nport *p)
{
	return np->str + np->nodes[p->node].id;
}

static unsigned pnum(const struct net_parser *np, const struct nport *p)
{
	return (unsigned)(p - np->ports) - np->nodes[p->node].pbase + 1;
}

__attribute__((format(printf, 4, 5)))
static void net_diag(struct net_parser *np, enum diag_level lvl, const struct nport *p,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(np->dl, lvl, np->r.fname, p->line, p->col, fmt, ap);
	va_end(ap);
}

/*
 * Bring a link up as ibsim's link_ports() does.  OpenSM's PortInfo Set
 * later makes ibsim 0.10 re-derive width from one end's mask alone, and
 * speed from a mask equal to the supported one (s=7, e=7): warn when that
 * can change the link.
 */
static void link_up(struct net_parser *np, struct nport *a, struct nport *b)
{
	unsigned w = mask_width(a->w & b->w), s = a->s & b->s, e = a->e & b->e;
	unsigned sp, sm;

	a->peer = (uint32_t)(b - np->ports);
	b->peer = (uint32_t)(a - np->ports);
	if (!w || !s) {
		net_diag(np, DIAG_ERROR, a, "no common link %s between port %u of \"%s\" "
			 "(%c=%u) and port %u of \"%s\" (%c=%u)", w ? "speed" : "width", pnum(np, a),
			 pname(np, a), w ? 's' : 'w', w ? a->s : a->w, pnum(np, b), pname(np, b),
			 w ? 's' : 'w', w ? b->s : b->w);
		return;
	}
	b->rid = np->nodes[a->node].id;
	b->rport = (uint8_t)pnum(np, a);
	a->aw = b->aw = (uint8_t)w;
	a->as = b->as = (uint8_t)link_speed(s, e, a->m & b->m);
	sm = a->s == 7 || b->s == 7 ? S_QDR : s;
	sp = link_speed(sm, e && (a->e == 7 || b->e == 7) ? E_HDR : e, a->m & b->m);
	if (mask_width(a->w) != w || mask_width(b->w) != w || sp != a->as)
		net_diag(np, DIAG_WARNING, a, "link comes up at %ux%s, but an OpenSM sweep may "
			 "change it (ibsim 0.10 re-derives it from one end's w=/s=/e=)", w,
			 topo_speed_name(a->as));
}

/* ibsim's connect_ports(): every link listed from both ends, or via an alias. */
static void net_connect(struct net_parser *np)
{
	for (uint32_t i = 0; i < np->nports && !diag_full(np->dl); i++) {
		struct nport *p = &np->ports[i], *q;
		uint32_t rn;

		if (p->peer != NO_IDX || p->rid == NO_STR)
			continue;
		rn = net_smap_get(np, &np->ids, np->str + p->rid);
		if (rn == NO_IDX) {
			net_diag(np, DIAG_ERROR, p, "link to unknown node \"%s\"", np->str + p->rid);
			continue;
		}
		if (p->rport > np->nodes[rn].nports) {
			net_diag(np, DIAG_ERROR, p, "port %u out of range (\"%s\" has %u ports)",
				 p->rport, np->str + p->rid, np->nodes[rn].nports);
			continue;
		}
		q = &np->ports[np->nodes[rn].pbase + p->rport - 1];
		if (q == p) {
			net_diag(np, DIAG_ERROR, p, "port %u is cabled to itself", pnum(np, p));
			continue;
		}
		if (p->ralias != NO_STR) {
			if (q->alias == NO_STR || strcmp(np->str + p->ralias, np->str + q->alias) ||
			    q->rport) {
				net_diag(np, DIAG_ERROR, p, "alias \"%s\" does not name a free port",
					 np->str + p->ralias);
				continue;
			}
		} else if (q->rid == NO_STR || q->rport != pnum(np, p) ||
			   strcmp(np->str + q->rid, pname(np, p))) {
			net_diag(np, DIAG_ERROR, p, "port %u of \"%s\" is not cabled back to port %u "
				 "of \"%s\" (ibsim needs both ends of a link)", p->rport,
				 np->str + p->rid, pnum(np, p), pname(np, p));
			continue;
		}
		link_up(np, p, q);
	}
}

/* ---- building the fabric ----------------------------------------------------- */

static struct topo *net_build(struct net_parser *np, struct topo_builder *b)
{
	int *h = malloc(((size_t)np->nnodes + 1) * sizeof(*h));

	if (!h) {
		diag_add(np->dl, DIAG_ERROR, np->r.fname, 0, 0, "out of memory");
		topo_builder_free(b);
		errno = ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < np->nnodes && !diag_full(np->dl); i++) {
		const struct nnode *n = &np->nodes[i];
		struct topo_node_info ni = {
			.type = n->type, .nports = n->nports, .guid = n->guid,
			.sysguid = n->sysguid, .vendor = n->vendor, .devid = n->devid,
			.rev = 0xa1, .desc = np->str + n->desc, .name = np->str + n->id,
		};
		struct src_loc loc = { np->r.fname, n->line, n->col };

		h[i] = topo_builder_add_node(b, &ni, &loc);
		for (unsigned pn = 1; h[i] >= 0 && n->type != TOPO_NODE_SWITCH && pn <= n->nports;
		     pn++) {
			struct topo_port_info pi = { .guid = n->guid + pn };

			/* a port GUID is only seen (ibnetdiscover, OpenSM) through a link */
			if (np->ports[n->pbase + pn - 1].peer != NO_IDX)
				topo_builder_set_port(b, h[i], pn, &pi, &loc);
		}
	}
	for (uint32_t i = 0; i < np->nports && !diag_full(np->dl); i++) {
		const struct nport *p = &np->ports[i], *q;
		struct src_loc loc = { np->r.fname, p->line, p->col };
		struct topo_ref ref;

		if (p->peer == NO_IDX || p->peer < i || h[p->node] < 0)
			continue;
		q = &np->ports[p->peer];
		ref.name = np->str + np->nodes[q->node].id;
		ref.guid = 0;
		topo_builder_add_link(b, h[p->node], pnum(np, p), &ref, pnum(np, q), p->aw, p->as,
				      &loc);
	}
	free(h);
	return topo_builder_finish(b);
}

static void net_free(struct net_parser *np)
{
	text_fini(&np->r);
	free(np->nodes);
	free(np->ports);
	free(np->str);
	free(np->ids.key);
	free(np->ids.val);
	free(np->aliases.key);
	free(np->aliases.val);
}

/**
 * net_read - read an ibsim .net file (or ibnetdiscover output) as ibsim 0.10 does
 * The fabric has the GUIDs, descriptions, links and link widths/speeds ibsim
 * brings up; no LIDs (OpenSM assigns them).  Return: the fabric, or NULL
 * with errno set (EINVAL: errors recorded in @dl).
 */
struct topo *net_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	struct net_parser np;
	struct topo_builder *b = topo_builder_new(dl);
	struct topo *t;

	if (!b)
		return NULL;
	memset(&np, 0, sizeof(np));
	np.dl = dl;
	np.guid[TOPO_NODE_CA] = np.absguid[TOPO_NODE_CA] = 0x100000;
	np.guid[TOPO_NODE_SWITCH] = np.absguid[TOPO_NODE_SWITCH] = 0x200000;
	np.width = W_4X;
	np.speed = S_SDR;
	np.cur = np.full_node = NO_IDX;
	text_init(&np.r, buf, len, fname, dl);
	while (!np.oom && text_next(&np.r))
		net_line(&np, np.r.line);
	if (np.pguid_diff)
		diag_add(dl, DIAG_WARNING, np.r.fname, np.pguid_line, 1,
			 "%u CA port GUID(s) in the file differ from node GUID + port, which "
			 "ibsim uses instead", np.pguid_diff);
	if (!np.oom && !np.r.failed)
		net_connect(&np);
	if (np.oom || np.r.failed || diag_full(dl)) {
		topo_builder_free(b);
		net_free(&np);
		errno = np.oom ? ENOMEM : EINVAL;
		return NULL;
	}
	t = net_build(&np, b);
	net_free(&np);
	return t;
}

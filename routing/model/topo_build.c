// SPDX-License-Identifier: BSD-2-Clause
/*
 * topo_build.c - incremental construction of a struct topo.
 *
 * Parsers declare nodes and ports as they meet them and name link peers
 * by file-local id or GUID, which may be declared later.  finish() then:
 *   1. resolves every link end, checks port ranges and conflicts, and keeps
 *      a link seen from both ends once;
 *   2. orders nodes by GUID (so every input format of one fabric yields the
 *      same indices) and lays out the flat arrays and CSR port offsets;
 *   3. assigns the LID map (LMC ranges included) and checks for duplicates.
 * Time O((N + P) log N), memory O(N + P + L) for N nodes, P ports, L links.
 * Any error recorded while the builder was alive (also by the parser)
 * makes finish() fail, so a caller never sees a half-valid fabric.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/topo_int.h"
#include "base/util.h"

struct bnode {
	struct topo_node_info ni;	/* desc/name are string offsets below */
	uint32_t desc_off, name_off;	/* into b->strs; NO_STR = none */
	uint32_t port_base;		/* first slot in b->ports (nports+1 slots) */
	struct src_loc loc;
};

struct bport {
	struct topo_port_info pi;
	uint32_t rnode, rport;		/* resolved peer, NO_PEER if none */
	struct src_loc lid_loc, link_loc, guid_loc;
};

struct blink {
	uint32_t node;
	uint8_t port, peer_port, width, speed;
	uint32_t peer_name;		/* string offset or NO_STR */
	uint64_t peer_guid;
	struct src_loc loc;
};

#define NO_STR UINT32_MAX
#define NO_PEER UINT32_MAX

struct htab {
	uint64_t *key;			/* guid, or name hash */
	uint32_t *val;			/* node + 1; 0 = empty */
	uint32_t cap, n;
};

struct topo_builder {
	struct diag_list *dl;
	unsigned errors_at_start;
	struct bnode *nodes;
	uint32_t nnodes, capnodes;
	struct bport *ports;
	uint32_t nports, capports;
	struct blink *links;
	uint32_t nlinks, caplinks;
	char *strs;
	uint32_t nstrs, capstrs;
	struct htab by_guid, by_name;
	bool oom;
};

/* ---- small containers ---------------------------------------------------- */

static uint32_t add_str(struct topo_builder *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t off = b->nstrs;

	if (n > UINT32_MAX / 4 || ffr_grow((void **)&b->strs, &b->capstrs,
				       b->nstrs + (uint32_t)n, 1)) {
		b->oom = true;
		return NO_STR;
	}
	memcpy(b->strs + off, s, n);
	b->nstrs += (uint32_t)n;
	return off;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int ht_rehash(struct htab *h)
{
	uint32_t ncap = h->cap ? h->cap * 2 : 256;
	uint64_t *nk = calloc(ncap, sizeof(*nk));
	uint32_t *nv = calloc(ncap, sizeof(*nv));

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < h->cap; i++) {
		uint32_t j;

		if (!h->val[i])
			continue;
		for (j = hash64(h->key[i]) & (ncap - 1); nv[j]; j = (j + 1) & (ncap - 1))
			;
		nk[j] = h->key[i];
		nv[j] = h->val[i];
	}
	free(h->key);
	free(h->val);
	h->key = nk;
	h->val = nv;
	h->cap = ncap;
	return 0;
}

static void ht_free(struct htab *h)
{
	free(h->key);
	free(h->val);
}

/*
 * Find @key; for name tables @name disambiguates hash collisions.
 * Returns the slot (value 0 = free slot where it would go).
 */
static uint32_t ht_slot(const struct topo_builder *b, const struct htab *h, uint64_t key,
			const char *name)
{
	uint32_t j = hash64(key) & (h->cap - 1);

	for (; h->val[j]; j = (j + 1) & (h->cap - 1)) {
		if (h->key[j] != key)
			continue;
		if (!name || !strcmp(b->strs + b->nodes[h->val[j] - 1].name_off, name))
			return j;
	}
	return j;
}

static int ht_lookup(const struct topo_builder *b, const struct htab *h, uint64_t key,
		     const char *name)
{
	uint32_t j;

	if (!h->cap)
		return -ENOENT;
	j = ht_slot(b, h, key, name);
	return h->val[j] ? (int)h->val[j] - 1 : -ENOENT;
}

static int ht_insert(struct topo_builder *b, struct htab *h, uint64_t key, const char *name,
		     uint32_t node)
{
	uint32_t j;

	if ((h->n + 1) * 2 > h->cap && ht_rehash(h))
		return -ENOMEM;
	j = ht_slot(b, h, key, name);
	h->key[j] = key;
	h->val[j] = node + 1;
	h->n++;
	return 0;
}

/* ---- public builder API -------------------------------------------------- */

struct topo_builder *topo_builder_new(struct diag_list *dl)
{
	struct topo_builder *b = calloc(1, sizeof(*b));

	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	b->dl = dl;
	b->errors_at_start = dl->nerrors;
	return b;
}

void topo_builder_free(struct topo_builder *b)
{
	if (!b)
		return;
	free(b->nodes);
	free(b->ports);
	free(b->links);
	free(b->strs);
	ht_free(&b->by_guid);
	ht_free(&b->by_name);
	free(b);
}

static void bdiag(struct topo_builder *b, enum diag_level lvl, const struct src_loc *loc,
		  const char *fmt, va_list ap)
{
	diag_vadd(b->dl, lvl, loc ? loc->file : NULL, loc ? loc->line : 0, loc ? loc->col : 0,
		  fmt, ap);
}

static void berr(struct topo_builder *b, const struct src_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void bwarn(struct topo_builder *b, const struct src_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void berr(struct topo_builder *b, const struct src_loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bdiag(b, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

static void bwarn(struct topo_builder *b, const struct src_loc *loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bdiag(b, DIAG_WARNING, loc, fmt, ap);
	va_end(ap);
}

static const char *type_name(unsigned type)
{
	return type == TOPO_NODE_SWITCH ? "switch" : type == TOPO_NODE_ROUTER ? "router" : "CA";
}

/* Terminal control bytes (ESC sequences, BEL) in a description would reach
 * every report; replace them in place.  True if any was found. */
static bool tame_controls(char *s)
{
	bool found = false;

	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			*s = '?';
			found = true;
		}
	return found;
}

int topo_builder_add_node(struct topo_builder *b, const struct topo_node_info *ni,
			  const struct src_loc *loc)
{
	struct src_loc none = { NULL, 0, 0 };
	struct bnode *n;
	uint32_t id = b->nnodes;
	int other;

	if (!loc)
		loc = &none;
	if (ni->type < TOPO_NODE_CA || ni->type > TOPO_NODE_ROUTER) {
		berr(b, loc, "unknown node type %u", ni->type);
		return -EINVAL;
	}
	if (ni->nports < 1 || ni->nports > TOPO_MAX_PORTS) {
		berr(b, loc, "%s has %u ports (must be 1..%u)", type_name(ni->type), ni->nports,
		     TOPO_MAX_PORTS);
		return -EINVAL;
	}
	if (!ni->guid) {
		berr(b, loc, "node GUID is 0");
		return -EINVAL;
	}
	if ((uint64_t)b->nports + ni->nports + 1 > TOPO_MAX_PORT_SLOTS) {
		/* memory follows declared ports: bound it by what a fabric can be */
		berr(b, loc, "more than %u ports declared in all: not a real fabric",
		     TOPO_MAX_PORT_SLOTS);
		return -E2BIG;
	}
	other = ht_lookup(b, &b->by_guid, ni->guid, NULL);
	if (other >= 0) {
		const struct bnode *o = &b->nodes[other];

		berr(b, loc, "duplicate node GUID 0x%016llx (first declared at line %u)",
		     (unsigned long long)ni->guid, o->loc.line);
		return -EEXIST;
	}
	if (ni->name && ni->name[0] && ht_lookup(b, &b->by_name, hash_str(ni->name), ni->name) >= 0) {
		berr(b, loc, "duplicate node name \"%s\"", ni->name);
		return -EEXIST;
	}
	if (ffr_grow((void **)&b->nodes, &b->capnodes, id + 1, sizeof(*b->nodes)) ||
	    ffr_grow((void **)&b->ports, &b->capports, b->nports + ni->nports + 1u, sizeof(*b->ports)))
		goto oom;
	n = &b->nodes[id];
	n->ni = *ni;
	n->desc_off = add_str(b, ni->desc ? ni->desc : "");
	n->name_off = ni->name && ni->name[0] ? add_str(b, ni->name) : NO_STR;
	if (b->oom)
		goto oom;
	if (tame_controls(b->strs + n->desc_off))
		bwarn(b, loc, "control characters in the NodeDescription, shown as '?'");
	n->ni.desc = n->ni.name = NULL;
	n->port_base = b->nports;
	n->loc = *loc;
	memset(&b->ports[b->nports], 0, (ni->nports + 1u) * sizeof(*b->ports));
	for (uint32_t i = 0; i <= ni->nports; i++)
		b->ports[b->nports + i].rnode = NO_PEER;
	b->nports += ni->nports + 1u;
	b->nnodes++;
	if (ht_insert(b, &b->by_guid, ni->guid, NULL, id))
		goto oom;
	if (n->name_off != NO_STR &&
	    ht_insert(b, &b->by_name, hash_str(b->strs + n->name_off), b->strs + n->name_off, id))
		goto oom;
	return (int)id;
oom:
	b->oom = true;
	berr(b, loc, "out of memory");
	return -ENOMEM;
}

int topo_builder_find_guid(const struct topo_builder *b, uint64_t guid)
{
	return ht_lookup(b, &b->by_guid, guid, NULL);
}

int topo_builder_find_name(const struct topo_builder *b, const char *name)
{
	return ht_lookup(b, &b->by_name, hash_str(name), name);
}

unsigned topo_builder_node_nports(const struct topo_builder *b, int node)
{
	return b->nodes[node].ni.nports;
}

static bool port_ok(struct topo_builder *b, uint32_t node, unsigned port,
		    const struct src_loc *loc)
{
	const struct bnode *n = &b->nodes[node];

	if (port > n->ni.nports) {
		berr(b, loc, "port %u out of range (%s has %u)", port, type_name(n->ni.type),
		     n->ni.nports);
		return false;
	}
	return true;
}

int topo_builder_set_port(struct topo_builder *b, int node, unsigned port,
			  const struct topo_port_info *pi, const struct src_loc *loc)
{
	struct src_loc none = { NULL, 0, 0 };
	const struct bnode *n;
	struct bport *p;

	if (!loc)
		loc = &none;
	if (!port_ok(b, (uint32_t)node, port, loc))
		return -ERANGE;
	n = &b->nodes[node];
	if (port == 0 && n->ni.type != TOPO_NODE_SWITCH) {
		berr(b, loc, "port 0 exists only on switches");
		return -ERANGE;
	}
	p = &b->ports[n->port_base + port];
	if (pi->guid)
		p->guid_loc = *loc;
	if (pi->guid && (n->ni.type != TOPO_NODE_SWITCH || port == 0))
		p->pi.guid = pi->guid;
	else if (pi->guid && !b->ports[n->port_base].pi.guid)
		/* all ports of a switch share one port GUID, kept on port 0 */
		b->ports[n->port_base].pi.guid = pi->guid;
	if (pi->width)
		p->pi.width = pi->width;
	if (pi->speed)
		p->pi.speed = pi->speed;
	if (pi->state)
		p->pi.state = pi->state;
	if (pi->lid && pi->lid != TOPO_LID_UNASSIGNED) {
		/* a switch has one LID, that of port 0 */
		struct bport *lp = n->ni.type == TOPO_NODE_SWITCH ? &b->ports[n->port_base] : p;

		if (lp->pi.lid && lp->pi.lid != pi->lid)
			bwarn(b, loc, "LID %u here but LID %u at line %u; using LID %u", pi->lid,
			      lp->pi.lid, lp->lid_loc.line, pi->lid);
		lp->pi.lid = pi->lid;
		lp->pi.lmc = pi->lmc;
		lp->lid_loc = *loc;
	}
	return 0;
}

int topo_builder_add_link(struct topo_builder *b, int node, unsigned port,
			  const struct topo_ref *peer, unsigned peer_port,
			  unsigned width, unsigned speed, const struct src_loc *loc)
{
	struct src_loc none = { NULL, 0, 0 };
	struct blink *l;

	if (!loc)
		loc = &none;
	if (!port_ok(b, (uint32_t)node, port, loc))
		return -ERANGE;
	if (port == 0) {
		berr(b, loc, "port 0 cannot be cabled");
		return -ERANGE;
	}
	if (peer_port == 0 || peer_port > TOPO_MAX_PORTS) {
		berr(b, loc, "peer port %u out of range", peer_port);
		return -ERANGE;
	}
	if (ffr_grow((void **)&b->links, &b->caplinks, b->nlinks + 1, sizeof(*b->links))) {
		b->oom = true;
		berr(b, loc, "out of memory");
		return -ENOMEM;
	}
	l = &b->links[b->nlinks];
	memset(l, 0, sizeof(*l));
	l->node = (uint32_t)node;
	l->port = (uint8_t)port;
	l->peer_port = (uint8_t)peer_port;
	l->width = (uint8_t)width;
	l->speed = (uint8_t)speed;
	l->peer_name = peer->name ? add_str(b, peer->name) : NO_STR;
	l->peer_guid = peer->guid;
	l->loc = *loc;
	if (b->oom)
		return -ENOMEM;
	b->nlinks++;
	return 0;
}

/* ---- finish -------------------------------------------------------------- */

static const char *node_label(const struct topo_builder *b, uint32_t node, char *buf, size_t len)
{
	const struct bnode *n = &b->nodes[node];
	const char *desc = b->strs + n->desc_off;

	if (*desc)
		snprintf(buf, len, "\"%s\"", desc);
	else
		snprintf(buf, len, "0x%016llx", (unsigned long long)n->ni.guid);
	return buf;
}

/* Connect one end; false (and an error) if it already goes elsewhere. */
static bool connect_end(struct topo_builder *b, uint32_t na, unsigned pa, uint32_t nb,
			unsigned pb, const struct blink *l)
{
	struct bport *p = &b->ports[b->nodes[na].port_base + pa];
	char la[96], lb[96];

	if (p->rnode == NO_PEER) {
		p->rnode = nb;
		p->rport = pb;
		p->link_loc = l->loc;
		if (l->width && !p->pi.width)
			p->pi.width = l->width;
		if (l->speed && !p->pi.speed)
			p->pi.speed = l->speed;
		return true;
	}
	if (p->rnode == nb && p->rport == pb) {
		/* the same link, seen again (from its other end): both must agree */
		if ((l->width && p->pi.width && l->width != p->pi.width) ||
		    (l->speed && p->pi.speed && l->speed != p->pi.speed))
			bwarn(b, &l->loc, "link width/speed differs from line %u (its other end); "
			      "keeping line %u's", p->link_loc.line, p->link_loc.line);
		return true;
	}
	berr(b, &l->loc, "port %u of %s is already cabled to port %u of %s (line %u)", pa,
	     node_label(b, na, la, sizeof(la)), p->rport, node_label(b, p->rnode, lb, sizeof(lb)),
	     p->link_loc.line);
	return false;
}

static void resolve_links(struct topo_builder *b)
{
	for (uint32_t i = 0; i < b->nlinks && !diag_full(b->dl); i++) {
		const struct blink *l = &b->links[i];
		const char *pname = l->peer_name != NO_STR ? b->strs + l->peer_name : NULL;
		int peer = pname ? topo_builder_find_name(b, pname)
				 : topo_builder_find_guid(b, l->peer_guid);

		if (peer < 0) {
			if (pname)
				berr(b, &l->loc, "link to unknown node \"%s\"", pname);
			else
				berr(b, &l->loc, "link to unknown node GUID 0x%016llx",
				     (unsigned long long)l->peer_guid);
			continue;
		}
		if (!port_ok(b, (uint32_t)peer, l->peer_port, &l->loc))
			continue;
		if ((uint32_t)peer == l->node && l->peer_port == l->port) {
			berr(b, &l->loc, "port %u is cabled to itself", l->port);
			continue;
		}
		if (connect_end(b, l->node, l->port, (uint32_t)peer, l->peer_port, l))
			connect_end(b, (uint32_t)peer, l->peer_port, l->node, l->port, l);
	}
}

struct sortkey {
	uint64_t key;
	uint32_t idx;
};

static int cmp_sortkey(const void *a, const void *b)
{
	const struct sortkey *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Lay out the arrays in GUID order; returns 0 or -ENOMEM. */
static int layout(struct topo_builder *b, struct topo *t, uint32_t **newid_out)
{
	struct sortkey *order = malloc((b->nnodes + 1) * sizeof(*order));
	uint32_t *newid = malloc((b->nnodes + 1) * sizeof(*newid));
	uint32_t sw = 0;

	*newid_out = newid;
	if (!order || !newid || topo_alloc_arrays(t, b->nnodes, b->nports, b->nstrs)) {
		free(order);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < b->nnodes; i++) {
		order[i].key = b->nodes[i].ni.guid;
		order[i].idx = i;
	}
	qsort(order, b->nnodes, sizeof(*order), cmp_sortkey);
	if (b->nstrs)
		memcpy(t->strings, b->strs, b->nstrs);
	for (uint32_t i = 0; i < b->nnodes; i++)
		newid[order[i].idx] = i;

	uint32_t off = 0;

	for (uint32_t i = 0; i < b->nnodes; i++) {
		const struct bnode *n = &b->nodes[order[i].idx];

		t->node_type[i] = n->ni.type;
		t->node_nports[i] = n->ni.nports;
		t->node_guid[i] = n->ni.guid;
		t->node_sysguid[i] = n->ni.sysguid;
		t->node_vendor[i] = n->ni.vendor;
		t->node_devid[i] = n->ni.devid;
		t->node_rev[i] = n->ni.rev;
		t->node_desc[i] = t->strings + n->desc_off;
		t->node_name[i] = n->name_off != NO_STR ? t->strings + n->name_off : "";
		t->port_off[i] = off;
		if (n->ni.type == TOPO_NODE_SWITCH) {
			t->node_sw[i] = sw;
			t->sw_node[sw++] = i;
			t->nswitches++;
		} else {
			t->node_sw[i] = TOPO_NONE;
			if (n->ni.type == TOPO_NODE_CA)
				t->ncas++;
			else
				t->nrouters++;
		}
		for (uint32_t p = 0; p <= n->ni.nports; p++, off++) {
			const struct bport *bp = &b->ports[n->port_base + p];

			t->port_node[off] = i;
			t->port_guid[off] = bp->pi.guid;
			t->port_lid[off] = bp->pi.lid;
			t->port_lmc[off] = bp->pi.lmc;
			t->port_width[off] = bp->pi.width;
			t->port_speed[off] = bp->pi.speed;
			t->port_state[off] = bp->pi.state;
			t->port_remote[off] = TOPO_NONE;
		}
		/* a switch's port 0 carries the node GUID unless told otherwise */
		if (n->ni.type == TOPO_NODE_SWITCH && !t->port_guid[t->port_off[i]])
			t->port_guid[t->port_off[i]] = n->ni.guid;
	}
	t->port_off[b->nnodes] = off;
	free(order);
	return 0;
}

static void map_links(const struct topo_builder *b, struct topo *t, const uint32_t *newid)
{
	for (uint32_t n = 0; n < b->nnodes; n++) {
		const struct bnode *bn = &b->nodes[n];
		uint32_t base = t->port_off[newid[n]];

		for (uint32_t p = 1; p <= bn->ni.nports; p++) {
			const struct bport *bp = &b->ports[bn->port_base + p];

			if (bp->rnode == NO_PEER)
				continue;
			t->port_remote[base + p] = t->port_off[newid[bp->rnode]] + bp->rport;
			if (newid[bp->rnode] > newid[n] ||
			    (newid[bp->rnode] == newid[n] && bp->rport > p))
				t->nlinks++;
		}
	}
}

static int build_lids(struct topo_builder *b, struct topo *t, const uint32_t *newid)
{
	uint32_t max_lid = 0;

	for (uint32_t n = 0; n < b->nnodes; n++) {
		const struct bnode *bn = &b->nodes[n];

		for (uint32_t p = 0; p <= bn->ni.nports; p++) {
			const struct bport *bp = &b->ports[bn->port_base + p];
			uint32_t top;

			if (!bp->pi.lid)
				continue;
			if (bp->pi.lmc > 7) {
				berr(b, &bp->lid_loc, "LMC %u out of range (0..7)", bp->pi.lmc);
				continue;
			}
			top = bp->pi.lid + (1u << bp->pi.lmc) - 1;
			if (bp->pi.lid > TOPO_MAX_UCAST_LID) {
				berr(b, &bp->lid_loc, "LID 0x%x is not a unicast LID", bp->pi.lid);
				continue;
			}
			if (top > TOPO_MAX_UCAST_LID) {
				berr(b, &bp->lid_loc, "the LMC %u range 0x%x-0x%x of LID 0x%x goes beyond "
				     "the unicast LIDs (0xbfff)", bp->pi.lmc, bp->pi.lid, top, bp->pi.lid);
				continue;
			}
			if (bp->pi.lid & ((1u << bp->pi.lmc) - 1)) {
				berr(b, &bp->lid_loc, "LID %u is not aligned to its LMC %u range "
				     "(a multiple of %u)", bp->pi.lid, bp->pi.lmc, 1u << bp->pi.lmc);
				continue;
			}
			if (top > max_lid)
				max_lid = top;
		}
	}
	t->max_lid = max_lid;
	t->lid_port = malloc((max_lid + 1) * sizeof(*t->lid_port));
	if (!t->lid_port)
		return -ENOMEM;
	for (uint32_t i = 0; i <= max_lid; i++)
		t->lid_port[i] = TOPO_NONE;
	for (uint32_t n = 0; n < b->nnodes; n++) {
		const struct bnode *bn = &b->nodes[n];

		for (uint32_t p = 0; p <= bn->ni.nports; p++) {
			const struct bport *bp = &b->ports[bn->port_base + p];
			uint32_t port = t->port_off[newid[n]] + p;

			if (!bp->pi.lid || t->port_lid[port] > TOPO_MAX_UCAST_LID ||
			    bp->pi.lmc > 7 || bp->pi.lid + (1u << bp->pi.lmc) - 1 > max_lid)
				continue;
			for (uint32_t l = bp->pi.lid; l < bp->pi.lid + (1u << bp->pi.lmc); l++) {
				char la[96], lb[96];
				uint32_t o = t->lid_port[l];

				if (o == TOPO_NONE) {
					t->lid_port[l] = port;
					continue;
				}
				berr(b, &bp->lid_loc, "LID %u of %s is also assigned to %s", l,
				     node_label(b, n, la, sizeof(la)),
				     t->node_desc[t->port_node[o]][0]
					     ? (snprintf(lb, sizeof(lb), "\"%s\"",
							 t->node_desc[t->port_node[o]]), lb)
					     : "another port");
				break;
			}
		}
	}
	return 0;
}

static int build_pguid_index(struct topo_builder *b, struct topo *t)
{
	struct sortkey *keys = malloc((t->nports + 1) * sizeof(*keys));
	uint32_t n = 0;

	if (!keys)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nports; i++)
		if (t->port_guid[i]) {
			keys[n].key = t->port_guid[i];
			keys[n++].idx = i;
		}
	qsort(keys, n, sizeof(*keys), cmp_sortkey);
	for (uint32_t i = 0; i < n; i++)
		t->pguid_sorted[i] = keys[i].idx;
	t->npguids = n;
	free(keys);
	for (uint32_t i = 1; i < n; i++) {
		uint32_t pa = t->pguid_sorted[i - 1], pb = t->pguid_sorted[i];

		int old;

		if (t->port_guid[pa] != t->port_guid[pb])
			continue;
		/* where the second port was given (builder ids are not topo ids) */
		old = ht_lookup(b, &b->by_guid, t->node_guid[t->port_node[pb]], NULL);
		berr(b, old >= 0 ? &b->ports[b->nodes[old].port_base + topo_port_num(t, pb)].guid_loc
			: NULL, "duplicate port GUID 0x%016llx on \"%s\" and \"%s\"",
		     (unsigned long long)t->port_guid[pa], t->node_desc[t->port_node[pa]],
		     t->node_desc[t->port_node[pb]]);
	}
	return 0;
}

struct topo *topo_builder_finish(struct topo_builder *b)
{
	struct topo *t = NULL;
	uint32_t *newid = NULL;
	int err = EINVAL;

	if (b->oom)
		goto fail_nomem;
	resolve_links(b);
	t = calloc(1, sizeof(*t));
	if (!t || layout(b, t, &newid))
		goto fail_nomem;
	map_links(b, t, newid);
	if (build_lids(b, t, newid) || build_pguid_index(b, t))
		goto fail_nomem;
	if (b->dl->nerrors > b->errors_at_start)
		goto fail;
	free(newid);
	topo_builder_free(b);
	return t;
fail_nomem:
	err = ENOMEM;
	diag_add(b->dl, DIAG_ERROR, NULL, 0, 0, "out of memory building the fabric");
fail:
	free(newid);
	topo_free(t);
	topo_builder_free(b);
	errno = err;
	return NULL;
}

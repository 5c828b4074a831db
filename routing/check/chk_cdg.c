// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_cdg.c - channel dependency graph (CDG) of the valid routes and its
 * cycles per VL: credit loops (Dally & Seitz; Duato's condition for
 * deterministic routing: deadlock-free iff the CDG is acyclic).
 *
 * Vertices are (channel, VL) pairs; a channel is named by its sending port
 * index.  For every destination LID d and every switch s whose route to d
 * is valid (chk_find.c), when s sends d over channel p into switch n and n
 * sends d on over channel o to another switch, a packet holding a buffer
 * of p waits for one of o: edge (p, vl(p, d)) -> (o, vl(o, d)).  Channels
 * into a CA or a router are sinks (end nodes always consume) and channels
 * out of CAs have no incoming edge, so neither can be on a cycle and they
 * are left out.  vl(p, d) = sl2vl[p * 16 + sl[d]] when both tables are
 * given (chk_opts), else VL 0.
 *
 * Edges are deduplicated in a bitmap (struct edge_set) while the
 * O(switches x LIDs) routes are scanned, then read out in CSR form.  Cycles are the strongly connected components with more than one
 * vertex (or a self-edge), found with an iterative Tarjan (explicit stack:
 * no recursion depth limit).  For each such SCC one shortest cycle through
 * its root is found by BFS inside the SCC and printed as
 * "VL0: sw-a/21 -> sw-b/3 -> sw-c/7 -> sw-a/21" (NodeDescription, or GUID
 * when it is empty or shared with another node, / port number of each
 * sending port), followed by the SCC's size when it is larger.  One credit_loop
 * finding (hard) per cyclic SCC.
 *
 * Cost: O(switches x LIDs) bit sets, O(channels x radix x VLs^2) to read
 * the bits out, O(V + E) Tarjan and cycle BFS, with E <= channels x radix
 * x VLs^2; memory: channels x radix x VLs^2 bits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "check/chk_cdg.h"
#include "check/chk_trace.h"

#define NAME_LEN 72
#define UNSET UINT32_MAX

/*
 * The SLs the SL table of @ng groups uses, as a mask (SL 0 without a
 * table); toward @lids[0..nl) only, unless @lids is NULL.
 */
static uint16_t used_sls(const struct topo *t, const struct chk_opts *o, uint32_t ng,
			 const uint32_t *lids, uint32_t nl)
{
	size_t n = (size_t)ng * (t->max_lid + 1);
	uint16_t sls = 0;

	if (!o || !o->sl)
		return 1;
	for (size_t i = 0; !lids && i < n; i++)
		sls |= (uint16_t)(1u << (o->sl[i] & 15));
	for (uint32_t g = 0; lids && g < ng; g++)
		for (uint32_t k = 0; k < nl; k++)
			sls |= (uint16_t)(1u << (o->sl[(size_t)g * (t->max_lid + 1) + lids[k]] & 15));
	if (o->tcs && o->tcs->n) {	/* the classes' SLs */
		uint16_t table = sls;

		sls = 0;
		for (unsigned k = 0; k < o->tcs->n; k++)
			for (unsigned sl = 0; sl < 16; sl++)
				if (table >> sl & 1)
					sls |= (uint16_t)(1u << (o->tcs->map[k][sl] & 15));
	}
	return sls;
}

/* The VLs a channel can carry: the SL2VL rows at the SLs @sls (used_sls()). */
static void vl_set(const struct topo *t, const struct chk_opts *o, uint16_t sls,
		   struct edge_set *es)
{
	uint16_t vls = 0;

	if (!o || !o->sl2vl)
		vls = 1;
	for (uint32_t p = 0; o && o->sl2vl && p < t->nports; p++)
		for (unsigned sl = 0; sl < 16; sl++)
			if (sls & (1u << sl))
				vls |= (uint16_t)(1u << (o->sl2vl[(size_t)p * 16 + sl] & 15));
	for (uint32_t i = 0; o && o->vlx && i < o->vlx->n; i++)
		for (unsigned sl = 0; sl < 16; sl++)
			if (sls & (1u << sl))
				vls |= (uint16_t)(1u << (o->vlx->v[i].vl[sl] & 15));
	es->nvl = 0;
	for (unsigned v = 0; v < 16; v++)
		if (vls & (1u << v)) {
			es->vix[v] = (uint8_t)es->nvl;
			es->vl[es->nvl++] = (uint8_t)v;
		}
}

static int set_init(const struct topo *t, const struct chk_opts *o, uint16_t sls,
		    struct edge_set *es)
{
	uint64_t nbits = 0;

	vl_set(t, o, o && o->sl2vl ? sls : 1, es);
	es->row = malloc(((size_t)t->nports + 1) * sizeof(uint64_t));
	if (!es->row)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++) {
		es->row[p] = NOROW;
		if (!topo_is_sw_link(t, p))
			continue;
		es->row[p] = nbits;
		nbits += (uint64_t)es->nvl * es->nvl *
			 (t->node_nports[t->port_node[t->port_remote[p]]] + 1u);
	}
	es->nwords = (size_t)(nbits / 64 + 1);
	es->bits = calloc(es->nwords, sizeof(uint64_t));
	return es->bits ? 0 : -ENOMEM;
}

/* An empty set laid out as @a (same VLs, same rows). */
int chk_es_like(const struct edge_set *a, struct edge_set *b, const struct topo *t)
{
	*b = *a;
	b->bits = calloc(a->nwords, sizeof(uint64_t));
	b->row = malloc(((size_t)t->nports + 1) * sizeof(uint64_t));
	if (!b->bits || !b->row)
		return -ENOMEM;
	memcpy(b->row, a->row, (size_t)t->nports * sizeof(uint64_t));
	return 0;
}

void chk_es_free(struct edge_set *es)
{
	free(es->bits);
	free(es->row);
}

/* The CDG in CSR form over the vertices that have outgoing edges. */
struct cdg {
	enum chk_finding_kind kind;	/* what a cycle is reported as */
	uint32_t ncyc;			/* cyclic SCCs found */
	struct loop_edges *hit;		/* chk_loop_lids(): each one's cycle's edges go
					 * here instead of into a report */
	uint32_t nv;
	uint32_t *vert;		/* [nv] channel * 16 + VL, ascending */
	uint32_t *off;		/* [nv + 1] */
	uint32_t *adj;		/* [E] vertex indices */
	/* Tarjan and cycle search scratch, [nv] each */
	uint32_t *idx, *low, *stk, *cs, *cpos, *comp, *par, *queue, *cyc;
	uint8_t *onstk;
};

static void cdg_free(struct cdg *g)
{
	free(g->vert);
	free(g->off);
	free(g->adj);
	free(g->idx);
	free(g->low);
	free(g->stk);
	free(g->cs);
	free(g->cpos);
	free(g->comp);
	free(g->par);
	free(g->queue);
	free(g->cyc);
	free(g->onstk);
}

/*
 * The channel @s (switch ordinal) uses into another switch toward the LID
 * whose column of a column block (lft_cols_get) @col is, or TOPO_NONE.
 */
static uint32_t sw_channel(const struct topo *t, const uint8_t *col, uint32_t s)
{
	uint32_t node = t->sw_node[s], p, r;
	uint8_t e = col[(size_t)s * LFT_COLS];

	if (e == 0 || e == LFT_NONE || e > t->node_nports[node])
		return TOPO_NONE;
	p = topo_port(t, node, e);
	r = t->port_remote[p];
	if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
		return TOPO_NONE;
	return p;
}

/*
 * Injection point @k of @node (a port of @t): a switch injects at its own
 * port 0 (@self, one point), a CA at the switch port behind each of its
 * ports that is cabled to a switch.  TOPO_NONE past the last, TOPO_NONE - 1
 * for a port that is none.
 */
static uint32_t inj_point(const struct topo *t, uint32_t node, bool self, uint32_t k)
{
	uint32_t p = t->port_off[node] + 1 + k, r;

	if (self)
		return k ? TOPO_NONE : t->port_off[node];
	if (p >= t->port_off[node + 1])
		return TOPO_NONE;
	r = t->port_remote[p];
	return r != TOPO_NONE && topo_is_switch(t, t->port_node[r]) ? r : TOPO_NONE - 1;
}

/* A candidate injection point: its (group, switch) and its place in node order. */
struct inj_cand {
	uint64_t gs;	/* group x switches + switch ordinal */
	uint32_t seq, port;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct inj_cand *x = a, *y = b;

	if (x->gs != y->gs)
		return x->gs < y->gs ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The injection points of each SL group of @ng, in switch order: with
 * @self the switches' own, else where the CAs' packets enter their
 * switches, one per (group, switch): the first in node order.  By a sort
 * of the candidates (a dense groups x switches array is 1.6 million
 * entries on a 16k-host tree, cleared and read for each CDG).  @cand:
 * scratch of nports + 1.
 */
static int list_build(const struct topo *t, const struct chk_opts *o, uint32_t ng, bool self,
		      struct inj_cand *cand, struct inj_list *li)
{
	uint32_t n = 0, m = 0, nsw = t->nswitches;

	li->off = calloc((size_t)ng + 2, sizeof(uint32_t));
	li->gs = malloc(((size_t)ng + 1) * sizeof(uint32_t));
	li->ngs = 0;
	if (!li->off || !li->gs)
		return -ENOMEM;
	for (uint32_t node = 0; node < t->nnodes; node++) {
		uint32_t g = chk_sl_group(o, node), r;

		if (g >= ng || topo_is_switch(t, node) != self)
			continue;
		for (uint32_t k = 0; (r = inj_point(t, node, self, k)) != TOPO_NONE; k++)
			if (r != TOPO_NONE - 1) {
				cand[m].gs = (uint64_t)g * nsw + t->node_sw[t->port_node[r]];
				cand[m].seq = m;
				cand[m++].port = r;
			}
	}
	qsort(cand, m, sizeof(*cand), cmp_cand);	/* by group, switch, then node order */
	li->sw = malloc(((size_t)m + 1) * sizeof(uint32_t));
	li->port = malloc(((size_t)m + 1) * sizeof(uint32_t));
	if (!li->sw || !li->port)
		return -ENOMEM;
	for (uint32_t i = 0; i < m; i++) {
		if (i && cand[i].gs == cand[i - 1].gs)
			continue;	/* a later point of the same group and switch */
		li->sw[n] = (uint32_t)(cand[i].gs % nsw);
		li->port[n++] = cand[i].port;
		li->off[cand[i].gs / nsw + 1]++;
	}
	for (uint32_t g = 0; g < ng; g++) {
		if (li->off[g + 1])
			li->gs[li->ngs++] = g;
		li->off[g + 1] += li->off[g];
	}
	return 0;
}

static void list_free(struct inj_list *li)
{
	free(li->off);
	free(li->sw);
	free(li->port);
	free(li->gs);
}

/* The SLs the walks can carry (@sls: used_sls()), densely. */
static void sl_index(uint16_t sls, struct inject *in)
{
	in->nsl = 0;
	for (unsigned sl = 0; sl < 16; sl++)
		in->six[sl] = (sls & (1u << sl)) ? (uint8_t)in->nsl++ : 0;
}

int chk_inject_init(const struct topo *t, const struct chk_opts *o, uint16_t sls,
		       struct inject *in)
{
	struct inj_cand *cand;
	int rc;

	sl_index(sls, in);
	/* a dense SL index keeps the memo small: it is written at every step */
	in->mark = calloc((size_t)t->nports * in->nsl + 1, sizeof(uint32_t));
	in->blk = malloc(((size_t)t->nswitches + 1) * LFT_COLS);
	cand = malloc(((size_t)t->nports + 1) * sizeof(*cand));
	in->stamp = 0;
	rc = in->mark && in->blk && cand ? 0 : -ENOMEM;
	if (!rc)
		rc = list_build(t, o, in->ng, false, cand, &in->ca);
	if (!rc)
		rc = list_build(t, o, in->ng, true, cand, &in->self);
	free(cand);
	return rc;
}

void chk_inject_free(struct inject *in)
{
	list_free(&in->ca);
	list_free(&in->self);
	free(in->mark);
	free(in->blk);
	memset(in, 0, sizeof(*in));
}

/*
 * Edges of the routes that packets of group @g and traffic class @k take
 * toward @lid from every injection point of @li.  A channel's VL depends on the packet's SL and
 * on the port it entered its switch by, so what follows a channel depends
 * only on (channel, SL): the walks of all groups toward one LID share one
 * memo of (channel, SL) pairs already continued (in->stamp is per LID).
 * A walk stops at a switch whose route is not valid (@ok), or, without
 * @ok, at a switch without a table.
 */
/*
 * Edge (p, vp) -> (q, vq) (q: port number qn of the switch p leads to):
 * into @es, or with a trace, checked: the traced order must have it going
 * down (chk_trace.c).
 */
static inline void edge(struct inject *in, struct edge_set *es, const struct topo *t, uint32_t p,
			unsigned vp, uint32_t q, uint32_t qn, unsigned vq)
{
	const struct chk_trace *tr = in->tr;
	uint32_t a, b;

	if (in->hit) {
		uint64_t bit = set_bit(&in->hit->set, t, p, vp, qn, vq);

		for (uint32_t j = 0; set_has(&in->hit->set, bit) && j < in->hit->n; j++)
			in->hmask |= (uint64_t)(in->hit->bit[j] == bit) << j;
		return;
	}
	if (!tr) {
		set_add(es, t, p, vp, qn, vq);
		return;
	}
	a = in->pmap[p];
	b = in->pmap[q];
	if (a == TOPO_NONE || b == TOPO_NONE || tr->vix[vp] == 0xff || tr->vix[vq] == 0xff ||
	    tr->ord[(size_t)a * tr->nvl + tr->vix[vp]] <= tr->ord[(size_t)b * tr->nvl + tr->vix[vq]])
		in->bad = true;
}

static void walk_edges(const struct topo *t, const uint8_t *col, const uint8_t *ok,
		       const uint8_t *l_have, const struct chk_opts *o, struct inject *in,
		       const struct inj_list *li, uint32_t g, unsigned k, uint32_t lid,
		       struct edge_set *es)
{
	uint32_t nlids = t->max_lid + 1;
	unsigned sl = chk_sl(o, g, nlids, lid, k);
	size_t si = in->six[sl], nsl = in->nsl;

	for (uint32_t i = li->off[g]; i < li->off[g + 1]; i++) {
		uint32_t s = li->sw[i], p = TOPO_NONE, vp = 0, from = li->port[i];

		for (;;) {
			uint64_t bit = (uint64_t)lid * t->nswitches + s;
			uint32_t q, n, vq;

			if (ok ? !(ok[bit >> 3] & (1u << (bit & 7))) : !l_have[s])
				break;
			if (p == TOPO_NONE) {	/* else the hop before found it (q, vq) */
				p = sw_channel(t, col, s);
				if (p == TOPO_NONE)
					break;
				vp = chk_vl_in(o, from, p, sl);
			}
			n = t->node_sw[t->port_node[t->port_remote[p]]];
			q = sw_channel(t, col, n);
			if (q == TOPO_NONE)
				break;
			vq = chk_vl_in(o, t->port_remote[p], q, sl);
			edge(in, es, t, p, vp, q, q - t->port_off[t->sw_node[n]], vq);
			/* what follows q depends on (p, SL) only: once per LID */
			if (in->mark[p * nsl + si] == in->stamp)
				break;
			in->mark[p * nsl + si] = in->stamp;
			s = n;
			p = q;
			vp = vq;
		}
	}
}

void chk_walk_lid(const struct topo *t, const uint8_t *col, const uint8_t *ok,
		  const struct lft *l, const struct chk_opts *o, struct inject *in,
		  const struct inj_list *li, uint32_t lid, struct edge_set *es)
{
	unsigned nk = o && o->sl && o->tcs && o->tcs->n ? o->tcs->n : 1;

	in->stamp++;
	for (uint32_t x = 0; x < li->ngs; x++)	/* groups without one: no walk */
		for (unsigned c = 0; c < nk; c++)
			walk_edges(t, col, ok, l->have, o, in, li, li->gs[x], c, lid, es);
}

/*
 * CDG edges of CA-injected routes (@sw false) or of switch-injected ones:
 * every LID in blocks of LFT_COLS, or with @next the blocks that cursor
 * hands out (shared with another collector: chk_cdg_help()).
 */
static int collect_edges(const struct topo *t, const struct lft *l, const uint8_t *ok,
			 const struct chk_opts *o, struct inject *in, bool sw, struct edge_set *es,
			 atomic_uint *next)
{
	uint8_t *blk = in->blk;
	uint32_t lids[LFT_COLS];
	const struct inj_list *li = sw ? &in->self : &in->ca;

	for (uint32_t lid0 = next ? atomic_fetch_add(next, LFT_COLS) : 1; lid0 <= t->max_lid;
	     lid0 = next ? atomic_fetch_add(next, LFT_COLS) : lid0 + LFT_COLS) {
		uint32_t n = t->max_lid + 1 - lid0 < LFT_COLS ? t->max_lid + 1 - lid0 : LFT_COLS;

		for (uint32_t k = 0; k < n; k++)
			lids[k] = lid0 + k;
		lft_cols_get(l, lids, n, blk);
		for (uint32_t k = 0; k < n; k++) {
			if (t->lid_port[lids[k]] == TOPO_NONE)
				continue;
			chk_walk_lid(t, blk + k, ok, l, o, in, li, lids[k], es);
		}
	}
	return 0;
}

/* The CSR graph of the edge bits; edges into vertices without edges (sinks) are dropped. */
static int build_csr(const struct topo *t, const struct edge_set *es, struct cdg *g)
{
	unsigned nvl = es->nvl;
	uint32_t *vid = malloc(((size_t)t->nports * nvl + 1) * sizeof(uint32_t));
	size_t m = 0;

	if (!vid)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++) {	/* vertices: channels with edges */
		uint32_t nq = es->row[p] == NOROW ? 0 :
			      t->node_nports[t->port_node[t->port_remote[p]]] + 1u;

		for (unsigned vi = 0; vi < nvl; vi++) {
			uint64_t b0 = es->row[p] + (uint64_t)vi * nq * nvl;
			size_t k = m;

			for (uint64_t b = b0; b < b0 + (uint64_t)nq * nvl; b++)
				m += set_has(es, b);
			vid[(size_t)p * nvl + vi] = m > k ? g->nv++ : UNSET;
		}
	}
	g->vert = malloc(((size_t)g->nv + 1) * sizeof(uint32_t));
	g->off = calloc((size_t)g->nv + 2, sizeof(uint32_t));
	g->adj = malloc((m + 1) * sizeof(uint32_t));
	if (!g->vert || !g->off || !g->adj) {
		free(vid);
		return -ENOMEM;
	}
	m = 0;
	for (uint32_t p = 0; p < t->nports; p++)
		for (unsigned vi = 0; vi < nvl; vi++) {
			uint32_t v = vid[(size_t)p * nvl + vi], n, nq;
			uint64_t b;

			if (v == UNSET)
				continue;
			n = t->port_node[t->port_remote[p]];
			nq = t->node_nports[n] + 1u;
			g->vert[v] = p * 16 + es->vl[vi];
			g->off[v] = (uint32_t)m;
			b = es->row[p] + (uint64_t)vi * nq * nvl;
			for (uint32_t qn = 0; qn < nq; qn++)
				for (unsigned vj = 0; vj < nvl; vj++, b++) {
					uint32_t w = (t->port_off[n] + qn) * nvl + vj;

					if (set_has(es, b) && vid[w] != UNSET)
						g->adj[m++] = vid[w];
				}
		}
	g->off[g->nv] = (uint32_t)m;
	free(vid);
	return 0;
}

/* ---- cycle printing ---------------------------------------------------------------- */

/* "desc/port", or "0xGUID/port" when the description is empty or not unique */
static void port_text(const struct topo *t, uint32_t vert, char *buf)
{
	uint32_t p = vert / 16;
	char name[NAME_LEN];

	snprintf(buf, NAME_LEN + 8, "%s/%u", chk_node_name(t, t->port_node[p], name, sizeof(name)),
		 topo_port_num(t, p));
}

/* Shortest cycle through @root inside component @cid; returns its length. */
static uint32_t find_cycle(struct cdg *g, uint32_t root, uint32_t cid, uint32_t *cyc)
{
	uint32_t head = 0, tail = 0, last = UNSET, n = 0;

	g->par[root] = root;
	g->queue[tail++] = root;
	while (head < tail && last == UNSET) {
		uint32_t v = g->queue[head++];

		for (uint32_t i = g->off[v]; i < g->off[v + 1]; i++) {
			uint32_t w = g->adj[i];

			if (w == root) {
				last = v;
				break;
			}
			if (g->comp[w] != cid || g->par[w] != UNSET)
				continue;
			g->par[w] = v;
			g->queue[tail++] = w;
		}
	}
	for (uint32_t v = last; v != UNSET; v = v == root ? UNSET : g->par[v])
		cyc[n++] = v;
	for (uint32_t i = 0; i < tail; i++)
		g->par[g->queue[i]] = UNSET;
	/* cyc holds the cycle backwards from last to root: reverse it */
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t x = cyc[i];

		cyc[i] = cyc[n - 1 - i];
		cyc[n - 1 - i] = x;
	}
	return n;
}

static void report_cycle(const struct topo *t, struct cdg *g, uint32_t root, uint32_t cid,
			 uint32_t size, struct chk_report *r)
{
	char ex[sizeof(r->f[0].ex[0])], pt[NAME_LEN + 8];
	uint32_t *cyc = g->cyc;
	uint32_t n = find_cycle(g, root, cid, cyc), vl = g->vert[cyc[0]] % 16;
	bool mixed = false;
	size_t k, cap = sizeof(ex) - (size > n ? 68 : 24);	/* room for the suffixes */

	g->ncyc++;
	if (g->hit) {	/* chk_loop_lids(): the cycle's edges, if there is room (else
			 * the next round's) */
		struct loop_edges *h = g->hit;

		for (uint32_t i = 0; h->n + n <= LOOP_EDGES && i < n; i++) {
			uint32_t v = g->vert[cyc[i]], w = g->vert[cyc[(i + 1) % n]], q = w / 16;
			uint64_t b = set_bit(&h->set, t, v / 16, v % 16,
					     q - t->port_off[t->port_node[q]], w % 16);

			h->set.bits[b / 64] |= 1ull << (b % 64);
			h->bit[h->n] = b;
			h->cyc[h->n++] = h->ncyc;
		}
		h->ncyc += h->n && h->cyc[h->n - 1] == h->ncyc;	/* it had room */
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		mixed = mixed || g->vert[cyc[i]] % 16 != vl;
	k = mixed ? (size_t)snprintf(ex, sizeof(ex), "VLs mixed:")
		  : (size_t)snprintf(ex, sizeof(ex), "VL%u:", vl);
	for (uint32_t i = 0; i <= n && k < sizeof(ex); i++) {
		uint32_t v = g->vert[cyc[i % n]];
		int w;

		port_text(t, v, pt);
		if (k + strlen(pt) + 4 > cap) {
			k += (size_t)snprintf(ex + k, sizeof(ex) - k, " -> ... (%u links)", n);
			break;
		}
		w = mixed ? snprintf(ex + k, sizeof(ex) - k, "%s %s(VL%u)", i ? " ->" : "", pt,
				     v % 16)
			  : snprintf(ex + k, sizeof(ex) - k, "%s %s", i ? " ->" : "", pt);
		k += w > 0 ? (size_t)w : 0;
	}
	if (size > n && k < sizeof(ex))
		snprintf(ex + k, sizeof(ex) - k, " (strongly connected set of %u channels)", size);
	if (r->f[g->kind].nex < CHK_EXAMPLES)
		chk_finding_add(r, g->kind, chk_finding_hard(g->kind), "%s", ex);
	else
		r->f[g->kind].count++;
}

/* ---- Tarjan ------------------------------------------------------------------------ */

/* Pop the SCC rooted at @v; report it when it holds a cycle. */
static void pop_scc(const struct topo *t, struct cdg *g, uint32_t v, uint32_t *sp,
		    uint32_t *ncomp, struct chk_report *r)
{
	uint32_t size = 0, w, cid = (*ncomp)++;
	bool self = false;

	do {
		w = g->stk[--*sp];
		g->onstk[w] = 0;
		g->comp[w] = cid;
		size++;
	} while (w != v);
	for (uint32_t i = g->off[v]; i < g->off[v + 1] && size == 1; i++)
		self = self || g->adj[i] == v;
	if (size > 1 || self)
		report_cycle(t, g, v, cid, size, r);
}

static void tarjan(const struct topo *t, struct cdg *g, struct chk_report *r)
{
	uint32_t counter = 0, sp = 0, ncomp = 0;

	for (uint32_t s = 0; s < g->nv; s++) {
		uint32_t csp = 0;

		if (g->idx[s] != UNSET)
			continue;
		g->idx[s] = g->low[s] = counter++;
		g->stk[sp++] = s;
		g->onstk[s] = 1;
		g->cs[csp] = s;
		g->cpos[csp++] = g->off[s];
		while (csp) {
			uint32_t v = g->cs[csp - 1];

			if (g->cpos[csp - 1] < g->off[v + 1]) {
				uint32_t w = g->adj[g->cpos[csp - 1]++];

				if (g->idx[w] == UNSET) {
					g->idx[w] = g->low[w] = counter++;
					g->stk[sp++] = w;
					g->onstk[w] = 1;
					g->cs[csp] = w;
					g->cpos[csp++] = g->off[w];
				} else if (g->onstk[w] && g->idx[w] < g->low[v]) {
					g->low[v] = g->idx[w];
				}
				continue;
			}
			csp--;
			if (csp && g->low[v] < g->low[g->cs[csp - 1]])
				g->low[g->cs[csp - 1]] = g->low[v];
			if (g->low[v] == g->idx[v])
				pop_scc(t, g, v, &sp, &ncomp, r);
		}
	}
}

/* Cycles of the CDG made of @es, reported as @kind. */
/*
 * The order of an acyclic @g for chk_trace, in @es's VL numbering: each
 * vertex's height, 1 + the longest path of edges out of it (an edge goes
 * down the heights).  Not Tarjan's own numbering, which follows the order
 * the search met the vertices: heights follow the fabric's structure (an
 * up-channel of a level sits above every up-channel of the next one in an
 * up*down* layer), so a new route of the same shape fits them too.
 * Tarjan numbered the components sinks first: one pass in that order.
 */
static int keep_order(const struct topo *t, const struct edge_set *es, struct cdg *g,
		      struct chk_trace *tr)
{
	uint32_t *by = malloc(((size_t)g->nv + 1) * sizeof(uint32_t)), *h = g->low;

	if (!by)
		return -ENOMEM;
	for (uint32_t v = 0; v < g->nv; v++)
		by[g->comp[v]] = v;	/* one vertex per component */
	for (uint32_t i = 0; i < g->nv; i++) {
		uint32_t v = by[i], top = 0;

		for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++)
			top = h[g->adj[k]] > top ? h[g->adj[k]] : top;
		h[v] = top + 1;	/* Tarjan's low[] is not needed any more */
	}
	free(by);
	tr->nvl = es->nvl;
	memset(tr->vix, 0xff, sizeof(tr->vix));
	for (unsigned i = 0; i < es->nvl; i++)
		tr->vix[es->vl[i]] = (uint8_t)i;
	free(tr->ord);
	tr->ord = calloc((size_t)t->nports * es->nvl + 1, sizeof(uint32_t));
	if (!tr->ord)
		return -ENOMEM;
	for (uint32_t v = 0; v < g->nv; v++)
		tr->ord[(size_t)(g->vert[v] / 16) * es->nvl + es->vix[g->vert[v] % 16]] = h[v];
	return 0;
}

int chk_cdg_cycles(const struct topo *t, const struct edge_set *es, enum chk_finding_kind kind,
		  uint32_t *ncyc, struct chk_report *r, struct chk_trace *tr, struct loop_edges *hit)
{
	struct cdg g;
	size_t n;
	int rc;

	memset(&g, 0, sizeof(g));
	g.kind = kind;
	g.hit = hit;
	rc = build_csr(t, es, &g);
	if (rc)
		goto out;
	rc = -ENOMEM;
	n = (size_t)g.nv + 1;
	g.idx = malloc(n * sizeof(uint32_t));
	g.low = malloc(n * sizeof(uint32_t));
	g.stk = malloc(n * sizeof(uint32_t));
	g.cs = malloc(n * sizeof(uint32_t));
	g.cpos = malloc(n * sizeof(uint32_t));
	g.comp = malloc(n * sizeof(uint32_t));
	g.par = malloc(n * sizeof(uint32_t));
	g.queue = malloc(n * sizeof(uint32_t));
	g.cyc = malloc(n * sizeof(uint32_t));
	g.onstk = calloc(n, 1);
	if (!g.idx || !g.low || !g.stk || !g.cs || !g.cpos || !g.comp || !g.par || !g.queue ||
	    !g.cyc || !g.onstk)
		goto out;
	for (size_t i = 0; i < n; i++)
		g.idx[i] = g.comp[i] = g.par[i] = UNSET;
	tarjan(t, &g, r);
	*ncyc = g.ncyc;
	rc = tr && !g.ncyc ? keep_order(t, es, &g, tr) : 0;
out:
	cdg_free(&g);
	return rc;
}

void chk_cdg_free(struct chk_cdg *g)
{
	if (!g)
		return;
	chk_es_free(&g->ca);
	chk_es_free(&g->all);
	chk_inject_free(&g->in);
	free(g);
}

int chk_cdg_prepare(const struct topo *t, const struct chk_opts *o, struct chk_cdg **out)
{
	struct chk_cdg *g = calloc(1, sizeof(*g));
	uint16_t sls;
	int rc;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	if ((uint64_t)t->nports * 16 >= UINT32_MAX) {
		free(g);
		return -EOVERFLOW;
	}
	g->sw = !(o && o->no_switch_cdg);
	g->ng = g->in.ng = o && o->sl && o->sl_group ? o->sl_ngroups : 1;
	g->sls = sls = used_sls(t, o, g->in.ng, NULL, 0);	/* one scan of the SL table */
	atomic_init(&g->next, 1);
	rc = chk_inject_init(t, o, sls, &g->in);
	if (!rc)
		rc = set_init(t, o, sls, &g->ca);
	if (!rc && g->sw)
		rc = chk_es_like(&g->ca, &g->all, t);
	if (rc) {
		chk_cdg_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

int chk_cdg_fill(const struct topo *t, const struct lft *l, const uint8_t *ok,
		 const struct chk_opts *o, struct chk_cdg *g)
{
	/* with a switch-injected graph to follow, no helper (chk_cdg_help()) */
	int rc = collect_edges(t, l, ok, o, &g->in, false, &g->ca, g->sw ? NULL : &g->next);

	if (!rc && g->sw) {	/* the switch-injected graph holds the CA-injected one */
		for (size_t i = 0; i < g->ca.nwords; i++)
			g->all.bits[i] |= g->ca.bits[i];
		rc = collect_edges(t, l, ok, o, &g->in, true, &g->all, NULL);
	}
	chk_inject_free(&g->in);
	return rc;
}

int chk_cdg_help(const struct topo *t, const struct lft *l, const uint8_t *ok,
		 const struct chk_opts *o, struct chk_cdg *g, struct chk_cdg **h)
{
	struct chk_cdg *x;
	int rc;

	*h = NULL;
	if (g->sw)
		return 0;	/* chk_cdg_fill() does it all */
	if (!(x = calloc(1, sizeof(*x))))
		return -ENOMEM;
	x->in.ng = g->ng;	/* not g->in's: the fill thread frees that */
	rc = chk_inject_init(t, o, g->sls, &x->in);
	if (!rc)
		rc = chk_es_like(&g->ca, &x->ca, t);
	if (!rc)
		rc = collect_edges(t, l, ok, o, &x->in, false, &x->ca, &g->next);
	chk_inject_free(&x->in);
	if (rc) {
		chk_cdg_free(x);
		return rc;
	}
	*h = x;
	return 0;
}

void chk_cdg_absorb(struct chk_cdg *g, struct chk_cdg *h)
{
	for (size_t i = 0; h && i < g->ca.nwords; i++)
		g->ca.bits[i] |= h->ca.bits[i];
	chk_cdg_free(h);
}

int chk_cdg_collect(const struct topo *t, const struct lft *l, const uint8_t *ok,
		    const struct chk_opts *o, struct chk_cdg **g)
{
	int rc = chk_cdg_prepare(t, o, g);

	if (!rc && (rc = chk_cdg_fill(t, l, ok, o, *g))) {
		chk_cdg_free(*g);
		*g = NULL;
	}
	return rc;
}

int chk_cdg_judge_trace(const struct topo *t, const struct chk_cdg *g, struct chk_report *r,
			struct chk_trace *tr)
{
	uint32_t nca = 0, nall = 0;
	int rc = chk_cdg_cycles(t, &g->ca, CHK_F_CREDIT_LOOP, &nca, r, tr, NULL);

	if (!rc && !nca && g->sw)
		rc = chk_cdg_cycles(t, &g->all, CHK_F_CREDIT_LOOP_SW, &nall, r, NULL, NULL);
	return rc;
}

int chk_cdg_judge(const struct topo *t, const struct chk_cdg *g, struct chk_report *r)
{
	return chk_cdg_judge_trace(t, g, r, NULL);
}

int chk_cdg_since_from(const struct topo *t, const struct lft *l, const uint8_t *ok,
		       const struct chk_opts *o, const uint32_t *lids, uint32_t n,
		       const struct chk_trace *tr, const uint32_t *pmap,
		       struct chk_since_share *sh)
{
	atomic_uint *next = sh ? &sh->next : NULL;
	struct inject in;
	int sls = sh ? atomic_load(&sh->sls) : -1;
	bool bad;
	int rc;

	memset(&in, 0, sizeof(in));
	in.ng = o && o->sl && o->sl_group ? o->sl_ngroups : 1;
	in.tr = tr;
	in.pmap = pmap;
	if (sls < 0)	/* theirs alone, read once for both threads */
		sls = used_sls(t, o, in.ng, lids, n);
	if (sh)
		atomic_store(&sh->sls, sls);
	rc = chk_inject_init(t, o, (uint16_t)sls, &in);
	for (uint32_t i = next ? atomic_fetch_add(next, LFT_COLS) : 0; !rc && i < n && !in.bad;
	     i = next ? atomic_fetch_add(next, LFT_COLS) : i + LFT_COLS) {
		uint32_t nb = n - i < LFT_COLS ? n - i : LFT_COLS;

		lft_cols_get(l, lids + i, nb, in.blk);
		for (uint32_t k = 0; k < nb && !in.bad; k++) {
			if (t->lid_port[lids[i + k]] == TOPO_NONE)
				continue;
			chk_walk_lid(t, in.blk + k, ok, l, o, &in, &in.ca, lids[i + k], NULL);
		}
	}
	bad = in.bad;
	chk_inject_free(&in);
	return rc ? rc : bad;
}

int chk_cdg_since(const struct topo *t, const struct lft *l, const uint8_t *ok,
		  const struct chk_opts *o, const uint32_t *lids, uint32_t n,
		  const struct chk_trace *tr, const uint32_t *pmap)
{
	return chk_cdg_since_from(t, l, ok, o, lids, n, tr, pmap, NULL);
}

int chk_credit_loops(const struct topo *t, const struct lft *l, const uint8_t *ok,
		     const struct chk_opts *o, struct chk_report *r)
{
	struct chk_cdg *g;
	int rc = chk_cdg_collect(t, l, ok, o, &g);

	if (!rc)
		rc = chk_cdg_judge(t, g, r);
	chk_cdg_free(g);
	return rc;
}

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
 * Edges are deduplicated in an open-addressing hash set of 64-bit keys
 * while the O(switches x LIDs) routes are scanned, then sorted into CSR
 * form.  Cycles are the strongly connected components with more than one
 * vertex (or a self-edge), found with an iterative Tarjan (explicit stack:
 * no recursion depth limit).  For each such SCC one shortest cycle through
 * its root is found by BFS inside the SCC and printed as
 * "VL0: sw-a/21 -> sw-b/3 -> sw-c/7 -> sw-a/21" (NodeDescription, or GUID
 * when it is empty or shared with another node, / port number of each
 * sending port), followed by the SCC's size when it is larger.  One credit_loop
 * finding (hard) per cyclic SCC.
 *
 * Cost: O(switches x LIDs) hash inserts, O(E log E) sort, O(V + E) Tarjan
 * and cycle BFS, with E <= channels x radix x VLs in use.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#define EMPTY UINT64_MAX
#define NAME_LEN 72
#define UNSET UINT32_MAX

struct edge_set {
	uint64_t *v;
	size_t cap, n;
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static int set_grow(struct edge_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 1u << 12;
	uint64_t *v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++)
		v[i] = EMPTY;
	for (size_t i = 0; i < s->cap; i++) {
		size_t h;

		if (s->v[i] == EMPTY)
			continue;
		for (h = mix64(s->v[i]) & (cap - 1); v[h] != EMPTY; h = (h + 1) & (cap - 1))
			;
		v[h] = s->v[i];
	}
	free(s->v);
	s->v = v;
	s->cap = cap;
	return 0;
}

static int set_add(struct edge_set *s, uint64_t key)
{
	size_t h;

	if (2 * (s->n + 1) > s->cap && set_grow(s))
		return -ENOMEM;
	for (h = mix64(key) & (s->cap - 1); s->v[h] != EMPTY; h = (h + 1) & (s->cap - 1))
		if (s->v[h] == key)
			return 0;
	s->v[h] = key;
	s->n++;
	return 0;
}

/* The CDG in CSR form over the vertices that have outgoing edges. */
struct cdg {
	enum chk_finding_kind kind;	/* what a cycle is reported as */
	uint32_t ncyc;			/* cyclic SCCs found */
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

/* The channel @s (switch ordinal) uses toward @lid into another switch, or TOPO_NONE. */
static uint32_t sw_channel(const struct topo *t, const struct lft *l, uint32_t s, uint32_t lid)
{
	uint32_t node = t->sw_node[s], p, r;
	uint8_t e = lft_get(l, s, lid);

	if (e == 0 || e == LFT_NONE || e > t->node_nports[node])
		return TOPO_NONE;
	p = topo_port(t, node, e);
	r = t->port_remote[p];
	if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
		return TOPO_NONE;
	return p;
}

/*
 * Where each source group's packets enter the fabric: per group a list of
 * (switch ordinal, port the packet enters it by), CA-injected (the first
 * CA port of the group on that switch) and switch-originated (port 0).
 */
struct inj_list {
	uint32_t *off;		/* [ng + 1] */
	uint32_t *sw, *port;	/* [off[ng]] */
};

struct inject {
	uint32_t ng;
	struct inj_list ca, self;
	uint32_t *mark;		/* [nports * 16]: stamp of the LID walked from (channel, SL) */
	uint32_t stamp;
};

static int list_build(const struct topo *t, const struct chk_opts *o, uint32_t ng, bool self,
		      uint32_t *first, struct inj_list *li)
{
	uint32_t nsw = t->nswitches, n = 0;

	for (size_t i = 0; i < (size_t)ng * nsw; i++)
		first[i] = 0;
	for (uint32_t node = 0; node < t->nnodes; node++) {
		uint32_t g = chk_sl_group(o, node);

		if (g >= ng || topo_is_switch(t, node) != self)
			continue;
		if (self) {
			first[(size_t)g * nsw + t->node_sw[node]] = t->port_off[node] + 1;
			continue;
		}
		for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
			uint32_t r = t->port_remote[p];
			size_t i;

			if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
				continue;
			i = (size_t)g * nsw + t->node_sw[t->port_node[r]];
			if (!first[i])
				first[i] = r + 1;
		}
	}
	for (size_t i = 0; i < (size_t)ng * nsw; i++)
		n += first[i] != 0;
	li->off = calloc((size_t)ng + 1, sizeof(uint32_t));
	li->sw = malloc(((size_t)n + 1) * sizeof(uint32_t));
	li->port = malloc(((size_t)n + 1) * sizeof(uint32_t));
	if (!li->off || !li->sw || !li->port)
		return -ENOMEM;
	n = 0;
	for (uint32_t g = 0; g < ng; g++) {
		li->off[g] = n;
		for (uint32_t s = 0; s < nsw; s++)
			if (first[(size_t)g * nsw + s]) {
				li->sw[n] = s;
				li->port[n++] = first[(size_t)g * nsw + s] - 1;
			}
	}
	li->off[ng] = n;
	return 0;
}

static void list_free(struct inj_list *li)
{
	free(li->off);
	free(li->sw);
	free(li->port);
}

static int inject_init(const struct topo *t, const struct chk_opts *o, struct inject *in)
{
	uint32_t *first;
	int rc;

	in->ng = o && o->sl && o->sl_group ? o->sl_ngroups : 1;
	in->mark = calloc((size_t)t->nports * 16 + 1, sizeof(uint32_t));
	first = malloc(((size_t)in->ng * t->nswitches + 1) * sizeof(uint32_t));
	in->stamp = 0;
	rc = in->mark && first ? 0 : -ENOMEM;
	if (!rc)
		rc = list_build(t, o, in->ng, false, first, &in->ca);
	if (!rc)
		rc = list_build(t, o, in->ng, true, first, &in->self);
	free(first);
	return rc;
}

static void inject_free(struct inject *in)
{
	list_free(&in->ca);
	list_free(&in->self);
	free(in->mark);
}

/*
 * Edges of the routes that packets of group @g take toward @lid from every
 * injection point of @li.  A channel's VL depends on the packet's SL and
 * on the port it entered its switch by, so what follows a channel depends
 * only on (channel, SL): the walks of all groups toward one LID share one
 * memo of (channel, SL) pairs already continued (in->stamp is per LID).
 */
static int walk_edges(const struct topo *t, const struct lft *l, const uint8_t *ok,
		      const struct chk_opts *o, struct inject *in, const struct inj_list *li,
		      uint32_t g, uint32_t lid, struct edge_set *es)
{
	uint32_t nlids = t->max_lid + 1, sl = o && o->sl ? o->sl[(size_t)g * nlids + lid] & 15 : 0;

	for (uint32_t i = li->off[g]; i < li->off[g + 1]; i++) {
		uint32_t s = li->sw[i], p, vp, from = li->port[i];

		for (;;) {
			uint64_t bit = (uint64_t)s * nlids + lid;
			uint32_t q, n, vq;

			if (!(ok[bit >> 3] & (1u << (bit & 7))))
				break;
			p = sw_channel(t, l, s, lid);
			if (p == TOPO_NONE)
				break;
			vp = chk_vl_in(o, from, p, g, nlids, lid);
			n = t->node_sw[t->port_node[t->port_remote[p]]];
			q = sw_channel(t, l, n, lid);
			if (q == TOPO_NONE)
				break;
			vq = chk_vl_in(o, t->port_remote[p], q, g, nlids, lid);
			if (set_add(es, ((uint64_t)(p * 16 + vp) << 32) | (q * 16 + vq)))
				return -ENOMEM;
			/* what follows q depends on (p, SL) only: once per LID */
			if (in->mark[(size_t)p * 16 + sl] == in->stamp)
				break;
			in->mark[(size_t)p * 16 + sl] = in->stamp;
			from = t->port_remote[p];
			s = n;
		}
	}
	return 0;
}

/* CDG edges of CA-injected routes (@sw false) or of switch-injected ones. */
static int collect_edges(const struct topo *t, const struct lft *l, const uint8_t *ok,
			 const struct chk_opts *o, struct inject *in, bool sw, struct edge_set *es)
{
	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		if (t->lid_port[lid] == TOPO_NONE)
			continue;
		in->stamp++;
		for (uint32_t g = 0; g < in->ng; g++) {
			int rc = walk_edges(t, l, ok, o, in, sw ? &in->self : &in->ca, g, lid, es);

			if (rc)
				return rc;
		}
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t find_vert(const struct cdg *g, uint32_t key)
{
	uint32_t lo = 0, hi = g->nv;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->vert[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nv && g->vert[lo] == key ? lo : UNSET;
}

/* Sort the edge keys and build the CSR graph; edges to sinks are dropped. */
static int build_csr(struct edge_set *es, struct cdg *g)
{
	uint64_t *e = es->v;
	size_t n = 0, m = 0;
	uint32_t v = 0;

	for (size_t i = 0; i < es->cap; i++)
		if (e[i] != EMPTY)
			e[n++] = e[i];
	qsort(e, n, sizeof(*e), cmp_u64);
	g->vert = malloc((n + 1) * sizeof(uint32_t));
	g->off = calloc(n + 2, sizeof(uint32_t));
	g->adj = malloc((n + 1) * sizeof(uint32_t));
	if (!g->vert || !g->off || !g->adj)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!g->nv || g->vert[g->nv - 1] != (uint32_t)(e[i] >> 32))
			g->vert[g->nv++] = (uint32_t)(e[i] >> 32);
	for (size_t i = 0; i < n; i++) {
		uint32_t src = (uint32_t)(e[i] >> 32), w = find_vert(g, (uint32_t)e[i]);

		while (g->vert[v] != src)
			g->off[++v] = (uint32_t)m;
		if (w != UNSET)
			g->adj[m++] = w;
	}
	while (v < g->nv)
		g->off[++v] = (uint32_t)m;
	g->off[g->nv] = (uint32_t)m;
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
	g->ncyc++;
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

/* Cycles of the CDG made of @es (consumed), reported as @kind. */
static int cycles(const struct topo *t, struct edge_set *es, enum chk_finding_kind kind,
		  uint32_t *ncyc, struct chk_report *r)
{
	struct cdg g;
	size_t n;
	int rc;

	memset(&g, 0, sizeof(g));
	g.kind = kind;
	rc = build_csr(es, &g);
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
	rc = 0;
out:
	cdg_free(&g);
	return rc;
}

static int edge_copy(const struct edge_set *a, struct edge_set *b)
{
	b->v = malloc(a->cap * sizeof(*b->v));
	if (!b->v)
		return -ENOMEM;
	memcpy(b->v, a->v, a->cap * sizeof(*b->v));
	b->cap = a->cap;
	b->n = a->n;
	return 0;
}

int chk_credit_loops(const struct topo *t, const struct lft *l, const uint8_t *ok,
		     const struct chk_opts *o, struct chk_report *r)
{
	struct edge_set ca = { NULL, 0, 0 }, all = { NULL, 0, 0 };
	struct inject in;
	uint32_t nca = 0, nall = 0;
	int rc;

	if ((uint64_t)t->nports * 16 >= UINT32_MAX)
		return -EOVERFLOW;
	memset(&in, 0, sizeof(in));
	rc = inject_init(t, o, &in);
	if (!rc)
		rc = set_grow(&ca);
	if (!rc)
		rc = collect_edges(t, l, ok, o, &in, false, &ca);
	if (!rc && !(o && o->no_switch_cdg))
		rc = edge_copy(&ca, &all);
	if (!rc && !(o && o->no_switch_cdg))
		rc = collect_edges(t, l, ok, o, &in, true, &all);
	inject_free(&in);
	if (!rc)
		rc = cycles(t, &ca, CHK_F_CREDIT_LOOP, &nca, r);
	if (!rc && !nca && all.v)
		rc = cycles(t, &all, CHK_F_CREDIT_LOOP_SW, &nall, r);
	free(ca.v);
	free(all.v);
	return rc;
}

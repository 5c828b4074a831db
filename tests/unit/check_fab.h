/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_fab.h - hand-built fabrics and min-hop LFTs for the checker's
 * unit tests (test_check.c, test_cdg.c), and running the checker on them.
 */
#ifndef FFROUTE_CHECK_FAB_H
#define FFROUTE_CHECK_FAB_H

#include "unit.h"

#include <ffroute/check.h>
#include <ffroute/lft.h>
#include <ffroute/topo.h>

/* ---- fabric building --------------------------------------------------------- */

struct fab {
	struct diag_list dl;
	struct topo_builder *b;
};

static inline void fab_init(struct fab *f)
{
	diag_init(&f->dl, 20);
	f->b = topo_builder_new(&f->dl);
	assert_non_null(f->b);
}

/* A switch (port GUID = node GUID) or a 1-port CA (port GUID = guid + 0x1000). */
static inline void fab_node(struct fab *f, bool sw, uint64_t guid, unsigned nports, const char *desc,
		     uint16_t lid, uint8_t lmc)
{
	struct topo_node_info ni = {
		.type = sw ? TOPO_NODE_SWITCH : TOPO_NODE_CA, .nports = (uint8_t)nports,
		.guid = guid, .desc = desc,
	};
	struct topo_port_info pi = {
		.guid = sw ? guid : guid + 0x1000, .lid = lid, .lmc = lmc,
		.state = TOPO_PORT_ACTIVE,
	};
	int h = topo_builder_add_node(f->b, &ni, NULL);

	assert_true(h >= 0);
	assert_int_equal(topo_builder_set_port(f->b, h, sw ? 0 : 1, &pi, NULL), 0);
}

static inline void fab_link(struct fab *f, uint64_t a, unsigned pa, uint64_t b, unsigned pb)
{
	struct topo_ref r = { NULL, b };
	int h = topo_builder_find_guid(f->b, a);

	assert_true(h >= 0);
	assert_int_equal(topo_builder_add_link(f->b, h, pa, &r, pb, 4, TOPO_SPEED_HDR, NULL), 0);
}

static inline struct topo *fab_finish(struct fab *f)
{
	struct topo *t = topo_builder_finish(f->b);

	if (!t)
		diag_print(&f->dl, stderr);
	assert_non_null(t);
	diag_free(&f->dl);
	return t;
}

static inline uint32_t node_of(const struct topo *t, uint64_t guid)
{
	uint32_t n = topo_find_guid(t, guid);

	assert_true(n != TOPO_NONE);
	return n;
}

static inline uint32_t sw_of(const struct topo *t, uint64_t guid)
{
	return t->node_sw[node_of(t, guid)];
}

/* CA port index of a 1-port CA. */
static inline uint32_t ca_port(const struct topo *t, uint64_t guid)
{
	return topo_port(t, node_of(t, guid), 1);
}

/* Min-hop LFTs: the lowest port toward a switch one hop closer. */
static inline struct lft *minhop(const struct topo *t)
{
	struct lft *l = lft_new(t->nswitches, t->max_lid);
	uint32_t *dist = malloc((t->nswitches + 1) * sizeof(uint32_t));
	uint32_t *q = malloc((t->nswitches + 1) * sizeof(uint32_t));

	assert_non_null(l);
	assert_non_null(dist);
	assert_non_null(q);
	for (uint32_t s = 0; s < t->nswitches; s++)
		l->have[s] = 1;
	for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
		uint32_t dp = t->lid_port[lid], a, head = 0, tail = 0, r;

		if (dp == TOPO_NONE)
			continue;
		r = t->port_remote[dp];
		if (topo_is_switch(t, t->port_node[dp]))
			a = t->node_sw[t->port_node[dp]];
		else if (r != TOPO_NONE && topo_is_switch(t, t->port_node[r]))
			a = t->node_sw[t->port_node[r]];
		else
			continue;
		for (uint32_t s = 0; s < t->nswitches; s++)
			dist[s] = UINT32_MAX;
		dist[a] = 0;
		q[tail++] = a;
		while (head < tail) {
			uint32_t s = q[head++], n = t->sw_node[s];

			for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
				uint32_t rr = t->port_remote[p], o;

				if (rr == TOPO_NONE || !topo_is_switch(t, t->port_node[rr]))
					continue;
				o = t->node_sw[t->port_node[rr]];
				if (dist[o] == UINT32_MAX) {
					dist[o] = dist[s] + 1;
					q[tail++] = o;
				}
			}
		}
		for (uint32_t s = 0; s < t->nswitches; s++) {
			uint32_t n = t->sw_node[s];

			if (s == a) {
				lft_set(l, s, lid, topo_is_switch(t, t->port_node[dp]) ? 0 :
					(uint8_t)topo_port_num(t, r));
				continue;
			}
			for (unsigned pn = 1; dist[s] != UINT32_MAX && pn <= t->node_nports[n]; pn++) {
				uint32_t rr = t->port_remote[topo_port(t, n, pn)];

				if (rr != TOPO_NONE && topo_is_switch(t, t->port_node[rr]) &&
				    dist[t->node_sw[t->port_node[rr]]] + 1 == dist[s]) {
					lft_set(l, s, lid, (uint8_t)pn);
					break;
				}
			}
		}
	}
	free(dist);
	free(q);
	return l;
}

static inline void route(const struct topo *t, struct lft *l, uint64_t sw, uint32_t lid, unsigned port)
{
	lft_set(l, sw_of(t, sw), lid, (uint8_t)port);
}

/* ---- running the checker ------------------------------------------------------- */

struct res {
	struct cls c;
	struct chk_report r;
};

static inline void check(const struct topo *t, const struct lft *l, const struct chk_opts *o,
		  const struct cls_overrides *ov, struct res *x)
{
	struct chk_opts def;

	chk_opts_init(&def);
	assert_int_equal(cls_classify(t, ov, &x->c), 0);
	assert_int_equal(chk_report_init(&x->r, t->nports), 0);
	assert_int_equal(chk_findings(t, l, &x->c, o ? o : &def, &x->r), 0);
}

static inline void res_free(struct res *x)
{
	chk_report_free(&x->r);
	cls_free(&x->c);
}

static inline uint64_t count(const struct res *x, enum chk_finding_kind k)
{
	return x->r.f[k].count;
}

static inline void expect_example(const struct res *x, enum chk_finding_kind k, const char *text)
{
	const struct chk_finding *f = &x->r.f[k];

	for (unsigned i = 0; i < f->nex; i++)
		if (strstr(f->ex[i], text))
			return;
	for (unsigned i = 0; i < f->nex; i++)
		print_message("  %s example: %s\n", chk_finding_name(k), f->ex[i]);
	fail_msg("no %s example contains \"%s\"", chk_finding_name(k), text);
}

/* Every finding kind is zero except those in @nonzero (a bit per kind). */
static inline void expect_only(const struct res *x, unsigned nonzero)
{
	for (unsigned k = 0; k < CHK_F_COUNT; k++)
		if (!(nonzero & (1u << k)) && x->r.f[k].count) {
			print_message("  unexpected %s: %llu (%s)\n",
				      chk_finding_name((enum chk_finding_kind)k),
				      (unsigned long long)x->r.f[k].count, x->r.f[k].ex[0]);
			fail();
		}
}

/* ---- the ring (test_cdg.c, test_check.c's SL2VL) -------------------------------- */

/* R0-R1-R2-R3-R0: Ri[2] -> R(i+1)[3], CA hi on Ri[1]; LIDs hi = i + 1, Ri = 10 + i */
enum { R0 = 0x1001 };

static inline struct topo *ring(void)
{
	static const char *const sws[] = { "R0", "R1", "R2", "R3" };
	static const char *const cas[] = { "h0 mlx5_0", "h1 mlx5_0", "h2 mlx5_0", "h3 mlx5_0" };
	struct fab f;

	fab_init(&f);
	for (unsigned i = 0; i < 4; i++) {
		fab_node(&f, true, R0 + i, 4, sws[i], (uint16_t)(10 + i), 0);
		fab_node(&f, false, 0x2001 + i, 1, cas[i], (uint16_t)(i + 1), 0);
		fab_link(&f, R0 + i, 1, 0x2001 + i, 1);
	}
	for (unsigned i = 0; i < 4; i++)
		fab_link(&f, R0 + i, 2, R0 + (i + 1) % 4, 3);
	return fab_finish(&f);
}

#endif

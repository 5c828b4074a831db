/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * route_util.h - test and benchmark scaffolding, not the routing engine:
 * give a generated fabric LIDs and route it min-hop "D-mod-K".
 *
 *   ru_relid(t, skip, dl)  a copy of @t without node @skip (TOPO_NONE: none)
 *                          and with LIDs: CA ports cabled to a switch get
 *                          1, 2, ... in (switch, switch port) order, other
 *                          cabled CA ports next, then every switch (port 0)
 *   ru_dmodk(t)            LFTs: per destination switch a BFS over switch
 *                          links; a switch forwards LID d over the
 *                          (d mod m)-th, in port order, of its m ports
 *                          toward a neighbour one hop closer; the
 *                          destination's switch uses the CA's port (or 0)
 *
 * With hosts numbered leaf by leaf this is the classic D-mod-K of a 2-level
 * fat tree (Zahavi): every shift permutation is contention-free.
 * O(switches x (ports + LIDs)).
 */
#ifndef FFROUTE_ROUTE_UTIL_H
#define FFROUTE_ROUTE_UTIL_H

#include <stdlib.h>
#include <string.h>

#include <ffroute/lft.h>
#include <ffroute/topo.h>

static inline struct topo *ru_relid(const struct topo *t, uint32_t skip, struct diag_list *dl)
{
	struct topo_builder *b = topo_builder_new(dl);
	uint16_t *lid = calloc((size_t)t->nports + 1, sizeof(*lid));
	int *h = malloc(((size_t)t->nnodes + 1) * sizeof(*h));
	unsigned next = 1;

	if (!b || !lid || !h) {
		topo_builder_free(b);
		free(lid);
		free(h);
		return NULL;
	}
	for (uint32_t q = 0; q < t->nports; q++) {	/* CA ports, by switch port */
		uint32_t r = t->port_remote[q];

		if (r != TOPO_NONE && topo_is_switch(t, t->port_node[q]) &&
		    t->port_node[q] != skip && !topo_is_switch(t, t->port_node[r]) &&
		    t->port_node[r] != skip)
			lid[r] = (uint16_t)next++;
	}
	for (uint32_t p = 0; p < t->nports; p++) {	/* CA ports cabled to CAs */
		uint32_t r = t->port_remote[p];

		if (!lid[p] && r != TOPO_NONE && !topo_is_switch(t, t->port_node[p]) &&
		    t->port_node[p] != skip && t->port_node[r] != skip)
			lid[p] = (uint16_t)next++;
	}
	for (uint32_t n = 0; n < t->nnodes; n++)	/* switches */
		if (topo_is_switch(t, n) && n != skip)
			lid[t->port_off[n]] = (uint16_t)next++;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		struct topo_node_info ni = {
			.type = t->node_type[n], .nports = t->node_nports[n],
			.guid = t->node_guid[n], .sysguid = t->node_sysguid[n],
			.vendor = t->node_vendor[n], .devid = t->node_devid[n],
			.rev = t->node_rev[n], .desc = t->node_desc[n],
			.name = *t->node_name[n] ? t->node_name[n] : NULL,
		};

		h[n] = n == skip ? -1 : topo_builder_add_node(b, &ni, NULL);
		for (unsigned pn = topo_is_switch(t, n) ? 0 : 1; h[n] >= 0 && pn <= ni.nports; pn++) {
			uint32_t p = topo_port(t, n, pn);
			struct topo_port_info pi = {
				.guid = t->port_guid[p], .lid = lid[p], .width = t->port_width[p],
				.speed = t->port_speed[p], .state = t->port_state[p],
			};

			topo_builder_set_port(b, h[n], pn, &pi, NULL);
		}
	}
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p], n = t->port_node[p];
		struct topo_ref ref = { NULL, 0 };

		if (r == TOPO_NONE || r < p || n == skip || t->port_node[r] == skip)
			continue;
		ref.guid = t->node_guid[t->port_node[r]];
		topo_builder_add_link(b, h[n], topo_port_num(t, p), &ref, topo_port_num(t, r),
				      t->port_width[p], t->port_speed[p], NULL);
	}
	free(lid);
	free(h);
	return topo_builder_finish(b);
}

/* Switch node a LID leads to: its own switch, or the switch its CA port is on. */
static inline uint32_t ru_target(const struct topo *t, uint32_t lid, unsigned *pn)
{
	uint32_t p = t->lid_port[lid], r;

	*pn = 0;
	if (p == TOPO_NONE)
		return TOPO_NONE;
	if (topo_is_switch(t, t->port_node[p]))
		return t->port_node[p];
	r = t->port_remote[p];
	if (r == TOPO_NONE || !topo_is_switch(t, t->port_node[r]))
		return TOPO_NONE;
	*pn = topo_port_num(t, r);
	return t->port_node[r];
}

static inline struct lft *ru_dmodk(const struct topo *t)
{
	uint32_t nsw = t->nswitches, *dist = malloc(((size_t)nsw + 1) * sizeof(uint32_t));
	uint32_t *queue = malloc(((size_t)nsw + 1) * sizeof(uint32_t));
	uint8_t *cand = malloc(((size_t)nsw + 1) * 256);
	unsigned *ncand = malloc(((size_t)nsw + 1) * sizeof(unsigned));
	struct lft *l = lft_new(nsw, t->max_lid);

	for (uint32_t tg = 0; l && dist && queue && cand && ncand && tg < nsw; tg++) {
		uint32_t head = 0, tail = 0, tnode = t->sw_node[tg];

		for (uint32_t s = 0; s < nsw; s++)
			dist[s] = UINT32_MAX;
		dist[tg] = 0;
		queue[tail++] = tg;
		while (head < tail) {	/* BFS over switch links */
			uint32_t s = queue[head++], n = t->sw_node[s];

			for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
				uint32_t r = t->port_remote[p], q;

				if (r == TOPO_NONE || (q = t->node_sw[t->port_node[r]]) == TOPO_NONE ||
				    dist[q] != UINT32_MAX)
					continue;
				dist[q] = dist[s] + 1;
				queue[tail++] = q;
			}
		}
		for (uint32_t s = 0; s < nsw; s++) {	/* min-hop ports, in port order */
			uint32_t n = t->sw_node[s];

			ncand[s] = 0;
			for (unsigned pn = 1; dist[s] != UINT32_MAX && pn <= t->node_nports[n]; pn++) {
				uint32_t r = t->port_remote[topo_port(t, n, pn)], q;

				if (r != TOPO_NONE && (q = t->node_sw[t->port_node[r]]) != TOPO_NONE &&
				    dist[q] + 1 == dist[s])
					cand[(size_t)s * 256 + ncand[s]++] = (uint8_t)pn;
			}
		}
		for (uint32_t lid = 1; lid <= t->max_lid; lid++) {
			unsigned pn;

			if (ru_target(t, lid, &pn) != tnode)
				continue;
			for (uint32_t s = 0; s < nsw; s++)
				lft_set(l, s, lid, s == tg ? (uint8_t)pn : ncand[s] ?
					cand[(size_t)s * 256 + lid % ncand[s]] : LFT_NONE);
		}
	}
	for (uint32_t s = 0; l && s < nsw; s++)
		l->have[s] = 1;
	if (!dist || !queue || !cand || !ncand) {
		lft_free(l);
		l = NULL;
	}
	free(dist);
	free(queue);
	free(cand);
	free(ncand);
	return l;
}

#endif

// SPDX-License-Identifier: BSD-2-Clause
/*
 * class_rate.c - link rates, and what they make of nodes: the fabric's
 * full rate, slow hosts, low-speed switches and subtrees, trained-down
 * links (DESIGN.md property 8: rate-aware routing).
 *
 * Only the graph and each port's active width and speed are used:
 *   link rate   width x per-lane rate, the lower of the two ends when they
 *               disagree; unknown (0) counts as the full rate, so a dump
 *               without rates is routed as before;
 *   capability  of a node: the best rate among its links (a port reports
 *               only what it runs at, so a node is known to run at least
 *               that fast), a switch's link to its SHARP node left out;
 *   trained down  a link below the capability of both its ends (a 4x cable
 *               up at 1x, an HDR link up at EDR): a fault, not design;
 *   full rate   the rate most switch-to-switch links run at (ties: the
 *               higher; with no such link, most links); switches and
 *               CAs whose capability is below it are slow;
 *   subtree     a connected group of slow switches (their links to each
 *               other) with endpoint CAs, and those CAs: where routing
 *               must carry no transit (slow switches without CAs, like a
 *               slow bridge, are structure, not a subtree);
 *   below       the subtree hangs below the fast tree (hangs()): its
 *               links to fast switches go up from the subtree side
 *               whatever the levels (class_port.c), so up*down* routes
 *               never pass through it, and it joins the zone of the fast
 *               switches it is cabled to instead of forming one.
 * A single-port CA whose only link is trained down cannot be told from a
 * slow host: the two route the same.  Cost: O(ports log ports + subtrees x
nodes) (hangs() per subtree).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "class/class_int.h"

uint32_t cls_link_rate(const struct topo *t, uint32_t p)
{
	uint32_t q = t->port_remote[p];
	unsigned a = t->port_width[p] * topo_speed_gbps_x10(t->port_speed[p]);
	unsigned b = q == TOPO_NONE ? 0 : t->port_width[q] * topo_speed_gbps_x10(t->port_speed[q]);

	return !a ? b : !b ? a : a < b ? a : b;
}

/* c->full_rate: the rate most switch-to-switch links run at; the higher on a tie. */
static int full_rate(const struct topo *t, struct cls *c)
{
	uint32_t best = 0, best_n = 0, *v = malloc(((size_t)t->nports + 1) * sizeof(*v));
	uint32_t n = 0;

	if (!v)
		return -ENOMEM;
	for (int any = 0; any < 2 && !n; any++)	/* no switch link: any link */
		for (uint32_t p = 0; p < t->nports; p++)
			if (topo_port_num(t, p) && c->rate[p] &&
			    (any || (cls_peer_sw(t, p) != TOPO_NONE &&
				     topo_is_switch(t, t->port_node[p]))))
				v[n++] = c->rate[p];
	qsort(v, n, sizeof(*v), ffr_cmp_u32);
	for (uint32_t i = 0, j; i < n; i = j) {	/* runs of one rate, ascending */
		for (j = i; j < n && v[j] == v[i]; j++)
			;
		if (j - i >= best_n)
			best = v[i], best_n = j - i;
	}
	free(v);
	c->full_rate = best;
	return 0;
}

/* Switch @s's cabled links to switches, and whether they all go to fast switches above it. */
static uint32_t sw_links(const struct topo *t, const struct cls *c, uint32_t s, bool *all_up_fast)
{
	uint32_t n = 0;

	*all_up_fast = true;
	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = cls_peer_sw(t, p);

		if (q == TOPO_NONE || q == s)
			continue;
		n++;
		*all_up_fast &= !c->slow[q] && c->level[q] > c->level[s];
	}
	return n;
}

/*
 * Slow leaves cabled like the others: a leaf whose links all go up to
 * fast switches, at least 3/4 as many as most full-rate leaves have (an
 * older pod at a lower rate in a faster tree, even one that lost an
 * aggregation switch: 6 of its 8 up-links) is a leaf of the tree, ranked
 * and routed with the others, not a subtree hung on it (a subtree for
 * other accelerators has few up-links, or hangs below a leaf).  Marks
 * them in @tree.
 */
static void tree_leaves(const struct topo *t, const struct cls *c, uint8_t *tree)
{
	uint32_t mode = 0, cnt[TOPO_MAX_PORTS + 1] = { 0 };	/* leaves by switch links */
	bool up;

	for (uint32_t n = 0; n < t->nnodes; n++)
		if (topo_is_switch(t, n) && c->level[n] == 1 && !c->slow[n])
			cnt[sw_links(t, c, n, &up)]++;
	for (uint32_t k = 1; k <= TOPO_MAX_PORTS; k++)
		if (cnt[k] > cnt[mode])
			mode = k;
	for (uint32_t n = 0; n < t->nnodes; n++)
		tree[n] = topo_is_switch(t, n) && c->level[n] == 1 && c->slow[n] && mode &&
			  4 * sw_links(t, c, n, &up) >= 3 * mode && up;
}

/*
 * Low-speed subtrees: components of slow switches with endpoint CAs of
 * their own (a slow switch with none, like a slow bridge between zones,
 * is part of the fabric's structure, not a subtree; nor is a slow leaf
 * cabled like the others, tree_leaves()).  @uf is scratch [nnodes + 1],
 * @tree [nnodes].
 */
static void subtrees(const struct topo *t, struct cls *c, uint32_t *uf, uint8_t *tree)
{
	tree_leaves(t, c, tree);
	for (uint32_t n = 0; n < t->nnodes; n++)
		uf[n] = n;
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t a = t->port_node[p], b = cls_peer_sw(t, p);

		if (b != TOPO_NONE && topo_is_switch(t, a) && c->slow[a] && c->slow[b])
			uf[cls_uf_find(uf, a)] = cls_uf_find(uf, b);
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		c->subtree[n] = TOPO_NONE;
	for (uint32_t n = 0; n < t->nnodes; n++) {	/* roots with endpoints: ids */
		uint32_t sw = c->ca_sw[n], r;

		if (topo_is_switch(t, n) || sw == TOPO_NONE || !c->slow[sw] || tree[sw] ||
		    c->role[n] == CLS_ROLE_SHARP)
			continue;
		r = cls_uf_find(uf, sw);
		if (c->subtree[r] == TOPO_NONE)
			c->subtree[r] = 0;	/* marked; numbered below, in node order */
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->subtree[n] == 0 && cls_uf_find(uf, n) == n)
			c->subtree[n] = c->nsubtrees++;
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (topo_is_switch(t, n) && c->slow[n])
			c->subtree[n] = c->subtree[cls_uf_find(uf, n)];
	for (uint32_t n = 0; n < t->nnodes; n++)	/* a CA is in its switch's */
		if (!topo_is_switch(t, n) && c->ca_sw[n] != TOPO_NONE)
			c->subtree[n] = c->subtree[c->ca_sw[n]];
}

/*
 * Whether subtree @st hangs below the fast tree: none of its switches
 * cabled to a fast switch has a subtree neighbour of a higher level, so
 * every subtree switch is reached going down from where the subtree is
 * cabled.  (A slow part joined sideways, like a whole older zone, does
 * not hang: zones and their rules route it.)
 */
static bool hangs(const struct topo *t, const struct cls *c, uint32_t st)
{
	for (uint32_t n = 0; n < t->nnodes; n++) {
		bool fast = false, higher = false;

		if (!topo_is_switch(t, n) || c->subtree[n] != st)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			if (q == TOPO_NONE || q == n)
				continue;
			if (c->subtree[q] != st)
				fast = true;
			else if (c->level[q] > c->level[n])
				higher = true;
		}
		if (fast && higher)
			return false;
	}
	return true;
}

/**
 * cls_rates - c->rate, cap, slow, trained, subtree, full_rate (after ca_sw)
 * Return: 0 or -ENOMEM.
 */
int cls_rates(const struct topo *t, struct cls *c)
{
	size_t nn = (size_t)t->nnodes + 1, np = (size_t)t->nports + 1;
	uint32_t *uf = malloc(nn * sizeof(*uf));
	uint8_t *tree = malloc(nn);

	c->rate = calloc(np, sizeof(*c->rate));
	c->cap = calloc(nn, sizeof(*c->cap));
	c->slow = calloc(nn, 1);
	c->trained = calloc(np, 1);
	c->subtree = calloc(nn, sizeof(*c->subtree));
	c->below = calloc(nn, 1);
	if (!uf || !tree || !c->rate || !c->cap || !c->slow || !c->trained ||
	    !c->subtree || !c->below) {
		free(uf);
		free(tree);
		return -ENOMEM;
	}
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t n = t->port_node[p];

		if (!topo_port_num(t, p) || t->port_remote[p] == TOPO_NONE)
			continue;
		c->rate[p] = cls_link_rate(t, p);
		/* a switch's SHARP node is inside it: its port says nothing of
		 * what the switch's cables run at */
		if (c->rate[p] > c->cap[n] &&
		    (c->role[t->port_node[t->port_remote[p]]] != CLS_ROLE_SHARP ||
		     c->role[n] == CLS_ROLE_SHARP))
			c->cap[n] = c->rate[p];
	}
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t q = t->port_remote[p];

		if (c->rate[p] && q != TOPO_NONE && c->rate[p] < c->cap[t->port_node[p]] &&
		    c->rate[p] < c->cap[t->port_node[q]])
			c->trained[p] = 1, c->ntrained++;
	}
	c->ntrained /= 2;
	if (full_rate(t, c)) {
		free(uf);
		free(tree);
		return -ENOMEM;
	}
	for (uint32_t p = 0; p < t->nports; p++)
		c->rates_mixed |= c->rate[p] && c->rate[p] != c->full_rate;
	for (uint32_t n = 0; n < t->nnodes; n++)
		c->slow[n] = c->cap[n] && c->cap[n] < c->full_rate;
	subtrees(t, c, uf, tree);
	for (uint32_t st = 0; st < c->nsubtrees; st++)
		uf[st] = hangs(t, c, st);
	for (uint32_t n = 0; n < t->nnodes; n++)
		c->below[n] = c->subtree[n] != TOPO_NONE && uf[c->subtree[n]];
	free(uf);
	free(tree);
	return 0;
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * class_level.c - each switch's level: switches with host CAs are leaves
 * (1), a switch no host is on but cabled like a leaf too (empty_leaves());
 * BFS over switch links gives the others 2, 3, ...; switches no leaf
 * reaches are 0; a top switch level with the switches it is above goes up
 * (raise_tops()).
 *
 * Why a file of its own: levels come first and every later rule of the
 * classification (class.c) reads them; they need only the graph.
 *
 * Cost: O(nodes + links) per BFS; raise_tops() O(links) per level raised.
 */
#include <stdlib.h>
#include <string.h>

#include "class/class_int.h"


/* Host CAs (not SHARP ANs) on switch @s, and its cabled switch links. */
static void sw_counts(const struct topo *t, const struct cls *c, uint32_t s, unsigned *hosts,
		      unsigned *links)
{
	*hosts = *links = 0;
	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = cls_peer(t, p);

		if (q == TOPO_NONE || q == s)
			continue;
		if (topo_is_switch(t, q))
			++*links;
		else if (c->role[q] != CLS_ROLE_SHARP)
			++*hosts;
	}
}

/*
 * Whether more than half of the switch links of @s lead to switches with
 * hosts (@lv of them) that each carry more than twice @hosts: @s, with a
 * few hosts, sits above those leaves.
 */
static bool below_busier(const struct topo *t, const struct cls *c, uint32_t s, unsigned hosts,
			 unsigned lv)
{
	unsigned busier = 0;

	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = cls_peer(t, p);
		unsigned h, l;

		if (q == TOPO_NONE || q == s || !topo_is_switch(t, q) || c->level[q] != 1)
			continue;
		sw_counts(t, c, q, &h, &l);
		busier += h > 2 * hosts;
	}
	return 2 * busier > lv;
}

/*
 * Leaves: switches with host CAs, except a switch that carries a few hosts
 * (a management host on a spine: many more switch links than hosts) while
 * most of its switch neighbours are leaves (a two-level tree's spine), or
 * a third of them are leaves that each carry many more hosts (the spine of
 * a three-level tree, half its links up to the cores).  A mesh of
 * switches with a host or two each keeps them all as leaves.
 */
static void find_leaves(const struct topo *t, struct cls *c, uint32_t *queue, uint32_t *tail)
{
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t q;

		c->ca_sw[n] = TOPO_NONE;
		if (topo_is_switch(t, n))
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++)
			if ((q = cls_peer(t, p)) != TOPO_NONE && topo_is_switch(t, q)) {
				c->ca_sw[n] = q;
				break;
			}
		q = c->ca_sw[n];
		if (q != TOPO_NONE && c->role[n] != CLS_ROLE_SHARP)
			c->level[q] = 1;
	}
	for (uint32_t s = 0; s < t->nnodes; s++) {
		unsigned hosts, links, lv = 0, other = 0;

		if (c->level[s] != 1)
			continue;
		sw_counts(t, c, s, &hosts, &links);
		for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
			uint32_t q = cls_peer(t, p);

			if (q != TOPO_NONE && q != s && topo_is_switch(t, q))
				c->level[q] == 1 ? lv++ : other++;
		}
		if (hosts * 4 < links && other + lv >= 4 &&
		    (lv > 2 * other || (3 * lv >= lv + other && below_busier(t, c, s, hosts, lv))))
			c->level[s] = 0;
		else
			queue[(*tail)++] = s;
	}
}

/* Distinct neighbours of leaf @w marked with @stamp (parallel links once). */
static unsigned shared_marked(const struct topo *t, uint32_t w, uint32_t stamp, uint32_t *mark)
{
	unsigned n = 0;

	for (uint32_t u = t->port_off[w] + 1; u < t->port_off[w + 1]; u++) {
		uint32_t q = cls_peer_sw(t, u);

		if (q != TOPO_NONE && mark[q] == stamp)
			mark[q] = ~stamp, n++;
	}
	for (uint32_t u = t->port_off[w] + 1; u < t->port_off[w + 1]; u++) {
		uint32_t q = cls_peer_sw(t, u);

		if (q != TOPO_NONE && mark[q] == ~stamp)
			mark[q] = stamp;
	}
	return n;
}

/*
 * True if some leaf shares more than half of @s's @deg switch neighbours,
 * which are marked with @stamp: @s looks like a leaf of that leaf's zone.
 * A core of a 3-level tree shares one aggregation switch per pod.
 */
static bool like_a_leaf(const struct topo *t, const struct cls *c, uint32_t s, unsigned deg,
			uint32_t stamp, uint32_t *mark, uint32_t *seen)
{
	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = cls_peer_sw(t, p);

		if (q == TOPO_NONE)
			continue;
		for (uint32_t r = t->port_off[q] + 1; r < t->port_off[q + 1]; r++) {
			uint32_t w = cls_peer_sw(t, r);

			if (w == TOPO_NONE || c->level[w] != 1 || seen[w] == stamp)
				continue;
			seen[w] = stamp;
			if (2 * shared_marked(t, w, stamp, mark) > deg)
				return true;
		}
	}
	return false;
}

/*
 * Host-less leaves: a switch above level 2 whose neighbours are all spines
 * that mostly go down (a 2-level tree), and which shares most of them with
 * a leaf, is a leaf with no host cabled.  (The cores of a 3-level tree
 * tapered 4:1 or more also sit on spines that mostly go down.)  @mark and
 * @seen are zeroed scratch arrays, left zeroed.
 */
static void empty_leaves(const struct topo *t, struct cls *c, uint32_t *mark, uint32_t *seen)
{
	for (uint32_t s = 0; s < t->nnodes; s++) {
		bool leaf = c->level[s] == 3;
		unsigned deg = 0;

		for (uint32_t p = t->port_off[s] + 1; leaf && p < t->port_off[s + 1]; p++) {
			uint32_t q = cls_peer(t, p);
			unsigned up = 0, down = 0;

			if (q == TOPO_NONE || !topo_is_switch(t, q))
				continue;
			if (c->level[q] != 2) {
				leaf = false;
				break;
			}
			deg += mark[q] != s + 1;
			mark[q] = s + 1;
			for (uint32_t r = t->port_off[q] + 1; r < t->port_off[q + 1]; r++) {
				uint32_t w = cls_peer(t, r);

				if (w != TOPO_NONE && topo_is_switch(t, w))
					c->level[w] == 1 ? down++ : c->level[w] >= 3 ? up++ : 0;
			}
			if (4 * up > down)
				leaf = false;
		}
		if (leaf && like_a_leaf(t, c, s, deg, s + 1, mark, seen))
			c->level[s] = 1;
	}
	memset(mark, 0, ((size_t)t->nnodes + 1) * sizeof(*mark));
	memset(seen, 0, ((size_t)t->nnodes + 1) * sizeof(*seen));
}

/* nlevels: the highest switch level, after the BFS and again after level overrides. */
void cls_count_levels(const struct topo *t, struct cls *c)
{
	c->nlevels = 0;
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->level[n] > c->nlevels)
			c->nlevels = c->level[n];
}

/* Whether switch @s is cabled to a switch of a higher level. */
static bool has_upper(const struct topo *t, const struct cls *c, uint32_t s)
{
	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = cls_peer_sw(t, p);

		if (q != TOPO_NONE && c->level[q] > c->level[s])
			return true;
	}
	return false;
}

/*
 * @tier[s] of each switch above the leaves: the distinct switches it is
 * cabled to below it (high 16 bits) and at its level (low 16 bits).
 * @seen: scratch [nodes], zero, left with stamps (the caller clears it).
 */
static void count_tiers(const struct topo *t, const struct cls *c, uint32_t *tier, uint32_t *seen)
{
	for (uint32_t s = 0; s < t->nnodes; s++) {
		uint32_t down = 0, same = 0;

		tier[s] = 0;
		if (!topo_is_switch(t, s) || c->level[s] < 2 || c->level[s] == 255)
			continue;
		for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			if (q == TOPO_NONE || q == s || seen[q] == s + 1)
				continue;	/* parallel links: one switch */
			seen[q] = s + 1;
			down += c->level[q] < c->level[s];
			same += c->level[q] == c->level[s];
		}
		tier[s] = (down < 0xffff ? down : 0xffff) << 16 | (same < 0xffff ? same : 0xffff);
	}
}

/* Whether every switch of @s's level cabled to @s is mostly cabled down (@tier). */
static bool peers_point_down(const struct topo *t, const struct cls *c, uint32_t s,
			     const uint32_t *tier)
{
	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = cls_peer_sw(t, p);

		if (q != TOPO_NONE && q != s && c->level[q] == c->level[s] &&
		    tier[q] >> 16 <= (tier[q] & 0xffff))
			return false;
	}
	return true;
}

/*
 * Levels are hops from the nearest leaf, so a core with a storage leaf
 * cabled straight to it comes out level 2, level with the aggregation
 * switches it is above.  A switch above the leaves with no switch above
 * it goes up a level (again while any goes up) when most of its cables to
 * switches of its own level go to switches that do have one; or, none of
 * them having one (the storage leaves hang from a whole group of cores,
 * the only switches above those aggregation switches), when it is cabled
 * to more switches of its level than below it and each of those to more
 * below it than of its level.  A tier of peers (no switch above any of
 * them, each mostly cabled down) stays.  @mark: scratch [nodes], left
 * zeroed; @tier, @seen: scratch [nodes], @seen left zeroed.
 */
static void raise_tops(const struct topo *t, struct cls *c, uint32_t *mark, uint32_t *tier,
		       uint32_t *seen)
{
	for (unsigned round = 0; round < 255; round++) {
		bool any = false;

		for (uint32_t s = 0; s < t->nnodes; s++)
			mark[s] = topo_is_switch(t, s) && c->level[s] >= 2 && has_upper(t, c, s);
		count_tiers(t, c, tier, seen);
		for (uint32_t s = 0; s < t->nnodes; s++) {
			unsigned below_top = 0, peers = 0;

			if (!topo_is_switch(t, s) || c->level[s] < 2 || c->level[s] == 255 || mark[s])
				continue;
			for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
				uint32_t q = cls_peer_sw(t, p);

				if (q != TOPO_NONE && q != s && c->level[q] == c->level[s])
					mark[q] == 1 ? below_top++ : peers++;
			}
			if (below_top > peers ||
			    (!below_top && (tier[s] & 0xffff) > tier[s] >> 16 &&
			     peers_point_down(t, c, s, tier)))
				mark[s] = 2, any = true;
		}
		for (uint32_t s = 0; s < t->nnodes; s++) {
			c->level[s] += mark[s] == 2;
			mark[s] = 0;
			seen[s] = 0;
		}
		if (!any)
			break;
	}
}

void cls_find_levels(const struct topo *t, struct cls *c, uint32_t *queue, uint32_t *mark,
		     uint32_t *seen)
{
	uint32_t head = 0, tail = 0;

	find_leaves(t, c, queue, &tail);
	while (head < tail) {
		uint32_t s = queue[head++];

		for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
			uint32_t q = cls_peer(t, p);

			if (q != TOPO_NONE && topo_is_switch(t, q) && !c->level[q]) {
				c->level[q] = (uint8_t)(c->level[s] < 254 ? c->level[s] + 1 : 255);
				queue[tail++] = q;
			}
		}
	}
	empty_leaves(t, c, mark, seen);
	raise_tops(t, c, mark, queue, seen);	/* the BFS is done with queue */
	cls_count_levels(t, c);
}

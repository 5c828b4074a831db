// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_pos.c - positions for D-mod-K: which up-level switches a switch
 * chooses among, in one order shared by all its peers.
 *
 * The up-group of switch s is its own up-neighbours and every switch x of
 * s's zone one level up from at least half of the switches v that share
 * an up-neighbour with s (s -> w -> v -> x with w, x up of s, v): on a
 * 2-level Clos all spines of the frame, on a 3-level tree the aggregation
 * switches of s's pod, and on a degraded fabric the same sets as if no
 * link had failed (a leaf that lost its link to a spine still numbers it,
 * as long as half its peers keep theirs), but not the cores a branch
 * cabled across core groups reaches (group_of()).  Members are sorted by column, then
 * by switch ordinal (node GUID order), so a destination's designated
 * up-switch index, rank mod |group|, means the same switch to every leaf
 * of the pod, whatever the cabling order of its ports, and the same
 * column in every pod: a switch's column is the lowest ordinal among the
 * switches of its level that share an up-neighbour with it (on a 3-level
 * tree the aggregation switches under one group of cores, one per pod;
 * with no up-neighbour, its own: a switch that lost every up-link takes
 * its own ordinal, so its pod may order that column differently from the
 * others, a case left as is).  By ordinal alone, pods whose GUIDs
 * order their aggregation switches differently would send one
 * destination's routes down through different aggregation switches of its
 * pod, and shifts would collide there (small 3-level rail fabric with
 * scrambled GUIDs: shift max 2, mean 1.4; by column 1 and 1).
 *
 * A switch of a low-speed subtree that hangs below the fast tree
 * (class_rate.c) has its own up-neighbours for group, and is no member of
 * a fast switch's pod: numbered with the spines it does not reach, its
 * destinations would crowd the substitutes of those holes.
 *
 * Holes: a switch that lost its link to group member y sends what D-mod-K
 * gives y to a member it still reaches: alt(y), chosen so that no two
 * lost members share a substitute (in any window of |group| consecutive
 * ranks every member is designated once, so the window's flows then use
 * each remaining up-link at most twice, the lower bound ceil(|group| /
 * links left) for one lost link), starting half the group away from y so
 * that the leaves that lost neighbouring spines spread their substitutes.
 * A leaf's own routes do not double one up-link for it: the k-th
 * destination it sends to lost member y takes the k-th member it reaches
 * after alt(y) (route_dest.c up_index(); upg_reach, upg_rix, upg_nr).  The
 * designated descent keeps alt(y) (turning it with rank / |group| too
 * cost the directors fabric a shift: max 7 instead of 6).
 * Cost: O(sum over switches of up x down x up degrees); memory
 * O(switches x group size).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "route/route_int.h"

/* Up-neighbours (same zone) of @s, written to @out via @mark. */
static uint32_t ups(const struct rt *r, uint32_t s, uint32_t *out, uint32_t n, uint32_t *mark,
		    uint32_t stamp)
{
	const struct topo *t = r->t;
	uint32_t node = rt_node(r, s);

	for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
		uint32_t w = rt_peer(r, p);

		if (w == TOPO_NONE || r->c->dir[p] != CLS_DIR_UP || mark[w] == stamp)
			continue;
		mark[w] = stamp;
		out[n++] = w;
	}
	return n;
}

/*
 * col[]: each switch's column, the least ordinal of its level sharing an
 * up-neighbour; a switch with the same up-neighbours as an earlier one of
 * its level (@same, same_ups()) has its column.
 */
static void columns(const struct rt *r, uint32_t *col, uint32_t *tmp, uint32_t *mark,
		    const uint32_t *same)
{
	const struct topo *t = r->t;

	for (uint32_t s = 0; s < r->nsw; s++) {
		uint32_t nw;

		if (same[s] != s) {
			col[s] = col[same[s]];
			continue;
		}
		nw = ups(r, s, tmp, 0, mark, s + 1);
		col[s] = s;
		for (uint32_t i = 0; i < nw; i++) {
			uint32_t wn = rt_node(r, tmp[i]);

			for (uint32_t p = t->port_off[wn] + 1; p < t->port_off[wn + 1]; p++) {
				uint32_t v = rt_peer(r, p);

				if (v != TOPO_NONE && r->c->dir[p] == CLS_DIR_DOWN && v < col[s] &&
				    r->c->level[rt_node(r, v)] == r->c->level[rt_node(r, s)])
					col[s] = v;
			}
		}
	}
}

/* Members [b, e) of r->upg by (column, ordinal); upg_ord/upg_opos: by ordinal, for lookups. */
static int sort_group(struct rt *r, uint32_t b, uint32_t e, const uint32_t *col)
{
	uint64_t *k = malloc(((size_t)(e - b) + 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	for (uint32_t i = b; i < e; i++)
		k[i - b] = (uint64_t)col[r->upg[i]] << 32 | r->upg[i];
	qsort(k, e - b, sizeof(*k), ffr_cmp_u64);
	for (uint32_t i = b; i < e; i++) {
		r->upg[i] = (uint32_t)k[i - b];
		k[i - b] = (uint64_t)r->upg[i] << 32 | (i - b);
	}
	qsort(k, e - b, sizeof(*k), ffr_cmp_u64);
	for (uint32_t i = b; i < e; i++) {
		r->upg_ord[i] = (uint32_t)(k[i - b] >> 32);
		r->upg_opos[i] = (uint32_t)k[i - b];
	}
	free(k);
	return 0;
}

/*
 * The up-group of @s into r->upg (grown), unsorted: its own up-neighbours,
 * and those of at least half the switches v sharing one with it.  By the
 * union alone, a branch cabled across groups (management spines with a
 * link to core 0 of every core group) put every group's core 0 into each
 * spine's group, as holes: D-mod-K then sent a third of the destinations
 * to substitutes (the SuperPOD-style tree: shift mean 2.71, bound 1.87).
 */
static int group_of(struct rt *r, uint32_t s, uint32_t *cap, uint32_t *mark, uint32_t *vm,
		    uint32_t *cnt, uint32_t *last, uint32_t *tok, uint32_t stamp, uint32_t *tmp)
{
	const struct topo *t = r->t;
	uint32_t start = r->upg_off[s], nw = ups(r, s, tmp, 0, vm, stamp), n = start, nv = 0;

	for (uint32_t i = 0; i < nw; i++)
		cnt[tmp[i]] = r->nsw;	/* always a member */
	for (uint32_t i = 0; i < nw; i++) {
		uint32_t wn = rt_node(r, tmp[i]);

		for (uint32_t p = t->port_off[wn] + 1; p < t->port_off[wn + 1]; p++) {
			uint32_t v = rt_peer(r, p), vn;

			if (v == TOPO_NONE || r->c->dir[p] != CLS_DIR_DOWN || vm[v] == stamp)
				continue;
			vm[v] = stamp;
			vn = rt_node(r, v);
			/* a subtree hanging below: its own up-links, no holes */
			if (r->c->below[rt_node(r, s)] ? v != s : r->c->below[vn])
				continue;
			if (ffr_grow((void **)&r->upg, cap, (uint64_t)n + t->node_nports[vn] + 1,
				     sizeof(*r->upg)))
				return -ENOMEM;
			nv++;
			*tok += 1;
			for (uint32_t q = t->port_off[vn] + 1; q < t->port_off[vn + 1]; q++) {
				uint32_t x = rt_peer(r, q);

				if (x == TOPO_NONE || r->c->dir[q] != CLS_DIR_UP || last[x] == *tok)
					continue;
				last[x] = *tok;	/* once per v, whatever its parallel links */
				cnt[x] += cnt[x] < r->nsw;
			}
			n = ups(r, v, r->upg, n, mark, stamp);
		}
	}
	r->upg_off[s + 1] = start;
	for (uint32_t i = start; i < n; i++) {
		uint32_t x = r->upg[i];

		if (cnt[x] >= r->nsw || 2 * (uint64_t)cnt[x] >= nv)
			r->upg[r->upg_off[s + 1]++] = x;
		cnt[x] = 0;
	}
	for (uint32_t i = 0; i < nw; i++)
		cnt[tmp[i]] = 0;
	return 0;
}

/*
 * The switches' up-neighbour sets, sorted, in CSR (@off, @w), and for
 * each switch @same[s] the first switch of its level with the same set,
 * itself if none (or if it hangs below: its group is its own; or if it
 * has no up-neighbour: its column is its own ordinal).  Two such
 * switches have the same up-group (group_of() reads only their
 * up-neighbours and those of their down-neighbours) and column: the
 * leaves of a pod, the aggregation switches of one core group, computed
 * once.
 */
static int same_ups(const struct rt *r, uint32_t *mark, uint32_t **off, uint32_t **w,
		    uint32_t **same)
{
	uint32_t nsw = r->nsw, n = 0, cap = 0, nb = 1;
	uint32_t *head = NULL, *next = NULL;
	uint64_t *h = NULL;
	int rc = 0;

	*off = calloc((size_t)nsw + 1, sizeof(uint32_t));
	*w = NULL;
	*same = malloc(((size_t)nsw + 1) * sizeof(uint32_t));
	while (nb < 2 * nsw)
		nb *= 2;
	head = malloc((size_t)nb * sizeof(*head));
	next = malloc(((size_t)nsw + 1) * sizeof(*next));
	h = malloc(((size_t)nsw + 1) * sizeof(*h));
	if (!*off || !*same || !head || !next || !h)
		rc = -ENOMEM;
	for (uint32_t s = 0; !rc && s < nsw; s++) {
		if ((rc = ffr_grow((void **)w, &cap, (uint64_t)n + TOPO_MAX_PORTS + 1,
				   sizeof(uint32_t))))
			break;
		(*off)[s] = n;
		n = ups(r, s, *w, n, mark, s + 1);
		qsort(*w + (*off)[s], n - (*off)[s], sizeof(uint32_t), ffr_cmp_u32);
		h[s] = 0x9e3779b97f4a7c15ull * (n - (*off)[s] + 1);
		for (uint32_t i = (*off)[s]; i < n; i++)
			h[s] = (h[s] ^ (*w)[i]) * 0x100000001b3ull;
	}
	if (!rc)
		(*off)[nsw] = n;
	for (uint32_t i = 0; !rc && i < nb; i++)
		head[i] = TOPO_NONE;
	for (uint32_t s = 0; !rc && s < nsw; s++) {
		uint32_t b = (uint32_t)(h[s] >> 7) & (nb - 1), x, m = (*off)[s + 1] - (*off)[s];

		(*same)[s] = s;
		if (r->c->below[rt_node(r, s)] || !m)
			continue;	/* no up-neighbour: its own column (columns()) */
		for (x = head[b]; x != TOPO_NONE; x = next[x])
			if (h[x] == h[s] && (*off)[x + 1] - (*off)[x] == m &&
			    r->c->level[rt_node(r, x)] == r->c->level[rt_node(r, s)] &&
			    !memcmp(*w + (*off)[x], *w + (*off)[s], m * sizeof(uint32_t)))
				break;
		if (x != TOPO_NONE) {
			(*same)[s] = x;
			continue;
		}
		next[s] = head[b];
		head[b] = s;
	}
	free(head);
	free(next);
	free(h);
	return rc;
}

/* upg_port[] of switch @s: its one up-port to each member (choose()'s shortcut). */
static void ports_to(struct rt *r, uint32_t s)
{
	const struct topo *t = r->t;
	uint32_t node = rt_node(r, s), b = r->upg_off[s], *port = r->upg_port + b;

	for (uint32_t i = b; i < r->upg_off[s + 1]; i++)
		r->upg_port[i] = TOPO_NONE;	/* not seen yet */
	for (uint32_t p = t->port_off[node] + 1; p < t->port_off[node + 1]; p++) {
		uint32_t w = rt_peer(r, p), pos;

		if (w == TOPO_NONE || r->c->dir[p] != CLS_DIR_UP ||
		    (pos = rt_up_pos(r, s, w)) == TOPO_NONE)
			continue;
		port[pos] = port[pos] == TOPO_NONE ? p : RT_NOPORT;
	}
	for (uint32_t i = b; i < r->upg_off[s + 1]; i++)
		if (r->upg_port[i] == TOPO_NONE)
			r->upg_port[i] = RT_NOPORT;
}

/* alt[] of switch @s: itself for a member it reaches, a distinct substitute for a lost one. */
static void alternates(struct rt *r, uint32_t s, uint8_t *have, uint8_t *used, uint32_t *mark,
		       uint32_t stamp)
{
	uint32_t b = r->upg_off[s], m = r->upg_off[s + 1] - b, nw;
	uint32_t *tmp = r->upg_alt + b;

	nw = ups(r, s, tmp, 0, mark, stamp);	/* scratch: reached members */
	for (uint32_t i = 0; i < m; i++)
		have[i] = used[i] = 0;
	for (uint32_t i = 0; i < nw; i++) {
		uint32_t pos = rt_up_pos(r, s, tmp[i]);

		if (pos != TOPO_NONE)
			have[pos] = 1;
	}
	r->upg_nr[s] = 0;
	for (uint32_t i = 0; i < m; i++) {
		tmp[i] = i;
		if (have[i]) {
			r->upg_rix[b + i] = r->upg_nr[s];
			r->upg_reach[b + r->upg_nr[s]++] = i;
		}
	}
	ports_to(r, s);
	for (uint32_t i = 0; i < m; i++) {
		uint32_t best = i;

		if (have[i])
			continue;
		for (uint32_t k = 0; k < m; k++) {
			uint32_t j = (i + m / 2 + k) % m;

			if (have[j] && !used[j]) {
				best = j;
				used[j] = 1;
				break;
			}
		}
		tmp[i] = best;
	}
}

int rt_up_groups(struct rt *r)
{
	uint32_t cap = 0, *mark = calloc((size_t)r->nsw + 1, sizeof(*mark));
	uint32_t *vm = calloc((size_t)r->nsw + 1, sizeof(*vm));
	uint32_t *cnt = calloc(2 * (size_t)r->nsw + 1, sizeof(*cnt)), tok = 0;
	uint32_t *tmp = malloc((TOPO_MAX_PORTS + 1) * sizeof(*tmp));
	int rc = 0;

	uint8_t *have = malloc(2 * ((size_t)r->nsw + 1)), *used;
	uint32_t *col = malloc(((size_t)r->nsw + 1) * sizeof(*col));
	size_t ng;

	uint32_t *uoff = NULL, *uw = NULL, *same = NULL;

	r->upg_off = calloc((size_t)r->nsw + 1, sizeof(*r->upg_off));
	if (!mark || !vm || !cnt || !tmp || !r->upg_off || !have || !col)
		rc = -ENOMEM;
	if (!rc)
		rc = same_ups(r, mark, &uoff, &uw, &same);
	for (uint32_t s = 0; !rc && s < r->nsw; s++) {
		uint32_t x = same[s], m = r->upg_off[x + 1] - r->upg_off[x];

		if (x == s) {
			rc = group_of(r, s, &cap, mark, vm, cnt, cnt + r->nsw, &tok,
				      r->nsw + 1 + s, tmp);
			continue;
		}
		if ((rc = ffr_grow((void **)&r->upg, &cap, (uint64_t)r->upg_off[s] + m + 1,
				   sizeof(*r->upg))))
			break;
		memcpy(r->upg + r->upg_off[s], r->upg + r->upg_off[x], m * sizeof(*r->upg));
		r->upg_off[s + 1] = r->upg_off[s] + m;
	}
	free(uoff);
	free(uw);
	ng = rc ? 0 : (size_t)r->upg_off[r->nsw] + 1;
	if (!rc && (!(r->upg_alt = malloc(ng * sizeof(uint32_t))) ||
		    !(r->upg_port = malloc(ng * sizeof(uint32_t))) ||
		    !(r->upg_ord = malloc(ng * sizeof(uint32_t))) ||
		    !(r->upg_opos = malloc(ng * sizeof(uint32_t))) ||
		    !(r->upg_reach = malloc(ng * sizeof(uint32_t))) ||
		    !(r->upg_rix = malloc(ng * sizeof(uint32_t))) ||
		    !(r->upg_nr = calloc((size_t)r->nsw + 1, sizeof(uint32_t)))))
		rc = -ENOMEM;
	if (!rc) {
		memset(mark, 0, ((size_t)r->nsw + 1) * sizeof(*mark));
		columns(r, col, tmp, mark, same);
	}
	for (uint32_t s = 0; !rc && s < r->nsw; s++)
		rc = sort_group(r, r->upg_off[s], r->upg_off[s + 1], col);
	used = have ? have + r->nsw + 1 : NULL;
	for (uint32_t s = 0; !rc && s < r->nsw; s++)
		alternates(r, s, have, used, mark, r->nsw + 1 + s);
	free(same);
	free(have);
	free(mark);
	free(vm);
	free(cnt);
	free(tmp);
	free(col);
	return rc;
}

uint32_t rt_up_pos(const struct rt *r, uint32_t s, uint32_t w)
{
	const uint32_t *b, *hit;

	if (r->upg_off[s + 1] == r->upg_off[s])
		return TOPO_NONE;
	b = r->upg_ord + r->upg_off[s];
	hit = bsearch(&w, b, r->upg_off[s + 1] - r->upg_off[s], sizeof(*b), ffr_cmp_u32);
	return hit ? r->upg_opos[r->upg_off[s] + (uint32_t)(hit - b)] : TOPO_NONE;
}

/* Whether leaf @u's up-group is @g's (@m members, same order), reached by one link each. */
bool rt_same_up_group(const struct rt *r, uint32_t u, uint32_t g, uint32_t m, bool holes_ok)
{
	uint32_t b = r->upg_off[u];

	if (!m || r->upg_off[u + 1] - b != m || memcmp(r->upg + b, r->upg + r->upg_off[g],
						 m * sizeof(*r->upg)))
		return false;
	for (uint32_t i = 0; i < m; i++) {
		bool hole = r->upg_alt[b + i] != i;

		if (hole ? !holes_ok : r->upg_port[b + i] == RT_NOPORT)
			return false;
	}
	return true;
}

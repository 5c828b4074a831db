// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_jshift.c - what moving a leaf's entries costs the shift
 * permutations of its zone, for the jobs' leaf swaps (route_xjob.c).
 *
 * Why.  When a zone's leaves are full (W = m compute HCAs under m
 * spines), every window of m consecutive destinations must hold m
 * distinct digits for a shift to load no link twice: the digits are
 * forced (rank mod m), and the digit search cannot free a job's tree.
 * A leaf can still send one destination up another spine than its digit
 * (a swap with a destination near it in position order): only the shifts
 * whose window from that leaf holds one of the two, not both, then load a
 * link twice.  The jobs' swaps are taken while the zone's shifts stay
 * within RT_SHIFT_COST on average and load no link three times.
 *
 * What.  Per two-level zone (leaves, then spines at its top): its compute
 * destinations on leaves in position order (zone, the leaf's position,
 * port, LID: the order D-mod-K ranks them and check's shifts take), and
 * per shift k the flows of the permutation i -> (i + k) mod n that leave
 * their leaf, counted on (source leaf, spine) up-links and (spine,
 * destination leaf) down-links, the spine being the one the source
 * leaf's entry toward the destination leads to.  Per shift, a histogram
 * of those counts gives its most loaded link.  Every shift up to 1,024
 * destinations (as check), else 1,024 evenly spread: the bound then holds
 * on those (check samples 64 shifts there).  Parallel links between a
 * leaf and a spine count as one (conservative).
 *
 * Cost: O(n x shifts) to build; a leaf entry moved, O(the leaf's hosts).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

#define ZS_SHIFTS 1024u
#define ZS_VMAX 15u		/* loads counted apart up to this; above, as this */

struct zs_zone {
	uint32_t n, nleaf, nsp, nk;
	uint32_t *lid;		/* [n] by position */
	uint32_t *leaf;		/* [n] compact leaf index */
	uint32_t *lsw;		/* [nleaf] switch ordinal */
	uint32_t *loff, *lsrc;	/* CSR [nleaf + 1]: each leaf's positions */
	uint32_t *k;		/* [nk] the shifts */
	uint8_t *up, *down;	/* [nk][nleaf][nsp]: flows (source leaf, spine), (spine, leaf) */
	uint32_t *hist;		/* [nk][ZS_VMAX + 1]: links per load */
	uint8_t *kmax;		/* [nk] the most loaded link */
	uint64_t sum;		/* of kmax */
};

struct rt_zshift {
	const struct rt *r;
	uint32_t nz;
	struct zs_zone *z;
	uint32_t *sw_zone, *sw_leaf;	/* [nsw]: a leaf's model and index, or UINT32_MAX */
	uint32_t *sw_sp;		/* [nsw]: a spine's index in its zone, or UINT32_MAX */
	uint32_t *lid_pos;		/* [max_lid + 1]: position in its zone, or UINT32_MAX */
	uint32_t *lid_zone;		/* [max_lid + 1]: ... and that zone's model */
};

/* One flow more (@d = 1) or less (-1) on load @v of shift @ki. */
static void count(struct zs_zone *z, uint32_t ki, uint8_t *v, int d)
{
	uint32_t *h = &z->hist[(size_t)ki * (ZS_VMAX + 1)];
	uint8_t m = z->kmax[ki];

	h[*v < ZS_VMAX ? *v : ZS_VMAX]--;
	*v = (uint8_t)(*v + d);
	h[*v < ZS_VMAX ? *v : ZS_VMAX]++;
	if (d > 0 && *v > m)
		m = *v > ZS_VMAX ? ZS_VMAX : *v;
	while (m > 0 && !h[m])
		m--;
	z->sum += m;
	z->sum -= z->kmax[ki];
	z->kmax[ki] = m;
}

/* The index of the spine of leaf @s's zone its entry @e leads to, UINT32_MAX if none. */
static uint32_t spine_of(const struct rt_zshift *zs, uint32_t s, uint8_t e)
{
	const struct rt *r = zs->r;
	uint32_t w;

	if (e == 0 || e == LFT_NONE)
		return UINT32_MAX;
	w = r->peer[topo_port(r->t, rt_node(r, s), e)];
	return w == TOPO_NONE || rt_zone(r, w) != rt_zone(r, s) ? UINT32_MAX : zs->sw_sp[w];
}

/* The flow of shift @ki into position @j, from its source, over spine @sp: @d = +1 / -1. */
static void flow(struct zs_zone *z, uint32_t ki, uint32_t j, uint32_t sp, int d)
{
	uint32_t i = (j + z->n - z->k[ki] % z->n) % z->n, ls = z->leaf[i], ld = z->leaf[j];
	size_t row = (size_t)ki * z->nleaf;

	if (ls == ld || sp == UINT32_MAX)
		return;		/* stays on the leaf, or not through a spine of the model */
	count(z, ki, &z->up[(row + ls) * z->nsp + sp], d);
	count(z, ki, &z->down[(row + ld) * z->nsp + sp], d);
}

/* A compute destination on a leaf, by position: zone, the leaf's position, port, LID. */
struct zs_key {
	int16_t zone;
	uint32_t pos, sw, lid;
	uint8_t port;
};

static int cmp_key(const void *a, const void *b)
{
	const struct zs_key *x = a, *y = b;

	if (x->zone != y->zone)
		return x->zone < y->zone ? -1 : 1;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->lid < y->lid ? -1 : x->lid > y->lid;
}

/* Zone @z (index @zi) over its destinations k[0..n), in position order, with @nsp spines. */
static int zone_build(struct rt_zshift *zs, struct zs_zone *z, const struct zs_key *k, uint32_t n,
		      uint32_t zi, uint32_t nsp)
{
	size_t cells;

	z->nsp = nsp;
	z->lid = malloc(((size_t)n + 1) * sizeof(*z->lid));
	z->leaf = malloc(((size_t)n + 1) * sizeof(*z->leaf));
	z->lsw = malloc(((size_t)n + 1) * sizeof(*z->lsw));
	if (!z->lid || !z->leaf || !z->lsw)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = k[i].sw;

		if (zs->sw_zone[s] == UINT32_MAX) {
			zs->sw_zone[s] = zi;
			zs->sw_leaf[s] = z->nleaf;
			z->lsw[z->nleaf++] = s;
		}
		zs->lid_pos[k[i].lid] = z->n;
		zs->lid_zone[k[i].lid] = zi;
		z->lid[z->n] = k[i].lid;
		z->leaf[z->n++] = zs->sw_leaf[s];
	}
	z->loff = calloc((size_t)z->nleaf + 2, sizeof(*z->loff));
	z->lsrc = malloc(((size_t)n + 1) * sizeof(*z->lsrc));
	if (!z->loff || !z->lsrc)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)	/* positions by leaf: counting sort */
		z->loff[z->leaf[i] + 2]++;
	for (uint32_t l = 0; l < z->nleaf; l++)
		z->loff[l + 2] += z->loff[l + 1];
	for (uint32_t i = 0; i < n; i++)
		z->lsrc[z->loff[z->leaf[i] + 1]++] = i;
	z->nk = n < 2 ? 0 : (n - 1 < ZS_SHIFTS ? n - 1 : ZS_SHIFTS);
	cells = (size_t)z->nk * z->nleaf * z->nsp;
	z->k = malloc(((size_t)z->nk + 1) * sizeof(*z->k));
	z->up = calloc(cells + 1, 1);
	z->down = calloc(cells + 1, 1);
	z->hist = calloc((size_t)z->nk * (ZS_VMAX + 1) + 1, sizeof(*z->hist));
	z->kmax = calloc((size_t)z->nk + 1, 1);
	if (!z->k || !z->up || !z->down || !z->hist || !z->kmax)
		return -ENOMEM;
	for (uint32_t ki = 0; ki < z->nk; ki++) {
		z->k[ki] = 1 + (uint32_t)((uint64_t)ki * (n - 1) / z->nk);
		z->hist[(size_t)ki * (ZS_VMAX + 1)] = 2 * z->nleaf * z->nsp;	/* every link at 0 */
	}
	for (uint32_t ki = 0; ki < z->nk; ki++)
		for (uint32_t j = 0; j < n; j++) {
			uint32_t i = (j + n - z->k[ki] % n) % n;
			uint32_t s = z->lsw[z->leaf[i]];

			flow(z, ki, j, spine_of(zs, s, lft_get(zs->r->out->lft, s, z->lid[j])), +1);
		}
	return 0;
}

/* The present compute destinations on leaves of two-level zones, by position; their count. */
static uint32_t keys(const struct rt *r, const struct rt_dest *d, uint32_t nd, const uint8_t *top2,
		     struct zs_key *k)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nd; i++) {
		uint32_t an = rt_node(r, d[i].attach);
		int16_t zn = r->c->zone[an];

		if (d[i].tc != CLS_TC_COMPUTE || d[i].ghost || !d[i].port || r->c->level[an] != 1 ||
		    zn < 0 || !top2[zn])
			continue;
		k[n] = (struct zs_key){ .zone = zn, .pos = r->c->pos[an], .sw = d[i].attach,
					.lid = d[i].lid, .port = d[i].port };
		n++;
	}
	qsort(k, n, sizeof(*k), cmp_key);
	return n;
}

/* Per zone: its spines' indices (sw_sp), @nsp[zone]; @top2[zone]: its highest level is 2. */
static int spines(struct rt_zshift *zs, uint32_t *nsp, uint8_t *top2)
{
	const struct rt *r = zs->r;
	uint8_t *high = calloc((size_t)r->c->nzones + 1, 1);

	if (!high)
		return -ENOMEM;
	for (uint32_t s = 0; s < r->nsw; s++) {
		int16_t zn = rt_zone(r, s);
		uint8_t lv = r->c->level[rt_node(r, s)];

		if (zn >= 0 && lv > high[zn])
			high[zn] = lv;
	}
	for (uint32_t s = 0; s < r->nsw; s++) {
		int16_t zn = rt_zone(r, s);

		if (zn >= 0 && r->c->level[rt_node(r, s)] == 2)
			zs->sw_sp[s] = nsp[zn]++;
	}
	for (uint32_t z = 0; z < r->c->nzones; z++)
		top2[z] = high[z] == 2 && nsp[z] > 0;
	free(high);
	return 0;
}

int rt_zshift_new(const struct rt *r, const struct rt_dest *d, uint32_t nd, struct rt_zshift **out)
{
	struct rt_zshift *zs = calloc(1, sizeof(*zs));
	struct zs_key *k = malloc(((size_t)nd + 1) * sizeof(*k));
	uint32_t *nsp = calloc((size_t)r->c->nzones + 1, sizeof(*nsp)), n;
	uint8_t *top2 = calloc((size_t)r->c->nzones + 1, 1);
	int rc = zs && k && nsp && top2 ? 0 : -ENOMEM;

	*out = zs;
	if (!rc) {
		zs->r = r;
		zs->sw_zone = malloc(((size_t)r->nsw + 1) * sizeof(*zs->sw_zone));
		zs->sw_leaf = malloc(((size_t)r->nsw + 1) * sizeof(*zs->sw_leaf));
		zs->sw_sp = malloc(((size_t)r->nsw + 1) * sizeof(*zs->sw_sp));
		zs->lid_pos = malloc(((size_t)r->t->max_lid + 1) * sizeof(*zs->lid_pos));
		zs->lid_zone = malloc(((size_t)r->t->max_lid + 1) * sizeof(*zs->lid_zone));
		zs->z = calloc((size_t)r->c->nzones + 1, sizeof(*zs->z));
		rc = zs->sw_zone && zs->sw_leaf && zs->sw_sp && zs->lid_pos && zs->lid_zone && zs->z
			     ? 0 : -ENOMEM;
	}
	if (!rc) {
		memset(zs->sw_zone, 0xff, ((size_t)r->nsw + 1) * sizeof(*zs->sw_zone));
		memset(zs->sw_leaf, 0xff, ((size_t)r->nsw + 1) * sizeof(*zs->sw_leaf));
		memset(zs->sw_sp, 0xff, ((size_t)r->nsw + 1) * sizeof(*zs->sw_sp));
		memset(zs->lid_pos, 0xff, ((size_t)r->t->max_lid + 1) * sizeof(*zs->lid_pos));
		memset(zs->lid_zone, 0xff, ((size_t)r->t->max_lid + 1) * sizeof(*zs->lid_zone));
		rc = spines(zs, nsp, top2);
	}
	if (!rc) {
		n = keys(r, d, nd, top2, k);
		for (uint32_t lo = 0, hi; !rc && lo < n && zs->nz < r->c->nzones; lo = hi) {
			for (hi = lo + 1; hi < n && k[hi].zone == k[lo].zone; hi++)
				;
			rc = zone_build(zs, &zs->z[zs->nz], k + lo, hi - lo, zs->nz, nsp[k[lo].zone]);
			zs->nz++;
		}
	}
	free(k);
	free(nsp);
	free(top2);
	return rc;
}

void rt_zshift_free(struct rt_zshift *zs)
{
	for (uint32_t i = 0; zs && i < zs->nz; i++) {
		struct zs_zone *z = &zs->z[i];

		free(z->lid), free(z->leaf), free(z->lsw), free(z->loff), free(z->lsrc), free(z->k);
		free(z->up), free(z->down), free(z->hist), free(z->kmax);
	}
	if (zs) {
		free(zs->z), free(zs->sw_zone), free(zs->sw_leaf), free(zs->sw_sp);
		free(zs->lid_pos), free(zs->lid_zone);
		free(zs);
	}
}

uint32_t rt_zshift_pos(const struct rt_zshift *zs, uint32_t lid)
{
	return zs && lid <= zs->r->t->max_lid ? zs->lid_pos[lid] : UINT32_MAX;
}

uint32_t rt_zshift_n(const struct rt_zshift *zs, uint32_t sw)
{
	return !zs || zs->sw_zone[sw] == UINT32_MAX ? 0 : zs->z[zs->sw_zone[sw]].n;
}

uint32_t rt_zshift_lid(const struct rt_zshift *zs, uint32_t sw, uint32_t pos)
{
	const struct zs_zone *z = &zs->z[zs->sw_zone[sw]];

	return z->lid[pos % z->n];
}

/* The index of shift @k among the sampled ones, UINT32_MAX if not sampled. */
static uint32_t shift_index(const struct zs_zone *z, uint32_t k)
{
	uint64_t ki;

	if (k == 0 || !z->nk)
		return UINT32_MAX;
	ki = ((uint64_t)(k - 1) * z->nk + (z->n - 2)) / (z->n - 1);	/* ceil */
	return ki < z->nk && z->k[ki] == k ? (uint32_t)ki : UINT32_MAX;
}

void rt_zshift_entry(struct rt_zshift *zs, uint32_t s, uint32_t lid, uint8_t from, uint8_t to)
{
	uint32_t p = rt_zshift_pos(zs, lid), a, b, l;
	struct zs_zone *z;

	if (p == UINT32_MAX || zs->sw_zone[s] != zs->lid_zone[lid] || from == to)
		return;		/* not a leaf of the destination's zone model */
	z = &zs->z[zs->sw_zone[s]];
	l = zs->sw_leaf[s];
	a = spine_of(zs, s, from);
	b = spine_of(zs, s, to);
	for (uint32_t x = z->loff[l]; x < z->loff[l + 1]; x++) {	/* leaf s's sources */
		uint32_t ki = shift_index(z, (p + z->n - z->lsrc[x]) % z->n);

		if (ki == UINT32_MAX)
			continue;
		flow(z, ki, p, a, -1);
		flow(z, ki, p, b, +1);
	}
}

bool rt_zshift_ok(const struct rt_zshift *zs, uint32_t s)
{
	const struct zs_zone *z;

	if (!zs || zs->sw_zone[s] == UINT32_MAX)
		return false;
	z = &zs->z[zs->sw_zone[s]];
	for (uint32_t ki = 0; ki < z->nk; ki++)
		if (z->kmax[ki] > 2)
			return false;
	return z->nk && (double)z->sum <= RT_SHIFT_COST * z->nk + 1e-9;
}

uint64_t rt_zshift_sum(const struct rt_zshift *zs, uint32_t s)
{
	return !zs || zs->sw_zone[s] == UINT32_MAX ? 0 : zs->z[zs->sw_zone[s]].sum;
}

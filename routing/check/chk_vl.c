// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_vl.c - SL2VL rows per (input, output) port pair that differ from the
 * output port's base row: a sorted array searched by binary search.
 * An engine that moves down->up turns to another VL (route_sl.c) needs
 * them; OpenSM's dump lists every pair.  O(log n) per lookup.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/util.h"

/* @n rows appended (room made already): unsorted, their index dropped. */
static struct chk_vlx_row *append(struct chk_vlx *x, uint32_t n)
{
	struct chk_vlx_row *v = x->v + x->n;

	x->n += n;
	x->sorted = false;
	free(x->off);
	free(x->inmask);
	x->off = NULL;
	x->inmask = NULL;
	return v;
}

int chk_vlx_add(struct chk_vlx *x, uint32_t in, uint32_t out, const uint8_t *vl16)
{
	struct chk_vlx_row *v;

	if (ffr_grow((void **)&x->v, &x->cap, (uint64_t)x->n + 1, sizeof(*x->v)))
		return -ENOMEM;
	v = append(x, 1);
	v->key = (uint64_t)out << 32 | in;
	memcpy(v->vl, vl16, 16);
	return 0;
}

struct chk_vlx_row *chk_vlx_extend(struct chk_vlx *x, uint32_t n)
{
	if ((uint64_t)x->n + n > UINT32_MAX / 2 || chk_vlx_reserve(x, x->n + n))
		return NULL;	/* exactly: the rows come at the engine's peak of memory */
	return append(x, n);
}

int chk_vlx_reserve(struct chk_vlx *x, uint32_t n)
{
	struct chk_vlx_row *v;

	if (n <= x->cap)
		return 0;
	v = realloc(x->v, (size_t)n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	x->v = v;
	x->cap = n;
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	uint64_t x = ((const struct chk_vlx_row *)a)->key, y = ((const struct chk_vlx_row *)b)->key;

	return x < y ? -1 : x > y;
}

/*
 * Sort by key; a pair given twice keeps one of its rows.  Then index the
 * rows by out port (off[]) and mark, per out port, the in ports of its
 * rows modulo 64 (inmask[]): a lookup of a pair without a row (most: a
 * turn's out port also carries the routes that do not turn) mostly ends
 * there.  Without memory for the index, lookups stay binary searches
 * over all rows.
 */
void chk_vlx_sort(struct chk_vlx *x)
{
	uint32_t m = 0, k = 1;

	if (!x->n) {
		x->sorted = true;
		return;
	}
	while (k < x->n && x->v[k - 1].key <= x->v[k].key)
		k++;
	if (k < x->n)	/* rows given in order (the engine's) need no sort buffer */
		qsort(x->v, x->n, sizeof(*x->v), cmp_row);
	for (uint32_t i = 0; i < x->n; i++)
		if (!m || x->v[m - 1].key != x->v[i].key)
			x->v[m++] = x->v[i];
	x->n = m;
	x->sorted = true;
	free(x->off);
	free(x->inmask);
	x->nout = m ? (uint32_t)(x->v[m - 1].key >> 32) + 1 : 0;
	x->off = malloc(((size_t)x->nout + 1) * sizeof(*x->off));
	x->inmask = calloc((size_t)x->nout + 1, sizeof(*x->inmask));
	if (!x->off || !x->inmask) {
		free(x->off);
		free(x->inmask);
		x->off = NULL;
		x->inmask = NULL;
		return;
	}
	for (uint32_t o = 0, i = 0; o <= x->nout; o++) {
		while (i < m && (x->v[i].key >> 32) < o)
			i++;
		x->off[o] = i;
	}
	for (uint32_t i = 0; i < m; i++)
		x->inmask[x->v[i].key >> 32] |= 1ull << (x->v[i].key & 63);
}

const uint8_t *chk_vlx_find(const struct chk_vlx *x, uint32_t in, uint32_t out)
{
	struct chk_vlx_row key = { .key = (uint64_t)out << 32 | in };
	const struct chk_vlx_row *r;

	if (!x->n)
		return NULL;
	if (!x->sorted) {
		for (uint32_t i = 0; i < x->n; i++)
			if (x->v[i].key == key.key)
				return x->v[i].vl;
		return NULL;
	}
	if (x->off) {	/* the rows of @out, by hand: bsearch's callback costs more */
		uint32_t lo, hi;

		if (out >= x->nout)
			return NULL;
		for (lo = x->off[out], hi = x->off[out + 1]; lo < hi;) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (x->v[mid].key == key.key)
				return x->v[mid].vl;
			if (x->v[mid].key < key.key)
				lo = mid + 1;
			else
				hi = mid;
		}
		return NULL;
	}
	r = bsearch(&key, x->v, x->n, sizeof(*x->v), cmp_row);
	return r ? r->vl : NULL;
}

void chk_vlx_free(struct chk_vlx *x)
{
	free(x->v);
	free(x->off);
	free(x->inmask);
	memset(x, 0, sizeof(*x));
}

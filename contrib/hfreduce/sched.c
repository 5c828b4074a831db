// SPDX-License-Identifier: BSD-2-Clause
/*
 * sched.c - the two trees of the double binary tree and the step-by-step
 * transfer schedules (pipelined double binary tree, ring) that the path
 * model walks.  The step rule is in hfr.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "hfr.h"

void hfr_tree_free(struct hfr_tree *t)
{
	free(t->parent);
	free(t->depth);
	free(t->nchild);
	free(t->child);
	memset(t, 0, sizeof(*t));
}

int hfr_tree_build(struct hfr_tree *t, uint32_t n, int which)
{
	int64_t h;

	memset(t, 0, sizeof(*t));
	t->n = n;
	t->root = -1;
	t->parent = malloc((n + 1) * sizeof(*t->parent));
	t->depth = calloc(n + 1, sizeof(*t->depth));
	t->nchild = calloc(n + 1, sizeof(*t->nchild));
	t->child = calloc(n + 1, sizeof(*t->child));
	if (!t->parent || !t->depth || !t->nchild || !t->child) {
		hfr_tree_free(t);
		return -ENOMEM;
	}
	h = chk_dbt_tree(n, which, t->parent, t->depth);
	if (h < 0) {
		hfr_tree_free(t);
		return -EINVAL;
	}
	t->height = (uint32_t)h;
	for (uint32_t r = 0; r < n; r++) {
		int32_t p = t->parent[r];

		if (p < 0) {
			t->root = (int32_t)r;
			continue;
		}
		if (t->nchild[p] == HFR_MAX_CHILD) {
			hfr_tree_free(t);
			return -EINVAL;
		}
		t->child[p][t->nchild[p]++] = (int32_t)r;
	}
	return 0;
}

void hfr_halves(uint64_t nelems, uint64_t chunk_elems, struct hfr_half h[2])
{
	h[0].first = 0;
	h[0].count = (nelems + 1) / 2;
	h[1].first = h[0].count;
	h[1].count = nelems - h[0].count;
	for (int i = 0; i < 2; i++) {
		h[i].chunk_elems = chunk_elems;
		h[i].nchunks = (uint32_t)((h[i].count + chunk_elems - 1) / chunk_elems);
	}
}

void hfr_sched_free(struct hfr_sched *s)
{
	free(s->off);
	free(s->x);
	memset(s, 0, sizeof(*s));
}

/* Sort the transfers @v by their @step into s->x / s->off: a stable
 * counting sort keeps the callers' deterministic order inside a step. */
static int by_step(struct hfr_sched *s, struct hfr_xfer *v, const uint32_t *step, uint32_t nv,
		   uint32_t nsteps)
{
	s->nsteps = nsteps;
	s->nx = nv;
	s->off = calloc((size_t)nsteps + 2, sizeof(*s->off));
	s->x = malloc(((size_t)nv + 1) * sizeof(*s->x));
	if (!s->off || !s->x)
		return -ENOMEM;
	for (uint32_t i = 0; i < nv; i++)
		s->off[step[i] + 1]++;
	for (uint32_t k = 0; k < nsteps; k++)
		s->off[k + 1] += s->off[k];
	for (uint32_t i = 0; i < nv; i++)
		s->x[s->off[step[i]]++] = v[i];
	for (uint32_t k = nsteps; k > 0; k--)
		s->off[k] = s->off[k - 1];
	s->off[0] = 0;
	return 0;
}

static uint64_t chunk_len(const struct hfr_half *h, uint32_t c)
{
	uint64_t lo = (uint64_t)c * h->chunk_elems;

	return h->count - lo < h->chunk_elems ? h->count - lo : h->chunk_elems;
}

int hfr_sched_dbt(struct hfr_sched *s, uint32_t n, uint64_t nelems, size_t esize,
		  uint64_t chunk_elems)
{
	struct hfr_tree tr[2] = { 0 };
	struct hfr_half h[2];
	struct hfr_xfer *v = NULL;
	uint32_t *step = NULL, nv = 0, nsteps = 0;
	uint64_t cap = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->nranks = n;
	s->bytes = nelems * esize;
	if (!chunk_elems)
		return -EINVAL;
	hfr_halves(nelems, chunk_elems, h);
	for (int t = 0; t < 2 && !rc; t++) {
		rc = hfr_tree_build(&tr[t], n, t);
		cap += 2ull * (n ? n - 1 : 0) * h[t].nchunks;
	}
	if (!rc && cap > UINT32_MAX - 1)
		rc = -E2BIG;
	if (!rc && (!(v = malloc((cap + 1) * sizeof(*v))) || !(step = malloc((cap + 1) * sizeof(*step)))))
		rc = -ENOMEM;
	for (int t = 0; t < 2 && !rc; t++) {
		uint32_t H = tr[t].height;

		for (uint32_t c = 0; c < h[t].nchunks; c++)
			for (uint32_t r = 0; r < n; r++) {
				int32_t p = tr[t].parent[r];
				uint32_t d = tr[t].depth[r];

				if (p >= 0) {
					v[nv] = (struct hfr_xfer){ r, (uint32_t)p, chunk_len(&h[t], c) * esize,
								   c, (uint8_t)t, HFR_UP };
					step[nv++] = c + H - d;
				}
				for (unsigned k = 0; k < tr[t].nchild[r]; k++) {
					v[nv] = (struct hfr_xfer){ r, (uint32_t)tr[t].child[r][k],
								   chunk_len(&h[t], c) * esize, c, (uint8_t)t,
								   HFR_DOWN };
					step[nv++] = c + H + d;
				}
			}
		/* the last chunk leaves the deepest parent at step C - 1 + 2H - 1 */
		if (h[t].nchunks && n > 1 && h[t].nchunks + 2 * H - 1 > nsteps)
			nsteps = h[t].nchunks + 2 * H - 1;
	}
	if (!rc)
		rc = by_step(s, v, step, nv, nsteps);
	free(v);
	free(step);
	hfr_tree_free(&tr[0]);
	hfr_tree_free(&tr[1]);
	if (rc)
		hfr_sched_free(s);
	return rc;
}

int hfr_sched_ring(struct hfr_sched *s, uint32_t n, uint64_t nelems, size_t esize)
{
	uint32_t nsteps = n > 1 ? 2 * (n - 1) : 0, nv = 0;
	struct hfr_xfer *v = malloc(((size_t)nsteps * n + 1) * sizeof(*v));
	uint32_t *step = malloc(((size_t)nsteps * n + 1) * sizeof(*step));
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->nranks = n;
	s->bytes = nelems * esize;
	if (!v || !step)
		rc = -ENOMEM;
	for (uint32_t k = 0; k < nsteps && !rc; k++)
		for (uint32_t r = 0; r < n; r++) {
			/* reduce-scatter sends block r - k, allgather block r + 1 - k */
			uint32_t b = k < n - 1 ? (r + n - k) % n : (r + 1 + n - (k - (n - 1))) % n;
			uint64_t len = nelems * (b + 1) / n - nelems * b / n;

			v[nv] = (struct hfr_xfer){ r, (r + 1) % n, len * esize, b, 0, HFR_RING };
			step[nv++] = k;
		}
	if (!rc)
		rc = by_step(s, v, step, nv, nsteps);
	free(v);
	free(step);
	if (rc)
		hfr_sched_free(s);
	return rc;
}

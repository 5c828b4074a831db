// SPDX-License-Identifier: BSD-2-Clause
/*
 * allreduce.c - HFReduce's pipelined double binary tree allreduce over any
 * transport (hfr.h), and the local transport: ranks as threads sharing
 * memory, so the same code that runs over verbs is tested here for real.
 *
 * Order of a rank's work, iteration i: reduce chunk i up both trees, then
 * broadcast chunk i - LAG down both.  With puts that never block this
 * cannot deadlock: by induction on i, iteration i's up moves complete
 * bottom-up (each waits only for its children's up moves of iteration i,
 * which come first in their order), and its down moves top-down.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hfr.h"

#define LAG 2	/* chunks in flight between reduce and broadcast */

struct ar {
	struct hfr_xport *x;
	enum hfr_dtype d;
	size_t esize;
	char *buf;
	struct hfr_tree tr[2];
	struct hfr_half h[2];
	uint64_t sent;		/* bytes put so far (struct hfr_steps) */
};

static unsigned slot(int tree, int phase)
{
	return (unsigned)(tree * 2 + phase);
}

static void span(const struct ar *a, int t, uint32_t c, uint64_t *off, uint64_t *len)
{
	uint64_t lo = (uint64_t)c * a->h[t].chunk_elems, n = a->h[t].count - lo;

	if (n > a->h[t].chunk_elems)
		n = a->h[t].chunk_elems;
	*off = lo * a->esize;		/* inside the half, i.e. the region */
	*len = n * a->esize;
}

static int up(struct ar *a, int t, uint32_t c)
{
	uint32_t r = a->x->rank;
	uint64_t off, len;
	char *mine;
	int rc;

	span(a, t, c, &off, &len);
	mine = a->buf + a->h[t].first * a->esize + off;
	for (unsigned k = 0; k < a->tr[t].nchild[r]; k++) {
		const void *data;

		rc = a->x->wait(a->x, (uint32_t)a->tr[t].child[r][k], slot(t, HFR_UP), off, len, &data);
		if (rc)
			return rc;
		hfr_add(a->d, mine, data, len / a->esize);
	}
	if (a->tr[t].parent[r] < 0)
		return 0;
	a->sent += len;
	return a->x->put(a->x, (uint32_t)a->tr[t].parent[r], slot(t, HFR_UP), off, mine, len);
}

static int down(struct ar *a, int t, uint32_t c)
{
	uint32_t r = a->x->rank;
	int32_t p = a->tr[t].parent[r];
	uint64_t off, len;
	const void *src;
	int rc;

	span(a, t, c, &off, &len);
	src = a->buf + a->h[t].first * a->esize + off;	/* the root's own sum */
	if (p >= 0 && (rc = a->x->wait(a->x, (uint32_t)p, slot(t, HFR_DOWN), off, len, &src)))
		return rc;
	for (unsigned k = 0; k < a->tr[t].nchild[r]; k++) {
		rc = a->x->put(a->x, (uint32_t)a->tr[t].child[r][k], slot(t, HFR_DOWN), off, src, len);
		if (rc)
			return rc;
		a->sent += len;
	}
	return 0;
}

/* After every put has completed: the broadcast results into the buffer. */
static int collect(struct ar *a)
{
	uint32_t r = a->x->rank;

	for (int t = 0; t < 2; t++) {
		int32_t p = a->tr[t].parent[r];

		for (uint32_t c = 0; p >= 0 && c < a->h[t].nchunks; c++) {
			uint64_t off, len;
			const void *data;
			int rc;

			span(a, t, c, &off, &len);
			rc = a->x->wait(a->x, (uint32_t)p, slot(t, HFR_DOWN), off, len, &data);
			if (rc)
				return rc;
			memcpy(a->buf + a->h[t].first * a->esize + off, data, len);
		}
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Iteration @i has ended: its time and bytes into x->steps. */
static void stamp(struct ar *a, uint32_t i, uint64_t t0, uint64_t *sent0)
{
	struct hfr_steps *s = a->x->steps;

	if (!s || i >= s->cap)
		return;
	s->ns[i] = now_ns() - t0;
	s->bytes[i] = a->sent - *sent0;
	*sent0 = a->sent;
	s->n = i + 1;
}

uint32_t hfr_iterations(uint64_t nelems, uint64_t chunk_elems)
{
	struct hfr_half h[2];

	if (!chunk_elems)
		return 0;
	hfr_halves(nelems, chunk_elems, h);
	return (h[0].nchunks > h[1].nchunks ? h[0].nchunks : h[1].nchunks) + LAG;
}

int hfr_allreduce(struct hfr_xport *x, enum hfr_dtype d, void *buf, uint64_t nelems,
		  uint64_t chunk_elems)
{
	struct ar a = { .x = x, .d = d, .esize = hfr_dtype_size(d), .buf = buf };
	uint64_t t0 = now_ns(), sent0 = 0;
	uint32_t iters;
	int rc = 0;

	if (x->steps)
		x->steps->n = 0;
	if (!chunk_elems)
		return -EINVAL;
	if (x->nranks < 2 || !nelems)
		return 0;
	hfr_halves(nelems, chunk_elems, a.h);
	for (int t = 0; t < 2 && !rc; t++)
		rc = hfr_tree_build(&a.tr[t], x->nranks, t);
	iters = hfr_iterations(nelems, chunk_elems);
	for (uint32_t i = 0; i < iters && !rc; i++) {
		for (int t = 0; t < 2 && !rc; t++)
			if (i < a.h[t].nchunks)
				rc = up(&a, t, i);
		for (int t = 0; t < 2 && !rc; t++)
			if (i >= LAG && i - LAG < a.h[t].nchunks)
				rc = down(&a, t, i - LAG);
		stamp(&a, i, t0, &sent0);
	}
	if (!rc && x->flush)
		rc = x->flush(x);
	if (!rc)
		rc = collect(&a);
	hfr_tree_free(&a.tr[0]);
	hfr_tree_free(&a.tr[1]);
	return rc;
}

struct hfr_steps *hfr_steps_new(uint32_t cap)
{
	struct hfr_steps *s = calloc(1, sizeof(*s));

	if (s) {
		s->cap = cap;
		s->ns = calloc((size_t)cap + 1, sizeof(*s->ns));
		s->bytes = calloc((size_t)cap + 1, sizeof(*s->bytes));
	}
	if (s && (!s->ns || !s->bytes)) {
		hfr_steps_free(s);
		s = NULL;
	}
	return s;
}

void hfr_steps_free(struct hfr_steps *s)
{
	if (!s)
		return;
	free(s->ns);
	free(s->bytes);
	free(s);
}

void hfr_steps_print(FILE *f, const char *who, const struct hfr_steps *s, bool every)
{
	uint64_t prev = 0, worst = 0, total = 0;
	uint32_t wi = 0;

	for (uint32_t i = 0; i < s->n; i++) {
		uint64_t dt = s->ns[i] - prev;

		if (every)
			fprintf(f, "%s step %u: %.1f us, %llu bytes put, %.2f GB/s\n", who, i,
				dt / 1e3, (unsigned long long)s->bytes[i],
				dt ? (double)s->bytes[i] / (double)dt : 0.0);
		if (dt >= worst)
			worst = dt, wi = i;
		total += dt;
		prev = s->ns[i];
	}
	if (!s->n)
		return;
	fprintf(f, "%s: %u pipeline steps, mean %.1f us; slowest step %u: %.1f us, %llu bytes put, "
		"%.2f GB/s\n", who, s->n, total / 1e3 / s->n, wi, worst / 1e3,
		(unsigned long long)s->bytes[wi], worst ? (double)s->bytes[wi] / (double)worst : 0.0);
}

/* ---- local transport ----------------------------------------------------- */

/* A receive region: filled is the contiguous prefix that has arrived (one
 * sender writes one region, in increasing offsets). */
struct region {
	char *mem;
	uint64_t filled;
};

struct rank_box {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct region *reg;	/* [nranks * 4]: (sender, slot), allocated on use */
};

struct hfr_local {
	uint32_t n;
	uint64_t region_bytes;
	struct rank_box *box;
	int failed;		/* a rank gave up: the others stop waiting */
};

/* Wake every rank: one failed, so nobody waits for it forever. */
static void local_abort(struct hfr_local *l)
{
	for (uint32_t r = 0; r < l->n; r++) {
		pthread_mutex_lock(&l->box[r].mu);
		l->failed = 1;
		pthread_cond_broadcast(&l->box[r].cv);
		pthread_mutex_unlock(&l->box[r].mu);
	}
}

struct hfr_local *hfr_local_new(uint32_t n, uint64_t region_bytes)
{
	struct hfr_local *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->n = n;
	l->region_bytes = region_bytes;
	l->box = calloc(n + 1, sizeof(*l->box));
	if (!l->box) {
		free(l);
		return NULL;
	}
	for (uint32_t r = 0; r < n; r++) {
		pthread_mutex_init(&l->box[r].mu, NULL);
		pthread_cond_init(&l->box[r].cv, NULL);
		l->box[r].reg = calloc((size_t)n * 4, sizeof(struct region));
		if (!l->box[r].reg) {
			l->n = r + 1;
			hfr_local_free(l);
			return NULL;
		}
	}
	return l;
}

void hfr_local_free(struct hfr_local *l)
{
	if (!l)
		return;
	for (uint32_t r = 0; r < l->n; r++) {
		for (uint32_t k = 0; l->box[r].reg && k < l->n * 4; k++)
			free(l->box[r].reg[k].mem);
		free(l->box[r].reg);
		pthread_mutex_destroy(&l->box[r].mu);
		pthread_cond_destroy(&l->box[r].cv);
	}
	free(l->box);
	free(l);
}

static int local_put(struct hfr_xport *x, uint32_t peer, unsigned sl, uint64_t off,
		     const void *buf, uint64_t len)
{
	struct hfr_local *l = x->ctx;
	struct rank_box *b;
	struct region *g;

	if (peer >= l->n || sl >= 4 || off + len > l->region_bytes)
		return -EINVAL;
	b = &l->box[peer];
	g = &b->reg[x->rank * 4 + sl];
	pthread_mutex_lock(&b->mu);
	if (!g->mem && !(g->mem = malloc(l->region_bytes ? l->region_bytes : 1))) {
		pthread_mutex_unlock(&b->mu);
		return -ENOMEM;
	}
	pthread_mutex_unlock(&b->mu);
	memcpy(g->mem + off, buf, len);		/* the receiver reads it only after filled moves */
	pthread_mutex_lock(&b->mu);
	if (off + len > g->filled)
		g->filled = off + len;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
	return 0;
}

static int local_wait(struct hfr_xport *x, uint32_t peer, unsigned sl, uint64_t off,
		      uint64_t len, const void **data)
{
	struct hfr_local *l = x->ctx;
	struct rank_box *b = &l->box[x->rank];
	struct region *g;

	if (peer >= l->n || sl >= 4 || off + len > l->region_bytes)
		return -EINVAL;
	g = &b->reg[peer * 4 + sl];
	pthread_mutex_lock(&b->mu);
	while ((g->filled < off + len || !g->mem) && !l->failed)
		pthread_cond_wait(&b->cv, &b->mu);
	*data = g->mem ? g->mem + off : NULL;
	pthread_mutex_unlock(&b->mu);
	return g->filled < off + len ? -ECANCELED : 0;
}

void hfr_local_xport(struct hfr_local *l, uint32_t rank, struct hfr_xport *x)
{
	*x = (struct hfr_xport){ .ctx = l, .rank = rank, .nranks = l->n,
				 .put = local_put, .wait = local_wait, .flush = NULL };
}

struct job {
	struct hfr_local *l;
	struct hfr_xport x;
	enum hfr_dtype d;
	void *buf;
	uint64_t nelems, chunk;
	int rc;
};

static void *run(void *arg)
{
	struct job *j = arg;

	j->rc = hfr_allreduce(&j->x, j->d, j->buf, j->nelems, j->chunk);
	if (j->rc)
		local_abort(j->l);
	return NULL;
}

int hfr_local_allreduce(uint32_t n, enum hfr_dtype d, void **buf, uint64_t nelems,
			uint64_t chunk_elems, struct hfr_steps *rank0)
{
	struct hfr_local *l = hfr_local_new(n, (nelems + 1) / 2 * hfr_dtype_size(d));
	struct job *j = calloc(n + 1, sizeof(*j));
	pthread_t *th = calloc(n + 1, sizeof(*th));
	uint32_t started = 0;
	int rc = 0;

	if (!l || !j || !th)
		rc = -ENOMEM;
	for (uint32_t r = 0; r < n && !rc; r++) {
		j[r] = (struct job){ .l = l, .d = d, .buf = buf[r], .nelems = nelems,
				     .chunk = chunk_elems };
		hfr_local_xport(l, r, &j[r].x);
		j[r].x.steps = r ? NULL : rank0;
		if (pthread_create(&th[r], NULL, run, &j[r]))
			rc = -EAGAIN;
		else
			started++;
	}
	if (rc && started)	/* a rank is missing: the others must not wait for it */
		local_abort(l);
	for (uint32_t r = 0; r < started; r++) {
		pthread_join(th[r], NULL);
		if (!rc)
			rc = j[r].rc;
	}
	hfr_local_free(l);
	free(j);
	free(th);
	return rc;
}

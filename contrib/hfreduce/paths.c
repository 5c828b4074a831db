// SPDX-License-Identifier: BSD-2-Clause
/*
 * paths.c - path mode: every transfer of the schedule follows the LFTs
 * (chk_walk) to a list of directed channels; per step, the transfers that
 * run at once share the channels' rates max-min fairly (progressive
 * filling).  The same filling over the host links alone gives what the
 * endpoints allow whatever the routing: a transfer below that is slowed by
 * the routing.  Step time = its slowest transfer; algorithm bandwidth =
 * size / sum of step times.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

/*
 * Rate of channel @p in Gb/s: its link's (cls_link_rate: width x lane
 * rate, the lower end's, as ffroute check rates links); where neither end
 * gives both, its own port's with an unknown width 4x and an unknown
 * speed HDR.
 */
static double ch_rate(const struct topo *t, uint32_t p)
{
	uint32_t r = cls_link_rate(t, p);
	unsigned w = t->port_width[p], g = topo_speed_gbps_x10(t->port_speed[p]);

	return r ? r / 10.0 : (w ? w : 4) * (g ? g / 10.0 : 50.0);
}


static void flows_free(struct flows *f)
{
	free(f->off);
	free(f->ch);
	free(f->rate);
	free(f->ideal);
	free(f->bytes);
	free(f->xi);
	free(f->ok);
	memset(f, 0, sizeof(*f));
}

/* Resize *@p to @n elements of @size; *@p is kept on failure. */
static int grow(void **p, size_t n, size_t size)
{
	void *q = realloc(*p, n * size);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

static int flows_add(struct pm *m, struct flows *f, uint32_t src, uint32_t dlid, uint64_t bytes,
		     uint32_t xi)
{
	struct chk_path p;

	if (f->n + 1 >= f->cap) {
		uint32_t c = f->cap ? f->cap * 2 : 1024;

		if (grow((void **)&f->off, c + 1, sizeof(*f->off)) ||
		    grow((void **)&f->rate, c, sizeof(*f->rate)) ||
		    grow((void **)&f->ideal, c, sizeof(*f->ideal)) ||
		    grow((void **)&f->bytes, c, sizeof(*f->bytes)) ||
		    grow((void **)&f->xi, c, sizeof(*f->xi)) || grow((void **)&f->ok, c, 1))
			return -ENOMEM;
		f->cap = c;
	}
	if (f->nch + CHK_MAX_HOPS > f->chcap) {
		uint32_t c = f->chcap ? f->chcap * 2 : 8192;
		uint32_t *a = realloc(f->ch, c * sizeof(*f->ch));

		if (!a)
			return -ENOMEM;
		f->ch = a;
		f->chcap = c;
	}
	if (!f->n)
		f->off[0] = 0;
	chk_walk(m->t, m->l, src, dlid, &p);
	f->ok[f->n] = p.status == CHK_WALK_OK;
	if (f->ok[f->n]) {
		memcpy(f->ch + f->nch, p.ch, p.nch * sizeof(*p.ch));
		f->nch += p.nch;
	}
	f->bytes[f->n] = bytes;
	f->xi[f->n] = xi;
	f->off[++f->n] = f->nch;
	return 0;
}

/*
 * Max-min fair rates by progressive filling: all unfrozen flows grow
 * together until a channel is full; its flows freeze.  @ends: only the
 * first and last channel of each path (the host links) count.
 */
static void fill(struct pm *m, struct flows *f, bool ends, double *rate)
{
	uint32_t *cnt = m->cnt, nt = 0;
	double *rem = m->rem;
	uint8_t *frozen = m->frozen;
	uint32_t *touched = m->touched;

	for (uint32_t i = 0; i < f->n; i++) {
		rate[i] = 0;
		frozen[i] = !f->ok[i] || f->off[i] == f->off[i + 1];
		for (uint32_t k = f->off[i]; !frozen[i] && k < f->off[i + 1]; k++) {
			uint32_t c = f->ch[k];

			if (ends && k != f->off[i] && k != f->off[i + 1] - 1)
				continue;
			if (!cnt[c]++) {
				touched[nt++] = c;
				rem[c] = ch_rate(m->t, c);
			}
		}
	}
	for (;;) {
		double x = INFINITY;

		for (uint32_t j = 0; j < nt; j++)
			if (cnt[touched[j]] && rem[touched[j]] / cnt[touched[j]] < x)
				x = rem[touched[j]] / cnt[touched[j]];
		if (x == INFINITY)
			break;
		for (uint32_t j = 0; j < nt; j++)
			rem[touched[j]] -= x * cnt[touched[j]];
		for (uint32_t i = 0; i < f->n; i++) {
			bool full = false;

			if (frozen[i])
				continue;
			rate[i] += x;
			for (uint32_t k = f->off[i]; k < f->off[i + 1] && !full; k++)
				if (!ends || k == f->off[i] || k == f->off[i + 1] - 1)
					full = rem[f->ch[k]] <= 1e-9 * ch_rate(m->t, f->ch[k]);
			if (!full)
				continue;
			frozen[i] = 2;	/* leaves the count after this round */
		}
		for (uint32_t i = 0; i < f->n; i++) {
			if (frozen[i] != 2)
				continue;
			frozen[i] = 1;
			for (uint32_t k = f->off[i]; k < f->off[i + 1]; k++)
				if (!ends || k == f->off[i] || k == f->off[i + 1] - 1)
					cnt[f->ch[k]]--;
		}
	}
	for (uint32_t j = 0; j < nt; j++)
		cnt[touched[j]] = 0;
}

/* Transfers on the busiest switch-to-switch channel of the step; channels shared. */
static void sharing(struct pm *m, const struct flows *f, struct pm_step *st)
{
	uint32_t *cnt = m->cnt, nt = 0;

	st->worst = 0;
	st->shared = 0;
	st->worst_ch = TOPO_NONE;
	for (uint32_t i = 0; i < f->n; i++)
		for (uint32_t k = f->off[i]; f->xi[i] != UINT32_MAX && k < f->off[i + 1]; k++) {
			uint32_t c = f->ch[k];

			if (!topo_is_sw_link(m->t, c))
				continue;
			if (!cnt[c]++)
				m->touched[nt++] = c;
			if (cnt[c] == 2)
				st->shared++;
			if (cnt[c] > st->worst || (cnt[c] == st->worst && c < st->worst_ch)) {
				st->worst = cnt[c];
				st->worst_ch = c;
			}
		}
	for (uint32_t j = 0; j < nt; j++)
		cnt[m->touched[j]] = 0;
}

static uint32_t dlid_of(const struct pm *m, const struct chk_ep *e, const struct hfr_xfer *x)
{
	unsigned lmc = m->t->port_lmc[e->port];

	if (!m->opt.lmc_spread || !lmc)
		return e->lid;
	return e->lid + (uint32_t)((x->tree * 2u + x->phase) & ((1u << lmc) - 1));
}

/* One step: its transfers (+ the incast reads if @incast), rates, summary. */
static int run_step(struct pm *m, const struct hfr_sched *s, uint32_t k, bool incast,
		    struct pm_step *st)
{
	struct flows *f = &m->f;
	double tmax = 0, imax = 0;
	int rc = 0;

	f->n = f->nch = 0;
	for (uint32_t i = s->off[k]; i < s->off[k + 1] && !rc; i++) {
		const struct hfr_xfer *x = &s->x[i];

		rc = flows_add(m, f, m->rk[x->src].port, dlid_of(m, &m->rk[x->dst], x), x->bytes, i);
	}
	for (uint32_t i = 0; incast && i < m->nrk && !rc; i++)
		if (m->reader[i] != TOPO_NONE)
			rc = flows_add(m, f, m->stor[m->reader[i]].port, m->rk[i].lid, 0, UINT32_MAX);
	if (rc)
		return rc;
	fill(m, f, false, f->rate);
	fill(m, f, true, f->ideal);
	memset(st, 0, sizeof(*st));
	st->xfers = s->off[k + 1] - s->off[k];
	st->min_ratio = 1.0;
	for (uint32_t i = 0; i < f->n; i++) {
		if (f->xi[i] == UINT32_MAX)
			continue;
		if (!f->ok[i]) {
			st->unrouted++;
			st->min_ratio = 0;
			tmax = INFINITY;
			continue;
		}
		if (f->rate[i] < f->ideal[i] * (1 - 1e-9)) {
			st->slow++;
			if (!st->slow_xfer_set || f->rate[i] / f->ideal[i] < st->min_ratio) {
				st->slow_xfer = f->xi[i];
				st->slow_rate = f->rate[i];
				st->slow_ideal = f->ideal[i];
				st->slow_xfer_set = true;
			}
		}
		if (f->rate[i] / f->ideal[i] < st->min_ratio)
			st->min_ratio = f->rate[i] / f->ideal[i];
		if (f->bytes[i] * 8e-9 / f->rate[i] > tmax)
			tmax = f->bytes[i] * 8e-9 / f->rate[i];
		if (f->bytes[i] * 8e-9 / f->ideal[i] > imax)
			imax = f->bytes[i] * 8e-9 / f->ideal[i];
	}
	st->time = tmax;
	st->ideal_time = imax;
	sharing(m, f, st);
	return 0;
}

int pm_run(struct pm *m, const struct hfr_sched *s, bool incast, struct pm_result *res,
	   pm_step_cb cb, void *arg)
{
	memset(res, 0, sizeof(*res));
	res->steps = s->nsteps;
	for (uint32_t k = 0; k < s->nsteps; k++) {
		struct pm_step st;
		int rc = run_step(m, s, k, incast, &st);

		if (rc)
			return rc;
		res->time += st.time;
		res->ideal_time += st.ideal_time;
		res->slow += st.slow;
		res->unrouted += st.unrouted;
		if (st.worst > res->worst)
			res->worst = st.worst;
		if (!k || st.min_ratio < res->min_ratio)
			res->min_ratio = st.min_ratio;
		if (cb)
			cb(arg, s, k, &st);
	}
	res->algbw = res->time > 0 ? s->bytes / res->time / 1e9 : 0;
	res->ideal_algbw = res->ideal_time > 0 ? s->bytes / res->ideal_time / 1e9 : 0;
	return 0;
}

int pm_init(struct pm *m, const struct topo *t, const struct lft *l)
{
	memset(m, 0, sizeof(*m));
	m->t = t;
	m->l = l;
	m->cnt = calloc(t->nports + 1, sizeof(*m->cnt));
	m->rem = calloc(t->nports + 1, sizeof(*m->rem));
	m->touched = calloc(t->nports + 1, sizeof(*m->touched));
	return m->cnt && m->rem && m->touched ? 0 : -ENOMEM;
}

int pm_prepare(struct pm *m)
{
	free(m->frozen);
	/* a step holds at most 4 (n - 1) transfers (dbt) or n (ring), + n reads */
	m->frozen = calloc(8 * ((size_t)m->nrk + 1), 1);
	return m->frozen ? 0 : -ENOMEM;
}

void pm_free(struct pm *m)
{
	flows_free(&m->f);
	free(m->cnt);
	free(m->rem);
	free(m->touched);
	free(m->frozen);
	free(m->rk);
	free(m->stor);
	free(m->reader);
	memset(m, 0, sizeof(*m));
}

// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_paths.c - path mode: read the fabric and its LFTs exactly as
 * `ffroute check` does (check_run: dumps, ibdiagnet, or --live over MADs),
 * choose the job, model the double binary tree step by step (and ring for
 * comparison), with and without storage incast, and print the report.
 * Consecutive steps with the same numbers print as one line.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfrcli.h"

struct printer {
	const struct pm *m;
	uint32_t first, last;	/* steps of the pending line */
	struct pm_step st;
	bool pending;
	uint32_t examples;	/* slowed transfers printed */
};

static void port_name(const struct topo *t, uint32_t p, char *buf, size_t len)
{
	uint32_t n = t->port_node[p];

	snprintf(buf, len, "'%s' port %u", t->node_desc[n][0] ? t->node_desc[n] : t->node_name[n],
		 topo_port_num(t, p));
}

static void flush_line(struct printer *pr)
{
	const struct pm_step *st = &pr->st;
	char ch[160] = "-", span[32];

	if (!pr->pending)
		return;
	if (st->worst_ch != TOPO_NONE)
		port_name(pr->m->t, st->worst_ch, ch, sizeof(ch));
	if (pr->first == pr->last)
		snprintf(span, sizeof(span), "%u", pr->first);
	else
		snprintf(span, sizeof(span), "%u-%u", pr->first, pr->last);
	printf("  %-9s %6u %6u %5u %5u %6.3f %9.1f %9.1f  %s\n", span, st->xfers, st->shared,
	       st->worst, st->slow, st->min_ratio, st->time * 1e6, st->ideal_time * 1e6,
	       st->worst > 1 ? ch : "");
	pr->pending = false;
}

static bool same(const struct pm_step *a, const struct pm_step *b)
{
	return a->xfers == b->xfers && a->shared == b->shared && a->worst == b->worst &&
	       a->slow == b->slow && a->unrouted == b->unrouted && a->worst_ch == b->worst_ch &&
	       fabs(a->min_ratio - b->min_ratio) < 1e-9 && fabs(a->time - b->time) < 1e-12 &&
	       fabs(a->ideal_time - b->ideal_time) < 1e-12;
}

static void example(struct printer *pr, const struct hfr_sched *s, uint32_t k,
		    const struct pm_step *st)
{
	const struct hfr_xfer *x = &s->x[st->slow_xfer];
	const struct topo *t = pr->m->t;
	char a[160], b[160];

	port_name(t, pr->m->rk[x->src].port, a, sizeof(a));
	port_name(t, pr->m->rk[x->dst].port, b, sizeof(b));
	printf("    step %u: rank %u (%s) -> rank %u (%s), tree %u %s chunk %u: %.2f of %.2f Gb/s\n",
	       k, x->src, a, x->dst, b, x->tree, x->phase == HFR_UP ? "reduce" : "broadcast",
	       x->chunk, st->slow_rate, st->slow_ideal);
}

static void on_step(void *arg, const struct hfr_sched *s, uint32_t k, const struct pm_step *st)
{
	struct printer *pr = arg;

	if (pr->pending && same(&pr->st, st) && pr->last + 1 == k) {
		pr->last = k;
	} else {
		flush_line(pr);
		pr->st = *st;
		pr->first = pr->last = k;
		pr->pending = true;
	}
	if (st->slow && pr->examples < 5) {
		flush_line(pr);
		example(pr, s, k, st);
		pr->examples++;
	}
}

/* --trace K: every transfer of double-binary-tree step K and its channels. */
static void trace(const struct pm *m, const struct hfr_sched *s, uint32_t k)
{
	const struct topo *t = m->t;

	if (k >= s->nsteps) {
		printf("trace: step %u: the schedule has %u steps\n", k, s->nsteps);
		return;
	}
	printf("trace of step %u (%u transfers):\n", k, s->off[k + 1] - s->off[k]);
	for (uint32_t i = s->off[k]; i < s->off[k + 1]; i++) {
		const struct hfr_xfer *x = &s->x[i];
		struct chk_path p;
		char a[160], b[160];

		port_name(t, m->rk[x->src].port, a, sizeof(a));
		port_name(t, m->rk[x->dst].port, b, sizeof(b));
		printf("  rank %u (%s) -> rank %u (%s, LID %u), tree %u %s:", x->src, a, x->dst, b,
		       m->rk[x->dst].lid, x->tree, x->phase == HFR_UP ? "reduce" : "broadcast");
		chk_walk(t, m->l, m->rk[x->src].port, m->rk[x->dst].lid, &p);
		for (uint32_t h = 1; p.status == CHK_WALK_OK && h < p.nch; h++) {
			port_name(t, p.ch[h], a, sizeof(a));
			printf(" %s", a);
		}
		printf("%s\n", p.status == CHK_WALK_OK ? "" : chk_walk_status_name(p.status));
	}
}

static void result_line(const char *what, const struct pm_result *r)
{
	printf("%s: %.2f GB/s, endpoint-limited ideal %.2f GB/s (%.1f %%); worst sharing %u; "
	       "transfers slowed by the routing %u; unrouted %u\n", what, r->algbw, r->ideal_algbw,
	       r->ideal_algbw > 0 ? 100.0 * r->algbw / r->ideal_algbw : 0.0, r->worst, r->slow,
	       r->unrouted);
}

static int model(struct pm *m, const struct hfr_cli *o, bool *costs)
{
	size_t es = hfr_dtype_size(o->dtype);
	struct hfr_sched s;
	struct pm_result r, ri;
	struct printer pr = { .m = m };
	int rc = hfr_sched_dbt(&s, m->nrk, o->size / es, es, o->chunk / es);

	if (rc)
		return rc;
	printf("double binary tree: %" PRIu64 " bytes %s in %" PRIu64 "-byte chunks, %u steps\n",
	       (o->size / es) * es, o->dtype == HFR_BF16 ? "bf16" : "f32", (o->chunk / es) * es,
	       s.nsteps);
	if (!o->summary)
		printf("  %-9s %6s %6s %5s %5s %6s %9s %9s  %s\n", "step", "xfers", "shared", "worst",
		       "slow", "ratio", "time_us", "ideal_us", "worst channel");
	rc = pm_run(m, &s, false, &r, o->summary ? NULL : on_step, &pr);
	flush_line(&pr);
	if (!rc && o->trace >= 0)
		trace(m, &s, (uint32_t)o->trace);
	if (!rc) {
		result_line("  predicted", &r);
		*costs = r.slow || r.unrouted;
	}
	if (!rc && m->nstor) {
		rc = pm_run(m, &s, true, &ri, NULL, NULL);
		if (!rc)
			result_line("  with storage incast (each rank reads from a storage HCA of its zone)",
				    &ri);
	} else if (!rc) {
		printf("  storage incast: no storage HCAs classified, not modelled\n");
	}
	hfr_sched_free(&s);
	if (rc || o->no_ring)
		return rc;
	rc = hfr_sched_ring(&s, m->nrk, o->size / es, es);
	if (!rc)
		rc = pm_run(m, &s, false, &r, NULL, NULL);
	if (!rc)
		result_line("ring (for comparison)", &r);
	hfr_sched_free(&s);
	return rc;
}

int hfr_paths_main(const struct hfr_cli *o)
{
	struct check_run run;
	struct diag_list dl;
	struct chk_opts co;
	struct job_spec job = o->job;
	struct pm m;
	char what[256];
	bool costs = false;
	int rc;

	chk_opts_init(&co);
	co.metrics = false;
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	rc = check_run(&o->in, &co, &run, &dl);
	diag_print(&dl, stderr);
	diag_free(&dl);
	if (rc) {
		fprintf(stderr, "hfreduce-check: cannot read this routing: %s\n", strerror(-rc));
		return 2;
	}
	rc = pm_init(&m, run.t, run.l);
	m.opt.lmc_spread = o->lmc_spread;
	job.nodes = run.job;
	job.nnodes = run.njob;
	if (!rc)
		rc = job_select(&m, &run.c, &job, what, sizeof(what));
	if (!rc && m.nrk < 2) {
		fprintf(stderr, "hfreduce-check: the job (%s) has %u rank(s): nothing to reduce\n",
			what, m.nrk);
		rc = -EINVAL;
	}
	if (!rc) {
		printf("hfreduce-check: %s: job: %s, %u ranks\n", run.label, what, m.nrk);
		rc = model(&m, o, &costs);
	}
	if (!rc)
		printf("verdict: %s\n", costs ? "the routing costs bandwidth (transfers below their "
		       "endpoint limit)" : "every transfer runs at its endpoint limit");
	pm_free(&m);
	check_run_free(&run);
	if (rc) {
		if (rc != -EINVAL)
			fprintf(stderr, "hfreduce-check: %s\n", strerror(-rc));
		return 2;
	}
	return o->strict && costs ? 1 : 0;
}

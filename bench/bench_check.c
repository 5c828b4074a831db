// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench_check.c - how long does `ffroute check` take on the full Fire-Flyer
 * 2 fabric (122 switches, 1,568 CAs)?
 *
 *   bench_check [N]   generate ff2 full (bridge style), give it LIDs and
 *                     route it min-hop D-mod-K (tests/unit/route_util.h),
 *                     then N times (default 9) classify + findings + every
 *                     metric (defaults: 64 shift samples, 32 bisections,
 *                     512-host cross-zone job, all-to-all); print the best
 *                     and median wall time, and of the metrics alone
 *
 * Generation and routing are not timed: they stand in for reading dumps,
 * which bench_load measures.  If chk_findings() is not built yet
 * (-ENOSYS) the line says so and times what exists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ffroute/check.h>
#include <ffroute/gen.h>

#include "../tests/unit/route_util.h"

#define MAX_RUNS 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct topo *ff2_routed(struct lft **l, struct diag_list *dl)
{
	struct gen_opts go;
	struct topo *raw, *t;

	gen_opts_init(&go, GEN_FF2);
	go.full = true;
	raw = gen_fabric(&go, dl);
	if (!raw)
		return NULL;
	t = ru_relid(raw, TOPO_NONE, dl);
	topo_free(raw);
	*l = t ? ru_dmodk(t) : NULL;
	if (t && !*l) {
		topo_free(t);
		return NULL;
	}
	return t;
}

/* One check; *tm gets the metrics' share.  Returns chk_findings()'s result. */
static int check_once(const struct topo *t, const struct lft *l, double *tm, struct chk_report *r,
		      int *mrc)
{
	struct cls c;
	struct chk_opts o;
	int frc;
	double t0;

	chk_opts_init(&o);
	if (cls_classify(t, NULL, &c) || chk_report_init(r, t->nports)) {
		*mrc = -ENOMEM;
		return -ENOMEM;
	}
	frc = chk_findings(t, l, &c, &o, r);
	t0 = now();
	*mrc = chk_metrics(t, l, &c, &o, r);
	*tm = now() - t0;
	cls_free(&c);
	return frc;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 9, frc = 0, mrc = 0;
	double all[MAX_RUNS], met[MAX_RUNS];
	struct chk_report r;
	struct diag_list dl;
	struct lft *l = NULL;
	struct topo *t;

	if (n < 1 || n > MAX_RUNS)
		n = 9;
	diag_init(&dl, 0);
	t = ff2_routed(&l, &dl);
	if (!t) {
		diag_print(&dl, stderr);
		fprintf(stderr, "bench_check: cannot generate ff2 full\n");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		double t0 = now();

		frc = check_once(t, l, &met[i], &r, &mrc);
		all[i] = now() - t0;
		if (mrc) {
			fprintf(stderr, "bench_check: chk_metrics failed (%d)\n", mrc);
			return 1;
		}
		if (i + 1 < n)
			chk_report_free(&r);
	}
	qsort(all, (size_t)n, sizeof(all[0]), cmp_dbl);
	qsort(met, (size_t)n, sizeof(met[0]), cmp_dbl);
	printf("check ff2 full (%u switches, %u CAs, %u LIDs, %u metrics): classify + findings%s"
	       " + metrics best %.4f s median %.4f s; metrics alone best %.4f s median %.4f s"
	       " (%d runs)\n", t->nswitches, t->ncas, t->max_lid, r.nm,
	       frc == -ENOSYS ? " (not built yet: -ENOSYS, not timed)" :
	       frc ? " (failed)" : "", all[0], all[n / 2], met[0], met[n / 2], n);
	printf("shift_max %g shift_lb_max %g ebb %.4f dbt_zone0_bw %.4f incast_mix_ratio %.4f"
	       " a2a_max %g\n", chk_metric_get(&r, "shift_max"),
	       chk_metric_get(&r, "shift_lb_max"), chk_metric_get(&r, "ebb"),
	       chk_metric_get(&r, "dbt_zone0_bw"), chk_metric_get(&r, "incast_mix_ratio"),
	       chk_metric_get(&r, "a2a_max"));
	chk_report_free(&r);
	lft_free(l);
	topo_free(t);
	diag_free(&dl);
	return 0;
}

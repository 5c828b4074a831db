// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench_route.c - how fast is the engine, and how much memory does it take?
 *
 *   bench_route CASE [N [THREADS]]
 *                          generate the fabric of CASE, give it LIDs, then N
 *                          times (default 5) classify + route + verify
 *                          (route_run with defaults; THREADS 1 or 2 instead
 *                          of as many as the CPUs allow); print best and median
 *                          wall time of each phase, and the peak RSS growth
 *                          of the first run against the LFT block's size
 *   CASE: frame      full frame (director), 60 switches, 860 LIDs
 *         ff2        full Fire-Flyer 2 (bridge), 122 switches, 1,690 LIDs
 *         ft3-700    3-level fat tree, radix 40, 5,600 hosts
 *         ft3-16k    3-level fat tree, radix 64, 16,384 hosts (full preset)
 *         ft3-32k    3-level fat tree, radix 64, 32,768 hosts (2,560 switches)
 *         ft3-16k-incr  the incremental re-route (issue 27): ft3-16k routed
 *                    from scratch is the base; the same fabric generated
 *                    with one switch-switch link dropped (seeded) is routed
 *                    N times with that base (route_run + verify); the
 *                    time of that route is reported (best, median, and
 *                    the first run's, whose memory is fresher than the
 *                    later runs' reuse), and the peak RSS growth of the
 *                    first above the base held
 *
 * Generation and LID assignment are not timed (bench_load measures
 * reading).  Peak memory is read from getrusage(RUSAGE_SELF) before and
 * after the first run; the topology is built before and is not counted;
 * its heap bytes (mallinfo2) are printed, as the memory bar counts it.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <ffroute/class.h>
#include <ffroute/gen.h>
#include <ffroute/route.h>

#include "base/util.h"
#include "bench.h"

#define MAX_RUNS 32

static long peak_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static struct topo *make(const char *name, struct diag_list *dl, double drop)
{
	struct gen_opts go;
	struct topo *t;

	if (!strcmp(name, "ff2")) {
		gen_opts_init(&go, GEN_FF2);
		go.full = true;
	} else if (!strcmp(name, "frame")) {
		gen_opts_init(&go, GEN_FRAME);
		go.full = true;
	} else if (!strcmp(name, "ft3-700")) {
		gen_opts_init(&go, GEN_FATTREE);
		go.levels = 3;
		go.radix = 40;
		go.hosts = 5600;
	} else if (!strcmp(name, "ft3-16k") || !strcmp(name, "ft3-16k-incr")) {
		gen_opts_init(&go, GEN_FATTREE);
		go.levels = 3;
		go.full = true;
	} else if (!strcmp(name, "ft3-32k")) {
		gen_opts_init(&go, GEN_FATTREE);
		go.levels = 3;
		go.radix = 64;
		go.hosts = 32768;
	} else {
		return NULL;
	}
	go.drop_links = drop;
	t = gen_fabric(&go, dl);
	if (t && topo_assign_lids(t, 0)) {
		topo_free(t);
		return NULL;
	}
	return t;
}

/* Switch-switch cables of @t. */
static uint32_t sw_links(const struct topo *t)
{
	uint32_t n = 0;

	for (uint32_t p = 0; p < t->nports; p++)
		n += topo_is_sw_link(t, p);
	return n / 2;
}

/* LFT entries of @a (on @ta) that differ in @b (on @tb), switch by GUID. */
static uint64_t entries_changed(const struct topo *ta, const struct lft *a,
				const struct topo *tb, const struct lft *b)
{
	uint64_t n = 0;

	for (uint32_t s = 0; s < tb->nswitches; s++) {
		uint32_t sa = ta->node_sw[topo_find_guid(ta, tb->node_guid[tb->sw_node[s]])];

		for (uint32_t lid = 1; lid <= tb->max_lid; lid++)
			n += lft_get(a, sa, lid) != lft_get(b, s, lid);
	}
	return n;
}

/* The engine's log lines, on stderr with FFROUTE_BENCH_LOG set. */
static void log_err(void *ctx, enum route_log_level lvl, const char *msg)
{
	(void)ctx;
	(void)lvl;
	fprintf(stderr, "bench_route: %s\n", msg);
}

/* ft3-16k-incr: the base routed from scratch, then N incremental passes (see the top). */
static int bench_incr(const char *name, int n, const struct route_opts *o0)
{
	struct diag_list dl;
	struct topo *t0, *t1 = NULL;
	struct route_out base, out;
	struct route_base rb;
	struct route_opts o = *o0;
	struct cls c0, c1;
	double tr[MAX_RUNS], first;
	uint64_t changed = 0;
	long before, after = 0;
	int rc = 1;

	diag_init(&dl, 0);
	t0 = make(name, &dl, 0);
	if (t0)
		t1 = make(name, &dl, 1.0 / sw_links(t0));
	if (!t0 || !t1 || cls_classify(t0, NULL, &c0) || route_run(t0, &c0, &o, &base)) {
		diag_print(&dl, stderr);
		fprintf(stderr, "bench_route: cannot make or route %s\n", name);
		return 1;
	}
	rb.t = t0, rb.lft = base.lft, rb.out = &base;
	o.base = &rb;
	before = peak_kib();	/* the base and both fabrics held */
	if (getenv("FFROUTE_BENCH_LOG"))
		o.log = log_err;
	for (int i = 0; i < n; i++) {
		double ta;

		if (cls_classify(t1, NULL, &c1))
			goto out;
		ta = bench_now();
		if (route_run(t1, &c1, &o, &out)) {
			fprintf(stderr, "bench_route: %s\n", out.err);
			cls_free(&c1);
			goto out;
		}
		tr[i] = bench_now() - ta;
		if (!i)
			after = peak_kib();
		if (i + 1 < n) {
			route_out_free(&out);
			cls_free(&c1);
		}
	}
	first = tr[0];	/* the memory fresh, as a single re-route finds it */
	bench_sort(tr, n);
	changed = entries_changed(t0, base.lft, t1, out.lft);
	printf("incremental %s (%u switches, %u LIDs, one of %u switch links down, %u threads): "
	       "route + verify with the base best %.4f s median %.4f s (%d runs; the first "
	       "%.4f s); %s: %u LIDs "
	       "kept, %u patched, %u re-routed, the pass routed %u, the verification judged %u; "
	       "%llu of %llu entries changed; peak RSS +%.1f MiB for a %.1f MiB LFT block "
	       "[issue 27: <= 0.1 s]\n",
	       name, t1->nswitches, t1->max_lid, sw_links(t0), ffr_threads(o.threads), tr[0],
	       tr[n / 2], n, first, out.incremental ? "incremental" : "from scratch", out.kept_lids,
	       out.patched_lids, out.rerouted_lids, out.pass_lids, out.judged_lids,
	       (unsigned long long)changed,
	       (unsigned long long)t1->nswitches * t1->max_lid, (after - before) / 1024.0,
	       (double)t1->nswitches * (t1->max_lid + 1) / (1024.0 * 1024.0));
	route_out_free(&out);
	cls_free(&c1);
	rc = 0;
out:
	route_out_free(&base);
	cls_free(&c0);
	topo_free(t0);
	topo_free(t1);
	diag_free(&dl);
	return rc;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 5, threads = argc > 3 ? atoi(argv[3]) : 0;
	double tc[MAX_RUNS], tr[MAX_RUNS], tall[MAX_RUNS], tnv[MAX_RUNS];
	long before, after = 0;
	size_t heap0 = mallinfo2().uordblks, topo_bytes;
	struct route_out out;
	struct route_opts o;
	struct diag_list dl;
	struct topo *t;
	unsigned nvls = 0, th;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_route frame|ff2|ft3-700|ft3-16k|ft3-32k|ft3-16k-incr [N [THREADS]]\n");
		return 2;
	}
	if (n < 1 || n > MAX_RUNS)
		n = 5;
	if (strstr(argv[1], "-incr")) {
		route_opts_init(&o);
		o.threads = threads > 0 ? (unsigned)threads : 0;
		return bench_incr(argv[1], n, &o);
	}
	diag_init(&dl, 0);
	t = make(argv[1], &dl, 0);
	if (!t) {
		diag_print(&dl, stderr);
		fprintf(stderr, "bench_route: cannot make %s\n", argv[1]);
		return 1;
	}
	topo_bytes = mallinfo2().uordblks - heap0;	/* what the topology keeps on the heap */
	route_opts_init(&o);
	o.threads = threads > 0 ? (unsigned)threads : 0;
	th = ffr_threads(o.threads);
	before = peak_kib();
	for (int i = 0; i < n; i++) {
		struct cls c;
		double t0 = bench_now(), t1, t2;

		if (cls_classify(t, NULL, &c)) {
			fprintf(stderr, "bench_route: classify failed\n");
			return 1;
		}
		t1 = bench_now();
		if (route_run(t, &c, &o, &out)) {
			fprintf(stderr, "bench_route: %s\n", out.err);
			return 1;
		}
		t2 = bench_now();
		route_out_free(&out);
		o.verify = false;
		if (route_run(t, &c, &o, &out))
			return 1;
		o.verify = true;
		tnv[i] = bench_now() - t2;
		tc[i] = t1 - t0;
		tr[i] = t2 - t1;
		tall[i] = t2 - t0;
		nvls = out.nvls;
		if (!i)
			after = peak_kib();
		route_out_free(&out);
		cls_free(&c);
	}
	bench_sort(tc, n);
	bench_sort(tr, n);
	bench_sort(tall, n);
	bench_sort(tnv, n);
	printf("route %s (%u switches, %u CAs, %u LIDs, %u VLs, %u thread%s): classify + route + verify "
	       "best %.4f s median %.4f s (classify %.4f, route %.4f, verify %.4f); peak RSS +%.1f MiB "
	       "for a %.1f MiB LFT block and a %.1f MiB topology (%d runs)\n",
	       argv[1], t->nswitches, t->ncas, t->max_lid,
	       nvls, th, th == 1 ? "" : "s", tall[0], tall[n / 2], tc[n / 2], tnv[n / 2], tr[n / 2] - tnv[n / 2],
	       (after - before) / 1024.0,
	       (double)t->nswitches * (t->max_lid + 1) / (1024.0 * 1024.0),
	       topo_bytes / (1024.0 * 1024.0), n);
	topo_free(t);
	diag_free(&dl);
	return 0;
}

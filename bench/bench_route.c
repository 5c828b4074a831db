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

static struct topo *make(const char *name, struct diag_list *dl)
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
	} else if (!strcmp(name, "ft3-16k")) {
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
	t = gen_fabric(&go, dl);
	if (t && topo_assign_lids(t, 0)) {
		topo_free(t);
		return NULL;
	}
	return t;
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
		fprintf(stderr, "usage: bench_route frame|ff2|ft3-700|ft3-16k|ft3-32k [N [THREADS]]\n");
		return 2;
	}
	if (n < 1 || n > MAX_RUNS)
		n = 5;
	diag_init(&dl, 0);
	t = make(argv[1], &dl);
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

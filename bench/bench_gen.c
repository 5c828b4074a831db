// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench_gen.c - how fast is the fabric generator?
 *
 *   bench_gen [N]   generate the full Fire-Flyer 2 fabric (ff2, bridge
 *                   style: 122 switches, 1568 CAs, 3200 links) N times
 *                   (default 9) with gen_fabric(), and write it N times as
 *                   an ibsim .net file to /dev/null with topo_write_net();
 *                   print the best and median wall time of each and the
 *                   peak RSS of this process
 *
 * Issue 3 bar: generating the full ff2 takes under 1 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <ffroute/gen.h>
#include <ffroute/io.h>

#include "bench.h"

#define MAX_RUNS 64

static struct topo *gen_ff2_full(void)
{
	struct gen_opts o;
	struct diag_list dl;
	struct topo *t;

	gen_opts_init(&o, GEN_FF2);
	o.style = GEN_STYLE_BRIDGE;
	o.full = true;
	diag_init(&dl, 0);
	t = gen_fabric(&o, &dl);
	if (!t)
		diag_print(&dl, stderr);
	diag_free(&dl);
	return t;
}

int main(int argc, char **argv)
{
	double tg[MAX_RUNS], tw[MAX_RUNS];
	int n = argc > 1 ? atoi(argv[1]) : 9;
	unsigned sw = 0, ca = 0, links = 0;
	struct rusage ru;
	FILE *null = fopen("/dev/null", "w");

	if (!null) {
		perror("/dev/null");
		return 1;
	}
	if (n < 1 || n > MAX_RUNS)
		n = 9;
	for (int i = 0; i < n; i++) {
		double t0 = bench_now(), t1;
		struct topo *t = gen_ff2_full();

		t1 = bench_now();
		if (!t) {
			fclose(null);
			return 1;
		}
		tg[i] = t1 - t0;
		if (topo_write_net(t, null)) {
			fprintf(stderr, "writing to /dev/null failed\n");
			topo_free(t);
			fclose(null);
			return 1;
		}
		tw[i] = bench_now() - t1;
		sw = t->nswitches;
		ca = t->ncas;
		links = t->nlinks;
		topo_free(t);
	}
	fclose(null);
	bench_sort(tg, n);
	bench_sort(tw, n);
	getrusage(RUSAGE_SELF, &ru);
	printf("gen ff2 bridge full (%u switches %u CAs %u links): best %.4f s median %.4f s; "
	       "write .net: best %.4f s median %.4f s (%d runs), peak RSS %.1f MB\n",
	       sw, ca, links, tg[0], tg[n / 2], tw[0], tw[n / 2], n,
	       (double)ru.ru_maxrss / 1024.0);
	return 0;
}

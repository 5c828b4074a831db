// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench_load.c - how fast and how small is loading a large fabric?
 *
 *   bench_load gen FILE      write a 3-level Clos of 40-port switches in
 *                            ibnetdiscover format: 200 leaves (20 CAs each,
 *                            4,000 CAs), 200 aggregation switches in 10 pods,
 *                            300 cores = 700 switches
 *   bench_load load FILE N   read FILE N times; print the best and median
 *                            wall time and the peak RSS of this process
 *
 * Run `load` in a fresh process so its peak RSS is the reader's alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <ffroute/io.h>

#include "bench.h"

#define LEAVES 200
#define PODS 10
#define AGGS 200
#define CORES 300
#define RADIX 40
#define DOWN 20

static void add_sw(struct topo_builder *b, int *id, uint64_t guid, const char *desc, int lid)
{
	struct topo_node_info ni = { .type = TOPO_NODE_SWITCH, .nports = RADIX, .guid = guid,
				     .sysguid = guid, .vendor = 0x2c9, .devid = 0xd2f0,
				     .desc = desc };
	struct topo_port_info pi = { .lid = (uint16_t)lid };

	*id = topo_builder_add_node(b, &ni, NULL);
	topo_builder_set_port(b, *id, 0, &pi, NULL);
}

static void link2(struct topo_builder *b, int a, unsigned pa, uint64_t gb, unsigned pb)
{
	struct topo_ref r = { NULL, gb };

	topo_builder_add_link(b, a, pa, &r, pb, 4, TOPO_SPEED_HDR, NULL);
}

static struct topo *gen(struct diag_list *dl)
{
	struct topo_builder *b = topo_builder_new(dl);
	static int leaf[LEAVES], agg[AGGS], core[CORES];
	unsigned core_next[CORES];
	char desc[64];
	int lid = 1;

	for (int c = 0; c < CORES; c++) {
		snprintf(desc, sizeof(desc), "MF0;core%03d:MQM8700/U1", c);
		add_sw(b, &core[c], 0x0c42a10300300000ULL + (uint64_t)c, desc, lid++);
		core_next[c] = 1;
	}
	for (int a = 0; a < AGGS; a++) {
		snprintf(desc, sizeof(desc), "MF0;agg%03d:MQM8700/U1", a);
		add_sw(b, &agg[a], 0x0c42a10300200000ULL + (uint64_t)a, desc, lid++);
		for (unsigned u = 0; u < DOWN; u++) {
			int c = (a * DOWN + (int)u) % CORES;

			link2(b, agg[a], DOWN + 1 + u, 0x0c42a10300300000ULL + (uint64_t)c,
			      core_next[c]++);
		}
	}
	for (int l = 0; l < LEAVES; l++) {
		int pod = l / (LEAVES / PODS), per = AGGS / PODS;

		snprintf(desc, sizeof(desc), "MF0;leaf%03d:MQM8700/U1", l);
		add_sw(b, &leaf[l], 0x0c42a10300100000ULL + (uint64_t)l, desc, lid++);
		for (int u = 0; u < per; u++)
			link2(b, leaf[l], DOWN + 1 + (unsigned)u,
			      0x0c42a10300200000ULL + (uint64_t)(pod * per + u),
			      (unsigned)(l % (LEAVES / PODS)) + 1);
		for (unsigned d = 0; d < DOWN; d++) {
			uint64_t g = 0xb8cef60300000000ULL + (uint64_t)(l * DOWN + (int)d) * 2;
			struct topo_node_info ni = { .type = TOPO_NODE_CA, .nports = 1, .guid = g,
						     .sysguid = g, .vendor = 0x2c9, .devid = 0x101b };
			struct topo_port_info pi = { .guid = g + 1, .lid = (uint16_t)lid++ };
			int h;

			snprintf(desc, sizeof(desc), "cn%04d mlx5_0", l * DOWN + (int)d);
			ni.desc = desc;
			h = topo_builder_add_node(b, &ni, NULL);
			topo_builder_set_port(b, h, 1, &pi, NULL);
			link2(b, h, 1, 0x0c42a10300100000ULL + (uint64_t)l, d + 1);
		}
	}
	return topo_builder_finish(b);
}

static int do_load(const char *path, int n)
{
	double t[64];
	struct rusage ru;
	unsigned sw = 0, ca = 0;

	if (n < 1 || n > 64)
		n = 5;
	for (int i = 0; i < n; i++) {
		struct diag_list dl;
		struct topo *tp;
		double t0 = bench_now();

		diag_init(&dl, 0);
		tp = topo_read_file(path, FFR_FMT_AUTO, &dl);
		t[i] = bench_now() - t0;
		if (!tp) {
			diag_print(&dl, stderr);
			return 1;
		}
		sw = tp->nswitches;
		ca = tp->ncas;
		topo_free(tp);
		diag_free(&dl);
	}
	bench_sort(t, n);
	getrusage(RUSAGE_SELF, &ru);
	printf("load %u switches %u CAs: best %.4f s median %.4f s (%d runs), peak RSS %.1f MB\n",
	       sw, ca, t[0], t[n / 2], n, (double)ru.ru_maxrss / 1024.0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "gen")) {
		struct diag_list dl;
		struct topo *t;
		FILE *fp;
		int rc;

		diag_init(&dl, 0);
		t = gen(&dl);
		if (!t) {
			diag_print(&dl, stderr);
			return 1;
		}
		fp = fopen(argv[2], "w");
		if (!fp) {
			perror(argv[2]);
			return 1;
		}
		rc = topo_write_ibnd(t, fp);
		if (fclose(fp) || rc) {
			fprintf(stderr, "%s: write failed (%d)\n", argv[2], rc);
			return 1;
		}
		printf("wrote %s: %u switches, %u CAs, %u links\n", argv[2], t->nswitches, t->ncas,
		       t->nlinks);
		topo_free(t);
		diag_free(&dl);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "load"))
		return do_load(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: bench_load gen FILE | load FILE N\n");
	return 2;
}

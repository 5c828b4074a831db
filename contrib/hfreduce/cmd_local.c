// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_local.c - --local N: the real allreduce (the code verbs mode runs)
 * over N threads of this process, each rank's input a known pattern, the
 * result checked against a reference sum computed apart: an end-to-end
 * test of the algorithm a user can run on any machine.  The inputs and
 * their check are pattern.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hfrcli.h"

int hfr_local_main(const struct hfr_cli *o)
{
	size_t es = hfr_dtype_size(o->dtype);
	uint64_t n = o->size / es, bad = 0;
	void **buf = calloc(o->local, sizeof(*buf));
	struct hfr_steps *st = hfr_steps_new(hfr_iterations(n, o->chunk / es));
	struct timespec a, b;
	int rc = buf && st ? 0 : -ENOMEM;
	double secs;

	for (uint32_t r = 0; r < o->local && !rc; r++) {
		buf[r] = malloc(n * es);
		if (!buf[r])
			rc = -ENOMEM;
		else
			hfr_fill(o->dtype, buf[r], r, n);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (!rc)
		rc = hfr_local_allreduce(o->local, o->dtype, buf, n, o->chunk / es, st);
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (uint32_t r = 0; r < o->local && !rc; r++)
		bad += hfr_verify(o->dtype, buf[r], o->local, n);
	for (uint32_t r = 0; buf && r < o->local; r++)
		free(buf[r]);
	free(buf);
	if (rc) {
		hfr_steps_free(st);
		fprintf(stderr, "hfreduce-check: local allreduce: %s\n", strerror(-rc));
		return 2;
	}
	hfr_steps_print(stdout, "rank 0", st, o->steps);
	hfr_steps_free(st);
	secs = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	printf("local allreduce: %u ranks, %llu %s elements in %llu-byte chunks: %.3f s, "
	       "%llu wrong elements\n", o->local, (unsigned long long)n,
	       o->dtype == HFR_BF16 ? "bf16" : "f32", (unsigned long long)((o->chunk / es) * es),
	       secs, (unsigned long long)bad);
	return bad ? 1 : 0;
}

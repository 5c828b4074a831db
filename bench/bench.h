/* SPDX-License-Identifier: BSD-2-Clause */
/* bench.h - timing helpers shared by the benchmarks */
#ifndef FFROUTE_BENCH_H
#define FFROUTE_BENCH_H

#include <stdlib.h>
#include <time.h>

/* Monotonic wall time in seconds. */
static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int bench_cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sort @n run times in place (t[0] is then the best, t[n / 2] the median). */
static inline void bench_sort(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(t[0]), bench_cmp_dbl);
}

#endif

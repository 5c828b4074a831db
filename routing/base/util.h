/* SPDX-License-Identifier: BSD-2-Clause */
/* util.h - small helpers shared inside the core library (internal) */
#ifndef FFROUTE_UTIL_H
#define FFROUTE_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* ffr_cmp_u32 - qsort/bsearch order of uint32_t, ascending */
static inline int ffr_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* ffr_cmp_u64 - qsort/bsearch order of uint64_t, ascending */
static inline int ffr_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * ffr_grow - make the array *@v (capacity *@cap elements of @elem bytes)
 * hold at least @need elements, doubling from 64.  Capacities stay below
 * 2^31 so indices fit uint32_t.  Return: 0 or -ENOMEM (*v unchanged).
 */
static inline int ffr_grow(void **v, uint32_t *cap, uint64_t need, size_t elem)
{
	uint64_t ncap;
	void *nv;

	if (need <= *cap)
		return 0;
	ncap = *cap ? (uint64_t)*cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX / 2)
		return -ENOMEM;
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = (uint32_t)ncap;
	return 0;
}

/*
 * ffr_threads - the threads to use for an option @want: 0 means 2 when
 * two CPUs are online, else 1; otherwise @want, at most 2 (the engine and
 * the checker split their work in two, no more).
 */
static inline unsigned ffr_threads(unsigned want)
{
	if (!want)
		want = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	return want > 2 ? 2 : want;
}

#endif

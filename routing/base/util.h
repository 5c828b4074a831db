/* SPDX-License-Identifier: BSD-2-Clause */
/* util.h - small helpers shared inside the core library (internal) */
#ifndef FFROUTE_UTIL_H
#define FFROUTE_UTIL_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

/* ffr_split2()'s range, handed out in chunks to both threads. */
struct ffr_half {
	void (*fn)(void *ctx, uint32_t lo, uint32_t hi, unsigned half);
	void *ctx;
	uint32_t n, chunk;
	atomic_uint next;
};

/* Take chunks of the range until none is left, as thread @half. */
static inline void ffr_half_chunks(struct ffr_half *h, unsigned half)
{
	for (uint32_t lo = atomic_fetch_add(&h->next, h->chunk); lo < h->n;
	     lo = atomic_fetch_add(&h->next, h->chunk))
		h->fn(h->ctx, lo, h->n - lo < h->chunk ? h->n : lo + h->chunk, half);
}

static inline void *ffr_half_run(void *arg)
{
	ffr_half_chunks(arg, 1);
	return NULL;
}

/*
 * ffr_split2 - @fn(@ctx, lo, hi, half) over [0, @n): in chunks of about
 * n / 32 that this thread (half 0) and one of its own (half 1) take in
 * turn until none is left, when ffr_threads(@threads) gives two and @n is
 * at least @min; else one call (half 0).  Rows cost what they cost (a
 * table's rows, then another's): the halves end together.  For loops over
 * rows that share nothing they write; what @fn sums, it sums per half.
 */
static inline void ffr_split2(unsigned threads, uint32_t n, uint32_t min,
			      void (*fn)(void *ctx, uint32_t lo, uint32_t hi, unsigned half),
			      void *ctx)
{
	struct ffr_half h = { .fn = fn, .ctx = ctx, .n = n, .chunk = n / 32 + 1 };
	pthread_t th;

	atomic_init(&h.next, 0);
	if (n < min || n > UINT32_MAX / 2 || ffr_threads(threads) < 2 ||
	    pthread_create(&th, NULL, ffr_half_run, &h)) {
		fn(ctx, 0, n, 0);
		return;
	}
	ffr_half_chunks(&h, 0);
	pthread_join(th, NULL);
}

/*
 * ffr_huge_hint - ask for transparent huge pages on the whole 2 MiB pages
 * inside [@p, @p + @n), before the first touch: a fresh table of tens of
 * megabytes otherwise takes a page fault every 4 KiB.  A hint.
 */
static inline void ffr_huge_hint(void *p, size_t n)
{
	uintptr_t a = ((uintptr_t)p + 0x1fffff) & ~(uintptr_t)0x1fffff;
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)0x1fffff;

	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
}

/* ffr_popcount - the bits set in the @n bytes at @p, eight bytes at a time */
static inline uint64_t ffr_popcount(const uint8_t *p, size_t n)
{
	const uint64_t m1 = 0x5555555555555555ull, m2 = 0x3333333333333333ull,
		       m4 = 0x0f0f0f0f0f0f0f0full, ones = 0x0101010101010101ull;
	uint64_t c = 0;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		x -= (x >> 1) & m1;
		x = (x & m2) + ((x >> 2) & m2);
		x = (x + (x >> 4)) & m4;
		c += (x * ones) >> 56;
	}
	for (; i < n; i++)
		for (unsigned v = p[i]; v; v &= v - 1)
			c++;
	return c;
}

/*
 * ffr_count_byte - how many of the @n bytes at @p equal @v; eight at a
 * time (a table of 22 million entries is counted in a few milliseconds,
 * where a byte loop takes several times that).
 */
static inline size_t ffr_count_byte(const uint8_t *p, size_t n, uint8_t v)
{
	const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
	size_t c = 0, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		x ^= ones * v;	/* the bytes equal to v are now 0 */
		/* 1 in each byte that is not 0, then their sum in the top byte */
		x = (((x & low7) + low7) | x) >> 7 & ones;
		c += 8 - (size_t)((x * ones) >> 56);
	}
	for (; i < n; i++)
		c += p[i] == v;
	return c;
}

/*
 * ffr_count_byte_range - how many of the @n bytes at @p equal @a or lie in
 * [@lo, @hi] (@hi < 128; empty when @lo > @hi); one pass, eight at a time,
 * as ffr_count_byte()
 */
static inline size_t ffr_count_byte_range(const uint8_t *p, size_t n, uint8_t a, uint8_t lo,
					  uint8_t hi)
{
	const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full, high = ~low7;
	size_t c = 0, i = 0;

	if (lo > hi)
		lo = (uint8_t)(hi + 1);	/* empty, and no more than 128 */
	for (; i + 8 <= n; i += 8) {
		uint64_t x, xa, y, ge, gt;

		memcpy(&x, p + i, 8);
		xa = x ^ ones * a;
		xa = ((xa & low7) + low7) | xa;		/* top bit: not a */
		y = x & low7;
		ge = y + ones * (uint64_t)(0x80 - lo);	/* top bit: y >= lo */
		gt = y + ones * (uint64_t)(0x7f - hi);	/* top bit: y > hi */
		x = ((ge & ~gt & ~x) | ~xa) & high;	/* (in range, below 128) or a */
		c += (size_t)(((x >> 7) * ones) >> 56);
	}
	for (; i < n; i++)
		c += p[i] == a || (p[i] >= lo && p[i] <= hi);
	return c;
}

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rng.h - the one seeded PRNG of the core library (splitmix64, Steele,
 * Lea, Flood 2014): the generator's wiring faults, the checker's samples
 * and the engine's digit search draw from it, so a seed means the same
 * thing everywhere and output is reproducible byte for byte (internal).
 */
#ifndef FFROUTE_RNG_H
#define FFROUTE_RNG_H

#include <stdint.h>

/* Next 64 random bits; advances the state *@s. */
static inline uint64_t ffr_rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in 0..@n-1 (0 when @n is 0). */
static inline uint32_t ffr_rng_below(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(ffr_rng_next(s) % n) : 0;
}

#endif
